//! Parameter counts of issue 10's enc6 types, each written out by hand from transformers 5.24's
//! modeling files (`modeling_fnet.py`, `modeling_splinter.py`, `modeling_tapas.py`,
//! `modular_openai_privacy_filter.py`). The same configs built by transformers on the meta device
//! give the same totals (61,760, 66,578, 111,936, 91,526, 91,664 and 59,688).

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

/// A config of `model_type` and `class`: hidden 64, 2 layers, ffn 96, vocabulary 400, 32
/// positions, 4 heads unless `more` says otherwise.
fn small(model_type: &str, class: &str, more: serde_json::Value) -> serde_json::Value {
    let mut config = json!({
        "model_type": model_type, "architectures": [class], "hidden_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 96,
        "vocab_size": 400, "max_position_embeddings": 32
    });
    if let (Some(c), Some(m)) = (config.as_object_mut(), more.as_object()) {
        c.extend(m.clone());
    }
    config
}

#[test]
fn fnet_replaces_attention_by_a_fourier_transform_with_no_weights() {
    // FNetEmbeddings: words, positions, FNetConfig's 4 token types, a LayerNorm, then
    // `projection` (hidden to hidden). Each FNetLayer: the Fourier sublayer's LayerNorm only,
    // then BERT's MLP and its norm. FNetModel keeps its pooler.
    let embeddings = 400 * 64 + 32 * 64 + 4 * 64 + norm(64) + linear(64, 64);
    let layer = norm(64) + linear(64, 96) + linear(96, 64) + norm(64);
    let encoder = embeddings + 2 * layer;
    let model = encoder + linear(64, 64);
    assert_eq!(model, 61_760);
    assert_eq!(derived(small("fnet", "FNetModel", json!({}))), model);
    // FNetForPreTraining: the pooler, the MLM transform (dense, norm), the decoder tied to the
    // word table with its bias `cls.predictions.bias`, and the next-sentence classifier.
    let pre = model + linear(64, 64) + norm(64) + 400 + linear(64, 2);
    assert_eq!(pre, 66_578);
    assert_eq!(derived(small("fnet", "FNetForPreTraining", json!({}))), pre);
}

#[test]
fn fnet_reads_no_heads_so_any_width_plans_and_passes_the_shape_check() {
    // FNetConfig has no `num_attention_heads`: a file's value (7 over hidden 90) is never read.
    let config = small("fnet", "FNetModel", json!({"hidden_size": 90, "num_attention_heads": 7}));
    let page = plan_text(&config.to_string()).unwrap();
    let fp = page.forward_pass.unwrap();
    assert!(fp.ok, "{:?}", fp.problems);
    assert!(!page.defaulted.iter().any(|d| d.field == "num_attention_heads"));
}

#[test]
fn splinter_selects_spans_with_its_question_aware_head_and_has_no_pooler() {
    // SplinterModel: BERT's embeddings (2 token types) and layers, no pooler.
    let encoder = 400 * 64 + 32 * 64 + 2 * 64 + norm(64) + 2 * bert_layer(64, 96);
    assert_eq!(derived(small("splinter", "SplinterModel", json!({}))), encoder);
    // QuestionAwareSpanSelectionHead: four SplinterFullyConnectedLayers (dense + LayerNorm) and
    // the bias-free start and end classifiers (hidden x hidden).
    let qass = 4 * (linear(64, 64) + norm(64)) + 2 * 64 * 64;
    assert_eq!(encoder + qass, 111_936);
    assert_eq!(derived(small("splinter", "SplinterForQuestionAnswering", json!({}))), encoder + qass);
    assert_eq!(derived(small("splinter", "SplinterForPreTraining", json!({}))), encoder + qass);
}

#[test]
fn splinter_refuses_a_head_its_modeling_file_does_not_define() {
    let config = small("splinter", "SplinterForMaskedLM", json!({}));
    assert!(plan_text(&config.to_string()).is_err());
}

