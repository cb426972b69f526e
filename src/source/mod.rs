//! Where a model's files come from: the offline snapshot (a Hugging Face cache folder), or a
//! config.json on disk. Every source hands the planner the same [`ModelFiles`], so the live Hub
//! slots in as one more implementation of [`ModelSource`].

#[cfg(feature = "io")]
pub mod hub_cache;
#[cfg(feature = "io")]
pub mod local;
pub mod meta;

use std::path::PathBuf;

pub use meta::{CheckpointInfo, CheckpointTensor, HubMeta};

/// What the planner reads for one model.
#[derive(Debug, Clone)]
pub struct ModelFiles {
    /// How the page names the model: the Hub ID, or a label for a file on disk.
    pub label: String,
    /// The config.json text, as published.
    pub config_text: String,
    /// Where the config came from, for error messages and the page's provenance line.
    pub config_path: PathBuf,
    /// The Hub commit the files belong to, when known.
    pub commit: Option<String>,
    /// Facts about the published repository that config.json does not hold.
    pub meta: Option<HubMeta>,
    /// Tensor names from `model.safetensors.index.json` when the snapshot has one.
    pub index_tensor_names: Option<Vec<String>>,
}

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{model}: not in the snapshot: {path} does not exist")]
    NotInSnapshot { model: String, path: PathBuf },
    #[error("{model}: {path}: {reason}")]
    Unreadable { model: String, path: PathBuf, reason: String },
    #[error("{model}: {path}: field `{field}`: {reason}")]
    BadMeta { model: String, path: PathBuf, field: String, reason: String },
}

/// A place model files can be read from. `Sync` so that the batch builder can share one across
/// rayon threads.
pub trait ModelSource: Sync {
    fn load(&self, id: &crate::model_id::ModelId) -> Result<ModelFiles, SourceError>;
}

/// Reads a whole file, naming the model and the path in the error.
#[cfg(feature = "io")]
pub(crate) fn read_text(model: &str, path: &std::path::Path) -> Result<String, SourceError> {
    std::fs::read_to_string(path).map_err(|e| SourceError::Unreadable {
        model: model.to_string(),
        path: path.to_path_buf(),
        reason: e.to_string(),
    })
}

/// Reads and deserialises a JSON file; an error names the model, the file and the field.
#[cfg(feature = "io")]
pub(crate) fn read_json<T: serde::de::DeserializeOwned>(
    model: &str,
    path: &std::path::Path,
) -> Result<T, SourceError> {
    let text = read_text(model, path)?;
    let mut de = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| SourceError::BadMeta {
        model: model.to_string(),
        path: path.to_path_buf(),
        field: e.path().to_string(),
        reason: e.inner().to_string(),
    })
}

/// Tensor names listed in a `model.safetensors.index.json`, sorted.
#[cfg(feature = "io")]
pub(crate) fn read_index_names(model: &str, path: &std::path::Path) -> Result<Vec<String>, SourceError> {
    #[derive(serde::Deserialize)]
    struct Index {
        weight_map: std::collections::BTreeMap<String, String>,
    }
    let index: Index = read_json(model, path)?;
    Ok(index.weight_map.into_keys().collect())
}
