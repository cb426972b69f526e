//! The parameter count against the published checkpoint: both numbers, the difference, and the
//! difference explained tensor by tensor.
//!
//! With the checkpoint's tensor list (names and shapes) the explanation is read off by matching
//! names. With names only (a safetensors index) the names pick which candidates are present.
//! With neither, the family's candidate tensors (a pooler, a buffer, a head the class drops) are
//! tried in every combination; an explanation is given only when exactly one smallest combination
//! adds up to the difference to the scalar, and it is labelled as inferred.

use std::borrow::Cow;
use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use serde::Serialize;

use crate::graph::{Candidate, Graph};
use crate::source::CheckpointTensor;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
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
    /// The tensors' names, numbered runs collapsed to one pattern (`h.{0..11}.attn.bias`), so a
    /// config with thousands of layers or experts cannot make the page explode.
    pub tensors: Vec<String>,
    /// How many tensors the patterns stand for.
    pub count: u64,
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

/// A count that does not fit the arithmetic: which input field carries it, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {reason}")]
pub struct ReconcileError {
    pub field: String,
    pub reason: String,
}

/// Signed counts fit an `i64` in the page; the sums behind them are taken in `i128`, which
/// cannot overflow for any number of `u64` terms a build can hold.
fn to_i64(v: i128, field: &str, what: &str) -> Result<i64, ReconcileError> {
    i64::try_from(v).map_err(|_| ReconcileError {
        field: field.into(),
        reason: format!("{what} ({v}) is beyond ±(2^63 − 1) scalars, more than any checkpoint can hold"),
    })
}

fn checked_numel(shape: &[u64]) -> Option<u64> {
    shape.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d))
}

/// Old checkpoints (bert-base-uncased) name LayerNorm parameters `gamma` and `beta`;
/// transformers renames them on load.
fn modern_name(name: &str) -> Cow<'_, str> {
    if let Some(stem) = name.strip_suffix(".gamma") {
        Cow::Owned(format!("{stem}.weight"))
    } else if let Some(stem) = name.strip_suffix(".beta") {
        Cow::Owned(format!("{stem}.bias"))
    } else {
        Cow::Borrowed(name)
    }
}

/// Maps a checkpoint tensor name to the class's name for it: modernised, and with the encoder
/// prefix added or removed the way transformers does when a base model loads a head checkpoint.
fn class_name<V>(name: &str, class: &BTreeMap<String, V>, prefixes: &[&str]) -> String {
    let name = modern_name(name);
    if class.contains_key(name.as_ref()) {
        return name.into_owned();
    }
    for p in prefixes {
        if let Some(stripped) = name.strip_prefix(p) {
            if class.contains_key(stripped) {
                return stripped.to_string();
            }
        } else {
            let prefixed = format!("{p}{name}");
            if class.contains_key(&prefixed) {
                return prefixed;
            }
        }
    }
    name.into_owned()
}

/// A name with legacy suffixes modernised and the first matching encoder prefix removed: the key
/// under which checkpoint names and candidate names meet.
fn bare(name: &str, prefixes: &[&str]) -> String {
    bare_of(&modern_name(name), prefixes).to_string()
}

/// A modernised name with the first matching encoder prefix removed (no copy).
fn bare_of<'n>(n: &'n str, prefixes: &[&str]) -> &'n str {
    prefixes.iter().find_map(|p| n.strip_prefix(p)).unwrap_or(n)
}

/// Every candidate tensor by its bare name, with its candidate and size; the first candidate to
/// list a name wins. Built once per plan, so each lookup is a hash probe: a family's candidates
/// can list a tensor per layer, and scanning them for every name was quadratic in layers.
struct CandidateIndex<'a> {
    by_name: FxHashMap<String, (&'a Candidate, u64)>,
}

impl<'a> CandidateIndex<'a> {
    fn new(candidates: &'a [Candidate], prefixes: &[&str]) -> Result<Self, ReconcileError> {
        let mut by_name = FxHashMap::default();
        for c in candidates {
            for (t, shape) in &c.tensors {
                let n = checked_numel(shape).ok_or_else(|| too_many(t, shape))?;
                by_name.entry(bare(t, prefixes)).or_insert((c, n));
            }
            for run in &c.runs {
                let mut names = run.names().peekable();
                let Some(first) = names.peek() else { continue };
                let n = checked_numel(&run.shape).ok_or_else(|| too_many(first, &run.shape))?;
                for t in names {
                    by_name.entry(bare(&t, prefixes)).or_insert((c, n));
                }
            }
        }
        Ok(CandidateIndex { by_name })
    }

