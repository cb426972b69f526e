#![allow(dead_code)]
//! A test Hub: a real HTTP server on 127.0.0.1 (tiny_http) answering the routes `modelatlas sync`
//! uses with the Hugging Face Hub's JSON shapes and headers, as `huggingface_hub` 2.4 reads them
//! (`hf_api.py`, `file_download.py`, `utils/_http.py`, `utils/_pagination.py`):
//!
//! - `GET /api/models/{id}` and `/api/models/{id}/revision/{rev}`: model info (`sha`,
//!   `lastModified`, `downloads`, `likes`, `gated`, `cardData.license`, `pipeline_tag`,
//!   `siblings`, `safetensors.parameters` and `.total`);
//! - `GET /api/models/{id}/commits/{rev}?p=N`: commits newest first, `Link: <...>; rel="next"`;
//! - `GET /api/models/{id}/tree/{rev}`: `type`, `oid` (git blob id), `size`, `path`, `lfs`;
//! - `GET|HEAD /{id}/resolve/{rev}/{file}`: 200 with `X-Repo-Commit` and `ETag` (the git oid);
//!   for LFS files (`*.safetensors`) a 302 to `/cdn/{sha256}` with `X-Linked-Size` and
//!   `X-Linked-Etag`; Range answered with 206 and `Content-Range`;
//! - `GET /api/models?sort=downloads&author=&pipeline_tag=&limit=`;
//! - errors with `X-Error-Code`: GatedRepo 401, RepoNotFound / RevisionNotFound / EntryNotFound 404.
//!
//! Faults can be injected per path (a status a number of times, with `Retry-After`; a stall).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

#[derive(Clone, Debug)]
pub struct Commit {
    pub sha: String,
    pub title: String,
    pub date: String,
    pub files: BTreeMap<String, Vec<u8>>,
}

#[derive(Clone, Debug)]
pub struct Repo {
    /// Newest first; the first is the head of `main`.
    pub commits: Vec<Commit>,
    pub gated: bool,
    pub downloads: u64,
    pub likes: u64,
    pub pipeline_tag: Option<String>,
    pub license: Option<String>,
    pub author: String,
}

#[derive(Clone, Debug)]
pub enum Fault {
    /// Answer `status` (with `Retry-After` when given) to the next `times` requests whose path
    /// contains `path`.
    Status { path: String, status: u16, retry_after: Option<String>, times: u32 },
    /// Hold requests whose path contains `path` until the server is dropped.
    Stall { path: String },
    /// Serve the LFS object of `path` cut to `keep` bytes (a truncated upload), with its real
    /// size still advertised in the headers it sends.
    Truncate { path: String, keep: usize },
}

#[derive(Default)]
pub struct State {
    pub repos: BTreeMap<String, Repo>,
    /// The tokens the Hub grants gated access to.
    pub granted_tokens: Vec<String>,
    pub faults: Vec<Fault>,
    /// Every request: `METHOD path [range]`.
    pub log: Vec<String>,
    pub commits_page_size: usize,
}

pub struct TestHub {
    pub url: String,
    /// The CDN LFS files redirect to: another origin (another port), as the Hub's CDN is another
    /// host, so that clients neither follow the 302 on HEAD nor send the token there.
    pub cdn_url: String,
    pub state: Arc<Mutex<State>>,
    servers: Vec<Arc<Server>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Drop for TestHub {
    fn drop(&mut self) {
        for s in &self.servers {
            s.unblock();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

pub fn sha1_hex(bytes: &[u8]) -> String {
    hex(ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, bytes).as_ref())
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The git blob id of a file, which the Hub reports as `oid` and `ETag`.
pub fn git_oid(content: &[u8]) -> String {
    let mut data = format!("blob {}\0", content.len()).into_bytes();
    data.extend_from_slice(content);
    sha1_hex(&data)
}

fn is_lfs(path: &str) -> bool {
    path.ends_with(".safetensors") || path.ends_with(".bin")
}

/// A safetensors file: the 8-byte length, the JSON header, then the data (zeros).
pub fn safetensors(tensors: &[(&str, &str, Vec<u64>)]) -> Vec<u8> {
    let width = |d: &str| match d {
        "F32" | "I32" => 4u64,
        "I64" => 8,
        _ => 2,
    };
    let mut map = serde_json::Map::new();
    map.insert("__metadata__".into(), serde_json::json!({"format": "pt"}));
    let mut offset = 0u64;
    for (name, dtype, shape) in tensors {
        let bytes = shape.iter().product::<u64>() * width(dtype);
        map.insert(
            name.to_string(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + bytes]}),
        );
        offset += bytes;
    }
    let header = serde_json::to_vec(&map).unwrap();
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&header);
    out.resize(out.len() + offset as usize, 0);
    out
}

fn hdr(k: &str, v: &str) -> Header {
    Header::from_bytes(k.as_bytes(), v.as_bytes()).unwrap()
}

type Reply = Response<std::io::Cursor<Vec<u8>>>;

fn json_reply(value: &serde_json::Value) -> Reply {
    Response::from_data(serde_json::to_vec(value).unwrap())
        .with_header(hdr("Content-Type", "application/json"))
}

fn error_reply(status: u16, code: &str, message: &str) -> Reply {
    json_reply(&serde_json::json!({ "error": message }))
        .with_status_code(status)
        .with_header(hdr("X-Error-Code", code))
        .with_header(hdr("X-Error-Message", message))
}

fn query_param(query: &str, key: &str) -> Option<String> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| v.replace("%2F", "/").replace("%20", " "))
    })
}

