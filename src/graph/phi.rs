//! The Phi graph, named as transformers' `PhiModel` (`embed_tokens`, `layers.{i}.self_attn.q_proj`,
//! `final_layernorm`) under `model.` in head classes. Each block runs attention and the MLP in
//! parallel on one LayerNorm's output.

use super::blocks::token_embeddings;
use super::common::tied_lm_head_stored_twice;
use super::decoder::{HeadNames, base_prefix, head_section, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section};
use crate::config::phi::PhiConfig;

architecture!(
    PhiConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true
);

pub fn build(c: &PhiConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "model.");
    let h = c.hidden_size;
    let embed_tokens = format!("{p}embed_tokens.weight");
    let mut sections = vec![token_embeddings(&format!("{p}embed_tokens"), seq, c.vocab_size, h)];
    let l = format!("{p}layers.{{i}}");
    let q = c.num_heads * c.head_dim;
    let kv = c.num_kv_heads * c.head_dim;
    let mut nodes = vec![
        layer_norm(&format!("{l}.input_layernorm"), "the one norm attention and MLP both read", seq, h, true),
        linear(&format!("{l}.self_attn.q_proj"), "query projection", seq, h, q, true),
        linear(&format!("{l}.self_attn.k_proj"), "key projection", seq, h, kv, true),
        linear(&format!("{l}.self_attn.v_proj"), "value projection", seq, h, kv, true),
    ];
    if c.qk_layernorm {
        // PhiAttention sizes these by hidden_size / num_attention_heads, not by head_dim.
        let w = h / c.num_heads;
        nodes.push(layer_norm(&format!("{l}.self_attn.q_layernorm"), "per-head query norm", seq, w, true));
        nodes.push(layer_norm(&format!("{l}.self_attn.k_layernorm"), "per-head key norm", seq, w, true));
    }
    nodes.extend([
        Node::new(
            format!("{l}.self_attn"),
            Op::Attention,
            format!(
                "{} heads x {} over {} key/value heads, causal, rotary on the first {} dimensions",
                c.num_heads,
                c.head_dim,
                c.num_kv_heads,
                c.rotary_ndims()
            ),
            &[seq, q],
        ),
        linear(&format!("{l}.self_attn.dense"), "attention output projection", seq, q, h, true),
        linear(
            &format!("{l}.mlp.fc1"),
            &format!("up projection, then {}", c.hidden_act),
            seq,
            h,
            c.intermediate_size,
            true,
        ),
        linear(&format!("{l}.mlp.fc2"), "down projection", seq, c.intermediate_size, h, true),
        Node::new(format!("{l}.residual"), Op::Add, "x + attention(ln(x)) + mlp(ln(x))", &[seq, h]),
    ]);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });
    sections.push(Section {
        name: format!("{p}final_layernorm"),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![layer_norm(&format!("{p}final_layernorm"), "final norm", seq, h, true)],
    });
    let names = HeadNames {
        lm: "lm_head",
        lm_bias: true,
        lm_note: String::new(),
        score_rows: None,
        token: "score",
        tied_to: c.tie_word_embeddings.then_some(&embed_tokens),
    };
    sections.extend(head_section(c.head, &names, seq, h, c.vocab_size));
    Graph { seq_len: seq, sections }
}

pub fn checkpoint_candidates(c: &PhiConfig) -> Vec<Candidate> {
    let tied = "lm_head.weight is tied to model.embed_tokens";
    tied_lm_head_stored_twice(c.head, c.tie_word_embeddings, c.vocab_size, c.hidden_size, tied)
}
