//! Runs of like layers, folded: the view the JSON and the page show of a [`Graph`].
//!
//! A family whose layers are not all alike (dense layers before the mixture-of-experts ones, a
//! full-attention layer every fourth, Jamba's attention and Mamba layers) builds one section per
//! layer after the first run, `model.layers.3`, `model.layers.4`, ..., each the same as the next
//! but for its index. The graph keeps them so: the estimates walk it section by section, and
//! their figures must not move. What is shown folds them instead: within a block of sections
//! named `P.<index>` (or `P.{i}`, standing for indices 0 to repeat - 1), the sections whose nodes
//! are equal once the index is set aside become one section `P.{i}` with the layer indices it
//! stands for, as runs (`3..=77`, or `1, 3, ..., 31` when kinds alternate).

use serde::{Serialize, Serializer};
use std::collections::HashMap;

use super::{Node, Section};

/// Layer indices `first, first + step, ..., last`, written `[first, last, step]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    pub first: u64,
    pub last: u64,
    pub step: u64,
}

impl Run {
    /// How many indices the run holds.
    pub fn count(&self) -> u64 {
        (self.last - self.first).checked_div(self.step).map_or(1, |k| k + 1)
    }

    /// The indices, first to last.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        let step = self.step.max(1);
        (0..self.count()).map(move |k| self.first + k * step)
    }
}

impl Serialize for Run {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        [self.first, self.last, self.step].serialize(s)
    }
}

impl std::fmt::Display for Run {
    /// `5`, `3–77`, or `1, 3, …, 31` (the first two and the last: the step shows).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.count(), self.step) {
            (1, _) => write!(f, "{}", self.first),
            (_, 1) => write!(f, "{}–{}", self.first, self.last),
            (2, _) => write!(f, "{}, {}", self.first, self.last),
            (3, s) => write!(f, "{}, {}, {}", self.first, self.first + s, self.last),
            (_, s) => write!(f, "{}, {}, …, {}", self.first, self.first + s, self.last),
        }
    }
}

/// Runs in words, `3–77` or `0, 8, …, 24; 2, 10, …, 26`.
pub fn runs_text(runs: &[Run]) -> String {
    runs.iter().map(Run::to_string).collect::<Vec<_>>().join("; ")
}

/// A section as shown: a layer group, or a section of the graph as it is.
#[derive(Debug)]
pub struct Folded<'a> {
    /// `P.{i}` for a layer group; the section's own name otherwise.
    pub name: String,
    /// The member whose nodes stand for every member's.
    pub section: &'a Section,
    /// The sections of the graph this one stands for, in the graph's order.
    pub members: Vec<&'a Section>,
    /// Layers, all members together.
    pub repeat: u64,
    /// The layer indices `{i}` takes, for a section named with `{i}`.
    pub layers: Option<Vec<Run>>,
}

impl Folded<'_> {
    /// A node's or tensor's name as the folded section names it: a member's name at its start
    /// becomes the folded section's (`model.layers.3.mlp` → `model.layers.{i}.mlp`).
    pub fn rename(&self, name: &str, member: &Section) -> String {
        match tail(name, &member.name) {
            Name::Rel(rest) => format!("{}{rest}", self.name),
            Name::Abs(whole) => whole.to_string(),
        }
    }

    /// Parameters of one layer (one instance of the section).
    pub fn each_params(&self) -> u64 {
        self.section.nodes.iter().map(Node::param_count).sum()
    }

    /// Parameters of every member, as the graph counts them.
    pub fn total_params(&self) -> u64 {
        self.members.iter().map(|m| m.param_count()).sum()
    }
}

/// A name against its section's: the rest after the section's name (empty or from a dot on), or
/// the whole name where it does not start with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Name<'a> {
    Rel(&'a str),
    Abs(&'a str),
}

/// Whether `a` under section `a_section` and `b` under `b_section` are the same name once each
/// section's name is set aside (`m.layers.3.mlp` under `m.layers.3`, `m.layers.{i}.mlp` under
/// `m.layers.{i}`).
pub fn same_tail(a: &str, a_section: &str, b: &str, b_section: &str) -> bool {
    tail(a, a_section) == tail(b, b_section)
}

fn tail<'a>(name: &'a str, section: &str) -> Name<'a> {
    match name.strip_prefix(section) {
        Some(rest) if rest.is_empty() || rest.starts_with('.') => Name::Rel(rest),
        _ => Name::Abs(name),
    }
}

