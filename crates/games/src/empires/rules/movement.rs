//! The movement phase (text 4.0–4.4, 6.7, 7.3.2, 9.8, 9.10.4): each order
//! of the active player checked against the state and turned into events.
//!
//! Names are resolved first ([`super::own_unit`], [`super::hex`]): "no such
//! counter" and "no such hex" say what exists. Then the rules: the movement chart, the
//! restrictions on unexplored hexes, Nebulae, Asteroids and Super Novas,
//! escorts for unarmed units; then what moving does: stopping on enemy
//! armed units, destroying lone unarmed ones in passing, Black Hole rolls.
//!
//! What a move finds out about the enemy (that a counter is armed, or a
//! decoy) is never a reason to refuse it: the move is carried out as far
//! as it goes, as on the table, so a refusal tells nothing hidden.
//!
//! Then the phase's orders as offered and decided ([`movement_order`]),
//! Lost in Space's shift, and exploration at the end of the combat phase.

use super::super::basics::ships_word;
use super::super::basics::{black_hole_survives, moves, Dir, Kind, Label, Marker, Tech, GROUP_MAX};
use super::super::events::{apply, push, Doom, Event};
use super::super::map::Board;
use super::super::orders::{Action, ScrapWhat};
use super::super::state::{State, Unit};
use super::{combat_hexes, d10, hex, label_text, own_unit};
use orrery_engine::{GameRng, Hex, Seat};

/// Whether `seat` may enter `to` with a unit without an attack strength
/// (text 4.2): an escort is needed where a face-down marker, enemy units or
/// an enemy colony are, and it is there already or moves with it.
fn needs_escort(s: &State, seat: Seat, to: Hex) -> bool {
    s.unexplored(to)
        || !s.enemies_at(seat, to).is_empty()
        || s.colony(to).is_some_and(|c| !s.allied(c.owner, seat))
        || !s.aliens_at(to).is_empty()
        || s.machine_at(to).is_some()
}

/// Hexes `unit` may still move this turn (one of them only along a chain
/// of MS Pipelines, if it has moved along one so far).
pub fn left(s: &State, u: &Unit) -> u32 {
    (allowed(s, u) + u32::from(u.piped)).saturating_sub(u.moved)
}

/// Hexes `unit` may move this turn by the movement chart, a sling shot's
/// hex included and a pipeline's extra hex not.
/// Fighter Squadrons: as far as any Carrier could take them (the Carriers
/// of each order limit them, text 11.2.3).
fn allowed(s: &State, u: &Unit) -> u32 {
    if u.kind.carried() {
        return moves(Tech::Move.top(), s.turn) + u32::from(u.slung);
    }
    u.allowance(s.turn, s.empire(u.owner()).levels.moves) + u32::from(u.slung)
}

/// Of those, the hexes not moved yet.
fn base_left(s: &State, u: &Unit) -> u32 {
    allowed(s, u).saturating_sub(u.moved)
}

/// The chain of `seat`'s MS Pipelines a move from `start` may be helped
/// along (advanced rule 10.1.2): the pipelines that have not moved this
/// turn, those moving with it not counted. Empty without the rule.
fn active_chain(s: &State, seat: Seat, movers: &[Label], start: Hex) -> std::collections::BTreeSet<Hex> {
    if !s.options.pipelines {
        return Default::default();
    }
    s.chain(&s.pipeline_hexes(seat, movers, true), start)
}

/// Whether a step from `from` to `to` goes along `seat`'s pipelines (both
/// hexes hold one, not counting those moving): such a step enters a Black
/// Hole without a roll and ignores Nebulae and Asteroids (text 10.1.2).
fn along_pipelines(s: &State, seat: Seat, movers: &[Label], from: Hex, to: Hex) -> bool {
    s.options.pipelines && {
        let pipes = s.pipeline_hexes(seat, movers, false);
        pipes.contains(&from) && pipes.contains(&to)
    }
}

/// Whether the unit may be moved by an order now (not counting where).
pub fn movable(s: &State, u: &Unit) -> Result<(), String> {
    if u.kind.fixed() {
        return Err(format!("{} never moves", u.kind.name()));
    }
    if u.upgrading {
        return Err(format!("{} is upgrading and may not move this turn", u.label));
    }
    if u.stopped && u.kind == Kind::Pipeline && u.moved == 0 {
        return Err(format!(
            "{} is part of a chain a unit moved along this turn: its pipelines may not move this turn (text 10.1.2)",
            u.label
        ));
    }
    if u.stopped {
        return Err(format!("{}'s move has ended this phase", u.label));
    }
    if left(s, u) == 0 {
        return Err(format!(
            "{} has moved all it may this turn ({} hexes{})",
            u.label,
            u.allowance(s.turn, s.empire(u.owner()).levels.moves),
            if u.slung { " and one after its sling shot" } else { "" }
        ));
    }
    Ok(())
}

/// The events of `move unit:… path:… slingshot:yes` (optional rule 15.2),
/// or why it is illegal: the move, the first revealed Black Hole on the
/// path rolled for with the sling shot (its survivors may then move one hex
/// more this turn).
pub fn sling_shot(s: &State, seat: Seat, units: &[Label], path: &[Hex]) -> Result<Vec<Event>, String> {
    sling_shot_checked(s, seat, units, path, Walk::Events)
}

