//! Resolves a described GPT-style type's config.json (see `config/spec_gpt.rs`) into a
//! [`GptConfig`]: the sizes through the type's key table, the switches its description names.

use serde_json::Value;

use super::spec::{Reader, head};
use super::spec_gpt::{Act, Ffn, GptConfig, GptWindow, Positions, Residual, lookup};
use super::{Common, ConfigError, Defaulted, Limit, check_range};

impl GptConfig {
    /// Reads and resolves a config; `GptConfig::resolve` (in `graph/gpt_style.rs`, which can build
    /// the graph) adds the check that the sizes together stay within reach.
    pub(crate) fn read(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let desc = lookup(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a described GPT-style type"))?;
        if !value.is_object() {
            return Err(ConfigError::NotObject);
        }
        let k = desc.sizes;
        let mut r = Reader { spec: &desc.keys, value, defaulted: vec![] };
        let vocab_size = r.size(k.vocab, 100_000_000)?;
        let hidden_size = r.size(k.hidden, 1 << 18)?;
        let num_layers = r.size(k.layers, 10_000)?;
        let num_heads = r.size(k.heads, 1 << 16)?;
        if hidden_size % num_heads != 0 {
            return Err(ConfigError::field(
                k.hidden,
                format!("{hidden_size} does not split into {num_heads} heads"),
            ));
        }
        let intermediate_size = match k.ffn {
            Ffn::Key(key) => r.size(key, 1 << 22)?,
            Ffn::KeyOr4x(key) => match r.opt_u(key)? {
                Some(n) => check_range(Limit { field: key, max: 1 << 22 }, n)?,
                None => {
                    r.defaulted.push(Defaulted {
                        field: key,
                        value: format!("null: 4 x {} = {}", k.hidden, 4 * hidden_size),
                    });
                    4 * hidden_size
                }
            },
            Ffn::Times4 => 4 * hidden_size,
            Ffn::HiddenTimes(key) => {
                let times = r.size(key, 1 << 10)?;
                check_range(Limit { field: key, max: 1 << 22 }, hidden_size * times)?
            }
        };
        let max_position_embeddings = r.size(k.positions, 1 << 30)?;
        let embed_width = match desc.embed_width_key {
            None => hidden_size,
            Some(key) => match r.opt_u(key)? {
                Some(w) => check_range(Limit { field: key, max: 1 << 18 }, w)?,
                None => {
                    r.defaulted
                        .push(Defaulted { field: key, value: format!("null: {} = {hidden_size}", k.hidden) });
                    hidden_size
                }
            },
        };
        let rotary_ndims = match desc.positions {
            Positions::RotaryPct(key) => {
                let pct = r.float(key)?;
                if !(0.0..=1.0).contains(&pct) {
                    return Err(ConfigError::field(key, format!("{pct} is not a fraction of the head")));
                }
                Some(((hidden_size / num_heads) as f64 * pct) as u64)
            }
            _ => None,
        };
        // A LayerNorm the class builds without an eps keeps torch's 1e-5.
        let norm_eps = match k.eps {
            Some(key) => r.float(key)?,
            None => 1e-5,
        };
        let activation = match k.act {
            Act::Key(key) => r.string(key)?,
            Act::Fixed(act) => act.to_string(),
        };
        let tie_word_embeddings = r.flag("tie_word_embeddings")?;
        let (parallel, post_norm) = match desc.residual {
            Residual::TwoNorms(key) => (r.flag(key)?, false),
            Residual::PreOrPost(key) => (false, !r.flag(key)?),
            Residual::Parallel => (true, false),
            Residual::Sequential => (false, false),
            Residual::PostNorm => (false, true),
        };
        let final_norm = desc.final_norm.is_some()
            && !(matches!(desc.residual, Residual::PreOrPost(_))
                && (post_norm || r.flag("_remove_final_layer_norm")?));
        let affine = match desc.affine_key {
            Some(key) => r.flag(key)?,
            None => true,
        };
        let pad_token_id = r.opt_u("pad_token_id")?;
        let qkv_bias = r.bias(desc.qkv_bias)?;
        let out_bias = r.bias(desc.out_bias)?;
        let mlp_bias = r.bias(desc.mlp_bias)?;
        let lm_bias = r.bias(desc.lm_bias)?;
        let scale_embedding = match desc.scale_key {
            Some(key) => r.flag(key)?,
            None => false,
        };
        let cross_attention = r.bias(desc.cross)?;
        let cross_width = match desc.cross_width_key.filter(|_| cross_attention) {
            Some(key) => match r.opt_u(key)? {
                Some(w) => check_range(Limit { field: key, max: 1 << 18 }, w)?,
                None => hidden_size,
            },
            None => hidden_size,
        };
        let learned_positions = match desc.positions {
            Positions::Learned { .. } => true,
            Positions::LearnedIf { key, .. } => r.flag(key)?,
            _ => false,
        };
        let embed_norm = desc.embed_norm.is_some()
            && match desc.embed_norm_key {
                Some(key) => r.flag(key)?,
                None => true,
            };
        let qk_norm = match desc.qk_norm_key {
            Some(key) => r.flag(key)?,
            None => false,
        };
        let windows = match desc.window {
            GptWindow::None => vec![None; num_layers as usize],
            GptWindow::NeoTypes => neo_windows(&mut r, num_layers)?,
        };
        let mut d = r.defaulted;
        // Defaults are listed in the order of the class's keys, whatever order they were read in.
        let rank = |f: &str| desc.keys.keys.iter().position(|(k, _)| *k == f).unwrap_or(usize::MAX);
        crate::sort::stable_by(&mut d, &|x, y| rank(x.field).cmp(&rank(y.field)));
        let (class, head) = head(&desc.keys, common, value, &mut d)?;
        Ok(GptConfig {
            model_type: common.model_type.clone(),
            desc,
            class,
            head,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            norm_eps,
            activation,
            tie_word_embeddings,
            pad_token_id,
            qkv_bias,
            out_bias,
            mlp_bias,
            lm_bias,
            scale_embedding,
            cross_attention,
            qk_norm,
            cross_width,
            learned_positions,
            embed_norm,
            rotary_ndims,
            parallel,
            embed_width,
            affine,
            post_norm,
            final_norm,
            windows,
            defaulted: d,
        })
    }

    pub fn head_dim(&self) -> u64 {
        self.hidden_size / self.num_heads
    }
}

/// GPT-Neo's layer kinds: `attention_types` expands `[[kinds], n]` into the kinds repeated n
/// times, which `GPTNeoConfig` requires to cover exactly `num_layers` layers.
fn neo_windows(r: &mut Reader, layers: u64) -> Result<Vec<Option<u64>>, ConfigError> {
    const KEY: &str = "attention_types";
    let window = r.size("window_size", 1 << 30)?;
    let kinds: Vec<String> = match r.raw(KEY) {
        None => {
            r.defaulted.push(Defaulted { field: KEY, value: r#"[[["global", "local"], 12]]"#.into() });
            ["global", "local"].iter().cycle().take(24).map(|s| s.to_string()).collect()
        }
        Some(v) => {
            let bad = || ConfigError::field(KEY, format!("expected [[[kinds...], repeats], ...], found {v}"));
            let mut out = vec![];
            for item in v.as_array().ok_or_else(bad)? {
                let pair = item.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
                let kinds = pair[0].as_array().ok_or_else(bad)?;
                let n = pair[1].as_u64().filter(|n| *n <= 10_000).ok_or_else(bad)?;
                for _ in 0..n {
                    for kind in kinds {
                        out.push(kind.as_str().ok_or_else(bad)?.to_string());
                        if out.len() > 10_000 {
                            return Err(bad());
                        }
                    }
                }
            }
            out
        }
    };
    if kinds.len() as u64 != layers {
        return Err(ConfigError::field(
            KEY,
            format!("expands to {} layer kinds, but num_layers is {layers}", kinds.len()),
        ));
    }
    kinds
        .iter()
        .map(|k| match k.as_str() {
            "global" => Ok(None),
            "local" => Ok(Some(window)),
            other => {
                Err(ConfigError::field(KEY, format!("unknown attention type {other:?} (global or local)")))
            }
        })
        .collect()
}
