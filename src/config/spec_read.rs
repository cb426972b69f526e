//! Resolves a described type's config.json (see `config/spec.rs`) into a [`SpecConfig`]: the
//! sizes through the type's key table, the layer patterns (which layers route through experts,
//! which attend within a window) through its switches.

use serde_json::Value;

use super::spec::{NormKind, QkNorm, Reader, Shared, SpecConfig, head, lookup};
use super::spec_patterns::{bounded, sparse, windows};
use super::{Common, ConfigError};

impl SpecConfig {
    /// Reads and resolves a config; `SpecConfig::resolve` (in `graph/spec.rs`, which can build
    /// the graph) adds the check that the sizes together stay within reach.
    pub(crate) fn read(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let spec = lookup(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a described model type"))?;
        if !value.is_object() {
            return Err(ConfigError::NotObject);
        }
        let mut r = Reader { spec, value, defaulted: vec![] };
        let vocab_size = r.size("vocab_size", 100_000_000)?;
        let lm_rows = lm_rows(&mut r, vocab_size)?;
        let hidden_size = r.size("hidden_size", 1 << 18)?;
        let hybrid_spec = super::spec_hybrid::hybrid(spec);
        let num_layers = match hybrid_spec {
            Some(h) => super::spec_hybrid::block_count(&mut r, h)?,
            None => None,
        };
        let num_layers = match num_layers {
            Some(n) => n,
            None => super::spec_longcat::layers(&mut r)?,
        };
        let num_heads = r.size("num_attention_heads", 1 << 16)?;
        let num_kv_heads = match r.opt_u("num_key_value_heads")? {
            Some(k) => bounded("num_key_value_heads", 1 << 16, k)?,
            None => num_heads,
        };
        // Every class reads `head_dim` with getattr, so a file's value wins even where the class
        // has no such key (Cohere 2 computes hidden / heads, then sets the file's keys over it).
        let head_dim = match r.opt_u("head_dim")? {
            Some(h) => h,
            None => hidden_size / num_heads,
        };
        let head_dim = bounded("head_dim", 1 << 16, head_dim)?;
        let intermediate_size = r.size(spec.dense_width_key, 1 << 22)?;
        let intermediate_size = super::spec_linear::adjusted_ffn(&mut r, spec, intermediate_size)?;
        let max_position_embeddings = r.size("max_position_embeddings", 1 << 30)?;
        let norm = match spec.norm {
            NormKind::RmsWhenEps if r.raw("rms_norm_eps").is_some() => NormKind::Rms,
            NormKind::RmsWhenEps => NormKind::LayerNormNoBias,
            n => n,
        };
        let by_eps = spec.norm == NormKind::RmsWhenEps && norm == NormKind::Rms;
        let eps_key = if by_eps { "rms_norm_eps" } else { spec.eps_key };
        let norm_eps = r.float(eps_key)?;
        let tie_word_embeddings = r.flag("tie_word_embeddings")?;
        let pad_token_id = r.opt_u("pad_token_id")?;
        let hidden_act = r.string("hidden_act")?;
        let qkv_bias = r.bias(spec.qkv_bias)?;
        let o_bias = r.bias(spec.o_bias)?;
        let mlp_bias = r.bias(spec.mlp_bias)?;
        let lm_bias = r.bias(spec.lm_bias)?;
        let qk_norm = spec.qk_norm != QkNorm::None
            && match spec.qk_norm_key {
                Some(k) => r.flag(k)?,
                None => true,
            };
        let switched_norms = match spec.switched_norms {
            Some(s) => r.flag(s.key)? == s.when,
            None => false,
        };

        let (mut num_experts, mut experts_per_token, mut expert_width, mut shared_width) =
            (None, None, 0, None);
        let mut sparse_layers = vec![false; num_layers as usize];
        let no_experts = match super::spec_hybrid::hybrid(spec) {
            Some(h) => super::spec_hybrid::no_experts(&mut r, h)?,
            None => false,
        };
        if let Some(m) = spec.moe.as_ref().filter(|_| !no_experts) {
            let n = r.size(m.experts_key, 1 << 16)?;
            let k = r.size(m.top_k_key, 1 << 16)?;
            if k > n {
                return Err(ConfigError::field(
                    m.top_k_key,
                    format!("{k} experts per token, but only {n} experts"),
                ));
            }
            num_experts = Some(n);
            experts_per_token = Some(k);
            expert_width = r.size(m.width_key, 1 << 22)?;
            shared_width = match m.shared {
                Shared::None => None,
                Shared::Width { key, .. } => Some(r.size(key, 1 << 22)?),
                Shared::Times { key, .. } => match r.opt_u(key)?.unwrap_or(0) {
                    0 => None,
                    s => Some(bounded(key, 1 << 16, s)? * expert_width),
                },
                Shared::Beside { key, .. } => match r.opt_u(key)?.unwrap_or(0) {
                    0 => None,
                    s => Some(bounded(key, 1 << 22, s)?),
                },
            };
            sparse_layers = sparse(&mut r, m.sparse, num_layers)?;
        }
        let windows = windows(&mut r, spec, num_layers)?;
        let (latent, indexed_layers, linear, mut linear_layers) =
            super::spec_mixers::read(&mut r, spec, num_layers)?;
        let windows = super::spec_recur_lfm::typed_windows(&mut r, spec, num_layers)?.unwrap_or(windows);
        let hybrid = match hybrid_spec {
            Some(h) => Some(super::spec_hybrid::read(
                &mut r,
                h,
                hidden_size,
                num_layers,
                &mut linear_layers,
                &mut sparse_layers,
            )?),
            None => None,
        };
        let patterns = super::spec_own::Patterns {
            windows,
            indexed: indexed_layers,
            sparse: sparse_layers,
            shared_width,
        };
        let (own, p) =
            super::spec_own::read(&mut r, num_layers, (num_heads, num_kv_heads, head_dim), patterns)?;
        let (windows, indexed_layers, sparse_layers, shared_width) =
            (p.windows, p.indexed, p.sparse, p.shared_width);
        let tie_word_embeddings = tie_word_embeddings && super::spec_hybrid::ties(spec);
        // Not read by any class, so never recorded as defaulted: Qwen's hybrids ship one.
        // Nemotron-H's class skips its `mtp.` weights, which are not of this shape.
        let qwen_hybrid = matches!(spec.linear, super::spec::Linear::GatedDeltaNet { .. });
        let mtp_layers = ["num_nextn_predict_layers", "mtp_num_hidden_layers"]
            .iter()
            .find_map(|k| value.get(*k).and_then(Value::as_u64))
            .unwrap_or(if qwen_hybrid { 1 } else { 0 })
            .min(if hybrid.is_some() { 0 } else { 16 });
        let mut d = r.defaulted;
        let (class, head) = head(spec, common, value, &mut d)?;
        Ok(SpecConfig {
            model_type: common.model_type.clone(),
            spec,
            class,
            head,
            vocab_size,
            lm_rows,
            hidden_size,
            num_layers,
            num_heads,
            num_kv_heads,
            head_dim,
            intermediate_size,
            qkv_bias,
            o_bias,
            qk_norm,
            switched_norms,
            mlp_bias,
            lm_bias,
            num_experts,
            experts_per_token,
            expert_width,
            shared_width,
            sparse_layers,
            windows,
            max_position_embeddings,
            norm,
            norm_eps,
            tie_word_embeddings,
            pad_token_id,
            hidden_act,
            latent,
            indexed_layers,
            linear,
            linear_layers,
            hybrid,
            mtp_layers,
            defaulted: d,
            own,
        })
    }
}

/// A table listing `output_vocab_size` may prune the head to the vocabulary's first rows (Apertus
/// 1.5 keeps the text tokens' logits only); None or absent keeps every row.
fn lm_rows(r: &mut Reader, vocab: u64) -> Result<u64, ConfigError> {
    const KEY: &str = "output_vocab_size";
    if !r.spec.keys.iter().any(|(k, _)| *k == KEY) {
        return Ok(vocab);
    }
    match r.opt_u(KEY)? {
        None => Ok(vocab),
        Some(n) if (1..=vocab).contains(&n) => Ok(n),
        Some(n) => Err(ConfigError::field(KEY, format!("{n} head rows, but the vocabulary has {vocab}"))),
    }
}