fn sling_shot_checked(s: &State, seat: Seat, units: &[Label], path: &[Hex], mode: Walk) -> Result<Vec<Event>, String> {
    if !s.options.slingshot {
        return Err("this game does not use the Black Hole sling shot (optional rule 15.2)".into());
    }
    let Some(at) = path.iter().position(|h| s.terrain(*h) == Some(Marker::BlackHole)) else {
        return Err(
            "a sling shot is declared for a system with a revealed Black Hole: this path enters none (text 15.2)"
                .into(),
        );
    };
    for l in units {
        let u = s.unit(*l).ok_or_else(|| format!("you have no counter {l}"))?;
        if u.slung {
            return Err(format!("{l} has used a sling shot this turn already"));
        }
        if at as u32 + 1 > left(s, u) {
            return Err(format!(
                "{l} may move {} more hex(es) this turn: the Black Hole must be reached with them; \
                 the sling shot's extra hex comes after it",
                left(s, u)
            ));
        }
    }
    walk(s, seat, units, path, Some(at), mode)
}

/// The events of `move unit:… path:…`, or why it is illegal.
pub fn move_units(s: &State, seat: Seat, units: &[Label], path: &[Hex]) -> Result<Vec<Event>, String> {
    walk(s, seat, units, path, None, Walk::Events)
}

/// Whether `move unit:… path:…` (a sling shot with `sling`) is legal:
/// [`move_units`]'s or [`sling_shot`]'s verdict, without building the
/// move's events (the legal orders ask it for every counter and hex).
fn may_move(s: &State, seat: Seat, units: &[Label], path: &[Hex], sling: bool) -> bool {
    if sling {
        sling_shot_checked(s, seat, units, path, Walk::Check).is_ok()
    } else {
        walk(s, seat, units, path, None, Walk::Check).is_ok()
    }
}

/// What [`walk`] is asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    /// The move's events.
    Events,
    /// Only whether the move is legal: it stops with no events once the
    /// last hex has passed every check (nothing after that refuses a move),
    /// and copies the state only if a step before it changes something.
    Check,
}

