//! Reading a described type's keys (`config/spec.rs`): the file's value, under the key or its
//! `attribute_map` alias, or the table's default (recorded); and the class a file names.

use serde_json::Value;

use super::decoder::DecoderHead;
use super::spec::{Bias, Dv, HeadKind, Spec};
use super::{Common, ConfigError, Defaulted, class_or, classifier_labels, num_labels};

/// Reads a described type's keys from the file, falling back to the table's defaults.
pub(crate) struct Reader<'a> {
    pub spec: &'static Spec,
    pub value: &'a Value,
    pub defaulted: Vec<Defaulted>,
}

impl Reader<'_> {
    /// The key's value in the file (or under its alias), if present and not null.
    pub fn raw(&self, key: &'static str) -> Option<&Value> {
        self.found(key).map(|(_, v)| v)
    }

    /// The value with the name the file wrote it under, so that an error names that key.
    fn found(&self, key: &'static str) -> Option<(&'static str, &Value)> {
        // A key may have several aliases (Sarvam's `num_experts` and `num_local_experts`).
        let aliases = self.spec.aliases.iter().filter(|(_, k)| *k == key).map(|(a, _)| *a);
        std::iter::once(key)
            .chain(aliases)
            .find_map(|k| self.value.get(k).filter(|v| !v.is_null()).map(|v| (k, v)))
    }

    fn default(&mut self, key: &'static str) -> Dv {
        let d = self.spec.keys.iter().find(|(k, _)| *k == key).map_or(Dv::Null, |(_, d)| *d);
        let shown = match d {
            Dv::U(u) => u.to_string(),
            Dv::F(f) => f.to_string(),
            Dv::B(b) => b.to_string(),
            Dv::S(s) => s.to_string(),
            // A None default is resolved (and recorded) by the caller.
            Dv::Null => return d,
        };
        if !self.defaulted.iter().any(|x| x.field == key) {
            self.defaulted.push(Defaulted { field: key, value: shown });
        }
        d
    }

    /// An optional count (null allowed); 0 passes, bounds are the caller's.
    pub fn opt_u(&mut self, key: &'static str) -> Result<Option<u64>, ConfigError> {
        match self.found(key) {
            Some((k, v)) => v
                .as_u64()
                .map(Some)
                .ok_or_else(|| ConfigError::field(k, format!("expected a non-negative integer, found {v}"))),
            None => Ok(match self.default(key) {
                Dv::U(u) => Some(u),
                _ => None,
            }),
        }
    }

    /// A size: present (or defaulted), at least 1 and at most `max`.
    pub fn size(&mut self, key: &'static str, max: u64) -> Result<u64, ConfigError> {
        let field = self.found(key).map_or(key, |(k, _)| k);
        let v = self
            .opt_u(key)?
            .ok_or_else(|| ConfigError::field(key, "missing, and the class has no default"))?;
        super::check_range(super::Limit { field, max }, v)
    }

    pub fn flag(&mut self, key: &'static str) -> Result<bool, ConfigError> {
        match self.found(key) {
            Some((_, Value::Bool(b))) => Ok(*b),
            Some((k, v)) => Err(ConfigError::field(k, format!("expected true or false, found {v}"))),
            None => Ok(matches!(self.default(key), Dv::B(true))),
        }
    }

    pub fn string(&mut self, key: &'static str) -> Result<String, ConfigError> {
        match self.found(key) {
            Some((_, Value::String(s))) => Ok(s.clone()),
            Some((k, v)) => Err(ConfigError::field(k, format!("expected a string, found {v}"))),
            None => Ok(match self.default(key) {
                Dv::S(s) => s.to_string(),
                _ => String::new(),
            }),
        }
    }

    pub fn float(&mut self, key: &'static str) -> Result<f64, ConfigError> {
        match self.found(key) {
            Some((k, v)) => {
                v.as_f64().ok_or_else(|| ConfigError::field(k, format!("expected a number, found {v}")))
            }
            None => Ok(match self.default(key) {
                Dv::F(f) => f,
                _ => 0.0,
            }),
        }
    }

    pub fn bias(&mut self, b: Bias) -> Result<bool, ConfigError> {
        match b {
            Bias::Fixed(v) => Ok(v),
            Bias::Key(k) => self.flag(k),
        }
    }

    /// A list of layer indices (`moe_layers`), if the file gives one.
    pub fn index_list(&self, key: &'static str) -> Result<Option<Vec<u64>>, ConfigError> {
        let Some(v) = self.raw(key) else { return Ok(None) };
        let bad = || ConfigError::field(key, format!("expected a list of layer indices, found {v}"));
        let list = v.as_array().ok_or_else(bad)?;
        list.iter().map(|x| x.as_u64().ok_or_else(bad)).collect::<Result<Vec<_>, _>>().map(Some)
    }
}

