//! What the mixtures of experts with their own readers (`config/deepseek_v4.rs`,
//! `config/qwen4_exp.rs`, `config/zaya.rs`) read alike through the described types' reader
//! (`config/spec_keys.rs`): heads, experts, and the dimensions they make.

use super::spec::Reader;
use super::spec_mixers::LinearDims;
use super::{ConfigError, Dims};

impl Reader<'_> {
    /// `num_attention_heads` and `num_key_value_heads`; the second must divide the first, as
    /// `repeat_kv` needs.
    pub fn heads_and_kv(&mut self) -> Result<(u64, u64), ConfigError> {
        let heads = self.size("num_attention_heads", 1 << 16)?;
        let kv = self.size("num_key_value_heads", 1 << 16)?;
        if heads % kv != 0 {
            return Err(ConfigError::field(
                "num_key_value_heads",
                format!("{heads} query heads are not a multiple of {kv} key/value heads"),
            ));
        }
        Ok((heads, kv))
    }

    /// Routed experts (`experts`) and experts per token (`top_k`), at most as many as there are.
    pub fn experts(&mut self, experts: &'static str, top_k: &'static str) -> Result<(u64, u64), ConfigError> {
        let n = self.size(experts, 1 << 16)?;
        let k = self.size(top_k, 1 << 16)?;
        if k > n {
            return Err(ConfigError::field(top_k, format!("{k} experts per token, but only {n} experts")));
        }
        Ok((n, k))
    }

    /// A mixture of experts' dimensions from the caller's heads, key/value heads and head width,
    /// the expert width under `ffn` and the experts; `hidden_size`, `num_hidden_layers`,
    /// `vocab_size`, `max_position_embeddings`, `pad_token_id`, `tie_word_embeddings` and
    /// `rms_norm_eps` are read here.
    pub fn moe_dims(
        &mut self,
        (heads, kv, head_dim): (u64, u64, u64),
        ffn: &'static str,
        (n, k): (u64, u64),
    ) -> Result<Dims, ConfigError> {
        Ok(Dims {
            num_kv_heads: kv,
            head_dim,
            pad_token_id: self.opt_u("pad_token_id")?,
            tie_word_embeddings: self.flag("tie_word_embeddings")?,
            layer_norm_eps: self.float("rms_norm_eps")?,
            num_experts: Some(n),
            experts_per_token: Some(k),
            ..Dims::mha(
                self.size("hidden_size", 1 << 18)?,
                self.size("num_hidden_layers", 10_000)?,
                heads,
                self.size(ffn, 1 << 22)?,
                self.size("vocab_size", 100_000_000)?,
                self.size("max_position_embeddings", 1 << 30)?,
            )
        })
    }

    /// Gated DeltaNet's sizes (`linear_num_key_heads`, `linear_key_head_dim`,
    /// `linear_num_value_heads`, `linear_value_head_dim`, `linear_conv_kernel_dim`), no biases.
    pub fn delta_net(&mut self) -> Result<LinearDims, ConfigError> {
        Ok(LinearDims {
            key_heads: self.size("linear_num_key_heads", 1 << 14)?,
            key_dim: self.size("linear_key_head_dim", 1 << 14)?,
            value_heads: self.size("linear_num_value_heads", 1 << 14)?,
            value_dim: self.size("linear_value_head_dim", 1 << 14)?,
            conv_kernel: self.size("linear_conv_kernel_dim", 1024)?,
            bias: false,
        })
    }
}
