//! Funnel Transformer (Dai et al., 2020): blocks of post-LN layers with relative attention, the
//! sequence pooled by 2 before each block after the first, and (in `FunnelModel`) a decoder of
//! full-length layers after the stack. Defaults are those of transformers 5.24's `FunnelConfig`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::Head;
use super::encoders::{Classes, FFN, HEADS, LAYERS, SizeKey, VOCAB, WIDTH, head_of, sizes};
use super::{Common, ConfigError, Defaulted, class_or, flag, num_labels};

const CLASSES: Classes =
    Classes { prefix: "Funnel", causal_lm: None, pretraining: true, next_sentence: false };

/// FunnelConfig's sizes (`hidden_size` and `num_attention_heads` are `attribute_map` names).
const SIZES: [SizeKey; 5] = [
    ("vocab_size", 30522, VOCAB),
    ("d_model", 768, WIDTH),
    ("n_head", 12, HEADS),
    ("d_head", 64, WIDTH),
    ("d_inner", 3072, FFN),
];

/// The length the published checkpoints were trained at: relative positions fix no context.
pub const TRAINED_CONTEXT: u64 = 512;

#[derive(Debug, Deserialize)]
struct Raw {
    block_sizes: Option<Value>,
    block_repeats: Option<Value>,
    num_decoder_layers: Option<Value>,
    separate_cls: Option<bool>,
    truncate_seq: Option<bool>,
    hidden_act: Option<String>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FunnelConfig {
    pub class: String,
    pub head: Head,
    /// The QA output width (`num_labels`).
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub head_dim: u64,
    pub intermediate_size: u64,
    /// Layers per block; the blocks after the first run on a sequence pooled by 2.
    pub block_sizes: Vec<u64>,
    /// Full-length layers after the upsampling (built by `FunnelModel`, not `FunnelBaseModel`).
    pub num_decoder_layers: u64,
    pub separate_cls: bool,
    pub truncate_seq: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

impl FunnelConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let v =
            super::xlm::own_names(value, &[("hidden_size", "d_model"), ("num_attention_heads", "n_head")]);
        let [vocab_size, hidden_size, num_heads, head_dim, intermediate_size] = sizes(&v, SIZES, &mut d)?;
        let block_sizes =
            counts(raw.block_sizes.as_ref(), "block_sizes", &mut d)?.unwrap_or_else(|| vec![4, 4, 4]);
        if block_sizes.iter().sum::<u64>() == 0 || block_sizes.len() > 64 {
            return Err(ConfigError::field("block_sizes", "needs 1 to 64 blocks holding at least one layer"));
        }
        if let Some(repeats) = counts(raw.block_repeats.as_ref(), "block_repeats", &mut Vec::new())?
            && repeats.iter().any(|r| *r != 1)
        {
            // A layer run twice reuses its weights: the stack's sections cannot say so yet.
            return Err(ConfigError::field("block_repeats", "repeats other than 1 are not described"));
        }
        let [num_decoder_layers] = match &raw.num_decoder_layers {
            Some(Value::Number(n)) if n.as_u64() == Some(0) => [0],
            _ => sizes(value, [("num_decoder_layers", 2, LAYERS)], &mut d)?,
        };
        let class = class_or(common, "FunnelModel", &mut d);
        let labels = num_labels(value)?;
        let (head, num_labels) = match class.as_str() {
            // Named as BERT's heads are, but Funnel's model class has no pooler and its
            // pre-training class is ELECTRA's discriminator.
            "FunnelBaseModel" => (Head::Model, labels.0),
            _ => head_of(&CLASSES, &class, labels, &mut d)?,
        };
        Ok(FunnelConfig {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            num_heads,
            head_dim,
            intermediate_size,
            block_sizes,
            num_decoder_layers,
            separate_cls: flag("separate_cls", raw.separate_cls, true, &mut d),
            truncate_seq: flag("truncate_seq", raw.truncate_seq, true, &mut d),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            pad_token_id: raw.pad_token_id,
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-9),
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu_new".into()),
            defaulted: d,
        })
    }

    /// The bare encoder without the decoder (`FunnelBaseModel`, and the classes built on it).
    pub fn base_only(&self) -> bool {
        self.class == "FunnelBaseModel"
            || matches!(self.head, Head::SequenceClassification { .. } | Head::MultipleChoice)
    }

    /// Each block's sequence length from `seq`: pooled by 2 (ceil) before every block after the
    /// first, the [CLS] token kept apart (`separate_cls`) and the last token dropped first
    /// (`truncate_seq`); no pooling once the sequence is down to the [CLS] token and one other.
    pub fn block_lengths(&self, seq: u64) -> Vec<u64> {
        let mut len = seq;
        let floor = if self.separate_cls { 2 } else { 1 };
        (0..self.block_sizes.len())
            .map(|b| {
                if b > 0 && len > floor {
                    let joined = if self.separate_cls && !self.truncate_seq { len + 1 } else { len };
                    len = joined.div_ceil(2);
                }
                len
            })
            .collect()
    }

    pub fn dims(&self) -> super::Dims {
        let layers = self.block_sizes.iter().sum();
        let d = super::Dims::mha(
            self.hidden_size,
            layers,
            self.num_heads,
            self.intermediate_size,
            self.vocab_size,
            TRAINED_CONTEXT,
        );
        super::Dims {
            head_dim: self.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_eps,
            ..d
        }
    }
}

/// A list of layer counts (`block_sizes`, `block_repeats`); None when the file has none.
fn counts(
    v: Option<&Value>,
    key: &'static str,
    d: &mut Vec<Defaulted>,
) -> Result<Option<Vec<u64>>, ConfigError> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        if key == "block_sizes" {
            d.push(Defaulted { field: key, value: "[4, 4, 4]".into() });
        }
        return Ok(None);
    };
    let list =
        v.as_array().ok_or_else(|| ConfigError::field(key, format!("invalid type: {v}, expected a list")))?;
    let counts = list.iter().map(|n| match n.as_u64() {
        Some(k) if k <= LAYERS => Ok(k),
        _ => Err(ConfigError::field(key, format!("{n} is not a layer count (0 to {LAYERS})"))),
    });
    counts.collect::<Result<Vec<u64>, _>>().map(Some)
}
