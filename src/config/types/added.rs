//! Types added as descriptions alone (transformers 5.x defaults).

use super::desc::*;

pub const GRANITE_TYPE: TypeDesc = TypeDesc {
    model_type: "granite",
    classes: "Granite",
    base_class: "GraniteModel",
    heads: LM_ONLY,
    // Its embedding, residual, attention and logit multipliers scale activations, not shapes.
    keys: &["hidden_act", "attention_bias", "mlp_bias"],
    ..LLAMA_TYPE
};

pub const OLMO2_TYPE: TypeDesc = TypeDesc {
    model_type: "olmo2",
    classes: "Olmo2",
    base_class: "Olmo2Model",
    heads: Heads { sequence: true, ..LM_ONLY },
    keys: &["hidden_act", "attention_bias"],
    defaults: Defaults { vocab_size: 50304, rms_norm_eps: 1e-5, pad_token_id: Some(1), ..LLAMA },
    qk_norm: QkNorm::Full,
    norms: Norms::Post,
    ..LLAMA_TYPE
};

pub const OLMO3_TYPE: TypeDesc = TypeDesc {
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
};

pub const SEED_OSS_TYPE: TypeDesc = TypeDesc {
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
};

pub const SMOLLM3_TYPE: TypeDesc = TypeDesc {
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
};

pub const STARCODER2_TYPE: TypeDesc = TypeDesc {
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
};
