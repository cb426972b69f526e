//! OLMo Hybrid's Gated DeltaNet (`config/spec_olmo_hybrid.rs`) beside the shared builder
//! (`graph/spec.rs`), and the norms its two kinds of layer hold.

use super::blocks::{linear, rms_norm};
use super::mixers::qkv_conv;
use super::spec_arch::Kind;
use super::{Node, Op, Tensor};
use crate::config::spec::{Linear, Slot, SpecConfig};
use crate::config::spec_mixers::LinearDims;

/// Gated DeltaNet under `m` (`linear_attn`), each projection its own module: q, k and v, the
/// decay and update gates a and b (one per value head), the output gate g, a causal convolution
/// over q, k and v, the delta rule, a gated RMSNorm per value head and the output projection.
pub(super) fn delta_net(m: &str, seq: u64, hidden: u64, d: &LinearDims) -> Vec<Node> {
    let h = hidden;
    let (kh, kd, vh, vd) = (d.key_heads, d.key_dim, d.value_heads, d.value_dim);
    let (k, v) = (kh * kd, vh * vd);
    vec![
        linear(&format!("{m}.q_proj"), "query projection", seq, h, k, false),
        linear(&format!("{m}.k_proj"), "key projection", seq, h, k, false),
        linear(&format!("{m}.v_proj"), "value projection", seq, h, v, false),
        linear(&format!("{m}.a_proj"), "decay gate a", seq, h, vh, false),
        linear(&format!("{m}.b_proj"), "update gate b", seq, h, vh, false),
        linear(&format!("{m}.g_proj"), "output gate g", seq, h, v, false),
        qkv_conv(m, seq, d),
        Node::new(
            m,
            Op::Scan,
            format!("gated delta rule: {vh} value heads of {vd} over {kh} key heads of {kd}"),
            &[seq, v],
        )
        .with([Tensor::new(format!("{m}.A_log"), &[vh]), Tensor::new(format!("{m}.dt_bias"), &[vh])]),
        rms_norm(&format!("{m}.o_norm"), "gated RMSNorm per value head", &[seq, v], vd),
        linear(&format!("{m}.o_proj"), "linear attention output projection", seq, v, h, false),
    ]
}

/// The norms of a layer of kind `k`: OLMo Hybrid's linear layers norm before each sublayer as
/// Llama's do, its attention layers after, as OLMo 3's; every other type has one list.
pub(super) fn layer_norms(c: &SpecConfig, k: Kind) -> &'static [(&'static str, Slot)] {
    if k.linear && c.spec.linear == Linear::OlmoDeltaNet {
        crate::config::spec_dense::PRE
    } else {
        c.spec.layer_norms
    }
}
