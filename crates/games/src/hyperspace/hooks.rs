//! What tests and tools need of Hyperspace beyond its rules: the
//! hidden-state scrambler ([`scramble`]).

use super::state::State;
use orrery_engine::{GameRng, Seat};

/// Hyperspace hides nothing but secret picks not yet revealed (the
/// property tests check those on their own): nothing to scramble.
pub fn scramble(_state: &State, _keep: &[Seat], _private_only: bool, _rng: &mut GameRng) -> Option<State> {
    None
}
