//! ModernVBERT's and UltraVBERT's graph, named as transformers' modules: the SigLIP tower under
//! `model.vision_model`, `model.connector.modality_projection` (UltraVBERT adds
//! `model.connector.norm`), the text encoder's own graph under `model.text_model.`, and the
//! heads: `projection_head` before `lm_head`, or a `classifier` (ModernVBERT's after `head`).

use super::blocks::{linear, rms_norm};
use super::composite::VisionPart;
use super::encoder_decoder::moved;
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor, tied_if};
use crate::config::Dims;
use crate::config::bert::Head;
use crate::config::modernvbert::{ModernVBertConfig, Text};

fn lm_and_heads(c: &ModernVBertConfig, seq: u64, embed: &str) -> Option<Section> {
    let (h, v, n) = (c.text.arch().dims().hidden_size, c.text.arch().dims().vocab_size, c.num_labels);
    let (name, mut nodes, lm_bias) = match (&c.text, c.head) {
        (_, Head::Model) => return None,
        (Text::Modern(t), Head::MaskedLm) => {
            ("projection_head", super::modernbert::prediction_head(t, "projection_head", seq), t.decoder_bias)
        }
        (Text::Ultra(t), Head::MaskedLm) => {
            let p = t.prediction_head_size;
            let nodes = vec![
                linear(
                    "projection_head.linear1",
                    "down to the head's width, then GELU (tanh)",
                    seq,
                    h,
                    p,
                    false,
                ),
                linear("projection_head.linear2", "back to hidden, then GELU (tanh)", seq, p, h, false),
            ];
            ("projection_head", nodes, false)
        }
        (text, head) => {
            let rows = if matches!(head, Head::SequenceClassification { .. }) { 1 } else { seq };
            let mut nodes = match text {
                Text::Modern(t) => super::modernbert::prediction_head(t, "head", rows),
                Text::Ultra(_) => vec![],
            };
            nodes.push(linear("classifier", "labels", rows, h, n, true));
            return Some(Section { name: "classifier".into(), role: Role::Head, repeat: 1, nodes });
        }
    };
    let mut lm = Node::new("lm_head", Op::Linear, "logits over the vocabulary", &[seq, v]).with([tied_if(
        c.tie_word_embeddings,
        "lm_head.weight",
        &[v, h],
        embed,
    )]);
    if lm_bias {
        lm.params.push(Tensor::new("lm_head.bias", &[v]));
    }
    nodes.push(lm);
    Some(Section { name: name.into(), role: Role::Head, repeat: 1, nodes })
}

pub fn build(c: &ModernVBertConfig, seq: u64) -> Graph {
    let p = if c.head == Head::Model { "" } else { "model." };
    let mut sections = c.vision.sections(&format!("{p}vision_model"));
    let (vh, th, f) = (c.vision.hidden_size, c.text.arch().dims().hidden_size, c.pixel_shuffle_factor);
    let k = c.image_tokens();
    let m = format!("{p}connector");
    let mut connector = vec![linear(
        &format!("{m}.modality_projection"),
        &format!("{f}x{f} patches shuffled into one token, to the text width"),
        k,
        vh * f * f,
        th,
        false,
    )];
    if matches!(c.text, Text::Ultra(_)) {
        connector.push(rms_norm(
            &format!("{m}.norm"),
            "RMSNorm, setting the image tokens' scale",
            &[k, th],
            th,
        ));
    }
    sections.push(Section { name: m, role: Role::Vision, repeat: 1, nodes: connector });
    let t = format!("{p}text_model.");
    sections.extend(c.text.arch().graph(seq).sections.into_iter().map(|s| moved(s, &t)));
    let embed = match c.text {
        Text::Modern(_) => format!("{t}embeddings.tok_embeddings.weight"),
        Text::Ultra(_) => format!("{t}embed_tokens.weight"),
    };
    sections.extend(lm_and_heads(c, seq, &embed));
    Graph { seq_len: seq, sections }
}

fn candidates(_: &ModernVBertConfig) -> Vec<Candidate> {
    vec![]
}

impl ModernVBertConfig {
    fn vision_part(&self) -> VisionPart {
        let g = build(self, 1);
        let vision: u64 =
            g.sections.iter().filter(|s| s.role == Role::Vision).map(Section::param_count).sum();
        let projector =
            g.sections.iter().find(|s| s.name.ends_with("connector")).map_or(0, Section::param_count);
        VisionPart {
            tower: self.vision.model_type.clone(),
            tower_params: vision - projector,
            projector_params: projector,
            language_model: match self.text {
                Text::Modern(_) => "modernbert".into(),
                Text::Ultra(_) => "ultrabert".into(),
            },
            language_model_params: g.param_count() - vision,
            image_size: self.vision.image_size,
            patch_size: self.vision.patch_size,
            image_tokens: Some(self.image_tokens()),
            image_tokens_source: Some("(image_size / patch_size)² / pixel_shuffle_factor²".into()),
            kv_bytes_per_image_bf16: None,
        }
    }
}

impl super::Architecture for ModernVBertConfig {
    fn activations(&self) -> Vec<(&'static str, String)> {
        self.text.arch().activations()
    }
    fn class(&self) -> &str {
        &self.class
    }
    fn dims(&self) -> Dims {
        ModernVBertConfig::dims(self)
    }
    fn defaulted(&self) -> &[crate::config::Defaulted] {
        &self.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        build(self, seq)
    }
    fn checkpoint_candidates(&self) -> Vec<Candidate> {
        candidates(self)
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec!["model.".into()]
    }
    fn unscaled_residual_init(&self) -> bool {
        true
    }
    fn context_source(&self) -> String {
        "the text model's context (text_config)".into()
    }
    fn training_notes(&self) -> Vec<String> {
        vec![format!(
            "Not modelled: the vision tower's activations, which depend on the images per sample ({} patches per {}x{} image through {} layers of width {}, {} tokens after the pixel shuffle); the training figures count the tower's weights, gradients and optimizer states, and the text encoder's activations at the sequence length.",
            self.vision.patches(),
            self.vision.image_size,
            self.vision.image_size,
            self.vision.num_layers,
            self.vision.hidden_size,
            self.image_tokens()
        )]
    }
    fn vision(&self) -> Option<VisionPart> {
        Some(self.vision_part())
    }
}
