//! Perceiver IO's graph, named as `PerceiverForMaskedLM`'s modules under `perceiver.`:
//! `input_preprocessor` (byte and position embeddings), `embeddings.latents`,
//! `encoder.cross_attention` and `encoder.self_attends.{i}` (each a `PerceiverLayer`: attention
//! with `layernorm1`, for a cross-attention `layernorm2`, query, key, value and `output.dense`,
//! then `layernorm` and a two-layer `mlp`), the decoder with its trainable output queries, and
//! `embedding_decoder.bias`. The bare `PerceiverModel` has no `perceiver.`, preprocessor or decoder.

use super::blocks::{embedding, layer_norm, linear};
use super::lxmert::with_head;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::Dims;
use crate::config::perceiver::{PerceiverClass, PerceiverConfig, PerceiverLayer};

architecture!(
    PerceiverConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["perceiver."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        "max_position_embeddings (the byte positions the preprocessor and decoder hold)".into()
    }
);

fn no_candidates(_: &PerceiverConfig) -> Vec<Candidate> {
    vec![]
}

/// A `PerceiverLayer` under `at`, over `rows` query positions.
fn perceiver_layer(at: &str, l: &PerceiverLayer, rows: u64) -> Vec<Node> {
    let s = format!("{at}.attention.self");
    let ln = |name: String, w: u64| layer_norm(&name, "LayerNorm", &[rows, w], w, true);
    let mut nodes = vec![ln(format!("{s}.layernorm1"), l.q_dim)];
    if l.cross {
        nodes.push(ln(format!("{s}.layernorm2"), l.kv_dim));
    }
    nodes.push(linear(&format!("{s}.query"), "query projection", rows, l.q_dim, l.qk, true));
    nodes.push(linear(&format!("{s}.key"), "key projection", rows, l.kv_dim, l.qk, true));
    nodes.push(linear(&format!("{s}.value"), "value projection", rows, l.kv_dim, l.v, true));
    let what = if l.cross { "cross-attention" } else { "self-attention over the latents" };
    nodes.push(Node::new(&s, Op::Attention, format!("{} heads, {what}", l.heads), &[rows, l.v]));
    // A cross-attention projects back to its queries' width; a self-attention keeps v_channels.
    let out = if l.cross { l.q_dim } else { l.v };
    nodes.push(linear(
        &format!("{at}.attention.output.dense"),
        "attention output projection",
        rows,
        l.v,
        out,
        true,
    ));
    nodes.push(ln(format!("{at}.layernorm"), l.q_dim));
    let wide = l.q_dim.saturating_mul(l.widening);
    nodes.push(linear(&format!("{at}.mlp.dense1"), "MLP in, then the activation", rows, l.q_dim, wide, true));
    nodes.push(linear(&format!("{at}.mlp.dense2"), "MLP out", rows, wide, l.q_dim, true));
    nodes
}

fn decoder(c: &PerceiverConfig, p: &str, l: &PerceiverLayer) -> Section {
    let (at, queries) = match c.kind {
        PerceiverClass::MaskedLm => (format!("{p}decoder"), c.max_position_embeddings),
        _ => (format!("{p}decoder.decoder"), 1),
    };
    let q = format!("{at}.output_position_encodings");
    let mut nodes = vec![
        Node::new(&q, Op::Embedding, "trainable output queries", &[queries, l.q_dim])
            .with([Tensor::new(format!("{q}.position_embeddings"), &[queries, l.q_dim])]),
    ];
    nodes.extend(perceiver_layer(&format!("{at}.decoding_cross_attention"), l, queries));
    if let PerceiverClass::Classifier { num_labels } = c.kind {
        nodes.push(linear(&format!("{at}.final_layer"), "class logits", 1, l.q_dim, num_labels, true));
    }
    Section { name: at, role: Role::Layers, repeat: 1, nodes }
}

pub fn build(c: &PerceiverConfig, seq: u64) -> Graph {
    let p = if c.kind == PerceiverClass::Model { "" } else { "perceiver." };
    let (latents, dl) = (c.num_latents, c.d_latents);
    let mut inputs = vec![Node::new("inputs", Op::Input, "input ids or features", &[seq])];
    if c.kind != PerceiverClass::Model {
        let pre = format!("{p}input_preprocessor");
        let (v, pos, dm) = (c.vocab_size, c.max_position_embeddings, c.d_model);
        inputs.push(embedding(&format!("{pre}.embeddings"), format!("{v} bytes"), seq, v, dm));
        inputs.push(embedding(
            &format!("{pre}.position_embeddings"),
            format!("{pos} positions"),
            seq,
            pos,
            dm,
        ));
    }
    let at = format!("{p}embeddings");
    inputs.push(
        Node::new(&at, Op::Embedding, format!("{latents} learned latents"), &[latents, dl])
            .with([Tensor::new(format!("{at}.latents"), &[latents, dl])]),
    );
    let cross = format!("{p}encoder.cross_attention");
    let selfs = format!("{p}encoder.self_attends.{{i}}");
    let mut sections = vec![
        Section { name: at, role: Role::Embeddings, repeat: 1, nodes: inputs },
        Section {
            nodes: perceiver_layer(&cross, &c.encoder_cross, latents),
            name: cross,
            role: Role::Layers,
            repeat: 1,
        },
        Section {
            nodes: perceiver_layer(&selfs, &c.encoder_self, latents),
            name: selfs,
            role: Role::Layers,
            repeat: c.self_attends,
        },
    ];
    sections.extend(c.decoder.as_ref().map(|l| decoder(c, p, l)));
    let head = match c.kind {
        // PerceiverEmbeddingDecoder: the preprocessor's table, transposed, and its own bias.
        PerceiverClass::MaskedLm => vec![
            Node::new("embedding_decoder", Op::Linear, "byte logits", &[seq, c.vocab_size])
                .with([Tensor::new("embedding_decoder.bias", &[c.vocab_size])]),
        ],
        _ => vec![],
    };
    with_head(sections, head, seq)
}

impl PerceiverConfig {
    fn dims(&self) -> Dims {
        let l = &self.encoder_self;
        let d = Dims::mha(
            self.d_latents,
            self.self_attends,
            l.heads,
            self.d_latents * l.widening,
            self.vocab_size,
            self.max_position_embeddings,
        );
        Dims { head_dim: l.qk / l.heads.max(1), layer_norm_eps: 1e-12, ..d }
    }
}
