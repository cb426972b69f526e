//! The one place that writes the site. A build writes into a staging folder beside the target and
//! swaps it in at the end, so a failed or interrupted build never leaves a half-written site, and
//! pages of models removed from models.toml do not linger.
//!
//! Beside a target `<dir>/<name>` a build keeps, while it runs:
//! - `.<name>.modelatlas-lock`, locked (flock) for the whole build, so two builds into one target
//!   cannot interleave; the file itself stays (removing a lock file races with the next locker);
//! - `.<name>.modelatlas-staging-<pid>`, the site being written, with [`MARKER`] from its first
//!   moment; after the swap it holds the previous site until that is removed;
//! - only where the atomic exchange is unavailable, `.<name>.modelatlas-old-<pid>`, the previous
//!   site between the two renames.
//!
//! A build that is killed leaves these behind. The next build into the same target, once it holds
//! the lock (so their owner is gone), removes every such folder that carries the marker (or is
//! empty), and puts an `-old-` folder back first if the target itself is missing. It touches
//! nothing else.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// Marks a folder as a modelatlas site, so that a rebuild may replace it; a folder without it is
/// never deleted.
pub const MARKER: &str = ".modelatlas-site";

const MARKER_TEXT: &[u8] = b"This folder was written by modelatlas; a rebuild replaces it whole.\n";

/// Starts the marker's line that names the build which wrote the site.
const STAMP: &str = "build ";

/// Files that say a folder is a project, not an output folder.
const PROJECT_FILES: [&str; 3] = ["Cargo.toml", "models.toml", ".git"];

#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error(
        "{0} exists, is not empty and was not made by modelatlas (no {MARKER} file); refusing to replace it"
    )]
    NotASite(PathBuf),
    #[error("refusing to write outside the site: {0:?}")]
    BadPath(String),
    #[error("refusing to build into {}: {why}", path.display())]
    Refused { path: PathBuf, why: Refusal },
    #[error(
        "another modelatlas build{} is writing {}; wait for it to finish or choose another --out (its lock: {})",
        holder.map(|p| format!(" (pid {p})")).unwrap_or_default(),
        target.display(),
        lock.display()
    )]
    Locked { target: PathBuf, lock: PathBuf, holder: Option<u32> },
}

/// Why an output folder is refused before anything is written.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("the path is empty")]
    Empty,
    #[error("it is the filesystem root")]
    Root,
    #[error(
        "it is the current folder or one of its parents ({}); a build replaces its output folder whole",
        .0.display()
    )]
    CurrentDir(PathBuf),
    #[error("it is a dangling symbolic link (to {}); pass a real folder", .0.display())]
    DanglingSymlink(PathBuf),
    #[error(
        "it is a symbolic link (to {}); a build swaps its output folder by renaming, which would replace \
         the link rather than the folder it points to; pass the real folder",
        .0.display()
    )]
    Symlink(PathBuf),
    #[error("it is a file, not a folder")]
    NotAFolder,
    #[error("it is {what}, {}, or a folder above it", path.display())]
    Holds { what: &'static str, path: PathBuf },
    #[error("it is inside {what}, {}", path.display())]
    Inside { what: &'static str, path: PathBuf },
    #[error("it holds {0} and was not made by modelatlas (no {MARKER} file): it looks like a project folder")]
    Project(&'static str),
}

/// A folder the output may not replace: the build's own inputs.
#[derive(Debug, Clone, Copy)]
pub struct Protected<'a> {
    pub path: &'a Path,
    /// Named in the refusal: "the snapshot folder (--hub)".
    pub what: &'static str,
    /// Also refuse an output inside it (the snapshot: yes; the manifest's folder: no, `site/`
    /// beside models.toml is the default).
    pub inside_too: bool,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_path_buf(), source }
}

fn refused(path: &Path, why: Refusal) -> OutputError {
    OutputError::Refused { path: path.to_path_buf(), why }
}

