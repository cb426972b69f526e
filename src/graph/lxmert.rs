//! LXMERT's graph, named as `LxmertForPreTraining`'s modules under `lxmert.`: BERT's
//! `embeddings`, `encoder.visn_fc` (object features and boxes, each projected and normed),
//! `encoder.layer.{i}` (language), `encoder.r_layers.{i}` (objects), `encoder.x_layers.{i}`
//! (`visual_attention` shared by both directions, `lang_self_att`, `visn_self_att`, each side's
//! feed-forward), `pooler`; then `cls`, `obj_predict_head` and `answer_head` as the class holds
//! them. The bare `LxmertModel` drops the `lxmert.`.

use super::blocks::{embedding, layer_norm, linear};
use super::{Candidate, Graph, Node, Op, Role, Section, tied_if};
use crate::config::Dims;
use crate::config::lxmert::{LxmertConfig, LxmertHead};

architecture!(
    LxmertConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["lxmert."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        "max_position_embeddings".into()
    }
);

fn no_candidates(_: &LxmertConfig) -> Vec<Candidate> {
    vec![]
}

fn ln(name: &str, seq: u64, h: u64) -> Node {
    layer_norm(name, "LayerNorm", &[seq, h], h, true)
}

/// `LxmertAttention` under `at` (query, key, value with biases) and its output (`dense`, `LayerNorm`).
fn attention(at: &str, out: &str, what: &str, seq: u64, h: u64) -> Vec<Node> {
    let mut nodes: Vec<Node> = ["query", "key", "value"]
        .iter()
        .map(|p| linear(&format!("{at}.{p}"), &format!("{p} projection"), seq, h, h, true))
        .collect();
    nodes.push(Node::new(at, Op::Attention, what, &[seq, h]));
    nodes.push(linear(&format!("{out}.dense"), "attention output projection", seq, h, h, true));
    nodes.push(ln(&format!("{out}.LayerNorm"), seq, h));
    nodes
}

fn feed_forward(inter: &str, out: &str, seq: u64, h: u64, f: u64) -> Vec<Node> {
    vec![
        linear(&format!("{inter}.dense"), "feed-forward in, then the activation", seq, h, f, true),
        linear(&format!("{out}.dense"), "feed-forward out", seq, f, h, true),
        ln(&format!("{out}.LayerNorm"), seq, h),
    ]
}

/// A BERT layer (`LxmertLayer`): self-attention, then the feed-forward.
fn bert_layer(l: &str, what: &str, seq: u64, h: u64, f: u64) -> Vec<Node> {
    let mut nodes = attention(&format!("{l}.attention.self"), &format!("{l}.attention.output"), what, seq, h);
    nodes.extend(feed_forward(&format!("{l}.intermediate"), &format!("{l}.output"), seq, h, f));
    nodes
}

fn cross_layer(l: &str, seq: u64, h: u64, f: u64) -> Vec<Node> {
    let mut nodes = attention(
        &format!("{l}.visual_attention.att"),
        &format!("{l}.visual_attention.output"),
        "cross-attention, language to objects and back (one module for both)",
        seq,
        h,
    );
    for side in ["lang", "visn"] {
        let s = format!("{l}.{side}_self_att");
        nodes.extend(attention(&format!("{s}.self"), &format!("{s}.output"), "self-attention", seq, h));
    }
    for side in ["lang", "visn"] {
        nodes.extend(feed_forward(&format!("{l}.{side}_inter"), &format!("{l}.{side}_output"), seq, h, f));
    }
    nodes
}

/// `LxmertPredictionHeadTransform`: dense and LayerNorm.
fn transform(at: &str, seq: u64, h: u64) -> [Node; 2] {
    [
        linear(&format!("{at}.transform.dense"), "transform, then the activation", seq, h, h, true),
        ln(&format!("{at}.transform.LayerNorm"), seq, h),
    ]
}

fn answer_head(c: &LxmertConfig) -> Vec<Node> {
    let (h, two, n) = (c.hidden_size, c.hidden_size.saturating_mul(2), c.num_qa_labels);
    vec![
        linear("answer_head.logit_fc.0", "answer MLP in, then GELU", 1, h, two, true),
        layer_norm("answer_head.logit_fc.2", "LayerNorm", &[1, two], two, true),
        linear("answer_head.logit_fc.3", "answer logits", 1, two, n, true),
    ]
}

