//! `modelatlas sync`: fills a Hugging Face cache folder (the snapshot `build` reads) from the Hub.
//!
//! Per model: the info (one request; when its `sha` is the one already held, nothing else is
//! asked and no file is written), the tree (what identifies each file, so an unchanged file is
//! copied from the previous snapshot instead of fetched), config.json and its companions, the
//! safetensors headers by Range, the revision history with what each commit changed, and
//! `modelatlas.json` with all of it. Each model is written into a staging folder and swapped in by
//! renames, the ref last: an interrupted sync leaves a model either old or new.

pub mod discover;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::changes::{self, Change};
use crate::model_id::ModelId;
use crate::source::hub_api::{HubClient, HubError, TreeEntry};
use crate::source::hub_cache::META_FILE;
use crate::source::meta::{
    CheckpointInfo, CheckpointTensor, ConfigProvenance, Downloads, HubMeta, HubRecord,
};

/// The files fetched beside config.json where the repository has them.
pub const COMPANIONS: [&str; 4] = [
    "generation_config.json",
    "tokenizer_config.json",
    "model.safetensors.index.json",
    "chat_template.jinja",
];
const INDEX_FILE: &str = "model.safetensors.index.json";

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Hub(#[from] HubError),
    #[error("{model}: the Hub's info has no `sha` (the repository is empty?)")]
    NoSha { model: String },
    #[error("{model}: the repository has no config.json at {commit}")]
    NoConfig { model: String, commit: String },
    #[error("{model}: {file}: {reason}")]
    BadFile { model: String, file: String, reason: String },
    #[error("{model}: {path}: {source}")]
    Io { model: String, path: PathBuf, source: std::io::Error },
}

impl SyncError {
    pub fn kind(&self) -> &'static str {
        match self {
            SyncError::Hub(e) => e.kind(),
            SyncError::NoSha { .. } | SyncError::NoConfig { .. } => "not found",
            SyncError::BadFile { .. } => "bad file",
            SyncError::Io { .. } => "disk",
        }
    }
}

#[derive(Debug, Clone)]
pub struct SyncOptions {
    /// Commits of history read per changed model (0: none).
    pub history: usize,
    pub jobs: usize,
    /// `(k, n)`: this run syncs shard k of n (1-based).
    pub shard: Option<(u32, u32)>,
}

#[derive(Debug)]
pub enum Outcome {
    /// The head is the one held and its numbers are the same: nothing written.
    Unchanged,
    /// The head is the one held; downloads, likes or gating moved: only modelatlas.json rewritten.
    Refreshed,
    Updated {
        from: Option<String>,
        to: String,
        changes: usize,
    },
    Failed(SyncError),
}

#[derive(Debug)]
pub struct SyncReport {
    pub models: Vec<(ModelId, Outcome)>,
    pub requests: u64,
}

impl SyncReport {
    pub fn failed(&self) -> impl Iterator<Item = (&ModelId, &SyncError)> {
        self.models.iter().filter_map(|(id, o)| match o {
            Outcome::Failed(e) => Some((id, e)),
            _ => None,
        })
    }
}

/// `K/N` with 1 <= K <= N.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let (k, n) = s.split_once('/').ok_or_else(|| format!("--shard {s:?}: expected K/N, like 2/8"))?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| format!("--shard {s:?}: K is not a number"))?,
        n.trim().parse().map_err(|_| format!("--shard {s:?}: N is not a number"))?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(format!("--shard {s:?}: need 1 <= K <= N"));
    }
    Ok((k, n))
}

/// The shard (0-based) a model falls in: FNV-1a of its ID, stable across runs, machines and list
/// order, so the N jobs of a CI matrix split any list without overlap.
pub fn shard_of(id: &ModelId, n: u32) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.to_string().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h % u64::from(n.max(1))) as u32
}

/// Today (UTC, `YYYY-MM-DD`), or the day of `SOURCE_DATE_EPOCH` when set, for reproducible runs.
pub fn today() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
        });
    civil(secs.div_euclid(86_400))
}