#[test]
fn tapas_sums_one_token_type_table_per_entry_and_selects_cells() {
    // Tables of 3 and 5 token types; TapasForQuestionAnswering keeps the pooler, adds
    // `output_weights` and `column_output_weights` (hidden each) with their scalar biases, and
    // `aggregation_classifier` for 4 aggregation labels.
    let more = json!({"type_vocab_sizes": [3, 5], "num_aggregation_labels": 4});
    let encoder = 400 * 64 + 32 * 64 + (3 + 5) * 64 + norm(64) + 2 * bert_layer(64, 96);
    let qa = encoder + linear(64, 64) + (64 + 1) + (64 + 1) + linear(64, 4);
    assert_eq!(qa, 91_526);
    assert_eq!(derived(small("tapas", "TapasForQuestionAnswering", more.clone())), qa);
    // TapasForMaskedLM builds no pooler: the MLM transform and the decoder's bias.
    let mlm = encoder + linear(64, 64) + norm(64) + 400;
    assert_eq!(mlm, 91_664);
    assert_eq!(derived(small("tapas", "TapasForMaskedLM", more)), mlm);
}

#[test]
fn tapas_defaults_to_its_seven_token_type_tables() {
    // TapasConfig's type_vocab_sizes (3, 256, 256, 2, 256, 256, 10): 1,039 rows of 64.
    let rows: u64 = [3, 256, 256, 2, 256, 256, 10].iter().sum();
    let model = 400 * 64 + 32 * 64 + rows * 64 + norm(64) + 2 * bert_layer(64, 96) + linear(64, 64);
    assert_eq!(derived(small("tapas", "TapasModel", json!({}))), model);
}

#[test]
fn openai_privacy_filter_is_a_bidirectional_gpt_oss_classifying_33_labels_by_default() {
    // Vocabulary 501, hidden 64, 1 layer, 4 heads of 8 over 2 key/value heads, biases on, 3
    // experts of width 32 (gate and up fused: 64 wide) with biases, a biased router, a sink per
    // head; RMSNorms of one weight. ForTokenClassification's `score`: 33 labels with a bias.
    let attention = linear(64, 4 * 8) + 2 * linear(64, 2 * 8) + linear(4 * 8, 64) + 4;
    let experts = 3 * 64 * 64 + 3 * 64 + 3 * 32 * 64 + 3 * 64;
    let layer = 64 + attention + 64 + linear(64, 3) + experts;
    let model = 501 * 64 + layer + 64;
    let config = json!({
        "model_type": "openai_privacy_filter",
        "architectures": ["OpenAIPrivacyFilterForTokenClassification"],
        "vocab_size": 501, "hidden_size": 64, "intermediate_size": 32, "num_hidden_layers": 1,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8,
        "num_local_experts": 3, "num_experts_per_tok": 2, "pad_token_id": 0
    });
    assert_eq!(model + linear(64, 33), 59_688);
    let page = plan_text(&config.to_string()).unwrap();
    assert_eq!(page.params.unwrap().derived, model + linear(64, 33));
    assert!(page.serving.unwrap().kv.is_none(), "an encoder keeps no KV cache");
}

#[test]
fn funnel_stacks_relative_attention_blocks_and_a_decoder_only_in_its_full_length_classes() {
    // d_model 64, 4 heads of 16, d_inner 96, vocabulary 400, blocks [2, 1], 1 decoder layer.
    // FunnelLayer: q_head (no bias), k_head, v_head, r_w_bias, r_r_bias, r_s_bias ([4, 16]
    // each), r_kernel [64, 4, 16], seg_embed [2, 4, 16], post_proj, a norm; the MLP, a norm.
    let attention = 64 * 64 + 2 * linear(64, 64) + 3 * 64 + 64 * 64 + 2 * 64 + linear(64, 64) + norm(64);
    let layer = attention + linear(64, 96) + linear(96, 64) + norm(64);
    assert_eq!(layer, 33_696);
    // FunnelEmbeddings: the word table and `layer_norm`; no position or token-type table.
    let base = 400 * 64 + norm(64) + 3 * layer;
    let model = base + layer;
    let config = |class: &str| {
        json!({"model_type": "funnel", "architectures": [class], "vocab_size": 400, "d_model": 64,
               "n_head": 4, "d_head": 16, "d_inner": 96, "block_sizes": [2, 1],
               "num_decoder_layers": 1})
    };
    assert_eq!(derived(config("FunnelBaseModel")), base);
    assert_eq!(derived(config("FunnelModel")), model);
    // Sequence classification runs on FunnelBaseModel: no decoder; linear_hidden, linear_out.
    assert_eq!(derived(config("FunnelForSequenceClassification")), base + linear(64, 64) + linear(64, 2));
    // The masked LM's head is tied to the word table and keeps its bias.
    assert_eq!(derived(config("FunnelForMaskedLM")), model + 400);
    assert_eq!((base, model), (126_816, 160_512));
}

