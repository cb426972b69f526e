//! Zamba (`zamba`), with the defaults of transformers 5.24's `ZambaConfig`; the keys it shares
//! with Zamba2 are read in `config/zamba_core.rs`. Every layer holds a multi-head Mamba mixer;
//! the `hybrid` layers run one shared transformer block first (its input the hidden state beside
//! the embeddings, `attention_hidden_size` = 2 x hidden wide), then a per-layer `linear`
//! (hidden x hidden) into the Mamba layer's input.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::Classes;
use super::zamba_core::{Defaults, ZambaCore};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

/// ZambaConfig's defaults; `ZambaModel`, `ZambaForCausalLM`, `ZambaForSequenceClassification`.
const DEFAULTS: Defaults = Defaults {
    class: "ZambaConfig",
    classes: Classes {
        prefix: "Zamba",
        causal_lm: "ForCausalLM",
        token_classification: false,
        question_answering: false,
    },
    hidden: 3712,
    intermediate: Some(14848),
    layers: 76,
    heads: 16,
    kv_heads: Some(16),
};

#[derive(Debug, Deserialize)]
struct Raw {
    n_mamba_heads: Option<u64>,
    attn_layer_period: Option<u64>,
    attn_layer_offset: Option<u64>,
    mamba_d_state: Option<u64>,
    mamba_d_conv: Option<u64>,
    mamba_expand: Option<u64>,
    mamba_dt_rank: Option<Value>,
    mamba_conv_bias: Option<bool>,
    mamba_proj_bias: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ZambaConfig {
    pub class: String,
    #[serde(flatten)]
    pub core: ZambaCore,
    pub mamba_heads: u64,
    pub d_state: u64,
    pub d_conv: u64,
    /// `mamba_expand x hidden_size`.
    pub mamba_inner: u64,
    pub dt_rank: u64,
    pub conv_bias: bool,
    pub proj_bias: bool,
    pub defaulted: Vec<Defaulted>,
}

impl ZambaConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let layers = |n: u64, d: &mut Vec<Defaulted>| -> Result<Vec<bool>, ConfigError> {
            let period = size("attn_layer_period", raw.attn_layer_period, 6, 10_000, d)?;
            Ok(default_layers(n, period, raw.attn_layer_offset.unwrap_or(4)))
        };
        let (class, core) = ZambaCore::read(value, common, &DEFAULTS, &layers, &mut d)?;
        let hidden_size = core.hidden_size;
        let mamba_heads = size("n_mamba_heads", raw.n_mamba_heads, 2, 1 << 14, &mut d)?;
        let d_state = size("mamba_d_state", raw.mamba_d_state, 16, 1 << 14, &mut d)?;
        let d_conv = size("mamba_d_conv", raw.mamba_d_conv, 4, 1024, &mut d)?;
        let expand = size("mamba_expand", raw.mamba_expand, 2, 64, &mut d)?;
        let mamba_inner = expand * hidden_size;
        if mamba_inner % mamba_heads != 0 {
            return Err(ConfigError::field(
                "n_mamba_heads",
                format!(
                    "{mamba_heads} heads do not divide the mixer's {mamba_inner} channels, as ZambaConfig requires"
                ),
            ));
        }
        let dt_rank = super::ssm::time_step_rank(
            "mamba_dt_rank",
            raw.mamba_dt_rank.as_ref(),
            hidden_size,
            true,
            &mut d,
        )?;
        Ok(ZambaConfig {
            class,
            core,
            mamba_heads,
            d_state,
            d_conv,
            mamba_inner,
            dt_rank,
            conv_bias: raw.mamba_conv_bias.unwrap_or(true),
            proj_bias: raw.mamba_proj_bias.unwrap_or(false),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.core.dims()
    }
}

/// ZambaConfig's pattern: two Mamba layers, a hybrid one, then a hybrid layer where `i % period
/// == offset` over the remaining `layers - 3` (three entries for fewer layers, which the class
/// then refuses).
fn default_layers(layers: u64, period: u64, offset: u64) -> Vec<bool> {
    let rest = (0..layers.saturating_sub(3)).map(|i| i % period == offset);
    [false, false, true].into_iter().chain(rest).collect()
}
