//! LFM3 as a description (see `config/spec.rs`): LFM2's gated short convolutions on the layers
//! `layer_types` marks `conv`, and among them full and sliding-window attention (Qwen3's, with
//! per-head q/k norms and a sigmoid gate per head from `g_proj`); norms after the mixer and the
//! MLP as well as before them (`use_sandwich_norm`); a plain gated MLP of `intermediate_size`.
//! Defaults are those of transformers 5.x's `Lfm3Config`.

use super::spec::{Attn, Bias, Dv, HeadKind, Linear, QkNorm, Reader, Slot, Spec, SwitchedNorms};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::LinearDims;
use super::{ConfigError, Defaulted};
use Dv::{B, F, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "lfm3",
    classes: &[("Lfm3Model", Model), ("Lfm3ForCausalLM", CausalLm)],
    keys: keys![sizes(128_000, 2048, 7680, 24, 16, U(4), U(128), 128_000), norm_eps: F(1e-5),
        pad_token_id: U(124_893), tie_word_embeddings: B(true), conv_bias: B(false), conv_L_cache: U(7),
        sliding_window: U(256), use_sandwich_norm: B(true), use_attention_gate: B(true),
        attention_bias: B(false)],
    aliases: &[("rms_norm_eps", "norm_eps")],
    eps_key: "norm_eps",
    qkv_bias: Bias::Key("attention_bias"),
    o_bias: Bias::Key("attention_bias"),
    qk_norm: QkNorm::PerHead,
    layer_norms: &[("operator_norm", Slot::Before), ("ffn_norm", Slot::Between)],
    switched_norms: Some(SwitchedNorms {
        key: "use_sandwich_norm",
        when: true,
        norms: &[("post_operator_norm", Slot::Between), ("post_ffn_norm", Slot::After)],
    }),
    attn: Attn::HeadGate,
    linear: Linear::ShortConvTyped,
    ..BASE
}];

/// What each layer is: `layer_types` when listed, else Lfm3Config's pattern (full attention
/// where `i % 4 == 2`, sliding where `i % 4 == 0` past the first, convolutions elsewhere).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Conv,
    Full,
    Sliding,
}

fn kinds(r: &mut Reader, layers: u64) -> Result<Vec<Kind>, ConfigError> {
    let n = layers as usize;
    let Some(v) = r.raw("layer_types").cloned() else {
        r.defaulted.push(Defaulted {
            field: "layer_types",
            value: "full attention where i % 4 == 2, sliding where i % 4 == 0 and i > 0, else conv".into(),
        });
        return Ok((0..layers)
            .map(|i| match i % 4 {
                2 => Kind::Full,
                0 if i > 0 => Kind::Sliding,
                _ => Kind::Conv,
            })
            .collect());
    };
    let bad = || {
        ConfigError::field(
            "layer_types",
            format!("expected {n} of conv, full_attention or sliding_attention"),
        )
    };
    let list = v.as_array().filter(|l| l.len() == n).ok_or_else(bad)?;
    list.iter()
        .map(|t| match t.as_str() {
            Some("conv") => Ok(Kind::Conv),
            Some("full_attention") => Ok(Kind::Full),
            Some("sliding_attention") => Ok(Kind::Sliding),
            _ => Err(bad()),
        })
        .collect()
}

/// LFM3's short convolution (`conv_L_cache` wide, `conv_bias`) and which layers hold it. Its
/// only state is the convolution's window over the hidden channels.
pub(crate) fn short_conv(r: &mut Reader, layers: u64) -> Result<(LinearDims, Vec<bool>), ConfigError> {
    if !r.flag("use_attention_gate")? {
        // The description always gives its attention the gate; without it the count would be
        // wrong, so such a file is refused rather than miscounted.
        return Err(ConfigError::field(
            "use_attention_gate",
            "false is not planned yet: the attention is described with its g_proj gate",
        ));
    }
    let dims = LinearDims {
        key_heads: 0,
        key_dim: 0,
        value_heads: 1,
        value_dim: r.size("hidden_size", 1 << 18)?,
        conv_kernel: r.size("conv_L_cache", 1024)?,
        bias: r.flag("conv_bias")?,
    };
    Ok((dims, kinds(r, layers)?.into_iter().map(|k| k == Kind::Conv).collect()))
}

/// The attention window per layer for LFM3 (`sliding_window` on its sliding layers; null means
/// full); None for every other type, whose windows the shared reader gives.
pub(crate) fn typed_windows(
    r: &mut Reader,
    spec: &Spec,
    layers: u64,
) -> Result<Option<Vec<Option<u64>>>, ConfigError> {
    if spec.linear != Linear::ShortConvTyped {
        return Ok(None);
    }
    let w = match r.opt_u("sliding_window")? {
        Some(w) => Some(super::check_range(super::Limit { field: "sliding_window", max: 1 << 30 }, w)?),
        None => None,
    };
    // `kinds` records its default once already, from `short_conv`.
    let before = r.defaulted.len();
    let kinds = kinds(r, layers)?;
    r.defaulted.truncate(before);
    Ok(Some(kinds.into_iter().map(|k| if k == Kind::Sliding { w } else { None }).collect()))
}
