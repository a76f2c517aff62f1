//! The combat phase's rules: the `combat` decision's legal orders and
//! their checking, battles begun, answered (by hand or by standing
//! orders), retreats, colony fire, and the phase carried on by itself.

use super::super::basics::ships_word;
use super::super::basics::{Dir, Kind, Label, Marker, COUNTERS_PER_TYPE};
use super::super::events::{push, Event};
use super::super::orders::{Action, ScrapWhat, StandingEdit};
use super::super::state::battle::{
    self, choose_screen, colony_fire_to_hit, colony_volley, Action as BattleAction, Ask, Battle, Carried, Fighter,
    Side, Target, Terrain,
};
use super::super::state::{Phase, State};
use super::mines;
use super::movement::{self, explore, next_exploration};
use super::{combat_hexes, combat_seat, d10, end_player_turn, hex, label_text, own_unit, seat_side, side_seat};
use orrery_engine::{GameRng, Hex, Outcome, Seat};

pub(super) fn combat_prompt(s: &State) -> String {
    match &s.battle {
        Some(b) => {
            let mut t = format!(
                "Battle at {}, firing round {}. ",
                s.board.name(b.hex()),
                b.round().max(1)
            );
            match b.ask() {
                Some(super::super::state::battle::Ask::Screen { max_ships, .. }) => t.push_str(&format!(
                    "You may screen up to {}, then say you are done, or fire at once.", ships_word(max_ships)
                )),
                Some(super::super::state::battle::Ask::Fire {
                    side: Side::Defender, ..
                }) if b.aliens() => {
                    let run: Vec<String> = b
                        .run(Side::Defender)
                        .into_iter()
                        .map(|i| {
                            let shots: Vec<String> = b
                                .targets(i)
                                .into_iter()
                                .map(|t| format!("{} on {}", b.fighter(t).id, b.to_hit(i, t).max(1)))
                                .collect();
                            format!("{} {} (hits {} or less)", b.fighter(i).kind.name(), b.fighter(i).id, shots.join(", "))
                        })
                        .collect();
                    t.push_str(&format!(
                        "You choose the aliens' targets (rule 14.2: the player to the left of the active player): {}. \
                         Fire each at a ship of the attacker, or let your standing orders choose.",
                        run.join("; ")
                    ));
                }
                Some(super::super::state::battle::Ask::Fire { side, .. }) => {
                    let run: Vec<String> = b
                        .run(side)
                        .into_iter()
                        .map(|i| {
                            let f = b.fighter(i);
                            let shots: Vec<String> = b
                                .targets(i)
                                .into_iter()
                                .map(|t| format!("{} on {}", b.fighter(t).id, b.to_hit(i, t).max(1)))
                                .collect();
                            let n = b.fireable(i);
                            format!(
                                "{} {} with {n} ship{} (hits {} or less)",
                                f.kind.name(),
                                f.id,
                                if n == 1 { "" } else { "s" },
                                shots.join(", ")
                            )
                        })
                        .collect();
                    t.push_str(&format!(
                        "Your turn to fire: {}. Fire, retreat, or let your standing orders fight.",
                        run.join("; ")
                    ));
                }
                None => {}
            }
            t
        }
        None => match s.fighting {
            Some(at) => format!(
                "The enemy colony at {} may be fired on: fire at it or hold your fire (or let your standing orders fight).",
                s.board.name(at)
            ),
            None => {
                format!(
                    "Choose your next battle: {} (or let your standing orders fight).",
                    s.board.list(&s.combat_due)
                )
            }
        },
    }
}

pub(super) fn combat_options(s: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    match &s.battle {
        Some(b) => match b.ask() {
            Some(Ask::Screen { max_ships, .. }) => {
                let noted: u32 = s.screening.iter().map(|(_, n)| n).sum();
                if noted < max_ships {
                    for f in b.fighters().iter().filter(|f| f.side == seat_side(s, seat)) {
                        if let Target::Group(l) = f.id {
                            let already = s.screening.iter().any(|(t, _)| *t == f.id);
                            if f.ships > 0 && !already && f.ships <= max_ships - noted {
                                out.push(Action::Screen {
                                    unit: label_text(l),
                                    ships: None,
                                    damaged: false,
                                });
                            }
                            if f.ships > 1 && f.damage > 0 && !already && free_counter(s, seat, f.kind) {
                                out.push(Action::Screen {
                                    unit: label_text(l),
                                    ships: Some(1),
                                    damaged: true,
                                });
                            }
                        }
                    }
                }
                out.push(Action::Done);
            }
            Some(Ask::Fire { side, .. }) => {
                for i in b.run(side) {
                    let f = b.fighter(i);
                    let unit = f.id.to_string();
                    if b.fireable(i) > 0 {
                        for t in b.targets(i) {
                            out.push(Action::Fire {
                                unit: unit.clone(),
                                at: b.fighter(t).id.to_string(),
                                ships: None,
                            });
                        }
                    }
                    if b.may_retreat(i) {
                        for to in retreat_hexes(s, seat, b.hex()) {
                            out.push(Action::Retreat {
                                unit: unit.clone(),
                                to: s.board.name(to),
                                ships: None,
                            });
                        }
                    }
                    if b.fireable(i) == 0 {
                        out.push(Action::Hold { unit });
                    }
                }
            }
            None => {}
        },
        None => match s.fighting {
            Some(at) => {
                for u in colony_shooters(s, at) {
                    out.push(Action::Fire {
                        unit: label_text(u),
                        at: "colony".into(),
                        ships: None,
                    });
                    out.push(Action::Hold { unit: label_text(u) });
                }
            }
            None => {
                for at in &s.combat_due {
                    out.push(Action::Battle { at: s.board.name(*at) });
                }
            }
        },
    }
    // Towing and depositing, at any time in the attacker's own turn.
    if s.phase == Phase::Combat && s.active_seat() == Some(seat) {
        for u in s.units_of(seat) {
            if movement::tow(s, u.label).is_ok() {
                out.push(Action::Tow {
                    unit: label_text(u.label),
                });
            }
            if movement::deposit(s, seat, u.label).is_ok() {
                out.push(Action::Deposit {
                    unit: label_text(u.label),
                });
            }
        }
    }
    out.push(Action::Auto);
    out
}

