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
use crate::spill::{Slot, Spill};

/// Bumped whenever what the cache holds changes meaning; another format means a full build.
const FORMAT: u32 = 2;

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

    /// One more length-prefixed part.
    pub fn part(&mut self, p: &[u8]) {
        self.0.update(&(p.len() as u64).to_le_bytes());
        self.0.update(p);
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
    // Every field, taken apart so that a field added later cannot be left out unseen. The text
    // and the tensor names are hashed as their bytes, each length-prefixed (formatted with
    // `Debug`, escaped a character at a time, they were a tenth of a rebuild with nothing
    // changed); the few facts of `meta` as `Debug` prints them, every field in order, no hash map.
    let ModelFiles { label, config_text, config_path, commit, meta, index_tensor_names } = files;
    let mut h = Hasher::new(&[
        key.as_bytes(),
        id.as_bytes(),
        label.as_bytes(),
        config_text.as_bytes(),
        config_path.as_os_str().as_encoded_bytes(),
    ]);
    h.part(format!("{commit:?} {meta:?}").as_bytes());
    match index_tensor_names {
        None => h.part(b"no index"),
        Some(names) => {
            h.part(&(names.len() as u64).to_le_bytes());
            for name in names {
                h.part(name.as_bytes());
            }
        }
    }
    h.finish()
}

/// What a build keeps of one model it built. The summary comes first: a record's first field
/// reads alone ([`crate::spill::Spill::get_first`]), and the summary is what other models' pages
/// read of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelEntry {
    pub summary: ModelSummary,
    /// [`model_input`].
    pub input: String,
    /// The input and the sibling part's view: equal, the model's files are byte for byte the
    /// same as the last build's.
    pub output: String,
    pub family_name: String,
    /// The model's changes upstream (the site feed and the Recent changes page list them). As
    /// JSON text: a changed config value is any JSON value, which a compact record cannot hold
    /// as such.
    #[serde(with = "json_text")]
    pub changes: Vec<Change>,
    /// The model's Atom feed, a path under the site.
    pub feed: Option<String>,
    /// The model's OSV documents, paths under the site.
    pub osv: Vec<String>,
    /// Where the sibling part starts and ends in the HTML page and in the Markdown twin, and
    /// where it starts in the JSON (it runs to the end), in bytes.
    pub html: (usize, usize),
    pub md: (usize, usize),
    pub json: usize,
}

impl ModelEntry {
    /// The model's files under the site: its page, twin, JSON, badge, feed and OSV documents.
    pub fn files(&self, stem: &str) -> Vec<String> {
        model_files(stem, self.feed.as_deref(), &self.osv)
    }
}

/// A model's files under the site, its stem given: page, twin, JSON, badge, then its feed and
/// OSV documents if it has them.
pub fn model_files(stem: &str, feed: Option<&str>, osv: &[String]) -> Vec<String> {
    let mut files: Vec<String> =
        ["html", "md", "json", "badge.json"].iter().map(|ext| format!("{stem}.{ext}")).collect();
    files.extend(feed.map(str::to_string));
    files.extend(osv.iter().cloned());
    files
}

