//! Jamba (`jamba`), the hybrid of Mamba and attention layers with mixture-of-experts MLPs, with
//! the defaults of transformers 5.x's `JambaConfig` and its `attribute_map`
//! (`num_local_experts` -> `num_experts`). Layer `i` attends when `i % attn_layer_period ==
//! attn_layer_offset` (else it is a Mamba layer), and routes its MLP over experts when
//! `i % expert_layer_period == expert_layer_offset`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, classifier_labels, deserialize_raw, flag, num_labels, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    max_position_embeddings: Option<u64>,
    rms_norm_eps: Option<f64>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    hidden_act: Option<String>,
    num_experts: Option<u64>,
    num_local_experts: Option<u64>,
    num_experts_per_tok: Option<u64>,
    expert_layer_period: Option<u64>,
    expert_layer_offset: Option<u64>,
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
pub struct JambaConfig {
    pub class: String,
    /// None: the bare `JambaModel`; Some(None): `ForCausalLM`; Some(Some(n)): a sequence
    /// classifier over `n` labels.
    pub head: Option<Option<u64>>,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub context: u64,
    pub num_experts: u64,
    pub experts_per_token: u64,
    /// Per layer: (attention, experts).
    pub layers: Vec<(bool, bool)>,
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

fn offset(field: &'static str, v: Option<u64>, default: u64, period: u64) -> Result<u64, ConfigError> {
    let o = v.unwrap_or(default);
    if o >= period {
        return Err(ConfigError::field(
            field,
            format!("{o} must be smaller than its period ({period}), as JambaConfig requires"),
        ));
    }
    Ok(o)
}

impl JambaConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 65536, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 4096, 1 << 18, &mut d)?;
        let intermediate_size = size("intermediate_size", raw.intermediate_size, 14336, 1 << 20, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 32, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 32, 1 << 14, &mut d)?;
        // A null num_key_value_heads follows the heads (JambaConfig.__post_init__).
        let kv_default = if value.get("num_key_value_heads").is_some() { num_heads } else { 8 };
        let num_kv_heads = size("num_key_value_heads", raw.num_key_value_heads, kv_default, 1 << 14, &mut d)?;
        // JambaAttention reads head_dim with getattr: a file's key wins, else hidden / heads.
        let head_dim = match raw.head_dim {
            Some(h) => size("head_dim", Some(h), 0, 1 << 14, &mut d)?,
            None => hidden_size / num_heads,
        };
        let context = size("max_position_embeddings", raw.max_position_embeddings, 262_144, 1 << 30, &mut d)?;
        let (ef, ev) = if raw.num_local_experts.is_some() {
            ("num_local_experts", raw.num_local_experts)
        } else {
            ("num_experts", raw.num_experts)
        };
        let num_experts = size(ef, ev, 16, 1 << 12, &mut d)?;
        let experts_per_token = size("num_experts_per_tok", raw.num_experts_per_tok, 2, 1 << 12, &mut d)?;
        let ep = size("expert_layer_period", raw.expert_layer_period, 2, 10_000, &mut d)?;
        let eo = offset("expert_layer_offset", raw.expert_layer_offset, 1, ep)?;
        let ap = size("attn_layer_period", raw.attn_layer_period, 8, 10_000, &mut d)?;
        let ao = offset("attn_layer_offset", raw.attn_layer_offset, 4, ap)?;
        let layers = (0..num_layers).map(|i| (i % ap == ao, num_experts > 1 && i % ep == eo)).collect();
        let d_state = size("mamba_d_state", raw.mamba_d_state, 16, 1 << 14, &mut d)?;
        let d_conv = size("mamba_d_conv", raw.mamba_d_conv, 4, 1024, &mut d)?;
        let expand = size("mamba_expand", raw.mamba_expand, 2, 64, &mut d)?;
        let dt_rank = super::ssm::time_step_rank(
            "mamba_dt_rank",
            raw.mamba_dt_rank.as_ref(),
            hidden_size,
            false,
            &mut d,
        )?;
        let class = super::class_or(common, "JambaModel", &mut d);
        let head = match class.as_str() {
            "JambaModel" => None,
            "JambaForCausalLM" => Some(None),
            "JambaForSequenceClassification" => Some(Some(classifier_labels(num_labels(value)?, &mut d)?)),
            _ => return Err(super::read::unknown_class(&class)),
        };
        let pad_token_id = super::read::pad_or_null(raw.pad_token_id, value, 0);
        Ok(JambaConfig {
            class,
            head,
            vocab_size,
            hidden_size,
            intermediate_size,
            num_layers,
            num_heads,
            num_kv_heads,
            head_dim,
            context,
            num_experts,
            experts_per_token,
            layers,
            d_state,
            d_conv,
            mamba_inner: expand * hidden_size,
            dt_rank,
            conv_bias: raw.mamba_conv_bias.unwrap_or(true),
            proj_bias: raw.mamba_proj_bias.unwrap_or(false),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d),
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(1e-6),
            pad_token_id,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "silu".into()),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            hidden_size: self.hidden_size,
            num_layers: self.num_layers,
            num_heads: self.num_heads,
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            intermediate_size: self.intermediate_size,
            vocab_size: self.vocab_size,
            context: self.context,
            usable_context: self.context,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: (self.num_experts > 1).then_some(self.num_experts),
            experts_per_token: (self.num_experts > 1).then_some(self.experts_per_token),
        }
    }
}
