//! The XLM and FlauBERT graph, named as transformers' modules: `transformer.embeddings`,
//! `transformer.attentions.{i}.q_lin`, `transformer.ffns.{i}.lin1`, `pred_layer.proj`,
//! `sequence_summary.summary`, `qa_outputs.start_logits.dense`.

use super::bert::{layer_norm, linear};
use super::blocks::embedding;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::xlm::{XlmConfig, XlmHead};

architecture!(
    XlmConfig,
    |_c| activations: vec![],
    prefixes: ["transformer."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn training_notes(&self) -> Vec<String> {
        vec![LAYER_NOTE.into()]
    }
);

/// Why the checkpointed training figure keeps every activation.
const LAYER_NOTE: &str = "A layer's modules sit in four lists (attentions.{i}, layer_norm1.{i}, ffns.{i}, layer_norm2.{i}) with no module of their own: the gradient-checkpointing figure keeps every layer's activations, so it errs large.";

fn candidates(_: &XlmConfig) -> Vec<Candidate> {
    vec![]
}

fn layer(c: &XlmConfig, p: &str, seq: u64) -> Vec<Node> {
    let (h, heads) = (c.hidden_size, c.num_heads);
    let hd = h / heads.max(1);
    let a = format!("{p}attentions.{{i}}");
    let act = if c.gelu { "GELU" } else { "ReLU" };
    vec![
        linear(&format!("{a}.q_lin"), "query projection", seq, h, h),
        linear(&format!("{a}.k_lin"), "key projection", seq, h, h),
        linear(&format!("{a}.v_lin"), "value projection", seq, h, h),
        Node::new(&a, Op::Attention, format!("{heads} heads x {hd}, softmax(QK^T / sqrt({hd}))V"), &[seq, h]),
        linear(&format!("{a}.out_lin"), "attention output projection", seq, h, h),
        layer_norm(&format!("{p}layer_norm1.{{i}}"), "residual add, then norm", &[seq, h], h),
        linear(&format!("{p}ffns.{{i}}.lin1"), &format!("up projection, then {act}"), seq, h, 4 * h),
        linear(&format!("{p}ffns.{{i}}.lin2"), "down projection", seq, 4 * h, h),
        layer_norm(&format!("{p}layer_norm2.{{i}}"), "residual add, then norm", &[seq, h], h),
    ]
}

pub fn build(c: &XlmConfig, seq: u64) -> Graph {
    let p = if c.head == XlmHead::Model { "" } else { "transformer." };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let positions = c.max_position_embeddings;
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{p}position_embeddings"), format!("{positions} positions"), seq, positions, h),
    ];
    if let Some(n) = c.languages {
        nodes.push(embedding(&format!("{p}lang_embeddings"), format!("{n} languages"), seq, n, h));
    }
    nodes.push(embedding(&format!("{p}embeddings"), format!("{v} tokens"), seq, v, h));
    nodes.push(layer_norm(&format!("{p}layer_norm_emb"), "sum of the embeddings, normalised", &[seq, h], h));
    let mut sections =
        vec![Section { name: format!("{p}embeddings"), role: Role::Embeddings, repeat: 1, nodes }];
    let l = format!("{p}layers.{{i}}");
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes: layer(c, p, seq) });
    let summary = |nodes: &mut Vec<Node>| {
        if let Some(out) = c.summary {
            nodes.push(linear("sequence_summary.summary", "first token's state, projected", 1, h, out));
        }
    };
    let mut head = vec![];
    match c.head {
        XlmHead::Model => {}
        XlmHead::LmHead => head = lm_head(c, seq, &format!("{p}embeddings.weight")),
        XlmHead::SequenceClassification => summary(&mut head),
        XlmHead::MultipleChoice => {
            summary(&mut head);
            head.push(linear("logits_proj", "a score per choice", 1, c.num_labels, 1));
        }
        XlmHead::TokenClassification => {
            head.push(linear("classifier", "a label per token", seq, h, c.num_labels))
        }
        XlmHead::QuestionAnsweringSimple => {
            head.push(linear("qa_outputs", "span start and end logits", seq, h, c.num_labels));
        }
        XlmHead::QuestionAnswering => head = squad(h, seq, "qa_outputs."),
    }
    if let Some(first) = head.first() {
        let name = first.name.split('.').next().unwrap_or_default().to_string();
        sections.push(Section { name, role: Role::Head, repeat: 1, nodes: head });
    }
    Graph { seq_len: seq, sections }
}

/// `pred_layer.proj`: a linear over the vocabulary tied to the word table, or the adaptive
/// softmax (`head` over the shortlist and the clusters, then two bias-free linears per cluster).
fn lm_head(c: &XlmConfig, seq: u64, word: &str) -> Vec<Node> {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let Some(asm) = &c.asm else {
        return vec![Node::new("pred_layer.proj", Op::Linear, "logits over the vocabulary", &[seq, v]).with(
            [
                tied_if(c.tie_word_embeddings, "pred_layer.proj.weight", &[v, h], word),
                Tensor::new("pred_layer.proj.bias", &[v]),
            ],
        )];
    };
    let mut nodes =
        vec![linear("pred_layer.proj.head", "shortlist and cluster logits", seq, h, asm.head_rows)];
    for (i, (width, rows)) in asm.clusters.iter().enumerate() {
        let t = format!("pred_layer.proj.tail.{i}");
        nodes.push(super::blocks::linear(&format!("{t}.0"), "cluster projection", seq, h, *width, false));
        nodes.push(super::blocks::linear(&format!("{t}.1"), "cluster logits", seq, *width, *rows, false));
    }
    nodes
}

/// XLNet's SQuAD head under `p` (XLM's `qa_outputs.`, XLNet's none): start logits, end logits
/// from the start state (dense, tanh, norm, dense) and the answer class from the start and
/// [CLS] states.
pub(crate) fn squad(h: u64, seq: u64, p: &str) -> Vec<Node> {
    vec![
        linear(&format!("{p}start_logits.dense"), "start logit per token", seq, h, 1),
        linear(&format!("{p}end_logits.dense_0"), "token and start states, dense then tanh", seq, 2 * h, h),
        layer_norm(&format!("{p}end_logits.LayerNorm"), "norm", &[seq, h], h),
        linear(&format!("{p}end_logits.dense_1"), "end logit per token", seq, h, 1),
        linear(&format!("{p}answer_class.dense_0"), "start and [CLS] states, dense then tanh", 1, 2 * h, h),
        super::blocks::linear(&format!("{p}answer_class.dense_1"), "is-answerable logit", 1, h, 1, false),
    ]
}
