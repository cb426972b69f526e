//! Inkling 2's language model (`inkling2_text`, Thinking Machines), read as transformers 5.24's
//! `Inkling2TextConfig` reads it: Inkling's full (`hybrid`) and sliding (`hybrid_sliding`) layers
//! with their own head counts, now every layer routed experts without shared ones; learned
//! per-head scales on queries and relative states, a sink logit and a sigmoid output gate per
//! head, dynamic short convolutions on the full layers' keys and values, and attention residuals
//! over blocks of layers. The head covers `unpadded_vocab_size` rows.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{FFN, HEADS, LAYERS, POSITIONS, VOCAB, WIDTH};
use super::inkling::{InklingAttn, per_layer};
use super::{Common, ConfigError, Defaulted, aliased, class_or, size};

const EXPERTS: u64 = 1 << 16;

/// What the two config classes default differently, and their classes (base, causal LM).
struct Type {
    hidden: u64,
    layers: u64,
    heads: u64,
    width: u64,
    experts: u64,
    classes: [&'static str; 2],
    looped: bool,
}

const TEXT: Type = Type {
    hidden: 4608,
    layers: 48,
    heads: 48,
    width: 2304,
    experts: 384,
    classes: ["Inkling2TextModel", "Inkling2ForCausalLM"],
    looped: false,
};

/// `Inkling2LoopTextConfig`: Inkling-2-Mini's sizes.
const LOOP: Type = Type {
    hidden: 2304,
    layers: 24,
    heads: 24,
    width: 1152,
    experts: 128,
    classes: ["Inkling2LoopTextModel", "Inkling2LoopForCausalLM"],
    looped: true,
};
const KERNEL: u64 = 1 << 10;

#[derive(Debug, Deserialize)]
struct Raw {
    vocab_size: Option<u64>,
    unpadded_vocab_size: Option<u64>,
    hidden_size: Option<u64>,
    num_hidden_layers: Option<u64>,
    num_attention_heads: Option<u64>,
    num_key_value_heads: Option<u64>,
    head_dim: Option<u64>,
    swa_num_attention_heads: Option<u64>,
    swa_num_key_value_heads: Option<u64>,
    swa_head_dim: Option<u64>,
    sliding_window_size: Option<u64>,
    sliding_window: Option<u64>,
    d_rel: Option<u64>,
    rel_extent: Option<u64>,
    max_position_embeddings: Option<u64>,
    model_max_length: Option<u64>,
    rms_norm_eps: Option<f64>,
    conv_kernel_size: Option<u64>,
    sconv_kernel_size: Option<u64>,
    moe_intermediate_size: Option<u64>,
    intermediate_size: Option<u64>,
    n_routed_experts: Option<u64>,
    num_local_experts: Option<u64>,
    num_experts_per_tok: Option<u64>,
    hidden_act: Option<String>,
    pad_token_id: Option<u64>,
    layer_types: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Inkling2TextConfig {
    pub class: String,
    /// Whether the class adds `lm_head` (`unpadded_vocab_size` rows, never tied).
    pub causal_lm: bool,
    pub vocab_size: u64,
    pub unpadded_vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub full: InklingAttn,
    pub sliding: InklingAttn,
    pub window: u64,
    pub d_rel: u64,
    pub max_position_embeddings: u64,
    pub rms_norm_eps: f64,
    pub conv_kernel_size: u64,
    pub moe_intermediate_size: u64,
    pub num_experts: u64,
    pub experts_per_token: u64,
    pub hidden_act: String,
    pub pad_token_id: Option<u64>,
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
        let t = if common.model_type == "inkling2_loop_text" { &LOOP } else { &TEXT };
        let vocab_size = size("vocab_size", r.vocab_size, 201_024, VOCAB, &mut d)?;
        let unpadded = size("unpadded_vocab_size", r.unpadded_vocab_size, 200_058, VOCAB, &mut d)?;
        let hidden_size = size("hidden_size", r.hidden_size, t.hidden, WIDTH, &mut d)?;
        let num_layers = size("num_hidden_layers", r.num_hidden_layers, t.layers, LAYERS, &mut d)?;
        let full_heads = size("num_attention_heads", r.num_attention_heads, t.heads, HEADS, &mut d)?;
        let full_kv = size("num_key_value_heads", r.num_key_value_heads, 8, HEADS, &mut d)?;
        let full_hd = size("head_dim", r.head_dim, 128, WIDTH, &mut d)?;
        let swa_heads = size("swa_num_attention_heads", r.swa_num_attention_heads, t.heads, HEADS, &mut d)?;
        let swa_kv = size("swa_num_key_value_heads", r.swa_num_key_value_heads, 8, HEADS, &mut d)?;
        let swa_hd = size("swa_head_dim", r.swa_head_dim, 128, WIDTH, &mut d)?;
        let window = aliased(r.sliding_window_size, r.sliding_window);
        let window = size("sliding_window_size", window, 1024, POSITIONS, &mut d)?;
        let d_rel = size("d_rel", r.d_rel, 16, WIDTH, &mut d)?;
        let rel_extent = size("rel_extent", r.rel_extent, 1024, POSITIONS, &mut d)?;
        let positions = aliased(r.max_position_embeddings, r.model_max_length);
        let max_position_embeddings = size("max_position_embeddings", positions, 1 << 20, POSITIONS, &mut d)?;
        let kernel = aliased(r.conv_kernel_size, r.sconv_kernel_size);
        let conv_kernel_size = size("conv_kernel_size", kernel, 4, KERNEL, &mut d)?;
        // `intermediate_size` is an alias of the experts' width here: every layer is sparse.
        let width = aliased(r.moe_intermediate_size, r.intermediate_size);
        let moe_intermediate_size = size("moe_intermediate_size", width, t.width, FFN, &mut d)?;
        let experts = aliased(r.n_routed_experts, r.num_local_experts);
        let num_experts = size("n_routed_experts", experts, t.experts, EXPERTS, &mut d)?;
        let experts_per_token = size("num_experts_per_tok", r.num_experts_per_tok, 8, EXPERTS, &mut d)?;
        if experts_per_token > num_experts {
            return Err(ConfigError::field(
                "num_experts_per_tok",
                format!("{experts_per_token} experts per token, but only {num_experts} experts"),
            ));
        }
        for (h, kv, field) in
            [(full_heads, full_kv, "num_key_value_heads"), (swa_heads, swa_kv, "swa_num_key_value_heads")]
        {
            if !h.is_multiple_of(kv) {
                return Err(ConfigError::field(
                    field,
                    format!("{kv} key/value heads do not divide {h} heads"),
                ));
            }
        }
        let sliding_layers = match r.layer_types {
            Some(types) => per_layer(types, "layer_types", ("hybrid_sliding", "hybrid"), num_layers)?,
            None => (0..num_layers).map(|i| (i + 1) % 6 != 0).collect(),
        };
        let class = class_or(common, t.classes[0], &mut d);
        let causal_lm = match class.as_str() {
            c if c == t.classes[0] => false,
            c if c == t.classes[1] => true,
            other => {
                return Err(ConfigError::field(
                    "architectures[0]",
                    format!("class {other} is not one the planner knows for this family"),
                ));
            }
        };
        Ok(Inkling2TextConfig {
            class,
            causal_lm,
            vocab_size,
            unpadded_vocab_size: unpadded,
            hidden_size,
            num_layers,
            full: InklingAttn { heads: full_heads, kv_heads: full_kv, head_dim: full_hd, rel_extent },
            sliding: InklingAttn { heads: swa_heads, kv_heads: swa_kv, head_dim: swa_hd, rel_extent: window },
            window,
            d_rel,
            max_position_embeddings,
            rms_norm_eps: r.rms_norm_eps.unwrap_or(1e-6),
            conv_kernel_size,
            moe_intermediate_size,
            num_experts,
            experts_per_token,
            hidden_act: r.hidden_act.unwrap_or_else(|| "silu".into()),
            pad_token_id: r.pad_token_id,
            loop_layers: match t.looped {
                true => Some(super::inkling2_loop::read(value, &mut d)?),
                false => None,
            },
            sliding_layers,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            num_kv_heads: self.full.kv_heads,
            head_dim: self.full.head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: false,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: Some(self.num_experts),
            experts_per_token: Some(self.experts_per_token),
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.full.heads,
                self.moe_intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}