/// An absolute path with the symbolic links of its existing part resolved; the part that does not
/// exist yet is taken as written, `..` removing the part before it.
fn resolve(path: &Path) -> Result<PathBuf, OutputError> {
    let cwd = std::env::current_dir().map_err(io(Path::new(".")))?;
    let abs = cwd.join(path);
    let mut existing = abs.as_path();
    let mut rest = vec![];
    loop {
        match existing.canonicalize() {
            Ok(mut resolved) => {
                for c in rest.iter().rev() {
                    match c {
                        Component::ParentDir => {
                            resolved.pop();
                        }
                        Component::Normal(name) => resolved.push(name),
                        _ => {}
                    }
                }
                return Ok(resolved);
            }
            Err(_) => match (existing.parent(), existing.components().next_back()) {
                (Some(parent), Some(last)) => {
                    rest.push(last);
                    existing = parent;
                }
                // Nothing of it exists, not even the root: leave it as written.
                _ => return Ok(abs),
            },
        }
    }
}

/// Refuses an output folder that a build must not replace, before anything is planned or
/// written: the root, the current folder or a parent of it, a symbolic link, a file, one of
/// `protected`, a project folder, a folder that is not a site. Returns the resolved target.
pub fn check_target(out: &Path, protected: &[Protected]) -> Result<PathBuf, OutputError> {
    if out.as_os_str().is_empty() {
        return Err(refused(out, Refusal::Empty));
    }
    if let Ok(meta) = std::fs::symlink_metadata(out)
        && meta.file_type().is_symlink()
    {
        let to = std::fs::read_link(out).unwrap_or_default();
        let why = if out.exists() { Refusal::Symlink(to) } else { Refusal::DanglingSymlink(to) };
        return Err(refused(out, why));
    }
    let target = resolve(out)?;
    if target.parent().is_none() {
        return Err(refused(out, Refusal::Root));
    }
    let cwd = std::env::current_dir().and_then(|d| d.canonicalize()).map_err(io(Path::new(".")))?;
    if cwd.starts_with(&target) {
        return Err(refused(out, Refusal::CurrentDir(cwd)));
    }
    for p in protected {
        let path = resolve(p.path)?;
        if path.starts_with(&target) {
            return Err(refused(out, Refusal::Holds { what: p.what, path }));
        }
        if p.inside_too && target.starts_with(&path) {
            return Err(refused(out, Refusal::Inside { what: p.what, path }));
        }
    }
    match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_dir() => return Err(refused(out, Refusal::NotAFolder)),
        Ok(_) if !target.join(MARKER).is_file() => {
            if let Some(file) = PROJECT_FILES.into_iter().find(|f| target.join(f).exists()) {
                return Err(refused(out, Refusal::Project(file)));
            }
            if std::fs::read_dir(&target).map_err(io(&target))?.next().is_some() {
                return Err(OutputError::NotASite(out.to_path_buf()));
            }
        }
        _ => {}
    }
    Ok(target)
}

/// `.<name>.modelatlas-<what>`, beside the target.
fn sibling(target: &Path, name: &OsStr, what: &str) -> PathBuf {
    let mut s = OsString::from(".");
    s.push(name);
    s.push(".modelatlas-");
    s.push(what);
    target.with_file_name(s)
}

/// What a build found left by earlier, interrupted builds into the same target.
#[derive(Debug, Default, Clone)]
pub struct Leftovers {
    /// Folders removed.
    pub removed: Vec<PathBuf>,
    /// An `-old-` folder put back because the target was missing.
    pub restored: Option<PathBuf>,
    /// Folders named like leftovers but kept: not empty and without the marker.
    pub kept: Vec<PathBuf>,
}

/// Removes a site folder so that, if interrupted, what remains still carries the marker or is
/// empty: the marker goes last.
fn remove_site(dir: &Path) -> std::io::Result<()> {
    let entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)?
        .filter(|e| e.as_ref().map_or(true, |e| e.file_name() != MARKER))
        .collect::<Result<_, _>>()?;
    remove_entries(entries)?;
    match std::fs::remove_file(dir.join(MARKER)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    std::fs::remove_dir(dir)
}

