//! Incremental rebuilds: a rebuild with nothing changed writes nothing; a changed model
//! re-renders that model, its family and the index, and nothing else; the output is always byte
//! for byte that of a full build.
//!
//! "Not rewritten" is read from the file system: a file carried over keeps its inode (a hard link
//! of the previous site's file) and its modification time, where a file written anew gets a new
//! inode.

mod common;

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use common::{read_tree, repo};
use modelatlas::manifest::Manifest;
use modelatlas::plan::PlanOptions;
use modelatlas::render::Renderer;
use modelatlas::site::{BuildReport, build_site_opts};
use modelatlas::source::hub_cache::HubCacheSource;

/// Two families of several models (gpt2, bert) and two of one (opt, roberta).
const MODELS: [&str; 7] = [
    "openai-community/gpt2",
    "openai-community/gpt2-large",
    "google-bert/bert-base-uncased",
    "sentence-transformers/all-MiniLM-L6-v2",
    "BAAI/bge-small-en-v1.5",
    "facebook/opt-125m",
    "FacebookAI/roberta-base",
];

struct Fixture {
    dir: tempfile::TempDir,
    hub: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let hub = dir.path().join("hub");
        for id in MODELS {
            let folder = format!("models--{}", id.replace('/', "--"));
            copy_dir(&repo().join("hub").join(&folder), &hub.join(&folder));
        }
        let f = Fixture { dir, hub };
        f.manifest(&MODELS);
        f
    }

    fn manifest(&self, ids: &[&str]) {
        let mut toml = String::from("[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n");
        for id in ids {
            toml += &format!("[[model]]\nid = \"{id}\"\n");
        }
        std::fs::write(self.dir.path().join("models.toml"), toml).unwrap();
    }

    fn site(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    fn build_into(&self, out: &Path, full: bool) -> BuildReport {
        let manifest = Manifest::load(&self.dir.path().join("models.toml")).unwrap();
        let report = build_site_opts(
            &manifest,
            &HubCacheSource::new(&self.hub),
            out,
            &Renderer::new(),
            &PlanOptions::default(),
            full,
        )
        .unwrap();
        assert_eq!(report.failed().count(), 0, "{:?}", report.failed().collect::<Vec<_>>());
        report
    }

    fn build(&self) -> BuildReport {
        self.build_into(&self.site(), false)
    }

    /// The site a full build from the same inputs writes, for comparison.
    fn full_build(&self) -> BTreeMap<String, Vec<u8>> {
        let out = self.dir.path().join("full");
        self.build_into(&out, true);
        read_tree(&out)
    }

    /// Edits a model's config.json in the fixture's hub (a copy: the repository is untouched).
    fn edit_config(&self, id: &str, patch: serde_json::Value) {
        let folder = self.hub.join(format!("models--{}", id.replace('/', "--")));
        let snap = std::fs::read_dir(folder.join("snapshots")).unwrap().next().unwrap().unwrap().path();
        let path = snap.join("config.json");
        let mut config: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (k, v) in patch.as_object().unwrap() {
            config[k] = v.clone();
        }
        // The snapshot holds files as written: replace the file, do not write through a link.
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, config.to_string()).unwrap();
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let dest = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            // Copies, not links: a test edits them.
            std::fs::write(&dest, std::fs::read(e.path()).unwrap()).unwrap();
        }
    }
}

/// Every file of a site: path -> (inode, modification time).
fn identities(site: &Path) -> BTreeMap<String, (u64, i64, i64)> {
    walkdir::WalkDir::new(site)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let m = e.metadata().unwrap();
            let rel = e.path().strip_prefix(site).unwrap().to_string_lossy().into_owned();
            (rel, (m.ino(), m.mtime(), m.mtime_nsec()))
        })
        .collect()
}

/// The files whose identity differs between two listings (written anew, added or removed).
fn rewritten(
    before: &BTreeMap<String, (u64, i64, i64)>,
    after: &BTreeMap<String, (u64, i64, i64)>,
) -> Vec<String> {
    let mut v: Vec<String> = after
        .iter()
        .filter(|(path, id)| before.get(*path) != Some(id))
        .map(|(p, _)| p.clone())
        .chain(before.keys().filter(|p| !after.contains_key(*p)).cloned())
        .collect();
    v.sort();
    v.dedup();
    v
}

fn model_files(stem: &str) -> Vec<String> {
    ["badge.json", "html", "json", "md"].iter().map(|ext| format!("models/{stem}.{ext}")).collect()
}

#[test]
fn a_rebuild_with_nothing_changed_writes_no_file_and_leaves_the_site_as_it_was() {
    let f = Fixture::new();
    let first = f.build();
    assert_eq!(first.models_rendered, MODELS.len());
    let before = identities(&f.site());
    let bytes = read_tree(&f.site());

    let again = f.build();
    assert!(again.unchanged, "the second build finds nothing to do");
    assert_eq!(again.models_rendered, 0);
    assert_eq!(again.files_written, 0);
    assert_eq!(rewritten(&before, &identities(&f.site())), Vec::<String>::new());
    assert_eq!(read_tree(&f.site()), bytes);
    assert_eq!(read_tree(&f.site()), f.full_build(), "the site is what a full build writes");
}

