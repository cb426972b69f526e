//! Mixture-of-experts decoder types as descriptions (see `config/spec.rs`). Defaults are those of
//! transformers 5.x's `configuration_<type>.py`. Expert names follow the published checkpoints:
//! one module per expert where they store one (`experts.{e}.gate_proj`), stacked tensors where
//! they stack them (gpt-oss, Llama 4).

use super::spec::{
    Bias, Dv, Experts, HeadKind, MoeSpec, NormKind, QkNorm, Shared, Slot, Sparse, Spec, Window,
};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

pub(crate) const GATED: Experts = Experts::PerExpert { gate: "gate_proj", up: "up_proj", down: "down_proj" };

/// A router over experts in `mlp`, every layer sparse, no shared expert.
pub(crate) const MOE: MoeSpec = MoeSpec {
    block: "mlp",
    router: "gate",
    router_bias: false,
    correction_param: false,
    correction_buffer: None,
    expert_bias: None,
    experts_key: "num_experts",
    top_k_key: "num_experts_per_tok",
    width_key: "moe_intermediate_size",
    experts: GATED,
    shared: Shared::None,
    shared_gate: false,
    sparse: Sparse::All,
};

/// Mixtral's block as its checkpoints name it: `block_sparse_moe`, experts `w1`, `w3`, `w2` at
/// `intermediate_size` (Phi-MoE, MiniMax, MiniMax-M2).
pub(crate) const MIXTRAL_MOE: MoeSpec = MoeSpec {
    block: "block_sparse_moe",
    experts_key: "num_local_experts",
    width_key: "intermediate_size",
    experts: Experts::PerExpert { gate: "w1", up: "w3", down: "w2" },
    ..MOE
};

