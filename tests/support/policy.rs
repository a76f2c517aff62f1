//! How the test players choose their orders: each game's own test player
//! ([`orrery::engine::Ruleset::test_order`], in the game folder's
//! `hooks`), built from the seat's legal orders and what it can see.

use orrery::engine::{CommandLine, Seat};
use orrery::games::AnyState;

/// The order `seat` gives now, if it owes one.
pub fn choose(state: &AnyState, seat: Seat) -> Option<CommandLine> {
    state.test_order(seat)
}
