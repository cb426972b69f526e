//! The mixture of experts of a described type (`config/spec.rs`), for `graph/spec.rs`: the
//! router, the routed experts (one module each, or stacked tensors), the shared expert.

use super::blocks::linear;
use super::spec::mlp;
use super::spec_extras::{expert_extras, router_extras, shared_beside};
use super::{Node, Op, Tensor};
use crate::config::spec::{Experts, MoeSpec, Shared, SpecConfig};

pub(super) fn moe(c: &SpecConfig, m: &MoeSpec, l: &str, seq: u64) -> Vec<Node> {
    let (h, f) = (c.hidden_size, c.expert_width);
    let (n, k) = (c.num_experts.unwrap_or(1), c.experts_per_token.unwrap_or(1));
    let b = format!("{l}.{}", m.block);
    let r = format!("{b}.{}", m.router);
    let mut router = linear(&r, &format!("router over {n} experts, top {k}"), seq, h, n, m.router_bias);
    router_extras(m, &b, &r, n, &mut router);
    let mut nodes = vec![router];
    match m.experts {
        Experts::PerExpert { gate, up, down } => {
            let e = format!("{b}.experts.{{e}}");
            nodes.push(
                linear(&format!("{e}.{gate}"), "expert gate projection", seq, h, f, false).experts(n, k),
            );
            nodes.push(linear(&format!("{e}.{up}"), "expert up projection", seq, h, f, false).experts(n, k));
            nodes.push(
                linear(&format!("{e}.{down}"), "expert down projection", seq, f, h, false).experts(n, k),
            );
        }
        Experts::Stacked { bias } => {
            // One [experts, ...] tensor each; `[{e}]` names an expert's slice of it.
            let e = format!("{b}.experts");
            let slice = |name: &str, out: u64, inp: u64, what: &str| {
                let mut node = Node::new(format!("{e}.{name}"), Op::Linear, what, &[seq, out])
                    .with([Tensor::new(format!("{e}.{name}[{{e}}]"), &[out, inp])]);
                if bias {
                    node.params.push(Tensor::new(format!("{e}.{name}_bias[{{e}}]"), &[out]));
                }
                node.experts(n, k)
            };
            nodes.push(slice("gate_up_proj", 2 * f, h, "stacked experts' gate and up projection"));
            nodes.push(slice("down_proj", h, f, "stacked experts' down projection"));
        }
    }
    match m.shared {
        Shared::None => {}
        Shared::Beside { name, .. } => {
            if let Some(s) = c.shared_width {
                nodes.extend(shared_beside(&format!("{l}.{name}"), seq, h, s, &c.hidden_act));
            }
        }
        Shared::Width { name, .. } | Shared::Times { name, .. } => {
            if let Some(s) = c.shared_width {
                nodes.extend(mlp(c, &format!("{b}.{name}"), seq, s, c.mlp_bias));
                if m.shared_gate {
                    nodes.push(linear(
                        &format!("{b}.shared_expert_gate"),
                        "sigmoid gate on the shared expert",
                        seq,
                        h,
                        1,
                        false,
                    ));
                }
            }
        }
    }
    expert_extras(c, &b, seq, &mut nodes);
    nodes
}