mod json_text {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_string(value).map_err(serde::ser::Error::custom)?.serialize(s)
    }

    pub fn deserialize<'de, T: serde::de::DeserializeOwned, D: Deserializer<'de>>(
        d: D,
    ) -> Result<T, D::Error> {
        serde_json::from_str(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// A group of site pages rendered together (a family's three files, the index and what is made
/// from it, the fixed pages): the fingerprint of their inputs, and each file's path and the
/// digest of its bytes (a group rendered again rewrites only the files whose bytes changed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageEntry {
    pub input: String,
    pub files: Vec<(String, String)>,
}

/// The file starts with these bytes and [`FORMAT`], then holds the page groups (a length and
/// their record), the number of models, each model's record (a length, then its ID and its
/// [`ModelEntry`]), and ends with the stamp: the digest of everything before it.
const MAGIC: &[u8] = b"modelatlas cache\n";
const STAMP_LEN: usize = 64;

/// The last build's cache, read where it lies: each model's entry is read when the build asks for
/// it, so an incremental build holds a place per model, not the entries.
#[derive(Debug)]
pub struct PrevCache {
    file: Spill,
    /// The entry of the model at each place of the manifest, if the last build had one.
    slots: Vec<Option<Slot>>,
    /// How many models the last build had (in the manifest or not).
    pub count: usize,
    pub pages: BTreeMap<String, PageEntry>,
}

impl PrevCache {
    /// The cache at `path` if it describes the site stamped `stamp`; anything else (no file, an
    /// unreadable or foreign one, another format) is no cache: the build is then a full one.
    /// `ids` are the manifest's models, in order: the last build's entries are found by place,
    /// as the manifest most often is the last build's.
    pub fn load(path: &Path, stamp: Option<&str>, ids: &[String]) -> Option<PrevCache> {
        Self::read(path, stamp?, ids).ok().flatten()
    }

    fn read(path: &Path, stamp: &str, ids: &[String]) -> std::io::Result<Option<PrevCache>> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        let Some(body) = len.checked_sub(STAMP_LEN as u64) else { return Ok(None) };
        file.seek(SeekFrom::Start(body))?;
        let mut found = [0u8; STAMP_LEN];
        file.read_exact(&mut found)?;
        if found != stamp.as_bytes() {
            return Ok(None);
        }
        file.seek(SeekFrom::Start(0))?;
        let mut r = std::io::BufReader::with_capacity(1 << 16, &file);
        let mut head = vec![0u8; MAGIC.len() + 4];
        r.read_exact(&mut head)?;
        if head[..MAGIC.len()] != *MAGIC || head[MAGIC.len()..] != FORMAT.to_le_bytes() {
            return Ok(None);
        }
        // A length, then that many bytes into `buf`; where they start in the file.
        // A length past the end (a damaged file) is refused before anything is allocated for it.
        let record = |r: &mut std::io::BufReader<&std::fs::File>, at: &mut u64, buf: &mut Vec<u8>| {
            let mut n = [0u8; 4];
            r.read_exact(&mut n)?;
            let n = u32::from_le_bytes(n);
            if *at + 4 + u64::from(n) > body {
                return Err(std::io::ErrorKind::InvalidData.into());
            }
            buf.resize(n as usize, 0);
            r.read_exact(buf)?;
            let start = *at + 4;
            *at = start + u64::from(n);
            Ok::<u64, std::io::Error>(start)
        };
        let mut at = head.len() as u64;
        let mut buf = vec![];
        record(&mut r, &mut at, &mut buf)?;
        let Ok(pages) = postcard::from_bytes::<BTreeMap<String, PageEntry>>(&buf) else { return Ok(None) };
        let mut n = [0u8; 8];
        r.read_exact(&mut n)?;
        at += 8;
        let count = u64::from_le_bytes(n) as usize;
        let mut slots = vec![None; ids.len()];
        let mut by_id: Option<std::collections::HashMap<&str, usize>> = None;
        for place in 0..count {
            let start = record(&mut r, &mut at, &mut buf)?;
            let Ok((id, rest)) = postcard::take_from_bytes::<&str>(&buf) else { return Ok(None) };
            let slot = Slot { offset: start + (buf.len() - rest.len()) as u64, len: rest.len() as u32 };
            // Found by place first; a manifest reordered since is looked up by ID.
            let k = if ids.get(place).is_some_and(|m| m == id) {
                Some(place)
            } else {
                by_id
                    .get_or_insert_with(|| ids.iter().enumerate().map(|(k, m)| (m.as_str(), k)).collect())
                    .get(id)
                    .copied()
            };
            if let Some(k) = k {
                slots[k] = Some(slot);
            }
        }
        if at != body {
            return Ok(None);
        }
        drop(r);
        Ok(Some(PrevCache { file: Spill::existing(file, body), slots, count, pages }))
    }

    /// The last build's entry for the model at place `k` of the manifest.
    pub fn slot(&self, k: usize) -> Option<Slot> {
        self.slots.get(k).copied().flatten()
    }

    pub fn file(&self) -> &Spill {
        &self.file
    }
}

/// Writes the cache for the next build to `path`, whole or not at all, through `tmp` (in the
/// build's staging folder, so that a build killed between the two leaves no file beyond the
/// staging folder itself, which the next build removes): the page groups, then each model's ID
/// and entry (already encoded, as `entries` gives them), streamed. Returns the stamp: the digest
/// of what it wrote, so the same build stamps the same.
pub fn save_cache<E: Into<std::io::Error>>(
    path: &Path,
    tmp: &Path,
    pages: &BTreeMap<String, PageEntry>,
    count: usize,
    entries: impl Iterator<Item = Result<(String, Vec<u8>), E>>,
) -> std::io::Result<String> {
    use std::io::Write;
    let write = || -> std::io::Result<String> {
        let file = std::io::BufWriter::with_capacity(1 << 16, std::fs::File::create(tmp)?);
        let mut out = Tee { out: file, hasher: Hasher::new(&[]) };
        out.write_all(MAGIC)?;
        out.write_all(&FORMAT.to_le_bytes())?;
        let record = |out: &mut Tee<_>, parts: &[&[u8]]| -> std::io::Result<()> {
            let n: usize = parts.iter().map(|p| p.len()).sum();
            let n = u32::try_from(n).map_err(std::io::Error::other)?;
            out.write_all(&n.to_le_bytes())?;
            parts.iter().try_for_each(|p| out.write_all(p))
        };
        record(&mut out, &[&postcard::to_stdvec(pages).map_err(std::io::Error::other)?])?;
        out.write_all(&(count as u64).to_le_bytes())?;
        let mut written = 0;
        for entry in entries {
            let (id, bytes) = entry.map_err(Into::into)?;
            record(&mut out, &[&postcard::to_stdvec(&id).map_err(std::io::Error::other)?, &bytes])?;
            written += 1;
        }
        if written != count {
            return Err(std::io::Error::other(format!("{written} cache entries for {count} models")));
        }
        let Tee { out: mut file, hasher } = out;
        let stamp = hasher.finish();
        file.write_all(stamp.as_bytes())?;
        file.flush()?;
        Ok(stamp)
    };
    let saved = write().and_then(|stamp| std::fs::rename(tmp, path).map(|()| stamp));
    if saved.is_err() {
        // Not left in the staging folder, which becomes the site.
        let _ = std::fs::remove_file(tmp);
    }
    saved
}

