//! The Qwen4-Exp language-model graph (`config/qwen4_exp.rs`), named as transformers'
//! `Qwen4ExpTextModel` under `model.` in the causal-LM class: per layer its n-gram embeddings
//! where `ple_layer_ids` lists it (`ple`: the hashed n-gram table, a key per residual copy and a
//! shared value, three norms, a dilated depthwise convolution), a gated residual
//! (`attn_hyper_connection`: a norm of the `hc_count` copies, a low-rank mixer, the block's
//! injection weights) before Gated DeltaNet (`linear_attn`) or gated attention with q/k norms and
//! its token indexer (`self_attn`), another before the experts (`mlp_hyper_connection`), the
//! router, stacked experts and the gated shared expert; no final norm, a last mixer
//! (`hyper_connection_mixer`) folding the copies into one. Serving keeps the attention layers'
//! keys, values and indexer keys, and the linear layers' recurrent state.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, stacked_experts, token_embeddings};
use super::decoder::base_prefix;
use super::kv::{KvGroup, KvLayout};
use super::mixers::{delta_net_state, depthwise_conv, gated_delta_net};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::QkNorm;
use crate::config::qwen4_exp::{Ple, Qwen4ExpConfig};

architecture!(
    Qwen4ExpConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: super::common::no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        Some(kv_layout(self))
    }
    fn training_notes(&self) -> Vec<String> {
        vec![format!("The residual stream is kept as {} copies (gated residuals); activations count one.", self.hc_count)]
    }
);

fn kv_layout(c: &Qwen4ExpConfig) -> KvLayout {
    let d = &c.dims;
    let attending = c.linear_layers.iter().filter(|l| !**l).count() as u64;
    let (kv, hd) = (d.num_kv_heads, d.head_dim);
    let index = c.indexer.map_or(0, |i| i.head_dim);
    let groups = vec![KvGroup {
        layers: attending,
        values_per_token: 2 * kv * hd + index,
        window: None,
        what: format!("full attention: 2 x {kv} KV heads x {hd} head_dim + the indexer's key ({index})"),
    }];
    let linear = d.num_layers - attending;
    let recurrent = (linear > 0).then(|| {
        let mut state = delta_net_state(linear, &c.linear);
        if c.ple.iter().any(Option::is_some) {
            state.what.push_str("; the n-gram layers' convolution window and last token ids are left out");
        }
        state
    });
    KvLayout {
        groups: groups.into_iter().filter(|g| g.layers > 0).collect(),
        cross: None,
        cross_fixed_len: None,
        recurrent,
    }
}

/// A gated residual `g` over `m` copies of `h`: a norm of the copies, the low-rank mixer
/// (`input_mix_weight_down`, `input_mix_weight_up`) and, around a block, its injection weights.
fn gated_residual(g: &str, seq: u64, h: u64, m: u64, rank: u64, inject: bool) -> Vec<Node> {
    let w = m * h;
    let mut nodes = vec![
        rms_norm(
            &format!("{g}.hc_norm"),
            &format!("RMSNorm (1 + w) of each of {m} residual copies"),
            &[seq, w],
            w,
        ),
        linear(
            &format!("{g}.input_mix_weight_down"),
            "low-rank mixer of the copies, down",
            seq,
            w,
            rank,
            false,
        ),
        linear(
            &format!("{g}.input_mix_weight_up"),
            "low-rank mixer of the copies, up, a sigmoid",
            seq,
            rank,
            w,
            false,
        ),
    ];
    if inject {
        let what = "the block output's weight into each copy";
        nodes.push(linear(&format!("{g}.block_inject_weight"), what, seq, w, m, false));
    }
    nodes
}

/// A layer's per-layer n-gram embeddings under `p` (`ple`).
fn ple(c: &Qwen4ExpConfig, p: &str, t: Ple, seq: u64) -> Vec<Node> {
    let (h, m, e) = (c.dims.hidden_size, c.hc_count, c.ple_dim);
    let w = m * h;
    let table = format!("{p}.ple_embedding.ngram_embedding");
    let heads = e / t.head_width.max(1);
    let norm = |n: &str, what: &str| rms_norm(&format!("{p}.{n}"), what, &[seq, w], w);
    vec![
        Node::new(
            &table,
            Op::Embedding,
            format!("{heads} hashed n-gram heads of {} over {} rows", t.head_width, t.rows),
            &[seq, e],
        )
        .with([Tensor::new(format!("{table}.weight"), &[t.rows, t.head_width])]),
        linear(&format!("{p}.key_proj"), "a key per residual copy", seq, e, w, false),
        linear(&format!("{p}.value_proj"), "the shared value", seq, e, h, false),
        norm("norm_key", "RMSNorm (1 + w) of the keys"),
        norm("norm_query", "RMSNorm (1 + w) of the residual copies"),
        norm("norm_conv", "RMSNorm (1 + w) of the gated values"),
        depthwise_conv(
            &format!("{p}.conv1d"),
            &format!("dilated ({}) depthwise convolution, then SiLU", c.ngram_size),
            seq,
            w,
            c.ple_kernel,
            false,
        ),
    ]
}

