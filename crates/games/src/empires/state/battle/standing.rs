//! A player's standing orders, which answer a battle's questions, and
//! ships firing at a colony after a battle (rules page, *Standing orders*,
//! *Combat*).

use super::super::super::basics::{hits, to_hit, Kind, Worth};
use super::{Action, Ask, Battle, Fighter, Side, Target};
use serde::{Deserialize, Serialize};
use std::cmp::{Ordering, Reverse};

// ---------------------------------------------------------------------
// Standing orders
// ---------------------------------------------------------------------

/// `target`: which enemy each ship fires at, chosen again before every die.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TargetRule {
    /// A group with a damaged ship (the one needing the fewest more hits),
    /// else the highest to-hit, then one that has not fired yet this round,
    /// then the larger hull; last tie: label order.
    #[default]
    Focus,
    /// The largest hull, then as focus.
    Big,
    /// The smallest hull, then as focus.
    Small,
}

/// `retreat`: when a group retreats, from firing round 2, at its place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RetreatRule {
    #[default]
    Never,
    /// When the enemy has the fleet-size bonus this round.
    Outgunned,
    /// When the side has half or fewer of the combat-capable units it
    /// brought into the battle.
    Half,
}

/// `screen`: what the side screens when it may.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ScreenRule {
    #[default]
    None,
    /// As many ships as allowed, lowest attack (with tech) first, damaged
    /// first among equals, never losing a fleet-size bonus the side has
    /// unscreened.
    Weak,
}

/// `colonies`: colony fire after a battle and in hexes without one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ColonyRule {
    /// Every armed ship fires at the enemy colony.
    #[default]
    Fire,
    Hold,
}

/// The order words of the standing-order values (`target:focus`, …).
macro_rules! keys {
    ($ty:ty { $($variant:ident => $key:literal),+ $(,)? }) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$(<$ty>::$variant),+];

            /// The value's order word.
            pub fn key(self) -> &'static str {
                match self {
                    $(<$ty>::$variant => $key),+
                }
            }

            /// Read an order word.
            pub fn parse(text: &str) -> Option<$ty> {
                let t = text.trim().to_ascii_lowercase();
                Self::ALL.iter().copied().find(|v| v.key() == t)
            }
        }
    };
}

keys!(TargetRule { Focus => "focus", Big => "big", Small => "small" });
keys!(RetreatRule { Never => "never", Outgunned => "outgunned", Half => "half" });
keys!(ScreenRule { None => "none", Weak => "weak" });
keys!(ColonyRule { Fire => "fire", Hold => "hold" });

/// `revealed`: whether groups revealed in combat that start a turn at one
/// of the player's colonies are flipped face down (text 5.11: "they may be
/// flipped face down ... before being moved").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RevealedRule {
    /// Flip them face down (with new numeral markers).
    #[default]
    Hide,
    /// Leave them face up, for all to see.
    Keep,
}

impl RevealedRule {
    fn is_hide(&self) -> bool {
        *self == RevealedRule::Hide
    }
}

keys!(RevealedRule { Hide => "hide", Keep => "keep" });

/// A player's standing orders (rules page, *Standing orders*); the default
/// is the page's: asked (not fire at will), focus, never retreat, no
/// screening, fire at colonies, hide revealed groups at colonies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Standing {
    /// Fire at will: every combat choice made at once by these settings.
    pub auto: bool,
    pub target: TargetRule,
    pub retreat: RetreatRule,
    pub screen: ScreenRule,
    pub colonies: ColonyRule,
    /// Not written when `hide`, so states stored before it read the same.
    #[serde(default, skip_serializing_if = "RevealedRule::is_hide")]
    pub revealed: RevealedRule,
}

impl Standing {
    /// The answer to `ask` by these orders. A `Fire` answer fires one ship
    /// (the target is chosen again before every die). `retreat_hex`: the
    /// caller found a legal retreat hex for the fighter asked (without one
    /// it fires).
    pub fn answer(&self, battle: &Battle, ask: &Ask, retreat_hex: bool) -> Action {
        match *ask {
            Ask::Screen { side, .. } => Action::Screen(choose_screen(battle, side, self.screen)),
            Ask::Fire {
                fighter,
                ships,
                may_retreat,
                ..
            } => {
                let f = battle.fighter(fighter);
                if may_retreat && retreat_hex && choose_retreat(battle, fighter, self.retreat) {
                    return Action::Retreat {
                        fighter,
                        ships: f.ships - f.fired,
                    };
                }
                match choose_target(battle, fighter, self.target) {
                    Some(t) if ships > 0 => Action::Fire {
                        fighter,
                        target: battle.fighter(t).id,
                        ships: 1,
                    },
                    _ => Action::Hold { fighter },
                }
            }
        }
    }
}

