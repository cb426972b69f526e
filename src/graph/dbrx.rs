//! The DBRX graph, named as transformers' `DbrxModel` (`wte`, `blocks.{i}.norm_attn_norm` with
//! `norm_1`, `attn.Wqkv`, `attn.out_proj`, `norm_2`, then `ffn.router.layer` and the experts'
//! stacked `ffn.experts.mlp.w1`, `v1`, `w2`, each `[experts x ffn, d_model]`; `norm_f`) under
//! `transformer.` in `DbrxForCausalLM`. Its LayerNorms have a weight and no bias.

use super::blocks::{linear, norm_and_head, token_embeddings};
use super::decoder::base_prefix;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::dbrx::DbrxConfig;

architecture!(
    DbrxConfig,
    |c| activations: vec![("ffn_config.ffn_act_fn", c.ffn_act_fn.clone())],
    prefixes: ["transformer."],
    candidates: no_candidates,
    unscaled_residual_init: true
);

fn no_candidates(_: &DbrxConfig) -> Vec<Candidate> {
    vec![]
}

fn norm(name: &str, what: &str, seq: u64, h: u64) -> Node {
    Node::new(name, Op::LayerNorm, format!("LayerNorm without bias, {what}"), &[seq, h])
        .with([Tensor::new(format!("{name}.weight"), &[h])])
}

pub fn build(c: &DbrxConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "transformer.");
    let d = &c.dims;
    let (h, f, v) = (d.hidden_size, d.intermediate_size, d.vocab_size);
    let (n, k) = (d.num_experts.unwrap_or(1), d.experts_per_token.unwrap_or(1));
    let hd = d.head_dim;
    let mut sections = vec![token_embeddings(&format!("{p}wte"), seq, v, h)];
    let l = format!("{p}blocks.{{i}}");
    let a = format!("{l}.norm_attn_norm");
    let x = format!("{l}.ffn.experts.mlp");
    // One `[experts x ffn, d_model]` tensor each; `[{e}]` names an expert's slice of it.
    let expert = |name: &str, out: u64, what: &str| {
        Node::new(format!("{x}.{name}"), Op::Linear, what, &[seq, out])
            .with([Tensor::new(format!("{x}.{name}[{{e}}]"), &[f, h])])
            .experts(n, k)
    };
    let nodes = vec![
        norm(&format!("{a}.norm_1"), "before attention", seq, h),
        linear(&format!("{a}.attn.Wqkv"), "fused q, k, v", seq, h, h + 2 * d.num_kv_heads * hd, false),
        Node::new(
            format!("{a}.attn"),
            Op::Attention,
            format!("{} heads x {hd} over {} KV heads, causal, rotary", d.num_heads, d.num_kv_heads),
            &[seq, h],
        ),
        linear(&format!("{a}.attn.out_proj"), "attention output projection", seq, h, h, false),
        norm(&format!("{a}.norm_2"), "before the experts", seq, h),
        linear(
            &format!("{l}.ffn.router.layer"),
            &format!("router over {n} experts, top {k}"),
            seq,
            h,
            n,
            false,
        ),
        expert("w1", f, &format!("expert gate projection, then {}", c.ffn_act_fn)),
        expert("v1", f, "expert up projection"),
        expert("w2", h, "expert down projection (w2 stored transposed)"),
    ];
    sections.push(Section { name: l, role: Role::Layers, repeat: d.num_layers, nodes });
    sections.extend(norm_and_head(
        norm(&format!("{p}norm_f"), "final", seq, h),
        (c.head, "score"),
        None,
        seq,
        h,
        v,
    ));
    Graph { seq_len: seq, sections }
}
