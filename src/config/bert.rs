//! The BERT encoder family: `bert`, `roberta`, `xlm-roberta` (and the sentence-transformers,
//! e5, bge and reranker checkpoints built on them). Defaults are those of transformers'
//! `BertConfig`, `RobertaConfig` and `XLMRobertaConfig`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    Common, ConfigError, Defaulted, class_or, classifier_labels, deserialize_raw, flag, num_labels, size,
};

/// Which config class the file belongs to; they differ only in defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Variant {
    Bert,
    Roberta,
    XlmRoberta,
}

impl Variant {
    pub fn from_model_type(model_type: &str) -> Option<Self> {
        match model_type {
            "bert" => Some(Variant::Bert),
            "roberta" => Some(Variant::Roberta),
            "xlm-roberta" => Some(Variant::XlmRoberta),
            _ => None,
        }
    }

    fn default_vocab(self) -> u64 {
        match self {
            // transformers' RobertaConfig; BertConfig and XLMRobertaConfig both default to 30522.
            Variant::Roberta => 50265,
            Variant::Bert | Variant::XlmRoberta => 30522,
        }
    }

    fn default_pad(self) -> u64 {
        match self {
            Variant::Bert => 0,
            Variant::Roberta | Variant::XlmRoberta => 1,
        }
    }

    fn default_class(self) -> &'static str {
        match self {
            Variant::Bert => "BertModel",
            Variant::Roberta => "RobertaModel",
            Variant::XlmRoberta => "XLMRobertaModel",
        }
    }
}

/// Which head modules a class builds on the encoder. The names follow the checkpoint's tensors,
/// and BERT-style and RoBERTa-style heads are built differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Head {
    /// The bare encoder with its pooler (`BertModel`).
    Model,
    MaskedLm,
    CausalLm,
    PreTraining,
    NextSentencePrediction,
    SequenceClassification {
        num_labels: u64,
    },
    TokenClassification {
        num_labels: u64,
    },
    QuestionAnswering,
    MultipleChoice,
}

/// BERT heads live under `bert.` and `cls.`; RoBERTa heads under `roberta.`, `lm_head.` and
/// `classifier.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Bert,
    Roberta,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionEmbedding {
    Absolute,
    /// Shaw et al.: a `distance_embedding` per self-attention layer.
    RelativeKey,
    RelativeKeyQuery,
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    intermediate_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    type_vocab_size: Option<u64>,
    position_embedding_type: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    layer_norm_eps: Option<f64>,
    hidden_act: Option<String>,
}

/// A resolved BERT-family config: nothing structural is optional.
#[derive(Debug, Clone, Serialize)]
pub struct BertConfig {
    pub variant: Variant,
    /// The class planned: `architectures[0]`, or the family's base model when the file names none.
    pub class: String,
    pub head: Head,
    pub style: Style,
    /// Outputs of a task head that is sized by `num_labels` but carries no count of its own
    /// (transformers' `qa_outputs` is `Linear(hidden, num_labels)`, 2 by default).
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub position_embedding: PositionEmbedding,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
}

/// A supported family whose class the planner does not know is reported, not guessed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("class {0} is not one the planner knows for this family")]
pub struct UnknownClass(pub String);

impl BertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let variant = Variant::from_model_type(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a BERT-family model type"))?;
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, variant.default_vocab(), 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 768, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 12, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 12, 1 << 16, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 3072, 1 << 22, &mut d)?;
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 512, 1 << 30, &mut d)?;
        let type_vocab_size = size("type_vocab_size", raw.type_vocab_size, 2, 1 << 20, &mut d)?;
        let position_embedding = match raw.position_embedding_type.as_deref() {
            None => {
                d.push(Defaulted { field: "position_embedding_type", value: "absolute".into() });
                PositionEmbedding::Absolute
            }
            Some("absolute") => PositionEmbedding::Absolute,
            Some("relative_key") => PositionEmbedding::RelativeKey,
            Some("relative_key_query") => PositionEmbedding::RelativeKeyQuery,
            Some(other) => {
                return Err(ConfigError::field(
                    "position_embedding_type",
                    format!("{other:?} is not absolute, relative_key or relative_key_query"),
                ));
            }
        };
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let labels = num_labels(value)?;
        let pad_token_id = raw.pad_token_id.unwrap_or_else(|| {
            d.push(Defaulted { field: "pad_token_id", value: variant.default_pad().to_string() });
            variant.default_pad()
        });
        let layer_norm_eps = raw.layer_norm_eps.unwrap_or(1e-12);
        let hidden_act = raw.hidden_act.unwrap_or_else(|| "gelu".into());
        let class = class_or(common, variant.default_class(), &mut d);
        let (style, head) = classify(&class, labels.0)
            .ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.clone()).to_string()))?;
        let num_labels = match head {
            Head::SequenceClassification { .. }
            | Head::TokenClassification { .. }
            | Head::QuestionAnswering => classifier_labels(labels, &mut d)?,
            _ => labels.0,
        };
        Ok(BertConfig {
            variant,
            class,
            head,
            style,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            position_embedding,
            tie_word_embeddings,
            pad_token_id,
            layer_norm_eps,
            hidden_act,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    pub fn head_dim(&self) -> u64 {
        self.hidden_size / self.num_heads
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            head_dim: self.head_dim(),
            usable_context: self.usable_positions(),
            pad_token_id: Some(self.pad_token_id),
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_eps,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }

    /// RoBERTa-style position ids start after the padding index, so the last
    /// `pad_token_id + 1` rows of the position table can never be reached.
    pub fn usable_positions(&self) -> u64 {
        match self.style {
            Style::Roberta => {
                self.max_position_embeddings.saturating_sub(self.pad_token_id.saturating_add(1))
            }
            Style::Bert => self.max_position_embeddings,
        }
    }
}

/// The head a class name builds, and whether its modules are named BERT- or RoBERTa-style.
fn classify(class: &str, num_labels: u64) -> Option<(Style, Head)> {
    let (style, rest) = if let Some(rest) = class.strip_prefix("XLMRoberta") {
        (Style::Roberta, rest)
    } else if let Some(rest) = class.strip_prefix("Roberta") {
        (Style::Roberta, rest)
    } else if let Some(rest) = class.strip_prefix("Bert") {
        (Style::Bert, rest)
    } else {
        return None;
    };
    let head = match (style, rest) {
        (_, "Model") => Head::Model,
        (_, "ForMaskedLM") => Head::MaskedLm,
        (Style::Bert, "LMHeadModel") | (Style::Roberta, "ForCausalLM") => Head::CausalLm,
        (Style::Bert, "ForPreTraining") => Head::PreTraining,
        (Style::Bert, "ForNextSentencePrediction") => Head::NextSentencePrediction,
        (_, "ForSequenceClassification") => Head::SequenceClassification { num_labels },
        (_, "ForTokenClassification") => Head::TokenClassification { num_labels },
        (_, "ForQuestionAnswering") => Head::QuestionAnswering,
        (_, "ForMultipleChoice") => Head::MultipleChoice,
        _ => return None,
    };
    Some((style, head))
}

#[cfg(test)]
mod tests;
