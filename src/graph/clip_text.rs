//! CLIP's and TIPSv2's text transformers, named as transformers' modules:
//! `embeddings.token_embedding`, `encoder.layers.{i}.self_attn.q_proj`, `final_layer_norm`, and
//! under `text_model.` with a `text_projection` for CLIPTextModelWithProjection.

use super::bert::{layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section, embedding};
use crate::config::clip_text::{ClipTextConfig, ClipTextHead};

architecture!(
    ClipTextConfig,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: ["text_model."],
    candidates: candidates,
    unscaled_residual_init: false
);

pub fn build(c: &ClipTextConfig, seq: u64) -> Graph {
    let p = if c.head == ClipTextHead::WithProjection { "text_model." } else { "" };
    let (h, v, f) = (c.sizes.hidden_size, c.sizes.vocab_size, c.sizes.intermediate_size);
    let e = format!("{p}embeddings");
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{e}.token_embedding"), format!("{v} tokens"), seq, v, h),
    ];
    if c.learned_positions {
        let rows = c.sizes.max_position_embeddings;
        nodes.push(embedding(
            &format!("{e}.position_embedding"),
            format!("{rows} positions, learned"),
            seq,
            rows,
            h,
        ));
    }
    let mut sections = vec![Section { name: e, role: Role::Embeddings, repeat: 1, nodes }];
    let l = format!("{p}encoder.layers.{{i}}");
    let a = format!("{l}.self_attn");
    let (heads, hd) = (c.sizes.num_heads, h / c.sizes.num_heads);
    let mask = if c.causal { "causal" } else { "bidirectional" };
    let nodes = vec![
        layer_norm(&format!("{l}.layer_norm1"), "norm before attention", &[seq, h], h),
        linear(&format!("{a}.q_proj"), "query projection", seq, h, h),
        linear(&format!("{a}.k_proj"), "key projection", seq, h, h),
        linear(&format!("{a}.v_proj"), "value projection", seq, h, h),
        Node::new(&a, Op::Attention, format!("{heads} heads x {hd}, {mask}"), &[seq, h]),
        linear(&format!("{a}.out_proj"), "attention output projection", seq, h, h),
        layer_norm(&format!("{l}.layer_norm2"), "residual add, then norm before the MLP", &[seq, h], h),
        linear(&format!("{l}.mlp.fc1"), &format!("up projection, then {}", c.sizes.hidden_act), seq, h, f),
        linear(&format!("{l}.mlp.fc2"), "down projection", seq, f, h),
    ];
    sections.push(Section { name: l, role: Role::Layers, repeat: c.sizes.num_layers, nodes });
    let name = format!("{p}final_layer_norm");
    let nodes = vec![layer_norm(&name, "final norm after the stack", &[seq, h], h)];
    sections.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    if let Some(out) = c.projection_dim {
        let nodes = vec![super::blocks::linear(
            "text_projection",
            "pooled state to the shared space, no bias",
            1,
            h,
            out,
            false,
        )];
        sections.push(Section { name: "text_projection".into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

fn candidates(c: &ClipTextConfig) -> Vec<Candidate> {
    let p = if c.head == ClipTextHead::WithProjection { "text_model." } else { "" };
    match c.learned_positions {
        true => vec![Candidate::extra(
            "position_ids buffer",
            vec![(format!("{p}embeddings.position_ids"), vec![1, c.sizes.max_position_embeddings])],
            "an int64 buffer of position indices that older transformers saved with the weights; not a parameter",
        )],
        false => vec![],
    }
}
