//! PEGASUS-X: Pegasus's keys read by the BART reader (`seq2seq::PEGASUS_X`), plus
//! `num_global_tokens`, the rows of the encoder's `embed_global` table.

use serde::Deserialize;
use serde_json::Value;

use super::bart::BartConfig;
use super::{Common, ConfigError, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    num_global_tokens: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct PegasusXConfig {
    /// Everything Pegasus reads; its `defaulted` also holds `num_global_tokens`.
    pub bart: BartConfig,
    pub num_global_tokens: u64,
}

impl PegasusXConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut bart = BartConfig::resolve(value, common)?;
        let raw: Raw = deserialize_raw(value)?;
        let num_global_tokens =
            size("num_global_tokens", raw.num_global_tokens, 32, 1 << 20, &mut bart.defaulted)?;
        Ok(PegasusXConfig { bart, num_global_tokens })
    }
}
