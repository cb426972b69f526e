//! The card catalogue: a data file compiled into the binary (`cards.toml`), to which a user can
//! add cards of their own in the same format (`--cards my.toml`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    pub name: String,
    /// Decimal gigabytes (10^9 bytes), as vendors quote them.
    pub memory_gb: f64,
    /// Memory bandwidth, GB/s (10^9 bytes per second).
    pub bandwidth_gbs: f64,
    /// Dense bf16 tensor TFLOP/s (0 where the card has no bf16 tensor cores).
    pub bf16_tflops: f64,
    /// Dense fp16 tensor TFLOP/s.
    pub fp16_tflops: f64,
    /// Whether the card computes in bf16 natively (the T4 does not).
    pub bf16_native: bool,
    /// On-demand list price, USD per GPU-hour.
    pub price_usd_per_hour: f64,
    pub spec_source: String,
    pub price_source: String,
    pub price_as_of: String,
}

impl Card {
    pub fn bytes(&self) -> f64 {
        self.memory_gb * 1e9
    }

    /// The dense 16-bit peak a bf16 recipe runs at: bf16 where native, else fp16 (the recipe
    /// switches to fp16 autocast there).
    pub fn training_tflops(&self) -> f64 {
        if self.bf16_native && self.bf16_tflops > 0.0 { self.bf16_tflops } else { self.fp16_tflops }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Catalogue {
    card: Vec<Card>,
}

/// A cards file that cannot be used: the file, and what is wrong (the TOML error names the
/// field and its line).
#[derive(Debug, Clone, thiserror::Error)]
pub enum CardsError {
    #[error("{file}: cannot read: {reason}")]
    Read { file: PathBuf, reason: String },
    #[error("{file}: {reason}")]
    Parse { file: PathBuf, reason: String },
    #[error("{file}: card {id:?}: field {field}: {reason}")]
    Field { file: PathBuf, id: String, field: &'static str, reason: String },
}

/// The largest figures a card may claim. Each is far above any card sold (the largest today has
/// 288 GB, 8 TB/s and some 2,500 dense 16-bit TFLOP/s, and rents for under $20 an hour) and far
/// below where the arithmetic breaks: a largest batch is `memory / bytes per sample` held in a
/// `u64`, and 1e300 GB saturated it into "largest batch 0" with the verdict "comfortable".
pub const MAX_MEMORY_GB: f64 = 100_000.0;
pub const MAX_BANDWIDTH_GBS: f64 = 1_000_000.0;
pub const MAX_TFLOPS: f64 = 1_000_000.0;
pub const MAX_PRICE_USD_PER_HOUR: f64 = 100_000.0;
/// Ids are typed on the command line (`what-if --card`) and used as keys in the page's script.
const MAX_ID_LEN: usize = 64;
const MAX_NAME_LEN: usize = 100;
const MAX_SOURCE_LEN: usize = 2_000;

fn parse(text: &str, file: &Path) -> Result<Vec<Card>, CardsError> {
    let cards = toml::from_str::<Catalogue>(text)
        .map_err(|e| CardsError::Parse { file: file.to_path_buf(), reason: e.to_string() })?
        .card;
    checked(cards, file)
}

/// The built-in catalogue: `cards.toml` as build.rs wrote it in JSON (no TOML parser in the wasm
/// module), checked as a user's file is.
fn parse_builtin() -> Result<Vec<Card>, CardsError> {
    let file = Path::new("cards.toml");
    let cards = serde_json::from_str::<Catalogue>(include_str!(concat!(env!("OUT_DIR"), "/cards.json")))
        .map_err(|e| CardsError::Parse { file: file.to_path_buf(), reason: e.to_string() })?
        .card;
    checked(cards, file)
}

fn checked(cards: Vec<Card>, file: &Path) -> Result<Vec<Card>, CardsError> {
    let mut seen = std::collections::HashSet::new();
    for c in &cards {
        let bad = |field: &'static str, reason: String| CardsError::Field {
            file: file.to_path_buf(),
            id: c.id.clone(),
            field,
            reason,
        };
        check_id(&c.id).map_err(|r| bad("id", r))?;
        if !seen.insert(c.id.as_str()) {
            return Err(bad("id", "is listed twice in this file".into()));
        }
        for (field, value, max) in [
            ("name", &c.name, MAX_NAME_LEN),
            ("spec_source", &c.spec_source, MAX_SOURCE_LEN),
            ("price_source", &c.price_source, MAX_SOURCE_LEN),
            ("price_as_of", &c.price_as_of, MAX_NAME_LEN),
        ] {
            check_text(value, max).map_err(|r| bad(field, r))?;
        }
        let positive = "a positive";
        let zero_or = "zero or a positive";
        for (field, v, zero_ok, max, what) in [
            ("memory_gb", c.memory_gb, false, MAX_MEMORY_GB, "number of decimal GB"),
            ("bandwidth_gbs", c.bandwidth_gbs, false, MAX_BANDWIDTH_GBS, "number of GB/s"),
            ("fp16_tflops", c.fp16_tflops, false, MAX_TFLOPS, "dense TFLOP/s figure"),
            ("bf16_tflops", c.bf16_tflops, true, MAX_TFLOPS, "dense TFLOP/s figure"),
            ("price_usd_per_hour", c.price_usd_per_hour, true, MAX_PRICE_USD_PER_HOUR, "USD figure"),
        ] {
            if !(v.is_finite() && (v > 0.0 || zero_ok && v == 0.0) && v <= max) {
                let sign = if zero_ok { zero_or } else { positive };
                return Err(bad(field, format!("{} must be {sign} {what}, at most {max}", shown(v))));
            }
        }
        if c.bf16_native && c.bf16_tflops <= 0.0 {
            return Err(bad("bf16_tflops", "a card with bf16_native = true needs its bf16 TFLOP/s".into()));
        }
    }
    Ok(cards)
}

/// A figure as the error quotes it: 1e300 as `1e300`, not three hundred digits.
fn shown(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e9 { format!("{v}") } else { format!("{v:e}") }
}

fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() || id.len() > MAX_ID_LEN {
        return Err(format!("must have 1 to {MAX_ID_LEN} characters"));
    }
    if let Some(c) = id.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
        return Err(format!("holds {c:?}; an id may hold only ASCII letters, digits, `-`, `_` and `.`"));
    }
    Ok(())
}

