//! Decoder types described as data: each type is a [`Spec`], a table of the keys its config class
//! reads (with the class's defaults and `attribute_map` aliases), its classes, and the blocks its
//! layers stack (attention with its switches, norms and where they sit, a dense or gated MLP, a
//! mixture of experts with its routing, shared experts and dense layers, sliding or chunked
//! layers). One reader resolves any of them into a [`SpecConfig`]; one graph builder
//! (`graph/spec.rs`) plans it from the shared blocks. The tables are `spec_dense.rs`,
//! `spec_moe.rs` and `spec_shared.rs`; how to add a type is in the README ("Adding a model type").

use serde::Serialize;

use super::Defaulted;
use super::decoder::DecoderHead;
pub use super::spec_experts::{Experts, MoeSpec, Shared, Sparse};
pub use super::spec_extra::{Extra, Place, Width};
pub(crate) use super::spec_keys::{Reader, head, lookup};
pub use super::spec_mixers::Linear;

/// A config class's default for a key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Dv {
    U(u64),
    F(f64),
    B(bool),
    S(&'static str),
    /// The class leaves it None (`head_dim` then follows hidden / heads).
    Null,
}

/// Whether a projection has a bias: from a key of the table, or fixed by the modeling code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bias {
    Key(&'static str),
    Fixed(bool),
}

/// The norm a layer normalises with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NormKind {
    Rms,
    /// `nn.LayerNorm` with weight and bias (Phi-MoE).
    LayerNorm,
    /// A LayerNorm with a weight and no bias (Cohere).
    LayerNormNoBias,
    /// A LayerNorm without parameters (OLMo's).
    Bare,
    /// An RMSNorm without a weight (nanochat's); the q/k norms then have none either.
    BareRms,
    /// An RMSNorm when the file sets `rms_norm_eps`, else `LayerNormNoBias` (Cohere 2 MoE).
    RmsWhenEps,
}

/// Where a layer norm sits: before attention, between attention and the MLP, after the MLP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Before,
    Between,
    After,
}

/// Query and key norms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QkNorm {
    None,
    /// One scale of `head_dim` shared by every head (Qwen3, EXAONE 4).
    PerHead,
    /// Over all query (key) heads together (OLMoE).
    Full,
    /// OLMoE: the query norm as wide as the hidden state, the key norm over the key heads at
    /// hidden / heads each.
    OverHidden,
    /// A scale per head and channel, `[heads, head_dim]` (Cohere's `use_qk_norm`).
    HeadByChannel,
}

/// The MLP of a dense layer, and of each expert.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mlp {
    /// `gate_proj`, `up_proj`, `down_proj`.
    Gated,
    /// `gate_up_proj`, `down_proj` (GLM).
    GatedFused,
    /// `up_proj`, activation, `down_proj` (Arcee's ReLU²).
    Plain,
    /// `fc1`, activation, `fc2` (NanoChat).
    Fc,
}

/// The attention block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attn {
    /// `q_proj`, `k_proj`, `v_proj`, `o_proj` over grouped key/value heads.
    Grouped,
    /// Grouped, `q_proj` also making a sigmoid output gate: twice the rows (Qwen3-Next, Qwen3.5).
    GatedOutput,
    /// Grouped, with a separate sigmoid gate on the output: `gate_proj` (hidden to heads x
    /// head_dim) and a `gate_bias` per head (Beam).
    SeparateGate,
    /// Grouped, with a separate `gate_proj` making a sigmoid gate on the output (AFMoE).
    GateProj,
    /// Grouped, each head's output scaled by a sigmoid of `g_proj` (hidden to heads; LFM3).
    HeadGate,
    /// DeepSeek's latent attention (`q_a_proj` ... `kv_b_proj`), with DeepSeek-V3.2's lightning
    /// indexer where `indexer` says.
    Latent(Indexer),
}

/// Which latent-attention layers hold a lightning indexer (`self_attn.indexer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indexer {
    None,
    /// Every layer (DeepSeek-V3.2).
    Every,
    /// The layers `indexer_types` marks `full` (the others reuse the previous top-k: GLM-5).
    ByType,
}

/// Which layers attend within a window, and over which window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    None,
    /// `sliding_window` on every layer when set (Phi-MoE).
    AllWhenSet,
    /// `layer_types` when the file lists them, else a full layer every `period` (from the key
    /// when the class reads one, which may also be a string like "LLLG").
    Pattern {
        period_key: Option<&'static str>,
        period: u64,
    },
    /// `layer_types` when the file lists them, else a full layer every `period` from the first
    /// (Cwm, Granite SWA: `i % period == 0`).
    FullFirst {
        period: u64,
    },
    /// `layer_types` when the file lists them, else a window on the layers from the key's index
    /// on (Qwen2's `max_window_layers`, as dots.llm1 reads it).
    From(&'static str),
    /// `layer_types` of three kinds (`linear_attention`, `sliding_attention`, `full_attention`),
    /// else the class's pattern repeated (Lara Mini: `config/spec_dec5.rs`).
    ThreeKinds(&'static [&'static str]),
    /// Llama 4: chunked attention on the rotary layers (three of four, `no_rope_layer_interval`),
    /// over `attention_chunk_size` tokens.
    Chunked,
}

