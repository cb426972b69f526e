//! The vision-language wrappers, one description each: class prefix, default text and vision
//! types, the `sub_configs_defaults` used when a file has no nested dict, and how the LM head's
//! tie is decided (transformers 5.x `configuration_<type>.py`).

use serde_json::{Value, json};

#[derive(Debug)]
pub struct Wrapper {
    pub model_type: &'static str,
    pub prefix: &'static str,
    pub text_type: &'static str,
    pub vision_type: &'static str,
    /// `sub_configs_defaults` init kwargs, used when the file has no such dict.
    pub text_default: fn() -> Value,
    pub vision_default: fn() -> Value,
    pub tie_default: bool,
    /// Whether the top-level `tie_word_embeddings` is read (Mllama's and Llama 4's heads ignore
    /// it: never tied, or tied by `text_config`'s flag alone).
    pub tie_top: bool,
    /// Pre-5.x files kept `tie_word_embeddings` in `text_config`; LLaVA's and Qwen-VL's configs
    /// forward it to the top level, the others ignore it.
    pub tie_from_text: bool,
    /// Whether the modeling file defines `<X>ForSequenceClassification`.
    pub sequence_classification: bool,
    /// Whether it defines `<X>ForTokenClassification` (a biased `score` per token).
    pub token_classification: bool,
    /// The sub-config class is fixed (Idefics3's `vision_config`): a nested dict's `model_type`
    /// is not read.
    pub vision_fixed: bool,
    /// Likewise for `text_config` (Mllama, Llama 4).
    pub text_fixed: bool,
    /// Whether the modeling file defines the bare `<X>Model` (Llama 4's does not).
    pub bare: bool,
    /// Llama 4: the text type's whole `ForCausalLM` under `language_model.`, head included, and no
    /// `model.` around the wrapper's parts.
    pub text_whole: bool,
    /// Module names under `model.`: the tower, the projector, the language model.
    pub tower: &'static str,
    pub projector: &'static str,
    pub language_model: &'static str,
}

fn empty() -> Value {
    json!({})
}

/// SigLIP-So400m at 384 pixels without its pooling head, as Aya Vision's and LLaVA-OneVision's
/// `sub_configs_defaults` give it (their head counts differ).
fn siglip_so400m_384(heads: u64) -> Value {
    json!({"hidden_size": 1152, "intermediate_size": 4304, "patch_size": 14, "image_size": 384,
           "num_hidden_layers": 26, "num_attention_heads": heads, "vision_use_head": false})
}

/// What most wrappers share; each entry says what differs.
const BASE: Wrapper = Wrapper {
    model_type: "",
    prefix: "",
    text_type: "llama",
    vision_type: "clip_vision_model",
    text_default: empty,
    vision_default: empty,
    tie_default: true,
    tie_top: true,
    tie_from_text: false,
    sequence_classification: false,
    token_classification: false,
    vision_fixed: false,
    text_fixed: false,
    bare: true,
    text_whole: false,
    tower: "vision_tower",
    projector: "multi_modal_projector",
    language_model: "language_model",
};

/// Qwen2-VL: its tower under `visual`, the merger inside it; the text read by `qwen_vl.rs`.
const QWEN2_VL: Wrapper = Wrapper {
    model_type: "qwen2_vl",
    prefix: "Qwen2VL",
    text_type: "qwen2",
    vision_type: "qwen2_vl_vision",
    tie_default: false,
    tie_from_text: true,
    vision_fixed: true,
    tower: "visual",
    projector: "visual.merger",
    ..BASE
};

/// Qwen3-VL and Qwen3.5: Qwen2-VL's layout; the text read by `qwen3_vl.rs`, the head tied by the
/// top-level flag only.
const QWEN3_VL: Wrapper = Wrapper {
    model_type: "qwen3_vl",
    prefix: "Qwen3VL",
    text_type: "qwen3",
    vision_type: "qwen3_vl_vision",
    tie_from_text: false,
    ..QWEN2_VL
};

/// Idefics3 and SmolVLM: `vision_model`, `connector`, `text_model`; the LM head untied.
const IDEFICS3: Wrapper = Wrapper {
    model_type: "idefics3",
    prefix: "Idefics3",
    vision_type: "idefics3_vision",
    tie_default: false,
    vision_fixed: true,
    tower: "vision_model",
    projector: "connector",
    language_model: "text_model",
    ..BASE
};

const LLAVA: Wrapper = Wrapper {
    model_type: "llava",
    prefix: "Llava",
    vision_default: || {
        json!({"intermediate_size": 4096, "hidden_size": 1024, "patch_size": 14, "image_size": 336,
               "num_hidden_layers": 24, "num_attention_heads": 16})
    },
    tie_default: false,
    tie_from_text: true,
    ..BASE
};

