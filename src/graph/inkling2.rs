//! The Inkling 2 language model's graph, named as transformers' modules:
//! `model.embed_tokens` (with its `embed_norm`), `model.layers.{i}.attention_input` and
//! `mlp_input` (block attention residuals), `self_attn` (`q_proj`, `k_proj`, `v_proj` each a
//! `linear` with its scale or short convolution, `relative_position_bias`, `sink_proj`, the gated
//! `o_proj`), the post-attention and post-MLP convolutions, `mlp` (router and stacked experts),
//! `model.norm`, `model.final_input`, `lm_head`.

use super::blocks::{linear, rms_norm};
use super::common::no_candidates;
use super::inkling::{Shapes, cache, frame, sconv, stack};
use super::kv::KvLayout;
use super::{Graph, Node, Op, Tensor};
use crate::config::inkling2::Inkling2TextConfig;

architecture!(
    Inkling2TextConfig,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        let c = self;
        let shapes = Shapes { full: c.sizes.full, sliding: c.sizes.sliding, window: c.sizes.window, hidden: c.sizes.hidden_size };
        // Inkling 2 Loop's cache keeps an entry per visit of a looped layer.
        let visited: Vec<bool> = match &c.loop_layers {
            Some(l) => l.visits(c.sizes.num_layers).iter().map(|i| c.sliding_layers[*i as usize]).collect(),
            None => c.sliding_layers.clone(),
        };
        Some(cache(&visited, shapes, c.sizes.conv_kernel_size))
    }
    fn training_notes(&self) -> Vec<String> {
        let mut notes = vec!["Inkling 2's short convolutions run in float32 and their saved inputs are counted at the activations' width; its relative-position bias and block attention residuals are not added to the attention estimate.".into()];
        if let Some(l) = &self.loop_layers {
            notes.push(format!("Layers {} to {} run {} times with the same weights; the activations and compute count them once (the KV cache keeps an entry per pass).", l.start, l.end.saturating_sub(1), l.passes));
        }
        notes
    }
);

/// A block attention residual: learned queries (one, or three for the full layers' q, k and v
/// inputs) attending over the outputs of earlier blocks of layers.
fn residual(name: &str, seq: u64, h: u64, queries: u64) -> Node {
    let shape: Vec<u64> = if queries == 1 { vec![h] } else { vec![queries, h] };
    Node::new(name, Op::Attention, format!("{queries} learned queries over the blocks' outputs"), &[seq, h])
        .with([Tensor::new(format!("{name}.query"), &shape)])
}

fn scale(name: &str, what: &str, seq: u64, heads: u64, width: u64) -> Node {
    Node::new(
        name,
        Op::LayerNorm,
        format!("learned scale per head and channel, then L2 clip, {what}"),
        &[seq, heads * width],
    )
    .with([Tensor::new(format!("{name}.scale"), &[heads, width])])
}

/// Keys or values: a projection, then a short convolution (dynamic on full layers: static taps
/// plus taps projected from the layer input per key/value head).
fn key_value(c: &Inkling2TextConfig, s: &str, what: &str, sliding: bool, seq: u64) -> Vec<Node> {
    let (h, k) = (c.sizes.hidden_size, c.sizes.conv_kernel_size);
    let a = if sliding { c.sizes.sliding } else { c.sizes.full };
    let w = a.kv_heads * a.head_dim;
    let mut nodes = vec![linear(&format!("{s}.linear"), &format!("{what} projection"), seq, h, w, false)];
    if sliding {
        nodes.push(sconv(&format!("{s}.sconv"), what, seq, w, k));
    } else {
        let conv = format!("{s}.sconv");
        nodes.push(
            Node::new(
                &conv,
                Op::Conv1d,
                format!("dynamic short convolution over {what}, kernel {k}"),
                &[seq, w],
            )
            .with([Tensor::new(format!("{conv}.static_weight"), &[k, w])]),
        );
        nodes.push(linear(
            &format!("{conv}.weight_proj"),
            "per-token taps per head",
            seq,
            h,
            a.kv_heads * k,
            false,
        ));
    }
    nodes
}

/// A looped layer's message gate: unweighted norms of the state and the message, `down_proj`
/// (2 x hidden to the rank), then the forget and message gates back to hidden.
fn message_gate(name: &str, seq: u64, h: u64, rank: u64) -> Vec<Node> {
    vec![
        linear(&format!("{name}.down_proj"), "state and message to the gate rank", seq, 2 * h, rank, false),
        linear(&format!("{name}.forget_gate_proj"), "tanh forget gate", seq, rank, h, false),
        linear(&format!("{name}.message_gate_proj"), "tanh message gate", seq, rank, h, false),
    ]
}

