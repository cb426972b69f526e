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

fn clip_text(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::clip_text::ClipTextConfig::resolve(v, c))
}

fn esmc(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::esmc::EsmcConfig::resolve(v, c))
}

fn layoutlmv3(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::layoutlmv3::LayoutLmV3Config::resolve(v, c))
}

fn canine(v: &Value, c: &Common) -> Result<Box<dyn Architecture>, ConfigError> {
    boxed(crate::config::canine::CanineConfig::resolve(v, c))
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
    FamilyInfo {
        key: "clip_text_model",
        kind: ModelKind::Encoder,
        name: "CLIP text encoder",
        derives_from: None,
        summary: "OpenAI's CLIP text transformer (Radford et al., 2021), alone: pre-LN layers under a causal mask over learned positions, a final norm, and in the class with a projection a linear into the space CLIP shares with images; Stable Diffusion's prompt encoders are this model.",
        resolve: Some(clip_text),
    },
    FamilyInfo {
        key: "tipsv2_text_model",
        kind: ModelKind::Encoder,
        name: "TIPSv2 text encoder",
        derives_from: Some("clip_text_model"),
        summary: "Google DeepMind's TIPSv2 text tower, alone: CLIP's pre-LN layers attending both ways over fixed sinusoidal positions, ReLU MLPs and a final norm, its output mean-pooled into the space TIPSv2 shares with images.",
        resolve: Some(clip_text),
    },
    FamilyInfo {
        key: "esmc",
        kind: ModelKind::Encoder,
        name: "ESM C",
        derives_from: Some("esm"),
        summary: "EvolutionaryScale's ESM C (ESM Cambrian, 2024): a protein language model of bidirectional pre-LN layers with rotary positions, a LayerNorm over the whole query and key vectors, SwiGLU MLPs and residuals scaled by depth, over a vocabulary of amino acids.",
        resolve: Some(esmc),
    },
    FamilyInfo {
        key: "layoutlmv3",
        kind: ModelKind::Encoder,
        name: "LayoutLMv3",
        derives_from: Some("layoutlm"),
        summary: "Microsoft's LayoutLMv3 (Huang et al., 2022): one transformer over a document's words (with 2-D positions of their boxes) and its page image as patches, with relative 1-D and 2-D attention biases, pre-trained by masking both and aligning them, for forms, receipts and document question answering.",
        resolve: Some(layoutlmv3),
    },
    FamilyInfo {
        key: "lilt",
        kind: ModelKind::Encoder,
        name: "LiLT",
        derives_from: Some("roberta"),
        summary: "SCUT's LiLT (Wang et al., 2022): a language-independent layout transformer, a narrow layout stream over the words' boxes beside a RoBERTa-style text stream in every layer, the two sharing their attention scores, so a layout pre-trained once pairs with any language's text encoder.",
        resolve: Some(doc_text),
    },
    FamilyInfo {
        key: "canine",
        kind: ModelKind::Encoder,
        name: "CANINE",
        derives_from: Some("bert"),
        summary: "Google's CANINE (Clark et al., 2022): a tokenizer-free encoder over Unicode code points, hashed into embedding buckets, encoded locally, downsampled four to one by a strided convolution for a deep BERT stack, and upsampled back to one state per character.",
        resolve: Some(canine),
    },
];

/// Types of the list the planner cannot yet count exactly, with why.
pub const NOT_YET: &[(&str, &str)] = &[(
    "layoutlmv2",
    "LayoutLMv2's visual backbone is detectron2's ResNeXt-101 32x8d FPN (detectron2_config_args: RESNETS.DEPTH 101, NUM_GROUPS 32, WIDTH_PER_GROUP 8), which transformers builds only with detectron2 installed; without it transformers cannot build the model, so no count of that backbone could be checked against transformers, and the page gives none rather than an unchecked one",
)];
