//! Qwen4-Exp's language model (`qwen4_exp_text`), read through the described types' reader
//! (`config/spec_keys.rs`) with the keys and defaults of transformers 5.24's
//! `Qwen4ExpTextConfig`: Qwen3.5's Gated DeltaNet on `linear_attention` layers and its gated
//! attention with q/k norms on `indexed_attention` layers (`full_attention` reads as indexed, as
//! the class maps it), each with a token indexer (`indexer_*`, required there); stacked experts
//! with a gated shared expert in every layer; no norms in the layer but gated residuals over
//! `hc_count` residual copies around each block (`hc_lowrank`), and per-layer n-gram embeddings
//! (PLE) on the linear layers `ple_layer_ids` lists. `graph/qwen4_exp.rs` builds it.

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::LinearDims;
use super::{Common, ConfigError, Defaulted, Dims};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

pub(crate) const KEYS: Spec = Spec {
    model_type: "qwen4_exp_text",
    classes: &[("Qwen4ExpTextModel", Model), ("Qwen4ExpForCausalLM", CausalLm)],
    keys: keys![sizes(248_320, 2048, 512, 40, 16, U(2), U(256), 32_768), hidden_act: S("silu"),
        rms_norm_eps: F(1e-6), tie_word_embeddings: B(false), attention_bias: B(false),
        linear_conv_kernel_dim: U(4), linear_key_head_dim: U(128), linear_value_head_dim: U(128),
        linear_num_key_heads: U(16), linear_num_value_heads: U(32), moe_intermediate_size: U(512),
        shared_expert_intermediate_size: U(512), num_experts_per_tok: U(10), num_experts: U(512),
        hc_count: U(4), hc_lowrank: U(320), ple_conv_kernel_size: U(4), ngram_size: U(3),
        heads_per_ngram: U(8), ngram_vocab_size_base: U(20_000_000),
        make_ngram_vocab_size_divisible_by: U(128), pad_token_id: Null, eos_token_id: Null,
        indexer_n_heads: Null, indexer_head_dim: Null],
    ..BASE
};

/// The token indexer on attention layers: query heads and head width (one key head).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Indexer {
    pub heads: u64,
    pub head_dim: u64,
}

/// A layer's per-layer n-gram embeddings (PLE): the table's rows (the n-gram heads' prime
/// vocabularies summed, padded) and each head's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ple {
    pub rows: u64,
    pub head_width: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Qwen4ExpConfig {
    pub class: String,
    pub head: DecoderHead,
    pub dims: Dims,
    pub hidden_act: String,
    pub attention_bias: bool,
    pub linear: LinearDims,
    pub shared_width: u64,
    pub hc_count: u64,
    pub hc_lowrank: u64,
    /// Per layer: Gated DeltaNet (true) or indexed attention.
    pub linear_layers: Vec<bool>,
    pub indexer: Option<Indexer>,
    /// Per layer, its n-gram embeddings where `ple_layer_ids` lists it.
    pub ple: Vec<Option<Ple>>,
    /// `ple_embed_dim` (hidden by default) and the PLE convolution's kernel.
    pub ple_dim: u64,
    pub ple_kernel: u64,
    pub ngram_size: u64,
    pub defaulted: Vec<Defaulted>,
}

impl Qwen4ExpConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        if !value.is_object() {
            return Err(ConfigError::NotObject);
        }
        let mut r = Reader { spec: &KEYS, value, defaulted: vec![] };
        let (heads, kv) = r.heads_and_kv()?;
        let experts = r.experts("num_experts", "num_experts_per_tok")?;
        let head_dim = r.size("head_dim", 1 << 16)?;
        let dims = r.moe_dims((heads, kv, head_dim), "moe_intermediate_size", experts)?;
        let (layers, hidden) = (dims.num_layers, dims.hidden_size);
        let linear = r.delta_net()?;
        let linear_layers = super::qwen4_exp_layers::linear_layers(&mut r, layers)?;
        let indexer = super::qwen4_exp_layers::indexer(&mut r, &linear_layers)?;
        let hc_count = r.size("hc_count", 64)?;
        if hc_count < 2 {
            return Err(ConfigError::field(
                "hc_count",
                "Qwen4-Exp keeps at least 2 residual copies, found 1",
            ));
        }
        let (ple, ple_dim, ple_kernel, ngram_size) =
            super::qwen4_exp_layers::ple(&mut r, &linear_layers, hidden)?;
        let mut c = Qwen4ExpConfig {
            class: String::new(),
            head: DecoderHead::Model,
            dims,
            hidden_act: r.string("hidden_act")?,
            attention_bias: r.flag("attention_bias")?,
            linear,
            shared_width: r.size("shared_expert_intermediate_size", 1 << 22)?,
            hc_count,
            hc_lowrank: r.size("hc_lowrank", 1 << 18)?,
            linear_layers,
            indexer,
            ple,
            ple_dim,
            ple_kernel,
            ngram_size,
            defaulted: vec![],
        };
        let mut defaulted = r.defaulted;
        (c.class, c.head) = head(&KEYS, common, value, &mut defaulted)?;
        c.defaulted = defaulted;
        Ok(c)
    }

    pub fn dims(&self) -> Dims {
        self.dims.clone()
    }
}
