//! `[discover]` expanded into the exact list, and the lock file that records it (`models.lock`
//! beside models.toml), so that a build made from a synced snapshot is reproducible: `build`
//! reads the lock, never the Hub.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::manifest::{Discover, ManifestError};
use crate::model_id::ModelId;
use crate::source::hub_api::{HubClient, HubError};

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Lock {
    /// The `[discover]` table this list was made from.
    discover: Discover,
    /// The day the list was read.
    read: String,
    models: Vec<String>,
}

pub fn lock_path(manifest: &Path) -> PathBuf {
    manifest.with_extension("lock")
}

/// The discovered IDs from the lock; an error when it is missing, unreadable or made from
/// another `[discover]` table.
pub fn read_lock(manifest: &Path, discover: &Discover) -> Result<Vec<ModelId>, ManifestError> {
    let path = lock_path(manifest);
    let err = |reason: String| ManifestError::Lock { path: path.clone(), reason };
    let text = crate::input_file::read_text(&path, crate::input_file::MANIFEST_LIMIT).map_err(|e| {
        err(format!(
            "[discover] needs the lock file `modelatlas sync` writes ({e}); run `modelatlas sync` first"
        ))
    })?;
    let lock: Lock = toml::from_str(&text).map_err(|e| err(e.to_string()))?;
    if &lock.discover != discover {
        return Err(err(format!(
            "made from another [discover] table ({:?}); run `modelatlas sync` to refresh it",
            lock.discover
        )));
    }
    lock.models
        .iter()
        .enumerate()
        .map(|(i, id)| ModelId::parse(id).map_err(|e| err(format!("models[{i}]: {e}"))))
        .collect()
}

/// Asks the Hub for the list and writes the lock (by a temporary name and a rename). The lock is
/// rewritten only when the list or the table changed, so a re-sync that finds the same list
/// writes nothing.
pub fn expand(
    client: &HubClient,
    manifest: &Path,
    discover: &Discover,
) -> Result<Vec<ModelId>, DiscoverError> {
    let mut filters = Vec::new();
    if let Some(a) = &discover.author {
        filters.push(("author", a.clone()));
    }
    if let Some(t) = &discover.pipeline_tag {
        filters.push(("pipeline_tag", t.clone()));
    }
    let listed = client.list_models(&filters, discover.top)?;
    let ids: Vec<ModelId> = listed.iter().filter_map(|s| ModelId::parse(s).ok()).collect();
    let path = lock_path(manifest);
    let old: Option<Lock> = std::fs::read_to_string(&path).ok().and_then(|t| toml::from_str(&t).ok());
    let names: Vec<String> = ids.iter().map(ToString::to_string).collect();
    if old.as_ref().is_some_and(|l| &l.discover == discover && l.models == names) {
        return Ok(ids);
    }
    let lock = Lock { discover: discover.clone(), read: super::today(), models: names };
    let text = format!(
        "# Written by `modelatlas sync` from [discover] in {}; `build` reads it. Do not edit.\n{}",
        manifest.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default(),
        toml::to_string(&lock)
            .map_err(|e| DiscoverError::Write { path: path.clone(), reason: e.to_string() })?
    );
    let tmp = path.with_extension("lock.tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| DiscoverError::Write { path: path.clone(), reason: e.to_string() })?;
    Ok(ids)
}

#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("[discover]: {0}")]
    Hub(#[from] HubError),
    #[error("{path}: {reason}")]
    Write { path: PathBuf, reason: String },
}
