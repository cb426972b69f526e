//! The ELECTRA graph, named as transformers' modules: BERT's layer names under `electra.`, with
//! `discriminator_predictions` or `generator_predictions` + `generator_lm_head` on top.

use super::bert::{layer_norm, linear};
use super::common::{
    BEFORE_4_31, dense_classifier, discriminator_head, position_ids_buffer, push_head, token_span_choice_head,
};
use super::encoder::{BertLayer, bert_embeddings, bert_layer};
use super::release::{DISTANCE, note};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, shapes, tied_if};
use crate::config::bert::{Head, PositionEmbedding};
use crate::config::electra::ElectraConfig;
use crate::config::release::Release;

architecture!(
    ElectraConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["electra."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let why = vec![DISTANCE];
        note(self, &ElectraConfig { release: Release::V4, ..self.clone() }, why)
    }
);

fn prefix(c: &ElectraConfig) -> &'static str {
    if c.head == Head::Model { "" } else { "electra." }
}

pub fn build(c: &ElectraConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let emb = format!("{p}embeddings");
    let sizes = [v, c.max_position_embeddings, c.type_vocab_size];
    let mut emb_nodes = bert_embeddings(&emb, seq, format!("{v} tokens, width {e}"), sizes, e);
    // ElectraModel builds the projection only when the widths differ.
    if e != h {
        emb_nodes.push(linear(
            &format!("{p}embeddings_project"),
            &format!("embeddings of width {e} projected to the hidden size {h}"),
            seq,
            e,
            h,
        ));
    }
    let mut sections =
        vec![Section { name: emb.clone(), role: Role::Embeddings, repeat: 1, nodes: emb_nodes }];
    let l = format!("{p}encoder.layer.{{i}}");
    // The config has `embedding_size`, so transformers does not refuse heads that do not divide
    // the hidden size: q, k and v project to heads x floor(hidden / heads).
    let relative = c.position_embedding != PositionEmbedding::Absolute && c.release == Release::V4;
    let nodes = bert_layer(&BertLayer {
        l: &l,
        seq,
        hidden: h,
        heads: c.num_heads,
        head_dim: h / c.num_heads,
        ffn: c.intermediate_size,
        act: &c.hidden_act,
        distance_rows: relative.then(|| 2 * c.max_position_embeddings - 1),
        norms: &crate::config::encoders::POST_LN,
    });
    sections.push(Section { name: l.clone(), role: Role::Layers, repeat: c.num_layers, nodes });
    let word = format!("{emb}.word_embeddings.weight");
    let (name, nodes) = match c.head {
        Head::Model | Head::NextSentencePrediction => ("", vec![]),
        Head::MultipleChoice => {
            let mut nodes = vec![];
            if let Some(out) = c.summary_proj {
                nodes.push(linear(
                    "sequence_summary.summary",
                    "first token's state, projected, then GELU",
                    1,
                    h,
                    out,
                ));
            }
            nodes.push(linear("classifier", "a score per choice", 1, h, 1));
            ("classifier", nodes)
        }
        Head::PreTraining => discriminator_head(&c.hidden_act, seq, h, "replaced-token logit per token"),
        Head::MaskedLm | Head::CausalLm => (
            "generator_predictions",
            vec![
                linear("generator_predictions.dense", &format!("dense to width {e}, then GELU"), seq, h, e),
                layer_norm("generator_predictions.LayerNorm", "norm", &[seq, e], e),
                Node::new("generator_lm_head", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                    tied_if(c.tie_word_embeddings, "generator_lm_head.weight", &[v, e], word),
                    Tensor::new("generator_lm_head.bias", &[v]),
                ]),
            ],
        ),
        Head::SequenceClassification { num_labels } => dense_classifier("GELU", h, num_labels),
        other => token_span_choice_head(other, seq, h, c.num_labels),
    };
    push_head(&mut sections, name, nodes);
    Graph { seq_len: seq, sections }
}

fn candidates(c: &ElectraConfig) -> Vec<Candidate> {
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let mut out = vec![position_ids_buffer("electra.", c.max_position_embeddings, BEFORE_4_31)];
    if c.head != Head::PreTraining {
        out.push(Candidate::extra(
            "discriminator head",
            shapes([
                ("discriminator_predictions.dense.weight".into(), &[h, h]),
                ("discriminator_predictions.dense.bias".into(), &[h]),
                ("discriminator_predictions.dense_prediction.weight".into(), &[1, h]),
                ("discriminator_predictions.dense_prediction.bias".into(), &[1]),
            ]),
            "the replaced-token-detection head of a discriminator checkpoint (ElectraForPreTraining); this class drops it",
        ));
    }
    if matches!(c.head, Head::MaskedLm | Head::CausalLm) && c.tie_word_embeddings {
        out.push(Candidate::extra(
            "tied generator head stored twice",
            vec![("generator_lm_head.weight".into(), vec![v, e])],
            "generator_lm_head is tied to the word embeddings, but the checkpoint stores the matrix a second time",
        ));
    }
    out
}
