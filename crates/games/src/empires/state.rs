//! The state of a game of Space Empires 4X and the parts it is made of:
//! the board's markers, colonies (with their Ship Yards and Base), counters
//! on the map, each player's private empire (CP, technology, standing
//! orders), the round, turn and player order, and the phase the game waits
//! in. What a viewer may see of it is `view`'s business; how it changes is
//! the events' (`Event` and `apply`, below the types).
//!
//! Units: every counter on the map is a [`Unit`] with a [`Label`]: a group
//! of 1 to 6 warships, a decoy (showing `ships` ships), a Colony Ship or a
//! Miner (always `ships == 1`). Bases and Ship Yards are not counters: they
//! belong to their [`Colony`] and are named by its hex.

use super::basics::{Kind, Label, Levels, Marker, Tech, TurnNo, Worth, HOMEWORLD_CP};
use orrery_engine::{GameRng, Hex, Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub mod battle;

/// The game's options as data (rules page, *Options*). Unknown keys are
/// refused when the game is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The game ends after the Economic Phase of this round and is scored.
    pub rounds: u32,
    /// Every player's standing orders start on fire at will.
    pub auto_combat: bool,
    /// 15.1 Instant technology upgrade: every ship gets each new level at
    /// once (rules page, *Optional rules*).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub instant_upgrade: bool,
    /// 18 Research gearing limits: at most 10 CP more on research than in
    /// the previous Economic Phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub research_gearing: bool,
    /// 15.2 Black Hole sling shot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub slingshot: bool,
    /// 19 Unpredictable research: research is bought in grants of 5 CP,
    /// a die each, the sum carried towards the next level.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unpredictable_research: bool,
    /// 10 Merchant Ship Pipelines (advanced rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pipelines: bool,
    /// 16 Warp Points (optional rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warp_points: bool,
    /// 13 Mines and Minesweepers (advanced rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mines: bool,
    /// 11.1–11.2 Carriers and Fighters (advanced rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub carriers: bool,
    /// 11.3 Point Defense (advanced rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub point_defense: bool,
    /// 14 Aliens (advanced rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aliens: bool,
    /// 12 Raiders, Cloaking and Scanners (advanced rule).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub raiders: bool,
    /// Team play (4 players, 2 against 2: seats 1 and 3 against 2 and 4;
    /// rules page, *Teams*).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub teams: bool,
    /// 17 Doomsday Machines (optional rule): how many are in the game (0:
    /// none; in solitaire, how many come).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub doomsday: u32,
}

impl Options {
    /// Whether the advanced rule or optional rule of option `key` is in
    /// play (the keys of types that need one, `Kind::advanced`).
    pub fn allows(&self, key: &str) -> bool {
        match key {
            "pipelines" => self.pipelines,
            "warp_points" => self.warp_points,
            "mines" => self.mines,
            "carriers" => self.carriers,
            "point_defense" => self.point_defense,
            "aliens" => self.aliens,
            "raiders" => self.raiders,
            _ => false,
        }
    }
}

pub const ROUNDS_DEFAULT: u32 = 12;

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: ROUNDS_DEFAULT,
            auto_combat: false,
            instant_upgrade: false,
            research_gearing: false,
            slingshot: false,
            unpredictable_research: false,
            pipelines: false,
            warp_points: false,
            mines: false,
            carriers: false,
            point_defense: false,
            aliens: false,
            raiders: false,
            teams: false,
            doomsday: 0,
        }
    }
}

/// A System marker on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spot {
    pub hex: Hex,
    pub marker: Marker,
    /// Turned face up (for everybody).
    pub face_up: bool,
    /// Whose home system it lies in (its back's colour); `None`: deep space.
    pub home: Option<Seat>,
    /// The alien ship markers on a deep-space Barren Planet (advanced rule
    /// 14), each of a warship type, as drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliens: Vec<Kind>,
    /// The aliens were placed face down (found by a Cruiser's look, 14.1):
    /// nobody knows their types until they fight.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aliens_hidden: bool,
}

