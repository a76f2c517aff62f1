//! Ships and their units: the nine kinds of [`Unit`], a ship's bundle of
//! [`Units`], the fixed catalogue of ship [`Class`]es, and what one [`Ship`]
//! can do (shots, moving, sensor range, damage and repair).
//!
//! Read off `docs/rules/spectrum.md` (*Ships and units*, *The ship catalogue
//! (design)*, *A · Economic*, *Fog of war*); the tests pin the catalogue to
//! the page's table. Combat itself is in [`crate::spectrum::rules::combat`]; what a
//! round did ([`RoundResult`]) is replayed onto a ship by [`apply_hits`].

use super::{ShipId, Space};
use orrery_engine::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One kind of unit a ship is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Unit {
    /// Every ship has one; lost (or switched off) → the ship is dark.
    System,
    /// Countable: each powers one warp or one jump; slipstream range.
    Drive,
    /// Countable: 1 shot a round, or 1 per unit with an intact multifire.
    Weapons,
    /// Countable: absorbs hits first.
    Armour,
    /// One shot per weapon unit.
    Multifire,
    /// +1 sensor range.
    Sensor,
    /// May slipstream.
    Slip,
    /// May jump.
    Jump,
    /// May terraform its planet.
    Terraforming,
}

/// "Units come back in the order system, weapons, drive, multifire,
/// armour, sensor, slip, jump, terraforming."
pub const REPAIR_ORDER: [Unit; 9] = [
    Unit::System,
    Unit::Weapons,
    Unit::Drive,
    Unit::Multifire,
    Unit::Armour,
    Unit::Sensor,
    Unit::Slip,
    Unit::Jump,
    Unit::Terraforming,
];

impl Unit {
    /// Every unit, in the order of the rules page's list (and of the fields
    /// of [`Units`]). Random hits pick among unit instances in this order.
    pub const ALL: [Unit; 9] = [
        Unit::System,
        Unit::Drive,
        Unit::Weapons,
        Unit::Armour,
        Unit::Multifire,
        Unit::Sensor,
        Unit::Slip,
        Unit::Jump,
        Unit::Terraforming,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Unit::System => "system",
            Unit::Drive => "drive",
            Unit::Weapons => "weapons",
            Unit::Armour => "armour",
            Unit::Multifire => "multifire",
            Unit::Sensor => "sensor",
            Unit::Slip => "slip",
            Unit::Jump => "jump",
            Unit::Terraforming => "terraforming",
        }
    }

    /// Drive, weapons and armour are countable (a ship may carry several);
    /// the others are single units.
    pub fn countable(self) -> bool {
        matches!(self, Unit::Drive | Unit::Weapons | Unit::Armour)
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A count of each kind of unit: a class's design, or a ship's remaining
/// units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Units {
    pub system: u8,
    pub drive: u8,
    pub weapons: u8,
    pub armour: u8,
    pub multifire: u8,
    pub sensor: u8,
    pub slip: u8,
    pub jump: u8,
    pub terraforming: u8,
}

impl Units {
    /// The count of one kind of unit.
    pub fn get(&self, unit: Unit) -> u8 {
        *self.field(unit)
    }

    /// Set the count of one kind of unit.
    pub fn set(&mut self, unit: Unit, count: u8) {
        *self.get_mut(unit) = count;
    }

    /// The count of one kind of unit, to change in place.
    pub fn get_mut(&mut self, unit: Unit) -> &mut u8 {
        match unit {
            Unit::System => &mut self.system,
            Unit::Drive => &mut self.drive,
            Unit::Weapons => &mut self.weapons,
            Unit::Armour => &mut self.armour,
            Unit::Multifire => &mut self.multifire,
            Unit::Sensor => &mut self.sensor,
            Unit::Slip => &mut self.slip,
            Unit::Jump => &mut self.jump,
            Unit::Terraforming => &mut self.terraforming,
        }
    }

    fn field(&self, unit: Unit) -> &u8 {
        match unit {
            Unit::System => &self.system,
            Unit::Drive => &self.drive,
            Unit::Weapons => &self.weapons,
            Unit::Armour => &self.armour,
            Unit::Multifire => &self.multifire,
            Unit::Sensor => &self.sensor,
            Unit::Slip => &self.slip,
            Unit::Jump => &self.jump,
            Unit::Terraforming => &self.terraforming,
        }
    }

    /// All units together, the system included.
    pub fn total(&self) -> u32 {
        Unit::ALL.iter().map(|u| self.get(*u) as u32).sum()
    }

