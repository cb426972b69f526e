use super::*;

crate::config::testing::reader!(t5, T5Config);

#[test]
fn each_config_class_has_its_own_defaults() {
    let t = t5(r#"{"model_type": "t5"}"#).unwrap();
    assert_eq!((t.vocab_size, t.d_model, t.d_ff, t.num_layers, t.num_heads), (32128, 512, 2048, 6, 8));
    assert!(!t.gated && t.tie_word_embeddings);
    let m = t5(r#"{"model_type": "mt5"}"#).unwrap();
    assert_eq!((m.vocab_size, m.d_ff, m.num_layers, m.num_heads), (250112, 1024, 8, 6));
    assert!(m.gated && !m.tie_word_embeddings);
    let u = t5(r#"{"model_type": "umt5"}"#).unwrap();
    assert!(u.tie_word_embeddings);
    assert_eq!(u.bias_layout, BiasLayout::EveryLayer);
}

#[test]
fn aliases_and_decoder_depth_follow_transformers() {
    let c = t5(r#"{"model_type": "t5", "hidden_size": 768, "num_attention_heads": 12, "head_dim": 32, "num_layers": 4}"#)
        .unwrap();
    assert_eq!((c.d_model, c.num_heads, c.d_kv, c.num_decoder_layers), (768, 12, 32, 4));
    let c = t5(r#"{"model_type": "t5", "num_layers": 4, "num_decoder_layers": 2}"#).unwrap();
    assert_eq!((c.num_layers, c.num_decoder_layers), (4, 2));
}

#[test]
fn bad_values_name_the_field() {
    for (text, field) in [
        (r#"{"model_type": "t5", "d_kv": 0}"#, "d_kv"),
        (r#"{"model_type": "t5", "hidden_size": 0, "d_model": 512}"#, "hidden_size"),
        (r#"{"model_type": "t5", "d_ff": "big"}"#, "d_ff"),
        (r#"{"model_type": "t5", "feed_forward_proj": "gelu-gated"}"#, "feed_forward_proj"),
        (r#"{"model_type": "t5", "architectures": ["T5ForCausalLM"]}"#, "architectures[0]"),
    ] {
        crate::config::testing::assert_field(t5(text), text, field);
    }
}
