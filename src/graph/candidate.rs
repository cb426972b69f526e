//! What the checkpoint reconciliation may try: tensors a checkpoint holds that the class does not,
//! or the reverse.

use serde::Serialize;

/// A set of tensors that may explain a difference between the class and a published checkpoint.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub label: String,
    /// (checkpoint name, shape).
    pub tensors: Vec<(String, Vec<u64>)>,
    /// True: the checkpoint holds these and the class does not; false: the reverse.
    pub in_checkpoint_only: bool,
    pub reason: String,
}

impl Candidate {
    pub fn extra(label: &str, tensors: Vec<(String, Vec<u64>)>, reason: &str) -> Self {
        Candidate { label: label.into(), tensors, in_checkpoint_only: true, reason: reason.into() }
    }

    pub fn missing(label: &str, tensors: Vec<(String, Vec<u64>)>, reason: &str) -> Self {
        Candidate { label: label.into(), tensors, in_checkpoint_only: false, reason: reason.into() }
    }

    /// Scalars this candidate adds to the class's count to reach the checkpoint's.
    pub fn signed_scalars(&self) -> i64 {
        let n: u64 = self.tensors.iter().map(|(_, s)| s.iter().product::<u64>()).sum();
        if self.in_checkpoint_only { n as i64 } else { -(n as i64) }
    }
}
