//! What `MoshiForConditionalGeneration` adds to Moshi's text decoder (transformers 5.24
//! `configuration_moshi.py`): the Mimi codec (`audio_encoder_config`), the depth decoder
//! (`depth_decoder_config`, `MoshiDepthConfig`), and `2 x num_codebooks` audio embeddings of
//! `audio_vocab_size + 1` rows. A `depth_decoder_config` written in the file is updated with the
//! top level's `audio_vocab_size`, `hidden_size` (as `input_size`), `vocab_size` and
//! `num_codebooks`; a missing one takes `MoshiDepthConfig`'s own defaults.

use serde::Deserialize;
use serde_json::{Value, json};

use super::composite::sub;
use super::mimi::MimiConfig;
use super::{ConfigError, Defaulted, deserialize_raw, size};
use crate::graph::vision::nested;

#[derive(Debug, Clone)]
pub struct Depth {
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub input_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub audio_vocab_size: u64,
    pub ffn_dim: u64,
    pub num_codebooks: u64,
    pub hidden_act: String,
}

#[derive(Debug, Clone)]
pub struct Codec {
    pub mimi: MimiConfig,
    pub depth: Depth,
    pub audio_vocab_size: u64,
    pub num_codebooks: u64,
}

#[derive(Debug, Deserialize)]
struct RawTop {
    audio_vocab_size: Option<u64>,
    num_codebooks: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct RawDepth {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    input_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    audio_vocab_size: Option<u64>,
    ffn_dim: Option<u64>,
    num_codebooks: Option<u64>,
    hidden_act: Option<String>,
}

fn depth(value: &Value, d: &mut Vec<Defaulted>) -> Result<Depth, ConfigError> {
    let r: RawDepth = deserialize_raw(value)?;
    let hidden_size = size("hidden_size", r.hidden_size, 1024, 1 << 18, d)?;
    let num_heads = size("num_attention_heads", r.num_attention_heads, 16, 1 << 16, d)?;
    if hidden_size % num_heads != 0 {
        return Err(ConfigError::field(
            "num_attention_heads",
            format!("{num_heads} heads do not divide hidden_size {hidden_size}"),
        ));
    }
    let ffn_dim = size("ffn_dim", r.ffn_dim, 5632, 1 << 22, d)?;
    if ffn_dim % 2 == 1 {
        return Err(ConfigError::field("ffn_dim", format!("{ffn_dim} must be even (the gate takes half)")));
    }
    let kv = r.num_key_value_heads.unwrap_or(num_heads);
    let hd = r.head_dim.filter(|&h| h != 0).unwrap_or(hidden_size / num_heads);
    Ok(Depth {
        vocab_size: size("vocab_size", r.vocab_size, 32000, 100_000_000, d)?,
        hidden_size,
        input_size: size("input_size", r.input_size, 4096, 1 << 18, d)?,
        num_layers: size("num_hidden_layers", r.num_hidden_layers, 6, 10_000, d)?,
        num_heads,
        num_kv_heads: size("num_key_value_heads", Some(kv), 0, 1 << 16, d)?,
        head_dim: size("head_dim", Some(hd), 0, 1 << 16, d)?,
        audio_vocab_size: size("audio_vocab_size", r.audio_vocab_size, 2048, 1 << 24, d)?,
        ffn_dim,
        num_codebooks: size("num_codebooks", r.num_codebooks, 8, 1 << 10, d)?,
        hidden_act: r.hidden_act.unwrap_or_else(|| "silu".into()),
    })
}

impl Codec {
    pub fn resolve(
        value: &Value,
        hidden: u64,
        vocab: u64,
        d: &mut Vec<Defaulted>,
    ) -> Result<Self, ConfigError> {
        let top: RawTop = deserialize_raw(value)?;
        let num_codebooks = size("num_codebooks", top.num_codebooks, 8, 1 << 10, d)?;
        let codec_value = value.get("audio_encoder_config").filter(|v| !v.is_null());
        // `audio_vocab_size` falls back to the codec's `codebook_size` only when the file has an
        // `audio_encoder_config`; without either the class cannot size its audio embeddings.
        let audio_vocab = match (top.audio_vocab_size, codec_value) {
            (Some(v), _) => v,
            (None, Some(c)) => c.get("codebook_size").and_then(Value::as_u64).unwrap_or(2048),
            (None, None) => {
                return Err(ConfigError::field(
                    "audio_vocab_size",
                    "null with no audio_encoder_config: MoshiForConditionalGeneration cannot size its audio embeddings",
                ));
            }
        };
        let audio_vocab_size = size("audio_vocab_size", Some(audio_vocab), 0, 1 << 24, d)?;
        let codec = sub(value, "audio_encoder_config", || json!({}))?;
        let mut local = vec![];
        let mimi = MimiConfig::resolve(&codec, &mut local).map_err(|e| nested("audio_encoder_config", e))?;
        if num_codebooks > mimi.num_quantizers {
            return Err(ConfigError::field(
                "num_codebooks",
                format!("{num_codebooks} is more than the codec's {} quantizers", mimi.num_quantizers),
            ));
        }
        let mut depth_value = sub(value, "depth_decoder_config", || Value::Null)?;
        if let Some(obj) = depth_value.as_object_mut() {
            obj.insert("audio_vocab_size".into(), json!(audio_vocab_size));
            obj.insert("input_size".into(), json!(hidden));
            obj.insert("vocab_size".into(), json!(vocab));
            obj.insert("num_codebooks".into(), json!(num_codebooks));
        } else {
            depth_value = json!({});
        }
        let depth = depth(&depth_value, &mut local).map_err(|e| nested("depth_decoder_config", e))?;
        d.extend(
            local
                .into_iter()
                .map(|x| Defaulted { field: x.field, value: format!("{} (sub-config)", x.value) }),
        );
        Ok(Codec { mimi, depth, audio_vocab_size, num_codebooks })
    }
}
