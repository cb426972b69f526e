//! Model types of the Llama lineage as descriptions: each type is one entry of [`TYPES`] that
//! says what its config class reads (the keys, with the class's defaults), what its classes are
//! called, and which blocks it stacks with which switches (biases, q/k norms, norm placement,
//! fused projections). Nothing else: the reading, the checks, the graph, the memory and the page
//! follow from the entry. How to add one is in the README ("Adding a model type").
//!
//! Defaults are those of transformers' `configuration_<type>.py` (4.57.1 for the types planned
//! before, 5.x for the ones added since; they agree on every key listed here).

use serde::Serialize;

/// The rule set a type shares with the family it was derived from, for what a description cannot
/// say in one switch: how its mixture of experts is laid out, which layers slide, how a zero
/// `head_dim` reads. A new type without experts or per-layer patterns takes `Llama`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Llama,
    Mistral,
    Mixtral,
    Qwen2,
    Qwen2Moe,
    Qwen3,
    Qwen3Moe,
    Gemma,
    Gemma2,
    Gemma3Text,
    Phi3,
    DeepseekV2,
    DeepseekV3,
}

/// A config class's defaults for the keys the types share; `None` where the class leaves the key
/// unset (`num_key_value_heads` then follows the heads, `head_dim` is hidden / heads).
#[derive(Debug, Clone, Copy)]
pub struct Defaults {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_hidden_layers: u64,
    pub num_attention_heads: u64,
    pub num_key_value_heads: Option<u64>,
    pub head_dim: Option<u64>,
    pub max_position_embeddings: u64,
    pub rms_norm_eps: f64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub hidden_act: &'static str,
    pub rope_theta: f64,
}

/// `LlamaConfig()`'s defaults, which most types start from.
pub const LLAMA: Defaults = Defaults {
    vocab_size: 32000,
    hidden_size: 4096,
    intermediate_size: 11008,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    num_key_value_heads: None,
    head_dim: None,
    max_position_embeddings: 2048,
    rms_norm_eps: 1e-6,
    tie_word_embeddings: false,
    pad_token_id: None,
    hidden_act: "silu",
    rope_theta: 10000.0,
};

/// Whether a projection has a bias: read from a key (with the class's default), or fixed by the
/// modeling code.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bias {
    Key(&'static str, bool),
    Fixed(bool),
}

/// Where the layer's norms sit around its two sublayers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Norms {
    /// `input_layernorm` before attention, `post_attention_layernorm` before the MLP (Llama).
    Pre,
    /// Before and after both sublayers (Gemma 2 and 3).
    Sandwich,
    /// After each sublayer, before its residual add (OLMo 2).
    Post,
}

/// Where a block's query and key norms sit, when it has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QkNorm {
    None,
    /// RMSNorm over `head_dim`, shared by every head (Qwen3, Gemma 3).
    PerHead,
    /// RMSNorm over all query (key) heads together (OLMo 2).
    Full,
}

/// The norm a layer normalises with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NormKind {
    Rms,
    /// `nn.LayerNorm` with weight and bias (StarCoder2).
    LayerNorm,
}

/// The MLP a layer uses where it has no experts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MlpKind {
    /// `gate_proj`, `up_proj`, `down_proj` (or Phi-3's fused `gate_up_proj`).
    Gated,
    /// Up, activation, down, no gate (StarCoder2's `c_fc`, `c_proj`).
    Plain { up: &'static str, down: &'static str },
}

/// The head classes a type's modeling file defines besides `Model` and `ForCausalLM`.
#[derive(Debug, Clone, Copy)]
pub struct Heads {
    pub sequence: bool,
    pub token: bool,
    pub qa: bool,
    /// Llama's and Qwen's question answering keep the decoder under `transformer.`.
    pub qa_under_transformer: bool,
}

const ALL_HEADS: Heads = Heads { sequence: true, token: true, qa: true, qa_under_transformer: false };
const LM_ONLY: Heads = Heads { sequence: false, token: false, qa: false, qa_under_transformer: false };

/// One model type, described.
#[derive(Debug, Clone, Copy)]
pub struct TypeDesc {
    pub model_type: &'static str,
    /// The prefix of its class names (`Qwen2Moe` in `Qwen2MoeForCausalLM`).
    pub classes: &'static str,
    /// The bare model class, planned when the file names none.
    pub base_class: &'static str,
    pub heads: Heads,
    pub rules: Family,
    /// Keys its config class reads beyond [`SHARED_KEYS`]. A key not listed is never read, so its
    /// type is never checked, as transformers never looks at it.
    pub keys: &'static [&'static str],
    pub defaults: Defaults,
    pub qkv_bias: Bias,
    pub o_bias: Bias,
    pub qk_norm: QkNorm,
    /// Phi-3's fused `qkv_proj` and `gate_up_proj`.
    pub fused: bool,
    pub norms: Norms,
    /// Gemma's RMSNorm scales by (1 + weight) and its embeddings by sqrt(hidden).
    pub gemma_norm: bool,
    pub norm: NormKind,
    pub mlp: MlpKind,
    /// The MLP's bias; a key the type does not list leaves it off.
    pub mlp_bias: Bias,
    /// Sliding-window layers with a full-attention one every `period` layers, unless the file's
    /// `layer_types` says otherwise; the window is `sliding_window` (default 4096). None: the
    /// rule set decides.
    pub window_period: Option<u64>,
}

