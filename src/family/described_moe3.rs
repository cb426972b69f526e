//! The families of the mixtures of experts and latent-attention decoders described in
//! `config/spec_moe3.rs`, and DBRX and JetMoE (`config/{dbrx,jetmoe}.rs`, `graph/{dbrx,jetmoe}.rs`).

use serde_json::Value;

use super::described::decoder;
use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn jetmoe(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::jetmoe::JetMoeConfig::resolve(v, c), "num_local_experts")
}

fn dbrx(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::dbrx::DbrxConfig::resolve(v, c), "ffn_config.moe_num_experts")
}

pub const FAMILIES: &[FamilyInfo] = &[
    decoder(
        "hunyuan_v1_moe",
        "Hunyuan-MoE",
        "hunyuan_v1_dense",
        "Tencent's Hunyuan-A13B (2025): Hunyuan-dense's attention with per-head query and key norms, every layer a softmax router over Mixtral-style experts with an always-on shared MLP as wide beside them.",
    ),
    decoder(
        "sarvam_moe",
        "Sarvam-MoE",
        "glm4_moe",
        "Sarvam AI's Sarvam-30B: GLM-4.5's classes and layers (per-head q/k norms, a dense first layer, 128 routed experts and a shared expert behind a bias-corrected sigmoid router) at 19 layers.",
    ),
    decoder(
        "solar_open",
        "Solar Open",
        "glm4_moe",
        "Upstage's Solar Open 100B: Llama's attention without an output bias, and GLM-4.5's sparse block (128 routed experts, a shared expert, a bias-corrected router) on every layer.",
    ),
    decoder(
        "sarvam_mla",
        "Sarvam-MLA",
        "deepseek_v3",
        "Sarvam AI's Sarvam-105B: DeepSeek-V3's classes and layers, latent attention with queries projected directly, a dense first layer, then 128 routed experts and a shared expert.",
    ),
    decoder(
        "youtu",
        "Youtu-LLM",
        "deepseek_v3",
        "Tencent's Youtu-LLM 2B: Llama's dense layers around DeepSeek-V3's latent attention, embeddings tied to the head.",
    ),
    decoder(
        "minicpm3",
        "MiniCPM3",
        "deepseek_v2",
        "OpenBMB's MiniCPM3-4B (2024): Llama's dense layers around DeepSeek-V2's latent attention, with scaled embeddings and residuals, embeddings tied to the head.",
    ),
    decoder(
        "hy_v3",
        "Hy-V3",
        "hunyuan_v1_moe",
        "Tencent's Hy-V3: grouped-query attention with per-head query and key norms, a dense first layer, then 192 routed experts and a shared expert behind a bias-corrected router.",
    ),
    decoder(
        "afmoe",
        "AFMoE",
        "llama",
        "Arcee's AFMoE (Trinity): attention with per-head q/k norms and a sigmoid output gate, sliding-window layers with full attention every fourth, norms around both sublayers, a dense first layer, then routed experts with a learned selection bias and shared experts.",
    ),
    decoder(
        "minimax",
        "MiniMax-01",
        "mixtral",
        "MiniMax's MiniMax-Text-01 lineage: Mixtral's routed experts on every layer, with lightning attention (linear attention keeping a per-head state per sequence instead of a KV cache) on the layers its layer types mark, full attention on the others.",
    ),
    decoder(
        "cohere2_moe",
        "Cohere 2 MoE",
        "cohere2",
        "Cohere 2's parallel layers (one norm before attention and the MLP together, sliding-window attention on three layers of four) with dense first layers, then Mixtral-style routed experts and optional shared experts.",
    ),
    FamilyInfo {
        key: "dbrx",
        name: "DBRX",
        derives_from: Some("mixtral"),
        summary: "Databricks' DBRX (2024): fused q/k/v over grouped key/value heads, LayerNorms without bias, and on every layer a softmax router over 16 experts, top four, their weights stacked in one tensor per projection; embeddings never tied.",
        kind: ModelKind::Decoder,
        resolve: Some(dbrx),
    },
    FamilyInfo {
        key: "jetmoe",
        name: "JetMoE",
        derives_from: Some("mixtral"),
        summary: "JetMoE (2024): experts in both sublayers, a mixture of attention heads (each token's top-k experts project its queries and outputs over one shared key/value projection) and a mixture of gated MLP experts, each with a router and an output bias.",
        kind: ModelKind::Decoder,
        resolve: Some(jetmoe),
    },
];
