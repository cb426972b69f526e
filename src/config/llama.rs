//! The Llama lineage of decoder-only transformers and their mixtures of experts: `llama`,
//! `mistral`, `mixtral`, `qwen2`, `qwen2_moe`, `qwen3`, `qwen3_moe`, `gemma`, `gemma2`,
//! `gemma3_text`, `phi3`, `deepseek_v2`, `deepseek_v3`.
//!
//! Each type is a description in `config/types.rs`: its config.json is read through the keys the
//! description lists, resolved with its config class's defaults into one shared
//! [`DecoderConfig`], which a single graph builder plans from shared blocks (`graph/llama.rs`,
//! `graph/blocks.rs`).

use serde::Serialize;
use serde_json::Value;

use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, flag, num_labels, size};

mod attention;
mod layers;
mod moe;
mod raw;

pub use super::types::{Family, MlpKind, NormKind, Norms, QkNorm, TypeDesc};
pub use attention::Attention;
pub use moe::{Moe, MoeStyle};

use layers::{layer_types, windows};
use moe::{resolve_moe, sparse_layers};
use raw::read_raw;

/// The class planned, as the modules it adds on the decoder stack.
pub use super::decoder::DecoderHead as Head;

/// A resolved decoder config of any of the families: nothing structural is optional.
#[derive(Debug, Clone, Serialize)]
pub struct DecoderConfig {
    pub family: Family,
    /// The type's description, which the graph reads its switches from.
    #[serde(skip)]
    pub desc: &'static TypeDesc,
    /// The key the activation was read from (`hidden_activation` for Gemma-2 and -3).
    pub hidden_act_field: &'static str,
    pub class: String,
    pub head: Head,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub attention: Attention,
    /// The dense MLP's width (dense layers of a mixture of experts too).
    pub intermediate_size: u64,
    pub mlp_bias: bool,
    /// Phi-3's fused `gate_up_proj`.
    pub fused_gate_up: bool,
    pub moe: Option<Moe>,
    /// For each layer, whether its MLP is the mixture of experts.
    pub sparse_layers: Vec<bool>,
    /// Where the norms sit around attention and the MLP.
    pub norms: Norms,
    pub max_position_embeddings: u64,
    pub rms_norm_eps: f64,
    pub tie_word_embeddings: bool,
    pub pad_token_id: Option<u64>,
    pub hidden_act: String,
    pub rope_theta: f64,
    /// As written; it changes the rotary frequencies, not the parameters.
    pub rope_scaling: Option<Value>,
    /// The attention window, where the class uses one; no parameters.
    pub sliding_window: Option<u64>,
    /// `sliding_attention` / `full_attention` per layer, where the family has layer types.
    pub layer_types: Vec<String>,
    pub attn_logit_softcapping: Option<f64>,
    pub final_logit_softcapping: Option<f64>,
    /// Width of the rotary part of a head (what its `inv_freq` covers, twice over).
    pub rotary_dim: u64,
    pub defaulted: Vec<Defaulted>,
}

/// A supported family whose class the planner does not know is reported, not guessed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("class {0} is not one the planner knows for this family")]
pub struct UnknownClass(pub String);

