//! What a type description says: the switches, the defaults and the constants entries start from.

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

pub(super) const ALL_HEADS: Heads =
    Heads { sequence: true, token: true, qa: true, qa_under_transformer: false };
pub(super) const LM_ONLY: Heads =
    Heads { sequence: false, token: false, qa: false, qa_under_transformer: false };

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

pub(super) const ATTENTION_BIAS: Bias = Bias::Key("attention_bias", false);

/// Llama's description, which most entries start from.
pub(super) const LLAMA_TYPE: TypeDesc = TypeDesc {
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

pub(super) const MISTRAL: Defaults = Defaults {
    intermediate_size: 14336,
    num_key_value_heads: Some(8),
    max_position_embeddings: 4096 * 32,
    ..LLAMA
};
pub(super) const QWEN2: Defaults = Defaults {
    vocab_size: 151936,
    intermediate_size: 22016,
    num_key_value_heads: Some(32),
    max_position_embeddings: 32768,
    ..LLAMA
};
pub(super) const GEMMA2: Defaults = Defaults {
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
pub(super) const DEEPSEEK_KEYS: &[&str] = &[
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
pub(super) const NO_BIAS: Bias = Bias::Fixed(false);
pub(super) const NO_QA: Heads = Heads { qa: false, ..ALL_HEADS };
