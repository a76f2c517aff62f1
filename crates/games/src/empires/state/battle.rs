//! One battle at one hex, as a pure, deterministic state machine, and the
//! standing orders that answer it. It is part of the state: the stored
//! battle is [`State::battle`](super::State::battle), and `apply` replays
//! each logged answer onto it.
//!
//! A [`Battle`] holds both sides' armed units as [`Fighter`]s (a group of
//! warships, the hex's Base, or all its Ship Yards as one), the unarmed
//! Colony Ships and Miners of each side, and where the procedure stands.
//! The caller asks what the battle waits on ([`Battle::ask`]) and answers
//! with [`Battle::screen`], [`Battle::fire`], [`Battle::retreat`] or
//! [`Battle::hold`] (or one [`Action`] through [`Battle::act`]). There is no
//! RNG here: every d10 is passed in, so the caller draws the dice from the
//! game's seeded RNG, logs them with the action, and replays the same calls
//! onto the stored battle: the same calls with the same dice give the same
//! battle.
//!
//! - [`Battle`], [`Ask`], [`Action`]: the procedure (screening, fleet-size
//!   bonus, firing order, shots, damage, retreat, the end).
//! - [`Standing`] and [`Standing::answer`], with [`choose_target`],
//!   [`choose_screen`], [`choose_retreat`]: a player's standing orders.
//! - [`colony_fire_to_hit`], [`colony_volley`]: ships firing at a colony
//!   after the battle.
//!
//! Read off `docs/rules/empires.md` (*Combat (text 5.0–5.11)*, *The
//! `combat` decision*, *Standing orders*). Where the page leaves a choice
//! open, the reading taken is written at the item it concerns.

use super::super::basics::{hits, to_hit, Class, Kind, Label, GROUP_MAX};
use orrery_engine::{Hex, Seat};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::fmt;

/// The two sides of a battle: the active player is the attacker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Attacker, Side::Defender];

    /// 0 for the attacker, 1 for the defender (index of per-side arrays).
    pub fn index(self) -> usize {
        match self {
            Side::Attacker => 0,
            Side::Defender => 1,
        }
    }

    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        })
    }
}

/// What the battle hex is, for combat (text 5.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    #[default]
    Open,
    /// Every unit is class E; Defense technology counts 0.
    Nebula,
    /// Every unit is class E; Attack technology counts 0.
    Asteroids,
}

impl Terrain {
    /// A unit's firing class here: its chart class, or E in a Nebula or
    /// Asteroids.
    pub fn class(self, kind: Kind) -> Class {
        match self {
            Terrain::Open => kind.chart().class.unwrap_or(Class::E),
            Terrain::Nebula | Terrain::Asteroids => Class::E,
        }
    }

    /// The Attack technology a unit uses here.
    pub fn attack_tech(self, tech: u32) -> u32 {
        if self == Terrain::Asteroids {
            0
        } else {
            tech
        }
    }

    /// The Defense technology a unit uses here.
    pub fn defense_tech(self, tech: u32) -> u32 {
        if self == Terrain::Nebula {
            0
        } else {
            tech
        }
    }
}

/// What orders name in a battle: a group by its label, or the side's Base
/// (`base`) or Ship Yards (`yard`). The order (groups by label, then the
/// Base, then the yards) is the "label order" of the standing orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Target {
    Group(Label),
    Base,
    Yards,
    /// An alien ship (advanced rule 14), numbered from 1 in its battle.
    Alien(u8),
    /// Doomsday Machine `n` (optional rule 17).
    Machine(u8),
}

impl Target {
    /// Read `B17` (or `17` for one of `own`'s groups), `base` or `yard`.
    pub fn parse(text: &str, own: Seat) -> Option<Target> {
        match text.trim().to_ascii_lowercase().as_str() {
            "base" => Some(Target::Base),
            "yard" | "yards" => Some(Target::Yards),
            t if t.starts_with("alien") => t["alien".len()..].trim().parse().ok().map(Target::Alien),
            t if t.starts_with("dm") => t["dm".len()..].trim().parse().ok().map(Target::Machine),
            t => Label::parse(t, own).map(Target::Group),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Group(label) => write!(f, "{label}"),
            Target::Base => f.write_str("base"),
            Target::Yards => f.write_str("yard"),
            Target::Alien(n) => write!(f, "alien{n}"),
            Target::Machine(n) => write!(f, "dm{n}"),
        }
    }
}

/// Where the procedure stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Step {
    /// The larger side may screen up to `max` ships.
    Screen {
        side: Side,
        max: u32,
    },
    /// Fighters fire (or retreat) in the firing order.
    Fire,
    Over(Outcome),
}

/// How a battle ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The side with combat-capable units left; `None` only for a battle in
    /// which neither side had any.
    pub winner: Option<Side>,
    /// The loser's Colony Ships and Miners, destroyed (text 5.4).
    pub destroyed: Vec<Label>,
}

/// What a battle waits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ask {
    /// Start of a firing round: `side`, the one with more combat-capable
    /// units, may screen up to `max_ships` ships ([`Battle::screen`]; an
    /// empty list screens none).
    Screen { side: Side, max_ships: u32 },
    /// The next fighter in the firing order: `ships` of it may fire now
    /// (0 when it may only retreat or stay), and from firing round 2 its
    /// ships that have not fired may retreat instead.
    Fire {
        side: Side,
        fighter: usize,
        ships: u32,
        may_retreat: bool,
    },
}

impl Ask {
    /// The side that owes the answer.
    pub fn side(&self) -> Side {
        match *self {
            Ask::Screen { side, .. } | Ask::Fire { side, .. } => side,
        }
    }
}

/// One answer to a battle, as logged and replayed (with its dice, for
/// `Fire`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The screening of the side asked: groups and ship counts.
    Screen(Vec<(Target, u32)>),
    /// `ships` ships of the fighter fire at the enemy `target`, one die each.
    Fire { fighter: usize, target: Target, ships: u32 },
    /// `ships` ships of the fighter retreat (the caller moves them).
    Retreat { fighter: usize, ships: u32 },
    /// The fighter's ships that could only retreat stay.
    Hold { fighter: usize },
}

/// What one [`Action`] did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Done {
    Screened,
    Shots(Vec<Shot>),
    Retreated(Left),
    Held,
}

/// One die rolled by one ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shot {
    /// Index of the firing fighter, and of its target.
    pub fighter: usize,
    pub target: usize,
    pub die: u32,
    pub to_hit: i32,
    pub hit: bool,
    /// The hit destroyed a ship of the target.
    pub destroyed: bool,
}

/// Ships that left the battle by retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Left {
    pub side: Side,
    pub id: Target,
    pub kind: Kind,
    pub ships: u32,
    /// Hits on the damaged ship that left with them (repaired after the
    /// battle like all damage); 0 if none was damaged.
    pub damage: u32,
    /// The whole group left (otherwise the part that left is a new counter).
    pub whole: bool,
}

/// Fighter Squadrons that left a battle on retreating Carriers: `ships`
/// of battle fighter `fighter`, as the new counter `new` when only part of
/// its counter left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    pub fighter: usize,
    pub ships: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new: Option<Label>,
}

/// A fighter still in the hex, with its ships left (damage is repaired
/// after the battle, text 5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Survivor {
    pub side: Side,
    pub id: Target,
    pub kind: Kind,
    pub ships: u32,
}

/// One battle at one hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    hex: Hex,
    terrain: Terrain,
    /// The firing round, from 1 (0 only for a battle over before it began).
    round: u32,
    /// Indices stay valid for the whole battle: a fighter destroyed or
    /// retreated stays with 0 ships.
    fighters: Vec<Fighter>,
    /// Colony Ships and Miners per side (attacker, defender): always
    /// screened, destroyed if their side loses.
    unarmed: [Vec<Label>; 2],
    /// Combat-capable units each side brought (for the "half" retreat rule).
    brought: [u32; 2],
    /// The side with the fleet-size bonus this firing round.
    bonus: Option<Side>,
    step: Step,
    /// Each side (attacker, defender) has a colony in the hex, where
    /// Fighter Squadrons left behind are based (text 11.1.2).
    #[serde(default, skip_serializing_if = "is_default")]
    colonies: [bool; 2],
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

impl Battle {
    /// A battle at `hex` between `fighters` (both sides, after decoys are
    /// removed) with each side's unarmed units (`[attacker, defender]`).
    ///
    /// Checked: every fighter is armed and has ships (at most 6 in a group,
    /// 1 Base), no side names the same fighter twice. A side with no
    /// fighters loses at once (its unarmed units are destroyed).
    pub fn new(hex: Hex, terrain: Terrain, fighters: Vec<Fighter>, unarmed: [Vec<Label>; 2]) -> Result<Battle, String> {
        for (i, f) in fighters.iter().enumerate() {
            let ok_id = match f.id {
                Target::Group(_) => f.kind.is_warship(),
                Target::Base => f.kind == Kind::Base,
                Target::Yards => f.kind == Kind::ShipYard,
                Target::Alien(_) => f.kind.is_warship() && f.ships == 1,
                Target::Machine(_) => f.kind == Kind::Doomsday && f.ships == 1,
            };
            if !ok_id {
                return Err(format!("{} cannot be named {}", f.kind, f.id));
            }
            let max = match f.kind {
                Kind::Base => 1,
                Kind::ShipYard => u32::MAX,
                _ => GROUP_MAX,
            };
            if f.ships == 0 || f.ships > max {
                return Err(format!("{} {} cannot have {} ships", f.side, f.id, f.ships));
            }
            if fighters[..i].iter().any(|g| g.side == f.side && g.id == f.id) {
                return Err(format!("{} {} is listed twice", f.side, f.id));
            }
        }
        let fighters: Vec<Fighter> = fighters
            .into_iter()
            .map(|f| Fighter {
                // A solitaire Doomsday Machine keeps its damage (17.2).
                damage: if f.is_machine() { f.damage } else { 0 },
                fired: 0,
                screened: 0,
                held: false,
                ..f
            })
            .collect();
        let mut battle = Battle {
            hex,
            terrain,
            round: 0,
            fighters,
            unarmed,
            brought: [0, 0],
            bonus: None,
            step: Step::Fire,
            colonies: [false, false],
        };
        battle.brought = Side::BOTH.map(|s| battle.count(s));
        battle.settle();
        Ok(battle)
    }

