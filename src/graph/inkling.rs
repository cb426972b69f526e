//! The Inkling language model's graph, named as transformers' modules:
//! `model.embed_tokens` (with its `embed_norm`), `model.layers.{i}.self_attn` (`r_proj`,
//! `k_sconv`, `v_sconv`, `rel_logits_proj.proj`), `attn_sconv` and `mlp_sconv`, `mlp` (dense, or
//! `gate`, stacked `experts` and `shared_experts`), `model.norm`, `lm_head`. Serving keeps each
//! layer's keys and values (sliding layers within the window) and its four convolution windows.

use super::blocks::{embedding, linear, rms_norm};
use super::common::no_candidates;
use super::kv::{KvGroup, KvLayout, RecurrentState};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::inkling::{InklingAttn, InklingSizes, InklingTextConfig};

architecture!(
    InklingTextConfig,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(self))
    }
    fn training_notes(&self) -> Vec<String> {
        vec!["Inkling's short convolutions run in float32 and their saved inputs are counted at the activations' width; its relative-position bias is materialized per head over the query and key positions, which the attention estimate does not add.".into()]
    }
);

/// A depthwise causal convolution over `channels`, without bias (`InklingShortConvolution`).
pub(super) fn sconv(name: &str, what: &str, seq: u64, channels: u64, kernel: u64) -> Node {
    Node::new(name, Op::Conv1d, format!("short convolution over {what}, kernel {kernel}"), &[seq, channels])
        .with([Tensor::new(format!("{name}.conv1d.weight"), &[channels, 1, kernel])])
}

fn attention(c: &InklingTextConfig, l: &str, a: InklingAttn, sliding: bool, seq: u64) -> Vec<Node> {
    let (h, k) = (c.sizes.hidden_size, c.sizes.conv_kernel_size);
    let s = format!("{l}.self_attn");
    let (q, kv) = (a.heads * a.head_dim, a.kv_heads * a.head_dim);
    let kind = if sliding { format!("causal within {} tokens", c.sizes.window) } else { "causal".into() };
    vec![
        rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h),
        linear(&format!("{s}.q_proj"), "query projection", seq, h, q, false),
        linear(&format!("{s}.k_proj"), "key projection", seq, h, kv, false),
        linear(&format!("{s}.v_proj"), "value projection", seq, h, kv, false),
        linear(&format!("{s}.r_proj"), "relative states per head", seq, h, a.heads * c.sizes.d_rel, false),
        sconv(&format!("{s}.k_sconv"), "the keys", seq, kv, k),
        sconv(&format!("{s}.v_sconv"), "the values", seq, kv, k),
        rms_norm(&format!("{s}.q_norm"), "RMSNorm per query head", &[seq, q], a.head_dim),
        rms_norm(&format!("{s}.k_norm"), "RMSNorm per key head", &[seq, kv], a.head_dim),
        Node::new(
            &s,
            Op::Attention,
            format!("{} heads over {} KV heads x {}, {kind}, relative bias", a.heads, a.kv_heads, a.head_dim),
            &[seq, q],
        )
        .with([Tensor::new(format!("{s}.rel_logits_proj.proj"), &[c.sizes.d_rel, a.rel_extent])]),
        linear(&format!("{s}.o_proj"), "attention output projection", seq, q, h, false),
        sconv(&format!("{l}.attn_sconv"), "the attention output", seq, h, k),
    ]
}

