//! `modelatlas.json`: the facts about a published model that config.json does not carry (the
//! checkpoint's scalar count, its dtype, downloads), each with the source it was read from.
//!
//! It sits beside config.json in a snapshot folder. A plain Hugging Face cache has no such file;
//! then every one of these facts is shown as unknown, never guessed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HubMeta {
    pub model_id: String,
    /// How the config.json in this folder was checked against the published one.
    pub config: ConfigProvenance,
    pub checkpoint: Option<CheckpointInfo>,
    pub downloads: Option<Downloads>,
}

/// More scalars than any checkpoint holds (the largest published are ~2 × 10^12) by a factor of
/// 500, and small enough that every sum and difference of counts stays inside an `i64`.
pub const MAX_SCALARS: u64 = 1_000_000_000_000_000;

impl HubMeta {
    /// Checks what serde cannot: values the pages divide by, subtract or publish under a schema.
    /// The error is the field's path (as serde_path_to_error writes it) and the reason.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let Some(ckpt) = &self.checkpoint else { return Ok(()) };
        let in_range = |field: String, n: u64| {
            if n == 0 {
                Err((field, "must be at least 1 (a checkpoint with no scalars is not a checkpoint)".into()))
            } else if n > MAX_SCALARS {
                Err((field, format!("{n} is more than {MAX_SCALARS}, beyond any checkpoint")))
            } else {
                Ok(())
            }
        };
        in_range("checkpoint.total_scalars".into(), ckpt.total_scalars)?;
        if let Some((dtype, n)) = ckpt.by_dtype.iter().find(|(_, n)| **n > MAX_SCALARS) {
            return Err((format!("checkpoint.by_dtype.{dtype}"), format!("{n} is more than {MAX_SCALARS}")));
        }
        let mut sum: u64 = 0;
        for (i, t) in ckpt.tensors.iter().flatten().enumerate() {
            let field = format!("checkpoint.tensors[{i}].shape");
            let n = t
                .shape
                .iter()
                .try_fold(1u64, |acc, d| acc.checked_mul(*d))
                .filter(|n| *n <= MAX_SCALARS)
                .ok_or_else(|| (field.clone(), format!("{:?} holds more than {MAX_SCALARS} scalars", t.shape)))?;
            sum = sum.saturating_add(n);
            if sum > MAX_SCALARS {
                return Err((field, format!("the tensors up to here hold more than {MAX_SCALARS} scalars")));
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigProvenance {
    /// `A`: byte-identical to the published file (hash recorded by a crawler); `A'`: byte-identical
    /// to a hash pinned by a third party; `B`: unverified copy; `mirror`: verified against a
    /// community mirror of the official repository.
    pub verification: String,
    pub sha256: String,
    pub source: String,
}

/// The published checkpoint's size, as the Hub reports it (`safetensors.total`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointInfo {
    pub total_scalars: u64,
    /// False where the source rounds the figure.
    pub exact: bool,
    pub dtype: Option<String>,
    /// Scalars per dtype when the source splits them (`{"F32": 124697433, "I64": 514}`).
    #[serde(default)]
    pub by_dtype: BTreeMap<String, u64>,
    pub source: String,
    pub notes: Option<String>,
    /// Every tensor of the checkpoint, when its safetensors header has been read.
    #[serde(default)]
    pub tensors: Option<Vec<CheckpointTensor>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointTensor {
    pub name: String,
    pub dtype: String,
    pub shape: Vec<u64>,
}

impl CheckpointTensor {
    /// Scalars in the tensor; [`HubMeta::validate`] has checked that this fits.
    pub fn numel(&self) -> u64 {
        self.shape.iter().fold(1u64, |acc, d| acc.saturating_mul(*d))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Downloads {
    pub count: u64,
    pub as_of: String,
    pub source: String,
}