/// The section's layer prefix and indices: `P.{i}` stands for 0 to repeat - 1, `P.<k>` (once)
/// for k.
fn layer_of(s: &Section) -> Option<(&str, Run)> {
    if let Some(prefix) = s.name.strip_suffix(".{i}") {
        let last = s.repeat.checked_sub(1)?;
        return Some((prefix, Run { first: 0, last, step: 1 }));
    }
    let (prefix, index) = s.name.rsplit_once('.')?;
    if s.repeat != 1 || index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Leading zeros would not survive `{i}` expansion (`07` is not `7`).
    if index.len() > 1 && index.starts_with('0') {
        return None;
    }
    let k = index.parse().ok()?;
    Some((prefix, Run { first: k, last: k, step: 1 }))
}

/// Whether two members' nodes are equal once each member's name is set aside.
fn alike(a: &Section, b: &Section) -> bool {
    a.role == b.role
        && a.nodes.len() == b.nodes.len()
        && a.nodes.iter().zip(&b.nodes).all(|(x, y)| {
            tail(&x.name, &a.name) == tail(&y.name, &b.name)
                && x.op == y.op
                && x.detail == y.detail
                && x.output == y.output
                && x.copies == y.copies
                && x.active_copies == y.active_copies
                && x.params.len() == y.params.len()
                && x.params.iter().zip(&y.params).all(|(t, u)| {
                    tail(&t.name, &a.name) == tail(&u.name, &b.name)
                        && t.shape == u.shape
                        && t.tied_to.as_deref().map(|n| tail(n, &a.name))
                            == u.tied_to.as_deref().map(|n| tail(n, &b.name))
                })
        })
}

/// Above this many layers in a group the indices are not listed one by one to find the fewest
/// runs; adjacent runs are joined instead.
const MAX_LISTED: u64 = 4096;

/// The fewest runs found for a group's indices: consecutive runs of one step, or one run per
/// residue modulo a period (Jamba's `0, 8, …; 2, 10, …; 6, 14, …`), whichever is shorter.
fn runs_of(parts: &[Run]) -> Vec<Run> {
    let count: u64 = parts.iter().fold(0u64, |acc, r| acc.saturating_add(r.count()));
    if count > MAX_LISTED {
        let mut sorted = parts.to_vec();
        crate::sort::stable_by(&mut sorted, &|a, b| a.first.cmp(&b.first));
        let mut out: Vec<Run> = vec![];
        for r in sorted {
            match out.last_mut() {
                Some(p) if p.step == 1 && r.step == 1 && p.last.checked_add(1) == Some(r.first) => {
                    p.last = r.last
                }
                _ => out.push(r),
            }
        }
        return out;
    }
    let mut idx: Vec<u64> = parts.iter().flat_map(|r| r.indices()).collect();
    idx.sort_unstable();
    idx.dedup();
    let mut best = consecutive(&idx);
    let (Some(&lo), Some(&hi)) = (idx.first(), idx.last()) else { return best };
    let n = idx.len() as u64;
    for period in 2..=(hi - lo).clamp(1, MAX_LISTED) {
        // A residue's run holds at most span / period + 1 indices, so at least this many runs
        // are needed; it only grows with the period, and only fewer runs than the best win.
        if n.div_ceil((hi - lo) / period + 1) >= best.len() as u64 {
            break;
        }
        if let Some(r) = by_residue(&idx, period, best.len()) {
            best = r;
        }
    }
    best
}

/// Greedy runs: each as long as its first step holds.
fn consecutive(idx: &[u64]) -> Vec<Run> {
    let mut out = vec![];
    let mut i = 0;
    while i < idx.len() {
        let first = idx[i];
        let Some(&next) = idx.get(i + 1) else {
            out.push(Run { first, last: first, step: 1 });
            break;
        };
        let step = next - first;
        let mut j = i + 1;
        while j + 1 < idx.len() && idx[j + 1] - idx[j] == step {
            j += 1;
        }
        out.push(Run { first, last: idx[j], step });
        i = j + 1;
    }
    out
}

