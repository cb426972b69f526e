//! The Funnel Transformer graph, named as transformers' modules:
//! `funnel.encoder.blocks.{b}.{i}.attention.q_head`, `funnel.decoder.layers.{i}.ffn.linear_1`,
//! `lm_head`. Each block is a section of its own, at the block's pooled sequence length.

use super::bert::{layer_norm, linear};
use super::blocks::embedding;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::bert::Head;
use crate::config::funnel::FunnelConfig;

architecture!(
    FunnelConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["funnel."],
    candidates: candidates,
    unscaled_residual_init: true;
    fn context_source(&self) -> String {
        "relative sinusoidal positions fix no context: 512, the length the published checkpoints were trained at".into()
    }
);

fn candidates(_: &FunnelConfig) -> Vec<Candidate> {
    vec![]
}

/// One `FunnelLayer` at `l` over `seq` tokens: relative multi-head attention (q without a bias,
/// the position and segment biases and the position kernel), its norm, the MLP and its norm.
fn layer(c: &FunnelConfig, l: &str, seq: u64) -> Vec<Node> {
    let (h, n, d, ffn) = (c.hidden_size, c.num_heads, c.head_dim, c.intermediate_size);
    let a = format!("{l}.attention");
    let bias = |name: &str, shape: &[u64]| Tensor::new(format!("{a}.{name}"), shape);
    vec![
        super::blocks::linear(&format!("{a}.q_head"), "query projection (no bias)", seq, h, n * d, false),
        linear(&format!("{a}.k_head"), "key projection", seq, h, n * d),
        linear(&format!("{a}.v_head"), "value projection", seq, h, n * d),
        Node::new(
            &a,
            Op::Attention,
            format!("{n} heads x {d}, bidirectional, relative sinusoidal positions and segment bias"),
            &[seq, n * d],
        )
        .with([
            bias("r_w_bias", &[n, d]),
            bias("r_r_bias", &[n, d]),
            bias("r_kernel", &[h, n, d]),
            bias("r_s_bias", &[n, d]),
            bias("seg_embed", &[2, n, d]),
        ]),
        linear(&format!("{a}.post_proj"), "attention output projection", seq, n * d, h),
        layer_norm(&format!("{a}.layer_norm"), "residual add, then norm", &[seq, h], h),
        linear(&format!("{l}.ffn.linear_1"), &format!("up projection, then {}", c.hidden_act), seq, h, ffn),
        linear(&format!("{l}.ffn.linear_2"), "down projection", seq, ffn, h),
        layer_norm(&format!("{l}.ffn.layer_norm"), "residual add, then norm", &[seq, h], h),
    ]
}

pub fn build(c: &FunnelConfig, seq: u64) -> Graph {
    let p = if matches!(c.head, Head::Model) { "" } else { "funnel." };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let emb = format!("{p}embeddings");
    let word = format!("{emb}.word_embeddings");
    let mut sections = vec![super::blocks::embeddings_section(
        &emb,
        seq,
        [
            embedding(&word, format!("{v} tokens"), seq, v, h),
            layer_norm(&format!("{emb}.layer_norm"), "norm", &[seq, h], h),
        ],
    )];
    for (b, (&size, len)) in c.block_sizes.iter().zip(c.block_lengths(seq)).enumerate() {
        if size > 0 {
            let l = format!("{p}encoder.blocks.{b}.{{i}}");
            sections.push(Section {
                name: l.clone(),
                role: Role::Layers,
                repeat: size,
                nodes: layer(c, &l, len),
            });
        }
    }
    if !c.base_only() && c.num_decoder_layers > 0 {
        // Upsampled back to the full length, added to the first block's output.
        let l = format!("{p}decoder.layers.{{i}}");
        let nodes = layer(c, &l, seq);
        sections.push(Section { name: l, role: Role::Layers, repeat: c.num_decoder_layers, nodes });
    }
    let classifier = |labels: u64| {
        vec![
            linear("classifier.linear_hidden", "first token's state, dense then tanh", 1, h, h),
            linear("classifier.linear_out", "labels", 1, h, labels),
        ]
    };
    let (name, nodes) = match c.head {
        Head::Model | Head::CausalLm | Head::NextSentencePrediction => ("", vec![]),
        Head::PreTraining => super::common::discriminator_head(&c.hidden_act, seq, h, "replaced-token logit"),
        Head::MaskedLm => (
            "lm_head",
            vec![Node::new("lm_head", Op::Linear, "logits over the vocabulary", &[seq, v]).with([
                tied_if(c.tie_word_embeddings, "lm_head.weight", &[v, h], format!("{word}.weight")),
                Tensor::new("lm_head.bias", &[v]),
            ])],
        ),
        Head::SequenceClassification { num_labels } => ("classifier", classifier(num_labels)),
        Head::MultipleChoice => ("classifier", classifier(1)),
        Head::TokenClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, num_labels)])
        }
        Head::QuestionAnswering => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, c.num_labels)])
        }
    };
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}
