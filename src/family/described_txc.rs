//! Families of helper txc's types: the audio-language models (`config/audio_lm.rs`) and the
//! Byte Latent Transformer (`config/blt.rs`), Moshi's text decoder (`config/moshi.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn audio_lm(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::audio_lm::AudioLmConfig::resolve(v, c), "audio_config.hidden_size")
}

fn blt(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::blt::BltConfig::resolve(v, c), "encoder_hash_byte_group_vocab")
}

fn moshi(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::moshi::MoshiConfig::resolve(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "audioflamingo3",
        name: "Audio Flamingo 3",
        derives_from: Some("qwen2"),
        summary: "NVIDIA's Audio Flamingo 3 (Goel et al., 2025): a Whisper-large-style audio encoder whose frames are average-pooled two to one and projected by a two-layer MLP into a Qwen2 decoder.",
        kind: ModelKind::Decoder,
        resolve: Some(audio_lm),
    },
    FamilyInfo {
        key: "musicflamingo",
        name: "Music Flamingo",
        derives_from: Some("audioflamingo3"),
        summary: "NVIDIA's Music Flamingo (2025): Audio Flamingo 3's encoder, projector and Qwen2 decoder, with rotary time embeddings (no weights) on the audio tokens, tuned for music understanding.",
        kind: ModelKind::Decoder,
        resolve: Some(audio_lm),
    },
    FamilyInfo {
        key: "blt",
        name: "Byte Latent Transformer",
        derives_from: None,
        summary: "Meta's Byte Latent Transformer (Pagnoni et al., 2024): bytes embedded with hashed n-gram tables, grouped into patches where a small entropy model predicts a hard next byte, a local encoder cross-attending them into patch states, a large global transformer over the patches, and a local decoder cross-attending back to predict bytes.",
        kind: ModelKind::Decoder,
        resolve: Some(blt),
    },
    FamilyInfo {
        key: "moshi",
        name: "Moshi",
        derives_from: None,
        summary: "Kyutai's Moshi (Défossez et al., 2024): a full-duplex speech-text model whose 7B text decoder (planned here) predicts an inner-monologue text token per frame, beside a small depth transformer over the Mimi codec's audio codebooks.",
        kind: ModelKind::Decoder,
        resolve: Some(moshi),
    },
];

/// This branch's types the planner cannot yet say exactly, with why (read by `not_yet`).
pub const NOT_YET: &[(&str, &str)] = &[];
