//! Encoder types of the BERT lineage described as data: each type is an [`EncoderDesc`], its
//! config class's defaults, its class names, where its encoder lives in a head class
//! (`base_model_prefix`), which head style it builds, and where its LayerNorms sit. One reader
//! (`config/bert.rs`) resolves any of them; one builder (`graph/bert.rs`, from the blocks of
//! `graph/encoder.rs`) plans it. How to add one is in the README ("Adding a model type"). The
//! other encoder families (ELECTRA, ALBERT, MPNet, DistilBERT, DeBERTa-v2) share its dimensions and
//! head classes.

mod read;
mod read_enc4;
mod read_enc6;
mod table;
mod table_enc2;
mod table_enc4;
mod table_enc6;

pub(crate) use read::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH};
pub(crate) use read::{encoder_dims, head_of, labelled, match_class, position_embedding, sizes};
pub use read_enc4::{Adapters, Glyphs, SpanConv};
pub(crate) use read_enc4::{
    adapters, boolean, embed_width, glyphs, groups, head_dim, rotary_switch, span_conv,
};
pub use read_enc6::{Enc6, Enc6Desc, Entities, Heads, finish_enc6};
pub use table::{TYPES, interchangeable, lookup};

/// BERT heads live under `cls.` (`cls.predictions`, `cls.seq_relationship`) and classify from
/// the pooled vector; RoBERTa heads under `lm_head.` and `classifier.` (a dense + `out_proj`
/// classification head on the first token, no pooler).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Bert,
    Roberta,
    /// YOSO, MRA and Nyströmformer: BERT's masked-LM head, RoBERTa's classification head, no
    /// pooler, and multiple choice through a `pre_classifier` (dense + ReLU).
    Yoso,
    /// BigBird: BERT's masked-LM and pre-training heads, RoBERTa's classification head, a
    /// pooler (`pooler`, a bare linear) under every class but question answering, whose head
    /// runs an MLP and a norm before `qa_outputs`.
    BigBird,
    /// RoFormer: BERT's masked-LM head, RoBERTa's classification head, no pooler, multiple
    /// choice through a bare classifier.
    RoFormer,
}

/// A depthwise convolution over each head's values, and the key that sizes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conv {
    None,
    /// YOSO's `conv_window`: none unless the file sets it.
    Window,
    /// Nyströmformer's `conv_kernel_size`: 65 by default, none when the file writes null.
    Kernel,
}

/// The config class's defaults for the keys every type of the lineage reads.
#[derive(Debug, Clone, Copy)]
pub struct Defaults {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_hidden_layers: u64,
    pub num_attention_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
}

impl Defaults {
    /// The size keys in the order BERT's resolver reads (and records) them.
    pub fn keys(&self) -> [SizeKey; 7] {
        [
            ("vocab_size", self.vocab_size, VOCAB),
            ("hidden_size", self.hidden_size, WIDTH),
            ("num_hidden_layers", self.num_hidden_layers, LAYERS),
            ("num_attention_heads", self.num_attention_heads, HEADS),
            ("intermediate_size", self.intermediate_size, FFN),
            ("max_position_embeddings", self.max_position_embeddings, POSITIONS),
            ("type_vocab_size", self.type_vocab_size, TABLE),
        ]
    }
}

/// `BertConfig`'s defaults, which most of the lineage keeps.
pub const BERT_DEFAULTS: Defaults = Defaults {
    vocab_size: 30522,
    hidden_size: 768,
    num_hidden_layers: 12,
    num_attention_heads: 12,
    intermediate_size: 3072,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
};

/// Where a layer's two LayerNorms sit and what they are called (under `encoder.layer.{i}.`),
/// whether the embeddings end in one, and the final norm after the stack (under the encoder's
/// prefix), if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Norms {
    /// `embeddings.LayerNorm` over the sum of the tables.
    pub embeddings: bool,
    /// Post-LN (BERT): each norm after its residual add. Pre-LN: before its sublayer.
    pub pre: bool,
    pub attention: &'static str,
    pub mlp: &'static str,
    pub last: Option<&'static str>,
}

/// BERT's post-LN layer.
pub const POST_LN: Norms = Norms {
    embeddings: true,
    pre: false,
    attention: "attention.output.LayerNorm",
    mlp: "output.LayerNorm",
    last: None,
};

