//! ALBERT: BERT with factorised embeddings (`embedding_size`, then a projection to the hidden
//! size) and layers shared across depth (`num_hidden_groups` groups of `inner_group_num` layers,
//! applied `num_hidden_layers` times in all). Defaults are those of transformers' `AlbertConfig`
//! (the xxlarge shape: hidden 4096, 64 heads, ffn 16384).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::{Head, PositionEmbedding};
use super::encoders::{
    Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH, position_embedding, sizes,
};
use super::read::{BasicDefaults, encoder_basics};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, num_labels};

const CLASSES: Classes =
    Classes { prefix: "Albert", causal_lm: None, pretraining: true, next_sentence: false };

/// AlbertConfig's sizes: the xxlarge shape. Groups x inner layers multiply the layer count; both
/// are bounded so the sum cannot overflow.
const SIZES: [SizeKey; 10] = [
    ("vocab_size", 30000, VOCAB),
    ("embedding_size", 128, WIDTH),
    ("hidden_size", 4096, WIDTH),
    ("num_hidden_layers", 12, LAYERS),
    ("num_hidden_groups", 1, LAYERS),
    ("inner_group_num", 1, 64),
    ("num_attention_heads", 64, HEADS),
    ("intermediate_size", 16384, FFN),
    ("max_position_embeddings", 512, POSITIONS),
    ("type_vocab_size", 2, TABLE),
];

#[derive(Debug, Deserialize)]
struct Raw {
    position_embedding_type: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AlbertConfig {
    pub class: String,
    pub head: Head,
    /// `num_labels`: the width of the SOP, sequence-classification and QA outputs.
    pub num_labels: u64,
    pub vocab_size: u64,
    pub embedding_size: u64,
    pub hidden_size: u64,
    /// Layer applications in the forward pass.
    pub num_layers: u64,
    /// Distinct parameter sets: `num_hidden_groups` groups of `inner_group_num` layers.
    pub num_groups: u64,
    pub inner_group_num: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub position_embedding: PositionEmbedding,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
}

impl AlbertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [vocab_size, embedding_size, hidden_size, num_layers, num_groups, inner_group_num, num_heads, intermediate_size, max_position_embeddings, type_vocab_size] = sizes(value, SIZES, &mut d)?;
        let position_embedding = position_embedding(raw.position_embedding_type.as_deref(), &mut d)?;
        let defaults = BasicDefaults { pad_token_id: 0, layer_norm_eps: 1e-12, hidden_act: "gelu_new" };
        let b = encoder_basics(value, &defaults, &mut d)?;
        let class = class_or(common, "AlbertModel", &mut d);
        let labels = num_labels(value)?;
        let (head, mut num_labels) = super::encoders::head_of(&CLASSES, &class, labels, &mut d)?;
        // AlbertForPreTraining's sentence-order head is sized by the labels too.
        if head == Head::PreTraining {
            num_labels = classifier_labels(labels, &mut d)?;
        }
        Ok(AlbertConfig {
            class,
            head,
            num_labels,
            vocab_size,
            embedding_size,
            hidden_size,
            num_layers,
            num_groups,
            inner_group_num,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            position_embedding,
            tie_word_embeddings: b.tie_word_embeddings,
            pad_token_id: b.pad_token_id,
            layer_norm_eps: b.layer_norm_eps,
            hidden_act: b.hidden_act,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        // Applications, not parameter sets: activations and the serving working set grow with
        // every pass through a shared layer.
        super::encoders::encoder_dims!(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(albert, AlbertConfig);

    #[test]
    fn defaults_are_the_xxlarge_shape() {
        let c = albert(r#"{"model_type": "albert"}"#).unwrap();
        assert_eq!(
            (c.hidden_size, c.num_heads, c.intermediate_size, c.embedding_size),
            (4096, 64, 16384, 128)
        );
        assert_eq!((c.num_layers, c.num_groups, c.inner_group_num), (12, 1, 1));
        assert_eq!(c.class, "AlbertModel");
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "albert", "num_hidden_groups": 0}"#, "num_hidden_groups"),
            (r#"{"model_type": "albert", "inner_group_num": 1000}"#, "inner_group_num"),
            (r#"{"model_type": "albert", "embedding_size": -1}"#, "embedding_size"),
            (r#"{"model_type": "albert", "position_embedding_type": "rotary"}"#, "position_embedding_type"),
            (r#"{"model_type": "albert", "architectures": ["AlbertForCausalLM"]}"#, "architectures[0]"),
            (
                r#"{"model_type": "albert", "architectures": ["AlbertForSequenceClassification"], "num_labels": 0}"#,
                "num_labels",
            ),
        ] {
            crate::config::testing::assert_field(albert(text), text, field);
        }
    }
}
