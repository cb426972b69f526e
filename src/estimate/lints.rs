//! The verifier: rules with stable IDs (they are public: pages and the JSON link to them, and
//! `site/method.html#lint-<id>` documents each). A rule reads the family-neutral dimensions and
//! the published dtype, and says what it found, why it matters and what to do.

use serde::Serialize;

use crate::config::Dims;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The model cannot run as configured.
    Error,
    /// It runs, but a number or a behaviour is not what the config suggests.
    Warning,
    /// Worth knowing; nothing is wrong.
    Info,
}

#[derive(Debug, Clone, Serialize)]
pub struct Lint {
    pub id: &'static str,
    pub severity: Severity,
    pub finding: String,
    pub reason: &'static str,
    pub fix: String,
}

/// Every rule's ID, severity and one-line summary, for the method page.
pub const RULES: &[(&str, Severity, &str)] = &[
    ("heads-do-not-divide-hidden", Severity::Error, "the attention heads do not divide the hidden size"),
    ("pad-token-outside-vocab", Severity::Error, "the padding token id is not a row of the embedding"),
    (
        "position-offset-shortens-context",
        Severity::Warning,
        "RoBERTa-style position ids leave fewer usable positions than max_position_embeddings",
    ),
    (
        "deep-attention-default-init",
        Severity::Info,
        "a deep stack initialised without depth-scaled residual projections",
    ),
    ("vocab-not-multiple-of-64", Severity::Info, "the vocabulary size is not a multiple of 64"),
    ("ffn-not-multiple-of-64", Severity::Info, "the feed-forward width is not a multiple of 64"),
    ("float32-checkpoint", Severity::Info, "the weights are published in float32"),
];

/// What the rules need to know beyond the dimensions.
pub struct LintInput<'a> {
    pub dims: &'a Dims,
    /// `torch_dtype` from the config.
    pub torch_dtype: Option<&'a str>,
    /// The published checkpoint's dtype, when known.
    pub checkpoint_dtype: Option<&'a str>,
    /// Whether the family initialises residual projections without depth scaling.
    pub unscaled_residual_init: bool,
}

pub fn run(x: &LintInput) -> Vec<Lint> {
    let d = x.dims;
    let mut out = vec![];
    if !d.hidden_size.is_multiple_of(d.num_heads) {
        out.push(Lint {
            id: "heads-do-not-divide-hidden",
            severity: Severity::Error,
            finding: format!("{} heads do not divide hidden_size {}", d.num_heads, d.hidden_size),
            reason: "Multi-head attention reshapes the hidden vector into heads of equal width; transformers raises a ValueError when building the layer.",
            fix: format!(
                "Choose a head count that divides {} (for example {}), or set hidden_size to a multiple of {}.",
                d.hidden_size,
                largest_divisor_at_most(d.hidden_size, d.num_heads),
                d.num_heads
            ),
        });
    }
    if let Some(pad) = d.pad_token_id
        && pad >= d.vocab_size
    {
        out.push(Lint {
            id: "pad-token-outside-vocab",
            severity: Severity::Error,
            finding: format!("pad_token_id {pad} is not below vocab_size {}", d.vocab_size),
            reason: "The word embedding takes the padding id as its padding_idx, which must index one of its rows; building the model fails.",
            fix: "Set pad_token_id to the tokenizer's padding id, which must be below vocab_size.".into(),
        });
    }
    if d.usable_context < d.context {
        out.push(Lint {
            id: "position-offset-shortens-context",
            severity: Severity::Warning,
            finding: format!(
                "max_position_embeddings is {}, but position ids start after the padding id, so at most {} tokens fit",
                d.context, d.usable_context
            ),
            reason: "RoBERTa-style models number positions from pad_token_id + 1; an input longer than the usable positions indexes past the table and fails. Plans sized at max_position_embeddings (as this page's baseline does, to compare with published calculators) overstate the context by the offset.",
            fix: format!("Truncate inputs to {} tokens.", d.usable_context),
        });
    }
    if x.unscaled_residual_init && d.num_layers >= 12 {
        out.push(Lint {
            id: "deep-attention-default-init",
            severity: Severity::Info,
            finding: format!("{} stacked attention layers initialised with an unscaled normal(0, 0.02)", d.num_layers),
            reason: "Residual-branch outputs add up with depth; without scaling, activation variance grows with the number of layers. This matters when training from scratch, not when fine-tuning published weights.",
            fix: "When training from scratch, scale residual output projections by depth: nn.init.normal_(w, std=0.02 / math.sqrt(2 * n_layers)).".into(),
        });
    }
    // A model without a vocabulary (ViT: pixels in, vocab_size 0) has no embedding to pad.
    if d.vocab_size > 0 && !d.vocab_size.is_multiple_of(64) {
        let padded = d.vocab_size.div_ceil(64) * 64;
        out.push(Lint {
            id: "vocab-not-multiple-of-64",
            severity: Severity::Info,
            finding: format!("vocab_size {} is not a multiple of 64", d.vocab_size),
            reason: "Matrix multiplications with the embedding and the LM head run on tensor cores most efficiently when their dimensions are multiples of 64; the last tile is padded.",
            fix: format!("When training from scratch, pad the vocabulary to {padded} (resize_token_embeddings(pad_to_multiple_of=64))."),
        });
    }
    if !d.intermediate_size.is_multiple_of(64) {
        out.push(Lint {
            id: "ffn-not-multiple-of-64",
            severity: Severity::Info,
            finding: format!("intermediate_size {} is not a multiple of 64", d.intermediate_size),
            reason: "Feed-forward matrix multiplications whose width is not a multiple of 64 leave tensor-core tiles partly empty.",
            fix: format!("When designing a model, round the width to {}.", d.intermediate_size.div_ceil(64) * 64),
        });
    }
    let f32 = |s: Option<&str>| s.is_some_and(|s| matches!(s, "float32" | "F32"));
    if f32(x.torch_dtype) || f32(x.checkpoint_dtype) {
        out.push(Lint {
            id: "float32-checkpoint",
            severity: Severity::Info,
            finding: "the weights are published in float32".into(),
            reason: "A float32 checkpoint downloads and loads at twice the bytes of bf16; the memory figures here assume bf16 for serving and for a frozen LoRA base.",
            fix: "Load with torch_dtype=torch.bfloat16 (on cards with bf16) or float16.".into(),
        });
    }
    out
}

