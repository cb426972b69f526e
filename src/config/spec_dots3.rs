//! dots.3 note's language model (`dots3_note_text`) as a description (see `config/spec.rs`):
//! DeepSeek's latent attention with a rotary-key norm (`k_rope_only_layernorm`) and a gate per
//! head (`g_proj`), DeepSeek-V3.2's indexer on the layers `layer_types` marks
//! `indexed_attention`, sliding layers with their own latent sizes (`per_layer_config`, by
//! default the class's `swa_*` values); routed experts behind a corrected router with a shared
//! expert of `shared_experts_intermediate_size` x `n_shared_experts`. The per-layer sizes are read
//! here ([`read`]); the builder takes each layer's from `Kind::latent`. Defaults are those of
//! transformers 5.24's `Dots3NoteTextConfig`.

use serde_json::{Map, Value};

use super::spec::{Attn, Dv, Experts, HeadKind, Indexer, MoeSpec, Reader, Shared, Spec};
use super::spec_dense::BASE;
use super::spec_llama_like::keys;
use super::spec_mixers::LatentDims;
use super::spec_mla::DEEPSEEK_MOE;
use super::{ConfigError, Limit, check_range};
use Dv::{B, F, S, U};
use HeadKind::{CausalLm, Model};

pub const TYPES: &[Spec] = &[Spec {
    model_type: "dots3_note_text",
    classes: &[("Dots3NoteTextModel", Model), ("Dots3NoteForCausalLM", CausalLm)],
    keys: keys![vocab_size: U(152_064), hidden_size: U(5120), intermediate_size: U(13_824),
        moe_intermediate_size: U(1536), num_hidden_layers: U(46), num_attention_heads: U(128),
        num_key_value_heads: U(128), n_shared_experts: U(1), n_routed_experts: U(256),
        kv_lora_rank: U(512), q_lora_rank: U(1024), qk_rope_head_dim: U(64), v_head_dim: U(128),
        qk_nope_head_dim: U(128), num_experts_per_tok: U(8), hidden_act: S("silu"),
        max_position_embeddings: U(524_288), rms_norm_eps: F(1e-5), pad_token_id: U(151_659),
        tie_word_embeddings: B(false), attention_bias: B(false), index_head_dim: U(128),
        index_n_heads: U(64), head_dim: U(256), shared_experts_intermediate_size: U(1536)],
    aliases: &[
        ("num_local_experts", "n_routed_experts"),
        ("moe_shared_expert_intermediate_size", "shared_experts_intermediate_size"),
    ],
    attn: Attn::Latent(Indexer::None),
    moe: Some(MoeSpec {
        experts: Experts::Stacked { bias: false },
        shared: Shared::Width { name: "shared_experts", key: "shared_experts_intermediate_size" },
        ..DEEPSEEK_MOE
    }),
    ..BASE
}];

/// Per layer: the attention's heads and latent sizes (with the indexer's where it has one),
/// whether it has the indexer, its window, whether its MLP routes; and the shared expert's width.
#[derive(Debug, Clone, PartialEq)]
pub struct Dots3Layers {
    pub latent: Vec<(u64, LatentDims)>,
    pub indexed: Vec<bool>,
    pub windows: Vec<Option<u64>>,
    pub sparse: Vec<bool>,
    pub shared_width: u64,
}

/// Keys a layer of `per_layer_config` may set: the attention's sizes, and ones no parameter
/// depends on. Any other is refused rather than miscounted.
const PER_LAYER: &[&str] = &[
    "num_attention_heads",
    "q_lora_rank",
    "kv_lora_rank",
    "qk_nope_head_dim",
    "qk_rope_head_dim",
    "v_head_dim",
    "index_n_heads",
    "index_head_dim",
    "attention_bias",
    "num_key_value_heads",
    "head_dim",
    "index_topk",
    "rms_norm_eps",
    "attention_dropout",
];

const SWA: &[(&str, u64)] = &[
    ("num_attention_heads", 64),
    ("q_lora_rank", 1024),
    ("kv_lora_rank", 1024),
    ("qk_nope_head_dim", 192),
    ("v_head_dim", 128),
];

