//! `models.toml`: the site's settings and the list of model IDs to build.
//!
//! Unknown keys are errors (a typo in a key must not silently drop a setting), and every model ID
//! is validated here, before any stage builds a path from it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::input_file::{self, InputError, MANIFEST_LIMIT};
use crate::model_id::{ModelId, ModelIdError};

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("{error}")]
    Read { error: InputError },
    // Causes are fields of the message, not `source`s: anyhow's `{:#}` would print them twice
    // (and a TOML error's snippet of the file with them).
    #[error("{path}: {error}")]
    Parse { path: PathBuf, error: Box<toml::de::Error> },
    #[error("{path}: model entry {index} (line {line}): {error}")]
    BadId { path: PathBuf, index: usize, line: usize, error: ModelIdError },
    #[error("{path}: model {} is listed twice: entries {} and {}", entries.0.id, entries.0, entries.1)]
    Duplicate { path: PathBuf, entries: Box<(Entry, Entry)> },
    #[error(
        "{path}: model entries {} and {} would both use {what} {key} on a case-insensitive file \
         system; keep one",
        entries.0,
        entries.1
    )]
    Collision { path: PathBuf, entries: Box<(Entry, Entry)>, what: &'static str, key: String },
    #[error("{path}: [site] base_url {url:?}: {reason}")]
    BadBaseUrl { path: PathBuf, url: String, reason: String },
    #[error("{path}: [site] title {title:?}: {reason}")]
    BadTitle { path: PathBuf, title: String, reason: &'static str },
    #[error("{path}: {reason}")]
    Lock { path: PathBuf, reason: String },
}

/// One `[[model]]` of the file, as an error names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based, in file order.
    pub index: usize,
    pub line: usize,
    pub id: String,
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}, line {})", self.index, self.id, self.line)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    site: SiteSettings,
    #[serde(default, rename = "model")]
    models: Vec<RawModelEntry>,
    discover: Option<Discover>,
}

/// `[discover]`: the most downloaded models matching a filter, expanded by `modelatlas sync`
/// through `/api/models?sort=downloads` into the exact list, recorded in the lock file.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Discover {
    pub top: usize,
    pub pipeline_tag: Option<String>,
    pub author: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModelEntry {
    id: toml::Spanned<String>,
}

/// The `[site]` table.
#[derive(Debug, Clone, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct SiteSettings {
    pub title: String,
    /// Absolute URL the site is served from, used only for canonical links; every link between
    /// pages is relative so the site also works from `file://` and under a sub-path.
    pub base_url: String,
}

#[derive(Debug, Clone)]
pub struct Manifest {
    pub site: SiteSettings,
    /// The `[[model]]` entries, then (with `[discover]`) the lock file's models not listed.
    pub models: Vec<ModelId>,
    pub discover: Option<Discover>,
}

impl Manifest {
    /// Reads models.toml and, when it has `[discover]`, the lock file beside it
    /// ([`crate::sync::discover`]), which must match the `[discover]` table.
    #[cfg(feature = "io")]
    pub fn load(path: &Path) -> Result<Self, ManifestError> {
        let mut m = Self::load_unlocked(path)?;
        if let Some(d) = m.discover.clone() {
            let listed = crate::sync::discover::read_lock(path, &d)?;
            m.add_discovered(listed);
        }
        Ok(m)
    }

    /// models.toml alone, `[discover]` not expanded (what `sync` starts from).
    pub fn load_unlocked(path: &Path) -> Result<Self, ManifestError> {
        let text =
            input_file::read_text(path, MANIFEST_LIMIT).map_err(|error| ManifestError::Read { error })?;
        Self::parse(&text, path)
    }

    /// Appends discovered models not already listed, in the order given.
    /// The Hub resolves repository names without regard to case, so a discovered ID that differs
    /// from a listed one only by case is that model again, and is left out (it would otherwise
    /// race the listed one for the same files).
    pub fn add_discovered(&mut self, ids: Vec<ModelId>) {
        let key = |id: &ModelId| id.cache_folder().to_lowercase();
        let mut seen: std::collections::HashSet<String> = self.models.iter().map(key).collect();
        for id in ids {
            if seen.insert(key(&id)) {
                self.models.push(id);
            }
        }
    }

