//! Inkling's language model (`inkling_text`, Thinking Machines), read as transformers 5.24's
//! `InklingTextConfig` reads it: full (`hybrid`) and sliding (`hybrid_sliding`) attention layers
//! with their own head counts, each with a relative-position projection (`r_proj`, `d_rel` per
//! head) and bank (`d_rel x rel_extent`, the window on sliding layers), short convolutions over
//! keys, values and both sublayers' outputs, and a dense MLP or routed experts with shared
//! experts that the router also scores, by `mlp_layer_types`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, VOCAB, WIDTH};
use super::{Common, ConfigError, Defaulted, aliased, class_or, size};

/// Sizes beyond these are no real model's.
const EXPERTS: u64 = 1 << 16;
const KERNEL: u64 = 1 << 10;

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
    intermediate_size: Option<u64>,
    dense_intermediate_size: Option<u64>,
    moe_intermediate_size: Option<u64>,
    n_routed_experts: Option<u64>,
    num_local_experts: Option<u64>,
    num_experts_per_tok: Option<u64>,
    n_shared_experts: Option<u64>,
    hidden_act: Option<String>,
    pad_token_id: Option<u64>,
    layer_types: Option<Vec<String>>,
    local_layer_ids: Option<Vec<u64>>,
    mlp_layer_types: Option<Vec<String>>,
    dense_mlp_idx: Option<u64>,
}

/// One attention shape: query heads, key/value heads, head width, and the relative bank's
/// extent (the window on sliding layers, `rel_extent` on full ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct InklingAttn {
    pub heads: u64,
    pub kv_heads: u64,
    pub head_dim: u64,
    pub rel_extent: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct InklingTextConfig {
    pub class: String,
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
    /// The dense MLP's width.
    pub intermediate_size: u64,
    pub moe_intermediate_size: u64,
    pub num_experts: u64,
    pub experts_per_token: u64,
    pub shared_experts: u64,
    pub hidden_act: String,
    pub pad_token_id: Option<u64>,
    /// Per layer: whether it attends within the window, whether its MLP is the experts.
    pub sliding_layers: Vec<bool>,
    pub sparse_layers: Vec<bool>,
    pub defaulted: Vec<Defaulted>,
}

