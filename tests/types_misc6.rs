//! One-of-a-kind types (`config/reformer.rs`, `config/prophetnet.rs`): each count written out by
//! hand from transformers 5.24's modeling file (embeddings + layers x (attention + feed-forward +
//! norms) + final norm + head), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn refused(config: serde_json::Value) -> String {
    plan_text(&config.to_string()).unwrap_err().to_string()
}

/// A Reformer layer (modeling_reformer.py): `attention.layer_norm` (2h), LSH attention's
/// `query_key` and `value` or local attention's `query`, `key` and `value` (h x inner each, no
/// bias), `output.dense` (inner x h), `feed_forward.layer_norm` (2h), `dense.dense` (h x f + f),
/// `output.dense` (f x h + h).
fn reformer_layer(h: u64, inner: u64, f: u64, lsh: bool) -> u64 {
    let projections = if lsh { 2 } else { 3 };
    2 * h + projections * h * inner + inner * h + 2 * h + (h * f + f) + (f * h + h)
}

#[test]
fn reformer_counts_lsh_and_local_layers_axial_positions_and_both_halves_in_its_lm_head() {
    // ReformerConfig's defaults: vocab 320, hidden 256, 12 heads x 64, ffn 512, six layers
    // alternating local and LSH, axial tables [64, 1, 64] and [1, 64, 192].
    let (v, h, inner, f) = (320, 256, 12 * 64, 512);
    let embeddings = v * h + 64 * 64 + 64 * 192;
    let layers = 3 * reformer_layer(h, inner, f, false) + 3 * reformer_layer(h, inner, f, true);
    // encoder.layer_norm over the two reversible halves: 2 x 2h.
    let final_norm = 2 * (2 * h);
    // ReformerOnlyLMHead: decoder (2h -> v, with a bias) and its own `bias` beside it.
    let head = 2 * h * v + v + v;
    let expected = embeddings + layers + final_norm + head;
    assert_eq!(expected, 5_976_192); // ReformerModelWithLMHead(ReformerConfig(is_decoder=True))
    let config = json!({"model_type": "reformer", "architectures": ["ReformerModelWithLMHead"],
        "is_decoder": true});
    assert_eq!(derived(config), expected);
}

#[test]
fn reformer_with_a_plain_position_table_and_a_classifier_reads_both_halves() {
    let (v, h, heads, hd, f, positions, labels) = (300, 48, 3, 20, 80, 128, 5);
    let inner = heads * hd;
    let embeddings = v * h + positions * h;
    let layers = 2 * reformer_layer(h, inner, f, false);
    // ReformerClassificationHead: dense (2h -> h) and out_proj (h -> labels), with biases.
    let head = (2 * h * h + h) + (h * labels + labels);
    let expected = embeddings + layers + 2 * (2 * h) + head;
    let config = json!({"model_type": "reformer", "architectures": ["ReformerForSequenceClassification"],
        "vocab_size": v, "hidden_size": h, "num_attention_heads": heads, "attention_head_size": hd,
        "feed_forward_size": f, "attn_layers": ["local", "local"], "axial_pos_embds": false,
        "max_position_embeddings": positions, "num_labels": labels});
    assert_eq!(derived(config), expected);
}

#[test]
fn reformer_refuses_axial_widths_that_do_not_sum_to_the_hidden_size() {
    let config = json!({"model_type": "reformer", "hidden_size": 64, "axial_pos_shape": [8, 8],
        "axial_pos_embds_dim": [16, 32]});
    assert!(refused(config).contains("axial_pos_embds_dim"));
}

#[test]
fn reformer_refuses_an_attention_layer_kind_it_does_not_build() {
    let config = json!({"model_type": "reformer", "attn_layers": ["lsh", "global"]});
    assert!(refused(config).contains("attn_layers"));
}

/// ProphetNet's attention (modeling_prophetnet.py): key, value, query and out projections,
/// h x h with a bias each.
fn attention(h: u64) -> u64 {
    4 * (h * h + h)
}

/// Its feed-forward (`intermediate` h x f + f, `output` f x h + h) and the LayerNorm after it.
fn feed_forward(h: u64, f: u64) -> u64 {
    (h * f + f) + (f * h + h) + 2 * h
}

