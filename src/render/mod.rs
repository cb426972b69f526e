//! The renderers: HTML (autoescaped minijinja templates), the Markdown twin, the JSON file and the
//! terminal text, all from the same view structs. One [`Renderer`] holds the template environment;
//! it is `Sync`, and the batch builder shares it across rayon threads.
//!
//! Templates are compiled into the binary (`templates/`), so the site builds with no file beside
//! the executable.

pub mod charts;
pub mod format;

use minijinja::value::Serde;
use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value, context};
use serde::Serialize;

use crate::manifest::SiteSettings;
use crate::page::{ModelPage, ModelSummary, SiblingsView};

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("template {template}: {source}")]
    Template { template: &'static str, source: minijinja::Error },
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("{template}: the sibling part could not be set apart")]
    Split { template: &'static str },
}

/// Stands in the model templates for the sibling part while a build plans (see
/// [`Renderer::model_parts`]).
const SIBLING_MARKER: &str = "\u{0}modelatlas:siblings\u{0}";

/// A model's files less their sibling part: heads and tails to put it between.
#[derive(Debug, Clone)]
pub struct ModelParts {
    pub html_head: String,
    pub html_tail: String,
    pub md_head: String,
    pub md_tail: String,
    pub json_head: String,
}

/// The three files of one model, rendered in memory before anything is written.
pub struct ModelFilesOut {
    pub html: String,
    pub markdown: String,
    pub json: String,
}

/// A shields.io endpoint badge (`https://img.shields.io/endpoint?url=...`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Badge {
    pub schema_version: u32,
    pub label: String,
    pub message: String,
    pub color: String,
}

impl Badge {
    /// Parameters and the smallest card on which a LoRA fine-tune of batch 1 fits.
    pub fn for_model(summary: &ModelSummary) -> Badge {
        let (message, color) = match summary.derived {
            Some(n) => {
                let lora = summary.smallest_card.lora.as_deref().unwrap_or("no single card");
                (format!("{} params · LoRA: {lora}", format::count(n as f64)), "blue")
            }
            None => ("unsupported".to_string(), "lightgrey"),
        };
        Badge { schema_version: 1, label: "modelatlas".into(), message, color: color.into() }
    }

    pub fn to_json(&self) -> Result<String, RenderError> {
        to_json(self)
    }
}

/// The custom auto-escape modes of the Markdown and plain-text templates.
const MARKDOWN: &str = "markdown";
const PLAIN: &str = "plain";

pub struct Renderer {
    env: Environment<'static>,
}

pub const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("model.html", include_str!("../../templates/model.html")),
    ("model.md.j2", include_str!("../../templates/model.md.j2")),
    ("model_siblings.html", include_str!("../../templates/model_siblings.html")),
    ("model_siblings.md.j2", include_str!("../../templates/model_siblings.md.j2")),
    ("plan.txt.j2", include_str!("../../templates/plan.txt.j2")),
    ("family.html", include_str!("../../templates/family.html")),
    ("family.md.j2", include_str!("../../templates/family.md.j2")),
    ("index.html", include_str!("../../templates/index.html")),
    ("index.md.j2", include_str!("../../templates/index.md.j2")),
    ("method.html", include_str!("../../templates/method.html")),
    ("method.md.j2", include_str!("../../templates/method.md.j2")),
    // Named without `.xml` so minijinja does not HTML-escape it; values pass the `xml` filter.
    ("sitemap.j2", include_str!("../../templates/sitemap.xml.j2")),
    ("robots.txt.j2", include_str!("../../templates/robots.txt.j2")),
    ("llms.txt.j2", include_str!("../../templates/llms.txt.j2")),
    ("404.html", include_str!("../../templates/404.html")),
    ("plan.html", include_str!("../../templates/plan.html")),
    ("changes.html", include_str!("../../templates/changes.html")),
];

/// The stylesheet, written to `site/static/style.css`.
pub const STYLE_CSS: &str = include_str!("../../static/style.css");
/// The JSON Schemas of the site's JSON files, written to `site/schema/`.
pub const SCHEMAS: &[(&str, &str)] = &[
    ("model.schema.json", include_str!("../../static/schema/model.schema.json")),
    ("summary.schema.json", include_str!("../../static/schema/summary.schema.json")),
    ("index.schema.json", include_str!("../../static/schema/index.schema.json")),
    ("family.schema.json", include_str!("../../static/schema/family.schema.json")),
    ("cards.schema.json", include_str!("../../static/schema/cards.schema.json")),
    ("recipes.schema.json", include_str!("../../static/schema/recipes.schema.json")),
];

