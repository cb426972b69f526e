//! Doge (SmallDoge), read with the defaults of transformers 5.24's `DogeConfig`, and the helpers
//! Dory's reader (`config/dory.rs`) shares. Doge's layers hold blocks no table in
//! `config/spec.rs` says (a dynamic attention mask, experts stored as embeddings behind product
//! keys), so it has its own small reader here and builder in `graph/doge_dory.rs`; its keys and
//! classes are still written as a [`Spec`] table, read by the shared [`Reader`].

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::{Common, ConfigError, Defaulted};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence};

const DOGE: Spec = Spec {
    model_type: "doge",
    classes: classes!("Doge": Model, ForCausalLM, ForSequenceClassification),
    keys: keys![vocab_size: U(32768), hidden_size: U(1024), intermediate_size: U(2048),
        num_hidden_layers: U(32), num_attention_heads: U(8), num_key_value_heads: Null, head_dim: Null,
        max_position_embeddings: U(2048), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
        hidden_act: S("silu"), attention_bias: B(false), mlp_bias: B(false), sliding_window: Null,
        is_moe: B(false), num_experts: U(16384), num_experts_per_tok: U(64)],
    ..BASE
};

/// Doge: grouped attention with per-head q/k norms and a dynamic mask (`A` per key/value head,
/// `dt_proj` from the values to one logit per key/value head), a learned residual scale after
/// attention and after the MLP, and a gated MLP; with `is_moe` the MLP is the cross-domain mixture
/// (the gated MLP as a shared expert, a product-key router over floor(sqrt(experts)) keys twice,
/// and `num_experts` experts of one row each in `down_embed` and `up_embed`).
#[derive(Debug, Clone, Serialize)]
pub struct DogeConfig {
    pub class: String,
    pub head: DecoderHead,
    pub num_layers: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub intermediate_size: u64,
    pub vocab_size: u64,
    pub max_position_embeddings: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    /// The cross-domain mixture's experts and the top-k each token reads (None: a dense MLP).
    pub experts: Option<(u64, u64)>,
    /// When set, every layer attends within it, and the cache keeps as many tokens.
    pub sliding_window: Option<u64>,
    pub tie_word_embeddings: bool,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

/// The file's `pad_token_id` (the classes default it to None).
pub(crate) fn pad_token(value: &Value) -> Option<u64> {
    value.get("pad_token_id").and_then(Value::as_u64)
}

/// Heads, key/value heads (None: as many as heads) and a head width (None: hidden / heads), read
/// and checked as the attention divides them.
pub(crate) fn heads(r: &mut Reader, hidden: u64, class: &str) -> Result<(u64, u64, u64), ConfigError> {
    let heads = r.size("num_attention_heads", 1 << 14)?;
    let kv = match r.opt_u("num_key_value_heads")? {
        Some(kv) => super::check_range(super::Limit { field: "num_key_value_heads", max: 1 << 14 }, kv)?,
        None => heads,
    };
    if heads % kv != 0 {
        return Err(ConfigError::field(
            "num_key_value_heads",
            format!(
                "{heads} attention heads do not divide into {kv} key/value groups, which {class} cannot build"
            ),
        ));
    }
    let head_dim = match r.opt_u("head_dim")? {
        Some(d) => super::check_range(super::Limit { field: "head_dim", max: 1 << 14 }, d)?,
        None => super::check_range(super::Limit { field: "num_attention_heads", max: hidden }, heads)
            .map(|h| hidden / h)?,
    };
    Ok((heads, kv, head_dim))
}

impl DogeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let (class, head) = head(&DOGE, common, value, &mut d)?;
        let mut r = Reader { spec: &DOGE, value, defaulted: d };
        let hidden_size = r.size("hidden_size", 1 << 18)?;
        let (num_heads, num_kv_heads, head_dim) = heads(&mut r, hidden_size, "DogeAttention")?;
        let experts = if r.flag("is_moe")? {
            let n = r.size("num_experts", 1 << 24)?;
            let k = r.size("num_experts_per_tok", 1 << 20)?;
            // The router scores floor(sqrt(n)) keys twice and takes the top k of their products.
            let keys = n.isqrt();
            if k > keys * keys {
                return Err(ConfigError::field(
                    "num_experts_per_tok",
                    format!("{k} exceeds the {} expert pairs {keys} router keys can form", keys * keys),
                ));
            }
            Some((n, k))
        } else {
            None
        };
        let sliding_window = match r.opt_u("sliding_window")? {
            Some(w) => Some(super::check_range(super::Limit { field: "sliding_window", max: 1 << 24 }, w)?),
            None => None,
        };
        Ok(DogeConfig {
            class,
            head,
            vocab_size: r.size("vocab_size", 100_000_000)?,
            hidden_size,
            intermediate_size: r.size("intermediate_size", 1 << 22)?,
            num_layers: r.size("num_hidden_layers", 10_000)?,
            num_heads,
            num_kv_heads,
            head_dim,
            max_position_embeddings: r.size("max_position_embeddings", 1 << 24)?,
            attention_bias: r.flag("attention_bias")?,
            mlp_bias: r.flag("mlp_bias")?,
            experts,
            sliding_window,
            tie_word_embeddings: r.flag("tie_word_embeddings")?,
            rms_norm_eps: r.float("rms_norm_eps")?,
            pad_token_id: pad_token(value),
            hidden_act: r.string("hidden_act")?,
            defaulted: r.defaulted,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let s = [self.hidden_size, self.num_layers, self.num_heads, self.num_kv_heads, self.head_dim];
        let [h, n, heads, kv, hd] = s;
        let sizes =
            [h, n, heads, kv, hd, self.intermediate_size, self.vocab_size, self.max_position_embeddings];
        let d = decoder_dims(sizes, self.pad_token_id, self.tie_word_embeddings, self.rms_norm_eps);
        super::Dims {
            num_experts: self.experts.map(|e| e.0),
            experts_per_token: self.experts.map(|e| e.1),
            ..d
        }
    }
}

/// A decoder's dimensions from its sizes `[hidden, layers, heads, kv heads, head_dim, ffn, vocab,
/// context]`, its padding token, tie and norm epsilon (Doge, Dory, Gemma 4, Gemma 3n, T5Gemma).
pub(crate) fn decoder_dims(s: [u64; 8], pad: Option<u64>, tie: bool, eps: f64) -> super::Dims {
    let [hidden, layers, heads, kv, head_dim, ffn, vocab, context] = s;
    super::Dims {
        num_kv_heads: kv,
        head_dim,
        pad_token_id: pad,
        tie_word_embeddings: tie,
        layer_norm_eps: eps,
        ..super::Dims::mha(hidden, layers, heads, ffn, vocab, context)
    }
}
