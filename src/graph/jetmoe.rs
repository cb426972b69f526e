//! The JetMoE graph, named as transformers' `JetMoeModel` (`embed_tokens`, `layers.{i}` with
//! `self_attention` and `mlp`, `norm`) under `model.` in head classes. Both sublayers are
//! mixtures of experts: the attention's query and output projections are per-expert
//! (`self_attention.experts.input_linear` / `output_linear`, one `[experts, out, in]` tensor
//! each) beside one shared `kv_proj`, and the MLP's gated experts likewise; each has a router
//! (`router.layer`) and a bias on its output.

use super::blocks::norm_and_head;
use super::blocks::{linear, rms_norm, token_embeddings};
use super::decoder::base_prefix;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::jetmoe::JetMoeConfig;

architecture!(
    JetMoeConfig,
    |c| activations: vec![("activation_function", c.activation_function.clone())],
    prefixes: ["model."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true
);

fn checkpoint_candidates(c: &JetMoeConfig) -> Vec<Candidate> {
    if c.head == DecoderHead::CausalLm && c.dims.tie_word_embeddings {
        return vec![Candidate::extra(
            "tied lm_head stored twice",
            vec![("lm_head.weight".into(), vec![c.dims.vocab_size, c.dims.hidden_size])],
            "lm_head is tied to the token embeddings, but the checkpoint stores the matrix a second time",
        )];
    }
    vec![]
}

/// A router, the experts' `input_linear` and `output_linear` (slices `[{e}]` of stacked
/// tensors) and the bias added to their output, under `m`.
fn experts(c: &JetMoeConfig, m: &str, seq: u64, up: u64, width: u64, what: &str) -> Vec<Node> {
    let (h, n, k) =
        (c.dims.hidden_size, c.dims.num_experts.unwrap_or(1), c.dims.experts_per_token.unwrap_or(1));
    let slice = |name: &str, out: u64, inp: u64, detail: String| {
        Node::new(format!("{m}.{name}"), Op::Linear, detail, &[seq, out])
            .with([Tensor::new(format!("{m}.{name}.weight[{{e}}]"), &[out, inp])])
            .experts(n, k)
    };
    // One bias for the block, not per expert: a node of its own, outside the expert copies.
    let bias = Node::new(format!("{m}.bias"), Op::Add, "bias on the experts' combined output", &[seq, h])
        .with([Tensor::new(format!("{m}.bias"), &[h])]);
    vec![
        linear(&format!("{m}.router.layer"), &format!("router over {n} experts, top {k}"), seq, h, n, false),
        slice("input_linear", up, h, format!("{what} experts' input projection")),
        slice("output_linear", h, width, format!("{what} experts' output projection")),
        bias,
    ]
}

pub fn build(c: &JetMoeConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "model.");
    let d = &c.dims;
    let (h, v, f) = (d.hidden_size, d.vocab_size, d.intermediate_size);
    let (kv, hd) = (d.num_kv_heads, d.head_dim);
    let embed = format!("{p}embed_tokens");
    let embed_weight = format!("{embed}.weight");
    let mut sections = vec![token_embeddings(&embed, seq, v, h)];
    let l = format!("{p}layers.{{i}}");
    let a = format!("{l}.self_attention");
    let mut nodes = vec![rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h)];
    // Each of a token's top-k attention experts projects one query per key/value head.
    // The router and query projection come before attention, the output projection and bias after.
    let mut attention = experts(c, &format!("{a}.experts"), seq, kv * hd, kv * hd, "attention");
    let output = attention.split_off(2);
    nodes.extend(attention);
    nodes.push(linear(
        &format!("{a}.kv_proj"),
        "shared key and value projection",
        seq,
        h,
        2 * kv * hd,
        false,
    ));
    nodes.push(Node::new(
        a.clone(),
        Op::Attention,
        format!("{} heads x {hd} over {kv} KV heads, causal, rotary", d.num_heads),
        &[seq, d.num_heads * hd],
    ));
    nodes.extend(output);
    nodes.push(rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
    nodes.extend(experts(c, &format!("{l}.mlp"), seq, 2 * f, f, "gated MLP"));
    sections.push(Section { name: l, role: Role::Layers, repeat: d.num_layers, nodes });
    let tied_to = d.tie_word_embeddings.then_some(embed_weight.as_str());
    sections.extend(norm_and_head(
        rms_norm(&format!("{p}norm"), "final RMSNorm", &[seq, h], h),
        (c.head, "score"),
        tied_to,
        seq,
        h,
        v,
    ));
    Graph { seq_len: seq, sections }
}