/// A Doomsday Machine on the map (optional rule 17), face up for all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// 1 to 3, its marker's number.
    pub number: u8,
    pub hex: Hex,
    /// Hits it has taken: repaired after every combat (17.2), kept in
    /// solitaire ("unlike the solitaire game", rules page, *Solitaire*).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: u32,
}

/// A colony, its Ship Yards and its Base.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Colony {
    pub hex: Hex,
    pub owner: Seat,
    pub worth: Worth,
    /// Founded on a Barren Planet (destroyed, it leaves a Barren Planet).
    pub barren: bool,
    pub yards: u32,
    /// Yards bought this Economic Phase (they do not build yet).
    pub new_yards: u32,
    pub base: bool,
    /// Minerals and Space Wrecks deposited here, collected in the next
    /// Economic Phase in which the colony is not blockaded.
    pub deposits: Vec<Marker>,
    /// Of `yards`, those built since combat last occurred in this hex:
    /// placed face down, their owner's secret (text 7.6.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hidden_yards: u32,
    /// The Base was built since combat last occurred here (7.6.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hidden_base: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Colony {
    pub fn is_home(&self) -> bool {
        self.worth.is_home()
    }

    /// A Base or Ship Yard built here: face down (text 7.6.2).
    pub fn build(&mut self, what: Kind) {
        match what {
            Kind::Base => {
                self.base = true;
                self.hidden_base = true;
            }
            _ => {
                self.yards += 1;
                self.new_yards += 1;
                self.hidden_yards += 1;
            }
        }
    }

    /// A Base or one Ship Yard removed (scrapped or scuttled); of the
    /// yards, a face-down one goes first.
    pub fn remove(&mut self, what: Kind) {
        match what {
            Kind::Base => {
                self.base = false;
                self.hidden_base = false;
            }
            _ => {
                self.yards = self.yards.saturating_sub(1);
                self.new_yards = self.new_yards.min(self.yards);
                self.hidden_yards = self.hidden_yards.saturating_sub(1);
            }
        }
    }

    /// Whether the Base or a Ship Yard, removed now, is one nobody else
    /// has seen (text 7.6.2).
    pub fn removes_hidden(&self, what: Kind) -> bool {
        match what {
            Kind::Base => self.hidden_base,
            _ => self.hidden_yards > 0,
        }
    }

    /// Combat occurred here: the installations are face up (text 7.6.2).
    pub fn reveal(&mut self) {
        self.hidden_yards = 0;
        self.hidden_base = false;
    }

    /// The colony as others see it: without what was built face down.
    pub fn as_seen(&self) -> Colony {
        let mut c = self.clone();
        c.yards -= c.hidden_yards.min(c.yards);
        c.new_yards = c.new_yards.min(c.yards);
        c.base &= !c.hidden_base;
        c.reveal();
        c
    }
}

/// A counter on the map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub label: Label,
    pub kind: Kind,
    /// Ships in the group; for a decoy, the ships it shows.
    pub ships: u32,
    /// The technology it was built (or last upgraded) with.
    pub levels: Levels,
    pub hex: Hex,
    /// Turned face up by a battle (Colony Ships and Miners always are).
    pub face_up: bool,
    /// Hexes moved this player turn.
    pub moved: u32,
    /// Its move ended this phase (entered an unexplored hex, a Nebula or
    /// Asteroids, or enemy armed units).
    pub stopped: bool,
    /// The hex it entered its present hex from this turn (Super Nova).
    pub came_from: Option<Hex>,
    /// Where it began this movement phase, once it has moved in it: it may
    /// enter an unexplored hex, a Nebula or Asteroids next to that hex
    /// (text 4.2). Cleared when the movement phase ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub began_at: Option<Hex>,
    /// The Move level others have seen it use (text 9.9).
    pub move_shown: Option<u32>,
    /// A Miner's towed marker.
    pub tow: Option<Marker>,
    /// Ordered to upgrade this turn: may not move; gets the owner's levels
    /// at the end of the turn if still at a yard.
    pub upgrading: bool,
    /// Peeks used this movement phase (a Cruiser group: one per ship).
    pub peeks: u32,
    /// Survived a Black Hole sling shot this movement phase: one hex more
    /// (optional rule 15.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub slung: bool,
    /// Began this movement phase on a chain of its owner's MS Pipelines and
    /// has moved only along it: one hex more, along the chain (advanced
    /// rule 10.1.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub piped: bool,
}

