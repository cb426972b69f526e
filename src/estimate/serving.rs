//! Serving memory: the weights at several precisions and the KV cache from the real attention
//! structure (grouped/multi-query heads, sliding windows capped at the window, DeepSeek's latent
//! cache, the encoder's keys and values cached per decoder layer of an encoder-decoder). An
//! encoder keeps no KV cache: its serving cost is the weights plus one forward pass's working set
//! per sequence, and the page says so instead of printing a KV figure.

use serde::Serialize;

use crate::config::Dims;
use crate::family::ModelKind;
use crate::graph::Graph;
/// The KV cache's structure is part of the graph (each architecture describes its own), so it is
/// defined below both and re-exported here, where serving has always named it.
pub use crate::graph::kv::{KvGroup, KvLayout};

use super::memory_model::{Coefficients, MemoryModel, Phase};

/// vLLM's default `gpu_memory_utilization`: the share of a card it lets itself use.
pub const VLLM_GPU_MEMORY_UTILIZATION: f64 = 0.9;

/// One weight precision: bits per quantised parameter, scales included.
#[derive(Debug, Clone, Serialize)]
pub struct Precision {
    pub name: &'static str,
    pub bits_per_param: f64,
    pub rule: &'static str,
}

pub const PRECISIONS: [Precision; 4] = [
    Precision { name: "bf16", bits_per_param: 16.0, rule: "16 bits per parameter" },
    Precision {
        name: "fp8",
        bits_per_param: 8.0,
        rule: "8 bits (e4m3) per weight of the layers' linear layers, one fp32 scale per tensor (negligible); the rest in bf16",
    },
    Precision {
        name: "int8",
        bits_per_param: 8.125,
        rule: "8 bits plus a 16-bit scale per group of 128 weights = 8 + 16/128 = 8.125 bits for the layers' linear weights; the rest in bf16",
    },
    Precision {
        name: "int4",
        bits_per_param: 4.125,
        rule: "4 bits plus a 16-bit scale per group of 128 weights = 4 + 16/128 = 4.125 bits (GPTQ/AWQ with group size 128) for the layers' linear weights; the rest in bf16",
    },
];

#[derive(Debug, Clone, Serialize)]
pub struct WeightsAt {
    pub precision: &'static str,
    pub bits_per_param: f64,
    pub bytes: f64,
    pub rule: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct KvView {
    pub layout: KvLayout,
    /// Bytes per token in bf16 (2 bytes per value), while no window is full.
    pub bytes_per_token_bf16: u64,
    /// The same with an fp8 cache (1 byte per value).
    pub bytes_per_token_fp8: u64,
    /// One sequence at the model's context, bf16.
    pub bytes_at_context_bf16: u64,
    pub context: u64,
}

/// What serving one model needs.
#[derive(Debug, Clone, Serialize)]
pub struct ServingView {
    pub kind: ModelKind,
    /// Parameters quantised by the fp8/int8/int4 rows (the layers' linear weights); the rest stays
    /// in bf16.
    pub quantised_params: u64,
    pub total_params: u64,
    pub weights: Vec<WeightsAt>,
    /// Null for an encoder, which keeps no KV cache.
    pub kv: Option<KvView>,
    /// An encoder's working set per token of one forward pass, bf16; null for generators.
    pub encoder_working_bytes_per_token: Option<u64>,
    pub notes: Vec<String>,
}

/// Parameters of the 2-D weights of the linear layers inside the blocks (experts included).
pub fn layer_linear_params(g: &Graph) -> u64 {
    super::memory_baseline::sum_over_layer_linears(g, |n| {
        n.params
            .iter()
            .filter(|t| t.shape.len() == 2 && t.tied_to.is_none())
            .map(|t| n.copies * t.numel())
            .sum()
    })
}

pub fn weights_bytes(total: u64, quantised: u64, p: &Precision) -> f64 {
    let rest = total.saturating_sub(quantised) as f64;
    rest * 2.0 + quantised as f64 * p.bits_per_param / 8.0
}

/// An encoder's live tensors per token in one layer of a forward pass, bf16: the residual input,
/// q, k and v, the attention output, and the feed-forward's intermediate.
pub fn encoder_working_bytes_per_token(d: &Dims) -> u64 {
    2 * (5 * d.hidden_size + d.intermediate_size)
}

pub fn view(
    kind: ModelKind,
    layout: Option<KvLayout>,
    d: &Dims,
    g: &Graph,
    total_params: u64,
) -> ServingView {
    let quantised = layer_linear_params(g).min(total_params);
    let weights = PRECISIONS
        .iter()
        .map(|p| WeightsAt {
            precision: p.name,
            bits_per_param: p.bits_per_param,
            bytes: weights_bytes(total_params, quantised, p),
            rule: p.rule,
        })
        .collect();
    let layout = match kind {
        ModelKind::Encoder => None,
        _ => Some(layout.unwrap_or_else(|| KvLayout::uniform(d))).filter(|l| !l.is_empty()),
    };
    let mut notes = vec![format!(
        "Weights: {} of the {} parameters are the layers' linear weights, quantised by the fp8/int8/int4 rows; embeddings, norms, biases and the head stay in bf16, as GPTQ, AWQ and fp8 checkpoints do.",
        crate::render::format::commas(quantised),
        crate::render::format::commas(total_params)
    )];
    let kv = layout.map(|l| {
        let vpt = l.values_per_token();
        if l.groups.iter().any(|g| g.window.is_some()) {
            notes.push("Sliding-window layers keep at most their window of tokens; the cache stops growing there.".into());
        }
        if l.cross.is_some() {
            notes.push(match l.cross_fixed_len {
                Some(n) => format!("Cross-attention: each decoder layer caches the encoder's keys and values for its {n} positions once per sequence."),
                None => "Cross-attention: each decoder layer caches the encoder's keys and values once per sequence; the encoder is taken to read as many tokens as the sequence.".into(),
            });
        }
        if let Some(r) = &l.recurrent {
            notes.push(format!(
                "Recurrent state: {} state-space layers each keep {} conv + {} scan values per sequence ({}), whatever its length; it is sized at the KV cache's bytes per value.",
                r.layers,
                crate::render::format::commas(r.conv_values),
                crate::render::format::commas(r.ssm_values),
                r.what
            ));
        }
        KvView {
            bytes_per_token_bf16: 2 * vpt,
            bytes_per_token_fp8: vpt,
            bytes_at_context_bf16: 2 * l.values(d.context),
            context: d.context,
            layout: l,
        }
    });
    let encoder_working = if kv.is_none() {
        notes.push(format!(
            "An encoder keeps no KV cache: serving it costs the weights plus one forward pass's working set per sequence, (5 x hidden + intermediate) x 2 bytes = {} bytes per token (the residual input, q, k, v, the attention output and the feed-forward's intermediate of one layer, bf16, SDPA attention with no score matrix).",
            crate::render::format::commas(encoder_working_bytes_per_token(d))
        ));
        Some(encoder_working_bytes_per_token(d))
    } else {
        None
    };
    ServingView {
        kind,
        quantised_params: quantised,
        total_params,
        weights,
        kv,
        encoder_working_bytes_per_token: encoder_working,
        notes,
    }
}

impl ServingView {
    pub fn weights_at(&self, precision: &str) -> f64 {
        self.weights.iter().find(|w| w.precision == precision).map_or(0.0, |w| w.bytes)
    }