/// Names and sources are shown on every page; each output escapes them, and a control character
/// (a newline, a terminal escape) or an empty or book-length name is refused here.
fn check_text(text: &str, max: usize) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("must not be empty".into());
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(format!("holds the control character {c:?}"));
    }
    if text.chars().count() > max {
        return Err(format!("must have at most {max} characters"));
    }
    Ok(())
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    // Smallest memory first; equal memory by price, then id, so the order is deterministic.
    crate::sort::stable_by(&mut cards, &|a, b| {
        a.memory_gb
            .total_cmp(&b.memory_gb)
            .then(a.price_usd_per_hour.total_cmp(&b.price_usd_per_hour))
            .then(a.id.cmp(&b.id))
    });
    cards
}

/// The built-in cards, smallest first.
pub fn builtin() -> &'static [Card] {
    static CARDS: OnceLock<Vec<Card>> = OnceLock::new();
    CARDS.get_or_init(|| {
        // The file ships inside the binary and a unit test parses it, so this cannot fail at run time.
        sorted(parse_builtin().unwrap_or_default())
    })
}

/// The built-in cards plus a user's file; a user card with a built-in id replaces it.
pub fn with_user_file(file: &Path) -> Result<Vec<Card>, CardsError> {
    // Within a limit and only a regular file: a FIFO here would block `plan` forever.
    let text = crate::input_file::read_text(file, crate::input_file::CARDS_LIMIT)
        .map_err(|e| CardsError::Read { file: file.to_path_buf(), reason: e.reason() })?;
    with_user_text(&text, file)
}

