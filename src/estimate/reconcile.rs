//! The parameter count against the published checkpoint: both numbers, the difference, and the
//! difference explained tensor by tensor.
//!
//! With the checkpoint's tensor list (names and shapes) the explanation is read off by matching
//! names. With names only (a safetensors index) the names pick which candidates are present.
//! With neither, the family's candidate tensors (a pooler, a buffer, a head the class drops) are
//! tried in every combination; an explanation is given only when exactly one smallest combination
//! adds up to the difference to the scalar, and it is labelled as inferred.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::graph::{Candidate, Graph};
use crate::source::CheckpointTensor;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The derived count equals the checkpoint's.
    Equal,
    /// The difference is accounted for to the scalar.
    Explained,
    /// The difference could not be accounted for.
    Unexplained,
    /// No published count is known.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Matched against every tensor name and shape of the checkpoint.
    TensorList,
    /// Matched against the tensor names of the checkpoint's index.
    IndexNames,
    /// The unique smallest combination of candidate tensors that adds up to the difference.
    Inferred,
}

#[derive(Debug, Clone, Serialize)]
pub struct Item {
    pub label: String,
    pub tensors: Vec<String>,
    /// Scalars to add to the derived count (negative: the class has them, the checkpoint not).
    pub scalars: i64,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Reconciliation {
    pub status: Status,
    pub method: Option<Method>,
    pub items: Vec<Item>,
    /// Checkpoint minus derived minus the items; zero when explained.
    pub unexplained: Option<i64>,
    /// When several combinations fit equally well, their labels, so the page can say so.
    pub alternatives: Vec<Vec<String>>,
}

/// Old checkpoints (bert-base-uncased) name LayerNorm parameters `gamma` and `beta`;
/// transformers renames them on load.
fn modern_name(name: &str) -> String {
    if let Some(stem) = name.strip_suffix(".gamma") {
        format!("{stem}.weight")
    } else if let Some(stem) = name.strip_suffix(".beta") {
        format!("{stem}.bias")
    } else {
        name.to_string()
    }
}

/// Maps a checkpoint tensor name to the class's name for it: modernised, and with the encoder
/// prefix added or removed the way transformers does when a base model loads a head checkpoint.
fn class_name(name: &str, class: &BTreeSet<String>, prefixes: &[&str]) -> String {
    let name = modern_name(name);
    if class.contains(&name) {
        return name;
    }
    for p in prefixes {
        if let Some(stripped) = name.strip_prefix(p) {
            if class.contains(stripped) {
                return stripped.to_string();
            }
        } else {
            let prefixed = format!("{p}{name}");
            if class.contains(&prefixed) {
                return prefixed;
            }
        }
    }
    name
}

/// The candidate that lists a tensor name (modulo legacy names and the encoder prefix), with the
/// size the config gives that tensor.
fn candidate_for<'a>(
    name: &str,
    candidates: &'a [Candidate],
    prefixes: &[&str],
) -> Option<(&'a Candidate, u64)> {
    let bare = |n: &str| {
        let n = modern_name(n);
        prefixes.iter().find_map(|p| n.strip_prefix(p).map(str::to_string)).unwrap_or(n)
    };
    let want = bare(name);
    candidates.iter().find_map(|c| {
        c.tensors.iter().find(|(t, _)| bare(t) == want).map(|(_, shape)| (c, shape.iter().product()))
    })
}

pub fn reconcile(
    graph: &Graph,
    derived: u64,
    checkpoint: Option<u64>,
    tensors: Option<&[CheckpointTensor]>,
    index_names: Option<&[String]>,
    candidates: &[Candidate],
    prefixes: &[&str],
) -> Reconciliation {
    let Some(total) = checkpoint else {
        return Reconciliation {
            status: Status::Unknown,
            method: None,
            items: vec![],
            unexplained: None,
            alternatives: vec![],
        };
    };
    let diff = total as i64 - derived as i64;
    if let Some(list) = tensors {
        let shaped: Vec<(String, u64)> = list.iter().map(|t| (t.name.clone(), t.numel())).collect();
        return by_names(graph, diff, &shaped, true, candidates, prefixes);
    }
    if let Some(names) = index_names {
        // Sizes of the named tensors are taken from the class, or from the candidates.
        let sized: Vec<(String, u64)> = names.iter().map(|n| (n.clone(), 0)).collect();
        return by_names(graph, diff, &sized, false, candidates, prefixes);
    }
    if diff == 0 {
        return done(Status::Equal, None, vec![], 0, vec![]);
    }
    inferred(diff, candidates)
}

fn done(
    status: Status,
    method: Option<Method>,
    items: Vec<Item>,
    left: i64,
    alternatives: Vec<Vec<String>>,
) -> Reconciliation {
    let status = if status == Status::Explained && left != 0 { Status::Unexplained } else { status };
    Reconciliation { status, method, items, unexplained: Some(left), alternatives }
}