fn count(v: &Value, field: &'static str) -> Result<u64, ConfigError> {
    let n = v.as_u64().ok_or_else(|| ConfigError::field(field, format!("expected a count, found {v}")))?;
    check_range(Limit { field, max: 1 << 20 }, n)
}

pub(crate) fn read(r: &mut Reader, layers: u64) -> Result<Option<Dots3Layers>, ConfigError> {
    if r.spec.model_type != "dots3_note_text" {
        return Ok(None);
    }
    let n = layers as usize;
    let value: &Value = r.value;
    let given = value.get("per_layer_config").filter(|v| !v.is_null());
    let flag = |k: &str| value.get(k).and_then(Value::as_bool);
    let use_dsa = if given.is_some() { flag("use_dsa") } else { Some(flag("use_dsa").unwrap_or(true)) };
    let use_sliding = flag("use_sliding_window").unwrap_or(true);
    let types: Vec<&str> = match value.get("layer_types").filter(|v| !v.is_null()) {
        Some(v) => {
            let bad = || ConfigError::field("layer_types", format!("expected {n} attention kinds"));
            let list = v.as_array().filter(|l| l.len() == n).ok_or_else(bad)?;
            list.iter()
                .map(|t| match t.as_str() {
                    Some(s @ ("indexed_attention" | "full_attention" | "sliding_attention")) => Ok(s),
                    _ => Err(bad()),
                })
                .collect::<Result<_, _>>()?
        }
        None => {
            let full = if use_dsa == Some(false) { "full_attention" } else { "indexed_attention" };
            (0..n)
                .map(|i| if !use_sliding || i < 2 || i % 4 == 1 { full } else { "sliding_attention" })
                .collect()
        }
    };
    let types: Vec<&str> = match use_dsa {
        Some(true) => {
            types.iter().map(|t| if *t == "full_attention" { "indexed_attention" } else { t }).collect()
        }
        Some(false) => {
            types.iter().map(|t| if *t == "indexed_attention" { "full_attention" } else { t }).collect()
        }
        None => types,
    };
    let overrides = per_layer(r, given, &types)?;
    let mut global = |k: &'static str| r.size(k, 1 << 20);
    let base: Vec<(&str, u64)> = ["num_attention_heads", "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim"]
        .into_iter()
        .chain(["qk_rope_head_dim", "v_head_dim", "index_n_heads", "index_head_dim"])
        .map(|k| Ok((k, global(k)?)))
        .collect::<Result<_, ConfigError>>()?;
    let mut latent = vec![];
    for (i, over) in overrides.iter().enumerate() {
        let at = |k: &str| -> Result<u64, ConfigError> {
            match over.get(k) {
                Some(v) => count(v, "per_layer_config"),
                None => Ok(base.iter().find(|(b, _)| *b == k).map_or(0, |(_, v)| *v)),
            }
        };
        if over.get("attention_bias").is_some_and(|b| {
            b.as_bool() != Some(r.value.get("attention_bias").and_then(Value::as_bool).unwrap_or(false))
        }) {
            return Err(ConfigError::field(
                "per_layer_config",
                format!("layer {i} sets its own attention_bias, which this description does not count"),
            ));
        }
        let indexed = types[i] == "indexed_attention";
        let dims = LatentDims {
            q_lora_rank: Some(at("q_lora_rank")?),
            kv_lora_rank: at("kv_lora_rank")?,
            qk_nope_head_dim: at("qk_nope_head_dim")?,
            qk_rope_head_dim: at("qk_rope_head_dim")?,
            v_head_dim: at("v_head_dim")?,
            index_heads: if indexed { at("index_n_heads")? } else { 0 },
            index_head_dim: if indexed { at("index_head_dim")? } else { 0 },
        };
        latent.push((at("num_attention_heads")?, dims));
    }
    let window = match r.value.get("sliding_window").filter(|v| !v.is_null()) {
        Some(v) => count(v, "sliding_window")?,
        None => match r.value.get("sliding_window_size").filter(|v| !v.is_null()) {
            Some(v) => count(v, "sliding_window_size")?,
            None => 512,
        },
    };
    let shared = r.size("n_shared_experts", 1 << 10)?;
    let shared_width = r.size("shared_experts_intermediate_size", 1 << 22)? * shared;
    Ok(Some(Dots3Layers {
        latent,
        indexed: types.iter().map(|t| *t == "indexed_attention").collect(),
        windows: types.iter().map(|t| (*t == "sliding_attention").then_some(window)).collect(),
        sparse: sparse(r, layers)?,
        shared_width,
    }))
}

