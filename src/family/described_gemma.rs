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
];
