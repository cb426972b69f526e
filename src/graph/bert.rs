//! The BERT-family graph, named exactly as transformers' modules (and so the checkpoint's
//! tensors): `bert.encoder.layer.{i}.attention.self.query`, `lm_head.dense`, `cls.predictions`.

use super::encoder::{BertLayer, bert_embeddings, bert_layer};
use super::release::{DISTANCE, MLM_BIAS, note};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::bert::{BertConfig, Head, PositionEmbedding, Style};
use crate::config::encoders::Norms;
use crate::config::release::Release;

mod candidates;
mod enc4;

pub use candidates::checkpoint_candidates;

architecture!(
    BertConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: [c.desc.prefixes],
    candidates: checkpoint_candidates,
    unscaled_residual_init: true;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let lm = matches!(self.head, Head::MaskedLm | Head::CausalLm | Head::PreTraining);
        let why = [
            (lm && !self.tie_word_embeddings, MLM_BIAS),
            (self.position_embedding != PositionEmbedding::Absolute, DISTANCE),
        ];
        let why = why.into_iter().filter(|(applies, _)| *applies).map(|(_, w)| w).collect();
        note(self, &BertConfig { release: Release::V4, ..self.clone() }, why)
    }
);

/// The encoders' linears all have a bias.
pub(crate) fn linear(name: &str, detail: &str, seq: u64, inp: u64, out: u64) -> Node {
    super::blocks::linear(name, detail, seq, inp, out, true)
}

/// The encoders' LayerNorms are all affine.
pub(crate) fn layer_norm(name: &str, detail: &str, shape: &[u64], width: u64) -> Node {
    super::blocks::layer_norm(name, detail, shape, width, true)
}

/// The prefix under which a head class keeps its encoder (`bert.`, `roberta.`); none for the
/// bare model class.
fn encoder_prefix(c: &BertConfig) -> &'static str {
    if c.head == Head::Model { "" } else { c.desc.module }
}

/// Whether the class builds the pooler. transformers builds it for the bare model and the heads
/// that classify from the pooled [CLS] vector; the others pass `add_pooling_layer=False`.
pub fn has_pooler(c: &BertConfig) -> bool {
    if c.style == Style::BigBird {
        return c.head != Head::QuestionAnswering;
    }
    if c.style == Style::RoFormer || c.head == Head::Model && !c.desc.bare_pooler {
        return false;
    }
    c.desc.pooler_always
        || enc4::enc6::pools(c)
        || c.style != Style::Yoso
            && matches!(
                (c.head, c.style),
                (Head::Model | Head::PreTraining | Head::NextSentencePrediction | Head::MultipleChoice, _)
                    | (Head::SequenceClassification { .. }, Style::Bert)
            )
}

