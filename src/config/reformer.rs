//! Reformer (`reformer`, Kitaev et al., 2020): a reversible encoder whose layers each hold LSH
//! attention (`query_key` shared, `value`) or local attention (`query`, `key`, `value`) as
//! `attn_layers` lists them, a chunked feed-forward, and two hidden halves that meet in a
//! `2 x hidden` final LayerNorm and head. Positions are axial (one table per axis of
//! `axial_pos_shape`, `axial_pos_embds_dim` wide) or a plain table. Built by `graph/reformer.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::{
    Common, ConfigError, Defaulted, class_or, classifier_labels, deserialize_raw, flag, num_labels, size,
};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_attention_heads: Option<u64>,
    attention_head_size: Option<u64>,
    feed_forward_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    attn_layers: Option<Vec<String>>,
    axial_pos_embds: Option<bool>,
    axial_pos_shape: Option<Vec<u64>>,
    axial_pos_embds_dim: Option<Vec<u64>>,
    hidden_act: Option<String>,
}

/// The classes `modeling_reformer.py` defines, by what they put on `reformer.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReformerHead {
    None,
    /// `ReformerModelWithLMHead` and `ReformerForMaskedLM`: `lm_head.decoder` over `2 x hidden`
    /// with its bias, and a second `lm_head.bias` the class keeps beside it.
    Lm,
    /// `classifier.dense` (`2 x hidden` to hidden) and `classifier.out_proj`.
    Sequence {
        num_labels: u64,
    },
    /// `qa_outputs`, `2 x hidden` to `num_labels`.
    Qa {
        num_labels: u64,
    },
}

#[derive(Debug, Clone)]
pub struct ReformerConfig {
    pub class: String,
    pub head: ReformerHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub head_dim: u64,
    pub ffn: u64,
    pub max_position_embeddings: u64,
    /// One entry per layer: true for LSH attention, false for local.
    pub lsh: Vec<bool>,
    /// `(axial_pos_shape, axial_pos_embds_dim)` when `axial_pos_embds`; else a plain table of
    /// `max_position_embeddings` rows.
    pub axial: Option<(Vec<u64>, Vec<u64>)>,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

fn head_of(class: &str, value: &Value, d: &mut Vec<Defaulted>) -> Result<ReformerHead, ConfigError> {
    Ok(match class.strip_prefix("Reformer") {
        Some("Model") => ReformerHead::None,
        Some("ModelWithLMHead" | "ForMaskedLM") => ReformerHead::Lm,
        Some("ForSequenceClassification") => {
            ReformerHead::Sequence { num_labels: classifier_labels(num_labels(value)?, d)? }
        }
        Some("ForQuestionAnswering") => {
            ReformerHead::Qa { num_labels: classifier_labels(num_labels(value)?, d)? }
        }
        _ => return Err(super::read::unknown_class(class)),
    })
}

/// `attn_layers`: `ReformerAttention` builds only "lsh" and "local" layers.
fn layer_kinds(raw: Option<Vec<String>>, d: &mut Vec<Defaulted>) -> Result<Vec<bool>, ConfigError> {
    let names = raw.unwrap_or_else(|| {
        d.push(Defaulted { field: "attn_layers", value: "local, lsh, local, lsh, local, lsh".into() });
        ["local", "lsh", "local", "lsh", "local", "lsh"].map(String::from).to_vec()
    });
    if names.is_empty() || names.len() > 10_000 {
        return Err(ConfigError::field(
            "attn_layers",
            format!("{} layers is not a usable stack", names.len()),
        ));
    }
    names
        .iter()
        .map(|n| match n.as_str() {
            "lsh" => Ok(true),
            "local" => Ok(false),
            other => Err(ConfigError::field(
                "attn_layers",
                format!("{other:?} is not an attention layer Reformer builds (\"lsh\" or \"local\")"),
            )),
        })
        .collect()
}

/// The axial tables: one per axis, `[1, .., axis, .., 1, dim]`; transformers refuses widths that
/// do not sum to `hidden_size`.
fn axial_tables(
    raw: &mut Raw,
    hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<(Vec<u64>, Vec<u64>), ConfigError> {
    let shape = raw.axial_pos_shape.take().unwrap_or_else(|| {
        d.push(Defaulted { field: "axial_pos_shape", value: "64, 64".into() });
        vec![64, 64]
    });
    let dims = raw.axial_pos_embds_dim.take().unwrap_or_else(|| {
        d.push(Defaulted { field: "axial_pos_embds_dim", value: "64, 192".into() });
        vec![64, 192]
    });
    if dims.is_empty() || dims.len() > shape.len() {
        return Err(ConfigError::field(
            "axial_pos_embds_dim",
            format!("{} widths for the {} axes of axial_pos_shape", dims.len(), shape.len()),
        ));
    }
    if let Some(bad) = shape.iter().chain(&dims).find(|&&v| v == 0 || v > 1 << 24) {
        return Err(ConfigError::field("axial_pos_shape", format!("{bad} is not a usable axis or width")));
    }
    // The positions the axes cover: past any real model, the context arithmetic would overflow.
    let covered = shape.iter().try_fold(1u64, |a, &n| a.checked_mul(n)).filter(|&n| n <= 1 << 30);
    if covered.is_none() {
        return Err(ConfigError::field(
            "axial_pos_shape",
            "covers more positions than any real model (at most 2^30)",
        ));
    }
    let sum: u64 = dims.iter().sum();
    if sum != hidden {
        return Err(ConfigError::field(
            "axial_pos_embds_dim",
            format!("the widths sum to {sum}, not hidden_size {hidden} (transformers refuses them)"),
        ));
    }
    Ok((shape, dims))
}

impl ReformerConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "ReformerModel", &mut d);
        let head = head_of(&class, value, &mut d)?;
        let vocab_size = size("vocab_size", raw.vocab_size, 320, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 256, 1 << 18, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 12, 1 << 16, &mut d)?;
        let head_dim = size("attention_head_size", raw.attention_head_size, 64, 1 << 16, &mut d)?;
        let ffn = size("feed_forward_size", raw.feed_forward_size, 512, 1 << 22, &mut d)?;
        let max_position_embeddings =
            size("max_position_embeddings", raw.max_position_embeddings, 4096, 1 << 30, &mut d)?;
        let lsh = layer_kinds(raw.attn_layers.take(), &mut d)?;
        let axial = if flag("axial_pos_embds", raw.axial_pos_embds, true, &mut d) {
            Some(axial_tables(&mut raw, hidden_size, &mut d)?)
        } else {
            None
        };
        let hidden_act = raw.hidden_act.take().unwrap_or_else(|| {
            d.push(Defaulted { field: "hidden_act", value: "relu".into() });
            "relu".into()
        });
        Ok(ReformerConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            num_heads,
            head_dim,
            ffn,
            max_position_embeddings,
            lsh,
            axial,
            hidden_act,
            defaulted: d,
        })
    }
}
