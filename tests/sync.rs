//! `modelatlas sync` against a test Hub on 127.0.0.1 (tests/hub): nothing else is contacted.

mod hub;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hub::{Fault, Repo, State, TestHub, safetensors};
use modelatlas::model_id::ModelId;
use modelatlas::source::ModelSource;
use modelatlas::source::hub_api::{HubClient, HubSettings};
use modelatlas::source::hub_cache::HubCacheSource;
use modelatlas::source::meta::HubMeta;
use modelatlas::sync::{Outcome, SyncOptions, sync_all};

const TINY: &str = "org/tiny";

/// A GPT-2 small enough to write out: n_embd 8, 2 layers, 16 positions, vocabulary 32.
fn config(n_positions: u64) -> Vec<u8> {
    serde_json::to_vec_pretty(&serde_json::json!({
        "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 8, "n_head": 2,
        "n_layer": 2, "n_positions": n_positions, "n_ctx": n_positions, "vocab_size": 32,
        "layer_norm_epsilon": 1e-5, "activation_function": "gelu_new"
    }))
    .unwrap()
}

/// The checkpoint GPT2LMHeadModel saves (head tied to wte, so not saved), F32.
fn gpt2_tensors(n_positions: u64, untied_head: bool) -> Vec<u8> {
    let mut t: Vec<(String, &str, Vec<u64>)> = vec![
        ("wte.weight".into(), "F32", vec![32, 8]),
        ("wpe.weight".into(), "F32", vec![n_positions, 8]),
        ("ln_f.weight".into(), "F32", vec![8]),
        ("ln_f.bias".into(), "F32", vec![8]),
    ];
    for i in 0..2 {
        for (n, s) in [
            ("ln_1.weight", vec![8]),
            ("ln_1.bias", vec![8]),
            ("attn.c_attn.weight", vec![8, 24]),
            ("attn.c_attn.bias", vec![24]),
            ("attn.c_proj.weight", vec![8, 8]),
            ("attn.c_proj.bias", vec![8]),
            ("ln_2.weight", vec![8]),
            ("ln_2.bias", vec![8]),
            ("mlp.c_fc.weight", vec![8, 32]),
            ("mlp.c_fc.bias", vec![32]),
            ("mlp.c_proj.weight", vec![32, 8]),
            ("mlp.c_proj.bias", vec![8]),
        ] {
            t.push((format!("h.{i}.{n}"), "F32", s));
        }
    }
    if untied_head {
        t.push(("lm_head.weight".into(), "F32", vec![32, 8]));
    }
    let refs: Vec<(&str, &str, Vec<u64>)> = t.iter().map(|(n, d, s)| (n.as_str(), *d, s.clone())).collect();
    safetensors(&refs)
}

/// Written out: per layer ln_1 16, c_attn 8*24+24 = 216, c_proj 64+8 = 72, ln_2 16,
/// c_fc 8*32+32 = 288, mlp.c_proj 32*8+8 = 264: 872; two layers 1744; wte 32*8 = 256,
/// wpe 16*8 = 128, ln_f 16: 2144.
const TINY_SCALARS: u64 = 2144;

fn tokenizer_config(template: &str) -> Vec<u8> {
    serde_json::to_vec(
        &serde_json::json!({"model_max_length": 16, "eos_token": "<|endoftext|>", "chat_template": template}),
    )
    .unwrap()
}

fn tiny_repo() -> Repo {
    let files: BTreeMap<String, Vec<u8>> = [
        ("config.json", config(16)),
        ("generation_config.json", br#"{"bos_token_id": 0, "eos_token_id": 0}"#.to_vec()),
        ("tokenizer_config.json", tokenizer_config("{{ messages }}")),
        ("model.safetensors", gpt2_tensors(16, false)),
        ("README.md", b"# tiny".to_vec()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    Repo::new("org", files)
}

fn start(repos: Vec<(&str, Repo)>) -> TestHub {
    TestHub::start(State {
        repos: repos.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        commits_page_size: 2,
        ..State::default()
    })
}

fn client(hub: &TestHub, token: Option<&str>) -> HubClient {
    HubClient::new(client_settings(hub, token))
}

fn client_settings(hub: &TestHub, token: Option<&str>) -> HubSettings {
    HubSettings {
        endpoint: hub.url.clone(),
        token: token.map(str::to_string),
        offline: false,
        user_agent: "modelatlas-test".into(),
        attempts: 3,
        backoff: Duration::from_millis(20),
        max_wait: Duration::from_secs(5),
        timeout: Duration::from_secs(10),
    }
}

fn ids(list: &[&str]) -> Vec<ModelId> {
    list.iter().map(|s| ModelId::parse(s).unwrap()).collect()
}

fn sync(
    hub: &TestHub,
    dir: &Path,
    list: &[&str],
    history: usize,
    token: Option<&str>,
) -> Vec<(ModelId, Outcome)> {
    let opts = SyncOptions { history, jobs: 2, shard: None };
    sync_all(&client(hub, token), dir, &ids(list), &opts, &|_, _| {}).models
}

fn meta(dir: &Path, id: &str) -> HubMeta {
    let folder = dir.join(format!("models--{}", id.replace('/', "--")));
    let sha = std::fs::read_to_string(folder.join("refs/main")).unwrap();
    serde_json::from_str(
        &std::fs::read_to_string(folder.join("snapshots").join(sha.trim()).join("modelatlas.json")).unwrap(),
    )
    .unwrap()
}

/// Every file under a folder with its bytes and modification time.
fn tree_state(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path().to_path_buf(),
                (std::fs::read(e.path()).unwrap(), e.metadata().unwrap().modified().unwrap()),
            )
        })
        .collect()
}

