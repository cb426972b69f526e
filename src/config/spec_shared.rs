//! Mixtures of experts with a shared expert beside the routed ones, and dense layers among the
//! sparse (GLM-4.5, Llama 4, ERNIE 4.5), as descriptions (see `config/spec.rs`). Defaults are
//! those of transformers 5.x's `configuration_<type>.py`.

use super::spec::{Bias, Dv, Experts, HeadKind, MoeSpec, QkNorm, Shared, Sparse, Spec, Window};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_moe::MOE;
use Dv::{B, F, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "glm4_moe",
        classes: &[("Glm4MoeModel", Model), ("Glm4MoeForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(151552), hidden_size: U(4096), intermediate_size: U(10944),
            num_hidden_layers: U(46), num_attention_heads: U(96), num_key_value_heads: U(8),
            max_position_embeddings: U(131072), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            hidden_act: S("silu"), attention_bias: B(false), use_qk_norm: B(false),
            moe_intermediate_size: U(1408), num_experts_per_tok: U(8), n_shared_experts: U(1),
            n_routed_experts: U(128), first_k_dense_replace: U(1)],
        aliases: &[("num_local_experts", "n_routed_experts")],
        o_bias: Bias::Fixed(false),
        qk_norm: QkNorm::PerHead,
        qk_norm_key: Some("use_qk_norm"),
        moe: Some(MoeSpec {
            correction_buffer: Some("gate.e_score_correction_bias"),
            experts_key: "n_routed_experts",
            shared: Shared::Times { name: "shared_experts", key: "n_shared_experts" },
            sparse: Sparse::FirstDense("first_k_dense_replace"),
            ..MOE
        }),
        ..BASE
    },
    Spec {
        model_type: "llama4_text",
        classes: &[("Llama4TextModel", Model), ("Llama4ForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(202048), hidden_size: U(5120), intermediate_size: U(8192),
            intermediate_size_mlp: U(16384), num_hidden_layers: U(48), num_attention_heads: U(40),
            num_key_value_heads: U(8), head_dim: U(128), max_position_embeddings: U(131072),
            rms_norm_eps: F(1e-5), tie_word_embeddings: B(false), hidden_act: S("silu"),
            attention_bias: B(false), num_local_experts: U(16), num_experts_per_tok: U(1),
            interleave_moe_layer_step: U(1), attention_chunk_size: U(8192), no_rope_layer_interval: U(4)],
        // Its q/k norm is an L2 norm without weights.
        dense_width_key: "intermediate_size_mlp",
        moe: Some(MoeSpec {
            block: "feed_forward",
            router: "router",
            experts_key: "num_local_experts",
            width_key: "intermediate_size",
            experts: Experts::Stacked { bias: false },
            shared: Shared::Width { name: "shared_expert", key: "intermediate_size" },
            sparse: Sparse::Step { step: "interleave_moe_layer_step", list: "moe_layers" },
            ..MOE
        }),
        window: Window::Chunked,
        ..BASE
    },
    Spec {
        model_type: "ernie4_5_moe",
        classes: &[("Ernie4_5_MoeModel", Model), ("Ernie4_5_MoeForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(103424), hidden_size: U(2560), intermediate_size: U(12288),
            num_hidden_layers: U(28), num_attention_heads: U(20), num_key_value_heads: U(4),
            max_position_embeddings: U(131072), rms_norm_eps: F(1e-5), tie_word_embeddings: B(true),
            pad_token_id: U(0), hidden_act: S("silu"), use_bias: B(false), moe_intermediate_size: U(1536),
            moe_k: U(6), moe_num_experts: U(64), moe_num_shared_experts: U(2), moe_layer_start_index: U(1),
            moe_layer_interval: U(1)],
        aliases: &[("num_experts", "moe_num_experts"), ("num_experts_per_tok", "moe_k")],
        qkv_bias: Bias::Key("use_bias"),
        o_bias: Bias::Key("use_bias"),
        mlp_bias: Bias::Key("use_bias"),
        lm_bias: Bias::Key("use_bias"),
        moe: Some(MoeSpec {
            correction_param: true,
            experts_key: "moe_num_experts",
            top_k_key: "moe_k",
            shared: Shared::Times { name: "shared_experts", key: "moe_num_shared_experts" },
            sparse: Sparse::Range,
            ..MOE
        }),
        ..BASE
    },
];
