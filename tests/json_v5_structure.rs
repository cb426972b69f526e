//! schema_version 5 folds runs of like layers into one section per kind, with the indices `{i}`
//! takes as runs `[first, last, step]`. These tests read the JSON text as a script would (the
//! README's rules: a section's parameters are repeat x the sum over its nodes of copies x the
//! product of each untied tensor's shape) and check it against the config and `params.derived`.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

fn json_of(id: &str) -> Value {
    let page = common::plan_id(id);
    serde_json::from_str(&serde_json::to_string(&page.json()).unwrap()).unwrap()
}

/// A run `[first, last, step]`, expanded.
fn indices(run: &Value) -> Vec<u64> {
    let r: Vec<u64> = run.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    let (first, last, step) = (r[0], r[1], r[2]);
    assert!(step >= 1 && first <= last && (last - first) % step == 0, "run {run}");
    (first..=last).step_by(step as usize).collect()
}

/// Each `{i}` section's name and indices, in order.
fn layer_sections(json: &Value) -> Vec<(String, Vec<u64>)> {
    json["structure"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["name"].as_str().unwrap().contains("{i}"))
        .map(|s| {
            let mut idx: Vec<u64> = s["layers"].as_array().unwrap().iter().flat_map(indices).collect();
            idx.sort_unstable();
            (s["name"].as_str().unwrap().to_string(), idx)
        })
        .collect()
}

/// Parameters of a section as the README defines them.
fn section_params(s: &Value) -> u64 {
    let each: u64 = s["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| {
            let node = node.as_array().unwrap();
            let copies = node.get(4).map_or(1, |c| c.as_u64().unwrap());
            copies
                * node[3]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(common::json_tensor)
                    .filter(|(_, _, tied)| tied.is_none())
                    .map(|(_, shape, _)| shape.iter().product::<u64>())
                    .sum::<u64>()
        })
        .sum();
    s["repeat"].as_u64().unwrap() * each
}

fn snapshot_ids() -> Vec<String> {
    let manifest = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap();
    manifest.models.iter().map(|m| m.to_string()).collect()
}

#[test]
fn every_snapshot_models_folded_sections_sum_to_its_derived_parameter_count() {
    let mut checked = 0;
    for id in snapshot_ids() {
        let json = json_of(&id);
        if json["structure"].is_null() {
            continue;
        }
        let sections = json["structure"]["sections"].as_array().unwrap();
        let sum: u64 = sections.iter().map(section_params).sum();
        assert_eq!(sum, json["params"]["derived"].as_u64().unwrap(), "{id}");
        checked += 1;
    }
    // Every model of the snapshot is supported.
    assert_eq!(checked, snapshot_ids().len());
}

#[test]
fn every_layer_of_every_snapshot_model_is_in_exactly_one_section_and_repeat_counts_them() {
    for id in snapshot_ids() {
        let json = json_of(&id);
        if json["structure"].is_null() {
            continue;
        }
        for s in json["structure"]["sections"].as_array().unwrap() {
            let name = s["name"].as_str().unwrap();
            if name.contains("{i}") {
                let n: usize = s["layers"].as_array().unwrap().iter().map(|r| indices(r).len()).sum();
                assert_eq!(n as u64, s["repeat"].as_u64().unwrap(), "{id} {name}");
            } else {
                assert!(s.get("layers").is_none(), "{id} {name}: layers without {{i}}");
            }
        }
        // The sections of one name share out the indices 0 to n - 1, each once.
        let mut by_name: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for (name, idx) in layer_sections(&json) {
            by_name.entry(name).or_default().extend(idx);
        }
        for (name, mut idx) in by_name {
            idx.sort_unstable();
            let want: Vec<u64> = (0..idx.len() as u64).collect();
            assert_eq!(idx, want, "{id} {name}");
        }
    }
}

