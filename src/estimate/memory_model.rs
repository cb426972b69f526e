//! A mode's GPU memory as a formula a client can evaluate itself: for a batch `b` and a sequence
//! length `s`, each phase of a step needs
//!
//! ```text
//! fixed_bytes + b * (s * per_token_bytes + s^2 * per_token_sq_bytes)
//! ```
//!
//! and the peak is the largest phase (weights, gradients and optimizer states persist; the
//! activations peak at the end of the forward pass; the logits and the optimizer step are
//! transients on top of what persists). The JSON exports the phases, so the in-page calculator
//! and scripts compute exactly what `modelatlas plan` computes.

use serde::Serialize;

/// Bytes as `fixed + batch * (seq * per_token + seq^2 * per_token_sq)`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Coefficients {
    pub fixed_bytes: f64,
    pub per_token_bytes: f64,
    /// Non-zero only where something grows with the square of the sequence (eager attention's
    /// score matrix).
    pub per_token_sq_bytes: f64,
}

impl Coefficients {
    pub fn bytes(&self, batch: u64, seq: u64) -> f64 {
        let (b, s) = (batch as f64, seq as f64);
        self.fixed_bytes + b * (s * self.per_token_bytes + s * s * self.per_token_sq_bytes)
    }

    pub fn plus(self, o: Coefficients) -> Coefficients {
        Coefficients {
            fixed_bytes: self.fixed_bytes + o.fixed_bytes,
            per_token_bytes: self.per_token_bytes + o.per_token_bytes,
            per_token_sq_bytes: self.per_token_sq_bytes + o.per_token_sq_bytes,
        }
    }
}

/// One phase of a step and what it holds at its peak.
#[derive(Debug, Clone, Serialize)]
pub struct Phase {
    /// `forward`, `backward`, `optimizer step`, `logits`, `decode`...
    pub name: String,
    pub coefficients: Coefficients,
}

/// One mode (full fine-tune, LoRA, QLoRA, serving) as phases; the peak is the largest.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryModel {
    pub phases: Vec<Phase>,
}

impl MemoryModel {
    /// The peak over phases at a batch and sequence length, and the phase that sets it.
    pub fn peak(&self, batch: u64, seq: u64) -> (f64, &str) {
        self.phases
            .iter()
            .map(|p| (p.coefficients.bytes(batch, seq), p.name.as_str()))
            .fold((0.0, ""), |best, x| if x.0 > best.0 { x } else { best })
    }

    /// The largest batch whose peak fits in `budget_bytes` at `seq`; 0 when batch 1 does not.
    /// Every phase is linear in the batch, so each gives its own bound and the smallest holds.
    pub fn largest_batch(&self, budget_bytes: f64, seq: u64) -> u64 {
        let mut best = u64::MAX;
        for p in &self.phases {
            let c = p.coefficients;
            let per_sample = c.bytes(1, seq) - c.fixed_bytes;
            let room = budget_bytes - c.fixed_bytes;
            if room < 0.0 {
                return 0;
            }
            if per_sample > 0.0 {
                best = best.min((room / per_sample).floor() as u64);
            }
        }
        if best == u64::MAX { 0 } else { best }
    }

    /// The longest sequence one sample can have within `budget_bytes` (binary search over the
    /// monotone peak), capped at `max_seq`; 0 when not even one token fits.
    pub fn longest_seq(&self, budget_bytes: f64, max_seq: u64) -> u64 {
        if self.peak(1, 1).0 > budget_bytes {
            return 0;
        }
        let (mut lo, mut hi) = (1u64, max_seq.max(1));
        if self.peak(1, hi).0 <= budget_bytes {
            return hi;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.peak(1, mid).0 <= budget_bytes { lo = mid } else { hi = mid }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> MemoryModel {
        MemoryModel {
            phases: vec![
                Phase {
                    name: "forward".into(),
                    coefficients: Coefficients {
                        fixed_bytes: 100.0,
                        per_token_bytes: 2.0,
                        per_token_sq_bytes: 0.0,
                    },
                },
                Phase {
                    name: "optimizer step".into(),
                    coefficients: Coefficients {
                        fixed_bytes: 150.0,
                        per_token_bytes: 0.0,
                        per_token_sq_bytes: 0.0,
                    },
                },
            ],
        }
    }

    #[test]
    fn the_peak_is_the_largest_phase() {
        // forward at batch 2, 10 tokens: 100 + 2 x 10 x 2 = 140 < the step's 150.
        assert_eq!(model().peak(2, 10), (150.0, "optimizer step"));
        // at batch 3: 100 + 3 x 20 = 160.
        assert_eq!(model().peak(3, 10), (160.0, "forward"));
    }

    #[test]
    fn the_largest_batch_respects_every_phase() {
        // forward: (200 - 100) / 20 = 5; the step (150) fits whatever the batch.
        assert_eq!(model().largest_batch(200.0, 10), 5);
        assert_eq!(model().largest_batch(149.0, 10), 0, "the step alone does not fit");
    }

    #[test]
    fn the_longest_sequence_is_found_by_search() {
        // forward at batch 1: 100 + 2s <= 200 -> s = 50.
        assert_eq!(model().longest_seq(200.0, 1 << 20), 50);
        assert_eq!(model().longest_seq(200.0, 40), 40, "capped at the model's context");
    }
}
