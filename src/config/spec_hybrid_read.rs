//! Reading a Mamba-2 hybrid's mixer and layers (`config/spec_hybrid.rs`): the mixer's sizes
//! under the type's keys, and which block each layer holds.

use serde_json::Value;

use super::spec::Reader;
use super::spec_hybrid::{Block, Hybrid, HybridDims, Inner, Layout, Mamba2Dims};
use super::{ConfigError, Defaulted, Limit, check_range};

/// Nemotron-H's layer count: the length of its block list (or pattern), which the class uses
/// whatever `num_hidden_layers` says; None for the other layouts.
pub(crate) fn block_count(r: &mut Reader, h: &Hybrid) -> Result<Option<u64>, ConfigError> {
    if h.layout != Layout::Blocks {
        return Ok(None);
    }
    let n = nemotron_blocks(r)?.len() as u64;
    check_range(Limit { field: "layers_block_type", max: 10_000 }, n).map(Some)
}

fn nemotron_blocks(r: &mut Reader) -> Result<Vec<Block>, ConfigError> {
    if let Some(v) = r.raw("layers_block_type").cloned() {
        let bad = || {
            ConfigError::field(
                "layers_block_type",
                format!("expected a list of linear_attention, full_attention, mlp or moe, found {v}"),
            )
        };
        let list = v.as_array().ok_or_else(bad)?;
        return list
            .iter()
            .map(|t| match t.as_str() {
                Some("linear_attention" | "mamba") => Ok(Block::Mamba),
                Some("full_attention" | "attention") => Ok(Block::Attention),
                Some("mlp") => Ok(Block::Mlp),
                Some("moe") => Ok(Block::Moe),
                _ => Err(bad()),
            })
            .collect();
    }
    if let Some(v) = r.value.get("hybrid_override_pattern").filter(|v| !v.is_null()) {
        let bad = || {
            ConfigError::field(
                "hybrid_override_pattern",
                format!("expected a string of M, *, - and E, found {v}"),
            )
        };
        return v
            .as_str()
            .ok_or_else(bad)?
            .chars()
            .map(|c| match c {
                'M' => Ok(Block::Mamba),
                '*' => Ok(Block::Attention),
                '-' => Ok(Block::Mlp),
                'E' => Ok(Block::Moe),
                _ => Err(bad()),
            })
            .collect();
    }
    // Read twice (the layer count, then the blocks); recorded once.
    if !r.defaulted.iter().any(|d| d.field == "layers_block_type") {
        r.defaulted.push(Defaulted { field: "layers_block_type", value: "M E * -".into() });
    }
    Ok(vec![Block::Mamba, Block::Moe, Block::Attention, Block::Mlp])
}

