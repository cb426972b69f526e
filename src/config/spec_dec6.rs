//! Decoders whose layers differ in their attention's shape, as descriptions (see `config/spec.rs`):
//! MiMo-V2-Flash (the sliding layers have twice the key/value heads of the full ones and a learned
//! sink per head; values narrower than queries and keys, `v_head_dim`) and Laguna (query heads per
//! layer, `num_attention_heads_per_layer`; a softplus output gate per head or per channel,
//! `gating`). The per-layer shapes are read here once ([`layer_attention`]); the builder and the
//! KV cache take each layer's from [`AttnShape`]. Defaults are those of transformers 5.24's
//! `configuration_<type>.py`.

use serde_json::Value;

use super::spec::{Attn, Bias, Dv, HeadKind, MoeSpec, QkNorm, Reader, Shared, Sparse, Spec, Window};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::per_layer;
use super::spec_mla::DEEPSEEK_MOE;
use super::spec_moe::MOE;
use super::{ConfigError, Defaulted, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

/// How a type's layers set their attention apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayerHeads {
    /// Every layer `num_attention_heads` over `num_key_value_heads`.
    Same,
    /// MiMo-V2-Flash: sliding layers with twice the key/value heads and a sink per head.
    WideSliding,
    /// Laguna: each layer's query heads from `num_attention_heads_per_layer`.
    PerLayer,
}

/// One layer's attention heads, where a type's layers differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttnShape {
    pub heads: u64,
    pub kv_heads: u64,
    /// A learned sink logit per head.
    pub sinks: bool,
}

/// What [`layer_attention`] reads beyond the shared keys.
pub struct LayerAttention {
    /// Per layer (empty where the type's layers are all alike).
    pub shapes: Vec<AttnShape>,
    /// The value heads' width (`head_dim` where the type has no `v_head_dim`).
    pub v_head_dim: u64,
    /// Laguna's `gating: "per-element"` (or false): the output gate per channel, not per head.
    pub gate_per_channel: bool,
    /// The windows where the type's own default pattern replaces the shared reading.
    pub windows: Option<Vec<Option<u64>>>,
}

const MIMO_V2_FLASH: Spec = Spec {
    model_type: "mimo_v2_flash",
    classes: &[("MiMoV2FlashModel", Model), ("MiMoV2FlashForCausalLM", CausalLm)],
    keys: keys![sizes(152_576, 4096, 16_384, 48, 64, U(4), U(192), 131_072), v_head_dim: U(128),
        sliding_window: U(129), moe_intermediate_size: U(2048), num_experts_per_tok: U(8),
        n_routed_experts: U(256), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
        pad_token_id: Null, hidden_act: S("silu"), attention_bias: B(false)],
    aliases: &[("num_local_experts", "n_routed_experts")],
    // The class's own `o_proj` never has a bias.
    o_bias: Bias::Fixed(false),
    // DeepSeek-V3's router (with its correction buffer) and experts, without the shared expert.
    moe: Some(MoeSpec { shared: Shared::None, sparse: Sparse::MlpTypesFirst(1), ..DEEPSEEK_MOE }),
    window: Window::Pattern { period_key: None, period: 6 },
    layer_heads: LayerHeads::WideSliding,
    ..BASE
};

const LAGUNA: Spec = Spec {
    model_type: "laguna",
    classes: &[("LagunaModel", Model), ("LagunaForCausalLM", CausalLm)],
    keys: keys![sizes(100_352, 2048, 8192, 40, 48, U(8), U(128), 131_072), sliding_window: U(512),
        moe_intermediate_size: U(512), shared_expert_intermediate_size: U(512),
        num_experts_per_tok: U(8), num_experts: U(256), rms_norm_eps: F(1e-6),
        tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
        attention_bias: B(false), gating: B(true)],
    qk_norm: QkNorm::PerHead,
    attn: Attn::HeadGate,
    moe: Some(MoeSpec {
        // A parameter (kept out of training by `requires_grad=False`), not a buffer.
        expert_bias: Some("gate.e_score_correction_bias"),
        shared: Shared::Width { name: "shared_experts", key: "shared_expert_intermediate_size" },
        sparse: Sparse::MlpTypesFirst(1),
        ..MOE
    }),
    // All full unless `layer_types` marks sliding layers.
    window: Window::Pattern { period_key: None, period: 1 },
    layer_heads: LayerHeads::PerLayer,
    ..BASE
};

