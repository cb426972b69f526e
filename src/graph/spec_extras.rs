//! The switches of a described type (`config/spec.rs`) that adjust the shared blocks after
//! `graph/spec.rs` stacks them: q/k norm names, Helium's hidden-to-hidden `o_proj`, and the extra
//! tensors a type adds to each layer (BitNet's sub-norms, DiffLlama's lambdas, xIELU's alphas).

use super::blocks::{linear, rms_norm};
use super::{Node, Op, Tensor};
use crate::config::spec::{Attn, Extra, MoeSpec, NormKind, Place, SpecConfig, Width};
use crate::config::spec_dec6::{AttnShape, LayerHeads};

/// Renames the q/k norms and widens `o_proj` where the type says so.
pub(super) fn adjust_attention(c: &SpecConfig, a: &str, s: AttnShape, seq: u64, nodes: &mut Vec<Node>) {
    let heads = s.heads;
    narrow_values(c, a, s, seq, nodes);
    let [qn, kn] = c.spec.qk_norm_names;
    if c.norm == NormKind::BareRms {
        let (q, k) = (format!("{a}.q_norm"), format!("{a}.k_norm"));
        for n in nodes.iter_mut().filter(|n| n.name == q || n.name == k) {
            n.params.clear();
            n.detail = n.detail.replace("RMSNorm", "RMSNorm without weight");
        }
    }
    if qn != "q_norm" {
        for n in nodes.iter_mut() {
            rename(n, &format!("{a}.q_norm"), &format!("{a}.{qn}"));
            rename(n, &format!("{a}.k_norm"), &format!("{a}.{kn}"));
        }
    }
    if c.spec.attn == Attn::GateProj {
        // Its own projection to heads x head_dim, sigmoid-gating the output before `o_proj`.
        let gate = linear(
            &format!("{a}.gate_proj"),
            "sigmoid output gate",
            seq,
            c.hidden_size,
            heads * c.head_dim,
            false,
        );
        let at = nodes.len().saturating_sub(1);
        nodes.insert(at, gate);
    }
    if c.spec.attn == Attn::HeadGate {
        // Laguna's softplus gate may be per channel (`gating: "per-element"`).
        let (what, width) = match (c.spec.layer_heads, c.own.gate_per_channel) {
            (LayerHeads::Same, _) => ("sigmoid gate per head", heads),
            (_, false) => ("softplus gate per head", heads),
            (_, true) => ("softplus gate per channel", heads * c.head_dim),
        };
        let gate = linear(&format!("{a}.g_proj"), what, seq, c.hidden_size, width, false);
        let at = nodes.len().saturating_sub(1);
        nodes.insert(at, gate);
    }
    if c.spec.o_from_hidden
        && let Some(o) = nodes.last_mut()
    {
        *o = linear(
            &format!("{a}.o_proj"),
            "attention output projection, hidden to hidden",
            seq,
            c.hidden_size,
            c.hidden_size,
            c.o_bias,
        );
    }
}

/// Values narrower than queries and keys (MiMo-V2-Flash's `v_head_dim`): `v_proj` makes
/// `v_head_dim` per key/value head, and `o_proj` reads `v_head_dim` per query head.
fn narrow_values(c: &SpecConfig, a: &str, s: AttnShape, seq: u64, nodes: &mut [Node]) {
    let v = c.own.v_head_dim;
    if v == c.head_dim {
        return;
    }
    let h = c.hidden_size;
    for n in nodes.iter_mut() {
        if n.name == format!("{a}.v_proj") {
            *n = linear(&n.name, "value projection, v_head_dim per head", seq, h, s.kv_heads * v, c.qkv_bias);
        } else if n.name == format!("{a}.o_proj") {
            *n = linear(&n.name, "attention output projection", seq, s.heads * v, h, c.o_bias);
        } else if n.op == Op::Attention {
            n.detail.push_str(&format!(", values {v} wide"));
            n.output = vec![seq, s.heads * v];
        }
    }
}

