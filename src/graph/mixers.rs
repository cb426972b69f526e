//! Token mixers beside grouped-query attention, written once: DeepSeek's latent attention (with
//! DeepSeek-V3.2's lightning indexer) and Gated DeltaNet linear attention, each under its module
//! name (`self_attn`, `linear_attn`).

use super::blocks::{layer_norm, linear, rms_norm};
use super::kv::RecurrentState;
use super::{Node, Op, Tensor};
use crate::config::spec_mixers::{LatentDims, LinearDims};

/// Latent attention under `a`: the query (direct or through its latent), the key/value latent
/// with the shared rotary key, their up-projection, attention and the output projection; with
/// `indexer`, the lightning indexer that picks each query's top-k keys.
pub(crate) fn mla(
    a: &str,
    seq: u64,
    hidden: u64,
    heads: u64,
    d: &LatentDims,
    bias: bool,
    indexer: bool,
) -> Vec<Node> {
    let h = hidden;
    let qk = d.qk_nope_head_dim + d.qk_rope_head_dim;
    let mut nodes = match d.q_lora_rank {
        None => vec![linear(&format!("{a}.q_proj"), "query projection", seq, h, heads * qk, false)],
        Some(r) => vec![
            linear(&format!("{a}.q_a_proj"), "query down-projection to the latent", seq, h, r, bias),
            rms_norm(&format!("{a}.q_a_layernorm"), "RMSNorm of the query latent", &[seq, r], r),
            linear(&format!("{a}.q_b_proj"), "query up-projection", seq, r, heads * qk, false),
        ],
    };
    let (kv, rope, v) = (d.kv_lora_rank, d.qk_rope_head_dim, d.v_head_dim);
    nodes.extend([
        linear(
            &format!("{a}.kv_a_proj_with_mqa"),
            "key/value latent plus the shared rotary key",
            seq,
            h,
            kv + rope,
            bias,
        ),
        rms_norm(&format!("{a}.kv_a_layernorm"), "RMSNorm of the key/value latent", &[seq, kv], kv),
        linear(
            &format!("{a}.kv_b_proj"),
            "key (no-rope part) and value up-projection",
            seq,
            kv,
            heads * (d.qk_nope_head_dim + v),
            false,
        ),
    ]);
    if indexer && let Some(r) = d.q_lora_rank {
        let (n, w) = (d.index_heads, d.index_head_dim);
        let i = format!("{a}.indexer");
        nodes.extend([
            linear(&format!("{i}.wq_b"), "indexer queries from the query latent", seq, r, n * w, false),
            linear(&format!("{i}.wk"), "indexer key", seq, h, w, false),
            layer_norm(&format!("{i}.k_norm"), "LayerNorm of the indexer key", &[seq, w], w, true),
            linear(&format!("{i}.weights_proj"), "indexer head weights", seq, h, n, false),
        ]);
    }
    nodes.extend([
        Node::new(
            a,
            Op::Attention,
            format!("{heads} heads, q/k {qk} ({rope} rotary), v {v}, causal"),
            &[seq, heads * v],
        ),
        linear(&format!("{a}.o_proj"), "attention output projection", seq, heads * v, h, bias),
    ]);
    nodes
}

