//! The T5 lineage of encoder-decoders as descriptions: one [`T5Like`] per model type says its
//! config class's defaults, the classes it ships and which blocks its stacks hold; the reader
//! (`config/t5.rs`) and the builder (`graph/t5.rs`) do the rest. Every type here has T5's
//! layers: bias-free `q`/`k`/`v`/`o`, a scale-only RMSNorm before each sub-layer, bucketed
//! relative position biases and one `shared` token table.

use super::t5::BiasLayout;

/// The config class's defaults (its `__init__` signature).
#[derive(Debug, Clone, Copy)]
pub struct T5Defaults {
    pub vocab_size: u64,
    pub d_model: u64,
    pub d_kv: u64,
    pub d_ff: u64,
    pub num_layers: u64,
    /// `None`: `num_decoder_layers` follows `num_layers` (T5); SwitchTransformersConfig's own
    /// default is 12 whatever the encoder's depth.
    pub num_decoder_layers: Option<u64>,
    pub num_heads: u64,
    /// `feed_forward_proj` (or Switch's `dense_act_fn`).
    pub activation: &'static str,
    pub tie_word_embeddings: bool,
}

/// What the encoder's self-attention is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncoderAttention {
    /// T5's `SelfAttention`.
    Full,
    /// LongT5: `encoder_attention_type` picks `LocalSelfAttention` (T5's tensors) or
    /// `TransientGlobalSelfAttention` (also a `global_input_layer_norm` in every layer and a
    /// `global_relative_attention_bias` beside the first layer's table).
    LongT5,
}

/// Switch Transformers' sparse layers: every `num_layers / num_sparse_*_layers`-th feed-forward
/// is a top-1 router over `num_experts` copies of the dense `wi`/`wo` MLP.
#[derive(Debug, Clone, Copy)]
pub struct SwitchDefaults {
    pub num_experts: u64,
    pub num_sparse_encoder_layers: u64,
    pub num_sparse_decoder_layers: u64,
    pub router_bias: bool,
}

/// One model type of the lineage.
#[derive(Debug)]
pub struct T5Like {
    pub model_type: &'static str,
    /// Where the position-bias tables sit (the class's own type decides, see `kin`).
    pub bias: BiasLayout,
    /// The class names' prefix (`LongT5` for `LongT5ForConditionalGeneration`).
    pub prefix: &'static str,
    /// Types whose class names this type's files may carry (T5 files naming MT5 classes).
    pub kin: &'static [&'static str],
    /// The class suffixes the modeling file defines.
    pub classes: &'static [&'static str],
    pub defaults: T5Defaults,
    /// transformers 5.x's config class forces `tie_word_embeddings` true (the file's flag then
    /// only decides the output scaling).
    pub forced_tie: bool,
    /// `head_dim` is an alias of `d_kv` (not in SwitchTransformersConfig's `attribute_map`).
    pub head_dim_alias: bool,
    pub encoder_attention: EncoderAttention,
    /// Switch's experts; their presence also makes `dense_act_fn` (never gated) the activation
    /// key in place of `feed_forward_proj`.
    pub switch: Option<SwitchDefaults>,
}

/// `T5Model`, `T5ForConditionalGeneration`, `T5EncoderModel`, then the labelled heads.
const GENERATION: [&str; 3] = ["Model", "ForConditionalGeneration", "EncoderModel"];
const T5_CLASSES: &[&str] = &[
    GENERATION[0],
    GENERATION[1],
    GENERATION[2],
    "ForSequenceClassification",
    "ForTokenClassification",
    "ForQuestionAnswering",
];
const T5_KIN: &[&str] = &["t5", "mt5", "umt5"];

pub const T5: T5Like = T5Like {
    model_type: "t5",
    prefix: "T5",
    classes: T5_CLASSES,
    defaults: T5Defaults {
        vocab_size: 32128,
        d_model: 512,
        d_kv: 64,
        d_ff: 2048,
        num_layers: 6,
        num_decoder_layers: None,
        num_heads: 8,
        activation: "relu",
        // T5Config leaves tie_word_embeddings to PretrainedConfig, which ties.
        tie_word_embeddings: true,
    },
    bias: BiasLayout::FirstLayer,
    forced_tie: true,
    head_dim_alias: true,
    encoder_attention: EncoderAttention::Full,
    switch: None,
    kin: T5_KIN,
};

const MT5_DEFAULTS: T5Defaults = T5Defaults {
    vocab_size: 250112,
    d_ff: 1024,
    num_layers: 8,
    num_heads: 6,
    activation: "gated-gelu",
    tie_word_embeddings: false,
    ..T5.defaults
};

/// mT5: T5 v1.1's gated-GELU layers under a 250k vocabulary.
pub const MT5: T5Like = T5Like { model_type: "mt5", prefix: "MT5", defaults: MT5_DEFAULTS, ..T5 };

/// UMT5: mT5 with a position-bias table in every self-attention.
pub const UMT5: T5Like = T5Like {
    model_type: "umt5",
    prefix: "UMT5",
    defaults: T5Defaults { tie_word_embeddings: true, ..MT5_DEFAULTS },
    bias: BiasLayout::EveryLayer,
    ..T5
};

/// LongT5: T5's layers with local or transient-global attention in the encoder.
pub const LONGT5: T5Like = T5Like {
    model_type: "longt5",
    prefix: "LongT5",
    classes: &GENERATION,
    encoder_attention: EncoderAttention::LongT5,
    kin: &["longt5"],
    ..T5
};

/// Switch Transformers: T5's layers with top-1 experts in every n-th feed-forward; the flag
/// `tie_word_embeddings` decides the head's tie.
pub const SWITCH_TRANSFORMERS: T5Like = T5Like {
    model_type: "switch_transformers",
    prefix: "SwitchTransformers",
    classes: &GENERATION,
    defaults: T5Defaults {
        d_model: 768,
        num_layers: 12,
        num_decoder_layers: Some(12),
        num_heads: 12,
        ..T5.defaults
    },
    forced_tie: false,
    head_dim_alias: false,
    switch: Some(SwitchDefaults {
        num_experts: 8,
        num_sparse_encoder_layers: 3,
        num_sparse_decoder_layers: 3,
        router_bias: false,
    }),
    kin: &["switch_transformers"],
    ..T5
};

/// Every type of the lineage, looked up by `model_type`.
pub const TYPES: &[&T5Like] = &[&T5, &MT5, &UMT5, &LONGT5, &SWITCH_TRANSFORMERS];

pub fn find(model_type: &str) -> Option<&'static T5Like> {
    TYPES.iter().copied().find(|t| t.model_type == model_type)
}

/// The type a class name belongs to among `kin`, longest prefix first (`UMT5Model` is not T5's).
pub fn of_class<'a>(kin: &[&str], class: &'a str) -> Option<(&'static T5Like, &'a str)> {
    TYPES
        .iter()
        .copied()
        .filter(|t| kin.contains(&t.model_type))
        .filter_map(|t| class.strip_prefix(t.prefix).map(|rest| (t, rest)))
        .max_by_key(|(t, _)| t.prefix.len())
}
