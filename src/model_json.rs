//! The model JSON (`schema_version` 7): a compact view of [`ModelPage`] that carries each figure
//! once. The pages keep reading the whole `ModelPage`; the JSON leaves out what follows from what
//! it keeps (per-card rows from the coefficients and the site's `cards.json`, each recipe's
//! definition from `recipes.json`, fixed text from the method page), so that a model's JSON stays
//! a few kilobytes. The README's "The model JSON" section gives the formula for every figure that
//! left.

use std::borrow::Cow;

use serde::{Serialize, Serializer};

use crate::config::{Defaulted, Dims};
use crate::estimate::cards::Card;
use crate::estimate::fit::{FitView, Verdict};
use crate::estimate::memory_model::{Coefficients, MemoryModel};
use crate::estimate::reconcile::Reconciliation;
use crate::estimate::runtime::{self, CardRuntime};
use crate::estimate::shape_check::ForwardPass;
use crate::estimate::training::{AttentionImpl, Breakdown, Dropout, NodeActivation, Recipe, Transformers};
use crate::graph::fold::{self, Folded, Members, Run};
use crate::graph::kv::KvLayout;
use crate::graph::{Op, Role};
use crate::page::ModelPage;
use crate::source::meta::Downloads;

pub const SCHEMA_VERSION: u32 = 7;

/// A byte count or a rate: written as an integer when it is one (most byte counts are), so
/// `121028804608` rather than `121028804608.0`; JSON does not tell the two apart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(pub f64);

/// 2^53: every integer below it is exact in an f64.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let x = self.0;
        if x.is_finite() && x.fract() == 0.0 && x.abs() < EXACT_INTEGERS {
            // The cast is exact: an integral value below 2^53. A negative zero becomes 0.
            s.serialize_i64(x as i64)
        } else {
            s.serialize_f64(x)
        }
    }
}

fn num<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    Num(*x).serialize(s)
}

/// A phase's coefficients as `[fixed, per_sample, per_token, per_token_sq, windowed_per_token,
/// window]`, trailing zeros left out (`[fixed]` for a phase that does not grow).
pub fn terms(c: &Coefficients) -> Vec<Num> {
    let mut v = vec![
        Num(c.fixed_bytes),
        Num(c.per_sample_bytes),
        Num(c.per_token_bytes),
        Num(c.per_token_sq_bytes),
        Num(c.windowed_per_token_bytes),
        Num(c.window as f64),
    ];
    while v.len() > 1 && v.last().is_some_and(|n| n.0 == 0.0) {
        v.pop();
    }
    v
}

/// The inverse of [`terms`], for readers of the JSON (the tests, a client in Rust).
pub fn coefficients(terms: &[f64]) -> Coefficients {
    let at = |i: usize| terms.get(i).copied().unwrap_or(0.0);
    Coefficients {
        fixed_bytes: at(0),
        per_sample_bytes: at(1),
        per_token_bytes: at(2),
        per_token_sq_bytes: at(3),
        windowed_per_token_bytes: at(4),
        window: at(5) as u64,
    }
}

#[derive(Serialize)]
pub struct ModelJson<'a> {
    pub schema_version: u32,
    pub id: &'a str,
    // No `url`: a site's page is `models/<id>.html` (schema_version 7).
    pub family: &'a str,
    pub family_name: &'a str,
    pub derives_from: &'a Option<String>,
    pub architecture: &'a Option<String>,
    pub supported: bool,
    // Fields that apply to some models only are left out where they do not (schema_version 7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsupported_reason: &'a Option<String>,
    pub source: SourceJson<'a>,
    pub config: &'a Option<Dims>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub config_facts: &'a [(String, String)],
    pub defaulted: &'a [Defaulted],
    pub params: Option<ParamsJson<'a>>,
    pub forward_pass: &'a Option<ForwardPass>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vision: &'a Option<crate::graph::composite::VisionPart>,
    pub structure: Option<StructureJson<'a>>,
    pub training: Option<TrainingJson<'a>>,
    pub serving: Option<ServingJson<'a>>,
    pub fit: Option<FitJson<'a>>,
    pub cost: Option<CostJson<'a>>,
    pub lints: Vec<LintJson<'a>>,
    /// What changed upstream, newest first; left out where sync has seen no change.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub changes: &'a [crate::changes::ChangeView],
    // Last, as the builder appends it (`Renderer::model_parts`). The family's models are on the
    // family page and in its JSON (schema_version 6 left the list of siblings there).
    pub family_size: usize,
}

