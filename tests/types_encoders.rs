//! Parameter counts of the encoder types described as rows of `src/config/encoders.rs`, each
//! written out by hand from transformers 5.24's modeling files for a small config (the row's
//! defaults where the config leaves a key out).

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

/// One BERT layer, post- or pre-LN alike: q, k, v, o, up, down, and two LayerNorms.
fn layer(h: u64, ffn: u64) -> u64 {
    4 * linear(h, h) + linear(h, ffn) + linear(ffn, h) + 2 * norm(h)
}

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// hidden 64, 2 layers, 4 heads, ffn 128, vocab 1000, 40 positions, 2 token types.
fn small(model_type: &str, class: &str) -> serde_json::Value {
    json!({
        "model_type": model_type, "architectures": [class], "hidden_size": 64,
        "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128,
        "vocab_size": 1000, "max_position_embeddings": 40, "type_vocab_size": 2
    })
}

/// Word, position and token-type tables of width 64.
const TABLES: u64 = 1000 * 64 + 40 * 64 + 2 * 64;

#[test]
fn camembert_and_data2vec_text_masked_lm_count_as_roberta() {
    // RobertaLMHead: dense, layer_norm, and its own bias; the decoder is tied to the word table
    // and its bias is the head's bias.
    let head = linear(64, 64) + norm(64) + 1000;
    let expected = TABLES + norm(64) + 2 * layer(64, 128) + head;
    assert_eq!(expected, 139_048);
    assert_eq!(derived(small("camembert", "CamembertForMaskedLM")), expected);
    assert_eq!(derived(small("data2vec-text", "Data2VecTextForMaskedLM")), expected);
}

#[test]
fn roberta_prelayernorm_adds_one_norm_after_the_stack() {
    // Same tensors as RoBERTa's layer (the norms only move), plus the model's `LayerNorm`; the
    // bare model keeps its pooler.
    let expected = TABLES + norm(64) + 2 * layer(64, 128) + norm(64) + linear(64, 64);
    assert_eq!(expected, 138_048);
    assert_eq!(derived(small("roberta-prelayernorm", "RobertaPreLayerNormModel")), expected);
}

#[test]
fn xlm_roberta_xl_has_no_embedding_norm_and_a_final_encoder_norm() {
    // Sequence classification: no pooler, RoBERTa's classification head (dense + out_proj).
    let mut c = small("xlm-roberta-xl", "XLMRobertaXLForSequenceClassification");
    c["num_labels"] = json!(3);
    let expected = TABLES + 2 * layer(64, 128) + norm(64) + linear(64, 64) + linear(64, 3);
    assert_eq!(expected, 138_115);
    assert_eq!(derived(c), expected);
}

#[test]
fn megatron_bert_pretraining_counts_the_pooler_mlm_and_next_sentence_heads() {
    // No embedding norm; encoder.ln after the stack; pooler; cls.predictions (transform dense +
    // LayerNorm + bias, decoder tied) and cls.seq_relationship (64 -> 2).
    let encoder = TABLES + 2 * layer(64, 128) + norm(64);
    let expected = encoder + linear(64, 64) + linear(64, 64) + norm(64) + 1000 + linear(64, 2);
    assert_eq!(expected, 143_338);
    assert_eq!(derived(small("megatron-bert", "MegatronBertForPreTraining")), expected);
}

#[test]
fn ernie_builds_its_task_type_table_only_with_use_task_id() {
    let plain = TABLES + norm(64) + 2 * layer(64, 128) + linear(64, 64);
    assert_eq!(derived(small("ernie", "ErnieModel")), plain);
    let mut c = small("ernie", "ErnieModel");
    c["use_task_id"] = json!(true);
    // ErnieConfig's task_type_vocab_size defaults to 3.
    assert_eq!(derived(c.clone()), plain + 3 * 64);
    c["task_type_vocab_size"] = json!(7);
    assert_eq!(derived(c), plain + 7 * 64);
}

#[test]
fn megatron_bert_defaults_are_the_345m_shape() {
    // MegatronBertConfig: vocab 29056, hidden 1024, 24 layers, ffn 4096, 512 positions, 2 types.
    let h = 1024;
    let expected = (29_056 + 512 + 2) * h + 24 * layer(h, 4096) + norm(h) + linear(h, h);
    assert_eq!(derived(json!({"model_type": "megatron-bert"})), expected);
}

#[test]
fn a_class_of_another_lineage_type_is_refused_with_the_field() {
    let text = json!({"model_type": "camembert", "architectures": ["BertForPreTraining"]}).to_string();
    let err = plan_text(&text).unwrap_err().to_string();
    assert!(err.contains("architectures[0]"), "{err}");
}

#[test]
fn layoutlm_adds_four_2d_position_tables_and_keeps_the_pooler_under_every_head() {
    // LayoutLMConfig's max_2d_position_embeddings defaults to 1024 rows per coordinate (x, y,
    // height, width); LayoutLMForTokenClassification still builds the pooler.
    let encoder = TABLES + 4 * 1024 * 64 + norm(64) + 2 * layer(64, 128);
    let expected = encoder + linear(64, 64) + linear(64, 2);
    assert_eq!(derived(small("layoutlm", "LayoutLMForTokenClassification")), expected);
    let mut c = small("layoutlm", "LayoutLMForTokenClassification");
    c["max_2d_position_embeddings"] = json!(100);
    assert_eq!(derived(c), expected - 4 * (1024 - 100) * 64);
}

#[test]
fn ibert_counts_as_roberta_its_quantisation_state_being_buffers() {
    // RoBERTa's multiple-choice class: pooler and a one-score classifier.
    let expected = TABLES + norm(64) + 2 * layer(64, 128) + linear(64, 64) + linear(64, 1);
    assert_eq!(derived(small("ibert", "IBertForMultipleChoice")), expected);
}

#[test]
fn yoso_has_two_spare_position_rows_no_pooler_and_a_pre_classifier_for_multiple_choice() {
    // YosoEmbeddings: max_position_embeddings + 2 rows (ids start at 2); YosoModel builds no
    // pooler; the multiple-choice head is pre_classifier (64 -> 64) then classifier (64 -> 1).
    let encoder = TABLES + 2 * 64 + norm(64) + 2 * layer(64, 128);
    let expected = encoder + linear(64, 64) + linear(64, 1);
    assert_eq!(derived(small("yoso", "YosoForMultipleChoice")), expected);
    // conv_window adds a depthwise kernel per head to each layer's attention: 4 heads x 5.
    let mut c = small("yoso", "YosoForMultipleChoice");
    c["conv_window"] = json!(5);
    assert_eq!(derived(c), expected + 2 * 4 * 5);
}

#[test]
fn yoso_question_answering_has_two_outputs_whatever_num_labels_says() {
    let mut c = small("mra", "MraForQuestionAnswering");
    c["num_labels"] = json!(5);
    let expected = TABLES + 2 * 64 + norm(64) + 2 * layer(64, 128) + linear(64, 2);
    assert_eq!(derived(c), expected);
}

#[test]
fn nystromformer_convolves_values_with_a_65_tap_kernel_by_default() {
    // NystromformerConfig.conv_kernel_size = 65: a [heads, 1, 65, 1] kernel per layer, no bias.
    let expected = TABLES + 2 * 64 + norm(64) + 2 * (layer(64, 128) + 4 * 65);
    assert_eq!(derived(small("nystromformer", "NystromformerModel")), expected);
}
