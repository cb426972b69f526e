//! Llama 3.2 Vision's language model (`MllamaTextConfig`, built by `graph/mllama_text.rs`):
//! Llama 3's layers, except at `cross_attention_layers`, where a layer cross-attends to the
//! vision tower's patch states (q/k RMSNorms per head, tanh gates on its attention and MLP
//! outputs) instead of attending to the text. The embedding table holds `vocab_size + 8` rows.
//!
//! Also the resolver of the `mllama` and `llama4` wrappers: their `<X>ForCausalLM` class built on
//! the wrapper's config is the text model alone (`get_text_config()`), the rest goes to
//! `composite.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::composite::sub;
use super::wrappers::{Wrapper, wrapper};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};
use crate::graph::Architecture;
use crate::graph::vision::nested;

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    hidden_act: Option<String>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    intermediate_size: Option<u64>,
    max_position_embeddings: Option<u64>,
    cross_attention_layers: Option<Vec<i64>>,
}

#[derive(Debug, Clone)]
pub struct MllamaTextConfig {
    pub class: String,
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub max_position_embeddings: u64,
    /// Per layer: whether it cross-attends to the image.
    pub cross: Vec<bool>,
    pub hidden_act: String,
    /// Inside the wrapper: the patch states one image leaves in each cross-attention layer's
    /// cache. None for the text model alone, whose cross-attention layers are skipped.
    pub image_tokens: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

/// The classes of the text model: `MllamaTextModel`, and `MllamaForCausalLM` (no `Text`).
pub(super) fn text_class(text_type: &str, generation: bool) -> Option<String> {
    (text_type == "mllama_text_model")
        .then(|| if generation { "MllamaForCausalLM" } else { "MllamaTextModel" }.to_string())
}

impl MllamaTextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = super::class_or(common, "MllamaTextModel", &mut d);
        let causal_lm = match class.as_str() {
            "MllamaTextModel" => false,
            "MllamaForCausalLM" => true,
            _ => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {class} is not one the planner knows for Llama 3.2 Vision's text model"),
                ));
            }
        };
        let hidden = size("hidden_size", raw.hidden_size, 4096, 1 << 18, &mut d)?;
        let heads = size("num_attention_heads", raw.num_attention_heads, 32, 1 << 16, &mut d)?;
        let heads = super::dims::dividing_heads(("num_attention_heads", heads), hidden)?;
        let kv = size("num_key_value_heads", raw.num_key_value_heads, 8, 1 << 16, &mut d)?;
        if !heads.is_multiple_of(kv) {
            return Err(ConfigError::field(
                "num_key_value_heads",
                format!("{kv} key/value heads do not divide the {heads} query heads"),
            ));
        }
        let layers = size("num_hidden_layers", raw.num_hidden_layers, 40, 10_000, &mut d)?;
        let list = raw.cross_attention_layers.unwrap_or_else(|| {
            d.push(Defaulted {
                field: "cross_attention_layers",
                value: "[3, 8, 13, 18, 23, 28, 33, 38]".into(),
            });
            vec![3, 8, 13, 18, 23, 28, 33, 38]
        });
        // A layer cross-attends when its index is listed; other entries match no layer.
        let cross = (0..layers as i64).map(|i| list.contains(&i)).collect();
        Ok(MllamaTextConfig {
            class,
            causal_lm,
            vocab_size: size("vocab_size", raw.vocab_size, 128256, 100_000_000, &mut d)?,
            hidden_size: hidden,
            intermediate_size: size("intermediate_size", raw.intermediate_size, 14336, 1 << 22, &mut d)?,
            num_heads: heads,
            num_kv_heads: kv,
            max_position_embeddings: size(
                "max_position_embeddings",
                raw.max_position_embeddings,
                131072,
                1 << 30,
                &mut d,
            )?,
            cross,
            hidden_act: raw.hidden_act.unwrap_or_else(|| "silu".into()),
            image_tokens: None,
            defaulted: d,
        })
    }
}

/// The text model inside `MllamaForConditionalGeneration` or `MllamaModel`, each image leaving
/// `image_tokens` patch states in its cross-attention layers.
pub(super) fn text_in_wrapper(
    value: &Value,
    common: &Common,
    image_tokens: u64,
) -> Result<Box<dyn Architecture>, ConfigError> {
    let mut c = MllamaTextConfig::resolve(value, common)?;
    c.image_tokens = Some(image_tokens);
    Ok(Box::new(c))
}

/// `MllamaForCausalLM` or `Llama4ForCausalLM` built on the wrapper's config: its text config
/// alone, tied by that config's own flag (Mllama's head never is).
fn text_only(value: &Value, w: &Wrapper, class: String) -> Result<Box<dyn Architecture>, ConfigError> {
    let mut text = sub(value, "text_config", w.text_default)?;
    if let Some(obj) = text.as_object_mut() {
        obj.insert("model_type".into(), Value::String(w.text_type.into()));
        obj.remove("architectures");
    }
    let common = Common { model_type: w.text_type.into(), architecture: Some(class), torch_dtype: None };
    let planned: Result<Box<dyn Architecture>, ConfigError> = if w.text_type == "mllama_text_model" {
        MllamaTextConfig::resolve(&text, &common).map(|c| Box::new(c) as Box<dyn Architecture>)
    } else {
        let resolve = crate::family::info(w.text_type).and_then(|f| f.resolve);
        let resolve = resolve.ok_or_else(|| ConfigError::field("model_type", "not planned yet"))?;
        resolve(&text, &common)
    };
    planned.map_err(|e| nested("text_config", e))
}

/// The `mllama` and `llama4` families' resolver: the causal LM alone, or the whole wrapper.
pub fn resolve(
    value: &Value,
    common: &Common,
    composite: crate::family::Resolver,
) -> Result<Box<dyn Architecture>, ConfigError> {
    let w = wrapper(&common.model_type)
        .ok_or_else(|| ConfigError::field("model_type", "not a vision-language wrapper the planner knows"))?;
    match &common.architecture {
        Some(class) if *class == format!("{}ForCausalLM", w.prefix) => text_only(value, w, class.clone()),
        _ => composite(value, common),
    }
}
