//! The bad-input corpus: every `tests/corpus/<area>/<case>.toml` runs the real binary on a folder
//! of hostile or broken files and states what must come out: the exit status and the words of
//! the message. A case also fails if the program panics or runs past its time limit.
//!
//! The case format (each key is explained in `tests/corpus/README.md`):
//! `about`, `args` (with `{dir}` and `{repo}`), `exit`, `stderr`, `not_stderr`, `stdout`, `dirs`,
//! `fifos`, `[files]`, `[symlinks]`, `[sized]`.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

const TIME_LIMIT: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    about: String,
    args: Vec<String>,
    exit: i32,
    #[serde(default)]
    stderr: Vec<String>,
    #[serde(default)]
    not_stderr: Vec<String>,
    #[serde(default)]
    stdout: Vec<String>,
    #[serde(default)]
    dirs: Vec<String>,
    #[serde(default)]
    fifos: Vec<String>,
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    symlinks: BTreeMap<String, String>,
    #[serde(default)]
    sized: BTreeMap<String, u64>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cases() -> Vec<(String, PathBuf)> {
    let root = repo().join("tests/corpus");
    let mut out: Vec<(String, PathBuf)> = walkdir::WalkDir::new(&root)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "toml"))
        .map(|e| {
            let name = e.path().strip_prefix(&root).unwrap_or(e.path()).to_string_lossy().into_owned();
            (name, e.path().to_path_buf())
        })
        .collect();
    out.sort();
    out
}

fn parent_made(path: &Path) -> Result<(), String> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| format!("making {}: {e}", p.display()))?;
    }
    Ok(())
}

/// Lays out the case's files in `dir`.
fn lay_out(case: &Case, dir: &Path) -> Result<(), String> {
    for d in &case.dirs {
        std::fs::create_dir_all(dir.join(d)).map_err(|e| format!("dir {d}: {e}"))?;
    }
    for (rel, text) in &case.files {
        let p = dir.join(rel);
        parent_made(&p)?;
        std::fs::write(&p, text).map_err(|e| format!("file {rel}: {e}"))?;
    }
    for (rel, size) in &case.sized {
        let p = dir.join(rel);
        parent_made(&p)?;
        let f = std::fs::File::create(&p).map_err(|e| format!("sized {rel}: {e}"))?;
        f.set_len(*size).map_err(|e| format!("sized {rel}: {e}"))?;
    }
    for (rel, target) in &case.symlinks {
        let p = dir.join(rel);
        parent_made(&p)?;
        std::os::unix::fs::symlink(target, &p).map_err(|e| format!("symlink {rel}: {e}"))?;
    }
    for rel in &case.fifos {
        let p = dir.join(rel);
        parent_made(&p)?;
        let ok = Command::new("mkfifo").arg(&p).status().map_err(|e| format!("mkfifo: {e}"))?.success();
        if !ok {
            return Err(format!("mkfifo {rel} failed"));
        }
    }
    Ok(())
}

/// Runs one case; `Err` says what went wrong.
fn run_case(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let case: Case = toml::from_str(&text).map_err(|e| format!("the case file does not parse: {e}"))?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let logs = tempfile::tempdir().map_err(|e| e.to_string())?;
    lay_out(&case, dir.path())?;
    let fill = |a: &String| {
        a.replace("{dir}", &dir.path().to_string_lossy()).replace("{repo}", &repo().to_string_lossy())
    };
    let args: Vec<String> = case.args.iter().map(fill).collect();
    let out_path = logs.path().join("stdout");
    let err_path = logs.path().join("stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .args(&args)
        .current_dir(dir.path())
        .env_remove("MODELATLAS_HUB")
        .env("HF_HUB_OFFLINE", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).map_err(|e| e.to_string())?)
        .stderr(std::fs::File::create(&err_path).map_err(|e| e.to_string())?)
        .spawn()
        .map_err(|e| format!("spawning the binary: {e}"))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("ran past {} s: {:?}", TIME_LIMIT.as_secs(), case.args));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let mut problems = vec![];
    if stderr.contains("panicked") {
        problems.push("the program panicked".to_string());
    }
    if status.code() != Some(case.exit) {
        problems.push(format!("exit {:?}, expected {}", status.code(), case.exit));
    }
    for w in &case.stderr {
        if !stderr.contains(w.as_str()) {
            problems.push(format!("stderr lacks {w:?}"));
        }
    }
    for w in &case.not_stderr {
        if stderr.contains(w.as_str()) {
            problems.push(format!("stderr holds {w:?}"));
        }
    }
    for w in &case.stdout {
        if !stdout.contains(w.as_str()) {
            problems.push(format!("stdout lacks {w:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        let cut = |s: &str| s.chars().take(1500).collect::<String>();
        Err(format!(
            "{} ({})\n    stderr: {}\n    stdout: {}",
            problems.join("; "),
            case.about,
            cut(&stderr).replace('\n', "\n            "),
            cut(&stdout).replace('\n', "\n            ")
        ))
    }
}

#[test]
fn every_bad_input_in_the_corpus_gets_its_stated_status_and_message_and_no_panic() {
    let cases = cases();
    let mut failures = vec![];
    for (name, path) in &cases {
        if let Err(why) = run_case(path) {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    eprintln!("{} corpus cases passed", cases.len());
}

#[test]
fn the_corpus_covers_each_kind_of_input() {
    let cases = cases();
    assert!(cases.len() >= 80, "the corpus has only {} cases", cases.len());
    for area in ["config", "metadata", "index", "refs", "manifest", "out", "cards", "ids", "plan"] {
        let n = cases.iter().filter(|(name, _)| name.starts_with(&format!("{area}/"))).count();
        assert!(n >= 1, "no corpus case for {area}");
    }
}