    pub fn parse(text: &str, path: &Path) -> Result<Self, ManifestError> {
        let raw: RawManifest = toml::from_str(text)
            .map_err(|error| ManifestError::Parse { path: path.to_path_buf(), error: Box::new(error) })?;
        let mut site = raw.site;
        site.base_url = base_url(&site.base_url).map_err(|reason| ManifestError::BadBaseUrl {
            path: path.to_path_buf(),
            url: site.base_url.clone(),
            reason,
        })?;
        let title_problem = if site.title.trim().is_empty() {
            Some("must not be empty")
        } else if site.title.chars().any(char::is_control) {
            Some("must not hold control characters (a newline included)")
        } else {
            None
        };
        if let Some(reason) = title_problem {
            return Err(ManifestError::BadTitle { path: path.to_path_buf(), title: site.title, reason });
        }
        // Keys of the files an ID writes, case-folded: the site's `models/<org>/<name>.*` and the
        // cache folder it reads. Two IDs with one key would race to write one file (or read one
        // folder) on a case-insensitive file system, and which wins would change from run to run.
        let line_of =
            |entry: &RawModelEntry| text[..entry.id.span().start.min(text.len())].lines().count().max(1);
        let mut seen: HashMap<String, (usize, &ModelId)> = HashMap::new();
        let mut models = Vec::with_capacity(raw.models.len());
        for (index, entry) in raw.models.iter().enumerate() {
            let id = ModelId::parse(entry.id.get_ref()).map_err(|error| ManifestError::BadId {
                path: path.to_path_buf(),
                index: index + 1,
                line: line_of(entry),
                error,
            })?;
            models.push(id);
        }
        for (index, id) in models.iter().enumerate() {
            let keys = [
                ("site files", format!("{}.*", id.site_stem()).to_lowercase()),
                ("hub folder", id.cache_folder().to_lowercase()),
            ];
            for (what, key) in &keys {
                let Some(&(first_index, first)) = seen.get(key) else { continue };
                let entry = |i: usize, id: &ModelId| Entry {
                    index: i + 1,
                    line: line_of(&raw.models[i]),
                    id: id.to_string(),
                };
                if first == id {
                    return Err(ManifestError::Duplicate {
                        path: path.to_path_buf(),
                        entries: Box::new((entry(first_index, first), entry(index, id))),
                    });
                }
                return Err(ManifestError::Collision {
                    path: path.to_path_buf(),
                    entries: Box::new((entry(first_index, first), entry(index, id))),
                    what,
                    key: key.clone(),
                });
            }
            for (_, key) in keys {
                seen.insert(key, (index, id));
            }
        }
        Ok(Manifest { site, models, discover: raw.discover })
    }
}

