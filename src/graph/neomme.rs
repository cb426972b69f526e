//! The NeoMME graph, named as transformers' modules: `model.embed_tokens.word_embeddings`,
//! `model.patch_embeddings`, `model.value_embeddings`, `model.layers.{i}.self_attn`,
//! `unembedding_projection`, `lm_head`, `multi_vector_head.proj`. Its norms hold no weight.

use super::blocks::{embedding, layer_norm, linear};
use super::common::no_candidates;
use super::{Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::neomme::{NeoMmeConfig, NeoMmeHead};

architecture!(
    NeoMmeConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false
);

/// An RMSNorm without a scale (`with_scale=False`), as every NeoMME norm is.
fn bare(name: &str, what: &str, shape: &[u64]) -> Node {
    Node::new(name, Op::LayerNorm, format!("RMSNorm without weight, {what}"), shape)
}

pub fn build(c: &NeoMmeConfig, seq: u64) -> Graph {
    let p = if c.head == NeoMmeHead::Model { "" } else { "model." };
    let (h, v, r, f) = (c.hidden_size, c.vocab_size, c.embedding_rank, c.intermediate_size);
    let (heads, kv, hd) = (c.num_heads, c.num_kv_heads, c.head_dim);
    let e = format!("{p}embed_tokens");
    let word = format!("{e}.word_embeddings");
    let projection = format!("{e}.embedding_projection");
    let nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&word, format!("{v} tokens at rank {r}"), seq, v, r),
        linear(&projection, "factorized embedding, rank to hidden", seq, r, h, false),
        // Added to the values of the first and last full-attention layers.
        embedding(&format!("{p}value_embeddings"), "value embeddings per token", seq, v, kv * hd),
        bare(&format!("{p}embedding_norm"), "on the embeddings", &[seq, h]),
    ];
    let mut sections = vec![Section { name: e, role: Role::Embeddings, repeat: 1, nodes }];
    // The patch stem maps each flattened image patch (3 x patch_size^2) into the hidden space.
    let (s, pd) = (format!("{p}patch_embeddings"), c.patch_dim());
    let nodes = vec![
        layer_norm(&format!("{s}.norm"), "LayerNorm over a flattened patch", &[seq, pd], pd, true),
        linear(&format!("{s}.up_proj"), "patch to twice the hidden, then GELU", seq, pd, 2 * h, false),
        linear(&format!("{s}.down_proj"), "to the hidden width", seq, 2 * h, h, true),
    ];
    sections.push(Section { name: s, role: Role::Vision, repeat: 1, nodes });

    let l = format!("{p}layers.{{i}}");
    let a = format!("{l}.self_attn");
    let (qb, all) = (c.attention_bias, heads * hd);
    let windows = c.sliding.iter().filter(|s| **s).count();
    let what =
        format!("{heads} heads over {kv} key/value heads x {hd}, bidirectional, {windows} layers windowed");
    let mut nodes = vec![
        Node::new(format!("{l}.lambdas"), Op::Add, "mix of the state and the first layer's input", &[seq, h])
            .with([Tensor::new(format!("{l}.lambdas"), &[2])]),
        bare(&format!("{l}.input_layernorm"), "before attention", &[seq, h]),
        linear(&format!("{a}.q_proj"), "query projection", seq, h, all, qb),
        linear(&format!("{a}.k_proj"), "key projection", seq, h, kv * hd, qb),
        linear(&format!("{a}.v_proj"), "value projection", seq, h, kv * hd, qb),
        bare(&format!("{a}.q_norm"), "per query head", &[seq, all]),
        bare(&format!("{a}.k_norm"), "per key head", &[seq, kv * hd]),
        Node::new(&a, Op::Attention, what, &[seq, all]),
        Node::new(
            format!("{a}.exclusive_self_attention"),
            Op::Add,
            "removes each head's own value",
            &[seq, all],
        )
        .with([Tensor::new(format!("{a}.exclusive_self_attention.alpha"), &[heads])]),
    ];
    let o = format!("{a}.output_projection");
    nodes.push(linear(&format!("{o}.gate_proj"), "sigmoid output gate", seq, h, all, false));
    nodes.push(linear(&format!("{o}.o_proj"), "attention output projection", seq, all, h, qb));
    nodes.push(bare(&format!("{l}.post_attention_layernorm"), "before the MLP", &[seq, h]));
    nodes.push(linear(&format!("{l}.mlp.up_proj"), "MLP up, then ReLU²", seq, h, f, c.mlp_bias));
    nodes.push(linear(&format!("{l}.mlp.down_proj"), "MLP down", seq, f, h, c.mlp_bias));
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });
    let name = format!("{p}final_norm");
    let nodes = vec![bare(&name, "after the stack", &[seq, h])];
    sections.push(Section { name, role: Role::Layers, repeat: 1, nodes });

    let tie = c.tie_word_embeddings;
    let (name, nodes) = match c.head {
        NeoMmeHead::Model => return Graph { seq_len: seq, sections },
        NeoMmeHead::MaskedLm => (
            "lm_head",
            vec![
                Node::new("unembedding_projection", Op::Linear, "hidden back to the rank", &[seq, r]).with([
                    tied_if(tie, "unembedding_projection.weight", &[h, r], format!("{projection}.weight")),
                ]),
                Node::new("lm_head", Op::Linear, "logits over the vocabulary", &[seq, v]).with([tied_if(
                    tie,
                    "lm_head.weight",
                    &[v, r],
                    format!("{word}.weight"),
                )]),
            ],
        ),
        NeoMmeHead::Retrieval => (
            "multi_vector_head",
            vec![linear("multi_vector_head.proj", "a vector per token", seq, h, c.embedding_dim, false)],
        ),
    };
    sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    Graph { seq_len: seq, sections }
}
