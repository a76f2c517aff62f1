//! What tests and tools need of Space Empires beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::basics::{Kind, Label, Levels, Marker, Tech, Worth};
use super::orders::Action;
use super::rules::economy::Forecast;
use super::state::battle::{RetreatRule, ScreenRule, TargetRule};
use super::state::{Phase, State, Unit};
use orrery_engine::{GameRng, Hex, Seat};

/// Space Empires: what others' face-down counters hold (type, ships,
/// technology; a decoy stays a decoy and an armed group armed, since
/// blockades and stops show which a counter is, as on the table), the
/// Bases and Ship Yards they built face down (7.6.2), their
/// CP, levels, standing orders, peeks, wreck rolls, research spent and
/// rolled (optional rules 18, 19) and sheets; and unless `private_only`,
/// the fronts of the face-down markers nobody kept has looked at, the
/// Raiders cloaked against every kept seat (gone: nobody kept knows they
/// exist), and the generator. With `private_only` only what never comes
/// out in play changes: CP, wreck rolls, research spent and rolled, and
/// sheets (a battle an order starts shows the groups, and Bases the
/// owner's levels; an opponent's standing orders answer in the open).
///
/// Without `private_only` the result is canonical: it depends on `rng` and
/// on what the kept seats know, never on the hidden values themselves
/// (every hidden value is overwritten by a draw that does not read it, and
/// hidden fronts are dealt from a sorted pool), which the computer
/// player's fairness rests on (`orrery_engine::bot`).
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
        if !private_only {
            // Levels before research in progress, which depends on them.
            for &tech in &techs {
                let level = tech.start() + rng.below(tech.top() - tech.start() + 1);
                e.levels.set(tech, level);
            }
        }
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
        e.standing.auto = rng.below(2) == 0;
        e.standing.target = TargetRule::ALL[rng.below(3) as usize];
        e.standing.retreat = RetreatRule::ALL[rng.below(3) as usize];
        e.standing.screen = ScreenRule::ALL[rng.below(2) as usize];
        e.peeked.clear();
        e.peeked_now.clear();
    }
    if private_only {
        return Some(s);
    }
    // Raiders cloaked against every kept seat (the public: against every
    // player): nobody kept knows they exist, so they are not in the world
    // (but for one in a battle or a combat due, which stays as it is).
    let busy: Vec<Hex> = s
        .fighting
        .into_iter()
        .chain(s.combat_due.iter().copied())
        .chain(s.ambush.iter().copied())
        .collect();
    let unseen = |s: &State, u: &Unit| {
        !counters_known.contains(&u.owner())
            && !busy.contains(&u.hex)
            && if keep.is_empty() {
                s.hidden_from(u, None)
            } else {
                keep.iter().all(|k| s.hidden_from(u, Some(*k)))
            }
    };
    let gone: Vec<Label> = s.units.iter().filter(|u| unseen(&s, u)).map(|u| u.label).collect();
    s.units.retain(|u| !gone.contains(&u.label));
    s.queued.retain(|(l, _)| !gone.contains(l));
    // A face-down group may be any warship group (a Raider seen is a
    // face-down group like any other); Mines stay Mines (what is armed
    // shows: it blockades, 7.1), decoys decoys, of any number.
    for u in s
        .units
        .iter_mut()
        .filter(|u| !u.face_up && !counters_known.contains(&u.owner()))
    {
        if u.kind == Kind::Mines || u.kind == Kind::Decoy {
            u.ships = 1 + rng.below(6);
            u.levels = Levels::default();
        } else if u.kind.is_warship() {
            u.kind = Kind::WARSHIPS[rng.below(6) as usize];
            u.ships = 1 + rng.below(6);
            u.levels = Levels::default();
            u.levels.attack = rng.below(4);
            u.levels.defense = rng.below(4);
            u.levels.tactics = rng.below(4);
            // At least the Move level it has been seen to use (9.9).
            u.levels.moves = (1 + rng.below(7)).max(u.move_shown.unwrap_or(0));
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
    // The yards new this turn that others see stay new; hidden ones are
    // drawn as old.
    let watched: Vec<_> = s.units.iter().map(|u| (u.hex, u.owner())).collect();
    for c in s
        .colonies
        .iter_mut()
        .filter(|c| others.contains(&c.owner) && !watched.iter().any(|(h, o)| *h == c.hex && *o != c.owner))
    {
        let seen = c.as_seen();
        c.hidden_yards = rng.below(3);
        c.yards = seen.yards + c.hidden_yards;
        c.new_yards = seen.new_yards;
        if !seen.base {
            c.hidden_base = rng.below(2) == 0;
            c.base = c.hidden_base;
        }
    }
    // Face-down fronts, dealt anew among hexes with the same back from the
    // fronts in a fixed order.
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
        fronts.sort_unstable();
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
    let side: f64 = s.side_of(seat).into_iter().map(|x| outlook(s, x)).sum();
    let all: f64 = s.seats().map(|x| outlook(s, x)).sum();
    side / all.max(1.0)
}

/// What `seat`'s score would come to at the end if nothing but growth
/// changed: its score now, the income of every Economic Phase still to
/// come (each colony's as it grows, minerals and pipelines' as they are,
/// less maintenance), the growth of its colonies' worth, and for each
/// Colony Ship the colony it could found on the nearest planet it knows
/// that nobody holds nor another of its Colony Ships is bound for (at 3
/// hexes a round). So a colony is worth more the sooner it is founded, a
/// Colony Ship is worth more than its price while a planet waits for it,
/// and a warship costs its upkeep for the rest of the game (the score
/// alone counts a ship at its price, whatever it costs to keep).
fn outlook(s: &State, seat: Seat) -> f64 {
    let left = s.options.rounds.saturating_sub(s.round) + u32::from(s.phase != Phase::Economic);
    let f = Forecast::of(s, seat);
    let steady = i64::from(f.mineral_income + f.trade_income) - i64::from(f.maintenance);
    let mut total = i64::from(s.score(seat)) + i64::from(left) * steady;
    for c in s.colonies_of(seat) {
        let (income, grown) = growing(c.worth, left);
        let paid = if s.blockaded(c) { 0 } else { income };
        let weight = if c.is_home() { 2 } else { 1 };
        total += i64::from(paid) + weight * (i64::from(grown.cp()) - i64::from(c.worth.cp()));
    }
    // Free known planets, with their terrain (a Barren planet needs
    // terraforming).
    let mut free: Vec<(Hex, Marker)> = s
        .spots
        .iter()
        .filter(|p| p.face_up && matches!(p.marker, Marker::Planet | Marker::Barren) && s.colony(p.hex).is_none())
        .map(|p| (p.hex, p.marker))
        .collect();
    for u in s.units_of(seat).filter(|u| u.kind == Kind::ColonyShip) {
        let reachable = |marker: Marker| marker == Marker::Planet || u.levels.terraform > 0;
        let Some(i) = (0..free.len())
            .filter(|i| reachable(free[*i].1))
            .min_by_key(|i| (free[*i].0.distance(u.hex), *i))
        else {
            continue;
        };
        let rounds = u32::try_from(free[i].0.distance(u.hex)).unwrap_or(0).div_ceil(3);
        free.swap_remove(i);
        // The colony's income and worth, less nothing: a colony counts 8
        // and its worth in the score, as the Colony Ship's price did.
        let (income, grown) = growing(Worth::New, left.saturating_sub(rounds));
        total += i64::from(income + grown.cp());
    }
    total.max(0) as f64
}

/// A colony of `worth`'s income over `phases` Economic Phases and its
/// worth after them (it grows after each phase's income, text 7.7).
fn growing(mut worth: Worth, phases: u32) -> (u32, Worth) {
    let mut income = 0;
    for _ in 0..phases {
        income += worth.cp();
        worth = worth.grown();
    }
    (income, worth)
}

/// The whole-game tests' player: the first legal order.
pub fn test_order(_state: &State, _seat: Seat, legal: &[Action]) -> Option<Action> {
    legal.first().cloned()
}