    /// Each count less `other`'s, never below 0 (a design minus what is
    /// left = the damage).
    pub fn minus(&self, other: &Units) -> Units {
        let mut out = Units::default();
        for unit in Unit::ALL {
            out.set(unit, self.get(unit).saturating_sub(other.get(unit)));
        }
        out
    }
}

impl fmt::Display for Units {
    /// `system, drive 2, weapons 3, armour 2, multifire, slip`: countable
    /// units with their count, single units by name, absent units left out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = Unit::ALL
            .iter()
            .filter(|u| self.get(**u) > 0)
            .map(|u| match self.get(*u) {
                // A single unit is just named (a count above 1 cannot
                // happen by design, but would still be shown).
                1 if !u.countable() => u.name().to_string(),
                n => format!("{} {}", u.name(), n),
            })
            .collect();
        if parts.is_empty() {
            f.write_str("no units")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// A ship class of the fixed catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Class {
    Scout,
    Fighter,
    Frigate,
    Cruiser,
    Basestar,
    Jumper,
    Terraformer,
}

impl Class {
    /// The catalogue, in the rules page's order.
    pub const ALL: [Class; 7] = [
        Class::Scout,
        Class::Fighter,
        Class::Frigate,
        Class::Cruiser,
        Class::Basestar,
        Class::Jumper,
        Class::Terraformer,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::Scout => "scout",
            Class::Fighter => "fighter",
            Class::Frigate => "frigate",
            Class::Cruiser => "cruiser",
            Class::Basestar => "basestar",
            Class::Jumper => "jumper",
            Class::Terraformer => "terraformer",
        }
    }

    /// A class by name, any case.
    pub fn parse(text: &str) -> Option<Class> {
        let t = text.trim().to_ascii_lowercase();
        Class::ALL.iter().copied().find(|c| c.name() == t)
    }

    /// The class's units when new, as the catalogue table gives them.
    pub fn design(self) -> Units {
        // Every class has one system unit.
        let base = Units {
            system: 1,
            ..Units::default()
        };
        match self {
            Class::Scout => Units {
                drive: 2,
                sensor: 1,
                slip: 1,
                ..base
            },
            Class::Fighter => Units {
                drive: 1,
                weapons: 1,
                armour: 1,
                ..base
            },
            Class::Frigate => Units {
                drive: 2,
                weapons: 1,
                armour: 2,
                slip: 1,
                ..base
            },
            Class::Cruiser => Units {
                drive: 2,
                weapons: 3,
                armour: 2,
                multifire: 1,
                slip: 1,
                ..base
            },
            Class::Basestar => Units {
                drive: 1,
                weapons: 5,
                armour: 4,
                multifire: 1,
                sensor: 1,
                ..base
            },
            Class::Jumper => Units {
                drive: 2,
                weapons: 1,
                armour: 1,
                jump: 1,
                ..base
            },
            Class::Terraformer => Units {
                drive: 1,
                armour: 1,
                terraforming: 1,
                ..base
            },
        }
    }

