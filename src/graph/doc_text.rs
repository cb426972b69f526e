//! The MarkupLM and BROS graphs, named as transformers' modules: BERT's embeddings and post-LN
//! layers (`graph/encoder.rs`) with MarkupLM's `embeddings.xpath_embeddings` or BROS's
//! `bbox_embeddings.bbox_projection` or LiLT's layout stream (`graph/lilt.rs`), and each type's own
//! heads.

use super::bert::linear;
use super::encoder::{BertLayer, bert_embeddings, bert_layer};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::doc_text::{DocHead, DocTextConfig, Extra};
use crate::config::enc_common::EncSizes;
use crate::config::encoders::POST_LN;

architecture!(
    DocTextConfig,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: [c.module()],
    candidates: candidates,
    unscaled_residual_init: true
);

fn prefix(c: &DocTextConfig) -> &'static str {
    if c.head == DocHead::Model { "" } else { c.module() }
}

/// Every BROS class builds its `BrosModel` with the pooler; MarkupLM's bare model and sequence
/// classification build it, LiLT's bare model alone.
fn has_pooler(c: &DocTextConfig) -> bool {
    match c.extra {
        Extra::Boxes { .. } => true,
        Extra::Xpath { .. } => matches!(c.head, DocHead::Model | DocHead::SequenceClassification),
        Extra::Layout { .. } => c.head == DocHead::Model,
    }
}

/// MarkupLM's XPath embedding: a tag and a subscript table per depth, concatenated over the
/// depths and summed, then `xpath_unitseq2_inner` (ReLU) and `inner2emb`. `xpath_unitseq2_embeddings`
/// is built but never called; its parameters are counted, as transformers counts them.
fn xpath(emb: &str, seq: u64, h: u64, [depth, unit, tags, subs]: [u64; 4]) -> Vec<Node> {
    let x = format!("{emb}.xpath_embeddings");
    let cat = depth * unit;
    let mut nodes = vec![
        linear(
            &format!("{x}.xpath_unitseq2_embeddings"),
            "unused projection (built, never called)",
            seq,
            cat,
            h,
        ),
        linear(
            &format!("{x}.xpath_unitseq2_inner"),
            "XPath units up to 4 x hidden, then ReLU",
            seq,
            cat,
            4 * h,
        ),
        linear(&format!("{x}.inner2emb"), "down to the hidden size", seq, 4 * h, h),
    ];
    for (table, rows, what) in
        [("xpath_tag_sub_embeddings", tags, "tag"), ("xpath_subs_sub_embeddings", subs, "subscript")]
    {
        let name = format!("{x}.{table}.{{d}}");
        let mut node =
            Node::new(&name, Op::Embedding, format!("{depth} depths x {rows} {what} units"), &[seq, cat]);
        node.params =
            (0..depth).map(|d| Tensor::new(format!("{x}.{table}.{d}.weight"), &[rows, unit])).collect();
        nodes.push(node);
    }
    nodes
}

/// BERT's post-LN layer at `l`, over `rows` positions, as these encoders all stack it.
pub(crate) fn post_ln_layer(l: &str, rows: u64, s: &EncSizes) -> Vec<Node> {
    bert_layer(&BertLayer {
        l,
        seq: rows,
        hidden: s.hidden_size,
        heads: s.num_heads,
        head_dim: s.head_dim(),
        ffn: s.intermediate_size,
        act: &s.hidden_act,
        distance_rows: None,
        norms: &POST_LN,
    })
}