#[derive(Serialize)]
pub struct SourceJson<'a> {
    pub revision: &'a Option<String>,
    pub config_file: &'a str,
    pub config_verification: &'a Option<String>,
    pub config_source: &'a Option<String>,
    // What `modelatlas sync` reads, left out where it has not (schema_version 7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub downloads: &'a Option<Downloads>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_modified: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub likes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gated: &'a Option<String>,
}

#[derive(Serialize)]
pub struct ParamsJson<'a> {
    pub derived: u64,
    pub active: u64,
    pub checkpoint: Option<u64>,
    pub checkpoint_exact: Option<bool>,
    pub checkpoint_dtype: &'a Option<String>,
    pub checkpoint_by_dtype: &'a [(String, u64)],
    pub checkpoint_source: &'a Option<String>,
    pub delta: Option<i64>,
    pub reconciliation: &'a Reconciliation,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_release: &'a Option<crate::graph::release::ReleaseNote>,
}

/// The architecture, folded: a block of like layers once (`repeat`, `{i}` in names, the indices
/// `{i}` takes in `layers` as runs `[first, last, step]`), experts once (`copies`,
/// `active_copies`), and each node as `[name, op, output shape, tensors]` with its tensors as
/// `[name, shape]` (`[".bias", [4096]]`), plus the name of the tensor it is tied to where it is
/// tied, and the node's own untied `.weight` as its shape alone (`[4096, 4096]`). A name that starts with a dot continues its parent's: a node's its section's, a
/// tensor's its node's. Parameter counts follow: the product of the shapes, times `copies`, times
/// `repeat`, untied tensors only.
#[derive(Serialize)]
pub struct StructureJson<'a> {
    pub sections: Vec<SectionJson<'a>>,
}

#[derive(Serialize)]
pub struct SectionJson<'a> {
    pub name: String,
    pub role: Role,
    pub repeat: u64,
    /// For a section named with `{i}`: the layer indices it stands for (schema_version 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<Vec<Run>>,
    pub nodes: Vec<NodeJson<'a>>,
}

pub struct NodeJson<'a> {
    pub name: Cow<'a, str>,
    pub op: Op,
    pub output: &'a [u64],
    pub params: Vec<TensorJson<'a>>,
    pub copies: u64,
    pub active_copies: u64,
}

/// A node as an array (`[name, op, output, tensors]`, then `copies` and `active_copies` only
/// for experts): the keys were two thirds of the structure's bytes.
impl Serialize for NodeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let experts = self.copies != 1 || self.active_copies != 1;
        let mut seq = s.serialize_seq(Some(if experts { 6 } else { 4 }))?;
        seq.serialize_element(&self.name)?;
        seq.serialize_element(&self.op)?;
        seq.serialize_element(self.output)?;
        seq.serialize_element(&self.params)?;
        if experts {
            seq.serialize_element(&self.copies)?;
            seq.serialize_element(&self.active_copies)?;
        }
        seq.end()
    }
}

/// The name a tensor written as its shape alone has.
pub const WEIGHT: &str = ".weight";

pub struct TensorJson<'a> {
    /// The tensor's name less the node's name when it starts with it, else the whole name.
    pub name: Cow<'a, str>,
    pub shape: &'a [u64],
    pub tied_to: Option<Cow<'a, str>>,
}

impl Serialize for TensorJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        // The node's own `.weight`, untied (nearly every node's one tensor): its shape alone
        // (schema_version 7).
        if self.tied_to.is_none() && self.name == WEIGHT {
            return self.shape.serialize(s);
        }
        let mut seq = s.serialize_seq(Some(if self.tied_to.is_some() { 3 } else { 2 }))?;
        seq.serialize_element(&self.name)?;
        seq.serialize_element(self.shape)?;
        if let Some(t) = &self.tied_to {
            seq.serialize_element(t)?;
        }
        seq.end()
    }
}

