//! Recurrent language models with their own layers, read from `config.json` with the defaults of
//! transformers 5.x's config classes: RWKV-4 (`rwkv`: time mixing and channel mixing, a
//! per-sequence state of five vectors per layer instead of a KV cache). Their graphs are in
//! `graph/rwkv.rs`.

use serde::{Deserialize, Serialize};

use super::{Common, ConfigError, Defaulted, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct RawRwkv {
    vocab_size: Option<u64>,
    // RwkvConfig.attribute_map: `max_position_embeddings` is `context_length`.
    #[serde(alias = "max_position_embeddings")]
    context_length: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    attention_hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    layer_norm_epsilon: Option<f64>,
    tie_word_embeddings: Option<bool>,
}

/// RWKV-4: each block holds a LayerNorm before time mixing and one before channel mixing (the
/// first block one more, on the embeddings); time mixing's key, value and receptance are
/// `attention_hidden_size` wide (hidden unless set), channel mixing's key `intermediate_size`
/// (4 x hidden unless set).
#[derive(Debug, Clone, Serialize)]
pub struct RwkvConfig {
    pub class: String,
    /// `RwkvForCausalLM` (true) or the bare `RwkvModel`.
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub context_length: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub attention_hidden_size: u64,
    pub intermediate_size: u64,
    pub layer_norm_epsilon: f64,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

impl RwkvConfig {
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: RawRwkv = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 50277, 100_000_000, &mut d)?;
        let context_length = size("context_length", raw.context_length, 1024, 1 << 24, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 4096, 1 << 18, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 32, 10_000, &mut d)?;
        // RwkvConfig.__post_init__ fills these from hidden_size when they are None.
        let attention_hidden_size =
            size("attention_hidden_size", raw.attention_hidden_size, hidden_size, 1 << 18, &mut d)?;
        let intermediate_size =
            size("intermediate_size", raw.intermediate_size, 4 * hidden_size, 1 << 22, &mut d)?;
        let class = super::class_or(common, "RwkvModel", &mut d);
        let causal_lm = match class.as_str() {
            "RwkvModel" => false,
            "RwkvForCausalLM" => true,
            _ => return Err(super::read::unknown_class(&class)),
        };
        Ok(RwkvConfig {
            class,
            causal_lm,
            vocab_size,
            context_length,
            hidden_size,
            num_layers,
            attention_hidden_size,
            intermediate_size,
            layer_norm_epsilon: raw.layer_norm_epsilon.unwrap_or(1e-5),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let (h, layers, ffn, v) =
            (self.hidden_size, self.num_layers, self.intermediate_size, self.vocab_size);
        super::Dims {
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::attention_free(h, layers, ffn, v, self.context_length)
        }
    }
}

#[derive(Debug, Deserialize)]
struct RawXlstm {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    embedding_dim: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_blocks: Option<u64>,
    num_heads: Option<u64>,
    use_bias: Option<bool>,
    norm_eps: Option<f64>,
    qk_dim_factor: Option<f64>,
    v_dim_factor: Option<f64>,
    ffn_proj_factor: Option<f64>,
    ffn_round_up_to_multiple_of: Option<u64>,
    weight_mode: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
}

/// xLSTM (xLSTM 7B's mLSTM blocks, transformers' native `xLSTMModel`): per block an RMSNorm, the
/// mLSTM layer (q, k at `qk_dim_factor` x hidden, v and the output gate at `v_dim_factor` x hidden,
/// input and forget gates one per head with biases, a per-head norm, `out_proj`), an RMSNorm and
/// a gated MLP of `ffn_proj_factor` x hidden rounded up; `weight_mode` "fused" joins q, k, v and
/// the output gate, and the two gates.
#[derive(Debug, Clone, Serialize)]
pub struct XlstmConfig {
    pub class: String,
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub hidden_size: u64,
    /// The embedding table's width (`embedding_dim`, hidden unless set).
    pub embedding_dim: u64,
    pub num_blocks: u64,
    pub num_heads: u64,
    pub use_bias: bool,
    pub fused: bool,
    /// The layer's widths, `int(hidden x factor)` as `xLSTMLayer` takes them.
    pub qk_dim: u64,
    pub v_dim: u64,
    pub ffn_dim: u64,
    /// Per head, the cache's widths: the factors' products rounded up to 64, over the heads.
    pub state_qk_head_dim: u64,
    pub state_v_head_dim: u64,
    pub norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

/// A factor of the hidden size, positive and finite, as the config class reads it.
fn factor(
    field: &'static str,
    v: Option<f64>,
    default: f64,
    d: &mut Vec<Defaulted>,
) -> Result<f64, ConfigError> {
    let f = v.unwrap_or_else(|| {
        d.push(Defaulted { field, value: default.to_string() });
        default
    });
    if !(f.is_finite() && f > 0.0 && f <= 64.0) {
        return Err(ConfigError::field(
            field,
            format!("expected a positive factor of at most 64, found {f}"),
        ));
    }
    Ok(f)
}

impl XlstmConfig {
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: RawXlstm = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 50304, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 4096, 1 << 18, &mut d)?;
        let embedding_dim = size("embedding_dim", raw.embedding_dim, hidden_size, 1 << 18, &mut d)?;
        // xLSTMConfig keeps both counts; the model stacks `num_blocks`, which follows
        // `num_hidden_layers` when the file leaves it out.
        let layers = size("num_hidden_layers", raw.num_hidden_layers, 32, 10_000, &mut d)?;
        let num_blocks = match raw.num_blocks {
            Some(n) => size("num_blocks", Some(n), layers, 10_000, &mut d)?,
            None => layers,
        };
        let num_heads = size("num_heads", raw.num_heads, 8, 1 << 14, &mut d)?;
        let qk_factor = factor("qk_dim_factor", raw.qk_dim_factor, 0.5, &mut d)?;
        let v_factor = factor("v_dim_factor", raw.v_dim_factor, 1.0, &mut d)?;
        let ffn_factor = factor("ffn_proj_factor", raw.ffn_proj_factor, 2.667, &mut d)?;
        let multiple =
            size("ffn_round_up_to_multiple_of", raw.ffn_round_up_to_multiple_of, 64, 1 << 16, &mut d)?;
        let fused = match raw.weight_mode.as_deref() {
            None => {
                d.push(Defaulted { field: "weight_mode", value: "single".into() });
                false
            }
            Some("single") => false,
            Some("fused") => true,
            Some(m) => {
                return Err(ConfigError::field(
                    "weight_mode",
                    format!("expected single or fused, found {m:?}"),
                ));
            }
        };
        let h = hidden_size as f64;
        // Python's int() and round_up_to_next_multiple_of over floats; the products are exact
        // at any real width.
        let scaled = |f: f64| (h * f) as u64;
        let round_up = |x: f64, m: u64| (((x + m as f64 - 1.0) / m as f64).floor() as u64) * m;
        let (qk_dim, v_dim) = (scaled(qk_factor), scaled(v_factor));
        let ffn_dim = round_up(h * ffn_factor, multiple);
        if qk_dim == 0 || v_dim < num_heads {
            return Err(ConfigError::field(
                "num_heads",
                format!("{num_heads} heads cannot share q/k width {qk_dim} and value width {v_dim}"),
            ));
        }
        let class = super::class_or(common, "xLSTMModel", &mut d);
        let causal_lm = match class.as_str() {
            "xLSTMModel" => false,
            "xLSTMForCausalLM" => true,
            _ => return Err(super::read::unknown_class(&class)),
        };
        // The class declares no tied weights: its lm_head is its own whatever the flag says.
        let _ = flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d);
        let pad_token_id = super::read::pad_or_null(raw.pad_token_id, value, 1);
        Ok(XlstmConfig {
            class,
            causal_lm,
            vocab_size,
            hidden_size,
            embedding_dim,
            num_blocks,
            num_heads,
            use_bias: raw.use_bias.unwrap_or(false),
            fused,
            qk_dim,
            v_dim,
            ffn_dim,
            state_qk_head_dim: round_up(h * qk_factor, 64) / num_heads,
            state_v_head_dim: round_up(h * v_factor, 64) / num_heads,
            norm_eps: raw.norm_eps.unwrap_or(1e-6),
            pad_token_id,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        let (h, blocks, ffn, v) = (self.hidden_size, self.num_blocks, self.ffn_dim, self.vocab_size);
        super::Dims {
            pad_token_id: self.pad_token_id,
            layer_norm_eps: self.norm_eps,
            ..super::Dims::attention_free(h, blocks, ffn, v, super::ssm::SSM_PLAN_CONTEXT)
        }
    }
}
