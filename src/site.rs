//! The batch builder: plans every model of models.toml in parallel, renders its three files, and
//! writes the index, family and method pages.
//!
//! It streams, and plans each model once. Pass one plans a model, renders and writes its three
//! files less the part that lists its siblings (which needs every other model), and drops the
//! page, keeping a small [`ModelSummary`] and the few hundred bytes that close each file. Pass two
//! renders each model's sibling part from the summaries alone and appends it. Memory is bounded by
//! the summaries, not the pages, so the same builder scales to very many models.
//! Results come out in models.toml order whatever the thread count, so builds are byte-identical.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::family;
use crate::incremental::{self, Cache, ModelEntry, PageEntry};
use crate::manifest::Manifest;
use crate::model_id::ModelId;
use crate::output::{Leftovers, OutputError, SiteWriter};
use crate::page::ModelPage;
use crate::page::{FamilyRow, ModelSummary, SiblingsView};
use crate::plan::{PlanOptions, plan_with};
use crate::render::{Badge, FamilyLink, FamilyView, IndexView, LIST_SCHEMA_VERSION, Renderer};
use crate::source::ModelSource;

/// How many siblings a model page lists; the family page has them all.
pub const MAX_SIBLINGS: usize = 12;

#[derive(Debug, Clone)]
pub enum Outcome {
    Built { supported: bool },
    Failed { error: String },
}

#[derive(Debug, Clone)]
pub struct ModelReport {
    pub id: String,
    pub outcome: Outcome,
}

#[derive(Debug, Default)]
pub struct BuildReport {
    pub models: Vec<ModelReport>,
    /// (phase, wall time), in order.
    pub phases: Vec<(&'static str, Duration)>,
    pub files_written: usize,
    /// Models planned and rendered in full (the rest were unchanged since the last build).
    pub models_rendered: usize,
    /// Files carried over from the last build unchanged (hard links: not rewritten).
    pub files_reused: usize,
    /// Nothing had changed since the last build: the site was left as it was.
    pub unchanged: bool,
    /// Why the next build cannot be incremental, when the cache could not be saved.
    pub cache_note: Option<String>,
    /// What interrupted builds into the same target had left, and this one cleaned up.
    pub leftovers: Leftovers,
}

impl BuildReport {
    pub fn failed(&self) -> impl Iterator<Item = (&str, &str)> {
        self.models.iter().filter_map(|m| match &m.outcome {
            Outcome::Failed { error } => Some((m.id.as_str(), error.as_str())),
            _ => None,
        })
    }

