//! The state-space graph, named as transformers' `MambaModel` / `Mamba2Model` under `backbone.`:
//! `embeddings`, `layers.{i}.norm`, `layers.{i}.mixer.{in_proj, conv1d, x_proj, dt_proj, A_log,
//! D, norm, out_proj}`, `norm_f`, and `lm_head` (tied to the embeddings when the config says so).
//! No attention and no KV cache: serving keeps each layer's recurrent state per sequence.

use super::blocks::{linear, rms_norm, token_embeddings};
use super::common::{RECURRENT_CONTEXT, alone, lm_head, no_candidates, recurrent_only};
use super::kv::{KvLayout, RecurrentState};
use super::mixers::depthwise_conv;
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::ssm::{Mixer, SsmConfig};

architecture!(
    SsmConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["backbone."],
    candidates: no_candidates,
    // `rescale_prenorm_residual` defaults to False: out_proj is not scaled by depth.
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        recurrent_only(recurrent_state(self))
    }
    fn context_source(&self) -> String {
        RECURRENT_CONTEXT.into()
    }
    fn training_notes(&self) -> Vec<String> {
        vec![SCAN_NOTE.into()]
    }
);

/// [`super::common::check_scale`], naming `field` whatever part is the largest.
pub(crate) fn check_scale(g: &Graph, field: &'static str) -> Result<(), crate::config::ConfigError> {
    super::common::check_scale(g, |_| field)
}

/// What the training estimate leaves out for these layers.
pub const SCAN_NOTE: &str = "Not modelled: the tensors the selective scan saves for its backward pass (transformers' sequential scan keeps a state per step; the fused kernels recompute it). The training figures count the linears, convolution and norms around it only, so they are a floor for state-space layers.";

/// The per-sequence state transformers' cache allocates: `conv_states` (conv channels x
/// conv_kernel) and `ssm_states` (Mamba: channels x state_size; Mamba-2: heads x head_dim x
/// state_size), per layer.
pub fn recurrent_state(c: &SsmConfig) -> RecurrentState {
    if let Some(d) = c.mamba2() {
        return super::mamba2::state(c.num_layers, &d);
    }
    let conv = c.conv_channels();
    RecurrentState {
        layers: c.num_layers,
        conv_values: conv * c.conv_kernel,
        ssm_values: c.intermediate_size * c.state_size,
        what: format!(
            "conv: {conv} channels x {} conv_kernel; scan: {} channels x {} state_size",
            c.conv_kernel, c.intermediate_size, c.state_size
        ),
    }
}

pub fn build(c: &SsmConfig, seq: u64) -> Graph {
    let (h, inter, n) = (c.hidden_size, c.intermediate_size, c.state_size);
    let embeddings = "backbone.embeddings";
    let mut sections = vec![token_embeddings(embeddings, seq, c.vocab_size, h)];
    let l = "backbone.layers.{i}";
    let m = format!("{l}.mixer");
    let mut nodes = vec![rms_norm(&format!("{l}.norm"), "RMSNorm before the mixer", &[seq, h], h)];
    match (c.mixer, c.mamba2()) {
        (Mixer::Mamba { time_step_rank: r }, _) => {
            let (conv, k) = (c.conv_channels(), c.conv_kernel);
            let what = "depthwise causal convolution";
            nodes.push(linear(&format!("{m}.in_proj"), "x and the gate z", seq, h, 2 * inter, c.use_bias));
            nodes.push(depthwise_conv(&format!("{m}.conv1d"), what, seq, conv, k, c.use_conv_bias));
            nodes.push(linear(&format!("{m}.x_proj"), "dt, B and C", seq, inter, r + 2 * n, false));
            nodes.push(linear(&format!("{m}.dt_proj"), "dt to every channel", seq, r, inter, true));
            nodes.push(
                Node::new(
                    m.clone(),
                    Op::Scan,
                    format!("selective scan: {inter} channels x {n} states"),
                    &[seq, inter],
                )
                .with([
                    Tensor::new(format!("{m}.A_log"), &[inter, n]),
                    Tensor::new(format!("{m}.D"), &[inter]),
                ]),
            );
            nodes.push(linear(
                &format!("{m}.out_proj"),
                "mixer output projection",
                seq,
                inter,
                h,
                c.use_bias,
            ));
        }
        (_, Some(d)) => nodes.extend(super::mamba2::mixer(&m, seq, h, &d)),
        (Mixer::Mamba2 { .. }, None) => {}
    }
    nodes.push(Node::new(format!("{l}.residual"), Op::Add, "residual add", &[seq, h]));
    sections.push(Section { name: l.into(), role: Role::Layers, repeat: c.num_layers, nodes });
    sections.push(alone(rms_norm("backbone.norm_f", "final RMSNorm", &[seq, h], h), Role::Layers));
    if c.causal_lm {
        let (what, tie) = ("logits over the vocabulary", c.tie_word_embeddings);
        let head = lm_head("lm_head", what, [seq, h, c.vocab_size], tie, "backbone.embeddings.weight");
        sections.push(alone(head, Role::Head));
    }
    Graph { seq_len: seq, sections }
}
