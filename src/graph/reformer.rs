//! Reformer's graph, named as `ReformerModelWithLMHead`'s modules: `reformer.embeddings`
//! (`word_embeddings`, then `position_embeddings.weights.{axis}` or `.embedding`), per layer
//! `attention.layer_norm`, LSH (`query_key`, `value`) or local (`query`, `key`, `value`)
//! attention without biases, `attention.output.dense`, `feed_forward.layer_norm` and its two
//! dense layers with biases; `encoder.layer_norm` over both reversible halves (`2 x hidden`),
//! then the head on that width. The bare `ReformerModel` drops the `reformer.`.

use super::blocks::{embedding, layer_norm, linear};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::Dims;
use crate::config::reformer::{ReformerConfig, ReformerHead};

architecture!(
    ReformerConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["reformer."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let h = self.hidden_size;
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.lsh.len() as u64,
                values_per_token: h,
                window: None,
                what: format!(
                    "the layer's {h}-wide input states (ReformerDynamicCache keeps states and LSH buckets, not keys and values; the buckets are not counted)"
                ),
            }],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn context_source(&self) -> String {
        match &self.axial {
            Some((shape, _)) => format!(
                "axial_pos_shape ({}: the axial positions cover their product)",
                shape.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ")
            ),
            None => "max_position_embeddings".into(),
        }
    }
);

fn no_candidates(_: &ReformerConfig) -> Vec<Candidate> {
    vec![]
}

fn embeddings(c: &ReformerConfig, p: &str, seq: u64) -> Section {
    let h = c.hidden_size;
    let e = format!("{p}embeddings");
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{e}.word_embeddings"), format!("{} tokens", c.vocab_size), seq, c.vocab_size, h),
    ];
    let at = format!("{e}.position_embeddings");
    nodes.push(match &c.axial {
        Some((shape, dims)) => {
            // AxialPositionEmbeddings: axis k's table is [1, .., shape[k], .., 1, dims[k]].
            let tables = dims.iter().enumerate().map(|(k, &w)| {
                let mut s: Vec<u64> =
                    shape.iter().enumerate().map(|(j, &n)| if j == k { n } else { 1 }).collect();
                s.push(w);
                Tensor::new(format!("{at}.weights.{k}"), &s)
            });
            Node::new(&at, Op::Embedding, "axial positions: one table per axis, concatenated", &[seq, h])
                .with(tables.collect::<Vec<_>>())
        }
        None => embedding(
            &format!("{at}.embedding"),
            format!("{} positions", c.max_position_embeddings),
            seq,
            c.max_position_embeddings,
            h,
        ),
    });
    Section { name: e, role: Role::Embeddings, repeat: 1, nodes }
}

fn layer(c: &ReformerConfig, l: &str, lsh: bool, seq: u64) -> Vec<Node> {
    let (h, inner) = (c.hidden_size, c.num_heads.saturating_mul(c.head_dim));
    let a = format!("{l}.attention.self_attention");
    let mut nodes = vec![layer_norm(
        &format!("{l}.attention.layer_norm"),
        "LayerNorm before attention",
        &[seq, h],
        h,
        true,
    )];
    let projections: &[(&str, &str)] = if lsh {
        &[("query_key", "shared query and key projection"), ("value", "value projection")]
    } else {
        &[("query", "query projection"), ("key", "key projection"), ("value", "value projection")]
    };
    nodes.extend(projections.iter().map(|(n, what)| linear(&format!("{a}.{n}"), what, seq, h, inner, false)));
    let how = if lsh { "LSH attention over hashed buckets" } else { "local attention over chunks" };
    nodes.push(Node::new(
        &a,
        Op::Attention,
        format!("{} heads x {}, {how}", c.num_heads, c.head_dim),
        &[seq, inner],
    ));
    nodes.push(linear(
        &format!("{l}.attention.output.dense"),
        "attention output projection",
        seq,
        inner,
        h,
        false,
    ));
    let f = format!("{l}.feed_forward");
    nodes.push(layer_norm(
        &format!("{f}.layer_norm"),
        "LayerNorm before the feed-forward",
        &[seq, h],
        h,
        true,
    ));
    nodes.push(linear(
        &format!("{f}.dense.dense"),
        "feed-forward in, then the activation",
        seq,
        h,
        c.ffn,
        true,
    ));
    nodes.push(linear(&format!("{f}.output.dense"), "feed-forward out", seq, c.ffn, h, true));
    nodes
}

fn head(c: &ReformerConfig, seq: u64) -> Option<Section> {
    let (h, two) = (c.hidden_size, c.hidden_size.saturating_mul(2));
    let nodes = match c.head {
        ReformerHead::None => return None,
        ReformerHead::Lm => {
            let mut decoder =
                linear("lm_head.decoder", "logits over both halves", seq, two, c.vocab_size, true);
            // ReformerOnlyLMHead keeps its own `bias` beside the decoder's: both are parameters.
            decoder.params.push(Tensor::new("lm_head.bias", &[c.vocab_size]));
            vec![decoder]
        }
        ReformerHead::Sequence { num_labels } => vec![
            linear("classifier.dense", "pooled first token, then tanh", 1, two, h, true),
            linear("classifier.out_proj", "class logits", 1, h, num_labels, true),
        ],
        ReformerHead::Qa { num_labels } => {
            vec![linear("qa_outputs", "span start and end logits", seq, two, num_labels, true)]
        }
    };
    Some(Section { name: "head".into(), role: Role::Head, repeat: 1, nodes })
}

pub fn build(c: &ReformerConfig, seq: u64) -> Graph {
    let p = if c.head == ReformerHead::None { "" } else { "reformer." };
    let two = c.hidden_size.saturating_mul(2);
    let mut sections = vec![embeddings(c, p, seq)];
    for (i, lsh) in c.lsh.iter().enumerate() {
        let l = format!("{p}encoder.layers.{i}");
        sections.push(Section { nodes: layer(c, &l, *lsh, seq), name: l, role: Role::Layers, repeat: 1 });
    }
    let last = format!("{p}encoder.layer_norm");
    sections.push(Section {
        name: last.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![layer_norm(&last, "LayerNorm over both reversible halves", &[seq, two], two, true)],
    });
    sections.extend(head(c, seq));
    Graph { seq_len: seq, sections }
}

impl ReformerConfig {
    fn dims(&self) -> Dims {
        let layers = self.lsh.len() as u64;
        let d =
            Dims::mha(self.hidden_size, layers, self.num_heads, self.ffn, self.vocab_size, self.context());
        Dims { head_dim: self.head_dim, layer_norm_eps: 1e-12, pad_token_id: Some(0), ..d }
    }

    /// The longest input the positions cover: the axial shape's product, or the table's rows.
    fn context(&self) -> u64 {
        match &self.axial {
            Some((shape, _)) => shape.iter().fold(1u64, |a, &n| a.saturating_mul(n)),
            None => self.max_position_embeddings,
        }
    }
}
