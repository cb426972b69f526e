//! The command line: `modelatlas build` and `modelatlas plan`. Library errors are reported here.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use modelatlas::estimate::cost::RunInputs;
use modelatlas::estimate::training;
use modelatlas::manifest::Manifest;
use modelatlas::model_id::ModelId;
use modelatlas::output::Protected;
use modelatlas::plan::PlanOptions;
use modelatlas::render::{PlanFormat, Renderer};
use modelatlas::site::{Outcome, build_site_with};
use modelatlas::source::hub_cache::HubCacheSource;
use modelatlas::source::local::load_path;
use modelatlas::source::{ModelSource, SourceError};

#[derive(Parser)]
#[command(
    name = "modelatlas",
    version,
    about = "Plan Hugging Face models from config.json alone, and build a static site of them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site from models.toml, offline, from the snapshot.
    Build {
        /// The list of models and site settings.
        #[arg(long, default_value = "models.toml")]
        manifest: PathBuf,
        /// A Hugging Face cache folder (the shipped snapshot, or ~/.cache/huggingface/hub).
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
        /// Where to write the site; swapped in whole when the build finishes. Never `/`, the
        /// working folder or one above it, the hub, a symbolic link or a project folder.
        #[arg(long, default_value = "site")]
        out: PathBuf,
        /// Exit with status 0 even when some models failed (their pages are left out).
        #[arg(long)]
        allow_failures: bool,
        /// Worker threads (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// A cards file to add to the built-in catalogue (same format as src/estimate/cards.toml).
        #[arg(long)]
        cards: Option<PathBuf>,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Plan one model: a model ID from the snapshot, or a config.json (or its folder) on disk.
    Plan {
        /// `org/name`, or a path to a config.json or a folder holding one.
        target: String,
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: PlanFormat,
        /// A cards file to add to the built-in catalogue (same format as src/estimate/cards.toml).
        #[arg(long)]
        cards: Option<PathBuf>,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        training: TrainingArgs,
    },
    /// Evaluate one mode's memory formula at a batch, a sequence length and a card, as the model
    /// page's calculator does (JSON on stdout).
    WhatIf {
        /// `org/name`, or a path to a config.json or a folder holding one.
        target: String,
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
        /// full, lora, qlora or serve.
        #[arg(long)]
        mode: String,
        /// A card id from the catalogue (t4-16gb, a100-80gb, ...).
        #[arg(long)]
        card: String,
        #[arg(long, default_value_t = 1)]
        batch: u64,
        /// Tokens per sample (default: the plan's length).
        #[arg(long)]
        seq: Option<u64>,
        #[arg(long)]
        cards: Option<PathBuf>,
        #[command(flatten)]
        training: TrainingArgs,
    },
}

/// The training plan's inputs; every page states the defaults.
#[derive(clap::Args, Debug)]
struct TrainingArgs {
    /// Precision recipe: amp-adamw (default), bf16-adamw-fp32-states, bf16-adamw-bf16-states,
    /// amp-adamw-8bit, amp-sgd-momentum, amp-adafactor.
    #[arg(long, default_value = "amp-adamw")]
    recipe: String,
    /// Attention implementation: sdpa (default) or eager (families without SDPA are always eager).
    #[arg(long, default_value = "sdpa")]
    attention: String,
    /// Gradient checkpointing on.
    #[arg(long)]
    checkpointing: bool,
    #[arg(long, default_value_t = 16)]
    lora_rank: u64,
    /// Comma-separated module names LoRA adapts (q_proj,v_proj); empty: every linear of the layers.
    #[arg(long, default_value = "")]
    lora_targets: String,
}

impl TrainingArgs {
    fn options(&self) -> Result<training::Options> {
        let recipe = training::recipe(&self.recipe).with_context(|| {
            let ids: Vec<&str> = training::RECIPES.iter().map(|r| r.id).collect();
            format!("unknown recipe {:?}; one of {}", self.recipe, ids.join(", "))
        })?;
        let attention = match self.attention.as_str() {
            "sdpa" => training::AttentionImpl::Sdpa,
            "eager" => training::AttentionImpl::Eager,
            other => anyhow::bail!("unknown attention {other:?}; sdpa or eager"),
        };
        Ok(training::Options {
            recipe,
            attention,
            checkpointing: self.checkpointing,
            lora_rank: self.lora_rank,
            lora_targets: self
                .lora_targets
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        })
    }
}

/// The training run the cost section prices.
#[derive(clap::Args)]
struct RunArgs {
    /// Epochs of the training run priced on each page.
    #[arg(long, default_value_t = 10)]
    epochs: u64,
    /// Samples per epoch.
    #[arg(long, default_value_t = 50_000)]
    samples: u64,
    /// Batch size (reached by gradient accumulation where it does not fit at once).
    #[arg(long, default_value_t = 32)]
    batch: u64,
}

