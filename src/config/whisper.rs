//! Whisper (`whisper`): a pre-LayerNorm speech encoder-decoder. Defaults are those of
//! transformers' `WhisperConfig` (whisper-tiny's sizes), with its `attribute_map` (`hidden_size`
//! -> `d_model`; `num_attention_heads` and `num_key_value_heads` -> `encoder_attention_heads`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    Common, ConfigError, Defaulted, alias_or, class_or, classifier_labels, deserialize_raw, num_labels, size,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Head {
    /// `WhisperModel`: both stacks, no head.
    Model,
    ConditionalGeneration,
    /// `WhisperForCausalLM`: the decoder alone (an assistant model for speculative decoding).
    CausalLm,
    /// `WhisperForAudioClassification`: the encoder, a projector and a classifier.
    AudioClassification {
        num_labels: u64,
    },
}

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    num_mel_bins: Option<u64>,
    d_model: Option<u64>,
    hidden_size: Option<u64>,
    encoder_layers: Option<u64>,
    encoder_attention_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    encoder_ffn_dim: Option<u64>,
    decoder_layers: Option<u64>,
    decoder_attention_heads: Option<u64>,
    decoder_ffn_dim: Option<u64>,
    num_hidden_layers: Option<u64>,
    max_source_positions: Option<u64>,
    max_target_positions: Option<u64>,
    activation_function: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    use_weighted_layer_sum: Option<bool>,
    classifier_proj_size: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct WhisperConfig {
    pub class: String,
    pub head: Head,
    pub vocab_size: u64,
    pub num_mel_bins: u64,
    pub d_model: u64,
    pub encoder_layers: u64,
    pub encoder_attention_heads: u64,
    pub encoder_ffn_dim: u64,
    pub decoder_layers: u64,
    pub decoder_attention_heads: u64,
    pub decoder_ffn_dim: u64,
    /// Encoder positions: the encoder takes 2 x this many mel frames (30 s of audio).
    pub max_source_positions: u64,
    /// Decoder positions: the longest token sequence.
    pub max_target_positions: u64,
    pub activation_function: String,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub use_weighted_layer_sum: bool,
    pub classifier_proj_size: u64,
    /// `num_hidden_layers`: the audio classifier weighs this many layers plus the embeddings.
    pub num_hidden_layers: u64,
    pub defaulted: Vec<Defaulted>,
}

fn classify(class: &str, num_labels: u64) -> Option<Head> {
    Some(match class.strip_prefix("Whisper")? {
        "Model" => Head::Model,
        "ForConditionalGeneration" => Head::ConditionalGeneration,
        "ForCausalLM" => Head::CausalLm,
        "ForAudioClassification" => Head::AudioClassification { num_labels },
        _ => return None,
    })
}