impl Unit {
    pub fn owner(&self) -> Seat {
        self.label.owner
    }

    /// Has an attack strength (a warship group).
    pub fn armed(&self) -> bool {
        self.kind.armed()
    }

    /// Hexes it may move in `turn` at most, the owner's current Move level
    /// `current` counting for decoys (text 4.1, 8.3.2).
    pub fn allowance(&self, turn: TurnNo, current: u32) -> u32 {
        if self.kind.slow() {
            1
        } else if self.kind == Kind::Decoy {
            super::basics::moves(current, turn)
        } else {
            super::basics::moves(self.levels.moves, turn)
        }
    }

    /// Its levels once upgraded to its owner's levels `now` (text 9.10.4):
    /// a warship group gets Attack, Defense, Tactics and Move (a Cruiser
    /// also Exploration), a Colony Ship Terraforming; each keeps what it
    /// had of the rest.
    pub fn upgraded(&self, now: Levels) -> Levels {
        let mut levels = self.levels;
        if self.kind.is_warship() {
            levels = now;
            if self.kind != Kind::Cruiser {
                levels.explore = self.levels.explore;
            }
            levels.terraform = self.levels.terraform;
        } else if self.kind == Kind::ColonyShip {
            levels.terraform = now.terraform;
        }
        levels
    }

    /// Maintenance a phase (text 7.3.1): hull × ships for warships.
    pub fn maintenance(&self) -> u32 {
        self.kind.chart().maintenance * self.ships
    }
}

/// A player's private empire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Empire {
    /// CP carried over (private).
    pub cp: u32,
    pub levels: Levels,
    pub standing: battle::Standing,
    /// The bid of the last Economic Phase, once revealed (public).
    pub last_bid: Option<u32>,
    /// Free technology levels from Space Wrecks, as (die, tech), for the
    /// owner's record (private).
    pub wrecks: Vec<(u32, Tech)>,
    /// Hexes whose face-down marker this player has looked at (private).
    pub peeked: Vec<Hex>,
    /// Of those, the hexes looked at in this player's current movement
    /// phase: only these may be revealed (rules page, `reveal`) (private).
    #[serde(default)]
    pub peeked_now: Vec<Hex>,
    /// The player resigned: the empire is out of the game (rules page,
    /// *Resigning*).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
    /// CP spent on research in the last Economic Phase (text 18; private).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub research_last: u32,
    /// Research grants bought in the last Economic Phase (text 19.3;
    /// private).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grants_last: u32,
    /// Unpredictable research: the dice rolled so far towards the next
    /// level of each category (text 19.2; private). A category reaching its
    /// next level's cost leaves the list (the surplus is wasted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<(Tech, u32)>,
}

impl Empire {
    /// Unpredictable research: the dice rolled so far towards the next
    /// level of `tech` (text 19.2).
    pub fn progress_of(&self, tech: Tech) -> u32 {
        self.progress.iter().find(|(t, _)| *t == tech).map_or(0, |(_, n)| *n)
    }
}

/// What the game waits on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Before the set-up event.
    Setup,
    /// The active player's movement phase (`move`).
    Movement,
    /// The active player's combat phase (`combat`); the battle, if one is
    /// being fought, is `State::battle`.
    Combat,
    /// Lost in Space revealed: `shifter` owes `shift` for the stack at `hex`.
    Lost {
        shifter: Seat,
        hex: Hex,
    },
    /// The active player's ships met `owner`'s unswept Mines at `hex`:
    /// `owner` owes `mines`, choosing the ship each mine destroys (advanced
    /// rule 13.1.4), one at a time.
    Mines {
        owner: Seat,
        hex: Hex,
    },
    /// Every player's secret sheet (`economic`).
    Economic,
    /// The bid's winner chooses the first player of the next round.
    First {
        chooser: Seat,
    },
    /// After every player's turn: Doomsday Machine `number` has moved and
    /// attacks what is in its hex (optional rule 17.3-17.4); `facing`: the
    /// player whose units fight it in `State::battle`, if any.
    Doomsday {
        number: u8,
        facing: Option<Seat>,
    },
    Over,
}