impl TestHub {
    pub fn start(state: State) -> TestHub {
        let bind = || {
            let server = Arc::new(Server::http("127.0.0.1:0").unwrap());
            let url = format!("http://127.0.0.1:{}", server.server_addr().to_ip().unwrap().port());
            (server, url)
        };
        let ((hub, url), (cdn, cdn_url)) = (bind(), bind());
        let state =
            Arc::new(Mutex::new(State { commits_page_size: state.commits_page_size.max(1), ..state }));
        let mut threads = vec![];
        for srv in [hub.clone(), cdn.clone()] {
            let (st, base, cdn_base) = (state.clone(), url.clone(), cdn_url.clone());
            threads.push(std::thread::spawn(move || {
                for request in srv.incoming_requests() {
                    let (st, base, cdn_base) = (st.clone(), base.clone(), cdn_base.clone());
                    std::thread::spawn(move || handle(request, &st, &base, &cdn_base));
                }
            }));
        }
        TestHub { url, cdn_url, state, servers: vec![hub, cdn], threads }
    }

    pub fn log(&self) -> Vec<String> {
        self.state.lock().unwrap().log.clone()
    }

    pub fn clear_log(&self) {
        self.state.lock().unwrap().log.clear();
    }

    pub fn with_repo<R>(&self, id: &str, f: impl FnOnce(&mut Repo) -> R) -> R {
        f(self.state.lock().unwrap().repos.get_mut(id).unwrap())
    }

    pub fn add_fault(&self, fault: Fault) {
        self.state.lock().unwrap().faults.push(fault);
    }
}

impl Repo {
    pub fn new(author: &str, files: BTreeMap<String, Vec<u8>>) -> Repo {
        Repo {
            commits: vec![Commit {
                sha: commit_sha(&files, "initial"),
                title: "Upload model".into(),
                date: "2026-01-05T10:00:00.000Z".into(),
                files,
            }],
            gated: false,
            downloads: 1000,
            likes: 10,
            pipeline_tag: Some("text-generation".into()),
            license: Some("apache-2.0".into()),
            author: author.into(),
        }
    }

    /// A new head commit: the previous files with `changes` applied (`None` deletes a file).
    pub fn push(&mut self, title: &str, date: &str, changes: Vec<(&str, Option<Vec<u8>>)>) -> String {
        let mut files = self.commits[0].files.clone();
        for (path, content) in changes {
            match content {
                Some(c) => files.insert(path.to_string(), c),
                None => files.remove(path),
            };
        }
        let sha = commit_sha(&files, &format!("{title}{}", self.commits[0].sha));
        self.commits.insert(0, Commit { sha: sha.clone(), title: title.into(), date: date.into(), files });
        sha
    }

    pub fn head(&self) -> &Commit {
        &self.commits[0]
    }

    fn at(&self, rev: &str) -> Option<&Commit> {
        if rev == "main" { self.commits.first() } else { self.commits.iter().find(|c| c.sha == rev) }
    }

