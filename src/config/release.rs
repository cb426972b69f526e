//! Which transformers release a count follows. 5.x changed how some encoder families tie and
//! build their tensors; the plan follows 5.x (the current release) and states the 4.x count as a
//! note, so a checkpoint saved under either can be read against the page.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Release {
    /// transformers 4.x (4.57.1 validated): `decoder.bias` always tied to the MLM head's `bias`,
    /// BART's stacks always share `shared`, T5 ties its head only when the config says so,
    /// BERT-style `relative_key` attention has its `distance_embedding`.
    #[serde(rename = "4.x")]
    V4,
    /// transformers 5.x (5.24 validated): a tie in `_tied_weights_keys` holds only while
    /// `tie_word_embeddings` is true; T5's config classes force it true; BERT-style attention has
    /// no relative position tables.
    #[default]
    #[serde(rename = "5.x")]
    V5,
}

impl Release {
    /// Whether a tie transformers declares in `_tied_weights_keys` holds: always under 4.x's
    /// hand-written ties, only with `tie_word_embeddings` under 5.x.
    pub fn ties(self, tie_word_embeddings: bool) -> bool {
        self == Release::V4 || tie_word_embeddings
    }
}