pub fn build(c: &BertConfig, seq: u64) -> Graph {
    let p = encoder_prefix(c);
    let h = c.hidden_size;
    let v = c.vocab_size;
    let word_embeddings = format!("{p}embeddings.word_embeddings.weight");

    let emb = format!("{p}embeddings");
    let sizes = [v, c.max_position_embeddings + c.desc.position_offset, c.type_vocab_size];
    let mut nodes = bert_embeddings(&emb, seq, format!("{v} tokens"), sizes, c.embed_width);
    let norms: &Norms = &c.desc.norms;
    enc4::embeddings(c, &emb, seq, &mut nodes);
    if let Some(tasks) = c.task_types {
        let table = super::embedding(
            &format!("{emb}.task_type_embeddings"),
            format!("{tasks} task types"),
            seq,
            tasks,
            h,
        );
        nodes.insert(nodes.len() - 1, table);
    }
    if let Some(rows) = c.layout_positions {
        // After the 1-D position table, as LayoutLMEmbeddings builds them.
        for (i, axis) in ["x", "y", "h", "w"].into_iter().enumerate() {
            let name = format!("{emb}.{axis}_position_embeddings");
            let table = super::embedding(&name, format!("{rows} 2-D positions ({axis})"), seq, rows, h);
            nodes.insert(3 + i, table);
        }
    }
    if !c.embed_norm {
        nodes.pop();
    }
    enc4::projection(c, p, seq, &mut nodes);
    let mut sections = vec![Section { name: emb.clone(), role: Role::Embeddings, repeat: 1, nodes }];
    let stack = match (c.desc.rotary, c.groups) {
        (Some(_), _) => "layers",
        (None, Some(_)) => "encoder.layers",
        (None, None) => "encoder.layer",
    };
    let l = format!("{p}{stack}.{{i}}");
    // transformers 5.x dropped the relative tables: `position_embedding_type` builds nothing.
    let relative = c.position_embedding != PositionEmbedding::Absolute && c.release == Release::V4;
    let mut nodes = if let Some(r) = c.desc.rotary {
        enc4::rotary_layer(c, r, &l, seq)
    } else if let Some(s) = c.span_conv {
        enc4::span_conv_layer(c, s, &l, seq)
    } else if let Some(g) = c.groups {
        enc4::grouped_layer(c, g, &l, seq)
    } else {
        bert_layer(&BertLayer {
            l: &l,
            seq,
            hidden: h,
            heads: c.num_heads,
            head_dim: c.head_dim(),
            ffn: c.intermediate_size,
            act: &c.hidden_act,
            distance_rows: relative.then(|| 2 * c.max_position_embeddings - 1),
            norms,
        })
    };
    if let (Some(k), Some(attention)) = (c.conv_kernel, nodes.iter_mut().find(|n| n.op == Op::Attention)) {
        // A depthwise convolution over the values, one kernel per head, no bias.
        attention
            .params
            .push(Tensor::new(format!("{l}.attention.self.conv.weight"), &[c.num_heads, 1, k, 1]));
    }
    layer_switches(c, &l, seq, &mut nodes);
    enc4::adapters(c, &l, seq, &mut nodes);
    sections.push(Section { name: l.clone(), role: Role::Layers, repeat: c.num_layers, nodes });
    enc4::contact_head(c, p, &mut sections);
    if c.adapters.as_ref().is_some_and(|a| a.pre_norm) {
        let name = format!("{p}encoder.LayerNorm");
        let nodes = vec![layer_norm(&name, "final norm after the stack (pre_norm)", &[seq, h], h)];
        sections.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    }
    if let Some(last) = norms.last {
        let name = format!("{p}{last}");
        let nodes = vec![layer_norm(&name, "final norm after the stack", &[seq, h], h)];
        sections.push(Section { name, role: Role::Layers, repeat: 1, nodes });
    }

    if has_pooler(c) && c.style == Style::BigBird {
        // BigBird's pooler is a bare nn.Linear, not a module holding `dense`.
        let name = format!("{p}pooler");
        sections.push(Section {
            name: name.clone(),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![linear(&name, "first token's state, dense then tanh", 1, h, h)],
        });
    } else if has_pooler(c) {
        let name = format!("{p}pooler.dense");
        sections.push(Section {
            name: format!("{p}pooler"),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![Node::new(&name, Op::Linear, "first token's state, dense then tanh", &[h]).with([
                Tensor::new(format!("{name}.weight"), &[h, h]),
                Tensor::new(format!("{name}.bias"), &[h]),
            ])],
        });
    }

    let mut head_nodes = head(c, seq, &word_embeddings);
    enc4::head(c, seq, &word_embeddings, &mut head_nodes);
    enc4::enc6::head(c, seq, &mut sections, &mut head_nodes);
    if !head_nodes.is_empty() {
        let name = match (c.head, c.style) {
            (Head::MaskedLm | Head::CausalLm, Style::Roberta) => "lm_head",
            (
                Head::SequenceClassification { .. },
                Style::Roberta | Style::Yoso | Style::BigBird | Style::RoFormer,
            )
            | (
                Head::SequenceClassification { .. } | Head::TokenClassification { .. } | Head::MultipleChoice,
                _,
            ) => "classifier",
            (Head::QuestionAnswering, Style::BigBird) => "qa_classifier",
            (Head::QuestionAnswering, _) => "qa_outputs",
            _ => "cls",
        };
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes: head_nodes });
    }
    Graph { seq_len: seq, sections }
}

/// What a row's switches change in each layer: Longformer's global q, k and v beside the local
/// ones, and BigBird's q, k and v without biases under `use_bias: false`.
fn layer_switches(c: &BertConfig, l: &str, seq: u64, nodes: &mut Vec<Node>) {
    let h = c.hidden_size;
    let all = c.num_heads * c.head_dim();
    if !c.qkv_bias {
        for n in nodes.iter_mut().filter(|n| ["query", "key", "value"].iter().any(|k| n.name.ends_with(k))) {
            n.params.retain(|t| !t.name.ends_with(".bias"));
        }
    }
    if c.desc.global_attention {
        let at = nodes.iter().position(|n| n.op == Op::Attention).unwrap_or(nodes.len());
        for (i, k) in ["query", "key", "value"].into_iter().enumerate() {
            let name = format!("{l}.attention.self.{k}_global");
            nodes.insert(at + i, linear(&name, &format!("{k} projection for global tokens"), seq, h, all));
        }
    }
}

