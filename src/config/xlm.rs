//! XLM (Lample and Conneau, 2019) and FlauBERT, which copies its modules under its own names:
//! learned (or sinusoid-initialised) positions, optional language embeddings, post-LN layers of
//! `4 x emb_dim`, and heads of their own (a prediction layer, optionally an adaptive softmax; a
//! sequence summary; XLNet's SQuAD head). Defaults are those of transformers 5.24's `XLMConfig`
//! and `FlaubertConfig` (FlauBERT's `pre_norm` and `layerdrop` move or skip layers: no weights).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, flag, num_labels};

/// The classes each type defines, by suffix after its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum XlmHead {
    Model,
    /// `WithLMHeadModel`: `pred_layer.proj`.
    LmHead,
    /// The sequence summary (a projection to the labels by default).
    SequenceClassification,
    /// The sequence summary, then `logits_proj` from the labels to one score.
    MultipleChoice,
    TokenClassification,
    /// `ForQuestionAnsweringSimple`: `qa_outputs`.
    QuestionAnsweringSimple,
    /// `ForQuestionAnswering`: XLNet's SQuAD head (start, end and answer-class poolers).
    QuestionAnswering,
}

const CLASSES: [(&str, XlmHead); 7] = [
    ("Model", XlmHead::Model),
    ("WithLMHeadModel", XlmHead::LmHead),
    ("ForSequenceClassification", XlmHead::SequenceClassification),
    ("ForMultipleChoice", XlmHead::MultipleChoice),
    ("ForTokenClassification", XlmHead::TokenClassification),
    ("ForQuestionAnsweringSimple", XlmHead::QuestionAnsweringSimple),
    ("ForQuestionAnswering", XlmHead::QuestionAnswering),
];

/// The config keys (`attribute_map` names are read as aliases by the caller).
const SIZES: [SizeKey; 5] = [
    ("vocab_size", 30145, VOCAB),
    ("emb_dim", 2048, WIDTH),
    ("n_layers", 12, LAYERS),
    ("n_heads", 16, HEADS),
    ("max_position_embeddings", 512, POSITIONS),
];

#[derive(Debug, Deserialize)]
struct Raw {
    n_langs: Option<Value>,
    use_lang_emb: Option<bool>,
    asm: Option<bool>,
    asm_cutoffs: Option<Vec<Value>>,
    asm_div_value: Option<f64>,
    summary_use_proj: Option<bool>,
    summary_proj_to_labels: Option<bool>,
    gelu_activation: Option<bool>,
    layer_norm_eps: Option<f64>,
    pad_token_id: Option<u64>,
    tie_word_embeddings: Option<bool>,
    is_encoder: Option<bool>,
}

