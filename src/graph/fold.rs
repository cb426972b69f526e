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

use rustc_hash::FxHashMap;

use super::{Node, Section};

mod runs;
#[cfg(test)]
mod tests;

use runs::runs_of;
pub use runs::{Run, runs_text};

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
            Name::Rel(rest) => {
                let mut out = String::with_capacity(self.name.len() + rest.len());
                out.push_str(&self.name);
                out.push_str(rest);
                out
            }
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
    by_name: FxHashMap<&'a str, (usize, usize)>,
}

impl<'a> Members<'a> {
    pub fn new(folded: &[Folded<'a>]) -> Self {
        let mut by_name = FxHashMap::default();
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
        // A '.' is one byte and never inside a multi-byte character: every cut is a boundary.
        name.bytes()
            .enumerate()
            .rev()
            .filter(|&(_, b)| b == b'.')
            .find_map(|(at, _)| self.by_name.get(&name[..at]).copied())
    }
}
