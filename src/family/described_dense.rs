//! The families of the dense decoders described in `config/spec_llama_like.rs`.

use super::FamilyInfo;
use super::described::decoder;

pub const FAMILIES: &[FamilyInfo] = &[
    decoder(
        "internlm3",
        "InternLM 3",
        "llama",
        "Shanghai AI Lab's InternLM 3 (2025): Llama's layers under Llama's classes, with qkv_bias and bias keys for the projections.",
    ),
    decoder(
        "exaone",
        "EXAONE 3",
        "llama",
        "LG AI Research's EXAONE 3.0 and 3.5 (2024): Llama's layers, which transformers loads through Llama's classes from EXAONE's own key names.",
    ),
    decoder(
        "iquestcoder",
        "IQuest-Coder",
        "llama",
        "IQuest's code models (2025): Llama's layers and classes at 80 layers of 5120.",
    ),
    decoder(
        "cwm",
        "Code World Model",
        "llama",
        "Meta's CWM (2025): Llama's layers with sliding-window attention on three layers of four, the first of each four full.",
    ),
    decoder(
        "helium",
        "Helium",
        "llama",
        "Kyutai's Helium (2025): Llama's layers with an output projection from hidden to hidden.",
    ),
    decoder(
        "apertus",
        "Apertus",
        "llama",
        "The Swiss AI Apertus models (2025): an ungated MLP with the learned xIELU activation, RMSNorm per query and key head.",
    ),
    decoder(
        "hunyuan_v1_dense",
        "Hunyuan (dense)",
        "llama",
        "Tencent's dense Hunyuan models (2025): Llama's layers with RMSNorm per query and key head.",
    ),
    decoder(
        "nemotron",
        "Nemotron",
        "llama",
        "NVIDIA's Nemotron-4 and Minitron (2024): LayerNorm with bias (weight stored minus one), an ungated ReLU² MLP, partial rotary.",
    ),
    decoder(
        "jais2",
        "Jais 2",
        "nemotron",
        "Inception's Jais 2 (2025): LayerNorm with bias, biased projections and an ungated ReLU² MLP.",
    ),
    decoder(
        "hyperclovax",
        "HyperCLOVA X",
        "granite",
        "NAVER's HyperCLOVA X SEED (2025): Granite's layers and multipliers with a further RMSNorm on each sublayer's output.",
    ),
    decoder(
        "granite_swa",
        "Granite (sliding window)",
        "granite",
        "IBM's Granite with sliding-window attention: a learned sink per head, three sliding layers of four.",
    ),
    decoder(
        "olmo",
        "OLMo",
        "llama",
        "AI2's first OLMo (2024): Llama's layers with LayerNorms that have no parameters.",
    ),
    decoder(
        "stablelm",
        "StableLM",
        "llama",
        "Stability AI's StableLM (2023-24): LayerNorm with bias, partial rotary, optional q/k/v biases, per-head q/k LayerNorms and parallel residual.",
    ),
    decoder(
        "nanochat",
        "nanochat",
        "llama",
        "Karpathy's nanochat (2025): norms without parameters, q/k norms, an ungated ReLU² MLP (fc1, fc2).",
    ),
    decoder(
        "bitnet",
        "BitNet b1.58",
        "llama",
        "Microsoft's BitNet b1.58 (2025): Llama's layers with ternary weights, an RMSNorm before the output and down projections, ReLU².",
    ),
    decoder(
        "diffllama",
        "DiffLlama",
        "llama",
        "Differential attention on Llama's layers (2024): two softmax maps subtracted, weighted by four learned lambda vectors per layer.",
    ),
    decoder(
        "vaultgemma",
        "VaultGemma",
        "gemma2",
        "Google's differentially private VaultGemma (2025): Gemma 2's layers without the norms after each sublayer.",
    ),
];
