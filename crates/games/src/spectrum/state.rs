//! The state of a war, its past-tense events, and the total `apply`.
//!
//! Everything a rule needs is here: the map (with its hidden jump table),
//! each planet's colour and owner, every ship, each seat's points, alliance
//! settings and jump chart, the current section and its order sheets, and
//! the runs of turns at 25+. What a viewer may see of it is `view`'s
//! business.

use super::basics::{Colour, ShipId, Space};
use super::map::{Map, Path};
use super::ships::{Class, Ship, Unit};
use orrery_engine::{GameRng, OrderSheet, Outcome, Seat, SheetEvent};
use serde::{Deserialize, Serialize};

/// Planets in the war, and how many make a win.
pub const PLANETS: usize = 37;
pub const TO_WIN: usize = 25;
/// An empire's dominant player holds at least this many alone.
pub const EMPIRE_CORE: usize = 13;
/// Turn-beginnings at 25+ a single player needs in a row.
pub const WIN_RUN: u32 = 3;
/// Combat rounds at most in one turn.
pub const MAX_ROUNDS: u8 = 5;
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
    Scrap { ship: ShipId },
    Repair { ship: ShipId, points: Option<u32> },
    Hide { ship: ShipId },
    /// `name`: the planet's, for the sheet and its narration.
    Build { class: Class, at: usize, name: String },
    // B · Movement
    Move { ship: ShipId, path: Path },
    // C · Combat
    Fire { ship: ShipId, target: ShipId, shots: Option<u8> },
    // D · EcoPolitical
    Terraform { planet: usize, name: String, colour: Colour },
    Ally { player: Seat, yes: bool },
    Faction { with: Vec<Seat>, empire: bool },
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
            rng: Box::new(GameRng::seeded(0)),
            outcome: None,
            boundaries: 0,
        }
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.players).map(Seat)
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

    fn ship_mut(&mut self, id: ShipId) -> Option<&mut Ship> {
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

/// Why a line was dropped when its section was carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    pub seat: Seat,
    pub line: usize,
    pub order: Order,
    pub why: String,
}

/// Past-tense facts. The log stores these; the state is their fold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// The war was set up: the map, seats' colours and home planets.
    WarBegan {
        players: u8,
        turn_limit: u32,
        map: Box<Map>,
        rng: Box<GameRng>,
    },
    /// A sheet edit (private to the seat, but for readiness).
    Sheet(SheetEvent<Order>),
    /// A line no longer legal when its section was carried out.
    LineDropped(Dropped),
    // ---- the turn ----
    /// A turn began: its number.
    TurnBegan {
        turn: u32,
    },
    /// Each seat's run of turn-beginnings at 25+ planets (all seats).
    RunsCounted {
        runs: Vec<u32>,
    },
    FactionFormed {
        faction: Faction,
    },
    FactionHeld {
        members: Vec<Seat>,
    },
    FactionDissolved {
        members: Vec<Seat>,
        why: String,
    },
    /// A declaration was refused at the beginning of the turn.
    DeclarationFailed {
        by: Seat,
        why: String,
    },
    IncomeCollected {
        seat: Seat,
        points: u32,
    },
    /// A section opened, with the seats that owe a sheet.
    SectionOpened {
        section: Section,
        owing: Vec<Seat>,
    },
    // ---- A · Economic ----
    ShipScrapped {
        owner: Seat,
        ship: ShipId,
        /// Scrapped because maintenance could not be paid.
        unpaid: bool,
    },
    MaintenancePaid {
        seat: Seat,
        points: u32,
    },
    ShipRepaired {
        owner: Seat,
        ship: ShipId,
        units: Vec<Unit>,
    },
    ShipHidden {
        owner: Seat,
        ship: ShipId,
    },
    ShipBuilt {
        ship: ShipId,
        owner: Seat,
        class: Class,
        at: Space,
        rng: Box<GameRng>,
    },
    // ---- B · Movement ----
    ShipMoved {
        owner: Seat,
        ship: ShipId,
        /// The space after each segment flown.
        route: Vec<Space>,
        /// The path was cut short by a stationary ship.
        stopped: bool,
        /// Jumps made, to chart: (from, to).
        jumps: Vec<(Space, Space)>,
    },
    /// A ship was ordered to move but stayed (`stay`, or no segment flown).
    ShipStayed {
        owner: Seat,
        ship: ShipId,
    },
    // ---- C · Combat ----
    ShotsFired {
        space: Space,
        /// The seats with ships there as the round began: they see it.
        seats: Vec<Seat>,
        result: super::combat::RoundResult,
        rng: Box<GameRng>,
    },
    PlanetTaken {
        planet: usize,
        name: String,
        owner: Option<Seat>,
    },
    // ---- D · EcoPolitical ----
    Terraformed {
        planet: usize,
        name: String,
        colour: Colour,
    },
    AllianceSet {
        seat: Seat,
        player: Seat,
        yes: bool,
    },
    AlliancesFormed {
        alliances: Vec<(Seat, Seat)>,
    },
    FactionDeclared {
        faction: Faction,
    },
    SeatOut {
        seat: Seat,
    },
    WarEnded {
        outcome: Outcome,
    },
}

