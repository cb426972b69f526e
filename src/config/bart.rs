//! The BART lineage (`bart`, `mbart`, `marian`, `pegasus`, ... : `config/seq2seq.rs`), read
//! through one description per type. Defaults are those of the type's config class, with the
//! `attribute_map` they share (`hidden_size` -> `d_model`, `num_attention_heads` ->
//! `encoder_attention_heads`, `num_hidden_layers` -> `encoder_layers`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::seq2seq::{Positions, Seq2Seq};
use super::{
    Common, ConfigError, Defaulted, alias_or, class_or, classifier_labels, deserialize_raw, num_labels_or,
    size,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Head {
    /// `BartModel`: both stacks, no head.
    Model,
    ConditionalGeneration,
    SequenceClassification {
        num_labels: u64,
    },
    /// `BartForQuestionAnswering` sets num_labels to 2 whatever the config says.
    QuestionAnswering,
    /// `BartForCausalLM`: the decoder alone, its embedding its own.
    CausalLm,
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    max_encoder_position_embeddings: Option<u64>,
    max_decoder_position_embeddings: Option<u64>,
    d_model: Option<u64>,
    hidden_size: Option<u64>,
    encoder_layers: Option<u64>,
    num_hidden_layers: Option<u64>,
    encoder_ffn_dim: Option<u64>,
    encoder_attention_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    decoder_layers: Option<u64>,
    decoder_ffn_dim: Option<u64>,
    decoder_attention_heads: Option<u64>,
    activation_function: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    decoder_vocab_size: Option<u64>,
    use_prompt: Option<bool>,
    prompt_length: Option<u64>,
    prompt_mid_dim: Option<u64>,
    share_encoder_decoder_embeddings: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BartConfig {
    /// The type's description: its positions, norms and classes.
    #[serde(skip)]
    pub desc: &'static Seq2Seq,
    pub class: String,
    pub head: Head,
    pub vocab_size: u64,
    /// The decoder's positions (and the encoder's, but in LED).
    pub max_position_embeddings: u64,
    /// The encoder's positions: LED's `max_encoder_position_embeddings`.
    pub encoder_positions: u64,
    pub d_model: u64,
    pub encoder_layers: u64,
    pub encoder_ffn_dim: u64,
    pub encoder_attention_heads: u64,
    pub decoder_layers: u64,
    pub decoder_ffn_dim: u64,
    pub decoder_attention_heads: u64,
    pub activation_function: String,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    /// MVP's decoder prompts: (`prompt_length`, `prompt_mid_dim`) when `use_prompt` is set.
    pub prompt: Option<(u64, u64)>,
    /// The transformers release the graph follows (5.x; 4.x for the note on the other count).
    #[serde(skip)]
    pub release: super::release::Release,
    pub defaulted: Vec<Defaulted>,
}

fn classify(desc: &Seq2Seq, class: &str, num_labels: u64) -> Option<Head> {
    let suffix = class.strip_prefix(desc.prefix).filter(|s| desc.classes.contains(s))?;
    Some(match suffix {
        "Model" => Head::Model,
        "ForConditionalGeneration" | "MTModel" => Head::ConditionalGeneration,
        "ForSequenceClassification" => Head::SequenceClassification { num_labels },
        "ForQuestionAnswering" => Head::QuestionAnswering,
        "ForCausalLM" => Head::CausalLm,
        _ => return None,
    })
}

impl BartConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let desc = super::seq2seq::find(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a BART-lineage model type"))?;
        let dd = &desc.defaults;
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, dd.vocab_size, 100_000_000, &mut d)?;
        if desc.marian_vocab {
            marian_vocab(&raw, vocab_size)?;
        }
        let (max_position_embeddings, encoder_positions) = if desc.led {
            let key = "max_decoder_position_embeddings";
            let dec =
                size(key, raw.max_decoder_position_embeddings, dd.max_position_embeddings, 1 << 30, &mut d)?;
            let key = "max_encoder_position_embeddings";
            (dec, size(key, raw.max_encoder_position_embeddings, 16384, 1 << 30, &mut d)?)
        } else {
            let n = size(
                "max_position_embeddings",
                raw.max_position_embeddings,
                dd.max_position_embeddings,
                1 << 30,
                &mut d,
            )?;
            (n, n)
        };
        // The alias is set after the class's own arguments, so it wins when both are written.
        let (field, v) = alias_or(("hidden_size", raw.hidden_size), ("d_model", raw.d_model));
        let d_model = size(field, v, dd.d_model, 1 << 18, &mut d)?;
        let (field, v) =
            alias_or(("num_hidden_layers", raw.num_hidden_layers), ("encoder_layers", raw.encoder_layers));
        let encoder_layers = size(field, v, dd.encoder_layers, 10_000, &mut d)?;
        let encoder_ffn_dim =
            size("encoder_ffn_dim", raw.encoder_ffn_dim, dd.encoder_ffn_dim, 1 << 22, &mut d)?;
        let (field, v) = alias_or(
            ("num_attention_heads", raw.num_attention_heads),
            ("encoder_attention_heads", raw.encoder_attention_heads),
        );
        let encoder_attention_heads = size(field, v, dd.encoder_attention_heads, 1 << 16, &mut d)?;
        let decoder_layers = size("decoder_layers", raw.decoder_layers, dd.decoder_layers, 10_000, &mut d)?;
        let decoder_ffn_dim =
            size("decoder_ffn_dim", raw.decoder_ffn_dim, dd.decoder_ffn_dim, 1 << 22, &mut d)?;
        let decoder_attention_heads = size(
            "decoder_attention_heads",
            raw.decoder_attention_heads,
            dd.decoder_attention_heads,
            1 << 16,
            &mut d,
        )?;
        let activation_function = raw.activation_function.unwrap_or_else(|| dd.activation_function.into());
        let tie_word_embeddings = raw.tie_word_embeddings.unwrap_or_else(|| {
            d.push(Defaulted { field: "tie_word_embeddings", value: "true".into() });
            true
        });
        let pad_token_id = match value.get("pad_token_id") {
            None => {
                d.push(Defaulted { field: "pad_token_id", value: dd.pad_token_id.to_string() });
                Some(dd.pad_token_id)
            }
            Some(_) => raw.pad_token_id,
        };
        let prompt = match desc.mvp_prompt && raw.use_prompt == Some(true) {
            true => Some((
                size("prompt_length", raw.prompt_length, 100, 1 << 20, &mut d)?,
                size("prompt_mid_dim", raw.prompt_mid_dim, 800, 1 << 22, &mut d)?,
            )),
            false => None,
        };
        let labels = num_labels_or(value, dd.num_labels)?;
        let class = class_or(common, &format!("{}Model", desc.prefix), &mut d);
        let head = classify(desc, &class, labels.0).ok_or_else(|| super::read::unknown_class(&class))?;
        if matches!(head, Head::SequenceClassification { .. }) {
            classifier_labels(labels, &mut d)?;
        }
        Ok(BartConfig {
            desc,
            class,
            head,
            vocab_size,
            max_position_embeddings,
            encoder_positions,
            d_model,
            encoder_layers,
            encoder_ffn_dim,
            encoder_attention_heads,
            decoder_layers,
            decoder_ffn_dim,
            decoder_attention_heads,
            activation_function,
            tie_word_embeddings,
            pad_token_id,
            prompt,
            release: super::release::Release::V5,
            defaulted: d,
        })
    }

    /// The rows a learned position table holds before position 0 (BART's 2), else 0.
    pub fn position_offset(&self) -> u64 {
        match self.desc.positions {
            Positions::Learned { offset } => offset,
            _ => 0,
        }
    }

    /// The prefix a head class keeps its base model under (`model.`, LED's `led.`).
    pub fn base_prefix(&self) -> &'static str {
        match (self.head, self.desc.led) {
            (Head::Model, _) => "",
            (_, true) => "led.",
            (_, false) => "model.",
        }
    }

    pub fn has_encoder(&self) -> bool {
        self.head != Head::CausalLm
    }

    /// The decoder's depth, heads and width: every class of the family has a decoder.
    pub fn dims(&self) -> super::Dims {
        super::Dims {
            // Offset rows sit before position 0: every one of the configured positions is usable.
            usable_context: self.max_position_embeddings,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            // nn.LayerNorm's default; BartConfig has no epsilon.
            layer_norm_eps: 1e-5,
            ..super::Dims::mha(
                self.d_model,
                self.decoder_layers,
                self.decoder_attention_heads,
                self.decoder_ffn_dim,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}

/// Marian's two vocabularies: the planner follows the shared table only, so a file that gives the
/// decoder its own is refused by name rather than counted wrong.
fn marian_vocab(raw: &Raw, vocab_size: u64) -> Result<(), ConfigError> {
    if raw.share_encoder_decoder_embeddings == Some(false) {
        return Err(ConfigError::field(
            "share_encoder_decoder_embeddings",
            "false (separate encoder and decoder tables) is not planned yet",
        ));
    }
    match raw.decoder_vocab_size {
        Some(n) if n != vocab_size => Err(ConfigError::field(
            "decoder_vocab_size",
            format!("{n} differs from vocab_size {vocab_size}, which the shared table does not allow"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
