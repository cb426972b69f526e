//! The Zamba2 graph, named as transformers' `Zamba2Model` (`graph/zamba.rs` assembles it): a
//! Mamba-2 layer at every position (`graph/mamba2.rs`); the hybrid layers cycle through
//! `num_mem_blocks` shared blocks (`shared_transformer`), use `j` running block `j %
//! num_mem_blocks`. Each block stores one adapter per use it serves (`gate_up_proj_adapter_list.{j}`,
//! and q, k, v adapters under `use_shared_attention_adapter`), identities at the other slots; a
//! use runs its own adapter, the others only sit in the block.

use super::blocks::linear;
use super::kv::KvLayout;
use super::zamba::{Blocks, assemble, kv_groups, shared_attention};
use super::{Candidate, Graph, Node, Op};
use crate::config::zamba2::Zamba2Config;

architecture!(
    Zamba2Config,
    |c| activations: vec![("hidden_act", c.core.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let recurrent = Some(super::mamba2::state(self.core.hybrid.len() as u64, &self.mamba));
        Some(KvLayout { groups: kv_groups(&self.core), cross: None, cross_fixed_len: None, recurrent })
    }
    fn training_notes(&self) -> Vec<String> {
        vec![super::ssm::SCAN_NOTE.into()]
    }
);

fn no_candidates(_: &Zamba2Config) -> Vec<Candidate> {
    vec![]
}

/// The adapters a block stores for the uses `slots` under `list`, each `inp` -> rank -> `out`:
/// the one use `j` runs as two linears, the others' as stored weights only.
fn adapters(
    list: &str,
    what: &str,
    seq: u64,
    (inp, rank, out): (u64, u64, u64),
    j: usize,
    slots: &[usize],
) -> Vec<Node> {
    let mut nodes = vec![];
    let mut stored = Node::new(
        format!("{list}.stored"),
        Op::Add,
        format!("{what} adapters of this block's other uses, run at their layers"),
        &[seq, out],
    );
    for &i in slots {
        let a = format!("{list}.{i}");
        if i == j {
            nodes.push(linear(
                &format!("{a}.0"),
                &format!("{what} adapter, down to rank {rank}"),
                seq,
                inp,
                rank,
                false,
            ));
            nodes.push(linear(&format!("{a}.1"), &format!("{what} adapter, back up"), seq, rank, out, false));
        } else {
            stored.params.extend(
                [
                    linear(&format!("{a}.0"), "", seq, inp, rank, false),
                    linear(&format!("{a}.1"), "", seq, rank, out, false),
                ]
                .into_iter()
                .flat_map(|n| n.params),
            );
        }
    }
    if !stored.params.is_empty() {
        nodes.push(stored);
    }
    nodes
}

/// Use `j`'s block under `s`: the RMSNorm over the hidden state and the embeddings, attention
/// from that width back to hidden (with its q, k, v adapters), an RMSNorm, the MLP with
/// `gate_up_proj` fused and its adapters.
fn shared_block(c: &Zamba2Config, s: &str, j: usize, seq: u64) -> Vec<Node> {
    let core = &c.core;
    let (h, a, f, r) = (core.hidden_size, core.attention_hidden_size, core.intermediate_size, c.adapter_rank);
    let n = c.mem_blocks as usize;
    // Block `j % n` holds an adapter for every use it serves.
    let slots: Vec<usize> = (0..core.uses() as usize).filter(|i| i % n == j % n).collect();
    let at = format!("{s}.self_attn");
    let mut nodes = shared_attention(core, s, seq, "causal");
    if c.attention_adapters {
        let at_attention = nodes.iter().position(|x| x.op == Op::Attention).unwrap_or(0);
        let mut extra = vec![];
        for (x, what) in [("q", "query"), ("k", "key"), ("v", "value")] {
            extra.extend(adapters(&format!("{at}.linear_{x}_adapter_list"), what, seq, (a, r, a), j, &slots));
        }
        nodes.splice(at_attention..at_attention, extra);
    }
    let m = format!("{s}.feed_forward");
    nodes.push(linear(&format!("{m}.gate_up_proj"), "fused gate and up projection", seq, h, 2 * f, c.bias));
    nodes.extend(adapters(
        &format!("{m}.gate_up_proj_adapter_list"),
        "gate and up",
        seq,
        (h, r, 2 * f),
        j,
        &slots,
    ));
    let act = format!("{}(gate) * up", core.hidden_act);
    nodes.push(Node::new(format!("{m}.act_fn"), Op::Activation, act, &[seq, f]));
    nodes.push(linear(&format!("{m}.down_proj"), "down projection", seq, f, h, c.bias));
    nodes
}

pub fn build(c: &Zamba2Config, seq: u64) -> Graph {
    let n = c.mem_blocks as usize;
    let block = |s: &str, j: usize| shared_block(c, s, j, seq);
    let blocks = Blocks { name: "shared_transformer", owner: &|j| j % n, block: &block };
    assemble(&c.core, seq, &blocks, &|m| super::mamba2::mixer(m, seq, c.core.hidden_size, &c.mamba))
}
