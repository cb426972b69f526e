//! Hybrids of linear mixers and attention (helper "hyb6", issue 10): each count written out by
//! hand from transformers 5.24's modeling file (embeddings + layers x (mixer + MLP + norms) +
//! final norm + head), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

/// OLMo Hybrid's Gated DeltaNet layer (modeling_olmo_hybrid.py, no biases): q_proj and k_proj
/// (h x key heads x key width each), v_proj and g_proj (h x value heads x value width each),
/// a_proj and b_proj (h x value heads each), o_proj (values x h), conv1d over q, k and v
/// (channels x kernel, no bias), A_log and dt_bias (one per value head), o_norm (value width);
/// then input_layernorm and post_attention_layernorm (h each) and the gated MLP (3 x h x f).
fn olmo_linear_layer(h: u64, f: u64, (kh, kd, vh, vd, kernel): (u64, u64, u64, u64, u64)) -> u64 {
    let (k, v) = (kh * kd, vh * vd);
    let mixer = 2 * h * k + 2 * h * v + 2 * h * vh + v * h + (2 * k + v) * kernel + 2 * vh + vd;
    mixer + 2 * h + 3 * h * f
}

/// OLMo 3's attention layer: q_proj and o_proj (h x heads x head_dim), k_proj and v_proj (h x KV
/// heads x head_dim), q_norm and k_norm over all query (key) heads, post_attention_layernorm and
/// post_feedforward_layernorm (h each), the gated MLP.
fn olmo_attention_layer(h: u64, f: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    2 * h * heads * hd + 2 * h * kv * hd + heads * hd + kv * hd + 2 * h + 3 * h * f
}

