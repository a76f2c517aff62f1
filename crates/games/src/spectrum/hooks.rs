//! What tests and tools need of Spectrum War beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::orders::Action;
use super::state::State;
use super::view::{sees, sensed};
use orrery_engine::{GameRng, Seat};

/// Ships no kept seat sees (half of them vanish), others' points,
/// settings, charts, declarations and sheets, and unless `private_only`,
/// the jumps' destinations and the generator.
pub fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    let mut s = state.clone();
    let others: Vec<Seat> = (0..s.players).map(Seat).filter(|x| !keep.contains(x)).collect();
    let seen: Vec<_> = keep.iter().map(|k| (*k, sensed(&s, *k))).collect();
    let unseen: Vec<_> = s
        .ships
        .iter()
        .filter(|x| !seen.iter().any(|(k, sp)| sees(*k, x, sp)))
        .map(|x| x.id)
        .collect();
    for id in unseen {
        if rng.below(2) == 0 {
            s.ships.retain(|x| x.id != id);
        }
    }
    for o in &others {
        let i = o.index();
        s.points[i] = rng.below(60);
        for v in s.settings[i].iter_mut() {
            *v = rng.below(2) == 0;
        }
        s.charts[i].clear();
        s.declared.retain(|d| d.members[0] != *o);
        if s.sheet.owes(*o) {
            let ready = s.sheet.is_ready(*o);
            let _ = s.sheet.clear(*o);
            let _ = s.sheet.set_ready(*o, ready);
        }
    }
    if !private_only {
        s.map.redraw_jumps(rng);
        s.rng = Box::new(GameRng::seeded(u64::from(rng.below(u32::MAX))));
    }
    Some(s)
}

/// The whole-game tests' player: the first legal order.
pub fn test_order(_state: &State, _seat: Seat, legal: &[Action]) -> Option<Action> {
    legal.first().cloned()
}
