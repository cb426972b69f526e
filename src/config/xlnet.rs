//! XLNet (`xlnet`, Yang et al., 2019): a permutation language model whose layers hold
//! Transformer-XL's relative attention as bare `[d_model, n_head, d_head]` parameters (`q`, `k`,
//! `v`, `o`, `r`), three position/content biases and segment embeddings per head, then a
//! post-LN feed-forward. Its heads pool through `sequence_summary` (`summary_use_proj`,
//! `summary_proj_to_labels`) or SQuAD 2.0's start/end/answer poolers. Built by `graph/xlnet.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::{
    Common, ConfigError, Defaulted, class_or, classifier_labels, deserialize_raw, flag, num_labels, size,
};

#[derive(Debug, Deserialize)]
struct Raw {
    d_inner: Option<u64>,
    d_head: Option<u64>,
    ff_activation: Option<String>,
    summary_type: Option<String>,
    summary_use_proj: Option<bool>,
    summary_proj_to_labels: Option<bool>,
    tie_word_embeddings: Option<bool>,
}

/// The classes `modeling_xlnet.py` exports, by what they put on `transformer.`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XlnetHead {
    None,
    /// `lm_loss`: tied to `word_embedding` unless the file unties it; its bias always its own.
    Lm,
    /// `sequence_summary` then `logits_proj` (hidden to `num_labels`, or to 1 for multiple choice).
    Summary {
        outputs: u64,
    },
    /// `classifier` or `qa_outputs`: hidden to `num_labels`.
    PerToken {
        outputs: u64,
        name: &'static str,
    },
    /// SQuAD 2.0's `start_logits`, `end_logits` and `answer_class` poolers.
    Squad,
}

#[derive(Debug, Clone)]
pub struct XlnetConfig {
    pub class: String,
    pub head: XlnetHead,
    pub vocab_size: u64,
    pub d_model: u64,
    pub n_layer: u64,
    pub n_head: u64,
    pub d_head: u64,
    pub d_inner: u64,
    /// `sequence_summary.summary`'s width when `summary_use_proj`: `num_labels` with
    /// `summary_proj_to_labels`, else hidden; None: no projection.
    pub summary_width: Option<u64>,
    pub tie_word_embeddings: bool,
    /// `mem_len`: the hidden states each layer keeps for the next step (None or 0: all of them).
    pub mem_len: Option<u64>,
    pub ff_activation: String,
    pub defaulted: Vec<Defaulted>,
}

/// The head of an XLNet (`prefix` "XLNet") or XLM ("XLM") class. XLM's sequence classifier is
/// the summary alone (`outputs: 0`) and its multiple choice projects `num_labels` summary outputs
/// to one logit; XLNet's projects hidden to `num_labels`, or to 1 for multiple choice.
pub(crate) fn head_of(
    class: &str,
    (prefix, lm): (&str, &str),
    labels: (u64, bool),
    d: &mut Vec<Defaulted>,
) -> Result<XlnetHead, ConfigError> {
    let xlm = prefix == "XLM";
    let mut labels = || classifier_labels(labels, d);
    Ok(match class.strip_prefix(prefix) {
        Some("Model") => XlnetHead::None,
        Some(s) if s == lm => XlnetHead::Lm,
        Some("ForSequenceClassification") => {
            let n = labels()?;
            XlnetHead::Summary { outputs: if xlm { 0 } else { n } }
        }
        Some("ForMultipleChoice") => XlnetHead::Summary { outputs: if xlm { labels()? } else { 1 } },
        Some("ForTokenClassification") => XlnetHead::PerToken { outputs: labels()?, name: "classifier" },
        Some("ForQuestionAnsweringSimple") => XlnetHead::PerToken { outputs: labels()?, name: "qa_outputs" },
        Some("ForQuestionAnswering") => XlnetHead::Squad,
        _ => {
            return Err(ConfigError::field(
                "architectures[0]",
                format!("class {class} is not one the planner knows for this family"),
            ));
        }
    })
}

