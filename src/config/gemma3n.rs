//! Gemma 3n's language model (`gemma3n_text`), read with the defaults of transformers 5.24's
//! `Gemma3nTextConfig`: Gemma 3's sandwich-normed layers (sliding, full every fifth by default),
//! an MLP width per layer (`intermediate_size` a list or one for all), the last
//! `num_kv_shared_layers` layers reading an earlier layer's keys and values, and in every layer
//! AltUp (`altup_num_inputs` predictions and corrections), a LAuReL low-rank residual
//! (`laurel_rank`) and the per-layer input (`hidden_size_per_layer_input`). Activation sparsity
//! holds no parameters. Its graph is in `graph/gemma3n.rs`.

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::gemma4::G4Layer;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::{Common, ConfigError, Defaulted};
use Dv::{B, F, S, U};
use HeadKind::{CausalLm, Model};

const GEMMA3N: Spec = Spec {
    model_type: "gemma3n_text",
    classes: &[("Gemma3nTextModel", Model), ("Gemma3nForCausalLM", CausalLm)],
    keys: keys![sizes(262_400, 2048, 16_384, 35, 8, U(2), U(256), 32_768), rms_norm_eps: F(1e-6),
        tie_word_embeddings: B(true), hidden_activation: S("gelu_pytorch_tanh"), attention_bias: B(false),
        sliding_window: U(512), pad_token_id: U(0), vocab_size_per_layer_input: U(262_144),
        hidden_size_per_layer_input: U(256), altup_num_inputs: U(4), num_kv_shared_layers: U(15),
        laurel_rank: U(64)],
    ..BASE
};

#[derive(Debug, Clone, Serialize)]
pub struct Gemma3nConfig {
    /// Per layer: sliding or full, its widths, whether it shares an earlier layer's keys and values.
    pub layers: Vec<G4Layer>,
    pub class: String,
    pub head: DecoderHead,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub attention_bias: bool,
    pub vocab_size: u64,
    pub vocab_size_per_layer_input: u64,
    pub hidden_size_per_layer_input: u64,
    pub altup_num_inputs: u64,
    pub laurel_rank: u64,
    pub sliding_window: u64,
    pub max_position_embeddings: u64,
    pub tie_word_embeddings: bool,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub hidden_activation: String,
    pub defaulted: Vec<Defaulted>,
}

/// `intermediate_size`: one width for every layer, or a list of one per layer.
fn widths(r: &mut Reader, layers: u64) -> Result<Vec<u64>, ConfigError> {
    let bad = |why: String| ConfigError::field("intermediate_size", why);
    match r.raw("intermediate_size").cloned() {
        Some(Value::Array(list)) => {
            if list.len() as u64 != layers {
                return Err(bad(format!("{} widths for {layers} layers", list.len())));
            }
            list.iter()
                .map(|v| {
                    v.as_u64()
                        .filter(|w| (1..=1 << 22).contains(w))
                        .ok_or_else(|| bad(format!("{v} is not a usable width")))
                })
                .collect()
        }
        _ => Ok(vec![r.size("intermediate_size", 1 << 22)?; layers as usize]),
    }
}

impl Gemma3nConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let (class, head) = head(&GEMMA3N, common, value, &mut d)?;
        let mut r = Reader { spec: &GEMMA3N, value, defaulted: d };
        let n = r.size("num_hidden_layers", 10_000)?;
        let hidden = r.size("hidden_size", 1 << 18)?;
        let heads = r.size("num_attention_heads", 1 << 14)?;
        let (kv, hd) = (r.size("num_key_value_heads", 1 << 14)?, r.size("head_dim", 1 << 14)?);
        if hidden % heads != 0 || heads % kv != 0 {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!(
                    "hidden_size {hidden}, {heads} heads and {kv} key/value heads do not divide as Gemma3nTextConfig requires"
                ),
            ));
        }
        if let Some(list) = r.raw("activation_sparsity_pattern").and_then(Value::as_array)
            && list.len() as u64 != n
        {
            return Err(ConfigError::field(
                "activation_sparsity_pattern",
                format!("{} values for {n} layers, which Gemma3nTextConfig refuses", list.len()),
            ));
        }
        let ffn = widths(&mut r, n)?;
        let sliding: Vec<bool> = super::t5gemma::windows(value, "layer_types", n, 1, |i| (i + 1) % 5 == 0)?
            .into_iter()
            .map(|w| w.is_some())
            .collect();
        let shared_n = r.opt_u("num_kv_shared_layers")?.unwrap_or(0);
        if shared_n >= n && shared_n > 0 {
            return Err(ConfigError::field(
                "num_kv_shared_layers",
                format!("{shared_n} shared layers leave none of the {n} layers to make the keys and values"),
            ));
        }
        let first_shared = (n - shared_n) as usize;
        if sliding[first_shared..].iter().any(|s| !sliding[..first_shared].contains(s)) {
            return Err(ConfigError::field(
                "num_kv_shared_layers",
                "a kind of layer among the shared ones has no unshared layer of its kind, which Gemma3nTextConfig refuses",
            ));
        }
        let layers = sliding
            .iter()
            .zip(&ffn)
            .enumerate()
            .map(|(i, (s, f))| G4Layer {
                sliding: *s,
                head_dim: hd,
                kv_heads: kv,
                shared: i >= first_shared,
                k_eq_v: false,
                ffn: *f,
            })
            .collect();
        Ok(Gemma3nConfig {
            class,
            head,
            pad_token_id: r.opt_u("pad_token_id")?,
            hidden_activation: r.string("hidden_activation")?,
            vocab_size: r.size("vocab_size", 100_000_000)?,
            hidden_size: hidden,
            num_heads: heads,
            layers,
            attention_bias: r.flag("attention_bias")?,
            vocab_size_per_layer_input: r.size("vocab_size_per_layer_input", 100_000_000)?,
            hidden_size_per_layer_input: r.size("hidden_size_per_layer_input", 1 << 20)?,
            altup_num_inputs: r.size("altup_num_inputs", 1024)?,
            laurel_rank: r.size("laurel_rank", 1 << 20)?,
            sliding_window: r.size("sliding_window", 1 << 24)?,
            max_position_embeddings: r.size("max_position_embeddings", 1 << 24)?,
            tie_word_embeddings: r.flag("tie_word_embeddings")?,
            rms_norm_eps: r.float("rms_norm_eps")?,
            defaulted: r.defaulted,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let (v, context) = (self.vocab_size, self.max_position_embeddings);
        let d = super::gemma4::layered_dims(self.hidden_size, self.num_heads, &self.layers, v, context);
        let eps = self.rms_norm_eps;
        super::Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: eps,
            ..d
        }
    }
}
