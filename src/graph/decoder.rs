//! What the classic decoder graphs share beyond the blocks (`graph/blocks.rs`): a LayerNorm over
//! one sequence, and where a head class keeps its base model.

pub(crate) use super::blocks::{HeadNames, embedding, head_section, linear};
use crate::config::decoder::DecoderHead;

/// The prefix under which a head class keeps its base model (`transformer.`); none for the bare
/// model class.
pub(crate) fn base_prefix(head: DecoderHead, prefix: &'static str) -> &'static str {
    if head == DecoderHead::Model { "" } else { prefix }
}

/// An `nn.LayerNorm` over the sequence; `elementwise_affine=False` leaves it without parameters.
pub(crate) fn layer_norm(name: &str, detail: &str, seq: u64, width: u64, affine: bool) -> super::Node {
    super::blocks::layer_norm(name, detail, &[seq, width], width, affine)
}
