//! The ZAYA graph (`config/zaya.rs`), named as transformers' `ZayaModel` under `model.` in head
//! classes: a learned scale and bias on the embeddings, then per layer an RMSNorm, compressed
//! convolutional attention (`self_attn.qkv_proj`: q, k, the current and delayed value halves, a
//! depthwise and a grouped convolution over queries and keys; a learned key scale per key/value
//! head, `qk_norm.temp`), a learned residual scaling, an RMSNorm, the router (a down-projection,
//! a scale on the previous layer's router state from layer 1 on, an MLP over the experts and a
//! no-expert class) and the stacked experts, and another residual scaling. Serving keeps each
//! layer's keys and values, and per sequence the convolution's window and the delayed value.

use super::blocks::{linear, rms_norm, token_embeddings};
use super::decoder::base_prefix;
use super::kv::{KvGroup, KvLayout, RecurrentState};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::zaya::ZayaConfig;

architecture!(
    ZayaConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(self))
    }
);

fn checkpoint_candidates(c: &ZayaConfig) -> Vec<Candidate> {
    let n = c.dims.num_experts.unwrap_or(0) + 1;
    let tensors =
        (0..c.dims.num_layers).map(|i| (format!("model.layers.{i}.mlp.gate.balancing_biases"), vec![n]));
    vec![Candidate::extra(
        "router balancing biases",
        tensors.collect(),
        "the router registers balancing_biases as a persistent buffer: saved with the weights, not a parameter",
    )]
}

/// Widths: queries, keys (and values), the convolved channels.
fn widths(c: &ZayaConfig) -> (u64, u64, u64) {
    let d = &c.dims;
    let (q, k) = (d.num_heads * d.head_dim, d.num_kv_heads * d.head_dim);
    (q, k, q + k)
}

fn kv_layout(c: &ZayaConfig) -> KvLayout {
    let d = &c.dims;
    let values = 2 * d.num_kv_heads * d.head_dim;
    let mut windows = c.windows.clone();
    windows.sort();
    windows.dedup();
    let what = format!("2 x {} KV heads x {} head_dim", d.num_kv_heads, d.head_dim);
    let groups = windows
        .into_iter()
        .map(|w| KvGroup {
            layers: c.windows.iter().filter(|x| **x == w).count() as u64,
            values_per_token: values,
            window: w,
            what: match w {
                None => format!("full attention: {what}"),
                Some(w) => format!("window of {w} tokens: {what}"),
            },
        })
        .collect();
    let (_, k, channels) = widths(c);
    let window = (c.kernels.0 - 1) + (c.kernels.1 - 1);
    let recurrent = Some(RecurrentState {
        layers: d.num_layers,
        conv_values: channels * window,
        ssm_values: k / 2,
        what: format!(
            "the query/key convolution's last {window} positions of {channels} channels, and the previous token's delayed value half ({})",
            k / 2
        ),
    });
    KvLayout { groups, cross: None, cross_fixed_len: None, recurrent }
}

fn conv(name: &str, seq: u64, channels: u64, per_group: u64, kernel: u64, what: &str) -> Node {
    Node::new(name, Op::Conv1d, what, &[seq, channels]).with([
        Tensor::new(format!("{name}.weight"), &[channels, per_group, kernel]),
        Tensor::new(format!("{name}.bias"), &[channels]),
    ])
}

fn residual_scale(name: &str, seq: u64, h: u64) -> Node {
    let t = |n: &str| Tensor::new(format!("{name}.{n}"), &[h]);
    Node::new(name, Op::Add, "learned scale and bias on the sublayer's output and the residual", &[seq, h])
        .with([t("hidden_states_scale"), t("hidden_states_bias"), t("residual_scale"), t("residual_bias")])
}