/// Days since 1970-01-01 to a date (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn short(sha: &str) -> &str {
    sha.get(..7).unwrap_or(sha)
}

fn sha256_hex(bytes: &[u8]) -> String {
    ring::digest::digest(&ring::digest::SHA256, bytes).as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// Syncs every model of the list (this shard's), `jobs` at a time; calls `done` as each finishes.
pub fn sync_all(
    client: &HubClient,
    hub: &Path,
    ids: &[ModelId],
    options: &SyncOptions,
    done: &(dyn Fn(&ModelId, &Outcome) + Sync),
) -> SyncReport {
    let ids: Vec<&ModelId> = match options.shard {
        Some((k, n)) => ids.iter().filter(|id| shard_of(id, n) == k - 1).collect(),
        None => ids.iter().collect(),
    };
    let run = || {
        ids.par_iter()
            .map(|id| {
                let outcome = match sync_model(client, hub, id, options) {
                    Ok(o) => o,
                    Err(e) => Outcome::Failed(e),
                };
                done(id, &outcome);
                ((*id).clone(), outcome)
            })
            .collect::<Vec<_>>()
    };
    let models = match rayon::ThreadPoolBuilder::new().num_threads(options.jobs.max(1)).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    };
    SyncReport { models, requests: client.requests() }
}

struct Ctx<'a> {
    client: &'a HubClient,
    id: String,
    /// Fetched files by content id (git oid or LFS sha256), and headers by content id.
    files: Mutex<HashMap<String, Option<Vec<u8>>>>,
    headers: Mutex<HashMap<String, Vec<CheckpointTensor>>>,
}

impl Ctx<'_> {
    fn io(&self, path: &Path) -> impl FnOnce(std::io::Error) -> SyncError + '_ {
        let path = path.to_path_buf();
        move |source| SyncError::Io { model: self.id.clone(), path, source }
    }

    /// A file at a commit, fetched once per content id.
    fn file(&self, commit: &str, entry: &TreeEntry) -> Result<Option<Vec<u8>>, SyncError> {
        if let Some(hit) = self.files.lock().ok().and_then(|m| m.get(entry.content_id()).cloned()) {
            return Ok(hit);
        }
        let body = self.client.file(&self.id, commit, &entry.path)?.map(|f| f.body);
        if let Ok(mut m) = self.files.lock() {
            m.insert(entry.content_id().to_string(), body.clone());
        }
        Ok(body)
    }

    fn json(&self, commit: &str, entry: &TreeEntry) -> Result<Option<serde_json::Value>, SyncError> {
        let Some(bytes) = self.file(commit, entry)? else { return Ok(None) };
        serde_json::from_slice(&bytes).map(Some).map_err(|e| SyncError::BadFile {
            model: self.id.clone(),
            file: format!("{} at {}", entry.path, short(commit)),
            reason: format!("not JSON: {e}"),
        })
    }

    fn header(&self, commit: &str, entry: &TreeEntry) -> Result<Vec<CheckpointTensor>, SyncError> {
        if let Some(hit) = self.headers.lock().ok().and_then(|m| m.get(entry.content_id()).cloned()) {
            return Ok(hit);
        }
        let t = self.client.safetensors_header(&self.id, commit, &entry.path)?;
        if let Ok(mut m) = self.headers.lock() {
            m.insert(entry.content_id().to_string(), t.clone());
        }
        Ok(t)
    }

    /// The checkpoint's tensors at a commit: every safetensors file the index names (or the
    /// single `model.safetensors`), merged and sorted by name. `None` without safetensors.
    fn tensors(
        &self,
        commit: &str,
        tree: &BTreeMap<String, TreeEntry>,
    ) -> Result<Option<Vec<CheckpointTensor>>, SyncError> {
        let shards: Vec<String> = if let Some(index) = tree.get(INDEX_FILE) {
            #[derive(serde::Deserialize)]
            struct Index {
                weight_map: BTreeMap<String, String>,
            }
            let v = self.json(commit, index)?.unwrap_or_default();
            let idx: Index = serde_json::from_value(v).map_err(|e| SyncError::BadFile {
                model: self.id.clone(),
                file: INDEX_FILE.into(),
                reason: format!("field `weight_map`: {e}"),
            })?;
            let set: std::collections::BTreeSet<String> = idx.weight_map.into_values().collect();
            set.into_iter().collect()
        } else if tree.contains_key("model.safetensors") {
            vec!["model.safetensors".into()]
        } else {
            return Ok(None);
        };
        let mut all = Vec::new();
        for shard in shards {
            let entry = tree.get(&shard).ok_or_else(|| SyncError::BadFile {
                model: self.id.clone(),
                file: INDEX_FILE.into(),
                reason: format!("names {shard}, which the repository does not hold"),
            })?;
            all.extend(self.header(commit, entry)?);
        }
        all.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Some(all))
    }
}

