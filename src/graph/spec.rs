//! One graph builder for the described types (`config/spec.rs`): embeddings, then per layer the
//! norms in their slots around grouped-query attention (with q/k norms and sinks where the type
//! has them) and a dense MLP or a mixture of experts (router, routed experts, shared expert), then
//! the final norm and the head, all from `graph/blocks.rs`.

use super::blocks::{
    Gqa, HeadNames, gated_mlp, gqa, head_section, layer_norm, linear, rms_norm, token_embeddings,
};
use super::mixers::mla;
use super::spec_arch::{Kind, kinds};
use super::spec_extras::{adjust_attention, attention_extras, mlp_extras};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::spec::{Attn, Mlp, NormKind, QkNorm, Slot, SpecConfig};
use crate::config::{Common, ConfigError};

impl SpecConfig {
    /// Reads and resolves a config of a described type, then checks that its sizes together
    /// describe a model within reach.
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let c = Self::read(value, common)?;
        c.check_scale()?;
        Ok(c)
    }

    /// Refuses sizes whose product is beyond any real model ([`super::common::check_scale`]).
    fn check_scale(&self) -> Result<(), ConfigError> {
        let field = |name: &str| match (&self.spec.moe, name) {
            (_, n) if n.contains("embed_tokens") || n == "lm_head" => "vocab_size",
            (Some(m), n) if n.contains(".experts") => m.experts_key,
            (_, n) if n.contains("self_attn") => "num_attention_heads",
            (_, n) if n.contains("proj") => self.spec.dense_width_key,
            _ => "num_hidden_layers",
        };
        super::common::check_scale(&build(self, 1), field)
    }

    fn prefix(&self) -> &'static str {
        if self.head == DecoderHead::Model { "" } else { "model." }
    }
}

pub(super) fn norm_node(c: &SpecConfig, name: &str, what: &str, seq: u64) -> Node {
    let h = c.hidden_size;
    match c.norm {
        NormKind::Rms => rms_norm(name, &format!("RMSNorm, {what}"), &[seq, h], h),
        NormKind::LayerNorm => layer_norm(name, &format!("LayerNorm, {what}"), &[seq, h], h, true),
        NormKind::LayerNormNoBias | NormKind::RmsWhenEps => {
            Node::new(name, Op::LayerNorm, format!("LayerNorm without bias, {what}"), &[seq, h])
                .with([Tensor::new(format!("{name}.weight"), &[h])])
        }
        NormKind::Bare => {
            layer_norm(name, &format!("LayerNorm without parameters, {what}"), &[seq, h], h, false)
        }
        NormKind::BareRms => {
            Node::new(name, Op::LayerNorm, format!("RMSNorm without weight, {what}"), &[seq, h])
        }
    }
}

pub(super) fn attention(c: &SpecConfig, l: &str, k: Kind, seq: u64) -> Vec<Node> {
    let a = format!("{l}.self_attn");
    let (heads, latent) = k.latent.map_or((c.num_heads, c.latent), |(h, d)| (h, Some(d)));
    if let (Attn::Latent(_), Some(d)) = (c.spec.attn, &latent) {
        return mla(&a, seq, c.hidden_size, heads, d, c.qkv_bias, k.indexed);
    }
    let s = super::spec_cache::shape(c, k);
    let (heads, kv, hd) = (s.heads, s.kv_heads, c.head_dim);
    let qk = c.qk_kind();
    let shared_qk = match qk {
        QkNorm::PerHead => crate::config::QkNorm::PerHead,
        QkNorm::Full => crate::config::QkNorm::Full,
        _ => crate::config::QkNorm::None,
    };
    let mut nodes = gqa(&Gqa {
        a: &a,
        seq,
        hidden: c.hidden_size,
        heads,
        kv_heads: kv,
        head_dim: hd,
        qkv_bias: c.qkv_bias,
        o_bias: c.o_bias,
        fused_qkv: false,
        qk_norm: shared_qk,
        norm_word: "RMSNorm",
        what: "causal, rotary".into(),
    });
    adjust_attention(c, &a, s, seq, &mut nodes);
    let [qn, kn] = c.spec.qk_norm_names;
    let own_norms: Option<(Vec<u64>, Vec<u64>)> = match qk {
        QkNorm::OverHidden => Some((vec![c.hidden_size], vec![c.hidden_size / heads * kv])),
        QkNorm::HeadByChannel => Some((vec![heads, hd], vec![kv, hd])),
        _ => None,
    };
    let at = nodes.iter().position(|n| n.op == Op::Attention).unwrap_or(nodes.len());
    if let Some((q, k)) = own_norms {
        let norm = |n: &str, shape: Vec<u64>, out: u64| {
            Node::new(
                format!("{a}.{n}"),
                Op::LayerNorm,
                format!("norm of the {n}, weight {shape:?}"),
                &[seq, out],
            )
            .with([Tensor::new(format!("{a}.{n}.weight"), &shape)])
        };
        nodes.insert(at, norm(kn, k, kv * hd));
        nodes.insert(at, norm(qn, q, heads * hd));
    }
    if c.spec.attn == Attn::GatedOutput
        && let Some(q) = nodes.iter_mut().find(|n| n.name.ends_with(".q_proj"))
    {
        // The query projection also makes the output gate: twice the rows.
        q.detail = "query projection and the sigmoid output gate".into();
        q.output = vec![seq, 2 * heads * hd];
        q.params.iter_mut().for_each(|t| t.shape[0] *= 2);
    }
    if s.sinks
        && let Some(n) = nodes.iter_mut().find(|n| n.op == Op::Attention)
    {
        n.detail.push_str(", a learned sink logit per head");
        n.params.push(Tensor::new(format!("{a}.sinks"), &[heads]));
    }
    attention_extras(c, &a, seq, &mut nodes);
    nodes
}

