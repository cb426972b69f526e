//! `modelatlas serve`: a built site and the planner over HTTP on one address.
//!
//! - `POST /api/v1/plan` (body: a config.json; query: `name`, `format=json|md`, and the training
//!   inputs of [`crate::api::Inputs`]): the model JSON, or the Markdown twin;
//! - `POST /api/v1/what-if` (body: a config.json, or none with `model=org/name` from the snapshot;
//!   query: `mode`, `card`, `batch`, `seq` and the training inputs): `modelatlas what-if`'s JSON;
//! - `GET /api/v1/models/{org}/{name}`: the model JSON from the site;
//! - `GET` anything else: the site's files.
//!
//! A small HTTP/1.1 server on the standard library, one request per connection: the crates that
//! were measured either cost far more to build (axum on tokio) or give no socket timeouts and a
//! thread per connection (tiny_http), and the limits are the point here. Concurrency is bounded
//! by a fixed pool of workers and a bounded queue (a full queue is answered 503 at once); every
//! socket has read and write timeouts and a request a total deadline; bodies are capped at 1 MiB
//! and must declare their length. Errors are JSON with a 4xx status that names the field.
//! SIGTERM (or SIGINT) stops accepting, lets the requests in flight finish, and returns.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::api::{self, ApiError, Files, Inputs, WhatIfRequest};
use crate::model_id::ModelId;
use crate::render::{PlanFormat, Renderer};
use crate::source::ModelSource;
use crate::source::hub_cache::HubCacheSource;

/// The largest request body accepted (a config.json is a few kB; the largest published ones,
/// with thousands of labels, are under 200 kB).
pub const MAX_BODY: usize = 1 << 20;
/// The largest request line and headers accepted.
pub const MAX_HEAD: usize = 16 << 10;
/// Each read from or write to a socket.
pub const IO_TIMEOUT: Duration = Duration::from_secs(5);
/// A whole request, from its first byte to the end of its body.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);

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
    listener: TcpListener,
    options: ServeOptions,
}

impl Server {
    pub fn bind(options: ServeOptions) -> Result<Server, ServeError> {
        let listener = TcpListener::bind(options.bind)
            .map_err(|source| ServeError::Bind { addr: options.bind, source })?;
        let addr = listener.local_addr()?;
        // Accept polls, so that a stop request is seen within a few milliseconds.
        listener.set_nonblocking(true)?;
        Ok(Server { addr, stop: Arc::new(AtomicBool::new(false)), listener, options })
    }