    pub fn unsupported(&self) -> impl Iterator<Item = &str> {
        self.models.iter().filter_map(|m| match m.outcome {
            Outcome::Built { supported: false } => Some(m.id.as_str()),
            _ => None,
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("{0}")]
    Render(String),
}

/// What pass two needs of a model planned in this build beyond its summary: the family's display
/// name, the ends of the HTML and Markdown files that follow the sibling part, and what the cache
/// keeps.
struct Pending {
    family_name: String,
    html_tail: String,
    md_tail: String,
    /// The model's upstream changes, for the site-wide feed and the Recent changes page.
    changes: Vec<crate::feeds::FeedEntry>,
    feed: Option<String>,
    /// The OSV documents written for the model, to remove with its other files on a failure.
    osv: Vec<String>,
    /// Bytes of the HTML, Markdown and JSON heads written in pass one.
    heads: (usize, usize, usize),
}

/// What pass one leaves of a model.
// One per model, and in a full build every one is `Fresh`: boxing it would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum First<'c> {
    /// Planned and rendered in this build; the heads of its files are written. The summary is
    /// boxed to move into the next cache entry as it is.
    Fresh { input: String, summary: Box<ModelSummary>, pending: Pending },
    /// Its inputs are the last build's: what that build kept of it. Nothing is written yet.
    Cached { input: String, entry: &'c ModelEntry },
}

impl First<'_> {
    fn summary(&self) -> &ModelSummary {
        match self {
            First::Fresh { summary, .. } => summary,
            First::Cached { entry, .. } => &entry.summary,
        }
    }
}

/// Where pass two put a fresh model's sibling part, and its files' fingerprint: with what pass
/// one kept, moved in ([`Pending::into_entry`]), the model's next cache entry. Nothing of pass
/// one is copied (pass two's copies of each summary and of the rest were 1 kB a model).
struct Done {
    output: String,
    /// Where the sibling part ends in the HTML page and in the Markdown twin.
    html_end: usize,
    md_end: usize,
}

impl Pending {
    fn into_entry(self, input: String, summary: Box<ModelSummary>, done: Done) -> ModelEntry {
        let (h, m, j) = self.heads;
        ModelEntry {
            input,
            output: done.output,
            summary,
            family_name: self.family_name,
            changes: self.changes.into_iter().map(|e| e.change.change).collect(),
            feed: self.feed,
            osv: self.osv,
            html: (h, done.html_end),
            md: (m, done.md_end),
            json: j,
        }
    }
}

/// What becomes a model's next cache entry once the site's pages have given back its summary.
enum Kept {
    Fresh { input: String, pending: Pending, done: Done },
    Entry(ModelEntry),
}

/// Pass two's outcome for a model: a fresh one's [`Done`], a cached one's [`Second`].
enum Step {
    Fresh(Done),
    Cached(Second),
}

/// What pass two leaves of a model: what the next build's cache keeps, and, for a model whose
/// files are exactly the last build's, which files to carry over.
struct Second {
    entry: ModelEntry,
    reuse: Option<Vec<String>>,
    rendered: bool,
}

/// Best effort: the model is reported failed whatever is left, and a later error names the file.
fn remove_model_files(writer: &SiteWriter, stem: &str, osv: &[String]) {
    for ext in ["html", "md", "json", "badge.json", "atom"] {
        let _ = writer.remove(&format!("{stem}.{ext}"));
    }
    for path in osv {
        let _ = writer.remove(path);
    }
}

/// Each advisory change's OSV document: (path from the site root, compact JSON).
fn osv_documents(page: &ModelPage, base_url: &str) -> Result<Vec<(String, String)>, String> {
    let Some(url) = page.url.as_deref() else { return Ok(vec![]) };
    page.changes
        .iter()
        .filter_map(|c| c.osv.as_ref().map(|path| (path, c)))
        .map(|(path, c)| {
            let doc = crate::osv::document(&page.id, url, c, base_url);
            serde_json::to_string(&doc).map(|text| (path.clone(), text)).map_err(|e| format!("{path}: {e}"))
        })
        .collect()
}

/// A model's size for choosing its siblings: the log of its parameter count.
fn size(m: &ModelSummary) -> f64 {
    (m.derived.unwrap_or(1).max(1) as f64).ln()
}

/// A family's models sorted by size (then ID), so that each model finds its nearest siblings by
/// walking outwards from its own place instead of sorting the whole family again: a family of
/// thousands of models would otherwise cost a sort of thousands per model.
struct Family<'a> {
    sorted: Vec<(f64, &'a ModelSummary)>,
    /// The digest of each model's summary (its JSON), in `sorted`'s order: a model's sibling
    /// part is fingerprinted by its siblings' digests, each made once per build rather than
    /// once per page that lists it (twelve serialisations per model, a quarter of a rebuild
    /// with nothing changed).
    /// Made when first asked for: the carry-over's families seldom need them.
    digests: std::sync::OnceLock<Result<Vec<String>, String>>,
}

impl<'a> Family<'a> {
    fn new(models: &[&'a ModelSummary]) -> Self {
        let mut sorted: Vec<(f64, &ModelSummary)> = models.iter().map(|m| (size(m), *m)).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
        Family { sorted, digests: std::sync::OnceLock::new() }
    }

    fn digests(&self) -> Result<&[String], String> {
        let made = self.digests.get_or_init(|| {
            self.sorted
                .iter()
                .map(|(_, m)| incremental::digest_json(&[], m).map_err(|e| format!("{}: {e}", m.id)))
                .collect()
        });
        made.as_deref().map_err(Clone::clone)
    }

    fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Up to [`MAX_SIBLINGS`] other models of the family, nearest in parameter count first (then
    /// by ID), so a 7B page lists the 7Bs and 13Bs before the 70Bs.
    #[cfg(test)]
    fn siblings(&self, me: &ModelSummary) -> Vec<ModelSummary> {
        self.nearest(me).into_iter().map(|i| self.sorted[i].1.clone()).collect()
    }

    /// [`Family::siblings`], as places in `sorted`.
    fn nearest(&self, me: &ModelSummary) -> Vec<usize> {
        let mine = size(me);
        let list = &self.sorted;
        let distance = |i: usize| (list[i].0 - mine).abs();
        // The first model not smaller than `me`: the walk goes left from before it and right from
        // it; `me` itself is met at distance 0 and skipped.
        let pos = list.partition_point(|(s, m)| s.total_cmp(&mine).then_with(|| m.id.cmp(&me.id)).is_lt());
        let (mut left, mut right) = (pos, pos);
        let mut out: Vec<usize> = vec![];
        while out.len() < MAX_SIBLINGS && (left > 0 || right < list.len()) {
            // The next distance, on whichever side is nearer.
            let d = match (left.checked_sub(1).map(distance), (right < list.len()).then(|| distance(right))) {
                (Some(l), Some(r)) => {
                    if l.total_cmp(&r).is_le() {
                        l
                    } else {
                        r
                    }
                }
                (Some(l), None) => l,
                (None, Some(r)) => r,
                (None, None) => break,
            };
            // Every model at exactly that distance, both sides, ordered by ID.
            let mut tied: Vec<usize> = vec![];
            while left > 0 && distance(left - 1).total_cmp(&d).is_eq() {
                left -= 1;
                tied.push(left);
            }
            while right < list.len() && distance(right).total_cmp(&d).is_eq() {
                tied.push(right);
                right += 1;
            }
            tied.retain(|&i| list[i].1.id != me.id);
            tied.sort_by(|&a, &b| list[a].1.id.cmp(&list[b].1.id));
            out.extend(tied);
        }
        out.truncate(MAX_SIBLINGS);
        out
    }
}

pub fn build_site(
    manifest: &Manifest,
    source: &dyn ModelSource,
    out: &Path,
    renderer: &Renderer,
) -> Result<BuildReport, BuildError> {
    build_site_with(manifest, source, out, renderer, &PlanOptions::default())
}

/// The models' families, each sorted for its siblings.
fn families<'a>(summaries: impl Iterator<Item = &'a ModelSummary>) -> BTreeMap<&'a str, Family<'a>> {
    let mut members: BTreeMap<&str, Vec<&ModelSummary>> = BTreeMap::new();
    for s in summaries {
        members.entry(s.family.as_str()).or_default().push(s);
    }
    members.into_iter().map(|(k, v)| (k, Family::new(&v))).collect()
}

/// [`build_site`] with the plan's options (user cards, the training run's inputs).
pub fn build_site_with(
    manifest: &Manifest,
    source: &dyn ModelSource,
    out: &Path,
    renderer: &Renderer,
    options: &PlanOptions,
) -> Result<BuildReport, BuildError> {
    build_site_opts(manifest, source, out, renderer, options, false)
}

/// Everything one build shares between models.
struct Ctx<'a> {
    writer: &'a SiteWriter,
    renderer: &'a Renderer,
    manifest: &'a Manifest,
    source: &'a dyn ModelSource,
    options: &'a PlanOptions,
    key: String,
}

const ROOT: &str = "../../";

impl Ctx<'_> {
    /// Pass one for a model whose inputs changed: plans it, renders and writes its files less the
    /// sibling part.
    fn plan_and_write_heads(
        &self,
        id: &ModelId,
        files: &crate::source::ModelFiles,
    ) -> Result<(ModelSummary, Pending), String> {
        let page = plan_with(files, Some(format!("{}.html", id.site_stem())), self.options)
            .map_err(|e| e.to_string())?;
        let summary = page.summary();
        let parts =
            self.renderer.model_parts(&page, &self.manifest.site, ROOT).map_err(|e| format!("{id}: {e}"))?;
        let family_name = page.family_name.clone();
        let feed = crate::feeds::model_feed(&page, &self.manifest.site);
        let changes = crate::feeds::entries(&page);
        let osv = osv_documents(&page, &self.manifest.site.base_url).map_err(|e| format!("{id}: {e}"))?;
        drop(page);
        let stem = id.site_stem();
        let writer = self.writer;
        let written = (|| {
            writer.write(&format!("{stem}.html"), parts.html_head.as_bytes())?;
            writer.write(&format!("{stem}.md"), parts.md_head.as_bytes())?;
            writer.write(&format!("{stem}.json"), parts.json_head.as_bytes())?;
            for (path, doc) in &osv {
                writer.write(path, doc.as_bytes())?;
            }
            match &feed {
                Some((path, atom)) => writer.write(path, atom.as_bytes()),
                None => Ok(()),
            }
        })();
        let osv: Vec<String> = osv.into_iter().map(|(path, _)| path).collect();
        if let Err(e) = written {
            remove_model_files(writer, &stem, &osv);
            return Err(e.to_string());
        }
        let heads = (parts.html_head.len(), parts.md_head.len(), parts.json_head.len());
        let pending = Pending {
            family_name,
            html_tail: parts.html_tail,
            md_tail: parts.md_tail,
            changes,
            feed: feed.map(|(path, _)| path),
            osv,
            heads,
        };
        Ok((summary, pending))
    }

