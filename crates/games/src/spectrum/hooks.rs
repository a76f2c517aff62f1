//! What tests and tools need of Spectrum War beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::orders::Action;
use super::state::{Section, State};
use super::view::{sees, sensed};
use orrery_engine::{GameRng, OrderSheet, Seat};

/// Ships no kept seat sees (half of them vanish), others' points,
/// settings, charts, declarations and sheets (in combat, whether they owe
/// one), and unless `private_only`,
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
    // Who owes a combat sheet (who fights) is hidden from everyone but
    // that seat: redraw it for the others, keeping someone owing (a round
    // nobody owes is fought at once, never waited on).
    if matches!(s.section, Section::Combat { .. }) {
        let owing: Vec<Seat> = (0..s.players)
            .map(Seat)
            .filter(|x| {
                if keep.contains(x) {
                    s.sheet.owes(*x)
                } else {
                    !s.out[x.index()] && rng.below(2) == 0
                }
            })
            .collect();
        if !owing.is_empty() {
            let mut sheet = OrderSheet::new(owing);
            for k in keep {
                for line in s.sheet.lines_of(*k).unwrap_or(&[]) {
                    let _ = sheet.add(*k, line.clone());
                }
                let _ = sheet.set_ready(*k, s.sheet.is_ready(*k));
            }
            s.sheet = sheet;
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
