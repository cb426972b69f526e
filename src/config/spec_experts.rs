//! The mixture-of-experts part of a [`Spec`](super::spec::Spec): how the routed experts are
//! stored, which layers route through them, the shared expert beside them, and the router.

/// How the routed experts are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Experts {
    /// One module per expert: `experts.{e}.gate_proj` ... (the names checkpoints use).
    PerExpert { gate: &'static str, up: &'static str, down: &'static str },
    /// Stacked `[experts, ...]` tensors (`experts.gate_up_proj`), as gpt-oss and Llama 4 store
    /// them; `bias` adds gpt-oss's `gate_up_proj_bias` and `down_proj_bias`.
    Stacked { bias: bool },
}

/// Which layers route through the experts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sparse {
    All,
    /// The first k layers dense (`first_k_dense_replace`).
    FirstDense(&'static str),
    /// Every `step`-th layer sparse unless a list key names them (Llama 4's
    /// `interleave_moe_layer_step` and `moe_layers`).
    Step {
        step: &'static str,
        list: &'static str,
    },
    /// ERNIE 4.5: from `moe_layer_start_index` to `moe_layer_end_index` (-1: the last), every
    /// `moe_layer_interval`-th.
    Range,
    /// Qwen's: every `decoder_sparse_step`-th layer unless `mlp_only_layers` names it.
    QwenStep,
    /// Qwen's, with `mlp_only_layers` these layers when the file lists none (Flint: [0, 1]).
    QwenStepDense(&'static [u64]),
    /// `mlp_layer_types` when the file lists them, else the first n layers dense (Beam 3, Mellum 0).
    MlpTypesFirst(u64),
    /// `mlp_layer_types` (`dense` or `sparse`) when the file lists them, else the first k layers
    /// dense: k from the key, or 1 where the class reads no such key (GLM-4.7-Flash).
    MlpTypes(Option<&'static str>),
    /// `mlp_layer_types`, else sparse where `i >= first_k_dense_replace` (default 1) and
    /// `i % moe_layer_freq == 0` (A.X K1's legacy keys).
    MlpTypesFreq,
}

/// The always-on shared expert beside the routed ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shared {
    None,
    /// As wide as a key says (`intermediate_size` for Llama 4).
    Width {
        name: &'static str,
        key: &'static str,
    },
    /// `n` experts' width fused into one MLP (`n_shared_experts` x `moe_intermediate_size`);
    /// none when `n` is 0.
    Times {
        name: &'static str,
        key: &'static str,
    },
    /// A gated MLP beside the expert block, at the layer's level, as wide as the key (none when
    /// 0), its gate and up projections fused: Granite's `shared_mlp.input_linear` and
    /// `output_linear`.
    Beside {
        name: &'static str,
        key: &'static str,
    },
}

#[derive(Debug, Clone, Copy)]
pub struct MoeSpec {
    /// The layer's MLP module (`mlp`, `feed_forward`).
    pub block: &'static str,
    /// `gate` or `router`, with its bias.
    pub router: &'static str,
    pub router_bias: bool,
    /// ERNIE's `gate.moe_statics.e_score_correction_bias`, a `[1, experts]` parameter.
    pub correction_param: bool,
    /// A router's score-correction buffer by its name (GLM-4.5's `gate.e_score_correction_bias`).
    pub correction_buffer: Option<&'static str>,
    /// A `[experts]` parameter under the block biasing expert choice (AFMoE's `expert_bias`).
    pub expert_bias: Option<&'static str>,
    pub experts_key: &'static str,
    pub top_k_key: &'static str,
    pub width_key: &'static str,
    pub experts: Experts,
    pub shared: Shared,
    /// Qwen's sigmoid gate on the shared expert, `shared_expert_gate` (hidden -> 1).
    pub shared_gate: bool,
    pub sparse: Sparse,
}
