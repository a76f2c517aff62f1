//! Legality, pending decisions and the automatic flow.

use super::basics::{self, Kind, Situation, Tech, SLOT_COST, UNIVERSAL_COST, WIN_VP};
use super::events::Event;
use super::orders::{unparse, Action, Sources};
use super::state::State;
use orrery_engine::{Outcome, Pending, Rejection, Seat};

pub fn pending(st: &State) -> Vec<Pending> {
    if st.outcome.is_some() || st.players == 0 {
        return vec![];
    }
    let prompt = if st.action_taken {
        "Take Free Actions, buy a tech if you produced science, or end your turn".to_string()
    } else {
        "Take one Action (move, produce, refresh or a tech Action) and any Free Actions, then end your turn".to_string()
    };
    vec![Pending {
        seat: st.active,
        kind: "turn".into(),
        prompt,
        secret: false,
        submitted: false,
        sheet: false,
        undisclosed: false,
    }]
}

pub fn default_action(st: &State, seat: Seat) -> Option<Action> {
    (st.outcome.is_none() && st.active == seat && st.players > 0).then_some(Action::End)
}

// ---- legality ------------------------------------------------------------

fn held(st: &State, seat: Seat) -> Vec<usize> {
    (0..st.forces.len()).filter(|&p| st.holder(p) == Some(seat)).collect()
}

pub(super) fn name(st: &State, p: usize) -> String {
    st.map.planets[p].name.clone()
}

/// Single-source moves to `to` from each of `sources`, every count.
fn moves_from(st: &State, seat: Seat, sources: &[usize]) -> Vec<Sources> {
    let mut out = Vec::new();
    for &s in sources {
        let n = st.forces_of(s, seat);
        for k in 1..=n {
            out.push(vec![(name(st, s), Some(k))]);
        }
    }
    if sources.len() >= 2 {
        out.push(sources.iter().map(|&s| (name(st, s), None)).collect());
    }
    out
}

pub(super) fn adjacent_sources(st: &State, seat: Seat, to: usize) -> Vec<usize> {
    st.map
        .neighbors(to)
        .into_iter()
        .filter(|&p| st.forces_of(p, seat) > 0)
        .collect()
}

fn jump_sources(st: &State, seat: Seat, to: usize) -> Vec<usize> {
    let d = st.map.distances(to);
    (0..st.forces.len())
        .filter(|&p| p != to && d[p].is_some_and(|d| d <= 2) && st.forces_of(p, seat) > 0)
        .collect()
}

pub fn buy_options(st: &State, seat: Seat) -> Vec<(Tech, u32, Option<usize>)> {
    let ps = &st.seats[seat.index()];
    let mut out = Vec::new();
    for &t in &st.universal {
        if !ps.techs.contains(&t) && ps.science >= UNIVERSAL_COST {
            out.push((t, UNIVERSAL_COST, None));
        }
    }
    for (i, slot) in st.market.iter().enumerate() {
        if let Some(t) = slot {
            if !ps.techs.contains(t) && ps.science >= SLOT_COST[i] {
                out.push((*t, SLOT_COST[i], Some(i)));
            }
        }
    }
    out
}

