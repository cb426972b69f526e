//! Ling 3 (`bailing_hybrid`), as a description (see `config/spec.rs`): Kimi Linear's layers with
//! their own delta attention (full-rank forget and output gates: `forget_gate.f_proj`, `g_proj`)
//! and latent attention whose heads are each scaled by a sigmoid gate (`g_proj`, hidden to
//! heads), DeepSeek-V3's routed experts with shared ones, and the first layers dense. Defaults
//! are those of transformers 5.24's `configuration_bailing_hybrid.py`.

use super::ConfigError;
use super::spec::{Attn, Dv, HeadKind, Indexer, Linear, Reader, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::{LinearDims, per_layer};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "bailing_hybrid",
    classes: &[("BailingHybridModel", Model), ("BailingHybridForCausalLM", CausalLm)],
    keys: keys![sizes(157184, 2560, 6144, 42, 32, U(32), U(128), 262144), rms_norm_eps: F(1e-6),
        moe_intermediate_size: U(768), num_experts: U(512), num_experts_per_token: U(8),
        num_shared_experts: U(1), first_k_dense_replace: U(2), kv_lora_rank: U(512), q_lora_rank: Null,
        qk_rope_head_dim: U(64), qk_nope_head_dim: U(128), v_head_dim: U(128), hidden_act: S("silu"),
        pad_token_id: U(156892), tie_word_embeddings: B(false), attention_bias: B(false),
        short_conv_kernel_size: U(4), layer_group_size: U(6)],
    aliases: &[
        ("model_max_length", "max_position_embeddings"),
        ("num_local_experts", "num_experts"),
        ("num_experts_per_tok", "num_experts_per_token"),
        ("n_shared_experts", "num_shared_experts"),
    ],
    moe: Some(super::spec_linear::KIMI_MOE),
    attn: Attn::Latent(Indexer::None),
    linear: Linear::BailingDelta,
    ..BASE
}];

/// BailingHybridConfig's delta attention: `linear_num_heads`, `linear_head_dim` and
/// `linear_conv_kernel_dim` where a file carries them (a saved config does, and they win over
/// what `__post_init__` derives), else the attention heads, `head_dim` and
/// `short_conv_kernel_size`; layers from `layer_types`, else full attention closing each group
/// of `layer_group_size`.
pub(crate) fn delta(r: &mut Reader, layers: u64) -> Result<(LinearDims, Vec<bool>), ConfigError> {
    let heads = own_or(r, "linear_num_heads", "num_attention_heads", 1 << 14)?;
    let head_dim = own_or(r, "linear_head_dim", "head_dim", 1 << 14)?;
    let conv_kernel = own_or(r, "linear_conv_kernel_dim", "short_conv_kernel_size", 1024)?;
    let dims = LinearDims::square(heads, head_dim, conv_kernel);
    if let Some(list) = per_layer(r, "layer_types", layers, ("linear_attention", "full_attention"))? {
        return Ok((dims, list));
    }
    let group = r.size("layer_group_size", 10_000)?;
    Ok((dims, (0..layers).map(|i| (i + 1) % group != 0).collect()))
}

/// The size under the attribute `__post_init__` derives (`own`) if the file carries it, else
/// under the key it derives it from.
fn own_or(r: &mut Reader, own: &'static str, key: &'static str, max: u64) -> Result<u64, ConfigError> {
    if r.raw(own).is_some() { r.size(own, max) } else { r.size(key, max) }
}
