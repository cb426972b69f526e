//! The mixers a described type may put in place of grouped-query attention (`config/spec.rs`):
//! DeepSeek's latent attention, with DeepSeek-V3.2's lightning indexer, and Gated DeltaNet linear
//! attention on the layers `layer_types` marks. Read here into sizes the graph builds from.

use serde::Serialize;
use serde_json::Value;

use super::spec::{Attn, Indexer, Reader, Spec};
use super::{ConfigError, Defaulted, Limit, check_range};

/// A token mixer other than attention, on the layers `layer_types` marks `linear_attention`
/// (else every `full_attention_interval`-th layer attends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Linear {
    None,
    /// Gated DeltaNet: `in_proj_qkvz` and `in_proj_ba` fused (Qwen3-Next) or split into
    /// `in_proj_qkv`, `in_proj_z`, `in_proj_b`, `in_proj_a` (Qwen3.5).
    GatedDeltaNet {
        fused: bool,
    },
    /// Kimi Delta Attention (Kimi Linear: `config/spec_linear.rs`).
    KimiDelta,
    /// LFM2's gated short convolution (`config/spec_linear.rs`).
    ShortConv,
    /// LFM3's: on the layers `layer_types` marks `conv`, among full and sliding attention
    /// (`config/spec_recur_lfm.rs`).
    ShortConvTyped,
    /// Mamba-2 mixers with attention (Bamba, Granite 4.0, Nemotron-H: `config/spec_hybrid.rs`).
    Mamba2(&'static super::spec_hybrid::Hybrid),
    /// MiniMax's lightning attention under `self_attn`, one state of head_dim x head_dim per head.
    Lightning,
    /// OLMo Hybrid's Gated DeltaNet: every projection separate (`config/spec_olmo_hybrid.rs`).
    OlmoDeltaNet,
    /// Ling 3's delta attention: Kimi's with full-rank gates (`config/spec_bailing_hybrid.rs`).
    BailingDelta,
}

/// Latent attention: queries through an optional low-rank latent, keys and values through one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LatentDims {
    /// None: queries are projected directly (`q_proj`).
    pub q_lora_rank: Option<u64>,
    pub kv_lora_rank: u64,
    pub qk_nope_head_dim: u64,
    pub qk_rope_head_dim: u64,
    pub v_head_dim: u64,
    /// The lightning indexer's heads and head width, where the type has one.
    pub index_heads: u64,
    pub index_head_dim: u64,
}

/// Gated DeltaNet: key and value heads of their own widths, a causal convolution over q, k, v.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LinearDims {
    pub key_heads: u64,
    pub key_dim: u64,
    pub value_heads: u64,
    pub value_dim: u64,
    pub conv_kernel: u64,
    /// Biases on the projections and the convolution (LFM2's `conv_bias`; none elsewhere).
    pub bias: bool,
}

impl LinearDims {
    /// Heads whose keys and values are one width, without biases (Kimi Delta Attention, Ling 3).
    pub fn square(heads: u64, head_dim: u64, conv_kernel: u64) -> Self {
        LinearDims {
            key_heads: heads,
            key_dim: head_dim,
            value_heads: heads,
            value_dim: head_dim,
            conv_kernel,
            bias: false,
        }
    }

    /// Channels the convolution runs over: queries, keys and values.
    pub fn conv_channels(&self) -> u64 {
        2 * self.key_heads * self.key_dim + self.value_heads * self.value_dim
    }
}

/// What `read` resolves: latent sizes and indexed layers, linear sizes and linear layers.
pub(crate) type Mixers = (Option<LatentDims>, Vec<bool>, Option<LinearDims>, Vec<bool>);

