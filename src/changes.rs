//! What changed upstream between two revisions of a model: config keys (added, removed, changed
//! old -> new), the chat template, the tokenizer, the weights (tensors added, removed, reshaped),
//! and what that does to this page's numbers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::source::meta::CheckpointTensor;

/// One revision that touched config.json, the tokenizer, the chat template or the weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Change {
    pub commit: String,
    pub date: String,
    pub title: String,
    pub config_changes: Vec<KeyChange>,
    pub chat_template_changed: bool,
    pub tokenizer_changed: bool,
    pub weights_changed: bool,
    pub tensors_added: Vec<String>,
    pub tensors_removed: Vec<String>,
    #[serde(default)]
    pub tensors_reshaped: Vec<Reshaped>,
    /// What the change does to the page's numbers (parameters, memory per mode); null when none.
    pub effect: Option<String>,
}

/// A change as the page and the model JSON show it: the change, and its lines in words.
#[derive(Debug, Clone, Serialize)]
pub struct ChangeView {
    #[serde(flatten)]
    pub change: Change,
    /// One line per thing changed ("n_positions 16 -> 32", "chat template changed").
    pub lines: Vec<String>,
}

impl From<&Change> for ChangeView {
    fn from(c: &Change) -> Self {
        ChangeView { change: c.clone(), lines: c.lines() }
    }
}

/// A config key (dotted for nested objects: `rope_scaling.factor`); `old` or `new` is null when
/// the key was absent on that side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyChange {
    pub key: String,
    pub old: Option<Value>,
    pub new: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reshaped {
    pub name: String,
    pub old: Vec<u64>,
    pub new: Vec<u64>,
}

fn flatten(prefix: &str, v: &Value, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&key, v, out);
            }
        }
        _ => {
            out.insert(prefix.to_string(), v.clone());
        }
    }
}

/// Every leaf key that differs between two configs, sorted by key. Arrays compare whole.
pub fn config_diff(old: &Value, new: &Value) -> Vec<KeyChange> {
    let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
    flatten("", old, &mut a);
    flatten("", new, &mut b);
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| KeyChange { key: k.clone(), old: a.get(k).cloned(), new: b.get(k).cloned() })
        .collect()
}

/// Tensors added, removed and reshaped between two checkpoints, each sorted by name.
pub fn tensor_diff(
    old: &[CheckpointTensor],
    new: &[CheckpointTensor],
) -> (Vec<String>, Vec<String>, Vec<Reshaped>) {
    let a: BTreeMap<&str, &CheckpointTensor> = old.iter().map(|t| (t.name.as_str(), t)).collect();
    let b: BTreeMap<&str, &CheckpointTensor> = new.iter().map(|t| (t.name.as_str(), t)).collect();
    let added = b.keys().filter(|k| !a.contains_key(*k)).map(|k| k.to_string()).collect();
    let removed = a.keys().filter(|k| !b.contains_key(*k)).map(|k| k.to_string()).collect();
    let reshaped = b
        .iter()
        .filter_map(|(k, t)| {
            let o = a.get(k)?;
            (o.shape != t.shape).then(|| Reshaped {
                name: k.to_string(),
                old: o.shape.clone(),
                new: t.shape.clone(),
            })
        })
        .collect();
    (added, removed, reshaped)
}

/// The chat template a tokenizer_config.json carries (a string, or a list of named templates).
pub fn chat_template(tokenizer_config: &Value) -> Option<&Value> {
    tokenizer_config.get("chat_template")
}

/// The tokenizer config without its chat template, to tell a template change from a tokenizer one.
pub fn without_chat_template(tokenizer_config: &Value) -> Value {
    let mut v = tokenizer_config.clone();
    if let Some(map) = v.as_object_mut() {
        map.remove("chat_template");
    }
    v
}

