//! Parameter counts of issue 10's enc2 types, each written out by hand from transformers 5.24's
//! modeling files: DeBERTa v1 (`modeling_deberta.py`) and the rows of the BERT lineage added for
//! it.

mod common;

use common::{plan_id, plan_text};
use serde_json::json;

/// nn.Linear(i, o) with its bias.
fn linear(i: u64, o: u64) -> u64 {
    i * o + o
}

/// nn.LayerNorm(w) (or DebertaLayerNorm): weight and bias.
fn norm(w: u64) -> u64 {
    2 * w
}

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// One DeBERTa v1 layer of width `h`: `in_proj` (h -> 3h, no bias), `q_bias` and `v_bias`, the
/// c2p `pos_proj` (no bias) and the p2c `pos_q_proj` (with one) as `pos_att_type` asks, the
/// output dense, the MLP, and two DebertaLayerNorms.
fn deberta_layer(h: u64, ffn: u64, c2p: bool, p2c: bool) -> u64 {
    let attention = h * 3 * h + 2 * h + u64::from(c2p) * h * h + u64::from(p2c) * linear(h, h);
    attention + linear(h, h) + norm(h) + linear(h, ffn) + linear(ffn, h) + norm(h)
}

#[test]
fn deberta_base_counts_its_fused_in_proj_and_relative_table() {
    // microsoft/deberta-base: vocab 50265, 768 wide, 12 layers, ffn 3072, relative attention
    // with c2p|p2c, max_relative_positions -1 (so 512: a table of 2 x 512 rows), no absolute
    // position table (position_biased_input false), no token types. DebertaModel: no pooler.
    let embeddings = 50265 * 768 + norm(768);
    let relative = 2 * 512 * 768;
    let expected = embeddings + relative + 12 * deberta_layer(768, 3072, true, true);
    assert_eq!(expected, 138_601_728);
    let page = plan_id("microsoft/deberta-base");
    assert_eq!(page.params.unwrap().derived, expected);
}

/// A DeBERTa config of `sizes` (hidden, layers, heads, ffn, vocab, positions) with relative
/// attention on, and `more` keys.
fn small_deberta(class: &str, sizes: [u64; 6], more: serde_json::Value) -> serde_json::Value {
    let [h, layers, heads, ffn, vocab, positions] = sizes;
    let config = json!({
        "model_type": "deberta", "architectures": [class], "hidden_size": h, "num_hidden_layers": layers,
        "num_attention_heads": heads, "intermediate_size": ffn, "vocab_size": vocab,
        "max_position_embeddings": positions, "relative_attention": true
    });
    merged(config, more)
}

fn merged(mut config: serde_json::Value, more: serde_json::Value) -> serde_json::Value {
    if let (Some(c), Some(m)) = (config.as_object_mut(), more.as_object()) {
        c.extend(m.clone());
    }
    config
}

#[test]
fn deberta_talking_heads_and_embedding_width_add_their_own_tensors() {
    // 2 layers of 80, 4 heads, c2p only, talking heads (two 4 x 4 mixers per layer, no bias),
    // word and position tables 48 wide projected to 80 (embed_proj, no bias). The legacy
    // masked-LM head: dense 80 -> 48, LayerNorm(48), the decoder tied to the word table, its
    // bias the head's `bias` (600).
    let more = json!({"pos_att_type": ["c2p"], "talking_head": true, "embedding_size": 48});
    let config = small_deberta("DebertaForMaskedLM", [80, 2, 4, 160, 600, 50], more);
    let embeddings = 600 * 48 + 50 * 48 + 48 * 80 + norm(80);
    let layer = deberta_layer(80, 160, true, false) + 2 * 4 * 4;
    let head = linear(80, 48) + norm(48) + 600;
    let expected = embeddings + 2 * 50 * 80 + 2 * layer + head;
    assert_eq!(expected, 164_648);
    assert_eq!(derived(config), expected);
}

