//! How the Mamba-2 hybrids (`config/spec_hybrid.rs`) plan beside the shared builder
//! (`graph/spec.rs`): the Mamba-2 mixer in place of attention, their module names, Nemotron-H's
//! single-block layers (its non-gated stacked experts in an optional latent, their shared
//! expert), and serving memory: a KV cache for the attention layers, a recurrent state for the
//! Mamba-2 layers.

use super::blocks::linear;
use super::kv::{KvGroup, KvLayout};
use super::spec::{attention, mlp};
use super::spec_arch::Kind;
use super::{Node, Op, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::spec::{Linear, SpecConfig};
use crate::config::spec_hybrid::{Block, hybrid};

/// The mixer of a linear layer (Gated DeltaNet, Kimi Delta, LFM2's short convolution, Mamba-2);
/// None where the layer attends.
pub(super) fn linear_mixer(c: &SpecConfig, l: &str, k: Kind, seq: u64) -> Option<Vec<Node>> {
    let h = c.hidden_size;
    Some(match (&c.linear, c.spec.linear, k.linear) {
        (Some(d), Linear::GatedDeltaNet { fused }, true) => {
            super::mixers::gated_delta_net(&format!("{l}.linear_attn"), seq, h, d, fused)
        }
        (Some(d), Linear::KimiDelta, true) => super::mixers::kimi_delta(&format!("{l}.self_attn"), seq, h, d),
        (Some(d), Linear::ShortConv | Linear::ShortConvTyped, true) => {
            super::mixers::short_conv(&format!("{l}.conv"), seq, h, d)
        }
        (Some(d), Linear::Lightning, true) => super::mixers::lightning(&format!("{l}.self_attn"), seq, h, d),
        (_, Linear::Mamba2(_), true) => mamba(c, l, k, seq),
        (Some(d), Linear::BailingDelta, true) => {
            super::bailing_hybrid::delta(&format!("{l}.self_attn"), seq, h, d)
        }
        // Ling 3's attention layers gate each head: its own block, in place of the shared one.
        (_, Linear::BailingDelta, false) => super::bailing_hybrid::gated_latent(c, l, k, seq),
        (Some(d), Linear::OlmoDeltaNet, true) => {
            super::olmo_hybrid::delta_net(&format!("{l}.linear_attn"), seq, h, d)
        }
        _ => return None,
    })
}

/// The Mamba-2 mixer of layer `l`; Falcon-H1's attention beside it.
pub(super) fn mamba(c: &SpecConfig, l: &str, k: Kind, seq: u64) -> Vec<Node> {
    let mut nodes = if k.block == Some(Block::Parallel) {
        attention(c, l, Kind { indexed: false, ..k }, seq)
    } else {
        vec![]
    };
    if let (Some(h), Some(d)) = (hybrid(c.spec), &c.hybrid) {
        nodes.extend(super::mamba2::mixer(&format!("{l}.{}", h.mixer), seq, c.hidden_size, &d.mamba));
    }
    nodes
}

/// Granite 4.0's layer without experts: the shared MLP alone.
pub(super) fn shared_only(c: &SpecConfig, l: &str, seq: u64) -> Option<Vec<Node>> {
    let s = c.hybrid.as_ref()?.shared_only?;
    Some(super::spec_extras::shared_beside(&format!("{l}.shared_mlp"), seq, c.hidden_size, s, &c.hidden_act))
}

/// The prefix, embeddings and final norm a hybrid names its modules with.
pub(super) fn names(c: &SpecConfig) -> Option<(&'static str, &'static str, &'static str)> {
    let h = hybrid(c.spec)?;
    Some((if c.head == DecoderHead::Model { "" } else { h.prefix }, h.embed, h.final_norm))
}

/// The prefix a checkpoint stores the model's weights under.
pub(super) fn checkpoint_prefix(c: &SpecConfig) -> &'static str {
    hybrid(c.spec).map_or("model.", |h| h.prefix)
}

/// The dense MLP's module (Bamba's `feed_forward`).
pub(super) fn mlp_name(c: &SpecConfig) -> &'static str {
    hybrid(c.spec).map_or("mlp", |h| h.mlp)
}

