use super::*;

crate::config::testing::reader!(deberta, DebertaV2Config);

#[test]
fn relative_table_rows_follow_buckets_then_max_relative_positions() {
    let c = deberta(r#"{"model_type": "deberta-v2", "relative_attention": true, "position_buckets": 256}"#)
        .unwrap();
    assert_eq!(c.rel_embeddings, 512);
    let c =
        deberta(r#"{"model_type": "deberta-v2", "relative_attention": true, "max_relative_positions": -1}"#)
            .unwrap();
    assert_eq!(c.rel_embeddings, 1024, "falls back to max_position_embeddings");
    let c = deberta(r#"{"model_type": "deberta-v2", "pos_att_type": "p2c|c2p", "relative_attention": true}"#)
        .unwrap();
    assert!(c.pos_proj("c2p") && c.pos_proj("p2c"));
}

#[test]
fn bad_values_name_the_field() {
    for (text, field) in [
        (
            r#"{"model_type": "deberta-v2", "hidden_size": 100, "num_attention_heads": 12}"#,
            "num_attention_heads",
        ),
        (r#"{"model_type": "deberta-v2", "conv_kernel_size": 3, "conv_groups": 5}"#, "conv_groups"),
        (r#"{"model_type": "deberta-v2", "type_vocab_size": -1}"#, "type_vocab_size"),
        (r#"{"model_type": "deberta-v2", "attention_head_size": 65536}"#, "attention_head_size"),
        (
            r#"{"model_type": "deberta-v2", "architectures": ["DebertaV2ForMaskedLM"], "legacy": false}"#,
            "legacy",
        ),
        (r#"{"model_type": "deberta-v2", "architectures": ["DebertaV2ForCausalLM"]}"#, "architectures[0]"),
    ] {
        crate::config::testing::assert_field(deberta(text), text, field);
    }
}
