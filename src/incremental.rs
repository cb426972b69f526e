//! What an incremental build keeps of the last one: a fingerprint of each model's inputs and of
//! each output file's inputs, and what the next build needs of an unchanged model without
//! planning it again (its summary, its changes, where the sibling part sits in its files).
//!
//! The cache lives beside the site (`.<name>.modelatlas-cache`, see
//! [`crate::output::SiteWriter::cache_path`]), not in it, so it is neither published nor counted
//! in the site's bytes. It names the build it describes, and the site's marker names the build
//! that wrote the site ([`crate::output::SiteWriter::stamp`]): a cache is used only when the two
//! agree, so a site replaced by hand, an interrupted build or a cache from another site only
//! cost a full build, never a wrong file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::changes::Change;
use crate::manifest::SiteSettings;
use crate::page::ModelSummary;
use crate::plan::PlanOptions;
use crate::source::ModelFiles;

/// Bumped whenever what the cache holds changes meaning; another format means a full build.
const FORMAT: u32 = 1;

/// A SHA-256 digest, hex, of the parts given (each length-prefixed, so parts cannot run together).
pub fn digest(parts: &[&[u8]]) -> String {
    Hasher::new(parts).finish()
}

/// A digest fed as it is written: the length-prefixed parts first, then whatever is written to
/// it (as bytes, `io::Write`, or as text, `fmt::Write`), unprefixed, so it must come last. A
/// model's inputs, a page group's view and the cache are hashed without being first written
/// out whole: those buffers were megabytes at the end of a 10,000-model build.
pub struct Hasher(ring::digest::Context);

impl Hasher {
    pub fn new(parts: &[&[u8]]) -> Self {
        let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
        for p in parts {
            ctx.update(&(p.len() as u64).to_le_bytes());
            ctx.update(p);
        }
        Hasher(ctx)
    }

    pub fn finish(self) -> String {
        self.0.finish().as_ref().iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::fmt::Write for Hasher {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

/// [`digest`] of `parts` followed by the compact JSON of `value`, streamed.
pub fn digest_json<T: Serialize + ?Sized>(parts: &[&[u8]], value: &T) -> serde_json::Result<String> {
    let mut h = Hasher::new(parts);
    serde_json::to_writer(&mut h, value)?;
    Ok(h.finish())
}

/// What every output of a build depends on besides its own inputs: this binary (its version, and
/// its size and modification time, which change with any rebuild of it, the compiled-in templates
/// included), the templates themselves, the site settings and the plan's options.
pub fn build_key(site: &SiteSettings, options: &PlanOptions) -> String {
    let exe = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let mtime = m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
            format!("{} {:?}", m.len(), mtime)
        })
        .unwrap_or_default();
    let site = serde_json::to_string(site).unwrap_or_default();
    let options = format!("{options:?}");
    let mut parts: Vec<&[u8]> =
        vec![env!("CARGO_PKG_VERSION").as_bytes(), exe.as_bytes(), site.as_bytes(), options.as_bytes()];
    for (name, text) in crate::render::TEMPLATES
        .iter()
        .chain(crate::render::TEXT_TEMPLATES)
        .chain(crate::render::SITE_TEMPLATES)
    {
        parts.push(name.as_bytes());
        parts.push(text.as_bytes());
    }
    digest(&parts)
}

/// The fingerprint of one model's inputs: everything its plan is made from.
pub fn model_input(key: &str, id: &str, files: &ModelFiles) -> String {
    // Debug prints every field in order and holds no hash map: stable between runs. Streamed
    // into the digest (an FP8 checkpoint's index names run to megabytes of text).
    let mut h = Hasher::new(&[key.as_bytes(), id.as_bytes()]);
    // Writing to a hasher cannot fail; a Debug impl that did would only change the digest.
    let _ = std::fmt::Write::write_fmt(&mut h, format_args!("{files:?}"));
    h.finish()
}

/// What a build keeps of one model it built.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelEntry {
    /// [`model_input`].
    pub input: String,
    /// The input and the sibling part's view: equal, the model's files are byte for byte the
    /// same as the last build's.
    pub output: String,
    /// Boxed: a build holds every entry, and moves them (a summary inline is half a kB).
    pub summary: Box<ModelSummary>,
    pub family_name: String,
    /// The model's changes upstream (the site feed and the Recent changes page list them).
    pub changes: Vec<Change>,
    /// The model's Atom feed, a path under the site.
    pub feed: Option<String>,
    /// The model's OSV documents, paths under the site.
    #[serde(default)]
    pub osv: Vec<String>,
    /// Where the sibling part starts and ends in the HTML page and in the Markdown twin, and
    /// where it starts in the JSON (it runs to the end), in bytes.
    pub html: (usize, usize),
    pub md: (usize, usize),
    pub json: usize,
}

