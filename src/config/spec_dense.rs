//! Dense decoder types as descriptions (see `config/spec.rs`). Defaults are those of
//! transformers 5.x's `configuration_<type>.py`; every entry starts from [`BASE`] (Llama's
//! layers) and says only what differs.

use super::spec::{Attn, Bias, Dv, HeadKind, Linear, Mlp, NormKind, QkNorm, Slot, Spec, Window};
use super::spec_llama_like::keys;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

/// RMSNorm before attention and before the MLP.
pub const PRE: &[(&str, Slot)] =
    &[("input_layernorm", Slot::Before), ("post_attention_layernorm", Slot::Between)];

/// GLM-4's four norms: before attention, after it, before the MLP, after it.
pub(crate) const GLM4_NORMS: &[(&str, Slot)] = &[
    ("input_layernorm", Slot::Before),
    ("post_self_attn_layernorm", Slot::Between),
    ("post_attention_layernorm", Slot::Between),
    ("post_mlp_layernorm", Slot::After),
];

/// Llama's layers: what an entry starts from.
pub const BASE: Spec = Spec {
    model_type: "",
    classes: &[],
    keys: &[],
    aliases: &[],
    eps_key: "rms_norm_eps",
    qkv_bias: Bias::Key("attention_bias"),
    o_bias: Bias::Key("attention_bias"),
    qk_norm: QkNorm::None,
    qk_norm_key: None,
    sinks: false,
    norm: NormKind::Rms,
    layer_norms: PRE,
    mlp: Mlp::Gated,
    mlp_bias: Bias::Fixed(false),
    dense_width_key: "intermediate_size",
    moe: None,
    lm_bias: Bias::Fixed(false),
    window: Window::None,
    qk_norm_names: ["q_norm", "k_norm"],
    o_from_hidden: false,
    switched_norms: None,
    extras: &[],
    attn: Attn::Grouped,
    linear: Linear::None,
    layer_heads: super::spec_dec6::LayerHeads::Same,
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "cohere",
        classes: &[("CohereModel", Model), ("CohereForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(256000), hidden_size: U(8192), intermediate_size: U(22528),
            num_hidden_layers: U(40), num_attention_heads: U(64), num_key_value_heads: Null,
            max_position_embeddings: U(8192), layer_norm_eps: F(1e-5), tie_word_embeddings: B(true),
            pad_token_id: U(0), hidden_act: S("silu"), attention_bias: B(false), use_qk_norm: B(false)],
        eps_key: "layer_norm_eps",
        qk_norm: QkNorm::HeadByChannel,
        qk_norm_key: Some("use_qk_norm"),
        // Attention and the MLP read the same normed input, in parallel.
        norm: NormKind::LayerNormNoBias,
        layer_norms: &[("input_layernorm", Slot::Before)],
        ..BASE
    },
    Spec {
        model_type: "cohere2",
        classes: &[("Cohere2Model", Model), ("Cohere2ForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(256000), hidden_size: U(8192), intermediate_size: U(22528),
            num_hidden_layers: U(40), num_attention_heads: U(64), num_key_value_heads: Null,
            max_position_embeddings: U(8192), layer_norm_eps: F(1e-5), tie_word_embeddings: B(true),
            pad_token_id: U(0), hidden_act: S("silu"), attention_bias: B(false), sliding_window: U(4096)],
        eps_key: "layer_norm_eps",
        norm: NormKind::LayerNormNoBias,
        layer_norms: &[("input_layernorm", Slot::Before)],
        window: Window::Pattern { period_key: Some("sliding_window_pattern"), period: 4 },
        ..BASE
    },
    Spec {
        model_type: "glm",
        classes: GLM_CLASSES,
        keys: GLM_KEYS,
        o_bias: Bias::Fixed(false),
        mlp: Mlp::GatedFused,
        ..BASE
    },
    Spec {
        model_type: "glm4",
        classes: &[
            ("Glm4Model", Model),
            ("Glm4ForCausalLM", CausalLm),
            ("Glm4ForSequenceClassification", Sequence),
            ("Glm4ForTokenClassification", Token),
        ],
        keys: GLM_KEYS,
        o_bias: Bias::Fixed(false),
        mlp: Mlp::GatedFused,
        layer_norms: GLM4_NORMS,
        ..BASE
    },
    Spec {
        model_type: "exaone4",
        classes: &[
            ("Exaone4Model", Model),
            ("Exaone4ForCausalLM", CausalLm),
            ("Exaone4ForSequenceClassification", Sequence),
            ("Exaone4ForTokenClassification", Token),
        ],
        keys: keys![vocab_size: U(102400), hidden_size: U(4096), intermediate_size: U(16384),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            hidden_act: S("silu"), sliding_window: U(4096)],
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        qk_norm: QkNorm::PerHead,
        // Norms after each sublayer, before its residual add (OLMo 2's placement).
        layer_norms: &[
            ("post_attention_layernorm", Slot::Between),
            ("post_feedforward_layernorm", Slot::After),
        ],
        window: Window::Pattern { period_key: Some("sliding_window_pattern"), period: 4 },
        ..BASE
    },
    Spec {
        model_type: "ernie4_5",
        classes: &[("Ernie4_5Model", Model), ("Ernie4_5ForCausalLM", CausalLm)],
        keys: keys![sizes(103424, 1024, 3072, 18, 16, U(2), U(128), 131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(true), pad_token_id: U(0), hidden_act: S("silu"), use_bias: B(false)],
        qkv_bias: Bias::Key("use_bias"),
        o_bias: Bias::Key("use_bias"),
        mlp_bias: Bias::Key("use_bias"),
        ..BASE
    },
    Spec {
        model_type: "arcee",
        classes: &[
            ("ArceeModel", Model),
            ("ArceeForCausalLM", CausalLm),
            ("ArceeForSequenceClassification", Sequence),
            ("ArceeForTokenClassification", Token),
        ],
        keys: keys![vocab_size: U(32000), hidden_size: U(2560), intermediate_size: U(18432),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(4096), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            hidden_act: S("relu2"), attention_bias: B(false), mlp_bias: B(false)],
        // ReLU² without a gate: up_proj, down_proj.
        mlp: Mlp::Plain,
        mlp_bias: Bias::Key("mlp_bias"),
        ..BASE
    },
];

const GLM_CLASSES: &[(&str, HeadKind)] = &[
    ("GlmModel", Model),
    ("GlmForCausalLM", CausalLm),
    ("GlmForSequenceClassification", Sequence),
    ("GlmForTokenClassification", Token),
];

/// GLM-4's keys (GlmConfig and Glm4Config share them); `attention_bias` puts biases on q, k and
/// v only.
const GLM_KEYS: &[(&str, Dv)] = &[
    ("vocab_size", U(151552)),
    ("hidden_size", U(4096)),
    ("intermediate_size", U(13696)),
    ("num_hidden_layers", U(40)),
    ("num_attention_heads", U(32)),
    ("num_key_value_heads", U(2)),
    ("head_dim", U(128)),
    ("max_position_embeddings", U(131072)),
    ("rms_norm_eps", F(1.5625e-07)),
    ("tie_word_embeddings", B(false)),
    ("pad_token_id", U(151329)),
    ("hidden_act", S("silu")),
    ("attention_bias", B(true)),
];
