//! `modelatlas serve`: a built site and the planner over HTTP on one address.
//!
//! - `POST /api/v1/plan` (body: a config.json; query: `name`, `format=json|md`, and the training
//!   inputs of [`crate::api::Inputs`]): the model JSON, or the Markdown twin;
//! - `POST /api/v1/what-if` (body: a config.json, or none with `model=org/name` from the snapshot;
//!   query: `mode`, `card`, `batch`, `seq` and the training inputs): `modelatlas what-if`'s JSON;
//! - `GET /api/v1/models/{org}/{name}`: the model JSON from the site;
//! - `GET` anything else: the site's files.
//!
//! HTTP/1.1 by hyper on a small tokio runtime (two I/O threads). Chosen by build cost, measured
//! with a clean debug build on this project's 2-core machines: hyper + hyper-util + tokio, 22
//! crates and 12 s (9 new to this tree: most of hyper's, `http`, `httparse`, `bytes`, came with
//! ureq); axum, about 60 crates and 334 s; tiny_http is cheap but has no socket timeouts and
//! takes a thread per connection, which are the limits this server exists to keep. Concurrency is bounded twice:
//! connections beyond `workers + queue` are answered 503 at once, and the planning itself runs on
//! at most `workers` blocking threads. Request headers must arrive within [`IO_TIMEOUT`], a body
//! within [`REQUEST_DEADLINE`], a connection lives at most [`CONNECTION_LIFETIME`]; bodies are
//! capped at 1 MiB (a declared length over it is refused before the body is read; a chunked body
//! is cut off at the cap). Errors are JSON with a 4xx status that names the field. SIGTERM (or
//! SIGINT) stops accepting, lets the requests in flight finish, and returns.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;

use crate::api::{self, ApiError, Files, Inputs, WhatIfRequest};
use crate::model_id::ModelId;
use crate::render::{PlanFormat, Renderer};
use crate::source::ModelSource;
use crate::source::hub_cache::HubCacheSource;

/// The largest request body accepted (a config.json is a few kB; the largest published ones,
/// with thousands of labels, are under 200 kB).
pub const MAX_BODY: usize = 1 << 20;
/// The request line and headers must arrive within this.
pub const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// A whole request, from its first byte to the end of its body.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);
/// A connection, kept alive or not, is closed after this (a slow reader cannot hold it longer).
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(30);
/// How long the requests in flight get to finish after SIGTERM.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub bind: SocketAddr,
    /// A built site to serve (`modelatlas build --out DIR`); without it only the API answers.
    pub site: Option<PathBuf>,
    /// The snapshot, for `model=org/name` in what-if.
    pub hub: PathBuf,
    /// Requests handled at once.
    pub workers: usize,
    /// Connections waiting for a worker before new ones are answered 503.
    pub queue: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A running server: its address, and how to stop it.
pub struct Server {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    listener: std::net::TcpListener,
    options: ServeOptions,
}

impl Server {
    pub fn bind(options: ServeOptions) -> Result<Server, ServeError> {
        let listener = std::net::TcpListener::bind(options.bind)
            .map_err(|source| ServeError::Bind { addr: options.bind, source })?;
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        Ok(Server { addr, stop: Arc::new(AtomicBool::new(false)), listener, options })
    }

    /// A flag that stops the server when set (a signal handler sets it).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Serves until the stop flag is set, then waits for the requests in flight.
    pub fn run(self) -> Result<(), ServeError> {
        let workers = self.options.workers.max(1);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(workers)
            .thread_name("modelatlas-serve")
            .enable_all()
            .build()?;
        runtime.block_on(self.serve(workers))
    }

    async fn serve(self, workers: usize) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::from_std(self.listener)?;
        let shared = Arc::new(Shared {
            renderer: Renderer::new(),
            site: self.options.site.clone(),
            hub: HubCacheSource::new(self.options.hub.clone()),
            planners: Semaphore::new(workers),
        });
        let connections = Arc::new(Semaphore::new(workers + self.options.queue.max(1)));
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut poll = tokio::time::interval(Duration::from_millis(20));
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                _ = poll.tick() => {
                    if self.stop.load(Ordering::SeqCst) { break; }
                    continue;
                }
            };
            let Ok((stream, _)) = accepted else {
                // Out of descriptors and the like: back off instead of spinning.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            };
            let _ = stream.set_nodelay(true);
            let Ok(permit) = connections.clone().try_acquire_owned() else {
                tokio::spawn(refuse_busy(stream));
                continue;
            };
            let shared = shared.clone();
            let service = service_fn(move |request| {
                let shared = shared.clone();
                async move { Ok::<_, Infallible>(answer(request, shared).await) }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(IO_TIMEOUT)
                .max_buf_size(64 << 10)
                .serve_connection(TokioIo::new(stream), service);
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                let _ = tokio::time::timeout(CONNECTION_LIFETIME, connection).await;
                drop(permit);
            });
        }
        drop(listener);
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
        Ok(())
    }
}

