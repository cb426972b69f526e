//! How a described type (`config/spec.rs`) plans: its dimensions, its KV cache by layer window,
//! and the tensors a checkpoint may hold that its class does not.

use super::kv::{KvGroup, KvLayout};
use super::spec::build;
use super::{Architecture, Candidate, Graph};
use crate::config::decoder::DecoderHead;
use crate::config::spec::SpecConfig;
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
                .map(|i| (format!("model.layers.{i}.{}.{buffer}", m.block), vec![n]))
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
    fn checkpoint_prefixes(&self) -> Vec<String> {
        vec!["model.".into()]
    }
    fn kv_layout(&self) -> Option<KvLayout> {
        let values_per_token = 2 * self.num_kv_heads * self.head_dim;
        let what = format!("2 x {} KV heads x {} head_dim", self.num_kv_heads, self.head_dim);
        // Layers grouped by window, full attention first, then each window in order.
        let mut windows: Vec<Option<u64>> = self.windows.clone();
        windows.sort();
        windows.dedup();
        let groups = windows
            .into_iter()
            .map(|w| KvGroup {
                layers: self.windows.iter().filter(|x| **x == w).count() as u64,
                values_per_token,
                window: w,
                what: match w {
                    None => format!("full attention: {what}"),
                    Some(w) => format!("window of {w} tokens: {what}"),
                },
            })
            .collect();
        Some(KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None })
    }
    fn unscaled_residual_init(&self) -> bool {
        true
    }
}
