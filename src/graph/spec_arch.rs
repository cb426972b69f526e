//! How a described type (`config/spec.rs`) plans: its dimensions, its KV cache by layer window,
//! and the tensors a checkpoint may hold that its class does not.

use super::blocks::{embedding, linear};
use super::kv::{KvGroup, KvLayout};
use super::mixers::{delta_net_state, lightning_state};
use super::spec::{build, layer, norm_node};
use super::{Architecture, Candidate, Graph};
use super::{Node, Op, Role, Section, Tensor};
use crate::config::decoder::DecoderHead;
use crate::config::spec::{Linear, SpecConfig};
use crate::config::{Defaulted, Dims};

impl Architecture for SpecConfig {
    fn activations(&self) -> Vec<(&'static str, String)> {
        vec![("hidden_act", self.hidden_act.clone())]
    }
    fn class(&self) -> &str {
        &self.class
    }
    fn dims(&self) -> Dims {
        Dims {
            hidden_size: self.hidden_size,
            num_layers: self.num_layers,
            num_heads: self.num_heads,
            num_kv_heads: self.num_kv_heads,
            head_dim: self.head_dim,
            intermediate_size: self.intermediate_size,
            vocab_size: self.vocab_size,
            context: self.max_position_embeddings,
            usable_context: self.max_position_embeddings,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.norm_eps,
            num_experts: self.num_experts,
            experts_per_token: self.experts_per_token,
        }
    }
    fn defaulted(&self) -> &[Defaulted] {
        &self.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        build(self, seq)
    }
    fn checkpoint_candidates(&self) -> Vec<Candidate> {
        let mut out = vec![];
        if let Some(m) = &self.spec.moe
            && let Some(buffer) = m.correction_buffer
        {
            let n = self.num_experts.unwrap_or(0);
            let tensors = (0..self.num_layers as usize)
                .filter(|i| self.sparse_layers.get(*i).copied().unwrap_or(false))
                .map(|i| {
                    let p = super::spec_hybrid::checkpoint_prefix(self);
                    (format!("{p}layers.{i}.{}.{buffer}", m.block), vec![n])
                })
                .collect();
            out.push(Candidate::extra(
                "router score-correction biases",
                tensors,
                "the router registers e_score_correction_bias as a persistent buffer: saved with the weights, not a parameter",
            ));
        }
        if self.head == DecoderHead::CausalLm && self.tie_word_embeddings {
            out.push(Candidate::extra(
                "tied lm_head stored twice",
                vec![("lm_head.weight".into(), vec![self.vocab_size, self.hidden_size])],
                "lm_head is tied to the token embeddings, but the checkpoint stores the matrix a second time",
            ));
        }
        out
    }
    fn prediction_layers(&self) -> Option<Graph> {
        prediction_layers(self)
    }
    fn fp8_unconverted(&self) -> Vec<&'static str> {
        // DeepSeek's router is a bare parameter and its indexer's head weights stay in full
        // precision (`_keep_in_fp32_modules`); the head is the output embedding, never converted.
        if self.latent.is_some() { vec![".mlp.gate", ".indexer.weights_proj", "lm_head"] } else { vec![] }
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec![super::spec_hybrid::checkpoint_prefix(self).into()]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        if self.hybrid.is_some() {
            return super::spec_hybrid::kv_layout(self);
        }
        let cached = |i: usize| super::spec_cache::layer_cache(self, i);
        let linear = |i: usize| self.linear_layers.get(i).copied().unwrap_or(false);
        // Attention layers grouped by window, full attention first, then each window in order
        // (and by their values per token where the layers differ); linear-attention layers keep
        // a recurrent state instead.
        let attending: Vec<(Option<u64>, u64, String)> = (self.windows.iter().enumerate())
            .filter(|(i, _)| !linear(*i))
            .map(|(i, w)| {
                let (values, what) = cached(i);
                (*w, values, what)
            })
            .collect();
        let per_layer = crate::config::spec_longcat::attentions_per_layer(self.spec);
        let mut kinds = attending.clone();
        kinds.sort();
        kinds.dedup();
        let groups = kinds
            .into_iter()
            .map(|k| KvGroup {
                layers: attending.iter().filter(|x| **x == k).count() as u64 * per_layer,
                values_per_token: k.1,
                window: k.0,
                what: match k.0 {
                    None => format!("full attention: {}", k.2),
                    Some(w) => format!("window of {w} tokens: {}", k.2),
                },
            })
            .collect();
        let linear_count = self.linear_layers.iter().filter(|l| **l).count() as u64;
        let recurrent = match &self.linear {
            Some(d) if linear_count > 0 && self.spec.linear == Linear::Lightning => {
                Some(lightning_state(linear_count, d))
            }
            Some(d) if linear_count > 0 => Some(delta_net_state(linear_count, d)),
            _ => None,
        };
        Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent })
    }
    fn unscaled_residual_init(&self) -> bool {
        true
    }
    fn training_notes(&self) -> Vec<String> {
        // The Mamba-2 hybrids' scan saves tensors of its own, which the estimate leaves out.
        let mut notes: Vec<String> = self.hybrid.iter().map(|_| super::ssm::SCAN_NOTE.to_string()).collect();
        if self.own.hc_mult > 1 {
            notes.push(format!(
                "The residual stream is kept as {} copies (hyper-connections); activations count one.",
                self.own.hc_mult
            ));
        }
        notes
    }
}

