//! Hybrids of linear attention and full attention, as descriptions (see `config/spec.rs`):
//! Qwen3-Next and the Qwen3.5 language models (Gated DeltaNet beside gated attention; three
//! layers of four mix with linear attention: `layer_types`, else `full_attention_interval`) and
//! Kimi Linear (Kimi Delta Attention beside latent attention), and LFM2 (gated short
//! convolutions beside attention). Linear layers keep a recurrent state instead of a KV cache. Defaults are those of transformers 5.x's `configuration_<type>.py`.

use serde_json::Value;

use super::spec::{
    Attn, Bias, Dv, Experts, HeadKind, Indexer, Linear, MoeSpec, QkNorm, Reader, Shared, Slot, Sparse, Spec,
};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::{LinearDims, per_layer};
use super::spec_moe::MOE;
use super::{ConfigError, Defaulted, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

/// Qwen's routed experts with a gated shared expert.
const QWEN_MOE: MoeSpec = MoeSpec {
    shared: Shared::Width { name: "shared_expert", key: "shared_expert_intermediate_size" },
    shared_gate: true,
    ..MOE
};

/// The keys every type here reads, with Qwen3-Next's defaults; `$own` adds or overrides.
macro_rules! qwen_keys {
    ($($k:literal => $v:expr),* $(,)?) => {
        &[$(($k, $v)),*, ("num_attention_heads", U(16)), ("max_position_embeddings", U(32768)),
          ("rms_norm_eps", F(1e-6)), ("tie_word_embeddings", B(false)), ("pad_token_id", Null),
          ("hidden_act", S("silu")), ("attention_bias", B(false)), ("head_dim", U(256)),
          ("linear_conv_kernel_dim", U(4)), ("linear_key_head_dim", U(128)),
          ("linear_value_head_dim", U(128)), ("linear_num_key_heads", U(16)),
          ("linear_num_value_heads", U(32))]
    };
}

/// Qwen3-Next's layers: q/k norms per head, a gated output, Gated DeltaNet elsewhere.
const HYBRID: Spec = Spec {
    qk_norm: QkNorm::PerHead,
    attn: Attn::GatedOutput,
    linear: Linear::GatedDeltaNet { fused: false },
    ..BASE
};

/// The keys LFM2's types share, with their defaults, after the eight sizes (`keys!`).
macro_rules! lfm_keys {
    (sizes $s:tt $(, $k:ident : $x:expr)* $(,)?) => {
        keys![sizes $s, norm_eps: F(1e-5), pad_token_id: U(0), tie_word_embeddings: B(true),
            conv_bias: B(false), conv_L_cache: U(3) $(, $k: $x)*]
    };
}

/// LFM2's layers: per-head q/k norms named as its modules are, no attention biases, a norm
/// before the mixer and one before the MLP, short convolutions on the layers not attending.
const LFM2: Spec = Spec {
    eps_key: "norm_eps",
    qkv_bias: Bias::Fixed(false),
    o_bias: Bias::Fixed(false),
    qk_norm: QkNorm::PerHead,
    qk_norm_names: ["q_layernorm", "k_layernorm"],
    layer_norms: &[("operator_norm", Slot::Before), ("ffn_norm", Slot::Between)],
    linear: Linear::ShortConv,
    ..BASE
};

/// Kimi Linear's experts (DeepSeek-V3's): stacked, a router with a correction-bias buffer, shared
/// experts as wide as `num_shared_experts` experts, dense layers from `mlp_layer_types` or the
/// first `first_k_dense_replace`.
pub(crate) const KIMI_MOE: MoeSpec = MoeSpec {
    correction_buffer: Some("gate.e_score_correction_bias"),
    experts_key: "num_experts",
    top_k_key: "num_experts_per_token",
    experts: Experts::Stacked { bias: false },
    shared: Shared::Times { name: "shared_experts", key: "num_shared_experts" },
    sparse: Sparse::MlpTypes(Some("first_k_dense_replace")),
    ..MOE
};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "qwen3_next",
        classes: &[
            ("Qwen3NextModel", Model),
            ("Qwen3NextForCausalLM", CausalLm),
            ("Qwen3NextForSequenceClassification", Sequence),
            ("Qwen3NextForTokenClassification", Token),
        ],
        keys: qwen_keys![
            "vocab_size" => U(151936), "hidden_size" => U(2048), "intermediate_size" => U(5632),
            "num_hidden_layers" => U(48), "num_key_value_heads" => U(2),
            "decoder_sparse_step" => U(1), "moe_intermediate_size" => U(512),
            "shared_expert_intermediate_size" => U(512), "num_experts_per_tok" => U(10),
            "num_experts" => U(512),
        ],
        linear: Linear::GatedDeltaNet { fused: true },
        moe: Some(MoeSpec { sparse: Sparse::QwenStep, ..QWEN_MOE }),
        ..HYBRID
    },
    Spec {
        model_type: "qwen3_5_text",
        classes: &[
            ("Qwen3_5TextModel", Model),
            ("Qwen3_5ForCausalLM", CausalLm),
            ("Qwen3_5TextForSequenceClassification", Sequence),
        ],
        keys: qwen_keys![
            "vocab_size" => U(248320), "hidden_size" => U(4096), "intermediate_size" => U(12288),
            "num_hidden_layers" => U(32), "num_key_value_heads" => U(4),
        ],
        ..HYBRID
    },
    Spec {
        model_type: "qwen3_5_moe_text",
        classes: &[("Qwen3_5MoeTextModel", Model), ("Qwen3_5MoeForCausalLM", CausalLm)],
        keys: qwen_keys![
            "vocab_size" => U(248320), "hidden_size" => U(2048), "num_hidden_layers" => U(40),
            "num_key_value_heads" => U(2), "moe_intermediate_size" => U(512),
            "shared_expert_intermediate_size" => U(512), "num_experts_per_tok" => U(8),
            "num_experts" => U(256),
        ],
        // Every layer routes; the class has no dense width.
        dense_width_key: "moe_intermediate_size",
        moe: Some(QWEN_MOE),
        ..HYBRID
    },
    Spec {
        model_type: "kimi_linear",
        classes: &[("KimiLinearModel", Model), ("KimiLinearForCausalLM", CausalLm)],
        keys: keys![sizes(163840, 2304, 9216, 27, 32, U(32), Null, 1048576), rms_norm_eps: F(1e-5),
            moe_intermediate_size: U(1024), num_experts: U(256), num_experts_per_token: U(8),
            num_shared_experts: U(1), first_k_dense_replace: U(1), kv_lora_rank: U(512), q_lora_rank: Null,
            qk_rope_head_dim: U(64), qk_nope_head_dim: U(128), v_head_dim: U(128), hidden_act: S("silu"),
            pad_token_id: U(163839), tie_word_embeddings: B(false), attention_bias: B(false),
            linear_head_dim: U(128), linear_num_heads: U(32), linear_conv_kernel_dim: U(4)],
        aliases: &[
            ("model_max_length", "max_position_embeddings"),
            ("num_local_experts", "num_experts"),
            ("num_experts_per_tok", "num_experts_per_token"),
            ("n_shared_experts", "num_shared_experts"),
        ],
        qkv_bias: Bias::Key("attention_bias"),
        o_bias: Bias::Key("attention_bias"),
        moe: Some(KIMI_MOE),
        attn: Attn::Latent(Indexer::None),
        linear: Linear::KimiDelta,
        ..BASE
    },
    Spec {
        model_type: "lfm2",
        classes: &[("Lfm2Model", Model), ("Lfm2ForCausalLM", CausalLm)],
        keys: lfm_keys![sizes(65536, 2560, 12288, 32, 32, U(8), Null, 128_000), block_multiple_of: U(256),
            block_ffn_dim_multiplier: F(1.0), block_auto_adjust_ff_dim: B(true)],
        // Lfm2Config pops these older names into the keys.
        aliases: &[("tie_embedding", "tie_word_embeddings"), ("block_ff_dim", "intermediate_size")],
        ..LFM2
    },
    Spec {
        model_type: "lfm2_moe",
        classes: &[("Lfm2MoeModel", Model), ("Lfm2MoeForCausalLM", CausalLm)],
        keys: lfm_keys![sizes(65536, 2048, 7168, 32, 32, U(8), Null, 128_000), num_experts: U(32),
            moe_intermediate_size: U(1792), num_dense_layers: U(2), num_experts_per_tok: U(4)],
        aliases: &[("tie_embedding", "tie_word_embeddings")],
        // The first `num_dense_layers` keep a dense MLP; the others route over stacked experts
        // behind a sigmoid router whose `expert_bias` buffer the checkpoint stores.
        moe: Some(MoeSpec {
            block: "feed_forward",
            correction_buffer: Some("expert_bias"),
            experts: Experts::Stacked { bias: false },
            sparse: Sparse::FirstDense("num_dense_layers"),
            ..MOE
        }),
        ..LFM2
    },
];

