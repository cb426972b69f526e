//! A.X K2 as a description (see `config/spec.rs`): DeepSeek-V3.2's latent attention with its
//! indexer in every layer and its routed and shared experts, where the query up-projection also
//! makes an output gate from the query latent before and after its norm (`q_gate_proj`), and the
//! norms before attention (every layer) and before the experts (sparse layers) are gated by a
//! low-rank MLP of `gated_norm_rank` (`AXK2GatedRMSNorm`). `graph/spec_axk2.rs` makes those
//! changes to the shared layer. Defaults are those of transformers 5.24's `AXK2Config`.

use super::ConfigError;
use super::spec::{Attn, Dv, HeadKind, Indexer, MoeSpec, Reader, Sparse, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mla::DEEPSEEK_MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "axk2",
    classes: &[
        ("AXK2Model", Model),
        ("AXK2ForCausalLM", CausalLm),
        ("AXK2ForSequenceClassification", Sequence),
        ("AXK2ForTokenClassification", Token),
    ],
    keys: keys![vocab_size: U(163_840), hidden_size: U(2048), intermediate_size: U(5120),
        moe_intermediate_size: U(512), num_hidden_layers: U(48), num_attention_heads: U(32),
        num_key_value_heads: U(32), n_shared_experts: U(1), n_routed_experts: U(128),
        kv_lora_rank: U(128), q_lora_rank: U(384), qk_rope_head_dim: U(32), v_head_dim: U(64),
        qk_nope_head_dim: U(64), num_experts_per_tok: U(8), max_position_embeddings: U(131_072),
        rms_norm_eps: F(1e-6), tie_word_embeddings: B(false), pad_token_id: Null,
        hidden_act: S("silu"), attention_bias: B(false), index_head_dim: U(128),
        index_n_heads: U(16), gated_norm_rank: U(16)],
    aliases: &[("num_local_experts", "n_routed_experts")],
    attn: Attn::Latent(Indexer::Every),
    moe: Some(MoeSpec { sparse: Sparse::MlpTypesFreq, ..DEEPSEEK_MOE }),
    ..BASE
}];

/// A.X K2's `gated_norm_rank` (0 elsewhere). Its class refuses a query latent it cannot read
/// the gate from, and so does this.
pub(crate) fn gated_norm_rank(r: &mut Reader) -> Result<u64, ConfigError> {
    if r.spec.model_type != "axk2" {
        return Ok(0);
    }
    if r.value.get("q_lora_rank").is_some_and(|v| v.is_null() || v.as_u64() == Some(0)) {
        return Err(ConfigError::field(
            "q_lora_rank",
            "A.X K2 reads its output gate from the query latent; it must be positive",
        ));
    }
    r.size("gated_norm_rank", 1 << 20)
}
