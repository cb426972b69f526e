//! The baseline memory method: the one stated by the page modelatlas set out to beat, kept to
//! reproduce its table to the batch. It is simple and knowingly rough; every constant is listed in
//! [`ASSUMPTIONS`] and shown on the page.
//!
//! - Full fine-tune: AdamW in mixed precision, 16 bytes per parameter (fp32 weights, gradients and
//!   two moments) times 1.2, plus activations.
//! - Activations: 34 x seq x hidden bytes per layer (SDPA: no score matrix kept), plus 2 x seq x
//!   hidden each for the embedding, positional-embedding and output nodes, per sample.
//! - LoRA: r = 16 on every linear layer of the blocks (not the head), the base frozen in bf16 (2
//!   bytes per parameter), the adapters at the same 16 x 1.2 bytes per parameter, same activations.
//! - Serving: bf16 weights plus 2 x layers x hidden x seq x 2 bytes per sequence.
//! - Sized: the bare encoder (embeddings and layers; no pooler, no head).
//! - Largest batch on a card: floor((card / 1.15 - fixed) / per-sample).

use serde::Serialize;

use crate::graph::{Graph, Node, Op, Role};

pub const ADAM_BYTES_PER_PARAM: f64 = 16.0;
pub const OPTIMIZER_FACTOR: f64 = 1.2;
pub const ACT_BYTES_PER_LAYER: f64 = 34.0;
/// Embedding, positional embedding and output nodes, 2 bytes per element each.
pub const ACT_BYTES_OUTSIDE_LAYERS: f64 = 6.0;
pub const LORA_RANK: u64 = 16;
pub const BF16_BYTES: f64 = 2.0;
pub const HEADROOM: f64 = 1.15;

pub const ASSUMPTIONS: &[&str] = &[
    "Method: the baseline of the page modelatlas set out to beat, reproduced exactly; a finer method is planned.",
    "Sized on the bare encoder: embeddings and layers, without pooler or task head.",
    "Full fine-tune: AdamW with bf16 autocast, 16 bytes per parameter (fp32 weights, gradients, two Adam moments) x 1.2.",
    "Activations per sample: (34 x layers + 6) x sequence x hidden bytes (SDPA attention, no score matrix stored; 2 bytes each for the embedding, positional-embedding and output nodes). Logits are not counted.",
    "LoRA: r = 16 on every linear layer of the blocks (not the head), base frozen in bf16 (2 bytes per parameter), adapters at 16 x 1.2 bytes per parameter, same activations as the full fine-tune.",
    "Serving: bf16 weights plus 2 x layers x hidden x sequence x 2 bytes per sequence. An encoder keeps no KV cache; this term stands in for its per-sequence working set as the baseline defines it.",
    "Not counted: CUDA context, framework reserve, prefill working set.",
    "Largest batch = floor((card / 1.15 - fixed) / per-sample): 1.15x headroom on every card; memory in decimal GB (10^9 bytes).",
];

/// One mode's memory as fixed bytes plus bytes per sample (or per sequence when serving).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ModeMemory {
    pub fixed_bytes: f64,
    pub per_sample_bytes: f64,
}

impl ModeMemory {
    pub fn at_batch(&self, batch: u64) -> f64 {
        self.fixed_bytes + self.per_sample_bytes * batch as f64
    }

    /// The largest batch that fits in `card_bytes` after the headroom; 0 when not even one does.
    pub fn largest_batch(&self, card_bytes: f64) -> u64 {
        let room = card_bytes / HEADROOM - self.fixed_bytes;
        if room < self.per_sample_bytes || self.per_sample_bytes <= 0.0 {
            return 0;
        }
        (room / self.per_sample_bytes).floor() as u64
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct BaselineMemory {
    pub sized_params: u64,
    pub lora_trainable_params: u64,
    pub activation_bytes_per_sample: f64,
    pub full: ModeMemory,
    pub lora: ModeMemory,
    pub serve: ModeMemory,
}

/// Trainable parameters of LoRA at `rank` on every linear layer in the blocks: r x (in + out)
/// per adapted matrix.
pub fn lora_params(graph: &Graph, rank: u64) -> u64 {
    sum_over_layer_linears(graph, |n| {
        n.params
            .iter()
            .find(|t| t.shape.len() == 2)
            .map_or(0, |w| n.copies * rank * (w.shape[0] + w.shape[1]))
    })
}

/// `per_node` summed over the linear nodes of the blocks, each block section counted `repeat`
/// times.
pub(crate) fn sum_over_layer_linears(graph: &Graph, per_node: impl Fn(&Node) -> u64) -> u64 {
    graph
        .sections
        .iter()
        .filter(|s| s.role == Role::Layers)
        .map(|s| {
            let per_block: u64 = s.nodes.iter().filter(|n| n.op == Op::Linear).map(&per_node).sum();
            per_block * s.repeat
        })
        .sum()
}

pub fn estimate(graph: &Graph, layers: u64, hidden: u64) -> BaselineMemory {
    let seq = graph.seq_len as f64;
    let h = hidden as f64;
    let l = layers as f64;
    let sized = graph.param_count_where(|r| matches!(r, Role::Embeddings | Role::Layers));
    let lora = lora_params(graph, LORA_RANK);
    let act = (ACT_BYTES_PER_LAYER * l + ACT_BYTES_OUTSIDE_LAYERS) * seq * h;
    let state = ADAM_BYTES_PER_PARAM * OPTIMIZER_FACTOR;
    BaselineMemory {
        sized_params: sized,
        lora_trainable_params: lora,
        activation_bytes_per_sample: act,
        full: ModeMemory { fixed_bytes: sized as f64 * state, per_sample_bytes: act },
        lora: ModeMemory {
            fixed_bytes: sized as f64 * BF16_BYTES + lora as f64 * state,
            per_sample_bytes: act,
        },
        serve: ModeMemory {
            fixed_bytes: sized as f64 * BF16_BYTES,
            per_sample_bytes: 2.0 * l * h * seq * BF16_BYTES,
        },
    }
}
