//! Switch Transformers' sparse feed-forward, the one block of the T5 lineage T5 itself lacks, and
//! the router it shares with NLLB-MoE.

use super::Candidate;
use super::kv::{KvGroup, KvLayout};
use super::t5::base_prefix;
use super::t5::linear;
use super::{Node, Op, Role, Section, Tensor};
use crate::config::release::Release;
use crate::config::t5::{BiasLayout, Head, SwitchLayers, T5Config};

/// `mlp.router.classifier` picks one of `num_experts` copies of the dense `wi`/`wo` MLP
/// (`mlp.experts.expert_{e}`) per token.
pub(super) fn switch_experts(c: &T5Config, s: SwitchLayers, at: &str, seq: u64) -> Vec<Node> {
    let (h, ff, n) = (c.d_model, c.d_ff, s.num_experts);
    let e = format!("{at}.experts.expert_{{e}}");
    vec![
        router(&format!("{at}.router.classifier"), "top-1", n, h, s.router_bias, seq),
        linear(
            &format!("{e}.wi"),
            &format!("expert up projection, then {}", c.feed_forward_proj),
            seq,
            h,
            ff,
        )
        .experts(n, 1),
        linear(&format!("{e}.wo"), "expert down projection", seq, ff, h).experts(n, 1),
    ]
}

/// The `router.classifier` of Switch's and NLLB-MoE's sparse layers: d -> one logit per expert.
pub(super) fn router(name: &str, top: &str, n: u64, h: u64, bias: bool, seq: u64) -> Node {
    let mut node = Node::new(name, Op::Linear, format!("{top} router over {n} experts"), &[seq, n])
        .with([Tensor::new(format!("{name}.weight"), &[n, h])]);
    if bias {
        node.params.push(Tensor::new(format!("{name}.bias"), &[n]));
    }
    node
}

/// A stack whose layers differ by `sparse(i)`: the run of like layers from layer 0 repeats as
/// `{at}.{i}`, later layers are named one by one (`{at}.5`), each built by `layer(name, sparse)`.
pub(super) fn layer_runs(
    at: &str,
    layers: u64,
    sparse: impl Fn(u64) -> bool,
    layer: impl Fn(&str, bool) -> Vec<Node>,
) -> Vec<Section> {
    let first_run = (0..layers).take_while(|i| sparse(*i) == sparse(0)).count() as u64;
    let run = format!("{at}.{{i}}");
    let nodes = layer(&run, sparse(0));
    let mut out = vec![Section { name: run, role: Role::Layers, repeat: first_run, nodes }];
    for i in first_run..layers {
        let name = format!("{at}.{i}");
        let nodes = layer(&name, sparse(i));
        out.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    }
    out
}

/// An encoder-decoder's cache: per decoder layer, its own keys and values and those of the
/// cross-attention over the encoder's tokens, `values_per_token` each (`what` says the shape).
pub(super) fn encoder_decoder_kv(layers: u64, values_per_token: u64, what: &str) -> KvLayout {
    let g = |what: String| KvGroup { layers, values_per_token, window: None, what };
    KvLayout {
        groups: vec![g(format!("decoder self-attention: {what}"))],
        cross: Some(g(format!("cross-attention over the encoder's tokens: {what}"))),
        cross_fixed_len: None,
        recurrent: None,
    }
}

/// Tensors a checkpoint of this family may hold that the class does not, with the reason for
/// each. Sizes come from the config.
pub fn checkpoint_candidates(c: &T5Config) -> Vec<Candidate> {
    let p = base_prefix(c);
    let (h, v) = (c.d_model, c.vocab_size);
    let mut out = vec![];
    if c.release == Release::V5 && !c.ties_head() {
        // Each stack's own table is a parameter then, not a second copy of `shared`.
        return out;
    }
    let mut embeds = vec![(format!("{p}encoder.embed_tokens.weight"), vec![v, h])];
    if c.has_decoder() {
        embeds.push((format!("{p}decoder.embed_tokens.weight"), vec![v, h]));
    }
    out.push(Candidate::extra(
        "embed_tokens stored per stack",
        embeds,
        "each stack's embed_tokens is the `shared` table itself, but pytorch_model.bin checkpoints store it again under each stack's name",
    ));
    if c.has_decoder() && c.bias_layout == BiasLayout::FirstLayer {
        out.push(Candidate::extra(
            "cross-attention position bias",
            vec![(
                format!("{p}decoder.block.0.layer.1.EncDecAttention.relative_attention_bias.weight"),
                vec![c.relative_attention_num_buckets, c.num_heads],
            )],
            "a relative-position table in the first decoder block's cross-attention that early checkpoints saved; transformers ignores it on load (_keys_to_ignore_on_load_unexpected)",
        ));
    }
    match c.head {
        Head::ConditionalGeneration if c.ties_head() => out.push(Candidate::extra(
            "tied LM head stored twice",
            vec![("lm_head.weight".into(), vec![v, h])],
            "the LM head is tied to `shared`, but the checkpoint stores the matrix a second time",
        )),
        Head::ConditionalGeneration => {}
        _ if !c.tie_word_embeddings => out.push(Candidate::extra(
            "untied LM head",
            vec![("lm_head.weight".into(), vec![v, h])],
            "the untied LM head of the ForConditionalGeneration checkpoint; this class has no LM head and drops it",
        )),
        _ => {}
    }
    out
}
