//! Parameter counts of issue 10's enc4 types, each written out by hand from transformers 5.24's
//! modeling files (`modeling_roc_bert.py`, `modeling_rembert.py`, `modeling_roformer.py`,
//! `modeling_gte.py`, `modeling_nomic_bert.py`, `modeling_jina_embeddings_v3.py`).

mod common;

use common::plan_text;
use serde_json::json;

/// nn.Linear(i, o) with its bias.
fn linear(i: u64, o: u64) -> u64 {
    i * o + o
}

/// nn.LayerNorm(w): weight and bias.
fn norm(w: u64) -> u64 {
    2 * w
}

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// BERT's post-LN layer of width `h`: q, k, v and the output dense, a norm, the MLP, a norm.
fn bert_layer(h: u64, ffn: u64) -> u64 {
    4 * linear(h, h) + norm(h) + linear(h, ffn) + linear(ffn, h) + norm(h)
}

/// A config of `model_type` and `class` with (hidden, layers, heads, ffn, vocab, positions) and
/// `more` keys.
fn small(model_type: &str, class: &str, sizes: [u64; 6], more: serde_json::Value) -> serde_json::Value {
    let [h, layers, heads, ffn, vocab, positions] = sizes;
    let mut config = json!({
        "model_type": model_type, "architectures": [class], "hidden_size": h,
        "num_hidden_layers": layers, "num_attention_heads": heads, "intermediate_size": ffn,
        "vocab_size": vocab, "max_position_embeddings": positions
    });
    if let (Some(c), Some(m)) = (config.as_object_mut(), more.as_object()) {
        c.extend(m.clone());
    }
    config
}

#[test]
fn roc_bert_adds_pronunciation_and_shape_tables_mapped_back_to_the_hidden_size() {
    // 2 layers of 64, ffn 96, vocab 400, 32 positions, 2 token types; 20 pronunciations of 12
    // and 30 shapes of 8, concatenated (64 + 12 + 8 = 84) and mapped to 64.
    let more = json!({"pronunciation_vocab_size": 20, "pronunciation_embed_dim": 12,
                      "shape_vocab_size": 30, "shape_embed_dim": 8, "type_vocab_size": 2});
    let embeddings = 400 * 64 + 20 * 12 + 30 * 8 + 32 * 64 + 2 * 64 + linear(84, 64) + norm(64);
    let encoder = embeddings + 2 * bert_layer(64, 96);
    // RoCBertModel keeps its pooler.
    let model = small("roc_bert", "RoCBertModel", [64, 2, 4, 96, 400, 32], more.clone());
    assert_eq!(derived(model), encoder + linear(64, 64));
    // RoCBertForPreTraining: the pooler and BERT's MLM head (transform dense and norm, the
    // decoder tied, its bias `cls.predictions.bias`), but no next-sentence classifier.
    let pre = small("roc_bert", "RoCBertForPreTraining", [64, 2, 4, 96, 400, 32], more);
    let expected = encoder + linear(64, 64) + linear(64, 64) + norm(64) + 400;
    assert_eq!(expected, 101_360);
    assert_eq!(derived(pre), expected);
}

#[test]
fn roc_bert_without_concat_input_sums_its_tables_without_a_map() {
    let more = json!({"pronunciation_vocab_size": 20, "pronunciation_embed_dim": 12,
                      "shape_vocab_size": 30, "shape_embed_dim": 8, "concat_input": false,
                      "type_vocab_size": 2});
    let config = small("roc_bert", "RoCBertForTokenClassification", [64, 1, 4, 96, 400, 32], more);
    let embeddings = 400 * 64 + 20 * 12 + 30 * 8 + 32 * 64 + 2 * 64 + norm(64);
    // Two labels by default, no pooler.
    assert_eq!(derived(config), embeddings + bert_layer(64, 96) + linear(64, 2));
}

