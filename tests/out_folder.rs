//! The output folder survives anything: the real binary killed with SIGKILL at random moments,
//! two builds at once, what killed builds leave behind, and `--out` values a build must refuse.

#![cfg(unix)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use modelatlas::output::SiteWriter;

fn bin(cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_modelatlas"));
    c.current_dir(cwd).env_remove("MODELATLAS_HUB").stdin(Stdio::null());
    c
}

fn build(cwd: &Path, manifest: &Path, out: &Path) -> Command {
    let mut c = bin(cwd);
    c.arg("build").arg("--manifest").arg(manifest).arg("--hub").arg(common::repo().join("hub"));
    c.arg("--out").arg(out).args(["--jobs", "1"]);
    c
}

fn run(mut c: Command) -> Output {
    c.output().unwrap()
}

/// Every file under `dir` (relative path -> bytes); `None` when `dir` does not exist.
fn tree(dir: &Path) -> Option<BTreeMap<String, Vec<u8>>> {
    if !dir.exists() {
        return None;
    }
    let mut files = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).into_iter().map(Result::unwrap) {
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            files.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    Some(files)
}

/// Names in `dir` other than the site and its lock file.
fn leftovers(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n != "site"
                && !n.ends_with(".modelatlas-lock")
                && !n.ends_with(".modelatlas-cache")
                && !n.ends_with(".toml")
                && !n.starts_with("ref-")
        })
        .collect();
    v.sort();
    v
}

fn bytes_under(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir).into_iter().map(|e| e.unwrap().metadata().unwrap().len()).sum()
}

/// Two manifests whose sites differ: the repository's first twelve models, and its first four.
struct Fixture {
    dir: tempfile::TempDir,
    a: PathBuf,
    b: PathBuf,
    site_a: BTreeMap<String, Vec<u8>>,
    site_b: BTreeMap<String, Vec<u8>>,
    /// How long an uninterrupted build of `a` took.
    build_a: Duration,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(common::repo().join("models.toml")).unwrap();
    let cut = |n: usize| text.match_indices("[[model]]").nth(n).map_or(text.len(), |(i, _)| i);
    let (a, b) = (dir.path().join("a.toml"), dir.path().join("b.toml"));
    std::fs::write(&a, &text[..cut(12)]).unwrap();
    std::fs::write(&b, &text[..cut(4)]).unwrap();
    let start = Instant::now();
    let out = run(build(dir.path(), &a, &dir.path().join("ref-a")));
    let build_a = start.elapsed();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(build(dir.path(), &b, &dir.path().join("ref-b")));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let site_a = tree(&dir.path().join("ref-a")).unwrap();
    let site_b = tree(&dir.path().join("ref-b")).unwrap();
    assert_ne!(site_a, site_b);
    Fixture { dir, a, b, site_a, site_b, build_a }
}

