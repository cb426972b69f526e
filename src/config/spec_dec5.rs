//! The newest decoders (2026) that are a known layer under new keys, as descriptions (see
//! `config/spec.rs`): A.X K1 (DeepSeek-V3's latent attention and experts with a norm on the
//! experts' output). Defaults are those of transformers 5.24's `configuration_<type>.py`.

use super::spec::{Attn, Dv, Extra, HeadKind, Indexer, MoeSpec, Place, Shared, Sparse, Spec, Width};
use super::spec_dense::BASE;
use super::spec_moe::MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "axk1",
    classes: &[
        ("AXK1Model", Model),
        ("AXK1ForCausalLM", CausalLm),
        ("AXK1ForSequenceClassification", Sequence),
        ("AXK1ForTokenClassification", Token),
    ],
    keys: &[
        ("vocab_size", U(163840)),
        ("hidden_size", U(7168)),
        ("intermediate_size", U(18432)),
        ("moe_intermediate_size", U(2048)),
        ("num_hidden_layers", U(61)),
        ("num_attention_heads", U(64)),
        ("num_key_value_heads", U(64)),
        ("n_shared_experts", U(1)),
        ("n_routed_experts", U(192)),
        ("kv_lora_rank", U(512)),
        ("q_lora_rank", U(1536)),
        ("qk_rope_head_dim", U(64)),
        ("v_head_dim", U(128)),
        ("qk_nope_head_dim", U(128)),
        ("num_experts_per_tok", U(8)),
        ("max_position_embeddings", U(32768)),
        ("rms_norm_eps", F(1e-6)),
        ("tie_word_embeddings", B(false)),
        ("pad_token_id", Null),
        ("hidden_act", S("silu")),
        ("attention_bias", B(false)),
    ],
    // AXK1Config sets `head_dim` to the rotary width.
    aliases: &[("num_local_experts", "n_routed_experts"), ("head_dim", "qk_rope_head_dim")],
    attn: Attn::Latent(Indexer::None),
    moe: Some(MoeSpec {
        correction_buffer: Some("gate.e_score_correction_bias"),
        experts_key: "n_routed_experts",
        shared: Shared::Times { name: "shared_experts", key: "n_shared_experts" },
        sparse: Sparse::MlpTypesFreq,
        ..MOE
    }),
    // AXK1MoE norms its output (routed plus shared) before the residual: sparse layers only.
    extras: &[Extra {
        name: "post_mlp_layernorm",
        place: Place::Experts,
        width: Width::Hidden,
        norm: true,
        when_act: None,
    }],
    ..BASE
}];
