//! The batch builder: plans every model of models.toml in parallel, renders its three files, and
//! writes the index, family and method pages.
//!
//! It streams, and plans each model once. Pass one plans a model, renders and writes its three
//! files less the part that lists its siblings (which needs every other model), and drops the
//! page, writing what the rest of the build needs of it (its summary, its next cache entry, the
//! few hundred bytes that close each file) to a scratch file ([`crate::spill`]). Pass two renders
//! each model's sibling part from the summaries, family by family, and appends it. The index,
//! the family pages and the next cache read the records back as they go. What stays in memory
//! is a fixed-size [`Brief`] per model, so memory stays flat however many models are built.
//! Results come out in models.toml order whatever the thread count, so builds are byte-identical.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::family;
use crate::incremental::{self, ModelEntry, PageEntry, PrevCache};
use crate::manifest::Manifest;
use crate::model_id::ModelId;
use crate::output::{Leftovers, OutputError, SiteWriter};
use crate::page::ModelPage;
use crate::page::{FamilyRow, ModelSummary, SiblingsView};
use crate::plan::{PlanOptions, plan_with};
use crate::render::{
    Badge, FamilyLink, FamilyView, IndexView, LIST_SCHEMA_VERSION, ModelList, ReadSummaries, Renderer,
};
use crate::source::ModelSource;
use crate::spill::{Slot, Spill};

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
    /// What the build keeps of its models until the site is made could not be read back.
    #[error("{0}")]
    Scratch(String),
}

/// A model's record: in this build's scratch file, or in the last build's cache.
#[derive(Debug, Clone, Copy)]
enum Loc {
    Spill(Slot),
    Prev(Slot),
}

/// What the build knows of each model until the site is made, on disk ([`crate::spill`]): this
/// build's records, and the last build's cache, read where it lies.
#[derive(Debug)]
struct Store {
    spill: Spill,
    prev: Option<PrevCache>,
}

impl Store {
    fn place(&self, loc: Loc) -> Result<(&Spill, Slot), String> {
        match loc {
            Loc::Spill(slot) => Ok((&self.spill, slot)),
            Loc::Prev(slot) => match &self.prev {
                Some(prev) => Ok((prev.file(), slot)),
                None => Err("an entry of the last build's cache, which this build did not read".into()),
            },
        }
    }

    fn entry(&self, loc: Loc) -> Result<ModelEntry, String> {
        let (file, slot) = self.place(loc)?;
        file.get(slot).map_err(|e| e.to_string())
    }

    fn summary(&self, loc: Loc) -> Result<ModelSummary, String> {
        let (file, slot) = self.place(loc)?;
        file.get_first(slot).map_err(|e| e.to_string())
    }

    fn bytes(&self, loc: Loc) -> Result<Vec<u8>, String> {
        let (file, slot) = self.place(loc)?;
        file.bytes(slot).map_err(|e| e.to_string())
    }

    fn put(&self, entry: &ModelEntry) -> Result<Loc, String> {
        self.spill.put(entry).map(Loc::Spill).map_err(|e| format!("{}: {e}", entry.summary.id))
    }
}

/// The built models' summaries, in models.toml order, read as the index's files reach them.
#[derive(Debug)]
struct Listed {
    store: Arc<Store>,
    locs: Vec<Loc>,
}

impl ReadSummaries for Listed {
    fn len(&self) -> usize {
        self.locs.len()
    }

    fn get(&self, i: usize) -> Result<ModelSummary, String> {
        let loc = *self.locs.get(i).ok_or_else(|| format!("no model at place {i} of the index"))?;
        self.store.summary(loc)
    }
}

/// What the build holds of a model between its passes: where its entry is, and what its
/// family's order and its siblings' fingerprints need. A fixed size and nothing on the heap (but
/// for a family this binary does not know): a build's pass one also makes and drops megabytes a
/// model, and small blocks kept among them would keep the allocator's pages from being reused.
struct Brief<'a> {
    entry: Loc,
    /// For a model planned in this build, the ends of its HTML page and Markdown twin: its files
    /// are written but for these and the sibling part.
    tails: Option<Slot>,
    /// Its ID, as models.toml gives it (the build's list of IDs holds the text), and its place
    /// there.
    id: &'a str,
    place: usize,
    family: Cow<'static, str>,
    size: f64,
    /// The digest of its summary (its JSON), hex: a model's sibling part is fingerprinted by its
    /// siblings' digests, each made once per build rather than once per page that lists it.
    digest: [u8; 64],
    supported: bool,
    /// It has changes upstream (the site feed lists them).
    changes: bool,
    /// How many OSV documents it has.
    osv: usize,
    /// With no OSV document and its feed, if any, at `<stem>.atom`, whether it has a feed: its
    /// files follow from its stem (a rebuild checks they are there without reading its entry).
    plain_files: Option<bool>,
}

