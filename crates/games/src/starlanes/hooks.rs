//! What tests and tools need of Starlanes beyond its rules: the
//! hidden-state scrambler ([`scramble`]).

use super::state::State;
use orrery_engine::{GameRng, Seat};

/// The deck's order and the generator, the only hidden state; both are
/// only ever drawn into the open, so with `private_only` nothing changes.
pub fn scramble(state: &State, _keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    if private_only {
        return None;
    }
    let mut s = state.clone();
    rng.shuffle(&mut s.deck);
    s.rng = Box::new(GameRng::seeded(u64::from(rng.below(u32::MAX))));
    Some(s)
}
