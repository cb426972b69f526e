//! ELECTRA: a BERT encoder trained as a replaced-token discriminator beside a small generator;
//! the embeddings may be narrower than the hidden size (`embedding_size`, then
//! `embeddings_project`). Defaults are those of transformers' `ElectraConfig` (the small
//! generator's shape: hidden 256, 4 heads, embeddings 128).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::{Head, PositionEmbedding};
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH, sizes};
use super::read::{BasicDefaults, encoder_basics};
use super::{Common, ConfigError, Defaulted, class_or, num_labels};

const CLASSES: Classes =
    Classes { prefix: "Electra", causal_lm: Some("ForCausalLM"), pretraining: true, next_sentence: false };

/// ElectraConfig's sizes: the small generator's shape.
const SIZES: [SizeKey; 8] = [
    ("vocab_size", 30522, VOCAB),
    ("embedding_size", 128, WIDTH),
    ("hidden_size", 256, WIDTH),
    ("num_hidden_layers", 12, LAYERS),
    ("num_attention_heads", 4, HEADS),
    ("intermediate_size", 1024, FFN),
    ("max_position_embeddings", 512, POSITIONS),
    ("type_vocab_size", 2, TABLE),
];

#[derive(Debug, Deserialize)]
struct Raw {
    position_embedding_type: Option<String>,
    summary_type: Option<String>,
    summary_use_proj: Option<bool>,
    summary_proj_to_labels: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ElectraConfig {
    pub class: String,
    /// `CausalLm` is ElectraForCausalLM (the generator head used left to right); `PreTraining` is
    /// the discriminator; `MaskedLm` the generator.
    pub head: Head,
    /// The QA output width (`num_labels`).
    pub num_labels: u64,
    pub vocab_size: u64,
    pub embedding_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub position_embedding: PositionEmbedding,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    /// ElectraForMultipleChoice's `sequence_summary.summary` output width: none when
    /// `summary_use_proj` is false (an identity).
    pub summary_proj: Option<u64>,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
}

impl ElectraConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [vocab_size, embedding_size, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings, type_vocab_size] = sizes(value, SIZES, &mut d)?;
        let position_embedding =
            super::encoders::position_embedding(raw.position_embedding_type.as_deref(), &mut d)?;
        let defaults = BasicDefaults { pad_token_id: 0, layer_norm_eps: 1e-12, hidden_act: "gelu" };
        let b = encoder_basics(value, &defaults, &mut d)?;
        let class = class_or(common, "ElectraModel", &mut d);
        let labels = num_labels(value)?;
        let (head, num_labels) = super::encoders::head_of(&CLASSES, &class, labels, &mut d)?;
        if head == Head::MultipleChoice && raw.summary_type.as_deref() == Some("attn") {
            return Err(ConfigError::field(
                "summary_type",
                "\"attn\" is not implemented by transformers' sequence summary (it raises)",
            ));
        }
        // ElectraConfig defaults summary_use_proj to true; summary_proj_to_labels is not one of
        // its keys, so it is read only when the file has it.
        let summary_proj = if raw.summary_use_proj.unwrap_or(true) {
            if raw.summary_proj_to_labels == Some(true) && labels.0 > 0 {
                Some(labels.0)
            } else {
                Some(hidden_size)
            }
        } else {
            None
        };
        Ok(ElectraConfig {
            class,
            head,
            num_labels,
            vocab_size,
            embedding_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            position_embedding,
            tie_word_embeddings: b.tie_word_embeddings,
            pad_token_id: b.pad_token_id,
            layer_norm_eps: b.layer_norm_eps,
            hidden_act: b.hidden_act,
            summary_proj,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::encoders::encoder_dims!(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(electra, ElectraConfig);

    #[test]
    fn defaults_are_the_small_generator_shape() {
        let c = electra(r#"{"model_type": "electra"}"#).unwrap();
        assert_eq!((c.hidden_size, c.embedding_size, c.num_heads, c.intermediate_size), (256, 128, 4, 1024));
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "electra", "embedding_size": 0}"#, "embedding_size"),
            (r#"{"model_type": "electra", "hidden_size": true}"#, "hidden_size"),
            (
                r#"{"model_type": "electra", "architectures": ["ElectraForNextSentencePrediction"]}"#,
                "architectures[0]",
            ),
            (
                r#"{"model_type": "electra", "architectures": ["ElectraForMultipleChoice"], "summary_type": "attn"}"#,
                "summary_type",
            ),
        ] {
            crate::config::testing::assert_field(electra(text), text, field);
        }
    }
}
