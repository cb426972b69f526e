//! ESM C (EvolutionaryScale's ESM Cambrian protein encoders), read as transformers' `EsmcConfig`
//! reads it: Llama's keys with ESM C's defaults, bidirectional attention with rotary positions, a
//! LayerNorm over the whole query and key vectors, pre-LN layers whose LayerNorms keep their bias
//! and a final norm without one.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::enc_common::{EncSizes, Scalars, class_in};
use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH};
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
}

#[derive(Debug, Clone, Serialize)]
pub struct EsmcConfig {
    pub class: String,
    pub head: EsmcHead,
    pub num_labels: u64,
    /// No ESM C class ties its decoder to the embeddings, whatever the file says.
    #[serde(flatten)]
    pub sizes: EncSizes,
    pub head_dim: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub defaulted: Vec<Defaulted>,
}

impl EsmcConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let mut sizes = EncSizes::read(value, &SIZES, Scalars { act: "silu", eps: 1e-5, pad: 1 }, &mut d)?;
        // nn.LayerNorm's default: EsmcConfig has no epsilon key.
        sizes.layer_norm_eps = 1e-5;
        let (hidden_size, num_heads) = (sizes.hidden_size, sizes.num_heads);
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
        let mut head = class_in(CLASSES, &class)?;
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
            sizes,
            head_dim,
            attention_bias: flag("attention_bias", raw.attention_bias, false, &mut d),
            mlp_bias: flag("mlp_bias", raw.mlp_bias, false, &mut d),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims { head_dim: self.head_dim, ..self.sizes.dims() }
    }
}
