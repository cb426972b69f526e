//! What fits where: per card and mode (full fine-tune, LoRA, QLoRA, serve) the largest batch at
//! the plan's sequence length, a sweep over sequence lengths, a verdict in bands, vLLM's view of
//! serving, and, where batch 1 fits no single card, the fewest cards that hold it by pipeline
//! split and by FSDP/ZeRO-3 sharding. Every mode comes in as a [`MemoryModel`] per sequence
//! length, so any memory method plugs in.

use serde::Serialize;

use super::cards::Card;
use super::memory_model::{Coefficients, MemoryModel};
use super::runtime::{self, CardRuntime};
use super::serving::{ServingView, VllmFit};

/// Verdict bands on the batch-1 peak as a share of the card's memory.
pub const COMFORTABLE_SHARE: f64 = 0.80;
pub const FIT_SHARE: f64 = 0.95;
pub const BANDS_RULE: &str = "On the figure nvidia-smi shows (allocated, plus the allocator's reserve, the cuBLAS workspaces and the card's CUDA context): comfortable: the batch-1 peak is at most 80% of the card's memory; tight: above 80% and at most 95%; does not fit: above 95% (the last 5% is a margin for what varies run to run: driver, library versions, fragmentation beyond the modelled reserve). The largest batch is the largest whose peak stays within 95% of the card.";
/// Sequence lengths swept, then the model's context.
pub const SWEEP: [u64; 4] = [512, 2048, 8192, 32768];
/// The most cards a multi-card fallback considers.
pub const MAX_CARDS: u64 = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Comfortable,
    Tight,
    DoesNotFit,
}

pub fn verdict(peak: f64, card_bytes: f64) -> Verdict {
    if peak <= COMFORTABLE_SHARE * card_bytes {
        Verdict::Comfortable
    } else if peak <= FIT_SHARE * card_bytes {
        Verdict::Tight
    } else {
        Verdict::DoesNotFit
    }
}