pub fn legal_actions(st: &State, seat: Seat) -> Vec<Action> {
    if st.outcome.is_some() || st.players == 0 || st.active != seat {
        return vec![];
    }
    let mut out = Vec::new();
    let mine = held(st, seat);
    let use_ = |tech, at: Option<usize>, also: Option<usize>, to: Option<usize>, from: Sources| Action::Use {
        tech,
        at: at.map(|p| name(st, p)),
        also: also.map(|p| name(st, p)),
        to: to.map(|p| name(st, p)),
        from,
    };
    if !st.action_taken {
        for to in 0..st.forces.len() {
            for from in moves_from(st, seat, &adjacent_sources(st, seat, to)) {
                out.push(Action::Move { to: name(st, to), from });
            }
        }
        for &p in &mine {
            if !st.exhausted[p] {
                out.push(Action::Produce { at: name(st, p) });
            }
        }
        out.push(Action::Refresh);
        let ready = |t| st.tech_ready(seat, t);
        if ready(Tech::Foundries) {
            for &a in &mine {
                for &b in &mine {
                    if a < b && !st.exhausted[a] && !st.exhausted[b] {
                        out.push(use_(Tech::Foundries, Some(a), Some(b), None, vec![]));
                    }
                }
            }
        }
        if ready(Tech::Jumpgates) {
            for to in 0..st.forces.len() {
                for s in jump_sources(st, seat, to) {
                    for from in moves_from(st, seat, &[s]) {
                        out.push(use_(Tech::Jumpgates, None, None, Some(to), from));
                    }
                }
            }
        }
        if ready(Tech::Overclock) {
            for &p in &mine {
                out.push(use_(Tech::Overclock, Some(p), None, None, vec![]));
            }
        }
        if ready(Tech::Levy) && !mine.is_empty() {
            out.push(use_(Tech::Levy, None, None, None, vec![]));
        }
        if ready(Tech::Grants) {
            out.push(use_(Tech::Grants, None, None, None, vec![]));
        }
    }
    if st.tech_ready(seat, Tech::Logistics) {
        for &to in &mine {
            let srcs: Vec<usize> = adjacent_sources(st, seat, to);
            for s in srcs {
                for from in moves_from(st, seat, &[s]) {
                    out.push(use_(Tech::Logistics, None, None, Some(to), from));
                }
            }
        }
    }
    if st.tech_ready(seat, Tech::Labs) {
        out.push(use_(Tech::Labs, None, None, None, vec![]));
    }
    if st.tech_ready(seat, Tech::Refit) {
        for &p in &mine {
            if st.exhausted[p] {
                out.push(use_(Tech::Refit, Some(p), None, None, vec![]));
            }
        }
    }
    if st.tech_ready(seat, Tech::Conscripts) {
        for &p in &mine {
            out.push(use_(Tech::Conscripts, Some(p), None, None, vec![]));
        }
    }
    if st.may_buy {
        for (t, _, _) in buy_options(st, seat) {
            out.push(Action::Buy { tech: t });
        }
    }
    out.push(Action::End);
    out
}

fn legal_text(st: &State, seat: Seat, pred: impl Fn(&Action) -> bool) -> Vec<String> {
    legal_actions(st, seat)
        .iter()
        .filter(|a| pred(a))
        .map(|a| unparse(a).to_string())
        .collect()
}

fn illegal(st: &State, seat: Seat, reason: impl Into<String>, pred: impl Fn(&Action) -> bool) -> Rejection {
    Rejection::illegal(reason, legal_text(st, seat, pred))
}

fn find_planet(st: &State, _seat: Seat, raw: &str) -> Result<usize, Rejection> {
    st.map.index(raw).ok_or_else(|| {
        Rejection::illegal(
            format!("there is no planet `{raw}`"),
            st.map.planets.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        )
    })
}

fn need(st: &State, seat: Seat, raw: &Option<String>, what: &str, tech: Tech) -> Result<usize, Rejection> {
    match raw {
        Some(r) => find_planet(st, seat, r),
        None => Err(illegal(
            st,
            seat,
            format!("{} needs `{what}:PLANET`", tech.name()),
            |a| matches!(a, Action::Use { tech: t, .. } if *t == tech),
        )),
    }
}

/// Resolve and check sources: each held by `seat`, reachable by `ok`.
fn check_sources(
    st: &State,
    seat: Seat,
    to: usize,
    from: &Sources,
    ok: impl Fn(usize) -> bool,
    pred: impl Fn(&Action) -> bool + Copy,
) -> Result<Vec<(String, u32)>, Rejection> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for (raw, n) in from {
        let p = find_planet(st, seat, raw)?;
        let nm = name(st, p);
        if p == to || out.iter().any(|(x, _)| *x == nm) {
            return Err(illegal(
                st,
                seat,
                format!("{nm} is listed twice or is the destination"),
                pred,
            ));
        }
        if !ok(p) {
            return Err(illegal(
                st,
                seat,
                format!("{nm} is not in reach of {}", name(st, to)),
                pred,
            ));
        }
        let have = st.forces_of(p, seat);
        let k = n.unwrap_or(have);
        if have == 0 || k == 0 || k > have {
            return Err(illegal(
                st,
                seat,
                format!("you have {have} forces at {nm}, cannot move {k}"),
                pred,
            ));
        }
        out.push((nm, k));
    }
    Ok(out)
}

