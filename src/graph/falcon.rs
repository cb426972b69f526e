//! The Falcon graph, named as transformers' `FalconModel` (`word_embeddings`,
//! `h.{i}.self_attention.query_key_value`, `ln_f`) under `transformer.` in head classes.

use super::blocks::{ln_f_and_head, token_embeddings};
use super::common::tied_lm_head_stored_twice;
use super::decoder::{base_prefix, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section};
use crate::config::falcon::{BlockNorms, FalconConfig, QkvLayout};

architecture!(
    FalconConfig,
    |c| activations: vec![("activation", c.activation.clone())],
    prefixes: ["transformer."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true
);

pub fn build(c: &FalconConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "transformer.");
    let h = c.hidden_size;
    let word_embeddings = format!("{p}word_embeddings.weight");
    let mut sections = vec![token_embeddings(&format!("{p}word_embeddings"), seq, c.vocab_size, h)];
    let l = format!("{p}h.{{i}}");
    let norm = |name: &str, detail: &str| layer_norm(&format!("{l}.{name}"), detail, seq, h, true);
    let mut nodes = match c.norms {
        BlockNorms::Sequential | BlockNorms::ParallelShared => {
            vec![norm("input_layernorm", "pre-attention norm")]
        }
        BlockNorms::ParallelSeparate => {
            vec![norm("ln_attn", "pre-attention norm"), norm("ln_mlp", "pre-MLP norm, beside attention")]
        }
    };
    let layout = match c.qkv {
        QkvLayout::Grouped => format!("{} query heads over {} key/value heads", c.num_heads, c.kv_heads),
        QkvLayout::MultiQuery => format!("{} query heads sharing one key/value head", c.num_heads),
        QkvLayout::MultiHead => format!("{} heads", c.num_heads),
    };
    let positions = if c.alibi { "ALiBi position biases" } else { "rotary positions" };
    nodes.extend([
        linear(
            &format!("{l}.self_attention.query_key_value"),
            "fused q, k, v",
            seq,
            h,
            c.qkv_width(),
            c.bias,
        ),
        Node::new(
            format!("{l}.self_attention"),
            Op::Attention,
            format!("{layout} x {}, causal, {positions}", c.head_dim()),
            &[seq, h],
        ),
        linear(&format!("{l}.self_attention.dense"), "attention output projection", seq, h, h, c.bias),
    ]);
    if c.norms == BlockNorms::Sequential {
        nodes.push(norm("post_attention_layernorm", "pre-MLP norm"));
    }
    let f = c.ffn_hidden_size;
    nodes.extend([
        linear(
            &format!("{l}.mlp.dense_h_to_4h"),
            &format!("up projection, then {}", c.activation),
            seq,
            h,
            f,
            c.bias,
        ),
        linear(&format!("{l}.mlp.dense_4h_to_h"), "down projection", seq, f, h, c.bias),
    ]);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });
    let tied = c.tie_word_embeddings.then_some(word_embeddings.as_str());
    sections.extend(ln_f_and_head(p, c.head, tied, seq, h, c.vocab_size));
    Graph { seq_len: seq, sections }
}

pub fn checkpoint_candidates(c: &FalconConfig) -> Vec<Candidate> {
    let tied = "lm_head is tied to transformer.word_embeddings";
    tied_lm_head_stored_twice(c.head, c.tie_word_embeddings, c.vocab_size, c.hidden_size, tied)
}
