//! The renderers: HTML (autoescaped minijinja templates), the Markdown twin, the JSON file and the
//! terminal text, all from the same view structs. One [`Renderer`] holds the template environment;
//! it is `Sync`, and the batch builder shares it across rayon threads.
//!
//! Templates are compiled into the binary (`templates/`), so the site builds with no file beside
//! the executable.

pub mod format;

use std::sync::Arc;

use minijinja::value::{Enumerator, Object, ObjectRepr, Serde};
use minijinja::{AutoEscape, Environment, UndefinedBehavior, Value, context};
use serde::Serialize;

use crate::manifest::SiteSettings;
use crate::page::{FamilyRow, ModelPage, ModelSummary, SiblingsView};

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

/// The site-wide files made from the index ([`Renderer::index_file_to`]), in the order a build
/// writes them.
pub const INDEX_FILES: [&str; 7] =
    ["index.html", "index.md", "index.json", "sitemap.xml", "robots.txt", "llms.txt", "404.html"];

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
];

/// The site's other pages. The in-browser planner (built without `io`) renders only a model's
/// page, Markdown and text, and leaves these out of its module (the 1.5 MB budget).
/// The terminal plan (`modelatlas plan`), which the browser's planner never shows.
#[cfg(feature = "io")]
pub const TEXT_TEMPLATES: &[(&str, &str)] = &[("plan.txt.j2", include_str!("../../templates/plan.txt.j2"))];