/// The config's own keys, read from the snapshot's `config.json`.
fn config(id: &str) -> Value {
    let folder = id.replace('/', "--");
    let text = std::fs::read_to_string(common::snapshot_config_path(&folder)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn kinds(json: &Value) -> Vec<Vec<u64>> {
    layer_sections(json).into_iter().filter(|(n, _)| n == "model.layers.{i}").map(|(_, i)| i).collect()
}

#[test]
fn dense_layers_before_the_experts_fold_into_one_section_and_the_expert_layers_into_another() {
    for id in ["zai-org/GLM-5.1", "deepseek-ai/DeepSeek-V3.2", "zai-org/GLM-4.7-Flash"] {
        let c = config(id);
        let dense = c["first_k_dense_replace"].as_u64().unwrap();
        let layers = c["num_hidden_layers"].as_u64().unwrap();
        assert_eq!(kinds(&json_of(id)), [(0..dense).collect::<Vec<_>>(), (dense..layers).collect()], "{id}");
    }
}

#[test]
fn a_full_attention_layer_every_fourth_folds_apart_from_the_linear_attention_layers() {
    let id = "Qwen/Qwen3-Next-80B-A3B-Instruct";
    let c = config(id);
    let every = c["full_attention_interval"].as_u64().unwrap();
    let layers = c["num_hidden_layers"].as_u64().unwrap();
    // Qwen3NextConfig: layer i is full attention where (i + 1) % interval == 0.
    let full: Vec<u64> = (0..layers).filter(|i| (i + 1) % every == 0).collect();
    let linear: Vec<u64> = (0..layers).filter(|i| (i + 1) % every != 0).collect();
    assert_eq!(kinds(&json_of(id)), [linear, full]);
    // The linear layers as one run per residue: [0, 44, 4], [1, 45, 4], [2, 46, 4].
    let json = json_of(id);
    let first = json["structure"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "model.layers.{i}")
        .unwrap();
    assert_eq!(first["layers"].as_array().unwrap().len() as u64, every - 1);
}

#[test]
fn jambas_attention_mamba_and_expert_layers_fold_into_one_section_per_combination() {
    let id = "ai21labs/AI21-Jamba-1.5-Mini";
    let c = config(id);
    let n = |k: &str| c[k].as_u64().unwrap();
    let (ap, ao, ep, eo) =
        (n("attn_layer_period"), n("attn_layer_offset"), n("expert_layer_period"), n("expert_layer_offset"));
    let kind = |i: u64| (i % ap == ao, i % ep == eo);
    // Kinds in the order of their first layer.
    let mut order: Vec<(bool, bool)> = vec![];
    let mut want: Vec<Vec<u64>> = vec![];
    for i in 0..n("num_hidden_layers") {
        match order.iter().position(|k| *k == kind(i)) {
            Some(at) => want[at].push(i),
            None => {
                order.push(kind(i));
                want.push(vec![i]);
            }
        }
    }
    assert_eq!(kinds(&json_of(id)), want);
}

#[test]
fn the_five_models_with_unlike_layers_write_each_kind_of_layer_once() {
    // Before folding each wrote one section per layer: 49 to 186 kB of JSON. One section per
    // kind leaves them within a few times a uniform model's.
    for id in [
        "zai-org/GLM-5.1",
        "deepseek-ai/DeepSeek-V3.2",
        "zai-org/GLM-4.7-Flash",
        "Qwen/Qwen3-Next-80B-A3B-Instruct",
        "ai21labs/AI21-Jamba-1.5-Mini",
    ] {
        let json = json_of(id);
        let names: BTreeSet<String> = json["structure"]["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with("model.layers.") || n == "model.layers.{i}"),
            "{id}: {names:?}"
        );
        // A row names a node of the structure (`[section, node, ...]`) or itself; a node's row
        // in a section of like layers stands for the node in each of them (schema_version 7: two
        // sections of one name are told apart by the row's section, so its repeat is that one's).
        for r in json["training"]["activation_nodes"].as_array().unwrap() {
            let (name, rest) = common::json_activation_row(&json, r);
            let after = name.strip_prefix("model.layers.").unwrap_or("{");
            assert!(after.starts_with('{'), "{id}: the activation row {name} names a layer by its index");
            if let Some(section) = r[0].as_u64() {
                let section = &json["structure"]["sections"][section as usize];
                if section.get("layers").is_some() {
                    assert_eq!(rest[0], section["repeat"], "{id}: {name}");
                }
            }
        }
        let bytes = serde_json::to_string(&json).unwrap().len();
        assert!(bytes < 20_000, "{id}: {bytes} bytes of JSON");
    }
}
