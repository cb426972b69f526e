//! Document encoders of the BERT lineage with layout or markup inputs beside the text: MarkupLM
//! (an XPath embedding per token: a tag and a subscript table per depth, summed, through an MLP)
//! and BROS (relative 2-D box positions, sinusoids projected to a head's width and added to the
//! attention scores), and LiLT (a layout stream `channel_shrink_ratio` times narrower beside the
//! text in every layer). Their layers are BERT's; their head classes are their own. Defaults are
//! those of transformers' `MarkupLMConfig`, `BrosConfig` and `LiltConfig`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::enc_common::{EncSizes, Scalars, class_in};
use super::encoders::{BERT_DEFAULTS, TABLE, WIDTH};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, num_labels, size};

/// The class built on the encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocHead {
    /// The bare encoder with its pooler.
    Model,
    /// MarkupLM's: a linear on the pooled vector; LiLT's: RoBERTa's dense and `out_proj` on the
    /// first token.
    SequenceClassification,
    TokenClassification,
    /// MarkupLM's `qa_outputs`, `num_labels` wide.
    QuestionAnswering,
    /// BROS's entity extraction: a two-layer token classifier and a relation extractor.
    SpadeEntityExtraction,
    /// BROS's entity linking: the relation extractor alone.
    SpadeEntityLinking,
}

/// What the type embeds beside the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Extra {
    /// MarkupLM's `xpath_embeddings`.
    Xpath { max_depth: u64, unit_width: u64, tag_rows: u64, subscript_rows: u64 },
    /// BROS's `bbox_embeddings.bbox_projection` and its relation extractors' `n_relations`.
    Boxes { relations: u64 },
    /// LiLT's layout stream, `hidden / shrink` wide beside the text in every layer, and its
    /// 2-D tables of `max_2d` rows.
    Layout { shrink: u64, max_2d: u64 },
}

#[derive(Debug, Deserialize)]
struct Raw {
    max_depth: Option<u64>,
    xpath_unit_hidden_size: Option<u64>,
    max_xpath_tag_unit_embeddings: Option<u64>,
    max_xpath_subs_unit_embeddings: Option<u64>,
    n_relations: Option<u64>,
    channel_shrink_ratio: Option<u64>,
    max_2d_position_embeddings: Option<u64>,
    add_cross_attention: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DocTextConfig {
    pub model_type: String,
    pub class: String,
    pub head: DocHead,
    /// The head's outputs (`num_labels`).
    pub num_labels: u64,
    #[serde(flatten)]
    pub sizes: EncSizes,
    pub extra: Extra,
    pub defaulted: Vec<Defaulted>,
}

/// A type's class names and the head each builds.
type ClassList = &'static [(&'static str, DocHead)];

/// The module a head class keeps the encoder under, its base class and its classes.
fn type_facts(model_type: &str) -> Option<(&'static str, &'static str, ClassList)> {
    const MARKUPLM: &[(&str, DocHead)] = &[
        ("MarkupLMModel", DocHead::Model),
        ("MarkupLMForSequenceClassification", DocHead::SequenceClassification),
        ("MarkupLMForTokenClassification", DocHead::TokenClassification),
        ("MarkupLMForQuestionAnswering", DocHead::QuestionAnswering),
    ];
    const BROS: &[(&str, DocHead)] = &[
        ("BrosModel", DocHead::Model),
        ("BrosForTokenClassification", DocHead::TokenClassification),
        ("BrosSpadeEEForTokenClassification", DocHead::SpadeEntityExtraction),
        ("BrosSpadeELForTokenClassification", DocHead::SpadeEntityLinking),
    ];
    const LILT: &[(&str, DocHead)] = &[
        ("LiltModel", DocHead::Model),
        ("LiltForSequenceClassification", DocHead::SequenceClassification),
        ("LiltForTokenClassification", DocHead::TokenClassification),
        ("LiltForQuestionAnswering", DocHead::QuestionAnswering),
    ];
    match model_type {
        "markuplm" => Some(("markuplm.", "MarkupLMModel", MARKUPLM)),
        "lilt" => Some(("lilt.", "LiltModel", LILT)),
        "bros" => Some(("bros.", "BrosModel", BROS)),
        _ => None,
    }
}

impl DocTextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let (_, base, classes) = type_facts(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a MarkupLM, BROS or LiLT model type"))?;
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let sizes = EncSizes::read(
            value,
            &BERT_DEFAULTS.keys(),
            Scalars { act: "gelu", eps: 1e-12, pad: 0 },
            &mut d,
        )?;
        let extra = if common.model_type == "markuplm" {
            Extra::Xpath {
                max_depth: size("max_depth", raw.max_depth, 50, 1 << 12, &mut d)?,
                unit_width: size("xpath_unit_hidden_size", raw.xpath_unit_hidden_size, 32, WIDTH, &mut d)?,
                tag_rows: size(
                    "max_xpath_tag_unit_embeddings",
                    raw.max_xpath_tag_unit_embeddings,
                    256,
                    TABLE,
                    &mut d,
                )?,
                subscript_rows: size(
                    "max_xpath_subs_unit_embeddings",
                    raw.max_xpath_subs_unit_embeddings,
                    1024,
                    TABLE,
                    &mut d,
                )?,
            }
        } else if common.model_type == "lilt" {
            let shrink = size("channel_shrink_ratio", raw.channel_shrink_ratio, 4, WIDTH, &mut d)?;
            let max_2d =
                size("max_2d_position_embeddings", raw.max_2d_position_embeddings, 1024, TABLE, &mut d)?;
            Extra::Layout { shrink, max_2d }
        } else {
            if raw.add_cross_attention == Some(true) {
                return Err(ConfigError::field(
                    "add_cross_attention",
                    "BROS's cross-attention layers (a decoder's) are not described; only the encoder is counted",
                ));
            }
            Extra::Boxes { relations: size("n_relations", raw.n_relations, 1, 1 << 10, &mut d)? }
        };
        let class = class_or(common, base, &mut d);
        let head = class_in(classes, &class)?;
        let labels = num_labels(value)?;
        let num_labels = match head {
            DocHead::Model | DocHead::SpadeEntityLinking => labels.0,
            _ => classifier_labels(labels, &mut d)?,
        };
        let model_type = common.model_type.clone();
        Ok(DocTextConfig { model_type, class, head, num_labels, sizes, extra, defaulted: d })
    }

    /// The module a head class keeps the encoder under (`markuplm.`, `bros.`).
    pub fn module(&self) -> &'static str {
        type_facts(&self.model_type).map_or("", |(m, _, _)| m)
    }

    pub fn dims(&self) -> super::Dims {
        match self.extra {
            // MarkupLM's and LiLT's position ids start after the padding index; BROS's at 0.
            Extra::Xpath { .. } | Extra::Layout { .. } => self.sizes.dims_after_padding(),
            Extra::Boxes { .. } => self.sizes.dims(),
        }
    }
}
