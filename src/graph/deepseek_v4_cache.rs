//! DeepSeek-V4's cache (`config/deepseek_v4.rs`), as transformers' `DeepseekV4HCACache` and
//! `DeepseekV4CSACache` keep it. Every layer keeps its sliding window of the one shared
//! key/value head (`head_dim` values a token: keys are the values). A heavily compressed layer
//! also keeps one pooled entry of `head_dim` values per `compress_rates` tokens, all of them; a
//! compressed sparse layer one entry of `head_dim` and one of the indexer's `index_head_dim`
//! per its rate. The KV layout counts values per token, so an entry is counted as its share of
//! each token (exact at every multiple of the rate, rounded up where the rate does not divide
//! it); the compressor's buffer of the fewer than `rate` tokens not yet pooled, and the
//! compressed sparse layers' overlap state (a few rows per layer), are left out.

use super::kv::{KvGroup, KvLayout};
use crate::config::deepseek_v4::{Compress, DeepseekV4Config};

pub(super) fn kv_layout(c: &DeepseekV4Config) -> KvLayout {
    let (hd, w) = (c.dims.head_dim, c.sliding_window);
    let count = |k: Compress| c.attention.iter().filter(|x| **x == k).count() as u64;
    let mut groups = vec![KvGroup {
        layers: c.dims.num_layers,
        values_per_token: hd,
        window: Some(w),
        what: format!(
            "window of {w} tokens: 1 shared key/value head x {hd} head_dim (the keys are the values)"
        ),
    }];
    let (id, (sparse, heavy)) = (c.index_head_dim, c.rates);
    let entries = [
        (Compress::Heavy, hd, heavy, format!("one pooled entry of {hd} values per {heavy} tokens")),
        (
            Compress::Sparse,
            hd + id,
            sparse,
            format!("one pooled entry of {hd} values and one indexer key of {id} per {sparse} tokens"),
        ),
    ];
    for (kind, values, rate, what) in entries {
        let layers = count(kind);
        if layers == 0 {
            continue;
        }
        let share = values.div_ceil(rate);
        let exact = if values % rate == 0 { "" } else { ", rounded up" };
        groups.push(KvGroup {
            layers,
            values_per_token: share,
            window: None,
            what: format!(
                "compressed: {what}, counted as {share} values per token{exact} (exact at every multiple of {rate} tokens; the fewer than {rate} tokens not yet pooled, which the compressor buffers, are left out)"
            ),
        });
    }
    KvLayout { groups, cross: None, cross_fixed_len: None, recurrent: None }
}