/// Each layer's overrides: the file's `per_layer_config` (keys are layer indices), else the
/// class's sliding-layer sizes from the `swa_*` keys.
fn per_layer(
    r: &Reader,
    given: Option<&Value>,
    types: &[&str],
) -> Result<Vec<Map<String, Value>>, ConfigError> {
    let mut out = vec![Map::new(); types.len()];
    if let Some(v) = given {
        let bad = || {
            ConfigError::field(
                "per_layer_config",
                format!("expected layer indices mapped to sizes, found {v}"),
            )
        };
        for (k, over) in v.as_object().ok_or_else(bad)? {
            let i: usize = k.parse().map_err(|_| bad())?;
            let slot = out.get_mut(i).ok_or_else(bad)?;
            let over = over.as_object().ok_or_else(bad)?;
            if let Some(key) = over.keys().find(|k| !PER_LAYER.contains(&k.as_str())) {
                return Err(ConfigError::field(
                    "per_layer_config",
                    format!("layer {i} sets {key}, which this description does not count"),
                ));
            }
            *slot = over.clone();
        }
        return Ok(out);
    }
    let swa = |k: &str, d: u64| r.value.get(format!("swa_{k}")).cloned().unwrap_or(Value::from(d));
    let mut sliding: Map<String, Value> = SWA.iter().map(|(k, d)| (k.to_string(), swa(k, *d))).collect();
    let head = swa("head_dim", 256).as_u64().unwrap_or(0);
    let nope = sliding.get("qk_nope_head_dim").and_then(Value::as_u64).unwrap_or(0);
    let rope = match r.value.get("swa_qk_rope_head_dim") {
        Some(v) => v.clone(),
        None => Value::from(
            head.checked_sub(nope)
                .ok_or_else(|| ConfigError::field("swa_head_dim", "smaller than swa_qk_nope_head_dim"))?,
        ),
    };
    sliding.insert("qk_rope_head_dim".into(), rope);
    for (i, t) in types.iter().enumerate() {
        if *t == "sliding_attention" {
            out[i] = sliding.clone();
        }
    }
    Ok(out)
}

/// `mlp_layer_types`, else sparse from `first_k_dense_replace` (default 1) on where
/// `moe_layer_freq` (a number, default 1, or a flag per layer) says.
fn sparse(r: &mut Reader, layers: u64) -> Result<Vec<bool>, ConfigError> {
    if let Some(list) = super::spec_mixers::per_layer(r, "mlp_layer_types", layers, ("sparse", "dense"))? {
        return Ok(list);
    }
    let k = match r.value.get("first_k_dense_replace") {
        Some(v) => v.as_u64().ok_or_else(|| {
            ConfigError::field("first_k_dense_replace", format!("expected a layer count, found {v}"))
        })?,
        None => 1,
    };
    let freq = r.value.get("moe_layer_freq").filter(|v| !v.is_null());
    let bad = |v: &Value| {
        ConfigError::field("moe_layer_freq", format!("expected a number or {layers} flags, found {v}"))
    };
    let at: Vec<bool> = match freq {
        None => vec![true; layers as usize],
        Some(v @ Value::Array(list)) => {
            if list.len() as u64 != layers {
                return Err(bad(v));
            }
            list.iter()
                .map(|x| x.as_bool().or(x.as_u64().map(|f| f != 0)).ok_or_else(|| bad(v)))
                .collect::<Result<_, _>>()?
        }
        Some(v) => {
            let f = count(v, "moe_layer_freq")?;
            (0..layers).map(|i| i % f == 0).collect()
        }
    };
    Ok((0..layers as usize).map(|i| i as u64 >= k && at[i]).collect())
}
