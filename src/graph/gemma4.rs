//! Gemma 4's language model graph, named as transformers' `Gemma4TextModel` (under `model.` in
//! `Gemma4ForCausalLM`): `embed_tokens`, the per-layer embeddings (`embed_tokens_per_layer`,
//! `per_layer_model_projection`, `per_layer_projection_norm`) where the config has them, then
//! per layer `input_layernorm`, attention (`q_proj`, `q_norm`; `k_proj`, `v_proj` unless keys are
//! the values, `k_norm` and a weightless `v_norm` unless the layer shares an earlier layer's;
//! `o_proj`), `post_attention_layernorm`, `pre_feedforward_layernorm`, the gated `mlp` (and
//! beside it the `router` and stacked `experts` with their three norms), `post_feedforward_layernorm`,
//! the per-layer input's gate, projection and norm; `norm`; the tied `lm_head`.

use super::blocks::{embedding, gated_mlp, linear, rms_norm, token_embeddings};
use super::doge_dory::{Tail, norm_and_head};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::gemma4::{G4Layer, Gemma4Config};

architecture!(
    Gemma4Config,
    |c| activations: vec![("hidden_activation", c.hidden_activation.clone())],
    prefixes: ["model."],
    candidates: candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(&self.layers, self.sliding_window))
    }
);

fn candidates(c: &Gemma4Config) -> Vec<Candidate> {
    let p = if c.head == DecoderHead::Model && !c.nested { "" } else { "model." };
    vec![layer_scalars(p, c.layers.len())]
}

/// `layer_scalar`, a persistent one-value buffer per layer: saved with the weights, not a parameter.
pub(crate) fn layer_scalars(p: &str, layers: usize) -> Candidate {
    Candidate::extra(
        "per-layer output scalars",
        (0..layers).map(|i| (format!("{p}layers.{i}.layer_scalar"), vec![1])).collect(),
        "each decoder layer registers layer_scalar as a persistent buffer: saved with the weights, not a parameter",
    )
}

/// The cache of the layers that make their own keys and values, grouped by window and width. A
/// layer sharing an earlier layer's keys and values caches none of its own.
pub(crate) fn kv_layout(layers: &[G4Layer], window: u64) -> KvLayout {
    let shared = layers.iter().filter(|l| l.shared).count();
    let mut groups: Vec<KvGroup> = vec![];
    for l in layers.iter().filter(|l| !l.shared) {
        let (w, vpt) = (l.sliding.then_some(window), 2 * l.kv_heads * l.head_dim);
        match groups.iter_mut().find(|g| g.window == w && g.values_per_token == vpt) {
            Some(g) => g.layers += 1,
            None => {
                let kind = if l.sliding { "sliding" } else { "full" };
                let mut what =
                    format!("{kind} layers: 2 x {} KV heads x {} head_dim", l.kv_heads, l.head_dim);
                if shared > 0 {
                    what.push_str(&format!(
                        "; the last {shared} layers reuse an earlier layer's keys and values and are counted with no cache of their own"
                    ));
                }
                groups.push(KvGroup { layers: 1, values_per_token: vpt, window: w, what });
            }
        }
    }
    KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None }
}

pub(crate) fn norm(name: &str, what: &str, seq: u64, width: u64) -> Node {
    rms_norm(name, &format!("RMSNorm, {what}"), &[seq, width], width)
}

/// A Gemma 4 layer's attention at `a`.
pub(crate) fn attention(a: &str, l: &G4Layer, heads: u64, hidden: u64, bias: bool, seq: u64) -> Vec<Node> {
    let (hd, kv) = (l.head_dim, l.kv_heads);
    let mut nodes = vec![
        linear(&format!("{a}.q_proj"), "query projection", seq, hidden, heads * hd, bias),
        norm(&format!("{a}.q_norm"), "per query head", seq, hd),
    ];
    if !l.shared {
        nodes.push(linear(&format!("{a}.k_proj"), "key projection", seq, hidden, kv * hd, bias));
        if !l.k_eq_v {
            nodes.push(linear(&format!("{a}.v_proj"), "value projection", seq, hidden, kv * hd, bias));
        }
        nodes.push(norm(&format!("{a}.k_norm"), "per key head", seq, hd));
        nodes.push(Node::new(
            format!("{a}.v_norm"),
            Op::LayerNorm,
            "RMSNorm without weight, per value head",
            &[seq, kv * hd],
        ));
    }
    let kind = if l.sliding { "sliding" } else { "full" };
    let whose = if l.shared {
        ", keys and values of an earlier layer"
    } else if l.k_eq_v {
        ", keys as values"
    } else {
        ""
    };
    nodes.push(Node::new(
        a,
        Op::Attention,
        format!("{heads} query heads x {hd} over {kv} key/value heads, {kind}{whose}"),
        &[seq, heads * hd],
    ));
    nodes.push(linear(&format!("{a}.o_proj"), "attention output projection", seq, heads * hd, hidden, bias));
    nodes
}

