//! The families of Doge, Dory, Gemma 4, Gemma 3n and T5Gemma, each with its own reader and
//! builder (`config/doge_dory.rs`, ...).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn doge(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::doge_dory::DogeConfig::resolve(v, c), "hidden_size")
}

fn t5gemma(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::t5gemma::T5GemmaConfig::resolve(v, c), "decoder.hidden_size")
}

fn gemma4(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::gemma4::Gemma4Config::resolve(v, c), "hidden_size")
}

fn gemma4_assistant(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::gemma4_assistant::Gemma4AssistantConfig::resolve(v, c), "text_config.hidden_size")
}

fn gemma3n(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::gemma3n::Gemma3nConfig::resolve(v, c), "hidden_size")
}

fn dory(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::dory::DoryConfig::resolve(v, c), "hidden_size")
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "doge",
        kind: ModelKind::Decoder,
        name: "Doge",
        derives_from: Some("llama"),
        summary: "SmallDoge's Doge (2025): grouped attention whose mask is learned from the values (dynamic mask attention), learned residual scales, and optionally a cross-domain mixture of experts whose many one-row experts are stored as embeddings and chosen by product keys.",
        resolve: Some(doge),
    },
    FamilyInfo {
        key: "t5gemma",
        kind: ModelKind::EncoderDecoder,
        name: "T5Gemma",
        derives_from: Some("gemma2"),
        summary: "Google's T5Gemma (2025): an encoder and a decoder of Gemma 2's layers (four norms each, sliding and full attention alternating), adapted from a Gemma 2 decoder; the decoder's layers add cross-attention over the encoder.",
        resolve: Some(t5gemma),
    },
    FamilyInfo {
        key: "gemma4_text",
        kind: ModelKind::Decoder,
        name: "Gemma 4 (language model)",
        derives_from: Some("gemma3_text"),
        summary: "Google's Gemma 4 (2026) language model: Gemma 3's sandwich-normed layers, five sliding to one full, the full layers with wider heads; per-layer embeddings feed every layer, the last layers reuse an earlier layer's keys and values, and the larger models add a mixture of experts beside each MLP.",
        resolve: Some(gemma4),
    },
    FamilyInfo {
        key: "gemma4_unified_text",
        kind: ModelKind::Decoder,
        name: "Gemma 4 unified (language model)",
        derives_from: Some("gemma4_text"),
        summary: "The language model of Google's unified Gemma 4 (2026): Gemma 4's layers (sliding and wider full layers, keys and values shared by the last layers) without per-layer embeddings or experts.",
        resolve: Some(gemma4),
    },
    FamilyInfo {
        key: "gemma4_assistant",
        kind: ModelKind::Decoder,
        name: "Gemma 4 assistant",
        derives_from: Some("gemma4_text"),
        summary: "The draft model Google pairs with Gemma 4 (2026) for speculative decoding: a few Gemma 4 layers that read the main model's keys and values instead of their own, fed the main model's state through a projection and handing theirs back through another.",
        resolve: Some(gemma4_assistant),
    },
    FamilyInfo {
        key: "gemma4_unified_assistant",
        kind: ModelKind::Decoder,
        name: "Gemma 4 unified assistant",
        derives_from: Some("gemma4_unified_text"),
        summary: "The draft model of Google's unified Gemma 4 (2026): unified Gemma 4 layers reading the main model's keys and values, projections to and from the main model's width, and optionally a centroid embedder that scores only the tokens of the likeliest clusters.",
        resolve: Some(gemma4_assistant),
    },
    FamilyInfo {
        key: "gemma3n_text",
        kind: ModelKind::Decoder,
        name: "Gemma 3n (language model)",
        derives_from: Some("gemma3_text"),
        summary: "The language model of Google's Gemma 3n (2025), built for phones: Gemma 3's layers with per-layer embeddings, AltUp (the hidden state kept as several predicted and corrected copies), LAuReL low-rank residuals and sparse activations in the first layers; the last layers reuse an earlier layer's keys and values.",
        resolve: Some(gemma3n),
    },
    FamilyInfo {
        key: "dory",
        kind: ModelKind::Decoder,
        name: "Dory",
        derives_from: Some("llama"),
        summary: "A looped decoder (2026) in the style of nGPT: every hidden state normalised to the unit sphere with learned per-channel scales and step sizes, gated attention, and a block of middle layers run several times over before the output layers.",
        resolve: Some(dory),
    },
];
