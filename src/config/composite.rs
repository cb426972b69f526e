//! Vision-language wrappers whose config nests a `text_config` and a `vision_config` (`gemma3`,
//! `llava`, `llava_next`, `paligemma`, `mistral3`; described in `wrappers.rs`), read as
//! transformers 5.x reads them: a nested dict takes its own config class's defaults (the class named by its `model_type`, or the wrapper's default
//! type); a missing one takes the wrapper's `sub_configs_defaults`. The language model is planned
//! through its own type; the vision tower and projector are built in `graph/vision.rs` and
//! `graph/composite.rs`.

use serde::Serialize;
use serde_json::Value;

use super::composite_text::{language_model, sub_type};
use super::wrappers::wrapper;
use super::{Common, ConfigError, Defaulted, size};
use crate::graph::Architecture;
use crate::graph::vision::{VisionTower, nested};

/// How a wrapper joins the tower to the language model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Projector {
    /// Gemma 3: an RMSNorm on the pooled patches and one bias-free matrix.
    Gemma3,
    /// LLaVA: linear, GELU, linear (`multimodal_projector_bias`); LLaVA-NeXT adds one learned
    /// `image_newline` vector of the text width.
    Mlp2 { bias: bool, feature_layers: u64, image_newline: bool },
    /// PaliGemma: one linear with bias to `projection_dim`.
    Linear { projection_dim: u64 },
    /// Mistral 3: RMSNorm, a patch merger over `spatial_merge_size`², then Llava's two linears.
    PatchMerger { merge: u64, bias: bool, feature_layers: u64 },
    /// Aya Vision: `downsample_factor`² patches shuffled into one token, a LayerNorm, then a
    /// SwiGLU whose first linear is `intermediate` wide and whose second reads half of it.
    PixelShuffleSwiglu { factor: u64, intermediate: u64 },
    /// Idefics3, SmolVLM: `scale_factor`² patches shuffled into one token, one bias-free linear.
    Connector { factor: u64 },
    /// Qwen2-VL, Qwen2.5-VL: the tower's own patch merger (`graph/qwen_vision.rs`).
    QwenMerger,
    /// InternVL: `int(1 / downsample_ratio)`² patches shuffled into one token, a LayerNorm, then
    /// linear, GELU, linear to the text width.
    InternMlp { factor: u64 },
    /// LLaVA-NeXT-Video with `spatial_pool_mode` "conv": LLaVA-NeXT's projector and a biased
    /// `vision_resampler.pool` convolution (`stride`², to `out` channels), counted with it.
    PooledMlp2 { bias: bool, feature_layers: u64, stride: u64, out: u64 },
    /// Mllama, Llama 4: one linear from the tower's `vision_output_dim` (named `sub` under the
    /// projector).
    VisionOutput { input: u64, bias: bool, sub: &'static str },
}

#[derive(Debug)]
pub struct CompositeConfig {
    pub wrapper: &'static super::wrappers::Wrapper,
    pub class: String,
    pub model_type: String,
    /// `ForConditionalGeneration` (true) or the bare `Model`.
    pub generation: bool,
    /// `ForSequenceClassification` (Gemma 3, Qwen3.5): the bare model under `model.` and a
    /// bias-free `score` over the text width, with this many labels; `ForTokenClassification`
    /// (Qwen3.5): the same `score` with a bias, per token (`score_per_token`).
    pub score_labels: Option<u64>,
    pub score_per_token: bool,
    pub text: Box<dyn Architecture>,
    pub text_type: String,
    pub vision: VisionTower,
    pub projector: Projector,
    /// Tokens one image takes in the sequence, where the config says; why, in words.
    pub image_tokens: Option<(u64, String)>,
    pub defaulted: Vec<Defaulted>,
}

/// A nested config: the file's object, or the wrapper's default when the key is absent or null.
pub(super) fn sub(value: &Value, key: &str, default: fn() -> Value) -> Result<Value, ConfigError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(default()),
        Some(v @ Value::Object(_)) => Ok(v.clone()),
        Some(other) => Err(ConfigError::field(key, format!("expected an object, found {other}"))),
    }
}

fn feature_layers(value: &Value) -> u64 {
    match value.get("vision_feature_layer") {
        Some(Value::Array(a)) => a.len() as u64,
        _ => 1,
    }
}

pub(super) fn top_flag(value: &Value, key: &'static str, default: bool) -> Result<bool, ConfigError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(ConfigError::field(key, format!("expected true or false, found {other}"))),
    }
}

pub(super) fn top_size(
    value: &Value,
    key: &'static str,
    default: u64,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    let v = match value.get(key) {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or_else(|| ConfigError::field(key, format!("expected a positive integer, found {v}")))?,
        ),
    };
    size(key, v, default, 1 << 20, d)
}

