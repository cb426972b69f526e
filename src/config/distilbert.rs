//! DistilBERT: a 6-layer BERT distilled from bert-base, without token types or pooler. Defaults
//! are those of transformers' `DistilBertConfig`, whose own keys are `dim`, `n_layers`,
//! `n_heads` and `hidden_dim` (`hidden_size`, `num_hidden_layers` and `num_attention_heads` are
//! aliases through its `attribute_map`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::Head;
use super::encoders::Classes;
use super::{Common, ConfigError, Defaulted, aliased, class_or, flag, num_labels, size};

const CLASSES: Classes =
    Classes { prefix: "DistilBert", causal_lm: None, pretraining: false, next_sentence: false };

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    sinusoidal_pos_embds: Option<bool>,
    n_layers: Option<u64>,
    n_heads: Option<u64>,
    dim: Option<u64>,
    hidden_dim: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    hidden_size: Option<u64>,
    activation: Option<String>,
    pad_token_id: Option<u64>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DistilBertConfig {
    pub class: String,
    pub head: Head,
    pub vocab_size: u64,
    pub dim: u64,
    pub n_layers: u64,
    pub n_heads: u64,
    pub hidden_dim: u64,
    pub max_position_embeddings: u64,
    /// The position table is filled with fixed sinusoids instead of being learned; it is still an
    /// `nn.Embedding` weight, so still a parameter of the class.
    pub sinusoidal_pos_embds: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub activation: String,
    pub defaulted: Vec<Defaulted>,
}

impl DistilBertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 30522, 100_000_000, &mut d)?;
        let dim = size("dim", aliased(raw.dim, raw.hidden_size), 768, 1 << 18, &mut d)?;
        let n_layers = size("n_layers", aliased(raw.n_layers, raw.num_hidden_layers), 6, 10_000, &mut d)?;
        let n_heads = size("n_heads", aliased(raw.n_heads, raw.num_attention_heads), 12, 1 << 16, &mut d)?;
        // The class's default is the literal 4 * 768, not four times `dim`.
        let hidden_dim = size("hidden_dim", raw.hidden_dim, 4 * 768, 1 << 22, &mut d)?;
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 512, 1 << 30, &mut d)?;
        let sinusoidal_pos_embds = flag("sinusoidal_pos_embds", raw.sinusoidal_pos_embds, false, &mut d);
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let pad_token_id = super::read::pad_token_id(raw.pad_token_id, 0, &mut d);
        let activation = raw.activation.unwrap_or_else(|| "gelu".into());
        let class = class_or(common, "DistilBertModel", &mut d);
        let labels = num_labels(value)?;
        // The QA class refuses any label count but 2, and records none.
        let head = match super::encoders::match_class(&CLASSES, &class) {
            Some(Head::QuestionAnswering) if labels.0 != 2 => {
                return Err(ConfigError::field(
                    "num_labels",
                    format!(
                        "DistilBertForQuestionAnswering needs 2 labels (span start and end), found {}",
                        labels.0
                    ),
                ));
            }
            Some(Head::QuestionAnswering) => Head::QuestionAnswering,
            _ => super::encoders::head_of(&CLASSES, &class, labels, &mut d)?.0,
        };
        Ok(DistilBertConfig {
            class,
            head,
            vocab_size,
            dim,
            n_layers,
            n_heads,
            hidden_dim,
            max_position_embeddings,
            sinusoidal_pos_embds,
            tie_word_embeddings,
            pad_token_id,
            activation,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            // Position ids run from 0, so every row of the table is reachable.
            usable_context: self.max_position_embeddings,
            pad_token_id: Some(self.pad_token_id),
            tie_word_embeddings: self.tie_word_embeddings,
            // Hard-coded in every DistilBERT LayerNorm; the config has no key for it.
            layer_norm_eps: 1e-12,
            ..super::Dims::mha(
                self.dim,
                self.n_layers,
                self.n_heads,
                self.hidden_dim,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(distilbert, DistilBertConfig);

    #[test]
    fn standard_names_are_aliases_of_the_family_keys() {
        let c = distilbert(
            r#"{"model_type": "distilbert", "hidden_size": 512, "n_layers": 3, "num_attention_heads": 8}"#,
        )
        .unwrap();
        assert_eq!((c.dim, c.n_layers, c.n_heads, c.hidden_dim), (512, 3, 8, 3072));
    }

    #[test]
    fn question_answering_needs_two_labels() {
        let err = distilbert(
            r#"{"model_type": "distilbert", "architectures": ["DistilBertForQuestionAnswering"], "num_labels": 3}"#,
        )
        .unwrap_err();
        assert!(matches!(err, ConfigError::Field { field, .. } if field == "num_labels"));
    }

    #[test]
    fn zero_sizes_and_unknown_classes_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "distilbert", "n_layers": 0}"#, "n_layers"),
            (r#"{"model_type": "distilbert", "dim": "768"}"#, "dim"),
            (
                r#"{"model_type": "distilbert", "architectures": ["DistilBertForCausalLM"]}"#,
                "architectures[0]",
            ),
        ] {
            crate::config::testing::assert_field(distilbert(text), text, field);
        }
    }
}
