//! What the user reads when an input is bad: each cause once, and a bad file failing only its
//! own model. (The bad-input corpus checks the words of each message; these check what a word
//! list cannot: counts, and the files a build still writes.)

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modelatlas")).current_dir(dir).args(args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const SITE: &str = "[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n";

fn build(dir: &Path) -> Output {
    run(dir, &["build", "--manifest", "models.toml", "--hub", "hub", "--out", "site"])
}

#[test]
fn a_models_toml_syntax_error_prints_its_snippet_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hub")).unwrap();
    std::fs::write(dir.path().join("models.toml"), format!("{SITE}[[model]]\nid = [\n")).unwrap();
    let out = build(dir.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("unclosed array").count(), 1, "{err}");
    assert_eq!(err.matches("id = [").count(), 1, "{err}");
}

#[test]
fn a_bad_model_id_in_models_toml_prints_its_reason_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hub")).unwrap();
    std::fs::write(dir.path().join("models.toml"), format!("{SITE}[[model]]\nid = \"a/b/c\"\n")).unwrap();
    let out = build(dir.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("more than one `/`").count(), 1, "{err}");
    assert!(err.contains("model entry 1 (line 5)"), "{err}");
}

/// Lays out `org/<name>` in `hub/` with a real config (gpt2's, from the repository's hub/).
fn snapshot_model(hub: &Path, name: &str) -> std::path::PathBuf {
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let repo = hub.join(format!("models--org--{name}"));
    std::fs::create_dir_all(repo.join("refs")).unwrap();
    std::fs::write(repo.join("refs/main"), commit).unwrap();
    let snap = repo.join("snapshots").join(commit);
    std::fs::create_dir_all(&snap).unwrap();
    std::fs::write(snap.join("config.json"), common::reference_config("openai-community--gpt2")).unwrap();
    snap
}

#[test]
fn a_config_over_the_limit_fails_its_own_model_and_the_others_are_built() {
    let dir = tempfile::tempdir().unwrap();
    let hub = dir.path().join("hub");
    snapshot_model(&hub, "ok");
    let big = snapshot_model(&hub, "big");
    // 200 MB, sparse: the size a config must never be read at (16 MiB is the limit).
    std::fs::File::create(big.join("config.json")).unwrap().set_len(200_000_000).unwrap();
    std::fs::write(
        dir.path().join("models.toml"),
        format!("{SITE}[[model]]\nid = \"org/big\"\n[[model]]\nid = \"org/ok\"\n"),
    )
    .unwrap();
    let out = build(dir.path());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("org/big") && err.contains("larger than the 16 MiB limit"), "{err}");
    let models = dir.path().join("site/models/org");
    assert!(models.join("ok.html").is_file() && models.join("ok.json").is_file(), "{err}");
    assert!(!models.join("big.html").exists());
}

#[test]
fn a_fifo_config_fails_its_model_at_once_in_a_build() {
    let dir = tempfile::tempdir().unwrap();
    let hub = dir.path().join("hub");
    snapshot_model(&hub, "ok");
    let fifo = snapshot_model(&hub, "fifo").join("config.json");
    std::fs::remove_file(&fifo).unwrap();
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    std::fs::write(
        dir.path().join("models.toml"),
        format!("{SITE}[[model]]\nid = \"org/fifo\"\n[[model]]\nid = \"org/ok\"\n"),
    )
    .unwrap();
    let out = build(dir.path());
    let err = stderr(&out);
    assert!(err.contains("org/fifo") && err.contains("FIFO"), "{err}");
    assert!(dir.path().join("site/models/org/ok.html").is_file(), "{err}");
}
