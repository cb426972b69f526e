//! A.X K2's changes to the shared layer (`config/spec_axk2.rs`): `q_gate_proj` in place of
//! `q_b_proj`, reading the query latent before and after its norm and making each head's query
//! and its output gate; and the gated norms, an RMSNorm (`.norm`) whose output a low-rank MLP
//! (`.mlp.fc1`, `.mlp.fc2`) gates. Also MiniMax-M3's indexer (`config/spec_m3.rs`) on its sparse
//! layers, and dots.3 note's rotary-key norm and gate per head (`config/spec_dots3.rs`).

use super::blocks::{linear, rms_norm};
use super::spec_arch::Kind;
use super::{Node, Op, Tensor};
use crate::config::spec::SpecConfig;

pub(super) fn adjust_layer(c: &SpecConfig, l: &str, k: Kind, seq: u64, nodes: &mut Vec<Node>) {
    m3_indexer(c, l, k, seq, nodes);
    dots3_attention(c, l, k, seq, nodes);
    hyper_layer(c, l, seq, nodes);
    let rank = c.own.gated_norm_rank;
    let Some(d) = c.latent.as_ref().filter(|_| rank > 0) else { return };
    let heads = c.num_heads;
    let qk = d.qk_nope_head_dim + d.qk_rope_head_dim;
    if let (Some(q), Some(r)) =
        (nodes.iter_mut().find(|n| n.name == format!("{l}.self_attn.q_b_proj")), d.q_lora_rank)
    {
        let what = "query and output gate from the query latent, before and after its norm";
        *q = linear(
            &format!("{l}.self_attn.q_gate_proj"),
            what,
            seq,
            2 * r,
            heads * (qk + d.v_head_dim),
            false,
        );
    }
    let mut gated = vec![format!("{l}.input_layernorm")];
    if k.sparse {
        gated.push(format!("{l}.post_attention_layernorm"));
    }
    for name in gated {
        let Some(at) = nodes.iter().position(|n| n.name == name && n.op == Op::LayerNorm) else { continue };
        let norm = &mut nodes[at];
        norm.name = format!("{name}.norm");
        norm.params.iter_mut().for_each(|t| t.name = t.name.replacen(&name, &norm.name, 1));
        let h = c.hidden_size;
        let fc1 =
            linear(&format!("{name}.mlp.fc1"), "norm gate down-projection, then SiLU", seq, h, rank, false);
        let fc2 = linear(
            &format!("{name}.mlp.fc2"),
            "norm gate up-projection, then a sigmoid",
            seq,
            rank,
            h,
            false,
        );
        nodes.splice(at + 1..at + 1, [fc1, fc2]);
    }
}

/// MiniMax-M3's block-sparse lightning indexer under `self_attn.indexer`: its query heads and
/// one key from the hidden state, each normed per head (RMSNorm of the head width).
fn m3_indexer(c: &SpecConfig, l: &str, k: Kind, seq: u64, nodes: &mut Vec<Node>) {
    let (Some((n, d)), true) = (c.own.m3_index, k.indexed) else { return };
    let a = format!("{l}.self_attn");
    let i = format!("{a}.indexer");
    let Some(at) = nodes.iter().position(|x| x.name == a && x.op == Op::Attention) else { return };
    let h = c.hidden_size;
    let indexer = [
        linear(&format!("{i}.q_proj"), "indexer queries", seq, h, n * d, false),
        linear(&format!("{i}.k_proj"), "indexer key", seq, h, d, false),
        rms_norm(&format!("{i}.q_norm"), "RMSNorm per indexer query head", &[seq, n * d], d),
        rms_norm(&format!("{i}.k_norm"), "RMSNorm of the indexer key", &[seq, d], d),
    ];
    nodes.splice(at..at, indexer);
}