/// `name` less `parent` where it continues it with a dot (`.weight`), else the whole name.
fn relative<'a>(name: &'a str, parent: &str) -> &'a str {
    name.strip_prefix(parent).filter(|rest| rest.starts_with('.')).unwrap_or(name)
}

/// [`relative`], of a name that may be owned.
fn relative_cow<'a>(name: Cow<'a, str>, parent: &str) -> Cow<'a, str> {
    match name {
        Cow::Borrowed(b) => Cow::Borrowed(relative(b, parent)),
        Cow::Owned(o) => Cow::Owned(relative(&o, parent).to_string()),
    }
}

/// A name as the folded section `f` names it: as it is where `f` is the graph's own section.
fn renamed<'a>(f: &Folded<'a>, name: &'a str) -> Cow<'a, str> {
    if f.name == f.section.name { Cow::Borrowed(name) } else { Cow::Owned(f.rename(name, f.section)) }
}

fn structure<'a>(folded: &[Folded<'a>]) -> StructureJson<'a> {
    StructureJson {
        sections: folded
            .iter()
            .map(|f| {
                let nodes = f
                    .section
                    .nodes
                    .iter()
                    .map(|n| {
                        let node_name = renamed(f, &n.name);
                        let params = n
                            .params
                            .iter()
                            .map(|t| TensorJson {
                                name: relative_cow(renamed(f, &t.name), &node_name),
                                shape: &t.shape,
                                tied_to: t.tied_to.as_deref().map(|to| renamed(f, to)),
                            })
                            .collect();
                        NodeJson {
                            name: relative_cow(node_name.clone(), &f.name),
                            op: n.op,
                            output: &n.output,
                            params,
                            copies: n.copies,
                            active_copies: n.active_copies,
                        }
                    })
                    .collect();
                let (name, layers) = (f.name.clone(), f.layers.clone());
                SectionJson { name, role: f.section.role, repeat: f.repeat, layers, nodes }
            })
            .collect(),
    }
}

/// Per-node activations with each folded layer group's rows once: a row of `model.layers.{i}`
/// stands for the same node in every layer of the group, `repeat` counting them all. Where the
/// members' rows differ (they do not, the members' nodes being equal) they stay as they are.
/// With each row, the folded section whose node it is where its name is that section's name for
/// the node (a `{i}` row of a folded group, a row of a section that does not fold).
fn fold_rows<'a>(
    rows: &'a [NodeActivation],
    folded: Option<&[Folded]>,
) -> (Cow<'a, [NodeActivation]>, Vec<Option<usize>>) {
    let Some(folded) = folded else { return (Cow::Borrowed(rows), vec![None; rows.len()]) };
    let folding: Vec<bool> = folded.iter().map(|f| f.members.len() > 1 || f.name != f.section.name).collect();
    let members = Members::new(folded);
    // A row of a section that does not fold keeps the graph's name, which is the section's.
    let unfolded = |r: &NodeActivation| members.of(&r.name).filter(|(g, _)| !folding[*g]).map(|(g, _)| g);
    if !folding.contains(&true) {
        return (Cow::Borrowed(rows), rows.iter().map(unfolded).collect());
    }
    let at: Vec<Option<(usize, usize)>> =
        rows.iter().map(|r| members.of(&r.name).filter(|(g, _)| folding[*g])).collect();
    // Each folding group's rows, member by member.
    let mut per: Vec<Vec<Vec<usize>>> = folded.iter().map(|f| vec![vec![]; f.members.len()]).collect();
    for (ri, hit) in at.iter().enumerate() {
        if let Some((g, m)) = *hit {
            per[g][m].push(ri);
        }
    }
    let foldable: Vec<bool> = per
        .iter()
        .enumerate()
        .map(|(g, lists)| {
            let f = &folded[g];
            let Some(first) = lists.first() else { return false };
            lists.iter().enumerate().all(|(m, list)| {
                list.len() == first.len()
                    && list.iter().zip(first).all(|(&a, &b)| {
                        let (x, y) = (&rows[a], &rows[b]);
                        fold::same_tail(&x.name, &f.members[m].name, &y.name, &f.members[0].name)
                            && x.per_token_bytes == y.per_token_bytes
                            && x.per_token_sq_bytes == y.per_token_sq_bytes
                            && x.per_sample_bytes == y.per_sample_bytes
                    })
            }) && (0..first.len()).all(|k| {
                lists.iter().try_fold(0u64, |acc, list| acc.checked_add(rows[list[k]].repeat)).is_some()
            })
        })
        .collect();
    let mut out = Vec::with_capacity(rows.len());
    let mut sections = Vec::with_capacity(rows.len());
    let mut done = vec![false; folded.len()];
    for (ri, row) in rows.iter().enumerate() {
        match at[ri] {
            Some((g, _)) if foldable[g] => {
                if std::mem::replace(&mut done[g], true) {
                    continue;
                }
                let f = &folded[g];
                for (k, &r0) in per[g][0].iter().enumerate() {
                    let first = &rows[r0];
                    out.push(NodeActivation {
                        name: f.rename(&first.name, f.members[0]),
                        repeat: per[g].iter().map(|list| rows[list[k]].repeat).sum(),
                        per_token_bytes: first.per_token_bytes,
                        per_token_sq_bytes: first.per_token_sq_bytes,
                        per_sample_bytes: first.per_sample_bytes,
                        saves: first.saves.clone(),
                    });
                    sections.push(Some(g));
                }
            }
            hit => {
                out.push(row.clone());
                // A folding group's row that could not fold keeps its layer's name: no node of
                // the folded section has it.
                sections.push(if hit.is_some() { None } else { unfolded(row) });
            }
        }
    }
    (Cow::Owned(out), sections)
}

