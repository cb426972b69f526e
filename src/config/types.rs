//! Model types of the Llama lineage as descriptions: each type is one entry of [`TYPES`] that
//! says what its config class reads (the keys, with the class's defaults), what its classes are
//! called, and which blocks it stacks with which switches (biases, q/k norms, norm placement,
//! fused projections). Nothing else: the reading, the checks, the graph, the memory and the page
//! follow from the entry. How to add one is in the README ("Adding a model type").
//!
//! Defaults are those of transformers' `configuration_<type>.py` (4.57.1 for the types planned
//! before, 5.x for the ones added since; they agree on every key listed here).

mod added;
mod desc;
mod gemma_phi_deepseek;
mod mistral_qwen;

pub use desc::*;

/// Every described type, one line each: a new type is a `TypeDesc` constant in a file of this
/// folder and its line here.
pub const TYPES: &[TypeDesc] = &[
    LLAMA_TYPE,
    mistral_qwen::MISTRAL_TYPE,
    mistral_qwen::MIXTRAL_TYPE,
    mistral_qwen::QWEN2_TYPE,
    mistral_qwen::QWEN2_MOE_TYPE,
    mistral_qwen::QWEN3_TYPE,
    mistral_qwen::QWEN3_MOE_TYPE,
    gemma_phi_deepseek::GEMMA_TYPE,
    gemma_phi_deepseek::GEMMA2_TYPE,
    gemma_phi_deepseek::GEMMA3_TEXT_TYPE,
    gemma_phi_deepseek::PHI3_TYPE,
    gemma_phi_deepseek::DEEPSEEK_V2_TYPE,
    gemma_phi_deepseek::DEEPSEEK_V3_TYPE,
    added::GRANITE_TYPE,
    added::OLMO2_TYPE,
    added::OLMO3_TYPE,
    added::SEED_OSS_TYPE,
    added::SMOLLM3_TYPE,
    added::STARCODER2_TYPE,
    mistral_qwen::MINISTRAL_TYPE,
];

/// The description of a `model_type`, if the lineage has one.
pub fn lookup(model_type: &str) -> Option<&'static TypeDesc> {
    TYPES.iter().find(|t| t.model_type == model_type)
}
