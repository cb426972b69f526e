//! No input makes the planner panic: every key of every snapshot config, replaced by values a
//! broken or hostile config could hold, gives a page that renders or a typed error that names a
//! field.

mod common;

use modelatlas::model_id::ModelId;
use modelatlas::source::ModelSource;

#[test]
fn every_key_of_every_config_set_to_a_bad_value_plans_or_fails_cleanly() {
    let manifest = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap();
    let bad = [
        serde_json::json!(0),
        serde_json::json!(-1),
        serde_json::json!(1_000_000_000_000_000u64),
        serde_json::json!(u64::MAX),
        serde_json::json!(3.5),
        serde_json::json!("x"),
        serde_json::json!(null),
        serde_json::json!(true),
        serde_json::json!([]),
        serde_json::json!({}),
    ];
    let renderer = modelatlas::render::Renderer::new();
    let site = manifest.site.clone();
    let mut planned = 0;
    let mut refused = 0;
    for id in &manifest.models {
        let files = common::snapshot().load(&ModelId::parse(&id.to_string()).unwrap()).unwrap();
        let base: serde_json::Value = serde_json::from_str(&files.config_text).unwrap();
        for key in base.as_object().unwrap().keys() {
            for value in &bad {
                let mut v = base.clone();
                v[key] = value.clone();
                match common::plan_text(&v.to_string()) {
                    Ok(page) => {
                        // And it renders: a template error is an error too, never a panic.
                        if let Err(e) = renderer.model(&page, &site, "../../") {
                            panic!("{id} {key}={value}: {e}");
                        }
                        planned += 1;
                    }
                    Err(e) => {
                        // A refusal names the model, the file and a field.
                        let msg = e.to_string();
                        assert!(
                            msg.contains("config.json") && msg.contains("field `"),
                            "{id} {key}={value}: {msg}"
                        );
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(planned > 1000 && refused > 1000, "planned {planned}, refused {refused}");
}
