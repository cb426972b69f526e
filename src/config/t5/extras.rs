//! The keys only LongT5 and Switch Transformers read, kept apart so that a T5 file is read as
//! before: a `num_experts` in a T5 file is never looked at.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::super::t5_types::SwitchDefaults;
use super::super::{ConfigError, Defaulted, Limit, check_range, flag};

/// LongT5's `encoder_attention_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LongAttention {
    /// `local`: `LocalSelfAttention`, T5's tensors under another name.
    Local,
    /// `transient-global`: `TransientGlobalSelfAttention`, with a `global_input_layer_norm` in
    /// every layer and a `global_relative_attention_bias` beside the first layer's table.
    TransientGlobal,
}

pub(super) fn long_attention(value: &Value, d: &mut Vec<Defaulted>) -> Result<LongAttention, ConfigError> {
    const FIELD: &str = "encoder_attention_type";
    match value.get(FIELD) {
        None => {
            d.push(Defaulted { field: FIELD, value: "local".into() });
            Ok(LongAttention::Local)
        }
        Some(Value::String(s)) if s == "local" => Ok(LongAttention::Local),
        Some(Value::String(s)) if s == "transient-global" => Ok(LongAttention::TransientGlobal),
        Some(other) => Err(ConfigError::field(
            FIELD,
            format!("{other} is not `local` or `transient-global`, the two LongT5 defines"),
        )),
    }
}

/// Switch Transformers' keys (read only for that type).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SwitchRaw {
    pub(crate) dense_act_fn: Option<String>,
    num_experts: Option<u64>,
    num_sparse_encoder_layers: Option<u64>,
    num_sparse_decoder_layers: Option<u64>,
    encoder_sparse_step: Option<u64>,
    decoder_sparse_step: Option<u64>,
    router_bias: Option<bool>,
}

/// Where the experts sit and how many there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SwitchLayers {
    pub num_experts: u64,
    /// A layer `i` is sparse when `step == 1` or `i % step == 1`; `step == 0`, none is.
    pub encoder_step: u64,
    pub decoder_step: u64,
    pub router_bias: bool,
}

impl SwitchLayers {
    pub fn is_sparse(&self, decoder: bool, layer: u64) -> bool {
        let step = if decoder { self.decoder_step } else { self.encoder_step };
        step == 1 || (step > 1 && layer % step == 1)
    }
}

/// SwitchTransformersConfig.__post_init__: the step is `layers // sparse` (0 when more sparse
/// layers are asked than there are layers: none then), and with none asked, `layers`, which its
/// "HACK" comment says makes no sparse layer but which makes layer 1 sparse (`1 % layers == 1`),
/// or every layer of a one-layer stack (`step == 1`): the count follows the code.
/// A step the file writes (`save_pretrained` writes both) wins over the one computed, as in
/// `from_pretrained`; the computation uses `num_layers` as the class's own argument, before the
/// `num_hidden_layers` alias is applied.
fn step(
    (field, sparse): (&'static str, Option<u64>),
    (step_field, written): (&'static str, Option<u64>),
    default: u64,
    layers: u64,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    if let Some(step) = written {
        return if step == 0 { Ok(0) } else { check_range(Limit { field: step_field, max: 10_000 }, step) };
    }
    let n = match sparse {
        Some(0) => return Ok(layers),
        Some(n) => check_range(Limit { field, max: 10_000 }, n)?,
        None => {
            d.push(Defaulted { field, value: default.to_string() });
            default
        }
    };
    Ok(layers / n)
}

pub(super) fn switch_layers(
    s: SwitchDefaults,
    raw: &SwitchRaw,
    layers: u64,
    decoder_layers: u64,
    d: &mut Vec<Defaulted>,
) -> Result<SwitchLayers, ConfigError> {
    let num_experts = match raw.num_experts {
        Some(n) => check_range(Limit { field: "num_experts", max: 1 << 16 }, n)?,
        None => {
            d.push(Defaulted { field: "num_experts", value: s.num_experts.to_string() });
            s.num_experts
        }
    };
    let [encoder_step, decoder_step] = [
        (
            ("num_sparse_encoder_layers", raw.num_sparse_encoder_layers),
            ("encoder_sparse_step", raw.encoder_sparse_step),
            s.num_sparse_encoder_layers,
            layers,
        ),
        (
            ("num_sparse_decoder_layers", raw.num_sparse_decoder_layers),
            ("decoder_sparse_step", raw.decoder_sparse_step),
            s.num_sparse_decoder_layers,
            decoder_layers,
        ),
    ]
    .map(|(sparse, written, default, n)| step(sparse, written, default, n, d));
    let (encoder_step, decoder_step) = (encoder_step?, decoder_step?);
    let router_bias = flag("router_bias", raw.router_bias, s.router_bias, d);
    Ok(SwitchLayers { num_experts, encoder_step, decoder_step, router_bias })
}