/// Each row's node in the folded structure, `(section, node)`, where exactly one node has the
/// row's name: in the row's section where [`fold_rows`] knows it, else in any.
fn node_refs(
    rows: &[NodeActivation],
    sections: &[Option<usize>],
    folded: &[Folded],
) -> Vec<Option<(usize, usize)>> {
    rows.iter()
        .zip(sections)
        .map(|(row, g)| {
            let mut hits =
                folded.iter().enumerate().filter(|(i, _)| g.is_none_or(|g| g == *i)).flat_map(|(i, f)| {
                    f.section
                        .nodes
                        .iter()
                        .enumerate()
                        .filter(move |(_, n)| renamed(f, &n.name) == row.name.as_str())
                        .map(move |(k, _)| (i, k))
                });
            match (hits.next(), hits.next()) {
                (Some(hit), None) => Some(hit),
                _ => None,
            }
        })
        .collect()
}

/// The rows of one attention's per-node activations, folded, with their nodes.
fn activation_rows<'a>(
    nodes: &'a [NodeActivation],
    folded: Option<&[Folded]>,
    base: Option<Cow<'a, [NodeActivation]>>,
) -> ActivationRows<'a> {
    let (rows, sections) = fold_rows(nodes, folded);
    let at = folded.map_or_else(|| vec![None; rows.len()], |f| node_refs(&rows, &sections, f));
    ActivationRows { rows, at, base }
}

#[derive(Serialize)]
pub struct TrainingJson<'a> {
    pub method: &'static str,
    pub options: OptionsJson<'a>,
    /// LoRA's (and QLoRA's) trainable parameters, the adapters; the full fine-tune trains
    /// `params.derived`.
    pub lora_params: u64,
    /// Each mode's memory at batch 1 and the plan's length, item by item: `[weights, gradients,
    /// optimizer states, activations, logits, loss transient, step transient]`.
    pub full: BreakdownJson<'a>,
    pub lora: BreakdownJson<'a>,
    pub qlora: BreakdownJson<'a>,
    /// Every other recipe's full fine-tune, as phases aligned with `fit.modes[0].phases`.
    pub recipes: Vec<RecipeJson>,
    /// What autograd saves over the whole forward pass (no logits), with SDPA (null where the
    /// family has no SDPA path) and with eager attention.
    pub activations_sdpa: Option<Vec<Num>>,
    pub activations_eager: Vec<Num>,
    /// What autograd saves, node by node, with SDPA (with eager attention where the family has
    /// no SDPA path), each naming its node of the structure ([`ActivationRows`]).
    pub activation_nodes: ActivationRows<'a>,
    /// The same with eager attention, where `activation_nodes` is SDPA's: a row equal to
    /// `activation_nodes[i]` is written as `i`; empty where the family has no SDPA path.
    pub activation_nodes_eager: ActivationRows<'a>,
}

