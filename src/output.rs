//! The one place that writes the site. A build writes into a staging folder beside the target and
//! swaps it in at the end, so a failed or interrupted build never leaves a half-written site, and
//! pages of models removed from models.toml do not linger.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// Marks a folder as a modelatlas site, so that a rebuild may replace it; a folder without it is
/// never deleted.
pub const MARKER: &str = ".modelatlas-site";

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
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_path_buf(), source }
}

pub struct SiteWriter {
    staging: tempfile::TempDir,
    target: PathBuf,
    made_dirs: Mutex<HashSet<PathBuf>>,
}

impl SiteWriter {
    pub fn create(target: &Path) -> Result<Self, OutputError> {
        if target.exists() {
            let is_empty = std::fs::read_dir(target).map_err(io(target))?.next().is_none();
            if !is_empty && !target.join(MARKER).is_file() {
                return Err(OutputError::NotASite(target.to_path_buf()));
            }
        }
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let staging =
            tempfile::Builder::new().prefix(".site-staging-").tempdir_in(&parent).map_err(io(&parent))?;
        Ok(SiteWriter { staging, target: target.to_path_buf(), made_dirs: Mutex::new(HashSet::new()) })
    }

    /// Writes one file, `rel` being a `/`-separated path under the site root.
    pub fn write(&self, rel: &str, contents: &[u8]) -> Result<(), OutputError> {
        let rel_path = Path::new(rel);
        if rel.is_empty() || !rel_path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(OutputError::BadPath(rel.to_string()));
        }
        let path = self.staging.path().join(rel_path);
        if let Some(dir) = path.parent() {
            // Creating a folder costs about a millisecond here: remember the ones made.
            let mut made = self.made_dirs.lock().unwrap_or_else(|e| e.into_inner());
            if !made.contains(dir) {
                std::fs::create_dir_all(dir).map_err(io(dir))?;
                made.insert(dir.to_path_buf());
            }
        }
        std::fs::write(&path, contents).map_err(io(&path))
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
        if rel.is_empty() || !rel_path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(OutputError::BadPath(rel.to_string()));
        }
        Ok(self.staging.path().join(rel_path))
    }

    /// Swaps the staged site in for the target.
    pub fn finish(self) -> Result<(), OutputError> {
        self.write(MARKER, b"This folder was written by modelatlas; a rebuild replaces it whole.\n")?;
        let staged = self.staging.keep();
        if self.target.exists() {
            let parent = staged.parent().unwrap_or(Path::new("."));
            let old = tempfile::Builder::new().prefix(".site-old-").tempdir_in(parent).map_err(io(parent))?;
            let old_site = old.path().join("site");
            std::fs::rename(&self.target, &old_site).map_err(io(&self.target))?;
            std::fs::rename(&staged, &self.target).map_err(io(&self.target))?;
            drop(old); // removes the previous site
        } else {
            std::fs::rename(&staged, &self.target).map_err(io(&self.target))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for bad in ["../x", "/etc/x", "a/../../x", ""] {
            assert!(matches!(w.write(bad, b""), Err(OutputError::BadPath(_))), "{bad}");
        }
    }
}
