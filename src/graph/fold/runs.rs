//! Layer indices as runs (`3..=77`, or `1, 3, ..., 31` when kinds alternate): the type, how it
//! is written, and the fewest runs for a folded group's indices (see `graph/fold.rs`).

use serde::{Serialize, Serializer};

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

/// Above this many layers in a group the indices are not listed one by one to find the fewest
/// runs; adjacent runs are joined instead.
const MAX_LISTED: u64 = 4096;

/// The fewest runs found for a group's indices: consecutive runs of one step, or one run per
/// residue modulo a period (Jamba's `0, 8, …; 2, 10, …; 6, 14, …`), whichever is shorter.
pub(super) fn runs_of(parts: &[Run]) -> Vec<Run> {
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
pub(super) fn consecutive(idx: &[u64]) -> Vec<Run> {
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
