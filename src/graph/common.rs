//! Pieces that several classic families' graphs build the same way: the GPT-style decoders'
//! (BLOOM, Falcon, GPT-2, GPT-BigCode, Phi) checkpoint candidates and cross-attention, and the
//! BERT-like encoders' (ALBERT, ELECTRA, MPNet, DistilBERT, DeBERTa-v2) heads and candidates.

use super::bert::linear;
pub(crate) use super::decoder_common::{decoder_head, layer_sections};
use super::kv::{KvLayout, RecurrentState};
use super::{Candidate, Node, Role, Section};
use crate::config::bert::Head;
use crate::config::decoder::DecoderHead;

/// The causal-LM head's `lm_head.weight` [vocab, width] that a checkpoint stores although the
/// class ties it; `tied` says what it is tied to, as the reason words it.
pub(crate) fn tied_lm_head_stored_twice(
    head: DecoderHead,
    tie: bool,
    vocab: u64,
    width: u64,
    tied: &str,
) -> Vec<Candidate> {
    if head != DecoderHead::CausalLm || !tie {
        return vec![];
    }
    vec![Candidate::extra(
        "tied lm_head stored twice",
        vec![("lm_head.weight".into(), vec![vocab, width])],
        &format!("{tied}, but the checkpoint stores the matrix a second time"),
    )]
}

/// GPT-2's and GPT-BigCode's cross-attention over the encoder's states, under the layer `l`;
/// `proj(name, detail, in, out)` is the family's projection (`Conv1D` or `nn.Linear`).
pub(crate) fn gpt_cross_attention(
    l: &str,
    seq: u64,
    e: u64,
    proj: impl Fn(&str, &str, u64, u64) -> Node,
) -> Vec<Node> {
    vec![
        super::decoder::layer_norm(&format!("{l}.ln_cross_attn"), "pre-cross-attention norm", seq, e, true),
        proj(&format!("{l}.crossattention.q_attn"), "query from the decoder", e, e),
        proj(&format!("{l}.crossattention.c_attn"), "fused k, v from the encoder", e, 2 * e),
        proj(&format!("{l}.crossattention.c_proj"), "cross-attention output projection", e, e),
    ]
}

/// Pushes the head section `name` unless the class has no head nodes (the bare model).
pub(crate) fn push_head(sections: &mut Vec<Section>, name: &str, nodes: Vec<Node>) {
    if !nodes.is_empty() {
        sections.push(Section { name: name.into(), role: Role::Head, repeat: 1, nodes });
    }
}

/// The heads the BERT-like families build alike: a label per token, the span start and end
/// logits (`qa` wide), and a score per choice; none for any other head.
pub(crate) fn token_span_choice_head(head: Head, seq: u64, h: u64, qa: u64) -> (&'static str, Vec<Node>) {
    match head {
        Head::TokenClassification { num_labels } => {
            ("classifier", vec![linear("classifier", "a label per token", seq, h, num_labels)])
        }
        Head::QuestionAnswering => {
            ("qa_outputs", vec![linear("qa_outputs", "span start and end logits", seq, h, qa)])
        }
        Head::MultipleChoice => ("classifier", vec![linear("classifier", "a score per choice", 1, h, 1)]),
        _ => ("", vec![]),
    }
}

/// The `{base}embeddings.position_ids` buffer [1, positions] that older checkpoints saved; `when`
/// says which transformers did.
pub(crate) fn position_ids_buffer(base: &str, positions: u64, when: &str) -> Candidate {
    Candidate::extra(
        "position_ids buffer",
        vec![(format!("{base}embeddings.position_ids"), vec![1, positions])],
        &format!("an int64 buffer of position indices that {when} saved with the weights; not a parameter"),
    )
}

/// transformers before 4.31, which saved the position ids with the weights.
pub(crate) const BEFORE_4_31: &str = "transformers before 4.31";

