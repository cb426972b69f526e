//! xLSTM's graph, named as transformers' native `xLSTMModel` under `backbone.`: `embeddings`, per
//! block `norm_mlstm`, the mLSTM layer (`mlstm_layer.{q, k, v, ogate_preact, igate_preact,
//! fgate_preact, multihead_norm, out_proj}`, or `qkv_opreact` and `ifgate_preact` fused),
//! `norm_ffn` and the gated MLP (`ffn.{proj_up_gate, proj_up, proj_down}`), `out_norm`;
//! `xLSTMForCausalLM` adds an untied `lm_head`. Serving keeps each block's matrix memory per
//! sequence instead of a KV cache.

use super::blocks::{layer_norm, linear, rms_norm, token_embeddings};
use super::common::{RECURRENT_CONTEXT, alone, no_candidates, recurrent_only};
use super::kv::{KvLayout, RecurrentState};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::spec_recur::XlstmConfig;

architecture!(
    XlstmConfig,
    |_c| activations: vec![],
    prefixes: ["backbone."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        recurrent_only(state(self))
    }
    fn context_source(&self) -> String {
        RECURRENT_CONTEXT.into()
    }
    fn training_notes(&self) -> Vec<String> {
        vec![MLSTM_NOTE.into()]
    }
);

const MLSTM_NOTE: &str = "Not modelled: the tensors the mLSTM's chunkwise recurrence saves for its backward pass (per chunk, each head's matrix memory). The training figures count the projections, gates and norms around it, so they are a floor for xLSTM blocks.";

/// `xLSTMCache`: per block and sequence, each head's matrix memory C (qk_head_dim x
/// v_head_dim), its normaliser n (qk_head_dim) and its stabiliser m (1). No convolution.
pub fn state(c: &XlstmConfig) -> RecurrentState {
    let (heads, qk, v) = (c.num_heads, c.state_qk_head_dim, c.state_v_head_dim);
    RecurrentState {
        layers: c.num_blocks,
        conv_values: 0,
        ssm_values: heads * (qk * v + qk + 1),
        what: format!("mLSTM: {heads} heads x ({qk} x {v} memory + {qk} normaliser + 1 stabiliser)"),
    }
}

/// xLSTM's RMSNorm: a weight, and a bias where `use_bias` says.
fn norm(name: &str, detail: &str, seq: u64, width: u64, bias: bool) -> Node {
    if bias {
        layer_norm(name, detail, &[seq, width], width, true)
    } else {
        rms_norm(name, detail, &[seq, width], width)
    }
}

pub fn build(c: &XlstmConfig, seq: u64) -> Graph {
    let (h, heads, qk, v, f, bias) = (c.hidden_size, c.num_heads, c.qk_dim, c.v_dim, c.ffn_dim, c.use_bias);
    let mut sections = vec![token_embeddings("backbone.embeddings", seq, c.vocab_size, c.embedding_dim)];
    let b = "backbone.blocks.{i}";
    let (m, ff) = (format!("{b}.mlstm_layer"), format!("{b}.ffn"));
    let mut nodes = vec![norm(&format!("{b}.norm_mlstm"), "RMSNorm before the mLSTM", seq, h, bias)];
    if c.fused {
        nodes.push(linear(
            &format!("{m}.qkv_opreact"),
            "q, k, v and the output gate",
            seq,
            h,
            2 * qk + 2 * v,
            bias,
        ));
        nodes.push(linear(
            &format!("{m}.ifgate_preact"),
            "input and forget gates per head",
            seq,
            h,
            2 * heads,
            true,
        ));
    } else {
        nodes.push(linear(&format!("{m}.q"), "queries", seq, h, qk, bias));
        nodes.push(linear(&format!("{m}.k"), "keys", seq, h, qk, bias));
        nodes.push(linear(&format!("{m}.v"), "values", seq, h, v, bias));
        nodes.push(linear(&format!("{m}.ogate_preact"), "output gate", seq, h, v, bias));
        nodes.push(linear(&format!("{m}.igate_preact"), "input gate per head", seq, h, heads, true));
        nodes.push(linear(&format!("{m}.fgate_preact"), "forget gate per head", seq, h, heads, true));
    }
    nodes.push(Node::new(
        m.clone(),
        Op::Scan,
        format!("mLSTM recurrence: {heads} heads, a matrix memory each"),
        &[seq, v],
    ));
    // The per-head norm covers heads x (v / heads) channels, which may fall short of v.
    let normed = heads * (v / heads);
    let mut mh = Node::new(format!("{m}.multihead_norm"), Op::LayerNorm, "norm per head", &[seq, normed])
        .with([Tensor::new(format!("{m}.multihead_norm.weight"), &[normed])]);
    if bias {
        mh.params.push(Tensor::new(format!("{m}.multihead_norm.bias"), &[normed]));
    }
    nodes.push(mh);
    nodes.push(linear(&format!("{m}.out_proj"), "mLSTM output projection", seq, v, h, bias));
    nodes.push(Node::new(format!("{b}.mlstm_residual"), Op::Add, "residual add", &[seq, h]));
    nodes.push(norm(&format!("{b}.norm_ffn"), "RMSNorm before the MLP", seq, h, bias));
    if c.fused {
        nodes.push(linear(&format!("{ff}.proj_up_gate_z"), "gate and up", seq, h, 2 * f, bias));
    } else {
        nodes.push(linear(&format!("{ff}.proj_up_gate"), "gate", seq, h, f, bias));
        nodes.push(linear(&format!("{ff}.proj_up"), "up", seq, h, f, bias));
    }
    nodes.push(Node::new(format!("{ff}.act"), Op::Activation, "SiLU gate", &[seq, f]));
    nodes.push(linear(&format!("{ff}.proj_down"), "down", seq, f, h, bias));
    nodes.push(Node::new(format!("{b}.residual"), Op::Add, "residual add", &[seq, h]));
    sections.push(Section { name: b.into(), role: Role::Layers, repeat: c.num_blocks, nodes });
    sections.push(alone(rms_norm("backbone.out_norm", "final RMSNorm", &[seq, h], h), Role::Layers));
    if c.causal_lm {
        let head = linear("lm_head", "logits over the vocabulary", seq, h, c.vocab_size, false);
        sections.push(alone(head, Role::Head));
    }
    Graph { seq_len: seq, sections }
}
