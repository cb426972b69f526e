//! One model, from its files to its page: config -> graph -> estimates -> [`ModelPage`].

use std::path::PathBuf;

use crate::config::{self, Common, ConfigError};
use crate::estimate::{cards, cost, lints, reconcile, shape_check, training};
use crate::family;
use crate::graph::{Architecture, Role};
use crate::page::{
    Basis, CardFit, MemoryView, ModeView, ModelPage, ParamsView, Part, SCHEMA_VERSION, SourceView, Tied,
};
use crate::source::ModelFiles;

/// The longest sequence a plan is sized at; longer contexts are capped, as the baseline does.
pub const MAX_PLAN_SEQ: u64 = 2048;

/// A model that cannot be planned: which model, which file, and the config error (which names
/// the field).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{model}: {file}: {error}")]
pub struct PlanError {
    pub model: String,
    pub file: PathBuf,
    pub error: ConfigError,
}

/// What a plan can be told beyond the model's files: the cards to fit on (the built-in catalogue,
/// plus a user's `--cards` file) and the training run to cost.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    pub cards: Vec<cards::Card>,
    pub run: cost::RunInputs,
    /// The training recipe, attention implementation, checkpointing and LoRA settings.
    pub training: training::Options,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            cards: cards::builtin().to_vec(),
            run: cost::RunInputs::default(),
            training: training::Options::default(),
        }
    }
}

pub fn plan(files: &ModelFiles, url: Option<String>) -> Result<ModelPage, PlanError> {
    plan_with(files, url, &PlanOptions::default())
}

pub fn plan_with(
    files: &ModelFiles,
    url: Option<String>,
    options: &PlanOptions,
) -> Result<ModelPage, PlanError> {
    let fail = |error| PlanError { model: files.label.clone(), file: files.config_path.clone(), error };
    let (common, value) = config::parse(&files.config_text).map_err(fail)?;
    let fam = family::info(&common.model_type);
    let changes = files
        .meta
        .as_ref()
        .and_then(|m| m.changes.as_ref())
        .map(|c| c.iter().map(|c| crate::changes::ChangeView::new(c, &files.label, url.as_deref())).collect())
        .unwrap_or_default();
    let mut page = ModelPage {
        schema_version: SCHEMA_VERSION,
        id: files.label.clone(),
        url,
        family: family::key(&common.model_type),
        family_name: fam.map(|f| f.name.to_string()).unwrap_or_else(|| common.model_type.clone()),
        derives_from: fam.and_then(|f| f.derives_from).map(str::to_string),
        architecture: common.architecture.clone(),
        supported: false,
        unsupported_reason: None,
        source: source_view(files),
        config: None,
        config_facts: vec![],
        defaulted: vec![],
        params: None,
        forward_pass: None,
        memory: None,
        cards: vec![],
        structure: None,
        vision: None,
        training: None,
        serving: None,
        fit: None,
        cost: None,
        lints: vec![],
        siblings: vec![],
        family_size: 1,
        changes,
    };
    match fam.and_then(|f| f.resolve) {
        None => {
            page.config_facts = config::facts(&value);
            page.unsupported_reason = Some(match family::not_yet(&common.model_type) {
                Some(why) => format!("model_type {:?} is not planned yet: {why}", common.model_type),
                None => format!(
                    "model_type {:?} is not a family the planner supports yet; the page shows what its config says",
                    common.model_type
                ),
            });
        }
        Some(resolve) => {
            let arch = resolve(&value, &common).map_err(fail)?;
            page.architecture = Some(arch.class().to_string());
            page.defaulted = arch.defaulted().to_vec();
            page.vision = arch.vision();
            fill(&mut page, files, &common, &value, arch.as_ref()).map_err(|e| {
                // A count out of range comes from the metadata file when it names a checkpoint
                // field, else from a tensor the config sizes.
                let file = if e.field.starts_with("checkpoint") {
                    files.config_path.with_file_name(crate::source::meta::META_FILE)
                } else {
                    files.config_path.clone()
                };
                PlanError { model: files.label.clone(), file, error: ConfigError::field(e.field, e.reason) }
            })?;
            if let (Some(g), Some(dims)) = (page.structure.as_ref(), page.config.as_ref()) {
                let mut opts = options.training.clone();
                opts.dropout = dropout(&value);
                let mut tr = training::view(g, dims, &page.family, g.seq_len, opts);
                tr.assumptions.extend(arch.training_notes());
                page.training = Some(tr);
            }
            serve_fit_cost(
                &mut page,
                arch.as_ref(),
                fam.map_or(family::ModelKind::Decoder, |f| f.kind),
                options,
            );
        }
    }
    Ok(page)
}

