//! The BART lineage of encoder-decoders as descriptions: one [`Seq2Seq`] per model type says its
//! config class's defaults, the classes it ships and which blocks its two stacks stack; the
//! reader (`config/bart.rs`) and the builder (`graph/bart.rs`) do the rest. Every type here has
//! BART's layers (q/k/v/out projections with biases, `fc1`/`fc2`, LayerNorms named
//! `self_attn_layer_norm`, `encoder_attn_layer_norm`, `final_layer_norm`) and a `shared` token table;
//! they differ in positions, where the norms sit and which extra norms they hold.

/// How a stack's positions are embedded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    /// A learned table of `max_position_embeddings + offset` rows (BART's legacy 2-row offset).
    Learned { offset: u64 },
    /// Fixed sinusoids held in an `nn.Embedding` weight (Marian, Pegasus): a parameter of
    /// `max_position_embeddings` rows that transformers counts, though it is never trained.
    SinusoidalWeight,
    /// Fixed sinusoids in a buffer (M2M-100): no parameter.
    SinusoidalBuffer,
}

/// The config class's defaults (its `__init__` signature).
#[derive(Debug, Clone, Copy)]
pub struct Defaults {
    pub vocab_size: u64,
    pub max_position_embeddings: u64,
    pub d_model: u64,
    pub encoder_layers: u64,
    pub encoder_ffn_dim: u64,
    pub encoder_attention_heads: u64,
    pub decoder_layers: u64,
    pub decoder_ffn_dim: u64,
    pub decoder_attention_heads: u64,
    pub activation_function: &'static str,
    pub pad_token_id: u64,
    /// `num_labels` when the file has neither `id2label` nor `num_labels` (BartConfig: 3).
    pub num_labels: u64,
}

/// One model type of the lineage.
#[derive(Debug)]
pub struct Seq2Seq {
    pub model_type: &'static str,
    /// The class names' prefix (`MBart` for `MBartForConditionalGeneration`).
    pub prefix: &'static str,
    /// The class suffixes the modeling file defines: `Model`, `ForConditionalGeneration` (Marian
    /// calls it `MTModel`), `ForSequenceClassification`, `ForQuestionAnswering`, `ForCausalLM`.
    pub classes: &'static [&'static str],
    pub defaults: Defaults,
    pub positions: Positions,
    /// `layernorm_embedding` after the token and position sum (BART, mBART, BlenderbotSmall).
    pub layernorm_embedding: bool,
    /// A `layer_norm` closing each stack (the pre-LayerNorm types: mBART, Pegasus, M2M-100).
    pub final_norm: bool,
    /// Norms before each sub-layer (pre-LN) rather than after the residual (post-LN): the same
    /// tensors, said on the page.
    pub pre_norm: bool,
    /// The `final_logits_bias` buffer of the generation class (all but M2M-100).
    pub logits_bias: bool,
    /// LED: the base model under `led.`, Longformer self-attention in the encoder
    /// (`self_attn.longformer_self_attn.{query,key,value}` and their `_global` twins, then
    /// `self_attn.output`), and positions per stack from `max_encoder_position_embeddings` and
    /// `max_decoder_position_embeddings`.
    pub led: bool,
    /// MVP's `use_prompt`, `prompt_length` and `prompt_mid_dim` keys.
    pub mvp_prompt: bool,
    /// Marian's `decoder_vocab_size` and `share_encoder_decoder_embeddings` keys.
    pub marian_vocab: bool,
}

const BART_CLASSES: &[&str] = &[
    "Model",
    "ForConditionalGeneration",
    "ForSequenceClassification",
    "ForQuestionAnswering",
    "ForCausalLM",
];
const GENERATION_CLASSES: &[&str] = &["Model", "ForConditionalGeneration", "ForCausalLM"];

