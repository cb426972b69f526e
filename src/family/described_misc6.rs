//! The families of the remaining one-of-a-kind types (`config/reformer.rs`, `config/prophetnet.rs`),
//! each with its own resolver, and the one-of-a-kind types not planned yet, with why.

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn reformer(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::reformer::ReformerConfig::resolve(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[FamilyInfo {
    key: "reformer",
    name: "Reformer",
    derives_from: None,
    summary: "Google's Reformer (Kitaev et al., 2020): reversible layers of LSH or local chunked attention and a feed-forward, two hidden halves joined at the end, axial position embeddings.",
    kind: ModelKind::Decoder,
    resolve: Some(reformer),
}];

/// This area's types the planner cannot yet say exactly, with why (read by `not_yet`).
pub const NOT_YET: &[(&str, &str)] = &[];
