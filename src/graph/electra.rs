//! The ELECTRA graph, named as transformers' modules: BERT's layer names under `electra.`, with
//! `discriminator_predictions` or `generator_predictions` + `generator_lm_head` on top.

use super::bert::{layer_norm, linear};
use super::release::{DISTANCE, note};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, embedding, shapes, tied_if};
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
    let mut emb_nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{emb}.word_embeddings"), format!("{v} tokens, width {e}"), seq, v, e),
        embedding(
            &format!("{emb}.position_embeddings"),
            format!("{} positions, learned", c.max_position_embeddings),
            seq,
            c.max_position_embeddings,
            e,
        ),
        embedding(
            &format!("{emb}.token_type_embeddings"),
            format!("{} token types", c.type_vocab_size),
            seq,
            c.type_vocab_size,
            e,
        ),
        layer_norm(&format!("{emb}.LayerNorm"), "sum of the three embeddings, normalised", &[seq, e], e),
    ];
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
    let (heads, hd, ffn) = (c.num_heads, h / c.num_heads, c.intermediate_size);
    // The config has `embedding_size`, so transformers does not refuse heads that do not divide
    // the hidden size: q, k and v project to heads x floor(hidden / heads).
    let all = heads * hd;
    let mut attention = Node::new(
        format!("{l}.attention.self"),
        Op::Attention,
        format!("{heads} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}))V"),
        &[seq, h],
    );
    if c.position_embedding != PositionEmbedding::Absolute && c.release == Release::V4 {
        attention.params.push(Tensor::new(
            format!("{l}.attention.self.distance_embedding.weight"),
            &[2 * c.max_position_embeddings - 1, hd],
        ));
    }
    sections.push(Section {
        name: l.clone(),
        role: Role::Layers,
        repeat: c.num_layers,
        nodes: vec![
            linear(&format!("{l}.attention.self.query"), "query projection", seq, h, all),
            linear(&format!("{l}.attention.self.key"), "key projection", seq, h, all),
            linear(&format!("{l}.attention.self.value"), "value projection", seq, h, all),
            attention,
            linear(&format!("{l}.attention.output.dense"), "attention output projection", seq, h, h),
            layer_norm(&format!("{l}.attention.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
            linear(
                &format!("{l}.intermediate.dense"),
                &format!("up projection, then {}", c.hidden_act),
                seq,
                h,
                ffn,
            ),
            linear(&format!("{l}.output.dense"), "down projection", seq, ffn, h),
            layer_norm(&format!("{l}.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
        ],
    });
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
        Head::PreTraining => (
            "discriminator_predictions",
            vec![
                linear(
                    "discriminator_predictions.dense",
                    &format!("dense, then {}", c.hidden_act),
                    seq,
                    h,
                    h,
                ),
                linear(
                    "discriminator_predictions.dense_prediction",
                    "replaced-token logit per token",
                    seq,
                    h,
                    1,
                ),
            ],
        ),
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
        Head::SequenceClassification { num_labels } => (
            "classifier",
            vec![
                linear("classifier.dense", "first token's state, dense then GELU", 1, h, h),
                linear("classifier.out_proj", "labels", 1, h, num_labels),
            ],
        ),
        Head::TokenClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, num_labels)])
        }
        Head::QuestionAnswering => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, c.num_labels)])
        }
    };
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

fn candidates(c: &ElectraConfig) -> Vec<Candidate> {
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let mut out = vec![Candidate::extra(
        "position_ids buffer",
        vec![("electra.embeddings.position_ids".into(), vec![1, c.max_position_embeddings])],
        "an int64 buffer of position indices that transformers before 4.31 saved with the weights; not a parameter",
    )];
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
