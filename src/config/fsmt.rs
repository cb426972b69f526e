//! FSMT (fairseq's WMT19 translation models): BART's post-LN layers with a source table, a
//! target table and an `output_projection` of their own, and sinusoidal positions held in an
//! embedding weight of `max_position_embeddings + pad_token_id + 1` rows. Defaults are
//! FSMTConfig's, with its `attribute_map` (`vocab_size` is `tgt_vocab_size`, `hidden_size` is
//! `d_model`, `num_attention_heads` is `encoder_attention_heads`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, alias_or, class_or, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct Raw {
    src_vocab_size: Option<u64>,
    activation_function: Option<String>,
    tgt_vocab_size: Option<u64>,
    tie_word_embeddings: Option<bool>,
    vocab_size: Option<u64>,
    d_model: Option<u64>,
    hidden_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    pad_token_id: Option<u64>,
    /// Per stack: layers, feed-forward width, heads (`num_attention_heads` the encoder's alias).
    encoder_layers: Option<u64>,
    decoder_layers: Option<u64>,
    encoder_ffn_dim: Option<u64>,
    decoder_ffn_dim: Option<u64>,
    num_attention_heads: Option<u64>,
    encoder_attention_heads: Option<u64>,
    decoder_attention_heads: Option<u64>,
}

/// One stack's sizes.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Stack {
    pub vocab: u64,
    pub layers: u64,
    pub ffn: u64,
    pub heads: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct FsmtConfig {
    pub class: String,
    /// `FSMTForConditionalGeneration` keeps the model under `model.`; `FSMTModel` has no prefix.
    /// Both hold the decoder's `output_projection`.
    pub generation: bool,
    pub d_model: u64,
    pub encoder: Stack,
    pub decoder: Stack,
    /// Rows of each stack's position table: `max_position_embeddings + pad_token_id + 1`.
    pub position_rows: u64,
    pub max_position_embeddings: u64,
    pub activation_function: String,
    /// Ties the source table and `output_projection` to the target table.
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub defaulted: Vec<Defaulted>,
}

impl FsmtConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let src = size("src_vocab_size", raw.src_vocab_size, 42024, 100_000_000, &mut d)?;
        let (field, v) = alias_or(("vocab_size", raw.vocab_size), ("tgt_vocab_size", raw.tgt_vocab_size));
        let tgt = size(field, v, 42024, 100_000_000, &mut d)?;
        let (field, v) = alias_or(("hidden_size", raw.hidden_size), ("d_model", raw.d_model));
        let d_model = size(field, v, 1024, 1 << 18, &mut d)?;
        let positions = size("max_position_embeddings", raw.max_position_embeddings, 1024, 1 << 30, &mut d)?;
        let (field, v) = alias_or(
            ("num_attention_heads", raw.num_attention_heads),
            ("encoder_attention_heads", raw.encoder_attention_heads),
        );
        let encoder = Stack {
            vocab: src,
            layers: size("encoder_layers", raw.encoder_layers, 12, 10_000, &mut d)?,
            ffn: size("encoder_ffn_dim", raw.encoder_ffn_dim, 4096, 1 << 22, &mut d)?,
            heads: size(field, v, 16, 1 << 16, &mut d)?,
        };
        let decoder = Stack {
            vocab: tgt,
            layers: size("decoder_layers", raw.decoder_layers, 12, 10_000, &mut d)?,
            ffn: size("decoder_ffn_dim", raw.decoder_ffn_dim, 4096, 1 << 22, &mut d)?,
            heads: size("decoder_attention_heads", raw.decoder_attention_heads, 16, 1 << 16, &mut d)?,
        };
        let activation_function = raw.activation_function.unwrap_or_else(|| "relu".into());
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, false, &mut d);
        if tie_word_embeddings && src != tgt {
            return Err(ConfigError::field(
                "tie_word_embeddings",
                format!(
                    "true ties the {src}-row source table to the {tgt}-row target table, which cannot share one weight"
                ),
            ));
        }
        // The padding index sits inside each position table; FSMT has no table without one.
        let pad_token_id = match value.get("pad_token_id") {
            None => {
                d.push(Defaulted { field: "pad_token_id", value: "1".into() });
                1
            }
            Some(_) => raw.pad_token_id.ok_or_else(|| {
                ConfigError::field("pad_token_id", "FSMT's position tables need a padding index")
            })?,
        };
        let position_rows = positions
            .checked_add(pad_token_id)
            .and_then(|n| n.checked_add(1))
            .filter(|n| *n <= 1 << 30)
            .ok_or_else(|| {
                ConfigError::field("pad_token_id", format!("{pad_token_id} is beyond any real model"))
            })?;
        let class = class_or(common, "FSMTModel", &mut d);
        let generation = match class.as_str() {
            "FSMTModel" => false,
            "FSMTForConditionalGeneration" => true,
            _ => return Err(super::read::unknown_class(&class)),
        };
        Ok(FsmtConfig {
            class,
            generation,
            d_model,
            encoder,
            decoder,
            position_rows,
            max_position_embeddings: positions,
            activation_function,
            tie_word_embeddings,
            pad_token_id,
            defaulted: d,
        })
    }

    /// The decoder's sizes: the stack that generates, and whose cache serving keeps.
    pub fn dims(&self) -> super::Dims {
        let dec = self.decoder;
        let mut dims = super::Dims::mha(
            self.d_model,
            dec.layers,
            dec.heads,
            dec.ffn,
            dec.vocab,
            self.max_position_embeddings,
        );
        (dims.pad_token_id, dims.layer_norm_eps) = (Some(self.pad_token_id), 1e-5);
        dims.tie_word_embeddings = self.tie_word_embeddings;
        dims
    }
}
