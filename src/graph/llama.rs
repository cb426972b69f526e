//! One graph builder for the Llama lineage (see `config/decoder.rs`): pre-norm decoder layers
//! with RMSNorm, rotary positions, grouped or latent attention and a gated MLP or a mixture of
//! experts. Names are those of the class's `state_dict()`: `model.layers.{i}.self_attn.q_proj`,
//! `model.layers.{i}.block_sparse_moe.experts.{e}.w1`, `lm_head`.

use super::blocks::{HeadNames, head_section, layer_norm, rms_norm};
use super::kv::{KvGroup, KvLayout};
use super::{Candidate, Graph, Node, Op, Role, Section, Tensor};
use crate::config::llama::{Attention, DecoderConfig, Head, NormKind};
use crate::config::{Common, ConfigError};

mod layer;

use layer::layer_nodes;

impl DecoderConfig {
    /// Reads and resolves a config of any type of the lineage, then checks that its sizes
    /// together describe a model within reach.
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let c = Self::read(value, common)?;
        c.check_scale()?;
        Ok(c)
    }

    /// Each size is bounded on its own, but their products can still describe a model no
    /// machine holds, whose count would overflow and whose tensor names would not fit in memory.
    /// The graph is built once and sized in floating point to refuse such configs, naming the
    /// key behind the largest part.
    fn check_scale(&self) -> Result<(), ConfigError> {
        const MAX_EXPERT_COPIES: u64 = 1 << 20;
        if let Some(m) = &self.moe {
            let sparse = self.sparse_layers.iter().filter(|s| **s).count() as u64;
            if sparse * m.num_experts > MAX_EXPERT_COPIES {
                return Err(ConfigError::field(
                    m.experts_field,
                    format!(
                        "{} experts in each of {sparse} layers is beyond any real model (at most {MAX_EXPERT_COPIES} in all)",
                        m.num_experts
                    ),
                ));
            }
        }
        let field = |name: &str| {
            if name.contains("embed_tokens") || name == "lm_head" {
                "vocab_size"
            } else if name.contains("{e}") {
                self.moe.as_ref().map_or("num_hidden_layers", |m| m.experts_field)
            } else if name.contains("mlp") || name.contains("shared_expert") {
                "intermediate_size"
            } else if name.contains("self_attn") {
                "num_attention_heads"
            } else {
                "num_hidden_layers"
            }
        };
        super::common::check_scale(&build(self, 1), field)
    }
}

architecture!(
    DecoderConfig,
    |c| activations: vec![(c.hidden_act_field, c.hidden_act.clone())],
    prefixes: ["model.", "transformer."],
    candidates: checkpoint_candidates,
    // `_init_weights` draws every linear from normal(0, initializer_range), depth-blind.
    unscaled_residual_init: true;
    fn kv_layout(&self) -> Option<KvLayout> {
        use crate::config::llama::Attention;
        let (values_per_token, what) = match &self.attention {
            Attention::Grouped { num_kv_heads, head_dim, .. } => {
                (2 * num_kv_heads * head_dim, format!("2 x {num_kv_heads} KV heads x {head_dim} head_dim"))
            }
            // vLLM and SGLang cache the compressed latent and the shared rotary key; transformers'
            // own cache stores the decompressed keys and values instead.
            Attention::Latent { kv_lora_rank, qk_rope_head_dim, .. } => (
                kv_lora_rank + qk_rope_head_dim,
                format!("latent: kv_lora_rank {kv_lora_rank} + qk_rope_head_dim {qk_rope_head_dim}"),
            ),
        };
        let group = |layers: u64, window: Option<u64>, kind: &str| KvGroup {
            layers,
            values_per_token,
            window,
            what: format!("{kind}: {what}"),
        };
        let groups = if !self.layer_types.is_empty() {
            let sliding = self.layer_types.iter().filter(|t| *t == "sliding_attention").count() as u64;
            let full = self.layer_types.len() as u64 - sliding;
            [(full, None, "full attention"), (sliding, self.sliding_window, "sliding window")]
                .into_iter()
                .filter(|(n, _, _)| *n > 0)
                .map(|(n, w, k)| group(n, w, k))
                .collect()
        } else {
            match self.sliding_window {
                Some(w) => vec![group(self.num_layers, Some(w), "sliding window, every layer")],
                None => vec![group(self.num_layers, None, "full attention")],
            }
        };
        Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None })
    }
);

/// Where the class keeps its decoder stack: nowhere for the bare model, `model.` for the heads
/// (`transformer.` for Llama's and Qwen's question answering).
fn decoder_prefix(c: &DecoderConfig) -> &'static str {
    match c.head {
        Head::Model => "",
        Head::QuestionAnswering if c.desc.heads.qa_under_transformer => "transformer.",
        _ => "model.",
    }
}

/// Gemma's RMSNorm scales by (1 + weight); the others by weight. Only the wording differs.
fn norm_word(c: &DecoderConfig) -> &'static str {
    match (c.desc.norm, c.desc.gemma_norm) {
        (NormKind::LayerNorm, _) => "LayerNorm",
        (NormKind::Rms, true) => "RMSNorm (1 + w)",
        (NormKind::Rms, false) => "RMSNorm",
    }
}

