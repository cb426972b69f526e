//! A wrapper's language model (`text_config`, planned through its own type) and the model types
//! of its nested configs: shared by the vision-language wrappers (`config/composite.rs`) and the
//! audio language models (`config/audio_lm.rs`).

use serde_json::Value;

use super::{Common, ConfigError};
use crate::graph::Architecture;
use crate::graph::vision::nested;

/// The text model's class: its causal LM under a generating wrapper, else its base model; from
/// its `TypeDesc` or, for a type described as a table, its `Spec`.
fn text_class(text_type: &str, generation: bool) -> Option<String> {
    use super::spec::HeadKind;
    if let Some(desc) = super::types::lookup(text_type) {
        return Some(if generation {
            format!("{}ForCausalLM", desc.classes)
        } else {
            desc.base_class.to_string()
        });
    }
    if let Some(class) = super::mllama::text_class(text_type, generation) {
        return Some(class);
    }
    let want = if generation { HeadKind::CausalLm } else { HeadKind::Model };
    let spec = super::spec_keys::lookup(text_type)?;
    spec.classes.iter().find(|(_, h)| *h == want).map(|(c, _)| c.to_string())
}

/// A wrapper's language model, as `text_config` reads under its own type (`text_type`): its
/// causal LM (head tied by the wrapper's `tie`) under a generating class, else its base model.
/// Errors name the key under `text_config.`.
pub(crate) fn language_model(
    mut text_value: Value,
    text_type: &str,
    generation: bool,
    tie: bool,
    wrapper: &str,
    cross_tokens: Option<u64>,
) -> Result<Box<dyn Architecture>, ConfigError> {
    let text_class = text_class(text_type, generation).ok_or_else(|| {
        ConfigError::field(
            "text_config.model_type",
            format!("{text_type:?} is not a language model type the planner knows inside {wrapper}"),
        )
    })?;
    let resolve = crate::family::info(text_type).and_then(|f| f.resolve);
    if let Some(obj) = text_value.as_object_mut() {
        // The wrapper's LM head, not the text model's, is tied or not: its flag decides.
        obj.insert("tie_word_embeddings".into(), Value::Bool(tie));
        obj.remove("architectures");
    }
    let text_common =
        Common { model_type: text_type.to_string(), architecture: Some(text_class), torch_dtype: None };
    // Mllama's text model holds cross-attention layers over the tower's tokens.
    match (cross_tokens, resolve) {
        (Some(n), _) => super::mllama::text_in_wrapper(&text_value, &text_common, n),
        (None, Some(resolve)) => resolve(&text_value, &text_common),
        (None, None) => Err(ConfigError::field("model_type", format!("{text_type:?} is not planned yet"))),
    }
    .map_err(|e| nested("text_config", e))
}

/// A nested config's `model_type` (`text_config.model_type`), else the wrapper's default.
pub(crate) fn sub_type(sub: &Value, key: &str, default: &str) -> Result<String, ConfigError> {
    match sub.get("model_type") {
        None => Ok(default.to_string()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => {
            Err(ConfigError::field(format!("{key}.model_type"), format!("expected a string, found {other}")))
        }
    }
}
