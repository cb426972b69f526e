//! The Byte Latent Transformer (`blt`): bytes embedded with hash n-gram embeddings
//! (`encoder_hash_tok_embedding`), a local encoder whose cross-attention pools bytes into patches,
//! a global transformer over the patches, a local decoder cross-attending back to the bytes, and
//! the frozen entropy model (`patcher`) that places patch boundaries when `patch_in_forward`.
//! Each part reads its own sub-config (`encoder_config`, `global_config`, `decoder_config`,
//! `patcher_config`) with its class's defaults (transformers 5.24 `configuration_blt.py`). Built
//! by `graph/blt.rs`.

use serde::Deserialize;
use serde_json::{Value, json};

use super::composite::{sub, top_flag, top_size};
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, size};
use crate::graph::vision::nested;

/// One part's sizes: a stack of Llama-style layers (RMSNorm, grouped-query attention without
/// biases, a SwiGLU MLP).
#[derive(Debug, Clone)]
pub struct BltStack {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub num_layers: u64,
    pub intermediate_size: u64,
    pub hidden_act: String,
    pub max_position_embeddings: u64,
    /// The local stacks' cross-attention: one per layer, else one (`cross_attn_all_layers`).
    pub cross_attn_all_layers: bool,
    /// Patch states per patch in the local stacks' cross-attention (`cross_attn_k`).
    pub cross_attn_k: u64,
    /// The global width the local decoder reads (`hidden_size_global`).
    pub hidden_size_global: u64,
}

impl BltStack {
    /// `hidden_size // num_attention_heads`, as the attention computes it.
    pub fn head_dim(&self) -> u64 {
        self.hidden_size / self.num_heads
    }
}

#[derive(Debug, Deserialize)]
struct RawStack {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    num_hidden_layers: Option<u64>,
    intermediate_size: Option<u64>,
    hidden_act: Option<String>,
    max_position_embeddings: Option<u64>,
    cross_attn_all_layers: Option<bool>,
    cross_attn_k: Option<u64>,
    hidden_size_global: Option<u64>,
}

/// A sub-config class's defaults: vocab, hidden, heads, layers, MLP (None: `int(8 * hidden / 3)`),
/// positions, cross-attention in every layer.
type StackDefaults = (u64, u64, u64, u64, Option<u64>, u64, bool);

const ENCODER: StackDefaults = (260, 1024, 16, 1, None, 24576, false);
const DECODER: StackDefaults = (260, 1024, 16, 9, Some(2816), 24576, true);
const GLOBAL: StackDefaults = (260, 2048, 16, 25, Some(5632), 4096, false);
const PATCHER: StackDefaults = (260, 768, 12, 14, Some(2048), 8192, false);

fn stack(
    value: &Value,
    key: &str,
    defaults: StackDefaults,
    d: &mut Vec<Defaulted>,
) -> Result<BltStack, ConfigError> {
    let (vocab, hidden, heads, layers, ffn, positions, all) = defaults;
    let sub_value = sub(value, key, || json!({}))?;
    let mut local = vec![];
    let read = |local: &mut Vec<Defaulted>| -> Result<BltStack, ConfigError> {
        let r: RawStack = deserialize_raw(&sub_value)?;
        let hidden_size = size("hidden_size", r.hidden_size, hidden, 1 << 18, local)?;
        let num_heads = size("num_attention_heads", r.num_attention_heads, heads, 1 << 16, local)?;
        if num_heads > hidden_size {
            return Err(ConfigError::field(
                "num_attention_heads",
                format!("{num_heads} heads leave no channel of the width {hidden_size} per head"),
            ));
        }
        // `num_key_value_heads or num_attention_heads`; `intermediate_size or int(8 * hidden / 3)`.
        let kv_heads = r.num_key_value_heads.unwrap_or(num_heads);
        let num_kv_heads = size("num_key_value_heads", Some(kv_heads), 0, 1 << 16, local)?;
        // The local encoder's MLP width is `int | None`, None read as `int(8 * hidden / 3)`; the
        // other classes type theirs `int` and refuse a null.
        let ffn = match (sub_value.get("intermediate_size"), ffn) {
            (Some(Value::Null), Some(_)) => {
                return Err(ConfigError::field("intermediate_size", "expected an integer, found null"));
            }
            (_, ffn) => r.intermediate_size.or(ffn).unwrap_or(8 * hidden_size / 3),
        };
        let intermediate_size = size("intermediate_size", Some(ffn), 0, 1 << 22, local)?;
        Ok(BltStack {
            vocab_size: size("vocab_size", r.vocab_size, vocab, 100_000_000, local)?,
            hidden_size,
            num_heads,
            num_kv_heads,
            num_layers: size("num_hidden_layers", r.num_hidden_layers, layers, 10_000, local)?,
            intermediate_size,
            hidden_act: r.hidden_act.unwrap_or_else(|| "silu".into()),
            max_position_embeddings: size(
                "max_position_embeddings",
                r.max_position_embeddings,
                positions,
                1 << 26,
                local,
            )?,
            cross_attn_all_layers: r.cross_attn_all_layers.unwrap_or(all),
            cross_attn_k: size("cross_attn_k", r.cross_attn_k, 2, 1 << 10, local)?,
            hidden_size_global: size("hidden_size_global", r.hidden_size_global, 2048, 1 << 18, local)?,
        })
    };
    let s = read(&mut local).map_err(|e| nested(key, e))?;
    d.extend(local.into_iter().map(|x| Defaulted { field: x.field, value: format!("{} ({key})", x.value) }));
    Ok(s)
}

