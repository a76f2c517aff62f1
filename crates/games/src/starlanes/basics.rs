//! Fixed data of the rules page: the numbers (victory points, starting
//! forces, tech costs) and the technology deck: 18 cards, each with a one-line text.
//!
//! Three kinds: **Actions** (used as your one Action, then exhausted),
//! **Free Actions** (used any time in your turn, then exhausted) and
//! **combat bonuses** (always on; never exhausted).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Tech {
    // Actions
    Foundries,
    Jumpgates,
    Overclock,
    Levy,
    Grants,
    // Free Actions
    Logistics,
    Labs,
    Refit,
    Conscripts,
    // Combat bonuses
    Shields,
    Assault,
    Fortress,
    Homeguard,
    Flanking,
    Swarm,
    Sensors,
    Siege,
    Trenches,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Action,
    Free,
    Combat,
}

impl Tech {
    pub const ALL: [Tech; 18] = [
        Tech::Foundries,
        Tech::Jumpgates,
        Tech::Overclock,
        Tech::Levy,
        Tech::Grants,
        Tech::Logistics,
        Tech::Labs,
        Tech::Refit,
        Tech::Conscripts,
        Tech::Shields,
        Tech::Assault,
        Tech::Fortress,
        Tech::Homeguard,
        Tech::Flanking,
        Tech::Swarm,
        Tech::Sensors,
        Tech::Siege,
        Tech::Trenches,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tech::Foundries => "Foundries",
            Tech::Jumpgates => "Jumpgates",
            Tech::Overclock => "Overclock",
            Tech::Levy => "Levy",
            Tech::Grants => "Grants",
            Tech::Logistics => "Logistics",
            Tech::Labs => "Labs",
            Tech::Refit => "Refit",
            Tech::Conscripts => "Conscripts",
            Tech::Shields => "Shields",
            Tech::Assault => "Assault",
            Tech::Fortress => "Fortress",
            Tech::Homeguard => "Homeguard",
            Tech::Flanking => "Flanking",
            Tech::Swarm => "Swarm",
            Tech::Sensors => "Sensors",
            Tech::Siege => "Siege",
            Tech::Trenches => "Trenches",
        }
    }

    pub fn from_name(s: &str) -> Option<Tech> {
        Tech::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(s.trim()))
    }

    pub fn kind(self) -> Kind {
        match self {
            Tech::Foundries | Tech::Jumpgates | Tech::Overclock | Tech::Levy | Tech::Grants => Kind::Action,
            Tech::Logistics | Tech::Labs | Tech::Refit | Tech::Conscripts => Kind::Free,
            _ => Kind::Combat,
        }
    }

    /// The one line players see.
    pub fn text(self) -> &'static str {
        match self {
            Tech::Foundries => "Action: Produce at two different planets (at: and also:).",
            Tech::Jumpgates => "Action: Move forces from one planet up to 2 steps away.",
            Tech::Overclock => "Action: Produce at one of your planets even if exhausted.",
            Tech::Levy => "Action: add 1 force to every planet you hold.",
            Tech::Grants => "Action: gain 2 science (you may then buy a tech).",
            Tech::Logistics => "Free Action: move forces between two adjacent planets you hold.",
            Tech::Labs => "Free Action: gain 1 science (you may then buy a tech).",
            Tech::Refit => "Free Action: remove the exhausted marker from a planet you hold.",
            Tech::Conscripts => "Free Action: add 1 force to a planet you hold.",
            Tech::Shields => "+1 combat strength when defending.",
            Tech::Assault => "+1 combat strength when attacking.",
            Tech::Fortress => "+2 combat strength defending a planet with a star.",
            Tech::Homeguard => "+2 combat strength defending your home planet.",
            Tech::Flanking => "+1 combat strength attacking from 2 or more planets.",
            Tech::Swarm => "+1 combat strength when you bring more forces than the enemy.",
            Tech::Sensors => "+1 combat strength at a planet with a science symbol.",
            Tech::Siege => "+1 combat strength attacking a planet of production 2 or more.",
            Tech::Trenches => "+1 combat strength defending an exhausted planet.",
        }
    }
}

/// What a combat looks like to one side, for its bonuses.
pub struct Situation {
    pub attacking: bool,
    pub own_forces: u32,
    pub enemy_forces: u32,
    pub sources: usize,
    pub stars: u32,
    pub science: u32,
    pub production: u32,
    pub own_home: bool,
    pub exhausted: bool,
}

impl Tech {
    /// This tech's combat strength bonus in a situation.
    pub fn bonus(self, s: &Situation) -> u32 {
        let c = |cond: bool, n: u32| if cond { n } else { 0 };
        match self {
            Tech::Shields => c(!s.attacking, 1),
            Tech::Assault => c(s.attacking, 1),
            Tech::Fortress => c(!s.attacking && s.stars > 0, 2),
            Tech::Homeguard => c(!s.attacking && s.own_home, 2),
            Tech::Flanking => c(s.attacking && s.sources >= 2, 1),
            Tech::Swarm => c(s.own_forces > s.enemy_forces, 1),
            Tech::Sensors => c(s.science > 0, 1),
            Tech::Siege => c(s.attacking && s.production >= 2, 1),
            Tech::Trenches => c(!s.attacking && s.exhausted, 1),
            _ => 0,
        }
    }
}

/// Combat exactly as the rules say: bonuses cancel, the remainder removes
/// the other side's forces, then forces cancel one for one. Returns the
/// survivors `(attacker, defender)`.
pub fn resolve(attacker: u32, defender: u32, attacker_bonus: u32, defender_bonus: u32) -> (u32, u32) {
    let (mut a, mut d) = (attacker, defender);
    if attacker_bonus > defender_bonus {
        d = d.saturating_sub(attacker_bonus - defender_bonus);
    } else {
        a = a.saturating_sub(defender_bonus - attacker_bonus);
    }
    let m = a.min(d);
    (a - m, d - m)
}

/// The numbers of the rules page.
pub const WIN_VP: u32 = 6;
pub const START_FORCES: u32 = 3;
pub const UNIVERSAL_COST: u32 = 2;
/// Cost of market slot 0, 1, 2.
pub const SLOT_COST: [u32; 3] = [3, 2, 1];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_is_big_and_named() {
        assert!(Tech::ALL.len() >= 15);
        for t in Tech::ALL {
            assert_eq!(Tech::from_name(t.name()), Some(t));
            assert!(!t.text().is_empty() && t.text().len() < 70, "{t:?}");
        }
    }

    #[test]
    fn combat_examples() {
        assert_eq!(resolve(4, 3, 0, 0), (1, 0));
        assert_eq!(resolve(3, 3, 0, 0), (0, 0));
        assert_eq!(resolve(4, 3, 2, 2), (1, 0));
        assert_eq!(resolve(4, 3, 1, 3), (0, 1));
        assert_eq!(resolve(2, 3, 2, 0), (1, 0));
        assert_eq!(resolve(1, 5, 9, 0), (1, 0));
    }
}
