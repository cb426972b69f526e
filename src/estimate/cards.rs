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

fn parse(text: &str, file: &Path) -> Result<Vec<Card>, CardsError> {
    let cards = toml::from_str::<Catalogue>(text)
        .map_err(|e| CardsError::Parse { file: file.to_path_buf(), reason: e.to_string() })?
        .card;
    for c in &cards {
        let bad = |field: &'static str, reason: &str| CardsError::Field {
            file: file.to_path_buf(),
            id: c.id.clone(),
            field,
            reason: reason.to_string(),
        };
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !positive(c.memory_gb) {
            return Err(bad("memory_gb", "must be a positive number of decimal GB"));
        }
        if !positive(c.bandwidth_gbs) {
            return Err(bad("bandwidth_gbs", "must be a positive number of GB/s"));
        }
        if !positive(c.fp16_tflops) {
            return Err(bad("fp16_tflops", "must be a positive dense TFLOP/s figure"));
        }
        if !(c.bf16_tflops.is_finite() && c.bf16_tflops >= 0.0) {
            return Err(bad("bf16_tflops", "must be zero or a positive dense TFLOP/s figure"));
        }
        if c.bf16_native && c.bf16_tflops <= 0.0 {
            return Err(bad("bf16_tflops", "a card with bf16_native = true needs its bf16 TFLOP/s"));
        }
        if !(c.price_usd_per_hour.is_finite() && c.price_usd_per_hour >= 0.0) {
            return Err(bad("price_usd_per_hour", "must be zero or a positive USD figure"));
        }
    }
    Ok(cards)
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    // Smallest memory first; equal memory by price, then id, so the order is deterministic.
    cards.sort_by(|a, b| {
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
        sorted(parse(include_str!("cards.toml"), Path::new("cards.toml")).unwrap_or_default())
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
}
