//! `modelatlas serve` as a client sees it: the real binary on 127.0.0.1, spoken to over TCP.
//! Includes a bounded load test (plan requests on 2 workers, with a flood of oversized and
//! malformed bodies beside them); its figures go to target/test-output/load.txt.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn gpt2_config() -> String {
    let dir = repo().join("hub/models--openai-community--gpt2/snapshots");
    let snap = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    std::fs::read_to_string(snap.join("config.json")).unwrap()
}

struct Serving {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `modelatlas serve` on a free port and reads the address it prints.
fn start(args: &[&str]) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .args(["serve", "--bind", "127.0.0.1:0", "--hub"])
        .arg(repo().join("hub"))
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap()).read_line(&mut line).unwrap();
    let addr = line.split("http://").nth(1).unwrap().split_whitespace().next().unwrap().parse().unwrap();
    Serving { child, addr }
}

/// One request; returns (status, body). Errors (a reset connection) are `None`.
fn request(addr: SocketAddr, method: &str, target: &str, body: &[u8]) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    let head = format!(
        "{method} {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).ok()?;
    let _ = s.write_all(body);
    read_response(s)
}

fn read_response(mut s: TcpStream) -> Option<(u16, String)> {
    let mut out = Vec::new();
    s.read_to_end(&mut out).ok()?;
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text.split(' ').nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n")?.1.to_string();
    Some((status, body))
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn cli(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_modelatlas")).current_dir(repo()).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn plan_endpoint_answers_the_clis_model_json_with_gpt2s_exact_count() {
    let server = start(&[]);
    let config = gpt2_config();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("gpt2-here");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("config.json"), &config).unwrap();
    let (status, body) =
        request(server.addr, "POST", "/api/v1/plan?name=gpt2-here", config.as_bytes()).unwrap();
    assert_eq!(status, 200, "{body}");
    let cli_json = cli(&["plan", folder.join("config.json").to_str().unwrap(), "--format", "json"]);
    assert_eq!(body, cli_json, "the server plans as the CLI does");
    // GPT-2 small, written out: token and position embeddings, 12 blocks of two LayerNorms, the
    // fused qkv (768 -> 2304) and output projections, the 4x MLP, all with biases; a final
    // LayerNorm; the head is tied to the token embeddings.
    let h = 768u64;
    let layer = 2 * (2 * h) + (h * 3 * h + 3 * h) + (h * h + h) + (h * 4 * h + 4 * h) + (4 * h * h + h);
    let expected = 50_257 * h + 1024 * h + 12 * layer + 2 * h;
    assert_eq!(expected, 124_439_808);
    assert_eq!(json(&body)["params"]["derived"], expected);

    // Training inputs in the query, as the CLI's flags.
    let (status, body) = request(
        server.addr,
        "POST",
        "/api/v1/plan?name=gpt2-here&recipe=amp-adafactor&checkpointing=true&lora_rank=8&lora_targets=c_attn%2Cc_proj&epochs=2",
        config.as_bytes(),
    )
    .unwrap();
    assert_eq!(status, 200, "{body}");
    let flags = [
        "--recipe",
        "amp-adafactor",
        "--checkpointing",
        "--lora-rank",
        "8",
        "--lora-targets",
        "c_attn,c_proj",
        "--epochs",
        "2",
    ];
    let config_path = folder.join("config.json");
    let mut args = vec!["plan", config_path.to_str().unwrap(), "--format", "json"];
    args.extend(flags);
    assert_eq!(body, cli(&args));

    let (status, body) =
        request(server.addr, "POST", "/api/v1/plan?name=gpt2-here&format=md", config.as_bytes()).unwrap();
    assert_eq!(status, 200);
    assert!(body.starts_with("# gpt2-here\n"), "{}", &body[..80.min(body.len())]);
}

#[test]
fn what_if_endpoint_answers_as_the_what_if_command() {
    let server = start(&[]);
    let target = "/api/v1/what-if?model=meta-llama/Llama-2-7b-hf&mode=lora&card=a100-40gb&batch=4&seq=1024";
    let (status, body) = request(server.addr, "POST", target, b"").unwrap();
    assert_eq!(status, 200, "{body}");
    let expected = cli(&[
        "what-if",
        "meta-llama/Llama-2-7b-hf",
        "--mode",
        "lora",
        "--card",
        "a100-40gb",
        "--batch",
        "4",
        "--seq",
        "1024",
    ]);
    assert_eq!(json(&body), json(&expected));
    let (status, body) =
        request(server.addr, "POST", "/api/v1/what-if?mode=lora&card=no-such-card", gpt2_config().as_bytes())
            .unwrap();
    assert_eq!((status, json(&body)["error"]["field"].as_str()), (422, Some("card")), "{body}");
}