/// Keys every type's class reads (the attention reads `head_dim` with `getattr`).
pub const SHARED_KEYS: &[&str] = &[
    "vocab_size",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "head_dim",
    "max_position_embeddings",
    "rms_norm_eps",
    "tie_word_embeddings",
    "pad_token_id",
    "rope_theta",
];

const ATTENTION_BIAS: Bias = Bias::Key("attention_bias", false);

/// Llama's description, which most entries start from.
const LLAMA_TYPE: TypeDesc = TypeDesc {
    model_type: "llama",
    classes: "Llama",
    base_class: "LlamaModel",
    heads: Heads { qa_under_transformer: true, ..ALL_HEADS },
    rules: Family::Llama,
    keys: &["hidden_act", "rope_scaling", "attention_bias", "mlp_bias"],
    defaults: LLAMA,
    qkv_bias: ATTENTION_BIAS,
    o_bias: ATTENTION_BIAS,
    qk_norm: QkNorm::None,
    fused: false,
    norms: Norms::Pre,
    gemma_norm: false,
    norm: NormKind::Rms,
    mlp: MlpKind::Gated,
    mlp_bias: Bias::Key("mlp_bias", false),
    window_period: None,
};

const MISTRAL: Defaults = Defaults {
    intermediate_size: 14336,
    num_key_value_heads: Some(8),
    max_position_embeddings: 4096 * 32,
    ..LLAMA
};
const QWEN2: Defaults = Defaults {
    vocab_size: 151936,
    intermediate_size: 22016,
    num_key_value_heads: Some(32),
    max_position_embeddings: 32768,
    ..LLAMA
};
const GEMMA2: Defaults = Defaults {
    vocab_size: 256000,
    hidden_size: 2304,
    intermediate_size: 9216,
    num_hidden_layers: 26,
    num_attention_heads: 8,
    num_key_value_heads: Some(4),
    head_dim: Some(256),
    max_position_embeddings: 8192,
    tie_word_embeddings: true,
    pad_token_id: Some(0),
    hidden_act: "gelu_pytorch_tanh",
    ..LLAMA
};
const DEEPSEEK_KEYS: &[&str] = &[
    "hidden_act",
    "rope_scaling",
    "attention_bias",
    "first_k_dense_replace",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "n_routed_experts",
    "n_shared_experts",
    "num_experts_per_tok",
    "moe_intermediate_size",
];
const NO_BIAS: Bias = Bias::Fixed(false);
const NO_QA: Heads = Heads { qa: false, ..ALL_HEADS };

