//! MobileBERT's graph, named as transformers' modules: `mobilebert.embeddings.*` (with
//! `embedding_transformation`), `mobilebert.encoder.layer.{i}` (`bottleneck.input`,
//! `bottleneck.attention`, `attention.self.{query,key,value}`, `attention.output`, `ffn.{k}`,
//! `intermediate`, `output`, `output.bottleneck`), the pooler, and `cls.predictions` whose
//! `dense` holds the vocabulary's extra `hidden - embedding_size` columns.

use super::bert::{layer_norm, linear};
use super::release::decoder_bias_candidate;
use super::{Candidate, Graph, Node, Op, Role, Section, embedding, tied_if};
use crate::config::bert::Head;
use crate::config::mobilebert::MobileBertConfig;

architecture!(
    MobileBertConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["mobilebert."],
    candidates: candidates,
    unscaled_residual_init: true
);

/// A `NoNorm` or a LayerNorm: a weight and a bias either way.
fn norm(c: &MobileBertConfig, name: &str, rows: u64, width: u64) -> Node {
    let what = if c.no_norm { "residual add, then NoNorm (x * w + b)" } else { "residual add, then norm" };
    layer_norm(name, what, &[rows, width], width)
}

fn layer(c: &MobileBertConfig, l: &str, seq: u64) -> Vec<Node> {
    let (h, t, f, heads) = (c.hidden_size, c.true_hidden_size, c.intermediate_size, c.num_heads);
    let (mut nodes, b) = (vec![], c.intra_bottleneck_size);
    if c.use_bottleneck {
        nodes.push(linear(&format!("{l}.bottleneck.input.dense"), "down to the bottleneck", seq, h, b));
        nodes.push(norm(c, &format!("{l}.bottleneck.input.LayerNorm"), seq, b));
        if c.key_query_shared_bottleneck {
            let what = "down to the bottleneck, for queries and keys";
            nodes.push(linear(&format!("{l}.bottleneck.attention.dense"), what, seq, h, b));
            nodes.push(norm(c, &format!("{l}.bottleneck.attention.LayerNorm"), seq, b));
        }
    }
    let value_in = if c.use_bottleneck_attention { t } else { h };
    let s = format!("{l}.attention.self");
    nodes.extend([
        linear(&format!("{s}.query"), "query projection", seq, t, t),
        linear(&format!("{s}.key"), "key projection", seq, t, t),
        linear(&format!("{s}.value"), "value projection", seq, value_in, t),
        Node::new(&s, Op::Attention, format!("{heads} heads x {}, bidirectional", t / heads), &[seq, t]),
        linear(&format!("{l}.attention.output.dense"), "attention output projection", seq, t, t),
        norm(c, &format!("{l}.attention.output.LayerNorm"), seq, t),
    ]);
    let ffn = |nodes: &mut Vec<Node>, p: &str, out: &str| {
        let up = format!("up projection, then {}", c.hidden_act);
        nodes.push(linear(&format!("{p}intermediate.dense"), &up, seq, t, f));
        nodes.push(linear(&format!("{p}{out}.dense"), "down projection", seq, f, t));
        nodes.push(norm(c, &format!("{p}{out}.LayerNorm"), seq, t));
    };
    for k in 1..c.num_feedforward_networks {
        ffn(&mut nodes, &format!("{l}.ffn.{}.", k - 1), "output");
    }
    ffn(&mut nodes, &format!("{l}."), "output");
    if c.use_bottleneck {
        nodes.push(linear(&format!("{l}.output.bottleneck.dense"), "back up to hidden", seq, t, h));
        nodes.push(norm(c, &format!("{l}.output.bottleneck.LayerNorm"), seq, h));
    }
    nodes
}