#[test]
fn prophetnet_ties_every_table_and_the_head_to_one_word_embedding_by_default() {
    // ProphetNetConfig's defaults: vocab 30522, hidden 1024, ffn 4096, 12 + 12 layers, 16 heads,
    // 512 positions, ngram 2, 32 buckets, cross-attention on, tied.
    let (v, h, f, layers, heads, positions, ngram, buckets) = (30522, 1024, 4096, 12, 16, 512, 2, 32);
    let shared = v * h;
    let encoder = positions * h + 2 * h + layers * (attention(h) + 2 * h + feed_forward(h, f));
    // The n-gram self-attention adds relative_pos_embeddings (h -> buckets x heads, with a
    // bias); cross_attn and its norm follow.
    let decoder_layer = attention(h)
        + (h * buckets * heads + buckets * heads)
        + 2 * h
        + attention(h)
        + 2 * h
        + feed_forward(h, f);
    let decoder = positions * h + ngram * h + 2 * h + layers * decoder_layer;
    let expected = shared + encoder + decoder;
    assert_eq!(expected, 391_321_600); // ProphetNetForConditionalGeneration(ProphetNetConfig())
    let config = json!({"model_type": "prophetnet", "architectures": ["ProphetNetForConditionalGeneration"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn untied_prophetnet_keeps_a_table_per_stack_and_its_own_head() {
    // The encoder at 1 layer, the decoder at 2, no cross-attention; untied: the shared table,
    // the decoder's own copy and lm_head (ProphetNetForCausalLM holds no encoder).
    let (v, h, f, heads, positions, ngram, buckets) = (300, 48, 70, 6, 64, 2, 32);
    let decoder_layer = attention(h) + (h * buckets * heads + buckets * heads) + 2 * h + feed_forward(h, f);
    let decoder = v * h + positions * h + ngram * h + 2 * h + 2 * decoder_layer;
    let expected = v * h + decoder + v * h;
    let config = json!({"model_type": "prophetnet", "architectures": ["ProphetNetForCausalLM"],
        "vocab_size": v, "hidden_size": h, "decoder_ffn_dim": f, "num_encoder_layers": 1,
        "num_decoder_layers": 2, "num_decoder_attention_heads": heads, "num_encoder_attention_heads": 3,
        "max_position_embeddings": positions, "add_cross_attention": false,
        "tie_word_embeddings": false});
    assert_eq!(derived(config), expected);
}

#[test]
fn prophetnet_refuses_heads_that_do_not_divide_the_hidden_size() {
    let config = json!({"model_type": "prophetnet", "hidden_size": 64, "num_decoder_attention_heads": 5});
    assert!(refused(config).contains("num_decoder_attention_heads"));
}

/// An XLNet layer (modeling_xlnet.py): `rel_attn`'s q, k, v, o and r (h x heads x d_head = h x h
/// each), r_r_bias, r_s_bias and r_w_bias (h each), seg_embed (2h), its LayerNorm (2h); `ff`'s
/// LayerNorm (2h), layer_1 (h x f + f), layer_2 (f x h + h).
fn xlnet_layer(h: u64, f: u64) -> u64 {
    5 * h * h + 3 * h + 2 * h + 2 * h + 2 * h + (h * f + f) + (f * h + h)
}

#[test]
fn xlnet_counts_its_relative_attention_parameters_and_a_tied_lm_head_keeping_its_bias() {
    // XLNetConfig's defaults: vocab 32000, d_model 1024, 24 layers, 16 heads, d_inner 4096.
    let (v, h, layers, f) = (32000, 1024, 24, 4096);
    // word_embedding, mask_emb [1, 1, h]; lm_loss's weight is tied, its bias is not.
    let expected = v * h + h + layers * xlnet_layer(h, f) + v;
    assert_eq!(expected, 360_300_800); // XLNetLMHeadModel(XLNetConfig())
    let config = json!({"model_type": "xlnet", "architectures": ["XLNetLMHeadModel"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn xlnet_sequence_summary_projects_to_the_labels_when_the_file_asks() {
    let (v, h, layers, f, labels) = (300, 48, 2, 70, 5);
    // sequence_summary.summary: h -> labels (summary_proj_to_labels), then logits_proj h -> labels.
    let head = (h * labels + labels) + (h * labels + labels);
    let expected = v * h + h + layers * xlnet_layer(h, f) + head;
    let config = json!({"model_type": "xlnet", "architectures": ["XLNetForSequenceClassification"],
        "vocab_size": v, "d_model": h, "n_layer": layers, "n_head": 6, "d_inner": f,
        "num_labels": labels, "summary_proj_to_labels": true});
    assert_eq!(derived(config), expected);
}

#[test]
fn xlnet_refuses_a_head_width_other_than_d_model_over_n_head() {
    let config = json!({"model_type": "xlnet", "d_model": 64, "n_head": 4, "d_head": 32});
    assert!(refused(config).contains("d_head"));
}

/// An XLM layer (modeling_xlm.py): q_lin, k_lin, v_lin, out_lin (h x h + h each), layer_norm1
/// (2h), ffns' lin1 (h x 4h + 4h) and lin2 (4h x h + h), layer_norm2 (2h).
fn xlm_layer(h: u64) -> u64 {
    4 * (h * h + h) + 2 * h + (h * 4 * h + 4 * h) + (4 * h * h + h) + 2 * h
}

#[test]
fn xlm_counts_language_embeddings_only_for_several_languages_and_a_tied_prediction_layer() {
    let (v, h, layers, positions, langs) = (500, 64, 3, 80, 5);
    // embeddings, position_embeddings, lang_embeddings (n_langs 5 > 1), layer_norm_emb; then
    // pred_layer.proj: weight tied to the embeddings, bias its own.
    let embeddings = v * h + positions * h + langs * h + 2 * h;
    let expected = embeddings + layers * xlm_layer(h) + v;
    let config = json!({"model_type": "xlm", "architectures": ["XLMWithLMHeadModel"], "vocab_size": v,
        "emb_dim": h, "n_layers": layers, "n_heads": 4, "n_langs": langs,
        "max_position_embeddings": positions});
    assert_eq!(derived(config), expected);
    // XLMConfig's defaults (vocab 30145, emb_dim 2048, 12 layers, 512 positions, one language):
    // XLMModel(XLMConfig()) holds 667,088,896 parameters under transformers 5.24.
    let (v, h) = (30145, 2048);
    let bare = v * h + 512 * h + 2 * h + 12 * xlm_layer(h);
    assert_eq!(bare, 667_088_896);
    assert_eq!(derived(json!({"model_type": "xlm"})), bare);
}

#[test]
fn xlm_multiple_choice_projects_the_label_summary_to_one_logit() {
    let (v, h, layers, positions, labels) = (300, 48, 2, 512, 5);
    // sequence_summary.summary: h -> labels (summary_proj_to_labels defaults true for XLM);
    // logits_proj: labels -> 1.
    let head = (h * labels + labels) + (labels + 1);
    let expected = v * h + positions * h + 2 * h + layers * xlm_layer(h) + head;
    let config = json!({"model_type": "xlm", "architectures": ["XLMForMultipleChoice"], "vocab_size": v,
        "emb_dim": h, "n_layers": layers, "n_heads": 6, "num_labels": labels});
    assert_eq!(derived(config), expected);
}

#[test]
fn xlm_refuses_a_decoder_configuration_transformers_cannot_build() {
    let config = json!({"model_type": "xlm", "is_encoder": false});
    assert!(refused(config).contains("is_encoder"));
}

/// LXMERT's attention block (modeling_lxmert.py): query, key, value and the output dense (h x h
/// + h each) and the output LayerNorm (2h).
fn lxmert_attention(h: u64) -> u64 {
    4 * (h * h + h) + 2 * h
}

/// Its feed-forward: intermediate (h x f + f), output (f x h + h), LayerNorm (2h).
fn lxmert_ffn(h: u64, f: u64) -> u64 {
    (h * f + f) + (f * h + h) + 2 * h
}

#[test]
fn lxmert_counts_language_object_and_cross_modality_stacks_and_its_answer_head() {
    // LxmertConfig's defaults: vocab 30522, hidden 768, ffn 3072, 9 language, 5 object and 5
    // cross-modality layers, 512 positions, 2 token types, 2048-wide features, 4-wide boxes,
    // 9500 answers.
    let (v, h, f, (l, r, x), feat, pos, answers) = (30522, 768, 3072, (9, 5, 5), 2048, 4, 9500);
    let embeddings = v * h + 512 * h + 2 * h + 2 * h;
    // visn_fc and box_fc (with biases), each followed by a LayerNorm.
    let visual = (feat * h + h) + 2 * h + (pos * h + h) + 2 * h;
    let bert_layer = lxmert_attention(h) + lxmert_ffn(h, f);
    // One cross-attention shared by both directions, each side's self-attention and feed-forward.
    let cross_layer = 3 * lxmert_attention(h) + 2 * lxmert_ffn(h, f);
    let pooler = h * h + h;
    let model = embeddings + visual + (l + r) * bert_layer + x * cross_layer + pooler;
    assert_eq!(model, 207_936_768); // LxmertModel(LxmertConfig())
    assert_eq!(derived(json!({"model_type": "lxmert"})), model);
    // answer_head.logit_fc: h -> 2h, LayerNorm(2h), 2h -> answers.
    let answer = (h * 2 * h + 2 * h) + 2 * (2 * h) + (2 * h * answers + answers);
    assert_eq!(model + answer, 223_722_524); // LxmertForQuestionAnswering(LxmertConfig())
    let config = json!({"model_type": "lxmert", "architectures": ["LxmertForQuestionAnswering"]});
    assert_eq!(derived(config), model + answer);
}

#[test]
fn lxmert_refuses_heads_that_do_not_divide_the_hidden_size() {
    let config = json!({"model_type": "lxmert", "hidden_size": 100, "num_attention_heads": 12});
    assert!(refused(config).contains("num_attention_heads"));
}

#[test]
fn xlnet_reads_its_sizes_under_the_attribute_map_names_too() {
    // XLNetConfig.attribute_map: n_token -> vocab_size, hidden_size -> d_model,
    // num_hidden_layers -> n_layer, num_attention_heads -> n_head; d_inner stays 4096.
    let (v, h, f) = (100, 64, 4096);
    let expected = v * h + h + xlnet_layer(h, f);
    let config = json!({"model_type": "xlnet", "n_token": v, "hidden_size": h, "num_hidden_layers": 1,
        "num_attention_heads": 4});
    assert_eq!(derived(config), expected);
}

/// A `PerceiverLayer` (modeling_perceiver.py): layernorm1 over the queries (2q), for a
/// cross-attention layernorm2 over the keys/values (2kv); query (q x qk + qk), key (kv x qk +
/// qk), value (kv x v + v); the output dense (v to q for a cross-attention, v to v otherwise);
/// layernorm (2q); the MLP (q x wq + wq, wq x q + q).
fn perceiver_layer(q: u64, kv: u64, qk: u64, v: u64, widening: u64, cross: bool) -> u64 {
    let norms = 2 * q + if cross { 2 * kv } else { 0 } + 2 * q;
    let projections = (q * qk + qk) + (kv * qk + qk) + (kv * v + v);
    let out = if cross { q } else { v };
    let w = widening * q;
    norms + projections + (v * out + out) + (q * w + w) + (w * q + q)
}

#[test]
fn perceiver_counts_latents_one_cross_attention_and_self_attention_layers_shared_across_blocks() {
    // PerceiverConfig's defaults: 256 latents of 1280, d_model 768, 26 self-attention layers
    // (num_blocks reuses them), 8 heads each, widening 1, channels from the widths: the
    // cross-attention's query/key channels take the inputs' width ("kv").
    let (latents, dl, dm) = (256, 1280, 768);
    let model = latents * dl
        + perceiver_layer(dl, dm, dm, dm, 1, true)
        + 26 * perceiver_layer(dl, dl, dl, dl, 1, false);
    assert_eq!(model, 262_686_208); // PerceiverModel(PerceiverConfig())
    assert_eq!(derived(json!({"model_type": "perceiver", "num_blocks": 3})), model);
    // PerceiverForMaskedLM adds the byte and position tables (262 and 2048 rows of 768), the
    // decoder's 2048 trainable queries and its cross-attention (8 heads x 32 query/key
    // channels, values 768 wide) and embedding_decoder's bias.
    let (v, pos) = (262, 2048);
    let masked = model + v * dm + pos * dm + pos * dm + perceiver_layer(dm, dl, 256, dm, 1, true) + v;
    assert_eq!(masked, 269_319_430); // PerceiverForMaskedLM(PerceiverConfig())
    assert_eq!(
        derived(json!({"model_type": "perceiver", "architectures": ["PerceiverForMaskedLM"]})),
        masked
    );
}

#[test]
fn perceiver_refuses_its_image_classes_by_name() {
    let config =
        json!({"model_type": "perceiver", "architectures": ["PerceiverForImageClassificationLearned"]});
    assert!(refused(config).contains("architectures"));
}
