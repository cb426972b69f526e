//! What a DeepSeek-V4 checkpoint (`config/deepseek_v4.rs`) stores beside the class's
//! parameters: the routers' persistent buffers (score corrections, the hashed layers'
//! token-to-expert tables), the multi-token-prediction layers (`mtp.{j}`: the token's embedding
//! and the hidden state joined by `e_proj` and `h_proj` after their norms, one layer, its own
//! `hc_head` and norm; they share the embeddings and the head), and, where the release ships its
//! routed experts in FP4, the experts packed two values to a byte with one scale per 32 inputs.
//! The FP8 block scales come from `graph/quantized.rs`.

use super::blocks::{linear, rms_norm};
use super::decoder::base_prefix;
use super::deepseek_v4::{hc_head, layer_of};
use super::{Candidate, Graph, Role, Section, Tensor};
use crate::config::deepseek_v4::DeepseekV4Config;

pub(super) fn checkpoint_candidates(c: &DeepseekV4Config) -> Vec<Candidate> {
    let d = &c.dims;
    let (n, k) = (d.num_experts.unwrap_or(0), d.experts_per_token.unwrap_or(0));
    let p = base_prefix(c.head, "model.");
    let gate = |i: usize, buffer: &str| format!("{p}layers.{i}.mlp.gate.{buffer}");
    let layers = || c.hashed.iter().enumerate();
    let corrections =
        layers().filter(|(_, h)| !**h).map(|(i, _)| (gate(i, "e_score_correction_bias"), vec![n]));
    let tables = layers().filter(|(_, h)| **h).map(|(i, _)| (gate(i, "tid2eid"), vec![d.vocab_size, k]));
    let mut out = vec![
        Candidate::extra(
            "router score-correction biases",
            corrections.collect(),
            "the learned routers register e_score_correction_bias as a persistent buffer: saved with the weights, not a parameter",
        ),
        Candidate::extra(
            "hash routers' token-to-expert tables",
            tables.collect(),
            "the hashed layers' routers register tid2eid (experts per token id) as a persistent buffer: saved with the weights, not a parameter",
        ),
    ];
    let main: Vec<String> = (0..d.num_layers).map(|i| format!("{p}layers.{i}.mlp.experts")).collect();
    let mtp: Vec<String> = (0..c.mtp.len()).map(|j| format!("mtp.{j}.mlp.experts")).collect();
    out.extend(fp4_experts(c, &main, ""));
    out.extend(fp4_experts(c, &mtp, " of the multi-token-prediction layers"));
    out
}

/// FP4 routed experts under each of `blocks`: the class's values less the bytes they are
/// packed into (two to a byte along the input), and one scale per 32 inputs; none unless the
/// config allows FP4 experts and the widths pack evenly.
fn fp4_experts(c: &DeepseekV4Config, blocks: &[String], whose: &str) -> Vec<Candidate> {
    let d = &c.dims;
    let (n, h, f) = (d.num_experts.unwrap_or(0), d.hidden_size, d.intermediate_size);
    if !c.fp4_experts || blocks.is_empty() || h % 32 != 0 || f % 32 != 0 {
        return vec![];
    }
    let shapes = |b: &String, gate_up: u64, down: u64| {
        [(format!("{b}.gate_up_proj"), vec![n, 2 * f, gate_up]), (format!("{b}.down_proj"), vec![n, h, down])]
    };
    let packed = blocks.iter().flat_map(|b| shapes(b, h / 2, f / 2)).collect();
    let scales =
        blocks.iter().flat_map(|b| shapes(b, h / 32, f / 32)).map(|(t, s)| (format!("{t}_scale"), s));
    vec![
        Candidate::missing(
            &format!("FP4 experts packed two to a byte{whose}"),
            packed,
            "the release stores the routed experts in FP4, two values to each stored byte, so the file totals count half of their values",
        ),
        Candidate::extra(
            &format!("FP4 expert scales{whose}"),
            scales.collect(),
            "one E8M0 scale per 32 inputs of each FP4 expert weight, stored beside it and counted in the file totals",
        ),
    ]
}

/// The multi-token-prediction layers, each with the learned router's correction bias.
pub(super) fn prediction_layers(c: &DeepseekV4Config) -> Option<Graph> {
    if c.mtp.is_empty() {
        return None;
    }
    let (h, m, seq) = (c.dims.hidden_size, c.hc_mult, 1);
    let n = c.dims.num_experts.unwrap_or(0);
    let sections = c.mtp.iter().enumerate().map(|(j, kind)| {
        let l = format!("mtp.{j}");
        let mut nodes = vec![
            rms_norm(&format!("{l}.enorm"), "RMSNorm of the token's embedding", &[seq, h], h),
            rms_norm(&format!("{l}.hnorm"), "RMSNorm of the hidden state", &[seq, h], h),
            linear(&format!("{l}.e_proj"), "the embedding's share of the joined state", seq, h, h, false),
            linear(&format!("{l}.h_proj"), "the hidden state's share of the joined state", seq, h, h, false),
        ];
        let mut layer = layer_of(c, &l, *kind, false, seq);
        if let Some(router) = layer.iter_mut().find(|x| x.name == format!("{l}.mlp.gate")) {
            router.params.push(Tensor::new(format!("{l}.mlp.gate.e_score_correction_bias"), &[n]));
        }
        nodes.extend(layer);
        nodes.push(hc_head(&format!("{l}.hc_head"), seq, h, m));
        nodes.push(rms_norm(&format!("{l}.norm"), "RMSNorm before the shared head", &[seq, h], h));
        Section { name: l, role: Role::Layers, repeat: 1, nodes }
    });
    Some(Graph { seq_len: seq, sections: sections.collect() })
}