const BART_DEFAULTS: Defaults = Defaults {
    vocab_size: 50265,
    max_position_embeddings: 1024,
    d_model: 1024,
    encoder_layers: 12,
    encoder_ffn_dim: 4096,
    encoder_attention_heads: 16,
    decoder_layers: 12,
    decoder_ffn_dim: 4096,
    decoder_attention_heads: 16,
    activation_function: "gelu",
    pad_token_id: 1,
    num_labels: 3,
};

pub const BART: Seq2Seq = Seq2Seq {
    model_type: "bart",
    prefix: "Bart",
    classes: BART_CLASSES,
    defaults: BART_DEFAULTS,
    positions: Positions::Learned { offset: 2 },
    layernorm_embedding: true,
    final_norm: false,
    pre_norm: false,
    logits_bias: true,
    led: false,
    mvp_prompt: false,
    marian_vocab: false,
};

/// mBART: BART's embeddings with pre-LN layers and a norm closing each stack.
pub const MBART: Seq2Seq = Seq2Seq {
    model_type: "mbart",
    prefix: "MBart",
    defaults: Defaults { num_labels: 2, ..BART_DEFAULTS },
    final_norm: true,
    pre_norm: true,
    ..BART
};

/// PLBART: BART's layout under its own defaults.
pub const PLBART: Seq2Seq = Seq2Seq {
    model_type: "plbart",
    prefix: "PLBart",
    classes: &["Model", "ForConditionalGeneration", "ForSequenceClassification", "ForCausalLM"],
    defaults: Defaults {
        vocab_size: 50005,
        d_model: 768,
        encoder_layers: 6,
        encoder_ffn_dim: 3072,
        encoder_attention_heads: 12,
        decoder_layers: 6,
        decoder_ffn_dim: 3072,
        decoder_attention_heads: 12,
        num_labels: 2,
        ..BART_DEFAULTS
    },
    ..BART
};

/// Pegasus: pre-LN, sinusoidal positions in an embedding weight, no `layernorm_embedding`.
pub const PEGASUS: Seq2Seq = Seq2Seq {
    model_type: "pegasus",
    prefix: "Pegasus",
    classes: GENERATION_CLASSES,
    defaults: Defaults { pad_token_id: 0, num_labels: 2, ..BART_DEFAULTS },
    positions: Positions::SinusoidalWeight,
    layernorm_embedding: false,
    final_norm: true,
    pre_norm: true,
    logits_bias: true,
    led: false,
    mvp_prompt: false,
    marian_vocab: false,
};

/// Marian: post-LN like BART, sinusoidal positions in an embedding weight, no
/// `layernorm_embedding`; its generation class is `MarianMTModel`.
pub const MARIAN: Seq2Seq = Seq2Seq {
    model_type: "marian",
    prefix: "Marian",
    classes: &["Model", "MTModel", "ForCausalLM"],
    defaults: Defaults { vocab_size: 58101, pad_token_id: 58100, num_labels: 2, ..BART_DEFAULTS },
    positions: Positions::SinusoidalWeight,
    layernorm_embedding: false,
    final_norm: false,
    pre_norm: false,
    logits_bias: true,
    led: false,
    mvp_prompt: false,
    marian_vocab: true,
};

/// M2M-100 (and NLLB's dense checkpoints): pre-LN, sinusoids in a buffer, no LM-only class.
pub const M2M_100: Seq2Seq = Seq2Seq {
    model_type: "m2m_100",
    prefix: "M2M100",
    classes: &["Model", "ForConditionalGeneration"],
    defaults: Defaults { vocab_size: 128112, activation_function: "relu", num_labels: 2, ..BART_DEFAULTS },
    positions: Positions::SinusoidalBuffer,
    logits_bias: false,
    ..PEGASUS
};

/// NLLB-MoE: M2M-100's stacks with top-2 experts in every n-th feed-forward; its layers' own
/// names and the experts are built by `graph/nllb_moe.rs` (`config/nllb_moe.rs` reads the keys).
pub const NLLB_MOE: Seq2Seq = Seq2Seq { model_type: "nllb-moe", prefix: "NllbMoe", ..M2M_100 };

