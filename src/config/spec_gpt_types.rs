//! The GPT-2 lineage's types as rows of [`GptDesc`] (see `config/spec_gpt.rs`). Defaults are
//! those of transformers 5.24's `configuration_<type>.py`; the names and switches those of its
//! `modeling_<type>.py`.

use super::spec::{Bias, Dv, HeadKind, Spec};
use super::spec_dense::BASE;
use super::spec_gpt::{Act, Buffers, Ffn, GptDesc, GptWindow, OFF, ON, Positions, Qkv, Residual, SizeKeys};
use super::spec_llama_like::keys;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, QuestionAnswering, Sequence, Token};

/// GPT-2's key names (`n_embd`, `n_layer`, ...), which GPT-J, CodeGen and GPT-1 keep.
pub(super) const GPT2_SIZES: SizeKeys = SizeKeys {
    vocab: "vocab_size",
    hidden: "n_embd",
    layers: "n_layer",
    heads: "n_head",
    ffn: Ffn::KeyOr4x("n_inner"),
    positions: "n_positions",
    eps: Some("layer_norm_epsilon"),
    act: Act::Key("activation_function"),
};

/// `attribute_map` of the classes that keep GPT-2's names.
pub(super) const GPT2_ALIASES: &[(&str, &str)] = &[
    ("max_position_embeddings", "n_positions"),
    ("hidden_size", "n_embd"),
    ("num_attention_heads", "n_head"),
    ("num_hidden_layers", "n_layer"),
];

/// GPT-J's layer: one LayerNorm read by attention and MLP in parallel, rotary positions, no
/// attention biases, a biased LM head.
pub(super) const GPTJ: GptDesc = GptDesc {
    keys: Spec {
        model_type: "gptj",
        classes: &[
            ("GPTJModel", Model),
            ("GPTJForCausalLM", CausalLm),
            ("GPTJForSequenceClassification", Sequence),
            ("GPTJForQuestionAnswering", QuestionAnswering),
        ],
        keys: keys![vocab_size: U(50400), n_positions: U(2048), n_embd: U(4096), n_layer: U(28),
            n_head: U(16), n_inner: Null, activation_function: S("gelu_new"), layer_norm_epsilon: F(1e-5),
            pad_token_id: Null, tie_word_embeddings: B(false)],
        aliases: GPT2_ALIASES,
        ..BASE
    },
    sizes: GPT2_SIZES,
    base: "transformer.",
    inner: "",
    embed: "wte",
    scale_key: None,
    embed_width_key: None,
    affine_key: None,
    attn_words: None,
    final_section: None,
    positions: Positions::Fixed("rotary"),
    layers: "h",
    attn: "attn",
    qkv: Qkv::Split(["q_proj", "k_proj", "v_proj"]),
    out: "out_proj",
    qkv_bias: OFF,
    out_bias: OFF,
    conv1d: false,
    mlp: ["mlp.fc_in", "mlp.fc_out"],
    mlp_bias: ON,
    norms: &["ln_1"],
    residual: Residual::Parallel,
    final_norm: Some("ln_f"),
    lm: "lm_head",
    lm_bias: ON,
    lm_side_bias: None,
    seq_head: "score",
    token_head: "classifier",
    norm_bias: true,
    qk_norm_key: None,
    last_out_bias: None,
    window: GptWindow::None,
    cross: OFF,
    cross_names: ["encoder_attn", "encoder_attn_layer_norm"],
    embed_norm: None,
    embed_norm_key: None,
    cross_width_key: None,
    buffers: Buffers::None,
};

/// BioGPT's layer (fairseq's pre-norm decoder layer), which XGLM shares.
pub(super) const BIOGPT: GptDesc = GptDesc {
    keys: Spec {
        model_type: "biogpt",
        classes: &[
            ("BioGptModel", Model),
            ("BioGptForCausalLM", CausalLm),
            ("BioGptForTokenClassification", Token),
            ("BioGptForSequenceClassification", Sequence),
        ],
        keys: keys![vocab_size: U(42384), hidden_size: U(1024), num_hidden_layers: U(24),
            num_attention_heads: U(16), intermediate_size: U(4096), hidden_act: S("gelu"),
            max_position_embeddings: U(1024), scale_embedding: B(true), pad_token_id: U(1),
            tie_word_embeddings: B(true)],
        ..BASE
    },
    sizes: SizeKeys {
        vocab: "vocab_size",
        hidden: "hidden_size",
        layers: "num_hidden_layers",
        heads: "num_attention_heads",
        ffn: Ffn::Key("intermediate_size"),
        positions: "max_position_embeddings",
        // Its LayerNorms are built without `layer_norm_eps`.
        eps: None,
        act: Act::Key("hidden_act"),
    },
    base: "biogpt.",
    inner: "",
    embed: "embed_tokens",
    scale_key: Some("scale_embedding"),
    positions: Positions::Learned { name: "embed_positions", offset: 2 },
    layers: "layers",
    attn: "self_attn",
    qkv_bias: ON,
    out_bias: ON,
    mlp: ["fc1", "fc2"],
    norms: &["self_attn_layer_norm", "final_layer_norm"],
    residual: Residual::Sequential,
    final_norm: Some("layer_norm"),
    lm: "output_projection",
    lm_bias: OFF,
    ..GPTJ
};

