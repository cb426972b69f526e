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
use crate::manifest::Manifest;
use crate::model_id::ModelId;
use crate::output::{Leftovers, OutputError, SiteWriter};
use crate::page::{ModelPage, ModelSummary, SCHEMA_VERSION, SiblingsView};
use crate::plan::{PlanOptions, plan_with};
use crate::render::{Badge, FamilyLink, FamilyView, IndexView, Renderer};
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

/// What pass two needs of a model beyond its summary: the family's display name and the ends of
/// the HTML and Markdown files that follow the sibling part.
struct Pending {
    family_name: String,
    html_tail: String,
    md_tail: String,
    /// The model's upstream changes, for the site-wide feed and the Recent changes page.
    changes: Vec<crate::feeds::FeedEntry>,
    /// The OSV documents written for the model, to remove with its other files on a failure.
    osv: Vec<String>,
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

fn plan_one(source: &dyn ModelSource, id: &ModelId, options: &PlanOptions) -> Result<ModelPage, String> {
    let files = source.load(id).map_err(|e| e.to_string())?;
    plan_with(&files, Some(format!("{}.html", id.site_stem())), options).map_err(|e| e.to_string())
}

/// Up to [`MAX_SIBLINGS`] other models of the family, nearest in parameter count first (then by
/// ID), so a 7B page lists the 7Bs and 13Bs before the 70Bs.
fn siblings(me: &ModelSummary, family: &[&ModelSummary]) -> Vec<ModelSummary> {
    let size = |m: &ModelSummary| (m.derived.unwrap_or(1).max(1) as f64).ln();
    let mine = size(me);
    let mut others: Vec<&&ModelSummary> = family.iter().filter(|m| m.id != me.id).collect();
    others.sort_by(|a, b| {
        (size(a) - mine).abs().total_cmp(&(size(b) - mine).abs()).then_with(|| a.id.cmp(&b.id))
    });
    others.into_iter().take(MAX_SIBLINGS).map(|m| (*m).clone()).collect()
}

pub fn build_site(
    manifest: &Manifest,
    source: &dyn ModelSource,
    out: &Path,
    renderer: &Renderer,
) -> Result<BuildReport, BuildError> {
    build_site_with(manifest, source, out, renderer, &PlanOptions::default())
}

/// [`build_site`] with the plan's options (user cards, the training run's inputs).
pub fn build_site_with(
    manifest: &Manifest,
    source: &dyn ModelSource,
    out: &Path,
    renderer: &Renderer,
    options: &PlanOptions,
) -> Result<BuildReport, BuildError> {
    let mut report = BuildReport::default();
    let writer = SiteWriter::create(out)?;
    report.leftovers = writer.leftovers().clone();

    let root = "../../";
    let t = Instant::now();
    let planned: Vec<Result<(ModelSummary, Pending), String>> = manifest
        .models
        .par_iter()
        .map(|id| {
            let page = plan_one(source, id, options)?;
            let summary = page.summary();
            let parts =
                renderer.model_parts(&page, &manifest.site, root).map_err(|e| format!("{id}: {e}"))?;
            let family_name = page.family_name.clone();
            let feed = crate::feeds::model_feed(&page, &manifest.site);
            let changes = crate::feeds::entries(&page);
            let osv = osv_documents(&page, &manifest.site.base_url).map_err(|e| format!("{id}: {e}"))?;
            drop(page);
            let stem = id.site_stem();
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
                remove_model_files(&writer, &stem, &osv);
                return Err(e.to_string());
            }
            Ok((
                summary,
                Pending { family_name, html_tail: parts.html_tail, md_tail: parts.md_tail, changes, osv },
            ))
        })
        .collect();
    report.phases.push(("plan and render", t.elapsed()));

    let ok: Vec<&ModelSummary> = planned.iter().filter_map(|r| r.as_ref().ok().map(|(s, _)| s)).collect();
    let mut by_family: BTreeMap<&str, Vec<&ModelSummary>> = BTreeMap::new();
    for s in &ok {
        by_family.entry(s.family.as_str()).or_default().push(s);
    }

    let t = Instant::now();
    let written: Vec<Result<(), String>> = manifest
        .models
        .par_iter()
        .zip(planned.par_iter())
        .map(|(id, first)| {
            let (summary, pending) = first.as_ref().map_err(Clone::clone)?;
            let stem = id.site_stem();
            let finish = || -> Result<(), String> {
                let family = &by_family[summary.family.as_str()];
                let view = SiblingsView::new(
                    summary,
                    pending.family_name.clone(),
                    siblings(summary, family),
                    family.len(),
                );
                // Rendered in full before the first byte is appended.
                let part =
                    renderer.model_siblings(&view, &manifest.site, root).map_err(|e| format!("{id}: {e}"))?;
                let html = [part.html.as_str(), pending.html_tail.as_str()].concat();
                let md = [part.markdown.as_str(), pending.md_tail.as_str()].concat();
                writer.append(&format!("{stem}.html"), html.as_bytes()).map_err(|e| e.to_string())?;
                writer.append(&format!("{stem}.md"), md.as_bytes()).map_err(|e| e.to_string())?;
                writer.append(&format!("{stem}.json"), part.json.as_bytes()).map_err(|e| e.to_string())?;
                let badge = Badge::for_model(summary).to_json().map_err(|e| format!("{id}: {e}"))?;
                writer.write(&format!("{stem}.badge.json"), badge.as_bytes()).map_err(|e| e.to_string())
            };
            // A failure leaves no partial files of the model.
            finish().inspect_err(|_| remove_model_files(&writer, &stem, &pending.osv))
        })
        .collect();
    report.phases.push(("render siblings", t.elapsed()));