impl WhisperConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        if common.model_type != "whisper" {
            return Err(ConfigError::field("model_type", "not a Whisper model type"));
        }
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 51865, 100_000_000, &mut d)?;
        let num_mel_bins = size("num_mel_bins", raw.num_mel_bins, 80, 1 << 16, &mut d)?;
        // Aliases are set after the class's own arguments, so they win when both are written.
        let (field, v) = alias_or(("hidden_size", raw.hidden_size), ("d_model", raw.d_model));
        let d_model = size(field, v, 384, 1 << 18, &mut d)?;
        let encoder_layers = size("encoder_layers", raw.encoder_layers, 4, 10_000, &mut d)?;
        let heads_alias = alias_or(
            ("num_key_value_heads", raw.num_key_value_heads),
            ("num_attention_heads", raw.num_attention_heads),
        );
        let (field, v) = alias_or(heads_alias, ("encoder_attention_heads", raw.encoder_attention_heads));
        let encoder_attention_heads = size(field, v, 6, 1 << 16, &mut d)?;
        let encoder_ffn_dim = size("encoder_ffn_dim", raw.encoder_ffn_dim, 1536, 1 << 22, &mut d)?;
        let decoder_layers = size("decoder_layers", raw.decoder_layers, 4, 10_000, &mut d)?;
        let decoder_attention_heads =
            size("decoder_attention_heads", raw.decoder_attention_heads, 6, 1 << 16, &mut d)?;
        let decoder_ffn_dim = size("decoder_ffn_dim", raw.decoder_ffn_dim, 1536, 1 << 22, &mut d)?;
        let max_source_positions =
            size("max_source_positions", raw.max_source_positions, 1500, 1 << 24, &mut d)?;
        let max_target_positions =
            size("max_target_positions", raw.max_target_positions, 448, 1 << 24, &mut d)?;
        // WhisperConfig sets num_hidden_layers = encoder_layers; a written value overrides it.
        let num_hidden_layers = match raw.num_hidden_layers {
            Some(n) => size("num_hidden_layers", Some(n), 0, 10_000, &mut d)?,
            None => encoder_layers,
        };
        let classifier_proj_size =
            size("classifier_proj_size", raw.classifier_proj_size, 256, 1 << 20, &mut d)?;
        let activation_function = raw.activation_function.unwrap_or_else(|| "gelu".into());
        let tie_word_embeddings = raw.tie_word_embeddings.unwrap_or_else(|| {
            d.push(Defaulted { field: "tie_word_embeddings", value: "true".into() });
            true
        });
        let pad_token_id = match value.get("pad_token_id") {
            None => {
                d.push(Defaulted { field: "pad_token_id", value: "50256".into() });
                Some(50256)
            }
            Some(_) => raw.pad_token_id,
        };
        let use_weighted_layer_sum = raw.use_weighted_layer_sum.unwrap_or(false);
        let labels = num_labels(value)?;
        let class = class_or(common, "WhisperModel", &mut d);
        let head = classify(&class, labels.0).ok_or_else(|| super::read::unknown_class(&class))?;
        if matches!(head, Head::AudioClassification { .. }) {
            classifier_labels(labels, &mut d)?;
        }
        Ok(WhisperConfig {
            class,
            head,
            vocab_size,
            num_mel_bins,
            d_model,
            encoder_layers,
            encoder_attention_heads,
            encoder_ffn_dim,
            decoder_layers,
            decoder_attention_heads,
            decoder_ffn_dim,
            max_source_positions,
            max_target_positions,
            activation_function,
            tie_word_embeddings,
            pad_token_id,
            use_weighted_layer_sum,
            classifier_proj_size,
            num_hidden_layers,
            defaulted: d,
        })
    }

    pub fn has_encoder(&self) -> bool {
        self.head != Head::CausalLm
    }

    pub fn has_decoder(&self) -> bool {
        !matches!(self.head, Head::AudioClassification { .. })
    }

    /// The decoder's sizes and token context when the class has a decoder; the encoder's and its
    /// frame positions for the audio classifier.
    pub fn dims(&self) -> super::Dims {
        let (layers, heads, ffn, context) = if self.has_decoder() {
            (
                self.decoder_layers,
                self.decoder_attention_heads,
                self.decoder_ffn_dim,
                self.max_target_positions,
            )
        } else {
            (
                self.encoder_layers,
                self.encoder_attention_heads,
                self.encoder_ffn_dim,
                self.max_source_positions,
            )
        };
        super::Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: 1e-5,
            ..super::Dims::mha(self.d_model, layers, heads, ffn, self.vocab_size, context)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(whisper, WhisperConfig);

    #[test]
    fn defaults_are_whisper_tiny_sized() {
        let c = whisper(r#"{"model_type": "whisper"}"#).unwrap();
        assert_eq!(
            (c.d_model, c.encoder_layers, c.encoder_attention_heads, c.encoder_ffn_dim),
            (384, 4, 6, 1536)
        );
        assert_eq!((c.max_source_positions, c.max_target_positions, c.num_mel_bins), (1500, 448, 80));
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "whisper", "num_mel_bins": 0}"#, "num_mel_bins"),
            (r#"{"model_type": "whisper", "max_target_positions": "448"}"#, "max_target_positions"),
            (r#"{"model_type": "whisper", "architectures": ["WhisperForCTC"]}"#, "architectures[0]"),
        ] {
            crate::config::testing::assert_field(whisper(text), text, field);
        }
    }
}