/// The config's dropout probabilities, by the keys transformers' classes read (BERT-style
/// `hidden_dropout_prob`, GPT-2's `resid_pdrop`, OPT/BART's `dropout`, T5's `dropout_rate`...).
/// Read here, from the raw config, so the family resolvers stay as they are; a value that is not a
/// number in [0, 1) counts as 0 (transformers would reject it before training).
pub fn dropout(raw: &serde_json::Value) -> training::Dropout {
    let read = |keys: &[&str], source: &mut Vec<String>| {
        keys.iter().find_map(|k| {
            let p = raw.get(*k)?.as_f64().filter(|p| p.is_finite() && (0.0..1.0).contains(p))?;
            source.push(format!("{k} = {p}"));
            Some(p)
        })
    };
    let mut source = vec![];
    let hidden = read(
        &["hidden_dropout_prob", "resid_pdrop", "hidden_dropout", "dropout", "dropout_rate"],
        &mut source,
    )
    .unwrap_or(0.0);
    let attention = read(
        &["attention_probs_dropout_prob", "attn_pdrop", "attention_dropout", "dropout_rate"],
        &mut source,
    )
    .unwrap_or(0.0);
    training::Dropout { hidden, attention, source }
}

fn source_view(files: &ModelFiles) -> SourceView {
    let meta = files.meta.as_ref();
    SourceView {
        revision: files.commit.clone(),
        config_file: "config.json".into(),
        config_verification: meta.map(|m| m.config.verification.clone()),
        config_source: meta.map(|m| m.config.source.clone()),
        config_notes: meta.and_then(|m| m.config.notes.clone()),
        downloads: meta.and_then(|m| m.downloads.clone()),
        last_modified: meta.and_then(|m| m.hub.as_ref()).and_then(|h| h.last_modified.clone()),
        likes: meta.and_then(|m| m.hub.as_ref()).and_then(|h| h.likes),
        gated: meta.and_then(|m| m.hub.as_ref()).and_then(|h| h.gated.clone()),
    }
}

