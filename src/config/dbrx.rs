//! DBRX (`dbrx`), read as transformers' `DbrxConfig` reads it, through the described types'
//! reader (`config/spec_keys.rs`): `d_model`, `n_heads`, `n_layers` and `max_seq_len` at the top
//! (or their `attribute_map` names), the key/value heads in the nested `attn_config`
//! (`kv_n_heads`), the experts in the nested `ffn_config` (`ffn_hidden_size`, `moe_num_experts`,
//! `moe_top_k`, `ffn_act_fn.name`), each with the sub-config class's default. An error in a
//! nested key names it with its parent (`ffn_config.moe_top_k`).

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::{Common, ConfigError, Defaulted, Dims};
use Dv::{B, Null, U};
use HeadKind::{CausalLm, Model};

const KEYS: Spec = Spec {
    model_type: "dbrx",
    classes: classes!("Dbrx": Model, ForCausalLM),
    keys: keys![vocab_size: U(32000), d_model: U(2048), n_heads: U(16), n_layers: U(24),
        max_seq_len: U(2048), tie_word_embeddings: B(false), pad_token_id: Null],
    aliases: &[
        ("hidden_size", "d_model"),
        ("num_attention_heads", "n_heads"),
        ("num_hidden_layers", "n_layers"),
        ("max_position_embeddings", "max_seq_len"),
    ],
    ..BASE
};

/// `DbrxAttentionConfig` and `DbrxFFNConfig`.
const ATTN_KEYS: Spec = Spec { keys: keys![kv_n_heads: U(1)], ..KEYS };
const FFN_KEYS: Spec =
    Spec { keys: keys![ffn_hidden_size: U(3584), moe_num_experts: U(4), moe_top_k: U(1)], ..KEYS };

#[derive(Debug, Clone, Serialize)]
pub struct DbrxConfig {
    pub class: String,
    pub head: DecoderHead,
    /// Key/value heads from `attn_config`, experts and their width from `ffn_config`.
    pub dims: Dims,
    pub ffn_act_fn: String,
    pub defaulted: Vec<Defaulted>,
}

/// Reads a nested sub-config's keys; an error names the key under its parent.
fn nested<T>(
    value: &Value,
    parent: &str,
    spec: &'static Spec,
    d: &mut Vec<Defaulted>,
    read: impl FnOnce(&mut Reader) -> Result<T, ConfigError>,
) -> Result<T, ConfigError> {
    let empty = Value::Object(Default::default());
    let sub = match value.get(parent) {
        None | Some(Value::Null) => &empty,
        Some(v) => v,
    };
    let mut r = Reader { spec, value: sub, defaulted: vec![] };
    let out = read(&mut r).map_err(|e| match e {
        ConfigError::Field { field, reason } => {
            ConfigError::Field { field: format!("{parent}.{field}"), reason }
        }
        other => other,
    });
    d.append(&mut r.defaulted);
    out
}

impl DbrxConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut r = Reader { spec: &KEYS, value, defaulted: vec![] };
        let heads = r.size("n_heads", 1 << 16)?;
        let mha = Dims::mha(
            r.size("d_model", 1 << 18)?,
            r.size("n_layers", 10_000)?,
            heads,
            0,
            r.size("vocab_size", 100_000_000)?,
            r.size("max_seq_len", 1 << 30)?,
        );
        // DbrxConfig.validate_architecture refuses tied embeddings.
        if r.flag("tie_word_embeddings")? {
            return Err(ConfigError::field("tie_word_embeddings", "DBRX does not support tied embeddings"));
        }
        let pad_token_id = r.opt_u("pad_token_id")?;
        let mut d = r.defaulted;
        let kv = nested(value, "attn_config", &ATTN_KEYS, &mut d, |r| r.size("kv_n_heads", 1 << 16))?;
        if heads % kv != 0 {
            // The attention repeats each key/value head over a whole group of query heads.
            return Err(ConfigError::field(
                "attn_config.kv_n_heads",
                format!("{heads} heads do not split into groups over {kv} key/value heads"),
            ));
        }
        let (ffn, n, k) = nested(value, "ffn_config", &FFN_KEYS, &mut d, |r| {
            let (n, k) = (r.size("moe_num_experts", 1 << 16)?, r.size("moe_top_k", 1 << 16)?);
            if k > n {
                return Err(ConfigError::field(
                    "moe_top_k",
                    format!("{k} experts per token, but only {n} experts"),
                ));
            }
            Ok((r.size("ffn_hidden_size", 1 << 22)?, n, k))
        })?;
        let ffn_act_fn = activation(value.get("ffn_config").and_then(|f| f.get("ffn_act_fn")))?;
        let (class, head) = head(&KEYS, common, value, &mut d)?;
        let dims = Dims {
            num_kv_heads: kv,
            intermediate_size: ffn,
            pad_token_id,
            layer_norm_eps: 1e-5,
            num_experts: Some(n),
            experts_per_token: Some(k),
            ..mha
        };
        Ok(DbrxConfig { class, head, dims, ffn_act_fn, defaulted: d })
    }

    pub fn dims(&self) -> Dims {
        self.dims.clone()
    }
}

/// `ffn_act_fn` is a dict whose `name` picks the activation (silu by default).
fn activation(v: Option<&Value>) -> Result<String, ConfigError> {
    let bad = |v: &Value| {
        ConfigError::field(
            "ffn_config.ffn_act_fn",
            format!("expected an object such as {{\"name\": \"silu\"}}, found {v}"),
        )
    };
    match v {
        None | Some(Value::Null) => Ok("silu".into()),
        Some(Value::Object(a)) => match a.get("name") {
            None => Ok("silu".into()),
            Some(Value::String(name)) => Ok(name.clone()),
            Some(n) => {
                Err(ConfigError::field("ffn_config.ffn_act_fn.name", format!("expected a string, found {n}")))
            }
        },
        Some(other) => Err(bad(other)),
    }
}
