//! The family-neutral view of a config's sizes.

use serde::Serialize;

use super::ConfigError;

/// The sizes every transformer shares, as one family-neutral view for the checks, the lints and
/// the page.
#[derive(Debug, Clone, Serialize)]
pub struct Dims {
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub intermediate_size: u64,
    pub vocab_size: u64,
    /// `max_position_embeddings` as written.
    pub context: u64,
    /// The longest input the position scheme can index (less than `context` for RoBERTa).
    pub usable_context: u64,
    pub pad_token_id: Option<u64>,
    pub tie_word_embeddings: bool,
    pub layer_norm_eps: f64,
    /// Routed experts per MoE layer, and how many each token is sent to; null for dense models.
    pub num_experts: Option<u64>,
    pub experts_per_token: Option<u64>,
}

/// [`Dims::mha`] over a config whose fields carry these names: `hidden_size`, `num_layers`,
/// `num_heads`, `vocab_size`, and unless given, `intermediate_size` and `max_position_embeddings`.
macro_rules! mha_dims {
    ($c:expr) => {
        $crate::config::mha_dims!($c, $c.intermediate_size, $c.max_position_embeddings)
    };
    ($c:expr, $ffn:expr, $context:expr) => {
        $crate::config::Dims::mha($c.hidden_size, $c.num_layers, $c.num_heads, $ffn, $c.vocab_size, $context)
    };
}
pub(crate) use mha_dims;

impl Dims {
    /// A dense stack of multi-head layers: every head has its own keys and values, `hidden / heads`
    /// wide; every position is usable; no experts. A family overrides what differs.
    pub(crate) fn mha(hidden: u64, layers: u64, heads: u64, ffn: u64, vocab: u64, context: u64) -> Dims {
        Dims {
            hidden_size: hidden,
            num_layers: layers,
            num_heads: heads,
            num_kv_heads: heads,
            head_dim: hidden.checked_div(heads).unwrap_or(0),
            intermediate_size: ffn,
            vocab_size: vocab,
            context,
            usable_context: context,
            pad_token_id: None,
            tie_word_embeddings: false,
            layer_norm_eps: 0.0,
            num_experts: None,
            experts_per_token: None,
        }
    }

    /// A stack without attention (state-space and recurrent layers): one nominal head of width
    /// 0, so attention terms vanish; the context is what the plan assumes.
    pub(crate) fn attention_free(hidden: u64, layers: u64, ffn: u64, vocab: u64, context: u64) -> Dims {
        Dims {
            num_heads: 1,
            num_kv_heads: 1,
            head_dim: 0,
            ..Dims::mha(hidden, layers, 1, ffn, vocab, context)
        }
    }
}

/// `heads` (read from `field`) checked to divide `width`: a head width that is not whole has no
/// tensor shape, so the config is refused rather than rounded.
pub(crate) fn dividing_heads((field, heads): (&'static str, u64), width: u64) -> Result<u64, ConfigError> {
    if heads == 0 || !width.is_multiple_of(heads) {
        return Err(ConfigError::field(
            field,
            format!("{heads} heads do not divide the hidden size {width}"),
        ));
    }
    Ok(heads)
}
