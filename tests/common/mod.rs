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

/// `tests/fixtures/reference`: published checkpoint counts and config hashes, with their sources,
/// independent of this code.
pub fn reference() -> PathBuf {
    repo().join("tests/fixtures/reference")
}

/// The two reference configs that may not be committed; see `tests/fixtures/reference/README.md`.
pub const NOT_CARRIED: [&str; 2] = ["meta-llama--Llama-2-70b-hf", "meta-llama--Llama-3.1-8B"];

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

/// Published config.json hashes from `config_sha256.tsv`: folder -> (sha256 hex, bytes).
pub fn published_config_hashes() -> BTreeMap<String, (String, usize)> {
    let text = std::fs::read_to_string(reference().join("config_sha256.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[0].to_string(), (c[2].to_string(), c[3].parse().unwrap()))
        })
        .collect()
}

/// The published config.json of a reference folder (`org--name`). Carried models are read from the
/// snapshot, whose files `snapshot_source.rs` checks against the published SHA-256; the two that
/// may not be committed are rebuilt from their published dimensions.
pub fn reference_config(folder: &str) -> String {
    match folder {
        // Meta's Llama 3.1 8B: the dimensions of its model card and config (8,030,261,248
        // parameters); the rope scaling of the Llama 3.1 release.
        "meta-llama--Llama-3.1-8B" => serde_json::json!({
            "architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "attention_bias": false, "attention_dropout": 0.0, "mlp_bias": false,
            "bos_token_id": 128000, "eos_token_id": 128001, "hidden_act": "silu",
            "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
            "max_position_embeddings": 131072, "rms_norm_eps": 1e-5, "rope_theta": 500000.0,
            "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                "high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
            "tie_word_embeddings": false, "torch_dtype": "bfloat16"
        })
        .to_string(),
        // Meta's Llama 2 70B: the dimensions of its model card and config (GQA with 8 KV heads).
        "meta-llama--Llama-2-70b-hf" => serde_json::json!({
            "architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
            "hidden_size": 8192, "intermediate_size": 28672, "num_hidden_layers": 80,
            "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 32000,
            "max_position_embeddings": 4096, "rms_norm_eps": 1e-5, "rope_scaling": null,
            "tie_word_embeddings": false, "torch_dtype": "float16"
        })
        .to_string(),
        _ => std::fs::read_to_string(snapshot_config_path(folder)).unwrap(),
    }
}

/// The one config.json of a carried model in `hub/`.
pub fn snapshot_config_path(folder: &str) -> PathBuf {
    let snaps = repo().join("hub").join(format!("models--{folder}")).join("snapshots");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&snaps)
        .unwrap_or_else(|e| panic!("{}: {e}", snaps.display()))
        .map(|e| e.unwrap().path().join("config.json"))
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(found.len(), 1, "{folder}: one snapshot expected");
    found.remove(0)
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
    let text = reference_config(folder);
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

/// A tensor of the model JSON's structure as `(name, shape, tied_to)`: schema_version 7 writes
/// a node's own untied `.weight` as its shape alone, every other tensor as `[name, shape]` or
/// `[name, shape, tied_to]`.
pub fn json_tensor(t: &serde_json::Value) -> (String, Vec<u64>, Option<String>) {
    let a = t.as_array().unwrap();
    let dims = |v: &serde_json::Value| v.as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).collect();
    match a.first() {
        Some(serde_json::Value::String(name)) => {
            (name.clone(), dims(&a[1]), a.get(2).map(|to| to.as_str().unwrap().to_string()))
        }
        _ => (".weight".to_string(), dims(t), None),
    }
}

/// The full name of the model JSON's `structure.sections[section].nodes[node]`: a name that
/// starts with a dot continues its section's.
pub fn json_node_name(json: &serde_json::Value, section: usize, node: usize) -> String {
    let s = &json["structure"]["sections"][section];
    let name = s["nodes"][node][0].as_str().unwrap();
    if name.starts_with('.') { format!("{}{name}", s["name"].as_str().unwrap()) } else { name.to_string() }
}

/// An activation row of the model JSON (schema_version 7) as its name and the rest of the row
/// (`repeat`, then the figures): `[section, node, repeat, ...]` names a node of the structure,
/// `[name, repeat, ...]` what is not one.
pub fn json_activation_row(
    json: &serde_json::Value,
    row: &serde_json::Value,
) -> (String, Vec<serde_json::Value>) {
    let r = row.as_array().unwrap();
    match r[0].as_str() {
        Some(name) => (name.to_string(), r[1..].to_vec()),
        None => {
            let (s, n) = (r[0].as_u64().unwrap() as usize, r[1].as_u64().unwrap() as usize);
            (json_node_name(json, s, n), r[2..].to_vec())
        }
    }
}
