//! Cost and speed: a training run's FLOPs, time and dollars, and serving's prefill and decode
//! rates per card. Every figure carries the arithmetic that made it.

use serde::Serialize;

use super::cards::Card;
use super::fit::{FitView, Verdict};
use super::serving::ServingView;

/// The utilisation band a run achieves of the card's dense 16-bit peak.
pub const UTILISATION: (f64, f64) = (0.35, 0.55);

#[derive(Debug, Clone, Copy, Serialize)]
pub struct RunInputs {
    pub epochs: u64,
    pub samples: u64,
    pub batch: u64,
}

impl Default for RunInputs {
    fn default() -> Self {
        RunInputs { epochs: 10, samples: 50_000, batch: 32 }
    }
}

/// What the FLOP count needs to know of the model.
#[derive(Debug, Clone, Copy)]
pub struct FlopInputs {
    pub active_params: u64,
    pub layers: u64,
    /// Query heads x head width.
    pub attention_width: u64,
    pub causal: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CardCost {
    pub card: String,
    pub name: String,
    /// Cards used: 1, or the fewest that hold the full fine-tune by FSDP.
    pub cards: u64,
    pub tflops: f64,
    /// Hours at the high and the low end of the utilisation band.
    pub hours: (f64, f64),
    pub usd: (f64, f64),
}

#[derive(Debug, Clone, Serialize)]
pub struct TrainingCost {
    pub inputs: RunInputs,
    pub seq_len: u64,
    pub tokens: u64,
    pub dense_flops: f64,
    pub attention_flops: f64,
    pub total_flops: f64,
    pub utilisation: (f64, f64),
    pub arithmetic: Vec<String>,
    /// Every card (or fewest cards by FSDP) that holds a full fine-tune at batch 1, cheapest first.
    pub by_card: Vec<CardCost>,
    pub cheapest: Option<CardCost>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ServeSpeed {
    pub card: String,
    pub name: String,
    /// Prefill tokens per second over the utilisation band (low, high): compute-bound.
    pub prefill_tokens_per_s: (f64, f64),
    /// Decode tokens per second for one sequence at the plan's length, bf16 weights and KV:
    /// bandwidth / (weights + KV bytes read per token).
    pub decode_tokens_per_s_bf16: f64,
    pub decode_tokens_per_s_int4: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ServingCost {
    pub seq_len: u64,
    pub prefill_flops_per_token: f64,
    pub bytes_read_per_token_bf16: f64,
    pub bytes_read_per_token_int4: f64,
    pub arithmetic: Vec<String>,
    pub by_card: Vec<ServeSpeed>,
}

/// Training FLOPs for `tokens` tokens at `seq`: 6 x active parameters per token (forward 2,
/// backward 4), plus attention's scores and weighted sum, 2 x 2 x seq x width per layer per token
/// forward, three times that with the backward pass, halved when causal.
pub fn training_flops(f: FlopInputs, tokens: u64, seq: u64) -> (f64, f64) {
    let dense = 6.0 * f.active_params as f64 * tokens as f64;
    let per_token_layer = 12.0 * seq as f64 * f.attention_width as f64;
    let causal = if f.causal { 0.5 } else { 1.0 };
    let attention = per_token_layer * causal * f.layers as f64 * tokens as f64;
    (dense, attention)
}

pub fn training(f: FlopInputs, inputs: RunInputs, seq: u64, cards: &[Card], fit: &FitView) -> TrainingCost {
    let tokens = inputs.epochs * inputs.samples * seq;
    let (dense, attention) = training_flops(f, tokens, seq);
    let total = dense + attention;
    let (lo, hi) = UTILISATION;
    let mut by_card: Vec<CardCost> = cards
        .iter()
        .filter_map(|card| {
            let row = fit.cards.iter().find(|r| r.card == card.id)?;
            let full = row.modes.iter().find(|m| m.mode == "full")?;
            let n = if full.verdict != Verdict::DoesNotFit {
                1
            } else {
                fit.multi_card.iter().find(|m| m.mode == "full" && m.card == card.id)?.fsdp.as_ref()?.cards
            };
            let tflops = card.training_tflops();
            let rate = |u: f64| tflops * 1e12 * u * n as f64;
            let hours = (total / rate(hi) / 3600.0, total / rate(lo) / 3600.0);
            let usd =
                (hours.0 * n as f64 * card.price_usd_per_hour, hours.1 * n as f64 * card.price_usd_per_hour);
            Some(CardCost { card: card.id.clone(), name: card.name.clone(), cards: n, tflops, hours, usd })
        })
        .collect();
    crate::sort::stable_by(&mut by_card, &|a, b| a.usd.0.total_cmp(&b.usd.0).then(a.card.cmp(&b.card)));
    let arithmetic = vec![
        format!("tokens = {} epochs x {} samples x {seq} tokens = {tokens}", inputs.epochs, inputs.samples),
        format!("dense FLOPs = 6 x {} active parameters x {tokens} tokens = {dense:.4e}", f.active_params),
        format!(
            "attention FLOPs = 12 x {seq} x {} (heads x head width) x {} layers x {tokens} tokens{} = {attention:.4e}",
            f.attention_width,
            f.layers,
            if f.causal { " x 1/2 (causal)" } else { "" }
        ),
        format!("total = {total:.4e} FLOPs"),
        format!(
            "time = total / (cards x dense 16-bit peak x utilisation), utilisation {:.0}% to {:.0}%; dollars = time x cards x hourly price; batch {} reached by gradient accumulation where it does not fit at once",
            lo * 100.0,
            hi * 100.0,
            inputs.batch
        ),
    ];
    TrainingCost {
        inputs,
        seq_len: seq,
        tokens,
        dense_flops: dense,
        attention_flops: attention,
        total_flops: total,
        utilisation: UTILISATION,
        arithmetic,
        cheapest: by_card.first().cloned(),
        by_card,
    }
}

pub fn serving(f: FlopInputs, seq: u64, cards: &[Card], s: &ServingView) -> Option<ServingCost> {
    let kv = s.kv.as_ref()?;
    // Forward only: 2 x active parameters, plus 4 x seq x width per layer, halved when causal.
    let causal = if f.causal { 0.5 } else { 1.0 };
    let prefill =
        2.0 * f.active_params as f64 + 4.0 * seq as f64 * f.attention_width as f64 * f.layers as f64 * causal;
    // Decoding one token reads every weight a token uses (the active ones for a mixture of experts
    // at batch 1) and the whole KV cache so far.
    let kv_bytes = (kv.layout.values(seq) * 2) as f64;
    let active_share = f.active_params as f64 / s.total_params.max(1) as f64;
    let read_bf16 = s.weights_at("bf16") * active_share + kv_bytes;
    let read_int4 = s.weights_at("int4") * active_share + kv_bytes;
    let (lo, hi) = UTILISATION;
    let by_card = cards
        .iter()
        .map(|c| {
            let peak = c.training_tflops() * 1e12;
            ServeSpeed {
                card: c.id.clone(),
                name: c.name.clone(),
                prefill_tokens_per_s: (peak * lo / prefill, peak * hi / prefill),
                decode_tokens_per_s_bf16: c.bandwidth_gbs * 1e9 / read_bf16,
                decode_tokens_per_s_int4: c.bandwidth_gbs * 1e9 / read_int4,
            }
        })
        .collect();
    let arithmetic = vec![
        format!(
            "prefill FLOPs per token = 2 x {} active parameters + 4 x {seq} x {} x {} layers{} = {prefill:.4e}; prefill tokens/s = dense 16-bit peak x utilisation ({:.0}% to {:.0}%) / that",
            f.active_params,
            f.attention_width,
            f.layers,
            if f.causal { " x 1/2 (causal)" } else { "" },
            lo * 100.0,
            hi * 100.0
        ),
        format!(
            "decode bytes read per token = bf16 weights used per token ({:.4e}) + KV cache at {seq} tokens ({kv_bytes:.4e}) = {read_bf16:.4e}; decode tokens/s at batch 1 = bandwidth / that",
            s.weights_at("bf16") * active_share
        ),
    ];
    Some(ServingCost {
        seq_len: seq,
        prefill_flops_per_token: prefill,
        bytes_read_per_token_bf16: read_bf16,
        bytes_read_per_token_int4: read_int4,
        arithmetic,
        by_card,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_flops_are_six_n_t_plus_half_the_attention_when_causal() {
        let f = FlopInputs { active_params: 1_000, layers: 2, attention_width: 64, causal: true };
        let (dense, attn) = training_flops(f, 10, 128);
        assert_eq!(dense, 6.0 * 1_000.0 * 10.0);
        // 12 x 128 x 64 per layer per token, x 2 layers x 10 tokens, halved.
        assert_eq!(attn, 12.0 * 128.0 * 64.0 * 2.0 * 10.0 / 2.0);
        let (_, full) = training_flops(FlopInputs { causal: false, ..f }, 10, 128);
        assert_eq!(full, 2.0 * attn);
    }
}
