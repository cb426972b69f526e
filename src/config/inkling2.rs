//! Inkling 2's language model (`inkling2_text`, Thinking Machines), read as transformers 5.24's
//! `Inkling2TextConfig` reads it: Inkling's full (`hybrid`) and sliding (`hybrid_sliding`) layers
//! with their own head counts, now every layer routed experts without shared ones; learned
//! per-head scales on queries and relative states, a sink logit and a sigmoid output gate per
//! head, dynamic short convolutions on the full layers' keys and values, and attention residuals
//! over blocks of layers. The head covers `unpadded_vocab_size` rows.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, VOCAB};
use super::inkling_common::{Defaults, InklingSizes, per_layer};
use super::{Common, ConfigError, Defaulted, aliased, size};

/// `Inkling2TextConfig`'s defaults for the keys Inkling reads alike.
const TEXT: Defaults = Defaults {
    hidden: 4608,
    layers: 48,
    heads: 48,
    swa_heads: 48,
    swa_kv: 8,
    window: 1024,
    positions: 1 << 20,
    experts: 384,
    top_k: 8,
    classes: ["Inkling2TextModel", "Inkling2ForCausalLM"],
};

/// `Inkling2LoopTextConfig`'s (Inkling-2-Mini's sizes).
const LOOP: Defaults = Defaults {
    hidden: 2304,
    layers: 24,
    heads: 24,
    swa_heads: 24,
    classes: ["Inkling2LoopTextModel", "Inkling2LoopForCausalLM"],
    experts: 128,
    ..TEXT
};

#[derive(Debug, Deserialize)]
struct Raw {
    unpadded_vocab_size: Option<u64>,
    moe_intermediate_size: Option<u64>,
    intermediate_size: Option<u64>,
    layer_types: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Inkling2TextConfig {
    pub class: String,
    #[serde(flatten)]
    pub sizes: InklingSizes,
    /// The head's rows (`lm_head`, never tied).
    pub unpadded_vocab_size: u64,
    pub moe_intermediate_size: u64,
    /// Per layer, whether it attends within the window.
    pub sliding_layers: Vec<bool>,
    /// Inkling 2 Loop's range of layers run again, and its message gates.
    pub loop_layers: Option<super::inkling2_loop::Loop>,
    pub defaulted: Vec<Defaulted>,
}

impl Inkling2TextConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let r: Raw = super::deserialize_raw(value)?;
        let mut d = Vec::new();
        let looped = common.model_type == "inkling2_loop_text";
        let (class, sizes) = InklingSizes::read(value, common, if looped { &LOOP } else { &TEXT }, &mut d)?;
        let unpadded = size("unpadded_vocab_size", r.unpadded_vocab_size, 200_058, VOCAB, &mut d)?;
        // `intermediate_size` is an alias of the experts' width here: every layer is sparse.
        let width = aliased(r.moe_intermediate_size, r.intermediate_size);
        let default_width = if looped { 1152 } else { 2304 };
        let moe_intermediate_size = size("moe_intermediate_size", width, default_width, FFN, &mut d)?;
        let n = sizes.num_layers;
        let sliding_layers = match r.layer_types {
            Some(types) => per_layer(types, "layer_types", ("hybrid_sliding", "hybrid"), n)?,
            None => (0..n).map(|i| (i + 1) % 6 != 0).collect(),
        };
        let loop_layers = match looped {
            true => Some(super::inkling2_loop::read(value, &mut d)?),
            false => None,
        };
        Ok(Inkling2TextConfig {
            class,
            sizes,
            unpadded_vocab_size: unpadded,
            moe_intermediate_size,
            sliding_layers,
            loop_layers,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        self.sizes.dims(self.moe_intermediate_size)
    }
}
