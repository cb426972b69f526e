//! More mixture-of-experts and latent-attention decoder types (`config/spec_moe3.rs`): each count
//! written out by hand from transformers 5.24's modeling file (embeddings + layers x (attention +
//! MLP or experts + norms) + final norm + head), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// Grouped-query attention without biases: q and o (h x heads*hd each), k and v (h x kv*hd each).
fn gqa(h: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    2 * h * heads * hd + 2 * h * kv * hd
}

/// The biases grouped-query attention adds on q, k and v.
fn qkv_bias(heads: u64, kv: u64, hd: u64) -> u64 {
    heads * hd + 2 * kv * hd
}

/// A gated MLP (gate, up, down) of width `f`, without biases.
fn gated(h: u64, f: u64) -> u64 {
    3 * h * f
}

/// Latent attention (DeepSeek-V2/V3): queries through a latent of rank `r` (q_a, its norm, q_b)
/// or, without one, `q_proj`; kv_a (h x (kv + rope)), its norm (kv), kv_b (kv x heads*(nope + v)),
/// o (heads*v x h); no biases.
fn latent(h: u64, heads: u64, r: Option<u64>, kv: u64, nope: u64, rope: u64, v: u64) -> u64 {
    let q = match r {
        Some(r) => h * r + r + r * heads * (nope + rope),
        None => h * heads * (nope + rope),
    };
    q + h * (kv + rope) + kv + kv * heads * (nope + v) + heads * v * h
}

