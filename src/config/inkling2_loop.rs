//! Inkling 2 Loop (`inkling2_loop_text`): Inkling 2's layers, those from
//! `loop_layer_index_start` to `loop_layer_index_end` run `loop_num_passes` times with the same
//! weights, each looped layer mixing in messages from the previous pass through four message
//! gates (rank `loop_gate_rank`). Read as transformers 5.24's `Inkling2LoopTextConfig` reads it,
//! including the checkpoints' nested `loop_config` (`core_start`, `core_end`, `num_passes`,
//! `gate_rank`), and checked as it checks them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::encoders::{LAYERS, WIDTH};
use super::{ConfigError, Defaulted, size};

#[derive(Debug, Deserialize)]
struct Raw {
    loop_layer_index_start: Option<u64>,
    loop_layer_index_end: Option<u64>,
    loop_num_passes: Option<u64>,
    loop_gate_rank: Option<u64>,
    n_layers_per_attn_res_block: Option<u64>,
    loop_config: Option<Nested>,
}

#[derive(Debug, Deserialize)]
struct Nested {
    core_start: Option<u64>,
    core_end: Option<u64>,
    num_passes: Option<u64>,
    gate_rank: Option<u64>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct Loop {
    pub start: u64,
    pub end: u64,
    pub passes: u64,
    pub gate_rank: u64,
}

impl Loop {
    /// Whether layer `i` is looped (and holds message gates).
    pub fn holds(&self, i: u64) -> bool {
        (self.start..self.end).contains(&i)
    }

    /// The layers a forward pass visits in order, each once per pass it runs in: the cache keeps
    /// one entry per visit (`total_num_hidden_layers`).
    pub fn visits(&self, layers: u64) -> Vec<u64> {
        let end = self.end.min(layers);
        let mut v: Vec<u64> = (0..self.start.min(layers)).collect();
        for _ in 0..self.passes {
            v.extend(self.start..end);
        }
        v.extend(end.max(self.start)..layers);
        v
    }
}

pub(crate) fn read(value: &Value, d: &mut Vec<Defaulted>) -> Result<Loop, ConfigError> {
    let r: Raw = super::deserialize_raw(value)?;
    let n = r.loop_config.unwrap_or(Nested {
        core_start: None,
        core_end: None,
        num_passes: None,
        gate_rank: None,
    });
    let start = n.core_start.or(r.loop_layer_index_start);
    let end = n.core_end.or(r.loop_layer_index_end);
    let passes = size("loop_num_passes", n.num_passes.or(r.loop_num_passes), 3, 1 << 10, d)?;
    let gate_rank = size("loop_gate_rank", n.gate_rank.or(r.loop_gate_rank), 64, WIDTH, d)?;
    let block = size("n_layers_per_attn_res_block", r.n_layers_per_attn_res_block, 6, LAYERS, d)?;
    let start = size("loop_layer_index_start", start, 6, LAYERS, d)?;
    let end = end.unwrap_or_else(|| {
        d.push(Defaulted { field: "loop_layer_index_end", value: "18".into() });
        18
    });
    for (field, v) in [("loop_layer_index_start", start), ("loop_layer_index_end", end)] {
        if !v.is_multiple_of(block) {
            return Err(ConfigError::field(
                field,
                format!("{v} is not a multiple of n_layers_per_attn_res_block ({block})"),
            ));
        }
    }
    if end < start {
        return Err(ConfigError::field(
            "loop_layer_index_end",
            format!("{end} comes before loop_layer_index_start ({start})"),
        ));
    }
    if end - start > LAYERS {
        return Err(ConfigError::field("loop_layer_index_end", format!("{end} is beyond any real model")));
    }
    Ok(Loop { start, end, passes, gate_rank })
}
