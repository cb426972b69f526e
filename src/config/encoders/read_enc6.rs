//! Reading what issue 10's enc6 rows (FNet, Splinter, TAPAS) add to the lineage: keys their
//! config classes do not read are dropped before BERT's reader sees them, FNet's mixer has no
//! heads, TAPAS's token-type tables come from a list, and each type defines only some heads.

use serde::Serialize;
use serde_json::Value;

use super::read::{TABLE, VOCAB, WIDTH};
use super::{EncoderDesc, lookup};
use crate::config::bert::{BertConfig, UnknownClass};
use crate::config::{Common, ConfigError, Defaulted};

/// Heads a type builds its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heads {
    /// The lineage's heads, by style.
    Lineage,
    /// Splinter: no pooler; question answering and pre-training both run the question-aware
    /// span selection head (`splinter_qass`).
    Splinter,
    /// TAPAS: a pooler in every class but masked LM; question answering selects cells
    /// (`output_weights`, `column_output_weights`, their scalar biases) and, with
    /// `num_aggregation_labels`, aggregates (`aggregation_classifier`).
    Tapas,
    /// LUKE: entity embeddings beside the word embeddings, entity-aware queries, an untied
    /// masked-LM decoder beside the entity prediction head, a pooled classifier, and the entity,
    /// entity-pair and entity-span classifiers.
    Luke,
}

/// What an enc6 row changes in the lineage's reading and building.
#[derive(Debug, Clone, Copy)]
pub struct Enc6Desc {
    /// FNet: a Fourier transform mixes the tokens in place of attention (no heads, no weights).
    pub mixer: bool,
    /// A linear from the hidden size to itself after the embeddings' norm (FNet's
    /// `embeddings.projection`), by its name under the embeddings.
    pub embed_projection: Option<&'static str>,
    /// TAPAS: one token-type table per entry of `type_vocab_sizes`, these by default.
    pub type_tables: Option<&'static [u64]>,
    /// The head suffixes the modeling file defines, where fewer than the lineage's.
    pub only: Option<&'static [&'static str]>,
    /// Heads of the type's own (Splinter's QASS head, TAPAS's cell selection).
    pub heads: Heads,
    /// Keys of the lineage this type's config class never reads: ignored, never recorded.
    pub unread: &'static [&'static str],
    /// `hidden_act`'s default.
    pub act: &'static str,
}

/// The lineage's own: no change.
pub const LINEAGE: Enc6Desc = Enc6Desc {
    mixer: false,
    embed_projection: None,
    type_tables: None,
    only: None,
    heads: Heads::Lineage,
    unread: &[],
    act: "gelu",
};

/// What the enc6 rows read beyond the lineage's keys.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Enc6 {
    /// Rows of each of TAPAS's token-type tables (`type_vocab_sizes`).
    pub type_tables: Vec<u64>,
    /// TAPAS's `num_aggregation_labels`: 0 builds no aggregation classifier.
    pub aggregation_labels: u64,
    /// LUKE's entity table and queries.
    pub entities: Option<Entities>,
    /// LUKE's entity classifiers: how many entity states they concatenate (1 entity, 2 pair, 3
    /// span); None for the lineage's heads.
    pub entity_head: Option<u64>,
}

/// LukeConfig's entity keys.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Entities {
    pub vocab: u64,
    pub width: u64,
    /// `use_entity_aware_attention`: the w2e, e2w and e2e queries in every layer.
    pub aware: bool,
}

/// LUKE's entity classes, read as sequence classification (their pooler and label count), with
/// the entity states each concatenates.
const ENTITY_CLASSES: [(&str, u64); 3] =
    [("ForEntityClassification", 1), ("ForEntityPairClassification", 2), ("ForEntitySpanClassification", 3)];