/// Nemotron-H's layer: one norm, then one block (Mamba-2, attention, MLP or experts), all under
/// `mixer`. None for the types whose layers pair a mixer with an MLP.
pub(super) fn single_block(c: &SpecConfig, l: &str, k: Kind, seq: u64) -> Option<Vec<Node>> {
    let h = hybrid(c.spec).filter(|h| h.layout == crate::config::spec_hybrid::Layout::Blocks)?;
    let m = format!("{l}.{}", h.mixer);
    let mut nodes = vec![super::spec::norm_node(c, &format!("{l}.norm"), "before the block", seq)];
    match k.block {
        Some(Block::Mamba | Block::Parallel) => nodes.extend(mamba(c, l, k, seq)),
        Some(Block::Attention) => {
            let own = format!("{l}.self_attn");
            nodes.extend(attention(c, l, Kind { indexed: false, ..k }, seq).into_iter().map(|mut n| {
                n.name = n.name.replacen(&own, &m, 1);
                n.params.iter_mut().for_each(|t| t.name = t.name.replacen(&own, &m, 1));
                n
            }));
        }
        Some(Block::Moe) => nodes.extend(experts(c, &m, seq)),
        Some(Block::Mlp) | None => nodes.extend(mlp(c, &m, seq, c.intermediate_size, c.mlp_bias)),
    }
    Some(nodes)
}

/// Nemotron-H's experts: a sigmoid router (with its correction-bias buffer), non-gated experts
/// stacked `[experts, out, in]` in the latent when `moe_latent_size` is set, and the shared expert.
fn experts(c: &SpecConfig, m: &str, seq: u64) -> Vec<Node> {
    let (h, f) = (c.hidden_size, c.expert_width);
    let (n, k) = (c.num_experts.unwrap_or(1), c.experts_per_token.unwrap_or(1));
    let latent = c.hybrid.as_ref().and_then(|d| d.moe_latent);
    let w = latent.unwrap_or(h);
    let mut nodes = vec![
        Node::new(
            format!("{m}.gate"),
            Op::Linear,
            format!("sigmoid router over {n} experts, top {k}"),
            &[seq, n],
        )
        .with([Tensor::new(format!("{m}.gate.weight"), &[n, h])]),
    ];
    if let Some(l) = latent {
        nodes.push(linear(
            &format!("{m}.fc1_latent_proj"),
            "into the experts' latent",
            seq,
            h,
            l,
            c.mlp_bias,
        ));
    }
    let e = format!("{m}.experts");
    nodes.push(
        Node::new(
            format!("{e}.up_proj"),
            Op::Linear,
            format!("expert up projection, then {}", c.hidden_act),
            &[seq, f],
        )
        .with([Tensor::new(format!("{e}.up_proj[{{e}}]"), &[f, w])])
        .experts(n, k),
    );
    nodes.push(
        Node::new(format!("{e}.down_proj"), Op::Linear, "expert down projection", &[seq, w])
            .with([Tensor::new(format!("{e}.down_proj[{{e}}]"), &[w, f])])
            .experts(n, k),
    );
    if latent.is_some() {
        nodes.push(linear(
            &format!("{m}.fc2_latent_proj"),
            "out of the experts' latent",
            seq,
            w,
            h,
            c.mlp_bias,
        ));
    }
    if let Some(s) = c.shared_width {
        nodes.extend(mlp(c, &format!("{m}.shared_experts"), seq, s, c.mlp_bias));
    }
    nodes
}

/// Serving memory: full attention on the attention layers, the Mamba-2 state on the others.
pub(super) fn kv_layout(c: &SpecConfig) -> Option<KvLayout> {
    let d = c.hybrid.as_ref()?;
    let count = |b: Block| d.blocks.iter().filter(|x| **x == b).count() as u64;
    let parallel = count(Block::Parallel);
    let (attn, mamba) = (count(Block::Attention) + parallel, count(Block::Mamba) + parallel);
    let per_token = 2 * c.num_kv_heads * c.head_dim;
    let groups = (attn > 0)
        .then(|| KvGroup {
            layers: attn,
            values_per_token: per_token,
            window: None,
            what: format!("full attention: 2 x {} KV heads x {} head_dim", c.num_kv_heads, c.head_dim),
        })
        .into_iter()
        .collect();
    let recurrent = (mamba > 0).then(|| super::mamba2::state(mamba, &d.mamba));
    Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent })
}
