//! Number formatting for people: the filters every template uses, so that the HTML page and the
//! Markdown twin print the same figure the same way.

use minijinja::{Environment, Value};

pub fn register(env: &mut Environment<'static>) {
    env.add_filter("commas", |v: Value| commas_value(&v));
    env.add_filter("count", |n: f64| count(n));
    env.add_filter("bytes", |n: f64| bytes(n));
    env.add_filter("pct", |x: f64| pct(x));
    env.add_filter("shape", |v: Vec<u64>| shape(&v));
    env.add_filter("signed", |n: i64| signed(n));
    env.add_filter("usd", |n: f64| usd(n));
    env.add_filter("fig", |n: f64| sig3(n));
    env.add_filter("xml", |s: String| xml(&s));
    env.add_filter("twin", |url: String, ext: String| crate::page::twin(&url, &ext));
    env.add_filter("page_url", |id: String| crate::page::page_url(&id));
    // Each returns finished Markdown, so the Markdown auto-escape must not escape it again.
    env.add_filter("md_code", |s: String| Value::from_safe_string(md_code(&s)));
    env.add_filter("md_code_cell", |s: String| Value::from_safe_string(md_code_cell(&s)));
    env.add_filter("md_url", |s: String| Value::from_safe_string(md_url(&s)));
    env.add_filter("code_spans", |s: String| Value::from_safe_string(html_code_spans(&s)));
}

/// Escapes text for HTML and shows its backtick spans as `<code>`, as the provenance lines are
/// written ("Hub API `safetensors.total`, read 2026-12-03"). Unbalanced backticks stay text.
pub fn html_code_spans(s: &str) -> String {
    let escape = |t: &str| html(t);
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return escape(s);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, t)| if i % 2 == 1 { format!("<code>{}</code>", escape(t)) } else { escape(t) })
        .collect()
}

/// Escapes `&`, `<`, `>`, `"` and `'` for HTML text and quoted attribute values; unlike
/// minijinja's escaping, `/` stays as it is (it needs no escape there, and links are full of it).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for XML (the sitemap), leaving `/` alone as XML allows.
pub fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// Line endings as CommonMark knows them (`\r\n`, `\r`, `\n`) folded to spaces: a value shown in
/// Markdown or plain text must not start a line of its own, where `#`, `>` or `-` would become a
/// heading, a quote or a list item.
fn fold_lines(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\r', '\n'], " ")
}

/// Text from a config, the metadata or `models.toml` for a Markdown paragraph or table cell: every
/// ASCII punctuation that can open or change inline markup is backslash-escaped (CommonMark shows
/// the character itself), `|` included so a table keeps its columns, newlines are folded to
/// spaces, and a value that begins with a block marker (`- `, `+ `, `1. `, `---`) has the marker
/// escaped in case the template puts it at the start of a line.
pub fn md_text(s: &str) -> String {
    md_text_cow(s).into_owned()
}

/// [`md_text`], borrowing `s` when nothing in it needs escaping (most values: names, numbers,
/// words), which spares the template formatter a copy per value.
pub(crate) fn md_text_cow(s: &str) -> std::borrow::Cow<'_, str> {
    let bytes = s.as_bytes();
    // Letters, digits, and punctuation that opens no inline markup; not starting with a blank.
    let plain = bytes.iter().all(|c| c.is_ascii_alphanumeric() || b" .,:;()/%'\"=+-!?@$^".contains(c))
        && bytes.first().is_none_or(|c| *c != b' ')
        // ASCII, so the first 16 chars are enough to see a marker: at most 3 blanks, 9 digits, 2.
        && leading_marker(&s.chars().take(16).collect::<Vec<_>>()).is_none();
    if plain { std::borrow::Cow::Borrowed(s) } else { std::borrow::Cow::Owned(md_text_slow(s)) }
}

