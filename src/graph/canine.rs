//! The CANINE graph, named as transformers' modules: `canine.char_embeddings.HashBucketCodepointEmbedder_{k}`,
//! `canine.initial_char_encoder.layer.0`, `canine.chars_to_molecules.conv`, `canine.encoder.layer.{i}`,
//! `canine.projection.conv`, `canine.final_char_encoder.layer.0`, `canine.pooler.dense`.

use super::bert::{layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, embedding};
use crate::config::bert::Head;
use crate::config::canine::CanineConfig;

architecture!(
    CanineConfig,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: ["canine."],
    candidates: candidates,
    unscaled_residual_init: true
);

/// A convolution over positions with its bias and the LayerNorm after it.
fn conv(name: &str, detail: String, rows: u64, [out, inp, k]: [u64; 3]) -> Vec<Node> {
    let conv = format!("{name}.conv");
    vec![
        Node::new(&conv, Op::Conv1d, detail, &[rows, out]).with([
            Tensor::new(format!("{conv}.weight"), &[out, inp, k]),
            Tensor::new(format!("{conv}.bias"), &[out]),
        ]),
        layer_norm(&format!("{name}.LayerNorm"), "norm", &[rows, out], out),
    ]
}

pub fn build(c: &CanineConfig, seq: u64) -> Graph {
    let p = if c.head == Head::Model { "" } else { "canine." };
    let (h, k, buckets) = (c.sizes.hidden_size, c.num_hash_functions, c.num_hash_buckets);
    let e = format!("{p}char_embeddings");
    let shard = h / k;
    let mut hashed = Node::new(
        format!("{e}.HashBucketCodepointEmbedder_{{k}}"),
        Op::Embedding,
        format!("{k} hashes of each code point into {buckets} buckets, {shard} wide each, concatenated"),
        &[seq, shard * k],
    );
    hashed.params = (0..k)
        .map(|i| Tensor::new(format!("{e}.HashBucketCodepointEmbedder_{i}.weight"), &[buckets, shard]))
        .collect();
    let nodes = vec![
        Node::new("input_ids", Op::Input, "Unicode code points", &[seq]),
        hashed,
        embedding(
            &format!("{e}.char_position_embeddings"),
            format!("{buckets} positions, learned"),
            seq,
            buckets,
            h,
        ),
        embedding(
            &format!("{e}.token_type_embeddings"),
            format!("{} token types", c.sizes.type_vocab_size),
            seq,
            c.sizes.type_vocab_size,
            h,
        ),
        layer_norm(&format!("{e}.LayerNorm"), "sum of the embeddings, normalised", &[seq, h], h),
    ];
    let mut sections = vec![Section { name: e, role: Role::Embeddings, repeat: 1, nodes }];
    let molecules = (seq / c.downsampling_rate).max(1);
    let layer = |l: &str, rows: u64| super::doc_text::post_ln_layer(l, rows, &c.sizes);
    let initial = format!("{p}initial_char_encoder.layer.0");
    sections.push(Section { nodes: layer(&initial, seq), name: initial, role: Role::Layers, repeat: 1 });
    let down = format!("{p}chars_to_molecules");
    let (rate, up) = (c.downsampling_rate, c.upsampling_kernel_size);
    let nodes = conv(&down, format!("characters to molecules, stride {rate}"), molecules, [h, h, rate]);
    sections.push(Section { name: down, role: Role::Layers, repeat: 1, nodes });
    let deep = format!("{p}encoder.layer.{{i}}");
    sections.push(Section {
        nodes: layer(&deep, molecules),
        name: deep,
        role: Role::Layers,
        repeat: c.sizes.num_layers,
    });
    let proj = format!("{p}projection");
    let nodes = conv(
        &proj,
        format!("characters and molecules back to the hidden size, window {up}"),
        seq,
        [h, 2 * h, up],
    );
    sections.push(Section { name: proj, role: Role::Layers, repeat: 1, nodes });
    let last = format!("{p}final_char_encoder.layer.0");
    sections.push(Section { nodes: layer(&last, seq), name: last, role: Role::Layers, repeat: 1 });
    // Every class builds `CanineModel` with its pooler.
    let pooler = format!("{p}pooler");
    let nodes = vec![linear(&format!("{pooler}.dense"), "first position's state, dense then tanh", 1, h, h)];
    sections.push(Section { name: pooler, role: Role::Pooler, repeat: 1, nodes });
    let n = c.num_labels;
    let (name, nodes) = match c.head {
        Head::SequenceClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "labels from the pooled vector", 1, h, num_labels)])
        }
        Head::TokenClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "a label per character", seq, h, num_labels)])
        }
        Head::QuestionAnswering => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, n)])
        }
        Head::MultipleChoice => ("classifier", vec![linear("classifier", "a score per choice", 1, h, 1)]),
        _ => ("", vec![]),
    };
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

fn candidates(_: &CanineConfig) -> Vec<Candidate> {
    vec![]
}
