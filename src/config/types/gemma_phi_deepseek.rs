//! Gemma 1 to 3, Phi-3 and DeepSeek V2/V3: the lineage with Gemma's norms, Phi-3's fused
//! projections and DeepSeek's latent attention (defaults of transformers 4.57.1).

use super::desc::*;

pub const GEMMA_TYPE: TypeDesc = TypeDesc {
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
};

pub const GEMMA2_TYPE: TypeDesc = TypeDesc {
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
};

pub const GEMMA3_TEXT_TYPE: TypeDesc = TypeDesc {
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
    defaults: Defaults { vocab_size: 262_208, max_position_embeddings: 131_072, rope_theta: 1e6, ..GEMMA2 },
    qk_norm: QkNorm::PerHead,
    norms: Norms::Sandwich,
    gemma_norm: true,
    ..LLAMA_TYPE
};

pub const PHI3_TYPE: TypeDesc = TypeDesc {
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
};

pub const DEEPSEEK_V2_TYPE: TypeDesc = TypeDesc {
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
    // DeepseekV2Config (transformers 5.x): Llama's defaults but a 102,400-token vocabulary
    // (4.x defaulted to Llama's 32,000, which the 4.x count of a sparse file follows).
    defaults: Defaults { vocab_size: 102400, ..LLAMA },
    ..LLAMA_TYPE
};

pub const DEEPSEEK_V3_TYPE: TypeDesc = TypeDesc {
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
};
