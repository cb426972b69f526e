//! Encoder types of the BERT lineage described as data: each type is an [`EncoderDesc`], its
//! config class's defaults, its class names, where its encoder lives in a head class
//! (`base_model_prefix`), which head style it builds, and where its LayerNorms sit. One reader
//! (`config/bert.rs`) resolves any of them; one builder (`graph/bert.rs`, from the blocks of
//! `graph/encoder.rs`) plans it. How to add one is in the README ("Adding a model type"). The
//! other encoder families (ELECTRA, ALBERT, MPNet, DistilBERT, DeBERTa-v2) share its dimensions and
//! head classes.

use super::bert::{Head, UnknownClass};
use super::{ConfigError, Defaulted, classifier_labels};

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
};

pub const ROBERTA: EncoderDesc = EncoderDesc {
    model_type: "roberta",
    classes: Classes { prefix: "Roberta", ..ROBERTA_CLASSES },
    module: "roberta.",
    style: Style::Roberta,
    defaults: Defaults { vocab_size: 50265, pad_token_id: 1, ..BERT_DEFAULTS },
    ..BERT
};

/// RoBERTa's classes: a causal LM, no pre-training or next-sentence classes.
const ROBERTA_CLASSES: Classes =
    Classes { prefix: "", causal_lm: Some("ForCausalLM"), pretraining: false, next_sentence: false };

/// BERT's classes with a causal LM named as RoBERTa names it (ERNIE, Megatron-BERT).
const BERT_CLASSES: Classes =
    Classes { prefix: "", causal_lm: Some("ForCausalLM"), pretraining: true, next_sentence: true };

/// YOSO's classes: no causal LM, no pre-training heads.
const YOSO_CLASSES: Classes =
    Classes { prefix: "", causal_lm: None, pretraining: false, next_sentence: false };

/// `YosoConfig`'s defaults (RoBERTa's vocabulary, 4096 positions, one token type).
const YOSO_DEFAULTS: Defaults = Defaults {
    vocab_size: 50265,
    max_position_embeddings: 4096,
    type_vocab_size: 1,
    pad_token_id: 1,
    ..BERT_DEFAULTS
};