pub(crate) fn read(r: &mut Reader, spec: &Spec, layers: u64) -> Result<Mixers, ConfigError> {
    let (latent, indexed) = match spec.attn {
        Attn::Latent(indexer) => latent(r, indexer, layers)?,
        Attn::Grouped | Attn::GatedOutput | Attn::SeparateGate | Attn::GateProj | Attn::HeadGate => {
            (None, vec![])
        }
    };
    let (linear, linear_layers) = match spec.linear {
        Linear::None | Linear::Mamba2(_) => (None, vec![]),
        Linear::KimiDelta => {
            let (dims, layers) = super::spec_linear::kimi_delta(r, layers)?;
            (Some(dims), layers)
        }
        Linear::ShortConv => {
            let (dims, layers) = super::spec_linear::short_conv(r, layers)?;
            (Some(dims), layers)
        }
        Linear::ShortConvTyped => {
            let (dims, layers) = super::spec_recur_lfm::short_conv(r, layers)?;
            (Some(dims), layers)
        }
        Linear::GatedDeltaNet { .. } => {
            let dims = r.delta_net()?;
            let list = match spec.window {
                super::spec::Window::ThreeKinds(p) => super::spec_dec5::three_kinds(r, layers, p)?.0,
                _ => linear_layers(r, layers)?,
            };
            (Some(dims), list)
        }
        Linear::OlmoDeltaNet => {
            let (dims, layers) = super::spec_olmo_hybrid::delta_net(r, layers)?;
            (Some(dims), layers)
        }
        Linear::BailingDelta => {
            let (dims, layers) = super::spec_bailing_hybrid::delta(r, layers)?;
            (Some(dims), layers)
        }
        Linear::Lightning => {
            // Every attention head, at the attention's head_dim (hidden / heads unless set).
            let heads = r.size("num_attention_heads", 1 << 16)?;
            let dim = match r.opt_u("head_dim")? {
                Some(d) => d,
                None => r.size("hidden_size", 1 << 18)? / heads,
            };
            let dim = check_range(Limit { field: "head_dim", max: 1 << 16 }, dim)?;
            let dims = LinearDims {
                key_heads: heads,
                key_dim: dim,
                value_heads: heads,
                value_dim: dim,
                conv_kernel: 0,
                bias: false,
            };
            // MiniMaxConfig's default: full attention on even layers, lightning on odd ones.
            let list = per_layer(r, "layer_types", layers, ("linear_attention", "full_attention"))?;
            (Some(dims), list.unwrap_or_else(|| (0..layers).map(|i| i % 2 == 1).collect()))
        }
    };
    Ok((latent, indexed, linear, linear_layers))
}

fn latent(
    r: &mut Reader,
    indexer: Indexer,
    layers: u64,
) -> Result<(Option<LatentDims>, Vec<bool>), ConfigError> {
    // An explicit null projects queries directly (`q_proj`); absent, the class's default rank,
    // which may itself be None (Kimi Linear, Sarvam-MLA).
    let q_lora_rank = match r.value.get("q_lora_rank") {
        Some(Value::Null) => None,
        _ if r.opt_u("q_lora_rank")?.is_none() => None,
        _ => Some(r.size("q_lora_rank", 1 << 20)?),
    };
    // MiniCPM3 leaves `v_head_dim` None: hidden / heads.
    let v_head_dim = match r.opt_u("v_head_dim")? {
        Some(v) => v,
        None => r.size("hidden_size", 1 << 18)? / r.size("num_attention_heads", 1 << 16)?,
    };
    let v_head_dim = check_range(Limit { field: "v_head_dim", max: 1 << 16 }, v_head_dim)?;
    let mut dims = LatentDims {
        q_lora_rank,
        kv_lora_rank: r.size("kv_lora_rank", 1 << 20)?,
        qk_nope_head_dim: r.size("qk_nope_head_dim", 1 << 16)?,
        qk_rope_head_dim: r.size("qk_rope_head_dim", 1 << 16)?,
        v_head_dim,
        index_heads: 0,
        index_head_dim: 0,
    };
    let indexed = match indexer {
        Indexer::None => vec![],
        Indexer::Every | Indexer::ByType => {
            if dims.q_lora_rank.is_none() {
                // The indexer's query reads the query latent, which a null rank leaves out.
                return Err(ConfigError::field(
                    "q_lora_rank",
                    "null, but the indexer projects from the query latent",
                ));
            }
            dims.index_heads = r.size("index_n_heads", 1 << 14)?;
            dims.index_head_dim = r.size("index_head_dim", 1 << 14)?;
            if indexer == Indexer::Every { vec![true; layers as usize] } else { indexer_types(r, layers)? }
        }
    };
    Ok((Some(dims), indexed))
}