    /// With the sides' colonies in the hex noted (`[attacker, defender]`).
    pub fn with_colonies(self, colonies: [bool; 2]) -> Battle {
        Battle { colonies, ..self }
    }

    /// Carriers of `fighter`'s side would leave Fighter Squadrons behind
    /// with no Carrier and no colony to take them (text 11.1.2): its side
    /// has more squadrons than its Carriers hold and no colony here.
    pub fn would_orphan(&self, fighter: usize) -> bool {
        let f = &self.fighters[fighter];
        let (squadrons, room) = self.squadrons_and_room(f.side);
        f.kind == Kind::Carrier && squadrons > room && !self.colonies[f.side.index()]
    }

    pub fn hex(&self) -> Hex {
        self.hex
    }

    pub fn terrain(&self) -> Terrain {
        self.terrain
    }

    /// The firing round, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Every fighter, by index (destroyed and retreated ones with 0 ships).
    pub fn fighters(&self) -> &[Fighter] {
        &self.fighters
    }

    pub fn fighter(&self, index: usize) -> &Fighter {
        &self.fighters[index]
    }

    /// A side's fighter named `id`, if it is still in the battle.
    pub fn find(&self, side: Side, id: &Target) -> Option<usize> {
        self.fighters
            .iter()
            .position(|f| f.side == side && f.id == *id && f.ships > 0)
    }

    /// A side's Colony Ships and Miners.
    pub fn unarmed(&self, side: Side) -> &[Label] {
        &self.unarmed[side.index()]
    }

    /// Combat-capable units a side brought into the battle.
    pub fn brought(&self, side: Side) -> u32 {
        self.brought[side.index()]
    }

    /// Combat-capable units a side has now: ships of its groups, its Base
    /// and each Ship Yard (screened ones included).
    pub fn count(&self, side: Side) -> u32 {
        self.of(side).map(|f| f.ships).sum()
    }

    /// A side's combat-capable units not screened this round.
    pub fn unscreened(&self, side: Side) -> u32 {
        self.of(side).map(Fighter::unscreened).sum()
    }

    /// A side's ships that may be screened (warships; not Bases, yards or
    /// aliens, who fight to the death, 14.2).
    pub fn screenable(&self, side: Side) -> u32 {
        self.of(side)
            .filter(|f| f.kind.is_warship() && !f.is_alien())
            .map(|f| f.ships)
            .sum()
    }

    /// A battle against aliens (advanced rule 14): the defender's side is
    /// theirs.
    pub fn aliens(&self) -> bool {
        self.fighters.iter().any(Fighter::is_alien)
    }

    /// A battle against a Doomsday Machine (optional rule 17).
    pub fn machine(&self) -> bool {
        self.fighters.iter().any(Fighter::is_machine)
    }

    /// The side with the fleet-size bonus this firing round (fixed once
    /// screening is done; `None` while a side screens).
    pub fn bonus(&self) -> Option<Side> {
        self.bonus
    }

    /// How the battle ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.step {
            Step::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The fighters still in the battle, with their ships (damage repaired).
    pub fn survivors(&self) -> Vec<Survivor> {
        self.fighters
            .iter()
            .filter(|f| f.ships > 0)
            .map(|f| Survivor {
                side: f.side,
                id: f.id,
                kind: f.kind,
                ships: f.ships,
            })
            .collect()
    }

    fn of(&self, side: Side) -> impl Iterator<Item = &Fighter> {
        self.fighters.iter().filter(move |f| f.side == side && f.ships > 0)
    }

    /// What the battle waits on next; `None` once it is over.
    pub fn ask(&self) -> Option<Ask> {
        match self.step {
            Step::Over(_) => None,
            Step::Screen { side, max } => Some(Ask::Screen { side, max_ships: max }),
            Step::Fire => {
                let i = self.next()?;
                Some(Ask::Fire {
                    side: self.fighters[i].side,
                    fighter: i,
                    ships: self.fireable(i),
                    may_retreat: self.retreat_open(i),
                })
            }
        }
    }