/// One model type, described.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub model_type: &'static str,
    /// Every class the modeling file defines that the planner builds, with its head.
    pub classes: &'static [(&'static str, HeadKind)],
    /// Keys the class reads, with its defaults. Keys not listed are never read or checked.
    pub keys: &'static [(&'static str, Dv)],
    /// `attribute_map`: a file may write the alias instead of the key.
    pub aliases: &'static [(&'static str, &'static str)],
    /// Key of the norm epsilon (`rms_norm_eps`, `layer_norm_eps`).
    pub eps_key: &'static str,
    pub qkv_bias: Bias,
    pub o_bias: Bias,
    pub qk_norm: QkNorm,
    /// A key that switches the q/k norm on (Cohere's `use_qk_norm`); None: always as `qk_norm`.
    pub qk_norm_key: Option<&'static str>,
    /// gpt-oss's learned attention sinks, one per head.
    pub sinks: bool,
    pub norm: NormKind,
    /// The layer's norms, in order, by name and slot.
    pub layer_norms: &'static [(&'static str, Slot)],
    pub mlp: Mlp,
    pub mlp_bias: Bias,
    /// The dense MLP's width key (`intermediate_size_mlp` for Llama 4).
    pub dense_width_key: &'static str,
    pub moe: Option<MoeSpec>,
    pub lm_bias: Bias,
    pub window: Window,
    /// The q/k norms' module names (`q_norm`, `k_norm`; Hunyuan's `query_layernorm`).
    pub qk_norm_names: [&'static str; 2],
    /// `o_proj` maps hidden to hidden whatever heads x head_dim is (Helium).
    pub o_from_hidden: bool,
    /// Norms a boolean key adds to each layer when it reads `when` (HyperCLOVA X's
    /// `use_post_norm`; StableLM's `use_parallel_residual` drops the second norm).
    pub switched_norms: Option<SwitchedNorms>,
    /// Tensors beyond the blocks' own (BitNet's sub-norms, DiffLlama's lambdas, xIELU's alphas).
    pub extras: &'static [Extra],
    pub attn: Attn,
    pub linear: Linear,
    /// Layers whose attention differs in shape (`config/spec_dec6.rs`).
    pub layer_heads: super::spec_dec6::LayerHeads,
}

#[derive(Debug, Clone, Copy)]
pub struct SwitchedNorms {
    pub key: &'static str,
    pub when: bool,
    pub norms: &'static [(&'static str, Slot)],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadKind {
    Model,
    CausalLm,
    Sequence,
    Token,
    /// `qa_outputs`, span start and end (GPT-Neo, GPT-J).
    QuestionAnswering,
}

/// A resolved config of a described type: every size the graph needs, no optional structure.
#[derive(Debug, Clone, Serialize)]
pub struct SpecConfig {
    pub model_type: String,
    #[serde(skip)]
    pub spec: &'static Spec,
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    /// The head's logits: `output_vocab_size` where the table lists it (Apertus 1.5), else vocab.
    pub lm_rows: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub intermediate_size: u64,
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub qk_norm: bool,
    /// Whether the type's switched norms are there (see [`SwitchedNorms`]).
    pub switched_norms: bool,
    pub mlp_bias: bool,
    pub lm_bias: bool,
    pub num_experts: Option<u64>,
    pub experts_per_token: Option<u64>,
    pub expert_width: u64,
    pub shared_width: Option<u64>,
    /// For each layer, whether its MLP is the mixture of experts.
    pub sparse_layers: Vec<bool>,
    /// Per layer, the attention window (None: full).
    pub windows: Vec<Option<u64>>,
    pub max_position_embeddings: u64,
    #[serde(skip)]
    pub norm: NormKind,
    pub norm_eps: f64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    /// Latent attention's sizes, where the type has it.
    pub latent: Option<super::spec_mixers::LatentDims>,
    /// Per layer, whether its latent attention holds an indexer (empty: none does).
    pub indexed_layers: Vec<bool>,
    /// The linear-attention mixer's sizes, where the type has one.
    pub linear: Option<super::spec_mixers::LinearDims>,
    /// Per layer, whether it mixes with linear attention instead of attention (empty: none).
    pub linear_layers: Vec<bool>,
    /// A Mamba-2 hybrid's mixer sizes and per-layer blocks (`config/spec_hybrid.rs`).
    pub hybrid: Option<super::spec_hybrid::HybridDims>,
    /// Multi-token-prediction layers the published checkpoints store beside the class's
    /// weights (`num_nextn_predict_layers`, `mtp_num_hidden_layers`); no class loads them.
    pub mtp_layers: u64,
    pub defaulted: Vec<Defaulted>,
    /// What the types of `config/spec_own.rs` read beyond the shared tables.
    #[serde(skip)]
    pub own: super::spec_own::Own,
}
