//! Helpers for decoders described by their own readers (DeepSeek-V4, Qwen4-Exp, ZAYA): layer runs
//! as sections, and the causal-LM head.

use super::{Node, Role, Section};
use crate::config::decoder::DecoderHead;

/// A decoder's layers under `p` (`model.`) as sections: the run of layers like layer 0 (by
/// `kind`) repeats as `layers.{i}`, the others are named one by one; `layer(name, i)` builds
/// layer `i` under `name`.
pub(crate) fn layer_sections<K: PartialEq>(
    p: &str,
    layers: u64,
    kind: impl Fn(usize) -> K,
    layer: impl Fn(&str, usize) -> Vec<Node>,
) -> Vec<Section> {
    let first_run = (0..layers as usize).take_while(|i| kind(*i) == kind(0)).count();
    let mut sections = vec![];
    if first_run > 0 {
        let l = format!("{p}layers.{{i}}");
        let nodes = layer(&l, 0);
        sections.push(Section { name: l, role: Role::Layers, repeat: first_run as u64, nodes });
    }
    for i in first_run..layers as usize {
        let l = format!("{p}layers.{i}");
        sections.push(Section { name: l.clone(), role: Role::Layers, repeat: 1, nodes: layer(&l, i) });
    }
    sections
}

/// The head of a decoder class whose causal-LM head is `lm_head` (a bias where `bias`), tied to
/// `embed` where `tied`; none for the bare model.
pub(crate) fn decoder_head(
    head: DecoderHead,
    embed: &str,
    tied: bool,
    bias: bool,
    seq: u64,
    h: u64,
    v: u64,
) -> Option<Section> {
    let names = super::blocks::HeadNames {
        lm: "lm_head",
        lm_bias: bias,
        lm_note: String::new(),
        token: "score",
        score_rows: None,
        tied_to: tied.then_some(embed),
    };
    super::blocks::head_section(head, &names, seq, h, v)
}
