//! The T5 lineage's reader: `t5`, `mt5`, `umt5`, `longt5`, `switch_transformers`, each described
//! in `config/t5_types.rs` (defaults, classes, blocks), with the `attribute_map` aliases
//! (`hidden_size`, `num_attention_heads`, `num_hidden_layers`, `head_dim`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::t5_types::{EncoderAttention, T5Like};
use super::{Common, ConfigError, Defaulted, alias_or, deserialize_raw, size};

/// Where the relative position bias lives, which the class (not the config) decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BiasLayout {
    /// T5 and MT5: one table in the first block of each stack, shared by the others.
    FirstLayer,
    /// UMT5: a table in every self-attention.
    EveryLayer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Head {
    /// `T5Model`: both stacks, no head.
    Model,
    ConditionalGeneration,
    /// `T5EncoderModel`: the encoder stack only.
    Encoder,
    SequenceClassification {
        num_labels: u64,
    },
    TokenClassification {
        num_labels: u64,
    },
    QuestionAnswering {
        num_labels: u64,
    },
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    d_model: Option<u64>,
    hidden_size: Option<u64>,
    d_kv: Option<u64>,
    head_dim: Option<u64>,
    d_ff: Option<u64>,
    num_layers: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_decoder_layers: Option<u64>,
    num_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    relative_attention_num_buckets: Option<u64>,
    feed_forward_proj: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    layer_norm_epsilon: Option<f64>,
    /// Not a T5Config argument: the pre-training input length some files still carry.
    n_positions: Option<u64>,
    id2label: Option<BTreeMap<String, String>>,
    num_labels: Option<u64>,
}

/// A resolved T5-family config: nothing structural is optional.
#[derive(Debug, Clone, Serialize)]
pub struct T5Config {
    /// The type's description (`config/t5_types.rs`).
    #[serde(skip)]
    pub desc: &'static T5Like,
    pub class: String,
    pub head: Head,
    pub bias_layout: BiasLayout,
    pub vocab_size: u64,
    pub d_model: u64,
    pub d_kv: u64,
    pub d_ff: u64,
    pub num_layers: u64,
    pub num_decoder_layers: u64,
    pub num_heads: u64,
    pub relative_attention_num_buckets: u64,
    /// `feed_forward_proj` as written (`relu`, `gated-gelu`).
    pub feed_forward_proj: String,
    /// `gated-*`: wi_0 and wi_1 instead of wi.
    pub gated: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub layer_norm_epsilon: f64,
    /// The input length the page plans at: relative buckets reach any length, so this is the
    /// pre-training length (`n_positions` where the file writes it, else 512).
    pub context: u64,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    /// LongT5's encoder attention (`encoder_attention_type`); `None` for T5's own.
    pub long_attention: Option<LongAttention>,
    /// Switch Transformers' experts; `None` for dense types.
    pub switch: Option<SwitchLayers>,
    pub defaulted: Vec<Defaulted>,
}

use classes::classify;
pub use extras::{LongAttention, SwitchLayers};
use extras::{SwitchRaw, long_attention, switch_layers};

