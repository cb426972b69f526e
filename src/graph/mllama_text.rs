//! Llama 3.2 Vision's language model, named as `MllamaForCausalLM`'s modules (`model.` and
//! `lm_head`; `MllamaTextModel` without them): `embed_tokens` of `vocab_size + 8` rows, Llama
//! layers, and at `cross_attention_layers` a layer of `cross_attn` (q/k/v/o, RMSNorms per head on
//! q and k) and its MLP, each output scaled by a learned tanh gate; the head is never tied.
//! Serving: the self-attention layers cache the text; inside the wrapper each cross-attention
//! layer caches one image's patch states once per sequence.

use super::blocks::{Gqa, gated_mlp, gqa, linear, rms_norm, token_embeddings};
use super::common::no_candidates;
use super::kv::{KvGroup, KvLayout};
use super::mllama_vision::table;
use super::{Graph, Node, Role, Section};
use crate::config::mllama::MllamaTextConfig;
use crate::config::{Dims, QkNorm};

fn layer(c: &MllamaTextConfig, l: &str, cross: bool, seq: u64) -> Vec<Node> {
    let (h, hd) = (c.hidden_size, c.hidden_size / c.num_heads);
    let norm = |name: &str, what: &str| rms_norm(&format!("{l}.{name}"), what, &[seq, h], h);
    let attention = |a: &str, qk_norm, what: &str| {
        gqa(&Gqa {
            a,
            seq,
            hidden: h,
            heads: c.num_heads,
            kv_heads: c.num_kv_heads,
            head_dim: hd,
            qkv_bias: false,
            o_bias: false,
            fused_qkv: false,
            qk_norm,
            norm_word: "RMSNorm",
            what: what.into(),
        })
    };
    let mut nodes = vec![norm("input_layernorm", "RMSNorm before attention")];
    if cross {
        let a = format!("{l}.cross_attn");
        nodes.extend(attention(&a, QkNorm::PerHead, "cross-attention to the image's patch states"));
        nodes.push(table(format!("{l}.cross_attn_attn_gate"), "tanh gate on attention", &[seq, h], &[1]));
    } else {
        nodes.extend(attention(&format!("{l}.self_attn"), QkNorm::None, "causal, rotary"));
    }
    nodes.push(norm("post_attention_layernorm", "RMSNorm before the MLP"));
    nodes.extend(gated_mlp(&format!("{l}.mlp"), seq, h, c.intermediate_size, &c.hidden_act, false, false));
    if cross {
        nodes.push(table(format!("{l}.cross_attn_mlp_gate"), "tanh gate on the MLP", &[seq, h], &[1]));
    }
    nodes
}

pub fn build(c: &MllamaTextConfig, seq: u64) -> Graph {
    let p = if c.causal_lm { "model." } else { "" };
    let (h, v) = (c.hidden_size, c.vocab_size);
    let mut sections = vec![token_embeddings(&format!("{p}embed_tokens"), seq, v + 8, h)];
    sections.extend(super::gemma4::layer_sections(&c.cross, p, |l, cross| layer(c, l, *cross, seq)));
    let norm = format!("{p}norm");
    sections.push(Section {
        name: norm.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![rms_norm(&norm, "final norm", &[seq, h], h)],
    });
    if c.causal_lm {
        let node = linear("lm_head", "logits over the vocabulary", seq, h, v, false);
        sections.push(Section { name: "lm_head".into(), role: Role::Head, repeat: 1, nodes: vec![node] });
    }
    Graph { seq_len: seq, sections }
}

architecture!(
    MllamaTextConfig,
    |c| activations: vec![("hidden_act", c.hidden_act.clone())],
    prefixes: ["model."],
    candidates: no_candidates,
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        let (kv, hd) = (self.num_kv_heads, self.hidden_size / self.num_heads);
        let crossing = self.cross.iter().filter(|x| **x).count() as u64;
        let group = |layers, what: String| KvGroup { layers, values_per_token: 2 * kv * hd, window: None, what };
        let own = format!("2 x {kv} KV heads x {hd} head_dim");
        Some(KvLayout {
            groups: vec![group(self.cross.len() as u64 - crossing, own.clone())],
            cross: self.image_tokens.map(|_| group(crossing, format!("{own}, in the {crossing} cross-attention layers only"))),
            cross_fixed_len: self.image_tokens,
            recurrent: None,
        })
    }
    fn training_notes(&self) -> Vec<String> {
        let crossing = self.cross.iter().filter(|x| **x).count();
        vec![format!(
            "The {crossing} cross-attention layers are counted as if they read the text: their keys and values come from an image's patch states instead (none without images, when transformers skips these layers), so their activations and FLOPs here are an estimate at the sequence length."
        )]
    }
);

impl MllamaTextConfig {
    fn dims(&self) -> Dims {
        let d = Dims::mha(
            self.hidden_size,
            self.cross.len() as u64,
            self.num_heads,
            self.intermediate_size,
            self.vocab_size,
            self.max_position_embeddings,
        );
        Dims { num_kv_heads: self.num_kv_heads, layer_norm_eps: 1e-5, ..d }
    }
}
