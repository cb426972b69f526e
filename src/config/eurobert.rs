//! EuroBERT (`eurobert`, Boizard et al., 2025) and UltraBERT (`ultrabert`, its derivative with
//! local and global layers): Llama's layers made bidirectional (RMSNorm, grouped-query attention
//! with rotary positions, a gated MLP) under encoder heads. They differ only in their defaults
//! and heads: EuroBERT's `lm_head` takes `mlp_bias` and its sequence classifier a dense layer
//! first; UltraBERT's masked-LM head is two bias-free linears through `prediction_head_size`
//! before `head.decoder`, and it has a question-answering class. Built by `graph/eurobert.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::bert::{Head, UnknownClass};
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, flag, num_labels};

/// EuroBertConfig's sizes.
const EURO: [SizeKey; 6] = [
    ("vocab_size", 128256, VOCAB),
    ("hidden_size", 768, WIDTH),
    ("intermediate_size", 3072, FFN),
    ("num_hidden_layers", 12, LAYERS),
    ("num_attention_heads", 12, HEADS),
    ("max_position_embeddings", 8192, POSITIONS),
];

/// UltrabertConfig's sizes.
const ULTRA: [SizeKey; 6] = [
    ("vocab_size", 32000, VOCAB),
    ("hidden_size", 4096, WIDTH),
    ("intermediate_size", 11008, FFN),
    ("num_hidden_layers", 32, LAYERS),
    ("num_attention_heads", 32, HEADS),
    ("max_position_embeddings", 32768, POSITIONS),
];

#[derive(Debug, Deserialize)]
struct Raw {
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    prediction_head_size: Option<u64>,
    rms_norm_eps: Option<f64>,
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    hidden_act: Option<String>,
}

#[derive(Debug, Clone)]
pub struct EuroBertConfig {
    pub class: String,
    /// UltraBERT's heads rather than EuroBERT's.
    pub ultra: bool,
    pub head: Head,
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub max_position_embeddings: u64,
    /// UltraBERT's masked-LM head width.
    pub prediction_head_size: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub rms_norm_eps: f64,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

/// The head a class builds, among those the modeling file defines: EuroBERT has no
/// question-answering class, and neither has a multiple-choice one.
fn head(ultra: bool, class: &str) -> Result<Head, ConfigError> {
    let prefix = if ultra { "Ultrabert" } else { "EuroBert" };
    let classes = Classes { prefix, causal_lm: None, pretraining: false, next_sentence: false };
    let head = super::encoders::match_class(&classes, class).filter(|h| match h {
        Head::MultipleChoice => false,
        Head::QuestionAnswering => ultra,
        _ => true,
    });
    head.ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.to_string()).to_string()))
}

impl EuroBertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let ultra = common.model_type == "ultrabert";
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let [vocab_size, hidden_size, intermediate_size, num_layers, num_heads, max_position_embeddings] =
            sizes(value, if ultra { ULTRA } else { EURO }, &mut d)?;
        if hidden_size % num_heads != 0 {
            // `validate_architecture` raises on it, whatever `head_dim` says.
            return Err(ConfigError::field(
                "hidden_size",
                format!("{hidden_size} is not a multiple of num_attention_heads ({num_heads})"),
            ));
        }
        // `__post_init__` fills both from the heads when the file leaves them out.
        let num_kv_heads =
            super::size("num_key_value_heads", raw.num_key_value_heads, num_heads, HEADS, &mut d)?;
        if num_heads % num_kv_heads != 0 {
            return Err(ConfigError::field(
                "num_key_value_heads",
                format!("{num_kv_heads} does not divide num_attention_heads ({num_heads})"),
            ));
        }
        let head_dim = super::size("head_dim", raw.head_dim, hidden_size / num_heads, WIDTH, &mut d)?;
        let prediction_head_size = if ultra {
            super::size("prediction_head_size", raw.prediction_head_size, 768, WIDTH, &mut d)?
        } else {
            0
        };
        let base = if ultra { "UltrabertModel" } else { "EuroBertModel" };
        let class = class_or(common, base, &mut d);
        let head = head(ultra, &class)?;
        let (head, mut num_labels) = super::encoders::labelled(head, num_labels(value)?, &mut d)?;
        if head == Head::QuestionAnswering {
            // GenericForQuestionAnswering's `qa_outputs` is 2 wide whatever `num_labels` says.
            num_labels = 2;
        }
        let pad_default = if ultra { 0 } else { 128001 };
        Ok(EuroBertConfig {
            class,
            ultra,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            intermediate_size,
            num_layers,
            num_heads,
            num_kv_heads,
            head_dim,
            max_position_embeddings,
            prediction_head_size,
            attention_bias: flag("attention_bias", raw.attention_bias, false, &mut d),
            mlp_bias: flag("mlp_bias", raw.mlp_bias, false, &mut d),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d),
            pad_token_id: super::read::pad_token_id(raw.pad_token_id, pad_default, &mut d),
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(if ultra { 1e-6 } else { 1e-5 }),
            hidden_act: raw.hidden_act.unwrap_or_else(|| "silu".into()),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: Some(self.pad_token_id),
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            ..super::mha_dims!(self)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(read, EuroBertConfig);

    #[test]
    fn key_value_heads_and_head_width_follow_the_heads_when_left_out() {
        let c = read(r#"{"model_type": "eurobert", "num_attention_heads": 8}"#).unwrap();
        assert_eq!((c.num_kv_heads, c.head_dim), (8, 96));
        let c = read(r#"{"model_type": "ultrabert"}"#).unwrap();
        assert_eq!((c.hidden_size, c.num_kv_heads, c.head_dim, c.prediction_head_size), (4096, 32, 128, 768));
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "eurobert", "hidden_size": 100}"#, "hidden_size"),
            (r#"{"model_type": "eurobert", "num_key_value_heads": 5}"#, "num_key_value_heads"),
            (
                r#"{"model_type": "eurobert", "architectures": ["EuroBertForQuestionAnswering"]}"#,
                "architectures[0]",
            ),
            (r#"{"model_type": "ultrabert", "prediction_head_size": 0}"#, "prediction_head_size"),
            (
                r#"{"model_type": "ultrabert", "architectures": ["UltrabertForMultipleChoice"]}"#,
                "architectures[0]",
            ),
        ] {
            crate::config::testing::assert_field(read(text), text, field);
        }
    }
}
