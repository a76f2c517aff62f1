//! The past-tense events and `apply`: state is the fold of events.

use super::basics::{Kind, Tech};
use super::map::Map;
use super::state::{Options, PlayerState, State};
use orrery_engine::{GameRng, Outcome, Seat};
use serde::{Deserialize, Serialize};

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
    /// The player resigned (or the host resigned them): they take no more
    /// turns, and their `forces` on `planets` planets stay where they are in
    /// civil disorder. What follows (the scoring token, the turn, the end
    /// of the game) is in the events after it.
    Resigned {
        seat: Seat,
        planets: u32,
        forces: u32,
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
        Event::Resigned { seat, .. } => {
            if let Some(ps) = st.seats.get_mut(seat.index()) {
                ps.resigned = true;
            }
        }
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
