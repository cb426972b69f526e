//! LayoutLMv3 (Huang et al., 2022), read as transformers' `LayoutLMv3Config` reads it: BERT's
//! post-LN layers over text (word, 1-D and four 2-D position tables) and image patches (a
//! convolution, a class token and a learned position grid), with relative 1-D and 2-D attention
//! biases shared by all layers.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::enc_common::{EncSizes, Scalars, class_in};
use super::encoders::{BERT_DEFAULTS, Defaults, SizeKey, TABLE, WIDTH};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, flag, num_labels};

/// The layout and image keys, in the config class's order.
const LAYOUT: [SizeKey; 8] = [
    ("max_2d_position_embeddings", 1024, TABLE),
    ("coordinate_size", 128, WIDTH),
    ("shape_size", 128, WIDTH),
    ("rel_pos_bins", 32, TABLE),
    ("rel_2d_pos_bins", 64, TABLE),
    ("input_size", 224, 1 << 16),
    ("num_channels", 3, 1 << 10),
    ("patch_size", 16, 1 << 12),
];

/// The class built on `LayoutLMv3Model` (which has no pooler).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum V3Head {
    Model,
    /// A RoBERTa-style classification head (`dense`, `out_proj`) under `classifier`.
    SequenceClassification,
    /// A bare linear `classifier` under 10 labels, the classification head from 10 on.
    TokenClassification,
    /// The classification head under `qa_outputs`, `num_labels` wide.
    QuestionAnswering,
}

const CLASSES: &[(&str, V3Head)] = &[
    ("LayoutLMv3Model", V3Head::Model),
    ("LayoutLMv3ForSequenceClassification", V3Head::SequenceClassification),
    ("LayoutLMv3ForTokenClassification", V3Head::TokenClassification),
    ("LayoutLMv3ForQuestionAnswering", V3Head::QuestionAnswering),
];

#[derive(Debug, Deserialize)]
struct Raw {
    has_relative_attention_bias: Option<bool>,
    has_spatial_attention_bias: Option<bool>,
    text_embed: Option<bool>,
    visual_embed: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LayoutLmV3Config {
    pub class: String,
    pub head: V3Head,
    pub num_labels: u64,
    #[serde(flatten)]
    pub sizes: EncSizes,
    /// Rows of the four 2-D tables; x and y are `coordinate_size` wide, h and w `shape_size`.
    pub max_2d_positions: u64,
    pub coordinate_size: u64,
    pub shape_size: u64,
    /// `rel_pos_bias`'s input width, when `has_relative_attention_bias`.
    pub rel_pos_bins: Option<u64>,
    /// `rel_pos_x_bias` and `rel_pos_y_bias`'s input width, when `has_spatial_attention_bias`.
    pub rel_2d_pos_bins: Option<u64>,
    pub text_embed: bool,
    /// `(input_size / patch_size)` patches a side, channels and patch size, when `visual_embed`.
    pub visual: Option<Visual>,
    pub defaulted: Vec<Defaulted>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Visual {
    pub side: u64,
    pub channels: u64,
    pub patch: u64,
}

impl LayoutLmV3Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let sizes = EncSizes::read(
            value,
            &Defaults { vocab_size: 50265, ..BERT_DEFAULTS }.keys(),
            Scalars { act: "gelu", eps: 1e-5, pad: 1 },
            &mut d,
        )?;
        // A list-valued `input_size` or `patch_size` is refused as a type error here: the model
        // divides the two as numbers, which transformers cannot do with lists either.
        let [
            max_2d_positions,
            coordinate_size,
            shape_size,
            rel_bins,
            rel_2d_bins,
            input_size,
            channels,
            patch,
        ] = super::encoders::sizes(value, LAYOUT, &mut d)?;
        let relative = flag("has_relative_attention_bias", raw.has_relative_attention_bias, true, &mut d);
        let spatial = flag("has_spatial_attention_bias", raw.has_spatial_attention_bias, true, &mut d);
        let text_embed = flag("text_embed", raw.text_embed, true, &mut d);
        let visual = flag("visual_embed", raw.visual_embed, true, &mut d).then_some(Visual {
            side: input_size / patch,
            channels,
            patch,
        });
        let class = class_or(common, "LayoutLMv3Model", &mut d);
        let head = class_in(CLASSES, &class)?;
        let labels = num_labels(value)?;
        let num_labels = match head {
            V3Head::Model => labels.0,
            _ => classifier_labels(labels, &mut d)?,
        };
        Ok(LayoutLmV3Config {
            class,
            head,
            num_labels,
            sizes,
            max_2d_positions,
            coordinate_size,
            shape_size,
            rel_pos_bins: relative.then_some(rel_bins),
            rel_2d_pos_bins: spatial.then_some(rel_2d_bins),
            text_embed,
            visual,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.sizes.dims_after_padding()
    }
}
