//! What issue 10's enc4 rows add to the BERT graph: RoCBert's pronunciation and shape tables,
//! RoFormer's frozen sinusoid table in place of learned positions, the projection from narrower
//! embeddings (RemBERT, RoFormer), and RemBERT's masked-LM head.

use super::{layer_norm, linear};
use crate::config::bert::BertConfig;
use crate::config::encoders::Positions;
use crate::graph::{Node, Op, Tensor, embedding};

/// Adjusts the embedding nodes (`input_ids`, word, position, token-type, LayerNorm) in place.
pub(super) fn embeddings(c: &BertConfig, emb: &str, seq: u64, nodes: &mut Vec<Node>) {
    let e = c.embed_width;
    if c.desc.positions == Positions::Sinusoid {
        nodes.retain(|n| !n.name.ends_with(".position_embeddings"));
    }
    if let Some(g) = c.glyphs {
        let pronunciation = embedding(
            &format!("{emb}.pronunciation_embed"),
            format!("{} pronunciations", g.pronunciation_vocab),
            seq,
            g.pronunciation_vocab,
            g.pronunciation_dim,
        );
        let shape =
            embedding(&format!("{emb}.shape_embed"), format!("{} glyph shapes", g.shape_vocab), seq, g.shape_vocab, g.shape_dim);
        nodes.splice(2..2, [pronunciation, shape]);
        if let Some(width) = g.map_inputs {
            let at = nodes.len().saturating_sub(1);
            let map = linear(&format!("{emb}.map_inputs_layer"), "concatenated embeddings to the hidden size", seq, width, e);
            nodes.insert(at, map);
        }
    }
}

/// The linear from the embeddings' width to the hidden size, and RoFormer's sinusoid table.
pub(super) fn projection(c: &BertConfig, p: &str, seq: u64, nodes: &mut Vec<Node>) {
    if c.desc.positions == Positions::Sinusoid {
        let hd = c.head_dim();
        let rows = c.max_position_embeddings;
        let name = format!("{p}encoder.embed_positions");
        let detail = format!("{rows} positions x {hd}, rotary sinusoids in a frozen weight");
        nodes.push(embedding(&name, detail, seq, rows, hd));
    }
    if let (true, Some(w)) = (c.embed_project, c.desc.embed_width) {
        let name = format!("{p}{}", w.project);
        nodes.push(linear(&name, "embeddings to the hidden size", seq, c.embed_width, c.hidden_size));
    }
}

/// RemBERT's head: dense to `output_embedding_size`, the activation, a LayerNorm, and a decoder
/// with its own weight and bias.
pub(super) fn projected_mlm(c: &BertConfig, seq: u64, out: u64) -> Vec<Node> {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let name = "cls.predictions.decoder";
    vec![
        linear("cls.predictions.dense", &format!("dense to {out}, then {}", c.hidden_act), seq, h, out),
        layer_norm("cls.predictions.LayerNorm", "norm", &[seq, out], out),
        Node::new(name, Op::Linear, "logits over the vocabulary", &[seq, v])
            .with([Tensor::new(format!("{name}.weight"), &[v, out]), Tensor::new(format!("{name}.bias"), &[v])]),
    ]
}
