//! LUKE's entity embeddings and masked-LM heads.

use super::super::super::encoder_prefix;
use super::{layer_norm, linear};
use crate::config::bert::BertConfig;
use crate::config::encoders::Entities;
use crate::graph::{Node, Op, Role, Section, Tensor, blocks, embedding, tied_if};

/// `entity_embeddings`: the entity table (narrower than the hidden size, then projected without
/// a bias), its own position and token-type tables, and a norm.
pub(super) fn entity_embeddings(c: &BertConfig, e: Entities, seq: u64) -> Section {
    let h = c.hidden_size;
    let name = format!("{}entity_embeddings", encoder_prefix(c));
    let mut nodes = vec![embedding(
        &format!("{name}.entity_embeddings"),
        format!("{} entities", e.vocab),
        seq,
        e.vocab,
        e.width,
    )];
    if e.width != h {
        let dense = format!("{name}.entity_embedding_dense");
        nodes.push(blocks::linear(&dense, "entity embeddings to the hidden size", seq, e.width, h, false));
    }
    let positions = c.max_position_embeddings;
    let types = c.type_vocab_size;
    nodes.extend([
        embedding(
            &format!("{name}.position_embeddings"),
            format!("{positions} positions, averaged per entity span"),
            seq,
            positions,
            h,
        ),
        embedding(&format!("{name}.token_type_embeddings"), format!("{types} token types"), seq, types, h),
        layer_norm(&format!("{name}.LayerNorm"), "sum of the entity embeddings, normalised", &[seq, h], h),
    ]);
    Section { name, role: Role::Embeddings, repeat: 1, nodes }
}

/// LukeForMaskedLM: `entity_predictions` (dense to the entity width, a norm, a decoder tied to
/// the entity table under `tie_word_embeddings`, its bias) and `lm_head`, whose decoder no key
/// ties to the word table (its bias is `lm_head.bias` under the tie).
pub(super) fn mlm(c: &BertConfig, seq: u64) -> (Section, Vec<Node>) {
    let (h, v, tie) = (c.hidden_size, c.vocab_size, c.tie_word_embeddings);
    let e = c.enc6.entities.unwrap_or(Entities { vocab: 0, width: h, aware: false });
    let (ev, ew) = (e.vocab, e.width);
    let table = format!("{}entity_embeddings.entity_embeddings.weight", c.desc.module);
    let entity = vec![
        linear(
            "entity_predictions.transform.dense",
            &format!("dense to {ew}, then {}", c.hidden_act),
            seq,
            h,
            ew,
        ),
        layer_norm("entity_predictions.transform.LayerNorm", "norm", &[seq, ew], ew),
        Node::new("entity_predictions.decoder", Op::Linear, "logits over the entities", &[seq, ev]).with([
            tied_if(tie, "entity_predictions.decoder.weight", &[ev, ew], table),
            Tensor::new("entity_predictions.bias", &[ev]),
        ]),
    ];
    let words = vec![
        linear("lm_head.dense", "dense, then GELU", seq, h, h),
        layer_norm("lm_head.layer_norm", "norm", &[seq, h], h),
        Node::new("lm_head.decoder", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
            Tensor::new("lm_head.decoder.weight", &[v, h]),
            tied_if(tie, "lm_head.decoder.bias", &[v], "lm_head.bias"),
            Tensor::new("lm_head.bias", &[v]),
        ]),
    ];
    (Section { name: "entity_predictions".into(), role: Role::Head, repeat: 1, nodes: entity }, words)
}
