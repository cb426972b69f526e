//! Moshi (`moshi`): Kyutai's speech-text model. Its text decoder (`MoshiModel`,
//! `MoshiForCausalLM`) is planned: RMSNorm layers with attention whose projections are wrapped in
//! `MoshiLinear` (`q_proj.linear`), a gating MLP whose `fc1` makes both halves (`ffn_dim`, even)
//! and whose `fc2` reads one, a `vocab_size + 1` embedding table (the extra row for padding), an
//! untied head. `MoshiForConditionalGeneration` adds the Mimi audio codec (`config/mimi.rs`),
//! the depth decoder over the audio codebooks (`config/moshi_depth.rs`) and the codebooks'
//! embeddings. Defaults: transformers 5.24
//! `configuration_moshi.py`. Built by `graph/moshi.rs`.

use serde::Deserialize;
use serde_json::Value;

pub use super::moshi_depth::Codec;
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, size};

#[derive(Debug, Clone)]
pub struct MoshiConfig {
    pub class: String,
    /// `MoshiForCausalLM` or `MoshiForConditionalGeneration` (true: `model.` and `lm_head`) or
    /// the bare `MoshiModel`.
    pub causal_lm: bool,
    /// `MoshiForConditionalGeneration`'s codec, depth decoder and audio embeddings.
    pub codec: Option<Codec>,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub ffn_dim: u64,
    pub max_position_embeddings: u64,
    pub sliding_window: u64,
    pub hidden_act: String,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    ffn_dim: Option<u64>,
    max_position_embeddings: Option<u64>,
    sliding_window: Option<u64>,
    hidden_act: Option<String>,
    pad_token_id: Option<u64>,
}

impl MoshiConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let class = class_or(common, "MoshiModel", &mut d);
        let causal_lm = match class.as_str() {
            "MoshiModel" => false,
            "MoshiForCausalLM" => true,
            "MoshiForConditionalGeneration" => true,
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {class} is not one the planner knows for this family"),
                ));
            }
        };
        let r: Raw = deserialize_raw(value)?;
        let hidden_size = size("hidden_size", r.hidden_size, 4096, 1 << 18, &mut d)?;
        let num_heads = size("num_attention_heads", r.num_attention_heads, 32, 1 << 16, &mut d)?;
        if hidden_size % num_heads != 0 {
            // MoshiAttention raises on it, whatever head_dim says.
            return Err(ConfigError::field(
                "num_attention_heads",
                format!("{num_heads} heads do not divide hidden_size {hidden_size}"),
            ));
        }
        let kv = r.num_key_value_heads.unwrap_or(num_heads);
        let num_kv_heads = size("num_key_value_heads", Some(kv), 0, 1 << 16, &mut d)?;
        // `head_dim or hidden_size // num_attention_heads`.
        let hd = r.head_dim.filter(|&h| h != 0).unwrap_or(hidden_size / num_heads);
        let head_dim = size("head_dim", Some(hd), 0, 1 << 16, &mut d)?;
        let ffn_dim = size("ffn_dim", r.ffn_dim, 22528, 1 << 22, &mut d)?;
        if ffn_dim % 2 == 1 {
            return Err(ConfigError::field(
                "ffn_dim",
                format!("{ffn_dim} must be even (the gate takes half)"),
            ));
        }
        let pad_token_id = r.pad_token_id;
        let vocab_size = size("vocab_size", r.vocab_size, 32000, 100_000_000, &mut d)?;
        let codec = match class.as_str() {
            "MoshiForConditionalGeneration" => Some(Codec::resolve(value, hidden_size, vocab_size, &mut d)?),
            _ => None,
        };
        Ok(MoshiConfig {
            class,
            causal_lm,
            codec,
            vocab_size,
            hidden_size,
            num_layers: size("num_hidden_layers", r.num_hidden_layers, 32, 10_000, &mut d)?,
            num_heads,
            num_kv_heads,
            head_dim,
            ffn_dim,
            max_position_embeddings: size(
                "max_position_embeddings",
                r.max_position_embeddings,
                3000,
                1 << 26,
                &mut d,
            )?,
            sliding_window: size("sliding_window", r.sliding_window, 3000, 1 << 26, &mut d)?,
            hidden_act: r.hidden_act.unwrap_or_else(|| "silu".into()),
            pad_token_id,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: self.pad_token_id,
            layer_norm_eps: 1e-8,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.ffn_dim / 2,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}
