//! Which DeBERTa class a file names, and the head it builds.

use serde::Serialize;
use serde_json::Value;

use crate::config::bert::{Head, UnknownClass};
use crate::config::{Common, ConfigError, Defaulted, class_or, classifier_labels, num_labels};

/// Which DeBERTa: v1's layers fuse q, k and v into `in_proj` with separate q and v biases, may
/// mix heads (`talking_head`), and have no position buckets, shared position keys or
/// convolution; its config class has BERT-base sizes and no multiple-choice class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Version {
    V1,
    V2,
}

/// DebertaConfig's defaults for the same size keys: BERT-base's with RoBERTa's vocabulary.
pub(super) const V1_DEFAULTS: [u64; 6] = [50265, 768, 12, 12, 3072, 512];

/// The class planned, its head and the QA output width (`num_labels`). `lm` is `legacy` and
/// `tie_word_embeddings`.
pub(super) fn read(
    common: &Common,
    value: &Value,
    version: Version,
    lm: (bool, bool),
    d: &mut Vec<Defaulted>,
) -> Result<(String, Head, u64), ConfigError> {
    let (legacy, tie_word_embeddings) = lm;
    let v1 = version == Version::V1;
    let prefix = if v1 { "Deberta" } else { "DebertaV2" };
    let class = class_or(common, &format!("{prefix}Model"), d);
    let labels = num_labels(value)?;
    let mut num_labels = labels.0;
    let unknown = || ConfigError::field("architectures[0]", UnknownClass(class.clone()).to_string());
    let head = match class.strip_prefix(prefix).ok_or_else(unknown)? {
        "Model" => Head::Model,
        "ForMaskedLM" => {
            if !legacy && tie_word_embeddings {
                // get_output_embeddings() then returns lm_predictions.lm_head.dense, and
                // tying replaces that hidden x hidden layer by the word-embedding table.
                return Err(ConfigError::field(
                    "legacy",
                    "false with tied word embeddings: transformers ties lm_predictions.lm_head.dense (hidden x hidden) to the vocabulary table, so the head cannot run; set tie_word_embeddings to false or keep legacy",
                ));
            }
            Head::MaskedLm
        }
        "ForSequenceClassification" => {
            Head::SequenceClassification { num_labels: classifier_labels(labels, d)? }
        }
        "ForTokenClassification" => Head::TokenClassification { num_labels: classifier_labels(labels, d)? },
        "ForQuestionAnswering" => {
            num_labels = classifier_labels(labels, d)?;
            Head::QuestionAnswering
        }
        "ForMultipleChoice" if !v1 => Head::MultipleChoice,
        _ => return Err(unknown()),
    };
    Ok((class, head, num_labels))
}
