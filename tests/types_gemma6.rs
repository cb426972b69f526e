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

/// A T5Gemma stack's layer (modeling_t5gemma.py, no biases): four RMSNorms around
/// self-attention and the MLP (4h); q_proj and o_proj (h x heads x hd each), k_proj and v_proj
/// (h x kv x hd each); the gated MLP (3 x h x f). The decoder's adds two norms and a
/// cross-attention whose keys and values read the encoder's width `enc`.
fn t5gemma_attention(h: u64, from: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    2 * h * heads * hd + 2 * from * kv * hd
}

#[test]
fn t5gemma_stacks_an_encoder_and_a_decoder_of_gemma2_layers_with_cross_attention_and_a_tied_head() {
    let (v, h, f, heads, kv, hd) = (500, 64, 96, 4, 2, 16);
    let attention = t5gemma_attention(h, h, heads, kv, hd);
    let encoder_layer = 4 * h + attention + 3 * h * f;
    let decoder_layer = 6 * h + 2 * attention + 3 * h * f;
    // Each stack its own embeddings and final norm; lm_head.out_proj tied to the decoder's.
    let expected = (v * h + 3 * encoder_layer + h) + (v * h + 2 * decoder_layer + h);
    assert_eq!(expected, 243_840);
    let stack = |layers: u64| {
        json!({"vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": layers,
            "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": hd})
    };
    let config = json!({"model_type": "t5gemma", "architectures": ["T5GemmaForConditionalGeneration"],
        "encoder": stack(3), "decoder": stack(2)});
    assert_eq!(derived(config), expected);
}

