//! The one view of a model that every renderer reads: the HTML page, the Markdown twin and the
//! JSON file are all made from [`ModelPage`], and the JSON *is* its serialisation, so the three
//! cannot disagree. Field names here are the public JSON schema (`schema_version` 1).

use serde::Serialize;

use crate::config::{Defaulted, Dims};
use crate::estimate::cost::{ServingCost, TrainingCost};
use crate::estimate::fit::FitView;
use crate::estimate::lints::Lint;
use crate::estimate::reconcile::{Reconciliation, Status};
use crate::estimate::serving::ServingView;
use crate::estimate::shape_check::ForwardPass;
use crate::graph::Graph;
use crate::source::meta::Downloads;

/// The JSON's version: [`crate::model_json`] writes it.
pub const SCHEMA_VERSION: u32 = crate::model_json::SCHEMA_VERSION;

#[derive(Debug, Clone, Serialize)]
pub struct ModelPage {
    pub schema_version: u32,
    pub id: String,
    /// The page's path from the site root (`models/org/name.html`); null for a plan of a file.
    pub url: Option<String>,
    pub family: String,
    pub family_name: String,
    pub derives_from: Option<String>,
    /// The class planned (`architectures[0]`, or the family's base model).
    pub architecture: Option<String>,
    pub supported: bool,
    /// Why the planner could not plan this model, when it could not.
    pub unsupported_reason: Option<String>,
    pub source: SourceView,
    pub config: Option<Dims>,
    /// Size-like keys of an unsupported config, as written.
    pub config_facts: Vec<(String, String)>,
    /// Values that came from the config class's defaults, not from the file.
    pub defaulted: Vec<Defaulted>,
    pub params: Option<ParamsView>,
    pub forward_pass: Option<ForwardPass>,
    pub memory: Option<MemoryView>,
    /// Training memory (recipes, activations per node, full / LoRA / QLoRA as phases).
    /// Not in the templates' `page` (the model pages read it through the view built in Rust;
    /// `plan.txt.j2` gets it as `training`): turning every node's activations into template
    /// values took a twentieth of a build.
    #[serde(skip_serializing)]
    pub training: Option<crate::estimate::training::TrainingView>,
    pub cards: Vec<CardFit>,
    /// Not in the templates' `page` either (no template reads the nodes; the JSON carries them).
    #[serde(skip_serializing)]
    pub structure: Option<Graph>,
    /// A vision-language model's parts and image tokens (schema 2, optional: absent for
    /// text-only models).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vision: Option<crate::graph::composite::VisionPart>,
    /// Serving memory: weights at bf16/fp8/int8/int4 and the KV cache's structure.
    pub serving: Option<ServingView>,
    /// Per card and mode: largest batch, sweep over lengths, verdict, vLLM's view, multi-card.
    pub fit: Option<FitView>,
    /// A training run's FLOPs, time and dollars; serving's prefill and decode rates.
    pub cost: Option<CostView>,
    pub lints: Vec<Lint>,
    /// What changed upstream, newest first (from `modelatlas sync`; empty when not synced).
    pub changes: Vec<crate::changes::ChangeView>,
    // The site-dependent fields come last: the builder writes a page's JSON before it knows the
    // siblings and appends these two (`Renderer::model_parts`).
    /// A bounded list of other checkpoints of the family, nearest in size first, each with its
    /// index summary (so the page can compare this model with the nearest one). The JSON holds
    /// their IDs only: the summaries are the family file's rows, one click away, and twelve
    /// copies of them were an eighth of every model's bytes.
    #[serde(serialize_with = "summary_ids")]
    pub siblings: Vec<ModelSummary>,
    /// How many models of this family the site holds, this one included.
    pub family_size: usize,
}

/// A list of summaries as their model IDs.
fn summary_ids<S: serde::Serializer>(list: &[ModelSummary], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(list.iter().map(|m| &m.id))
}

#[derive(Debug, Clone, Serialize)]
pub struct SourceView {
    /// The Hub commit of the files planned; null when unknown.
    pub revision: Option<String>,
    pub config_file: String,
    pub config_verification: Option<String>,
    pub config_source: Option<String>,
    /// The full citation behind `config_source`, when the metadata has one.
    pub config_notes: Option<String>,
    pub downloads: Option<Downloads>,
    /// The Hub's `lastModified`, `likes` and gating mode, when `modelatlas sync` read them.
    pub last_modified: Option<String>,
    pub likes: Option<u64>,
    pub gated: Option<String>,
}