pub const TYPES: &[Spec] = &[MIMO_V2_FLASH, LAGUNA];

/// Each layer's attention shape, the value width, the gate's granularity and, for MiMo-V2-Flash
/// its windows (without `layer_types`: full on layer 0 and every sixth, `(i + 1) % 6 == 0`).
pub(crate) fn layer_attention(
    r: &mut Reader,
    layers: u64,
    (heads, kv_heads, head_dim): (u64, u64, u64),
) -> Result<LayerAttention, ConfigError> {
    let mut out =
        LayerAttention { shapes: vec![], v_head_dim: head_dim, gate_per_channel: false, windows: None };
    match r.spec.layer_heads {
        LayerHeads::Same => {}
        LayerHeads::WideSliding => {
            let v = r.size("v_head_dim", 1 << 16)?;
            out.v_head_dim = v;
            let (sliding, w) = mimo_windows(r, layers)?;
            out.shapes = sliding
                .iter()
                .map(|s| match s {
                    true => AttnShape { heads, kv_heads: 2 * kv_heads, sinks: true },
                    false => AttnShape { heads, kv_heads, sinks: false },
                })
                .collect();
            out.windows = Some(sliding.iter().map(|s| if *s { w } else { None }).collect());
        }
        LayerHeads::PerLayer => {
            out.gate_per_channel = gate_per_channel(r)?;
            let per_layer = heads_per_layer(r, layers)?;
            let per_layer = per_layer.unwrap_or_else(|| vec![heads; layers as usize]);
            out.shapes =
                per_layer.into_iter().map(|heads| AttnShape { heads, kv_heads, sinks: false }).collect();
        }
    }
    Ok(out)
}

/// Which layers slide (`layer_types` when listed, else MiMo's own pattern) and their window:
/// `sliding_window_size` + 1 where the file gives that (the class attends to that many previous
/// tokens plus the query), else `sliding_window`. A sliding layer keeps its wider heads even
/// without a window.
fn mimo_windows(r: &mut Reader, layers: u64) -> Result<(Vec<bool>, Option<u64>), ConfigError> {
    let w = match r.value.get("sliding_window_size").filter(|v| !v.is_null()) {
        Some(v) => {
            let s = v.as_u64().ok_or_else(|| {
                ConfigError::field(
                    "sliding_window_size",
                    format!("expected a non-negative integer, found {v}"),
                )
            })?;
            Some(check_range(Limit { field: "sliding_window_size", max: 1 << 30 }, s)? + 1)
        }
        None => match r.opt_u("sliding_window")? {
            Some(w) => Some(check_range(Limit { field: "sliding_window", max: 1 << 30 }, w)?),
            None => None,
        },
    };
    let types = per_layer(r, "layer_types", layers, ("sliding_attention", "full_attention"))?;
    let sliding = types.unwrap_or_else(|| (0..layers).map(|i| i != 0 && (i + 1) % 6 != 0).collect());
    Ok((sliding, w))
}

/// Laguna's `gating`: true or "per-head" gate each head; false or "per-element" each channel.
fn gate_per_channel(r: &mut Reader) -> Result<bool, ConfigError> {
    match r.raw("gating") {
        None => {
            r.defaulted.push(Defaulted { field: "gating", value: "true".into() });
            Ok(false)
        }
        Some(Value::Bool(b)) => Ok(!b),
        Some(Value::String(s)) if s == "per-head" => Ok(false),
        Some(Value::String(s)) if s == "per-element" => Ok(true),
        Some(v) => Err(ConfigError::field(
            "gating",
            format!("expected true, false, \"per-head\" or \"per-element\", found {v}"),
        )),
    }
}

/// `num_attention_heads_per_layer`, one count per layer, when the file lists them.
fn heads_per_layer(r: &Reader, layers: u64) -> Result<Option<Vec<u64>>, ConfigError> {
    const KEY: &str = "num_attention_heads_per_layer";
    let Some(v) = r.raw(KEY) else { return Ok(None) };
    let bad = || ConfigError::field(KEY, format!("expected {layers} head counts, one per layer, found {v}"));
    let list = v.as_array().filter(|l| l.len() as u64 == layers).ok_or_else(bad)?;
    list.iter()
        .map(|x| {
            let n = x.as_u64().ok_or_else(bad)?;
            check_range(Limit { field: KEY, max: 1 << 16 }, n)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
