//! The Hub's HTTP API, spoken as `huggingface_hub` speaks it: the routes hf-hub 0.5 has no call
//! for (model info with `safetensors`, commits, tree), file resolution with the Hub's headers
//! (`X-Repo-Commit`, `ETag`, `X-Linked-Size`, `X-Linked-Etag`), safetensors headers by Range, and
//! its errors (`X-Error-Code`). One ureq agent (the one hf-hub already builds on) carries them all.
//!
//! Redirects are followed here rather than by the agent, so that the 302 of an LFS file can be
//! read (its `X-Linked-Size` is the file's size) and the token is not sent to another host (the
//! CDN's signed URLs must not receive it).

use std::collections::BTreeMap;
use std::io::Read;
use std::time::Duration;

use serde::Deserialize;
use ureq::http::{Response, Uri};

use super::meta::CheckpointTensor;

pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";
/// The largest safetensors header read. `huggingface_hub` refuses above 25 MB; the largest MoE
/// checkpoints' per-shard headers stay well under it.
pub const MAX_HEADER_BYTES: u64 = 25_000_000;
/// The largest JSON or text file read whole (configs, tokenizer configs, indexes, API answers).
const MAX_TEXT_BYTES: u64 = 64 * 1024 * 1024;
const MAX_REDIRECTS: u32 = 5;

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("HF_HUB_OFFLINE=1 is set: sync makes no request (unset it to reach the Hub)")]
    Offline,
    #[error("{model}: gated repository (401 GatedRepo){hint}")]
    Gated { model: String, hint: &'static str },
    #[error("{model}: repository not found (404 RepoNotFound)")]
    RepoNotFound { model: String },
    #[error("{model}: revision not found (404 RevisionNotFound): {url}")]
    RevisionNotFound { model: String, url: String },
    #[error("{model}: file not found (404 EntryNotFound): {url}")]
    EntryNotFound { model: String, url: String },
    #[error("{model}: {url}: HTTP {status}{code}{after}")]
    Status { model: String, url: String, status: u16, code: String, after: String },
    #[error("{model}: {url}: {reason}")]
    Transport { model: String, url: String, reason: String },
    #[error("{model}: {url}: field `{field}`: {reason}")]
    BadJson { model: String, url: String, field: String, reason: String },
    #[error("{model}: {file}: safetensors header: {reason}")]
    BadHeader { model: String, file: String, reason: String },
}

impl HubError {
    /// A short word for the closing summary.
    pub fn kind(&self) -> &'static str {
        match self {
            HubError::Offline => "offline",
            HubError::Gated { .. } => "gated",
            HubError::RepoNotFound { .. }
            | HubError::RevisionNotFound { .. }
            | HubError::EntryNotFound { .. } => "not found",
            HubError::Status { .. } => "HTTP error",
            HubError::Transport { .. } => "network",
            HubError::BadJson { .. } => "bad answer",
            HubError::BadHeader { .. } => "bad safetensors header",
        }
    }
}

/// Where and how to reach the Hub, read from the environment as `huggingface_hub` reads it.
#[derive(Debug, Clone)]
pub struct HubSettings {
    pub endpoint: String,
    pub token: Option<String>,
    pub offline: bool,
    pub user_agent: String,
    /// Attempts per request on 429, 5xx and network errors (the first included).
    pub attempts: u32,
    /// The first backoff when the server gives no `Retry-After`; doubled per attempt.
    pub backoff: Duration,
    /// The longest wait honoured (a `Retry-After` above it is cut to it).
    pub max_wait: Duration,
    pub timeout: Duration,
}

