//! Hybrids of Mamba-2 mixers and attention, as descriptions (see `config/spec.rs`): Bamba,
//! Granite 4.0 (`granitemoehybrid`) and Nemotron-H. Their Mamba-2 mixer is one block
//! ([`Mamba2Dims`], built by `graph/mamba2.rs`, which `mamba2` itself also uses); what differs is
//! the keys it reads, which layers hold it, and the module names. Defaults are those of
//! transformers 5.24's `configuration_<type>.py`.

use serde::Serialize;

use super::spec::{Dv, Experts, HeadKind, Linear, MoeSpec, NormKind, Shared, Slot, Spec};
use super::spec_dense::BASE;
pub(crate) use super::spec_hybrid_read::{block_count, no_experts, read};
use super::spec_llama_like::keys;
use super::spec_moe::MOE;
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

/// The Mamba-2 mixer's sizes: heads of `head_dim` channels (`inner` in all), B and C in
/// `groups`, a state of `state` per channel, a causal convolution of `conv_kernel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mamba2Dims {
    pub heads: u64,
    pub head_dim: u64,
    pub groups: u64,
    pub state: u64,
    pub conv_kernel: u64,
    pub inner: u64,
    pub conv_bias: bool,
    /// `in_proj`'s bias, and `out_proj`'s (Falcon-H1 reads that from its own key).
    pub proj_bias: bool,
    pub out_bias: bool,
    /// The gated RMSNorm before `out_proj` (Falcon-H1's `mamba_rms_norm` may leave it out).
    pub gated_norm: bool,
}

impl Mamba2Dims {
    /// Channels the convolution runs over: x, B and C.
    pub fn conv_channels(&self) -> u64 {
        self.inner + 2 * self.groups * self.state
    }
}

/// What one layer of a hybrid holds. Bamba's and Granite's layers pair a mixer (Mamba-2 or
/// attention) with an MLP; each of Nemotron-H's layers is a single block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Block {
    Mamba,
    Attention,
    Mlp,
    Moe,
    /// Attention and the Mamba-2 mixer side by side on the same input (Falcon-H1).
    Parallel,
}

/// A resolved hybrid: the mixer's sizes and each layer's block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HybridDims {
    pub mamba: Mamba2Dims,
    pub blocks: Vec<Block>,
    /// Nemotron-H's optional latent the routed experts work in (`moe_latent_size`).
    pub moe_latent: Option<u64>,
    /// Granite 4.0 without experts (`num_local_experts` 0): the shared MLP's width, the layer's
    /// only MLP.
    pub shared_only: Option<u64>,
}

/// A hybrid's description beside its `Spec`: the mixer's keys and the modules' names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hybrid {
    /// The keys of the mixer's heads, their width, the groups of B and C, the state per channel.
    pub heads: &'static str,
    pub head_dim: &'static str,
    pub groups: &'static str,
    pub state: &'static str,
    /// The keys of the convolution's kernel, its bias, `in_proj`'s and `out_proj`'s biases.
    pub conv: &'static str,
    pub conv_bias: &'static str,
    pub proj_bias: &'static str,
    pub out_bias: &'static str,
    /// A key that switches the gated norm on; None: always there.
    pub norm_key: Option<&'static str>,
    pub inner: Inner,
    pub layout: Layout,
    /// The mixer's module (`mamba`, `mixer`), the dense MLP's, the prefix, embeddings and final norm.
    pub mixer: &'static str,
    pub mlp: &'static str,
    pub prefix: &'static str,
    pub embed: &'static str,
    pub final_norm: &'static str,
    /// Whether `tie_word_embeddings` ties the head (Nemotron-H's class ties nothing).
    pub ties: bool,
}

/// How the mixer's channels follow from the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inner {
    /// `expand x hidden_size` (unless `width` names a key the file sets, Falcon-H1's
    /// `mamba_d_ssm`), and `head_dim` may be "auto" (that over the heads).
    Expand { expand: &'static str, width: Option<&'static str> },
    /// heads x head_dim (Nemotron-H).
    Heads,
}

