//! Mixtures of experts over DeepSeek's latent attention, as descriptions (see `config/spec.rs`):
//! GLM-4.7-Flash, DeepSeek-V3.2 and GLM-5 (both with the lightning indexer). Defaults are those
//! of transformers 5.x's `configuration_<type>.py`. Routed experts are named one module each
//! (`mlp.experts.{e}.gate_proj`), as the published checkpoints store them.

use super::spec::{Attn, Dv, HeadKind, Indexer, MoeSpec, Shared, Sparse, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_moe::MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

/// DeepSeek-V3's routed experts: `mlp.gate` without bias and its correction buffer,
/// `n_shared_experts` fused into `shared_experts`, dense layers first.
pub(crate) const DEEPSEEK_MOE: MoeSpec = MoeSpec {
    correction_buffer: Some("gate.e_score_correction_bias"),
    experts_key: "n_routed_experts",
    shared: Shared::Times { name: "shared_experts", key: "n_shared_experts" },
    sparse: Sparse::MlpTypes(Some("first_k_dense_replace")),
    ..MOE
};

/// The latent-attention keys with their DeepSeek-V3.2 defaults (GLM-5 changes a few).
macro_rules! latent_keys {
    ($($k:literal => $v:expr),* $(,)?) => {
        &[$(($k, $v)),*, ("tie_word_embeddings", B(false)), ("pad_token_id", Null),
          ("hidden_act", S("silu")), ("attention_bias", B(false)), ("num_experts_per_tok", U(8)),
          ("first_k_dense_replace", U(3)), ("kv_lora_rank", U(512)), ("qk_rope_head_dim", U(64)),
          ("index_head_dim", U(128))]
    };
}

/// DeepSeek-V3.2: V3's layers with an indexer in every attention.
const DEEPSEEK_V32: Spec = Spec {
    model_type: "deepseek_v32",
    classes: &[("DeepseekV32Model", Model), ("DeepseekV32ForCausalLM", CausalLm)],
    keys: latent_keys![
        "vocab_size" => U(129280), "hidden_size" => U(7168), "intermediate_size" => U(18432),
        "moe_intermediate_size" => U(2048), "num_hidden_layers" => U(61),
        "num_attention_heads" => U(128), "num_key_value_heads" => U(128),
        "n_shared_experts" => U(1), "n_routed_experts" => U(256), "q_lora_rank" => U(1536),
        "v_head_dim" => U(128), "qk_nope_head_dim" => U(128),
        "max_position_embeddings" => U(163840), "rms_norm_eps" => F(1e-6),
        "index_n_heads" => U(64),
    ],
    aliases: &[("num_local_experts", "n_routed_experts")],
    attn: Attn::Latent(Indexer::Every),
    moe: Some(DEEPSEEK_MOE),
    ..BASE
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "glm4_moe_lite",
        classes: &[("Glm4MoeLiteModel", Model), ("Glm4MoeLiteForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(154880), hidden_size: U(2048), intermediate_size: U(10240),
            moe_intermediate_size: U(1536), num_hidden_layers: U(47), num_attention_heads: U(20),
            num_key_value_heads: U(20), n_shared_experts: U(1), n_routed_experts: U(64), kv_lora_rank: U(512),
            q_lora_rank: U(768), qk_rope_head_dim: U(64), v_head_dim: U(256), qk_nope_head_dim: U(192),
            num_experts_per_tok: U(4), max_position_embeddings: U(202752), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false)],
        aliases: &[("num_local_experts", "n_routed_experts"), ("head_dim", "qk_rope_head_dim")],
        attn: Attn::Latent(Indexer::None),
        // The class reads no `first_k_dense_replace`: without `mlp_layer_types`, layer 0 is dense.
        moe: Some(MoeSpec { sparse: Sparse::MlpTypes(None), ..DEEPSEEK_MOE }),
        ..BASE
    },
    DEEPSEEK_V32,
    Spec {
        model_type: "glm_moe_dsa",
        classes: &[("GlmMoeDsaModel", Model), ("GlmMoeDsaForCausalLM", CausalLm)],
        keys: latent_keys![
            "vocab_size" => U(154880), "hidden_size" => U(6144), "intermediate_size" => U(12288),
            "moe_intermediate_size" => U(2048), "num_hidden_layers" => U(78),
            "num_attention_heads" => U(64), "num_key_value_heads" => U(64),
            "n_shared_experts" => U(1), "n_routed_experts" => U(256), "q_lora_rank" => U(2048),
            "v_head_dim" => U(256), "qk_nope_head_dim" => U(192),
            "max_position_embeddings" => U(202752), "rms_norm_eps" => F(1e-5),
            "index_n_heads" => U(32),
        ],
        attn: Attn::Latent(Indexer::ByType),
        ..DEEPSEEK_V32
    },
];