impl HubSettings {
    /// `HF_ENDPOINT`, `HF_TOKEN` (else the token file `huggingface-cli login` writes, under
    /// `HF_HOME`), `HF_HUB_OFFLINE`.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let endpoint = var("HF_ENDPOINT")
            .unwrap_or_else(|| DEFAULT_ENDPOINT.to_string())
            .trim_end_matches('/')
            .to_string();
        let token = var("HF_TOKEN").or_else(|| {
            let path = var("HF_TOKEN_PATH").map(std::path::PathBuf::from).or_else(|| {
                var("HF_HOME")
                    .map(std::path::PathBuf::from)
                    .or_else(|| std::env::home_dir().map(|h| h.join(".cache").join("huggingface")))
                    .map(|h| h.join("token"))
            })?;
            crate::input_file::read_text(&path, crate::input_file::REF_LIMIT)
                .ok()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
        });
        let offline = var("HF_HUB_OFFLINE")
            .is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"));
        HubSettings {
            endpoint,
            token,
            offline,
            user_agent: format!("modelatlas/{}; hf_hub/0.5", env!("CARGO_PKG_VERSION")),
            attempts: 5,
            backoff: Duration::from_millis(500),
            max_wait: Duration::from_secs(60),
            timeout: Duration::from_secs(30),
        }
    }
}

/// The user's Hugging Face cache, where `huggingface_hub` keeps it: `HF_HUB_CACHE`, else
/// `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub`.
pub fn user_cache_dir() -> Option<std::path::PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
    var("HF_HUB_CACHE").or_else(|| {
        var("HF_HOME")
            .or_else(|| var("XDG_CACHE_HOME").map(|x| x.join("huggingface")))
            .or_else(|| std::env::home_dir().map(|h| h.join(".cache").join("huggingface")))
            .map(|h| h.join("hub"))
    })
}