/// Per-node activations as rows `[section, node, repeat, per_token_bytes, per_token_sq_bytes,
/// per_sample_bytes]`, trailing zeros left out, for a node of the structure
/// (`structure.sections[section].nodes[node]`, schema_version 7), and `[name, repeat, ...]` for
/// one that is not (an embedding's dropout, the rotary tables). With a `base` list, a row equal
/// to `base[i]` is written as the integer `i`.
pub struct ActivationRows<'a> {
    pub rows: Cow<'a, [NodeActivation]>,
    /// Each row's `(section, node)` in the folded structure, where it is one of its nodes.
    pub at: Vec<Option<(usize, usize)>>,
    pub base: Option<Cow<'a, [NodeActivation]>>,
}

/// One row, flat: `[section, node, repeat, figures...]` or `[name, repeat, figures...]`.
struct Row<'a> {
    node: Option<(usize, usize)>,
    name: &'a str,
    repeat: u64,
    figures: Vec<Num>,
}

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(3 + self.figures.len()))?;
        match self.node {
            Some((section, node)) => {
                seq.serialize_element(&section)?;
                seq.serialize_element(&node)?;
            }
            None => seq.serialize_element(self.name)?,
        }
        seq.serialize_element(&self.repeat)?;
        for f in &self.figures {
            seq.serialize_element(f)?;
        }
        seq.end()
    }
}

impl Serialize for ActivationRows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.rows.len()))?;
        for (k, n) in self.rows.iter().enumerate() {
            if let Some(i) = self.base.as_ref().and_then(|b| b.iter().position(|x| same_row(x, n))) {
                seq.serialize_element(&i)?;
                continue;
            }
            let mut figures =
                vec![Num(n.per_token_bytes), Num(n.per_token_sq_bytes), Num(n.per_sample_bytes)];
            while figures.last().is_some_and(|x| x.0 == 0.0) {
                figures.pop();
            }
            let node = self.at.get(k).copied().flatten();
            seq.serialize_element(&Row { node, name: &n.name, repeat: n.repeat, figures })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
pub struct OptionsJson<'a> {
    /// The recipe's id in `recipes.json`.
    pub recipe: &'static str,
    pub attention: AttentionImpl,
    pub checkpointing: bool,
    pub lora_rank: u64,
    pub lora_targets: &'a [String],
    pub transformers: Transformers,
    pub dropout: &'a Dropout,
}

pub struct BreakdownJson<'a>(&'a Breakdown);

impl Serialize for BreakdownJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let b = self.0;
        [
            b.weights,
            b.gradients,
            b.optimizer_states,
            b.activations,
            b.logits,
            b.loss_transient,
            b.step_transient,
        ]
        .map(Num)
        .serialize(s)
    }
}

#[derive(Serialize)]
pub struct RecipeJson {
    pub id: &'static str,
    pub terms: Vec<Vec<Num>>,
}

#[derive(Serialize)]
pub struct ServingJson<'a> {
    pub kind: crate::family::ModelKind,
    pub quantised_params: u64,
    /// `[precision, bits per quantised parameter]`; the bytes are `2 × (params.derived −
    /// quantised_params) + bits / 8 × quantised_params`.
    pub weights: Vec<(&'static str, Num)>,
    /// Null for an encoder; the bytes per token and at the context follow from the layout.
    pub kv: Option<KvJson<'a>>,
    /// Only for an encoder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoder_working_bytes_per_token: Option<u64>,
}

#[derive(Serialize)]
pub struct KvJson<'a> {
    pub layout: &'a KvLayout,
}