    /// Every fighter still in the battle in the firing order (text 5.2):
    /// class A first … E (all E in a Nebula or Asteroids), then higher
    /// Tactics, then the defender, then the order they were listed in.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.fighters.len())
            .filter(|&i| self.fighters[i].ships > 0)
            .collect();
        order.sort_by_key(|&i| {
            let f = &self.fighters[i];
            (self.class(i), Reverse(f.tactics), f.side == Side::Attacker, i)
        });
        order
    }

    /// The current run of `side`: the maximal stretch of the firing order,
    /// from the next fighter to act, whose fighters are all `side`'s (the
    /// enemy's fighters with nothing to do in between are passed over).
    /// Empty when the next to act is not `side`'s (or while screening).
    /// Any fighter of the run may act, in any order.
    pub fn run(&self, side: Side) -> Vec<usize> {
        if self.step != Step::Fire {
            return Vec::new();
        }
        self.order()
            .into_iter()
            .filter(|&i| self.pending(i))
            .take_while(|&i| self.fighters[i].side == side)
            .collect()
    }

    /// The firing class of `fighter` now: its chart's (E for all in a
    /// Nebula or Asteroids), but A for a Point Defense Scout while enemy
    /// Fighter Squadrons may be fired upon in open space (text 11.3.1),
    /// and for a cloaked Raider in open space (12.1.4).
    pub fn class(&self, fighter: usize) -> Class {
        let cloaked = self.fighters[fighter].cloaked;
        if self.terrain == Terrain::Open && (cloaked || self.point_defense_on(fighter)) {
            Class::A
        } else {
            self.terrain.class(self.fighters[fighter].kind)
        }
    }

    /// A Point Defense Scout facing unscreened enemy Fighter Squadrons: it
    /// fires at them (only), as class A in open space (rules page: a PD
    /// Scout's place in the order is the squadrons').
    fn point_defense_on(&self, fighter: usize) -> bool {
        let f = &self.fighters[fighter];
        f.point_defense() && !self.squadrons_in_sight(f.side.other()).is_empty()
    }

    /// `side`'s unscreened Fighter Squadrons.
    fn squadrons_in_sight(&self, side: Side) -> Vec<usize> {
        (0..self.fighters.len())
            .filter(|&i| {
                let t = &self.fighters[i];
                t.side == side && t.kind == Kind::Fighters && t.unscreened() > 0
            })
            .collect()
    }

    /// Carriers of `side` may not be fired upon while it has Fighter
    /// Squadrons in the battle, unless it screened any this round (text
    /// 11.1.1).
    fn carriers_covered(&self, side: Side) -> bool {
        let mut squadrons = self.of(side).filter(|f| f.kind == Kind::Fighters).peekable();
        squadrons.peek().is_some() && squadrons.all(|f| f.screened == 0)
    }

    /// Why `target`, an enemy still in the battle, may not be fired upon
    /// by `fighter` now, when a rule of advanced rule 11 is the reason.
    pub fn why_not_target(&self, fighter: usize, target: usize) -> Option<&'static str> {
        let t = &self.fighters[target];
        if self.point_defense_on(fighter) && t.kind != Kind::Fighters {
            Some(if self.fighters[fighter].is_alien() {
                "an alien ship's Point Defense fires at Fighter Squadrons while any may be fired upon, text 14.2"
            } else {
                "a Scout with Point Defense fires at Fighter Squadrons while any may be fired upon, text 11.3.1"
            })
        } else if t.is_machine() && self.fighters[fighter].kind == Kind::Fighters {
            Some("Fighters cannot damage a Doomsday Machine, text 17.2")
        } else if t.kind == Kind::Carrier && t.unscreened() > 0 && self.carriers_covered(t.side) {
            Some("Carriers may not be fired upon while their side has Fighter Squadrons in the battle, text 11.1.1")
        } else {
            None
        }
    }

    /// The enemy fighters `fighter` may fire at now: the unscreened ones
    /// (not Carriers covered by their Fighter Squadrons; only the squadrons
    /// for a Point Defense Scout facing them).
    pub fn targets(&self, fighter: usize) -> Vec<usize> {
        let side = self.fighters[fighter].side.other();
        if self.point_defense_on(fighter) {
            return self.squadrons_in_sight(side);
        }
        let covered = self.carriers_covered(side);
        // Fighters cannot damage a Doomsday Machine (text 17.2).
        let squadron = self.fighters[fighter].kind == Kind::Fighters;
        (0..self.fighters.len())
            .filter(|&i| {
                let t = &self.fighters[i];
                t.side == side
                    && t.unscreened() > 0
                    && !(covered && t.kind == Kind::Carrier)
                    && !(squadron && t.is_machine())
            })
            .collect()
    }

    /// To-hit number of a ship of `fighter` at `target` this round (text
    /// 5.5): attack + Attack tech (at most the hull; 0 in Asteroids) + 1
    /// with the fleet-size bonus − (defense + Defense tech (at most the
    /// hull; 0 in a Nebula)).
    pub fn to_hit(&self, fighter: usize, target: usize) -> i32 {
        let (f, t) = (&self.fighters[fighter], &self.fighters[target]);
        let (a, d) = (f.kind.chart(), t.kind.chart());
        // A cloaked Raider's first-round surprise: +1 Attack Strength
        // (12.1.4).
        let surprise = u32::from(f.cloaked && self.round == 1);
        to_hit(
            f.base_attack(t.kind) + surprise,
            self.terrain.attack_tech(f.attack_tech),
            a.hull,
            self.bonus == Some(f.side),
            t.base_defense(),
            self.terrain.defense_tech(t.defense_tech),
            d.hull,
        )
    }

    /// Ships of `fighter` that may fire now, wherever it is in the order:
    /// unscreened ones that have not fired, if an enemy can be fired upon.
    pub fn fireable(&self, fighter: usize) -> u32 {
        if self.step != Step::Fire || self.targets(fighter).is_empty() {
            return 0;
        }
        self.fighters[fighter].unfired()
    }

    /// May `fighter` retreat now: its turn, from firing round 2, a group of
    /// warships (Bases and Ship Yards never retreat) with ships that have
    /// not fired. Whether a legal hex exists is the caller's to check.
    pub fn may_retreat(&self, fighter: usize) -> bool {
        self.in_turn(fighter) && self.retreat_open(fighter)
    }

    fn retreat_open(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        self.step == Step::Fire
            && (self.round >= 2 || f.cloaked)
            && f.kind.is_warship()
            && !f.kind.carried()
            && !f.is_alien()
            && !self.would_orphan(i)
            && f.ships > f.fired
            && self.count(f.side.other()) > 0
    }

    /// Has `fighter` still something to do at its place this round?
    fn pending(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        f.ships > 0 && !f.held && (self.fireable(i) > 0 || self.retreat_open(i))
    }

    /// The next fighter to act.
    fn next(&self) -> Option<usize> {
        self.order().into_iter().find(|&i| self.pending(i))
    }

    /// Is it `fighter`'s turn: is it in the current run?
    fn in_turn(&self, fighter: usize) -> bool {
        fighter < self.fighters.len()
            && self.step == Step::Fire
            && self.run(self.fighters[fighter].side).contains(&fighter)
    }

    fn check_turn(&self, fighter: usize) -> Result<(), String> {
        if self.is_over() {
            return Err("the battle is over".into());
        }
        if let Step::Screen { side, .. } = self.step {
            return Err(format!("the {side} screens first"));
        }
        let Some(f) = self.fighters.get(fighter) else {
            return Err(format!("no fighter {fighter} in this battle"));
        };
        if f.ships == 0 {
            return Err(format!("{} is no longer in the battle", f.id));
        }
        if !self.in_turn(fighter) {
            return Err(format!("it is not {}'s place in the firing order", f.id));
        }
        Ok(())
    }

    /// The damaged ship of `fighter` split off into a separate group named
    /// `new` (text 5.6: "a damaged ship may be split off into a separate
    /// group and may retreat (5.9) or be screened (5.7)"), while its side
    /// is asked to screen; returns the new fighter's index. The group left
    /// is undamaged.
    pub fn split_damaged(&mut self, fighter: usize, new: Label) -> Result<usize, String> {
        let Step::Screen { side, .. } = self.step else {
            return Err("a damaged ship is split off when screening".into());
        };
        let f = self.fighters.get(fighter).ok_or("no such fighter")?;
        if f.side != side || !f.kind.is_warship() || f.ships < 2 || f.damage == 0 {
            return Err(format!("{} has no damaged ship to split off", f.id));
        }
        if self.fighters.iter().any(|g| g.id == Target::Group(new)) {
            return Err(format!("{new} is in the battle already"));
        }
        let part = Fighter {
            id: Target::Group(new),
            ships: 1,
            ..f.clone()
        };
        let f = &mut self.fighters[fighter];
        f.ships -= 1;
        f.damage = 0;
        self.fighters.push(part);
        Ok(self.fighters.len() - 1)
    }

    /// Screen ships of `side` this round (text 5.7): `(group, ships)`,
    /// at most the number asked in all; an empty list screens none. Only
    /// warship groups can be screened. When part of a group is screened
    /// its damaged ship stays unscreened (the damaged ship is screened only
    /// with its whole group), so that hits on the group still go to one
    /// ship until it is destroyed; to screen the damaged ship alone, split
    /// it off first ([`Battle::split_damaged`]).
    pub fn screen(&mut self, side: Side, ships: &[(Target, u32)]) -> Result<(), String> {
        let Step::Screen { side: asked, max } = self.step else {
            return Err("no screening now".into());
        };
        if asked != side {
            return Err(format!("the {asked} screens, not the {side}"));
        }
        let mut plan = vec![0u32; self.fighters.len()];
        for (id, n) in ships {
            let i = self
                .find(side, id)
                .ok_or_else(|| format!("{id} is not one of the {side}'s units here"))?;
            if !self.fighters[i].kind.is_warship() {
                return Err(format!("only ships can be screened, not the {id}"));
            }
            plan[i] += n;
            if plan[i] > self.fighters[i].ships {
                return Err(format!("{id} has {} ships", self.fighters[i].ships));
            }
        }
        let total: u32 = plan.iter().sum();
        if total > max {
            return Err(format!("at most {max} ships may be screened (not {total})"));
        }
        for (f, n) in self.fighters.iter_mut().zip(plan) {
            f.screened = n;
        }
        self.begin_fire();
        self.settle();
        Ok(())
    }

    /// `ships` ships of `fighter` fire at the enemy `target`, one die each
    /// (`dice.len() == ships`, each 1 to 10). Hits go to one ship until it
    /// is destroyed, then the next. Once the target has no unscreened ship
    /// left, the remaining dice are not used and those ships stay unfired
    /// (to be ordered again). Returns the shots rolled.
    pub fn fire(&mut self, fighter: usize, target: Target, ships: u32, dice: &[u32]) -> Result<Vec<Shot>, String> {
        self.check_turn(fighter)?;
        let f = &self.fighters[fighter];
        let enemy = f.side.other();
        let t = self
            .find(enemy, &target)
            .ok_or_else(|| format!("{target} is not an enemy unit here"))?;
        if self.fighters[t].unscreened() == 0 {
            return Err(format!("{target} is screened this round"));
        }
        let can = self.fireable(fighter);
        if ships == 0 || ships > can {
            return Err(format!("{} has {can} ships that may fire", f.id));
        }
        if dice.len() != ships as usize || dice.iter().any(|d| !(1..=10).contains(d)) {
            return Err(format!("{ships} dice from 1 to 10 are needed, not {dice:?}"));
        }
        let to_hit = self.to_hit(fighter, t);
        let mut shots = Vec::new();
        for &die in dice {
            if self.fighters[t].unscreened() == 0 {
                break;
            }
            let hit = hits(die, to_hit);
            let destroyed = hit && self.fighters[t].take_hit();
            self.fighters[fighter].fired += 1;
            shots.push(Shot {
                fighter,
                target: t,
                die,
                to_hit,
                hit,
                destroyed,
            });
        }
        self.settle();
        Ok(shots)
    }

    /// `ships` ships of `fighter` retreat instead of firing (text 5.9),
    /// from firing round 2; any of its ships that have not fired, screened
    /// or not. They leave the battle: the caller moves them (and checks the
    /// hex). The damaged ship goes first. Returns what left.
    pub fn retreat(&mut self, fighter: usize, ships: u32) -> Result<Left, String> {
        self.check_turn(fighter)?;
        let f = &self.fighters[fighter];
        if !f.kind.is_warship() {
            return Err(format!("a {} never retreats", f.kind));
        }
        if f.kind.carried() {
            return Err("Fighter Squadrons leave a battle only on retreating Carriers (text 11.2.4)".into());
        }
        if self.round < 2 && !f.cloaked {
            return Err("retreat only from firing round 2 (cloaked Raiders also in round 1, text 12.1.3)".into());
        }
        let can = f.ships - f.fired;
        if ships == 0 || ships > can {
            return Err(format!("{} has {can} ships that may retreat", f.id));
        }
        let f = &mut self.fighters[fighter];
        let from_unfired = ships.min(f.unfired());
        // The damaged ship is unscreened unless the whole group is, and
        // counts among those that have not fired.
        let damage = if from_unfired > 0 || f.screened == f.ships {
            std::mem::take(&mut f.damage)
        } else {
            0
        };
        f.ships -= ships;
        f.screened -= ships - from_unfired;
        let left = Left {
            side: f.side,
            id: f.id,
            kind: f.kind,
            ships,
            damage,
            whole: f.ships == 0,
        };
        self.settle();
        Ok(left)
    }

    /// The Fighter Squadrons that `ships` Carriers of `fighter` take with
    /// them when they retreat: 3 a Carrier (text 11.1.1), from the side's
    /// squadron counters in the order they were listed, as (fighter,
    /// squadrons). Empty for any other retreat.
    pub fn carried_by(&self, fighter: usize, ships: u32) -> Vec<(usize, u32)> {
        let f = &self.fighters[fighter];
        if f.kind != Kind::Carrier {
            return Vec::new();
        }
        let mut room = 3 * ships;
        let mut out = Vec::new();
        for (i, g) in self.fighters.iter().enumerate() {
            if room == 0 {
                break;
            }
            if g.side == f.side && g.kind == Kind::Fighters && g.ships > 0 {
                let n = room.min(g.ships);
                out.push((i, n));
                room -= n;
            }
        }
        out
    }

    /// Squadrons of `side` still in the battle, and the Carriers' room for
    /// them (3 a Carrier).
    pub fn squadrons_and_room(&self, side: Side) -> (u32, u32) {
        let sum = |kind: Kind| self.of(side).filter(|f| f.kind == kind).map(|f| f.ships).sum::<u32>();
        (sum(Kind::Fighters), 3 * sum(Kind::Carrier))
    }

    /// `ships` Fighter Squadrons of `fighter` leave on retreating Carriers
    /// (see [`Battle::carried_by`]); the retreat itself follows.
    pub fn carry_off(&mut self, fighter: usize, ships: u32) -> Result<(), String> {
        let f = self.fighters.get_mut(fighter).ok_or("no such fighter")?;
        if !f.kind.carried() || ships > f.ships {
            return Err(format!("{} cannot be carried off", f.id));
        }
        f.ships -= ships;
        f.screened = f.screened.min(f.ships);
        f.fired = f.fired.min(f.unscreened());
        Ok(())
    }

    /// `fighter`'s ships that could only retreat stay: its place in the
    /// order is over this round. Not allowed while some of its ships must
    /// still fire.
    pub fn hold(&mut self, fighter: usize) -> Result<(), String> {
        self.check_turn(fighter)?;
        let can = self.fireable(fighter);
        if can > 0 {
            return Err(format!("{} has {can} ships that must fire", self.fighters[fighter].id));
        }
        self.fighters[fighter].held = true;
        self.settle();
        Ok(())
    }

    /// `ships` ships (or yards) of a side's fighter scuttled by their owner
    /// (text 7.3.2: "at any time during his turn"): they leave the battle
    /// at once, like ships destroyed. Screening being asked is asked again
    /// for the units left (the fleet-size bonus, once fixed, holds for the
    /// round); the battle may end.
    pub fn scuttle(&mut self, side: Side, id: &Target, ships: u32) -> Result<(), String> {
        if self.is_over() {
            return Err("the battle is over".into());
        }
        let i = self
            .find(side, id)
            .ok_or_else(|| format!("{id} is not one of the {side}'s units here"))?;
        let f = &mut self.fighters[i];
        if ships == 0 || ships > f.ships {
            return Err(format!("{id} has {} ships", f.ships));
        }
        f.ships -= ships;
        if f.ships == 0 {
            f.damage = 0;
        }
        f.screened = f.screened.min(f.ships);
        f.fired = f.fired.min(f.unscreened());
        if matches!(self.step, Step::Screen { .. }) {
            self.ask_screening();
        }
        self.settle();
        Ok(())
    }

    /// A Colony Ship or Miner scuttled by its owner leaves the battle (it
    /// is no longer lost with its side).
    pub fn forget_unarmed(&mut self, label: Label) {
        for list in &mut self.unarmed {
            list.retain(|l| *l != label);
        }
    }

    /// Carry out one [`Action`] (`dice` only for `Fire`).
    pub fn act(&mut self, action: &Action, dice: &[u32]) -> Result<Done, String> {
        match action {
            Action::Screen(ships) => {
                let Step::Screen { side, .. } = self.step else {
                    return Err("no screening now".into());
                };
                self.screen(side, ships).map(|()| Done::Screened)
            }
            Action::Fire { fighter, target, ships } => self.fire(*fighter, *target, *ships, dice).map(Done::Shots),
            Action::Retreat { fighter, ships } => self.retreat(*fighter, *ships).map(Done::Retreated),
            Action::Hold { fighter } => self.hold(*fighter).map(|()| Done::Held),
        }
    }

    /// Fix the bonus for the round and start firing.
    fn begin_fire(&mut self) {
        let [a, d] = Side::BOTH.map(|s| self.unscreened(s));
        // No fleet-size bonus against a Doomsday Machine (text 17.2; it is
        // one unit, so it never has one either).
        self.bonus = if self.machine() {
            None
        } else if a > 0 && a >= 2 * d {
            Some(Side::Attacker)
        } else if d > 0 && d >= 2 * a {
            Some(Side::Defender)
        } else {
            None
        };
        self.step = Step::Fire;
    }

    /// A new firing round: clear the round's marks, then screening (if the
    /// larger side has ships to screen) or firing.
    fn start_round(&mut self) {
        self.round += 1;
        // Each side's best Scanners as the round begins: a Destroyer
        // destroyed in the round scans until its end (12.2).
        let scanners = Side::BOTH.map(|side| {
            self.of(side)
                .filter(|f| ((f.kind == Kind::Destroyer && !f.is_alien()) || f.is_machine()) && f.ships > 0)
                .map(|f| f.craft)
                .max()
                .unwrap_or(0)
        });
        let open = self.terrain != Terrain::Nebula;
        for f in &mut self.fighters {
            f.fired = 0;
            f.screened = 0;
            f.held = false;
            f.cloaked = open && f.kind == Kind::Raider && f.craft > scanners[f.side.other().index()];
        }
        self.bonus = None;
        self.ask_screening();
    }

    /// Screening (if the larger side has ships to screen) or firing.
    fn ask_screening(&mut self) {
        // No screening against a Doomsday Machine (text 5.7).
        if self.machine() {
            self.begin_fire();
            return;
        }
        let [a, d] = Side::BOTH.map(|s| self.count(s));
        let larger = if a > d { Side::Attacker } else { Side::Defender };
        let max = a.abs_diff(d).min(self.screenable(larger));
        if max > 0 {
            self.step = Step::Screen { side: larger, max };
        } else {
            self.begin_fire();
        }
    }

    /// Move on as far as nothing is asked: end the battle when a side has
    /// no combat-capable units, start the next firing round when nobody is
    /// left to act.
    fn settle(&mut self) {
        loop {
            if self.is_over() {
                return;
            }
            let [a, d] = Side::BOTH.map(|s| self.count(s));
            if a == 0 || d == 0 {
                let winner = match (a > 0, d > 0) {
                    (true, false) => Some(Side::Attacker),
                    (false, true) => Some(Side::Defender),
                    _ => None,
                };
                let destroyed = winner.map_or_else(Vec::new, |w| self.unarmed[w.other().index()].clone());
                self.bonus = None;
                self.step = Step::Over(Outcome { winner, destroyed });
                return;
            }
            match self.step {
                Step::Screen { .. } => return,
                Step::Fire if self.round > 0 && self.next().is_some() => return,
                _ => self.start_round(),
            }
        }
    }
}