fn largest_divisor_at_most(n: u64, at_most: u64) -> u64 {
    (1..=at_most.min(n)).rev().find(|k| n.is_multiple_of(*k)).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims() -> Dims {
        Dims {
            hidden_size: 768,
            num_layers: 6,
            num_heads: 12,
            num_kv_heads: 12,
            head_dim: 64,
            intermediate_size: 3072,
            vocab_size: 32000,
            context: 512,
            usable_context: 512,
            pad_token_id: Some(0),
            tie_word_embeddings: true,
            layer_norm_eps: 1e-12,
            num_experts: None,
            experts_per_token: None,
        }
    }

    fn ids(d: &Dims, dtype: Option<&str>, unscaled: bool) -> Vec<&'static str> {
        run(&LintInput {
            dims: d,
            torch_dtype: dtype,
            checkpoint_dtype: None,
            unscaled_residual_init: unscaled,
        })
        .into_iter()
        .map(|l| l.id)
        .collect()
    }

    #[test]
    fn a_clean_config_raises_nothing() {
        assert!(ids(&dims(), Some("bfloat16"), true).is_empty());
    }

    #[test]
    fn each_rule_fires_on_its_own_condition() {
        let cases: [(Dims, Option<&str>, bool, &str); 7] = [
            (Dims { hidden_size: 770, ..dims() }, None, false, "heads-do-not-divide-hidden"),
            (Dims { pad_token_id: Some(32000), ..dims() }, None, false, "pad-token-outside-vocab"),
            (Dims { usable_context: 510, ..dims() }, None, false, "position-offset-shortens-context"),
            (Dims { num_layers: 12, ..dims() }, None, true, "deep-attention-default-init"),
            (Dims { vocab_size: 30522, ..dims() }, None, false, "vocab-not-multiple-of-64"),
            (Dims { intermediate_size: 3000, ..dims() }, None, false, "ffn-not-multiple-of-64"),
            (dims(), Some("float32"), false, "float32-checkpoint"),
        ];
        let n = cases.len();
        for (d, dtype, unscaled, id) in cases {
            assert_eq!(ids(&d, dtype, unscaled), vec![id]);
        }
        assert_eq!(n, RULES.len(), "every rule has a case");
    }

    #[test]
    fn a_model_without_a_vocabulary_raises_no_vocabulary_rule() {
        assert!(
            ids(&Dims { vocab_size: 0, pad_token_id: None, ..dims() }, Some("bfloat16"), true).is_empty()
        );
    }

    #[test]
    fn the_divisor_hint_is_a_real_divisor() {
        assert_eq!(largest_divisor_at_most(770, 12), 11);
    }
}
