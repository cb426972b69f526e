//! The families of the one-of-a-kind encoder-decoders and decoders (`config/seq2seq_misc.rs`,
//! `config/spec_misc.rs`), each with its own resolver.

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn bigbird_pegasus(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::seq2seq_misc::BigBirdPegasusConfig::resolve(v, c))
}

fn encoder_decoder(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::encoder_decoder::EncoderDecoderConfig::resolve(v, c))
}

fn cpmant(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::cpmant::CpmAntConfig::resolve(v, c))
}

fn hrm_text(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::hrm_text::HrmTextConfig::resolve(v, c))
}

const fn family(
    key: &'static str,
    name: &'static str,
    derives_from: &'static str,
    kind: ModelKind,
    resolve: super::Resolver,
    summary: &'static str,
) -> FamilyInfo {
    FamilyInfo { key, name, derives_from: Some(derives_from), summary, kind, resolve: Some(resolve) }
}

pub const FAMILIES: &[FamilyInfo] = &[
    family(
        "encoder-decoder",
        "Encoder-decoder (composed)",
        "bert",
        ModelKind::EncoderDecoder,
        encoder_decoder,
        "transformers' generic EncoderDecoderModel: any encoder (BERT2BERT's by default) joined to a decoder with cross-attention added to each layer (Rothe et al., 2020).",
    ),
    family(
        "bigbird_pegasus",
        "BigBird-Pegasus",
        "pegasus",
        ModelKind::EncoderDecoder,
        bigbird_pegasus,
        "Pegasus with BigBird's block-sparse attention (window, global and random blocks) in the encoder, for 4k-token inputs: pre-LayerNorm stacks, learned positions (Zaheer et al., 2020).",
    ),
    family(
        "cpmant",
        "CPM-Ant",
        "t5",
        ModelKind::Decoder,
        cpmant,
        "OpenBMB's CPM-Ant 10B Chinese language model: pre-norm layers with bias-free projections, a gated GELU feed-forward, a relative-position bias over distance buckets and segment pairs shared by all layers, and learned prompt rows in the input table.",
    ),
    family(
        "hrm_text",
        "HRM-Text",
        "llama",
        ModelKind::Decoder,
        hrm_text,
        "Sapient's hierarchical reasoning model for text: a low-level and a high-level stack of gated-attention Llama-style layers with weightless RMS norms, looped H_cycles x (L_cycles + 1) times per token.",
    ),
];