    /// The fingerprint of a model's files: its inputs and its sibling part's view, the
    /// siblings by their summaries' digests; and the places of its siblings in the family.
    fn output(
        &self,
        input: &str,
        summary: &ModelSummary,
        family_name: &str,
        family: &Family,
    ) -> Result<(String, Vec<usize>), String> {
        let nearest = family.nearest(summary);
        let digests = family.digests()?;
        // The view less its siblings, then their digests: the JSON closes before them, so the
        // two cannot run together.
        let bare = SiblingsView::new(summary, family_name.to_string(), vec![], family.len());
        let mut h = incremental::Hasher::new(&[input.as_bytes()]);
        serde_json::to_writer(&mut h, &bare).map_err(|e| format!("{}: {e}", summary.id))?;
        for &i in &nearest {
            std::io::Write::write_all(&mut h, digests[i].as_bytes())
                .map_err(|e| format!("{}: {e}", summary.id))?;
        }
        Ok((h.finish(), nearest))
    }

    /// The sibling part's view of a model, its siblings at `nearest` in the family.
    fn view(summary: &ModelSummary, family_name: &str, family: &Family, nearest: &[usize]) -> SiblingsView {
        let siblings = nearest.iter().map(|&i| family.sorted[i].1.clone()).collect();
        SiblingsView::new(summary, family_name.to_string(), siblings, family.len())
    }

