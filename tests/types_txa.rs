//! DeepSeek-V4 (`src/config/deepseek_v4.rs`, `src/graph/deepseek_v4.rs`) and Qwen4-Exp's
//! language model (`src/config/qwen4_exp.rs`, `src/graph/qwen4_exp.rs`): small configs with
//! their counts written out by hand from transformers 5.24's modeling files, never read
//! back from the program; the same figures are what transformers 5.24 counts for that config on
//! the meta device (`tools/validate/families/txa.py`, `tools/validate/params_report_txa.md`).
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

fn q4(extra: Value) -> Value {
    let mut c = json!({"model_type": "qwen4_exp_text", "architectures": ["Qwen4ExpForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "linear_conv_kernel_dim": 3,
        "linear_key_head_dim": 8, "linear_value_head_dim": 12, "linear_num_key_heads": 2,
        "linear_num_value_heads": 4, "moe_intermediate_size": 32,
        "shared_expert_intermediate_size": 40, "num_experts": 6, "num_experts_per_tok": 2,
        "hc_count": 3, "hc_lowrank": 16, "indexer_n_heads": 2, "indexer_kv_heads": 1,
        "indexer_head_dim": 16, "indexer_budget": 8, "indexer_compress_ratio": 4});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

// Per-layer pieces of `q4(json!({}))`, hidden 64, three copies of the residual stream (192).
// Gated DeltaNet: in_proj_qkv [2 x 2 x 8 + 4 x 12 = 80, 64], in_proj_z [48, 64], in_proj_b and
// in_proj_a [4, 64], conv1d [80, 1, 3], dt_bias and A_log [4], norm [12], out_proj [64, 48].
const GDN: u64 = 80 * H + 48 * H + 2 * 4 * H + 80 * 3 + 2 * 4 + 12 + H * 48;
// Gated attention: q_proj [2 x 4 x 16, 64] (queries and the output gate), k_proj and v_proj
// [2 x 16, 64], o_proj [64, 64], q_norm and k_norm [16]; its indexer: index_qk_proj
// [(2 + 1) x 16, 64], q_layernorm and k_layernorm [16].
const Q4_ATTN: u64 = 128 * H + 2 * 32 * H + H * H + 2 * 16 + 48 * H + 2 * 16;
// mlp.gate [6, 64], experts [6, 64, 64] and [6, 64, 32], shared_expert 3 x [40, 64],
// shared_expert_gate [1, 64].
const Q4_MLP: u64 = 6 * H + 6 * (64 * H + H * 32) + 3 * 40 * H + H;
// A gated residual: hc_norm [192], input_mix_weight_down [16, 192], input_mix_weight_up
// [192, 16], and around a block block_inject_weight [3, 192].
const MIXER: u64 = 192 + 16 * 192 + 192 * 16;
const GATED: u64 = MIXER + 3 * 192;

#[test]
fn qwen4_exp_text_counts_gated_residuals_in_place_of_norms_and_the_indexer_on_attention() {
    assert_eq!((GDN, Q4_ATTN, Q4_MLP, GATED), (12_036, 19_520, 44_992, 6_912));
    // Four layers, attention on every fourth (layer 3); no norm in a layer and no final norm,
    // but hyper_connection_mixer (without injection weights) before the untied head.
    let layers = 3 * (GDN + Q4_MLP + 2 * GATED) + (Q4_ATTN + Q4_MLP + 2 * GATED);
    let total = 1000 * H + layers + MIXER + 1000 * H;
    assert_eq!(derived(q4(json!({}))), total);
    // What transformers 5.24 counts for the same config (params_report_txa.md, var 1).
    assert_eq!(total, 425_228);
}

#[test]
fn qwen4_exp_text_ngram_tables_take_consecutive_primes_across_its_layers() {
    // ple_layer_ids [3, 1] (sorted: layer 1 has table 0, layer 3 table 1); n-grams of 2 and 3,
    // 8 heads each: 16 heads per table, ple_embed_dim 32 / 16 = 2 wide. The heads' vocabularies
    // are the primes from ngram_vocab_size_base 1000 on, numbered across the tables.
    let first =
        [1009, 1013, 1019, 1021, 1031, 1033, 1039, 1049, 1051, 1061, 1063, 1069, 1087, 1091, 1093, 1097];
    let second =
        [1103, 1109, 1117, 1123, 1129, 1151, 1153, 1163, 1171, 1181, 1187, 1193, 1201, 1213, 1217, 1223];
    let (a, b): (u64, u64) = (first.iter().sum(), second.iter().sum());
    assert_eq!((a, b), (16_826, 18_634));
    // Padded to a multiple of 128 rows: 16,896 and 18,688.
    let (a, b) = (a.div_ceil(128) * 128, b.div_ceil(128) * 128);
    // Beside the table: key_proj [192, 32], value_proj [64, 32], norm_key, norm_query and
    // norm_conv [192], conv1d [192, 1, 3] (ple_conv_kernel_size 3).
    let beside = 192 * 32 + H * 32 + 3 * 192 + 192 * 3;
    // The indexer at 3 heads of 20: index_qk_proj [4 x 20, 64] and two norms [20], in place of
    // [48, 64] and two of [16].
    let indexer = (80 * H + 40) - (48 * H + 32);
    let c = q4(json!({"ple_layer_ids": [3, 1], "eos_token_id": 0, "ngram_vocab_size_base": 1000,
        "ple_embed_dim": 32, "ple_conv_kernel_size": 3, "indexer_n_heads": 3, "indexer_head_dim": 20}));
    let base = 3 * (GDN + Q4_MLP + 2 * GATED) + (Q4_ATTN + Q4_MLP + 2 * GATED) + MIXER + 2000 * H;
    let total = base + indexer + (a * 2 + beside) + (b * 2 + beside);
    assert_eq!(derived(c), total);
    // What transformers 5.24 counts for the same config (params_report_txa.md, var 3).
    assert_eq!(total, 517_140);
}

#[test]
fn qwen4_exp_text_serving_keeps_the_indexer_key_beside_keys_and_values_and_the_delta_state() {
    let page = plan_text(&q4(json!({})).to_string()).unwrap();
    let kv = page.serving.as_ref().unwrap().kv.as_ref().unwrap();
    let groups: Vec<_> = kv.layout.groups.iter().map(|g| (g.layers, g.values_per_token, g.window)).collect();
    // The attention layer: 2 x 2 KV heads x 16 + the indexer's key of 16 (cache.update_indexer).
    assert_eq!(groups, vec![(1, 2 * 2 * 16 + 16, None)]);
    // Three Gated DeltaNet layers: the convolution's 80 channels x 3 and 4 value heads' 8 x 12
    // state each.
    let r = kv.layout.recurrent.as_ref().unwrap();
    assert_eq!((r.layers, r.conv_values, r.ssm_values), (3, 80 * 3, 4 * 8 * 12));
}

#[test]
fn qwen4_exp_text_refuses_what_its_config_class_refuses() {
    let none = json!({"indexer_n_heads": null, "indexer_kv_heads": null, "indexer_head_dim": null,
        "indexer_budget": null, "indexer_compress_ratio": null});
    for (patch, field) in [
        (none, "indexer_n_heads"),
        (json!({"indexer_kv_heads": 2}), "indexer_kv_heads"),
        (json!({"indexer_budget": 6}), "indexer_budget"),
        (json!({"ple_layer_ids": [4], "eos_token_id": 0}), "ple_layer_ids"),
        (json!({"ple_layer_ids": [1]}), "eos_token_id"),
        (json!({"ple_layer_ids": [1], "eos_token_id": 0, "ple_embed_dim": 40}), "ple_embed_dim"),
        (json!({"hc_count": 1}), "hc_count"),
        (json!({"hidden_act": "gelu"}), "hidden_act"),
        (json!({"output_gate_type": "tanh"}), "output_gate_type"),
    ] {
        let err = plan_text(&q4(patch.clone()).to_string()).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| e.contains(field)), "{patch}: {err:?}");
    }
}

