//! MiniMax-M3's language model (`minimax_m3_vl_text`) as a description (see `config/spec.rs`):
//! grouped attention with per-head q/k norms, a block-sparse lightning indexer (its own query
//! heads, one key, their norms) on the layers `layer_types` marks `minimax_m3_sparse`; dense
//! layers a fused gated MLP of `dense_intermediate_size`, sparse layers a sigmoid router with its
//! correction buffer over stacked experts of `intermediate_size` beside a fused shared expert of
//! `shared_intermediate_size`. The checkpoint's legacy keys (`sparse_attention_config`,
//! `moe_layer_freq`) are read as the class reads them. Defaults are those of transformers 5.24's
//! `MiniMaxM3VLTextConfig`.

use serde_json::Value;

use super::spec::{Dv, Experts, HeadKind, Mlp, MoeSpec, QkNorm, Reader, Shared, Sparse, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_moe::MOE;
use super::{ConfigError, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "minimax_m3_vl_text",
    classes: &[("MiniMaxM3VLTextModel", Model), ("MiniMaxM3VLForCausalLM", CausalLm)],
    keys: keys![sizes(200_064, 6144, 3072, 60, 64, U(4), U(128), 524_288), hidden_act: S("silu"),
        rms_norm_eps: F(1e-6), pad_token_id: Null, tie_word_embeddings: B(false),
        num_experts_per_tok: U(4), num_local_experts: U(128), dense_intermediate_size: U(12_288),
        shared_intermediate_size: U(3072), index_n_heads: U(4), index_head_dim: U(128)],
    qkv_bias: super::spec::Bias::Fixed(false),
    o_bias: super::spec::Bias::Fixed(false),
    qk_norm: QkNorm::PerHead,
    mlp: Mlp::GatedFused,
    dense_width_key: "dense_intermediate_size",
    moe: Some(MoeSpec {
        correction_buffer: Some("gate.e_score_correction_bias"),
        experts_key: "num_local_experts",
        width_key: "intermediate_size",
        experts: Experts::Stacked { bias: false },
        shared: Shared::Width { name: "shared_experts", key: "shared_intermediate_size" },
        sparse: Sparse::MlpTypesFirst(0),
        ..MOE
    }),
    ..BASE
}];

/// MiniMax-M3's indexer (heads, head width) and, per layer, whether it has one and whether its
/// MLP routes (None for the other types). `layer_types` (`minimax_m3_sparse` or
/// `full_attention`), else `sparse_attention_config.sparse_attention_freq`, else none;
/// `mlp_layer_types`, else `moe_layer_freq` (a list of flags), else all sparse.
#[allow(clippy::type_complexity)]
pub(crate) fn read(
    r: &mut Reader,
    layers: u64,
) -> Result<Option<((u64, u64), Vec<bool>, Vec<bool>)>, ConfigError> {
    if r.spec.model_type != "minimax_m3_vl_text" {
        return Ok(None);
    }
    let n = layers as usize;
    let legacy = r.value.get("sparse_attention_config").filter(|v| !v.is_null());
    let nested = |key: &'static str| legacy.and_then(|c| c.get(key)).filter(|v| !v.is_null());
    let mut dims = |flat: &'static str, old: &'static str| -> Result<u64, ConfigError> {
        match nested(old) {
            Some(v) => {
                let d = v.as_u64().ok_or_else(|| {
                    ConfigError::field(
                        "sparse_attention_config",
                        format!("{old}: expected a count, found {v}"),
                    )
                })?;
                check_range(Limit { field: "sparse_attention_config", max: 1 << 16 }, d)
            }
            None => r.size(flat, 1 << 16),
        }
    };
    let index =
        (dims("index_n_heads", "sparse_num_index_heads")?, dims("index_head_dim", "sparse_index_dim")?);
    let indexed = match super::spec_mixers::per_layer(
        r,
        "layer_types",
        layers,
        ("minimax_m3_sparse", "full_attention"),
    )? {
        Some(list) => list,
        None => match nested("sparse_attention_freq") {
            Some(v) => flags(v, n, "sparse_attention_config")?,
            None => vec![false; n],
        },
    };
    let sparse = match super::spec_mixers::per_layer(r, "mlp_layer_types", layers, ("sparse", "dense"))? {
        Some(list) => list,
        None => match r.value.get("moe_layer_freq").filter(|v| !v.is_null()) {
            Some(v) => flags(v, n, "moe_layer_freq")?,
            None => vec![true; n],
        },
    };
    Ok(Some((index, indexed, sparse)))
}

/// A list of per-layer flags (0/1 or booleans), one per layer.
fn flags(v: &Value, n: usize, field: &'static str) -> Result<Vec<bool>, ConfigError> {
    let bad = || ConfigError::field(field, format!("expected {n} per-layer flags, found {v}"));
    let list = v.as_array().filter(|l| l.len() == n).ok_or_else(bad)?;
    list.iter()
        .map(|x| match x {
            Value::Bool(b) => Ok(*b),
            x => x.as_u64().map(|f| f != 0).ok_or_else(bad),
        })
        .collect()
}