#[cfg(feature = "io")]
pub const SITE_TEMPLATES: &[(&str, &str)] = &[
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
        #[cfg(feature = "io")]
        let mut env = Environment::new();
        #[cfg(not(feature = "io"))]
        let mut env = planner_environment();
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
                AutoEscape::Html => return html_formatter(out, value),
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
        #[cfg(feature = "io")]
        let templates = TEMPLATES.iter().chain(TEXT_TEMPLATES).chain(SITE_TEMPLATES);
        #[cfg(not(feature = "io"))]
        let templates = TEMPLATES.iter();
        for (name, source) in templates {
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
        let folded = page.folded();
        let ctx = context! { page => PageValue::of(page), siblings => Serde(&page.siblings), site => Serde(site), root => root, glance => glance(page), v => view(page, folded.as_deref()), src => sources(page) };
        let html_ctx = context! { calc_data => calc_data(page)?, ..ctx.clone() };
        Ok(ModelFilesOut {
            html: self.render("model.html", html_ctx)?,
            markdown: self.render("model.md.j2", ctx)?,
            json: to_json(&page.json_with(folded.as_deref()))?,
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
        let folded = page.folded();
        let ctx = context! { page => PageValue::of(page), site => Serde(site), root => root, glance => glance(page), v => view(page, folded.as_deref()), src => sources(page), sibling_marker => SIBLING_MARKER };
        let html_ctx = context! { calc_data => calc_data(page)?, ..ctx.clone() };
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
        let mut json_head = to_json(&page.json_with(folded.as_deref()))?;
        let suffix = format!(",\"family_size\":{}}}\n", page.family_size);
        let head_len =
            json_head.strip_suffix(&suffix).ok_or(RenderError::Split { template: "model JSON" })?.len();
        json_head.truncate(head_len);
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
        // The sibling part's templates read the page's family and URL: the siblings' summaries
        // (twelve per model, made into template values twice) are left out.
        let page = SiblingsPage {
            id: &view.id,
            url: &view.url,
            family: &view.family,
            family_name: &view.family_name,
            architecture: &view.architecture,
            supported: view.supported,
            config: &view.config,
            params: &view.params,
            family_size: view.family_size,
        };
        let ctx = context! { page => Serde(page), site => Serde(site), root => root };
        Ok(ModelFilesOut {
            html: self.render("model_siblings.html", ctx.clone())?,
            markdown: self.render("model_siblings.md.j2", ctx)?,
            json: format!(",\"family_size\":{}}}\n", view.family_size),
        })
    }

    /// The plan as terminal text, Markdown or JSON.
    pub fn plan(&self, page: &ModelPage, format: PlanFormat) -> Result<String, RenderError> {
        let ctx = || context! { page => Serde(page), siblings => Serde(&page.siblings), root => "", glance => glance(page), v => view(page, page.folded().as_deref()), src => sources(page) };
        match format {
            // Only the terminal text shows the training inputs on their own.
            #[cfg(feature = "io")]
            PlanFormat::Text => {
                self.render("plan.txt.j2", context! { training => Serde(&page.training), ..ctx() })
            }
            PlanFormat::Markdown => self.render("model.md.j2", ctx()),
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

    pub fn index(&self, view: &Arc<IndexView>, site: &SiteSettings) -> Result<ModelFilesOut, RenderError> {
        Ok(ModelFilesOut {
            html: self.index_file(view, site, "index.html")?,
            markdown: self.index_file(view, site, "index.md")?,
            json: self.index_file(view, site, "index.json")?,
        })
    }

    /// Files for crawlers and agents: (path, contents) for `sitemap.xml`, `robots.txt`,
    /// `llms.txt` and `404.html` (a build streams them: [`Renderer::index_file_to`]).
    pub fn extras(
        &self,
        index: &Arc<IndexView>,
        site: &SiteSettings,
    ) -> Result<Vec<(&'static str, String)>, RenderError> {
        INDEX_FILES[3..].iter().map(|&file| Ok((file, self.index_file(index, site, file)?))).collect()
    }

    /// [`Renderer::index_file_to`], as a string.
    fn index_file(
        &self,
        view: &Arc<IndexView>,
        site: &SiteSettings,
        file: &'static str,
    ) -> Result<String, RenderError> {
        let mut out = Vec::new();
        self.index_file_to(view, site, file, &mut out)?;
        // Templates and serde_json write UTF-8 only: never replaced, never copied.
        Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
    }

    /// One of [`INDEX_FILES`], written to `out` as it is rendered: at 10,000 models the index's
    /// files are 14 MB, which held whole (and grown by doubling) were a build's last peak.
    pub fn index_file_to(
        &self,
        view: &Arc<IndexView>,
        site: &SiteSettings,
        file: &'static str,
        out: &mut dyn std::io::Write,
    ) -> Result<(), RenderError> {
        if file == "index.json" {
            serde_json::to_writer(&mut *out, &**view)?;
            return out.write_all(b"\n").map_err(|e| RenderError::Json(serde_json::Error::io(e)));
        }
        // Files for crawlers and agents (sitemap.xml, robots.txt, llms.txt, 404.html) link from
        // base_url: sitemaps require absolute URLs. The 404 page, served at whatever path was
        // asked for, links root-relative (base_url's path only): absolute URLs would send a
        // reader of a mirror or a preview deployment to another host.
        let root = match file {
            "index.html" | "index.md" => String::new(),
            "404.html" => {
                url::Url::parse(&site.base_url).map(|u| u.path().to_string()).unwrap_or_else(|_| "/".into())
            }
            _ => site.base_url.clone(),
        };
        let template = match file {
            "index.md" => "index.md.j2",
            "sitemap.xml" => "sitemap.j2",
            "robots.txt" => "robots.txt.j2",
            "llms.txt" => "llms.txt.j2",
            other => other,
        };
        // The model JSON's schema version: llms.txt names it.
        let ctx = context! {
            index => IndexObject::value(view),
            site => Serde(site),
            root => root,
            model_schema_version => crate::page::SCHEMA_VERSION,
        };
        self.env
            .get_template(template)
            .and_then(|t| t.render_captured_to(ctx, out))
            .map(drop)
            .map_err(|source| RenderError::Template { template, source })
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
    #[cfg(feature = "io")]
    Text,
    #[cfg_attr(feature = "io", value(name = "md"))]
    Markdown,
    Json,
}

/// The browser's planner renders only the model page's templates, which use a handful of
/// minijinja's builtins: an empty environment with just those leaves the other filters, tests and
/// globals out of static/planner.wasm (the linker keeps every builtin `Environment::new` lists).
/// The same functions as the builtins, so the pages match the CLI's byte for byte.
#[cfg(not(feature = "io"))]
fn planner_environment() -> Environment<'static> {
    use minijinja::{Error, ErrorKind, filters, tests};
    // As the builtins do in strict mode: an undefined value is an error, not an empty list.
    fn iterable(v: &Value) -> Result<(), Error> {
        if v.is_undefined() {
            return Err(Error::new(ErrorKind::UndefinedError, "undefined value"));
        }
        Ok(())
    }
    let mut env = Environment::empty();
    env.add_filter("safe", filters::safe);
    env.add_filter("escape", filters::escape);
    env.add_filter("replace", filters::replace);
    env.add_filter("length", |v: &Value| iterable(v).and_then(|()| filters::length(v)));
    env.add_filter("last", |v: Value| iterable(&v).and_then(|()| filters::last(v)));
    env.add_filter("list", filters::list);
    env.add_filter("split", filters::split);
    env.add_filter("join", filters::join);
    env.add_filter("rejectattr", filters::rejectattr);
    env.add_test("defined", tests::is_defined);
    env.add_test("undefined", tests::is_undefined);
    env.add_test("none", tests::is_none);
    env
}

/// HTML escaping of `&`, `<`, `>`, `"` and `'`, which is enough in text and in quoted attribute
/// values (every attribute in the templates is quoted). minijinja's own also writes `/` as
/// `&#x2f;`, which cost a model page hundreds of bytes of `..&#x2f;..&#x2f;` in its links.
fn html_formatter(out: &mut minijinja::Output, value: &Value) -> Result<(), minijinja::Error> {
    use minijinja::value::ValueKind;
    let text = match value.as_str() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(value.to_string()),
    };
    let plain = value.is_safe()
        || matches!(
            value.kind(),
            ValueKind::Undefined | ValueKind::None | ValueKind::Bool | ValueKind::Number
        );
    let write = |out: &mut minijinja::Output, s: &str| {
        std::fmt::Write::write_str(out, s).map_err(minijinja::Error::from)
    };
    if plain || !text.contains(['&', '<', '>', '"', '\'']) {
        return write(out, &text);
    }
    write(out, &format::html(&text))
}

/// What the page's calculator evaluates, as compact JSON safe to embed in a `<script
/// type="application/json">` (no `<`, `>` or `&`: a card named `<!--<script>` would otherwise
/// hide the rest of the page from an HTML parser); null without a plan. Every page carries it, so
/// it is terse (`static/calc.js` reads it):
/// - `s` the plan's length, `x` the context, `c` and `f` the comfortable and fit shares of a card,
///   `r` the allocator's reserve;
/// - `n` the phase names, once; a phase is `[name index, fixed, per_sample, per_token,
///   per_token_sq, windowed_per_token, window]`, whole numbers without `.0` and trailing zeros
///   left off;
/// - `m` the modes, `[id, training (0/1), phases]`; `d` the default recipe and `rc` the full
///   fine-tune under each other recipe, `[id, phases]`, where a phase that differs from the
///   default's same phase only in its fixed bytes is that number alone;
///
/// The cards are not here: every page (and `plan.html`) loads the build's catalogue once, from
/// `static/cards.js` ([`cards_js`]).
fn calc_data(page: &ModelPage) -> Result<Value, RenderError> {
    use serde_json::json;
    let Some(fit) = page.fit.as_ref() else { return Ok(Value::from(())) };
    let mut names: Vec<String> = vec![];
    let mut phases = |m: &crate::estimate::memory_model::MemoryModel| {
        m.phases
            .iter()
            .map(|p| {
                let c = &p.coefficients;
                let at = names.iter().position(|n| *n == p.name).unwrap_or_else(|| {
                    names.push(p.name.to_string());
                    names.len() - 1
                });
                let mut row = vec![
                    json!(at),
                    whole(c.fixed_bytes),
                    whole(c.per_sample_bytes),
                    whole(c.per_token_bytes),
                    whole(c.per_token_sq_bytes),
                    whole(c.windowed_per_token_bytes),
                    json!(c.window),
                ];
                while row.len() > 2 && row.last().and_then(|v| v.as_f64()) == Some(0.0) {
                    row.pop();
                }
                serde_json::Value::Array(row)
            })
            .collect::<Vec<_>>()
    };
    let default_recipe = page.training.as_ref().map(|t| t.options.recipe.id);
    let modes: Vec<_> =
        fit.modes.iter().map(|m| json!([m.id, u8::from(m.training), phases(&m.model)])).collect();
    let full_default: Vec<serde_json::Value> =
        modes.iter().find(|m| m[0] == "full").and_then(|m| m[2].as_array().cloned()).unwrap_or_default();
    let recipes: Vec<_> = page
        .training
        .as_ref()
        .map(|t| {
            t.recipes
                .iter()
                .filter(|r| Some(r.id) != default_recipe)
                .map(|r| {
                    // A phase that differs from the default recipe's only in its fixed bytes
                    // (the same activations, another optimizer) is written as that number.
                    let own = phases(&r.full_memory);
                    let rows: Vec<serde_json::Value> = own
                        .into_iter()
                        .enumerate()
                        .map(|(i, p)| match (full_default.get(i), p.as_array()) {
                            (Some(d), Some(a))
                                if d.as_array().is_some_and(|d| {
                                    d.len() == a.len() && d[0] == a[0] && d[2..] == a[2..]
                                }) =>
                            {
                                a[1].clone()
                            }
                            _ => p,
                        })
                        .collect();
                    json!([r.id, rows])
                })
                .collect()
        })
        .unwrap_or_default();
    let data = json!({
        "s": fit.seq_len,
        "x": page.config.as_ref().map(|c| c.context),
        "c": crate::estimate::fit::COMFORTABLE_SHARE,
        "f": crate::estimate::fit::FIT_SHARE,
        "r": fit.allocator_reserve_fraction,
        "n": names,
        "m": modes,
        "d": default_recipe,
        "rc": recipes,
    });
    Ok(Value::from_safe_string(format::script_json(&serde_json::to_string(&data)?)))
}

/// One card as the calculator reads it.
fn card_row(
    id: &str,
    name: &str,
    memory_gb: f64,
    rt: &crate::estimate::runtime::CardRuntime,
    usd_per_hour: f64,
) -> serde_json::Value {
    serde_json::json!([
        id,
        name,
        whole(memory_gb),
        whole(rt.context_bytes),
        whole(rt.workspace_bytes),
        whole(usd_per_hour)
    ])
}

/// `static/cards.js`: the build's card catalogue for every model page's calculator, once per site
/// rather than once per page (a script, not a JSON file to fetch, so that pages opened from disk
/// work too).
pub fn cards_js(cards: &[crate::estimate::cards::Card]) -> Result<String, RenderError> {
    let rows: Vec<serde_json::Value> = cards
        .iter()
        .map(|c| {
            card_row(
                &c.id,
                &c.name,
                c.memory_gb,
                &crate::estimate::runtime::card_runtime(c),
                c.price_usd_per_hour,
            )
        })
        .collect();
    // The fit's constants, for the calculator of a page that reads its model's JSON (a page the
    // planner makes carries them in its own `calc-data`).
    let fit = serde_json::json!({
        "c": crate::estimate::fit::COMFORTABLE_SHARE,
        "f": crate::estimate::fit::FIT_SHARE,
        "r": crate::estimate::runtime::ALLOCATOR_RESERVE_FRACTION,
    });
    Ok(format!(
        "// The fit's shares (comfortable, fits) and the allocator's reserve.\nwindow.modelatlasFit = {};\n// The card catalogue of this build: [id, name, memory_gb, context_bytes, workspace_bytes, usd_per_hour].\nwindow.modelatlasCards = {};\n",
        format::script_json(&serde_json::to_string(&fit)?),
        format::script_json(&serde_json::to_string(&rows)?)
    ))
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

/// What the model templates (`model.html`, `model.md.j2` and the sibling part they include) read
/// of a [`ModelPage`] as `page`: the same fields, serialised as the page serialises them, less
/// what they never read (every card's fit and multi-card splits, the parts, the reconciliation's
/// tensors, serving, cost), which made into template values for every page was most of the
/// conversion's time. A template that reads another field fails (strict undefined).
#[derive(Serialize)]
struct PageValue<'a> {
    id: &'a str,
    url: &'a Option<String>,
    family: &'a str,
    family_name: &'a str,
    derives_from: &'a Option<String>,
    architecture: &'a Option<String>,
    supported: bool,
    unsupported_reason: &'a Option<String>,
    config: &'a Option<crate::config::Dims>,
    config_facts: &'a [(String, String)],
    defaulted: &'a [crate::config::Defaulted],
    params: Option<ParamsValue<'a>>,
    fit: Option<FitValue<'a>>,
    lints: &'a [crate::estimate::lints::Lint],
    changes: &'a [crate::changes::ChangeView],
    family_size: usize,
}

/// `page.params` as the model templates read it.
#[derive(Serialize)]
struct ParamsValue<'a> {
    derived: u64,
    active: u64,
    checkpoint: Option<u64>,
    delta: Option<i64>,
    delta_pct: Option<f64>,
    other_release: &'a Option<crate::graph::release::ReleaseNote>,
}

/// `page.fit` as the model templates read it: the length and each mode's id and label.
#[derive(Serialize)]
struct FitValue<'a> {
    seq_len: u64,
    modes: Vec<ModeValue<'a>>,
}

#[derive(Serialize)]
struct ModeValue<'a> {
    id: &'a str,
    label: &'a str,
}