    /// Bytes one sequence of `seq` tokens adds: its KV cache (bf16 or fp8), or an encoder's
    /// working set.
    pub fn per_sequence_bytes(&self, seq: u64, kv_bytes_per_value: u64) -> f64 {
        match (&self.kv, self.encoder_working_bytes_per_token) {
            (Some(kv), _) => (kv.layout.values(seq) * kv_bytes_per_value) as f64,
            (None, Some(w)) => (w * seq) as f64,
            (None, None) => 0.0,
        }
    }

    /// Serving as a memory model exact at every length: the weights, and per sequence the KV
    /// cache of full-attention layers per token, of sliding-window layers per token up to their
    /// window, and a fixed-length cross-attention cache per sample (or an encoder's working set
    /// per token).
    pub fn memory_model(&self, precision: &str, kv_bytes_per_value: u64) -> MemoryModel {
        let name = if self.kv.is_some() { "weights + KV cache" } else { "weights + forward pass" };
        MemoryModel {
            phases: vec![Phase {
                name: name.into(),
                coefficients: self.per_sequence(kv_bytes_per_value).plus(Coefficients {
                    fixed_bytes: self.weights_at(precision),
                    ..Coefficients::default()
                }),
            }],
        }
    }

    /// One sequence's bytes as coefficients (no fixed part).
    pub fn per_sequence(&self, kv_bytes_per_value: u64) -> Coefficients {
        let b = kv_bytes_per_value as f64;
        let mut c = Coefficients::default();
        match (&self.kv, self.encoder_working_bytes_per_token) {
            (Some(kv), _) => {
                for g in &kv.layout.groups {
                    let per_token = (g.layers * g.values_per_token) as f64 * b;
                    let term = match g.window {
                        Some(w) if w > 0 => Coefficients {
                            windowed_per_token_bytes: per_token,
                            window: w,
                            ..Coefficients::default()
                        },
                        _ => Coefficients { per_token_bytes: per_token, ..Coefficients::default() },
                    };
                    c = c.plus(term);
                }
                if let Some(r) = &kv.layout.recurrent {
                    c = c.plus(Coefficients {
                        per_sample_bytes: r.values() as f64 * b,
                        ..Coefficients::default()
                    });
                }
                if let Some(x) = &kv.layout.cross {
                    let per_token = (x.layers * x.values_per_token) as f64 * b;
                    c = c.plus(match kv.layout.cross_fixed_len {
                        Some(n) => {
                            Coefficients { per_sample_bytes: per_token * n as f64, ..Coefficients::default() }
                        }
                        None => Coefficients { per_token_bytes: per_token, ..Coefficients::default() },
                    });
                }
            }
            (None, Some(w)) => c.per_token_bytes = w as f64,
            (None, None) => {}
        }
        c
    }

