//! EuroBERT's and UltraBERT's graph, named as transformers' modules: `model.embed_tokens`,
//! `model.layers.{i}` (Llama's `input_layernorm`, `self_attn.{q,k,v,o}_proj`,
//! `post_attention_layernorm`, `mlp.{gate,up,down}_proj`), `model.norm`, and the heads:
//! EuroBERT's `lm_head`, `dense` + `classifier`; UltraBERT's `head.linear1`, `head.linear2`,
//! `head.decoder`, `classifier`, `qa_outputs`.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, token_embeddings};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::QkNorm;
use crate::config::bert::Head;
use crate::config::eurobert::EuroBertConfig;

architecture!(
    EuroBertConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: candidates,
    unscaled_residual_init: true
);

fn layer(c: &EuroBertConfig, l: &str, seq: u64) -> Vec<Node> {
    let h = c.hidden_size;
    let a = format!("{l}.self_attn");
    let mut nodes = vec![rms_norm(&format!("{l}.input_layernorm"), "RMSNorm before attention", &[seq, h], h)];
    nodes.extend(gqa(&Gqa {
        a: &a,
        seq,
        hidden: h,
        heads: c.num_heads,
        kv_heads: c.num_kv_heads,
        head_dim: c.head_dim,
        qkv_bias: c.attention_bias,
        o_bias: c.attention_bias,
        fused_qkv: false,
        qk_norm: QkNorm::None,
        norm_word: "RMSNorm",
        what: "bidirectional, rotary".into(),
    }));
    nodes.push(rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm before the MLP", &[seq, h], h));
    nodes.extend(gated_mlp(
        &format!("{l}.mlp"),
        seq,
        h,
        c.intermediate_size,
        &c.hidden_act,
        c.mlp_bias,
        false,
    ));
    nodes
}

fn head_section(c: &EuroBertConfig, seq: u64, embed: &str) -> Option<Section> {
    let (h, v, n) = (c.hidden_size, c.vocab_size, c.num_labels);
    let (name, nodes) = match (c.head, c.ultra) {
        (Head::MaskedLm, false) => {
            let mut lm = Node::new("lm_head", Op::Linear, "logits over the vocabulary", &[seq, v])
                .with([tied_if(c.tie_word_embeddings, "lm_head.weight", &[v, h], embed)]);
            if c.mlp_bias {
                lm.params.push(Tensor::new("lm_head.bias", &[v]));
            }
            ("lm_head", vec![lm])
        }
        (Head::MaskedLm, true) => {
            let p = c.prediction_head_size;
            let decoder = Node::new("head.decoder", Op::Linear, "logits over the vocabulary", &[seq, v])
                .with([tied_if(c.tie_word_embeddings, "head.decoder.weight", &[v, h], embed)]);
            let nodes = vec![
                linear("head.linear1", "down to the head's width, then GELU (tanh)", seq, h, p, false),
                linear("head.linear2", "back to hidden, then GELU (tanh)", seq, p, h, false),
                decoder,
            ];
            ("head", nodes)
        }
        (Head::SequenceClassification { .. }, false) => (
            "classifier",
            vec![
                linear("dense", "pooled state, dense then GELU", 1, h, h, true),
                linear("classifier", "labels", 1, h, n, true),
            ],
        ),
        (Head::SequenceClassification { .. }, true) => {
            ("classifier", vec![linear("classifier", "labels, from the pooled state", 1, h, n, true)])
        }
        (Head::TokenClassification { .. }, _) => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, n, true)])
        }
        (Head::QuestionAnswering, _) => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, n, true)])
        }
        _ => return None,
    };
    Some(Section { name: name.into(), role: Role::Head, repeat: 1, nodes })
}

pub fn build(c: &EuroBertConfig, seq: u64) -> Graph {
    let p = if c.head == Head::Model { "" } else { "model." };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let embed = format!("{p}embed_tokens");
    let l = format!("{p}layers.{{i}}");
    let norm = format!("{p}norm");
    let mut sections = vec![
        token_embeddings(&embed, seq, v, h),
        Section { name: l.clone(), role: Role::Layers, repeat: c.num_layers, nodes: layer(c, &l, seq) },
        Section {
            name: norm.clone(),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![rms_norm(&norm, "final RMSNorm", &[seq, h], h)],
        },
    ];
    sections.extend(head_section(c, seq, &format!("{embed}.weight")));
    Graph { seq_len: seq, sections }
}

fn candidates(_: &EuroBertConfig) -> Vec<Candidate> {
    vec![]
}
