//! The lean model page and its Markdown twin (issue 11): the answer on top, one fit table, the
//! rest one click away, and the calculator's cards once per site.

mod common;

use modelatlas::manifest::SiteSettings;
use modelatlas::model_id::ModelId;
use modelatlas::page::ModelPage;
use modelatlas::plan::{PlanOptions, plan_with};
use modelatlas::render::Renderer;
use modelatlas::source::ModelSource;

fn site() -> SiteSettings {
    SiteSettings { title: "modelatlas".into(), base_url: "https://example.org/atlas/".into() }
}

fn llama_2_7b() -> ModelPage {
    let id = ModelId::parse("NousResearch/Llama-2-7b-hf").unwrap();
    let files = common::snapshot().load(&id).unwrap();
    plan_with(&files, Some(format!("{}.html", id.site_stem())), &PlanOptions::default()).unwrap()
}

/// The JSON inside `<script type="application/json" id="calc-data">`.
fn calc_data(html: &str) -> serde_json::Value {
    let start = html.find(r#"id="calc-data">"#).expect("calc-data") + r#"id="calc-data">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

/// The cards in `src/estimate/cards.toml`, counted from the file itself.
fn builtin_cards() -> usize {
    include_str!("../src/estimate/cards.toml").lines().filter(|l| l.trim() == "[[card]]").count()
}

#[test]
fn the_markdown_twin_of_llama_2_7b_fits_in_2_5_kb_with_the_answer_and_links_to_the_rest() {
    let md = Renderer::new().model(&llama_2_7b(), &site(), "../../").unwrap().markdown;
    // The lean contract's budget for a typical model's twin (issue 11).
    assert!(md.len() <= 2_500, "{} bytes:\n{md}", md.len());
    for part in ["| Full fine-tune |", "| LoRA |", "| QLoRA |", "| Serve |", "| Card | Full | LoRA | QLoRA | Serve |"] {
        assert!(md.contains(part), "{part}\n{md}");
    }
    assert!(md.contains("](Llama-2-7b-hf.json)") && md.contains("](Llama-2-7b-hf.html)"), "{md}");
}

#[test]
fn the_model_page_has_the_answer_and_one_fit_table_no_chart_and_its_details_closed() {
    let html = Renderer::new().model(&llama_2_7b(), &site(), "../../").unwrap().html;
    // Two tables: the answer on top and the fit table; the per-card tables are the calculator's.
    assert_eq!(html.matches("<table").count(), 2, "{html}");
    assert!(html.contains(r#"<table class="glance-modes">"#) && html.contains(r#"<table class="fit">"#));
    assert!(!html.contains("<svg"), "no chart");
    let details = html.matches("<details").count();
    assert!(details >= 3 && !html.contains("<details open"), "{details} collapsed parts");
    // The form is the script's: without it, the page says what the table below answers instead.
    assert!(html.contains(r#"<form id="calc" class="calc" hidden></form>"#));
    assert!(html.contains("The calculator needs JavaScript"));
    // Links are written with plain slashes, not `&#x2f;`.
    assert!(!html.contains("&#x2f;") && html.contains(r#"href="../../method.html"#));
}

#[test]
fn cards_that_agree_in_every_mode_share_one_fit_row() {
    // The RTX 4090 and the L4 (Ada) and the A10G (Ampere) have 24 GB each, the same CUDA context
    // (430 MiB, Ampere and Ada) and the same cuBLAS workspace (pre-Hopper): every figure of a model
    // is the same on the three, so the fit table says it once.
    let html = Renderer::new().model(&llama_2_7b(), &site(), "../../").unwrap().html;
    assert!(html.contains("<th>RTX 4090, L4, A10G 24 GB</th>"), "{html}");
    assert!(!html.contains("<th>L4 24 GB</th>"));
}

#[test]
fn a_built_page_reads_the_sites_cards_and_a_page_planned_alone_carries_its_own() {
    let renderer = Renderer::new();
    let page = llama_2_7b();
    let alone = calc_data(&renderer.model(&page, &site(), "../../").unwrap().html);
    assert_eq!(alone["k"].as_array().map(Vec::len), Some(builtin_cards()));
    let mut built = page.clone();
    built.siblings.clear();
    let parts = renderer.model_parts(&built, &site(), "../../").unwrap();
    assert!(calc_data(&parts.html_head)["k"].is_null(), "no per-page cards on a built site");
    assert!(parts.html_head.contains(r#"<script src="../../static/cards.js"></script>"#));
    let js = modelatlas::render::cards_js(modelatlas::estimate::cards::builtin()).unwrap();
    let list = js.split_once("window.modelatlasCards = ").unwrap().1.trim_end().trim_end_matches(';');
    let cards: serde_json::Value = serde_json::from_str(list).unwrap();
    assert_eq!(cards.as_array().map(Vec::len), Some(builtin_cards()));
    // The site's list and the page's own are the same cards, in the same shape.
    assert_eq!(cards, alone["k"]);
}
