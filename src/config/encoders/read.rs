//! Reading what every encoder family shares: its size keys in table order, its head class, its
//! position embedding type, and its dimensions.

use super::Classes;
use crate::config::bert::{Head, UnknownClass};
use crate::config::{ConfigError, Defaulted, classifier_labels};

/// The serving and training dimensions of an encoder config whose fields carry the lineage's
/// names (`hidden_size`, `num_layers`, `num_heads`, `intermediate_size`, `vocab_size`,
/// `max_position_embeddings`, `pad_token_id`, `tie_word_embeddings`, `layer_norm_eps`).
/// With a width and a context, those stand for `intermediate_size` and `max_position_embeddings`.
macro_rules! encoder_dims {
    ($c:expr) => {
        $crate::config::encoders::encoder_dims!($c, $c.intermediate_size, $c.max_position_embeddings)
    };
    ($c:expr, $ffn:expr, $context:expr) => {
        $crate::config::Dims {
            pad_token_id: Some($c.pad_token_id),
            tie_word_embeddings: $c.tie_word_embeddings,
            layer_norm_eps: $c.layer_norm_eps,
            ..$crate::config::mha_dims!($c, $ffn, $context)
        }
    };
}
pub(crate) use encoder_dims;

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
        *slot = crate::config::size(key, found, default, max, d)?;
    }
    Ok(out)
}

/// `position_embedding_type` as the BERT-derived encoders read it.
pub(crate) fn position_embedding(
    value: Option<&str>,
    d: &mut Vec<Defaulted>,
) -> Result<crate::config::bert::PositionEmbedding, ConfigError> {
    Ok(match value {
        None => {
            d.push(Defaulted { field: "position_embedding_type", value: "absolute".into() });
            crate::config::bert::PositionEmbedding::Absolute
        }
        Some("absolute") => crate::config::bert::PositionEmbedding::Absolute,
        Some("relative_key") => crate::config::bert::PositionEmbedding::RelativeKey,
        Some("relative_key_query") => crate::config::bert::PositionEmbedding::RelativeKeyQuery,
        Some(other) => {
            return Err(ConfigError::field(
                "position_embedding_type",
                format!("{other:?} is not absolute, relative_key or relative_key_query"),
            ));
        }
    })
}