pub const TYPES: &[EncoderDesc] = &[
    BERT,
    ROBERTA,
    // XLMRobertaConfig keeps BertConfig's vocabulary default, with RoBERTa's padding index.
    EncoderDesc {
        model_type: "xlm-roberta",
        classes: Classes { prefix: "XLMRoberta", ..ROBERTA_CLASSES },
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "camembert",
        classes: Classes { prefix: "Camembert", ..ROBERTA_CLASSES },
        prefixes: &["roberta."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "data2vec-text",
        classes: Classes { prefix: "Data2VecText", ..ROBERTA_CLASSES },
        module: "data2vec_text.",
        prefixes: &["data2vec_text."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    // Pre-LN: a norm before attention and one before the MLP, and one more after the stack
    // (on the model, not the encoder); the embeddings keep theirs.
    EncoderDesc {
        model_type: "roberta-prelayernorm",
        classes: Classes { prefix: "RobertaPreLayerNorm", ..ROBERTA_CLASSES },
        module: "roberta_prelayernorm.",
        prefixes: &["roberta_prelayernorm."],
        norms: Norms {
            embeddings: true,
            pre: true,
            attention: "attention.LayerNorm",
            mlp: "intermediate.LayerNorm",
            last: Some("LayerNorm"),
        },
        ..ROBERTA
    },
    // Pre-LN without an embedding norm; the last norm is the encoder's.
    EncoderDesc {
        model_type: "xlm-roberta-xl",
        classes: Classes { prefix: "XLMRobertaXL", ..ROBERTA_CLASSES },
        prefixes: &["roberta."],
        defaults: Defaults {
            vocab_size: 250880,
            hidden_size: 2560,
            num_hidden_layers: 36,
            num_attention_heads: 32,
            intermediate_size: 10240,
            max_position_embeddings: 514,
            type_vocab_size: 1,
            pad_token_id: 1,
            layer_norm_eps: 1e-5,
        },
        norms: Norms {
            embeddings: false,
            pre: true,
            attention: "attention.self_attn_layer_norm",
            mlp: "LayerNorm",
            last: Some("encoder.LayerNorm"),
        },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "ernie",
        classes: Classes { prefix: "Ernie", ..BERT_CLASSES },
        module: "ernie.",
        prefixes: &["ernie."],
        task_ids: true,
        ..BERT
    },
    // Megatron's pre-LN BERT: no embedding norm, `ln` before each sublayer and after the stack.
    EncoderDesc {
        model_type: "megatron-bert",
        classes: Classes { prefix: "MegatronBert", ..BERT_CLASSES },
        prefixes: &["bert."],
        defaults: Defaults {
            vocab_size: 29056,
            hidden_size: 1024,
            num_hidden_layers: 24,
            num_attention_heads: 16,
            intermediate_size: 4096,
            ..BERT_DEFAULTS
        },
        norms: Norms {
            embeddings: false,
            pre: true,
            attention: "attention.ln",
            mlp: "ln",
            last: Some("encoder.ln"),
        },
        ..BERT
    },
    // I-BERT's integer-only modules hold the same parameters as RoBERTa's; their scales and
    // integer weights are buffers.
    EncoderDesc {
        model_type: "ibert",
        classes: Classes { prefix: "IBert", causal_lm: None, ..ROBERTA_CLASSES },
        module: "ibert.",
        prefixes: &["ibert."],
        defaults: Defaults { pad_token_id: 1, ..BERT_DEFAULTS },
        ..ROBERTA
    },
    EncoderDesc {
        model_type: "layoutlm",
        classes: Classes { prefix: "LayoutLM", causal_lm: None, pretraining: false, next_sentence: false },
        module: "layoutlm.",
        prefixes: &["layoutlm."],
        layout: true,
        pooler_always: true,
        ..BERT
    },
    EncoderDesc {
        model_type: "yoso",
        classes: Classes { prefix: "Yoso", ..YOSO_CLASSES },
        module: "yoso.",
        prefixes: &["yoso."],
        style: Style::Yoso,
        defaults: YOSO_DEFAULTS,
        position_offset: 2,
        conv: Conv::Window,
        ..BERT
    },
    EncoderDesc {
        model_type: "mra",
        classes: Classes { prefix: "Mra", ..YOSO_CLASSES },
        module: "mra.",
        prefixes: &["mra."],
        style: Style::Yoso,
        defaults: Defaults { max_position_embeddings: 512, layer_norm_eps: 1e-5, ..YOSO_DEFAULTS },
        position_offset: 2,
        ..BERT
    },
    EncoderDesc {
        model_type: "nystromformer",
        classes: Classes { prefix: "Nystromformer", ..YOSO_CLASSES },
        module: "nystromformer.",
        prefixes: &["nystromformer."],
        style: Style::Yoso,
        defaults: Defaults {
            vocab_size: 30000,
            max_position_embeddings: 510,
            type_vocab_size: 2,
            layer_norm_eps: 1e-5,
            ..YOSO_DEFAULTS
        },
        position_offset: 2,
        conv: Conv::Kernel,
        ..BERT
    },
];

/// The description of a `model_type` of the lineage, if there is one.
pub fn lookup(model_type: &str) -> Option<&'static EncoderDesc> {
    TYPES.iter().find(|d| d.model_type == model_type)
}

/// BERT, RoBERTa and XLM-RoBERTa files load each other's classes (a `bert` config naming
/// `XLMRobertaModel` is planned as that class, with the file's own type's defaults).
pub fn interchangeable(desc: &EncoderDesc) -> impl Iterator<Item = &'static EncoderDesc> {
    let open = TYPES[..3].iter().any(|d| d.model_type == desc.model_type);
    TYPES[..3].iter().filter(move |d| open && d.model_type != desc.model_type)
}

/// The serving and training dimensions of an encoder config whose fields carry the lineage's
/// names (`hidden_size`, `num_layers`, `num_heads`, `intermediate_size`, `vocab_size`,
/// `max_position_embeddings`, `pad_token_id`, `tie_word_embeddings`, `layer_norm_eps`).
macro_rules! encoder_dims {
    ($c:expr) => {
        $crate::config::Dims {
            pad_token_id: Some($c.pad_token_id),
            tie_word_embeddings: $c.tie_word_embeddings,
            layer_norm_eps: $c.layer_norm_eps,
            ..$crate::config::Dims::mha(
                $c.hidden_size,
                $c.num_layers,
                $c.num_heads,
                $c.intermediate_size,
                $c.vocab_size,
                $c.max_position_embeddings,
            )
        }
    };
}
pub(crate) use encoder_dims;

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

/// The head a class names, if it is one of the type's classes.
pub(crate) fn match_class(classes: &Classes, class: &str) -> Option<Head> {
    let rest = class.strip_prefix(classes.prefix)?;
    Some(match rest {
        "Model" => Head::Model,
        "ForMaskedLM" => Head::MaskedLm,
        r if Some(r) == classes.causal_lm => Head::CausalLm,
        "ForPreTraining" if classes.pretraining => Head::PreTraining,
        "ForNextSentencePrediction" if classes.next_sentence => Head::NextSentencePrediction,
        "ForSequenceClassification" => Head::SequenceClassification { num_labels: 0 },
        "ForTokenClassification" => Head::TokenClassification { num_labels: 0 },
        "ForQuestionAnswering" => Head::QuestionAnswering,
        "ForMultipleChoice" => Head::MultipleChoice,
        _ => return None,
    })
}

/// The head a class builds and the label count it is sized by: a task head's labels are checked
/// (and recorded when defaulted); other heads keep the file's count.
pub(crate) fn head_of(
    classes: &Classes,
    class: &str,
    labels: (u64, bool),
    d: &mut Vec<Defaulted>,
) -> Result<(Head, u64), ConfigError> {
    let head = match_class(classes, class)
        .ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.to_string()).to_string()))?;
    labelled(head, labels, d)
}

