//! Decoders of the GPT-2 lineage described as data (GPT-Neo, GPT-J, CodeGen, XGLM, BioGPT, GPT-1):
//! one [`GptDesc`] per type says which keys its config class reads (a [`Spec`] key table, with
//! its defaults, `attribute_map` and classes) and how its blocks are named and switched: learned
//! or no position table, fused or split q/k/v, `Conv1D` or `nn.Linear`, the layer's LayerNorms
//! and whether attention and MLP run in parallel or after a post-norm, the final norm and the LM
//! head. One reader ([`GptConfig::read`]) resolves any of them and one builder
//! (`graph/gpt_style.rs`) plans it. The rows are in `spec_gpt_types.rs`.

use serde::Serialize;

use super::Defaulted;
use super::decoder::DecoderHead;
use super::spec::{Bias, Spec};

/// A bias the modeling code always builds, or never.
pub const ON: Bias = Bias::Fixed(true);
pub const OFF: Bias = Bias::Fixed(false);

/// Where a size comes from: the key names the config class reads (aliases are the key table's).
#[derive(Debug, Clone, Copy)]
pub struct SizeKeys {
    pub vocab: &'static str,
    pub hidden: &'static str,
    pub layers: &'static str,
    pub heads: &'static str,
    pub ffn: Ffn,
    pub positions: &'static str,
    pub eps: Option<&'static str>,
    pub act: Act,
}

