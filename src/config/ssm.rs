//! State-space models: `mamba`, `falcon_mamba` (Mamba's layers, with weightless RMSNorms on the
//! scan's inputs) and `mamba2`, with the defaults of transformers 5.x's `MambaConfig`,
//! `FalconMambaConfig` and `Mamba2Config`. None has an `attribute_map`. Each config computes
//! `intermediate_size = expand x hidden_size`, but an `intermediate_size` key in the file is set
//! after that and wins; Mamba's and FalconMamba's mixers read it, Mamba-2's recomputes it from
//! `expand` (tiiuae/falcon-mamba-7b publishes expand 16 with intermediate_size 8192).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, deserialize_raw, flag, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    state_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    layer_norm_epsilon: Option<f64>,
    pad_token_id: Option<u64>,
    expand: Option<u64>,
    intermediate_size: Option<u64>,
    conv_kernel: Option<u64>,
    use_bias: Option<bool>,
    use_conv_bias: Option<bool>,
    hidden_act: Option<String>,
    time_step_rank: Option<Value>,
    tie_word_embeddings: Option<bool>,
    num_heads: Option<u64>,
    head_dim: Option<u64>,
    n_groups: Option<u64>,
}

/// Mamba's selective scan over every channel, or Mamba-2's over heads sharing B and C in groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mixer {
    /// `x_proj` makes dt (rank `time_step_rank`), B and C; `dt_proj` widens dt to every channel.
    Mamba { time_step_rank: u64 },
    /// `in_proj` makes z, x, B, C and dt at once; one A, D and dt bias per head; a gated RMSNorm.
    Mamba2 { num_heads: u64, head_dim: u64, n_groups: u64 },
}

#[derive(Debug, Clone, Serialize)]
pub struct SsmConfig {
    pub class: String,
    /// `ForCausalLM` (true) or the bare `Model`.
    pub causal_lm: bool,
    pub model_type: String,
    pub mixer: Mixer,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub state_size: u64,
    /// The mixer's channels: `expand x hidden_size`, or the file's `intermediate_size` (Mamba and
    /// FalconMamba only).
    pub intermediate_size: u64,
    pub conv_kernel: u64,
    pub use_bias: bool,
    pub use_conv_bias: bool,
    pub hidden_act: String,
    pub tie_word_embeddings: bool,
    pub layer_norm_epsilon: f64,
    pub pad_token_id: Option<u64>,
    pub defaulted: Vec<Defaulted>,
}

struct TypeDefaults {
    prefix: &'static str,
    vocab: u64,
    hidden: u64,
    state: u64,
    layers: u64,
    pad: u64,
    tie: bool,
}

const MAMBA: TypeDefaults =
    TypeDefaults { prefix: "Mamba", vocab: 50280, hidden: 768, state: 16, layers: 32, pad: 0, tie: true };

fn defaults(model_type: &str) -> Option<TypeDefaults> {
    match model_type {
        "mamba" => Some(MAMBA),
        "falcon_mamba" => Some(TypeDefaults { prefix: "FalconMamba", ..MAMBA }),
        "mamba2" => Some(TypeDefaults {
            prefix: "Mamba2",
            vocab: 32768,
            hidden: 4096,
            state: 128,
            layers: 64,
            pad: 1,
            tie: false,
        }),
        _ => None,
    }
}