fn fill(
    page: &mut ModelPage,
    files: &ModelFiles,
    common: &Common,
    raw: &serde_json::Value,
    arch: &dyn Architecture,
) -> Result<(), reconcile::ReconcileError> {
    let dims = arch.dims();
    let seq = plan_seq(&page.family, &dims);
    let g = arch.graph(seq);
    let ckpt = files.meta.as_ref().and_then(|m| m.checkpoint.as_ref());
    let derived = g.param_count();
    // Without a published count there is nothing to reconcile, so the candidates (tens of
    // thousands of tensors for an FP8 mixture of experts) are not listed; nor when the count
    // matches and no tensor names are known, where `reconcile` reports equal without them.
    let mut candidates = vec![];
    let names_known = files.index_tensor_names.is_some() || ckpt.is_some_and(|c| c.tensors.is_some());
    if ckpt.is_some_and(|c| names_known || c.total_scalars != derived) {
        candidates = arch.checkpoint_candidates();
        let keep = arch.fp8_unconverted();
        candidates.extend(crate::graph::quantized::fp8_block_scales_keeping(&g, raw, &keep));
        if let Some(mtp) = arch.prediction_layers() {
            candidates.extend(crate::graph::quantized::prediction_candidates(&mtp, raw, &keep));
        }
    }
    let prefixes = arch.checkpoint_prefixes();
    let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    let reconciliation = reconcile::reconcile(
        &g,
        derived,
        ckpt.map(|c| c.total_scalars),
        ckpt.and_then(|c| c.tensors.as_deref()),
        files.index_tensor_names.as_deref(),
        &candidates,
        &prefixes,
    )?;
    let delta = match ckpt {
        Some(c) => Some(i64::try_from(i128::from(derived) - i128::from(c.total_scalars)).map_err(|_| {
            reconcile::ReconcileError {
                field: "checkpoint.total_scalars".into(),
                reason: format!(
                    "{} is so far from the derived count ({derived}) that the difference is beyond ±(2^63 − 1)",
                    c.total_scalars
                ),
            }
        })?),
        None => None,
    };
    let breakdown = g
        .sections
        .iter()
        .map(|s| {
            let each = s.param_count() / s.repeat.max(1);
            Part { part: s.name.clone(), repeat: s.repeat, each, total: s.param_count() }
        })
        .collect();
    let tied = g
        .tied_tensors()
        .map(|(name, t)| Tied { tensor: name, tied_to: t.tied_to.clone().unwrap_or_default() })
        .collect();
    page.params = Some(ParamsView {
        derived,
        derived_basis: Basis::Exact,
        active: g.active_param_count(),
        checkpoint: ckpt.map(|c| c.total_scalars),
        checkpoint_basis: ckpt.map(|_| Basis::Published),
        checkpoint_exact: ckpt.map(|c| c.exact),
        checkpoint_dtype: ckpt.and_then(|c| c.dtype.clone()),
        checkpoint_by_dtype: ckpt.map(|c| c.by_dtype.clone().into_iter().collect()).unwrap_or_default(),
        checkpoint_source: ckpt.map(|c| c.source.clone()),
        checkpoint_notes: ckpt.and_then(|c| c.notes.clone()),
        delta,
        delta_pct: ckpt.and_then(|c| {
            (c.total_scalars > 0)
                .then(|| (derived as f64 - c.total_scalars as f64) / c.total_scalars as f64 * 100.0)
        }),
        breakdown,
        tied,
        reconciliation,
        other_release: arch.other_release(),
    });
    page.forward_pass = Some(shape_check::check(&dims, &arch.activations()));
    let lint_cards: Vec<lints::CardBf16> = cards::builtin()
        .iter()
        .map(|c| lints::CardBf16 { name: &c.name, bf16_native: c.bf16_native })
        .collect();
    let tied_shapes: Vec<lints::TiedShape> = g
        .tied_tensors()
        .filter_map(|(name, t)| {
            t.tied_to.as_ref().map(|to| lints::TiedShape {
                tensor: name,
                shape: t.shape.clone(),
                tied_to: to.clone(),
                tied_to_shape: g.shape_of(to).map(<[u64]>::to_vec),
            })
        })
        .collect();
    let vocab_head = g
        .sections
        .iter()
        .filter(|s| s.role == Role::Head)
        .flat_map(|s| s.nodes.iter().flat_map(|n| n.params.iter()))
        .find(|t| dims.vocab_size > 0 && t.shape.len() == 2 && t.shape[0] == dims.vocab_size)
        .map(|t| lints::VocabHead {
            tensor: t.name.clone(),
            shape: t.shape.clone(),
            tied_to: t.tied_to.clone(),
        });
    page.lints = lints::run(&lints::LintInput {
        dims: &dims,
        raw,
        torch_dtype: common.torch_dtype.as_deref(),
        checkpoint_dtype: ckpt.and_then(|c| c.dtype.as_deref()),
        unscaled_residual_init: arch.unscaled_residual_init(),
        cards: &lint_cards,
        tied: &tied_shapes,
        vocab_head,
    });
    page.config = Some(dims);
    debug_assert!(g.sections.iter().any(|s| s.role == Role::Layers));
    page.structure = Some(g);
    page.supported = true;
    Ok(())
}

/// The length a plan is sized at: the longest input the position scheme can index (512 for
/// RoBERTa's 514 positions), capped at [`MAX_PLAN_SEQ`]; a ViT always processes every patch.
pub fn plan_seq(family: &str, dims: &config::Dims) -> u64 {
    let usable = if dims.usable_context > 0 { dims.usable_context.min(dims.context) } else { dims.context };
    if family == "vit" { dims.context } else { usable.min(MAX_PLAN_SEQ) }
}

/// Why the plan is sized at its length.
fn seq_len_reason(arch: &dyn Architecture, family: &str, dims: &config::Dims) -> String {
    let context = dims.context;
    let seq = plan_seq(family, dims);
    if family == "vit" {
        format!(
            "{} ({} tokens: every patch and the class token, always processed whole)",
            arch.context_source(),
            context
        )
    } else if seq < dims.usable_context.min(context) {
        format!("{} ({} positions), capped at {MAX_PLAN_SEQ}", arch.context_source(), context)
    } else if seq < context {
        format!(
            "{} ({} positions, {} usable: the position numbering starts after the padding index)",
            arch.context_source(),
            context,
            seq
        )
    } else {
        format!("{} ({} positions)", arch.context_source(), context)
    }
}

