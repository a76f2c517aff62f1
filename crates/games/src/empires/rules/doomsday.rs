//! Optional rule 17, Doomsday Machines, and the solitaire game built on
//! them (rules page, *Doomsday Machines* and *Solitaire*): the machines'
//! movement after every player's turn (17.3), their attacks on what they
//! find (17.4), the worlds they destroy, the shots nobody chooses (a
//! machine's, and aliens' with no player to choose for them), and
//! solitaire's arrivals, victory and defeat.
//!
//! The flow: after the last player's turn of a turn, [`first_move`] moves
//! the lowest-numbered machine; the game is then in `Phase::Doomsday`,
//! whose [`step`] fights the machine's battles at its hex (each player with
//! ships there, in player order, then the aliens), destroys the planet or
//! asteroids there, and moves the next machine; after the last, the turn
//! ends as it would have without them.

use super::super::basics::{Kind, Marker};
use super::super::events::Event;
use super::super::map::{Area, Board};
use super::super::state::{Machine, State};
use super::{combat, movement};
use orrery_engine::{GameRng, Hex, Outcome, Seat};
use std::collections::BTreeMap;

/// After the last player's turn: the first Doomsday Machine moves (17.3:
/// "DMs move each turn after all players have moved").
pub(super) fn first_move(s: &State) -> Option<Event> {
    s.machines.first().map(|m| moved(s, m))
}

/// One step of `Phase::Doomsday`: machine `number`'s battle carried on, its
/// next battle, the world it destroys, or the next machine's move (and,
/// after the last, the end of the turn).
pub(super) fn step(s: &State, number: u8) -> Vec<Event> {
    if let Some(b) = &s.battle {
        return combat::battle_step(s, b);
    }
    if let Some(m) = s.machine(number) {
        let h = m.hex;
        // Solitaire: it turns over the marker it stopped on.
        if let Some(spot) = s.spot(h).filter(|p| !p.face_up) {
            let mut out = vec![Event::Explored {
                at: h,
                marker: spot.marker,
                removed: movement::removed_when_found(s, spot.marker),
            }];
            out.extend(movement::aliens_found(s, h, false));
            return out;
        }
        // Ships there are attacked (17.4), each player's in turn; a
        // colony's Base and Ship Yards fight it too (rules page).
        let seats: Vec<Seat> = s.order.iter().copied().chain(s.seats()).collect();
        for seat in seats {
            let armed_colony = s.colony(h).is_some_and(|c| c.owner == seat && (c.base || c.yards > 0));
            if armed_colony || s.units_at(h).any(|u| u.owner() == seat && u.kind != Kind::Mines) {
                let battle = combat::machine_battle(s, h, Some(seat));
                if !battle.is_empty() {
                    return battle;
                }
            }
        }
        if !s.aliens_at(h).is_empty() {
            let battle = combat::machine_battle(s, h, None);
            if !battle.is_empty() {
                return battle;
            }
        }
        if let Some(e) = destroys(s, m) {
            return vec![e];
        }
    }
    match s.machines.iter().find(|m| m.number > number) {
        Some(next) => vec![moved(s, next)],
        None => {
            let mut scratch = s.clone();
            let mut out = Vec::new();
            super::end_turn(&mut scratch, &mut out);
            out
        }
    }
}

/// What a machine destroys where it stands, after combat (17.4): a planet
/// or asteroids, with any colony.
fn destroys(s: &State, m: &Machine) -> Option<Event> {
    let marker = s
        .terrain(m.hex)
        .filter(|k| matches!(k, Marker::Planet | Marker::Barren | Marker::Asteroids));
    let colony = s.colony(m.hex).map(|c| c.owner);
    (marker.is_some() || colony.is_some()).then_some(Event::WorldDestroyed {
        number: m.number,
        at: m.hex,
        marker,
        colony,
    })
}

/// Whether a machine may pass through `h`: any hex of the map but a home
/// system's (17.5; in solitaire it may, rules page).
fn passable(s: &State, h: Hex) -> bool {
    s.board.contains(h) && (s.solitaire() || !matches!(s.board.area(h), Some(Area::Home(_))))
}

/// Whether machine `m` may end its move at `h` (17.3): not unexplored (in
/// solitaire it may, and explores it: rules page), not with another
/// machine.
fn may_end(s: &State, m: &Machine, h: Hex) -> bool {
    passable(s, h)
        && (s.solitaire() || !s.unexplored(h))
        && s.machines.iter().all(|o| o.number == m.number || o.hex != h)
}

/// What draws a machine (17.3): a planet (colonized or not), asteroids or
/// a ship (any counter but Mines).
fn draws(s: &State, h: Hex) -> bool {
    matches!(s.terrain(h), Some(Marker::Planet | Marker::Barren | Marker::Asteroids))
        || s.colony(h).is_some()
        || s.units_at(h).any(|u| u.kind != Kind::Mines)
}