#[derive(Debug, Clone)]
pub struct BltConfig {
    pub class: String,
    /// `BltForCausalLM` (true) or the bare `BltModel`.
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub encoder: BltStack,
    pub global: BltStack,
    pub decoder: BltStack,
    /// The entropy model, built when `patch_in_forward`.
    pub patcher: Option<BltStack>,
    /// Patch states per patch entering the global transformer (`cross_attn_k`, top level).
    pub cross_attn_k: u64,
    /// Rows of `encoder_hash_tok_embedding`: hash functions x n-gram sizes x hash vocabulary.
    pub hash_rows: u64,
    pub hash_tables: u64,
    pub patch_size: u64,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

#[derive(Debug, Deserialize)]
struct RawTop {
    encoder_hash_byte_group_size: Option<Vec<u64>>,
    encoder_hash_byte_group_vocab: Option<u64>,
    encoder_hash_byte_group_nb_functions: Option<u64>,
}

impl BltConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let class = class_or(common, "BltModel", &mut d);
        let causal_lm = match class.as_str() {
            "BltModel" => false,
            "BltForCausalLM" => true,
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {class} is not one the planner knows for this family"),
                ));
            }
        };
        let raw: RawTop = deserialize_raw(value)?;
        let vocab_size = top_size(value, "vocab_size", 260, &mut d)?;
        let mut encoder = stack(value, "encoder_config", ENCODER, &mut d)?;
        let global = stack(value, "global_config", GLOBAL, &mut d)?;
        let decoder = stack(value, "decoder_config", DECODER, &mut d)?;
        let patcher = match top_flag(value, "patch_in_forward", true)? {
            true => Some(stack(value, "patcher_config", PATCHER, &mut d)?),
            false => None,
        };
        let cross_attn_k = top_size(value, "cross_attn_k", 2, &mut d)?;
        // `encoder_hash_byte_group_size or [3, 4, 5, 6, 7, 8]`: an empty list takes the default.
        let groups = match raw.encoder_hash_byte_group_size {
            Some(g) if !g.is_empty() => g.len() as u64,
            _ => 6,
        };
        let functions = size(
            "encoder_hash_byte_group_nb_functions",
            raw.encoder_hash_byte_group_nb_functions,
            1,
            1 << 10,
            &mut d,
        )?;
        let hash_vocab = size(
            "encoder_hash_byte_group_vocab",
            raw.encoder_hash_byte_group_vocab,
            500_002,
            1 << 32,
            &mut d,
        )?;
        let tie_word_embeddings = top_flag(value, "tie_word_embeddings", false)?;
        if causal_lm && tie_word_embeddings {
            // `_tied_weights_keys` makes the byte embeddings lm_head's matrix (vocab_size x the
            // decoder's width), whatever the encoder's own vocab_size said.
            if encoder.hidden_size != decoder.hidden_size {
                return Err(ConfigError::field(
                    "tie_word_embeddings",
                    format!(
                        "lm_head's width ({}) cannot serve as the local encoder's embeddings (width {})",
                        decoder.hidden_size, encoder.hidden_size
                    ),
                ));
            }
            encoder.vocab_size = vocab_size;
        }
        Ok(BltConfig {
            class,
            causal_lm,
            vocab_size,
            encoder,
            global,
            decoder,
            patcher,
            cross_attn_k,
            hash_rows: functions * groups * hash_vocab,
            hash_tables: functions * groups,
            patch_size: top_size(value, "patch_size", 4, &mut d)?,
            tie_word_embeddings,
            defaulted: d,
        })
    }

    /// The local encoder's patch states entering the global transformer, when their width
    /// (encoder width x `cross_attn_k`) is not the global width: then a projection joins them.
    pub fn global_projection(&self) -> Option<u64> {
        let width = self.encoder.hidden_size * self.cross_attn_k;
        (width != self.global.hidden_size).then_some(width)
    }

    /// The local decoder's sizes (it runs per byte and feeds the head), all three stacks' layers,
    /// the byte context of the local encoder.
    pub fn dims(&self) -> super::Dims {
        let (e, g, dec) = (&self.encoder, &self.global, &self.decoder);
        super::Dims {
            num_kv_heads: dec.num_kv_heads,
            head_dim: dec.head_dim(),
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: 1e-5,
            ..super::Dims::mha(
                dec.hidden_size,
                e.num_layers + g.num_layers + dec.num_layers,
                dec.num_heads,
                dec.intermediate_size,
                self.vocab_size,
                e.max_position_embeddings,
            )
        }
    }
}
