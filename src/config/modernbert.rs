//! ModernBERT (`modernbert`, Warner et al., 2024) and its causal sibling `modernbert-decoder`
//! (Ettin): pre-LN layers with a fused `Wqkv` (the decoder: `q_proj`, `k_proj`, `v_proj`), a GLU
//! MLP whose `Wi` makes input and gate at once, LayerNorms whose bias `norm_bias` switches, rotary
//! positions, and global attention every `global_attn_every_n_layers`-th layer (local attention
//! over `local_attention` tokens in between). Built by `graph/modernbert.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::bert::{Head, UnknownClass};
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, flag, num_labels};

/// ModernBertConfig's and ModernBertDecoderConfig's sizes (the same defaults).
const SIZES: [SizeKey; 6] = [
    ("vocab_size", 50368, VOCAB),
    ("hidden_size", 768, WIDTH),
    ("intermediate_size", 1152, FFN),
    ("num_hidden_layers", 22, LAYERS),
    ("num_attention_heads", 12, HEADS),
    ("max_position_embeddings", 8192, POSITIONS),
];

#[derive(Debug, Deserialize)]
struct Raw {
    norm_eps: Option<f64>,
    norm_bias: Option<bool>,
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    decoder_bias: Option<bool>,
    classifier_bias: Option<bool>,
    hidden_activation: Option<String>,
    classifier_activation: Option<String>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    layer_types: Option<Vec<String>>,
    global_attn_every_n_layers: Option<u64>,
    local_attention: Option<u64>,
}

#[derive(Debug, Clone)]
pub struct ModernBertConfig {
    pub class: String,
    /// The decoder (`modernbert-decoder`): causal, split q/k/v, a KV cache.
    pub decoder: bool,
    pub head: Head,
    /// The classifier's width (QA's span logits are `num_labels` wide too).
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub intermediate_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub max_position_embeddings: u64,
    pub norm_bias: bool,
    pub attention_bias: bool,
    pub mlp_bias: bool,
    pub decoder_bias: bool,
    pub classifier_bias: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub norm_eps: f64,
    pub hidden_activation: String,
    pub classifier_activation: String,
    /// Per layer: whether it attends locally (`sliding_attention`).
    pub local: Vec<bool>,
    /// The local layers' window in tokens: the encoder's `local_attention` (half on each side),
    /// the decoder's `local_attention // 2` (what its cache keeps).
    pub window: u64,
    pub defaulted: Vec<Defaulted>,
}

const ENCODER: Classes =
    Classes { prefix: "ModernBert", causal_lm: None, pretraining: false, next_sentence: false };
const DECODER: Classes = Classes {
    prefix: "ModernBertDecoder",
    causal_lm: Some("ForCausalLM"),
    pretraining: false,
    next_sentence: false,
};

/// The head a class builds, among those the modeling file defines: the encoder has no causal
/// head, the decoder only its causal and sequence-classification heads.
fn head(decoder: bool, class: &str) -> Result<Head, ConfigError> {
    let classes = if decoder { &DECODER } else { &ENCODER };
    let head = super::encoders::match_class(classes, class).filter(|h| {
        !decoder || matches!(h, Head::Model | Head::CausalLm | Head::SequenceClassification { .. })
    });
    head.ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.to_string()).to_string()))
}

/// Which layers attend locally: `layer_types` as written, else every layer but each
/// `global_attn_every_n_layers`-th (from layer 0), as `__post_init__` fills it.
fn local_layers(raw: &Raw, layers: u64, d: &mut Vec<Defaulted>) -> Result<Vec<bool>, ConfigError> {
    if let Some(types) = &raw.layer_types {
        if types.len() as u64 != layers {
            return Err(ConfigError::field(
                "layer_types",
                format!("{} entries for {layers} layers (num_hidden_layers)", types.len()),
            ));
        }
        return types
            .iter()
            .enumerate()
            .map(|(i, t)| match t.as_str() {
                "sliding_attention" => Ok(true),
                "full_attention" => Ok(false),
                other => Err(ConfigError::field(
                    format!("layer_types[{i}]"),
                    format!("{other:?} is not sliding_attention or full_attention"),
                )),
            })
            .collect();
    }
    let every = super::size("global_attn_every_n_layers", raw.global_attn_every_n_layers, 3, LAYERS, d)?;
    Ok((0..layers).map(|i| i % every != 0).collect())
}

