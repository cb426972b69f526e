//! The families of the decoders described in `config/spec_dec5.rs`.

use serde_json::Value;

use super::described::decoder;
use super::{FamilyInfo, ModelKind, scaled};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn zaya(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    scaled(crate::config::zaya::ZayaConfig::resolve(v, c), "num_experts")
}

pub const FAMILIES: &[FamilyInfo] = &[
    decoder(
        "axk1",
        "A.X K1",
        "deepseek_v3",
        "SK Telecom's A.X K1 (2026): DeepSeek-V3's latent attention and routed experts with a shared expert behind a bias-corrected router, an RMSNorm on the experts' output; layer 0 dense.",
    ),
    decoder(
        "lara_mini",
        "Lara Mini",
        "qwen3_next",
        "A hybrid mixture of experts (2026): Qwen3.5's Gated DeltaNet on two layers of five, Qwen3's attention with q/k norms on the others (sliding or full by `layer_types`), 128 stacked experts and an ungated shared expert in every layer.",
    ),
    decoder(
        "mimo_v2_flash",
        "MiMo-V2-Flash",
        "deepseek_v3",
        "Xiaomi's MiMo-V2-Flash (2025): grouped attention with values narrower than queries and keys, sliding-window layers with twice the key/value heads and a learned sink per head, full attention on the first layer and every sixth; DeepSeek-V3's routed experts without a shared one, the first layer dense.",
    ),
    decoder(
        "laguna",
        "Laguna",
        "qwen3_moe",
        "Poolside's Laguna (2026): Qwen3's attention with per-head q/k norms, its query heads set per layer and a softplus output gate per head or per channel; routed experts with a shared expert behind a bias-corrected router, the first layer dense.",
    ),
    decoder(
        "longcat_flash",
        "LongCat-Flash",
        "deepseek_v3",
        "Meituan's LongCat-Flash (2025): each layer runs two of DeepSeek-V3's latent attentions and two dense MLPs in turn, with one mixture of experts beside the first MLP whose router also picks zero-computation (identity) experts.",
    ),
    decoder(
        "axk2",
        "A.X K2",
        "deepseek_v32",
        "SK Telecom's A.X K2 (2026): DeepSeek-V3.2's latent attention with its indexer and its routed and shared experts, the query up-projection also making an output gate, and the norms before attention and before the experts gated by a low-rank MLP.",
    ),
    decoder(
        "minimax_m3_vl_text",
        "MiniMax-M3 (text)",
        "minimax_m2",
        "MiniMax-M3's language model (2026): grouped attention with per-head q/k norms and a block-sparse lightning indexer on the sparse-attention layers; a sigmoid router over stacked experts beside a shared expert, dense layers a fused gated MLP.",
    ),
    decoder(
        "dots3_note_text",
        "dots.3 note (text)",
        "deepseek_v32",
        "rednote's dots.3 note language model (2026): DeepSeek's latent attention with a gate per head, DeepSeek-V3.2's indexer on its full layers and smaller latents on its sliding-window layers; routed experts behind a corrected router with a shared expert, the first layer dense.",
    ),
    decoder(
        "hy_v4",
        "HY V4",
        "glm_moe_dsa",
        "Tencent's HY V4 (2026): GLM-5's latent attention and indexer with an output gate and a sink per head, routed and shared experts, and DeepSeek-V4's hyper-connections keeping the residual stream as several mixed copies.",
    ),
    FamilyInfo {
        key: "zaya",
        name: "ZAYA",
        derives_from: Some("qwen3_moe"),
        summary: "Zyphra's ZAYA1 (2025): compressed convolutional attention (queries and keys through a depthwise and a grouped causal convolution, values half from the previous token), learned residual scaling, and a router MLP choosing one expert or none.",
        kind: ModelKind::Decoder,
        resolve: Some(zaya),
    },
];