mod fighter;
mod standing;
pub use fighter::*;
pub use standing::*;

#[cfg(test)]
mod tests {
    use super::super::super::basics::Worth;
    use super::*;
    use Kind::*;

    const A: Side = Side::Attacker;
    const D: Side = Side::Defender;

    fn label(side: Side, number: u8) -> Label {
        Label {
            owner: Seat(side.index() as u8),
            number,
        }
    }

    fn id(side: Side, number: u8) -> Target {
        Target::Group(label(side, number))
    }

    /// A group of `ships` of `kind` labelled `number`, all technology 0.
    fn group(side: Side, number: u8, kind: Kind, ships: u32) -> Fighter {
        Fighter::new(side, id(side, number), kind, ships, 0, 0, 0)
    }

    fn base(side: Side) -> Fighter {
        Fighter::new(side, Target::Base, Base, 1, 0, 0, 0)
    }

    #[test]
    fn carriers_are_covered_by_squadrons_unless_one_is_screened() {
        // Text 11.1.1: not targeted until every friendly squadron is gone.
        let b = battle(vec![
            group(A, 1, Scout, 1),
            group(D, 2, Carrier, 1),
            group(D, 3, Fighters, 2).with_craft(1),
        ]);
        assert_eq!(b.targets(0), vec![2]);
        assert!(b.why_not_target(0, 1).is_some());
        // The defender (3 against 1) screens a squadron: the Carrier may be
        // fired upon this round.
        let mut b = b;
        assert!(matches!(b.ask(), Some(Ask::Screen { side: D, .. })));
        b.screen(D, &[(id(D, 3), 1)]).unwrap();
        assert_eq!(b.targets(0), vec![1, 2]);
    }

    #[test]
    fn point_defense_scouts_fire_first_and_at_squadrons() {
        // Text 11.3.2's example: PD 1 and Attack 1: A7 at squadrons, E4 else.
        let pd = Fighter::new(A, id(A, 1), Scout, 1, 1, 0, 0).with_craft(1);
        let b = battle(vec![
            pd.clone(),
            group(D, 2, Carrier, 1),
            group(D, 3, Fighters, 1).with_craft(1),
        ]);
        assert_eq!(b.class(0), Class::A);
        assert_eq!(b.order()[0], 0, "the PD Scout fires before the squadron (class B)");
        assert_eq!(b.targets(0), vec![2]);
        assert_eq!(b.to_hit(0, 2), 7);
        assert_eq!(b.to_hit(0, 1), 4);
        // In Asteroids it fires as class E (its attack at squadrons stays).
        let b = battle_in(
            Terrain::Asteroids,
            vec![pd, group(D, 2, Carrier, 1), group(D, 3, Fighters, 1).with_craft(1)],
        );
        assert_eq!(b.class(0), Class::E);
        assert_eq!(b.to_hit(0, 2), 6);
    }

    #[test]
    fn squadron_strength_grows_with_fighter_technology() {
        let target = group(D, 9, Scout, 1);
        for (level, attack, defense) in [(1, 5, 0), (2, 6, 0), (3, 7, 1)] {
            let f = group(A, 1, Fighters, 1).with_craft(level);
            assert_eq!(f.base_attack(target.kind), attack);
            assert_eq!(f.base_defense(), defense);
        }
    }

    #[test]
    fn retreating_carriers_take_three_squadrons_each_and_never_orphan() {
        let b = battle(vec![
            group(A, 1, Carrier, 2),
            group(A, 2, Fighters, 2),
            group(A, 3, Fighters, 3),
            group(D, 4, Dreadnaught, 1),
        ]);
        assert_eq!(b.carried_by(0, 1), vec![(1, 2), (2, 1)]);
        assert_eq!(b.carried_by(0, 2), vec![(1, 2), (2, 3)]);
        assert!(b.carried_by(3, 1).is_empty());
        assert!(!b.would_orphan(0));
        // Seven squadrons, room for six: no colony, no retreat.
        let b = battle(vec![
            group(A, 1, Carrier, 2),
            group(A, 2, Fighters, 6),
            group(A, 3, Fighters, 1),
            group(D, 4, Dreadnaught, 1),
        ]);
        assert!(b.would_orphan(0));
        assert!(!b.clone().with_colonies([true, false]).would_orphan(0));
        let mut b = b;
        assert!(b.carry_off(0, 1).is_err(), "a Carrier is not carried");
        b.carry_off(1, 4).unwrap();
        assert_eq!(b.fighter(1).ships, 2);
    }

