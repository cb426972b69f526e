//! The XLNet graph, named as transformers' modules: `transformer.word_embedding`,
//! `transformer.mask_emb`, `transformer.layer.{i}.rel_attn.q`, `transformer.layer.{i}.ff.layer_1`,
//! `lm_loss`, `sequence_summary.summary`, `logits_proj`, `start_logits.dense`.

use super::bert::{layer_norm, linear};
use super::blocks::embedding;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::xlm::XlmHead;
use crate::config::xlnet::XlnetConfig;

architecture!(
    XlnetConfig,
    |c| activations: vec![("ff_activation", c.ff_activation.clone())],
    prefixes: ["transformer."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        "relative positions fix no length (max_position_embeddings is -1): 512, the pre-training length".into()
    }
);

fn candidates(_: &XlnetConfig) -> Vec<Candidate> {
    vec![]
}

/// One `XLNetLayer`: relative attention whose projections are `[d_model, n_head, d_head]`
/// tensors without biases, its position and segment biases, its norm; the MLP and its norm.
fn layer(c: &XlnetConfig, l: &str, seq: u64) -> Vec<Node> {
    let (h, n, d, ffn) = (c.hidden_size, c.num_heads, c.head_dim, c.intermediate_size);
    let a = format!("{l}.rel_attn");
    let t = |name: &str, shape: &[u64]| Tensor::new(format!("{a}.{name}"), shape);
    let projection = |name: &str, what: &str| {
        Node::new(format!("{a}.{name}"), Op::Linear, what, &[seq, n * d]).with([t(name, &[h, n, d])])
    };
    vec![
        projection("q", "query projection"),
        projection("k", "key projection"),
        projection("v", "value projection"),
        projection("r", "relative position projection"),
        Node::new(
            &a,
            Op::Attention,
            format!("{n} heads x {d}, two-stream, relative positions and segments"),
            &[seq, n * d],
        )
        .with([
            t("r_w_bias", &[n, d]),
            t("r_r_bias", &[n, d]),
            t("r_s_bias", &[n, d]),
            t("seg_embed", &[2, n, d]),
        ]),
        projection("o", "attention output projection"),
        layer_norm(&format!("{a}.layer_norm"), "residual add, then norm", &[seq, h], h),
        linear(&format!("{l}.ff.layer_1"), &format!("up projection, then {}", c.ff_activation), seq, h, ffn),
        linear(&format!("{l}.ff.layer_2"), "down projection", seq, ffn, h),
        layer_norm(&format!("{l}.ff.layer_norm"), "residual add, then norm", &[seq, h], h),
    ]
}

pub fn build(c: &XlnetConfig, seq: u64) -> Graph {
    let p = if c.head == XlmHead::Model { "" } else { "transformer." };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let word = format!("{p}word_embedding");
    let nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&word, format!("{v} tokens"), seq, v, h),
        Node::new(format!("{p}mask_emb"), Op::Embedding, "the query stream's learned start", &[1, h])
            .with([Tensor::new(format!("{p}mask_emb"), &[1, 1, h])]),
    ];
    let mut sections = vec![Section { name: word.clone(), role: Role::Embeddings, repeat: 1, nodes }];
    let l = format!("{p}layer.{{i}}");
    sections.push(Section {
        name: l.clone(),
        role: Role::Layers,
        repeat: c.num_layers,
        nodes: layer(c, &l, seq),
    });
    let mut head = vec![];
    let summary = |head: &mut Vec<Node>| {
        if let Some(out) = c.summary {
            head.push(linear(
                "sequence_summary.summary",
                "last token's state, projected, then tanh",
                1,
                h,
                out,
            ));
        }
    };
    let name = match c.head {
        XlmHead::Model => "",
        XlmHead::LmHead => {
            head.push(Node::new("lm_loss", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                tied_if(c.tie_word_embeddings, "lm_loss.weight", &[v, h], format!("{word}.weight")),
                Tensor::new("lm_loss.bias", &[v]),
            ]));
            "lm_loss"
        }
        XlmHead::SequenceClassification | XlmHead::MultipleChoice => {
            summary(&mut head);
            let out = if c.head == XlmHead::MultipleChoice { 1 } else { c.num_labels };
            head.push(linear("logits_proj", "labels from the summary", 1, h, out));
            "sequence_summary"
        }
        XlmHead::TokenClassification => {
            head.push(linear("classifier", "a label per token", seq, h, c.num_labels));
            "classifier"
        }
        XlmHead::QuestionAnsweringSimple => {
            head.push(linear("qa_outputs", "span start and end logits", seq, h, c.num_labels));
            "qa_outputs"
        }
        XlmHead::QuestionAnswering => {
            head = super::xlm::squad(h, seq, "");
            "squad_head"
        }
    };
    if !head.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes: head });
    }
    Graph { seq_len: seq, sections }
}
