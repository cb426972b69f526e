//! The LayoutLMv3 graph, named as transformers' modules: `layoutlmv3.embeddings.x_position_embeddings`,
//! `layoutlmv3.patch_embed.proj`, `layoutlmv3.encoder.rel_pos_x_bias`, `classifier.out_proj`.

use super::bert::{layer_norm, linear};
use super::encoder::bert_embeddings;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, embedding};
use crate::config::layoutlmv3::{LayoutLmV3Config, V3Head, Visual};

architecture!(
    LayoutLmV3Config,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: ["layoutlmv3."],
    candidates: candidates,
    unscaled_residual_init: true
);

fn prefix(c: &LayoutLmV3Config) -> &'static str {
    if c.head == V3Head::Model { "" } else { "layoutlmv3." }
}

/// The word, 1-D position, token-type and four 2-D position tables under one LayerNorm.
fn text(c: &LayoutLmV3Config, p: &str, seq: u64) -> Vec<Node> {
    let (h, v) = (c.sizes.hidden_size, c.sizes.vocab_size);
    let emb = format!("{p}embeddings");
    let sizes = [v, c.sizes.max_position_embeddings, c.sizes.type_vocab_size];
    let mut nodes = bert_embeddings(&emb, seq, format!("{v} tokens"), sizes, h);
    let rows = c.max_2d_positions;
    for (i, (axis, width)) in
        [("x", c.coordinate_size), ("y", c.coordinate_size), ("h", c.shape_size), ("w", c.shape_size)]
            .into_iter()
            .enumerate()
    {
        let name = format!("{emb}.{axis}_position_embeddings");
        nodes.insert(3 + i, embedding(&name, format!("{rows} 2-D positions ({axis})"), seq, rows, width));
    }
    nodes
}

/// The image as patches: a convolution, a class token, a learned position grid, and the two
/// norms (`LayerNorm` on the patches, `norm` on text and patches together).
fn visual(c: &LayoutLmV3Config, p: &str, v: Visual) -> Vec<Node> {
    let h = c.sizes.hidden_size;
    let tokens = v.side * v.side + 1;
    let proj = format!("{p}patch_embed.proj");
    let (k, ch) = (v.patch, v.channels);
    vec![
        Node::new("pixel_values", Op::Input, "one page image", &[ch, v.side * k, v.side * k]),
        Node::new(&proj, Op::Embedding, format!("{k}x{k} patches of {ch} channels"), &[tokens - 1, h]).with(
            [
                Tensor::new(format!("{proj}.weight"), &[h, ch, k, k]),
                Tensor::new(format!("{proj}.bias"), &[h]),
            ],
        ),
        Node::new(format!("{p}cls_token"), Op::Embedding, "class token", &[1, h])
            .with([Tensor::new(format!("{p}cls_token"), &[1, 1, h])]),
        Node::new(
            format!("{p}pos_embed"),
            Op::Embedding,
            "learned positions of the patch grid",
            &[tokens, h],
        )
        .with([Tensor::new(format!("{p}pos_embed"), &[1, tokens, h])]),
        layer_norm(&format!("{p}LayerNorm"), "norm over the patches", &[tokens, h], h),
        layer_norm(&format!("{p}norm"), "norm over text and patches", &[tokens, h], h),
    ]
}

pub fn build(c: &LayoutLmV3Config, seq: u64) -> Graph {
    let p = prefix(c);
    let h = c.sizes.hidden_size;
    let mut nodes = if c.text_embed { text(c, p, seq) } else { vec![] };
    if let Some(v) = c.visual {
        nodes.extend(visual(c, p, v));
    }
    let mut sections =
        vec![Section { name: format!("{p}embeddings"), role: Role::Embeddings, repeat: 1, nodes }];
    let heads = c.sizes.num_heads;
    let bias = |name: &str, bins: u64, what: &str| {
        let name = format!("{p}encoder.{name}");
        Node::new(
            &name,
            Op::Linear,
            format!("{bins} {what} buckets to {heads} heads, shared by all layers"),
            &[heads],
        )
        .with([Tensor::new(format!("{name}.weight"), &[heads, bins])])
    };
    let mut biases = vec![];
    if let Some(bins) = c.rel_pos_bins {
        biases.push(bias("rel_pos_bias", bins, "relative 1-D position"));
    }
    if let Some(bins) = c.rel_2d_pos_bins {
        biases.push(bias("rel_pos_x_bias", bins, "relative x"));
        biases.push(bias("rel_pos_y_bias", bins, "relative y"));
    }
    if !biases.is_empty() {
        sections.push(Section { name: format!("{p}encoder"), role: Role::Layers, repeat: 1, nodes: biases });
    }
    let l = format!("{p}encoder.layer.{{i}}");
    // The layers run over the words and, after them, the class token and the patches.
    let rows = seq + c.visual.map_or(0, |v| v.side * v.side + 1);
    let nodes = super::doc_text::post_ln_layer(&l, rows, &c.sizes);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.sizes.num_layers, nodes });
    let n = c.num_labels;
    let classification = |name: &str, rows: u64| {
        vec![
            linear(&format!("{name}.dense"), "dense, then tanh", rows, h, h),
            linear(&format!("{name}.out_proj"), "labels", rows, h, n),
        ]
    };
    let (name, nodes) = match c.head {
        V3Head::Model => ("", vec![]),
        V3Head::SequenceClassification => ("classifier", classification("classifier", 1)),
        V3Head::TokenClassification if n < 10 => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, n)])
        }
        V3Head::TokenClassification => ("classifier", classification("classifier", seq)),
        V3Head::QuestionAnswering => ("qa_outputs", classification("qa_outputs", seq)),
    };
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

fn candidates(_: &LayoutLmV3Config) -> Vec<Candidate> {
    vec![]
}
