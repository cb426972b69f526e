//! NLLB-MoE's graph: M2M-100's embeddings (shared with `graph/bart.rs`) and pre-LN layers under
//! its own names (`cross_attention`, `ff_layer_norm`, `ffn.fc1`), with every n-th feed-forward a
//! top-2 router (`ffn.router.classifier`) over `ffn.experts.expert_{e}`.

use super::bart::{attention, encoder_embeddings, layer_norm, linear, stack_embeddings};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::bart::{BartConfig, Head};
use crate::config::nllb_moe::NllbMoeConfig;

/// `Architecture` for a type that wraps the BART reader's config in `bart` (its class,
/// defaults, dimensions, KV cache and checkpoint candidates) and builds its own graph with
/// `build` in the calling module.
macro_rules! bart_extension {
    ($ty:ty) => {
        impl $crate::graph::Architecture for $ty {
            fn class(&self) -> &str {
                self.bart.class()
            }
            fn dims(&self) -> $crate::config::Dims {
                self.bart.dims()
            }
            fn defaulted(&self) -> &[$crate::config::Defaulted] {
                &self.bart.defaulted
            }
            fn graph(&self, seq: u64) -> $crate::graph::Graph {
                build(self, seq)
            }
            fn checkpoint_candidates(&self) -> Vec<$crate::graph::Candidate> {
                self.bart.checkpoint_candidates()
            }
            fn checkpoint_prefixes(&self) -> Vec<String> {
                self.bart.checkpoint_prefixes()
            }
            fn unscaled_residual_init(&self) -> bool {
                self.bart.unscaled_residual_init()
            }
            fn kv_layout(&self) -> Option<$crate::graph::kv::KvLayout> {
                self.bart.kv_layout()
            }
            fn activations(&self) -> Vec<(&'static str, String)> {
                self.bart.activations()
            }
            fn other_release(&self) -> Option<$crate::graph::release::ReleaseNote> {
                let why = vec![
                    "4.x always ties each stack's `embed_tokens` to `shared`; 5.x only with `tie_word_embeddings`",
                ];
                let mut v4 = self.clone();
                v4.bart.release = $crate::config::release::Release::V4;
                $crate::graph::release::note(self, &v4, why)
            }
        }
    };
}
pub(super) use bart_extension;

bart_extension!(NllbMoeConfig);

/// The feed-forward of one layer: `ffn.fc1`/`ffn.fc2`, or the router and its experts.
fn ffn(c: &NllbMoeConfig, l: &str, seq: u64, ffn_dim: u64, sparse: bool) -> Vec<Node> {
    let (h, act, n) = (c.bart.d_model, c.bart.activation_function.as_str(), c.num_experts);
    let f = format!("{l}.ffn");
    if !sparse {
        return vec![
            linear(&format!("{f}.fc1"), &format!("up projection, then {act}"), seq, h, ffn_dim, true),
            linear(&format!("{f}.fc2"), "down projection", seq, ffn_dim, h, true),
        ];
    }
    let e = format!("{f}.experts.expert_{{e}}");
    vec![
        super::t5_blocks::router(&format!("{f}.router.classifier"), "top-2", n, h, c.router_bias, seq),
        linear(&format!("{e}.fc1"), &format!("expert up projection, then {act}"), seq, h, ffn_dim, true)
            .experts(n, 2),
        linear(&format!("{e}.fc2"), "expert down projection", seq, ffn_dim, h, true).experts(n, 2),
    ]
}

fn layer(c: &NllbMoeConfig, l: &str, decoder: bool, sparse: bool, seq: u64) -> Vec<Node> {
    let b = &c.bart;
    let h = b.d_model;
    let (heads, ffn_dim) = if decoder {
        (b.decoder_attention_heads, b.decoder_ffn_dim)
    } else {
        (b.encoder_attention_heads, b.encoder_ffn_dim)
    };
    let mask = if decoder { "causal" } else { "bidirectional" };
    let mut nodes = attention(&format!("{l}.self_attn"), mask, seq, h, heads, true);
    nodes.push(layer_norm(&format!("{l}.self_attn_layer_norm"), "before self-attention (pre-LN)", seq, h));
    if decoder {
        nodes.extend(attention(
            &format!("{l}.cross_attention"),
            "over the encoder's output",
            seq,
            h,
            heads,
            true,
        ));
        let what = "before cross-attention (pre-LN)";
        nodes.push(layer_norm(&format!("{l}.cross_attention_layer_norm"), what, seq, h));
    }
    nodes.extend(ffn(c, l, seq, ffn_dim, sparse));
    nodes.push(layer_norm(&format!("{l}.ff_layer_norm"), "before the feed-forward (pre-LN)", seq, h));
    nodes
}

/// A stack's layers (a run of like layers from layer 0 repeats with `{i}`, later ones are named
/// one by one) and its closing `layer_norm`.
fn stack(c: &NllbMoeConfig, s: &str, decoder: bool, seq: u64) -> Vec<Section> {
    let layers = if decoder { c.bart.decoder_layers } else { c.bart.encoder_layers };
    let mut out = super::t5_blocks::layer_runs(
        &format!("{s}.layers"),
        layers,
        |i| c.is_sparse(decoder, i),
        |l, sparse| layer(c, l, decoder, sparse, seq),
    );
    let name = format!("{s}.layer_norm");
    let node = layer_norm(&name, "the stack's output", seq, c.bart.d_model);
    out.push(Section { name, role: Role::Layers, repeat: 1, nodes: vec![node] });
    out
}

pub fn build(c: &NllbMoeConfig, seq: u64) -> Graph {
    let b = &c.bart;
    let p = b.base_prefix();
    let shared = format!("{p}shared.weight");
    let e = format!("{p}encoder");
    let mut sections = vec![encoder_embeddings(b, p, &shared, seq)];
    sections.extend(stack(c, &e, false, seq));
    let dec = format!("{p}decoder");
    let mut nodes = vec![Node::new("decoder_input_ids", Op::Input, "decoder token ids", &[seq])];
    nodes.extend(stack_embeddings(b, &dec, seq, Some(&shared)));
    sections.push(Section { name: dec.clone(), role: Role::Embeddings, repeat: 1, nodes });
    sections.extend(stack(c, &dec, true, seq));
    sections.extend(lm_head(b, shared, seq));
    Graph { seq_len: seq, sections }
}

/// The generation class's `lm_head` (d -> vocab, no bias), tied to `shared` by the flag.
pub(super) fn lm_head(b: &BartConfig, shared: String, seq: u64) -> Option<Section> {
    let (h, v) = (b.d_model, b.vocab_size);
    let mut w = Tensor::new("lm_head.weight", &[v, h]);
    w.tied_to = b.tie_word_embeddings.then_some(shared);
    let node = Node::new("lm_head", Op::Linear, "logits over the vocabulary", &[seq, v]).with([w]);
    let nodes = vec![node];
    (b.head == Head::ConditionalGeneration).then(|| Section {
        name: "lm_head".into(),
        role: Role::Head,
        repeat: 1,
        nodes,
    })
}
