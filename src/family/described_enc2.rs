//! The families of the encoder types added beside the BERT lineage's rows (`config/encoders.rs`)
//! and the DeBERTa builder (`config/deberta_v2.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed, encoder};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn deberta(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::deberta_v2::DebertaV2Config::resolve_v1(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "deberta",
        kind: ModelKind::Encoder,
        name: "DeBERTa",
        derives_from: Some("bert"),
        summary: "Microsoft's DeBERTa (He et al., 2020): disentangled attention over content and relative positions, q, k and v fused in one projection, an enhanced mask decoder; v2 and v3 build on it.",
        resolve: Some(deberta),
    },
    encoder(
        "longformer",
        "Longformer",
        "roberta",
        "AllenAI's Longformer (Beltagy et al., 2020): RoBERTa with sliding-window attention for documents of 4,096 tokens, and separate query, key and value projections for the tokens that attend globally.",
    ),
    encoder(
        "big_bird",
        "BigBird",
        "bert",
        "Google's BigBird (Zaheer et al., 2020): BERT's layers with block-sparse attention (window, global and random blocks) for sequences of 4,096 tokens; BERT's masked-LM head, RoBERTa's classifier, an MLP before the QA outputs.",
    ),
];
