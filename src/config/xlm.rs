//! XLM (`xlm`, Lample and Conneau, 2019): a post-LN encoder with learned positions, optional
//! language embeddings (`n_langs` > 1 and `use_lang_emb`), a `4 x emb_dim` feed-forward, a tied
//! `pred_layer` and SequenceSummary or SQuAD heads (XLNet's, `config/xlnet.rs`). Built by
//! `graph/xlm.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::xlnet::{XlnetHead, aliased_size, dividing_heads, summary_width};
use super::{
    Common, ConfigError, Defaulted, class_or, classifier_labels, deserialize_raw, flag, num_labels, size,
};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    n_words: Option<u64>,
    emb_dim: Option<u64>,
    hidden_size: Option<u64>,
    n_layers: Option<u64>,
    num_hidden_layers: Option<u64>,
    n_heads: Option<u64>,
    num_attention_heads: Option<u64>,
    n_langs: Option<u64>,
    use_lang_emb: Option<bool>,
    max_position_embeddings: Option<u64>,
    asm: Option<bool>,
    is_encoder: Option<bool>,
    summary_type: Option<String>,
    summary_use_proj: Option<bool>,
    summary_proj_to_labels: Option<bool>,
    tie_word_embeddings: Option<bool>,
}

#[derive(Debug, Clone)]
pub struct XlmConfig {
    pub class: String,
    /// XLNet's head kinds: `Lm` is `pred_layer.proj`; `Summary { outputs: 0 }` the
    /// `sequence_summary` alone (its output is the logits), `Summary { outputs: n }` multiple
    /// choice, with `logits_proj` from the n = `num_labels` summary outputs to 1; `Squad` under
    /// `qa_outputs.`.
    pub head: XlnetHead,
    pub vocab_size: u64,
    pub dim: u64,
    pub n_layers: u64,
    pub n_heads: u64,
    pub max_position_embeddings: u64,
    /// Rows of `lang_embeddings`; None when the model has none.
    pub languages: Option<u64>,
    pub summary_width: Option<u64>,
    pub num_labels: u64,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

fn head_of(class: &str, labels: (u64, bool), d: &mut Vec<Defaulted>) -> Result<XlnetHead, ConfigError> {
    let mut labels = || classifier_labels(labels, d);
    Ok(match class.strip_prefix("XLM") {
        Some("Model") => XlnetHead::None,
        Some("WithLMHeadModel") => XlnetHead::Lm,
        Some("ForSequenceClassification") => {
            labels()?;
            XlnetHead::Summary { outputs: 0 }
        }
        Some("ForMultipleChoice") => XlnetHead::Summary { outputs: labels()? },
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

impl XlmConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "XLMModel", &mut d);
        let labels = num_labels(value)?;
        let head = head_of(&class, labels, &mut d)?;
        if raw.is_encoder == Some(false) {
            return Err(ConfigError::field(
                "is_encoder",
                "false: transformers' XLM can only be used as an encoder",
            ));
        }
        if raw.asm == Some(true) && head == XlnetHead::Lm {
            return Err(ConfigError::field(
                "asm",
                "true: an adaptive softmax head (asm_cutoffs) the planner does not count yet",
            ));
        }
        let (_, vocab_size) = aliased_size(
            ("n_words", raw.n_words),
            ("vocab_size", raw.vocab_size),
            (30145, 100_000_000),
            &mut d,
        )?;
        let (_, dim) = aliased_size(
            ("hidden_size", raw.hidden_size),
            ("emb_dim", raw.emb_dim),
            (2048, 1 << 18),
            &mut d,
        )?;
        let (_, n_layers) = aliased_size(
            ("num_hidden_layers", raw.num_hidden_layers),
            ("n_layers", raw.n_layers),
            (12, 10_000),
            &mut d,
        )?;
        let heads = aliased_size(
            ("num_attention_heads", raw.num_attention_heads),
            ("n_heads", raw.n_heads),
            (16, 1 << 16),
            &mut d,
        )?;
        let n_heads = dividing_heads(heads, dim)?;
        let n_langs = size("n_langs", raw.n_langs, 1, 1 << 16, &mut d)?;
        let languages =
            (flag("use_lang_emb", raw.use_lang_emb, true, &mut d) && n_langs > 1).then_some(n_langs);
        let summary = (raw.summary_type.as_deref(), raw.summary_use_proj, raw.summary_proj_to_labels);
        let positions = size("max_position_embeddings", raw.max_position_embeddings, 512, 1 << 30, &mut d)?;
        Ok(XlmConfig {
            head,
            vocab_size,
            dim,
            n_layers,
            n_heads,
            max_position_embeddings: positions,
            languages,
            summary_width: summary_width(summary, (true, true), labels.0, dim, &mut d)?,
            num_labels: labels.0,
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            class,
            defaulted: d,
        })
    }
}