/// Apply one event. Total: events are facts already checked.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::WarBegan {
            players,
            turn_limit,
            map,
            rng,
        } => {
            let n = *players as usize;
            state.players = *players;
            state.turn_limit = *turn_limit;
            state.colours = Colour::of_seats(*players);
            state.planets = map
                .planets
                .iter()
                .map(|p| PlanetNow {
                    colour: p.colour,
                    owner: None,
                })
                .collect();
            for (seat, home) in map.homes.iter().enumerate() {
                state.planets[*home].owner = Some(Seat(seat as u8));
            }
            state.map = map.clone();
            state.points = vec![START_POINTS; n];
            state.settings = vec![vec![false; n]; n];
            state.charts = vec![Vec::new(); n];
            state.runs = vec![0; n];
            state.out = vec![false; n];
            state.rng = rng.clone();
        }
        Event::Sheet(e) => state.sheet.apply(e),
        Event::LineDropped(_) => {}
        Event::TurnBegan { turn } => {
            state.turn = *turn;
            state.moved.clear();
        }
        Event::RunsCounted { runs } => state.runs = runs.clone(),
        Event::FactionFormed { faction } => {
            state.declared.retain(|d| d.members != faction.members);
            state.factions.push(faction.clone());
        }
        Event::FactionHeld { members } => {
            if let Some(f) = state.factions.iter_mut().find(|f| &f.members == members) {
                f.run += 1;
            }
        }
        Event::FactionDissolved { members, .. } => state.factions.retain(|f| &f.members != members),
        Event::DeclarationFailed { by, .. } => state.declared.retain(|d| d.members.first() != Some(by)),
        Event::IncomeCollected { seat, points } => state.points[seat.index()] += points,
        Event::SectionOpened { section, owing } => {
            state.section = *section;
            state.sheet = OrderSheet::new(owing.iter().copied());
            state.boundaries += 1;
        }
        Event::ShipScrapped { ship, .. } => state.ships.retain(|s| s.id != *ship),
        Event::MaintenancePaid { seat, points } => {
            let p = &mut state.points[seat.index()];
            *p = p.saturating_sub(*points);
        }
        Event::ShipRepaired { ship, units, .. } => {
            let owner = state.ship(*ship).map(|s| s.owner);
            if let Some(s) = state.ship_mut(*ship) {
                s.apply_repair(units);
            }
            if let Some(o) = owner {
                let p = &mut state.points[o.index()];
                *p = p.saturating_sub(units.len() as u32);
            }
        }
        Event::ShipHidden { ship, .. } => {
            if let Some(s) = state.ship_mut(*ship) {
                s.units.system = 0;
                s.dark = true;
            }
        }
        Event::ShipBuilt {
            ship,
            owner,
            class,
            at,
            rng,
        } => {
            let p = &mut state.points[owner.index()];
            *p = p.saturating_sub(class.cost());
            state.ships.push(Ship::new(*ship, *owner, *class, *at));
            state.ships.sort_by_key(|s| s.id);
            state.rng = rng.clone();
        }
        Event::ShipMoved { ship, route, jumps, .. } => {
            state.moved.push(*ship);
            let owner = state.ship(*ship).map(|s| s.owner);
            if let (Some(s), Some(end)) = (state.ship_mut(*ship), route.last()) {
                s.at = *end;
            }
            if let Some(o) = owner {
                let chart = &mut state.charts[o.index()];
                for j in jumps {
                    if !chart.contains(j) {
                        chart.push(*j);
                    }
                }
                chart.sort();
            }
        }
        Event::ShipStayed { ship, .. } => state.moved.push(*ship),
        Event::ShotsFired { result, rng, .. } => {
            for ship in state.ships.iter_mut() {
                let hits: Vec<_> = result.hits.iter().filter(|h| h.ship == ship.id).cloned().collect();
                if !hits.is_empty() {
                    super::combat::apply_hits(ship, &hits);
                }
            }
            for id in &result.darkened {
                if let Some(s) = state.ship_mut(*id) {
                    s.dark = true;
                }
            }
            state.ships.retain(|s| !result.destroyed.contains(&s.id));
            state.rng = rng.clone();
        }
        Event::PlanetTaken { planet, owner, .. } => state.planets[*planet].owner = *owner,
        Event::Terraformed { planet, colour, .. } => state.planets[*planet].colour = *colour,
        Event::AllianceSet { seat, player, yes } => state.settings[seat.index()][player.index()] = *yes,
        Event::AlliancesFormed { alliances } => state.alliances = alliances.clone(),
        Event::FactionDeclared { faction } => {
            let by = faction.members.first().copied();
            state.declared.retain(|d| d.members.first() != by.as_ref());
            state.declared.push(faction.clone());
        }
        Event::SeatOut { seat } => state.out[seat.index()] = true,
        Event::WarEnded { outcome } => state.outcome = Some(outcome.clone()),
    }
}