/// Removes files and folders, on every worker thread: one file at a time, removing the previous
/// site of 1,000 models took 1.3 to 22 s here (2 cores shared with other builds), as long as
/// building the new one.
fn remove_entries(entries: Vec<std::fs::DirEntry>) -> std::io::Result<()> {
    use rayon::prelude::*;
    entries.into_par_iter().try_for_each(|entry| {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            remove_entries(std::fs::read_dir(&path)?.collect::<Result<_, _>>()?)?;
            std::fs::remove_dir(&path)
        } else {
            std::fs::remove_file(&path)
        }
    })
}

/// The leftovers of earlier builds into `target`; call only while holding its lock.
fn clean_leftovers(target: &Path, name: &OsStr) -> Result<Leftovers, OutputError> {
    let parent = target.parent().unwrap_or(Path::new("/"));
    let prefix = |what: &str| {
        let p = sibling(target, name, what);
        p.file_name().map(|n| n.as_encoded_bytes().to_vec()).unwrap_or_default()
    };
    let (staging, old) = (prefix("staging-"), prefix("old-"));
    let kind = |file: &OsStr| {
        let bytes = file.as_encoded_bytes();
        [(&staging, false), (&old, true)].into_iter().find_map(|(p, is_old)| {
            let pid = bytes.strip_prefix(p.as_slice())?;
            (!pid.is_empty() && pid.iter().all(u8::is_ascii_digit)).then_some(is_old)
        })
    };
    let mut found: Vec<(PathBuf, bool)> = vec![];
    for entry in std::fs::read_dir(parent).map_err(io(parent))? {
        let entry = entry.map_err(io(parent))?;
        let Some(is_old) = kind(&entry.file_name()) else { continue };
        if entry.file_type().map_err(io(&entry.path()))?.is_dir() {
            found.push((entry.path(), is_old));
        }
    }
    found.sort();
    let mut left = Leftovers::default();
    // An `-old-` folder is a whole previous site moved aside by one rename; a target that is
    // missing was moved there by a build killed before its second rename.
    if std::fs::symlink_metadata(target).is_err()
        && let Some(i) = found.iter().position(|(p, is_old)| *is_old && p.join(MARKER).is_file())
    {
        let (old, _) = found.remove(i);
        std::fs::rename(&old, target).map_err(io(target))?;
        left.restored = Some(old);
    }
    for (dir, _) in found {
        if dir.join(MARKER).is_file() {
            remove_site(&dir).map_err(io(&dir))?;
            left.removed.push(dir);
        } else if std::fs::remove_dir(&dir).is_ok() {
            left.removed.push(dir);
        } else {
            left.kept.push(dir);
        }
    }
    Ok(left)
}