/// One model type of the lineage.
#[derive(Debug, Clone, Copy)]
pub struct EncoderDesc {
    pub model_type: &'static str,
    /// Class names: a prefix and a head suffix (`Roberta` + `ForMaskedLM`); the causal LM is
    /// `LMHeadModel` for BERT, `ForCausalLM` elsewhere.
    pub classes: Classes,
    /// `base_model_prefix`: the encoder's module in a head class, with its dot.
    pub module: &'static str,
    /// What a checkpoint's tensor names may be prefixed with when loaded into another class.
    pub prefixes: &'static [&'static str],
    pub style: Style,
    pub defaults: Defaults,
    pub norms: Norms,
    /// ERNIE's `task_type_embeddings`, built when `use_task_id` is set.
    pub task_ids: bool,
    /// LayoutLM's four 2-D position tables (`x_`, `y_`, `h_`, `w_position_embeddings`) of
    /// `max_2d_position_embeddings` rows.
    pub layout: bool,
    /// Every class keeps the pooler (LayoutLM), rather than BERT's rule per head.
    pub pooler_always: bool,
    /// Rows of the position table beyond `max_position_embeddings` (YOSO's ids start at 2).
    pub position_offset: u64,
    pub conv: Conv,
    /// Longformer's `query_global`, `key_global` and `value_global` beside q, k and v.
    pub global_attention: bool,
    /// The boolean key that drops q, k and v's biases (BigBird's `use_bias`, true by default).
    pub qkv_bias_key: Option<&'static str>,
    /// RoCBert's pronunciation and shape tables, and the linear its `concat_input` maps the
    /// concatenated embeddings back to the hidden size with.
    pub glyphs: bool,
    /// `ForPreTraining` adds BERT's next-sentence classifier (RoCBert's has only the MLM head).
    pub nsp: bool,
    /// Embedding tables narrower than the layers (RemBERT, RoFormer).
    pub embed_width: Option<EmbedWidth>,
    pub positions: Positions,
    pub mlm: Mlm,
    /// The GTE-style post-LN layer under `layers.{i}` (`self_attn.q_proj`, ..., `mlp`,
    /// `post_attention_layernorm`, `post_mlp_layernorm`) in place of BERT's.
    pub rotary: Option<Rotary>,
    /// The bare model class builds the pooler (GTE's and Nomic BERT's default to none).
    pub bare_pooler: bool,
    /// ESM: the embeddings' norm is `layer_norm`, built only when this boolean key is set.
    pub embed_norm_key: Option<&'static str>,
    /// ESM's `contact_head.regression`, a linear from every layer's attention maps to one logit.
    pub contact_head: bool,
    /// A `token_type_embeddings` table (ESM has none).
    pub token_types: bool,
    /// X-MOD's language adapters after each layer's MLP (`output.adapter_modules.{lang}`).
    pub adapters: bool,
    /// SqueezeBERT's layer of grouped 1-wide convolutions under `encoder.layers.{i}`.
    pub grouped: bool,
    /// ConvBERT's mixed attention and grouped MLP (`head_ratio`, `conv_kernel_size`, `num_groups`).
    pub span_conv: bool,
    /// What issue 10's enc6 rows change (FNet's mixer, TAPAS's tables, Splinter's head).
    pub enc6: Enc6Desc,
}

/// The biases and MLP of a [`EncoderDesc::rotary`] layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotary {
    /// q, k, v and o.
    pub attention_bias: bool,
    pub mlp: RotaryMlp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RotaryMlp {
    /// `gate_proj`, `up_proj` (their bias) and `down_proj` (its bias).
    Gated { up_bias: bool, down_bias: bool },
    /// `fc1` and `fc2`, with biases.
    Fc,
}

/// The key that sizes the embedding tables, its default (None: the hidden size), and the linear
/// that projects them to the hidden size: its name under the encoder's prefix, and whether the
/// class builds it when the two widths are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbedWidth {
    pub key: &'static str,
    pub default: Option<u64>,
    pub project: &'static str,
    pub always: bool,
}

/// Where positions come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    /// BERT's learned `position_embeddings` table.
    Learned,
    /// RoFormer's rotary positions, whose sinusoids are a frozen `encoder.embed_positions`
    /// table of `max_position_embeddings` x head_dim (a parameter transformers counts).
    Sinusoid,
    /// Rotary positions computed on the fly: no table.
    Rotary,
    /// ESM's `position_embedding_type`: a learned table when `absolute`, none when `rotary`.
    Switched,
}

/// The masked-LM head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mlm {
    /// The style's head, its transform as wide as the embeddings and its decoder tied to them.
    Style,
    /// RemBERT's: `cls.predictions.dense` to `output_embedding_size`, a LayerNorm there, and a
    /// decoder with its own bias that no class ties.
    Projected,
    /// GTE's and ESM's `lm_head` (dense, `layer_norm`, decoder): the decoder's weight tied, one
    /// bias of the vocabulary's size under this name (GTE's decoder's own, ESM's `lm_head.bias`).
    LmHead { bias: &'static str },
    /// ELECTRA's and ConvBERT's generator head: `generator_predictions` (dense to the embedding
    /// width, LayerNorm) and `generator_lm_head`, tied to the word table, with its bias.
    Generator,
}

pub const BERT: EncoderDesc = EncoderDesc {
    model_type: "bert",
    classes: Classes {
        prefix: "Bert",
        causal_lm: Some("LMHeadModel"),
        pretraining: true,
        next_sentence: true,
    },
    module: "bert.",
    prefixes: &["bert.", "roberta."],
    style: Style::Bert,
    defaults: BERT_DEFAULTS,
    norms: POST_LN,
    task_ids: false,
    layout: false,
    pooler_always: false,
    position_offset: 0,
    conv: Conv::None,
    global_attention: false,
    qkv_bias_key: None,
    glyphs: false,
    nsp: true,
    embed_width: None,
    positions: Positions::Learned,
    mlm: Mlm::Style,
    rotary: None,
    bare_pooler: true,
    embed_norm_key: None,
    contact_head: false,
    token_types: true,
    adapters: false,
    grouped: false,
    span_conv: false,
    enc6: read_enc6::LINEAGE,
};

pub const ROBERTA: EncoderDesc = EncoderDesc {
    model_type: "roberta",
    classes: Classes { prefix: "Roberta", ..table::ROBERTA_CLASSES },
    module: "roberta.",
    style: Style::Roberta,
    defaults: Defaults { vocab_size: 50265, pad_token_id: 1, ..BERT_DEFAULTS },
    ..BERT
};

/// The head classes an encoder type defines beyond the bare model, masked LM and the four task
/// heads (sequence and token classification, question answering, multiple choice).
#[derive(Debug, Clone, Copy)]
pub struct Classes {
    pub prefix: &'static str,
    /// The causal-LM class's suffix, if it has one.
    pub causal_lm: Option<&'static str>,
    /// `ForPreTraining`.
    pub pretraining: bool,
    /// `ForNextSentencePrediction`.
    pub next_sentence: bool,
}
