//! Granite's mixtures of experts with a shared MLP beside the experts (`granitemoeshared`) and
//! with sliding-window layers and sinks (`granitemoe_swa`), as descriptions (see
//! `config/spec.rs`). Defaults are those of transformers 5.24's `configuration_<type>.py`;
//! `shared_intermediate_size` 0 (the default) builds no shared MLP.

use super::spec::{Dv, Experts, HeadKind, MoeSpec, Shared, Spec, Window};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_moe::MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

/// Granite MoE's stacked experts behind `block_sparse_moe.router`, the shared MLP beside them.
pub(super) const GRANITE_MOE: MoeSpec = MoeSpec {
    block: "block_sparse_moe",
    router: "router",
    experts_key: "num_local_experts",
    width_key: "intermediate_size",
    experts: Experts::Stacked { bias: false },
    shared: Shared::Beside { name: "shared_mlp", key: "shared_intermediate_size" },
    ..MOE
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "granitemoeshared",
        classes: &[("GraniteMoeSharedModel", Model), ("GraniteMoeSharedForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(32000), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            hidden_act: S("silu"), attention_bias: B(false), num_local_experts: U(8),
            num_experts_per_tok: U(2), shared_intermediate_size: U(0)],
        moe: Some(GRANITE_MOE),
        ..BASE
    },
    Spec {
        model_type: "granitemoe_swa",
        classes: &[("GraniteMoeSWAModel", Model), ("GraniteMoeSWAForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(32000), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            hidden_act: S("silu"), attention_bias: B(false), num_local_experts: U(8),
            num_experts_per_tok: U(2), shared_intermediate_size: U(0), sliding_window: U(128)],
        // A learned sink per head; `layer_types`, else full attention on every fourth layer
        // from the first (`i % 4 == 0`).
        sinks: true,
        window: Window::FullFirst { period: 4 },
        moe: Some(GRANITE_MOE),
        ..BASE
    },
];
