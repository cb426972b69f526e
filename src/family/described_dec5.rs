//! The families of the decoders described in `config/spec_dec5.rs`.

use super::FamilyInfo;
use super::described::decoder;

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
];
