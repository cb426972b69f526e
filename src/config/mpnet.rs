//! MPNet: a BERT-shaped encoder trained with masked and permuted language modelling (Song et al.,
//! 2020), with a T5-style relative position bias shared by all layers on top of learned absolute
//! positions. Defaults are those of transformers' `MPNetConfig`.

use serde::Serialize;
use serde_json::Value;

use super::bert::Head;
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH, sizes};
use super::read::{BasicDefaults, encoder_basics};
use super::{Common, ConfigError, Defaulted, class_or, num_labels};

/// The embeddings' padding index: hard-coded to 1 in MPNetEmbeddings whatever `pad_token_id` says.
pub const PADDING_IDX: u64 = 1;

const CLASSES: Classes =
    Classes { prefix: "MPNet", causal_lm: None, pretraining: false, next_sentence: false };

/// MPNetConfig's sizes.
const SIZES: [SizeKey; 7] = [
    ("vocab_size", 30527, VOCAB),
    ("hidden_size", 768, WIDTH),
    ("num_hidden_layers", 12, LAYERS),
    ("num_attention_heads", 12, HEADS),
    ("intermediate_size", 3072, FFN),
    ("max_position_embeddings", 512, POSITIONS),
    ("relative_attention_num_buckets", 32, TABLE),
];

#[derive(Debug, Clone, Serialize)]
pub struct MpnetConfig {
    pub class: String,
    pub head: Head,
    /// The QA output width (`num_labels`).
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub relative_attention_num_buckets: u64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
}

impl MpnetConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [vocab_size, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings, relative_attention_num_buckets] = sizes(value, SIZES, &mut d)?;
        let defaults = BasicDefaults { pad_token_id: 1, layer_norm_eps: 1e-12, hidden_act: "gelu" };
        let b = encoder_basics(value, &defaults, &mut d)?;
        let class = class_or(common, "MPNetModel", &mut d);
        let labels = num_labels(value)?;
        let (head, num_labels) = super::encoders::head_of(&CLASSES, &class, labels, &mut d)?;
        Ok(MpnetConfig {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            relative_attention_num_buckets,
            tie_word_embeddings: b.tie_word_embeddings,
            pad_token_id: b.pad_token_id,
            layer_norm_eps: b.layer_norm_eps,
            hidden_act: b.hidden_act,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            // Position ids start after the padding index, RoBERTa-style: rows 0 and 1 are never used.
            usable_context: self.max_position_embeddings.saturating_sub(PADDING_IDX + 1),
            ..super::encoders::encoder_dims!(self)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(mpnet, MpnetConfig);

    #[test]
    fn positions_lose_the_padding_offset() {
        let c = mpnet(r#"{"model_type": "mpnet", "max_position_embeddings": 514}"#).unwrap();
        assert_eq!(c.dims().usable_context, 512);
        assert_eq!(c.vocab_size, 30527);
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (
                r#"{"model_type": "mpnet", "relative_attention_num_buckets": 0}"#,
                "relative_attention_num_buckets",
            ),
            (r#"{"model_type": "mpnet", "num_attention_heads": 1.5}"#, "num_attention_heads"),
            (r#"{"model_type": "mpnet", "architectures": ["MPNetForCausalLM"]}"#, "architectures[0]"),
        ] {
            crate::config::testing::assert_field(mpnet(text), text, field);
        }
    }
}
