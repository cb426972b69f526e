//! HRM-Text (`hrm_text`, Sapient's hierarchical reasoning model): two stacks of
//! `num_layers_per_stack` layers, a low-level `L_module` and a high-level `H_module`, run
//! `H_cycles x (L_cycles + 1)` times over the sequence. Built by `graph/hrm_text.rs`.
//!
//! `HrmTextConfig.__post_init__` reads a file without `num_layers_per_stack` as a first
//! construction: its `num_hidden_layers` is the per-stack count, then rewritten to the slots
//! (per stack x H_cycles x (L_cycles + 1)); a saved config carries both.

use serde::Deserialize;
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

#[derive(Debug, Deserialize)]
#[allow(non_snake_case)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    head_dim: Option<u64>,
    max_position_embeddings: Option<u64>,
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    tie_word_embeddings: Option<bool>,
    num_layers_per_stack: Option<u64>,
    H_cycles: Option<u64>,
    L_cycles: Option<u64>,
    hidden_act: Option<String>,
}

#[derive(Debug, Clone)]
pub struct HrmTextConfig {
    pub class: String,
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub head_dim: u64,
    pub max_position_embeddings: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub tie_word_embeddings: bool,
    /// Layers each stack holds (their parameters).
    pub per_stack: u64,
    /// Layer applications per forward pass, each with its own KV-cache slot.
    pub slots: u64,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

fn flag(v: Option<bool>, field: &'static str, default: bool, d: &mut Vec<Defaulted>) -> bool {
    v.unwrap_or_else(|| {
        d.push(Defaulted { field, value: default.to_string() });
        default
    })
}

impl HrmTextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let (class, causal_lm) = super::cpmant::model_or_causal_lm(common, "HrmText", &mut d)?;
        let h_cycles = size("H_cycles", raw.H_cycles, 2, 1 << 10, &mut d)?;
        let l_cycles = raw.L_cycles.unwrap_or_else(|| {
            d.push(Defaulted { field: "L_cycles", value: "3".into() });
            3
        });
        if l_cycles > 1 << 10 {
            return Err(ConfigError::field(
                "L_cycles",
                format!("{l_cycles} is beyond any real model (at most 1024)"),
            ));
        }
        let per_stack = match raw.num_layers_per_stack {
            Some(n) => size("num_layers_per_stack", Some(n), 0, 10_000, &mut d)?,
            None => size("num_hidden_layers", raw.num_hidden_layers, 16, 10_000, &mut d)?,
        };
        let slots = per_stack.saturating_mul(h_cycles).saturating_mul(l_cycles.saturating_add(1));
        Ok(HrmTextConfig {
            class,
            causal_lm,
            vocab_size: size("vocab_size", raw.vocab_size, 151808, 100_000_000, &mut d)?,
            hidden_size: size("hidden_size", raw.hidden_size, 1536, 1 << 18, &mut d)?,
            intermediate_size: size("intermediate_size", raw.intermediate_size, 4096, 1 << 22, &mut d)?,
            num_heads: size("num_attention_heads", raw.num_attention_heads, 12, 1 << 16, &mut d)?,
            head_dim: size("head_dim", raw.head_dim, 128, 1 << 16, &mut d)?,
            max_position_embeddings: size(
                "max_position_embeddings",
                raw.max_position_embeddings,
                2048,
                1 << 30,
                &mut d,
            )?,
            attention_bias: flag(raw.attention_bias, "attention_bias", false, &mut d),
            mlp_bias: flag(raw.mlp_bias, "mlp_bias", false, &mut d),
            tie_word_embeddings: flag(raw.tie_word_embeddings, "tie_word_embeddings", false, &mut d),
            per_stack,
            slots,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "silu".into()),
            defaulted: d,
        })
    }
}