#[test]
fn rembert_maps_narrow_tables_up_and_keeps_an_untied_wide_output_head() {
    // Tables of 48 (input_embedding_size), mapped to 64 by `encoder.embedding_hidden_mapping_in`;
    // the MLM head: dense 64 -> 80 (output_embedding_size), LayerNorm(80), a decoder 80 -> 400
    // with its bias, tied to nothing even when the file asks.
    let more = json!({"input_embedding_size": 48, "output_embedding_size": 80, "type_vocab_size": 2,
                      "tie_word_embeddings": true});
    let config = small("rembert", "RemBertForMaskedLM", [64, 2, 4, 96, 400, 32], more);
    let embeddings = 400 * 48 + 32 * 48 + 2 * 48 + norm(48) + linear(48, 64);
    let head = linear(64, 80) + norm(80) + linear(80, 400);
    let expected = embeddings + 2 * bert_layer(64, 96) + head;
    assert_eq!(expected, 120_512);
    assert_eq!(derived(config), expected);
}

#[test]
fn roformer_has_a_frozen_sinusoid_table_per_head_width_and_projects_narrow_embeddings() {
    // No learned position table: the encoder's `embed_positions` holds 32 positions x head_dim
    // (64 / 4 = 16), a frozen parameter transformers counts. Tables 40 wide, projected to 64
    // (`embeddings_project`, built because 40 != 64). No pooler. The MLM transform goes
    // 64 -> 40 and its tied decoder reads 40; `cls.predictions.bias` is the decoder's bias.
    let more = json!({"embedding_size": 40, "type_vocab_size": 2});
    let config = small("roformer", "RoFormerForMaskedLM", [64, 2, 4, 96, 400, 32], more);
    let embeddings = 400 * 40 + 2 * 40 + norm(40) + linear(40, 64) + 32 * 16;
    let head = linear(64, 40) + norm(40) + 400;
    let expected = embeddings + 2 * bert_layer(64, 96) + head;
    assert_eq!(expected, 81_064);
    assert_eq!(derived(config), expected);
}

#[test]
fn roformer_question_answering_always_has_two_outputs_and_classifies_through_a_dense() {
    let more = json!({"type_vocab_size": 2, "num_labels": 5});
    let base = 400 * 64 + 2 * 64 + norm(64) + 32 * 16 + bert_layer(64, 96);
    let qa = small("roformer", "RoFormerForQuestionAnswering", [64, 1, 4, 96, 400, 32], more.clone());
    assert_eq!(derived(qa), base + linear(64, 2));
    // RoFormerClassificationHead: dense, then out_proj to the 5 labels.
    let seq = small("roformer", "RoFormerForSequenceClassification", [64, 1, 4, 96, 400, 32], more);
    assert_eq!(derived(seq), base + linear(64, 64) + linear(64, 5));
}

/// A rotary encoder layer of width `h`: q, k, v, o (biases `attention`), the post-attention
/// norm, the MLP and the post-MLP norm.
fn rotary_layer(h: u64, all: u64, attention: bool, mlp: u64) -> u64 {
    let b = u64::from(attention);
    3 * (h * all + b * all) + all * h + b * h + norm(h) + mlp + norm(h)
}

#[test]
fn gte_builds_a_gated_mlp_whose_down_projection_alone_has_a_bias() {
    // 2 layers of 64, 4 heads, ffn 96, vocab 400, one token type, no position table.
    // GteForMaskedLM: no pooler; `lm_head` dense, layer_norm and a decoder tied to the word
    // table with its own bias.
    let config = small("gte", "GteForMaskedLM", [64, 2, 4, 96, 400, 32], json!({}));
    let mlp = 2 * 64 * 96 + linear(96, 64);
    let encoder = 400 * 64 + 64 + norm(64) + 2 * rotary_layer(64, 64, true, mlp);
    let expected = encoder + linear(64, 64) + norm(64) + 400;
    assert_eq!(expected, 101_264);
    assert_eq!(derived(config), expected);
    // The bare model has no pooler; sequence classification pools, then one linear.
    let bare = small("gte", "GteModel", [64, 2, 4, 96, 400, 32], json!({}));
    assert_eq!(derived(bare), encoder);
    let seq = small("gte", "GteForSequenceClassification", [64, 2, 4, 96, 400, 32], json!({}));
    assert_eq!(derived(seq), encoder + linear(64, 64) + linear(64, 2));
}

