//! Text transformers of the CLIP lineage, read as their own config classes read them: CLIP's
//! (`clip_text_model`: learned positions, a causal mask, `projection_dim` for the class with a
//! projection) and TIPSv2's (`tipsv2_text_model`: fixed sinusoidal positions, bidirectional).
//! Both stack pre-LN layers (`layer_norm1`, `self_attn`, `layer_norm2`, `mlp.fc1`/`fc2`, all
//! linears with biases) under a `final_layer_norm`.

use serde::Serialize;
use serde_json::Value;

use super::enc_common::{EncSizes, Scalars, class_in};
use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH};
use super::{Common, ConfigError, Defaulted, class_or};

/// The class built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClipTextHead {
    Model,
    /// `CLIPTextModelWithProjection`: the model under `text_model.` and a bias-free
    /// `text_projection` to `projection_dim`.
    WithProjection,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClipTextConfig {
    pub model_type: String,
    pub class: String,
    pub head: ClipTextHead,
    #[serde(flatten)]
    pub sizes: EncSizes,
    /// A learned position table (CLIP); TIPSv2's sinusoids are a buffer.
    pub learned_positions: bool,
    /// CLIP's causal mask; TIPSv2 attends both ways.
    pub causal: bool,
    /// The projection's width, for the class that builds it.
    pub projection_dim: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

/// The type's sizes in its config class's order, its classes, its activation and padding index.
type Facts = ([SizeKey; 6], &'static [(&'static str, ClipTextHead)], &'static str, u64);

fn facts(model_type: &str) -> Option<Facts> {
    match model_type {
        "clip_text_model" => Some((
            [
                ("vocab_size", 49408, VOCAB),
                ("hidden_size", 512, WIDTH),
                ("intermediate_size", 2048, FFN),
                ("num_hidden_layers", 12, LAYERS),
                ("num_attention_heads", 8, HEADS),
                ("max_position_embeddings", 77, POSITIONS),
            ],
            &[
                ("CLIPTextModel", ClipTextHead::Model),
                ("CLIPTextModelWithProjection", ClipTextHead::WithProjection),
            ],
            "quick_gelu",
            1,
        )),
        "tipsv2_text_model" => Some((
            [
                ("vocab_size", 32000, VOCAB),
                ("hidden_size", 768, WIDTH),
                ("intermediate_size", 3072, FFN),
                ("num_hidden_layers", 12, LAYERS),
                ("num_attention_heads", 12, HEADS),
                ("max_position_embeddings", 64, POSITIONS),
            ],
            &[("Tipsv2TextModel", ClipTextHead::Model)],
            "relu",
            0,
        )),
        _ => None,
    }
}

impl ClipTextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let (keys, classes, act, pad) = facts(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a CLIP-style text model type"))?;
        let mut d = Vec::new();
        let sizes = EncSizes::read(value, &keys, Scalars { act, eps: 1e-5, pad }, &mut d)?;
        let class = class_or(common, classes[0].0, &mut d);
        let head = class_in(classes, &class)?;
        let clip = common.model_type == "clip_text_model";
        let projection_dim = match head {
            ClipTextHead::WithProjection => Some(projection(value, &mut d)?),
            ClipTextHead::Model => None,
        };
        Ok(ClipTextConfig {
            model_type: common.model_type.clone(),
            class,
            head,
            sizes,
            learned_positions: clip,
            causal: clip,
            projection_dim,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.sizes.dims()
    }
}

/// `projection_dim`: 512 by default; null leaves the projection unbuildable.
fn projection(value: &Value, d: &mut Vec<Defaulted>) -> Result<u64, ConfigError> {
    let found = match value.get("projection_dim") {
        None => None,
        Some(Value::Null) => {
            return Err(ConfigError::field(
                "projection_dim",
                "null: CLIPTextModelWithProjection needs a width for its text_projection",
            ));
        }
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            ConfigError::field(
                "projection_dim",
                format!("invalid type: {v}, expected a non-negative integer"),
            )
        })?),
    };
    super::size("projection_dim", found, 512, WIDTH, d)
}