/// Swaps two folders in one step where the system can (Linux 3.15+, on ext4, xfs, btrfs, tmpfs
/// and most local filesystems); `Ok(false)` where it cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use rustix::io::Errno;
    match renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE) {
        Ok(()) => Ok(true),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<bool> {
    Ok(false)
}

pub struct SiteWriter {
    staging: PathBuf,
    target: PathBuf,
    name: OsString,
    made_dirs: Mutex<HashSet<PathBuf>>,
    leftovers: Leftovers,
    finished: bool,
    /// Held (flock) until the writer is dropped.
    _lock: File,
}

impl SiteWriter {
    /// Checks the target ([`check_target`] with nothing protected), takes its lock, cleans up
    /// what earlier builds left, and opens a staging folder beside it.
    pub fn create(target: &Path) -> Result<Self, OutputError> {
        let given = target;
        let target = check_target(given, &[])?;
        let name = target.file_name().ok_or_else(|| refused(given, Refusal::Root))?.to_os_string();
        let parent = target.parent().unwrap_or(Path::new("/"));
        std::fs::create_dir_all(parent).map_err(io(parent))?;

        let lock_path = sibling(&target, &name, "lock");
        let mut lock = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(io(&lock_path))?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder =
                    std::fs::read_to_string(&lock_path).ok().and_then(|s| s.trim().parse::<u32>().ok());
                return Err(OutputError::Locked { target: given.to_path_buf(), lock: lock_path, holder });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io(&lock_path)(e)),
        }
        // The holder's pid, for the message a second build prints.
        lock.set_len(0).and_then(|()| writeln!(lock, "{}", std::process::id())).map_err(io(&lock_path))?;

        let leftovers = clean_leftovers(&target, &name)?;
        // A new site's target must still be acceptable after a restore.
        check_target(given, &[])?;

        let staging = sibling(&target, &name, &format!("staging-{}", std::process::id()));
        std::fs::create_dir(&staging).map_err(io(&staging))?;
        // The marker from the first moment: a killed build's staging folder is recognisable.
        std::fs::write(staging.join(MARKER), MARKER_TEXT).map_err(io(&staging))?;
        Ok(SiteWriter {
            staging,
            target,
            name,
            made_dirs: Mutex::new(HashSet::new()),
            leftovers,
            finished: false,
            _lock: lock,
        })
    }

    /// What earlier, interrupted builds had left and this one cleaned up.
    pub fn leftovers(&self) -> &Leftovers {
        &self.leftovers
    }

    /// Writes one file, `rel` being a `/`-separated path under the site root.
    pub fn write(&self, rel: &str, contents: &[u8]) -> Result<(), OutputError> {
        let path = self.prepare(rel)?;
        std::fs::write(&path, contents).map_err(io(&path))
    }

    /// Writes one file as `make` produces it, through a buffer: for a file too large to hold
    /// whole. An error of `make` (its own writes' included) is returned as it is.
    pub fn write_with<T, E: From<OutputError>>(
        &self,
        rel: &str,
        make: impl FnOnce(&mut dyn Write) -> Result<T, E>,
    ) -> Result<T, E> {
        let path = self.prepare(rel)?;
        let file = File::create(&path).map_err(io(&path))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
        let made = make(&mut out)?;
        out.flush().map_err(io(&path))?;
        Ok(made)
    }

    /// The staged path of `rel`, its folder made.
    fn prepare(&self, rel: &str) -> Result<PathBuf, OutputError> {
        let path = self.staged(rel)?;
        if let Some(dir) = path.parent() {
            // Creating a folder costs about a millisecond here: remember the ones made.
            let mut made = self.made_dirs.lock().unwrap_or_else(|e| e.into_inner());
            if !made.contains(dir) {
                std::fs::create_dir_all(dir).map_err(io(dir))?;
                made.insert(dir.to_path_buf());
            }
        }
        Ok(path)
    }

    /// Carries a file of the site being replaced into the new one unchanged, as a hard link (the
    /// same file: not rewritten, its modification time kept), or as a copy where the file system
    /// has no hard links. `Ok(false)` when the previous site has no such file. A carried file
    /// is the live site's own until the swap: remove it before writing that path again.
    pub fn reuse(&self, rel: &str) -> Result<bool, OutputError> {
        self.staged(rel)?;
        let from = self.target.join(rel);
        match std::fs::symlink_metadata(&from) {
            Ok(meta) if meta.is_file() => {}
            Ok(_) => return Ok(false),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io(&from)(e)),
        }
        let to = self.prepare(rel)?;
        if std::fs::hard_link(&from, &to).is_err() {
            std::fs::copy(&from, &to).map_err(io(&to))?;
        }
        Ok(true)
    }

    /// Whether the site being replaced has a file at `rel`.
    pub fn previous_has(&self, rel: &str) -> bool {
        self.staged(rel).is_ok()
            && std::fs::symlink_metadata(self.target.join(rel)).is_ok_and(|m| m.is_file())
    }

    /// The contents of a file of the site being replaced; `None` when it has no such file.
    pub fn previous(&self, rel: &str) -> Result<Option<Vec<u8>>, OutputError> {
        self.staged(rel)?;
        let from = self.target.join(rel);
        match std::fs::read(&from) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io(&from)(e)),
        }
    }

    /// The build stamp of the site being replaced (see [`SiteWriter::stamp`]), if it has one.
    pub fn previous_stamp(&self) -> Option<String> {
        let text = std::fs::read_to_string(self.target.join(MARKER)).ok()?;
        text.lines().find_map(|l| l.strip_prefix(STAMP)).map(str::to_string)
    }

    /// Records in the new site's marker which build wrote it, so that a later build uses its
    /// cache (kept beside the site, [`SiteWriter::cache_path`]) only for the site it describes.
    pub fn stamp(&self, id: &str) -> Result<(), OutputError> {
        let path = self.staging.join(MARKER);
        let mut text = MARKER_TEXT.to_vec();
        text.extend_from_slice(format!("{STAMP}{id}\n").as_bytes());
        std::fs::write(&path, text).map_err(io(&path))
    }

    /// `.<name>.modelatlas-cache`, beside the target: what an incremental build keeps of the
    /// last one. Outside the site, so it is neither published nor counted in the site's bytes.
    pub fn cache_path(&self) -> PathBuf {
        sibling(&self.target, &self.name, "cache")
    }

    /// Where the cache is written before it is renamed to [`SiteWriter::cache_path`]: inside the
    /// staging folder, so a kill in between leaves nothing the next build's cleanup misses.
    pub fn cache_temp_path(&self) -> PathBuf {
        self.staging.join(".modelatlas-cache.tmp")
    }

    /// An unnamed file in the staging folder, for what the build keeps until the site is made: it
    /// is gone once closed, and never part of the site.
    pub fn scratch(&self) -> Result<File, OutputError> {
        tempfile::tempfile_in(&self.staging).map_err(io(&self.staging))
    }

    /// Leaves the target as it is and discards the staging folder: for a build that found
    /// nothing to change.
    pub fn keep_previous(self) {
        drop(self)
    }

    /// Adds to the end of a file written earlier in this build (a model page's second pass).
    pub fn append(&self, rel: &str, contents: &[u8]) -> Result<(), OutputError> {
        use std::io::Write;
        let path = self.staged(rel)?;
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).map_err(io(&path))?;
        f.write_all(contents).map_err(io(&path))
    }

    /// Removes a file written earlier in this build, so that a model whose second pass fails
    /// leaves no partial page; a file that is not there is no error.
    pub fn remove(&self, rel: &str) -> Result<(), OutputError> {
        let path = self.staged(rel)?;
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&path)(e)),
            _ => Ok(()),
        }
    }

    fn staged(&self, rel: &str) -> Result<PathBuf, OutputError> {
        let rel_path = Path::new(rel);
        if rel.is_empty()
            || rel == MARKER
            || !rel_path.components().all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(OutputError::BadPath(rel.to_string()));
        }
        Ok(self.staging.join(rel_path))
    }

    /// Swaps the staged site in for the target, then removes the previous one.
    pub fn finish(mut self) -> Result<(), OutputError> {
        self.swap_in(true)
    }

    fn swap_in(&mut self, try_exchange: bool) -> Result<(), OutputError> {
        let (staging, target) = (&self.staging, &self.target);
        if std::fs::symlink_metadata(target).is_err() {
            std::fs::rename(staging, target).map_err(io(target))?;
            self.finished = true;
            return Ok(());
        }
        if !(try_exchange && exchange(staging, target).map_err(io(target))?) {
            // Two renames: between them the target is missing, and the previous site waits under
            // the `-old-` name, which the next build puts back.
            let old = sibling(target, &self.name, &format!("old-{}", std::process::id()));
            std::fs::rename(target, &old).map_err(io(target))?;
            if let Err(e) = std::fs::rename(staging, target) {
                let _ = std::fs::rename(&old, target);
                return Err(io(target)(e));
            }
            // Under a staging name it is only ever removed, never put back half-removed.
            std::fs::rename(&old, staging).map_err(io(&old))?;
        }
        self.finished = true;
        // The staging name now holds the previous site.
        remove_site(staging).map_err(io(staging))
    }
}