/// The answer to a connection over the limit, written without reading its request.
async fn refuse_busy(mut stream: tokio::net::TcpStream) {
    let e = ApiError {
        status: 503,
        field: String::new(),
        message: "busy: every worker is taken and the queue is full; retry".into(),
    };
    let r = error_response(&e);
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n",
        r.content_type,
        r.body.len()
    );
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(&r.body).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(IO_TIMEOUT, write).await;
}

struct Shared {
    renderer: Renderer,
    site: Option<PathBuf>,
    hub: HubCacheSource,
    /// Plans computed at once (each is CPU work on a blocking thread).
    planners: Semaphore,
}

/// One HTTP response.
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

fn json_response(status: u16, body: String) -> Response {
    Response { status, content_type: "application/json", body: body.into_bytes() }
}

fn error_response(e: &ApiError) -> Response {
    let body = serde_json::json!({"error": {"status": e.status, "field": e.field, "message": e.message}});
    json_response(e.status, format!("{body}\n"))
}

fn to_hyper(r: Response) -> hyper::Response<Full<Bytes>> {
    let mut out = hyper::Response::new(Full::new(Bytes::from(r.body)));
    *out.status_mut() =
        hyper::StatusCode::from_u16(r.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = out.headers_mut();
    headers.insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static(r.content_type));
    headers.insert(hyper::header::X_CONTENT_TYPE_OPTIONS, hyper::header::HeaderValue::from_static("nosniff"));
    out
}

/// A parsed request: method, path, query, body.
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: Vec<(String, String)>,
    pub body: Vec<u8>,
}

async fn answer(request: hyper::Request<Incoming>, shared: Arc<Shared>) -> hyper::Response<Full<Bytes>> {
    let response = match read_request(request).await {
        Ok(request) => match shared.planners.acquire().await {
            Ok(_permit) => {
                let worker = shared.clone();
                tokio::task::spawn_blocking(move || route(&request, &worker)).await.unwrap_or_else(|_| {
                    error_response(&ApiError {
                        status: 500,
                        field: String::new(),
                        message: "the planner failed on this request".into(),
                    })
                })
            }
            Err(_) => error_response(&ApiError {
                status: 503,
                field: String::new(),
                message: "the server is stopping".into(),
            }),
        },
        Err(e) => error_response(&e),
    };
    to_hyper(response)
}

async fn read_request(request: hyper::Request<Incoming>) -> Result<Request, ApiError> {
    let (parts, body) = request.into_parts();
    let declared = match parts.headers.get(hyper::header::CONTENT_LENGTH) {
        None => None,
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or_else(|| ApiError::bad("content-length", format!("not a length: {v:?}")))?,
        ),
    };
    let too_large = |size: String| ApiError {
        status: 413,
        field: "body".into(),
        message: format!("the body is {size}; the limit is {MAX_BODY} bytes (1 MiB)"),
    };
    if let Some(n) = declared.filter(|&n| n > MAX_BODY as u64) {
        // Refused from its declared length. The body is read and dropped (for a moment, and up to
        // a few times the cap) only so that closing does not reset the connection before the
        // client has read the answer.
        let drain = Limited::new(body, 4 * MAX_BODY).collect();
        let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
        return Err(too_large(format!("{n} bytes")));
    }
    let collected = tokio::time::timeout(REQUEST_DEADLINE, Limited::new(body, MAX_BODY).collect())
        .await
        .map_err(|_| ApiError {
            status: 408,
            field: String::new(),
            message: "the request took too long to arrive".into(),
        })?;
    let body = match collected {
        Ok(c) => c.to_bytes().to_vec(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return Err(too_large(format!("over {MAX_BODY} bytes")));
        }
        Err(_) => {
            return Err(ApiError::bad("body", "the connection closed before the body was complete"));
        }
    };
    let query = parse_query(parts.uri.query().unwrap_or(""))?;
    Ok(Request {
        method: parts.method.as_str().to_string(),
        path: percent_decode(parts.uri.path())?,
        query,
        body,
    })
}