/// Kimi Linear's delta attention: heads and head width (`linear_attn_config`'s `num_heads`,
/// `head_dim`, `short_conv_kernel_size` win over the top-level keys, as KimiLinearConfig reads
/// them), and which layers use it: `layer_types`, else the config's 1-based `kda_layers` and
/// `full_attn_layers`, else full attention where `i > 0 and i % 4 == 0`.
pub(crate) fn kimi_delta(r: &mut Reader, layers: u64) -> Result<(LinearDims, Vec<bool>), ConfigError> {
    let nested = r.value.get("linear_attn_config").filter(|v| !v.is_null()).cloned();
    if nested.as_ref().is_some_and(|v| !v.is_object()) {
        return Err(ConfigError::field("linear_attn_config", "expected an object"));
    }
    let mut sized = |key: &'static str, inner: &str, max: u64| -> Result<u64, ConfigError> {
        match nested.as_ref().and_then(|n| n.get(inner)) {
            Some(v) => {
                let n = v.as_u64().ok_or_else(|| {
                    ConfigError::field("linear_attn_config", format!("{inner}: expected a count, found {v}"))
                })?;
                check_range(Limit { field: "linear_attn_config", max }, n)
            }
            None => r.size(key, max),
        }
    };
    let heads = sized("linear_num_heads", "num_heads", 1 << 14)?;
    let head_dim = sized("linear_head_dim", "head_dim", 1 << 14)?;
    let conv_kernel = sized("linear_conv_kernel_dim", "short_conv_kernel_size", 1024)?;
    let dims = LinearDims::square(heads, head_dim, conv_kernel);
    if let Some(list) = per_layer(r, "layer_types", layers, ("linear_attention", "full_attention"))? {
        return Ok((dims, list));
    }
    let listed = |key: &str| nested.as_ref().and_then(|n| n.get(key)).cloned();
    if let (Some(full), Some(kda)) = (listed("full_attn_layers"), listed("kda_layers")) {
        // Layers neither list names fall to delta attention, as the decoder layer builds them.
        let mut linear = vec![true; layers as usize];
        for (v, is_linear) in [(full, false), (kda, true)] {
            let bad = || {
                ConfigError::field(
                    "linear_attn_config",
                    format!("expected layer numbers 1 to {layers}, found {v}"),
                )
            };
            for x in v.as_array().ok_or_else(bad)? {
                let i = x.as_u64().filter(|i| (1..=layers).contains(i)).ok_or_else(bad)?;
                linear[(i - 1) as usize] = is_linear;
            }
        }
        return Ok((dims, linear));
    }
    r.defaulted
        .push(Defaulted { field: "layer_types", value: "full attention where i > 0 and i % 4 == 0".into() });
    Ok((dims, (0..layers).map(|i| i == 0 || i % 4 != 0).collect()))
}