/// A move along `path`, with a sling shot at the path's hex `sling` (an
/// index into it) when given.
fn walk(
    s: &State,
    seat: Seat,
    units: &[Label],
    path: &[Hex],
    sling: Option<usize>,
    mode: Walk,
) -> Result<Vec<Event>, String> {
    // A refusal: its message is written out only when the move's events
    // were asked for (a check only needs to know that it is refused).
    macro_rules! refuse {
        ($($arg:tt)*) => {
            return Err(if mode == Walk::Check { String::new() } else { format!($($arg)*) })
        };
    }
    let Some(first) = units.first().and_then(|l| s.unit(*l)) else {
        return Err("name at least one counter".into());
    };
    let start = first.hex;
    // Fighter Squadrons move only on Carriers moving with them, 3 a
    // Carrier, no farther than the fastest Carrier moves this turn (text
    // 11.2.2, 11.2.3).
    let of_kind = |kind: Kind| -> Vec<&Unit> {
        units
            .iter()
            .filter_map(|l| s.unit(*l))
            .filter(|u| u.kind == kind)
            .collect()
    };
    let squadrons: u32 = of_kind(Kind::Fighters).iter().map(|u| u.ships).sum();
    let carriers = of_kind(Kind::Carrier);
    let room = 3 * carriers.iter().map(|u| u.ships).sum::<u32>();
    let carrier_reach = carriers.iter().map(|u| allowed(s, u)).max().unwrap_or(0);
    if squadrons > 0 && room == 0 {
        return Err(
            "Fighter Squadrons never move on their own: name a Carrier in the same hex in the order (text 11.2.2)"
                .into(),
        );
    }
    if squadrons > room {
        refuse!(
            "{squadrons} Fighter Squadrons need {} Carriers; the Carriers named hold {room} (3 a Carrier, text 11.1.1)",
            squadrons.div_ceil(3)
        );
    }
    let chain = active_chain(s, seat, units, start);
    let on_chain = !chain.is_empty() && path.iter().all(|h| chain.contains(h));
    let mut piped: Vec<Label> = Vec::new();
    let mut extra_used = false;
    for (i, l) in units.iter().enumerate() {
        if units[..i].contains(l) {
            refuse!("{l} is named twice");
        }
        let u = s.unit(*l).ok_or_else(|| format!("you have no counter {l}"))?;
        if u.hex != start {
            refuse!(
                "counters moved together must start in one hex: {} is at {}, {} at {}",
                first.label,
                s.board.name(start),
                l,
                s.board.name(u.hex)
            );
        }
        movable(s, u)?;
        // The pipeline's extra hex: for a unit that began the movement phase
        // on the chain and stays on it (text 10.1.2).
        // Not combined with a Black Hole sling shot (text 15.2).
        let along = on_chain && (u.piped || u.moved == 0) && !u.slung && sling.is_none();
        if along {
            piped.push(*l);
        }
        let base = if u.kind.carried() {
            carrier_reach.saturating_sub(u.moved)
        } else {
            base_left(s, u)
        } + u32::from(sling.is_some());
        let reach = base + u32::from(along);
        if path.len() as u32 > reach {
            refuse!(
                "{l} may move {} more hex(es) this turn (turn {}){}, not {}",
                reach,
                s.turn,
                if u.kind.carried() {
                    ", no farther than the fastest Carrier named could move this turn (text 11.2.3)"
                } else if sling.is_some() {
                    ", one more after a sling shot"
                } else if u.piped || (u.moved == 0 && !chain.is_empty()) {
                    ", one more only along the chain of your MS Pipelines it began on (text 10.1.2)"
                } else {
                    ""
                },
                path.len()
            );
        }
        extra_used |= along && path.len() as u32 > base;
    }
    if path.is_empty() {
        return Err("give at least one hex to move to".into());
    }
    let group_armed = units.iter().any(|l| s.unit(*l).is_some_and(Unit::armed));
    let mut scratch = std::borrow::Cow::Borrowed(s);
    let mut out = Vec::new();
    let mut rng = (*s.rng).clone();
    let mut segment: Vec<Hex> = Vec::new();
    let mut at = start;
    let mut alive: Vec<Label> = units.to_vec();
    if extra_used {
        let pipelines: Vec<Label> = s
            .units_of(seat)
            .filter(|u| u.kind == Kind::Pipeline && u.moved == 0 && chain.contains(&u.hex) && !units.contains(&u.label))
            .map(|u| u.label)
            .collect();
        let e = Event::PipelinesHeld { pipelines };
        apply(scratch.to_mut(), &e);
        out.push(e);
    }
    let flush = |scratch: &mut std::borrow::Cow<State>,
                 out: &mut Vec<Event>,
                 segment: &mut Vec<Hex>,
                 alive: &[Label],
                 stopped: bool| {
        if segment.is_empty() && !stopped {
            return;
        }
        // Cloaked Raiders move unseen (advanced rule 12.1): the move is
        // told only to those who could see them somewhere on it.
        let movers: Vec<&Unit> = alive.iter().filter_map(|l| scratch.unit(*l)).collect();
        let mut hexes: Vec<Hex> = movers.first().map(|u| u.hex).into_iter().collect();
        hexes.extend(segment.iter().copied());
        let hidden_from = scratch.cloaked_along(seat, &movers, &hexes);
        let e = Event::Moved {
            units: alive.to_vec(),
            path: std::mem::take(segment),
            stopped,
            shown: Vec::new(),
            piped: piped.iter().filter(|l| alive.contains(l)).copied().collect(),
            hidden_from,
        };
        apply(scratch.to_mut(), &e);
        out.push(e);
    };
    for (i, &to) in path.iter().enumerate() {
        let name = s.board.named(to);
        let from = at;
        if !s.board.contains(to) || !scratch.adjacent(at, to) {
            refuse!(
                "{name} is not next to {}: a path goes one adjacent hex at a time (next to it: {})",
                s.board.name(at),
                scratch
                    .neighbours(at)
                    .iter()
                    .map(|h| s.board.name(*h))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let terrain = scratch.terrain(to);
        if terrain == Some(Marker::SuperNova) {
            refuse!("{name} is a Super Nova: no unit may enter it");
        }
        let piped_step = along_pipelines(&scratch, seat, units, from, to);
        let slows = scratch.unexplored(to) || (terrain.is_some_and(Marker::slows) && !piped_step);
        if slows {
            let what = if scratch.unexplored(to) {
                "an unexplored hex".to_string()
            } else {
                format!("a hex of {}", terrain.map(Marker::name).unwrap_or_default())
            };
            // "unless it starts its turn adjacent to it": where each unit
            // began this movement phase (a unit that has not moved yet
            // begins where it is).
            let began_next_to = alive.iter().all(|l| {
                scratch.unit(*l).is_some_and(|u| {
                    let began = u.began_at.or((u.moved == 0).then_some(u.hex));
                    began.is_some_and(|b| b.distance(to) == 1)
                })
            });
            if !began_next_to {
                refuse!(
                    "{name} is {what}: a unit may enter it only if it began this movement phase next to it (text 4.2)"
                );
            }
            if i + 1 != path.len() {
                refuse!("{name} is {what}: entering it ends the move (text 4.2)");
            }
        }
        // Mines never explore nor enter an enemy-occupied hex, escorted or
        // not (text 13.1.3).
        if alive
            .iter()
            .any(|l| scratch.unit(*l).is_some_and(|u| u.kind == Kind::Mines))
        {
            if scratch.unexplored(to) {
                refuse!("{name} is unexplored: Mines may not explore (text 13.1.3)");
            }
            if !scratch.enemies_at(seat, to).is_empty()
                || scratch.colony(to).is_some_and(|c| !scratch.allied(c.owner, seat))
                || !scratch.aliens_at(to).is_empty()
                || scratch.machine_at(to).is_some()
            {
                refuse!(
                    "{name} holds enemy units, an enemy colony, aliens or a Doomsday Machine: Mines may not enter it, even with other units (text 13.1.3)"
                );
            }
        }
        let unarmed_movers = alive.iter().any(|l| scratch.unit(*l).is_some_and(|u| !u.armed()));
        if unarmed_movers && !group_armed && needs_escort(&scratch, seat, to) && !own_warships_at(&scratch, seat, to) {
            refuse!(
                "units without an attack strength enter {name} only with one of your armed ships (moving with them, or there already; text 4.2)"
            );
        }
        if mode == Walk::Check && i + 1 == path.len() {
            return Ok(Vec::new());
        }
        segment.push(to);
        at = to;
        // Enemy units there; enemy Mines stop a move as armed units do: the
        // mines are deployed (text 13.1.3) and detonate in the combat phase.
        // Cloaked Raiders move on through them, unstopped, and overrun
        // nothing (advanced rule 12.1.2).
        let unseen = unseen(&scratch, seat, &alive, to);
        let enemy_armed = !unseen && stops(&scratch, seat, &alive, to);
        let lone: Vec<Label> = scratch
            .units_at(to)
            .filter(|u| !scratch.allied(u.owner(), seat) && !u.armed())
            .map(|u| u.label)
            .collect();
        if enemy_armed {
            flush(&mut scratch, &mut out, &mut segment, &alive, true);
            return Ok(out);
        }
        if !lone.is_empty() && group_armed && !unseen {
            flush(&mut scratch, &mut out, &mut segment, &alive, false);
            let e = Event::Destroyed {
                at: to,
                kinds: lone.iter().filter_map(|l| scratch.unit(*l)).map(|u| u.kind).collect(),
                units: lone,
                why: Doom::Overrun,
                hidden_from: Vec::new(),
            };
            apply(scratch.to_mut(), &e);
            out.push(e);
        }
        // A revealed Black Hole: each ship rolls as it enters (text 6.3).
        // A sling shot declared here is rolled for, chain or not (15.2).
        if terrain == Some(Marker::BlackHole) && (!piped_step || sling == Some(i)) {
            flush(&mut scratch, &mut out, &mut segment, &alive, false);
            let e = black_hole(&scratch, &alive, to, &mut rng, sling == Some(i));
            apply(scratch.to_mut(), &e);
            out.push(e);
            alive.retain(|l| scratch.unit(*l).is_some());
            if alive.is_empty() {
                return Ok(out);
            }
        }
        if slows {
            flush(&mut scratch, &mut out, &mut segment, &alive, true);
            return Ok(with_shown(&scratch, out, &alive));
        }
    }
    flush(&mut scratch, &mut out, &mut segment, &alive, false);
    Ok(with_shown(&scratch, out, &alive))
}

/// Mark in the last `Moved` the Move levels a move showed (text 9.9): a
/// counter that moved farther this turn than Move 1 allows.
fn with_shown(after: &State, mut out: Vec<Event>, alive: &[Label]) -> Vec<Event> {
    let shown: Vec<(Label, u32)> = alive
        .iter()
        .filter_map(|l| after.unit(*l))
        // The hexes a sling shot or a pipeline gave are not the Move
        // level's (text 15.2, 10.1.2).
        .filter(|u| {
            let extra = u32::from(u.slung) + u32::from(u.piped && u.moved > allowed(after, u));
            !u.kind.slow() && u.moved.saturating_sub(extra) > moves(1, after.turn)
        })
        .map(|u| {
            let level = if u.kind == Kind::Decoy {
                after.empire(u.owner()).levels.moves
            } else {
                u.levels.moves
            };
            (u.label, level)
        })
        .filter(|(l, level)| after.unit(*l).is_some_and(|u| u.move_shown != Some(*level)))
        .collect();
    if let Some(Event::Moved { shown: slot, .. }) = out.iter_mut().rev().find(|e| matches!(e, Event::Moved { .. })) {
        *slot = shown;
    }
    out
}

/// Whether `seat`'s `movers` entering `to` are stopped there (4.3, 13.1.3,
/// 14.1): by another player's armed unit, Mines or armed installation, or
/// by aliens; not by a Raider cloaked against `seat` there, whose Scanners
/// count the movers' own Destroyers arriving (12.1.2, 12.2).
fn stops(s: &State, seat: Seat, movers: &[Label], to: Hex) -> bool {
    let scan = movers
        .iter()
        .filter_map(|l| s.unit(*l))
        .filter(|u| u.kind == Kind::Destroyer)
        .map(|u| u.levels.scan)
        .max()
        .unwrap_or(0)
        .max(s.scanners(seat, to));
    let nebula = s.terrain(to) == Some(Marker::Nebula);
    s.units_at(to).any(|u| {
        !s.allied(u.owner(), seat)
            && (u.armed() || u.kind == Kind::Mines)
            && !(u.kind == Kind::Raider && !nebula && u.levels.cloak > scan)
    }) || s
        .colony(to)
        .is_some_and(|c| !s.allied(c.owner, seat) && (c.base || c.yards > 0))
        || !s.aliens_at(to).is_empty()
        || s.machine_at(to).is_some()
}

/// Whether every one of `units` (of `seat`) is a Raider that would be
/// cloaked at `at` against every other player (and so against the aliens,
/// who have no Scanners).
pub fn unseen(s: &State, seat: Seat, units: &[Label], at: Hex) -> bool {
    !units.is_empty()
        && units.iter().all(|l| {
            s.unit(*l)
                .is_some_and(|u| u.owner() == seat && s.cloaked_from_all(u, at))
        })
}

fn own_warships_at(s: &State, seat: Seat, hex: Hex) -> bool {
    s.units_at(hex).any(|u| u.owner() == seat && u.armed())
}

/// Every ship of `units` at `at` rolls a d10 (decoys: one per ship shown).
pub fn black_hole(s: &State, units: &[Label], at: Hex, rng: &mut GameRng, slingshot: bool) -> Event {
    let rolls = units
        .iter()
        .filter_map(|l| s.unit(*l))
        .filter(|u| u.hex == at)
        .map(|u| (u.label, (0..u.ships).map(|_| d10(rng)).collect()))
        .collect();
    Event::BlackHoleRolled {
        at,
        rolls,
        rng: Box::new(rng.clone()),
        slingshot,
    }
}

/// Ships a Black Hole roll destroys.
pub fn black_hole_losses(dice: &[u32], slingshot: bool) -> u32 {
    dice.iter().filter(|d| !black_hole_survives(**d, slingshot)).count() as u32
}

/// `split unit:L ships:N`.
pub fn split(s: &State, seat: Seat, label: Label, ships: u32) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if !u.kind.grouped() {
        return Err(format!("only groups split; {label} is a {}", u.kind.name()));
    }
    if ships == 0 || ships >= u.ships {
        return Err(format!(
            "{label} has {}: split off 1 to {}",
            ships_word(u.ships),
            u.ships.saturating_sub(1)
        ));
    }
    if s.counters_of(seat, u.kind) >= super::super::basics::COUNTERS_PER_TYPE {
        return Err(format!(
            "you have all {} of your {} counters on the map",
            super::super::basics::COUNTERS_PER_TYPE,
            u.kind.name()
        ));
    }
    let mut rng = (*s.rng).clone();
    let new = s.fresh_label(seat, &mut rng);
    Ok(vec![Event::Split {
        from: label,
        new,
        ships,
        rng: Box::new(rng),
        hidden_from: s.cloaked_along(seat, &[u], &[u.hex]),
    }])
}

/// `merge unit:L into:M`.
pub fn merge(s: &State, from: Label, into: Label) -> Result<Vec<Event>, String> {
    if from == into {
        return Err("a group cannot merge into itself".into());
    }
    let (a, b) = (
        s.unit(from).ok_or("no such counter")?,
        s.unit(into).ok_or("no such counter")?,
    );
    if a.hex != b.hex {
        return Err(format!("{from} and {into} are not in one hex"));
    }
    if !a.kind.grouped() || a.kind != b.kind {
        return Err(format!(
            "only groups of one type merge ({from}: {}, {into}: {})",
            a.kind, b.kind
        ));
    }
    if a.levels != b.levels {
        return Err(format!(
            "{from} and {into} have different technology: groups are of identical technology (text 2.3.1)"
        ));
    }
    if a.ships + b.ships > GROUP_MAX {
        return Err(format!("a group holds at most {GROUP_MAX} ships"));
    }
    if a.upgrading || b.upgrading {
        return Err("a group being upgraded cannot merge this turn".into());
    }
    Ok(vec![Event::Merged {
        from,
        into,
        hidden_from: s.cloaked_along(from.owner, &[a, b], &[a.hex]),
    }])
}

/// `colonize unit:L`: now, or at the end of the combat phase if enemies
/// are in the hex (text 4.4).
pub fn colonize(s: &State, seat: Seat, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if u.kind != Kind::ColonyShip {
        return Err(format!("only a Colony Ship colonizes; {label} is not one"));
    }
    let at = u.hex;
    let name = s.board.named(at);
    let barren = match s.terrain(at) {
        Some(Marker::Planet) => false,
        Some(Marker::Barren) => {
            if u.levels.terraform == 0 {
                return Err(format!(
                    "{name} is a Barren Planet: only a Colony Ship built with Terraforming colonizes it (text 4.4.2, 9.7)"
                ));
            }
            true
        }
        _ => return Err(format!("there is no explored planet at {name}")),
    };
    if s.queued.iter().any(|(l, _)| *l == label) {
        return Err(format!("{label} will already colonize at the end of your combat phase"));
    }
    match s.colony(at) {
        Some(c) if c.owner == seat => Err(format!("{name} is your colony already")),
        Some(c) if s.allied(c.owner, seat) => Err(format!("{name} is your teammate's colony")),
        Some(_) => Ok(vec![Event::ColonizeQueued { unit: label, at }]),
        None if !s.enemies_at(seat, at).is_empty() || !s.aliens_at(at).is_empty() => {
            Ok(vec![Event::ColonizeQueued { unit: label, at }])
        }
        None => Ok(vec![Event::Colonized {
            unit: label,
            at,
            barren,
        }]),
    }
}

/// `tow unit:L`.
pub fn tow(s: &State, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if u.kind != Kind::Miner {
        return Err(format!("only a Miner tows; {label} is not one"));
    }
    if u.tow.is_some() {
        return Err(format!("{label} tows a marker already"));
    }
    match s.terrain(u.hex) {
        Some(m) if m.towable() => Ok(vec![Event::Towed {
            miner: label,
            at: u.hex,
            marker: m,
        }]),
        _ => Err(format!(
            "there are no Minerals or Space Wreck at {} to tow",
            s.board.name(u.hex)
        )),
    }
}

/// `peek unit:L at:H` (text 9.8).
pub fn peek(s: &State, seat: Seat, label: Label, at: Hex) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if u.kind != Kind::Cruiser || u.levels.explore == 0 {
        return Err(format!("only Cruisers built with Exploration peek; {label} cannot"));
    }
    if u.moved > 0 {
        return Err(format!("{label} has moved: a Cruiser peeks before it moves"));
    }
    if u.peeks >= u.ships {
        return Err(format!("each Cruiser of {label} has peeked this phase"));
    }
    if u.hex.distance(at) != 1 {
        return Err(format!("{} is not next to {label}", s.board.name(at)));
    }
    let Some(spot) = s.spot(at).filter(|p| !p.face_up) else {
        return Err(format!("{} has no face-down marker", s.board.name(at)));
    };
    Ok(vec![Event::Peeked {
        seat,
        unit: label,
        at,
        marker: spot.marker,
    }])
}