impl Drop for SiteWriter {
    fn drop(&mut self) {
        if !self.finished {
            // A failed build leaves nothing beside the target; the lock is still held here.
            let _ = remove_site(&self.staging);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_build_replaces_the_previous_site_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        let w = SiteWriter::create(&target).unwrap();
        w.write("models/a/old.html", b"old").unwrap();
        w.finish().unwrap();
        let w = SiteWriter::create(&target).unwrap();
        w.write("models/a/new.html", b"new").unwrap();
        assert!(target.join("models/a/old.html").exists(), "nothing changes before finish");
        w.finish().unwrap();
        assert!(!target.join("models/a/old.html").exists());
        assert_eq!(std::fs::read(target.join("models/a/new.html")).unwrap(), b"new");
        assert_eq!(names(dir.path()), [".site.modelatlas-lock", "site"], "no staging or old copy is left");
    }

    #[test]
    fn a_file_carried_over_is_the_previous_sites_file_unchanged_and_outlives_the_swap() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        let w = SiteWriter::create(&target).unwrap();
        w.write("models/a/kept.html", b"kept").unwrap();
        w.finish().unwrap();
        let inode = std::fs::metadata(target.join("models/a/kept.html")).unwrap().ino();
        let w = SiteWriter::create(&target).unwrap();
        assert!(w.previous_has("models/a/kept.html"));
        assert!(w.reuse("models/a/kept.html").unwrap());
        assert!(!w.reuse("models/a/never.html").unwrap(), "nothing to carry over");
        assert_eq!(w.previous("models/a/kept.html").unwrap().unwrap(), b"kept");
        w.stamp("b1").unwrap();
        w.finish().unwrap();
        assert_eq!(std::fs::read(target.join("models/a/kept.html")).unwrap(), b"kept");
        assert_eq!(std::fs::metadata(target.join("models/a/kept.html")).unwrap().ino(), inode);
        let w = SiteWriter::create(&target).unwrap();
        assert_eq!(w.previous_stamp().as_deref(), Some("b1"));
        assert!(matches!(w.reuse("../x"), Err(OutputError::BadPath(_))));
    }

