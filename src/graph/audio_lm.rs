//! Audio Flamingo 3's and Music Flamingo's graph, named as transformers 5.x's
//! `<X>ForConditionalGeneration`: the Whisper encoder under `model.audio_tower`,
//! `model.multi_modal_projector.linear_{1,2}`, the language model's own graph under
//! `model.language_model.` and an untied `lm_head`. The bare `<X>Model` drops the `model.` and
//! the head. The tower and projector are sections of role `vision` (run per audio window, not per
//! token), as a vision-language model's are.

use super::blocks::linear;
use super::composite::language_sections;
use super::kv::KvLayout;
use super::{Graph, Node, Op, Role, Section};
use crate::config::audio_lm::AudioLmConfig;

pub fn build(c: &AudioLmConfig, seq: u64) -> Graph {
    let p = if c.generation { "model." } else { "" };
    let mut sections = super::whisper::encoder(&format!("{p}audio_tower"), &c.audio, &c.audio_act);
    for s in &mut sections {
        s.role = Role::Vision;
    }
    let (ah, th, rows) = (c.audio.hidden, c.text.dims().hidden_size, c.audio_tokens());
    let m = format!("{p}multi_modal_projector");
    let nodes = vec![
        linear(
            &format!("{m}.linear_1"),
            "frames pooled 2 to 1, to the text width",
            rows,
            ah,
            th,
            c.projector_bias,
        ),
        Node::new(format!("{m}.act"), Op::Activation, c.projector_act.clone(), &[rows, th]),
        linear(&format!("{m}.linear_2"), "projector out", rows, th, th, c.projector_bias),
    ];
    sections.push(Section { name: m, role: Role::Vision, repeat: 1, nodes });
    sections.extend(language_sections(c.text.as_ref(), seq, &format!("{p}language_model."), false));
    Graph { seq_len: seq, sections }
}

impl super::Architecture for AudioLmConfig {
    fn class(&self) -> &str {
        &self.class
    }
    fn dims(&self) -> crate::config::Dims {
        self.text.dims()
    }
    fn defaulted(&self) -> &[crate::config::Defaulted] {
        &self.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        build(self, seq)
    }
    fn checkpoint_candidates(&self) -> Vec<super::Candidate> {
        vec![]
    }
    fn unscaled_residual_init(&self) -> bool {
        self.text.unscaled_residual_init()
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec!["model.".into()]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        self.text.kv_layout()
    }
    fn context_source(&self) -> String {
        format!("the language model's context (text_config, {})", self.text_type)
    }
    fn activations(&self) -> Vec<(&'static str, String)> {
        let mut out = self.text.activations();
        out.push(("audio_config.activation_function", self.audio_act.clone()));
        out.push(("projector_hidden_act", self.projector_act.clone()));
        out
    }
    fn training_notes(&self) -> Vec<String> {
        let a = &self.audio;
        vec![format!(
            "Not modelled: the audio tower's and projector's activations, which depend on the audio per sample, not on the sequence ({} mel frames per 30-second window through {} layers of width {}); the training figures count their weights, gradients and optimizer states, and the language model's activations at the sequence length. Assumed: each 30-second window of audio takes {} tokens of that sequence (max_source_positions / 2, after the encoder's average pooling), so its KV cache is that many tokens' worth; the config does not cap the windows per sample. The cost's FLOPs are the language model's per token; the tower's per window are not added.",
            2 * a.positions,
            a.layers,
            a.hidden,
            self.audio_tokens()
        )]
    }
}
