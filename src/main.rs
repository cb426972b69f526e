//! The command line: `modelatlas build` and `modelatlas plan`. Library errors are reported here.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

use modelatlas::estimate::training;
use modelatlas::manifest::Manifest;
use modelatlas::model_id::ModelId;
use modelatlas::render::{PlanFormat, Renderer};
use modelatlas::site::{Outcome, build_site};
use modelatlas::source::ModelSource;
use modelatlas::source::hub_cache::HubCacheSource;
use modelatlas::source::local::load_path;

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
        /// Where to write the site; replaced whole when the build finishes.
        #[arg(long, default_value = "site")]
        out: PathBuf,
        /// Exit with status 0 even when some models failed (their pages are left out).
        #[arg(long)]
        allow_failures: bool,
        /// Worker threads (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Plan one model: a model ID from the snapshot, or a config.json (or its folder) on disk.
    Plan {
        /// `org/name`, or a path to a config.json or a folder holding one.
        target: String,
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
        #[arg(long, value_enum, default_value = "text")]
        format: PlanFormat,
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

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Build { manifest, hub, out, allow_failures, jobs } => {
            build(&manifest, &hub, &out, allow_failures, jobs)
        }
        Command::Plan { target, hub, format, training } => plan(&target, &hub, format, &training),
    }
}

fn build(
    manifest: &Path,
    hub: &Path,
    out: &Path,
    allow_failures: bool,
    jobs: Option<usize>,
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
    let report = build_site(&manifest, &source, out, &renderer)?;
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

fn plan(target: &str, hub: &Path, format: PlanFormat, args: &TrainingArgs) -> Result<ExitCode> {
    let opts = args.options()?;
    let path = Path::new(target);
    let files = if path.exists() {
        load_path(path)?
    } else {
        let id =
            ModelId::parse(target).with_context(|| format!("{target} is neither a file nor a model ID"))?;
        HubCacheSource::new(hub).load(&id)?
    };
    let mut page = modelatlas::plan::plan(&files, None)?;
    if let (Some(g), Some(dims)) = (page.structure.as_ref(), page.config.as_ref()) {
        page.training = Some(training::view(g, dims, &page.family, g.seq_len, opts));
    }
    let text = Renderer::new().plan(&page, format)?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}
