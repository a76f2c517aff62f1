//! What tests and tools need of Spectrum War beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::basics::ships::{Class, Ship};
use super::basics::{ShipId, Space};
use super::orders::Action;
use super::rules::turn::in_a_fight;
use super::state::{Section, State, TO_WIN};
use super::view::{sees, sensed};
use orrery_engine::{GameRng, OrderSheet, Seat};

/// Ships no kept seat sees (gone; in their stead, a ship of a random
/// class at each planet of another player out of the kept seats' sensors,
/// one time in two), whether others' ships moved this turn, others'
/// points, settings, charts, declarations and sheets (in combat, who owes
/// one: those who fight in the world drawn), and unless `private_only`,
/// the jumps the kept seats have not charted and the generator.
///
/// The result is canonical: it depends on `rng` and on what the kept seats
/// know, never on what they cannot (hidden values are overwritten by
/// draws that do not read them; unseen ships are replaced, not kept),
/// which the computer player's fairness rests on (`orrery_engine::bot`).
pub fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    let mut s = state.clone();
    let others: Vec<Seat> = (0..s.players).map(Seat).filter(|x| !keep.contains(x)).collect();
    let seen: Vec<_> = keep.iter().map(|k| (*k, sensed(&s, *k))).collect();
    let sensed_by_kept = |sp: &Space| seen.iter().any(|(_, spaces)| spaces.contains(sp));
    s.ships.retain(|x| seen.iter().any(|(k, sp)| sees(*k, x, sp)));
    for i in 0..s.planets.len() {
        let Some(owner) = s.planets[i].owner.filter(|o| !keep.contains(o)) else {
            continue;
        };
        let at = s.map.planets[i].space;
        if sensed_by_kept(&at) || rng.below(2) != 0 {
            continue;
        }
        let class = Class::ALL[rng.below(Class::ALL.len() as u32) as usize];
        let colour = s.colour(owner);
        if let Some(&number) = s.free_numbers(colour).first() {
            s.ships.push(Ship::new(ShipId { colour, number }, owner, class, at));
        }
    }
    s.ships.sort_by_key(|x| x.id);
    s.moved
        .retain(|id| s.ships.iter().any(|x| x.id == *id && keep.contains(&x.owner)));
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
    // that seat: the others owe one when they fight in the world drawn
    // (someone owes: a round nobody owes is fought at once, never waited
    // on).
    if matches!(s.section, Section::Combat { .. }) {
        let mut owing: Vec<Seat> = (0..s.players)
            .map(Seat)
            .filter(|x| {
                if keep.contains(x) {
                    s.sheet.owes(*x)
                } else {
                    !s.out[x.index()] && in_a_fight(&s, *x)
                }
            })
            .collect();
        if owing.is_empty() {
            let alive: Vec<Seat> = others.iter().copied().filter(|x| !s.out[x.index()]).collect();
            owing.extend(rng.pick(&alive).copied());
        }
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
        let charted: Vec<_> = keep.iter().flat_map(|k| s.charts[k.index()].clone()).collect();
        s.map.redraw_jumps(&charted, rng);
        s.rng = Box::new(GameRng::seeded(u64::from(rng.below(u32::MAX))));
    }
    Some(s)
}

/// The computer player's hint (`Ruleset::evaluate`), from public state
/// alone (planets' owners and the runs of turns at 25+; rules page,
/// *Winning*): the seat's share of the planets held, each player in the
/// war counted one more; holding 25 or more, at least 0.6 and 0.1 more a
/// turn of its run (three in a row win). Out of the war: 0.
pub fn evaluate(st: &State, seat: Seat) -> f64 {
    if st.out.get(seat.index()).copied().unwrap_or(true) {
        return 0.0;
    }
    let alive = st.in_the_war();
    let all: usize = alive.iter().map(|x| st.planets_of(*x) + 1).sum();
    let held = st.planets_of(seat);
    let share = (held + 1) as f64 / all.max(1) as f64;
    if held >= TO_WIN {
        let run = st.runs.get(seat.index()).copied().unwrap_or(0);
        share.max(0.6 + 0.1 * f64::from(run.min(3)))
    } else {
        share
    }
}

/// The whole-game tests' player: the first legal order.
pub fn test_order(_state: &State, _seat: Seat, legal: &[Action]) -> Option<Action> {
    legal.first().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::Spectrum;
    use orrery_engine::{GameConfig, Ruleset};

    #[test]
    fn the_hint_is_the_share_of_planets() {
        let events = Spectrum::setup(&GameConfig::new(2, 3)).expect("set-up");
        let mut s = Spectrum::fold(&events);
        let even = evaluate(&s, Seat(0));
        assert!((even - evaluate(&s, Seat(1))).abs() < 1e-9, "{even}");
        // Seat 1 takes every unowned planet but one.
        let free: Vec<usize> = (0..s.planets.len()).filter(|i| s.planets[*i].owner.is_none()).collect();
        for i in &free[1..] {
            s.planets[*i].owner = Some(Seat(0));
        }
        assert!(s.planets_of(Seat(0)) >= TO_WIN);
        assert!(evaluate(&s, Seat(0)) >= 0.6 && evaluate(&s, Seat(1)) < 0.1);
        s.runs[0] = 2;
        assert!(evaluate(&s, Seat(0)) >= 0.8);
        s.out[1] = true;
        assert_eq!(evaluate(&s, Seat(1)), 0.0);
    }
}
