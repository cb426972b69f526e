//! The Mamba-2 hybrids (`src/config/spec_hybrid.rs`): Bamba, Granite 4.0 and Nemotron-H, and
//! `mamba2` through the same mixer block. Each count is written out by hand from transformers
//! 5.24's modeling files, never read back from the program.

mod common;

use common::{plan_id, plan_text};
use modelatlas::page::ModelPage;
use serde_json::{Value, json};

fn page(config: Value) -> ModelPage {
    plan_text(&config.to_string()).unwrap()
}

fn derived(config: Value) -> u64 {
    page(config).params.unwrap().derived
}

/// A Mamba-2 mixer from hidden `h`: `in_proj` (h -> inner + conv + heads, where conv = inner +
/// 2 x groups x state), the depthwise conv1d (weight conv x kernel, bias conv), dt_bias, A_log
/// and D per head, the gated RMSNorm over inner, `out_proj` (inner -> h); `proj_bias` adds the
/// two projections' biases.
fn mamba2(h: u64, heads: u64, head_dim: u64, groups: u64, state: u64, kernel: u64, proj_bias: bool) -> u64 {
    let inner = heads * head_dim;
    let conv = inner + 2 * groups * state;
    let in_out = h * (inner + conv + heads) + inner * h;
    let biases = if proj_bias { inner + conv + heads + h } else { 0 };
    in_out + biases + conv * kernel + conv + 3 * heads + inner
}

/// q and o (h x heads*hd), k and v (h x kv*hd), no biases.
fn attention(h: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    2 * h * heads * hd + 2 * h * kv * hd
}

#[test]
fn the_default_mamba2_still_counts_its_mixer_through_the_shared_block() {
    // Mamba2Config(): vocab 32768, hidden 4096, 64 layers, 128 heads of 64, 8 groups, state 128,
    // kernel 4, untied; each layer one RMSNorm and the mixer, then norm_f and lm_head.
    let (v, h) = (32768u64, 4096u64);
    let layer = h + mamba2(h, 128, 64, 8, 128, 4, false);
    let expected = v * h + 64 * layer + h + v * h;
    assert_eq!(derived(json!({"model_type": "mamba2", "architectures": ["Mamba2ForCausalLM"]})), expected);
}

#[test]
fn bamba_puts_attention_on_the_listed_layers_and_mamba2_with_a_gated_mlp_elsewhere() {
    // 4 layers of 64, attention (4 heads of 16 over 2 KV heads) on layer 1 only; Mamba-2 of 8
    // heads (expand 2: 128 channels, head_dim "auto" 16), 2 groups, state 16, kernel 3; gated
    // MLP 96; two RMSNorms a layer (input_layernorm, pre_ff_layernorm); vocab 500, untied.
    let (v, h, f) = (500u64, 64u64, 96u64);
    let mlp = 3 * h * f;
    let attn_layer = attention(h, 4, 2, 16) + mlp + 2 * h;
    let mamba_layer = mamba2(h, 8, 16, 2, 16, 3, false) + mlp + 2 * h;
    let expected = v * h + attn_layer + 3 * mamba_layer + h + v * h;
    let config = json!({"model_type": "bamba", "architectures": ["BambaForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "mamba_n_heads": 8, "mamba_n_groups": 2,
        "mamba_d_state": 16, "mamba_d_conv": 3, "mamba_expand": 2, "attn_layer_indices": [1]});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, expected);
    // Serving: one attention layer caches 2 x 2 KV heads x 16 per token; three Mamba-2 layers
    // keep (128 + 2 x 2 x 16) x 3 conv values and 8 x 16 x 16 scan values per sequence.
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((layout.groups.len(), layout.groups[0].layers, layout.groups[0].values_per_token), (1, 1, 64));
    let state = layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (3, 192 * 3, 8 * 16 * 16));
}