/// Which layers are Mamba-2 layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Attention on the layers a list of indices names, Mamba elsewhere (Bamba).
    AttnIndices(&'static str),
    /// `layer_types` (`linear_attention`/`mamba` or `full_attention`/`attention`), all Mamba
    /// when absent (Granite 4.0).
    LayerTypes,
    /// One block per layer from `layers_block_type` or the pattern string
    /// `hybrid_override_pattern` (`M` Mamba, `*` attention, `-` MLP, `E` experts), which also
    /// sets the layer count (Nemotron-H).
    Blocks,
    /// Attention and Mamba-2 side by side in every layer (Falcon-H1).
    Parallel,
}

const BAMBA: Hybrid = Hybrid {
    heads: "mamba_n_heads",
    head_dim: "mamba_d_head",
    groups: "mamba_n_groups",
    state: "mamba_d_state",
    conv: "mamba_d_conv",
    conv_bias: "mamba_conv_bias",
    proj_bias: "mamba_proj_bias",
    out_bias: "mamba_proj_bias",
    norm_key: None,
    inner: Inner::Expand { expand: "mamba_expand", width: None },
    layout: Layout::AttnIndices("attn_layer_indices"),
    mixer: "mamba",
    mlp: "feed_forward",
    prefix: "model.",
    embed: "embed_tokens",
    final_norm: "final_layernorm",
    ties: true,
};

const NEMOTRON_H: Hybrid = Hybrid {
    heads: "mamba_num_heads",
    head_dim: "mamba_head_dim",
    groups: "n_groups",
    state: "ssm_state_size",
    conv: "conv_kernel",
    conv_bias: "use_conv_bias",
    proj_bias: "use_bias",
    out_bias: "use_bias",
    norm_key: None,
    inner: Inner::Heads,
    layout: Layout::Blocks,
    mixer: "mixer",
    mlp: "mixer",
    prefix: "backbone.",
    embed: "embeddings",
    final_norm: "norm_f",
    ties: false,
};

/// The Mamba-2 keys Bamba, Granite 4.0 and Falcon-H1 share, with their defaults, after the
/// eight sizes (`keys!`).
macro_rules! mamba_keys {
    (sizes $s:tt $(, $k:ident : $x:expr)* $(,)?) => {
        keys![sizes $s, mamba_n_heads: U(128), mamba_d_head: S("auto"), mamba_n_groups: U(1),
            mamba_d_state: U(256), mamba_d_conv: U(4), mamba_expand: U(2), mamba_conv_bias: B(true),
            mamba_proj_bias: B(false), hidden_act: S("silu"), attention_bias: B(false),
            tie_word_embeddings: B(false) $(, $k: $x)*]
    };
}

