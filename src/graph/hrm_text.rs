//! HRM-Text's graph, named as `HrmTextForCausalLM`'s modules: `model.embed_tokens`, the frozen
//! `model.z_L_init` state, `model.L_module.layers.{i}` and `model.H_module.layers.{i}` (each
//! section repeats once per layer it holds, not per application, as ALBERT's shared layers do),
//! and `lm_head`. Its RMSNorms have no weight; each attention has a sigmoid `gate_proj`.

use super::common::no_candidates;
use super::decoder::{embedding, linear};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::Dims;
use crate::config::hrm_text::HrmTextConfig;

fn stack(c: &HrmTextConfig, s: &str, runs: &str, seq: u64) -> Vec<Section> {
    let (h, inner, ff) = (c.hidden_size, c.num_heads.saturating_mul(c.head_dim), c.intermediate_size);
    let l = format!("{s}.layers.{{i}}");
    let (a, m, ab, mb) = (format!("{l}.self_attn"), format!("{l}.mlp"), c.attention_bias, c.mlp_bias);
    let layer = vec![
        Node::new(format!("{l}.input_layernorm"), Op::LayerNorm, "RMS norm without weight", &[seq, h]),
        linear(&format!("{a}.q_proj"), "query projection", seq, h, inner, ab),
        linear(&format!("{a}.k_proj"), "key projection", seq, h, inner, ab),
        linear(&format!("{a}.v_proj"), "value projection", seq, h, inner, ab),
        Node::new(
            &a,
            Op::Attention,
            format!("{} heads x {}, {runs}", c.num_heads, c.head_dim),
            &[seq, inner],
        ),
        linear(&format!("{a}.gate_proj"), "sigmoid output gate", seq, h, inner, ab),
        linear(&format!("{a}.o_proj"), "attention output projection", seq, inner, h, ab),
        Node::new(
            format!("{l}.post_attention_layernorm"),
            Op::LayerNorm,
            "RMS norm without weight",
            &[seq, h],
        ),
        linear(&format!("{m}.gate_proj"), &format!("gate projection, then {}", c.hidden_act), seq, h, ff, mb),
        linear(&format!("{m}.up_proj"), "up projection", seq, h, ff, mb),
        linear(&format!("{m}.down_proj"), "down projection", seq, ff, h, mb),
    ];
    let norm = format!("{s}.final_norm");
    vec![
        Section { name: l, role: Role::Layers, repeat: c.per_stack, nodes: layer },
        Section {
            name: norm.clone(),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![Node::new(norm, Op::LayerNorm, "RMS norm without weight", &[seq, h])],
        },
    ]
}

pub fn build(c: &HrmTextConfig, seq: u64) -> Graph {
    let p = if c.causal_lm { "model." } else { "" };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let z = format!("{p}z_L_init");
    let embeddings = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{p}embed_tokens"), format!("{v} tokens"), seq, v, h),
        Node::new(&z, Op::Embedding, "the low-level stack's initial state (frozen, counted)", &[h])
            .with([Tensor::new(z.clone(), &[h])]),
    ];
    let runs = format!("one of {} applications (layers shared across cycles)", c.slots);
    let mut sections = vec![Section {
        name: format!("{p}embed_tokens"),
        role: Role::Embeddings,
        repeat: 1,
        nodes: embeddings,
    }];
    sections.extend(stack(c, &format!("{p}L_module"), &runs, seq));
    sections.extend(stack(c, &format!("{p}H_module"), &runs, seq));
    if c.causal_lm {
        let mut w = Tensor::new("lm_head.weight", &[v, h]);
        w.tied_to = c.tie_word_embeddings.then(|| format!("{p}embed_tokens.weight"));
        let node = Node::new("lm_head", Op::Linear, "logits over the vocabulary", &[seq, v]).with([w]);
        sections.push(Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes: vec![node] });
    }
    Graph { seq_len: seq, sections }
}

architecture!(
    HrmTextConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn training_notes(&self) -> Vec<String> {
        vec![format!(
            "Each stack's {} layers run {} times in all (H_cycles x (L_cycles + 1) over the two stacks): the activations and FLOPs here count each layer once, as its parameters, so they understate a full forward pass.",
            self.per_stack,
            self.slots / self.per_stack.max(1)
        )]
    }
);

impl HrmTextConfig {
    fn dims(&self) -> Dims {
        // One KV-cache slot per layer application.
        let d = Dims::mha(
            self.hidden_size,
            self.slots,
            self.num_heads,
            self.intermediate_size,
            self.vocab_size,
            self.max_position_embeddings,
        );
        Dims {
            head_dim: self.head_dim,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: 1e-6,
            ..d
        }
    }
}
