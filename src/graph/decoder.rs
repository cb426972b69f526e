//! Building blocks the classic decoder graphs share: linears with or without bias, LayerNorms
//! with or without affine parameters, and the heads a decoder class puts on its base model.

use super::{Node, Op, Role, Section, Tensor};
use crate::config::decoder::DecoderHead;

/// An `nn.Linear`: weight `[out, in]`, and a bias when the family has one.
pub(crate) fn linear(name: &str, detail: &str, seq: u64, inp: u64, out: u64, bias: bool) -> Node {
    let mut node = Node::new(name, Op::Linear, detail, &[seq, out])
        .with([Tensor::new(format!("{name}.weight"), &[out, inp])]);
    if bias {
        node.params.push(Tensor::new(format!("{name}.bias"), &[out]));
    }
    node
}

/// An `nn.LayerNorm`; `elementwise_affine=False` leaves it without parameters.
pub(crate) fn layer_norm(name: &str, detail: &str, seq: u64, width: u64, affine: bool) -> Node {
    let mut node = Node::new(name, Op::LayerNorm, detail, &[seq, width]);
    if affine {
        node.params.push(Tensor::new(format!("{name}.weight"), &[width]));
        node.params.push(Tensor::new(format!("{name}.bias"), &[width]));
    }
    node
}

pub(crate) fn embedding(name: &str, detail: &str, seq: u64, rows: u64, width: u64) -> Node {
    Node::new(name, Op::Embedding, detail, &[seq, width])
        .with([Tensor::new(format!("{name}.weight"), &[rows, width])])
}

/// How a family names and builds its heads.
pub(crate) struct HeadNames<'a> {
    /// `lm_head`, or GPT-NeoX's `embed_out`.
    pub lm: &'a str,
    /// Phi's LM head has a bias; the others do not.
    pub lm_bias: bool,
    /// `classifier`, or Phi's `score` (both with bias).
    pub token: &'a str,
    /// The word-embedding matrix the LM head is tied to, when it is tied.
    pub tied_to: Option<&'a str>,
}

/// The head section of a class, none for the bare model. `width` is the hidden state the head
/// reads (OPT's `word_embed_proj_dim`).
pub(crate) fn head_section(
    head: DecoderHead,
    names: &HeadNames,
    seq: u64,
    width: u64,
    vocab: u64,
) -> Option<Section> {
    let (name, node) = match head {
        DecoderHead::Model => return None,
        DecoderHead::CausalLm => {
            let mut node = linear(names.lm, "logits over the vocabulary", seq, width, vocab, names.lm_bias);
            if let Some(target) = names.tied_to {
                node.params[0].tied_to = Some(target.to_string());
            }
            (names.lm, node)
        }
        DecoderHead::SequenceClassification { num_labels } => (
            "score",
            linear("score", "labels, read at the last non-padding token", 1, width, num_labels, false),
        ),
        DecoderHead::TokenClassification { num_labels } => {
            (names.token, linear(names.token, "a label per token", seq, width, num_labels, true))
        }
        DecoderHead::QuestionAnswering => {
            ("qa_outputs", linear("qa_outputs", "span start and end logits", seq, width, 2, true))
        }
    };
    Some(Section { name: name.into(), role: Role::Head, repeat: 1, nodes: vec![node] })
}

/// The prefix under which a head class keeps its base model (`transformer.`); none for the bare
/// model class.
pub(crate) fn base_prefix(head: DecoderHead, prefix: &'static str) -> &'static str {
    if head == DecoderHead::Model { "" } else { prefix }
}