/// gpt-oss's expert block: the router `router` with its bias, stacked experts with biases, at
/// `intermediate_size` (also OpenAI's privacy filter's, `config/spec_enc6.rs`).
pub(crate) const GPT_OSS_MOE: MoeSpec = MoeSpec {
    router: "router",
    router_bias: true,
    experts_key: "num_local_experts",
    width_key: "intermediate_size",
    experts: Experts::Stacked { bias: true },
    ..MOE
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "gpt_oss",
        classes: &[
            ("GptOssModel", Model),
            ("GptOssForCausalLM", CausalLm),
            ("GptOssForSequenceClassification", Sequence),
            ("GptOssForTokenClassification", Token),
        ],
        keys: keys![sizes(201088, 2880, 2880, 36, 64, U(8), U(64), 131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), hidden_act: S("silu"), attention_bias: B(true),
            num_local_experts: U(128), num_experts_per_tok: U(4), sliding_window: U(128)],
        aliases: &[("num_experts", "num_local_experts")],
        sinks: true,
        moe: Some(GPT_OSS_MOE),
        // Sliding and full layers alternate, sliding first.
        window: Window::Pattern { period_key: None, period: 2 },
        ..BASE
    },
    Spec {
        model_type: "phimoe",
        classes: &[
            ("PhimoeModel", Model),
            ("PhimoeForCausalLM", CausalLm),
            ("PhimoeForSequenceClassification", Sequence),
        ],
        keys: keys![vocab_size: U(32064), hidden_size: U(4096), intermediate_size: U(6400),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: U(8),
            max_position_embeddings: U(131072), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            hidden_act: S("silu"), attention_bias: B(false), lm_head_bias: B(false), num_local_experts: U(16),
            num_experts_per_tok: U(2)],
        norm: NormKind::LayerNorm,
        moe: Some(MIXTRAL_MOE),
        lm_bias: Bias::Key("lm_head_bias"),
        window: Window::AllWhenSet,
        ..BASE
    },
    Spec {
        model_type: "olmoe",
        classes: &[("OlmoeModel", Model), ("OlmoeForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(50304), hidden_size: U(2048), intermediate_size: U(2048),
            num_hidden_layers: U(16), num_attention_heads: U(16), num_key_value_heads: Null,
            max_position_embeddings: U(4096), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            pad_token_id: U(1), hidden_act: S("silu"), attention_bias: B(false), num_experts: U(64),
            num_experts_per_tok: U(8)],
        aliases: &[("num_local_experts", "num_experts")],
        qk_norm: QkNorm::OverHidden,
        moe: Some(MoeSpec { width_key: "intermediate_size", ..MOE }),
        ..BASE
    },
    Spec {
        model_type: "minimax_m2",
        classes: &[("MiniMaxM2Model", Model), ("MiniMaxM2ForCausalLM", CausalLm)],
        keys: keys![sizes(200064, 3072, 1536, 62, 48, U(8), U(128), 196608), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(false), hidden_act: S("silu"), num_local_experts: U(256),
            num_experts_per_tok: U(8)],
        aliases: &[("num_experts", "num_local_experts")],
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        qk_norm: QkNorm::Full,
        moe: Some(MoeSpec { correction_buffer: Some("e_score_correction_bias"), ..MIXTRAL_MOE }),
        ..BASE
    },
    Spec {
        model_type: "granitemoe",
        classes: &[("GraniteMoeModel", Model), ("GraniteMoeForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(32000), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            hidden_act: S("silu"), attention_bias: B(false), num_local_experts: U(8),
            num_experts_per_tok: U(2)],
        // Its multipliers scale activations, not shapes; experts are stacked (`input_linear`,
        // `output_linear` in the checkpoints).
        moe: Some(MoeSpec {
            block: "block_sparse_moe",
            router: "router",
            experts_key: "num_local_experts",
            width_key: "intermediate_size",
            experts: Experts::Stacked { bias: false },
            ..MOE
        }),
        ..BASE
    },
    Spec {
        model_type: "flex_olmo",
        classes: &[("FlexOlmoModel", Model), ("FlexOlmoForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(100352), hidden_size: U(4096), intermediate_size: U(11008),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: Null,
            max_position_embeddings: U(4096), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            pad_token_id: U(100277), hidden_act: S("silu"), attention_bias: B(false), num_experts: U(7),
            num_experts_per_tok: U(5)],
        aliases: &[("num_local_experts", "num_experts")],
        // OLMo 2's layers: q/k norms over all heads, norms after each sublayer.
        qk_norm: QkNorm::Full,
        layer_norms: &[
            ("post_attention_layernorm", Slot::Between),
            ("post_feedforward_layernorm", Slot::After),
        ],
        moe: Some(MoeSpec { width_key: "intermediate_size", ..MOE }),
        ..BASE
    },
    Spec {
        model_type: "exaone_moe",
        classes: &[("ExaoneMoeModel", Model), ("ExaoneMoeForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(102400), hidden_size: U(4096), intermediate_size: U(16384),
            num_hidden_layers: U(32), num_attention_heads: U(32), num_key_value_heads: U(32),
            max_position_embeddings: U(2048), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            pad_token_id: U(0), hidden_act: S("silu"), sliding_window: U(4096), first_k_dense_replace: U(1),
            moe_intermediate_size: U(1024), num_experts: U(64), num_experts_per_tok: U(8),
            num_shared_experts: U(1)],
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        qk_norm: QkNorm::PerHead,
        moe: Some(MoeSpec {
            correction_buffer: Some("gate.e_score_correction_bias"),
            shared: Shared::Times { name: "shared_experts", key: "num_shared_experts" },
            sparse: Sparse::MlpTypes(Some("first_k_dense_replace")),
            ..MOE
        }),
        window: Window::Pattern { period_key: Some("sliding_window_pattern"), period: 4 },
        ..BASE
    },
    Spec {
        model_type: "dots1",
        classes: &[("Dots1Model", Model), ("Dots1ForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(152064), hidden_size: U(4608), intermediate_size: U(10944),
            moe_intermediate_size: U(1408), num_hidden_layers: U(62), num_attention_heads: U(32),
            num_key_value_heads: U(32), n_shared_experts: Null, n_routed_experts: Null,
            num_experts_per_tok: Null, first_k_dense_replace: U(0), max_position_embeddings: U(2048),
            rms_norm_eps: F(1e-6), tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false), sliding_window: U(4096), max_window_layers: U(62)],
        aliases: &[("num_local_experts", "n_routed_experts")],
        qk_norm: QkNorm::PerHead,
        moe: Some(MoeSpec {
            correction_buffer: Some("gate.e_score_correction_bias"),
            experts_key: "n_routed_experts",
            shared: Shared::Times { name: "shared_experts", key: "n_shared_experts" },
            sparse: Sparse::FirstDense("first_k_dense_replace"),
            ..MOE
        }),
        window: Window::From("max_window_layers"),
        ..BASE
    },
];
