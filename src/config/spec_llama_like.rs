//! Dense decoders of Llama's shape that differ by a switch or two (see `config/spec.rs`):
//! defaults are transformers 5.x's `configuration_<type>.py`, and each entry says only what
//! differs from [`BASE`]. Key tables are written several keys a line ([`keys!`]): one line per
//! key would make every table the same column of names.

use super::spec::{
    Bias, Dv, Extra, HeadKind, Mlp, NormKind, Place, QkNorm, Slot, Spec, SwitchedNorms, Width, Window,
};
use super::spec_dense::BASE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

/// A key table: `keys![vocab_size: U(32000), hidden_size: U(4096)]`.
macro_rules! keys {
    ($($k:ident : $v:expr),* $(,)?) => { &[$((stringify!($k), $v)),*] };
}

/// A class table: `classes!("Olmo": Model, ForCausalLM)` names `OlmoModel`, `OlmoForCausalLM`.
macro_rules! classes {
    ($p:literal: $($s:ident),*) => { &[$((concat!($p, stringify!($s)), head_of!($s))),*] };
}

macro_rules! head_of {
    (Model) => {
        Model
    };
    (ForCausalLM) => {
        CausalLm
    };
    (ForSequenceClassification) => {
        Sequence
    };
    (ForTokenClassification) => {
        Token
    };
}

/// Classes a type without modeling code of its own loads (InternLM 3, EXAONE 3, IQuest-Coder):
/// transformers maps the type onto Llama's.
const LLAMA_CLASSES: &[(&str, HeadKind)] =
    classes!("Llama": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification);

const ATTN_MLP_BIAS: Spec = Spec { mlp_bias: Bias::Key("mlp_bias"), ..BASE };

/// A LayerNorm with bias around attention and a plain (ReLU²) MLP, biases by key (Nemotron, Jais 2).
const LAYERNORM_PLAIN: Spec = Spec { norm: NormKind::LayerNorm, mlp: Mlp::Plain, ..ATTN_MLP_BIAS };

const fn sub_norm(name: &'static str, place: Place, width: Width) -> Extra {
    Extra { name, place, width, norm: true, when_act: None }
}

