//! Gemma 4's language models (`gemma4_text`, and `gemma4_unified_text` without per-layer
//! embeddings or experts), read with the defaults of transformers 5.24's `Gemma4TextConfig` and
//! `Gemma4UnifiedTextConfig`: sliding and full layers by `layer_types` (the last always full),
//! full layers with their own head width and key/value heads (`per_layer_config`, else
//! `global_head_dim` and, with `attention_k_eq_v`, `num_global_key_value_heads`), keys reused as
//! values on full layers with `attention_k_eq_v`, the last `num_kv_shared_layers` layers reading
//! an earlier layer's keys and values (no projections of their own; with `use_double_wide_mlp`
//! their MLP twice as wide), per-layer embeddings (`hidden_size_per_layer_input`) and a mixture
//! of experts beside the MLP (`enable_moe_block`). Its graph is in `graph/gemma4.rs`.

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::{Common, ConfigError, Defaulted, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

pub(crate) const TEXT: Spec = Spec {
    model_type: "gemma4_text",
    classes: &[("Gemma4TextModel", Model), ("Gemma4ForCausalLM", CausalLm)],
    keys: keys![sizes(262_144, 2304, 9216, 30, 8, U(4), U(256), 131_072), rms_norm_eps: F(1e-6),
        tie_word_embeddings: B(true), hidden_activation: S("gelu_pytorch_tanh"), attention_bias: B(false),
        sliding_window: U(512), pad_token_id: U(0), attention_k_eq_v: B(false), num_kv_shared_layers: U(0),
        use_double_wide_mlp: B(false), global_head_dim: U(512), num_global_key_value_heads: Null,
        vocab_size_per_layer_input: U(262_144), hidden_size_per_layer_input: U(256),
        enable_moe_block: B(false), num_experts: Null, top_k_experts: Null, moe_intermediate_size: Null],
    ..BASE
};

pub(crate) const UNIFIED: Spec = Spec {
    model_type: "gemma4_unified_text",
    classes: &[("Gemma4UnifiedTextModel", Model), ("Gemma4UnifiedForCausalLM", CausalLm)],
    keys: keys![sizes(262_144, 2304, 9216, 30, 8, U(4), U(256), 262_144), rms_norm_eps: F(1e-6),
        tie_word_embeddings: B(true), hidden_activation: S("gelu_pytorch_tanh"), attention_bias: B(false),
        sliding_window: U(1024), pad_token_id: U(0), attention_k_eq_v: B(false), num_kv_shared_layers: U(0),
        use_double_wide_mlp: B(false), global_head_dim: U(512), num_global_key_value_heads: Null,
        use_bidirectional_attention: S("vision")],
    ..BASE
};

/// One layer's attention and MLP as its class builds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct G4Layer {
    pub sliding: bool,
    pub head_dim: u64,
    pub kv_heads: u64,
    /// Reads an earlier layer's keys and values: no k/v projections or norms of its own.
    pub shared: bool,
    /// Keys serve as values (`attention_k_eq_v` on a full layer): no `v_proj`.
    pub k_eq_v: bool,
    pub ffn: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Gemma4Config {
    pub model_type: String,
    /// The language model of an assistant (`config/gemma4_assistant.rs`): under `model.` with no
    /// head of its own.
    pub nested: bool,
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub layers: Vec<G4Layer>,
    pub attention_bias: bool,
    /// Per-layer embeddings: their vocabulary and width per layer.
    pub per_layer: Option<(u64, u64)>,
    /// The experts beside the MLP: how many, how many per token, each one's width.
    pub experts: Option<(u64, u64, u64)>,
    /// The tokens a sliding layer's cache keeps.
    pub sliding_window: u64,
    pub max_position_embeddings: u64,
    pub tie_word_embeddings: bool,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub hidden_activation: String,
    pub defaulted: Vec<Defaulted>,
}

fn bounded(field: &'static str, v: u64, max: u64) -> Result<u64, ConfigError> {
    check_range(Limit { field, max }, v)
}

/// A width the class turns off with 0 or null (`hidden_size_per_layer_input`).
fn optional_width(r: &mut Reader, key: &'static str) -> Result<Option<u64>, ConfigError> {
    if r.value.get(key).is_some_and(Value::is_null) {
        return Ok(None);
    }
    match r.opt_u(key)? {
        Some(0) | None => Ok(None),
        Some(w) => bounded(key, w, 1 << 20).map(Some),
    }
}

/// `layer_types` as written (the last forced full), else five sliding layers to one full.
fn sliding_layers(value: &Value, layers: u64) -> Result<Vec<bool>, ConfigError> {
    let mut kinds = super::t5gemma::windows(value, "layer_types", layers, 1, |i| (i + 1) % 6 == 0)?
        .into_iter()
        .map(|w| w.is_some())
        .collect::<Vec<_>>();
    if let Some(last) = kinds.last_mut() {
        *last = false;
    }
    Ok(kinds)
}

/// A layer's head width and key/value heads where `per_layer_config` overrides them.
type Override = (Option<u64>, Option<u64>);

/// `per_layer_config`'s overrides of head width and key/value heads, by layer index.
fn overrides(value: &Value, layers: u64) -> Result<Option<Vec<Override>>, ConfigError> {
    let Some(map) = value.get("per_layer_config").filter(|v| !v.is_null()) else { return Ok(None) };
    let bad = |why: String| ConfigError::field("per_layer_config", why);
    let map =
        map.as_object().ok_or_else(|| bad(format!("expected an object by layer index, found {map}")))?;
    let mut out = vec![(None, None); layers as usize];
    for (k, o) in map {
        let i = k.parse::<usize>().ok().filter(|i| *i < out.len());
        let i = i.ok_or_else(|| bad(format!("{k:?} is not a layer index below {layers}")))?;
        let size = |key: &str| -> Result<Option<u64>, ConfigError> {
            match o.get(key).filter(|v| !v.is_null()) {
                None => Ok(None),
                Some(v) => v
                    .as_u64()
                    .filter(|n| (1..=1 << 14).contains(n))
                    .map(Some)
                    .ok_or_else(|| bad(format!("layer {k}: {key} {v} is not a usable size"))),
            }
        };
        out[i] = (size("head_dim")?, size("num_key_value_heads")?);
    }
    Ok(Some(out))
}

impl Gemma4Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let spec = if common.model_type == "gemma4_unified_text" { &UNIFIED } else { &TEXT };
        Self::read(spec, value, common)
    }

    pub(crate) fn read(spec: &'static Spec, value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let (class, head) = head(spec, common, value, &mut d)?;
        let mut r = Reader { spec, value, defaulted: d };
        let n = r.size("num_hidden_layers", 10_000)?;
        let heads = r.size("num_attention_heads", 1 << 14)?;
        let (kv, hd) = (r.size("num_key_value_heads", 1 << 14)?, r.size("head_dim", 1 << 14)?);
        let k_eq_v = r.flag("attention_k_eq_v")?;
        let global_hd = r.size("global_head_dim", 1 << 14)?;
        let global_kv = match r.opt_u("num_global_key_value_heads")? {
            Some(g) if k_eq_v => Some(bounded("num_global_key_value_heads", g, 1 << 14)?),
            _ => None,
        };
        let sliding = sliding_layers(value, n)?;
        let shared_n = r.opt_u("num_kv_shared_layers")?.unwrap_or(0);
        if shared_n > n {
            return Err(ConfigError::field(
                "num_kv_shared_layers",
                format!("{shared_n} shared layers exceed the {n} layers"),
            ));
        }
        let first_shared = (n - shared_n) as usize;
        // Each kind of layer that reads shared keys and values needs an earlier one that makes them.
        if shared_n < n && (sliding[first_shared..].iter().any(|s| !sliding[..first_shared].contains(s))) {
            return Err(ConfigError::field(
                "num_kv_shared_layers",
                "a kind of layer among the shared ones has no unshared layer of its kind, which Gemma4TextConfig refuses",
            ));
        }
        let plc = overrides(value, n)?;
        let (ffn, double) = (r.size("intermediate_size", 1 << 22)?, r.flag("use_double_wide_mlp")?);
        let mut layers = vec![];
        for (i, s) in sliding.iter().enumerate() {
            let (ohd, okv) = match &plc {
                Some(o) => o[i],
                None if !s => (Some(global_hd), global_kv),
                None => (None, None),
            };
            let (head_dim, kv_heads) = (ohd.unwrap_or(hd), okv.unwrap_or(kv));
            if heads % kv_heads != 0 {
                return Err(ConfigError::field(
                    "num_key_value_heads",
                    format!("layer {i}: {heads} heads do not divide into {kv_heads} key/value groups"),
                ));
            }
            let shared = i >= first_shared;
            layers.push(G4Layer {
                sliding: *s,
                head_dim,
                kv_heads,
                shared,
                k_eq_v: k_eq_v && !s,
                ffn: if double && shared { 2 * ffn } else { ffn },
            });
        }
        let per_layer = if spec.model_type == "gemma4_text" {
            match optional_width(&mut r, "hidden_size_per_layer_input")? {
                Some(w) => Some((r.size("vocab_size_per_layer_input", 100_000_000)?, w)),
                None => None,
            }
        } else {
            None
        };
        let experts = if spec.model_type == "gemma4_text" && r.flag("enable_moe_block")? {
            let e = r.size("num_experts", 1 << 16)?;
            let k = r.size("top_k_experts", e)?;
            Some((e, k, r.size("moe_intermediate_size", 1 << 22)?))
        } else {
            None
        };
        let window = r.size("sliding_window", 1 << 24)?;
        // Bidirectional everywhere halves the window (exclusive bounds for flash attention).
        let all = r.value.get("use_bidirectional_attention").and_then(Value::as_str) == Some("all");
        Ok(Gemma4Config {
            model_type: spec.model_type.into(),
            nested: false,
            class,
            head,
            vocab_size: r.size("vocab_size", 100_000_000)?,
            hidden_size: r.size("hidden_size", 1 << 18)?,
            num_heads: heads,
            layers,
            attention_bias: r.flag("attention_bias")?,
            per_layer,
            experts,
            sliding_window: if all { window / 2 + 1 } else { window },
            max_position_embeddings: r.size("max_position_embeddings", 1 << 24)?,
            tie_word_embeddings: r.flag("tie_word_embeddings")?,
            rms_norm_eps: r.float("rms_norm_eps")?,
            pad_token_id: r.opt_u("pad_token_id")?,
            hidden_activation: r.string("hidden_activation")?,
            defaulted: r.defaulted,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let d = layered_dims(
            self.hidden_size,
            self.num_heads,
            &self.layers,
            self.vocab_size,
            self.max_position_embeddings,
        );
        let d = super::Dims { pad_token_id: self.pad_token_id, layer_norm_eps: self.rms_norm_eps, ..d };
        let experts = (self.experts.map(|e| e.0), self.experts.map(|e| e.1));
        super::Dims {
            tie_word_embeddings: self.tie_word_embeddings,
            num_experts: experts.0,
            experts_per_token: experts.1,
            ..d
        }
    }
}

/// The dimensions of a stack of Gemma 4-style layers, from the first layer's heads and widths.
pub(crate) fn layered_dims(
    hidden: u64,
    heads: u64,
    layers: &[G4Layer],
    vocab: u64,
    context: u64,
) -> super::Dims {
    let first = layers.first().copied();
    let (kv, hd, ffn) = first.map_or((1, 1, 0), |l| (l.kv_heads, l.head_dim, l.ffn));
    super::doge_dory::decoder_dims(
        [hidden, layers.len() as u64, heads, kv, hd, ffn, vocab, context],
        None,
        true,
        1e-6,
    )
}