    /// `safetensors.parameters` and `.total`, counted from the head's headers.
    fn safetensors_info(&self) -> Option<serde_json::Value> {
        let mut by_dtype: BTreeMap<String, u64> = BTreeMap::new();
        let mut any = false;
        for (path, bytes) in &self.head().files {
            if !path.ends_with(".safetensors") || bytes.len() < 8 {
                continue;
            }
            let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
            let Some(head) = bytes.get(8..8 + n) else { continue };
            let Ok(map) = serde_json::from_slice::<BTreeMap<String, serde_json::Value>>(head) else {
                continue;
            };
            for (name, t) in map {
                if name == "__metadata__" {
                    continue;
                }
                let numel: u64 = t["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).product();
                *by_dtype.entry(t["dtype"].as_str().unwrap().to_string()).or_default() += numel;
                any = true;
            }
        }
        any.then(|| serde_json::json!({"parameters": by_dtype, "total": by_dtype.values().sum::<u64>()}))
    }
}

fn commit_sha(files: &BTreeMap<String, Vec<u8>>, salt: &str) -> String {
    let mut data = salt.as_bytes().to_vec();
    for (k, v) in files {
        data.extend_from_slice(k.as_bytes());
        data.extend_from_slice(&sha1_hex(v).into_bytes());
    }
    sha1_hex(&data)
}

fn bearer(request: &Request) -> Option<String> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Authorization"))
        .and_then(|h| h.value.as_str().strip_prefix("Bearer ").map(str::to_string))
}

fn range_of(request: &Request) -> Option<(u64, Option<u64>)> {
    let v = request.headers().iter().find(|h| h.field.equiv("Range"))?.value.as_str().to_string();
    let (a, b) = v.strip_prefix("bytes=")?.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()))
}

/// Serves `bytes` whole (200) or the requested range (206 with `Content-Range`); `advertised`
/// is the size the headers claim (the real one, unless a fault truncated the body).
fn serve_bytes(bytes: &[u8], advertised: u64, range: Option<(u64, Option<u64>)>) -> Reply {
    match range {
        None => Response::from_data(bytes.to_vec()),
        Some((start, end)) => {
            let last = end.unwrap_or(advertised.saturating_sub(1)).min(advertised.saturating_sub(1));
            if start >= advertised {
                return Response::from_data(Vec::new())
                    .with_status_code(416)
                    .with_header(hdr("Content-Range", &format!("bytes */{advertised}")));
            }
            let s = (start as usize).min(bytes.len());
            let e = ((last + 1) as usize).min(bytes.len());
            Response::from_data(bytes[s..e].to_vec())
                .with_status_code(206)
                .with_header(hdr("Content-Range", &format!("bytes {start}-{last}/{advertised}")))
        }
    }
}

fn handle(mut request: Request, state: &Arc<Mutex<State>>, base: &str, cdn: &str) {
    let mut ignored = Vec::new();
    let _ = request.as_reader().read_to_end(&mut ignored);
    let method = request.method().clone();
    let raw = request.url().to_string();
    let (path, query) = raw.split_once('?').unwrap_or((&raw, ""));
    let (path, query) = (path.to_string(), query.to_string());
    let range = range_of(&request);
    let token = bearer(&request);
    let stall = {
        let mut st = state.lock().unwrap();
        let mut line = match range {
            Some((a, b)) => {
                format!("{method} {raw} bytes={a}-{}", b.map(|b| b.to_string()).unwrap_or_default())
            }
            None => format!("{method} {raw}"),
        };
        if token.is_some() {
            line.push_str(" [token]");
        }
        st.log.push(line);
        let mut reply = None;
        let mut stall = false;
        for f in st.faults.iter_mut() {
            match f {
                Fault::Status { path: p, status, retry_after, times }
                    if *times > 0 && path.contains(p.as_str()) =>
                {
                    *times -= 1;
                    let mut r = error_reply(*status, "", "injected fault");
                    if let Some(s) = retry_after {
                        r = r.with_header(hdr("Retry-After", s));
                    }
                    reply = Some(r);
                    break;
                }
                Fault::Stall { path: p } if path.contains(p.as_str()) => stall = true,
                _ => {}
            }
        }
        if let Some(r) = reply {
            drop(st);
            let _ = request.respond(r);
            return;
        }
        stall
    };
    if stall {
        std::thread::sleep(Duration::from_secs(120));
        return;
    }
    let reply = route(&method, &path, &query, range, token.as_deref(), state, base, cdn);
    let _ = request.respond(reply);
}