/// A group of site pages rendered together (a family's three files, the index and what is made
/// from it, the fixed pages): the fingerprint of their inputs, and each file's path and the
/// digest of its bytes (a group rendered again rewrites only the files whose bytes changed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageEntry {
    pub input: String,
    pub files: Vec<(String, String)>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Cache {
    pub format: u32,
    /// The build that wrote it; also in the marker of the site it describes.
    pub stamp: String,
    pub models: BTreeMap<String, ModelEntry>,
    pub pages: BTreeMap<String, PageEntry>,
}

impl Cache {
    pub fn new() -> Self {
        Cache { format: FORMAT, ..Cache::default() }
    }

    /// The cache at `path` if it describes the site stamped `stamp`; anything else (no file, an
    /// unreadable or foreign one, another format) is no cache: the build is then a full one.
    pub fn load(path: &Path, stamp: Option<&str>) -> Option<Cache> {
        let stamp = stamp?;
        let bytes = std::fs::read(path).ok()?;
        let cache: Cache = serde_json::from_slice(&bytes).ok()?;
        (cache.format == FORMAT && cache.stamp == stamp).then_some(cache)
    }

    /// Sets the stamp from everything the cache holds (so the same build stamps the same) and
    /// writes it to `path`, whole or not at all, through `tmp` (in the build's staging folder, so
    /// that a build killed between the two leaves no file beyond the staging folder itself, which
    /// the next build removes).
    pub fn seal_and_save(&mut self, path: &Path, tmp: &Path) -> std::io::Result<String> {
        // Hashed and written as serialised: two whole copies of the cache in memory were the
        // end of a build's peak (20 MB at 10,000 models).
        self.stamp = String::new();
        self.stamp = digest_json(&[], self).map_err(std::io::Error::other)?;
        let write = || -> std::io::Result<()> {
            let mut file = std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(tmp)?);
            serde_json::to_writer(&mut file, self).map_err(std::io::Error::other)?;
            std::io::Write::flush(&mut file)
        };
        let saved = write().and_then(|()| std::fs::rename(tmp, path));
        if saved.is_err() {
            // Not left in the staging folder, which becomes the site.
            let _ = std::fs::remove_file(tmp);
        }
        saved.map(|()| self.stamp.clone())
    }
}

/// `old` with the bytes `range` replaced by `part`; `None` when the range does not fit `old` (a
/// file changed since the last build): the caller renders the model again instead.
pub fn splice(old: &[u8], range: (usize, usize), part: &[u8]) -> Option<Vec<u8>> {
    let (start, end) = range;
    if start > end || end > old.len() {
        return None;
    }
    let mut out = Vec::with_capacity(old.len() - (end - start) + part.len());
    out.extend_from_slice(&old[..start]);
    out.extend_from_slice(part);
    out.extend_from_slice(&old[end..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_separates_its_parts() {
        assert_ne!(digest(&[b"ab", b"c"]), digest(&[b"a", b"bc"]));
        assert_eq!(digest(&[b"ab", b"c"]), digest(&[b"ab", b"c"]));
    }

    #[test]
    fn splicing_replaces_exactly_the_range_and_refuses_one_outside_the_file() {
        assert_eq!(splice(b"head-OLD-tail", (5, 8), b"NEWER").unwrap(), b"head-NEWER-tail");
        assert_eq!(splice(b"abc", (3, 3), b"d").unwrap(), b"abcd");
        assert!(splice(b"abc", (2, 4), b"d").is_none());
        assert!(splice(b"abc", (2, 1), b"d").is_none());
    }

    #[test]
    fn a_cache_is_used_only_for_the_site_it_stamped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        let mut cache = Cache::new();
        cache
            .pages
            .insert("x".into(), PageEntry { input: "1".into(), files: vec![("x.html".into(), "2".into())] });
        let stamp = cache.seal_and_save(&path, &dir.path().join("cache.tmp")).unwrap();
        assert!(!dir.path().join("cache.tmp").exists(), "the temporary is renamed, not left");
        assert!(Cache::load(&path, Some(&stamp)).is_some());
        assert!(Cache::load(&path, Some("another build")).is_none());
        assert!(Cache::load(&path, None).is_none(), "a site with no stamp gets a full build");
        std::fs::write(&path, b"{not json").unwrap();
        assert!(Cache::load(&path, Some(&stamp)).is_none());
    }
}