#[test]
fn gte_with_no_token_types_builds_no_token_type_table() {
    // gte-base-en-v1.5 writes type_vocab_size 0.
    let config = small("gte", "GteModel", [64, 1, 4, 96, 400, 32], json!({"type_vocab_size": 0}));
    let mlp = 2 * 64 * 96 + linear(96, 64);
    assert_eq!(derived(config), 400 * 64 + norm(64) + rotary_layer(64, 64, true, mlp));
}

#[test]
fn nomic_bert_has_no_biases_in_its_layers_and_reads_head_dim() {
    // head_dim 24 x 4 heads = 96 for q, k, v and o; a gated MLP without biases; 2 token types.
    // NomicBertForMaskedLM: BERT's `cls` head (dense, layer_norm, tied decoder, its bias).
    let more = json!({"head_dim": 24, "type_vocab_size": 2});
    let config = small("nomic_bert", "NomicBertForMaskedLM", [64, 2, 4, 96, 400, 32], more);
    let mlp = 3 * 64 * 96;
    let encoder = 400 * 64 + 2 * 64 + norm(64) + 2 * rotary_layer(64, 96, false, mlp);
    let expected = encoder + linear(64, 64) + norm(64) + 400;
    assert_eq!(expected, 117_072);
    assert_eq!(derived(config), expected);
}

#[test]
fn jina_embeddings_v3_keeps_xlm_roberta_heads_over_rotary_layers_with_fc_mlps() {
    // fc1 and fc2 with biases; one token type; the bare model keeps its pooler; sequence
    // classification through RoBERTa's dense + out_proj head.
    let mlp = linear(64, 96) + linear(96, 64);
    let encoder = 400 * 64 + 64 + norm(64) + 2 * rotary_layer(64, 64, true, mlp);
    let bare = small("jina_embeddings_v3", "JinaEmbeddingsV3Model", [64, 2, 4, 96, 400, 34], json!({}));
    assert_eq!(derived(bare), encoder + linear(64, 64));
    let seq = small(
        "jina_embeddings_v3",
        "JinaEmbeddingsV3ForSequenceClassification",
        [64, 2, 4, 96, 400, 34],
        json!({}),
    );
    let expected = encoder + linear(64, 64) + linear(64, 2);
    assert_eq!(expected, 88_770);
    assert_eq!(derived(seq), expected);
}

#[test]
fn esm_is_pre_ln_with_a_contact_head_and_no_token_types() {
    // 2 layers of 64, 4 heads, ffn 96, vocab 33, 34 learned positions, no token types, no
    // embedding norm (emb_layer_norm_before unset). Each layer: attention.LayerNorm before
    // attention, q/k/v/o, the layer's LayerNorm before the MLP; `emb_layer_norm_after` after
    // the stack; `contact_head.regression` from 2 x 4 attention maps to one logit.
    // EsmForMaskedLM: no pooler; lm_head dense, layer_norm, decoder tied, `lm_head.bias`.
    let config = small("esm", "EsmForMaskedLM", [64, 2, 4, 96, 33, 34], json!({"pad_token_id": 1}));
    let encoder = 33 * 64 + 34 * 64 + 2 * bert_layer(64, 96) + norm(64) + linear(8, 1);
    let expected = encoder + linear(64, 64) + norm(64) + 33;
    assert_eq!(expected, 67_434);
    assert_eq!(derived(config), expected);
}

#[test]
fn esm_with_rotary_positions_drops_the_table_and_keeps_the_embedding_norm_it_asks_for() {
    let more = json!({"position_embedding_type": "rotary", "emb_layer_norm_before": true});
    let config = small("esm", "EsmModel", [64, 1, 4, 96, 33, 34], more);
    // The bare model keeps its pooler.
    let expected = 33 * 64 + norm(64) + bert_layer(64, 96) + norm(64) + linear(4, 1) + linear(64, 64);
    assert_eq!(derived(config), expected);
}