fn layer(c: &ZayaConfig, l: &str, first: bool, seq: u64) -> Vec<Node> {
    let d = &c.dims;
    let (h, hd, b) = (d.hidden_size, d.head_dim, c.attention_bias);
    let (q, k, channels) = widths(c);
    let a = format!("{l}.self_attn");
    let p = format!("{a}.qkv_proj");
    let mut nodes = vec![
        rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h),
        linear(&format!("{p}.q_proj"), "query projection", seq, h, q, b),
        linear(&format!("{p}.k_proj"), "key projection", seq, h, k, b),
        linear(&format!("{p}.v_proj_current"), "value half from the current token", seq, h, k / 2, b),
        linear(&format!("{p}.v_proj_delayed"), "value half from the previous token", seq, h, k / 2, b),
        conv(
            &format!("{p}.conv_qk_depthwise"),
            seq,
            channels,
            1,
            c.kernels.0,
            "depthwise causal convolution over queries and keys",
        ),
        conv(
            &format!("{p}.conv_qk_grouped"),
            seq,
            channels,
            hd,
            c.kernels.1,
            "grouped causal convolution, one group per head",
        ),
        Node::new(
            format!("{a}.qk_norm"),
            Op::LayerNorm,
            "L2 norm of queries and keys, a learned scale per key/value head",
            &[seq, q + k],
        )
        .with([Tensor::new(format!("{a}.qk_norm.temp"), &[d.num_kv_heads])]),
        Node::new(
            a.clone(),
            Op::Attention,
            format!(
                "{} query heads x {hd} over {} key/value heads, causal, rotary",
                d.num_heads, d.num_kv_heads
            ),
            &[seq, q],
        ),
        linear(&format!("{a}.o_proj"), "attention output projection", seq, q, h, b),
        residual_scale(&format!("{l}.post_attention_residual_scale"), seq, h),
        rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the experts", &[seq, h], h),
    ];
    let (n, f, r) = (d.num_experts.unwrap_or(1), d.intermediate_size, c.router_hidden_size);
    let g = format!("{l}.mlp.gate");
    let mut down = linear(&format!("{g}.down_proj"), "router down-projection", seq, h, r, true);
    if !first {
        // From layer 1 on the router mixes in the previous layer's router state, scaled.
        down.params.push(Tensor::new(format!("{g}.router_states_scale"), &[r]));
    }
    let m = format!("{g}.router_mlp");
    nodes.extend([
        down,
        rms_norm(&format!("{m}.norm"), "router RMSNorm", &[seq, r], r),
        linear(&format!("{m}.fc1"), "router MLP", seq, r, r, true),
        linear(&format!("{m}.fc2"), "router MLP", seq, r, r, true),
        linear(
            &format!("{m}.out_proj"),
            &format!("scores over {n} experts and no expert, top 1"),
            seq,
            r,
            n + 1,
            false,
        ),
    ]);
    nodes.extend(super::blocks::stacked_experts(&format!("{l}.mlp.experts"), seq, h, f, n, 1));
    nodes.push(residual_scale(&format!("{l}.post_mlp_residual_scale"), seq, h));
    nodes
}

pub fn build(c: &ZayaConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "model.");
    let d = &c.dims;
    let (h, v) = (d.hidden_size, d.vocab_size);
    let embed = format!("{p}embed_tokens");
    let embed_weight = format!("{embed}.weight");
    let mut embeddings = token_embeddings(&embed, seq, v, h);
    embeddings.nodes.push(
        Node::new(
            format!("{p}input_hidden_states"),
            Op::Add,
            "learned bias and scale on the embeddings",
            &[seq, h],
        )
        .with([
            Tensor::new(format!("{p}input_hidden_states_scale"), &[h]),
            Tensor::new(format!("{p}input_hidden_states_bias"), &[h]),
        ]),
    );
    let mut sections = vec![embeddings];
    // Layer 0's router has no previous state to scale: it repeats alone, the others by name.
    let layers = super::common::layer_sections(p, d.num_layers, |i| i == 0, |l, i| layer(c, l, i == 0, seq));
    sections.extend(layers);
    let norm = format!("{p}norm");
    sections.push(Section {
        name: norm.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![rms_norm(&norm, "final RMSNorm", &[seq, h], h)],
    });
    let (tied, bias) = (d.tie_word_embeddings, c.lm_head_bias);
    sections.extend(super::common::decoder_head(c.head, &embed_weight, tied, bias, seq, h, v));
    Graph { seq_len: seq, sections }
}