/// `reveal at:H`: a marker the player has looked at, face up for all.
pub fn reveal(s: &State, seat: Seat, at: Hex) -> Result<Vec<Event>, String> {
    if !s.empire(seat).peeked_now.contains(&at) || !s.unexplored(at) {
        return Err(format!(
            "you have not looked at a face-down marker at {} in this movement phase",
            s.board.name(at)
        ));
    }
    let marker = s.spot(at).map(|p| p.marker).ok_or("no marker")?;
    let mut out = vec![Event::Explored {
        at,
        marker,
        removed: removed_when_found(s, marker),
    }];
    // Found by a Cruiser's look: the aliens are placed face down (14.1).
    out.extend(aliens_found(s, at, true));
    out.extend(machine_found(s, marker, at));
    Ok(out)
}

/// A Doomsday Machine's marker turned face up at `at`: the machine stays
/// on the map until destroyed (optional rule 17.1).
fn machine_found(s: &State, marker: Marker, at: Hex) -> Option<Event> {
    match marker {
        Marker::Doomsday(number) if s.options.doomsday > 0 => Some(Event::MachineFound {
            number,
            at,
            arrived: false,
        }),
        _ => None,
    }
}

/// Alien ship markers per deep-space Barren Planet (text 14.1).
pub const ALIENS_PER_PLANET: usize = 4;