#[test]
fn deberta_v1_reads_no_buckets_and_has_no_multiple_choice_class() {
    // position_buckets is a v2 key: v1's table stays 2 x max_relative_positions rows (2 x 17).
    let more = json!({
        "max_relative_positions": 17, "pos_att_type": "p2c", "position_biased_input": false,
        "position_buckets": 8
    });
    let config = small_deberta("DebertaModel", [64, 1, 8, 100, 501, 40], more);
    let expected = 501 * 64 + norm(64) + 2 * 17 * 64 + deberta_layer(64, 100, false, true);
    assert_eq!(derived(config), expected);
    let config = json!({"model_type": "deberta", "architectures": ["DebertaForMultipleChoice"]});
    let err = plan_text(&config.to_string()).unwrap_err().to_string();
    assert!(err.contains("architectures[0]"), "{err}");
}

/// One BERT layer of width `h`: q, k, v, o, up, down, and two LayerNorms.
fn bert_layer(h: u64, ffn: u64) -> u64 {
    4 * linear(h, h) + linear(h, ffn) + linear(ffn, h) + 2 * norm(h)
}

#[test]
fn longformer_base_counts_global_projections_beside_robertas_layer() {
    // allenai/longformer-base-4096: vocab 50265, 768 wide, 12 layers, ffn 3072, 4098 positions,
    // one token type. LongformerSelfAttention adds query_global, key_global and value_global
    // (each 768 -> 768 with a bias) to RoBERTa's layer; LongformerModel keeps its pooler.
    let embeddings = 50265 * 768 + 4098 * 768 + 768 + norm(768);
    let layer = bert_layer(768, 3072) + 3 * linear(768, 768);
    let expected = embeddings + 12 * layer + linear(768, 768);
    assert_eq!(expected, 148_659_456);
    assert_eq!(plan_id("allenai/longformer-base-4096").params.unwrap().derived, expected);
    // The large model: 1024 wide, 24 layers, ffn 4096.
    let layer = bert_layer(1024, 4096) + 3 * linear(1024, 1024);
    let expected = 50265 * 1024 + 4098 * 1024 + 1024 + norm(1024) + 24 * layer + linear(1024, 1024);
    assert_eq!(expected, 434_600_960);
    assert_eq!(plan_id("allenai/longformer-large-4096").params.unwrap().derived, expected);
}

/// hidden 64, 2 layers, 4 heads, ffn 96, vocab 400, 64 positions, 2 token types.
fn small_big_bird(class: &str, more: serde_json::Value) -> serde_json::Value {
    let config = json!({
        "model_type": "big_bird", "architectures": [class], "hidden_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 96,
        "vocab_size": 400, "max_position_embeddings": 64
    });
    merged(config, more)
}

#[test]
fn big_bird_keeps_its_pooler_under_the_masked_lm_and_drops_q_k_v_biases_with_use_bias_false() {
    // BigBirdForMaskedLM builds BigBirdModel with its pooler (a bare Linear(64, 64)); the head is
    // BERT's: transform dense and LayerNorm, the decoder tied, its bias the head's `bias`.
    // use_bias false takes 3 x 64 biases off each layer.
    let tables = 400 * 64 + 64 * 64 + 2 * 64 + norm(64);
    let layer = bert_layer(64, 96) - 3 * 64;
    let head = linear(64, 64) + norm(64) + 400;
    let expected = tables + 2 * layer + linear(64, 64) + head;
    assert_eq!(expected, 97_104);
    let config = small_big_bird("BigBirdForMaskedLM", json!({"use_bias": false}));
    assert_eq!(derived(config), expected);
}

#[test]
fn big_bird_question_answering_runs_an_mlp_before_two_outputs_and_has_no_pooler() {
    // BigBirdForQuestionAnswering: no pooler; qa_classifier holds BigBirdIntermediate (64 -> 96),
    // BigBirdOutput (96 -> 64 and a LayerNorm) and qa_outputs (64 -> 2: the class sets
    // num_labels to 2 whatever the file says). Sequence classification: the pooler, then
    // RoBERTa's dense + out_proj head.
    let encoder = 400 * 64 + 64 * 64 + 2 * 64 + norm(64) + 2 * bert_layer(64, 96);
    let qa = linear(64, 96) + linear(96, 64) + norm(64) + linear(64, 2);
    let config = small_big_bird("BigBirdForQuestionAnswering", json!({"num_labels": 5}));
    assert_eq!(derived(config), encoder + qa);
    let config = small_big_bird("BigBirdForSequenceClassification", json!({"num_labels": 3}));
    assert_eq!(derived(config), encoder + linear(64, 64) + linear(64, 64) + linear(64, 3));
}
