//! What the enc7 encoders (`doc_text`, `layoutlmv3`, `canine`, `esmc`, `clip_text`) read alike:
//! BERT's size keys, the activation, LayerNorm epsilon and padding index, each type's class list.

use serde::Serialize;
use serde_json::Value;

use super::encoders::{SizeKey, sizes};
use super::{ConfigError, Defaulted};

/// The sizes and scalars every one of these configs resolves, whatever order its class reads
/// them in. A key a type does not read stays 0 (CLIP's and ESM C's token types).
#[derive(Debug, Clone, Serialize)]
pub struct EncSizes {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub hidden_act: String,
    pub layer_norm_eps: f64,
    pub pad_token_id: u64,
    /// No class of these types ties a head to the embeddings; kept for the serving dimensions.
    pub tie_word_embeddings: bool,
}

/// The class's defaults for the scalars: activation, LayerNorm epsilon, padding index.
pub struct Scalars {
    pub act: &'static str,
    pub eps: f64,
    pub pad: u64,
}

#[derive(Debug, serde::Deserialize)]
struct Raw {
    hidden_act: Option<String>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
}

impl EncSizes {
    /// Reads `keys` in the config class's order (the order their defaults are recorded in), then
    /// checks that the heads divide the hidden size, as every one of these classes requires.
    pub fn read(
        value: &Value,
        keys: &[SizeKey],
        scalars: Scalars,
        d: &mut Vec<Defaulted>,
    ) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut s = EncSizes {
            vocab_size: 0,
            hidden_size: 0,
            num_layers: 0,
            num_heads: 0,
            intermediate_size: 0,
            max_position_embeddings: 0,
            type_vocab_size: 0,
            hidden_act: raw.hidden_act.unwrap_or_else(|| scalars.act.into()),
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(scalars.eps),
            pad_token_id: 0,
            tie_word_embeddings: false,
        };
        for key in keys {
            let [found] = sizes(value, [*key], d)?;
            match key.0 {
                "vocab_size" => s.vocab_size = found,
                "hidden_size" => s.hidden_size = found,
                "num_hidden_layers" => s.num_layers = found,
                "num_attention_heads" => s.num_heads = found,
                "intermediate_size" => s.intermediate_size = found,
                "max_position_embeddings" => s.max_position_embeddings = found,
                _ => s.type_vocab_size = found,
            }
        }
        s.pad_token_id = super::read::pad_token_id(raw.pad_token_id, scalars.pad, d);
        if !s.hidden_size.is_multiple_of(s.num_heads) {
            let (heads, hidden) = (s.num_heads, s.hidden_size);
            return Err(ConfigError::field(
                "num_attention_heads",
                format!("{heads} heads do not divide the hidden size {hidden}, which the attention requires"),
            ));
        }
        Ok(s)
    }

    /// Each head's width.
    pub fn head_dim(&self) -> u64 {
        self.hidden_size / self.num_heads
    }

    pub fn dims(&self) -> super::Dims {
        super::encoders::encoder_dims!(self)
    }

    /// [`Self::dims`] for an embedding that numbers positions RoBERTa's way, after the padding
    /// index, so the first `pad_token_id + 1` rows of the table are never reached.
    pub fn dims_after_padding(&self) -> super::Dims {
        let usable_context = self.max_position_embeddings.saturating_sub(self.pad_token_id.saturating_add(1));
        super::Dims { usable_context, ..self.dims() }
    }
}

/// The head a class builds, if it is one of the type's `classes`.
pub(crate) fn class_in<H: Copy>(classes: &[(&str, H)], class: &str) -> Result<H, ConfigError> {
    classes.iter().find(|(name, _)| *name == class).map(|(_, h)| *h).ok_or_else(|| {
        ConfigError::field("architectures[0]", super::bert::UnknownClass(class.to_string()).to_string())
    })
}
