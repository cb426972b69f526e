//! The BLOOM graph, named as transformers' `BloomModel` (`word_embeddings`,
//! `word_embeddings_layernorm`, `h.{i}.self_attention.query_key_value`, `ln_f`) under
//! `transformer.` in head classes. Positions are ALiBi biases: no table, no parameters.

use super::blocks::{ln_f_and_head, token_embeddings};
use super::common::tied_lm_head_stored_twice;
use super::decoder::{base_prefix, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section};
use crate::config::bloom::BloomConfig;

architecture!(
    BloomConfig,
    |_c| activations: vec![],
    prefixes: ["transformer."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true
);

pub fn build(c: &BloomConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "transformer.");
    let h = c.hidden_size;
    let word_embeddings = format!("{p}word_embeddings.weight");
    let mut embeddings = token_embeddings(&format!("{p}word_embeddings"), seq, c.vocab_size, h);
    embeddings.nodes.push(layer_norm(
        &format!("{p}word_embeddings_layernorm"),
        "embedding norm",
        seq,
        h,
        true,
    ));
    let mut sections = vec![embeddings];
    let l = format!("{p}h.{{i}}");
    let nodes = vec![
        layer_norm(&format!("{l}.input_layernorm"), "pre-attention norm", seq, h, true),
        linear(&format!("{l}.self_attention.query_key_value"), "fused q, k, v", seq, h, 3 * h, true),
        Node::new(
            format!("{l}.self_attention"),
            Op::Attention,
            format!("{} heads x {}, causal, ALiBi position biases", c.n_head, h / c.n_head),
            &[seq, h],
        ),
        linear(&format!("{l}.self_attention.dense"), "attention output projection", seq, h, h, true),
        layer_norm(&format!("{l}.post_attention_layernorm"), "pre-MLP norm", seq, h, true),
        linear(&format!("{l}.mlp.dense_h_to_4h"), "up projection, then GELU", seq, h, 4 * h, true),
        linear(&format!("{l}.mlp.dense_4h_to_h"), "down projection", seq, 4 * h, h, true),
    ];
    sections.push(Section { name: l, role: Role::Layers, repeat: c.n_layer, nodes });
    let tied = c.tie_word_embeddings.then_some(word_embeddings.as_str());
    sections.extend(ln_f_and_head(p, c.head, tied, seq, h, c.vocab_size));
    Graph { seq_len: seq, sections }
}

pub fn checkpoint_candidates(c: &BloomConfig) -> Vec<Candidate> {
    let tied = "lm_head is tied to transformer.word_embeddings";
    tied_lm_head_stored_twice(c.head, c.tie_word_embeddings, c.vocab_size, c.hidden_size, tied)
}