/// The LM head's decoder: tied to the word embeddings unless the config unties it; its bias is
/// the head's own `bias` parameter while the tie holds (always under 4.x, only with
/// `tie_word_embeddings` under 5.x).
fn decoder(name: &str, bias_name: &str, c: &BertConfig, seq: u64, word_embeddings: &str) -> Node {
    let mut weight = Tensor::new(format!("{name}.weight"), &[c.vocab_size, c.embed_width]);
    if c.tie_word_embeddings {
        weight.tied_to = Some(word_embeddings.to_string());
    }
    let mut decoder_bias = Tensor::new(format!("{name}.bias"), &[c.vocab_size]);
    if c.release.ties(c.tie_word_embeddings) {
        decoder_bias.tied_to = Some(bias_name.to_string());
    }
    Node::new(name, Op::Linear, "logits over the vocabulary", &[seq, c.vocab_size]).with([
        weight,
        decoder_bias,
        Tensor::new(bias_name, &[c.vocab_size]),
    ])
}

fn bert_mlm(c: &BertConfig, seq: u64, word_embeddings: &str) -> Vec<Node> {
    if let Some(out) = c.output_width {
        return enc4::projected_mlm(c, seq, out);
    }
    let (h, e) = (c.hidden_size, c.embed_width);
    vec![
        linear("cls.predictions.transform.dense", &format!("dense, then {}", c.hidden_act), seq, h, e),
        layer_norm("cls.predictions.transform.LayerNorm", "norm", &[seq, e], e),
        decoder("cls.predictions.decoder", "cls.predictions.bias", c, seq, word_embeddings),
    ]
}

fn head(c: &BertConfig, seq: u64, word_embeddings: &str) -> Vec<Node> {
    let h = c.hidden_size;
    let nsp = || linear("cls.seq_relationship", "is-next classifier on the pooled vector", 1, h, 2);
    match (c.head, c.style) {
        (Head::Model, _) => vec![],
        (Head::MaskedLm | Head::CausalLm, Style::Bert | Style::Yoso | Style::BigBird | Style::RoFormer) => {
            bert_mlm(c, seq, word_embeddings)
        }
        (Head::MaskedLm | Head::CausalLm, Style::Roberta) => vec![
            linear("lm_head.dense", "dense, then GELU", seq, h, h),
            layer_norm("lm_head.layer_norm", "norm", &[seq, h], h),
            decoder("lm_head.decoder", "lm_head.bias", c, seq, word_embeddings),
        ],
        (Head::PreTraining, _) => {
            let mut nodes = bert_mlm(c, seq, word_embeddings);
            if c.desc.nsp {
                nodes.push(nsp());
            }
            nodes
        }
        (Head::NextSentencePrediction, _) => vec![nsp()],
        (Head::SequenceClassification { num_labels }, Style::Bert) => {
            vec![linear("classifier", "labels from the pooled vector", 1, h, num_labels)]
        }
        (
            Head::SequenceClassification { num_labels },
            Style::Roberta | Style::Yoso | Style::BigBird | Style::RoFormer,
        ) => vec![
            linear("classifier.dense", "first token's state, dense then tanh", 1, h, h),
            linear("classifier.out_proj", "labels", 1, h, num_labels),
        ],
        (Head::TokenClassification { num_labels }, _) => {
            vec![linear("classifier", "a label per token", seq, h, num_labels)]
        }
        (Head::QuestionAnswering, Style::BigBird) => vec![
            linear(
                "qa_classifier.intermediate.dense",
                &format!("up projection, then {}", c.hidden_act),
                seq,
                h,
                c.intermediate_size,
            ),
            linear("qa_classifier.output.dense", "down projection", seq, c.intermediate_size, h),
            layer_norm("qa_classifier.output.LayerNorm", "residual add, then norm", &[seq, h], h),
            linear("qa_classifier.qa_outputs", "span start and end logits", seq, h, c.num_labels),
        ],
        (Head::QuestionAnswering, _) => {
            vec![linear("qa_outputs", "span start and end logits", seq, h, c.num_labels)]
        }
        (Head::MultipleChoice, Style::Yoso) => vec![
            linear("pre_classifier", "first token's state, dense then ReLU", 1, h, h),
            linear("classifier", "a score per choice", 1, h, 1),
        ],
        (Head::MultipleChoice, _) => vec![linear("classifier", "a score per choice", 1, h, 1)],
    }
}