/// Serving memory, fit per card and mode, cost and speed (the `serving`, `fit` and `cost` fields),
/// and the summaries every page leads with (`memory`, `cards`).
fn serve_fit_cost(
    page: &mut ModelPage,
    arch: &dyn Architecture,
    kind: family::ModelKind,
    options: &PlanOptions,
) {
    use crate::estimate::fit::{self, LayerSplit, Mode};

    use crate::estimate::serving;
    let (Some(g), Some(params)) = (page.structure.as_ref(), page.params.as_ref()) else {
        return;
    };
    let dims = arch.dims();
    let seq = g.seq_len;
    let serve = serving::view(kind, arch.kv_layout(), &dims, g, params.derived);
    // The training modes' memory: the per-node method (`training`), exported as phases. Its
    // activations are per token, so one model serves every sequence length of the sweep.
    let Some(tr) = page.training.as_ref() else {
        return;
    };
    let (full, lora, qlora) = (tr.full.memory.clone(), tr.lora.memory.clone(), tr.qlora.memory.clone());
    let (full_label, lora_label, qlora_label) =
        (tr.full.label.clone(), tr.lora.label.clone(), tr.qlora.label.clone());
    let serve_ref = &serve;
    let modes = vec![
        Mode {
            id: "full",
            label: full_label,
            model_at: Box::new(move |_| full.clone()),
            shardable: true,
            training: true,
        },
        Mode {
            id: "lora",
            label: lora_label,
            model_at: Box::new(move |_| lora.clone()),
            shardable: true,
            training: true,
        },
        Mode {
            id: "qlora",
            label: qlora_label,
            model_at: Box::new(move |_| qlora.clone()),
            shardable: true,
            training: true,
        },
        Mode {
            id: "serve",
            label: if serve.kv.is_some() {
                "Serve: bf16 weights and KV cache".into()
            } else {
                "Serve: bf16 weights, one forward pass".into()
            },
            model_at: Box::new(move |_| serve_ref.memory_model("bf16", 2)),
            shardable: false,
            training: false,
        },
    ];
    let layer_params = g.param_count_where(|r| r == Role::Layers);
    let split = LayerSplit {
        layers: dims.num_layers,
        layer_params,
        other_params: params.derived.saturating_sub(layer_params),
    };
    let fit_view = fit::fit(&modes, &options.cards, seq, dims.context, &serve, split);
    drop(modes);
    let flops = cost::FlopInputs {
        // A vision tower runs per image, not per token: its weights are not per-token FLOPs.
        active_params: params.active.saturating_sub(g.param_count_where(|r| r == Role::Vision)),
        layers: dims.num_layers,
        attention_width: dims.num_heads * dims.head_dim,
        causal: kind != family::ModelKind::Encoder,
    };
    let training = cost::training(flops, options.run, seq, &options.cards, &fit_view);
    let serving_cost = cost::serving(flops, seq, &options.cards, &serve);
    page.cost = Some(crate::page::CostView { training, serving: serving_cost });
    let largest = |row: &crate::estimate::fit::CardRow, mode: &str| {
        row.modes.iter().find(|m| m.mode == mode).map_or(0, |m| m.largest_batch)
    };
    page.cards = fit_view
        .cards
        .iter()
        .map(|row| CardFit {
            id: row.card.clone(),
            card: row.name.clone(),
            memory_gb: row.memory_gb,
            full: largest(row, "full"),
            lora: largest(row, "lora"),
            qlora: largest(row, "qlora"),
            serve: largest(row, "serve"),
        })
        .collect();
    let summary = |id: &str, trainable: Option<u64>| {
        let m = fit_view.modes.iter().find(|m| m.id == id);
        ModeView {
            label: m.map(|m| m.label.clone()).unwrap_or_default(),
            batch1_bytes: m.map_or(0.0, |m| m.batch1_peak_bytes),
            batch1_reserved_bytes: m.map_or(0.0, |m| m.batch1_reserved_bytes),
            peak_phase: m.map(|m| m.peak_phase.clone()).unwrap_or_default(),
            trainable_params: trainable,
        }
    };
    let mut assumptions = tr.assumptions.clone();
    assumptions.extend(serve.notes.iter().cloned());
    assumptions.push(crate::estimate::fit::BANDS_RULE.to_string());
    page.memory = Some(MemoryView {
        method: "training-v1 and serving-v1",
        basis: Basis::Estimated,
        seq_len: seq,
        seq_len_reason: seq_len_reason(arch, &page.family, &dims),
        full: summary("full", Some(tr.full.trainable_params)),
        lora: summary("lora", Some(tr.lora.trainable_params)),
        qlora: summary("qlora", Some(tr.qlora.trainable_params)),
        serve: summary("serve", None),
        assumptions,
    });
    page.fit = Some(fit_view);
    page.serving = Some(serve);
}
