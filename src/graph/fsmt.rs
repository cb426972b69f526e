//! FSMT's graph, named as transformers' modules: `model.encoder.embed_tokens`,
//! `model.encoder.embed_positions`, BART's post-LN layers (`graph/bart.rs`), and the decoder's
//! `output_projection`.

use super::bart::{decoder_layer, encoder_layer};
use super::kv::KvLayout;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::fsmt::{FsmtConfig, Stack};

architecture!(
    FsmtConfig,
    |c| activations: vec![("activation_function", c.activation_function.clone())],
    prefixes: ["model."],
    candidates: checkpoint_candidates,
    // PretrainedFSMTModel draws every linear from normal(0, init_std = 0.02), whatever the depth.
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let heads = self.decoder.heads;
        let what = format!("2 x {heads} heads x {} head_dim", self.d_model / heads.max(1));
        Some(super::t5_blocks::encoder_decoder_kv(self.decoder.layers, 2 * self.d_model, &what))
    }
);

fn base_prefix(c: &FsmtConfig) -> &'static str {
    if c.generation { "model." } else { "" }
}

/// A stack's token table (tied to the target table when `tied_to` is given) and its sinusoidal
/// positions, held in an embedding weight that `parameters()` counts though it never trains.
fn embeddings(
    c: &FsmtConfig,
    s: &str,
    stack: Stack,
    input: &str,
    tied_to: Option<&str>,
    seq: u64,
) -> Section {
    let h = c.d_model;
    let mut tokens = Tensor::new(format!("{s}.embed_tokens.weight"), &[stack.vocab, h]);
    tokens.tied_to = tied_to.map(str::to_string);
    let at = format!("{s}.embed_positions");
    let what =
        format!("{} positions (with the padding rows), fixed sinusoids in a frozen weight", c.position_rows);
    let nodes = vec![
        Node::new(input, Op::Input, "token ids", &[seq]),
        Node::new(format!("{s}.embed_tokens"), Op::Embedding, format!("{} tokens", stack.vocab), &[seq, h])
            .with([tokens]),
        Node::new(&at, Op::Embedding, what, &[seq, h])
            .with([Tensor::new(format!("{at}.weight"), &[c.position_rows, h])]),
    ];
    Section { name: s.to_string(), role: Role::Embeddings, repeat: 1, nodes }
}

pub fn build(c: &FsmtConfig, seq: u64) -> Graph {
    let p = base_prefix(c);
    let (h, act) = (c.d_model, c.activation_function.as_str());
    let (e, dec) = (format!("{p}encoder"), format!("{p}decoder"));
    let target = format!("{dec}.embed_tokens.weight");
    let tied = c.tie_word_embeddings.then_some(target.as_str());
    let (enc_s, dec_s) = (c.encoder, c.decoder);
    let l = format!("{e}.layers.{{i}}");
    let enc_layer = encoder_layer(&l, seq, h, enc_s.heads, enc_s.ffn, act, true);
    let d = format!("{dec}.layers.{{i}}");
    let dec_layer = decoder_layer(&d, seq, h, dec_s.heads, dec_s.ffn, act, true);
    let mut out = Tensor::new(format!("{dec}.output_projection.weight"), &[dec_s.vocab, h]);
    out.tied_to = tied.map(str::to_string);
    let head = Node::new(
        format!("{dec}.output_projection"),
        Op::Linear,
        "logits over the target vocabulary",
        &[seq, dec_s.vocab],
    )
    .with([out]);
    let sections = vec![
        embeddings(c, &e, enc_s, "input_ids", tied, seq),
        Section { name: l, role: Role::Layers, repeat: enc_s.layers, nodes: enc_layer },
        embeddings(c, &dec, dec_s, "decoder_input_ids", None, seq),
        Section { name: d, role: Role::Layers, repeat: dec_s.layers, nodes: dec_layer },
        Section { name: format!("{dec}.output_projection"), role: Role::Head, repeat: 1, nodes: vec![head] },
    ];
    Graph { seq_len: seq, sections }
}

/// Tensors a checkpoint may hold that the class does not: none beyond the tied copies.
pub fn checkpoint_candidates(c: &FsmtConfig) -> Vec<Candidate> {
    if !c.tie_word_embeddings {
        return vec![];
    }
    let p = base_prefix(c);
    let (h, v) = (c.d_model, c.decoder.vocab);
    vec![Candidate::extra(
        "tied tables stored again",
        vec![
            (format!("{p}encoder.embed_tokens.weight"), vec![v, h]),
            (format!("{p}decoder.output_projection.weight"), vec![v, h]),
        ],
        "the source table and the output projection are tied to the target table, but a checkpoint may store each again",
    )]
}
