//! Mixture-of-experts, latent-attention and linear-attention hybrid types (`config/spec_mla.rs`,
//! `spec_linear.rs`): each count written out by hand from transformers 5.x's modeling file, and
//! the published checkpoints' totals (tests/fixtures/reference/checkpoints.tsv) reached by the
//! multi-token-prediction layers they store beside the class's weights.

mod common;

use common::plan_text;
use serde_json::json;

fn derived(config: serde_json::Value) -> u64 {
    plan_text(&config.to_string()).unwrap().params.unwrap().derived
}

fn items(page: &modelatlas::page::ModelPage) -> Vec<(String, i64)> {
    let v = serde_json::to_value(page).unwrap();
    v["params"]["reconciliation"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["label"].as_str().unwrap().to_string(), i["scalars"].as_i64().unwrap()))
        .collect()
}

/// Latent attention: q_a (h x r) + its norm (r) + q_b (r x heads*(nope+rope)), kv_a (h x
/// (kv + rope)) + its norm (kv), kv_b (kv x heads*(nope+v)), o (heads*v x h); no biases.
fn latent(h: u64, heads: u64, r: u64, kv: u64, nope: u64, rope: u64, v: u64) -> u64 {
    h * r + r + r * heads * (nope + rope) + h * (kv + rope) + kv + kv * heads * (nope + v) + heads * v * h
}

/// The lightning indexer: wq_b (r x n*w), wk (h x w), k_norm weight and bias (2w), weights_proj
/// (h x n).
fn indexer(h: u64, r: u64, n: u64, w: u64) -> u64 {
    r * n * w + h * w + 2 * w + h * n
}

/// Gated DeltaNet: q, k, v and z (h x (2*kh*kd + 2*vh*vd)), b and a (h x 2*vh), the convolution
/// over q, k, v (channels x kernel), dt_bias and A_log (vh each), the norm (vd), out (vh*vd x h).
fn delta_net(h: u64, kh: u64, kd: u64, vh: u64, vd: u64, kernel: u64) -> u64 {
    let conv = 2 * kh * kd + vh * vd;
    h * (2 * kh * kd + 2 * vh * vd) + h * 2 * vh + conv * kernel + 2 * vh + vd + vh * vd * h
}

/// Gated attention: q doubled for the output gate (h x 2*heads*hd), k and v (h x kv*hd each), o
/// (heads*hd x h), q and k norms (hd each).
fn gated_attention(h: u64, heads: u64, kv: u64, hd: u64) -> u64 {
    h * 2 * heads * hd + 2 * h * kv * hd + heads * hd * h + 2 * hd
}

#[test]
fn glm_4_7_flash_counts_latent_attention_a_dense_first_layer_and_64_experts() {
    // Its config.json (hub/): vocab 154880, hidden 2048, 47 layers, 20 heads, q_lora_rank 768,
    // kv_lora_rank 512, qk 192 + 64 rotary, v 256; layer 0 dense (ffn 10240), then 64 experts of
    // 1536 (top 4) and one shared expert of 1536; untied.
    let (v, h) = (154_880u64, 2048u64);
    let attn = latent(h, 20, 768, 512, 192, 64, 256);
    assert_eq!(attn, 21_759_232);
    let dense = attn + 3 * h * 10240 + 2 * h;
    let sparse = attn + 64 * h + 64 * 3 * h * 1536 + 3 * h * 1536 + 2 * h;
    assert_eq!(sparse, 635_311_360);
    let class = v * h + dense + 46 * sparse + h + v * h;
    assert_eq!(class, 29_943_390_976);
    let page = common::plan_id("zai-org/GLM-4.7-Flash");
    let p = page.params.clone().unwrap();
    assert_eq!(p.derived, class);
    // The checkpoint adds 46 routers' e_score_correction_bias (64 each) and the
    // multi-token-prediction layer 47: a routed layer with its own embeddings and head (v x h
    // each), enorm, hnorm and shared_head.norm (h each), eh_proj (2h x h) and its router bias.
    let mtp = sparse + 3 * h + 2 * h * h + 64;
    assert_eq!(class + 46 * 64 + mtp + 2 * v * h, 31_221_488_576);
    assert_eq!(p.checkpoint, Some(common::published_counts()["zai-org/GLM-4.7-Flash"]));
    let found = items(&page);
    assert!(found.contains(&("multi-token-prediction layers".into(), mtp as i64)), "{found:?}");
    assert!(
        found.contains(&("multi-token-prediction embeddings and head".into(), (2 * v * h) as i64)),
        "{found:?}"
    );
    assert!(found.contains(&("router score-correction biases".into(), 46 * 64)), "{found:?}");
}