/// The move event and, if the destination is enemy-held, the combat.
fn move_events(st: &State, seat: Seat, to: usize, from: Vec<(String, u32)>, tech: Option<Tech>) -> Vec<Event> {
    let total: u32 = from.iter().map(|(_, n)| n).sum();
    let sources = from.len();
    let mut ev = vec![Event::Moved {
        seat,
        to: name(st, to),
        from,
        tech,
    }];
    if let Some((def, dn)) = st.forces[to] {
        if def != seat {
            let p = &st.map.planets[to];
            let sit = |attacking: bool, own: u32, enemy: u32, home: bool| Situation {
                attacking,
                own_forces: own,
                enemy_forces: enemy,
                sources,
                stars: p.stars,
                science: p.science,
                production: p.production,
                own_home: home,
                exhausted: st.exhausted[to],
            };
            let bonus = |s: Seat, situation: &Situation| -> u32 {
                st.seats[s.index()].techs.iter().map(|t| t.bonus(situation)).sum()
            };
            let ab = bonus(seat, &sit(true, total, dn, false));
            let db = bonus(def, &sit(false, dn, total, p.home == Some(def)));
            let (al, dl) = basics::resolve(total, dn, ab, db);
            ev.push(Event::CombatResolved {
                planet: name(st, to),
                attacker: seat,
                defender: def,
                attacker_forces: total,
                defender_forces: dn,
                attacker_bonus: ab,
                defender_bonus: db,
                attacker_left: al,
                defender_left: dl,
            });
        }
    }
    ev
}

fn produce_events(st: &State, seat: Seat, p: usize) -> Vec<Event> {
    let pl = &st.map.planets[p];
    vec![
        Event::Produced {
            seat,
            planet: pl.name.clone(),
            forces: pl.production,
            science: pl.science,
        },
        Event::PlanetExhausted {
            planet: pl.name.clone(),
        },
    ]
}