/// The pooler: missing from the checkpoint when the class builds it, else extra; `dropped` says
/// whose pooler a checkpoint carries that this class does not build.
pub(crate) fn pooler_candidate(built: bool, tensors: Vec<(String, Vec<u64>)>, dropped: &str) -> Candidate {
    if built {
        Candidate::missing(
            "pooler",
            tensors,
            "the class builds a pooler that the checkpoint does not store (it is then freshly initialised on load)",
        )
    } else {
        Candidate::extra("pooler", tensors, dropped)
    }
}

/// The MLM decoder `{decoder}` [vocab, width] that a checkpoint stores although it is tied.
pub(crate) fn tied_decoder_stored_twice(decoder: &str, vocab: u64, width: u64) -> Candidate {
    Candidate::extra(
        "tied decoder stored twice",
        vec![(decoder.into(), vec![vocab, width])],
        "the decoder is tied to the word embeddings, but the checkpoint stores the matrix a second time",
    )
}

/// A masked-LM head that a pre-training checkpoint carries and this class drops: its `dense`
/// (`h` to `w`), its `norm` (`w`) and the decoder `bias` over the vocabulary `v`.
pub(crate) fn dropped_mlm_head(
    [dense, norm, bias]: [&str; 3],
    [h, w, v]: [u64; 3],
    reason: &str,
) -> Candidate {
    Candidate::extra(
        "masked-LM head",
        vec![
            (format!("{dense}.weight"), vec![w, h]),
            (format!("{dense}.bias"), vec![w]),
            (format!("{norm}.weight"), vec![w]),
            (format!("{norm}.bias"), vec![w]),
            (bias.into(), vec![v]),
        ],
        reason,
    )
}

/// For the families whose checkpoints hold exactly what the class builds.
pub(crate) fn no_candidates<C>(_: &C) -> Vec<Candidate> {
    vec![]
}

/// A purely recurrent model's serving memory: its state per sequence, no KV cache.
pub(crate) fn recurrent_only(state: RecurrentState) -> Option<KvLayout> {
    Some(KvLayout { groups: vec![], cross: None, cross_fixed_len: None, recurrent: Some(state) })
}

/// Where a purely recurrent model's context comes from: nowhere in the config.
pub(crate) const RECURRENT_CONTEXT: &str =
    "a recurrent state, which sets no length limit: the plan's default length";

/// How BART's and Whisper's serving plans word a decoder layer's cached keys and values.
pub(crate) fn kv_what(heads: u64, d_model: u64) -> String {
    format!("2 x {heads} heads x {} head_dim", d_model / heads.max(1))
}

/// The rest of a post-norm BERT layer under `l` after its attention: the attention's output
/// projection `out` and the norm `norm` after the residual add, then the feed-forward
/// (`intermediate.dense`, then `act`; `output.dense`; its norm).
pub(crate) fn bert_layer_tail(
    l: &str,
    [out, norm]: [String; 2],
    [seq, h, ffn]: [u64; 3],
    act: &str,
) -> [Node; 5] {
    [
        linear(&out, "attention output projection", seq, h, h),
        super::bert::layer_norm(&norm, "residual add, then norm", &[seq, h], h),
        linear(&format!("{l}.intermediate.dense"), &format!("up projection, then {act}"), seq, h, ffn),
        linear(&format!("{l}.output.dense"), "down projection", seq, ffn, h),
        super::bert::layer_norm(&format!("{l}.output.LayerNorm"), "residual add, then norm", &[seq, h], h),
    ]
}

/// The RoBERTa-style sequence-classification head (ELECTRA, MPNet): the first token's state
/// through `classifier.dense` (then `act`), then `classifier.out_proj` to the labels.
pub(crate) fn dense_classifier(act: &str, h: u64, num_labels: u64) -> (&'static str, Vec<Node>) {
    let dense = format!("first token's state, dense then {act}");
    (
        "classifier",
        vec![
            linear("classifier.dense", &dense, 1, h, h),
            linear("classifier.out_proj", "labels", 1, h, num_labels),
        ],
    )
}

