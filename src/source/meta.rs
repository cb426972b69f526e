//! `modelatlas.json`: the facts about a published model that config.json does not carry (the
//! checkpoint's scalar count, its dtype, downloads), each with the source it was read from.
//!
//! It sits beside config.json in a snapshot folder. A plain Hugging Face cache has no such file;
//! then every one of these facts is shown as unknown, never guessed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Name of modelatlas's own metadata file inside a snapshot folder.
pub const META_FILE: &str = "modelatlas.json";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HubMeta {
    pub model_id: String,
    /// How the config.json in this folder was checked against the published one.
    pub config: ConfigProvenance,
    pub checkpoint: Option<CheckpointInfo>,
    pub downloads: Option<Downloads>,
    /// What `modelatlas sync` read from the Hub's API beside the files; absent in a snapshot
    /// made by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hub: Option<HubRecord>,
    /// The revisions sync read and what each changed, newest first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<crate::changes::Change>>,
}

/// The model info `modelatlas sync` read (`GET /api/models/{id}`), and what identified each file
/// it fetched, so that the next sync fetches only what changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HubRecord {
    pub sha: String,
    pub last_modified: Option<String>,
    pub likes: Option<u64>,
    /// `auto` or `manual` for a gated repository; null when open.
    pub gated: Option<String>,
    pub license: Option<String>,
    pub pipeline_tag: Option<String>,
    /// The day the info was read (UTC, `YYYY-MM-DD`).
    pub read: String,
    /// Path -> the content's id (git blob id, or LFS sha256), as the Hub's tree lists it.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigProvenance {
    /// `A`: byte-identical to the published file (hash recorded by a crawler); `A'`: byte-identical
    /// to a hash pinned by a third party; `B`: unverified copy; `mirror`: verified against a
    /// community mirror of the official repository.
    pub verification: String,
    pub sha256: String,
    /// One short line: the file, the revision and what checked it ("config.json at 607a30d;
    /// SHA-256 matches dinoml/model-configs-rs@23d0047"). The page shows it as it is.
    pub source: String,
    /// The full citation behind `source`, when there is more to say: the page folds it away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// The published checkpoint's size, as the Hub reports it (`safetensors.total`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointInfo {
    #[serde(deserialize_with = "scalar_count")]
    pub total_scalars: u64,
    /// False where the source rounds the figure.
    pub exact: bool,
    pub dtype: Option<String>,
    /// Scalars per dtype when the source splits them (`{"F32": 124697433, "I64": 514}`).
    #[serde(default, deserialize_with = "scalar_counts")]
    pub by_dtype: BTreeMap<String, u64>,
    pub source: String,
    pub notes: Option<String>,
    /// Every tensor of the checkpoint, when its safetensors header has been read.
    #[serde(default, deserialize_with = "tensor_list")]
    pub tensors: Option<Vec<CheckpointTensor>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointTensor {
    pub name: String,
    pub dtype: String,
    #[serde(deserialize_with = "tensor_shape")]
    pub shape: Vec<u64>,
}

impl CheckpointTensor {
    /// The scalars of the tensor; saturates where a shape built in code (not read, which is
    /// bounded on reading) would overflow.
    pub fn numel(&self) -> u64 {
        self.shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d)).unwrap_or(u64::MAX)
    }
}

/// The largest scalar count read: the page subtracts counts and prints signed differences, so
/// every count must fit an `i64`. No checkpoint comes near (the largest published are ~10^12).
pub const MAX_SCALARS: u64 = i64::MAX as u64;

fn too_many(what: impl std::fmt::Display) -> String {
    format!("{what} is more than 2^63 − 1 ({MAX_SCALARS}) scalars, beyond any checkpoint")
}

fn scalar_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = u64::deserialize(d)?;
    if n > MAX_SCALARS {
        return Err(serde::de::Error::custom(too_many(n)));
    }
    Ok(n)
}

fn scalar_counts<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<String, u64>, D::Error> {
    let m = BTreeMap::<String, u64>::deserialize(d)?;
    let mut sum: u64 = 0;
    for (dtype, &n) in &m {
        sum = sum
            .checked_add(n)
            .filter(|s| *s <= MAX_SCALARS)
            .ok_or_else(|| serde::de::Error::custom(too_many(format_args!("the sum up to `{dtype}`"))))?;
    }
    Ok(m)
}

fn tensor_shape<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
    let shape = Vec::<u64>::deserialize(d)?;
    match shape.iter().try_fold(1u64, |a, &x| a.checked_mul(x)) {
        Some(n) if n <= MAX_SCALARS => Ok(shape),
        _ => {
            Err(serde::de::Error::custom(too_many(format_args!("{shape:?} multiplies out to a count that"))))
        }
    }
}

fn tensor_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<CheckpointTensor>>, D::Error> {
    let list = Option::<Vec<CheckpointTensor>>::deserialize(d)?;
    let mut sum: u64 = 0;
    for t in list.iter().flatten() {
        sum = sum.checked_add(t.numel()).filter(|s| *s <= MAX_SCALARS).ok_or_else(|| {
            serde::de::Error::custom(too_many(format_args!("the sum of the tensors up to `{}`", t.name)))
        })?;
    }
    Ok(list)
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Downloads {
    pub count: u64,
    pub as_of: String,
    pub source: String,
}