#[test]
fn a_sync_fills_the_cache_layout_with_files_info_and_the_tensor_table_read_by_range_only() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let head = hub.with_repo(TINY, |r| r.head().sha.clone());
    let dir = tempfile::tempdir().unwrap();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);

    let folder = dir.path().join("models--org--tiny");
    assert_eq!(std::fs::read_to_string(folder.join("refs/main")).unwrap(), head);
    let snap = folder.join("snapshots").join(&head);
    for f in ["config.json", "generation_config.json", "tokenizer_config.json", "modelatlas.json"] {
        assert!(snap.join(f).is_file(), "{f}");
    }
    assert!(!snap.join("model.safetensors").exists(), "weights are never downloaded");
    assert!(!snap.join("README.md").exists());

    let m = meta(dir.path(), TINY);
    let rec = m.hub.as_ref().unwrap();
    assert_eq!(rec.sha, head);
    assert_eq!(rec.likes, Some(10));
    assert_eq!(rec.license.as_deref(), Some("apache-2.0"));
    assert_eq!(rec.pipeline_tag.as_deref(), Some("text-generation"));
    assert_eq!(m.downloads.as_ref().unwrap().count, 1000);
    let ck = m.checkpoint.as_ref().unwrap();
    assert_eq!(ck.total_scalars, TINY_SCALARS);
    assert_eq!(ck.tensors.as_ref().unwrap().len(), 4 + 2 * 12);

    // Every byte range asked of the weights lies inside the 8-byte prefix and the header.
    let bytes = gpt2_tensors(16, false);
    let header_end = 8 + u64::from_le_bytes(bytes[..8].try_into().unwrap());
    let cdn: Vec<String> = hub.log().into_iter().filter(|l| l.contains("/cdn/")).collect();
    assert_eq!(cdn.len(), 2, "{cdn:?}");
    for l in &cdn {
        let end: u64 = l.rsplit('-').next().unwrap().parse().unwrap();
        assert!(end < header_end, "{l} reads past the header (ends at {header_end})");
    }

    // The snapshot plans with the real tensor list: matched by name, equal to the scalar.
    let files = HubCacheSource::new(dir.path()).load(&ModelId::parse(TINY).unwrap()).unwrap();
    let page = modelatlas::plan::plan(&files, None).unwrap();
    let params = page.params.unwrap();
    assert_eq!(params.derived, TINY_SCALARS);
    let recon = serde_json::to_value(&params.reconciliation).unwrap();
    assert_eq!(recon["method"], "tensor_list", "{recon}");
    assert_eq!(recon["status"], "equal", "{recon}");
}

#[test]
fn a_resync_with_nothing_changed_upstream_makes_one_request_and_writes_nothing() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 3, None);
    let before = tree_state(dir.path());
    hub.clear_log();
    std::thread::sleep(Duration::from_millis(20));
    let out = sync(&hub, dir.path(), &[TINY], 3, None);
    assert!(matches!(out[0].1, Outcome::Unchanged), "{:?}", out[0].1);
    assert_eq!(hub.log(), ["GET /api/models/org/tiny"]);
    assert_eq!(tree_state(dir.path()), before);
}

#[test]
fn a_gated_model_fails_without_a_token_and_syncs_with_a_granted_one() {
    let mut repo = tiny_repo();
    repo.gated = true;
    let hub = start(vec![(TINY, repo)]);
    hub.state.lock().unwrap().granted_tokens.push("hf_granted".into());
    let dir = tempfile::tempdir().unwrap();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    let Outcome::Failed(e) = &out[0].1 else { panic!("{:?}", out[0].1) };
    assert_eq!(e.kind(), "gated");
    assert!(e.to_string().contains("HF_TOKEN"), "{e}");
    assert!(!dir.path().join("models--org--tiny/refs/main").exists());

    let out = sync(&hub, dir.path(), &[TINY], 0, Some("hf_not_granted"));
    let Outcome::Failed(e) = &out[0].1 else { panic!("{:?}", out[0].1) };
    assert!(e.to_string().contains("accept"), "{e}");

    let out = sync(&hub, dir.path(), &[TINY], 0, Some("hf_granted"));
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);
    let log = hub.log();
    assert!(log.iter().any(|l| l.contains("/resolve/") && l.ends_with("[token]")), "{log:?}");
    assert!(log.iter().any(|l| l.contains("/cdn/")), "{log:?}");
    assert!(
        !log.iter().any(|l| l.contains("/cdn/") && l.ends_with("[token]")),
        "the token went to the CDN: {log:?}"
    );
    assert_eq!(meta(dir.path(), TINY).hub.unwrap().gated.as_deref(), Some("auto"));
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_modelatlas"));
    for k in ["HF_TOKEN", "HF_HUB_OFFLINE", "HF_ENDPOINT", "HF_TOKEN_PATH", "MODELATLAS_HUB"] {
        c.env_remove(k);
    }
    c
}