/// The description of a `model_type`, if one of the tables has it.
pub fn lookup(model_type: &str) -> Option<&'static Spec> {
    super::spec_dense::TYPES
        .iter()
        .chain(super::spec_moe::TYPES)
        .chain(super::spec_shared::TYPES)
        .chain(super::spec_granite::TYPES)
        .chain(super::spec_llama_like::TYPES)
        .chain(super::spec_mla::TYPES)
        .chain(super::spec_linear::TYPES)
        .chain(super::spec_hybrid::TYPES)
        .chain(super::spec_newdec::TYPES)
        .chain(super::spec_moe3::TYPES)
        .chain(super::spec_dec5::TYPES)
        .chain(super::spec_recur_lfm::TYPES)
        .chain(super::spec_olmo_hybrid::TYPES)
        .chain(super::spec_bailing_hybrid::TYPES)
        .chain(super::spec_enc6::TYPES)
        .chain(super::spec_dec6::TYPES)
        .chain(super::spec_longcat::TYPES)
        .chain(super::spec_axk2::TYPES)
        .chain(super::spec_m3::TYPES)
        .chain(super::spec_dots3::TYPES)
        .chain(super::spec_hyv4::TYPES)
        .chain(super::spec_txb::TYPES)
        .find(|s| s.model_type == model_type)
}

/// The family's own class for a remote-code class (one the config's `auto_map` loads), matched by
/// the head its name ends with.
fn native_class(spec: &Spec, class: &str, value: &Value) -> Option<&'static str> {
    value.get("auto_map")?.as_object()?;
    let suffixes = [
        "ForCausalLM",
        "ForSequenceClassification",
        "ForTokenClassification",
        "ForQuestionAnswering",
        "Model",
    ];
    let suffix = suffixes.iter().find(|s| class.ends_with(*s))?;
    spec.classes
        .iter()
        .map(|(c, _)| *c)
        .find(|c| c.ends_with(suffix) && (*suffix != "Model" || !c.contains("For")))
}

/// The class planned and its head.
pub(crate) fn head(
    spec: &Spec,
    common: &Common,
    value: &Value,
    d: &mut Vec<Defaulted>,
) -> Result<(String, DecoderHead), ConfigError> {
    let base = spec.classes.first().map_or("", |(c, _)| *c);
    let mut class = class_or(common, base, d);
    if !spec.classes.iter().any(|(c, _)| *c == class)
        && let Some(native) = native_class(spec, &class, value)
    {
        // A repository with remote code (`auto_map`) names its own class; transformers without
        // `trust_remote_code` loads the family's class with the same head, which is what is planned.
        d.push(Defaulted {
            field: "architectures",
            value: format!("{native} (transformers' class for {class})"),
        });
        class = native.to_string();
    }
    let Some((_, kind)) = spec.classes.iter().find(|(c, _)| *c == class) else {
        return Err(ConfigError::field(
            "architectures[0]",
            format!("class {class} is not one the planner knows for this family"),
        ));
    };
    Ok((
        class,
        match kind {
            HeadKind::Model => DecoderHead::Model,
            HeadKind::CausalLm => DecoderHead::CausalLm,
            HeadKind::Sequence => {
                DecoderHead::SequenceClassification { num_labels: classifier_labels(num_labels(value)?, d)? }
            }
            HeadKind::Token => {
                DecoderHead::TokenClassification { num_labels: classifier_labels(num_labels(value)?, d)? }
            }
            HeadKind::QuestionAnswering => DecoderHead::QuestionAnswering,
        },
    ))
}
