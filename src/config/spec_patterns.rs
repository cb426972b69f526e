//! The layer patterns of a described type (`config/spec.rs`), read by `config/spec_read.rs`:
//! which layers route through the experts, and which attend within a window (or a chunk).

use serde_json::Value;

use super::spec::{Reader, Sparse, Spec, Window};
use super::{ConfigError, Defaulted, Limit, check_range};

pub(super) fn bounded(field: &'static str, max: u64, v: u64) -> Result<u64, ConfigError> {
    check_range(Limit { field, max }, v)
}

pub(super) fn sparse(r: &mut Reader, rule: Sparse, layers: u64) -> Result<Vec<bool>, ConfigError> {
    Ok(match rule {
        Sparse::All => vec![true; layers as usize],
        Sparse::FirstDense(key) => {
            let k = r.opt_u(key)?.unwrap_or(0);
            (0..layers).map(|i| i >= k).collect()
        }
        Sparse::Step { step, list } => match r.index_list(list)? {
            Some(l) => (0..layers).map(|i| l.contains(&i)).collect(),
            None => {
                let s = r.size(step, 10_000)?;
                (0..layers).map(|i| (i + 1) % s == 0).collect()
            }
        },
        Sparse::QwenStep | Sparse::QwenStepDense(_) => {
            let step = r.size("decoder_sparse_step", 10_000)?;
            let default = if let Sparse::QwenStepDense(d) = rule { d } else { &[] };
            let dense = r.index_list("mlp_only_layers")?.unwrap_or_else(|| default.to_vec());
            (0..layers).map(|i| !dense.contains(&i) && (i + 1) % step == 0).collect()
        }
        Sparse::MlpTypes(_) | Sparse::MlpTypesFirst(_) => {
            if let Some(list) =
                super::spec_mixers::per_layer(r, "mlp_layer_types", layers, ("sparse", "dense"))?
            {
                return Ok(list);
            }
            let k = match rule {
                Sparse::MlpTypes(Some(key)) => r.opt_u(key)?.unwrap_or(0),
                Sparse::MlpTypesFirst(n) => n,
                _ => 1,
            };
            (0..layers).map(|i| i >= k).collect()
        }
        Sparse::MlpTypesFreq => super::spec_dec5::mlp_types_freq(r, layers)?,
        Sparse::Range => {
            let start = r.opt_u("moe_layer_start_index")?.unwrap_or(0);
            let interval = r.size("moe_layer_interval", 10_000)?;
            // -1 (the class's default) means the last layer.
            let end = match r.raw("moe_layer_end_index") {
                None => layers.saturating_sub(1),
                Some(v) => match v.as_i64() {
                    Some(-1) => layers.saturating_sub(1),
                    Some(e) if e >= 0 => e as u64,
                    _ => {
                        return Err(ConfigError::field(
                            "moe_layer_end_index",
                            format!("expected a layer index or -1, found {v}"),
                        ));
                    }
                },
            };
            (0..layers).map(|i| (i + 1) % interval == 0 && i >= start && i <= end).collect()
        }
    })
}

/// The period of a sliding pattern: a number, or a string of `L` (local) and `G` (global) whose
/// length is the period (EXAONE 4 writes "LLLG").
fn period(r: &mut Reader, key: &'static str, default: u64) -> Result<u64, ConfigError> {
    match r.raw(key) {
        None => {
            r.defaulted.push(Defaulted { field: key, value: default.to_string() });
            Ok(default)
        }
        Some(Value::String(s)) if !s.is_empty() && s.chars().all(|c| c == 'L' || c == 'G') => {
            Ok(s.len() as u64)
        }
        Some(v) => match v.as_u64() {
            Some(p) => bounded(key, 10_000, p),
            None => Err(ConfigError::field(key, format!("expected a layer period, found {v}"))),
        },
    }
}

/// `layer_types`, when the file lists them: the window on each sliding layer.
fn layer_types(r: &Reader, layers: u64, w: u64) -> Result<Option<Vec<Option<u64>>>, ConfigError> {
    let types =
        super::spec_mixers::per_layer(r, "layer_types", layers, ("sliding_attention", "full_attention"))?;
    Ok(types.map(|list| list.into_iter().map(|s| s.then_some(w)).collect()))
}

pub(super) fn windows(r: &mut Reader, spec: &Spec, layers: u64) -> Result<Vec<Option<u64>>, ConfigError> {
    let n = layers as usize;
    let window = |r: &mut Reader| -> Result<Option<u64>, ConfigError> {
        match r.opt_u("sliding_window")? {
            Some(w) => Ok(Some(bounded("sliding_window", 1 << 30, w)?)),
            None => Ok(None),
        }
    };
    Ok(match spec.window {
        Window::None => vec![None; n],
        Window::AllWhenSet => vec![window(r)?; n],
        Window::Pattern { .. } | Window::From(_) | Window::FullFirst { .. } => {
            let Some(w) = window(r)? else { return Ok(vec![None; n]) };
            if let Some(l) = layer_types(r, layers, w)? {
                return Ok(l);
            }
            match spec.window {
                Window::From(key) => {
                    let from = r.opt_u(key)?.unwrap_or(layers);
                    (0..layers).map(|i| (i >= from).then_some(w)).collect()
                }
                Window::Pattern { period_key: Some(k), period: default } => {
                    let p = period(r, k, default)?;
                    (0..layers).map(|i| ((i + 1) % p != 0).then_some(w)).collect()
                }
                Window::Pattern { period, .. } => {
                    (0..layers).map(|i| ((i + 1) % period != 0).then_some(w)).collect()
                }
                Window::FullFirst { period } => (0..layers).map(|i| (i % period != 0).then_some(w)).collect(),
                _ => vec![None; n],
            }
        }
        Window::ThreeKinds(pattern) => super::spec_dec5::three_kinds(r, layers, pattern)?.1,
        Window::Chunked => {
            if let Some(list) = r.raw("layer_types").and_then(Value::as_array).cloned() {
                let chunk = r.opt_u("attention_chunk_size")?;
                if list.len() != n {
                    return Err(ConfigError::field(
                        "layer_types",
                        format!("{} entries for {n} layers", list.len()),
                    ));
                }
                return Ok(list
                    .iter()
                    .map(|t| if t == "chunked_attention" { chunk } else { None })
                    .collect());
            }
            let chunk = match r.opt_u("attention_chunk_size")? {
                Some(c) => Some(bounded("attention_chunk_size", 1 << 30, c)?),
                None => None,
            };
            let every = r.size("no_rope_layer_interval", 10_000)?;
            (0..layers).map(|i| if (i + 1) % every != 0 { chunk } else { None }).collect()
        }
    })
}
