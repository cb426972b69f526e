//! MobileBERT (`mobilebert`, Sun et al., 2020): BERT's post-norm layers run inside a bottleneck.
//! Each layer projects the hidden state down to `true_hidden_size` (`bottleneck.input`, and for
//! queries and keys `bottleneck.attention` when `key_query_shared_bottleneck`), attends and runs
//! `num_feedforward_networks` feed-forward networks at that width, and projects back up
//! (`output.bottleneck`). Norms are `NoNorm` (an elementwise scale and shift) or LayerNorm per
//! `normalization_type`; word embeddings are `embedding_size` wide, concatenated over three
//! neighbouring tokens (`trigram_input`) and mapped to hidden by `embedding_transformation`.
//! Built by `graph/mobilebert.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::bert::Head;
use super::encoders::{Classes, FFN, HEADS, LAYERS, POSITIONS, SizeKey, TABLE, VOCAB, WIDTH, sizes};
use super::{Common, ConfigError, Defaulted, class_or, deserialize_raw, flag, num_labels};

const CLASSES: Classes =
    Classes { prefix: "MobileBert", causal_lm: None, pretraining: true, next_sentence: true };

/// MobileBertConfig's sizes, in the order its defaults are recorded.
const SIZES: [SizeKey; 9] = [
    ("vocab_size", 30522, VOCAB),
    ("hidden_size", 512, WIDTH),
    ("num_hidden_layers", 24, LAYERS),
    ("num_attention_heads", 4, HEADS),
    ("intermediate_size", 512, FFN),
    ("max_position_embeddings", 512, POSITIONS),
    ("type_vocab_size", 2, TABLE),
    ("embedding_size", 128, WIDTH),
    ("intra_bottleneck_size", 128, WIDTH),
];

#[derive(Debug, Deserialize)]
struct Raw {
    true_hidden_size: Option<u64>,
    trigram_input: Option<bool>,
    use_bottleneck: Option<bool>,
    use_bottleneck_attention: Option<bool>,
    key_query_shared_bottleneck: Option<bool>,
    num_feedforward_networks: Option<u64>,
    normalization_type: Option<String>,
    classifier_activation: Option<bool>,
    tie_word_embeddings: Option<bool>,
    pad_token_id: Option<u64>,
    layer_norm_eps: Option<f64>,
    hidden_act: Option<String>,
}

#[derive(Debug, Clone)]
pub struct MobileBertConfig {
    pub class: String,
    pub head: Head,
    pub num_labels: u64,
    pub vocab_size: u64,
    pub hidden_size: u64,
    pub num_layers: u64,
    pub num_heads: u64,
    pub intermediate_size: u64,
    pub max_position_embeddings: u64,
    pub type_vocab_size: u64,
    pub embedding_size: u64,
    /// The width inside each layer: the file's `true_hidden_size`, else the bottleneck's, else
    /// hidden.
    pub true_hidden_size: u64,
    /// The bottleneck linears' width, which a file's `true_hidden_size` does not change.
    pub intra_bottleneck_size: u64,
    pub trigram_input: bool,
    pub use_bottleneck: bool,
    pub use_bottleneck_attention: bool,
    pub key_query_shared_bottleneck: bool,
    pub num_feedforward_networks: u64,
    /// `normalization_type` is `no_norm` (else `layer_norm`); the parameters are the same.
    pub no_norm: bool,
    /// The pooler's dense layer exists (`classifier_activation`).
    pub classifier_activation: bool,
    pub tie_word_embeddings: bool,
    pub pad_token_id: u64,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
    pub defaulted: Vec<Defaulted>,
}

