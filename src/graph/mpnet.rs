//! The MPNet graph, named as transformers' modules: `mpnet.encoder.layer.{i}.attention.attn.q`,
//! `mpnet.encoder.relative_attention_bias`, `lm_head.decoder`.

use super::bert::{layer_norm, linear};
use super::common::{
    BEFORE_4_31, bert_layer_tail, dense_classifier, pooler_candidate, position_ids_buffer, push_head,
    tied_decoder_stored_twice, token_span_choice_head, word_and_position_embeddings,
};
use super::release::{MLM_BIAS, decoder_bias_candidate, note};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, embedding, shapes, tied_if};
use crate::config::bert::Head;
use crate::config::mpnet::MpnetConfig;
use crate::config::release::Release;

architecture!(
    MpnetConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["mpnet."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let why = [
            ((self.head == Head::MaskedLm) && !self.tie_word_embeddings, MLM_BIAS),
        ];
        let why = why.into_iter().filter(|(applies, _)| *applies).map(|(_, w)| w).collect();
        note(self, &MpnetConfig { release: Release::V4, ..self.clone() }, why)
    }
);

fn prefix(c: &MpnetConfig) -> &'static str {
    if c.head == Head::Model { "" } else { "mpnet." }
}

/// MPNetModel and MPNetForMultipleChoice build the pooler; the other heads do not.
pub fn has_pooler(c: &MpnetConfig) -> bool {
    matches!(c.head, Head::Model | Head::MultipleChoice)
}

pub fn build(c: &MpnetConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, v) = (c.hidden_size, c.vocab_size);
    let emb = format!("{p}embeddings");
    let n = c.max_position_embeddings;
    let positions = format!("{n} positions, learned, numbered from 2 (after the padding index)");
    let mut sections = vec![word_and_position_embeddings(&emb, seq, [v, n, h], positions)];
    let heads = c.num_heads;
    let buckets = c.relative_attention_num_buckets;
    // One bias table for the whole encoder, computed once and added in every layer.
    sections.push(Section {
        name: format!("{p}encoder.relative_attention_bias"),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![embedding(
            &format!("{p}encoder.relative_attention_bias"),
            format!("{buckets} relative-position buckets x {heads} heads, shared by all layers"),
            seq,
            buckets,
            heads,
        )],
    });
    let l = format!("{p}encoder.layer.{{i}}");
    let (hd, ffn) = (h / heads, c.intermediate_size);
    let a = format!("{l}.attention.attn");
    let mut nodes = vec![
        linear(&format!("{a}.q"), "query projection", seq, h, h),
        linear(&format!("{a}.k"), "key projection", seq, h, h),
        linear(&format!("{a}.v"), "value projection", seq, h, h),
        Node::new(
            &a,
            Op::Attention,
            format!("{heads} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}) + relative bias)V"),
            &[seq, h],
        ),
    ];
    let tail = [format!("{a}.o"), format!("{l}.attention.LayerNorm")];
    nodes.extend(bert_layer_tail(&l, tail, [seq, h, ffn], &c.hidden_act));
    sections.push(Section { name: l.clone(), role: Role::Layers, repeat: c.num_layers, nodes });
    if has_pooler(c) {
        sections.push(Section {
            name: format!("{p}pooler"),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![linear(&format!("{p}pooler.dense"), "first token's state, dense then tanh", 1, h, h)],
        });
    }
    let word = format!("{emb}.word_embeddings.weight");
    let (name, nodes) = match c.head {
        Head::Model | Head::CausalLm | Head::PreTraining | Head::NextSentencePrediction => ("", vec![]),
        Head::MaskedLm => (
            "lm_head",
            vec![
                linear("lm_head.dense", "dense, then GELU", seq, h, h),
                layer_norm("lm_head.layer_norm", "norm", &[seq, h], h),
                Node::new("lm_head.decoder", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                    tied_if(c.tie_word_embeddings, "lm_head.decoder.weight", &[v, h], word),
                    tied_if(
                        c.release.ties(c.tie_word_embeddings),
                        "lm_head.decoder.bias",
                        &[v],
                        "lm_head.bias",
                    ),
                    Tensor::new("lm_head.bias", &[v]),
                ]),
            ],
        ),
        Head::SequenceClassification { num_labels } => dense_classifier("tanh", h, num_labels),
        other => token_span_choice_head(other, seq, h, c.num_labels),
    };
    push_head(&mut sections, name, nodes);
    Graph { seq_len: seq, sections }
}

fn candidates(c: &MpnetConfig) -> Vec<Candidate> {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let mut out = vec![position_ids_buffer("mpnet.", c.max_position_embeddings, BEFORE_4_31)];
    let pooler =
        shapes([("mpnet.pooler.dense.weight".into(), &[h, h]), ("mpnet.pooler.dense.bias".into(), &[h])]);
    let dropped = "the pooler of an MPNetModel checkpoint; this class is built with add_pooling_layer=False and drops it";
    out.push(pooler_candidate(has_pooler(c), pooler, dropped));
    if c.head == Head::MaskedLm {
        if c.tie_word_embeddings {
            out.push(tied_decoder_stored_twice("lm_head.decoder.weight", v, h));
        }
        let tied = c.release.ties(c.tie_word_embeddings);
        out.push(decoder_bias_candidate(tied, "lm_head.decoder.bias", "lm_head.bias", v));
    }
    out
}