/// LFM2's short convolution (`conv_L_cache` wide, `conv_bias`) and its layers: `layer_types`
/// (`conv` or `full_attention`), else convolutions off `full_attn_idxs`, else (the class's
/// default) attention everywhere. Its only state is the convolution's window over the hidden
/// channels: one value "head" of hidden width with no keys.
pub(crate) fn short_conv(r: &mut Reader, layers: u64) -> Result<(LinearDims, Vec<bool>), ConfigError> {
    let hidden = r.size("hidden_size", 1 << 18)?;
    let dims = LinearDims {
        key_heads: 0,
        key_dim: 0,
        value_heads: 1,
        value_dim: hidden,
        conv_kernel: r.size("conv_L_cache", 1024)?,
        bias: r.flag("conv_bias")?,
    };
    if let Some(list) = per_layer(r, "layer_types", layers, ("conv", "full_attention"))? {
        return Ok((dims, list));
    }
    let conv = match r.index_list("full_attn_idxs")? {
        Some(full) => (0..layers).map(|i| !full.contains(&i)).collect(),
        None => vec![false; layers as usize],
    };
    Ok((dims, conv))
}

/// LFM2's MLP width: with `block_auto_adjust_ff_dim`, two thirds of the key, times
/// `block_ffn_dim_multiplier`, rounded up to `block_multiple_of` (Lfm2MLP). Other types: as read.
pub(crate) fn adjusted_ffn(r: &mut Reader, spec: &Spec, width: u64) -> Result<u64, ConfigError> {
    if spec.linear != Linear::ShortConv || !r.flag("block_auto_adjust_ff_dim")? {
        return Ok(width);
    }
    // Python's int() of a float: the float products are exact at any real width.
    let mut w = (2.0 * width as f64 / 3.0) as u64;
    let multiplier = match r.raw("block_ffn_dim_multiplier") {
        Some(Value::Null) => None,
        _ => Some(r.float("block_ffn_dim_multiplier")?),
    };
    if let Some(m) = multiplier {
        if !(m.is_finite() && m > 0.0) {
            return Err(ConfigError::field(
                "block_ffn_dim_multiplier",
                format!("expected a positive number, found {m}"),
            ));
        }
        let of = r.size("block_multiple_of", 1 << 20)?;
        w = ((m * w as f64) as u64).div_ceil(of).saturating_mul(of);
    }
    check_range(Limit { field: "intermediate_size", max: 1 << 22 }, w)
}