/// Hexes a ship of `seat` may retreat to from a battle at `from` (text
/// 5.9.2), best first: adjacent, explored, no enemy unit or colony, not a
/// Super Nova, and "equally distant or closer to one of its colonies than
/// the hex that it is retreating from" (any one of `seat`'s colonies other
/// than one in the battle hex); nearest to a colony first, then in
/// direction order.
pub fn retreat_hexes(s: &State, seat: Seat, from: Hex) -> Vec<Hex> {
    let colonies: Vec<Hex> = s.colony_hexes(seat).into_iter().filter(|h| *h != from).collect();
    let dist = |h: Hex| colonies.iter().map(|c| c.distance(h)).min();
    let toward_one = |h: Hex| colonies.is_empty() || colonies.iter().any(|c| c.distance(h) <= c.distance(from));
    let mut out: Vec<(Option<i32>, usize, Hex)> = Dir::ALL
        .into_iter()
        .enumerate()
        .map(|(i, d)| (i, from.add(d.step())))
        // The far end of a Warp Point, adjacent "in every way, including
        // retreats" (optional rule 16.5).
        .chain(s.warp_exit(from).map(|h| (Dir::ALL.len(), h)))
        .filter(|(_, h)| {
            s.board.contains(*h)
                && !s.unexplored(*h)
                && s.terrain(*h) != Some(Marker::SuperNova)
                && s.enemies_at(seat, *h).is_empty()
                && s.machine_at(*h).is_none()
                && s.units_at(*h).all(|u| s.allied(u.owner(), seat))
                && s.colony(*h).is_none_or(|c| s.allied(c.owner, seat))
                && toward_one(*h)
        })
        .map(|(i, h)| (dist(h), i, h))
        .collect();
    out.sort();
    out.into_iter().map(|(_, _, h)| h).collect()
}

/// The attacker's armed groups at `at` that may still fire at the enemy
/// colony there this combat phase.
fn colony_shooters(s: &State, at: Hex) -> Vec<Label> {
    let Some(attacker) = s.active_seat() else {
        return Vec::new();
    };
    s.units_at(at)
        .filter(|u| u.owner() == attacker && u.armed() && !s.colony_fired.contains(&u.label))
        .map(|u| u.label)
        .collect()
}

pub(super) fn standing(s: &State, seat: Seat, edit: &StandingEdit) -> Event {
    let mut st = s.empire(seat).standing;
    if let Some(a) = edit.auto {
        st.auto = a;
    }
    if let Some(t) = edit.target {
        st.target = t;
    }
    if let Some(r) = edit.retreat {
        st.retreat = r;
    }
    if let Some(x) = edit.screen {
        st.screen = x;
    }
    if let Some(c) = edit.colonies {
        st.colonies = c;
    }
    if let Some(r) = edit.revealed {
        st.revealed = r;
    }
    Event::StandingSet { seat, standing: st }
}

