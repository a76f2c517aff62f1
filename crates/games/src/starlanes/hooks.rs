//! What tests and tools need of Starlanes beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::orders::{parse, unparse, Action};
use super::state::State;
use super::Starlanes;
use orrery_engine::{CommandLine, GameRng, Ruleset, Seat};

/// The deck's order and the generator, the only hidden state; both are
/// only ever drawn into the open, so with `private_only` nothing changes.
pub fn scramble(state: &State, _keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    if private_only {
        return None;
    }
    let mut s = state.clone();
    // Drawn anew from the deck's cards in a fixed order, so that the result
    // depends on `rng` and the deck's contents, never on its hidden order
    // (the computer player's fairness rests on it: `orrery_engine::bot`).
    s.deck.sort_unstable();
    rng.shuffle(&mut s.deck);
    s.rng = Box::new(GameRng::seeded(u64::from(rng.below(u32::MAX))));
    Some(s)
}

/// The computer player's hint (`Ruleset::evaluate`): the seat's share of
/// the stars held, each seat counted one more (so an empty board is even).
pub fn evaluate(st: &State, seat: Seat) -> f64 {
    let stars = st.stars();
    let total: u32 = stars.iter().sum::<u32>() + stars.len() as u32;
    f64::from(stars.get(seat.index()).copied().unwrap_or(0) + 1) / f64::from(total.max(1))
}

/// The whole-game tests' player, looking one order ahead: every legal
/// order is tried on a copy of the state through the rules' own `decide`
/// and `apply`, and the one that most improves the seat's position
/// ([`worth`], which reads only what every player sees, never the deck) is
/// given; the turn ends when none does. Ties go to the first in the legal
/// list, so play is deterministic.
pub fn test_order(state: &State, seat: Seat, legal: &[Action]) -> Option<Action> {
    if !Starlanes::pending(state).iter().any(|p| p.seat == seat && !p.submitted) {
        return None;
    }
    let now = worth(state, seat);
    let mut best: Option<(i64, &Action)> = None;
    for a in legal.iter().filter(|a| unparse(a).name != "end") {
        let events = Starlanes::decide(state, seat, a)
            .unwrap_or_else(|e| panic!("the legal order `{}` was refused: {e}", unparse(a)));
        let mut next = state.clone();
        for e in &events {
            Starlanes::apply(&mut next, e);
        }
        let w = worth(&next, seat);
        if w > now && best.is_none_or(|(b, _)| w > b) {
            best = Some((w, a));
        }
    }
    Some(match best {
        Some((_, a)) => a.clone(),
        None => parse(&CommandLine::new("end")).expect("`end` parses"),
    })
}

/// How good a position is for `seat`: victory points above all, then a
/// lead in stars (what scores), planets (science symbols count as planets
/// too), forces (own up, enemy down), production ready to use, science,
/// techs, ready techs.
pub fn worth(st: &State, seat: Seat) -> i64 {
    let me = seat.index();
    let stars = st.stars();
    let rival = stars
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != me)
        .map(|(_, s)| *s)
        .max()
        .unwrap_or(0);
    let lead = i64::from(stars[me]) - i64::from(rival);
    let (mut planets, mut forces, mut enemy, mut ready) = (0i64, 0i64, 0i64, 0i64);
    for (p, f) in st.forces.iter().enumerate() {
        match f {
            Some((s, n)) if *s == seat => {
                planets += 1 + i64::from(st.map.planets[p].science);
                forces += i64::from(*n);
                if !st.exhausted[p] {
                    ready += i64::from(st.map.planets[p].production);
                }
            }
            Some((_, n)) => enemy += i64::from(*n),
            None => {}
        }
    }
    let ps = &st.seats[me];
    let techs = ps.techs.len() as i64;
    let ready_techs = techs - ps.exhausted_techs.len() as i64;
    1000 * i64::from(ps.vp) + 50 * lead + 10 * planets + 3 * forces - 3 * enemy
        + 2 * ready
        + 20 * i64::from(ps.science)
        + 70 * techs
        + ready_techs
}