#[test]
fn deepseek_v4_pro_published_stored_elements_reconcile_with_fp4_experts_and_the_prediction_layer() {
    // The checkpoint's 861,608,274,846 stored elements (tests/fixtures/reference/checkpoints.tsv),
    // written out from the layer's modules: FP8 weights with one scale per 128 x 128 block;
    // the compressors', the indexers' kv/gate projections, weights_proj, the router and the head
    // in BF16 (no scales); routed experts in FP4, two values a byte, one scale per 32 inputs.
    let (h, v, heads, hd, q, g, o, e, f, m, id, ih) =
        (7168u64, 129_280u64, 128u64, 512u64, 1536u64, 16u64, 1024u64, 384u64, 3072u64, 4u64, 128u64, 64u64);
    let fp8 = |out: u64, inp: u64| out * inp + out.div_ceil(128) * inp.div_ceil(128);
    let fp4 = |out: u64, inp: u64| out * inp / 2 + out * (inp / 32);
    let attn = |rate: u64| {
        let base = fp8(q, h)
            + q
            + fp8(heads * hd, q)
            + fp8(hd, h)
            + hd
            + fp8(g * o, heads * hd / g)
            + fp8(h, g * o)
            + heads;
        base + match rate {
            128 => 2 * hd * h + 128 * hd + hd,
            4 => {
                (2 * 2 * hd * h + 4 * 2 * hd + hd)
                    + (2 * 2 * id * h + 4 * 2 * id + id + fp8(ih * id, q) + ih * h)
            }
            _ => 0,
        }
    };
    // Router weight, then its correction bias (learned) or its token-id table [vocab, 6] (hashed).
    let ffn = |hashed: bool| {
        e * h + if hashed { v * 6 } else { e } + e * (2 * fp4(f, h) + fp4(h, f)) + 2 * fp8(f, h) + fp8(h, f)
    };
    let around = 2 * ((2 + m) * m * m * h + (2 + m) * m + 3) + 2 * h;
    let hc_head = m * m * h + m + 1;
    // compress_ratios cut to 61 layers: 128, 128, then 4 on even layers and 128 on odd ones.
    let rate = |i: u64| if i < 2 || i % 2 == 1 { 128 } else { 4 };
    let layers: u64 = (0..61).map(|i| attn(rate(i)) + ffn(i < 3) + around).sum();
    let model = v * h + layers + h + hc_head + v * h;
    // mtp.0: compress_ratios' 62nd entry (0: a sliding window), a learned router; enorm, hnorm,
    // e_proj and h_proj (FP8), its own hc_head and norm; it shares the embeddings and the head.
    let mtp = attn(0) + ffn(false) + around + 2 * h + 2 * fp8(h, h) + hc_head + h;
    assert_eq!(model + mtp, 861_608_274_846);
    // The page (from the snapshot, with its recorded total) finds that combination alone.
    let params = common::plan_id("deepseek-ai/DeepSeek-V4-Pro").params.unwrap();
    assert_eq!(params.checkpoint, Some(861_608_274_846));
    let r = params.reconciliation;
    assert_eq!(r.unexplained, Some(0), "{r:?}");
    assert!(r.alternatives.is_empty());
}