impl DecoderConfig {
    /// Reads and resolves a config; `DecoderConfig::resolve` (in `graph/llama.rs`, which can
    /// build the graph) adds the check that the sizes together stay within reach.
    pub(crate) fn read(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let desc = super::types::lookup(&common.model_type)
            .ok_or_else(|| ConfigError::field("model_type", "not a Llama-lineage model type"))?;
        let family = desc.rules;
        let raw = read_raw(desc, value)?;
        let def = desc.defaults;
        let mut d = Vec::new();
        let vocab_size = size("vocab_size", raw.vocab_size, def.vocab_size, 100_000_000, &mut d)?;
        let hidden_size = size("hidden_size", raw.hidden_size, def.hidden_size, 1 << 18, &mut d)?;
        let intermediate_size =
            size("intermediate_size", raw.intermediate_size, def.intermediate_size, 1 << 22, &mut d)?;
        let num_layers =
            size("num_hidden_layers", raw.num_hidden_layers, def.num_hidden_layers, 10_000, &mut d)?;
        let num_heads =
            size("num_attention_heads", raw.num_attention_heads, def.num_attention_heads, 1 << 16, &mut d)?;
        // Classes whose default is None (Llama, Phi-3, DeepSeek) give every head its own keys.
        let num_kv_heads = size(
            "num_key_value_heads",
            raw.num_key_value_heads,
            def.num_key_value_heads.unwrap_or(num_heads),
            1 << 16,
            &mut d,
        )?;
        let max_position_embeddings = size(
            "max_position_embeddings",
            raw.max_position_embeddings,
            def.max_position_embeddings,
            1 << 30,
            &mut d,
        )?;
        // StarCoder2 names it `norm_epsilon`.
        let rms_norm_eps = raw.rms_norm_eps.or(raw.norm_epsilon).unwrap_or(def.rms_norm_eps);
        let tie_word_embeddings =
            flag("tie_word_embeddings", raw.tie_word_embeddings, def.tie_word_embeddings, &mut d);
        let pad_token_id = match raw.pad_token_id {
            Some(p) => Some(p),
            None => {
                if let Some(p) = def.pad_token_id {
                    d.push(Defaulted { field: "pad_token_id", value: p.to_string() });
                }
                def.pad_token_id
            }
        };
        // Gemma-2 and Gemma-3 take their activation from `hidden_activation` (their mirrors have
        // no `hidden_act`); the others from `hidden_act`.
        let hidden_act_field =
            if raw.hidden_activation.is_some() { "hidden_activation" } else { "hidden_act" };
        let hidden_act = raw
            .hidden_activation
            .clone()
            .or_else(|| raw.hidden_act.clone())
            .unwrap_or_else(|| def.hidden_act.to_string());
        let rope_theta = raw.rope_theta.unwrap_or(def.rope_theta);
        let rope_scaling = match raw.rope_scaling.clone() {
            None | Some(Value::Null) => None,
            Some(v @ Value::Object(_)) => Some(v),
            Some(other) => {
                return Err(ConfigError::field(
                    "rope_scaling",
                    format!("expected an object or null, found {other}"),
                ));
            }
        };

        let attention::Resolved { attention, rotary_dim, mlp_bias } =
            attention::resolve(desc, &raw, value, hidden_size, num_heads, num_kv_heads, &mut d)?;

        let moe = resolve_moe(family, &raw, value, &mut d)?;
        let sparse_layers = sparse_layers(family, &raw, moe.is_some(), num_layers, &mut d)?;

        let layers::Windows { sliding_window, attn_logit_softcapping, final_logit_softcapping } =
            windows(desc, &raw, &mut d)?;
        let layer_types = layer_types(desc, &raw, num_layers, &mut d)?;

        let labels = num_labels(value)?;
        let class = class_or(common, desc.base_class, &mut d);
        let head = classify(desc, &class, labels.0)
            .ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.clone()).to_string()))?;
        if matches!(head, Head::SequenceClassification { .. } | Head::TokenClassification { .. }) {
            classifier_labels(labels, &mut d)?;
        }
        let c = DecoderConfig {
            family,
            desc,
            class,
            head,
            vocab_size,
            hidden_size,
            num_layers,
            attention,
            intermediate_size,
            mlp_bias,
            fused_gate_up: desc.fused,
            moe,
            sparse_layers,
            norms: desc.norms,
            max_position_embeddings,
            rms_norm_eps,
            tie_word_embeddings,
            pad_token_id,
            hidden_act,
            hidden_act_field,
            rope_theta,
            rope_scaling,
            sliding_window,
            layer_types,
            attn_logit_softcapping,
            final_logit_softcapping,
            rotary_dim,
            defaulted: d,
        };
        Ok(c)
    }

    pub fn num_heads(&self) -> u64 {
        match self.attention {
            Attention::Grouped { num_heads, .. } | Attention::Latent { num_heads, .. } => num_heads,
        }
    }

    pub fn dims(&self) -> super::Dims {
        let (num_kv_heads, head_dim) = match self.attention {
            Attention::Grouped { num_kv_heads, head_dim, .. } => (num_kv_heads, head_dim),
            // Latent attention expands keys and values per head from the shared latent.
            Attention::Latent { num_heads, qk_nope_head_dim, qk_rope_head_dim, .. } => {
                (num_heads, qk_nope_head_dim + qk_rope_head_dim)
            }
        };
        super::Dims {
            num_kv_heads,
            head_dim,
            pad_token_id: self.pad_token_id,
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.rms_norm_eps,
            num_experts: self.moe.as_ref().map(|m| m.num_experts),
            experts_per_token: self.moe.as_ref().and_then(|m| m.experts_per_token),
            ..super::Dims::mha(
                self.hidden_size,
                self.num_layers,
                self.num_heads(),
                self.intermediate_size,
                self.vocab_size,
                self.max_position_embeddings,
            )
        }
    }
}

/// The head a class name builds, if the type's modeling file defines the class.
fn classify(desc: &TypeDesc, class: &str, num_labels: u64) -> Option<Head> {
    let rest = class.strip_prefix(desc.classes)?;
    let h = desc.heads;
    Some(match (desc.rules, rest) {
        (Family::Gemma3Text, "TextModel") => Head::Model,
        (Family::Gemma3Text, "TextForSequenceClassification") => Head::SequenceClassification { num_labels },
        (Family::Gemma3Text, "Model" | "ForSequenceClassification") => return None,
        (_, "Model") => Head::Model,
        (_, "ForCausalLM") => Head::CausalLm,
        (_, "ForSequenceClassification") if h.sequence => Head::SequenceClassification { num_labels },
        (_, "ForTokenClassification") if h.token => Head::TokenClassification { num_labels },
        (_, "ForQuestionAnswering") if h.qa => Head::QuestionAnswering,
        _ => return None,
    })
}
