//! A config.json on disk (or a folder holding one): what a user plans their own model from.
//! Files that a downloaded model folder may carry beside it (`model.safetensors.index.json`,
//! `modelatlas.json`) are read too.

use std::path::Path;

use super::{ModelFiles, SourceError, read_beside_config};
use crate::input_file::{self, CONFIG_LIMIT, InputError};

pub fn load_path(path: &Path) -> Result<ModelFiles, SourceError> {
    let config_path = if path.is_dir() { path.join("config.json") } else { path.to_path_buf() };
    let label = config_path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "local model".to_string());
    let config_text = input_file::read_text(&config_path, CONFIG_LIMIT).map_err(|error| match error {
        // A folder was given and it holds no config.json: say that of the folder the user named,
        // not only that a file they never typed is missing.
        InputError::Missing { .. } if config_path != path => SourceError::Unreadable {
            model: label.clone(),
            path: path.to_path_buf(),
            reason: "a directory with no config.json in it".into(),
        },
        error => SourceError::Input { model: label.clone(), error },
    })?;
    let dir = config_path.parent().unwrap_or(Path::new("."));
    let (meta, index_tensor_names) = read_beside_config(&label, dir)?;
    Ok(ModelFiles { label, config_text, config_path, commit: None, meta, index_tensor_names })
}
