//! One armed unit of a battle ([`Fighter`]): its strengths, technology,
//! what it may do this firing round, and the special units' traits (aliens,
//! advanced rule 14; Doomsday Machines, optional rule 17).

use super::super::super::basics::Kind;
use super::{Side, Target, Terrain};
use serde::{Deserialize, Serialize};

/// One armed unit of a battle: a group of 1 to 6 warships, the hex's one
/// Base, or all the Ship Yards of one side in the hex as one fighter with
/// `ships` = the number of yards (each of hull 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    pub side: Side,
    pub id: Target,
    pub kind: Kind,
    /// Ships (or yards) left in the battle; 0 once destroyed or retreated.
    pub ships: u32,
    /// Hits on the group's one damaged ship (0: none damaged). Hits on a
    /// group go to one ship until it is destroyed (text 5.6).
    pub damage: u32,
    pub attack_tech: u32,
    pub defense_tech: u32,
    pub tactics: u32,
    /// This firing round: unscreened ships that have fired.
    pub fired: u32,
    /// This firing round: ships screened (the damaged ship only when the
    /// whole group is, see [`Battle::screen`]).
    pub screened: u32,
    /// This firing round: its place in the order is over although ships
    /// that could only retreat stayed ([`Battle::hold`]).
    pub held: bool,
    /// Fighter Squadrons: their Fighter Technology level; Scouts: their
    /// Point Defense level (advanced rule 11); Raiders: their Cloaking
    /// level, Destroyers: their Scanner level (advanced rule 12); 0
    /// otherwise.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub craft: u32,
    /// A Raider cloaked this firing round: its Cloaking level (`craft`)
    /// above the best Scanners (`craft` of a Destroyer) the other side had
    /// when the round began, outside a Nebula (advanced rule 12).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cloaked: bool,
}

/// The Point Defense level of every alien ship (text 14.2).
pub const ALIEN_POINT_DEFENSE: u32 = 2;
/// The Tactics of every alien ship (text 14.2).
pub const ALIEN_TACTICS: u32 = 1;
/// A Doomsday Machine's Tactics and Scanner levels (text 17.2).
pub const MACHINE_TACTICS: u32 = 2;
pub const MACHINE_SCANNER: u32 = 2;
/// A Doomsday Machine's attacks a firing round (text 17.2).
pub const MACHINE_ATTACKS: u32 = 2;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Fighter {
    /// A fighter at the start of a battle, undamaged. Bases and Ship Yards
    /// take their owner's current levels (text 9.10.5).
    pub fn new(
        side: Side,
        id: Target,
        kind: Kind,
        ships: u32,
        attack_tech: u32,
        defense_tech: u32,
        tactics: u32,
    ) -> Fighter {
        Fighter {
            side,
            id,
            kind,
            ships,
            damage: 0,
            attack_tech,
            defense_tech,
            tactics,
            fired: 0,
            screened: 0,
            held: false,
            craft: 0,
            cloaked: false,
        }
    }

    /// With its Fighter Technology (Fighter Squadrons), Point Defense
    /// (Scouts), Cloaking (Raiders) or Scanner (Destroyers) level.
    pub fn with_craft(self, craft: u32) -> Fighter {
        Fighter { craft, ..self }
    }

    /// An alien ship of type `kind` (advanced rule 14.2): hull 1, Tactics
    /// 1, Point Defense 2, no technology; it never retreats.
    pub fn alien(side: Side, number: u8, kind: Kind) -> Fighter {
        Fighter::new(side, Target::Alien(number), kind, 1, 0, 0, ALIEN_TACTICS).with_craft(ALIEN_POINT_DEFENSE)
    }

    pub fn is_alien(&self) -> bool {
        matches!(self.id, Target::Alien(_))
    }

    /// Doomsday Machine `number` (optional rule 17.2): class C, Attack 9,
    /// Defense 2, Hull 3, Tactics 2, Scanner 2, two attacks a round, no
    /// technology; `damage`: hits it carries in (solitaire only).
    pub fn machine(side: Side, number: u8, damage: u32) -> Fighter {
        Fighter {
            damage,
            ..Fighter::new(side, Target::Machine(number), Kind::Doomsday, 1, 0, 0, MACHINE_TACTICS)
                .with_craft(MACHINE_SCANNER)
        }
    }

    pub fn is_machine(&self) -> bool {
        matches!(self.id, Target::Machine(_))
    }

    /// Shots a ship of it fires a firing round: a Doomsday Machine's two
    /// attacks (17.2), one for everything else.
    pub fn shots_per_ship(&self) -> u32 {
        if self.is_machine() {
            MACHINE_ATTACKS
        } else {
            1
        }
    }

    /// A Scout with Point Defense Technology (advanced rule 11.3), or an
    /// alien ship (14.2: "equipped with a Point Defense of 2").
    pub fn point_defense(&self) -> bool {
        (self.kind == Kind::Scout || self.is_alien()) && self.craft > 0
    }

    /// Attack Strength against a unit of `target` type, before technology:
    /// a Point Defense Scout fires at Fighter Squadrons with 5 + its level
    /// (A6 at level 1, text 11.3.2; A7, A8 brief).
    pub fn base_attack(&self, target: Kind) -> u32 {
        if self.point_defense() && target == Kind::Fighters {
            5 + self.craft
        } else {
            self.kind.strength(self.craft).0
        }
    }

    /// Defense Strength, before technology.
    pub fn base_defense(&self) -> u32 {
        self.kind.strength(self.craft).1
    }

    /// Hits that destroy one ship; an alien ship's is 1 (text 14.2).
    pub fn hull(&self) -> u32 {
        if self.is_alien() {
            1
        } else {
            self.kind.chart().hull
        }
    }

    /// Ships that may be fired upon (and may fire) this round.
    pub fn unscreened(&self) -> u32 {
        self.ships - self.screened
    }

    /// Unscreened ships that have not fired yet this round (a Doomsday
    /// Machine: attacks not made yet).
    pub fn unfired(&self) -> u32 {
        (self.unscreened() * self.shots_per_ship()).saturating_sub(self.fired)
    }

    /// Hits that destroy the next ship: what is left of the damaged one's
    /// hull, or a whole hull.
    pub fn hits_to_kill(&self) -> u32 {
        self.hull() - self.damage
    }

    /// Attack strength with the technology it uses in `terrain` (capped by
    /// the hull), without the fleet-size bonus.
    pub fn attack(&self, terrain: Terrain) -> u32 {
        let chart = self.kind.chart();
        self.base_attack(self.kind) + terrain.attack_tech(self.attack_tech).min(chart.hull)
    }

    /// One hit on the group's unscreened ships; `true` if it destroyed one.
    pub(super) fn take_hit(&mut self) -> bool {
        self.damage += 1;
        if self.damage < self.hull() {
            return false;
        }
        self.damage = 0;
        self.ships -= 1;
        // The ship lost is one that had not fired, if any had not: a
        // destroyed ship that had not fired does not fire.
        self.fired = self.fired.min(self.unscreened() * self.shots_per_ship());
        true
    }
}
