//! XLNet's graph, named as `XLNetLMHeadModel`'s modules: `transformer.word_embedding`,
//! `transformer.mask_emb`, per layer `rel_attn` (bare `q`, `k`, `v`, `o`, `r` of
//! `[d_model, n_head, d_head]`, `r_r_bias`, `r_s_bias`, `r_w_bias`, `seg_embed`, `layer_norm`) and
//! `ff` (`layer_norm`, `layer_1`, `layer_2`), then the head. The bare `XLNetModel` drops the
//! `transformer.`. Serving keeps each layer's hidden states (`mems`), `mem_len` of them at most.

use super::blocks::{embedding, layer_norm, linear};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::Dims;
use crate::config::xlnet::{XlnetConfig, XlnetHead};

architecture!(
    XlnetConfig,
    |c| activations: vec![("ff_activation", c.ff_activation.clone())],
    prefixes: ["transformer."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let h = self.d_model;
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.n_layer,
                values_per_token: h,
                window: self.mem_len,
                what: format!("the layer's {h}-wide input states (`mems`), from which keys and values are recomputed"),
            }],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn context_source(&self) -> String {
        "relative positions, which set no length limit: the plan's default length".into()
    }
);

fn no_candidates(_: &XlnetConfig) -> Vec<Candidate> {
    vec![]
}

fn relative_attention(c: &XlnetConfig, a: &str, seq: u64) -> Node {
    let (h, n, hd) = (c.d_model, c.n_head, c.d_head);
    let what =
        format!("{n} heads x {hd}, two-stream relative attention over content, positions and segments");
    let mut tensors: Vec<Tensor> =
        ["q", "k", "v", "o", "r"].iter().map(|p| Tensor::new(format!("{a}.{p}"), &[h, n, hd])).collect();
    tensors.extend(
        ["r_r_bias", "r_s_bias", "r_w_bias"].iter().map(|b| Tensor::new(format!("{a}.{b}"), &[n, hd])),
    );
    tensors.push(Tensor::new(format!("{a}.seg_embed"), &[2, n, hd]));
    Node::new(a, Op::Attention, what, &[seq, h]).with(tensors)
}

fn heads(c: &XlnetConfig, seq: u64) -> Vec<Node> {
    let h = c.d_model;
    match c.head {
        XlnetHead::None => vec![],
        XlnetHead::Lm => {
            let (v, to) = (c.vocab_size, "transformer.word_embedding.weight");
            vec![Node::new("lm_loss", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                tied_if(c.tie_word_embeddings, "lm_loss.weight", &[v, h], to),
                Tensor::new("lm_loss.bias", &[v]),
            ])]
        }
        XlnetHead::Summary { outputs } => {
            let mut nodes: Vec<Node> = c
                .summary_width
                .map(|w| {
                    linear("sequence_summary.summary", "summary of the last token, then tanh", 1, h, w, true)
                })
                .into_iter()
                .collect();
            nodes.push(linear("logits_proj", "class logits", 1, h, outputs, true));
            nodes
        }
        XlnetHead::PerToken { outputs, name } => {
            vec![linear(name, "logits per token", seq, h, outputs, true)]
        }
        XlnetHead::Squad => squad_head("", h, seq),
    }
}

/// The graph of `sections` and a task head's nodes, as one `head` section when there are any.
pub(crate) fn with_head(mut sections: Vec<Section>, head: Vec<Node>, seq: u64) -> Graph {
    if !head.is_empty() {
        sections.push(Section { name: "head".into(), role: Role::Head, repeat: 1, nodes: head });
    }
    Graph { seq_len: seq, sections }
}

/// SQuAD 2.0's head (XLNet's and XLM's): a start pooler, an end pooler over the start's state and
/// an answerability classifier over the start and CLS states, under `at`.
pub(crate) fn squad_head(at: &str, h: u64, seq: u64) -> Vec<Node> {
    let two = h.saturating_mul(2);
    vec![
        linear(&format!("{at}start_logits.dense"), "start logits", seq, h, 1, true),
        linear(&format!("{at}end_logits.dense_0"), "end pooler over the start's state", seq, two, h, true),
        layer_norm(&format!("{at}end_logits.LayerNorm"), "LayerNorm in the end pooler", &[seq, h], h, true),
        linear(&format!("{at}end_logits.dense_1"), "end logits", seq, h, 1, true),
        linear(
            &format!("{at}answer_class.dense_0"),
            "answerability over start and CLS states",
            1,
            two,
            h,
            true,
        ),
        linear(&format!("{at}answer_class.dense_1"), "answerability logit", 1, h, 1, false),
    ]
}

pub fn build(c: &XlnetConfig, seq: u64) -> Graph {
    let p = if c.head == XlnetHead::None { "" } else { "transformer." };
    let (h, v) = (c.d_model, c.vocab_size);
    let mask = format!("{p}mask_emb");
    let embeddings = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{p}word_embedding"), format!("{v} tokens"), seq, v, h),
        Node::new(&mask, Op::Embedding, "the masked positions' query stream", &[seq, h])
            .with([Tensor::new(mask.clone(), &[1, 1, h])]),
    ];
    let l = format!("{p}layer.{{i}}");
    let a = format!("{l}.rel_attn");
    let f = format!("{l}.ff");
    let layer = vec![
        relative_attention(c, &a, seq),
        layer_norm(&format!("{a}.layer_norm"), "LayerNorm after attention", &[seq, h], h, true),
        layer_norm(&format!("{f}.layer_norm"), "LayerNorm after the feed-forward", &[seq, h], h, true),
        linear(&format!("{f}.layer_1"), "feed-forward in, then the activation", seq, h, c.d_inner, true),
        linear(&format!("{f}.layer_2"), "feed-forward out", seq, c.d_inner, h, true),
    ];
    let sections = vec![
        Section { name: format!("{p}embeddings"), role: Role::Embeddings, repeat: 1, nodes: embeddings },
        Section { name: l, role: Role::Layers, repeat: c.n_layer, nodes: layer },
    ];
    with_head(sections, heads(c, seq), seq)
}

impl XlnetConfig {
    fn dims(&self) -> Dims {
        let context = crate::config::ssm::SSM_PLAN_CONTEXT;
        let d = Dims::mha(self.d_model, self.n_layer, self.n_head, self.d_inner, self.vocab_size, context);
        Dims { tie_word_embeddings: self.tie_word_embeddings, layer_norm_eps: 1e-12, ..d }
    }
}
