//! DeepSeek-V4 (`src/config/deepseek_v4.rs`, `src/graph/deepseek_v4.rs`): a small config with
//! its count written out by hand from transformers 5.24's `modeling_deepseek_v4.py`, never read
//! back from the program; the same figure is what transformers 5.24 counts for that config on
//! the meta device (`tools/validate/families/txa.py` var 1, `tools/validate/params_report_txa.md`).
//! The serving cache is derived by hand from the cache classes (`DeepseekV4HCACache`,
//! `DeepseekV4CSACache`).

mod common;

use common::plan_text;
use serde_json::{Value, json};

fn derived(config: Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn v4(extra: Value) -> Value {
    let mut c = json!({"model_type": "deepseek_v4", "architectures": ["DeepseekV4ForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "moe_intermediate_size": 32, "num_hidden_layers": 4,
        "num_attention_heads": 4, "head_dim": 32, "q_lora_rank": 24, "n_routed_experts": 6,
        "num_experts_per_tok": 2, "o_groups": 2, "o_lora_rank": 16, "index_n_heads": 2,
        "index_head_dim": 8, "hc_mult": 3, "sliding_window": 16});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

// Per-layer pieces of `v4(json!({}))`, hidden 64, by module.
const H: u64 = 64;
// q_a_proj [24, 64], q_a_norm [24], q_b_proj [4 x 32, 24], kv_proj [32, 64], kv_norm [32],
// o_a_proj [2 groups x 16, 4 x 32 / 2], o_b_proj [64, 2 x 16], sinks [4].
const ATTN: u64 = 24 * H + 24 + 128 * 24 + 32 * H + 32 + 32 * 64 + H * 32 + 4;
// Heavily compressed: compressor.kv_proj and gate_proj [32, 64], position_bias [128, 32],
// kv_norm [32].
const HEAVY: u64 = 2 * 32 * H + 128 * 32 + 32;
// Compressed sparse: compressor.kv_proj and gate_proj [2 x 32, 64], position_bias [4, 64],
// kv_norm [32]; its indexer: kv_proj and gate_proj [2 x 8, 64], position_bias [4, 16], kv_norm
// [8], q_b_proj [2 x 8, 24], scorer.weights_proj [2, 64].
const SPARSE: u64 = 2 * 64 * H + 4 * 64 + 32 + (2 * 16 * H + 4 * 16 + 8 + 16 * 24 + 2 * H);
// mlp.gate [6, 64] (a hash router's tid2eid and a learned one's correction bias are buffers),
// experts gate_up_proj [6, 64, 64] and down_proj [6, 64, 32], shared_experts 3 x [32, 64].
const MLP: u64 = 6 * H + 6 * (64 * H + H * 32) + 3 * 32 * H;
// attn_hc and ffn_hc: fn [(2 + 3) x 3, 3 x 64], base [15], scale [3]; two RMSNorms.
const AROUND: u64 = 2 * (15 * 3 * H + 15 + 3) + 2 * H;

#[test]
fn deepseek_v4_counts_each_layers_compressor_the_grouped_output_and_the_hyper_connections() {
    assert_eq!((ATTN, HEAVY, SPARSE, MLP, AROUND), (10_812, 8_224, 11_112, 43_392, 5_924));
    // Four layers, the class's default layer_types: heavily compressed on layers 0 and 1, then
    // heavily compressed on even layers and compressed sparse on odd ones (2: heavy, 3: sparse).
    let layers = 3 * (ATTN + HEAVY + MLP + AROUND) + (ATTN + SPARSE + MLP + AROUND);
    // Embeddings [1000, 64]; hc_head: hc_fn [3, 3 x 64], hc_base [3], hc_scale [1]; the final
    // norm; the untied lm_head [1000, 64].
    let total = 1000 * H + layers + (3 * 3 * H + 3 + 1) + H + 1000 * H;
    assert_eq!(derived(v4(json!({}))), total);
    // What transformers 5.24 counts for the same config (params_report_txa.md, var 1).
    assert_eq!(total, 404_940);
}

#[test]
fn deepseek_v4_sliding_layers_have_no_compressor_and_a_tied_head_is_counted_once() {
    let c = v4(json!({"num_hidden_layers": 2, "tie_word_embeddings": true,
        "layer_types": ["sliding_attention", "compressed_sparse_attention"],
        "mlp_layer_types": ["moe", "hash_moe"]}));
    let layers = (ATTN + MLP + AROUND) + (ATTN + SPARSE + MLP + AROUND);
    assert_eq!(derived(c), 1000 * H + layers + (3 * 3 * H + 4) + H);
}

#[test]
fn deepseek_v4_reads_the_legacy_keys_as_its_config_class_folds_them_in() {
    // compress_ratios (0, 4 or 128 per layer) cut to num_hidden_layers; compress_rate_hca sets
    // the heavily compressed layers' rate: position_bias [16, 32] in place of [128, 32].
    let c = v4(json!({"num_hidden_layers": 3, "compress_ratios": [128, 0, 4, 128],
        "compress_rate_hca": 16, "num_hash_layers": 1}));
    let heavy16 = HEAVY - 128 * 32 + 16 * 32;
    let layers = (ATTN + heavy16 + MLP + AROUND) + (ATTN + MLP + AROUND) + (ATTN + SPARSE + MLP + AROUND);
    assert_eq!(derived(c), 1000 * H + layers + (3 * 3 * H + 4) + H + 1000 * H);
    // The hashed layer's token-id table [vocab 1000, top 2] and the two learned routers'
    // corrections [6 experts] are buffers a checkpoint stores beside the parameters.
    let text = v4(json!({"num_hidden_layers": 3, "num_hash_layers": 1})).to_string();
    let (common, value) = modelatlas::config::parse(&text).unwrap();
    let resolve = modelatlas::family::info("deepseek_v4").unwrap().resolve.unwrap();
    let candidates = resolve(&value, &common).unwrap().checkpoint_candidates();
    let scalars = |label: &str| candidates.iter().find(|c| c.label == label).unwrap().signed_scalars();
    assert_eq!(scalars("hash routers' token-to-expert tables"), 1000 * 2);
    assert_eq!(scalars("router score-correction biases"), 2 * 6);
}

#[test]
fn deepseek_v4_pro_plans_and_its_cache_counts_each_compressed_entry_per_token() {
    // DeepSeek-V4-Pro's published config (hub/): 61 layers; compress_ratios lists 62 entries
    // (the last, 0, for the prediction layer the class does not build) and the class keeps the
    // first 61: 128 on layers 0 and 1, then 4 on even layers (2..=60: 30 layers) and 128 on odd
    // ones (3..=59: 29 layers), so 31 heavily compressed and 30 compressed sparse layers.
    let path = common::snapshot_config_path("deepseek-ai--DeepSeek-V4-Pro");
    let page = plan_text(&std::fs::read_to_string(path).unwrap()).unwrap();
    // What transformers 5.24 counts for this file (params_report_txa.md, hub row).
    assert_eq!(page.params.as_ref().unwrap().derived, 1_572_997_179_491);
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let groups: Vec<_> = kv.layout.groups.iter().map(|g| (g.layers, g.values_per_token, g.window)).collect();
    // Every layer: the window of 128 tokens of one key/value head of 512 (keys are the values).
    // Heavily compressed: one entry of 512 per 128 tokens = 4 values a token. Compressed sparse:
    // one entry of 512 and one indexer key of 128 per 4 tokens = 160 values a token.
    assert_eq!(groups, vec![(61, 512, Some(128)), (31, 4, None), (30, 160, None)]);
    assert_eq!(kv.bytes_per_token_bf16, 2 * (61 * 512 + 31 * 4 + 30 * 160));
    assert_eq!(kv.bytes_per_token_bf16, 72_312);
    // At the context, 1,048,576 tokens (a multiple of both rates, so exact): the windows hold
    // 128 tokens; the heavily compressed layers 8192 entries of 512, the sparse ones 262,144
    // entries of 640.
    assert_eq!(kv.context, 1_048_576);
    let values = 61 * 512 * 128 + 31 * 8192 * 512 + 30 * 262_144 * 640;
    assert_eq!(kv.bytes_at_context_bf16, 2 * values);
    assert_eq!(kv.bytes_at_context_bf16, 10_334_371_840);
}

#[test]
fn deepseek_v4_refuses_what_its_classes_cannot_build() {
    for (patch, field) in [
        (json!({"compress_ratios": [0, 4, 7, 128]}), "compress_ratios"),
        (json!({"layer_types": ["sliding_attention"]}), "layer_types"),
        (json!({"mlp_layer_types": ["moe", "dense", "moe", "moe"]}), "mlp_layer_types"),
        (json!({"compress_rates": {"compressed_sparse_attention": 4}}), "compress_rates"),
        (json!({"o_groups": 3}), "o_groups"),
        (json!({"num_experts_per_tok": 7}), "num_experts_per_tok"),
    ] {
        let err = plan_text(&v4(patch.clone()).to_string()).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| e.contains(field)), "{patch}: {err:?}");
    }
}
