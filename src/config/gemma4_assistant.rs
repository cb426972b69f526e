//! Gemma 4's assistant (draft) models, `gemma4_assistant` and `gemma4_unified_assistant`, read
//! with the defaults of transformers 5.24's `Gemma4AssistantConfig` and
//! `Gemma4UnifiedAssistantConfig`: a Gemma 4 language model (`text_config`) whose every layer
//! reads the main model's keys and values (`num_kv_shared_layers` set to the layer count when the
//! file leaves it 0), projections from twice the main model's width (`backbone_hidden_size`) and
//! back, and with `use_ordered_embeddings` a masked centroid embedder. Its graph is in
//! `graph/gemma4.rs`.

use serde::Serialize;
use serde_json::Value;

use super::gemma4::{Gemma4Config, TEXT, UNIFIED};
use super::{Common, ConfigError, Defaulted, Limit, check_range};

#[derive(Debug, Clone, Serialize)]
pub struct Gemma4AssistantConfig {
    pub class: String,
    pub text: Gemma4Config,
    pub backbone_hidden_size: u64,
    /// `masked_embedding.centroids`' rows where `use_ordered_embeddings` is on.
    pub centroids: Option<u64>,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

fn size_or(
    value: &Value,
    key: &'static str,
    default: u64,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    let v = match value.get(key).filter(|v| !v.is_null()) {
        None => {
            d.push(Defaulted { field: key, value: default.to_string() });
            default
        }
        Some(v) => {
            v.as_u64().ok_or_else(|| ConfigError::field(key, format!("expected a size, found {v}")))?
        }
    };
    check_range(Limit { field: key, max: 1 << 20 }, v)
}

fn flag_or(value: &Value, key: &'static str, default: bool) -> Result<bool, ConfigError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(ConfigError::field(key, format!("expected true or false, found {v}"))),
    }
}

impl Gemma4AssistantConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let unified = common.model_type == "gemma4_unified_assistant";
        let (base, spec) = if unified {
            ("Gemma4UnifiedAssistantForCausalLM", &UNIFIED)
        } else {
            ("Gemma4AssistantForCausalLM", &TEXT)
        };
        let mut d = Vec::new();
        let class = super::class_or(common, base, &mut d);
        if class != base {
            return Err(super::read::unknown_class(&class));
        }
        let mut text = match value.get("text_config") {
            None | Some(Value::Null) => Value::Object(Default::default()),
            Some(t) if t.is_object() => t.clone(),
            Some(t) => {
                return Err(ConfigError::field("text_config", format!("expected an object, found {t}")));
            }
        };
        let layers = text.get("num_hidden_layers").cloned().unwrap_or(Value::from(30));
        if text.get("num_kv_shared_layers").and_then(Value::as_u64).unwrap_or(0) == 0 {
            // Every layer reads the main model's keys and values.
            text["num_kv_shared_layers"] = layers;
        }
        if !unified {
            // Gemma4AssistantConfig.validate_architecture: none of these in an assistant.
            let zero = |k: &str| text.get(k).is_some_and(|v| v.as_u64() == Some(0) || v.is_null());
            let off = |k: &str| text.get(k).is_none_or(|v| v == &Value::Bool(false));
            for key in ["hidden_size_per_layer_input", "vocab_size_per_layer_input"] {
                if !zero(key) {
                    return Err(ConfigError::field(
                        format!("text_config.{key}"),
                        "must be 0 in a Gemma 4 assistant, as Gemma4AssistantConfig requires",
                    ));
                }
            }
            for key in ["enable_moe_block", "use_double_wide_mlp"] {
                if !off(key) {
                    return Err(ConfigError::field(
                        format!("text_config.{key}"),
                        "must be false in a Gemma 4 assistant, as Gemma4AssistantConfig requires",
                    ));
                }
            }
        }
        let inner = Common {
            model_type: spec.model_type.into(),
            architecture: Some(spec.classes[0].0.into()),
            torch_dtype: common.torch_dtype.clone(),
        };
        let mut text =
            Gemma4Config::read(spec, &text, &inner).map_err(|e| super::t5gemma::within("text_config", e))?;
        if text.layers.iter().any(|l| !l.shared) {
            return Err(ConfigError::field(
                "text_config.num_kv_shared_layers",
                "every layer of a Gemma 4 assistant reads the main model's keys and values",
            ));
        }
        text.nested = true;
        let default_bb = if unified { 3840 } else { 1536 };
        let backbone_hidden_size = size_or(value, "backbone_hidden_size", default_bb, &mut d)?;
        let centroids = if flag_or(value, "use_ordered_embeddings", false)? {
            Some(size_or(value, "num_centroids", 2048, &mut d)?)
        } else {
            None
        };
        let tie_word_embeddings = flag_or(value, "tie_word_embeddings", true)?;
        d.extend(
            text.defaulted
                .iter()
                .map(|x| Defaulted { field: "text_config", value: format!("{} {}", x.field, x.value) }),
        );
        Ok(Gemma4AssistantConfig {
            class,
            text,
            backbone_hidden_size,
            centroids,
            tie_word_embeddings,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims { tie_word_embeddings: self.tie_word_embeddings, ..self.text.dims() }
    }
}