pub(super) fn combat_order(s: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, String> {
    if let Action::Auto = action {
        return Ok(auto_until_another(s, seat));
    }
    match &s.battle {
        Some(b) => battle_order(s, seat, b, action),
        None => match s.fighting {
            Some(at) => colony_order(s, seat, at, action),
            None => match action {
                Action::Battle { at } => {
                    let h = hex(s, at)?;
                    if !s.combat_due.contains(&h) {
                        let due: Vec<String> = s.combat_due.iter().map(|h| s.board.name(*h)).collect();
                        return Err(format!("no battle is due at {at}; due: {}", due.join(", ")));
                    }
                    Ok(start_at(s, h))
                }
                _ => Err("first choose where to fight next: `battle at:HEX`".into()),
            },
        },
    }
}

/// An order of the active player's own turn given in their combat phase,
/// while the game waits on them: `scrap` (text 7.3.2: "at any time during
/// his turn"), `tow` and `deposit` (text 6.7.2: "it may be done at any
/// time"). A unit scuttled while fighting leaves the battle (`apply`); a
/// hex whose combat was still due and that no longer has one (the
/// player's last units there scuttled) is passed over.
pub(super) fn turn_order_in_combat(s: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, String> {
    let events = match action {
        Action::Tow { unit } => movement::tow(s, own_unit(s, seat, unit)?)?,
        Action::Deposit { unit } => movement::deposit(s, seat, own_unit(s, seat, unit)?)?,
        Action::Scrap {
            what: ScrapWhat::Unit(u),
            ..
        } => movement::scrap_unit(s, own_unit(s, seat, u)?)?,
        Action::Scrap {
            what: ScrapWhat::At { at, what },
            ..
        } => movement::scrap_at(s, seat, hex(s, at)?, *what)?,
        _ => return Err("not an order of your turn".into()),
    };
    let mut scratch = s.clone();
    let mut out = Vec::new();
    for e in events {
        push(&mut scratch, &mut out, e);
    }
    let due = combat_hexes(&scratch, seat);
    let busy = [scratch.fighting, scratch.battle.as_ref().map(|b| b.hex())];
    for h in &s.combat_due {
        if !due.contains(h) && !busy.contains(&Some(*h)) {
            out.push(Event::ColonyFireEnded { at: *h });
        }
    }
    Ok(out)
}

/// Whether `seat` has a counter of `kind` left for a new group (7.5.4).
fn free_counter(s: &State, seat: Seat, kind: Kind) -> bool {
    s.counters_of(seat, kind) < COUNTERS_PER_TYPE
}

/// A fighter of `seat`'s side named by an order.
fn own_fighter(s: &State, seat: Seat, b: &Battle, text: &str) -> Result<usize, String> {
    let side = seat_side(s, seat);
    let t = Target::parse(text, seat).ok_or_else(|| format!("`{text}` is not a counter, `base` or `yard`"))?;
    b.find(side, &t)
        .filter(|i| b.fighter(*i).ships > 0)
        .ok_or_else(|| format!("{t} is not one of your units in this battle"))
}

fn battle_order(s: &State, seat: Seat, b: &Battle, action: &Action) -> Result<Vec<Event>, String> {
    let side = seat_side(s, seat);
    let ask = b.ask().ok_or("the battle is over")?;
    let mut out = Vec::new();
    let mut scratch = s.clone();
    // A side that fires first while it may screen has screened what it noted.
    if let (Ask::Screen { .. }, Action::Fire { .. } | Action::Retreat { .. } | Action::Done) = (ask, action) {
        let e = fought(s, BattleAction::Screen(s.screening.clone()), Vec::new(), s.rng.clone());
        push(&mut scratch, &mut out, e);
        if let Action::Done = action {
            return Ok(out);
        }
    }
    let b = scratch.battle.clone().ok_or("the battle is over")?;
    match action {
        Action::Screen { unit, ships, damaged } => {
            let Ask::Screen { max_ships, .. } = ask else {
                return Err("screening is chosen at the start of a firing round, by the larger side".into());
            };
            let i = own_fighter(s, seat, &b, unit)?;
            let f = b.fighter(i);
            if !f.kind.is_warship() {
                return Err("only ships are screened, not Bases or Ship Yards".into());
            }
            if s.screening.iter().any(|(t, _)| *t == f.id) {
                return Err(format!("{} is noted for screening already", f.id));
            }
            let n = ships.unwrap_or(if *damaged { 1 } else { f.ships });
            if n > f.ships {
                return Err(format!("{} has {}", f.id, ships_word(f.ships)));
            }
            let noted: u32 = s.screening.iter().map(|(_, n)| n).sum();
            if noted + n > max_ships {
                return Err(format!(
                    "you may screen {} this round (the difference in combat-capable units); {noted} noted",
                    ships_word(max_ships)
                ));
            }
            if !*damaged || n == f.ships {
                out.push(Event::ScreenNoted { target: f.id, ships: n });
                return Ok(out);
            }
            // Text 5.6: "If otherwise able, a damaged ship may be split off
            // into a separate group and ... be screened".
            if f.damage == 0 {
                return Err(format!("{} has no damaged ship", f.id));
            }
            if !free_counter(s, seat, f.kind) {
                return Err(format!(
                    "you have no free {} counter to split the damaged ship off into",
                    f.kind.name()
                ));
            }
            let mut rng = (*s.rng).clone();
            let new = s.fresh_label(seat, &mut rng);
            out.push(Event::DamagedSplit {
                fighter: i,
                new,
                said: format!("The damaged ship of {} is split off as {new}.", f.id),
                rng: Box::new(rng),
            });
            out.push(Event::ScreenNoted {
                target: Target::Group(new),
                ships: 1,
            });
            if n > 1 {
                out.push(Event::ScreenNoted {
                    target: f.id,
                    ships: n - 1,
                });
            }
            Ok(out)
        }
        Action::Fire { unit, at, ships } => {
            let i = own_fighter(s, seat, &b, unit)?;
            let enemy = side_seat(s, side.other());
            let t =
                Target::parse(at, enemy).ok_or_else(|| format!("`{at}` is not an enemy counter, `base` or `yard`"))?;
            if !b.run(side).contains(&i) {
                // A rule that forbids the shot whenever it comes (Fighters
                // and a Doomsday Machine) says more than the firing order.
                if let Some(why) = b.find(side.other(), &t).and_then(|ti| b.why_not_target(i, ti)) {
                    return Err(format!("{at} is not an enemy {} may fire at ({why})", b.fighter(i).id));
                }
                return Err(format!("it is not {}'s place in the firing order", b.fighter(i).id));
            }
            let ti = b
                .find(side.other(), &t)
                .filter(|ti| b.targets(i).contains(ti))
                .ok_or_else(|| {
                    let legal: Vec<String> = b.targets(i).iter().map(|t| b.fighter(*t).id.to_string()).collect();
                    let why = b.find(side.other(), &t).and_then(|ti| b.why_not_target(i, ti));
                    format!(
                        "{at} is not an enemy {} may fire at{}; it may fire at {}",
                        b.fighter(i).id,
                        why.map(|w| format!(" ({w})")).unwrap_or_default(),
                        legal.join(", ")
                    )
                })?;
            let can = b.fireable(i);
            let n = ships.unwrap_or(can);
            if n == 0 || n > can {
                return Err(format!("{} has {} that may fire now", b.fighter(i).id, ships_word(can)));
            }
            out.push(volley(&scratch, &b, i, b.fighter(ti).id, n));
            Ok(out)
        }
        Action::Retreat { unit, to, ships } => {
            let i = own_fighter(s, seat, &b, unit)?;
            if b.would_orphan(i) {
                let (squadrons, room) = b.squadrons_and_room(b.fighter(i).side);
                return Err(format!(
                    "{} may not retreat: your {squadrons} Fighter Squadrons here need Carriers (room for {room}) \
                     or a colony of yours to stay with (text 11.1.2)",
                    b.fighter(i).id
                ));
            }
            if b.fighter(i).kind.carried() {
                return Err("Fighter Squadrons leave a battle only on retreating Carriers (text 11.2.4)".into());
            }
            if !b.may_retreat(i) {
                return Err(format!(
                    "{} may not retreat now: from firing round 2 (a cloaked Raider from round 1), at its place in the order, warship groups only",
                    b.fighter(i).id
                ));
            }
            let h = hex(s, to)?;
            let legal = retreat_hexes(s, seat, b.hex());
            if !legal.contains(&h) {
                let names: Vec<String> = legal.iter().map(|h| s.board.name(*h)).collect();
                return Err(if names.is_empty() {
                    "there is no hex to retreat to: adjacent, explored, without enemies, no farther from your colonies"
                        .into()
                } else {
                    format!("{to} is not a retreat hex; legal: {}", names.join(", "))
                });
            }
            let f = b.fighter(i);
            let n = ships.unwrap_or(f.ships - f.fired);
            if n == 0 || n > f.ships - f.fired {
                return Err(format!(
                    "{} has {} that may retreat",
                    f.id,
                    ships_word(f.ships - f.fired)
                ));
            }
            out.extend(retreat(&scratch, &b, i, n, h));
            Ok(out)
        }
        Action::Hold { unit } => {
            let i = own_fighter(s, seat, &b, unit)?;
            if b.fireable(i) > 0 {
                return Err(format!("{} may fire: give it a target (or `auto`)", b.fighter(i).id));
            }
            out.push(fought(s, BattleAction::Hold { fighter: i }, Vec::new(), s.rng.clone()));
            Ok(out)
        }
        Action::Done => Err("there is no screening to finish now".into()),
        Action::Battle { .. } => Err("finish this battle first".into()),
        _ => Err("not a battle order".into()),
    }
}

/// `ships` ships of fighter `i` fire at `target`, one die each, until it
/// is destroyed.
fn volley(s: &State, b: &Battle, i: usize, target: Target, ships: u32) -> Event {
    volley_with(s, b, i, target, ships, (*s.rng).clone())
}

/// [`volley`], its dice drawn from `rng` (a generator that has already
/// drawn the target).
pub(super) fn volley_with(s: &State, b: &Battle, i: usize, target: Target, ships: u32, mut rng: GameRng) -> Event {
    let mut probe = b.clone();
    let side = b.fighter(i).side.other();
    let mut dice = Vec::new();
    for _ in 0..ships {
        let alive = probe
            .find(side, &target)
            .is_some_and(|t| probe.fighter(t).unscreened() > 0);
        if !alive || probe.fireable(i) == 0 {
            break;
        }
        let d = d10(&mut rng);
        if probe.fire(i, target, 1, &[d]).is_err() {
            break;
        }
        dice.push(d);
    }
    let action = BattleAction::Fire {
        fighter: i,
        target,
        ships: dice.len() as u32,
    };
    fought(s, action, dice, Box::new(rng))
}

/// `ships` ships of fighter `i` retreat to `to`; ships retreating into a
/// Black Hole roll as they enter it (text 5.9.2, 6.3).
fn retreat(s: &State, b: &Battle, i: usize, ships: u32, to: Hex) -> Vec<Event> {
    let f = b.fighter(i);
    let mut rng = (*s.rng).clone();
    let new = match f.id {
        Target::Group(l) if ships < f.ships => Some(s.fresh_label(l.owner, &mut rng)),
        _ => None,
    };
    // Fighter Squadrons go with retreating Carriers (text 11.1.2, 11.2.4);
    // a part of a counter becomes a new counter.
    let mut taken: Vec<Label> = new.into_iter().collect();
    let carried: Vec<Carried> = b
        .carried_by(i, ships)
        .into_iter()
        .map(|(fighter, n)| {
            let g = b.fighter(fighter);
            let new = match g.id {
                Target::Group(l) if n < g.ships => {
                    let mut label = s.fresh_label(l.owner, &mut rng);
                    while taken.contains(&label) {
                        label = s.fresh_label(l.owner, &mut rng);
                    }
                    taken.push(label);
                    Some(label)
                }
                _ => None,
            };
            Carried { fighter, ships: n, new }
        })
        .collect();
    let with = if carried.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = carried
            .iter()
            .map(|c| match c.new {
                Some(n) => format!("{} of {} as {n}", ships_word(c.ships), b.fighter(c.fighter).id),
                None => b.fighter(c.fighter).id.to_string(),
            })
            .collect();
        format!(" Fighter Squadrons go with it: {}.", parts.join(", "))
    };
    let said = match new {
        Some(n) => format!(
            "{} of {} {} to {} as {n}.",
            ships_word(ships),
            f.id,
            if ships == 1 { "retreats" } else { "retreat" },
            s.board.name(to)
        ),
        None => format!("{} retreats to {}.", f.id, s.board.name(to)),
    } + &with;
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(
        &mut scratch,
        &mut out,
        Event::Retreated {
            fighter: i,
            ships,
            to,
            new,
            said,
            rng: Box::new(rng.clone()),
            carried: carried.clone(),
        },
    );
    let moved: Vec<Label> = match f.id {
        Target::Group(l) => new.or(Some(l)),
        _ => None,
    }
    .into_iter()
    .chain(carried.iter().filter_map(|c| match b.fighter(c.fighter).id {
        Target::Group(l) => Some(c.new.unwrap_or(l)),
        _ => None,
    }))
    .collect();
    if !moved.is_empty() && s.terrain(to) == Some(Marker::BlackHole) {
        out.push(movement::black_hole(&scratch, &moved, to, &mut rng, false));
    }
    out
}

fn colony_order(s: &State, seat: Seat, at: Hex, action: &Action) -> Result<Vec<Event>, String> {
    let shooters = colony_shooters(s, at);
    let pick = |unit: &str| -> Result<Label, String> {
        let l = own_unit(s, seat, unit)?;
        if !shooters.contains(&l) {
            let names: Vec<String> = shooters.iter().map(|l| l.to_string()).collect();
            return Err(format!(
                "{l} may not fire at this colony now; may: {}",
                names.join(", ")
            ));
        }
        Ok(l)
    };
    match action {
        Action::Fire { unit, at: t, ships } => {
            if !t.eq_ignore_ascii_case("colony") {
                return Err(format!("no enemy units are left here: fire `at:colony` (not {t})"));
            }
            if ships.is_some() {
                return Err("every ship of the group fires once at a colony: leave out `ships`".into());
            }
            Ok(colony_fire(s, pick(unit)?, at))
        }
        Action::Hold { unit } => Ok(vec![Event::ColonyHeld { at, unit: pick(unit)? }]),
        _ => Err("at a colony: `fire unit:LABEL at:colony`, `hold unit:LABEL` or `auto`".into()),
    }
}

/// A group fires at the enemy colony of `at`, one die per ship (text 5.10).
fn colony_fire(s: &State, unit: Label, at: Hex) -> Vec<Event> {
    let (Some(u), Some(c)) = (s.unit(unit), s.colony(at)) else {
        return Vec::new();
    };
    let chart = u.kind.chart();
    let to_hit = colony_fire_to_hit(u.kind.strength(u.levels.fighters).0, u.levels.attack, chart.hull);
    let mut rng = (*s.rng).clone();
    let shots: Vec<(i32, u32)> = (0..u.ships).map(|_| (to_hit, d10(&mut rng))).collect();
    let volley = colony_volley(c.worth, &shots);
    let home = c.is_home();
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let fired = Event::ColonyFired {
        at,
        unit,
        dice: volley.shots.iter().map(|(d, _)| *d).collect(),
        worth: volley.after,
        rng: Box::new(rng),
    };
    push(&mut scratch, &mut out, fired);
    if volley.after.is_none() {
        // In team play a team wins when every opposing homeworld is
        // destroyed (rules page, *Teams*).
        let team_won = scratch.options.teams
            && scratch
                .seats()
                .filter(|o| !scratch.allied(*o, unit.owner))
                .all(|o| !scratch.has_homeworld(o));
        if home && team_won {
            let scores = scratch.seats().map(|seat| (seat, scratch.score(seat))).collect();
            out.push(Event::GameEnded {
                outcome: Outcome::Shared {
                    seats: scratch.side_of(unit.owner),
                    reason: format!(
                        "their team destroyed every opposing homeworld, the last at {}",
                        s.board.name(at)
                    ),
                },
                scores,
            });
        } else if home && !scratch.options.teams {
            // Victory (Scenario Book): with two players the opponent's
            // homeworld, with more the first homeworld destroyed.
            let scores = scratch.seats().map(|seat| (seat, scratch.score(seat))).collect();
            out.push(Event::GameEnded {
                outcome: Outcome::Winner {
                    seat: unit.owner,
                    reason: format!("destroyed the homeworld at {}", s.board.name(at)),
                },
                scores,
            });
        } else {
            out.push(Event::ColonyFireEnded { at });
        }
    }
    out
}

/// Combat at `h` begins: the minefield there first (advanced rule 13:
/// sweeping, then the mines that detonate with no choice left to their
/// owner; [`mines`]), then, unless the mines' owner must choose, the
/// battle or colony fire.
pub(super) fn start_at(s: &State, h: Hex) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    if let Some(owner) = mines::mine_owner(s, h).filter(|_| !mines::targets(s, h).is_empty()) {
        if let Some(e) = mines::sweep(&scratch, owner, h) {
            push(&mut scratch, &mut out, e);
        }
        let auto = scratch.empire(owner).standing.auto;
        while let Some(e) = mines::automatic(&scratch, owner, h, auto) {
            push(&mut scratch, &mut out, e);
        }
        if !mines::done(&scratch, owner, h) {
            push(&mut scratch, &mut out, Event::MinefieldEntered { at: h, owner });
            return out;
        }
    }
    out.extend(battle_at(&scratch, h));
    out
}

