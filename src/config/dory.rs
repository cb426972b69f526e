//! Dory, read with the defaults of transformers 5.24's `DoryConfig` (keys and classes as a
//! [`Spec`] table, read by the shared [`Reader`]); its graph is in `graph/dory.rs`.

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::doge_dory::{decoder_dims, heads, pad_token};
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::{Common, ConfigError, Defaulted};
use Dv::{B, Null, S, U};
use HeadKind::{CausalLm, Model};

const DORY: Spec = Spec {
    model_type: "dory",
    classes: classes!("Dory": Model, ForCausalLM),
    keys: keys![sizes(131_072, 2560, 7168, 36, 16, U(4), U(256), 8192), tie_word_embeddings: B(false),
        hidden_act: S("silu"), attention_bias: B(false), mlp_bias: B(false), sliding_window: U(1024),
        n_input_layers: U(8), n_recurrent_layers: Null, n_output_layers: U(8), n_recurrent_loops: U(2),
        recurrent_kv_cache_mode: S("per_loop")],
    ..BASE
};

/// Dory: every norm an L2 normalisation without parameters; attention with a sigmoid output gate
/// (`gate_proj`) and learned scales (`sqk`, `s_gate`), an MLP with `suv_gate` and `suv_up`, two
/// learned step sizes per layer (`lambda_1`, `lambda_2`) and a learned logit scale per token
/// (`lm_head.logit_scale`). The middle `n_recurrent_layers` run `n_recurrent_loops` times; with
/// `recurrent_kv_cache_mode` "per_loop" each loop caches its own keys and values.
#[derive(Debug, Clone, Serialize)]
pub struct DoryConfig {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    /// Per layer, whether it attends within the window.
    pub sliding: Vec<bool>,
    pub sliding_window: u64,
    /// The looped layers (from `n_input_layers`, `n_recurrent_layers` of them) and the loops.
    pub recurrent: (u64, u64),
    pub loops: u64,
    /// Whether every loop keeps its own cache of the looped layers ("per_loop").
    pub cache_per_loop: bool,
    pub max_position_embeddings: u64,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

impl DoryConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let (class, head) = head(&DORY, common, value, &mut d)?;
        let mut r = Reader { spec: &DORY, value, defaulted: d };
        let hidden_size = r.size("hidden_size", 1 << 18)?;
        let (num_heads, num_kv_heads, head_dim) = heads(&mut r, hidden_size, "DoryAttention")?;
        let mut n = r.size("num_hidden_layers", 20_000)?;
        let mut input = r.opt_u("n_input_layers")?.unwrap_or(0);
        let mut output = r.opt_u("n_output_layers")?.unwrap_or(0);
        let mut looped = r.opt_u("n_recurrent_layers")?;
        let listed = value.get("layer_types").filter(|v| !v.is_null()).map(|v| {
            v.as_array().map(|a| a.iter().map(|t| t.as_str().unwrap_or("").to_string()).collect::<Vec<_>>())
        });
        let mut types = match listed {
            Some(None) => return Err(ConfigError::field("layer_types", "expected a list of layer types")),
            Some(Some(t)) => Some(t),
            None => None,
        };
        if let Some(t) = types.as_mut().filter(|t| t.iter().any(|x| x == "mlp")) {
            // Released files list attention and MLP as separate blocks: each pair is one layer.
            *t = t.iter().step_by(2).cloned().collect();
            n /= 2;
            input /= 2;
            output /= 2;
            looped = looped.map(|l| l / 2);
        }
        let sliding = match types {
            None => (0..n).map(|i| (i + 1) % 4 != 0).collect::<Vec<_>>(),
            Some(t) if t.len() as u64 == n => t
                .iter()
                .map(|x| match x.as_str() {
                    "sliding_attention" => Ok(true),
                    "full_attention" => Ok(false),
                    _ => Err(ConfigError::field(
                        "layer_types",
                        format!("expected sliding_attention or full_attention, found {x:?}"),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(t) => {
                return Err(ConfigError::field(
                    "layer_types",
                    format!("{} layer types for {n} layers", t.len()),
                ));
            }
        };
        let looped = looped.unwrap_or(n.saturating_sub(input + output));
        if n == 0 || input + looped + output != n {
            return Err(ConfigError::field(
                "n_recurrent_layers",
                format!(
                    "{input} input, {looped} looped and {output} output layers do not make the {n} layers, which DoryConfig refuses"
                ),
            ));
        }
        let loops = r.size("n_recurrent_loops", 1000)?;
        let mode = r.string("recurrent_kv_cache_mode")?;
        if mode != "per_loop" && mode != "last_loop" {
            return Err(ConfigError::field(
                "recurrent_kv_cache_mode",
                format!("expected per_loop or last_loop, found {mode:?}"),
            ));
        }
        Ok(DoryConfig {
            class,
            head,
            vocab_size: r.size("vocab_size", 100_000_000)?,
            hidden_size,
            intermediate_size: r.size("intermediate_size", 1 << 22)?,
            num_heads,
            num_kv_heads,
            head_dim,
            sliding,
            sliding_window: r.size("sliding_window", 1 << 24)?,
            recurrent: (input, looped),
            loops,
            cache_per_loop: mode == "per_loop",
            max_position_embeddings: r.size("max_position_embeddings", 1 << 24)?,
            attention_bias: r.flag("attention_bias")?,
            mlp_bias: r.flag("mlp_bias")?,
            tie_word_embeddings: r.flag("tie_word_embeddings")?,
            pad_token_id: pad_token(value),
            hidden_act: r.string("hidden_act")?,
            defaulted: r.defaulted,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let (h, layers, ffn) = (self.hidden_size, self.sliding.len() as u64, self.intermediate_size);
        let heads = [self.num_heads, self.num_kv_heads, self.head_dim];
        let sizes =
            [h, layers, heads[0], heads[1], heads[2], ffn, self.vocab_size, self.max_position_embeddings];
        // Every norm is an L2 normalisation at DoryL2Norm's epsilon.
        decoder_dims(sizes, self.pad_token_id, self.tie_word_embeddings, 1e-6)
    }
}
