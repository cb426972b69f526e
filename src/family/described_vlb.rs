//! Qwen3-VL and Qwen3.5 (vision-language): their wrappers (`config/wrappers.rs`), the tower in
//! `graph/qwen3_vision.rs`, the language models read by `config/qwen3_vl.rs`.

use serde_json::Value;

use super::{FamilyInfo, ModelKind, composite};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

/// The wrapper, or (`Qwen3_5ForCausalLM` on a Qwen3.5 file) its text model alone.
fn qwen3_vlm(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    crate::config::qwen3_vl::causal_lm(v, c).unwrap_or_else(|| composite(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "qwen3_vl",
        kind: ModelKind::Decoder,
        name: "Qwen3-VL",
        derives_from: Some("qwen2_5_vl"),
        summary: "Qwen3-VL (Qwen Team, 2025): a ViT with learned and 2-D rotary positions over images at their own resolution, 2x2 patches merged by an MLP into a Qwen3 decoder, and DeepStack mergers that add features of three tower layers to the decoder's first layers.",
        resolve: Some(qwen3_vlm),
    },
    FamilyInfo {
        key: "qwen3_vl_moe",
        kind: ModelKind::Decoder,
        name: "Qwen3-VL MoE",
        derives_from: Some("qwen3_vl"),
        summary: "Qwen3-VL's mixture-of-experts models (Qwen Team, 2025): Qwen3-VL's vision tower, merger and DeepStack mergers into a Qwen3-MoE decoder with routed experts in every layer.",
        resolve: Some(qwen3_vlm),
    },
    FamilyInfo {
        key: "qwen3_5",
        kind: ModelKind::Decoder,
        name: "Qwen3.5",
        derives_from: Some("qwen3_5_text"),
        summary: "Qwen3.5 and 3.6 (Qwen Team, 2026): Qwen3-VL's vision tower without DeepStack, its patch merger into a hybrid decoder of Gated DeltaNet and gated attention layers (three linear layers to one full).",
        resolve: Some(qwen3_vlm),
    },
    FamilyInfo {
        key: "qwen3_5_moe",
        kind: ModelKind::Decoder,
        name: "Qwen3.5 MoE",
        derives_from: Some("qwen3_5"),
        summary: "Qwen3.5's mixture-of-experts models (Qwen Team, 2026): Qwen3.5's vision tower and merger into the hybrid Gated DeltaNet decoder with routed experts and a gated shared expert in every layer.",
        resolve: Some(qwen3_vlm),
    },
];