/// The type's extra tensors under `self_attn`: norms before `o_proj`, parameters on the attention.
pub(super) fn attention_extras(c: &SpecConfig, a: &str, seq: u64, nodes: &mut Vec<Node>) {
    if let Some(at) = nodes.iter().position(|n| n.op == Op::Attention) {
        let norms = extras(c, Place::Attention, a, seq, &mut nodes[at]);
        insert_before_last(nodes, norms);
        if c.spec.attn == Attn::SeparateGate {
            let heads = c.num_heads;
            let mut gate = linear(
                &format!("{a}.gate_proj"),
                "sigmoid gate on the attention output, plus a bias per head",
                seq,
                c.hidden_size,
                heads * c.head_dim,
                false,
            );
            gate.params.push(Tensor::new(format!("{a}.gate_bias"), &[heads]));
            insert_before_last(nodes, vec![gate]);
        }
    }
}

/// The type's extra tensors under the MLP: norms before the down projection, parameters on the
/// first projection.
pub(super) fn mlp_extras(c: &SpecConfig, prefix: &str, seq: u64, nodes: &mut Vec<Node>) {
    if let Some(first) = nodes.first_mut() {
        let norms = extras(c, Place::Mlp, prefix, seq, first);
        insert_before_last(nodes, norms);
    }
}

/// The type's norms on the experts' output, inside the block (A.X K1's `post_mlp_layernorm`).
pub(super) fn expert_extras(c: &SpecConfig, block: &str, seq: u64, nodes: &mut Vec<Node>) {
    if let Some(first) = nodes.first_mut() {
        let norms = extras(c, Place::Experts, block, seq, first);
        nodes.extend(norms);
    }
}

/// The type's extra tensors at one place: norms as nodes of their own, bare parameters on `host`.
fn extras(c: &SpecConfig, place: Place, at: &str, seq: u64, host: &mut Node) -> Vec<Node> {
    let width = |w: Width| match w {
        Width::Hidden => c.hidden_size,
        Width::Ffn => c.intermediate_size,
        Width::HeadDim => c.head_dim,
        Width::One => 1,
    };
    let here = |e: &&Extra| e.place == place && e.when_act.is_none_or(|a| a == c.hidden_act);
    let mut nodes = vec![];
    for e in c.spec.extras.iter().filter(here) {
        let (name, w) = (format!("{at}.{}", e.name), width(e.width));
        if e.norm {
            nodes.push(rms_norm(&name, "RMSNorm of the sublayer's output", &[seq, w], w));
        } else {
            host.params.push(Tensor::new(name, &[w]));
        }
    }
    nodes
}

/// Moves the nodes before `o_proj` (or `down_proj`) in, after what precedes it.
fn insert_before_last(nodes: &mut Vec<Node>, extra: Vec<Node>) {
    let at = nodes.len().saturating_sub(1);
    nodes.splice(at..at, extra);
}

/// Renames a node (and its tensors) from one module name to another.
fn rename(n: &mut Node, from: &str, to: &str) {
    if n.name == from {
        n.name = to.to_string();
        for t in n.params.iter_mut() {
            if let Some(rest) = t.name.strip_prefix(from) {
                t.name = format!("{to}{rest}");
            }
        }
    }
}

/// The router's parameters beyond its weight: ERNIE's `[1, experts]` correction bias under
/// `moe_statics`, AFMoE's `[experts]` expert bias on the block.
pub(super) fn router_extras(m: &MoeSpec, block: &str, r: &str, n: u64, router: &mut Node) {
    if m.correction_param {
        router.params.push(Tensor::new(format!("{r}.moe_statics.e_score_correction_bias"), &[1, n]));
    }
    if let Some(name) = m.expert_bias {
        router.detail.push_str(", with a learned bias on expert choice");
        router.params.push(Tensor::new(format!("{block}.{name}"), &[n]));
    }
    if m.correction_buffer.is_some() {
        router.detail.push_str(", with a score-correction bias buffer");
    }
}

/// Granite's shared MLP beside the experts: `input_linear` makes gate and up in one matrix,
/// `output_linear` brings the product back to the hidden width (no biases).
pub(super) fn shared_beside(prefix: &str, seq: u64, hidden: u64, width: u64, act: &str) -> Vec<Node> {
    vec![
        linear(
            &format!("{prefix}.input_linear"),
            "shared MLP's fused gate and up projection",
            seq,
            hidden,
            2 * width,
            false,
        ),
        Node::new(format!("{prefix}.act_fn"), Op::Activation, format!("{act}(gate) * up"), &[seq, width]),
        linear(&format!("{prefix}.output_linear"), "shared MLP's down projection", seq, width, hidden, false),
    ]
}