/// The `Architecture` methods a wrapper config answers alike (a vision-language model around its
/// language model, an encoder-decoder pair around its decoder): its own `class` and
/// `defaulted`, its module's `build`, no checkpoint candidates, and the rest from `$inner`.
macro_rules! wrapper_basics {
    ($inner:ident) => {
        fn activations(&self) -> Vec<(&'static str, String)> {
            self.$inner.activations()
        }
        fn class(&self) -> &str {
            &self.class
        }
        fn dims(&self) -> $crate::config::Dims {
            self.$inner.dims()
        }
        fn defaulted(&self) -> &[$crate::config::Defaulted] {
            &self.defaulted
        }
        fn graph(&self, seq: u64) -> $crate::graph::Graph {
            build(self, seq)
        }
        fn checkpoint_candidates(&self) -> Vec<$crate::graph::Candidate> {
            vec![]
        }
        fn unscaled_residual_init(&self) -> bool {
            self.$inner.unscaled_residual_init()
        }
    };
}
pub(crate) use wrapper_basics;

/// The embeddings of an encoder without token types (DistilBERT, MPNet): ids, the word table, the
/// learned or fixed position table (`positions` rows, described by `what`), then their norm.
pub(crate) fn word_and_position_embeddings(
    emb: &str,
    seq: u64,
    [v, positions, h]: [u64; 3],
    what: String,
) -> Section {
    super::blocks::embeddings_section(
        emb,
        seq,
        [
            super::embedding(&format!("{emb}.word_embeddings"), format!("{v} tokens"), seq, v, h),
            super::embedding(&format!("{emb}.position_embeddings"), what, seq, positions, h),
            super::bert::layer_norm(
                &format!("{emb}.LayerNorm"),
                "sum of word and position embeddings, normalised",
                &[seq, h],
                h,
            ),
        ],
    )
}

/// A section of one node under the node's own name: a model's final norm, or its head.
pub(crate) fn alone(node: Node, role: Role) -> Section {
    Section { name: node.name.clone(), role, repeat: 1, nodes: vec![node] }
}

/// A causal LM head `name` with no bias: logits (`what`) over the `vocab`, its weight tied to
/// `embeddings` when `tie`.
pub(crate) fn lm_head(
    name: &str,
    what: &str,
    [seq, h, vocab]: [u64; 3],
    tie: bool,
    embeddings: &str,
) -> Node {
    Node::new(name, super::Op::Linear, what, &[seq, vocab]).with([super::tied_if(
        tie,
        format!("{name}.weight"),
        &[vocab, h],
        embeddings,
    )])
}

/// Each size is bounded on its own, but their products can still describe a model no machine
/// holds, whose count would overflow: the graph (built at one token) is sized in floating point
/// first, and refused past 1e15 parameters, naming the key `field_of` gives for the name of the
/// node holding the most.
pub(crate) fn check_scale(
    g: &super::Graph,
    field_of: impl FnOnce(&str) -> &'static str,
) -> Result<(), crate::config::ConfigError> {
    const MAX_SCALARS: f64 = 1e15;
    let (total, name) = g.approx_scalars();
    if total <= MAX_SCALARS {
        return Ok(());
    }
    Err(crate::config::ConfigError::field(
        field_of(name),
        format!(
            "these sizes make a model of about {total:.3e} parameters, beyond any real model (at most {MAX_SCALARS:e})"
        ),
    ))
}

/// ELECTRA's replaced-token discriminator (Funnel's too): a dense layer, then one logit per
/// token, which `what` words.
pub(crate) fn discriminator_head(act: &str, seq: u64, h: u64, what: &str) -> (&'static str, Vec<Node>) {
    let d = "discriminator_predictions";
    let dense = linear(&format!("{d}.dense"), &format!("dense, then {act}"), seq, h, h);
    (d, vec![dense, linear(&format!("{d}.dense_prediction"), what, seq, h, 1)])
}