pub fn decide(st: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if st.active != seat {
        return Err(Rejection::NotYourDecision {
            seat,
            waiting: crate::waiting_seats(&pending(st)),
        });
    }
    let action_used = |what: &str| {
        illegal(
            st,
            seat,
            format!("you have already taken your Action this turn, so you cannot {what}"),
            |_| true,
        )
    };
    match action {
        Action::Move { to, from } => {
            if st.action_taken {
                return Err(action_used("move"));
            }
            let t = find_planet(st, seat, to)?;
            let pred = |a: &Action| matches!(a, Action::Move { .. });
            let from = check_sources(st, seat, t, from, |p| st.map.adjacent(p, t), pred)?;
            Ok(move_events(st, seat, t, from, None))
        }
        Action::Produce { at } => {
            if st.action_taken {
                return Err(action_used("produce"));
            }
            let p = find_planet(st, seat, at)?;
            let pred = |a: &Action| matches!(a, Action::Produce { .. });
            if st.holder(p) != Some(seat) {
                return Err(illegal(
                    st,
                    seat,
                    format!("you have no forces at {}", name(st, p)),
                    pred,
                ));
            }
            if st.exhausted[p] {
                return Err(illegal(st, seat, format!("{} is exhausted", name(st, p)), pred));
            }
            Ok(produce_events(st, seat, p))
        }
        Action::Refresh => {
            if st.action_taken {
                return Err(action_used("refresh"));
            }
            Ok(vec![Event::Refreshed { seat }])
        }
        Action::Use {
            tech,
            at,
            also,
            to,
            from,
        } => {
            let tech = *tech;
            let pred = move |a: &Action| matches!(a, Action::Use { tech: t, .. } if *t == tech);
            if !st.has(seat, tech) {
                return Err(illegal(st, seat, format!("you do not own {}", tech.name()), |a| {
                    matches!(a, Action::Use { .. })
                }));
            }
            if tech.kind() == Kind::Combat {
                return Err(illegal(
                    st,
                    seat,
                    format!("{} is a combat bonus; it works by itself", tech.name()),
                    |a| matches!(a, Action::Use { .. }),
                ));
            }
            if !st.tech_ready(seat, tech) {
                return Err(illegal(
                    st,
                    seat,
                    format!("{} is exhausted (refresh it)", tech.name()),
                    |a| matches!(a, Action::Use { .. }),
                ));
            }
            if tech.kind() == Kind::Action && st.action_taken {
                return Err(action_used(&format!("use {}", tech.name())));
            }
            let used = Event::TechUsed { seat, tech };
            let mine = |p: usize| st.holder(p) == Some(seat);
            let mut ev = vec![used];
            match tech {
                Tech::Foundries => {
                    let a = need(st, seat, at, "at", tech)?;
                    let b = need(st, seat, also, "also", tech)?;
                    if a == b || !mine(a) || !mine(b) || st.exhausted[a] || st.exhausted[b] {
                        return Err(illegal(
                            st,
                            seat,
                            "Foundries needs two different non-exhausted planets you hold",
                            pred,
                        ));
                    }
                    ev.extend(produce_events(st, seat, a));
                    ev.extend(produce_events(st, seat, b));
                }
                Tech::Overclock => {
                    let a = need(st, seat, at, "at", tech)?;
                    if !mine(a) {
                        return Err(illegal(st, seat, "Overclock needs a planet you hold", pred));
                    }
                    ev.extend(produce_events(st, seat, a));
                }
                Tech::Jumpgates | Tech::Logistics => {
                    let t = need(st, seat, to, "to", tech)?;
                    if from.len() != 1 {
                        return Err(illegal(
                            st,
                            seat,
                            format!("{} moves from exactly one planet", tech.name()),
                            pred,
                        ));
                    }
                    if tech == Tech::Logistics && !mine(t) {
                        return Err(illegal(st, seat, "Logistics moves only to a planet you hold", pred));
                    }
                    let d = st.map.distances(t);
                    let reach = |p: usize| {
                        if tech == Tech::Jumpgates {
                            d[p].is_some_and(|d| d <= 2)
                        } else {
                            st.map.adjacent(p, t)
                        }
                    };
                    let from = check_sources(st, seat, t, from, reach, pred)?;
                    ev.extend(move_events(st, seat, t, from, Some(tech)));
                }
                Tech::Levy => {
                    for p in held(st, seat) {
                        ev.push(Event::ForcesAdded {
                            seat,
                            planet: name(st, p),
                            forces: 1,
                        });
                    }
                }
                Tech::Grants => ev.push(Event::ScienceGained { seat, science: 2 }),
                Tech::Labs => ev.push(Event::ScienceGained { seat, science: 1 }),
                Tech::Refit => {
                    let a = need(st, seat, at, "at", tech)?;
                    if !mine(a) || !st.exhausted[a] {
                        return Err(illegal(st, seat, "Refit needs an exhausted planet you hold", pred));
                    }
                    ev.push(Event::PlanetReadied { planet: name(st, a) });
                }
                Tech::Conscripts => {
                    let a = need(st, seat, at, "at", tech)?;
                    if !mine(a) {
                        return Err(illegal(st, seat, "Conscripts needs a planet you hold", pred));
                    }
                    ev.push(Event::ForcesAdded {
                        seat,
                        planet: name(st, a),
                        forces: 1,
                    });
                }
                _ => unreachable!("combat techs handled above"),
            }
            Ok(ev)
        }
        Action::Buy { tech } => {
            let pred = |a: &Action| matches!(a, Action::Buy { .. });
            if !st.may_buy {
                return Err(illegal(
                    st,
                    seat,
                    "you may buy a tech only right after producing science (once per production)",
                    |a| matches!(a, Action::Produce { .. }),
                ));
            }
            if st.has(seat, *tech) {
                return Err(illegal(st, seat, format!("you already own {}", tech.name()), pred));
            }
            let offered = st.universal.contains(tech) || st.market.contains(&Some(*tech));
            if !offered {
                return Err(illegal(st, seat, format!("{} is not for sale", tech.name()), pred));
            }
            let Some((_, cost, slot)) = buy_options(st, seat).into_iter().find(|(t, _, _)| t == tech) else {
                return Err(illegal(
                    st,
                    seat,
                    format!(
                        "you have {} science, not enough for {}",
                        st.seats[seat.index()].science,
                        tech.name()
                    ),
                    pred,
                ));
            };
            let mut market = st.market;
            if let Some(i) = slot {
                market[i] = None;
            }
            let drawn = st.deck.first().copied();
            let cycled = [drawn, market[0], market[1]];
            Ok(vec![
                Event::TechBought {
                    seat,
                    tech: *tech,
                    cost,
                    slot,
                },
                Event::MarketCycled {
                    market: cycled,
                    discarded: market[2],
                    drawn,
                },
            ])
        }
        Action::End => Ok(end_turn(st, seat)),
    }
}