    /// Pass two for a model planned in this build: renders its sibling part and completes its
    /// files.
    fn finish_fresh(
        &self,
        id: &ModelId,
        input: &str,
        summary: &ModelSummary,
        pending: &Pending,
        family: &Family,
    ) -> Result<Done, String> {
        let stem = id.site_stem();
        let writer = self.writer;
        let finish = || -> Result<Done, String> {
            let (output, nearest) = self.output(input, summary, &pending.family_name, family)?;
            let view = Self::view(summary, &pending.family_name, family, &nearest);
            // Rendered in full before the first byte is appended.
            let part = self
                .renderer
                .model_siblings(&view, &self.manifest.site, ROOT)
                .map_err(|e| format!("{id}: {e}"))?;
            let html = [part.html.as_str(), pending.html_tail.as_str()].concat();
            let md = [part.markdown.as_str(), pending.md_tail.as_str()].concat();
            writer.append(&format!("{stem}.html"), html.as_bytes()).map_err(|e| e.to_string())?;
            writer.append(&format!("{stem}.md"), md.as_bytes()).map_err(|e| e.to_string())?;
            writer.append(&format!("{stem}.json"), part.json.as_bytes()).map_err(|e| e.to_string())?;
            let badge = Badge::for_model(summary).to_json().map_err(|e| format!("{id}: {e}"))?;
            writer.write(&format!("{stem}.badge.json"), badge.as_bytes()).map_err(|e| e.to_string())?;
            let (h, m, _) = pending.heads;
            Ok(Done { output, html_end: h + part.html.len(), md_end: m + part.markdown.len() })
        };
        // A failure leaves no partial files of the model.
        finish().inspect_err(|_| remove_model_files(writer, &stem, &pending.osv))
    }

    /// Both passes for one model, from its files: for a cached model whose last files cannot be
    /// used after all.
    fn rebuild(&self, id: &ModelId, family: &Family, osv: &[String]) -> Result<Second, String> {
        // Some of its files may be carried over already: hard links of the live site's files,
        // which writing through would change in place. Unlinked first, they are written anew.
        remove_model_files(self.writer, &id.site_stem(), osv);
        let files = self.source.load(id).map_err(|e| e.to_string())?;
        let input = incremental::model_input(&self.key, &id.to_string(), &files);
        let (summary, pending) = self.plan_and_write_heads(id, &files)?;
        let done = self.finish_fresh(id, &input, &summary, &pending, family)?;
        Ok(Second { entry: pending.into_entry(input, Box::new(summary), done), reuse: None, rendered: true })
    }