#[test]
fn qwen3_next_80b_counts_three_delta_net_layers_to_one_gated_attention_layer() {
    // Its config.json (hub/): vocab 151936, hidden 2048, 48 layers, attention every 4th (16
    // heads of 256 over 2 KV heads), Gated DeltaNet elsewhere (16 key heads of 128, 32 value
    // heads of 128, kernel 4); every layer routes over 512 experts of 512 (top 10) beside a
    // shared expert of 512 behind a one-unit gate; untied.
    let (v, h) = (151_936u64, 2048u64);
    let linear = delta_net(h, 16, 128, 32, 128, 4);
    assert_eq!(linear, 33_718_464);
    let attn = gated_attention(h, 16, 2, 256);
    let moe = 512 * h + 512 * 3 * h * 512 + 3 * h * 512 + h;
    let class = 2 * v * h + 36 * linear + 12 * attn + 48 * (moe + 2 * h) + h;
    assert_eq!(class, 79_674_391_296);
    let page = common::plan_id("Qwen/Qwen3-Next-80B-A3B-Instruct");
    let p = page.params.clone().unwrap();
    assert_eq!(p.derived, class);
    // The checkpoint's `mtp.*`: one attention layer with its experts, fc (2h x h) and three norms.
    let mtp = attn + moe + 2 * h + 2 * h * h + 3 * h;
    assert_eq!(class + mtp, 81_324_862_720);
    assert_eq!(p.checkpoint, Some(common::published_counts()["Qwen/Qwen3-Next-80B-A3B-Instruct"]));
    let found = items(&page);
    assert!(found.contains(&("multi-token-prediction layers".into(), mtp as i64)), "{found:?}");
}

#[test]
fn qwen3_next_keeps_a_recurrent_state_for_its_delta_net_layers_and_a_kv_cache_for_the_rest() {
    let page = common::plan_id("Qwen/Qwen3-Next-80B-A3B-Instruct");
    let v = serde_json::to_value(&page).unwrap();
    let layout = &v["serving"]["kv"]["layout"];
    // 12 attention layers cache 2 x 2 KV heads x 256 per token.
    assert_eq!(layout["groups"][0]["layers"], 12, "{layout}");
    assert_eq!(layout["groups"][0]["values_per_token"], 2 * 2 * 256, "{layout}");
    // 36 DeltaNet layers: conv over 2 x 16 x 128 + 32 x 128 = 8192 channels x 4; state 32 heads
    // x 128 x 128.
    assert_eq!(layout["recurrent"]["layers"], 36, "{layout}");
    assert_eq!(layout["recurrent"]["conv_values"], 8192 * 4, "{layout}");
    assert_eq!(layout["recurrent"]["ssm_values"], 32 * 128 * 128, "{layout}");
}

#[test]
fn a_small_qwen3_5_text_splits_its_delta_net_projections_and_keeps_a_dense_mlp() {
    // 4 layers (linear, linear, linear, attention), hidden 64, ffn 96, 4 heads of 16 over 2,
    // 2 key heads of 8, 4 value heads of 12, kernel 4, vocab 500, untied.
    let (v, h) = (500u64, 64u64);
    let linear = delta_net(h, 2, 8, 4, 12, 4);
    let attn = gated_attention(h, 4, 2, 16);
    let mlp = 3 * h * 96 + 2 * h;
    let config = json!({"model_type": "qwen3_5_text", "architectures": ["Qwen3_5ForCausalLM"],
        "vocab_size": v, "hidden_size": h, "intermediate_size": 96, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
        "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 8,
        "linear_value_head_dim": 12});
    assert_eq!(derived(config), 2 * v * h + 3 * linear + attn + 4 * mlp + h);
}

/// 3 layers, the first dense; hidden 64, 4 heads, q_lora 40, kv_lora 24, qk 16 + 8, v 12; an
/// indexer of 4 heads of 16; 6 experts of 32 (top 2) and one shared; ffn 96; vocab 500, untied.
fn small_latent(model_type: &str, class: &str) -> serde_json::Value {
    json!({"model_type": model_type, "architectures": [class],
        "vocab_size": 500, "hidden_size": 64, "intermediate_size": 96, "moe_intermediate_size": 32,
        "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 4,
        "n_routed_experts": 6, "num_experts_per_tok": 2, "kv_lora_rank": 24, "q_lora_rank": 40,
        "qk_rope_head_dim": 8, "qk_nope_head_dim": 16, "v_head_dim": 12, "index_n_heads": 4,
        "index_head_dim": 16, "first_k_dense_replace": 1})
}

#[test]
fn deepseek_v3_2_adds_a_lightning_indexer_to_every_latent_attention() {
    let (v, h) = (500u64, 64u64);
    let attn = latent(h, 4, 40, 24, 16, 8, 12) + indexer(h, 40, 4, 16);
    let dense = attn + 3 * h * 96 + 2 * h;
    let sparse = attn + 6 * h + 6 * 3 * h * 32 + 3 * h * 32 + 2 * h;
    let config = small_latent("deepseek_v32", "DeepseekV32ForCausalLM");
    assert_eq!(derived(config), 2 * v * h + dense + 2 * sparse + h);
}

