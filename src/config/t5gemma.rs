//! T5Gemma, read with the defaults of transformers 5.24's `T5GemmaConfig`: an encoder and a
//! decoder of Gemma 2's layers (four norms each, sliding and full attention alternating by
//! `layer_types`), each from its own `T5GemmaModuleConfig` (`encoder`, `decoder`; a missing one
//! takes the class's defaults), the decoder's layers adding cross-attention over the encoder's
//! width. Its graph is in `graph/t5gemma.rs`.

use serde::Serialize;
use serde_json::Value;

use super::spec::{Dv, Reader, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::{Common, ConfigError, Defaulted};
use Dv::{B, F, S, U};

/// `T5GemmaModuleConfig`'s keys, read in each of `encoder` and `decoder`.
const MODULE: Spec = Spec {
    model_type: "t5gemma",
    keys: keys![sizes(256000, 2304, 9216, 26, 8, U(4), U(256), 8192), rms_norm_eps: F(1e-6),
        hidden_activation: S("gelu_pytorch_tanh"), attention_bias: B(false), sliding_window: U(4096),
        pad_token_id: U(0)],
    ..BASE
};

/// One stack's sizes (`T5GemmaModuleConfig`).
#[derive(Debug, Clone, Serialize)]
pub struct Stack {
    pub num_layers: u64,
    pub hidden_size: u64,
    pub vocab_size: u64,
    pub intermediate_size: u64,
    pub num_heads: u64,
    pub num_kv_heads: u64,
    pub head_dim: u64,
    pub attention_bias: bool,
    /// Per layer, its window (None: full attention).
    pub windows: Vec<Option<u64>>,
    pub max_position_embeddings: u64,
    pub rms_norm_eps: f64,
    pub hidden_activation: String,
    pub pad_token_id: Option<u64>,
}

/// The class planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum T5GemmaHead {
    /// `T5GemmaModel`: both stacks, no head.
    Model,
    /// `T5GemmaEncoderModel`: the encoder alone.
    Encoder,
    /// `T5GemmaForConditionalGeneration`: `lm_head.out_proj` over the decoder's vocabulary.
    Generation,
    /// `T5GemmaForSequenceClassification` (one label per sequence) or `...TokenClassification`:
    /// `score.out_proj` with a bias, after the decoder, or the encoder alone when
    /// `is_encoder_decoder` is false.
    Classifier { labels: u64, tokens: bool },
}

