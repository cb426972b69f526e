//! The blocks of the BERT lineage, written once: its embeddings (word, learned position and
//! token-type tables under one LayerNorm) and its post-LN layer, named as `BertModel` names them
//! (`embeddings.word_embeddings`, `encoder.layer.{i}.attention.self.query`, ...). BERT, RoBERTa,
//! XLM-RoBERTa and ELECTRA stack them.

use super::bert::{layer_norm, linear};
use super::{Node, Op, Tensor, embedding};
use crate::config::encoders::Norms;

/// `input_ids`, the three tables of `width` under `emb` and their LayerNorm. `words` says what
/// the word table's node reads (`30522 tokens`).
pub(crate) fn bert_embeddings(emb: &str, seq: u64, words: String, sizes: [u64; 3], width: u64) -> Vec<Node> {
    let [vocab, positions, types] = sizes;
    vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{emb}.word_embeddings"), words, seq, vocab, width),
        embedding(
            &format!("{emb}.position_embeddings"),
            format!("{positions} positions, learned"),
            seq,
            positions,
            width,
        ),
        embedding(&format!("{emb}.token_type_embeddings"), format!("{types} token types"), seq, types, width),
        layer_norm(
            &format!("{emb}.LayerNorm"),
            "sum of the three embeddings, normalised",
            &[seq, width],
            width,
        ),
    ]
}

/// One post-LN layer at `l` (`encoder.layer.{i}`).
pub(crate) struct BertLayer<'a> {
    pub l: &'a str,
    pub seq: u64,
    pub hidden: u64,
    pub heads: u64,
    /// q, k and v project to heads x head_dim, which ELECTRA lets fall short of the hidden size.
    pub head_dim: u64,
    pub ffn: u64,
    pub act: &'a str,
    /// Rows of transformers 4.x's `distance_embedding` (2 x positions - 1) for `relative_key`;
    /// None for absolute positions, and under 5.x, which builds no relative tables.
    pub distance_rows: Option<u64>,
    /// Where the two norms sit (BERT's post-LN, or before each sublayer) and their names.
    pub norms: &'a Norms,
}

pub(crate) fn bert_layer(b: &BertLayer) -> Vec<Node> {
    let (l, seq, h, heads, hd) = (b.l, b.seq, b.hidden, b.heads, b.head_dim);
    let all = heads * hd;
    let mut attention = Node::new(
        format!("{l}.attention.self"),
        Op::Attention,
        format!("{heads} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}))V"),
        &[seq, h],
    );
    if let Some(rows) = b.distance_rows {
        attention
            .params
            .push(Tensor::new(format!("{l}.attention.self.distance_embedding.weight"), &[rows, hd]));
    }
    let n = b.norms;
    let attention_norm = |detail| layer_norm(&format!("{l}.{}", n.attention), detail, &[seq, h], h);
    let mlp_norm = |detail| layer_norm(&format!("{l}.{}", n.mlp), detail, &[seq, h], h);
    let mut nodes = vec![];
    if n.pre {
        nodes.push(attention_norm("norm before attention"));
    }
    nodes.extend([
        linear(&format!("{l}.attention.self.query"), "query projection", seq, h, all),
        linear(&format!("{l}.attention.self.key"), "key projection", seq, h, all),
        linear(&format!("{l}.attention.self.value"), "value projection", seq, h, all),
        attention,
        linear(&format!("{l}.attention.output.dense"), "attention output projection", seq, h, h),
    ]);
    nodes.push(if n.pre {
        mlp_norm("residual add, then norm before the MLP")
    } else {
        attention_norm("residual add, then norm")
    });
    nodes.extend([
        linear(&format!("{l}.intermediate.dense"), &format!("up projection, then {}", b.act), seq, h, b.ffn),
        linear(&format!("{l}.output.dense"), "down projection", seq, b.ffn, h),
    ]);
    if !n.pre {
        nodes.push(mlp_norm("residual add, then norm"));
    }
    nodes
}
