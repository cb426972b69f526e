//! Switch Transformers' sparse feed-forward, the one block of the T5 lineage T5 itself lacks, and
//! the router it shares with NLLB-MoE.

use super::t5::linear;
use super::{Node, Op, Role, Section, Tensor};
use crate::config::t5::{SwitchLayers, T5Config};

/// `mlp.router.classifier` picks one of `num_experts` copies of the dense `wi`/`wo` MLP
/// (`mlp.experts.expert_{e}`) per token.
pub(super) fn switch_experts(c: &T5Config, s: SwitchLayers, at: &str, seq: u64) -> Vec<Node> {
    let (h, ff, n) = (c.d_model, c.d_ff, s.num_experts);
    let e = format!("{at}.experts.expert_{{e}}");
    vec![
        router(&format!("{at}.router.classifier"), "top-1", n, h, s.router_bias, seq),
        linear(
            &format!("{e}.wi"),
            &format!("expert up projection, then {}", c.feed_forward_proj),
            seq,
            h,
            ff,
        )
        .experts(n, 1),
        linear(&format!("{e}.wo"), "expert down projection", seq, ff, h).experts(n, 1),
    ]
}

/// The `router.classifier` of Switch's and NLLB-MoE's sparse layers: d -> one logit per expert.
pub(super) fn router(name: &str, top: &str, n: u64, h: u64, bias: bool, seq: u64) -> Node {
    let mut node = Node::new(name, Op::Linear, format!("{top} router over {n} experts"), &[seq, n])
        .with([Tensor::new(format!("{name}.weight"), &[n, h])]);
    if bias {
        node.params.push(Tensor::new(format!("{name}.bias"), &[n]));
    }
    node
}

/// A stack whose layers differ by `sparse(i)`: the run of like layers from layer 0 repeats as
/// `{at}.{i}`, later layers are named one by one (`{at}.5`), each built by `layer(name, sparse)`.
pub(super) fn layer_runs(
    at: &str,
    layers: u64,
    sparse: impl Fn(u64) -> bool,
    layer: impl Fn(&str, bool) -> Vec<Node>,
) -> Vec<Section> {
    let first_run = (0..layers).take_while(|i| sparse(*i) == sparse(0)).count() as u64;
    let run = format!("{at}.{{i}}");
    let nodes = layer(&run, sparse(0));
    let mut out = vec![Section { name: run, role: Role::Layers, repeat: first_run, nodes }];
    for i in first_run..layers {
        let name = format!("{at}.{i}");
        let nodes = layer(&name, sparse(i));
        out.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    }
    out
}