fn options(cards: Option<&Path>, run: &RunArgs) -> Result<PlanOptions> {
    if run.epochs == 0 || run.samples == 0 || run.batch == 0 {
        bail!("--epochs, --samples and --batch must be at least 1");
    }
    let cards = match cards {
        Some(file) => modelatlas::estimate::cards::with_user_file(file)?,
        None => modelatlas::estimate::cards::builtin().to_vec(),
    };
    Ok(PlanOptions {
        cards,
        run: RunInputs { epochs: run.epochs, samples: run.samples, batch: run.batch },
        training: training::Options::default(),
    })
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", chain_once(&e));
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build { manifest, hub, out, allow_failures, jobs, cards, run } => {
            // Before any work: a refused --out leaves nothing behind.
            let manifest_dir = match manifest.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            modelatlas::output::check_target(
                &out,
                &[
                    Protected { path: &hub, what: "the snapshot folder (--hub)", inside_too: true },
                    Protected {
                        path: manifest_dir,
                        what: "the manifest's folder (--manifest)",
                        inside_too: false,
                    },
                ],
            )?;
            let options = options(cards.as_deref(), &run)?;
            build(&manifest, &hub, &out, allow_failures, jobs, &options)
        }
        Command::Plan { target, hub, format, cards, run, training } => {
            let options = PlanOptions { training: training.options()?, ..options(cards.as_deref(), &run)? };
            plan(&target, &hub, format, &options)
        }
        Command::WhatIf { target, hub, mode, card, batch, seq, cards, training } => {
            let run = RunArgs { epochs: 10, samples: 50_000, batch: 32 };
            let options = PlanOptions { training: training.options()?, ..options(cards.as_deref(), &run)? };
            let page = modelatlas::plan::plan_with(&load_target(&target, &hub)?, None, &options)?;
            let fit = page.fit.as_ref().context("this model has no memory plan (unsupported family)")?;
            let result =
                modelatlas::estimate::fit::what_if(fit, &mode, &card, batch, seq.unwrap_or(fit.seq_len))
                    .map_err(anyhow::Error::msg)?;
            println!("{}", serde_json::to_string_pretty(&result)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn build(
    manifest: &Path,
    hub: &Path,
    out: &Path,
    allow_failures: bool,
    jobs: Option<usize>,
    options: &PlanOptions,
) -> Result<ExitCode> {
    if let Some(n) = jobs {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().context("setting up worker threads")?;
    }
    let manifest = Manifest::load(manifest)?;
    if !hub.is_dir() {
        bail!("the snapshot folder {} does not exist (pass --hub)", hub.display());
    }
    let source = HubCacheSource::new(hub);
    let renderer = Renderer::new();
    let report = build_site_with(&manifest, &source, out, &renderer, options)?;
    let left = &report.leftovers;
    if let Some(old) = &left.restored {
        eprintln!(
            "  restored     {} from {} (an earlier build was killed mid-swap)",
            out.display(),
            old.display()
        );
    }
    for dir in &left.removed {
        eprintln!("  cleaned up   {} (left by an interrupted build)", dir.display());
    }
    for dir in &left.kept {
        eprintln!(
            "  kept         {} (named like a leftover, but not empty and not made by modelatlas)",
            dir.display()
        );
    }
    for m in &report.models {
        match &m.outcome {
            Outcome::Built { supported: true } => eprintln!("  built        {}", m.id),
            Outcome::Built { supported: false } => {
                eprintln!("  unsupported  {} (page shows its config only)", m.id)
            }
            Outcome::Failed { error } => eprintln!("  FAILED       {error}"),
        }
    }
    let failed = report.failed().count();
    let unsupported = report.unsupported().count();
    let total: f64 = report.phases.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let phases: Vec<String> =
        report.phases.iter().map(|(name, d)| format!("{name} {:.0} ms", d.as_secs_f64() * 1e3)).collect();
    eprintln!(
        "{} models: {} built ({} unsupported), {} failed; {} files in {} ({:.2} s: {})",
        report.models.len(),
        report.models.len() - failed,
        unsupported,
        failed,
        report.files_written,
        out.display(),
        total,
        phases.join(", ")
    );
    if failed > 0 && !allow_failures {
        eprintln!(
            "error: {failed} model(s) failed; their pages were left out (--allow-failures to exit 0 anyway)"
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The error and its causes, each printed once. A library error that already says its cause in
/// its own message (as a `{source}` in the text and as the `source()`) would otherwise print it
/// twice under anyhow's `{:#}`.
fn chain_once(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.contains(text.as_str()) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// A path when anything is at it (even a dangling link, a loop or a FIFO, which the reader then
/// reports as what it is); a model ID only when nothing is there. A bad path is never silently
/// looked up in the snapshot as an ID.
fn load_target(target: &str, hub: &Path) -> Result<modelatlas::source::ModelFiles> {
    let path = Path::new(target);
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        _ => return Ok(load_path(path)?),
    }
    let id = match ModelId::parse(target) {
        Ok(id) => id,
        Err(e) => bail!("{target}: there is no file or folder at this path, and it is not a model ID ({e})"),
    };
    match HubCacheSource::new(hub).load(&id) {
        Err(e @ SourceError::NotInSnapshot { .. }) => Err(anyhow::Error::new(e).context(format!(
            "{target}: there is no file or folder at this path, so it was read as a model ID"
        ))),
        other => Ok(other?),
    }
}

fn plan(target: &str, hub: &Path, format: PlanFormat, options: &PlanOptions) -> Result<ExitCode> {
    let files = load_target(target, hub)?;
    let page = modelatlas::plan::plan_with(&files, None, options)?;
    let text = Renderer::new().plan(&page, format)?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library error in the shape that printed its cause twice: the cause in its message and
    /// as its `source()`.
    #[derive(Debug, thiserror::Error)]
    #[error("template model.html: {source}")]
    struct Wrapped {
        source: std::io::Error,
    }

    #[test]
    fn a_cause_that_its_wrapper_already_prints_is_printed_once() {
        let e =
            anyhow::Error::new(Wrapped { source: std::io::Error::other("undefined value") }).context("org/m");
        assert_eq!(format!("{e:#}"), "org/m: template model.html: undefined value: undefined value");
        assert_eq!(chain_once(&e), "org/m: template model.html: undefined value");
    }

    #[test]
    fn a_cause_not_in_the_message_is_still_printed() {
        let e = anyhow::Error::new(std::io::Error::other("disk full")).context("writing site/index.html");
        assert_eq!(chain_once(&e), "writing site/index.html: disk full");
    }
}
