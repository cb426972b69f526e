//! Mistral, Mixtral, Qwen 2 and 3 (dense and mixtures of experts), Ministral: the Llama lineage
//! with grouped key/value heads, windows and routed experts (defaults of transformers 4.57.1).

use super::desc::*;

pub const MISTRAL_TYPE: TypeDesc = TypeDesc {
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
};

pub const MIXTRAL_TYPE: TypeDesc = TypeDesc {
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
};

pub const QWEN2_TYPE: TypeDesc = TypeDesc {
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
};

pub const QWEN2_MOE_TYPE: TypeDesc = TypeDesc {
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
};

pub const QWEN3_TYPE: TypeDesc = TypeDesc {
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
};

pub const QWEN3_MOE_TYPE: TypeDesc = TypeDesc {
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
        "num_local_experts",
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
};

pub const MINISTRAL_TYPE: TypeDesc =
    TypeDesc { model_type: "ministral", classes: "Ministral", base_class: "MinistralModel", ..MISTRAL_TYPE };
