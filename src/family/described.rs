//! The families of the described types (`config/spec.rs`), each planned by one resolver.

use serde_json::Value;

use super::{FamilyInfo, ModelKind};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn described(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    crate::config::spec::SpecConfig::resolve(v, c).map(|a| Box::new(a) as Box<dyn Architecture>)
}

const fn decoder(key: &'static str, name: &'static str, derives_from: &'static str, summary: &'static str) -> FamilyInfo {
    FamilyInfo { key, name, derives_from: Some(derives_from), summary, kind: ModelKind::Decoder, resolve: Some(described) }
}

pub const FAMILIES: &[FamilyInfo] = &[
    decoder(
        "gpt_oss",
        "gpt-oss",
        "mixtral",
        "OpenAI's open-weight mixture of experts (gpt-oss, 2025): 128 routed experts with biases stored as stacked tensors, a router with bias, a learned attention sink per head, and sliding (128 tokens) and full attention on alternate layers.",
    ),
    decoder(
        "glm4_moe",
        "GLM-4.5 (MoE)",
        "deepseek_v3",
        "Zhipu's GLM-4.5 and 4.6 (2025): grouped-query attention with biased q/k/v, dense first layers, then 128 routed experts and a shared expert behind a bias-corrected sigmoid router.",
    ),
    decoder(
        "phimoe",
        "Phi-3.5-MoE",
        "mixtral",
        "Microsoft's Phi-3.5-MoE (2024): Mixtral's sixteen experts, top two, with LayerNorm (weight and bias) in place of RMSNorm.",
    ),
    decoder(
        "olmoe",
        "OLMoE",
        "olmo2",
        "AI2's open mixture of experts (OLMoE, 2024): 64 small experts, top eight, and RMSNorm over all query and all key heads.",
    ),
    decoder(
        "llama4_text",
        "Llama 4 (text)",
        "llama",
        "Meta's Llama 4 language model (2025): routed experts stored stacked plus a shared expert, MoE and dense layers interleaved, chunked attention on three layers of four and no rotary positions on the fourth.",
    ),
    decoder(
        "ernie4_5_moe",
        "ERNIE 4.5 (MoE)",
        "ernie4_5",
        "Baidu's ERNIE 4.5 mixture of experts (2025): a dense first layer, then 64 routed experts and two shared ones, with a learned score-correction bias in the router.",
    ),
    decoder(
        "cohere",
        "Command R",
        "llama",
        "Cohere's Command R (2024): attention and MLP in parallel from one bias-free LayerNorm, tied embeddings, optional LayerNorm over query and key heads.",
    ),
    decoder(
        "cohere2",
        "Command R7B / A",
        "cohere",
        "Cohere's Command R7B and A (2024-25): Command R's parallel layers with sliding-window attention on three layers of four.",
    ),
    decoder(
        "glm",
        "GLM-4",
        "llama",
        "Zhipu's GLM-4 (2024): grouped-query attention with biased q/k/v, half-width rotary, a fused gate_up_proj MLP.",
    ),
    decoder(
        "glm4",
        "GLM-4-0414",
        "glm",
        "Zhipu's GLM-4-0414 (2025): GLM-4's layers with norms after attention and after the MLP as well as before.",
    ),
    decoder(
        "exaone4",
        "EXAONE 4.0",
        "olmo2",
        "LG AI Research's EXAONE 4.0 (2025): norms after each sublayer, RMSNorm per query and key head, sliding-window attention on three layers of four.",
    ),
    decoder(
        "ernie4_5",
        "ERNIE 4.5",
        "llama",
        "Baidu's dense ERNIE 4.5 (2025): Llama's layers with one use_bias key for every projection and tied embeddings.",
    ),
    decoder(
        "arcee",
        "Arcee (AFM)",
        "llama",
        "Arcee's AFM (2025): Llama's layers with an ungated ReLU² MLP (up_proj, down_proj).",
    ),
];
