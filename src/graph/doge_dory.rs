//! Doge's graph (and the frame Dory's shares), named as transformers' `DogeModel` under `model.`:
//! `embed_tokens`, per layer `input_layernorm`, attention (`q_proj`, `k_proj`, `v_proj`, the
//! per-head `q_norm` and `k_norm`, the dynamic mask's `A` and `dt_proj`, `o_proj`), the learned
//! `input_residual`, `post_attention_layernorm`, the MLP (with `is_moe` the cross-domain mixture:
//! the gated MLP, `router_gate`, `down_embed`, `up_embed`) and `post_attention_residual`; then
//! `norm` and the class's head. The frame (embeddings, layers, final norm, head) is shared with
//! Dory's graph (`graph/dory.rs`).

use super::blocks::{Gqa, HeadNames, gated_mlp, gqa, head_section, linear, rms_norm, token_embeddings};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::decoder::DecoderHead;
use crate::config::doge_dory::DogeConfig;

architecture!(
    DogeConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(uniform_kv(self.num_layers, self.num_kv_heads, self.head_dim, self.sliding_window))
    }
);

fn no_candidates(_: &DogeConfig) -> Vec<Candidate> {
    vec![]
}

/// Every layer caching its keys and values, within a window where the config sets one.
pub(crate) fn uniform_kv(layers: u64, kv: u64, hd: u64, window: Option<u64>) -> KvLayout {
    let within = window.map_or(String::new(), |w| format!(", within a window of {w}"));
    KvLayout {
        groups: vec![KvGroup {
            layers,
            values_per_token: 2 * kv * hd,
            window,
            what: format!("2 x {kv} KV heads x {hd} head_dim{within}"),
        }],
        cross: None,
        cross_fixed_len: None,
        recurrent: None,
    }
}

/// What ends a decoder: its vocabulary and width, its class's head, whether the LM head is tied.
pub(crate) struct Tail<'a> {
    pub head: DecoderHead,
    pub vocab: u64,
    pub hidden: u64,
    pub tie: bool,
    /// What the LM head says after "logits over the vocabulary" (Gemma 3n's soft-capping).
    pub lm_note: &'a str,
}

/// `{p}norm` (its nodes given), then the class's head: `lm_head`, tied to `{p}embed_tokens`
/// where the config says, or a `score` without bias.
pub(crate) fn norm_and_head(t: &Tail, p: &str, seq: u64, norm: Vec<Node>) -> Vec<Section> {
    let tied = format!("{p}embed_tokens.weight");
    let mut sections = vec![Section { name: format!("{p}norm"), role: Role::Layers, repeat: 1, nodes: norm }];
    let names = HeadNames {
        lm: "lm_head",
        lm_bias: false,
        lm_note: t.lm_note.into(),
        token: "score",
        score_rows: None,
        tied_to: t.tie.then_some(&tied),
    };
    sections.extend(head_section(t.head, &names, seq, t.hidden, t.vocab));
    sections
}

/// `model.embed_tokens`, `layer` repeated over `model.layers.{i}`, `model.norm` (made by `norm`
/// from its name), the class's head.
pub(crate) fn frame(t: &Tail, layers: u64, norm: &dyn Fn(&str) -> Node, seq: u64, layer: Vec<Node>) -> Graph {
    let p = if t.head == DecoderHead::Model { "" } else { "model." };
    let mut sections = vec![token_embeddings(&format!("{p}embed_tokens"), seq, t.vocab, t.hidden)];
    sections.push(Section {
        name: format!("{p}layers.{{i}}"),
        role: Role::Layers,
        repeat: layers,
        nodes: layer,
    });
    sections.extend(norm_and_head(t, p, seq, vec![norm(&format!("{p}norm"))]));
    Graph { seq_len: seq, sections }
}

/// A bare learned vector on a node (Doge's residual scales, Dory's per-channel scales).
pub(crate) fn scale(name: &str, detail: &str, seq: u64, width: u64) -> Node {
    Node::new(name, Op::Add, detail, &[seq, width]).with([Tensor::new(name, &[width])])
}

pub fn build(c: &DogeConfig, seq: u64) -> Graph {
    let p = if c.head == DecoderHead::Model { "" } else { "model." };
    let l = format!("{p}layers.{{i}}");
    let (h, a) = (c.hidden_size, format!("{p}layers.{{i}}.self_attn"));
    let (kv, hd, bias) = (c.num_kv_heads, c.head_dim, c.attention_bias);
    let mut nodes = vec![rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h)];
    let mut attn = gqa(&Gqa {
        a: &a,
        seq,
        hidden: h,
        heads: c.num_heads,
        kv_heads: kv,
        head_dim: hd,
        qkv_bias: bias,
        o_bias: bias,
        fused_qkv: false,
        qk_norm: QkNorm::PerHead,
        norm_word: "RMSNorm",
        what: "causal, rotary, a dynamic mask from the values".into(),
    });
    // The dynamic mask: one logit per key/value head from the values, scaled by exp(A).
    let mut dt =
        linear(&format!("{a}.dt_proj"), "dynamic mask logits per key/value head", seq, kv * hd, kv, bias);
    dt.params.push(Tensor::new(format!("{a}.A"), &[kv]));
    let at = attn.len().saturating_sub(2);
    attn.insert(at, dt);
    nodes.extend(attn);
    nodes.push(scale(&format!("{l}.input_residual"), "learned residual scale after attention", seq, h));
    nodes.push(rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
    let m = format!("{l}.mlp");
    let ffn = c.intermediate_size;
    nodes.extend(gated_mlp(&m, seq, h, ffn, &c.hidden_act, c.mlp_bias, false));
    if let Some((n, k)) = c.experts {
        let keys = n.isqrt();
        nodes.push(linear(
            &format!("{m}.router_gate"),
            "product-key router, two sets of keys",
            seq,
            h,
            2 * keys,
            false,
        ));
        // One row of each table per expert: `[{e}]` names an expert's row, k of them per token.
        let rows = |name: &str, what: &str| {
            Node::new(
                format!("{m}.{name}"),
                Op::Embedding,
                format!("{n} experts' {what} rows, {k} per token"),
                &[seq, k],
            )
            .with([Tensor::new(format!("{m}.{name}.weight[{{e}}]"), &[h])])
            .experts(n, k)
        };
        nodes.push(rows("down_embed", "input"));
        nodes.push(rows("up_embed", "output"));
    }
    nodes.push(scale(
        &format!("{l}.post_attention_residual"),
        "learned residual scale after the MLP",
        seq,
        h,
    ));
    let norm = |n: &str| rms_norm(n, "final RMSNorm", &[seq, h], h);
    let t = Tail { head: c.head, vocab: c.vocab_size, hidden: h, tie: c.tie_word_embeddings, lm_note: "" };
    frame(&t, c.num_layers, &norm, seq, nodes)
}
