//! What tests and tools need of Solar Crisis beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::orders::Action;
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

/// The whole-game tests' player: the first legal order.
pub fn test_order(_state: &State, _seat: Seat, legal: &[Action]) -> Option<Action> {
    legal.first().cloned()
}
