//! The forward-pass check looks every activation up the way transformers does, in `ACT2FN`.

mod common;

fn bert(act: &str) -> String {
    serde_json::json!({
        "model_type": "bert", "architectures": ["BertModel"], "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 64,
        "hidden_act": act,
    })
    .to_string()
}

#[test]
fn an_unknown_hidden_act_fails_the_forward_pass_with_the_field_and_the_reason() {
    let page = common::plan_text(&bert("not_an_activation")).unwrap();
    let fp = page.forward_pass.unwrap();
    assert!(!fp.ok);
    assert_eq!(fp.problems.len(), 1, "{:?}", fp.problems);
    assert!(fp.problems[0].contains("hidden_act (\"not_an_activation\")"), "{}", fp.problems[0]);
    assert!(fp.problems[0].contains("ACT2FN"), "{}", fp.problems[0]);
}

#[test]
fn a_known_hidden_act_passes() {
    // gelu_new and quick_gelu are both keys of ACT2FN (transformers/activations.py).
    for act in ["gelu_new", "quick_gelu"] {
        assert!(common::plan_text(&bert(act)).unwrap().forward_pass.unwrap().ok, "{act}");
    }
}

#[test]
fn gpt2_names_activation_function_and_gemma2_names_hidden_activation() {
    let gpt2 = serde_json::json!({
        "model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 64, "n_layer": 2, "n_head": 4,
        "vocab_size": 100, "n_positions": 64, "activation_function": "gelu_newer",
    });
    let fp = common::plan_text(&gpt2.to_string()).unwrap().forward_pass.unwrap();
    assert!(
        fp.problems.iter().any(|p| p.starts_with("activation_function (\"gelu_newer\")")),
        "{:?}",
        fp.problems
    );
    let gemma2 = serde_json::json!({
        "model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
        "vocab_size": 100, "max_position_embeddings": 64, "hidden_activation": "gelu_tanh",
    });
    let fp = common::plan_text(&gemma2.to_string()).unwrap().forward_pass.unwrap();
    assert!(
        fp.problems.iter().any(|p| p.starts_with("hidden_activation (\"gelu_tanh\")")),
        "{:?}",
        fp.problems
    );
}

#[test]
fn t5_gated_gelu_is_read_as_gelu_new_and_an_unknown_part_after_gated_fails() {
    let t5 = |ffp: &str| {
        serde_json::json!({
            "model_type": "t5", "architectures": ["T5ForConditionalGeneration"], "d_model": 64, "d_kv": 16,
            "d_ff": 128, "num_layers": 2, "num_heads": 4, "vocab_size": 100, "feed_forward_proj": ffp,
        })
        .to_string()
    };
    assert!(common::plan_text(&t5("gated-gelu")).unwrap().forward_pass.unwrap().ok);
    assert!(common::plan_text(&t5("relu")).unwrap().forward_pass.unwrap().ok);
    let fp = common::plan_text(&t5("gated-swishy")).unwrap().forward_pass.unwrap();
    assert!(fp.problems.iter().any(|p| p.starts_with("feed_forward_proj (\"swishy\")")), "{:?}", fp.problems);
}
