//! One model, from its files to its page: config -> graph -> estimates -> [`ModelPage`].

use std::path::PathBuf;

use crate::config::{self, Common, ConfigError};
use crate::estimate::{cards, lints, memory_baseline, reconcile, shape_check, training};
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

pub fn plan(files: &ModelFiles, url: Option<String>) -> Result<ModelPage, PlanError> {
    let fail = |error| PlanError { model: files.label.clone(), file: files.config_path.clone(), error };
    let (common, value) = config::parse(&files.config_text).map_err(fail)?;
    let fam = family::info(&common.model_type);
    let mut page = ModelPage {
        schema_version: SCHEMA_VERSION,
        id: files.label.clone(),
        url,
        family: family::slug(&common.model_type),
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
        training: None,
        cards: vec![],
        structure: None,
        lints: vec![],
        siblings: vec![],
        family_size: 1,
    };
    match fam.and_then(|f| f.resolve) {
        None => {
            page.config_facts = config::facts(&value);
            page.unsupported_reason = Some(format!(
                "model_type {:?} is not a family the planner supports yet; the page shows what its config says",
                common.model_type
            ));
        }
        Some(resolve) => {
            let arch = resolve(&value, &common).map_err(fail)?;
            page.architecture = Some(arch.class().to_string());
            page.defaulted = arch.defaulted().to_vec();
            fill(&mut page, files, &common, arch.as_ref());
        }
    }
    Ok(page)
}

fn source_view(files: &ModelFiles) -> SourceView {
    let meta = files.meta.as_ref();
    SourceView {
        revision: files.commit.clone(),
        config_file: "config.json".into(),
        config_verification: meta.map(|m| m.config.verification.clone()),
        config_source: meta.map(|m| m.config.source.clone()),
        downloads: meta.and_then(|m| m.downloads.clone()),
    }
}

fn fill(page: &mut ModelPage, files: &ModelFiles, common: &Common, arch: &dyn Architecture) {
    let dims = arch.dims();
    let seq = dims.context.min(MAX_PLAN_SEQ);
    let g = arch.graph(seq);
    let candidates = arch.checkpoint_candidates();
    let prefixes = arch.checkpoint_prefixes();
    let prefixes: Vec<&str> = prefixes.iter().map(String::as_str).collect();
    let ckpt = files.meta.as_ref().and_then(|m| m.checkpoint.as_ref());
    let derived = g.param_count();
    let reconciliation = reconcile::reconcile(
        &g,
        derived,
        ckpt.map(|c| c.total_scalars),
        ckpt.and_then(|c| c.tensors.as_deref()),
        files.index_tensor_names.as_deref(),
        &candidates,
        &prefixes,
    );
    let delta = ckpt.map(|c| derived as i64 - c.total_scalars as i64);
    let breakdown = g
        .sections
        .iter()
        .map(|s| {
            let each = s.param_count() / s.repeat.max(1);
            Part { part: s.name.clone(), repeat: s.repeat, each, total: s.param_count() }
        })
        .collect();
    let tied = g
        .tensors()
        .filter_map(|(name, t)| t.tied_to.clone().map(|to| Tied { tensor: name, tied_to: to }))
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
    });
    page.forward_pass = Some(shape_check::check(&dims));
    let mem = memory_baseline::estimate(&g, dims.num_layers, dims.hidden_size);
    page.cards = cards::builtin()
        .iter()
        .map(|card| CardFit {
            card: card.name.clone(),
            memory_gb: card.memory_gb,
            full: mem.full.largest_batch(card.bytes()),
            lora: mem.lora.largest_batch(card.bytes()),
            serve: mem.serve.largest_batch(card.bytes()),
        })
        .collect();
    page.memory = Some(MemoryView {
        method: "baseline-v1",
        basis: Basis::Estimated,
        seq_len: seq,
        seq_len_reason: if dims.context > MAX_PLAN_SEQ {
            format!("{} ({} positions), capped at {MAX_PLAN_SEQ}", arch.context_source(), dims.context)
        } else {
            format!("{} ({} positions)", arch.context_source(), dims.context)
        },
        sized_params: mem.sized_params,
        full: ModeView::new(
            format!("Full fine-tune, batch 1 at {seq} tokens"),
            &mem.full,
            Some(mem.sized_params),
        ),
        lora: ModeView::new(
            format!("LoRA r={}, batch 1 at {seq} tokens", memory_baseline::LORA_RANK),
            &mem.lora,
            Some(mem.lora_trainable_params),
        ),
        serve: ModeView::new(format!("Serve: bf16 weights, 1 sequence of {seq} tokens"), &mem.serve, None),
        assumptions: memory_baseline::ASSUMPTIONS.iter().map(|s| s.to_string()).collect(),
    });
    page.training = Some(training::view(&g, &dims, &page.family, seq, training::Options::default()));
    page.lints = lints::run(&lints::LintInput {
        dims: &dims,
        torch_dtype: common.torch_dtype.as_deref(),
        checkpoint_dtype: ckpt.and_then(|c| c.dtype.as_deref()),
        unscaled_residual_init: arch.unscaled_residual_init(),
    });
    page.config = Some(dims);
    debug_assert!(g.sections.iter().any(|s| s.role == Role::Layers));
    page.structure = Some(g);
    page.supported = true;
}
