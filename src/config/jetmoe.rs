//! JetMoE (`jetmoe`), with the defaults of transformers' `JetMoeConfig`: `kv_channels` (its
//! `attribute_map` name `head_dim`) per key/value head, and as many query heads as key/value
//! heads times `num_experts_per_tok` (the class sets `num_attention_heads` itself).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify, flag};
use super::{Common, ConfigError, Defaulted, alias_or, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_key_value_heads: Option<u64>,
    kv_channels: Option<u64>,
    head_dim: Option<u64>,
    intermediate_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    activation_function: Option<String>,
    num_local_experts: Option<u64>,
    num_experts_per_tok: Option<u64>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    rms_norm_eps: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct JetMoeConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_hidden_layers: u64,
    pub num_key_value_heads: u64,
    pub kv_channels: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub activation_function: String,
    pub num_local_experts: u64,
    pub num_experts_per_tok: u64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub rms_norm_eps: f64,
    pub defaulted: Vec<Defaulted>,
}

const CLASSES: Classes = Classes {
    prefix: "JetMoe",
    causal_lm: "ForCausalLM",
    token_classification: false,
    question_answering: false,
};

impl JetMoeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 32000, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 2048, 1 << 18, &mut d)?;
        let num_hidden_layers = size("num_hidden_layers", raw.num_hidden_layers, 12, 10_000, &mut d)?;
        let num_key_value_heads = size("num_key_value_heads", raw.num_key_value_heads, 16, 1 << 16, &mut d)?;
        let (f, v) = alias_or(("head_dim", raw.head_dim), ("kv_channels", raw.kv_channels));
        let kv_channels = size(f, v, 128, 1 << 16, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 5632, 1 << 22, &mut d)?;
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 4096, 1 << 30, &mut d)?;
        let num_local_experts = size("num_local_experts", raw.num_local_experts, 8, 1 << 16, &mut d)?;
        let num_experts_per_tok = size("num_experts_per_tok", raw.num_experts_per_tok, 2, 1 << 16, &mut d)?;
        if num_experts_per_tok > num_local_experts {
            return Err(ConfigError::field(
                "num_experts_per_tok",
                format!("{num_experts_per_tok} experts per token, but only {num_local_experts} experts"),
            ));
        }
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(JetMoeConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            num_hidden_layers,
            num_key_value_heads,
            kv_channels,
            intermediate_size,
            max_position_embeddings,
            activation_function: raw.activation_function.unwrap_or_else(|| "silu".into()),
            num_local_experts,
            num_experts_per_tok,
            tie_word_embeddings,
            pad_token_id: raw.pad_token_id,
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(1e-6),
            defaulted: d,
        })
    }

    /// Query heads: each token's top-k attention experts each project the key/value heads' width.
    pub fn num_heads(&self) -> u64 {
        self.num_key_value_heads * self.num_experts_per_tok
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.num_key_value_heads,
            head_dim: self.kv_channels,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: Some(self.num_local_experts),
            experts_per_token: Some(self.num_experts_per_tok),
            ..super::Dims::mha(
                self.hidden_size,
                self.num_hidden_layers,
                self.num_heads(),
                self.intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}
