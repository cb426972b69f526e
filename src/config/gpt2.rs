//! GPT-2 (`gpt2`), with the defaults of transformers' `GPT2Config` and its `attribute_map`
//! (`hidden_size` -> `n_embd`, `max_position_embeddings` -> `n_positions`,
//! `num_attention_heads` -> `n_head`, `num_hidden_layers` -> `n_layer`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::alias_or;
use super::decoder::{Classes, DecoderHead, classify, flag};
use super::{Common, ConfigError, Defaulted, deserialize_raw, size};

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    n_positions: Option<u64>,
    max_position_embeddings: Option<u64>,
    n_embd: Option<u64>,
    hidden_size: Option<u64>,
    n_layer: Option<u64>,
    num_hidden_layers: Option<u64>,
    n_head: Option<u64>,
    num_attention_heads: Option<u64>,
    n_inner: Option<u64>,
    activation_function: Option<String>,
    layer_norm_epsilon: Option<f64>,
    tie_word_embeddings: Option<bool>,
    add_cross_attention: Option<bool>,
    pad_token_id: Option<u64>,
    summary_type: Option<String>,
    summary_use_proj: Option<bool>,
    summary_proj_to_labels: Option<bool>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Gpt2Config {
    pub class: String,
    pub head: DecoderHead,
    pub vocab_size: u64,
    pub n_positions: u64,
    pub n_embd: u64,
    pub n_layer: u64,
    pub n_head: u64,
    /// `n_inner`, or 4 x `n_embd` when the file leaves it null, as `GPT2Block` does.
    pub inner: u64,
    pub activation: String,
    pub layer_norm_epsilon: f64,
    pub tie_word_embeddings: bool,
    /// Each block then also attends to an encoder (`crossattention`, `ln_cross_attn`).
    pub add_cross_attention: bool,
    pub pad_token_id: Option<u64>,
    /// `GPT2DoubleHeadsModel`: its multiple-choice head, and the output width of that head's
    /// `summary` linear (none when `summary_use_proj` is false and the summary is the identity).
    pub multiple_choice: Option<MultipleChoice>,
    pub defaulted: Vec<Defaulted>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MultipleChoice {
    pub summary_out: Option<u64>,
}

const CLASSES: Classes = Classes {
    prefix: "GPT2",
    causal_lm: "LMHeadModel",
    token_classification: true,
    question_answering: true,
};

impl Gpt2Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, 50257, 100_000_000, &mut d)?;
        let (f, v) = alias_or(
            ("max_position_embeddings", raw.max_position_embeddings),
            ("n_positions", raw.n_positions),
        );
        let n_positions = size(f, v, 1024, 1 << 20, &mut d)?;
        let (f, v) = alias_or(("hidden_size", raw.hidden_size), ("n_embd", raw.n_embd));
        let n_embd = size(f, v, 768, 1 << 18, &mut d)?;
        let (f, v) = alias_or(("num_hidden_layers", raw.num_hidden_layers), ("n_layer", raw.n_layer));
        let n_layer = size(f, v, 12, 10_000, &mut d)?;
        let (f, v) = alias_or(("num_attention_heads", raw.num_attention_heads), ("n_head", raw.n_head));
        let n_head = size(f, v, 12, 1 << 16, &mut d)?;
        let inner = match raw.n_inner {
            Some(n) => size("n_inner", Some(n), 0, 1 << 22, &mut d)?,
            None => {
                d.push(Defaulted { field: "n_inner", value: format!("null: 4 x n_embd = {}", 4 * n_embd) });
                4 * n_embd
            }
        };
        let activation = raw.activation_function.unwrap_or_else(|| "gelu_new".into());
        let tie_word_embeddings = flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d);
        let add_cross_attention = raw.add_cross_attention.unwrap_or(false);
        let (class, head, multiple_choice) = if common.architecture.as_deref() == Some("GPT2DoubleHeadsModel")
        {
            let summary = double_heads_summary(
                raw.summary_type.as_deref(),
                raw.summary_use_proj,
                raw.summary_proj_to_labels,
                n_embd,
            )?;
            ("GPT2DoubleHeadsModel".to_string(), DecoderHead::CausalLm, Some(summary))
        } else {
            let (class, head) = classify(&CLASSES, common.architecture.as_deref(), value, &mut d)?;
            (class, head, None)
        };
        Ok(Gpt2Config {
            class,
            head,
            vocab_size,
            n_positions,
            n_embd,
            n_layer,
            n_head,
            inner,
            activation,
            layer_norm_epsilon: raw.layer_norm_epsilon.unwrap_or(1e-5),
            tie_word_embeddings,
            add_cross_attention,
            pad_token_id: raw.pad_token_id,
            multiple_choice,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.layer_norm_epsilon,
            ..super::Dims::mha(
                self.n_embd,
                self.n_layer,
                self.n_head,
                self.inner,
                self.vocab_size,
                self.n_positions,
            )
        }
    }
}

/// `GPT2SequenceSummary` as `GPT2DoubleHeadsModel` builds it: the class sets `num_labels` to 1,
/// so the summary projects to one score when `summary_proj_to_labels`, else to `n_embd`.
fn double_heads_summary(
    summary_type: Option<&str>,
    use_proj: Option<bool>,
    proj_to_labels: Option<bool>,
    n_embd: u64,
) -> Result<MultipleChoice, ConfigError> {
    if summary_type == Some("attn") {
        return Err(ConfigError::field("summary_type", "\"attn\" is not implemented by GPT2SequenceSummary"));
    }
    let summary_out = match (use_proj.unwrap_or(true), proj_to_labels.unwrap_or(true)) {
        (false, _) => None,
        (true, true) => Some(1),
        (true, false) => Some(n_embd),
    };
    Ok(MultipleChoice { summary_out })
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(gpt2, Gpt2Config);

    #[test]
    fn aliases_are_read_and_win_over_the_own_key() {
        let c = gpt2(r#"{"model_type": "gpt2", "hidden_size": 1024, "n_embd": 512, "num_hidden_layers": 3}"#)
            .unwrap();
        assert_eq!((c.n_embd, c.n_layer, c.inner), (1024, 3, 4096));
        assert_eq!(c.class, "GPT2Model");
    }

    #[test]
    fn bad_sizes_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "gpt2", "n_layer": 0}"#, "n_layer"),
            (r#"{"model_type": "gpt2", "n_embd": "768"}"#, "n_embd"),
            (r#"{"model_type": "gpt2", "n_inner": 0}"#, "n_inner"),
            (r#"{"model_type": "gpt2", "max_position_embeddings": 0}"#, "max_position_embeddings"),
        ] {
            crate::config::testing::assert_field(gpt2(text), text, field);
        }
    }
}