/// One run per residue modulo `period`, where each residue's indices leave no gap; `None` also
/// where that takes `fewer_than` runs or more.
fn by_residue(idx: &[u64], period: u64, fewer_than: usize) -> Option<Vec<Run>> {
    let mut classes: Vec<Run> = vec![];
    // The class of each residue; periods are at most `MAX_LISTED`.
    let mut at: Vec<usize> = vec![usize::MAX; usize::try_from(period).ok()?];
    for &i in idx {
        let slot = &mut at[usize::try_from(i % period).ok()?];
        match classes.get_mut(*slot) {
            Some(r) => {
                if r.last + period != i {
                    return None;
                }
                r.last = i;
            }
            None => {
                if classes.len() + 1 >= fewer_than {
                    return None;
                }
                *slot = classes.len();
                classes.push(Run { first: i, last: i, step: period });
            }
        }
    }
    for r in &mut classes {
        if r.first == r.last {
            r.step = 1;
        }
    }
    // Indices come in order, so the classes are already in the order of their first index.
    Some(classes)
}

/// The sections as shown: each block of like layers folded into one section per kind, in the
/// order of each kind's first layer; every other section as it is.
pub fn fold(sections: &[Section]) -> Vec<Folded<'_>> {
    let mut out = vec![];
    let mut i = 0;
    while i < sections.len() {
        let s = &sections[i];
        let Some((prefix, _)) = layer_of(s) else {
            out.push(Folded {
                name: s.name.clone(),
                section: s,
                members: vec![s],
                repeat: s.repeat,
                layers: None,
            });
            i += 1;
            continue;
        };
        // The block: the sections that follow with the same prefix and role.
        let mut end = i + 1;
        while end < sections.len()
            && sections[end].role == s.role
            && layer_of(&sections[end]).is_some_and(|(p, _)| p == prefix)
        {
            end += 1;
        }
        // Kinds in the order of their first member; each with its members and their indices.
        let mut kinds: Vec<(Vec<&Section>, Vec<Run>, u64)> = vec![];
        for m in &sections[i..end] {
            let Some((_, run)) = layer_of(m) else { continue };
            let found = kinds.iter_mut().find(|(members, _, repeat)| {
                members.first().is_some_and(|f| alike(f, m)) && repeat.checked_add(m.repeat).is_some()
            });
            match found {
                Some((members, runs, repeat)) => {
                    members.push(m);
                    runs.push(run);
                    *repeat += m.repeat;
                }
                None => kinds.push((vec![m], vec![run], m.repeat)),
            }
        }
        for (members, runs, repeat) in kinds {
            out.push(Folded {
                name: format!("{prefix}.{{i}}"),
                section: members[0],
                members,
                repeat,
                layers: Some(runs_of(&runs)),
            });
        }
        i = end;
    }
    out
}

/// Which folded section, and which of its members, a node's name falls in: the longest member
/// name that is the node's name or starts it followed by a dot.
pub struct Members<'a> {
    by_name: HashMap<&'a str, (usize, usize)>,
}