fn mlp(c: &InklingTextConfig, l: &str, sparse: bool, seq: u64) -> Vec<Node> {
    let h = c.sizes.hidden_size;
    let m = format!("{l}.mlp");
    let mut nodes =
        vec![rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the MLP", &[seq, h], h)];
    if sparse {
        let (e, s, w, k) =
            (c.sizes.num_experts, c.shared_experts, c.moe_intermediate_size, c.sizes.experts_per_token);
        nodes.push(
            Node::new(
                format!("{m}.gate"),
                Op::Linear,
                format!("router over {e} experts and {s} shared ones"),
                &[seq, e + s],
            )
            .with([
                Tensor::new(format!("{m}.gate.weight"), &[e + s, h]),
                Tensor::new(format!("{m}.gate.global_scale"), &[1]),
            ]),
        );
        nodes.push(
            Node::new(
                format!("{m}.experts"),
                Op::Linear,
                format!("{e} stacked experts x {w}, {k} per token"),
                &[seq, h],
            )
            .with([
                Tensor::new(format!("{m}.experts.gate_up_proj"), &[e, 2 * w, h]),
                Tensor::new(format!("{m}.experts.down_proj"), &[e, h, w]),
            ]),
        );
        let sh = format!("{m}.shared_experts");
        nodes.push(
            Node::new(
                &sh,
                Op::Linear,
                format!("{s} shared experts x {w}, weighted by the router"),
                &[seq, h],
            )
            .with([
                Tensor::new(format!("{sh}.gate_proj"), &[s, w, h]),
                Tensor::new(format!("{sh}.up_proj"), &[s, w, h]),
                Tensor::new(format!("{sh}.down_proj"), &[s, h, w]),
            ]),
        );
    } else {
        let mut gated =
            super::blocks::gated_mlp(&m, seq, h, c.intermediate_size, &c.sizes.hidden_act, false, false);
        if let Some(down) = gated.iter_mut().find(|n| n.name.ends_with("down_proj")) {
            down.params.push(Tensor::new(format!("{m}.global_scale"), &[1]));
        }
        nodes.extend(gated);
    }
    nodes.push(sconv(&format!("{l}.mlp_sconv"), "the MLP output", seq, h, c.sizes.conv_kernel_size));
    nodes
}

fn layer(c: &InklingTextConfig, l: &str, (sliding, sparse): (bool, bool), seq: u64) -> Vec<Node> {
    let a = if sliding { c.sizes.sliding } else { c.sizes.full };
    let mut nodes = attention(c, l, a, sliding, seq);
    nodes.extend(mlp(c, l, sparse, seq));
    nodes
}

pub fn build(c: &InklingTextConfig, seq: u64) -> Graph {
    let kinds: Vec<(bool, bool)> =
        c.sliding_layers.iter().copied().zip(c.sparse_layers.iter().copied()).collect();
    frame(&c.sizes, seq, c.sizes.vocab_size, |p| {
        (stack(p, &kinds, |l, kind, _| layer(c, l, kind, seq)), vec![])
    })
}

/// What Inkling and Inkling 2 build around their layers: the normed token embedding, the layers
/// (and the nodes a type adds before its final norm, which `inner` gives for the prefix), the
/// final norm, and the causal LM's head over `rows`, never tied.
pub(super) fn frame(
    s: &InklingSizes,
    seq: u64,
    rows: u64,
    inner: impl FnOnce(&str) -> (Vec<Section>, Vec<Node>),
) -> Graph {
    let p = if s.causal_lm { "model." } else { "" };
    let (h, v) = (s.hidden_size, s.vocab_size);
    let e = format!("{p}embed_tokens");
    let nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&e, format!("{v} tokens"), seq, v, h),
        rms_norm(&format!("{e}.embed_norm"), "RMSNorm on the embeddings", &[seq, h], h),
    ];
    let mut sections = vec![Section { name: e, role: Role::Embeddings, repeat: 1, nodes }];
    let (layers, mut nodes) = inner(p);
    sections.extend(layers);
    let norm = format!("{p}norm");
    nodes.push(rms_norm(&norm, "final RMSNorm", &[seq, h], h));
    sections.push(Section { name: norm, role: Role::Layers, repeat: 1, nodes });
    if s.causal_lm {
        let nodes = vec![linear("lm_head", "logits over the vocabulary (never tied)", seq, h, rows, false)];
        sections.push(Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

/// Keys and values per layer (sliding layers keep the window), and per sequence the four
/// convolution windows of every layer (keys, values, attention and MLP outputs).
fn kv_layout(c: &InklingTextConfig) -> KvLayout {
    let shapes = Shapes {
        full: c.sizes.full,
        sliding: c.sizes.sliding,
        window: c.sizes.window,
        hidden: c.sizes.hidden_size,
    };
    cache(&c.sliding_layers, shapes, c.sizes.conv_kernel_size)
}

/// The attention shapes of Inkling's two kinds of layer, its window and hidden width.
pub(super) struct Shapes {
    pub full: InklingAttn,
    pub sliding: InklingAttn,
    pub window: u64,
    pub hidden: u64,
}

/// The KV cache by kind of layer, and the four convolution windows of each layer as a
/// per-sequence state (Inkling 2's layers keep the same four).
pub(super) fn cache(sliding_layers: &[bool], s: Shapes, k: u64) -> KvLayout {
    let sliding = sliding_layers.iter().filter(|x| **x).count() as u64;
    let group = |layers: u64, a: InklingAttn, window: Option<u64>, kind: &str| KvGroup {
        layers,
        values_per_token: 2 * a.kv_heads * a.head_dim,
        window,
        what: format!("{kind}: 2 x {} KV heads x {} head_dim", a.kv_heads, a.head_dim),
    };
    let groups = vec![
        group(sliding_layers.len() as u64 - sliding, s.full, None, "full layers"),
        group(sliding, s.sliding, Some(s.window), "sliding layers"),
    ];
    let conv: u64 = sliding_layers
        .iter()
        .map(|x| {
            let a = if *x { s.sliding } else { s.full };
            (2 * a.kv_heads * a.head_dim + 2 * s.hidden) * k
        })
        .sum();
    let recurrent = RecurrentState {
        layers: 1,
        conv_values: conv,
        ssm_values: 0,
        what: format!("the short convolutions' windows of all {} layers (kernel {k})", sliding_layers.len()),
    };
    let groups = groups.into_iter().filter(|g| g.layers > 0).collect();
    KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: Some(recurrent) }
}

/// Layer sections: a run of like layers from layer 0 repeats with `{i}`; the others are named
/// one by one.
pub(super) fn stack<K: Copy + PartialEq>(
    p: &str,
    kinds: &[K],
    mut layer: impl FnMut(&str, K, usize) -> Vec<Node>,
) -> Vec<Section> {
    let mut sections = vec![];
    let Some(first) = kinds.first().copied() else { return sections };
    let run = kinds.iter().take_while(|k| **k == first).count();
    let l = format!("{p}layers.{{i}}");
    sections.push(Section {
        name: l.clone(),
        role: Role::Layers,
        repeat: run as u64,
        nodes: layer(&l, first, 0),
    });
    for (i, kind) in kinds.iter().enumerate().skip(run) {
        let l = format!("{p}layers.{i}");
        sections.push(Section { name: l.clone(), role: Role::Layers, repeat: 1, nodes: layer(&l, *kind, i) });
    }
    sections
}
