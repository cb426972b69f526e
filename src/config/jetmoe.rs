//! JetMoE (`jetmoe`), read through the described types' reader (`config/spec_keys.rs`) with the
//! keys and defaults of transformers' `JetMoeConfig`: `kv_channels` (its `attribute_map` name
//! `head_dim`) per key/value head, and as many query heads as key/value heads times
//! `num_experts_per_tok` (the class sets `num_attention_heads` itself).

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::{Common, ConfigError, Defaulted, Dims};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence};

const KEYS: Spec = Spec {
    model_type: "jetmoe",
    classes: classes!("JetMoe": Model, ForCausalLM, ForSequenceClassification),
    keys: keys![vocab_size: U(32000), hidden_size: U(2048), num_hidden_layers: U(12),
        num_key_value_heads: U(16), kv_channels: U(128), intermediate_size: U(5632),
        max_position_embeddings: U(4096), activation_function: S("silu"), num_local_experts: U(8),
        num_experts_per_tok: U(2), tie_word_embeddings: B(true), pad_token_id: Null,
        rms_norm_eps: F(1e-6)],
    aliases: &[("head_dim", "kv_channels")],
    ..BASE
};

#[derive(Debug, Clone, Serialize)]
pub struct JetMoeConfig {
    pub class: String,
    pub head: DecoderHead,
    /// Query heads are key/value heads x experts per token; head_dim is `kv_channels`.
    pub dims: Dims,
    pub activation_function: String,
    pub defaulted: Vec<Defaulted>,
}

impl JetMoeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut r = Reader { spec: &KEYS, value, defaulted: vec![] };
        let kv = r.size("num_key_value_heads", 1 << 16)?;
        let (n, k) = (r.size("num_local_experts", 1 << 16)?, r.size("num_experts_per_tok", 1 << 16)?);
        if k > n {
            return Err(ConfigError::field(
                "num_experts_per_tok",
                format!("{k} experts per token, but only {n} experts"),
            ));
        }
        let context = r.size("max_position_embeddings", 1 << 30)?;
        let dims = Dims {
            num_kv_heads: kv,
            head_dim: r.size("kv_channels", 1 << 16)?,
            pad_token_id: r.opt_u("pad_token_id")?,
            tie_word_embeddings: r.flag("tie_word_embeddings")?,
            layer_norm_eps: r.float("rms_norm_eps")?,
            num_experts: Some(n),
            experts_per_token: Some(k),
            ..Dims::mha(
                r.size("hidden_size", 1 << 18)?,
                r.size("num_hidden_layers", 10_000)?,
                kv * k,
                r.size("intermediate_size", 1 << 22)?,
                r.size("vocab_size", 100_000_000)?,
                context,
            )
        };
        let activation_function = r.string("activation_function")?;
        let mut defaulted = r.defaulted;
        let (class, head) = head(&KEYS, common, value, &mut defaulted)?;
        Ok(JetMoeConfig { class, head, dims, activation_function, defaulted })
    }

    pub fn dims(&self) -> Dims {
        self.dims.clone()
    }
}