/// The aliens of a deep-space Barren Planet found at `at` (advanced rule
/// 14.1), if the game has them: four markers drawn at random, each one of
/// the six warship types (rules page, *Aliens*).
pub(super) fn aliens_found(s: &State, at: Hex, hidden: bool) -> Option<Event> {
    let spot = s.spot(at)?;
    if !s.options.aliens || spot.marker != Marker::Barren || spot.home.is_some() || spot.face_up {
        return None;
    }
    let mut rng = (*s.rng).clone();
    let aliens = (0..ALIENS_PER_PLANET)
        .map(|_| Kind::WARSHIPS[rng.below(Kind::WARSHIPS.len() as u32) as usize])
        .collect();
    Some(Event::AliensFound {
        at,
        aliens,
        hidden,
        rng: Box::new(rng),
    })
}

/// Whether `marker`, turned face up now, leaves the map: Danger! and Lost
/// in Space (text 6.4, 6.6), and a third Warp Point of a number whose pair
/// is found already (16.2).
pub(super) fn removed_when_found(s: &State, marker: Marker) -> bool {
    marker.one_time()
        || (matches!(marker, Marker::WarpPoint(_))
            && s.spots.iter().filter(|p| p.face_up && p.marker == marker).count() >= 2)
}

/// `upgrade unit:L` (text 9.10.4).
pub fn upgrade(s: &State, seat: Seat, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if !u.kind.is_warship() {
        return Err(format!(
            "only warship groups are upgraded; {label} is a {}",
            u.kind.name()
        ));
    }
    if u.upgrading {
        return Err(format!("{label} is being upgraded already"));
    }
    if u.moved > 0 {
        return Err(format!(
            "{label} has moved this turn: upgrading takes a whole turn at the yard"
        ));
    }
    if !s.colony(u.hex).is_some_and(|c| c.owner == seat && c.yards > 0) {
        return Err(format!("{label} is not at one of your Ship Yards"));
    }
    let levels = s.empire(seat).levels;
    if super::economy::same_tech(&u.levels, &levels, u.kind) && u.levels.explore >= levels.explore {
        return Err(format!("{label} has your technology already"));
    }
    let cost = u.kind.chart().hull * u.ships;
    let cp = s.empire(seat).cp;
    if cost > cp {
        return Err(format!(
            "upgrading {label} costs {cost} CP (hull × ships); you have {cp}"
        ));
    }
    Ok(vec![Event::UpgradeOrdered { unit: label, cost }])
}

