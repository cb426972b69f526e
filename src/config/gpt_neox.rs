//! GPT-NeoX (`gpt_neox`: Pythia, GPT-NeoX-20B), with the defaults of transformers'
//! `GPTNeoXConfig` (which are GPT-NeoX-20B's sizes).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify, flag};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    intermediate_size: Option<u64>,
    hidden_act: Option<String>,
    rotary_pct: Option<f64>,
    max_position_embeddings: Option<u64>,
    layer_norm_eps: Option<f64>,
    tie_word_embeddings: Option<bool>,
    use_parallel_residual: Option<bool>,
    attention_bias: Option<bool>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GptNeoxConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub hidden_act: String,
    pub rotary_pct: f64,
    pub max_position_embeddings: u64,
    pub layer_norm_eps: f64,
    pub tie_word_embeddings: bool,
    /// Attention and MLP both read the block's input and are added to it together.
    pub use_parallel_residual: bool,
    /// Biases on `query_key_value` and `dense`.
    pub attention_bias: bool,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

const CLASSES: Classes = Classes {
    prefix: "GPTNeoX",
    causal_lm: "ForCausalLM",
    token_classification: true,
    question_answering: true,
};

impl GptNeoxConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 50432, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 6144, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 44, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 64, 1 << 16, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 24576, 1 << 22, &mut d)?;
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 2048, 1 << 30, &mut d)?;
        let rotary_pct = raw.rotary_pct.unwrap_or_else(|| {
            d.push(Defaulted { field: "rotary_pct", value: "0.25".into() });
            0.25
        });
        if !(0.0..=1.0).contains(&rotary_pct) {
            return Err(ConfigError::field(
                "rotary_pct",
                format!("{rotary_pct} is not a fraction of the head"),
            ));
        }
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d);
        let use_parallel_residual = flag("use_parallel_residual", raw.use_parallel_residual, true, &mut d);
        let attention_bias = flag("attention_bias", raw.attention_bias, true, &mut d);
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        Ok(GptNeoxConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
            rotary_pct,
            max_position_embeddings,
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-5),
            tie_word_embeddings,
            use_parallel_residual,
            attention_bias,
            pad_token_id: raw.pad_token_id,
            defaulted: d,
        })
    }

    pub fn head_dim(&self) -> u64 {
        self.hidden_size / self.num_heads
    }

    /// `int(head_size * rotary_pct)`: the leading dimensions of each head that rotate.
    pub fn rotary_ndims(&self) -> u64 {
        (self.head_dim() as f64 * self.rotary_pct) as u64
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            head_dim: self.head_dim(),
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_eps,
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
