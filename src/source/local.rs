//! A config.json on disk (or a folder holding one): what a user plans their own model from.
//! Files that a downloaded model folder may carry beside it (`model.safetensors.index.json`,
//! `modelatlas.json`) are read too.

use std::path::Path;

use super::{HubMeta, ModelFiles, SourceError, read_index_names, read_json, read_text};

pub fn load_path(path: &Path) -> Result<ModelFiles, SourceError> {
    let config_path = if path.is_dir() { path.join("config.json") } else { path.to_path_buf() };
    let label = config_path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "local model".to_string());
    let config_text = read_text(&label, &config_path)?;
    let dir = config_path.parent().unwrap_or(Path::new("."));
    let index_path = dir.join("model.safetensors.index.json");
    let index_tensor_names =
        if index_path.is_file() { Some(read_index_names(&label, &index_path)?) } else { None };
    let meta_path = dir.join(super::hub_cache::META_FILE);
    let meta: Option<HubMeta> = if meta_path.is_file() { Some(read_json(&label, &meta_path)?) } else { None };
    Ok(ModelFiles { label, config_text, config_path, commit: None, meta, index_tensor_names })
}