/// Gated DeltaNet under `m` (`linear_attn`): q, k, v and the output gate z, the decay and update
/// gates (b and a), a causal convolution over q, k and v, the delta-rule recurrence with a decay
/// per value head, a gated RMSNorm per value head and the output projection.
pub(crate) fn gated_delta_net(m: &str, seq: u64, hidden: u64, d: &LinearDims, fused: bool) -> Vec<Node> {
    let h = hidden;
    let (kh, kd, vh, vd) = (d.key_heads, d.key_dim, d.value_heads, d.value_dim);
    let (qk, v) = (2 * kh * kd, vh * vd);
    let mut nodes = if fused {
        vec![
            linear(&format!("{m}.in_proj_qkvz"), "q, k, v and the output gate z", seq, h, qk + 2 * v, false),
            linear(&format!("{m}.in_proj_ba"), "update and decay gates b, a", seq, h, 2 * vh, false),
        ]
    } else {
        vec![
            linear(&format!("{m}.in_proj_qkv"), "q, k and v", seq, h, qk + v, false),
            linear(&format!("{m}.in_proj_z"), "output gate z", seq, h, v, false),
            linear(&format!("{m}.in_proj_b"), "update gate b", seq, h, vh, false),
            linear(&format!("{m}.in_proj_a"), "decay gate a", seq, h, vh, false),
        ]
    };
    nodes.extend([
        qkv_conv(m, seq, d),
        Node::new(
            m,
            Op::Scan,
            format!("gated delta rule: {vh} value heads of {vd} over {kh} key heads of {kd}"),
            &[seq, v],
        )
        .with([Tensor::new(format!("{m}.dt_bias"), &[vh]), Tensor::new(format!("{m}.A_log"), &[vh])]),
        rms_norm(&format!("{m}.norm"), "gated RMSNorm per value head", &[seq, v], vd),
        linear(&format!("{m}.out_proj"), "linear attention output projection", seq, v, h, false),
    ]);
    nodes
}

/// The per-sequence state transformers' cache keeps for `layers` Gated DeltaNet layers: the
/// convolution's last inputs and one key x value matrix per value head.
pub(crate) fn delta_net_state(layers: u64, d: &LinearDims) -> RecurrentState {
    let conv = d.conv_channels();
    RecurrentState {
        layers,
        conv_values: conv * d.conv_kernel,
        ssm_values: d.value_heads * d.key_dim * d.value_dim,
        what: if d.key_dim == 0 {
            format!(
                "conv: {conv} channels x {} kernel (a short convolution keeps no other state)",
                d.conv_kernel
            )
        } else {
            format!(
                "conv: {conv} channels x {} kernel; state: {} value heads x {} key_dim x {} value_dim",
                d.conv_kernel, d.value_heads, d.key_dim, d.value_dim
            )
        },
    }
}

/// Kimi Delta Attention under `m` (`self_attn`): q, k and v, a short causal convolution over
/// them, the per-channel forget gate (low-rank `f_a_proj`, `f_b_proj`, a dt bias per channel and
/// an A per head), the update gate b, the low-rank output gate g, a gated RMSNorm per head and
/// the output projection.
pub(crate) fn kimi_delta(m: &str, seq: u64, hidden: u64, d: &LinearDims) -> Vec<Node> {
    let (h, heads, hd) = (hidden, d.value_heads, d.value_dim);
    let qkv = heads * hd;
    let f = format!("{m}.forget_gate");
    let mut nodes = qkv_and_conv(m, seq, h, d);
    nodes.extend([
        linear(&format!("{f}.f_a_proj"), "forget gate, low rank in", seq, h, hd, false),
        linear(&format!("{f}.f_b_proj"), "forget gate, low rank out to every channel", seq, hd, qkv, false),
        linear(&format!("{m}.b_proj"), "update gate b", seq, h, heads, false),
        linear(&format!("{m}.g_a_proj"), "output gate, low rank in", seq, h, hd, false),
        linear(&format!("{m}.g_b_proj"), "output gate, low rank out", seq, hd, qkv, false),
        Node::new(
            m,
            Op::Scan,
            format!("delta rule with a decay per channel: {heads} heads of {hd}"),
            &[seq, qkv],
        )
        .with([
            Tensor::new(format!("{f}.dt_bias"), &[qkv]),
            Tensor::new(format!("{f}.A_log"), &[1, 1, heads, 1]),
        ]),
        rms_norm(&format!("{m}.o_norm"), "gated RMSNorm per head", &[seq, qkv], hd),
        linear(&format!("{m}.o_proj"), "linear attention output projection", seq, qkv, h, false),
    ]);
    nodes
}

