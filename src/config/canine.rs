//! CANINE (Clark et al., 2022), read as transformers' `CanineConfig` reads it: a tokenizer-free
//! encoder over Unicode code points, embedded by `num_hash_functions` hashed tables of
//! `num_hash_buckets` rows, a one-layer local encoder, a strided convolution down to
//! `downsampling_rate` times fewer positions, the deep BERT stack, a convolution back up
//! (`upsampling_kernel_size`) and a one-layer final encoder.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::Head;
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, num_labels};

const CLASSES: Classes =
    Classes { prefix: "Canine", causal_lm: None, pretraining: false, next_sentence: false };

/// CanineConfig's sizes, in its order.
const SIZES: [SizeKey; 10] = [
    ("hidden_size", 768, WIDTH),
    ("num_hidden_layers", 12, LAYERS),
    ("num_attention_heads", 12, HEADS),
    ("intermediate_size", 3072, FFN),
    ("max_position_embeddings", 16384, POSITIONS),
    ("type_vocab_size", 16, TABLE),
    ("downsampling_rate", 4, 1 << 12),
    ("upsampling_kernel_size", 4, 1 << 12),
    ("num_hash_functions", 8, 1 << 10),
    ("num_hash_buckets", 16384, TABLE),
];

#[derive(Debug, Deserialize)]
struct Raw {
    hidden_act: Option<String>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CanineConfig {
    pub class: String,
    pub head: Head,
    pub num_labels: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub downsampling_rate: u64,
    pub upsampling_kernel_size: u64,
    pub num_hash_functions: u64,
    pub num_hash_buckets: u64,
    /// The rows of each hashed table: CANINE has no vocabulary of its own.
    pub vocab_size: u64,
    pub hidden_act: String,
    pub layer_norm_eps: f64,
    pub pad_token_id: u64,
    /// No class has an LM head; kept for the serving dimensions.
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

impl CanineConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings, type_vocab_size, downsampling_rate, upsampling_kernel_size, num_hash_functions, num_hash_buckets] = sizes(value, SIZES, &mut d)?;
        if !hidden_size.is_multiple_of(num_heads) {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!(
                    "{num_heads} heads do not divide the hidden size {hidden_size}, which the attention requires"
                ),
            ));
        }
        let class = class_or(common, "CanineModel", &mut d);
        let (head, num_labels) = super::encoders::head_of(&CLASSES, &class, num_labels(value)?, &mut d)?;
        // CANINE defines no masked-LM class (its prediction head is used by none).
        if head == Head::MaskedLm {
            return Err(ConfigError::field("architectures[0]", super::bert::UnknownClass(class).to_string()));
        }
        let pad_token_id = raw.pad_token_id.unwrap_or_else(|| {
            d.push(Defaulted { field: "pad_token_id", value: "0".into() });
            0
        });
        Ok(CanineConfig {
            class,
            head,
            num_labels,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            downsampling_rate,
            upsampling_kernel_size,
            num_hash_functions,
            num_hash_buckets,
            vocab_size: num_hash_buckets,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-12),
            pad_token_id,
            tie_word_embeddings: false,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::encoders::encoder_dims!(self)
    }
}
