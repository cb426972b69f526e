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
    for part in
        ["| Full fine-tune |", "| LoRA |", "| QLoRA |", "| Serve |", "| Card | Full | LoRA | QLoRA | Serve |"]
    {
        assert!(md.contains(part), "{part}\n{md}");
    }
    assert!(md.contains("](Llama-2-7b-hf.json)") && md.contains("](Llama-2-7b-hf.html)"), "{md}");
}

#[test]
fn the_model_page_has_the_answer_and_one_fit_table_no_chart_and_its_details_closed() {
    let html = Renderer::new().model(&llama_2_7b(), &site(), "../../").unwrap().html;
    // Three tables: the answer on top, the fit table and, folded, what makes up each peak; the
    // per-card tables are the calculator's.
    assert_eq!(html.matches("<table").count(), 3, "{html}");
    assert!(html.contains(r#"<table class="glance-modes">"#) && html.contains(r#"<table class="fit">"#));
    let makeup =
        &html[html.find("<summary>What makes up each peak at batch 1</summary>").expect("make-up")..];
    let makeup = &makeup[..makeup.find("</details>").unwrap()];
    // A column per mode, a row per item (narrow enough for a phone): Llama 2 peaks at its logits
    // and loss in training, which name the phase, and keeps a KV cache when serving.
    assert!(makeup.contains("<tr><th>Item<th>Full<th>LoRA<th>QLoRA<th>Serve\n"), "{makeup}");
    for item in ["Weights", "Gradients", "Optimizer states", "Activations", "Logits and loss", "KV cache"] {
        assert!(makeup.contains(&format!("<tr><th>{item}<td>")), "{item}: {makeup}");
    }
    // Its 6,738,415,616 parameters (transformers' count on the meta device) as fp32 master
    // weights in the full fine-tune, 4 x 6,738,415,616 = 26.95 GB, and in bf16 to serve, 13.48 GB.
    assert!(makeup.contains("<tr><th>Weights<td>27.0 GB<td>"), "{makeup}");
    assert!(makeup.contains("<td>13.5 GB<tr><th>Gradients<td>"), "{makeup}");
    assert!(!html.contains("<svg"), "no chart");
    let details = html.matches("<details").count();
    assert!(details >= 3 && !html.contains("<details open"), "{details} collapsed parts");
    // The form is the script's, which reads the model's JSON named on it: without the script, the
    // page says what the table below answers instead.
    assert!(!html.contains("<form"), "{html}");
    assert!(html.contains(r#"<script src="../../static/calc.js" data-json="Llama-2-7b-hf.json"></script>"#));
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
    // (A cell's end tag is implied by the next cell.)
    assert!(html.contains("<th>RTX 4090, L4, A10G 24 GB<td"), "{html}");
    assert!(!html.contains("<th>L4 24 GB<"));
}

#[test]
fn every_page_reads_the_sites_cards_once_from_cards_js() {
    let renderer = Renderer::new();
    let page = llama_2_7b();
    let whole = renderer.model(&page, &site(), "../../").unwrap().html;
    // A site's page carries no calculator data: the script reads the model's own JSON.
    assert!(!whole.contains("calc-data") && whole.contains(r#"data-json="Llama-2-7b-hf.json""#));
    // The planner's page (no URL) carries it inline, without the cards.
    let mut planned = page.clone();
    planned.url = None;
    let inline = renderer.model(&planned, &site(), "../../").unwrap().html;
    assert!(calc_data(&inline)["k"].is_null(), "no per-page cards");
    assert!(!inline.contains("data-json"));
    // calc.js loads static/cards.js beside it, so a site's page names only the one script; the
    // planner's page names both.
    assert!(
        whole.contains(r#"<script src="../../static/calc.js" data-json="#) && !whole.contains("cards.js")
    );
    assert!(include_str!("../static/calc.js").contains(r#""cards.js""#));
    assert!(inline.contains(
        r#"<script src="../../static/cards.js"></script><script src="../../static/calc.js"></script>"#
    ));
    let js = modelatlas::render::cards_js(modelatlas::estimate::cards::builtin()).unwrap();
    let list = js.split_once("window.modelatlasCards = ").unwrap().1.trim_end().trim_end_matches(';');
    let cards: serde_json::Value = serde_json::from_str(list).unwrap();
    assert_eq!(cards.as_array().map(Vec::len), Some(builtin_cards()));
    // With the fit's constants the calculator needs besides a model's JSON: the 80% and 95%
    // bands of the fit table's caption and PyTorch's 5% allocator reserve of the method.
    let fit = js.split_once("window.modelatlasFit = ").unwrap().1.split_once(";\n").unwrap().0;
    let fit: serde_json::Value = serde_json::from_str(fit).unwrap();
    assert_eq!(
        (fit["c"].as_f64(), fit["f"].as_f64(), fit["r"].as_f64()),
        (Some(0.8), Some(0.95), Some(0.05))
    );
    // [id, name, memory_gb, ...] as cards.toml gives them: the first card there is the T4.
    assert_eq!(cards[0][0], "t4-16gb");
    assert_eq!(cards[0][2], 16);
    // The planner's page loads the same list for the pages it plans.
    assert!(renderer.planner(&site()).unwrap().contains(r#"<script src="static/cards.js"></script>"#));
}
