//! The blocks one type of the BART lineage adds: LED's Longformer encoder attention and MVP's
//! decoder prompts.

use super::linear;
use crate::config::bart::BartConfig;
use crate::graph::{Node, Op, Tensor};

/// LED's encoder self-attention: Longformer's query, key and value, their global twins, and an
/// output projection, in place of BART's q/k/v/out.
pub(super) fn longformer(layer: Vec<Node>, l: &str, seq: u64, h: u64) -> Vec<Node> {
    let names = ["query", "key", "value", "query_global", "key_global", "value_global"];
    let what = "sliding-window (attention_window) plus global tokens";
    renamed_attention(layer, l, "longformer_self_attn", &names, Some(what), seq, h)
}

/// A layer's self-attention rebuilt under another module's names: the projections `names` under
/// `self_attn.{inner}`, the attention itself there, then `self_attn.output`; the rest of the
/// layer kept. LED's Longformer and BigBird-Pegasus's encoder attention.
pub(crate) fn renamed_attention(
    layer: Vec<Node>,
    l: &str,
    inner: &str,
    names: &[&str],
    what: Option<&str>,
    seq: u64,
    h: u64,
) -> Vec<Node> {
    let at = format!("{l}.self_attn.{inner}");
    let mut nodes: Vec<Node> = names
        .iter()
        .map(|w| {
            linear(&format!("{at}.{w}"), &format!("{} projection", w.replace('_', " ")), seq, h, h, true)
        })
        .collect();
    let mut attn = layer.iter().find(|n| n.op == Op::Attention).cloned();
    if let Some(a) = attn.as_mut() {
        a.name.clone_from(&at);
        if let Some(what) = what {
            a.detail = format!("{}; {what}", a.detail);
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

/// MVP's decoder prompts: per attention kind, `prompt_length` learned vectors mapped by a
/// two-layer MLP to a key and a value per decoder layer. MvpModel passes `use_prompt` to the
/// encoder in the slot of its embedding table, so only the decoder holds them.
pub(super) fn prompts(c: &BartConfig, dec: &str, (len, mid): (u64, u64)) -> Vec<Node> {
    let h = c.d_model;
    let out = c.decoder_layers.saturating_mul(2).saturating_mul(h);
    ["self_attn_prompt", "cross_attn_prompt"]
        .iter()
        .flat_map(|kind| {
            let at = format!("{dec}.{kind}");
            [
                Node::new(
                    format!("{at}.prompt_embedding"),
                    Op::Embedding,
                    format!("{len} prompt vectors"),
                    &[len, h],
                )
                .with([Tensor::new(format!("{at}.prompt_embedding.weight"), &[len, h])]),
                linear(&format!("{at}.prompt_trans.0"), "prompt MLP, then GELU", len, h, mid, true),
                linear(
                    &format!("{at}.prompt_trans.2"),
                    "a key and a value per decoder layer",
                    len,
                    mid,
                    out,
                    true,
                ),
            ]
        })
        .collect()
}
