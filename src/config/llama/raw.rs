//! The keys a type reads, as published: each optional, and only those its description lists.

use serde::Deserialize;
use serde_json::Value;

use super::super::types::{Bias, SHARED_KEYS, TypeDesc};
use super::super::{ConfigError, Defaulted, deserialize_raw, flag};

/// Every key any type of the lineage reads, each optional. Only the keys a type's description
/// lists are read into it (see [`read_raw`]); the others stay unset.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Raw {
    pub(super) vocab_size: Option<u64>,
    pub(super) hidden_size: Option<u64>,
    pub(super) intermediate_size: Option<u64>,
    pub(super) num_hidden_layers: Option<u64>,
    pub(super) num_attention_heads: Option<u64>,
    pub(super) num_key_value_heads: Option<u64>,
    pub(super) head_dim: Option<u64>,
    pub(super) hidden_act: Option<String>,
    pub(super) hidden_activation: Option<String>,
    pub(super) max_position_embeddings: Option<u64>,
    pub(super) rms_norm_eps: Option<f64>,
    pub(super) tie_word_embeddings: Option<bool>,
    pub(super) pad_token_id: Option<u64>,
    pub(super) rope_theta: Option<f64>,
    pub(super) rope_scaling: Option<Value>,
    pub(super) attention_bias: Option<bool>,
    pub(super) attention_out_bias: Option<bool>,
    pub(super) use_bias: Option<bool>,
    pub(super) norm_epsilon: Option<f64>,
    pub(super) mlp_bias: Option<bool>,
    pub(super) qkv_bias: Option<bool>,
    pub(super) sliding_window: Option<u64>,
    pub(super) use_sliding_window: Option<bool>,
    pub(super) layer_types: Option<Vec<String>>,
    pub(super) sliding_window_pattern: Option<u64>,
    pub(super) max_window_layers: Option<u64>,
    pub(super) final_logit_softcapping: Option<f64>,
    pub(super) attn_logit_softcapping: Option<f64>,
    pub(super) partial_rotary_factor: Option<f64>,
    pub(super) num_local_experts: Option<u64>,
    pub(super) num_experts: Option<u64>,
    pub(super) n_routed_experts: Option<u64>,
    pub(super) num_experts_per_tok: Option<u64>,
    pub(super) moe_intermediate_size: Option<u64>,
    pub(super) shared_expert_intermediate_size: Option<u64>,
    pub(super) n_shared_experts: Option<u64>,
    pub(super) decoder_sparse_step: Option<u64>,
    pub(super) mlp_only_layers: Option<Vec<u64>>,
    pub(super) first_k_dense_replace: Option<u64>,
    pub(super) q_lora_rank: Option<u64>,
    pub(super) kv_lora_rank: Option<u64>,
    pub(super) qk_nope_head_dim: Option<u64>,
    pub(super) qk_rope_head_dim: Option<u64>,
    pub(super) v_head_dim: Option<u64>,
}

/// Reads the keys the type's class reads, and only those: a key the class ignores is not
/// type-checked, as transformers never looks at it.
pub(super) fn read_raw(desc: &TypeDesc, value: &Value) -> Result<Raw, ConfigError> {
    let Some(obj) = value.as_object() else { return Err(ConfigError::NotObject) };
    let read: serde_json::Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| SHARED_KEYS.contains(&k.as_str()) || desc.keys.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    deserialize_raw(&Value::Object(read))
}

/// A bias switch as the description gives it.
pub(super) fn bias(b: Bias, raw: &Raw, d: &mut Vec<Defaulted>) -> bool {
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
