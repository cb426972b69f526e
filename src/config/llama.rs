//! The Llama lineage of decoder-only transformers and their mixtures of experts: `llama`,
//! `mistral`, `mixtral`, `qwen2`, `qwen2_moe`, `qwen3`, `qwen3_moe`, `gemma`, `gemma2`,
//! `gemma3_text`, `phi3`, `deepseek_v2`, `deepseek_v3`.
//!
//! Each type is a description in `config/types.rs`: its config.json is read through the keys the
//! description lists, resolved with its config class's defaults into one shared
//! [`DecoderConfig`], which a single graph builder plans from shared blocks (`graph/llama.rs`,
//! `graph/blocks.rs`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    Common, ConfigError, Defaulted, class_or, classifier_labels, deserialize_raw, flag, num_labels, size,
};

use super::types::{Bias, SHARED_KEYS};
pub use super::types::{Family, MlpKind, NormKind, Norms, QkNorm, TypeDesc};

/// Every key any type of the lineage reads, each optional. Only the keys a type's description
/// lists are read into it (see [`read_raw`]); the others stay unset.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    hidden_act: Option<String>,
    hidden_activation: Option<String>,
    max_position_embeddings: Option<u64>,
    rms_norm_eps: Option<f64>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    rope_theta: Option<f64>,
    rope_scaling: Option<Value>,
    attention_bias: Option<bool>,
    attention_out_bias: Option<bool>,
    use_bias: Option<bool>,
    norm_epsilon: Option<f64>,
    mlp_bias: Option<bool>,
    qkv_bias: Option<bool>,
    sliding_window: Option<u64>,
    use_sliding_window: Option<bool>,
    layer_types: Option<Vec<String>>,
    sliding_window_pattern: Option<u64>,
    max_window_layers: Option<u64>,
    final_logit_softcapping: Option<f64>,
    attn_logit_softcapping: Option<f64>,
    partial_rotary_factor: Option<f64>,
    num_local_experts: Option<u64>,
    num_experts: Option<u64>,
    n_routed_experts: Option<u64>,
    num_experts_per_tok: Option<u64>,
    moe_intermediate_size: Option<u64>,
    shared_expert_intermediate_size: Option<u64>,
    n_shared_experts: Option<u64>,
    decoder_sparse_step: Option<u64>,
    mlp_only_layers: Option<Vec<u64>>,
    first_k_dense_replace: Option<u64>,
    q_lora_rank: Option<u64>,
    kv_lora_rank: Option<u64>,
    qk_nope_head_dim: Option<u64>,
    qk_rope_head_dim: Option<u64>,
    v_head_dim: Option<u64>,
}

/// Reads the keys the type's class reads, and only those: a key the class ignores is not
/// type-checked, as transformers never looks at it.
fn read_raw(desc: &TypeDesc, value: &Value) -> Result<Raw, ConfigError> {
    let Some(obj) = value.as_object() else { return Err(ConfigError::NotObject) };
    let read: serde_json::Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| SHARED_KEYS.contains(&k.as_str()) || desc.keys.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    deserialize_raw(&Value::Object(read))
}

/// A bias switch as the description gives it.
fn bias(b: Bias, raw: &Raw, d: &mut Vec<Defaulted>) -> bool {
    match b {
        Bias::Fixed(v) => v,
        Bias::Key(key, default) => {
            let v = match key {
                "attention_bias" => raw.attention_bias,
                "qkv_bias" => raw.qkv_bias,
                "attention_out_bias" => raw.attention_out_bias,
                "use_bias" => raw.use_bias,
                "mlp_bias" => raw.mlp_bias,
                _ => None,
            };
            flag(key, v, default, d)
        }
    }
}

/// The class planned, as the modules it adds on the decoder stack.
pub use super::decoder::DecoderHead as Head;

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