impl CompositeConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let w = wrapper(&common.model_type).ok_or_else(|| {
            ConfigError::field("model_type", "not a vision-language wrapper the planner knows")
        })?;
        let mut d = Vec::new();
        let base = if w.bare { "Model" } else { "ForConditionalGeneration" };
        let class = super::class_or(common, &format!("{}{base}", w.prefix), &mut d);
        let generation = match class.strip_prefix(w.prefix) {
            Some("Model") if w.bare => false,
            Some("ForConditionalGeneration") => true,
            Some("ForSequenceClassification") if w.sequence_classification => false,
            Some("ForTokenClassification") if w.token_classification => false,
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {class} is not one the planner knows for this family"),
                ));
            }
        };
        let score_per_token = class.ends_with("ForTokenClassification");
        let score_labels = if class.ends_with("ForSequenceClassification") || score_per_token {
            Some(super::classifier_labels(super::num_labels(value)?, &mut d)?)
        } else {
            None
        };
        let mut vision_value = sub(value, "vision_config", w.vision_default)?;
        if let (true, Some(obj)) = (w.vision_fixed, vision_value.as_object_mut()) {
            obj.insert("model_type".into(), Value::String(w.vision_type.into()));
        }
        let vision = VisionTower::resolve(&vision_value, w.vision_type, &mut d)?;
        let mut text_value = match w.model_type {
            t if t.starts_with("qwen2") => super::qwen_vl::text(value, &mut d)?,
            t if t.starts_with("qwen3") => super::qwen3_vl::text(value, t, &mut d)?,
            _ => sub(value, "text_config", w.text_default)?,
        };
        if let (true, Some(obj)) = (w.text_fixed, text_value.as_object_mut()) {
            obj.insert("model_type".into(), Value::String(w.text_type.into()));
        }
        let text_type = sub_type(&text_value, "text_config", w.text_type)?;
        let text_tie =
            top_flag(&text_value, "tie_word_embeddings", false).map_err(|e| nested("text_config", e))?;
        let top =
            if w.tie_top { top_flag(value, "tie_word_embeddings", w.tie_default)? } else { w.tie_default };
        let tie = top || (w.tie_from_text && text_tie);
        if w.tie_top
            && value.get("tie_word_embeddings").is_none()
            && text_value.get("tie_word_embeddings").is_some()
            && tie != text_tie
        {
            // Files written by 4.x keep the flag in text_config only, and 4.x tied by it.
            d.push(Defaulted {
                field: "tie_word_embeddings",
                value: format!(
                    "{tie}: the wrapper's default in transformers 5.x, which this plan follows (5.x ties lm_head by the top-level flag); transformers 4.x read text_config.tie_word_embeddings = {text_tie}, {} the vocabulary x hidden matrix of the head",
                    if text_tie { "sharing" } else { "counting separately" }
                ),
            });
        }
        let text =
            language_model(text_value, &text_type, generation, tie, w.model_type, vision.cross_tokens())?;
        let (projector, image_tokens) = match w.model_type {
            "gemma3" => {
                let n = top_size(value, "mm_tokens_per_image", 256, &mut d)?;
                (Projector::Gemma3, Some((n, "mm_tokens_per_image".to_string())))
            }
            "llava" => {
                let n = top_size(value, "image_seq_length", 576, &mut d)?;
                let bias = top_flag(value, "multimodal_projector_bias", true)?;
                let projector =
                    Projector::Mlp2 { bias, feature_layers: feature_layers(value), image_newline: false };
                (projector, Some((n, "image_seq_length".into())))
            }
            "llava_next" | "llava_onevision" | "llava_next_video" => {
                // Any-resolution tiling: an image's tokens follow its size and grid.
                let bias = top_flag(value, "multimodal_projector_bias", true)?;
                let mlp =
                    Projector::Mlp2 { bias, feature_layers: feature_layers(value), image_newline: true };
                match w.model_type {
                    "llava_next_video" => {
                        (super::projectors::video_pool(value, mlp, vision.hidden_size, &mut d)?, None)
                    }
                    _ => (mlp, None),
                }
            }
            "paligemma" => {
                let projection_dim = top_size(value, "projection_dim", 2048, &mut d)?;
                let n = vision.patches();
                (
                    Projector::Linear { projection_dim },
                    Some((n, "(vision_config.image_size / patch_size)²".into())),
                )
            }
            "aya_vision" => super::projectors::aya(value, text.dims().hidden_size, &mut d)?,
            "internvl" => super::projectors::internvl(value)?,
            "mllama" | "llama4" => super::projectors::vision_output(&vision),
            t if t.starts_with("qwen") => (Projector::QwenMerger, None),
            "idefics3" | "smolvlm" => {
                // Tiled by the processor: tokens per image follow its size.
                (
                    Projector::Connector {
                        factor: super::projectors::shuffle_factor(value, "scale_factor", &mut d)?,
                    },
                    None,
                )
            }
            _ => {
                let merge = top_size(value, "spatial_merge_size", 2, &mut d)?;
                if merge > 64 {
                    return Err(ConfigError::field(
                        "spatial_merge_size",
                        format!("{merge} is beyond any real model (at most 64)"),
                    ));
                }
                let bias = top_flag(value, "multimodal_projector_bias", false)?;
                (Projector::PatchMerger { merge, bias, feature_layers: feature_layers(value) }, None)
            }
        };
        d.extend(
            text.defaulted()
                .iter()
                .map(|x| Defaulted { field: x.field, value: format!("{} (text_config)", x.value) }),
        );
        Ok(CompositeConfig {
            wrapper: w,
            class,
            model_type: w.model_type.to_string(),
            generation,
            score_labels,
            score_per_token,
            text,
            text_type,
            vision,
            projector,
            image_tokens,
            defaulted: d,
        })
    }
}
