//! The families of the encoder types added beside the BERT lineage's rows (`config/encoders.rs`)
//! and the DeBERTa builder (`config/deberta_v2.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn deberta(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::deberta_v2::DebertaV2Config::resolve_v1(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[FamilyInfo {
    key: "deberta",
    kind: ModelKind::Encoder,
    name: "DeBERTa",
    derives_from: Some("bert"),
    summary: "Microsoft's DeBERTa (He et al., 2020): disentangled attention over content and relative positions, q, k and v fused in one projection, an enhanced mask decoder; v2 and v3 build on it.",
    resolve: Some(deberta),
}];