/// PEGASUS-X: Pegasus for long inputs, M2M-100's embeddings and norms with bias-free attention,
/// block-local attention with global tokens in the encoder (`embed_global`, a
/// `global_self_attn_layer_norm` per layer); built by `graph/pegasus_x.rs`.
pub const PEGASUS_X: Seq2Seq = Seq2Seq {
    model_type: "pegasus_x",
    prefix: "PegasusX",
    defaults: Defaults {
        vocab_size: 96103,
        max_position_embeddings: 16384,
        encoder_layers: 16,
        decoder_layers: 16,
        pad_token_id: 0,
        num_labels: 2,
        ..BART_DEFAULTS
    },
    ..M2M_100
};

/// Blenderbot: pre-LN with learned positions and no offset.
pub const BLENDERBOT: Seq2Seq = Seq2Seq {
    model_type: "blenderbot",
    prefix: "Blenderbot",
    defaults: Defaults {
        vocab_size: 8008,
        max_position_embeddings: 128,
        d_model: 2560,
        encoder_layers: 2,
        encoder_ffn_dim: 10240,
        encoder_attention_heads: 32,
        decoder_layers: 24,
        decoder_ffn_dim: 10240,
        decoder_attention_heads: 32,
        activation_function: "gelu",
        pad_token_id: 0,
        num_labels: 2,
    },
    positions: Positions::Learned { offset: 0 },
    ..PEGASUS
};

/// BlenderbotSmall: BART's post-LN layers with learned positions and no offset.
pub const BLENDERBOT_SMALL: Seq2Seq = Seq2Seq {
    model_type: "blenderbot-small",
    prefix: "BlenderbotSmall",
    classes: GENERATION_CLASSES,
    defaults: Defaults {
        max_position_embeddings: 512,
        d_model: 512,
        encoder_layers: 8,
        encoder_ffn_dim: 2048,
        decoder_layers: 8,
        decoder_ffn_dim: 2048,
        pad_token_id: 0,
        num_labels: 2,
        ..BART_DEFAULTS
    },
    positions: Positions::Learned { offset: 0 },
    ..BART
};

/// MVP: BART's layers; with `use_prompt`, the decoder of `MvpModel` also holds two prompt
/// networks (self- and cross-attention), each an embedding and a two-layer MLP.
pub const MVP: Seq2Seq = Seq2Seq {
    model_type: "mvp",
    prefix: "Mvp",
    defaults: Defaults { vocab_size: 50267, num_labels: 2, ..BART_DEFAULTS },
    mvp_prompt: true,
    ..BART
};

/// LED: BART's post-LN layout with Longformer attention in the encoder and learned positions
/// without offset, 16384 for the encoder and 1024 for the decoder by default.
pub const LED: Seq2Seq = Seq2Seq {
    model_type: "led",
    prefix: "LED",
    classes: &["Model", "ForConditionalGeneration", "ForQuestionAnswering"],
    defaults: Defaults { num_labels: 2, ..BART_DEFAULTS },
    positions: Positions::Learned { offset: 0 },
    led: true,
    ..BART
};

/// Every type of the lineage, looked up by `model_type`.
pub const TYPES: &[&Seq2Seq] = &[
    &BART,
    &MBART,
    &PLBART,
    &PEGASUS,
    &MARIAN,
    &M2M_100,
    &BLENDERBOT,
    &BLENDERBOT_SMALL,
    &MVP,
    &LED,
    &NLLB_MOE,
    &PEGASUS_X,
    &super::seq2seq_misc::BIGBIRD_PEGASUS,
];

pub fn find(model_type: &str) -> Option<&'static Seq2Seq> {
    TYPES.iter().copied().find(|t| t.model_type == model_type)
}