/// The MLP's activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// The key's value.
    Key(&'static str),
    /// Fixed by the modeling code, no key (CTRL's ReLU, MPT's GELU).
    Fixed(&'static str),
}

/// The MLP's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ffn {
    /// Always the key's value.
    Key(&'static str),
    /// The key's value, or 4 x hidden when the file leaves it null (`n_inner`).
    KeyOr4x(&'static str),
    /// 4 x hidden, fixed by the modeling code (GPT-1).
    Times4,
    /// hidden x the key's whole multiple (GPT-NeoX-Japanese's `intermediate_multiple_size`).
    HiddenTimes(&'static str),
}

/// How positions enter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    /// A learned table `name` of `max_positions + offset` rows (BioGPT's and OPT's offset 2).
    Learned { name: &'static str, offset: u64 },
    /// Learned as above when the key is true, else sinusoidal without parameters (TrOCR's
    /// `use_learned_position_embeddings`).
    LearnedIf { key: &'static str, name: &'static str, offset: u64 },
    /// No parameters: rotary, sinusoidal (a buffer), ALiBi; the words say which.
    Fixed(&'static str),
    /// Rotary on the leading fraction of each head the key gives (GPT-NeoX's `rotary_pct`).
    RotaryPct(&'static str),
}

/// The attention's query, key and value projections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Qkv {
    /// One projection to 3 x hidden (`c_attn`, `qkv_proj`).
    Fused(&'static str),
    /// Three, named in q, k, v order.
    Split([&'static str; 3]),
}

/// How a layer adds its sublayers back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Residual {
    /// Pre-norm: x + attn(ln1(x)), then + mlp(ln2(.)).
    Sequential,
    /// One norm, both sublayers read it: x + attn(ln(x)) + mlp(ln(x)) (GPT-J, CodeGen).
    Parallel,
    /// Post-norm: ln1(x + attn(x)), then ln2(. + mlp(.)) (GPT-1).
    PostNorm,
    /// Two norms, attention and MLP in parallel or in sequence as the key says (GPT-NeoX's
    /// `use_parallel_residual`); the layer ends in the residual sum that says which.
    TwoNorms(&'static str),
    /// Pre-norm or post-norm as the key says (OPT's `do_layer_norm_before`), the final norm only
    /// when pre-norm and `_remove_final_layer_norm` is not set.
    PreOrPost(&'static str),
}

/// Buffers older checkpoints store beside the weights, offered as reconciliation candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffers {
    None,
    /// GPT-NeoX converted before transformers 4.31: each layer's causal mask and rotary
    /// frequencies.
    NeoxMaskAndInvFreq,
    /// A head class of a checkpoint saved from the causal LM, whose LM head it drops (OPT).
    DroppedLmHead,
}

/// Which layers attend within a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GptWindow {
    None,
    /// GPT-Neo's `attention_types` (`[[["global", "local"], 12]]`), `local` layers over
    /// `window_size` tokens.
    NeoTypes,
}

/// One type of the GPT-2 lineage, described.
#[derive(Debug, Clone, Copy)]
pub struct GptDesc {
    /// The key table (keys, defaults, aliases) and the classes.
    pub keys: Spec,
    pub sizes: SizeKeys,
    /// Where a head class keeps its base model (`transformer.`).
    pub base: &'static str,
    /// Under the base, for every class (OPT's `decoder.`).
    pub inner: &'static str,
    /// The token embedding's module, under the base (`wte`, `embed_tokens`).
    pub embed: &'static str,
    /// XGLM and BioGPT multiply the embeddings by sqrt(hidden) when `scale_embedding`.
    pub scale_key: Option<&'static str>,
    /// The embeddings' width when it differs from the hidden size (OPT's `word_embed_proj_dim`,
    /// null: hidden), with `project_in` and `project_out` between them.
    pub embed_width_key: Option<&'static str>,
    /// LayerNorms without parameters when this key is false (`layer_norm_elementwise_affine`).
    pub affine_key: Option<&'static str>,
    /// What the attention node says after its heads, where the positions do not say it.
    pub attn_words: Option<&'static str>,
    /// The final section's name where it is not the final norm's (OPT's `final`, with the norm
    /// and `project_out`).
    pub final_section: Option<&'static str>,
    pub positions: Positions,
    /// The layer list, under the base (`h`, `layers`).
    pub layers: &'static str,
    /// The attention module, under the layer (`attn`, `attn.attention`, `self_attn`).
    pub attn: &'static str,
    pub qkv: Qkv,
    pub out: &'static str,
    pub qkv_bias: Bias,
    pub out_bias: Bias,
    /// GPT-2's `Conv1D` (`[in, out]` weights, always biased) instead of `nn.Linear`.
    pub conv1d: bool,
    /// The MLP's up and down projections, under the layer (`mlp.c_fc`, `fc1`).
    pub mlp: [&'static str; 2],
    pub mlp_bias: Bias,
    /// The layer's LayerNorms, in order (one for [`Residual::Parallel`]).
    pub norms: &'static [&'static str],
    pub residual: Residual,
    /// The final norm, under the base (`ln_f`, `layer_norm`); None: GPT-1 has none.
    pub final_norm: Option<&'static str>,
    /// The LM head's module (`lm_head`, BioGPT's `output_projection`).
    pub lm: &'static str,
    pub lm_bias: Bias,
    /// A bias beside the LM head (BERT's `lm_head.bias`), one tensor with the head's own bias
    /// when the embeddings are tied, a second one when not.
    pub lm_side_bias: Option<&'static str>,
    /// The sequence classifier's module and bias (`score` without; CTRL's `classifier` without).
    pub seq_head: &'static str,
    /// The token classifier's module, with its bias (`classifier`; the generic classes' `score`).
    pub token_head: &'static str,
    /// The LayerNorms carry a bias (MPT's drop it).
    pub norm_bias: bool,
    /// A key that adds a LayerNorm over each head's queries and keys (Persimmon's `qk_layernorm`).
    pub qk_norm_key: Option<&'static str>,
    /// A bias of the attention output the last layer alone holds, under its attention module
    /// (GPT-NeoX-Japanese's `dense_bias`).
    pub last_out_bias: Option<&'static str>,
    pub window: GptWindow,
    /// Cross-attention in each layer: a key that adds it (XGLM's `add_cross_attention`), or
    /// always (TrOCR's causal LM sets `is_decoder` itself) or never (a switch, like a bias).
    pub cross: Bias,
    /// The cross-attention's module and its LayerNorm, under the layer (`encoder_attn`,
    /// `encoder_attn_layer_norm`; BERT's `crossattention`, `crossattention.output.LayerNorm`).
    pub cross_names: [&'static str; 2],
    /// A LayerNorm over the summed embeddings, under the base (BERT's `embeddings.LayerNorm`).
    pub embed_norm: Option<&'static str>,
    /// The embeddings' LayerNorm only when this key is true (TrOCR's `layernorm_embedding`).
    pub embed_norm_key: Option<&'static str>,
    /// The width of the encoder states cross-attention's keys and values read, when the key is
    /// not null (TrOCR's `cross_attention_hidden_size`); else the hidden size.
    pub cross_width_key: Option<&'static str>,
    pub buffers: Buffers,
}

/// A resolved config of a described GPT-style type.
#[derive(Debug, Clone, Serialize)]
pub struct GptConfig {
    pub model_type: String,
    #[serde(skip)]
    pub desc: &'static GptDesc,
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub norm_eps: f64,
    pub activation: String,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub qkv_bias: bool,
    pub out_bias: bool,
    pub mlp_bias: bool,
    pub lm_bias: bool,
    pub scale_embedding: bool,
    pub cross_attention: bool,
    /// The width cross-attention's k and v projections read.
    pub cross_width: u64,
    /// A learned position table is built.
    pub learned_positions: bool,
    /// The embeddings' LayerNorm is built.
    pub embed_norm: bool,
    /// LayerNorms over each head's queries and keys.
    pub qk_norm: bool,
    /// `int(head_dim * rotary_pct)`: the leading dimensions of each head that rotate.
    pub rotary_ndims: Option<u64>,
    /// Attention and MLP read the layer's input together ([`Residual::TwoNorms`]).
    pub parallel: bool,
    /// The embeddings' width (the hidden size unless the type projects).
    pub embed_width: u64,
    pub affine: bool,
    /// The layer norms follow their sublayers (GPT-1; OPT without `do_layer_norm_before`).
    pub post_norm: bool,
    /// The final norm is built ([`Residual::PreOrPost`] may drop it).
    pub final_norm: bool,
    /// Per layer, the attention window (None: full).
    pub windows: Vec<Option<u64>>,
    pub defaulted: Vec<Defaulted>,
}

/// The description of a `model_type`, if the GPT-style table has it.
pub fn lookup(model_type: &str) -> Option<&'static GptDesc> {
    super::spec_gpt_types::TYPES
        .iter()
        .chain(super::spec_gpt_more::TYPES)
        .chain(super::spec_gpt_post::TYPES)
        .find(|d| d.keys.model_type == model_type)
}
