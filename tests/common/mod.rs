#![allow(dead_code)]
//! Helpers shared by the integration tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use modelatlas::model_id::ModelId;
use modelatlas::page::ModelPage;
use modelatlas::source::ModelSource;
use modelatlas::source::hub_cache::HubCacheSource;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The offline snapshot that ships in the repository.
pub fn snapshot() -> HubCacheSource {
    HubCacheSource::new(repo().join("hub"))
}

/// `../shared/reference`: published configs and checkpoint counts, independent of this code.
pub fn reference() -> PathBuf {
    let p = repo().join("../shared/reference");
    assert!(p.is_dir(), "the reference data is expected at {}", p.display());
    p
}

/// Published checkpoint scalar counts from the reference's checkpoints.tsv, by model ID.
pub fn published_counts() -> BTreeMap<String, u64> {
    let text = std::fs::read_to_string(reference().join("checkpoints.tsv")).unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if let (Some(id), Some(total)) = (cols.first(), cols.get(1))
            && let Ok(n) = total.parse::<u64>()
        {
            out.entry(id.to_string()).or_insert(n);
        }
    }
    out
}

pub fn plan_id(id: &str) -> ModelPage {
    let id = ModelId::parse(id).unwrap();
    let files = snapshot().load(&id).unwrap();
    modelatlas::plan::plan(&files, Some(format!("{}.html", id.site_stem()))).unwrap()
}

/// Plans a config given as text, as a user's file on disk would be.
pub fn plan_text(config: &str) -> Result<ModelPage, modelatlas::plan::PlanError> {
    let files = modelatlas::source::ModelFiles {
        label: "test/model".into(),
        config_text: config.into(),
        config_path: PathBuf::from("test/config.json"),
        commit: None,
        meta: None,
        index_tensor_names: None,
    };
    modelatlas::plan::plan(&files, None)
}

/// A reference config with some keys replaced.
pub fn reference_config_with(folder: &str, patch: serde_json::Value) -> String {
    let text = std::fs::read_to_string(reference().join("models").join(folder).join("config.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (k, val) in patch.as_object().unwrap() {
        v[k] = val.clone();
    }
    v.to_string()
}

/// Every file under a folder, relative path -> bytes.
pub fn read_tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            (rel, std::fs::read(e.path()).unwrap())
        })
        .collect()
}