/// Reads the mixer's sizes and each layer's block; marks the Mamba layers in `linear_layers` and,
/// for Nemotron-H, the expert layers in `sparse_layers`.
pub(crate) fn read(
    r: &mut Reader,
    h: &Hybrid,
    hidden: u64,
    layers: u64,
    linear_layers: &mut Vec<bool>,
    sparse_layers: &mut Vec<bool>,
) -> Result<HybridDims, ConfigError> {
    let heads = r.size(h.heads, 1 << 16)?;
    let groups = r.size(h.groups, 1 << 14)?;
    let state = r.size(h.state, 1 << 14)?;
    let conv_kernel = r.size(h.conv, 1024)?;
    let (inner, head_dim) = match h.inner {
        Inner::Heads => {
            let head_dim = r.size(h.head_dim, 1 << 14)?;
            (heads * head_dim, head_dim)
        }
        Inner::Expand { expand, width } => {
            // An explicit null width falls back to expand x hidden_size.
            let inner = match width.filter(|w| !r.value.get(*w).is_some_and(Value::is_null)) {
                Some(w) => r.size(w, 1 << 22)?,
                None => r.size(expand, 64)? * hidden,
            };
            let auto = match r.raw(h.head_dim) {
                None => true,
                Some(Value::String(s)) => s == "auto",
                Some(_) => false,
            };
            let head_dim = if auto {
                if r.raw(h.head_dim).is_none() {
                    r.defaulted.push(Defaulted {
                        field: h.head_dim,
                        value: "auto: expand x hidden_size / heads".into(),
                    });
                }
                inner / heads
            } else {
                r.size(h.head_dim, 1 << 14)?
            };
            // The config class refuses the file otherwise (validate_architecture).
            if head_dim * heads != inner {
                return Err(ConfigError::field(
                    h.heads,
                    format!(
                        "{heads} heads of {head_dim} must make the mixer's {inner} channels (expand x hidden_size)"
                    ),
                ));
            }
            (inner, head_dim)
        }
    };
    if inner % groups != 0 || heads % groups != 0 {
        return Err(ConfigError::field(h.groups, format!("{groups} groups must divide the {heads} heads")));
    }
    let mamba = Mamba2Dims {
        heads,
        head_dim,
        groups,
        state,
        conv_kernel,
        inner,
        conv_bias: r.flag(h.conv_bias)?,
        proj_bias: r.flag(h.proj_bias)?,
        out_bias: r.flag(h.out_bias)?,
        gated_norm: match h.norm_key {
            Some(k) => r.flag(k)?,
            None => true,
        },
    };
    let n = layers as usize;
    let blocks = match h.layout {
        Layout::Blocks => nemotron_blocks(r)?,
        Layout::Parallel => vec![Block::Parallel; n],
        Layout::AttnIndices(key) => {
            let attn = r.index_list(key)?.unwrap_or_default();
            if let Some(i) = attn.iter().find(|i| **i >= layers) {
                return Err(ConfigError::field(key, format!("layer {i}, but the model has {layers} layers")));
            }
            (0..layers).map(|i| if attn.contains(&i) { Block::Attention } else { Block::Mamba }).collect()
        }
        Layout::LayerTypes => match layer_types(r, layers)? {
            Some(l) => l.into_iter().map(|m| if m { Block::Mamba } else { Block::Attention }).collect(),
            None => vec![Block::Mamba; n],
        },
    };
    *linear_layers = blocks.iter().map(|b| matches!(b, Block::Mamba | Block::Parallel)).collect();
    if h.layout == Layout::Blocks {
        *sparse_layers = blocks.iter().map(|b| *b == Block::Moe).collect();
    }
    let moe_latent = match h.layout {
        Layout::Blocks => match r.opt_u("moe_latent_size")? {
            Some(l) => Some(check_range(Limit { field: "moe_latent_size", max: 1 << 20 }, l)?),
            None => None,
        },
        _ => None,
    };
    let shared_only = match no_experts(r, h)? {
        true => Some(check_range(
            Limit { field: "shared_intermediate_size", max: 1 << 22 },
            r.opt_u("shared_intermediate_size")?.unwrap_or(0),
        )?),
        false => None,
    };
    Ok(HybridDims { mamba, blocks, moe_latent, shared_only })
}

/// Granite 4.0 builds no expert block at `num_local_experts` 0, only the shared MLP.
pub(crate) fn no_experts(r: &mut Reader, h: &Hybrid) -> Result<bool, ConfigError> {
    Ok(h.layout == Layout::LayerTypes && r.opt_u("num_local_experts")? == Some(0))
}

/// `layer_types`, true for a Mamba layer, under the names transformers 5.x remaps from
/// (`mamba`, `attention`) or to (`linear_attention`, `full_attention`).
fn layer_types(r: &Reader, layers: u64) -> Result<Option<Vec<bool>>, ConfigError> {
    let Some(v) = r.raw("layer_types") else { return Ok(None) };
    let bad = || ConfigError::field("layer_types", format!("expected {layers} of mamba or attention"));
    let list = v.as_array().ok_or_else(bad)?;
    if list.len() as u64 != layers {
        return Err(bad());
    }
    list.iter()
        .map(|t| match t.as_str() {
            Some("mamba" | "linear_attention") => Ok(true),
            Some("attention" | "full_attention") => Ok(false),
            _ => Err(bad()),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
