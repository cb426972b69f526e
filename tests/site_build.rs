//! The whole site, built as the README's command builds it: every file a user or a script is
//! promised exists, every link lands, a rebuild is byte-identical, bad input is reported and
//! contained.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{read_tree, repo};
use modelatlas::manifest::Manifest;
use modelatlas::render::Renderer;
use modelatlas::site::{Outcome, build_site};
use modelatlas::source::hub_cache::HubCacheSource;

const SUPPORTED: [&str; 6] = [
    "FacebookAI/xlm-roberta-base",
    "FacebookAI/xlm-roberta-large",
    "FacebookAI/roberta-base",
    "google-bert/bert-base-uncased",
    "sentence-transformers/all-MiniLM-L6-v2",
    "BAAI/bge-small-en-v1.5",
];

fn build_repo_site(out: &Path) -> modelatlas::site::BuildReport {
    let manifest = Manifest::load(&repo().join("models.toml")).unwrap();
    build_site(&manifest, &HubCacheSource::new(repo().join("hub")), out, &Renderer::new()).unwrap()
}

#[test]
fn the_site_has_three_files_per_model_and_the_index_family_and_method_pages() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let report = build_repo_site(&out);
    assert_eq!(report.failed().count(), 0);
    for id in SUPPORTED {
        for ext in ["html", "md", "json"] {
            let f = out.join(format!("models/{id}.{ext}"));
            assert!(f.is_file(), "{} missing", f.display());
        }
    }
    for f in
        ["index.html", "index.json", "index.md", "method.html", "method.md", "static/style.css", ".nojekyll"]
    {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    for fam in ["bert", "roberta", "xlm-roberta"] {
        for ext in ["html", "md", "json"] {
            assert!(out.join(format!("families/{fam}.{ext}")).is_file());
        }
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("models/FacebookAI/xlm-roberta-base.json")).unwrap())
            .unwrap();
    let text = std::fs::read_to_string(out.join("models/FacebookAI/xlm-roberta-base.json")).unwrap();
    assert!(
        text.starts_with("{\"schema_version\":7,"),
        "schema_version comes first, and the JSON is compact"
    );
    for key in ["id", "family", "architecture", "fit", "training", "structure", "lints"] {
        assert!(!json[key].is_null(), "{key} missing");
    }
    assert_eq!(json["params"]["derived"], 278_295_186);
    assert_eq!(json["params"]["checkpoint"], 278_885_778);
    assert_eq!(json["params"]["delta"], -590_592);
    // The four modes, each with its phases; the per-card rows are computed from the site's
    // cards.json, which lists every card of the catalogue once.
    let modes: Vec<&str> =
        json["fit"]["modes"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(modes, ["full", "lora", "qlora", "serve"]);
    let cards: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("cards.json")).unwrap()).unwrap();
    assert_eq!(cards["cards"].as_array().unwrap().len(), modelatlas::estimate::cards::builtin().len());
    let recipes: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("recipes.json")).unwrap()).unwrap();
    assert_eq!(recipes["recipes"][0]["id"], json["training"]["options"]["recipe"]);
    // A model's feed with no entry yet: id, title, updated and the self link, no author (RFC 4287
    // asks for one only where an entry lacks its own) and no XML declaration (UTF-8 is the default).
    let atom = std::fs::read_to_string(out.join("models/FacebookAI/xlm-roberta-base.atom")).unwrap();
    assert!(!atom.contains("<entry>"), "{atom}");
    assert!(atom.starts_with("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"), "{atom}");
    assert!(!atom.contains("<author>"), "{atom}");
    for part in [
        "<title>FacebookAI/xlm-roberta-base: what changed upstream</title>",
        "/models/FacebookAI/xlm-roberta-base.atom</id>",
        "<link rel=\"self\" href=\"",
        "<updated>1970-01-01T00:00:00Z</updated>",
    ] {
        assert!(atom.contains(part), "{part} missing: {atom}");
    }
}

