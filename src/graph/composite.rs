//! A vision-language wrapper's graph, named as transformers 5.x's `<X>ForConditionalGeneration`:
//! `model.vision_tower.*`, `model.multi_modal_projector.*`, `model.language_model.*` (the text
//! model's own graph, moved under it) and `lm_head`. The bare `<X>Model` drops the `model.`.

use serde::Serialize;

use super::blocks::{layer_norm, linear, rms_norm};
use super::kv::KvLayout;
use super::{Architecture, Graph, Node, Op, Role, Section, Tensor};
use crate::config::composite::{CompositeConfig, Projector};

/// The parts of a vision-language model, for the page and the JSON (`vision`).
#[derive(Debug, Clone, Serialize)]
pub struct VisionPart {
    /// `siglip_vision_model`, `clip_vision_model`, `pixtral`.
    pub tower: String,
    pub tower_params: u64,
    pub projector_params: u64,
    /// The language model's type (`gemma3_text`, `llama`) and its parameters, head included.
    pub language_model: String,
    pub language_model_params: u64,
    pub image_size: u64,
    pub patch_size: u64,
    /// Tokens one image takes in the sequence, where the config says (null: it varies with the
    /// image, as Pixtral's do), and the key it comes from.
    pub image_tokens: Option<u64>,
    pub image_tokens_source: Option<String>,
    /// KV cache one image's tokens take, bf16.
    pub kv_bytes_per_image_bf16: Option<u64>,
}

fn prefix(c: &CompositeConfig) -> &'static str {
    if (c.generation || c.score_labels.is_some()) && !c.wrapper.text_whole { "model." } else { "" }
}

fn moved(name: &str, lm: &str) -> String {
    let rest = name.strip_prefix("model.").unwrap_or(name);
    format!("{lm}{rest}")
}

pub fn build(c: &CompositeConfig, seq: u64) -> Graph {
    let p = prefix(c);
    let w = c.wrapper;
    let t = format!("{p}{}", w.tower);
    let mut sections = c.vision.sections(&t);
    sections.push(projector(c, &format!("{p}{}", w.projector)));
    sections.extend(language_sections(
        c.text.as_ref(),
        seq,
        &format!("{p}{}.", w.language_model),
        w.text_whole,
    ));
    if let Some(labels) = c.score_labels {
        let (what, rows) = match c.score_per_token {
            true => ("labels per token", seq),
            false => ("labels, read at the last non-padding token", 1),
        };
        let node = linear("score", what, rows, c.text.dims().hidden_size, labels, c.score_per_token);
        sections.push(Section { name: "score".into(), role: Role::Head, repeat: 1, nodes: vec![node] });
    }
    Graph { seq_len: seq, sections }
}

/// The language model's graph with its sections moved under `lm` (`model.language_model.`); its
/// head keeps its own name.
pub(crate) fn language_sections(text: &dyn Architecture, seq: u64, lm: &str, whole: bool) -> Vec<Section> {
    // Llama 4 keeps the text class whole under `language_model.`; the others move its base model.
    let to = |name: &str| if whole { format!("{lm}{name}") } else { moved(name, lm) };
    let mut sections = text.graph(seq).sections;
    for s in &mut sections {
        if s.role != Role::Head || whole {
            s.name = to(&s.name);
            for n in &mut s.nodes {
                if n.op != Op::Input {
                    n.name = to(&n.name);
                }
                for t in &mut n.params {
                    t.name = to(&t.name);
                }
            }
        }
        for n in &mut s.nodes {
            for t in &mut n.params {
                t.tied_to = t.tied_to.as_ref().map(|to_| to(to_));
            }
        }
    }
    sections
}