/// Hunyuan-A13B's layers: Hunyuan-dense's attention (per-head query_layernorm and key_layernorm,
/// head_dim each), on every layer the router `gate.wg` (h x experts), the experts at
/// `intermediate_size` and `shared_mlp` as wide.
#[test]
fn hunyuan_v1_moe_counts_its_shared_mlp_beside_the_experts_on_every_layer() {
    let (v, h, f, l, e) = (500u64, 64u64, 48u64, 2u64, 6u64);
    let hd = h / 4;
    let layer = gqa(h, 4, 2, hd) + 2 * hd + h * e + e * gated(h, f) + gated(h, f) + 2 * h;
    let config = json!({"model_type": "hunyuan_v1_moe", "architectures": ["HunYuanMoEV1ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 2, "num_experts": e, "moe_topk": 2,
        "tie_word_embeddings": false});
    assert_eq!(derived(config.clone()), v * h + l * layer + h + v * h);
    // The sequence head: `score` (h x 2 labels) in place of the untied lm_head.
    let mut seq = config;
    seq["architectures"] = json!(["HunYuanMoEV1ForSequenceClassification"]);
    assert_eq!(derived(seq), v * h + l * layer + h + 2 * h);
}

/// Sarvam-30B's config loads GLM-4.5's classes: per-head q/k norms by `use_qk_norm` (on by
/// default here), `first_k_dense_replace` dense layers first, then the router (h x experts, its
/// correction bias a buffer), the experts and `n_shared_experts` x the expert width fused.
#[test]
fn sarvam_moe_plans_through_glm4_moe_classes_with_its_own_defaults() {
    let (v, h, f, fe, l, e, hd) = (500u64, 64u64, 96u64, 24u64, 3u64, 6u64, 16u64);
    let attention = gqa(h, 4, 2, hd) + 2 * hd;
    let dense = attention + gated(h, f) + 2 * h;
    let sparse = attention + h * e + e * gated(h, fe) + gated(h, fe) + 2 * h;
    let config = json!({"model_type": "sarvam_moe", "architectures": ["Glm4MoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "moe_intermediate_size": fe,
        "num_hidden_layers": l, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": hd,
        "num_experts": e, "num_experts_per_tok": 2});
    assert_eq!(derived(config.clone()), v * h + dense + (l - 1) * sparse + h + v * h);
    // `use_qkv_bias` (an alias of attention_bias) biases q, k and v, never o_proj.
    let mut biased = config;
    biased["use_qkv_bias"] = json!(true);
    let b = qkv_bias(4, 2, hd);
    assert_eq!(derived(biased), v * h + dense + (l - 1) * sparse + l * b + h + v * h);
}

/// Solar Open: Llama's attention with an unbiased output, GLM-4.5's sparse block on every layer
/// (there is no `intermediate_size`).
#[test]
fn solar_open_routes_every_layer_through_the_experts_and_a_shared_expert() {
    let (v, h, fe, l, e, hd) = (500u64, 64u64, 24u64, 2u64, 6u64, 16u64);
    let layer = gqa(h, 4, 2, hd) + h * e + e * gated(h, fe) + gated(h, fe) + 2 * h;
    let config = json!({"model_type": "solar_open", "architectures": ["SolarOpenForCausalLM"],
        "vocab_size": v, "hidden_size": h, "moe_intermediate_size": fe, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": hd,
        "n_routed_experts": e, "num_experts_per_tok": 2, "n_shared_experts": 1});
    assert_eq!(derived(config.clone()), v * h + l * layer + h + v * h);
    // Two shared experts fuse into one MLP twice as wide.
    let mut two = config;
    two["n_shared_experts"] = json!(2);
    assert_eq!(derived(two), v * h + l * (layer + gated(h, fe)) + h + v * h);
}

/// Sarvam-105B's config loads DeepSeek-V3's classes: latent attention whose queries are projected
/// directly (`q_lora_rank` None by default), one dense layer, then the routed and shared experts.
#[test]
fn sarvam_mla_projects_queries_directly_by_default_and_counts_deepseek_v3_layers() {
    let (v, h, f, fe, l, e) = (500u64, 64u64, 96u64, 32u64, 3u64, 6u64);
    let attention = latent(h, 4, None, 24, 16, 8, 12);
    let dense = attention + gated(h, f) + 2 * h;
    let sparse = attention + h * e + e * gated(h, fe) + gated(h, fe) + 2 * h;
    let config = json!({"model_type": "sarvam_mla", "architectures": ["DeepseekV3ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "moe_intermediate_size": fe,
        "num_hidden_layers": l, "num_attention_heads": 4, "n_routed_experts": e,
        "num_experts_per_tok": 2, "kv_lora_rank": 24, "qk_rope_head_dim": 8,
        "qk_nope_head_dim": 16, "v_head_dim": 12});
    assert_eq!(derived(config.clone()), v * h + dense + (l - 1) * sparse + h + v * h);
    // A query latent of rank 40 (q_a, its norm, q_b) in place of q_proj.
    let mut ranked = config;
    ranked["q_lora_rank"] = json!(40);
    let ranked_attention = latent(h, 4, Some(40), 24, 16, 8, 12);
    let mlps = gated(h, f) + (l - 1) * (h * e + e * gated(h, fe) + gated(h, fe));
    assert_eq!(derived(ranked), v * h + l * (ranked_attention + 2 * h) + mlps + h + v * h);
}

/// Youtu-LLM: Llama's dense layers around latent attention, tied embeddings by default.
#[test]
fn youtu_counts_dense_layers_around_latent_attention_with_tied_embeddings() {
    let (v, h, f, l) = (500u64, 64u64, 96u64, 3u64);
    let layer = latent(h, 4, Some(40), 24, 16, 8, 12) + gated(h, f) + 2 * h;
    let config = json!({"model_type": "youtu", "architectures": ["YoutuForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 4, "kv_lora_rank": 24,
        "q_lora_rank": 40, "qk_rope_head_dim": 8, "qk_nope_head_dim": 16, "v_head_dim": 12});
    assert_eq!(derived(config.clone()), v * h + l * layer + h);
    let mut untied = config;
    untied["tie_word_embeddings"] = json!(false);
    assert_eq!(derived(untied), v * h + l * layer + h + v * h);
}

/// MiniCPM3: `v_head_dim` None means hidden / heads (64 / 4 = 16); the MLP's biases follow
/// `mlp_bias`; its embedding scale is a buffer, not a weight.
#[test]
fn minicpm3_takes_the_value_width_from_hidden_over_heads_when_unset() {
    let (v, h, f, l) = (500u64, 64u64, 96u64, 2u64);
    let layer = latent(h, 4, Some(40), 24, 16, 8, 16) + gated(h, f) + 2 * h;
    let config = json!({"model_type": "minicpm3", "architectures": ["MiniCPM3ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 4, "kv_lora_rank": 24,
        "q_lora_rank": 40, "qk_rope_head_dim": 8, "qk_nope_head_dim": 16});
    assert_eq!(derived(config.clone()), v * h + l * layer + h);
    let mut biased = config;
    biased["mlp_bias"] = json!(true);
    assert_eq!(derived(biased), v * h + l * (layer + 2 * f + h) + h);
}

/// Hy-V3: Apertus's attention (per-head q/k norms), a dense first layer, then the router
/// (h x experts; its correction bias a buffer), the experts and `num_shared_experts` fused.
#[test]
fn hy_v3_counts_a_dense_first_layer_then_routed_and_shared_experts() {
    let (v, h, f, fe, l, e, hd) = (500u64, 64u64, 96u64, 24u64, 3u64, 6u64, 16u64);
    let attention = gqa(h, 4, 2, hd) + 2 * hd;
    let dense = attention + gated(h, f) + 2 * h;
    let sparse = attention + h * e + e * gated(h, fe) + gated(h, fe) + 2 * h;
    let config = json!({"model_type": "hy_v3", "architectures": ["HYV3ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "moe_intermediate_size": fe,
        "num_hidden_layers": l, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": hd,
        "num_experts": e, "num_experts_per_tok": 2});
    assert_eq!(derived(config.clone()), v * h + dense + (l - 1) * sparse + h + v * h);
    // `mlp_layer_types` places the dense layer; no shared expert at 0.
    let mut listed = config;
    listed["mlp_layer_types"] = json!(["sparse", "sparse", "dense"]);
    listed["num_shared_experts"] = json!(0);
    let sparse_alone = sparse - gated(h, fe);
    assert_eq!(derived(listed), v * h + 2 * sparse_alone + dense + h + v * h);
}

/// AFMoE: per-head q/k norms, a sigmoid output gate of its own (`gate_proj`, h x heads*hd), four
/// norms a layer, `num_dense_layers` dense first, then the router (h x experts), the learned
/// `expert_bias` (one per expert), the experts and `num_shared_experts` (2 by default) fused.
#[test]
fn afmoe_counts_its_output_gate_its_expert_bias_and_four_norms_a_layer() {
    let (v, h, f, fe, l, e, hd) = (500u64, 64u64, 96u64, 24u64, 3u64, 6u64, 16u64);
    let attention = gqa(h, 4, 2, hd) + 2 * hd + h * 4 * hd;
    let dense = attention + gated(h, f) + 4 * h;
    let sparse = attention + h * e + e + e * gated(h, fe) + gated(h, 2 * fe) + 4 * h;
    let config = json!({"model_type": "afmoe", "architectures": ["AfmoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "moe_intermediate_size": fe,
        "num_hidden_layers": l, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": hd,
        "num_experts": e, "num_experts_per_tok": 2, "sliding_window": 16});
    assert_eq!(derived(config.clone()), v * h + dense + (l - 1) * sparse + h + v * h);
    // Two dense layers, tied embeddings.
    let mut tied = config;
    tied["num_dense_layers"] = json!(2);
    tied["tie_word_embeddings"] = json!(true);
    assert_eq!(derived(tied), v * h + 2 * dense + (l - 2) * sparse + h);
}

/// MiniMax: Mixtral's layers (router h x experts, experts w1, w3, w2 at `intermediate_size`),
/// full attention on even layers by default and lightning attention on odd ones: `qkv_proj`
/// (h x 3*heads*hd), `norm` (heads*hd), `output_gate` (h x heads*hd), `out_proj` (heads*hd x h).
#[test]
fn minimax_counts_lightning_attention_on_odd_layers_beside_full_attention() {
    let (v, h, f, l, e) = (500u64, 64u64, 48u64, 4u64, 6u64);
    let hd = h / 4;
    let mlp = h * e + e * gated(h, f) + 2 * h;
    let full = gqa(h, 4, 2, hd) + mlp;
    let lightning = 3 * h * 4 * hd + 4 * hd + h * 4 * hd + 4 * hd * h + mlp;
    let config = json!({"model_type": "minimax", "architectures": ["MiniMaxForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 2, "num_local_experts": e,
        "num_experts_per_tok": 2});
    assert_eq!(derived(config.clone()), v * h + 2 * full + 2 * lightning + h + v * h);
    let mut listed = config;
    listed["layer_types"] =
        json!(["linear_attention", "linear_attention", "linear_attention", "full_attention"]);
    assert_eq!(derived(listed), v * h + full + 3 * lightning + h + v * h);
}

/// DBRX: `wte`, per block `norm_1` and `norm_2` (LayerNorms with a weight, no bias), `Wqkv`
/// (d x (d + 2*kv*hd)), `out_proj` (d x d), `router.layer` (d x experts) and the stacked experts
/// `w1`, `v1`, `w2` (experts*ffn x d each), then `norm_f` and `lm_head`; sizes from the nested
/// `attn_config` and `ffn_config`.
#[test]
fn dbrx_reads_its_nested_configs_and_counts_stacked_experts() {
    let (v, d, l, f, e) = (500u64, 64u64, 2u64, 48u64, 6u64);
    let hd = d / 4;
    let layer = d + d * (d + 2 * 2 * hd) + d * d + d + d * e + 3 * e * f * d;
    let config = json!({"model_type": "dbrx", "architectures": ["DbrxForCausalLM"],
        "vocab_size": v, "d_model": d, "n_heads": 4, "n_layers": l,
        "attn_config": {"kv_n_heads": 2},
        "ffn_config": {"ffn_hidden_size": f, "moe_num_experts": e, "moe_top_k": 2}});
    assert_eq!(derived(config.clone()), v * d + l * layer + d + v * d);
    // The bare model: no head.
    let mut bare = config;
    bare["architectures"] = json!(["DbrxModel"]);
    assert_eq!(derived(bare), v * d + l * layer + d);
}

/// DbrxConfig refuses tied embeddings; the planner does too, naming the key.
#[test]
fn dbrx_refuses_tied_embeddings_as_its_config_class_does() {
    let config = json!({"model_type": "dbrx", "tie_word_embeddings": true});
    let err = plan_text(&config.to_string()).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("tie_word_embeddings"), "{err}");
}

/// JetMoE: per layer two RMSNorms; the mixture of attention heads (router h x experts, stacked
/// `input_linear` [experts, kv*hd, h] and `output_linear` [experts, h, kv*hd], an output bias
/// h) beside `kv_proj` (h x 2*kv*hd); the gated MLP experts (router, `input_linear`
/// [experts, 2f, h], `output_linear` [experts, h, f], bias h); tied embeddings by default.
#[test]
fn jetmoe_counts_its_mixture_of_attention_heads_and_of_mlp_experts() {
    let (v, h, l, kv, hd, f, e) = (500u64, 64u64, 2u64, 2u64, 16u64, 48u64, 6u64);
    let moa = h * e + e * (kv * hd) * h + e * h * (kv * hd) + h + h * 2 * kv * hd;
    let moe = h * e + e * 2 * f * h + e * h * f + h;
    let layer = 2 * h + moa + moe;
    let config = json!({"model_type": "jetmoe", "architectures": ["JetMoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": l, "num_key_value_heads": kv,
        "kv_channels": hd, "intermediate_size": f, "num_local_experts": e, "num_experts_per_tok": 2});
    assert_eq!(derived(config.clone()), v * h + l * layer + h);
    let mut untied = config;
    untied["tie_word_embeddings"] = json!(false);
    assert_eq!(derived(untied), v * h + l * layer + h + v * h);
}

/// Cohere 2 MoE: one norm a layer (attention and the MLP in parallel), a weight of h whether a
/// LayerNorm without bias or, with `rms_norm_eps` set, an RMSNorm; dense layers
/// (`mlp_layer_types`) at `prefix_dense_intermediate_size`, sparse ones with the router
/// (h x experts), stacked experts at `intermediate_size` and `num_shared_experts` fused; tied.
#[test]
fn cohere2_moe_counts_dense_prefix_layers_at_their_own_width_then_experts() {
    let (v, h, f, fd, l, e, hd) = (500u64, 64u64, 48u64, 40u64, 3u64, 6u64, 16u64);
    let attention = gqa(h, 4, 2, hd);
    let dense = h + attention + gated(h, fd);
    let sparse = h + attention + h * e + e * gated(h, f) + gated(h, 2 * f);
    let config = json!({"model_type": "cohere2_moe", "architectures": ["Cohere2MoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f,
        "prefix_dense_intermediate_size": fd, "num_hidden_layers": l, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": hd, "num_experts": e, "num_experts_per_tok": 2,
        "num_shared_experts": 2, "mlp_layer_types": ["dense", "sparse", "sparse"]});
    assert_eq!(derived(config.clone()), v * h + dense + 2 * sparse + h);
    // An RMSNorm has the same one weight; without prefix_dense_intermediate_size the dense layer
    // is as wide as intermediate_size.
    let mut rms = config;
    rms["rms_norm_eps"] = json!(1e-6);
    rms.as_object_mut().unwrap().remove("prefix_dense_intermediate_size");
    assert_eq!(derived(rms), v * h + (dense - gated(h, fd) + gated(h, f)) + 2 * sparse + h);
}