/// Kimi Delta Attention's q, k and v projections (heads x head_dim each, no bias) and the short
/// convolution over them.
pub(crate) fn qkv_and_conv(m: &str, seq: u64, h: u64, d: &LinearDims) -> Vec<Node> {
    let qkv = d.value_heads * d.value_dim;
    vec![
        linear(&format!("{m}.q_proj"), "query projection", seq, h, qkv, false),
        linear(&format!("{m}.k_proj"), "key projection", seq, h, qkv, false),
        linear(&format!("{m}.v_proj"), "value projection", seq, h, qkv, false),
        qkv_conv(m, seq, d),
    ]
}

/// LFM2's gated short convolution under `m` (`conv`): `in_proj` makes the two gates and the
/// input (3 x hidden), a depthwise causal convolution over the gated input, `out_proj`.
pub(crate) fn short_conv(m: &str, seq: u64, hidden: u64, d: &LinearDims) -> Vec<Node> {
    let h = hidden;
    vec![
        linear(&format!("{m}.in_proj"), "the input and its two gates", seq, h, 3 * h, d.bias),
        depthwise_conv(&format!("{m}.conv"), "depthwise causal convolution", seq, h, d.conv_kernel, d.bias),
        linear(&format!("{m}.out_proj"), "convolution output projection", seq, h, h, d.bias),
    ]
}

/// A depthwise causal convolution `name` over `channels`: weight `[channels, 1, kernel]`, and a
/// bias where `bias` says.
pub(crate) fn depthwise_conv(
    name: &str,
    what: &str,
    seq: u64,
    channels: u64,
    kernel: u64,
    bias: bool,
) -> Node {
    let mut node = Node::new(name, Op::Conv1d, format!("{what}, kernel {kernel}"), &[seq, channels])
        .with([Tensor::new(format!("{name}.weight"), &[channels, 1, kernel])]);
    if bias {
        node.params.push(Tensor::new(format!("{name}.bias"), &[channels]));
    }
    node
}

/// The convolution linear attention runs over q, k and v (`conv1d`, no bias).
pub(crate) fn qkv_conv(m: &str, seq: u64, d: &LinearDims) -> Node {
    let what = "depthwise causal convolution over q, k and v";
    depthwise_conv(&format!("{m}.conv1d"), what, seq, d.conv_channels(), d.conv_kernel, false)
}

/// MiniMax's lightning attention under `a`: q, k and v in one projection, the blockwise linear
/// attention with a fixed decay per head (buffers, not weights), an RMSNorm over all heads, a
/// sigmoid output gate from the layer's input, and the output projection; no biases.
pub(crate) fn lightning(a: &str, seq: u64, hidden: u64, d: &LinearDims) -> Vec<Node> {
    let (h, inner) = (hidden, d.value_heads * d.value_dim);
    vec![
        linear(&format!("{a}.qkv_proj"), "q, k and v", seq, h, 3 * inner, false),
        Node::new(
            a,
            Op::Scan,
            format!(
                "lightning attention: {} heads of {}, a decaying key x value state",
                d.value_heads, d.value_dim
            ),
            &[seq, inner],
        ),
        rms_norm(&format!("{a}.norm"), "RMSNorm over all heads", &[seq, inner], inner),
        linear(&format!("{a}.output_gate"), "sigmoid output gate", seq, h, inner, false),
        linear(&format!("{a}.out_proj"), "lightning attention output projection", seq, inner, h, false),
    ]
}

/// The per-sequence state MiniMax's cache keeps for `layers` lightning layers: one head_dim x
/// head_dim matrix per head, no convolution.
pub(crate) fn lightning_state(layers: u64, d: &LinearDims) -> RecurrentState {
    RecurrentState {
        layers,
        conv_values: 0,
        ssm_values: d.value_heads * d.key_dim * d.value_dim,
        what: format!("state: {} heads x {} x {}", d.value_heads, d.key_dim, d.value_dim),
    }
}
