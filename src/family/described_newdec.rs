//! The families of the decoders described in `config/spec_newdec.rs`.

use super::FamilyInfo;
use super::described::decoder;

pub const FAMILIES: &[FamilyInfo] = &[
    decoder(
        "ministral3",
        "Ministral 3",
        "mistral",
        "Mistral AI's Ministral 3 (2025): Mistral's layers at 34 layers of 4096 with a 131k vocabulary, Llama 4's attention scaling over long positions.",
    ),
    decoder(
        "kolibri1",
        "Kolibri 1",
        "qwen3_moe",
        "A mixture of experts (2026) with EXAONE 4's attention (q/k norms, sliding windows on four layers of five), GLM-4's four norms per layer, a bias-corrected sigmoid router and a shared expert.",
    ),
    decoder(
        "mellum",
        "Mellum",
        "qwen3_moe",
        "JetBrains' Mellum (2026): Qwen3-MoE's attention and stacked experts, each layer dense or sparse by `mlp_layer_types`, sliding or full by `layer_types`.",
    ),
    decoder(
        "aria_text",
        "Aria (language model)",
        "llama",
        "Rhymes AI's Aria (2024) language model: Llama's attention, stacked routed experts and shared experts as wide as `moe_num_shared_experts` experts.",
    ),
    decoder(
        "cohere_compass_text",
        "Cohere Compass (language model)",
        "cohere2",
        "Cohere's Compass (2026) language model: Cohere 2's parallel layer (one LayerNorm without bias before attention and the MLP side by side), sliding or full by `layer_types`.",
    ),
    decoder(
        "flint",
        "Flint",
        "qwen2_moe",
        "A mixture of experts (2026): Qwen3-MoE's attention with gpt-oss's learned sinks, sliding windows on most layers, 256 stacked experts and an ungated shared expert, the first two layers dense.",
    ),
    decoder(
        "apertus1p5_text",
        "Apertus 1.5 (language model)",
        "apertus",
        "The Swiss AI Initiative's Apertus 1.5 (2026) language model: Apertus' layers over a vocabulary extended with visual and audio codes, its head optionally pruned to the first `output_vocab_size` rows.",
    ),
    decoder(
        "beam",
        "Beam",
        "qwen3_moe",
        "A mixture of experts (2026): grouped attention with q/k norms and a separate sigmoid gate on its output (`gate_proj`, a bias per head), four norms per layer, 256 stacked experts behind a bias-corrected router after three dense layers.",
    ),
];

/// This area's types the tables cannot yet say exactly, with why (read by `not_yet`): none left.
pub const NOT_YET: &[(&str, &str)] = &[];
