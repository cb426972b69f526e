//! DeBERTa-v2 and v3 (`model_type` `deberta-v2`): an encoder with disentangled attention, where
//! content and relative position are attended separately (He et al., 2020). DeBERTa v1
//! (`deberta`) is read here too, as [`Version::V1`]: its own defaults, a fused `in_proj`, no
//! buckets, no convolution. Defaults are those
//! of transformers' `DebertaV2Config` (the 1.5B xxlarge shape, relative attention off); the keys
//! the modeling code reads with `getattr` (`share_att_key`, `position_buckets`, `norm_rel_ebd`,
//! `conv_kernel_size`, `embedding_size`, `attention_head_size`, `pooler_hidden_size`) take the
//! defaults written there.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bert::Head;
use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH, sizes};
use super::read::{BasicDefaults, encoder_basics};
use super::{Common, ConfigError, Defaulted, Limit, check_range, flag, size};

/// `pos_att_type` is a list, or (older configs) one string joined with `|`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum PosAttType {
    List(Vec<String>),
    Joined(String),
}

/// DebertaV2Config's sizes: the 1.5B xxlarge shape.
const SIZES: [SizeKey; 6] = [
    ("vocab_size", 128100, VOCAB),
    ("hidden_size", 1536, WIDTH),
    ("num_hidden_layers", 24, LAYERS),
    ("num_attention_heads", 24, HEADS),
    ("intermediate_size", 6144, FFN),
    ("max_position_embeddings", 512, POSITIONS),
];