impl<'a> Brief<'a> {
    fn new(
        id: &'a str,
        stem: &str,
        entry: &ModelEntry,
        loc: Loc,
        tails: Option<Slot>,
    ) -> Result<Self, String> {
        let s = &entry.summary;
        let digest = incremental::digest_json(&[], s).map_err(|e| format!("{}: {e}", s.id))?;
        let digest = digest
            .as_bytes()
            .try_into()
            .map_err(|_| format!("{}: a digest of {} bytes", s.id, digest.len()))?;
        Ok(Brief {
            entry: loc,
            tails,
            id,
            place: 0,
            family: family::info(&s.family)
                .map_or_else(|| Cow::Owned(s.family.clone()), |f| Cow::Borrowed(f.key)),
            size: size(s),
            digest,
            supported: s.supported,
            changes: !entry.changes.is_empty(),
            osv: entry.osv.len(),
            plain_files: (entry.osv.is_empty()
                && entry.feed.as_deref().is_none_or(|f| f.strip_suffix(".atom") == Some(stem)))
            .then_some(entry.feed.is_some()),
        })
    }
}

/// Pass two's outcome for a model.
struct Step {
    /// Its entry for the next cache.
    entry: Loc,
    /// Planned and rendered in full in this build.
    rendered: bool,
    /// Its files are exactly the last build's: carried over, if the site changes at all.
    reuse: bool,
}

/// The carry-over's outcome for a model.
enum Carried {
    /// Not carried over (written in this build).
    Nothing,
    /// Its files, this many, linked from the last build's site.
    Linked(usize),
    /// A file of the last build was gone: rendered again.
    Rebuilt(Loc),
}

/// How many models of a family pass two finishes together.
const BLOCK: usize = 64;

/// The summaries of a run of a family's models (places in its order of size), each read once
/// for all the models of a block whose sibling lists show it.
#[derive(Default)]
struct Window {
    start: usize,
    held: Vec<Option<ModelSummary>>,
}

impl Window {
    /// For the models at `block`: they and the [`MAX_SIBLINGS`] on each side.
    fn new(family: &Family<Brief>, block: std::ops::Range<usize>) -> Self {
        let start = block.start.saturating_sub(MAX_SIBLINGS);
        let end = (block.end + MAX_SIBLINGS).min(family.len());
        Window { start, held: (start..end).map(|_| None).collect() }
    }

    fn summary(&mut self, store: &Store, family: &Family<Brief>, pos: usize) -> Result<ModelSummary, String> {
        let loc =
            family.sorted.get(pos).ok_or_else(|| format!("no model at place {pos} of the family"))?.1.entry;
        let Some(held) = pos.checked_sub(self.start).and_then(|i| self.held.get_mut(i)) else {
            return store.summary(loc);
        };
        match held {
            Some(summary) => Ok(summary.clone()),
            None => Ok(held.insert(store.summary(loc)?).clone()),
        }
    }
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

/// What a family's order needs of a member: its size and its ID.
trait Member {
    fn size(&self) -> f64;
    fn id(&self) -> &str;
}

impl Member for Brief<'_> {
    fn size(&self) -> f64 {
        self.size
    }

    fn id(&self) -> &str {
        self.id
    }
}

/// A family's models sorted by size (then ID), so that each model finds its nearest siblings by
/// walking outwards from its own place instead of sorting the whole family again: a family of
/// thousands of models would otherwise cost a sort of thousands per model.
struct Family<'a, M> {
    sorted: Vec<(f64, &'a M)>,
}

