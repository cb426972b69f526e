//! What the checkpoint reconciliation may try: tensors a checkpoint holds that the class does not,
//! or the reverse.

use serde::Serialize;

/// A set of tensors that may explain a difference between the class and a published checkpoint.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub label: String,
    /// (checkpoint name, shape).
    pub tensors: Vec<(String, Vec<u64>)>,
    /// Tensors named by a template over layers and experts, after `tensors`: named only where a
    /// name is read (an FP8 mixture of experts has tens of thousands of block scales, whose
    /// names a plan with no tensor names and no fitting combination never reads).
    pub runs: Vec<TensorRun>,
    /// True: the checkpoint holds these and the class does not; false: the reverse.
    pub in_checkpoint_only: bool,
    pub reason: String,
}

/// `repeat` × `copies` tensors of one shape, named by a template with `{i}` for the layer and
/// `{e}` for the expert (as [`super::expand`] fills them), layer by layer, each layer's experts
/// in order.
#[derive(Debug, Clone, Serialize)]
pub struct TensorRun {
    pub template: String,
    pub repeat: u64,
    pub copies: u64,
    pub shape: Vec<u64>,
}

impl TensorRun {
    /// How many tensors the run stands for (saturating: more than any checkpoint can hold).
    pub fn len(&self) -> u64 {
        self.repeat.saturating_mul(self.copies)
    }

    pub fn is_empty(&self) -> bool {
        self.repeat == 0 || self.copies == 0
    }

    /// Every name, in order.
    pub fn names(&self) -> impl Iterator<Item = String> + '_ {
        let template = super::NameTemplate::new(&self.template);
        let copies = self.copies;
        (0..self.repeat)
            .flat_map(move |i| (0..copies).map(move |e| (i, e)))
            .map(move |(i, e)| template.expand(i, e))
    }
}

impl Candidate {
    pub fn extra(label: &str, tensors: Vec<(String, Vec<u64>)>, reason: &str) -> Self {
        Candidate {
            label: label.into(),
            tensors,
            runs: vec![],
            in_checkpoint_only: true,
            reason: reason.into(),
        }
    }

    pub fn missing(label: &str, tensors: Vec<(String, Vec<u64>)>, reason: &str) -> Self {
        Candidate {
            label: label.into(),
            tensors,
            runs: vec![],
            in_checkpoint_only: false,
            reason: reason.into(),
        }
    }

    /// Scalars this candidate adds to the class's count to reach the checkpoint's.
    pub fn signed_scalars(&self) -> i64 {
        let listed: u64 = self.tensors.iter().map(|(_, s)| s.iter().product::<u64>()).sum();
        let runs: u64 = self.runs.iter().map(|r| r.len() * r.shape.iter().product::<u64>()).sum();
        let n = listed + runs;
        if self.in_checkpoint_only { n as i64 } else { -(n as i64) }
    }

    /// How many tensors the candidate stands for.
    pub fn len(&self) -> u64 {
        self.runs.iter().fold(self.tensors.len() as u64, |n, r| n.saturating_add(r.len()))
    }

    pub fn is_empty(&self) -> bool {
        self.tensors.is_empty() && self.runs.iter().all(TensorRun::is_empty)
    }

    /// Every tensor as (name, shape): the listed ones, then the runs' names.
    pub fn named(&self) -> impl Iterator<Item = (String, &[u64])> + '_ {
        let listed = self.tensors.iter().map(|(n, s)| (n.clone(), s.as_slice()));
        listed.chain(self.runs.iter().flat_map(|r| r.names().map(move |n| (n, r.shape.as_slice()))))
    }
}