#[test]
fn funnel_pools_each_block_after_the_first_to_half_its_length() {
    // transformers 5.24's FunnelBaseModel on 9 and 8 tokens, three blocks: hidden states of
    // 9, 5, 3 and 8, 4, 2 tokens ([CLS] apart, the last token dropped before pooling); 8, 5, 3
    // with truncate_seq false (9 and 6 tokens pooled).
    let plan = |extra: serde_json::Value| {
        let mut config = json!({"model_type": "funnel", "architectures": ["FunnelBaseModel"],
                                "block_sizes": [1, 1, 1]});
        if let (Some(c), Some(m)) = (config.as_object_mut(), extra.as_object()) {
            c.extend(m.clone());
        }
        let c = modelatlas::config::funnel::FunnelConfig::resolve(&config, &common_of(&config)).unwrap();
        (c.block_lengths(9), c.block_lengths(8))
    };
    assert_eq!(plan(json!({})), (vec![9, 5, 3], vec![8, 4, 2]));
    assert_eq!(plan(json!({"truncate_seq": false})).1, vec![8, 5, 3]);
}

fn common_of(config: &serde_json::Value) -> modelatlas::config::Common {
    modelatlas::config::Common {
        model_type: "funnel".into(),
        architecture: config["architectures"][0].as_str().map(String::from),
        torch_dtype: None,
    }
}

#[test]
fn funnel_refuses_block_repeats_it_cannot_count() {
    let config = json!({"model_type": "funnel", "block_sizes": [1, 1], "block_repeats": [1, 2]});
    assert!(plan_text(&config.to_string()).is_err());
}

#[test]
fn luke_adds_entity_tables_entity_aware_queries_and_entity_heads() {
    // Hidden 64, 1 layer of 4 heads, ffn 96, vocabulary 400, 32 positions, 2 token types; 50
    // entities of width 16 (projected to 64 without a bias), entity-aware attention on.
    let config = |class: &str| {
        json!({"model_type": "luke", "architectures": [class], "vocab_size": 400,
               "entity_vocab_size": 50, "entity_emb_size": 16, "hidden_size": 64,
               "num_hidden_layers": 1, "num_attention_heads": 4, "intermediate_size": 96,
               "max_position_embeddings": 32})
    };
    let words = 400 * 64 + 32 * 64 + 2 * 64 + norm(64);
    let entities = 50 * 16 + 16 * 64 + 32 * 64 + 2 * 64 + norm(64);
    // BERT's layer plus the w2e, e2w and e2e queries.
    let layer = bert_layer(64, 96) + 3 * linear(64, 64);
    let encoder = words + entities + layer;
    let model = encoder + linear(64, 64);
    assert_eq!(model, 78_016);
    assert_eq!(derived(config("LukeModel")), model);
    // LukeForMaskedLM keeps the pooler; `lm_head` (dense, norm, a decoder of its own, the bias)
    // and `entity_predictions` (dense to 16, norm, the decoder tied to the entity table, bias).
    let mlm = model + linear(64, 64) + norm(64) + 400 * 64 + 400 + linear(64, 16) + norm(16) + 50;
    assert_eq!(mlm, 109_426);
    assert_eq!(derived(config("LukeForMaskedLM")), mlm);
    // The entity-pair classifier reads two entity states, without a bias; the span classifier
    // three, with one; token classification drops the pooler.
    assert_eq!(derived(config("LukeForEntityPairClassification")), model + 2 * 64 * 2);
    assert_eq!(derived(config("LukeForEntitySpanClassification")), model + linear(3 * 64, 2));
    assert_eq!(derived(config("LukeForTokenClassification")), encoder + linear(64, 2));
}