impl ModernBertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let decoder = common.model_type == "modernbert-decoder";
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        let [vocab_size, hidden_size, intermediate_size, num_layers, num_heads, max_position_embeddings] =
            sizes(value, SIZES, &mut d)?;
        if hidden_size % num_heads != 0 {
            // ModernBertAttention raises on it.
            return Err(ConfigError::field(
                "hidden_size",
                format!("{hidden_size} is not a multiple of num_attention_heads ({num_heads})"),
            ));
        }
        let base = if decoder { "ModernBertDecoderModel" } else { "ModernBertModel" };
        let class = class_or(common, base, &mut d);
        let head = head(decoder, &class)?;
        let (head, num_labels) = super::encoders::labelled(head, num_labels(value)?, &mut d)?;
        let local = local_layers(&raw, num_layers, &mut d)?;
        if value.get("local_attention").is_some_and(Value::is_null) && local.iter().any(|l| *l) {
            // The decoder's class then sets a window of -1, which no cache can size.
            return Err(ConfigError::field("local_attention", "null, but some layers attend locally"));
        }
        let local_attention = raw.local_attention.unwrap_or_else(|| {
            d.push(Defaulted { field: "local_attention", value: "128".into() });
            128
        });
        let window = if decoder { local_attention / 2 } else { local_attention };
        if window == 0 && local.iter().any(|l| *l) {
            return Err(ConfigError::field(
                "local_attention",
                format!("{local_attention} leaves the local layers no window"),
            ));
        }
        Ok(ModernBertConfig {
            class,
            decoder,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            intermediate_size,
            num_layers,
            num_heads,
            max_position_embeddings,
            norm_bias: flag("norm_bias", raw.norm_bias, false, &mut d),
            attention_bias: flag("attention_bias", raw.attention_bias, false, &mut d),
            mlp_bias: flag("mlp_bias", raw.mlp_bias, false, &mut d),
            decoder_bias: flag("decoder_bias", raw.decoder_bias, true, &mut d),
            classifier_bias: flag("classifier_bias", raw.classifier_bias, false, &mut d),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            pad_token_id: super::read::pad_token_id(raw.pad_token_id, 50283, &mut d),
            norm_eps: raw.norm_eps.unwrap_or(1e-5),
            hidden_activation: raw.hidden_activation.unwrap_or_else(|| "gelu".into()),
            classifier_activation: raw.classifier_activation.unwrap_or_else(|| "gelu".into()),
            local,
            window,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            pad_token_id: Some(self.pad_token_id),
            tie_word_embeddings: self.tie_word_embeddings,
            layer_norm_eps: self.norm_eps,
            ..super::mha_dims!(self)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(read, ModernBertConfig);

    #[test]
    fn every_third_layer_attends_globally_from_the_first() {
        let c = read(r#"{"model_type": "modernbert", "num_hidden_layers": 5}"#).unwrap();
        assert_eq!(c.local, [false, true, true, false, true]);
        assert_eq!(c.window, 128);
        let c = read(r#"{"model_type": "modernbert-decoder", "local_attention": 64}"#).unwrap();
        assert_eq!(c.window, 32);
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "modernbert", "hidden_size": 100}"#, "hidden_size"),
            (
                r#"{"model_type": "modernbert", "global_attn_every_n_layers": 0}"#,
                "global_attn_every_n_layers",
            ),
            (
                r#"{"model_type": "modernbert", "num_hidden_layers": 2, "layer_types": ["full_attention"]}"#,
                "layer_types",
            ),
            (
                r#"{"model_type": "modernbert", "num_hidden_layers": 1, "layer_types": ["chunked"]}"#,
                "layer_types[0]",
            ),
            (
                r#"{"model_type": "modernbert", "architectures": ["ModernBertForCausalLM"]}"#,
                "architectures[0]",
            ),
            (
                r#"{"model_type": "modernbert-decoder", "architectures": ["ModernBertDecoderForMaskedLM"]}"#,
                "architectures[0]",
            ),
            (r#"{"model_type": "modernbert", "local_attention": 0}"#, "local_attention"),
        ] {
            crate::config::testing::assert_field(read(text), text, field);
        }
    }
}
