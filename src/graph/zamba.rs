//! The Zamba graph, named as transformers' `ZambaModel` under `model.`: a Mamba layer
//! (`input_layernorm`, `mamba`) in every position; a hybrid layer runs the shared transformer
//! block (`shared_transf`) on the hidden state beside the embeddings, projects its output
//! (`linear`), and hands it to its Mamba layer (`mamba_decoder`). The shared block's weights are
//! stored once, at the first hybrid layer: later applications list them tied to it, so they are
//! counted once while their compute and their KV cache count at every application. transformers
//! 5.x ties them only under `tie_word_embeddings` (its `_tied_weights_keys` apply only then);
//! otherwise each application holds its own copy, and so does the plan.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, token_embeddings};
use super::kv::{KvGroup, KvLayout, RecurrentState};
use super::mixers::depthwise_conv;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::decoder::DecoderHead;
use crate::config::zamba::ZambaConfig;
use crate::config::zamba_core::ZambaCore;

architecture!(
    ZambaConfig,
    |c| activations: vec![("hidden_act", c.core.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let (i, k, n) = (self.mamba_inner, self.d_conv, self.d_state);
        let recurrent = Some(RecurrentState {
            layers: self.core.hybrid.len() as u64,
            conv_values: i * k,
            ssm_values: i * n,
            what: format!("conv: {i} channels x {k} mamba_d_conv; scan: {i} channels x {n} mamba_d_state"),
        });
        Some(KvLayout { groups: kv_groups(&self.core), cross: None, cross_fixed_len: None, recurrent })
    }
    fn training_notes(&self) -> Vec<String> {
        vec![super::ssm::SCAN_NOTE.into()]
    }
);

fn no_candidates(_: &ZambaConfig) -> Vec<Candidate> {
    vec![]
}

/// Zamba's Mamba mixer under `m`: `in_proj` (x and the gate z), the depthwise convolution, then
/// per Mamba head its own dt, B and C projection (`x_proj_weight`), dt projection
/// (`dt_proj_weight`, `dt_proj_bias`), `A_log` and `D`, and `out_proj`.
fn mamba(c: &ZambaConfig, m: &str, seq: u64) -> Vec<Node> {
    let (h, i, n, r, k) = (c.core.hidden_size, c.mamba_inner, c.d_state, c.dt_rank, c.d_conv);
    let (heads, hd) = (c.mamba_heads, c.mamba_inner / c.mamba_heads);
    vec![
        linear(&format!("{m}.in_proj"), "x and the gate z", seq, h, 2 * i, c.proj_bias),
        depthwise_conv(&format!("{m}.conv1d"), "depthwise causal convolution", seq, i, k, c.conv_bias),
        Node::new(
            format!("{m}.x_proj"),
            Op::Linear,
            format!("dt, B and C per head ({heads} heads)"),
            &[seq, heads * (r + 2 * n)],
        )
        .with([Tensor::new(format!("{m}.x_proj_weight"), &[heads, r + 2 * n, hd])]),
        Node::new(format!("{m}.dt_proj"), Op::Linear, "dt to every channel of its head", &[seq, i]).with([
            Tensor::new(format!("{m}.dt_proj_weight"), &[heads, hd, r]),
            Tensor::new(format!("{m}.dt_proj_bias"), &[heads, hd]),
        ]),
        Node::new(
            m,
            Op::Scan,
            format!("selective scan: {heads} heads of {hd} channels x {n} states"),
            &[seq, i],
        )
        .with([
            Tensor::new(format!("{m}.A_log"), &[heads, hd, n]),
            Tensor::new(format!("{m}.D"), &[heads, hd]),
        ]),
        linear(&format!("{m}.out_proj"), "mixer output projection", seq, i, h, c.proj_bias),
    ]
}

/// The shared transformer block under `s`: an RMSNorm over the hidden state and the embeddings
/// (`attention_hidden_size`), attention from that width back to hidden, an RMSNorm, the MLP.
fn shared_block(c: &ZambaConfig, s: &str, seq: u64) -> Vec<Node> {
    let core = &c.core;
    let mut nodes = shared_attention(core, s, seq, "causal, no position encoding");
    let m = format!("{s}.feed_forward");
    nodes.extend(gated_mlp(
        &m,
        seq,
        core.hidden_size,
        core.intermediate_size,
        &core.hidden_act,
        false,
        false,
    ));
    nodes
}

/// A Zamba or Zamba2 shared block up to its MLP: the RMSNorm over the hidden state and the
/// embeddings, attention from that width back to hidden, the RMSNorm before the MLP.
pub(super) fn shared_attention(core: &ZambaCore, s: &str, seq: u64, what: &str) -> Vec<Node> {
    let (h, a) = (core.hidden_size, core.attention_hidden_size);
    let norm = format!("{s}.input_layernorm");
    let mut nodes = vec![rms_norm(&norm, "RMSNorm over the hidden state and the embeddings", &[seq, a], a)];
    let mut attention = gqa(&Gqa {
        a: &format!("{s}.self_attn"),
        seq,
        hidden: a,
        heads: core.num_heads,
        kv_heads: core.num_kv_heads,
        head_dim: core.head_dim,
        qkv_bias: false,
        o_bias: false,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        norm_word: "RMSNorm",
        what: what.into(),
    });
    if let Some(o) = attention.last_mut() {
        let q = core.num_heads * core.head_dim;
        *o = linear(&format!("{s}.self_attn.o_proj"), "attention output projection", seq, q, h, false);
    }
    nodes.extend(attention);
    nodes.push(rms_norm(&format!("{s}.pre_ff_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
    nodes
}

/// Serving: a KV cache for every use of a shared block (the weights are shared, the cache is not).
pub(super) fn kv_groups(core: &ZambaCore) -> Vec<KvGroup> {
    let (kv, hd) = (core.num_kv_heads, core.head_dim);
    (core.uses() > 0)
        .then(|| KvGroup {
            layers: core.uses(),
            values_per_token: 2 * kv * hd,
            window: None,
            what: format!("each use of a shared block: 2 x {kv} KV heads x {hd} head_dim"),
        })
        .into_iter()
        .collect()
}

/// Marks every weight of `nodes` as the same storage as the one `first` names in its place.
pub(super) fn tie_to(nodes: &mut [Node], own: &str, first: &str) {
    for t in nodes.iter_mut().flat_map(|n| n.params.iter_mut()) {
        t.tied_to = Some(t.name.replacen(own, first, 1));
    }
}

pub fn build(c: &ZambaConfig, seq: u64) -> Graph {
    // One block, held by its first use.
    let blocks = Blocks { name: "shared_transf", owner: &|_| 0, block: &|s, _| shared_block(c, s, seq) };
    assemble(&c.core, seq, &blocks, &|m| mamba(c, m, seq))
}

/// The shared blocks: `owner(j)` is the use whose block holds use `j`'s weights, `block(s, j)`
/// the nodes of use `j`'s block under `s`.
pub(super) struct Blocks<'a> {
    /// The block's module under the layer (`shared_transf`, Zamba2's `shared_transformer`).
    pub name: &'static str,
    pub owner: &'a dyn Fn(usize) -> usize,
    pub block: &'a dyn Fn(&str, usize) -> Vec<Node>,
}

/// Embeddings, a Mamba layer at every position (`mamba(m)` the mixer under `m`), the shared block
/// and its `linear` at the hybrid ones, the final norm and the head. Under `tie_word_embeddings`
/// (as transformers 5.x ties only then) a use's block is tied to its owner's.
pub(super) fn assemble(
    core: &ZambaCore,
    seq: u64,
    blocks: &Blocks,
    mamba: &dyn Fn(&str) -> Vec<Node>,
) -> Graph {
    let p = if core.head == DecoderHead::Model { "" } else { "model." };
    let (h, tie) = (core.hidden_size, core.tie_word_embeddings);
    let embed = format!("{p}embed_tokens");
    let mut sections = vec![token_embeddings(&embed, seq, core.vocab_size, h)];
    let mut uses: Vec<String> = vec![];
    for (idx, hybrid) in core.hybrid.iter().enumerate() {
        let l = format!("{p}layers.{idx}");
        let mut nodes = vec![];
        let m = if *hybrid {
            let (j, s) = (uses.len(), format!("{l}.{}", blocks.name));
            let mut shared = (blocks.block)(&s, j);
            if let Some(o) = uses.get((blocks.owner)(j)).filter(|_| tie) {
                tie_to(&mut shared, &s, o);
            }
            uses.push(s);
            nodes.extend(shared);
            let what = "the shared block's output into the Mamba layer";
            nodes.push(linear(&format!("{l}.linear"), what, seq, h, h, false));
            format!("{l}.mamba_decoder")
        } else {
            l.clone()
        };
        nodes.push(rms_norm(&format!("{m}.input_layernorm"), "RMSNorm before the mixer", &[seq, h], h));
        nodes.extend(mamba(&format!("{m}.mamba")));
        sections.push(Section { name: l, role: Role::Layers, repeat: 1, nodes });
    }
    let norm = format!("{p}final_layernorm");
    let embed_weight = format!("{embed}.weight");
    let tied_to = tie.then_some(embed_weight.as_str());
    let norm = rms_norm(&norm, "final RMSNorm", &[seq, h], h);
    sections.extend(super::blocks::norm_and_head(
        norm,
        (core.head, "score"),
        tied_to,
        seq,
        h,
        core.vocab_size,
    ));
    Graph { seq_len: seq, sections }
}
