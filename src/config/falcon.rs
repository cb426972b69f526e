//! Falcon (`falcon`), with the defaults of transformers' `FalconConfig` (which are Falcon-7B's
//! sizes) and its legacy `n_embed` keyword for `hidden_size`.

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
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_ln_in_parallel_attn: Option<u64>,
    layer_norm_epsilon: Option<f64>,
    num_kv_heads: Option<u64>,
    alibi: Option<bool>,
    new_decoder_architecture: Option<bool>,
    multi_query: Option<bool>,
    parallel_attn: Option<bool>,
    bias: Option<bool>,
    max_position_embeddings: Option<u64>,
    ffn_hidden_size: Option<u64>,
    activation: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
}

/// How `query_key_value` packs the heads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QkvLayout {
    /// Falcon-40B/180B: `num_kv_heads` key and value heads, grouped.
    Grouped,
    /// Falcon-7B: one key and one value head shared by all query heads.
    MultiQuery,
    /// A key and a value head per query head.
    MultiHead,
}

/// The LayerNorms a block has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockNorms {
    /// Sequential attention then MLP: `input_layernorm` and `post_attention_layernorm`.
    Sequential,
    /// Parallel attention and MLP reading one `input_layernorm`.
    ParallelShared,
    /// Parallel attention and MLP with their own norms, `ln_attn` and `ln_mlp`.
    ParallelSeparate,
}

#[derive(Debug, Clone, Serialize)]
pub struct FalconConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    /// Key/value heads as the attention builds them (1 for multi-query).
    pub kv_heads: u64,
    pub qkv: QkvLayout,
    pub norms: BlockNorms,
    pub alibi: bool,
    pub bias: bool,
    pub max_position_embeddings: u64,
    pub ffn_hidden_size: u64,
    pub activation: String,
    pub layer_norm_epsilon: f64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

const CLASSES: Classes = Classes {
    prefix: "Falcon",
    causal_lm: "ForCausalLM",
    token_classification: true,
    question_answering: true,
};

impl FalconConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 65024, 100_000_000, &mut d)?;
        let (f, v) = alias_or(("n_embed", raw.n_embed), ("hidden_size", raw.hidden_size));
        let hidden_size = size(f, v, 4544, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 32, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 71, 1 << 16, &mut d)?;
        let num_kv_heads = size("num_kv_heads", raw.num_kv_heads, num_heads, 1 << 16, &mut d)?;
        let new_decoder_architecture =
            flag("new_decoder_architecture", raw.new_decoder_architecture, false, &mut d);
        let multi_query = flag("multi_query", raw.multi_query, true, &mut d);
        let parallel_attn = flag("parallel_attn", raw.parallel_attn, true, &mut d);
        let bias = flag("bias", raw.bias, false, &mut d);
        let alibi = flag("alibi", raw.alibi, false, &mut d);
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 2048, 1 << 30, &mut d)?;
        // FalconConfig takes 4 x the `hidden_size` keyword, before a legacy `n_embed` replaces it.
        let ffn_default = 4 * raw.hidden_size.unwrap_or(4544);
        let ffn_hidden_size = size("ffn_hidden_size", raw.ffn_hidden_size, ffn_default, 1 << 22, &mut d)?;
        let qkv = if new_decoder_architecture {
            QkvLayout::Grouped
        } else if multi_query {
            QkvLayout::MultiQuery
        } else {
            QkvLayout::MultiHead
        };
        let kv_heads = match qkv {
            QkvLayout::Grouped => num_kv_heads,
            QkvLayout::MultiQuery => 1,
            QkvLayout::MultiHead => num_heads,
        };
        // FalconDecoderLayer sets num_ln_in_parallel_attn to 2 for the new architecture when unset.
        let num_ln = match raw.num_ln_in_parallel_attn {
            Some(n @ (1 | 2)) => n,
            Some(n) => {
                return Err(ConfigError::field("num_ln_in_parallel_attn", format!("{n} is not 1 or 2")));
            }
            None if new_decoder_architecture => 2,
            None => 1,
        };
        let norms = match (parallel_attn, num_ln) {
            (false, _) => BlockNorms::Sequential,
            (true, 2) => BlockNorms::ParallelSeparate,
            (true, _) => BlockNorms::ParallelShared,
        };
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(FalconConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            kv_heads,
            qkv,
            norms,
            alibi,
            bias,
            max_position_embeddings,
            ffn_hidden_size,
            activation: raw.activation.unwrap_or_else(|| "gelu".into()),
            layer_norm_epsilon: raw.layer_norm_epsilon.unwrap_or(1e-5),
            tie_word_embeddings,
            pad_token_id: raw.pad_token_id,
            defaulted: d,
        })
    }

    pub fn head_dim(&self) -> u64 {
        self.hidden_size / self.num_heads
    }

    /// `query_key_value`'s output width: the query heads plus the key and value heads.
    pub fn qkv_width(&self) -> u64 {
        (self.num_heads + 2 * self.kv_heads) * self.head_dim()
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.kv_heads,
            head_dim: self.head_dim(),
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.ffn_hidden_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}