fn layer(c: &Gemma4Config, l: &str, g: &G4Layer, seq: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let mut nodes = vec![norm(&format!("{l}.input_layernorm"), "before attention", seq, h)];
    nodes.extend(attention(&format!("{l}.self_attn"), g, c.num_heads, h, c.attention_bias, seq));
    nodes.push(norm(&format!("{l}.post_attention_layernorm"), "after attention", seq, h));
    nodes.push(norm(&format!("{l}.pre_feedforward_layernorm"), "before the MLP", seq, h));
    nodes.extend(gated_mlp(&format!("{l}.mlp"), seq, h, g.ffn, &c.hidden_activation, false, false));
    if let Some((n, k, f)) = c.experts {
        let r = format!("{l}.router");
        nodes.push(
            linear(
                &format!("{r}.proj"),
                "router logits, after a weightless RMSNorm and a learned scale",
                seq,
                h,
                n,
                false,
            )
            .with([
                Tensor::new(format!("{r}.scale"), &[h]),
                Tensor::new(format!("{r}.per_expert_scale"), &[n]),
            ]),
        );
        nodes.push(norm(&format!("{l}.pre_feedforward_layernorm_2"), "before the experts", seq, h));
        let e = format!("{l}.experts");
        let slice = |name: &str, out: u64, inp: u64, what: &str| {
            Node::new(format!("{e}.{name}"), Op::Linear, what, &[seq, out])
                .with([Tensor::new(format!("{e}.{name}[{{e}}]"), &[out, inp])])
                .experts(n, k)
        };
        nodes.push(slice("gate_up_proj", 2 * f, h, "stacked experts' gate and up projection"));
        nodes.push(slice("down_proj", h, f, "stacked experts' down projection"));
        nodes.push(norm(
            &format!("{l}.post_feedforward_layernorm_1"),
            "after the MLP, beside the experts",
            seq,
            h,
        ));
        nodes.push(norm(&format!("{l}.post_feedforward_layernorm_2"), "after the experts", seq, h));
    }
    nodes.push(norm(&format!("{l}.post_feedforward_layernorm"), "after the MLP", seq, h));
    if let Some((_, p)) = c.per_layer {
        nodes.extend(per_layer_input(l, seq, h, p));
    }
    nodes
}

/// The end of a layer that reads a per-layer input (`p` wide): its gate, its projection back to
/// the hidden size, and the norm after it (Gemma 3n, Gemma 4).
pub(crate) fn per_layer_input(l: &str, seq: u64, h: u64, p: u64) -> Vec<Node> {
    vec![
        linear(&format!("{l}.per_layer_input_gate"), "gate of the per-layer input", seq, h, p, false),
        linear(&format!("{l}.per_layer_projection"), "per-layer input back to hidden", seq, p, h, false),
        norm(&format!("{l}.post_per_layer_input_norm"), "after the per-layer input", seq, h),
    ]
}

/// The layers: a run of like layers from layer 0 repeats with `{i}`; the later ones are named
/// one by one (Gemma 4's and Gemma 3n's layers, Llama 3.2 Vision's text layers).
pub(crate) fn layer_sections<L: PartialEq>(
    layers: &[L],
    p: &str,
    make: impl Fn(&str, &L) -> Vec<Node>,
) -> Vec<Section> {
    let Some(first) = layers.first() else { return vec![] };
    let run = layers.iter().take_while(|l| *l == first).count();
    let l = format!("{p}layers.{{i}}");
    let mut out =
        vec![Section { name: l.clone(), role: Role::Layers, repeat: run as u64, nodes: make(&l, first) }];
    for (i, g) in layers.iter().enumerate().skip(run) {
        let l = format!("{p}layers.{i}");
        out.push(Section { name: l.clone(), role: Role::Layers, repeat: 1, nodes: make(&l, g) });
    }
    out
}

/// Per-layer embeddings (`embed_tokens_per_layer`, `v` tokens, `w` per layer), their projection
/// from the hidden state and its norm, and any `more` nodes of the same stage (Gemma 3n's AltUp).
pub(crate) fn per_layer_embeddings(
    p: &str,
    seq: u64,
    h: u64,
    layers: u64,
    (v, w): (u64, u64),
    more: Vec<Node>,
) -> Section {
    let all = layers * w;
    let mut nodes = vec![
        embedding(&format!("{p}embed_tokens_per_layer"), format!("{v} tokens, {w} per layer"), seq, v, all),
        linear(
            &format!("{p}per_layer_model_projection"),
            "hidden state to every layer's input",
            seq,
            h,
            all,
            false,
        ),
        norm(&format!("{p}per_layer_projection_norm"), "per layer's input", seq, w),
    ];
    nodes.extend(more);
    Section { name: format!("{p}embed_tokens_per_layer"), role: Role::Embeddings, repeat: 1, nodes }
}

pub fn build(c: &Gemma4Config, seq: u64) -> Graph {
    let p = if c.head == DecoderHead::Model && !c.nested { "" } else { "model." };
    let h = c.hidden_size;
    let mut sections = vec![token_embeddings(&format!("{p}embed_tokens"), seq, c.vocab_size, h)];
    let layers = c.layers.len() as u64;
    sections.extend(c.per_layer.map(|pl| per_layer_embeddings(p, seq, h, layers, pl, vec![])));
    sections.extend(layer_sections(&c.layers, p, |l, g| layer(c, l, g, seq)));
    let t = Tail { head: c.head, vocab: c.vocab_size, hidden: h, tie: c.tie_word_embeddings, lm_note: "" };
    sections.extend(norm_and_head(&t, p, seq, vec![norm(&format!("{p}norm"), "final", seq, h)]));
    Graph { seq_len: seq, sections }
}
