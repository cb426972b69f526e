//! `modelatlas plan`, as a user runs it on the snapshot or on their own config.json.

mod common;

use std::process::{Command, Output};

fn plan(args: &[&str]) -> Output {
    // Offline: a model missing from the snapshot would otherwise be fetched from the Hub.
    Command::new(env!("CARGO_BIN_EXE_modelatlas"))
        .current_dir(common::repo())
        .env("HF_HUB_OFFLINE", "1")
        .arg("plan")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn plan_prints_json_that_matches_the_site_file() {
    let out = plan(&["FacebookAI/xlm-roberta-base", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 7);
    assert_eq!(v["params"]["derived"], 278_295_186);
    // Each sample's logits hold 512 usable tokens x 250,002 x (2 bf16 + 4 fp32 for the
    // cross-entropy) = 768 MB, so the smallest card that holds a LoRA step cannot hold more
    // samples than its memory over that.
    let logits_per_sample = 512.0 * 250_002.0 * 6.0;
    assert!((logits_per_sample / 1e6_f64 - 768.0).abs() < 1.0);
    let lora = &v["fit"]["modes"][1];
    assert_eq!(lora["id"], "lora");
    let card = lora["smallest_card"]["card"].as_str().unwrap();
    let gb = modelatlas::estimate::cards::builtin().iter().find(|c| c.id == card).unwrap().memory_gb;
    let batch = lora["smallest_card"]["largest_batch"].as_u64().unwrap();
    assert!(batch > 0 && (batch as f64) < gb * 1e9 / logits_per_sample, "{batch} on {card}");
    // The same bytes as the site's file (the build writes the page's JSON the same way).
    let page = common::plan_id("FacebookAI/xlm-roberta-base");
    let site = serde_json::to_value(page.json()).unwrap();
    assert_eq!(v["fit"], site["fit"]);
}

#[test]
fn plan_reads_any_config_on_disk_and_the_model_folder_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("my-encoder");
    std::fs::create_dir(&folder).unwrap();
    let config = common::reference_config_with(
        "google-bert--bert-base-uncased",
        serde_json::json!({"architectures": ["BertForTokenClassification"], "num_labels": 9}),
    );
    std::fs::write(folder.join("config.json"), config).unwrap();
    for target in [folder.join("config.json"), folder.clone()] {
        let out = plan(&[target.to_str().unwrap(), "--format", "json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["id"], "my-encoder");
        assert_eq!(v["architecture"], "BertForTokenClassification");
        // 108,891,648 for the encoder without pooler + 768 x 9 + 9 for the token classifier.
        assert_eq!(v["params"]["derived"], 108_891_648 + 768 * 9 + 9);
        assert!(v["params"]["checkpoint"].is_null(), "nothing published is known for a local file");
    }
}

#[test]
fn plan_text_and_markdown_carry_the_same_figures() {
    let text = String::from_utf8(plan(&["FacebookAI/roberta-base"]).stdout).unwrap();
    assert!(text.contains("124,697,433 derived"), "{text}");
    assert!(text.contains("+514  position_ids buffer"), "{text}");
    let md = String::from_utf8(plan(&["FacebookAI/roberta-base", "--format", "md"]).stdout).unwrap();
    assert!(md.starts_with("# FacebookAI/roberta-base\n"));
    assert!(md.contains("124,697,433 parameters"), "{md}");
}

#[test]
fn plan_reports_a_bad_config_with_its_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.json");
    std::fs::write(&path, r#"{"model_type": "roberta", "num_attention_heads": "twelve"}"#).unwrap();
    let out = plan(&[path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("config.json") && err.contains("`num_attention_heads`"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn plan_refuses_an_id_that_could_escape_the_snapshot() {
    for bad in ["../../etc/passwd-model", "org/na\\me"] {
        let out = plan(&[bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("model ID"), "{err}");
    }
    let out = plan(&["nobody/not-in-snapshot"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not in the snapshot"));
}

#[test]
fn a_config_whose_heads_do_not_divide_the_hidden_size_does_not_forward_pass() {
    let config = common::reference_config_with(
        "FacebookAI--roberta-base",
        serde_json::json!({"num_attention_heads": 11}),
    );
    let page = common::plan_text(&config).unwrap();
    let fp = page.forward_pass.unwrap();
    assert!(!fp.ok);
    assert!(fp.problems[0].contains("num_attention_heads (11) does not divide hidden_size (768)"));
    assert!(page.lints.iter().any(|l| l.id == "heads-do-not-divide-hidden"));
}

#[test]
fn plan_takes_the_training_recipe_as_an_input_and_refuses_an_unknown_one() {
    let out = plan(&["FacebookAI/roberta-base", "--format", "json", "--recipe", "bf16-adamw-bf16-states"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["training"]["options"]["recipe"], "bf16-adamw-bf16-states");
    // 2 + 2 + 4 bytes per parameter of the full fine-tune's weights, gradients and states (the
    // breakdown's first three).
    let params = v["params"]["derived"].as_f64().unwrap();
    let b = &v["training"]["full"];
    let persistent = b[0].as_f64().unwrap() + b[1].as_f64().unwrap() + b[2].as_f64().unwrap();
    assert_eq!(persistent, 8.0 * params);
    let bad = plan(&["FacebookAI/roberta-base", "--recipe", "adam-in-fp64"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("amp-adamw"), "the error lists the recipes");
}
