//! Qwen2-VL's and Qwen2.5-VL's language model, as their configs read it: `text_config` is always
//! the wrapper's own text class (its `model_type` not read), and a file without one has its text
//! keys at the top level (`Qwen2VLConfig.__post_init__` moves them). The layers are Qwen2's
//! (biased q/k/v, head width hidden / heads whatever `head_dim` says), so the text is planned as
//! `qwen2` with the text class's defaults written in.

use serde_json::{Map, Value, json};

use super::{ConfigError, Defaulted};

/// The keys `Qwen2VLTextConfig.__init__` takes (and the rope keys the wrapper adds): what a flat
/// file's top level gives its text model.
#[rustfmt::skip]
const TEXT_KEYS: &[&str] = &[
    "vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
    "num_key_value_heads", "hidden_act", "max_position_embeddings", "initializer_range",
    "rms_norm_eps", "use_cache", "use_sliding_window", "sliding_window", "max_window_layers",
    "layer_types", "attention_dropout", "rope_parameters", "rope_scaling", "rope_theta",
    "bos_token_id", "eos_token_id", "pad_token_id",
];

/// The text class's defaults where they differ from Qwen2's (both Qwen-VL text classes).
fn defaults() -> [(&'static str, Value); 6] {
    [
        ("vocab_size", json!(152064)),
        ("hidden_size", json!(8192)),
        ("intermediate_size", json!(29568)),
        ("num_hidden_layers", json!(80)),
        ("num_attention_heads", json!(64)),
        ("num_key_value_heads", json!(8)),
    ]
}

/// The text config to plan as `qwen2`.
pub fn text(value: &Value, d: &mut Vec<Defaulted>) -> Result<Value, ConfigError> {
    let mut obj = match value.get("text_config") {
        None | Some(Value::Null) => {
            let top = value.as_object().ok_or(ConfigError::NotObject)?;
            TEXT_KEYS.iter().filter_map(|k| Some((k.to_string(), top.get(*k)?.clone()))).collect()
        }
        Some(Value::Object(o)) => {
            let mut o = o.clone();
            // Qwen2-VL's attention ignores head_dim; Qwen2's would read it.
            o.remove("head_dim");
            o
        }
        Some(other) => {
            return Err(ConfigError::field("text_config", format!("expected an object, found {other}")));
        }
    };
    write_defaults(&mut obj, defaults(), "Qwen-VL", d);
    obj.insert("model_type".into(), Value::String("qwen2".into()));
    Ok(Value::Object(obj))
}

/// Writes a wrapper's text class defaults where the file has none or null (a null
/// `num_key_value_heads` is kept: the text class makes it the head count), each recorded.
pub(super) fn write_defaults(
    obj: &mut Map<String, Value>,
    defaults: impl IntoIterator<Item = (&'static str, Value)>,
    class: &str,
    d: &mut Vec<Defaulted>,
) {
    for (key, default) in defaults {
        if obj.get(key).is_none_or(|v| v.is_null() && key != "num_key_value_heads") {
            d.push(Defaulted { field: key, value: format!("{default} (the {class} text class's default)") });
            obj.insert(key.to_string(), default);
        }
    }
}