const fn param(name: &'static str, place: Place, width: Width, when_act: Option<&'static str>) -> Extra {
    Extra { name, place, width, norm: false, when_act }
}

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "internlm3",
        classes: LLAMA_CLASSES,
        keys: keys![vocab_size: U(128512), hidden_size: U(4096), intermediate_size: U(10240),
            num_hidden_layers: U(48), num_attention_heads: U(32), num_key_value_heads: U(2),
            head_dim: U(128), max_position_embeddings: U(32768), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(2), hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false)],
        aliases: &[("qkv_bias", "attention_bias"), ("bias", "mlp_bias")],
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "exaone",
        classes: LLAMA_CLASSES,
        keys: keys![vocab_size: U(102400), hidden_size: U(4096), intermediate_size: U(14336),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: U(8),
            head_dim: Null, max_position_embeddings: U(4096), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(0), hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false)],
        aliases: &[
            ("num_layers", "num_hidden_layers"),
            ("layer_norm_epsilon", "rms_norm_eps"),
            ("activation_function", "hidden_act"),
        ],
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "iquestcoder",
        classes: LLAMA_CLASSES,
        keys: keys![vocab_size: U(76800), hidden_size: U(5120), intermediate_size: U(27648),
            num_hidden_layers: U(80), num_attention_heads: U(40), num_key_value_heads: U(8),
            head_dim: U(128), max_position_embeddings: U(131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("silu"), attention_bias: B(false),
            mlp_bias: B(false)],
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "cwm",
        classes: classes!("Cwm": Model, ForCausalLM),
        keys: keys![vocab_size: U(128256), hidden_size: U(6144), intermediate_size: U(21504),
            num_hidden_layers: U(64), num_attention_heads: U(48), num_key_value_heads: U(8),
            head_dim: U(128), max_position_embeddings: U(131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("silu"), mlp_bias: B(false),
            sliding_window: U(8192)],
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        window: Window::FullFirst { period: 4 },
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "helium",
        classes: classes!("Helium": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![vocab_size: U(48000), hidden_size: U(2560), intermediate_size: U(7040),
            num_hidden_layers: U(24), num_attention_heads: U(20), num_key_value_heads: U(20),
            head_dim: U(128), max_position_embeddings: U(4096), rms_norm_eps: F(1e-8),
            tie_word_embeddings: B(false), pad_token_id: U(3), hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false)],
        o_bias: Bias::Fixed(false),
        // HeliumAttention's o_proj is Linear(hidden_size, hidden_size), whatever heads x head_dim.
        o_from_hidden: true,
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "apertus",
        classes: classes!("Apertus": Model, ForCausalLM, ForTokenClassification),
        keys: keys![vocab_size: U(131072), hidden_size: U(4096), intermediate_size: U(14336),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(65536), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            pad_token_id: U(3), hidden_act: S("xielu"), attention_bias: B(false)],
        qk_norm: QkNorm::PerHead,
        layer_norms: &[("attention_layernorm", Slot::Before), ("feedforward_layernorm", Slot::Between)],
        mlp: Mlp::Plain,
        // xIELU learns two scalars per MLP.
        extras: &[
            param("act_fn.alpha_p", Place::Mlp, Width::One, Some("xielu")),
            param("act_fn.alpha_n", Place::Mlp, Width::One, Some("xielu")),
        ],
        ..BASE
    },
    Spec {
        model_type: "hunyuan_v1_dense",
        classes: classes!("HunYuanDenseV1": Model, ForCausalLM, ForSequenceClassification),
        keys: keys![vocab_size: U(290943), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            head_dim: Null, max_position_embeddings: U(2048), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(0), hidden_act: S("silu"),
            attention_bias: B(false)],
        qk_norm: QkNorm::PerHead,
        qk_norm_names: ["query_layernorm", "key_layernorm"],
        ..BASE
    },
    Spec {
        model_type: "nemotron",
        classes: classes!("Nemotron": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![vocab_size: U(256000), hidden_size: U(6144), intermediate_size: U(24576),
            num_hidden_layers: U(32), num_attention_heads: U(48), num_key_value_heads: Null,
            head_dim: Null, max_position_embeddings: U(4096), norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("relu2"), attention_bias: B(false),
            mlp_bias: B(false)],
        // LayerNorm1P: a LayerNorm with weight and bias whose weight is stored minus one.
        eps_key: "norm_eps",
        ..LAYERNORM_PLAIN
    },
    Spec {
        model_type: "jais2",
        classes: classes!("Jais2": Model, ForCausalLM),
        keys: keys![vocab_size: U(150272), hidden_size: U(3328), intermediate_size: U(26624),
            num_hidden_layers: U(32), num_attention_heads: U(26), num_key_value_heads: Null,
            head_dim: Null, max_position_embeddings: U(8192), layer_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("relu2"), attention_bias: B(true),
            mlp_bias: B(true)],
        eps_key: "layer_norm_eps",
        ..LAYERNORM_PLAIN
    },
    Spec {
        model_type: "hyperclovax",
        classes: classes!("HyperCLOVAX": Model, ForCausalLM),
        keys: keys![vocab_size: U(32000), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            head_dim: Null, max_position_embeddings: U(2048), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(false), hidden_act: S("silu"), attention_bias: B(false),
            mlp_bias: B(false), use_post_norm: B(true)],
        // Peri-layer norms: one more RMSNorm on each sublayer's output.
        switched_norms: Some(SwitchedNorms {
            key: "use_post_norm",
            when: true,
            norms: &[("post_norm1", Slot::Between), ("post_norm2", Slot::After)],
        }),
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "granite_swa",
        classes: classes!("GraniteSWA": Model, ForCausalLM),
        keys: keys![vocab_size: U(100352), hidden_size: U(2560), intermediate_size: U(8192),
            num_hidden_layers: U(24), num_attention_heads: U(20), num_key_value_heads: U(4),
            max_position_embeddings: U(8192), rms_norm_eps: F(1e-5), tie_word_embeddings: B(true),
            hidden_act: S("silu"), attention_bias: B(false), mlp_bias: B(false),
            sliding_window: U(128)],
        sinks: true,
        window: Window::FullFirst { period: 4 },
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "olmo",
        classes: classes!("Olmo": Model, ForCausalLM, ForSequenceClassification),
        // OlmoLayerNorm has no parameters and a fixed eps of 1e-5, which OlmoConfig has no key for.
        keys: keys![vocab_size: U(50304), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(2048), tie_word_embeddings: B(false), pad_token_id: U(1),
            hidden_act: S("silu"), attention_bias: B(false), layer_norm_eps: F(1e-5)],
        eps_key: "layer_norm_eps",
        norm: NormKind::Bare,
        ..BASE
    },
    Spec {
        model_type: "stablelm",
        classes: classes!("StableLm": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![vocab_size: U(50304), hidden_size: U(2560), intermediate_size: U(6912),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: U(32),
            max_position_embeddings: U(4096), layer_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            hidden_act: S("silu"), use_qkv_bias: B(false), qk_layernorm: B(false),
            use_parallel_residual: B(false)],
        eps_key: "layer_norm_eps",
        qkv_bias: Bias::Key("use_qkv_bias"),
        o_bias: Bias::Fixed(false),
        // One bias-free LayerNorm of head_dim per head (`q_layernorm.norms.{h}`): [heads, head_dim].
        qk_norm: QkNorm::HeadByChannel,
        qk_norm_key: Some("qk_layernorm"),
        qk_norm_names: ["q_layernorm", "k_layernorm"],
        norm: NormKind::LayerNorm,
        layer_norms: &[("input_layernorm", Slot::Before)],
        // The parallel residual feeds attention and the MLP the same normed input.
        switched_norms: Some(SwitchedNorms {
            key: "use_parallel_residual",
            when: false,
            norms: &[("post_attention_layernorm", Slot::Between)],
        }),
        ..BASE
    },
    Spec {
        model_type: "nanochat",
        classes: classes!("NanoChat": Model, ForCausalLM),
        keys: keys![vocab_size: U(50304), hidden_size: U(768), intermediate_size: U(8192),
            num_hidden_layers: U(12), num_attention_heads: U(6), num_key_value_heads: Null,
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            pad_token_id: U(1), hidden_act: S("relu2"), attention_bias: B(false)],
        // Its RMSNorms, q/k norms included, have no weight.
        norm: NormKind::Bare,
        mlp: Mlp::Fc,
        ..BASE
    },
    Spec {
        model_type: "bitnet",
        classes: classes!("BitNet": Model, ForCausalLM),
        keys: keys![vocab_size: U(128256), hidden_size: U(2560), intermediate_size: U(6912),
            num_hidden_layers: U(30), num_attention_heads: U(20), num_key_value_heads: U(5),
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            hidden_act: S("relu2"), attention_bias: B(false)],
        extras: &[
            sub_norm("attn_sub_norm", Place::Attention, Width::Hidden),
            sub_norm("ffn_sub_norm", Place::Mlp, Width::Ffn),
        ],
        ..BASE
    },
    Spec {
        model_type: "diffllama",
        classes: classes!("DiffLlama": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![vocab_size: U(32000), hidden_size: U(2048), intermediate_size: U(8192),
            num_hidden_layers: U(16), num_attention_heads: U(32), num_key_value_heads: Null,
            head_dim: Null, max_position_embeddings: U(2048), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("silu"), attention_bias: B(false)],
        // Differential attention's four lambda vectors; its group norm has no parameters.
        extras: &[
            param("lambda_q1", Place::Attention, Width::HeadDim, None),
            param("lambda_k1", Place::Attention, Width::HeadDim, None),
            param("lambda_q2", Place::Attention, Width::HeadDim, None),
            param("lambda_k2", Place::Attention, Width::HeadDim, None),
        ],
        ..BASE
    },
    Spec {
        model_type: "vaultgemma",
        classes: classes!("VaultGemma": Model, ForCausalLM),
        keys: keys![vocab_size: U(256000), hidden_size: U(2304), intermediate_size: U(9216),
            num_hidden_layers: U(26), num_attention_heads: U(8), num_key_value_heads: U(4),
            head_dim: U(256), max_position_embeddings: U(8192), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(true), pad_token_id: U(0), hidden_act: S("gelu_pytorch_tanh"),
            attention_bias: B(false), sliding_window: U(4096)],
        aliases: &[("hidden_activation", "hidden_act")],
        // Gemma 2's layers without its post-sublayer norms; (1 + w) RMSNorms count the same.
        layer_norms: &[("input_layernorm", Slot::Before), ("pre_feedforward_layernorm", Slot::Between)],
        window: Window::Pattern { period_key: None, period: 2 },
        ..BASE
    },
];
