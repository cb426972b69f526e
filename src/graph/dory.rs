//! Dory's graph, named as transformers' `DoryModel` under `model.`: `embed_tokens`, per layer
//! attention (`q_proj`, `k_proj`, `v_proj`, `gate_proj`, `o_proj`, the scales `sqk` and
//! `s_gate`), the MLP (`gate_proj`, `up_proj`, `down_proj`, the scales `suv_gate` and
//! `suv_up`) and the step sizes `lambda_1` and `lambda_2`; every norm an L2 normalisation
//! without parameters; `lm_head` with its `logit_scale`.

use super::blocks::{gated_mlp, linear};
use super::doge_dory::{Tail, frame, scale};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::dory::DoryConfig;

architecture!(
    DoryConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(self))
    }
    fn training_notes(&self) -> Vec<String> {
        vec![format!(
            "Not modelled: the looped layers' further runs. Layers {} to {} run {} times each, and the training figures count their activations once, so they are a floor.",
            self.recurrent.0,
            self.recurrent.0 + self.recurrent.1,
            self.loops
        )]
    }
);

fn no_candidates(_: &DoryConfig) -> Vec<Candidate> {
    vec![]
}

/// Each layer's cache, by window; with "per_loop" each further loop caches the looped layers
/// again (`DoryModel.forward` appends copies of their cache layers).
fn kv_layout(c: &DoryConfig) -> KvLayout {
    let (start, looped) = (c.recurrent.0 as usize, c.recurrent.1 as usize);
    let extra = if c.cache_per_loop { c.loops - 1 } else { 0 };
    let vpt = 2 * c.num_kv_heads * c.head_dim;
    let mut groups: Vec<KvGroup> = vec![];
    for (i, s) in c.sliding.iter().enumerate() {
        let copies = if (start..start + looped).contains(&i) { 1 + extra } else { 1 };
        let w = s.then_some(c.sliding_window);
        match groups.iter_mut().find(|g| g.window == w) {
            Some(g) => g.layers += copies,
            None => {
                let kind = if *s { "sliding" } else { "full" };
                let what = format!(
                    "{kind} layers: 2 x {} KV heads x {} head_dim; the looped layers once per loop where the cache is per_loop",
                    c.num_kv_heads, c.head_dim
                );
                groups.push(KvGroup { layers: copies, values_per_token: vpt, window: w, what });
            }
        }
    }
    KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None }
}

fn l2(name: &str, what: &str, seq: u64, width: u64) -> Node {
    Node::new(name, Op::LayerNorm, format!("L2 normalisation, no parameters, {what}"), &[seq, width])
}

pub fn build(c: &DoryConfig, seq: u64) -> Graph {
    let p = if c.head == DecoderHead::Model { "" } else { "model." };
    let l = format!("{p}layers.{{i}}");
    let (h, a, m) = (c.hidden_size, format!("{l}.self_attn"), format!("{l}.mlp"));
    let (q, kv, bias) = (c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim, c.attention_bias);
    let mut nodes = vec![l2(&format!("{l}.input_layernorm"), "before attention", seq, h)];
    nodes.push(linear(&format!("{a}.q_proj"), "query projection", seq, h, q, bias));
    nodes.push(linear(&format!("{a}.k_proj"), "key projection", seq, h, kv, bias));
    nodes.push(linear(&format!("{a}.v_proj"), "value projection", seq, h, kv, bias));
    nodes.push(scale(&format!("{a}.sqk"), "learned query/key scale", seq, q));
    nodes.push(Node::new(
        a.clone(),
        Op::Attention,
        format!(
            "{} query heads x {} over {} key/value heads, sliding or full by layer_types",
            c.num_heads, c.head_dim, c.num_kv_heads
        ),
        &[seq, q],
    ));
    nodes.push(
        linear(&format!("{a}.gate_proj"), "sigmoid output gate", seq, h, q, false)
            .with([Tensor::new(format!("{a}.s_gate"), &[q])]),
    );
    nodes.push(linear(&format!("{a}.o_proj"), "attention output projection", seq, q, h, bias));
    nodes.push(l2(&format!("{l}.post_attention_layernorm"), "after attention", seq, h));
    nodes.push(scale(&format!("{l}.lambda_1"), "learned step toward the attention output", seq, h));
    nodes.push(l2(&format!("{l}.pre_feedforward_layernorm"), "before the MLP", seq, h));
    let f = c.intermediate_size;
    let mut mlp = gated_mlp(&m, seq, h, f, &c.hidden_act, c.mlp_bias, false);
    if let Some(up) = mlp.get_mut(1) {
        up.params.push(Tensor::new(format!("{m}.suv_gate"), &[f]));
        up.params.push(Tensor::new(format!("{m}.suv_up"), &[f]));
    }
    nodes.extend(mlp);
    nodes.push(l2(&format!("{l}.post_feedforward_layernorm"), "after the MLP", seq, h));
    nodes.push(scale(&format!("{l}.lambda_2"), "learned step toward the MLP output", seq, h));
    let norm = |n: &str| l2(n, "final", seq, h);
    let layers = c.sliding.len() as u64;
    let t = Tail { head: c.head, vocab: c.vocab_size, hidden: h, tie: c.tie_word_embeddings, lm_note: "" };
    let mut g = frame(&t, layers, &norm, seq, nodes);
    if let Some(head) =
        g.sections.last_mut().and_then(|s| s.nodes.first_mut()).filter(|n| n.name == "lm_head")
    {
        head.params.push(Tensor::new("lm_head.logit_scale", &[c.vocab_size]));
    }
    g
}