pub fn with_user_text(text: &str, file: &Path) -> Result<Vec<Card>, CardsError> {
    let user = parse(text, file)?;
    let mut cards: Vec<Card> =
        builtin().iter().filter(|b| !user.iter().any(|u| u.id == b.id)).cloned().collect();
    cards.extend(user);
    Ok(sorted(cards))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_json_written_by_build_rs_reads_as_the_toml_file_does() {
        let from_toml = parse(include_str!("cards.toml"), Path::new("cards.toml")).unwrap();
        let from_json = parse_builtin().unwrap();
        assert_eq!(format!("{from_toml:?}"), format!("{from_json:?}"));
        assert!(from_json.len() >= 10, "{} cards", from_json.len());
    }

    #[test]
    fn the_builtin_catalogue_has_the_eleven_cards_sorted_by_memory() {
        let cards = parse(include_str!("cards.toml"), Path::new("cards.toml")).unwrap();
        assert_eq!(cards.len(), 11);
        let cards = builtin();
        assert_eq!(cards.len(), 11);
        assert!(cards.windows(2).all(|w| w[0].memory_gb <= w[1].memory_gb));
        assert_eq!(cards[0].id, "t4-16gb");
        assert_eq!(cards.last().map(|c| c.id.as_str()), Some("mi300x-192gb"));
    }

    #[test]
    fn the_t4_has_no_bf16_and_trains_at_its_fp16_rate() {
        let t4 = builtin().iter().find(|c| c.id == "t4-16gb").unwrap();
        assert!(!t4.bf16_native);
        assert_eq!(t4.training_tflops(), 65.0);
    }

    #[test]
    fn every_card_cites_its_spec_and_price_sources() {
        for c in builtin() {
            assert!(!c.spec_source.is_empty() && !c.price_source.is_empty() && !c.price_as_of.is_empty());
        }
    }

    const USER: &str = r#"
[[card]]
id = "my-card"
name = "My 32 GB"
memory_gb = 32
bandwidth_gbs = 1000
bf16_tflops = 100
fp16_tflops = 100
bf16_native = true
price_usd_per_hour = 1.0
spec_source = "mine"
price_source = "mine"
price_as_of = "2026-01"
"#;

    #[test]
    fn a_user_card_is_added_in_memory_order() {
        let cards = with_user_text(USER, Path::new("my.toml")).unwrap();
        assert_eq!(cards.len(), 12);
        let i = cards.iter().position(|c| c.id == "my-card").unwrap();
        assert_eq!(cards[i - 1].memory_gb, 24.0);
        assert_eq!(cards[i + 1].memory_gb, 40.0);
    }

    #[test]
    fn a_bad_user_file_names_the_file_and_the_field() {
        let e = with_user_text(&USER.replace("memory_gb = 32", "memory_gb = -1"), Path::new("my.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("my.toml") && e.contains("memory_gb"), "{e}");
        let e = with_user_text(&USER.replace("bandwidth_gbs = 1000\n", ""), Path::new("my.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("my.toml") && e.contains("bandwidth_gbs"), "{e}");
    }

    fn refusal(from: &str, to: &str) -> String {
        assert!(USER.contains(from), "{from}");
        with_user_text(&USER.replace(from, to), Path::new("my.toml")).unwrap_err().to_string()
    }

    #[test]
    fn absurd_figures_are_refused_naming_the_field() {
        for (from, to, field) in [
            ("memory_gb = 32", "memory_gb = 1e300", "memory_gb"),
            ("memory_gb = 32", "memory_gb = inf", "memory_gb"),
            ("memory_gb = 32", "memory_gb = nan", "memory_gb"),
            ("memory_gb = 32", "memory_gb = 0", "memory_gb"),
            ("memory_gb = 32", "memory_gb = 100001", "memory_gb"),
            ("bandwidth_gbs = 1000", "bandwidth_gbs = -5", "bandwidth_gbs"),
            ("bandwidth_gbs = 1000", "bandwidth_gbs = 1e12", "bandwidth_gbs"),
            ("fp16_tflops = 100", "fp16_tflops = 0", "fp16_tflops"),
            ("fp16_tflops = 100", "fp16_tflops = 1e9", "fp16_tflops"),
            ("bf16_tflops = 100", "bf16_tflops = -inf", "bf16_tflops"),
            ("price_usd_per_hour = 1.0", "price_usd_per_hour = -0.5", "price_usd_per_hour"),
            ("price_usd_per_hour = 1.0", "price_usd_per_hour = 1e300", "price_usd_per_hour"),
            ("price_usd_per_hour = 1.0", "price_usd_per_hour = nan", "price_usd_per_hour"),
        ] {
            let e = refusal(from, to);
            assert!(e.contains("my.toml") && e.contains(field), "{to}: {e}");
        }
    }

    #[test]
    fn the_largest_accepted_figures_are_accepted() {
        let text = USER
            .replace("memory_gb = 32", &format!("memory_gb = {MAX_MEMORY_GB:?}"))
            .replace("price_usd_per_hour = 1.0", "price_usd_per_hour = 0.0");
        assert!(with_user_text(&text, Path::new("my.toml")).is_ok());
    }

    #[test]
    fn names_and_ids_with_control_characters_or_markup_are_refused() {
        for (from, to, field) in [
            (r#"name = "My 32 GB""#, r#"name = "My\n# injected""#, "name"),
            (r#"name = "My 32 GB""#, r#"name = "\u001b[31mred""#, "name"),
            (r#"name = "My 32 GB""#, r#"name = "   ""#, "name"),
            (r#"id = "my-card""#, r#"id = "<!--<script>""#, "id"),
            (r#"id = "my-card""#, r#"id = """#, "id"),
            (r#"id = "my-card""#, r#"id = "a b""#, "id"),
            (r#"spec_source = "mine""#, r#"spec_source = "a\rb""#, "spec_source"),
        ] {
            let e = refusal(from, to);
            assert!(e.contains("my.toml") && e.contains(field), "{to}: {e}");
        }
    }

    #[test]
    fn a_card_listed_twice_in_one_file_is_refused() {
        let e = with_user_text(&format!("{USER}{USER}"), Path::new("my.toml")).unwrap_err().to_string();
        assert!(e.contains("my-card") && e.contains("twice"), "{e}");
    }

    #[test]
    fn a_card_name_may_hold_markup_characters_that_each_output_escapes() {
        let text = USER.replace(r#"name = "My 32 GB""#, r#"name = "<!--<script> | # [x](javascript:y)""#);
        assert!(with_user_text(&text, Path::new("my.toml")).is_ok());
    }
}