fn manifest(dir: &Path, list: &[&str]) -> PathBuf {
    let mut s = String::from("[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n");
    for id in list {
        s.push_str(&format!("[[model]]\nid = \"{id}\"\n"));
    }
    let p = dir.join("models.toml");
    std::fs::write(&p, s).unwrap();
    p
}

#[test]
fn a_missing_repository_fails_with_exit_1_and_the_others_are_still_synced() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), &["org/missing", TINY]);
    let out = bin()
        .args(["sync", "--manifest"])
        .arg(&m)
        .arg("--hub")
        .arg(dir.path().join("hub"))
        .env("HF_ENDPOINT", &hub.url)
        .env("HF_HOME", dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("org/missing") && stderr.contains("RepoNotFound"), "{stderr}");
    assert!(stderr.contains("1 failed"), "{stderr}");
    assert!(dir.path().join("hub/models--org--tiny/refs/main").is_file());
}

#[test]
fn offline_mode_refuses_at_once_without_a_request() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), &[TINY]);
    let out = bin()
        .args(["sync", "--manifest"])
        .arg(&m)
        .arg("--hub")
        .arg(dir.path().join("hub"))
        .env("HF_ENDPOINT", &hub.url)
        .env("HF_HOME", dir.path())
        .env("HF_HUB_OFFLINE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("HF_HUB_OFFLINE"), "{stderr}");
    assert!(hub.log().is_empty(), "{:?}", hub.log());
}

#[test]
fn a_429_with_retry_after_is_waited_out_then_the_sync_succeeds() {
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.add_fault(Fault::Status {
        path: "/api/models/org/tiny".into(),
        status: 429,
        retry_after: Some("1".into()),
        times: 1,
    });
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);
    assert!(t.elapsed() >= Duration::from_secs(1), "Retry-After: 1 was not honoured ({:?})", t.elapsed());
    let info_requests = hub.log().iter().filter(|l| *l == "GET /api/models/org/tiny").count();
    assert_eq!(info_requests, 2);
}

#[test]
fn a_429_with_retry_after_as_an_http_date_is_waited_out_until_that_date_and_capped() {
    let hub = start(vec![(TINY, tiny_repo())]);
    // Two seconds after the server's clock; the test Hub's `Date` header is the same clock, so
    // the wait is 2 s (1 to 2 s: both are whole seconds).
    let at = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(2));
    hub.add_fault(Fault::Status {
        path: "/api/models/org/tiny".into(),
        status: 429,
        retry_after: Some(at),
        times: 1,
    });
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);
    assert!(t.elapsed() >= Duration::from_millis(900), "the date was not honoured ({:?})", t.elapsed());

    // A date an hour ahead waits the client's cap (1 s here), not the hour.
    let hub = start(vec![(TINY, tiny_repo())]);
    let at = httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(3600));
    hub.add_fault(Fault::Status {
        path: "/api/models/org/tiny".into(),
        status: 503,
        retry_after: Some(at),
        times: 1,
    });
    let capped =
        HubClient::new(HubSettings { max_wait: Duration::from_secs(1), ..client_settings(&hub, None) });
    let dir = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let opts = SyncOptions { history: 0, jobs: 1, shard: None };
    let out = sync_all(&capped, dir.path(), &ids(&[TINY]), &opts, &|_, _| {}).models;
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);
    let waited = t.elapsed();
    assert!(
        waited >= Duration::from_secs(1) && waited < Duration::from_secs(30),
        "capped at 1 s: {waited:?}"
    );
}

#[test]
fn a_500_then_success_is_retried_and_a_500_every_time_fails_naming_the_status() {
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.add_fault(Fault::Status { path: "/resolve/".into(), status: 500, retry_after: None, times: 1 });
    let dir = tempfile::tempdir().unwrap();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);

    let hub = start(vec![(TINY, tiny_repo())]);
    hub.add_fault(Fault::Status { path: "/tree/".into(), status: 503, retry_after: None, times: 100 });
    let dir = tempfile::tempdir().unwrap();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    let Outcome::Failed(e) = &out[0].1 else { panic!("{:?}", out[0].1) };
    assert!(e.to_string().contains("HTTP 503") && e.to_string().contains("3 attempts"), "{e}");
    assert!(!dir.path().join("models--org--tiny/refs/main").exists());
}