    let mut built: Vec<ModelSummary> = vec![];
    let mut changes = vec![];
    for ((id, first), second) in manifest.models.iter().zip(&planned).zip(&written) {
        let outcome = match (first, second) {
            (Ok((s, pending)), Ok(())) => {
                built.push(s.clone());
                changes.extend(pending.changes.iter().cloned());
                report.files_written += pending.osv.len();
                Outcome::Built { supported: s.supported }
            }
            (Err(e), _) | (_, Err(e)) => Outcome::Failed { error: e.clone() },
        };
        report.models.push(ModelReport { id: id.to_string(), outcome });
    }
    report.files_written += built.len() * 5;

    let t = Instant::now();
    report.files_written += write_site_pages(&writer, manifest, renderer, &built)?;
    crate::feeds::sort(&mut changes);
    writer.write("changes.atom", crate::feeds::site_feed(&changes, &manifest.site).as_bytes())?;
    let page = renderer.changes(&changes, &manifest.site).map_err(|e| BuildError::Render(e.to_string()))?;
    writer.write("changes.html", page.as_bytes())?;
    report.files_written += 2;
    report.phases.push(("index, families, method", t.elapsed()));

    let t = Instant::now();
    writer.finish()?;
    report.phases.push(("swap in", t.elapsed()));
    Ok(report)
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
    writer: &SiteWriter,
    manifest: &Manifest,
    renderer: &Renderer,
    built: &[ModelSummary],
) -> Result<usize, BuildError> {
    let render_err = |e: crate::render::RenderError| BuildError::Render(e.to_string());
    let mut n = 0;
    let keys = families_to_write(built);
    for key in &keys {
        let info = family::info(key);
        let view = FamilyView {
            schema_version: SCHEMA_VERSION,
            key: key.clone(),
            name: family_link(key, &keys).name,
            supported: info.is_some(),
            summary: info.map(|f| f.summary.to_string()),
            derives_from: info.and_then(|f| f.derives_from).map(|d| family_link(d, &keys)),
            derived_by: family::all()
                .filter(|f| f.derives_from == Some(key.as_str()))
                .map(|f| family_link(f.key, &keys))
                .collect(),
            models: built.iter().filter(|m| &m.family == key).cloned().collect(),
        };
        let files = renderer.family(&view, &manifest.site).map_err(render_err)?;
        writer.write(&format!("families/{key}.html"), files.html.as_bytes())?;
        writer.write(&format!("families/{key}.md"), files.markdown.as_bytes())?;
        writer.write(&format!("families/{key}.json"), files.json.as_bytes())?;
        n += 3;
    }
    let index = IndexView {
        schema_version: SCHEMA_VERSION,
        title: manifest.site.title.clone(),
        cards: crate::estimate::cards::builtin().iter().map(|c| c.name.clone()).collect(),
        families: keys.iter().map(|k| family_link(k, &keys)).collect(),
        models: built.to_vec(),
    };
    let files = renderer.index(&index, &manifest.site).map_err(render_err)?;
    writer.write("index.html", files.html.as_bytes())?;
    writer.write("index.md", files.markdown.as_bytes())?;
    writer.write("index.json", files.json.as_bytes())?;
    let (html, md) = renderer.method(&manifest.site).map_err(render_err)?;
    writer.write("method.html", html.as_bytes())?;
    writer.write("method.md", md.as_bytes())?;
    writer.write("static/style.css", crate::render::STYLE_CSS.as_bytes())?;
    writer.write("static/favicon.svg", crate::render::FAVICON_SVG.as_bytes())?;
    writer.write("static/index.js", crate::render::INDEX_JS.as_bytes())?;
    writer.write("static/calc.js", crate::render::CALC_JS.as_bytes())?;
    writer.write("plan.html", renderer.planner(&manifest.site).map_err(render_err)?.as_bytes())?;
    writer.write("static/planner.js", crate::render::PLANNER_JS.as_bytes())?;
    writer.write("static/planner-wasm.js", crate::planner_assets::wasm_script().as_bytes())?;
    for (name, schema) in crate::render::SCHEMAS {
        let schema = crate::render::schema_for_site(name, schema, &manifest.site.base_url);
        writer.write(&format!("schema/{name}"), schema.as_bytes())?;
    }
    // GitHub Pages would otherwise run Jekyll, which skips files starting with `_` or `.`.
    writer.write(".nojekyll", b"")?;
    let extras = renderer.extras(&index, &manifest.site).map_err(render_err)?;
    for (path, text) in &extras {
        writer.write(path, text.as_bytes())?;
    }
    Ok(n + 12 + crate::render::SCHEMAS.len() + extras.len())
}
