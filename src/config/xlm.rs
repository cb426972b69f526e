//! XLM (`xlm`, Lample and Conneau, 2019): a post-LN encoder with learned positions, optional
//! language embeddings (`n_langs` > 1 and `use_lang_emb`), a `4 x emb_dim` feed-forward, a tied
//! `pred_layer` and SequenceSummary or SQuAD heads (XLNet's, `config/xlnet.rs`). Built by
//! `graph/xlm.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::xlnet::{XlnetHead, aliased_sizes, head_of, summary_width};
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, flag, num_labels, size};

#[derive(Debug, Deserialize)]
struct Raw {
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

impl XlmConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let class = class_or(common, "XLMModel", &mut d);
        let labels = num_labels(value)?;
        let head = head_of(&class, ("XLM", "WithLMHeadModel"), labels, &mut d)?;
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
        let own = ["vocab_size", "emb_dim", "n_layers", "n_heads"];
        let [vocab_size, dim, n_layers, n_heads] =
            aliased_sizes(value, ("n_words", own), [30145, 2048, 12, 16], &mut d)?;
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
