//! Decoders whose layers differ in their attention's shape (`src/config/spec_dec6.rs`): for each,
//! a small config with its count written out by hand from the modeling file's modules
//! (transformers 5.24), never read back from the program. Where a figure is given it is also what
//! transformers 5.24 counts for the same config on the meta device
//! (`tools/validate/families/dec6.py`, `tools/validate/params_report_dec6.md`). The serving KV
//! cache is derived by hand from each layer's own key/value heads, head widths and window.

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn derived(config: Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn mimo() -> Value {
    json!({"model_type": "mimo_v2_flash", "architectures": ["MiMoV2FlashForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 7,
        "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 24, "v_head_dim": 16,
        "moe_intermediate_size": 32, "n_routed_experts": 6, "num_experts_per_tok": 2,
        "sliding_window": 16})
}

#[test]
fn mimo_v2_flash_doubles_the_kv_heads_and_adds_sinks_on_sliding_layers_with_narrow_values() {
    // vocab 1000, hidden 64, dense width 96, 7 layers, 8 query heads of 24, 2 KV heads (4 on
    // sliding layers), values 16 wide; 6 experts of width 32; untied. MiMoV2FlashConfig's
    // pattern: full attention on layer 0 and where (i + 1) % 6 == 0 (layer 5), sliding elsewhere;
    // layer 0 dense, the rest sparse.
    let (v, h, f) = (1000u64, 64u64, 96u64);
    // q [8*24, 64], k [kv*24, 64], v [kv*16, 64], o [64, 8*16]; no biases.
    let full = h * 8 * 24 + h * 2 * 24 + h * 2 * 16 + 8 * 16 * h;
    let sliding = h * 8 * 24 + h * 4 * 24 + h * 4 * 16 + 8 * 16 * h + 8; // + sinks [8]
    assert_eq!((full, sliding), (25_600, 30_728));
    let norms = 2 * h;
    // Router [6, 64] (its correction bias a buffer) and the experts' gate, up and down.
    let sparse = 6 * h + 6 * 3 * h * 32;
    let layers = (full + norms + 3 * h * f)
        + 4 * (sliding + norms + sparse)
        + (full + norms + sparse)
        + (sliding + norms + sparse);
    assert_eq!(derived(mimo()), v * h + layers + h + v * h);
    assert_eq!(derived(mimo()), 575_720);
}

#[test]
fn mimo_v2_flash_serving_caches_each_layers_own_kv_heads_keys_and_narrow_values_up_to_its_window() {
    // Full layers (0 and 5): 2 KV heads x (24 key + 16 value dims) = 80 values per token, every
    // token. Sliding layers (1-4, 6): 4 KV heads x 40 = 160 values per token, at most 16 tokens.
    let plan = plan_text(&mimo().to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let groups: Vec<_> = kv.layout.groups.iter().map(|g| (g.layers, g.values_per_token, g.window)).collect();
    assert_eq!(groups, vec![(2, 80, None), (5, 160, Some(16))]);
    // bf16: 2 bytes a value; (2 x 80 + 5 x 160) x 2 = 1920 bytes per token while no window is full.
    assert_eq!(kv.bytes_per_token_bf16, (2 * 80 + 5 * 160) * 2);
    assert_eq!(kv.bytes_per_token_bf16, 1920);
    // At the context (max_position_embeddings 131072): the full layers every token, the sliding
    // ones their 16.
    assert_eq!(kv.context, 131_072);
    assert_eq!(kv.bytes_at_context_bf16, 2 * (2 * 80 * 131_072 + 5 * 160 * 16));
    assert_eq!(kv.bytes_at_context_bf16, 41_968_640);
}

#[test]
fn mimo_v2_flash_reads_sliding_window_size_as_the_window_less_the_query() {
    // The class sets sliding_window = sliding_window_size + 1 when the file gives it.
    let mut config = mimo();
    config["sliding_window_size"] = json!(31);
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.layout.groups[1].window, Some(32));
}

fn laguna(extra: Value) -> Value {
    let mut c = json!({"model_type": "laguna", "architectures": ["LagunaForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 4,
        "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 16,
        "moe_intermediate_size": 32, "shared_expert_intermediate_size": 40, "num_experts": 6,
        "num_experts_per_tok": 2, "sliding_window": 16});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

/// Laguna's attention with `n` query heads of 16 over 2 KV heads: q [n*16, 64], k and v
/// [2*16, 64], o [64, n*16], q/k norms [16] each, g_proj [gate, 64]; with `bias`, q, k, v and o
/// biases.
fn laguna_attention(n: u64, gate: u64, bias: bool) -> u64 {
    let (h, hd, kv) = (64, 16, 2);
    let biases = if bias { n * hd + 2 * kv * hd + h } else { 0 };
    h * n * hd + 2 * h * kv * hd + n * hd * h + 2 * hd + h * gate + biases
}

#[test]
fn laguna_sets_query_heads_per_layer_with_a_gate_per_head_or_per_channel() {
    // vocab 1000, hidden 64, dense width 96 (layer 0), 6 experts of 32 (router [6, 64] with its
    // e_score_correction_bias [6], a parameter) and a shared expert of 40 on layers 1-3; untied.
    let (v, h) = (1000u64, 64u64);
    let dense = 3 * h * 96 + 2 * h;
    let sparse = 6 * h + 6 + 6 * 3 * h * 32 + 3 * h * 40 + 2 * h;
    let ends = v * h + h + v * h;
    // Default: 8 heads everywhere, one gate per head (gating true).
    let per_head = laguna_attention(8, 8, false);
    assert_eq!(derived(laguna(json!({}))), ends + 4 * per_head + dense + 3 * sparse);
    assert_eq!(derived(laguna(json!({}))), 365_906);
    // Heads 8, 4, 6, 2 by layer, a gate per channel (heads x 16), attention biases.
    let config = laguna(json!({"num_attention_heads_per_layer": [8, 4, 6, 2],
        "gating": "per-element", "attention_bias": true}));
    let attn: u64 = [8u64, 4, 6, 2].iter().map(|n| laguna_attention(*n, n * 16, true)).sum();
    assert_eq!(derived(config), ends + attn + dense + 3 * sparse);
    assert_eq!(ends + attn + dense + 3 * sparse, 360_594);
}

#[test]
fn laguna_serving_caches_its_kv_heads_whatever_each_layers_query_heads() {
    // 4 layers x 2 x 2 KV heads x 16 = 256 values per token, all full attention by default.
    let config = laguna(json!({"num_attention_heads_per_layer": [8, 4, 6, 2]}));
    let plan = plan_text(&config.to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 4 * 2 * 2 * 16 * 2);
}

#[test]
fn laguna_refuses_a_head_list_that_does_not_match_the_layers_and_an_unknown_gating() {
    let short = laguna(json!({"num_attention_heads_per_layer": [8, 4]}));
    let err = plan_text(&short.to_string()).unwrap_err().to_string();
    assert!(err.contains("num_attention_heads_per_layer"), "{err}");
    let odd = laguna(json!({"gating": "per-token"}));
    let err = plan_text(&odd.to_string()).unwrap_err().to_string();
    assert!(err.contains("gating"), "{err}");
}

fn longcat() -> Value {
    json!({"model_type": "longcat_flash", "architectures": ["LongcatFlashForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "ffn_hidden_size": 96, "num_layers": 2,
        "num_attention_heads": 4, "q_lora_rank": 24, "kv_lora_rank": 16, "qk_nope_head_dim": 12,
        "qk_rope_head_dim": 8, "v_head_dim": 10, "head_dim": 8, "n_routed_experts": 6,
        "zero_expert_num": 3, "moe_topk": 2, "expert_ffn_hidden_size": 32})
}

#[test]
fn longcat_flash_runs_two_latent_attentions_and_two_mlps_per_layer_beside_experts_with_identities() {
    // Latent attention (no biases): q_a [24, 64] + its norm [24], q_b [4*(12+8), 24], kv_a
    // [16+8, 64] + its norm [16], kv_b [4*(12+10), 16], o [64, 4*10].
    let (v, h) = (1000u64, 64u64);
    let attn = h * 24 + 24 + 24 * 4 * 20 + h * 24 + 16 + 16 * 4 * 22 + 4 * 10 * h;
    assert_eq!(attn, 9_000);
    let mlp = 3 * h * 96;
    // The router scores 6 routed and 3 identity experts: classifier [9, 64]; gate_up_proj
    // [9, 2*32, 64] (a slice for every expert, identities included); down_proj [6, 64, 32].
    let moe = 9 * h + 9 * 2 * 32 * h + 6 * h * 32;
    // Per layer: two attentions, two MLPs, four norms, one mixture of experts.
    let layer = 2 * attn + 2 * mlp + 4 * h + moe;
    assert_eq!(derived(longcat()), v * h + 2 * layer + h + v * h);
    assert_eq!(derived(longcat()), 337_760);
    // A file's `num_hidden_layers` counts attentions: the class's setter halves it.
    let mut hidden = longcat();
    hidden["num_hidden_layers"] = json!(6);
    assert_eq!(derived(hidden), v * h + 3 * layer + h + v * h);
}

#[test]
fn longcat_flash_serving_caches_the_latent_for_both_attentions_of_every_layer() {
    // 2 layers x 2 attentions, each caching kv_lora_rank 16 + qk_rope_head_dim 8 = 24 values per
    // token: 96 values, 192 bytes in bf16.
    let plan = plan_text(&longcat().to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let groups: Vec<_> = kv.layout.groups.iter().map(|g| (g.layers, g.values_per_token, g.window)).collect();
    assert_eq!(groups, vec![(4, 24, None)]);
    assert_eq!(kv.bytes_per_token_bf16, 2 * 2 * 24 * 2);
}

#[test]
fn axk2_gates_its_queries_output_and_its_norms_on_deepseek_v32_layers() {
    // vocab 1000, hidden 64, dense width 96, 3 layers, 4 heads; latents q 24, kv 16, rope 8,
    // nope 12, v 10; indexer 2 heads of 8; gated_norm_rank 4; 6 experts of 32 with one shared
    // expert of 32; untied. AXK2Config's legacy default: layer 0 dense, layers 1 and 2 sparse.
    let (v, h) = (1000u64, 64u64);
    // q_a [24, 64] + its norm [24]; q_gate_proj [4*((12+8)+10), 2*24] (query and gate from the
    // latent before and after its norm); kv_a [16+8, 64] + its norm [16]; kv_b [4*(12+10), 16];
    // o [64, 4*10]; indexer wq_b [2*8, 24], wk [8, 64], k_norm LayerNorm [8] + [8],
    // weights_proj [2, 64].
    let attn = h * 24 + 24 + 4 * 30 * 48 + h * 24 + 16 + 4 * 22 * 16 + 40 * h + 16 * 24 + 8 * h + 16 + 2 * h;
    assert_eq!(attn, 13_880);
    // A gated norm: RMSNorm [64], fc1 [4, 64], fc2 [64, 4].
    let gated = h + 2 * h * 4;
    // Dense layer: gated input norm, plain post-attention norm, MLP.
    let dense = attn + gated + h + 3 * h * 96;
    // Sparse layer: both norms gated; router [6, 64] (its correction bias a buffer), 6 experts,
    // the shared expert.
    let sparse = attn + 2 * gated + 6 * h + 6 * 3 * h * 32 + 3 * h * 32;
    let config = json!({"model_type": "axk2", "architectures": ["AXK2ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 96, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 4, "kv_lora_rank": 16, "q_lora_rank": 24,
        "qk_rope_head_dim": 8, "qk_nope_head_dim": 12, "v_head_dim": 10,
        "moe_intermediate_size": 32, "n_routed_experts": 6, "num_experts_per_tok": 2,
        "index_n_heads": 2, "index_head_dim": 8, "gated_norm_rank": 4});
    assert_eq!(derived(config.clone()), v * h + dense + 2 * sparse + h + v * h);
    assert_eq!(derived(config), 277_864);
}

fn zaya() -> Value {
    json!({"model_type": "zaya", "architectures": ["ZayaForCausalLM"], "vocab_size": 1000,
        "hidden_size": 64, "num_hidden_layers": 3, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "moe_intermediate_size": 32, "num_experts": 5,
        "router_hidden_size": 24})
}

#[test]
fn zaya_counts_convolutional_attention_residual_scaling_and_its_router_mlp() {
    // vocab 1000, hidden 64, 3 layers, 4 query heads of 16 over 2 KV heads (queries 64 wide,
    // keys 32, convolved channels 96), kernels 2 and 2, 5 experts of 32, router width 24; tied,
    // no biases.
    let (v, h) = (1000u64, 64u64);
    // q [64, 64], k [32, 64], the two value halves [16, 64] each, the depthwise conv [96, 1, 2] +
    // bias [96], the grouped conv (one group per head: 96 / 6 = 16 channels each) [96, 16, 2] +
    // bias [96], the key scale per KV head [2], o [64, 64].
    let attn = 64 * h + 32 * h + 2 * 16 * h + (96 * 2 + 96) + (96 * 16 * 2 + 96) + 2 + 64 * h;
    assert_eq!(attn, 15_746);
    // Two RMSNorms [64]; two residual scalings of four [64] vectors each.
    let norms = 2 * h + 2 * 4 * h;
    // Router: down_proj [24, 64] + bias; its MLP's norm [24], fc1 and fc2 [24, 24] + biases,
    // out_proj [6, 24] (5 experts and no expert); from layer 1 on, router_states_scale [24].
    let router = (24 * h + 24) + 24 + 2 * (24 * 24 + 24) + 6 * 24;
    let experts = 5 * (2 * 32 * h + h * 32);
    let first = attn + norms + router + experts;
    let later = first + 24;
    // Embeddings, their learned scale and bias [64] each, the layers, the final norm; lm_head tied.
    assert_eq!(derived(zaya()), v * h + 2 * h + first + 2 * later + h);
    assert_eq!(derived(zaya()), 214_342);
}

#[test]
fn zaya_serving_keeps_keys_values_and_per_sequence_the_convolution_window_and_delayed_value() {
    // Per token, each of 3 layers caches 2 x 2 KV heads x 16 = 64 values: 192, 384 bytes bf16.
    // Per sequence, each layer keeps the last (2 - 1) + (2 - 1) = 2 positions of the 96 convolved
    // channels and the previous token's delayed value half (2 x 16 / 2 = 16 values).
    let plan = plan_text(&zaya().to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, 3 * 64 * 2);
    let state = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!((state.layers, state.conv_values, state.ssm_values), (3, 96 * 2, 16));
}

fn m3() -> Value {
    json!({"model_type": "minimax_m3_vl_text", "architectures": ["MiniMaxM3VLForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "intermediate_size": 32, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "num_local_experts": 6, "num_experts_per_tok": 2, "dense_intermediate_size": 96,
        "shared_intermediate_size": 40, "index_n_heads": 2, "index_head_dim": 8,
        "layer_types": ["full_attention", "minimax_m3_sparse", "minimax_m3_sparse"],
        "mlp_layer_types": ["dense", "sparse", "sparse"], "tie_word_embeddings": true})
}

#[test]
fn minimax_m3_text_adds_its_indexer_on_sparse_attention_layers_beside_routed_and_shared_experts() {
    // vocab 1000, hidden 64, 3 layers, 4 heads of 16 over 2 KV heads; q [64, 64], k and v
    // [32, 64], o [64, 64], per-head q/k norms [16] each; no biases.
    let (v, h) = (1000u64, 64u64);
    let attn = 64 * h + 2 * 32 * h + 64 * h + 2 * 16;
    // The indexer (layers 1 and 2): q_proj [2*8, 64], k_proj [8, 64], q_norm and k_norm [8].
    let indexer = 16 * h + 8 * h + 2 * 8;
    // Layer 0 dense: gate_up_proj [2*96, 64], down_proj [64, 96]. Layers 1, 2: router [6, 64]
    // (its correction bias a buffer), 6 stacked experts of 32, the shared expert of 40 (fused).
    let dense = 2 * 96 * h + 96 * h;
    let sparse = 6 * h + 6 * (2 * 32 * h + h * 32) + (2 * 40 * h + 40 * h);
    let norms = 2 * h;
    // Tied: the head adds nothing.
    let total = v * h + (attn + norms + dense) + 2 * (attn + indexer + norms + sparse) + h;
    assert_eq!(derived(m3()), total);
    assert_eq!(total, 212_800);
}

#[test]
fn minimax_m3_text_serving_caches_the_indexer_key_beside_keys_and_values_on_sparse_layers() {
    // Layer 0: 2 x 2 KV heads x 16 = 64 values per token; layers 1 and 2 add the indexer's key
    // (8): 72 each. 64 + 2 x 72 = 208 values, 416 bytes in bf16.
    let plan = plan_text(&m3().to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, (64 + 2 * 72) * 2);
}

#[test]
fn minimax_m3_text_reads_the_checkpoints_legacy_sparse_attention_and_moe_keys() {
    // sparse_attention_config's flags put the indexer (3 heads of 12 here) on layers 0 and 2;
    // moe_layer_freq makes layer 0 dense.
    let mut legacy = m3();
    let o = legacy.as_object_mut().unwrap();
    o.remove("layer_types");
    o.remove("mlp_layer_types");
    legacy["sparse_attention_config"] = json!({"sparse_attention_freq": [1, 0, 1],
        "sparse_num_index_heads": 3, "sparse_index_dim": 12});
    legacy["moe_layer_freq"] = json!([0, 1, 1]);
    let (v, h) = (1000u64, 64u64);
    let attn = 64 * h + 2 * 32 * h + 64 * h + 2 * 16;
    let indexer = 36 * h + 12 * h + 2 * 12;
    let dense = 3 * 96 * h;
    let sparse = 6 * h + 6 * 3 * 32 * h + 3 * 40 * h;
    let total = v * h
        + (attn + indexer + 2 * h + dense)
        + (attn + 2 * h + sparse)
        + (attn + indexer + 2 * h + sparse)
        + h;
    assert_eq!(derived(legacy), total);
}

fn dots3() -> Value {
    json!({"model_type": "dots3_note_text", "architectures": ["Dots3NoteForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 4, "kv_lora_rank": 16, "q_lora_rank": 24,
        "qk_rope_head_dim": 8, "qk_nope_head_dim": 12, "v_head_dim": 10,
        "moe_intermediate_size": 32, "n_routed_experts": 6, "num_experts_per_tok": 2,
        "index_n_heads": 2, "index_head_dim": 8, "shared_experts_intermediate_size": 20,
        "swa_num_attention_heads": 2, "swa_num_key_value_heads": 2, "swa_q_lora_rank": 12,
        "swa_kv_lora_rank": 20, "swa_head_dim": 16, "swa_qk_nope_head_dim": 10,
        "swa_v_head_dim": 6, "sliding_window": 8, "pad_token_id": 0, "head_dim": 20})
}

/// Latent attention with a query latent (no biases): q_a [r, h] + its norm [r], q_b
/// [heads*(nope+rope), r], kv_a [kv+rope, h] + its norm [kv], kv_b [heads*(nope+v), kv],
/// o [h, heads*v]; then dots.3's rotary-key norm [rope] and g_proj [heads, h].
fn dots3_attention(heads: u64, r: u64, kv: u64, nope: u64, rope: u64, v: u64) -> u64 {
    let h = 64;
    h * r
        + r
        + r * heads * (nope + rope)
        + h * (kv + rope)
        + kv
        + kv * heads * (nope + v)
        + heads * v * h
        + rope
        + heads * h
}

#[test]
fn dots3_note_text_gives_sliding_layers_their_own_latent_sizes_and_indexes_the_others() {
    // Dots3NoteTextConfig's pattern over 3 layers: indexed attention on 0 and 1, sliding on 2
    // with the swa_* sizes (2 heads, q latent 12, kv latent 20, nope 10, rope 16 - 10 = 6,
    // v 6). Layer 0 dense (width 96), layers 1 and 2 sparse: router [6, 64] (its correction
    // bias a buffer), 6 stacked experts of 32, a shared expert of 20 x 1. Untied.
    let (v, h) = (1000u64, 64u64);
    let global = dots3_attention(4, 24, 16, 12, 8, 10);
    assert_eq!(global, 9_264);
    // The indexer: wq_b [2*8, 24], wk [8, 64], k_norm LayerNorm [8] + [8], weights_proj [2, 64].
    let indexer = 16 * 24 + 8 * h + 16 + 2 * h;
    let sliding = dots3_attention(2, 12, 20, 10, 6, 6);
    assert_eq!(sliding, 4_390);
    let norms = 2 * h;
    let dense = 3 * h * 96;
    let sparse = 6 * h + 6 * 3 * 32 * h + 3 * h * 20;
    let layers =
        (global + indexer + norms + dense) + (global + indexer + norms + sparse) + (sliding + norms + sparse);
    assert_eq!(derived(dots3()), v * h + layers + h + v * h);
    assert_eq!(derived(dots3()), 254_054);
}

#[test]
fn dots3_note_text_serving_caches_each_layers_own_latent_and_the_indexers_key() {
    // Indexed layers 0 and 1: kv latent 16 + rotary key 8 + the indexer's key 8 = 32 values per
    // token, every token. Sliding layer 2: 20 + 6 = 26 values, at most 8 tokens.
    let plan = plan_text(&dots3().to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let groups: Vec<_> = kv.layout.groups.iter().map(|g| (g.layers, g.values_per_token, g.window)).collect();
    assert_eq!(groups, vec![(2, 32, None), (1, 26, Some(8))]);
    assert_eq!(kv.bytes_per_token_bf16, (2 * 32 + 26) * 2);
}

#[test]
fn dots3_note_text_refuses_a_per_layer_override_it_cannot_count() {
    let mut config = dots3();
    config["per_layer_config"] = json!({"1": {"intermediate_size": 48}});
    let err = plan_text(&config.to_string()).unwrap_err().to_string();
    assert!(err.contains("per_layer_config"), "{err}");
}

fn hy_v4() -> Value {
    json!({"model_type": "hy_v4", "architectures": ["HYV4ForCausalLM"], "vocab_size": 1000,
        "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 4, "kv_lora_rank": 16, "q_lora_rank": 24,
        "qk_rope_head_dim": 8, "qk_nope_head_dim": 12, "v_head_dim": 10,
        "moe_intermediate_size": 32, "n_routed_experts": 6, "num_experts_per_tok": 2,
        "index_n_heads": 2, "index_head_dim": 8, "hc_mult": 3, "pad_token_id": 0,
        "indexer_types": ["shared", "full", "full"], "mlp_layer_types": ["sparse", "dense", "sparse"]})
}

#[test]
fn hy_v4_adds_hyper_connections_a_gate_and_sinks_to_glm5_layers() {
    // GLM-5's latent attention (q latent 24, kv latent 16, rope 8, nope 12, v 10, 4 heads): 9000,
    // as written out for LongCat-Flash above, plus gate_proj [4*10, 64] and sinks [4].
    let (v, h, m) = (1000u64, 64u64, 3u64);
    let attn = 9_000 + 4 * 10 * h + 4;
    // The indexer on layers 1 and 2 (`full`): wq_b [16, 24], wk [8, 64], k_norm [8] + [8],
    // weights_proj [2, 64].
    let indexer = 16 * 24 + 8 * h + 16 + 2 * h;
    // Two hyper-connections per layer: fn [2m, m*64], base [2m], scale [2].
    let hc = 2 * (2 * m * m * h + 2 * m + 2);
    let norms = 2 * h;
    let dense = 3 * h * 96;
    // Router [6, 64] (correction bias a buffer), 6 experts of 32, one shared expert of 32.
    let sparse = 6 * h + 6 * 3 * h * 32 + 3 * h * 32;
    let layers = (attn + hc + norms + sparse)
        + (attn + indexer + hc + norms + dense)
        + (attn + indexer + hc + norms + sparse);
    // hc_head: hc_fn [m, m*64], hc_base [m], hc_scale [1]; then the final norm; untied head.
    let head = m * m * h + m + 1;
    assert_eq!(derived(hy_v4()), v * h + layers + head + h + v * h);
    assert_eq!(derived(hy_v4()), 277_976);
}

#[test]
fn hy_v4_serving_caches_the_latent_and_on_indexed_layers_the_indexers_key() {
    // Layer 0 (shared top-k): 16 + 8 = 24 values per token; layers 1, 2: 24 + the indexer's key 8.
    let plan = plan_text(&hy_v4().to_string()).unwrap();
    let kv = plan.serving.as_ref().unwrap().kv.as_ref().unwrap();
    assert_eq!(kv.bytes_per_token_bf16, (24 + 2 * 32) * 2);
}

#[test]
fn minimax_m3_texts_published_config_with_its_legacy_keys_counts_as_transformers_builds_it() {
    // MiniMax-M3's published config (hub/, MiniMaxAI/MiniMax-M3) writes its text model with the
    // legacy `sparse_attention_config` and `moe_layer_freq`. transformers 5.24 builds
    // MiniMaxM3VLForCausalLM from that text_config (on the meta device) with 426,174,565,632
    // parameters.
    let path = common::snapshot_config_path("MiniMaxAI--MiniMax-M3");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut text = file["text_config"].clone();
    text["model_type"] = json!("minimax_m3_vl_text");
    text["architectures"] = json!(["MiniMaxM3VLForCausalLM"]);
    assert_eq!(derived(text), 426_174_565_632);
}
