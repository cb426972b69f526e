//! CANINE (Clark et al., 2022), read as transformers' `CanineConfig` reads it: a tokenizer-free
//! encoder over Unicode code points, embedded by `num_hash_functions` hashed tables of
//! `num_hash_buckets` rows, a one-layer local encoder, a strided convolution down to
//! `downsampling_rate` times fewer positions, the deep BERT stack, a convolution back up
//! (`upsampling_kernel_size`) and a one-layer final encoder.

use serde::Serialize;
use serde_json::Value;

use super::bert::Head;
use super::enc_common::{EncSizes, Scalars};
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, WIDTH};
use super::{Common, ConfigError, Defaulted, class_or, num_labels};

const CLASSES: Classes =
    Classes { prefix: "Canine", causal_lm: None, pretraining: false, next_sentence: false };

/// CanineConfig's BERT sizes, in its order (no vocabulary: code points are hashed).
const SIZES: [SizeKey; 6] = [
    ("hidden_size", 768, WIDTH),
    ("num_hidden_layers", 12, LAYERS),
    ("num_attention_heads", 12, HEADS),
    ("intermediate_size", 3072, FFN),
    ("max_position_embeddings", 16384, POSITIONS),
    ("type_vocab_size", 16, TABLE),
];

/// Its own keys: the convolutions and the hashed tables.
const OWN: [SizeKey; 4] = [
    ("downsampling_rate", 4, 1 << 12),
    ("upsampling_kernel_size", 4, 1 << 12),
    ("num_hash_functions", 8, 1 << 10),
    ("num_hash_buckets", 16384, TABLE),
];

#[derive(Debug, Clone, Serialize)]
pub struct CanineConfig {
    pub class: String,
    pub head: Head,
    pub num_labels: u64,
    /// `vocab_size` holds the rows of each hashed table: CANINE has no vocabulary of its own.
    #[serde(flatten)]
    pub sizes: EncSizes,
    pub downsampling_rate: u64,
    pub upsampling_kernel_size: u64,
    pub num_hash_functions: u64,
    pub num_hash_buckets: u64,
    pub defaulted: Vec<Defaulted>,
}

impl CanineConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let mut sizes = EncSizes::read(value, &SIZES, Scalars { act: "gelu", eps: 1e-12, pad: 0 }, &mut d)?;
        let [downsampling_rate, upsampling_kernel_size, num_hash_functions, num_hash_buckets] =
            super::encoders::sizes(value, OWN, &mut d)?;
        sizes.vocab_size = num_hash_buckets;
        let class = class_or(common, "CanineModel", &mut d);
        let (head, num_labels) = super::encoders::head_of(&CLASSES, &class, num_labels(value)?, &mut d)?;
        // CANINE defines no masked-LM class (its prediction head is used by none).
        if head == Head::MaskedLm {
            return Err(ConfigError::field("architectures[0]", super::bert::UnknownClass(class).to_string()));
        }
        Ok(CanineConfig {
            class,
            head,
            num_labels,
            sizes,
            downsampling_rate,
            upsampling_kernel_size,
            num_hash_functions,
            num_hash_buckets,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.sizes.dims()
    }
}