/// A resolved decoder config of any of the families: nothing structural is optional.
#[derive(Debug, Clone, Serialize)]
pub struct DecoderConfig {
    pub family: Family,
    /// The type's description, which the graph reads its switches from.
    #[serde(skip)]
    pub desc: &'static TypeDesc,
    pub class: String,
    pub head: Head,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub attention: Attention,
    /// The dense MLP's width (dense layers of a mixture of experts too).
    pub intermediate_size: u64,
    pub mlp_bias: bool,
    /// Phi-3's fused `gate_up_proj`.
    pub fused_gate_up: bool,
    pub moe: Option<Moe>,
    /// For each layer, whether its MLP is the mixture of experts.
    pub sparse_layers: Vec<bool>,
    /// Where the norms sit around attention and the MLP.
    pub norms: Norms,
    pub max_position_embeddings: u64,
    pub rms_norm_eps: f64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    pub rope_theta: f64,
    /// As written; it changes the rotary frequencies, not the parameters.
    pub rope_scaling: Option<Value>,
    /// The attention window, where the class uses one; no parameters.
    pub sliding_window: Option<u64>,
    /// `sliding_attention` / `full_attention` per layer, where the family has layer types.
    pub layer_types: Vec<String>,
    pub attn_logit_softcapping: Option<f64>,
    pub final_logit_softcapping: Option<f64>,
    /// Width of the rotary part of a head (what its `inv_freq` covers, twice over).
    pub rotary_dim: u64,
    pub defaulted: Vec<Defaulted>,
}

/// A supported family whose class the planner does not know is reported, not guessed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("class {0} is not one the planner knows for this family")]
pub struct UnknownClass(pub String);