/// A line of an economic sheet, resolved against the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Line {
    Bid {
        cp: u32,
    },
    Research {
        tech: Tech,
    },
    /// Unpredictable research (text 19.1): `grants` grants of 5 CP towards
    /// the next level of `tech`, a die each.
    Grants {
        tech: Tech,
        grants: u32,
    },
    /// `ships` ships of a warship type in one new group (or `into` a group
    /// of the same type and technology there); `ships` separate Colony
    /// Ships or Miners; a decoy showing `ships`; a Base or a Ship Yard.
    Buy {
        kind: Kind,
        at: Hex,
        ships: u32,
        into: Option<Label>,
    },
    Scrap {
        unit: Label,
    },
    ScrapAt {
        at: Hex,
        what: Kind,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    pub options: Options,
    pub board: super::map::Board,
    /// Every marker on the map, in hex-name order.
    pub spots: Vec<Spot>,
    pub colonies: Vec<Colony>,
    pub units: Vec<Unit>,
    pub empires: Vec<Empire>,
    /// From 1.
    pub round: u32,
    /// 1, 2, 3 (and 4 for the Economic Phase, in labels).
    pub turn: TurnNo,
    /// This round's player order: a rotation of the seats.
    pub order: Vec<Seat>,
    /// Index in `order` of the active player (movement and combat).
    pub active: usize,
    pub phase: Phase,
    pub sheet: orrery_engine::OrderSheet<Line>,
    /// The battle being fought in the active player's combat phase.
    pub battle: Option<Box<battle::Battle>>,
    /// The other side of the battle being fought.
    pub defender: Option<Seat>,
    /// The hex the active player's combat is at now (a battle, or colony
    /// fire after one or without one).
    pub fighting: Option<Hex>,
    /// Ships noted for screening this firing round, not yet committed.
    pub screening: Vec<(battle::Target, u32)>,
    /// Hexes where the active player's battles and colony fire are still
    /// due this combat phase, in hex-name order.
    pub combat_due: Vec<Hex>,
    /// Groups that fired at a colony this combat phase (once each).
    pub colony_fired: Vec<Label>,
    /// Colonizations waiting for the end of the combat phase.
    pub queued: Vec<(Label, Hex)>,
    /// Hexes where the active player's cloaked Raiders, unseen, are to
    /// attack in this turn's combat phase (`battle at:` in movement;
    /// advanced rule 12.1.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ambush: Vec<Hex>,
    /// The Doomsday Machines on the map (optional rule 17), by number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<Machine>,
    /// Doomsday Machines destroyed so far.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub machines_destroyed: u32,
    pub rng: Box<GameRng>,
    pub outcome: Option<Outcome>,
    /// Phase boundaries so far (the board is posted at each).
    pub boundaries: u32,
}

impl State {
    pub fn empty() -> State {
        State {
            players: 0,
            options: Options::default(),
            // Replaced by the set-up event; any map does until then.
            board: super::map::Board::new(2).expect("the 2-player map exists"),
            spots: Vec::new(),
            colonies: Vec::new(),
            units: Vec::new(),
            empires: Vec::new(),
            round: 0,
            turn: 1,
            order: Vec::new(),
            active: 0,
            phase: Phase::Setup,
            sheet: orrery_engine::OrderSheet::new([]),
            battle: None,
            defender: None,
            fighting: None,
            screening: Vec::new(),
            combat_due: Vec::new(),
            colony_fired: Vec::new(),
            queued: Vec::new(),
            ambush: Vec::new(),
            machines: Vec::new(),
            machines_destroyed: 0,
            rng: Box::new(GameRng::seeded(0)),
            outcome: None,
            boundaries: 0,
        }
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
    }