/// `scrap unit:L` in the movement phase.
pub fn scrap_unit(s: &State, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    Ok(vec![Event::Destroyed {
        at: u.hex,
        units: vec![label],
        kinds: vec![u.kind],
        why: Doom::Scrapped,
        hidden_from: s.cloaked_along(u.owner(), &[u], &[u.hex]),
    }])
}

/// `scrap at:H what:base|yard` in the movement phase.
pub fn scrap_at(s: &State, seat: Seat, at: Hex, what: Kind) -> Result<Vec<Event>, String> {
    let colony = s.colony(at).filter(|c| {
        c.owner == seat
            && match what {
                Kind::Base => c.base,
                _ => c.yards > 0,
            }
    });
    let Some(c) = colony else {
        return Err(format!("you have no {} at {}", what.name(), s.board.name(at)));
    };
    Ok(vec![Event::InstallationScrapped {
        at,
        what,
        secret_of: c.removes_hidden(what).then_some(seat),
    }])
}

/// `deposit unit:L`: a towing Miner in a hex with one of `seat`'s colonies
/// (a new one too) leaves its marker there, to be collected in the
/// Economic Phase (text 6.7.2: "the mineral may be deposited").
pub fn deposit(s: &State, seat: Seat, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    let Some(marker) = u.tow else {
        return Err(format!("{label} tows nothing to deposit"));
    };
    match s.colony(u.hex) {
        Some(c) if c.owner == seat => Ok(vec![Event::Deposited {
            miner: label,
            at: u.hex,
            marker,
        }]),
        _ => Err(format!(
            "{label} deposits only at one of your colonies, and there is none at {}",
            s.board.name(u.hex)
        )),
    }
}

