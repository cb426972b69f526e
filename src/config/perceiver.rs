//! Perceiver IO's text classes (`perceiver`, Jaegle et al., 2021): `num_latents` learned latents
//! of `d_latents` cross-attend once to the inputs (bytes through a text preprocessor, or
//! `d_model`-wide inputs for the bare model), then `num_self_attends_per_block` self-attention
//! layers run `num_blocks` times with the same weights; a decoder cross-attends from its own
//! output queries. The image, audio, optical-flow and multimodal classes are refused by name.
//! Built by `graph/perceiver.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, deserialize_raw, num_labels, size};

#[derive(Debug, Deserialize)]
struct Raw {
    num_latents: Option<u64>,
    d_latents: Option<u64>,
    d_model: Option<u64>,
    num_self_attends_per_block: Option<u64>,
    num_self_attention_heads: Option<u64>,
    num_cross_attention_heads: Option<u64>,
    qk_channels: Option<u64>,
    v_channels: Option<u64>,
    cross_attention_shape_for_attention: Option<String>,
    self_attention_widening_factor: Option<u64>,
    cross_attention_widening_factor: Option<u64>,
    vocab_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    hidden_act: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerceiverClass {
    /// `PerceiverModel` alone: latents and the encoder over `d_model`-wide inputs.
    Model,
    /// `PerceiverForMaskedLM`: the text preprocessor, a decoder with 8 heads of 32 query/key
    /// channels over `max_position_embeddings` output queries, `embedding_decoder.bias`.
    MaskedLm,
    /// `PerceiverForSequenceClassification`: the text preprocessor and a one-query decoder
    /// projected to `num_labels`.
    Classifier { num_labels: u64 },
}

/// One attention layer's widths: query input, key/value input, query/key and value channels,
/// heads, and the MLP's widening factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerceiverLayer {
    pub q_dim: u64,
    pub kv_dim: u64,
    pub qk: u64,
    pub v: u64,
    pub heads: u64,
    pub widening: u64,
    pub cross: bool,
}

#[derive(Debug, Clone)]
pub struct PerceiverConfig {
    pub class: String,
    pub kind: PerceiverClass,
    pub num_latents: u64,
    pub d_latents: u64,
    pub d_model: u64,
    pub self_attends: u64,
    pub vocab_size: u64,
    pub max_position_embeddings: u64,
    pub encoder_cross: PerceiverLayer,
    pub encoder_self: PerceiverLayer,
    /// The decoder's cross-attention, for the classes that have one.
    pub decoder: Option<PerceiverLayer>,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

/// `PerceiverAttention`'s channels: a cross-attention without `qk_channels` takes the key/value
/// (or, with `cross_attention_shape_for_attention` "q", the query) width; values default to the
/// query/key channels; `PerceiverSelfAttention` raises unless the heads divide both.
fn layer(
    l: PerceiverLayer,
    qk: Option<u64>,
    v: Option<u64>,
    shape_q: bool,
) -> Result<PerceiverLayer, ConfigError> {
    let qk = qk.unwrap_or(if l.cross && !shape_q { l.kv_dim } else { l.q_dim });
    let v = v.unwrap_or(qk);
    for (field, n) in [("qk_channels", qk), ("v_channels", v)] {
        if l.heads == 0 || !n.is_multiple_of(l.heads) {
            return Err(ConfigError::field(
                field,
                format!("{n} channels do not divide into {} heads", l.heads),
            ));
        }
    }
    Ok(PerceiverLayer { qk, v, ..l })
}

impl PerceiverConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "PerceiverModel", &mut d);
        let kind = match class.strip_prefix("Perceiver") {
            Some("Model") => PerceiverClass::Model,
            Some("ForMaskedLM") => PerceiverClass::MaskedLm,
            Some("ForSequenceClassification") => {
                PerceiverClass::Classifier { num_labels: classifier_labels(num_labels(value)?, &mut d)? }
            }
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!(
                        "class {class} is not one the planner knows for this family (its text classes are)"
                    ),
                ));
            }
        };
        let num_latents = size("num_latents", raw.num_latents, 256, 1 << 20, &mut d)?;
        let d_latents = size("d_latents", raw.d_latents, 1280, 1 << 18, &mut d)?;
        let d_model = size("d_model", raw.d_model, 768, 1 << 18, &mut d)?;
        let self_attends =
            size("num_self_attends_per_block", raw.num_self_attends_per_block, 26, 10_000, &mut d)?;
        let self_heads = size("num_self_attention_heads", raw.num_self_attention_heads, 8, 1 << 16, &mut d)?;
        let cross_heads =
            size("num_cross_attention_heads", raw.num_cross_attention_heads, 8, 1 << 16, &mut d)?;
        let self_wf =
            size("self_attention_widening_factor", raw.self_attention_widening_factor, 1, 1 << 10, &mut d)?;
        let cross_wf =
            size("cross_attention_widening_factor", raw.cross_attention_widening_factor, 1, 1 << 10, &mut d)?;
        let shape_q = match raw.cross_attention_shape_for_attention.as_deref() {
            None | Some("kv") => false,
            Some("q") => true,
            Some(other) => {
                return Err(ConfigError::field(
                    "cross_attention_shape_for_attention",
                    format!("{other:?} is neither \"q\" nor \"kv\""),
                ));
            }
        };
        // PerceiverEncoder raises unless both head counts divide d_latents.
        for (field, heads) in
            [("num_self_attention_heads", self_heads), ("num_cross_attention_heads", cross_heads)]
        {
            if !d_latents.is_multiple_of(heads) {
                return Err(ConfigError::field(
                    field,
                    format!("{heads} heads do not divide d_latents {d_latents}"),
                ));
            }
        }
        let (qk, v) = (raw.qk_channels, raw.v_channels);
        let base = PerceiverLayer {
            q_dim: d_latents,
            kv_dim: d_model,
            qk: 0,
            v: 0,
            heads: cross_heads,
            widening: cross_wf,
            cross: true,
        };
        let encoder_cross = layer(base, qk, v, shape_q)?;
        let self_layer =
            PerceiverLayer { kv_dim: d_latents, heads: self_heads, widening: self_wf, cross: false, ..base };
        let encoder_self = layer(self_layer, qk, v, shape_q)?;
        let decoder = match kind {
            PerceiverClass::Model => None,
            // PerceiverForMaskedLM's decoder: 8 heads, qk_channels 8 x 32, v_channels d_model.
            PerceiverClass::MaskedLm => {
                let l = PerceiverLayer { q_dim: d_model, kv_dim: d_latents, heads: 8, widening: 1, ..base };
                Some(layer(l, Some(8 * 32), Some(d_model), shape_q)?)
            }
            PerceiverClass::Classifier { .. } => {
                let l = PerceiverLayer { kv_dim: d_latents, heads: 1, widening: 1, ..base };
                Some(layer(l, None, None, shape_q)?)
            }
        };
        Ok(PerceiverConfig {
            class,
            kind,
            num_latents,
            d_latents,
            d_model,
            self_attends,
            vocab_size: size("vocab_size", raw.vocab_size, 262, 100_000_000, &mut d)?,
            max_position_embeddings: size(
                "max_position_embeddings",
                raw.max_position_embeddings,
                2048,
                1 << 24,
                &mut d,
            )?,
            encoder_cross,
            encoder_self,
            decoder,
            hidden_act: raw.hidden_act.unwrap_or_else(|| {
                d.push(Defaulted { field: "hidden_act", value: "gelu".into() });
                "gelu".into()
            }),
            defaulted: d,
        })
    }
}