#[test]
fn a_truncated_or_lying_safetensors_header_is_refused_by_name_and_the_model_stays_old() {
    // The header claims more data than the file holds: a lying header.
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 0, None);
    let old = tree_state(dir.path());
    let mut lying = gpt2_tensors(32, false);
    lying.truncate(lying.len() - 64);
    hub.with_repo(TINY, |r| {
        r.push("Update weights", "2026-02-01T00:00:00.000Z", vec![("model.safetensors", Some(lying))])
    });
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    let Outcome::Failed(e) = &out[0].1 else { panic!("{:?}", out[0].1) };
    assert_eq!(e.kind(), "bad safetensors header");
    assert!(e.to_string().contains("model.safetensors") && e.to_string().contains("lying"), "{e}");
    assert_eq!(tree_state(dir.path()), old, "a failed model is left as it was");

    // The CDN cuts the object inside the header: truncated.
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.add_fault(Fault::Truncate { path: "model.safetensors".into(), keep: 40 });
    let dir = tempfile::tempdir().unwrap();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    let Outcome::Failed(e) = &out[0].1 else { panic!("{:?}", out[0].1) };
    assert!(e.to_string().contains("truncated"), "{e}");
    assert!(
        std::fs::read_dir(dir.path().join("models--org--tiny"))
            .unwrap()
            .all(|e| { !e.unwrap().file_name().to_string_lossy().starts_with(".sync-") })
    );
}

#[test]
fn a_config_change_between_two_syncs_is_recorded_old_to_new_with_its_effect_on_parameters() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 5, None);
    assert_eq!(meta(dir.path(), TINY).changes.unwrap(), vec![], "one commit: nothing to compare");
    let sha = hub.with_repo(TINY, |r| {
        r.push(
            "Longer context",
            "2026-03-01T00:00:00.000Z",
            vec![("config.json", Some(config(32))), ("model.safetensors", Some(gpt2_tensors(32, false)))],
        )
    });
    hub.with_repo(TINY, |r| {
        r.push("Fix README", "2026-03-02T00:00:00.000Z", vec![("README.md", Some(b"#".to_vec()))])
    });
    let out = sync(&hub, dir.path(), &[TINY], 5, None);
    assert!(matches!(out[0].1, Outcome::Updated { changes: 1, .. }), "{:?}", out[0].1);
    let changes = meta(dir.path(), TINY).changes.unwrap();
    assert_eq!(changes.len(), 1, "the README commit touches nothing tracked");
    let c = &changes[0];
    assert_eq!(c.commit, sha);
    assert_eq!(c.title, "Longer context");
    let keys: Vec<(&str, String, String)> = c
        .config_changes
        .iter()
        .map(|k| (k.key.as_str(), k.old.as_ref().unwrap().to_string(), k.new.as_ref().unwrap().to_string()))
        .collect();
    assert_eq!(keys, [("n_ctx", "16".into(), "32".into()), ("n_positions", "16".into(), "32".into())]);
    assert!(c.weights_changed);
    assert_eq!(c.tensors_reshaped.len(), 1);
    assert_eq!(c.tensors_reshaped[0].name, "wpe.weight");
    // 16 more positions of 8: 2144 + 128 = 2272, in the plan and in the checkpoint.
    let effect = c.effect.as_deref().unwrap();
    assert!(effect.contains("parameters 2,144 -> 2,272"), "{effect}");
    assert!(effect.contains("checkpoint scalars 2,144 -> 2,272"), "{effect}");
    assert!(c.lines().contains(&"n_positions 16 -> 32".to_string()), "{:?}", c.lines());
}

#[test]
fn a_chat_template_change_is_flagged_and_is_not_a_tokenizer_change() {
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.with_repo(TINY, |r| {
        r.push(
            "New chat template",
            "2026-04-01T00:00:00.000Z",
            vec![(
                "tokenizer_config.json",
                Some(tokenizer_config("{% for m in messages %}{{ m }}{% endfor %}")),
            )],
        )
    });
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 5, None);
    let changes = meta(dir.path(), TINY).changes.unwrap();
    assert_eq!(changes.len(), 1);
    assert!(changes[0].chat_template_changed);
    assert!(!changes[0].tokenizer_changed && !changes[0].weights_changed);
    assert!(changes[0].config_changes.is_empty());
    assert_eq!(changes[0].effect, None);
    assert_eq!(changes[0].lines(), ["chat template changed"]);
}

