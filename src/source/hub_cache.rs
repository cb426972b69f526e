//! The Hugging Face cache layout (`models--org--name/refs/main`, `snapshots/<commit>/...`), read
//! through hf-hub's cache resolution, so that the shipped snapshot and a user's own
//! `~/.cache/huggingface/hub` are read the same way.

use std::path::{Path, PathBuf};

use hf_hub::{Cache, Repo, RepoType};

use super::{ModelFiles, ModelSource, SourceError, read_beside_config, read_text};
use crate::input_file::{CONFIG_LIMIT, REF_LIMIT};
use crate::model_id::ModelId;

pub use super::meta::META_FILE;
pub(crate) const INDEX_FILE: &str = "model.safetensors.index.json";

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

    /// The snapshot folder the ref points at. The ref is read here, within a size limit, and
    /// never through hf-hub 0.5's `CacheRepo::get`, which reads it whole with no limit (a FIFO
    /// there blocks, `/dev/zero` never ends) and joins its text untrimmed (a trailing newline
    /// misses). The folder is built with hf-hub's own `pointer_path`.
    fn snapshot_dir(&self, id: &ModelId) -> Result<(String, PathBuf), SourceError> {
        let repo_dir = self.root().join(id.cache_folder());
        let ref_path = repo_dir.join("refs").join(&self.revision);
        let model = id.to_string();
        let text = match read_text(&model, &ref_path, REF_LIMIT) {
            Err(SourceError::Input { error, .. }) if error.is_missing() => {
                return Err(SourceError::NotInSnapshot { model, path: ref_path });
            }
            other => other?,
        };
        let commit = check_ref(&text).map_err(|reason| SourceError::Unreadable {
            model: model.clone(),
            path: ref_path.clone(),
            reason,
        })?;
        let dir = self.cache.repo(self.repo(id)).pointer_path(commit);
        if std::fs::symlink_metadata(&dir).is_err() {
            return Err(SourceError::Unreadable {
                model,
                path: ref_path,
                reason: format!("names snapshot {commit}, but {} does not exist", dir.display()),
            });
        }
        Ok((commit.to_string(), dir))
    }
}

/// What a ref may hold: the name of a snapshot folder, which the Hub writes as a 40-digit
/// lower-case commit (a snapshot made from a copy of unknown revision uses a plain name such as
/// `unknown-revision`). The text is shown back only when it passes, so a ref that is a link to
/// some other file never has that file echoed into a message.
fn check_ref(text: &str) -> Result<&str, String> {
    const MAX_NAME: usize = 64;
    let name = text.trim();
    let plain = !name.is_empty()
        && name.len() <= MAX_NAME
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && !name.starts_with('.');
    if !plain {
        let lines = text.lines().count();
        return Err(format!(
            "holds {} bytes on {lines} line(s), not a commit (a commit is 40 lower-case hex digits)",
            text.len()
        ));
    }
    if name.len() == 40
        && name.bytes().all(|b| b.is_ascii_hexdigit())
        && name.bytes().any(|b| b.is_ascii_uppercase())
    {
        return Err(format!(
            "holds {name}, a commit with upper-case hex digits; the Hub writes commits in lower case \
             (rename the snapshot folder and the ref to {})",
            name.to_ascii_lowercase()
        ));
    }
    Ok(name)
}

/// A Hub commit is 40 lower-case hex digits; a snapshot made from a copy whose revision is
/// unknown uses a folder name that is not one, and the page then says the revision is unknown.
fn as_commit(s: &str) -> Option<String> {
    (s.len() == 40 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))).then(|| s.to_string())
}

impl ModelSource for HubCacheSource {
    fn load(&self, id: &ModelId) -> Result<ModelFiles, SourceError> {
        let model = id.to_string();
        let (commit, dir) = self.snapshot_dir(id)?;
        let config_path = dir.join("config.json");
        let config_text = match read_text(&model, &config_path, CONFIG_LIMIT) {
            Err(SourceError::Input { error, .. }) if error.is_missing() => {
                return Err(SourceError::NotInSnapshot { model, path: config_path });
            }
            other => other?,
        };
        let (meta, index_tensor_names) = read_beside_config(&model, &dir)?;
        if let Some(meta) = &meta
            && meta.model_id != model
        {
            return Err(SourceError::BadMeta {
                model,
                path: dir.join(META_FILE),
                field: "model_id".into(),
                reason: format!("says {:?}, but the folder is this model's", meta.model_id),
            });
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ref_that_is_not_a_plain_name_is_described_not_echoed() {
        let passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/bin/false\n";
        let err = check_ref(passwd).unwrap_err();
        assert!(!err.contains("root") && !err.contains("daemon"), "{err}");
        assert!(err.contains(&format!("{} bytes on 2 line(s)", passwd.len())), "{err}");
    }

    #[test]
    fn an_upper_case_commit_is_refused_naming_its_lower_case_spelling() {
        let err = check_ref("ABCDEF0123456789abcdef0123456789abcdef01").unwrap_err();
        assert!(
            err.contains("upper-case") && err.contains("abcdef0123456789abcdef0123456789abcdef01"),
            "{err}"
        );
    }

    #[test]
    fn a_commit_with_a_trailing_newline_and_the_unknown_revision_name_are_accepted() {
        let commit = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(check_ref(&format!("{commit}\n")), Ok(commit));
        assert_eq!(as_commit(commit).as_deref(), Some(commit));
        assert_eq!(check_ref("unknown-revision"), Ok("unknown-revision"));
        assert_eq!(as_commit("unknown-revision"), None);
    }
}
