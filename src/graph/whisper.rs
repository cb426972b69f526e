//! The Whisper graph, named as transformers' modules: `model.encoder.conv1`,
//! `model.encoder.embed_positions`, `model.decoder.layers.{i}.encoder_attn.k_proj`, `proj_out`.
//! The layers are BART's (see [`super::bart`]) with bias-free key projections and pre-norm.

use super::bart::{decoder_layer, encoder_layer, layer_norm, linear};
use super::common::kv_what;
use super::kv::{KvGroup, KvLayout};
use serde::Serialize;

use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::whisper::{Head, WhisperConfig};

architecture!(
    WhisperConfig,
    |c| activations: vec![("activation_function", c.activation_function.clone())],
    prefixes: ["model."],
    candidates: checkpoint_candidates,
    // WhisperPreTrainedModel draws every linear from normal(0, init_std = 0.02).
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        use crate::config::whisper::Head;
        let vpt = 2 * self.d_model;
        let what = kv_what(self.decoder_attention_heads, self.d_model);
        let g =
            |what: String| KvGroup { layers: self.decoder_layers, values_per_token: vpt, window: None, what };
        Some(match self.head {
            Head::AudioClassification { .. } => {
                KvLayout { groups: vec![], cross: None, cross_fixed_len: None, recurrent: None }
            }
            Head::CausalLm => KvLayout {
                groups: vec![g(format!("decoder self-attention: {what}"))],
                cross: None,
                cross_fixed_len: None,
                recurrent: None,
            },
            _ => KvLayout {
                groups: vec![g(format!("decoder self-attention: {what}"))],
                cross: Some(g(format!("cross-attention over the encoder's frames: {what}"))),
                cross_fixed_len: Some(self.max_source_positions),
                recurrent: None,
            },
        })
    }
);

fn conv(name: &str, detail: &str, out_shape: &[u64], inp: u64, out: u64) -> Node {
    Node::new(name, Op::Conv1d, detail, out_shape).with([
        Tensor::new(format!("{name}.weight"), &[out, inp, 3]),
        Tensor::new(format!("{name}.bias"), &[out]),
    ])
}

/// The base model's prefix: none for `WhisperModel` and the audio classifier (whose encoder is
/// its own attribute), `model.` for the generation heads.
fn prefix(c: &WhisperConfig) -> &'static str {
    match c.head {
        Head::Model | Head::AudioClassification { .. } => "",
        Head::ConditionalGeneration | Head::CausalLm => "model.",
    }
}

pub fn build(c: &WhisperConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let (h, v) = (c.d_model, c.vocab_size);
    let act = c.activation_function.as_str();
    let src = c.max_source_positions;
    let mut sections = vec![];
    if c.has_encoder() {
        let sizes = EncoderSizes {
            mel_bins: c.num_mel_bins,
            positions: src,
            hidden: h,
            layers: c.encoder_layers,
            heads: c.encoder_attention_heads,
            ffn: c.encoder_ffn_dim,
        };
        sections.extend(encoder(&format!("{p}encoder"), &sizes, act));
    }
    if c.has_decoder() {
        let dec = format!("{p}decoder");
        let tokens = format!("{dec}.embed_tokens.weight");
        sections.push(Section {
            name: dec.clone(),
            role: Role::Embeddings,
            repeat: 1,
            nodes: vec![
                Node::new("decoder_input_ids", Op::Input, "decoder token ids", &[seq]),
                Node::new(format!("{dec}.embed_tokens"), Op::Embedding, format!("{v} tokens"), &[seq, h])
                    .with([Tensor::new(&tokens, &[v, h])]),
                Node::new(
                    format!("{dec}.embed_positions"),
                    Op::Embedding,
                    format!("{} positions, learned", c.max_target_positions),
                    &[seq, h],
                )
                .with([Tensor::new(format!("{dec}.embed_positions.weight"), &[c.max_target_positions, h])]),
            ],
        });
        let (heads, ffn) = (c.decoder_attention_heads, c.decoder_ffn_dim);
        let layer = |l: &str| decoder_layer(l, seq, h, heads, ffn, act, false);
        sections.extend(layers_then_norm(&dec, c.decoder_layers, layer, "the decoder's output", [seq, h]));
        if c.head != Head::Model {
            let mut w = Tensor::new("proj_out.weight", &[v, h]);
            if c.tie_word_embeddings {
                w.tied_to = Some(tokens);
            }
            sections.push(Section {
                name: "proj_out".into(),
                role: Role::Head,
                repeat: 1,
                nodes: vec![
                    Node::new("proj_out", Op::Linear, "logits over the vocabulary", &[seq, v]).with([w]),
                ],
            });
        }
    }
    if let Head::AudioClassification { num_labels } = c.head {
        let mut nodes = vec![];
        if c.use_weighted_layer_sum {
            let n = c.num_hidden_layers + 1;
            nodes.push(
                Node::new(
                    "layer_weights",
                    Op::Add,
                    format!("softmax-weighted sum of {n} hidden states"),
                    &[src, h],
                )
                .with([Tensor::new("layer_weights", &[n])]),
            );
        }
        let proj = c.classifier_proj_size;
        nodes.push(linear("projector", "per-frame projection", src, h, proj, true));
        nodes.push(linear("classifier", "labels from the mean over frames", 1, proj, num_labels, true));
        sections.push(Section { name: "classifier".into(), role: Role::Head, repeat: 1, nodes });
    }
    Graph { seq_len: seq, sections }
}