    #[test]
    fn the_two_rename_fallback_also_replaces_the_site_and_leaves_no_copy() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        let w = SiteWriter::create(&target).unwrap();
        w.write("a.html", b"old").unwrap();
        w.finish().unwrap();
        let mut w = SiteWriter::create(&target).unwrap();
        w.write("b.html", b"new").unwrap();
        w.swap_in(false).unwrap();
        drop(w);
        assert_eq!(names(&target), [MARKER, "b.html"]);
        assert_eq!(names(dir.path()), [".site.modelatlas-lock", "site"]);
    }

    #[test]
    fn a_failed_build_removes_its_staging_folder_and_keeps_the_site() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        let w = SiteWriter::create(&target).unwrap();
        w.write("a.html", b"old").unwrap();
        w.finish().unwrap();
        let w = SiteWriter::create(&target).unwrap();
        w.write("b.html", b"new").unwrap();
        drop(w);
        assert_eq!(names(&target), [MARKER, "a.html"]);
        assert_eq!(names(dir.path()), [".site.modelatlas-lock", "site"]);
    }

    #[test]
    fn a_folder_that_is_not_a_site_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("precious.txt"), "x").unwrap();
        assert!(matches!(SiteWriter::create(dir.path()), Err(OutputError::NotASite(_))));
    }

    #[test]
    fn paths_that_leave_the_site_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let w = SiteWriter::create(&dir.path().join("site")).unwrap();
        for bad in ["../x", "/etc/x", "a/../../x", "", MARKER] {
            assert!(matches!(w.write(bad, b""), Err(OutputError::BadPath(_))), "{bad}");
        }
    }

    /// Lays out what a build killed at each moment leaves: a staging folder mid-write, a previous
    /// site half-removed after a swap, and (fallback) a previous site moved aside.
    fn leftover(dir: &Path, name: &str, files: &[&str], marker: bool) -> PathBuf {
        let p = dir.join(name);
        std::fs::create_dir_all(p.join("models")).unwrap();
        for f in files {
            std::fs::write(p.join(f), f).unwrap();
        }
        if marker {
            std::fs::write(p.join(MARKER), MARKER_TEXT).unwrap();
        }
        p
    }

    #[test]
    fn a_build_removes_the_leftovers_of_killed_builds_into_the_same_target_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        leftover(dir.path(), "site", &["index.html"], true);
        leftover(dir.path(), ".site.modelatlas-staging-4242", &["index.html"], true);
        leftover(dir.path(), ".site.modelatlas-staging-4243", &[], true);
        leftover(dir.path(), ".site.modelatlas-old-17", &["index.html"], true);
        std::fs::create_dir(dir.path().join(".site.modelatlas-staging-99")).unwrap(); // empty
        // Kept: no marker; another target's; not a pid; a file.
        leftover(dir.path(), ".site.modelatlas-staging-5000", &["mine.txt"], false);
        leftover(dir.path(), ".docs.modelatlas-staging-4242", &["index.html"], true);
        leftover(dir.path(), ".site.modelatlas-staging-x1", &["index.html"], true);
        std::fs::write(dir.path().join(".site.modelatlas-staging-7"), "a file").unwrap();
        let w = SiteWriter::create(&target).unwrap();
        let removed: Vec<_> =
            w.leftovers().removed.iter().map(|p| p.file_name().unwrap().to_owned()).collect();
        assert_eq!(
            removed,
            [
                ".site.modelatlas-old-17",
                ".site.modelatlas-staging-4242",
                ".site.modelatlas-staging-4243",
                ".site.modelatlas-staging-99"
            ]
        );
        assert_eq!(w.leftovers().kept, [dir.path().join(".site.modelatlas-staging-5000")]);
        drop(w);
        assert_eq!(
            names(dir.path()),
            [
                ".docs.modelatlas-staging-4242",
                ".site.modelatlas-lock",
                ".site.modelatlas-staging-5000",
                ".site.modelatlas-staging-7",
                ".site.modelatlas-staging-x1",
                "site"
            ]
        );
        assert_eq!(names(&target), [MARKER, "index.html", "models"], "the site itself is untouched");
    }

    #[test]
    fn a_target_missing_between_the_fallback_renames_is_put_back_by_the_next_build() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        leftover(dir.path(), ".site.modelatlas-old-17", &["previous.html"], true);
        leftover(dir.path(), ".site.modelatlas-staging-17", &["new.html"], true);
        let w = SiteWriter::create(&target).unwrap();
        assert_eq!(w.leftovers().restored, Some(dir.path().join(".site.modelatlas-old-17")));
        drop(w);
        assert_eq!(names(&target), [MARKER, "models", "previous.html"]);
        assert_eq!(names(dir.path()), [".site.modelatlas-lock", "site"]);
    }

    #[test]
    fn removing_a_site_folder_removes_all_of_it() {
        let dir = tempfile::tempdir().unwrap();
        let p = leftover(dir.path(), "old", &["a.html", "b.html"], true);
        std::fs::write(p.join("models/x.html"), "x").unwrap();
        remove_site(&p).unwrap();
        assert!(!p.exists());
    }

    #[test]
    fn a_second_writer_on_the_same_target_is_refused_while_the_first_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("site");
        let first = SiteWriter::create(&target).unwrap();
        let err = SiteWriter::create(&target).err().unwrap();
        match &err {
            OutputError::Locked { holder, .. } => assert_eq!(*holder, Some(std::process::id())),
            other => panic!("{other}"),
        }
        assert!(err.to_string().contains("another modelatlas build"), "{err}");
        // The refused writer did not touch the first one's staging folder.
        first.write("a.html", b"a").unwrap();
        first.finish().unwrap();
        assert_eq!(names(&target), [MARKER, "a.html"]);
        SiteWriter::create(&target).unwrap().finish().unwrap();
    }
}
