//! Doge, Dory, Gemma 4, Gemma 3n and T5Gemma (`config/doge_dory.rs` and beside it): each count
//! written out by hand from transformers 5.24's modeling file (embeddings + layers x (attention +
//! MLP + norms) + final norm + head), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// Doge's layer (modeling_doge.py, no biases): input_layernorm (h); q_proj (h x heads x hd),
/// k_proj and v_proj (h x kv x hd each), q_norm and k_norm (hd each), `A` (kv), dt_proj
/// (kv x hd x kv), o_proj (heads x hd x h); input_residual (h); post_attention_layernorm (h); the
/// gated MLP (3 x h x f); post_attention_residual (h).
fn doge_layer(h: u64, heads: u64, kv: u64, hd: u64, f: u64) -> u64 {
    let attention = h * heads * hd + 2 * h * kv * hd + 2 * hd + kv + kv * hd * kv + heads * hd * h;
    h + attention + h + h + 3 * h * f + h
}

#[test]
fn doge_counts_its_dynamic_mask_and_residual_scales_with_an_untied_head() {
    // DogeConfig's defaults: 32768 x 1024, ffn 2048, 32 layers, 8 heads, kv heads None (= 8).
    let (v, h, f, layers, heads) = (32768, 1024, 2048, 32, 8);
    let expected = v * h + layers * doge_layer(h, heads, heads, h / heads, f) + h + v * h;
    assert_eq!(expected, 403_055_872);
    let config = json!({"model_type": "doge", "architectures": ["DogeForCausalLM"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn doge_cross_domain_experts_are_two_embedding_rows_each_behind_product_keys() {
    // is_moe: the gated MLP stays as the shared expert; router_gate (h x 2 x floor(sqrt(50)) = 14
    // keys), down_embed and up_embed (50 x h each). Tied head: none of its own.
    let (v, h, f, layers, heads) = (300, 48, 80, 2, 4);
    let experts = 50;
    let moe = h * 2 * 7 + 2 * experts * h;
    let expected = v * h + layers * (doge_layer(h, heads, heads, h / heads, f) + moe) + h;
    let config = json!({"model_type": "doge", "architectures": ["DogeForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": layers,
        "num_attention_heads": heads, "tie_word_embeddings": true, "is_moe": true,
        "num_experts": experts, "num_experts_per_tok": 4});
    assert_eq!(derived(config), expected);
}
