//! The language models of Qwen3-VL, Qwen3-VL-MoE, Qwen3.5 and Qwen3.5-MoE, as their wrappers read
//! them: `text_config` is always the wrapper's own text class (a nested `model_type` is not read;
//! no text keys are taken from the top level). Qwen3-VL's text layers are Qwen3's (q/k RMSNorms
//! per head, no biases unless `attention_bias`; the MoE's routed, stacked experts are Qwen3-MoE's)
//! without a sliding window (the text classes have none), so they are planned as `qwen3` and
//! `qwen3_moe` with the text class's defaults written in; Qwen3.5's text classes are the
//! `qwen3_5_text` and `qwen3_5_moe_text` types. `<X>ForCausalLM` on a Qwen3.5 file builds the text
//! model alone (transformers' auto class reads the text config), its head tied by the text
//! config's own flag.

use serde_json::{Map, Value, json};

use super::qwen_vl::write_defaults;
use super::{Common, ConfigError, Defaulted};
use crate::graph::Architecture;
use crate::graph::vision::nested;

/// Keys of Qwen3's config class that the Qwen3-VL text classes do not have.
const NOT_READ: &[&str] = &["use_sliding_window", "sliding_window", "max_window_layers", "layer_types"];

/// The type a wrapper's text model is planned as.
fn planned_as(wrapper: &str) -> &'static str {
    match wrapper {
        "qwen3_vl" => "qwen3",
        "qwen3_vl_moe" => "qwen3_moe",
        "qwen3_5" => "qwen3_5_text",
        _ => "qwen3_5_moe_text",
    }
}

/// `Qwen3VLTextConfig`'s and `Qwen3VLMoeTextConfig`'s defaults where they differ from Qwen3's
/// and Qwen3-MoE's (the MoE's `num_experts` is also read as `num_local_experts`).
fn defaults(wrapper: &str, obj: &Map<String, Value>) -> Vec<(&'static str, Value)> {
    let mut out = vec![("vocab_size", json!(151936)), ("max_position_embeddings", json!(128000))];
    match wrapper {
        "qwen3_vl" => out.extend([
            ("hidden_size", json!(4096)),
            ("intermediate_size", json!(22016)),
            ("num_hidden_layers", json!(32)),
            ("num_attention_heads", json!(32)),
            ("num_key_value_heads", json!(32)),
            ("head_dim", json!(128)),
        ]),
        "qwen3_vl_moe" => {
            out.extend([
                ("hidden_size", json!(2048)),
                ("intermediate_size", json!(5632)),
                ("num_hidden_layers", json!(24)),
                ("num_attention_heads", json!(16)),
                ("num_key_value_heads", json!(16)),
                ("moe_intermediate_size", json!(1408)),
                ("num_experts_per_tok", json!(4)),
            ]);
            if obj.get("num_local_experts").is_none_or(Value::is_null) {
                out.push(("num_experts", json!(60)));
            }
        }
        _ => return vec![],
    }
    out
}

/// The text config to plan, as the type [`planned_as`] names.
pub fn text(value: &Value, wrapper: &str, d: &mut Vec<Defaulted>) -> Result<Value, ConfigError> {
    let mut obj = match value.get("text_config") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(o)) => o.clone(),
        Some(other) => {
            return Err(ConfigError::field("text_config", format!("expected an object, found {other}")));
        }
    };
    if wrapper.starts_with("qwen3_vl") {
        for key in NOT_READ {
            obj.remove(*key);
        }
    }
    let class = if wrapper.starts_with("qwen3_vl") { "Qwen3-VL" } else { "Qwen3.5" };
    let defaults = defaults(wrapper, &obj);
    write_defaults(&mut obj, defaults, class, d);
    obj.insert("model_type".into(), Value::String(planned_as(wrapper).into()));
    Ok(Value::Object(obj))
}

/// A Qwen3.5 file whose class is the text type's causal LM (`Qwen3_5ForCausalLM`): the text
/// model alone, planned as its own type; `None` for any other class.
pub fn causal_lm(value: &Value, common: &Common) -> Option<Result<Box<dyn Architecture>, ConfigError>> {
    let text_type = planned_as(&common.model_type);
    let class = common.architecture.as_deref()?;
    let spec = super::spec_keys::lookup(text_type)?;
    let known = spec.classes.iter().any(|(c, h)| *c == class && *h == super::spec::HeadKind::CausalLm);
    if !known || !common.model_type.starts_with("qwen3_5") {
        return None;
    }
    let resolve = crate::family::info(text_type)?.resolve?;
    let mut d = vec![];
    Some(text(value, &common.model_type, &mut d).and_then(|t| {
        let text_common = Common { model_type: text_type.into(), ..common.clone() };
        resolve(&t, &text_common).map_err(|e| nested("text_config", e))
    }))
}