fn attention(c: &Qwen4ExpConfig, a: &str, seq: u64) -> Vec<Node> {
    let d = &c.dims;
    let (heads, hd) = (d.num_heads, d.head_dim);
    let mut nodes = gqa(&Gqa {
        a,
        seq,
        hidden: d.hidden_size,
        heads,
        kv_heads: d.num_kv_heads,
        head_dim: hd,
        qkv_bias: c.attention_bias,
        o_bias: c.attention_bias,
        fused_qkv: false,
        qk_norm: QkNorm::PerHead,
        norm_word: "RMSNorm (1 + w)",
        what: "causal, rotary, over the tokens its indexer selects".into(),
    });
    if let Some(q) = nodes.iter_mut().find(|n| n.name.ends_with(".q_proj")) {
        // The query projection also makes the output gate: twice the rows.
        q.detail = "query projection and the sigmoid output gate".into();
        q.output = vec![seq, 2 * heads * hd];
        q.params.iter_mut().for_each(|t| t.shape[0] *= 2);
    }
    if let Some(x) = c.indexer {
        let i = format!("{a}.indexer");
        let at = nodes.iter().position(|n| n.op == Op::Attention).unwrap_or(nodes.len());
        let (n, w) = (x.heads, x.head_dim);
        let indexer = [
            linear(
                &format!("{i}.index_qk_proj"),
                "indexer queries and its key",
                seq,
                d.hidden_size,
                (n + 1) * w,
                false,
            ),
            rms_norm(&format!("{i}.q_layernorm"), "RMSNorm (1 + w) per indexer query head", &[seq, n * w], w),
            rms_norm(&format!("{i}.k_layernorm"), "RMSNorm (1 + w) of the pooled keys", &[seq, w], w),
        ];
        nodes.splice(at..at, indexer);
    }
    nodes
}

fn layer(c: &Qwen4ExpConfig, l: &str, i: usize, seq: u64) -> Vec<Node> {
    let d = &c.dims;
    let (h, m, r) = (d.hidden_size, c.hc_count, c.hc_lowrank);
    let (n, k) = (d.num_experts.unwrap_or(1), d.experts_per_token.unwrap_or(1));
    let mut nodes = match c.ple.get(i).copied().flatten() {
        Some(t) => ple(c, &format!("{l}.ple"), t, seq),
        None => vec![],
    };
    nodes.extend(gated_residual(&format!("{l}.attn_hyper_connection"), seq, h, m, r, true));
    match c.linear_layers.get(i).copied().unwrap_or(true) {
        true => nodes.extend(gated_delta_net(&format!("{l}.linear_attn"), seq, h, &c.linear, false)),
        false => nodes.extend(attention(c, &format!("{l}.self_attn"), seq)),
    }
    nodes.extend(gated_residual(&format!("{l}.mlp_hyper_connection"), seq, h, m, r, true));
    let b = format!("{l}.mlp");
    nodes.push(linear(&format!("{b}.gate"), &format!("router over {n} experts, top {k}"), seq, h, n, false));
    nodes.extend(stacked_experts(&format!("{b}.experts"), seq, h, d.intermediate_size, n, k));
    nodes.extend(gated_mlp(
        &format!("{b}.shared_expert"),
        seq,
        h,
        c.shared_width,
        &c.hidden_act,
        false,
        false,
    ));
    nodes.push(linear(
        &format!("{b}.shared_expert_gate"),
        "sigmoid gate on the shared expert",
        seq,
        h,
        1,
        false,
    ));
    nodes
}

pub fn build(c: &Qwen4ExpConfig, seq: u64) -> Graph {
    let p = base_prefix(c.head, "model.");
    let d = &c.dims;
    let (h, v) = (d.hidden_size, d.vocab_size);
    let embed = format!("{p}embed_tokens");
    let embed_weight = format!("{embed}.weight");
    let mut sections = vec![token_embeddings(&embed, seq, v, h)];
    let kind = |i: usize| (c.linear_layers.get(i).copied(), c.ple.get(i).copied().flatten());
    sections.extend(super::common::layer_sections(p, d.num_layers, kind, |l, i| layer(c, l, i, seq)));
    let mixer = format!("{p}hyper_connection_mixer");
    sections.push(Section {
        name: mixer.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: gated_residual(&mixer, seq, h, c.hc_count, c.hc_lowrank, false),
    });
    let tied = d.tie_word_embeddings;
    sections.extend(super::common::decoder_head(c.head, &embed_weight, tied, false, seq, h, v));
    Graph { seq_len: seq, sections }
}