    /// vLLM's view of one card: after `gpu_memory_utilization` x the card and the weights, how
    /// many sequences of `context` tokens the KV cache holds, and the longest single sequence.
    pub fn vllm(&self, card_bytes: f64, context: u64) -> Option<VllmFit> {
        let kv = self.kv.as_ref()?;
        let weights = self.weights_at("bf16");
        let room = card_bytes * VLLM_GPU_MEMORY_UTILIZATION - weights;
        if room <= 0.0 {
            return Some(VllmFit {
                kv_cache_bytes: room.max(0.0),
                concurrency: 0.0,
                sequences: 0,
                longest_context: 0,
                limited_by_memory: true,
            });
        }
        let per_seq = (kv.layout.values(context) * 2) as f64;
        let concurrency = if per_seq > 0.0 { room / per_seq } else { 0.0 };
        // The longest single sequence, up to the model's context (vLLM's max_model_len): kv(s)
        // is non-decreasing in s, so search it.
        let fits = |s: u64| (kv.layout.values(s) * 2) as f64 <= room;
        let longest = if fits(context) {
            context
        } else {
            let (mut lo, mut hi) = (0u64, context);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if fits(mid) { lo = mid } else { hi = mid }
            }
            lo
        };
        Some(VllmFit {
            kv_cache_bytes: room,
            concurrency,
            sequences: concurrency.floor() as u64,
            longest_context: longest,
            limited_by_memory: longest < context,
        })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct VllmFit {
    /// gpu_memory_utilization x card - bf16 weights.
    pub kv_cache_bytes: f64,
    /// Sequences of the full context the cache holds at once, as vLLM's "maximum concurrency".
    pub concurrency: f64,
    pub sequences: u64,
    /// The longest one sequence can be, up to the model's context (vLLM's max_model_len).
    pub longest_context: u64,
    /// Whether the cache, rather than the model's context, sets `longest_context`.
    pub limited_by_memory: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(layers: u64, kv: u64, hd: u64) -> Dims {
        Dims {
            hidden_size: 4096,
            num_layers: layers,
            num_heads: 32,
            num_kv_heads: kv,
            head_dim: hd,
            intermediate_size: 14336,
            vocab_size: 128256,
            context: 8192,
            usable_context: 8192,
            pad_token_id: None,
            tie_word_embeddings: false,
            layer_norm_eps: 1e-5,
            num_experts: None,
            experts_per_token: None,
        }
    }

    #[test]
    fn a_uniform_gqa_cache_is_two_x_layers_x_kv_heads_x_head_dim() {
        let l = KvLayout::uniform(&dims(32, 8, 128));
        assert_eq!(l.values_per_token() * 2, 2 * 32 * 8 * 128 * 2);
        assert_eq!(l.values(1000), 1000 * 2 * 32 * 8 * 128);
    }

    /// Two layers of 10 values per token over a 100-token window, and one global layer.
    fn two_windowed_one_global() -> KvLayout {
        let group = |layers, window| KvGroup { layers, values_per_token: 10, window, what: String::new() };
        KvLayout {
            groups: vec![group(2, Some(100)), group(1, None)],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        }
    }

    #[test]
    fn a_window_caps_the_cache() {
        let l = two_windowed_one_global();
        // 2 layers x 10 x min(500, 100) + 1 x 10 x 500.
        assert_eq!(l.values(500), 2 * 10 * 100 + 10 * 500);
        assert_eq!(l.values(50), 3 * 10 * 50);
    }

    #[test]
    fn the_serving_model_applies_the_window_at_every_length() {
        let l = two_windowed_one_global();
        let v = ServingView {
            kind: ModelKind::Decoder,
            quantised_params: 0,
            total_params: 0,
            weights: vec![],
            kv: Some(KvView {
                layout: l.clone(),
                bytes_per_token_bf16: 0,
                bytes_per_token_fp8: 0,
                bytes_at_context_bf16: 0,
                context: 1000,
            }),
            encoder_working_bytes_per_token: None,
            notes: vec![],
        };
        let m = v.memory_model("bf16", 2);
        for s in [1, 50, 100, 101, 500, 100_000] {
            // The formula any client evaluates equals the layout's own count, bf16.
            assert_eq!(m.peak(1, s).0, (2 * l.values(s)) as f64, "at {s} tokens");
        }
    }

    #[test]
    fn int4_with_a_scale_per_128_weights_is_4_125_bits() {
        assert_eq!(PRECISIONS[3].bits_per_param, 4.0 + 16.0 / 128.0);
        // 1,000 parameters of which 800 quantised: 200 x 2 + 800 x 4.125 / 8 = 400 + 412.5.
        assert_eq!(weights_bytes(1000, 800, &PRECISIONS[3]), 812.5);
    }
}
