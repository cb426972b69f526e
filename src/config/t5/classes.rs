//! The classes of the T5 lineage, and what each builds.

use super::super::t5_types::{T5Like, of_class};
use super::{BiasLayout, Head};

/// A class name of `desc`'s kin (a T5 file may name MT5 classes): its layout of position
/// biases, which the class's own type decides, and its head.
pub(super) fn classify(desc: &T5Like, class: &str, num_labels: u64) -> Option<(BiasLayout, Head)> {
    let (own, rest) = of_class(desc.kin, class)?;
    if !own.classes.contains(&rest) {
        return None;
    }
    let head = match rest {
        "Model" => Head::Model,
        "ForConditionalGeneration" => Head::ConditionalGeneration,
        "EncoderModel" => Head::Encoder,
        "ForSequenceClassification" => Head::SequenceClassification { num_labels },
        "ForTokenClassification" => Head::TokenClassification { num_labels },
        "ForQuestionAnswering" => Head::QuestionAnswering { num_labels },
        _ => return None,
    };
    Some((own.bias, head))
}
