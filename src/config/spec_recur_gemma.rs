//! RecurrentGemma (Griffin), read with the defaults of transformers 5.x's `RecurrentGemmaConfig`:
//! layers that cycle through `block_types` (two RG-LRU recurrent blocks, then one local attention
//! block, by default), each followed by a gated MLP of half `intermediate_size`. Its graph is in
//! `graph/recurrent_gemma.rs`.

use serde::{Deserialize, Serialize};

use super::{Common, ConfigError, Defaulted, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    intermediate_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    lru_width: Option<u64>,
    attention_window_size: Option<u64>,
    conv1d_width: Option<u64>,
    rms_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    hidden_activation: Option<String>,
    block_types: Option<Vec<String>>,
    attention_bias: Option<bool>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RecurrentGemmaConfig {
    pub class: String,
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub hidden_size: u64,
    /// The MLP's width: half `intermediate_size`, as `RecurrentGemmaMlp` takes it.
    pub mlp_width: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub lru_width: u64,
    pub attention_window_size: u64,
    pub conv1d_width: u64,
    /// Per layer, whether it is an attention block (else recurrent).
    pub attention_layers: Vec<bool>,
    pub attention_bias: bool,
    pub tie_word_embeddings: bool,
    pub hidden_activation: String,
    pub rms_norm_eps: f64,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

impl RecurrentGemmaConfig {
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 256000, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 2560, 1 << 18, &mut d)?;
        let intermediate = size("intermediate_size", raw.intermediate_size, 3 * 2560, 1 << 22, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, 26, 10_000, &mut d)?;
        let num_heads = size("num_attention_heads", raw.num_attention_heads, 10, 1 << 14, &mut d)?;
        let num_kv_heads = size("num_key_value_heads", raw.num_key_value_heads, num_heads, 1 << 14, &mut d)?;
        if num_kv_heads > num_heads {
            return Err(ConfigError::field(
                "num_key_value_heads",
                format!(
                    "{num_kv_heads} exceeds num_attention_heads {num_heads}, which RecurrentGemmaConfig refuses"
                ),
            ));
        }
        let lru_width = size("lru_width", raw.lru_width, hidden_size, 1 << 18, &mut d)?;
        let attention_window_size =
            size("attention_window_size", raw.attention_window_size, 2048, 1 << 24, &mut d)?;
        let conv1d_width = size("conv1d_width", raw.conv1d_width, 4, 1024, &mut d)?;
        let types = raw.block_types.unwrap_or_else(|| {
            d.push(Defaulted { field: "block_types", value: "recurrent, recurrent, attention".into() });
            vec!["recurrent".into(), "recurrent".into(), "attention".into()]
        });
        let kinds = types
            .iter()
            .map(|t| match t.as_str() {
                "recurrent" => Ok(false),
                "attention" => Ok(true),
                _ => Err(ConfigError::field(
                    "block_types",
                    format!("expected recurrent or attention, found {t:?}"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        // `layers_block_type`: the list repeated 100 times, cut at the layer count.
        let attention_layers: Vec<bool> =
            kinds.iter().cycle().take(kinds.len() * 100).take(num_layers as usize).copied().collect();
        if attention_layers.len() as u64 != num_layers {
            return Err(ConfigError::field(
                "block_types",
                format!("{} types repeated 100 times cover fewer than {num_layers} layers", kinds.len()),
            ));
        }
        let class = super::class_or(common, "RecurrentGemmaModel", &mut d);
        let causal_lm = match class.as_str() {
            "RecurrentGemmaModel" => false,
            "RecurrentGemmaForCausalLM" => true,
            _ => return Err(super::read::unknown_class(&class)),
        };
        let pad_token_id = super::read::pad_or_null(raw.pad_token_id, value, 0);
        Ok(RecurrentGemmaConfig {
            class,
            causal_lm,
            vocab_size,
            hidden_size,
            mlp_width: intermediate / 2,
            num_layers,
            num_heads,
            num_kv_heads,
            head_dim: hidden_size / num_heads,
            lru_width,
            attention_window_size,
            conv1d_width,
            attention_layers,
            attention_bias: raw.attention_bias.unwrap_or(false),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            hidden_activation: raw.hidden_activation.unwrap_or_else(|| "gelu_pytorch_tanh".into()),
            rms_norm_eps: raw.rms_norm_eps.unwrap_or(1e-6),
            pad_token_id,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads,
                self.mlp_width,
                self.vocab_size,
                super::ssm::SSM_PLAN_CONTEXT,
            )
        }
    }
}
