//! A mode's GPU memory as a formula a client can evaluate itself: for a batch `b` and a sequence
//! length `s`, each phase of a step needs
//!
//! ```text
//! fixed_bytes + b * (per_sample_bytes + s * per_token_bytes + s^2 * per_token_sq_bytes
//!                    + min(s, window) * windowed_per_token_bytes)
//! ```
//!
//! (the last term only where `window` > 0: a sliding-window KV cache stops growing at its window).
//! These are the bytes torch allocates (`torch.cuda.max_memory_allocated`); `runtime` adds what
//! the CUDA runtime and the caching allocator hold on top, per card.
//!
//! and the peak is the largest phase (weights, gradients and optimizer states persist; the
//! activations peak at the end of the forward pass; the logits and the optimizer step are
//! transients on top of what persists). The JSON exports the phases, so the in-page calculator
//! and scripts compute exactly what `modelatlas plan` computes.

use std::borrow::Cow;

use serde::Serialize;

/// Bytes as `fixed + batch * (per_sample + seq * per_token + seq^2 * per_token_sq
/// + min(seq, window) * windowed_per_token)`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Coefficients {
    pub fixed_bytes: f64,
    /// Per sample whatever its length (a classifier on the first token; Whisper's cross-attention
    /// cache over its fixed 1,500 encoder positions).
    pub per_sample_bytes: f64,
    pub per_token_bytes: f64,
    /// Non-zero only where something grows with the square of the sequence (eager attention's
    /// score matrix).
    pub per_token_sq_bytes: f64,
    /// Per token up to `window` tokens (sliding-window layers' KV cache).
    pub windowed_per_token_bytes: f64,
    /// 0: no windowed term.
    pub window: u64,
}

impl Coefficients {
    pub fn bytes(&self, batch: u64, seq: u64) -> f64 {
        let (b, s) = (batch as f64, seq as f64);
        let windowed =
            if self.window > 0 { seq.min(self.window) as f64 * self.windowed_per_token_bytes } else { 0.0 };
        self.fixed_bytes
            + b * (self.per_sample_bytes
                + s * self.per_token_bytes
                + s * s * self.per_token_sq_bytes
                + windowed)
    }

    /// The sum of two; a windowed term is kept when only one side has one or both share the window
    /// (a second window is folded into the per-token term, which over-counts it past its window).
    pub fn plus(self, o: Coefficients) -> Coefficients {
        let (window, windowed, extra) = match (self.window, o.window) {
            (0, w) => (w, o.windowed_per_token_bytes, 0.0),
            (w, 0) => (w, self.windowed_per_token_bytes, 0.0),
            (a, b) if a == b => (a, self.windowed_per_token_bytes + o.windowed_per_token_bytes, 0.0),
            (a, _) => (a, self.windowed_per_token_bytes, o.windowed_per_token_bytes),
        };
        Coefficients {
            fixed_bytes: self.fixed_bytes + o.fixed_bytes,
            per_sample_bytes: self.per_sample_bytes + o.per_sample_bytes,
            per_token_bytes: self.per_token_bytes + o.per_token_bytes + extra,
            per_token_sq_bytes: self.per_token_sq_bytes + o.per_token_sq_bytes,
            windowed_per_token_bytes: windowed,
            window,
        }
    }

    /// Every term times `k`, `add` more fixed bytes: the allocator's reserve and the runtime.
    pub fn scaled(self, k: f64, add: f64) -> Coefficients {
        Coefficients {
            fixed_bytes: self.fixed_bytes * k + add,
            per_sample_bytes: self.per_sample_bytes * k,
            per_token_bytes: self.per_token_bytes * k,
            per_token_sq_bytes: self.per_token_sq_bytes * k,
            windowed_per_token_bytes: self.windowed_per_token_bytes * k,
            window: self.window,
        }
    }
}

/// One phase of a step and what it holds at its peak.
#[derive(Debug, Clone, Serialize)]
pub struct Phase {
    /// `forward`, `backward`, `optimizer step`, `logits`, `decode`... (fixed phrases: the models
    /// scaled per card and sequence length share them, uncopied).
    pub name: Cow<'static, str>,
    pub coefficients: Coefficients,
}

/// One mode (full fine-tune, LoRA, QLoRA, serving) as phases; the peak is the largest.
#[derive(Debug, Clone, Serialize)]
pub struct MemoryModel {
    pub phases: Vec<Phase>,
}

impl MemoryModel {
    /// The same phases with every coefficient times `k` and `add` fixed bytes more.
    pub fn scaled(&self, k: f64, add: f64) -> MemoryModel {
        MemoryModel {
            phases: self
                .phases
                .iter()
                .map(|p| Phase { name: p.name.clone(), coefficients: p.coefficients.scaled(k, add) })
                .collect(),
        }
    }

    /// The peak over phases at a batch and sequence length, and the phase that sets it.
    pub fn peak(&self, batch: u64, seq: u64) -> (f64, &str) {
        self.phases
            .iter()
            .map(|p| (p.coefficients.bytes(batch, seq), &*p.name))
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
                        ..Coefficients::default()
                    },
                },
                Phase {
                    name: "optimizer step".into(),
                    coefficients: Coefficients { fixed_bytes: 150.0, ..Coefficients::default() },
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
    fn a_windowed_term_stops_growing_at_its_window() {
        // Mistral-7B's cache: 32 layers x 2 x 8 KV heads x 128 x 2 bytes = 131,072 bytes per
        // token, every layer windowed at 4,096 tokens. At 32,768 tokens: 4,096 x 131,072 =
        // 536,870,912 bytes (0.537 GB), not 32,768 x 131,072 = 4.29 GB.
        let c = Coefficients { windowed_per_token_bytes: 131_072.0, window: 4096, ..Coefficients::default() };
        assert_eq!(c.bytes(1, 32_768), 536_870_912.0);
        assert_eq!(c.bytes(1, 1000), 131_072_000.0, "below the window it grows per token");
        assert_eq!(c.bytes(2, 32_768), 2.0 * 536_870_912.0, "per sequence of the batch");
    }

    #[test]
    fn a_per_sample_term_does_not_grow_with_the_length() {
        let c = Coefficients { per_sample_bytes: 10.0, per_token_bytes: 1.0, ..Coefficients::default() };
        // 3 x (10 + 5 x 1) = 45.
        assert_eq!(c.bytes(3, 5), 45.0);
    }

    #[test]
    fn the_longest_sequence_is_found_by_search() {
        // forward at batch 1: 100 + 2s <= 200 -> s = 50.
        assert_eq!(model().longest_seq(200.0, 1 << 20), 50);
        assert_eq!(model().longest_seq(200.0, 40), 40, "capped at the model's context");
    }
}