/// The MLM head: transform, then logits against `[decoder.weight^T; dense.weight]`.
fn predictions(c: &MobileBertConfig, seq: u64, word: &str) -> Vec<Node> {
    let (h, v, e) = (c.hidden_size, c.vocab_size, c.embedding_size);
    let p = "cls.predictions";
    let mut dense = Node::new(format!("{p}.dense"), Op::Linear, "the vocabulary's extra columns", &[seq, v]);
    dense.params.push(super::Tensor::new(format!("{p}.dense.weight"), &[h - e, v]));
    let tied = c.tie_word_embeddings;
    vec![
        linear(&format!("{p}.transform.dense"), &format!("dense, then {}", c.hidden_act), seq, h, h),
        layer_norm(&format!("{p}.transform.LayerNorm"), "norm", &[seq, h], h),
        dense,
        Node::new(format!("{p}.decoder"), Op::Linear, "logits over the vocabulary", &[seq, v]).with([
            tied_if(tied, format!("{p}.decoder.weight"), &[v, e], word),
            tied_if(tied, format!("{p}.decoder.bias"), &[v], format!("{p}.bias")),
            super::Tensor::new(format!("{p}.bias"), &[v]),
        ]),
    ]
}

fn has_pooler(c: &MobileBertConfig) -> bool {
    c.classifier_activation
        && !matches!(c.head, Head::MaskedLm | Head::QuestionAnswering | Head::TokenClassification { .. })
}

pub fn build(c: &MobileBertConfig, seq: u64) -> Graph {
    let p = if c.head == Head::Model { "" } else { "mobilebert." };
    let (h, v, e) = (c.hidden_size, c.vocab_size, c.embedding_size);
    let emb = format!("{p}embeddings");
    let word = format!("{emb}.word_embeddings");
    let (grams, what) =
        if c.trigram_input { (3, "three neighbouring tokens' embeddings") } else { (1, "embeddings") };
    let mut sections = vec![super::blocks::embeddings_section(
        &emb,
        seq,
        [
            embedding(&word, format!("{v} tokens, {e} wide"), seq, v, e),
            linear(
                &format!("{emb}.embedding_transformation"),
                &format!("{what}, up to hidden"),
                seq,
                grams * e,
                h,
            ),
            embedding(
                &format!("{emb}.position_embeddings"),
                "positions, learned",
                seq,
                c.max_position_embeddings,
                h,
            ),
            embedding(&format!("{emb}.token_type_embeddings"), "token types", seq, c.type_vocab_size, h),
            norm(c, &format!("{emb}.LayerNorm"), seq, h),
        ],
    )];
    let l = format!("{p}encoder.layer.{{i}}");
    sections.push(Section {
        name: l.clone(),
        role: Role::Layers,
        repeat: c.num_layers,
        nodes: layer(c, &l, seq),
    });
    if has_pooler(c) {
        let pooler = linear(&format!("{p}pooler.dense"), "first token's state, dense then tanh", 1, h, h);
        sections.push(Section {
            name: format!("{p}pooler"),
            role: Role::Pooler,
            repeat: 1,
            nodes: vec![pooler],
        });
    }
    let n = c.num_labels;
    let word = format!("{word}.weight");
    let nsp = || linear("cls.seq_relationship", "is-next logits", 1, h, 2);
    let (name, nodes) = match c.head {
        Head::Model | Head::CausalLm => return Graph { seq_len: seq, sections },
        Head::MaskedLm => ("cls", predictions(c, seq, &word)),
        Head::PreTraining => ("cls", [predictions(c, seq, &word), vec![nsp()]].concat()),
        Head::NextSentencePrediction => ("cls", vec![nsp()]),
        Head::SequenceClassification { .. } => ("classifier", vec![linear("classifier", "labels", 1, h, n)]),
        Head::TokenClassification { .. } => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, n)])
        }
        Head::QuestionAnswering => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, n)])
        }
        Head::MultipleChoice => ("classifier", vec![linear("classifier", "a score per choice", 1, h, 1)]),
    };
    sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    Graph { seq_len: seq, sections }
}

fn candidates(c: &MobileBertConfig) -> Vec<Candidate> {
    if !matches!(c.head, Head::MaskedLm | Head::PreTraining) {
        return vec![];
    }
    let p = "cls.predictions";
    vec![decoder_bias_candidate(
        c.tie_word_embeddings,
        &format!("{p}.decoder.bias"),
        &format!("{p}.bias"),
        c.vocab_size,
    )]
}
