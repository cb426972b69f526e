//! What a card holds beyond the bytes torch allocates: the figure a user sees in `nvidia-smi`
//! when the card runs out. Three figures, one model:
//!
//! - **allocated** (`torch.cuda.max_memory_allocated`): the phases of `memory_model`;
//! - **reserved** (`torch.cuda.max_memory_reserved`): the caching allocator rounds blocks up and
//!   keeps freed blocks cached, which grows with the peak: `(1 + f) x allocated`, plus the cuBLAS
//!   workspaces, which it also serves;
//! - **nvidia-smi**: reserved plus the CUDA context (the driver's and the kernels' own memory),
//!   which no torch counter sees and which varies by card family and driver.
//!
//! Each is linear in the allocated bytes, so a card's nvidia-smi figure is the allocated phases
//! scaled and shifted ([`MemoryModel::scaled`]), and the calculator repeats it from the JSON.

use serde::Serialize;

use super::cards::Card;
use super::memory_model::MemoryModel;

/// The caching allocator's reserve over the allocated peak: rounding of large blocks to 2 MiB and
/// cached blocks that a later, larger request cannot reuse. An assumption until measured per card
/// (`tools/validate/measure_gpu.py` records allocated and reserved side by side).
pub const ALLOCATOR_RESERVE_FRACTION: f64 = 0.05;

/// PyTorch's default cuBLAS workspace per handle and stream (`aten/src/ATen/cuda/
/// CublasHandlePool.cpp`, `:4096:2:16:8`): 2 x 4 MiB + 8 x 16 KiB before Hopper, 8 x 4 MiB on
/// Hopper and Blackwell.
pub const CUBLAS_WORKSPACE_PRE_HOPPER: f64 = (4096.0 * 1024.0 * 2.0) + (16.0 * 1024.0 * 8.0);
pub const CUBLAS_WORKSPACE_HOPPER: f64 = 4096.0 * 8.0 * 1024.0;

/// One card family's runtime figures.
#[derive(Debug, Clone, Serialize)]
pub struct CardRuntime {
    pub family: &'static str,
    /// The CUDA (or ROCm) context: driver, runtime and loaded kernels, outside torch's counters.
    pub context_bytes: f64,
    /// One cuBLAS workspace.
    pub workspace_bytes: f64,
}

const MIB: f64 = 1024.0 * 1024.0;

/// A card's family from its id or name; a card the table does not know gets the largest context.
pub fn card_runtime(card: &Card) -> CardRuntime {
    // Whether the id or the name holds `s` (lowercase, no space), ignoring ASCII case: the same
    // as searching "id name" lowercased, without building it for every card of every model.
    let holds =
        |hay: &str, s: &str| hay.as_bytes().windows(s.len()).any(|w| w.eq_ignore_ascii_case(s.as_bytes()));
    let has = |s: &str| holds(&card.id, s) || holds(&card.name, s);
    // Contexts with lazy module loading (CUDA 12, the default under torch 2.x): the figures are
    // what `nvidia-smi` shows for a process that has initialised CUDA, run a bf16 matmul and an
    // SDPA kernel, less its reserved bytes; the heavier the architecture's kernel set, the more.
    let (family, context_mib, workspace) = if has("h100") || has("h200") || has("gh200") {
        ("hopper", 520.0, CUBLAS_WORKSPACE_HOPPER)
    } else if has("b200") || has("b100") || has("gb200") {
        ("blackwell", 560.0, CUBLAS_WORKSPACE_HOPPER)
    } else if has("mi300") || has("mi250") || has("mi325") {
        ("cdna (rocm)", 560.0, CUBLAS_WORKSPACE_PRE_HOPPER)
    } else if has("t4") || has("v100") || has("rtx20") {
        ("turing/volta", 330.0, CUBLAS_WORKSPACE_PRE_HOPPER)
    } else if has("a100") || has("a10") || has("a6000") || has("a40") || has("rtx30") || has("3090") {
        ("ampere", 430.0, CUBLAS_WORKSPACE_PRE_HOPPER)
    } else if has("l4") || has("l40") || has("4090") || has("rtx40") || has("ada") {
        ("ada", 430.0, CUBLAS_WORKSPACE_PRE_HOPPER)
    } else {
        ("unknown (Hopper's figures)", 560.0, CUBLAS_WORKSPACE_HOPPER)
    };
    CardRuntime { family, context_bytes: context_mib * MIB, workspace_bytes: workspace }
}

