//! Switch Transformers' sparse feed-forward, the one block of the T5 lineage T5 itself lacks.

use super::t5::linear;
use super::{Node, Op, Tensor};
use crate::config::t5::{SwitchLayers, T5Config};

/// `mlp.router.classifier` picks one of `num_experts` copies of the dense `wi`/`wo` MLP
/// (`mlp.experts.expert_{e}`) per token.
pub(super) fn switch_experts(c: &T5Config, s: SwitchLayers, at: &str, seq: u64) -> Vec<Node> {
    let (h, ff, n) = (c.d_model, c.d_ff, s.num_experts);
    let router = format!("{at}.router.classifier");
    let mut classifier = Node::new(&router, Op::Linear, format!("top-1 router over {n} experts"), &[seq, n])
        .with([Tensor::new(format!("{router}.weight"), &[n, h])]);
    if s.router_bias {
        classifier.params.push(Tensor::new(format!("{router}.bias"), &[n]));
    }
    let e = format!("{at}.experts.expert_{{e}}");
    vec![
        classifier,
        linear(&format!("{e}.wi"), &format!("expert up projection, then {}", c.feed_forward_proj), seq, h, ff)
            .experts(n, 1),
        linear(&format!("{e}.wo"), "expert down projection", seq, ff, h).experts(n, 1),
    ]
}
