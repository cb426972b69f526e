//! Decoder types transformers added in 2025-26 that are a known layer under new keys or
//! defaults, as descriptions (see `config/spec.rs`): Ministral 3 (Mistral's layers), Kolibri 1
//! (EXAONE 4's attention, GLM-4's four norms, a bias-corrected router and a shared expert),
//! Mellum (Qwen3-MoE's layers, dense or sparse by `mlp_layer_types`), Aria's language model
//! (Llama's attention, stacked experts, shared experts as wide as n experts), Cohere Compass's
//! (Cohere 2's parallel layer), Flint (Qwen3-MoE's with sinks and an ungated shared expert) and
//! Apertus 1.5's (Apertus' layers, its head maybe pruned) and Beam (Qwen3's attention with a
//! separate sigmoid output gate, Gemma 2's four norms, routed experts after three dense layers).
//! Defaults are those of transformers 5.24's
//! `configuration_<type>.py`; each entry starts from [`BASE`] and says only what differs.

use super::spec::{
    Attn, Bias, Dv, Experts, HeadKind, MoeSpec, NormKind, QkNorm, Shared, Slot, Sparse, Spec, Window,
};
use super::spec_dense::{BASE, GLM4_NORMS};
use super::spec_llama_like::{APERTUS, classes, head_of, keys};
use super::spec_moe::MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

/// Qwen3-MoE's stacked experts (`experts.gate_up_proj`, `experts.down_proj`) behind `mlp.gate`.
const STACKED: MoeSpec = MoeSpec { experts: Experts::Stacked { bias: false }, ..MOE };

/// Qwen3-MoE's reading: `sizes(...)` as in `keys!`, then the keys every Qwen-lineage MoE here reads
/// alike (RMSNorm at 1e-6, untied, SiLU, no attention bias), then the type's own.
macro_rules! qwen_moe_keys {
    (sizes($($s:expr),*) $(, $k:ident : $x:expr)* $(,)?) => {
        keys![sizes($($s),*), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            hidden_act: S("silu"), attention_bias: B(false) $(, $k: $x)*]
    };
}