/// A Whisper encoder's sizes (`max_source_positions` frames after the strided convolution).
#[derive(Debug, Clone, Serialize)]
pub struct EncoderSizes {
    pub mel_bins: u64,
    pub positions: u64,
    pub hidden: u64,
    pub layers: u64,
    pub heads: u64,
    pub ffn: u64,
}

/// A Whisper encoder under `e`: the two convolutions over the log-mel spectrogram, the frozen
/// sinusoidal positions, the pre-norm layers and the final `layer_norm` (also the audio tower of
/// Audio Flamingo 3, whose average pooling has no weights).
pub fn encoder(e: &str, s: &EncoderSizes, act: &str) -> Vec<Section> {
    let (h, src) = (s.hidden, s.positions);
    let mut sections = vec![Section {
        name: e.to_string(),
        role: Role::Embeddings,
        repeat: 1,
        nodes: vec![
            Node::new(
                "input_features",
                Op::Input,
                format!("log-mel spectrogram: {} bins x {} frames (30 s)", s.mel_bins, 2 * src),
                &[s.mel_bins, 2 * src],
            ),
            conv(&format!("{e}.conv1"), "kernel 3, then GELU", &[2 * src, h], s.mel_bins, h),
            conv(&format!("{e}.conv2"), "kernel 3, stride 2, then GELU", &[src, h], h, h),
            Node::new(
                format!("{e}.embed_positions"),
                Op::Embedding,
                format!(
                    "{src} positions, sinusoidal values stored as a frozen parameter (requires_grad False)"
                ),
                &[src, h],
            )
            .with([Tensor::new(format!("{e}.embed_positions.weight"), &[src, h])]),
        ],
    }];
    let layer = |l: &str| encoder_layer(l, src, h, s.heads, s.ffn, act, false);
    sections.extend(layers_then_norm(e, s.layers, layer, "the encoder's output", [src, h]));
    sections
}

pub fn checkpoint_candidates(c: &WhisperConfig) -> Vec<Candidate> {
    let mut out = vec![];
    if c.tie_word_embeddings && c.has_decoder() {
        out.push(Candidate::extra(
            "tied output projection stored twice",
            vec![("proj_out.weight".into(), vec![c.vocab_size, c.d_model])],
            "proj_out is tied to the decoder's token embeddings, but the checkpoint stores the matrix a second time",
        ));
    }
    out
}

/// A stack's `repeat` layers (`{stack}.layers.{i}`, built by `layer`), then the norm on its
/// output over `[rows, width]`.
fn layers_then_norm(
    stack: &str,
    repeat: u64,
    layer: impl FnOnce(&str) -> Vec<Node>,
    what: &str,
    [rows, width]: [u64; 2],
) -> [Section; 2] {
    let l = format!("{stack}.layers.{{i}}");
    let nodes = layer(&l);
    let norm = format!("{stack}.layer_norm");
    [
        Section { name: l, role: Role::Layers, repeat, nodes },
        Section {
            name: norm.clone(),
            role: Role::Layers,
            repeat: 1,
            nodes: vec![layer_norm(&norm, what, rows, width)],
        },
    ]
}
