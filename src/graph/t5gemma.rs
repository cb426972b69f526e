//! T5Gemma's graph, named as transformers' `T5GemmaModel` (under `model.` in a class with a
//! head): per stack `embed_tokens`, layers of Gemma 2's shape (`pre_self_attn_layernorm`,
//! `self_attn`, `post_self_attn_layernorm`, in the decoder `pre_cross_attn_layernorm`,
//! `cross_attn` (keys and values from the encoder's width), `post_cross_attn_layernorm`, then
//! `pre_feedforward_layernorm`, the gated `mlp`, `post_feedforward_layernorm`), `norm`; then
//! `lm_head.out_proj` (tied to the decoder's embeddings unless the config unties it) or
//! `score.out_proj` with a bias.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, token_embeddings};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Role, Section, tied_if};
use crate::config::QkNorm;
use crate::config::t5gemma::{Stack, T5GemmaConfig, T5GemmaHead};

architecture!(
    T5GemmaConfig,
    |c| activations: {
        let mut v = vec![("encoder.hidden_activation", c.encoder.hidden_activation.clone())];
        v.extend(c.decoder.as_ref().map(|d| ("decoder.hidden_activation", d.hidden_activation.clone())));
        v
    },
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(self))
    }
);

fn no_candidates(_: &T5GemmaConfig) -> Vec<Candidate> {
    vec![]
}

/// The decoder's self-attention cache by window (sliding layers keep the window's tokens), and
/// per decoder layer the encoder's keys and values for cross-attention; none for the encoder alone.
fn kv_layout(c: &T5GemmaConfig) -> KvLayout {
    let Some(d) = &c.decoder else {
        return KvLayout { groups: vec![], cross: None, cross_fixed_len: None, recurrent: None };
    };
    let (kv, hd) = (d.num_kv_heads, d.head_dim);
    let vpt = 2 * kv * hd;
    let what = format!("2 x {kv} KV heads x {hd} head_dim");
    let mut groups: Vec<KvGroup> = vec![];
    for w in &d.windows {
        match groups.iter_mut().find(|g| g.window == *w) {
            Some(g) => g.layers += 1,
            None => groups.push(KvGroup {
                layers: 1,
                values_per_token: vpt,
                window: *w,
                what: match w {
                    Some(w) => format!("decoder self-attention, sliding layers: {what}, window {w}"),
                    None => format!("decoder self-attention, full layers: {what}"),
                },
            }),
        }
    }
    let cross = KvGroup {
        layers: d.num_layers,
        values_per_token: vpt,
        window: None,
        what: format!("cross-attention over the encoder's tokens: {what}"),
    };
    KvLayout { groups, cross: Some(cross), cross_fixed_len: None, recurrent: None }
}

/// Gemma's RMSNorm, its weight the offset from one.
fn norm(name: &str, what: &str, seq: u64, h: u64) -> Node {
    rms_norm(name, &format!("RMSNorm (1 + w), {what}"), &[seq, h], h)
}

fn attention(s: &Stack, a: &str, seq: u64, what: &str) -> Vec<Node> {
    gqa(&Gqa {
        a,
        seq,
        hidden: s.hidden_size,
        heads: s.num_heads,
        kv_heads: s.num_kv_heads,
        head_dim: s.head_dim,
        qkv_bias: s.attention_bias,
        o_bias: s.attention_bias,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        norm_word: "RMSNorm",
        what: what.into(),
    })
}

/// One stack: its embeddings, its layers (with cross-attention over `cross` wide keys in the
/// decoder), its final norm.
fn stack(s: &Stack, p: &str, seq: u64, cross: Option<u64>) -> Vec<Section> {
    let h = s.hidden_size;
    let l = format!("{p}layers.{{i}}");
    let causal = if cross.is_some() { "causal" } else { "bidirectional" };
    let mut nodes = vec![norm(&format!("{l}.pre_self_attn_layernorm"), "before self-attention", seq, h)];
    let what = format!("{causal}, rotary, sliding or full by layer_types, logits soft-capped");
    nodes.extend(attention(s, &format!("{l}.self_attn"), seq, &what));
    nodes.push(norm(&format!("{l}.post_self_attn_layernorm"), "after self-attention", seq, h));
    if let Some(enc) = cross {
        let a = format!("{l}.cross_attn");
        let mut x = attention(s, &a, seq, "over the encoder's tokens");
        let q = s.num_kv_heads * s.head_dim;
        // Keys and values read the encoder's states, `cross_attention_hidden_size` wide.
        for n in x.iter_mut().filter(|n| n.name.ends_with(".k_proj") || n.name.ends_with(".v_proj")) {
            let name = n.name.clone();
            *n = linear(
                &name,
                if name.ends_with("k_proj") {
                    "key projection of the encoder's states"
                } else {
                    "value projection of the encoder's states"
                },
                seq,
                enc,
                q,
                s.attention_bias,
            );
        }
        nodes.push(norm(&format!("{l}.pre_cross_attn_layernorm"), "before cross-attention", seq, h));
        nodes.extend(x);
        nodes.push(norm(&format!("{l}.post_cross_attn_layernorm"), "after cross-attention", seq, h));
    }
    nodes.push(norm(&format!("{l}.pre_feedforward_layernorm"), "before the MLP", seq, h));
    nodes.extend(gated_mlp(
        &format!("{l}.mlp"),
        seq,
        h,
        s.intermediate_size,
        &s.hidden_activation,
        false,
        false,
    ));
    nodes.push(norm(&format!("{l}.post_feedforward_layernorm"), "after the MLP", seq, h));
    let n = format!("{p}norm");
    vec![
        token_embeddings(&format!("{p}embed_tokens"), seq, s.vocab_size, h),
        Section { name: l.clone(), role: Role::Layers, repeat: s.num_layers, nodes },
        Section { name: n.clone(), role: Role::Layers, repeat: 1, nodes: vec![norm(&n, "final", seq, h)] },
    ]
}

pub fn build(c: &T5GemmaConfig, seq: u64) -> Graph {
    let p = if matches!(c.head, T5GemmaHead::Model | T5GemmaHead::Encoder) { "" } else { "model." };
    let mut sections = stack(&c.encoder, &format!("{p}encoder."), seq, None);
    if let Some(d) = &c.decoder {
        let mut dec = stack(d, &format!("{p}decoder."), seq, Some(c.encoder.hidden_size));
        // The decoder's token ids are the second input.
        dec[0].nodes[0].name = "decoder_input_ids".into();
        sections.extend(dec);
    }
    let s = c.main();
    let node = match c.head {
        T5GemmaHead::Model | T5GemmaHead::Encoder => None,
        T5GemmaHead::Generation => {
            let mut n = linear(
                "lm_head.out_proj",
                "logits over the vocabulary, soft-capped",
                seq,
                s.hidden_size,
                s.vocab_size,
                false,
            );
            let to = format!("{p}decoder.embed_tokens.weight");
            n.params[0] =
                tied_if(c.tie_word_embeddings, "lm_head.out_proj.weight", &[s.vocab_size, s.hidden_size], to);
            Some(n)
        }
        T5GemmaHead::Classifier { labels, tokens } => {
            let rows = if tokens { seq } else { 1 };
            Some(linear("score.out_proj", "labels", rows, s.hidden_size, labels, true))
        }
    };
    if let Some(n) = node {
        sections.push(Section { name: n.name.clone(), role: Role::Head, repeat: 1, nodes: vec![n] });
    }
    Graph { seq_len: seq, sections }
}