/// GlmMoeDsaConfig: `indexer_types` (`full` or `shared`), else `index_topk_pattern` (`F`/`S`),
/// else `full` where `max(i - offset + 1, 0) % freq == 0` (`index_topk_freq`, default 1;
/// `index_skip_topk_offset`, default 2): every layer by default.
fn indexer_types(r: &mut Reader, layers: u64) -> Result<Vec<bool>, ConfigError> {
    let n = layers as usize;
    let list = |key: &'static str, v: &Value| -> Result<Vec<bool>, ConfigError> {
        let bad = || ConfigError::field(key, format!("expected {n} entries of full or shared"));
        let items: Vec<String> = match v {
            Value::String(s) => s
                .chars()
                .map(|c| {
                    if c == 'F' {
                        "full"
                    } else if c == 'S' {
                        "shared"
                    } else {
                        "?"
                    }
                    .into()
                })
                .collect(),
            Value::Array(a) => a.iter().map(|x| x.as_str().unwrap_or("?").to_string()).collect(),
            _ => return Err(bad()),
        };
        if items.len() != n {
            return Err(bad());
        }
        items
            .iter()
            .map(|t| match t.as_str() {
                "full" => Ok(true),
                "shared" => Ok(false),
                _ => Err(bad()),
            })
            .collect()
    };
    if let Some(v) = r.raw("indexer_types").cloned() {
        return list("indexer_types", &v);
    }
    if let Some(v) = r.raw("index_topk_pattern").cloned() {
        return list("index_topk_pattern", &v);
    }
    let freq = r.opt_u("index_topk_freq")?.unwrap_or(1).max(1);
    let offset = r.opt_u("index_skip_topk_offset")?.unwrap_or(2);
    Ok((0..layers).map(|i| (i + 1).saturating_sub(offset) % freq == 0).collect())
}

/// A per-layer list of two labels (`dense` or `sparse`) as flags (true for the first), if the
/// file gives one; an error names the key unless it has one of them for every layer.
pub(crate) fn per_layer(
    r: &Reader,
    key: &'static str,
    layers: u64,
    (yes, no): (&str, &str),
) -> Result<Option<Vec<bool>>, ConfigError> {
    let Some(v) = r.raw(key) else { return Ok(None) };
    let n = layers as usize;
    let bad = || ConfigError::field(key, format!("expected {n} of {yes} or {no}"));
    let list = v.as_array().filter(|l| l.len() == n).ok_or_else(bad)?;
    list.iter()
        .map(|t| match t.as_str() {
            Some(t) if t == yes => Ok(true),
            Some(t) if t == no => Ok(false),
            _ => Err(bad()),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// `layer_types` (`linear_attention` or `full_attention`) when listed, else attention on every
/// `full_attention_interval`-th layer (default 4), as the Qwen3-Next and Qwen3.5 classes build.
fn linear_layers(r: &mut Reader, layers: u64) -> Result<Vec<bool>, ConfigError> {
    if let Some(list) = per_layer(r, "layer_types", layers, ("linear_attention", "full_attention"))? {
        return Ok(list);
    }
    let every = match r.opt_u("full_attention_interval")? {
        Some(k) => check_range(Limit { field: "full_attention_interval", max: 10_000 }, k)?,
        None => {
            r.defaulted.push(Defaulted { field: "full_attention_interval", value: "4".into() });
            4
        }
    };
    Ok((0..layers).map(|i| (i + 1) % every != 0).collect())
}
