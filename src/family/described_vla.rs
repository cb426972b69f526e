//! The families of Llama 3.2 Vision (`mllama`) and Llama 4 (`llama4`): vision-language wrappers
//! (`config/wrappers.rs`) whose `<X>ForCausalLM` class plans the text model alone
//! (`config/mllama.rs`).

use serde_json::Value;

use super::{FamilyInfo, ModelKind};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn meta_vision(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    let a = crate::config::mllama::resolve(v, c, super::composite)?;
    // The text model alone is checked here; the wrapper was by `composite`.
    crate::graph::ssm::check_scale(&a.graph(1), "text_config.hidden_size")?;
    Ok(a)
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "mllama",
        name: "Llama 3.2 Vision",
        derives_from: Some("llama"),
        summary: "Meta's Llama 3.2 Vision (2024): a two-stage ViT over up to four image tiles (a local encoder, then a global one with gated layers), whose patch states a Llama 3.1 decoder reads through gated cross-attention layers inserted among its own; an image is one token in the text.",
        kind: ModelKind::Decoder,
        resolve: Some(meta_vision),
    },
    FamilyInfo {
        key: "llama4",
        name: "Llama 4 (vision)",
        derives_from: Some("llama4_text"),
        summary: "Meta's Llama 4 (2025), natively multimodal: a ViT over 336-pixel tiles whose patches are pixel-shuffled 2x2 through an MLP adapter and projected into the Llama 4 mixture-of-experts decoder, as tokens among the text.",
        kind: ModelKind::Decoder,
        resolve: Some(meta_vision),
    },
];
