//! NLLB-MoE: M2M-100's keys and layout (`seq2seq::NLLB_MOE`, read by the BART reader) plus the
//! experts' keys read here: `num_experts`, `encoder_sparse_step`, `decoder_sparse_step`,
//! `router_bias`.

use serde::Deserialize;
use serde_json::Value;

use super::bart::BartConfig;
use super::{Common, ConfigError, Defaulted, Limit, check_range, deserialize_raw, flag};

#[derive(Debug, Deserialize)]
struct Raw {
    num_experts: Option<u64>,
    encoder_sparse_step: Option<u64>,
    decoder_sparse_step: Option<u64>,
    router_bias: Option<bool>,
}

#[derive(Debug, Clone)]
pub struct NllbMoeConfig {
    /// Everything M2M-100 reads; its `defaulted` also holds the experts' defaults.
    pub bart: BartConfig,
    pub num_experts: u64,
    /// Layer `i` is sparse when `(i + 1) % step == 0`; a step of 0 makes none sparse.
    pub encoder_sparse_step: u64,
    pub decoder_sparse_step: u64,
    pub router_bias: bool,
}

/// A count the config class accepts at 0 (a step of 0: no sparse layer).
fn count(
    field: &'static str,
    v: Option<u64>,
    default: u64,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    match v {
        Some(0) => Ok(0),
        Some(n) => check_range(Limit { field, max: 10_000 }, n),
        None => {
            d.push(Defaulted { field, value: default.to_string() });
            Ok(default)
        }
    }
}

impl NllbMoeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut bart = BartConfig::resolve(value, common)?;
        let raw: Raw = deserialize_raw(value)?;
        let d = &mut bart.defaulted;
        let num_experts = match raw.num_experts {
            Some(n) => check_range(Limit { field: "num_experts", max: 1 << 16 }, n)?,
            None => {
                d.push(Defaulted { field: "num_experts", value: "128".into() });
                128
            }
        };
        let encoder_sparse_step = count("encoder_sparse_step", raw.encoder_sparse_step, 4, d)?;
        let decoder_sparse_step = count("decoder_sparse_step", raw.decoder_sparse_step, 4, d)?;
        let router_bias = flag("router_bias", raw.router_bias, false, d);
        Ok(NllbMoeConfig { bart, num_experts, encoder_sparse_step, decoder_sparse_step, router_bias })
    }

    pub fn is_sparse(&self, decoder: bool, layer: u64) -> bool {
        let step = if decoder { self.decoder_sparse_step } else { self.encoder_sparse_step };
        // A step of 0 divides only 0, which `layer + 1` never is: no sparse layer.
        (layer + 1).is_multiple_of(step)
    }
}