#[derive(Serialize)]
pub struct FitJson<'a> {
    pub seq_len: u64,
    pub seq_len_reason: &'a str,
    pub modes: Vec<ModeJson<'a>>,
}

#[derive(Serialize)]
pub struct ModeJson<'a> {
    pub id: &'static str,
    /// The peak at batch 1 and the plan's length is the largest phase there (the first of
    /// equals): no field of its own (schema_version 7).
    pub phases: Vec<PhaseJson<'a>>,
    /// The first card of the catalogue (smallest memory first) on which batch 1 fits.
    pub smallest_card: Option<SmallestJson<'a>>,
}

/// A phase as `[name, fixed, per_sample, per_token, ...]` (the name, then [`terms`]).
pub struct PhaseJson<'a> {
    pub name: &'a str,
    pub terms: Vec<Num>,
}

impl Serialize for PhaseJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(1 + self.terms.len()))?;
        seq.serialize_element(self.name)?;
        for t in &self.terms {
            seq.serialize_element(t)?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
pub struct SmallestJson<'a> {
    pub card: &'a str,
    pub verdict: Verdict,
    pub largest_batch: u64,
}

#[derive(Serialize)]
pub struct CostJson<'a> {
    pub training: TrainingCostJson<'a>,
    pub serving: Option<ServingCostJson>,
}

#[derive(Serialize)]
pub struct TrainingCostJson<'a> {
    pub epochs: u64,
    pub samples: u64,
    pub batch: u64,
    #[serde(serialize_with = "num")]
    pub dense_flops: f64,
    #[serde(serialize_with = "num")]
    pub attention_flops: f64,
    /// The cheapest card (or fewest cards by FSDP) for the run.
    pub cheapest: Option<CheapestJson<'a>>,
}

#[derive(Serialize)]
pub struct CheapestJson<'a> {
    pub card: &'a str,
    pub cards: u64,
}

#[derive(Serialize)]
pub struct ServingCostJson {
    #[serde(serialize_with = "num")]
    pub prefill_flops_per_token: f64,
    #[serde(serialize_with = "num")]
    pub bytes_read_per_token_bf16: f64,
    #[serde(serialize_with = "num")]
    pub bytes_read_per_token_int4: f64,
}

#[derive(Serialize)]
pub struct LintJson<'a> {
    pub id: &'static str,
    pub severity: crate::estimate::lints::Severity,
    pub finding: &'a str,
    /// Left out where the fix is the rule's own, stated once on the method page (`#lint-<id>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<&'a str>,
}

fn same_row(a: &NodeActivation, b: &NodeActivation) -> bool {
    a.name == b.name
        && a.repeat == b.repeat
        && a.per_token_bytes == b.per_token_bytes
        && a.per_token_sq_bytes == b.per_token_sq_bytes
        && a.per_sample_bytes == b.per_sample_bytes
}

fn phases(m: &MemoryModel) -> Vec<PhaseJson<'_>> {
    m.phases.iter().map(|p| PhaseJson { name: &p.name, terms: terms(&p.coefficients) }).collect()
}

fn fit_json<'a>(page: &'a ModelPage, fit: &'a FitView) -> FitJson<'a> {
    FitJson {
        seq_len: fit.seq_len,
        seq_len_reason: page.memory.as_ref().map_or("", |m| m.seq_len_reason.as_str()),
        modes: fit
            .modes
            .iter()
            .map(|m| ModeJson {
                id: m.id,
                phases: phases(&m.model),
                smallest_card: fit.cards.iter().find_map(|c| {
                    let on = c.modes.iter().find(|cm| cm.mode == m.id)?;
                    (on.verdict != Verdict::DoesNotFit).then_some(SmallestJson {
                        card: &c.card,
                        verdict: on.verdict,
                        largest_batch: on.largest_batch,
                    })
                }),
            })
            .collect(),
    }
}