    /// Pass two for a model whose inputs are unchanged: nothing to do if its sibling part is the
    /// same too (its files are carried over later, if the site changes at all); otherwise the new
    /// part is spliced into the last build's files, with no planning.
    fn finish_cached(
        &self,
        id: &ModelId,
        input: &str,
        entry: &ModelEntry,
        family: &Family,
    ) -> Result<Second, String> {
        let stem = id.site_stem();
        let mut files: Vec<String> =
            ["html", "md", "json", "badge.json"].iter().map(|ext| format!("{stem}.{ext}")).collect();
        files.extend(entry.feed.iter().cloned());
        files.extend(entry.osv.iter().cloned());
        let (output, nearest) = self.output(input, &entry.summary, &entry.family_name, family)?;
        if output == entry.output {
            return Ok(Second { entry: entry.clone(), reuse: Some(files), rendered: false });
        }
        let view = Self::view(&entry.summary, &entry.family_name, family, &nearest);
        let part = self
            .renderer
            .model_siblings(&view, &self.manifest.site, ROOT)
            .map_err(|e| format!("{id}: {e}"))?;
        let spliced = (|| -> Result<Option<ModelEntry>, OutputError> {
            let mut next = entry.clone();
            next.output = output;
            let edits = [
                (&files[0], entry.html, part.html.as_bytes()),
                (&files[1], entry.md, part.markdown.as_bytes()),
                (&files[2], (entry.json, usize::MAX), part.json.as_bytes()),
            ];
            for (i, (rel, range, bytes)) in edits.into_iter().enumerate() {
                let Some(old) = self.writer.previous(rel)? else { return Ok(None) };
                let range = (range.0, range.1.min(old.len()));
                let Some(new) = incremental::splice(&old, range, bytes) else { return Ok(None) };
                self.writer.write(rel, &new)?;
                let end = range.0 + bytes.len();
                match i {
                    0 => next.html = (range.0, end),
                    1 => next.md = (range.0, end),
                    _ => {}
                }
            }
            for rel in &files[3..] {
                if !self.writer.reuse(rel)? {
                    return Ok(None);
                }
            }
            Ok(Some(next))
        })();
        match spliced {
            Ok(Some(next)) => Ok(Second { entry: next, reuse: None, rendered: false }),
            // The last build's files are not as its cache says: render the model again.
            Ok(None) | Err(_) => self.rebuild(id, family, &entry.osv),
        }
    }
}

/// [`build_site_with`], and `full`: ignore what the last build kept and render everything.
///
/// Incremental by default: a model whose inputs (its files, this binary, the site settings and
/// the plan's options) are the last build's is not planned again; its files are carried over as
/// hard links, or, when only its list of siblings changed, the new list is spliced into them.
/// Family, index and fixed pages are re-rendered only when what they show changed. When nothing
/// changed at all, the site is left as it is. The output is byte for byte that of a full build.
pub fn build_site_opts(
    manifest: &Manifest,
    source: &dyn ModelSource,
    out: &Path,
    renderer: &Renderer,
    options: &PlanOptions,
    full: bool,
) -> Result<BuildReport, BuildError> {
    let mut report = BuildReport::default();
    let writer = SiteWriter::create(out)?;
    report.leftovers = writer.leftovers().clone();
    let prev =
        if full { None } else { Cache::load(&writer.cache_path(), writer.previous_stamp().as_deref()) };
    let ctx = Ctx {
        writer: &writer,
        renderer,
        manifest,
        source,
        options,
        key: incremental::build_key(&manifest.site, options),
    };

    let t = Instant::now();
    let planned: Vec<Result<First, String>> = manifest
        .models
        .par_iter()
        .map(|id| {
            let files = source.load(id).map_err(|e| e.to_string())?;
            let input = incremental::model_input(&ctx.key, &id.to_string(), &files);
            if let Some(entry) = prev.as_ref().and_then(|c| c.models.get(&id.to_string()))
                && entry.input == input
            {
                return Ok(First::Cached { input, entry });
            }
            let (summary, pending) = ctx.plan_and_write_heads(id, &files)?;
            Ok(First::Fresh { input, summary: Box::new(summary), pending })
        })
        .collect();
    report.phases.push(("plan and render", t.elapsed()));

    let by_family = families(planned.iter().filter_map(|r| r.as_ref().ok().map(First::summary)));

    let t = Instant::now();
    let steps: Vec<Result<Step, String>> = manifest
        .models
        .par_iter()
        .zip(planned.par_iter())
        .map(|(id, first)| {
            let first = first.as_ref().map_err(Clone::clone)?;
            let family = &by_family[first.summary().family.as_str()];
            match first {
                First::Fresh { input, summary, pending } => {
                    ctx.finish_fresh(id, input, summary, pending, family).map(Step::Fresh)
                }
                First::Cached { input, entry } => {
                    ctx.finish_cached(id, input, entry, family).map(Step::Cached)
                }
            }
        })
        .collect();
    report.phases.push(("render siblings", t.elapsed()));
    // What pass one kept is dropped before the site's pages are made (a copy of every summary
    // fewer at the build's peak): each fresh summary moves into its next cache entry, but for
    // those whose second pass failed, which stay members of their families as in pass two.
    drop(by_family);
    let mut failed_second: Vec<ModelSummary> = vec![];
    // Each model's summary is lent to the index's list until the site's pages are made, then
    // moved into its next cache entry: every copy held here is a copy per model (5,000 models
    // held six before; a fresh model's entry is made only then, from what pass one left).
    let mut kept: Vec<(String, Kept)> = Vec::with_capacity(planned.len());
    let mut built: Vec<ModelSummary> = Vec::with_capacity(planned.len());
    let mut changes = vec![];
    let mut all_same = prev.is_some();
    let mut osv_written = 0;
    let mut reuses: Vec<Option<Vec<String>>> = Vec::with_capacity(planned.len());
    for ((id, first), step) in manifest.models.iter().zip(planned).zip(steps) {
        let (summary, model_changes, rendered, reuse, keep) = match (first, step) {
            (Ok(First::Fresh { input, summary, pending }), Ok(Step::Fresh(done))) => {
                let model_changes: Vec<_> = pending.changes.iter().map(|e| e.change.change.clone()).collect();
                osv_written += pending.osv.len();
                (*summary, model_changes, true, None, Kept::Fresh { input, pending, done })
            }
            (_, Ok(Step::Cached(second))) => {
                let mut entry = second.entry;
                let summary = std::mem::take(&mut *entry.summary);
                if second.rendered {
                    osv_written += entry.osv.len();
                }
                let model_changes = entry.changes.clone();
                (summary, model_changes, second.rendered, second.reuse, Kept::Entry(entry))
            }
            (first, Err(error)) => {
                if let Ok(first) = first {
                    failed_second.push(first.summary().clone());
                }
                reuses.push(None);
                report.models.push(ModelReport { id: id.to_string(), outcome: Outcome::Failed { error } });
                continue;
            }
            (_, Ok(Step::Fresh(_))) => unreachable!("pass two finishes only a fresh model freshly"),
        };
        changes.extend(model_changes.iter().map(|c| crate::feeds::FeedEntry {
            model: summary.id.clone(),
            url: summary.url.clone(),
            change: crate::changes::ChangeView::new(c, &summary.id, Some(&summary.url)),
        }));
        all_same &= reuse.is_some();
        report.models_rendered += usize::from(rendered);
        reuses.push(reuse);
        report.models.push(ModelReport {
            id: id.to_string(),
            outcome: Outcome::Built { supported: summary.supported },
        });
        built.push(summary);
        kept.push((id.to_string(), keep));
    }
    // Pass one drops a model's page, so the changes come out of it in the page's order; the
    // site feed sorts them.
    crate::feeds::sort(&mut changes);

    let t = Instant::now();
    let mut pages = Pages {
        writer: &writer,
        prev: prev.as_ref().map(|c| &c.pages),
        next: BTreeMap::new(),
        reuse: vec![],
        written: 0,
    };
    let lent = write_site_pages(&mut pages, &ctx.key, manifest, renderer, built, &ctx.options.cards)?;
    let mut next = Cache::new();
    for ((key, keep), summary) in kept.into_iter().zip(lent) {
        let entry = match keep {
            Kept::Fresh { input, pending, done } => pending.into_entry(input, Box::new(summary), done),
            Kept::Entry(mut entry) => {
                *entry.summary = summary;
                entry
            }
        };
        next.models.insert(key, entry);
    }
    pages.group("changes", digest_json(&[ctx.key.as_bytes()], &changes)?, || {
        let page =
            renderer.changes(&changes, &manifest.site).map_err(|e| BuildError::Render(e.to_string()))?;
        Ok(vec![
            ("changes.atom".into(), crate::feeds::site_feed(&changes, &manifest.site)),
            ("changes.html".into(), page),
        ])
    })?;
    report.phases.push(("index, families, method", t.elapsed()));
    next.pages = std::mem::take(&mut pages.next);
    let page_reuse = std::mem::take(&mut pages.reuse);
    let pages_written = pages.written;

    let same_set = prev
        .as_ref()
        .is_some_and(|p| p.models.keys().eq(next.models.keys()) && p.pages.keys().eq(next.pages.keys()));
    // A file deleted from the site by hand since is written again, through the carry-over below.
    let all_there = || {
        reuses.par_iter().all(|reuse| match reuse {
            Some(files) => files.iter().all(|f| writer.previous_has(f)),
            None => true,
        })
    };
    if all_same && pages_written == 0 && same_set && all_there() {
        // Nothing to write: the site on disk is already this build's, byte for byte.
        report.unchanged = true;
        writer.keep_previous();
        return Ok(report);
    }

    let t = Instant::now();
    let by_family = families(next.models.values().map(|e| &*e.summary).chain(&failed_second));
    let carried: Vec<Result<Option<Second>, String>> = manifest
        .models
        .par_iter()
        .zip(reuses.par_iter())
        .map(|(id, reuse)| {
            let Some(files) = reuse else { return Ok(None) };
            let Some(entry) = next.models.get(&id.to_string()) else { return Ok(None) };
            for rel in files {
                if !writer.reuse(rel).map_err(|e| e.to_string())? {
                    // The last build's file is gone: render the model again.
                    let family = &by_family[entry.summary.family.as_str()];
                    return ctx.rebuild(id, family, &entry.osv).map(Some);
                }
            }
            Ok(None)
        })
        .collect();
    drop(by_family);
    let mut reused = 0;
    for ((id, reuse), carried) in manifest.models.iter().zip(&reuses).zip(carried) {
        match carried {
            Ok(None) => {
                if let Some(files) = reuse {
                    reused += files.len();
                }
            }
            Ok(Some(_)) => report.models_rendered += 1,
            Err(error) => {
                next.models.remove(&id.to_string());
                if let Some(r) = report.models.iter_mut().find(|r| r.id == id.to_string()) {
                    r.outcome = Outcome::Failed { error };
                }
            }
        }
    }
    for rel in &page_reuse {
        if writer.reuse(rel)? {
            reused += 1;
        } else {
            // Checked just before: only a hand deleting it in between gets here.
            return Err(BuildError::Render(format!(
                "{rel} disappeared from {} during the build",
                out.display()
            )));
        }
    }
    report.files_reused = reused;
    report.files_written = report.models_rendered * 5 + osv_written + pages_written;
    report.phases.push(("carry over", t.elapsed()));

    match next.seal_and_save(&writer.cache_path(), &writer.cache_temp_path()) {
        Ok(stamp) => writer.stamp(&stamp)?,
        Err(e) => report.cache_note = Some(format!("{}: {e}", writer.cache_path().display())),
    }
    let t = Instant::now();
    writer.finish()?;
    report.phases.push(("swap in", t.elapsed()));
    Ok(report)
}

/// [`incremental::digest_json`]: the view is hashed as it is serialised, never held whole.
fn digest_json<T: serde::Serialize>(parts: &[&[u8]], value: &T) -> Result<String, BuildError> {
    incremental::digest_json(parts, value).map_err(|e| BuildError::Render(e.to_string()))
}

/// Writes the site's pages by group, each group rendered only when its inputs changed since the
/// last build (otherwise its files are carried over).
struct Pages<'a> {
    writer: &'a SiteWriter,
    prev: Option<&'a BTreeMap<String, PageEntry>>,
    next: BTreeMap<String, PageEntry>,
    /// Files of unchanged groups, to carry over if the site changes at all.
    reuse: Vec<String>,
    written: usize,
}