impl PageValue<'_> {
    fn of(page: &ModelPage) -> Value {
        Value::from(Serde(PageValue {
            id: &page.id,
            url: &page.url,
            family: &page.family,
            family_name: &page.family_name,
            derives_from: &page.derives_from,
            architecture: &page.architecture,
            supported: page.supported,
            unsupported_reason: &page.unsupported_reason,
            config: &page.config,
            config_facts: &page.config_facts,
            defaulted: &page.defaulted,
            params: page.params.as_ref().map(|p| ParamsValue {
                derived: p.derived,
                active: p.active,
                checkpoint: p.checkpoint,
                delta: p.delta,
                delta_pct: p.delta_pct,
                other_release: &p.other_release,
            }),
            fit: page.fit.as_ref().map(|f| FitValue {
                seq_len: f.seq_len,
                modes: f.modes.iter().map(|m| ModeValue { id: m.id, label: &m.label }).collect(),
            }),
            lints: &page.lints,
            changes: &page.changes,
            family_size: page.family_size,
        }))
    }
}

/// A [`SiblingsView`] less its siblings, as the sibling part's templates read it (`page`).
#[derive(Serialize)]
struct SiblingsPage<'a> {
    id: &'a str,
    url: &'a Option<String>,
    family: &'a str,
    family_name: &'a str,
    architecture: &'a Option<String>,
    supported: bool,
    config: &'a Option<crate::page::SiblingDims>,
    params: &'a Option<crate::page::SiblingParams>,
    family_size: usize,
}

