//! The Zamba2 graph, named as transformers' `Zamba2Model` (`graph/zamba.rs` assembles it): a
//! Mamba-2 layer at every position (`graph/mamba2.rs`); the hybrid layers cycle through
//! `num_mem_blocks` shared blocks (`shared_transformer`), use `j` running block `j %
//! num_mem_blocks`. Each block stores one adapter per use it serves (`gate_up_proj_adapter_list.{j}`,
//! and q, k, v adapters under `use_shared_attention_adapter`), identities at the other slots; a
//! use runs its own adapter, the others only sit in the block.

use super::blocks::{Gqa, gqa, linear, rms_norm};
use super::kv::{KvGroup, KvLayout};
use super::zamba::{Blocks, Shape, assemble};
use super::{Candidate, Graph, Node, Op};
use crate::config::QkNorm;
use crate::config::zamba2::Zamba2Config;

architecture!(
    Zamba2Config,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let uses = self.hybrid.iter().filter(|h| **h).count() as u64;
        let (kv, hd) = (self.num_kv_heads, self.head_dim);
        let groups = (uses > 0)
            .then(|| KvGroup {
                layers: uses,
                values_per_token: 2 * kv * hd,
                window: None,
                what: format!("each use of a shared block: 2 x {kv} KV heads x {hd} head_dim"),
            })
            .into_iter()
            .collect();
        let recurrent = Some(super::mamba2::state(self.hybrid.len() as u64, &self.mamba));
        Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent })
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
    let (h, a, f, r) = (c.hidden_size, c.attention_hidden_size, c.intermediate_size, c.adapter_rank);
    let uses = c.hybrid.iter().filter(|x| **x).count();
    let n = c.mem_blocks as usize;
    // Block `j % n` holds an adapter for every use it serves.
    let slots: Vec<usize> = (0..uses).filter(|i| i % n == j % n).collect();
    let at = format!("{s}.self_attn");
    let mut nodes = vec![rms_norm(
        &format!("{s}.input_layernorm"),
        "RMSNorm over the hidden state and the embeddings",
        &[seq, a],
        a,
    )];
    let mut attention = gqa(&Gqa {
        a: &at,
        seq,
        hidden: a,
        heads: c.num_heads,
        kv_heads: c.num_kv_heads,
        head_dim: c.head_dim,
        qkv_bias: false,
        o_bias: false,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        norm_word: "RMSNorm",
        what: "causal".into(),
    });
    if let Some(o) = attention.last_mut() {
        *o = linear(
            &format!("{at}.o_proj"),
            "attention output projection",
            seq,
            c.num_heads * c.head_dim,
            h,
            false,
        );
    }
    if c.attention_adapters {
        let at_attention = attention.iter().position(|x| x.op == Op::Attention).unwrap_or(0);
        let mut extra = vec![];
        for (x, what) in [("q", "query"), ("k", "key"), ("v", "value")] {
            extra.extend(adapters(&format!("{at}.linear_{x}_adapter_list"), what, seq, (a, r, a), j, &slots));
        }
        attention.splice(at_attention..at_attention, extra);
    }
    nodes.extend(attention);
    nodes.push(rms_norm(&format!("{s}.pre_ff_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
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
    nodes.push(Node::new(
        format!("{m}.act_fn"),
        Op::Activation,
        format!("{}(gate) * up", c.hidden_act),
        &[seq, f],
    ));
    nodes.push(linear(&format!("{m}.down_proj"), "down projection", seq, f, h, c.bias));
    nodes
}

pub fn build(c: &Zamba2Config, seq: u64) -> Graph {
    let shape =
        Shape { head: c.head, tie: c.tie_word_embeddings, hidden: c.hidden_size, vocab: c.vocab_size };
    let n = c.mem_blocks as usize;
    let blocks =
        Blocks { name: "shared_transformer", owner: &|j| j % n, block: &|s, j| shared_block(c, s, j, seq) };
    assemble(&shape, &c.hybrid, seq, &blocks, &|m| super::mamba2::mixer(m, seq, c.hidden_size, &c.mamba))
}