/// `layer_types` when the file lists them, else every layer full (a period of one).
const LISTED_WINDOWS: Window = Window::Pattern { period_key: None, period: 1 };

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "ministral3",
        classes: classes!("Ministral3": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![sizes(131072, 4096, 14336, 34, 32, U(8), U(128), 262144), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(11), hidden_act: S("silu"),
            sliding_window: Null],
        // Mistral's projections carry no bias; its window, when set, is on every layer.
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        window: Window::AllWhenSet,
        ..BASE
    },
    Spec {
        model_type: "kolibri1",
        classes: classes!("Kolibri1": Model, ForCausalLM),
        // No dense layer: the class deletes `intermediate_size` and every MLP is the experts'.
        keys: keys![vocab_size: U(128000), hidden_size: U(2560), num_hidden_layers: U(50),
            num_attention_heads: U(48), num_key_value_heads: U(4), head_dim: U(128),
            max_position_embeddings: U(262144), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
            hidden_act: S("silu"), sliding_window: U(513), moe_intermediate_size: U(512),
            shared_expert_intermediate_size: U(512), num_experts_per_tok: U(6),
            num_local_experts: U(384)],
        aliases: &[("num_experts", "num_local_experts")],
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        qk_norm: QkNorm::PerHead,
        layer_norms: GLM4_NORMS,
        dense_width_key: "moe_intermediate_size",
        moe: Some(MoeSpec {
            correction_buffer: Some("gate.e_score_correction_bias"),
            experts_key: "num_local_experts",
            shared: Shared::Width { name: "shared_experts", key: "shared_expert_intermediate_size" },
            ..STACKED
        }),
        // Full attention on every fifth layer.
        window: Window::Pattern { period_key: None, period: 5 },
        ..BASE
    },
    Spec {
        model_type: "mellum",
        classes: classes!("Mellum": Model, ForCausalLM),
        keys: qwen_moe_keys![sizes(98304, 2304, 7168, 28, 32, U(4), U(128), 131072),
            sliding_window: U(1024), moe_intermediate_size: U(896), num_experts_per_tok: U(8),
            num_local_experts: U(64)],
        aliases: &[("num_experts", "num_local_experts")],
        qk_norm: QkNorm::PerHead,
        window: LISTED_WINDOWS,
        moe: Some(MoeSpec { experts_key: "num_local_experts", sparse: Sparse::MlpTypesFirst(0), ..STACKED }),
        ..BASE
    },
    Spec {
        model_type: "aria_text",
        keys: keys![sizes(32000, 4096, 4096, 32, 32, Null, Null, 2048), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(false), pad_token_id: U(2), hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false), moe_num_experts: U(8), moe_topk: U(2),
            moe_num_shared_experts: U(2)],
        classes: classes!("AriaText": Model, ForCausalLM),
        mlp_bias: Bias::Key("mlp_bias"),
        moe: Some(MoeSpec {
            router: "router",
            experts_key: "moe_num_experts",
            top_k_key: "moe_topk",
            width_key: "intermediate_size",
            shared: Shared::Times { name: "shared_experts", key: "moe_num_shared_experts" },
            ..STACKED
        }),
        ..BASE
    },
    Spec {
        model_type: "cohere_compass_text",
        classes: &[
            ("CohereCompassTextModel", Model),
            ("CohereCompassForCausalLM", CausalLm),
            ("CohereCompassTextForSequenceClassification", Sequence),
        ],
        keys: keys![vocab_size: U(256000), hidden_size: U(8192), intermediate_size: U(22528),
            num_hidden_layers: U(40), num_attention_heads: U(64), num_key_value_heads: Null,
            max_position_embeddings: U(8192), layer_norm_eps: F(1e-5), tie_word_embeddings: B(true),
            pad_token_id: U(0), hidden_act: S("silu"), attention_bias: B(false),
            sliding_window: U(4096)],
        eps_key: "layer_norm_eps",
        // Attention and the MLP read the same normed input, in parallel (Cohere 2's layer).
        norm: NormKind::LayerNormNoBias,
        layer_norms: &[("input_layernorm", Slot::Before)],
        window: LISTED_WINDOWS,
        ..BASE
    },
    Spec {
        model_type: "flint",
        keys: qwen_moe_keys![sizes(150144, 2048, 6144, 49, 32, U(4), U(128), 262144),
            sliding_window: U(513), decoder_sparse_step: U(1), moe_intermediate_size: U(512),
            shared_expert_intermediate_size: U(1024), num_experts_per_tok: U(6), num_experts: U(256)],
        classes: classes!("Flint": Model, ForCausalLM),
        qk_norm: QkNorm::PerHead,
        sinks: true,
        moe: Some(MoeSpec {
            // Its shared expert has no sigmoid gate, unlike Qwen2-MoE's.
            shared: Shared::Width { name: "shared_expert", key: "shared_expert_intermediate_size" },
            sparse: Sparse::QwenStepDense(&[0, 1]),
            ..STACKED
        }),
        // FlintConfig writes `layer_types` (full on layers 0, 1, every fourth from 1 and the
        // last); a file without them is read as all full, so its cache errs large, never small.
        window: LISTED_WINDOWS,
        ..BASE
    },
    Spec {
        model_type: "apertus1p5_text",
        keys: keys![sizes(266752, 4096, 14336, 32, 32, Null, Null, 65536), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(3), hidden_act: S("xielu"),
            attention_bias: B(false), output_vocab_size: Null],
        classes: classes!("Apertus1p5Text": Model, ForCausalLM),
        ..APERTUS
    },
    Spec {
        model_type: "beam",
        classes: classes!("Beam": Model, ForCausalLM, ForTokenClassification),
        keys: qwen_moe_keys![sizes(151936, 5120, 20480, 52, 48, U(8), U(128), 8192),
            sliding_window: U(512), moe_intermediate_size: U(2560), num_experts_per_tok: U(8),
            num_experts: U(256)],
        qk_norm: QkNorm::PerHead,
        attn: Attn::SeparateGate,
        layer_norms: &[
            ("input_layernorm", Slot::Before),
            ("post_attention_layernorm", Slot::Between),
            ("pre_feedforward_layernorm", Slot::Between),
            ("post_feedforward_layernorm", Slot::After),
        ],
        moe: Some(MoeSpec {
            correction_buffer: Some("gate.e_score_correction_bias"),
            sparse: Sparse::MlpTypesFirst(3),
            ..STACKED
        }),
        // BeamConfig writes `layer_types` (full on every sixth layer and the last); a file
        // without them is read as all full, so its cache errs large, never small.
        window: LISTED_WINDOWS,
        ..BASE
    },
];