/// `sequence_summary.summary`'s width (XLNet's and XLM's `SequenceSummary`): `num_labels` when
/// `summary_proj_to_labels` and positive, else hidden; None without `summary_use_proj`. `"attn"`
/// raises NotImplementedError in transformers. `defaults`: the class's (use_proj, to_labels).
pub(crate) fn summary_width(
    (kind, use_proj, to_labels): (Option<&str>, Option<bool>, Option<bool>),
    defaults: (bool, bool),
    labels: u64,
    hidden: u64,
    d: &mut Vec<Defaulted>,
) -> Result<Option<u64>, ConfigError> {
    if let Some(t) = kind.filter(|t| *t == "attn") {
        return Err(ConfigError::field("summary_type", format!("{t:?}: transformers does not build it")));
    }
    let to_labels = to_labels.unwrap_or(defaults.1);
    Ok(flag("summary_use_proj", use_proj, defaults.0, d).then_some(if to_labels && labels > 0 {
        labels
    } else {
        hidden
    }))
}

/// The four sizes XLNet and XLM read under their own names or `attribute_map`'s standard ones
/// (`vocab_alias`, `hidden_size`, `num_hidden_layers`, `num_attention_heads`, which win when
/// present): vocabulary, width, layers and heads, the heads dividing the width.
pub(crate) fn aliased_sizes(
    value: &Value,
    (vocab_alias, own): (&'static str, [&'static str; 4]),
    defaults: [u64; 4],
    d: &mut Vec<Defaulted>,
) -> Result<[u64; 4], ConfigError> {
    let aliases = [vocab_alias, "hidden_size", "num_hidden_layers", "num_attention_heads"];
    let limits = [100_000_000, 1 << 18, 10_000, 1 << 16];
    let mut out = [0; 4];
    let mut heads_field = own[3];
    for k in 0..4 {
        let field = if value.get(aliases[k]).is_some() { aliases[k] } else { own[k] };
        let v =
            match value.get(field) {
                None => None,
                Some(v) => Some(v.as_u64().ok_or_else(|| {
                    ConfigError::field(field, format!("expected a whole number, found {v}"))
                })?),
            };
        out[k] = size(field, v, defaults[k], limits[k], d)?;
        heads_field = field;
    }
    dividing_heads((heads_field, out[3]), out[1])?;
    Ok(out)
}

/// Heads read from `field` that must divide `width`, as the modeling files assert.
pub(crate) fn dividing_heads((field, heads): (&'static str, u64), width: u64) -> Result<u64, ConfigError> {
    if !width.is_multiple_of(heads) {
        return Err(ConfigError::field(
            field,
            format!("{heads} heads do not divide the hidden size {width}"),
        ));
    }
    Ok(heads)
}

impl XlnetConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "XLNetModel", &mut d);
        let labels = num_labels(value)?;
        let head = head_of(&class, ("XLNet", "LMHeadModel"), labels, &mut d)?;
        // XLNetConfig.validate_architecture: heads divide d_model and d_head is their quotient.
        let own = ["vocab_size", "d_model", "n_layer", "n_head"];
        let [vocab_size, d_model, n_layer, n_head] =
            aliased_sizes(value, ("n_token", own), [32000, 1024, 24, 16], &mut d)?;
        let d_head = d_model / n_head;
        if let Some(given) = raw.d_head.filter(|&g| g != d_head) {
            return Err(ConfigError::field("d_head", format!("{given} is not d_model / n_head ({d_head})")));
        }
        let d_inner = size("d_inner", raw.d_inner, 4096, 1 << 22, &mut d)?;
        let summary = (raw.summary_type.as_deref(), raw.summary_use_proj, raw.summary_proj_to_labels);
        let summary_width = summary_width(summary, (true, false), labels.0, d_model, &mut d)?;
        let mem_len = match value.get("mem_len") {
            None => {
                d.push(Defaulted { field: "mem_len", value: "512".into() });
                Some(512)
            }
            Some(Value::Null) => None,
            Some(v) => match v.as_u64() {
                Some(n) if n > 1 << 30 => {
                    return Err(ConfigError::field(
                        "mem_len",
                        format!("{n} is beyond any real model (at most 2^30)"),
                    ));
                }
                Some(n) => Some(n).filter(|&n| n > 0),
                None => {
                    return Err(ConfigError::field(
                        "mem_len",
                        format!("expected a whole number or null, found {v}"),
                    ));
                }
            },
        };
        Ok(XlnetConfig {
            class,
            head,
            vocab_size,
            d_model,
            n_layer,
            n_head,
            d_head,
            d_inner,
            summary_width,
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            mem_len,
            ff_activation: raw.ff_activation.unwrap_or_else(|| {
                d.push(Defaulted { field: "ff_activation", value: "gelu".into() });
                "gelu".into()
            }),
            defaulted: d,
        })
    }
}
