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

/// A key table: `keys![vocab_size: U(32000), hidden_size: U(4096)]`, where `sizes(vocab, hidden,
/// ffn, layers, heads, kv heads, head_dim, positions)` stands for the eight keys every class reads.
macro_rules! keys {
    (sizes($v:expr, $h:expr, $f:expr, $l:expr, $n:expr, $kv:expr, $hd:expr, $p:expr) $(, $k:ident : $x:expr)* $(,)?) => {
        keys![vocab_size: U($v), hidden_size: U($h), intermediate_size: U($f), num_hidden_layers: U($l),
            num_attention_heads: U($n), num_key_value_heads: $kv, head_dim: $hd,
            max_position_embeddings: U($p) $(, $k: $x)*]
    };
    ($($k:ident : $x:expr),* $(,)?) => { &[$((stringify!($k), $x)),*] };
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

// Other tables (`spec_newdec.rs`, `spec_hybrid.rs`, `spec_moe3.rs`) write their keys and classes the
// same way.
pub(crate) use {classes, head_of, keys};

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

/// Apertus: xIELU in a plain MLP, q/k norms; Apertus 1.5's language model starts from it.
pub(crate) const APERTUS: Spec = Spec {
    model_type: "apertus",
    classes: classes!("Apertus": Model, ForCausalLM, ForTokenClassification),
    keys: keys![sizes(131072, 4096, 14336, 32, 32, Null, Null, 65536), rms_norm_eps: F(1e-5),
        tie_word_embeddings: B(false), pad_token_id: U(3), hidden_act: S("xielu"),
        attention_bias: B(false)],
    qk_norm: QkNorm::PerHead,
    layer_norms: &[("attention_layernorm", Slot::Before), ("feedforward_layernorm", Slot::Between)],
    mlp: Mlp::Plain,
    // xIELU learns two scalars per MLP.
    extras: &[
        param("act_fn.alpha_p", Place::Mlp, Width::One, Some("xielu")),
        param("act_fn.alpha_n", Place::Mlp, Width::One, Some("xielu")),
    ],
    ..BASE
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "internlm3",
        classes: LLAMA_CLASSES,
        keys: keys![sizes(128512, 4096, 10240, 48, 32, U(2), U(128), 32768), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(2), hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false)],
        aliases: &[("qkv_bias", "attention_bias"), ("bias", "mlp_bias")],
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "exaone",
        classes: LLAMA_CLASSES,
        keys: keys![sizes(102400, 4096, 14336, 32, 32, U(8), Null, 4096), rms_norm_eps: F(1e-5),
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
        keys: keys![sizes(76800, 5120, 27648, 80, 40, U(8), U(128), 131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("silu"), attention_bias: B(false), mlp_bias: B(false)],
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "cwm",
        classes: classes!("Cwm": Model, ForCausalLM),
        keys: keys![sizes(128256, 6144, 21504, 64, 48, U(8), U(128), 131072), rms_norm_eps: F(1e-5),
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
        keys: keys![sizes(48000, 2560, 7040, 24, 20, U(20), U(128), 4096), rms_norm_eps: F(1e-8),
            tie_word_embeddings: B(false), pad_token_id: U(3), hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false)],
        o_bias: Bias::Fixed(false),
        // HeliumAttention's o_proj is Linear(hidden_size, hidden_size), whatever heads x head_dim.
        o_from_hidden: true,
        ..ATTN_MLP_BIAS
    },
    APERTUS,
    Spec {
        model_type: "hunyuan_v1_dense",
        // Llama's layers with a per-head RMSNorm on queries and keys, under its own names.
        qk_norm: QkNorm::PerHead,
        qk_norm_names: ["query_layernorm", "key_layernorm"],
        classes: classes!("HunYuanDenseV1": Model, ForCausalLM, ForSequenceClassification),
        keys: keys![sizes(290943, 4096, 11008, 32, 32, Null, Null, 2048), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(0), hidden_act: S("silu"),
            attention_bias: B(false)],
        ..BASE
    },
    Spec {
        model_type: "nemotron",
        classes: classes!("Nemotron": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![sizes(256000, 6144, 24576, 32, 48, Null, Null, 4096), norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("relu2"), attention_bias: B(false),
            mlp_bias: B(false)],
        // LayerNorm1P: a LayerNorm with weight and bias whose weight is stored minus one.
        eps_key: "norm_eps",
        ..LAYERNORM_PLAIN
    },
    Spec {
        model_type: "jais2",
        // Nemotron's layers, with nn.LayerNorm under the usual key.
        eps_key: "layer_norm_eps",
        classes: classes!("Jais2": Model, ForCausalLM),
        keys: keys![sizes(150272, 3328, 26624, 32, 26, Null, Null, 8192), layer_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("relu2"), attention_bias: B(true),
            mlp_bias: B(true)],
        ..LAYERNORM_PLAIN
    },
    Spec {
        model_type: "hyperclovax",
        classes: classes!("HyperCLOVAX": Model, ForCausalLM),
        keys: keys![sizes(32000, 4096, 11008, 32, 32, Null, Null, 2048), rms_norm_eps: F(1e-6),
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
        keys: keys![sizes(100352, 2560, 8192, 24, 20, U(4), Null, 8192), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(true), hidden_act: S("silu"), attention_bias: B(false),
            mlp_bias: B(false), sliding_window: U(128)],
        sinks: true,
        window: Window::FullFirst { period: 4 },
        ..ATTN_MLP_BIAS
    },
    Spec {
        model_type: "olmo",
        classes: classes!("Olmo": Model, ForCausalLM, ForSequenceClassification),
        // OlmoLayerNorm has no parameters and a fixed eps of 1e-5, which OlmoConfig has no key for.
        keys: keys![sizes(50304, 4096, 11008, 32, 32, Null, Null, 2048), tie_word_embeddings: B(false),
            pad_token_id: U(1), hidden_act: S("silu"), attention_bias: B(false), layer_norm_eps: F(1e-5)],
        eps_key: "layer_norm_eps",
        norm: NormKind::Bare,
        ..BASE
    },
    Spec {
        model_type: "stablelm",
        classes: classes!("StableLm": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![sizes(50304, 2560, 6912, 32, 32, U(32), Null, 4096), layer_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("silu"), use_qkv_bias: B(false),
            qk_layernorm: B(false), use_parallel_residual: B(false)],
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
        keys: keys![sizes(50304, 768, 8192, 12, 6, Null, Null, 2048), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(false), pad_token_id: U(1), hidden_act: S("relu2"),
            attention_bias: B(false)],
        // Its RMSNorms, q/k norms included, have no weight.
        norm: NormKind::BareRms,
        qk_norm: QkNorm::PerHead,
        mlp: Mlp::Fc,
        ..BASE
    },
    Spec {
        model_type: "bitnet",
        classes: classes!("BitNet": Model, ForCausalLM),
        keys: keys![sizes(128256, 2560, 6912, 30, 20, U(5), Null, 2048), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("relu2"), attention_bias: B(false)],
        extras: &[
            sub_norm("attn_sub_norm", Place::Attention, Width::Hidden),
            sub_norm("ffn_sub_norm", Place::Mlp, Width::Ffn),
        ],
        ..BASE
    },
    Spec {
        model_type: "diffllama",
        classes: classes!("DiffLlama": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![sizes(32000, 2048, 8192, 16, 32, Null, Null, 2048), rms_norm_eps: F(1e-5),
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
        keys: keys![sizes(256000, 2304, 9216, 26, 8, U(4), U(256), 8192), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(true), pad_token_id: U(0), hidden_act: S("gelu_pytorch_tanh"),
            attention_bias: B(false), sliding_window: U(4096)],
        aliases: &[("hidden_activation", "hidden_act")],
        // Gemma 2's layers without its post-sublayer norms; (1 + w) RMSNorms count the same.
        layer_norms: &[("input_layernorm", Slot::Before), ("pre_feedforward_layernorm", Slot::Between)],
        window: Window::Pattern { period_key: None, period: 2 },
        ..BASE
    },
];
