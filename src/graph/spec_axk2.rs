//! A.X K2's changes to the shared layer (`config/spec_axk2.rs`): `q_gate_proj` in place of
//! `q_b_proj`, reading the query latent before and after its norm and making each head's query
//! and its output gate; and the gated norms, an RMSNorm (`.norm`) whose output a low-rank MLP
//! (`.mlp.fc1`, `.mlp.fc2`) gates.

use super::blocks::linear;
use super::spec_arch::Kind;
use super::{Node, Op};
use crate::config::spec::SpecConfig;

pub(super) fn adjust_layer(c: &SpecConfig, l: &str, k: Kind, seq: u64, nodes: &mut Vec<Node>) {
    let rank = c.gated_norm_rank;
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