/// The battle, or colony fire, at `h` begins.
fn battle_at(s: &State, h: Hex) -> Vec<Event> {
    let Some(attacker) = s.active_seat() else {
        return Vec::new();
    };
    if s.machine_at(h).is_some() {
        return machine_battle(s, h, Some(attacker));
    }
    let aliens = s.aliens_at(h);
    // Aliens fight every ship that enters their hex (text 14.1); the player
    // to the left of the active player chooses their targets (14.2).
    let Some(defender) = s
        .enemies_at(attacker, h)
        .first()
        .copied()
        .or_else(|| (!aliens.is_empty()).then(|| s.left_of(attacker)))
    else {
        return vec![Event::ColonyFireBegan { at: h }];
    };
    let decoys: Vec<Label> = s
        .units_at(h)
        .filter(|u| u.kind == Kind::Decoy)
        .map(|u| u.label)
        .collect();
    let mut fighters: Vec<Fighter> = aliens
        .iter()
        .enumerate()
        .map(|(i, k)| Fighter::alien(Side::Defender, i as u8 + 1, *k))
        .collect();
    let mut unarmed: [Vec<Label>; 2] = [Vec::new(), Vec::new()];
    let sides = if aliens.is_empty() {
        vec![(Side::Attacker, attacker), (Side::Defender, defender)]
    } else {
        vec![(Side::Attacker, attacker)]
    };
    for (side, seat) in sides {
        let (f, u) = side_units(s, h, seat, side);
        fighters.extend(f);
        unarmed[side.index()] = u;
    }
    let colonies = [attacker, defender].map(|seat| aliens.is_empty() && s.colony(h).is_some_and(|c| c.owner == seat));
    // Units the state holds always make a battle; if not, the hex is
    // passed over rather than the game stopped.
    vec![began(s, h, fighters, unarmed, colonies, defender, decoys).unwrap_or(Event::ColonyFireEnded { at: h })]
}

