//! Every JSON file of a build validates against the JSON Schema the site publishes for it
//! (`site/schema/`), so scripts can rely on the documented shape.

mod common;

use boon::{Compiler, Schemas};
use modelatlas::manifest::Manifest;
use modelatlas::render::Renderer;
use modelatlas::site::build_site;
use modelatlas::source::hub_cache::HubCacheSource;

#[test]
fn every_json_file_of_a_build_matches_its_published_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let manifest = Manifest::load(&common::repo().join("models.toml")).unwrap();
    build_site(&manifest, &HubCacheSource::new(common::repo().join("hub")), &out, &Renderer::new()).unwrap();

    let mut schemas = Schemas::new();
    let mut compiler = Compiler::new();
    for entry in std::fs::read_dir(out.join("schema")).unwrap() {
        let path = entry.unwrap().path();
        let url = format!("file:///schema/{}", path.file_name().unwrap().to_string_lossy());
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        compiler.add_resource(&url, doc).unwrap();
    }
    let mut compile = |name: &str| compiler.compile(&format!("file:///schema/{name}"), &mut schemas).unwrap();
    let (model, index, family) =
        (compile("model.schema.json"), compile("index.schema.json"), compile("family.schema.json"));

    let mut checked = 0;
    for (rel, bytes) in common::read_tree(&out) {
        let schema = if rel == "index.json" {
            index
        } else if rel.starts_with("families/") && rel.ends_with(".json") {
            family
        } else if rel.starts_with("models/") && rel.ends_with(".json") && !rel.ends_with(".badge.json") {
            model
        } else {
            continue;
        };
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        if let Err(e) = schemas.validate(&value, schema) {
            panic!("{rel} does not match its schema:\n{e:#}");
        }
        checked += 1;
    }
    // 29 models, the index, and a family file per family built.
    assert!(checked >= 29 + 1 + 15, "only {checked} JSON files checked");
}

/// One of the schemas the binary embeds (and publishes), compiled with the others it refers to.
fn embedded_schema(name: &str) -> (Schemas, boon::SchemaIndex) {
    let mut schemas = Schemas::new();
    let mut compiler = Compiler::new();
    for (file, text) in modelatlas::render::SCHEMAS {
        compiler
            .add_resource(&format!("file:///schema/{file}"), serde_json::from_str(text).unwrap())
            .unwrap();
    }
    let index = compiler.compile(&format!("file:///schema/{name}"), &mut schemas).unwrap();
    (schemas, index)
}

#[test]
fn the_schema_rejects_a_file_that_breaks_it() {
    // Guard against a schema so loose that nothing fails: drop a required field.
    let (schemas, model) = embedded_schema("model.schema.json");
    let page = common::plan_id("FacebookAI/xlm-roberta-base");
    let mut value = serde_json::to_value(&page).unwrap();
    schemas.validate(&value, model).unwrap();
    value.as_object_mut().unwrap().remove("params");
    assert!(schemas.validate(&value, model).is_err());
    value["params"] = serde_json::json!({"derived": -1});
    assert!(schemas.validate(&value, model).is_err());
}

#[test]
fn the_summary_schema_rejects_a_wrong_type_an_unknown_tag_a_missing_field_and_an_extra_one() {
    let (schemas, summary) = embedded_schema("summary.schema.json");
    let valid = serde_json::to_value(common::plan_id("mistralai/Mixtral-8x7B-v0.1").summary()).unwrap();
    schemas.validate(&valid, summary).unwrap();
    // Mixtral routes 2 of 8 experts and has 8 key/value heads for 32 query heads.
    assert_eq!(valid["tags"], serde_json::json!(["moe", "gqa", "decoder"]));
    type Mutation = fn(&mut serde_json::Value);
    let broken: [(&str, Mutation); 5] = [
        ("card memory as a string", |v| v["smallest_card_gb"]["lora"] = "80 GB".into()),
        ("an unknown tag", |v| v["tags"] = serde_json::json!(["huge"])),
        ("tags missing", |v| {
            v.as_object_mut().unwrap().remove("tags");
        }),
        ("an undocumented field", |v| v["extra"] = 1.into()),
        ("a card name as a number", |v| v["smallest_card"]["full"] = 80.into()),
    ];
    for (what, mutate) in broken {
        let mut v = valid.clone();
        mutate(&mut v);
        assert!(schemas.validate(&v, summary).is_err(), "accepted with {what}");
    }
}