    fn yards(side: Side, n: u32) -> Fighter {
        Fighter::new(side, Target::Yards, ShipYard, n, 0, 0, 0)
    }

    /// Set attack, defense and tactics levels.
    fn tech(f: Fighter, attack: u32, defense: u32, tactics: u32) -> Fighter {
        Fighter {
            attack_tech: attack,
            defense_tech: defense,
            tactics,
            ..f
        }
    }

    fn battle_in(terrain: Terrain, fighters: Vec<Fighter>) -> Battle {
        Battle::new(Hex::new(2, 3), terrain, fighters, [vec![], vec![]]).unwrap()
    }

    fn battle(fighters: Vec<Fighter>) -> Battle {
        battle_in(Terrain::Open, fighters)
    }

    /// The fighter asked to fire next.
    fn asked(b: &Battle) -> usize {
        match b.ask() {
            Some(Ask::Fire { fighter, .. }) => fighter,
            other => panic!("expected a fire ask, got {other:?}"),
        }
    }

    /// The fighter asked fires all its ships at `target`, every die `die`.
    fn volley(b: &mut Battle, target: Target, die: u32) -> Vec<Shot> {
        let i = asked(b);
        let n = b.fireable(i);
        b.fire(i, target, n, &vec![die; n as usize]).unwrap()
    }

