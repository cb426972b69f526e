//! What Inkling's and Inkling 2's language models read alike (`config/inkling.rs`,
//! `config/inkling2.rs`): the vocabulary and hidden sizes, the full and sliding attention shapes,
//! the relative bank's width and extents, the convolution kernel, the routed experts, and which
//! class (the bare model or the causal LM) is planned. Each config class's own defaults come in a
//! [`Defaults`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{HEADS, LAYERS, POSITIONS, VOCAB, WIDTH};
use super::{Common, ConfigError, Defaulted, aliased, class_or, size};

pub(crate) const EXPERTS: u64 = 1 << 16;
const KERNEL: u64 = 1 << 10;

/// One attention shape: query heads, key/value heads, head width, and the relative bank's
/// extent (the window on sliding layers, `rel_extent` on full ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InklingAttn {
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub rel_extent: u64,
}

/// A config class's defaults for the keys read here, and its two classes (bare, causal LM).
pub(crate) struct Defaults {
    pub hidden: u64,
    pub layers: u64,
    pub heads: u64,
    pub swa_heads: u64,
    pub swa_kv: u64,
    pub window: u64,
    pub positions: u64,
    pub experts: u64,
    pub top_k: u64,
    pub classes: [&'static str; 2],
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    swa_num_attention_heads: Option<u64>,
    swa_num_key_value_heads: Option<u64>,
    swa_head_dim: Option<u64>,
    sliding_window_size: Option<u64>,
    sliding_window: Option<u64>,
    d_rel: Option<u64>,
    rel_extent: Option<u64>,
    max_position_embeddings: Option<u64>,
    model_max_length: Option<u64>,
    rms_norm_eps: Option<f64>,
    conv_kernel_size: Option<u64>,
    sconv_kernel_size: Option<u64>,
    n_routed_experts: Option<u64>,
    num_local_experts: Option<u64>,
    num_experts_per_tok: Option<u64>,
    hidden_act: Option<String>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct InklingSizes {
    /// Whether the class adds `lm_head` (never tied: the checkpoints keep `unembed` apart).
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub full: InklingAttn,
    pub sliding: InklingAttn,
    pub window: u64,
    pub d_rel: u64,
    pub max_position_embeddings: u64,
    pub rms_norm_eps: f64,
    pub conv_kernel_size: u64,
    pub num_experts: u64,
    pub experts_per_token: u64,
    pub hidden_act: String,
    pub pad_token_id: Option<u64>,
}

impl InklingSizes {
    /// The class planned, and the sizes.
    pub(crate) fn read(
        value: &Value,
        common: &Common,
        t: &Defaults,
        d: &mut Vec<Defaulted>,
    ) -> Result<(String, Self), ConfigError> {
        let r: Raw = super::deserialize_raw(value)?;
        let vocab_size = size("vocab_size", r.vocab_size, 201_024, VOCAB, d)?;
        let hidden_size = size("hidden_size", r.hidden_size, t.hidden, WIDTH, d)?;
        let num_layers = size("num_hidden_layers", r.num_hidden_layers, t.layers, LAYERS, d)?;
        let heads = size("num_attention_heads", r.num_attention_heads, t.heads, HEADS, d)?;
        let kv = size("num_key_value_heads", r.num_key_value_heads, 8, HEADS, d)?;
        let hd = size("head_dim", r.head_dim, 128, WIDTH, d)?;
        let swa_heads = size("swa_num_attention_heads", r.swa_num_attention_heads, t.swa_heads, HEADS, d)?;
        let swa_kv = size("swa_num_key_value_heads", r.swa_num_key_value_heads, t.swa_kv, HEADS, d)?;
        let swa_hd = size("swa_head_dim", r.swa_head_dim, 128, WIDTH, d)?;
        for (h, kv, field) in
            [(heads, kv, "num_key_value_heads"), (swa_heads, swa_kv, "swa_num_key_value_heads")]
        {
            if !h.is_multiple_of(kv) {
                return Err(ConfigError::field(
                    field,
                    format!("{kv} key/value heads do not divide {h} heads"),
                ));
            }
        }
        let window = aliased(r.sliding_window_size, r.sliding_window);
        let window = size("sliding_window_size", window, t.window, POSITIONS, d)?;
        let d_rel = size("d_rel", r.d_rel, 16, WIDTH, d)?;
        let rel_extent = size("rel_extent", r.rel_extent, 1024, POSITIONS, d)?;
        let positions = aliased(r.max_position_embeddings, r.model_max_length);
        let max_position_embeddings = size("max_position_embeddings", positions, t.positions, POSITIONS, d)?;
        let kernel = aliased(r.conv_kernel_size, r.sconv_kernel_size);
        let conv_kernel_size = size("conv_kernel_size", kernel, 4, KERNEL, d)?;
        let experts = aliased(r.n_routed_experts, r.num_local_experts);
        let num_experts = size("n_routed_experts", experts, t.experts, EXPERTS, d)?;
        let experts_per_token = size("num_experts_per_tok", r.num_experts_per_tok, t.top_k, EXPERTS, d)?;
        if experts_per_token > num_experts {
            return Err(ConfigError::field(
                "num_experts_per_tok",
                format!("{experts_per_token} experts per token, but only {num_experts} experts"),
            ));
        }
        let class = class_or(common, t.classes[0], d);
        let Some(kind) = t.classes.iter().position(|c| *c == class) else {
            return Err(ConfigError::field(
                "architectures[0]",
                format!("class {class} is not one the planner knows for this family"),
            ));
        };
        Ok((
            class,
            InklingSizes {
                causal_lm: kind == 1,
                vocab_size,
                hidden_size,
                num_layers,
                full: InklingAttn { heads, kv_heads: kv, head_dim: hd, rel_extent },
                sliding: InklingAttn {
                    heads: swa_heads,
                    kv_heads: swa_kv,
                    head_dim: swa_hd,
                    rel_extent: window,
                },
                window,
                d_rel,
                max_position_embeddings,
                rms_norm_eps: r.rms_norm_eps.unwrap_or(1e-6),
                conv_kernel_size,
                num_experts,
                experts_per_token,
                hidden_act: r.hidden_act.unwrap_or_else(|| "silu".into()),
                pad_token_id: r.pad_token_id,
            },
        ))
    }

    /// The full layers' shape stands for the model; `ffn` is the experts' width.
    pub fn dims(&self, ffn: u64) -> super::Dims {
        super::Dims {
            num_kv_heads: self.full.kv_heads,
            head_dim: self.full.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: false,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: Some(self.num_experts),
            experts_per_token: Some(self.experts_per_token),
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.full.heads,
                ffn,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}

/// One entry per layer, each of the two names; true for the first.
pub(crate) fn per_layer(
    types: Vec<String>,
    field: &'static str,
    (yes, no): (&str, &str),
    n: u64,
) -> Result<Vec<bool>, ConfigError> {
    if types.len() as u64 != n {
        return Err(ConfigError::field(field, format!("{} entries for {n} layers", types.len())));
    }
    types
        .iter()
        .map(|t| match t.as_str() {
            t if t == yes => Ok(true),
            t if t == no => Ok(false),
            other => Err(ConfigError::field(field, format!("{other:?} is neither {yes} nor {no}"))),
        })
        .collect()
}
