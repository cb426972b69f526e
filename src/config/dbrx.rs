//! DBRX (`dbrx`), read as transformers' `DbrxConfig` reads it: `d_model`, `n_heads`, `n_layers`
//! and `max_seq_len` at the top (or their `attribute_map` names `hidden_size`,
//! `num_attention_heads`, `num_hidden_layers`, `max_position_embeddings`), the key/value heads in
//! the nested `attn_config` (`kv_n_heads`), the experts in the nested `ffn_config`
//! (`ffn_hidden_size`, `moe_num_experts`, `moe_top_k`, `ffn_act_fn.name`), each with the
//! sub-config class's default.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::DecoderHead;
use super::{Common, ConfigError, Defaulted, alias_or, deserialize_raw, size};

#[derive(Debug, Default, Deserialize)]
struct RawAttn {
    kv_n_heads: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
struct RawFfn {
    ffn_hidden_size: Option<u64>,
    moe_num_experts: Option<u64>,
    moe_top_k: Option<u64>,
    ffn_act_fn: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    d_model: Option<u64>,
    hidden_size: Option<u64>,
    n_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    n_layers: Option<u64>,
    num_hidden_layers: Option<u64>,
    max_seq_len: Option<u64>,
    max_position_embeddings: Option<u64>,
    attn_config: Option<RawAttn>,
    ffn_config: Option<RawFfn>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DbrxConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub d_model: u64,
    pub n_heads: u64,
    pub kv_n_heads: u64,
    pub n_layers: u64,
    pub max_seq_len: u64,
    pub ffn_hidden_size: u64,
    pub moe_num_experts: u64,
    pub moe_top_k: u64,
    pub ffn_act_fn: String,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

impl DbrxConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 32000, 100_000_000, &mut d)?;
        let (f, v) = alias_or(("hidden_size", raw.hidden_size), ("d_model", raw.d_model));
        let d_model = size(f, v, 2048, 1 << 18, &mut d)?;
        let (f, v) = alias_or(("num_attention_heads", raw.num_attention_heads), ("n_heads", raw.n_heads));
        let n_heads = size(f, v, 16, 1 << 16, &mut d)?;
        let (f, v) = alias_or(("num_hidden_layers", raw.num_hidden_layers), ("n_layers", raw.n_layers));
        let n_layers = size(f, v, 24, 10_000, &mut d)?;
        let (f, v) = alias_or(
            ("max_position_embeddings", raw.max_position_embeddings),
            ("max_seq_len", raw.max_seq_len),
        );
        let max_seq_len = size(f, v, 2048, 1 << 30, &mut d)?;
        let attn = raw.attn_config.unwrap_or_default();
        let kv_n_heads = size("attn_config.kv_n_heads", attn.kv_n_heads, 1, 1 << 16, &mut d)?;
        if n_heads % kv_n_heads != 0 {
            // The attention repeats each key/value head over a whole group of query heads.
            return Err(ConfigError::field(
                "attn_config.kv_n_heads",
                format!("{n_heads} heads do not split into groups over {kv_n_heads} key/value heads"),
            ));
        }
        let ffn = raw.ffn_config.unwrap_or_default();
        let ffn_hidden_size = size("ffn_config.ffn_hidden_size", ffn.ffn_hidden_size, 3584, 1 << 22, &mut d)?;
        let moe_num_experts = size("ffn_config.moe_num_experts", ffn.moe_num_experts, 4, 1 << 16, &mut d)?;
        let moe_top_k = size("ffn_config.moe_top_k", ffn.moe_top_k, 1, 1 << 16, &mut d)?;
        if moe_top_k > moe_num_experts {
            return Err(ConfigError::field(
                "ffn_config.moe_top_k",
                format!("{moe_top_k} experts per token, but only {moe_num_experts} experts"),
            ));
        }
        // DbrxFFNConfig: `ffn_act_fn` is a dict whose `name` picks the activation (silu by default).
        let ffn_act_fn = match &ffn.ffn_act_fn {
            None | Some(Value::Null) => "silu".to_string(),
            Some(Value::Object(a)) => match a.get("name") {
                None => "silu".to_string(),
                Some(Value::String(name)) => name.clone(),
                Some(v) => {
                    return Err(ConfigError::field(
                        "ffn_config.ffn_act_fn.name",
                        format!("expected a string, found {v}"),
                    ));
                }
            },
            Some(v) => {
                return Err(ConfigError::field(
                    "ffn_config.ffn_act_fn",
                    format!("expected an object such as {{\"name\": \"silu\"}}, found {v}"),
                ));
            }
        };
        // DbrxConfig.validate_architecture refuses tied embeddings.
        if raw.tie_word_embeddings == Some(true) {
            return Err(ConfigError::field("tie_word_embeddings", "DBRX does not support tied embeddings"));
        }
        let (class, head) = classify(common, &mut d)?;
        Ok(DbrxConfig {
            class,
            head,
            vocab_size,
            d_model,
            n_heads,
            kv_n_heads,
            n_layers,
            max_seq_len,
            ffn_hidden_size,
            moe_num_experts,
            moe_top_k,
            ffn_act_fn,
            pad_token_id: raw.pad_token_id,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.kv_n_heads,
            pad_token_id: self.pad_token_id,
            layer_norm_eps: 1e-5,
            num_experts: Some(self.moe_num_experts),
            experts_per_token: Some(self.moe_top_k),
            ..super::Dims::mha(
                self.d_model,
                self.n_layers,
                self.n_heads,
                self.ffn_hidden_size,
                self.vocab_size,
                self.max_seq_len,
            )
        }
    }
}

/// The modeling file defines `DbrxModel` and `DbrxForCausalLM` only.
fn classify(common: &Common, d: &mut Vec<Defaulted>) -> Result<(String, DecoderHead), ConfigError> {
    let class = super::class_or(common, "DbrxModel", d);
    let head = match class.as_str() {
        "DbrxModel" => DecoderHead::Model,
        "DbrxForCausalLM" => DecoderHead::CausalLm,
        _ => {
            return Err(ConfigError::field(
                "architectures[0]",
                format!("class {class} is not one the planner knows for this family"),
            ));
        }
    };
    Ok((class, head))
}