    #[test]
    fn to_hit_battlecruiser_example_and_bonus() {
        // 5.5: BC with Attack 1 at a CA with Defense 1: 6 − (1 + 1) = 4.
        let b = battle(vec![
            tech(group(A, 1, Battlecruiser, 1), 1, 0, 0),
            tech(group(D, 2, Cruiser, 1), 0, 1, 0),
        ]);
        assert_eq!(b.bonus(), None);
        assert_eq!(b.to_hit(0, 1), 4);
        // Two BC against one CA: with the fleet-size bonus, 5; the CA fires
        // at 4 − 1 = 3, no penalty.
        let mut b = battle(vec![
            tech(group(A, 1, Battlecruiser, 2), 1, 0, 0),
            tech(group(D, 2, Cruiser, 1), 0, 1, 0),
        ]);
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 1 }));
        b.screen(A, &[]).unwrap();
        assert_eq!(b.bonus(), Some(A));
        assert_eq!(b.to_hit(0, 1), 5);
        assert_eq!(b.to_hit(1, 0), 3);
    }

    #[test]
    fn hull_caps_technology() {
        // 9.2: Attack 3 gives a Scout and a Ship Yard +1, a Battleship +3;
        // Defense 3 gives a Cruiser +2.
        let b = battle(vec![
            tech(group(A, 1, Scout, 1), 3, 0, 0),
            tech(yards(A, 1), 3, 0, 0),
            tech(group(A, 2, Battleship, 1), 3, 0, 0),
            group(D, 3, Destroyer, 3),
            tech(group(D, 4, Cruiser, 1), 0, 3, 0),
        ]);
        assert_eq!(b.ask(), Some(Ask::Screen { side: D, max_ships: 1 }));
        let mut b = b;
        b.screen(D, &[]).unwrap();
        assert_eq!(b.bonus(), None);
        assert_eq!(b.to_hit(0, 3), 4);
        assert_eq!(b.to_hit(1, 3), 4);
        assert_eq!(b.to_hit(2, 3), 8);
        assert_eq!(b.to_hit(0, 4), 4 - (1 + 2));
    }

    #[test]
    fn a_roll_of_one_always_hits() {
        // A Scout at a Dreadnaught with Defense 3: to-hit 3 − 6 = −3.
        let mut b = battle(vec![group(A, 1, Scout, 1), tech(group(D, 2, Dreadnaught, 1), 0, 3, 0)]);
        assert_eq!(b.to_hit(0, 1), -3);
        // The DN (class A) fires first and misses with a 10 (to-hit 6).
        assert_eq!(asked(&b), 1);
        assert!(!volley(&mut b, id(A, 1), 10)[0].hit);
        let shot = volley(&mut b, id(D, 2), 1)[0];
        assert!(shot.hit && !shot.destroyed);
        assert_eq!(b.fighter(1).damage, 1);
        // Round 2: a 2 misses.
        assert_eq!(b.round(), 2);
        volley(&mut b, id(A, 1), 10);
        assert!(!volley(&mut b, id(D, 2), 2)[0].hit);
        // Round 3: the DN's 1 destroys the Scout; the battle is over.
        let shot = volley(&mut b, id(A, 1), 1)[0];
        assert!(shot.destroyed);
        assert_eq!(b.ask(), None);
        assert_eq!(b.outcome().unwrap().winner, Some(D));
    }

    #[test]
    fn screening_ten_against_five() {
        let fresh = battle(vec![
            group(A, 1, Destroyer, 6),
            group(A, 2, Destroyer, 4),
            group(D, 3, Scout, 5),
        ]);
        assert_eq!(fresh.ask(), Some(Ask::Screen { side: A, max_ships: 5 }));
        // Screening 0 keeps the bonus (10 ≥ 2 × 5).
        let mut b = fresh.clone();
        b.screen(A, &[]).unwrap();
        assert_eq!(b.bonus(), Some(A));
        // Not more than 5; not the defender; not a Base it has not.
        let mut b = fresh.clone();
        assert!(b.screen(A, &[(id(A, 2), 4), (id(A, 1), 2)]).is_err());
        assert!(b.screen(D, &[]).is_err());
        assert!(b.screen(A, &[(Target::Base, 1)]).is_err());
        // Screening 5: 5 against 5, no bonus.
        b.screen(A, &[(id(A, 2), 4), (id(A, 1), 1)]).unwrap();
        assert_eq!(b.bonus(), None);
        assert_eq!(b.unscreened(A), 5);
        // Screened ships neither fire nor can be fired upon.
        assert_eq!(b.run(A), vec![0]);
        assert_eq!(b.fireable(0), 5);
        assert_eq!(b.fireable(1), 0);
        volley(&mut b, id(D, 3), 10);
        assert_eq!(asked(&b), 2);
        assert_eq!(b.targets(2), vec![0]);
        assert!(b.fire(2, id(A, 2), 1, &[1]).is_err());
        volley(&mut b, id(A, 1), 10);
        // Round 2: screening may change.
        assert_eq!(b.round(), 2);
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 5 }));
        assert_eq!(b.fighter(1).screened, 0);
    }

    #[test]
    fn fleet_size_bonus_six_destroyers_against_three_scouts() {
        let mut b = battle(vec![group(A, 1, Destroyer, 6), group(D, 2, Scout, 3)]);
        b.screen(A, &[]).unwrap();
        assert_eq!(b.bonus(), Some(A));
        assert_eq!(b.to_hit(0, 1), 5);
        assert_eq!(b.to_hit(1, 0), 3);
        // Destroyers (D) before Scouts (E).
        volley(&mut b, id(D, 2), 10);
        let i = asked(&b);
        assert_eq!(i, 1);
        let shots = b.fire(i, id(A, 1), 3, &[1, 3, 4]).unwrap();
        assert_eq!(shots.iter().map(|s| s.hit).collect::<Vec<_>>(), vec![true, true, false]);
        assert_eq!(b.fighter(0).ships, 4);
        // Round 2: 4 < 2 × 3, no bonus.
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 1 }));
        b.screen(A, &[]).unwrap();
        assert_eq!(b.bonus(), None);
        assert_eq!(b.to_hit(0, 1), 4);
    }

    #[test]
    fn firing_order_by_class_then_runs() {
        let mut b = battle(vec![
            group(A, 1, Battleship, 1),
            group(A, 3, Cruiser, 1),
            group(A, 5, Scout, 1),
            group(D, 2, Battlecruiser, 1),
            group(D, 4, Destroyer, 1),
        ]);
        b.screen(A, &[]).unwrap();
        // BB (A), BC (B), CA (C), DD (D), SC (E).
        assert_eq!(b.order(), vec![0, 3, 1, 4, 2]);
        assert_eq!(b.run(A), vec![0]);
        assert_eq!(b.run(D), Vec::<usize>::new());
        assert!(b.fire(1, id(D, 2), 1, &[10]).is_err());
        volley(&mut b, id(D, 2), 10);
        assert_eq!(b.run(D), vec![3]);

        // An enemy with nothing to do in between joins two stretches: a
        // screened Cruiser does nothing in round 1.
        let mut b = battle(vec![
            group(A, 1, Battleship, 1),
            group(A, 3, Destroyer, 1),
            group(D, 2, Cruiser, 1),
            group(D, 4, Scout, 3),
        ]);
        b.screen(D, &[(id(D, 2), 1)]).unwrap();
        assert_eq!(b.order(), vec![0, 2, 1, 3]);
        assert_eq!(b.run(A), vec![0, 1]);
        // Either fighter of the run may act first.
        volley_of(&mut b, 1, id(D, 4), 10);
        volley_of(&mut b, 0, id(D, 4), 10);
        assert_eq!(b.run(D), vec![3]);
    }

    fn volley_of(b: &mut Battle, fighter: usize, target: Target, die: u32) {
        let n = b.fireable(fighter);
        b.fire(fighter, target, n, &vec![die; n as usize]).unwrap();
    }

    #[test]
    fn same_class_tactics_then_defender_first() {
        let b = battle(vec![tech(group(A, 1, Cruiser, 1), 0, 0, 1), group(D, 2, Cruiser, 1)]);
        assert_eq!(b.order(), vec![0, 1]);
        let b = battle(vec![group(A, 1, Cruiser, 1), group(D, 2, Cruiser, 1)]);
        assert_eq!(b.order(), vec![1, 0]);
        assert_eq!(asked(&b), 1);
    }

    #[test]
    fn asteroids_and_nebulae_make_everyone_class_e() {
        // Asteroids: a DN with Tactics 0 fires after a Scout with Tactics 1,
        // and its Attack technology counts 0.
        let b = battle_in(
            Terrain::Asteroids,
            vec![
                tech(group(A, 1, Dreadnaught, 1), 3, 0, 0),
                tech(group(D, 2, Scout, 1), 0, 0, 1),
            ],
        );
        assert_eq!(b.order(), vec![1, 0]);
        assert_eq!(b.to_hit(0, 1), 6);
        // Nebula: Defense technology counts 0; equal Tactics, defender first.
        let b = battle_in(
            Terrain::Nebula,
            vec![
                tech(group(A, 1, Scout, 1), 1, 0, 0),
                tech(group(D, 2, Dreadnaught, 1), 0, 3, 0),
            ],
        );
        assert_eq!(b.order(), vec![1, 0]);
        assert_eq!(b.to_hit(0, 1), 3 + 1 - 3);
    }

    #[test]
    fn cruiser_group_of_two_takes_two_hits() {
        let mut b = battle(vec![group(A, 1, Battleship, 2), group(D, 2, Cruiser, 2)]);
        let shot = b.fire(0, id(D, 2), 1, &[1]).unwrap()[0];
        assert!(shot.hit && !shot.destroyed);
        assert_eq!((b.fighter(1).ships, b.fighter(1).damage), (2, 1));
        let shot = b.fire(0, id(D, 2), 1, &[1]).unwrap()[0];
        assert!(shot.destroyed);
        assert_eq!((b.fighter(1).ships, b.fighter(1).damage), (1, 0));
        // The Cruiser destroyed had not fired: it does not fire.
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: D,
                fighter: 1,
                ships: 1,
                may_retreat: false
            })
        );
    }

    #[test]
    fn destroyed_before_firing_does_not_fire() {
        let mut b = battle(vec![group(A, 1, Destroyer, 2), group(D, 2, Scout, 2)]);
        let shots = b.fire(0, id(D, 2), 2, &[1, 10]).unwrap();
        assert_eq!(shots.len(), 2);
        assert_eq!(asked(&b), 1);
        assert_eq!(b.fireable(1), 1);
        assert!(b.fire(1, id(A, 1), 2, &[1, 1]).is_err());
    }

    #[test]
    fn shots_stop_when_the_target_is_gone() {
        let mut b = battle(vec![
            group(A, 1, Destroyer, 3),
            group(D, 2, Scout, 1),
            group(D, 3, Scout, 2),
        ]);
        let shots = b.fire(0, id(D, 2), 3, &[1, 1, 1]).unwrap();
        assert_eq!(shots.len(), 1);
        assert_eq!(b.fighter(1).ships, 0);
        // Two Destroyers are left to be ordered again.
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: A,
                fighter: 0,
                ships: 2,
                may_retreat: false
            })
        );
        assert!(b.fire(0, id(D, 2), 1, &[1]).is_err());
        volley(&mut b, id(D, 3), 10);
        assert_eq!(asked(&b), 2);
    }

    #[test]
    fn battleship_survives_two_hits_and_is_repaired() {
        let mut b = battle(vec![group(A, 1, Battleship, 1), group(D, 2, Scout, 1)]);
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 1);
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 1);
        assert_eq!((b.fighter(0).ships, b.fighter(0).damage), (1, 2));
        volley(&mut b, id(D, 2), 1);
        assert_eq!(b.outcome().unwrap().winner, Some(A));
        assert_eq!(
            b.survivors(),
            vec![Survivor {
                side: A,
                id: id(A, 1),
                kind: Battleship,
                ships: 1
            }]
        );
    }

    /// Advanced rule 12: a Raider whose Cloaking beats the other side's
    /// best Scanners (a Destroyer's `craft`) is cloaked for the firing
    /// round: class A, +1 attack in round 1 only, may retreat in round 1. A
    /// Scanner Destroyer destroyed in a round keeps it uncloaked until the
    /// round ends (12.2); in a Nebula nobody is cloaked (12.1.6).
    #[test]
    fn cloaked_raiders_class_a_first_round_surprise() {
        let raider = |side, n, cloak| group(side, n, Raider, 1).with_craft(cloak);
        let scanner = |side, n, scan| group(side, n, Destroyer, 1).with_craft(scan);
        // Cloaking 1 against no Scanners: cloaked, A, 4 + 1 − 0 = 5.
        let b = battle(vec![raider(A, 1, 1), scanner(D, 2, 0)]);
        assert!(b.fighter(0).cloaked);
        assert_eq!(b.class(0), Class::A);
        assert_eq!(b.to_hit(0, 1), 5);
        assert!(b.may_retreat(0), "a cloaked Raider may retreat in round 1");
        // Cloaking 1 against Scanner 1: a normal class D ship, 4.
        let b = battle(vec![raider(A, 1, 1), scanner(D, 2, 1)]);
        assert!(!b.fighter(0).cloaked);
        assert_eq!(b.class(0), Class::D);
        assert_eq!(b.to_hit(0, 1), 4);
        // Cloaking 2 against Scanner 1: cloaked (12.1.5).
        let b = battle(vec![raider(A, 1, 2), scanner(D, 2, 1)]);
        assert!(b.fighter(0).cloaked);
        // Round 2: no more surprise, still class A.
        let mut b = battle(vec![raider(A, 1, 2), scanner(D, 2, 0)]);
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 10);
        assert_eq!(b.round(), 2);
        assert_eq!(b.class(0), Class::A);
        assert_eq!(b.to_hit(0, 1), 4);
        // A Nebula: nobody cloaked.
        let b = battle_in(Terrain::Nebula, vec![raider(A, 1, 2), scanner(D, 2, 0)]);
        assert!(!b.fighter(0).cloaked);
    }

    #[test]
    fn retreat_only_from_round_two_and_never_bases() {
        let mut b = battle(vec![group(A, 1, Cruiser, 2), group(D, 2, Cruiser, 1), base(D)]);
        // Round 1: the Base (A), the defender's CA, the attacker's CA.
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: D,
                fighter: 2,
                ships: 1,
                may_retreat: false
            })
        );
        assert!(b.retreat(2, 1).is_err());
        volley(&mut b, id(A, 1), 10);
        volley(&mut b, id(A, 1), 10);
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: A,
                fighter: 0,
                ships: 2,
                may_retreat: false
            })
        );
        assert_eq!(
            b.retreat(0, 1),
            Err("retreat only from firing round 2 (cloaked Raiders also in round 1, text 12.1.3)".into())
        );
        volley(&mut b, Target::Base, 10);
        // Round 2.
        assert_eq!(b.round(), 2);
        assert!(!b.may_retreat(2));
        assert!(b.retreat(2, 1).is_err());
        volley(&mut b, id(A, 1), 10);
        assert!(b.may_retreat(1));
        assert!(b.hold(1).is_err(), "unscreened ships must fire or retreat");
        let left = b.retreat(1, 1).unwrap();
        assert_eq!(left.ships, 1);
        assert!(left.whole);
        assert!(b.may_retreat(0));
        let left = b.retreat(0, 1).unwrap();
        assert!(!left.whole);
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: A,
                fighter: 0,
                ships: 1,
                may_retreat: true
            })
        );
        volley(&mut b, Target::Base, 10);
        assert_eq!(b.round(), 3);
    }

    #[test]
    fn part_of_a_group_retreats_damaged_ship_first() {
        let mut b = battle(vec![group(A, 1, Cruiser, 3), group(D, 2, Cruiser, 3)]);
        b.fire(1, id(A, 1), 3, &[1, 10, 10]).unwrap();
        assert_eq!(b.fighter(0).damage, 1);
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 10);
        let left = b.retreat(0, 1).unwrap();
        assert_eq!(
            left,
            Left {
                side: A,
                id: id(A, 1),
                kind: Cruiser,
                ships: 1,
                damage: 1,
                whole: false
            }
        );
        assert_eq!((b.fighter(0).ships, b.fighter(0).damage), (2, 0));
        assert_eq!(b.fireable(0), 2);
    }

    #[test]
    fn screened_group_has_its_place_to_retreat_from_round_two() {
        let mut b = battle(vec![
            group(A, 1, Cruiser, 1),
            group(D, 2, Destroyer, 1),
            group(D, 3, Scout, 2),
        ]);
        b.screen(D, &[(id(D, 3), 1)]).unwrap();
        // Round 1: the screened part waits; the rest fires (CA, DD, one SC).
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 10);
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: D,
                fighter: 2,
                ships: 1,
                may_retreat: false
            })
        );
        volley(&mut b, id(A, 1), 10);
        assert_eq!(b.round(), 2);
        b.screen(D, &[(id(D, 3), 2)]).unwrap();
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 10);
        // Round 2: the Scouts, all screened, may only retreat or stay.
        assert_eq!(
            b.ask(),
            Some(Ask::Fire {
                side: D,
                fighter: 2,
                ships: 0,
                may_retreat: true
            })
        );
        assert!(b.fire(2, id(A, 1), 1, &[1]).is_err());
        let mut stay = b.clone();
        stay.hold(2).unwrap();
        assert_eq!(stay.round(), 3);
        let left = b.retreat(2, 2).unwrap();
        assert!(left.whole);
        assert_eq!(b.fighter(2).screened, 0);
        assert_eq!(b.round(), 3);
    }

    #[test]
    fn unarmed_units_die_with_their_side() {
        let mut b = Battle::new(
            Hex::new(0, 0),
            Terrain::Open,
            vec![group(A, 1, Destroyer, 1), group(D, 2, Scout, 1)],
            [vec![label(A, 7)], vec![label(D, 8), label(D, 9)]],
        )
        .unwrap();
        volley(&mut b, id(D, 2), 1);
        assert_eq!(
            b.outcome(),
            Some(&Outcome {
                winner: Some(A),
                destroyed: vec![label(D, 8), label(D, 9)]
            })
        );
        assert!(b.fire(0, id(D, 2), 1, &[1]).is_err());

        // A side with only unarmed units loses at once.
        let b = Battle::new(
            Hex::new(0, 0),
            Terrain::Open,
            vec![group(A, 1, Scout, 1)],
            [vec![], vec![label(D, 8)]],
        )
        .unwrap();
        assert_eq!(b.ask(), None);
        assert_eq!(b.outcome().unwrap().destroyed, vec![label(D, 8)]);
        // Neither side armed: nobody wins, nothing is destroyed.
        let b = Battle::new(
            Hex::new(0, 0),
            Terrain::Open,
            vec![],
            [vec![label(A, 1)], vec![label(D, 8)]],
        )
        .unwrap();
        assert_eq!(
            b.outcome(),
            Some(&Outcome {
                winner: None,
                destroyed: vec![]
            })
        );
    }

    #[test]
    fn a_side_that_retreats_everything_loses_its_unarmed() {
        let mut b = Battle::new(
            Hex::new(0, 0),
            Terrain::Open,
            vec![group(A, 1, Cruiser, 1), group(D, 2, Cruiser, 1)],
            [vec![label(A, 5)], vec![]],
        )
        .unwrap();
        volley(&mut b, id(A, 1), 10);
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 10);
        b.retreat(0, 1).unwrap();
        assert_eq!(
            b.outcome(),
            Some(&Outcome {
                winner: Some(D),
                destroyed: vec![label(A, 5)]
            })
        );
    }

    #[test]
    fn a_damaged_ship_split_off_is_screened() {
        // Round 1: one Cruiser of A1 is hit once (hull 2: damaged).
        let mut b = battle(vec![
            group(A, 1, Cruiser, 3),
            group(D, 2, Scout, 1),
            group(D, 3, Scout, 1),
        ]);
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 1 }));
        assert!(b.split_damaged(0, label(A, 9)).is_err());
        b.screen(A, &[]).unwrap();
        volley(&mut b, id(D, 2), 10);
        volley(&mut b, id(A, 1), 1);
        volley(&mut b, id(A, 1), 10);
        assert_eq!((b.fighter(0).ships, b.fighter(0).damage), (3, 1));
        // Round 2: 3 against 2, one ship may be screened: the damaged one,
        // split off as A9; A1 is left with 2 undamaged Cruisers.
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 1 }));
        assert!(b.split_damaged(1, label(D, 9)).is_err());
        let i = b.split_damaged(0, label(A, 9)).unwrap();
        assert!(b.split_damaged(i, label(A, 8)).is_err());
        assert_eq!((b.fighter(0).ships, b.fighter(0).damage), (2, 0));
        assert_eq!(
            (b.fighter(i).ships, b.fighter(i).damage, b.fighter(i).kind),
            (1, 1, Cruiser)
        );
        assert_eq!(b.count(A), 3);
        b.screen(A, &[(id(A, 9), 1)]).unwrap();
        assert_eq!(b.fighter(i).unscreened(), 0);
        assert!(!b.targets(1).contains(&i));
        // Hits on A1 now go to a fresh Cruiser (A9, screened, may only
        // retreat at its place: it stays).
        assert_eq!(asked(&b), 0);
        volley(&mut b, id(D, 2), 10);
        b.hold(i).unwrap();
        b.fire(1, id(A, 1), 1, &[1]).unwrap();
        assert_eq!((b.fighter(0).ships, b.fighter(0).damage), (2, 1));
        assert_eq!(b.fighter(i).damage, 1);
    }

    #[test]
    fn scuttled_units_leave_the_battle() {
        // 3 against 2: the attacker may screen 1; scuttling a group leaves
        // 2 against 2, so no screening: firing begins.
        let mut b = Battle::new(
            Hex::new(0, 0),
            Terrain::Open,
            vec![
                group(A, 1, Cruiser, 2),
                group(A, 2, Cruiser, 1),
                group(D, 3, Destroyer, 2),
            ],
            [vec![label(A, 5)], vec![]],
        )
        .unwrap();
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 1 }));
        b.scuttle(A, &id(A, 2), 1).unwrap();
        assert_eq!(b.fighter(1).ships, 0);
        assert_eq!(asked(&b), 0);
        assert!(b.scuttle(A, &id(A, 2), 1).is_err());
        // A scuttled Colony Ship is not lost with its side; scuttling the
        // last group ends the battle.
        b.forget_unarmed(label(A, 5));
        b.scuttle(A, &id(A, 1), 2).unwrap();
        assert_eq!(
            b.outcome(),
            Some(&Outcome {
                winner: Some(D),
                destroyed: vec![]
            })
        );
    }

    #[test]
    fn new_checks_its_fighters() {
        let hex = Hex::new(0, 0);
        let none = || [vec![], vec![]];
        assert!(Battle::new(hex, Terrain::Open, vec![group(A, 1, Scout, 7)], none()).is_err());
        assert!(Battle::new(hex, Terrain::Open, vec![group(A, 1, Scout, 0)], none()).is_err());
        assert!(Battle::new(hex, Terrain::Open, vec![group(A, 1, ColonyShip, 1)], none()).is_err());
        assert!(Battle::new(
            hex,
            Terrain::Open,
            vec![group(A, 1, Scout, 1), group(A, 1, Scout, 2)],
            none()
        )
        .is_err());
        let two_bases = Fighter { ships: 2, ..base(A) };
        assert!(Battle::new(hex, Terrain::Open, vec![two_bases], none()).is_err());
        assert!(Battle::new(hex, Terrain::Open, vec![yards(A, 4), base(D)], none()).is_ok());
    }

    #[test]
    fn standing_target_focus_big_small() {
        let mut b = battle(vec![
            group(A, 1, Battleship, 1),
            group(D, 2, Scout, 1),
            group(D, 3, Cruiser, 2),
            group(D, 4, Dreadnaught, 1),
            group(D, 5, Destroyer, 1),
            tech(group(D, 6, Cruiser, 1), 0, 1, 0),
            group(D, 7, Battleship, 1),
        ]);
        b.screen(D, &[]).unwrap();
        let pick = |b: &Battle, rule| b.fighter(choose_target(b, 0, rule).unwrap()).id;
        // Nothing damaged: the highest to-hit (Scout and Destroyer at 5,
        // no bonus for the BB's side), then hull (equal), then label.
        assert_eq!(b.bonus(), Some(D));
        assert_eq!(pick(&b, TargetRule::Focus), id(D, 2));
        // One that has not fired yet before one that has.
        b.fighters[1].fired = 1;
        assert_eq!(pick(&b, TargetRule::Focus), id(D, 5));
        // A damaged group first: the fewest more hits (CA 1 more, DN 2 more).
        b.fighters[3].damage = 1;
        assert_eq!(pick(&b, TargetRule::Focus), id(D, 4));
        b.fighters[2].damage = 1;
        assert_eq!(pick(&b, TargetRule::Focus), id(D, 3));
        // Big: the largest hull (DN and BB, 3), then as focus (the damaged DN).
        assert_eq!(pick(&b, TargetRule::Big), id(D, 4));
        b.fighters[3].damage = 0;
        // …then the higher to-hit: BB (defense 2) before DN (3).
        assert_eq!(pick(&b, TargetRule::Big), id(D, 7));
        // Small: the smallest hull (SC, DD), then as focus (DD not fired).
        assert_eq!(pick(&b, TargetRule::Small), id(D, 5));
        // Larger hull breaks a tie of to-hit: CA with Defense 1 (5 − 2 = 3)
        // and BB (5 − 2 = 3): the BB.
        let b = battle(vec![
            group(A, 1, Battleship, 1),
            tech(group(D, 6, Cruiser, 1), 0, 1, 0),
            group(D, 7, Battleship, 1),
        ]);
        let b = {
            let mut b = b;
            b.screen(D, &[]).unwrap();
            b
        };
        assert_eq!(b.to_hit(0, 1), b.to_hit(0, 2));
        assert_eq!(pick(&b, TargetRule::Focus), id(D, 7));
        assert_eq!(pick(&b, TargetRule::Small), id(D, 6));
    }

    #[test]
    fn standing_retreat_outgunned_and_half() {
        let mut b = battle(vec![group(A, 1, Cruiser, 2), group(D, 2, Cruiser, 6)]);
        b.screen(D, &[]).unwrap();
        volley(&mut b, id(A, 1), 10);
        // Round 1: no retreat by any rule.
        assert!(!choose_retreat(&b, 0, RetreatRule::Outgunned));
        volley(&mut b, id(D, 2), 10);
        b.screen(D, &[]).unwrap();
        assert_eq!(b.bonus(), Some(D));
        // Round 2: two hits destroy one Cruiser.
        b.fire(1, id(A, 1), 6, &[1, 1, 10, 10, 10, 10]).unwrap();
        assert_eq!(asked(&b), 0);
        assert!(choose_retreat(&b, 0, RetreatRule::Outgunned));
        assert!(!choose_retreat(&b, 0, RetreatRule::Never));
        // Half: 1 left of 2 brought.
        assert!(choose_retreat(&b, 0, RetreatRule::Half));
        let ask = b.ask().unwrap();
        let outgunned = Standing {
            retreat: RetreatRule::Outgunned,
            ..Standing::default()
        };
        assert_eq!(
            outgunned.answer(&b, &ask, true),
            Action::Retreat { fighter: 0, ships: 1 }
        );
        // No legal hex: it fires.
        assert_eq!(
            outgunned.answer(&b, &ask, false),
            Action::Fire {
                fighter: 0,
                target: id(D, 2),
                ships: 1
            }
        );
        // Half with 2 of 3 brought left: stays.
        let mut b = battle(vec![group(A, 1, Destroyer, 3), group(D, 2, Destroyer, 3)]);
        volley(&mut b, id(A, 1), 10);
        volley(&mut b, id(D, 2), 10);
        b.fire(1, id(A, 1), 3, &[1, 10, 10]).unwrap();
        assert!(!choose_retreat(&b, 0, RetreatRule::Half));
        assert!(!choose_retreat(&b, 0, RetreatRule::Outgunned));
    }

    #[test]
    fn standing_screen_weak_keeps_the_bonus() {
        let fighters = |enemy: u32| {
            vec![
                group(A, 4, Cruiser, 1),
                group(A, 1, Scout, 2),
                tech(group(A, 2, Destroyer, 2), 1, 0, 0),
                group(A, 3, Cruiser, 2),
                group(D, 9, Scout, enemy),
            ]
        };
        // 7 against 2: up to 5 may be screened, but 3 keep the bonus (4 ≥ 4).
        let mut b = battle(fighters(2));
        assert_eq!(b.ask(), Some(Ask::Screen { side: A, max_ships: 5 }));
        // Lowest attack first: Scouts (3), then the Cruisers (4; the
        // Destroyers use Attack 1: 5), the damaged group first.
        b.fighters[0].damage = 1;
        let weak = choose_screen(&b, A, ScreenRule::Weak);
        assert_eq!(weak, vec![(id(A, 1), 2), (id(A, 4), 1)]);
        assert_eq!(choose_screen(&b, A, ScreenRule::None), vec![]);
        assert_eq!(choose_screen(&b, D, ScreenRule::Weak), vec![]);
        b.screen(A, &weak).unwrap();
        assert_eq!(b.bonus(), Some(A));
        // 7 against 4: no bonus to keep, all 3 allowed.
        let b = battle(fighters(4));
        assert_eq!(
            choose_screen(&b, A, ScreenRule::Weak),
            vec![(id(A, 1), 2), (id(A, 3), 1)]
        );
        let weak = Standing {
            screen: ScreenRule::Weak,
            ..Standing::default()
        };
        assert_eq!(
            weak.answer(&b, &b.ask().unwrap(), false),
            Action::Screen(vec![(id(A, 1), 2), (id(A, 3), 1)])
        );
    }

    #[test]
    fn standing_defaults_and_words() {
        let s = Standing::default();
        assert!(!s.auto);
        assert_eq!(
            (s.target, s.retreat, s.screen, s.colonies),
            (
                TargetRule::Focus,
                RetreatRule::Never,
                ScreenRule::None,
                ColonyRule::Fire
            )
        );
        for r in TargetRule::ALL {
            assert_eq!(TargetRule::parse(r.key()), Some(*r));
        }
        assert_eq!(RetreatRule::parse("Outgunned"), Some(RetreatRule::Outgunned));
        assert_eq!(ScreenRule::parse("weak"), Some(ScreenRule::Weak));
        assert_eq!(ColonyRule::parse("hold"), Some(ColonyRule::Hold));
        assert_eq!(TargetRule::parse("biggest"), None);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Standing>(&json).unwrap(), s);
        assert_eq!(Target::parse("base", Seat(0)), Some(Target::Base));
        assert_eq!(Target::parse("yard", Seat(0)), Some(Target::Yards));
        assert_eq!(Target::parse("17", Seat(1)), Some(id(D, 17)));
        assert_eq!(id(D, 17).to_string(), "B17");
    }

    #[test]
    fn colony_fire_steps_down() {
        // A Scout with Attack 3 at a colony: 3 + 1, no bonus, defense 0.
        assert_eq!(colony_fire_to_hit(3, 3, 1), 4);
        assert_eq!(colony_fire_to_hit(5, 3, 3), 8);
        // A Colony 5 hit three times: 3, 1, destroyed; a fourth ship does
        // not fire.
        let r = colony_volley(Worth::Colony(5), &[(4, 1), (4, 10), (4, 4)]);
        assert_eq!(r.after, Some(Worth::Colony(1)));
        assert_eq!(r.shots, vec![(1, true), (10, false), (4, true)]);
        let r = colony_volley(Worth::Colony(5), &[(4, 1); 4]);
        assert_eq!((r.after, r.shots.len()), (None, 3));
        // A homeworld: 20, 15, 10, 5, destroyed. (The page's example says
        // "five hits"; its colony table, and `Worth::hit`, take four.)
        let r = colony_volley(Worth::Home(20), &[(-1, 1); 6]);
        assert_eq!((r.after, r.shots.len()), (None, 4));
        let r = colony_volley(Worth::Home(20), &[(-1, 1); 3]);
        assert_eq!(r.after, Some(Worth::Home(5)));
    }

    /// A small LCG, for the random battles.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: u32) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as u32
        }

        fn d10(&mut self) -> u32 {
            self.below(10) + 1
        }
    }

    fn random_battle(rng: &mut Lcg) -> Battle {
        let terrain = [Terrain::Open, Terrain::Open, Terrain::Nebula, Terrain::Asteroids][rng.below(4) as usize];
        let mut fighters = Vec::new();
        for side in Side::BOTH {
            for n in 0..rng.below(4) {
                let kind = Kind::WARSHIPS[rng.below(6) as usize];
                let f = group(side, n as u8 + 1, kind, rng.below(6) + 1);
                fighters.push(tech(f, rng.below(4), rng.below(4), rng.below(4)));
            }
            if rng.below(3) == 0 {
                fighters.push(tech(base(side), rng.below(4), rng.below(4), rng.below(4)));
            }
            if rng.below(3) == 0 {
                fighters.push(tech(yards(side, rng.below(4) + 1), rng.below(4), 0, 0));
            }
        }
        let unarmed = [vec![label(A, 50)], vec![label(D, 60)]];
        Battle::new(Hex::new(0, 0), terrain, fighters, unarmed).unwrap()
    }

    /// A random legal answer to the battle's ask, with its dice.
    fn random_action(b: &Battle, rng: &mut Lcg) -> (Action, Vec<u32>) {
        match b.ask().unwrap() {
            Ask::Screen { side, max_ships } => {
                let mut left = rng.below(max_ships + 1);
                let mut out = Vec::new();
                for f in b
                    .fighters()
                    .iter()
                    .filter(|f| f.side == side && f.ships > 0 && f.kind.is_warship())
                {
                    let n = rng.below(left.min(f.ships) + 1);
                    if n > 0 {
                        out.push((f.id, n));
                    }
                    left -= n;
                }
                (Action::Screen(out), vec![])
            }
            Ask::Fire { side, .. } => {
                let run = b.run(side);
                let i = run[rng.below(run.len() as u32) as usize];
                let f = b.fighter(i);
                if b.may_retreat(i) && rng.below(4) == 0 {
                    let ships = rng.below(f.ships - f.fired) + 1;
                    return (Action::Retreat { fighter: i, ships }, vec![]);
                }
                let can = b.fireable(i);
                if can == 0 {
                    return (Action::Hold { fighter: i }, vec![]);
                }
                let targets = b.targets(i);
                let t = targets[rng.below(targets.len() as u32) as usize];
                let ships = rng.below(can) + 1;
                let dice = (0..ships).map(|_| rng.d10()).collect();
                (
                    Action::Fire {
                        fighter: i,
                        target: b.fighter(t).id,
                        ships,
                    },
                    dice,
                )
            }
        }
    }

    fn check_invariants(b: &Battle) {
        for f in b.fighters() {
            assert!(f.screened <= f.ships, "{f:?}");
            assert!(f.fired <= f.unscreened(), "{f:?}");
            assert!(f.damage < f.hull(), "{f:?}");
            assert!(f.screened == 0 || f.kind.is_warship(), "{f:?}");
        }
        if let Some(Ask::Screen { side, max_ships }) = b.ask() {
            assert!(max_ships > 0 && b.count(side) > b.count(side.other()));
        }
    }

    #[test]
    fn random_legal_battles_always_end_and_replay() {
        let mut rng = Lcg(14);
        for _ in 0..300 {
            let start = random_battle(&mut rng);
            let mut b = start.clone();
            let mut log = Vec::new();
            let mut steps = 0;
            while b.ask().is_some() {
                let (action, dice) = random_action(&b, &mut rng);
                b.act(&action, &dice)
                    .unwrap_or_else(|e| panic!("{action:?} {dice:?}: {e}\n{b:?}"));
                check_invariants(&b);
                log.push((action, dice));
                steps += 1;
                assert!(steps < 10_000, "the battle does not end: {b:?}");
            }
            let outcome = b.outcome().unwrap();
            if let Some(w) = outcome.winner {
                assert_eq!(b.count(w.other()), 0);
                assert!(b.count(w) > 0);
                assert_eq!(outcome.destroyed, b.unarmed(w.other()));
            }
            // The same calls with the same dice give the same battle.
            let mut again = start.clone();
            for (action, dice) in &log {
                again.act(action, dice).unwrap();
            }
            assert_eq!(again, b);
            // And it is stored and read back whole.
            let json = serde_json::to_string(&b).unwrap();
            assert_eq!(serde_json::from_str::<Battle>(&json).unwrap(), b);
        }
    }

    #[test]
    fn standing_orders_fight_whole_battles() {
        let mut rng = Lcg(7);
        for _ in 0..300 {
            let mut b = random_battle(&mut rng);
            let orders = Side::BOTH.map(|_| Standing {
                auto: true,
                target: TargetRule::ALL[rng.below(3) as usize],
                retreat: RetreatRule::ALL[rng.below(3) as usize],
                screen: ScreenRule::ALL[rng.below(2) as usize],
                colonies: ColonyRule::Fire,
                revealed: RevealedRule::Hide,
            });
            let mut steps = 0;
            while let Some(ask) = b.ask() {
                let action = orders[ask.side().index()].answer(&b, &ask, rng.below(2) == 0);
                let dice: Vec<u32> = match action {
                    Action::Fire { ships, .. } => (0..ships).map(|_| rng.d10()).collect(),
                    _ => vec![],
                };
                b.act(&action, &dice)
                    .unwrap_or_else(|e| panic!("{action:?}: {e}\n{b:?}"));
                check_invariants(&b);
                steps += 1;
                assert!(steps < 10_000, "the battle does not end: {b:?}");
            }
        }
    }
}
