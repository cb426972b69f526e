//! The newest decoders (`src/config/spec_dec5.rs`): for each, a small config with its count
//! written out by hand from the modeling file's modules (transformers 5.24), never read back from
//! the program. Where a figure is given it is also what transformers 5.24 counts for the same
//! config on the meta device (`tools/validate/families/dec5.py`).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn derived(config: Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// DeepSeek's latent attention with a query latent: q_a [r, h] (+ its norm [r]), q_b
/// [heads*(nope+rope), r], kv_a [kv+rope, h] (+ its norm [kv]), kv_b [heads*(nope+v), kv],
/// o [h, heads*v]; no biases.
fn latent(h: u64, heads: u64, r: u64, kv: u64, nope: u64, rope: u64, v: u64) -> u64 {
    h * r + r + r * heads * (nope + rope) + h * (kv + rope) + kv + kv * heads * (nope + v) + heads * v * h
}

#[test]
fn axk1_norms_the_experts_output_on_sparse_layers_chosen_by_first_k_and_frequency() {
    // vocab 1000, hidden 64, dense width 96, 5 layers, 4 heads; latents q 24, kv 16, rope 8,
    // nope 12, v 10; 6 experts of width 32 (router [6, 64]; its correction bias a buffer), one
    // shared expert of 32; untied. first_k_dense_replace 2 and moe_layer_freq 2: sparse where
    // i >= 2 and i % 2 == 0, layers 2 and 4; layers 0, 1 and 3 dense.
    let (v, h, f, e, m) = (1000u64, 64u64, 96u64, 6u64, 32u64);
    let attn = latent(h, 4, 24, 16, 12, 8, 10);
    assert_eq!(attn, 9_000);
    let norms = 2 * h;
    let dense = attn + norms + 3 * h * f;
    // Router, stacked experts, the shared expert, and post_mlp_layernorm [64].
    let sparse = attn + norms + e * h + e * 3 * h * m + 3 * h * m + h;
    let config = json!({"model_type": "axk1", "architectures": ["AXK1ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 5,
        "num_attention_heads": 4, "num_key_value_heads": 4, "kv_lora_rank": 16,
        "q_lora_rank": 24, "qk_rope_head_dim": 8, "qk_nope_head_dim": 12, "v_head_dim": 10,
        "moe_intermediate_size": m, "n_routed_experts": e, "num_experts_per_tok": 2,
        "first_k_dense_replace": 2, "moe_layer_freq": 2});
    assert_eq!(derived(config.clone()), v * h + 3 * dense + 2 * sparse + h + v * h);
    assert_eq!(derived(config.clone()), 315_912);
    // Without the legacy keys, layer 0 alone is dense (AXK1Config's first_k_dense_replace 1).
    let mut plain = config.clone();
    plain.as_object_mut().unwrap().remove("first_k_dense_replace");
    plain.as_object_mut().unwrap().remove("moe_layer_freq");
    assert_eq!(derived(plain), v * h + dense + 4 * sparse + h + v * h);
    // `mlp_layer_types` wins over both.
    let mut listed = config;
    listed["mlp_layer_types"] = json!(["sparse", "dense", "dense", "dense", "sparse"]);
    assert_eq!(derived(listed), v * h + 3 * dense + 2 * sparse + h + v * h);
}

#[test]
fn lara_mini_mixes_gated_deltanet_with_sliding_and_full_attention_by_three_layer_kinds() {
    // vocab 1000, hidden 64, 4 heads of 16 over 2 KV heads with per-head q/k norms; Gated
    // DeltaNet of 2 key heads of 8 and 4 value heads of 12, kernel 3; 6 stacked experts of width
    // 32 (router [6, 64]) and an ungated shared expert of 40 in every layer; tied.
    let (v, h) = (1000u64, 64u64);
    let attn = h * 64 + 2 * h * 32 + 64 * h + 2 * 16;
    assert_eq!(attn, 12_320);
    // in_proj_qkv [2*16 + 48, 64], in_proj_z [48, 64], in_proj_b and in_proj_a [4, 64], conv1d
    // [80, 1, 3], dt_bias and A_log [4], the gated norm [12], out_proj [64, 48].
    let delta = h * 80 + h * 48 + 2 * h * 4 + 80 * 3 + 2 * 4 + 12 + 48 * h;
    assert_eq!(delta, 12_036);
    let moe = 6 * h + 6 * (2 * 32 * h + h * 32) + 3 * h * 40 + 2 * h;
    let config = json!({"model_type": "lara_mini", "architectures": ["LaraMiniForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": 5, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "linear_conv_kernel_dim": 3,
        "linear_key_head_dim": 8, "linear_value_head_dim": 12, "linear_num_key_heads": 2,
        "linear_num_value_heads": 4, "moe_intermediate_size": 32,
        "shared_expert_intermediate_size": 40, "num_experts": 6, "num_experts_per_tok": 2,
        "sliding_window": 16});
    // The class's pattern: linear, sliding, linear, full, sliding.
    assert_eq!(derived(config.clone()), v * h + 2 * delta + 3 * attn + 5 * moe + h);
    assert_eq!(derived(config.clone()), 350_376);
    // Listed kinds: full, linear, sliding; untied, with attention biases (q, k, v, o).
    let mut listed = config;
    listed["num_hidden_layers"] = json!(3);
    listed["tie_word_embeddings"] = json!(false);
    listed["attention_bias"] = json!(true);
    listed["layer_types"] = json!(["full_attention", "linear_attention", "sliding_attention"]);
    let biased = attn + 64 + 32 + 32 + 64;
    assert_eq!(derived(listed), v * h + 2 * biased + delta + 3 * moe + h + v * h);
}