/// xorshift64: the delays are random, and the seed is printed so a failure can be replayed.
struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn a_build_killed_at_any_moment_leaves_the_old_site_or_the_new_one_whole_and_at_most_one_leftover() {
    let f = fixture();
    let root = f.dir.path();
    let site = root.join("site");
    let out = run(build(root, &f.a, &site));
    assert!(out.status.success());
    let seed = std::env::var("MODELATLAS_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1
    });
    let mut rng = Rng(seed);
    // MODELATLAS_KILLS for a longer run.
    let kills = std::env::var("MODELATLAS_KILLS").ok().and_then(|s| s.parse().ok()).unwrap_or(24);
    let mut moments: BTreeMap<&str, usize> = BTreeMap::new();
    let mut most_left = 0u64;
    let mut took = f.build_a;
    for i in 0..kills {
        let before = tree(&site).unwrap();
        let (manifest, next) = if before == f.site_a { (&f.b, &f.site_b) } else { (&f.a, &f.site_a) };
        // A third over the whole build, a third around its end; a third aimed at the swap itself,
        // a few milliseconds wide: the binary has no test hook, so watch for the last files the
        // staging folder gets, then kill 0-10 ms later.
        let (frac, near_swap) = match i % 3 {
            0 => (rng.unit(), false),
            1 => (0.75 + 0.35 * rng.unit(), false),
            _ => (rng.unit() * 0.010, true),
        };
        let start = Instant::now();
        let mut child =
            build(root, manifest, &site).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        let staging = root.join(format!(".site.modelatlas-staging-{}", child.id()));
        let mut finished = false;
        let delay = if near_swap {
            while !staging.join(".nojekyll").exists() && !finished && start.elapsed() < took * 10 {
                finished = child.try_wait().unwrap().is_some();
                std::thread::sleep(Duration::from_micros(100));
            }
            start.elapsed() + Duration::from_secs_f64(frac)
        } else {
            took.mul_f64(frac)
        };
        while start.elapsed() < delay && !finished {
            finished = child.try_wait().unwrap().is_some();
            std::thread::sleep(Duration::from_micros(if near_swap { 100 } else { 2000 }));
        }
        if finished && !near_swap {
            // The machine is slower or faster than when measured: follow it.
            took = (took + start.elapsed()) / 2;
        }
        finished |= child.try_wait().unwrap().is_some();
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();

        let ctx = format!("kill {i} at {delay:?} (seed {seed}; MODELATLAS_KILL_SEED replays it)");
        let now = tree(&site).unwrap_or_else(|| panic!("the site is missing after {ctx}"));
        assert!(now == before || &now == next, "the site is neither the old one nor the new one after {ctx}");
        let left = leftovers(root);
        // A build killed before its cleanup leaves the previous one's folder; never two.
        assert!(left.len() <= 1, "after {ctx}: {left:?}");
        assert!(left.iter().all(|l| l.starts_with(".site.modelatlas-staging-")), "after {ctx}: {left:?}");
        if let Some(l) = left.first() {
            most_left = most_left.max(bytes_under(&root.join(l)));
        }
        let own = left.contains(&format!(".site.modelatlas-staging-{}", child.id()));
        let moment = match (finished, now == before, own) {
            (true, _, _) => "after the build finished",
            (false, true, false) => "before the staging folder was made",
            (false, true, true) => "while writing the staging folder",
            (false, false, true) => "after the swap, while removing the old site",
            (false, false, false) => "after the swap and the removal",
        };
        *moments.entry(moment).or_default() += 1;
    }
    eprintln!("{kills} kills (seed {seed}, a build took {:?}, then {took:?}): {moments:?}", f.build_a);
    assert!(
        moments.get("after the build finished").copied().unwrap_or(0) < kills,
        "no kill landed mid-build"
    );

    // The next build cleans up what the killed ones left, and only that.
    let out = run(build(root, &f.a, &site));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(leftovers(root), Vec::<String>::new());
    assert_eq!(tree(&site).unwrap(), f.site_a);
    eprintln!("largest leftover after a kill: {most_left} bytes");
}

#[test]
fn leftovers_of_killed_builds_never_pile_up_and_the_next_build_removes_them() {
    let f = fixture();
    let root = f.dir.path();
    let site = root.join("site");
    // Someone else's folder beside the site, named like a leftover, but without the marker.
    let foreign = root.join(".site.modelatlas-staging-1");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("mine.txt"), "keep").unwrap();
    // Kill builds mid-write: each replaces the previous one's leftover rather than adding one.
    let mut last = 0;
    for i in 0..6 {
        let manifest = if i % 2 == 0 { &f.a } else { &f.b };
        let mut child =
            build(root, manifest, &site).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(f.build_a.mul_f64(0.6));
        child.kill().unwrap();
        child.wait().unwrap();
        let left: Vec<String> =
            leftovers(root).into_iter().filter(|n| n != ".site.modelatlas-staging-1").collect();
        assert!(left.len() <= 1, "after kill {i}: {left:?}");
        last = left.len();
    }
    let out = run(build(root, &f.a, &site));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    if last > 0 {
        assert!(stderr.contains("cleaned up"), "{stderr}");
    }
    assert!(stderr.contains("kept") && stderr.contains(".site.modelatlas-staging-1"), "{stderr}");
    assert_eq!(leftovers(root), [".site.modelatlas-staging-1"]);
    assert_eq!(std::fs::read_to_string(foreign.join("mine.txt")).unwrap(), "keep");
    assert_eq!(tree(&site).unwrap(), f.site_a);
}

