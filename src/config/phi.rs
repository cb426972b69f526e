//! Phi (`phi`: phi-1, phi-1.5, phi-2), with the defaults of transformers' `PhiConfig` (which
//! are phi-1.5's sizes).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify, flag};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    hidden_act: Option<String>,
    max_position_embeddings: Option<u64>,
    layer_norm_eps: Option<f64>,
    tie_word_embeddings: Option<bool>,
    partial_rotary_factor: Option<f64>,
    qk_layernorm: Option<bool>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PhiConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    /// The file's `head_dim`, else hidden_size / num_attention_heads, as `PhiAttention` reads it.
    pub head_dim: u64,
    pub hidden_act: String,
    pub max_position_embeddings: u64,
    pub layer_norm_eps: f64,
    pub tie_word_embeddings: bool,
    pub partial_rotary_factor: f64,
    pub qk_layernorm: bool,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

const CLASSES: Classes = Classes {
    prefix: "Phi",
    causal_lm: "ForCausalLM",
    token_classification: true,
    question_answering: false,
};

impl PhiConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 51200, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 2048, 1 << 18, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 8192, 1 << 22, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 24, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 32, 1 << 16, &mut d)?;
        let num_kv_heads = size("num_key_value_heads", raw.num_key_value_heads, num_heads, 1 << 16, &mut d)?;
        let head_dim = match raw.head_dim {
            Some(h) => size("head_dim", Some(h), 0, 1 << 16, &mut d)?,
            None => hidden_size / num_heads,
        };
        if head_dim == 0 {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!("{num_heads} heads leave no dimension of hidden_size {hidden_size} to each"),
            ));
        }
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 2048, 1 << 30, &mut d)?;
        let partial_rotary_factor = raw.partial_rotary_factor.unwrap_or_else(|| {
            d.push(Defaulted { field: "partial_rotary_factor", value: "0.5".into() });
            0.5
        });
        if !(0.0..=1.0).contains(&partial_rotary_factor) {
            return Err(ConfigError::field(
                "partial_rotary_factor",
                format!("{partial_rotary_factor} is not a fraction of the head"),
            ));
        }
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d);
        let qk_layernorm = flag("qk_layernorm", raw.qk_layernorm, false, &mut d);
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(PhiConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            intermediate_size,
            num_layers,
            num_heads,
            num_kv_heads,
            head_dim,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu_new".into()),
            max_position_embeddings,
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-5),
            tie_word_embeddings,
            partial_rotary_factor,
            qk_layernorm,
            pad_token_id: raw.pad_token_id,
            defaulted: d,
        })
    }

    /// `int(head_dim * partial_rotary_factor)`.
    pub fn rotary_ndims(&self) -> u64 {
        (self.head_dim as f64 * self.partial_rotary_factor) as u64
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_eps,
            ..super::mha_dims!(self)
        }
    }
}