/// The answer on top of a model page: for each mode, the batch-1 peak at the plan's length and
/// the smallest card (cards are listed by memory) on which batch 1 fits, with its verdict and
/// largest batch; where no card holds batch 1, the cheapest way to split it over several. The
/// same figures as the fit table, chosen so that a reader needs nothing else.
#[derive(Debug, Serialize)]
struct GlanceRow {
    id: &'static str,
    name: &'static str,
    label: String,
    peak_bytes: f64,
    peak_phase: String,
    card: Option<String>,
    card_gb: Option<f64>,
    verdict: Option<crate::estimate::fit::Verdict>,
    largest_batch: u64,
    /// `2 × H200 141 GB (FSDP)`: the fewest-dollar split when no single card holds batch 1.
    split: Option<String>,
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
            let split = if first.is_some() {
                None
            } else {
                let name = |id: &str| {
                    fit.cards.iter().find(|c| c.card == id).map_or_else(|| id.to_string(), |c| c.name.clone())
                };
                fit.multi_card
                    .iter()
                    .filter(|mc| mc.mode == m.id)
                    .flat_map(|mc| {
                        [("FSDP", mc.fsdp.as_ref()), ("pipeline", mc.pipeline.as_ref())]
                            .into_iter()
                            .filter_map(move |(how, s)| s.map(|s| (how, s, mc.card.as_str())))
                    })
                    .min_by(|a, b| {
                        a.1.usd_per_hour.total_cmp(&b.1.usd_per_hour).then(a.1.cards.cmp(&b.1.cards))
                    })
                    .map(|(how, s, card)| format!("{} × {} ({how})", s.cards, name(card)))
            };
            GlanceRow {
                id: m.id,
                name: match m.id {
                    "full" => "Full fine-tune",
                    "lora" => "LoRA",
                    "qlora" => "QLoRA",
                    "serve" => "Serve",
                    _ => "",
                },
                label: m.label.clone(),
                peak_bytes: m.batch1_peak_bytes,
                peak_phase: m.peak_phase.clone(),
                card: first.map(|(c, _)| c.name.clone()),
                card_gb: first.map(|(c, _)| c.memory_gb),
                verdict: first.map(|(_, cm)| cm.verdict),
                largest_batch: first.map_or(0, |(_, cm)| cm.largest_batch),
                split,
            }
        })
        .collect();
    Value::from(Serde(rows))
}