/// Where a number comes from: counted from the structure, read from the Hub, or estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    Exact,
    Published,
    Estimated,
}

#[derive(Debug, Clone, Serialize)]
pub struct ParamsView {
    /// Parameters of the class, counted from the graph; tied tensors once.
    pub derived: u64,
    pub derived_basis: Basis,
    /// Parameters one token's forward pass uses: the derived count for a dense model, the
    /// shared parts plus the routed experts' top-k for a mixture of experts.
    pub active: u64,
    /// Scalars in the published checkpoint (the Hub's safetensors total); null when unknown.
    pub checkpoint: Option<u64>,
    /// `published` when the checkpoint figure is known.
    pub checkpoint_basis: Option<Basis>,
    pub checkpoint_exact: Option<bool>,
    pub checkpoint_dtype: Option<String>,
    pub checkpoint_by_dtype: Vec<(String, u64)>,
    pub checkpoint_source: Option<String>,
    pub checkpoint_notes: Option<String>,
    /// derived - checkpoint.
    pub delta: Option<i64>,
    /// (derived - checkpoint) / checkpoint x 100.
    pub delta_pct: Option<f64>,
    pub breakdown: Vec<Part>,
    pub tied: Vec<Tied>,
    pub reconciliation: Reconciliation,
    /// The count under transformers 4.x where it differs from the 5.x count above (untied MLM
    /// decoder biases, BART's untied stacks, T5's forced tie, BERT's relative position tables).
    pub other_release: Option<crate::graph::release::ReleaseNote>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Part {
    pub part: String,
    /// How many times the part repeats (layers).
    pub repeat: u64,
    /// Parameters of one instance.
    pub each: u64,
    pub total: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Tied {
    pub tensor: String,
    pub tied_to: String,
}

/// What every page leads with: each mode's peak at batch 1 and the plan's length, from the training
/// and serving methods (the phases behind each are in `training` and `fit.modes`).
#[derive(Debug, Clone, Serialize)]
pub struct MemoryView {
    pub method: &'static str,
    pub basis: Basis,
    pub seq_len: u64,
    pub seq_len_reason: String,
    pub full: ModeView,
    pub lora: ModeView,
    pub qlora: ModeView,
    pub serve: ModeView,
    /// Every assumption behind these figures, in words. Not in the JSON: the plan's own inputs are
    /// `training.assumptions` and the rest is the same text on every page, stated once on the
    /// method page (`method.html#memory`).
    #[serde(skip_serializing)]
    pub assumptions: Vec<String>,
}

/// One mode's peak at batch 1.
#[derive(Debug, Clone, Serialize)]
pub struct ModeView {
    pub label: String,
    /// Allocated bytes at the peak (`torch.cuda.max_memory_allocated`).
    pub batch1_bytes: f64,
    /// `torch.cuda.max_memory_reserved` at that peak (the allocator's reserve and the cuBLAS
    /// workspaces added); `nvidia-smi` adds the card's CUDA context (`fit.cards[].modes[]`).
    pub batch1_reserved_bytes: f64,
    /// The phase of a step that sets the peak (`forward`, `logits`, `optimizer step`...).
    pub peak_phase: String,
    /// Parameters that receive gradients.
    pub trainable_params: Option<u64>,
}

/// The largest batch per mode on one card; 0 when not even batch 1 fits.
#[derive(Debug, Clone, Serialize)]
pub struct CardFit {
    /// The card's id in the catalogue.
    pub id: String,
    pub card: String,
    pub memory_gb: f64,
    pub full: u64,
    pub lora: u64,
    pub qlora: u64,
    pub serve: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct CostView {
    pub training: TrainingCost,
    /// Null for an encoder (no decoding).
    pub serving: Option<ServingCost>,
}

/// What a model page's sibling part reads, under the page's own field names so one template
/// serves the full page and the build's second pass: made from the model's summary, so a build
/// keeps no more than that per model between its passes.
#[derive(Debug, Clone, Serialize)]
pub struct SiblingsView {
    pub id: String,
    pub url: Option<String>,
    pub family: String,
    pub family_name: String,
    pub architecture: Option<String>,
    pub supported: bool,
    pub config: Option<SiblingDims>,
    pub params: Option<SiblingParams>,
    pub siblings: Vec<ModelSummary>,
    pub family_size: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct SiblingDims {
    pub num_layers: Option<u64>,
    pub hidden_size: Option<u64>,
    pub num_heads: Option<u64>,
    pub num_kv_heads: Option<u64>,
    pub vocab_size: Option<u64>,
    pub context: Option<u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SiblingParams {
    pub derived: Option<u64>,
    pub active: Option<u64>,
}

impl SiblingsView {
    /// `me` is the model's summary, as pass one left it (`url` empty for a plan of a file).
    pub fn new(
        me: &ModelSummary,
        family_name: String,
        siblings: Vec<ModelSummary>,
        family_size: usize,
    ) -> Self {
        SiblingsView {
            id: me.id.clone(),
            url: (!me.url.is_empty()).then(|| me.url.clone()),
            family: me.family.clone(),
            family_name,
            architecture: me.architecture.clone(),
            supported: me.supported,
            config: me.layers.is_some().then_some(SiblingDims {
                num_layers: me.layers,
                hidden_size: me.hidden,
                num_heads: me.heads,
                num_kv_heads: me.kv_heads,
                vocab_size: me.vocab,
                context: me.context,
            }),
            params: me.derived.is_some().then_some(SiblingParams { derived: me.derived, active: me.active }),
            siblings,
            family_size,
        }
    }
}

/// What the index and family pages keep of a model: small, so that a build of many thousands of
/// models holds only these in memory.
// Deserialize: an incremental build reads the summaries of unchanged models back from its cache.
// Default: a build moves a summary between its holders, leaving an empty one behind a moment.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct ModelSummary {
    pub id: String,
    /// The page's path from the site root; the Markdown twin and the JSON are the same path with
    /// `.md` and `.json` for `.html` ([`twin`]), so the rows do not repeat them (schema 7).
    pub url: String,
    pub family: String,
    pub architecture: Option<String>,
    pub supported: bool,
    pub derived: Option<u64>,
    /// Parameters per token (less than `derived` for a mixture of experts).
    pub active: Option<u64>,
    pub checkpoint: Option<u64>,
    pub delta_pct: Option<f64>,
    pub reconciliation: Option<Status>,
    pub layers: Option<u64>,
    pub hidden: Option<u64>,
    pub heads: Option<u64>,
    pub kv_heads: Option<u64>,
    pub vocab: Option<u64>,
    pub context: Option<u64>,
    /// The smallest card on which batch 1 fits, per mode; null when none does. Its memory is the
    /// card's `memory_gb` in `cards.json` (also the name's last figure, "T4 16 GB"); schema 7 left
    /// the copy (`smallest_card_gb`) out.
    pub smallest_card: SmallestCard,
    /// Searchable properties: "moe", "gqa", "mqa", "encoder", "decoder", "encoder-decoder"
    /// (schema 2).
    #[serde(deserialize_with = "known_tags")]
    pub tags: Vec<&'static str>,
}

/// The tags [`ModelPage::summary`] gives; a cached summary's tags are mapped back onto them.
pub const TAGS: [&str; 6] = ["moe", "gqa", "mqa", "encoder", "decoder", "encoder-decoder"];

fn known_tags<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
    let tags: Vec<String> = serde::Deserialize::deserialize(d)?;
    tags.iter()
        .map(|t| {
            TAGS.iter()
                .find(|k| **k == t.as_str())
                .copied()
                .ok_or_else(|| serde::de::Error::custom(format!("unknown tag {t:?}")))
        })
        .collect()
}

#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct SmallestCard {
    pub full: Option<String>,
    pub lora: Option<String>,
    pub qlora: Option<String>,
    pub serve: Option<String>,
}

impl ModelPage {
    pub fn summary(&self) -> ModelSummary {
        let url = self.url.clone().unwrap_or_default();
        let first = |f: fn(&CardFit) -> u64| self.cards.iter().find(|c| f(c) > 0).map(|c| c.card.clone());
        let mut tags = vec![];
        if self.params.as_ref().is_some_and(|p| p.active != p.derived) {
            tags.push("moe");
        }
        if let Some(c) = self.config.as_ref() {
            if c.num_kv_heads == 1 && c.num_heads > 1 {
                tags.push("mqa");
            } else if c.num_kv_heads < c.num_heads {
                tags.push("gqa");
            }
        }
        if let Some(sv) = self.serving.as_ref() {
            match (sv.kv.as_ref(), sv.kv.as_ref().and_then(|k| k.layout.cross.as_ref())) {
                (None, _) => tags.push("encoder"),
                (Some(_), Some(_)) => tags.push("encoder-decoder"),
                (Some(_), None) => tags.push("decoder"),
            }
        }
        ModelSummary {
            id: self.id.clone(),
            url,
            family: self.family.clone(),
            architecture: self.architecture.clone(),
            supported: self.supported,
            derived: self.params.as_ref().map(|p| p.derived),
            active: self.params.as_ref().map(|p| p.active),
            checkpoint: self.params.as_ref().and_then(|p| p.checkpoint),
            delta_pct: self.params.as_ref().and_then(|p| p.delta_pct),
            reconciliation: self.params.as_ref().map(|p| p.reconciliation.status),
            layers: self.config.as_ref().map(|c| c.num_layers),
            hidden: self.config.as_ref().map(|c| c.hidden_size),
            heads: self.config.as_ref().map(|c| c.num_heads),
            kv_heads: self.config.as_ref().map(|c| c.num_kv_heads),
            vocab: self.config.as_ref().map(|c| c.vocab_size),
            context: self.config.as_ref().map(|c| c.context),
            smallest_card: SmallestCard {
                full: first(|c| c.full),
                lora: first(|c| c.lora),
                qlora: first(|c| c.qlora),
                serve: first(|c| c.serve),
            },
            tags,
        }
    }
}

/// A page's twin from its URL: the Markdown (`ext` "md") or the JSON ("json") beside
/// `models/org/name.html` is `models/org/name.md` / `.json` — the rule by which index rows and
/// family rows leave those paths out (schema 7).
pub fn twin(url: &str, ext: &str) -> String {
    format!("{}.{ext}", url.strip_suffix(".html").unwrap_or(url))
}

/// A listed model's page from its ID, as the site writes it: `models/org/name.html`, and
/// `models/_/name.html` for a legacy ID without an organisation ([`crate::model_id::ModelId`]'s
/// `site_stem`) — the rule by which a family row leaves its `url` out (schema 7).
pub fn page_url(id: &str) -> String {
    if id.contains('/') { format!("models/{id}.html") } else { format!("models/_/{id}.html") }
}

/// One row of a family's JSON and page (schema 7): what the family page compares (the class, the
/// dimensions, the derived count and the published one with their difference). The page is
/// [`page_url`] of the ID; the rest of the model's summary (family, smallest cards, tags) is its
/// row in `index.json`, one click away; `supported` is `derived` not being null.
#[derive(Debug, Clone, Serialize)]
pub struct FamilyRow {
    pub id: String,
    pub architecture: Option<String>,
    pub derived: Option<u64>,
    pub active: Option<u64>,
    pub checkpoint: Option<u64>,
    pub delta_pct: Option<f64>,
    pub reconciliation: Option<Status>,
    pub layers: Option<u64>,
    pub hidden: Option<u64>,
    pub heads: Option<u64>,
    pub kv_heads: Option<u64>,
    pub vocab: Option<u64>,
    pub context: Option<u64>,
}

impl From<&ModelSummary> for FamilyRow {
    fn from(m: &ModelSummary) -> Self {
        FamilyRow {
            id: m.id.clone(),
            architecture: m.architecture.clone(),
            derived: m.derived,
            active: m.active,
            checkpoint: m.checkpoint,
            delta_pct: m.delta_pct,
            reconciliation: m.reconciliation,
            layers: m.layers,
            hidden: m.hidden,
            heads: m.heads,
            kv_heads: m.kv_heads,
            vocab: m.vocab,
            context: m.context,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model_id::ModelId;

    #[test]
    fn the_rules_for_what_the_rows_leave_out_give_the_site_paths() {
        for id in ["FacebookAI/xlm-roberta-base", "gpt2", "org/name.with.dots"] {
            let stem = ModelId::parse(id).unwrap().site_stem();
            assert_eq!(page_url(id), format!("{stem}.html"), "{id}");
            assert_eq!(twin(&page_url(id), "md"), format!("{stem}.md"), "{id}");
            assert_eq!(twin(&page_url(id), "json"), format!("{stem}.json"), "{id}");
        }
        // Only the final `.html` goes: an ID that holds ".html" keeps it.
        assert_eq!(twin("models/o/a.html-b.html", "md"), "models/o/a.html-b.md");
    }
}
