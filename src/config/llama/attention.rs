//! Attention as a type reads it: grouped heads (with biases, q/k norms, a fused projection)
//! or DeepSeek's latent attention, the width a head rotates, and the MLP's bias that may share
//! the attention's key.

use serde::Serialize;
use serde_json::Value;

use super::super::types::{Bias, Family, QkNorm, TypeDesc};
use super::super::{ConfigError, Defaulted, Limit, check_range, flag, size};
use super::raw::{Raw, bias};

/// How a layer computes attention, with its parameter shapes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Attention {
    /// q/k/v/o projections over grouped key/value heads (`self_attn.q_proj`...).
    Grouped {
        num_heads: u64,
        num_kv_heads: u64,
        head_dim: u64,
        /// Bias on q, k and v; and on o.
        qkv_bias: bool,
        o_bias: bool,
        /// RMSNorm on queries and keys (`q_norm`, `k_norm`), per head or over all heads.
        qk_norm: QkNorm,
        /// One `qkv_proj` instead of three (Phi-3).
        fused_qkv: bool,
    },
    /// DeepSeek's multi-head latent attention: keys and values through a low-rank latent.
    Latent {
        num_heads: u64,
        /// None: queries are projected directly (`q_proj`).
        q_lora_rank: Option<u64>,
        kv_lora_rank: u64,
        qk_nope_head_dim: u64,
        qk_rope_head_dim: u64,
        v_head_dim: u64,
        /// On q_a_proj, kv_a_proj_with_mqa and o_proj.
        bias: bool,
    },
}

/// What the attention resolves to: its shapes, its head width, the rotary part of a head, and
/// the MLP's bias.
pub(super) struct Resolved {
    pub attention: Attention,
    pub rotary_dim: u64,
    pub mlp_bias: bool,
}

pub(super) fn resolve(
    desc: &TypeDesc,
    raw: &Raw,
    value: &Value,
    hidden_size: u64,
    num_heads: u64,
    num_kv_heads: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Resolved, ConfigError> {
    let family = desc.rules;
    let def = desc.defaults;
    // `head_dim`: explicit when given; Mistral and Mixtral also treat 0 as unset.
    let head_dim_field = match (family, raw.head_dim) {
        (Family::Mistral | Family::Mixtral, Some(0)) => None,
        (_, v) => v,
    };
    let head_dim = match (head_dim_field, def.head_dim) {
        (Some(h), _) => h,
        (None, Some(h)) => {
            d.push(Defaulted { field: "head_dim", value: h.to_string() });
            h
        }
        (None, None) => hidden_size / num_heads,
    };
    let head_dim = check_range(Limit { field: "head_dim", max: 1 << 16 }, head_dim)?;

    let attention = match family {
        Family::DeepseekV2 | Family::DeepseekV3 => {
            let q_lora_rank = match value.get("q_lora_rank") {
                // An explicit null means queries are projected directly.
                Some(Value::Null) => None,
                _ => Some(size("q_lora_rank", raw.q_lora_rank, 1536, 1 << 20, d)?),
            };
            Attention::Latent {
                num_heads,
                q_lora_rank,
                kv_lora_rank: size("kv_lora_rank", raw.kv_lora_rank, 512, 1 << 20, d)?,
                qk_nope_head_dim: size("qk_nope_head_dim", raw.qk_nope_head_dim, 128, 1 << 16, d)?,
                qk_rope_head_dim: size("qk_rope_head_dim", raw.qk_rope_head_dim, 64, 1 << 16, d)?,
                v_head_dim: size("v_head_dim", raw.v_head_dim, 128, 1 << 16, d)?,
                bias: flag("attention_bias", raw.attention_bias, false, d),
            }
        }
        _ => {
            let qkv_bias = bias(desc.qkv_bias, raw, d);
            // One key for both reads (and records) it once.
            let o_bias = if desc.o_bias == desc.qkv_bias { qkv_bias } else { bias(desc.o_bias, raw, d) };
            Attention::Grouped {
                num_heads,
                num_kv_heads,
                head_dim,
                qkv_bias,
                o_bias,
                qk_norm: desc.qk_norm,
                fused_qkv: desc.fused,
            }
        }
    };
    let mlp_bias = match desc.mlp_bias {
        // A key the type's class does not read leaves the MLP without bias.
        Bias::Key(key, _) if !desc.keys.contains(&key) => false,
        // One key for the attention and the MLP (StarCoder2's `use_bias`) is read once.
        b if b == desc.qkv_bias => match &attention {
            Attention::Grouped { qkv_bias, .. } => *qkv_bias,
            Attention::Latent { .. } => bias(b, raw, d),
        },
        b => bias(b, raw, d),
    };

    let rotary_dim = match (&attention, family) {
        (Attention::Latent { qk_rope_head_dim, .. }, _) => *qk_rope_head_dim,
        (_, Family::Phi3) => {
            let factor = raw.partial_rotary_factor.unwrap_or(1.0);
            if !(factor > 0.0 && factor <= 1.0) {
                return Err(ConfigError::field(
                    "partial_rotary_factor",
                    format!("{factor} is not in (0, 1]"),
                ));
            }
            (head_dim as f64 * factor) as u64
        }
        _ => head_dim,
    };
    Ok(Resolved { attention, rotary_dim, mlp_bias })
}