#[test]
fn the_default_bamba_is_all_mamba2_with_no_kv_cache_and_says_the_scan_is_not_modelled() {
    // BambaConfig(): vocab 128000, hidden 4096, ffn 14336, 32 layers, no attn_layer_indices (so
    // no attention layer), 128 Mamba heads (expand 2: head_dim 64), 1 group, state 256, kernel
    // 4, conv bias, no projection bias; untied.
    let (v, h) = (128000u64, 4096u64);
    let layer = mamba2(h, 128, 64, 1, 256, 4, false) + 3 * h * 14336 + 2 * h;
    let p = page(json!({"model_type": "bamba", "architectures": ["BambaForCausalLM"]}));
    assert_eq!(p.params.as_ref().unwrap().derived, v * h + 32 * layer + h + v * h);
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert!(layout.groups.is_empty());
    assert_eq!(layout.recurrent.as_ref().unwrap().layers, 32);
    // Training: the scan's own saved tensors are not modelled, and the page says so.
    let notes = &p.training.as_ref().unwrap().assumptions;
    assert!(notes.iter().any(|n| n.contains("selective scan")), "{notes:?}");
}

#[test]
fn granite_4_hybrid_routes_every_layer_with_the_shared_mlp_beside_the_experts() {
    // 4 layers of 64 (layer_types: attention on layer 1), 4 heads of 16 over 2 KV heads;
    // Mamba-2 as above; every layer: router (64 -> 4), 4 stacked experts (gate and up fused
    // 2 x 24 x 64, down 64 x 24), the shared MLP (input_linear 2 x 40 x 64, output_linear
    // 64 x 40) and two RMSNorms; vocab 500, tied (the head adds nothing).
    let (v, h, e, f, s) = (500u64, 64u64, 4u64, 24u64, 40u64);
    let moe = h * e + e * (2 * f * h + h * f) + 2 * s * h + h * s + 2 * h;
    let expected = v * h + (attention(h, 4, 2, 16) + moe) + 3 * (mamba2(h, 8, 16, 2, 16, 3, false) + moe) + h;
    let config = json!({"model_type": "granitemoehybrid", "architectures": ["GraniteMoeHybridForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "mamba_n_heads": 8, "mamba_n_groups": 2,
        "mamba_d_state": 16, "mamba_d_conv": 3, "mamba_expand": 2, "num_local_experts": e,
        "num_experts_per_tok": 2, "shared_intermediate_size": s, "tie_word_embeddings": true,
        "layer_types": ["mamba", "attention", "mamba", "mamba"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn nemotron_h_builds_one_block_per_letter_of_its_pattern() {
    // "ME*-M": Mamba-2 (8 heads of 16, 2 groups, state 16, kernel 3), experts (router 4 x 64,
    // 4 non-gated experts up 24 x 64 and down 64 x 24, shared expert up 40 x 64 and down 64 x 40),
    // attention (4 heads of 16 over 2 KV heads), a ReLU² MLP (up 96 x 64, down 64 x 96), Mamba-2;
    // one RMSNorm per layer; vocab 500; `tie_word_embeddings` true, but NemotronHForCausalLM
    // ties nothing, so lm_head counts.
    let (v, h) = (500u64, 64u64);
    let m = mamba2(h, 8, 16, 2, 16, 3, false);
    let moe = 4 * h + 4 * (24 * h + h * 24) + 40 * h + h * 40;
    let expected = v * h + 2 * m + moe + attention(h, 4, 2, 16) + 2 * h * 96 + 5 * h + h + v * h;
    let config = json!({"model_type": "nemotron_h", "architectures": ["NemotronHForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_attention_heads": 4, "num_key_value_heads": 2,
        "head_dim": 16, "intermediate_size": 96, "mamba_num_heads": 8, "mamba_head_dim": 16,
        "n_groups": 2, "ssm_state_size": 16, "conv_kernel": 3, "n_routed_experts": 4,
        "num_experts_per_tok": 2, "moe_intermediate_size": 24,
        "moe_shared_expert_intermediate_size": 40, "hybrid_override_pattern": "ME*-M",
        "num_hidden_layers": 99, "tie_word_embeddings": true});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, expected);
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((layout.groups[0].layers, layout.recurrent.as_ref().unwrap().layers), (1, 2));
}

#[test]
fn nemotron_h_experts_work_in_their_latent_when_one_is_set() {
    // One "E" layer with moe_latent_size 12: fc1_latent_proj (64 -> 12) and fc2_latent_proj
    // (12 -> 64), experts up 24 x 12 and down 12 x 24 each (3 of them), router 3 x 64, shared
    // expert 40 wide; one RMSNorm; vocab 500, untied.
    let (v, h) = (500u64, 64u64);
    let moe = 3 * h + 2 * h * 12 + 3 * (2 * 24 * 12) + 2 * h * 40;
    let config = json!({"model_type": "nemotron_h", "architectures": ["NemotronHForCausalLM"],
        "vocab_size": v, "hidden_size": h, "n_routed_experts": 3, "num_experts_per_tok": 1,
        "moe_intermediate_size": 24, "moe_shared_expert_intermediate_size": 40,
        "moe_latent_size": 12, "hybrid_override_pattern": "E", "mamba_num_heads": 8,
        "mamba_head_dim": 16, "n_groups": 2, "ssm_state_size": 16});
    assert_eq!(derived(config), v * h + moe + h + h + v * h);
}

#[test]
fn nemotron_3_nano_30b_from_the_snapshot_is_31_6_billion_as_published() {
    // Its config.json (hub/): vocab 131072, hidden 2688, pattern of 52 layers with 23 Mamba-2
    // (64 heads of 64, 8 groups, state 128, kernel 4), 23 expert layers (128 experts of 1856
    // up/down, top 6, a shared expert of 3712) and 6 attention layers (32 heads of 128 over 2
    // KV heads), one RMSNorm each, norm_f, untied head. NVIDIA's model card: 31.6B total.
    let (v, h) = (131072u64, 2688u64);
    let moe = 128 * h + 128 * (2 * 1856 * h) + 2 * h * 3712;
    let expected = v * h
        + 23 * (mamba2(h, 64, 64, 8, 128, 4, false) + h)
        + 23 * (moe + h)
        + 6 * (attention(h, 32, 2, 128) + h)
        + h
        + v * h;
    let p = plan_id("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    assert_eq!(p.params.as_ref().unwrap().derived, expected);
    assert!((31.55e9..31.65e9).contains(&(expected as f64)), "{expected}");
}

#[test]
fn a_bamba_whose_mamba_heads_do_not_make_its_channels_is_refused_naming_the_key() {
    let config = json!({"model_type": "bamba", "hidden_size": 64, "mamba_expand": 2,
        "mamba_n_heads": 8, "mamba_d_head": 12});
    let err = plan_text(&config.to_string()).unwrap_err().to_string();
    assert!(err.contains("mamba_n_heads"), "{err}");
}

#[test]
fn falcon_h1_runs_attention_and_mamba2_side_by_side_in_every_layer() {
    // 4 layers of 64: attention (4 heads of 16 over 2 KV heads) and Mamba-2 of mamba_d_ssm 96
    // channels (6 heads, head_dim "auto" 16, 2 groups, state 16, kernel 3) side by side, no gated
    // norm (mamba_rms_norm false), then a gated MLP of 96; input_layernorm and pre_ff_layernorm;
    // vocab 500, untied.
    let (v, h) = (500u64, 64u64);
    let mixer_without_norm = mamba2(h, 6, 16, 2, 16, 3, false) - 96;
    let layer = attention(h, 4, 2, 16) + mixer_without_norm + 3 * h * 96 + 2 * h;
    let config = json!({"model_type": "falcon_h1", "architectures": ["FalconH1ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 96, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "mamba_n_heads": 6, "mamba_n_groups": 2,
        "mamba_d_state": 16, "mamba_d_conv": 3, "mamba_d_ssm": 96});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, v * h + 4 * layer + h + v * h);
    // Every layer both caches keys and values and keeps a state.
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((layout.groups[0].layers, layout.recurrent.as_ref().unwrap().layers), (4, 4));
}

#[test]
fn falcon_h1_with_a_null_ssm_width_falls_back_to_expand_and_adds_its_norm_and_biases() {
    // mamba_d_ssm null: expand 2 x 64 = 128 channels over 8 heads of 16; mamba_rms_norm adds the
    // gated norm (128); mamba_proj_bias biases in_proj, projectors_bias out_proj; no conv bias
    // (mamba_conv_bias false); 2 layers, vocab 500, tied.
    let (v, h) = (500u64, 64u64);
    let conv = 128 + 2 * 2 * 16;
    let mixer = mamba2(h, 8, 16, 2, 16, 3, true) - conv;
    let layer = attention(h, 4, 2, 16) + mixer + 3 * h * 96 + 2 * h;
    let config = json!({"model_type": "falcon_h1", "architectures": ["FalconH1ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 96, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "mamba_n_heads": 8, "mamba_n_groups": 2,
        "mamba_d_state": 16, "mamba_d_conv": 3, "mamba_d_ssm": null, "mamba_rms_norm": true,
        "mamba_proj_bias": true, "projectors_bias": true, "mamba_conv_bias": false,
        "tie_word_embeddings": true});
    assert_eq!(derived(config), v * h + 2 * layer + h);
}

#[test]
fn granite_4_without_experts_keeps_only_the_shared_mlp_after_each_mixer() {
    // num_local_experts 0 (Granite 4.0's dense hybrids): no router and no experts; each layer's
    // MLP is shared_mlp (input_linear 2 x 40 x 64, output_linear 64 x 40). Layers: Mamba-2,
    // attention, Mamba-2, attention; two RMSNorms each; vocab 500, untied.
    let (v, h) = (500u64, 64u64);
    let shared = 2 * 40 * h + h * 40 + 2 * h;
    let expected = v * h
        + 2 * (mamba2(h, 8, 16, 2, 16, 3, false) + shared)
        + 2 * (attention(h, 4, 2, 16) + shared)
        + h
        + v * h;
    let config = json!({"model_type": "granitemoehybrid", "architectures": ["GraniteMoeHybridForCausalLM"],
        "vocab_size": v, "hidden_size": h, "num_hidden_layers": 4, "num_attention_heads": 4,
        "num_key_value_heads": 2, "mamba_n_heads": 8, "mamba_n_groups": 2, "mamba_d_state": 16,
        "mamba_d_conv": 3, "num_local_experts": 0, "shared_intermediate_size": 40,
        "layer_types": ["mamba", "attention", "mamba", "attention"]});
    assert_eq!(derived(config), expected);
}

/// Kimi Delta Attention from hidden `h`, `n` heads of `d`: q, k, v (h x n*d each), the
/// convolution over them (3*n*d x kernel, no bias), the forget gate's f_a (h x d) and f_b
/// (d x n*d) with dt_bias (n*d) and A_log (n), b (h x n), the output gate's g_a (h x d) and g_b
/// (d x n*d), o_norm (d), o (n*d x h).
fn kimi_delta(h: u64, n: u64, d: u64, kernel: u64) -> u64 {
    let qkv = n * d;
    3 * h * qkv + 3 * qkv * kernel + (h * d + d * qkv + qkv + n) + h * n + (h * d + d * qkv) + d + qkv * h
}

/// Latent attention without a query latent: q (h x heads*(nope+rope)), kv_a (h x (kv+rope)) and
/// its norm (kv), kv_b (kv x heads*(nope+v)), o (heads*v x h); no biases.
fn latent_direct(h: u64, heads: u64, kv: u64, nope: u64, rope: u64, v: u64) -> u64 {
    h * heads * (nope + rope) + h * (kv + rope) + kv + kv * heads * (nope + v) + heads * v * h
}

#[test]
fn kimi_linear_48b_from_the_snapshot_equals_its_published_checkpoint() {
    // Its config.json (hub/): vocab 163840, hidden 2304, 27 layers: latent attention on layers
    // 4, 8, 12, 16, 20, 24, 27 (1-based full_attn_layers; 32 heads, no query latent, kv_lora 512,
    // qk 128 + 64 rotary, v 128), Kimi Delta Attention on the 20 others (32 heads of 128, kernel
    // 4); layer 0 a dense MLP of 9216, layers 1-26 a router (256 x 2304), 256 stacked experts of
    // 1024 and one shared expert of 1024; two norms a layer; untied (the class ties nothing).
    let (v, h) = (163_840u64, 2304u64);
    let mla = latent_direct(h, 32, 512, 128, 64, 128);
    let kda = kimi_delta(h, 32, 128, 4);
    let moe = 256 * h + 256 * 3 * h * 1024 + 3 * h * 1024;
    let class = v * h + 7 * mla + 20 * kda + 3 * h * 9216 + 26 * moe + 27 * 2 * h + h + v * h;
    let page = plan_id("moonshotai/Kimi-Linear-48B-A3B-Instruct");
    let p = page.params.as_ref().unwrap();
    assert_eq!(p.derived, class);
    // The checkpoint adds each of the 26 routers' e_score_correction_bias buffer (256 values):
    // 49,122,681,728, the sum over its safetensors (tests/fixtures/reference/checkpoints.tsv).
    assert_eq!(class + 26 * 256, 49_122_681_728);
    assert_eq!(p.checkpoint, Some(common::published_counts()["moonshotai/Kimi-Linear-48B-A3B-Instruct"]));
    // Serving: 7 latent layers cache kv_lora + rope = 576 values per token; 20 delta layers keep
    // 3 x 4096 x 4 conv values and 32 x 128 x 128 state values per sequence.
    let layout = &page.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((layout.groups[0].layers, layout.groups[0].values_per_token), (7, 576));
    let state = layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (20, 3 * 4096 * 4, 32 * 128 * 128));
}

#[test]
fn kimi_linear_without_a_layer_list_attends_on_every_fourth_layer_after_the_first() {
    // No layer_types and no linear_attn_config: full attention where i > 0 and i % 4 == 0, so
    // of 5 layers, layer 4; 4 heads of 16 (top-level linear_num_heads, linear_head_dim), kernel
    // 3; latent attention 4 heads, kv_lora 24, qk 16 + 8, v 12; all MLPs dense (first 5 of 5);
    // vocab 500, untied.
    let (v, h) = (500u64, 64u64);
    let layer_mlp = 3 * h * 96 + 2 * h;
    let expected = v * h
        + 4 * (kimi_delta(h, 4, 16, 3) + layer_mlp)
        + (latent_direct(h, 4, 24, 16, 8, 12) + layer_mlp)
        + h
        + v * h;
    let config = json!({"model_type": "kimi_linear", "architectures": ["KimiLinearForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 96, "num_hidden_layers": 5,
        "num_attention_heads": 4, "kv_lora_rank": 24, "qk_rope_head_dim": 8, "qk_nope_head_dim": 16,
        "v_head_dim": 12, "linear_head_dim": 16, "linear_num_heads": 4, "linear_conv_kernel_dim": 3,
        "first_k_dense_replace": 5, "pad_token_id": 0});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, expected);
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!(layout.recurrent.as_ref().unwrap().layers, 4);
}

#[test]
fn lfm2_mixes_short_convolutions_with_attention_and_shrinks_its_mlp_by_two_thirds() {
    // Shaped like LiquidAI/LFM2-1.2B's config: vocab 65536, hidden 2048, 16 layers, attention on
    // full_attn_idxs 2, 5, 8, 10, 12, 14 (32 heads of 64 over 8 KV heads, q/k norms of 64), a
    // short convolution elsewhere (in_proj 2048 -> 3 x 2048, conv 2048 x 3, out_proj 2048 x 2048,
    // no biases); block_ff_dim 12288 auto-adjusted to 2/3 = 8192 (x 1.0, a multiple of 256);
    // operator_norm and ffn_norm; the final norm; tied.
    let (v, h, f) = (65536u64, 2048u64, 8192u64);
    let attn = 2 * h * h + 2 * h * 512 + 2 * 64;
    let conv = h * 3 * h + h * 3 + h * h;
    let per_layer = 3 * h * f + 2 * h;
    let expected = v * h + 6 * (attn + per_layer) + 10 * (conv + per_layer) + h;
    let config = json!({"model_type": "lfm2", "architectures": ["Lfm2ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "block_ff_dim": 12288, "num_hidden_layers": 16,
        "num_attention_heads": 32, "num_key_value_heads": 8, "conv_L_cache": 3,
        "full_attn_idxs": [2, 5, 8, 10, 12, 14], "block_multiple_of": 256,
        "block_ffn_dim_multiplier": 1.0, "block_auto_adjust_ff_dim": true, "tie_embedding": true});
    let p = page(config);
    assert_eq!(p.params.as_ref().unwrap().derived, expected);
    // Serving: 6 attention layers cache 2 x 8 x 64 values per token; 10 convolution layers keep
    // 2048 x 3 values per sequence and nothing else.
    let layout = &p.serving.as_ref().unwrap().kv.as_ref().unwrap().layout;
    assert_eq!((layout.groups[0].layers, layout.groups[0].values_per_token), (6, 1024));
    let state = layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (10, 2048 * 3, 0));
}

#[test]
fn lfm2_rounds_its_scaled_mlp_width_up_to_the_multiple() {
    // intermediate 200: 2/3 -> 133, x 0.8 -> 106, up to a multiple of 16 -> 112; one attention
    // layer (4 heads of 16 over 2 KV heads, q/k norms of 16); vocab 500, hidden 64, tied.
    let (v, h, f) = (500u64, 64u64, 112u64);
    let expected = v * h + (2 * h * h + 2 * h * 32 + 2 * 16) + 3 * h * f + 2 * h + h;
    let config = json!({"model_type": "lfm2", "architectures": ["Lfm2ForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": 200, "num_hidden_layers": 1, "num_attention_heads": 4,
        "num_key_value_heads": 2, "block_multiple_of": 16, "block_ffn_dim_multiplier": 0.8});
    assert_eq!(derived(config), expected);
}

#[test]
fn lfm2_moe_keeps_its_first_layers_dense_then_routes_over_stacked_experts() {
    // 4 layers of 64: convolution, attention, convolution, convolution (layer_types); layer 0
    // a dense gated MLP of 96, layers 1-3 a router (6 x 64) and 6 stacked experts (gate and up
    // 2 x 24 x 64, down 64 x 24); attention 4 heads of 16 over 2 KV heads with q/k norms of 16;
    // convolutions in_proj 64 -> 192, conv 64 x 3, out_proj 64 x 64; two norms a layer; tied.
    let (v, h) = (500u64, 64u64);
    let conv = h * 3 * h + h * 3 + h * h;
    let attn = 2 * h * h + 2 * h * 32 + 2 * 16;
    let moe = 6 * h + 6 * 3 * 24 * h;
    let expected = v * h + (conv + 3 * h * 96) + (attn + moe) + 2 * (conv + moe) + 4 * 2 * h + h;
    let config = json!({"model_type": "lfm2_moe", "architectures": ["Lfm2MoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 96, "moe_intermediate_size": 24,
        "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
        "num_experts": 6, "num_experts_per_tok": 2, "num_dense_layers": 1,
        "layer_types": ["conv", "full_attention", "conv", "conv"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn a_mamba2_config_saved_by_python_with_an_infinite_time_step_limit_still_plans() {
    // Mamba2Config's default time_step_limit is (0.0, float("inf")), which Python's json module
    // writes as a bare `Infinity` (not JSON). The planner does not read the key; the count is
    // the default Mamba-2's, as in the test above.
    let (v, h) = (32768u64, 4096u64);
    let expected = v * h + 64 * (h + mamba2(h, 128, 64, 8, 128, 4, false)) + h + v * h;
    let text = r#"{"model_type": "mamba2", "architectures": ["Mamba2ForCausalLM"],
        "time_step_limit": [0.0, Infinity], "time_step_floor": 0.0001, "note": "NaN stays a string"}"#;
    assert_eq!(plan_text(text).unwrap().params.unwrap().derived, expected);
}

#[test]
fn an_infinite_width_is_refused_naming_the_key_not_defaulted() {
    let text = r#"{"model_type": "mamba2", "architectures": ["Mamba2ForCausalLM"], "hidden_size": Infinity}"#;
    let err = format!("{:?}", plan_text(text).unwrap_err());
    assert!(err.contains("hidden_size"), "{err}");
}
