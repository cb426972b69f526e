//! Moshi's text decoder, named as transformers' `MoshiForCausalLM`: `model.embed_tokens` (one
//! row more than the vocabulary), `model.layers.{i}` (`self_attn.{q,k,v,o}_proj.linear`, the
//! gating `mlp.fc1` / `mlp.fc2`, two RMSNorms), `model.norm`, an untied `lm_head`. The bare
//! `MoshiModel` drops the `model.` and the head.

use super::blocks::{embedding, linear, rms_norm};
use super::common::{alone, kv_what, lm_head, no_candidates};
use super::kv::{KvGroup, KvLayout};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::moshi::{Codec, MoshiConfig};

architecture!(
    MoshiConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        let kv = self.num_kv_heads * self.head_dim;
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.num_layers,
                values_per_token: 2 * kv,
                window: Some(self.sliding_window),
                what: format!("text decoder self-attention: {}", kv_what(self.num_kv_heads, kv)),
            }],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn training_notes(&self) -> Vec<String> {
        match &self.codec {
            None => vec![],
            Some(k) => vec![format!(
                "Not modelled: the Mimi codec's activations (its sections count weights, gradients and optimizer states only), and the depth decoder's activations beyond one pass over its {} codebooks per frame. Serving: the KV cache is the text decoder's; the depth decoder's, {} layers over at most {} positions, is rebuilt each frame and not added.",
                k.num_codebooks, k.depth.num_layers, k.num_codebooks
            )],
        }
    }
);

fn layer(c: &MoshiConfig, l: &str, seq: u64) -> Vec<Node> {
    let (h, q, kv, f) = (c.hidden_size, c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim, c.ffn_dim);
    let a = format!("{l}.self_attn");
    let proj = |name: &str, what: &str, inp: u64, out: u64| {
        linear(&format!("{a}.{name}.linear"), what, seq, inp, out, false)
    };
    vec![
        rms_norm(&format!("{l}.input_layernorm"), "RMSNorm", &[seq, h], h),
        proj("q_proj", "query projection", h, q),
        proj("k_proj", "key projection", h, kv),
        proj("v_proj", "value projection", h, kv),
        Node::new(
            &a,
            Op::Attention,
            format!(
                "{} query heads x {} over {} key/value heads, causal, rotary, window {}",
                c.num_heads, c.head_dim, c.num_kv_heads, c.sliding_window
            ),
            &[seq, q],
        ),
        proj("o_proj", "attention output projection", q, h),
        rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm", &[seq, h], h),
        linear(&format!("{l}.mlp.fc1"), "gate and value halves", seq, h, f, false),
        Node::new(
            format!("{l}.mlp.act"),
            Op::Activation,
            format!("{}(gate) * value", c.hidden_act),
            &[seq, f / 2],
        ),
        linear(&format!("{l}.mlp.fc2"), "down projection from one half", seq, f / 2, h, false),
    ]
}

/// The text decoder under `p` (`model.`, or `decoder.model.` inside the codec's class), its head
/// `head` when it has one.
fn text_decoder(c: &MoshiConfig, seq: u64, p: &str, head: Option<&str>) -> Vec<Section> {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let embed = format!("{p}embed_tokens");
    let mut sections = vec![Section {
        name: embed.clone(),
        role: Role::Embeddings,
        repeat: 1,
        nodes: vec![
            Node::new("input_ids", Op::Input, "text token ids", &[seq]),
            embedding(&embed, format!("{v} tokens and a padding row"), seq, v + 1, h),
        ],
    }];
    let l = format!("{p}layers.{{i}}");
    let nodes = layer(c, &l, seq);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });
    sections.push(alone(rms_norm(&format!("{p}norm"), "RMSNorm", &[seq, h], h), Role::Layers));
    if let Some(head) = head {
        let head = lm_head(head, "logits over the text vocabulary", [seq, h, v], false, "");
        sections.push(alone(head, Role::Head));
    }
    sections
}

