//! The families of helper txb's types: GPT-SW3 (transformers maps `gpt-sw3` onto GPT-2's config
//! and classes, so it is read and built as GPT-2).

use super::{FamilyInfo, ModelKind};

pub const FAMILIES: &[FamilyInfo] = &[FamilyInfo {
    key: "gpt-sw3",
    kind: ModelKind::Decoder,
    name: "GPT-SW3",
    derives_from: Some("gpt2"),
    summary: "AI Sweden's GPT-SW3 (2023), for the Nordic languages: GPT-2's layers and classes under its own `model_type`, which transformers maps onto `GPT2Config` with GPT-2's defaults.",
    resolve: Some(super::gpt2),
}];
