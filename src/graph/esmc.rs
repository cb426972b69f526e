//! The ESM C graph, named as transformers' modules: `esmc.embed_tokens`,
//! `esmc.layers.{i}.self_attn.q_norm`, `esmc.norm`, `lm_head.decoder`.

use super::blocks::{gated_mlp, linear, rms_norm};
use super::{Candidate, Graph, Node, Op, Role, Section, embedding};
use crate::config::esmc::{EsmcConfig, EsmcHead};

architecture!(
    EsmcConfig,
    |c| activations: vec![("hidden_act", c.sizes.hidden_act.clone())],
    prefixes: ["esmc."],
    candidates: candidates,
    unscaled_residual_init: false
);

/// A LayerNorm with its bias (the layers' own) or without (q/k and the final norm, which
/// `EsmcLayerNorm(..., bias=False)` builds; a weight alone, as an RMSNorm holds).
fn norm(name: &str, detail: &str, seq: u64, h: u64, bias: bool) -> Node {
    if bias {
        super::blocks::layer_norm(name, detail, &[seq, h], h, true)
    } else {
        rms_norm(name, &format!("{detail} (LayerNorm without bias)"), &[seq, h], h)
    }
}

pub fn build(c: &EsmcConfig, seq: u64) -> Graph {
    let p = if c.head == EsmcHead::Model { "" } else { "esmc." };
    let (h, v, f) = (c.sizes.hidden_size, c.sizes.vocab_size, c.sizes.intermediate_size);
    let all = c.sizes.num_heads * c.head_dim;
    let nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{p}embed_tokens"), format!("{v} tokens"), seq, v, h),
    ];
    let mut sections =
        vec![Section { name: format!("{p}embed_tokens"), role: Role::Embeddings, repeat: 1, nodes }];
    let l = format!("{p}layers.{{i}}");
    let a = format!("{l}.self_attn");
    let (heads, hd, bias) = (c.sizes.num_heads, c.head_dim, c.attention_bias);
    let mut nodes = vec![
        norm(&format!("{l}.input_layernorm"), "norm before attention", seq, h, true),
        linear(&format!("{a}.q_proj"), "query projection", seq, h, all, bias),
        norm(&format!("{a}.q_norm"), "norm over the whole query", seq, h, false),
        linear(&format!("{a}.k_proj"), "key projection", seq, h, all, bias),
        norm(&format!("{a}.k_norm"), "norm over the whole key", seq, h, false),
        linear(&format!("{a}.v_proj"), "value projection", seq, h, all, bias),
        Node::new(&a, Op::Attention, format!("{heads} heads x {hd}, bidirectional, rotary"), &[seq, h]),
        linear(&format!("{a}.o_proj"), "attention output projection", seq, all, h, bias),
        norm(&format!("{l}.post_attention_layernorm"), "norm before the MLP", seq, h, true),
    ];
    nodes.extend(gated_mlp(&format!("{l}.mlp"), seq, h, f, &c.sizes.hidden_act, c.mlp_bias, false));
    sections.push(Section { name: l, role: Role::Layers, repeat: c.sizes.num_layers, nodes });
    let name = format!("{p}norm");
    let nodes = vec![norm(&name, "final norm after the stack", seq, h, false)];
    sections.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    let n = c.num_labels;
    let (name, nodes) = match c.head {
        EsmcHead::Model => ("", vec![]),
        EsmcHead::MaskedLm => (
            "lm_head",
            vec![
                linear("lm_head.dense", "dense, then GELU", seq, h, h, true),
                norm("lm_head.layer_norm", "norm", seq, h, true),
                linear("lm_head.decoder", "logits over the vocabulary (not tied)", seq, h, v, true),
            ],
        ),
        EsmcHead::SequenceClassification => (
            "classifier",
            vec![
                linear("classifier.dense", "first token's state, dense then tanh", 1, h, h, true),
                linear("classifier.out_proj", "labels", 1, h, n, true),
            ],
        ),
        EsmcHead::TokenClassification { bias } => {
            ("score", vec![linear("score", "a label per token", seq, h, n, bias)])
        }
    };
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

fn candidates(_: &EsmcConfig) -> Vec<Candidate> {
    vec![]
}