fn md_text_slow(s: &str) -> String {
    let s = fold_lines(s);
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let chars: Vec<char> = s.chars().collect();
    // Where a leading block marker sits, if there is one: the index of the char to escape.
    let marker = leading_marker(&chars);
    for (i, &c) in chars.iter().enumerate() {
        let alnum = |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|c| c.is_alphanumeric());
        let escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '{' | '}' => true,
            // An `_` between two letters or digits can neither open nor close emphasis
            // (CommonMark's intraword rule), so `pad_token_id` stays as written.
            '_' => !(alnum(i.checked_sub(1)) && alnum(Some(i + 1))),
            // Only `&` followed by a name or `#` can start a character reference.
            // (or at the end, where the next value or the template could supply the name).
            '&' => chars.get(i + 1).is_none_or(|n| n.is_ascii_alphanumeric() || *n == '#'),
            _ => false,
        };
        if i == 0 && (c == ' ' || c == '\t') {
            // Leading blanks at the start of a line would indent the value into a code block;
            // as a character reference they are text.
            out.push_str(if c == ' ' { "&#32;" } else { "&#9;" });
            continue;
        }
        if escape || Some(i) == marker {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The index of a block marker that opens `chars` (after up to three spaces, as CommonMark allows):
/// a bullet or setext/thematic character followed by a space, the end or itself, or the `.`/`)`
/// of an ordered-list number. `#` and `>` are escaped everywhere and need no special case.
fn leading_marker(chars: &[char]) -> Option<usize> {
    let start = chars.iter().take(3).take_while(|c| **c == ' ').count();
    let first = *chars.get(start)?;
    let next = chars.get(start + 1).copied();
    match first {
        '-' | '+' | '=' if next.is_none_or(|n| n == ' ' || n == '\t' || n == first) => Some(start),
        '0'..='9' => {
            let digits = chars[start..].iter().take_while(|c| c.is_ascii_digit()).count();
            let after = start + digits;
            match (chars.get(after), chars.get(after + 1)) {
                (Some('.' | ')'), None | Some(' ' | '\t')) if digits <= 9 => Some(after),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An identifier (a class, a tensor name, a config key) as a Markdown code span: the backtick fence
/// is one longer than the longest run of backticks inside, and a space pads each side where the
/// content starts or ends with a backtick or with a space CommonMark would strip. Inside a code
/// span nothing else is markup, so the name shows exactly as written (newlines folded to spaces).
pub fn md_code(s: &str) -> String {
    code_span(&fold_lines(s))
}

/// [`md_code`] for a table cell: GFM splits a row on `|` before it reads code spans, and
/// `\|` is the one escape it takes back out inside them.
pub fn md_code_cell(s: &str) -> String {
    code_span(&fold_lines(s).replace('|', "\\|"))
}

fn code_span(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let all_spaces = s.chars().all(|c| c == ' ');
    let pad =
        s.starts_with('`') || s.ends_with('`') || (!all_spaces && s.starts_with(' ') && s.ends_with(' '));
    let pad = if pad { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A URL in a Markdown link destination. The URLs the site links to are built from a validated
/// `base_url` and model IDs, so this only backslash-escapes what could end the destination early
/// and percent-encodes whitespace and control characters, in case one ever gets through.
pub fn md_url(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '(' | ')' | '<' | '>' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_whitespace() || c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Text for a plain-text file (the terminal plan, `robots.txt`): control characters, newlines
/// included, are shown as `\u{..}` escapes so a value cannot add a line, move the cursor or
/// colour a terminal.
pub fn plain_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// JSON for a `<script>` block: `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026` so no
/// `</script>`, `<!--` or `<script` inside a string can end or re-open the element in an HTML
/// parser, and U+2028/U+2029 escaped for older JavaScript parsers. Each replacement is the same
/// JSON string to a JSON parser (these characters only occur inside strings).
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

fn commas_value(v: &Value) -> String {
    match i64::try_from(v.clone()) {
        Ok(n) => signed_commas(n, false),
        Err(_) => v.to_string(),
    }
}

/// 278295186 -> "278,295,186".
pub fn commas(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn signed_commas(n: i64, plus: bool) -> String {
    let body = commas(n.unsigned_abs());
    match (n < 0, plus && n > 0) {
        (true, _) => format!("-{body}"),
        (false, true) => format!("+{body}"),
        _ => body,
    }
}

/// With an explicit sign: "+590,592", "-514", "0".
pub fn signed(n: i64) -> String {
    signed_commas(n, true)
}

/// Three significant figures with a unit: 278295186 -> "278M", 6738415616 -> "6.74B".
pub fn count(n: f64) -> String {
    let (v, unit) = match n.abs() {
        x if x >= 1e12 => (n / 1e12, "T"),
        x if x >= 1e9 => (n / 1e9, "B"),
        x if x >= 1e6 => (n / 1e6, "M"),
        x if x >= 1e3 => (n / 1e3, "K"),
        _ => return format!("{n:.0}"),
    };
    format!("{}{unit}", sig3(v))
}

fn sig3(v: f64) -> String {
    match v.abs() {
        x if x >= 99.95 => format!("{v:.0}"),
        x if x >= 9.995 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// Dollars: "$0.35", "$12.40", "$1,234".
pub fn usd(n: f64) -> String {
    if n.abs() >= 100.0 { format!("${}", commas(n.round().max(0.0) as u64)) } else { format!("${n:.2}") }
}

/// Decimal units, as card memory is sold, to three significant figures (what an estimate from a
/// config can claim): 5490526003 -> "5.49 GB", 137_900_000_000 -> "138 GB", 18948096 -> "18.9 MB".
pub fn bytes(n: f64) -> String {
    match n.abs() {
        x if x >= 999.5e9 => format!("{} TB", sig3(n / 1e12)),
        x if x >= 999.5e6 => format!("{} GB", sig3(n / 1e9)),
        x if x >= 999.5e3 => format!("{} MB", sig3(n / 1e6)),
        x if x >= 999.5 => format!("{} kB", sig3(n / 1e3)),
        _ => format!("{n:.0} B"),
    }
}

/// A signed percentage with two significant figures below 1%, never rounded to a signed zero:
/// "-0.21%", "+0.00044%", "0%".
pub fn pct(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0%".into();
    }
    if x.abs() >= 1.0 {
        return format!("{x:+.2}%");
    }
    // Digits after the point that keep two significant figures (1e-12 and below print as such).
    let decimals = (1 - x.abs().log10().floor() as i32).clamp(2, 14) as usize;
    format!("{x:+.decimals$}%")
}

/// [514, 768] -> "514 × 768".
pub fn shape(v: &[u64]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" × ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtick_spans_become_code_and_everything_else_is_escaped() {
        assert_eq!(
            html_code_spans("Hub API `safetensors.total`, read 2026-12-03"),
            "Hub API <code>safetensors.total</code>, read 2026-12-03"
        );
        assert_eq!(html_code_spans("`<b>` & `x`"), "<code>&lt;b&gt;</code> &amp; <code>x</code>");
        assert_eq!(html_code_spans("one ` <i>"), "one ` &lt;i&gt;");
    }

    #[test]
    fn figures_read_as_the_seed_prints_them() {
        assert_eq!(commas(278_885_778), "278,885,778");
        assert_eq!(commas(514), "514");
        assert_eq!(signed(-590_592), "-590,592");
        assert_eq!(count(277_432_320.0), "277M");
        assert_eq!(count(22_713_216.0), "22.7M");
        assert_eq!(count(6_738_415_616.0), "6.74B");
        assert_eq!(bytes(5_490_526_003.0), "5.49 GB");
        assert_eq!(bytes(769_294_233.0), "769 MB");
        assert_eq!(bytes(18_948_096.0), "18.9 MB");
        // 137.9e9 bytes is 128.4 GiB: the same peak reads in one unit only.
        assert_eq!(bytes(137_900_000_000.0), "138 GB");
        assert_eq!(bytes(999_600_000.0), "1.00 GB");
        assert_eq!(pct(-0.5211), "-0.52%");
        // 3 scalars in 6.7 billion: a percentage that must not print as "-0.0000%".
        assert_eq!(pct(-3.0 / 6.7e9 * 100.0), "-0.000000045%");
        assert_eq!(pct(0.00044), "+0.00044%");
        assert_eq!(shape(&[514, 768]), "514 × 768");
    }

    use pulldown_cmark::{Event, Options, Parser, Tag};

    /// Strings that each try one way out of a paragraph or a table cell.
    const TRICKY: &[&str] = &[
        "<script>alert(1)</script>",
        "<!--<script>",
        "[x](javascript:alert(1))",
        "![i](javascript:alert(1))",
        "<https://evil.example/>",
        "a | b | c",
        "# heading",
        "## heading ##",
        "> quote",
        "- item",
        "+ item",
        "* item",
        "1. one",
        "12) twelve",
        "---",
        "===",
        "    indented code",
        "\tindented code",
        "```fence",
        "~~~fence",
        "``tick` ` `",
        "*em* **strong** _u_ __uu__ ~~del~~",
        "snake_case_name and _leading and trailing_",
        "&amp; &#60; &lt;",
        "AT&T &",
        "back\\slash\\",
        "[^note]",
        "{#id .class}",
        "line one\nline two\r\n# three\r> four",
    ];

    fn options() -> Options {
        Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_HEADING_ATTRIBUTES
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_TASKLISTS
    }

    fn folded(s: &str) -> String {
        s.replace("\r\n", " ").replace(['\r', '\n'], " ")
    }

    /// The text a CommonMark reader shows for `md`, with every structural event that is not a
    /// paragraph or a table part reported as a failure.
    fn shown(md: &str, allowed: &[&str]) -> String {
        let mut text = String::new();
        for event in Parser::new_ext(md, options()) {
            match event {
                Event::Text(t) | Event::Code(t) => text.push_str(&t),
                Event::Start(Tag::Paragraph) | Event::End(_) => {}
                Event::Start(tag) => {
                    let name = format!("{tag:?}");
                    assert!(allowed.iter().any(|a| name.starts_with(a)), "{md:?} opened {name}");
                }
                other => panic!("{md:?} produced {other:?}"),
            }
        }
        text
    }

    #[test]
    fn markdown_text_shows_exactly_what_was_given_and_no_markup() {
        for s in TRICKY {
            let md = md_text(s);
            assert_eq!(shown(&md, &[]), folded(s), "{s:?} escaped as {md:?}");
            // After a list marker, as the twins show lints and assumptions.
            assert_eq!(shown(&format!("- {md}"), &["List", "Item"]), folded(s), "{md:?}");
        }
    }

    #[test]
    fn markdown_text_keeps_a_table_row_at_its_column_count() {
        for s in TRICKY {
            let md = format!("| a | b |\n|---|---|\n| {} | {} |\n", md_text(s), md_code_cell(s));
            let cells =
                Parser::new_ext(&md, options()).filter(|e| matches!(e, Event::Start(Tag::TableCell))).count();
            assert_eq!(cells, 4, "{s:?}: {md}");
            let text = shown(&md, &["Table"]);
            assert_eq!(text, format!("ab{}{}", folded(s), folded(s)), "{md}");
        }
    }

    #[test]
    fn a_code_span_fence_is_longer_than_any_backtick_run_inside() {
        assert_eq!(md_code("lm_head.weight"), "`lm_head.weight`");
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("``x"), "``` ``x ```");
        assert_eq!(md_code(" padded "), "`  padded  `");
        assert_eq!(md_code(""), "");
        for s in TRICKY {
            let md = md_code(s);
            let events: Vec<Event> = Parser::new_ext(&md, options()).collect();
            let code: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::Code(_))).collect();
            assert_eq!(code.len(), 1, "{s:?} as {md:?}: {events:?}");
            assert_eq!(code[0], &Event::Code(folded(s).into()), "{md:?}");
        }
    }

    #[test]
    fn plain_text_shows_control_characters_as_escapes() {
        assert_eq!(plain_text("a\nDisallow: /"), "a\\u{a}Disallow: /");
        assert_eq!(plain_text("\u{1b}[31mred"), "\\u{1b}[31mred");
        assert_eq!(plain_text("ok · ü"), "ok · ü");
    }

    #[test]
    fn script_json_has_no_angle_bracket_or_ampersand_and_parses_to_the_same_value() {
        let value = serde_json::json!({"name": "<!--<script></script>&amp;\u{2028}\u{2029}"});
        let json = script_json(&serde_json::to_string(&value).unwrap());
        assert!(!json.contains(['<', '>', '&', '\u{2028}', '\u{2029}']), "{json}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&json).unwrap(), value);
    }

    #[test]
    fn a_link_destination_cannot_be_closed_early() {
        let md = format!("[t]({})", md_url("https://x.org/a) [y](javascript:alert(1)"));
        let links: Vec<String> = Parser::new(&md)
            .filter_map(|e| match e {
                Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(links, ["https://x.org/a)%20[y](javascript:alert(1)"]);
    }
}
