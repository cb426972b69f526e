//! The BART lineage's graph (every type of `config/seq2seq.rs`), named as transformers' modules:
//! `model.shared`, `model.encoder.layers.{i}.self_attn.q_proj`, `model.decoder.layernorm_embedding`,
//! `model.decoder.layer_norm`, `lm_head`. The attention and feed-forward builders are shared with
//! Whisper, which has the same layers.

use super::common::kv_what;
use super::kv::KvLayout;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::bart::{BartConfig, Head, Positions};
use crate::config::release::Release;

mod extras;
pub(crate) use extras::renamed_attention;
use extras::{longformer, prompts};

architecture!(
    BartConfig,
    |c| activations: vec![("activation_function", c.activation_function.clone())],
    prefixes: ["model.", "led."],
    candidates: checkpoint_candidates,
    // BartPreTrainedModel draws every linear from normal(0, init_std = 0.02), whatever the depth.
    unscaled_residual_init: true;
    fn other_release(&self) -> Option<super::release::ReleaseNote> {
        let why = vec!["4.x always ties each stack's `embed_tokens` to `shared`; 5.x only with `tie_word_embeddings`"];
        super::release::note(self, &BartConfig { release: Release::V4, ..self.clone() }, why)
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        let vpt = 2 * self.d_model;
        let what = kv_what(self.decoder_attention_heads, self.d_model);
        Some(super::t5_blocks::encoder_decoder_kv(self.decoder_layers, vpt, &what))
    }
);

pub(crate) use super::blocks::linear;

pub(crate) fn layer_norm(name: &str, detail: &str, seq: u64, width: u64) -> Node {
    super::blocks::layer_norm(name, detail, &[seq, width], width, true)
}

/// q, k, v, out projections of a BART-style attention block; Whisper's key projection has no bias.
pub(crate) fn attention(at: &str, what: &str, seq: u64, h: u64, heads: u64, key_bias: bool) -> Vec<Node> {
    vec![
        linear(&format!("{at}.k_proj"), "key projection", seq, h, h, key_bias),
        linear(&format!("{at}.v_proj"), "value projection", seq, h, h, true),
        linear(&format!("{at}.q_proj"), "query projection", seq, h, h, true),
        Node::new(
            at,
            Op::Attention,
            format!("{heads} heads x {}, {what}, softmax(QK^T / sqrt({}))V", h / heads, h / heads),
            &[seq, h],
        ),
        linear(&format!("{at}.out_proj"), "attention output projection", seq, h, h, true),
    ]
}

pub(crate) fn feed_forward(l: &str, seq: u64, h: u64, ffn: u64, act: &str) -> Vec<Node> {
    vec![
        linear(&format!("{l}.fc1"), &format!("up projection, then {act}"), seq, h, ffn, true),
        linear(&format!("{l}.fc2"), "down projection", seq, ffn, h, true),
    ]
}

/// A decoder layer of BART or Whisper: self-attention, cross-attention, feed-forward, each with
/// its norm (after the residual in BART, before the sub-layer in Whisper; the tensors are the same).
pub(crate) fn decoder_layer(
    l: &str,
    seq: u64,
    h: u64,
    heads: u64,
    ffn: u64,
    act: &str,
    key_bias: bool,
) -> Vec<Node> {
    let mut nodes = self_attention(l, "causal", seq, h, heads, key_bias);
    nodes.extend(attention(
        &format!("{l}.encoder_attn"),
        "over the encoder's output",
        seq,
        h,
        heads,
        key_bias,
    ));
    nodes.push(layer_norm(&format!("{l}.encoder_attn_layer_norm"), "cross-attention's norm", seq, h));
    nodes.extend(normed_feed_forward(l, seq, h, ffn, act));
    nodes
}

pub(crate) fn encoder_layer(
    l: &str,
    seq: u64,
    h: u64,
    heads: u64,
    ffn: u64,
    act: &str,
    key_bias: bool,
) -> Vec<Node> {
    let mut nodes = self_attention(l, "bidirectional", seq, h, heads, key_bias);
    nodes.extend(normed_feed_forward(l, seq, h, ffn, act));
    nodes
}

fn self_attention(l: &str, what: &str, seq: u64, h: u64, heads: u64, key_bias: bool) -> Vec<Node> {
    let mut nodes = attention(&format!("{l}.self_attn"), what, seq, h, heads, key_bias);
    nodes.push(layer_norm(&format!("{l}.self_attn_layer_norm"), "self-attention's norm", seq, h));
    nodes
}