#[test]
fn a_family_not_supported_yet_gets_a_page_of_what_its_config_says() {
    // A type no planner describes (transformers has no `zamba3` either), so it stays unsupported
    // whichever types are added.
    let (dir, hub) =
        hub_with(&[("Zyphra/zamba3-tiny", r#"{"model_type": "zamba3", "hidden_size": 768, "n_layer": 24}"#)]);
    let manifest = Manifest::load(&dir.path().join("models.toml")).unwrap();
    let out = dir.path().join("site");
    let report = build_site(&manifest, &HubCacheSource::new(&hub), &out, &Renderer::new()).unwrap();
    assert_eq!(report.failed().count(), 0, "an unsupported family is not a failure");
    assert_eq!(report.unsupported().collect::<Vec<_>>(), ["Zyphra/zamba3-tiny"]);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("models/Zyphra/zamba3-tiny.json")).unwrap()).unwrap();
    assert_eq!(json["supported"], false);
    assert!(json["params"].is_null());
    assert_eq!(json["config_facts"][0], serde_json::json!(["hidden_size", "768"]));
    let html = std::fs::read_to_string(out.join("models/Zyphra/zamba3-tiny.html")).unwrap();
    assert!(html.contains("Not planned yet") && html.contains("n_layer"));
    assert!(out.join("families/zamba3.html").is_file());
}

#[test]
fn every_model_page_links_its_family_page_which_lists_its_siblings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build_repo_site(&out);
    let html = std::fs::read_to_string(out.join("models/FacebookAI/xlm-roberta-base.html")).unwrap();
    let html = decode_entities(&html);
    assert!(html.contains(r#"href="../../families/xlm-roberta.html""#));
    // The siblings are one click away (the family page, the JSON), not listed on the page.
    assert!(html.contains("XLM-RoBERTa models, compared</a>"), "{html}");
    assert!(!html.contains("xlm-roberta-large.html"));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("models/FacebookAI/xlm-roberta-base.json")).unwrap(),
    )
    .unwrap();
    assert!(json.get("siblings").is_none() && json["family_size"].as_u64().is_some_and(|n| n >= 2), "{json}");
    // A model page never names models of other families.
    assert!(!html.contains("bge-small-en-v1.5"));
    let family = decode_entities(&std::fs::read_to_string(out.join("families/xlm-roberta.html")).unwrap());
    assert!(family.contains("xlm-roberta-large.html") && !family.contains("bge-small-en-v1.5"));
    let family: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("families/xlm-roberta.json")).unwrap())
            .unwrap();
    assert!(family["models"].as_array().unwrap().iter().any(|m| m["id"] == "FacebookAI/xlm-roberta-large"));
    let family = decode_entities(&std::fs::read_to_string(out.join("families/xlm-roberta.html")).unwrap());
    assert!(family.contains("Derived from <a href=\"../families/roberta.html\">RoBERTa</a>"));
}