/// Machine `m`'s move (17.3): to the nearest hex within 2 holding a
/// planet, asteroids or a ship (ties drawn at random), else one hex at
/// random (in solitaire, towards the player's homeworld); the hexes
/// entered, in order. Mines in them detonate, harmlessly (17.2).
fn moved(s: &State, m: &Machine) -> Event {
    let mut rng = (*s.rng).clone();
    let path = route(s, m, &mut rng);
    let mines = s
        .units
        .iter()
        .filter(|u| u.kind == Kind::Mines && path.contains(&u.hex))
        .map(|u| u.label)
        .collect();
    Event::MachineMoved {
        number: m.number,
        from: m.hex,
        path,
        mines,
        rng: Box::new(rng),
    }
}

fn route(s: &State, m: &Machine, rng: &mut GameRng) -> Vec<Hex> {
    // Breadth first, 2 hexes deep: each hex's distance and the hex before.
    let mut came: BTreeMap<Hex, (u32, Hex)> = BTreeMap::new();
    let mut frontier = vec![m.hex];
    for depth in 1..=2 {
        let mut next = Vec::new();
        for h in frontier {
            for n in s.neighbours(h) {
                if n != m.hex && passable(s, n) && !came.contains_key(&n) {
                    came.insert(n, (depth, h));
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    let mut nearest: Vec<(u32, Hex)> = came
        .iter()
        .filter(|(h, _)| may_end(s, m, **h) && draws(s, **h))
        .map(|(h, (d, _))| (*d, *h))
        .collect();
    nearest.sort_by_key(|(d, h)| (*d, Board::name_key(*h)));
    let best = nearest.first().map(|(d, _)| *d);
    let ties: Vec<Hex> = nearest
        .iter()
        .filter(|(d, _)| Some(*d) == best)
        .map(|(_, h)| *h)
        .collect();
    if let Some(&to) = rng.pick(&ties) {
        let mut path = vec![to];
        let mut at = to;
        while let Some((_, before)) = came.get(&at) {
            if *before == m.hex {
                break;
            }
            path.push(*before);
            at = *before;
        }
        path.reverse();
        return path;
    }
    // Nothing within 2 hexes: one hex at random, or towards the homeworld.
    let mut steps: Vec<Hex> = s.neighbours(m.hex).into_iter().filter(|h| may_end(s, m, *h)).collect();
    steps.sort_by_key(|h| Board::name_key(*h));
    if s.solitaire() {
        let home = s.board.homeworld(Seat(0));
        let closest = steps.iter().map(|h| h.distance(home)).min();
        steps.retain(|h| Some(h.distance(home)) == closest);
    }
    rng.pick(&steps).map(|h| vec![*h]).unwrap_or_default()
}

/// The round in which solitaire's machine `k` (from 1) arrives: 3, 5, 7
/// (rules page, *Solitaire*).
pub fn arrival_round(k: u32) -> u32 {
    2 * k + 1
}

/// Solitaire: the machine arriving this round, at the empty homeworld hex
/// across the map (the gate), or the first hex next to it free of machines.
pub(super) fn arrival(s: &State) -> Option<Event> {
    if !s.solitaire() {
        return None;
    }
    let k = (1..=s.options.doomsday).find(|k| arrival_round(*k) == s.round)?;
    let gate = s.board.homeworld(Seat(1));
    let free = |h: &Hex| s.board.contains(*h) && s.machine_at(*h).is_none();
    let at = std::iter::once(gate).chain(s.board.neighbours(gate)).find(free)?;
    Some(Event::MachineFound {
        number: k as u8,
        at,
        arrived: true,
    })
}

/// Solitaire's end, once it is reached: won when every machine is
/// destroyed, lost with the homeworld.
pub(super) fn solitaire_over(s: &State) -> Option<Event> {
    if !s.solitaire() || s.outcome.is_some() || s.round == 0 {
        return None;
    }
    if s.machines_destroyed >= s.options.doomsday {
        return Some(Event::GameEnded {
            outcome: Outcome::Winner {
                seat: Seat(0),
                reason: format!(
                    "destroyed every Doomsday Machine ({}) in round {}",
                    s.options.doomsday, s.round
                ),
            },
            scores: vec![(Seat(0), s.score(Seat(0)))],
        });
    }
    if !s.has_homeworld(Seat(0)) {
        return Some(solitaire_lost(s, "a Doomsday Machine destroyed the homeworld".into()));
    }
    None
}

/// Solitaire lost: the machines beat the player.
pub(super) fn solitaire_lost(s: &State, reason: String) -> Event {
    Event::GameEnded {
        outcome: Outcome::AllLose { reason },
        scores: s.seats().map(|x| (x, s.score(x))).collect(),
    }
}