    /// "Cost = one point per unit, the system included."
    pub fn cost(self) -> u32 {
        self.design().total()
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One ship in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ship {
    pub id: ShipId,
    pub owner: Seat,
    pub class: Class,
    /// The units it has left (its design less the damage).
    pub units: Units,
    pub at: Space,
    /// Out of play: system lost in combat, or switched off by `hide`.
    pub dark: bool,
}

impl Ship {
    /// A newly built ship: all its class's units, not dark.
    pub fn new(id: ShipId, owner: Seat, class: Class, at: Space) -> Self {
        Ship {
            id,
            owner,
            class,
            units: class.design(),
            at,
            dark: false,
        }
    }

    /// Units lost: the design's total less what is left.
    pub fn damage(&self) -> u32 {
        self.class.design().total().saturating_sub(self.units.total())
    }

    /// Shots a round: none without weapons (or when dark); one per weapon
    /// unit with an intact multifire unit; otherwise one.
    pub fn shots(&self) -> u8 {
        let weapons = self.units.weapons;
        if self.dark || weapons == 0 {
            0
        } else if self.units.multifire > 0 {
            weapons
        } else {
            1
        }
    }

    /// Not dark and some drive left. Whether the ship is in an encounter is
    /// a question about the other ships on its space, asked elsewhere.
    pub fn can_move(&self) -> bool {
        !self.dark && self.units.drive >= 1
    }

    /// "A ship with no weapons and no drive left is destroyed."
    pub fn destroyed(&self) -> bool {
        self.units.weapons == 0 && self.units.drive == 0
    }

    /// Weapon units that count in combat (hit chance, planet strength):
    /// none while dark.
    pub fn weapons(&self) -> u32 {
        if self.dark {
            0
        } else {
            self.units.weapons as u32
        }
    }

    /// How far the ship sees: 1, plus 1 per intact sensor unit; `None`
    /// while dark (a dark ship sees nothing).
    pub fn sensor_range(&self) -> Option<u32> {
        (!self.dark).then(|| 1 + self.units.sensor as u32)
    }

    /// The units `points` points of repair put back, one per point, in
    /// [`REPAIR_ORDER`]: every missing unit of one kind before the next
    /// kind. At most the damage.
    pub fn repair_plan(&self, points: u32) -> Vec<Unit> {
        let missing = self.class.design().minus(&self.units);
        REPAIR_ORDER
            .iter()
            .flat_map(|u| std::iter::repeat_n(*u, missing.get(*u) as usize))
            .take(points as usize)
            .collect()
    }

    /// Put units back (never beyond the design). A ship that gets its
    /// system back is no longer dark.
    pub fn apply_repair(&mut self, units: &[Unit]) {
        let design = self.class.design();
        for unit in units {
            let count = self.units.get_mut(*unit);
            *count = (*count + 1).min(design.get(*unit));
            if *unit == Unit::System {
                self.dark = false;
            }
        }
    }
}

impl fmt::Display for Ship {
    /// `R14 cruiser`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.id, self.class)
    }
}

// ---------------------------------------------------------------- a round's hits

/// One shot rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    pub ship: ShipId,
    pub target: ShipId,
    pub hit: bool,
}

/// One unit lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub ship: ShipId,
    pub unit: Unit,
}

/// What one round of combat at one space did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// Every shot, in the order rolled (the order of the fire lines).
    pub shots: Vec<Shot>,
    /// The units lost, in the order the hits were applied.
    pub hits: Vec<Hit>,
    /// Ships left with no weapons and no drive, in the order of `ships`.
    pub destroyed: Vec<ShipId>,
    /// Ships whose system was lost (and that were not destroyed), in the
    /// order of `ships`.
    pub darkened: Vec<ShipId>,
}