/// The target of `fighter`'s next die by `rule`, among its legal targets.
pub fn choose_target(battle: &Battle, fighter: usize, rule: TargetRule) -> Option<usize> {
    let focus = |x: usize, y: usize| -> Ordering {
        let (a, b) = (battle.fighter(x), battle.fighter(y));
        let key = |f: &Fighter, i: usize| {
            (
                // A group with a damaged ship first, the fewest more hits.
                f.damage == 0,
                if f.damage > 0 { f.hits_to_kill() } else { 0 },
                Reverse(battle.to_hit(fighter, i)),
                // One that has not fired yet this round.
                f.fired > 0,
                Reverse(f.hull()),
                f.id,
            )
        };
        key(a, x).cmp(&key(b, y))
    };
    let hull = |i: usize| battle.fighter(i).hull();
    battle.targets(fighter).into_iter().min_by(|&x, &y| match rule {
        TargetRule::Focus => focus(x, y),
        TargetRule::Big => hull(y).cmp(&hull(x)).then_with(|| focus(x, y)),
        TargetRule::Small => hull(x).cmp(&hull(y)).then_with(|| focus(x, y)),
    })
}

/// Whether `fighter` retreats now by `rule` (if it may; the caller checks
/// that a legal hex exists).
pub fn choose_retreat(battle: &Battle, fighter: usize, rule: RetreatRule) -> bool {
    let side = battle.fighter(fighter).side;
    battle.may_retreat(fighter)
        && match rule {
            RetreatRule::Never => false,
            RetreatRule::Outgunned => battle.bonus() == Some(side.other()),
            RetreatRule::Half => 2 * battle.count(side) <= battle.brought(side),
        }
}

/// The screening of `side` by `rule`, when the battle asks it to screen.
/// Weak: the lowest attack (with the tech it uses here) first, groups
/// with a damaged ship first among equals, then label order; whole groups
/// while they fit, then part of the next; at most the number allowed, and
/// never so many that a fleet-size bonus the side has unscreened is lost.
pub fn choose_screen(battle: &Battle, side: Side, rule: ScreenRule) -> Vec<(Target, u32)> {
    let Some(Ask::Screen { side: asked, max_ships }) = battle.ask() else {
        return Vec::new();
    };
    if rule == ScreenRule::None || asked != side {
        return Vec::new();
    }
    let (mine, theirs) = (battle.count(side), battle.count(side.other()));
    let mut left = if mine >= 2 * theirs {
        max_ships.min(mine - 2 * theirs)
    } else {
        max_ships
    };
    let mut groups: Vec<&Fighter> = battle
        .fighters()
        .iter()
        .filter(|f| f.side == side && f.ships > 0 && f.kind.is_warship())
        .collect();
    // Fighter Squadrons last: screening any uncovers the Carriers (11.1.1).
    groups.sort_by_key(|f| {
        (
            f.kind == Kind::Fighters,
            f.attack(battle.terrain()),
            f.damage == 0,
            f.id,
        )
    });
    let mut out = Vec::new();
    for f in groups {
        if left == 0 {
            break;
        }
        let n = left.min(f.ships);
        out.push((f.id, n));
        left -= n;
    }
    out
}

// ---------------------------------------------------------------------
// Colony fire
// ---------------------------------------------------------------------

/// To-hit of one ship firing at a colony (text 5.10): attack + Attack tech
/// (at most its hull), no fleet-size bonus, colony defense 0. The page
/// names no terrain effect here, so none is applied.
pub fn colony_fire_to_hit(attack: u32, attack_tech: u32, hull: u32) -> i32 {
    to_hit(attack, attack_tech, hull, false, 0, 0, 0)
}

/// Ships firing at a colony, once each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColonyFire {
    /// `(die, hit)` per ship that fired, in order.
    pub shots: Vec<(u32, bool)>,
    /// The colony after the hits; `None`: destroyed.
    pub after: Option<Worth>,
}

/// Fire `(to_hit, die)` shots at a colony worth `worth`, in order: each hit
/// takes it down one step (text 5.10.2); once it is destroyed the rest do
/// not fire.
pub fn colony_volley(worth: Worth, shots: &[(i32, u32)]) -> ColonyFire {
    let mut after = Some(worth);
    let mut out = Vec::new();
    for &(to_hit, die) in shots {
        let Some(w) = after else { break };
        let hit = hits(die, to_hit);
        if hit {
            after = w.hit();
        }
        out.push((die, hit));
    }
    ColonyFire { shots: out, after }
}
