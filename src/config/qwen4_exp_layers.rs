//! Qwen4-Exp's per-layer choices (`config/qwen4_exp.rs`), as `Qwen4ExpTextConfig` resolves and
//! validates them: the layer kinds, the indexer's sizes, and the per-layer n-gram embeddings'
//! tables, whose rows are consecutive primes from `ngram_vocab_size_base` (one per n-gram head,
//! numbered across the PLE layers), summed and padded to `make_ngram_vocab_size_divisible_by`.

use serde_json::Value;

use super::qwen4_exp::{Indexer, Ple};
use super::spec::Reader;
use super::{ConfigError, Defaulted, Limit, check_range};

/// `layer_types` (`linear_attention`, `indexed_attention`, or `full_attention` read as indexed),
/// else attention on every `full_attention_interval`-th layer (default 4). Per layer: linear.
pub(crate) fn linear_layers(r: &mut Reader, layers: u64) -> Result<Vec<bool>, ConfigError> {
    if let Some(v) = r.raw("layer_types") {
        let n = layers as usize;
        let bad = || {
            ConfigError::field(
                "layer_types",
                format!("expected {n} of linear_attention or indexed_attention"),
            )
        };
        let list = v.as_array().filter(|l| l.len() == n).ok_or_else(bad)?;
        return list
            .iter()
            .map(|t| match t.as_str() {
                Some("linear_attention") => Ok(true),
                Some("indexed_attention" | "full_attention") => Ok(false),
                _ => Err(bad()),
            })
            .collect();
    }
    let every = match r.opt_u("full_attention_interval")? {
        Some(k) => check_range(Limit { field: "full_attention_interval", max: 10_000 }, k)?,
        None => {
            r.defaulted.push(Defaulted { field: "full_attention_interval", value: "4".into() });
            4
        }
    };
    Ok((0..layers).map(|i| (i + 1) % every != 0).collect())
}

/// The indexer's sizes, which every attention layer needs (the class builds it unconditionally);
/// as the class checks, given together, with one key head and a budget in whole blocks.
pub(crate) fn indexer(r: &mut Reader, linear: &[bool]) -> Result<Option<Indexer>, ConfigError> {
    let field = if r.raw("output_gate_type").is_some() { "output_gate_type" } else { "hidden_act" };
    let act = r.raw(field).and_then(Value::as_str).unwrap_or("silu");
    if !matches!(act, "silu" | "sigmoid") {
        return Err(ConfigError::field(
            field,
            format!("{act}: the linear layers' output gate is silu or sigmoid"),
        ));
    }
    const KEYS: [&str; 5] = [
        "indexer_n_heads",
        "indexer_kv_heads",
        "indexer_head_dim",
        "indexer_budget",
        "indexer_compress_ratio",
    ];
    let mut given = vec![];
    for key in KEYS {
        given.push(match r.opt_u(key)? {
            Some(v) => Some(check_range(Limit { field: key, max: 1 << 20 }, v)?),
            None => None,
        });
    }
    if given.iter().all(Option::is_none) {
        if linear.iter().all(|l| *l) {
            return Ok(None);
        }
        return Err(ConfigError::field(
            "indexer_n_heads",
            "missing, but the attention layers build an indexer",
        ));
    }
    if let Some(at) = given.iter().position(Option::is_none) {
        return Err(ConfigError::field(KEYS[at], "missing, but the other indexer sizes are given"));
    }
    let [heads, kv, dim, budget, ratio] = [0, 1, 2, 3, 4].map(|i| given[i].unwrap_or(1));
    if kv != 1 {
        return Err(ConfigError::field(
            "indexer_kv_heads",
            format!("{kv}: Qwen4-Exp's indexer has one key head"),
        ));
    }
    if budget % ratio != 0 {
        return Err(ConfigError::field(
            "indexer_budget",
            format!("{budget} is not a multiple of indexer_compress_ratio {ratio}"),
        ));
    }
    Ok(Some(Indexer { heads, head_dim: dim }))
}

/// What `ple` resolves: each layer's table, `ple_embed_dim`, the convolution's kernel and
/// `ngram_size`.
type PleParts = (Vec<Option<Ple>>, u64, u64, u64);

/// `ple_layer_ids` (one-indexed, linear layers only, an `eos_token_id` required), and their
/// tables.
pub(crate) fn ple(r: &mut Reader, linear: &[bool], hidden: u64) -> Result<PleParts, ConfigError> {
    let dim = match r.opt_u("ple_embed_dim")? {
        Some(d) => check_range(Limit { field: "ple_embed_dim", max: 1 << 18 }, d)?,
        None => hidden,
    };
    let kernel = r.size("ple_conv_kernel_size", 1024)?;
    let ngram = r.size("ngram_size", 64)?;
    let mut ids = r.index_list("ple_layer_ids")?.unwrap_or_default();
    ids.sort_unstable();
    ids.dedup();
    let mut tables = vec![None; linear.len()];
    if ids.is_empty() {
        return Ok((tables, dim, kernel, ngram));
    }
    let bad = |why: String| ConfigError::field("ple_layer_ids", why);
    if let Some(id) = ids.iter().find(|i| **i < 1 || **i > linear.len() as u64) {
        return Err(bad(format!("{id} is not a layer (one-indexed, 1 to {})", linear.len())));
    }
    if let Some(id) = ids.iter().find(|i| !linear[(**i - 1) as usize]) {
        return Err(bad(format!("layer {id} is not a linear_attention layer")));
    }
    if r.raw("eos_token_id").is_none_or(|v| v.as_array().is_some_and(Vec::is_empty)) {
        return Err(ConfigError::field("eos_token_id", "missing, but the n-gram embeddings need it"));
    }
    let heads = (ngram - 1) * r.size("heads_per_ngram", 1024)?;
    if heads == 0 || dim % heads != 0 {
        return Err(ConfigError::field(
            "ple_embed_dim",
            format!("{dim} does not split into {heads} n-gram heads ((ngram_size - 1) x heads_per_ngram)"),
        ));
    }
    if heads * ids.len() as u64 > 1 << 14 {
        return Err(bad(format!("{} tables of {heads} n-gram heads are beyond any real model", ids.len())));
    }
    let base = r.size("ngram_vocab_size_base", 1 << 40)?;
    let pad = r.size("make_ngram_vocab_size_divisible_by", 1 << 20)?;
    let mut prime = base - 1;
    for id in ids {
        let mut rows = 0;
        for _ in 0..heads {
            prime = next_prime(prime);
            rows += prime;
        }
        tables[(id - 1) as usize] = Some(Ple { rows: rows.div_ceil(pad) * pad, head_width: dim / heads });
    }
    Ok((tables, dim, kernel, ngram))
}

/// The smallest prime above `n`.
fn next_prime(n: u64) -> u64 {
    (n + 1..).find(|p| is_prime(*p)).unwrap_or(n)
}

/// Deterministic Miller-Rabin for 64-bit numbers.
fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    if let Some(b) = BASES.iter().find(|b| n.is_multiple_of(**b)) {
        return n == *b;
    }
    let mul = |a: u64, b: u64| ((a as u128 * b as u128) % n as u128) as u64;
    let pow = |mut b: u64, mut e: u64| {
        let mut out = 1;
        while e > 0 {
            if e & 1 == 1 {
                out = mul(out, b);
            }
            b = mul(b, b);
            e >>= 1;
        }
        out
    };
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    BASES.iter().all(|a| {
        let mut x = pow(*a, d);
        if x == 1 || x == n - 1 {
            return true;
        }
        (1..s).any(|_| {
            x = mul(x, x);
            x == n - 1
        })
    })
}
