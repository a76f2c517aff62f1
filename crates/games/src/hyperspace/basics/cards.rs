//! The seven combat cards and how a combat is decided.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A combat card. Every player holds the same seven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Card {
    Spy,
    Ensign,
    Lieutenant,
    Tactician,
    Captain,
    Commodore,
    Admiral,
}

impl Card {
    pub const ALL: [Card; 7] = [
        Card::Spy,
        Card::Ensign,
        Card::Lieutenant,
        Card::Tactician,
        Card::Captain,
        Card::Commodore,
        Card::Admiral,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Card::Spy => "Spy",
            Card::Ensign => "Ensign",
            Card::Lieutenant => "Lieutenant",
            Card::Tactician => "Tactician",
            Card::Captain => "Captain",
            Card::Commodore => "Commodore",
            Card::Admiral => "Admiral",
        }
    }

    /// Printed strength.
    pub fn strength(self) -> u32 {
        match self {
            Card::Spy => 0,
            Card::Ensign => 1,
            Card::Lieutenant => 2,
            Card::Tactician => 3,
            Card::Captain => 4,
            Card::Commodore => 5,
            Card::Admiral => 6,
        }
    }

    /// The special ability, in words.
    pub fn special(self) -> Option<&'static str> {
        match self {
            Card::Spy => Some("Ambush: against the Admiral the Spy has strength 7"),
            Card::Tactician => Some("Wins ties"),
            _ => None,
        }
    }

    /// Strength when played against `other`.
    pub fn strength_against(self, other: Card) -> u32 {
        if self == Card::Spy && other == Card::Admiral {
            7
        } else {
            self.strength()
        }
    }

    /// Case-insensitive lookup by name.
    pub fn by_name(name: &str) -> Option<Card> {
        let name = name.trim();
        Card::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// "Admiral (6)".
    pub fn label(self) -> String {
        format!("{} ({})", self.name(), self.strength())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the victor won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WinReason {
    /// Higher total.
    Total,
    /// Equal totals; the Tactician breaks the tie.
    Tactician,
    /// Equal totals; the defender holds.
    DefenderHolds,
}

/// The result of one combat: totals and who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatResult {
    pub attacker_total: u32,
    pub defender_total: u32,
    pub attacker_wins: bool,
    pub reason: WinReason,
}

/// Decide a combat from fleet strengths and cards.
pub fn resolve(attacker_ships: u32, attacker_card: Card, defender_ships: u32, defender_card: Card) -> CombatResult {
    let attacker_total = attacker_ships.saturating_add(attacker_card.strength_against(defender_card));
    let defender_total = defender_ships.saturating_add(defender_card.strength_against(attacker_card));
    let (attacker_wins, reason) = if attacker_total != defender_total {
        (attacker_total > defender_total, WinReason::Total)
    } else if attacker_card == Card::Tactician && defender_card != Card::Tactician {
        (true, WinReason::Tactician)
    } else if defender_card == Card::Tactician && attacker_card != Card::Tactician {
        (false, WinReason::Tactician)
    } else {
        (false, WinReason::DefenderHolds)
    };
    CombatResult {
        attacker_total,
        defender_total,
        attacker_wins,
        reason,
    }
}

/// The cards redrawn when a hand runs out: every played card except the
/// very last one.
pub fn redraw(played: &[Card]) -> Vec<Card> {
    match played.split_last() {
        Some((_, rest)) => rest.to_vec(),
        None => Vec::new(),
    }
}