pub const TYPES: &[TypeDesc] = &[
    LLAMA_TYPE,
    TypeDesc {
        model_type: "mistral",
        classes: "Mistral",
        base_class: "MistralModel",
        heads: ALL_HEADS,
        rules: Family::Mistral,
        keys: &["hidden_act", "sliding_window"],
        defaults: MISTRAL,
        qkv_bias: NO_BIAS,
        o_bias: NO_BIAS,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "mixtral",
        classes: "Mixtral",
        base_class: "MixtralModel",
        heads: ALL_HEADS,
        rules: Family::Mixtral,
        keys: &["hidden_act", "sliding_window", "num_local_experts", "num_experts_per_tok"],
        defaults: Defaults { rms_norm_eps: 1e-5, rope_theta: 1e6, ..MISTRAL },
        qkv_bias: NO_BIAS,
        o_bias: NO_BIAS,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "qwen2",
        classes: "Qwen2",
        base_class: "Qwen2Model",
        rules: Family::Qwen2,
        keys: &[
            "hidden_act",
            "rope_scaling",
            "use_sliding_window",
            "sliding_window",
            "max_window_layers",
            "layer_types",
        ],
        defaults: QWEN2,
        // q/k/v biases are fixed in the modeling code.
        qkv_bias: Bias::Fixed(true),
        o_bias: NO_BIAS,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "qwen2_moe",
        classes: "Qwen2Moe",
        base_class: "Qwen2MoeModel",
        heads: ALL_HEADS,
        rules: Family::Qwen2Moe,
        keys: &[
            "hidden_act",
            "rope_scaling",
            "use_sliding_window",
            "sliding_window",
            "qkv_bias",
            "num_experts",
            "num_experts_per_tok",
            "moe_intermediate_size",
            "shared_expert_intermediate_size",
            "decoder_sparse_step",
            "mlp_only_layers",
        ],
        defaults: Defaults {
            hidden_size: 2048,
            intermediate_size: 5632,
            num_hidden_layers: 24,
            num_attention_heads: 16,
            num_key_value_heads: Some(16),
            ..QWEN2
        },
        qkv_bias: Bias::Key("qkv_bias", true),
        o_bias: NO_BIAS,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "qwen3",
        classes: "Qwen3",
        base_class: "Qwen3Model",
        rules: Family::Qwen3,
        keys: &[
            "hidden_act",
            "rope_scaling",
            "attention_bias",
            "use_sliding_window",
            "sliding_window",
            "max_window_layers",
            "layer_types",
        ],
        defaults: Defaults { head_dim: Some(128), ..QWEN2 },
        qk_norm: QkNorm::PerHead,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "qwen3_moe",
        classes: "Qwen3Moe",
        base_class: "Qwen3MoeModel",
        rules: Family::Qwen3Moe,
        keys: &[
            "hidden_act",
            "rope_scaling",
            "attention_bias",
            "use_sliding_window",
            "sliding_window",
            "num_experts",
            "num_experts_per_tok",
            "moe_intermediate_size",
            "decoder_sparse_step",
            "mlp_only_layers",
        ],
        defaults: Defaults {
            hidden_size: 2048,
            intermediate_size: 6144,
            num_hidden_layers: 24,
            num_attention_heads: 32,
            num_key_value_heads: Some(4),
            ..QWEN2
        },
        qk_norm: QkNorm::PerHead,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "gemma",
        classes: "Gemma",
        base_class: "GemmaModel",
        heads: NO_QA,
        rules: Family::Gemma,
        // GemmaMLP reads `hidden_act`, not `hidden_activation`.
        keys: &["hidden_act", "attention_bias"],
        defaults: Defaults {
            hidden_size: 3072,
            intermediate_size: 24576,
            num_hidden_layers: 28,
            num_attention_heads: 16,
            num_key_value_heads: Some(16),
            ..GEMMA2
        },
        gemma_norm: true,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "gemma2",
        classes: "Gemma2",
        base_class: "Gemma2Model",
        heads: NO_QA,
        rules: Family::Gemma2,
        keys: &[
            "hidden_activation",
            "attention_bias",
            "sliding_window",
            "layer_types",
            "final_logit_softcapping",
            "attn_logit_softcapping",
        ],
        defaults: GEMMA2,
        norms: Norms::Sandwich,
        gemma_norm: true,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "gemma3_text",
        classes: "Gemma3",
        base_class: "Gemma3TextModel",
        heads: Heads { token: false, ..NO_QA },
        rules: Family::Gemma3Text,
        keys: &[
            "hidden_activation",
            "rope_scaling",
            "attention_bias",
            "sliding_window",
            "layer_types",
            "sliding_window_pattern",
            "final_logit_softcapping",
            "attn_logit_softcapping",
        ],
        defaults: Defaults {
            vocab_size: 262_208,
            max_position_embeddings: 131_072,
            rope_theta: 1e6,
            ..GEMMA2
        },
        qk_norm: QkNorm::PerHead,
        norms: Norms::Sandwich,
        gemma_norm: true,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "phi3",
        classes: "Phi3",
        base_class: "Phi3Model",
        heads: NO_QA,
        rules: Family::Phi3,
        keys: &["hidden_act", "rope_scaling", "partial_rotary_factor", "sliding_window"],
        defaults: Defaults {
            vocab_size: 32064,
            hidden_size: 3072,
            intermediate_size: 8192,
            max_position_embeddings: 4096,
            rms_norm_eps: 1e-5,
            pad_token_id: Some(32000),
            ..LLAMA
        },
        qkv_bias: NO_BIAS,
        o_bias: NO_BIAS,
        fused: true,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "deepseek_v2",
        classes: "DeepseekV2",
        base_class: "DeepseekV2Model",
        heads: Heads { token: false, ..NO_QA },
        rules: Family::DeepseekV2,
        keys: &[
            "hidden_act",
            "rope_scaling",
            "attention_bias",
            "mlp_bias",
            "first_k_dense_replace",
            "q_lora_rank",
            "kv_lora_rank",
            "qk_nope_head_dim",
            "qk_rope_head_dim",
            "v_head_dim",
            "n_routed_experts",
            "n_shared_experts",
            "num_experts_per_tok",
            "moe_intermediate_size",
        ],
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "deepseek_v3",
        classes: "DeepseekV3",
        base_class: "DeepseekV3Model",
        heads: NO_QA,
        rules: Family::DeepseekV3,
        keys: DEEPSEEK_KEYS,
        defaults: Defaults {
            vocab_size: 129280,
            hidden_size: 7168,
            intermediate_size: 18432,
            num_hidden_layers: 61,
            num_attention_heads: 128,
            num_key_value_heads: Some(128),
            max_position_embeddings: 4096,
            ..LLAMA
        },
        ..LLAMA_TYPE
    },
    // Types added as descriptions alone (transformers 5.x defaults).
    TypeDesc {
        model_type: "granite",
        classes: "Granite",
        base_class: "GraniteModel",
        heads: LM_ONLY,
        // Its embedding, residual, attention and logit multipliers scale activations, not shapes.
        keys: &["hidden_act", "attention_bias", "mlp_bias"],
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "olmo2",
        classes: "Olmo2",
        base_class: "Olmo2Model",
        heads: Heads { sequence: true, ..LM_ONLY },
        keys: &["hidden_act", "attention_bias"],
        defaults: Defaults { vocab_size: 50304, rms_norm_eps: 1e-5, pad_token_id: Some(1), ..LLAMA },
        qk_norm: QkNorm::Full,
        norms: Norms::Post,
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "olmo3",
        classes: "Olmo3",
        base_class: "Olmo3Model",
        heads: Heads { sequence: true, ..LM_ONLY },
        keys: &["hidden_act", "attention_bias", "sliding_window", "layer_types"],
        defaults: Defaults { vocab_size: 50304, rms_norm_eps: 1e-5, pad_token_id: Some(1), ..LLAMA },
        qk_norm: QkNorm::Full,
        norms: Norms::Post,
        window_period: Some(4),
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "seed_oss",
        classes: "SeedOss",
        base_class: "SeedOssModel",
        heads: ALL_HEADS,
        keys: &["hidden_act", "attention_bias", "attention_out_bias", "mlp_bias"],
        defaults: Defaults {
            vocab_size: 155136,
            intermediate_size: 27648,
            num_hidden_layers: 64,
            num_attention_heads: 80,
            num_key_value_heads: Some(8),
            head_dim: Some(128),
            max_position_embeddings: 524288,
            pad_token_id: Some(1),
            ..LLAMA
        },
        qkv_bias: Bias::Key("attention_bias", true),
        o_bias: Bias::Key("attention_out_bias", false),
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "smollm3",
        classes: "SmolLM3",
        base_class: "SmolLM3Model",
        heads: ALL_HEADS,
        // Its rope-less layers (`no_rope_layers`) drop a rotation, not a parameter.
        keys: &["hidden_act", "attention_bias", "mlp_bias"],
        defaults: Defaults {
            vocab_size: 128256,
            hidden_size: 2048,
            num_hidden_layers: 36,
            num_attention_heads: 16,
            num_key_value_heads: Some(4),
            max_position_embeddings: 32768,
            tie_word_embeddings: true,
            pad_token_id: Some(128004),
            ..LLAMA
        },
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "starcoder2",
        classes: "Starcoder2",
        base_class: "Starcoder2Model",
        heads: Heads { qa: false, ..ALL_HEADS },
        // Its window covers every layer when set, as Phi-3's does.
        rules: Family::Phi3,
        keys: &["hidden_act", "norm_epsilon", "sliding_window", "use_bias"],
        defaults: Defaults {
            vocab_size: 49152,
            hidden_size: 3072,
            intermediate_size: 12288,
            num_hidden_layers: 30,
            num_attention_heads: 24,
            num_key_value_heads: Some(2),
            max_position_embeddings: 4096,
            rms_norm_eps: 1e-5,
            tie_word_embeddings: true,
            hidden_act: "gelu_pytorch_tanh",
            ..LLAMA
        },
        qkv_bias: Bias::Key("use_bias", true),
        o_bias: Bias::Key("use_bias", true),
        norm: NormKind::LayerNorm,
        mlp: MlpKind::Plain { up: "c_fc", down: "c_proj" },
        mlp_bias: Bias::Key("use_bias", true),
        ..LLAMA_TYPE
    },
    TypeDesc {
        model_type: "ministral",
        classes: "Ministral",
        base_class: "MinistralModel",
        heads: ALL_HEADS,
        rules: Family::Mistral,
        keys: &["hidden_act", "sliding_window"],
        defaults: MISTRAL,
        qkv_bias: NO_BIAS,
        o_bias: NO_BIAS,
        ..LLAMA_TYPE
    },
];

/// The description of a `model_type`, if the lineage has one.
pub fn lookup(model_type: &str) -> Option<&'static TypeDesc> {
    TYPES.iter().find(|t| t.model_type == model_type)
}
