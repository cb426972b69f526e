//! DeBERTa v1's attention projections.

use super::super::bert::linear;
use super::super::{Node, Op, Tensor};
use crate::config::deberta_v2::DebertaV2Config;

/// v1's attention inputs: q, k and v fused in `in_proj` without a bias, the q and v biases as
/// parameters of their own, and the position projections (`pos_proj` without a bias for c2p,
/// `pos_q_proj` with one for p2c).
pub(super) fn projections(c: &DebertaV2Config, a: &str, seq: u64) -> Vec<Node> {
    let (h, all) = (c.hidden_size, c.num_heads * c.attention_head_size);
    let name = format!("{a}.in_proj");
    let mut nodes = vec![
        Node::new(
            &name,
            Op::Linear,
            "query, key and value in one projection; q and v biases apart",
            &[seq, 3 * all],
        )
        .with([
            Tensor::new(format!("{name}.weight"), &[3 * all, h]),
            Tensor::new(format!("{a}.q_bias"), &[all]),
            Tensor::new(format!("{a}.v_bias"), &[all]),
        ]),
    ];
    if c.pos_proj("c2p") {
        let name = format!("{a}.pos_proj");
        nodes.push(
            Node::new(
                &name,
                Op::Linear,
                "relative positions as keys (c2p), no bias",
                &[c.rel_embeddings, all],
            )
            .with([Tensor::new(format!("{name}.weight"), &[all, h])]),
        );
    }
    if c.pos_proj("p2c") {
        let detail = "relative positions as queries (p2c)";
        nodes.push(linear(&format!("{a}.pos_q_proj"), detail, c.rel_embeddings, h, all));
    }
    nodes
}
