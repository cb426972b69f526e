//! Reading the switches issue 10's enc4 rows added: narrower embedding tables (RemBERT,
//! RoFormer) and RoCBert's pronunciation and shape tables.

use super::{EncoderDesc, VOCAB, WIDTH, sizes};
use crate::config::{ConfigError, Defaulted, flag};

/// RoCBert's extra tables: rows and width of each, and the input width of `map_inputs_layer`
/// (None when `concat_input` is off and the embeddings are summed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Glyphs {
    pub pronunciation_vocab: u64,
    pub pronunciation_dim: u64,
    pub shape_vocab: u64,
    pub shape_dim: u64,
    pub map_inputs: Option<u64>,
}

/// A boolean key: the default when absent or null, an error naming it when not a boolean.
pub(crate) fn boolean(
    value: &serde_json::Value,
    key: &'static str,
    default: bool,
    d: &mut Vec<Defaulted>,
) -> Result<bool, ConfigError> {
    let found = match value.get(key).filter(|v| !v.is_null()) {
        Some(v) => Some(
            v.as_bool()
                .ok_or_else(|| ConfigError::field(key, format!("invalid type: {v}, expected a boolean")))?,
        ),
        None => None,
    };
    Ok(flag(key, found, default, d))
}

/// The embedding tables' width, and whether the class projects them to `hidden`.
pub(crate) fn embed_width(
    desc: &EncoderDesc,
    value: &serde_json::Value,
    hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<(u64, bool), ConfigError> {
    let Some(e) = desc.embed_width else { return Ok((hidden, false)) };
    let [width] = sizes(value, [(e.key, e.default.unwrap_or(hidden), WIDTH)], d)?;
    Ok((width, e.always || width != hidden))
}

/// RoCBertConfig's tables: 910 pronunciations of 768, 24,858 shapes of 512, concatenated.
pub(crate) fn glyphs(
    desc: &EncoderDesc,
    value: &serde_json::Value,
    hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Option<Glyphs>, ConfigError> {
    if !desc.glyphs {
        return Ok(None);
    }
    let keys = [
        ("pronunciation_vocab_size", 910, VOCAB),
        ("pronunciation_embed_dim", 768, WIDTH),
        ("shape_vocab_size", 24858, VOCAB),
        ("shape_embed_dim", 512, WIDTH),
    ];
    let [pronunciation_vocab, pronunciation_dim, shape_vocab, shape_dim] = sizes(value, keys, d)?;
    let concat = boolean(value, "concat_input", true, d)?;
    let pronunciation = boolean(value, "enable_pronunciation", true, d)?;
    let shape = boolean(value, "enable_shape", true, d)?;
    // Each width is bounded by WIDTH, so the sum cannot overflow.
    let map_inputs =
        concat.then(|| hidden + u64::from(pronunciation) * pronunciation_dim + u64::from(shape) * shape_dim);
    Ok(Some(Glyphs { pronunciation_vocab, pronunciation_dim, shape_vocab, shape_dim, map_inputs }))
}

/// hidden / heads, or the `head_dim` a rotary encoder's file sets (its attention reads
/// `getattr(config, "head_dim", ...)`).
pub(crate) fn head_dim(
    desc: &EncoderDesc,
    value: &serde_json::Value,
    hidden: u64,
    heads: u64,
) -> Result<u64, ConfigError> {
    let set = value.get("head_dim").filter(|v| !v.is_null() && desc.rotary.is_some());
    match set {
        Some(v) => {
            let n = v.as_u64().ok_or_else(|| {
                ConfigError::field("head_dim", format!("invalid type: {v}, expected a non-negative integer"))
            })?;
            crate::config::check_range(crate::config::Limit { field: "head_dim", max: WIDTH }, n)
        }
        None => Ok(hidden / heads),
    }
}

/// ESM's `position_embedding_type`: whether positions are rotary (else a learned table).
pub(crate) fn rotary_switch(value: Option<&str>, d: &mut Vec<Defaulted>) -> Result<bool, ConfigError> {
    match value {
        None => {
            d.push(Defaulted { field: "position_embedding_type", value: "absolute".into() });
            Ok(false)
        }
        Some("absolute") => Ok(false),
        Some("rotary") => Ok(true),
        Some(other) => {
            Err(ConfigError::field("position_embedding_type", format!("{other:?} is not absolute or rotary")))
        }
    }
}

/// X-MOD's language adapters: one bottleneck MLP per language after each layer's MLP.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Adapters {
    /// `languages`, each once (an `nn.ModuleDict` keeps one module per key).
    pub languages: Vec<String>,
    /// hidden / `adapter_reduction_factor`.
    pub bottleneck: u64,
    /// Its own `adapter_layer_norm` before the adapters.
    pub layer_norm: bool,
    /// `pre_norm`: a final `encoder.LayerNorm` after the stack.
    pub pre_norm: bool,
}

/// XmodConfig's adapters: `["en_XX"]`, a reduction of 2, no own norm, post-LN.
pub(crate) fn adapters(
    desc: &EncoderDesc,
    value: &serde_json::Value,
    hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Option<Adapters>, ConfigError> {
    if !desc.adapters {
        return Ok(None);
    }
    let languages = match value.get("languages").filter(|v| !v.is_null()) {
        None => {
            d.push(Defaulted { field: "languages", value: "[\"en_XX\"]".into() });
            vec!["en_XX".to_string()]
        }
        Some(v) => {
            let list = v.as_array().ok_or_else(|| {
                ConfigError::field(
                    "languages",
                    format!("invalid type: {v}, expected a list of language codes"),
                )
            })?;
            let mut out: Vec<String> = Vec::new();
            for l in list {
                let l = l.as_str().ok_or_else(|| {
                    ConfigError::field("languages", format!("invalid entry: {l}, expected a string"))
                })?;
                if !out.iter().any(|o| o == l) {
                    out.push(l.to_string());
                }
            }
            out
        }
    };
    let [factor] = sizes(value, [("adapter_reduction_factor", 2, WIDTH)], d)?;
    let bottleneck = hidden / factor;
    if bottleneck == 0 {
        return Err(ConfigError::field(
            "adapter_reduction_factor",
            format!("{factor} leaves no width of hidden_size {hidden}"),
        ));
    }
    let layer_norm = boolean(value, "adapter_layer_norm", false, d)?;
    let pre_norm = boolean(value, "pre_norm", false, d)?;
    Ok(Some(Adapters { languages, bottleneck, layer_norm, pre_norm }))
}

/// SqueezeBERT's group counts, in the order its modules are built: q, k, v, post-attention,
/// intermediate and output convolutions.
pub const GROUP_KEYS: [&str; 6] =
    ["q_groups", "k_groups", "v_groups", "post_attention_groups", "intermediate_groups", "output_groups"];

/// SqueezeBertConfig's groups (4, 4, 4, 1, 4, 4), each dividing its convolution's channels, and
/// its `embedding_size`, which its encoder requires to equal the hidden size.
pub(crate) fn groups(
    desc: &EncoderDesc,
    value: &serde_json::Value,
    hidden: u64,
    ffn: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Option<[u64; 6]>, ConfigError> {
    if !desc.grouped {
        return Ok(None);
    }
    let [embedding] = sizes(value, [("embedding_size", 768, WIDTH)], d)?;
    if embedding != hidden {
        return Err(ConfigError::field(
            "embedding_size",
            format!(
                "{embedding} differs from hidden_size {hidden}, which SqueezeBertEncoder requires it to equal"
            ),
        ));
    }
    let [a, b, c, e, f, g] = GROUP_KEYS;
    let keys = [(a, 4, WIDTH), (b, 4, WIDTH), (c, 4, WIDTH), (e, 1, WIDTH), (f, 4, WIDTH), (g, 4, WIDTH)];
    let groups = sizes(value, keys, d)?;
    // Each convolution's input and output channels: h -> h four times, h -> ffn, ffn -> h.
    let channels = [
        (hidden, hidden),
        (hidden, hidden),
        (hidden, hidden),
        (hidden, hidden),
        (hidden, ffn),
        (ffn, hidden),
    ];
    for ((key, n), (i, o)) in GROUP_KEYS.iter().zip(groups).zip(channels) {
        if i % n != 0 || o % n != 0 {
            return Err(ConfigError::field(
                *key,
                format!("{n} groups do not divide {i} input and {o} output channels"),
            ));
        }
    }
    Ok(Some(groups))
}

/// ConvBERT's mixed attention: `heads` self-attention heads of `head_size` beside as many
/// span-based convolution heads of `kernel`, and the MLP's `groups`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SpanConv {
    pub heads: u64,
    pub head_size: u64,
    pub kernel: u64,
    pub groups: u64,
}

/// ConvBertConfig's `head_ratio` 2 (heads / ratio, at least one), `conv_kernel_size` 9 and
/// `num_groups` 1.
pub(crate) fn span_conv(
    desc: &EncoderDesc,
    value: &serde_json::Value,
    [hidden, heads, ffn]: [u64; 3],
    d: &mut Vec<Defaulted>,
) -> Result<Option<SpanConv>, ConfigError> {
    if !desc.span_conv {
        return Ok(None);
    }
    let keys = [("head_ratio", 2, WIDTH), ("conv_kernel_size", 9, WIDTH), ("num_groups", 1, WIDTH)];
    let [ratio, kernel, groups] = sizes(value, keys, d)?;
    let heads = (heads / ratio).max(1);
    if hidden % heads != 0 {
        let reason = format!("hidden_size {hidden} is not divisible by the {heads} heads head_ratio leaves");
        return Err(ConfigError::field("num_attention_heads", reason));
    }
    if hidden % groups != 0 || ffn % groups != 0 {
        let reason =
            format!("{groups} groups do not divide hidden_size {hidden} and intermediate_size {ffn}");
        return Err(ConfigError::field("num_groups", reason));
    }
    Ok(Some(SpanConv { heads, head_size: hidden / heads / 2, kernel, groups }))
}
