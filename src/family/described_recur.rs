//! The families of the recurrent language models with their own layers (`config/spec_recur.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn rwkv(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::spec_recur::RwkvConfig::resolve(v, c), "hidden_size")
}

fn xlstm(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::spec_recur::XlstmConfig::resolve(v, c), "hidden_size")
}

fn recurrent_gemma(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::spec_recur_gemma::RecurrentGemmaConfig::resolve(v, c), "hidden_size")
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "rwkv",
        kind: ModelKind::Decoder,
        name: "RWKV",
        derives_from: None,
        summary: "RWKV-4 (Peng et al., 2023): each block mixes tokens by a learned decay over a running key-value sum (time mixing) and then by a squared-ReLU MLP over the token and its predecessor (channel mixing); trained in parallel like a transformer, served as a recurrent network with five vectors of state per block instead of a KV cache.",
        resolve: Some(rwkv),
    },
    FamilyInfo {
        key: "xlstm",
        kind: ModelKind::Decoder,
        name: "xLSTM",
        derives_from: None,
        summary: "NX-AI's xLSTM (xLSTM 7B, 2025): each block an mLSTM, a recurrent cell whose per-head matrix memory is written through exponential input and forget gates, then a gated MLP; served with a fixed state per block instead of a KV cache.",
        resolve: Some(xlstm),
    },
    FamilyInfo {
        key: "recurrent_gemma",
        kind: ModelKind::Decoder,
        name: "RecurrentGemma",
        derives_from: Some("gemma"),
        summary: "Google's RecurrentGemma (Griffin, 2024): two recurrent blocks (a gated linear recurrence, RG-LRU, after a short convolution) for each block of local attention, each followed by a gated MLP; serving keeps a fixed state and a window of keys and values, whatever the length.",
        resolve: Some(recurrent_gemma),
    },
    super::described::decoder(
        "lfm3",
        "LFM3",
        "lfm2",
        "Liquid AI's LFM3 (2026): LFM2's short convolutions (a window of seven tokens, no KV cache) on most layers, full and 256-token sliding attention with a sigmoid gate per head on the rest, and norms after each block as well as before.",
    ),
];
