//! XLNet (Yang et al., 2019): two-stream relative attention (`q`, `k`, `v`, `o` and the position
//! kernel `r` as `[d_model, n_head, d_head]` tensors, the `r_w_bias`, `r_r_bias`, `r_s_bias`
//! and `seg_embed` biases), a learned `mask_emb`, and XLM's heads (sequence summary, SQuAD head).
//! Defaults are those of transformers 5.24's `XLNetConfig`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, HEADS, LAYERS, SizeKey, VOCAB, WIDTH, sizes};
use super::xlm::{XlmHead, head_and_labels, own_names};
use super::{Common, ConfigError, Defaulted, flag};

/// The classes, by suffix after `XLNet`.
const CLASSES: [(&str, XlmHead); 7] = [
    ("Model", XlmHead::Model),
    ("LMHeadModel", XlmHead::LmHead),
    ("ForSequenceClassification", XlmHead::SequenceClassification),
    ("ForMultipleChoice", XlmHead::MultipleChoice),
    ("ForTokenClassification", XlmHead::TokenClassification),
    ("ForQuestionAnsweringSimple", XlmHead::QuestionAnsweringSimple),
    ("ForQuestionAnswering", XlmHead::QuestionAnswering),
];

const SIZES: [SizeKey; 4] =
    [("vocab_size", 32000, VOCAB), ("d_model", 1024, WIDTH), ("n_layer", 24, LAYERS), ("n_head", 16, HEADS)];

/// Relative positions fix no length (`max_position_embeddings` is -1): the pre-training length.
pub const TRAINED_CONTEXT: u64 = 512;

#[derive(Debug, Deserialize)]
struct Raw {
    ff_activation: Option<String>,
    summary_use_proj: Option<bool>,
    summary_proj_to_labels: Option<bool>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct XlnetConfig {
    pub class: String,
    pub head: XlmHead,
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub head_dim: u64,
    pub intermediate_size: u64,
    /// The sequence summary's projection width (None: no projection).
    pub summary: Option<u64>,
    pub ff_activation: String,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub defaulted: Vec<Defaulted>,
}

impl XlnetConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let v = own_names(
            value,
            &[
                ("hidden_size", "d_model"),
                ("num_attention_heads", "n_head"),
                ("num_hidden_layers", "n_layer"),
                ("n_token", "vocab_size"),
            ],
        );
        let [vocab_size, hidden_size, num_layers, num_heads] = sizes(&v, SIZES, &mut d)?;
        let [intermediate_size] = sizes(value, [("d_inner", 4096, FFN)], &mut d)?;
        let head_dim = hidden_size / num_heads;
        // XLNetConfig refuses heads that do not divide d_model, and a d_head of its own.
        let d_head = value.get("d_head").filter(|x| !x.is_null());
        if !hidden_size.is_multiple_of(num_heads) || d_head.is_some_and(|x| x.as_u64() != Some(head_dim)) {
            return Err(ConfigError::field("d_head", "must be d_model / n_head, as XLNetConfig requires"));
        }
        let (class, head, num_labels) = head_and_labels(value, common, "XLNet", &CLASSES, &mut d)?;
        // XLNetConfig has no `summary_proj_to_labels`: the summary keeps the width unless a
        // file adds the key.
        let use_proj = flag("summary_use_proj", raw.summary_use_proj, true, &mut d);
        let to_labels = raw.summary_proj_to_labels.unwrap_or(false) && num_labels > 0;
        let summary = use_proj.then_some(if to_labels { num_labels } else { hidden_size });
        Ok(XlnetConfig {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            head_dim,
            intermediate_size,
            summary,
            ff_activation: raw.ff_activation.unwrap_or_else(|| "gelu".into()),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            pad_token_id: raw.pad_token_id.unwrap_or(5),
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-12),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::encoders::encoder_dims!(self, self.intermediate_size, TRAINED_CONTEXT)
    }
}
