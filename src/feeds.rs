//! Atom feeds of what changed upstream: one per model (`models/<org>/<name>.atom`) and one for the
//! site (`changes.atom`), with the "Recent changes" page made from the same entries. Dates are the
//! Hub's commit dates, so the same snapshot gives byte-identical feeds.

use serde::Serialize;

use crate::changes::ChangeView;
use crate::manifest::SiteSettings;
use crate::page::ModelPage;
use crate::render::format::xml;

/// The date a feed with no entry says it was updated: fixed, so output stays deterministic.
const EPOCH: &str = "1970-01-01T00:00:00Z";

/// One change of one model, for the site-wide feed and page.
#[derive(Debug, Clone, Serialize)]
pub struct FeedEntry {
    pub model: String,
    /// The model page's path from the site root.
    pub url: String,
    pub change: ChangeView,
}

pub fn entries(page: &ModelPage) -> Vec<FeedEntry> {
    let Some(url) = page.url.clone() else { return vec![] };
    page.changes
        .iter()
        .map(|c| FeedEntry { model: page.id.clone(), url: url.clone(), change: c.clone() })
        .collect()
}

/// Newest first; ties by model and commit, so the order never depends on thread timing.
pub fn sort(entries: &mut [FeedEntry]) {
    entries.sort_by(|a, b| {
        b.change
            .change
            .date
            .cmp(&a.change.change.date)
            .then_with(|| a.model.cmp(&b.model))
            .then_with(|| a.change.change.commit.cmp(&b.change.change.commit))
    });
}

fn entry_xml(e: &FeedEntry, base: &str) -> String {
    let c = &e.change.change;
    let short = c.commit.get(..7).unwrap_or(&c.commit);
    let mut text = e.change.lines.join("\n");
    if let Some(effect) = &c.effect {
        text.push_str(&format!("\nEffect on the plan: {effect}"));
    }
    format!(
        "<entry>\n<title>{model} {short}: {title}</title>\n<id>{base}{url}#change-{short}</id>\n<link href=\"{base}{url}#change-{short}\"/>\n<updated>{date}</updated>\n<content type=\"text\">{text}</content>\n</entry>\n",
        model = xml(&e.model),
        title = xml(&c.title),
        url = xml(&e.url),
        date = xml(&c.date),
        text = xml(&text),
    )
}

fn feed(title: &str, self_path: &str, alternate: &str, entries: &[FeedEntry], site: &SiteSettings) -> String {
    let base = &site.base_url;
    let updated = entries.iter().map(|e| e.change.change.date.as_str()).max().unwrap_or(EPOCH);
    // UTF-8 needs no XML declaration; a feed without entries needs no author (RFC 4287 4.1.1:
    // one is required unless every entry has its own), and most model feeds have none.
    let mut out = format!(
        "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>{}</title>\n<id>{base}{self_path}</id>\n<link rel=\"self\" href=\"{base}{self_path}\"/>\n<link href=\"{base}{alternate}\"/>\n<updated>{}</updated>\n",
        xml(title),
        xml(updated),
        base = xml(base),
        self_path = xml(self_path),
        alternate = xml(alternate),
    );
    if !entries.is_empty() {
        out.push_str(&format!("<author><name>{}</name></author>\n", xml(&site.title)));
    }
    for e in entries {
        out.push_str(&entry_xml(e, base));
    }
    out.push_str("</feed>\n");
    out
}

/// `models/<org>/<name>.atom`; `None` for a plan of a file (no page URL).
pub fn model_feed(page: &ModelPage, site: &SiteSettings) -> Option<(String, String)> {
    let url = page.url.as_ref()?;
    let path = format!("{}.atom", url.strip_suffix(".html").unwrap_or(url));
    let mut es = entries(page);
    sort(&mut es);
    Some((path.clone(), feed(&format!("{}: what changed upstream", page.id), &path, url, &es, site)))
}

/// `changes.atom`: every model's changes, newest first.
pub fn site_feed(entries: &[FeedEntry], site: &SiteSettings) -> String {
    feed(&format!("{}: recent changes upstream", site.title), "changes.atom", "changes.html", entries, site)
}
