//! The verifier's rules on published configs, through the whole planner: the published files
//! raise what they should and nothing spurious, and each edited file raises its rule while its
//! page is still built (a rule never stops a plan).

mod common;

use serde_json::json;

fn ids(folder: &str, patch: serde_json::Value) -> Vec<&'static str> {
    let page = common::plan_text(&common::reference_config_with(folder, patch))
        .unwrap_or_else(|e| panic!("{folder}: {e}"));
    assert!(page.supported, "{folder}");
    page.lints.iter().map(|l| l.id).collect()
}

const LLAMA31: &str = "meta-llama--Llama-3.1-8B";
const MISTRAL: &str = "mistralai--Mistral-7B-v0.1";

#[test]
fn llama_3_1_8b_as_published_has_consistent_rope_scaling_a_bf16_warning_and_a_large_untied_head() {
    // rope_scaling: llama3, factor 8, low 1 < high 4, original 8192 < 131072 positions.
    let found = ids(LLAMA31, json!({}));
    assert!(!found.contains(&"rope-scaling-inconsistent"), "{found:?}");
    assert!(!found.contains(&"context-beyond-rope-original-length"), "{found:?}");
    // torch_dtype bfloat16, and the catalogue's T4 has no bf16.
    assert!(found.contains(&"bf16-on-card-without-bf16"), "{found:?}");
    // 128,256 tokens, tie_word_embeddings false.
    assert!(found.contains(&"untied-head-on-large-vocabulary"), "{found:?}");
}

#[test]
fn llama_3_1_8b_with_its_frequency_factors_swapped_is_inconsistent() {
    let rs = json!({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
        "original_max_position_embeddings": 8192});
    assert!(ids(LLAMA31, json!({ "rope_scaling": rs })).contains(&"rope-scaling-inconsistent"));
}

#[test]
fn a_rope_scaling_that_is_not_an_object_is_refused_by_the_planner_with_the_field_named() {
    // The Llama-family resolver refuses it before the verifier runs (the rule's own unit tests
    // cover a verifier given such a value); either way the answer is a typed error, not a panic.
    for odd in [json!("linear"), json!(8), json!([1, 2])] {
        let e = common::plan_text(&common::reference_config_with(LLAMA31, json!({ "rope_scaling": odd })))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("rope_scaling"), "{e}");
    }
}

#[test]
fn a_rope_scaling_of_an_unknown_type_is_reported() {
    let rs = json!({"rope_type": "ntk-by-parts", "factor": 4.0});
    assert!(ids(LLAMA31, json!({ "rope_scaling": rs })).contains(&"rope-scaling-inconsistent"));
}

#[test]
fn mistral_7b_v0_1_slides_a_4096_window_over_32768_positions() {
    assert!(!ids(MISTRAL, json!({})).contains(&"sliding-window-exceeds-context"));
    assert!(ids(MISTRAL, json!({"sliding_window": 32768})).contains(&"sliding-window-exceeds-context"));
}

#[test]
fn qwen2_5_keeps_a_window_it_does_not_use() {
    // sliding_window 32768 = max_position_embeddings, but use_sliding_window is false.
    let folder = "Qwen--Qwen2.5-0.5B";
    assert!(!ids(folder, json!({})).contains(&"sliding-window-exceeds-context"));
    assert!(ids(folder, json!({"use_sliding_window": true})).contains(&"sliding-window-exceeds-context"));
}

#[test]
fn mixtral_cannot_route_to_more_than_its_eight_experts() {
    let folder = "mistralai--Mixtral-8x7B-v0.1";
    assert!(!ids(folder, json!({})).contains(&"moe-top-k-exceeds-experts"));
    // The Mixtral resolver already refuses 9 of 8 with the field named; the rule covers the
    // dimensions of any family whose resolver does not.
    let e = common::plan_text(&common::reference_config_with(folder, json!({"num_experts_per_tok": 9})))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("num_experts_per_tok"), "{e}");
}

#[test]
fn key_value_heads_must_group_the_query_heads() {
    // Mistral: 32 query heads over 8 key/value heads; 5 leaves a remainder of 2.
    assert!(!ids(MISTRAL, json!({})).contains(&"kv-heads-do-not-divide-heads"));
    assert!(ids(MISTRAL, json!({"num_key_value_heads": 5})).contains(&"kv-heads-do-not-divide-heads"));
}

#[test]
fn bert_in_float16_loses_its_epsilon() {
    // layer_norm_eps 1e-12 is below float16's 2^-24 = 5.96e-8.
    let folder = "google-bert--bert-base-uncased";
    assert!(!ids(folder, json!({})).contains(&"fp16-with-small-layer-norm-eps"));
    assert!(ids(folder, json!({"torch_dtype": "float16"})).contains(&"fp16-with-small-layer-norm-eps"));
    // Llama 2 in float16 keeps 1e-5.
    assert!(!ids("meta-llama--Llama-2-7b-hf", json!({})).contains(&"fp16-with-small-layer-norm-eps"));
}

#[test]
fn the_method_page_documents_every_rule_in_its_own_section_with_its_reason_and_fix() {
    let site = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap().site;
    let (html, _markdown) = modelatlas::render::Renderer::new().method(&site).unwrap();
    let rules = modelatlas::estimate::lints::RULES;
    assert!(rules.len() >= 12);
    for r in rules {
        // Model pages link method.html#lint-<id>.
        let anchor = format!("<h3 id=\"lint-{}\">", r.id);
        let start = html.find(&anchor).unwrap_or_else(|| panic!("no section for {}", r.id));
        let section = &html[start..];
        let section = &section[..section[4..].find("<h").map_or(section.len(), |i| i + 4)];
        for needle in ["Severity:", "Fires when", "Why it matters.", "Fix."] {
            assert!(section.contains(needle), "{}: {needle} missing", r.id);
        }
    }
}

#[test]
fn an_untied_vocabulary_head_is_counted_only_where_the_class_has_one() {
    // Qwen3-8B: 151,936 tokens, tie_word_embeddings false; its classifier has no vocabulary head.
    let folder = "Qwen--Qwen3-8B";
    assert!(ids(folder, json!({})).contains(&"untied-head-on-large-vocabulary"));
    let cls = json!({"architectures": ["Qwen3ForSequenceClassification"], "num_labels": 3});
    assert!(!ids(folder, cls).contains(&"untied-head-on-large-vocabulary"));
}

#[test]
fn in_the_built_in_catalogue_only_the_t4_lacks_native_bf16() {
    // The T4 is Turing (compute capability 7.5): no bf16 tensor cores. Ampere (A100, A10G), Ada
    // (L4, L40S, RTX 4090), Hopper (H100, H200), Blackwell and CDNA 3 (MI300X) all have them.
    let cards = modelatlas::estimate::cards::builtin();
    let without: Vec<&str> = cards.iter().filter(|c| !c.bf16_native).map(|c| c.name.as_str()).collect();
    assert!(!without.is_empty() && without.iter().all(|n| n.starts_with("T4")), "{without:?}");
}

#[test]
fn the_bf16_warning_names_the_cards_of_the_catalogue_without_it() {
    let page = common::plan_text(&common::reference_config_with(MISTRAL, json!({}))).unwrap();
    let l = page.lints.iter().find(|l| l.id == "bf16-on-card-without-bf16").unwrap();
    assert!(l.finding.contains("T4"), "{}", l.finding);
    // float16 weights raise nothing about bf16.
    assert!(!ids(MISTRAL, json!({"torch_dtype": "float16"})).contains(&"bf16-on-card-without-bf16"));
}