#[test]
fn bad_requests_get_json_errors_with_4xx_codes_that_name_the_field() {
    let server = start(&[]);
    let cases: [(&str, &str, &[u8], u16, &str); 8] = [
        (
            "POST",
            "/api/v1/plan",
            br#"{"model_type": "llama", "hidden_size": "big"}"#,
            422,
            "config.hidden_size",
        ),
        ("POST", "/api/v1/plan", b"{", 422, "config"),
        ("POST", "/api/v1/plan", b"", 400, "body"),
        ("POST", "/api/v1/plan?recipe=sgd", b"{}", 400, "recipe"),
        ("POST", "/api/v1/plan?colour=red", b"{}", 400, "colour"),
        ("POST", "/api/v1/plan?epochs=0", br#"{"model_type": "gpt2"}"#, 400, "epochs"),
        ("GET", "/api/v1/plan", b"", 405, "method"),
        ("POST", "/api/v1/what-if?card=t4-16gb", b"{}", 400, "mode"),
    ];
    for (method, target, body, status, field) in cases {
        let (got, text) = request(server.addr, method, target, body).unwrap();
        assert_eq!(got, status, "{method} {target}: {text}");
        assert_eq!(json(&text)["error"]["field"], field, "{method} {target}: {text}");
        assert!(!json(&text)["error"]["message"].as_str().unwrap().is_empty());
    }
    // Over 1 MiB: refused from its declared length, before the body is read.
    let big = vec![b' '; (1 << 20) + 1];
    let (status, text) = request(server.addr, "POST", "/api/v1/plan", &big).unwrap();
    assert_eq!((status, json(&text)["error"]["field"].as_str()), (413, Some("body")));
    // A chunked body has no length to check up front: it is read up to the cap, then refused.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(b"POST /api/v1/plan HTTP/1.1\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n")
        .unwrap();
    let chunk = vec![b' '; 64 << 10];
    for _ in 0..17 {
        // 17 chunks of 64 KiB: 1 MiB + 64 KiB. The server may stop reading once over the cap.
        if s.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).is_err()
            || s.write_all(&chunk).is_err()
            || s.write_all(b"\r\n").is_err()
        {
            break;
        }
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let (status, text) = read_response(s).unwrap();
    assert_eq!((status, json(&text)["error"]["field"].as_str()), (413, Some("body")));
    // A small chunked body is a body like any other.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(b"POST /api/v1/plan HTTP/1.1\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
        .unwrap();
    let (status, text) = read_response(s).unwrap();
    assert_eq!((status, json(&text)["error"]["field"].as_str()), (422, Some("config.model_type")), "{text}");
    // Not HTTP at all.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.write_all(b"hello\r\n\r\n").unwrap();
    assert_eq!(read_response(s).unwrap().0, 400);
}

#[test]
fn serves_the_built_site_and_its_model_json_and_nothing_outside_it() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let manifest = dir.path().join("models.toml");
    std::fs::write(
        &manifest,
        "[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n[[model]]\nid = \"openai-community/gpt2\"\n",
    )
    .unwrap();
    let hub = repo().join("hub");
    cli(&[
        "build",
        "--manifest",
        manifest.to_str().unwrap(),
        "--hub",
        hub.to_str().unwrap(),
        "--out",
        site.to_str().unwrap(),
    ]);
    std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
    let server = start(&["--site", site.to_str().unwrap()]);
    let (status, body) = request(server.addr, "GET", "/api/v1/models/openai-community/gpt2", b"").unwrap();
    assert_eq!(status, 200);
    assert_eq!(body, std::fs::read_to_string(site.join("models/openai-community/gpt2.json")).unwrap());
    let (status, body) = request(server.addr, "GET", "/api/v1/models/no-org/no-model", b"").unwrap();
    assert_eq!((status, json(&body)["error"]["field"].as_str()), (404, Some("path")));
    let (status, body) = request(server.addr, "GET", "/plan.html", b"").unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("Plan your own model"));
    assert_eq!(request(server.addr, "GET", "/", b"").unwrap().0, 200, "a folder serves its index.html");
    for escape in ["/../secret.txt", "/%2e%2e/secret.txt", "/static/../../secret.txt"] {
        assert_eq!(request(server.addr, "GET", escape, b"").unwrap().0, 404, "{escape}");
    }
}

