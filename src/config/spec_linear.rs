//! Hybrids of Gated DeltaNet linear attention and gated full attention, as descriptions (see
//! `config/spec.rs`): Qwen3-Next and the Qwen3.5 language models. Three layers of four mix with
//! linear attention (`layer_types`, else `full_attention_interval`), which keeps a recurrent
//! state instead of a KV cache. Defaults are those of transformers 5.x's `configuration_<type>.py`.

use super::spec::{Attn, Dv, HeadKind, Linear, MoeSpec, QkNorm, Shared, Sparse, Spec};
use super::spec_dense::BASE;
use super::spec_moe::MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

/// Qwen's routed experts with a gated shared expert.
const QWEN_MOE: MoeSpec = MoeSpec {
    shared: Shared::Width { name: "shared_expert", key: "shared_expert_intermediate_size" },
    shared_gate: true,
    ..MOE
};

/// The keys every type here reads, with Qwen3-Next's defaults; `$own` adds or overrides.
macro_rules! qwen_keys {
    ($($k:literal => $v:expr),* $(,)?) => {
        &[$(($k, $v)),*, ("num_attention_heads", U(16)), ("max_position_embeddings", U(32768)),
          ("rms_norm_eps", F(1e-6)), ("tie_word_embeddings", B(false)), ("pad_token_id", Null),
          ("hidden_act", S("silu")), ("attention_bias", B(false)), ("head_dim", U(256)),
          ("linear_conv_kernel_dim", U(4)), ("linear_key_head_dim", U(128)),
          ("linear_value_head_dim", U(128)), ("linear_num_key_heads", U(16)),
          ("linear_num_value_heads", U(32))]
    };
}

/// Qwen3-Next's layers: q/k norms per head, a gated output, Gated DeltaNet elsewhere.
const HYBRID: Spec = Spec {
    qk_norm: QkNorm::PerHead,
    attn: Attn::GatedOutput,
    linear: Linear::GatedDeltaNet { fused: false },
    ..BASE
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "qwen3_next",
        classes: &[
            ("Qwen3NextModel", Model),
            ("Qwen3NextForCausalLM", CausalLm),
            ("Qwen3NextForSequenceClassification", Sequence),
            ("Qwen3NextForTokenClassification", Token),
        ],
        keys: qwen_keys![
            "vocab_size" => U(151936), "hidden_size" => U(2048), "intermediate_size" => U(5632),
            "num_hidden_layers" => U(48), "num_key_value_heads" => U(2),
            "decoder_sparse_step" => U(1), "moe_intermediate_size" => U(512),
            "shared_expert_intermediate_size" => U(512), "num_experts_per_tok" => U(10),
            "num_experts" => U(512),
        ],
        linear: Linear::GatedDeltaNet { fused: true },
        moe: Some(MoeSpec { sparse: Sparse::QwenStep, ..QWEN_MOE }),
        ..HYBRID
    },
    Spec {
        model_type: "qwen3_5_text",
        classes: &[
            ("Qwen3_5TextModel", Model),
            ("Qwen3_5ForCausalLM", CausalLm),
            ("Qwen3_5TextForSequenceClassification", Sequence),
        ],
        keys: qwen_keys![
            "vocab_size" => U(248320), "hidden_size" => U(4096), "intermediate_size" => U(12288),
            "num_hidden_layers" => U(32), "num_key_value_heads" => U(4),
        ],
        ..HYBRID
    },
    Spec {
        model_type: "qwen3_5_moe_text",
        classes: &[("Qwen3_5MoeTextModel", Model), ("Qwen3_5MoeForCausalLM", CausalLm)],
        keys: qwen_keys![
            "vocab_size" => U(248320), "hidden_size" => U(2048), "num_hidden_layers" => U(40),
            "num_key_value_heads" => U(2), "moe_intermediate_size" => U(512),
            "shared_expert_intermediate_size" => U(512), "num_experts_per_tok" => U(8),
            "num_experts" => U(256),
        ],
        // Every layer routes; the class has no dense width.
        dense_width_key: "moe_intermediate_size",
        moe: Some(QWEN_MOE),
        ..HYBRID
    },
];