/// A weight stacked per codebook (`MoshiFlexibleLinear`): `[codebooks, out, in]`.
fn flexible(name: &str, what: &str, rows: u64, [cb, inp, out]: [u64; 3]) -> Node {
    Node::new(name, Op::Linear, format!("{what}, one matrix per codebook"), &[rows, out])
        .with([Tensor::new(format!("{name}.weight"), &[cb, out, inp])])
}

/// The depth decoder: text and audio-codebook embeddings, a projection of the text decoder's
/// state per codebook, layers whose every linear is per codebook, and a head per codebook.
fn depth_decoder(k: &Codec) -> Vec<Section> {
    let (d, p) = (&k.depth, "depth_decoder");
    let (h, cb, av) = (d.hidden_size, d.num_codebooks, d.audio_vocab_size);
    let (q, kv, f) = (d.num_heads * d.head_dim, d.num_kv_heads * d.head_dim, d.ffn_dim);
    let emb = format!("{p}.embed_tokens.{{i}}");
    let mut sections = vec![
        alone(
            embedding(
                &format!("{p}.text_embed_tokens"),
                "the text token and a padding row",
                1,
                d.vocab_size + 1,
                h,
            ),
            Role::Embeddings,
        ),
        Section {
            name: emb.clone(),
            role: Role::Embeddings,
            repeat: cb.saturating_sub(1),
            nodes: vec![embedding(&emb, "one audio codebook and a padding row", 1, av + 1, h)],
        },
        alone(
            flexible(
                &format!("{p}.input_projections"),
                "the text decoder's state",
                cb,
                [cb, d.input_size, h],
            ),
            Role::Layers,
        ),
    ];
    let l = format!("{p}.layers.{{i}}");
    let a = format!("{l}.self_attn");
    let nodes = vec![
        rms_norm(&format!("{l}.input_layernorm"), "RMSNorm", &[cb, h], h),
        flexible(&format!("{a}.q_proj.linear"), "query projection", cb, [cb, h, q]),
        flexible(&format!("{a}.k_proj.linear"), "key projection", cb, [cb, h, kv]),
        flexible(&format!("{a}.v_proj.linear"), "value projection", cb, [cb, h, kv]),
        Node::new(&a, Op::Attention, "causal over the codebooks, no rotary", &[cb, q]),
        flexible(&format!("{a}.o_proj.linear"), "attention output projection", cb, [cb, q, h]),
        rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm", &[cb, h], h),
        flexible(&format!("{l}.mlp.fc1"), "gate and value halves", cb, [cb, h, f]),
        flexible(&format!("{l}.mlp.fc2"), "down projection from one half", cb, [cb, f / 2, h]),
    ];
    sections.push(Section { name: l, role: Role::Layers, repeat: d.num_layers, nodes });
    sections.push(alone(
        flexible(&format!("{p}.lm_heads"), "logits over a codebook", cb, [cb, h, av]),
        Role::Head,
    ));
    sections
}

pub fn build(c: &MoshiConfig, seq: u64) -> Graph {
    let sections = match (&c.codec, c.causal_lm) {
        (None, false) => text_decoder(c, seq, "", None),
        (None, true) => text_decoder(c, seq, "model.", Some("lm_head")),
        (Some(k), _) => {
            let emb = "embed_tokens.{i}".to_string();
            let mut sections = vec![Section {
                name: emb.clone(),
                role: Role::Embeddings,
                repeat: 2 * k.num_codebooks,
                nodes: vec![embedding(
                    &emb,
                    "one audio codebook (user or model) and a padding row",
                    seq,
                    k.audio_vocab_size + 1,
                    c.hidden_size,
                )],
            }];
            sections.extend(super::mimi::sections(&k.mimi, "audio_encoder"));
            sections.extend(text_decoder(c, seq, "decoder.model.", Some("decoder.lm_head")));
            sections.extend(depth_decoder(k));
            sections
        }
    };
    Graph { seq_len: seq, sections }
}