fn normed_feed_forward(l: &str, seq: u64, h: u64, ffn: u64, act: &str) -> Vec<Node> {
    let mut nodes = feed_forward(l, seq, h, ffn, act);
    nodes.push(layer_norm(&format!("{l}.final_layer_norm"), "feed-forward's norm", seq, h));
    nodes
}

/// A stack's embeddings: its token table (tied to `shared` when the model has one), its positions
/// (learned with the type's offset, or fixed sinusoids) and `layernorm_embedding` where the type
/// has one.
pub(crate) fn stack_embeddings(c: &BartConfig, s: &str, seq: u64, shared: Option<&str>) -> Vec<Node> {
    let n = if s.ends_with("encoder") { c.encoder_positions } else { c.max_position_embeddings };
    let (h, v) = (c.d_model, c.vocab_size);
    let mut tokens = Tensor::new(format!("{s}.embed_tokens.weight"), &[v, h]);
    // 5.x unties the stacks' embed_tokens from `shared` with the head; 4.x always shares it.
    tokens.tied_to = shared.filter(|_| c.release.ties(c.tie_word_embeddings)).map(str::to_string);
    let at = format!("{s}.embed_positions");
    let positions = match c.desc.positions {
        Positions::Learned { offset: 0 } => {
            Node::new(&at, Op::Embedding, format!("{n} positions, learned"), &[seq, h])
                .with([Tensor::new(format!("{at}.weight"), &[n, h])])
        }
        Positions::Learned { offset } => Node::new(
            &at,
            Op::Embedding,
            format!("{n} positions, learned, looked up at position + {offset}"),
            &[seq, h],
        )
        .with([Tensor::new(format!("{at}.weight"), &[n + offset, h])]),
        Positions::SinusoidalWeight => Node::new(
            &at,
            Op::Embedding,
            format!("{n} positions, fixed sinusoids held as an embedding weight (never trained)"),
            &[seq, h],
        )
        .with([Tensor::new(format!("{at}.weight"), &[n, h])]),
        Positions::SinusoidalBuffer => {
            Node::new(&at, Op::Embedding, "fixed sinusoids in a buffer, no parameters", &[seq, h])
        }
    };
    let mut nodes = vec![
        Node::new(format!("{s}.embed_tokens"), Op::Embedding, format!("{v} tokens"), &[seq, h])
            .with([tokens]),
        positions,
    ];
    if c.desc.layernorm_embedding {
        let what = "sum of token and position embeddings, normalised";
        nodes.push(layer_norm(&format!("{s}.layernorm_embedding"), what, seq, h));
    }
    nodes
}

/// The encoder's embeddings section: the input ids, `shared` and the encoder's own tables.
pub(crate) fn encoder_embeddings(c: &BartConfig, p: &str, shared: &str, seq: u64) -> Section {
    let e = format!("{p}encoder");
    let (h, v) = (c.d_model, c.vocab_size);
    let mut nodes = vec![
        Node::new("input_ids", Op::Input, "token ids", &[seq]),
        Node::new(format!("{p}shared"), Op::Embedding, format!("{v} tokens"), &[seq, h])
            .with([Tensor::new(shared, &[v, h])]),
    ];
    nodes.extend(stack_embeddings(c, &e, seq, Some(shared)));
    Section { name: e, role: Role::Embeddings, repeat: 1, nodes }
}

/// A stack's layers, and the `layer_norm` closing the stack in the pre-LN types.
fn stack_layers(c: &BartConfig, s: &str, repeat: u64, layer: Vec<Node>, seq: u64) -> Vec<Section> {
    let l = format!("{s}.layers.{{i}}");
    let mut layer = layer;
    if c.desc.pre_norm {
        layer.iter_mut().filter(|n| n.op == Op::LayerNorm).for_each(|n| {
            n.detail = n.detail.replace("'s norm", "'s norm, before it (pre-LN)");
        });
    }
    let mut out = vec![Section { name: l, role: Role::Layers, repeat, nodes: layer }];
    if c.desc.final_norm {
        let name = format!("{s}.layer_norm");
        let node = layer_norm(&name, "the stack's output", seq, c.d_model);
        out.push(Section { name, role: Role::Layers, repeat: 1, nodes: vec![node] });
    }
    out
}

