//! Audio-language models joining a Whisper-style encoder to a language model: Audio Flamingo 3
//! (`audioflamingo3`) and Music Flamingo (`musicflamingo`). `audio_config` is
//! `AudioFlamingo3EncoderConfig` (Whisper's encoder keys under their `attribute_map` aliases:
//! `d_model`, `encoder_layers`, `encoder_attention_heads`, `encoder_ffn_dim`); `text_config` is
//! read by its own type's reader (Qwen2 by default); the projector is linear, activation, linear
//! (`projector_bias`). Music Flamingo's rotary time embedding holds buffers only. Built by
//! `graph/audio_lm.rs`.

use serde::Deserialize;
use serde_json::{Value, json};

use super::composite::{sub, top_flag};
use super::composite_text::{language_model, sub_type};
use super::{Common, ConfigError, Defaulted, alias_or, class_or, deserialize_raw, size};
use crate::graph::Architecture;
use crate::graph::vision::nested;
use crate::graph::whisper::EncoderSizes;

#[derive(Debug)]
pub struct AudioLmConfig {
    pub class: String,
    /// `Music Flamingo` or `Audio Flamingo 3`'s class prefix.
    pub prefix: &'static str,
    /// `ForConditionalGeneration` (true: `model.` and an untied `lm_head`) or the bare `Model`.
    pub generation: bool,
    pub text: Box<dyn Architecture>,
    pub text_type: String,
    pub audio: EncoderSizes,
    pub audio_act: String,
    pub projector_bias: bool,
    pub projector_act: String,
    pub defaulted: Vec<Defaulted>,
}

#[derive(Debug, Deserialize)]
struct RawAudio {
    num_mel_bins: Option<u64>,
    hidden_size: Option<u64>,
    d_model: Option<u64>,
    num_hidden_layers: Option<u64>,
    encoder_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    encoder_attention_heads: Option<u64>,
    intermediate_size: Option<u64>,
    encoder_ffn_dim: Option<u64>,
    activation_function: Option<String>,
    max_source_positions: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct RawTop {
    projector_hidden_act: Option<String>,
}

/// `AudioFlamingo3EncoderConfig`, its aliases applied after its own keys (so they win).
fn audio(value: &Value, d: &mut Vec<Defaulted>) -> Result<(EncoderSizes, String), ConfigError> {
    let r: RawAudio = deserialize_raw(value)?;
    let mut pick = |alias: (&'static str, Option<u64>), own, default, max| {
        let (field, v) = alias_or(alias, own);
        size(field, v, default, max, d)
    };
    let hidden = pick(("d_model", r.d_model), ("hidden_size", r.hidden_size), 1280, 1 << 18)?;
    let layers =
        pick(("encoder_layers", r.encoder_layers), ("num_hidden_layers", r.num_hidden_layers), 32, 10_000)?;
    let heads = pick(
        ("encoder_attention_heads", r.encoder_attention_heads),
        ("num_attention_heads", r.num_attention_heads),
        20,
        1 << 16,
    )?;
    let ffn = pick(
        ("encoder_ffn_dim", r.encoder_ffn_dim),
        ("intermediate_size", r.intermediate_size),
        5120,
        1 << 22,
    )?;
    let mel_bins = size("num_mel_bins", r.num_mel_bins, 128, 1 << 16, d)?;
    let positions = size("max_source_positions", r.max_source_positions, 1500, 1 << 24, d)?;
    if hidden % heads != 0 {
        return Err(ConfigError::field(
            "num_attention_heads",
            format!("{heads} heads do not divide the width {hidden}"),
        ));
    }
    let act = r.activation_function.unwrap_or_else(|| "gelu".into());
    Ok((EncoderSizes { mel_bins, positions, hidden, layers, heads, ffn }, act))
}

impl AudioLmConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let music = common.model_type == "musicflamingo";
        let prefix = if music { "MusicFlamingo" } else { "AudioFlamingo3" };
        let mut d = Vec::new();
        let class = class_or(common, &format!("{prefix}Model"), &mut d);
        let generation = match class.strip_prefix(prefix) {
            Some("Model") => false,
            Some("ForConditionalGeneration") => true,
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {class} is not one the planner knows for this family"),
                ));
            }
        };
        let audio_value = sub(value, "audio_config", || json!({}))?;
        let audio_type = sub_type(&audio_value, "audio_config", "audioflamingo3_encoder")?;
        // MusicFlamingoConfig renames its own encoder type to Audio Flamingo 3's.
        if !(audio_type == "audioflamingo3_encoder" || music && audio_type == "musicflamingo_encoder") {
            return Err(ConfigError::field(
                "audio_config.model_type",
                format!(
                    "{audio_type:?} is not an audio encoder the planner knows here (audioflamingo3_encoder)"
                ),
            ));
        }
        let mut local = vec![];
        let (audio, audio_act) = audio(&audio_value, &mut local).map_err(|e| nested("audio_config", e))?;
        d.extend(
            local
                .into_iter()
                .map(|x| Defaulted { field: x.field, value: format!("{} (audio_config)", x.value) }),
        );
        let text_value = sub(value, "text_config", || json!({}))?;
        let text_type = sub_type(&text_value, "text_config", "qwen2")?;
        // `_tied_weights_keys = None`: the wrapper's lm_head is never tied, whatever the flags say.
        let text = language_model(text_value, &text_type, generation, false, &common.model_type, None)?;
        let projector_bias = top_flag(value, "projector_bias", true)?;
        let raw: RawTop = deserialize_raw(value)?;
        let projector_act = raw.projector_hidden_act.unwrap_or_else(|| "gelu".into());
        d.extend(
            text.defaulted()
                .iter()
                .map(|x| Defaulted { field: x.field, value: format!("{} (text_config)", x.value) }),
        );
        Ok(AudioLmConfig {
            class,
            prefix,
            generation,
            text,
            text_type,
            audio,
            audio_act,
            projector_bias,
            projector_act,
            defaulted: d,
        })
    }

    /// Tokens one 30-second window takes in the sequence: the encoder's frames
    /// (`max_source_positions`) halved by its average pooling (kernel 2, stride 2).
    pub fn audio_tokens(&self) -> u64 {
        self.audio.positions / 2
    }
}
