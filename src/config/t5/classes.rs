//! The T5 classes transformers defines, and what each builds.

use super::{BiasLayout, Head};

/// A class name of this family: its layout of position biases and its head.
pub(super) fn classify(class: &str, num_labels: u64) -> Option<(BiasLayout, Head)> {
    let (layout, rest) = if let Some(rest) = class.strip_prefix("UMT5") {
        (BiasLayout::EveryLayer, rest)
    } else if let Some(rest) = class.strip_prefix("MT5") {
        (BiasLayout::FirstLayer, rest)
    } else if let Some(rest) = class.strip_prefix("T5") {
        (BiasLayout::FirstLayer, rest)
    } else {
        return None;
    };
    let head = match rest {
        "Model" => Head::Model,
        "ForConditionalGeneration" => Head::ConditionalGeneration,
        "EncoderModel" => Head::Encoder,
        "ForSequenceClassification" => Head::SequenceClassification { num_labels },
        "ForTokenClassification" => Head::TokenClassification { num_labels },
        "ForQuestionAnswering" => Head::QuestionAnswering { num_labels },
        _ => return None,
    };
    Some((layout, head))
}
