//! `EncoderDecoderModel` (`model_type` `encoder-decoder`): two configs of plannable types joined.
//! transformers builds the encoder as `AutoModel` of the `encoder` config and the decoder as
//! `AutoModelForCausalLM` of the `decoder` config (its own `add_cross_attention` adds the
//! cross-attention; the default decoder sets it), and an `enc_to_dec_proj` when their widths differ. Each part is planned through its own
//! type; `graph/encoder_decoder.rs` joins them under `encoder.` and `decoder.`.

use serde_json::Value;

use super::{Common, ConfigError, Defaulted};
use crate::graph::Architecture;

/// The decoders transformers' `AutoModelForCausalLM` gives a cross-attention this planner
/// builds: the class, and whether the type's own reader adds it (`add_cross_attention`) or the
/// BERT lineage's layer gets a copy of its attention module as `crossattention`.
const DECODERS: &[(&str, &str, CrossAttention)] = &[
    ("bert", "BertLMHeadModel", CrossAttention::BertCopy),
    ("roberta", "RobertaForCausalLM", CrossAttention::BertCopy),
    ("xlm-roberta", "XLMRobertaForCausalLM", CrossAttention::BertCopy),
    ("camembert", "CamembertForCausalLM", CrossAttention::BertCopy),
    ("data2vec-text", "Data2VecTextForCausalLM", CrossAttention::BertCopy),
    ("ernie", "ErnieForCausalLM", CrossAttention::BertCopy),
    ("roberta-prelayernorm", "RobertaPreLayerNormForCausalLM", CrossAttention::BertCopy),
    ("xlm-roberta-xl", "XLMRobertaXLForCausalLM", CrossAttention::BertCopy),
    ("megatron-bert", "MegatronBertForCausalLM", CrossAttention::BertCopy),
    ("gpt2", "GPT2LMHeadModel", CrossAttention::OwnKey),
    ("bert-generation", "BertGenerationDecoder", CrossAttention::OwnKey),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrossAttention {
    /// The type's reader builds it from `add_cross_attention`.
    OwnKey,
    /// `BertLayer.crossattention`: the layer's attention module once more.
    BertCopy,
    /// The decoder's `add_cross_attention` is false: its layers attend only to themselves.
    None,
}

#[derive(Debug)]
pub struct EncoderDecoderConfig {
    pub class: String,
    pub encoder: Box<dyn Architecture>,
    pub encoder_type: String,
    pub decoder: Box<dyn Architecture>,
    pub decoder_type: String,
    pub cross: CrossAttention,
    /// `enc_to_dec_proj`: (encoder width, decoder width) when they differ.
    pub projection: Option<(u64, u64)>,
    pub defaulted: Vec<Defaulted>,
}

/// A sub-config: the file's object, or BERT's defaults (`sub_configs_defaults`) when absent.
fn part(value: &Value, key: &'static str) -> Result<(Value, String), ConfigError> {
    let v = match value.get(key) {
        None | Some(Value::Null) if key == "decoder" => {
            serde_json::json!({ "model_type": "bert", "is_decoder": true, "add_cross_attention": true })
        }
        None | Some(Value::Null) => serde_json::json!({ "model_type": "bert" }),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(other) => return Err(ConfigError::field(key, format!("expected an object, found {other}"))),
    };
    let t = match v.get("model_type") {
        None => "bert".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(ConfigError::field(
                format!("{key}.model_type"),
                format!("expected a string, found {other}"),
            ));
        }
    };
    Ok((v, t))
}

fn nested(key: &str, e: ConfigError) -> ConfigError {
    match e {
        ConfigError::Field { field, reason } => ConfigError::field(format!("{key}.{field}"), reason),
        other => ConfigError::field(key, other.to_string()),
    }
}

fn resolver(key: &str, t: &str) -> Result<crate::family::Resolver, ConfigError> {
    crate::family::info(t)
        .and_then(|f| f.resolve)
        .ok_or_else(|| ConfigError::field(format!("{key}.model_type"), format!("{t:?} is not planned yet")))
}

impl EncoderDecoderConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let mut d = Vec::new();
        let class = super::class_or(common, "EncoderDecoderModel", &mut d);
        if class != "EncoderDecoderModel" {
            return Err(super::read::unknown_class(&class));
        }
        let (mut enc_value, encoder_type) = part(value, "encoder")?;
        if encoder_type == "encoder-decoder" {
            return Err(ConfigError::field("encoder.model_type", "an encoder-decoder cannot nest itself"));
        }
        if enc_value.get("add_cross_attention") == Some(&Value::Bool(true)) {
            return Err(ConfigError::field(
                "encoder.add_cross_attention",
                "true: an encoder holding its own unused cross-attention is not planned yet",
            ));
        }
        if let Some(obj) = enc_value.as_object_mut() {
            // AutoModel: the type's bare model, whatever class the sub-config was saved from.
            obj.remove("architectures");
        }
        let enc_common = Common { model_type: encoder_type.clone(), architecture: None, torch_dtype: None };
        let encoder =
            resolver("encoder", &encoder_type)?(&enc_value, &enc_common).map_err(|e| nested("encoder", e))?;
        let (mut dec_value, decoder_type) = part(value, "decoder")?;
        let &(_, dec_class, cross) =
            DECODERS.iter().find(|(t, _, _)| *t == decoder_type).ok_or_else(|| {
                ConfigError::field(
                    "decoder.model_type",
                    format!("{decoder_type:?} is not planned as a decoder with cross-attention yet"),
                )
            })?;
        if dec_value.get("cross_attention_hidden_size").is_some_and(|v| !v.is_null()) {
            return Err(ConfigError::field(
                "decoder.cross_attention_hidden_size",
                "a cross-attention over another width is not planned yet",
            ));
        }
        // The decoder's own flags decide, as in transformers: only a missing `decoder` gets
        // `is_decoder` and `add_cross_attention` from `sub_configs_defaults`.
        let flag = |key: &str| match dec_value.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(ConfigError::field(
                format!("decoder.{key}"),
                format!("expected true or false, found {other}"),
            )),
        };
        let with_cross = flag("add_cross_attention")?;
        if cross == CrossAttention::BertCopy && with_cross && !flag("is_decoder")? {
            return Err(ConfigError::field(
                "decoder.is_decoder",
                "false with add_cross_attention true: the layer refuses to build cross-attention",
            ));
        }
        let cross = if with_cross { cross } else { CrossAttention::None };
        if let Some(obj) = dec_value.as_object_mut() {
            obj.remove("architectures");
        }
        let dec_common = Common {
            model_type: decoder_type.clone(),
            architecture: Some(dec_class.to_string()),
            torch_dtype: None,
        };
        let decoder =
            resolver("decoder", &decoder_type)?(&dec_value, &dec_common).map_err(|e| nested("decoder", e))?;
        let (eh, dh) = (encoder.dims().hidden_size, decoder.dims().hidden_size);
        let projection = (eh != dh).then_some((eh, dh));
        for (part, a) in [("encoder", &encoder), ("decoder", &decoder)] {
            d.extend(
                a.defaulted()
                    .iter()
                    .map(|x| Defaulted { field: x.field, value: format!("{} ({part})", x.value) }),
            );
        }
        Ok(EncoderDecoderConfig {
            class,
            encoder,
            encoder_type,
            decoder,
            decoder_type,
            cross,
            projection,
            defaulted: d,
        })
    }
}
