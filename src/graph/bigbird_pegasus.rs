//! BigBird-Pegasus's graph: the BART lineage's pre-LN stacks (`graph/bart.rs`) with BigBird's
//! encoder attention (`self_attn.self.{query,key,value}`, `self_attn.output`), every attention
//! projection's bias following `use_bias`, and the norm closing each stack named
//! `layernorm_embedding`; the causal-LM class's head is never tied.

use super::Graph;
use super::bart::{layer_norm, renamed_attention};
use crate::config::bart::Head;
use crate::config::seq2seq_misc::BigBirdPegasusConfig;

super::nllb_moe::bart_extension!(BigBirdPegasusConfig);

pub fn build(c: &BigBirdPegasusConfig, seq: u64) -> Graph {
    let mut g = super::bart::build(&c.bart, seq);
    let h = c.bart.d_model;
    for s in &mut g.sections {
        if s.name.ends_with("encoder.layers.{i}") {
            let l = s.name.clone();
            // BigBirdPegasusEncoderAttention: BART's four matrices under BigBird's names.
            let what = c.block_sparse.then_some("block-sparse (window, global and random blocks)");
            let layer = std::mem::take(&mut s.nodes);
            s.nodes = renamed_attention(layer, &l, "self", &["query", "key", "value"], what, seq, h);
        }
        if let Some(stack) = s.name.strip_suffix(".layer_norm") {
            let name = format!("{stack}.layernorm_embedding");
            s.nodes = vec![layer_norm(&name, "the stack's output", seq, h)];
            s.name = name;
        }
        // BigBirdPegasusForCausalLM declares no tied weights: its head is its own at any flag.
        if c.bart.head == Head::CausalLm {
            s.nodes.iter_mut().flat_map(|n| n.params.iter_mut()).for_each(|t| t.tied_to = None);
        }
        if !c.use_bias {
            for n in s.nodes.iter_mut().filter(|n| n.name.contains("attn.")) {
                n.params.retain(|t| !t.name.ends_with(".bias"));
            }
        }
    }
    g
}
