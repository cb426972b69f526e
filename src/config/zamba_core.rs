//! What Zamba (`config/zamba.rs`) and Zamba2 (`config/zamba2.rs`) read alike: the sizes, the
//! shared blocks' attention (`attribute_map`: `head_dim` -> `attention_head_dim`), which layers
//! are hybrid (`layer_types` -> `layers_block_type`), the head. Their classes derive
//! `attention_hidden_size` (2 x hidden) and `attention_head_dim` (2 x hidden / heads) when the
//! file has none.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify};
use super::{Common, ConfigError, Defaulted, aliased, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    tie_word_embeddings: Option<bool>,
    hidden_size: Option<u64>,
    attention_hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    attention_head_dim: Option<u64>,
    head_dim: Option<u64>,
    num_key_value_heads: Option<u64>,
    hidden_act: Option<String>,
    rms_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    max_position_embeddings: Option<u64>,
    layers_block_type: Option<Vec<String>>,
    layer_types: Option<Vec<String>>,
}

/// The class's layer pattern for a count, when the file lists none.
pub(crate) type LayerPattern<'a> = dyn Fn(u64, &mut Vec<Defaulted>) -> Result<Vec<bool>, ConfigError> + 'a;

/// Where the two classes' defaults differ.
pub(crate) struct Defaults {
    pub class: &'static str,
    pub classes: Classes,
    pub hidden: u64,
    /// None: 4 x hidden.
    pub intermediate: Option<u64>,
    pub layers: u64,
    pub heads: u64,
    /// None: as many as the heads.
    pub kv_heads: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ZambaCore {
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    /// The shared blocks' input: the hidden state and the embeddings side by side.
    pub attention_hidden_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub context: u64,
    /// Per layer, whether it runs a shared block before its Mamba mixer.
    pub hybrid: Vec<bool>,
    pub tie_word_embeddings: bool,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
}

impl ZambaCore {
    /// Reads the shared keys; `layers(count, d)` is the class's pattern when the file lists none.
    pub(crate) fn read(
        value: &Value,
        common: &Common,
        k: &Defaults,
        layers: &LayerPattern<'_>,
        d: &mut Vec<Defaulted>,
    ) -> Result<(String, ZambaCore), ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let vocab_size = size("vocab_size", raw.vocab_size, 32000, 100_000_000, d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, k.hidden, 1 << 18, d)?;
        let attention_hidden_size =
            size("attention_hidden_size", raw.attention_hidden_size, 2 * hidden_size, 1 << 19, d)?;
        let ffn = k.intermediate.unwrap_or(4 * hidden_size);
        let intermediate_size = size("intermediate_size", raw.intermediate_size, ffn, 1 << 22, d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, k.layers, 10_000, d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, k.heads, 1 << 14, d)?;
        let head_dim_field = if raw.head_dim.is_some() { "head_dim" } else { "attention_head_dim" };
        let head_dim = aliased(raw.attention_head_dim, raw.head_dim);
        let head_dim = size(head_dim_field, head_dim, 2 * hidden_size / num_heads, 1 << 16, d)?;
        let kv = k.kv_heads.unwrap_or(num_heads);
        let num_kv_heads = size("num_key_value_heads", raw.num_key_value_heads, kv, 1 << 14, d)?;
        let context = size("max_position_embeddings", raw.max_position_embeddings, 4096, 1 << 30, d)?;
        let hybrid = match aliased(raw.layers_block_type, raw.layer_types) {
            // Every type but `hybrid` builds a Mamba layer alone (the models' layer loops).
            Some(list) => list.iter().map(|t| t == "hybrid").collect(),
            None => layers(num_layers, d)?,
        };
        // PreTrainedConfig.validate_layer_type: one entry per layer.
        if hybrid.len() as u64 != num_layers {
            return Err(ConfigError::field(
                "layers_block_type",
                format!("{} entries for {num_layers} layers; {} needs one per layer", hybrid.len(), k.class),
            ));
        }
        let (class, head) = classify(&k.classes, common.architecture.as_deref(), value, d)?;
        let pad_token_id = super::read::pad_or_null(raw.pad_token_id, value, 0);
        let core = ZambaCore {
            head,
            vocab_size,
            hidden_size,
            attention_hidden_size,
            intermediate_size,
            num_heads,
            num_kv_heads,
            head_dim,
            context,
            hybrid,
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, d),
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(1e-5),
            pad_token_id,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
        };
        Ok((class, core))
    }

    /// The hybrid layers: the shared blocks' uses.
    pub fn uses(&self) -> u64 {
        self.hybrid.iter().filter(|h| **h).count() as u64
    }

    pub fn dims(&self) -> super::Dims {
        let layers = self.hybrid.len() as u64;
        let (h, f, v, ctx) = (self.hidden_size, self.intermediate_size, self.vocab_size, self.context);
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            ..super::Dims::mha(h, layers, self.num_heads, f, v, ctx)
        }
    }
}
