//! BLOOM (`bloom`), with the defaults of transformers' `BloomConfig` (a tiny 2-layer model of
//! width 64), its `attribute_map` (`num_hidden_layers` -> `n_layer`, `num_attention_heads` ->
//! `n_head`) and the legacy `n_embed` keyword for `hidden_size`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::alias_or;
use super::decoder::{Classes, DecoderHead, classify, flag};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    n_embed: Option<u64>,
    n_layer: Option<u64>,
    num_hidden_layers: Option<u64>,
    n_head: Option<u64>,
    num_attention_heads: Option<u64>,
    layer_norm_epsilon: Option<f64>,
    apply_residual_connection_post_layernorm: Option<bool>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    seq_length: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BloomConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub n_layer: u64,
    pub n_head: u64,
    pub layer_norm_epsilon: f64,
    pub apply_residual_connection_post_layernorm: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    /// ALiBi has no position table, so nothing in the model bounds the context; this is the
    /// length BLOOM was trained at (`seq_length` when the file carries it, else 2048).
    pub trained_context: u64,
    pub defaulted: Vec<Defaulted>,
}

const CLASSES: Classes = Classes {
    prefix: "Bloom",
    causal_lm: "ForCausalLM",
    token_classification: true,
    question_answering: true,
};

impl BloomConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 250880, 100_000_000, &mut d)?;
        let (f, v) = alias_or(("n_embed", raw.n_embed), ("hidden_size", raw.hidden_size));
        let hidden_size = size(f, v, 64, 1 << 18, &mut d)?;
        let (f, v) = alias_or(("num_hidden_layers", raw.num_hidden_layers), ("n_layer", raw.n_layer));
        let n_layer = size(f, v, 2, 10_000, &mut d)?;
        let (f, v) = alias_or(("num_attention_heads", raw.num_attention_heads), ("n_head", raw.n_head));
        let n_head = size(f, v, 8, 1 << 16, &mut d)?;
        let trained_context = match raw.seq_length {
            Some(n) => size("seq_length", Some(n), 0, 1 << 30, &mut d)?,
            None => {
                d.push(Defaulted {
                    field: "seq_length",
                    value: "2048: BLOOM's training length (ALiBi itself sets no limit)".into(),
                });
                2048
            }
        };
        let apply_residual_connection_post_layernorm =
            raw.apply_residual_connection_post_layernorm.unwrap_or(false);
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(BloomConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            n_layer,
            n_head,
            layer_norm_epsilon: raw.layer_norm_epsilon.unwrap_or(1e-5),
            apply_residual_connection_post_layernorm,
            tie_word_embeddings,
            pad_token_id: raw.pad_token_id,
            trained_context,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        // BloomMLP is always 4 x hidden; the config has no key for it.
        super::Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::mha(
                self.hidden_size,
                self.n_layer,
                self.n_head,
                4 * self.hidden_size,
                self.vocab_size,
                self.trained_context,
            )
        }
    }
}
