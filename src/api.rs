//! Planning from inputs held in memory, with no file system: what the in-browser planner (wasm),
//! `modelatlas serve` and `modelatlas mcp` all call, so the three answer exactly as `modelatlas plan`
//! does. A request names its training inputs the way the CLI's flags do; a bad input is an
//! [`ApiError`] that names the field.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::config::ConfigError;
use crate::estimate::{cards, cost, fit, training};
use crate::manifest::SiteSettings;
use crate::page::ModelPage;
use crate::plan::{PlanError, PlanOptions, plan_with};
use crate::render::{PlanFormat, RenderError, Renderer};
use crate::source::meta::ConfigProvenance;
use crate::source::{CheckpointInfo, CheckpointTensor, HubMeta, ModelFiles};

/// The training inputs a plan is asked with; every field is optional and defaults as the CLI's
/// flag of the same name does (`--recipe amp-adamw`, `--attention sdpa`, `--lora-rank 16`, ...).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Inputs {
    pub recipe: Option<String>,
    pub attention: Option<String>,
    pub checkpointing: Option<bool>,
    pub lora_rank: Option<u64>,
    /// Comma-separated module names, as `--lora-targets q_proj,v_proj`.
    pub lora_targets: Option<String>,
    /// The transformers release whose saved tensors are counted, as `--transformers`.
    pub transformers: Option<String>,
    pub epochs: Option<u64>,
    pub samples: Option<u64>,
    pub batch: Option<u64>,
}

/// A request that cannot be planned, naming the field at fault; `status` is the HTTP status it
/// maps to (400 for a malformed request, 422 for a config the planner refuses).
#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct ApiError {
    pub status: u16,
    pub field: String,
    pub message: String,
}

impl ApiError {
    pub fn bad(field: &str, message: impl Into<String>) -> Self {
        ApiError { status: 400, field: field.to_string(), message: message.into() }
    }
}

impl From<PlanError> for ApiError {
    fn from(e: PlanError) -> Self {
        let field = match &e.error {
            ConfigError::Field { field, .. } => format!("config.{field}"),
            ConfigError::NotJson(_) | ConfigError::NotObject => "config".to_string(),
        };
        ApiError { status: 422, field, message: e.to_string() }
    }
}

impl From<RenderError> for ApiError {
    fn from(e: RenderError) -> Self {
        ApiError { status: 500, field: String::new(), message: e.to_string() }
    }
}

impl Inputs {
    /// The plan options these inputs ask for, with the CLI's error texts.
    pub fn options(&self) -> Result<PlanOptions, ApiError> {
        let recipe_id = self.recipe.as_deref().unwrap_or("amp-adamw");
        let recipe = training::recipe(recipe_id).ok_or_else(|| {
            let ids: Vec<&str> = training::RECIPES.iter().map(|r| r.id).collect();
            ApiError::bad("recipe", format!("unknown recipe {recipe_id:?}; one of {}", ids.join(", ")))
        })?;
        let attention = match self.attention.as_deref().unwrap_or("sdpa") {
            "sdpa" => training::AttentionImpl::Sdpa,
            "eager" => training::AttentionImpl::Eager,
            other => {
                return Err(ApiError::bad(
                    "attention",
                    format!("unknown attention {other:?}; sdpa or eager"),
                ));
            }
        };
        let release = self.transformers.as_deref().unwrap_or("5.x");
        let transformers = training::Transformers::parse(release).ok_or_else(|| {
            ApiError::bad(
                "transformers",
                format!("unknown transformers release {release:?}; one of 4.46, 4.57, 5.x"),
            )
        })?;
        let run = cost::RunInputs::default();
        let run = cost::RunInputs {
            epochs: self.epochs.unwrap_or(run.epochs),
            samples: self.samples.unwrap_or(run.samples),
            batch: self.batch.unwrap_or(run.batch),
        };
        for (field, v) in [("epochs", run.epochs), ("samples", run.samples), ("batch", run.batch)] {
            if v == 0 {
                return Err(ApiError::bad(field, "--epochs, --samples and --batch must be at least 1"));
            }
        }
        Ok(PlanOptions {
            cards: cards::builtin().to_vec(),
            run,
            training: training::Options {
                recipe,
                attention,
                checkpointing: self.checkpointing.unwrap_or(false),
                lora_rank: self.lora_rank.unwrap_or(16),
                lora_targets: self
                    .lora_targets
                    .as_deref()
                    .unwrap_or("")
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                transformers,
                // plan_with reads the config's dropout, as for the CLI.
                dropout: training::Dropout::default(),
            },
        })
    }
}

/// One model's files as text: the config, and optionally the checkpoint's
/// `model.safetensors.index.json` or safetensors header (as JSON) for the reconciliation.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Files {
    /// How the plan names the model (`local model` when empty, as the CLI names a file it cannot
    /// name from its folder).
    #[serde(default)]
    pub name: String,
    pub config: String,
    #[serde(default)]
    pub index: Option<String>,
    #[serde(default)]
    pub safetensors_header: Option<String>,
}

