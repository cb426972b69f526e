//! Inkling's language model (`inkling_text`, Thinking Machines), read as transformers 5.24's
//! `InklingTextConfig` reads it: full (`hybrid`) and sliding (`hybrid_sliding`) attention layers
//! with their own head counts, each with a relative-position projection (`r_proj`, `d_rel` per
//! head) and bank (`d_rel x rel_extent`, the window on sliding layers), short convolutions over
//! keys, values and both sublayers' outputs, and a dense MLP or routed experts with shared
//! experts that the router also scores, by `mlp_layer_types`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::FFN;
use super::inkling_common::{Defaults, EXPERTS, per_layer};
pub use super::inkling_common::{InklingAttn, InklingSizes};
use super::{Common, ConfigError, Defaulted, size};

/// `InklingTextConfig`'s defaults for the keys Inkling 2 reads alike.
const DEFAULTS: Defaults = Defaults {
    hidden: 6144,
    layers: 66,
    heads: 64,
    swa_heads: 64,
    swa_kv: 16,
    window: 512,
    positions: 131_072,
    experts: 256,
    top_k: 6,
    classes: ["InklingTextModel", "InklingForCausalLM"],
};

#[derive(Debug, Deserialize)]
struct Raw {
    intermediate_size: Option<u64>,
    dense_intermediate_size: Option<u64>,
    moe_intermediate_size: Option<u64>,
    n_shared_experts: Option<u64>,
    layer_types: Option<Vec<String>>,
    local_layer_ids: Option<Vec<u64>>,
    mlp_layer_types: Option<Vec<String>>,
    dense_mlp_idx: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct InklingTextConfig {
    pub class: String,
    #[serde(flatten)]
    pub sizes: InklingSizes,
    /// The dense MLP's width.
    pub intermediate_size: u64,
    pub moe_intermediate_size: u64,
    pub shared_experts: u64,
    /// Per layer: whether it attends within the window, whether its MLP is the experts.
    pub sliding_layers: Vec<bool>,
    pub sparse_layers: Vec<bool>,
    pub defaulted: Vec<Defaulted>,
}

impl InklingTextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let r: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let (class, sizes) = InklingSizes::read(value, common, &DEFAULTS, &mut d)?;
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
        // The router splits its scores at the last `n_shared_experts` rows: at least one.
        let shared_experts = size("n_shared_experts", r.n_shared_experts, 2, EXPERTS, &mut d)?;
        let n = sizes.num_layers;
        let sliding_layers = layer_types(r.layer_types, r.local_layer_ids, n)?;
        let sparse_layers = mlp_layer_types(r.mlp_layer_types, r.dense_mlp_idx, n)?;
        Ok(InklingTextConfig {
            class,
            sizes,
            intermediate_size,
            moe_intermediate_size,
            shared_experts,
            sliding_layers,
            sparse_layers,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.sizes.dims(self.moe_intermediate_size)
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