/// dots.3 note's attention beyond DeepSeek's: an RMSNorm of the rotary key
/// (`k_rope_only_layernorm`) and a gate per head on the output (`g_proj`, hidden to heads).
fn dots3_attention(c: &SpecConfig, l: &str, k: Kind, seq: u64, nodes: &mut Vec<Node>) {
    let Some((heads, d)) = k.latent else { return };
    let a = format!("{l}.self_attn");
    let Some(at) = nodes.iter().position(|x| x.name == format!("{a}.o_proj")) else { return };
    let rope = d.qk_rope_head_dim;
    let extra = [
        rms_norm(&format!("{a}.k_rope_only_layernorm"), "RMSNorm of the rotary key", &[seq, rope], rope),
        linear(&format!("{a}.g_proj"), "output gate per head", seq, c.hidden_size, heads, false),
    ];
    nodes.splice(at..at, extra);
}

/// HY V4's layer beyond GLM-5's: the attention's output gate (`gate_proj`, hidden to heads x
/// v_head_dim) and a sink per head, and a hyper-connection around each sublayer (`fn` [2m, m x
/// hidden], `base` [2m], `scale` [2], in float32) mixing the `hc_mult` residual copies.
fn hyper_layer(c: &SpecConfig, l: &str, seq: u64, nodes: &mut Vec<Node>) {
    let (m, Some(d)) = (c.own.hc_mult, c.latent.as_ref()) else { return };
    if m == 0 {
        return;
    }
    let (a, h, heads) = (format!("{l}.self_attn"), c.hidden_size, c.num_heads);
    if let Some(at) = nodes.iter().position(|x| x.name == format!("{a}.o_proj")) {
        let gate =
            linear(&format!("{a}.gate_proj"), "sigmoid output gate", seq, h, heads * d.v_head_dim, false);
        nodes.insert(at, gate);
    }
    if let Some(n) = nodes.iter_mut().find(|x| x.name == a && x.op == Op::Attention) {
        n.detail.push_str(", a learned sink logit per head");
        n.params.push(Tensor::new(format!("{a}.sinks"), &[heads]));
    }
    let between = format!("{l}.post_attention_layernorm");
    for hc in ["attn_hc", "ffn_hc"] {
        let at = if hc == "attn_hc" {
            0
        } else {
            nodes.iter().position(|x| x.name == between).unwrap_or(nodes.len())
        };
        let name = format!("{l}.{hc}");
        let node = Node::new(
            &name,
            Op::Linear,
            format!("hyper-connection mixing {m} residual copies"),
            &[seq, 2 * m],
        )
        .with([
            Tensor::new(format!("{name}.fn"), &[2 * m, m * h]),
            Tensor::new(format!("{name}.base"), &[2 * m]),
            Tensor::new(format!("{name}.scale"), &[2]),
        ]);
        nodes.insert(at, node);
    }
}

/// The final norm, after HY V4's `hc_head` where the type has one.
pub(super) fn final_nodes(c: &SpecConfig, prefix: &str, norm: &str, seq: u64) -> Vec<Node> {
    let norm = super::spec::norm_node(c, norm, "final", seq);
    hyper_head(c, prefix, seq).into_iter().chain([norm]).collect()
}

/// HY V4's `hc_head`, folding the residual copies into one before the final norm (`hc_fn`
/// [m, m x hidden], `hc_base` [m], `hc_scale` [1]).
fn hyper_head(c: &SpecConfig, prefix: &str, seq: u64) -> Option<Node> {
    let (m, h) = (c.own.hc_mult, c.hidden_size);
    (m > 0).then(|| {
        let name = format!("{prefix}hc_head");
        Node::new(&name, Op::Linear, format!("folds {m} residual copies into one"), &[seq, h]).with([
            Tensor::new(format!("{name}.hc_fn"), &[m, m * h]),
            Tensor::new(format!("{name}.hc_base"), &[m]),
            Tensor::new(format!("{name}.hc_scale"), &[1]),
        ])
    })
}