fn heads(c: &LxmertConfig, seq: u64) -> Vec<Node> {
    let (h, v) = (c.hidden_size, c.vocab_size);
    match &c.head {
        LxmertHead::None => vec![],
        LxmertHead::QuestionAnswering => answer_head(c),
        LxmertHead::PreTraining(p) => {
            let mut nodes = transform("cls.predictions", seq, h).to_vec();
            let to = "lxmert.embeddings.word_embeddings.weight";
            nodes.push(
                Node::new("cls.predictions.decoder", Op::Linear, "masked-token logits", &[seq, v]).with([
                    tied_if(c.tie_word_embeddings, "cls.predictions.decoder.weight", &[v, h], to),
                    super::Tensor::new("cls.predictions.bias", &[v]),
                ]),
            );
            nodes.push(linear("cls.seq_relationship", "matched or not", 1, h, 2, true));
            if let Some(objects) = &p.object_heads {
                nodes.extend(transform("obj_predict_head", seq, h));
                for (key, n) in objects {
                    nodes.push(linear(
                        &format!("obj_predict_head.decoder_dict.{key}"),
                        "object prediction",
                        seq,
                        h,
                        *n,
                        true,
                    ));
                }
            }
            if p.qa {
                nodes.extend(answer_head(c));
            }
            nodes
        }
    }
}

pub fn build(c: &LxmertConfig, seq: u64) -> Graph {
    let p = if c.head == LxmertHead::None { "" } else { "lxmert." };
    let (h, f) = (c.hidden_size, c.ffn);
    let e = format!("{p}embeddings");
    let v = format!("{p}encoder.visn_fc");
    let embeddings = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{e}.word_embeddings"), format!("{} tokens", c.vocab_size), seq, c.vocab_size, h),
        embedding(&format!("{e}.position_embeddings"), "positions", seq, c.max_position_embeddings, h),
        embedding(&format!("{e}.token_type_embeddings"), "token types", seq, c.type_vocab_size, h),
        ln(&format!("{e}.LayerNorm"), seq, h),
        linear(&format!("{v}.visn_fc"), "object features to hidden", seq, c.visual_feat_dim, h, true),
        ln(&format!("{v}.visn_layer_norm"), seq, h),
        linear(&format!("{v}.box_fc"), "object boxes to hidden", seq, c.visual_pos_dim, h, true),
        ln(&format!("{v}.box_layer_norm"), seq, h),
    ];
    let stack =
        |name: String, repeat: u64, nodes: Vec<Node>| Section { name, role: Role::Layers, repeat, nodes };
    let (l, r, x) = (
        format!("{p}encoder.layer.{{i}}"),
        format!("{p}encoder.r_layers.{{i}}"),
        format!("{p}encoder.x_layers.{{i}}"),
    );
    let sections = vec![
        Section { name: e, role: Role::Embeddings, repeat: 1, nodes: embeddings },
        stack(l.clone(), c.l_layers, bert_layer(&l, "language self-attention", seq, h, f)),
        stack(r.clone(), c.r_layers, bert_layer(&r, "object self-attention", seq, h, f)),
        stack(x.clone(), c.x_layers, cross_layer(&x, seq, h, f)),
        Section {
            name: format!("{p}pooler"),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![linear(&format!("{p}pooler.dense"), "pooled first token, then tanh", 1, h, h, true)],
        },
    ];
    with_head(sections, heads(c, seq), seq)
}

impl LxmertConfig {
    fn dims(&self) -> Dims {
        let layers = self.l_layers.saturating_add(self.x_layers);
        let d = Dims::mha(
            self.hidden_size,
            layers,
            self.num_heads,
            self.ffn,
            self.vocab_size,
            self.max_position_embeddings,
        );
        Dims { tie_word_embeddings: self.tie_word_embeddings, layer_norm_eps: 1e-12, ..d }
    }
}

/// The graph of `sections` and a task head's nodes, as one `head` section when there are any.
pub(crate) fn with_head(mut sections: Vec<Section>, head: Vec<Node>, seq: u64) -> Graph {
    if !head.is_empty() {
        sections.push(Section { name: "head".into(), role: Role::Head, repeat: 1, nodes: head });
    }
    Graph { seq_len: seq, sections }
}
