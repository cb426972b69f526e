//! Moshi's text decoder, named as transformers' `MoshiForCausalLM`: `model.embed_tokens` (one
//! row more than the vocabulary), `model.layers.{i}` (`self_attn.{q,k,v,o}_proj.linear`, the
//! gating `mlp.fc1` / `mlp.fc2`, two RMSNorms), `model.norm`, an untied `lm_head`. The bare
//! `MoshiModel` drops the `model.` and the head.

use super::blocks::{embedding, linear, rms_norm};
use super::common::{alone, kv_what, lm_head, no_candidates};
use super::kv::{KvGroup, KvLayout};
use super::{Graph, Node, Op, Role, Section};
use crate::config::moshi::MoshiConfig;

architecture!(
    MoshiConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: false;
    fn kv_layout(&self) -> Option<KvLayout> {
        let kv = self.num_kv_heads * self.head_dim;
        Some(KvLayout {
            groups: vec![KvGroup {
                layers: self.num_layers,
                values_per_token: 2 * kv,
                window: Some(self.sliding_window),
                what: format!("text decoder self-attention: {}", kv_what(self.num_kv_heads, kv)),
            }],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        })
    }
    fn training_notes(&self) -> Vec<String> {
        vec!["Planned: Moshi's text decoder (MoshiModel, MoshiForCausalLM). MoshiForConditionalGeneration also holds the Mimi audio codec, the depth decoder over the audio codebooks and their embeddings, which these figures do not include.".into()]
    }
);

fn layer(c: &MoshiConfig, l: &str, seq: u64) -> Vec<Node> {
    let (h, q, kv, f) = (c.hidden_size, c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim, c.ffn_dim);
    let a = format!("{l}.self_attn");
    let proj = |name: &str, what: &str, inp: u64, out: u64| {
        linear(&format!("{a}.{name}.linear"), what, seq, inp, out, false)
    };
    vec![
        rms_norm(&format!("{l}.input_layernorm"), "RMSNorm", &[seq, h], h),
        proj("q_proj", "query projection", h, q),
        proj("k_proj", "key projection", h, kv),
        proj("v_proj", "value projection", h, kv),
        Node::new(
            &a,
            Op::Attention,
            format!(
                "{} query heads x {} over {} key/value heads, causal, rotary, window {}",
                c.num_heads, c.head_dim, c.num_kv_heads, c.sliding_window
            ),
            &[seq, q],
        ),
        proj("o_proj", "attention output projection", q, h),
        rms_norm(&format!("{l}.post_attention_layernorm"), "RMSNorm", &[seq, h], h),
        linear(&format!("{l}.mlp.fc1"), "gate and value halves", seq, h, f, false),
        Node::new(
            format!("{l}.mlp.act"),
            Op::Activation,
            format!("{}(gate) * value", c.hidden_act),
            &[seq, f / 2],
        ),
        linear(&format!("{l}.mlp.fc2"), "down projection from one half", seq, f / 2, h, false),
    ]
}

pub fn build(c: &MoshiConfig, seq: u64) -> Graph {
    let p = if c.causal_lm { "model." } else { "" };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let embed = format!("{p}embed_tokens");
    let mut sections = vec![Section {
        name: embed.clone(),
        role: Role::Embeddings,
        repeat: 1,
        nodes: vec![
            Node::new("input_ids", Op::Input, "text token ids", &[seq]),
            embedding(&embed, format!("{v} tokens and a padding row"), seq, v + 1, h),
        ],
    }];
    let l = format!("{p}layers.{{i}}");
    let nodes = layer(c, &l, seq);
    sections.push(Section { name: l, role: Role::Layers, repeat: c.num_layers, nodes });
    sections.push(alone(rms_norm(&format!("{p}norm"), "RMSNorm", &[seq, h], h), Role::Layers));
    if c.causal_lm {
        let head = lm_head("lm_head", "logits over the text vocabulary", [seq, h, v], false, "");
        sections.push(alone(head, Role::Head));
    }
    Graph { seq_len: seq, sections }
}
