//! Every output format escapes what it shows. Strings that come from a config, the metadata,
//! `models.toml` or a `--cards` file carry markup (`<script>`, `javascript:` links, `|`, `#`,
//! backticks, newlines); each test renders a page with them and parses the result as its reader
//! would (pulldown-cmark for Markdown, `tl` and serde_json for the HTML page's embedded data), then
//! compares its structure with the same page holding plain strings.

mod common;

use std::path::Path;
use std::sync::Arc;

use modelatlas::manifest::SiteSettings;
use modelatlas::model_id::ModelId;
use modelatlas::page::ModelPage;
use modelatlas::plan::{PlanOptions, plan_with};
use modelatlas::render::{IndexView, PlanFormat, Renderer};
use modelatlas::source::ModelSource;
use pulldown_cmark::{Event, Options, Parser, Tag};

/// One string that tries every way out of a paragraph, a table cell and a line.
const HOSTILE: &str = "<script>alert(1)</script> | # not a heading [x](javascript:alert(1)) \
     ``tick` *em* _u_ &amp; <https://evil.example/> ![i](x.png)\n# Heading\n> quote\n- item\n1. one";

fn folded(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\r', '\n'], " ")
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
}

/// What a Markdown reader sees of a document's structure.
#[derive(Debug, PartialEq)]
struct Shape {
    headings: usize,
    /// Cells per row, per table.
    tables: Vec<Vec<usize>>,
    lists: usize,
    items: usize,
    quotes: usize,
    code_blocks: usize,
    links: Vec<String>,
    images: usize,
    html: usize,
}

fn shape(md: &str) -> Shape {
    let mut s = Shape {
        headings: 0,
        tables: vec![],
        lists: 0,
        items: 0,
        quotes: 0,
        code_blocks: 0,
        links: vec![],
        images: 0,
        html: 0,
    };
    for event in Parser::new_ext(md, options()) {
        match event {
            Event::Start(Tag::Heading { .. }) => s.headings += 1,
            Event::Start(Tag::Table(_)) => s.tables.push(vec![]),
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                if let Some(t) = s.tables.last_mut() {
                    t.push(0)
                }
            }
            Event::Start(Tag::TableCell) => {
                if let Some(n) = s.tables.last_mut().and_then(|t| t.last_mut()) {
                    *n += 1
                }
            }
            Event::Start(Tag::List(_)) => s.lists += 1,
            Event::Start(Tag::Item) => s.items += 1,
            Event::Start(Tag::BlockQuote(_)) => s.quotes += 1,
            Event::Start(Tag::CodeBlock(_)) => s.code_blocks += 1,
            Event::Start(Tag::Link { dest_url, .. }) => s.links.push(dest_url.to_string()),
            Event::Start(Tag::Image { .. }) => s.images += 1,
            Event::Start(Tag::HtmlBlock) | Event::Html(_) | Event::InlineHtml(_) => s.html += 1,
            _ => {}
        }
    }
    s
}

/// The text of every table cell, in order, as a reader sees it.
fn cells(md: &str) -> Vec<String> {
    let mut out = vec![];
    let mut current: Option<String> = None;
    for event in Parser::new_ext(md, options()) {
        match event {
            Event::Start(Tag::TableCell) => current = Some(String::new()),
            Event::End(pulldown_cmark::TagEnd::TableCell) => out.extend(current.take()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(c) = current.as_mut() {
                    c.push_str(&t)
                }
            }
            _ => {}
        }
    }
    out
}

/// Every code span's text, in order.
fn code_spans(md: &str) -> Vec<String> {
    Parser::new_ext(md, options())
        .filter_map(|e| match e {
            Event::Code(t) => Some(t.to_string()),
            _ => None,
        })
        .collect()
}

fn site() -> SiteSettings {
    SiteSettings { title: "modelatlas".into(), base_url: "https://example.org/atlas/".into() }
}

fn plan_config(config: &str) -> ModelPage {
    common::plan_text(config).unwrap()
}

fn unsupported(model_type: &str, architecture: &str, fact: &str) -> String {
    serde_json::json!({
        "model_type": model_type,
        "architectures": [architecture],
        "hidden_size": fact,
        "num_hidden_layers": fact,
        "vocab_size": 32000,
    })
    .to_string()
}

#[test]
fn an_unsupported_configs_strings_add_no_html_link_heading_or_table_column_to_its_markdown_twin() {
    let renderer = Renderer::new();
    let plain = plan_config(&unsupported("plain_type", "PlainModel", "plain"));
    let hostile = plan_config(&unsupported(HOSTILE, HOSTILE, HOSTILE));
    let plain_md = renderer.plan(&plain, PlanFormat::Markdown).unwrap();
    let hostile_md = renderer.plan(&hostile, PlanFormat::Markdown).unwrap();
    let (p, h) = (shape(&plain_md), shape(&hostile_md));
    assert_eq!(h.html, 0, "{hostile_md}");
    assert!(h.links.iter().all(|l| !l.contains("javascript")), "{hostile_md}");
    assert_eq!(h, p, "{hostile_md}");
    let md = renderer.model(&hostile, &site(), "../../").unwrap().markdown;
    assert_eq!(shape(&md), shape(&renderer.model(&plain, &site(), "../../").unwrap().markdown), "{md}");
    // What is shown is what the config says: the class as a code span, each fact's key as a code
    // span and its JSON value as text, newlines folded to spaces.
    assert_eq!(code_spans(&md).first().map(String::as_str), Some(folded(HOSTILE).as_str()), "{md}");
    let json_value = serde_json::Value::from(HOSTILE).to_string();
    assert_eq!(
        cells(&md),
        ["Key", "Value", "hidden_size", &json_value, "num_hidden_layers", &json_value, "vocab_size", "32000"],
        "{md}"
    );
}