/// The battle at `h` between `fighters` begins (`None` if they make none).
fn began(
    s: &State,
    h: Hex,
    fighters: Vec<Fighter>,
    unarmed: [Vec<Label>; 2],
    colonies: [bool; 2],
    defender: Seat,
    decoys: Vec<Label>,
) -> Option<Event> {
    let battle = Battle::new(h, terrain_at(s, h), fighters, unarmed)
        .ok()?
        .with_colonies(colonies);
    Some(Event::BattleBegan {
        at: h,
        defender,
        decoys,
        battle: Box::new(battle),
    })
}

/// The terrain of a battle at `h` (text 5.8).
fn terrain_at(s: &State, h: Hex) -> Terrain {
    match s.terrain(h) {
        Some(Marker::Nebula) => Terrain::Nebula,
        Some(Marker::Asteroids) => Terrain::Asteroids,
        _ => Terrain::Open,
    }
}

/// `seat`'s fighters at `h` on `side`: its armed groups (not decoys or
/// Mines, which never fight) and its colony's Base and Ship Yards; and its
/// unarmed counters there.
fn side_units(s: &State, h: Hex, seat: Seat, side: Side) -> (Vec<Fighter>, Vec<Label>) {
    let mut fighters = Vec::new();
    let mut unarmed = Vec::new();
    for u in s
        .units_at(h)
        .filter(|u| u.owner() == seat && !matches!(u.kind, Kind::Decoy | Kind::Mines))
    {
        if u.armed() {
            let craft = match u.kind {
                Kind::Fighters => u.levels.fighters,
                Kind::Scout => u.levels.pd,
                Kind::Raider => u.levels.cloak,
                Kind::Destroyer => u.levels.scan,
                _ => 0,
            };
            fighters.push(
                Fighter::new(
                    side,
                    Target::Group(u.label),
                    u.kind,
                    u.ships,
                    u.levels.attack,
                    u.levels.defense,
                    u.levels.tactics,
                )
                .with_craft(craft),
            );
        } else {
            unarmed.push(u.label);
        }
    }
    if let Some(c) = s.colony(h).filter(|c| c.owner == seat) {
        let l = s.empire(seat).levels;
        if c.base {
            fighters.push(Fighter::new(
                side,
                Target::Base,
                Kind::Base,
                1,
                l.attack,
                l.defense,
                l.tactics,
            ));
        }
        if c.yards > 0 {
            fighters.push(Fighter::new(
                side,
                Target::Yards,
                Kind::ShipYard,
                c.yards,
                l.attack,
                l.defense,
                l.tactics,
            ));
        }
    }
    (fighters, unarmed)
}