/// `GET /api/models/{id}`: the fields sync keeps.
#[derive(Debug, Clone, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    pub sha: Option<String>,
    #[serde(rename = "lastModified")]
    pub last_modified: Option<String>,
    pub downloads: Option<u64>,
    pub likes: Option<u64>,
    /// `false`, or the gating mode (`"auto"`, `"manual"`).
    #[serde(default)]
    pub gated: serde_json::Value,
    pub pipeline_tag: Option<String>,
    #[serde(rename = "cardData")]
    pub card_data: Option<serde_json::Value>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub siblings: Vec<Sibling>,
    pub safetensors: Option<SafetensorsInfo>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Sibling {
    pub rfilename: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SafetensorsInfo {
    pub parameters: BTreeMap<String, u64>,
    pub total: u64,
}

impl ModelInfo {
    pub fn gated(&self) -> Option<String> {
        match &self.gated {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Bool(true) => Some("true".into()),
            _ => None,
        }
    }

    /// The card's `license`, else the `license:` tag the Hub derives from it.
    pub fn license(&self) -> Option<String> {
        self.card_data
            .as_ref()
            .and_then(|c| c.get("license"))
            .and_then(|l| l.as_str())
            .map(str::to_string)
            .or_else(|| self.tags.iter().find_map(|t| t.strip_prefix("license:")).map(str::to_string))
    }
}

/// One entry of `GET /api/models/{id}/commits/{rev}`.
#[derive(Debug, Clone, Deserialize)]
pub struct Commit {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub message: String,
    pub date: String,
    #[serde(default)]
    pub authors: Vec<Author>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Author {
    pub user: String,
}

/// One entry of `GET /api/models/{id}/tree/{rev}`.
#[derive(Debug, Clone, Deserialize)]
pub struct TreeEntry {
    #[serde(rename = "type")]
    pub kind: String,
    pub oid: String,
    #[serde(default)]
    pub size: u64,
    pub path: String,
    pub lfs: Option<LfsInfo>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct LfsInfo {
    pub oid: String,
    pub size: u64,
}

impl TreeEntry {
    /// What identifies the content: the LFS sha256 for an LFS file (what `X-Linked-Etag`
    /// carries), else the git blob id (what `ETag` carries).
    pub fn content_id(&self) -> &str {
        self.lfs.as_ref().map_or(&self.oid, |l| &l.oid)
    }
}

/// A file fetched through `resolve`, with the headers that identify it.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub body: Vec<u8>,
    pub commit: Option<String>,
    pub etag: Option<String>,
}

pub struct HubClient {
    settings: HubSettings,
    agent: ureq::Agent,
    requests: std::sync::atomic::AtomicU64,
}

fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn header(resp: &Response<ureq::Body>, name: &str) -> Option<String> {
    resp.headers().get(name).and_then(|v| v.to_str().ok()).map(|v| v.trim().to_string())
}

/// How long a `Retry-After` asks to wait (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date in
/// any of the three forms §5.6.7 has recipients accept. A date is taken relative to the
/// response's own `Date` when it has one, so a skewed local clock does not stretch the wait, else
/// to `now`; a date already past is no wait. `None` when the value is neither (the caller backs
/// off as without the header). The caller caps the result.
pub fn retry_after_wait(value: &str, date: Option<&str>, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // More digits than a u64 holds is still "a very long time": the cap applies.
        return Some(value.parse::<u64>().map(Duration::from_secs).unwrap_or(Duration::MAX));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    let from = date.and_then(|d| httpdate::parse_http_date(d.trim()).ok()).unwrap_or(now);
    Some(at.duration_since(from).unwrap_or(Duration::ZERO))
}

/// The `next` URL of a GitHub-style `Link` header.
fn next_link(link: &str) -> Option<String> {
    link.split(',').find_map(|part| {
        let (url, params) = part.split_once(';')?;
        params
            .split(';')
            .any(|p| matches!(p.trim().replace(' ', "").as_str(), "rel=\"next\"" | "rel=next"))
            .then(|| url.trim().trim_start_matches('<').trim_end_matches('>').to_string())
    })
}

fn origin(uri: &Uri) -> Option<String> {
    Some(format!("{}://{}", uri.scheme_str()?, uri.authority()?))
}

/// An ETag without its weak marker and quotes, as `huggingface_hub` normalises it.
fn normalise_etag(e: &str) -> String {
    e.trim_start_matches("W/").trim_matches('"').to_string()
}

impl HubClient {
    pub fn new(settings: HubSettings) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(settings.timeout))
            .user_agent(settings.user_agent.as_str())
            // The real size of a file, not a compressed one (as `huggingface_hub` asks).
            .accept_encoding("identity")
            .build()
            .into();
        HubClient { settings, agent, requests: std::sync::atomic::AtomicU64::new(0) }
    }

    pub fn settings(&self) -> &HubSettings {
        &self.settings
    }

    /// Requests sent so far (retries and redirect hops included).
    pub fn requests(&self) -> u64 {
        self.requests.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn repo_url(&self, id: &str) -> String {
        format!("{}/api/models/{}", self.settings.endpoint, id)
    }

    /// One GET with retries on 429, 5xx and network errors, following redirects; a 4xx becomes
    /// the typed error its `X-Error-Code` names. Returns the final response and the
    /// `X-Linked-Size` a redirect carried.
    fn get(
        &self,
        model: &str,
        url: &str,
        range: Option<&str>,
    ) -> Result<(Response<ureq::Body>, Option<u64>), HubError> {
        if self.settings.offline {
            return Err(HubError::Offline);
        }
        let mut current = url.to_string();
        let mut linked_size = None;
        let first_origin = current.parse::<Uri>().ok().as_ref().and_then(origin);
        for _ in 0..=MAX_REDIRECTS {
            let resp = self.get_once(model, &current, range, first_origin.as_deref())?;
            let status = resp.status().as_u16();
            if (300..400).contains(&status) {
                if let Some(size) = header(&resp, "X-Linked-Size").and_then(|s| s.parse().ok()) {
                    linked_size = Some(size);
                }
                let location = header(&resp, "Location").ok_or_else(|| HubError::Status {
                    model: model.to_string(),
                    url: current.clone(),
                    status,
                    code: " (a redirect without Location)".into(),
                    after: String::new(),
                })?;
                current = if location.starts_with('/') {
                    let base = current.parse::<Uri>().ok().as_ref().and_then(origin).unwrap_or_default();
                    format!("{base}{location}")
                } else {
                    location
                };
                continue;
            }
            return Ok((resp, linked_size));
        }
        Err(HubError::Transport {
            model: model.to_string(),
            url: url.to_string(),
            reason: format!("more than {MAX_REDIRECTS} redirects"),
        })
    }

    fn get_once(
        &self,
        model: &str,
        url: &str,
        range: Option<&str>,
        token_origin: Option<&str>,
    ) -> Result<Response<ureq::Body>, HubError> {
        let same_host = url.parse::<Uri>().ok().as_ref().and_then(origin).as_deref() == token_origin;
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let mut req = self.agent.get(url);
            if let (Some(token), true) = (&self.settings.token, same_host) {
                req = req.header("Authorization", format!("Bearer {token}"));
            }
            if let Some(r) = range {
                req = req.header("Range", r);
            }
            self.requests.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let last = attempt >= self.settings.attempts.max(1);
            let backoff = self
                .settings
                .backoff
                .saturating_mul(1u32.checked_shl(attempt.saturating_sub(1)).unwrap_or(u32::MAX))
                .min(self.settings.max_wait);
            match req.call() {
                Err(e) => {
                    if last {
                        return Err(HubError::Transport {
                            model: model.to_string(),
                            url: url.to_string(),
                            reason: format!("{e} (after {attempt} attempts)"),
                        });
                    }
                    std::thread::sleep(backoff);
                }
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    if status == 429 || status >= 500 {
                        let retry_after = header(&resp, "Retry-After");
                        if last {
                            return Err(HubError::Status {
                                model: model.to_string(),
                                url: url.to_string(),
                                status,
                                code: header(&resp, "X-Error-Code")
                                    .map(|c| format!(" {c}"))
                                    .unwrap_or_default(),
                                after: format!(" (after {attempt} attempts)"),
                            });
                        }
                        let date = header(&resp, "Date");
                        let wait = retry_after
                            .and_then(|v| retry_after_wait(&v, date.as_deref(), std::time::SystemTime::now()))
                            .unwrap_or(backoff)
                            .min(self.settings.max_wait);
                        std::thread::sleep(wait);
                        continue;
                    }
                    if status >= 400 {
                        return Err(self.client_error(model, url, &resp));
                    }
                    return Ok(resp);
                }
            }
        }
    }

    fn client_error(&self, model: &str, url: &str, resp: &Response<ureq::Body>) -> HubError {
        let model = model.to_string();
        let url = url.to_string();
        let status = resp.status().as_u16();
        match header(resp, "X-Error-Code").as_deref() {
            Some("GatedRepo") => HubError::Gated {
                model,
                hint: if self.settings.token.is_some() {
                    ": this token has not been granted access (accept the terms on the model's page)"
                } else {
                    ": set HF_TOKEN to a token with access"
                },
            },
            Some("RepoNotFound") => HubError::RepoNotFound { model },
            Some("RevisionNotFound") => HubError::RevisionNotFound { model, url },
            Some("EntryNotFound") => HubError::EntryNotFound { model, url },
            code => HubError::Status {
                model,
                url,
                status,
                code: code.map(|c| format!(" {c}")).unwrap_or_default(),
                after: String::new(),
            },
        }
    }

    fn read_body(
        &self,
        model: &str,
        url: &str,
        resp: &mut Response<ureq::Body>,
    ) -> Result<Vec<u8>, HubError> {
        resp.body_mut().with_config().limit(MAX_TEXT_BYTES).read_to_vec().map_err(|e| HubError::Transport {
            model: model.to_string(),
            url: url.to_string(),
            reason: format!("reading the body: {e}"),
        })
    }

    fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        model: &str,
        url: &str,
    ) -> Result<(T, Response<ureq::Body>), HubError> {
        let (mut resp, _) = self.get(model, url, None)?;
        let body = self.read_body(model, url, &mut resp)?;
        let mut de = serde_json::Deserializer::from_slice(&body);
        let value = serde_path_to_error::deserialize(&mut de).map_err(|e| HubError::BadJson {
            model: model.to_string(),
            url: url.to_string(),
            field: e.path().to_string(),
            reason: e.inner().to_string(),
        })?;
        Ok((value, resp))
    }

    /// `GET /api/models/{id}` (the head of `main`).
    pub fn model_info(&self, id: &str) -> Result<ModelInfo, HubError> {
        Ok(self.get_json(id, &self.repo_url(id))?.0)
    }

    /// `GET /api/models/{id}/commits/{rev}`, following `Link` pages, newest first, at most `limit`.
    pub fn commits(&self, id: &str, revision: &str, limit: usize) -> Result<Vec<Commit>, HubError> {
        let mut out = Vec::new();
        let mut url = Some(format!("{}/commits/{}", self.repo_url(id), percent_encode(revision)));
        while let Some(u) = url.take() {
            if out.len() >= limit {
                break;
            }
            let (page, resp): (Vec<Commit>, _) = self.get_json(id, &u)?;
            if page.is_empty() {
                break;
            }
            out.extend(page);
            url = header(&resp, "Link").as_deref().and_then(next_link);
        }
        out.truncate(limit);
        Ok(out)
    }

    /// `GET /api/models/{id}/tree/{rev}` (the top level, every page).
    pub fn tree(&self, id: &str, revision: &str) -> Result<Vec<TreeEntry>, HubError> {
        let mut out = Vec::new();
        let mut url = Some(format!("{}/tree/{}", self.repo_url(id), percent_encode(revision)));
        while let Some(u) = url.take() {
            let (page, resp): (Vec<TreeEntry>, _) = self.get_json(id, &u)?;
            out.extend(page);
            url = header(&resp, "Link").as_deref().and_then(next_link);
        }
        Ok(out)
    }

    /// `GET /api/models?sort=downloads&...`: model IDs, most downloaded first.
    pub fn list_models(&self, filters: &[(&str, String)], limit: usize) -> Result<Vec<String>, HubError> {
        #[derive(Deserialize)]
        struct Listed {
            id: String,
        }
        let mut query = String::from("sort=downloads&direction=-1");
        for (k, v) in filters {
            query.push_str(&format!("&{k}={}", percent_encode(v)));
        }
        query.push_str(&format!("&limit={}", limit.min(1000)));
        let mut out = Vec::new();
        let mut url = Some(format!("{}/api/models?{query}", self.settings.endpoint));
        while let Some(u) = url.take() {
            if out.len() >= limit {
                break;
            }
            let (page, resp): (Vec<Listed>, _) = self.get_json("discovery", &u)?;
            if page.is_empty() {
                break;
            }
            out.extend(page.into_iter().map(|l| l.id));
            url = header(&resp, "Link").as_deref().and_then(next_link);
        }
        out.truncate(limit);
        Ok(out)
    }

    pub fn resolve_url(&self, id: &str, revision: &str, file: &str) -> String {
        let file: Vec<String> = file.split('/').map(percent_encode).collect();
        format!("{}/{}/resolve/{}/{}", self.settings.endpoint, id, percent_encode(revision), file.join("/"))
    }

    /// `GET /{id}/resolve/{rev}/{file}`; `Ok(None)` when the repository has no such file.
    pub fn file(&self, id: &str, revision: &str, file: &str) -> Result<Option<Fetched>, HubError> {
        let url = self.resolve_url(id, revision, file);
        let (mut resp, _) = match self.get(id, &url, None) {
            Ok(r) => r,
            Err(HubError::EntryNotFound { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let commit = header(&resp, "X-Repo-Commit");
        let etag =
            header(&resp, "X-Linked-Etag").or_else(|| header(&resp, "ETag")).map(|e| normalise_etag(&e));
        let body = self.read_body(id, &url, &mut resp)?;
        Ok(Some(Fetched { body, commit, etag }))
    }

    /// Reads `n` bytes at `start` of a file with one Range request; returns them and the file's
    /// total size (from `Content-Range`, else the redirect's `X-Linked-Size`).
    fn range(
        &self,
        id: &str,
        file: &str,
        url: &str,
        start: u64,
        n: u64,
    ) -> Result<(Vec<u8>, Option<u64>), HubError> {
        let bad =
            |reason: String| HubError::BadHeader { model: id.to_string(), file: file.to_string(), reason };
        let end =
            start.checked_add(n).and_then(|e| e.checked_sub(1)).ok_or_else(|| bad("empty range".into()))?;
        let (mut resp, linked) = self.get(id, url, Some(&format!("bytes={start}-{end}")))?;
        let total = header(&resp, "Content-Range")
            .and_then(|c| c.rsplit_once('/').and_then(|(_, t)| t.parse::<u64>().ok()))
            .or(linked);
        let status = resp.status().as_u16();
        // A server that ignores Range answers 200 with the whole file: read only what was asked
        // for and drop the connection, so no byte of the weights is read past it.
        let skip = if status == 200 { start } else { 0 };
        let mut reader = resp.body_mut().as_reader();
        if skip > 0 {
            std::io::copy(&mut (&mut reader).take(skip), &mut std::io::sink())
                .map_err(|e| bad(format!("reading: {e}")))?;
        }
        let mut buf = Vec::new();
        (&mut reader).take(n).read_to_end(&mut buf).map_err(|e| bad(format!("reading: {e}")))?;
        Ok((buf, total))
    }

    /// The tensor table of a safetensors file from its header: 8 bytes, then the header, never a
    /// byte of the weights. The header must fit the file: every tensor's bytes inside the data,
    /// sized by its dtype and shape, and the data exactly covered.
    pub fn safetensors_header(
        &self,
        id: &str,
        revision: &str,
        file: &str,
    ) -> Result<Vec<CheckpointTensor>, HubError> {
        let bad =
            |reason: String| HubError::BadHeader { model: id.to_string(), file: file.to_string(), reason };
        let url = self.resolve_url(id, revision, file);
        let (first, total) = self.range(id, file, &url, 0, 8)?;
        let len_bytes: [u8; 8] = first.as_slice().try_into().map_err(|_| {
            bad(format!("truncated: the file has {} bytes, fewer than the 8 of the length", first.len()))
        })?;
        let n = u64::from_le_bytes(len_bytes);
        if n == 0 || n > MAX_HEADER_BYTES {
            return Err(bad(format!(
                "the length prefix says {n} bytes (0 or above {MAX_HEADER_BYTES}): not a safetensors header"
            )));
        }
        let total = total
            .ok_or_else(|| bad("the server gave no file size (Content-Range or X-Linked-Size)".into()))?;
        let data_start = n.checked_add(8).ok_or_else(|| bad("header length overflows".into()))?;
        if data_start > total {
            return Err(bad(format!("the header claims {n} bytes but the file has only {total}")));
        }
        let (head, _) = self.range(id, file, &url, 8, n)?;
        if (head.len() as u64) < n {
            return Err(bad(format!("truncated: {} of the header's {n} bytes arrived", head.len())));
        }
        parse_header(&head, total - data_start).map_err(bad)
    }
}

/// Bytes per element of a safetensors dtype.
fn dtype_bytes(dtype: &str) -> Option<u64> {
    Some(match dtype {
        "BOOL" | "U8" | "I8" | "F8_E4M3" | "F8_E5M2" | "F8_E8M0" => 1,
        "I16" | "U16" | "F16" | "BF16" => 2,
        "I32" | "U32" | "F32" => 4,
        "I64" | "U64" | "F64" => 8,
        _ => return None,
    })
}

/// Parses a safetensors header and checks it against the data's size; tensors sorted by name.
pub fn parse_header(head: &[u8], data_len: u64) -> Result<Vec<CheckpointTensor>, String> {
    #[derive(Deserialize)]
    struct Entry {
        dtype: String,
        shape: Vec<u64>,
        data_offsets: (u64, u64),
    }
    let map: BTreeMap<String, serde_json::Value> =
        serde_json::from_slice(head).map_err(|e| format!("not JSON: {e}"))?;
    let mut tensors = Vec::with_capacity(map.len());
    let mut covered_to = 0u64;
    let mut spans = Vec::new();
    for (name, value) in map {
        if name == "__metadata__" {
            continue;
        }
        let e: Entry = serde_json::from_value(value).map_err(|err| format!("tensor `{name}`: {err}"))?;
        let (begin, end) = e.data_offsets;
        let width =
            dtype_bytes(&e.dtype).ok_or_else(|| format!("tensor `{name}`: unknown dtype {:?}", e.dtype))?;
        let bytes = e
            .shape
            .iter()
            .try_fold(width, |acc, d| acc.checked_mul(*d))
            .ok_or_else(|| format!("tensor `{name}`: shape {:?} overflows", e.shape))?;
        if end < begin || end - begin != bytes {
            return Err(format!(
                "tensor `{name}`: offsets {begin}..{end} hold {} bytes, but {} {:?} needs {bytes} (a lying header)",
                end.saturating_sub(begin),
                e.dtype,
                e.shape
            ));
        }
        if end > data_len {
            return Err(format!(
                "tensor `{name}`: ends at byte {end} of the data, but the file holds only {data_len} after the header (truncated or lying)"
            ));
        }
        covered_to = covered_to.max(end);
        spans.push((begin, end));
        tensors.push(CheckpointTensor { name, dtype: e.dtype, shape: e.shape });
    }
    spans.sort_unstable();
    if spans.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err("two tensors overlap in the data (a lying header)".into());
    }
    if covered_to != data_len {
        return Err(format!(
            "the tensors cover {covered_to} bytes but the file holds {data_len} after the header (a lying header)"
        ));
    }
    Ok(tensors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_the_three_http_date_forms_of_rfc_9110() {
        use std::time::{Duration as D, SystemTime, UNIX_EPOCH};
        // RFC 9110 §5.6.7's example instant, 1994-11-06 08:49:37 UTC: 784111777 s after the epoch.
        let now = UNIX_EPOCH + D::from_secs(784_111_777 - 7);
        for date in
            ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"]
        {
            assert_eq!(retry_after_wait(date, None, now), Some(D::from_secs(7)), "{date}");
        }
        // Relative to the response's Date, whatever the local clock says.
        let sent = "Sun, 06 Nov 1994 08:49:30 GMT";
        assert_eq!(
            retry_after_wait("Sun, 06 Nov 1994 08:49:37 GMT", Some(sent), SystemTime::now()),
            Some(D::from_secs(7))
        );
        assert_eq!(retry_after_wait("120", None, now), Some(D::from_secs(120)));
        assert_eq!(retry_after_wait("99999999999999999999999", None, now), Some(D::MAX));
        // A date already past: retry at once.
        assert_eq!(retry_after_wait("Sun, 06 Nov 1994 08:49:00 GMT", None, now), Some(D::ZERO));
        for bad in ["", "-1", "1.5", "soon", "Sun, 32 Nov 1994 08:49:37 GMT"] {
            assert_eq!(retry_after_wait(bad, None, now), None, "{bad:?}");
        }
    }

    /// (name, dtype, shape, data offsets)
    type Entry<'a> = (&'a str, &'a str, &'a [u64], (u64, u64));

    fn header_json(entries: &[Entry]) -> Vec<u8> {
        let mut map = serde_json::Map::new();
        for (name, dtype, shape, (b, e)) in entries {
            map.insert(
                name.to_string(),
                serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [b, e]}),
            );
        }
        map.insert("__metadata__".into(), serde_json::json!({"format": "pt"}));
        serde_json::to_vec(&map).unwrap()
    }

    #[test]
    fn a_header_whose_tensors_fill_the_data_exactly_is_read() {
        // 2x3 F32 = 24 bytes, then 4 BF16 = 8 bytes: 32 bytes of data.
        let h = header_json(&[("a", "F32", &[2, 3], (0, 24)), ("b", "BF16", &[4], (24, 32))]);
        let t = parse_header(&h, 32).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].name, "a");
        assert_eq!(t[0].shape, vec![2, 3]);
    }

    #[test]
    fn a_tensor_whose_offsets_disagree_with_its_shape_is_a_lying_header() {
        let h = header_json(&[("a", "F32", &[2, 3], (0, 20))]);
        assert!(parse_header(&h, 20).unwrap_err().contains("lying"));
    }

    #[test]
    fn a_header_that_points_past_the_file_is_refused() {
        let h = header_json(&[("a", "F32", &[2, 3], (0, 24))]);
        assert!(parse_header(&h, 16).unwrap_err().contains("truncated or lying"));
    }

    #[test]
    fn data_left_uncovered_by_the_header_is_refused() {
        let h = header_json(&[("a", "F32", &[2], (0, 8))]);
        assert!(parse_header(&h, 12).unwrap_err().contains("cover"));
    }

    #[test]
    fn the_next_link_is_found_among_others() {
        let l = r#"<https://hub/a?p=1>; rel="prev", <https://hub/a?p=3>; rel="next""#;
        assert_eq!(next_link(l).as_deref(), Some("https://hub/a?p=3"));
        assert_eq!(next_link(r#"<https://hub/a?p=1>; rel="prev""#), None);
    }
}