fn tree_map(entries: Vec<TreeEntry>) -> BTreeMap<String, TreeEntry> {
    entries.into_iter().filter(|e| e.kind == "file").map(|e| (e.path.clone(), e)).collect()
}

fn is_tokenizer_file(p: &str) -> bool {
    matches!(
        p,
        "tokenizer.json"
            | "tokenizer_config.json"
            | "special_tokens_map.json"
            | "added_tokens.json"
            | "vocab.json"
            | "vocab.txt"
            | "merges.txt"
            | "tokenizer.model"
            | "spiece.model"
            | "sentencepiece.bpe.model"
    )
}

fn is_weights_file(p: &str) -> bool {
    p.ends_with(".safetensors") || p == INDEX_FILE || p.ends_with(".bin") && p.starts_with("pytorch_model")
}

fn is_template_file(p: &str) -> bool {
    p == "chat_template.jinja" || p == "chat_template.json"
}

fn read_ref(path: &Path) -> Option<String> {
    crate::input_file::read_text(path, crate::input_file::REF_LIMIT)
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn read_meta(path: &Path) -> Option<HubMeta> {
    serde_json::from_str(&crate::input_file::read_text(path, crate::input_file::META_LIMIT).ok()?).ok()
}

fn meta_text(meta: &HubMeta) -> String {
    let mut s = serde_json::to_string_pretty(meta).unwrap_or_default();
    s.push('\n');
    s
}

/// Writes a file by a temporary name and a rename, so a reader never sees half of it.
fn write_atomic(path: &Path, text: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

pub fn sync_model(
    client: &HubClient,
    hub: &Path,
    id: &ModelId,
    options: &SyncOptions,
) -> Result<Outcome, SyncError> {
    let model = id.to_string();
    let info = client.model_info(&model)?;
    let sha = info.sha.clone().ok_or_else(|| SyncError::NoSha { model: model.clone() })?;
    let repo_dir = hub.join(id.cache_folder());
    let ref_path = repo_dir.join("refs").join("main");
    let old_sha = read_ref(&ref_path);
    let old_dir = old_sha.as_ref().map(|s| repo_dir.join("snapshots").join(s));
    let old_meta = old_dir.as_ref().and_then(|d| read_meta(&d.join(META_FILE)));
    let old_record = old_meta.as_ref().and_then(|m| m.hub.clone());
    let today = today();
    let record = |files: BTreeMap<String, String>| HubRecord {
        sha: sha.clone(),
        last_modified: info.last_modified.clone(),
        likes: info.likes,
        gated: info.gated(),
        license: info.license(),
        pipeline_tag: info.pipeline_tag.clone(),
        read: today.clone(),
        files,
    };
    let downloads = info.downloads.map(|count| Downloads {
        count,
        as_of: today.clone(),
        source: format!("Hub API `downloads` (last 30 days), read {today}"),
    });

    // The head already held: at most modelatlas.json changes, and only when a number moved.
    if let (Some(old_sha), Some(mut meta), Some(old)) =
        (old_sha.as_deref(), old_meta.clone(), old_record.clone())
        && old_sha == sha
        && old.sha == sha
    {
        let same = old.likes == info.likes
            && old.gated == info.gated()
            && old.last_modified == info.last_modified
            && meta.downloads.as_ref().map(|d| d.count) == info.downloads;
        if same {
            return Ok(Outcome::Unchanged);
        }
        meta.hub = Some(HubRecord { files: old.files, ..record(BTreeMap::new()) });
        meta.downloads = downloads;
        let path = repo_dir.join("snapshots").join(&sha).join(META_FILE);
        write_atomic(&path, meta_text(&meta).as_bytes()).map_err(|source| SyncError::Io {
            model: model.clone(),
            path,
            source,
        })?;
        return Ok(Outcome::Refreshed);
    }

    let ctx = Ctx {
        client,
        id: model.clone(),
        files: Mutex::new(HashMap::new()),
        headers: Mutex::new(HashMap::new()),
    };
    let tree = tree_map(client.tree(&model, &sha)?);
    if !tree.contains_key("config.json") {
        return Err(SyncError::NoConfig { model: model.clone(), commit: sha.clone() });
    }

    // Stage the new snapshot beside the old one; a staging folder left by a killed sync goes.
    if let Ok(entries) = std::fs::read_dir(&repo_dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(".sync-") {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let stage = repo_dir.join(format!(".sync-{}-{}", short(&sha), std::process::id()));
    if stage.exists() {
        std::fs::remove_dir_all(&stage).map_err(ctx.io(&stage))?;
    }
    std::fs::create_dir_all(&stage).map_err(ctx.io(&stage))?;
    let result = (|| {
        let mut ids = BTreeMap::new();
        let mut config_text = String::new();
        for name in std::iter::once("config.json").chain(COMPANIONS) {
            let Some(entry) = tree.get(name) else { continue };
            ids.insert(name.to_string(), entry.content_id().to_string());
            // The ETag the previous sync recorded still matches: copy, do not fetch.
            let reuse = old_record
                .as_ref()
                .filter(|r| r.files.get(name).map(String::as_str) == Some(entry.content_id()));
            let bytes = match (reuse, &old_dir) {
                (Some(_), Some(dir)) if dir.join(name).is_file() => {
                    std::fs::read(dir.join(name)).map_err(ctx.io(&dir.join(name)))?
                }
                _ => match ctx.file(&sha, entry)? {
                    Some(b) => b,
                    None => continue,
                },
            };
            if name == "config.json" {
                config_text = String::from_utf8(bytes.clone()).map_err(|_| SyncError::BadFile {
                    model: model.clone(),
                    file: "config.json".into(),
                    reason: "not UTF-8".into(),
                })?;
            }
            let path = stage.join(name);
            std::fs::write(&path, &bytes).map_err(ctx.io(&path))?;
        }
        let weights: Vec<&TreeEntry> = tree.values().filter(|e| is_weights_file(&e.path)).collect();
        for e in &weights {
            ids.insert(e.path.clone(), e.content_id().to_string());
        }
        let weights_same = old_record.as_ref().is_some_and(|r| {
            weights.iter().all(|e| r.files.get(&e.path).map(String::as_str) == Some(e.content_id()))
                && r.files.keys().filter(|k| is_weights_file(k)).count() == weights.len()
        });
        let old_tensors =
            old_meta.as_ref().and_then(|m| m.checkpoint.as_ref()).and_then(|c| c.tensors.clone());
        let tensors = match (weights_same, old_tensors) {
            (true, Some(t)) => Some(t),
            _ => ctx.tensors(&sha, &tree)?,
        };
        let checkpoint = checkpoint_info(&info, tensors, &today);
        let changes = if options.history > 0 { history(&ctx, &sha, &tree, options.history)? } else { vec![] };
        let n_changes = changes.len();
        let meta = HubMeta {
            model_id: model.clone(),
            config: ConfigProvenance {
                verification: "hub".into(),
                sha256: sha256_hex(config_text.as_bytes()),
                source: format!("config.json at {}, read {today}", short(&sha)),
                notes: None,
            },
            checkpoint,
            downloads: downloads.clone(),
            hub: Some(record(ids)),
            changes: (options.history > 0).then_some(changes),
        };
        let path = stage.join(META_FILE);
        std::fs::write(&path, meta_text(&meta)).map_err(ctx.io(&path))?;
        Ok::<usize, SyncError>(n_changes)
    })();
    let n_changes = match result {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(e);
        }
    };

    // Swap in: the snapshot folder by rename, then the ref by rename. Until the ref moves, a
    // reader sees the old model whole.
    let snapshots = repo_dir.join("snapshots");
    std::fs::create_dir_all(&snapshots).map_err(ctx.io(&snapshots))?;
    let target = snapshots.join(&sha);
    if target.exists() {
        let trash = repo_dir.join(format!(".sync-old-{}-{}", short(&sha), std::process::id()));
        std::fs::rename(&target, &trash).map_err(ctx.io(&target))?;
        std::fs::rename(&stage, &target).map_err(ctx.io(&target))?;
        let _ = std::fs::remove_dir_all(&trash);
    } else {
        std::fs::rename(&stage, &target).map_err(ctx.io(&target))?;
    }
    let refs = repo_dir.join("refs");
    std::fs::create_dir_all(&refs).map_err(ctx.io(&refs))?;
    write_atomic(&ref_path, sha.as_bytes()).map_err(ctx.io(&ref_path))?;
    // The previous snapshot goes only when sync made it (it holds our metadata); a user's own
    // cache keeps its other revisions.
    if let (Some(old), Some(dir)) = (old_sha.as_deref(), &old_dir)
        && old != sha
        && old_meta.as_ref().is_some_and(|m| m.hub.is_some())
    {
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(Outcome::Updated { from: old_sha, to: sha, changes: n_changes })
}

fn checkpoint_info(
    info: &crate::source::hub_api::ModelInfo,
    tensors: Option<Vec<CheckpointTensor>>,
    today: &str,
) -> Option<CheckpointInfo> {
    let (total, by_dtype, source) = match (&info.safetensors, &tensors) {
        (Some(st), _) => {
            (st.total, st.parameters.clone(), format!("Hub API `safetensors.total`, read {today}"))
        }
        (None, Some(t)) => {
            let mut by: BTreeMap<String, u64> = BTreeMap::new();
            for x in t {
                let e = by.entry(x.dtype.clone()).or_default();
                *e = e.saturating_add(x.numel());
            }
            (
                by.values().fold(0u64, |a, b| a.saturating_add(*b)),
                by,
                format!("safetensors headers, read {today}"),
            )
        }
        (None, None) => return None,
    };
    let dtype = by_dtype.iter().max_by_key(|(_, n)| **n).map(|(d, _)| d.clone());
    Some(CheckpointInfo { total_scalars: total, exact: true, dtype, by_dtype, source, notes: None, tensors })
}

/// The last `n` commits of `main` and, for each that touched the config, the tokenizer, the chat
/// template or the weights, what changed against its parent. Newest first.
fn history(
    ctx: &Ctx,
    head: &str,
    head_tree: &BTreeMap<String, TreeEntry>,
    n: usize,
) -> Result<Vec<Change>, SyncError> {
    let commits = ctx.client.commits(&ctx.id, "main", n.saturating_add(1))?;
    // Refused here, not at build: the id goes into URLs and file names, the date into feeds and
    // OSV documents, and a snapshot holding either malformed would not build.
    for c in &commits {
        changes::check_commit(&c.id).and_then(|()| changes::check_date(&c.date)).map_err(|reason| {
            SyncError::BadFile {
                model: ctx.id.clone(),
                file: format!("/api/models/{}/commits/main", ctx.id),
                reason,
            }
        })?;
    }
    let mut trees: Vec<BTreeMap<String, TreeEntry>> = Vec::with_capacity(commits.len());
    for c in &commits {
        trees.push(if c.id == head { head_tree.clone() } else { tree_map(ctx.client.tree(&ctx.id, &c.id)?) });
    }
    let mut out = Vec::new();
    for i in 0..commits.len().saturating_sub(1) {
        let (c, new, old) = (&commits[i], &trees[i], &trees[i + 1]);
        let parent = &commits[i + 1].id;
        let differs =
            |p: &str| new.get(p).map(TreeEntry::content_id) != old.get(p).map(TreeEntry::content_id);
        let touched: Vec<&String> = new.keys().chain(old.keys()).filter(|p| differs(p)).collect();
        let config_touched = touched.iter().any(|p| *p == "config.json");
        let weights_changed = touched.iter().any(|p| is_weights_file(p));
        let mut tokenizer_changed =
            touched.iter().any(|p| is_tokenizer_file(p) && *p != "tokenizer_config.json");
        let mut chat_template_changed = touched.iter().any(|p| is_template_file(p));
        if !(config_touched
            || weights_changed
            || tokenizer_changed
            || chat_template_changed
            || differs("tokenizer_config.json"))
        {
            continue;
        }
        if differs("tokenizer_config.json") {
            let a = match old.get("tokenizer_config.json") {
                Some(e) => ctx.json(parent, e)?,
                None => None,
            };
            let b = match new.get("tokenizer_config.json") {
                Some(e) => ctx.json(&c.id, e)?,
                None => None,
            };
            let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
            chat_template_changed |= changes::chat_template(&a) != changes::chat_template(&b);
            tokenizer_changed |= changes::without_chat_template(&a) != changes::without_chat_template(&b);
        }
        let (mut config_changes, mut effect) = (vec![], None);
        if config_touched {
            let a = match old.get("config.json") {
                Some(e) => ctx.file(parent, e)?,
                None => None,
            }
            .unwrap_or_default();
            let b = match new.get("config.json") {
                Some(e) => ctx.file(&c.id, e)?,
                None => None,
            }
            .unwrap_or_default();
            let parse = |bytes: &[u8], at: &str| {
                serde_json::from_slice::<serde_json::Value>(bytes).map_err(|e| SyncError::BadFile {
                    model: ctx.id.clone(),
                    file: format!("config.json at {}", short(at)),
                    reason: format!("not JSON: {e}"),
                })
            };
            let (va, vb) =
                (if a.is_empty() { serde_json::json!({}) } else { parse(&a, parent)? }, parse(&b, &c.id)?);
            config_changes = changes::config_diff(&va, &vb);
            effect = changes::effect(&ctx.id, &String::from_utf8_lossy(&a), &String::from_utf8_lossy(&b));
        }
        let (mut added, mut removed, mut reshaped) = (vec![], vec![], vec![]);
        if weights_changed && let (Some(ta), Some(tb)) = (ctx.tensors(parent, old)?, ctx.tensors(&c.id, new)?)
        {
            (added, removed, reshaped) = changes::tensor_diff(&ta, &tb);
            let scalars = |ts: &[CheckpointTensor]| ts.iter().fold(0u64, |s, t| s.saturating_add(t.numel()));
            let (sa, sb) = (scalars(&ta), scalars(&tb));
            if sa != sb {
                let line = format!(
                    "checkpoint scalars {} -> {}",
                    crate::render::format::commas(sa),
                    crate::render::format::commas(sb)
                );
                effect = Some(match effect {
                    Some(e) => format!("{e}; {line}"),
                    None => line,
                });
            }
        }
        if config_changes.is_empty() && !chat_template_changed && !tokenizer_changed && !weights_changed {
            continue;
        }
        out.push(Change {
            commit: c.id.clone(),
            date: c.date.clone(),
            title: c.title.clone(),
            config_changes,
            chat_template_changed,
            tokenizer_changed,
            weights_changed,
            tensors_added: added,
            tensors_removed: removed,
            tensors_reshaped: reshaped,
            effect,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_the_epoch_become_calendar_dates() {
        // 2000-03-01 is day 11017 (30 years of 365 days + 7 leap days + Jan 31 + Feb 29).
        assert_eq!(civil(0), "1970-01-01");
        assert_eq!(civil(30 * 365 + 7 + 31 + 29), "2000-03-01");
        assert_eq!(civil(-1), "1969-12-31");
    }

    #[test]
    fn shards_are_bounded_and_refuse_nonsense() {
        assert_eq!(parse_shard("2/8"), Ok((2, 8)));
        for bad in ["0/8", "9/8", "1/0", "x/2", "3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