fn projector(c: &CompositeConfig, m: &str) -> Section {
    let v = &c.vision;
    let (vh, th) = (v.hidden_size, c.text.dims().hidden_size);
    let rows = c.image_tokens.as_ref().map_or(v.patches(), |(n, _)| *n);
    let nodes = match c.projector {
        Projector::Gemma3 => vec![
            rms_norm(
                &format!("{m}.mm_soft_emb_norm"),
                "RMSNorm (1 + w) on the pooled patches",
                &[rows, vh],
                vh,
            ),
            Node::new(m, Op::Linear, "to the language model's width", &[rows, th])
                .with([Tensor::new(format!("{m}.mm_input_projection_weight"), &[vh, th])]),
        ],
        Projector::Mlp2 { bias, feature_layers, image_newline } => {
            let mut nodes = mlp2(m, rows, vh * feature_layers, th, bias);
            if image_newline {
                nodes.push(newline(m, th));
            }
            nodes
        }
        Projector::PooledMlp2 { bias, feature_layers, stride, out } => {
            let mut nodes = mlp2(m, rows, vh * feature_layers, th, bias);
            nodes.push(newline(m, th));
            let pool = m.replace("multi_modal_projector", "vision_resampler.pool");
            nodes.push(
                Node::new(
                    &pool,
                    Op::Embedding,
                    format!("video frames pooled {stride}x{stride}"),
                    &[rows, out],
                )
                .with([
                    Tensor::new(format!("{pool}.weight"), &[out, vh, stride, stride]),
                    Tensor::new(format!("{pool}.bias"), &[out]),
                ]),
            );
            nodes
        }
        Projector::Linear { projection_dim } => {
            vec![linear(&format!("{m}.linear"), "to projection_dim", rows, vh, projection_dim, true)]
        }
        Projector::PatchMerger { merge, bias, feature_layers } => {
            let mut nodes = vec![
                rms_norm(&format!("{m}.norm"), "RMSNorm", &[rows, vh], vh),
                linear(
                    &format!("{m}.patch_merger.merging_layer"),
                    &format!("merges {merge}x{merge} patches"),
                    rows,
                    vh * merge * merge,
                    vh,
                    false,
                ),
            ];
            nodes.extend(mlp2(m, rows, vh * feature_layers, th, bias));
            nodes
        }
        Projector::PixelShuffleSwiglu { factor, intermediate } => {
            let (rows, wide) = (v.patches() / (factor * factor), vh * factor * factor);
            vec![
                layer_norm(
                    &format!("{m}.layernorm"),
                    &format!("LayerNorm on {factor}x{factor} patches shuffled into one token"),
                    &[rows, wide],
                    wide,
                    true,
                ),
                linear(
                    &format!("{m}.linear_1"),
                    "projector up, halves x and gate",
                    rows,
                    wide,
                    intermediate,
                    true,
                ),
                Node::new(
                    format!("{m}.act"),
                    Op::Activation,
                    "SwiGLU (SiLU on the gate half)",
                    &[rows, intermediate / 2],
                ),
                linear(&format!("{m}.linear_2"), "projector out", rows, intermediate / 2, th, true),
            ]
        }
        Projector::Connector { factor } => vec![linear(
            &format!("{m}.modality_projection.proj"),
            &format!("{factor}x{factor} patches shuffled into one token, to the text width"),
            v.patches() / (factor * factor),
            vh * factor * factor,
            th,
            false,
        )],
        Projector::InternMlp { factor } => {
            let (rows, wide) = (v.patches() / (factor * factor), vh * factor * factor);
            let mut nodes = vec![layer_norm(
                &format!("{m}.layer_norm"),
                &format!("LayerNorm on {factor}x{factor} patches shuffled into one token"),
                &[rows, wide],
                wide,
                true,
            )];
            nodes.extend(mlp2(m, rows, wide, th, true));
            nodes
        }
        Projector::VisionOutput { input, bias, sub } => {
            vec![linear(&format!("{m}{sub}"), "vision_output_dim to the text width", rows, input, th, bias)]
        }
        Projector::QwenMerger => match &v.qwen {
            Some(q) => super::qwen_vision::merger(v, q, m),
            None => vec![],
        },
    };
    Section { name: m.to_string(), role: Role::Vision, repeat: 1, nodes }
}

