//! Helper txb's decoders as descriptions (see `config/spec.rs`): Molmo 2's language model
//! (`molmo2_text`), Qwen3's layers with biased q/k/v projections, its q/k norms per head (`qwen3`)
//! or over the whole projection (`olmo`) by `qk_norm_type`, and an embedding that holds
//! `additional_vocab_size` rows beyond the vocabulary. Defaults are transformers 5.24's
//! `configuration_molmo2.py`.

use super::ConfigError;
use super::spec::{Bias, Dv, HeadKind, QkNorm, Reader, Spec, SpecConfig};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use Dv::{B, F, S, U};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "molmo2_text",
    // The only class of its own: Molmo2ForConditionalGeneration wraps it with a vision tower.
    classes: &[("Molmo2TextModel", HeadKind::Model)],
    keys: keys![sizes(151936, 4096, 12288, 36, 32, U(8), U(128), 36864), rms_norm_eps: F(1e-6),
        tie_word_embeddings: B(false), hidden_act: S("silu"), attention_bias: B(false),
        additional_vocab_size: U(128), qk_norm_type: S("qwen3")],
    aliases: &[("qkv_bias", "attention_bias"), ("layer_norm_eps", "rms_norm_eps")],
    // `o_proj` never has a bias; q, k and v follow `attention_bias`.
    o_bias: Bias::Fixed(false),
    qk_norm: QkNorm::PerHead,
    ..BASE
}];

/// What Molmo 2's reading adds, where the table lists its keys: whether the q/k norms run over the
/// whole projection (`qk_norm_type: "olmo"`) and the embedding's rows beyond the vocabulary.
pub(crate) fn read(r: &mut Reader) -> Result<(bool, u64), ConfigError> {
    let listed = |r: &Reader, k: &str| r.spec.keys.iter().any(|(key, _)| *key == k);
    let mut full = false;
    if listed(r, "qk_norm_type") {
        full = match r.string("qk_norm_type")?.as_str() {
            "qwen3" => false,
            "olmo" => true,
            other => {
                return Err(ConfigError::field(
                    "qk_norm_type",
                    format!("expected \"qwen3\" or \"olmo\", found \"{other}\""),
                ));
            }
        };
    }
    let mut extra = 0;
    if listed(r, "additional_vocab_size") {
        // 0 is allowed: no rows beyond the vocabulary.
        extra = r.opt_u("additional_vocab_size")?.unwrap_or(0);
        if extra > 1 << 24 {
            return Err(ConfigError::field(
                "additional_vocab_size",
                format!("{extra} is beyond any real model (at most {})", 1 << 24),
            ));
        }
    }
    Ok((full, extra))
}

impl SpecConfig {
    /// The q/k norms the layers hold: none when switched off, over the whole projection where
    /// Molmo 2's `qk_norm_type` says `olmo`, else the table's.
    pub(crate) fn qk_kind(&self) -> QkNorm {
        match (self.qk_norm, self.own.qk_full) {
            (false, _) => QkNorm::None,
            (true, true) => QkNorm::Full,
            (true, false) => self.spec.qk_norm,
        }
    }
}