fn info_json(id: &str, repo: &Repo, commit: &Commit) -> serde_json::Value {
    let siblings: Vec<serde_json::Value> =
        commit.files.keys().map(|f| serde_json::json!({ "rfilename": f })).collect();
    let tags: Vec<String> = ["transformers", "safetensors"]
        .iter()
        .map(|s| s.to_string())
        .chain(repo.license.iter().map(|l| format!("license:{l}")))
        .collect();
    let mut v = serde_json::json!({
        "_id": format!("{:0>24}", &commit.sha[..8]),
        "id": id,
        "modelId": id,
        "author": repo.author,
        "sha": commit.sha,
        "lastModified": commit.date,
        "createdAt": repo.commits.last().map(|c| c.date.clone()),
        "private": false,
        "disabled": false,
        "gated": if repo.gated { serde_json::json!("auto") } else { serde_json::json!(false) },
        "downloads": repo.downloads,
        "likes": repo.likes,
        "library_name": "transformers",
        "tags": tags,
        "pipeline_tag": repo.pipeline_tag,
        "cardData": { "license": repo.license },
        "siblings": siblings,
        "spaces": [],
    });
    if let Some(st) = repo.safetensors_info() {
        v["safetensors"] = st;
    }
    v
}

#[allow(clippy::too_many_arguments)]
fn route(
    method: &Method,
    path: &str,
    query: &str,
    range: Option<(u64, Option<u64>)>,
    token: Option<&str>,
    state: &Arc<Mutex<State>>,
    base: &str,
    cdn: &str,
) -> Reply {
    let st = state.lock().unwrap();
    if path == "/api/models" {
        let author = query_param(query, "author");
        let tag = query_param(query, "pipeline_tag");
        let limit: usize = query_param(query, "limit").and_then(|l| l.parse().ok()).unwrap_or(1000);
        let offset: usize = query_param(query, "cursor").and_then(|l| l.parse().ok()).unwrap_or(0);
        let mut all: Vec<(&String, &Repo)> = st
            .repos
            .iter()
            .filter(|(_, r)| author.as_ref().is_none_or(|a| &r.author == a))
            .filter(|(_, r)| tag.is_none() || r.pipeline_tag == tag)
            .collect();
        all.sort_by(|a, b| b.1.downloads.cmp(&a.1.downloads).then(a.0.cmp(b.0)));
        let page_size = st.commits_page_size.max(1);
        let page: Vec<serde_json::Value> = all
            .iter()
            .skip(offset)
            .take(page_size.min(limit))
            .map(|(id, r)| {
                serde_json::json!({"_id": "0", "id": id, "modelId": id, "likes": r.likes,
                    "downloads": r.downloads, "private": false, "pipeline_tag": r.pipeline_tag,
                    "tags": [], "createdAt": r.commits.last().map(|c| c.date.clone())})
            })
            .collect();
        let mut reply = json_reply(&serde_json::Value::Array(page));
        if offset + page_size < all.len() {
            let rest: Vec<&str> = query.split('&').filter(|kv| !kv.starts_with("cursor=")).collect();
            let next = format!("{base}/api/models?{}&cursor={}", rest.join("&"), offset + page_size);
            reply = reply.with_header(hdr("Link", &format!("<{next}>; rel=\"next\"")));
        }
        return reply;
    }
    if let Some(rest) = path.strip_prefix("/api/models/") {
        let parts: Vec<&str> = rest.split('/').collect();
        if parts.len() < 2 {
            return error_reply(404, "RepoNotFound", "Repository not found");
        }
        let id = format!("{}/{}", parts[0], parts[1]);
        let Some(repo) = st.repos.get(&id) else {
            return error_reply(404, "RepoNotFound", "Repository not found");
        };
        let tail = &parts[2..];
        let rev_commit = |rev: &str| repo.at(rev);
        return match tail {
            [] => json_reply(&info_json(&id, repo, repo.head())),
            ["revision", rev] => match rev_commit(rev) {
                Some(c) => json_reply(&info_json(&id, repo, c)),
                None => error_reply(404, "RevisionNotFound", "Invalid rev id"),
            },
            ["commits", rev] => {
                let Some(head) = rev_commit(rev) else {
                    return error_reply(404, "RevisionNotFound", "Invalid rev id");
                };
                let start = repo.commits.iter().position(|c| c.sha == head.sha).unwrap_or(0);
                let all = &repo.commits[start..];
                let p: usize = query_param(query, "p").and_then(|p| p.parse().ok()).unwrap_or(0);
                let size = st.commits_page_size.max(1);
                let page: Vec<serde_json::Value> = all
                    .iter()
                    .skip(p * size)
                    .take(size)
                    .map(|c| {
                        serde_json::json!({"id": c.sha, "title": c.title, "message": "", "date": c.date,
                            "authors": [{"user": repo.author, "avatar": null}]})
                    })
                    .collect();
                let mut reply = json_reply(&serde_json::Value::Array(page));
                if (p + 1) * size < all.len() {
                    let next = format!("{base}/api/models/{id}/commits/{rev}?p={}", p + 1);
                    reply = reply.with_header(hdr("Link", &format!("<{next}>; rel=\"next\"")));
                }
                reply
            }
            ["tree", rev] => match rev_commit(rev) {
                Some(c) => {
                    let entries: Vec<serde_json::Value> = c
                        .files
                        .iter()
                        .map(|(p, b)| {
                            let mut e = serde_json::json!({"type": "file", "oid": git_oid(b), "size": b.len(), "path": p});
                            if is_lfs(p) {
                                e["lfs"] = serde_json::json!({"oid": sha256_hex(b), "size": b.len(), "pointerSize": 134});
                            }
                            e
                        })
                        .collect();
                    json_reply(&serde_json::Value::Array(entries))
                }
                None => error_reply(404, "RevisionNotFound", "Invalid rev id"),
            },
            _ => error_reply(404, "", "Not found"),
        };
    }
    if let Some(sha256) = path.strip_prefix("/cdn/") {
        for repo in st.repos.values() {
            for c in &repo.commits {
                for (p, b) in &c.files {
                    if sha256_hex(b) == sha256 {
                        let truncated = st.faults.iter().find_map(|f| match f {
                            Fault::Truncate { path: fp, keep } if p == fp => Some(*keep),
                            _ => None,
                        });
                        let body = &b[..truncated.unwrap_or(b.len()).min(b.len())];
                        return serve_bytes(body, b.len() as u64, range)
                            .with_header(hdr("ETag", &format!("\"{sha256}\"")));
                    }
                }
            }
        }
        return Response::from_data(b"NoSuchKey".to_vec()).with_status_code(404);
    }
    // /{org}/{name}/resolve/{rev}/{file}
    let parts: Vec<&str> = path.trim_start_matches('/').splitn(5, '/').collect();
    if let [org, name, "resolve", rev, file] = parts[..] {
        let id = format!("{org}/{name}");
        let Some(repo) = st.repos.get(&id) else {
            return error_reply(404, "RepoNotFound", "Repository not found");
        };
        if repo.gated && !token.is_some_and(|t| st.granted_tokens.iter().any(|g| g == t)) {
            let status = if token.is_some() { 403 } else { 401 };
            return error_reply(
                status,
                "GatedRepo",
                &format!(
                    "Access to model {id} is restricted. You must have access to it and be authenticated to access it. Please log in."
                ),
            );
        }
        let Some(c) = repo.at(rev) else {
            return error_reply(404, "RevisionNotFound", "Invalid rev id");
        };
        let Some(bytes) = c.files.get(file) else {
            return error_reply(404, "EntryNotFound", &format!("{file} does not exist on \"{rev}\""));
        };
        if is_lfs(file) {
            let sha = sha256_hex(bytes);
            return Response::from_data(Vec::new())
                .with_status_code(302)
                .with_header(hdr("Location", &format!("{cdn}/cdn/{sha}?X-Amz-Signature=test")))
                .with_header(hdr("X-Repo-Commit", &c.sha))
                .with_header(hdr("X-Linked-Size", &bytes.len().to_string()))
                .with_header(hdr("X-Linked-Etag", &format!("\"{sha}\"")))
                .with_header(hdr("ETag", &format!("\"{}\"", git_oid(bytes))));
        }
        let _ = method;
        return serve_bytes(bytes, bytes.len() as u64, range)
            .with_header(hdr("X-Repo-Commit", &c.sha))
            .with_header(hdr("ETag", &format!("\"{}\"", git_oid(bytes))));
    }
    error_reply(404, "", "Not found")
}
