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

/// One `[[model]]` table read alone.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OneModel {
    model: [RawModelEntry; 1],
}

/// The manifest as read: each model's ID with where it starts in the text.
struct Listed {
    site: SiteSettings,
    models: Vec<(usize, String)>,
    discover: Option<Discover>,
}

/// Where each of a TOML document's table headers starts, and whether it is exactly `[[model]]`.
struct Headers<'t> {
    text: &'t str,
    starts: Vec<(usize, bool)>,
    /// The header being read: where it starts, whether it opens an array of tables, how many
    /// keys it has, and whether the first is `model`.
    open: Option<(usize, bool, usize, bool)>,
}

impl Headers<'_> {
    fn opened(&mut self, span: toml_parser::Span, array: bool) {
        self.open = Some((span.start(), array, 0, false));
    }

    fn closed(&mut self) {
        if let Some((start, array, keys, model)) = self.open.take() {
            self.starts.push((start, array && keys == 1 && model));
        }
    }
}

impl toml_parser::parser::EventReceiver for Headers<'_> {
    fn std_table_open(&mut self, span: toml_parser::Span, _: &mut dyn toml_parser::ErrorSink) {
        self.opened(span, false);
    }

    fn array_table_open(&mut self, span: toml_parser::Span, _: &mut dyn toml_parser::ErrorSink) {
        self.opened(span, true);
    }

    fn std_table_close(&mut self, _: toml_parser::Span, _: &mut dyn toml_parser::ErrorSink) {
        self.closed();
    }

    fn array_table_close(&mut self, _: toml_parser::Span, _: &mut dyn toml_parser::ErrorSink) {
        self.closed();
    }

    fn simple_key(
        &mut self,
        span: toml_parser::Span,
        _: Option<toml_parser::decoder::Encoding>,
        _: &mut dyn toml_parser::ErrorSink,
    ) {
        if let Some((_, _, keys, model)) = &mut self.open {
            *keys += 1;
            if *keys == 1 {
                let key = self.text.get(span.start()..span.end());
                *model = matches!(key, Some("model" | "\"model\"" | "'model'"));
            }
        }
    }
}

/// models.toml read table by table: each `[[model]]` table alone, the rest as one document. A
/// manifest of 10,000 models read whole was an 18 MB tree of toml's, which a build's memory never
/// gave back; read this way it is the tokens' 2.6 MB. `None` for anything that this does not take
/// exactly as reading the whole file would (an error, a header under `model` other than
/// `[[model]]`, models given another way): the caller reads it whole.
fn by_table(text: &str) -> Option<Listed> {
    let tokens = toml_parser::Source::new(text).lex().into_vec();
    let mut headers = Headers { text, starts: vec![], open: None };
    let mut error: Option<toml_parser::ParseError> = None;
    toml_parser::parser::parse_document(&tokens, &mut headers, &mut error);
    drop(tokens);
    if error.is_some() || headers.open.is_some() {
        return None;
    }
    let mut rest = String::new();
    let mut models = Vec::with_capacity(headers.starts.iter().filter(|h| h.1).count());
    let mut from = 0;
    for (i, &(start, model)) in headers.starts.iter().enumerate() {
        let end = headers.starts.get(i + 1).map_or(text.len(), |h| h.0);
        rest.push_str(text.get(from..start)?);
        from = start;
        let table = text.get(start..end)?;
        if model {
            let [entry] = toml::from_str::<OneModel>(table).ok()?.model;
            models.push((start + entry.id.span().start, entry.id.into_inner()));
            from = end;
        } else {
            let key = table.trim_start_matches('[').trim_start();
            if ["model", "\"model\"", "'model'"].iter().any(|m| key.starts_with(m)) {
                return None;
            }
        }
    }
    rest.push_str(text.get(from..)?);
    let raw: RawManifest = toml::from_str(&rest).ok()?;
    if !raw.models.is_empty() {
        return None;
    }
    Some(Listed { site: raw.site, models, discover: raw.discover })
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
        let raw = match by_table(text) {
            Some(raw) => raw,
            // Anything the table by table reading does not take as it is (an error included) is
            // read whole: the same manifest, and toml's error with the whole file's lines.
            None => {
                let raw: RawManifest = toml::from_str(text).map_err(|error| ManifestError::Parse {
                    path: path.to_path_buf(),
                    error: Box::new(error),
                })?;
                let models = raw.models.into_iter().map(|m| (m.id.span().start, m.id.into_inner())).collect();
                Listed { site: raw.site, models, discover: raw.discover }
            }
        };
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
        let line_of = |entry: &(usize, String)| text[..entry.0.min(text.len())].lines().count().max(1);
        let mut seen: HashMap<String, (usize, &ModelId)> = HashMap::new();
        let mut models = Vec::with_capacity(raw.models.len());
        for (index, entry) in raw.models.iter().enumerate() {
            let id = ModelId::parse(&entry.1).map_err(|error| ManifestError::BadId {
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

    /// The whole file read by toml, as before: what reading it table by table must give.
    type Read = (String, Vec<(usize, String)>, Option<Discover>);

    fn whole(text: &str) -> Option<Read> {
        let raw: RawManifest = toml::from_str(text).ok()?;
        let models = raw.models.into_iter().map(|m| (m.id.span().start, m.id.into_inner())).collect();
        Some((raw.site.title, models, raw.discover))
    }

    #[test]
    fn reading_table_by_table_gives_what_reading_the_whole_file_gives() {
        let docs = [
            format!("{SITE}[[model]]\nid = \"b/x\"\n[[model]]\nid = \"a/y\"\n"),
            // Comments, indentation, quoted keys, a table after the models, a string that looks
            // like a header, a literal string.
            format!(
                "# list\n{SITE}\n  [[model]] # first\n  id = \"b/x\"\n\n[[ \"model\" ]]\nid = '''a/[[model]]'''\n\
                 [['model']]\n\"id\" = \"c/z\"\n[discover]\ntop = 3\n"
            ),
            format!("[[model]]\nid = \"first/before-site\"\n{SITE}"),
            SITE.to_string(),
        ];
        for doc in &docs {
            let fast = by_table(doc).unwrap_or_else(|| panic!("not read table by table:\n{doc}"));
            assert_eq!(Some((fast.site.title, fast.models, fast.discover)), whole(doc), "{doc}");
        }
    }

    #[test]
    fn what_reading_table_by_table_cannot_take_exactly_is_read_whole() {
        let docs = [
            // A sub-table of the last model, a model given inline, a model table with another
            // key, a damaged file, an escaped key.
            format!("{SITE}[[model]]\nid = \"a/b\"\n[model.extra]\nx = 1\n"),
            format!("model = [{{ id = \"a/b\" }}]\n{SITE}"),
            format!("{SITE}[[model]]\nid = \"a/b\"\nrevision = \"main\"\n"),
            format!("{SITE}[[model]]\nid = \"a/b"),
            format!("{SITE}[[\"mod\\u0065l\"]]\nid = \"a/b\"\n"),
        ];
        for doc in &docs {
            assert!(by_table(doc).is_none(), "{doc}");
        }
        // The escaped key is `model` all the same: read whole, it lists the model.
        let m = parse(&docs[4]).unwrap();
        assert_eq!(m.models.len(), 1);
        // And an error keeps toml's message with the whole file's line.
        let Err(ManifestError::Parse { error, .. }) = parse(&docs[3]) else {
            panic!("a damaged file is an error")
        };
        assert!(error.to_string().contains("line 5"), "{error}");
    }

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
