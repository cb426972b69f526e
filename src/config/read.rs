//! Keys that the older BERT-like encoder families (ALBERT, ELECTRA, MPNet, DeBERTa-v2,
//! DistilBERT) read alike, each with its config class's own defaults; the padding index as the
//! state-space hybrids read it; the error for a class a family does not build.

use serde::Deserialize;
use serde_json::Value;

use super::{ConfigError, Defaulted, flag};

#[derive(Debug, Deserialize)]
struct Raw {
    hidden_act: Option<String>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    tie_word_embeddings: Option<bool>,
}

/// The config class's defaults for [`EncoderBasics`].
pub(crate) struct BasicDefaults {
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: &'static str,
}

pub(crate) struct EncoderBasics {
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
}

/// `tie_word_embeddings` (true unless the file says otherwise), `pad_token_id`, `layer_norm_eps`
/// and `hidden_act`, recording the defaults it takes (the two that shape the plan) in that order.
pub(crate) fn encoder_basics(
    value: &Value,
    df: &BasicDefaults,
    d: &mut Vec<Defaulted>,
) -> Result<EncoderBasics, ConfigError> {
    let raw: Raw = super::deserialize_raw(value)?;
    let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, d);
    Ok(EncoderBasics {
        tie_word_embeddings,
        pad_token_id: pad_token_id(raw.pad_token_id, df.pad_token_id, d),
        layer_norm_eps: raw.layer_norm_eps.unwrap_or(df.layer_norm_eps),
        hidden_act: raw.hidden_act.unwrap_or_else(|| df.hidden_act.into()),
    })
}

/// The file's `pad_token_id`, or the class's default (recorded).
pub(crate) fn pad_token_id(value: Option<u64>, default: u64, d: &mut Vec<Defaulted>) -> u64 {
    value.unwrap_or_else(|| {
        d.push(Defaulted { field: "pad_token_id", value: default.to_string() });
        default
    })
}

/// `pad_token_id` as the file writes it: a null stays None, an absent key takes `default`.
pub(crate) fn pad_or_null(raw: Option<u64>, value: &Value, default: u64) -> Option<u64> {
    match raw {
        Some(p) => Some(p),
        None if value.get("pad_token_id").is_some() => None,
        None => Some(default),
    }
}

/// The error for a class the family does not build, on `architectures[0]`.
pub(crate) fn unknown_class(class: &str) -> ConfigError {
    ConfigError::field(
        "architectures[0]",
        format!("class {class} is not one the planner knows for this family"),
    )
}
