//! What a BERT or RoBERTa checkpoint may hold that the class does not, or lack that it builds.

use super::super::Candidate;
use super::super::release::decoder_bias_candidate;
use super::{encoder_prefix, has_pooler};
use crate::config::bert::{BertConfig, Head, Style};

/// Tensors that a checkpoint of this family may hold although the class does not build them, or
/// lack although the class does: what the checkpoint reconciliation tries, with the reason for
/// each. Sizes come from the config, never from the checkpoint.
pub fn checkpoint_candidates(c: &BertConfig) -> Vec<Candidate> {
    let p = encoder_prefix(c);
    let h = c.hidden_size;
    let v = c.vocab_size;
    let base = c.desc.module;
    // Checkpoints are usually saved from a head class, so their encoder tensors carry its prefix.
    let ckpt_p = if p.is_empty() { base } else { p };
    let mut out = vec![Candidate::extra(
        "position_ids buffer",
        vec![(format!("{ckpt_p}embeddings.position_ids"), vec![1, c.max_position_embeddings])],
        "an int64 buffer of position indices that transformers before 4.31 saved with the weights; not a parameter",
    )];
    // BigBird's pooler is a bare linear.
    let dense = if c.style == Style::BigBird { "" } else { ".dense" };
    let pooler = vec![
        (format!("{ckpt_p}pooler{dense}.weight"), vec![h, h]),
        (format!("{ckpt_p}pooler{dense}.bias"), vec![h]),
    ];
    if has_pooler(c) {
        out.push(Candidate::missing(
            "pooler",
            pooler,
            "the class builds a pooler that the checkpoint does not store (it is then freshly initialised on load)",
        ));
    } else {
        out.push(Candidate::extra(
            "pooler",
            pooler,
            "the pooler (dense + tanh on the first token) of the class the checkpoint was trained with; this class is built with add_pooling_layer=False and drops it",
        ));
    }
    let has_lm = matches!(c.head, Head::MaskedLm | Head::CausalLm | Head::PreTraining);
    if c.style == Style::Bert && !matches!(c.head, Head::PreTraining | Head::NextSentencePrediction) {
        out.push(Candidate::extra(
            "next-sentence head",
            vec![("cls.seq_relationship.weight".into(), vec![2, h]), ("cls.seq_relationship.bias".into(), vec![2])],
            "BERT's next-sentence-prediction head from pre-training (BertForPreTraining); this class has no use for it",
        ));
    }
    if has_lm {
        let (dec, tied) = match c.style {
            Style::Bert | Style::Yoso | Style::BigBird | Style::RoFormer => {
                ("cls.predictions.decoder", "cls.predictions.bias")
            }
            Style::Roberta => ("lm_head.decoder", "lm_head.bias"),
        };
        if c.tie_word_embeddings {
            out.push(Candidate::extra(
                "tied decoder stored twice",
                vec![(format!("{dec}.weight"), vec![v, c.embed_width])],
                "the LM head's decoder is tied to the word embeddings, but the checkpoint stores the matrix a second time",
            ));
        }
        out.push(decoder_bias_candidate(
            c.release.ties(c.tie_word_embeddings),
            &format!("{dec}.bias"),
            tied,
            v,
        ));
    } else {
        let tensors = match c.style {
            Style::Bert | Style::Yoso | Style::BigBird | Style::RoFormer => vec![
                ("cls.predictions.transform.dense.weight".into(), vec![c.embed_width, h]),
                ("cls.predictions.transform.dense.bias".into(), vec![c.embed_width]),
                ("cls.predictions.transform.LayerNorm.weight".into(), vec![c.embed_width]),
                ("cls.predictions.transform.LayerNorm.bias".into(), vec![c.embed_width]),
                ("cls.predictions.bias".into(), vec![v]),
            ],
            Style::Roberta => vec![
                ("lm_head.dense.weight".into(), vec![h, h]),
                ("lm_head.dense.bias".into(), vec![h]),
                ("lm_head.layer_norm.weight".into(), vec![h]),
                ("lm_head.layer_norm.bias".into(), vec![h]),
                ("lm_head.bias".into(), vec![v]),
            ],
        };
        out.push(Candidate::extra(
            "masked-LM head",
            tensors,
            "the masked-language-model head from pre-training (its decoder is tied to the embeddings); this class drops it",
        ));
    }
    out
}