impl ModelPage {
    /// The model JSON: what `models/<org>/<name>.json`, `plan --format json`, the API and the
    /// MCP server write. (Serialising `ModelPage` itself gives the pages' full view instead.)
    pub fn json(&self) -> ModelJson<'_> {
        self.json_with(self.folded().as_deref())
    }

    /// The structure's folded sections ([`fold::fold`]): computed once per model by a caller
    /// that also renders the page, and passed to [`ModelPage::json_with`] and the page's view.
    pub fn folded(&self) -> Option<Vec<Folded<'_>>> {
        self.structure.as_ref().map(|g| fold::fold(&g.sections))
    }

    /// [`ModelPage::json`], with the structure already folded.
    pub fn json_with<'a>(&'a self, folded: Option<&[Folded<'a>]>) -> ModelJson<'a> {
        let p = self;
        ModelJson {
            schema_version: SCHEMA_VERSION,
            id: &p.id,
            family: &p.family,
            family_name: &p.family_name,
            derives_from: &p.derives_from,
            architecture: &p.architecture,
            supported: p.supported,
            unsupported_reason: &p.unsupported_reason,
            source: SourceJson {
                revision: &p.source.revision,
                config_file: &p.source.config_file,
                config_verification: &p.source.config_verification,
                config_source: &p.source.config_source,
                downloads: &p.source.downloads,
                last_modified: &p.source.last_modified,
                likes: p.source.likes,
                gated: &p.source.gated,
            },
            config: &p.config,
            config_facts: &p.config_facts,
            defaulted: &p.defaulted,
            params: p.params.as_ref().map(|q| ParamsJson {
                derived: q.derived,
                active: q.active,
                checkpoint: q.checkpoint,
                checkpoint_exact: q.checkpoint_exact,
                checkpoint_dtype: &q.checkpoint_dtype,
                checkpoint_by_dtype: &q.checkpoint_by_dtype,
                checkpoint_source: &q.checkpoint_source,
                delta: q.delta,
                reconciliation: &q.reconciliation,
                other_release: &q.other_release,
            }),
            forward_pass: &p.forward_pass,
            vision: &p.vision,
            structure: folded.map(structure),
            training: p.training.as_ref().map(|t| TrainingJson {
                method: t.method,
                options: OptionsJson {
                    recipe: t.options.recipe.id,
                    attention: t.options.attention,
                    checkpointing: t.options.checkpointing,
                    lora_rank: t.options.lora_rank,
                    lora_targets: &t.options.lora_targets,
                    transformers: t.options.transformers,
                    dropout: &t.options.dropout,
                },
                lora_params: t.lora.trainable_params,
                full: BreakdownJson(&t.full.breakdown),
                lora: BreakdownJson(&t.lora.breakdown),
                qlora: BreakdownJson(&t.qlora.breakdown),
                recipes: t
                    .recipes
                    .iter()
                    .filter(|r| r.id != t.options.recipe.id)
                    .map(|r| RecipeJson {
                        id: r.id,
                        terms: r.full_memory.phases.iter().map(|ph| terms(&ph.coefficients)).collect(),
                    })
                    .collect(),
                activations_sdpa: t.activations_sdpa.as_ref().map(|a| terms(&a.coefficients())),
                activations_eager: terms(&t.activations_eager.coefficients()),
                activation_nodes: activation_rows(
                    &t.activations_sdpa.as_ref().unwrap_or(&t.activations_eager).nodes,
                    folded,
                    None,
                ),
                activation_nodes_eager: match t.activations_sdpa.as_ref() {
                    Some(sdpa) => activation_rows(
                        &t.activations_eager.nodes,
                        folded,
                        Some(fold_rows(&sdpa.nodes, folded).0),
                    ),
                    None => ActivationRows { rows: Cow::Borrowed(&[]), at: vec![], base: None },
                },
            }),
            serving: p.serving.as_ref().map(|s| ServingJson {
                kind: s.kind,
                quantised_params: s.quantised_params,
                weights: s.weights.iter().map(|w| (w.precision, Num(w.bits_per_param))).collect(),
                kv: s.kv.as_ref().map(|k| KvJson { layout: &k.layout }),
                encoder_working_bytes_per_token: s.encoder_working_bytes_per_token,
            }),
            fit: p.fit.as_ref().map(|f| fit_json(p, f)),
            cost: p.cost.as_ref().map(|c| CostJson {
                training: TrainingCostJson {
                    epochs: c.training.inputs.epochs,
                    samples: c.training.inputs.samples,
                    batch: c.training.inputs.batch,
                    dense_flops: c.training.dense_flops,
                    attention_flops: c.training.attention_flops,
                    cheapest: c
                        .training
                        .cheapest
                        .as_ref()
                        .map(|b| CheapestJson { card: &b.card, cards: b.cards }),
                },
                serving: c.serving.as_ref().map(|s| ServingCostJson {
                    prefill_flops_per_token: s.prefill_flops_per_token,
                    bytes_read_per_token_bf16: s.bytes_read_per_token_bf16,
                    bytes_read_per_token_int4: s.bytes_read_per_token_int4,
                }),
            }),
            lints: p
                .lints
                .iter()
                .map(|l| LintJson {
                    id: l.id,
                    severity: l.severity,
                    finding: &l.finding,
                    fix: (!crate::estimate::lints::RULES.iter().any(|r| r.id == l.id && r.fix == l.fix))
                        .then_some(l.fix.as_str()),
                })
                .collect(),
            changes: &p.changes,
            family_size: p.family_size,
        }
    }
}