/// A matched head with its label count (see [`head_of`]).
pub(crate) fn labelled(
    head: Head,
    labels: (u64, bool),
    d: &mut Vec<Defaulted>,
) -> Result<(Head, u64), ConfigError> {
    Ok(match head {
        Head::SequenceClassification { .. } => {
            let n = classifier_labels(labels, d)?;
            (Head::SequenceClassification { num_labels: n }, n)
        }
        Head::TokenClassification { .. } => {
            let n = classifier_labels(labels, d)?;
            (Head::TokenClassification { num_labels: n }, n)
        }
        Head::QuestionAnswering => (head, classifier_labels(labels, d)?),
        other => (other, labels.0),
    })
}

/// A size key: its config class's default and the bound past which a file is a mistake.
pub type SizeKey = (&'static str, u64, u64);

/// Bounds no real model reaches.
pub const VOCAB: u64 = 100_000_000;
pub const WIDTH: u64 = 1 << 18;
pub const LAYERS: u64 = 10_000;
pub const HEADS: u64 = 1 << 16;
pub const FFN: u64 = 1 << 22;
pub const POSITIONS: u64 = 1 << 30;
pub const TABLE: u64 = 1 << 20;

/// Reads size keys in the table's order, which is the order their defaults are recorded in.
pub(crate) fn sizes<const N: usize>(
    value: &serde_json::Value,
    keys: [SizeKey; N],
    d: &mut Vec<Defaulted>,
) -> Result<[u64; N], ConfigError> {
    let mut out = [0; N];
    for (slot, (key, default, max)) in out.iter_mut().zip(keys) {
        let found = match value.get(key).filter(|v| !v.is_null()) {
            Some(v) => Some(v.as_u64().ok_or_else(|| {
                ConfigError::field(key, format!("invalid type: {v}, expected a non-negative integer"))
            })?),
            None => None,
        };
        *slot = super::size(key, found, default, max, d)?;
    }
    Ok(out)
}

/// `position_embedding_type` as the BERT-derived encoders read it.
pub(crate) fn position_embedding(
    value: Option<&str>,
    d: &mut Vec<Defaulted>,
) -> Result<super::bert::PositionEmbedding, ConfigError> {
    Ok(match value {
        None => {
            d.push(Defaulted { field: "position_embedding_type", value: "absolute".into() });
            super::bert::PositionEmbedding::Absolute
        }
        Some("absolute") => super::bert::PositionEmbedding::Absolute,
        Some("relative_key") => super::bert::PositionEmbedding::RelativeKey,
        Some("relative_key_query") => super::bert::PositionEmbedding::RelativeKeyQuery,
        Some(other) => {
            return Err(ConfigError::field(
                "position_embedding_type",
                format!("{other:?} is not absolute, relative_key or relative_key_query"),
            ));
        }
    })
}