impl DecoderConfig {
    /// Reads and resolves a config; `DecoderConfig::resolve` (in `graph/llama.rs`, which can
    /// build the graph) adds the check that the sizes together stay within reach.
    pub(crate) fn read(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let desc = super::types::lookup(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a Llama-lineage model type"))?;
        let family = desc.rules;
        let raw = read_raw(desc, value)?;
        let def = desc.defaults;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, def.vocab_size, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, def.hidden_size, 1 << 18, &mut d)?;
        let intermediate_size =
            size("intermediate_size", raw.intermediate_size, def.intermediate_size, 1 << 22, &mut d)?;
        let num_layers =
            size("num_hidden_layers", raw.num_hidden_layers, def.num_hidden_layers, 10_000, &mut d)?;
        let num_heads =
            size("num_attention_heads", raw.num_attention_heads, def.num_attention_heads, 1 << 16, &mut d)?;
        // Classes whose default is None (Llama, Phi-3, DeepSeek) give every head its own keys.
        let num_kv_heads = size(
            "num_key_value_heads",
            raw.num_key_value_heads,
            def.num_key_value_heads.unwrap_or(num_heads),
            1 << 16,
            &mut d,
        )?;
        let max_position_embeddings = size(
            "max_position_embeddings",
            raw.max_position_embeddings,
            def.max_position_embeddings,
            1 << 30,
            &mut d,
        )?;
        // StarCoder2 names it `norm_epsilon`.
        let rms_norm_eps = raw.rms_norm_eps.or(raw.norm_epsilon).unwrap_or(def.rms_norm_eps);
        let tie_word_embeddings =
            flag("tie_word_embeddings", raw.tie_word_embeddings, def.tie_word_embeddings, &mut d);
        let pad_token_id = match raw.pad_token_id {
            Some(p) => Some(p),
            None => {
                if let Some(p) = def.pad_token_id {
                    d.push(Defaulted { field: "pad_token_id", value: p.to_string() });
                }
                def.pad_token_id
            }
        };
        // Gemma-2 and Gemma-3 take their activation from `hidden_activation` (their mirrors have
        // no `hidden_act`); the others from `hidden_act`.
        let hidden_act = raw
            .hidden_activation
            .clone()
            .or_else(|| raw.hidden_act.clone())
            .unwrap_or_else(|| def.hidden_act.to_string());
        let rope_theta = raw.rope_theta.unwrap_or(def.rope_theta);
        let rope_scaling = match raw.rope_scaling.clone() {
            None | Some(Value::Null) => None,
            Some(v @ Value::Object(_)) => Some(v),
            Some(other) => {
                return Err(ConfigError::field(
                    "rope_scaling",
                    format!("expected an object or null, found {other}"),
                ));
            }
        };

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
        let head_dim = super::check_range(super::Limit { field: "head_dim", max: 1 << 16 }, head_dim)?;

        let attention = match family {
            Family::DeepseekV2 | Family::DeepseekV3 => {
                let q_lora_rank = match value.get("q_lora_rank") {
                    // An explicit null means queries are projected directly.
                    Some(Value::Null) => None,
                    _ => Some(size("q_lora_rank", raw.q_lora_rank, 1536, 1 << 20, &mut d)?),
                };
                Attention::Latent {
                    num_heads,
                    q_lora_rank,
                    kv_lora_rank: size("kv_lora_rank", raw.kv_lora_rank, 512, 1 << 20, &mut d)?,
                    qk_nope_head_dim: size("qk_nope_head_dim", raw.qk_nope_head_dim, 128, 1 << 16, &mut d)?,
                    qk_rope_head_dim: size("qk_rope_head_dim", raw.qk_rope_head_dim, 64, 1 << 16, &mut d)?,
                    v_head_dim: size("v_head_dim", raw.v_head_dim, 128, 1 << 16, &mut d)?,
                    bias: flag("attention_bias", raw.attention_bias, false, &mut d),
                }
            }
            _ => {
                let qkv_bias = bias(desc.qkv_bias, &raw, &mut d);
                // One key for both reads (and records) it once.
                let o_bias =
                    if desc.o_bias == desc.qkv_bias { qkv_bias } else { bias(desc.o_bias, &raw, &mut d) };
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
                Attention::Latent { .. } => bias(b, &raw, &mut d),
            },
            b => bias(b, &raw, &mut d),
        };

        let moe = resolve_moe(family, &raw, value, &mut d)?;
        let sparse_layers = sparse_layers(family, &raw, moe.is_some(), num_layers, &mut d)?;

        let sliding_window = match family {
            _ if desc.window_period.is_some() => {
                Some(size("sliding_window", raw.sliding_window, 4096, 1 << 30, &mut d)?)
            }
            Family::Mistral => Some(size("sliding_window", raw.sliding_window, 4096, 1 << 30, &mut d)?),
            Family::Mixtral | Family::Phi3 => raw.sliding_window,
            // Qwen keeps the window only when `use_sliding_window` is set.
            Family::Qwen2 | Family::Qwen2Moe | Family::Qwen3 | Family::Qwen3Moe => {
                if raw.use_sliding_window.unwrap_or(false) {
                    Some(raw.sliding_window.unwrap_or(4096))
                } else {
                    None
                }
            }
            Family::Gemma2 | Family::Gemma3Text => {
                Some(size("sliding_window", raw.sliding_window, 4096, 1 << 30, &mut d)?)
            }
            _ => None,
        };
        let layer_types = layer_types(desc, &raw, num_layers, &mut d)?;
        let (attn_logit_softcapping, final_logit_softcapping) = match family {
            Family::Gemma2 => (
                Some(raw.attn_logit_softcapping.unwrap_or(50.0)),
                Some(raw.final_logit_softcapping.unwrap_or(30.0)),
            ),
            Family::Gemma3Text => (raw.attn_logit_softcapping, raw.final_logit_softcapping),
            _ => (None, None),
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

        let labels = num_labels(value)?;
        let class = class_or(common, desc.base_class, &mut d);
        let head = classify(desc, &class, labels.0)
            .ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.clone()).to_string()))?;
        if matches!(head, Head::SequenceClassification { .. } | Head::TokenClassification { .. }) {
            classifier_labels(labels, &mut d)?;
        }
        let c = DecoderConfig {
            family,
            desc,
            class,
            head,
            vocab_size,
            hidden_size,
            num_layers,
            attention,
            intermediate_size,
            mlp_bias,
            fused_gate_up: desc.fused,
            moe,
            sparse_layers,
            norms: desc.norms,
            max_position_embeddings,
            rms_norm_eps,
            tie_word_embeddings,
            pad_token_id,
            hidden_act,
            rope_theta,
            rope_scaling,
            sliding_window,
            layer_types,
            attn_logit_softcapping,
            final_logit_softcapping,
            rotary_dim,
            defaulted: d,
        };
        Ok(c)
    }

    pub fn num_heads(&self) -> u64 {
        match self.attention {
            Attention::Grouped { num_heads, .. } | Attention::Latent { num_heads, .. } => num_heads,
        }
    }

    pub fn dims(&self) -> super::Dims {
        let (num_kv_heads, head_dim) = match self.attention {
            Attention::Grouped { num_kv_heads, head_dim, .. } => (num_kv_heads, head_dim),
            // Latent attention expands keys and values per head from the shared latent.
            Attention::Latent { num_heads, qk_nope_head_dim, qk_rope_head_dim, .. } => {
                (num_heads, qk_nope_head_dim + qk_rope_head_dim)
            }
        };
        super::Dims {
            hidden_size: self.hidden_size,
            num_layers: self.num_layers,
            num_heads: self.num_heads(),
            num_kv_heads,
            head_dim,
            intermediate_size: self.intermediate_size,
            vocab_size: self.vocab_size,
            context: self.max_position_embeddings,
            usable_context: self.max_position_embeddings,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: self.moe.as_ref().map(|m| m.num_experts),
            experts_per_token: self.moe.as_ref().and_then(|m| m.experts_per_token),
        }
    }
}

