//! The ALBERT graph, named as transformers' modules:
//! `albert.encoder.albert_layer_groups.{i}.albert_layers.0.attention.query`, `predictions.decoder`.
//!
//! The layer section repeats once per layer *group* (its parameters), not once per layer
//! application: the count must equal transformers', where a shared layer is one set of tensors.
//! How often the forward pass runs each group is said in the nodes' detail.

use super::bert::{layer_norm, linear};
use super::common::{
    BEFORE_4_31, dropped_mlm_head, pooler_candidate, position_ids_buffer, push_head,
    tied_decoder_stored_twice, token_span_choice_head,
};
use super::encoder::bert_embeddings;
use super::release::{DISTANCE, MLM_BIAS, decoder_bias_candidate, note};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, shapes, tied_if};
use crate::config::albert::AlbertConfig;
use crate::config::bert::{Head, PositionEmbedding};
use crate::config::release::Release;

architecture!(
    AlbertConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["albert."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let why = [
            ((matches!(self.head, Head::MaskedLm | Head::PreTraining)) && !self.tie_word_embeddings, MLM_BIAS),
            (self.position_embedding != PositionEmbedding::Absolute, DISTANCE),
        ];
        let why = why.into_iter().filter(|(applies, _)| *applies).map(|(_, w)| w).collect();
        note(self, &AlbertConfig { release: Release::V4, ..self.clone() }, why)
    }
);

fn prefix(c: &AlbertConfig) -> &'static str {
    if c.head == Head::Model { "" } else { "albert." }
}

/// The bare model and the heads that classify from the pooled first token build the pooler;
/// the others pass `add_pooling_layer=False`.
pub fn has_pooler(c: &AlbertConfig) -> bool {
    matches!(
        c.head,
        Head::Model | Head::PreTraining | Head::SequenceClassification { .. } | Head::MultipleChoice
    )
}

/// How the forward pass walks the groups: layer `i` runs group `int(i / (layers / groups))`.
fn applications(c: &AlbertConfig) -> String {
    let (n, g) = (c.num_layers, c.num_groups);
    if g == 1 {
        format!("one set of weights applied {n} times (layers shared across depth)")
    } else if n.is_multiple_of(g) {
        format!("{g} groups, each applied {} times in turn ({n} layer passes)", n / g)
    } else {
        format!("{g} groups shared by {n} layer passes (group of layer i: int(i / ({n} / {g})))")
    }
}