/// A battle against the Doomsday Machine at `h` (optional rule 17.2):
/// `seat`'s units there (the attacker's side) against it, or, with no
/// seat, the machine against the aliens there (17.3: "it will attack the
/// aliens normally"). The machine's side is the defender's, and nobody
/// chooses its shots (`automatic_ask`).
pub(super) fn machine_battle(s: &State, h: Hex, seat: Option<Seat>) -> Vec<Event> {
    let Some(m) = s.machine_at(h) else {
        return Vec::new();
    };
    let decoys: Vec<Label> = s
        .units_at(h)
        .filter(|u| u.kind == Kind::Decoy && Some(u.owner()) == seat)
        .map(|u| u.label)
        .collect();
    let (fighters, unarmed, defender) = match seat {
        Some(seat) => {
            let (mut fighters, unarmed) = side_units(s, h, seat, Side::Attacker);
            fighters.push(Fighter::machine(Side::Defender, m.number, m.damage));
            (fighters, [unarmed, Vec::new()], seat)
        }
        None => {
            let mut fighters = vec![Fighter::machine(Side::Attacker, m.number, m.damage)];
            fighters.extend(
                s.aliens_at(h)
                    .iter()
                    .enumerate()
                    .map(|(i, k)| Fighter::alien(Side::Defender, i as u8 + 1, *k)),
            );
            (fighters, [Vec::new(), Vec::new()], Seat(0))
        }
    };
    let colonies = [seat.is_some_and(|x| s.colony(h).is_some_and(|c| c.owner == x)), false];
    began(s, h, fighters, unarmed, colonies, defender, decoys)
        .into_iter()
        .collect()
}