/// Everything a page needs for one model: files and inputs.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRequest {
    #[serde(flatten)]
    pub files: Files,
    #[serde(default)]
    pub inputs: Inputs,
}

/// A model's files as the planner reads them, from text: the same [`ModelFiles`] the CLI builds
/// from a folder holding `config.json` (and `model.safetensors.index.json`).
pub fn model_files(files: &Files) -> Result<ModelFiles, ApiError> {
    let label = match files.name.trim() {
        "" => "local model".to_string(),
        name => name.to_string(),
    };
    let index_tensor_names = match files.index.as_deref().filter(|s| !s.trim().is_empty()) {
        None => None,
        Some(text) => Some(index_names(text)?),
    };
    let meta = match files.safetensors_header.as_deref().filter(|s| !s.trim().is_empty()) {
        None => None,
        Some(text) => Some(header_meta(&label, text)?),
    };
    Ok(ModelFiles {
        label,
        config_text: files.config.clone(),
        config_path: PathBuf::from("config.json"),
        commit: None,
        meta,
        index_tensor_names,
    })
}

fn index_names(text: &str) -> Result<Vec<String>, ApiError> {
    #[derive(Deserialize)]
    struct Index {
        weight_map: BTreeMap<String, String>,
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let index: Index = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        ApiError::bad("index", format!("model.safetensors.index.json: field `{}`: {}", e.path(), e.inner()))
    })?;
    Ok(index.weight_map.into_keys().collect())
}

/// A safetensors header (the JSON at the start of a `.safetensors` file, or several merged): every
/// tensor's name, dtype and shape, so the reconciliation matches names exactly.
fn header_meta(label: &str, text: &str) -> Result<HubMeta, ApiError> {
    #[derive(Deserialize)]
    struct Entry {
        dtype: String,
        shape: Vec<u64>,
    }
    let bad = |m: String| ApiError::bad("safetensors_header", format!("safetensors header: {m}"));
    let raw: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let mut tensors = vec![];
    let mut by_dtype: BTreeMap<String, u64> = BTreeMap::new();
    let mut total: u64 = 0;
    for (name, value) in raw {
        if name == "__metadata__" {
            continue;
        }
        let e: Entry = serde_json::from_value(value).map_err(|e| bad(format!("tensor {name:?}: {e}")))?;
        let numel = e
            .shape
            .iter()
            .try_fold(1u64, |a, d| a.checked_mul(*d))
            .ok_or_else(|| bad(format!("tensor {name:?}: shape {:?} overflows", e.shape)))?;
        total = total.checked_add(numel).ok_or_else(|| bad("total scalar count overflows".into()))?;
        let slot = by_dtype.entry(e.dtype.clone()).or_default();
        *slot = slot.saturating_add(numel);
        tensors.push(CheckpointTensor { name, dtype: e.dtype, shape: e.shape });
    }
    if tensors.is_empty() {
        return Err(bad("no tensors".into()));
    }
    let dtype = (by_dtype.len() == 1).then(|| by_dtype.keys().next().cloned()).flatten();
    Ok(HubMeta {
        model_id: label.to_string(),
        // Pasted by the reader: nothing to check it against.
        config: ConfigProvenance {
            verification: "unverified".into(),
            sha256: String::new(),
            source: "supplied with the plan".into(),
            notes: None,
        },
        checkpoint: Some(CheckpointInfo {
            total_scalars: total,
            exact: true,
            dtype,
            by_dtype,
            source: "the safetensors header supplied with the plan".into(),
            notes: None,
            tensors: Some(tensors),
        }),
        downloads: None,
        hub: None,
        changes: None,
    })
}

/// The three renderings of one plan: the model JSON, the Markdown twin, and the model page's HTML
/// (a whole document; its `<main>` is what a page embeds).
#[derive(Debug, Clone, Serialize)]
pub struct Planned {
    pub json: String,
    pub markdown: String,
    pub html: String,
}

/// Plans a request and renders it. `html` is rendered only when asked, since only the browser shows
/// it.
pub fn plan(request: &PlanRequest, renderer: &Renderer, with_html: bool) -> Result<Planned, ApiError> {
    let page = plan_page(&request.files, &request.inputs)?;
    let json = renderer.plan(&page, PlanFormat::Json)?;
    let markdown = renderer.plan(&page, PlanFormat::Markdown)?;
    let html = if with_html {
        let site = SiteSettings { title: "modelatlas".into(), base_url: String::new() };
        renderer.model(&page, &site, "")?.html
    } else {
        String::new()
    };
    Ok(Planned { json, markdown, html })
}