/// A supported model's page with every string that can come from outside the code replaced.
fn with_strings(mut page: ModelPage, s: &str) -> ModelPage {
    page.architecture = Some(s.into());
    page.family_name = s.into();
    page.derives_from = Some(s.into());
    page.source.revision = Some(s.into());
    page.source.config_verification = Some(s.into());
    page.source.config_source = Some(s.into());
    if let Some(p) = page.params.as_mut() {
        p.checkpoint_dtype = Some(s.into());
        p.checkpoint_source = Some(s.into());
        p.checkpoint_notes = Some(s.into());
        for t in &mut p.tied {
            t.tensor = s.into();
            t.tied_to = s.into();
        }
        for part in &mut p.breakdown {
            part.part = s.into();
        }
    }
    if let Some(f) = page.forward_pass.as_mut() {
        f.problems = vec![s.into(), s.into()];
    }
    if let Some(m) = page.memory.as_mut() {
        m.assumptions.iter_mut().for_each(|a| *a = s.into());
        m.seq_len_reason = s.into();
    }
    for lint in &mut page.lints {
        lint.finding = s.into();
        lint.fix = s.into();
    }
    if let Some(g) = page.structure.as_mut() {
        for section in &mut g.sections {
            section.name = s.into();
            section.nodes.iter_mut().for_each(|n| n.name = s.into());
        }
    }
    page
}

fn nous_llama(cards: Vec<modelatlas::estimate::cards::Card>) -> ModelPage {
    let id = ModelId::parse("NousResearch/Llama-2-7b-hf").unwrap();
    let files = common::snapshot().load(&id).unwrap();
    let options = PlanOptions { cards, ..PlanOptions::default() };
    plan_with(&files, Some(format!("{}.html", id.site_stem())), &options).unwrap()
}

#[test]
fn a_supported_models_twin_keeps_its_structure_whatever_its_strings_hold() {
    let renderer = Renderer::new();
    let page = nous_llama(PlanOptions::default().cards);
    assert!(!page.lints.is_empty() && page.params.as_ref().is_some_and(|p| p.checkpoint_source.is_some()));
    let plain = renderer.model(&with_strings(page.clone(), "plain"), &site(), "../../").unwrap().markdown;
    let hostile = renderer.model(&with_strings(page, HOSTILE), &site(), "../../").unwrap().markdown;
    let (p, h) = (shape(&plain), shape(&hostile));
    assert_eq!(h.html, 0, "{hostile}");
    assert_eq!(h, p, "{hostile}");
    // The class, the one name the twin shows as code, shows the whole string, as written.
    let spans = code_spans(&hostile);
    assert!(spans.iter().any(|s| *s == folded(HOSTILE)), "{spans:?}");
}

fn hostile_card() -> modelatlas::estimate::cards::Card {
    let text = r#"
[[card]]
id = "evil-32gb"
name = "<!--<script> | # [x](javascript:alert(1)) `tick` </script>&amp;"
memory_gb = 32
bandwidth_gbs = 1000
bf16_tflops = 100
fp16_tflops = 100
bf16_native = true
price_usd_per_hour = 1.0
spec_source = "<b>mine</b>"
price_source = "mine"
price_as_of = "2026-01"
"#;
    let cards = modelatlas::estimate::cards::with_user_text(text, Path::new("my.toml")).unwrap();
    cards.into_iter().find(|c| c.id == "evil-32gb").unwrap()
}

