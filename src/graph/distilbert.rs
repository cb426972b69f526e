//! The DistilBERT graph, named as transformers' modules: `distilbert.transformer.layer.{i}.attention.q_lin`,
//! `vocab_projector`.

use super::bert::{layer_norm, linear};
use super::common::{
    dropped_mlm_head, position_ids_buffer, push_head, token_span_choice_head, word_and_position_embeddings,
};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::bert::Head;
use crate::config::distilbert::DistilBertConfig;

architecture!(
    DistilBertConfig,
    |c| activations: vec![("activation", c.activation.clone())],
    prefixes: ["distilbert."],
    candidates: candidates,
    unscaled_residual_init: true
);

fn prefix(c: &DistilBertConfig) -> &'static str {
    if c.head == Head::Model { "" } else { "distilbert." }
}

pub fn build(c: &DistilBertConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, v, ffn) = (c.dim, c.vocab_size, c.hidden_dim);
    let emb = format!("{p}embeddings");
    let positions = if c.sinusoidal_pos_embds {
        format!("{} positions, fixed sinusoids (a frozen parameter)", c.max_position_embeddings)
    } else {
        format!("{} positions, learned", c.max_position_embeddings)
    };
    let mut sections =
        vec![word_and_position_embeddings(&emb, seq, [v, c.max_position_embeddings, h], positions)];
    let l = format!("{p}transformer.layer.{{i}}");
    let hd = h / c.n_heads;
    sections.push(Section {
        name: l.clone(),
        role: Role::Layers,
        repeat: c.n_layers,
        nodes: vec![
            linear(&format!("{l}.attention.q_lin"), "query projection", seq, h, h),
            linear(&format!("{l}.attention.k_lin"), "key projection", seq, h, h),
            linear(&format!("{l}.attention.v_lin"), "value projection", seq, h, h),
            Node::new(
                format!("{l}.attention"),
                Op::Attention,
                format!("{} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}))V", c.n_heads),
                &[seq, h],
            ),
            linear(&format!("{l}.attention.out_lin"), "attention output projection", seq, h, h),
            layer_norm(&format!("{l}.sa_layer_norm"), "residual add, then norm", &[seq, h], h),
            linear(&format!("{l}.ffn.lin1"), &format!("up projection, then {}", c.activation), seq, h, ffn),
            linear(&format!("{l}.ffn.lin2"), "down projection", seq, ffn, h),
            layer_norm(&format!("{l}.output_layer_norm"), "residual add, then norm", &[seq, h], h),
        ],
    });
    let word = format!("{emb}.word_embeddings.weight");
    let (name, nodes) = match c.head {
        Head::Model => ("", vec![]),
        Head::MaskedLm => (
            "vocab_transform",
            vec![
                linear("vocab_transform", &format!("dense, then {}", c.activation), seq, h, h),
                layer_norm("vocab_layer_norm", "norm", &[seq, h], h),
                Node::new("vocab_projector", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                    tied_if(c.tie_word_embeddings, "vocab_projector.weight", &[v, h], word),
                    Tensor::new("vocab_projector.bias", &[v]),
                ]),
            ],
        ),
        Head::SequenceClassification { num_labels } => (
            "classifier",
            vec![
                linear("pre_classifier", "first token's state, dense then ReLU", 1, h, h),
                linear("classifier", "labels", 1, h, num_labels),
            ],
        ),
        Head::MultipleChoice => (
            "classifier",
            vec![
                linear("pre_classifier", "first token's state, dense then ReLU", 1, h, h),
                linear("classifier", "a score per choice", 1, h, 1),
            ],
        ),
        // DistilBertForQuestionAnswering's qa_outputs is 2 wide whatever num_labels says; the
        // causal-LM, pre-training and next-sentence heads are not produced by its resolver.
        other => token_span_choice_head(other, seq, h, 2),
    };
    push_head(&mut sections, name, nodes);
    Graph { seq_len: seq, sections }
}

fn candidates(c: &DistilBertConfig) -> Vec<Candidate> {
    let (h, v) = (c.dim, c.vocab_size);
    let mut out = vec![position_ids_buffer("distilbert.", c.max_position_embeddings, "older transformers")];
    if c.head == Head::MaskedLm {
        if c.tie_word_embeddings {
            out.push(Candidate::extra(
                "tied projector stored twice",
                vec![("vocab_projector.weight".into(), vec![v, h])],
                "vocab_projector is tied to the word embeddings, but the checkpoint stores the matrix a second time",
            ));
        }
    } else {
        let names = ["vocab_transform", "vocab_layer_norm", "vocab_projector.bias"];
        let why = "the masked-LM head of the distillation checkpoint (its projector is tied to the embeddings); this class drops it";
        out.push(dropped_mlm_head(names, [h, h, v], why));
    }
    out
}