/// A schema as the site publishes it: its `$id` made absolute under the site's base URL, so the
/// `$ref`s between the schemas resolve to the published files and a validator (check-jsonschema)
/// finds them from anywhere. The embedded text keeps the bare file name, for tests and tools
/// that load the four from one folder.
pub fn schema_for_site(name: &str, text: &str, base_url: &str) -> String {
    text.replacen(&format!("\"$id\": \"{name}\""), &format!("\"$id\": \"{base_url}schema/{name}\""), 1)
}

/// The model page's what-if calculator, written to `site/static/calc.js`.
pub const CALC_JS: &str = include_str!("../../static/calc.js");
/// The index's sort and filter script, written to `site/static/index.js`.
pub const INDEX_JS: &str = include_str!("../../static/index.js");
/// The "Plan your own model" page's script, written to `site/static/planner.js`.
pub const PLANNER_JS: &str = include_str!("../../static/planner.js");
/// The favicon, written to `site/static/favicon.svg`.
pub const FAVICON_SVG: &str = include_str!("../../static/favicon.svg");

impl Default for Renderer {
    fn default() -> Self {
        Self::new()
    }
}

impl Renderer {
    pub fn new() -> Self {
        let mut env = Environment::new();
        // A typo in a template must fail the build, not print an empty string.
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Every output format escapes what it shows: HTML as minijinja does by default, Markdown
        // (the twins, `index.md`, `llms.txt`) and plain text (the terminal plan, `robots.txt`) by
        // the formatter below, so a string from a config, the metadata or `models.toml` cannot add
        // markup, a link, a heading or a line. Filters that build markup return safe strings.
        env.set_auto_escape_callback(|name| match name {
            "llms.txt.j2" => AutoEscape::Custom(MARKDOWN.into()),
            "plan.txt.j2" | "robots.txt.j2" => AutoEscape::Custom(PLAIN.into()),
            name if name.ends_with(".md.j2") => AutoEscape::Custom(MARKDOWN.into()),
            name => minijinja::default_auto_escape_callback(name),
        });
        env.set_formatter(|out, state, value| {
            let markdown = match state.auto_escape() {
                AutoEscape::Custom(kind) if kind == MARKDOWN => true,
                AutoEscape::Custom(kind) if kind == PLAIN => false,
                _ => return minijinja::escape_formatter(out, state, value),
            };
            let write = |out: &mut minijinja::Output, text: &str| {
                if value.is_safe() {
                    std::fmt::Write::write_str(out, text)
                } else if markdown {
                    std::fmt::Write::write_str(out, &format::md_text_cow(text))
                } else {
                    std::fmt::Write::write_str(out, &format::plain_text(text))
                }
                .map_err(minijinja::Error::from)
            };
            // A string is written from where it is, without a copy.
            match value.as_str() {
                Some(text) => write(out, text),
                None => write(out, &value.to_string()),
            }
        });
        for (name, source) in TEMPLATES {
            // Templates are compiled into the binary and every one is rendered by the tests.
            env.add_template(name, source).unwrap_or_else(|e| panic!("template {name}: {e}"));
        }
        format::register(&mut env);
        Renderer { env }
    }

    fn render(&self, template: &'static str, ctx: Value) -> Result<String, RenderError> {
        self.env
            .get_template(template)
            .and_then(|t| t.render(ctx))
            .map_err(|source| RenderError::Template { template, source })
    }

    /// A model's page, its Markdown twin and its JSON. `root` is the relative path from the
    /// page's folder to the site root (`../../`).
    pub fn model(
        &self,
        page: &ModelPage,
        site: &SiteSettings,
        root: &str,
    ) -> Result<ModelFilesOut, RenderError> {
        let ctx = context! { page => Serde(page), siblings => Serde(&page.siblings), site => Serde(site), root => root, glance => glance(page) };
        let html_ctx =
            context! { charts => model_charts(page), calc_data => calc_data(page)?, ..ctx.clone() };
        Ok(ModelFilesOut {
            html: self.render("model.html", html_ctx)?,
            markdown: self.render("model.md.j2", ctx)?,
            json: to_json(&page.json())?,
        })
    }

