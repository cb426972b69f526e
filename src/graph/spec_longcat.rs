//! LongCat-Flash's layer (`config/spec_longcat.rs`): two rounds of a norm, DeepSeek's latent
//! attention, a norm and a dense MLP; after the first round's second norm the mixture of experts
//! reads the same input, its output joining the residual at the end of the layer. Its router
//! scores the routed experts and the zero-computation (identity) ones together; the stacked
//! `gate_up_proj` holds a slice for every expert, identities included, `down_proj` only the routed.

use super::blocks::linear;
use super::mixers::mla;
use super::spec::{mlp, norm_node};
use super::{Node, Op, Tensor};
use crate::config::spec::SpecConfig;
use crate::config::spec_longcat::attentions_per_layer;

pub(super) fn layer(c: &SpecConfig, l: &str, seq: u64) -> Option<Vec<Node>> {
    if attentions_per_layer(c.spec) != 2 {
        return None;
    }
    let d = c.latent.as_ref()?;
    let mut nodes = vec![];
    for j in 0..2 {
        nodes.push(norm_node(c, &format!("{l}.input_layernorm.{j}"), "before attention", seq));
        let a = format!("{l}.self_attn.{j}");
        let mut attn = mla(&a, seq, c.hidden_size, c.num_heads, d, c.qkv_bias, false);
        // `q_b_proj` makes `qk_head_dim` per head, which the file may set apart from nope + rope.
        if let (Some(q), Some(r)) = (attn.iter_mut().find(|n| n.name.ends_with(".q_b_proj")), d.q_lora_rank) {
            *q = linear(
                &q.name,
                "query up-projection",
                seq,
                r,
                c.num_heads * c.own.longcat.qk_head_dim,
                false,
            );
        }
        nodes.extend(attn);
        nodes.push(norm_node(c, &format!("{l}.post_attention_layernorm.{j}"), "before the MLP", seq));
        if j == 0 {
            nodes.extend(experts(c, &format!("{l}.mlp"), seq));
        }
        nodes.extend(mlp(c, &format!("{l}.mlps.{j}"), seq, c.intermediate_size, false));
    }
    Some(nodes)
}

fn experts(c: &SpecConfig, b: &str, seq: u64) -> Vec<Node> {
    let (h, f) = (c.hidden_size, c.expert_width);
    let (n, k) = (c.num_experts.unwrap_or(1), c.experts_per_token.unwrap_or(1));
    let (zero, router_bias) = (c.own.longcat.zero_experts, c.own.longcat.router_bias);
    let all = n + zero;
    let what = format!(
        "router over {n} experts and {zero} identity experts, top {k}, with a score-correction bias buffer"
    );
    let router = linear(&format!("{b}.router.classifier"), &what, seq, h, all, router_bias);
    let e = format!("{b}.experts");
    let slice = |name: &str, copies: u64, out: u64, inp: u64, what: &str| {
        Node::new(format!("{e}.{name}"), Op::Linear, what, &[seq, out])
            .with([Tensor::new(format!("{e}.{name}[{{e}}]"), &[out, inp])])
            .experts(copies, k)
    };
    vec![
        router,
        slice(
            "gate_up_proj",
            all,
            2 * f,
            h,
            "stacked experts' gate and up projection (identity experts' slices unused)",
        ),
        slice("down_proj", n, h, f, "stacked experts' down projection"),
    ]
}