#[test]
fn changing_one_config_re_renders_that_model_its_family_and_the_index_and_nothing_else() {
    let f = Fixture::new();
    f.build();
    let before = identities(&f.site());
    // opt-125m is alone in its family, so no other model lists it as a sibling. A larger
    // vocabulary changes its parameter count, so its family page and the index change too.
    f.edit_config("facebook/opt-125m", serde_json::json!({"vocab_size": 50304}));

    let report = f.build();
    assert!(!report.unchanged);
    assert_eq!(report.models_rendered, 1, "only the edited model is planned");
    let mut expected = model_files("facebook/opt-125m");
    expected.extend(
        [
            "families/opt.html",
            "families/opt.json",
            "families/opt.md",
            "index.html",
            "index.json",
            "index.md",
            // Its Atom feed is one of its files; llms.txt is rendered again with the index but
            // not rewritten, since it shows the count rounded (125M before and after).
            "models/facebook/opt-125m.atom",
        ]
        .map(String::from),
    );
    // The site's marker names the build that wrote it.
    expected.push(".modelatlas-site".into());
    expected.sort();
    assert_eq!(rewritten(&before, &identities(&f.site())), expected);
    assert_eq!(read_tree(&f.site()), f.full_build(), "byte for byte what a full build writes");
}

#[test]
fn a_model_whose_siblings_changed_gets_its_new_sibling_list_without_being_planned_again() {
    let f = Fixture::new();
    f.build();
    let before = identities(&f.site());
    // gpt2 with 13 layers instead of 12: its parameter count changes, and gpt2-large's sibling
    // part (its JSON's list, its page's link to the family) is rendered again.
    f.edit_config("openai-community/gpt2", serde_json::json!({"n_layer": 13}));

    let report = f.build();
    assert_eq!(report.models_rendered, 1, "gpt2-large's inputs did not change: it is not planned");
    let changed = rewritten(&before, &identities(&f.site()));
    for file in ["html", "md", "json"] {
        let path = format!("models/openai-community/gpt2-large.{file}");
        assert!(changed.contains(&path), "{path} holds the new sibling list");
    }
    assert!(
        !changed.contains(&"models/openai-community/gpt2-large.badge.json".to_string()),
        "its badge depends on its own summary only"
    );
    assert!(!changed.iter().any(|p| p.contains("bert") || p.contains("opt")), "{changed:?}");
    assert_eq!(read_tree(&f.site()), f.full_build(), "byte for byte what a full build writes");
}

#[test]
fn a_model_removed_from_the_manifest_leaves_no_file_and_the_rest_are_carried_over() {
    let f = Fixture::new();
    f.build();
    let before = identities(&f.site());
    f.manifest(&MODELS[..6]);
    let report = f.build();
    assert_eq!(report.models_rendered, 0);
    let changed = rewritten(&before, &identities(&f.site()));
    assert!(!f.site().join("models/FacebookAI/roberta-base.html").exists());
    assert!(!f.site().join("families/roberta.html").exists());
    assert!(!changed.iter().any(|p| p.starts_with("models/") && !p.contains("roberta-base")), "{changed:?}");
    assert_eq!(read_tree(&f.site()), f.full_build());
}

#[test]
fn a_file_deleted_from_the_site_is_written_again_by_the_next_build() {
    let f = Fixture::new();
    f.build();
    let bytes = read_tree(&f.site());
    std::fs::remove_file(f.site().join("models/facebook/opt-125m.md")).unwrap();
    std::fs::remove_file(f.site().join("families/bert.json")).unwrap();
    let report = f.build();
    assert!(!report.unchanged);
    assert_eq!(read_tree(&f.site()), bytes);
}

#[test]
fn a_full_build_ignores_the_cache_and_a_foreign_cache_is_never_used() {
    let f = Fixture::new();
    f.build();
    let report = f.build_into(&f.site(), true);
    assert_eq!(report.models_rendered, MODELS.len());
    // A site replaced by hand (here: another build's output moved in) does not match the cache
    // kept beside it, whose stamp names the site it describes.
    let other = f.dir.path().join("other");
    f.manifest(&MODELS[..2]);
    f.build_into(&other, false);
    std::fs::remove_dir_all(f.site()).unwrap();
    std::fs::rename(&other, f.site()).unwrap();
    f.manifest(&MODELS);
    let report = f.build();
    assert_eq!(report.models_rendered, MODELS.len(), "the cache describes another site: a full build");
    assert_eq!(read_tree(&f.site()), f.full_build());
}