/// What the model templates show beyond the identity, the parameters and the lints, computed here
/// from the Rust structs so that the JSON's shape (`page.rs`) can change without breaking a
/// template: the fit table, what makes up each peak, serving and cost in one line each, and the
/// forward-pass check. Null without a plan.
#[derive(Debug, Serialize)]
struct PageView {
    /// The full fine-tune's recipe and the LoRA rank, stated once on the page.
    recipe: Option<&'static str>,
    lora_rank: Option<u64>,
    /// One row per card: name, native bf16, and per mode (in `fit.modes` order) the largest batch
    /// at the plan's length and the verdict.
    fit: Vec<FitRow>,
    /// Per mode, what holds memory at the batch-1 peak (the items of the phase that sets it).
    makeup: Makeup,
    /// Weights per precision: (precision, bytes).
    weights: Vec<(&'static str, f64)>,
    kv_per_token: Option<u64>,
    kv_per_token_fp8: Option<u64>,
    kv_at_context: Option<u64>,
    encoder_per_token: Option<u64>,
    /// State-space layers and the recurrent state each keeps per sequence, in values.
    recurrent: Option<(u64, u64)>,
    serving_notes: Vec<String>,
    vision: Option<Vision>,
    cost: Option<CostLine>,
    forward_ok: bool,
    problems: Vec<String>,
    nodes: usize,
    /// Parts as (part, repeat, each, total, the layer indices `{i}` takes in words, empty for a
    /// part without `{i}`), runs of like layers folded; tied tensors as (tensor, tied to).
    parts: Vec<(String, u64, u64, u64, String)>,
    tied: Vec<(String, String)>,
    checkpoint_dtype: Option<String>,
    checkpoint_exact: bool,
    by_dtype: Vec<(String, u64)>,
    /// The difference against the checkpoint, item by item, when it is explained.
    recon: Vec<ReconItem>,
    status: Option<crate::estimate::reconcile::Status>,
    unexplained: Option<i64>,
    alternatives: Vec<Vec<String>>,
    /// Per lint, its fix where it names this model's numbers; null where it is the rule's own,
    /// which the method page states once (`#lint-<id>`), as the JSON's `lints[].fix` does.
    own_fix: Vec<Option<String>>,
}

#[derive(Debug, Serialize)]
struct ReconItem {
    label: String,
    tensors: Vec<String>,
    count: u64,
    scalars: i64,
    reason: String,
}

/// Where the config, the checkpoint's count and the popularity figures come from.
#[derive(Debug, Serialize)]
struct Sources {
    config_source: Option<String>,
    revision: Option<String>,
    verification: Option<String>,
    config_notes: Option<String>,
    checkpoint_source: Option<String>,
    checkpoint_notes: Option<String>,
    downloads: Option<(u64, String)>,
    likes: Option<u64>,
    last_modified: Option<String>,
    gated: Option<String>,
}

/// A vision-language model's parts and what an image costs in tokens.
#[derive(Debug, Serialize)]
struct Vision {
    tower: String,
    tower_params: u64,
    projector_params: u64,
    language_model: String,
    language_model_params: u64,
    image_size: u64,
    patch_size: u64,
    image_tokens: Option<u64>,
}

#[derive(Debug, Serialize)]
struct FitRow {
    name: String,
    bf16: bool,
    cells: Vec<(u64, crate::estimate::fit::Verdict)>,
}

/// What holds memory at each mode's batch-1 peak, as a table narrow enough for a phone: a column
/// per mode, a row per item some mode holds (in `MAKEUP_ITEMS` order).
#[derive(Debug, Serialize)]
struct Makeup {
    /// Per mode: its name and the phase that sets its peak, where its last item does not already
    /// name it.
    modes: Vec<(&'static str, Option<String>)>,
    /// Per item: its name and the bytes per mode; null where the mode holds no such item.
    rows: Vec<(&'static str, Vec<Option<f64>>)>,
}

/// The items, in the order the make-up table gives them, and each row's heading (capitalised
/// here: the planner's WebAssembly build has no `upper` filter).
const MAKEUP_ITEMS: [(&str, &str); 8] = [
    ("weights", "Weights"),
    ("gradients", "Gradients"),
    ("optimizer states", "Optimizer states"),
    ("optimizer step", "Optimizer step"),
    ("activations", "Activations"),
    ("logits and loss", "Logits and loss"),
    ("KV cache", "KV cache"),
    ("forward pass", "Forward pass"),
];

/// A mode's peak: its name, the phase that sets it and what holds memory then (item, bytes).
type ModePeak = (&'static str, String, Vec<(&'static str, f64)>);

fn makeup_table(modes: Vec<ModePeak>) -> Makeup {
    let rows = MAKEUP_ITEMS
        .into_iter()
        .filter(|(item, _)| modes.iter().any(|(_, _, items)| items.iter().any(|i| i.0 == *item)))
        .map(|(item, heading)| {
            (
                heading,
                modes.iter().map(|(_, _, items)| items.iter().find(|i| i.0 == item).map(|i| i.1)).collect(),
            )
        })
        .collect();
    let modes = modes
        .into_iter()
        .map(|(name, phase, items)| {
            (name, (name != "Serve" && items.last().is_none_or(|i| i.0 != phase)).then_some(phase))
        })
        .collect();
    Makeup { modes, rows }
}

#[derive(Debug, Serialize)]
struct CostLine {
    epochs: u64,
    samples: u64,
    batch: u64,
    seq: u64,
    cheapest: Option<crate::estimate::cost::CardCost>,
}

fn sources(page: &ModelPage) -> Value {
    let s = &page.source;
    let p = page.params.as_ref();
    Value::from(Serde(Sources {
        config_source: s.config_source.clone(),
        revision: s.revision.as_ref().map(|r| r.chars().take(7).collect()),
        verification: s.config_verification.clone(),
        config_notes: s.config_notes.clone(),
        checkpoint_source: p.and_then(|p| p.checkpoint_source.clone()),
        checkpoint_notes: p.and_then(|p| p.checkpoint_notes.clone()),
        downloads: s.downloads.as_ref().map(|d| (d.count, d.source.clone())),
        likes: s.likes,
        last_modified: s.last_modified.as_ref().map(|d| d.chars().take(10).collect()),
        gated: s.gated.clone(),
    }))
}

/// The fit table's rows: neighbouring cards with the same figures in every mode share a row
/// ("RTX 4090, L4, A10G 24 GB"), so the table is as short as what it has to say.
fn fit_rows(fit: &crate::estimate::fit::FitView) -> Vec<FitRow> {
    let mut rows: Vec<(Vec<&str>, FitRow)> = vec![];
    for c in &fit.cards {
        let cells: Vec<_> = c.modes.iter().map(|cm| (cm.largest_batch, cm.verdict)).collect();
        match rows.last_mut() {
            Some((names, row)) if row.cells == cells && row.bf16 == c.bf16_native => names.push(&c.name),
            _ => rows.push((vec![&c.name], FitRow { name: String::new(), bf16: c.bf16_native, cells })),
        }
    }
    rows.into_iter()
        .map(|(names, mut row)| {
            // The memory is said once when every name ends with the same " 24 GB".
            let unit = |n: &str| n.rfind(' ').and_then(|i| n[..i].rfind(' ')).map(|i| n[i..].to_string());
            let shared =
                unit(names[0]).filter(|u| names.iter().all(|n| n.ends_with(u.as_str()) && n.len() > u.len()));
            row.name = match shared {
                Some(u) if names.len() > 1 => {
                    let short: Vec<&str> = names.iter().map(|n| &n[..n.len() - u.len()]).collect();
                    format!("{}{u}", short.join(", "))
                }
                _ => names.join(", "),
            };
            row
        })
        .collect()
}

fn view(page: &ModelPage, folded: Option<&[crate::graph::fold::Folded]>) -> Value {
    let Some(fit) = page.fit.as_ref() else { return Value::from(()) };
    let pv = page.params.as_ref();
    let t = page.training.as_ref();
    let sv = page.serving.as_ref();
    let mut makeup: Vec<ModePeak> = t
        .map(|t| {
            [("Full", &t.full), ("LoRA", &t.lora), ("QLoRA", &t.qlora)]
                .into_iter()
                .map(|(name, m)| {
                    let b = &m.breakdown;
                    let mut items = vec![
                        ("weights", b.weights),
                        ("gradients", b.gradients),
                        ("optimizer states", b.optimizer_states),
                    ];
                    match m.peak_phase.as_str() {
                        "optimizer step" => items.push(("optimizer step", b.step_transient)),
                        phase => {
                            items.push(("activations", b.activations));
                            if phase == "logits and loss" {
                                items.push(("logits and loss", b.logits + b.loss_transient));
                            }
                        }
                    }
                    items.retain(|(_, x)| *x > 0.0);
                    (name, m.peak_phase.clone(), items)
                })
                .collect()
        })
        .unwrap_or_default();
    if let (Some(sv), Some(serve)) = (sv, fit.modes.iter().find(|m| m.id == "serve")) {
        let weights = sv.weights.iter().find(|w| w.precision == "bf16").map_or(0.0, |w| w.bytes);
        let rest = if sv.kv.is_some() { "KV cache" } else { "forward pass" };
        makeup.push((
            "Serve",
            serve.peak_phase.clone(),
            vec![("weights", weights), (rest, (serve.batch1_peak_bytes - weights).max(0.0))],
        ));
    }
    let makeup = makeup_table(makeup);
    let out = PageView {
        recipe: t.map(|t| t.options.recipe.id),
        lora_rank: t.map(|t| t.options.lora_rank),
        fit: fit_rows(fit),
        makeup,
        weights: sv.map(|s| s.weights.iter().map(|w| (w.precision, w.bytes)).collect()).unwrap_or_default(),
        kv_per_token: sv.and_then(|s| s.kv.as_ref()).map(|k| k.bytes_per_token_bf16),
        kv_per_token_fp8: sv.and_then(|s| s.kv.as_ref()).map(|k| k.bytes_per_token_fp8),
        kv_at_context: sv.and_then(|s| s.kv.as_ref()).map(|k| k.bytes_at_context_bf16),
        encoder_per_token: sv.and_then(|s| s.encoder_working_bytes_per_token),
        // The first note (which weights quantise) is the same on every page and stands on the
        // method page; an encoder's says what the sentence on its page says.
        recurrent: sv
            .and_then(|s| s.kv.as_ref())
            .and_then(|k| k.layout.recurrent.as_ref())
            .map(|r| (r.layers, r.conv_values + r.ssm_values)),
        // The recurrent state's note is the sentence `recurrent` makes.
        serving_notes: sv
            .filter(|s| s.kv.is_some())
            .map(|s| s.notes.iter().skip(1).filter(|n| !n.starts_with("Recurrent state")).cloned().collect())
            .unwrap_or_default(),
        vision: page.vision.as_ref().map(|v| Vision {
            tower: v.tower.clone(),
            tower_params: v.tower_params,
            projector_params: v.projector_params,
            language_model: v.language_model.clone(),
            language_model_params: v.language_model_params,
            image_size: v.image_size,
            patch_size: v.patch_size,
            image_tokens: v.image_tokens,
        }),
        cost: page.cost.as_ref().map(|c| CostLine {
            epochs: c.training.inputs.epochs,
            samples: c.training.inputs.samples,
            batch: c.training.inputs.batch,
            seq: c.training.seq_len,
            cheapest: c.training.cheapest.clone(),
        }),
        forward_ok: page.forward_pass.as_ref().is_none_or(|f| f.ok),
        problems: page.forward_pass.as_ref().map(|f| f.problems.clone()).unwrap_or_default(),
        nodes: folded.map_or(0, |f| f.iter().map(|f| f.section.nodes.len()).sum()),
        parts: match (folded, pv) {
            (Some(folded), _) => folded
                .iter()
                .map(|f| {
                    let layers = f.layers.as_deref().map(crate::graph::fold::runs_text).unwrap_or_default();
                    (f.name.clone(), f.repeat, f.each_params(), f.total_params(), layers)
                })
                .collect(),
            (None, Some(p)) => p
                .breakdown
                .iter()
                .map(|x| (x.part.clone(), x.repeat, x.each, x.total, String::new()))
                .collect(),
            (None, None) => vec![],
        },
        tied: pv
            .map(|p| p.tied.iter().map(|t| (t.tensor.clone(), t.tied_to.clone())).collect())
            .unwrap_or_default(),
        checkpoint_dtype: pv.and_then(|p| p.checkpoint_dtype.clone()),
        checkpoint_exact: pv.and_then(|p| p.checkpoint_exact).unwrap_or(true),
        by_dtype: pv.map(|p| p.checkpoint_by_dtype.clone()).unwrap_or_default(),
        recon: pv
            .map(|p| {
                p.reconciliation
                    .items
                    .iter()
                    .map(|it| ReconItem {
                        label: it.label.clone(),
                        tensors: it.tensors.clone(),
                        count: it.count,
                        scalars: it.scalars,
                        reason: it.reason.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        status: pv.map(|p| p.reconciliation.status),
        unexplained: pv.and_then(|p| p.reconciliation.unexplained),
        alternatives: pv.map(|p| p.reconciliation.alternatives.clone()).unwrap_or_default(),
        own_fix: page
            .lints
            .iter()
            .map(|l| {
                (!crate::estimate::lints::RULES.iter().any(|r| r.id == l.id && r.fix == l.fix))
                    .then(|| l.fix.clone())
            })
            .collect(),
    };
    Value::from(Serde(out))
}

/// Compact JSON with a trailing newline (pretty-printing cost a model's JSON 40% of its bytes;
/// `jq .` restores it); serde_json keeps struct field order, so output is stable.
fn to_json<T: Serialize>(value: &T) -> Result<String, RenderError> {
    // Serialised into a buffer each thread keeps, then copied out at its size: a model's JSON is
    // tens of kilobytes, and a fresh string grown by doubling faulted in new pages for every
    // model (a quarter of the JSON's time went to the kernel zeroing them).
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with(|cell| {
        let mut fresh = Vec::new();
        let mut kept = cell.try_borrow_mut().ok();
        let buf = kept.as_deref_mut().unwrap_or(&mut fresh);
        buf.clear();
        serde_json::to_writer(&mut *buf, value)?;
        buf.push(b'\n');
        // serde_json writes UTF-8 only: this copies without replacing anything.
        let out = String::from_utf8_lossy(buf).into_owned();
        // One outsized document (a config with thousands of layers) is not kept for the build.
        if buf.capacity() > 4 << 20 {
            *buf = Vec::new();
        }
        Ok(out)
    })
}

/// The `schema_version` of `index.json` and the family files: 7 since their rows left out what a
/// rule derives (the twins' paths, the smallest cards' memory) and the family rows what
/// `index.json` holds (README, "schema_version 7 (what changed from 6)").
pub const LIST_SCHEMA_VERSION: u32 = 7;

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
    pub models: Vec<FamilyRow>,
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
    pub models: ModelList,
}

/// The index's models: held, or read one at a time from wherever a build keeps them (a build of
/// many thousands of models holds a place per model, not the summaries).
#[derive(Debug, Clone)]
pub enum ModelList {
    Held(Vec<ModelSummary>),
    Read(Arc<dyn ReadSummaries>),
}

/// Summaries read when asked for; an error names what could not be read.
pub trait ReadSummaries: Send + Sync + std::fmt::Debug {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn get(&self, i: usize) -> Result<ModelSummary, String>;
}

impl ModelList {
    pub fn len(&self) -> usize {
        match self {
            ModelList::Held(v) => v.len(),
            ModelList::Read(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The summary at `i`; `None` past the end.
    pub fn get(&self, i: usize) -> Option<Result<ModelSummary, String>> {
        match self {
            ModelList::Held(v) => v.get(i).cloned().map(Ok),
            ModelList::Read(r) => (i < r.len()).then(|| r.get(i)),
        }
    }
}

impl From<Vec<ModelSummary>> for ModelList {
    fn from(v: Vec<ModelSummary>) -> Self {
        ModelList::Held(v)
    }
}

impl Serialize for ModelList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match self {
            ModelList::Held(v) => v.serialize(s),
            ModelList::Read(r) => {
                let mut seq = s.serialize_seq(Some(r.len()))?;
                for i in 0..r.len() {
                    seq.serialize_element(&r.get(i).map_err(serde::ser::Error::custom)?)?;
                }
                seq.end()
            }
        }
    }
}

/// The index's view as the templates see it. Its list of models becomes template values one
/// model at a time, as a template's loop reaches it, and is dropped after: made whole up front,
/// twice (the index and the files made from it), it was the peak of a build's memory, several
/// kB per model (a 10,000-model build: 62 MiB before the index, 128 MiB during it).
#[derive(Debug)]
struct IndexObject(Arc<IndexView>);

impl IndexObject {
    fn value(view: &Arc<IndexView>) -> Value {
        Value::from_object(IndexObject(Arc::clone(view)))
    }
}

impl Object for IndexObject {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let v = &self.0;
        Some(match key.as_str()? {
            "schema_version" => Value::from(v.schema_version),
            "title" => Value::from(Serde(&v.title)),
            "cards" => Value::from(Serde(&v.cards)),
            "families" => Value::from(Serde(&v.families)),
            "models" => Value::from_object(IndexModels(Arc::clone(v))),
            _ => return None,
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(&["schema_version", "title", "cards", "families", "models"])
    }
}

/// [`IndexView::models`] as a sequence whose items are made when read.
#[derive(Debug)]
struct IndexModels(Arc<IndexView>);

impl Object for IndexModels {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Seq
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let models = &self.0.models;
        if let ModelList::Held(v) = models {
            return v.get(key.as_usize()?).map(|m| Value::from(Serde(m)));
        }
        // A summary that cannot be read fails the template's loop with its reason.
        Some(match models.get(key.as_usize()?)? {
            Ok(m) => Value::from(Serde(&m)),
            Err(e) => Value::from(minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e)),
        })
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Seq(self.0.models.len())
    }
}
