//! `models.toml`: the site's settings and the list of model IDs to build.
//!
//! Unknown keys are errors (a typo in a key must not silently drop a setting), and every model ID
//! is validated here, before any stage builds a path from it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::model_id::{ModelId, ModelIdError};

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path}: {source}")]
    Parse { path: PathBuf, source: Box<toml::de::Error> },
    #[error("{path}: model entry {index}: {source}")]
    BadId { path: PathBuf, index: usize, source: ModelIdError },
    #[error("{path}: model {id} is listed twice")]
    Duplicate { path: PathBuf, id: String },
    #[error("{path}: [site] base_url {url:?}: {reason}")]
    BadBaseUrl { path: PathBuf, url: String, reason: String },
    #[error("{path}: [site] title {title:?}: {reason}")]
    BadTitle { path: PathBuf, title: String, reason: &'static str },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    site: SiteSettings,
    #[serde(default, rename = "model")]
    models: Vec<RawModelEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModelEntry {
    id: String,
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
    pub models: Vec<ModelId>,
}

impl Manifest {
    pub fn load(path: &Path) -> Result<Self, ManifestError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ManifestError::Read { path: path.to_path_buf(), source })?;
        Self::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<Self, ManifestError> {
        let raw: RawManifest = toml::from_str(text)
            .map_err(|source| ManifestError::Parse { path: path.to_path_buf(), source: Box::new(source) })?;
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
        let mut seen = HashSet::new();
        let mut models = Vec::with_capacity(raw.models.len());
        for (index, entry) in raw.models.iter().enumerate() {
            let id = ModelId::parse(&entry.id).map_err(|source| ManifestError::BadId {
                path: path.to_path_buf(),
                index: index + 1,
                source,
            })?;
            if !seen.insert(id.clone()) {
                return Err(ManifestError::Duplicate { path: path.to_path_buf(), id: id.to_string() });
            }
            models.push(id);
        }
        Ok(Manifest { site, models })
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
        let rel = parse("[site]\ntitle = \"t\"\nbase_url = \"/atlas/\"\n");
        assert!(matches!(rel, Err(ManifestError::BadBaseUrl { .. })));
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
}
