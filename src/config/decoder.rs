//! What the classic decoder families (`gpt2`, `bloom`, `falcon`, `phi`) read
//! alike: the head a class builds, the label count, and `PretrainedConfig`'s own defaults.

use serde::Serialize;
use serde_json::Value;

pub(crate) use super::flag;
use super::{ConfigError, Defaulted, classifier_labels, num_labels};

/// The head a decoder class puts on its base model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecoderHead {
    /// The bare decoder (`GPT2Model`).
    Model,
    CausalLm,
    SequenceClassification {
        num_labels: u64,
    },
    TokenClassification {
        num_labels: u64,
    },
    QuestionAnswering,
}

/// Which heads a family's modeling file defines, and the suffix its causal-LM class uses.
pub(crate) struct Classes {
    pub prefix: &'static str,
    /// `LMHeadModel` for GPT-2, `ForCausalLM` elsewhere.
    pub causal_lm: &'static str,
    pub token_classification: bool,
    pub question_answering: bool,
}

/// Reads `architectures[0]` (or the family's base model when the file names none) into a head.
pub(crate) fn classify(
    classes: &Classes,
    architecture: Option<&str>,
    value: &Value,
    defaulted: &mut Vec<Defaulted>,
) -> Result<(String, DecoderHead), ConfigError> {
    let class = match architecture {
        Some(a) => a.to_string(),
        None => {
            let base = format!("{}Model", classes.prefix);
            defaulted.push(Defaulted { field: "architectures", value: base.clone() });
            base
        }
    };
    let unknown = || super::read::unknown_class(&class);
    let rest = class.strip_prefix(classes.prefix).ok_or_else(unknown)?;
    let head = match rest {
        "Model" => DecoderHead::Model,
        r if r == classes.causal_lm => DecoderHead::CausalLm,
        "ForSequenceClassification" => DecoderHead::SequenceClassification {
            num_labels: classifier_labels(num_labels(value)?, defaulted)?,
        },
        "ForTokenClassification" if classes.token_classification => {
            DecoderHead::TokenClassification { num_labels: classifier_labels(num_labels(value)?, defaulted)? }
        }
        "ForQuestionAnswering" if classes.question_answering => DecoderHead::QuestionAnswering,
        _ => return Err(unknown()),
    };
    Ok((class, head))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GPT2: Classes = Classes {
        prefix: "GPT2",
        causal_lm: "LMHeadModel",
        token_classification: true,
        question_answering: true,
    };

    #[test]
    fn labels_come_from_id2label_first() {
        let v = serde_json::json!({"id2label": {"0": "a", "1": "b", "2": "c"}, "num_labels": 7});
        let mut d = vec![];
        let (_, head) = classify(&GPT2, Some("GPT2ForSequenceClassification"), &v, &mut d).unwrap();
        assert_eq!(head, DecoderHead::SequenceClassification { num_labels: 3 });
    }

    #[test]
    fn an_unknown_class_or_bad_labels_name_the_field() {
        let v = serde_json::json!({"num_labels": "three"});
        let mut d = vec![];
        let err = classify(&GPT2, Some("GPT2ForTokenClassification"), &v, &mut d).unwrap_err();
        assert!(matches!(err, ConfigError::Field { ref field, .. } if field == "num_labels"), "{err}");
        let err = classify(&GPT2, Some("GPT2ForMaskedLM"), &v, &mut d).unwrap_err();
        assert!(matches!(err, ConfigError::Field { ref field, .. } if field == "architectures[0]"), "{err}");
    }
}
