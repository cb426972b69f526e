//! ESM C (EvolutionaryScale's ESM Cambrian protein encoders), read as transformers' `EsmcConfig`
//! reads it: Llama's keys with ESM C's defaults, bidirectional attention with rotary positions, a
//! LayerNorm over the whole query and key vectors, pre-LN layers whose LayerNorms keep their bias
//! and a final norm without one.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, flag, num_labels, size};

const SIZES: [SizeKey; 6] = [
    ("vocab_size", 64, VOCAB),
    ("hidden_size", 2560, WIDTH),
    ("intermediate_size", 6912, FFN),
    ("num_hidden_layers", 80, LAYERS),
    ("num_attention_heads", 40, HEADS),
    ("max_position_embeddings", 2048, POSITIONS),
];

/// The class built on `EsmcModel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EsmcHead {
    Model,
    /// `lm_head`: dense, GELU, LayerNorm, and a decoder with its own bias that no class ties.
    MaskedLm,
    /// `classifier.dense` and `classifier.out_proj` on the first token.
    SequenceClassification,
    /// The generic `score` per token, its bias switched by `token_classification_bias`.
    TokenClassification {
        bias: bool,
    },
}

const CLASSES: &[(&str, EsmcHead)] = &[
    ("EsmcModel", EsmcHead::Model),
    ("EsmcForMaskedLM", EsmcHead::MaskedLm),
    ("EsmcForSequenceClassification", EsmcHead::SequenceClassification),
    ("EsmcForTokenClassification", EsmcHead::TokenClassification { bias: true }),
];

#[derive(Debug, Deserialize)]
struct Raw {
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    token_classification_bias: Option<bool>,
    hidden_act: Option<String>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EsmcConfig {
    pub class: String,
    pub head: EsmcHead,
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub head_dim: u64,
    pub max_position_embeddings: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub hidden_act: String,
    pub pad_token_id: u64,
    /// No ESM C class ties its decoder to the embeddings, whatever the file says.
    pub tie_word_embeddings: bool,
    pub layer_norm_eps: f64,
    pub defaulted: Vec<Defaulted>,
}

impl EsmcConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [vocab_size, hidden_size, intermediate_size, num_layers, num_heads, max_position_embeddings] = sizes(value, SIZES, &mut d)?;
        if !hidden_size.is_multiple_of(num_heads) {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!(
                    "{num_heads} heads do not divide the hidden size {hidden_size}, as EsmcConfig requires"
                ),
            ));
        }
        // EsmcConfig refuses grouped-query attention.
        if let Some(kv) = raw.num_key_value_heads.filter(|kv| *kv != num_heads) {
            return Err(ConfigError::field(
                "num_key_value_heads",
                format!(
                    "{kv} differs from num_attention_heads ({num_heads}); ESM C has no grouped-query attention"
                ),
            ));
        }
        let head_dim = size("head_dim", raw.head_dim, hidden_size / num_heads, WIDTH, &mut d)?;
        let class = class_or(common, "EsmcModel", &mut d);
        let mut head = CLASSES.iter().find(|(name, _)| *name == class).map(|(_, h)| *h).ok_or_else(|| {
            ConfigError::field("architectures[0]", super::bert::UnknownClass(class.clone()).to_string())
        })?;
        let labels = num_labels(value)?;
        let num_labels = match head {
            EsmcHead::Model | EsmcHead::MaskedLm => labels.0,
            EsmcHead::SequenceClassification => classifier_labels(labels, &mut d)?,
            EsmcHead::TokenClassification { .. } => {
                let bias = raw.token_classification_bias.unwrap_or(true);
                head = EsmcHead::TokenClassification { bias };
                classifier_labels(labels, &mut d)?
            }
        };
        Ok(EsmcConfig {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            intermediate_size,
            num_layers,
            num_heads,
            head_dim,
            max_position_embeddings,
            attention_bias: flag("attention_bias", raw.attention_bias, false, &mut d),
            mlp_bias: flag("mlp_bias", raw.mlp_bias, false, &mut d),
            hidden_act: raw.hidden_act.unwrap_or_else(|| "silu".into()),
            pad_token_id: raw.pad_token_id.unwrap_or(1),
            tie_word_embeddings: false,
            // nn.LayerNorm's default: EsmcConfig has no epsilon key.
            layer_norm_eps: 1e-5,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims { head_dim: self.head_dim, ..super::encoders::encoder_dims!(self) }
    }
}
