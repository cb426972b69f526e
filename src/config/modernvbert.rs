//! ModernVBERT (`modernvbert`) and UltraVBERT (`ultravbert`): a SigLIP vision tower whose patch
//! states are pixel-shuffled (`pixel_shuffle_factor`² patches into one token) and projected by
//! `connector.modality_projection` into a ModernBERT (or UltraBERT) encoder, under masked-LM and
//! classification heads. The text model is read by its own type's reader from `text_config`, the
//! tower by `graph/vision.rs` from `vision_config`. Built by `graph/modernvbert.rs`.

use serde_json::{Map, Value};

use super::bert::{Head, UnknownClass};
use super::eurobert::EuroBertConfig;
use super::modernbert::ModernBertConfig;
use super::{Common, ConfigError, Defaulted, class_or, flag, num_labels};
use crate::graph::Architecture;
use crate::graph::vision::{TowerKind, VisionTower, nested};

/// The text model, as `AutoModel.from_config(text_config)` builds it (the bare encoder).
#[derive(Debug, Clone)]
pub enum Text {
    Modern(ModernBertConfig),
    Ultra(EuroBertConfig),
}

impl Text {
    pub fn arch(&self) -> &dyn Architecture {
        match self {
            Text::Modern(c) => c,
            Text::Ultra(c) => c,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ModernVBertConfig {
    pub class: String,
    pub head: Head,
    pub num_labels: u64,
    pub text: Text,
    pub vision: VisionTower,
    pub pixel_shuffle_factor: u64,
    /// The top-level flag: transformers 5.x ties `lm_head` by it, not by `text_config`'s.
    pub tie_word_embeddings: bool,
    pub defaulted: Vec<Defaulted>,
}

/// A sub-config as an object, `{}` when the file has none; another value is an error on `key`.
fn sub<'a>(value: &'a Value, key: &str, empty: &'a Value) -> Result<&'a Value, ConfigError> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(empty),
        Some(v @ Value::Object(_)) => Ok(v),
        Some(_) => Err(ConfigError::field(key, "expected an object")),
    }
}

fn head(ultra: bool, class: &str) -> Result<Head, ConfigError> {
    let prefix = if ultra { "UltraVBert" } else { "ModernVBert" };
    let head = class.strip_prefix(prefix).and_then(|rest| match rest {
        "Model" => Some(Head::Model),
        "ForMaskedLM" => Some(Head::MaskedLm),
        "ForSequenceClassification" => Some(Head::SequenceClassification { num_labels: 0 }),
        "ForTokenClassification" => Some(Head::TokenClassification { num_labels: 0 }),
        _ => None,
    });
    head.ok_or_else(|| ConfigError::field("architectures[0]", UnknownClass(class.to_string()).to_string()))
}

impl ModernVBertConfig {
    pub fn resolve(value: &Value, common: &Common) -> Result<Self, ConfigError> {
        let ultra = common.model_type == "ultravbert";
        let mut d = Vec::new();
        let empty = Value::Object(Map::new());
        let text_value = sub(value, "text_config", &empty)?;
        let text_type = match text_value.get("model_type") {
            None => if ultra { "ultrabert" } else { "modernbert" }.to_string(),
            Some(Value::String(s)) if s == "modernbert" || s == "ultrabert" => s.clone(),
            Some(other) => {
                return Err(ConfigError::field(
                    "text_config.model_type",
                    format!("{other} is not a text model the planner knows here (modernbert, ultrabert)"),
                ));
            }
        };
        let text_common = Common { model_type: text_type.clone(), architecture: None, torch_dtype: None };
        let mut text = if text_type == "ultrabert" {
            Text::Ultra(
                EuroBertConfig::resolve(text_value, &text_common).map_err(|e| nested("text_config", e))?,
            )
        } else {
            Text::Modern(
                ModernBertConfig::resolve(text_value, &text_common).map_err(|e| nested("text_config", e))?,
            )
        };
        // The text model's own defaults, marked as read under text_config; its class is implied.
        let text_defaults = match &mut text {
            Text::Modern(c) => std::mem::take(&mut c.defaulted),
            Text::Ultra(c) => std::mem::take(&mut c.defaulted),
        };
        d.extend(
            text_defaults
                .into_iter()
                .filter(|x| x.field != "architectures")
                .map(|x| Defaulted { field: x.field, value: format!("{} (text_config)", x.value) }),
        );
        // UltraVBertConfig builds a missing vision_config with `vision_use_head=False`.
        let headless = serde_json::json!({"vision_use_head": false});
        let vision_absent = value.get("vision_config").is_none_or(Value::is_null);
        let vision_value =
            if ultra && vision_absent { &headless } else { sub(value, "vision_config", &empty)? };
        let vision = VisionTower::resolve(vision_value, "siglip_vision_model", &mut d)?;
        if vision.kind != TowerKind::Siglip {
            // AutoModel builds CLIP's and Pixtral's towers under other names than the planner's.
            return Err(ConfigError::field(
                "vision_config.model_type",
                format!("{:?} is not siglip_vision_model, the only tower planned here", vision.model_type),
            ));
        }
        let pixel_shuffle_factor = match value.get("pixel_shuffle_factor") {
            None | Some(Value::Null) => {
                d.push(Defaulted { field: "pixel_shuffle_factor", value: "4".into() });
                4
            }
            Some(v) => {
                let n = v.as_u64().ok_or_else(|| {
                    ConfigError::field(
                        "pixel_shuffle_factor",
                        format!("invalid type: {v}, expected a positive integer"),
                    )
                })?;
                super::check_range(super::Limit { field: "pixel_shuffle_factor", max: 64 }, n)?
            }
        };
        let tie = value.get("tie_word_embeddings").and_then(Value::as_bool);
        let tie_word_embeddings = flag("tie_word_embeddings", tie, false, &mut d);
        let base = if ultra { "UltraVBertModel" } else { "ModernVBertModel" };
        let class = class_or(common, base, &mut d);
        let head = head(ultra, &class)?;
        let (head, num_labels) = super::encoders::labelled(head, num_labels(value)?, &mut d)?;
        Ok(ModernVBertConfig {
            class,
            head,
            num_labels,
            text,
            vision,
            pixel_shuffle_factor,
            tie_word_embeddings,
            defaulted: d,
        })
    }

