//! Mixtures of experts: how each rule set lays out its routed and shared experts, and which
//! layers are sparse.

use serde::Serialize;
use serde_json::Value;

use super::super::types::Family;
use super::super::{ConfigError, Defaulted, Limit, check_range, size};
use super::raw::Raw;

/// How a family names and builds its mixture-of-experts block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoeStyle {
    /// `block_sparse_moe.gate`, `block_sparse_moe.experts.{e}.w1/w2/w3`.
    Mixtral,
    /// `mlp.gate`, `mlp.experts.{e}.gate_proj/up_proj/down_proj`, and for Qwen2-MoE a
    /// `shared_expert` with its `shared_expert_gate`.
    Qwen,
    /// `mlp.gate.weight` (a bare parameter), routed experts and `shared_experts`.
    Deepseek,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Moe {
    pub style: MoeStyle,
    pub num_experts: u64,
    /// The family's key for the expert count (`num_local_experts`, `num_experts`,
    /// `n_routed_experts`), for errors.
    #[serde(skip)]
    pub experts_field: &'static str,
    /// None where the config leaves the router's top-k unset (DeepseekV2Config's default).
    pub experts_per_token: Option<u64>,
    pub expert_intermediate_size: u64,
    /// Width of the always-on shared expert MLP, if any.
    pub shared_intermediate_size: Option<u64>,
    /// Qwen2-MoE's sigmoid gate on the shared expert (hidden -> 1).
    pub shared_expert_gate: bool,
    /// DeepSeek-V3's router keeps `e_score_correction_bias`, a persistent buffer.
    pub score_correction_bias: bool,
}

pub(super) fn resolve_moe(
    family: Family,
    raw: &Raw,
    value: &Value,
    d: &mut Vec<Defaulted>,
) -> Result<Option<Moe>, ConfigError> {
    let moe = match family {
        Family::Mixtral => Moe {
            style: MoeStyle::Mixtral,
            experts_field: "num_local_experts",
            num_experts: size("num_local_experts", raw.num_local_experts, 8, 1 << 16, d)?,
            experts_per_token: Some(size("num_experts_per_tok", raw.num_experts_per_tok, 2, 1 << 16, d)?),
            // Mixtral's experts are as wide as its `intermediate_size`.
            expert_intermediate_size: raw.intermediate_size.unwrap_or(14336),
            shared_intermediate_size: None,
            shared_expert_gate: false,
            score_correction_bias: false,
        },
        Family::Qwen2Moe | Family::Qwen3Moe => {
            let qwen2 = family == Family::Qwen2Moe;
            // Qwen3MoeConfig (transformers 5.x) stores the count as `num_local_experts`, with
            // `num_experts` an `attribute_map` alias: a file it saves has only the former, a
            // published one only the latter.
            let (experts_field, n) = match (qwen2, raw.num_local_experts) {
                (false, Some(n)) => ("num_local_experts", Some(n)),
                _ => ("num_experts", raw.num_experts),
            };
            let num_experts = match n {
                // Qwen's classes build no experts when num_experts is 0: every layer is dense.
                Some(0) => return Ok(None),
                n => size(experts_field, n, if qwen2 { 60 } else { 128 }, 1 << 16, d)?,
            };
            Moe {
                style: MoeStyle::Qwen,
                experts_field,
                num_experts,
                experts_per_token: Some(size(
                    "num_experts_per_tok",
                    raw.num_experts_per_tok,
                    if qwen2 { 4 } else { 8 },
                    1 << 16,
                    d,
                )?),
                expert_intermediate_size: size(
                    "moe_intermediate_size",
                    raw.moe_intermediate_size,
                    if qwen2 { 1408 } else { 768 },
                    1 << 22,
                    d,
                )?,
                shared_intermediate_size: if qwen2 {
                    Some(size(
                        "shared_expert_intermediate_size",
                        raw.shared_expert_intermediate_size,
                        5632,
                        1 << 22,
                        d,
                    )?)
                } else {
                    None
                },
                shared_expert_gate: qwen2,
                score_correction_bias: false,
            }
        }
        Family::DeepseekV2 | Family::DeepseekV3 => {
            let v3 = family == Family::DeepseekV3;
            let expert_intermediate_size = size(
                "moe_intermediate_size",
                raw.moe_intermediate_size,
                if v3 { 2048 } else { 1407 },
                1 << 22,
                d,
            )?;
            let experts_per_token = match raw.num_experts_per_tok {
                Some(k) => Some(check_range(Limit { field: "num_experts_per_tok", max: 1 << 16 }, k)?),
                None if v3 => {
                    d.push(Defaulted { field: "num_experts_per_tok", value: "8".into() });
                    Some(8)
                }
                None => {
                    d.push(Defaulted { field: "num_experts_per_tok", value: "null".into() });
                    None
                }
            };
            // V2 builds the shared experts only when n_shared_experts is set (an explicit null
            // drops them); V3 always builds them.
            let shared = match raw.n_shared_experts {
                Some(0) if !v3 => None,
                Some(n) => Some(n),
                // serde folds null and absent together; an explicit null drops V2's shared experts.
                None if !v3 && matches!(value.get("n_shared_experts"), Some(Value::Null)) => None,
                None => {
                    let n = if v3 { 1 } else { 2 };
                    d.push(Defaulted { field: "n_shared_experts", value: n.to_string() });
                    Some(n)
                }
            };
            let shared = match shared {
                Some(n) => Some(
                    check_range(Limit { field: "n_shared_experts", max: 1 << 16 }, n)?
                        * expert_intermediate_size,
                ),
                None => None,
            };
            Moe {
                style: MoeStyle::Deepseek,
                experts_field: "n_routed_experts",
                num_experts: size(
                    "n_routed_experts",
                    raw.n_routed_experts,
                    if v3 { 256 } else { 64 },
                    1 << 16,
                    d,
                )?,
                experts_per_token,
                expert_intermediate_size,
                shared_intermediate_size: shared,
                shared_expert_gate: false,
                score_correction_bias: v3,
            }
        }
        _ => return Ok(None),
    };
    if let Some(k) = moe.experts_per_token
        && k > moe.num_experts
    {
        return Err(ConfigError::field(
            "num_experts_per_tok",
            format!("{k} experts per token, but only {} experts", moe.num_experts),
        ));
    }
    Ok(Some(moe))
}

pub(super) fn sparse_layers(
    family: Family,
    raw: &Raw,
    has_moe: bool,
    num_layers: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Vec<bool>, ConfigError> {
    if !has_moe {
        return Ok(vec![false; num_layers as usize]);
    }
    Ok(match family {
        Family::Qwen2Moe | Family::Qwen3Moe => {
            let step = size("decoder_sparse_step", raw.decoder_sparse_step, 1, 10_000, d)?;
            let dense = raw.mlp_only_layers.clone().unwrap_or_default();
            (0..num_layers).map(|i| !dense.contains(&i) && (i + 1) % step == 0).collect()
        }
        Family::DeepseekV2 | Family::DeepseekV3 => {
            let k = match raw.first_k_dense_replace {
                Some(k) => k,
                None => {
                    let k = if family == Family::DeepseekV3 { 3 } else { 0 };
                    d.push(Defaulted { field: "first_k_dense_replace", value: k.to_string() });
                    k
                }
            };
            (0..num_layers).map(|i| i >= k).collect()
        }
        _ => vec![true; num_layers as usize],
    })
}