#[test]
fn a_build_into_a_target_another_build_holds_is_refused_naming_it_and_changes_nothing() {
    let f = fixture();
    let root = f.dir.path();
    let site = root.join("site");
    assert!(run(build(root, &f.b, &site)).status.success());
    let holder = SiteWriter::create(&site).unwrap();
    let out = run(build(root, &f.a, &site));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("another modelatlas build"), "{stderr}");
    assert!(stderr.contains(&format!("pid {}", std::process::id())), "{stderr}");
    assert!(!stderr.contains("built "), "refused before planning: {stderr}");
    assert_eq!(tree(&site).unwrap(), f.site_b);
    drop(holder);
    assert!(run(build(root, &f.a, &site)).status.success(), "the lock goes with its holder");
    assert_eq!(tree(&site).unwrap(), f.site_a);
}

#[test]
fn two_builds_at_once_into_one_target_do_not_corrupt_it() {
    let f = fixture();
    let root = f.dir.path();
    let site = root.join("site");
    for round in 0..3 {
        let children: Vec<_> = [&f.a, &f.a]
            .into_iter()
            .map(|m| build(root, m, &site).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap())
            .collect();
        let outs: Vec<Output> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
        let ok = outs.iter().filter(|o| o.status.success()).count();
        assert!(ok >= 1, "round {round}: neither build finished");
        for o in outs.iter().filter(|o| !o.status.success()) {
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert!(stderr.contains("another modelatlas build"), "round {round}: {stderr}");
        }
        assert_eq!(tree(&site).unwrap(), f.site_a, "round {round}");
        assert_eq!(leftovers(root), Vec::<String>::new(), "round {round}");
    }
}

/// Every entry under `dir`, not following links: a refused build must leave it as it was.
fn listing(dir: &Path) -> Vec<(String, bool, bool)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .map(|e| (e.path().to_string_lossy().into_owned(), e.file_type().is_dir(), e.path_is_symlink()))
        .collect()
}

#[test]
fn every_out_that_must_not_be_replaced_is_refused_before_any_work_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let work = root.join("work");
    for d in ["work", "cache/hub", "proj", "other", "real"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("proj/models.toml"), "").unwrap();
    std::fs::write(root.join("other/Cargo.toml"), "[package]\n").unwrap();
    std::fs::write(root.join("notes.txt"), "keep").unwrap();
    std::os::unix::fs::symlink("nowhere", root.join("dangling")).unwrap();
    std::os::unix::fs::symlink("real", root.join("link")).unwrap();
    let p = |s: &str| root.join(s).to_string_lossy().into_owned();
    // (--out, words the message must hold). The manifest is the one in proj/; it does not parse,
    // so a message about it would show the check ran late.
    let cases: Vec<(String, Vec<&str>)> = vec![
        (".".into(), vec!["refusing to build into .:", "current folder"]),
        ("..".into(), vec!["refusing to build into ..:", "current folder or one of its parents"]),
        ("/".into(), vec!["refusing to build into /:", "filesystem root"]),
        (p("cache/hub"), vec!["the snapshot folder (--hub)"]),
        (p("cache"), vec!["the snapshot folder (--hub)", "a folder above it"]),
        (p("cache/hub/site"), vec!["inside the snapshot folder (--hub)"]),
        (p("proj"), vec!["the manifest's folder (--manifest)"]),
        (p("other"), vec!["Cargo.toml", "project folder"]),
        (p("dangling"), vec!["dangling symbolic link (to nowhere)"]),
        (p("link"), vec!["symbolic link (to real)"]),
        (p("notes.txt"), vec!["is a file, not a folder"]),
        (common::repo().to_string_lossy().into_owned(), vec!["Cargo.toml", "project folder"]),
    ];
    let before = listing(root);
    for (out, words) in &cases {
        let mut c = bin(&work);
        c.args(["build", "--manifest", &p("proj/models.toml"), "--hub", &p("cache/hub"), "--out", out]);
        let start = Instant::now();
        let o = run(c);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "--out {out}: {stderr}");
        assert!(stderr.contains(out.as_str()), "the message names the path {out}: {stderr}");
        for w in words {
            assert!(stderr.contains(w), "--out {out}: {w:?} not in {stderr}");
        }
        assert!(!stderr.contains("models.toml:") && !stderr.contains("built"), "--out {out}: {stderr}");
        assert!(start.elapsed() < Duration::from_secs(10), "--out {out}");
        assert_eq!(listing(root), before, "--out {out} left something behind");
    }
}