impl Pages<'_> {
    /// Whether the group's inputs and files are the last build's: then its files are carried over.
    fn carried(&mut self, name: &str, input: &str) -> bool {
        let Some(p) = self.prev.and_then(|p| p.get(name)) else { return false };
        if p.input != input || !p.files.iter().all(|(path, _)| self.writer.previous_has(path)) {
            return false;
        }
        self.reuse.extend(p.files.iter().map(|(path, _)| path.clone()));
        self.next.insert(name.to_string(), p.clone());
        true
    }

    /// A file of the group made with `digest`: carried over if the last build's had the same
    /// bytes, otherwise written (by `write`, unless already written as it was made).
    fn file(
        &mut self,
        name: &str,
        path: &str,
        digest: &str,
        write: impl FnOnce() -> Result<(), OutputError>,
    ) -> Result<(), BuildError> {
        let prev = self.prev.and_then(|p| p.get(name));
        let same = prev.is_some_and(|p| p.files.iter().any(|(f, d)| f == path && d == digest));
        if same && self.writer.previous_has(path) {
            // A file already written is removed: the carry-over links the last build's.
            self.writer.remove(path)?;
            self.reuse.push(path.to_string());
        } else {
            write()?;
            self.written += 1;
        }
        Ok(())
    }

    fn group(
        &mut self,
        name: &str,
        input: String,
        render: impl FnOnce() -> Result<Vec<(String, String)>, BuildError>,
    ) -> Result<(), BuildError> {
        if self.carried(name, &input) {
            return Ok(());
        }
        let mut files = vec![];
        for (path, text) in render()? {
            let digest = incremental::digest(&[text.as_bytes()]);
            let writer = self.writer;
            self.file(name, &path, &digest, || writer.write(&path, text.as_bytes()))?;
            files.push((path, digest));
        }
        self.next.insert(name.to_string(), PageEntry { input, files });
        Ok(())
    }

    /// [`Pages::group`] for files written as they are rendered (`write` makes each of `paths`),
    /// never held whole. Their digests are of their bytes alone (the length is not known
    /// before): each file is always made one way, so a build compares like with like.
    fn group_streamed(
        &mut self,
        name: &str,
        input: String,
        paths: &[&'static str],
        mut write: impl FnMut(&'static str, &mut dyn std::io::Write) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        if self.carried(name, &input) {
            return Ok(());
        }
        let mut files = vec![];
        for &path in paths {
            let digest = self.writer.write_with(path, |out| {
                let mut tee = Tee { out, hasher: incremental::Hasher::new(&[]) };
                write(path, &mut tee)?;
                Ok::<_, BuildError>(tee.hasher.finish())
            })?;
            self.file(name, path, &digest, || Ok(()))?;
            files.push((path.to_string(), digest));
        }
        self.next.insert(name.to_string(), PageEntry { input, files });
        Ok(())
    }
}