#[derive(Debug, Clone, Serialize)]
pub struct T5GemmaConfig {
    pub class: String,
    pub head: T5GemmaHead,
    pub encoder: Stack,
    /// None when the class runs the encoder alone.
    pub decoder: Option<Stack>,
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

/// `layer_types` as written, else the class's: sliding on even layers, full on odd ones.
pub(crate) fn windows(
    value: &Value,
    field: &'static str,
    layers: u64,
    window: u64,
    default_full: impl Fn(u64) -> bool,
) -> Result<Vec<Option<u64>>, ConfigError> {
    let Some(list) = value.get("layer_types").filter(|v| !v.is_null()) else {
        return Ok((0..layers).map(|i| (!default_full(i)).then_some(window)).collect());
    };
    let bad = |why: String| ConfigError::field(field, why);
    let list = list.as_array().ok_or_else(|| bad(format!("expected a list of layer types, found {list}")))?;
    if list.len() as u64 != layers {
        return Err(bad(format!("{} layer types for {layers} layers", list.len())));
    }
    list.iter()
        .map(|t| match t.as_str() {
            Some("sliding_attention") => Ok(Some(window)),
            Some("full_attention") => Ok(None),
            _ => Err(bad(format!("expected sliding_attention or full_attention, found {t}"))),
        })
        .collect()
}

/// An error of a sub-config's keys, named under it (`decoder.num_hidden_layers`).
pub(crate) fn within(prefix: &str, e: ConfigError) -> ConfigError {
    match e {
        ConfigError::Field { field, reason } => {
            ConfigError::Field { field: format!("{prefix}.{field}"), reason }
        }
        other => other,
    }
}

fn stack(value: &Value, side: &'static str, d: &mut Vec<Defaulted>) -> Result<Stack, ConfigError> {
    let empty = Value::Object(Default::default());
    let sub = value.get(side).filter(|v| !v.is_null()).unwrap_or(&empty);
    if !sub.is_object() {
        return Err(ConfigError::field(side, format!("expected an object of the stack's keys, found {sub}")));
    }
    let (s, defaulted) = stack_keys(sub).map_err(|e| within(side, e))?;
    d.extend(
        defaulted.into_iter().map(|x| Defaulted { field: side, value: format!("{} {}", x.field, x.value) }),
    );
    Ok(s)
}

/// One stack's keys (`T5GemmaModuleConfig`), and those its class's defaults gave.
fn stack_keys(sub: &Value) -> Result<(Stack, Vec<Defaulted>), ConfigError> {
    let mut r = Reader { spec: &MODULE, value: sub, defaulted: vec![] };
    let hidden_size = r.size("hidden_size", 1 << 18)?;
    let num_heads = r.size("num_attention_heads", 1 << 14)?;
    let num_kv_heads = r.size("num_key_value_heads", 1 << 14)?;
    if hidden_size % num_heads != 0 || num_heads % num_kv_heads != 0 {
        return Err(ConfigError::field(
            "num_attention_heads",
            format!(
                "hidden_size {hidden_size}, {num_heads} heads and {num_kv_heads} key/value heads do not divide as T5GemmaModuleConfig requires"
            ),
        ));
    }
    let num_layers = r.size("num_hidden_layers", 10_000)?;
    let window = r.size("sliding_window", 1 << 24)?;
    let s = Stack {
        vocab_size: r.size("vocab_size", 100_000_000)?,
        hidden_size,
        intermediate_size: r.size("intermediate_size", 1 << 22)?,
        num_layers,
        num_heads,
        num_kv_heads,
        head_dim: r.size("head_dim", 1 << 14)?,
        attention_bias: r.flag("attention_bias")?,
        windows: windows(sub, "layer_types", num_layers, window, |i| (i + 1) % 2 == 0)?,
        max_position_embeddings: r.size("max_position_embeddings", 1 << 24)?,
        rms_norm_eps: r.float("rms_norm_eps")?,
        hidden_activation: r.string("hidden_activation")?,
        pad_token_id: r.opt_u("pad_token_id")?,
    };
    Ok((s, r.defaulted))
}

impl T5GemmaConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let class = super::class_or(common, "T5GemmaModel", &mut d);
        let encoder_decoder = match value.get("is_encoder_decoder") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                return Err(ConfigError::field(
                    "is_encoder_decoder",
                    format!("expected true or false, found {v}"),
                ));
            }
        };
        let labels = |d: &mut Vec<Defaulted>| super::classifier_labels(super::num_labels(value)?, d);
        let head = match class.as_str() {
            "T5GemmaModel" => T5GemmaHead::Model,
            "T5GemmaEncoderModel" => T5GemmaHead::Encoder,
            "T5GemmaForConditionalGeneration" => T5GemmaHead::Generation,
            "T5GemmaForSequenceClassification" => {
                T5GemmaHead::Classifier { labels: labels(&mut d)?, tokens: false }
            }
            "T5GemmaForTokenClassification" => {
                T5GemmaHead::Classifier { labels: labels(&mut d)?, tokens: true }
            }
            _ => return Err(super::read::unknown_class(&class)),
        };
        let encoder = stack(value, "encoder", &mut d)?;
        let decoder = stack(value, "decoder", &mut d)?;
        let with_decoder = match head {
            T5GemmaHead::Encoder => false,
            T5GemmaHead::Classifier { .. } => encoder_decoder,
            _ => true,
        };
        let tie_word_embeddings = match value.get("tie_word_embeddings") {
            Some(Value::Bool(b)) => *b,
            None | Some(Value::Null) => {
                d.push(Defaulted { field: "tie_word_embeddings", value: "true".into() });
                true
            }
            Some(v) => {
                return Err(ConfigError::field(
                    "tie_word_embeddings",
                    format!("expected true or false, found {v}"),
                ));
            }
        };
        Ok(T5GemmaConfig {
            class,
            head,
            encoder,
            decoder: with_decoder.then_some(decoder),
            tie_word_embeddings,
            defaulted: d,
        })
    }

    /// The decoder's sizes where the class runs it, else the encoder's.
    pub fn main(&self) -> &Stack {
        self.decoder.as_ref().unwrap_or(&self.encoder)
    }

    pub fn dims(&self) -> super::Dims {
        let s = self.main();
        let heads = [s.num_heads, s.num_kv_heads, s.head_dim];
        let sizes = [
            s.hidden_size,
            s.num_layers,
            heads[0],
            heads[1],
            heads[2],
            s.intermediate_size,
            s.vocab_size,
            s.max_position_embeddings,
        ];
        super::doge_dory::decoder_dims(sizes, s.pad_token_id, self.tie_word_embeddings, s.rms_norm_eps)
    }
}