    /// The seats still in the game: all but those who resigned.
    pub fn playing(&self) -> impl Iterator<Item = Seat> + '_ {
        self.seats().filter(|s| !self.empire(*s).resigned)
    }

    /// One player against the Doomsday Machines and the aliens (rules page,
    /// *Solitaire*).
    pub fn solitaire(&self) -> bool {
        self.players == 1
    }

    /// The Doomsday Machine at `hex`, if any (optional rule 17).
    pub fn machine_at(&self, hex: Hex) -> Option<&Machine> {
        self.machines.iter().find(|m| m.hex == hex)
    }

    /// Doomsday Machine `number`, while it is on the map.
    pub fn machine(&self, number: u8) -> Option<&Machine> {
        self.machines.iter().find(|m| m.number == number)
    }

    /// The alien ships at `hex` (advanced rule 14), if any.
    pub fn aliens_at(&self, hex: Hex) -> &[Kind] {
        self.spot(hex).map_or(&[], |p| p.aliens.as_slice())
    }

    /// The next player to the left (in player order after `seat`, not
    /// resigned): who chooses the aliens' targets in `seat`'s battles
    /// (text 14.2).
    /// In team play, the first such player of the other team (14.2: "a
    /// player from the other team selects the targets").
    pub fn left_of(&self, seat: Seat) -> Seat {
        (1..self.players)
            .map(|k| Seat((seat.0 + k) % self.players))
            .find(|s| !self.empire(*s).resigned && !self.allied(*s, seat))
            .unwrap_or_else(|| self.next_playing(seat, 1))
    }

    /// The player to the right of `seat` (the previous seat clockwise)
    /// still in the game; `seat` itself when nobody else is.
    pub fn right_of(&self, seat: Seat) -> Seat {
        self.next_playing(seat, self.players - 1)
    }

    /// The first player not resigned going round from `seat` by `step`
    /// seats at a time (1: to the left, players − 1: to the right); `seat`
    /// itself if nobody else is left.
    fn next_playing(&self, seat: Seat, step: u8) -> Seat {
        (1..self.players)
            .map(|k| Seat(((seat.0 as u32 + k as u32 * step as u32) % self.players as u32) as u8))
            .find(|s| !self.empire(*s).resigned)
            .unwrap_or(seat)
    }

    /// The player whose movement and combat it is (not in the Economic
    /// Phase).
    pub fn active_seat(&self) -> Option<Seat> {
        // A Doomsday Machine's attack after the players' turns: the player
        // whose units it fights.
        if let Phase::Doomsday { facing, .. } = self.phase {
            return facing;
        }
        matches!(
            self.phase,
            Phase::Movement | Phase::Combat | Phase::Lost { .. } | Phase::Mines { .. }
        )
        .then(|| self.order.get(self.active).copied())
        .flatten()
    }

    pub fn empire(&self, seat: Seat) -> &Empire {
        &self.empires[seat.index()]
    }

    pub fn unit(&self, label: Label) -> Option<&Unit> {
        self.units.iter().find(|u| u.label == label)
    }

    pub fn unit_mut(&mut self, label: Label) -> Option<&mut Unit> {
        self.units.iter_mut().find(|u| u.label == label)
    }

    pub fn units_at(&self, hex: Hex) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.hex == hex)
    }

    pub fn units_of(&self, seat: Seat) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.owner() == seat)
    }

    pub fn spot(&self, hex: Hex) -> Option<&Spot> {
        self.spots.iter().find(|s| s.hex == hex)
    }

    pub fn spot_mut(&mut self, hex: Hex) -> Option<&mut Spot> {
        self.spots.iter_mut().find(|s| s.hex == hex)
    }

    /// The face-down marker at `hex`, if any.
    pub fn unexplored(&self, hex: Hex) -> bool {
        self.spot(hex).is_some_and(|s| !s.face_up)
    }

    /// The face-up marker at `hex`, if any.
    pub fn terrain(&self, hex: Hex) -> Option<Marker> {
        self.spot(hex).filter(|s| s.face_up).map(|s| s.marker)
    }

    pub fn colony(&self, hex: Hex) -> Option<&Colony> {
        self.colonies.iter().find(|c| c.hex == hex)
    }

    pub fn colony_mut(&mut self, hex: Hex) -> Option<&mut Colony> {
        self.colonies.iter_mut().find(|c| c.hex == hex)
    }

    pub fn colonies_of(&self, seat: Seat) -> impl Iterator<Item = &Colony> {
        self.colonies.iter().filter(move |c| c.owner == seat)
    }

    /// Whether `seat` has armed units at `hex`: warship groups, or a
    /// colony there with a Base or Ship Yards.
    pub fn armed_at(&self, seat: Seat, hex: Hex) -> bool {
        self.units_at(hex).any(|u| u.owner() == seat && u.armed())
            || self
                .colony(hex)
                .is_some_and(|c| c.owner == seat && (c.base || c.yards > 0))
    }

    /// Whether `a` and `b` are on one side: the same player, or teammates
    /// (seats 1 and 3, 2 and 4) in team play.
    pub fn allied(&self, a: Seat, b: Seat) -> bool {
        a == b || (self.options.teams && a.0 % 2 == b.0 % 2)
    }

    /// The seats on `seat`'s side: itself and, in team play, its teammate.
    pub fn side_of(&self, seat: Seat) -> Vec<Seat> {
        self.seats().filter(|o| self.allied(seat, *o)).collect()
    }

    /// Other players than `seat` with units (or armed installations) at
    /// `hex` that `seat` can detect: a Raider cloaked against `seat` is not
    /// there for it (advanced rule 12.1.2).
    pub fn enemies_at(&self, seat: Seat, hex: Hex) -> Vec<Seat> {
        let mut out: Vec<Seat> = self
            .units_at(hex)
            .filter(|u| !self.allied(u.owner(), seat) && !self.cloaked(u, seat))
            .map(Unit::owner)
            .collect();
        if let Some(c) = self.colony(hex) {
            if !self.allied(c.owner, seat) && (c.base || c.yards > 0) {
                out.push(c.owner);
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// A colony is blockaded by an enemy unit with an attack strength in
    /// its hex (text 7.1): a Raider cloaked against the colony's owner
    /// only where the owner has no unit (7.1, 12.1.2).
    pub fn blockaded(&self, colony: &Colony) -> bool {
        let defended = self.units_at(colony.hex).any(|u| u.owner() == colony.owner);
        self.units_at(colony.hex)
            .any(|u| !self.allied(u.owner(), colony.owner) && u.armed() && !(defended && self.cloaked(u, colony.owner)))
    }

    /// The Scanner level `seat` has at `hex`: its Destroyers' best (advanced
    /// rule 12.2; a screened Destroyer scans too).
    pub fn scanners(&self, seat: Seat, hex: Hex) -> u32 {
        self.units_at(hex)
            .filter(|u| u.owner() == seat && u.kind == Kind::Destroyer)
            .map(|u| u.levels.scan)
            .max()
            .unwrap_or(0)
    }

    /// Whether `u` would be a Raider cloaked against `seat` at `hex`: its
    /// Cloaking level above `seat`'s Scanners there, outside a Nebula
    /// (advanced rules 12.1.1, 12.1.5, 12.1.6).
    pub fn cloaked_at(&self, u: &Unit, hex: Hex, seat: Seat) -> bool {
        u.kind == Kind::Raider
            && !self.allied(u.owner(), seat)
            && self.terrain(hex) != Some(Marker::Nebula)
            && u.levels.cloak > self.scanners(seat, hex)
    }

    /// Whether `u` is a Raider cloaked against `seat` where it is.
    pub fn cloaked(&self, u: &Unit, seat: Seat) -> bool {
        self.cloaked_at(u, u.hex, seat)
    }

    /// Whether `u` is hidden from `viewer` (`None`: the public): a Raider
    /// cloaked against the viewer, or, for the public, against every other
    /// player in the game (advanced rule 12.1; rules page).
    pub fn hidden_from(&self, u: &Unit, viewer: Option<Seat>) -> bool {
        if u.kind != Kind::Raider || self.outcome.is_some() {
            return false;
        }
        match viewer {
            Some(v) => self.cloaked(u, v),
            None => self.cloaked_from_all(u, u.hex),
        }
    }

    /// Whether `u` would be a Raider cloaked at `hex` against every player
    /// not on its side (and so against aliens, who have no Scanners).
    pub fn cloaked_from_all(&self, u: &Unit, hex: Hex) -> bool {
        u.kind == Kind::Raider
            && self
                .seats()
                .filter(|o| !self.allied(*o, u.owner()))
                .all(|o| self.cloaked_at(u, hex, o))
    }

    /// The seats other than `owner` for which every one of `units` is a
    /// Raider cloaked at each of `hexes` (a move's path, its start
    /// included): those its narration is kept from.
    pub fn cloaked_along(&self, owner: Seat, units: &[&Unit], hexes: &[Hex]) -> Vec<Seat> {
        if units.is_empty() {
            return Vec::new();
        }
        self.seats()
            .filter(|o| !self.allied(*o, owner))
            .filter(|o| units.iter().all(|u| hexes.iter().all(|h| self.cloaked_at(u, *h, *o))))
            .collect()
    }

    /// Draw a fresh label for `seat`: a number none of its counters on
    /// the map uses.
    pub fn fresh_label(&self, seat: Seat, rng: &mut GameRng) -> Label {
        let used: Vec<Label> = self.units_of(seat).map(|u| u.label).collect();
        draw_label(seat, &used, rng)
    }

    /// Counters of `kind` (warship types and decoys) `seat` has on the map.
    pub fn counters_of(&self, seat: Seat, kind: Kind) -> usize {
        self.units_of(seat).filter(|u| u.kind == kind).count()
    }

    /// Colony income a phase of `seat` (text 7.1): every colony not
    /// blockaded.
    pub fn colony_income(&self, seat: Seat) -> u32 {
        self.colonies_of(seat)
            .filter(|c| !self.blockaded(c))
            .map(|c| c.worth.cp())
            .sum()
    }

    /// Hexes holding one of `seat`'s MS Pipelines, those of `except` not
    /// counted; `active`: only pipelines that have not moved this turn
    /// (their "Active" side, advanced rule 10.1.2).
    pub fn pipeline_hexes(&self, seat: Seat, except: &[Label], active: bool) -> BTreeSet<Hex> {
        self.units_of(seat)
            .filter(|u| u.kind == Kind::Pipeline && !except.contains(&u.label) && (!active || u.moved == 0))
            .map(|u| u.hex)
            .collect()
    }

    /// The hex a Warp Point at `hex` leads to (optional rule 16): the other
    /// face-up Warp Point of the same number, once both are found. Only
    /// two of a number are ever face up: a third found is discarded.
    pub fn warp_exit(&self, hex: Hex) -> Option<Hex> {
        let Some(Marker::WarpPoint(n)) = self.terrain(hex) else {
            return None;
        };
        self.spots
            .iter()
            .find(|p| p.face_up && p.hex != hex && p.marker == Marker::WarpPoint(n))
            .map(|p| p.hex)
    }

    /// Whether `a` and `b` are adjacent: next to each other on the map, or
    /// a connected pair of Warp Points ("considered adjacent in all ways",
    /// 16.4).
    pub fn adjacent(&self, a: Hex, b: Hex) -> bool {
        a.distance(b) == 1 || self.warp_exit(a) == Some(b)
    }

    /// The hexes adjacent to `hex`: its neighbours on the map, then the far
    /// end of its Warp Point, if any.
    pub fn neighbours(&self, hex: Hex) -> Vec<Hex> {
        let mut out = self.board.neighbours(hex);
        out.extend(self.warp_exit(hex));
        out
    }

    /// The chain through `from` (advanced rule 10.1.2): the hexes of
    /// `pipes` joined to it hex by adjacent hex (through a connected pair of
    /// Warp Points too, 16.4); empty unless two or more ("two or more MS
    /// Pipelines adjacent to one another").
    pub fn chain(&self, pipes: &BTreeSet<Hex>, from: Hex) -> BTreeSet<Hex> {
        let mut seen = BTreeSet::new();
        if !pipes.contains(&from) {
            return seen;
        }
        let mut todo = vec![from];
        seen.insert(from);
        while let Some(h) = todo.pop() {
            for n in pipes.iter().filter(|n| self.adjacent(h, **n)) {
                if seen.insert(*n) {
                    todo.push(*n);
                }
            }
        }
        if seen.len() < 2 {
            seen.clear();
        }
        seen
    }

    /// Trade income a phase of `seat` (advanced rule 10.1.2): 1 CP for each
    /// colony (not the homeworld, not blockaded) joined to the homeworld by
    /// a chain of `seat`'s pipelines, moved this turn or not.
    pub fn trade_income(&self, seat: Seat) -> u32 {
        let Some(home) = self.colonies_of(seat).find(|c| c.is_home()) else {
            return 0;
        };
        if !self.options.pipelines {
            return 0;
        }
        let chain = self.chain(&self.pipeline_hexes(seat, &[], false), home.hex);
        self.colonies_of(seat)
            .filter(|c| !c.is_home() && chain.contains(&c.hex) && !self.blockaded(c))
            .count() as u32
    }

    /// Maintenance a phase of `seat` (text 7.3.1).
    pub fn maintenance(&self, seat: Seat) -> u32 {
        self.units_of(seat).map(Unit::maintenance).sum()
    }

    /// Hexes of `seat`'s colonies (for retreat distances).
    pub fn colony_hexes(&self, seat: Seat) -> Vec<Hex> {
        self.colonies_of(seat).map(|c| c.hex).collect()
    }

    /// Whether `seat` still has its homeworld.
    pub fn has_homeworld(&self, seat: Seat) -> bool {
        self.colonies_of(seat).any(Colony::is_home)
    }

    /// The score (rules page, *Winning*): homeworld 2 × CP, other colonies
    /// 8 + CP, units on the map at chart cost (decoys 0), Bases and Ship
    /// Yards at chart cost, technology above the start at chart cost, CP
    /// carried over.
    pub fn score(&self, seat: Seat) -> u32 {
        let colonies: u32 = self
            .colonies_of(seat)
            .map(|c| {
                let worth = if c.is_home() {
                    2 * c.worth.cp()
                } else {
                    8 + c.worth.cp()
                };
                worth + c.yards * Kind::ShipYard.chart().cost + u32::from(c.base) * Kind::Base.chart().cost
            })
            .sum();
        let units: u32 = self
            .units_of(seat)
            .filter(|u| u.kind != Kind::Decoy)
            .map(|u| u.kind.chart().cost * u.ships)
            .sum();
        let e = self.empire(seat);
        colonies + units + e.levels.value() + e.cp
    }

    /// The homeworld value at the start (text 2.7).
    pub const HOMEWORLD: Worth = Worth::Home(HOMEWORLD_CP);
}

/// A new counter of `kind` at `hex`, unmoved (face up if slow).
pub fn new_unit(label: Label, kind: Kind, ships: u32, levels: Levels, hex: Hex) -> Unit {
    Unit {
        label,
        kind,
        ships,
        levels,
        hex,
        face_up: kind.always_face_up(),
        moved: 0,
        stopped: false,
        came_from: None,
        began_at: None,
        move_shown: None,
        tow: None,
        upgrading: false,
        peeks: 0,
        slung: false,
        piped: false,
    }
}

/// A label for `seat` whose number is not in `taken`, drawn with the game's
/// generator. Set-up and purchases draw several at once; the one way labels
/// are drawn, so that a replay draws the same.
pub fn draw_label(seat: Seat, taken: &[Label], rng: &mut GameRng) -> Label {
    let free: Vec<u8> = (1..=99u8)
        .filter(|n| !taken.iter().any(|l| l.owner == seat && l.number == *n))
        .collect();
    // 6 types × 6 counters + 6 decoys and any number of Colony Ships and
    // Miners: a player never has 99 counters in a real game; if one did,
    // the label would repeat the first free number (1).
    let number = free
        .get(rng.below(free.len().max(1) as u32) as usize)
        .copied()
        .unwrap_or(1);
    Label { owner: seat, number }
}