/// A card of the site's catalogue as `cards.json` lists it: the catalogue's fields and the
/// runtime the fit adds on it.
#[derive(Serialize)]
pub struct CardJson<'a> {
    #[serde(flatten)]
    pub card: &'a Card,
    pub runtime: CardRuntime,
}

/// `cards.json`: the card catalogue a build used and the constants the fit and the cost apply
/// on every card, so a client computes any model's per-card rows from its coefficients.
#[derive(Serialize)]
pub struct CardsJson<'a> {
    pub schema_version: u32,
    /// The allocator's reserve f: reserved = allocated x (1 + f) + workspaces.
    pub allocator_reserve_fraction: f64,
    /// cuBLAS workspaces a training step holds (the serving mode holds one).
    pub training_workspaces: u64,
    /// Batch 1 fits when its nvidia-smi peak is within this share of the card; the largest
    /// batch is the largest within it.
    pub fit_share: f64,
    /// At most this share: comfortable; above it (within `fit_share`): tight.
    pub comfortable_share: f64,
    /// Sequence lengths of a sweep (those below the model's context, then the context).
    pub sweep: [u64; 4],
    /// The most cards a multi-card plan considers.
    pub max_cards: u64,
    /// vLLM's default `gpu_memory_utilization`.
    pub vllm_gpu_memory_utilization: f64,
    /// The share of the dense 16-bit peak a run achieves, low and high.
    pub utilisation: (f64, f64),
    /// In the order the fit searches for a model's smallest card.
    pub cards: Vec<CardJson<'a>>,
}

pub fn cards_json(cards: &[Card]) -> CardsJson<'_> {
    use crate::estimate::fit;
    CardsJson {
        schema_version: SCHEMA_VERSION,
        allocator_reserve_fraction: runtime::ALLOCATOR_RESERVE_FRACTION,
        training_workspaces: runtime::workspaces(true) as u64,
        fit_share: fit::FIT_SHARE,
        comfortable_share: fit::COMFORTABLE_SHARE,
        sweep: fit::SWEEP,
        max_cards: fit::MAX_CARDS,
        vllm_gpu_memory_utilization: crate::estimate::serving::VLLM_GPU_MEMORY_UTILIZATION,
        utilisation: crate::estimate::cost::UTILISATION,
        cards: cards.iter().map(|c| CardJson { card: c, runtime: runtime::card_runtime(c) }).collect(),
    }
}

/// `recipes.json`: every training recipe a plan may use, once per site.
#[derive(Serialize)]
pub struct RecipesJson {
    pub schema_version: u32,
    /// Bits per parameter of QLoRA's NF4 base (double quantisation included).
    pub nf4_bits_per_param: f64,
    /// The first is the default.
    pub recipes: &'static [Recipe],
}

pub fn recipes_json() -> RecipesJson {
    RecipesJson {
        schema_version: SCHEMA_VERSION,
        nf4_bits_per_param: crate::estimate::training::NF4_BITS_PER_PARAM,
        recipes: &crate::estimate::training::RECIPES,
    }
}
