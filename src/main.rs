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
use modelatlas::site::{Outcome, build_site_opts};
use modelatlas::source::hub_cache::HubCacheSource;
use modelatlas::source::local::load_path;
use modelatlas::source::{ModelSource, SourceError};

/// A build allocates and frees many small strings and template values per model: under glibc's
/// allocator malloc and free took a fifth of its CPU time (perf, 1,000 models).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" {
    /// mimalloc's `mi_option_set` (in the C library the `mimalloc` crate links; its Rust binding
    /// is behind a feature that pulls in another crate).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in mimalloc's `mi_option_t` (the same in the v2 and v3 headers that
/// libmimalloc-sys 0.1 vendors: the enum keeps its deprecated slots so the numbers never move).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// For a build, which exits when done: freed pages stay with the allocator instead of being
/// handed back to the system after a second and faulted in again for the next model (a
/// 5,000-model build: 26,000 minor faults, 430 without; 4 to 7% of its CPU time). `serve`, which
/// runs on, keeps the default.
fn keep_freed_pages() {
    // SAFETY: a plain setter of an integer option, valid at any time and from any thread.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
    // And small pages only: a build's heap is tens of MB, and each transparent huge page the
    // kernel hands it is 2 MB zeroed, often after compacting memory for it (an eighth of a
    // rebuild with nothing changed; 10 MB more peak memory at 1,000 models). Best effort.
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

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
        /// Build the models found in this folder tree (a Hugging Face cache, or folders each
        /// holding a config.json) instead of the manifest's list; [site] still comes from it.
        #[arg(long)]
        from: Option<PathBuf>,
        /// Render every model again, ignoring what the last build into --out kept (by default a
        /// model whose inputs are unchanged is carried over, not planned again).
        #[arg(long)]
        full: bool,
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
    /// Serve a built site and the planner over HTTP: POST /api/v1/plan, POST /api/v1/what-if,
    /// GET /api/v1/models/{org}/{name}. Stops on SIGTERM once the requests in flight are answered.
    Serve {
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: std::net::SocketAddr,
        /// A built site (`modelatlas build --out DIR`) to serve beside the API.
        #[arg(long)]
        site: Option<PathBuf>,
        /// The snapshot, for what-if's `model=org/name`.
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
        /// Requests handled at once (default: one per core).
        #[arg(long)]
        workers: Option<usize>,
        /// Connections that may wait for a worker; more are answered 503 at once.
        #[arg(long, default_value_t = 64)]
        queue: usize,
    },
    /// A Model Context Protocol server over stdio, with the tools plan_model and what_if.
    Mcp {
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
    },
    /// Fill the snapshot from the Hub (HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE): config files, model
    /// info, safetensors headers and the revision history, for every model of the list.
    Sync {
        #[arg(long, default_value = "models.toml")]
        manifest: PathBuf,
        /// The Hugging Face cache folder to fill (the snapshot `build` reads).
        #[arg(long, default_value = "hub", env = "MODELATLAS_HUB")]
        hub: PathBuf,
        /// Commits of history read for each model that changed (0: none).
        #[arg(long, default_value_t = 20)]
        history: usize,
        /// Models synced at once.
        #[arg(long, default_value_t = 4)]
        jobs: usize,
        /// Sync only shard K of N (`--shard 2/8`): a deterministic 1/N of the list. With
        /// `[discover]`, a sharded sync reads the lock file as it is, so every shard splits the
        /// same list.
        #[arg(long)]
        shard: Option<String>,
        /// Only expand `[discover]` into the lock file, then stop (the first job of a CI matrix).
        #[arg(long)]
        discover_only: bool,
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
    /// amp-adamw-8bit, amp-sgd-momentum, amp-adafactor, fp32-adamw, fp32-adamw-8bit, fp32-adafactor.
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
    /// The transformers release whose saved tensors are counted: 4.46, 4.57 or 5.x (default).
    #[arg(long, default_value = "5.x")]
    transformers: String,
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
        let transformers = training::Transformers::parse(&self.transformers).with_context(|| {
            format!("unknown transformers release {:?}; one of 4.46, 4.57, 5.x", self.transformers)
        })?;
        Ok(training::Options {
            transformers,
            dropout: training::Dropout::default(),
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
        Command::Build { manifest, hub, out, allow_failures, jobs, cards, from, full, run } => {
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
            keep_freed_pages();
            build(&manifest, &hub, &out, allow_failures, jobs, &options, from.as_deref(), full)
        }
        Command::Plan { target, hub, format, cards, run, training } => {
            let options = PlanOptions { training: training.options()?, ..options(cards.as_deref(), &run)? };
            plan(&target, &hub, format, &options)
        }
        Command::Serve { bind, site, hub, workers, queue } => {
            let workers =
                workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
            if let Some(dir) = site.as_deref()
                && !dir.join("index.html").is_file()
            {
                bail!(
                    "{} is not a built site (no index.html): run `modelatlas build --out {}` first",
                    dir.display(),
                    dir.display()
                );
            }
            let server = modelatlas::serve::Server::bind(modelatlas::serve::ServeOptions {
                bind,
                site,
                hub,
                workers,
                queue,
            })?;
            for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
                signal_hook::flag::register(signal, server.stop_flag())
                    .context("installing the signal handler")?;
            }
            eprintln!("serving on http://{} ({workers} workers); SIGTERM or Ctrl-C stops", server.addr);
            server.run()?;
            eprintln!("stopped");
            Ok(ExitCode::SUCCESS)
        }
        Command::Mcp { hub } => {
            modelatlas::mcp::run(std::io::stdin().lock(), std::io::stdout().lock(), &hub)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Sync { manifest, hub, history, jobs, shard, discover_only } => {
            sync(&manifest, &hub, history, jobs, shard.as_deref(), discover_only)
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

// The build command's flags, passed as they are.
#[allow(clippy::too_many_arguments)]
fn build(
    manifest: &Path,
    hub: &Path,
    out: &Path,
    allow_failures: bool,
    jobs: Option<usize>,
    options: &PlanOptions,
    from: Option<&Path>,
    full: bool,
) -> Result<ExitCode> {
    if let Some(n) = jobs {
        rayon::ThreadPoolBuilder::new().num_threads(n).build_global().context("setting up worker threads")?;
    }
    let renderer = Renderer::new();
    let report = if let Some(from) = from {
        let mut manifest = Manifest::load_unlocked(manifest)?;
        let source = scan_tree(from)?;
        manifest.models = source.ids().to_vec();
        build_site_opts(&manifest, &source, out, &renderer, options, full)?
    } else {
        let manifest = Manifest::load(manifest)?;
        if !hub.is_dir() {
            bail!("the snapshot folder {} does not exist (pass --hub)", hub.display());
        }
        build_site_opts(&manifest, &HubCacheSource::new(hub), out, &renderer, options, full)?
    };
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
    {
        // Buffered: unbuffered, each line was three system calls, 30,000 for 10,000 models (a
        // tenth of a rebuild in which nothing changed). A closed stderr loses the listing only.
        use std::io::Write;
        let mut err = std::io::BufWriter::with_capacity(1 << 16, std::io::stderr().lock());
        for m in &report.models {
            let _ = match &m.outcome {
                Outcome::Built { supported: true } => writeln!(err, "  built        {}", m.id),
                Outcome::Built { supported: false } => {
                    writeln!(err, "  unsupported  {} (page shows its config only)", m.id)
                }
                Outcome::Failed { error } => writeln!(err, "  FAILED       {error}"),
            };
        }
        let _ = err.flush();
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
    if report.unchanged {
        eprintln!("  nothing changed since the last build: {} left as it was", out.display());
    } else {
        eprintln!(
            "  {} of {} models rendered, {} files carried over unchanged from the last build",
            report.models_rendered,
            report.models.len() - failed,
            report.files_reused
        );
    }
    if let Some(note) = &report.cache_note {
        eprintln!(
            "  warning: the build cache could not be saved ({note}); the next build will be a full one"
        );
    }
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
        Err(SourceError::NotInSnapshot { path, .. }) => on_demand(&id, hub, &path).with_context(|| {
            format!("{target}: there is no file or folder at this path, so it was read as a model ID")
        }),
        other => Ok(other?),
    }
}

/// A model in neither the snapshot nor the user's cache is fetched from the Hub into the user's
/// Hugging Face cache (config files, info, safetensors headers: no weights), as `huggingface_hub`
/// would; with `HF_HUB_OFFLINE=1`, the error says what is missing and where it was looked for.
fn on_demand(id: &ModelId, hub: &Path, missing: &Path) -> Result<modelatlas::source::ModelFiles> {
    use modelatlas::source::hub_api::{HubClient, HubSettings, user_cache_dir};
    let cache = user_cache_dir();
    if let Some(cache) = &cache
        && let Ok(files) = HubCacheSource::new(cache).load(id)
    {
        return Ok(files);
    }
    let settings = HubSettings::from_env();
    let cache_text =
        cache.as_ref().map_or("(no cache folder: set HF_HOME)".to_string(), |c| c.display().to_string());
    if settings.offline {
        bail!(
            "{id}: not in the snapshot ({} does not exist) nor in the Hugging Face cache {cache_text}; HF_HUB_OFFLINE=1 is set, so it was not fetched: missing config.json (and the model info modelatlas.json holds)",
            missing.display()
        );
    }
    let Some(cache) = cache else {
        bail!(
            "{id}: not in the snapshot {} and no Hugging Face cache folder to fetch it into (set HF_HOME)",
            hub.display()
        );
    };
    eprintln!(
        "{id}: not in the snapshot; fetching its config and info from the Hub into {}",
        cache.display()
    );
    let client = HubClient::new(settings);
    let options = modelatlas::sync::SyncOptions { history: 0, jobs: 1, shard: None };
    modelatlas::sync::sync_model(&client, &cache, id, &options)
        .with_context(|| format!("{id}: not in the snapshot {}, and fetching it failed", hub.display()))?;
    Ok(HubCacheSource::new(&cache).load(id)?)
}

/// The models of a folder tree, each skipped folder reported; an error when it holds none.
fn scan_tree(root: &Path) -> Result<modelatlas::source::tree::TreeSource> {
    if !root.is_dir() {
        bail!("{} is not a folder", root.display());
    }
    let source = modelatlas::source::tree::TreeSource::scan(root);
    for s in &source.skipped {
        eprintln!("  {s}");
    }
    if source.ids().is_empty() {
        bail!(
            "{}: no model found (no config.json in any folder, no models--org--name cache folder)",
            root.display()
        );
    }
    eprintln!("{}: {} model(s) found", root.display(), source.ids().len());
    Ok(source)
}

fn plan(target: &str, hub: &Path, format: PlanFormat, options: &PlanOptions) -> Result<ExitCode> {
    let path = Path::new(target);
    // A folder tree of models (not a model folder itself): plan each one found.
    if path.is_dir() && !path.join("config.json").exists() {
        let source = scan_tree(path)?;
        let renderer = Renderer::new();
        let mut failed = false;
        let mut json = vec![];
        for id in source.ids() {
            let page = match source
                .load(id)
                .map_err(anyhow::Error::from)
                .and_then(|f| modelatlas::plan::plan_with(&f, None, options).map_err(anyhow::Error::from))
            {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("  FAILED       {e}");
                    failed = true;
                    continue;
                }
            };
            match format {
                PlanFormat::Json => json.push(serde_json::to_value(page.json())?),
                _ => println!("{}", renderer.plan(&page, format)?),
            }
        }
        if format == PlanFormat::Json {
            println!("{}", serde_json::to_string_pretty(&json)?);
        }
        return Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS });
    }
    let files = load_target(target, hub)?;
    let page = modelatlas::plan::plan_with(&files, None, options)?;
    let text = Renderer::new().plan(&page, format)?;
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn sync(
    manifest: &Path,
    hub: &Path,
    history: usize,
    jobs: usize,
    shard: Option<&str>,
    discover_only: bool,
) -> Result<ExitCode> {
    use modelatlas::sync::{Outcome, SyncOptions};
    use std::io::IsTerminal;
    let shard = shard.map(modelatlas::sync::parse_shard).transpose().map_err(anyhow::Error::msg)?;
    let settings = modelatlas::source::hub_api::HubSettings::from_env();
    if settings.offline {
        bail!(
            "HF_HUB_OFFLINE=1 is set: sync needs the Hub and makes no request (unset it, or build from the snapshot as it is)"
        );
    }
    let manifest_path = manifest;
    let mut manifest = Manifest::load_unlocked(manifest)?;
    std::fs::create_dir_all(hub).with_context(|| format!("creating {}", hub.display()))?;
    let client = modelatlas::source::hub_api::HubClient::new(settings);
    if let Some(d) = manifest.discover.clone() {
        let found = if shard.is_some() && !discover_only {
            modelatlas::sync::discover::read_lock(manifest_path, &d)?
        } else {
            modelatlas::sync::discover::expand(&client, manifest_path, &d)?
        };
        eprintln!(
            "[discover]: {} models, listed in {}",
            found.len(),
            modelatlas::sync::discover::lock_path(manifest_path).display()
        );
        manifest.add_discovered(found);
    }
    if discover_only {
        return Ok(ExitCode::SUCCESS);
    }
    let bar = if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(manifest.models.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let line = |id: &ModelId, o: &Outcome| match o {
        Outcome::Unchanged => format!("  unchanged    {id}"),
        Outcome::Refreshed => format!("  refreshed    {id} (downloads, likes or gating)"),
        Outcome::Updated { from, to, changes } => format!(
            "  updated      {id} {} -> {} ({changes} change(s) in history)",
            from.as_deref().map_or("(none)", |f| f.get(..7).unwrap_or(f)),
            to.get(..7).unwrap_or(to)
        ),
        Outcome::Failed(e) => format!("  FAILED       {e}"),
    };
    let done = |id: &ModelId, o: &Outcome| match &bar {
        Some(bar) => {
            bar.inc(1);
            if !matches!(o, Outcome::Unchanged) {
                bar.println(line(id, o));
            }
        }
        None => eprintln!("{}", line(id, o)),
    };
    let options = SyncOptions { history, jobs, shard };
    let report = modelatlas::sync::sync_all(&client, hub, &manifest.models, &options, &done);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let count = |f: fn(&Outcome) -> bool| report.models.iter().filter(|(_, o)| f(o)).count();
    let failed: Vec<_> = report.failed().collect();
    eprintln!(
        "{} models: {} updated, {} refreshed, {} unchanged, {} failed; {} requests",
        report.models.len(),
        count(|o| matches!(o, Outcome::Updated { .. })),
        count(|o| matches!(o, Outcome::Refreshed)),
        count(|o| matches!(o, Outcome::Unchanged)),
        failed.len(),
        report.requests
    );
    for (id, e) in &failed {
        eprintln!("  failed ({}): {id}: {e}", e.kind());
    }
    Ok(if failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
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
