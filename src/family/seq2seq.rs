//! The families of the encoder-decoder types described in `config/seq2seq.rs` (BART's lineage),
//! each planned by the one BART resolver.

use serde_json::Value;

use super::{FamilyInfo, ModelKind};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn bart_like(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::boxed(crate::config::bart::BartConfig::resolve(v, c))
}

/// The T5 lineage (`config/t5_types.rs`).
fn t5_like(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::boxed(crate::config::t5::T5Config::resolve(v, c))
}

fn nllb_moe(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::boxed(crate::config::nllb_moe::NllbMoeConfig::resolve(v, c))
}

fn fsmt(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::boxed(crate::config::fsmt::FsmtConfig::resolve(v, c))
}

fn pegasus_x(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::boxed(crate::config::pegasus_x::PegasusXConfig::resolve(v, c))
}

/// A described decoder's family, filed as an encoder-decoder planned by the BART resolver.
const fn seq2seq(
    key: &'static str,
    name: &'static str,
    derives_from: &'static str,
    summary: &'static str,
) -> FamilyInfo {
    FamilyInfo {
        kind: ModelKind::EncoderDecoder,
        resolve: Some(bart_like),
        ..super::described::decoder(key, name, derives_from, summary)
    }
}

pub const FAMILIES: &[FamilyInfo] = &[
    seq2seq(
        "mbart",
        "mBART",
        "bart",
        "BART pre-trained on 25 (later 50) languages, with pre-LayerNorm layers and a LayerNorm closing each stack (Liu et al., 2020).",
    ),
    seq2seq(
        "plbart",
        "PLBART",
        "bart",
        "BART's architecture pre-trained on Java, Python and English for code summarisation, generation and translation (Ahmad et al., 2021).",
    ),
    seq2seq(
        "marian",
        "Marian",
        "bart",
        "The Marian NMT translation models (OPUS-MT): BART-style post-LayerNorm layers with fixed sinusoidal positions and no embedding norm (Junczys-Dowmunt et al., 2018).",
    ),
    seq2seq(
        "pegasus",
        "Pegasus",
        "bart",
        "Summarisation encoder-decoder pre-trained by gap-sentence generation: pre-LayerNorm layers, fixed sinusoidal positions (Zhang et al., 2019).",
    ),
    seq2seq(
        "m2m_100",
        "M2M-100",
        "mbart",
        "Many-to-many translation between 100 languages (and NLLB-200's dense models): pre-LayerNorm layers, sinusoidal positions in a buffer (Fan et al., 2020).",
    ),
    seq2seq(
        "blenderbot",
        "Blenderbot",
        "bart",
        "Facebook's open-domain chatbot: a shallow encoder, a deep decoder, pre-LayerNorm layers and learned positions (Roller et al., 2020).",
    ),
    seq2seq(
        "blenderbot-small",
        "Blenderbot Small",
        "blenderbot",
        "The 90M-parameter Blenderbot: BART-style post-LayerNorm layers with an embedding norm and learned positions without offset (Roller et al., 2020).",
    ),
    seq2seq(
        "mvp",
        "MVP",
        "bart",
        "BART pre-trained with multi-task supervision for text generation, with optional task prompts in the decoder (Tang et al., 2022).",
    ),
    seq2seq(
        "led",
        "LED",
        "bart",
        "Longformer-Encoder-Decoder: BART with Longformer's sliding-window and global attention in the encoder, for inputs of 16k tokens (Beltagy et al., 2020).",
    ),
    FamilyInfo {
        resolve: Some(t5_like),
        ..seq2seq(
            "longt5",
            "LongT5",
            "t5",
            "T5 for long inputs: the encoder attends within local windows, or also to transient global summaries of blocks of tokens (Guo et al., 2021).",
        )
    },
    FamilyInfo {
        resolve: Some(t5_like),
        ..seq2seq(
            "switch_transformers",
            "Switch Transformers",
            "t5",
            "T5 with a mixture of experts in every few feed-forward layers, each token routed to one expert (Fedus et al., 2021).",
        )
    },
    FamilyInfo {
        resolve: Some(nllb_moe),
        ..seq2seq(
            "nllb-moe",
            "NLLB-MoE",
            "m2m_100",
            "NLLB-200's 54B mixture of experts: M2M-100's pre-LayerNorm stacks with a top-2 mixture of experts in every fourth feed-forward (NLLB Team, 2022).",
        )
    },
    FamilyInfo {
        resolve: Some(fsmt),
        ..seq2seq(
            "fsmt",
            "FSMT",
            "bart",
            "fairseq's WMT19 translation transformers: post-LayerNorm layers, separate source and target tables and sinusoidal positions (Ng et al., 2019).",
        )
    },
    FamilyInfo {
        resolve: Some(pegasus_x),
        ..seq2seq(
            "pegasus_x",
            "PEGASUS-X",
            "pegasus",
            "Pegasus extended to 16k-token inputs: block-local encoder attention with global tokens, bias-free attention projections (Phang et al., 2022).",
        )
    },
];