#[test]
fn a_weights_change_that_unties_the_head_lists_the_added_tensor() {
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.with_repo(TINY, |r| {
        r.push(
            "Untie head",
            "2026-05-01T00:00:00.000Z",
            vec![("model.safetensors", Some(gpt2_tensors(16, true)))],
        )
    });
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 5, None);
    let changes = meta(dir.path(), TINY).changes.unwrap();
    assert_eq!(changes.len(), 1);
    let c = &changes[0];
    assert!(c.weights_changed);
    assert_eq!(c.tensors_added, ["lm_head.weight"]);
    assert!(c.tensors_removed.is_empty());
    assert_eq!(c.lines(), ["lm_head.weight added: the head is no longer tied"]);
    // The head adds 32 x 8 = 256 scalars: 2144 -> 2400.
    assert_eq!(c.effect.as_deref(), Some("checkpoint scalars 2,144 -> 2,400"));
}

#[test]
fn a_commit_dated_in_another_form_than_rfc_3339_utc_fails_the_model_naming_the_route() {
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.with_repo(TINY, |r| {
        r.push("Odd date", "Sun, 01 Mar 2026 00:00:00 GMT", vec![("config.json", Some(config(32)))])
    });
    let dir = tempfile::tempdir().unwrap();
    let out = sync(&hub, dir.path(), &[TINY], 5, None);
    let Outcome::Failed(e) = &out[0].1 else { panic!("{:?}", out[0].1) };
    let e = e.to_string();
    assert!(e.contains("commits/main") && e.contains("RFC 3339") && e.contains("Sun, 01 Mar"), "{e}");
    assert!(!dir.path().join("models--org--tiny/refs/main").exists(), "nothing half written");
}

#[test]
fn commits_are_read_across_link_pages_up_to_the_history_limit() {
    let hub = start(vec![(TINY, tiny_repo())]);
    for i in 0..4u64 {
        hub.with_repo(TINY, |r| {
            r.push(&format!("c{i}"), "2026-06-01T00:00:00.000Z", vec![("config.json", Some(config(17 + i)))])
        });
    }
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 3, None);
    let titles: Vec<String> = meta(dir.path(), TINY).changes.unwrap().into_iter().map(|c| c.title).collect();
    assert_eq!(titles, ["c3", "c2", "c1"]);
    // Pages of 2: history 3 needs 4 commits, so pages 0 and 1.
    let pages = hub.log().iter().filter(|l| l.contains("/commits/main")).count();
    assert_eq!(pages, 2, "{:?}", hub.log());
}

#[test]
fn an_interrupted_sync_leaves_the_model_old_and_the_next_sync_completes_it() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    let m = manifest(dir.path(), &[TINY]);
    let hubdir = dir.path().join("hub");
    let run = || {
        let mut c = bin();
        c.args(["sync", "--history", "0", "--manifest"])
            .arg(&m)
            .arg("--hub")
            .arg(&hubdir)
            .env("HF_ENDPOINT", &hub.url)
            .env("HF_HOME", dir.path());
        c
    };
    assert!(run().output().unwrap().status.success());
    let old = tree_state(&hubdir);
    let new_sha = hub.with_repo(TINY, |r| {
        r.push(
            "bigger",
            "2026-07-01T00:00:00.000Z",
            vec![("config.json", Some(config(32))), ("model.safetensors", Some(gpt2_tensors(32, false)))],
        )
    });
    hub.add_fault(Fault::Stall { path: "/cdn/".into() });
    let mut child =
        run().stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let t = Instant::now();
    while !hub.log().iter().any(|l| l.contains("/cdn/")) {
        assert!(t.elapsed() < Duration::from_secs(30), "the sync never reached the weights");
        std::thread::sleep(Duration::from_millis(20));
    }
    // By now config.json of the new head is staged; kill the sync mid-model.
    child.kill().unwrap();
    child.wait().unwrap();
    let after: BTreeMap<_, _> =
        tree_state(&hubdir).into_iter().filter(|(p, _)| !p.to_string_lossy().contains("/.sync-")).collect();
    assert_eq!(after, old, "the model is the old one, whole");

    hub.state.lock().unwrap().faults.clear();
    assert!(run().output().unwrap().status.success());
    assert_eq!(std::fs::read_to_string(hubdir.join("models--org--tiny/refs/main")).unwrap(), new_sha);
    assert!(
        std::fs::read_dir(hubdir.join("models--org--tiny"))
            .unwrap()
            .all(|e| { !e.unwrap().file_name().to_string_lossy().starts_with(".sync-") })
    );
}

