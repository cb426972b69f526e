//! The Mamba-2 mixer, written once for `mamba2` (`graph/ssm.rs`) and the hybrids that stack it
//! beside attention (`config/spec_hybrid.rs`): `in_proj` makes z, x, B, C and dt at once; a
//! depthwise causal convolution over x, B and C; the scan with one dt bias, A and D per head; a
//! gated RMSNorm over the channels; `out_proj`.

use super::blocks::{linear, rms_norm};
use super::kv::RecurrentState;
use super::mixers::depthwise_conv;
use super::{Node, Op, Tensor};
use crate::config::spec_hybrid::Mamba2Dims;

/// The mixer's nodes under `m`, from `hidden` channels.
pub(crate) fn mixer(m: &str, seq: u64, hidden: u64, d: &Mamba2Dims) -> Vec<Node> {
    let (inner, heads, n) = (d.inner, d.heads, d.state);
    let conv = d.conv_channels();
    let mut nodes = vec![
        linear(&format!("{m}.in_proj"), "z, x, B, C and dt", seq, hidden, inner + conv + heads, d.proj_bias),
        depthwise_conv(
            &format!("{m}.conv1d"),
            "depthwise causal convolution",
            seq,
            conv,
            d.conv_kernel,
            d.conv_bias,
        ),
        Node::new(
            m,
            Op::Scan,
            format!(
                "selective scan: {heads} heads x {}, {n} states, B and C in {} groups",
                d.head_dim, d.groups
            ),
            &[seq, inner],
        )
        .with([
            Tensor::new(format!("{m}.dt_bias"), &[heads]),
            Tensor::new(format!("{m}.A_log"), &[heads]),
            Tensor::new(format!("{m}.D"), &[heads]),
        ]),
    ];
    if d.gated_norm {
        nodes.push(rms_norm(&format!("{m}.norm"), "gated RMSNorm", &[seq, inner], inner));
    }
    nodes.push(linear(&format!("{m}.out_proj"), "mixer output projection", seq, inner, hidden, d.out_bias));
    nodes
}

/// The per-sequence state transformers' cache keeps for `layers` Mamba-2 layers: the
/// convolution's last `conv_kernel` inputs and a head_dim x state matrix per head.
pub(crate) fn state(layers: u64, d: &Mamba2Dims) -> RecurrentState {
    let (conv, k, heads, hd, n) = (d.conv_channels(), d.conv_kernel, d.heads, d.head_dim, d.state);
    let what = format!(
        "conv: {conv} channels x {k} conv_kernel; scan: {heads} heads x {hd} head_dim x {n} state_size"
    );
    RecurrentState { layers, conv_values: conv * k, ssm_values: heads * hd * n, what }
}
