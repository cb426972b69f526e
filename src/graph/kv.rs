//! The structure of a model's KV cache, as the architecture describes it: defined here, below
//! both the graph builders that describe it and the serving estimate that sizes it, so that the
//! dependency between them runs one way (`estimate` reads `graph`, never the reverse).

use serde::Serialize;

use crate::config::Dims;

/// Layers that cache the same number of values per token, with the same window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KvGroup {
    pub layers: u64,
    /// Values cached per token per layer, keys and values together (2 x KV heads x head_dim; the
    /// latent plus the rotary key for multi-head latent attention).
    pub values_per_token: u64,
    /// Tokens a layer keeps at most (a sliding window); null: every token.
    pub window: Option<u64>,
    pub what: String,
}

/// The structure of a model's KV cache.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KvLayout {
    /// The decoder's self-attention cache.
    pub groups: Vec<KvGroup>,
    /// Cross-attention: the encoder's keys and values, cached once per sequence in each decoder
    /// layer; `values_per_token` per encoder token.
    pub cross: Option<KvGroup>,
    /// The encoder's length when it is fixed (Whisper: 1500 audio frames); null: the encoder
    /// reads as many tokens as the sequence.
    pub cross_fixed_len: Option<u64>,
    /// A state-space model's recurrent state: a fixed number of values per sequence, whatever
    /// its length, in place of (or, in a hybrid, beside) a KV cache. Absent from the JSON when
    /// the model has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recurrent: Option<RecurrentState>,
}

/// The state a recurrent (state-space) layer carries from token to token, per sequence: the
/// causal convolution's last inputs and the selective scan's state, both as transformers' cache
/// allocates them (`conv_states`, `ssm_states`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecurrentState {
    pub layers: u64,
    /// Per layer: conv channels x conv_kernel.
    pub conv_values: u64,
    /// Per layer: the scan's state (channels or heads x head_dim, times state_size).
    pub ssm_values: u64,
    pub what: String,
}

impl RecurrentState {
    /// Values one sequence holds, all layers.
    pub fn values(&self) -> u64 {
        self.layers * (self.conv_values + self.ssm_values)
    }
}

impl KvLayout {
    /// All layers alike, full attention, from the family-neutral dimensions.
    pub fn uniform(d: &Dims) -> Self {
        KvLayout {
            groups: vec![KvGroup {
                layers: d.num_layers,
                values_per_token: 2 * d.num_kv_heads * d.head_dim,
                window: None,
                what: format!("2 x {} KV heads x {} head_dim", d.num_kv_heads, d.head_dim),
            }],
            cross: None,
            cross_fixed_len: None,
            recurrent: None,
        }
    }

    /// Cached values for one sequence of `seq` tokens.
    pub fn values(&self, seq: u64) -> u64 {
        let own: u64 = self
            .groups
            .iter()
            .map(|g| g.layers * g.values_per_token * g.window.map_or(seq, |w| seq.min(w)))
            .sum();
        let cross = self
            .cross
            .as_ref()
            .map_or(0, |c| c.layers * c.values_per_token * self.cross_fixed_len.unwrap_or(seq));
        own + cross + self.recurrent.as_ref().map_or(0, RecurrentState::values)
    }

    /// Values per token while no window is full: the figure "bytes per token" quotes.
    pub fn values_per_token(&self) -> u64 {
        self.groups.iter().map(|g| g.layers * g.values_per_token).sum::<u64>()
            + self
                .cross
                .as_ref()
                .filter(|_| self.cross_fixed_len.is_none())
                .map_or(0, |c| c.layers * c.values_per_token)
    }

    pub fn is_empty(&self) -> bool {
        self.groups.iter().all(|g| g.layers == 0) && self.recurrent.is_none()
    }
}