/// Resolves a config of an enc6 row: BERT's reader on the file without the keys the class never
/// reads, then what the row changes.
pub fn finish_enc6(value: &Value, common: &Common) -> Result<BertConfig, ConfigError> {
    let desc = lookup(&common.model_type)
        .ok_or_else(|| ConfigError::field("model_type", "not a BERT-family model type"))?;
    let mut trimmed = value.clone();
    if let Some(map) = trimmed.as_object_mut() {
        for key in desc.enc6.unread {
            map.remove(*key);
        }
    }
    let entity_head = entity_head(desc, common);
    let mut c = match entity_head {
        Some(_) => {
            let class = format!("{}ForSequenceClassification", desc.classes.prefix);
            BertConfig::resolve(&trimmed, &Common { architecture: Some(class), ..common.clone() })?
        }
        None => BertConfig::resolve(&trimmed, common)?,
    };
    if let (Some(_), Some(class)) = (entity_head, &common.architecture) {
        c.class = class.clone();
    }
    c.enc6.entity_head = entity_head.map(|(_, k)| k);
    if desc.enc6.heads == Heads::Luke {
        c.enc6.entities = Some(entities(value, &mut c.defaulted)?);
    }
    c.defaulted.retain(|d| !desc.enc6.unread.contains(&d.field));
    if value.get("hidden_act").is_none_or(Value::is_null) {
        c.hidden_act = desc.enc6.act.into();
    }
    if desc.enc6.mixer {
        // No attention: nothing is split into heads.
        (c.num_heads, c.head_dim) = (0, 0);
    }
    check_class(desc, &c)?;
    if let Some(default) = desc.enc6.type_tables {
        c.enc6.type_tables = type_tables(value, default, &mut c.defaulted)?;
    }
    if desc.enc6.heads == Heads::Tapas {
        if value.get("add_cross_attention").and_then(Value::as_bool) == Some(true) {
            return Err(ConfigError::field(
                "add_cross_attention",
                "true: TAPAS's cross-attention layers are not described here",
            ));
        }
        let labels = unsigned(value, "num_aggregation_labels")?.unwrap_or(0);
        if labels > TABLE {
            let why = format!("{labels} is beyond any real model (at most {TABLE})");
            return Err(ConfigError::field("num_aggregation_labels", why));
        }
        c.enc6.aggregation_labels = labels;
    }
    Ok(c)
}

/// The entity class a LUKE file names, with the entity states its classifier concatenates.
fn entity_head(desc: &EncoderDesc, common: &Common) -> Option<(&'static str, u64)> {
    let suffix = common.architecture.as_deref()?.strip_prefix(desc.classes.prefix)?;
    let found = ENTITY_CLASSES.into_iter().find(|(name, _)| *name == suffix);
    found.filter(|_| desc.enc6.heads == Heads::Luke)
}

/// LukeConfig: 500,000 entities of width 256, entity-aware attention on.
fn entities(value: &Value, d: &mut Vec<Defaulted>) -> Result<Entities, ConfigError> {
    let keys = [("entity_vocab_size", 500_000, VOCAB), ("entity_emb_size", 256, WIDTH)];
    let [vocab, width] = super::sizes(value, keys, d)?;
    let aware = super::boolean(value, "use_entity_aware_attention", true, d)?;
    Ok(Entities { vocab, width, aware })
}

/// A class outside the ones the modeling file defines is refused.
fn check_class(desc: &EncoderDesc, c: &BertConfig) -> Result<(), ConfigError> {
    let Some(only) = desc.enc6.only else { return Ok(()) };
    let suffix = c.class.strip_prefix(desc.classes.prefix).unwrap_or_default();
    if only.contains(&suffix) || ENTITY_CLASSES.iter().any(|(name, _)| *name == suffix) {
        return Ok(());
    }
    Err(ConfigError::field("architectures[0]", UnknownClass(c.class.clone()).to_string()))
}

fn unsigned(value: &Value, key: &'static str) -> Result<Option<u64>, ConfigError> {
    match value.get(key).filter(|v| !v.is_null()) {
        None => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            ConfigError::field(key, format!("invalid type: {v}, expected a non-negative integer"))
        }),
    }
}

/// `type_vocab_sizes`: a list of table sizes, TapasConfig's seven by default.
fn type_tables(value: &Value, default: &[u64], d: &mut Vec<Defaulted>) -> Result<Vec<u64>, ConfigError> {
    const KEY: &str = "type_vocab_sizes";
    let Some(v) = value.get(KEY).filter(|v| !v.is_null()) else {
        d.push(Defaulted { field: KEY, value: format!("{default:?}") });
        return Ok(default.to_vec());
    };
    let list =
        v.as_array().ok_or_else(|| ConfigError::field(KEY, format!("invalid type: {v}, expected a list")))?;
    if list.len() > 64 {
        return Err(ConfigError::field(
            KEY,
            format!("{} tables is beyond any real model (at most 64)", list.len()),
        ));
    }
    list.iter()
        .map(|n| match n.as_u64() {
            Some(rows) if rows <= VOCAB => Ok(rows),
            _ => Err(ConfigError::field(KEY, format!("{n} is not a table size (0 to {VOCAB} rows)"))),
        })
        .collect()
}
