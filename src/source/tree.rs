//! Models found in a folder tree (`build --from DIR`, `plan DIR`): the repositories of a Hugging
//! Face cache (`models--org--name/refs/main`), and plain folders each holding a config.json (a
//! user's own fine-tunes). Symlink loops, unreadable entries and folders that hold files but no
//! config.json are skipped, each with a message.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::hub_cache::HubCacheSource;
use super::{ModelFiles, ModelSource, SourceError};
use crate::model_id::ModelId;

#[derive(Debug, Clone)]
enum Place {
    /// A repository of a Hugging Face cache rooted at this folder.
    Cache(PathBuf),
    /// A folder holding config.json.
    Folder(PathBuf),
}

/// What a walk found: the models by ID (in path order) and what it skipped, in words.
#[derive(Debug, Default)]
pub struct TreeSource {
    found: BTreeMap<ModelId, Place>,
    order: Vec<ModelId>,
    pub skipped: Vec<String>,
}

/// An ID for a plain folder: its path below the root, the last two parts as `org/name` (one part:
/// a bare name), characters the Hub does not allow in an ID replaced by `-`.
fn folder_id(rel: &Path) -> Option<ModelId> {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '-' })
            .collect()
    };
    let parts: Vec<String> = rel.components().map(|c| clean(&c.as_os_str().to_string_lossy())).collect();
    let id = match parts.as_slice() {
        [] => "local-model".to_string(),
        [one] => one.clone(),
        [.., org, name] => format!("{org}/{name}"),
    };
    ModelId::parse(&id).ok()
}

impl TreeSource {
    pub fn scan(root: &Path) -> TreeSource {
        let mut out = TreeSource::default();
        let mut seen_dirs = BTreeSet::new();
        let mut walk = walkdir::WalkDir::new(root).follow_links(true).sort_by_file_name().into_iter();
        while let Some(entry) = walk.next() {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    let path = e.path().map(|p| p.display().to_string()).unwrap_or_default();
                    let why = if e.loop_ancestor().is_some() {
                        "a symlink loop".to_string()
                    } else {
                        e.to_string()
                    };
                    out.skipped.push(format!("skipped {path}: {why}"));
                    continue;
                }
            };
            if !entry.file_type().is_dir() {
                continue;
            }
            let dir = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if let Some(rest) = name.strip_prefix("models--") {
                walk.skip_current_dir();
                if !dir.join("refs").join("main").is_file() {
                    out.skipped.push(format!("skipped {}: a cache folder without refs/main", dir.display()));
                    continue;
                }
                let id = rest.replacen("--", "/", 1);
                match ModelId::parse(&id) {
                    Ok(id) => out.add(id, Place::Cache(dir.parent().unwrap_or(root).to_path_buf()), dir),
                    Err(e) => out.skipped.push(format!("skipped {}: {e}", dir.display())),
                }
                continue;
            }
            if name.starts_with("datasets--")
                || name.starts_with("spaces--")
                || name.starts_with('.') && dir != root
            {
                walk.skip_current_dir();
                continue;
            }
            let config = dir.join("config.json");
            if config.exists() {
                walk.skip_current_dir();
                if !config.is_file() {
                    out.skipped.push(format!("skipped {}: config.json is not a file", dir.display()));
                    continue;
                }
                let rel = dir.strip_prefix(root).unwrap_or(dir);
                match folder_id(rel) {
                    Some(id) => out.add(id, Place::Folder(dir.to_path_buf()), dir),
                    None => out
                        .skipped
                        .push(format!("skipped {}: no model ID can be made from its path", dir.display())),
                }
                continue;
            }
            seen_dirs.insert(dir.to_path_buf());
        }
        // A folder holding files but no config.json, and no model below it, is not a model.
        for dir in seen_dirs {
            let below = out.found.values().any(|p| match p {
                Place::Folder(f) => f.starts_with(&dir),
                Place::Cache(c) => c.starts_with(&dir),
            });
            let has_files = std::fs::read_dir(&dir)
                .map(|rd| rd.flatten().any(|e| e.file_type().is_ok_and(|t| t.is_file())))
                .unwrap_or(false);
            if !below && has_files {
                out.skipped.push(format!("skipped {}: not a model folder (no config.json)", dir.display()));
            }
        }
        out
    }

    fn add(&mut self, id: ModelId, place: Place, dir: &Path) {
        if self.found.contains_key(&id) {
            self.skipped.push(format!("skipped {}: another folder already gives the ID {id}", dir.display()));
            return;
        }
        self.order.push(id.clone());
        self.found.insert(id, place);
    }

    /// The models found, in path order.
    pub fn ids(&self) -> &[ModelId] {
        &self.order
    }
}

impl ModelSource for TreeSource {
    fn load(&self, id: &ModelId) -> Result<ModelFiles, SourceError> {
        match self.found.get(id) {
            Some(Place::Cache(root)) => HubCacheSource::new(root).load(id),
            Some(Place::Folder(dir)) => {
                let mut files = super::local::load_path(dir)?;
                files.label = id.to_string();
                Ok(files)
            }
            None => {
                Err(SourceError::NotInSnapshot { model: id.to_string(), path: PathBuf::from(id.to_string()) })
            }
        }
    }
}
