//! config.json, read the way transformers reads it: a raw serde mirror per family (the keys as
//! published, each optional), resolved into a struct with no optional structural field. Every
//! value that came from the config class's defaults rather than the file is recorded, so the page
//! can say which numbers rest on a default.

pub mod albert;
pub mod audio_lm;
pub mod bart;
pub mod bert;
pub mod bloom;
pub mod blt;
pub mod canine;
pub mod clip_text;
pub mod composite;
mod composite_text;
pub mod cpmant;
pub mod dbrx;
pub mod deberta_v2;
pub mod decoder;
pub mod deepseek_v4;
mod deepseek_v4_layers;
mod dims;
pub mod distilbert;
pub mod doc_text;
pub mod doge_dory;
pub mod dory;
pub mod electra;
pub mod enc_common;
pub mod encoder_decoder;
pub mod encoders;
pub mod esmc;
pub mod eurobert;
pub mod falcon;
pub mod fsmt;
pub mod funnel;
pub mod gemma3n;
pub mod gemma4;
pub mod gemma4_assistant;
pub mod gpt2;
pub mod gpt_bigcode;
pub mod hrm_text;
pub mod inkling;
pub mod inkling2;
pub mod inkling2_loop;
mod inkling_common;
pub mod jamba;
pub mod jetmoe;
pub mod layoutlmv3;
pub mod llama;
pub mod lxmert;
pub mod mimi;
pub mod mllama;
pub mod mobilebert;
pub mod modernbert;
pub mod modernvbert;
mod moe_read;
pub mod moshi;
pub mod moshi_depth;
pub mod mpnet;
pub mod neomme;
pub mod nllb_moe;
pub mod pegasus_x;
pub mod perceiver;
pub mod phi;
pub mod projectors;
pub mod prophetnet;
pub mod qwen3_vl;
pub mod qwen4_exp;
mod qwen4_exp_layers;
pub mod qwen_vl;
mod read;
pub mod reformer;
pub mod release;
pub mod seq2seq;
pub mod seq2seq_misc;
pub mod spec;
pub mod spec_axk2;
pub mod spec_bailing_hybrid;
pub mod spec_dec5;
pub mod spec_dec6;
pub mod spec_dense;
pub mod spec_dots3;
pub mod spec_enc6;
mod spec_experts;
mod spec_extra;
pub mod spec_gpt;
mod spec_gpt_classic;
mod spec_gpt_more;
mod spec_gpt_post;
mod spec_gpt_read;
mod spec_gpt_types;
pub mod spec_granite;
pub mod spec_hybrid;
mod spec_hybrid_read;
pub mod spec_hyv4;
mod spec_keys;
pub mod spec_linear;
pub mod spec_llama_like;
pub mod spec_longcat;
pub mod spec_m3;
pub mod spec_mixers;
pub mod spec_mla;
pub mod spec_moe;
pub mod spec_moe3;
pub mod spec_newdec;
pub mod spec_olmo_hybrid;
pub mod spec_own;
mod spec_patterns;
mod spec_read;
pub mod spec_recur;
pub mod spec_recur_gemma;
pub mod spec_recur_lfm;
pub mod spec_shared;
mod spec_txb;
pub mod ssm;
pub mod t5;
pub mod t5_types;
pub mod t5gemma;
pub mod types;
pub mod vit;
pub mod whisper;
pub mod wrappers;
pub mod xlm;
pub mod xlnet;
pub mod zamba;
pub mod zamba2;
pub mod zamba_core;
pub mod zaya;

pub use dims::Dims;
pub(crate) use dims::dividing_heads;
pub(crate) use dims::mha_dims;
pub use types::QkNorm;

use serde::Serialize;
use serde_json::Value;

/// Why a config cannot be planned. The field is named as a JSON path (`hidden_size`,
/// `rope_scaling.factor`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    #[error("not valid JSON: {0}")]
    NotJson(String),
    #[error("the top level is not a JSON object")]
    NotObject,
    #[error("field `{field}`: {reason}")]
    Field { field: String, reason: String },
}