impl InklingTextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let r: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", r.vocab_size, 201_024, VOCAB, &mut d)?;
        let hidden_size = size("hidden_size", r.hidden_size, 6144, WIDTH, &mut d)?;
        let num_layers = size("num_hidden_layers", r.num_hidden_layers, 66, LAYERS, &mut d)?;
        let full_heads = size("num_attention_heads", r.num_attention_heads, 64, HEADS, &mut d)?;
        let full_kv = size("num_key_value_heads", r.num_key_value_heads, 8, HEADS, &mut d)?;
        let full_hd = size("head_dim", r.head_dim, 128, WIDTH, &mut d)?;
        let swa_heads = size("swa_num_attention_heads", r.swa_num_attention_heads, 64, HEADS, &mut d)?;
        let swa_kv = size("swa_num_key_value_heads", r.swa_num_key_value_heads, 16, HEADS, &mut d)?;
        let swa_hd = size("swa_head_dim", r.swa_head_dim, 128, WIDTH, &mut d)?;
        let window = aliased(r.sliding_window_size, r.sliding_window);
        let window = size("sliding_window_size", window, 512, POSITIONS, &mut d)?;
        let d_rel = size("d_rel", r.d_rel, 16, WIDTH, &mut d)?;
        let rel_extent = size("rel_extent", r.rel_extent, 1024, POSITIONS, &mut d)?;
        let positions = aliased(r.max_position_embeddings, r.model_max_length);
        let max_position_embeddings = size("max_position_embeddings", positions, 131_072, POSITIONS, &mut d)?;
        let kernel = aliased(r.conv_kernel_size, r.sconv_kernel_size);
        let conv_kernel_size = size("conv_kernel_size", kernel, 4, KERNEL, &mut d)?;
        // A checkpoint's `dense_intermediate_size` is the dense MLP's width; its
        // `intermediate_size` is then the experts' (InklingTextConfig.__post_init__).
        let (intermediate_size, moe_intermediate_size) = match r.dense_intermediate_size {
            Some(dense) => {
                let experts = size("intermediate_size", r.intermediate_size, 24_576, FFN, &mut d)?;
                (size("dense_intermediate_size", Some(dense), 0, FFN, &mut d)?, experts)
            }
            None => (
                size("intermediate_size", r.intermediate_size, 24_576, FFN, &mut d)?,
                size("moe_intermediate_size", r.moe_intermediate_size, 3072, FFN, &mut d)?,
            ),
        };
        let experts = aliased(r.n_routed_experts, r.num_local_experts);
        let num_experts = size("n_routed_experts", experts, 256, EXPERTS, &mut d)?;
        let experts_per_token = size("num_experts_per_tok", r.num_experts_per_tok, 6, EXPERTS, &mut d)?;
        if experts_per_token > num_experts {
            return Err(ConfigError::field(
                "num_experts_per_tok",
                format!("{experts_per_token} experts per token, but only {num_experts} experts"),
            ));
        }
        // The router splits its scores at the last `n_shared_experts` rows: at least one.
        let shared_experts = size("n_shared_experts", r.n_shared_experts, 2, EXPERTS, &mut d)?;
        let sliding_layers = layer_types(r.layer_types, r.local_layer_ids, num_layers)?;
        let sparse_layers = mlp_layer_types(r.mlp_layer_types, r.dense_mlp_idx, num_layers)?;
        for (h, kv, field) in
            [(full_heads, full_kv, "num_key_value_heads"), (swa_heads, swa_kv, "swa_num_key_value_heads")]
        {
            if !h.is_multiple_of(kv) {
                return Err(ConfigError::field(
                    field,
                    format!("{kv} key/value heads do not divide {h} heads"),
                ));
            }
        }
        let class = class_or(common, "InklingTextModel", &mut d);
        let causal_lm = match class.as_str() {
            "InklingTextModel" => false,
            "InklingForCausalLM" => true,
            other => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {other} is not one the planner knows for this family"),
                ));
            }
        };
        Ok(InklingTextConfig {
            class,
            causal_lm,
            vocab_size,
            hidden_size,
            num_layers,
            full: InklingAttn { heads: full_heads, kv_heads: full_kv, head_dim: full_hd, rel_extent },
            sliding: InklingAttn { heads: swa_heads, kv_heads: swa_kv, head_dim: swa_hd, rel_extent: window },
            window,
            d_rel,
            max_position_embeddings,
            rms_norm_eps: r.rms_norm_eps.unwrap_or(1e-6),
            conv_kernel_size,
            intermediate_size,
            moe_intermediate_size,
            num_experts,
            experts_per_token,
            shared_experts,
            hidden_act: r.hidden_act.unwrap_or_else(|| "silu".into()),
            pad_token_id: r.pad_token_id,
            sliding_layers,
            sparse_layers,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
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
                self.moe_intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}

/// `layer_types` (`hybrid` or `hybrid_sliding`), else sliding on `local_layer_ids`, else on every
/// layer but each sixth.
fn layer_types(
    types: Option<Vec<String>>,
    local: Option<Vec<u64>>,
    n: u64,
) -> Result<Vec<bool>, ConfigError> {
    if let Some(types) = types {
        return per_layer(types, "layer_types", ("hybrid_sliding", "hybrid"), n);
    }
    Ok(match local {
        Some(ids) => (0..n).map(|i| ids.contains(&i)).collect(),
        None => (0..n).map(|i| (i + 1) % 6 != 0).collect(),
    })
}

/// `mlp_layer_types` (`sparse` or `dense`), else the first `dense_mlp_idx` layers dense.
fn mlp_layer_types(types: Option<Vec<String>>, dense: Option<u64>, n: u64) -> Result<Vec<bool>, ConfigError> {
    match types {
        Some(types) => per_layer(types, "mlp_layer_types", ("sparse", "dense"), n),
        None => Ok((0..n).map(|i| i >= dense.unwrap_or(0)).collect()),
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
