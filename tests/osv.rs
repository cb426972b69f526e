//! The OSV documents a build writes for the upstream changes that alter the plan or the
//! behaviour, validated against the official OSV JSON Schema (`tests/fixtures/osv/schema.json`,
//! vendored from ossf/osv-schema; see SOURCES.md there).

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use boon::{Compiler, SchemaIndex, Schemas};
use modelatlas::manifest::Manifest;
use modelatlas::render::Renderer;
use modelatlas::site::build_site;
use modelatlas::source::hub_cache::HubCacheSource;
use serde_json::{Value, json};

const HEAD: &str = "5555555555555555555555555555555555555555";

/// Five recorded changes, newest first: weights (head untied), tokenizer, chat template, a config
/// key no number depends on, and a longer context with its effect.
fn changes() -> Value {
    let change = |commit: char, date: &str, title: &str| {
        json!({
            "commit": commit.to_string().repeat(40), "date": date, "title": title, "config_changes": [],
            "chat_template_changed": false, "tokenizer_changed": false, "weights_changed": false,
            "tensors_added": [], "tensors_removed": [], "tensors_reshaped": [], "effect": null
        })
    };
    let mut weights = change('5', "2026-05-01T00:00:00.000Z", "Untie head");
    weights["weights_changed"] = true.into();
    weights["tensors_added"] = json!(["lm_head.weight"]);
    weights["effect"] = "checkpoint scalars 2,272 -> 2,528".into();
    let mut tokenizer = change('4', "2026-04-02T00:00:00.000Z", "New tokenizer");
    tokenizer["tokenizer_changed"] = true.into();
    let mut template = change('3', "2026-04-01T00:00:00Z", "New <chat> template");
    template["chat_template_changed"] = true.into();
    let mut cosmetic = change('2', "2026-03-02T00:00:00.000Z", "Bump transformers_version");
    cosmetic["config_changes"] = json!([{"key": "transformers_version", "old": "4.40.0", "new": "4.41.0"}]);
    let mut context = change('1', "2026-03-01T00:00:00.000Z", "Longer context");
    context["config_changes"] = json!([{"key": "n_positions", "old": 16, "new": 32}]);
    context["effect"] = "parameters 2,144 -> 2,272".into();
    json!([weights, tokenizer, template, cosmetic, context])
}

/// A snapshot holding the tiny GPT-2 of the sync tests under each ID, with the same history.
fn snapshot(dir: &Path, ids: &[&str]) {
    for id in ids {
        let snap = dir.join(format!("models--{}", id.replace('/', "--")));
        std::fs::create_dir_all(snap.join("refs")).unwrap();
        std::fs::write(snap.join("refs/main"), HEAD).unwrap();
        let files = snap.join("snapshots").join(HEAD);
        std::fs::create_dir_all(&files).unwrap();
        let config = json!({
            "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 8, "n_head": 2,
            "n_layer": 2, "n_positions": 32, "n_ctx": 32, "vocab_size": 32, "layer_norm_epsilon": 1e-5
        });
        std::fs::write(files.join("config.json"), config.to_string()).unwrap();
        let meta = json!({
            "model_id": id,
            "config": {"verification": "hub", "sha256": "0", "source": "config.json at 5555555"},
            "checkpoint": null, "downloads": null, "changes": changes()
        });
        std::fs::write(files.join("modelatlas.json"), meta.to_string()).unwrap();
    }
}

fn build(dir: &Path, ids: &[&str]) -> std::path::PathBuf {
    let hub = dir.join("hub");
    snapshot(&hub, ids);
    let mut toml = String::from("[site]\ntitle = \"t\"\nbase_url = \"https://example.org/atlas/\"\n");
    for id in ids {
        toml.push_str(&format!("[[model]]\nid = \"{id}\"\n"));
    }
    std::fs::write(dir.join("models.toml"), toml).unwrap();
    let manifest = Manifest::load(&dir.join("models.toml")).unwrap();
    let out = dir.join("site");
    let report = build_site(&manifest, &HubCacheSource::new(hub), &out, &Renderer::new()).unwrap();
    assert_eq!(report.failed().count(), 0, "{:?}", report.failed().collect::<Vec<_>>());
    out
}