#[test]
fn a_card_name_with_markup_leaves_the_html_pages_script_data_intact() {
    let card = hostile_card();
    // The planner's page (no URL on a site) carries its calculator's data inline; a site's page
    // leaves it in the model's JSON.
    let mut page = nous_llama(vec![card.clone()]);
    page.url = None;
    let html = Renderer::new().model(&page, &site(), "../../").unwrap().html;
    let dom = tl::parse(&html, tl::ParserOptions::default()).unwrap();
    let parser = dom.parser();
    let data = dom
        .get_element_by_id("calc-data")
        .and_then(|h| h.get(parser))
        .map(|n| n.inner_text(parser).to_string())
        .unwrap();
    assert!(!data.contains(['<', '>', '&']), "{data}");
    let _: serde_json::Value = serde_json::from_str(&data).unwrap();
    // The page's data holds no card: the site's list (`static/cards.js`) names it, as script-safe
    // JSON that parses back to the name as written; the script shows it with `textContent`.
    let js = modelatlas::render::cards_js(std::slice::from_ref(&card)).unwrap();
    assert!(!js.contains(['<', '>', '&']), "{js}");
    let list = js.split_once("window.modelatlasCards = ").unwrap().1.trim_end().trim_end_matches(';');
    let cards: serde_json::Value = serde_json::from_str(list).unwrap();
    assert_eq!(cards[0][0], card.id.as_str());
    assert_eq!(cards[0][1], card.name.as_str());
    // Where the page itself names the card (the fit table), the template engine escaped it.
    assert!(html.contains("&lt;!--&lt;script&gt;") && !html.contains("<!--<script>"));
    // The elements after the data block are still there, in an HTML parser's view too.
    let scripts = dom.query_selector("script[src]").unwrap().count();
    assert!(scripts >= 1, "the calculator's script follows the data");
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn a_card_name_with_markup_stays_in_its_table_cell_in_the_twin() {
    let card = hostile_card();
    let renderer = Renderer::new();
    let mut plain_card = card.clone();
    plain_card.name = "Plain 32 GB".into();
    let hostile = renderer.model(&nous_llama(vec![card.clone()]), &site(), "../../").unwrap().markdown;
    let plain = renderer.model(&nous_llama(vec![plain_card]), &site(), "../../").unwrap().markdown;
    assert_eq!(shape(&hostile), shape(&plain), "{hostile}");
    assert!(cells(&hostile).contains(&card.name), "the name shows as written");
}

fn index_with(title: &str, family: &str) -> IndexView {
    let page = with_strings(nous_llama(PlanOptions::default().cards), "x");
    let mut summary = page.summary();
    summary.family = family.into();
    IndexView {
        schema_version: 2,
        title: title.into(),
        cards: vec![],
        families: vec![],
        models: vec![summary].into(),
    }
}

#[test]
fn llms_txt_and_index_md_show_a_hostile_title_and_family_as_text() {
    let renderer = Renderer::new();
    // The manifest refuses control characters in a title, so this one has none; the family comes
    // from a config's model_type.
    let title = "# <script>x</script> [a](javascript:b) | > not a quote";
    let site = SiteSettings { title: title.into(), ..site() };
    let get = |files: Vec<(&'static str, String)>, name: &str| {
        files.into_iter().find(|(n, _)| *n == name).map(|(_, text)| text).unwrap()
    };
    let hostile = renderer.extras(&Arc::new(index_with(title, HOSTILE)), &site).unwrap();
    let plain = renderer.extras(&Arc::new(index_with("plain", "plain")), &site).unwrap();
    let (h, p) = (get(hostile, "llms.txt"), get(plain, "llms.txt"));
    assert_eq!(shape(&h), shape(&p), "{h}");
    assert!(shape(&h).links.iter().all(|l| l.starts_with("https://example.org/atlas/")), "{h}");
    let first_heading: String = Parser::new_ext(&h, options())
        .skip_while(|e| !matches!(e, Event::Start(Tag::Heading { .. })))
        .take_while(|e| !matches!(e, Event::End(pulldown_cmark::TagEnd::Heading(_))))
        .filter_map(|e| match e {
            Event::Text(t) => Some(t.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(first_heading, title);
    // No line of llms.txt starts with a marker that came from the data.
    for line in h.lines().filter(|l| l.contains("script") || l.contains("Heading")) {
        assert!(
            !line.starts_with(['#', '>', '-']) || line.starts_with("# \\#") || line.starts_with("- ["),
            "{line}"
        );
    }
    let index_md = renderer.index(&Arc::new(index_with(title, HOSTILE)), &site).unwrap().markdown;
    let index_plain = renderer.index(&Arc::new(index_with("plain", "plain")), &site).unwrap().markdown;
    assert_eq!(shape(&index_md), shape(&index_plain), "{index_md}");
}

#[test]
fn robots_txt_keeps_its_four_lines_even_if_a_base_url_with_a_newline_got_past_the_manifest() {
    let site = SiteSettings { title: "t".into(), base_url: "https://example.org/\nDisallow: /\n".into() };
    let files = Renderer::new().extras(&Arc::new(index_with("t", "llama")), &site).unwrap();
    let robots = files.into_iter().find(|(n, _)| *n == "robots.txt").map(|(_, t)| t).unwrap();
    assert!(!robots.lines().any(|l| l.starts_with("Disallow")), "{robots}");
    assert_eq!(robots.lines().count(), 4, "{robots}");
}

#[test]
fn the_terminal_plan_shows_control_characters_as_escapes() {
    let page = plan_config(&unsupported("evil\u{1b}[2J\nINJECTED line", "Cls\rX", "1"));
    let text = Renderer::new().plan(&page, PlanFormat::Text).unwrap();
    assert!(!text.contains('\u{1b}') && !text.contains('\r'), "{text:?}");
    assert!(!text.lines().any(|l| l.starts_with("INJECTED")), "{text}");
}
