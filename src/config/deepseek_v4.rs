//! DeepSeek-V4 (`deepseek_v4`), read through the described types' reader (`config/spec_keys.rs`)
//! with the keys and defaults of transformers 5.24's `DeepseekV4Config`: shared-key/value
//! attention (one head, keys = values) behind a query latent, a grouped low-rank output
//! projection and a sink per head; per layer a sliding window alone (`sliding_attention`) or
//! beside a compressor of the context (`compressed_sparse_attention`, with an indexer;
//! `heavily_compressed_attention`), at `compress_rates`; routed experts behind a hash router
//! (`hash_moe`, a token-id table) or a learned one (`moe`), with one shared expert; and
//! hyper-connections keeping the residual stream as `hc_mult` copies. `graph/deepseek_v4.rs`
//! builds it.

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::{Common, ConfigError, Defaulted, Dims};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

const KEYS: Spec = Spec {
    model_type: "deepseek_v4",
    classes: classes!("DeepseekV4": Model, ForCausalLM),
    keys: keys![vocab_size: U(129_280), hidden_size: U(4096), moe_intermediate_size: U(2048),
        num_hidden_layers: U(43), num_attention_heads: U(64), head_dim: U(512),
        q_lora_rank: U(1024), num_experts_per_tok: U(6), n_routed_experts: U(256),
        max_position_embeddings: U(1_048_576), hc_mult: U(4), sliding_window: U(128),
        o_groups: U(8), o_lora_rank: U(1024), index_n_heads: U(64), index_head_dim: U(128),
        hidden_act: S("silu"), rms_norm_eps: F(1e-6), tie_word_embeddings: B(false),
        mlp_bias: B(false), pad_token_id: Null, num_nextn_predict_layers: U(1)],
    aliases: &[("num_local_experts", "n_routed_experts"), ("intermediate_size", "moe_intermediate_size")],
    ..BASE
};

/// A layer's attention: a sliding window alone, or beside a compressor (with its indexer for
/// compressed sparse attention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Compress {
    None,
    Sparse,
    Heavy,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeepseekV4Config {
    pub class: String,
    pub head: DecoderHead,
    pub dims: Dims,
    pub hidden_act: String,
    pub mlp_bias: bool,
    pub q_lora_rank: u64,
    /// The grouped output projection: groups and each group's rank (`o_groups`, `o_lora_rank`).
    pub o_groups: u64,
    pub o_lora_rank: u64,
    /// The indexer's query heads and head width (`index_n_heads`, `index_head_dim`).
    pub index_heads: u64,
    pub index_head_dim: u64,
    pub hc_mult: u64,
    pub sliding_window: u64,
    /// Tokens per compressed entry: compressed sparse, heavily compressed (`compress_rates`).
    pub rates: (u64, u64),
    pub attention: Vec<Compress>,
    /// Per layer, whether a token-id table picks its experts (`hash_moe`).
    pub hashed: Vec<bool>,
    /// The multi-token-prediction layers a checkpoint stores (`num_nextn_predict_layers`), each
    /// with its attention kind (from the legacy `compress_ratios`' entries past the last layer,
    /// else a sliding window); no class builds them.
    pub mtp: Vec<Compress>,
    /// Whether a checkpoint may store the routed experts in FP4 (an `fp8` quantization config
    /// whose `expert_dtype`, if any, is `fp4`, as DeepSeek-V4's releases ship).
    pub fp4_experts: bool,
    pub defaulted: Vec<Defaulted>,
}

impl DeepseekV4Config {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        if !value.is_object() {
            return Err(ConfigError::NotObject);
        }
        let mut r = Reader { spec: &KEYS, value, defaulted: vec![] };
        let heads = r.size("num_attention_heads", 1 << 16)?;
        let head_dim = r.size("head_dim", 1 << 16)?;
        let o_groups = r.size("o_groups", 1 << 16)?;
        if (heads * head_dim) % o_groups != 0 {
            return Err(ConfigError::field(
                "o_groups",
                format!("{heads} heads x {head_dim} do not split into {o_groups} equal groups"),
            ));
        }
        let experts = r.experts("n_routed_experts", "num_experts_per_tok")?;
        // One shared key/value head whatever `num_key_value_heads` says: the class ignores it.
        let dims = r.moe_dims((heads, 1, head_dim), "moe_intermediate_size", experts)?;
        let layers = dims.num_layers;
        let attention = super::deepseek_v4_layers::attention(&mut r, layers)?;
        let mtp = super::deepseek_v4_layers::prediction(&mut r, layers)?;
        let rates = super::deepseek_v4_layers::rates(&r, &attention)?;
        let hashed = super::deepseek_v4_layers::hashed(&mut r, layers)?;
        let mut c = DeepseekV4Config {
            class: String::new(),
            head: DecoderHead::Model,
            dims,
            hidden_act: r.string("hidden_act")?,
            mlp_bias: r.flag("mlp_bias")?,
            q_lora_rank: r.size("q_lora_rank", 1 << 18)?,
            o_groups,
            o_lora_rank: r.size("o_lora_rank", 1 << 18)?,
            index_heads: r.size("index_n_heads", 1 << 16)?,
            index_head_dim: r.size("index_head_dim", 1 << 16)?,
            hc_mult: r.size("hc_mult", 64)?,
            sliding_window: r.size("sliding_window", 1 << 30)?,
            rates,
            attention,
            hashed,
            mtp,
            fp4_experts: super::deepseek_v4_layers::fp4_experts(value),
            defaulted: vec![],
        };
        let mut defaulted = r.defaulted;
        (c.class, c.head) = head(&KEYS, common, value, &mut defaulted)?;
        c.defaulted = defaulted;
        Ok(c)
    }

    pub fn dims(&self) -> Dims {
        self.dims.clone()
    }
}
