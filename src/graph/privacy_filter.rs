//! The privacy filter plans as its gpt-oss table does (`config/spec_enc6.rs`), but attends both
//! ways and keeps no cache: an encoder.

use super::{Architecture, Candidate, Graph, Op, kv};
use crate::config::spec_enc6::PrivacyFilter;
use crate::config::{Defaulted, Dims};

impl Architecture for PrivacyFilter {
    fn activations(&self) -> Vec<(&'static str, String)> {
        // No key names an activation the class looks up.
        vec![]
    }
    fn class(&self) -> &str {
        self.0.class()
    }
    fn dims(&self) -> Dims {
        self.0.dims()
    }
    fn defaulted(&self) -> &[Defaulted] {
        &self.0.defaulted
    }
    fn graph(&self, seq: u64) -> Graph {
        let mut g = self.0.graph(seq);
        for n in g.sections.iter_mut().flat_map(|s| s.nodes.iter_mut()).filter(|n| n.op == Op::Attention) {
            n.detail = n.detail.replace("causal", "bidirectional");
        }
        g
    }
    fn checkpoint_candidates(&self) -> Vec<Candidate> {
        self.0.checkpoint_candidates()
    }
    fn checkpoint_prefixes(&self) -> Vec<String> {
        self.0.checkpoint_prefixes()
    }
    fn unscaled_residual_init(&self) -> bool {
        self.0.unscaled_residual_init()
    }
    fn kv_layout(&self) -> Option<kv::KvLayout> {
        // Every token is classified in one bidirectional pass: nothing is cached.
        None
    }
}