#[test]
fn olmo_hybrid_defaults_count_24_delta_net_layers_and_8_post_norm_attention_layers() {
    // OlmoHybridConfig's defaults: vocab 100352, hidden 3840, MLP 11008, 32 layers, 30 heads (KV
    // heads too), head_dim 3840 / 30 = 128; linear heads 30, key width int(0.75 x 3840 / 30) =
    // 96, value width 2 x 96 = 192, kernel 4; full attention where i % 4 == 3 (8 layers).
    let (v, h, f) = (100352, 3840, 11008);
    let linear = olmo_linear_layer(h, f, (30, 96, 30, 192, 4));
    let attention = olmo_attention_layer(h, f, 30, 30, 128);
    let expected = v * h + 24 * linear + 8 * attention + h + h * v;
    assert_eq!(expected, 7_430_870_688, "the figure transformers 5.24 builds on the meta device");
    let config = json!({"model_type": "olmo_hybrid", "architectures": ["OlmoHybridForCausalLM"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn olmo_hybrid_reads_its_layer_types_linear_widths_and_attention_biases() {
    let (v, h, f, heads, kv) = (257, 40, 72, 2, 1);
    let linear = olmo_linear_layer(h, f, (2, 12, 4, 10, 3));
    // attention_bias: q, k, v and o each add their output width (heads x 20, KV heads x 20
    // twice, h).
    let attention = olmo_attention_layer(h, f, heads, kv, 20) + heads * 20 + 2 * kv * 20 + h;
    let layer_types = ["full_attention", "linear_attention", "linear_attention", "full_attention"];
    // The bare model: no head.
    let expected = v * h + 2 * linear + 2 * attention + h;
    let config = json!({"model_type": "olmo_hybrid", "architectures": ["OlmoHybridModel"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 4, "num_attention_heads": heads,
        "num_key_value_heads": kv, "attention_bias": true, "linear_num_key_heads": 2,
        "linear_num_value_heads": 4, "linear_key_head_dim": 12, "linear_value_head_dim": 10,
        "linear_conv_kernel_dim": 3, "layer_types": layer_types});
    assert_eq!(derived(config), expected);
}

#[test]
fn olmo_hybrid_serves_a_kv_cache_for_its_attention_layers_and_a_state_for_the_others() {
    let (h, heads) = (64, 4);
    let config = json!({"model_type": "olmo_hybrid", "architectures": ["OlmoHybridForCausalLM"],
        "vocab_size": 500, "hidden_size": h, "intermediate_size": 96, "num_hidden_layers": 8,
        "num_attention_heads": heads});
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    // Layers 3 and 7 attend: 2 layers x (K and V) x 4 heads x 16 head_dim values, bf16.
    assert_eq!(kv.bytes_per_token_bf16, 2 * 2 * heads * 16 * 2);
    // Six linear layers: key width int(0.75 x 64 / 4) = 12, value width 24; the convolution keeps
    // kernel 4 x (2 x 4 x 12 + 4 x 24) inputs, the delta rule 4 value heads x 12 x 24.
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!(state.layers, 6);
    assert_eq!(state.conv_values, 4 * (2 * 4 * 12 + 4 * 24));
    assert_eq!(state.ssm_values, 4 * 12 * 24);
}

/// Ling 3's delta attention (modeling_bailing_hybrid.py, no biases), `heads` heads of `hd`
/// (qkv = heads x hd): q_proj, k_proj, v_proj, forget_gate.f_proj and g_proj (h x qkv each),
/// o_proj (qkv x h), conv1d over q, k and v (3 x qkv x kernel), forget_gate.A_log (heads) and
/// dt_bias (qkv), b_proj (h x heads), o_norm (hd).
fn ling_delta(h: u64, heads: u64, hd: u64, kernel: u64) -> u64 {
    let qkv = heads * hd;
    5 * h * qkv + qkv * h + 3 * qkv * kernel + heads + qkv + h * heads + hd
}

/// Ling 3's latent attention with queries projected directly (q_lora_rank None), no biases:
/// q_proj (h x heads x (nope + rope)), kv_a_proj_with_mqa (h x (rank + rope)), kv_a_layernorm
/// (rank), kv_b_proj (rank x heads x (nope + v)), g_proj (h x heads), o_proj (heads x v x h).
fn ling_latent(h: u64, heads: u64, (rank, nope, rope, v): (u64, u64, u64, u64)) -> u64 {
    h * heads * (nope + rope)
        + h * (rank + rope)
        + rank
        + rank * heads * (nope + v)
        + h * heads
        + heads * v * h
}

#[test]
fn bailing_hybrid_defaults_count_35_delta_layers_7_gated_latent_layers_and_routed_experts() {
    // BailingHybridConfig's defaults: vocab 157184, hidden 2560, dense MLP 6144, 42 layers, 32
    // heads; delta attention 32 heads of head_dim 128, kernel 4; latent rank 512, nope 128, rope
    // 64, v 128; full attention closing each group of 6 (layers 5, 11, ..., 41: 7 layers); the
    // first 2 layers dense, then 512 stacked experts of 768 with 1 shared expert of 768.
    let (v, h, f, e, ef) = (157184, 2560, 6144, 512, 768);
    let delta = ling_delta(h, 32, 128, 4);
    let latent = ling_latent(h, 32, (512, 128, 64, 128));
    // The router's weight (experts x h; its correction bias is a buffer), the stacked experts'
    // gate_up_proj and down_proj (3 x h x 768 each), the shared expert's three projections.
    let moe = e * h + e * 3 * h * ef + 3 * h * ef;
    let (norms, dense) = (2 * h, 3 * h * f);
    let layers = 2 * (delta + dense + norms) + 33 * (delta + moe + norms) + 7 * (latent + moe + norms);
    // BailingHybridForCausalLM declares no tied weights: its lm_head is its own.
    let expected = v * h + layers + h + h * v;
    assert_eq!(expected, 124_414_191_072, "the figure transformers 5.24 builds on the meta device");
    let config = json!({"model_type": "bailing_hybrid", "architectures": ["BailingHybridForCausalLM"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn bailing_hybrid_never_ties_its_head_and_reads_the_derived_linear_sizes_a_saved_config_carries() {
    // A saved config carries head_dim = qk_rope_head_dim (BailingHybridConfig.__post_init__ sets
    // it) beside linear_head_dim, which the class reads for the delta attention.
    let (v, h, f) = (300, 48, 80);
    let delta = ling_delta(h, 2, 20, 3);
    let latent = ling_latent(h, 2, (16, 8, 4, 12));
    let dense = 3 * h * f;
    let expected = v * h + 2 * (delta + dense + 2 * h) + (latent + dense + 2 * h) + h + h * v;
    let config = json!({"model_type": "bailing_hybrid", "architectures": ["BailingHybridForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 3,
        "num_attention_heads": 2, "head_dim": 4, "linear_head_dim": 20, "linear_num_heads": 2,
        "linear_conv_kernel_dim": 3, "kv_lora_rank": 16, "qk_rope_head_dim": 4, "qk_nope_head_dim": 8,
        "v_head_dim": 12, "first_k_dense_replace": 3, "layer_group_size": 3,
        "tie_word_embeddings": true});
    assert_eq!(derived(config), expected);
}

/// Zamba's Mamba layer (modeling_zamba.py), `i` channels in `heads` Mamba heads: input_layernorm
/// (h); in_proj (h x 2i, a bias when `proj_bias`); conv1d (i x kernel, a bias when `conv_bias`);
/// per head x_proj_weight (rank + 2 x state rows over its i / heads channels: i x (rank + 2 x
/// state) in all), dt_proj_weight (i x rank) and dt_proj_bias (i); A_log (i x state), D (i);
/// out_proj (i x h, a bias when `proj_bias`).
fn zamba_mamba_layer(
    h: u64,
    i: u64,
    (state, kernel, rank): (u64, u64, u64),
    conv_bias: bool,
    proj_bias: bool,
) -> u64 {
    let proj = h * 2 * i + i * h + u64::from(proj_bias) * (2 * i + h);
    h + proj + i * kernel + u64::from(conv_bias) * i + i * (rank + 2 * state) + i * rank + i + i * state + i
}

/// Zamba's shared transformer block: input_layernorm over the hidden state and the embeddings
/// (2h); q_proj (2h x heads x head_dim), k_proj and v_proj (2h x KV heads x head_dim), o_proj
/// (heads x head_dim x h); pre_ff_layernorm (h); the gated MLP (3 x h x f).
fn zamba_shared_block(h: u64, f: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    2 * h + 2 * h * heads * hd + 2 * (2 * h * kv * hd) + heads * hd * h + h + 3 * h * f
}

#[test]
fn zamba_defaults_count_76_mamba_layers_and_the_shared_block_once_for_its_13_uses() {
    // ZambaConfig's defaults: vocab 32000, hidden 3712, MLP 14848, 76 layers, 16 heads (and KV
    // heads) of 2 x 3712 / 16 = 464; 2 Mamba heads over 2 x 3712 = 7424 channels, state 16,
    // kernel 4, dt rank ceil(3712 / 16) = 232, conv bias, no projection bias; hybrid layers: 2,
    // then 3 + i for i % 6 == 4 among the other 73 (12 more): 13 in all.
    let (v, h, f) = (32000, 3712, 14848);
    let mamba = zamba_mamba_layer(h, 7424, (16, 4, 232), true, false);
    let shared = zamba_shared_block(h, f, 16, 16, 464);
    // Each use adds its own `linear` (h x h); the head is tied to the embeddings.
    let expected = v * h + 76 * mamba + shared + 13 * h * h + h;
    assert_eq!(expected, 7_232_490_496, "the figure transformers 5.24 builds on the meta device");
    let config = json!({"model_type": "zamba", "architectures": ["ZambaForCausalLM"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn zamba_keeps_a_copy_of_the_shared_block_per_use_when_the_embeddings_are_untied() {
    // transformers 5.x applies `_tied_weights_keys`, the shared block's included, only under
    // tie_word_embeddings: untied, each of the 3 uses holds its own copy, and lm_head its own.
    let (v, h, f, heads, kv, hd) = (300, 48, 80, 4, 2, 10);
    let mamba = zamba_mamba_layer(h, 96, (8, 3, 5), false, true);
    let shared = zamba_shared_block(h, f, heads, kv, hd);
    let expected = v * h + 6 * mamba + 3 * (shared + h * h) + h + h * v;
    let config = json!({"model_type": "zamba", "architectures": ["ZambaForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_attention_heads": heads, "num_key_value_heads": kv,
        "head_dim": hd, "num_hidden_layers": 6, "n_mamba_heads": 3,
        "layers_block_type": ["mamba", "hybrid", "mamba", "hybrid", "hybrid", "mamba"],
        "mamba_dt_rank": 5, "mamba_conv_bias": false, "mamba_proj_bias": true, "mamba_d_state": 8,
        "mamba_d_conv": 3, "tie_word_embeddings": false});
    assert_eq!(derived(config), expected);
}

#[test]
fn zamba_serves_a_kv_cache_per_use_of_the_shared_block_and_a_state_per_mamba_layer() {
    // 8 layers: hybrid at 2 and 3 + 4 = 7. Heads 4 of 2 x 32 / 4 = 16; 64 Mamba channels.
    let config = json!({"model_type": "zamba", "architectures": ["ZambaForCausalLM"], "vocab_size": 500,
        "hidden_size": 32, "intermediate_size": 48, "num_attention_heads": 4, "num_key_value_heads": 4,
        "num_hidden_layers": 8});
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    // The weights are shared, the cache is not: 2 uses x (K and V) x 4 heads x 16, bf16.
    assert_eq!(kv.bytes_per_token_bf16, 2 * 2 * 4 * 16 * 2);
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (8, 64 * 4, 64 * 16));
}

/// Zamba2's Mamba-2 layer (modeling_zamba2.py): input_layernorm (h); in_proj (h x (inner plus
/// conv plus heads), where conv = inner plus 2 x groups x state), conv1d (conv x kernel, always
/// a bias: conv), dt_bias, A_log and D (heads each), the gated norm (inner), out_proj (inner x
/// h); with `bias` (add_bias_linear) in_proj's and out_proj's biases.
fn zamba2_mamba_layer(
    h: u64,
    (inner, heads, groups, state, kernel): (u64, u64, u64, u64, u64),
    bias: bool,
) -> u64 {
    let conv = inner + 2 * groups * state;
    let proj = h * (inner + conv + heads) + inner * h + u64::from(bias) * (inner + conv + heads + h);
    h + proj + conv * kernel + conv + 3 * heads + inner
}

/// A Zamba2 shared block without its adapters: input_layernorm (a = 2h), q_proj (a x heads x
/// head_dim), k_proj and v_proj (a x KV heads x head_dim), o_proj (heads x head_dim x h),
/// pre_ff_layernorm (h), gate_up_proj (h x 2f) and down_proj (f x h), biased under `bias`.
fn zamba2_block(h: u64, f: u64, (heads, kv, hd): (u64, u64, u64), bias: bool) -> u64 {
    let a = 2 * h;
    a + a * heads * hd + 2 * a * kv * hd + heads * hd * h + h + 3 * h * f + u64::from(bias) * (2 * f + h)
}

/// One use's adapters, rank r: gate_up_proj's (h x r, r x 2f), and with attention adapters q's,
/// k's and v's (2h x r, r x 2h each).
fn zamba2_adapters(h: u64, f: u64, r: u64, attention: bool) -> u64 {
    h * r + r * 2 * f + u64::from(attention) * 3 * (2 * 2 * h * r)
}

#[test]
fn zamba2_defaults_count_54_mamba2_layers_one_shared_block_and_an_adapter_per_use() {
    // Zamba2Config's defaults: vocab 32000, hidden 2560, MLP 4 x 2560 = 10240, 54 layers of which
    // 9 hybrid (6, 12, ..., 42, 47, 51), 32 heads of 2 x 2560 / 32 = 160; Mamba-2 over 2 x 2560
    // = 5120 channels in 8 heads, 1 group, state 64, kernel 4; one shared block, tied across its
    // 9 uses, holding the 9 MLP adapters of rank 128; a linear per use; the head tied.
    let (v, h, f) = (32000, 2560, 10240);
    let mamba = zamba2_mamba_layer(h, (5120, 8, 1, 64, 4), false);
    let block = zamba2_block(h, f, (32, 32, 160), false);
    let expected = v * h + 54 * mamba + block + 9 * zamba2_adapters(h, f, 128, false) + 9 * h * h + h;
    assert_eq!(expected, 2_481_848_336, "the figure transformers 5.24 builds on the meta device");
    let config = json!({"model_type": "zamba2", "architectures": ["Zamba2ForCausalLM"]});
    assert_eq!(derived(config), expected);
}

#[test]
fn zamba2_cycles_two_shared_blocks_each_storing_the_adapters_of_the_uses_it_serves() {
    // Uses 0..4 at layers 1, 2, 4, 5: blocks 0, 1, 0, 1; tied, each block is stored once with
    // the adapters of its two uses (4 in all); attention adapters on.
    let (v, h, f, r) = (257, 40, 64, 3);
    let mamba = zamba2_mamba_layer(h, (40, 5, 1, 4, 4), false);
    let block = zamba2_block(h, f, (2, 2, 40), false);
    let expected = v * h + 7 * mamba + 2 * block + 4 * zamba2_adapters(h, f, r, true) + 4 * h * h + h;
    let config = json!({"model_type": "zamba2", "architectures": ["Zamba2ForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 7, "num_attention_heads": 2,
        "mamba_expand": 1, "n_mamba_heads": 5, "mamba_d_state": 4, "adapter_rank": r, "num_mem_blocks": 2,
        "use_shared_attention_adapter": true,
        "layers_block_type": ["mamba", "hybrid", "hybrid", "mamba", "hybrid", "hybrid", "mamba"]});
    assert_eq!(derived(config), expected);
    assert_eq!(expected, 124_481, "the figure transformers 5.24 builds on the meta device");
}

#[test]
fn zamba2_untied_keeps_each_use_its_own_block_with_every_adapter_slot_of_its_turn() {
    // tie_word_embeddings false: transformers ties nothing, so each of the 3 uses (blocks 0, 1,
    // 0) holds a whole block, block 0's copies with adapters for uses 0 and 2, block 1's for use
    // 1: 5 adapter sets; biases on (add_bias_linear); lm_head its own.
    let (v, h, f, r) = (300, 48, 80, 6);
    let mamba = zamba2_mamba_layer(h, (96, 6, 2, 8, 3), true);
    let block = zamba2_block(h, f, (4, 2, 24), true);
    let expected = v * h + 5 * mamba + 3 * (block + h * h) + 5 * zamba2_adapters(h, f, r, false) + h + h * v;
    let config = json!({"model_type": "zamba2", "architectures": ["Zamba2ForCausalLM"], "vocab_size": v,
        "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 5, "num_attention_heads": 4,
        "num_key_value_heads": 2, "n_mamba_heads": 6, "mamba_ngroups": 2, "mamba_d_state": 8,
        "mamba_d_conv": 3, "adapter_rank": r, "num_mem_blocks": 2, "add_bias_linear": true,
        "tie_word_embeddings": false, "layers_block_type": ["hybrid", "mamba", "hybrid", "hybrid", "mamba"]});
    assert_eq!(derived(config), expected);
    assert_eq!(expected, 229_736, "the figure transformers 5.24 builds on the meta device");
}

#[test]
fn zamba2_serves_a_kv_cache_per_use_and_a_mamba2_state_per_layer() {
    let config = json!({"model_type": "zamba2", "architectures": ["Zamba2ForCausalLM"], "vocab_size": 500,
        "hidden_size": 32, "num_hidden_layers": 6, "num_attention_heads": 4, "n_mamba_heads": 4,
        "mamba_d_state": 8, "layers_block_type": ["mamba", "hybrid", "mamba", "hybrid", "mamba", "hybrid"]});
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    // 3 uses x (K and V) x 4 heads x 2 x 32 / 4 = 16, bf16.
    assert_eq!(kv.bytes_per_token_bf16, 3 * 2 * 4 * 16 * 2);
    // 64 channels plus B and C (2 x 8): 80 convolved x kernel 4; 4 heads x 16 x state 8.
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (6, 80 * 4, 4 * 16 * 8));
}