/// LLaVA-NeXT's learned `image_newline`, beside the projector.
fn newline(m: &str, th: u64) -> Node {
    let name = m.replace("multi_modal_projector", "image_newline");
    Node::new(&name, Op::Embedding, "a learned token after each row of patches", &[1, th])
        .with([Tensor::new(name.clone(), &[th])])
}

fn mlp2(m: &str, rows: u64, inp: u64, th: u64, bias: bool) -> Vec<Node> {
    vec![
        linear(&format!("{m}.linear_1"), "projector up", rows, inp, th, bias),
        Node::new(format!("{m}.act"), Op::Activation, "GELU", &[rows, th]),
        linear(&format!("{m}.linear_2"), "projector out", rows, th, th, bias),
    ]
}

impl CompositeConfig {
    pub fn vision_part(&self) -> VisionPart {
        let g = build(self, 1);
        let p = prefix(self);
        let within = |start: &str| {
            g.sections.iter().filter(|s| s.name.starts_with(start)).map(Section::param_count).sum::<u64>()
        };
        let projector_params = within(&format!("{p}{}", self.wrapper.projector));
        // Qwen's merger sits inside its tower (`visual.merger`).
        let inside = self.wrapper.projector.starts_with(self.wrapper.tower);
        let tower_params =
            within(&format!("{p}{}", self.wrapper.tower)) - if inside { projector_params } else { 0 };
        let layout = self.text.kv_layout();
        let kv_per_token = layout.as_ref().map_or(0, |l| l.values_per_token());
        // Mllama: an image's patch states, cached once in each cross-attention layer.
        let cross = layout.as_ref().map_or(0, |l| {
            l.cross.as_ref().map_or(0, |x| x.layers * x.values_per_token) * l.cross_fixed_len.unwrap_or(0)
        });
        VisionPart {
            tower: self.vision.model_type.clone(),
            tower_params,
            projector_params,
            language_model: self.text_type.clone(),
            language_model_params: g.param_count() - tower_params - projector_params,
            image_size: self.vision.image_size,
            patch_size: self.vision.patch_size,
            image_tokens: self.image_tokens.as_ref().map(|(n, _)| *n),
            image_tokens_source: self.image_tokens.as_ref().map(|(_, s)| s.clone()),
            kv_bytes_per_image_bf16: self
                .image_tokens
                .as_ref()
                .and_then(|(n, _)| n.checked_mul(kv_per_token)?.checked_add(cross)?.checked_mul(2)),
        }
    }
}

impl Architecture for CompositeConfig {
    super::common::wrapper_basics!(text);
    fn checkpoint_prefixes(&self) -> Vec<String> {
        if self.wrapper.text_whole { vec![] } else { vec!["model.".into()] }
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        self.text.kv_layout()
    }
    fn prediction_layers(&self) -> Option<Graph> {
        // Qwen3.5's checkpoints keep the text model's `mtp.` weights at the top level.
        self.text.prediction_layers()
    }
    fn context_source(&self) -> String {
        format!("the language model's context (text_config, {})", self.text_type)
    }
    fn training_notes(&self) -> Vec<String> {
        let part = self.vision_part();
        let per_image = match part.image_size {
            0 => "patches as many as each image's resolution gives".to_string(),
            s => format!("{} patches per {s}x{s} image", self.vision.patches()),
        };
        let mut notes = vec![format!(
            "Not modelled: the vision tower's and projector's activations, which depend on the images per sample, not on the sequence ({} through {} layers of width {}); the training figures count their weights, gradients and optimizer states, and the language model's activations at the sequence length (image tokens included in it). Likewise the cost's FLOPs are the language model's per token; the tower's per image are not added.",
            per_image, self.vision.num_layers, self.vision.hidden_size
        )];
        notes.extend(self.text.training_notes());
        notes
    }
    fn vision(&self) -> Option<VisionPart> {
        Some(self.vision_part())
    }
}