impl SsmConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let t = defaults(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a state-space type the planner knows"))?;
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, t.vocab, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, t.hidden, 1 << 18, &mut d)?;
        let state_size = size("state_size", raw.state_size, t.state, 1 << 14, &mut d)?;
        let num_layers = size("num_hidden_layers", raw.num_hidden_layers, t.layers, 10_000, &mut d)?;
        let expand = size("expand", raw.expand, 2, 64, &mut d)?;
        let conv_kernel = size("conv_kernel", raw.conv_kernel, 4, 1024, &mut d)?;
        let expanded = expand * hidden_size;
        let intermediate_size = match raw.intermediate_size {
            Some(n) if common.model_type != "mamba2" => {
                size("intermediate_size", Some(n), expanded, 1 << 22, &mut d)?
            }
            _ => expanded,
        };
        let time_step_rank =
            time_step_rank("time_step_rank", raw.time_step_rank.as_ref(), hidden_size, true, &mut d)?;
        let mixer = if common.model_type == "mamba2" {
            let num_heads = size("num_heads", raw.num_heads, 128, 1 << 16, &mut d)?;
            let head_dim = size("head_dim", raw.head_dim, 64, 1 << 14, &mut d)?;
            let n_groups = size("n_groups", raw.n_groups, 8, 1 << 14, &mut d)?;
            // Mamba2Config.validate_architecture refuses the config otherwise.
            if num_heads * head_dim != intermediate_size {
                return Err(ConfigError::field(
                    "num_heads",
                    format!(
                        "num_heads x head_dim ({num_heads} x {head_dim}) must equal hidden_size x expand ({intermediate_size}), as Mamba2Config requires"
                    ),
                ));
            }
            Mixer::Mamba2 { num_heads, head_dim, n_groups }
        } else {
            Mixer::Mamba { time_step_rank }
        };
        let class = super::class_or(common, &format!("{}Model", t.prefix), &mut d);
        let causal_lm = match class.strip_prefix(t.prefix) {
            Some("Model") => false,
            Some("ForCausalLM") => true,
            _ => return Err(super::read::unknown_class(&class)),
        };
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, t.tie, &mut d);
        let pad_token_id = super::read::pad_or_null(raw.pad_token_id, value, t.pad);
        Ok(SsmConfig {
            class,
            causal_lm,
            model_type: common.model_type.clone(),
            mixer,
            vocab_size,
            hidden_size,
            num_layers,
            state_size,
            intermediate_size,
            conv_kernel,
            use_bias: raw.use_bias.unwrap_or(false),
            use_conv_bias: raw.use_conv_bias.unwrap_or(true),
            hidden_act: raw.hidden_act.unwrap_or_else(|| "silu".into()),
            tie_word_embeddings,
            layer_norm_epsilon: raw.layer_norm_epsilon.unwrap_or(1e-5),
            pad_token_id,
            defaulted: d,
        })
    }

    /// Mamba-2's mixer as the hybrids describe it (`config/spec_hybrid.rs`); None for Mamba's.
    pub fn mamba2(&self) -> Option<super::spec_hybrid::Mamba2Dims> {
        match self.mixer {
            Mixer::Mamba { .. } => None,
            Mixer::Mamba2 { num_heads, head_dim, n_groups } => Some(super::spec_hybrid::Mamba2Dims {
                heads: num_heads,
                head_dim,
                groups: n_groups,
                state: self.state_size,
                conv_kernel: self.conv_kernel,
                inner: self.intermediate_size,
                conv_bias: self.use_conv_bias,
                proj_bias: self.use_bias,
                out_bias: self.use_bias,
                gated_norm: true,
            }),
        }
    }

    /// Channels the causal convolution runs over: Mamba's x; Mamba-2's x, B and C together.
    pub fn conv_channels(&self) -> u64 {
        match self.mixer {
            Mixer::Mamba { .. } => self.intermediate_size,
            Mixer::Mamba2 { n_groups, .. } => self.intermediate_size + 2 * n_groups * self.state_size,
        }
    }

    pub fn dims(&self) -> super::Dims {
        let (h, layers, ffn, v) =
            (self.hidden_size, self.num_layers, self.intermediate_size, self.vocab_size);
        super::Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::attention_free(h, layers, ffn, v, SSM_PLAN_CONTEXT)
        }
    }
}

/// The rank of Mamba's dt projection: a count, or "auto" (and absent) for ceil(hidden / 16);
/// `record` notes an absent key as defaulted.
pub(crate) fn time_step_rank(
    field: &'static str,
    v: Option<&Value>,
    hidden_size: u64,
    record: bool,
    d: &mut Vec<Defaulted>,
) -> Result<u64, ConfigError> {
    match v {
        None => {
            if record {
                d.push(Defaulted { field, value: "auto: ceil(hidden_size / 16)".into() });
            }
            Ok(hidden_size.div_ceil(16))
        }
        Some(Value::String(s)) if s == "auto" => Ok(hidden_size.div_ceil(16)),
        Some(v) => match v.as_u64() {
            Some(n) => size(field, Some(n), 0, 1 << 18, d),
            None => {
                Err(ConfigError::field(field, format!("expected \"auto\" or a positive integer, found {v}")))
            }
        },
    }
}

/// A recurrent state has no position table and no length limit; plans are sized at this length.
pub const SSM_PLAN_CONTEXT: u64 = 2048;