/// Norms before the mixer and before the MLP.
const PRE_FF: &[(&str, Slot)] = &[("input_layernorm", Slot::Before), ("pre_ff_layernorm", Slot::Between)];

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "bamba",
        classes: &[("BambaModel", Model), ("BambaForCausalLM", CausalLm)],
        keys: mamba_keys![sizes(128000, 4096, 14336, 32, 32, U(8), Null, 262144), rms_norm_eps: F(1e-5),
            pad_token_id: U(0), mlp_bias: B(false)],
        mlp_bias: super::spec::Bias::Key("mlp_bias"),
        layer_norms: PRE_FF,
        linear: Linear::Mamba2(&BAMBA),
        ..BASE
    },
    Spec {
        model_type: "granitemoehybrid",
        classes: &[("GraniteMoeHybridModel", Model), ("GraniteMoeHybridForCausalLM", CausalLm)],
        keys: mamba_keys![sizes(32000, 4096, 11008, 32, 32, Null, Null, 2048), rms_norm_eps: F(1e-6),
            num_local_experts: U(8), num_experts_per_tok: U(2), shared_intermediate_size: U(1024)],
        aliases: &[("layers_block_type", "layer_types")],
        moe: Some(super::spec_granite::GRANITE_MOE),
        linear: Linear::Mamba2(&Hybrid {
            layout: Layout::LayerTypes,
            mlp: "shared_mlp",
            final_norm: "norm",
            ..BAMBA
        }),
        ..BASE
    },
    Spec {
        model_type: "falcon_h1",
        classes: &[("FalconH1Model", Model), ("FalconH1ForCausalLM", CausalLm)],
        keys: mamba_keys![sizes(128000, 4096, 14336, 32, 32, U(8), Null, 8192), rms_norm_eps: F(1e-5),
            pad_token_id: U(0), mlp_bias: B(false), mamba_d_ssm: U(1024), mamba_rms_norm: B(false),
            projectors_bias: B(false)],
        mlp_bias: super::spec::Bias::Key("mlp_bias"),
        layer_norms: PRE_FF,
        linear: Linear::Mamba2(&Hybrid {
            out_bias: "projectors_bias",
            norm_key: Some("mamba_rms_norm"),
            inner: Inner::Expand { expand: "mamba_expand", width: Some("mamba_d_ssm") },
            layout: Layout::Parallel,
            ..BAMBA
        }),
        ..BASE
    },
    Spec {
        model_type: "nemotron_h",
        classes: &[("NemotronHModel", Model), ("NemotronHForCausalLM", CausalLm)],
        keys: keys![sizes(131072, 4096, 21504, 4, 32, U(8), U(128), 4096), hidden_act: S("relu2"),
            mlp_bias: B(false), ssm_state_size: U(128), mamba_num_heads: U(128), mamba_head_dim: U(64),
            n_groups: U(8), conv_kernel: U(4), use_conv_bias: B(true), use_bias: B(false),
            n_routed_experts: U(8), moe_intermediate_size: U(7688), num_experts_per_tok: U(2),
            moe_shared_expert_intermediate_size: U(7688), layer_norm_epsilon: F(1e-5), pad_token_id: U(0)],
        // The config pops the `mamba_`-named keys into these (NemotronHConfig.__post_init__).
        aliases: &[
            ("mlp_hidden_act", "hidden_act"),
            ("num_local_experts", "n_routed_experts"),
            ("mamba_n_groups", "n_groups"),
            ("mamba_d_conv", "conv_kernel"),
            ("mamba_conv_bias", "use_conv_bias"),
            ("layer_types", "layers_block_type"),
        ],
        eps_key: "layer_norm_epsilon",
        qkv_bias: super::spec::Bias::Fixed(false),
        o_bias: super::spec::Bias::Fixed(false),
        norm: NormKind::Rms,
        layer_norms: &[("norm", Slot::Before)],
        mlp: super::spec::Mlp::Plain,
        mlp_bias: super::spec::Bias::Key("mlp_bias"),
        moe: Some(MoeSpec {
            block: "mixer",
            experts_key: "n_routed_experts",
            width_key: "moe_intermediate_size",
            experts: Experts::Stacked { bias: false },
            shared: Shared::Width { name: "shared_experts", key: "moe_shared_expert_intermediate_size" },
            correction_buffer: Some("gate.e_score_correction_bias"),
            ..MOE
        }),
        linear: Linear::Mamba2(&NEMOTRON_H),
        ..BASE
    },
];

/// Whether `tie_word_embeddings` ties the head: Nemotron-H's, Kimi Linear's and Ling 3's classes
/// declare no tied weights (`_tied_weights_keys = {}`), whatever the flag says.
pub(crate) fn ties(spec: &Spec) -> bool {
    hybrid(spec).is_none_or(|h| h.ties)
        && spec.linear != Linear::KimiDelta
        && spec.linear != Linear::BailingDelta
}

/// The hybrid description of a spec, if it has one.
pub fn hybrid(spec: &Spec) -> Option<&'static Hybrid> {
    match spec.linear {
        Linear::Mamba2(h) => Some(h),
        _ => None,
    }
}