    /// A model's three files less their sibling part, for a build that plans each model once:
    /// the part depends on every other model, so it is rendered by [`Renderer::model_siblings`]
    /// once all are planned, and goes between each head and tail. `page.siblings` must be empty.
    pub fn model_parts(
        &self,
        page: &ModelPage,
        site: &SiteSettings,
        root: &str,
    ) -> Result<ModelParts, RenderError> {
        let ctx = context! { page => Serde(page), site => Serde(site), root => root, glance => glance(page), sibling_marker => SIBLING_MARKER };
        let html_ctx =
            context! { charts => model_charts(page), calc_data => calc_data(page)?, ..ctx.clone() };
        // Only fixed template text follows the sibling part, so the last marker is the one put
        // there, whatever a config string holds.
        let split = |text: String, template: &'static str| -> Result<(String, String), RenderError> {
            let at = text.rfind(SIBLING_MARKER).ok_or(RenderError::Split { template })?;
            let tail = text[at + SIBLING_MARKER.len()..].to_string();
            let mut head = text;
            head.truncate(at);
            Ok((head, tail))
        };
        let (html_head, html_tail) = split(self.render("model.html", html_ctx)?, "model.html")?;
        let (md_head, md_tail) = split(self.render("model.md.j2", ctx)?, "model.md.j2")?;
        // The JSON ends with the two fields that depend on the site; they are appended later.
        let json = to_json(&page.json())?;
        let suffix = format!(",\"siblings\":[],\"family_size\":{}}}\n", page.family_size);
        let json_head =
            json.strip_suffix(&suffix).ok_or(RenderError::Split { template: "model JSON" })?.to_string();
        Ok(ModelParts { html_head, html_tail, md_head, md_tail, json_head })
    }

    /// The sibling part of a model's three files: what goes between [`ModelParts`]' heads and
    /// tails (for the JSON, what ends it).
    pub fn model_siblings(
        &self,
        view: &SiblingsView,
        site: &SiteSettings,
        root: &str,
    ) -> Result<ModelFilesOut, RenderError> {
        let ctx = context! { page => Serde(view), siblings => Serde(&view.siblings), site => Serde(site), root => root };
        let ids: Vec<&str> = view.siblings.iter().map(|s| s.id.as_str()).collect();
        let siblings = serde_json::to_string(&ids)?;
        Ok(ModelFilesOut {
            html: self.render("model_siblings.html", ctx.clone())?,
            markdown: self.render("model_siblings.md.j2", ctx)?,
            json: format!(",\"siblings\":{siblings},\"family_size\":{}}}\n", view.family_size),
        })
    }

    /// The plan as terminal text, Markdown or JSON.
    pub fn plan(&self, page: &ModelPage, format: PlanFormat) -> Result<String, RenderError> {
        let ctx = context! { page => Serde(page), siblings => Serde(&page.siblings), root => "", glance => glance(page) };
        match format {
            PlanFormat::Text => self.render("plan.txt.j2", ctx),
            PlanFormat::Markdown => self.render("model.md.j2", ctx),
            PlanFormat::Json => to_json(&page.json()),
        }
    }

    pub fn family(&self, view: &FamilyView, site: &SiteSettings) -> Result<ModelFilesOut, RenderError> {
        let ctx = context! { family => Serde(view), site => Serde(site), root => "../" };
        Ok(ModelFilesOut {
            html: self.render("family.html", ctx.clone())?,
            markdown: self.render("family.md.j2", ctx)?,
            json: to_json(view)?,
        })
    }

    pub fn index(&self, view: &IndexView, site: &SiteSettings) -> Result<ModelFilesOut, RenderError> {
        let ctx = context! { index => Serde(view), site => Serde(site), root => "" };
        Ok(ModelFilesOut {
            html: self.render("index.html", ctx.clone())?,
            markdown: self.render("index.md.j2", ctx)?,
            json: to_json(view)?,
        })
    }

    /// Files for crawlers and agents: (path, contents) for `sitemap.xml`, `robots.txt`,
    /// `llms.txt` and `404.html`. Sitemaps require absolute URLs from `base_url`; the 404 page,
    /// served at whatever path was asked for, links from the root of base_url's path.
    pub fn extras(
        &self,
        index: &IndexView,
        site: &SiteSettings,
    ) -> Result<Vec<(&'static str, String)>, RenderError> {
        let ctx = context! { index => Serde(index), site => Serde(site), root => site.base_url.clone() };
        // The 404 page links root-relative (base_url's path only): absolute URLs would send a
        // reader of a mirror or a preview deployment to another host.
        let path =
            url::Url::parse(&site.base_url).map(|u| u.path().to_string()).unwrap_or_else(|_| "/".into());
        let not_found = context! { root => path, ..ctx.clone() };
        Ok(vec![
            ("sitemap.xml", self.render("sitemap.j2", ctx.clone())?),
            ("robots.txt", self.render("robots.txt.j2", ctx.clone())?),
            ("llms.txt", self.render("llms.txt.j2", ctx)?),
            ("404.html", self.render("404.html", not_found)?),
        ])
    }

    /// The "Plan your own model" page (`plan.html`), which runs the planner in the browser.
    pub fn planner(&self, site: &SiteSettings) -> Result<String, RenderError> {
        let ctx = context! { site => Serde(site), root => "", recipes => Serde(&crate::estimate::training::RECIPES) };
        self.render("plan.html", ctx)
    }

    /// The "Recent changes" page: every model's changes upstream, newest first.
    pub fn changes(
        &self,
        entries: &[crate::feeds::FeedEntry],
        site: &SiteSettings,
    ) -> Result<String, RenderError> {
        self.render("changes.html", context! { entries => Serde(entries), site => Serde(site), root => "" })
    }

    /// The method page: written in Markdown (a template, so the constants and rules it lists are
    /// the code's own), turned into HTML with pulldown-cmark. Returns (html, markdown).
    pub fn method(&self, site: &SiteSettings) -> Result<(String, String), RenderError> {
        let ctx = context! {
            site => Serde(site),
            root => "",
            rules => Serde(crate::estimate::lints::RULES),
            assumptions => Serde(crate::estimate::memory_baseline::ASSUMPTIONS),
            cards => Serde(crate::estimate::cards::builtin()),
            max_plan_seq => crate::plan::MAX_PLAN_SEQ,
        };
        let markdown = self.render("method.md.j2", ctx.clone())?;
        let mut body = String::new();
        let parser = pulldown_cmark::Parser::new_ext(
            &markdown,
            pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES,
        );
        pulldown_cmark::html::push_html(&mut body, parser);
        // Wide tables scroll inside a region a keyboard can reach (axe scrollable-region-focusable).
        let mut n = 0;
        let body = body
            .split("<table>")
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part.to_string()
                } else {
                    n += 1;
                    format!(
                        r#"<div class="scroll" tabindex="0" role="region" aria-label="Table {n}"><table>{}"#,
                        part.replacen("</table>", "</table></div>", 1)
                    )
                }
            })
            .collect::<String>();
        let html = self.render("method.html", context! { body => Value::from_safe_string(body), ..ctx })?;
        Ok((html, markdown))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "io", derive(clap::ValueEnum))]