#[derive(Debug, Deserialize)]
struct Raw {
    type_vocab_size: Option<u64>,
    relative_attention: Option<bool>,
    max_relative_positions: Option<i64>,
    position_biased_input: Option<bool>,
    pos_att_type: Option<PosAttType>,
    share_att_key: Option<bool>,
    position_buckets: Option<i64>,
    norm_rel_ebd: Option<String>,
    conv_kernel_size: Option<u64>,
    conv_groups: Option<u64>,
    conv_act: Option<String>,
    embedding_size: Option<u64>,
    attention_head_size: Option<u64>,
    pooler_hidden_size: Option<u64>,
    legacy: Option<bool>,
    talking_head: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DebertaV2Config {
    #[serde(skip)]
    pub version: Version,
    pub class: String,
    pub head: Head,
    /// The QA output width (`num_labels`).
    pub num_labels: u64,
    pub vocab_size: u64,
    /// The word (and absolute position) embedding width; `embed_proj` maps it to the hidden size
    /// when they differ.
    pub embedding_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub attention_head_size: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    /// 0: no token-type table.
    pub type_vocab_size: u64,
    pub relative_attention: bool,
    /// Rows of `encoder.rel_embeddings` (`2 x position_buckets`, or `2 x max_relative_positions`
    /// when there are no buckets); 0 without relative attention.
    pub rel_embeddings: u64,
    pub position_biased_input: bool,
    pub pos_att_type: Vec<String>,
    pub share_att_key: bool,
    pub norm_rel_ebd_layer_norm: bool,
    /// Kernel and groups of the encoder's convolution after the first layer; none when
    /// `conv_kernel_size` is 0.
    pub conv: Option<(u64, u64)>,
    pub conv_act: String,
    pub pooler_hidden_size: u64,
    pub legacy: bool,
    /// v1's `head_logits_proj` and `head_weights_proj` (heads x heads) mixing the heads.
    #[serde(skip)]
    pub talking_head: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
}

impl DebertaV2Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        Self::read(value, common, Version::V2)
    }

    /// DeBERTa v1 (`model_type` `deberta`).
    pub fn resolve_v1(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        Self::read(value, common, Version::V1)
    }

    fn read(value: &Value, common: &Common, version: Version) -> Result<Self, ConfigError> {
        let v1 = version == Version::V1;
        let mut raw: Raw = super::deserialize_raw(value)?;
        if v1 {
            // Keys DebertaConfig's modeling code never reads: they shape nothing in v1.
            (raw.attention_head_size, raw.share_att_key, raw.position_buckets) = (None, None, None);
            (raw.norm_rel_ebd, raw.conv_kernel_size) = (None, None);
        } else {
            raw.talking_head = None;
        }
        let mut keys = SIZES;
        if v1 {
            keys.iter_mut().zip(V1_DEFAULTS).for_each(|(key, default)| key.1 = default);
        }
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [vocab_size, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings] = sizes(value, keys, &mut d)?;
        // 0 is this class's default and means "no token-type embedding".
        let type_vocab_size = match raw.type_vocab_size {
            Some(0) => 0,
            Some(n) => check_range(Limit { field: "type_vocab_size", max: 1 << 20 }, n)?,
            None => {
                d.push(Defaulted { field: "type_vocab_size", value: "0".into() });
                0
            }
        };
        let embedding_size = match raw.embedding_size {
            Some(n) => check_range(Limit { field: "embedding_size", max: 1 << 18 }, n)?,
            None => hidden_size,
        };
        // DisentangledSelfAttention refuses heads that do not divide the hidden size, even when
        // `attention_head_size` is given.
        if !hidden_size.is_multiple_of(num_heads) {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!("{num_heads} heads do not divide hidden_size {hidden_size} (transformers raises)"),
            ));
        }
        let attention_head_size = match raw.attention_head_size {
            Some(n) => check_range(Limit { field: "attention_head_size", max: 1 << 16 }, n)?,
            None => hidden_size / num_heads,
        };
        if num_heads * attention_head_size > 1 << 18 {
            return Err(ConfigError::field(
                "attention_head_size",
                format!(
                    "{num_heads} heads x {attention_head_size} is beyond any real model (at most {})",
                    1 << 18
                ),
            ));
        }
        let relative_attention = flag("relative_attention", raw.relative_attention, false, &mut d);
        let position_biased_input = flag("position_biased_input", raw.position_biased_input, true, &mut d);
        // Read by the modeling code with getattr defaults, recorded like the class's own defaults
        // where they shape the model (only under relative attention).
        let share_att_key = match raw.share_att_key {
            Some(v) => v,
            None if relative_attention => flag("share_att_key", None, false, &mut d),
            None => false,
        };
        let pos_att_type: Vec<String> = match raw.pos_att_type {
            None => vec![],
            Some(PosAttType::List(v)) => v,
            Some(PosAttType::Joined(s)) => {
                s.to_lowercase().split('|').map(|x| x.trim().to_string()).collect()
            }
        };
        let rel_embeddings = if relative_attention {
            let max_rel = match raw.max_relative_positions {
                Some(n) if n >= 1 => {
                    check_range(Limit { field: "max_relative_positions", max: 1 << 30 }, n as u64)?
                }
                _ => max_position_embeddings,
            };
            match raw.position_buckets {
                Some(b) if b > 0 => {
                    2 * check_range(Limit { field: "position_buckets", max: 1 << 20 }, b as u64)?
                }
                _ => 2 * max_rel,
            }
        } else {
            0
        };
        let norm_rel_ebd_layer_norm = raw
            .norm_rel_ebd
            .as_deref()
            .unwrap_or("none")
            .to_lowercase()
            .split('|')
            .any(|x| x.trim() == "layer_norm");
        let conv = match raw.conv_kernel_size {
            None | Some(0) => None,
            Some(k) => {
                let k = check_range(Limit { field: "conv_kernel_size", max: 1 << 10 }, k)?;
                let g = size("conv_groups", raw.conv_groups, 1, 1 << 18, &mut d)?;
                if !hidden_size.is_multiple_of(g) {
                    return Err(ConfigError::field(
                        "conv_groups",
                        format!("{g} groups do not divide hidden_size {hidden_size}: Conv1d refuses"),
                    ));
                }
                Some((k, g))
            }
        };
        let conv_act = raw.conv_act.unwrap_or_else(|| "tanh".into());
        let pooler_hidden_size = match raw.pooler_hidden_size {
            Some(n) => check_range(Limit { field: "pooler_hidden_size", max: 1 << 18 }, n)?,
            None => hidden_size,
        };
        let legacy = flag("legacy", raw.legacy, true, &mut d);
        let talking_head = raw.talking_head.unwrap_or(false);
        let defaults = BasicDefaults { pad_token_id: 0, layer_norm_eps: 1e-7, hidden_act: "gelu" };
        let b = encoder_basics(value, &defaults, &mut d)?;
        let (class, head, num_labels) =
            head::read(common, value, version, (legacy, b.tie_word_embeddings), &mut d)?;
        Ok(DebertaV2Config {
            version,
            class,
            head,
            num_labels,
            vocab_size,
            embedding_size,
            hidden_size,
            num_layers,
            num_heads,
            attention_head_size,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            relative_attention,
            rel_embeddings,
            position_biased_input,
            pos_att_type,
            share_att_key,
            norm_rel_ebd_layer_norm,
            conv,
            conv_act,
            pooler_hidden_size,
            legacy,
            talking_head,
            tie_word_embeddings: b.tie_word_embeddings,
            pad_token_id: b.pad_token_id,
            layer_norm_eps: b.layer_norm_eps,
            hidden_act: b.hidden_act,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    /// Whether a layer has its own position-key / position-query projections: only with relative
    /// attention, unshared keys, and the matching `pos_att_type`.
    pub fn pos_proj(&self, kind: &str) -> bool {
        self.relative_attention && !self.share_att_key && self.pos_att_type.iter().any(|t| t == kind)
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            head_dim: self.attention_head_size,
            // Without an absolute table (position_biased_input false) nothing is indexed by
            // position, but the relative buckets are sized for this length: it stays the limit.
            usable_context: self.max_position_embeddings,
            ..super::encoders::encoder_dims!(self)
        }
    }
}

mod head;
use head::V1_DEFAULTS;
pub use head::Version;

#[cfg(test)]
mod tests;
