//! State, events and `apply`. State is the fold of events.

use super::map::Map;
use super::techs::{Kind, Tech};
use orrery_engine::{GameRng, Outcome, Seat};
use serde::{Deserialize, Serialize};

/// Options (`{"map": "fixed" | "random", "rounds": 40}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// `"fixed"` (default) or `"random"`.
    pub map: String,
    /// The game ends after this many rounds if nobody has 6 VP.
    pub rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            map: "fixed".into(),
            rounds: 40,
        }
    }
}

pub const WIN_VP: u32 = 6;
pub const START_FORCES: u32 = 3;
pub const UNIVERSAL_COST: u32 = 2;
/// Cost of market slot 0, 1, 2.
pub const SLOT_COST: [u32; 3] = [3, 2, 1];

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub vp: u32,
    pub science: u32,
    pub techs: Vec<Tech>,
    pub exhausted_techs: Vec<Tech>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub players: u8,
    pub options: Options,
    pub map: Map,
    /// Per planet: who holds it and how many forces.
    pub forces: Vec<Option<(Seat, u32)>>,
    pub exhausted: Vec<bool>,
    pub seats: Vec<PlayerState>,
    pub universal: Vec<Tech>,
    /// Slots costing 3, 2, 1.
    pub market: [Option<Tech>; 3],
    /// Hidden order: never in a view.
    pub deck: Vec<Tech>,
    pub discard: Vec<Tech>,
    pub rng: Box<GameRng>,
    pub active: Seat,
    pub round: u32,
    pub turn: u32,
    pub token: Seat,
    /// The turn's one Action is spent.
    pub action_taken: bool,
    /// Science was produced this turn and no tech bought since.
    pub may_buy: bool,
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    GameStarted {
        players: u8,
        options: Options,
        map: Box<Map>,
        universal: Vec<Tech>,
        market: [Option<Tech>; 3],
        deck: Vec<Tech>,
        rng: Box<GameRng>,
    },
    /// Forces set on a planet (set-up and scenarios); `seat: null` empties it.
    ForcesSet {
        planet: String,
        seat: Option<Seat>,
        forces: u32,
    },
    TurnBegan {
        seat: Seat,
        round: u32,
    },
    Moved {
        seat: Seat,
        to: String,
        from: Vec<(String, u32)>,
        tech: Option<Tech>,
    },
    CombatResolved {
        planet: String,
        attacker: Seat,
        defender: Seat,
        attacker_forces: u32,
        defender_forces: u32,
        attacker_bonus: u32,
        defender_bonus: u32,
        attacker_left: u32,
        defender_left: u32,
    },
    Produced {
        seat: Seat,
        planet: String,
        forces: u32,
        science: u32,
    },
    PlanetExhausted {
        planet: String,
    },
    PlanetReadied {
        planet: String,
    },
    Refreshed {
        seat: Seat,
    },
    /// An Action or Free Action tech was used (and exhausted).
    TechUsed {
        seat: Seat,
        tech: Tech,
    },
    ForcesAdded {
        seat: Seat,
        planet: String,
        forces: u32,
    },
    ScienceGained {
        seat: Seat,
        science: u32,
    },
    TechBought {
        seat: Seat,
        tech: Tech,
        cost: u32,
        /// Market slot (0 = cost 3), or None for a universal tech.
        slot: Option<usize>,
    },
    MarketCycled {
        market: [Option<Tech>; 3],
        discarded: Option<Tech>,
        drawn: Option<Tech>,
    },
    TurnEnded {
        seat: Seat,
    },
    Scored {
        seat: Option<Seat>,
        stars: Vec<u32>,
    },
    TokenPassed {
        to: Seat,
    },
    GameOver {
        outcome: Outcome,
    },
    // Scenario set-up helpers.
    TechGranted {
        seat: Seat,
        tech: Tech,
    },
    ScienceSet {
        seat: Seat,
        science: u32,
    },
    VpSet {
        seat: Seat,
        vp: u32,
    },
    MarketSet {
        market: [Option<Tech>; 3],
        deck: Vec<Tech>,
        /// Replaces the universal techs when not empty.
        #[serde(default)]
        universal: Vec<Tech>,
    },
    TokenSet {
        seat: Seat,
    },
}

impl State {
    pub fn empty() -> State {
        State {
            players: 0,
            options: Options::default(),
            map: Map {
                radius: 0,
                planets: vec![],
                lanes: vec![],
            },
            forces: vec![],
            exhausted: vec![],
            seats: vec![],
            universal: vec![],
            market: [None; 3],
            deck: vec![],
            discard: vec![],
            rng: Box::new(GameRng::seeded(0)),
            active: Seat(0),
            round: 0,
            turn: 0,
            token: Seat(0),
            action_taken: false,
            may_buy: false,
            outcome: None,
        }
    }

    pub fn planet(&self, name: &str) -> usize {
        self.map.index(name).unwrap_or_else(|| panic!("no planet {name}"))
    }

    pub fn holder(&self, p: usize) -> Option<Seat> {
        self.forces[p].map(|(s, _)| s)
    }

    pub fn forces_of(&self, p: usize, seat: Seat) -> u32 {
        match self.forces[p] {
            Some((s, n)) if s == seat => n,
            _ => 0,
        }
    }

    /// Star symbols each seat controls.
    pub fn stars(&self) -> Vec<u32> {
        let mut v = vec![0; self.players as usize];
        for (i, f) in self.forces.iter().enumerate() {
            if let Some((s, n)) = f {
                if *n > 0 {
                    v[s.index()] += self.map.planets[i].stars;
                }
            }
        }
        v
    }

