//! The state of a war and the questions it answers (its past-tense events
//! and the total `apply` are `events`).
//!
//! Everything a rule needs is here: the map (with its hidden jump table),
//! each planet's colour and owner, every ship, each seat's points, alliance
//! settings and jump chart, the current section and its order sheets, and
//! the runs of turns at 25+. What a viewer may see of it is `view`'s
//! business.

use super::basics::ships::{Class, Ship};
use super::basics::{Colour, ShipId, Space};
use super::map::{Map, Path};
use orrery_engine::{GameRng, OrderSheet, Outcome, Seat};
use serde::{Deserialize, Serialize};

/// Planets in the war, and how many make a win.
pub const PLANETS: usize = 37;
pub const TO_WIN: usize = 25;
/// An empire's dominant player holds at least this many alone.
pub const EMPIRE_CORE: usize = 13;
/// Turn-beginnings at 25+ a single player needs in a row.
pub const WIN_RUN: u32 = 3;
pub const START_POINTS: u32 = 5;
pub const TURN_LIMIT_DEFAULT: u32 = 15;
pub const TURN_LIMIT_RANGE: std::ops::RangeInclusive<u32> = 5..=60;

/// The four sections of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Section {
    Economic,
    Movement,
    /// Combat, round `round` (from 1) of this turn.
    Combat {
        round: u8,
    },
    EcoPolitical,
}

impl Section {
    pub fn name(self) -> String {
        match self {
            Section::Economic => "A · Economic".into(),
            Section::Movement => "B · Movement".into(),
            Section::Combat { round } => format!("C · Combat, round {round}"),
            Section::EcoPolitical => "D · EcoPolitical".into(),
        }
    }

    /// The decision kind of its sheets.
    pub fn kind(self) -> &'static str {
        match self {
            Section::Economic => "economic",
            Section::Movement => "movement",
            Section::Combat { .. } => "combat",
            Section::EcoPolitical => "ecopolitical",
        }
    }
}

/// One line of an order sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    // A · Economic
    Scrap {
        ship: ShipId,
    },
    Repair {
        ship: ShipId,
        points: Option<u32>,
    },
    Hide {
        ship: ShipId,
    },
    /// `name`: the planet's, for the sheet and its narration.
    Build {
        class: Class,
        at: usize,
        name: String,
    },
    // B · Movement
    Move {
        ship: ShipId,
        path: Path,
    },
    // C · Combat
    Fire {
        ship: ShipId,
        target: ShipId,
        shots: Option<u8>,
    },
    // D · EcoPolitical
    Terraform {
        planet: usize,
        name: String,
        colour: Colour,
    },
    Ally {
        player: Seat,
        yes: bool,
    },
    Faction {
        with: Vec<Seat>,
        empire: bool,
    },
}

impl Order {
    /// The section whose sheet takes this line.
    pub fn section_kind(&self) -> &'static str {
        match self {
            Order::Scrap { .. } | Order::Repair { .. } | Order::Hide { .. } | Order::Build { .. } => "economic",
            Order::Move { .. } => "movement",
            Order::Fire { .. } => "combat",
            Order::Terraform { .. } | Order::Ally { .. } | Order::Faction { .. } => "ecopolitical",
        }
    }
}

/// A planet as it is now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanetNow {
    pub colour: Colour,
    pub owner: Option<Seat>,
}

/// A declared or standing faction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faction {
    /// The members; for an empire the dominant player first.
    pub members: Vec<Seat>,
    pub empire: bool,
    /// Turn-beginnings it has met its requirements since it formed (the
    /// forming one counts 1).
    pub run: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    /// Each seat's colour.
    pub colours: Vec<Colour>,
    pub map: Box<Map>,
    pub planets: Vec<PlanetNow>,
    /// Every ship in play (dark ones too), in name order.
    pub ships: Vec<Ship>,
    /// Each seat's points (private).
    pub points: Vec<u32>,
    pub turn: u32,
    pub turn_limit: u32,
    pub section: Section,
    /// The sheets of the running section.
    pub sheet: OrderSheet<Order>,
    /// Ships ordered to move this turn: not stationary.
    pub moved: Vec<ShipId>,
    /// Seats' alliance settings: `settings[a][b]` is a's yes to b (private
    /// to a).
    pub settings: Vec<Vec<bool>>,
    /// Alliances in force this turn (public), as sorted pairs.
    pub alliances: Vec<(Seat, Seat)>,
    /// Each seat's charted jumps (private).
    pub charts: Vec<Vec<(Space, Space)>>,
    /// Each seat's run of turn-beginnings at 25+ (public).
    pub runs: Vec<u32>,
    /// Declarations waiting for the next turn's beginning (private to the
    /// declarer until then).
    pub declared: Vec<Faction>,
    /// Factions in force (public).
    pub factions: Vec<Faction>,
    /// Seats out of the war (no planets, no ships).
    pub out: Vec<bool>,
    /// Seats that resigned (left the war by their own choice or the
    /// host's), in the order they left; each is also `out`. Absent from
    /// the stored states of wars nobody left.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<Seat>,
    pub rng: Box<GameRng>,
    pub outcome: Option<Outcome>,
    /// Phase boundaries so far (the board is posted at each).
    pub boundaries: u32,
}

