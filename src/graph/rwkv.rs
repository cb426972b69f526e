//! RWKV-4's graph, named as transformers' `RwkvModel` under `rwkv.`: `embeddings`, the first
//! block's `pre_ln`, then per block `ln1`, time mixing (`attention.{time_mix_*, key, value,
//! receptance, time_decay, time_first, output}`), `ln2`, channel mixing (`feed_forward.{time_mix_*,
//! key, receptance, value}`), and `ln_out`; `RwkvForCausalLM` adds `head`. No attention and no KV
//! cache: serving keeps five vectors per block and sequence.

use super::blocks::{layer_norm, linear, token_embeddings};
use super::common::{alone, lm_head, no_candidates, recurrent_only};
use super::kv::{KvLayout, RecurrentState};
use super::{Graph, Node, Op, Role, Section, Tensor};
use crate::config::spec_recur::RwkvConfig;

architecture!(
    RwkvConfig,
    |_c| activations: vec![],
    prefixes: ["rwkv."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        recurrent_only(state(self))
    }
    fn context_source(&self) -> String {
        "`context_length`, the length it was trained at (as a recurrent network it reads any length at a fixed state)".into()
    }
    fn training_notes(&self) -> Vec<String> {
        vec![WKV_NOTE.into()]
    }
);

const WKV_NOTE: &str = "Not modelled: the tensors the WKV recurrence saves for its backward pass. The training figures count the linears, token shifts and norms around it, so they are a floor for RWKV blocks.";

/// `RwkvModel.forward`'s state: five `[hidden]` vectors per block (the two token shifts, and
/// the WKV numerator, denominator and running maximum, which transformers keeps in float32).
pub fn state(c: &RwkvConfig) -> RecurrentState {
    let h = c.hidden_size;
    RecurrentState {
        layers: c.num_layers,
        conv_values: 2 * h,
        ssm_values: 3 * h,
        what: format!(
            "token shifts: 2 x {h} hidden; WKV: 3 x {h} hidden (numerator, denominator, maximum; float32 in transformers, counted here at the cache's width)"
        ),
    }
}

pub fn build(c: &RwkvConfig, seq: u64) -> Graph {
    let (h, att, ffn) = (c.hidden_size, c.attention_hidden_size, c.intermediate_size);
    let mut sections = vec![token_embeddings("rwkv.embeddings", seq, c.vocab_size, h)];
    sections.push(Section {
        name: "rwkv.blocks.0.pre_ln".into(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![layer_norm("rwkv.blocks.0.pre_ln", "LayerNorm on the embeddings", &[seq, h], h, true)],
    });
    let b = "rwkv.blocks.{i}";
    let (a, f) = (format!("{b}.attention"), format!("{b}.feed_forward"));
    let mix = |m: &str, names: &[&str]| {
        Node::new(
            format!("{m}.time_shift"),
            Op::Add,
            "token shift: each input mixed with the previous one",
            &[seq, h],
        )
        .with(names.iter().map(|n| Tensor::new(format!("{m}.time_mix_{n}"), &[1, 1, h])))
    };
    let nodes = vec![
        layer_norm(&format!("{b}.ln1"), "LayerNorm before time mixing", &[seq, h], h, true),
        mix(&a, &["key", "value", "receptance"]),
        linear(&format!("{a}.key"), "key", seq, h, att, false),
        linear(&format!("{a}.value"), "value", seq, h, att, false),
        linear(&format!("{a}.receptance"), "receptance", seq, h, att, false),
        Node::new(a.clone(), Op::Scan, format!("WKV recurrence over {att} channels"), &[seq, att]).with([
            Tensor::new(format!("{a}.time_decay"), &[att]),
            Tensor::new(format!("{a}.time_first"), &[att]),
        ]),
        linear(&format!("{a}.output"), "time mixing output", seq, att, h, false),
        Node::new(format!("{b}.attention_residual"), Op::Add, "residual add", &[seq, h]),
        layer_norm(&format!("{b}.ln2"), "LayerNorm before channel mixing", &[seq, h], h, true),
        mix(&f, &["key", "receptance"]),
        linear(&format!("{f}.key"), "key", seq, h, ffn, false),
        Node::new(format!("{f}.act"), Op::Activation, "squared ReLU", &[seq, ffn]),
        linear(&format!("{f}.receptance"), "receptance gate", seq, h, h, false),
        linear(&format!("{f}.value"), "value", seq, ffn, h, false),
        Node::new(format!("{b}.residual"), Op::Add, "residual add", &[seq, h]),
    ];
    sections.push(Section { name: b.into(), role: Role::Layers, repeat: c.num_layers, nodes });
    sections.push(alone(layer_norm("rwkv.ln_out", "final LayerNorm", &[seq, h], h, true), Role::Layers));
    if c.causal_lm {
        let what = "logits over the vocabulary";
        let head =
            lm_head("head", what, [seq, h, c.vocab_size], c.tie_word_embeddings, "rwkv.embeddings.weight");
        sections.push(alone(head, Role::Head));
    }
    Graph { seq_len: seq, sections }
}