    pub fn dims(&self) -> super::Dims {
        super::Dims { tie_word_embeddings: self.tie_word_embeddings, ..self.text.arch().dims() }
    }

    /// Tokens one image takes: its patches, pixel-shuffled (`ModernVBertModel.image_seq_len`).
    pub fn image_tokens(&self) -> u64 {
        self.vision.patches() / (self.pixel_shuffle_factor * self.pixel_shuffle_factor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::config::testing::reader!(read, ModernVBertConfig);

    #[test]
    fn ultravbert_builds_its_default_tower_without_the_pooling_head() {
        assert!(!read(r#"{"model_type": "ultravbert"}"#).unwrap().vision.use_head);
        assert!(read(r#"{"model_type": "ultravbert", "vision_config": {}}"#).unwrap().vision.use_head);
        assert!(read(r#"{"model_type": "modernvbert"}"#).unwrap().vision.use_head);
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, field) in [
            (r#"{"model_type": "modernvbert", "pixel_shuffle_factor": 0}"#, "pixel_shuffle_factor"),
            (
                r#"{"model_type": "modernvbert", "text_config": {"model_type": "bert"}}"#,
                "text_config.model_type",
            ),
            (
                r#"{"model_type": "modernvbert", "text_config": {"hidden_size": 100}}"#,
                "text_config.hidden_size",
            ),
            (
                r#"{"model_type": "modernvbert", "vision_config": {"model_type": "clip_vision_model"}}"#,
                "vision_config.model_type",
            ),
            (
                r#"{"model_type": "ultravbert", "architectures": ["UltraVBertForQuestionAnswering"]}"#,
                "architectures[0]",
            ),
        ] {
            crate::config::testing::assert_field(read(text), text, field);
        }
    }
}