pub enum PlanFormat {
    Text,
    #[cfg_attr(feature = "io", value(name = "md"))]
    Markdown,
    Json,
}

/// What the page's calculator evaluates: each mode's exported phases, the cards and the bands, as
/// JSON safe to embed in a `<script type="application/json">` (no `<`, `>` or `&`: a card named
/// `<!--<script>` would otherwise hide the rest of the page from an HTML parser). Null without a
/// plan.
fn calc_data(page: &ModelPage) -> Result<Value, RenderError> {
    use serde_json::json;
    let Some(fit) = page.fit.as_ref() else { return Ok(Value::from(())) };
    // Compact, since every page carries it: a phase is one array `[name, fixed, per_sample,
    // per_token, per_token_sq, windowed_per_token, window]`, whole numbers without `.0`, and the
    // labels and card names are the form's own option texts.
    let phases = |m: &crate::estimate::memory_model::MemoryModel| {
        m.phases
            .iter()
            .map(|p| {
                let c = &p.coefficients;
                json!([
                    p.name,
                    whole(c.fixed_bytes),
                    whole(c.per_sample_bytes),
                    whole(c.per_token_bytes),
                    whole(c.per_token_sq_bytes),
                    whole(c.windowed_per_token_bytes),
                    c.window
                ])
            })
            .collect::<Vec<_>>()
    };
    let default_recipe = page.training.as_ref().map(|t| t.options.recipe.id);
    let data = json!({
        "seq": fit.seq_len,
        "context": page.config.as_ref().map(|c| c.context),
        "comfortable_share": crate::estimate::fit::COMFORTABLE_SHARE,
        "fit_share": crate::estimate::fit::FIT_SHARE,
        "modes": fit.modes.iter().map(|m| json!({"id": m.id, "training": m.training, "phases": phases(&m.model)})).collect::<Vec<_>>(),
        // The full fine-tune under each other recipe (the default's phases are `modes[full]`).
        "default_recipe": default_recipe,
        "recipes": page.training.as_ref().map(|t| t.recipes.iter().filter(|r| Some(r.id) != default_recipe).map(|r| json!({"id": r.id, "phases": phases(&r.full_memory)})).collect::<Vec<_>>()).unwrap_or_default(),
        "allocator_reserve_fraction": fit.allocator_reserve_fraction,
        // [id, memory_gb, context_bytes, workspace_bytes]
        "cards": fit.cards.iter().map(|c| json!([c.card, whole(c.memory_gb), whole(c.runtime.context_bytes), whole(c.runtime.workspace_bytes)])).collect::<Vec<_>>(),
    });
    Ok(Value::from_safe_string(format::script_json(&serde_json::to_string(&data)?)))
}