impl ConfigError {
    pub fn field(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ConfigError::Field { field: field.into(), reason: reason.into() }
    }
}

/// A config value that came from the config class's default, not from the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Defaulted {
    pub field: &'static str,
    pub value: String,
}

/// Fields every family shares, read before dispatch.
#[derive(Debug, Clone, Serialize)]
pub struct Common {
    pub model_type: String,
    /// `architectures[0]`, when the config names one.
    pub architecture: Option<String>,
    pub torch_dtype: Option<String>,
}

/// Keys worth showing for a family the planner does not support yet, in display order.
const UNSUPPORTED_FACT_KEYS: &[&str] = &[
    "hidden_size",
    "d_model",
    "n_embd",
    "num_hidden_layers",
    "num_layers",
    "n_layer",
    "num_attention_heads",
    "n_head",
    "num_key_value_heads",
    "intermediate_size",
    "d_ff",
    "vocab_size",
    "max_position_embeddings",
    "n_positions",
    "num_local_experts",
];

/// The text with each bare `NaN`, `Infinity` and `-Infinity` outside a string quoted, or None when
/// it has none.
fn python_constants_as_strings(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 16);
    let (mut in_string, mut escaped, mut changed) = (false, false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if let Some(word) = ["-Infinity", "Infinity", "NaN"].iter().find(|w| rest.starts_with(**w)) {
            out.push('"');
            out.push_str(word);
            out.push('"');
            rest = &rest[word.len()..];
            changed = true;
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    changed.then_some(out)
}

/// Parses config.json text into the fields every family shares and the whole JSON value, which
/// the family's resolver then reads (see [`crate::family`]).
pub fn parse(text: &str) -> Result<(Common, Value), ConfigError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        // Python's json module writes float('inf') and float('nan') as bare `Infinity` and `NaN`
        // (transformers' Mamba-2 configs save `"time_step_limit": [0.0, Infinity]`). Read as the
        // strings "Infinity" and "NaN": a key the planner never reads is ignored as before, and a
        // key it reads as a number fails naming that key, never defaults.
        Err(e) => match python_constants_as_strings(text) {
            Some(fixed) => serde_json::from_str(&fixed).map_err(|_| ConfigError::NotJson(e.to_string()))?,
            None => return Err(ConfigError::NotJson(e.to_string())),
        },
    };
    let obj = value.as_object().ok_or(ConfigError::NotObject)?;
    let model_type = match obj.get("model_type") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::String(_)) => return Err(ConfigError::field("model_type", "is empty")),
        Some(other) => {
            return Err(ConfigError::field("model_type", format!("expected a string, found {other}")));
        }
        None => {
            return Err(ConfigError::field("model_type", "missing: the family cannot be told without it"));
        }
    };
    let architecture = match obj.get("architectures") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => match a.first() {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("expected a class name, found {other}"),
                ));
            }
        },
        Some(other) => {
            return Err(ConfigError::field("architectures", format!("expected a list, found {other}")));
        }
    };
    let torch_dtype = match obj.get("torch_dtype").or_else(|| obj.get("dtype")) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let common = Common { model_type, architecture, torch_dtype };
    Ok((common, value))
}

/// Size-like keys of a config, as written: what the page of an unsupported family shows.
pub fn facts(value: &Value) -> Vec<(String, String)> {
    UNSUPPORTED_FACT_KEYS
        .iter()
        .filter_map(|k| value.get(*k).map(|v| (k.to_string(), v.to_string())))
        .collect()
}

/// Deserialises a family's raw config, naming the offending field on error.
pub(crate) fn deserialize_raw<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, ConfigError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let field = e.path().to_string();
        ConfigError::Field { field, reason: e.into_inner().to_string() }
    })
}

