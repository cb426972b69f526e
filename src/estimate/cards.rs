//! The card catalogue, a data file compiled into the binary.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    pub name: String,
    /// Decimal gigabytes (10^9 bytes), as vendors quote them.
    pub memory_gb: f64,
    /// Whether the card runs bfloat16 natively (Ampere and later; the T4 does not).
    pub bf16_native: bool,
    pub source: String,
}

impl Card {
    pub fn bytes(&self) -> f64 {
        self.memory_gb * 1e9
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Catalogue {
    card: Vec<Card>,
}

/// The built-in cards, smallest first.
pub fn builtin() -> &'static [Card] {
    static CARDS: OnceLock<Vec<Card>> = OnceLock::new();
    CARDS.get_or_init(|| {
        // The file ships inside the binary and a unit test parses it, so this cannot fail at run time.
        let mut cards = toml::from_str::<Catalogue>(include_str!("cards.toml"))
            .expect("cards.toml is checked by the unit tests")
            .card;
        cards.sort_by(|a, b| a.memory_gb.total_cmp(&b.memory_gb));
        cards
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_builtin_catalogue_parses_and_is_sorted_by_memory() {
        let cards = super::builtin();
        assert_eq!(cards.len(), 5);
        assert!(cards.windows(2).all(|w| w[0].memory_gb <= w[1].memory_gb));
    }
}
