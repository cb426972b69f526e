//! Dense decoder types described in `src/config/spec_llama_like.rs`: for each, a config shaped
//! like a published checkpoint's (or a small one that exercises a switch), with its count written
//! out by hand from the modeling file's modules (transformers 5.24), never read back from the
//! program.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn resolve(config: serde_json::Value) -> Box<dyn modelatlas::graph::Architecture> {
    let (common, value) = modelatlas::config::parse(&config.to_string()).unwrap();
    (modelatlas::family::info(&common.model_type).unwrap().resolve.unwrap())(&value, &common).unwrap()
}

/// q (h x heads*hd), k and v (h x kv*hd each), o (heads*hd x h); `b` puts biases on all four.
fn attention(h: u64, heads: u64, kv: u64, hd: u64, b: bool) -> u64 {
    let (q, k) = (heads * hd, kv * hd);
    h * q + 2 * h * k + q * h + if b { q + 2 * k + h } else { 0 }
}

#[test]
fn olmo_7b_has_llama_layers_whose_layer_norms_hold_no_parameters() {
    // allenai/OLMo-7B-0424-hf: vocab 50304, hidden 4096, ffn 11008, 32 layers, 32 heads, untied;
    // OlmoLayerNorm has neither weight nor bias, so only the linears and embeddings count.
    let (v, h, f, l) = (50304u64, 4096u64, 11008u64, 32u64);
    let config = json!({"model_type": "olmo", "architectures": ["OlmoForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 32, "tie_word_embeddings": false});
    let total = v * h + l * (attention(h, 32, 32, 128, false) + 3 * h * f) + v * h;
    assert_eq!(derived(config), total);
    // AI2 states 6.9B parameters for OLMo 7B.
    assert!((6.85e9..6.95e9).contains(&(total as f64)), "{total}");
}

#[test]
fn stablelm_2_1_6b_has_layer_norms_with_bias_and_qkv_biases_and_drops_a_norm_when_parallel() {
    // stabilityai/stablelm-2-1_6b: vocab 100352, hidden 2048, ffn 5632, 24 layers, 32 heads,
    // use_qkv_bias, two LayerNorms (weight and bias) a layer and a final one, untied.
    let (v, h, f, l) = (100352u64, 2048u64, 5632u64, 24u64);
    let qkv_bias = 3 * h;
    let layer = attention(h, 32, 32, 64, false) + qkv_bias + 3 * h * f + 2 * 2 * h;
    let config = json!({"model_type": "stablelm", "architectures": ["StableLmForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 32, "num_key_value_heads": 32, "use_qkv_bias": true,
        "tie_word_embeddings": false});
    let total = v * h + l * layer + 2 * h + v * h;
    assert_eq!(derived(config.clone()), total);
    // Stability AI: 1.6B parameters.
    assert!((1.6e9..1.7e9).contains(&(total as f64)), "{total}");
    // With the parallel residual, attention and the MLP share input_layernorm; per-head q/k
    // LayerNorms (weight only) add heads x head_dim and KV heads x head_dim.
    let mut parallel = config;
    parallel["use_parallel_residual"] = json!(true);
    parallel["qk_layernorm"] = json!(true);
    assert_eq!(derived(parallel), total - l * 2 * h + l * (32 * 64 + 32 * 64));
}

#[test]
fn nemotron_and_jais2_use_biased_layer_norms_and_an_ungated_relu2_mlp() {
    // nvidia/Minitron-4B-Base: vocab 256000, hidden 3072, ffn 9216, 32 layers, 24 heads of 128
    // over 8 KV heads, no biases, LayerNorm1P (weight and bias) twice a layer and once at the
    // end, up_proj and down_proj only, untied.
    let (v, h, f, l) = (256000u64, 3072u64, 9216u64, 32u64);
    let layer = attention(h, 24, 8, 128, false) + 2 * h * f + 2 * 2 * h;
    let config = json!({"model_type": "nemotron", "architectures": ["NemotronForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 24, "num_key_value_heads": 8, "head_dim": 128,
        "tie_word_embeddings": false});
    assert_eq!(derived(config), v * h + l * layer + 2 * h + v * h);
    // Jais 2's defaults: the same blocks with biases on every projection (attention_bias and
    // mlp_bias true): 3328 wide, 26 heads of 128, ffn 26624, 32 layers, vocab 150272.
    let (v, h, f) = (150272u64, 3328u64, 26624u64);
    let layer = attention(h, 26, 26, 128, true) + 2 * h * f + f + h + 2 * 2 * h;
    let jais = json!({"model_type": "jais2", "architectures": ["Jais2ForCausalLM"]});
    assert_eq!(derived(jais), v * h + 32 * layer + 2 * h + v * h);
}

#[test]
fn bitnet_2b_adds_an_rms_norm_before_the_output_and_the_down_projection() {
    // microsoft/bitnet-b1.58-2B-4T: vocab 128256, hidden 2560, ffn 6912, 30 layers, 20 heads of
    // 128 over 5 KV heads, tied; attn_sub_norm (hidden) and ffn_sub_norm (ffn) in each layer.
    let (v, h, f, l) = (128256u64, 2560u64, 6912u64, 30u64);
    let layer = attention(h, 20, 5, 128, false) + 3 * h * f + 2 * h + h + f;
    let config = json!({"model_type": "bitnet", "architectures": ["BitNetForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 20, "num_key_value_heads": 5, "tie_word_embeddings": true});
    let total = v * h + l * layer + h;
    assert_eq!(derived(config), total);
    // Microsoft: about 2.4B parameters (the model card's "2B" with its embeddings).
    assert!((2.35e9..2.45e9).contains(&(total as f64)), "{total}");
}

#[test]
fn apertus_8b_counts_two_xielu_scalars_per_layer_and_per_head_qk_norms() {
    // swiss-ai/Apertus-8B-2509: vocab 131072, hidden 4096, ffn 21504, 32 layers, 32 heads of 128
    // over 8 KV heads, untied; up_proj and down_proj only, xIELU's alpha_p and alpha_n (one each),
    // q_norm and k_norm of 128, attention_layernorm and feedforward_layernorm.
    let (v, h, f, l) = (131072u64, 4096u64, 21504u64, 32u64);
    let layer = attention(h, 32, 8, 128, false) + 2 * h * f + 2 + 2 * 128 + 2 * h;
    let config = json!({"model_type": "apertus", "architectures": ["ApertusForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 32, "num_key_value_heads": 8, "hidden_act": "xielu",
        "tie_word_embeddings": false});
    let total = v * h + l * layer + h + v * h;
    assert_eq!(derived(config.clone()), total);
    // Swiss AI: 8B parameters.
    assert!((8.0e9..8.1e9).contains(&(total as f64)), "{total}");
    // Another activation has no parameters.
    let mut silu = config;
    silu["hidden_act"] = json!("silu");
    assert_eq!(derived(silu), total - l * 2);
}

#[test]
fn helium_projects_attention_output_from_hidden_even_when_heads_are_narrower() {
    // 4 heads of 16 (64 wide) in a 96-wide model: q, k, v map 96 -> 64, HeliumAttention's o_proj
    // is Linear(96, 96); gated MLP 96 -> 160, two RMSNorms a layer, one final, untied.
    let (v, h, f) = (500u64, 96u64, 160u64);
    let layer = 3 * h * 64 + h * h + 3 * h * f + 2 * h;
    let config = json!({"model_type": "helium", "architectures": ["HeliumForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 4, "head_dim": 16});
    assert_eq!(derived(config), v * h + 2 * layer + h + v * h);
}

#[test]
fn diffllama_learns_four_lambda_vectors_of_head_dim_per_layer() {
    // 128 wide, 4 heads of 32 over 2 KV heads, ffn 256, 3 layers, vocab 1000, untied; the group
    // norm has no parameters.
    let (v, h, f, l) = (1000u64, 128u64, 256u64, 3u64);
    let layer = attention(h, 4, 2, 32, false) + 4 * 32 + 3 * h * f + 2 * h;
    let config = json!({"model_type": "diffllama", "architectures": ["DiffLlamaForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 2});
    assert_eq!(derived(config), v * h + l * layer + h + v * h);
}

#[test]
fn hyperclovax_adds_a_norm_after_each_sublayer_when_use_post_norm() {
    let (v, h, f, l) = (1000u64, 128u64, 256u64, 2u64);
    let base = attention(h, 4, 4, 32, false) + 3 * h * f + 2 * h;
    let config = json!({"model_type": "hyperclovax", "architectures": ["HyperCLOVAXForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": l,
        "num_attention_heads": 4, "num_key_value_heads": 4});
    // HyperCLOVAXConfig's default is use_post_norm = true: post_norm1 and post_norm2.
    assert_eq!(derived(config.clone()), v * h + l * (base + 2 * h) + h + v * h);
    let mut off = config;
    off["use_post_norm"] = json!(false);
    assert_eq!(derived(off), v * h + l * base + h + v * h);
}

#[test]
fn llama_mapped_types_plan_under_llama_classes_and_read_their_aliases() {
    // EXAONE 3 writes num_layers, layer_norm_epsilon and activation_function (ExaoneConfig's
    // attribute_map); transformers builds LlamaForCausalLM. InternLM 3's qkv_bias and bias are
    // aliases of attention_bias and mlp_bias.
    let (v, h, f) = (1000u64, 128u64, 256u64);
    let plain = attention(h, 4, 2, 32, false) + 3 * h * f + 2 * h;
    let exaone = json!({"model_type": "exaone", "architectures": ["ExaoneForCausalLM"],
        "auto_map": {"AutoModelForCausalLM": "modeling_exaone.ExaoneForCausalLM"},
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_layers": 3,
        "num_attention_heads": 4, "num_key_value_heads": 2, "layer_norm_epsilon": 1e-5,
        "activation_function": "silu", "tie_word_embeddings": false});
    assert_eq!(derived(exaone), v * h + 3 * plain + h + v * h);
    let internlm = json!({"model_type": "internlm3", "architectures": ["LlamaForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32, "qkv_bias": true,
        "bias": true});
    // Llama's attention_bias biases q, k, v and o; mlp_bias gate, up and down.
    let biased = plain + (128 + 2 * 64 + h) + (2 * f + h);
    assert_eq!(derived(internlm), v * h + 2 * biased + h + v * h);
}

#[test]
fn cwm_and_granite_swa_keep_the_first_layer_of_each_four_full_in_the_kv_cache() {
    // Both classes default layer_types to full attention where i % 4 == 0, sliding elsewhere:
    // of 8 layers, 0 and 4 full, six within the window.
    for (t, window) in [("cwm", 8192u64), ("granite_swa", 128)] {
        let kv = resolve(json!({"model_type": t, "num_hidden_layers": 8})).kv_layout().unwrap();
        let windowed: u64 = kv.groups.iter().filter(|g| g.window == Some(window)).map(|g| g.layers).sum();
        let full: u64 = kv.groups.iter().filter(|g| g.window.is_none()).map(|g| g.layers).sum();
        assert_eq!((windowed, full), (6, 2), "{t}");
    }
}

#[test]
fn granite_swa_learns_a_sink_per_head_and_vaultgemma_has_two_norms_a_layer() {
    let (v, h, f) = (1000u64, 128u64, 256u64);
    let granite = json!({"model_type": "granite_swa", "architectures": ["GraniteSWAForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "tie_word_embeddings": true});
    let layer = attention(h, 4, 2, 32, false) + 4 + 3 * h * f + 2 * h;
    assert_eq!(derived(granite), v * h + 2 * layer + h);
    // VaultGemma: input_layernorm and pre_feedforward_layernorm only, head_dim 64, tied.
    let vault = json!({"model_type": "vaultgemma", "architectures": ["VaultGemmaForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64});
    let layer = attention(h, 4, 2, 64, false) + 3 * h * f + 2 * h;
    assert_eq!(derived(vault), v * h + 2 * layer + h);
}

#[test]
fn nanochat_has_no_norm_weights_and_an_fc1_fc2_mlp() {
    // The default d20-like shape scaled down: 96 wide, 3 heads of 32, ffn 384, 2 layers, untied.
    let (v, h, f) = (1000u64, 96u64, 384u64);
    let config = json!({"model_type": "nanochat", "architectures": ["NanoChatForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": f, "num_hidden_layers": 2,
        "num_attention_heads": 3});
    assert_eq!(derived(config), v * h + 2 * (attention(h, 3, 3, 32, false) + 2 * h * f) + v * h);
}

#[test]
fn hunyuan_dense_names_its_per_head_query_and_key_norms_query_layernorm_and_key_layernorm() {
    let config = json!({"model_type": "hunyuan_v1_dense", "architectures": ["HunYuanDenseV1Model"],
        "vocab_size": 1000, "hidden_size": 128, "intermediate_size": 256, "num_hidden_layers": 1,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 32});
    let g = resolve(config).graph(1);
    let names: Vec<String> = g
        .sections
        .iter()
        .flat_map(|s| s.nodes.iter())
        .flat_map(|n| n.params.iter())
        .map(|t| t.name.clone())
        .collect();
    assert!(names.iter().any(|n| n == "layers.{i}.self_attn.query_layernorm.weight"), "{names:?}");
    assert!(names.iter().any(|n| n == "layers.{i}.self_attn.key_layernorm.weight"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("q_norm")), "{names:?}");
}
