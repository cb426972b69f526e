//! BigBird-Pegasus's graph: the BART lineage's pre-LN stacks (`graph/bart.rs`) with BigBird's
//! encoder attention (`self_attn.self.{query,key,value}`, `self_attn.output`), every attention
//! projection's bias following `use_bias`, and the norm closing each stack named
//! `layernorm_embedding`; the causal-LM class's head is never tied.

use super::bart::{layer_norm, linear};
use super::{Graph, Node, Op};
use crate::config::bart::Head;
use crate::config::seq2seq_misc::BigBirdPegasusConfig;

super::nllb_moe::bart_extension!(BigBirdPegasusConfig);

/// BigBirdPegasusEncoderAttention in place of BART's q/k/v/out: the same four matrices under
/// BigBird's names.
fn bigbird_attention(layer: Vec<Node>, l: &str, c: &BigBirdPegasusConfig, seq: u64) -> Vec<Node> {
    let h = c.bart.d_model;
    let at = format!("{l}.self_attn.self");
    let mut nodes: Vec<Node> = ["query", "key", "value"]
        .iter()
        .map(|w| linear(&format!("{at}.{w}"), &format!("{w} projection"), seq, h, h, true))
        .collect();
    let mut attn = layer.iter().find(|n| n.op == Op::Attention).cloned();
    if let Some(a) = attn.as_mut() {
        a.name.clone_from(&at);
        if c.block_sparse {
            a.detail = format!("{}; block-sparse (window, global and random blocks)", a.detail);
        }
    }
    nodes.extend(attn);
    nodes.push(linear(&format!("{l}.self_attn.output"), "attention output projection", seq, h, h, true));
    let own = format!("{l}.self_attn.");
    nodes.extend(
        layer.into_iter().filter(|n| !n.name.starts_with(&own) && n.name != format!("{l}.self_attn")),
    );
    nodes
}

pub fn build(c: &BigBirdPegasusConfig, seq: u64) -> Graph {
    let mut g = super::bart::build(&c.bart, seq);
    let h = c.bart.d_model;
    for s in &mut g.sections {
        if s.name.ends_with("encoder.layers.{i}") {
            let l = s.name.clone();
            s.nodes = bigbird_attention(std::mem::take(&mut s.nodes), &l, c, seq);
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