/// Every href and src in every HTML page resolves to a file of the site, and every fragment to an
/// id on the target page.
#[test]
fn no_relative_link_in_the_built_site_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build_repo_site(&out);
    let files = read_tree(&out);
    let ids_of = |rel: &str| -> BTreeSet<String> {
        let text = String::from_utf8_lossy(&files[rel]).into_owned();
        let dom = tl::parse(&text, tl::ParserOptions::default()).unwrap();
        dom.nodes()
            .iter()
            .filter_map(|n| n.as_tag())
            .filter_map(|t| t.attributes().id().map(|v| decode_entities(&v.as_utf8_str())))
            .collect()
    };
    let manifest: toml::Table = std::fs::read_to_string("models.toml").unwrap().parse().unwrap();
    let base_url = manifest["site"]["base_url"].as_str().unwrap();
    let base_path = format!("/{}", base_url.splitn(4, '/').nth(3).unwrap_or(""));
    let mut checked = 0;
    let mut broken = vec![];
    for (rel, bytes) in files.iter().filter(|(k, _)| k.ends_with(".html")) {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let dom = tl::parse(&text, tl::ParserOptions::default()).unwrap();
        let base = Path::new(rel).parent().unwrap_or(Path::new(""));
        for tag in dom.nodes().iter().filter_map(|n| n.as_tag()) {
            for attr in ["href", "src"] {
                let Some(Some(v)) = tag.attributes().get(attr) else { continue };
                let link = decode_entities(&v.as_utf8_str());
                if link.starts_with("http://") || link.starts_with("https://") {
                    // Canonical links are absolute.
                    let allowed = tag.name().as_utf8_str() == "link";
                    assert!(allowed, "{rel}: only canonical links may be absolute: {link}");
                    continue;
                }
                // The 404 page is served at any address, so it links from the root of base_url's
                // path (models.toml: https://<host>/modelatlas/), never to another host.
                let link = if rel == "404.html" {
                    let Some(local) = link.strip_prefix(&base_path) else {
                        panic!("404.html: a link outside the site's path {base_path}: {link}")
                    };
                    local.to_string()
                } else {
                    link
                };
                let (path, frag) = link.split_once('#').unwrap_or((&link, ""));
                let target = if path.is_empty() { rel.clone() } else { normalize(&base.join(path)) };
                checked += 1;
                if !files.contains_key(&target) {
                    broken.push(format!("{rel}: {link} -> {target}"));
                } else if !frag.is_empty() && target.ends_with(".html") && !ids_of(&target).contains(frag) {
                    broken.push(format!("{rel}: {link}: no id {frag:?} in {target}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked > 500, "only {checked} links checked");
}

/// Attribute values as a browser reads them: minijinja escapes `/` as `&#x2f;` and so on.
fn decode_entities(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let Some(end) = tail.find(';') else {
            out.push_str(tail);
            return out;
        };
        let entity = &tail[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            e if e.starts_with("#x") || e.starts_with("#X") => {
                u32::from_str_radix(&e[2..], 16).ok().and_then(char::from_u32)
            }
            e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match decoded {
            Some(c) => out.push(c),
            None => out.push_str(&tail[..=end]),
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = vec![];
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    parts.join("/")
}

#[test]
fn two_builds_of_the_same_inputs_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    build_repo_site(&a);
    // A different thread count must not change a byte.
    rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| build_repo_site(&b));
    let (ta, tb) = (read_tree(&a), read_tree(&b));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (k, v) in &ta {
        assert!(v == &tb[k], "{k} differs between builds");
    }
}

/// A temporary Hub cache holding copies of two real models and the broken ones given.
fn hub_with(broken: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let hub = dir.path().join("hub");
    for folder in ["models--FacebookAI--roberta-base", "models--BAAI--bge-small-en-v1.5"] {
        copy_dir(&repo().join("hub").join(folder), &hub.join(folder));
    }
    for (id, config) in broken {
        let repo_dir = hub.join(format!("models--{}", id.replace('/', "--")));
        std::fs::create_dir_all(repo_dir.join("refs")).unwrap();
        std::fs::create_dir_all(repo_dir.join("snapshots/abc")).unwrap();
        std::fs::write(repo_dir.join("refs/main"), "abc").unwrap();
        std::fs::write(repo_dir.join("snapshots/abc/config.json"), config).unwrap();
    }
    let ids: Vec<String> = ["FacebookAI/roberta-base", "BAAI/bge-small-en-v1.5"]
        .iter()
        .map(|s| s.to_string())
        .chain(broken.iter().map(|(id, _)| id.to_string()))
        .collect();
    let mut toml = String::from("[site]\ntitle = \"t\"\nbase_url = \"https://example.org/\"\n");
    for id in ids {
        toml += &format!("[[model]]\nid = \"{id}\"\n");
    }
    std::fs::write(dir.path().join("models.toml"), toml).unwrap();
    (dir, hub)
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let dest = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

#[test]
fn a_broken_config_is_reported_by_model_file_and_field_and_the_rest_is_built() {
    let (dir, hub) = hub_with(&[
        ("bad/not-json", "{\"model_type\": \"bert\", "),
        ("bad/wrong-type", r#"{"model_type": "bert", "hidden_size": "768"}"#),
        ("bad/zero-layers", r#"{"model_type": "roberta", "num_hidden_layers": 0}"#),
        ("bad/missing-model-type", r#"{"hidden_size": 768}"#),
    ]);
    let manifest = Manifest::load(&dir.path().join("models.toml")).unwrap();
    let out = dir.path().join("site");
    let report = build_site(&manifest, &HubCacheSource::new(&hub), &out, &Renderer::new()).unwrap();
    let failed: Vec<(&str, &str)> = report.failed().collect();
    assert_eq!(failed.len(), 4, "{failed:?}");
    let msg = |id: &str| failed.iter().find(|(m, _)| *m == id).unwrap().1.to_string();
    assert!(msg("bad/not-json").contains("not valid JSON"));
    for (id, field) in [
        ("bad/wrong-type", "hidden_size"),
        ("bad/zero-layers", "num_hidden_layers"),
        ("bad/missing-model-type", "model_type"),
    ] {
        let m = msg(id);
        assert!(m.starts_with(id), "{m}");
        assert!(m.contains("config.json"), "names the file: {m}");
        assert!(m.contains(&format!("`{field}`")), "names the field: {m}");
    }
    assert!(out.join("models/FacebookAI/roberta-base.html").is_file());
    assert!(out.join("models/BAAI/bge-small-en-v1.5.json").is_file());
    assert!(!out.join("models/bad").exists(), "no file of a failed model is written");
    let index = std::fs::read_to_string(out.join("index.json")).unwrap();
    assert!(!index.contains("bad/"));
    assert!(matches!(report.models[0].outcome, Outcome::Built { supported: true }));
}

#[test]
fn a_model_type_that_differs_only_by_case_is_not_listed_on_the_supported_family_page() {
    // transformers looks model_type up exactly: "Roberta" is not RoBERTa's "roberta".
    let (dir, hub) = hub_with(&[("case/upper", r#"{"model_type": "Roberta", "hidden_size": 768}"#)]);
    let manifest = Manifest::load(&dir.path().join("models.toml")).unwrap();
    let out = dir.path().join("site");
    let report = build_site(&manifest, &HubCacheSource::new(&hub), &out, &Renderer::new()).unwrap();
    assert_eq!(report.failed().count(), 0);
    let roberta = std::fs::read_to_string(out.join("families/roberta.json")).unwrap();
    assert!(roberta.contains("FacebookAI/roberta-base"));
    assert!(!roberta.contains("case/upper"), "{roberta}");
    let page: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("models/case/upper.json")).unwrap()).unwrap();
    assert_eq!(page["supported"], false);
    assert_ne!(page["family"], "roberta");
    let own = out.join(format!("families/{}.json", page["family"].as_str().unwrap()));
    assert!(std::fs::read_to_string(own).unwrap().contains("case/upper"));
}

#[test]
fn the_cli_exits_non_zero_when_a_model_fails_unless_failures_are_allowed() {
    let (dir, hub) = hub_with(&[("bad/wrong-type", r#"{"model_type": "bert", "vocab_size": [1]}"#)]);
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_modelatlas"))
            .args(["build", "--manifest"])
            .arg(dir.path().join("models.toml"))
            .arg("--hub")
            .arg(&hub)
            .arg("--out")
            .arg(dir.path().join("site"))
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad/wrong-type") && err.contains("`vocab_size`"), "{err}");
    assert!(err.contains("3 models: 2 built"), "{err}");
    assert!(run(&["--allow-failures"]).status.success());
}

#[test]
fn config_strings_reach_the_html_escaped() {
    let (dir, hub) = hub_with(&[(
        "evil/model",
        r#"{"model_type": "<script>alert(1)</script>", "architectures": ["<img src=x onerror=alert(1)>"], "hidden_size": "<b>"}"#,
    )]);
    let manifest = Manifest::load(&dir.path().join("models.toml")).unwrap();
    let out = dir.path().join("site");
    let report = build_site(&manifest, &HubCacheSource::new(&hub), &out, &Renderer::new()).unwrap();
    assert_eq!(report.unsupported().collect::<Vec<_>>(), ["evil/model"]);
    let html = std::fs::read_to_string(out.join("models/evil/model.html")).unwrap();
    assert!(!html.contains("<script>alert") && !html.contains("<img src=x"), "unescaped config text");
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    // The family key becomes a safe file name.
    assert!(out.join("families/script-alert-1-script.html").is_file());
}

#[test]
fn a_rebuild_does_not_replace_a_folder_that_is_not_a_site() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let manifest = Manifest::load(&repo().join("models.toml")).unwrap();
    let err = build_site(&manifest, &HubCacheSource::new(repo().join("hub")), dir.path(), &Renderer::new());
    assert!(err.is_err());
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "mine");
}

#[test]
fn crawlers_and_agents_get_a_sitemap_robots_llms_txt_and_badges() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build_repo_site(&out);
    let manifest = Manifest::load(&repo().join("models.toml")).unwrap();
    let base = &manifest.site.base_url;
    let sitemap = std::fs::read_to_string(out.join("sitemap.xml")).unwrap();
    let llms = std::fs::read_to_string(out.join("llms.txt")).unwrap();
    assert!(llms.starts_with("# modelatlas\n\n> "), "llms.txt format: title, then a summary");
    for id in &manifest.models {
        let stem = id.site_stem();
        assert!(sitemap.contains(&format!("<loc>{base}{stem}.html</loc>")), "{id} not in the sitemap");
        assert!(llms.contains(&format!("]({base}{stem}.md)")), "{id}'s twin not in llms.txt");
        let badge: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(format!("{stem}.badge.json"))).unwrap()).unwrap();
        assert_eq!(badge["schemaVersion"], 1);
        assert_eq!(badge["label"], "modelatlas");
    }
    let badge = std::fs::read_to_string(out.join("models/FacebookAI/xlm-roberta-base.badge.json")).unwrap();
    assert!(badge.contains("278M params"), "{badge}");
    let robots = std::fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(robots.contains(&format!("Sitemap: {base}sitemap.xml")));
    assert!(out.join("404.html").is_file() && out.join("static/favicon.svg").is_file());
}

#[test]
fn a_model_page_built_in_two_passes_is_byte_identical_to_the_page_rendered_whole() {
    let manifest = Manifest::load(&repo().join("models.toml")).unwrap();
    let source = HubCacheSource::new(repo().join("hub"));
    let renderer = Renderer::new();
    let pages: Vec<modelatlas::page::ModelPage> = manifest
        .models
        .iter()
        .map(|id| {
            let files = modelatlas::source::ModelSource::load(&source, id).unwrap();
            modelatlas::plan::plan(&files, Some(format!("{}.html", id.site_stem()))).unwrap()
        })
        .collect();
    let summaries: Vec<_> = pages.iter().map(|p| p.summary()).collect();
    for (k, page) in pages.iter().enumerate() {
        // Any siblings will do (none for the first page, the three before it otherwise): the two
        // ways must agree on whatever they are given.
        let siblings: Vec<_> = summaries[k.saturating_sub(3)..k].to_vec();
        let mut whole = page.clone();
        whole.siblings = siblings.clone();
        whole.family_size = 7;
        let whole = renderer.model(&whole, &manifest.site, "../../").unwrap();
        let parts = renderer.model_parts(page, &manifest.site, "../../").unwrap();
        let view = modelatlas::page::SiblingsView::new(&summaries[k], page.family_name.clone(), siblings, 7);
        let part = renderer.model_siblings(&view, &manifest.site, "../../").unwrap();
        assert_eq!(
            whole.html,
            [parts.html_head.as_str(), &part.html, &parts.html_tail].concat(),
            "{}",
            page.id
        );
        assert_eq!(
            whole.markdown,
            [parts.md_head.as_str(), &part.markdown, &parts.md_tail].concat(),
            "{}",
            page.id
        );
        assert_eq!(whole.json, [parts.json_head.as_str(), &part.json].concat(), "{}", page.id);
    }
}

/// A source that counts how often each model's files are read.
struct Counting {
    inner: HubCacheSource,
    loads: std::sync::Mutex<std::collections::BTreeMap<String, usize>>,
}

impl modelatlas::source::ModelSource for Counting {
    fn load(
        &self,
        id: &modelatlas::model_id::ModelId,
    ) -> Result<modelatlas::source::ModelFiles, modelatlas::source::SourceError> {
        *self.loads.lock().unwrap().entry(id.to_string()).or_default() += 1;
        self.inner.load(id)
    }
}

#[test]
fn a_build_reads_and_plans_each_model_once() {
    let manifest = Manifest::load(&repo().join("models.toml")).unwrap();
    let source = Counting { inner: HubCacheSource::new(repo().join("hub")), loads: Default::default() };
    let dir = tempfile::tempdir().unwrap();
    let report = build_site(&manifest, &source, &dir.path().join("site"), &Renderer::new()).unwrap();
    assert_eq!(report.failed().count(), 0);
    let loads = source.loads.into_inner().unwrap();
    assert_eq!(loads.len(), manifest.models.len());
    assert!(loads.values().all(|&n| n == 1), "{loads:?}");
}

/// The text of an HTML fragment: tags dropped, the entities minijinja writes decoded.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    decode_entities(&out)
}

#[test]
fn provenance_lines_are_short_and_the_full_citations_are_folded_into_a_sources_details_part() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build_repo_site(&out);
    let (mut folded, mut pages) = (0, 0);
    for (rel, bytes) in read_tree(&out) {
        if !(rel.starts_with("models/") && rel.ends_with(".html")) {
            continue;
        }
        pages += 1;
        let html = String::from_utf8(bytes).unwrap();
        let start = html.find("<h2 id=\"sources\">").unwrap_or_else(|| panic!("{rel}: no Sources"));
        let section = &html[start..start + html[start..].find("</section>").unwrap()];
        let (lines, details) = section.split_once("<details>").unwrap_or((section, ""));
        let items: Vec<String> = lines.split("<li>").skip(1).map(text_of).collect();
        assert!(items[0].starts_with("Config: config.json"), "{rel}: {:?}", items[0]);
        for item in &items {
            // A line a reader takes in at a glance: what, where, when; the citation goes below.
            assert!(
                item.chars().count() <= 200,
                "{rel}: a provenance line of {} chars: {item}",
                item.chars().count()
            );
        }
        if !details.is_empty() {
            assert!(details.starts_with("<summary>Sources in full</summary>"), "{rel}");
            folded += 1;
        }
    }
    // Every shipped model has a long config citation.
    assert_eq!(folded, pages);
    assert!(pages >= 30, "{pages} model pages");

    // The number keeps its source: the short line names the document and its commit, the
    // folded part the full path and commit. 137,022,720 is GPT-2's published count (the per-dtype
    // table of huggingface/safetensors' docs, also in tests/fixtures/reference/checkpoints.tsv).
    let gpt2 = std::fs::read_to_string(out.join("models/openai-community/gpt2.html")).unwrap();
    let gpt2 = text_of(&gpt2[gpt2.find("<h2 id=\"sources\">").unwrap()..]);
    assert!(gpt2.contains("Checkpoint, 137,022,720 scalars: huggingface/safetensors@24b0b28"), "{gpt2}");
    assert!(gpt2.contains("metadata_parsing.mdx@24b0b2857fef49be734b9ab72ce97c09bb25f5b9"), "{gpt2}");
}

/// schema_version 7: the listings leave out what a rule derives, and the rule holds for every row
/// of the shipped site (the README, "schema_version 7 (what changed from 6)"): a row's twins are its
/// `url` with `.md` / `.json`, a smallest card's memory is the card's `memory_gb` in `cards.json`,
/// a family row's page is `page_url` of its ID and its other fields are the index row's.
#[test]
fn every_field_the_listings_leave_out_follows_from_the_rule_the_readme_states() {
    use modelatlas::page::{page_url, twin};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build_repo_site(&out);
    let read = |rel: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(out.join(rel)).unwrap()).unwrap()
    };
    let index = read("index.json");
    assert_eq!(index["schema_version"], 7);
    let cards = read("cards.json");
    let memory_of = |name: &str| {
        cards["cards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .map(|c| c["memory_gb"].as_f64().unwrap())
    };
    let rows = index["models"].as_array().unwrap();
    assert!(rows.len() >= 29, "{} rows", rows.len());
    let mut cards_seen = 0;
    for row in rows {
        let (id, url) = (row["id"].as_str().unwrap(), row["url"].as_str().unwrap());
        for gone in ["json", "markdown", "smallest_card_gb"] {
            assert!(row.get(gone).is_none(), "{id}: {gone} is back");
        }
        assert_eq!(url, page_url(id), "{id}");
        // The twins by the rule are the model's files, and the JSON is the model's.
        assert!(out.join(twin(url, "md")).is_file(), "{id}: {}", twin(url, "md"));
        let model = read(&twin(url, "json"));
        assert_eq!(model["id"], id);
        // The model JSON (v7) leaves its url to the same rule.
        assert!(model.get("url").is_none(), "{id}");
        // Each smallest card is a card of the catalogue; its memory is the name's last figure.
        for mode in ["full", "lora", "qlora", "serve"] {
            let Some(name) = row["smallest_card"][mode].as_str() else { continue };
            let gb = memory_of(name).unwrap_or_else(|| panic!("{id}: {name} is not in cards.json"));
            let figure: f64 =
                name.strip_suffix(" GB").and_then(|n| n.rsplit(' ').next()).unwrap().parse().unwrap();
            assert_eq!(figure, gb, "{id}: {name}");
            cards_seen += 1;
        }
    }
    assert!(cards_seen > 50, "{cards_seen} smallest cards checked");
    // A family row is the index row's compared fields; family is the file's key, supported is
    // derived not being null.
    let mut family_rows = 0;
    for f in index["families"].as_array().unwrap() {
        let Some(url) = f["url"].as_str() else { continue };
        let family = read(&twin(url, "json"));
        assert_eq!(family["schema_version"], 7);
        for fam_row in family["models"].as_array().unwrap() {
            let row = rows.iter().find(|r| r["id"] == fam_row["id"]).expect("listed in index.json");
            assert_eq!(row["family"], family["key"]);
            assert_eq!(row["supported"], serde_json::Value::Bool(!fam_row["derived"].is_null()));
            let fields = fam_row.as_object().unwrap();
            assert_eq!(fields.len(), 13, "{fam_row}");
            for (k, v) in fields {
                assert_eq!(&row[k], v, "{}: {k}", row["id"]);
            }
            family_rows += 1;
        }
    }
    assert_eq!(family_rows, rows.len(), "every model is in its family's file once");
}

/// The index and family tables carry every figure once, without the markup that carried nothing.
#[test]
fn the_index_and_family_tables_omit_optional_end_tags_and_keep_every_figure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    build_repo_site(&out);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let body = &index[index.find("<tbody>").unwrap()..index.find("</tbody>").unwrap()];
    assert!(!body.contains("</td>") && !body.contains("</tr>") && !body.contains("class=\"num\""), "{body}");
    // xlm-roberta-base: 278,295,186 parameters (asserted in
    // `the_site_has_three_files_per_model_and_the_index_family_and_method_pages`); its config.json
    // (hub/) has max_position_embeddings 514, 12 layers of hidden size 768 and 12 heads, a
    // vocabulary of 250,002 and the class XLMRobertaForMaskedLM.
    let row = body.lines().find(|l| l.contains(">FacebookAI/xlm-roberta-base<")).unwrap();
    assert!(row.contains("<td><span title=\"278,295,186\">278M</span><td>514<td>"), "{row}");
    // Mixtral's class and active count (12.9B: 2 of 8 experts, as Mistral publishes it) are
    // searchable; its exact total is the count cell's title, not a second copy in data-s.
    let mixtral = body.lines().find(|l| l.contains(">mistralai/Mixtral-8x7B-v0.1<")).unwrap();
    assert!(mixtral.starts_with("<tr data-s=\"mixtralforcausallm 12.9b\"><th>"), "{mixtral}");
    let family = std::fs::read_to_string(out.join("families/xlm-roberta.html")).unwrap();
    let body = &family[family.find("<tbody>").unwrap()..family.find("</tbody>").unwrap()];
    assert!(!body.contains("</td>") && !body.contains("<code>"), "{body}");
    let row = body.lines().find(|l| l.contains(">FacebookAI/xlm-roberta-base<")).unwrap();
    assert!(
        row.contains(
            "<td>XLMRobertaForMaskedLM<td>12<td>768<td>12<td>12<td>250,002<td>514<td>278,295,186<td>"
        ),
        "{row}"
    );
}