pub(super) fn mlp(c: &SpecConfig, prefix: &str, seq: u64, ffn: u64, bias: bool) -> Vec<Node> {
    let mut nodes = mlp_only(c, prefix, seq, ffn, bias);
    mlp_extras(c, prefix, seq, &mut nodes);
    nodes
}

fn mlp_only(c: &SpecConfig, prefix: &str, seq: u64, ffn: u64, bias: bool) -> Vec<Node> {
    let h = c.hidden_size;
    match c.spec.mlp {
        Mlp::Gated => gated_mlp(prefix, seq, h, ffn, &c.hidden_act, bias, false),
        Mlp::GatedFused => gated_mlp(prefix, seq, h, ffn, &c.hidden_act, bias, true),
        Mlp::Plain => vec![
            linear(
                &format!("{prefix}.up_proj"),
                &format!("up projection, then {}", c.hidden_act),
                seq,
                h,
                ffn,
                bias,
            ),
            linear(&format!("{prefix}.down_proj"), "down projection", seq, ffn, h, bias),
        ],
        Mlp::Fc => vec![
            linear(&format!("{prefix}.fc1"), "fc1", seq, h, ffn, bias),
            Node::new(format!("{prefix}.act_fn"), Op::Activation, c.hidden_act.clone(), &[seq, ffn]),
            linear(&format!("{prefix}.fc2"), "fc2", seq, ffn, h, bias),
        ],
    }
}

pub(super) fn layer(c: &SpecConfig, l: &str, k: Kind, seq: u64) -> Vec<Node> {
    let own = || super::spec_longcat::layer(c, l, seq);
    if let Some(nodes) = super::spec_hybrid::single_block(c, l, k, seq).or_else(own) {
        return nodes;
    }
    let sparse = k.sparse;
    let switched = c.spec.switched_norms.filter(|_| c.switched_norms).map_or(&[][..], |s| s.norms);
    let norms = |slot: Slot, what: &str| -> Vec<Node> {
        super::olmo_hybrid::layer_norms(c, k)
            .iter()
            .chain(switched)
            .filter(|(_, s)| *s == slot)
            .map(|(n, _)| norm_node(c, &format!("{l}.{n}"), what, seq))
            .collect()
    };
    let mut nodes = norms(Slot::Before, "before attention");
    let mixer = super::spec_hybrid::linear_mixer(c, l, k, seq);
    nodes.extend(mixer.unwrap_or_else(|| attention(c, l, k, seq)));
    nodes.extend(norms(Slot::Between, "between attention and the MLP"));
    match (&c.spec.moe, sparse, super::spec_hybrid::shared_only(c, l, seq)) {
        (Some(m), true, _) => nodes.extend(super::spec_moe::moe(c, m, l, seq)),
        (_, _, Some(shared)) => nodes.extend(shared),
        (m, _, None) => {
            let block = m.as_ref().map_or(super::spec_hybrid::mlp_name(c), |m| m.block);
            nodes.extend(mlp(c, &format!("{l}.{block}"), seq, c.intermediate_size, c.mlp_bias));
        }
    }
    nodes.extend(norms(Slot::After, "after the MLP"));
    super::spec_axk2::adjust_layer(c, l, k, seq, &mut nodes);
    nodes
}

pub fn build(c: &SpecConfig, seq: u64) -> Graph {
    let (p, e, f) = super::spec_hybrid::names(c).unwrap_or((c.prefix(), "embed_tokens", "norm"));
    let (h, v) = (c.hidden_size, c.vocab_size + c.own.extra_vocab);
    let embed = format!("{p}{e}");
    let embed_weight = format!("{embed}.weight");
    let mut sections = vec![token_embeddings(&embed, seq, v, h)];
    // A run of like layers from layer 0 repeats with `{i}`; later layers that differ from it
    // (dense among sparse) are named one by one.
    let flags = kinds(c);
    let first_run = flags.iter().take_while(|s| **s == flags[0]).count();
    if first_run > 0 {
        let l = format!("{p}layers.{{i}}");
        sections.push(Section {
            name: l.clone(),
            role: Role::Layers,
            repeat: first_run as u64,
            nodes: layer(c, &l, flags[0], seq),
        });
    }
    for (i, kind) in flags.iter().enumerate().skip(first_run) {
        let l = format!("{p}layers.{i}");
        sections.push(Section {
            name: l.clone(),
            role: Role::Layers,
            repeat: 1,
            nodes: layer(c, &l, *kind, seq),
        });
    }
    let norm = format!("{p}{f}");
    sections.push(Section {
        name: norm.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: super::spec_axk2::final_nodes(c, p, &norm, seq),
    });
    let names = HeadNames {
        lm: "lm_head",
        lm_bias: c.lm_bias,
        lm_note: String::new(),
        token: "score",
        score_rows: None,
        tied_to: c.tie_word_embeddings.then_some(&embed_weight),
    };
    sections.extend(head_section(c.head, &names, seq, h, c.lm_rows));
    Graph { seq_len: seq, sections }
}
