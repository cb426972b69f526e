//! OLMo Hybrid (`olmo_hybrid`), as a description (see `config/spec.rs`): OLMo 3's post-norm
//! attention layers (q/k norms over all heads) among Gated DeltaNet layers whose projections are
//! all separate (`q_proj` ... `g_proj`, `o_proj`) and whose layers norm before each sublayer, as
//! Llama's do. Defaults are those of transformers 5.24's `configuration_olmo_hybrid.py`.

use super::spec::{Dv, HeadKind, Linear, QkNorm, Reader, Slot, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::{LinearDims, per_layer};
use super::{ConfigError, Defaulted, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

/// OLMo 3's attention layers: a norm after attention and one after the MLP, none before.
pub const OLMO_POST: &[(&str, Slot)] =
    &[("post_attention_layernorm", Slot::Between), ("post_feedforward_layernorm", Slot::After)];

pub const TYPES: &[Spec] = &[Spec {
    model_type: "olmo_hybrid",
    classes: &[("OlmoHybridModel", Model), ("OlmoHybridForCausalLM", CausalLm)],
    keys: keys![sizes(100352, 3840, 11008, 32, 30, Null, Null, 65536), rms_norm_eps: F(1e-6),
        tie_word_embeddings: B(false), pad_token_id: U(100277), hidden_act: S("silu"),
        attention_bias: B(false), linear_num_key_heads: Null, linear_num_value_heads: Null,
        linear_key_head_dim: Null, linear_value_head_dim: Null, linear_conv_kernel_dim: U(4)],
    qk_norm: QkNorm::Full,
    layer_norms: OLMO_POST,
    linear: Linear::OlmoDeltaNet,
    ..BASE
}];

/// OlmoHybridConfig's linear sizes (key and value heads default to the attention heads, the key
/// width to int(0.75 x hidden / key heads), the value width to twice the key width) and its
/// layers: `layer_types`, else full attention at `i % 4 == 3` (the last layer when none is).
pub(crate) fn delta_net(r: &mut Reader, layers: u64) -> Result<(LinearDims, Vec<bool>), ConfigError> {
    let heads = r.size("num_attention_heads", 1 << 16)?;
    let hidden = r.size("hidden_size", 1 << 18)?;
    let key_heads = or_computed(r, "linear_num_key_heads", heads)?;
    let value_heads = or_computed(r, "linear_num_value_heads", heads)?;
    // int(0.75 * hidden / key heads): 3 x hidden / 4 is exact in floating point, so the floor of
    // the integer quotient is the same number.
    let key_dim = or_computed(r, "linear_key_head_dim", 3 * hidden / (4 * key_heads))?;
    let value_dim = or_computed(r, "linear_value_head_dim", 2 * key_dim)?;
    let dims = LinearDims {
        key_heads,
        key_dim,
        value_heads,
        value_dim,
        conv_kernel: r.size("linear_conv_kernel_dim", 1024)?,
        bias: false,
    };
    let list = match per_layer(r, "layer_types", layers, ("linear_attention", "full_attention"))? {
        Some(list) => list,
        None => {
            let mut list: Vec<bool> = (0..layers).map(|i| i % 4 != 3).collect();
            if list.iter().all(|l| *l)
                && let Some(last) = list.last_mut()
            {
                *last = false;
            }
            list
        }
    };
    // OlmoHybridConfig.validate_architecture refuses either kind missing.
    if list.iter().all(|l| !l) {
        return Err(ConfigError::field("layer_types", "no linear_attention layer; OLMo Hybrid needs one"));
    }
    if list.iter().all(|l| *l) {
        return Err(ConfigError::field("layer_types", "no full_attention layer; OLMo Hybrid needs one"));
    }
    Ok((dims, list))
}

/// The file's value of `key`, else the value the class computes (recorded as defaulted).
fn or_computed(r: &mut Reader, key: &'static str, value: u64) -> Result<u64, ConfigError> {
    let v = match r.opt_u(key)? {
        Some(v) => v,
        None => {
            r.defaulted.push(Defaulted { field: key, value: value.to_string() });
            value
        }
    };
    check_range(Limit { field: key, max: 1 << 14 }, v)
}