fn percent_decode(s: &str) -> Result<String, ApiError> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
                let v = hex.and_then(|h| u8::from_str_radix(h, 16).ok());
                let Some(v) = v else {
                    return Err(ApiError::bad("query", format!("bad percent-escape in {s:?}")));
                };
                out.push(v);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ApiError::bad("query", format!("{s:?} is not UTF-8 once decoded")))
}

fn parse_query(q: &str) -> Result<Vec<(String, String)>, ApiError> {
    q.split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            Ok((percent_decode(k)?, percent_decode(v)?))
        })
        .collect()
}

/// The query as a map, refusing keys outside `allowed` and repeated keys, by name.
fn query_map<'a>(request: &'a Request, allowed: &[&str]) -> Result<BTreeMap<&'a str, &'a str>, ApiError> {
    let mut map = BTreeMap::new();
    for (k, v) in &request.query {
        if !allowed.contains(&k.as_str()) {
            return Err(ApiError::bad(
                k,
                format!("unknown query parameter {k:?}; known: {}", allowed.join(", ")),
            ));
        }
        if map.insert(k.as_str(), v.as_str()).is_some() {
            return Err(ApiError::bad(k, format!("query parameter {k:?} given twice")));
        }
    }
    Ok(map)
}

fn number(map: &BTreeMap<&str, &str>, key: &str) -> Result<Option<u64>, ApiError> {
    map.get(key)
        .map(|v| {
            v.parse::<u64>().map_err(|_| ApiError::bad(key, format!("{key}={v:?} is not a whole number")))
        })
        .transpose()
}

const INPUT_KEYS: [&str; 9] = [
    "recipe",
    "attention",
    "checkpointing",
    "lora_rank",
    "lora_targets",
    "transformers",
    "epochs",
    "samples",
    "batch",
];

fn inputs(map: &BTreeMap<&str, &str>, with_run: bool) -> Result<Inputs, ApiError> {
    let checkpointing = match map.get("checkpointing").copied() {
        None => None,
        Some("" | "true" | "1") => Some(true),
        Some("false" | "0") => Some(false),
        Some(v) => return Err(ApiError::bad("checkpointing", format!("checkpointing={v:?}: true or false"))),
    };
    Ok(Inputs {
        recipe: map.get("recipe").map(|s| s.to_string()),
        attention: map.get("attention").map(|s| s.to_string()),
        checkpointing,
        lora_rank: number(map, "lora_rank")?,
        lora_targets: map.get("lora_targets").map(|s| s.to_string()),
        transformers: map.get("transformers").map(|s| s.to_string()),
        epochs: if with_run { number(map, "epochs")? } else { None },
        samples: if with_run { number(map, "samples")? } else { None },
        batch: if with_run { number(map, "batch")? } else { None },
    })
}

fn config_text(request: &Request) -> Result<String, ApiError> {
    if request.body.is_empty() {
        return Err(ApiError::bad("body", "send the model's config.json as the request body"));
    }
    String::from_utf8(request.body.clone()).map_err(|_| ApiError::bad("body", "the body is not UTF-8"))
}

fn route(request: &Request, shared: &Shared) -> Response {
    let result = match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/api/v1/plan") => plan(request, shared),
        ("POST", "/api/v1/what-if") => what_if(request, shared),
        (_, "/api/v1/plan" | "/api/v1/what-if") => Err(ApiError {
            status: 405,
            field: "method".into(),
            message: format!("{} needs POST", request.path),
        }),
        ("GET", p) if p.starts_with("/api/v1/models/") => model_json(p, shared),
        ("GET", p) if !p.starts_with("/api/") => site_file(p, shared),
        _ => Err(ApiError {
            status: 404,
            field: "path".into(),
            message: format!("no such endpoint: {} {}", request.method, request.path),
        }),
    };
    result.unwrap_or_else(|e| error_response(&e))
}

