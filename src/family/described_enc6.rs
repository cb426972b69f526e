//! The families of issue 10's enc6 types: rows of the BERT lineage
//! (`config/encoders/table_enc6.rs`, read through `encoders::finish_enc6`), and OpenAI's
//! privacy filter, a bidirectional gpt-oss described as a table (`config/spec_enc6.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn enc6(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::encoders::finish_enc6(v, c))
}

fn privacy_filter(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::spec_enc6::PrivacyFilter::resolve(v, c))
}

fn funnel(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    // Heads x d_head is free of d_model: a product past u64 is refused, not counted.
    super::scaled(crate::config::funnel::FunnelConfig::resolve(v, c), "block_sizes")
}

fn xlm(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::scaled(crate::config::xlm::XlmConfig::resolve(v, c), "n_layers")
}

fn xlnet(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::scaled(crate::config::xlnet::XlnetConfig::resolve(v, c), "n_layer")
}

const fn row(key: &'static str, name: &'static str, from: &'static str, summary: &'static str) -> FamilyInfo {
    FamilyInfo { key, name, derives_from: Some(from), summary, kind: ModelKind::Encoder, resolve: Some(enc6) }
}

pub const FAMILIES: &[FamilyInfo] = &[
    row(
        "fnet",
        "FNet",
        "bert",
        "Google's FNet (Lee-Thorp et al., 2021): BERT's embeddings and MLPs with each attention sublayer replaced by an unparameterised 2-D Fourier transform, for faster training at most of BERT's accuracy.",
    ),
    row(
        "splinter",
        "Splinter",
        "bert",
        "Tel Aviv University's Splinter (Ram et al., 2021): BERT pre-trained by recurring span selection for few-shot question answering, its question-aware span selection head built on the [QUESTION] tokens' states.",
    ),
    row(
        "tapas",
        "TAPAS",
        "bert",
        "Google's TAPAS (Herzig et al., 2020): BERT over flattened tables, seven token-type tables (segment, column, row, ranks, numeric relations) in place of one, and heads that select cells and aggregate them.",
    ),
    row(
        "luke",
        "LUKE",
        "roberta",
        "Studio Ousia's LUKE (Yamada et al., 2020): RoBERTa with entities as tokens beside words, an entity table of 500,000, entity-aware self-attention, and classifiers over entities, entity pairs and spans.",
    ),
    FamilyInfo {
        key: "funnel",
        name: "Funnel Transformer",
        derives_from: Some("bert"),
        summary: "CMU and Google's Funnel Transformer (Dai et al., 2020): blocks of relative-attention layers that pool the sequence by half before each block after the first, with a short full-length decoder for token-level heads.",
        kind: ModelKind::Encoder,
        resolve: Some(funnel),
    },
    FamilyInfo {
        key: "xlm",
        name: "XLM",
        derives_from: Some("bert"),
        summary: "Facebook's XLM (Lample and Conneau, 2019): cross-lingual language-model pre-training with BPE shared across languages, optional language embeddings, and post-LN layers of four times the width.",
        kind: ModelKind::Encoder,
        resolve: Some(xlm),
    },
    FamilyInfo {
        key: "flaubert",
        name: "FlauBERT",
        derives_from: Some("xlm"),
        summary: "FlauBERT (Le et al., 2020): XLM's architecture trained on French text, with optional pre-norm layers and layer drop.",
        kind: ModelKind::Encoder,
        resolve: Some(xlm),
    },
    FamilyInfo {
        key: "xlnet",
        name: "XLNet",
        derives_from: Some("xlm"),
        summary: "CMU and Google's XLNet (Yang et al., 2019): permutation language modelling with two-stream relative attention (Transformer-XL's relative positions and segment biases), and XLM's summary and SQuAD heads.",
        kind: ModelKind::Encoder,
        resolve: Some(xlnet),
    },
];

/// The privacy filter is read by the described decoders' reader (`config/spec.rs`), which the
/// planner's part A holds (`family::TABLES`): its own table, so part B need not.
pub const SPEC_FAMILIES: &[FamilyInfo] = &[FamilyInfo {
    key: "openai_privacy_filter",
    name: "OpenAI Privacy Filter",
    derives_from: Some("gpt_oss"),
    summary: "OpenAI's privacy filter (2026): gpt-oss's layers (128 experts, top four, attention sinks) made bidirectional over a 128-token window, tagging personal data in eight categories token by token.",
    kind: ModelKind::Encoder,
    resolve: Some(privacy_filter),
}];
