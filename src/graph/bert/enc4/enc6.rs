//! What issue 10's enc6 rows add to the BERT graph: FNet's projected embeddings and Fourier
//! layers, TAPAS's token-type tables and cell selection head, Splinter's question-aware span
//! selection head, and which of their classes pool.

use super::{layer_norm, linear};
use crate::config::bert::{BertConfig, Head};
use crate::config::encoders::Heads;
use crate::graph::{Node, Op, Role, Section, Tensor, blocks, embedding};

mod luke;

/// TAPAS's tables before the embeddings' norm; FNet's projection after it.
pub(super) fn embeddings(c: &BertConfig, p: &str, seq: u64, nodes: &mut Vec<Node>) {
    let (h, emb) = (c.hidden_size, format!("{p}embeddings"));
    let at = nodes.iter().position(|n| n.op == Op::LayerNorm).unwrap_or(nodes.len());
    let tables = c.enc6.type_tables.iter().enumerate().map(|(i, &rows)| {
        let name = format!("{emb}.token_type_embeddings_{i}");
        embedding(&name, format!("{rows} token types (table {i})"), seq, rows, h)
    });
    nodes.splice(at..at, tables);
    if let Some(name) = c.desc.enc6.embed_projection {
        nodes.push(linear(&format!("{emb}.{name}"), "embeddings projected, hidden to hidden", seq, h, h));
    }
}

/// FNet's layer in place of BERT's: the real part of a 2-D Fourier transform over the sequence
/// and hidden axes (no weights), a residual add and norm, then BERT's MLP and norm.
pub(super) fn layer(c: &BertConfig, l: &str, seq: u64, nodes: &mut Vec<Node>) {
    let (h, ffn) = (c.hidden_size, c.intermediate_size);
    if c.enc6.entities.is_some_and(|e| e.aware) {
        // LUKE's entity-aware attention: a query per pair of token kinds besides words to words.
        let at = nodes.iter().position(|n| n.name.ends_with(".value")).map_or(nodes.len(), |i| i + 1);
        let all = c.num_heads * c.head_dim();
        let queries = ["w2e_query", "e2w_query", "e2e_query"].map(|q| {
            linear(
                &format!("{l}.attention.self.{q}"),
                "query projection between words and entities",
                seq,
                h,
                all,
            )
        });
        nodes.splice(at..at, queries);
    }
    if !c.desc.enc6.mixer {
        return;
    }
    let act = &c.hidden_act;
    *nodes = vec![
        Node::new(
            format!("{l}.fourier.self"),
            Op::Add,
            "real part of the 2-D Fourier transform over sequence and hidden (no weights; saves no tensor)",
            &[seq, h],
        ),
        layer_norm(&format!("{l}.fourier.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
        linear(&format!("{l}.intermediate.dense"), &format!("up projection, then {act}"), seq, h, ffn),
        linear(&format!("{l}.output.dense"), "down projection", seq, ffn, h),
        layer_norm(&format!("{l}.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
    ];
}

/// Whether the class pools where the lineage's rule says it does not: TAPAS's question
/// answering (its aggregation classifier reads the pooled vector). Splinter never pools, as
/// RoFormer's style says.
pub(in crate::graph::bert) fn pools(c: &BertConfig) -> bool {
    match c.desc.enc6.heads {
        Heads::Tapas => c.head == Head::QuestionAnswering,
        // LukeModel's pooler is on unless a class turns it off (token classification, QA).
        Heads::Luke => matches!(c.head, Head::MaskedLm | Head::SequenceClassification { .. }),
        _ => false,
    }
}

/// The row's own head, where the class builds one: its section replaces the lineage's head.
pub(in crate::graph::bert) fn head(
    c: &BertConfig,
    seq: u64,
    sections: &mut Vec<Section>,
    lineage: &mut Vec<Node>,
) {
    let h = c.hidden_size;
    if let Some(e) = c.enc6.entities {
        sections.insert(1.min(sections.len()), luke::entity_embeddings(c, e, seq));
    }
    let (name, nodes) = match (c.desc.enc6.heads, c.head) {
        (Heads::Luke, Head::MaskedLm) => {
            let (entity, words) = luke::mlm(c, seq);
            sections.push(entity);
            ("lm_head", words)
        }
        (Heads::Luke, Head::SequenceClassification { num_labels }) => {
            let k = c.enc6.entity_head.unwrap_or(1);
            let detail = "labels from the concatenated states";
            let rows = if c.enc6.entity_head.is_some() { seq } else { 1 };
            ("classifier", vec![blocks::linear("classifier", detail, rows, k * h, num_labels, k != 2)])
        }
        (Heads::Splinter, Head::QuestionAnswering | Head::PreTraining) => ("splinter_qass", qass(c, seq)),
        (Heads::Tapas, Head::QuestionAnswering) => {
            let scalar = |name: &str| Tensor::new(name, &[]);
            let mut nodes = vec![
                Node::new("output_weights", Op::Linear, "a logit per token, for cell selection", &[seq])
                    .with([Tensor::new("output_weights", &[h]), scalar("output_bias")]),
                Node::new(
                    "column_output_weights",
                    Op::Linear,
                    "a logit per token, for column selection",
                    &[seq],
                )
                .with([Tensor::new("column_output_weights", &[h]), scalar("column_output_bias")]),
            ];
            let labels = c.enc6.aggregation_labels;
            if labels > 0 {
                let detail = "aggregation operator from the pooled vector";
                nodes.push(linear("aggregation_classifier", detail, 1, h, labels));
            }
            ("cell_selection", nodes)
        }
        _ => return,
    };
    lineage.clear();
    sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
}

/// Splinter's question-aware span selection: four dense + GELU + LayerNorm transforms (of the
/// question tokens' states and of every token's) and two bias-free bilinear classifiers.
fn qass(c: &BertConfig, seq: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let mut nodes = vec![];
    for t in ["query_start_transform", "query_end_transform", "start_transform", "end_transform"] {
        let name = format!("splinter_qass.{t}");
        nodes.push(linear(&format!("{name}.dense"), "dense, then GELU", seq, h, h));
        nodes.push(layer_norm(&format!("{name}.LayerNorm"), "norm", &[seq, h], h));
    }
    for k in ["start_classifier", "end_classifier"] {
        let detail = "question state against every token's";
        nodes.push(blocks::linear(&format!("splinter_qass.{k}"), detail, seq, h, h, false));
    }
    nodes
}
