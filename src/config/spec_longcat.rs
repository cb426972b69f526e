//! LongCat-Flash as a description (see `config/spec.rs`): each layer runs two of DeepSeek's latent
//! attentions (without the indexer) and two dense MLPs in turn, and beside the first MLP one
//! mixture of experts whose router also picks zero-computation (identity) experts. The table reads
//! the keys; `graph/spec_longcat.rs` builds the layer. Defaults are those of transformers 5.24's
//! `LongcatFlashConfig`.

use super::spec::{Attn, Dv, Experts, HeadKind, Indexer, MoeSpec, Reader, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_moe::MOE;
use super::{ConfigError, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "longcat_flash",
    classes: &[("LongcatFlashModel", Model), ("LongcatFlashForCausalLM", CausalLm)],
    keys: keys![qk_head_dim: Null, vocab_size: U(131_072), hidden_size: U(6144), num_layers: U(28),
        num_attention_heads: U(64), num_key_value_heads: Null, max_position_embeddings: U(131_072),
        rms_norm_eps: F(1e-5), pad_token_id: Null, tie_word_embeddings: B(false),
        hidden_act: S("silu"), attention_bias: B(false), ffn_hidden_size: U(12_288),
        q_lora_rank: U(1536), kv_lora_rank: U(512), qk_nope_head_dim: U(128),
        qk_rope_head_dim: U(64), head_dim: U(64), v_head_dim: U(128), moe_topk: U(12),
        n_routed_experts: U(512), zero_expert_num: U(256), expert_ffn_hidden_size: U(2048)],
    aliases: &[
        ("num_local_experts", "n_routed_experts"),
        ("num_experts_per_tok", "moe_topk"),
        ("intermediate_size", "ffn_hidden_size"),
        ("moe_intermediate_size", "expert_ffn_hidden_size"),
    ],
    dense_width_key: "ffn_hidden_size",
    attn: Attn::Latent(Indexer::None),
    moe: Some(MoeSpec {
        router: "router.classifier",
        experts_key: "n_routed_experts",
        top_k_key: "moe_topk",
        width_key: "expert_ffn_hidden_size",
        experts: Experts::Stacked { bias: false },
        ..MOE
    }),
    ..BASE
}];

fn is_longcat(spec: &Spec) -> bool {
    spec.model_type == "longcat_flash"
}

/// The decoder layers: `num_layers` (each holds two attentions), or half of a
/// `num_hidden_layers` the file writes (the class's setter); `num_hidden_layers` elsewhere.
pub(crate) fn layers(r: &mut Reader) -> Result<u64, ConfigError> {
    if !is_longcat(r.spec) {
        return r.size("num_hidden_layers", 10_000);
    }
    if let Some(v) = r.value.get("num_hidden_layers").filter(|v| !v.is_null()) {
        let n = v.as_u64().ok_or_else(|| {
            ConfigError::field("num_hidden_layers", format!("expected a non-negative integer, found {v}"))
        })?;
        return check_range(Limit { field: "num_hidden_layers", max: 20_000 }, n / 2);
    }
    r.size("num_layers", 10_000)
}

/// What LongCat-Flash reads beyond the table's blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LongcatDims {
    /// Zero-computation (identity) experts, `zero_expert_num` (None meaning 0).
    pub zero_experts: u64,
    /// `router_bias`: an attribute the router reads if the file sets it.
    pub router_bias: bool,
    /// Each query head's width, `qk_head_dim` (default nope + rope), which `q_b_proj` makes.
    pub qk_head_dim: u64,
}

/// LongCat-Flash's own keys (all zero elsewhere). A null `q_lora_rank` is refused: the class
/// always projects queries through the latent.
pub(crate) fn read(r: &mut Reader) -> Result<LongcatDims, ConfigError> {
    if !is_longcat(r.spec) {
        return Ok(LongcatDims::default());
    }
    if r.value.get("q_lora_rank").is_some_and(|v| v.is_null()) {
        return Err(ConfigError::field(
            "q_lora_rank",
            "null, but LongCat-Flash always projects queries through the latent",
        ));
    }
    let zero = match r.opt_u("zero_expert_num")? {
        Some(0) | None => 0,
        Some(z) => check_range(Limit { field: "zero_expert_num", max: 1 << 16 }, z)?,
    };
    let bias = match r.value.get("router_bias") {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(v) => {
            return Err(ConfigError::field("router_bias", format!("expected true or false, found {v}")));
        }
    };
    let qk_head_dim = match r.opt_u("qk_head_dim")? {
        Some(q) => check_range(Limit { field: "qk_head_dim", max: 1 << 16 }, q)?,
        None => r.size("qk_nope_head_dim", 1 << 16)? + r.size("qk_rope_head_dim", 1 << 16)?,
    };
    Ok(LongcatDims { zero_experts: zero, router_bias: bias, qk_head_dim })
}

/// Attention layers per decoder layer: two for LongCat-Flash, else one.
pub(crate) fn attentions_per_layer(spec: &Spec) -> u64 {
    if is_longcat(spec) { 2 } else { 1 }
}