/// Replay hits onto one ship: every hit naming it removes that unit, and a
/// ship whose system is gone goes dark. (Whether it is destroyed is
/// [`Ship::destroyed`]; removing it is the state layer's business.)
pub fn apply_hits(ship: &mut Ship, hits: &[Hit]) {
    for hit in hits.iter().filter(|h| h.ship == ship.id) {
        let count = ship.units.get_mut(hit.unit);
        *count = count.saturating_sub(1);
    }
    if ship.units.system == 0 {
        ship.dark = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::basics::Colour;
    use orrery_engine::Hex;

    fn ship(class: Class) -> Ship {
        let id = ShipId {
            colour: Colour::Red,
            number: 14,
        };
        Ship::new(id, Seat(0), class, Space::new(Hex::new(0, 0), 2))
    }

    /// One unit set from the table's columns: system, drive, weapons,
    /// armour, then the "other" units.
    fn row(system: u8, drive: u8, weapons: u8, armour: u8, other: &[Unit]) -> Units {
        let mut u = Units {
            system,
            drive,
            weapons,
            armour,
            ..Units::default()
        };
        for o in other {
            *u.get_mut(*o) += 1;
        }
        u
    }

    #[test]
    fn catalogue_matches_the_rules_page() {
        use Unit::*;
        let table = [
            (Class::Scout, row(1, 2, 0, 0, &[Sensor, Slip]), 5),
            (Class::Fighter, row(1, 1, 1, 1, &[]), 4),
            (Class::Frigate, row(1, 2, 1, 2, &[Slip]), 7),
            (Class::Cruiser, row(1, 2, 3, 2, &[Multifire, Slip]), 10),
            (Class::Basestar, row(1, 1, 5, 4, &[Multifire, Sensor]), 13),
            (Class::Jumper, row(1, 2, 1, 1, &[Jump]), 6),
            (Class::Terraformer, row(1, 1, 0, 1, &[Terraforming]), 4),
        ];
        assert_eq!(table.len(), Class::ALL.len());
        for (class, units, cost) in table {
            assert_eq!(class.design(), units, "{class}");
            assert_eq!(class.cost(), cost, "{class}");
            assert_eq!(class.design().system, 1, "{class}");
        }
    }

    #[test]
    fn classes_parse_by_name() {
        for class in Class::ALL {
            assert_eq!(Class::parse(class.name()), Some(class));
        }
        assert_eq!(Class::parse(" Cruiser "), Some(Class::Cruiser));
        assert_eq!(Class::parse("BASESTAR"), Some(Class::Basestar));
        assert_eq!(Class::parse("battleship"), None);
    }

    #[test]
    fn units_read_and_print() {
        let u = Class::Cruiser.design();
        assert_eq!(u.to_string(), "system, drive 2, weapons 3, armour 2, multifire, slip");
        assert_eq!(
            Class::Fighter.design().to_string(),
            "system, drive 1, weapons 1, armour 1"
        );
        assert_eq!(u.get(Unit::Weapons), 3);
        assert_eq!(u.total(), 10);
        let mut v = u;
        v.set(Unit::System, 0);
        v.set(Unit::Armour, 0);
        assert_eq!(v.to_string(), "drive 2, weapons 3, multifire, slip");
        assert_eq!(
            u.minus(&v),
            Units {
                system: 1,
                armour: 2,
                ..Units::default()
            }
        );
        assert_eq!(v.minus(&u), Units::default());
        assert_eq!(Units::default().to_string(), "no units");
        assert_eq!(
            Unit::ALL.map(Unit::name).join(" "),
            "system drive weapons armour multifire sensor slip jump terraforming"
        );
    }

    #[test]
    fn shots_need_multifire_for_more_than_one() {
        let mut cruiser = ship(Class::Cruiser);
        assert_eq!(cruiser.shots(), 3);
        cruiser.units.multifire = 0;
        assert_eq!(cruiser.shots(), 1);
        cruiser.units.weapons = 0;
        assert_eq!(cruiser.shots(), 0);
        assert_eq!(ship(Class::Frigate).shots(), 1);
        assert_eq!(ship(Class::Scout).shots(), 0);
        assert_eq!(ship(Class::Basestar).shots(), 5);
        let mut dark = ship(Class::Basestar);
        dark.dark = true;
        assert_eq!(dark.shots(), 0);
        assert_eq!(dark.weapons(), 0);
    }

    #[test]
    fn moving_seeing_and_destruction() {
        let mut s = ship(Class::Scout);
        assert!(s.can_move());
        assert_eq!(s.sensor_range(), Some(2));
        assert_eq!(ship(Class::Fighter).sensor_range(), Some(1));
        s.dark = true;
        assert!(!s.can_move());
        assert_eq!(s.sensor_range(), None);

        let mut f = ship(Class::Fighter);
        assert!(!f.destroyed());
        f.units.drive = 0;
        assert!(!f.can_move());
        assert!(!f.destroyed());
        f.units.weapons = 0;
        assert!(f.destroyed());
        assert_eq!(f.damage(), 2);
    }

    #[test]
    fn repair_follows_the_repair_order() {
        let mut c = ship(Class::Cruiser);
        assert!(c.repair_plan(5).is_empty());
        c.units = Units {
            system: 0,
            drive: 1,
            weapons: 1,
            armour: 0,
            multifire: 0,
            slip: 1,
            ..Units::default()
        };
        c.dark = true;
        assert_eq!(c.damage(), 7);
        let all = c.repair_plan(100);
        use Unit::*;
        assert_eq!(all, vec![System, Weapons, Weapons, Drive, Multifire, Armour, Armour]);
        assert_eq!(c.repair_plan(3), vec![System, Weapons, Weapons]);
        assert_eq!(c.repair_plan(0), vec![]);

        // Part of the damage: the system comes back first and ends dark.
        c.apply_repair(&c.repair_plan(3));
        assert!(!c.dark);
        assert_eq!(c.units.weapons, 3);
        assert_eq!(c.damage(), 4);
        c.apply_repair(&c.repair_plan(10));
        assert_eq!(c.units, Class::Cruiser.design());
        assert_eq!(c.damage(), 0);
        // Never beyond the design.
        c.apply_repair(&[Weapons]);
        assert_eq!(c.units, Class::Cruiser.design());
    }

    #[test]
    fn repair_without_the_system_leaves_a_hidden_ship_dark() {
        let mut f = ship(Class::Fighter);
        f.dark = true; // hidden: system intact but switched off
        f.units.armour = 0;
        f.apply_repair(&f.repair_plan(1));
        assert_eq!(f.units.armour, 1);
        assert!(f.dark);
    }

    #[test]
    fn ships_serialize() {
        let s = ship(Class::Jumper);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Ship>(&json).unwrap(), s);
        assert_eq!(s.to_string(), "R14 jumper");
    }
}