/// A layer's or the final norm over the hidden state, of the type's kind.
fn hidden_norm(c: &DecoderConfig, name: &str, what: &str, seq: u64) -> Node {
    let (detail, h) = (norm_detail(c, what), c.hidden_size);
    match c.desc.norm {
        NormKind::Rms => rms_norm(name, &detail, &[seq, h], h),
        NormKind::LayerNorm => layer_norm(name, &detail, &[seq, h], h, true),
    }
}

fn norm_detail(c: &DecoderConfig, what: &str) -> String {
    format!("{}, {what}", norm_word(c))
}

pub fn build(c: &DecoderConfig, seq: u64) -> Graph {
    let p = decoder_prefix(c);
    let h = c.hidden_size;
    let v = c.vocab_size;
    let embed = format!("{p}embed_tokens");
    let embed_weight = format!("{embed}.weight");
    let scale = if c.desc.gemma_norm { format!(", scaled by sqrt({h})") } else { String::new() };
    let mut sections = vec![super::blocks::embeddings_section(
        &embed,
        seq,
        [Node::new(&embed, Op::Embedding, format!("{v} tokens{scale}"), &[seq, h])
            .with([Tensor::new(&embed_weight, &[v, h])])],
    )];

    // Layers whose MLP differs (dense layers before or between mixture-of-experts layers) cannot
    // share a section: a run from layer 0 repeats with `{i}`, later layers are named one by one.
    let mut start = 0usize;
    let flags = &c.sparse_layers;
    while start < flags.len() {
        let mut end = start + 1;
        while end < flags.len() && flags[end] == flags[start] {
            end += 1;
        }
        if start == 0 {
            let l = format!("{p}layers.{{i}}");
            sections.push(Section {
                name: l.clone(),
                role: Role::Layers,
                repeat: end as u64,
                nodes: layer_nodes(c, &l, flags[0], seq),
            });
        } else {
            for (i, sparse) in flags.iter().enumerate().take(end).skip(start) {
                let l = format!("{p}layers.{i}");
                sections.push(Section {
                    name: l.clone(),
                    role: Role::Layers,
                    repeat: 1,
                    nodes: layer_nodes(c, &l, *sparse, seq),
                });
            }
        }
        start = end;
    }

    let norm = format!("{p}norm");
    sections.push(Section {
        name: norm.clone(),
        role: Role::Layers,
        repeat: 1,
        nodes: vec![hidden_norm(c, &norm, "final", seq)],
    });
    let names = HeadNames {
        lm: "lm_head",
        lm_bias: false,
        lm_note: c.final_logit_softcapping.map(|s| format!(", soft-capped at {s}")).unwrap_or_default(),
        token: "score",
        score_rows: Some(seq),
        tied_to: c.tie_word_embeddings.then_some(&embed_weight),
    };
    sections.extend(head_section(c.head, &names, seq, h, v));
    Graph { seq_len: seq, sections }
}

/// Tensors that a published checkpoint of these families may hold although the class does not
/// count them as parameters, or lack although the class builds them. Sizes come from the config.
pub fn checkpoint_candidates(c: &DecoderConfig) -> Vec<Candidate> {
    let p = decoder_prefix(c);
    // Checkpoints are saved from the causal-LM class, under `model.`.
    let ckpt_p = if p.is_empty() { "model." } else { p };
    let h = c.hidden_size;
    let v = c.vocab_size;
    let mut out = vec![];
    if matches!(c.attention, Attention::Grouped { .. }) {
        out.push(Candidate::extra(
            "rotary inv_freq buffers",
            (0..c.num_layers)
                .map(|i| (format!("{ckpt_p}layers.{i}.self_attn.rotary_emb.inv_freq"), vec![c.rotary_dim / 2]))
                .collect(),
            "the rotary embedding's inverse frequencies, a buffer that transformers before 4.31 kept persistent in every attention layer and so saved with the weights (Llama-2); not a parameter",
        ));
    }
    if let Some(m) = &c.moe
        && m.score_correction_bias
    {
        out.push(Candidate::extra(
            "router score-correction biases",
            c.sparse_layers
                .iter()
                .enumerate()
                .filter(|(_, s)| **s)
                .map(|(i, _)| (format!("{ckpt_p}layers.{i}.mlp.gate.e_score_correction_bias"), vec![m.num_experts]))
                .collect(),
            "DeepSeek-V3's router registers e_score_correction_bias as a persistent buffer: saved with the weights, not a parameter",
        ));
    }
    match (c.head, c.tie_word_embeddings) {
        (Head::CausalLm, true) => out.push(Candidate::extra(
            "tied lm_head stored twice",
            vec![("lm_head.weight".into(), vec![v, h])],
            "lm_head is tied to the token embeddings, but the checkpoint stores the matrix a second time",
        )),
        (Head::CausalLm, false) => {}
        (_, false) => out.push(Candidate::extra(
            "causal-LM head",
            vec![("lm_head.weight".into(), vec![v, h])],
            "the untied LM head of the causal-LM class the checkpoint was saved from; this class drops it",
        )),
        (_, true) => {}
    }
    out
}
