//! What one layer of a described type (`config/spec.rs`) caches per token: keys and values over
//! its own key/value heads (MiMo-V2-Flash's differ by layer, and its values are narrower), or
//! the latent and the shared rotary key of latent attention (dots.3 note's sizes differ by layer),
//! plus the indexer's key where the type's cache keeps one (MiniMax-M3's sparse layers; A.X K2's,
//! dots.3 note's and HY V4's indexed layers, `cache.update_indexer`).

use super::spec_arch::Kind;
use crate::config::spec::SpecConfig;
use crate::config::spec_dec6::AttnShape;

pub(super) fn layer_cache(c: &SpecConfig, i: usize) -> (u64, String) {
    let kv = c.own.attn_shapes.get(i).map_or(c.num_kv_heads, |s| s.kv_heads);
    let indexed = c.indexed_layers.get(i).copied().unwrap_or(false);
    let own = c.own.dots3.as_ref().and_then(|d| d.latent.get(i)).map(|(_, d)| d);
    match own.or(c.latent.as_ref()) {
        // vLLM and SGLang cache the compressed latent and the shared rotary key (as the
        // lineage's DeepSeek types do); transformers' own cache decompresses them.
        Some(d) => {
            let what =
                format!("latent: kv_lora_rank {} + qk_rope_head_dim {}", d.kv_lora_rank, d.qk_rope_head_dim);
            let keeps_index =
                indexed && (c.own.dots3.is_some() || c.own.gated_norm_rank > 0 || c.own.hc_mult > 0);
            match keeps_index {
                true => (
                    d.kv_lora_rank + d.qk_rope_head_dim + d.index_head_dim,
                    format!("{what} + the indexer's key ({})", d.index_head_dim),
                ),
                false => (d.kv_lora_rank + d.qk_rope_head_dim, what),
            }
        }
        None => {
            let index = c.own.m3_index.filter(|_| indexed).map_or(0, |(_, d)| d);
            let (k, v) = (c.head_dim, c.own.v_head_dim);
            let what = if v == k {
                format!("2 x {kv} KV heads x {k} head_dim")
            } else {
                format!("{kv} KV heads x ({k} key + {v} value dims)")
            };
            match index {
                0 => (kv * (k + v), what),
                d => (kv * (k + v) + d, format!("{what} + the indexer's key ({d})")),
            }
        }
    }
}

/// A layer's attention heads: its own where the type's layers differ, else the config's.
pub(super) fn shape(c: &SpecConfig, k: Kind) -> AttnShape {
    k.shape.unwrap_or(AttnShape { heads: c.num_heads, kv_heads: c.num_kv_heads, sinks: c.spec.sinks })
}