pub fn build(c: &DocTextConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, v) = (c.sizes.hidden_size, c.sizes.vocab_size);
    let emb = format!("{p}embeddings");
    let sizes = [v, c.sizes.max_position_embeddings, c.sizes.type_vocab_size];
    let mut nodes = bert_embeddings(&emb, seq, format!("{v} tokens"), sizes, h);
    match c.extra {
        Extra::Xpath { max_depth, unit_width, tag_rows, subscript_rows } => {
            // After the position table, as MarkupLMEmbeddings builds it.
            let at = nodes.len() - 2;
            for (i, n) in
                xpath(&emb, seq, h, [max_depth, unit_width, tag_rows, subscript_rows]).into_iter().enumerate()
            {
                nodes.insert(at + i, n);
            }
        }
        Extra::Layout { shrink, max_2d } => {
            nodes.extend(super::lilt::embeddings(
                p,
                seq,
                [h, c.sizes.max_position_embeddings, shrink, max_2d],
            ));
        }
        Extra::Boxes { .. } => {
            // Relative box positions as sinusoids of hidden / 4, projected to one head's width.
            let name = format!("{p}bbox_embeddings.bbox_projection");
            let node = Node::new(
                &name,
                Op::Linear,
                "box sinusoids to a head's width, no bias",
                &[seq, seq, h / c.sizes.num_heads],
            )
            .with([Tensor::new(format!("{name}.weight"), &[h / c.sizes.num_heads, h / 4])]);
            nodes.push(node);
        }
    }
    let mut sections = vec![Section { name: emb, role: Role::Embeddings, repeat: 1, nodes }];
    let l = format!("{p}encoder.layer.{{i}}");
    let mut layer = post_ln_layer(&l, seq, &c.sizes);
    if let Extra::Layout { shrink, .. } = c.extra {
        layer.extend(super::lilt::layer(
            &l,
            seq,
            [h, c.sizes.intermediate_size, shrink],
            &c.sizes.hidden_act,
        ));
    }
    sections.push(Section { name: l, role: Role::Layers, repeat: c.sizes.num_layers, nodes: layer });
    if has_pooler(c) {
        let name = format!("{p}pooler");
        let nodes = vec![linear(&format!("{name}.dense"), "first token's state, dense then tanh", 1, h, h)];
        sections.push(Section { name, role: Role::Pooler, repeat: 1, nodes });
    }
    let n = c.num_labels;
    let (name, nodes) = match c.head {
        DocHead::Model => ("", vec![]),
        DocHead::SequenceClassification if matches!(c.extra, Extra::Layout { .. }) => (
            "classifier",
            vec![
                linear("classifier.dense", "first token's state, dense then tanh", 1, h, h),
                linear("classifier.out_proj", "labels", 1, h, n),
            ],
        ),
        DocHead::SequenceClassification => {
            ("classifier", vec![linear("classifier", "labels from the pooled vector", 1, h, n)])
        }
        DocHead::TokenClassification => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, n)])
        }
        DocHead::QuestionAnswering => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, n)])
        }
        DocHead::SpadeEntityExtraction => {
            let mut nodes = vec![
                linear("initial_token_classifier.1", "dense", seq, h, h),
                linear("initial_token_classifier.3", "a label per token", seq, h, n),
            ];
            nodes.extend(relations(c, "subsequent_token_classifier", seq));
            ("initial_token_classifier", nodes)
        }
        DocHead::SpadeEntityLinking => ("entity_linker", relations(c, "entity_linker", seq)),
    };
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

/// `BrosRelationExtractor`: query and key projections per relation, and a learned dummy node
/// appended to the keys.
fn relations(c: &DocTextConfig, name: &str, seq: u64) -> Vec<Node> {
    let h = c.sizes.hidden_size;
    let r = match c.extra {
        Extra::Boxes { relations } => relations,
        Extra::Xpath { .. } | Extra::Layout { .. } => 1,
    };
    vec![
        linear(&format!("{name}.query"), "queries per relation", seq, h, r * h),
        Node::new(format!("{name}.dummy_node"), Op::Embedding, "a learned extra key", &[1, h])
            .with([Tensor::new(format!("{name}.dummy_node"), &[1, h])]),
        linear(&format!("{name}.key"), "keys per relation", seq + 1, h, r * h),
    ]
}

fn candidates(c: &DocTextConfig) -> Vec<Candidate> {
    let m = c.module();
    let h = c.sizes.hidden_size;
    let mut out = vec![];
    if matches!(c.extra, Extra::Boxes { .. }) {
        // BrosTextEmbeddings' buffers are persistent.
        out.push(Candidate::extra(
            "persistent buffers",
            vec![
                (format!("{m}embeddings.position_ids"), vec![1, c.sizes.max_position_embeddings]),
                (format!("{m}embeddings.token_type_ids"), vec![1, c.sizes.max_position_embeddings]),
            ],
            "position and token-type ids, buffers BROS saves with the weights; not parameters",
        ));
    }
    if !has_pooler(c) {
        out.push(Candidate::extra(
            "pooler",
            vec![(format!("{m}pooler.dense.weight"), vec![h, h]), (format!("{m}pooler.dense.bias"), vec![h])],
            "the pooler of the bare model's checkpoint; this class is built with add_pooling_layer=False and drops it",
        ));
    }
    out
}
