//! Recurrent language models with their own layers, read from `config.json` with the defaults of
//! transformers 5.x's config classes: RWKV-4 (`rwkv`: time mixing and channel mixing, a
//! per-sequence state of five vectors per layer instead of a KV cache). Their graphs are in
//! `graph/rwkv.rs`.

use serde::{Deserialize, Serialize};

use super::{Common, ConfigError, Defaulted, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct RawRwkv {
    vocab_size: Option<u64>,
    // RwkvConfig.attribute_map: `max_position_embeddings` is `context_length`.
    #[serde(alias = "max_position_embeddings")]
    context_length: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    attention_hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    layer_norm_epsilon: Option<f64>,
    tie_word_embeddings: Option<bool>,
}

/// RWKV-4: each block holds a LayerNorm before time mixing and one before channel mixing (the
/// first block one more, on the embeddings); time mixing's key, value and receptance are
/// `attention_hidden_size` wide (hidden unless set), channel mixing's key `intermediate_size`
/// (4 x hidden unless set).
#[derive(Debug, Clone, Serialize)]
pub struct RwkvConfig {
    pub class: String,
    /// `RwkvForCausalLM` (true) or the bare `RwkvModel`.
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub context_length: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub attention_hidden_size: u64,
    pub intermediate_size: u64,
    pub layer_norm_epsilon: f64,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

impl RwkvConfig {
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: RawRwkv = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 50277, 100_000_000, &mut d)?;
        let context_length = size("context_length", raw.context_length, 1024, 1 << 24, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 4096, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 32, 10_000, &mut d)?;
        // RwkvConfig.__post_init__ fills these from hidden_size when they are None.
        let attention_hidden_size =
            size("attention_hidden_size", raw.attention_hidden_size, hidden_size, 1 << 18, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 4 * hidden_size, 1 << 22, &mut d)?;
        let class = super::class_or(common, "RwkvModel", &mut d);
        let causal_lm = match class.as_str() {
            "RwkvModel" => false,
            "RwkvForCausalLM" => true,
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {class} is not one the planner knows for this family"),
                ));
            }
        };
        Ok(RwkvConfig {
            class,
            causal_lm,
            vocab_size,
            context_length,
            hidden_size,
            num_layers,
            attention_hidden_size,
            intermediate_size,
            layer_norm_epsilon: raw.layer_norm_epsilon.unwrap_or(1e-5),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            // No attention: one nominal head of width 0, so attention terms vanish.
            num_heads: 1,
            num_kv_heads: 1,
            head_dim: 0,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                1,
                self.intermediate_size,
                self.vocab_size,
                self.context_length,
            )
        }
    }
}