    pub fn has(&self, seat: Seat, tech: Tech) -> bool {
        self.seats[seat.index()].techs.contains(&tech)
    }

    pub fn tech_ready(&self, seat: Seat, tech: Tech) -> bool {
        self.has(seat, tech) && !self.seats[seat.index()].exhausted_techs.contains(&tech)
    }

    fn add_forces(&mut self, p: usize, seat: Seat, n: u32) {
        let cur = self.forces_of(p, seat);
        self.forces[p] = if cur + n > 0 { Some((seat, cur + n)) } else { None };
    }

    fn remove_forces(&mut self, p: usize, n: u32) {
        if let Some((s, m)) = self.forces[p] {
            let left = m.saturating_sub(n);
            self.forces[p] = (left > 0).then_some((s, left));
        }
    }
}

pub fn apply(st: &mut State, e: &Event) {
    match e {
        Event::GameStarted {
            players,
            options,
            map,
            universal,
            market,
            deck,
            rng,
        } => {
            st.players = *players;
            st.options = options.clone();
            st.map = (**map).clone();
            st.forces = vec![None; map.planets.len()];
            st.exhausted = vec![false; map.planets.len()];
            st.seats = vec![PlayerState::default(); *players as usize];
            st.universal = universal.clone();
            st.market = *market;
            st.deck = deck.clone();
            st.rng = rng.clone();
            st.token = Seat(players - 1);
        }
        Event::ForcesSet { planet, seat, forces } => {
            let p = st.planet(planet);
            st.forces[p] = match seat {
                Some(s) if *forces > 0 => Some((*s, *forces)),
                _ => None,
            };
        }
        Event::TurnBegan { seat, round } => {
            st.active = *seat;
            st.round = *round;
            st.turn += 1;
            st.action_taken = false;
            st.may_buy = false;
        }
        Event::Moved { seat, to, from, tech } => {
            let t = st.planet(to);
            let mut total = 0;
            for (name, n) in from {
                let p = st.planet(name);
                st.remove_forces(p, *n);
                total += n;
            }
            // Logistics is a Free Action; every other move is the Action.
            if *tech != Some(Tech::Logistics) {
                st.action_taken = true;
            }
            match st.forces[t] {
                Some((s, _)) if s != *seat => {} // combat follows
                _ => st.add_forces(t, *seat, total),
            }
        }
        Event::CombatResolved {
            planet,
            attacker,
            defender,
            attacker_left,
            defender_left,
            ..
        } => {
            let p = st.planet(planet);
            st.forces[p] = if *attacker_left > 0 {
                Some((*attacker, *attacker_left))
            } else if *defender_left > 0 {
                Some((*defender, *defender_left))
            } else {
                None
            };
        }
        Event::Produced {
            seat,
            planet,
            forces,
            science,
        } => {
            let p = st.planet(planet);
            st.add_forces(p, *seat, *forces);
            st.seats[seat.index()].science += science;
            if *science > 0 {
                st.may_buy = true;
            }
            st.action_taken = true;
        }
        Event::PlanetExhausted { planet } => {
            let p = st.planet(planet);
            st.exhausted[p] = true;
        }
        Event::PlanetReadied { planet } => {
            let p = st.planet(planet);
            st.exhausted[p] = false;
        }
        Event::Refreshed { seat } => {
            for p in 0..st.forces.len() {
                if st.holder(p) == Some(*seat) {
                    st.exhausted[p] = false;
                }
            }
            st.seats[seat.index()].exhausted_techs.clear();
            st.action_taken = true;
        }
        Event::TechUsed { seat, tech } => {
            let ps = &mut st.seats[seat.index()];
            if !ps.exhausted_techs.contains(tech) {
                ps.exhausted_techs.push(*tech);
            }
            if tech.kind() == Kind::Action {
                st.action_taken = true;
            }
        }
        Event::ForcesAdded { seat, planet, forces } => {
            let p = st.planet(planet);
            st.add_forces(p, *seat, *forces);
        }
        Event::ScienceGained { seat, science } => {
            st.seats[seat.index()].science += science;
            if *science > 0 {
                st.may_buy = true;
            }
        }
        Event::TechBought { seat, tech, cost, slot } => {
            let ps = &mut st.seats[seat.index()];
            ps.science = ps.science.saturating_sub(*cost);
            ps.techs.push(*tech);
            if let Some(i) = slot {
                st.market[*i] = None;
            }
            st.may_buy = false;
        }
        Event::MarketCycled {
            market,
            discarded,
            drawn,
        } => {
            st.market = *market;
            if let Some(d) = discarded {
                st.discard.push(*d);
            }
            if let Some(t) = drawn {
                if let Some(i) = st.deck.iter().position(|x| x == t) {
                    st.deck.remove(i);
                }
            }
        }
        Event::TurnEnded { .. } => {}
        Event::Scored { seat, .. } => {
            if let Some(s) = seat {
                st.seats[s.index()].vp += 1;
            }
        }
        Event::TokenPassed { to } => st.token = *to,
        Event::GameOver { outcome } => st.outcome = Some(outcome.clone()),
        Event::TechGranted { seat, tech } => st.seats[seat.index()].techs.push(*tech),
        Event::ScienceSet { seat, science } => st.seats[seat.index()].science = *science,
        Event::VpSet { seat, vp } => st.seats[seat.index()].vp = *vp,
        Event::MarketSet {
            market,
            deck,
            universal,
        } => {
            st.market = *market;
            st.deck = deck.clone();
            if !universal.is_empty() {
                st.universal = universal.clone();
            }
        }
        Event::TokenSet { seat } => st.token = *seat,
    }
}
