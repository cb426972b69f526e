//! Where transformers 4.x and 5.x build a class differently (see `config::release`): the count
//! under the other release, and the checkpoint candidates the difference brings.

use serde::Serialize;

use super::{Architecture, Candidate};
use crate::config::release::Release;

/// The class's count under the release the plan does not follow, where it differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReleaseNote {
    pub release: Release,
    /// Parameters of the class under that release, tied tensors once.
    pub derived: u64,
    /// What that release builds or ties differently.
    pub why: String,
}

/// The note for `other`, the same config planned under 4.x, when its count differs from `this`.
pub(crate) fn note<T: Architecture>(this: &T, other: &T, why: Vec<&str>) -> Option<ReleaseNote> {
    // Parameters do not depend on the sequence length; one token keeps the graphs small.
    let derived = other.graph(1).param_count();
    (derived != this.graph(1).param_count()).then(|| ReleaseNote {
        release: Release::V4,
        derived,
        why: why.join("; "),
    })
}

/// An MLM decoder's bias: tied to the head's `bias` (a checkpoint may store it a second time),
/// or, untied under 5.x, a vector of its own that a checkpoint saved by 4.x does not hold.
pub(crate) fn decoder_bias_candidate(tied: bool, name: &str, head_bias: &str, vocab: u64) -> Candidate {
    let tensors = vec![(name.to_string(), vec![vocab])];
    if tied {
        Candidate::extra(
            "decoder bias stored twice",
            tensors,
            &format!(
                "the decoder's bias is tied to `{head_bias}`, but the checkpoint stores it a second time"
            ),
        )
    } else {
        Candidate::missing(
            "untied decoder bias",
            tensors,
            &format!(
                "transformers 5.x unties the decoder's bias from `{head_bias}` with the weights; a checkpoint saved by 4.x holds only `{head_bias}`"
            ),
        )
    }
}

/// Why an MLM head counts differently under 4.x, when it does.
pub(crate) const MLM_BIAS: &str =
    "4.x ties the MLM decoder's bias to the head's `bias` even when the weights are untied";
/// Why BERT-style attention with relative positions counts differently under 4.x.
pub(crate) const DISTANCE: &str = "4.x builds a `distance_embedding` (2 x positions - 1 rows of head width) in every self-attention for `relative_key` / `relative_key_query`; 5.x builds none";
