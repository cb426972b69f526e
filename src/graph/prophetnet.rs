//! ProphetNet's graph, named as `ProphetNetForConditionalGeneration`'s modules: `prophetnet.`
//! holds `word_embeddings`, the encoder (`encoder.word_embeddings`, `position_embeddings`,
//! `embeddings_layer_norm`, post-LN `layers.{i}` of `self_attn` and `feed_forward`) and the
//! decoder (the same plus `ngram_embeddings`, and per layer the n-gram `self_attn` with its
//! `relative_pos_embeddings` and, with `add_cross_attention`, a `cross_attn`); then `lm_head`.
//! Each stack's table and the head are tied to `word_embeddings` when `tie_word_embeddings`
//! holds. The standalone `ProphetNetEncoder` and `ProphetNetDecoder` own their tables.

use super::blocks::{embedding, layer_norm, linear, token_embeddings};
use super::{Candidate, Graph, Node, Op, Role, Section, tied_if};
use crate::config::Dims;
use crate::config::prophetnet::{ProphetNetClass, ProphetNetConfig};

architecture!(
    ProphetNetConfig,
    |c| activations: vec![("activation_function", c.activation_function.clone())],
    prefixes: ["prophetnet."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<super::kv::KvLayout> {
        if matches!(self.kind, ProphetNetClass::Encoder) {
            // The standalone encoder caches nothing.
            return Some(super::kv::KvLayout { groups: vec![], cross: None, cross_fixed_len: None, recurrent: None });
        }
        let (heads, hd) = (self.decoder_heads, self.hidden_size / self.decoder_heads.max(1));
        let what = format!("2 x {heads} heads x {hd} head_dim (the main stream's)");
        let mut kv = super::t5_blocks::encoder_decoder_kv(self.decoder_layers, 2 * self.hidden_size, &what);
        if !self.cross_attention {
            kv.cross = None;
        }
        Some(kv)
    }
    fn context_source(&self) -> String {
        "max_position_embeddings".into()
    }
);

fn no_candidates(_: &ProphetNetConfig) -> Vec<Candidate> {
    vec![]
}

fn ln(name: &str, detail: &str, seq: u64, h: u64) -> Node {
    layer_norm(name, detail, &[seq, h], h, true)
}

/// `ProphetNetAttention` and `ProphetNetNgramSelfAttention`: four square projections with biases.
fn attention(at: &str, what: String, seq: u64, h: u64) -> Vec<Node> {
    let mut nodes: Vec<Node> = [("key_proj", "key"), ("value_proj", "value"), ("query_proj", "query")]
        .iter()
        .map(|(n, w)| linear(&format!("{at}.{n}"), &format!("{w} projection"), seq, h, h, true))
        .collect();
    nodes.push(Node::new(at, Op::Attention, what, &[seq, h]));
    nodes.push(linear(&format!("{at}.out_proj"), "output projection", seq, h, h, true));
    nodes
}

fn feed_forward(l: &str, seq: u64, h: u64, ffn: u64) -> Vec<Node> {
    vec![
        linear(
            &format!("{l}.feed_forward.intermediate"),
            "feed-forward in, then the activation",
            seq,
            h,
            ffn,
            true,
        ),
        linear(&format!("{l}.feed_forward.output"), "feed-forward out", seq, ffn, h, true),
        ln(&format!("{l}.feed_forward_layer_norm"), "LayerNorm after the feed-forward", seq, h),
    ]
}

/// One stack's embeddings: its token table (tied to `shared` when there is one and the config
/// ties), the positions, the decoder's n-gram streams and the norm after them.
fn stack_embeddings(
    c: &ProphetNetConfig,
    at: &str,
    shared: Option<&str>,
    decoder: bool,
    seq: u64,
) -> Section {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let table = format!("{at}word_embeddings");
    let tokens = match shared {
        Some(to) => Node::new(&table, Op::Embedding, format!("{v} tokens"), &[seq, h]).with([tied_if(
            c.tie_word_embeddings,
            format!("{table}.weight"),
            &[v, h],
            to,
        )]),
        None => embedding(&table, format!("{v} tokens"), seq, v, h),
    };
    let rows = c.max_position_embeddings;
    let mut nodes = vec![
        tokens,
        embedding(&format!("{at}position_embeddings"), format!("{rows} positions"), seq, rows, h),
    ];
    if decoder {
        let n = c.ngram;
        nodes.push(embedding(&format!("{at}ngram_embeddings"), format!("{n} predicting streams"), seq, n, h));
    }
    nodes.push(ln(&format!("{at}embeddings_layer_norm"), "LayerNorm after the embeddings", seq, h));
    Section { name: format!("{at}embeddings"), role: Role::Embeddings, repeat: 1, nodes }
}

fn encoder(c: &ProphetNetConfig, at: &str, shared: Option<&str>, seq: u64) -> Vec<Section> {
    let h = c.hidden_size;
    let l = format!("{at}layers.{{i}}");
    let heads = c.encoder_heads;
    let mut nodes = attention(&format!("{l}.self_attn"), format!("{heads} heads, bidirectional"), seq, h);
    nodes.push(ln(&format!("{l}.self_attn_layer_norm"), "LayerNorm after attention", seq, h));
    nodes.extend(feed_forward(&l, seq, h, c.encoder_ffn));
    let layers = Section { name: l, role: Role::Layers, repeat: c.encoder_layers, nodes };
    vec![stack_embeddings(c, at, shared, false, seq), layers]
}

fn decoder(c: &ProphetNetConfig, at: &str, shared: Option<&str>, seq: u64) -> Vec<Section> {
    let (h, heads) = (c.hidden_size, c.decoder_heads);
    let l = format!("{at}layers.{{i}}");
    let a = format!("{l}.self_attn");
    let what = format!("{heads} heads over the main stream and {} predicting streams, causal", c.ngram);
    let mut nodes = attention(&a, what, seq, h);
    let buckets = c.num_buckets.saturating_mul(heads);
    let relative = format!("relative-position logits: {} buckets x {heads} heads", c.num_buckets);
    nodes.push(linear(&format!("{a}.relative_pos_embeddings"), &relative, seq, h, buckets, true));
    nodes.push(ln(&format!("{l}.self_attn_layer_norm"), "LayerNorm after self-attention", seq, h));
    if c.cross_attention {
        nodes.extend(attention(
            &format!("{l}.cross_attn"),
            format!("{heads} heads over the encoder"),
            seq,
            h,
        ));
        nodes.push(ln(&format!("{l}.cross_attn_layer_norm"), "LayerNorm after cross-attention", seq, h));
    }
    nodes.extend(feed_forward(&l, seq, h, c.decoder_ffn));
    let layers = Section { name: l, role: Role::Layers, repeat: c.decoder_layers, nodes };
    vec![stack_embeddings(c, at, shared, true, seq), layers]
}

pub fn build(c: &ProphetNetConfig, seq: u64) -> Graph {
    let (h, v) = (c.hidden_size, c.vocab_size);
    let p = match c.kind {
        ProphetNetClass::ConditionalGeneration | ProphetNetClass::CausalLm => "prophetnet.",
        _ => "",
    };
    let shared = format!("{p}word_embeddings.weight");
    let mut sections = vec![token_embeddings(&format!("{p}word_embeddings"), seq, v, h)];
    match c.kind {
        ProphetNetClass::Encoder => sections = encoder(c, "", None, seq),
        ProphetNetClass::Decoder => sections = decoder(c, "", None, seq),
        ProphetNetClass::CausalLm => sections.extend(decoder(c, &format!("{p}decoder."), Some(&shared), seq)),
        ProphetNetClass::Model | ProphetNetClass::ConditionalGeneration => {
            sections.extend(encoder(c, &format!("{p}encoder."), Some(&shared), seq));
            sections.extend(decoder(c, &format!("{p}decoder."), Some(&shared), seq));
        }
    }
    if !p.is_empty() {
        let head = Node::new("lm_head", Op::Linear, "logits over the vocabulary, per stream", &[seq, v])
            .with([tied_if(c.tie_word_embeddings, "lm_head.weight", &[v, h], &shared)]);
        sections.push(Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes: vec![head] });
    }
    Graph { seq_len: seq, sections }
}

impl ProphetNetConfig {
    fn dims(&self) -> Dims {
        let (layers, heads, ffn) = match self.kind {
            ProphetNetClass::Encoder => (self.encoder_layers, self.encoder_heads, self.encoder_ffn),
            _ => (self.decoder_layers, self.decoder_heads, self.decoder_ffn),
        };
        let d =
            Dims::mha(self.hidden_size, layers, heads, ffn, self.vocab_size, self.max_position_embeddings);
        Dims { tie_word_embeddings: self.tie_word_embeddings, layer_norm_eps: 1e-5, ..d }
    }
}
