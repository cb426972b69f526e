//! The families of ModernBERT and its relatives (`config/modernbert.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn modernbert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::modernbert::ModernBertConfig::resolve(v, c), "hidden_size")
}

fn eurobert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::eurobert::EuroBertConfig::resolve(v, c), "hidden_size")
}

fn mobilebert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::mobilebert::MobileBertConfig::resolve(v, c), "hidden_size")
}

fn modernvbert(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::modernvbert::ModernVBertConfig::resolve(v, c), "text_config.hidden_size")
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "modernbert",
        kind: ModelKind::Encoder,
        name: "ModernBERT",
        derives_from: Some("bert"),
        summary: "Answer.AI's and LightOn's ModernBERT (Warner et al., 2024): a BERT-style encoder rebuilt with pre-LN layers, a fused bias-free QKV projection, rotary positions, a GeGLU MLP and global attention every third layer with 128-token local attention between, for 8k-token inputs.",
        resolve: Some(modernbert),
    },
    FamilyInfo {
        key: "modernbert-decoder",
        kind: ModelKind::Decoder,
        name: "ModernBERT decoder",
        derives_from: Some("modernbert"),
        summary: "ModernBERT's layers made causal (the Ettin decoders, 2025): separate query, key and value projections, a GeGLU MLP, global attention every third layer and sliding-window attention between, and ModernBERT's prediction head before the tied output layer.",
        resolve: Some(modernbert),
    },
    FamilyInfo {
        key: "eurobert",
        kind: ModelKind::Encoder,
        name: "EuroBERT",
        derives_from: Some("llama"),
        summary: "EuroBERT (Boizard et al., 2025): Llama's layers made bidirectional (RMSNorm, grouped-query attention with rotary positions, a gated SiLU MLP) as a multilingual encoder for European languages, with masked-LM and classification heads, for 8k-token inputs.",
        resolve: Some(eurobert),
    },
    FamilyInfo {
        key: "ultrabert",
        kind: ModelKind::Encoder,
        name: "UltraBERT",
        derives_from: Some("eurobert"),
        summary: "UltraBERT: EuroBERT's bidirectional Llama layers with local attention on two layers of every three, and a masked-LM head that passes through a narrow two-linear bottleneck before the vocabulary.",
        resolve: Some(eurobert),
    },
    FamilyInfo {
        key: "mobilebert",
        kind: ModelKind::Encoder,
        name: "MobileBERT",
        derives_from: Some("bert"),
        summary: "Google's MobileBERT (Sun et al., 2020): a thin BERT for phones whose layers attend and run four stacked feed-forward networks inside a 128-wide bottleneck between 512-wide residual states, with elementwise NoNorm instead of LayerNorm and 128-wide word embeddings taken over three neighbouring tokens.",
        resolve: Some(mobilebert),
    },
    FamilyInfo {
        key: "modernvbert",
        kind: ModelKind::Encoder,
        name: "ModernVBERT",
        derives_from: Some("modernbert"),
        summary: "ModernVBERT (Teiletche et al., 2025): a SigLIP vision tower whose patch states are pixel-shuffled and projected into a ModernBERT encoder, so images and text share one bidirectional encoder for retrieval and masked-LM training.",
        resolve: Some(modernvbert),
    },
    FamilyInfo {
        key: "ultravbert",
        kind: ModelKind::Encoder,
        name: "UltraVBERT",
        derives_from: Some("ultrabert"),
        summary: "UltraVBERT: ModernVBERT's recipe over UltraBERT: a SigLIP tower without its pooling head, pixel-shuffled patches projected and RMS-normalised into UltraBERT's bidirectional Llama-style encoder.",
        resolve: Some(modernvbert),
    },
];
