//! `EncoderDecoderModel`'s graph: the encoder's own graph under `encoder.`, the decoder's under
//! `decoder.` (with the BERT lineage's `crossattention` copied from each layer's attention), and
//! `enc_to_dec_proj` between them when the widths differ.

use super::kv::KvLayout;
use super::{Architecture, Graph, Node, Op, Role, Section};
use crate::config::encoder_decoder::{CrossAttention, EncoderDecoderConfig};

pub(crate) fn moved(mut s: Section, p: &str) -> Section {
    s.name = format!("{p}{}", s.name);
    for n in &mut s.nodes {
        if n.op != Op::Input {
            n.name = format!("{p}{}", n.name);
        }
        for t in &mut n.params {
            t.name = format!("{p}{}", t.name);
            t.tied_to = t.tied_to.as_ref().map(|to| format!("{p}{to}"));
        }
    }
    s
}

/// BertLayer's `crossattention`: the attention module again, under its own name, after it.
fn bert_cross(nodes: &mut Vec<Node>, l: &str) {
    let own = format!("{l}.attention");
    let copy: Vec<Node> = nodes
        .iter()
        .filter(|n| n.name == own || n.name.starts_with(&format!("{own}.")))
        .map(|n| {
            let mut n = n.clone();
            n.name = n.name.replacen(&own, &format!("{l}.crossattention"), 1);
            for t in &mut n.params {
                t.name = t.name.replacen(&own, &format!("{l}.crossattention"), 1);
            }
            if n.op == Op::Attention {
                n.detail = format!("{}; over the encoder's output", n.detail);
            }
            n
        })
        .collect();
    let at = nodes.iter().rposition(|n| n.name.starts_with(&format!("{own}."))).map_or(0, |i| i + 1);
    nodes.splice(at..at, copy);
}

pub fn build(c: &EncoderDecoderConfig, seq: u64) -> Graph {
    let mut sections: Vec<Section> = c
        .encoder
        .graph(seq)
        .sections
        .into_iter()
        .filter(|s| s.role != Role::Head)
        .map(|s| moved(s, "encoder."))
        .collect();
    if let Some((eh, dh)) = c.projection {
        let node = super::blocks::linear(
            "enc_to_dec_proj",
            "encoder states to the decoder's width",
            seq,
            eh,
            dh,
            true,
        );
        sections.push(Section {
            name: "enc_to_dec_proj".into(),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![node],
        });
    }
    for mut s in c.decoder.graph(seq).sections {
        for n in s.nodes.iter_mut().filter(|n| n.op == Op::Input) {
            n.name = format!("decoder_{}", n.name);
        }
        if c.cross == CrossAttention::BertCopy && s.role == Role::Layers && s.name.ends_with(".layer.{i}") {
            let l = s.name.clone();
            bert_cross(&mut s.nodes, &l);
        }
        sections.push(moved(s, "decoder."));
    }
    Graph { seq_len: seq, sections }
}

impl Architecture for EncoderDecoderConfig {
    super::common::wrapper_basics!(decoder);
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec![]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        let d = self.decoder.dims();
        let vpt = 2 * d.num_kv_heads * d.head_dim;
        let what = format!("2 x {} heads x {} head_dim", d.num_kv_heads, d.head_dim);
        Some(super::t5_blocks::encoder_decoder_kv(d.num_layers, vpt, &what))
    }
    fn context_source(&self) -> String {
        format!("the decoder's context (decoder, {})", self.decoder_type)
    }
}