fn layer(
    c: &Inkling2TextConfig,
    l: &str,
    (sliding, first, looped): (bool, bool, bool),
    seq: u64,
) -> Vec<Node> {
    let h = c.sizes.hidden_size;
    let a = if sliding { c.sizes.sliding } else { c.sizes.full };
    let (s, q) = (format!("{l}.self_attn"), a.heads * a.head_dim);
    let mut nodes = vec![];
    if !first {
        nodes.push(residual(&format!("{l}.attention_input"), seq, h, if sliding { 1 } else { 3 }));
    }
    if let Some(rank) = c.loop_layers.filter(|_| looped).map(|x| x.gate_rank) {
        for g in ["q", "k", "v", "mlp"] {
            nodes.extend(message_gate(&format!("{l}.{g}_message_gate"), seq, h, rank));
        }
    }
    let norms: &[&str] = if sliding { &["input"] } else { &["q_input", "k_input", "v_input"] };
    for n in norms {
        nodes.push(rms_norm(&format!("{l}.{n}_layernorm"), "RMSNorm before attention", &[seq, h], h));
    }
    nodes.push(linear(&format!("{s}.q_proj.linear"), "query projection", seq, h, q, false));
    nodes.push(scale(&format!("{s}.q_proj.norm"), "queries", seq, a.heads, a.head_dim));
    nodes.extend(key_value(c, &format!("{s}.k_proj"), "the keys", sliding, seq));
    nodes.extend(key_value(c, &format!("{s}.v_proj"), "the values", sliding, seq));
    let r = format!("{s}.relative_position_bias");
    nodes.push(linear(
        &format!("{r}.linear"),
        "relative states per head",
        seq,
        h,
        a.heads * c.sizes.d_rel,
        false,
    ));
    nodes.push(scale(&format!("{r}.norm"), "relative states", seq, a.heads, c.sizes.d_rel));
    nodes.push(linear(&format!("{s}.sink_proj"), "a sink logit per head", seq, h, a.heads, false));
    let kind = if sliding { format!("causal within {} tokens", c.sizes.window) } else { "causal".into() };
    let what =
        format!("{} heads over {} KV heads x {}, {kind}, relative bias", a.heads, a.kv_heads, a.head_dim);
    nodes.push(
        Node::new(&s, Op::Attention, what, &[seq, q])
            .with([Tensor::new(format!("{r}.proj"), &[c.sizes.d_rel, a.rel_extent])]),
    );
    nodes.push(linear(&format!("{s}.o_proj.gate_proj"), "sigmoid output gate", seq, h, q, false));
    nodes.push(linear(&format!("{s}.o_proj.linear"), "attention output projection", seq, q, h, false));
    let k = c.sizes.conv_kernel_size;
    nodes.push(sconv(&format!("{l}.post_attention_convolution"), "the attention output", seq, h, k));
    nodes.push(residual(&format!("{l}.mlp_input"), seq, h, 1));
    nodes.push(rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
    let (m, e, w) = (format!("{l}.mlp"), c.sizes.num_experts, c.moe_intermediate_size);
    nodes.push(
        Node::new(format!("{m}.gate"), Op::Linear, format!("router over {e} experts"), &[seq, e])
            .with([Tensor::new(format!("{m}.gate.weight"), &[e, h])]),
    );
    let top = c.sizes.experts_per_token;
    nodes.push(
        Node::new(
            format!("{m}.experts"),
            Op::Linear,
            format!("{e} stacked experts x {w}, {top} per token"),
            &[seq, h],
        )
        .with([
            Tensor::new(format!("{m}.experts.gate_up_proj"), &[e, 2 * w, h]),
            Tensor::new(format!("{m}.experts.down_proj"), &[e, h, w]),
        ]),
    );
    nodes.push(sconv(&format!("{l}.post_mlp_convolution"), "the MLP output", seq, h, k));
    nodes
}

pub fn build(c: &Inkling2TextConfig, seq: u64) -> Graph {
    let h = c.sizes.hidden_size;
    let looped = |i: usize| c.loop_layers.is_some_and(|x| x.holds(i as u64));
    let kinds: Vec<(bool, bool, bool)> =
        c.sliding_layers.iter().enumerate().map(|(i, s)| (*s, i == 0, looped(i))).collect();
    frame(&c.sizes, seq, c.unpadded_vocab_size, |p| {
        let layers = stack(p, &kinds, |l, kind, _| layer(c, l, kind, seq));
        let mut nodes = vec![residual(&format!("{p}final_input"), seq, h, 1)];
        if let Some(x) = &c.loop_layers {
            // Four learned queries (q, k, v and MLP messages) per layer of the looped range.
            let name = format!("{p}message_input");
            nodes.push(
                Node::new(&name, Op::Attention, "message queries over the previous pass's blocks", &[seq, h])
                    .with([Tensor::new(format!("{name}.query"), &[x.end - x.start, 4, h])]),
            );
        }
        (layers, nodes)
    })
}
