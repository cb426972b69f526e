//! The families of the remaining one-of-a-kind types (`config/reformer.rs`, `prophetnet.rs`,
//! `lxmert.rs`, `perceiver.rs`), each with its own resolver, and those not planned yet, with why.

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn reformer(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::reformer::ReformerConfig::resolve(v, c))
}

fn prophetnet(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::prophetnet::ProphetNetConfig::resolve(v, c))
}

fn lxmert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::lxmert::LxmertConfig::resolve(v, c))
}

fn perceiver(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::perceiver::PerceiverConfig::resolve(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "reformer",
        name: "Reformer",
        derives_from: None,
        summary: "Google's Reformer (Kitaev et al., 2020): reversible layers of LSH or local chunked attention and a feed-forward, two hidden halves joined at the end, axial position embeddings.",
        kind: ModelKind::Decoder,
        resolve: Some(reformer),
    },
    FamilyInfo {
        key: "prophetnet",
        name: "ProphetNet",
        derives_from: Some("bart"),
        summary: "Microsoft's ProphetNet (Qi et al., 2020): a post-LayerNorm encoder-decoder whose decoder predicts the next n tokens at once through n-gram self-attention with relative-position buckets and learned stream embeddings.",
        kind: ModelKind::EncoderDecoder,
        resolve: Some(prophetnet),
    },
    FamilyInfo {
        key: "lxmert",
        name: "LXMERT",
        derives_from: Some("bert"),
        summary: "UNC's LXMERT (Tan and Bansal, 2019): BERT-style language layers, object-relationship layers over detected region features and boxes, and cross-modality layers joining them, pre-trained for visual question answering.",
        kind: ModelKind::Encoder,
        resolve: Some(lxmert),
    },
    FamilyInfo {
        key: "perceiver",
        name: "Perceiver IO",
        derives_from: None,
        summary: "DeepMind's Perceiver IO (Jaegle et al., 2021): a fixed array of learned latents cross-attends to the inputs (here UTF-8 bytes), self-attention layers run over the latents, and a decoder cross-attends from its own output queries.",
        kind: ModelKind::Encoder,
        resolve: Some(perceiver),
    },
];

/// This area's types the planner cannot yet say exactly, with why (read by `not_yet`).
pub const NOT_YET: &[(&str, &str)] = &[];