/// A float as JSON, written as an integer when it is one (`4096` rather than `4096.0`).
fn whole(x: f64) -> serde_json::Value {
    // Below 2^53 every whole f64 is exact as an i64.
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        serde_json::Value::from(x as i64)
    } else {
        serde_json::Value::from(x)
    }
}

/// The answer on top of a model page: for each mode, the batch-1 peak at the plan's length and
/// the smallest card (cards are listed by memory) on which batch 1 fits, with its verdict and
/// largest batch. The same figures as the fit table, chosen so that a reader needs nothing else.
#[derive(Debug, Serialize)]
struct GlanceRow {
    id: &'static str,
    label: String,
    peak_bytes: f64,
    peak_phase: String,
    card: Option<String>,
    card_gb: Option<f64>,
    verdict: Option<crate::estimate::fit::Verdict>,
    largest_batch: u64,
}

fn glance(page: &ModelPage) -> Value {
    let Some(fit) = page.fit.as_ref() else { return Value::from(()) };
    let rows: Vec<GlanceRow> = fit
        .modes
        .iter()
        .map(|m| {
            let first = fit.cards.iter().find_map(|c| {
                c.modes.iter().find(|cm| cm.mode == m.id && cm.largest_batch > 0).map(|cm| (c, cm))
            });
            GlanceRow {
                id: m.id,
                label: m.label.clone(),
                peak_bytes: m.batch1_peak_bytes,
                peak_phase: m.peak_phase.clone(),
                card: first.map(|(c, _)| c.name.clone()),
                card_gb: first.map(|(c, _)| c.memory_gb),
                verdict: first.map(|(_, cm)| cm.verdict),
                largest_batch: first.map_or(0, |(_, cm)| cm.largest_batch),
            }
        })
        .collect();
    Value::from(Serde(rows))
}