#[test]
fn t5gemma_cross_attention_keys_read_the_encoders_width_and_an_untied_head_counts() {
    // Encoder 48 wide, decoder 32: the decoder's cross k_proj and v_proj are [kv x hd, 48].
    let (ve, he, fe, vd, hd_, fd) = (300, 48, 80, 310, 32, 64);
    let encoder_layer = 4 * he + t5gemma_attention(he, he, 4, 4, 12) + 3 * he * fe;
    let cross = 2 * hd_ * 2 * 20 + 2 * he * 20;
    let decoder_layer = 6 * hd_ + t5gemma_attention(hd_, hd_, 2, 1, 20) + cross + 3 * hd_ * fd;
    let head = vd * hd_;
    let expected = (ve * he + 2 * encoder_layer + he) + (vd * hd_ + 3 * decoder_layer + hd_) + head;
    let config = json!({"model_type": "t5gemma", "architectures": ["T5GemmaForConditionalGeneration"],
        "tie_word_embeddings": false,
        "encoder": {"vocab_size": ve, "hidden_size": he, "intermediate_size": fe, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 12},
        "decoder": {"vocab_size": vd, "hidden_size": hd_, "intermediate_size": fd, "num_hidden_layers": 3,
            "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 20}});
    assert_eq!(derived(config), expected);
}

/// A Gemma 4 layer (modeling_gemma4.py, no biases): four RMSNorms (4h); q_proj (h x heads x hd),
/// q_norm (hd), o_proj (heads x hd x h); unless it shares an earlier layer's keys and values,
/// k_proj and v_proj (h x kv x hd each; no v_proj where keys are the values) and k_norm (hd; the
/// v_norm has no weight); the gated MLP (3 x h x f).
fn gemma4_layer(h: u64, heads: u64, kv: u64, hd: u64, f: u64, own_kv: bool) -> u64 {
    let q = 2 * h * heads * hd + hd;
    let kv_part = if own_kv { 2 * h * kv * hd + hd } else { 0 };
    4 * h + q + kv_part + 3 * h * f
}

#[test]
fn gemma4_counts_wider_full_layers_and_per_layer_embeddings() {
    // Six layers, five sliding (head_dim 16) and the last full (global_head_dim 32); per-layer
    // embeddings 8 wide: embed_tokens_per_layer (300 x 6 x 8), per_layer_model_projection
    // (h x 6 x 8), per_layer_projection_norm (8); per layer its gate (h x 8), projection (8 x h)
    // and norm (h). Tied head.
    let (v, h, f, heads, kv, p) = (500, 64, 96, 4, 2, 8);
    let ple_layer = h * p + p * h + h;
    let layers = 5 * (gemma4_layer(h, heads, kv, 16, f, true) + ple_layer)
        + gemma4_layer(h, heads, kv, 32, f, true)
        + ple_layer;
    let expected = v * h + (300 * 6 * p + h * 6 * p + p) + layers + h;
    let config = json!({"model_type": "gemma4_text", "architectures": ["Gemma4ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 6,
        "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": 16, "global_head_dim": 32,
        "vocab_size_per_layer_input": 300, "hidden_size_per_layer_input": p});
    assert_eq!(derived(config), expected);
}

#[test]
fn gemma4_shared_layers_hold_no_key_value_projections_and_cache_nothing_of_their_own() {
    // Four layers (sliding, full, sliding, full), the last two sharing the first two's keys and
    // values; no per-layer embeddings; untied head.
    let (v, h, f, heads, kv) = (300, 48, 80, 4, 2);
    let layers = gemma4_layer(h, heads, kv, 12, f, true)
        + gemma4_layer(h, heads, kv, 24, f, true)
        + gemma4_layer(h, heads, kv, 12, f, false)
        + gemma4_layer(h, heads, kv, 24, f, false);
    let expected = v * h + layers + h + v * h;
    let config = json!({"model_type": "gemma4_text", "architectures": ["Gemma4ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 4,
        "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": 12, "global_head_dim": 24,
        "hidden_size_per_layer_input": 0, "num_kv_shared_layers": 2, "tie_word_embeddings": false,
        "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]});
    let plan = plan_text(&config.to_string()).unwrap();
    assert_eq!(plan.params.as_ref().unwrap().derived, expected);
    // Per token, only layers 0 and 1 cache: 2 x 2 x 12 + 2 x 2 x 24 values, bf16.
    let kv_view = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv_view.bytes_per_token_bf16, 2 * (2 * kv * 12 + 2 * kv * 24));
}

#[test]
fn gemma4_assistant_layers_read_the_main_models_keys_and_values_between_two_projections() {
    // Four layers, all sharing the main model's keys and values (num_kv_shared_layers defaults
    // to the layer count): three sliding (head_dim 16), the last full (32). pre_projection from
    // twice the main model's 80 (160 x 64), post_projection back (64 x 80); lm_head tied.
    let (v, h, f, heads) = (500, 64, 96, 4);
    let layers = 3 * gemma4_layer(h, heads, 2, 16, f, false) + gemma4_layer(h, heads, 2, 32, f, false);
    let expected = v * h + layers + h + 2 * 80 * h + h * 80;
    assert_eq!(expected, 163_216);
    let config = json!({"model_type": "gemma4_assistant", "architectures": ["Gemma4AssistantForCausalLM"],
        "backbone_hidden_size": 80,
        "text_config": {"vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 4,
            "num_attention_heads": heads, "num_key_value_heads": 2, "head_dim": 16, "global_head_dim": 32,
            "hidden_size_per_layer_input": 0, "vocab_size_per_layer_input": 0}});
    let plan = plan_text(&config.to_string()).unwrap();
    assert_eq!(plan.params.as_ref().unwrap().derived, expected);
    assert_eq!(plan.serving.as_ref().unwrap().kv.as_ref().map_or(0, |k| k.bytes_per_token_bf16), 0);
}

#[test]
fn gemma3n_counts_altup_laurel_and_per_layer_inputs_with_a_width_per_layer() {
    // Five layers (four sliding, the fifth full), no shared keys and values, biases on
    // attention, untied head; h 48, 4 heads of 12 over 1 key/value head, MLP widths per layer.
    let (v, h, hd, n, rank, p) = (300, 48, 12, 3, 4, 4);
    let widths = [80, 64, 96, 72, 80];
    // q_proj and o_proj with biases (48 x 48 + 48 each), q_norm and k_norm (12 each), k_proj and
    // v_proj (48 x 12 + 12 each).
    let attention = 2 * (h * 4 * hd + h) + 2 * hd + 2 * (h * hd + hd);
    // AltUp: correct_output_scale (h), correction_coefs (n x n), prediction_coefs (n x n^2),
    // modality_router (h x n), router_norm (h).
    let altup = h + n * n + n * n * n + h * n + h;
    let laurel = 2 * h * rank + h;
    let per_layer_input = 2 * h * p + h;
    let layers: u64 =
        widths.iter().map(|f| 4 * h + attention + 3 * h * f + altup + laurel + per_layer_input).sum();
    // embed_tokens, embed_tokens_per_layer (200 x 5 x 4), per_layer_model_projection (h x 20),
    // per_layer_projection_norm (4), altup_projections and altup_unembed_projections (2 x h x h
    // each), norm, lm_head.
    let expected = v * h + 200 * 5 * p + h * 5 * p + p + 2 * (2 * h * h) + layers + h + v * h;
    assert_eq!(expected, 135_656);
    let config = json!({"model_type": "gemma3n_text", "architectures": ["Gemma3nForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": widths, "num_hidden_layers": 5,
        "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": hd, "vocab_size_per_layer_input": 200,
        "hidden_size_per_layer_input": p, "altup_num_inputs": n, "num_kv_shared_layers": 0,
        "laurel_rank": rank, "attention_bias": true, "tie_word_embeddings": false});
    assert_eq!(derived(config), expected);
}

#[test]
fn dory_counts_its_learned_scales_and_logit_scale_and_caches_the_looped_layers_once_per_loop() {
    // modeling_dory.py, no biases, norms without parameters: q_proj and o_proj (h x heads x hd
    // each), k_proj and v_proj (h x kv x hd each), gate_proj (h x heads x hd), sqk and s_gate
    // (heads x hd each); the gated MLP (3 x h x f) with suv_gate and suv_up (f each); lambda_1
    // and lambda_2 (h each). DoryLMHead: lm_head (v x h) and logit_scale (v).
    let (v, h, f, heads, kv, hd, layers) = (500, 64, 96, 4, 2, 16, 6);
    let attention = 3 * h * heads * hd + 2 * h * kv * hd + 2 * heads * hd;
    let layer = attention + 3 * h * f + 2 * f + 2 * h;
    let expected = v * h + layers * layer + v * h + v;
    assert_eq!(expected, 276_084);
    let config = json!({"model_type": "dory", "architectures": ["DoryForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": layers, "num_attention_heads": heads,
        "num_key_value_heads": kv, "head_dim": hd, "n_input_layers": 2, "n_output_layers": 2});
    let plan = plan_text(&config.to_string()).unwrap();
    assert_eq!(plan.params.as_ref().unwrap().derived, expected);
    // Two looped layers (2 and 3) run twice, each loop with its own cache ("per_loop"): eight
    // layers' keys and values, 2 x 2 x 16 values each, bf16.
    let kv_view = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv_view.bytes_per_token_bf16, 2 * 8 * (2 * kv * hd));
}