pub fn build(c: &BartConfig, seq: u64) -> Graph {
    let p = c.base_prefix();
    let (h, v) = (c.d_model, c.vocab_size);
    let act = c.activation_function.as_str();
    let shared = format!("{p}shared.weight");
    let mut sections = vec![];
    // The weight the LM head ties to: `shared`, or the decoder's own table in BartForCausalLM.
    let output_embedding =
        if c.has_encoder() { shared.clone() } else { format!("{p}decoder.embed_tokens.weight") };
    if c.has_encoder() {
        let e = format!("{p}encoder");
        sections.push(encoder_embeddings(c, p, &shared, seq));
        let l = format!("{e}.layers.{{i}}");
        let mut layer = encoder_layer(&l, seq, h, c.encoder_attention_heads, c.encoder_ffn_dim, act, true);
        if c.desc.led {
            layer = longformer(layer, &l, seq, h);
        }
        sections.extend(stack_layers(c, &e, c.encoder_layers, layer, seq));
    }
    let dec = format!("{p}decoder");
    let mut nodes = vec![Node::new("decoder_input_ids", Op::Input, "decoder token ids", &[seq])];
    nodes.extend(stack_embeddings(c, &dec, seq, c.has_encoder().then_some(shared.as_str())));
    if let Some(prompt) = c.prompt.filter(|_| c.has_encoder()) {
        nodes.extend(prompts(c, &dec, prompt));
    }
    sections.push(Section { name: dec.clone(), role: Role::Embeddings, repeat: 1, nodes });
    let l = format!("{dec}.layers.{{i}}");
    let mut layer = decoder_layer(&l, seq, h, c.decoder_attention_heads, c.decoder_ffn_dim, act, true);
    if !c.has_encoder() {
        // BartForCausalLM's decoder layers still build the cross-attention; it goes unused alone.
        layer.iter_mut().filter(|n| n.name.contains(".encoder_attn")).for_each(|n| {
            n.detail = format!("{} (unused without an encoder)", n.detail);
        });
    }
    sections.extend(stack_layers(c, &dec, c.decoder_layers, layer, seq));

    let head = match c.head {
        Head::Model => vec![],
        Head::ConditionalGeneration | Head::CausalLm => {
            let mut w = Tensor::new("lm_head.weight", &[v, h]);
            if c.tie_word_embeddings {
                w.tied_to = Some(output_embedding);
            }
            let detail = if c.head == Head::ConditionalGeneration && c.desc.logits_bias {
                "logits over the vocabulary, plus the final_logits_bias buffer"
            } else {
                "logits over the vocabulary"
            };
            vec![Node::new("lm_head", Op::Linear, detail, &[seq, v]).with([w])]
        }
        Head::SequenceClassification { num_labels } => vec![
            linear("classification_head.dense", "the last eos token's state, dense then tanh", 1, h, h, true),
            linear("classification_head.out_proj", "labels", 1, h, num_labels, true),
        ],
        Head::QuestionAnswering => vec![linear("qa_outputs", "span start and end logits", seq, h, 2, true)],
    };
    if let Some(first) = head.first() {
        let name = first.name.split('.').next().unwrap_or_default().to_string();
        sections.push(Section { name, role: Role::Head, repeat: 1, nodes: head });
    }
    Graph { seq_len: seq, sections }
}

pub fn checkpoint_candidates(c: &BartConfig) -> Vec<Candidate> {
    let (h, v) = (c.d_model, c.vocab_size);
    let mut out = vec![];
    if c.desc.logits_bias {
        out.push(Candidate::extra(
            "final_logits_bias buffer",
            vec![("final_logits_bias".into(), vec![1, v])],
            &format!(
                "a zero buffer {}{} adds to the logits and saves with the weights; not a parameter",
                c.desc.prefix,
                if c.desc.classes.contains(&"MTModel") { "MTModel" } else { "ForConditionalGeneration" }
            ),
        ));
    }
    if c.has_encoder() && !c.release.ties(c.tie_word_embeddings) {
        let p = c.base_prefix();
        out.push(Candidate::missing(
            "embed_tokens untied from shared",
            vec![
                (format!("{p}encoder.embed_tokens.weight"), vec![v, h]),
                (format!("{p}decoder.embed_tokens.weight"), vec![v, h]),
            ],
            "transformers 5.x unties each stack's embed_tokens from `shared` with the LM head; a checkpoint saved by 4.x may hold only `shared`",
        ));
    } else if c.has_encoder() {
        let p = c.base_prefix();
        out.push(Candidate::extra(
            "embed_tokens stored per stack",
            vec![
                (format!("{p}encoder.embed_tokens.weight"), vec![v, h]),
                (format!("{p}decoder.embed_tokens.weight"), vec![v, h]),
            ],
            "each stack's embed_tokens shares `shared`'s weight, but pytorch_model.bin checkpoints store it again under each stack's name",
        ));
    }
    if c.tie_word_embeddings {
        out.push(Candidate::extra(
            "tied LM head stored twice",
            vec![("lm_head.weight".into(), vec![v, h])],
            "the LM head is tied to the token embeddings, but the checkpoint stores the matrix a second time",
        ));
    }
    out
}