    fn get(&self, name: &str, prefixes: &[&str]) -> Option<(&'a Candidate, u64)> {
        self.by_name.get(bare_of(&modern_name(name), prefixes)).copied()
    }
}

pub fn reconcile(
    graph: &Graph,
    derived: u64,
    checkpoint: Option<u64>,
    tensors: Option<&[CheckpointTensor]>,
    index_names: Option<&[String]>,
    candidates: &[Candidate],
    prefixes: &[&str],
) -> Result<Reconciliation, ReconcileError> {
    let Some(total) = checkpoint else {
        return Ok(Reconciliation {
            status: Status::Unknown,
            method: None,
            items: vec![],
            unexplained: None,
            alternatives: vec![],
        });
    };
    let diff = i128::from(total) - i128::from(derived);
    to_i64(diff, "checkpoint.total_scalars", "the checkpoint's count minus the derived count")?;
    if let Some(list) = tensors {
        let mut shaped = Vec::with_capacity(list.len());
        for (k, t) in list.iter().enumerate() {
            let n = checked_numel(&t.shape).ok_or_else(|| ReconcileError {
                field: format!("checkpoint.tensors[{k}].shape"),
                reason: format!("{:?} multiplies out to more than 2^64 − 1 scalars", t.shape),
            })?;
            shaped.push((t.name.as_str(), n));
        }
        return by_names(graph, diff, &shaped, true, candidates, prefixes);
    }
    if let Some(names) = index_names {
        // Sizes of the named tensors are taken from the class, or from the candidates.
        let sized: Vec<(&str, u64)> = names.iter().map(|n| (n.as_str(), 0)).collect();
        return by_names(graph, diff, &sized, false, candidates, prefixes);
    }
    if diff == 0 {
        return Ok(done(Status::Equal, None, vec![], 0, vec![]));
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

/// An item while it is being gathered: every name, and the scalars in `i128`.
struct Group {
    reason: String,
    tensors: Vec<String>,
    scalars: i128,
}

fn by_names(
    graph: &Graph,
    diff: i128,
    ckpt: &[(&str, u64)],
    shapes_known: bool,
    candidates: &[Candidate],
    prefixes: &[&str],
) -> Result<Reconciliation, ReconcileError> {
    // Maps, not scans: every lookup below is a tree or hash probe, so the work grows with
    // the number of tensors times their log, whatever the number of layers.
    let mut class: BTreeMap<String, (u64, Option<String>, bool)> = BTreeMap::new();
    for (name, t) in graph.tensors() {
        let n = checked_numel(&t.shape).ok_or_else(|| ReconcileError {
            field: name.clone(),
            reason: format!(
                "the shape {:?} the config gives this tensor has more than 2^64 − 1 scalars",
                t.shape
            ),
        })?;
        class.insert(name, (n, t.tied_to.clone(), false));
    }
    let index = CandidateIndex::new(candidates, prefixes)?;
    // Group what differs by candidate (or by module when no candidate names it).
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let mut add = |label: String, reason: String, tensor: String, scalars: i128| {
        let g = groups.entry(label).or_insert(Group { reason, tensors: vec![], scalars: 0 });
        g.tensors.push(tensor);
        g.scalars += scalars;
    };
    for &(raw, numel) in ckpt {
        let name = class_name(raw, &class, prefixes);
        match class.get_mut(&name) {
            Some((class_numel, tied, seen)) => {
                *seen = true;
                if let Some(target) = tied {
                    let n = if shapes_known { numel } else { *class_numel };
                    add(
                        format!("{name} stored"),
                        format!(
                            "tied to `{target}` in the class (counted once), but stored again in the checkpoint"
                        ),
                        raw.to_string(),
                        i128::from(n),
                    );
                } else if shapes_known && numel != *class_numel {
                    add(
                        format!("{name} shape"),
                        format!("the checkpoint's tensor has {numel} scalars, the class's {class_numel}"),
                        raw.to_string(),
                        i128::from(numel) - i128::from(*class_numel),
                    );
                }
            }
            None => {
                let found = index.get(raw, prefixes).filter(|(c, _)| c.in_checkpoint_only);
                let (label, reason) = match found {
                    Some((c, _)) => (c.label.clone(), c.reason.clone()),
                    None => ("other".to_string(), "in the checkpoint, not built by this class".to_string()),
                };
                let n = if shapes_known { Some(numel) } else { found.map(|(_, n)| n) };
                match n {
                    Some(n) => add(label, reason, raw.to_string(), i128::from(n)),
                    None => add(
                        "unsized".into(),
                        "named in the checkpoint's index, with no size known from the config".into(),
                        raw.to_string(),
                        0,
                    ),
                }
            }
        }
    }
    for (name, (numel, tied, seen)) in &class {
        if tied.is_none() && !seen {
            let (label, reason) = match index.get(name, prefixes) {
                Some((c, _)) if !c.in_checkpoint_only => (c.label.clone(), c.reason.clone()),
                _ => ("absent".to_string(), "built by the class, not stored in the checkpoint".to_string()),
            };
            add(label, reason, name.clone(), -i128::from(*numel));
        }
    }
    let mut items = Vec::with_capacity(groups.len());
    let mut accounted: i128 = 0;
    for (label, g) in groups {
        accounted += g.scalars;
        let scalars = to_i64(g.scalars, "checkpoint.tensors", &format!("the scalars of `{label}`"))?;
        items.push(Item {
            label,
            count: g.tensors.len() as u64,
            tensors: compact(&g.tensors),
            scalars,
            reason: g.reason,
        });
    }
    let left = to_i64(diff - accounted, "checkpoint.tensors", "the difference left unexplained")?;
    let method = if shapes_known { Method::TensorList } else { Method::IndexNames };
    let status = if items.is_empty() && diff == 0 { Status::Equal } else { Status::Explained };
    Ok(done(status, Some(method), items, left, vec![]))
}

/// A candidate tensor whose shape multiplies out beyond `u64`.
fn too_many(tensor: &str, shape: &[u64]) -> ReconcileError {
    ReconcileError {
        field: tensor.to_string(),
        reason: format!("the shape {shape:?} the config gives this tensor has more than 2^64 − 1 scalars"),
    }
}

/// A candidate's scalars, signed as [`Candidate::signed_scalars`], without overflow.
fn candidate_scalars(c: &Candidate) -> Result<i128, ReconcileError> {
    let mut n: i128 = 0;
    for (t, shape) in &c.tensors {
        let k = checked_numel(shape).ok_or_else(|| too_many(t, shape))?;
        n += i128::from(k);
    }
    for run in &c.runs {
        let Some(first) = run.names().next() else { continue };
        let k = checked_numel(&run.shape).ok_or_else(|| too_many(&first, &run.shape))?;
        // Beyond an i128 only for a config that asks for more than any build could hold.
        n = u128::from(run.repeat)
            .checked_mul(u128::from(run.copies))
            .and_then(|t| t.checked_mul(u128::from(k)))
            .and_then(|s| i128::try_from(s).ok())
            .and_then(|s| n.checked_add(s))
            .ok_or_else(|| ReconcileError {
                field: first,
                reason: format!(
                    "{} × {} tensors of {k} scalars each are more than any checkpoint can hold",
                    run.repeat, run.copies
                ),
            })?;
    }
    Ok(if c.in_checkpoint_only { n } else { -n })
}

fn inferred(diff: i128, candidates: &[Candidate]) -> Result<Reconciliation, ReconcileError> {
    // A family offers a handful of candidates; 2^n subsets stay tiny.
    let n = candidates.len().min(16);
    let sizes = candidates[..n].iter().map(candidate_scalars).collect::<Result<Vec<i128>, _>>()?;
    let left = to_i64(diff, "checkpoint.total_scalars", "the checkpoint's count minus the derived count")?;
    let mut best: Option<usize> = None;
    let mut fits: Vec<u32> = vec![];
    for mask in 1u32..(1 << n) {
        let sum: i128 = (0..n).filter(|i| mask & (1 << i) != 0).map(|i| sizes[i]).sum();
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
    let pick = |mask: u32| -> Vec<usize> { (0..n).filter(|i| mask & (1 << i) != 0).collect() };
    Ok(match fits.as_slice() {
        [only] => {
            let mut items = vec![];
            for i in pick(*only) {
                let c = &candidates[i];
                let names: Vec<String> = c.named().map(|(t, _)| t).collect();
                items.push(Item {
                    label: c.label.clone(),
                    count: names.len() as u64,
                    tensors: compact(&names),
                    scalars: to_i64(sizes[i], &c.label, "the candidate's scalars")?,
                    reason: c.reason.clone(),
                });
            }
            done(Status::Explained, Some(Method::Inferred), items, 0, vec![])
        }
        [] => done(Status::Unexplained, None, vec![], left, vec![]),
        many => {
            let alternatives = many
                .iter()
                .map(|m| pick(*m).into_iter().map(|i| candidates[i].label.clone()).collect())
                .collect();
            done(Status::Unexplained, Some(Method::Inferred), vec![], left, alternatives)
        }
    })
}

/// A number of a name while names are being merged: as written, or a merged set (an index into
/// the table of sets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Coord {
    Num(u64),
    Set(u32),
}

/// A canonical number (no sign, no leading zero): only those merge, so a pattern prints back
/// every name it stands for exactly.
fn number(s: &str) -> Option<u64> {
    let canonical =
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'));
    if canonical { s.parse().ok() } else { None }
}

fn ranges(mut nums: Vec<u64>) -> Vec<(u64, u64)> {
    nums.sort_unstable();
    nums.dedup();
    let mut out: Vec<(u64, u64)> = vec![];
    for n in nums {
        match out.last_mut() {
            Some((_, hi)) if hi.checked_add(1) == Some(n) => *hi = n,
            _ => out.push((n, n)),
        }
    }
    out
}

/// Collapses numbered runs of tensor names into patterns: `h.0.attn.bias` … `h.11.attn.bias`
/// become `h.{0..11}.attn.bias`, and expert indices inside layer indices nest
/// (`layers.{0..31}.experts.{0..7}.w1`). Each name splits into a template (its dot-separated
/// parts, numbers left as slots) and the numbers; slots merge right to left, and an outer one
/// only when the inner sets agree, so every pattern stands for exactly the names it covers.
/// Order is that of each pattern's first name. Names are grouped by sorting, so the work is
/// n log n and the memory a few words per name, even for a million expert tensors.
pub fn compact<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    struct Entry {
        template: u32,
        coords: Vec<Coord>,
        first: usize,
    }
    // Template parts: Some(literal) or None for a number's slot.
    let mut templates: Vec<Vec<Option<&str>>> = vec![];
    let mut template_ids: FxHashMap<Vec<Option<&str>>, u32> = FxHashMap::default();
    let mut entries: Vec<Entry> = Vec::with_capacity(names.len());
    // One buffer for every name's template parts: a copy is kept only for a new template.
    let mut parts: Vec<Option<&str>> = vec![];
    for (first, name) in names.iter().enumerate() {
        parts.clear();
        let mut coords = vec![];
        for seg in name.as_ref().split('.') {
            match number(seg) {
                Some(n) => {
                    parts.push(None);
                    coords.push(Coord::Num(n));
                }
                None => parts.push(Some(seg)),
            }
        }
        let template = match template_ids.get(&parts) {
            Some(&id) => id,
            None => {
                let id = templates.len() as u32;
                templates.push(parts.clone());
                template_ids.insert(parts.clone(), id);
                id
            }
        };
        entries.push(Entry { template, coords, first });
    }
    let mut sets: Vec<Vec<(u64, u64)>> = vec![];
    let mut set_ids: FxHashMap<Vec<(u64, u64)>, u32> = FxHashMap::default();
    let slots = entries.iter().map(|e| e.coords.len()).max().unwrap_or(0);
    for p in (0..slots).rev() {
        // The entries with a plain number at slot p, sorted so that those equal everywhere else
        // sit together.
        let mut at: Vec<usize> =
            (0..entries.len()).filter(|&k| matches!(entries[k].coords.get(p), Some(Coord::Num(_)))).collect();
        let same = |a: &Entry, b: &Entry| {
            a.template == b.template
                && a.coords.len() == b.coords.len()
                && a.coords[..p] == b.coords[..p]
                && a.coords[p + 1..] == b.coords[p + 1..]
        };
        crate::sort::indices_by(&mut at, &|a, b| {
            let (ea, eb) = (&entries[a], &entries[b]);
            (ea.template, &ea.coords[..p], &ea.coords[p + 1..]).cmp(&(
                eb.template,
                &eb.coords[..p],
                &eb.coords[p + 1..],
            ))
        });
        let mut gone = vec![false; entries.len()];
        let mut merged: Vec<Entry> = vec![];
        let mut start = 0;
        while start < at.len() {
            let mut end = start + 1;
            while end < at.len() && same(&entries[at[start]], &entries[at[end]]) {
                end += 1;
            }
            if end - start >= 2 {
                let run = &at[start..end];
                let nums: Vec<u64> = run
                    .iter()
                    .filter_map(|&k| match entries[k].coords[p] {
                        Coord::Num(n) => Some(n),
                        Coord::Set(_) => None,
                    })
                    .collect();
                let set = ranges(nums);
                let id = match set_ids.get(&set) {
                    Some(&id) => id,
                    None => {
                        let id = sets.len() as u32;
                        sets.push(set.clone());
                        set_ids.insert(set, id);
                        id
                    }
                };
                let proto = &entries[run[0]];
                let mut coords = proto.coords.clone();
                coords[p] = Coord::Set(id);
                let first = run.iter().map(|&k| entries[k].first).min().unwrap_or(proto.first);
                merged.push(Entry { template: proto.template, coords, first });
                for &k in run {
                    gone[k] = true;
                }
            }
            start = end;
        }
        if !merged.is_empty() {
            entries =
                entries.into_iter().zip(gone).filter(|(_, g)| !g).map(|(e, _)| e).chain(merged).collect();
        }
    }
    crate::sort::stable_by(&mut entries, &|a, b| a.first.cmp(&b.first));
    entries
        .iter()
        .map(|e| {
            let mut coords = e.coords.iter();
            let parts: Vec<String> = templates[e.template as usize]
                .iter()
                .map(|part| match (part, part.is_none().then(|| coords.next()).flatten()) {
                    (Some(lit), _) => lit.to_string(),
                    (None, Some(Coord::Num(n))) => n.to_string(),
                    (None, Some(Coord::Set(id))) => {
                        let inner: Vec<String> = sets[*id as usize]
                            .iter()
                            .map(|&(a, b)| if a == b { a.to_string() } else { format!("{a}..{b}") })
                            .collect();
                        format!("{{{}}}", inner.join(","))
                    }
                    (None, None) => String::new(),
                })
                .collect();
            parts.join(".")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::compact;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn numbered_runs_collapse_to_one_pattern() {
        let v: Vec<String> = (0..12).map(|i| format!("h.{i}.attn.bias")).collect();
        assert_eq!(compact(&v), ["h.{0..11}.attn.bias"]);
    }

    #[test]
    fn expert_indices_nest_inside_layer_indices() {
        let mut v = vec![];
        for l in 0..4 {
            for e in 0..8 {
                v.push(format!("model.layers.{l}.mlp.experts.{e}.w1.weight"));
            }
        }
        assert_eq!(compact(&v), ["model.layers.{0..3}.mlp.experts.{0..7}.w1.weight"]);
    }

    #[test]
    fn gaps_show_as_separate_ranges_and_lone_names_stay_as_written() {
        let v = names(&["l.0.w", "l.1.w", "l.3.w", "pooler.weight", "l.5.w", "l.6.w"]);
        assert_eq!(compact(&v), ["l.{0..1,3,5..6}.w", "pooler.weight"]);
        assert_eq!(compact(&names(&["l.7.w"])), ["l.7.w"]);
    }

    #[test]
    fn layers_whose_inner_sets_differ_are_not_merged() {
        let v = names(&["l.0.e.0", "l.0.e.1", "l.1.e.0"]);
        assert_eq!(compact(&v), ["l.0.e.{0..1}", "l.1.e.0"]);
    }

    #[test]
    fn zero_padded_numbers_are_kept_literally() {
        let v = names(&["l.01.w", "l.02.w"]);
        assert_eq!(compact(&v), ["l.01.w", "l.02.w"]);
    }
}
