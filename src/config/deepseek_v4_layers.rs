//! DeepSeek-V4's per-layer schedules (`config/deepseek_v4.rs`), as `DeepseekV4Config`'s
//! `__post_init__` resolves them: each list is cut to `num_hidden_layers` (DeepSeek-V4-Pro's
//! `compress_ratios` lists one entry more, for its prediction layer), and one shorter than that
//! is refused, as the class's validator refuses it.

use serde_json::Value;

use super::deepseek_v4::Compress;
use super::spec::Reader;
use super::{ConfigError, Defaulted, Limit, check_range};

const SPARSE: &str = "compressed_sparse_attention";
const HEAVY: &str = "heavily_compressed_attention";

/// The list under `key` cut to `layers` entries, each mapped by `label` (None: not allowed).
fn listed<T>(
    r: &Reader,
    key: &'static str,
    layers: u64,
    allowed: &str,
    label: impl Fn(&Value) -> Option<T>,
) -> Result<Option<Vec<T>>, ConfigError> {
    let Some(v) = r.raw(key) else { return Ok(None) };
    let bad = || ConfigError::field(key, format!("expected at least {layers} entries, each {allowed}"));
    let list = v.as_array().filter(|l| l.len() as u64 >= layers).ok_or_else(bad)?;
    list.iter().take(layers as usize).map(|x| label(x).ok_or_else(bad)).collect::<Result<_, _>>().map(Some)
}

/// `layer_types`, else the legacy `compress_ratios` (0, 4 or 128 per layer), else two heavily
/// compressed layers, then compressed sparse and heavily compressed in turn.
pub(crate) fn attention(r: &mut Reader, layers: u64) -> Result<Vec<Compress>, ConfigError> {
    let by_name = |v: &Value| match v.as_str()? {
        "sliding_attention" => Some(Compress::None),
        SPARSE => Some(Compress::Sparse),
        HEAVY => Some(Compress::Heavy),
        _ => None,
    };
    let names = "sliding_attention, compressed_sparse_attention or heavily_compressed_attention";
    if let Some(list) = listed(r, "layer_types", layers, names, by_name)? {
        return Ok(list);
    }
    let by_ratio = |v: &Value| match v.as_u64()? {
        0 => Some(Compress::None),
        4 => Some(Compress::Sparse),
        128 => Some(Compress::Heavy),
        _ => None,
    };
    if let Some(list) = listed(r, "compress_ratios", layers, "0, 4 or 128", by_ratio)? {
        return Ok(list);
    }
    r.defaulted.push(Defaulted {
        field: "layer_types",
        value: "2 heavily compressed, then compressed sparse and heavily compressed in turn".into(),
    });
    Ok((0..layers)
        .map(|i| match i {
            0 | 1 => Compress::Heavy,
            i if i % 2 == 1 => Compress::Sparse,
            _ => Compress::Heavy,
        })
        .collect())
}

/// Tokens per compressed entry of each kind: `compress_rates` (the class's default {4, 128}
/// only when the file gives none), overridden by the legacy `compress_rate_csa` and
/// `compress_rate_hca`. A kind some layer uses must have a rate of at least 1.
pub(crate) fn rates(r: &Reader, layers: &[Compress]) -> Result<(u64, u64), ConfigError> {
    let given = r.raw("compress_rates");
    if let Some(v) = given.filter(|v| !v.is_object()) {
        return Err(ConfigError::field("compress_rates", format!("expected an object, found {v}")));
    }
    let rate = |kind: &str, legacy: &'static str, default: u64, used: Compress| {
        let (field, v) = match (r.raw(legacy), given) {
            (Some(v), _) => (legacy, Some(v)),
            (None, Some(map)) => ("compress_rates", map.get(kind)),
            (None, None) => return Ok(default),
        };
        match v {
            Some(v) => {
                let n = v.as_u64().ok_or_else(|| {
                    ConfigError::field(field, format!("{kind}: expected a positive integer, found {v}"))
                })?;
                match layers.contains(&used) {
                    true => check_range(Limit { field, max: 1 << 20 }, n),
                    false => Ok(n),
                }
            }
            None if layers.contains(&used) => {
                Err(ConfigError::field(field, format!("no rate for {kind}, which layer_types uses")))
            }
            None => Ok(0),
        }
    };
    Ok((
        rate(SPARSE, "compress_rate_csa", 4, Compress::Sparse)?,
        rate(HEAVY, "compress_rate_hca", 128, Compress::Heavy)?,
    ))
}

/// `mlp_layer_types` (`hash_moe` or `moe`), else the first `num_hash_layers` (default 3) hashed.
pub(crate) fn hashed(r: &mut Reader, layers: u64) -> Result<Vec<bool>, ConfigError> {
    let label = |v: &Value| match v.as_str()? {
        "hash_moe" => Some(true),
        "moe" => Some(false),
        _ => None,
    };
    if let Some(list) = listed(r, "mlp_layer_types", layers, "hash_moe or moe", label)? {
        return Ok(list);
    }
    let n = match r.raw("num_hash_layers") {
        Some(v) => v.as_u64().ok_or_else(|| {
            ConfigError::field("num_hash_layers", format!("expected a non-negative integer, found {v}"))
        })?,
        None => {
            r.defaulted.push(Defaulted { field: "num_hash_layers", value: "3".into() });
            3
        }
    };
    Ok((0..layers).map(|i| i < n).collect())
}

/// The prediction layers' attention kinds: `num_nextn_predict_layers` of them, each the legacy
/// `compress_ratios` entry past the last layer where there is one, else a sliding window.
pub(crate) fn prediction(r: &mut Reader, layers: u64) -> Result<Vec<Compress>, ConfigError> {
    let n = r.opt_u("num_nextn_predict_layers")?.unwrap_or(0);
    let n = if n == 0 { 0 } else { check_range(Limit { field: "num_nextn_predict_layers", max: 64 }, n)? };
    let ratios = r.raw("compress_ratios").and_then(Value::as_array);
    Ok((layers..layers + n)
        .map(|i| match ratios.and_then(|l| l.get(i as usize)).and_then(Value::as_u64) {
            Some(4) => Compress::Sparse,
            Some(128) => Compress::Heavy,
            _ => Compress::None,
        })
        .collect())
}

/// An `fp8` quantization config whose `expert_dtype` (there or at the top level, which the class
/// moves there) is absent or `fp4`.
pub(crate) fn fp4_experts(value: &Value) -> bool {
    let q = value.get("quantization_config");
    let fp8 = q.and_then(|q| q.get("quant_method")).and_then(Value::as_str) == Some("fp8");
    let dtype = q.and_then(|q| q.get("expert_dtype")).or(value.get("expert_dtype")).and_then(Value::as_str);
    fp8 && dtype.is_none_or(|d| d == "fp4")
}
