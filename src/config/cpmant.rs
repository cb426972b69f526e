//! CPM-Ant (`cpmant`, OpenBMB's CPM-Ant 10B): a pre-LN decoder with T5-style bias-free
//! RMS-like norms, a gated GELU feed-forward, a learned relative-position bias shared by all
//! layers (`position_bias`, segment pairs beside the distance buckets) and an input table that
//! also holds `prompt_types x prompt_length` prompt rows. Built by `graph/cpmant.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_attention_heads: Option<u64>,
    dim_head: Option<u64>,
    dim_ff: Option<u64>,
    num_hidden_layers: Option<u64>,
    position_bias_num_buckets: Option<u64>,
    position_bias_max_distance: Option<u64>,
    prompt_types: Option<u64>,
    prompt_length: Option<u64>,
    segment_types: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct CpmAntConfig {
    pub class: String,
    /// `CpmAntForCausalLM` (its own, never tied, `lm_head`) or the bare `CpmAntModel`.
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub head_dim: u64,
    pub ffn: u64,
    pub num_layers: u64,
    pub buckets: u64,
    pub max_distance: u64,
    pub prompt_rows: u64,
    pub segment_types: u64,
    pub defaulted: Vec<Defaulted>,
}

/// The class planned, and whether it is the causal LM: `<prefix>Model` (the default) or
/// `<prefix>ForCausalLM`, the only two these one-of-a-kind decoders define.
pub(crate) fn model_or_causal_lm(
    common: &Common,
    prefix: &str,
    d: &mut Vec<Defaulted>,
) -> Result<(String, bool), ConfigError> {
    let class = class_or(common, &format!("{prefix}Model"), d);
    match class.strip_prefix(prefix) {
        Some("Model") => Ok((class, false)),
        Some("ForCausalLM") => Ok((class, true)),
        _ => Err(super::read::unknown_class(&class)),
    }
}

impl CpmAntConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let (class, causal_lm) = model_or_causal_lm(common, "CpmAnt", &mut d)?;
        let vocab_size = size("vocab_size", raw.vocab_size, 30720, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 4096, 1 << 18, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 32, 1 << 16, &mut d)?;
        let head_dim = size("dim_head", raw.dim_head, 128, 1 << 16, &mut d)?;
        let ffn = size("dim_ff", raw.dim_ff, 10240, 1 << 22, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 48, 10_000, &mut d)?;
        let buckets = size("position_bias_num_buckets", raw.position_bias_num_buckets, 512, 1 << 20, &mut d)?;
        let max_distance =
            size("position_bias_max_distance", raw.position_bias_max_distance, 2048, 1 << 30, &mut d)?;
        let prompt_types = size("prompt_types", raw.prompt_types, 32, 1 << 16, &mut d)?;
        let prompt_length = size("prompt_length", raw.prompt_length, 32, 1 << 16, &mut d)?;
        let segment_types = size("segment_types", raw.segment_types, 32, 1 << 16, &mut d)?;
        Ok(CpmAntConfig {
            class,
            causal_lm,
            vocab_size,
            hidden_size,
            num_heads,
            head_dim,
            ffn,
            num_layers,
            buckets,
            max_distance,
            prompt_rows: prompt_types * prompt_length,
            segment_types,
            defaulted: d,
        })
    }
}