pub(super) fn movement_options(s: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let mine: Vec<&Unit> = s.units_of(seat).collect();
    for u in &mine {
        if movable(s, u).is_ok() {
            for to in s.neighbours(u.hex) {
                if may_move(s, seat, &[u.label], &[to], false) {
                    out.push(Action::Move {
                        units: vec![label_text(u.label)],
                        path: vec![s.board.name(to)],
                        slingshot: false,
                    });
                }
                if s.options.slingshot && may_move(s, seat, &[u.label], &[to], true) {
                    out.push(Action::Move {
                        units: vec![label_text(u.label)],
                        path: vec![s.board.name(to)],
                        slingshot: true,
                    });
                }
            }
        }
    }
    // A Carrier with the squadrons it can take along (text 11.2.3).
    for u in mine.iter().filter(|u| u.kind == Kind::Carrier && movable(s, u).is_ok()) {
        let mut room = 3 * u.ships;
        let mut units = vec![u.label];
        for f in mine.iter().filter(|f| f.kind == Kind::Fighters && f.hex == u.hex) {
            if f.ships <= room && !f.stopped && !f.upgrading {
                room -= f.ships;
                units.push(f.label);
            }
        }
        if units.len() < 2 {
            continue;
        }
        for to in s.neighbours(u.hex) {
            if may_move(s, seat, &units, &[to], false) {
                out.push(Action::Move {
                    units: units.iter().map(|l| label_text(*l)).collect(),
                    path: vec![s.board.name(to)],
                    slingshot: false,
                });
            }
        }
    }
    // Each check below is tried only for counters that pass the first
    // test of the order's own function (its kind, mostly): the legal
    // orders are listed for every decision of a computer player's sampled
    // games, and a refusal's message costs more than the test.
    for u in &mine {
        let unit = label_text(u.label);
        if u.ships > 1 && u.kind.grouped() && split(s, seat, u.label, 1).is_ok() {
            out.push(Action::Split {
                unit: unit.clone(),
                ships: 1,
            });
        }
        for v in &mine {
            // (merge refuses counters in two hexes or of two kinds)
            if v.label > u.label && v.hex == u.hex && v.kind == u.kind && merge(s, u.label, v.label).is_ok() {
                out.push(Action::Merge {
                    unit: unit.clone(),
                    into: label_text(v.label),
                });
            }
        }
        if u.kind == Kind::ColonyShip && colonize(s, seat, u.label).is_ok() {
            out.push(Action::Colonize { unit: unit.clone() });
        }
        if u.kind == Kind::Miner && u.tow.is_none() && tow(s, u.label).is_ok() {
            out.push(Action::Tow { unit: unit.clone() });
        }
        if u.tow.is_some() && deposit(s, seat, u.label).is_ok() {
            out.push(Action::Deposit { unit: unit.clone() });
        }
        let peeks = u.kind == Kind::Cruiser && u.levels.explore > 0 && u.moved == 0 && u.peeks < u.ships;
        for to in s.board.neighbours(u.hex).into_iter().filter(|_| peeks) {
            if peek(s, seat, u.label, to).is_ok() {
                out.push(Action::Peek {
                    unit: unit.clone(),
                    at: s.board.name(to),
                });
            }
        }
        if u.kind.is_warship() && !u.upgrading && u.moved == 0 && upgrade(s, seat, u.label).is_ok() {
            out.push(Action::Upgrade { unit: unit.clone() });
        }
    }
    for at in &s.empire(seat).peeked_now {
        if reveal(s, seat, *at).is_ok() {
            out.push(Action::Reveal { at: s.board.name(*at) });
        }
    }
    let mut hexes: Vec<Hex> = s.units_of(seat).map(|u| u.hex).collect();
    hexes.sort_by_key(|h| Board::name_key(*h));
    hexes.dedup();
    for at in hexes {
        if super::lurking(s, seat, at) && ambush(s, seat, at).is_ok() {
            out.push(Action::Battle { at: s.board.name(at) });
        }
    }
    out.push(Action::End);
    out
}

