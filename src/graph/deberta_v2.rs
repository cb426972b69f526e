//! The DeBERTa-v2 graph, named as transformers' modules:
//! `deberta.encoder.layer.{i}.attention.self.query_proj`, `deberta.encoder.rel_embeddings`,
//! `cls.predictions.decoder`.

use super::bert::{layer_norm, linear};
use super::common::{
    bert_layer_tail, dropped_mlm_head, push_head, tied_decoder_stored_twice, token_span_choice_head,
};
use super::release::{MLM_BIAS, note};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, embedding, shapes, tied_if};
use crate::config::bert::Head;
use crate::config::deberta_v2::{DebertaV2Config, Version};
use crate::config::release::Release;

mod v1;

architecture!(
    DebertaV2Config,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["deberta."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let why = [
            ((self.head == Head::MaskedLm && self.legacy) && !self.tie_word_embeddings, MLM_BIAS),
        ];
        let why = why.into_iter().filter(|(applies, _)| *applies).map(|(_, w)| w).collect();
        note(self, &DebertaV2Config { release: Release::V4, ..self.clone() }, why)
    }
);

fn prefix(c: &DebertaV2Config) -> &'static str {
    if c.head == Head::Model { "" } else { "deberta." }
}

pub fn build(c: &DebertaV2Config, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let emb = format!("{p}embeddings");
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        embedding(&format!("{emb}.word_embeddings"), format!("{v} tokens"), seq, v, e),
    ];
    if c.position_biased_input {
        nodes.push(embedding(
            &format!("{emb}.position_embeddings"),
            format!("{} absolute positions, learned", c.max_position_embeddings),
            seq,
            c.max_position_embeddings,
            e,
        ));
    }
    if c.type_vocab_size > 0 {
        nodes.push(embedding(
            &format!("{emb}.token_type_embeddings"),
            format!("{} token types", c.type_vocab_size),
            seq,
            c.type_vocab_size,
            e,
        ));
    }
    if e != h {
        let name = format!("{emb}.embed_proj");
        nodes.push(
            Node::new(
                &name,
                Op::Linear,
                format!("width {e} projected to the hidden size {h}, no bias"),
                &[seq, h],
            )
            .with([Tensor::new(format!("{name}.weight"), &[h, e])]),
        );
    }
    nodes.push(layer_norm(&format!("{emb}.LayerNorm"), "embeddings normalised", &[seq, h], h));
    let mut sections = vec![Section { name: emb.clone(), role: Role::Embeddings, repeat: 1, nodes }];

    // Encoder-level tensors, used by every layer: the relative position table and its norm, and
    // the convolution applied beside the first layer's output.
    let enc = format!("{p}encoder");
    let mut shared = vec![];
    if c.relative_attention {
        shared.push(embedding(
            &format!("{enc}.rel_embeddings"),
            format!("{} relative positions, shared by all layers", c.rel_embeddings),
            c.rel_embeddings,
            c.rel_embeddings,
            h,
        ));
    }
    if c.norm_rel_ebd_layer_norm {
        shared.push(layer_norm(
            &format!("{enc}.LayerNorm"),
            "norm of the relative embeddings",
            &[c.rel_embeddings, h],
            h,
        ));
    }
    if let Some((k, g)) = c.conv {
        let name = format!("{enc}.conv.conv");
        shared.push(
            Node::new(
                &name,
                Op::Linear,
                format!("Conv1d kernel {k}, {g} groups, then {}", c.conv_act),
                &[seq, h],
            )
            .with([
                Tensor::new(format!("{name}.weight"), &[h, h / g, k]),
                Tensor::new(format!("{name}.bias"), &[h]),
            ]),
        );
        shared.push(layer_norm(&format!("{enc}.conv.LayerNorm"), "residual add, then norm", &[seq, h], h));
    }
    if !shared.is_empty() {
        sections.push(Section { name: enc.clone(), role: Role::Layers, repeat: 1, nodes: shared });
    }

    let l = format!("{enc}.layer.{{i}}");
    let (heads, hd, ffn) = (c.num_heads, c.attention_head_size, c.intermediate_size);
    let all = heads * hd;
    let a = format!("{l}.attention.self");
    let mut layer = match c.version {
        Version::V2 => vec![
            linear(&format!("{a}.query_proj"), "query projection", seq, h, all),
            linear(&format!("{a}.key_proj"), "key projection", seq, h, all),
            linear(&format!("{a}.value_proj"), "value projection", seq, h, all),
        ],
        Version::V1 => v1::projections(c, &a, seq),
    };
    if c.version == Version::V2 && c.pos_proj("c2p") {
        layer.push(linear(
            &format!("{a}.pos_key_proj"),
            "relative positions as keys (c2p)",
            c.rel_embeddings,
            h,
            all,
        ));
    }
    if c.version == Version::V2 && c.pos_proj("p2c") {
        layer.push(linear(
            &format!("{a}.pos_query_proj"),
            "relative positions as queries (p2c)",
            c.rel_embeddings,
            h,
            all,
        ));
    }
    let terms = if c.relative_attention && !c.pos_att_type.is_empty() {
        format!("content + {}", c.pos_att_type.join(" + "))
    } else {
        "content only".to_string()
    };
    let keys = if c.relative_attention && c.share_att_key {
        ", position keys share the content projections"
    } else {
        ""
    };
    let what = format!("{heads} heads x {hd}, disentangled: {terms}{keys}");
    layer.push(Node::new(&a, Op::Attention, what, &[seq, all]));
    let tail = [format!("{l}.attention.output.dense"), format!("{l}.attention.output.LayerNorm")];
    layer.extend(bert_layer_tail(&l, tail, [seq, h, ffn], &c.hidden_act));
    if let (true, Some(attention)) = (c.talking_head, layer.iter_mut().find(|n| n.op == Op::Attention)) {
        // Mixes the heads' scores and then their weights, no bias.
        for name in ["head_logits_proj", "head_weights_proj"] {
            attention.params.push(Tensor::new(format!("{a}.{name}.weight"), &[heads, heads]));
        }
    }
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes: layer });

    let ph = c.pooler_hidden_size;
    if matches!(c.head, Head::SequenceClassification { .. } | Head::MultipleChoice) {
        sections.push(Section {
            name: "pooler".into(),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![linear("pooler.dense", "first token's state, dense then GELU", 1, ph, ph)],
        });
    }
    let word = format!("{emb}.word_embeddings.weight");
    let (name, nodes) = match c.head {
        Head::Model | Head::CausalLm | Head::PreTraining | Head::NextSentencePrediction => ("", vec![]),
        Head::MaskedLm if c.legacy => (
            "cls",
            vec![
                linear(
                    "cls.predictions.transform.dense",
                    &format!("dense to width {e}, then {}", c.hidden_act),
                    seq,
                    h,
                    e,
                ),
                layer_norm("cls.predictions.transform.LayerNorm", "norm", &[seq, e], e),
                Node::new("cls.predictions.decoder", Op::Linear, "logits over the vocabulary", &[seq, v])
                    .with([
                        tied_if(c.tie_word_embeddings, "cls.predictions.decoder.weight", &[v, e], word),
                        tied_if(
                            c.release.ties(c.tie_word_embeddings),
                            "cls.predictions.decoder.bias",
                            &[v],
                            "cls.predictions.bias",
                        ),
                        Tensor::new("cls.predictions.bias", &[v]),
                    ]),
            ],
        ),
        Head::MaskedLm => (
            "lm_predictions",
            vec![
                linear("lm_predictions.lm_head.dense", &format!("dense, then {}", c.hidden_act), seq, h, h),
                layer_norm("lm_predictions.lm_head.LayerNorm", "norm", &[seq, h], h),
                Node::new(
                    "lm_predictions.lm_head",
                    Op::Linear,
                    "logits: a product with the word-embedding table, plus a bias",
                    &[seq, v],
                )
                .with([Tensor::new("lm_predictions.lm_head.bias", &[v])]),
            ],
        ),
        Head::SequenceClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "labels from the pooled vector", 1, h, num_labels)])
        }
        other => token_span_choice_head(other, seq, h, c.num_labels),
    };
    push_head(&mut sections, name, nodes);
    Graph { seq_len: seq, sections }
}

