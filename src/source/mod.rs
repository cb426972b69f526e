//! Where a model's files come from: the offline snapshot (a Hugging Face cache folder), or a
//! config.json on disk. Every source hands the planner the same [`ModelFiles`], so the live Hub
//! slots in as one more implementation of [`ModelSource`].

pub mod hub_api;
pub mod hub_cache;
pub mod local;
pub mod meta;
pub mod tree;

use std::path::{Path, PathBuf};

use crate::input_file::{self, INDEX_LIMIT, InputError, Limit, META_LIMIT};

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
    #[error("{model}: not in the snapshot: {} does not exist", path.display())]
    NotInSnapshot { model: String, path: PathBuf },
    /// The file is there but is not one that can be read as an input (a folder, a FIFO, a loop,
    /// too large, not UTF-8, unreadable). The cause is in the message, not a separate source, so
    /// it prints once.
    #[error("{model}: {error}")]
    Input { model: String, error: InputError },
    #[error("{model}: {}: {reason}", path.display())]
    Unreadable { model: String, path: PathBuf, reason: String },
    #[error("{model}: {}: field `{field}`: {reason}", path.display())]
    BadMeta { model: String, path: PathBuf, field: String, reason: String },
}

/// A place model files can be read from. `Sync` so that the batch builder can share one across
/// rayon threads.
pub trait ModelSource: Sync {
    fn load(&self, id: &crate::model_id::ModelId) -> Result<ModelFiles, SourceError>;
}

fn input_error(model: &str, error: InputError) -> SourceError {
    SourceError::Input { model: model.to_string(), error }
}

/// Reads a whole input file within its limit, naming the model and the path in the error.
pub(crate) fn read_text(model: &str, path: &Path, limit: Limit) -> Result<String, SourceError> {
    input_file::read_text(path, limit).map_err(|e| input_error(model, e))
}

/// Reads and deserialises an optional JSON file (`None` only when nothing is at the path); an
/// error names the model, the file and the field.
pub(crate) fn read_optional_json<T: serde::de::DeserializeOwned>(
    model: &str,
    path: &Path,
    limit: Limit,
) -> Result<Option<T>, SourceError> {
    let Some(text) = input_file::read_optional_text(path, limit).map_err(|e| input_error(model, e))? else {
        return Ok(None);
    };
    let mut de = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(&mut de).map(Some).map_err(|e| SourceError::BadMeta {
        model: model.to_string(),
        path: path.to_path_buf(),
        field: e.path().to_string(),
        reason: e.inner().to_string(),
    })
}

/// The optional files beside a config.json: modelatlas.json (validated) and the tensor names of
/// model.safetensors.index.json, sorted.
pub(crate) fn read_beside_config(
    model: &str,
    dir: &Path,
) -> Result<(Option<HubMeta>, Option<Vec<String>>), SourceError> {
    #[derive(serde::Deserialize)]
    struct Index {
        weight_map: std::collections::BTreeMap<String, String>,
    }
    let meta_path = dir.join(hub_cache::META_FILE);
    let meta: Option<HubMeta> = read_optional_json(model, &meta_path, META_LIMIT)?;
    if let Some(reason) =
        meta.as_ref().and_then(|m| m.checkpoint.as_ref()).and_then(|c| bad_total(c.total_scalars))
    {
        return Err(SourceError::BadMeta {
            model: model.to_string(),
            path: meta_path,
            field: "checkpoint.total_scalars".into(),
            reason,
        });
    }
    let index: Option<Index> = read_optional_json(model, &dir.join(hub_cache::INDEX_FILE), INDEX_LIMIT)?;
    Ok((meta, index.map(|i| i.weight_map.into_keys().collect())))
}

/// Checked here, at the edge, because the pages divide by the checkpoint's count (its share of
/// the derived count): a zero used to fail the HTML and Markdown templates with no field named.
fn bad_total(total_scalars: u64) -> Option<String> {
    (total_scalars == 0)
        .then(|| "must be at least 1 (a checkpoint with no scalars is not a checkpoint)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_of_zero_scalars_is_refused_naming_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let meta = r#"{"model_id": "org/m", "config": {"verification": "B", "sha256": "x", "source": "s"},
            "checkpoint": {"total_scalars": 0, "exact": true, "dtype": null, "source": "s", "notes": null},
            "downloads": null}"#;
        std::fs::write(dir.path().join(hub_cache::META_FILE), meta).unwrap();
        let err = read_beside_config("org/m", dir.path()).unwrap_err();
        assert!(
            matches!(&err, SourceError::BadMeta { field, .. } if field == "checkpoint.total_scalars"),
            "{err}"
        );
        std::fs::write(
            dir.path().join(hub_cache::META_FILE),
            meta.replace("\"total_scalars\": 0", "\"total_scalars\": 1"),
        )
        .unwrap();
        assert!(read_beside_config("org/m", dir.path()).unwrap().0.is_some());
    }
}
