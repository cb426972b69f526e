//! The families helper txa added, each with its own reader and builder: DeepSeek-V4
//! (`config/deepseek_v4.rs`) and Qwen4-Exp's language model (`config/qwen4_exp.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn deepseek_v4(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::deepseek_v4::DeepseekV4Config::resolve(v, c), "n_routed_experts")
}

fn qwen4_exp_text(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::qwen4_exp::Qwen4ExpConfig::resolve(v, c), "num_experts")
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "deepseek_v4",
        name: "DeepSeek-V4",
        derives_from: Some("deepseek_v3"),
        summary: "DeepSeek's V4 (2026): one shared key/value head behind a query latent, a sliding window on every layer beside a compressor that pools the older context (every 4 tokens with an indexer choosing entries, or every 128), a sink per head and a grouped output projection; routed experts, hashed by token id on the first layers, with a shared expert; hyper-connections keeping the residual stream as several mixed copies.",
        kind: ModelKind::Decoder,
        resolve: Some(deepseek_v4),
    },
    FamilyInfo {
        key: "qwen4_exp_text",
        name: "Qwen4-Exp (language model)",
        derives_from: Some("qwen3_5_moe_text"),
        summary: "Qwen's Qwen4-Exp language model (2026): Qwen3.5-MoE's Gated DeltaNet and gated attention, the attention reading only the tokens a small indexer selects; the residual stream kept as several copies mixed by gated residuals in place of the layers' norms; hashed n-gram embeddings added on some layers.",
        kind: ModelKind::Decoder,
        resolve: Some(qwen4_exp_text),
    },
];
