//! Ling 3's blocks (`config/spec_bailing_hybrid.rs`) beside the shared builder (`graph/spec.rs`):
//! its delta attention and its head-gated latent attention, both under `self_attn`.

use super::blocks::{linear, rms_norm};
use super::mixers::qkv_and_conv;
use super::spec::attention;
use super::spec_arch::Kind;
use super::{Node, Op, Tensor};
use crate::config::spec::SpecConfig;
use crate::config::spec_mixers::LinearDims;

/// Delta attention under `m`: q, k and v, a short causal convolution over them, the forget gate
/// (`f_proj` to every channel, a dt bias per channel, an A per head), the update gate b, the
/// output gate g (to every channel), a gated RMSNorm per head and the output projection.
pub(super) fn delta(m: &str, seq: u64, hidden: u64, d: &LinearDims) -> Vec<Node> {
    let (h, heads, hd) = (hidden, d.value_heads, d.value_dim);
    let qkv = heads * hd;
    let f = format!("{m}.forget_gate");
    let mut nodes = qkv_and_conv(m, seq, h, d);
    nodes.extend([
        linear(&format!("{f}.f_proj"), "forget gate, to every channel", seq, h, qkv, false),
        linear(&format!("{m}.b_proj"), "update gate b", seq, h, heads, false),
        Node::new(
            m,
            Op::Scan,
            format!("delta rule with a decay per channel: {heads} heads of {hd}"),
            &[seq, qkv],
        )
        .with([Tensor::new(format!("{f}.A_log"), &[heads]), Tensor::new(format!("{f}.dt_bias"), &[qkv])]),
        linear(&format!("{m}.g_proj"), "output gate g", seq, h, qkv, false),
        rms_norm(&format!("{m}.o_norm"), "gated RMSNorm per head", &[seq, qkv], hd),
        linear(&format!("{m}.o_proj"), "linear attention output projection", seq, qkv, h, false),
    ]);
    nodes
}

/// Latent attention, each head's output scaled by a sigmoid of `g_proj` (hidden to heads)
/// before `o_proj`.
pub(super) fn gated_latent(c: &SpecConfig, l: &str, k: Kind, seq: u64) -> Vec<Node> {
    let mut nodes = attention(c, l, Kind { indexed: false, ..k }, seq);
    let gate = linear(
        &format!("{l}.self_attn.g_proj"),
        "sigmoid gate per head",
        seq,
        c.hidden_size,
        c.num_heads,
        false,
    );
    let at = nodes.len().saturating_sub(1);
    nodes.insert(at, gate);
    nodes
}
