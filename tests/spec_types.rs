//! Model types described as tables (`src/config/spec_dense.rs`, `spec_moe.rs`): for each, a
//! config shaped like a published checkpoint's, with its count written out by hand from the
//! modeling file's modules (transformers 5.x), never read back from the program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn active(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().active
}

/// q (h x heads*hd), k and v (h x kv*hd each), o (heads*hd x h); `qkv_b` adds q/k/v biases,
/// `o_b` o's.
fn attention(h: u64, heads: u64, kv: u64, hd: u64, qkv_b: bool, o_b: bool) -> u64 {
    let (q, k) = (heads * hd, kv * hd);
    h * q + 2 * h * k + q * h + if qkv_b { q + 2 * k } else { 0 } + if o_b { h } else { 0 }
}

/// A gated MLP without biases: gate, up (h x f each), down (f x h).
fn gated(h: u64, f: u64) -> u64 {
    3 * h * f
}

#[test]
fn gpt_oss_20b_counts_stacked_experts_with_biases_a_biased_router_and_sinks() {
    // openai/gpt-oss-20b: vocab 201088, hidden 2880, 24 layers, 64 heads of 64 over 8 KV heads,
    // biases on q/k/v/o, 32 experts of width 2880 (top 4), untied.
    let (v, h, f, e, l) = (201088u64, 2880u64, 2880u64, 32u64, 24u64);
    let router = h * e + e;
    // gate_up_proj [e, h, 2f] + its bias [e, 2f]; down_proj [e, f, h] + its bias [e, h].
    let experts = e * (h * 2 * f + 2 * f + f * h + h);
    let layer = attention(h, 64, 8, 64, true, true) + 64 + router + experts + 2 * h;
    let config = json!({"model_type": "gpt_oss", "architectures": ["GptOssForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64,
        "num_local_experts": e, "num_experts_per_tok": 4, "sliding_window": 128,
        "tie_word_embeddings": false});
    let total = v * h + l * layer + h + v * h;
    // OpenAI's model card: 21B parameters, 3.6B active.
    assert_eq!(derived(config.clone()), total);
    assert!((20.8e9..21.0e9).contains(&(total as f64)), "{total}");
    let active_layer = layer - experts + 4 * (h * 2 * f + 2 * f + f * h + h);
    assert_eq!(active(config), v * h + l * active_layer + h + v * h);
}

#[test]
fn glm_4_5_air_has_one_dense_layer_then_routed_and_shared_experts() {
    // zai-org/GLM-4.5-Air: vocab 151552, hidden 4096, 46 layers, 96 heads of 128 over 8 KV heads,
    // q/k/v biases (o without), dense ffn 10944 in layer 0, then 128 experts of 1408 (top 8)
    // and one shared expert of 1408; untied. The checkpoint's MTP layer is not built.
    let (v, h, l) = (151552u64, 4096u64, 46u64);
    let attn = attention(h, 96, 8, 128, true, false);
    let dense = attn + gated(h, 10944) + 2 * h;
    let sparse = attn + h * 128 + 128 * gated(h, 1408) + gated(h, 1408) + 2 * h;
    let config = json!({"model_type": "glm4_moe", "architectures": ["Glm4MoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 10944, "moe_intermediate_size": 1408,
        "num_hidden_layers": l, "num_attention_heads": 96, "num_key_value_heads": 8, "head_dim": 128,
        "n_routed_experts": 128, "n_shared_experts": 1, "num_experts_per_tok": 8,
        "first_k_dense_replace": 1, "attention_bias": true, "use_qk_norm": false,
        "partial_rotary_factor": 0.5, "tie_word_embeddings": false});
    assert_eq!(derived(config), v * h + dense + (l - 1) * sparse + h + v * h);
}

#[test]
fn phi_3_5_moe_uses_layer_norms_with_bias_and_a_biased_lm_head() {
    // microsoft/Phi-3.5-MoE-instruct: vocab 32064, hidden 4096, 32 layers, 32 heads over 8 KV
    // heads, attention biases, 16 experts of 6400 (top 2), LayerNorm (weight and bias) twice a
    // layer and once at the end, lm_head with bias. Microsoft states 41.9B parameters.
    let (v, h, l) = (32064u64, 4096u64, 32u64);
    let layer = attention(h, 32, 8, 128, true, true) + h * 16 + 16 * gated(h, 6400) + 2 * 2 * h;
    let config = json!({"model_type": "phimoe", "architectures": ["PhimoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 6400, "num_hidden_layers": l,
        "num_attention_heads": 32, "num_key_value_heads": 8, "num_local_experts": 16,
        "num_experts_per_tok": 2, "attention_bias": true, "lm_head_bias": true,
        "tie_word_embeddings": false});
    let total = v * h + l * layer + 2 * h + v * h + v;
    assert_eq!(derived(config), total);
    assert!((41.8e9..42.0e9).contains(&(total as f64)), "{total}");
}

#[test]
fn olmoe_sizes_its_query_norm_by_the_hidden_state_and_its_key_norm_by_the_key_heads() {
    // allenai/OLMoE-1B-7B-0924: vocab 50304, hidden 2048, 16 layers, 16 heads (MHA), 64 experts
    // of 1024 (top 8), q_norm over 2048 and k_norm over 16 x 128; untied. AI2: 6.9B, 1.3B active.
    let (v, h, l) = (50304u64, 2048u64, 16u64);
    let layer = attention(h, 16, 16, 128, false, false) + 2 * h + h * 64 + 64 * gated(h, 1024) + 2 * h;
    let config = json!({"model_type": "olmoe", "architectures": ["OlmoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 1024, "num_hidden_layers": l,
        "num_attention_heads": 16, "num_key_value_heads": 16, "num_experts": 64,
        "num_experts_per_tok": 8, "tie_word_embeddings": false});
    let total = v * h + l * layer + h + v * h;
    assert_eq!(derived(config), total);
    assert!((6.9e9..7.0e9).contains(&(total as f64)), "{total}");
}

#[test]
fn llama_4_maverick_text_interleaves_dense_and_expert_layers() {
    // Llama-4-Maverick's text model: vocab 202048, hidden 5120, 48 layers, 40 heads of 128 over
    // 8 KV heads; every second layer (1, 3, ...) routes through 128 stacked experts of 8192
    // (top 1) plus a shared expert of 8192, the others are dense MLPs of 16384; untied.
    let (v, h, l) = (202048u64, 5120u64, 48u64);
    let attn = attention(h, 40, 8, 128, false, false);
    let dense = attn + gated(h, 16384) + 2 * h;
    let sparse = attn + h * 128 + 128 * gated(h, 8192) + gated(h, 8192) + 2 * h;
    let config = json!({"model_type": "llama4_text", "architectures": ["Llama4ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
        "num_hidden_layers": l, "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128,
        "num_local_experts": 128, "num_experts_per_tok": 1, "interleave_moe_layer_step": 2,
        "tie_word_embeddings": false});
    assert_eq!(derived(config), v * h + (l / 2) * (dense + sparse) + h + v * h);
}

#[test]
fn ernie_4_5_21b_a3b_has_a_learned_correction_bias_and_two_shared_experts() {
    // baidu/ERNIE-4.5-21B-A3B-PT: vocab 103424, hidden 2560, 28 layers, 20 heads of 128 over 4 KV
    // heads, layer 0 dense (12288), then 64 experts of 1536 (top 6) and shared experts of
    // 2 x 1536; the router's moe_statics.e_score_correction_bias is a [1, 64] parameter; tied.
    let (v, h, l) = (103424u64, 2560u64, 28u64);
    let attn = attention(h, 20, 4, 128, false, false);
    let dense = attn + gated(h, 12288) + 2 * h;
    let sparse = attn + h * 64 + 64 + 64 * gated(h, 1536) + gated(h, 3072) + 2 * h;
    let config = json!({"model_type": "ernie4_5_moe", "architectures": ["Ernie4_5_MoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 12288, "moe_intermediate_size": 1536,
        "num_hidden_layers": l, "num_attention_heads": 20, "num_key_value_heads": 4, "head_dim": 128,
        "moe_num_experts": 64, "moe_k": 6, "moe_num_shared_experts": 2, "moe_layer_start_index": 1,
        "moe_layer_end_index": 27, "moe_layer_interval": 1, "use_bias": false,
        "tie_word_embeddings": true});
    assert_eq!(derived(config), v * h + dense + (l - 1) * sparse + h);
}

#[test]
fn command_r_plus_runs_attention_and_mlp_from_one_bias_free_layer_norm_with_qk_norms() {
    // CohereForAI/c4ai-command-r-plus: vocab 256000, hidden 12288, 64 layers, 96 heads of 128
    // over 8 KV heads, ffn 33792, use_qk_norm (a [96, 128] and an [8, 128] weight), one
    // weight-only LayerNorm per layer, tied.
    let (v, h, l) = (256000u64, 12288u64, 64u64);
    let layer = h + attention(h, 96, 8, 128, false, false) + 96 * 128 + 8 * 128 + gated(h, 33792);
    let config = json!({"model_type": "cohere", "architectures": ["CohereForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 33792, "num_hidden_layers": l,
        "num_attention_heads": 96, "num_key_value_heads": 8, "use_qk_norm": true,
        "tie_word_embeddings": true, "logit_scale": 0.8333333333333334});
    let total = v * h + l * layer + h;
    assert_eq!(derived(config), total);
    // Cohere's model card: 104B parameters.
    assert!((103.5e9..104.5e9).contains(&(total as f64)), "{total}");
}

#[test]
fn command_r7b_has_cohere_layers_and_a_kv_cache_with_three_windowed_layers_of_four() {
    // CohereForAI/c4ai-command-r7b-12-2024: vocab 256000, hidden 4096, 32 layers, 32 heads of
    // 128 over 8 KV heads, ffn 14336, tied, window 4096 on layers 1-3 of every 4.
    let (v, h, l) = (256000u64, 4096u64, 32u64);
    let layer = h + attention(h, 32, 8, 128, false, false) + gated(h, 14336);
    let config = json!({"model_type": "cohere2", "architectures": ["Cohere2ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 14336, "num_hidden_layers": l,
        "num_attention_heads": 32, "num_key_value_heads": 8, "sliding_window": 4096,
        "sliding_window_pattern": 4, "tie_word_embeddings": true});
    assert_eq!(derived(config.clone()), v * h + l * layer + h);
    let arch = resolve(config);
    let kv = arch.kv_layout().unwrap();
    let windowed: u64 = kv.groups.iter().filter(|g| g.window == Some(4096)).map(|g| g.layers).sum();
    let full: u64 = kv.groups.iter().filter(|g| g.window.is_none()).map(|g| g.layers).sum();
    assert_eq!((windowed, full), (24, 8));
}

fn resolve(config: serde_json::Value) -> Box<dyn modelatlas::graph::Architecture> {
    let (common, value) = modelatlas::config::parse(&config.to_string()).unwrap();
    (modelatlas::family::info(&common.model_type).unwrap().resolve.unwrap())(&value, &common).unwrap()
}

#[test]
fn glm_4_9b_fuses_gate_and_up_and_glm4_0414_adds_two_norms_a_layer() {
    // THUDM/glm-4-9b-chat-hf: vocab 151552, hidden 4096, 40 layers, 32 heads of 128 over 2 KV
    // heads, q/k/v biases, gate_up_proj (4096 -> 2 x 13696) and down_proj; untied.
    let (v, h, l) = (151552u64, 4096u64, 40u64);
    let layer = attention(h, 32, 2, 128, true, false) + gated(h, 13696) + 2 * h;
    let sizes = json!({"vocab_size": v, "hidden_size": h, "intermediate_size": 13696,
        "num_hidden_layers": l, "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128,
        "attention_bias": true, "tie_word_embeddings": false});
    let with = |t: &str, class: &str| {
        let mut c = sizes.clone();
        c["model_type"] = json!(t);
        c["architectures"] = json!([class]);
        c
    };
    assert_eq!(derived(with("glm", "GlmForCausalLM")), v * h + l * layer + h + v * h);
    // post_self_attn_layernorm and post_mlp_layernorm, h each.
    assert_eq!(derived(with("glm4", "Glm4ForCausalLM")), v * h + l * (layer + 2 * h) + h + v * h);
}

#[test]
fn exaone_4_32b_has_post_norms_and_per_head_qk_norms() {
    // LGAI-EXAONE/EXAONE-4.0-32B: vocab 102400, hidden 5120, 64 layers, 40 heads of 128 over 8
    // KV heads, ffn 27392, RMSNorm after attention and after the MLP, q_norm and k_norm of 128;
    // untied.
    let (v, h, l) = (102400u64, 5120u64, 64u64);
    let layer = attention(h, 40, 8, 128, false, false) + 2 * 128 + gated(h, 27392) + 2 * h;
    let config = json!({"model_type": "exaone4", "architectures": ["Exaone4ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 27392, "num_hidden_layers": l,
        "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128, "sliding_window": 4096,
        "sliding_window_pattern": "LLLG", "tie_word_embeddings": false});
    assert_eq!(derived(config), v * h + l * layer + h + v * h);
}

#[test]
fn ernie_4_5_0_3b_is_llama_with_wide_heads_and_tied_embeddings() {
    // baidu/ERNIE-4.5-0.3B-PT: vocab 103424, hidden 1024, 18 layers, 16 heads of 128 over 2 KV
    // heads, ffn 3072, no biases, tied.
    let (v, h, l) = (103424u64, 1024u64, 18u64);
    let layer = attention(h, 16, 2, 128, false, false) + gated(h, 3072) + 2 * h;
    let config = json!({"model_type": "ernie4_5", "architectures": ["Ernie4_5ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 3072, "num_hidden_layers": l,
        "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 128, "use_bias": false,
        "tie_word_embeddings": true});
    assert_eq!(derived(config), v * h + l * layer + h);
}

#[test]
fn arcee_afm_has_an_ungated_relu_squared_mlp() {
    // arcee-ai/AFM-4.5B-shaped: vocab 128004, hidden 2560, 36 layers, 20 heads of 128 over 4 KV
    // heads, up_proj and down_proj of 18432; untied.
    let (v, h, l, f) = (128004u64, 2560u64, 36u64, 18432u64);
    let layer = attention(h, 20, 4, 128, false, false) + 2 * h * f + 2 * h;
    let config = json!({"model_type": "arcee", "architectures": ["ArceeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 20, "num_key_value_heads": 4, "head_dim": 128,
        "hidden_act": "relu2", "tie_word_embeddings": false});
    assert_eq!(derived(config), v * h + l * layer + h + v * h);
}

#[test]
fn gpt_oss_caches_keys_for_its_sliding_layers_only_within_the_window() {
    // Alternating sliding (128) and full layers, 8 KV heads of 64: at 8192 tokens the 12
    // sliding layers keep 128 tokens, the 12 full ones all 8192.
    let config = json!({"model_type": "gpt_oss", "num_hidden_layers": 24});
    let kv = resolve(config).kv_layout().unwrap();
    assert_eq!(kv.values(8192), 12 * 2 * 8 * 64 * 128 + 12 * 2 * 8 * 64 * 8192);
}

#[test]
fn starcoder_shares_one_key_value_head_in_a_fused_c_attn_with_learned_positions() {
    // bigcode/starcoder-shaped: vocab 49152, n_embd 6144, 40 layers, 48 heads of 128 with
    // multi_query (one shared K and one V head), n_inner 24576, 8192 learned positions; every
    // linear and LayerNorm has a bias; lm_head tied to wte. BigCode: 15.5B parameters.
    let (v, e, l, f, p) = (49152u64, 6144u64, 40u64, 24576u64, 8192u64);
    let c_attn = e * (e + 2 * 128) + (e + 2 * 128);
    let layer = 2 * 2 * e + c_attn + (e * e + e) + (e * f + f) + (f * e + e);
    let config = json!({"model_type": "gpt_bigcode", "architectures": ["GPTBigCodeForCausalLM"],
        "vocab_size": v, "n_embd": e, "n_layer": l, "n_head": 48, "n_inner": f, "n_positions": p,
        "multi_query": true, "tie_word_embeddings": true});
    let total = v * e + p * e + l * layer + 2 * e;
    assert_eq!(derived(config.clone()), total);
    assert!((15.4e9..15.6e9).contains(&(total as f64)), "{total}");
    // The cache holds one key and one value head per layer.
    assert_eq!(resolve(config).kv_layout().unwrap().values_per_token(), l * 2 * 128);
}

#[test]
fn minimax_m2_has_256_experts_and_norms_over_all_query_and_key_heads() {
    // MiniMaxAI/MiniMax-M2: vocab 200064, hidden 3072, 62 layers, 48 heads of 128 over 8 KV
    // heads, q_norm over 48 x 128 and k_norm over 8 x 128, 256 experts of 1536 (top 8); untied.
    // MiniMax: 230B parameters in total, 10B active.
    let (v, h, l) = (200064u64, 3072u64, 62u64);
    let norms = 48 * 128 + 8 * 128;
    let layer = attention(h, 48, 8, 128, false, false) + norms + h * 256 + 256 * gated(h, 1536) + 2 * h;
    let config = json!({"model_type": "minimax_m2", "architectures": ["MiniMaxM2ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 1536, "num_hidden_layers": l,
        "num_attention_heads": 48, "num_key_value_heads": 8, "head_dim": 128,
        "num_local_experts": 256, "num_experts_per_tok": 8, "tie_word_embeddings": false});
    let total = v * h + l * layer + h + v * h;
    assert_eq!(derived(config.clone()), total);
    assert!((228e9..231e9).contains(&(total as f64)), "{total}");
    let active_total = total - l * 248 * gated(h, 1536);
    assert_eq!(active(config), active_total);
    // MiniMax's 10B active leaves out the embedding and the LM head.
    let active_body = active_total - 2 * v * h;
    assert!((9.5e9..10.5e9).contains(&(active_body as f64)), "{active_body}");
}

#[test]
fn granite_3_moe_stacks_its_experts_behind_a_router() {
    // ibm-granite/granite-3.0-3b-a800m-shaped: vocab 49155, hidden 1536, 32 layers, 24 heads of
    // 64 over 8 KV heads, 40 experts of 512 (top 8), tied. IBM: 3.3B total, 800M active.
    let (v, h, l) = (49155u64, 1536u64, 32u64);
    let layer = attention(h, 24, 8, 64, false, false) + h * 40 + 40 * gated(h, 512) + 2 * h;
    let config = json!({"model_type": "granitemoe", "architectures": ["GraniteMoeForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 512, "num_hidden_layers": l,
        "num_attention_heads": 24, "num_key_value_heads": 8, "num_local_experts": 40,
        "num_experts_per_tok": 8, "tie_word_embeddings": true, "embedding_multiplier": 12.0});
    let total = v * h + l * layer + h;
    assert_eq!(derived(config), total);
    assert!((3.2e9..3.4e9).contains(&(total as f64)), "{total}");
}

#[test]
fn llama_4_caches_its_chunked_layers_within_the_chunk_and_every_fourth_layer_in_full() {
    // Llama4TextConfig(): 48 layers, 8 KV heads of 128, chunked attention over 8192 tokens on
    // the rotary layers (three of four), full attention on every fourth (no rotary positions).
    let kv = resolve(json!({"model_type": "llama4_text"})).kv_layout().unwrap();
    let per_layer = 2 * 8 * 128;
    assert_eq!(kv.values(100_000), 36 * per_layer * 8192 + 12 * per_layer * 100_000);
}

#[test]
fn a_remote_code_class_is_planned_as_transformers_own_class_with_the_same_head() {
    // baidu/ERNIE-4.5-0.3B-PT names its remote-code class `Ernie4_5_ForCausalLM` (with an
    // `auto_map`); transformers without trust_remote_code loads `Ernie4_5ForCausalLM`.
    let config = json!({
        "model_type": "ernie4_5", "architectures": ["Ernie4_5_ForCausalLM"],
        "auto_map": {"AutoModelForCausalLM": "modeling_ernie4_5.Ernie4_5_ForCausalLM"},
        "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 18,
        "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 128,
        "vocab_size": 103424, "use_bias": false, "tie_word_embeddings": true,
    });
    let page = plan_text(&config.to_string()).unwrap();
    assert_eq!(page.architecture.as_deref(), Some("Ernie4_5ForCausalLM"));
    // Per layer: q 1024 x 2048, k and v 1024 x 256 each, o 2048 x 1024, the gated MLP 3 x 1024 x
    // 3072, two RMSNorms of 1024; then the tied embedding 103,424 x 1024 and the final norm.
    let layer = 1024 * 2048 + 2 * 1024 * 256 + 2048 * 1024 + 3 * 1024 * 3072 + 2 * 1024;
    let total = 18 * layer + 103_424 * 1024 + 1024;
    // The published count of the checkpoint (tests/fixtures/reference/checkpoints.tsv).
    assert_eq!(total, 360_748_032);
    assert_eq!(page.params.as_ref().unwrap().derived, total);
    // Without remote code, an unknown class is still refused by name.
    let mut plain = config.clone();
    plain.as_object_mut().unwrap().remove("auto_map");
    let err = plan_text(&plain.to_string()).unwrap_err().to_string();
    assert!(err.contains("architectures[0]") && err.contains("Ernie4_5_ForCausalLM"), "{err}");
}

/// The last types added by following the README ("Adding a model type", the `Spec` steps):
/// GraniteMoeShared, whose `shared_mlp` sits beside the experts with gate and up fused in
/// `input_linear` ([2 x shared, hidden]) and `output_linear` ([hidden, shared]).
#[test]
fn granitemoeshared_added_by_following_the_readme_counts_its_shared_mlp_beside_the_experts() {
    // vocab 1000, hidden 64, expert width 32, 2 layers, 4 heads of 16 over 2 KV heads, 4 stacked
    // experts (gate_up [4, 64, 64], down [4, 64, 32]), router [4, 64], shared width 48, untied.
    let (v, h, f, s, e, l) = (1000u64, 64u64, 32u64, 48u64, 4u64, 2u64);
    let attention = h * h + 2 * h * (2 * 16) + h * h;
    let experts = e * (2 * f) * h + e * h * f;
    let shared = 2 * s * h + h * s;
    let layer = attention + 2 * h + e * h + experts + shared;
    let config = json!({"model_type": "granitemoeshared", "architectures": ["GraniteMoeSharedForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 2, "num_local_experts": e,
        "num_experts_per_tok": 2, "shared_intermediate_size": s, "tie_word_embeddings": false});
    // 220,992, which transformers 5.24 also counts on the meta device.
    assert_eq!(derived(config.clone()), v * h + l * layer + h + v * h);
    assert_eq!(derived(config.clone()), 220_992);
    // shared_intermediate_size 0 (the class's default) builds no shared MLP.
    let mut none = config.clone();
    none["shared_intermediate_size"] = json!(0);
    assert_eq!(derived(none), v * h + l * (layer - shared) + h + v * h);
    // GraniteMoeSWA: the same layers and a learned sink per head.
    let mut swa = config;
    swa["model_type"] = json!("granitemoe_swa");
    swa["architectures"] = json!(["GraniteMoeSWAForCausalLM"]);
    assert_eq!(derived(swa), v * h + l * (layer + 4) + h + v * h);
}
