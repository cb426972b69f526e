//! Every JSON file of a build validates against the JSON Schema the site publishes for it
//! (`site/schema/`), so scripts can rely on the documented shape.

mod common;

use boon::{Compiler, Schemas};
use modelatlas::manifest::Manifest;
use modelatlas::render::Renderer;
use modelatlas::site::build_site;
use modelatlas::source::hub_cache::HubCacheSource;

#[test]
fn every_json_file_of_a_build_matches_its_published_schema_found_at_its_absolute_id() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let manifest = Manifest::load(&common::repo().join("models.toml")).unwrap();
    build_site(&manifest, &HubCacheSource::new(common::repo().join("hub")), &out, &Renderer::new()).unwrap();

    let base = &manifest.site.base_url;
    let mut schemas = Schemas::new();
    let mut compiler = Compiler::new();
    let mut published = 0;
    for entry in std::fs::read_dir(out.join("schema")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        // Registered at its `$id` only, as a validator that fetched it from the site holds it:
        // the `$ref`s between the schemas must resolve to the published URLs.
        let id = format!("{base}schema/{name}");
        assert_eq!(doc["$id"], id.as_str(), "{name}");
        compiler.add_resource(&id, doc).unwrap();
        published += 1;
    }
    assert_eq!(published, modelatlas::render::SCHEMAS.len());
    let mut compile = |name: &str| compiler.compile(&format!("{base}schema/{name}"), &mut schemas).unwrap();
    let (model, index, family) =
        (compile("model.schema.json"), compile("index.schema.json"), compile("family.schema.json"));
    let (cards, recipes) = (compile("cards.schema.json"), compile("recipes.schema.json"));

    let mut checked = 0;
    for (rel, bytes) in common::read_tree(&out) {
        let schema = if rel == "index.json" {
            index
        } else if rel == "cards.json" {
            cards
        } else if rel == "recipes.json" {
            recipes
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
    // 29 models, the index, a family file per family built, the cards and the recipes.
    assert!(checked >= 29 + 1 + 15 + 2, "only {checked} JSON files checked");
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

/// Pointers into a model JSON, one per part the Hub issue and the lean pages made strict: each is
/// mutated three ways (a wrong type, a required field removed, an unknown field added).
const MODEL_POINTERS: &[&str] = &[
    "",
    "/source",
    "/params",
    "/params/reconciliation",
    "/structure",
    "/structure/sections/0",
    "/training",
    "/training/options",
    "/training/options/dropout",
    "/training/recipes/0",
    "/serving",
    "/serving/kv",
    "/serving/kv/layout",
    "/fit",
    "/fit/modes/0",
    "/fit/modes/3/smallest_card",
    "/cost",
    "/cost/training",
    "/cost/training/cheapest",
    "/cost/serving",
    "/lints/0",
];

/// Pointers to the arrays of a fixed shape (a phase's terms, a node, a tensor, a breakdown, a
/// weights row): each is broken by an element of the wrong type and by one element too many.
const MODEL_TUPLES: &[&str] = &[
    "/fit/modes/0/phases/0",
    "/training/recipes/0/terms/0",
    "/training/activations_eager",
    "/training/full",
    "/structure/sections/1/nodes/1",
    // A tensor written as `[name, shape]` (the test writes this `.weight` so: schema_version 7
    // writes a node's own untied `.weight` as its shape alone).
    "/structure/sections/1/nodes/1/3/0",
    "/training/activation_nodes/1",
    "/training/activation_nodes_eager/5",
    "/serving/weights/0",
];

/// The fields schema_version 7 leaves out where they do not apply: removing one leaves a valid
/// document.
fn optional(pointer: &str, key: &str) -> bool {
    match pointer {
        "" => ["unsupported_reason", "config_facts", "vision", "changes"].contains(&key),
        "/source" => ["downloads", "last_modified", "likes", "gated"].contains(&key),
        "/params" => key == "other_release",
        "/serving" => key == "encoder_working_bytes_per_token",
        _ => {
            (pointer.starts_with("/lints/") && key == "fix")
                || (pointer.starts_with("/structure/sections/") && key == "layers")
        }
    }
}

fn tuple_mutations(doc: &serde_json::Value, pointer: &str) -> Vec<(String, serde_json::Value)> {
    let len = doc
        .pointer(pointer)
        .and_then(|t| t.as_array())
        .unwrap_or_else(|| panic!("{pointer:?} is not an array"))
        .len();
    let mut out = vec![];
    for i in 0..len {
        let mut v = doc.clone();
        v.pointer_mut(pointer).unwrap()[i] = serde_json::json!({"wrong": true});
        out.push((format!("{pointer}/{i} of the wrong type"), v));
    }
    let mut v = doc.clone();
    let long = v.pointer_mut(pointer).unwrap().as_array_mut().unwrap();
    // Fill to the longest the shape allows, then one more.
    while long.len() < 8 {
        long.push(0.into());
    }
    out.push((format!("{pointer} with too many elements"), v));
    out
}

/// Every way [`MODEL_POINTERS`] breaks an object: for each of its fields, that field set to a
/// value of another type, and that field removed; then an unknown field added.
fn mutations(doc: &serde_json::Value, pointer: &str) -> Vec<(String, serde_json::Value)> {
    let target = doc.pointer(pointer).unwrap_or_else(|| panic!("no {pointer:?} in the document"));
    let fields = target.as_object().unwrap_or_else(|| panic!("{pointer:?} is not an object"));
    let mut out = vec![];
    for (key, value) in fields {
        // A value of a type no field of the schema takes where this one is: an object where a
        // scalar or an array is, a list of one boolean where an object is.
        let wrong =
            if value.is_object() { serde_json::json!([true]) } else { serde_json::json!({"wrong": true}) };
        let mut v = doc.clone();
        v.pointer_mut(pointer).unwrap()[key.as_str()] = wrong;
        out.push((format!("{pointer}/{key} of the wrong type"), v));
        let mut v = doc.clone();
        v.pointer_mut(pointer).unwrap().as_object_mut().unwrap().remove(key);
        out.push((format!("{pointer}/{key} missing"), v));
    }
    let mut v = doc.clone();
    v.pointer_mut(pointer).unwrap()["undocumented"] = 1.into();
    out.push((format!("an unknown field in {pointer:?}"), v));
    out
}

#[test]
fn the_model_schema_rejects_a_wrong_type_a_missing_field_and_an_unknown_one_in_every_part() {
    let (schemas, model) = embedded_schema("model.schema.json");
    // Mixtral: every part is present (a KV cache, a serving cost, experts, lints).
    let page = common::plan_id("mistralai/Mixtral-8x7B-v0.1");
    let mut valid = serde_json::to_value(page.json()).unwrap();
    schemas.validate(&valid, model).unwrap();
    // A linear's `.weight`, its shape alone; the named form is valid too.
    let weight = valid.pointer_mut("/structure/sections/1/nodes/1/3/0").unwrap();
    assert!(weight.as_array().unwrap().iter().all(|d| d.is_u64()), "{weight}");
    *weight = serde_json::json!([".weight", weight.clone()]);
    schemas.validate(&valid, model).unwrap();
    let mut checked = 0;
    for pointer in MODEL_POINTERS {
        for (what, broken) in mutations(&valid, pointer) {
            let missing = what.ends_with(" missing");
            let key = what.trim_end_matches(" missing").rsplit('/').next().unwrap_or_default();
            if missing && optional(pointer, key) {
                // A field that applies to some models only may be absent (schema_version 7).
                schemas.validate(&broken, model).unwrap_or_else(|e| panic!("refused with {what}: {e}"));
            } else {
                assert!(schemas.validate(&broken, model).is_err(), "accepted with {what}");
            }
            checked += 1;
        }
    }
    // Those fields are absent from Mixtral's document where they do not apply.
    for (pointer, key) in [
        ("", "unsupported_reason"),
        ("/params", "other_release"),
        ("/serving", "encoder_working_bytes_per_token"),
    ] {
        assert!(valid.pointer(pointer).unwrap().get(key).is_none(), "{pointer}/{key}");
    }
    for pointer in MODEL_TUPLES {
        for (what, broken) in tuple_mutations(&valid, pointer) {
            assert!(schemas.validate(&broken, model).is_err(), "accepted with {what}");
            checked += 1;
        }
    }
    assert!(checked > 250, "only {checked} mutations");
}

#[test]
fn the_index_family_cards_and_recipes_schemas_reject_a_wrong_type_a_missing_field_and_an_unknown_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    let manifest = Manifest::load(&common::repo().join("models.toml")).unwrap();
    build_site(&manifest, &HubCacheSource::new(common::repo().join("hub")), &out, &Renderer::new()).unwrap();
    for (file, schema, pointers) in [
        ("index.json", "index.schema.json", &["", "/families/0", "/models/0"][..]),
        ("families/roberta.json", "family.schema.json", &["", "/derives_from", "/models/0"][..]),
        ("cards.json", "cards.schema.json", &["", "/cards/0", "/cards/0/runtime"][..]),
        ("recipes.json", "recipes.schema.json", &["", "/recipes/0"][..]),
    ] {
        let (schemas, index) = embedded_schema(schema);
        let valid: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(file)).unwrap()).unwrap();
        schemas.validate(&valid, index).unwrap();
        for pointer in pointers {
            for (what, broken) in mutations(&valid, pointer) {
                assert!(schemas.validate(&broken, index).is_err(), "{file} accepted with {what}");
            }
        }
    }
}

#[test]
fn the_schema_rejects_a_file_that_breaks_it() {
    // Guard against a schema so loose that nothing fails: drop a required field.
    let (schemas, model) = embedded_schema("model.schema.json");
    let page = common::plan_id("FacebookAI/xlm-roberta-base");
    let mut value = serde_json::to_value(page.json()).unwrap();
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
        ("v6's smallest_card_gb back (schema 7 derives it from cards.json)", |v| {
            v["smallest_card_gb"] =
                serde_json::json!({"full": 80.0, "lora": 80.0, "qlora": 16.0, "serve": 24.0})
        }),
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