/// The answer of `seat`'s standing orders to what the combat waits on now
/// (or a shot nobody chooses: `automatic_ask`).
fn standing_step(s: &State) -> Vec<Event> {
    if let Some(e) = s.battle.as_ref().and_then(|b| automatic_shot(s, b)) {
        return vec![e];
    }
    let Some(seat) = combat_seat(s) else { return Vec::new() };
    let st = s.empire(seat).standing;
    match &s.battle {
        Some(b) => {
            let Some(ask) = b.ask() else { return Vec::new() };
            match ask {
                Ask::Screen { side, .. } => vec![fought(
                    s,
                    BattleAction::Screen(choose_screen(b, side, st.screen)),
                    Vec::new(),
                    s.rng.clone(),
                )],
                Ask::Fire { .. } => {
                    let hexes = retreat_hexes(s, seat, b.hex());
                    match st.answer(b, &ask, !hexes.is_empty()) {
                        BattleAction::Retreat { fighter, ships } => retreat(s, b, fighter, ships, hexes[0]),
                        BattleAction::Fire { fighter, target, ships } => vec![volley(s, b, fighter, target, ships)],
                        other => vec![fought(s, other, Vec::new(), s.rng.clone())],
                    }
                }
            }
        }
        None => match s.fighting {
            Some(at) => match colony_shooters(s, at).first() {
                Some(&u) if st.colonies == battle::ColonyRule::Fire => colony_fire(s, u, at),
                Some(&u) => vec![Event::ColonyHeld { at, unit: u }],
                None => vec![Event::ColonyFireEnded { at }],
            },
            None => s.combat_due.first().map_or_else(Vec::new, |h| start_at(s, *h)),
        },
    }
}

/// `auto`: `seat`'s standing orders answer until the combat waits on
/// someone else, or on a decision of another kind.
fn auto_until_another(s: &State, seat: Seat) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let mut guard = 0;
    let automatic = |s: &State| {
        s.battle
            .as_ref()
            .is_some_and(|b| b.ask().is_some_and(|a| automatic_ask(s, b, &a)))
    };
    while (combat_seat(&scratch) == Some(seat) || automatic(&scratch)) && scratch.outcome.is_none() && guard < 10_000 {
        guard += 1;
        let step = standing_step(&scratch);
        if step.is_empty() {
            break;
        }
        for e in step {
            push(&mut scratch, &mut out, e);
        }
        if let Some(b) = &scratch.battle {
            if b.ask().is_none() {
                let e = battle_ended(&scratch, b);
                push(&mut scratch, &mut out, e);
            }
        }
    }
    out
}

fn battle_ended(s: &State, b: &Battle) -> Event {
    let outcome = b.outcome().cloned();
    let winner = outcome
        .as_ref()
        .and_then(|o| o.winner)
        .map_or_else(|| s.active_seat().unwrap_or(Seat(0)), |side| side_seat(s, side));
    let won = |side: Side| outcome.as_ref().is_some_and(|o| o.winner == Some(side));
    let aliens = b.aliens() && won(Side::Defender);
    let machine = b
        .fighters()
        .iter()
        .find(|f| f.is_machine() && f.ships > 0 && won(f.side))
        .and_then(|f| match f.id {
            Target::Machine(n) => Some(n),
            _ => None,
        });
    Event::BattleEnded {
        at: b.hex(),
        winner,
        lost: outcome.map(|o| o.destroyed).unwrap_or_default(),
        aliens,
        machine,
    }
}

/// One automatic step of a battle: its end, a shot nobody chooses, or the
/// answer of standing orders on fire at will; nothing when a person owes
/// the next decision.
pub(super) fn battle_step(s: &State, b: &Battle) -> Vec<Event> {
    match b.ask() {
        None => vec![battle_ended(s, b)],
        Some(ask) => {
            if automatic_ask(s, b, &ask) {
                return standing_step(s);
            }
            let seat = side_seat(s, ask.side());
            if s.empire(seat).standing.auto {
                standing_step(s)
            } else {
                Vec::new()
            }
        }
    }
}

/// One automatic step of the active player's combat phase, or nothing when
/// a person owes the next decision.
pub(super) fn combat_step(s: &State) -> Vec<Event> {
    if let Some(b) = &s.battle {
        return battle_step(s, b);
    }
    let Some(attacker) = s.active_seat() else {
        return Vec::new();
    };
    let auto = s.empire(attacker).standing.auto;
    if let Some(at) = s.fighting {
        let enemy_colony = s.colony(at).is_some_and(|c| !s.allied(c.owner, attacker));
        if !enemy_colony || colony_shooters(s, at).is_empty() {
            return vec![Event::ColonyFireEnded { at }];
        }
        return if auto { standing_step(s) } else { Vec::new() };
    }
    if let Some(&first) = s.combat_due.first() {
        return if s.combat_due.len() == 1 || auto {
            start_at(s, first)
        } else {
            Vec::new()
        };
    }
    if let Some(&(unit, at)) = s.queued.first() {
        let free = s.enemies_at(attacker, at).is_empty()
            && s.aliens_at(at).is_empty()
            && s.colony(at).is_none()
            && s.unit(unit).is_some_and(|u| u.hex == at);
        return vec![if free {
            Event::Colonized {
                unit,
                at,
                barren: s.terrain(at) == Some(Marker::Barren),
            }
        } else {
            Event::ColonizeDropped { unit, at }
        }];
    }
    if let Some(h) = next_exploration(s, attacker) {
        return explore(s, attacker, h);
    }
    end_player_turn(s, attacker)
}

