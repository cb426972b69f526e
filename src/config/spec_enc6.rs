//! OpenAI's privacy filter: gpt-oss's layers (sinks, stacked experts with biases, a biased
//! router) run bidirectionally over a sliding window, as a token classifier. Its config class
//! subclasses gpt-oss's but reads no `layer_types` (every layer slides) and no `hidden_act` (the
//! experts' clamped SwiGLU is fixed), and its classifier defaults to the 33 BIOES labels of its
//! eight PII categories.

use super::decoder::DecoderHead;
use super::spec::Dv::{B, F, S, U};
use super::spec::{HeadKind, Spec, SpecConfig, Window};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_moe::GPT_OSS_MOE;
use super::{Common, ConfigError, Defaulted, num_labels_or};
use HeadKind::{Model, Token};

/// `OPENAI_PRIVACY_FILTER_NER_LABELS`: "O" and B-, I-, E-, S- of each of 8 span labels.
pub const NER_LABELS: u64 = 1 + 4 * 8;

pub const TYPES: &[Spec] = &[Spec {
    model_type: "openai_privacy_filter",
    classes: &[("OpenAIPrivacyFilterModel", Model), ("OpenAIPrivacyFilterForTokenClassification", Token)],
    keys: keys![sizes(200064, 640, 640, 8, 14, U(2), U(64), 131072), rms_norm_eps: F(1e-5),
        tie_word_embeddings: B(false),
        // Not read by the class: the experts' activation is fixed (as gpt-oss's row says it).
        hidden_act: S("silu"), attention_bias: B(true), num_local_experts: U(128), num_experts_per_tok: U(4),
        sliding_window: U(128)],
    aliases: &[("num_experts", "num_local_experts")],
    sinks: true,
    moe: Some(GPT_OSS_MOE),
    window: Window::AllWhenSet,
    ..BASE
}];

/// A resolved privacy filter: the table's reading, with what its class does differently.
#[derive(Debug, Clone)]
pub struct PrivacyFilter(pub SpecConfig);

impl PrivacyFilter {
    pub fn resolve(value: &serde_json::Value, common: &Common) -> Result<Self, ConfigError> {
        let mut c = SpecConfig::resolve(value, common)?;
        // The class never reads `hidden_act`: neither the file's nor a default is a fact of it.
        c.hidden_act = "silu".into();
        c.defaulted.retain(|d| d.field != "hidden_act");
        let (labels, defaulted) = num_labels_or(value, NER_LABELS)?;
        if let (DecoderHead::TokenClassification { num_labels }, true) = (&mut c.head, defaulted) {
            *num_labels = labels;
            c.defaulted.retain(|d| d.field != "num_labels");
            c.defaulted.push(Defaulted { field: "num_labels", value: labels.to_string() });
        }
        Ok(PrivacyFilter(c))
    }
}