impl<'a, M: Member> Family<'a, M> {
    fn new(models: &[&'a M]) -> Self {
        let mut sorted: Vec<(f64, &M)> = models.iter().map(|m| (m.size(), *m)).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id().cmp(b.1.id())));
        Family { sorted }
    }

    fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Up to [`MAX_SIBLINGS`] other models of the family, nearest in parameter count first (then
    /// by ID), so a 7B page lists the 7Bs and 13Bs before the 70Bs.
    #[cfg(test)]
    fn siblings(&self, me: &M) -> Vec<&'a M> {
        self.nearest(me).into_iter().map(|i| self.sorted[i].1).collect()
    }

    /// [`Family::siblings`], as places in `sorted`.
    fn nearest(&self, me: &M) -> Vec<usize> {
        let mine = me.size();
        let list = &self.sorted;
        let distance = |i: usize| (list[i].0 - mine).abs();
        // The first model not smaller than `me`: the walk goes left from before it and right from
        // it; `me` itself is met at distance 0 and skipped.
        let pos = list.partition_point(|(s, m)| s.total_cmp(&mine).then_with(|| m.id().cmp(me.id())).is_lt());
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
            tied.retain(|&i| list[i].1.id() != me.id());
            tied.sort_by(|&a, &b| list[a].1.id().cmp(list[b].1.id()));
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
fn families<'a, 'b>(briefs: impl Iterator<Item = &'a Brief<'b>>) -> BTreeMap<&'a str, Family<'a, Brief<'b>>> {
    let mut members: BTreeMap<&str, Vec<&Brief>> = BTreeMap::new();
    for b in briefs {
        members.entry(&*b.family).or_default().push(b);
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
    store: &'a Store,
}

const ROOT: &str = "../../";

impl Ctx<'_> {
    /// Pass one for a model whose inputs changed: plans it, renders and writes its files less the
    /// sibling part, and keeps the rest in the scratch file.
    fn plan_and_write_heads<'i>(
        &self,
        id: &ModelId,
        id_text: &'i str,
        input: String,
        files: &crate::source::ModelFiles,
    ) -> Result<Brief<'i>, String> {
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
        let (h, m, j) = (parts.html_head.len(), parts.md_head.len(), parts.json_head.len());
        let entry = ModelEntry {
            summary,
            input,
            output: String::new(),
            family_name,
            changes: changes.into_iter().map(|e| e.change.change).collect(),
            feed: feed.map(|(path, _)| path),
            osv,
            html: (h, h),
            md: (m, m),
            json: j,
        };
        let kept = (|| {
            let tails = self
                .store
                .spill
                .put(&(&parts.html_tail, &parts.md_tail))
                .map_err(|e| format!("{id}: {e}"))?;
            Brief::new(id_text, &stem, &entry, self.store.put(&entry)?, Some(tails))
        })();
        kept.inspect_err(|_| remove_model_files(writer, &stem, &entry.osv))
    }

    /// The fingerprint of a model's files: its inputs and its sibling part's view, the
    /// siblings by their summaries' digests; and the places of its siblings in the family.
    fn output(
        &self,
        entry: &ModelEntry,
        me: &Brief,
        family: &Family<Brief>,
    ) -> Result<(String, Vec<usize>), String> {
        let nearest = family.nearest(me);
        // The view less its siblings, then their digests: the JSON closes before them, so the
        // two cannot run together.
        let bare = SiblingsView::new(&entry.summary, entry.family_name.clone(), vec![], family.len());
        let mut h = incremental::Hasher::new(&[entry.input.as_bytes()]);
        serde_json::to_writer(&mut h, &bare).map_err(|e| format!("{}: {e}", me.id))?;
        for &i in &nearest {
            std::io::Write::write_all(&mut h, &family.sorted[i].1.digest)
                .map_err(|e| format!("{}: {e}", me.id))?;
        }
        Ok((h.finish(), nearest))
    }

    /// The sibling part's view of a model, its siblings at `nearest` in the family.
    fn view(
        &self,
        entry: &ModelEntry,
        family: &Family<Brief>,
        nearest: &[usize],
        window: &mut Window,
    ) -> Result<SiblingsView, String> {
        let siblings = nearest
            .iter()
            .map(|&i| window.summary(self.store, family, i))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", entry.summary.id))?;
        Ok(SiblingsView::new(&entry.summary, entry.family_name.clone(), siblings, family.len()))
    }

    /// Pass two for a model planned in this build: renders its sibling part and completes its
    /// files; its entry for the next cache.
    fn finish_fresh(
        &self,
        id: &ModelId,
        me: &Brief,
        family: &Family<Brief>,
        window: &mut Window,
    ) -> Result<Loc, String> {
        let stem = id.site_stem();
        let writer = self.writer;
        let mut entry = match self.store.entry(me.entry) {
            Ok(entry) => entry,
            Err(e) => {
                remove_model_files(writer, &stem, &[]);
                return Err(format!("{id}: {e}"));
            }
        };
        let mut finish = || -> Result<Loc, String> {
            let tails = me.tails.ok_or_else(|| format!("{id}: pass one kept no ends of its files"))?;
            let (html_tail, md_tail): (String, String) =
                self.store.spill.get(tails).map_err(|e| format!("{id}: {e}"))?;
            let (output, nearest) = self.output(&entry, me, family)?;
            let view = self.view(&entry, family, &nearest, window)?;
            // Rendered in full before the first byte is appended.
            let part = self
                .renderer
                .model_siblings(&view, &self.manifest.site, ROOT)
                .map_err(|e| format!("{id}: {e}"))?;
            let html = [part.html.as_str(), html_tail.as_str()].concat();
            let md = [part.markdown.as_str(), md_tail.as_str()].concat();
            writer.append(&format!("{stem}.html"), html.as_bytes()).map_err(|e| e.to_string())?;
            writer.append(&format!("{stem}.md"), md.as_bytes()).map_err(|e| e.to_string())?;
            writer.append(&format!("{stem}.json"), part.json.as_bytes()).map_err(|e| e.to_string())?;
            let badge = Badge::for_model(&entry.summary).to_json().map_err(|e| format!("{id}: {e}"))?;
            writer.write(&format!("{stem}.badge.json"), badge.as_bytes()).map_err(|e| e.to_string())?;
            entry.output = output;
            entry.html.1 = entry.html.0 + part.html.len();
            entry.md.1 = entry.md.0 + part.markdown.len();
            self.store.put(&entry)
        };
        // A failure leaves no partial files of the model.
        let done = finish();
        done.inspect_err(|_| remove_model_files(writer, &stem, &entry.osv))
    }

    /// Both passes for one model, from its files: for a cached model whose last files cannot be
    /// used after all.
    fn rebuild(&self, id: &ModelId, family: &Family<Brief>, osv: &[String]) -> Result<Loc, String> {
        // Some of its files may be carried over already: hard links of the live site's files,
        // which writing through would change in place. Unlinked first, they are written anew.
        remove_model_files(self.writer, &id.site_stem(), osv);
        let files = self.source.load(id).map_err(|e| e.to_string())?;
        let id_text = id.to_string();
        let input = incremental::model_input(&self.key, &id_text, &files);
        let me = self.plan_and_write_heads(id, &id_text, input, &files)?;
        self.finish_fresh(id, &me, family, &mut Window::default())
    }

    /// Pass two for a model whose inputs are unchanged: nothing to do if its sibling part is the
    /// same too (its files are carried over later, if the site changes at all); otherwise the new
    /// part is spliced into the last build's files, with no planning.
    fn finish_cached(
        &self,
        id: &ModelId,
        me: &Brief,
        family: &Family<Brief>,
        window: &mut Window,
    ) -> Result<Step, String> {
        let stem = id.site_stem();
        let entry = self.store.entry(me.entry).map_err(|e| format!("{id}: {e}"))?;
        let files = entry.files(&stem);
        let (output, nearest) = self.output(&entry, me, family)?;
        if output == entry.output {
            return Ok(Step { entry: me.entry, rendered: false, reuse: true });
        }
        let view = self.view(&entry, family, &nearest, window)?;
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
            Ok(Some(next)) => Ok(Step { entry: self.store.put(&next)?, rendered: false, reuse: false }),
            // The last build's files are not as its cache says: render the model again.
            Ok(None) | Err(_) => {
                self.rebuild(id, family, &entry.osv).map(|entry| Step { entry, rendered: true, reuse: false })
            }
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
    let ids: Vec<String> = manifest.models.iter().map(ToString::to_string).collect();
    let prev = if full {
        None
    } else {
        PrevCache::load(&writer.cache_path(), writer.previous_stamp().as_deref(), &ids)
    };
    let store = Arc::new(Store { spill: Spill::new(writer.scratch()?), prev });
    let ctx = Ctx {
        writer: &writer,
        renderer,
        manifest,
        source,
        options,
        key: incremental::build_key(&manifest.site, options),
        store: &store,
    };

    let t = Instant::now();
    let briefs: Vec<Result<Brief, String>> = manifest
        .models
        .par_iter()
        .zip(ids.par_iter())
        .enumerate()
        .map(|(k, (id, id_text))| {
            let files = source.load(id).map_err(|e| e.to_string())?;
            let input = incremental::model_input(&ctx.key, id_text, &files);
            if let Some(slot) = store.prev.as_ref().and_then(|p| p.slot(k))
                // An entry that cannot be read is no entry: the model is planned again.
                && let Ok(entry) = store.entry(Loc::Prev(slot))
                && entry.input == input
            {
                return Brief::new(id_text, &id.site_stem(), &entry, Loc::Prev(slot), None);
            }
            ctx.plan_and_write_heads(id, id_text, input, &files)
        })
        .collect();
    report.phases.push(("plan and render", t.elapsed()));

    // Each brief learns its place here, once all are made: pass one's workers see only their own.
    let mut briefs = briefs;
    for (k, b) in briefs.iter_mut().enumerate() {
        if let Ok(b) = b {
            b.place = k;
        }
    }
    let by_family = families(briefs.iter().filter_map(|b| b.as_ref().ok()));

    let t = Instant::now();
    // Family by family, in each family's order of size, a block of models at a time: a model's
    // siblings are mostly its neighbours in that order, so a block reads their summaries once
    // (a read each, twelve a model, were a twentieth of a build's time in system calls).
    let blocks: Vec<(&Family<Brief>, std::ops::Range<usize>)> = by_family
        .values()
        .flat_map(|f| (0..f.len()).step_by(BLOCK).map(move |s| (f, s..(s + BLOCK).min(f.len()))))
        .collect();
    let done: Vec<Vec<(usize, Result<Step, String>)>> = blocks
        .par_iter()
        .map(|(family, range)| {
            let mut window = Window::new(family, range.clone());
            range
                .clone()
                .map(|pos| {
                    let me = family.sorted[pos].1;
                    let id = &manifest.models[me.place];
                    let step = if me.tails.is_some() {
                        ctx.finish_fresh(id, me, family, &mut window).map(|entry| Step {
                            entry,
                            rendered: true,
                            reuse: false,
                        })
                    } else {
                        ctx.finish_cached(id, me, family, &mut window)
                    };
                    (me.place, step)
                })
                .collect()
        })
        .collect();
    // Back in models.toml order; a model that pass one failed keeps pass one's error.
    let mut steps: Vec<Result<Step, String>> =
        briefs.iter().map(|b| Err(b.as_ref().err().cloned().unwrap_or_default())).collect();
    for (k, step) in done.into_iter().flatten() {
        steps[k] = step;
    }
    report.phases.push(("render siblings", t.elapsed()));

    // Each built model: its place in models.toml and its entry for the next cache.
    let mut built: Vec<(usize, Loc)> = Vec::with_capacity(briefs.len());
    let mut changes = vec![];
    let mut all_same = store.prev.is_some();
    let mut osv_written = 0;
    let mut reuses: Vec<bool> = Vec::with_capacity(briefs.len());
    for (k, ((id, me), step)) in ids.iter().zip(&briefs).zip(steps).enumerate() {
        let (me, step) = match (me, step) {
            (Ok(me), Ok(step)) => (me, step),
            (me, step) => {
                // Pass two fails a model whose pass one failed, with pass one's error.
                let error = step.err().or_else(|| me.as_ref().err().cloned()).unwrap_or_default();
                reuses.push(false);
                report.models.push(ModelReport { id: id.clone(), outcome: Outcome::Failed { error } });
                continue;
            }
        };
        if me.changes {
            let entry = store.entry(step.entry).map_err(BuildError::Scratch)?;
            let s = &entry.summary;
            changes.extend(entry.changes.iter().map(|c| crate::feeds::FeedEntry {
                model: s.id.clone(),
                url: s.url.clone(),
                change: crate::changes::ChangeView::new(c, &s.id, Some(&s.url)),
            }));
        }
        all_same &= step.reuse;
        report.models_rendered += usize::from(step.rendered);
        if step.rendered {
            osv_written += me.osv;
        }
        reuses.push(step.reuse);
        report
            .models
            .push(ModelReport { id: id.clone(), outcome: Outcome::Built { supported: me.supported } });
        built.push((k, step.entry));
    }
    // Pass one drops a model's page, so the changes come out of it in the page's order; the
    // site feed sorts them.
    crate::feeds::sort(&mut changes);

    let t = Instant::now();
    let mut pages = Pages {
        writer: &writer,
        prev: store.prev.as_ref().map(|c| &c.pages),
        next: BTreeMap::new(),
        reuse: vec![],
        written: 0,
    };
    write_site_pages(&mut pages, &ctx.key, manifest, renderer, &store, &briefs, &built, &ctx.options.cards)?;
    pages.group("changes", digest_json(&[ctx.key.as_bytes()], &changes)?, || {
        let page =
            renderer.changes(&changes, &manifest.site).map_err(|e| BuildError::Render(e.to_string()))?;
        Ok(vec![
            ("changes.atom".into(), crate::feeds::site_feed(&changes, &manifest.site)),
            ("changes.html".into(), page),
        ])
    })?;
    report.phases.push(("index, families, method", t.elapsed()));
    let next_pages = std::mem::take(&mut pages.next);
    let page_reuse = std::mem::take(&mut pages.reuse);
    let pages_written = pages.written;

    // The same models and page groups as the last build (IDs are unique in models.toml).
    let same_set = store.prev.as_ref().is_some_and(|p| {
        p.count == built.len()
            && built.iter().all(|&(k, _)| p.slot(k).is_some())
            && p.pages.keys().eq(next_pages.keys())
    });
    // A file deleted from the site by hand since is written again, through the carry-over below.
    let all_there = || {
        built.par_iter().filter(|&&(k, _)| reuses[k]).all(|&(k, loc)| {
            let stem = manifest.models[k].site_stem();
            let files = match briefs[k].as_ref().ok().and_then(|b| b.plain_files) {
                Some(feed) => {
                    incremental::model_files(&stem, feed.then(|| format!("{stem}.atom")).as_deref(), &[])
                }
                None => match store.entry(loc) {
                    Ok(entry) => entry.files(&stem),
                    Err(_) => return false,
                },
            };
            files.iter().all(|f| writer.previous_has(f))
        })
    };
    if all_same && pages_written == 0 && same_set && all_there() {
        // Nothing to write: the site on disk is already this build's, byte for byte.
        report.unchanged = true;
        writer.keep_previous();
        return Ok(report);
    }

    let t = Instant::now();
    let carried: Vec<Result<Carried, String>> = built
        .par_iter()
        .map(|&(k, loc)| {
            if !reuses[k] {
                return Ok(Carried::Nothing);
            }
            let id = &manifest.models[k];
            let entry = store.entry(loc).map_err(|e| format!("{id}: {e}"))?;
            let files = entry.files(&id.site_stem());
            for rel in &files {
                if !writer.reuse(rel).map_err(|e| e.to_string())? {
                    // The last build's file is gone: render the model again.
                    let Ok(me) = &briefs[k] else { return Err(format!("{id}: not planned")) };
                    return ctx.rebuild(id, &by_family[&*me.family], &entry.osv).map(Carried::Rebuilt);
                }
            }
            Ok(Carried::Linked(files.len()))
        })
        .collect();
    drop(by_family);
    let mut reused = 0;
    let mut kept = Vec::with_capacity(built.len());
    for (&(k, loc), carried) in built.iter().zip(carried) {
        match carried {
            Ok(Carried::Nothing) => kept.push((k, loc)),
            Ok(Carried::Linked(n)) => {
                reused += n;
                kept.push((k, loc));
            }
            Ok(Carried::Rebuilt(loc)) => {
                report.models_rendered += 1;
                kept.push((k, loc));
            }
            Err(error) => report.models[k].outcome = Outcome::Failed { error },
        }
    }
    let built = kept;
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

    let entries = built.iter().map(|&(k, loc)| {
        store.bytes(loc).map(|bytes| (ids[k].clone(), bytes)).map_err(std::io::Error::other)
    });
    match incremental::save_cache(
        &writer.cache_path(),
        &writer.cache_temp_path(),
        &next_pages,
        built.len(),
        entries,
    ) {
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
                let mut tee = incremental::Tee { out, hasher: incremental::Hasher::new(&[]) };
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

/// Families to give a page: those of the built models, and every family they derive from, so a
/// "derived from" link always lands.
fn families_to_write<'a>(families: impl Iterator<Item = &'a str>) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for family in families {
        let mut key = Some(family.to_string());
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

// One argument per thing the pages are made of.
#[allow(clippy::too_many_arguments)]
fn write_site_pages(
    pages: &mut Pages,
    build_key: &str,
    manifest: &Manifest,
    renderer: &Renderer,
    store: &Arc<Store>,
    briefs: &[Result<Brief, String>],
    built: &[(usize, Loc)],
    cards: &[crate::estimate::cards::Card],
) -> Result<(), BuildError> {
    let render_err = |e: crate::render::RenderError| BuildError::Render(e.to_string());
    // Every built model's brief, in models.toml order.
    let mine: Vec<(&Brief, Loc)> =
        built.iter().filter_map(|&(k, loc)| briefs[k].as_ref().ok().map(|b| (b, loc))).collect();
    let keys = families_to_write(mine.iter().map(|(b, _)| &*b.family));
    for key in &keys {
        let info = family::info(key);
        let members: Vec<&(&Brief, Loc)> = mine.iter().filter(|(b, _)| *b.family == **key).collect();
        let mut view = FamilyView {
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
            models: vec![],
        };
        // Fingerprinted by the view less its rows, then the members' summaries' digests (a row is
        // made from the summary): the rows are read back only when the pages are made again.
        let input = {
            let mut h = incremental::Hasher::new(&[build_key.as_bytes()]);
            serde_json::to_writer(&mut h, &view).map_err(|e| BuildError::Render(e.to_string()))?;
            for (b, _) in &members {
                std::io::Write::write_all(&mut h, &b.digest)
                    .map_err(|e| BuildError::Render(e.to_string()))?;
            }
            h.finish()
        };
        pages.group(&format!("family {key}"), input, || {
            view.models = members
                .iter()
                .map(|&&(_, loc)| store.summary(loc).map(|s| FamilyRow::from(&s)))
                .collect::<Result<Vec<_>, _>>()
                .map_err(BuildError::Scratch)?;
            let files = renderer.family(&view, &manifest.site).map_err(render_err)?;
            Ok(vec![
                (format!("families/{key}.html"), files.html),
                (format!("families/{key}.md"), files.markdown),
                (format!("families/{key}.json"), files.json),
            ])
        })?;
    }
    let index = Arc::new(IndexView {
        schema_version: LIST_SCHEMA_VERSION,
        title: manifest.site.title.clone(),
        cards: crate::estimate::cards::builtin().iter().map(|c| c.name.clone()).collect(),
        families: keys.iter().map(|k| family_link(k, &keys)).collect(),
        models: ModelList::Read(Arc::new(Listed {
            store: Arc::clone(store),
            locs: mine.iter().map(|&(_, loc)| loc).collect(),
        })),
    });
    // The index and what lists every model (sitemap, llms.txt) change with any model's summary:
    // fingerprinted by the view less its models, then their summaries' digests (which the build
    // holds), not by reading every summary back.
    let input = {
        let mut h = incremental::Hasher::new(&[build_key.as_bytes()]);
        let rest = (index.schema_version, &index.title, &index.cards, &index.families);
        serde_json::to_writer(&mut h, &rest).map_err(|e| BuildError::Render(e.to_string()))?;
        for (b, _) in &mine {
            std::io::Write::write_all(&mut h, &b.digest).map_err(|e| BuildError::Render(e.to_string()))?;
        }
        h.finish()
    };
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
    Ok(())
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
    impl Member for ModelSummary {
        fn size(&self) -> f64 {
            size(self)
        }

        fn id(&self) -> &str {
            &self.id
        }
    }

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
                let got: Vec<String> = family.siblings(me).into_iter().map(|m| m.id.clone()).collect();
                assert_eq!(got, naive(me, &refs), "round {round}, {}", me.id);
            }
        }
    }
}
