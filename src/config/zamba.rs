//! Zamba (`zamba`), with the defaults of transformers 5.24's `ZambaConfig` and its
//! `attribute_map` (`layer_types` -> `layers_block_type`, `head_dim` -> `attention_head_dim`).
//! Every layer holds a multi-head Mamba mixer; the `hybrid` layers run one shared transformer
//! block first (its input the hidden state beside the embeddings, `attention_hidden_size` = 2 x
//! hidden wide), then a per-layer `linear` (hidden x hidden) into the Mamba layer's input.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::decoder::{Classes, DecoderHead, classify};
use super::{Common, ConfigError, Defaulted, aliased, deserialize_raw, flag, size};

/// `ZambaModel`, `ZambaForCausalLM`, `ZambaForSequenceClassification`.
const CLASSES: Classes = Classes {
    prefix: "Zamba",
    causal_lm: "ForCausalLM",
    token_classification: false,
    question_answering: false,
};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    tie_word_embeddings: Option<bool>,
    hidden_size: Option<u64>,
    attention_hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    attention_head_dim: Option<u64>,
    head_dim: Option<u64>,
    num_key_value_heads: Option<u64>,
    n_mamba_heads: Option<u64>,
    hidden_act: Option<String>,
    rms_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    max_position_embeddings: Option<u64>,
    attn_layer_period: Option<u64>,
    attn_layer_offset: Option<u64>,
    mamba_d_state: Option<u64>,
    mamba_d_conv: Option<u64>,
    mamba_expand: Option<u64>,
    mamba_dt_rank: Option<Value>,
    mamba_conv_bias: Option<bool>,
    mamba_proj_bias: Option<bool>,
    layers_block_type: Option<Vec<String>>,
    layer_types: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ZambaConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    /// The shared block's input: the hidden state and the embeddings side by side.
    pub attention_hidden_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub context: u64,
    /// Per layer, whether it runs the shared block before its Mamba mixer.
    pub hybrid: Vec<bool>,
    pub mamba_heads: u64,
    pub d_state: u64,
    pub d_conv: u64,
    /// `mamba_expand x hidden_size`.
    pub mamba_inner: u64,
    pub dt_rank: u64,
    pub conv_bias: bool,
    pub proj_bias: bool,
    pub tie_word_embeddings: bool,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

impl ZambaConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 32000, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 3712, 1 << 18, &mut d)?;
        let attention_hidden_size =
            size("attention_hidden_size", raw.attention_hidden_size, 2 * hidden_size, 1 << 19, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 14848, 1 << 22, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 76, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 16, 1 << 14, &mut d)?;
        let head_dim_field = if raw.head_dim.is_some() { "head_dim" } else { "attention_head_dim" };
        let head_dim = aliased(raw.attention_head_dim, raw.head_dim);
        let head_dim = size(head_dim_field, head_dim, 2 * hidden_size / num_heads, 1 << 16, &mut d)?;
        let num_kv_heads = size("num_key_value_heads", raw.num_key_value_heads, 16, 1 << 14, &mut d)?;
        let context = size("max_position_embeddings", raw.max_position_embeddings, 4096, 1 << 30, &mut d)?;
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
        let hybrid = match aliased(raw.layers_block_type, raw.layer_types) {
            // Every type but `hybrid` builds a Mamba layer alone (ZambaModel.__init__).
            Some(list) => list.iter().map(|t| t == "hybrid").collect(),
            None => {
                let period = size("attn_layer_period", raw.attn_layer_period, 6, 10_000, &mut d)?;
                let offset = raw.attn_layer_offset.unwrap_or(4);
                default_layers(num_layers, period, offset)
            }
        };
        // PreTrainedConfig.validate_layer_type: one entry per layer (the default pattern has at
        // least three).
        if hybrid.len() as u64 != num_layers {
            return Err(ConfigError::field(
                "layers_block_type",
                format!("{} entries for {num_layers} layers; ZambaConfig needs one per layer", hybrid.len()),
            ));
        }
        let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
        let pad_token_id = match raw.pad_token_id {
            Some(p) => Some(p),
            None if value.get("pad_token_id").is_some() => None,
            None => Some(0),
        };
        Ok(ZambaConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            attention_hidden_size,
            intermediate_size,
            num_heads,
            num_kv_heads,
            head_dim,
            context,
            hybrid,
            mamba_heads,
            d_state,
            d_conv,
            mamba_inner,
            dt_rank,
            conv_bias: raw.mamba_conv_bias.unwrap_or(true),
            proj_bias: raw.mamba_proj_bias.unwrap_or(false),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(1e-5),
            pad_token_id,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "gelu".into()),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let layers = self.hybrid.len() as u64;
        let (h, f, v, ctx) = (self.hidden_size, self.intermediate_size, self.vocab_size, self.context);
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            ..super::Dims::mha(h, layers, self.num_heads, f, v, ctx)
        }
    }
}

/// ZambaConfig's pattern: two Mamba layers, a hybrid one, then a hybrid layer where `i % period
/// == offset` over the remaining `layers - 3` (three entries for fewer layers, which the class
/// then refuses).
fn default_layers(layers: u64, period: u64, offset: u64) -> Vec<bool> {
    let rest = (0..layers.saturating_sub(3)).map(|i| i % period == offset);
    [false, false, true].into_iter().chain(rest).collect()
}