    /// A flag that stops the server when set (a signal handler sets it).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Serves until the stop flag is set, then waits for the requests in flight.
    pub fn run(self) -> Result<(), ServeError> {
        let shared = Arc::new(Shared {
            renderer: Renderer::new(),
            site: self.options.site.clone(),
            hub: HubCacheSource::new(self.options.hub.clone()),
        });
        let (tx, rx): (SyncSender<TcpStream>, Receiver<TcpStream>) = sync_channel(self.options.queue.max(1));
        let rx = Arc::new(Mutex::new(rx));
        let workers: Vec<_> = (0..self.options.workers.max(1))
            .map(|_| {
                let rx = rx.clone();
                let shared = shared.clone();
                std::thread::spawn(move || {
                    loop {
                        // A poisoned lock means another worker panicked while holding it, which it
                        // never does (it only receives); stop this worker too.
                        let next = match rx.lock() {
                            Ok(guard) => guard.recv(),
                            Err(_) => return,
                        };
                        match next {
                            Ok(stream) => handle(stream, &shared),
                            Err(_) => return,
                        }
                    }
                })
            })
            .collect();
        while !self.stop.load(Ordering::SeqCst) {
            match self.listener.accept() {
                Ok((stream, _)) => {
                    if stream.set_nonblocking(false).is_err() {
                        continue;
                    }
                    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
                    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
                    let _ = stream.set_nodelay(true);
                    match tx.try_send(stream) {
                        Ok(()) => {}
                        Err(TrySendError::Full(mut stream)) => {
                            let e = ApiError {
                                status: 503,
                                field: String::new(),
                                message: "busy: every worker is taken and the queue is full; retry".into(),
                            };
                            let _ = respond(&mut stream, &error_response(&e));
                        }
                        Err(TrySendError::Disconnected(_)) => break,
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        drop(tx);
        for w in workers {
            let _ = w.join();
        }
        Ok(())
    }
}

struct Shared {
    renderer: Renderer,
    site: Option<PathBuf>,
    hub: HubCacheSource,
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

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn respond(stream: &mut TcpStream, r: &Response) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {}\r\ncontent-length: {}\r\nconnection: close\r\nx-content-type-options: nosniff\r\n\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&r.body)?;
    stream.flush()
}

/// A parsed request: method, path, query, body.
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: Vec<(String, String)>,
    pub body: Vec<u8>,
}

fn handle(mut stream: TcpStream, shared: &Shared) {
    let response = match read_request(&mut stream) {
        Ok(request) => route(&request, shared),
        Err(e) => error_response(&e),
    };
    let _ = respond(&mut stream, &response);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Drain what the client still sends (an oversized body), briefly, so that closing does not
    // reset the connection before it has read the answer.
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 8192];
    let until = Instant::now() + Duration::from_millis(500);
    while Instant::now() < until {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

fn read_request(stream: &mut TcpStream) -> Result<Request, ApiError> {
    let started = Instant::now();
    let timeout = || ApiError {
        status: 408,
        field: String::new(),
        message: "the request took too long to arrive".into(),
    };
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return Err(ApiError {
                status: 431,
                field: "headers".into(),
                message: format!("request line and headers over {MAX_HEAD} bytes"),
            });
        }
        if started.elapsed() > REQUEST_DEADLINE {
            return Err(timeout());
        }
        match stream.read(&mut chunk) {
            Ok(0) => {
                return Err(ApiError::bad(
                    "request",
                    "the connection closed before the request was complete",
                ));
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => return Err(timeout()),
        }
    };
    let mut body = buf.split_off(head_end + 4);
    let head = std::str::from_utf8(&buf[..head_end]).map_err(|_| ApiError::bad("headers", "not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap_or("");
    let mut parts = line.split(' ');
    let (method, target, version) =
        (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if method.is_empty()
        || !target.starts_with('/')
        || !version.starts_with("HTTP/1.")
        || parts.next().is_some()
    {
        return Err(ApiError::bad("request line", format!("not an HTTP/1.x request line: {line:?}")));
    }
    let mut length: Option<usize> = None;
    for h in lines {
        let Some((name, value)) = h.split_once(':') else {
            return Err(ApiError::bad("headers", format!("not a header: {h:?}")));
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        if name == "content-length" {
            let n: usize = value
                .parse()
                .map_err(|_| ApiError::bad("content-length", format!("not a length: {value:?}")))?;
            if length.is_some_and(|l| l != n) {
                return Err(ApiError::bad("content-length", "two different lengths"));
            }
            length = Some(n);
        } else if name == "transfer-encoding" {
            return Err(ApiError {
                status: 411,
                field: "transfer-encoding".into(),
                message: "send the body with a content-length, not chunked".into(),
            });
        }
    }
    let length = length.unwrap_or(0);
    if length > MAX_BODY {
        return Err(ApiError {
            status: 413,
            field: "body".into(),
            message: format!("the body is {length} bytes; the limit is {MAX_BODY} (1 MiB)"),
        });
    }
    while body.len() < length {
        if started.elapsed() > REQUEST_DEADLINE {
            return Err(timeout());
        }
        let want = (length - body.len()).min(chunk.len());
        match stream.read(&mut chunk[..want]) {
            Ok(0) => {
                return Err(ApiError::bad(
                    "body",
                    format!("the body ended after {} of {length} bytes", body.len()),
                ));
            }
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(_) => return Err(timeout()),
        }
    }
    body.truncate(length);
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let query = parse_query(query)?;
    Ok(Request { method: method.to_string(), path: percent_decode(path)?, query, body })
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
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