#[test]
fn sigterm_lets_the_request_in_flight_finish_then_exits_zero() {
    let mut server = start(&[]);
    let config = gpt2_config();
    // Half a request: the headers and the first half of the body.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = format!(
        "POST /api/v1/plan HTTP/1.1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        config.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let (a, b) = config.as_bytes().split_at(config.len() / 2);
    s.write_all(a).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    std::thread::sleep(Duration::from_millis(300));
    s.write_all(b).unwrap();
    let (status, _) = read_response(s).unwrap();
    assert_eq!(status, 200, "the request in flight is answered");
    let deadline = Instant::now() + Duration::from_secs(10);
    let code = loop {
        if let Some(code) = server.child.try_wait().unwrap() {
            break code;
        }
        assert!(Instant::now() < deadline, "still running 10 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(code.success(), "{code:?}");
    assert!(TcpStream::connect_timeout(&server.addr, Duration::from_secs(1)).is_err(), "no longer listening");
}

/// Latency percentile (nearest rank) of sorted samples.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[test]
fn load_test_plan_requests_on_two_workers_while_a_flood_of_bad_bodies_is_refused() {
    let seconds: f64 =
        std::env::var("MODELATLAS_LOAD_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let server = start(&["--workers", "2", "--queue", "64"]);
    let addr = server.addr;
    let config = Arc::new(gpt2_config());
    let stop = Arc::new(AtomicBool::new(false));
    let good: Vec<_> = (0..4)
        .map(|_| {
            let (config, stop) = (config.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut lat = vec![];
                let mut bad = vec![];
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    match request(addr, "POST", "/api/v1/plan", config.as_bytes()) {
                        Some((200, _)) => lat.push(t.elapsed()),
                        other => bad.push(other.map(|(s, b)| format!("{s} {}", &b[..b.len().min(200)]))),
                    }
                }
                (lat, bad)
            })
        })
        .collect();
    let flood: Vec<_> = (0..2)
        .map(|i| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let big = vec![b'{'; 2 << 20];
                let mut refused = 0u64;
                let mut other = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let answer = if i == 0 {
                        request(addr, "POST", "/api/v1/plan", &big)
                    } else {
                        request(
                            addr,
                            "POST",
                            "/api/v1/plan",
                            b"{\"model_type\": \"llama\", \"hidden_size\": -1",
                        )
                    };
                    match answer {
                        Some((400..=499, _)) => refused += 1,
                        _ => other += 1,
                    }
                }
                (refused, other)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    stop.store(true, Ordering::Relaxed);
    let mut lat = vec![];
    let mut failures = vec![];
    for g in good {
        let (l, b) = g.join().unwrap();
        lat.extend(l);
        failures.extend(b);
    }
    let (mut refused, mut flood_other) = (0, 0);
    for f in flood {
        let (r, o) = f.join().unwrap();
        refused += r;
        flood_other += o;
    }
    lat.sort();
    assert!(failures.is_empty(), "good requests not answered 200: {:?}", &failures[..failures.len().min(5)]);
    assert!(lat.len() >= 10, "only {} plan requests answered in {seconds} s", lat.len());
    assert!(refused >= 10, "the flood was refused {refused} times");
    let rps = lat.len() as f64 / seconds;
    let (p50, p99) = (percentile(&lat, 50.0), percentile(&lat, 99.0));
    let report = format!(
        "load: {} plan requests in {seconds} s on 2 workers, 4 clients (a new connection each): {rps:.0} requests/s, p50 {:.1} ms, p99 {:.1} ms; \
         flood beside it: {refused} oversized or malformed bodies refused with 4xx ({flood_other} other outcomes), every good request answered 200\n",
        lat.len(),
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
    );
    eprint!("{report}");
    // Beside the binary's target folder (shared with the CI's fresh clone), not the clone's own.
    let bin = Path::new(env!("CARGO_BIN_EXE_modelatlas"));
    let out = bin
        .parent()
        .and_then(Path::parent)
        .map_or_else(|| repo().join("target"), Path::to_path_buf)
        .join("test-output");
    let _ = std::fs::create_dir_all(&out);
    let _ = std::fs::write(Path::new(&out).join("load.txt"), &report);
}

#[test]
fn slow_clients_are_cut_off_and_connections_over_the_limit_are_answered_503_at_once() {
    // 1 worker and a queue of 1: two connections at most.
    let server = start(&["--workers", "1", "--queue", "1"]);
    let started = Instant::now();
    // Two clients that send half a request line and stall (slowloris).
    let mut stalled: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            s.write_all(b"POST /api/v1/pl").unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // A third is over the limit: answered 503 without waiting for its request.
    let (status, body) = request(server.addr, "GET", "/", b"").unwrap();
    assert_eq!(status, 503, "{body}");
    assert!(json(&body)["error"]["message"].as_str().unwrap().contains("busy"));
    // The stalled ones are closed once the header timeout (5 s, `serve::IO_TIMEOUT`) passes.
    for s in &mut stalled {
        s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
    }
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(4), "cut off after {waited:?}, before the timeout");
    assert!(waited < Duration::from_secs(14), "still open after {waited:?}");
    // And their places are free again.
    let (status, body) = request(server.addr, "POST", "/api/v1/plan", gpt2_config().as_bytes()).unwrap();
    assert_eq!(status, 200, "{body}");
}
