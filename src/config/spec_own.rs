//! What the decoders of `config/spec_{dec6,longcat,axk2,m3,dots3,hyv4}.rs` read beyond the shared
//! tables, in one call from `spec_read.rs`: per-layer attention shapes, LongCat-Flash's identity
//! experts, A.X K2's gated norms, MiniMax-M3's and dots.3 note's indexers and per-layer sizes,
//! HY V4's hyper-connections. Each reader leaves the other types as the shared reading made them.

use super::spec::Reader;
use super::{ConfigError, spec_axk2, spec_dec6, spec_dots3, spec_hyv4, spec_longcat, spec_m3};

#[derive(Debug, Clone, Default)]
pub struct Own {
    /// Per layer, its attention's heads where the type's layers differ (empty: all alike).
    pub attn_shapes: Vec<spec_dec6::AttnShape>,
    /// The value heads' width: `head_dim` unless narrower (MiMo-V2-Flash's `v_head_dim`).
    pub v_head_dim: u64,
    /// An output gate per channel rather than per head (Laguna's `gating: "per-element"`).
    pub gate_per_channel: bool,
    /// LongCat-Flash's identity experts, router bias and query width.
    pub longcat: spec_longcat::LongcatDims,
    /// A.X K2's low-rank gate on its norms (0: none).
    pub gated_norm_rank: u64,
    /// MiniMax-M3's indexer heads and head width, on the layers `indexed_layers` marks.
    pub m3_index: Option<(u64, u64)>,
    /// dots.3 note's per-layer attention sizes.
    pub dots3: Option<spec_dots3::Dots3Layers>,
    /// HY V4's residual copies (`hc_mult`; 0: a plain residual stream).
    pub hc_mult: u64,
    /// Molmo 2's q/k norms over the whole projection (`qk_norm_type: "olmo"`) instead of per head.
    pub qk_full: bool,
    /// Embedding rows beyond the vocabulary (Molmo 2's `additional_vocab_size`).
    pub extra_vocab: u64,
}

/// The shared reading's per-layer patterns, which some of these types replace.
pub(crate) struct Patterns {
    pub windows: Vec<Option<u64>>,
    pub indexed: Vec<bool>,
    pub sparse: Vec<bool>,
    pub shared_width: Option<u64>,
}

pub(crate) fn read(
    r: &mut Reader,
    layers: u64,
    dims: (u64, u64, u64),
    mut p: Patterns,
) -> Result<(Own, Patterns), ConfigError> {
    let shaped = spec_dec6::layer_attention(r, layers, dims)?;
    if let Some(w) = shaped.windows {
        p.windows = w;
    }
    let mut own = Own {
        attn_shapes: shaped.shapes,
        v_head_dim: shaped.v_head_dim,
        gate_per_channel: shaped.gate_per_channel,
        longcat: spec_longcat::read(r)?,
        gated_norm_rank: spec_axk2::gated_norm_rank(r)?,
        ..Own::default()
    };
    if let Some((index, indexed, sparse)) = spec_m3::read(r, layers)? {
        (own.m3_index, p.indexed, p.sparse) = (Some(index), indexed, sparse);
    }
    if let Some(d) = spec_dots3::read(r, layers)? {
        (p.windows, p.indexed, p.sparse) = (d.windows.clone(), d.indexed.clone(), d.sparse.clone());
        p.shared_width = Some(d.shared_width);
        own.dots3 = Some(d);
    }
    (own.qk_full, own.extra_vocab) = super::spec_txb::read(r)?;
    if let Some((hc, indexed)) = spec_hyv4::read(r, layers)? {
        (own.hc_mult, p.indexed) = (hc, indexed);
    }
    Ok((own, p))
}