pub const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        model_type: "gemma3",
        prefix: "Gemma3",
        text_type: "gemma3_text",
        vision_type: "siglip_vision_model",
        sequence_classification: true,
        ..BASE
    },
    LLAVA,
    Wrapper { model_type: "llava_next", prefix: "LlavaNext", tie_from_text: false, ..LLAVA },
    Wrapper { model_type: "llava_next_video", prefix: "LlavaNextVideo", ..LLAVA },
    Wrapper {
        model_type: "llava_onevision",
        prefix: "LlavaOnevision",
        text_type: "qwen2",
        vision_type: "siglip_vision_model",
        vision_default: || siglip_so400m_384(16),
        ..LLAVA
    },
    Wrapper {
        model_type: "paligemma",
        prefix: "PaliGemma",
        text_type: "gemma",
        vision_type: "siglip_vision_model",
        text_default: || {
            json!({"hidden_size": 2048, "num_hidden_layers": 18, "intermediate_size": 16384,
                   "num_attention_heads": 8, "num_key_value_heads": 1, "vocab_size": 257152})
        },
        vision_default: || {
            json!({"intermediate_size": 4096, "hidden_size": 1152, "patch_size": 14, "image_size": 224,
                   "num_hidden_layers": 27, "num_attention_heads": 16, "vision_use_head": false})
        },
        ..BASE
    },
    Wrapper {
        model_type: "mistral3",
        prefix: "Mistral3",
        text_type: "mistral",
        vision_type: "pixtral",
        text_default: || {
            json!({"head_dim": 128, "hidden_act": "silu", "hidden_size": 5120, "intermediate_size": 32768,
                   "max_position_embeddings": 131072, "num_attention_heads": 32, "num_hidden_layers": 40,
                   "num_key_value_heads": 8, "rms_norm_eps": 1e-05, "rope_theta": 1e9,
                   "sliding_window": null, "vocab_size": 131072})
        },
        vision_default: || {
            json!({"intermediate_size": 4096, "hidden_size": 1024, "patch_size": 14, "image_size": 1540,
                   "num_hidden_layers": 24, "num_attention_heads": 16, "head_dim": 64, "hidden_act": "gelu"})
        },
        ..BASE
    },
    Wrapper {
        model_type: "aya_vision",
        prefix: "AyaVision",
        text_type: "cohere2",
        vision_type: "siglip_vision_model",
        vision_default: || siglip_so400m_384(14),
        ..BASE
    },
    IDEFICS3,
    QWEN2_VL,
    Wrapper {
        model_type: "internvl",
        prefix: "InternVL",
        text_type: "qwen2",
        vision_type: "internvl_vision",
        vision_fixed: true,
        ..BASE
    },
    Wrapper { model_type: "qwen2_5_vl", prefix: "Qwen2_5_VL", vision_type: "qwen2_5_vl_vision", ..QWEN2_VL },
    Wrapper { model_type: "smolvlm", prefix: "SmolVLM", vision_type: "smolvlm_vision", ..IDEFICS3 },
    QWEN3_VL,
    Wrapper {
        model_type: "qwen3_vl_moe",
        prefix: "Qwen3VLMoe",
        text_type: "qwen3_moe",
        vision_type: "qwen3_vl_moe_vision",
        ..QWEN3_VL
    },
    Wrapper {
        model_type: "qwen3_5",
        prefix: "Qwen3_5",
        text_type: "qwen3_5_text",
        vision_type: "qwen3_5_vision",
        sequence_classification: true,
        token_classification: true,
        ..QWEN3_VL
    },
    Wrapper {
        model_type: "qwen3_5_moe",
        prefix: "Qwen3_5Moe",
        text_type: "qwen3_5_moe_text",
        vision_type: "qwen3_5_moe_vision",
        ..QWEN3_VL
    },
    MLLAMA,
    Wrapper {
        model_type: "llama4",
        prefix: "Llama4",
        text_type: "llama4_text",
        vision_type: "llama4_vision_model",
        tie_from_text: true,
        bare: false,
        text_whole: true,
        ..MLLAMA
    },
];

/// Llama 3.2 Vision: `vision_model`, `multi_modal_projector`, `language_model`; both sub-configs'
/// classes fixed; the LM head never tied (its `_tied_weights_keys` is commented out).
const MLLAMA: Wrapper = Wrapper {
    model_type: "mllama",
    prefix: "Mllama",
    text_type: "mllama_text_model",
    vision_type: "mllama_vision_model",
    tie_default: false,
    tie_top: false,
    vision_fixed: true,
    text_fixed: true,
    tower: "vision_model",
    ..BASE
};

pub fn wrapper(model_type: &str) -> Option<&'static Wrapper> {
    WRAPPERS.iter().find(|w| w.model_type == model_type)
}
