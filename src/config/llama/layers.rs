//! Windows and layer types: which layers slide, over how many tokens, and the logit caps.

use super::super::types::{Family, TypeDesc};
use super::super::{ConfigError, Defaulted, size};
use super::raw::Raw;

/// The attention window and the attention and final logit caps, as the rule set reads them.
pub(super) struct Windows {
    pub sliding_window: Option<u64>,
    pub attn_logit_softcapping: Option<f64>,
    pub final_logit_softcapping: Option<f64>,
}

pub(super) fn windows(desc: &TypeDesc, raw: &Raw, d: &mut Vec<Defaulted>) -> Result<Windows, ConfigError> {
    let family = desc.rules;
    let sliding_window = match family {
        _ if desc.window_period.is_some() => {
            Some(size("sliding_window", raw.sliding_window, 4096, 1 << 30, d)?)
        }
        Family::Mistral => Some(size("sliding_window", raw.sliding_window, 4096, 1 << 30, d)?),
        Family::Mixtral | Family::Phi3 => raw.sliding_window,
        // Qwen keeps the window only when `use_sliding_window` is set.
        Family::Qwen2 | Family::Qwen2Moe | Family::Qwen3 | Family::Qwen3Moe => {
            if raw.use_sliding_window.unwrap_or(false) {
                Some(raw.sliding_window.unwrap_or(4096))
            } else {
                None
            }
        }
        Family::Gemma2 | Family::Gemma3Text => {
            Some(size("sliding_window", raw.sliding_window, 4096, 1 << 30, d)?)
        }
        _ => None,
    };
    let (attn_logit_softcapping, final_logit_softcapping) = match family {
        Family::Gemma2 => (
            Some(raw.attn_logit_softcapping.unwrap_or(50.0)),
            Some(raw.final_logit_softcapping.unwrap_or(30.0)),
        ),
        Family::Gemma3Text => (raw.attn_logit_softcapping, raw.final_logit_softcapping),
        _ => (None, None),
    };
    Ok(Windows { sliding_window, attn_logit_softcapping, final_logit_softcapping })
}

pub(super) fn layer_types(
    desc: &TypeDesc,
    raw: &Raw,
    num_layers: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Vec<String>, ConfigError> {
    let family = desc.rules;
    let given = match family {
        _ if desc.window_period.is_some() => raw.layer_types.clone(),
        Family::Qwen2 | Family::Qwen3 | Family::Gemma2 | Family::Gemma3Text => raw.layer_types.clone(),
        _ => return Ok(vec![]),
    };
    if let Some(types) = given {
        if types.len() as u64 != num_layers {
            return Err(ConfigError::field(
                "layer_types",
                format!("{} entries for {num_layers} layers", types.len()),
            ));
        }
        if let Some(bad) = types.iter().find(|t| *t != "sliding_attention" && *t != "full_attention") {
            return Err(ConfigError::field(
                "layer_types",
                format!("{bad:?} is not sliding_attention or full_attention"),
            ));
        }
        return Ok(types);
    }
    let kind = |sliding: bool| if sliding { "sliding_attention" } else { "full_attention" }.to_string();
    let types: Vec<String> = match (family, desc.window_period) {
        // Sliding layers, then a full one every `period` layers (OLMo 3: three, then one).
        (_, Some(period)) => (0..num_layers).map(|i| kind((i + 1) % period.max(1) != 0)).collect(),
        // Gemma-2 alternates, starting with a sliding layer.
        (Family::Gemma2, None) => (0..num_layers).map(|i| kind((i + 1) % 2 != 0)).collect(),
        // Gemma-3: five sliding layers, then a full one.
        (Family::Gemma3Text, None) => {
            let pattern = raw.sliding_window_pattern.unwrap_or(6).max(1);
            (0..num_layers).map(|i| kind((i + 1) % pattern != 0)).collect()
        }
        // Qwen: sliding only from max_window_layers on, and only with use_sliding_window.
        _ => {
            let sliding = raw.use_sliding_window.unwrap_or(false);
            let from = raw.max_window_layers.unwrap_or(28);
            (0..num_layers).map(|i| kind(sliding && i >= from)).collect()
        }
    };
    d.push(Defaulted {
        field: "layer_types",
        value: format!("{} layers by the class's pattern", types.len()),
    });
    Ok(types)
}
