//! What tests and tools need of Space Empires beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::basics::{Kind, Tech};
use super::orders::Action;
use super::state::battle::{RetreatRule, ScreenRule, TargetRule};
use super::state::State;
use orrery_engine::{GameRng, Seat};

/// Space Empires: what others' face-down counters hold (type, ships,
/// technology; a decoy stays a decoy and an armed group armed, since
/// blockades and stops show which a counter is, as on the table), the
/// Bases and Ship Yards they built face down (7.6.2), their
/// CP, levels, standing orders, peeks, wreck rolls, research spent and
/// rolled (optional rules 18, 19) and sheets; and unless `private_only`,
/// the fronts of the face-down markers nobody kept has looked at, and the
/// generator. With `private_only` only what never comes out in play
/// changes: CP, wreck rolls, research spent and rolled, and sheets (a battle an order
/// starts shows the groups, and Bases the owner's levels; an opponent's
/// standing orders answer in the open).
pub fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    let mut s = state.clone();
    // Teammates see each other's counters: a kept seat's teammate's are
    // known to it (its other secrets are not: see `counters_known`).
    let others: Vec<Seat> = (0..s.players).map(Seat).filter(|x| !keep.contains(x)).collect();
    let counters_known: Vec<Seat> = (0..s.players)
        .map(Seat)
        .filter(|x| keep.iter().any(|k| s.allied(*k, *x)))
        .collect();
    // The technology categories of the game's rules (an advanced rule's
    // only with its option).
    let techs: Vec<Tech> = Tech::ALL
        .into_iter()
        .filter(|t| t.advanced().is_none_or(|k| s.options.allows(k)))
        .collect();
    for o in &others {
        let e = &mut s.empires[o.index()];
        e.cp = rng.below(31);
        e.wrecks.clear();
        e.research_last = rng.below(8) * 5;
        e.grants_last = rng.below(6);
        e.progress.clear();
        for &t in &techs {
            if rng.below(3) == 0 && t.cost(e.levels.get(t) + 1).is_some() {
                e.progress.push((t, 1 + rng.below(19)));
            }
        }
        if s.sheet.owes(*o) {
            let ready = s.sheet.is_ready(*o);
            let _ = s.sheet.clear(*o);
            let _ = s.sheet.set_ready(*o, ready);
        }
        if private_only {
            continue;
        }
        let e = &mut s.empires[o.index()];
        for &tech in &techs {
            let level = tech.start() + rng.below(tech.top() - tech.start() + 1);
            e.levels.set(tech, level);
        }
        e.standing.auto = rng.below(2) == 0;
        e.standing.target = TargetRule::ALL[rng.below(3) as usize];
        e.standing.retreat = RetreatRule::ALL[rng.below(3) as usize];
        e.standing.screen = ScreenRule::ALL[rng.below(2) as usize];
        e.peeked.clear();
    }
    if private_only {
        return Some(s);
    }
    // A face-down group may be any warship group; Mines stay Mines (what
    // is armed shows: it blockades, 7.1), of any number.
    // Raiders stay Raiders, cloaked as they were (what a viewer cannot see
    // stays unseen; one it sees is a face-down group like any other), of
    // any number and technology.
    for u in s
        .units
        .iter_mut()
        .filter(|u| !u.face_up && !counters_known.contains(&u.owner()))
    {
        if u.kind == Kind::Mines {
            u.ships = 1 + rng.below(6);
        } else if u.kind.is_warship() {
            if u.kind != Kind::Raider {
                u.kind = Kind::WARSHIPS[rng.below(6) as usize];
            }
            u.ships = 1 + rng.below(6);
            u.levels.attack = rng.below(4);
            u.levels.defense = rng.below(4);
            u.levels.tactics = rng.below(4);
            u.levels.moves = 1 + rng.below(7);
        } else if u.kind == Kind::Decoy {
            u.ships = 1 + rng.below(6);
        }
    }
    // Face-down aliens (found by a Cruiser's look, 14.1): nobody knows
    // their types.
    for p in s.spots.iter_mut().filter(|p| p.aliens_hidden) {
        for k in &mut p.aliens {
            *k = Kind::WARSHIPS[rng.below(6) as usize];
        }
    }
    // Bases and Ship Yards built face down since combat last occurred in
    // their hex (text 7.6.2): none, one or two yards, and maybe a Base.
    // Not where others' units are: a Base or yard there would have fought.
    let watched: Vec<_> = s.units.iter().map(|u| (u.hex, u.owner())).collect();
    for c in s
        .colonies
        .iter_mut()
        .filter(|c| others.contains(&c.owner) && !watched.iter().any(|(h, o)| *h == c.hex && *o != c.owner))
    {
        let known_yards = c.yards - c.hidden_yards.min(c.yards);
        let known_base = c.base && !c.hidden_base;
        c.hidden_yards = rng.below(3);
        c.yards = known_yards + c.hidden_yards;
        c.new_yards = c.new_yards.min(c.hidden_yards);
        if !known_base {
            c.hidden_base = rng.below(2) == 0;
            c.base = c.hidden_base;
        }
    }
    // Face-down fronts, shuffled among hexes with the same back.
    let known: Vec<_> = keep.iter().flat_map(|k| s.empires[k.index()].peeked.clone()).collect();
    let backs: Vec<Option<Seat>> = {
        let mut b: Vec<Option<Seat>> = s.spots.iter().map(|p| p.home).collect();
        b.sort();
        b.dedup();
        b
    };
    for back in backs {
        let idx: Vec<usize> = (0..s.spots.len())
            .filter(|i| {
                let p = &s.spots[*i];
                !p.face_up && p.home == back && !known.contains(&p.hex)
            })
            .collect();
        let mut fronts: Vec<_> = idx.iter().map(|i| s.spots[*i].marker).collect();
        rng.shuffle(&mut fronts);
        for (i, m) in idx.into_iter().zip(fronts) {
            s.spots[i].marker = m;
        }
    }
    s.rng = Box::new(GameRng::seeded(u64::from(rng.below(u32::MAX))));
    Some(s)
}

/// The computer player's hint (`Ruleset::evaluate`): the seat's side's
/// share of the scores (rules page, *Winning*); in solitaire, the machines
/// destroyed and the homeworld kept.
pub fn evaluate(s: &State, seat: Seat) -> f64 {
    if s.solitaire() {
        let destroyed = f64::from(s.machines_destroyed) / f64::from(s.options.doomsday.max(1));
        let home = s.colonies_of(seat).find(|c| c.is_home()).map_or(0, |c| c.worth.cp());
        return 0.7 * destroyed + 0.3 * f64::from(home) / f64::from(super::basics::HOMEWORLD_CP);
    }
    let side: u32 = s.side_of(seat).into_iter().map(|x| s.score(x)).sum();
    let all: u32 = s.seats().map(|x| s.score(x)).sum();
    f64::from(side) / f64::from(all.max(1))
}

/// The whole-game tests' player: the first legal order.
pub fn test_order(_state: &State, _seat: Seat, legal: &[Action]) -> Option<Action> {
    legal.first().cloned()
}