/// One mode, with its memory model at any sequence length.
pub struct Mode<'a> {
    pub id: &'static str,
    pub label: String,
    pub model_at: Box<dyn Fn(u64) -> MemoryModel + 'a>,
    /// FSDP/ZeRO-3 shards training state; serving is split by pipeline only here.
    pub shardable: bool,
    /// A training step (two cuBLAS workspaces: forward and backward threads) or serving (one).
    pub training: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModeSummary {
    pub id: &'static str,
    pub label: String,
    /// The mode's phases as coefficients at the plan's length.
    pub model: MemoryModel,
    /// Allocated bytes (`torch.cuda.max_memory_allocated`).
    pub batch1_peak_bytes: f64,
    /// `torch.cuda.max_memory_reserved`: the card-independent part of the runtime added (the
    /// workspaces at Hopper's size).
    pub batch1_reserved_bytes: f64,
    pub peak_phase: String,
    pub training: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CardMode {
    pub mode: &'static str,
    /// The batch-1 peak as nvidia-smi shows it on this card.
    pub batch1_nvidia_smi_bytes: f64,
    pub largest_batch: u64,
    pub verdict: Verdict,
    /// Largest batch at each of `FitView::sweep_seqs`.
    pub sweep: Vec<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CardRow {
    pub card: String,
    pub name: String,
    pub memory_gb: f64,
    pub price_usd_per_hour: f64,
    pub bf16_native: bool,
    /// The card family's CUDA context and cuBLAS workspace (`runtime_rule`).
    pub runtime: CardRuntime,
    pub modes: Vec<CardMode>,
    /// Serving as vLLM reports it (null for an encoder).
    pub vllm: Option<VllmFit>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Split {
    pub cards: u64,
    /// The heaviest card's peak at batch 1.
    pub per_card_bytes: f64,
    pub usd_per_hour: f64,
    /// Pipeline only: the layers each stage holds, `first-last` inclusive.
    pub layer_cut: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MultiCard {
    pub mode: &'static str,
    pub card: String,
    pub pipeline: Option<Split>,
    pub fsdp: Option<Split>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FitView {
    pub seq_len: u64,
    pub sweep_seqs: Vec<u64>,
    // The rules are the same words on every page (the vLLM one differs by the context, which is
    // `serving.kv.context`): the method page states them once (`method.html#fit`,
    // `#training-overhead`, `#serving`), so the JSON leaves them out.
    #[serde(skip_serializing)]
    pub bands_rule: &'static str,
    #[serde(skip_serializing)]
    pub vllm_rule: String,
    #[serde(skip_serializing)]
    pub multi_card_rule: &'static str,
    /// Which memory figure is which, and how the runtime's share is counted.
    #[serde(skip_serializing)]
    pub runtime_rule: &'static str,
    pub allocator_reserve_fraction: f64,
    pub modes: Vec<ModeSummary>,
    pub cards: Vec<CardRow>,
    /// For each mode and card where batch 1 does not fit one card.
    pub multi_card: Vec<MultiCard>,
}

/// The parameters in the layers and elsewhere, to apportion a pipeline stage.
#[derive(Debug, Clone, Copy)]
pub struct LayerSplit {
    pub layers: u64,
    pub layer_params: u64,
    pub other_params: u64,
}

pub const MULTI_CARD_RULE: &str = "Pipeline: the layers are cut into equal consecutive stages, one per card; a stage's peak is the batch-1 peak times its share of the parameters, counting the embeddings and the head on the heaviest stage (conservative). FSDP/ZeRO-3: every persistent byte (weights, gradients, optimizer states) is sharded over the cards, activations are not. The fewest cards whose per-card peak is within 95% of the card; cost = cards x the card's hourly price.";

/// The sweep's lengths for a model of `context` positions: the standard ones below it, then it.
pub fn sweep_seqs(context: u64) -> Vec<u64> {
    let mut v: Vec<u64> = SWEEP.iter().copied().filter(|s| *s < context).collect();
    if context > 0 {
        v.push(context);
    }
    v
}

fn pipeline(model: &MemoryModel, seq: u64, split: LayerSplit, card: &Card, training: bool) -> Option<Split> {
    let total = (split.layer_params + split.other_params) as f64;
    if split.layers < 2 || total <= 0.0 {
        return None;
    }
    let rt = runtime::card_runtime(card);
    let peak = model.peak(1, seq).0;
    let per_layer = split.layer_params as f64 / split.layers as f64;
    (2..=split.layers.min(MAX_CARDS)).find_map(|n| {
        let per_stage = split.layers.div_ceil(n);
        let share = (per_stage as f64 * per_layer + split.other_params as f64) / total;
        let bytes = runtime::figures(peak * share.min(1.0), &rt, training).nvidia_smi_bytes;
        (bytes <= FIT_SHARE * card.bytes()).then(|| {
            let mut cut = vec![];
            let mut first = 0;
            while first < split.layers {
                let last = (first + per_stage).min(split.layers) - 1;
                cut.push(format!("{first}-{last}"));
                first = last + 1;
            }
            Split {
                cards: cut.len() as u64,
                per_card_bytes: bytes,
                usd_per_hour: cut.len() as f64 * card.price_usd_per_hour,
                layer_cut: cut,
            }
        })
    })
}

fn fsdp(model: &MemoryModel, seq: u64, card: &Card) -> Option<Split> {
    let rt = runtime::card_runtime(card);
    // One copy of the phases, its fixed bytes set per card count (not a new copy for each).
    let mut sharded = model.clone();
    (2..=MAX_CARDS).find_map(|n| {
        for (s, p) in sharded.phases.iter_mut().zip(&model.phases) {
            s.coefficients =
                Coefficients { fixed_bytes: p.coefficients.fixed_bytes / n as f64, ..p.coefficients };
        }
        let bytes = runtime::figures(sharded.peak(1, seq).0, &rt, true).nvidia_smi_bytes;
        (bytes <= FIT_SHARE * card.bytes()).then(|| Split {
            cards: n,
            per_card_bytes: bytes,
            usd_per_hour: n as f64 * card.price_usd_per_hour,
            layer_cut: vec![],
        })
    })
}

pub fn fit(
    modes: &[Mode],
    cards: &[Card],
    seq: u64,
    context: u64,
    serving: &ServingView,
    split: LayerSplit,
) -> FitView {
    let seqs = sweep_seqs(context);
    let at_seq: Vec<MemoryModel> = modes.iter().map(|m| (m.model_at)(seq)).collect();
    let swept: Vec<Vec<MemoryModel>> =
        modes.iter().map(|m| seqs.iter().map(|s| (m.model_at)(*s)).collect()).collect();
    let summaries = modes
        .iter()
        .zip(&at_seq)
        .map(|(m, model)| {
            let (peak, phase) = model.peak(1, seq);
            let hopper = runtime::CardRuntime {
                family: "hopper",
                context_bytes: 0.0,
                workspace_bytes: runtime::CUBLAS_WORKSPACE_HOPPER,
            };
            ModeSummary {
                id: m.id,
                label: m.label.clone(),
                model: model.clone(),
                batch1_peak_bytes: peak,
                batch1_reserved_bytes: runtime::reserved(peak, &hopper, m.training),
                peak_phase: phase.to_string(),
                training: m.training,
            }
        })
        .collect::<Vec<_>>();
    let mut multi = vec![];
    let rows = cards
        .iter()
        .map(|card| {
            let budget = FIT_SHARE * card.bytes();
            let rt = runtime::card_runtime(card);
            let modes_fit = modes
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let on_card = runtime::on_card(&at_seq[i], &rt, m.training);
                    let peak = on_card.peak(1, seq).0;
                    let v = verdict(peak, card.bytes());
                    if v == Verdict::DoesNotFit {
                        multi.push(MultiCard {
                            mode: m.id,
                            card: card.id.clone(),
                            pipeline: pipeline(&at_seq[i], seq, split, card, m.training),
                            fsdp: if m.shardable { fsdp(&at_seq[i], seq, card) } else { None },
                        });
                    }
                    CardMode {
                        mode: m.id,
                        batch1_nvidia_smi_bytes: peak,
                        largest_batch: if v == Verdict::DoesNotFit {
                            0
                        } else {
                            on_card.largest_batch(budget, seq)
                        },
                        verdict: v,
                        sweep: seqs
                            .iter()
                            .zip(&swept[i])
                            .map(|(s, model)| {
                                runtime::on_card(model, &rt, m.training).largest_batch(budget, *s)
                            })
                            .collect(),
                    }
                })
                .collect();
            CardRow {
                card: card.id.clone(),
                name: card.name.clone(),
                memory_gb: card.memory_gb,
                price_usd_per_hour: card.price_usd_per_hour,
                bf16_native: card.bf16_native,
                runtime: rt,
                modes: modes_fit,
                vllm: serving.vllm(card.bytes(), context),
            }
        })
        .collect();
    FitView {
        seq_len: seq,
        sweep_seqs: seqs,
        bands_rule: BANDS_RULE,
        vllm_rule: format!(
            "As vLLM sizes its KV cache: gpu_memory_utilization {} (its default) x the card, minus the bf16 weights, is the cache; concurrency = the cache / one sequence's KV at the model's context ({} tokens); the longest context = the most tokens one sequence's KV fits in the cache. vLLM also subtracts its profiled activation peak and non-torch memory, which are not counted here, so its figures come out somewhat lower.",
            super::serving::VLLM_GPU_MEMORY_UTILIZATION,
            context
        ),
        multi_card_rule: MULTI_CARD_RULE,
        runtime_rule: runtime::RULE,
        allocator_reserve_fraction: runtime::ALLOCATOR_RESERVE_FRACTION,
        modes: summaries,
        cards: rows,
        multi_card: multi,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::memory_model::Phase;

    fn one_phase(fixed: f64, per_token: f64) -> MemoryModel {
        MemoryModel {
            phases: vec![Phase {
                name: "step".into(),
                coefficients: Coefficients {
                    fixed_bytes: fixed,
                    per_token_bytes: per_token,
                    ..Coefficients::default()
                },
            }],
        }
    }

    fn card(gb: f64, price: f64) -> Card {
        Card {
            id: "c".into(),
            name: "C".into(),
            memory_gb: gb,
            bandwidth_gbs: 1000.0,
            bf16_tflops: 100.0,
            fp16_tflops: 100.0,
            bf16_native: true,
            price_usd_per_hour: price,
            spec_source: String::new(),
            price_source: String::new(),
            price_as_of: String::new(),
        }
    }

    #[test]
    fn bands_split_at_80_and_95_percent() {
        assert_eq!(verdict(80.0, 100.0), Verdict::Comfortable);
        assert_eq!(verdict(80.1, 100.0), Verdict::Tight);
        assert_eq!(verdict(95.0, 100.0), Verdict::Tight);
        assert_eq!(verdict(95.1, 100.0), Verdict::DoesNotFit);
    }

    #[test]
    fn the_sweep_stops_at_the_context() {
        assert_eq!(sweep_seqs(4096), vec![512, 2048, 4096]);
        assert_eq!(sweep_seqs(131072), vec![512, 2048, 8192, 32768, 131072]);
        assert_eq!(sweep_seqs(512), vec![512]);
    }

    #[test]
    fn fsdp_shards_the_persistent_bytes_and_not_the_activations() {
        // 300 GB of state + 10 GB of activations on 80 GB cards (76 GB within 95%), as
        // nvidia-smi sees it: x 1.05 + two 32 MiB workspaces + a 560 MiB context (a card the
        // runtime table does not know).
        // n = 4: (75 + 10) x 1.05 = 89.25 > 76; n = 5: (60 + 10) x 1.05 = 73.5 (+ 0.65) <= 76.
        let m = one_phase(300e9, 10e9 / 1000.0);
        let s = fsdp(&m, 1000, &card(80.0, 2.0)).unwrap();
        assert_eq!(s.cards, 5);
        assert_eq!(s.per_card_bytes, 73.5e9 + 2.0 * 33_554_432.0 + 560.0 * 1_048_576.0);
        assert_eq!(s.usd_per_hour, 10.0);
    }

    #[test]
    fn a_pipeline_cuts_the_layers_into_equal_stages() {
        // 32 layers of 1 GB each + 2 GB elsewhere = 34 GB of parameters; a 100 GB peak.
        // n stages: peak x (ceil(32/n) + 2) / 34, x 1.05 plus under 1 GB of runtime, <= 0.95 x 40
        // = 38 GB. n = 2: 100 x 18/34 = 52.9; n = 3: 100 x 13/34 = 38.2 (40.1 with the reserve);
        // n = 4: 100 x 10/34 = 29.4 (30.9).
        let m = one_phase(100e9, 0.0);
        let split = LayerSplit { layers: 32, layer_params: 32, other_params: 2 };
        let s = pipeline(&m, 1, split, &card(40.0, 1.0), true).unwrap();
        assert_eq!(s.cards, 4);
        assert_eq!(s.layer_cut, vec!["0-7", "8-15", "16-23", "24-31"]);
    }
}

/// One evaluation of a mode's exported formula, as the page's calculator does it.
#[derive(Debug, Clone, Serialize)]
pub struct WhatIf {
    pub mode: String,
    pub card: String,
    pub batch: u64,
    pub seq: u64,
    /// The peak as nvidia-smi shows it on the card (what the share and the verdict use).
    pub peak_bytes: f64,
    /// `torch.cuda.max_memory_allocated` and `max_memory_reserved` at that peak.
    pub allocated_bytes: f64,
    pub reserved_bytes: f64,
    pub peak_phase: String,
    /// The peak over the card's memory.
    pub share: f64,
    pub verdict: Verdict,
}

/// Evaluates `mode`'s exported phases at `batch` x `seq` on `card`: the computation the model
/// page's calculator repeats in the browser from the JSON coefficients.
pub fn what_if(fit: &FitView, mode: &str, card: &str, batch: u64, seq: u64) -> Result<WhatIf, String> {
    let m = fit.modes.iter().find(|m| m.id == mode).ok_or_else(|| {
        let ids: Vec<&str> = fit.modes.iter().map(|m| m.id).collect();
        format!("no mode {mode:?}; this model has {}", ids.join(", "))
    })?;
    let c = fit.cards.iter().find(|c| c.card == card).ok_or_else(|| {
        let ids: Vec<&str> = fit.cards.iter().map(|c| c.card.as_str()).collect();
        format!("no card {card:?}; the catalogue has {}", ids.join(", "))
    })?;
    let (allocated, phase) = m.model.peak(batch, seq);
    let figures = runtime::figures(allocated, &c.runtime, m.training);
    let peak = figures.nvidia_smi_bytes;
    let card_bytes = c.memory_gb * 1e9;
    Ok(WhatIf {
        mode: mode.to_string(),
        card: card.to_string(),
        batch,
        seq,
        peak_bytes: peak,
        allocated_bytes: allocated,
        reserved_bytes: figures.reserved_bytes,
        peak_phase: phase.to_string(),
        share: peak / card_bytes,
        verdict: verdict(peak, card_bytes),
    })
}
