//! `State` and the questions it answers (the fold of events: `events`).

use super::basics::Tech;
use super::map::Map;
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

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    pub vp: u32,
    pub science: u32,
    pub techs: Vec<Tech>,
    pub exhausted_techs: Vec<Tech>,
    /// The player resigned: their forces stay on the map in civil disorder
    /// (they defend, never move, produce or score), and they take no turns.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
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

    /// Star symbols each seat controls as scoring counts them: a resigned
    /// seat's forces hold their planets but it is no longer a player, so its
    /// stars count as none.
    pub fn scoring_stars(&self) -> Vec<u32> {
        let mut v = self.stars();
        for (i, ps) in self.seats.iter().enumerate() {
            if ps.resigned {
                v[i] = 0;
            }
        }
        v
    }

    /// Has `seat` resigned?
    pub fn resigned(&self, seat: Seat) -> bool {
        self.seats.get(seat.index()).is_some_and(|p| p.resigned)
    }

    /// The seats still playing (not resigned), in turn order.
    pub fn playing(&self) -> Vec<Seat> {
        Seat::all(self.seats.len()).filter(|s| !self.resigned(*s)).collect()
    }

    /// The first seat still playing after `seat` in turn order (`seat`
    /// itself if nobody else is).
    pub fn next_playing(&self, seat: Seat) -> Seat {
        let n = self.players.max(1);
        (1..=n)
            .map(|k| Seat((seat.0 + k) % n))
            .find(|s| !self.resigned(*s))
            .unwrap_or(seat)
    }

    /// The first seat still playing before `seat` in turn order (the way
    /// the scoring token passes).
    pub fn previous_playing(&self, seat: Seat) -> Seat {
        let n = self.players.max(1);
        (1..=n)
            .map(|k| Seat((seat.0 + n * 2 - k) % n))
            .find(|s| !self.resigned(*s))
            .unwrap_or(seat)
    }

    pub fn has(&self, seat: Seat, tech: Tech) -> bool {
        self.seats[seat.index()].techs.contains(&tech)
    }

    pub fn tech_ready(&self, seat: Seat, tech: Tech) -> bool {
        self.has(seat, tech) && !self.seats[seat.index()].exhausted_techs.contains(&tech)
    }

    pub(super) fn add_forces(&mut self, p: usize, seat: Seat, n: u32) {
        let cur = self.forces_of(p, seat);
        self.forces[p] = if cur + n > 0 { Some((seat, cur + n)) } else { None };
    }

    pub(super) fn remove_forces(&mut self, p: usize, n: u32) {
        if let Some((s, m)) = self.forces[p] {
            let left = m.saturating_sub(n);
            self.forces[p] = (left > 0).then_some((s, left));
        }
    }
}
