//! ProphetNet (`prophetnet`, Qi et al., 2020): a post-LN encoder-decoder whose decoder predicts
//! `ngram` future tokens at once, with n-gram self-attention that adds relative-position logits
//! (`relative_pos_embeddings`: hidden to `num_buckets` x heads) and `ngram` learned stream
//! embeddings. One `word_embeddings` table is shared by the stacks and the head when
//! `tie_word_embeddings` holds; otherwise each stack keeps its own copy. Built by
//! `graph/prophetnet.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    encoder_ffn_dim: Option<u64>,
    num_encoder_layers: Option<u64>,
    num_encoder_attention_heads: Option<u64>,
    decoder_ffn_dim: Option<u64>,
    num_decoder_layers: Option<u64>,
    num_decoder_attention_heads: Option<u64>,
    max_position_embeddings: Option<u64>,
    add_cross_attention: Option<bool>,
    ngram: Option<u64>,
    num_buckets: Option<u64>,
    relative_max_distance: Option<u64>,
    tie_word_embeddings: Option<bool>,
    activation_function: Option<String>,
}

/// The classes `modeling_prophetnet.py` exports, by the stacks they hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProphetNetClass {
    /// `ProphetNetModel`: the shared table, the encoder and the decoder.
    Model,
    /// `ProphetNetForConditionalGeneration`: `prophetnet.` (the model) and `lm_head`.
    ConditionalGeneration,
    /// `ProphetNetForCausalLM`: `prophetnet.` (the table and the decoder) and `lm_head`.
    CausalLm,
    /// `ProphetNetEncoder` or `ProphetNetDecoder` alone, each with its own table.
    Encoder,
    Decoder,
}

#[derive(Debug, Clone)]
pub struct ProphetNetConfig {
    pub class: String,
    pub kind: ProphetNetClass,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub encoder_ffn: u64,
    pub encoder_layers: u64,
    pub encoder_heads: u64,
    pub decoder_ffn: u64,
    pub decoder_layers: u64,
    pub decoder_heads: u64,
    pub max_position_embeddings: u64,
    pub cross_attention: bool,
    pub ngram: u64,
    pub num_buckets: u64,
    pub relative_max_distance: u64,
    pub tie_word_embeddings: bool,
    pub activation_function: String,
    pub defaulted: Vec<Defaulted>,
}

fn kind_of(class: &str) -> Result<ProphetNetClass, ConfigError> {
    Ok(match class.strip_prefix("ProphetNet") {
        Some("Model") => ProphetNetClass::Model,
        Some("ForConditionalGeneration") => ProphetNetClass::ConditionalGeneration,
        Some("ForCausalLM") => ProphetNetClass::CausalLm,
        Some("Encoder") => ProphetNetClass::Encoder,
        Some("Decoder") => ProphetNetClass::Decoder,
        _ => return Err(super::read::unknown_class(class)),
    })
}

/// Heads: `ProphetNetAttention` asserts that they divide `hidden_size`.
fn heads(
    field: &'static str,
    v: Option<u64>,
    hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    super::dims::dividing_heads((field, size(field, v, 16, 1 << 16, d)?), hidden)
}

impl ProphetNetConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "ProphetNetModel", &mut d);
        let kind = kind_of(&class)?;
        let hidden_size = size("hidden_size", raw.hidden_size, 1024, 1 << 18, &mut d)?;
        let encoder_heads =
            heads("num_encoder_attention_heads", raw.num_encoder_attention_heads, hidden_size, &mut d)?;
        let decoder_heads =
            heads("num_decoder_attention_heads", raw.num_decoder_attention_heads, hidden_size, &mut d)?;
        // Bounded below the other types' 2^30: the decoder caches self- and cross-attention per position.
        let positions = size("max_position_embeddings", raw.max_position_embeddings, 512, 1 << 24, &mut d)?;
        let buckets = size("num_buckets", raw.num_buckets, 32, 1 << 20, &mut d)?;
        // relative_pos_embeddings is hidden x (buckets x heads): bounded as an MLP width is.
        if buckets.saturating_mul(decoder_heads) > 1 << 22 {
            return Err(ConfigError::field(
                "num_buckets",
                format!("{buckets} buckets x {decoder_heads} heads is beyond any real model (at most 2^22)"),
            ));
        }
        let distance = size("relative_max_distance", raw.relative_max_distance, 128, 1 << 30, &mut d)?;
        Ok(ProphetNetConfig {
            kind,
            vocab_size: size("vocab_size", raw.vocab_size, 30522, 100_000_000, &mut d)?,
            hidden_size,
            encoder_ffn: size("encoder_ffn_dim", raw.encoder_ffn_dim, 4096, 1 << 22, &mut d)?,
            encoder_layers: size("num_encoder_layers", raw.num_encoder_layers, 12, 10_000, &mut d)?,
            encoder_heads,
            decoder_ffn: size("decoder_ffn_dim", raw.decoder_ffn_dim, 4096, 1 << 22, &mut d)?,
            decoder_layers: size("num_decoder_layers", raw.num_decoder_layers, 12, 10_000, &mut d)?,
            decoder_heads,
            max_position_embeddings: positions,
            cross_attention: flag("add_cross_attention", raw.add_cross_attention, true, &mut d),
            ngram: size("ngram", raw.ngram, 2, 1 << 10, &mut d)?,
            num_buckets: buckets,
            relative_max_distance: distance,
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            activation_function: raw.activation_function.unwrap_or_else(|| {
                d.push(Defaulted { field: "activation_function", value: "gelu".into() });
                "gelu".into()
            }),
            class,
            defaulted: d,
        })
    }
}