#[test]
fn glm_5_layers_marked_shared_reuse_the_previous_indexer_and_hold_none() {
    // As above under GlmMoeDsaConfig, with indexer_types full, shared, full: layer 1 has none.
    let (v, h) = (500u64, 64u64);
    let attn = latent(h, 4, 40, 24, 16, 8, 12);
    let idx = indexer(h, 40, 4, 16);
    let dense = attn + 3 * h * 96 + 2 * h;
    let sparse = attn + 6 * h + 6 * 3 * h * 32 + 3 * h * 32 + 2 * h;
    let mut config = small_latent("glm_moe_dsa", "GlmMoeDsaForCausalLM");
    config["indexer_types"] = json!(["full", "shared", "full"]);
    assert_eq!(derived(config), 2 * v * h + dense + 2 * sparse + 2 * idx + h);
}

/// A DeepSeek-V3-style routed layer: latent attention with its indexer, the router (e x h), e
/// experts and one shared expert of width f, two norms.
fn routed(h: u64, attn: u64, e: u64, f: u64) -> u64 {
    attn + e * h + e * 3 * h * f + 3 * h * f + 2 * h
}

#[test]
fn deepseek_v3_2_from_the_snapshot_reconciles_its_fp8_checkpoint_with_the_prediction_layer() {
    // Its config.json (hub/): vocab 129280, hidden 7168, 61 layers (3 dense of ffn 18432), 128
    // heads, q_lora 1536, kv_lora 512, qk 128 + 64, v 128; an indexer of 64 heads of 128; 256
    // experts of 2048 and a shared one; untied; FP8 with 128 x 128 block scales.
    let (v, h) = (129_280u64, 7168u64);
    let attn = latent(h, 128, 1536, 512, 128, 64, 128) + indexer(h, 1536, 64, 128);
    let class = 2 * v * h + h + 3 * (attn + 3 * h * 18432 + 2 * h) + 58 * routed(h, attn, 256, 2048);
    assert_eq!(class, 671_877_929_216);
    let page = common::plan_id("deepseek-ai/DeepSeek-V3.2");
    let p = page.params.clone().unwrap();
    assert_eq!(p.derived, class);
    assert_eq!(p.checkpoint, Some(common::published_counts()["deepseek-ai/DeepSeek-V3.2"]));
    let v_json = serde_json::to_value(&page).unwrap();
    assert_eq!(v_json["params"]["reconciliation"]["status"], "explained");
    // Layer 61: a routed layer with its router bias (256), enorm, hnorm, shared_head.norm,
    // eh_proj (2h x h), and its own embeddings and head (v x h each).
    let mtp = routed(h, attn, 256, 2048) + 256 + 3 * h + 2 * h * h;
    let found = items(&page);
    assert!(found.contains(&("multi-token-prediction layers".into(), mtp as i64)), "{found:?}");
    assert!(
        found.contains(&("multi-token-prediction embeddings and head".into(), (2 * v * h) as i64)),
        "{found:?}"
    );
    assert!(found.contains(&("router score-correction biases".into(), 58 * 256)), "{found:?}");
}

#[test]
fn glm_5_1_from_the_snapshot_is_its_published_total_less_the_prediction_layer() {
    // Its config.json (hub/): vocab 154880, hidden 6144, 78 layers (3 dense of ffn 12288), 64
    // heads, q_lora 2048, kv_lora 512, qk 192 + 64, v 256; an indexer of 32 heads of 128 on
    // every layer; 256 experts of 2048 and a shared one; untied.
    let (v, h) = (154_880u64, 6144u64);
    let attn = latent(h, 64, 2048, 512, 192, 64, 256) + indexer(h, 2048, 32, 128);
    let class = 2 * v * h + h + 3 * (attn + 3 * h * 12288 + 2 * h) + 75 * routed(h, attn, 256, 2048);
    assert_eq!(class, 743_911_199_232);
    let page = common::plan_id("zai-org/GLM-5.1");
    assert_eq!(page.params.clone().unwrap().derived, class);
    // Layer 78 keeps no copies of the embeddings or the head, unlike GLM-4.7-Flash's.
    let mtp = routed(h, attn, 256, 2048) + 256 + 3 * h + 2 * h * h;
    assert_eq!(class + 75 * 256 + mtp, common::published_counts()["zai-org/GLM-5.1"]);
    let found = items(&page);
    assert!(found.contains(&("multi-token-prediction layers".into(), mtp as i64)), "{found:?}");
}
