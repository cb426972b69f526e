//! The newest decoders (2026) that are a known layer under new keys, as descriptions (see
//! `config/spec.rs`): A.X K1 (DeepSeek-V3's latent attention and experts with a norm on the
//! experts' output) and Lara Mini (Qwen3.5's Gated DeltaNet beside Qwen3's attention, sliding or
//! full, under experts with an ungated shared expert). Defaults are those of transformers 5.24's
//! `configuration_<type>.py`.

use super::spec::{
    Attn, Dv, Experts, Extra, HeadKind, Indexer, Linear, MoeSpec, Place, QkNorm, Reader, Shared, Sparse,
    Spec, Width, Window,
};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mla::DEEPSEEK_MOE;
use super::spec_moe::MOE;
use super::{ConfigError, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model, Sequence, Token};

pub const TYPES: &[Spec] = &[
    Spec {
        model_type: "axk1",
        classes: &[
            ("AXK1Model", Model),
            ("AXK1ForCausalLM", CausalLm),
            ("AXK1ForSequenceClassification", Sequence),
            ("AXK1ForTokenClassification", Token),
        ],
        keys: keys![vocab_size: U(163840), hidden_size: U(7168), intermediate_size: U(18432),
            moe_intermediate_size: U(2048), num_hidden_layers: U(61), num_attention_heads: U(64),
            num_key_value_heads: U(64), n_shared_experts: U(1), n_routed_experts: U(192),
            kv_lora_rank: U(512), q_lora_rank: U(1536), qk_rope_head_dim: U(64), v_head_dim: U(128),
            qk_nope_head_dim: U(128), num_experts_per_tok: U(8), max_position_embeddings: U(32768),
            rms_norm_eps: F(1e-6), tie_word_embeddings: B(false), pad_token_id: Null,
            hidden_act: S("silu"), attention_bias: B(false)],
        // AXK1Config sets `head_dim` to the rotary width.
        aliases: &[("num_local_experts", "n_routed_experts"), ("head_dim", "qk_rope_head_dim")],
        attn: Attn::Latent(Indexer::None),
        moe: Some(MoeSpec { sparse: Sparse::MlpTypesFreq, ..DEEPSEEK_MOE }),
        // AXK1MoE norms its output (routed plus shared) before the residual: sparse layers only.
        extras: &[Extra {
            name: "post_mlp_layernorm",
            place: Place::Experts,
            width: Width::Hidden,
            norm: true,
            when_act: None,
        }],
        ..BASE
    },
    Spec {
        model_type: "lara_mini",
        classes: &[("LaraMiniModel", Model), ("LaraMiniForCausalLM", CausalLm)],
        keys: keys![vocab_size: U(151936), hidden_size: U(1024), num_hidden_layers: U(34),
            num_attention_heads: U(16), num_key_value_heads: U(4), head_dim: U(128),
            max_position_embeddings: U(131072), rms_norm_eps: F(1e-6), tie_word_embeddings: B(true),
            pad_token_id: Null, hidden_act: S("silu"), attention_bias: B(false),
            sliding_window: U(512), linear_conv_kernel_dim: U(4), linear_key_head_dim: U(128),
            linear_value_head_dim: U(128), linear_num_key_heads: U(8), linear_num_value_heads: U(16),
            moe_intermediate_size: U(512), shared_expert_intermediate_size: U(512),
            num_experts_per_tok: U(4), num_experts: U(128)],
        // Every layer routes; the class has no dense width.
        dense_width_key: "moe_intermediate_size",
        qk_norm: QkNorm::PerHead,
        moe: Some(MoeSpec {
            experts: Experts::Stacked { bias: false },
            shared: Shared::Width { name: "shared_expert", key: "shared_expert_intermediate_size" },
            ..MOE
        }),
        window: Window::ThreeKinds(&[
            "linear_attention",
            "sliding_attention",
            "linear_attention",
            "full_attention",
            "sliding_attention",
        ]),
        linear: Linear::GatedDeltaNet { fused: false },
        ..BASE
    },
];

/// `layer_types` of three kinds, else the pattern repeated: per layer whether it mixes linearly,
/// and the window of each attending one (`sliding_window` on `sliding_attention` layers).
pub(crate) fn three_kinds(
    r: &mut Reader,
    layers: u64,
    pattern: &[&str],
) -> Result<(Vec<bool>, Vec<Option<u64>>), ConfigError> {
    const KINDS: [&str; 3] = ["linear_attention", "sliding_attention", "full_attention"];
    let n = layers as usize;
    let bad = || ConfigError::field("layer_types", format!("expected {n} of {}", KINDS.join(", ")));
    let listed: Vec<String> = match r.raw("layer_types") {
        Some(v) => {
            let list = v.as_array().filter(|l| l.len() == n).ok_or_else(bad)?;
            list.iter()
                .map(|t| t.as_str().filter(|t| KINDS.contains(t)).map(str::to_string).ok_or_else(bad))
                .collect::<Result<_, _>>()?
        }
        None => (0..n).map(|i| pattern[i % pattern.len()].to_string()).collect(),
    };
    let window = match r.opt_u("sliding_window")? {
        Some(w) => Some(check_range(Limit { field: "sliding_window", max: 1 << 30 }, w)?),
        None => None,
    };
    let linear = listed.iter().map(|t| t == KINDS[0]).collect();
    let windows = listed.iter().map(|t| if t == KINDS[1] { window } else { None }).collect();
    Ok((linear, windows))
}

/// A.X K1's sparse layers: `mlp_layer_types`, else where `i >= first_k_dense_replace` (default 1)
/// and `i % moe_layer_freq == 0` (default 1), the legacy keys AXK1Config converts.
pub(crate) fn mlp_types_freq(r: &mut Reader, layers: u64) -> Result<Vec<bool>, ConfigError> {
    if let Some(list) = super::spec_mixers::per_layer(r, "mlp_layer_types", layers, ("sparse", "dense"))? {
        return Ok(list);
    }
    let k = r.opt_u("first_k_dense_replace")?.unwrap_or(1);
    let freq = r.opt_u("moe_layer_freq")?.unwrap_or(1);
    let freq = check_range(Limit { field: "moe_layer_freq", max: 10_000 }, freq)?;
    Ok((0..layers).map(|i| i >= k && i % freq == 0).collect())
}