fn show(v: &Option<Value>) -> String {
    match v {
        None => "(absent)".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

fn is_head(name: &str) -> bool {
    name == "lm_head.weight" || name.ends_with(".lm_head.weight")
}

impl Change {
    /// One line per change, as the page lists them.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in &self.config_changes {
            out.push(match (&c.old, &c.new) {
                (None, _) => format!("{} added: {}", c.key, show(&c.new)),
                (_, None) => format!("{} removed (was {})", c.key, show(&c.old)),
                _ => format!("{} {} -> {}", c.key, show(&c.old), show(&c.new)),
            });
        }
        if self.chat_template_changed {
            out.push("chat template changed".into());
        }
        if self.tokenizer_changed {
            out.push("tokenizer changed".into());
        }
        for t in &self.tensors_added {
            out.push(if is_head(t) {
                format!("{t} added: the head is no longer tied")
            } else {
                format!("{t} added")
            });
        }
        for t in &self.tensors_removed {
            out.push(if is_head(t) {
                format!("{t} removed: the head is now tied to the embeddings")
            } else {
                format!("{t} removed")
            });
        }
        for r in &self.tensors_reshaped {
            out.push(format!("{} reshaped {:?} -> {:?}", r.name, r.old, r.new));
        }
        if self.weights_changed
            && self.tensors_added.is_empty()
            && self.tensors_removed.is_empty()
            && self.tensors_reshaped.is_empty()
        {
            out.push("weights changed (same tensors and shapes)".into());
        }
        out
    }

    /// Whether the change alters the plan (an effect) or the behaviour (template, tokenizer,
    /// weights): what an advisory is written for.
    pub fn is_advisory(&self) -> bool {
        self.effect.is_some() || self.chat_template_changed || self.tokenizer_changed || self.weights_changed
    }
}

/// What a config change does to the plan: parameters and each mode's peak, before -> after;
/// `None` when the plan's numbers are the same (or neither side can be planned).
pub fn effect(label: &str, old_config: &str, new_config: &str) -> Option<String> {
    let plan = |text: &str| {
        let files = crate::source::ModelFiles {
            label: label.to_string(),
            config_text: text.to_string(),
            config_path: "config.json".into(),
            commit: None,
            meta: None,
            index_tensor_names: None,
        };
        crate::plan::plan(&files, None).ok()
    };
    let (a, b) = (plan(old_config)?, plan(new_config)?);
    let mut parts = Vec::new();
    if let (Some(pa), Some(pb)) = (&a.params, &b.params)
        && pa.derived != pb.derived
    {
        parts.push(format!(
            "parameters {} -> {}",
            crate::render::format::commas(pa.derived),
            crate::render::format::commas(pb.derived)
        ));
    }
    if let (Some(ma), Some(mb)) = (&a.memory, &b.memory) {
        for (name, x, y) in [
            ("full fine-tune", &ma.full, &mb.full),
            ("LoRA", &ma.lora, &mb.lora),
            ("QLoRA", &ma.qlora, &mb.qlora),
            ("serving", &ma.serve, &mb.serve),
        ] {
            // Compared as shown: a change below the page's precision is not an effect on it.
            let (bx, by) =
                (crate::render::format::bytes(x.batch1_bytes), crate::render::format::bytes(y.batch1_bytes));
            if bx != by {
                parts.push(format!("{name} peak {bx} -> {by}"));
            }
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_keys_are_compared_leaf_by_leaf_and_absent_keys_are_null() {
        let old = json!({"a": 1, "rope_scaling": {"factor": 2.0, "type": "linear"}, "gone": true});
        let new = json!({"a": 1, "rope_scaling": {"factor": 4.0, "type": "linear"}, "new": [1, 2]});
        let d = config_diff(&old, &new);
        let keys: Vec<&str> = d.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["gone", "new", "rope_scaling.factor"]);
        assert_eq!(d[0].new, None);
        assert_eq!(d[1].old, None);
        assert_eq!(d[2].old, Some(json!(2.0)));
    }

    #[test]
    fn an_added_lm_head_reads_as_an_untied_head() {
        let t =
            |n: &str, s: &[u64]| CheckpointTensor { name: n.into(), dtype: "F32".into(), shape: s.to_vec() };
        let (added, removed, reshaped) = tensor_diff(
            &[t("wte", &[10, 4]), t("x", &[2])],
            &[t("wte", &[12, 4]), t("lm_head.weight", &[10, 4])],
        );
        assert_eq!(added, ["lm_head.weight"]);
        assert_eq!(removed, ["x"]);
        assert_eq!(reshaped, [Reshaped { name: "wte".into(), old: vec![10, 4], new: vec![12, 4] }]);
        let c = Change {
            commit: "c".into(),
            date: "d".into(),
            title: "t".into(),
            config_changes: vec![],
            chat_template_changed: false,
            tokenizer_changed: false,
            weights_changed: true,
            tensors_added: added,
            tensors_removed: vec![],
            tensors_reshaped: vec![],
            effect: None,
        };
        assert_eq!(c.lines(), ["lm_head.weight added: the head is no longer tied"]);
    }
}