/// `AdaptiveLogSoftmaxWithLoss`: the head over the shortlist and one logit per cluster, and per
/// cluster a projection to `dim / div^(i+1)` and its output rows.
#[derive(Debug, Clone, Serialize)]
pub struct Asm {
    pub head_rows: u64,
    /// (projection width, output rows) per cluster.
    pub clusters: Vec<(u64, u64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct XlmConfig {
    pub class: String,
    pub head: XlmHead,
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub max_position_embeddings: u64,
    /// Rows of `lang_embeddings` (`n_langs` when above 1 and `use_lang_emb`).
    pub languages: Option<u64>,
    pub asm: Option<Asm>,
    /// The sequence summary's projection width (None: no projection).
    pub summary: Option<u64>,
    pub gelu: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub defaulted: Vec<Defaulted>,
}

impl XlmConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = super::deserialize_raw(value)?;
        // XLMModel and FlaubertModel raise NotImplementedError when is_encoder is false.
        if raw.is_encoder == Some(false) {
            return Err(ConfigError::field(
                "is_encoder",
                "false: transformers' XLM can only be used as an encoder",
            ));
        }
        let mut d = Vec::new();
        let v = own_names(
            value,
            &[
                ("hidden_size", "emb_dim"),
                ("num_attention_heads", "n_heads"),
                ("num_hidden_layers", "n_layers"),
                ("n_words", "vocab_size"),
            ],
        );
        let [vocab_size, hidden_size, num_layers, num_heads, max_position_embeddings] =
            sizes(&v, SIZES, &mut d)?;
        let n_langs = match &raw.n_langs {
            Some(Value::Number(n)) if n.as_u64() == Some(0) => 0,
            _ => sizes(value, [("n_langs", 1, TABLE)], &mut d)?[0],
        };
        let use_lang_emb = flag("use_lang_emb", raw.use_lang_emb, true, &mut d);
        let languages = (n_langs > 1 && use_lang_emb).then_some(n_langs);
        let prefix = if common.model_type == "flaubert" { "Flaubert" } else { "XLM" };
        let (class, head, num_labels) = head_and_labels(value, common, prefix, &CLASSES, &mut d)?;
        let use_proj = flag("summary_use_proj", raw.summary_use_proj, true, &mut d);
        let to_labels = flag("summary_proj_to_labels", raw.summary_proj_to_labels, true, &mut d);
        let summary = use_proj.then_some(if to_labels && num_labels > 0 { num_labels } else { hidden_size });
        let asm = match (flag("asm", raw.asm, false, &mut d), head) {
            (true, XlmHead::LmHead) => Some(asm(&raw, hidden_size, vocab_size)?),
            _ => None,
        };
        Ok(XlmConfig {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            max_position_embeddings,
            languages,
            asm,
            summary,
            gelu: raw.gelu_activation.unwrap_or(true),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            pad_token_id: raw.pad_token_id.unwrap_or(2),
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-12),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::encoders::encoder_dims!(self, 4 * self.hidden_size, self.max_position_embeddings)
    }
}

/// A copy of the file with each `attribute_map` name's value under the class's own key: the
/// standard names win where a file writes both.
pub(crate) fn own_names(value: &Value, pairs: &[(&str, &str)]) -> Value {
    let mut v = value.clone();
    for (standard, own) in pairs {
        if let (Some(x), Some(map)) = (value.get(*standard).filter(|x| !x.is_null()), v.as_object_mut()) {
            map.insert((*own).into(), x.clone());
        }
    }
    v
}

/// The class a file names (or the base model), its head among `classes` (by suffix after
/// `prefix`), and the labels it is sized by: checked for the classifiers, the file's otherwise.
pub(crate) fn head_and_labels(
    value: &Value,
    common: &Common,
    prefix: &str,
    classes: &[(&str, XlmHead)],
    d: &mut Vec<Defaulted>,
) -> Result<(String, XlmHead, u64), ConfigError> {
    let class = class_or(common, &format!("{prefix}Model"), d);
    let head = class
        .strip_prefix(prefix)
        .and_then(|rest| classes.iter().find(|(s, _)| *s == rest))
        .map(|(_, h)| *h)
        .ok_or_else(|| super::read::unknown_class(&class))?;
    let labels = num_labels(value)?;
    let num_labels = match head {
        XlmHead::Model | XlmHead::LmHead | XlmHead::QuestionAnswering => labels.0,
        _ => classifier_labels(labels, d)?,
    };
    Ok((class, head, num_labels))
}

/// The adaptive softmax's sizes, refused where `AdaptiveLogSoftmaxWithLoss` refuses them. The
/// config classes have no default for `asm_cutoffs` or `asm_div_value`: a file must give both.
fn asm(raw: &Raw, dim: u64, vocab: u64) -> Result<Asm, ConfigError> {
    let (Some(cutoffs), Some(div)) = (&raw.asm_cutoffs, raw.asm_div_value) else {
        return Err(ConfigError::field(
            "asm",
            "true without asm_cutoffs and asm_div_value, which the class needs",
        ));
    };
    let cutoffs: Vec<u64> = cutoffs.iter().filter_map(Value::as_u64).take(64).collect();
    let sorted = cutoffs.windows(2).all(|w| w[0] < w[1]);
    let within = cutoffs.first().is_some_and(|c| *c > 0) && cutoffs.last().is_some_and(|c| *c < vocab);
    if cutoffs.len() != raw.asm_cutoffs.as_ref().map_or(0, Vec::len) || !sorted || !within || vocab < 2 {
        let why = "must be increasing integers between 1 and vocab_size - 1";
        return Err(ConfigError::field("asm_cutoffs", why));
    }
    if !(div.is_finite() && div >= 1.0) {
        return Err(ConfigError::field("asm_div_value", "must be a number of at least 1"));
    }
    let ends: Vec<u64> = cutoffs.iter().copied().chain([vocab]).collect();
    let clusters = (0..cutoffs.len())
        .map(|i| ((dim as f64 / div.powi(i as i32 + 1)).floor() as u64, ends[i + 1] - ends[i]))
        .collect();
    Ok(Asm { head_rows: cutoffs[0] + cutoffs.len() as u64, clusters })
}
