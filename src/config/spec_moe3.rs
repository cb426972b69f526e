//! More mixtures of experts and latent-attention decoders as descriptions (see `config/spec.rs`):
//! Hunyuan-MoE, Sarvam's two (which transformers loads through GLM-4.5's and DeepSeek-V3's
//! classes), Solar Open, Hy-V3, AFMoE, Cohere 2 MoE, MiniMax (lightning attention), and Youtu and
//! MiniCPM3 (dense layers around latent attention). Defaults are those of transformers 5.24's
//! `configuration_<type>.py`; routed experts are named one module each, as the published
//! checkpoints store them. Key tables use `spec_llama_like.rs`'s `keys!`, where `sizes(vocab,
//! hidden, ffn, layers, heads, kv heads, head_dim, positions)` stands for the eight common keys.

use super::spec::{
    Attn, Bias, Dv, Experts, HeadKind, Indexer, Linear, MoeSpec, NormKind, QkNorm, Shared, Slot, Sparse,
    Spec, Window,
};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::spec_moe::{MIXTRAL_MOE, MOE};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

/// GLM-4.5's block (`Glm4MoeMoE`): a sigmoid router with its correction buffer, the routed
/// experts, `n_shared_experts` fused into `shared_experts`, dense layers first.
const GLM_MOE: MoeSpec = MoeSpec {
    correction_buffer: Some("gate.e_score_correction_bias"),
    experts_key: "n_routed_experts",
    shared: Shared::Times { name: "shared_experts", key: "n_shared_experts" },
    sparse: Sparse::FirstDense("first_k_dense_replace"),
    ..MOE
};

/// Sarvam-MoE's `attribute_map`; Sarvam-MLA's is the same without its first entry.
const SARVAM_ALIASES: &[(&str, &str)] = &[
    ("use_qkv_bias", "attention_bias"),
    ("num_local_experts", "n_routed_experts"),
    ("num_experts", "n_routed_experts"),
    ("num_shared_experts", "n_shared_experts"),
];