#[test]
fn shards_split_a_list_without_overlap_and_sync_only_their_part() {
    let list: Vec<String> = (0..200).map(|i| format!("org{}/m{i}", i % 7)).collect();
    let all: Vec<ModelId> = list.iter().map(|s| ModelId::parse(s).unwrap()).collect();
    let mut counts = [0usize; 4];
    for id in &all {
        let s = modelatlas::sync::shard_of(id, 4);
        counts[s as usize] += 1;
        assert_eq!(s, modelatlas::sync::shard_of(id, 4), "stable");
    }
    assert_eq!(counts.iter().sum::<usize>(), 200);
    assert!(counts.iter().all(|c| *c > 20), "{counts:?}");

    let hub = start(vec![(TINY, tiny_repo()), ("org/other", tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    let both = ids(&[TINY, "org/other"]);
    let mut synced = 0;
    for k in 1..=2 {
        let opts = SyncOptions { history: 0, jobs: 1, shard: Some((k, 2)) };
        synced += sync_all(&client(&hub, None), dir.path(), &both, &opts, &|_, _| {}).models.len();
    }
    assert_eq!(synced, 2, "each model in exactly one of the two shards");
}

#[test]
fn a_synced_snapshot_builds_pages_with_change_sections_feeds_and_schema_valid_json() {
    let hub = start(vec![(TINY, tiny_repo())]);
    hub.with_repo(TINY, |r| {
        r.push(
            "Longer <context>",
            "2026-03-01T00:00:00.000Z",
            vec![("config.json", Some(config(32))), ("model.safetensors", Some(gpt2_tensors(32, false)))],
        )
    });
    let dir = tempfile::tempdir().unwrap();
    let hubdir = dir.path().join("hub");
    sync(&hub, &hubdir, &[TINY], 5, None);
    let m = manifest(dir.path(), &[TINY]);
    let site = dir.path().join("site");
    let out = bin()
        .args(["build", "--manifest"])
        .arg(&m)
        .arg("--hub")
        .arg(&hubdir)
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let html = std::fs::read_to_string(site.join("models/org/tiny.html")).unwrap();
    assert!(html.contains("What changed upstream"), "no section");
    assert!(html.contains("n_positions 16 -&gt; 32"), "the key change, escaped");
    assert!(html.contains("Longer &lt;context&gt;"), "the title, escaped");
    assert!(html.contains("parameters 2,144 -&gt; 2,272"), "the effect");
    assert!(html.contains("tiny.atom"));
    // Provenance in short: what, where, when.
    assert!(html.contains("Hub API <code>safetensors.total</code>, read "), "the checkpoint's source");
    assert!(html.contains("Config: config.json at "), "the config's revision");
    let md = std::fs::read_to_string(site.join("models/org/tiny.md")).unwrap();
    // Markdown-escaped: `\>` renders as `>`.
    assert!(md.contains("## What changed upstream") && md.contains("  - n_positions 16 -\\> 32"), "{md}");

    let atom = std::fs::read_to_string(site.join("models/org/tiny.atom")).unwrap();
    assert_eq!(atom.matches("<entry>").count(), 1);
    assert!(atom.contains("<updated>2026-03-01T00:00:00.000Z</updated>"));
    assert!(atom.contains("Longer &lt;context&gt;"));
    // Its entry has no author of its own, so the feed names one (RFC 4287 4.1.1).
    assert!(atom.contains("<author><name>t</name></author>"), "{atom}");
    let all = std::fs::read_to_string(site.join("changes.atom")).unwrap();
    assert_eq!(all.matches("<entry>").count(), 1);
    let recent = std::fs::read_to_string(site.join("changes.html")).unwrap();
    assert!(recent.contains("tiny.html#change-") && recent.contains("Longer &lt;context&gt;"), "{recent}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("models/org/tiny.json")).unwrap()).unwrap();
    assert_eq!(json["source"]["downloads"]["count"], 1000);
    assert_eq!(json["source"]["likes"], 10);
    assert_eq!(json["source"]["gated"], serde_json::Value::Null);
    assert_eq!(json["source"]["last_modified"], "2026-03-01T00:00:00.000Z");
    // 2144 + 16 more positions of 8.
    assert_eq!(json["params"]["checkpoint"], 2272);
    assert_eq!(json["params"]["reconciliation"]["method"], "tensor_list");
    assert_eq!(json["changes"][0]["config_changes"][1]["key"], "n_positions");
    assert_eq!(json["changes"][0]["config_changes"][1]["old"], 16);
    assert_eq!(json["changes"][0]["config_changes"][1]["new"], 32);
    // The change alters the plan, so it has an OSV document (tests/osv.rs validates them).
    let osv = json["changes"][0]["osv"].as_str().unwrap();
    assert!(osv.starts_with("models/org/tiny/osv/MODELATLAS-"), "{osv}");
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(site.join(osv)).unwrap()).unwrap();
    assert_eq!(doc["modified"], "2026-03-01T00:00:00.000Z");
    assert_eq!(doc["affected"][0]["ranges"][0]["events"][0]["introduced"], json["changes"][0]["commit"]);

    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    for (name, text) in modelatlas::render::SCHEMAS {
        compiler
            .add_resource(&format!("file:///schema/{name}"), serde_json::from_str(text).unwrap())
            .unwrap();
    }
    let model = compiler.compile("file:///schema/model.schema.json", &mut schemas).unwrap();
    if let Err(e) = schemas.validate(&json, model) {
        panic!("the synced model's JSON breaks the schema:\n{e:#}");
    }
}

#[test]
fn discovery_expands_to_the_most_downloaded_matches_into_a_lock_that_build_reads() {
    let mut repos = vec![];
    for (id, author, downloads, tag) in [
        ("org/a", "org", 10, "text-generation"),
        ("org/b", "org", 30, "text-generation"),
        ("org/c", "org", 20, "text-generation"),
        ("org/d", "org", 99, "fill-mask"),
        ("other/e", "other", 500, "text-generation"),
    ] {
        let mut r = tiny_repo();
        r.author = author.into();
        r.downloads = downloads;
        r.pipeline_tag = Some(tag.into());
        repos.push((id, r));
    }
    let hub = start(repos);
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("models.toml");
    std::fs::write(
        &m,
        "[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n[discover]\ntop = 2\nauthor = \"org\"\npipeline_tag = \"text-generation\"\n",
    )
    .unwrap();
    // Before any sync, build refuses and says why.
    let out = bin().args(["build", "--manifest"]).arg(&m).arg("--hub").arg(dir.path()).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("models.lock") && stderr.contains("modelatlas sync"), "{stderr}");

    let hubdir = dir.path().join("hub");
    let sync = || {
        bin()
            .args(["sync", "--history", "0", "--manifest"])
            .arg(&m)
            .arg("--hub")
            .arg(&hubdir)
            .env("HF_ENDPOINT", &hub.url)
            .env("HF_HOME", dir.path())
            .output()
            .unwrap()
    };
    let out = sync();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // org's text-generation models by downloads: b (30), c (20); a (10) is third.
    let manifest = modelatlas::manifest::Manifest::load(&m).unwrap();
    let listed: Vec<String> = manifest.models.iter().map(ToString::to_string).collect();
    assert_eq!(listed, ["org/b", "org/c"]);
    assert!(hubdir.join("models--org--b/refs/main").is_file() && !hubdir.join("models--org--a").exists());

    let lock = dir.path().join("models.lock");
    let before = std::fs::metadata(&lock).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    assert!(sync().status.success());
    assert_eq!(
        std::fs::metadata(&lock).unwrap().modified().unwrap(),
        before,
        "same list: the lock is not rewritten"
    );
}

/// The test Hub against the real `huggingface_hub` (outside CI: it needs Python and the package).
/// `MODELATLAS_PYTHON=/path/to/venv/bin/python cargo test --test sync -- --ignored real_python_client`
#[test]
#[ignore = "needs Python with huggingface_hub; run by hand (tools/validate_test_hub.py)"]
fn real_python_client_agrees_with_the_test_hub() {
    let python = std::env::var("MODELATLAS_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut gated = tiny_repo();
    gated.gated = true;
    let mut other = tiny_repo();
    other.downloads = 5000;
    let hub = start(vec![(TINY, tiny_repo()), ("org/gated", gated), ("org/other", other)]);
    hub.with_repo(TINY, |r| {
        r.push("Longer context", "2026-03-01T00:00:00.000Z", vec![("config.json", Some(config(32)))]);
        r.push(
            "Template",
            "2026-04-01T12:30:00.000Z",
            vec![("tokenizer_config.json", Some(tokenizer_config("x")))],
        );
    });
    let (head, commits, titles, files, config_text, st) = hub.with_repo(TINY, |r| {
        (
            r.head().sha.clone(),
            r.commits.iter().map(|c| c.sha.clone()).collect::<Vec<_>>(),
            r.commits.iter().map(|c| c.title.clone()).collect::<Vec<_>>(),
            r.head().files.keys().cloned().collect::<Vec<_>>(),
            String::from_utf8(r.head().files["config.json"].clone()).unwrap(),
            r.head().files["model.safetensors"].clone(),
        )
    });
    // The tensors as written by gpt2_tensors(16, false), shapes by name.
    let n = u64::from_le_bytes(st[..8].try_into().unwrap()) as usize;
    let header: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&st[8..8 + n]).unwrap();
    let tensors: serde_json::Map<String, serde_json::Value> = header
        .into_iter()
        .filter(|(k, _)| k != "__metadata__")
        .map(|(k, v)| (k, v["shape"].clone()))
        .collect();
    let expected = serde_json::json!({
        "model": TINY, "head": head, "downloads": 1000, "likes": 10, "pipeline_tag": "text-generation",
        "last_modified": "2026-04-01T12:30:00", "total": TINY_SCALARS, "files": files, "commits": commits,
        "titles": titles, "config": config_text, "safetensors_sha256": hub::sha256_hex(&st),
        "safetensors_size": st.len(), "tensors": tensors, "list_limit": 2,
        "listed": ["org/other", "org/gated"], "gated": "org/gated",
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("expected.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&expected).unwrap()).unwrap();
    let out = Command::new(python)
        .arg(common_repo().join("tools/validate_test_hub.py"))
        .arg(&hub.url)
        .arg(&path)
        .output()
        .unwrap();
    let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{report}");
    assert!(out.status.success(), "{report}");
}

fn common_repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn plan_fetches_a_model_missing_from_the_snapshot_into_the_user_cache_and_offline_says_what_is_missing() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("snapshot");
    std::fs::create_dir(&empty).unwrap();
    let cache = dir.path().join("cache");
    let plan = |offline: bool| {
        let mut c = bin();
        c.args(["plan", TINY, "--format", "json", "--hub"])
            .arg(&empty)
            .env("HF_ENDPOINT", &hub.url)
            .env("HF_HUB_CACHE", &cache)
            .env("HF_HOME", dir.path());
        if offline {
            c.env("HF_HUB_OFFLINE", "1");
        }
        c.output().unwrap()
    };
    let out = plan(true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("HF_HUB_OFFLINE")
            && stderr.contains("config.json")
            && stderr.contains("not in the snapshot"),
        "{stderr}"
    );
    assert!(hub.log().is_empty());

    let out = plan(false);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["params"]["derived"], TINY_SCALARS);
    assert_eq!(v["params"]["checkpoint"], TINY_SCALARS);
    assert!(cache.join("models--org--tiny/refs/main").is_file());
    assert!(!empty.join("models--org--tiny").exists(), "the shipped snapshot is left alone");

    // Now in the user's cache: offline works, with no request.
    hub.clear_log();
    assert!(plan(true).status.success());
    assert!(hub.log().is_empty());
}

#[test]
fn a_new_head_that_changed_no_tracked_file_reuses_the_files_by_content_id_instead_of_fetching() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 0, None);
    let new = hub.with_repo(TINY, |r| {
        r.push("Docs", "2026-08-01T00:00:00.000Z", vec![("README.md", Some(b"#".to_vec()))])
    });
    hub.clear_log();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    assert!(matches!(out[0].1, Outcome::Updated { .. }), "{:?}", out[0].1);
    let log = hub.log();
    // The info and the tree; no file, no header: their content ids did not change.
    assert_eq!(log.len(), 2, "{log:?}");
    let snap = dir.path().join("models--org--tiny/snapshots").join(&new);
    assert_eq!(std::fs::read(snap.join("config.json")).unwrap(), config(16));
    assert_eq!(meta(dir.path(), TINY).checkpoint.unwrap().tensors.unwrap().len(), 28);
}

#[test]
fn moved_downloads_on_an_unchanged_head_rewrite_only_the_metadata() {
    let hub = start(vec![(TINY, tiny_repo())]);
    let dir = tempfile::tempdir().unwrap();
    sync(&hub, dir.path(), &[TINY], 0, None);
    let before = tree_state(dir.path());
    hub.with_repo(TINY, |r| r.downloads = 2500);
    hub.clear_log();
    let out = sync(&hub, dir.path(), &[TINY], 0, None);
    assert!(matches!(out[0].1, Outcome::Refreshed), "{:?}", out[0].1);
    assert_eq!(hub.log(), ["GET /api/models/org/tiny"]);
    let after = tree_state(dir.path());
    let changed: Vec<String> = after
        .iter()
        .filter(|(p, v)| before.get(*p).map(|b| &b.0) != Some(&v.0))
        .map(|(p, _)| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(changed, ["modelatlas.json"]);
    assert_eq!(meta(dir.path(), TINY).downloads.unwrap().count, 2500);
}

#[test]
fn discover_only_writes_the_lock_and_a_sharded_sync_splits_that_list_without_asking_again() {
    let mut repos = vec![];
    for (id, downloads) in [("org/a", 10), ("org/b", 30)] {
        let mut r = tiny_repo();
        r.downloads = downloads;
        repos.push((id, r));
    }
    let hub = start(repos);
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("models.toml");
    std::fs::write(&m, "[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n[discover]\ntop = 5\n")
        .unwrap();
    let hubdir = dir.path().join("hub");
    let run = |extra: &[&str]| {
        bin()
            .args(["sync", "--history", "0", "--manifest"])
            .arg(&m)
            .arg("--hub")
            .arg(&hubdir)
            .args(extra)
            .env("HF_ENDPOINT", &hub.url)
            .env("HF_HOME", dir.path())
            .output()
            .unwrap()
    };
    assert!(run(&["--discover-only"]).status.success());
    assert!(dir.path().join("models.lock").is_file());
    assert!(!hubdir.join("models--org--a").exists(), "discover-only syncs nothing");
    hub.clear_log();
    for k in ["1/2", "2/2"] {
        let out = run(&["--shard", k]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert!(!hub.log().iter().any(|l| l.starts_with("GET /api/models?")), "{:?}", hub.log());
    assert!(
        hubdir.join("models--org--a/refs/main").is_file()
            && hubdir.join("models--org--b/refs/main").is_file()
    );
}