fn candidates(c: &DebertaV2Config) -> Vec<Candidate> {
    let (h, e, v) = (c.hidden_size, c.embedding_size, c.vocab_size);
    let mut out = vec![];
    if c.head != Head::MaskedLm {
        let names = [
            "lm_predictions.lm_head.dense",
            "lm_predictions.lm_head.LayerNorm",
            "lm_predictions.lm_head.bias",
        ];
        let why = "the masked-LM head a pre-training checkpoint may carry; this class drops it";
        out.push(dropped_mlm_head(names, [h, h, v], why));
        if c.version == Version::V1 {
            return out;
        }
        out.push(Candidate::extra(
            "replaced-token-detection head",
            shapes([
                ("mask_predictions.dense.weight".into(), &[h, h]),
                ("mask_predictions.dense.bias".into(), &[h]),
                ("mask_predictions.LayerNorm.weight".into(), &[h]),
                ("mask_predictions.LayerNorm.bias".into(), &[h]),
                ("mask_predictions.classifier.weight".into(), &[1, h]),
                ("mask_predictions.classifier.bias".into(), &[1]),
            ]),
            "the ELECTRA-style discriminator head a DeBERTa-v3 pre-training checkpoint may carry (transformers ignores mask_predictions.* on load)",
        ));
    } else if c.legacy && c.tie_word_embeddings {
        out.push(tied_decoder_stored_twice("cls.predictions.decoder.weight", v, e));
    }
    out
}