/// The model page's SVG charts by name; only the HTML page shows them (the JSON carries the
/// numbers they are drawn from).
fn model_charts(page: &ModelPage) -> Value {
    let mut out: std::collections::BTreeMap<String, Value> = std::collections::BTreeMap::new();
    let Some(fit) = page.fit.as_ref() else { return Value::from(out) };
    // Short names: the recipe behind each mode is stated once, above the charts.
    let label = |id: &str| {
        match id {
            "full" => "Full fine-tune",
            "lora" => "LoRA",
            "qlora" => "QLoRA",
            "serve" => "Serve",
            other => other,
        }
        .to_string()
    };
    // No chart of the largest batch per card: it would repeat the fit table's columns.
    // What makes up each mode's peak at batch 1 (the items of the phase that sets it), against
    // the capacity of a few cards.
    let caps: Vec<(String, f64)> = fit
        .cards
        .iter()
        .filter(|c| ["t4-16gb", "a100-40gb", "a100-80gb", "h200-141gb"].contains(&c.card.as_str()))
        .map(|c| (c.name.clone(), c.memory_gb * 1e9))
        .collect();
    if let Some(t) = page.training.as_ref() {
        let mut rows: Vec<(String, Vec<(String, f64)>)> =
            [("Full fine-tune", &t.full), ("LoRA", &t.lora), ("QLoRA", &t.qlora)]
                .into_iter()
                .map(|(name, m)| {
                    let b = &m.breakdown;
                    let mut segs = vec![
                        ("weights".to_string(), b.weights),
                        ("gradients".to_string(), b.gradients),
                        ("optimizer states".to_string(), b.optimizer_states),
                    ];
                    match m.peak_phase.as_str() {
                        "optimizer step" => segs.push(("optimizer step".into(), b.step_transient)),
                        phase => {
                            segs.push(("activations".into(), b.activations));
                            // One segment, so that the eight colours cover every name.
                            if phase == "logits and loss" {
                                segs.push(("logits and loss".into(), b.logits + b.loss_transient));
                            }
                        }
                    }
                    (name.to_string(), segs)
                })
                .collect();
        if let (Some(sv), Some(serve)) = (page.serving.as_ref(), fit.modes.iter().find(|m| m.id == "serve")) {
            let weights = sv.weights.iter().find(|w| w.precision == "bf16").map_or(0.0, |w| w.bytes);
            let rest = if sv.kv.is_some() { "KV cache" } else { "forward pass" };
            rows.push((
                "Serve".into(),
                vec![
                    ("weights".into(), weights),
                    (rest.into(), (serve.batch1_peak_bytes - weights).max(0.0)),
                ],
            ));
        }
        let title = format!("Memory at batch 1 and {} tokens, by what holds it", fit.seq_len);
        out.insert(
            "breakdown".into(),
            Value::from_safe_string(charts::stacked("breakdown", &title, &rows, &caps)),
        );
    }
    // Peak at batch 1 against the sequence length, from each mode's exported formula.
    let series: Vec<(String, Vec<(u64, f64)>)> = fit
        .modes
        .iter()
        .map(|m| (label(m.id), fit.sweep_seqs.iter().map(|s| (*s, m.model.peak(1, *s).0)).collect()))
        .collect();

    // A sweep of two close lengths (xlm-roberta: 512 and 514) has no curve to show.
    let spread = match (fit.sweep_seqs.first(), fit.sweep_seqs.last()) {
        (Some(a), Some(b)) if *a > 0 => *b as f64 / *a as f64,
        _ => 1.0,
    };
    if fit.sweep_seqs.len() > 2 && spread >= 4.0 {
        let title = "Peak memory at batch 1 against sequence length";
        out.insert(
            "by_length".into(),
            Value::from_safe_string(charts::lines("by_length", title, &series, &caps)),
        );
    }
    Value::from(out)
}

/// Compact JSON with a trailing newline (pretty-printing cost a model's JSON 40% of its bytes;
/// `jq .` restores it); serde_json keeps struct field order, so output is stable.
fn to_json<T: Serialize>(value: &T) -> Result<String, RenderError> {
    let mut s = serde_json::to_string(value)?;
    s.push('\n');
    Ok(s)
}

/// A family page's view (also its JSON).
#[derive(Debug, Clone, Serialize)]
pub struct FamilyView {
    pub schema_version: u32,
    pub key: String,
    pub name: String,
    pub supported: bool,
    pub summary: Option<String>,
    pub derives_from: Option<FamilyLink>,
    pub derived_by: Vec<FamilyLink>,
    pub models: Vec<ModelSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FamilyLink {
    pub key: String,
    pub name: String,
    /// Null when the site has no page for that family (no model of it was built).
    pub url: Option<String>,
}

/// The index's view (also `index.json`).
#[derive(Debug, Clone, Serialize)]
pub struct IndexView {
    pub schema_version: u32,
    pub title: String,
    pub cards: Vec<String>,
    pub families: Vec<FamilyLink>,
    pub models: Vec<ModelSummary>,
}