/// Writes to a file and hashes what it wrote.
struct Tee<'w> {
    out: &'w mut dyn std::io::Write,
    hasher: incremental::Hasher,
}

impl std::io::Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.hasher.write_all(&buf[..n])?;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Families to give a page: those of the built models, and every family they derive from, so a
/// "derived from" link always lands.
fn families_to_write(built: &[ModelSummary]) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for m in built {
        let mut key = Some(m.family.clone());
        while let Some(k) = key {
            key = family::info(&k).and_then(|f| f.derives_from).map(str::to_string);
            keys.insert(k);
        }
    }
    keys
}

fn family_link(key: &str, written: &BTreeSet<String>) -> FamilyLink {
    FamilyLink {
        key: key.to_string(),
        name: family::info(key).map(|f| f.name.to_string()).unwrap_or_else(|| key.to_string()),
        url: written.contains(key).then(|| format!("families/{key}.html")),
    }
}

fn write_site_pages(
    pages: &mut Pages,
    build_key: &str,
    manifest: &Manifest,
    renderer: &Renderer,
    built: Vec<ModelSummary>,
    cards: &[crate::estimate::cards::Card],
) -> Result<Vec<ModelSummary>, BuildError> {
    let render_err = |e: crate::render::RenderError| BuildError::Render(e.to_string());
    let keys = families_to_write(&built);
    for key in &keys {
        let info = family::info(key);
        let view = FamilyView {
            schema_version: LIST_SCHEMA_VERSION,
            key: key.clone(),
            name: family_link(key, &keys).name,
            supported: info.is_some(),
            summary: info.map(|f| f.summary.to_string()),
            derives_from: info.and_then(|f| f.derives_from).map(|d| family_link(d, &keys)),
            derived_by: family::FAMILIES
                .iter()
                .filter(|f| f.derives_from == Some(key.as_str()))
                .map(|f| family_link(f.key, &keys))
                .collect(),
            models: built.iter().filter(|m| &m.family == key).map(FamilyRow::from).collect(),
        };
        let input = digest_json(&[build_key.as_bytes()], &view)?;
        pages.group(&format!("family {key}"), input, || {
            let files = renderer.family(&view, &manifest.site).map_err(render_err)?;
            Ok(vec![
                (format!("families/{key}.html"), files.html),
                (format!("families/{key}.md"), files.markdown),
                (format!("families/{key}.json"), files.json),
            ])
        })?;
    }
    let index = std::sync::Arc::new(IndexView {
        schema_version: LIST_SCHEMA_VERSION,
        title: manifest.site.title.clone(),
        cards: crate::estimate::cards::builtin().iter().map(|c| c.name.clone()).collect(),
        families: keys.iter().map(|k| family_link(k, &keys)).collect(),
        models: built,
    });
    // The index and what lists every model (sitemap, llms.txt) change with any model's summary.
    let input = digest_json(&[build_key.as_bytes()], &*index)?;
    pages.group_streamed("index", input, &crate::render::INDEX_FILES, |file, out| {
        renderer.index_file_to(&index, &manifest.site, file, out).map_err(render_err)
    })?;
    // The rest depends only on this binary and the site settings.
    pages.group("fixed", build_key.to_string(), || {
        let (html, md) = renderer.method(&manifest.site).map_err(render_err)?;
        let mut out = vec![
            ("method.html".to_string(), html),
            ("method.md".to_string(), md),
            ("static/style.css".to_string(), crate::render::STYLE_CSS.to_string()),
            ("static/favicon.svg".to_string(), crate::render::FAVICON_SVG.to_string()),
            ("static/index.js".to_string(), crate::render::INDEX_JS.to_string()),
            ("static/calc.js".to_string(), crate::render::CALC_JS.to_string()),
            ("static/cards.js".to_string(), crate::render::cards_js(cards).map_err(render_err)?),
            ("plan.html".to_string(), renderer.planner(&manifest.site).map_err(render_err)?),
            ("static/planner.js".to_string(), crate::render::PLANNER_JS.to_string()),
            ("static/planner-wasm.js".to_string(), crate::planner_assets::wasm_script()),
            ("static/planner-b-wasm.js".to_string(), crate::planner_assets::wasm_b_script()),
            ("static/planner-c-wasm.js".to_string(), crate::planner_assets::wasm_c_script()),
        ];
        for (name, schema) in crate::render::SCHEMAS {
            out.push((
                format!("schema/{name}"),
                crate::render::schema_for_site(name, schema, &manifest.site.base_url),
            ));
        }
        // What a model's JSON leaves to the site (schema_version 4): the catalogue and the
        // recipes, once, from which a client computes every per-card row.
        let json_err = |e: serde_json::Error| BuildError::Render(e.to_string());
        let mut cards_json =
            serde_json::to_string(&crate::model_json::cards_json(cards)).map_err(json_err)?;
        cards_json.push('\n');
        out.push(("cards.json".to_string(), cards_json));
        let mut recipes = serde_json::to_string(&crate::model_json::recipes_json()).map_err(json_err)?;
        recipes.push('\n');
        out.push(("recipes.json".to_string(), recipes));
        // GitHub Pages would otherwise run Jekyll, which skips files starting with `_` or `.`.
        out.push((".nojekyll".to_string(), String::new()));
        Ok(out)
    })?;
    // The summaries go back to whoever lent them (the templates' values of them are dropped).
    Ok(std::sync::Arc::unwrap_or_clone(index).models)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str, derived: Option<u64>) -> ModelSummary {
        serde_json::from_value(serde_json::json!({
            "id": id, "url": "", "family": "f", "architecture": null,
            "supported": true, "derived": derived, "active": derived, "checkpoint": null,
            "delta_pct": null, "reconciliation": null, "layers": null, "hidden": null, "heads": null,
            "kv_heads": null, "vocab": null, "context": null, "smallest_card": {},
            "tags": [],
        }))
        .unwrap()
    }

    /// The definition: every other model sorted by distance in log size, then by ID.
    fn naive(me: &ModelSummary, family: &[&ModelSummary]) -> Vec<String> {
        let mine = size(me);
        let mut others: Vec<&&ModelSummary> = family.iter().filter(|m| m.id != me.id).collect();
        others.sort_by(|a, b| {
            (size(a) - mine).abs().total_cmp(&(size(b) - mine).abs()).then_with(|| a.id.cmp(&b.id))
        });
        others.into_iter().take(MAX_SIBLINGS).map(|m| m.id.clone()).collect()
    }

    #[test]
    fn the_nearest_siblings_walk_gives_what_sorting_the_whole_family_gives() {
        // A fixed linear congruential sequence: families with many equal sizes (copies of one
        // config), sizes equally far on both sides, unknown sizes, and families of one.
        let mut x: u64 = 12345;
        let mut next = move |n: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % n
        };
        for round in 0..300 {
            let n = 1 + next(60) as usize;
            let models: Vec<ModelSummary> = (0..n)
                .map(|i| {
                    let derived = match next(4) {
                        0 => None,
                        1 => Some(1 << next(40)),
                        _ => Some(1 + next(8) * 1000),
                    };
                    summary(&format!("m{}-{i}", next(1000)), derived)
                })
                .collect();
            let refs: Vec<&ModelSummary> = models.iter().collect();
            let family = Family::new(&refs);
            for me in &models {
                let got: Vec<String> = family.siblings(me).into_iter().map(|m| m.id).collect();
                assert_eq!(got, naive(me, &refs), "round {round}, {}", me.id);
            }
        }
    }
}
