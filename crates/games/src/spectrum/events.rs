//! The past-tense events and the total `apply`: the log stores the
//! events; the state is their fold.

use super::basics::ships::{apply_hits, Class, RoundResult, Ship, Unit};
use super::basics::{Colour, ShipId, Space};
use super::map::Map;
use super::state::{Faction, Order, PlanetNow, Section, State, START_POINTS};
use orrery_engine::{GameRng, OrderSheet, Outcome, Seat, SheetEvent};
use serde::{Deserialize, Serialize};

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
        /// The seats' colours, when players picked them; `None`:
        /// [`Colour::of_seats`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        colours: Option<Vec<Colour>>,
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
        result: RoundResult,
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
    /// The seat left the war (it resigned, or the host resigned it): its
    /// planets are unowned now, its ships leave the map, its alliances end
    /// and its sheet is withdrawn; it is out of the war.
    Resigned {
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
            colours,
        } => {
            let n = *players as usize;
            state.players = *players;
            state.turn_limit = *turn_limit;
            state.colours = colours.clone().unwrap_or_else(|| Colour::of_seats(*players));
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
                    apply_hits(ship, &hits);
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
        Event::Resigned { seat } => resign(state, *seat),
        Event::WarEnded { outcome } => state.outcome = Some(outcome.clone()),
    }
}

/// A seat leaves the war: the player leaves, and so does everything of
/// theirs (the rules text's "resign a player from a war").
fn resign(state: &mut State, seat: Seat) {
    let i = seat.index();
    if i >= state.out.len() {
        return;
    }
    if !state.resigned.contains(&seat) {
        state.resigned.push(seat);
    }
    state.out[i] = true;
    state.runs[i] = 0;
    state.ships.retain(|s| s.owner != seat);
    let colour = state.colour(seat);
    state.moved.retain(|id| id.colour != colour);
    for p in state.planets.iter_mut().filter(|p| p.owner == Some(seat)) {
        p.owner = None;
    }
    state.alliances.retain(|(a, b)| *a != seat && *b != seat);
    state.factions.retain(|f| !f.members.contains(&seat));
    state.declared.retain(|d| d.members.first() != Some(&seat));
    // The running section's sheets, without the seat's.
    state.sheet.release(seat);
}