impl MobileBertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let raw: Raw = deserialize_raw(value)?;
        let mut d = Vec::new();
        #[rustfmt::skip]
        let [vocab_size, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings, type_vocab_size, embedding_size, intra_bottleneck_size] = sizes(value, SIZES, &mut d)?;
        let use_bottleneck = flag("use_bottleneck", raw.use_bottleneck, true, &mut d);
        // `__post_init__` sets it from the bottleneck, then `PreTrainedConfig` writes the file's
        // value over it.
        let true_hidden_size = match raw.true_hidden_size {
            Some(t) => super::check_range(super::Limit { field: "true_hidden_size", max: WIDTH }, t)?,
            None if use_bottleneck => intra_bottleneck_size,
            None => hidden_size,
        };
        if true_hidden_size % num_heads != 0 {
            // The attention's output dense reads true_hidden_size values from heads x
            // (true_hidden_size / heads), so the class cannot run.
            return Err(ConfigError::field(
                "true_hidden_size",
                format!("{true_hidden_size} is not a multiple of num_attention_heads ({num_heads})"),
            ));
        }
        if hidden_size < embedding_size {
            // The MLM head's extra columns (`cls.predictions.dense`) are hidden - embedding wide.
            return Err(ConfigError::field(
                "embedding_size",
                format!("{embedding_size} is wider than hidden_size ({hidden_size})"),
            ));
        }
        let no_norm = match raw.normalization_type.as_deref() {
            None => {
                d.push(Defaulted { field: "normalization_type", value: "no_norm".into() });
                true
            }
            Some("no_norm") => true,
            Some("layer_norm") => false,
            Some(other) => {
                return Err(ConfigError::field(
                    "normalization_type",
                    format!("{other:?} is not no_norm or layer_norm"),
                ));
            }
        };
        let num_feedforward_networks =
            super::size("num_feedforward_networks", raw.num_feedforward_networks, 4, LAYERS, &mut d)?;
        let class = class_or(common, "MobileBertModel", &mut d);
        let (head, num_labels) = super::encoders::head_of(&CLASSES, &class, num_labels(value)?, &mut d)?;
        Ok(MobileBertConfig {
            class,
            head,
            num_labels,
            vocab_size,
            hidden_size,
            num_layers,
            num_heads,
            intermediate_size,
            max_position_embeddings,
            type_vocab_size,
            embedding_size,
            true_hidden_size,
            intra_bottleneck_size,
            trigram_input: flag("trigram_input", raw.trigram_input, true, &mut d),
            use_bottleneck,
            use_bottleneck_attention: flag(
                "use_bottleneck_attention",
                raw.use_bottleneck_attention,
                false,
                &mut d,
            ),
            key_query_shared_bottleneck: flag(
                "key_query_shared_bottleneck",
                raw.key_query_shared_bottleneck,
                true,
                &mut d,
            ),
            num_feedforward_networks,
            no_norm,
            classifier_activation: flag("classifier_activation", raw.classifier_activation, true, &mut d),
            tie_word_embeddings: flag("tie_word_embeddings", raw.tie_word_embeddings, true, &mut d),
            pad_token_id: raw.pad_token_id.unwrap_or(0),
            layer_norm_eps: raw.layer_norm_eps.unwrap_or(1e-12),
            hidden_act: raw.hidden_act.unwrap_or_else(|| "relu".into()),
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims {
            // Attention runs at the bottleneck's width.
            head_dim: self.true_hidden_size / self.num_heads,
            ..super::encoders::encoder_dims!(self)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(read, MobileBertConfig);

    #[test]
    fn the_files_true_hidden_size_wins_over_the_bottleneck() {
        let c = read(r#"{"model_type": "mobilebert", "true_hidden_size": 64}"#).unwrap();
        assert_eq!(c.true_hidden_size, 64);
        let c = read(r#"{"model_type": "mobilebert", "use_bottleneck": false}"#).unwrap();
        assert_eq!(c.true_hidden_size, 512);
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "mobilebert", "normalization_type": "rms"}"#, "normalization_type"),
            (r#"{"model_type": "mobilebert", "num_feedforward_networks": 0}"#, "num_feedforward_networks"),
            (r#"{"model_type": "mobilebert", "intra_bottleneck_size": 130}"#, "true_hidden_size"),
            (r#"{"model_type": "mobilebert", "embedding_size": 1024}"#, "embedding_size"),
            (
                r#"{"model_type": "mobilebert", "architectures": ["MobileBertForCausalLM"]}"#,
                "architectures[0]",
            ),
        ] {
            crate::config::testing::assert_field(read(text), text, field);
        }
    }
}
