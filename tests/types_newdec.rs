//! Decoder types transformers added in 2025-26 (`src/config/spec_newdec.rs`): for each, a small
//! config with its count written out by hand from the modeling file's modules (transformers
//! 5.24), never read back from the program. Where a figure is given it is also what transformers
//! 5.24 counts for the same config on the meta device (`tools/validate/families/newdec.py`).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn derived(config: Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// q (h x heads*hd), k and v (h x kv*hd each), o (heads*hd x h), no biases.
fn attention(h: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    let (q, k) = (heads * hd, kv * hd);
    h * q + 2 * h * k + q * h
}

/// Stacked experts: gate_up_proj [e, 2f, h] and down_proj [e, h, f].
fn stacked(e: u64, h: u64, f: u64) -> u64 {
    e * (2 * f * h + h * f)
}

/// The small MoE the Qwen-lineage tests share: vocab 1000, hidden 64, dense width 96, 4 heads of
/// 16 over 2 KV heads, 6 experts of width 32, top 2.
fn small_moe(model_type: &str, class: &str, layers: u64) -> Value {
    json!({"model_type": model_type, "architectures": [class], "vocab_size": 1000,
        "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": layers,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "moe_intermediate_size": 32, "num_experts": 6, "num_experts_per_tok": 2})
}

