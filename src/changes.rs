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
    /// The Hub's commit id: 40 lower-case hex digits (it goes into URLs and file names).
    #[serde(deserialize_with = "commit_id")]
    pub commit: String,
    /// The commit's date, RFC 3339 in UTC (`2026-03-01T00:00:00.000Z`), as the Hub writes it: the
    /// feeds' `updated` and the OSV documents' `modified` take it as it is.
    #[serde(deserialize_with = "utc_date")]
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
    /// The change's OSV document, from the site root (`models/<org>/<name>/osv/<id>.json`):
    /// only for a change that alters the plan or the behaviour, on a page with a URL.
    pub osv: Option<String>,
}

impl ChangeView {
    /// The change of `model`, whose page is at `page_url` (none for a plan of a folder).
    pub fn new(c: &Change, model: &str, page_url: Option<&str>) -> Self {
        let osv = page_url
            .filter(|_| c.is_advisory())
            .map(|url| crate::osv::path(url, &crate::osv::id(model, &c.commit)));
        ChangeView { change: c.clone(), lines: c.lines(), osv }
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

/// A short value quoted for an error message; a long one is described, not echoed.
fn quoted(s: &str) -> String {
    if s.chars().count() <= 64 { format!("{s:?}") } else { format!("a {}-byte string", s.len()) }
}

/// Whether `s` is a Hub commit id: 40 lower-case hex digits.
pub fn check_commit(s: &str) -> Result<(), String> {
    if s.len() == 40 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        Ok(())
    } else {
        Err(format!("{} is not a commit id (40 lower-case hex digits)", quoted(s)))
    }
}

/// Whether `s` is an RFC 3339 date-time in UTC, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`: the one form
/// both Atom and OSV readers take without conversion.
pub fn check_date(s: &str) -> Result<(), String> {
    let bad =
        || Err(format!("{} is not a UTC date-time like 2026-03-01T00:00:00.000Z (RFC 3339)", quoted(s)));
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        part.iter().all(u8::is_ascii_digit).then(|| part.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')))
    };
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if !seps.iter().all(|&(i, c)| b.get(i) == Some(&c)) || b.last() != Some(&b'Z') {
        return bad();
    }
    let fields = (digits(0..4), digits(5..7), digits(8..10), digits(11..13), digits(14..16), digits(17..19));
    let (Some(_), Some(mo), Some(d), Some(h), Some(mi), Some(sec)) = fields else { return bad() };
    let fraction = &b[19..b.len() - 1];
    let fraction_ok = fraction.is_empty()
        || (fraction.len() >= 2 && fraction[0] == b'.' && fraction[1..].iter().all(u8::is_ascii_digit));
    // 60 seconds: a leap second, which RFC 3339 allows.
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 || !fraction_ok {
        return bad();
    }
    Ok(())
}

fn commit_id<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    check_commit(&s).map_err(serde::de::Error::custom)?;
    Ok(s)
}

fn utc_date<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    check_date(&s).map_err(serde::de::Error::custom)?;
    Ok(s)
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
    fn dates_must_be_rfc_3339_in_utc_and_commits_40_hex_digits() {
        for ok in ["2026-03-01T00:00:00.000Z", "2026-12-31T23:59:60Z", "1999-01-01T00:00:00.5Z"] {
            assert_eq!(check_date(ok), Ok(()), "{ok}");
        }
        for bad in [
            "2026-03-01",
            "2026-03-01T00:00:00+01:00",
            "2026-13-01T00:00:00Z",
            "2026-03-00T00:00:00Z",
            "2026-03-01T24:00:00Z",
            "2026-03-01T00:00:00.Z",
            "2026-03-01 00:00:00Z",
            "２026-03-01T00:00:00Z",
            "",
        ] {
            assert!(check_date(bad).is_err(), "{bad}");
        }
        assert!(check_commit(&"a".repeat(40)).is_ok());
        for bad in ["A".repeat(40), "a".repeat(39), "g".repeat(40), "../".repeat(13) + "a"] {
            assert!(check_commit(&bad).is_err(), "{bad}");
        }
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
            date: "2026-01-01T00:00:00Z".into(),
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