impl State {
    pub fn empty() -> State {
        State {
            players: 0,
            colours: Vec::new(),
            map: Box::default(),
            planets: Vec::new(),
            ships: Vec::new(),
            points: Vec::new(),
            turn: 0,
            turn_limit: TURN_LIMIT_DEFAULT,
            section: Section::Economic,
            sheet: OrderSheet::new([]),
            moved: Vec::new(),
            settings: Vec::new(),
            alliances: Vec::new(),
            charts: Vec::new(),
            runs: Vec::new(),
            declared: Vec::new(),
            factions: Vec::new(),
            out: Vec::new(),
            resigned: Vec::new(),
            rng: Box::new(GameRng::seeded(0)),
            outcome: None,
            boundaries: 0,
        }
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
    }

    /// Whether `seat` resigned from the war.
    pub fn has_resigned(&self, seat: Seat) -> bool {
        self.resigned.contains(&seat)
    }

    /// Seats still in the war.
    pub fn in_the_war(&self) -> Vec<Seat> {
        self.seats()
            .filter(|x| !self.out.get(x.index()).copied().unwrap_or(true))
            .collect()
    }

    pub fn colour(&self, seat: Seat) -> Colour {
        self.colours[seat.index()]
    }

    /// The seat whose colour is `colour`.
    pub fn seat_of(&self, colour: Colour) -> Option<Seat> {
        self.colours.iter().position(|c| *c == colour).map(|i| Seat(i as u8))
    }

    pub fn ship(&self, id: ShipId) -> Option<&Ship> {
        self.ships.iter().find(|s| s.id == id)
    }

    pub(super) fn ship_mut(&mut self, id: ShipId) -> Option<&mut Ship> {
        self.ships.iter_mut().find(|s| s.id == id)
    }

    pub fn ships_of(&self, seat: Seat) -> impl Iterator<Item = &Ship> {
        self.ships.iter().filter(move |s| s.owner == seat)
    }

    pub fn allied(&self, a: Seat, b: Seat) -> bool {
        let pair = if a < b { (a, b) } else { (b, a) };
        a != b && self.alliances.contains(&pair)
    }

    /// Planets `seat` owns.
    pub fn planets_of(&self, seat: Seat) -> usize {
        self.planets.iter().filter(|p| p.owner == Some(seat)).count()
    }

    /// Points `seat`'s planets pay at the start of a turn.
    pub fn income(&self, seat: Seat) -> u32 {
        let own = self.colour(seat);
        self.planets
            .iter()
            .filter(|p| p.owner == Some(seat))
            .map(|p| p.colour.income_for(own))
            .sum()
    }

    /// Ships at `space` (dark ones too).
    pub fn ships_at(&self, space: Space) -> Vec<Ship> {
        self.ships.iter().filter(|s| s.at == space).cloned().collect()
    }

    /// Whether `ship` is in an encounter: a non-dark ship of a player who
    /// is not its owner's ally shares its space.
    pub fn in_encounter(&self, ship: &Ship) -> bool {
        !ship.dark
            && self
                .ships
                .iter()
                .any(|o| o.at == ship.at && !o.dark && o.owner != ship.owner && !self.allied(o.owner, ship.owner))
    }

    /// Whether the ship may be given a move line this turn.
    pub fn can_move(&self, ship: &Ship) -> bool {
        ship.can_move() && !self.in_encounter(ship)
    }

    /// Numbers from 1 to 99 no ship of `colour` uses now.
    pub fn free_numbers(&self, colour: Colour) -> Vec<u8> {
        (1..=99)
            .filter(|n| !self.ships.iter().any(|s| s.id.colour == colour && s.id.number == *n))
            .collect()
    }
}

/// The spaces `seat`'s sensors reach: within range of its non-dark ships
/// (1 + sensor units) and its planets (1).
pub fn sensed(state: &State, seat: Seat) -> Vec<Space> {
    let mut eyes: Vec<(Space, u32)> = state
        .ships_of(seat)
        .filter_map(|x| x.sensor_range().map(|r| (x.at, r)))
        .collect();
    for (i, p) in state.planets.iter().enumerate() {
        if p.owner == Some(seat) {
            eyes.push((state.map.planets[i].space, 1));
        }
    }
    super::map::all_spaces()
        .into_iter()
        .filter(|sp| eyes.iter().any(|(at, r)| super::map::sensor_sees(*at, *r, *sp)))
        .collect()
}

/// Whether `seat` sees `ship` now.
pub fn sees(seat: Seat, ship: &Ship, sensed: &[Space]) -> bool {
    ship.owner == seat || (!ship.dark && sensed.contains(&ship.at))
}