/// The multi-token-prediction layers published checkpoints store: DeepSeek's after the last layer
/// (`model.layers.{n}`: a routed layer, the two norms and `eh_proj` that join the token's
/// embedding to the hidden state, its own copies of the embeddings and the head), Qwen's under
/// `mtp.` (a full-attention layer, `fc` and three norms, sharing the embeddings and the head).
fn prediction_layers(c: &SpecConfig) -> Option<Graph> {
    if c.mtp_layers == 0 {
        return None;
    }
    let (h, v, seq) = (c.hidden_size, c.vocab_size, 1);
    let kind = Kind {
        sparse: c.spec.moe.is_some(),
        linear: false,
        indexed: !c.indexed_layers.is_empty(),
        block: None,
        shape: None,
        latent: None,
    };
    let mut sections = vec![];
    for k in 0..c.mtp_layers {
        let (l, mut nodes) = if c.latent.is_some() {
            let l = format!("model.layers.{}", c.num_layers + k);
            let mut nodes = layer(c, &l, kind, seq);
            for n in ["enorm", "hnorm", "shared_head.norm"] {
                nodes.push(norm_node(c, &format!("{l}.{n}"), "prediction norm", seq));
            }
            nodes.push(linear(
                &format!("{l}.eh_proj"),
                "joins embedding and hidden state",
                seq,
                2 * h,
                h,
                false,
            ));
            nodes.push(embedding(&format!("{l}.embed_tokens"), "its own embeddings", seq, v, h));
            nodes.push(linear(&format!("{l}.shared_head.head"), "its own head", seq, h, v, false));
            (l, nodes)
        } else {
            let l = format!("mtp.layers.{k}");
            (l.clone(), layer(c, &l, kind, seq))
        };
        if let (Some(m), Some(buffer)) = (&c.spec.moe, c.spec.moe.and_then(|m| m.correction_buffer)) {
            let n = c.num_experts.unwrap_or(0);
            nodes.push(
                Node::new(format!("{l}.{}.{buffer}", m.block), Op::Add, "router score-correction bias", &[n])
                    .with([Tensor::new(format!("{l}.{}.{buffer}", m.block), &[n])]),
            );
        }
        sections.push(Section { name: l, role: Role::Layers, repeat: 1, nodes });
    }
    if c.latent.is_none() {
        let mut nodes = vec![linear("mtp.fc", "joins embedding and hidden state", seq, 2 * h, h, false)];
        for n in ["mtp.pre_fc_norm_embedding", "mtp.pre_fc_norm_hidden", "mtp.norm"] {
            nodes.push(norm_node(c, n, "prediction norm", seq));
        }
        sections.push(Section { name: "mtp".into(), role: Role::Layers, repeat: 1, nodes });
    }
    Some(Graph { seq_len: seq, sections })
}

/// What sets one layer apart from another: its MLP sparse, its mixer linear, its indexer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Kind {
    pub sparse: bool,
    pub linear: bool,
    pub indexed: bool,
    /// A Mamba-2 hybrid's block (`config/spec_hybrid.rs`).
    pub block: Option<crate::config::spec_hybrid::Block>,
    /// The layer's attention heads where the type's layers differ (`config/spec_dec6.rs`).
    pub shape: Option<crate::config::spec_dec6::AttnShape>,
    /// The layer's query heads and latent sizes where they differ by layer (dots.3 note).
    pub latent: Option<(u64, crate::config::spec_mixers::LatentDims)>,
}

pub(super) fn kinds(c: &SpecConfig) -> Vec<Kind> {
    let at = |v: &Vec<bool>, i: usize| v.get(i).copied().unwrap_or(false);
    (0..c.sparse_layers.len())
        .map(|i| Kind {
            sparse: at(&c.sparse_layers, i),
            linear: at(&c.linear_layers, i),
            indexed: at(&c.indexed_layers, i),
            block: c.hybrid.as_ref().and_then(|d| d.blocks.get(i).copied()),
            shape: c.own.attn_shapes.get(i).copied(),
            latent: c.own.dots3.as_ref().and_then(|d| d.latent.get(i).copied()),
        })
        .collect()
}