pub(super) fn movement_order(s: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, String> {
    let unit = |t: &str| own_unit(s, seat, t);
    match action {
        Action::Move { units, path, slingshot } => {
            let units: Vec<Label> = units.iter().map(|u| unit(u)).collect::<Result<_, _>>()?;
            let path: Vec<Hex> = path.iter().map(|h| hex(s, h)).collect::<Result<_, _>>()?;
            if *slingshot {
                sling_shot(s, seat, &units, &path)
            } else {
                move_units(s, seat, &units, &path)
            }
        }
        Action::Split { unit: u, ships } => split(s, seat, unit(u)?, *ships),
        Action::Merge { unit: u, into } => {
            let into = unit(into)?;
            merge(s, unit(u)?, into)
        }
        Action::Colonize { unit: u } => colonize(s, seat, unit(u)?),
        Action::Tow { unit: u } => tow(s, unit(u)?),
        Action::Deposit { unit: u } => deposit(s, seat, unit(u)?),
        Action::Peek { unit: u, at } => peek(s, seat, unit(u)?, hex(s, at)?),
        Action::Reveal { at } => reveal(s, seat, hex(s, at)?),
        Action::Upgrade { unit: u } => upgrade(s, seat, unit(u)?),
        Action::Scrap {
            what: ScrapWhat::Unit(u),
            ..
        } => scrap_unit(s, unit(u)?),
        Action::Scrap {
            what: ScrapWhat::At { at, what },
            ..
        } => scrap_at(s, seat, hex(s, at)?, *what),
        Action::End => {
            let mut out = vec![Event::MovementEnded { seat }];
            out.push(Event::CombatBegan {
                seat,
                hexes: combat_hexes(s, seat),
            });
            Ok(out)
        }
        _ => Err("not a movement order".into()),
    }
}

/// `battle at:HEX` in movement: `seat`'s cloaked Raiders at `at`, unseen
/// there by the enemy units, colony or aliens with them, will attack in
/// this turn's combat phase (advanced rule 12.1.2: otherwise they occupy
/// the hex without combat).
pub fn ambush(s: &State, seat: Seat, at: Hex) -> Result<Vec<Event>, String> {
    let name = s.board.named(at);
    let mine: Vec<Label> = s.units_at(at).filter(|u| u.owner() == seat).map(|u| u.label).collect();
    let foe = s.units_at(at).any(|u| !s.allied(u.owner(), seat))
        || s.colony(at).is_some_and(|c| !s.allied(c.owner, seat))
        || !s.aliens_at(at).is_empty();
    if mine.is_empty() || !foe || !super::lurking(s, seat, at) {
        return Err(format!(
            "`battle at:{name}` in movement orders cloaked Raiders to attack; at {name} you have no cloaked Raiders alone with an enemy (battles where you are seen are fought anyway)"
        ));
    }
    if s.ambush.contains(&at) {
        return Err(format!("your Raiders at {name} are already ordered to attack"));
    }
    Ok(vec![Event::AmbushOrdered { seat, at }])
}

/// The next hex (in hex-name order) with a face-down marker and a unit of
/// `seat` that explores (not a decoy).
pub(super) fn next_exploration(s: &State, seat: Seat) -> Option<Hex> {
    s.units_of(seat)
        .filter(|u| u.kind != Kind::Decoy && s.unexplored(u.hex))
        .map(|u| u.hex)
        .min_by_key(|h| Board::name_key(*h))
}

/// A marker turned face up, and its effect (text 6.0–6.9).
pub(super) fn explore(s: &State, seat: Seat, h: Hex) -> Vec<Event> {
    let Some(spot) = s.spot(h) else { return Vec::new() };
    let marker = spot.marker;
    let mut out = vec![Event::Explored {
        at: h,
        marker,
        removed: removed_when_found(s, marker),
    }];
    out.extend(aliens_found(s, h, false));
    out.extend(machine_found(s, marker, h));
    let here: Vec<Label> = s.units_at(h).map(|u| u.label).collect();
    match marker {
        Marker::BlackHole => {
            let mut rng = (*s.rng).clone();
            let mine: Vec<Label> = s.units_at(h).filter(|u| u.owner() == seat).map(|u| u.label).collect();
            out.push(black_hole(s, &mine, h, &mut rng, false));
        }
        Marker::SuperNova => {
            let moves = s
                .units_at(h)
                .map(|u| {
                    let back = u.came_from.filter(|c| *c != h).unwrap_or_else(|| {
                        s.board
                            .neighbours(h)
                            .into_iter()
                            .find(|n| s.terrain(*n) != Some(Marker::SuperNova))
                            .unwrap_or(h)
                    });
                    (u.label, back)
                })
                .collect();
            out.push(Event::SentBack { moves });
        }
        Marker::Danger => out.push(Event::Destroyed {
            at: h,
            kinds: here.iter().filter_map(|l| s.unit(*l)).map(|u| u.kind).collect(),
            units: here,
            why: Doom::Danger,
            hidden_from: Vec::new(),
        }),
        Marker::LostInSpace => {
            let shifter = s.right_of(seat);
            out.push(Event::LostOwed { shifter, at: h });
        }
        _ => {}
    }
    out
}

/// Where Lost in Space would shift the stack at `at` in direction `dir`.
pub(super) fn shift_target(s: &State, at: Hex, dir: Dir) -> Result<Hex, String> {
    let to = at.add(dir.step());
    if !s.board.contains(to) {
        return Err(format!("{} would leave the map", dir.key()));
    }
    if s.terrain(to) == Some(Marker::SuperNova) {
        return Err(format!("{} is a Super Nova", s.board.name(to)));
    }
    Ok(to)
}

/// `shift dir:…` (`None`: a direction drawn at random, the deadline's).
pub(super) fn shift(s: &State, at: Hex, dir: Option<Dir>) -> Result<Vec<Event>, String> {
    let mut rng = (*s.rng).clone();
    let dir = match dir {
        Some(d) => d,
        None => {
            let legal: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|d| shift_target(s, at, *d).is_ok())
                .collect();
            *rng.pick(&legal).ok_or("no direction is open")?
        }
    };
    let to = shift_target(s, at, dir).map_err(|why| {
        let legal: Vec<&str> = Dir::ALL
            .into_iter()
            .filter(|d| shift_target(s, at, *d).is_ok())
            .map(Dir::key)
            .collect();
        format!("{why}; the stack may go {}", legal.join(", "))
    })?;
    let Some(seat) = s.active_seat() else {
        return Err("no stack is lost".into());
    };
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(
        &mut scratch,
        &mut out,
        Event::Shifted {
            at,
            dir,
            to,
            rng: Box::new(rng.clone()),
        },
    );
    if s.terrain(to) == Some(Marker::BlackHole) {
        let mine: Vec<Label> = scratch
            .units_at(to)
            .filter(|u| u.owner() == seat)
            .map(|u| u.label)
            .collect();
        let e = black_hole(&scratch, &mine, to, &mut rng, false);
        push(&mut scratch, &mut out, e);
    }
    if !scratch.enemies_at(seat, to).is_empty() && !super::lurking(&scratch, seat, to) {
        push(&mut scratch, &mut out, Event::CombatBegan { seat, hexes: vec![to] });
    }
    Ok(out)
}
