//! HY V4 as a description (see `config/spec.rs`): GLM-5's latent attention with its indexer on
//! the layers `indexer_types` marks `full` (by default layer 0 and every fourth from 1), each
//! attention with a sigmoid output gate (`gate_proj`, hidden to heads x v_head_dim) and a sink per
//! head; routed experts behind a corrected router with shared experts, the first layer dense; and
//! DeepSeek-V4's hyper-connections: the residual stream kept as `hc_mult` copies, mixed around
//! each sublayer (`attn_hc`, `ffn_hc`) and folded back before the final norm (`hc_head`).
//! `graph/spec_axk2.rs` adds those tensors to the shared layer. Defaults are those of
//! transformers 5.24's `HYV4Config`.

use super::spec::{Attn, Dv, HeadKind, Indexer, MoeSpec, Reader, Sparse, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mla::DEEPSEEK_MOE;
use super::{ConfigError, Limit, check_range};
use Dv::{B, F, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "hy_v4",
    classes: &[("HYV4Model", Model), ("HYV4ForCausalLM", CausalLm)],
    keys: keys![vocab_size: U(120_832), hidden_size: U(2816), intermediate_size: U(6912),
        moe_intermediate_size: U(768), num_hidden_layers: U(34), num_attention_heads: U(32),
        num_key_value_heads: U(32), head_dim: U(256), hidden_act: S("silu"),
        max_position_embeddings: U(262_144), rms_norm_eps: F(1e-5), pad_token_id: U(120_002),
        tie_word_embeddings: B(false), attention_bias: B(false), n_routed_experts: U(256),
        n_shared_experts: U(1), num_experts_per_tok: U(8), q_lora_rank: U(1536),
        kv_lora_rank: U(512), qk_nope_head_dim: U(192), qk_rope_head_dim: U(64),
        v_head_dim: U(256), index_head_dim: U(128), index_n_heads: U(16), hc_mult: U(4)],
    aliases: &[("num_local_experts", "n_routed_experts")],
    attn: Attn::Latent(Indexer::ByType),
    moe: Some(MoeSpec { sparse: Sparse::MlpTypes(None), ..DEEPSEEK_MOE }),
    ..BASE
}];

/// HY V4's `hc_mult` and the layers holding an indexer: `indexer_types` (`full` or `shared`)
/// when listed, else full on layer 0 and where (i - 1) % 4 == 0. None for the other types. A
/// null `q_lora_rank` is refused: the class always projects queries through the latent.
pub(crate) fn read(r: &mut Reader, layers: u64) -> Result<Option<(u64, Vec<bool>)>, ConfigError> {
    if r.spec.model_type != "hy_v4" {
        return Ok(None);
    }
    if r.value.get("q_lora_rank").is_some_and(|v| v.is_null()) {
        return Err(ConfigError::field(
            "q_lora_rank",
            "null, but HY V4 always projects queries through the latent",
        ));
    }
    let hc = r.size("hc_mult", 64)?;
    let indexed = match super::spec_mixers::per_layer(r, "indexer_types", layers, ("full", "shared"))? {
        Some(list) => list,
        None => (0..layers).map(|i| i == 0 || (i - 1) % 4 == 0).collect(),
    };
    Ok(Some((check_range(Limit { field: "hc_mult", max: 64 }, hc)?, indexed)))
}