fn by_names(
    graph: &Graph,
    diff: i64,
    ckpt: &[(String, u64)],
    shapes_known: bool,
    candidates: &[Candidate],
    prefixes: &[&str],
) -> Reconciliation {
    let mut class: BTreeMap<String, (u64, Option<String>)> = BTreeMap::new();
    for (name, t) in graph.tensors() {
        class.insert(name, (t.numel(), t.tied_to.clone()));
    }
    let class_names: BTreeSet<String> = class.keys().cloned().collect();
    let mut seen = BTreeSet::new();
    // Group what differs by candidate (or by module when no candidate names it).
    let mut groups: BTreeMap<String, Item> = BTreeMap::new();
    let mut add = |label: String, reason: String, tensor: String, scalars: i64| {
        let item = groups.entry(label.clone()).or_insert(Item { label, tensors: vec![], scalars: 0, reason });
        item.tensors.push(tensor);
        item.scalars += scalars;
    };
    for (raw, numel) in ckpt {
        let name = class_name(raw, &class_names, prefixes);
        match class.get(&name) {
            Some((class_numel, tied)) => {
                seen.insert(name.clone());
                if let Some(target) = tied {
                    let n = if shapes_known { *numel } else { *class_numel };
                    add(
                        format!("{name} stored"),
                        format!(
                            "tied to `{target}` in the class (counted once), but stored again in the checkpoint"
                        ),
                        raw.clone(),
                        n as i64,
                    );
                } else if shapes_known && numel != class_numel {
                    add(
                        format!("{name} shape"),
                        format!("the checkpoint's tensor has {numel} scalars, the class's {class_numel}"),
                        raw.clone(),
                        *numel as i64 - *class_numel as i64,
                    );
                }
            }
            None => {
                let found = candidate_for(raw, candidates, prefixes).filter(|(c, _)| c.in_checkpoint_only);
                let (label, reason) = match found {
                    Some((c, _)) => (c.label.clone(), c.reason.clone()),
                    None => ("other".to_string(), "in the checkpoint, not built by this class".to_string()),
                };
                let n = if shapes_known { Some(*numel) } else { found.map(|(_, n)| n) };
                match n {
                    Some(n) => add(label, reason, raw.clone(), n as i64),
                    None => add(
                        "unsized".into(),
                        "named in the checkpoint's index, with no size known from the config".into(),
                        raw.clone(),
                        0,
                    ),
                }
            }
        }
    }
    for (name, (numel, tied)) in &class {
        if tied.is_none() && !seen.contains(name) {
            let (label, reason) = match candidate_for(name, candidates, prefixes) {
                Some((c, _)) if !c.in_checkpoint_only => (c.label.clone(), c.reason.clone()),
                _ => ("absent".to_string(), "built by the class, not stored in the checkpoint".to_string()),
            };
            add(label, reason, name.clone(), -(*numel as i64));
        }
    }
    let items: Vec<Item> = groups.into_values().collect();
    let accounted: i64 = items.iter().map(|i| i.scalars).sum();
    let method = if shapes_known { Method::TensorList } else { Method::IndexNames };
    let status = if items.is_empty() && diff == 0 { Status::Equal } else { Status::Explained };
    done(status, Some(method), items, diff - accounted, vec![])
}

fn inferred(diff: i64, candidates: &[Candidate]) -> Reconciliation {
    // A family offers a handful of candidates; 2^n subsets stay tiny.
    let n = candidates.len().min(16);
    let mut best: Option<usize> = None;
    let mut fits: Vec<u32> = vec![];
    for mask in 1u32..(1 << n) {
        let sum: i64 = (0..n).filter(|i| mask & (1 << i) != 0).map(|i| candidates[i].signed_scalars()).sum();
        if sum != diff {
            continue;
        }
        let size = mask.count_ones() as usize;
        match best {
            Some(b) if size > b => {}
            Some(b) if size == b => fits.push(mask),
            _ => {
                best = Some(size);
                fits = vec![mask];
            }
        }
    }
    let pick = |mask: u32| -> Vec<&Candidate> {
        (0..n).filter(|i| mask & (1 << i) != 0).map(|i| &candidates[i]).collect()
    };
    match fits.as_slice() {
        [only] => {
            let items = pick(*only)
                .into_iter()
                .map(|c| Item {
                    label: c.label.clone(),
                    tensors: c.tensors.iter().map(|(t, _)| t.clone()).collect(),
                    scalars: c.signed_scalars(),
                    reason: c.reason.clone(),
                })
                .collect();
            done(Status::Explained, Some(Method::Inferred), items, 0, vec![])
        }
        [] => done(Status::Unexplained, None, vec![], diff, vec![]),
        many => {
            let alternatives =
                many.iter().map(|m| pick(*m).into_iter().map(|c| c.label.clone()).collect()).collect();
            done(Status::Unexplained, Some(Method::Inferred), vec![], diff, alternatives)
        }
    }
}