use super::spec_gpt_classic::{GPT_NEOX, OPT};

pub const TYPES: &[GptDesc] = &[
    GPT_NEOX,
    OPT,
    GptDesc {
        keys: Spec {
            model_type: "gpt_neo",
            classes: &[
                ("GPTNeoModel", Model),
                ("GPTNeoForCausalLM", CausalLm),
                ("GPTNeoForSequenceClassification", Sequence),
                ("GPTNeoForTokenClassification", Token),
                ("GPTNeoForQuestionAnswering", QuestionAnswering),
            ],
            keys: keys![vocab_size: U(50257), max_position_embeddings: U(2048), hidden_size: U(2048),
                num_layers: U(24), num_heads: U(16), intermediate_size: Null, window_size: U(256),
                activation_function: S("gelu_new"), layer_norm_epsilon: F(1e-5), pad_token_id: Null,
                tie_word_embeddings: B(true)],
            aliases: &[("num_attention_heads", "num_heads"), ("num_hidden_layers", "num_layers")],
            ..BASE
        },
        sizes: SizeKeys {
            hidden: "hidden_size",
            layers: "num_layers",
            heads: "num_heads",
            ffn: Ffn::KeyOr4x("intermediate_size"),
            positions: "max_position_embeddings",
            ..GPT2_SIZES
        },
        embed: "wte",
        positions: Positions::Learned { name: "wpe", offset: 0 },
        attn: "attn.attention",
        out_bias: ON,
        mlp: ["mlp.c_fc", "mlp.c_proj"],
        norms: &["ln_1", "ln_2"],
        residual: Residual::Sequential,
        lm_bias: OFF,
        window: GptWindow::NeoTypes,
        ..GPTJ
    },
    GPTJ,
    GptDesc {
        keys: Spec {
            model_type: "codegen",
            classes: &[("CodeGenModel", Model), ("CodeGenForCausalLM", CausalLm)],
            keys: keys![vocab_size: U(50400), n_positions: U(2048), n_embd: U(4096), n_layer: U(28),
                n_head: U(16), n_inner: Null, activation_function: S("gelu_new"), layer_norm_epsilon: F(1e-5),
                tie_word_embeddings: B(false)],
            aliases: GPT2_ALIASES,
            ..BASE
        },
        qkv: Qkv::Fused("qkv_proj"),
        ..GPTJ
    },
    GptDesc {
        keys: Spec {
            model_type: "xglm",
            classes: &[("XGLMModel", Model), ("XGLMForCausalLM", CausalLm)],
            keys: keys![vocab_size: U(256008), max_position_embeddings: U(2048), d_model: U(1024),
                ffn_dim: U(4096), num_layers: U(24), attention_heads: U(16), activation_function: S("gelu"),
                scale_embedding: B(true), pad_token_id: U(1), add_cross_attention: B(false),
                tie_word_embeddings: B(true)],
            aliases: &[
                ("num_attention_heads", "attention_heads"),
                ("hidden_size", "d_model"),
                ("num_hidden_layers", "num_layers"),
            ],
            ..BASE
        },
        sizes: SizeKeys {
            vocab: "vocab_size",
            hidden: "d_model",
            layers: "num_layers",
            heads: "attention_heads",
            ffn: Ffn::Key("ffn_dim"),
            positions: "max_position_embeddings",
            eps: None,
            act: Act::Key("activation_function"),
        },
        base: "model.",
        positions: Positions::Fixed("sinusoidal"),
        lm: "lm_head",
        cross: Bias::Key("add_cross_attention"),
        ..BIOGPT
    },
    BIOGPT,
];