/// Writes to `out` and hashes what it wrote: the cache as it is saved, a site page as it is
/// rendered.
pub struct Tee<W> {
    pub out: W,
    pub hasher: Hasher,
}

impl<W: std::io::Write> std::io::Write for Tee<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.hasher.0.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
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

    fn entry(id: &str, input: &str) -> ModelEntry {
        ModelEntry {
            summary: ModelSummary { id: id.into(), delta_pct: Some(0.1 + 0.2), ..ModelSummary::default() },
            input: input.into(),
            output: "o".into(),
            family_name: "Llama".into(),
            changes: vec![],
            feed: None,
            osv: vec![],
            html: (1, 2),
            md: (3, 4),
            json: 5,
        }
    }

    fn save(path: &Path, entries: &[ModelEntry]) -> String {
        let mut pages = BTreeMap::new();
        pages.insert("x".into(), PageEntry { input: "1".into(), files: vec![("x.html".into(), "2".into())] });
        let records = entries.iter().map(|e| {
            Ok::<_, std::io::Error>((
                e.summary.id.clone(),
                postcard::to_stdvec(e).map_err(std::io::Error::other)?,
            ))
        });
        save_cache(path, &path.with_extension("tmp"), &pages, entries.len(), records).unwrap()
    }

    #[test]
    fn a_cache_is_used_only_for_the_site_it_stamped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        let stamp = save(&path, &[entry("a/b", "1")]);
        assert!(!path.with_extension("tmp").exists(), "the temporary is renamed, not left");
        assert_eq!(stamp, save(&path, &[entry("a/b", "1")]), "the same build stamps the same");
        assert_ne!(stamp, save(&path, &[entry("a/b", "2")]));
        let stamp = save(&path, &[entry("a/b", "1")]);
        let ids = ["a/b".to_string()];
        assert!(PrevCache::load(&path, Some(&stamp), &ids).is_some());
        assert!(PrevCache::load(&path, Some("another build"), &ids).is_none());
        assert!(PrevCache::load(&path, None, &ids).is_none(), "a site with no stamp gets a full build");
        // Cut short (a disk full when it was written): its stamp is gone with its end.
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        assert!(PrevCache::load(&path, Some(&stamp), &ids).is_none());
        // The stamp kept but a record cut: the lengths do not add up.
        let mut cut = bytes[..bytes.len() - 70].to_vec();
        cut.extend_from_slice(stamp.as_bytes());
        std::fs::write(&path, &cut).unwrap();
        assert!(PrevCache::load(&path, Some(&stamp), &ids).is_none());
    }

    #[test]
    fn the_last_builds_entries_are_found_by_place_or_by_id_and_read_back_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache");
        let stamp = save(&path, &[entry("a/b", "1"), entry("c/d", "2"), entry("gone/model", "3")]);
        // The manifest since: c/d first, a new model, a/b; gone/model left out.
        let ids = ["c/d".to_string(), "new/one".to_string(), "a/b".to_string()];
        let prev = PrevCache::load(&path, Some(&stamp), &ids).unwrap();
        assert_eq!(prev.count, 3);
        assert!(prev.slot(1).is_none());
        let cd: ModelEntry = prev.file().get(prev.slot(0).unwrap()).unwrap();
        assert_eq!((cd.summary.id.as_str(), cd.input.as_str()), ("c/d", "2"));
        let ab: ModelEntry = prev.file().get(prev.slot(2).unwrap()).unwrap();
        assert_eq!(ab.summary.delta_pct.map(f64::to_bits), Some((0.1f64 + 0.2).to_bits()));
        assert_eq!(prev.pages["x"].files, vec![("x.html".to_string(), "2".to_string())]);
        let summary: ModelSummary = prev.file().get_first(prev.slot(2).unwrap()).unwrap();
        assert_eq!(summary.id, "a/b");
    }
}
