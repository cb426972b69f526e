//! The GPT-2 graph, named as transformers' `GPT2Model` (`wte`, `h.{i}.attn.c_attn`, `ln_f`) under
//! `transformer.` in head classes. GPT-2's projections are `Conv1D`, whose weight is stored
//! `[in, out]`, the transpose of an `nn.Linear`'s.

use super::blocks::conv1d;
use super::blocks::{ln_f_and_head, wte_wpe_section};
use super::common::{gpt_cross_attention, tied_lm_head_stored_twice};
use super::decoder::{base_prefix, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section};
use crate::config::gpt2::Gpt2Config;

architecture!(
    Gpt2Config,
    |c| activations: vec![("activation_function", c.activation.clone())],
    prefixes: ["transformer."],
    candidates: checkpoint_candidates,
    // GPT2PreTrainedModel scales c_proj's init by 1/sqrt(2 x n_layer).
    unscaled_residual_init: false
);

pub fn build(c: &Gpt2Config, seq: u64) -> Graph {
    let p = base_prefix(c.head, "transformer.");
    let e = c.n_embd;
    let wte = format!("{p}wte.weight");
    let mut sections = vec![wte_wpe_section(p, c.vocab_size, c.n_positions, e, seq)];
    let l = format!("{p}h.{{i}}");
    let hd = e / c.n_head;
    let mut nodes = vec![
        layer_norm(&format!("{l}.ln_1"), "pre-attention norm", seq, e, true),
        conv1d(&format!("{l}.attn.c_attn"), "fused q, k, v", seq, e, 3 * e),
        Node::new(
            format!("{l}.attn"),
            Op::Attention,
            format!("{} heads x {hd}, causal, learned absolute positions", c.n_head),
            &[seq, e],
        ),
        conv1d(&format!("{l}.attn.c_proj"), "attention output projection", seq, e, e),
        Node::new(format!("{l}.attn_residual"), Op::Add, "residual add", &[seq, e]),
    ];
    if c.add_cross_attention {
        nodes.extend(gpt_cross_attention(&l, seq, e, |n, d, i, o| conv1d(n, d, seq, i, o)));
    }
    nodes.extend([
        layer_norm(&format!("{l}.ln_2"), "pre-MLP norm", seq, e, true),
        conv1d(&format!("{l}.mlp.c_fc"), &format!("up projection, then {}", c.activation), seq, e, c.inner),
        conv1d(&format!("{l}.mlp.c_proj"), "down projection", seq, c.inner, e),
        Node::new(format!("{l}.mlp_residual"), Op::Add, "residual add", &[seq, e]),
    ]);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.n_layer, nodes });
    let tied = c.tie_word_embeddings.then_some(wte.as_str());
    sections.extend(ln_f_and_head(p, c.head, tied, seq, e, c.vocab_size));
    // An identity summary (summary_use_proj false) leaves the multiple-choice head without parameters.
    if let Some(out) = c.multiple_choice.and_then(|mc| mc.summary_out) {
        sections.push(Section {
            name: "multiple_choice_head".into(),
            role: Role::Head,
            repeat: 1,
            nodes: vec![linear(
                "multiple_choice_head.summary",
                "a score per choice, at its cls_index token",
                1,
                e,
                out,
                true,
            )],
        });
    }
    Graph { seq_len: seq, sections }
}

pub fn checkpoint_candidates(c: &Gpt2Config) -> Vec<Candidate> {
    let n = c.n_positions;
    let mut masks: Vec<(String, Vec<u64>)> =
        (0..c.n_layer).map(|i| (format!("h.{i}.attn.bias"), vec![1, 1, n, n])).collect();
    if c.add_cross_attention {
        masks.extend((0..c.n_layer).map(|i| (format!("h.{i}.crossattention.bias"), vec![1, 1, n, n])));
    }
    let mut out = vec![Candidate::extra(
        "causal-mask buffers",
        masks,
        "each attention layer's lower-triangular mask buffer `attn.bias` [1, 1, n_positions, n_positions], not a parameter; the original GPT-2 checkpoints store it (with the scalar `attn.masked_bias`, which has no dimension and is not counted)",
    )];
    let tied = "lm_head is tied to transformer.wte";
    out.extend(tied_lm_head_stored_twice(c.head, c.tie_word_embeddings, c.vocab_size, c.n_embd, tied));
    out
}
