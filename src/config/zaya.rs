//! ZAYA (`zaya`), read through the described types' reader (`config/spec_keys.rs`) with the keys
//! and defaults of transformers 5.24's `ZayaConfig`: grouped attention whose queries and keys
//! pass two causal convolutions and whose values come half from the current token, half from
//! the previous one (compressed convolutional attention, `cca_time0`, `cca_time1`); a router MLP
//! of `router_hidden_size` over the experts and a no-expert class; `layer_types` of `hybrid` or
//! `hybrid_sliding` (windowed by `sliding_window`).

use serde::Serialize;
use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Dv, HeadKind, Reader, Spec, head};
use super::spec_dense::BASE;
use super::spec_llama_like::{classes, head_of, keys};
use super::{Common, ConfigError, Defaulted, Dims, Limit, check_range};
use Dv::{B, F, Null, S, U};
use HeadKind::{CausalLm, Model};

const KEYS: Spec = Spec {
    model_type: "zaya",
    classes: classes!("Zaya": Model, ForCausalLM),
    keys: keys![sizes(262_272, 2048, 2048, 40, 8, U(2), U(128), 131_072), hidden_act: S("silu"),
        rms_norm_eps: F(1e-5), tie_word_embeddings: B(true), sliding_window: Null,
        moe_intermediate_size: U(2048), num_experts_per_tok: U(1), num_experts: U(16),
        pad_token_id: U(0), attention_bias: B(false), lm_head_bias: B(false),
        router_hidden_size: U(256), cca_time0: U(2), cca_time1: U(2)],
    ..BASE
};

#[derive(Debug, Clone, Serialize)]
pub struct ZayaConfig {
    pub class: String,
    pub head: DecoderHead,
    pub dims: Dims,
    pub hidden_act: String,
    pub attention_bias: bool,
    pub lm_head_bias: bool,
    pub router_hidden_size: u64,
    /// The depthwise and the grouped convolution's kernels (`cca_time0`, `cca_time1`).
    pub kernels: (u64, u64),
    /// Per layer, the window of a `hybrid_sliding` layer (None: full attention).
    pub windows: Vec<Option<u64>>,
    pub defaulted: Vec<Defaulted>,
}

impl ZayaConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        if !value.is_object() {
            return Err(ConfigError::NotObject);
        }
        let mut r = Reader { spec: &KEYS, value, defaulted: vec![] };
        let (heads, kv) = r.heads_and_kv()?;
        let n = r.size("num_experts", 1 << 16)?;
        // ZayaConfig refuses any other top-k.
        if r.size("num_experts_per_tok", 1 << 16)? != 1 {
            return Err(ConfigError::field(
                "num_experts_per_tok",
                "ZAYA routes each token to one expert (or none)",
            ));
        }
        let head_dim = r.size("head_dim", 1 << 16)?;
        let dims = r.moe_dims((heads, kv, head_dim), "moe_intermediate_size", (n, 1))?;
        let layers = dims.num_layers;
        let windows = windows(&mut r, layers)?;
        let kernels = (r.size("cca_time0", 64)?, r.size("cca_time1", 64)?);
        let router_hidden_size = r.size("router_hidden_size", 1 << 18)?;
        let (hidden_act, attention_bias) = (r.string("hidden_act")?, r.flag("attention_bias")?);
        let lm_head_bias = r.flag("lm_head_bias")?;
        let mut defaulted = r.defaulted;
        let (class, head) = head(&KEYS, common, value, &mut defaulted)?;
        Ok(ZayaConfig {
            class,
            head,
            dims,
            hidden_act,
            attention_bias,
            lm_head_bias,
            router_hidden_size,
            kernels,
            windows,
            defaulted,
        })
    }

    pub fn dims(&self) -> Dims {
        self.dims.clone()
    }
}

/// `layer_types` (`hybrid` or `hybrid_sliding`), all `hybrid` when absent; a sliding layer needs
/// `sliding_window`, as the class checks.
fn windows(r: &mut Reader, layers: u64) -> Result<Vec<Option<u64>>, ConfigError> {
    let Some(sliding) =
        super::spec_mixers::per_layer(r, "layer_types", layers, ("hybrid_sliding", "hybrid"))?
    else {
        return Ok(vec![None; layers as usize]);
    };
    let window = match r.opt_u("sliding_window")? {
        Some(w) => Some(check_range(Limit { field: "sliding_window", max: 1 << 30 }, w)?),
        None => None,
    };
    if window.is_none() && sliding.iter().any(|s| *s) {
        return Err(ConfigError::field(
            "sliding_window",
            "missing, but layer_types lists hybrid_sliding layers",
        ));
    }
    Ok(sliding.into_iter().map(|s| if s { window } else { None }).collect())
}