fn end_turn(st: &State, seat: Seat) -> Vec<Event> {
    let mut ev = vec![Event::TurnEnded { seat }];
    let mut vp: Vec<u32> = st.seats.iter().map(|p| p.vp).collect();
    if st.token == seat {
        // A resigned seat is no longer a player: its stars do not count.
        let stars = st.scoring_stars();
        let best = stars.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..stars.len()).filter(|&i| stars[i] == best).collect();
        let scorer = (best > 0 && leaders.len() == 1).then(|| Seat(leaders[0] as u8));
        ev.push(Event::Scored { seat: scorer, stars });
        if let Some(s) = scorer {
            vp[s.index()] += 1;
            if vp[s.index()] >= WIN_VP {
                ev.push(Event::GameOver {
                    outcome: Outcome::Winner {
                        seat: s,
                        reason: format!("reached {WIN_VP} victory points"),
                    },
                });
                return ev;
            }
        }
        ev.push(Event::TokenPassed {
            to: st.previous_playing(seat),
        });
    }
    ev.extend(turn_passes(st, seat, &vp));
    ev
}

/// The turn passes on from `seat` to the next seat still playing: a new
/// round when it goes round the table, or the end of the game at the
/// round limit.
fn turn_passes(st: &State, seat: Seat, vp: &[u32]) -> Vec<Event> {
    let next = st.next_playing(seat);
    let new_round = next.0 <= seat.0;
    if new_round && st.round >= st.options.rounds {
        return vec![Event::GameOver {
            outcome: round_limit_outcome(st, vp),
        }];
    }
    vec![Event::TurnBegan {
        seat: next,
        round: if new_round { st.round + 1 } else { st.round },
    }]
}

/// Round limit: most VP, then most stars; a remaining tie is shared.
/// Resigned seats are not in the running.
fn round_limit_outcome(st: &State, vp: &[u32]) -> Outcome {
    let stars = st.scoring_stars();
    let key = |s: &Seat| (vp[s.index()], stars[s.index()]);
    let playing = st.playing();
    let best = playing.iter().map(key).max().unwrap_or((0, 0));
    let seats: Vec<Seat> = playing.iter().copied().filter(|s| key(s) == best).collect();
    let reason = format!(
        "round limit ({} rounds): most victory points, then most stars",
        st.options.rounds
    );
    if seats.len() == 1 {
        Outcome::Winner { seat: seats[0], reason }
    } else {
        Outcome::Shared { seats, reason }
    }
}

/// `seat` resigns: its forces stay on the map in civil disorder (they hold
/// their planets and defend as before, but never move, produce or score);
/// it takes no more turns. The scoring token it held passes against turn
/// order to the previous player still playing (no scoring: scoring is at
/// the end of a turn); its turn, if it was its turn, passes to the next
/// one; and when one player is left, that player wins at once.
pub fn resign(st: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
    if st.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    if st.players == 0 || seat.index() >= st.seats.len() {
        return Err(Rejection::illegal("that seat is not playing in this game", vec![]));
    }
    if st.resigned(seat) {
        return Err(Rejection::illegal("that player has already resigned", vec![]));
    }
    let held = held(st, seat);
    let forces = held.iter().map(|&p| st.forces_of(p, seat)).sum();
    let resigned = Event::Resigned {
        seat,
        planets: held.len() as u32,
        forces,
    };
    let mut after = st.clone();
    super::events::apply(&mut after, &resigned);
    let mut ev = vec![resigned];
    if let [last] = after.playing()[..] {
        ev.push(Event::GameOver {
            outcome: Outcome::Winner {
                seat: last,
                reason: "the others resigned".into(),
            },
        });
        return Ok(ev);
    }
    if st.token == seat {
        let to = after.previous_playing(seat);
        let passed = Event::TokenPassed { to };
        super::events::apply(&mut after, &passed);
        ev.push(passed);
    }
    if st.active == seat {
        let vp: Vec<u32> = after.seats.iter().map(|p| p.vp).collect();
        ev.extend(turn_passes(&after, seat, &vp));
    }
    Ok(ev)
}

/// Once the game is over: the players still playing by VP, best first,
/// then the resigned ones.
pub fn standings(st: &State) -> Vec<(Seat, String)> {
    let mut out = crate::shared::standings(st.seats.iter().map(|p| p.vp), |n| format!("{n} VP"));
    out.sort_by_key(|(s, _)| st.resigned(*s));
    for (s, text) in &mut out {
        if st.resigned(*s) {
            *text = format!("resigned ({text})");
        }
    }
    out
}
