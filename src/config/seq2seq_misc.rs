//! Encoder-decoders that are a BART-lineage row plus a block of their own: BigBird-Pegasus
//! (Pegasus's pre-LN stacks with BigBird attention in the encoder). The BART reader
//! (`config/bart.rs`) reads the shared keys through the row; each type's own keys are read here.

use serde::Deserialize;
use serde_json::Value;

use super::bart::BartConfig;
use super::seq2seq::{Defaults, Positions, Seq2Seq};
use super::{Common, ConfigError, Defaulted, deserialize_raw};

/// BigBird-Pegasus: learned positions without offset, pre-LN layers, and the norm closing each
/// stack named `layernorm_embedding` (it runs after the layers, not on the embeddings).
pub const BIGBIRD_PEGASUS: Seq2Seq = Seq2Seq {
    model_type: "bigbird_pegasus",
    prefix: "BigBirdPegasus",
    classes: &[
        "Model",
        "ForConditionalGeneration",
        "ForSequenceClassification",
        "ForQuestionAnswering",
        "ForCausalLM",
    ],
    defaults: Defaults {
        vocab_size: 96103,
        max_position_embeddings: 4096,
        d_model: 1024,
        encoder_layers: 16,
        encoder_ffn_dim: 4096,
        encoder_attention_heads: 16,
        decoder_layers: 16,
        decoder_ffn_dim: 4096,
        decoder_attention_heads: 16,
        activation_function: "gelu_new",
        pad_token_id: 0,
        num_labels: 2,
    },
    positions: Positions::Learned { offset: 0 },
    ..super::seq2seq::PEGASUS
};

#[derive(Debug, Deserialize)]
struct BigBirdRaw {
    use_bias: Option<bool>,
    attention_type: Option<String>,
}

#[derive(Debug, Clone)]
pub struct BigBirdPegasusConfig {
    /// Everything Pegasus reads; its `defaulted` also holds `use_bias` and `attention_type`.
    pub bart: BartConfig,
    /// `use_bias`: biases on every attention projection, encoder and decoder (default false).
    pub use_bias: bool,
    /// `block_sparse` (BigBird's random, window and global blocks) or `original_full`.
    pub block_sparse: bool,
}

impl BigBirdPegasusConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut bart = BartConfig::resolve(value, common)?;
        let raw: BigBirdRaw = deserialize_raw(value)?;
        let use_bias = raw.use_bias.unwrap_or_else(|| {
            bart.defaulted.push(Defaulted { field: "use_bias", value: "false".into() });
            false
        });
        let block_sparse = match raw.attention_type.as_deref() {
            None => {
                bart.defaulted.push(Defaulted { field: "attention_type", value: "block_sparse".into() });
                true
            }
            Some("block_sparse") => true,
            Some("original_full") => false,
            Some(other) => {
                return Err(ConfigError::field(
                    "attention_type",
                    format!("{other:?} is neither \"block_sparse\" nor \"original_full\""),
                ));
            }
        };
        Ok(BigBirdPegasusConfig { bart, use_bias, block_sparse })
    }
}
