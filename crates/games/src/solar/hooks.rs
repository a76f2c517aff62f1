//! What tests and tools need of Solar Crisis beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::orders::Action;
use super::rules::crises::score;
use super::state::State;
use orrery_engine::{GameRng, Seat};

/// Others' hands and the deck's order (a spy looking at a rival's hand
/// with Espionage knows that hand too), and unless `private_only`, the
/// bag's order and the generator (tiles and dice are drawn into the open).
pub fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    let mut s = state.clone();
    let mut keep = keep.to_vec();
    if let Some(t) = s.turn.as_ref().filter(|t| keep.contains(&t.seat)) {
        keep.extend(t.espionage);
    }
    let others: Vec<usize> = (0..s.seats.len()).filter(|i| !keep.contains(&Seat(*i as u8))).collect();
    let mut pool: Vec<_> = s.deck.clone();
    for &i in &others {
        pool.extend(s.seats[i].hand.iter().copied());
    }
    // Drawn anew from the cards in a fixed order, so that the result
    // depends on `rng` and which cards are unseen, never on where they are
    // (the computer player's fairness rests on it: `orrery_engine::bot`).
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    let mut rest = pool.into_iter();
    for &i in &others {
        let n = s.seats[i].hand.len();
        s.seats[i].hand = rest.by_ref().take(n).collect();
    }
    s.deck = rest.collect();
    if !private_only {
        s.bag.sort_unstable();
        rng.shuffle(&mut s.bag);
        s.rng = Box::new(GameRng::seeded(u64::from(rng.below(u32::MAX))));
    }
    Some(s)
}

/// The computer player's hint (`Ruleset::evaluate`), from public state
/// alone: the seat's share of the VP the scoring would give now (rules
/// page, *Scoring and winning*: each planet's places by income there, and
/// the Big Game, Crisis and Alien tiles kept), each player still in the
/// game counted one more. A seat that resigned: 0.
pub fn evaluate(state: &State, seat: Seat) -> f64 {
    let in_play = state.in_play();
    if !in_play.contains(&seat) {
        return 0.0;
    }
    let vp = score(state);
    let of = |s: Seat| f64::from(vp.get(s.index()).copied().unwrap_or(0) + 1);
    let all: f64 = in_play.iter().map(|s| of(*s)).sum();
    of(seat) / all.max(1.0)
}

/// The whole-game tests' player: the first legal order.
pub fn test_order(_state: &State, _seat: Seat, legal: &[Action]) -> Option<Action> {
    legal.first().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solar::basics::board::Planet;
    use crate::solar::tests::kit::{base, seat_mut};

    #[test]
    fn the_hint_is_the_share_of_the_scoring() {
        let mut s = base();
        // Nothing scored yet: all even.
        let even = evaluate(&s, Seat(0));
        assert!((even - 1.0 / 3.0).abs() < 1e-9, "{even}");
        // Seat 1 builds two mines on Mars (6 VP for 1st place there).
        seat_mut(&mut s, 0).planets.entry(Planet::Mars).or_default().mines = 2;
        assert!(evaluate(&s, Seat(0)) > even && evaluate(&s, Seat(1)) < even);
        let sum: f64 = (0..3).map(|i| evaluate(&s, Seat(i))).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        // A seat that resigned is worth nothing.
        s.resigned.push(Seat(2));
        assert_eq!(evaluate(&s, Seat(2)), 0.0);
    }
}
