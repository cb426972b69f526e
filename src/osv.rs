//! One OSV-schema document per upstream change that alters the plan or the behaviour (a config
//! change with an effect, the chat template, the tokenizer, the weights), so tools that already
//! read OSV advisories (scanners, feeds) can follow a model's revisions as they follow a package's.
//!
//! The document is written at `models/<org>/<name>/osv/<id>.json`. It says nothing about
//! security: it records that from one commit on the model behaves or sizes differently.

use serde_json::{Value, json};

use crate::changes::ChangeView;

/// The OSV schema release whose fields the documents use (the GIT range, the `INTRODUCED`
/// reference type, `database_specific`): all present since 1.5.0.
pub const OSV_SCHEMA_VERSION: &str = "1.5.0";

/// Prefix of the document ids: this site is the home database of its advisories.
pub const ID_PREFIX: &str = "MODELATLAS-";

/// Where the public Hub serves a repository (the GIT range's `repo` and the commit reference).
const HUB: &str = "https://huggingface.co";

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The document id: the same model and commit give the same id on every build and machine.
/// The commit's first 12 digits keep ids readable; the hash of the model and the full commit keeps
/// two models' advisories apart when they share a commit (a copied repository).
pub fn id(model: &str, commit: &str) -> String {
    let short = commit.get(..12).unwrap_or(commit);
    let h = fnv1a(format!("{model}\n{commit}").as_bytes());
    format!("{ID_PREFIX}{short}-{:08x}", h >> 32)
}

/// The document's path from the site root, beside the model page (`models/<org>/<name>.html`).
pub fn path(page_url: &str, id: &str) -> String {
    let stem = page_url.strip_suffix(".html").unwrap_or(page_url);
    format!("{stem}/osv/{id}.json")
}

/// What kinds of change the document is for, in a fixed order.
fn kinds(c: &crate::changes::Change) -> Vec<&'static str> {
    let mut out = vec![];
    if !c.config_changes.is_empty() {
        out.push("config");
    }
    if c.chat_template_changed {
        out.push("chat_template");
    }
    if c.tokenizer_changed {
        out.push("tokenizer");
    }
    if c.weights_changed {
        out.push("weights");
    }
    out
}

/// The OSV document of one change. `base_url` is the site's absolute base (ending in `/`),
/// `page_url` the model page's path from it. Dates are the commit's, so builds are reproducible.
pub fn document(model: &str, page_url: &str, view: &ChangeView, base_url: &str) -> Value {
    let c = &view.change;
    let id = id(model, &c.commit);
    let short = c.commit.get(..7).unwrap_or(&c.commit);
    let mut details = view.lines.join("\n");
    if let Some(effect) = &c.effect {
        details.push_str(&format!("\n\nEffect on the plan: {effect}."));
    }
    let page = format!("{base_url}{page_url}#change-{short}");
    json!({
        "schema_version": OSV_SCHEMA_VERSION,
        "id": id,
        "modified": c.date,
        "published": c.date,
        "summary": format!("{model} {short}: {}", c.title),
        "details": details,
        // No OSV ecosystem lists the Hub, so the repository is named the way the schema allows
        // for any git repository: a GIT range (the Hub serves every model repository over git),
        // with no `package`. Every revision from this commit on carries the change.
        "affected": [{
            "ranges": [{
                "type": "GIT",
                "repo": format!("{HUB}/{model}"),
                "events": [{ "introduced": c.commit }],
            }],
        }],
        "references": [
            { "type": "WEB", "url": page },
            { "type": "INTRODUCED", "url": format!("{HUB}/{model}/commit/{}", c.commit) },
        ],
        "database_specific": {
            "model": model,
            "commit": c.commit,
            "kinds": kinds(c),
            "effect": c.effect,
            "lines": view.lines,
            "config_changes": c.config_changes,
            "tensors_added": c.tensors_added,
            "tensors_removed": c.tensors_removed,
            "tensors_reshaped": c.tensors_reshaped,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_depend_on_the_model_and_the_commit_only() {
        let c = "0123456789abcdef0123456789abcdef01234567";
        let d = "0123456789abcdef0123456789abcdef01234568";
        assert_eq!(id("org/a", c), id("org/a", c));
        assert_ne!(id("org/a", c), id("org/b", c));
        assert_ne!(id("org/a", c), id("org/a", d));
        assert!(id("org/a", c).starts_with("MODELATLAS-0123456789ab-"));
        // Safe in a path segment: letters, digits and dashes.
        assert!(id("org/a", c).chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-'));
    }

    #[test]
    fn the_document_sits_in_a_folder_named_after_the_page() {
        assert_eq!(path("models/org/name.html", "X-1"), "models/org/name/osv/X-1.json");
    }
}
