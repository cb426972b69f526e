//! The families of issue 10's enc7 list: document encoders with markup or layout inputs
//! (`config/doc_text.rs`) and CLIP's text transformer (`config/clip_text.rs`), and the types of
//! the list not described yet, with why.

use serde_json::Value;

use super::{FamilyInfo, ModelKind, boxed};
use crate::config::{Common, ConfigError};
use crate::graph::Architecture;

fn doc_text(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::doc_text::DocTextConfig::resolve(v, c))
}

pub const FAMILIES: &[FamilyInfo] = &[
    FamilyInfo {
        key: "markuplm",
        kind: ModelKind::Encoder,
        name: "MarkupLM",
        derives_from: Some("bert"),
        summary: "Microsoft's MarkupLM (Li et al., 2022): BERT's layers over the text of a web page, each token also embedding its XPath (a tag and a subscript table per depth of the DOM tree, through a small MLP), for question answering and information extraction on HTML.",
        resolve: Some(doc_text),
    },
    FamilyInfo {
        key: "bros",
        kind: ModelKind::Encoder,
        name: "BROS",
        derives_from: Some("bert"),
        summary: "NAVER Clova's BROS (Hong et al., 2022): BERT's layers over the text of a scanned document, the relative positions of the words' boxes encoded as sinusoids and added to the attention scores, with SPADE heads for entity extraction and linking.",
        resolve: Some(doc_text),
    },
];

/// Types of the list the planner cannot yet count exactly, with why.
pub const NOT_YET: &[(&str, &str)] = &[(
    "layoutlmv2",
    "LayoutLMv2's visual backbone is a detectron2 ResNet-FPN that transformers cannot build without detectron2; its parameters cannot be checked against transformers",
)];