fn plan(request: &Request, shared: &Shared) -> Result<Response, ApiError> {
    let mut allowed = vec!["name", "format"];
    allowed.extend(INPUT_KEYS);
    let map = query_map(request, &allowed)?;
    let format = match map.get("format").copied() {
        None | Some("json") => PlanFormat::Json,
        Some("md") => PlanFormat::Markdown,
        Some(other) => return Err(ApiError::bad("format", format!("format={other:?}: json or md"))),
    };
    let files = Files {
        name: map.get("name").map_or(String::new(), |s| s.to_string()),
        config: config_text(request)?,
        ..Files::default()
    };
    let page = api::plan_page(&files, &inputs(&map, true)?)?;
    let text = shared.renderer.plan(&page, format)?;
    Ok(match format {
        PlanFormat::Markdown => {
            Response { status: 200, content_type: "text/markdown; charset=utf-8", body: text.into_bytes() }
        }
        _ => json_response(200, text),
    })
}

fn what_if(request: &Request, shared: &Shared) -> Result<Response, ApiError> {
    let mut allowed = vec!["model", "mode", "card", "batch", "seq"];
    allowed.extend(INPUT_KEYS.iter().filter(|k| !matches!(**k, "epochs" | "samples" | "batch")));
    let map = query_map(request, &allowed)?;
    let files = match map.get("model") {
        Some(id) if request.body.is_empty() => {
            let id = ModelId::parse(id).map_err(|e| ApiError::bad("model", e.to_string()))?;
            shared.hub.load(&id).map_err(|e| ApiError {
                status: 404,
                field: "model".into(),
                message: e.to_string(),
            })?
        }
        Some(_) => return Err(ApiError::bad("model", "give either model= or a config.json body, not both")),
        None => api::model_files(&Files { config: config_text(request)?, ..Files::default() })?,
    };
    let required = |k: &str| {
        map.get(k).map(|s| s.to_string()).ok_or_else(|| ApiError::bad(k, format!("{k}= is required")))
    };
    let q = WhatIfRequest {
        mode: required("mode")?,
        card: required("card")?,
        batch: number(&map, "batch")?.unwrap_or(1),
        seq: number(&map, "seq")?,
    };
    let page = api::plan_files(&files, &inputs(&map, false)?)?;
    let answer = api::what_if(&page, &q)?;
    let body = serde_json::to_string_pretty(&answer).map_err(|e| ApiError {
        status: 500,
        field: String::new(),
        message: e.to_string(),
    })?;
    Ok(json_response(200, body + "\n"))
}

fn not_found(what: &str) -> ApiError {
    ApiError { status: 404, field: "path".into(), message: format!("{what} is not on this site") }
}

fn model_json(path: &str, shared: &Shared) -> Result<Response, ApiError> {
    let site = shared.site.as_deref().ok_or_else(|| not_found("no site is served (--site); the model"))?;
    let id_text = path.trim_start_matches("/api/v1/models/").trim_end_matches(".json");
    let id = ModelId::parse(id_text).map_err(|e| ApiError::bad("path", e.to_string()))?;
    let file = site.join(format!("{}.json", id.site_stem()));
    let body = std::fs::read(&file).map_err(|_| not_found(&format!("model {id}")))?;
    Ok(Response { status: 200, content_type: "application/json", body })
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css",
        Some("js") => "text/javascript",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("md") => "text/markdown; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        Some("xml") => "application/xml",
        Some("wasm") => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn site_file(path: &str, shared: &Shared) -> Result<Response, ApiError> {
    let site = shared.site.as_deref().ok_or_else(|| not_found(path))?;
    let rel = Path::new(path.trim_start_matches('/'));
    // Only plain names: no `..`, no root, no prefix, so nothing outside the site is reachable.
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(not_found(path));
    }
    let mut file = site.join(rel);
    if file.is_dir() {
        file = file.join("index.html");
    }
    let body = std::fs::read(&file).map_err(|_| not_found(path))?;
    Ok(Response { status: 200, content_type: content_type(&file), body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_reads_escapes_and_plus_and_refuses_broken_escapes() {
        assert_eq!(percent_decode("q_proj%2Cv_proj").unwrap(), "q_proj,v_proj");
        assert_eq!(percent_decode("a+b").unwrap(), "a b");
        assert!(percent_decode("%zz").is_err());
        assert!(percent_decode("%4").is_err());
        assert!(percent_decode("%ff").is_err(), "a lone 0xff is not UTF-8");
    }
}