/// `base_url` checked and in the URL crate's serialisation: an absolute http(s) URL with a host,
/// no credentials, query or fragment, ending in `/` (pages are appended to it), and no control
/// character or whitespace in what was written. The URL parser silently drops tabs and newlines,
/// so those are refused before it runs: a newline in `base_url` used to add lines to robots.txt.
fn base_url(written: &str) -> Result<String, String> {
    if let Some(c) = written.chars().find(|c| c.is_control() || c.is_whitespace()) {
        return Err(format!("holds the character {c:?}; a URL has no control characters or spaces"));
    }
    let url = url::Url::parse(written).map_err(|e| format!("is not an absolute URL ({e})"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("has the scheme {:?}; it must be http or https", url.scheme()));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("has no host".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("holds a user name or password".into());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("has a query or fragment; page paths are appended to it".into());
    }
    if !url.path().ends_with('/') {
        return Err("must end with `/`: page paths are appended to it".into());
    }
    Ok(url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest, ManifestError> {
        Manifest::parse(text, Path::new("models.toml"))
    }

    const SITE: &str = "[site]\ntitle = \"t\"\nbase_url = \"https://example.org/atlas/\"\n";

    #[test]
    fn models_are_read_in_order() {
        let m = parse(&format!("{SITE}[[model]]\nid = \"b/x\"\n[[model]]\nid = \"a/y\"\n")).unwrap();
        let ids: Vec<String> = m.models.iter().map(|m| m.to_string()).collect();
        assert_eq!(ids, ["b/x", "a/y"]);
    }

    #[test]
    fn an_unknown_key_is_an_error_that_names_it() {
        let err = parse(&format!("{SITE}[[model]]\nid = \"a/b\"\nrevison = \"main\"\n")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("models.toml") && msg.contains("revison"), "{msg}");
        let err = parse("[site]\ntitle = \"t\"\nbase_url = \"https://x/\"\ncolour = 1\n").unwrap_err();
        assert!(err.to_string().contains("colour"), "{err}");
    }

    #[test]
    fn a_path_escaping_id_is_refused_with_its_entry_number() {
        let err =
            parse(&format!("{SITE}[[model]]\nid = \"ok/one\"\n[[model]]\nid = \"../x\"\n")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("model entry 2") && msg.contains(".."), "{msg}");
    }

    #[test]
    fn duplicates_and_relative_base_urls_are_refused() {
        let dup = parse(&format!("{SITE}[[model]]\nid = \"a/b\"\n[[model]]\nid = \"a/b\"\n"));
        assert!(matches!(dup, Err(ManifestError::Duplicate { .. })));
        let msg = dup.unwrap_err().to_string();
        assert!(msg.contains("a/b is listed twice: entries 1 (a/b, line 5) and 2 (a/b, line 7)"), "{msg}");
        let rel = parse("[site]\ntitle = \"t\"\nbase_url = \"/atlas/\"\n");
        assert!(matches!(rel, Err(ManifestError::BadBaseUrl { .. })));
    }

    #[test]
    fn ids_that_differ_only_by_case_are_refused_naming_both_and_their_entries() {
        let err = parse(&format!(
            "{SITE}[[model]]\nid = \"Org/Model\"\n[[model]]\nid = \"x/y\"\n[[model]]\nid = \"org/model\"\n"
        ))
        .unwrap_err();
        let msg = err.to_string();
        let ManifestError::Collision { entries, .. } = &err else { panic!("{msg}") };
        assert_eq!((entries.0.index, entries.1.index), (1, 3), "{msg}");
        // Lines: [site] takes 3, then two per entry; the `id` of entry k is on line 3 + 2k.
        assert!(msg.contains("1 (Org/Model, line 5)") && msg.contains("3 (org/model, line 9)"), "{msg}");
    }

    #[test]
    fn a_bare_legacy_id_and_the_same_name_under_underscore_are_not_both_accepted() {
        // Both would write models/_/gpt2.*; `_` is refused as an organisation.
        let err =
            parse(&format!("{SITE}[[model]]\nid = \"gpt2\"\n[[model]]\nid = \"_/gpt2\"\n")).unwrap_err();
        assert!(matches!(err, ManifestError::BadId { index: 2, .. }), "{err}");
    }

    #[test]
    fn a_legacy_id_and_an_org_named_like_it_do_not_collide() {
        // `gpt2` writes models/_/gpt2.*, reads models--gpt2; `gpt2/gpt2` writes models/gpt2/gpt2.*
        // and reads models--gpt2--gpt2.
        assert!(parse(&format!("{SITE}[[model]]\nid = \"gpt2\"\n[[model]]\nid = \"gpt2/gpt2\"\n")).is_ok());
    }

    fn with_base_url(url: &str) -> Result<Manifest, ManifestError> {
        let text = format!("[site]\ntitle = \"t\"\nbase_url = {}\n", toml::Value::from(url));
        parse(&text)
    }

    #[test]
    fn a_base_url_with_a_newline_or_control_character_is_refused() {
        for url in [
            "https://example.org/\nDisallow: /",
            "https://example.org/\r\n",
            "https://example.org/\tx/",
            "https://example.org/a\u{0}/",
            " https://example.org/",
            "https://example.org/a b/",
        ] {
            let err = with_base_url(url).unwrap_err().to_string();
            assert!(err.contains("base_url") && err.contains("models.toml"), "{url:?}: {err}");
        }
    }

    #[test]
    fn a_base_url_must_be_absolute_http_with_a_host_and_a_trailing_slash() {
        for (url, why) in [
            ("javascript:alert(1)//", "scheme"),
            ("ftp://example.org/", "scheme"),
            ("file:///srv/site/", "scheme"),
            ("https://example.org/atlas", "end with"),
            ("https://example.org/?q=1", "query"),
            ("https://example.org/#top", "fragment"),
            ("https://user:pw@example.org/", "password"),
            ("//example.org/", "absolute"),
            ("https:///", "host"),
        ] {
            let err = with_base_url(url).unwrap_err().to_string();
            assert!(err.contains("base_url") && err.contains(why), "{url:?}: {err}");
        }
    }

    #[test]
    fn a_good_base_url_is_kept_in_its_normal_form() {
        let m = with_base_url("https://Example.ORG/atlas/").unwrap();
        assert_eq!(m.site.base_url, "https://example.org/atlas/");
        let m = with_base_url("http://localhost:8000/").unwrap();
        assert_eq!(m.site.base_url, "http://localhost:8000/");
    }

    #[test]
    fn a_title_with_a_newline_or_nothing_in_it_is_refused() {
        for title in ["modelatlas\n# injected", "a\u{1b}[31m", "  "] {
            let text =
                format!("[site]\ntitle = {}\nbase_url = \"https://x.org/\"\n", toml::Value::from(title));
            let err = parse(&text).unwrap_err().to_string();
            assert!(err.contains("title") && err.contains("models.toml"), "{title:?}: {err}");
        }
    }

    #[test]
    fn a_discovered_id_that_differs_from_a_listed_one_only_by_case_is_left_out() {
        let mut m = Manifest::parse(
            "[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n[[model]]\nid = \"Org/Model\"\n",
            Path::new("models.toml"),
        )
        .unwrap();
        let ids = ["org/model", "org/other", "ORG/OTHER"].map(|s| ModelId::parse(s).unwrap()).to_vec();
        m.add_discovered(ids);
        let listed: Vec<String> = m.models.iter().map(|id| id.to_string()).collect();
        assert_eq!(listed, ["Org/Model", "org/other"]);
    }
}
