//! NeoMME (H company's multimodal encoder), read as transformers 5.24's `NeoMMEConfig` reads it:
//! a factorized token embedding (`embedding_rank`), a patch stem for images, bidirectional
//! grouped-query attention with a sigmoid output gate, a value embedding table, and ReLU² MLPs;
//! sliding or full attention per layer by `layer_types` (by default full on every sixth layer and
//! the last).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, flag};

/// Bounds for the widths `NeoMMEConfig` adds (the patch side and the retrieval width).
const PATCH: u64 = 1 << 10;

const SIZES: [SizeKey; 11] = [
    ("vocab_size", 131_072, VOCAB),
    ("embedding_rank", 256, WIDTH),
    ("hidden_size", 1024, WIDTH),
    ("intermediate_size", 3584, FFN),
    ("num_hidden_layers", 17, LAYERS),
    ("num_attention_heads", 16, HEADS),
    ("num_key_value_heads", 4, HEADS),
    ("head_dim", 64, WIDTH),
    ("max_position_embeddings", 16_384, POSITIONS),
    ("patch_size", 32, PATCH),
    ("embedding_dim", 128, WIDTH),
];

/// The class built on `NeoMMEModel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NeoMmeHead {
    Model,
    /// `unembedding_projection` (hidden back to the rank) and `lm_head` (rank to vocabulary),
    /// both tied to the factorized embedding under `tie_word_embeddings`.
    MaskedLm,
    /// `multi_vector_head.proj` (hidden to `embedding_dim`); the dense head is a mean pool.
    Retrieval,
}

const CLASSES: &[(&str, NeoMmeHead)] = &[
    ("NeoMMEModel", NeoMmeHead::Model),
    ("NeoMMEForMaskedLM", NeoMmeHead::MaskedLm),
    ("NeoMMEForRetrieval", NeoMmeHead::Retrieval),
];

#[derive(Debug, Deserialize)]
struct Raw {
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    tie_word_embeddings: Option<bool>,
    hidden_act: Option<String>,
    norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    layer_types: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NeoMmeConfig {
    pub class: String,
    pub head: NeoMmeHead,
    pub vocab_size: u64,
    pub embedding_rank: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub max_position_embeddings: u64,
    pub patch_size: u64,
    pub embedding_dim: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub tie_word_embeddings: bool,
    pub hidden_act: String,
    pub norm_eps: f64,
    pub pad_token_id: u64,
    /// Per layer, whether it attends within a window (`sliding_attention`).
    pub sliding: Vec<bool>,
    pub defaulted: Vec<Defaulted>,
}

impl NeoMmeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let [vocab_size, embedding_rank, hidden_size, intermediate_size, num_layers, num_heads, num_kv_heads] =
            sizes(value, [SIZES[0], SIZES[1], SIZES[2], SIZES[3], SIZES[4], SIZES[5], SIZES[6]], &mut d)?;
        let [head_dim, max_position_embeddings, patch_size, embedding_dim] =
            sizes(value, [SIZES[7], SIZES[8], SIZES[9], SIZES[10]], &mut d)?;
        if !num_heads.is_multiple_of(num_kv_heads) {
            return Err(ConfigError::field(
                "num_key_value_heads",
                format!("{num_kv_heads} key/value heads do not divide the {num_heads} attention heads"),
            ));
        }
        let sliding = layer_types(raw.layer_types, num_layers)?;
        let class = class_or(common, "NeoMMEModel", &mut d);
        let head = super::enc_common::class_in(CLASSES, &class)?;
        let pad_token_id = super::read::pad_token_id(raw.pad_token_id, 0, &mut d);
        Ok(NeoMmeConfig {
            class,
            head,
            vocab_size,
            embedding_rank,
            hidden_size,
            intermediate_size,
            num_layers,
            num_heads,
            num_kv_heads,
            head_dim,
            max_position_embeddings,
            patch_size,
            embedding_dim,
            attention_bias: flag("attention_bias", raw.attention_bias, false, &mut d),
            mlp_bias: flag("mlp_bias", raw.mlp_bias, false, &mut d),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            hidden_act: raw.hidden_act.unwrap_or_else(|| "relu2".into()),
            norm_eps: raw.norm_eps.unwrap_or(1e-6),
            pad_token_id,
            sliding,
            defaulted: d,
        })
    }

    /// A flattened image patch: three channels of `patch_size` squared.
    pub fn patch_dim(&self) -> u64 {
        3 * self.patch_size * self.patch_size
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: Some(self.pad_token_id),
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.norm_eps,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}

/// `layer_types` as `NeoMMEConfig` checks them: one per layer, each `full_attention` or
/// `sliding_attention`, at least one full (the value embeddings feed the first and last full
/// layers); by default full on every sixth layer and on the last.
fn layer_types(types: Option<Vec<String>>, layers: u64) -> Result<Vec<bool>, ConfigError> {
    let Some(types) = types else {
        return Ok((0..layers).map(|i| (i + 1) % 6 != 0 && i + 1 != layers).collect());
    };
    if types.len() as u64 != layers {
        return Err(ConfigError::field(
            "layer_types",
            format!("{} entries for {layers} layers (num_hidden_layers)", types.len()),
        ));
    }
    let sliding = types
        .iter()
        .map(|t| match t.as_str() {
            "full_attention" => Ok(false),
            "sliding_attention" => Ok(true),
            other => Err(ConfigError::field(
                "layer_types",
                format!("{other:?} is not full_attention or sliding_attention"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if sliding.iter().all(|s| *s) {
        return Err(ConfigError::field("layer_types", "no full_attention layer, which NeoMME requires"));
    }
    Ok(sliding)
}
