//! LayoutLMv3 (Huang et al., 2022), read as transformers' `LayoutLMv3Config` reads it: BERT's
//! post-LN layers over text (word, 1-D and four 2-D position tables) and image patches (a
//! convolution, a class token and a learned position grid), with relative 1-D and 2-D attention
//! biases shared by all layers.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, flag, num_labels};

const SIZES: [SizeKey; 7] = [
    ("vocab_size", 50265, VOCAB),
    ("hidden_size", 768, WIDTH),
    ("num_hidden_layers", 12, LAYERS),
    ("num_attention_heads", 12, HEADS),
    ("intermediate_size", 3072, FFN),
    ("max_position_embeddings", 512, POSITIONS),
    ("type_vocab_size", 2, TABLE),
];

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
    hidden_act: Option<String>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LayoutLmV3Config {
    pub class: String,
    pub head: V3Head,
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
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
    pub hidden_act: String,
    pub layer_norm_eps: f64,
    pub pad_token_id: u64,
    /// No class ties a head to the embeddings; kept for the serving dimensions.
    pub tie_word_embeddings: bool,
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
        #[rustfmt::skip]
        let [vocab_size, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings, type_vocab_size] = sizes(value, SIZES, &mut d)?;
        if !hidden_size.is_multiple_of(num_heads) {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!(
                    "{num_heads} heads do not divide the hidden size {hidden_size}, which the attention requires"
                ),
            ));
        }
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
        ] = sizes(value, LAYOUT, &mut d)?;
        let relative = flag("has_relative_attention_bias", raw.has_relative_attention_bias, true, &mut d);
        let spatial = flag("has_spatial_attention_bias", raw.has_spatial_attention_bias, true, &mut d);
        let text_embed = flag("text_embed", raw.text_embed, true, &mut d);
        let visual = flag("visual_embed", raw.visual_embed, true, &mut d).then_some(Visual {
            side: input_size / patch,
            channels,
            patch,
        });
        let class = class_or(common, "LayoutLMv3Model", &mut d);
        let head = CLASSES.iter().find(|(name, _)| *name == class).map(|(_, h)| *h).ok_or_else(|| {
            ConfigError::field("architectures[0]", super::bert::UnknownClass(class.clone()).to_string())
        })?;
        let labels = num_labels(value)?;
        let num_labels = match head {
            V3Head::Model => labels.0,
            _ => classifier_labels(labels, &mut d)?,
        };
        let pad_token_id = raw.pad_token_id.unwrap_or_else(|| {
            d.push(Defaulted { field: "pad_token_id", value: "1".into() });
            1
        });
        Ok(LayoutLmV3Config {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            max_2d_positions,
            coordinate_size,
            shape_size,
            rel_pos_bins: relative.then_some(rel_bins),
            rel_2d_pos_bins: spatial.then_some(rel_2d_bins),
            text_embed,
            visual,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-5),
            pad_token_id,
            tie_word_embeddings: false,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            // Position ids start after the padding index, RoBERTa-style.
            usable_context: self.max_position_embeddings.saturating_sub(self.pad_token_id.saturating_add(1)),
            ..super::encoders::encoder_dims!(self)
        }
    }
}
