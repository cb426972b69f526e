//! OPT (`opt`), with the defaults of transformers' `OPTConfig` (which are OPT-125m's sizes).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify, flag};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    ffn_dim: Option<u64>,
    max_position_embeddings: Option<u64>,
    do_layer_norm_before: Option<bool>,
    _remove_final_layer_norm: Option<bool>,
    word_embed_proj_dim: Option<u64>,
    num_attention_heads: Option<u64>,
    activation_function: Option<String>,
    pad_token_id: Option<u64>,
    enable_bias: Option<bool>,
    layer_norm_elementwise_affine: Option<bool>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OptConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub ffn_dim: u64,
    pub max_position_embeddings: u64,
    /// The width of the token embeddings (and the LM head); `hidden_size` when the file leaves it
    /// null. When it differs, `project_in` and `project_out` map between the two.
    pub word_embed_proj_dim: u64,
    pub do_layer_norm_before: bool,
    pub remove_final_layer_norm: bool,
    pub activation: String,
    pub pad_token_id: u64,
    pub enable_bias: bool,
    pub layer_norm_elementwise_affine: bool,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

const CLASSES: Classes = Classes {
    prefix: "OPT",
    causal_lm: "ForCausalLM",
    token_classification: false,
    question_answering: true,
};

/// `OPTLearnedPositionalEmbedding` keeps two rows before the first position (fairseq's padding
/// offset), which no position id reaches.
pub const POSITION_OFFSET: u64 = 2;

impl OptConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 50272, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 768, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 12, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 12, 1 << 16, &mut d)?;
        let ffn_dim = size("ffn_dim", raw.ffn_dim, 3072, 1 << 22, &mut d)?;
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 2048, 1 << 30, &mut d)?;
        let word_embed_proj_dim = match raw.word_embed_proj_dim {
            Some(w) => size("word_embed_proj_dim", Some(w), 0, 1 << 18, &mut d)?,
            None => {
                d.push(Defaulted {
                    field: "word_embed_proj_dim",
                    value: format!("null: hidden_size = {hidden_size}"),
                });
                hidden_size
            }
        };
        let do_layer_norm_before = flag("do_layer_norm_before", raw.do_layer_norm_before, true, &mut d);
        let remove_final_layer_norm = raw._remove_final_layer_norm.unwrap_or(false);
        let pad_token_id = raw.pad_token_id.unwrap_or_else(|| {
            d.push(Defaulted { field: "pad_token_id", value: "1".into() });
            1
        });
        let enable_bias = flag("enable_bias", raw.enable_bias, true, &mut d);
        let layer_norm_elementwise_affine =
            flag("layer_norm_elementwise_affine", raw.layer_norm_elementwise_affine, true, &mut d);
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(OptConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            ffn_dim,
            max_position_embeddings,
            word_embed_proj_dim,
            do_layer_norm_before,
            remove_final_layer_norm,
            activation: raw.activation_function.unwrap_or_else(|| "relu".into()),
            pad_token_id,
            enable_bias,
            layer_norm_elementwise_affine,
            tie_word_embeddings,
            defaulted: d,
        })
    }

    /// `OPTDecoder` builds its final LayerNorm only for pre-norm models that do not carry the
    /// pre-4.20 compatibility flag.
    pub fn has_final_layer_norm(&self) -> bool {
        self.do_layer_norm_before && !self.remove_final_layer_norm
    }

    pub fn projects(&self) -> bool {
        self.word_embed_proj_dim != self.hidden_size
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            pad_token_id: Some(self.pad_token_id),
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: 1e-5,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.ffn_dim,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}