/// The plan of one model's files under these inputs.
pub fn plan_page(files: &Files, inputs: &Inputs) -> Result<ModelPage, ApiError> {
    plan_files(&model_files(files)?, inputs)
}

/// The plan of files already read (a snapshot's, with their revision and metadata).
pub fn plan_files(files: &ModelFiles, inputs: &Inputs) -> Result<ModelPage, ApiError> {
    let options = inputs.options()?;
    Ok(plan_with(files, None, &options)?)
}

/// A what-if question: one mode's memory at a batch, a length and a card.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhatIfRequest {
    pub mode: String,
    pub card: String,
    #[serde(default = "one")]
    pub batch: u64,
    pub seq: Option<u64>,
}

fn one() -> u64 {
    1
}

/// The what-if answer for a planned page, as `modelatlas what-if` prints it.
pub fn what_if(page: &ModelPage, q: &WhatIfRequest) -> Result<fit::WhatIf, ApiError> {
    let f = page.fit.as_ref().ok_or_else(|| ApiError {
        status: 422,
        field: "config".into(),
        message: "this model has no memory plan (unsupported family)".into(),
    })?;
    if q.batch == 0 {
        return Err(ApiError::bad("batch", "batch must be at least 1"));
    }
    let field = |m: &str| if m.starts_with("no card") { "card" } else { "mode" };
    fit::what_if(f, &q.mode, &q.card, q.batch, q.seq.unwrap_or(f.seq_len)).map_err(|m| ApiError {
        status: 422,
        field: field(&m).into(),
        message: m,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(config: &str) -> Files {
        Files { config: config.into(), ..Files::default() }
    }

    #[test]
    fn inputs_default_as_the_clis_flags_do() {
        let o = Inputs::default().options().unwrap();
        assert_eq!(o.training.recipe.id, "amp-adamw");
        assert_eq!(o.training.lora_rank, 16);
        assert!(o.training.lora_targets.is_empty());
        assert!(!o.training.checkpointing);
        assert_eq!((o.run.epochs, o.run.samples, o.run.batch), (10, 50_000, 32));
    }

    #[test]
    fn bad_inputs_name_their_field() {
        let bad = |i: Inputs| i.options().err().map(|e| (e.status, e.field)).unwrap();
        assert_eq!(bad(Inputs { recipe: Some("adam".into()), ..Inputs::default() }), (400, "recipe".into()));
        assert_eq!(
            bad(Inputs { attention: Some("flash".into()), ..Inputs::default() }),
            (400, "attention".into())
        );
        assert_eq!(bad(Inputs { samples: Some(0), ..Inputs::default() }), (400, "samples".into()));
    }

    #[test]
    fn a_config_error_maps_to_422_naming_the_config_key() {
        let e =
            plan_page(&files(r#"{"model_type": "gpt2", "n_embd": "wide"}"#), &Inputs::default()).unwrap_err();
        assert_eq!((e.status, e.field.as_str()), (422, "config.n_embd"));
        assert!(e.message.starts_with("local model: config.json: "), "{}", e.message);
        let e = plan_page(&files("[]"), &Inputs::default()).unwrap_err();
        assert_eq!((e.status, e.field.as_str()), (422, "config"));
    }

    #[test]
    fn a_safetensors_header_becomes_an_exact_tensor_list() {
        // Two tensors: 4 x 8 = 32 F32 scalars and 512 I64 ones; the metadata entry is skipped.
        let header = r#"{"__metadata__": {"format": "pt"},
            "a.weight": {"dtype": "F32", "shape": [4, 8], "data_offsets": [0, 128]},
            "position_ids": {"dtype": "I64", "shape": [1, 512], "data_offsets": [128, 4224]}}"#;
        let meta = header_meta("m", header).unwrap();
        let c = meta.checkpoint.unwrap();
        assert_eq!(c.total_scalars, 32 + 512);
        assert_eq!(c.by_dtype.get("F32"), Some(&32));
        assert_eq!(c.by_dtype.get("I64"), Some(&512));
        assert_eq!(c.dtype, None, "two dtypes: no single one");
        assert_eq!(c.tensors.unwrap().len(), 2);
    }

    #[test]
    fn a_bad_header_or_index_is_refused_naming_it() {
        for header in [
            "[]",
            "{}",
            r#"{"x": {"dtype": "F32"}}"#,
            r#"{"x": {"dtype": "F32", "shape": [4294967296, 4294967296, 4294967296]}}"#,
        ] {
            let e = header_meta("m", header).unwrap_err();
            assert_eq!(e.field, "safetensors_header", "{header}");
        }
        let e =
            model_files(&Files { index: Some(r#"{"weight_map": []}"#.into()), ..files("{}") }).unwrap_err();
        assert_eq!(e.field, "index");
        assert!(e.message.contains("weight_map"), "{}", e.message);
    }
}