/// A battle answer as an event, with its public account (`said`): what was
/// screened, each die against its to-hit, ships lost, a new firing round.
fn fought(s: &State, action: BattleAction, dice: Vec<u32>, rng: Box<GameRng>) -> Event {
    let said = match &s.battle {
        Some(b) => describe(b, &action, &dice),
        None => String::new(),
    };
    Event::Fought {
        action,
        dice,
        said,
        rng,
    }
}

fn describe(b: &Battle, action: &BattleAction, dice: &[u32]) -> String {
    let mut probe = b.clone();
    let round = probe.round();
    let done = probe.act(action, dice);
    let mut out = match (action, done) {
        (BattleAction::Screen(list), _) if list.is_empty() => String::new(),
        (BattleAction::Screen(list), _) => {
            let items: Vec<String> = list
                .iter()
                .map(|(t, n)| format!("{t} ({n} ship{})", if *n == 1 { "" } else { "s" }))
                .collect();
            format!("Screened this firing round: {}.", items.join(", "))
        }
        (BattleAction::Fire { fighter, target, .. }, Ok(battle::Done::Shots(shots))) => {
            let rolls: Vec<String> = shots
                .iter()
                .map(|x| format!("{} ({})", x.die, if x.hit { "hit" } else { "miss" }))
                .collect();
            let to_hit = shots.first().map_or(0, |x| x.to_hit);
            let needs = match to_hit {
                t if t <= 1 => "hitting only on a 1".to_string(),
                t if t >= 10 => "hitting on any roll".to_string(),
                t => format!("hitting on {t} or less"),
            };
            let firer = b.fighter(*fighter);
            let named = |id: &Target| match (id, b.fighters().iter().find(|f| f.id == *id)) {
                (Target::Group(_), Some(f)) => format!("{} {id}", f.kind.name()),
                (Target::Alien(_), Some(f)) => format!("{} {id}", f.kind.name()),
                (Target::Machine(n), _) => format!("Doomsday Machine {n}"),
                (_, Some(f)) => format!("the {}", f.kind.name()),
                (_, None) => id.to_string(),
            };
            let lost = shots.iter().filter(|x| x.destroyed).count();
            let mut t = format!(
                "{} fires at {}, {needs}: rolled {}.",
                named(&firer.id).replacen("the ", "The ", 1),
                named(target),
                rolls.join(", ")
            );
            let s = if lost == 1 { "" } else { "s" };
            match target {
                _ if lost == 0 => {}
                Target::Group(_) => t.push_str(&format!(" {target} loses {lost} ship{s}.")),
                Target::Yards => t.push_str(&format!(" {lost} Ship Yard{s} destroyed.")),
                Target::Base => t.push_str(" The Base is destroyed."),
                Target::Alien(_) => t.push_str(&format!(" {target} is destroyed.")),
                Target::Machine(n) => t.push_str(&format!(" Doomsday Machine {n} is destroyed.")),
            }
            t
        }
        (BattleAction::Hold { fighter }, _) => format!("{} holds its fire.", b.fighter(*fighter).id),
        _ => String::new(),
    };
    if probe.round() > round && !probe.is_over() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("Firing round {}.", probe.round()));
        if let Some(side) = probe.bonus() {
            out.push_str(&format!(" The {side} has the fleet-size bonus."));
        }
    }
    out
}

/// Whether `ask` is a shot nobody chooses: a Doomsday Machine's (ours: a
/// machine has no player, so its targets are drawn at random), or an alien
/// ship's when no player can choose for it (against a machine, or with no
/// other player in the game: solitaire).
pub fn automatic_ask(s: &State, b: &Battle, ask: &Ask) -> bool {
    match *ask {
        Ask::Fire { fighter, .. } => {
            let f = b.fighter(fighter);
            f.is_machine() || (f.is_alien() && (b.machine() || s.defender == s.active_seat()))
        }
        Ask::Screen { .. } => false,
    }
}

/// The shot nobody chooses, if the battle waits on one: one attack at a
/// target drawn at random among those it may fire at, each ship (yard,
/// Base) equally likely.
pub fn automatic_shot(s: &State, b: &Battle) -> Option<Event> {
    let ask = b.ask()?;
    let Ask::Fire { fighter, .. } = ask else {
        return None;
    };
    if !automatic_ask(s, b, &ask) {
        return None;
    }
    let targets = b.targets(fighter);
    let total: u32 = targets.iter().map(|t| b.fighter(*t).unscreened()).sum();
    if total == 0 {
        return None;
    }
    let mut rng = (*s.rng).clone();
    let mut roll = rng.below(total);
    let mut pick = targets[0];
    for t in targets {
        let n = b.fighter(t).unscreened();
        if roll < n {
            pick = t;
            break;
        }
        roll -= n;
    }
    Some(volley_with(s, b, fighter, b.fighter(pick).id, 1, rng))
}