pub fn build(c: &AlbertConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let emb = format!("{p}embeddings");
    let word = format!("{emb}.word_embeddings.weight");
    let sizes = [v, c.max_position_embeddings, c.type_vocab_size];
    let mut sections = vec![
        Section {
            name: emb.clone(),
            role: Role::Embeddings,
            repeat: 1,
            nodes: bert_embeddings(&emb, seq, format!("{v} tokens, width {e}"), sizes, e),
        },
        Section {
            name: format!("{p}encoder.embedding_hidden_mapping_in"),
            role: Role::Embeddings,
            repeat: 1,
            nodes: vec![linear(
                &format!("{p}encoder.embedding_hidden_mapping_in"),
                &format!("factorised embeddings: width {e} projected to the hidden size {h}"),
                seq,
                e,
                h,
            )],
        },
    ];
    let group = format!("{p}encoder.albert_layer_groups.{{i}}");
    let heads = c.num_heads;
    let hd = h / heads;
    // The config has `embedding_size`, so transformers does not refuse heads that do not divide
    // the hidden size: q, k and v project to heads x floor(hidden / heads).
    let all = heads * hd;
    let shared = applications(c);
    let mut nodes = vec![];
    for j in 0..c.inner_group_num {
        let l = format!("{group}.albert_layers.{j}");
        let mut attention = Node::new(
            format!("{l}.attention"),
            Op::Attention,
            format!("{heads} heads x {hd}, bidirectional, softmax(QK^T / sqrt({hd}))V; {shared}"),
            &[seq, h],
        );
        if c.position_embedding != PositionEmbedding::Absolute && c.release == Release::V4 {
            attention.params.push(Tensor::new(
                format!("{l}.attention.distance_embedding.weight"),
                &[2 * c.max_position_embeddings - 1, hd],
            ));
        }
        let ffn = c.intermediate_size;
        nodes.extend([
            linear(&format!("{l}.attention.query"), "query projection", seq, h, all),
            linear(&format!("{l}.attention.key"), "key projection", seq, h, all),
            linear(&format!("{l}.attention.value"), "value projection", seq, h, all),
            attention,
            linear(&format!("{l}.attention.dense"), "attention output projection", seq, h, h),
            layer_norm(&format!("{l}.attention.LayerNorm"), "residual add, then norm", &[seq, h], h),
            linear(&format!("{l}.ffn"), &format!("up projection, then {}", c.hidden_act), seq, h, ffn),
            linear(&format!("{l}.ffn_output"), "down projection", seq, ffn, h),
            layer_norm(&format!("{l}.full_layer_layer_norm"), "residual add, then norm", &[seq, h], h),
        ]);
    }
    sections.push(Section { name: group, role: Role::Layers, repeat: c.num_groups, nodes });
    if has_pooler(c) {
        sections.push(Section {
            name: format!("{p}pooler"),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![linear(&format!("{p}pooler"), "first token's state, dense then tanh", 1, h, h)],
        });
    }
    let mlm = || {
        vec![
            linear("predictions.dense", &format!("dense to width {e}, then {}", c.hidden_act), seq, h, e),
            layer_norm("predictions.LayerNorm", "norm", &[seq, e], e),
            Node::new("predictions.decoder", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                tied_if(c.tie_word_embeddings, "predictions.decoder.weight", &[v, e], &word),
                tied_if(
                    c.release.ties(c.tie_word_embeddings),
                    "predictions.decoder.bias",
                    &[v],
                    "predictions.bias",
                ),
                Tensor::new("predictions.bias", &[v]),
            ]),
        ]
    };
    let (name, nodes) = match c.head {
        Head::Model | Head::CausalLm | Head::NextSentencePrediction => ("", vec![]),
        Head::MaskedLm => ("predictions", mlm()),
        Head::PreTraining => {
            let mut nodes = mlm();
            nodes.push(linear(
                "sop_classifier.classifier",
                "sentence-order prediction on the pooled vector",
                1,
                h,
                c.num_labels,
            ));
            ("predictions", nodes)
        }
        Head::SequenceClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "labels from the pooled vector", 1, h, num_labels)])
        }
        other => token_span_choice_head(other, seq, h, c.num_labels),
    };
    push_head(&mut sections, name, nodes);
    Graph { seq_len: seq, sections }
}

fn candidates(c: &AlbertConfig) -> Vec<Candidate> {
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let mut out = vec![position_ids_buffer("albert.", c.max_position_embeddings, BEFORE_4_31)];
    let pooler = shapes([("albert.pooler.weight".into(), &[h, h]), ("albert.pooler.bias".into(), &[h])]);
    let dropped =
        "the pooler of the pre-training class; this class is built with add_pooling_layer=False and drops it";
    out.push(pooler_candidate(has_pooler(c), pooler, dropped));
    if matches!(c.head, Head::MaskedLm | Head::PreTraining) {
        if c.tie_word_embeddings {
            out.push(tied_decoder_stored_twice("predictions.decoder.weight", v, e));
        }
        let tied = c.release.ties(c.tie_word_embeddings);
        out.push(decoder_bias_candidate(tied, "predictions.decoder.bias", "predictions.bias", v));
    } else {
        let names = ["predictions.dense", "predictions.LayerNorm", "predictions.bias"];
        let why = "the masked-LM head from pre-training (its decoder is tied to the embeddings); this class drops it";
        out.push(dropped_mlm_head(names, [h, e, v], why));
    }
    if c.head != Head::PreTraining {
        out.push(Candidate::extra(
            "sentence-order head",
            shapes([
                ("sop_classifier.classifier.weight".into(), &[2, h]),
                ("sop_classifier.classifier.bias".into(), &[2]),
            ]),
            "the sentence-order-prediction head of AlbertForPreTraining; this class has no use for it",
        ));
    }
    out
}
