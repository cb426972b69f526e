//! The families of the Mamba-2 hybrids described in `config/spec_hybrid.rs`, Kimi Linear and
//! LFM2 (`config/spec_linear.rs`).

use serde_json::Value;

use super::described::decoder;
use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn zamba(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::zamba::ZambaConfig::resolve(v, c), "num_hidden_layers")
}

fn zamba2(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::zamba2::Zamba2Config::resolve(v, c), "num_hidden_layers")
}

pub const FAMILIES: &[FamilyInfo] = &[
    decoder(
        "bamba",
        "Bamba",
        "mamba2",
        "IBM's Bamba (2024): Mamba-2 layers with a few attention layers among them (`attn_layer_indices`), each followed by a gated MLP; serving keeps a KV cache for the attention layers and a fixed state for the rest.",
    ),
    decoder(
        "granitemoehybrid",
        "Granite 4.0",
        "granitemoeshared",
        "IBM's Granite 4.0 (2025): Mamba-2 layers with attention on a few (`layer_types`), each followed by Granite's routed experts and the shared MLP beside them.",
    ),
    decoder(
        "falcon_h1",
        "Falcon-H1",
        "mamba2",
        "TII's Falcon-H1 (2025): attention and a Mamba-2 mixer side by side in every layer, their outputs added, then a gated MLP; serving keeps both a KV cache and a fixed state for every layer.",
    ),
    decoder(
        "nemotron_h",
        "Nemotron-H",
        "mamba2",
        "NVIDIA's Nemotron-H and Nemotron 3 (2025): each layer one block, Mamba-2, attention, a ReLU² MLP or non-gated routed experts with a shared expert, in the order `hybrid_override_pattern` spells.",
    ),
    decoder(
        "kimi_linear",
        "Kimi Linear",
        "deepseek_v3",
        "Moonshot AI's Kimi Linear (2025): Kimi Delta Attention (a gated delta rule with a decay per channel, a recurrent state, no KV cache) on three layers of four, latent attention on the rest, a dense first layer, then routed experts with a shared one.",
    ),
    decoder(
        "lfm2",
        "LFM2",
        "llama",
        "Liquid AI's LFM2 (2025): gated short convolutions (a window of three tokens, no KV cache) on most layers, grouped attention with per-head q/k norms on the rest, each followed by a gated MLP.",
    ),
    decoder(
        "lfm2_moe",
        "LFM2 MoE",
        "lfm2",
        "Liquid AI's LFM2 mixtures of experts (2025): LFM2's short convolutions and attention, two dense layers, then 32 stacked experts (4 per token) behind a sigmoid router.",
    ),
    decoder(
        "olmo_hybrid",
        "OLMo Hybrid",
        "olmo3",
        "Ai2's OLMo Hybrid (2025): Gated DeltaNet linear attention (a recurrent state, no KV cache) on three layers of four, OLMo 3's post-norm attention with q/k norms on the rest, each followed by a gated MLP.",
    ),
    decoder(
        "bailing_hybrid",
        "Ling 3",
        "kimi_linear",
        "inclusionAI's Ling 3 (2026): delta attention with full-rank forget and output gates (a recurrent state, no KV cache) on five layers of six, latent attention with a sigmoid gate per head on the sixth, two dense layers, then routed experts with a shared one.",
    ),
    FamilyInfo {
        key: "zamba",
        kind: ModelKind::Decoder,
        name: "Zamba",
        derives_from: Some("mamba"),
        summary: "Zyphra's Zamba (2024): multi-head Mamba layers throughout, with one transformer block whose weights are shared by every sixth layer (its input the hidden state beside the original embeddings), each use projected by a linear of its own; serving keeps a KV cache per use of the shared block and a fixed state per Mamba layer.",
        resolve: Some(zamba),
    },
    FamilyInfo {
        key: "zamba2",
        kind: ModelKind::Decoder,
        name: "Zamba2",
        derives_from: Some("zamba"),
        summary: "Zyphra's Zamba2 (2024): Mamba-2 layers throughout, with one or two shared transformer blocks taking turns every sixth layer or so, each use adding its own low-rank adapter to the shared MLP (and attention) and its own linear; serving keeps a KV cache per use of a shared block and a fixed state per Mamba-2 layer.",
        resolve: Some(zamba2),
    },
];