impl T5Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let desc = super::t5_types::find(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a T5-family model type"))?;
        let raw: Raw = deserialize_raw(value)?;
        let extra: SwitchRaw =
            if desc.switch.is_some() { deserialize_raw(value)? } else { SwitchRaw::default() };
        let dflt = desc.defaults;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, dflt.vocab_size, 100_000_000, &mut d)?;
        let (field, v) = alias_or(("hidden_size", raw.hidden_size), ("d_model", raw.d_model));
        let d_model = size(field, v, dflt.d_model, 1 << 18, &mut d)?;
        let head_dim = if desc.head_dim_alias { raw.head_dim } else { None };
        let (field, v) = alias_or(("head_dim", head_dim), ("d_kv", raw.d_kv));
        let d_kv = size(field, v, dflt.d_kv, 1 << 16, &mut d)?;
        let d_ff = size("d_ff", raw.d_ff, dflt.d_ff, 1 << 22, &mut d)?;
        // num_decoder_layers defaults to num_layers as the class's own argument, before the
        // `num_hidden_layers` alias is applied.
        let own_layers = size("num_layers", raw.num_layers, dflt.num_layers, 10_000, &mut d)?;
        let num_decoder_layers = match (raw.num_decoder_layers, dflt.num_decoder_layers) {
            (Some(n), _) => size("num_decoder_layers", Some(n), 0, 10_000, &mut d)?,
            (None, Some(n)) => size("num_decoder_layers", None, n, 10_000, &mut d)?,
            (None, None) => {
                d.push(Defaulted {
                    field: "num_decoder_layers",
                    value: format!("num_layers ({own_layers})"),
                });
                own_layers
            }
        };
        let num_layers = match raw.num_hidden_layers {
            Some(n) => size("num_hidden_layers", Some(n), 0, 10_000, &mut d)?,
            None => own_layers,
        };
        let (field, v) =
            alias_or(("num_attention_heads", raw.num_attention_heads), ("num_heads", raw.num_heads));
        let num_heads = size(field, v, dflt.num_heads, 1 << 16, &mut d)?;
        let relative_attention_num_buckets =
            size("relative_attention_num_buckets", raw.relative_attention_num_buckets, 32, 1 << 20, &mut d)?;
        let (ffp, written) = match desc.switch {
            Some(_) => ("dense_act_fn", extra.dense_act_fn.clone()),
            None => ("feed_forward_proj", raw.feed_forward_proj),
        };
        let feed_forward_proj = written.unwrap_or_else(|| {
            d.push(Defaulted { field: ffp, value: dflt.activation.into() });
            dflt.activation.into()
        });
        let parts: Vec<&str> = feed_forward_proj.split('-').collect();
        let gated = parts[0] == "gated" && parts.len() == 2;
        // Switch's `dense_act_fn` names the activation alone (ACT2FN's key), never split.
        let malformed =
            (parts.len() > 1 && parts[0] != "gated") || parts.len() > 2 || parts.iter().any(|p| p.is_empty());
        if (desc.switch.is_none() && malformed) || feed_forward_proj.is_empty() {
            return Err(ConfigError::field(
                ffp,
                format!(
                    "{feed_forward_proj:?} is not `gated-{{ACT_FN}}` or `{{ACT_FN}}` (e.g. `gated-gelu`, `relu`)"
                ),
            ));
        }
        // Switch's experts and dense MLP are `wi`/`wo` whatever `dense_act_fn` says.
        let gated = gated && desc.switch.is_none();
        let tie_word_embeddings = raw.tie_word_embeddings.unwrap_or_else(|| {
            d.push(Defaulted { field: "tie_word_embeddings", value: dflt.tie_word_embeddings.to_string() });
            dflt.tie_word_embeddings
        });
        let pad_token_id = match value.get("pad_token_id") {
            None => {
                d.push(Defaulted { field: "pad_token_id", value: "0".into() });
                Some(0)
            }
            Some(_) => raw.pad_token_id,
        };
        let layer_norm_epsilon = raw.layer_norm_epsilon.unwrap_or(1e-6);
        let context = match raw.n_positions {
            Some(n) => size("n_positions", Some(n), 0, 1 << 30, &mut d)?,
            None => 512,
        };
        let (num_labels, labels_defaulted) = match (&raw.id2label, raw.num_labels) {
            (Some(map), _) if !map.is_empty() => (map.len() as u64, false),
            (_, Some(n)) => (n, false),
            _ => (2, true),
        };
        let class = common.architecture.clone().unwrap_or_else(|| {
            let base = format!("{}Model", desc.prefix);
            d.push(Defaulted { field: "architectures", value: base.clone() });
            base
        });
        let (bias_layout, head) =
            classify(desc, &class, num_labels).ok_or_else(|| super::read::unknown_class(&class))?;
        let labelled = matches!(
            head,
            Head::SequenceClassification { .. }
                | Head::TokenClassification { .. }
                | Head::QuestionAnswering { .. }
        );
        if labelled && labels_defaulted {
            d.push(Defaulted { field: "num_labels", value: "2".into() });
        }
        if labelled && (num_labels == 0 || num_labels > 1 << 20) {
            return Err(ConfigError::field(
                "num_labels",
                format!("{num_labels} labels is not a usable classifier"),
            ));
        }
        let long_attention = match desc.encoder_attention {
            EncoderAttention::Full => None,
            EncoderAttention::LongT5 => Some(long_attention(value, &mut d)?),
        };
        let switch = match desc.switch {
            None => None,
            Some(s) => Some(switch_layers(s, &extra, own_layers, num_decoder_layers, &mut d)?),
        };
        Ok(T5Config {
            desc,
            class,
            head,
            bias_layout,
            vocab_size,
            d_model,
            d_kv,
            d_ff,
            num_layers,
            num_decoder_layers,
            num_heads,
            relative_attention_num_buckets,
            feed_forward_proj,
            gated,
            tie_word_embeddings,
            pad_token_id,
            layer_norm_epsilon,
            context,
            long_attention,
            switch,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    pub fn has_decoder(&self) -> bool {
        !matches!(self.head, Head::Encoder | Head::TokenClassification { .. })
    }

    /// `num_layers` is the decoder's depth when the class has a decoder (the stack that generates),
    /// the encoder's otherwise; `num_heads` and `d_ff` are the same in both stacks.
    /// Whether `lm_head` shares `shared`: transformers 5.x's T5 config classes force the tie (the
    /// file's flag then only decides the output scaling); 4.x follows the flag.
    pub fn ties_head(&self) -> bool {
        (self.desc.forced_tie && self.release == super::release::Release::V5) || self.tie_word_embeddings
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            head_dim: self.d_kv,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.ties_head(),
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::mha(
                self.d_model,
                if self.has_decoder() { self.num_decoder_layers } else { self.num_layers },
                self.num_heads,
                self.d_ff,
                self.vocab_size,
                self.context,
            )
        }
    }
}

mod classes;
mod extras;
#[cfg(test)]
mod tests;
