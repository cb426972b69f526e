//! The Hugging Face cache layout (`models--org--name/refs/main`, `snapshots/<commit>/...`), read
//! through hf-hub's cache resolution, so that the shipped snapshot and a user's own
//! `~/.cache/huggingface/hub` are read the same way.

use std::path::{Path, PathBuf};

use hf_hub::{Cache, Repo, RepoType};

use super::{ModelFiles, ModelSource, SourceError, read_index_names, read_json, read_text};
use crate::model_id::ModelId;

/// Name of modelatlas's own metadata file inside a snapshot folder.
pub const META_FILE: &str = "modelatlas.json";
const INDEX_FILE: &str = "model.safetensors.index.json";

pub struct HubCacheSource {
    cache: Cache,
    revision: String,
}

impl HubCacheSource {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        HubCacheSource { cache: Cache::new(dir.into()), revision: "main".to_string() }
    }

    pub fn root(&self) -> &Path {
        self.cache.path()
    }

    fn repo(&self, id: &ModelId) -> Repo {
        Repo::with_revision(id.to_string(), RepoType::Model, self.revision.clone())
    }

    /// The snapshot folder the ref points at. hf-hub 0.5 joins the ref file's text verbatim, so a
    /// ref written with a trailing newline (as some tools do) would miss; the commit is trimmed
    /// here and the folder built with hf-hub's own `pointer_path`.
    fn snapshot_dir(&self, id: &ModelId) -> Result<(String, PathBuf), SourceError> {
        let repo_dir = self.root().join(id.cache_folder());
        let ref_path = repo_dir.join("refs").join(&self.revision);
        let model = id.to_string();
        if !ref_path.is_file() {
            return Err(SourceError::NotInSnapshot { model, path: ref_path });
        }
        let commit = read_text(&model, &ref_path)?.trim().to_string();
        if commit.is_empty() || commit.contains(['/', '\\']) || commit.contains("..") {
            return Err(SourceError::Unreadable {
                model,
                path: ref_path,
                reason: format!("ref holds {commit:?}, not a commit"),
            });
        }
        let dir = self.cache.repo(self.repo(id)).pointer_path(&commit);
        Ok((commit, dir))
    }
}

/// A Hub commit is 40 hex digits; a snapshot made from a copy whose revision is unknown uses a
/// folder name that is not one, and the page then says the revision is unknown.
fn as_commit(s: &str) -> Option<String> {
    (s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_string())
}

impl ModelSource for HubCacheSource {
    fn load(&self, id: &ModelId) -> Result<ModelFiles, SourceError> {
        let model = id.to_string();
        let (commit, dir) = self.snapshot_dir(id)?;
        let cached = self.cache.repo(self.repo(id));
        // hf-hub resolves the file when the ref is clean; fall back to the trimmed commit's folder.
        let config_path = cached.get("config.json").unwrap_or_else(|| dir.join("config.json"));
        if !config_path.is_file() {
            return Err(SourceError::NotInSnapshot { model, path: config_path });
        }
        let config_text = read_text(&model, &config_path)?;
        let meta_path = dir.join(META_FILE);
        let meta = if meta_path.is_file() {
            let meta: super::HubMeta = read_json(&model, &meta_path)?;
            if meta.model_id != model {
                return Err(SourceError::BadMeta {
                    model,
                    path: meta_path,
                    field: "model_id".into(),
                    reason: format!("says {:?}, but the folder is this model's", meta.model_id),
                });
            }
            Some(meta)
        } else {
            None
        };
        let index_path = dir.join(INDEX_FILE);
        let index_tensor_names =
            if index_path.is_file() { Some(read_index_names(&model, &index_path)?) } else { None };
        Ok(ModelFiles {
            label: model,
            config_text,
            config_path,
            commit: as_commit(&commit),
            meta,
            index_tensor_names,
        })
    }
}