#[test]
fn xmod_adds_one_bottleneck_adapter_per_distinct_language_to_each_layer() {
    // 2 layers of 64, RoBERTa's tables (32 positions, 2 token types), three languages (one
    // written twice: a ModuleDict keeps one), a reduction of 4 (64 -> 16 -> 64), the adapters'
    // own norm, pre_norm's final `encoder.LayerNorm`; XmodModel keeps its pooler.
    let more = json!({"languages": ["en_XX", "de_DE", "fr_XX", "de_DE"], "adapter_reduction_factor": 4,
                      "adapter_layer_norm": true, "pre_norm": true, "type_vocab_size": 2});
    let config = small("xmod", "XmodModel", [64, 2, 4, 96, 400, 32], more);
    let adapters = norm(64) + 3 * (linear(64, 16) + linear(16, 64));
    let embeddings = 400 * 64 + 32 * 64 + 2 * 64 + norm(64);
    let expected = embeddings + 2 * (bert_layer(64, 96) + adapters) + norm(64) + linear(64, 64);
    assert_eq!(expected, 103_904);
    assert_eq!(derived(config), expected);
}

/// A 1-wide Conv1d from `i` to `o` channels in `g` groups: weight `[o, i / g, 1]` and a bias.
fn conv(i: u64, o: u64, g: u64) -> u64 {
    o * (i / g) + o
}

#[test]
fn squeezebert_projects_through_grouped_convolutions_and_always_pools() {
    // 2 layers of 64, ffn 96, vocab 400, 32 positions, 2 token types; q 4 groups, k 8, v 1,
    // post-attention 2, intermediate 16, output 32. SqueezeBertForMaskedLM keeps the pooler;
    // BERT's MLM head with its decoder tied and `cls.predictions.bias`.
    let more = json!({"embedding_size": 64, "q_groups": 4, "k_groups": 8, "v_groups": 1,
                      "post_attention_groups": 2, "intermediate_groups": 16, "output_groups": 32,
                      "type_vocab_size": 2});
    let config = small("squeezebert", "SqueezeBertForMaskedLM", [64, 2, 4, 96, 400, 32], more);
    let layer = conv(64, 64, 4)
        + conv(64, 64, 8)
        + conv(64, 64, 1)
        + conv(64, 64, 2)
        + norm(64)
        + conv(64, 96, 16)
        + conv(96, 64, 32)
        + norm(64);
    let embeddings = 400 * 64 + 32 * 64 + 2 * 64 + norm(64);
    let expected = embeddings + 2 * layer + linear(64, 64) + linear(64, 64) + norm(64) + 400;
    assert_eq!(expected, 54_608);
    assert_eq!(derived(config), expected);
}

#[test]
fn convbert_mixes_half_width_attention_with_span_convolutions_and_groups_its_mlp() {
    // 2 layers of 64, 4 heads with head_ratio 2: 2 heads of (64 / 2) / 2 = 16, so q, k and v
    // are 64 -> 32; the separable convolution over the keys (kernel 5): depthwise [64, 1, 5],
    // pointwise [32, 64, 1], a bias [32, 1]; conv_kernel_layer 32 -> 2 x 5; conv_out_layer
    // 64 -> 32; the output dense 64 -> 64 and its norm; the MLP in 2 groups: weights
    // [2, 32, 48] and [2, 48, 32] with biases 96 and 64; the output norm.
    // Tables 40 wide, projected to 64; ConvBertForMaskedLM: no pooler, the generator head
    // (dense 64 -> 40, LayerNorm(40), generator_lm_head tied with its bias 400).
    let more = json!({"embedding_size": 40, "head_ratio": 2, "conv_kernel_size": 5, "num_groups": 2,
                      "type_vocab_size": 2});
    let config = small("convbert", "ConvBertForMaskedLM", [64, 2, 4, 96, 400, 32], more);
    let attention = 3 * linear(64, 32) + 64 * 5 + 32 * 64 + 32 + linear(32, 10) + linear(64, 32);
    let mlp = (2 * 32 * 48 + 96) + (2 * 48 * 32 + 64);
    let layer = attention + linear(64, 64) + norm(64) + mlp + norm(64);
    let embeddings = 400 * 40 + 32 * 40 + 2 * 40 + norm(40) + linear(40, 64);
    let expected = embeddings + 2 * layer + linear(64, 40) + norm(40) + 400;
    assert_eq!(expected, 66_684);
    assert_eq!(derived(config), expected);
}