/// The vendored OSV schema, with `format` asserted (`date-time`, `uri`): the schema says so, and
/// boon, like most validators, only annotates formats unless asked.
fn osv_schema() -> (Schemas, SchemaIndex) {
    let path = common::repo().join("tests/fixtures/osv/schema.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut schemas = Schemas::new();
    let mut compiler = Compiler::new();
    compiler.enable_format_assertions();
    compiler.add_resource("file:///osv/schema.json", doc).unwrap();
    let index = compiler.compile("file:///osv/schema.json", &mut schemas).unwrap();
    (schemas, index)
}

fn osv_files(site: &Path, stem: &str) -> Vec<(String, Vec<u8>)> {
    common::read_tree(site).into_iter().filter(|(rel, _)| rel.starts_with(&format!("{stem}/osv/"))).collect()
}

#[test]
fn every_change_that_alters_the_plan_or_the_behaviour_gets_an_osv_document_valid_against_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let site = build(dir.path(), &["org/tiny"]);
    let (schemas, osv) = osv_schema();
    let docs = osv_files(&site, "models/org/tiny");
    // Weights, tokenizer, chat template and the longer context; not the transformers_version bump.
    assert_eq!(docs.len(), 4, "{:?}", docs.iter().map(|d| &d.0).collect::<Vec<_>>());
    for (rel, bytes) in &docs {
        let doc: Value = serde_json::from_slice(bytes).unwrap();
        if let Err(e) = schemas.validate(&doc, osv) {
            panic!("{rel} breaks the OSV schema:\n{e:#}");
        }
        assert!(rel.ends_with(&format!("/{}.json", doc["id"].as_str().unwrap())), "{rel} is named by its id");
    }

    let json: Value =
        serde_json::from_slice(&std::fs::read(site.join("models/org/tiny.json")).unwrap()).unwrap();
    let linked: BTreeSet<&str> =
        json["changes"].as_array().unwrap().iter().filter_map(|c| c["osv"].as_str()).collect();
    let written: BTreeSet<&str> = docs.iter().map(|(rel, _)| rel.as_str()).collect();
    assert_eq!(linked, written, "the model JSON links exactly the documents written");
    assert_eq!(json["changes"][3]["title"], "Bump transformers_version");
    assert_eq!(json["changes"][3]["osv"], Value::Null, "a config change with no effect is no advisory");

    // The longer context, field by field against what the snapshot recorded.
    let context = &json["changes"][4];
    let doc: Value =
        serde_json::from_slice(&std::fs::read(site.join(context["osv"].as_str().unwrap())).unwrap()).unwrap();
    let commit = "1".repeat(40);
    assert_eq!(doc["modified"], "2026-03-01T00:00:00.000Z", "modified is the commit's date");
    assert_eq!(doc["published"], "2026-03-01T00:00:00.000Z");
    assert!(doc["id"].as_str().unwrap().starts_with("MODELATLAS-111111111111-"));
    assert_eq!(doc["summary"], "org/tiny 1111111: Longer context");
    assert_eq!(doc["affected"][0]["ranges"][0]["type"], "GIT");
    assert_eq!(doc["affected"][0]["ranges"][0]["repo"], "https://huggingface.co/org/tiny");
    assert_eq!(doc["affected"][0]["ranges"][0]["events"], json!([{"introduced": commit}]));
    assert_eq!(doc["affected"][0].get("package"), None, "no OSV ecosystem lists the Hub");
    assert_eq!(doc["database_specific"]["effect"], "parameters 2,144 -> 2,272");
    assert_eq!(doc["database_specific"]["kinds"], json!(["config"]));
    assert_eq!(
        doc["database_specific"]["config_changes"],
        json!([{"key": "n_positions", "old": 16, "new": 32}])
    );
    assert_eq!(
        doc["references"],
        json!([
            {"type": "WEB", "url": "https://example.org/atlas/models/org/tiny.html#change-1111111"},
            {"type": "INTRODUCED", "url": format!("https://huggingface.co/org/tiny/commit/{commit}")},
        ])
    );

    // Linked from the change line on the page, its Markdown twin and the Recent changes page.
    let osv_path = context["osv"].as_str().unwrap();
    // minijinja writes `/` in attributes as `&#x2f;`, which a browser reads back as `/`.
    let unescape = |s: String| s.replace("&#x2f;", "/");
    let html = unescape(std::fs::read_to_string(site.join("models/org/tiny.html")).unwrap());
    assert!(html.contains(&format!("href=\"../../{osv_path}\">OSV</a>")), "no OSV link on the page");
    let md = std::fs::read_to_string(site.join("models/org/tiny.md")).unwrap();
    assert!(md.contains(&format!("([OSV](../../{osv_path}))")), "no OSV link in the Markdown twin");
    let recent = unescape(std::fs::read_to_string(site.join("changes.html")).unwrap());
    assert!(
        recent.contains(&format!("href=\"{osv_path}\">OSV</a>")),
        "no OSV link on the Recent changes page"
    );
}

#[test]
fn osv_ids_and_documents_are_the_same_on_every_build_and_differ_between_models() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (site_a, site_b) = (build(a.path(), &["org/tiny", "other/tiny"]), build(b.path(), &["org/tiny"]));
    assert_eq!(osv_files(&site_a, "models/org/tiny"), osv_files(&site_b, "models/org/tiny"));
    // The same five commits under another repository: other ids.
    let ids = |stem: &str| -> BTreeSet<String> {
        osv_files(&site_a, stem)
            .into_iter()
            .map(|(rel, _)| rel.rsplit('/').next().unwrap().to_string())
            .collect()
    };
    let (mine, theirs) = (ids("models/org/tiny"), ids("models/other/tiny"));
    assert_eq!(theirs.len(), 4);
    assert!(mine.is_disjoint(&theirs), "{mine:?} {theirs:?}");
}

#[test]
fn the_osv_schema_rejects_a_document_without_modified_or_with_a_date_that_is_not_rfc_3339() {
    // Guard against a check that passes everything: format assertions must be on.
    let (schemas, osv) = osv_schema();
    let ok = json!({"id": "MODELATLAS-x", "modified": "2026-03-01T00:00:00Z"});
    schemas.validate(&ok, osv).unwrap();
    assert!(schemas.validate(&json!({"id": "MODELATLAS-x"}), osv).is_err());
    assert!(schemas.validate(&json!({"id": "MODELATLAS-x", "modified": "2026-03-01"}), osv).is_err());
    let git_without_repo = json!({"id": "x", "modified": "2026-03-01T00:00:00Z",
        "affected": [{"ranges": [{"type": "GIT", "events": [{"introduced": "0"}]}]}]});
    assert!(schemas.validate(&git_without_repo, osv).is_err());
}
