//! The families of helper txb's types: GPT-SW3 (transformers maps `gpt-sw3` onto GPT-2's config
//! and classes, so it is read and built as GPT-2) and Molmo 2's language model
//! (`config/spec_txb.rs`), NeoMME, an encoder with its own reader (`config/neomme.rs`), and
//! Inkling's and Inkling 2's language models (`config/inkling.rs`, `config/inkling2.rs`).

use serde_json::Value;

use super::described::decoder;
use super::{FamilyInfo, ModelKind};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn inkling_text(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::scaled(crate::config::inkling::InklingTextConfig::resolve(v, c), "n_routed_experts")
}

fn inkling2_text(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::scaled(crate::config::inkling2::Inkling2TextConfig::resolve(v, c), "n_routed_experts")
}

fn neomme(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    super::scaled(crate::config::neomme::NeoMmeConfig::resolve(v, c), "hidden_size")
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "gpt-sw3",
        kind: ModelKind::Decoder,
        name: "GPT-SW3",
        derives_from: Some("gpt2"),
        summary: "AI Sweden's GPT-SW3 (2023), for the Nordic languages: GPT-2's layers and classes under its own `model_type`, which transformers maps onto `GPT2Config` with GPT-2's defaults.",
        resolve: Some(super::gpt2),
    },
    decoder(
        "molmo2_text",
        "Molmo 2 (language model)",
        "qwen3",
        "Ai2's Molmo 2 (2026) language model: Qwen3's layers with biased q/k/v projections, q/k norms per head or (`qk_norm_type: olmo`) over the whole projection, pre- or post-norm by `norm_after`, and `additional_vocab_size` embedding rows for its image tokens.",
    ),
    FamilyInfo {
        key: "neomme",
        kind: ModelKind::Encoder,
        name: "NeoMME",
        derives_from: Some("modernbert"),
        summary: "H company's NeoMME (2026): a bidirectional encoder over text tokens and image patches, with a factorized token embedding, grouped-query attention with parameter-free q/k norms, a sigmoid output gate and exclusive self-attention, value embeddings on its first and last full layers, ReLU² MLPs, and masked-LM or multi-vector retrieval heads.",
        resolve: Some(neomme),
    },
    FamilyInfo {
        key: "inkling_text",
        kind: ModelKind::Decoder,
        name: "Inkling (language model)",
        derives_from: Some("deepseek_v3"),
        summary: "Thinking Machines' Inkling (2026) language model: full and sliding attention layers with their own head counts, a learned relative-position bias mixed per token, short causal convolutions over keys, values and both sublayers' outputs, and routed experts beside shared experts the router also scores.",
        resolve: Some(inkling_text),
    },
    FamilyInfo {
        key: "inkling2_text",
        kind: ModelKind::Decoder,
        name: "Inkling 2 (language model)",
        derives_from: Some("inkling_text"),
        summary: "Thinking Machines' Inkling 2 (2026) language model: Inkling's full and sliding layers, every one routed experts, with learned scales and L2 clipping on queries and relative states, a sink and a sigmoid output gate per head, dynamic short convolutions on the full layers' keys and values, and attention residuals over blocks of layers.",
        resolve: Some(inkling2_text),
    },
    FamilyInfo {
        key: "inkling2_loop_text",
        kind: ModelKind::Decoder,
        name: "Inkling 2 Loop (language model)",
        derives_from: Some("inkling2_text"),
        summary: "Thinking Machines' Inkling 2 Loop (Inkling-2-Mini, 2026) language model: Inkling 2's layers, a range of them run several times with the same weights, each looped layer mixing in messages from the previous pass through low-rank forget and message gates.",
        resolve: Some(inkling2_text),
    },
];