#[test]
fn xlm_counts_language_embeddings_layers_of_four_times_the_width_and_its_squad_head() {
    // emb_dim 64, 2 layers of 4 heads, vocabulary 400, 32 positions, 3 languages.
    let config = |class: &str, more: serde_json::Value| {
        let mut c = json!({"model_type": "xlm", "architectures": [class], "vocab_size": 400,
                           "emb_dim": 64, "n_layers": 2, "n_heads": 4,
                           "max_position_embeddings": 32, "n_langs": 3});
        if let (Some(c), Some(m)) = (c.as_object_mut(), more.as_object()) {
            c.extend(m.clone());
        }
        c
    };
    let embeddings = 32 * 64 + 3 * 64 + 400 * 64 + norm(64);
    // q_lin, k_lin, v_lin, out_lin, layer_norm1, ffns (64 -> 256 -> 64), layer_norm2.
    let layer = 4 * linear(64, 64) + norm(64) + linear(64, 256) + linear(256, 64) + norm(64);
    let model = embeddings + 2 * layer;
    assert_eq!(model, 127_936);
    assert_eq!(derived(config("XLMModel", json!({}))), model);
    // XLMWithLMHeadModel: `pred_layer.proj` tied to the word table; its bias.
    assert_eq!(derived(config("XLMWithLMHeadModel", json!({}))), model + 400);
    // XLMForQuestionAnswering: start (dense to 1), end (dense_0 from 128, norm, dense_1) and
    // answer class (dense_0 from 128, dense_1 without a bias).
    let squad = linear(64, 1) + linear(128, 64) + norm(64) + linear(64, 1) + linear(128, 64) + 64;
    assert_eq!(derived(config("XLMForQuestionAnswering", json!({}))), model + squad);
    // Multiple choice: the summary projects to the 2 labels, `logits_proj` from them to a score.
    assert_eq!(derived(config("XLMForMultipleChoice", json!({}))), model + linear(64, 2) + linear(2, 1));
    // FlauBERT's adaptive softmax over cutoffs [100, 300], div 4: a head over the 100-word
    // shortlist and 2 clusters; clusters of 200 and 100 words through 64 / 4 and 64 / 16.
    let asm = json!({"model_type": "flaubert", "architectures": ["FlaubertWithLMHeadModel"],
                     "vocab_size": 400, "emb_dim": 64, "n_layers": 2, "n_heads": 4,
                     "max_position_embeddings": 32, "asm": true, "asm_cutoffs": [100, 300],
                     "asm_div_value": 4.0});
    let tail = 64 * 16 + 16 * 200 + 64 * 4 + 4 * 100;
    assert_eq!(derived(asm), model - 3 * 64 + linear(64, 102) + tail);
}

#[test]
fn xlnet_counts_its_relative_attention_tensors_mask_embedding_and_summary() {
    // d_model 64, 2 layers of 4 heads (d_head 16), d_inner 96, vocabulary 400.
    let config = |class: &str| {
        json!({"model_type": "xlnet", "architectures": [class], "vocab_size": 400, "d_model": 64,
               "n_layer": 2, "n_head": 4, "d_inner": 96})
    };
    // rel_attn: q, k, v, o and r as [64, 4, 16] (no biases), r_w_bias, r_r_bias, r_s_bias
    // [4, 16], seg_embed [2, 4, 16], layer_norm; ff: layer_1, layer_2, layer_norm.
    let attention = 5 * 64 * 4 * 16 + 3 * 4 * 16 + 2 * 4 * 16 + norm(64);
    let layer = attention + linear(64, 96) + linear(96, 64) + norm(64);
    // word_embedding and mask_emb [1, 1, 64].
    let model = 400 * 64 + 64 + 2 * layer;
    assert_eq!(model, 92_672);
    assert_eq!(derived(config("XLNetModel")), model);
    // lm_loss is tied to the word table; its bias is its own.
    assert_eq!(derived(config("XLNetLMHeadModel")), model + 400);
    // The summary keeps the width (XLNetConfig has no summary_proj_to_labels), then logits_proj.
    assert_eq!(derived(config("XLNetForSequenceClassification")), model + linear(64, 64) + linear(64, 2));
}
