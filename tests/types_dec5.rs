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
