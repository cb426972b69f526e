//! `build --from DIR` and `plan DIR`: models found in a folder tree (a Hugging Face cache, plain
//! folders each holding a config.json), with loops and non-model folders skipped by message.

use std::path::Path;
use std::process::Command;

/// A GPT-2 of 2 layers, width 8, 16 positions, vocabulary 32: per layer ln_1 16 + c_attn 216 +
/// c_proj 72 + ln_2 16 + c_fc 288 + mlp.c_proj 264 = 872, two layers 1744, + wte 256 + wpe 128
/// + ln_f 16 = 2144.
const TINY: &str = r#"{"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 8, "n_head": 2,
  "n_layer": 2, "n_positions": 16, "n_ctx": 16, "vocab_size": 32}"#;
const TINY_SCALARS: u64 = 2144;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn tree(root: &Path) {
    let sha = "0123456789abcdef0123456789abcdef01234567";
    write(&root.join("cache/models--org--tiny/refs/main"), sha);
    write(&root.join(format!("cache/models--org--tiny/snapshots/{sha}/config.json")), TINY);
    write(&root.join("finetunes/my-ft/config.json"), TINY);
    write(&root.join("notes/readme.txt"), "not a model");
    std::fs::create_dir_all(root.join("broken/config.json")).unwrap();
    std::os::unix::fs::symlink(root, root.join("finetunes/loop")).unwrap();
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_modelatlas"));
    c.env("HF_HUB_OFFLINE", "1").env_remove("MODELATLAS_HUB");
    c
}

#[test]
fn build_from_a_folder_tree_builds_cache_and_plain_folder_models_and_skips_the_rest_by_message() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    tree(&root);
    let manifest = dir.path().join("models.toml");
    write(&manifest, "[site]\ntitle = \"mine\"\nbase_url = \"https://example.org/\"\n");
    let site = dir.path().join("site");
    let out = bin()
        .arg("build")
        .arg("--manifest")
        .arg(&manifest)
        .arg("--from")
        .arg(&root)
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(site.join("models/org/tiny.html").is_file(), "{stderr}");
    assert!(site.join("models/finetunes/my-ft.html").is_file(), "{stderr}");
    assert!(stderr.contains("symlink loop"), "{stderr}");
    assert!(stderr.contains("notes") && stderr.contains("not a model folder"), "{stderr}");
    assert!(stderr.contains("config.json is not a file"), "{stderr}");
    assert!(stderr.contains("2 model(s) found"), "{stderr}");
    assert!(!stderr.contains("panicked"));
}

#[test]
fn plan_of_a_folder_tree_plans_every_model_found() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("tree");
    tree(&root);
    let out = bin().arg("plan").arg(&root).args(["--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["org/tiny", "finetunes/my-ft"]);
    for p in v.as_array().unwrap() {
        assert_eq!(p["params"]["derived"], TINY_SCALARS);
    }
}

#[test]
fn a_tree_without_any_model_is_an_error_that_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a/readme.txt"), "x");
    let out = bin().arg("plan").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no model found"));
}