fn resolve_moe(
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
            let num_experts = match raw.num_experts {
                // Qwen's classes build no experts when num_experts is 0: every layer is dense.
                Some(0) => return Ok(None),
                n => size("num_experts", n, if qwen2 { 60 } else { 128 }, 1 << 16, d)?,
            };
            Moe {
                style: MoeStyle::Qwen,
                experts_field: "num_experts",
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
                Some(k) => {
                    Some(super::check_range(super::Limit { field: "num_experts_per_tok", max: 1 << 16 }, k)?)
                }
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
                    super::check_range(super::Limit { field: "n_shared_experts", max: 1 << 16 }, n)?
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

fn sparse_layers(
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

fn layer_types(
    desc: &TypeDesc,
    raw: &Raw,
    num_layers: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Vec<String>, ConfigError> {
    let family = desc.rules;
    let given = match family {
        _ if desc.window_period.is_some() => raw.layer_types.clone(),
        Family::Qwen2 | Family::Qwen3 | Family::Gemma2 | Family::Gemma3Text => raw.layer_types.clone(),
        _ => return Ok(vec![]),
    };
    if let Some(types) = given {
        if types.len() as u64 != num_layers {
            return Err(ConfigError::field(
                "layer_types",
                format!("{} entries for {num_layers} layers", types.len()),
            ));
        }
        if let Some(bad) = types.iter().find(|t| *t != "sliding_attention" && *t != "full_attention") {
            return Err(ConfigError::field(
                "layer_types",
                format!("{bad:?} is not sliding_attention or full_attention"),
            ));
        }
        return Ok(types);
    }
    let kind = |sliding: bool| if sliding { "sliding_attention" } else { "full_attention" }.to_string();
    let types: Vec<String> = match (family, desc.window_period) {
        // Sliding layers, then a full one every `period` layers (OLMo 3: three, then one).
        (_, Some(period)) => (0..num_layers).map(|i| kind((i + 1) % period.max(1) != 0)).collect(),
        // Gemma-2 alternates, starting with a sliding layer.
        (Family::Gemma2, None) => (0..num_layers).map(|i| kind((i + 1) % 2 != 0)).collect(),
        // Gemma-3: five sliding layers, then a full one.
        (Family::Gemma3Text, None) => {
            let pattern = raw.sliding_window_pattern.unwrap_or(6).max(1);
            (0..num_layers).map(|i| kind((i + 1) % pattern != 0)).collect()
        }
        // Qwen: sliding only from max_window_layers on, and only with use_sliding_window.
        _ => {
            let sliding = raw.use_sliding_window.unwrap_or(false);
            let from = raw.max_window_layers.unwrap_or(28);
            (0..num_layers).map(|i| kind(sliding && i >= from)).collect()
        }
    };
    d.push(Defaulted {
        field: "layer_types",
        value: format!("{} layers by the class's pattern", types.len()),
    });
    Ok(types)
}

/// The head a class name builds, if the type's modeling file defines the class.
fn classify(desc: &TypeDesc, class: &str, num_labels: u64) -> Option<Head> {
    let rest = class.strip_prefix(desc.classes)?;
    let h = desc.heads;
    Some(match (desc.rules, rest) {
        (Family::Gemma3Text, "TextModel") => Head::Model,
        (Family::Gemma3Text, "TextForSequenceClassification") => Head::SequenceClassification { num_labels },
        (Family::Gemma3Text, "Model" | "ForSequenceClassification") => return None,
        (_, "Model") => Head::Model,
        (_, "ForCausalLM") => Head::CausalLm,
        (_, "ForSequenceClassification") if h.sequence => Head::SequenceClassification { num_labels },
        (_, "ForTokenClassification") if h.token => Head::TokenClassification { num_labels },
        (_, "ForQuestionAnswering") if h.qa => Head::QuestionAnswering,
        _ => return None,
    })
}