#[test]
fn ministral3_counts_mistral_layers_with_its_own_head_dim_and_heads() {
    // vocab 1000, hidden 64, ffn 96, 3 layers, 4 heads over 1 KV head at the class's default
    // head_dim 128 (wider than hidden / heads), tied: q [512, 64], k and v [128, 64], o [64, 512].
    let (v, h, f, l) = (1000u64, 64u64, 96u64, 3u64);
    let layer = attention(h, 4, 1, 128) + 3 * h * f + 2 * h;
    let config = json!({"model_type": "ministral3", "architectures": ["Ministral3ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 1, "sliding_window": 32,
        "tie_word_embeddings": true});
    assert_eq!(derived(config.clone()), v * h + l * layer + h);
    assert_eq!(derived(config.clone()), 365_504);
    // The token-classification head: score [2, 64] with its bias.
    let mut token = config;
    token["architectures"] = json!(["Ministral3ForTokenClassification"]);
    token["num_labels"] = json!(2);
    assert_eq!(derived(token), v * h + l * layer + h + 2 * h + 2);
}

#[test]
fn kolibri1_counts_four_norms_qk_norms_a_router_stacked_experts_and_a_shared_expert() {
    // vocab 1000, hidden 64, 5 layers, 4 heads of 16 over 2 KV heads, 6 experts of width 32
    // (router [6, 64], its correction bias a buffer), shared expert width 40, untied.
    let (v, h, l, e, f, s) = (1000u64, 64u64, 5u64, 6u64, 32u64, 40u64);
    let attn = attention(h, 4, 2, 16) + 2 * 16;
    let layer = attn + e * h + stacked(e, h, f) + 3 * h * s + 4 * h;
    let config = json!({"model_type": "kolibri1", "architectures": ["Kolibri1ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": l, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "moe_intermediate_size": f,
        "num_experts": e, "num_experts_per_tok": 2, "shared_expert_intermediate_size": s,
        "tie_word_embeddings": false});
    assert_eq!(derived(config.clone()), v * h + l * layer + h + v * h);
    assert_eq!(derived(config.clone()), 415_584);
    // `num_local_experts`, the key transformers saves, reads the same as its alias.
    let mut saved = config;
    saved.as_object_mut().unwrap().remove("num_experts");
    saved["num_local_experts"] = json!(e);
    assert_eq!(derived(saved), 415_584);
}

#[test]
fn mellum_layers_are_dense_or_sparse_by_mlp_layer_types_and_all_sparse_without_them() {
    // vocab 1000, hidden 64, dense width 96, 3 layers, 4 heads of 16 over 2 KV heads with q/k
    // norms, 6 experts of width 32 (router [6, 64]), tied.
    let (v, h, f, l, e, m) = (1000u64, 64u64, 96u64, 3u64, 6u64, 32u64);
    let common = attention(h, 4, 2, 16) + 2 * 16 + 2 * h;
    let dense = 3 * h * f;
    let sparse = e * h + stacked(e, h, m);
    let mut config = small_moe("mellum", "MellumForCausalLM", l);
    config["tie_word_embeddings"] = json!(true);
    config["mlp_layer_types"] = json!(["dense", "sparse", "dense"]);
    assert_eq!(derived(config.clone()), v * h + l * common + 2 * dense + sparse + h);
    assert_eq!(derived(config.clone()), 175_520);
    // MellumConfig.__post_init__ makes every layer sparse when the file lists none.
    config.as_object_mut().unwrap().remove("mlp_layer_types");
    assert_eq!(derived(config), v * h + l * (common + sparse) + h);
}

#[test]
fn aria_text_counts_stacked_experts_as_wide_as_intermediate_size_and_shared_experts_times_n() {
    // vocab 1000, hidden 64, expert width 96 (`intermediate_size`), 2 layers, 4 heads of 16
    // over 2 KV heads, 4 experts (router [4, 64]), 1 shared expert of width 1 x 96, untied.
    let (v, h, f, l, e) = (1000u64, 64u64, 96u64, 2u64, 4u64);
    let layer = attention(h, 4, 2, 16) + e * h + stacked(e, h, f) + 3 * h * f + 2 * h;
    let config = json!({"model_type": "aria_text", "architectures": ["AriaTextForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 2, "moe_num_experts": e,
        "moe_topk": 2, "moe_num_shared_experts": 1, "tie_word_embeddings": false});
    assert_eq!(derived(config.clone()), v * h + l * layer + h + v * h);
    assert_eq!(derived(config.clone()), 337_728);
    // Three shared experts make one MLP three times as wide.
    let mut three = config;
    three["moe_num_shared_experts"] = json!(3);
    assert_eq!(derived(three), v * h + l * (layer + 2 * 3 * h * f) + h + v * h);
}

#[test]
fn cohere_compass_text_counts_cohere2_parallel_layers_and_its_sequence_head() {
    // vocab 1000, hidden 64, ffn 96, 2 layers, 4 heads of 16 over 2 KV heads, one LayerNorm
    // weight (no bias) per layer, tied (the class's default).
    let (v, h, f, l) = (1000u64, 64u64, 96u64, 2u64);
    let layer = attention(h, 4, 2, 16) + 3 * h * f + h;
    let config = json!({"model_type": "cohere_compass_text",
        "architectures": ["CohereCompassForCausalLM"], "vocab_size": v, "hidden_size": h,
        "intermediate_size": f, "num_hidden_layers": l, "num_attention_heads": 4,
        "num_key_value_heads": 2});
    assert_eq!(derived(config.clone()), v * h + l * layer + h);
    assert_eq!(derived(config.clone()), 125_632);
    // GenericForSequenceClassification's score [2, 64], without bias.
    let mut seq = config;
    seq["architectures"] = json!(["CohereCompassTextForSequenceClassification"]);
    seq["num_labels"] = json!(2);
    assert_eq!(derived(seq), 125_632 + 2 * h);
}

#[test]
fn flint_keeps_its_first_two_layers_dense_when_the_file_lists_no_mlp_only_layers() {
    // vocab 1000, hidden 64, dense width 96, 4 layers, 4 heads of 16 over 2 KV heads with q/k
    // norms and a sink per head, 6 experts of width 32 (router [6, 64]), an ungated shared
    // expert of width 40, untied model without head. FlintConfig.__post_init__ sets
    // mlp_only_layers to [0, 1]: two dense layers, two sparse.
    let (v, h, f, l, e, m, s) = (1000u64, 64u64, 96u64, 4u64, 6u64, 32u64, 40u64);
    let common = attention(h, 4, 2, 16) + 2 * 16 + 4 + 2 * h;
    let dense = 3 * h * f;
    let sparse = e * h + stacked(e, h, m) + 3 * h * s;
    let mut config = small_moe("flint", "FlintModel", l);
    config["shared_expert_intermediate_size"] = json!(s);
    assert_eq!(derived(config.clone()), v * h + l * common + 2 * dense + 2 * sparse + h);
    // A listed mlp_only_layers wins: none dense.
    config["mlp_only_layers"] = json!([]);
    assert_eq!(derived(config), v * h + l * (common + sparse) + h);
}

#[test]
fn apertus1p5_text_prunes_its_head_to_output_vocab_size_rows() {
    // vocab 1000, hidden 64, ffn 96, 3 layers, 4 heads of 24 over 2 KV heads with q/k norms,
    // Apertus' plain MLP (up [96, 64], down [64, 96]) with xIELU's two scalars, untied, the head
    // pruned to the first 700 tokens: lm_head [700, 64].
    let (v, h, f, l, rows) = (1000u64, 64u64, 96u64, 3u64, 700u64);
    let layer = attention(h, 4, 2, 24) + 2 * 24 + 2 * h + 2 * h * f + 2;
    let config = json!({"model_type": "apertus1p5_text",
        "architectures": ["Apertus1p5TextForCausalLM"], "vocab_size": v, "hidden_size": h,
        "intermediate_size": f, "num_hidden_layers": l, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 24, "output_vocab_size": rows});
    assert_eq!(derived(config.clone()), v * h + l * layer + h + rows * h);
    // None keeps every row.
    let mut full = config;
    full["output_vocab_size"] = Value::Null;
    assert_eq!(derived(full), v * h + l * layer + h + v * h);
}

#[test]
fn beam_counts_its_separate_output_gate_four_norms_and_three_dense_layers_before_the_experts() {
    // vocab 1000, hidden 64, dense width 96, 4 layers, 4 heads of 16 over 2 KV heads with q/k
    // norms, gate_proj [64, 64] and gate_bias [4], four RMSNorms, 6 experts of width 32 (router
    // [6, 64], its correction bias a buffer), untied. BeamConfig.__post_init__ makes the first
    // min(3, layers) layers dense when the file lists no mlp_layer_types.
    let (v, h, f, l, e, m) = (1000u64, 64u64, 96u64, 4u64, 6u64, 32u64);
    let common = attention(h, 4, 2, 16) + 2 * 16 + h * 4 * 16 + 4 + 4 * h;
    let dense = 3 * h * f;
    let sparse = e * h + stacked(e, h, m);
    let mut config = small_moe("beam", "BeamForCausalLM", l);
    config["tie_word_embeddings"] = json!(false);
    assert_eq!(derived(config.clone()), v * h + l * common + 3 * dense + sparse + h + v * h);
    config["mlp_layer_types"] = json!(["sparse", "dense", "sparse", "sparse"]);
    assert_eq!(derived(config), v * h + l * common + dense + 3 * sparse + h + v * h);
}

#[test]
fn heads_of_their_own_width_raise_no_division_error_where_hidden_is_not_a_multiple() {
    // Kolibri 1's defaults: 48 heads of head_dim 128 over hidden 2560 (2560 / 48 is not whole);
    // transformers builds it, since no width is derived from hidden / heads.
    let page = plan_text(&json!({"model_type": "kolibri1"}).to_string()).unwrap();
    assert!(page.lints.iter().all(|l| l.id != "heads-do-not-divide-hidden"));
    // Without a head_dim of its own the width is 2560 / 48: the error stands.
    let derived_width = json!({"model_type": "aria_text", "hidden_size": 2560,
        "num_attention_heads": 48, "num_key_value_heads": 8});
    let page = plan_text(&derived_width.to_string()).unwrap();
    assert!(page.lints.iter().any(|l| l.id == "heads-do-not-divide-hidden"));
}
