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
                .ok_or_else(|| {
                    (field.clone(), format!("{:?} holds more than {MAX_SCALARS} scalars", t.shape))
                })?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(checkpoint: serde_json::Value) -> HubMeta {
        serde_json::from_value(serde_json::json!({
            "model_id": "org/m",
            "config": {"verification": "B", "sha256": "x", "source": "s"},
            "checkpoint": checkpoint,
            "downloads": null,
        }))
        .unwrap()
    }

    fn ckpt(total: u64, tensors: serde_json::Value) -> serde_json::Value {
        serde_json::json!({"total_scalars": total, "exact": true, "dtype": null, "source": "s",
            "notes": null, "tensors": tensors})
    }

    #[test]
    fn a_checkpoint_of_zero_scalars_is_refused_naming_the_field() {
        let err = meta(ckpt(0, serde_json::Value::Null)).validate().unwrap_err();
        assert_eq!(err.0, "checkpoint.total_scalars");
    }

    #[test]
    fn a_tensor_whose_shape_overflows_is_refused_naming_it() {
        // 2^32 x 2^32 = 2^64, one past u64::MAX.
        let tensors = serde_json::json!([
            {"name": "a", "dtype": "F32", "shape": [3, 4]},
            {"name": "b", "dtype": "F32", "shape": [4_294_967_296u64, 4_294_967_296u64]},
        ]);
        let err = meta(ckpt(12, tensors)).validate().unwrap_err();
        assert_eq!(err.0, "checkpoint.tensors[1].shape");
    }

    #[test]
    fn tensors_that_together_exceed_any_checkpoint_are_refused() {
        // Each 6 x 10^14 fits; the two together, 1.2 x 10^15, pass the 10^15 bound.
        let tensors = serde_json::json!([
            {"name": "a", "dtype": "F32", "shape": [600_000_000_000_000u64]},
            {"name": "b", "dtype": "F32", "shape": [600_000_000_000_000u64]},
        ]);
        assert_eq!(meta(ckpt(12, tensors)).validate().unwrap_err().0, "checkpoint.tensors[1].shape");
    }

    #[test]
    fn a_real_checkpoint_passes() {
        // roberta-base's published split (README table): 124,697,433 F32 + 514 I64 = 124,697,947.
        let mut c = ckpt(124_697_947, serde_json::Value::Null);
        c["by_dtype"] = serde_json::json!({"F32": 124_697_433u64, "I64": 514});
        assert!(meta(c).validate().is_ok());
        assert!(meta(serde_json::Value::Null).validate().is_ok());
    }
}
