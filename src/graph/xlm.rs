//! XLM's graph, named as `XLMWithLMHeadModel`'s modules: `transformer.position_embeddings`,
//! `lang_embeddings` (when there are languages to embed), `embeddings`, `layer_norm_emb`, and per
//! layer the lists `attentions.{i}` (`q_lin`, `k_lin`, `v_lin`, `out_lin`), `layer_norm1.{i}`,
//! `ffns.{i}` (`lin1`, `lin2`) and `layer_norm2.{i}`; then `pred_layer.proj` (tied unless the
//! file unties it; its bias its own) or a task head. The bare `XLMModel` drops the `transformer.`.

use super::blocks::{embedding, layer_norm, linear};
use super::xlnet::{squad_head, with_head};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::Dims;
use crate::config::xlm::XlmConfig;
use crate::config::xlnet::XlnetHead;

architecture!(
    XlmConfig,
    |_c| activations: vec![],
    prefixes: ["transformer."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        "max_position_embeddings".into()
    }
);

fn no_candidates(_: &XlmConfig) -> Vec<Candidate> {
    vec![]
}

fn heads(c: &XlmConfig, seq: u64) -> Vec<Node> {
    let h = c.dim;
    let summary = c
        .summary_width
        .map(|w| linear("sequence_summary.summary", "summary of the first token", 1, h, w, true));
    match c.head {
        XlnetHead::None => vec![],
        XlnetHead::Lm => {
            let (v, to) = (c.vocab_size, "transformer.embeddings.weight");
            vec![Node::new("pred_layer.proj", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                tied_if(c.tie_word_embeddings, "pred_layer.proj.weight", &[v, h], to),
                Tensor::new("pred_layer.proj.bias", &[v]),
            ])]
        }
        XlnetHead::Summary { outputs: 0 } => summary.into_iter().collect(),
        XlnetHead::Summary { outputs } => {
            let choice = linear("logits_proj", "one logit per choice", 1, outputs, 1, true);
            summary.into_iter().chain([choice]).collect()
        }
        XlnetHead::PerToken { outputs, name } => {
            vec![linear(name, "logits per token", seq, h, outputs, true)]
        }
        XlnetHead::Squad => squad_head("qa_outputs.", h, seq),
    }
}

pub fn build(c: &XlmConfig, seq: u64) -> Graph {
    let p = if c.head == XlnetHead::None { "" } else { "transformer." };
    let (h, v) = (c.dim, c.vocab_size);
    let mut embeddings = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{p}embeddings"), format!("{v} tokens"), seq, v, h),
        embedding(
            &format!("{p}position_embeddings"),
            format!("{} positions", c.max_position_embeddings),
            seq,
            c.max_position_embeddings,
            h,
        ),
    ];
    if let Some(n) = c.languages {
        embeddings.push(embedding(&format!("{p}lang_embeddings"), format!("{n} languages"), seq, n, h));
    }
    embeddings.push(layer_norm(
        &format!("{p}layer_norm_emb"),
        "LayerNorm after the embeddings",
        &[seq, h],
        h,
        true,
    ));
    let ffn = h.saturating_mul(4);
    let a = format!("{p}attentions.{{i}}");
    let mut layer: Vec<Node> = [("q_lin", "query"), ("k_lin", "key"), ("v_lin", "value")]
        .iter()
        .map(|(n, w)| linear(&format!("{a}.{n}"), &format!("{w} projection"), seq, h, h, true))
        .collect();
    layer.push(Node::new(&a, Op::Attention, format!("{} heads, bidirectional", c.n_heads), &[seq, h]));
    layer.push(linear(&format!("{a}.out_lin"), "output projection", seq, h, h, true));
    layer.push(layer_norm(&format!("{p}layer_norm1.{{i}}"), "LayerNorm after attention", &[seq, h], h, true));
    layer.push(linear(
        &format!("{p}ffns.{{i}}.lin1"),
        "feed-forward in, then GELU or ReLU",
        seq,
        h,
        ffn,
        true,
    ));
    layer.push(linear(&format!("{p}ffns.{{i}}.lin2"), "feed-forward out", seq, ffn, h, true));
    layer.push(layer_norm(
        &format!("{p}layer_norm2.{{i}}"),
        "LayerNorm after the feed-forward",
        &[seq, h],
        h,
        true,
    ));
    let sections = vec![
        Section { name: format!("{p}embeddings"), role: Role::Embeddings, repeat: 1, nodes: embeddings },
        Section { name: format!("{p}layers.{{i}}"), role: Role::Layers, repeat: c.n_layers, nodes: layer },
    ];
    with_head(sections, heads(c, seq), seq)
}

impl XlmConfig {
    fn dims(&self) -> Dims {
        let d = Dims::mha(
            self.dim,
            self.n_layers,
            self.n_heads,
            self.dim.saturating_mul(4),
            self.vocab_size,
            self.max_position_embeddings,
        );
        Dims { tie_word_embeddings: self.tie_word_embeddings, layer_norm_eps: 1e-12, ..d }
    }
}