/// Upper bounds that no real model reaches; past them a config is a mistake, and the arithmetic
/// downstream stays far from overflow.
pub(crate) struct Limit {
    pub field: &'static str,
    pub max: u64,
}

pub(crate) fn check_range(limit: Limit, value: u64) -> Result<u64, ConfigError> {
    if value == 0 {
        return Err(ConfigError::field(limit.field, "must be at least 1, found 0"));
    }
    if value > limit.max {
        return Err(ConfigError::field(
            limit.field,
            format!("{value} is beyond any real model (at most {})", limit.max),
        ));
    }
    Ok(value)
}

/// Resolves one size field: the file's value or the config class's default (recorded), checked
/// against its bounds.
pub(crate) fn size(
    field: &'static str,
    value: Option<u64>,
    default: u64,
    max: u64,
    defaulted: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    let v = match value {
        Some(v) => v,
        None => {
            defaulted.push(Defaulted { field, value: default.to_string() });
            default
        }
    };
    check_range(Limit { field, max }, v)
}

/// A value read under one of two names: transformers' `attribute_map` turns the standard name
/// (`hidden_size`) into the family's own (`dim`) in `PretrainedConfig.__init__`, which runs after
/// the class has set its own key, so the standard name wins when a file has both.
pub(crate) fn aliased<T>(own: Option<T>, standard: Option<T>) -> Option<T> {
    standard.or(own)
}

/// A key transformers reads under two names (its `attribute_map`, or a legacy keyword popped in
/// `__init__`): the alias is applied after the class's own argument, so it wins when the file
/// writes both. Returns the key the value came from, so an error names the key the file wrote.
pub(crate) fn alias_or<T>(
    alias: (&'static str, Option<T>),
    own: (&'static str, Option<T>),
) -> (&'static str, Option<T>) {
    if alias.1.is_some() { alias } else { own }
}

/// A boolean switch: the file's value or the config class's default (recorded).
pub(crate) fn flag(
    field: &'static str,
    value: Option<bool>,
    default: bool,
    defaulted: &mut Vec<Defaulted>,
) -> bool {
    value.unwrap_or_else(|| {
        defaulted.push(Defaulted { field, value: default.to_string() });
        default
    })
}

/// The class planned: `architectures[0]`, or the family's base model when the file names none.
pub(crate) fn class_or(common: &Common, default: &str, defaulted: &mut Vec<Defaulted>) -> String {
    common.architecture.clone().unwrap_or_else(|| {
        defaulted.push(Defaulted { field: "architectures", value: default.into() });
        default.to_string()
    })
}

#[derive(serde::Deserialize)]
struct RawLabels {
    id2label: Option<std::collections::BTreeMap<String, String>>,
    num_labels: Option<u64>,
}

/// `num_labels` as `PretrainedConfig` reads it: the length of `id2label` when the file has one,
/// else `num_labels`, else 2. The flag says whether the default was taken.
pub(crate) fn num_labels(value: &Value) -> Result<(u64, bool), ConfigError> {
    num_labels_or(value, 2)
}

/// [`num_labels`] for a config class whose own default differs (`BartConfig`: 3).
pub(crate) fn num_labels_or(value: &Value, default: u64) -> Result<(u64, bool), ConfigError> {
    let raw: RawLabels = deserialize_raw(value)?;
    Ok(match (&raw.id2label, raw.num_labels) {
        (Some(map), _) if !map.is_empty() => (map.len() as u64, false),
        (_, Some(n)) => (n, false),
        _ => (default, true),
    })
}

/// A classifier's label count, for a class that builds one: recorded when defaulted, and bounded.
pub(crate) fn classifier_labels(
    (n, was_defaulted): (u64, bool),
    defaulted: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    if was_defaulted {
        defaulted.push(Defaulted { field: "num_labels", value: n.to_string() });
    }
    if n == 0 || n > 1 << 20 {
        return Err(ConfigError::field("num_labels", format!("{n} labels is not a usable classifier")));
    }
    Ok(n)
}

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;