/// Llama's dense layers around DeepSeek's latent attention (Youtu, MiniCPM3).
const DENSE_LATENT: Spec =
    Spec { attn: Attn::Latent(Indexer::None), mlp_bias: Bias::Key("mlp_bias"), ..BASE };

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "hunyuan_v1_moe",
        classes: classes!("HunYuanMoEV1": Model, ForCausalLM, ForSequenceClassification),
        keys: keys![sizes(290943, 4096, 11008, 32, 32, Null, Null, 2048), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: U(0), hidden_act: S("silu"),
            attention_bias: B(false), num_experts: U(1), moe_topk: U(1)],
        aliases: &[("num_experts_per_tok", "moe_topk"), ("num_local_experts", "num_experts")],
        // Hunyuan-dense's attention: a per-head RMSNorm on queries and keys, under its own names.
        qk_norm: QkNorm::PerHead,
        qk_norm_names: ["query_layernorm", "key_layernorm"],
        // Every layer: the router `gate.wg`, Mixtral's experts at `intermediate_size`, and a
        // shared MLP as wide beside them (`shared_mlp`).
        moe: Some(MoeSpec {
            router: "gate.wg",
            top_k_key: "moe_topk",
            width_key: "intermediate_size",
            shared: Shared::Width { name: "shared_mlp", key: "intermediate_size" },
            ..MOE
        }),
        ..BASE
    },
    Spec {
        model_type: "sarvam_moe",
        classes: classes!("Glm4Moe": Model, ForCausalLM),
        keys: keys![sizes(262144, 4096, 8192, 19, 64, U(4), U(64), 131072), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(false), pad_token_id: U(0), hidden_act: S("silu"),
            attention_bias: B(false), use_qk_norm: B(true), moe_intermediate_size: U(1024),
            num_experts_per_tok: U(6), n_shared_experts: U(1), n_routed_experts: U(128),
            first_k_dense_replace: U(1)],
        aliases: SARVAM_ALIASES,
        // GLM-4.5's layers: biased q/k/v by key, `o_proj` without, per-head q/k norms by key.
        o_bias: Bias::Fixed(false),
        qk_norm: QkNorm::PerHead,
        qk_norm_key: Some("use_qk_norm"),
        moe: Some(GLM_MOE),
        ..BASE
    },
    Spec {
        model_type: "solar_open",
        classes: classes!("SolarOpen": Model, ForCausalLM),
        keys: keys![vocab_size: U(196608), hidden_size: U(4096), num_hidden_layers: U(48),
            num_attention_heads: U(64), num_key_value_heads: U(8), head_dim: U(128),
            max_position_embeddings: U(131072), rms_norm_eps: F(1e-5), tie_word_embeddings: B(false),
            pad_token_id: Null, hidden_act: S("silu"), attention_bias: B(false),
            moe_intermediate_size: U(1280), num_experts_per_tok: U(8), n_shared_experts: U(1),
            n_routed_experts: U(128)],
        aliases: &[("num_local_experts", "n_routed_experts")],
        o_bias: Bias::Fixed(false),
        // The class drops `intermediate_size`: every layer is GLM-4.5's sparse block, so the
        // dense width is never built.
        dense_width_key: "moe_intermediate_size",
        moe: Some(MoeSpec { sparse: Sparse::All, ..GLM_MOE }),
        ..BASE
    },
    Spec {
        model_type: "sarvam_mla",
        classes: classes!("DeepseekV3": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![sizes(262144, 4096, 16384, 32, 64, Null, Null, 4096), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false), moe_intermediate_size: U(2048), n_shared_experts: U(1),
            n_routed_experts: U(128), num_experts_per_tok: U(8), first_k_dense_replace: U(1),
            kv_lora_rank: U(512), q_lora_rank: Null, qk_rope_head_dim: U(64), v_head_dim: U(128),
            qk_nope_head_dim: U(128)],
        aliases: SARVAM_ALIASES.split_at(1).1,
        attn: Attn::Latent(Indexer::None),
        // DeepSeek-V3's layers: sparse from `first_k_dense_replace` on (it reads no layer list).
        moe: Some(GLM_MOE),
        ..BASE
    },
    Spec {
        model_type: "youtu",
        classes: classes!("Youtu": Model, ForCausalLM),
        keys: keys![sizes(128256, 2048, 6144, 32, 16, U(16), Null, 131072), rms_norm_eps: F(1e-6),
            tie_word_embeddings: B(true), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false), kv_lora_rank: U(512), q_lora_rank: U(1536),
            qk_rope_head_dim: U(64), v_head_dim: U(128), qk_nope_head_dim: U(128)],
        // Qwen3's MLP, without biases.
        mlp_bias: Bias::Fixed(false),
        ..DENSE_LATENT
    },
    Spec {
        model_type: "minicpm3",
        classes: classes!("MiniCPM3": Model, ForCausalLM, ForSequenceClassification),
        keys: keys![sizes(73448, 2560, 6400, 62, 40, U(40), Null, 32768), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(true), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false), kv_lora_rank: U(256), q_lora_rank: U(768),
            qk_nope_head_dim: U(64), qk_rope_head_dim: U(32), v_head_dim: Null],
        // DeepSeek-V2's latent attention; its embedding and depth scales are a buffer and
        // constants, not weights.
        ..DENSE_LATENT
    },
    Spec {
        model_type: "hy_v3",
        classes: classes!("HYV3": Model, ForCausalLM),
        keys: keys![sizes(120832, 4096, 13312, 80, 64, U(8), U(128), 131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false), mlp_bias: B(false), num_experts: U(192),
            num_experts_per_tok: U(8), num_shared_experts: U(1), moe_intermediate_size: U(1536)],
        aliases: &[("num_local_experts", "num_experts")],
        // Apertus's attention (per-head q/k norms), Llama's MLP with biases by key; a dense first
        // layer unless `mlp_layer_types` says otherwise, then a router whose correction buffer
        // sits on the block, and `num_shared_experts` fused into `shared_experts`.
        qk_norm: QkNorm::PerHead,
        mlp_bias: Bias::Key("mlp_bias"),
        moe: Some(MoeSpec {
            correction_buffer: Some("e_score_correction_bias"),
            shared: Shared::Times { name: "shared_experts", key: "num_shared_experts" },
            sparse: Sparse::MlpTypes(None),
            ..MOE
        }),
        ..BASE
    },
    Spec {
        model_type: "afmoe",
        classes: classes!("Afmoe": Model, ForCausalLM),
        keys: keys![sizes(200192, 2048, 6144, 32, 16, Null, U(128), 16384), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
            attention_bias: B(false), moe_intermediate_size: U(1408), num_dense_layers: U(1),
            num_experts: U(64), num_experts_per_tok: U(6), num_shared_experts: U(2),
            global_attn_every_n_layers: U(4), sliding_window: U(1024)],
        // Per-head q/k norms and a sigmoid output gate of its own (`gate_proj`); norms before and
        // after each sublayer.
        attn: Attn::GateProj,
        qk_norm: QkNorm::PerHead,
        layer_norms: &[
            ("input_layernorm", Slot::Before),
            ("post_attention_layernorm", Slot::Between),
            ("pre_mlp_layernorm", Slot::Between),
            ("post_mlp_layernorm", Slot::After),
        ],
        // `num_dense_layers` dense first; then `router.gate`, the learned `expert_bias` on the
        // block, the routed experts and `num_shared_experts` fused into `shared_experts`.
        moe: Some(MoeSpec {
            router: "router.gate",
            expert_bias: Some("expert_bias"),
            shared: Shared::Times { name: "shared_experts", key: "num_shared_experts" },
            sparse: Sparse::FirstDense("num_dense_layers"),
            ..MOE
        }),
        // Sliding layers, full attention on every `global_attn_every_n_layers`-th.
        window: Window::Pattern { period_key: Some("global_attn_every_n_layers"), period: 4 },
        ..BASE
    },
    Spec {
        model_type: "minimax",
        classes: classes!("MiniMax": Model, ForCausalLM, ForSequenceClassification, ForTokenClassification),
        keys: keys![sizes(32000, 4096, 14336, 32, 32, U(8), Null, 131072), rms_norm_eps: F(1e-5),
            tie_word_embeddings: B(false), pad_token_id: Null, hidden_act: S("silu"),
            num_local_experts: U(8), num_experts_per_tok: U(2)],
        aliases: &[("num_experts", "num_local_experts")],
        qkv_bias: Bias::Fixed(false),
        o_bias: Bias::Fixed(false),
        // Mixtral's layers, lightning attention in place of attention on the layers
        // `layer_types` marks `linear_attention`.
        moe: Some(MIXTRAL_MOE),
        window: Window::AllWhenSet,
        linear: Linear::Lightning,
        ..BASE
    },
    Spec {
        model_type: "cohere2_moe",
        classes: classes!("Cohere2Moe": Model, ForCausalLM),
        keys: keys![sizes(256000, 8192, 22528, 40, 64, Null, U(128), 8192), layer_norm_eps: F(1e-5),
            tie_word_embeddings: B(true), pad_token_id: U(0), hidden_act: S("silu"),
            attention_bias: B(false), sliding_window: U(4096), num_experts: U(8),
            num_experts_per_tok: U(2), num_shared_experts: U(0),
            prefix_dense_intermediate_size: U(22528)],
        // Dense layers are as wide as `prefix_dense_intermediate_size`, else `intermediate_size`.
        aliases: &[("intermediate_size", "prefix_dense_intermediate_size")],
        dense_width_key: "prefix_dense_intermediate_size",
        eps_key: "layer_norm_eps",
        // Cohere 2's parallel layer: attention and the MLP read one norm's output.
        norm: NormKind::RmsWhenEps,
        layer_norms: &[("input_layernorm", Slot::Before)],
        // Dense layers first (`mlp_layer_types`), then Mixtral's stacked experts at
        // `intermediate_size` and `num_shared_experts` of that width fused in `shared_experts`.
        moe: Some(MoeSpec {
            width_key: "intermediate_size",
            experts: Experts::Stacked { bias: false },
            shared: Shared::Times { name: "shared_experts", key: "num_shared_experts" },
            sparse: Sparse::MlpTypes(Some("first_k_dense_replace")),
            ..MOE
        }),
        window: Window::Pattern { period_key: Some("sliding_window_pattern"), period: 4 },
        ..BASE
    },
];