impl<'a> Members<'a> {
    pub fn new(folded: &[Folded<'a>]) -> Self {
        let mut by_name = HashMap::new();
        for (g, f) in folded.iter().enumerate() {
            for (m, s) in f.members.iter().enumerate() {
                by_name.insert(s.name.as_str(), (g, m));
            }
        }
        Members { by_name }
    }

    /// `(folded section, member)` of a node named `name`, if any.
    pub fn of(&self, name: &str) -> Option<(usize, usize)> {
        if let Some(&hit) = self.by_name.get(name) {
            return Some(hit);
        }
        name.char_indices()
            .rev()
            .filter(|&(_, c)| c == '.')
            .find_map(|(at, _)| self.by_name.get(&name[..at]).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{Op, Role, Tensor};

    fn layer(name: &str, repeat: u64, width: u64) -> Section {
        Section {
            name: name.into(),
            role: Role::Layers,
            repeat,
            nodes: vec![
                Node::new(format!("{name}.mlp"), Op::Linear, "mlp", &[8, width])
                    .with([Tensor::new(format!("{name}.mlp.weight"), &[width, 4])]),
            ],
        }
    }

    #[test]
    fn a_dense_prefix_and_the_layers_after_it_fold_into_one_section_per_kind() {
        let mut s = vec![layer("m.layers.{i}", 3, 16)];
        for k in 3..10 {
            s.push(layer(&format!("m.layers.{k}"), 1, 32));
        }
        let f = fold(&s);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].name, "m.layers.{i}");
        assert_eq!(f[0].layers, Some(vec![Run { first: 0, last: 2, step: 1 }]));
        assert_eq!(f[1].repeat, 7);
        assert_eq!(f[1].layers, Some(vec![Run { first: 3, last: 9, step: 1 }]));
        // 7 layers of a 32 x 4 weight.
        assert_eq!(f[1].total_params(), 7 * 32 * 4);
        assert_eq!(f[1].rename("m.layers.5.mlp.weight", f[1].members[2]), "m.layers.{i}.mlp.weight");
    }

    #[test]
    fn alternating_kinds_take_one_run_per_residue_of_their_period() {
        // Jamba-1.5-Mini: attention every 8th layer from 4, experts every 2nd from 1.
        let s: Vec<Section> = (0..32)
            .map(|k| {
                layer(
                    &format!("m.layers.{k}"),
                    1,
                    if k % 8 == 4 {
                        1
                    } else if k % 2 == 1 {
                        2
                    } else {
                        3
                    },
                )
            })
            .collect();
        let f = fold(&s);
        let runs: Vec<String> = f.iter().map(|x| runs_text(x.layers.as_deref().unwrap_or(&[]))).collect();
        assert_eq!(runs, ["0, 8, …, 24; 2, 10, …, 26; 6, 14, …, 30", "1, 3, …, 31", "4, 12, …, 28"]);
    }

    #[test]
    fn a_full_attention_layer_every_fourth_leaves_three_runs_of_linear_ones() {
        let mut s = vec![layer("m.layers.{i}", 3, 1)];
        for k in 3..48 {
            s.push(layer(&format!("m.layers.{k}"), 1, if k % 4 == 3 { 2 } else { 1 }));
        }
        let f = fold(&s);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].repeat, 36);
        assert_eq!(runs_text(f[0].layers.as_deref().unwrap_or(&[])), "0, 4, …, 44; 1, 5, …, 45; 2, 6, …, 46");
        assert_eq!(runs_text(f[1].layers.as_deref().unwrap_or(&[])), "3, 7, …, 47");
    }

    #[test]
    fn two_kinds_every_tenth_layer_take_one_run_each_not_a_run_per_pair() {
        // 0, 10, 20, 30 and 3, 13, 23, 33: in order, steps of 3 and 7 alternate (four runs of
        // two); modulo 10 they are two residues without gaps.
        let parts: Vec<Run> =
            [0, 3, 10, 13, 20, 23, 30, 33].map(|k| Run { first: k, last: k, step: 1 }).to_vec();
        assert_eq!(consecutive(&[0, 3, 10, 13, 20, 23, 30, 33]).len(), 4);
        assert_eq!(
            runs_of(&parts),
            vec![Run { first: 0, last: 30, step: 10 }, Run { first: 3, last: 33, step: 10 }]
        );
        // 0 to 99 in a row: one run, whatever period might be tried.
        let row: Vec<Run> = (0..100).map(|k| Run { first: k, last: k, step: 1 }).collect();
        assert_eq!(runs_of(&row), vec![Run { first: 0, last: 99, step: 1 }]);
    }

    #[test]
    fn sections_that_are_not_layers_and_a_lone_layer_stay_as_they_are() {
        let s = vec![layer("m.embed", 1, 4), layer("m.layers.{i}", 2, 4), layer("m.layers.007", 1, 4)];
        let f = fold(&s);
        assert_eq!(
            f.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
            ["m.embed", "m.layers.{i}", "m.layers.007"]
        );
        assert_eq!(f[0].layers, None);
        assert_eq!(f[1].layers, Some(vec![Run { first: 0, last: 1, step: 1 }]));
    }

    #[test]
    fn a_member_is_found_from_any_node_name_under_it_and_not_from_a_longer_index() {
        let s = vec![layer("m.layers.{i}", 3, 1), layer("m.layers.3", 1, 2), layer("m.layers.30", 1, 2)];
        let f = fold(&s);
        let m = Members::new(&f);
        assert_eq!(m.of("m.layers.3.mlp"), Some((1, 0)));
        assert_eq!(m.of("m.layers.30.mlp"), Some((1, 1)));
        assert_eq!(m.of("m.layers.{i}.mlp"), Some((0, 0)));
        assert_eq!(m.of("rotary cos and sin"), None);
    }
}