/// Workspaces a step holds: training runs matmuls on the main thread and on autograd's backward
/// thread, each with its own cuBLAS handle and workspace; serving on one.
pub fn workspaces(training: bool) -> f64 {
    if training { 2.0 } else { 1.0 }
}

/// The three figures for one allocated peak on one card.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Figures {
    pub allocated_bytes: f64,
    pub reserved_bytes: f64,
    pub nvidia_smi_bytes: f64,
}

pub fn figures(allocated: f64, card: &CardRuntime, training: bool) -> Figures {
    let reserved = reserved(allocated, card, training);
    Figures {
        allocated_bytes: allocated,
        reserved_bytes: reserved,
        nvidia_smi_bytes: reserved + card.context_bytes,
    }
}

pub fn reserved(allocated: f64, card: &CardRuntime, training: bool) -> f64 {
    allocated * (1.0 + ALLOCATOR_RESERVE_FRACTION) + workspaces(training) * card.workspace_bytes
}

/// A mode's allocated phases as `nvidia-smi` sees them on `card`.
pub fn on_card(model: &MemoryModel, card: &CardRuntime, training: bool) -> MemoryModel {
    model.scaled(
        1.0 + ALLOCATOR_RESERVE_FRACTION,
        workspaces(training) * card.workspace_bytes + card.context_bytes,
    )
}

pub const RULE: &str = "Three figures: allocated (torch.cuda.max_memory_allocated, what the phases count), reserved (torch.cuda.max_memory_reserved) = allocated x (1 + the allocator's reserve, 5%) + the cuBLAS workspaces (PyTorch's default, 8.1 MiB per handle before Hopper, 32 MiB on Hopper and Blackwell; two in training: the forward's and the backward thread's), and nvidia-smi = reserved + the CUDA context of the card's family (330 MiB Turing, 430 MiB Ampere and Ada, 520 MiB Hopper, 560 MiB Blackwell, ROCm and unknown cards). A card runs out when the nvidia-smi figure reaches its memory: the fit, the bands and the largest batch use that figure.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::memory_model::{Coefficients, Phase};

    fn card(id: &str) -> Card {
        Card {
            id: id.into(),
            name: String::new(),
            memory_gb: 80.0,
            bandwidth_gbs: 1.0,
            bf16_tflops: 1.0,
            fp16_tflops: 1.0,
            bf16_native: true,
            price_usd_per_hour: 1.0,
            spec_source: String::new(),
            price_source: String::new(),
            price_as_of: String::new(),
        }
    }

    #[test]
    fn the_cublas_workspace_is_pytorchs_default_per_architecture() {
        // `:4096:2:16:8` = 4096 KiB x 2 + 16 KiB x 8 = 8,519,680 bytes; Hopper `:4096:8` = 32 MiB.
        assert_eq!(card_runtime(&card("a100-80gb")).workspace_bytes, 8_519_680.0);
        assert_eq!(card_runtime(&card("h100-80gb")).workspace_bytes, 33_554_432.0);
    }

    #[test]
    fn nvidia_smi_is_reserved_plus_the_context_and_reserved_grows_with_the_peak() {
        let h100 = card_runtime(&card("h100-80gb"));
        let f = figures(10e9, &h100, true);
        // reserved = 10e9 x 1.05 + 2 x 33,554,432; nvidia-smi adds 520 MiB = 545,259,520.
        assert_eq!(f.reserved_bytes, 10.5e9 + 67_108_864.0);
        assert_eq!(f.nvidia_smi_bytes, 10.5e9 + 67_108_864.0 + 545_259_520.0);
        let g = figures(20e9, &h100, true);
        assert!(g.reserved_bytes - g.allocated_bytes > f.reserved_bytes - f.allocated_bytes);
    }

    #[test]
    fn the_card_model_is_the_figures_at_every_batch() {
        let m = MemoryModel {
            phases: vec![Phase {
                name: "p".into(),
                coefficients: Coefficients {
                    fixed_bytes: 1e9,
                    per_token_bytes: 1e5,
                    ..Coefficients::default()
                },
            }],
        };
        let t4 = card_runtime(&card("t4-16gb"));
        let on = on_card(&m, &t4, false);
        for (b, s) in [(1, 512), (4, 2048)] {
            let alloc = m.peak(b, s).0;
            let want = figures(alloc, &t4, false).nvidia_smi_bytes;
            assert!((on.peak(b, s).0 - want).abs() < 1e-3, "b={b} s={s}");
        }
    }
}
