//! The Jamba graph, named as transformers' `JambaModel` under `model.`: each layer is one
//! section (its mixer, attention or Mamba, and its MLP, dense or routed, follow the config's
//! periods). Serving keeps a KV cache for the attention layers and a recurrent state for the
//! Mamba layers. Experts are named per expert (`experts.{e}.gate_proj`), as published
//! checkpoints store them; transformers 5.x fuses them into 3-D tensors of the same size.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, token_embeddings};
use super::common::{alone, lm_head, no_candidates};
use super::kv::{KvGroup, KvLayout, RecurrentState};
use super::mixers::depthwise_conv;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::jamba::JambaConfig;

architecture!(
    JambaConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let attn = self.layers.iter().filter(|(a, _)| *a).count() as u64;
        let mamba = self.num_layers - attn;
        let (kv, hd) = (self.num_kv_heads, self.head_dim);
        let groups = if attn > 0 {
            vec![KvGroup {
                layers: attn,
                values_per_token: 2 * kv * hd,
                window: None,
                what: format!("attention layers: 2 x {kv} KV heads x {hd} head_dim"),
            }]
        } else {
            vec![]
        };
        let (i, k, n) = (self.mamba_inner, self.d_conv, self.d_state);
        let recurrent = (mamba > 0).then(|| RecurrentState {
            layers: mamba,
            conv_values: i * k,
            ssm_values: i * n,
            what: format!("conv: {i} channels x {k} mamba_d_conv; scan: {i} channels x {n} mamba_d_state"),
        });
        Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent })
    }
    fn training_notes(&self) -> Vec<String> {
        vec![super::ssm::SCAN_NOTE.into()]
    }
);

fn mamba_nodes(c: &JambaConfig, m: &str, seq: u64) -> Vec<Node> {
    let (h, i, n, r, k) = (c.hidden_size, c.mamba_inner, c.d_state, c.dt_rank, c.d_conv);
    let conv = depthwise_conv(&format!("{m}.conv1d"), "depthwise causal convolution", seq, i, k, c.conv_bias);
    vec![
        linear(&format!("{m}.in_proj"), "x and the gate z", seq, h, 2 * i, c.proj_bias),
        conv,
        linear(&format!("{m}.x_proj"), "dt, B and C", seq, i, r + 2 * n, false),
        rms_norm(&format!("{m}.dt_layernorm"), "RMSNorm on dt", &[seq, r], r),
        rms_norm(&format!("{m}.b_layernorm"), "RMSNorm on B", &[seq, n], n),
        rms_norm(&format!("{m}.c_layernorm"), "RMSNorm on C", &[seq, n], n),
        linear(&format!("{m}.dt_proj"), "dt to every channel", seq, r, i, true),
        Node::new(m, Op::Scan, format!("selective scan: {i} channels x {n} states"), &[seq, i])
            .with([Tensor::new(format!("{m}.A_log"), &[i, n]), Tensor::new(format!("{m}.D"), &[i])]),
        linear(&format!("{m}.out_proj"), "mixer output projection", seq, i, h, c.proj_bias),
    ]
}

fn moe_nodes(c: &JambaConfig, f: &str, seq: u64) -> Vec<Node> {
    let (h, ffn, e, top) = (c.hidden_size, c.intermediate_size, c.num_experts, c.experts_per_token);
    let x = format!("{f}.experts.{{e}}");
    let mut nodes = vec![
        Node::new(format!("{f}.router"), Op::Linear, format!("router over {e} experts"), &[seq, e])
            .with([Tensor::new(format!("{f}.router.weight"), &[e, h])]),
    ];
    nodes.extend(
        gated_mlp(&x, seq, h, ffn, &c.hidden_act, false, false).into_iter().map(|n| n.experts(e, top)),
    );
    nodes
}

pub fn build(c: &JambaConfig, seq: u64) -> Graph {
    let p = if c.head.is_some() { "model." } else { "" };
    let h = c.hidden_size;
    let embed = format!("{p}embed_tokens");
    let mut sections = vec![token_embeddings(&embed, seq, c.vocab_size, h)];
    for (idx, (attention, experts)) in c.layers.iter().enumerate() {
        let l = format!("{p}layers.{idx}");
        let mut nodes =
            vec![rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before the mixer", &[seq, h], h)];
        if *attention {
            nodes.extend(gqa(&Gqa {
                a: &format!("{l}.self_attn"),
                seq,
                hidden: h,
                heads: c.num_heads,
                kv_heads: c.num_kv_heads,
                head_dim: c.head_dim,
                qkv_bias: false,
                o_bias: false,
                fused_qkv: false,
                qk_norm: QkNorm::None,
                norm_word: "RMSNorm",
                what: "causal, no position encoding".into(),
            }));
        } else {
            nodes.extend(mamba_nodes(c, &format!("{l}.mamba"), seq));
        }
        nodes.push(rms_norm(&format!("{l}.pre_ff_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
        let f = format!("{l}.feed_forward");
        if *experts {
            nodes.extend(moe_nodes(c, &f, seq));
        } else {
            nodes.extend(gated_mlp(&f, seq, h, c.intermediate_size, &c.hidden_act, false, false));
        }
        sections.push(Section { name: l, role: Role::Layers, repeat: 1, nodes });
    }
    let norm = format!("{p}final_layernorm");
    sections.push(alone(rms_norm(&norm, "final RMSNorm", &[seq, h], h), Role::Layers));
    let head = match c.head {
        None => None,
        Some(None) => {
            let (what, tie) = ("logits over the vocabulary", c.tie_word_embeddings);
            Some(lm_head("lm_head", what, [seq, h, c.vocab_size], tie, &format!("{embed}.weight")))
        }
        Some(Some(labels)) => {
            Some(linear("score", "labels, read at the last non-padding token", 1, h, labels, false))
        }
    };
    if let Some(node) = head {
        sections.push(Section { name: node.name.clone(), role: Role::Head, repeat: 1, nodes: vec![node] });
    }
    Graph { seq_len: seq, sections }
}
