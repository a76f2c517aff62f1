//! The movement phase (text 4.0–4.4, 6.7, 7.3.2, 9.8, 9.10.4): each order
//! of the active player checked against the state and turned into events.
//!
//! Names are resolved first ([`own_unit`], [`hex`]): "no such counter" and
//! "no such hex" say what exists. Then the rules: the movement chart, the
//! restrictions on unexplored hexes, Nebulae, Asteroids and Super Novas,
//! escorts for unarmed units; then what moving does: stopping on enemy
//! armed units, destroying lone unarmed ones in passing, Black Hole rolls.
//!
//! What a move finds out about the enemy (that a counter is armed, or a
//! decoy) is never a reason to refuse it: the move is carried out as far
//! as it goes, as on the table, so a refusal tells nothing hidden.

use super::basics::{black_hole_survives, moves, Kind, Label, Marker, GROUP_MAX};
use super::events::{apply, Doom, Event};
use super::state::{State, Unit};
use orrery_engine::{GameRng, Hex, Seat};

/// The d10 (1-10) of the game's dice.
pub fn d10(rng: &mut GameRng) -> u32 {
    rng.below(10) + 1
}

/// One of `seat`'s counters, by label (`A17`, or `17`).
pub fn own_unit(s: &State, seat: Seat, text: &str) -> Result<Label, String> {
    let label = Label::parse(text, seat).ok_or_else(|| format!("`{text}` is not a counter's label (such as A17)"))?;
    match s.unit(label) {
        Some(u) if u.owner() == seat => Ok(label),
        Some(_) => Err(format!("{label} is not yours")),
        None => {
            let mut mine: Vec<String> = s.units_of(seat).map(|u| u.label.to_string()).collect();
            mine.sort();
            Err(format!("you have no counter {label}; yours are {}", mine.join(", ")))
        }
    }
}

/// A hex of the map, by name.
pub fn hex(s: &State, text: &str) -> Result<Hex, String> {
    s.board
        .parse(text)
        .ok_or_else(|| format!("`{text}` is not a hex of this map (hexes are named like A4)"))
}

/// Whether `seat` may enter `to` with a unit without an attack strength
/// (text 4.2): an escort is needed where a face-down marker, enemy units or
/// an enemy colony are, and it is there already or moves with it.
fn needs_escort(s: &State, seat: Seat, to: Hex) -> bool {
    s.unexplored(to) || !s.enemies_at(seat, to).is_empty() || s.colony(to).is_some_and(|c| c.owner != seat)
}

/// Hexes `unit` may still move this turn.
pub fn left(s: &State, u: &Unit) -> u32 {
    u.allowance(s.turn, s.empire(u.owner()).levels.moves).saturating_sub(u.moved)
}

/// Whether the unit may be moved by an order now (not counting where).
pub fn movable(s: &State, u: &Unit) -> Result<(), String> {
    if u.kind.fixed() {
        return Err(format!("{} never moves", u.kind.name()));
    }
    if u.upgrading {
        return Err(format!("{} is upgrading and may not move this turn", u.label));
    }
    if u.stopped {
        return Err(format!("{}'s move has ended this phase", u.label));
    }
    if left(s, u) == 0 {
        return Err(format!(
            "{} has moved all it may this turn ({} hexes)",
            u.label,
            u.allowance(s.turn, s.empire(u.owner()).levels.moves)
        ));
    }
    Ok(())
}

/// The events of `move unit:… path:…`, or why it is illegal.
pub fn move_units(s: &State, seat: Seat, units: &[Label], path: &[Hex]) -> Result<Vec<Event>, String> {
    let Some(first) = units.first().and_then(|l| s.unit(*l)) else {
        return Err("name at least one counter".into());
    };
    let start = first.hex;
    for (i, l) in units.iter().enumerate() {
        if units[..i].contains(l) {
            return Err(format!("{l} is named twice"));
        }
        let u = s.unit(*l).ok_or_else(|| format!("you have no counter {l}"))?;
        if u.hex != start {
            return Err(format!(
                "counters moved together must start in one hex: {} is at {}, {} at {}",
                first.label,
                s.board.name(start),
                l,
                s.board.name(u.hex)
            ));
        }
        movable(s, u)?;
        if path.len() as u32 > left(s, u) {
            return Err(format!(
                "{l} may move {} more hex(es) this turn (turn {}), not {}",
                left(s, u),
                s.turn,
                path.len()
            ));
        }
    }
    if path.is_empty() {
        return Err("give at least one hex to move to".into());
    }
    let group_armed = units.iter().any(|l| s.unit(*l).is_some_and(Unit::armed));
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let mut rng = (*s.rng).clone();
    let mut segment: Vec<Hex> = Vec::new();
    let mut at = start;
    let mut alive: Vec<Label> = units.to_vec();
    let flush = |scratch: &mut State, out: &mut Vec<Event>, segment: &mut Vec<Hex>, alive: &[Label], stopped: bool| {
        if segment.is_empty() && !stopped {
            return;
        }
        let e = Event::Moved {
            units: alive.to_vec(),
            path: std::mem::take(segment),
            stopped,
            shown: Vec::new(),
        };
        apply(scratch, &e);
        out.push(e);
    };
    for (i, &to) in path.iter().enumerate() {
        let name = s.board.name(to);
        if !s.board.contains(to) || at.distance(to) != 1 {
            return Err(format!(
                "{name} is not next to {}: a path goes one adjacent hex at a time (next to it: {})",
                s.board.name(at),
                s.board
                    .neighbours(at)
                    .iter()
                    .map(|h| s.board.name(*h))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let terrain = scratch.terrain(to);
        if terrain == Some(Marker::SuperNova) {
            return Err(format!("{name} is a Super Nova: no unit may enter it"));
        }
        let slows = scratch.unexplored(to) || terrain.is_some_and(Marker::slows);
        if slows {
            let what = if scratch.unexplored(to) {
                "an unexplored hex".to_string()
            } else {
                format!("a hex of {}", terrain.map(Marker::name).unwrap_or_default())
            };
            let fresh = alive.iter().all(|l| scratch.unit(*l).is_some_and(|u| u.moved == 0)) && i == 0;
            if !fresh {
                return Err(format!(
                    "{name} is {what}: it may be entered only as the first hex a unit moves this phase (text 4.2)"
                ));
            }
            if i + 1 != path.len() {
                return Err(format!("{name} is {what}: entering it ends the move (text 4.2)"));
            }
        }
        let unarmed_movers = alive.iter().any(|l| scratch.unit(*l).is_some_and(|u| !u.armed()));
        if unarmed_movers && !group_armed && needs_escort(&scratch, seat, to) && !own_warships_at(&scratch, seat, to)
        {
            return Err(format!(
                "units without an attack strength enter {name} only with one of your armed ships (moving with them, or there already; text 4.2)"
            ));
        }
        segment.push(to);
        at = to;
        // Enemy units there.
        let enemy_armed = scratch.enemies_at(seat, to).into_iter().any(|e| scratch.armed_at(e, to));
        let lone: Vec<Label> = scratch
            .units_at(to)
            .filter(|u| u.owner() != seat && !u.armed())
            .map(|u| u.label)
            .collect();
        if enemy_armed {
            flush(&mut scratch, &mut out, &mut segment, &alive, true);
            return Ok(out);
        }
        if !lone.is_empty() && group_armed {
            flush(&mut scratch, &mut out, &mut segment, &alive, false);
            let e = Event::Destroyed {
                at: to,
                kinds: lone.iter().filter_map(|l| scratch.unit(*l)).map(|u| u.kind).collect(),
                units: lone,
                why: Doom::Overrun,
            };
            apply(&mut scratch, &e);
            out.push(e);
        }
        // A revealed Black Hole: each ship rolls as it enters (text 6.3).
        if terrain == Some(Marker::BlackHole) {
            flush(&mut scratch, &mut out, &mut segment, &alive, false);
            let e = black_hole(&scratch, &alive, to, &mut rng);
            apply(&mut scratch, &e);
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
        .filter(|u| !u.kind.slow() && u.moved > moves(1, after.turn))
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

fn own_warships_at(s: &State, seat: Seat, hex: Hex) -> bool {
    s.units_at(hex).any(|u| u.owner() == seat && u.armed())
}

/// Every ship of `units` at `at` rolls a d10 (decoys: one per ship shown).
pub fn black_hole(s: &State, units: &[Label], at: Hex, rng: &mut GameRng) -> Event {
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
    }
}

/// Ships a Black Hole roll destroys.
pub fn black_hole_losses(dice: &[u32]) -> u32 {
    dice.iter().filter(|d| !black_hole_survives(**d)).count() as u32
}

/// `split unit:L ships:N`.
pub fn split(s: &State, seat: Seat, label: Label, ships: u32) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if !u.kind.is_warship() {
        return Err(format!("only groups of warships split; {label} is a {}", u.kind.name()));
    }
    if ships == 0 || ships >= u.ships {
        return Err(format!(
            "{label} has {} ship(s): split off 1 to {}",
            u.ships,
            u.ships.saturating_sub(1)
        ));
    }
    if s.counters_of(seat, u.kind) >= super::basics::COUNTERS_PER_TYPE {
        return Err(format!(
            "you have all {} of your {} counters on the map",
            super::basics::COUNTERS_PER_TYPE,
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
    }])
}

/// `merge unit:L into:M`.
pub fn merge(s: &State, from: Label, into: Label) -> Result<Vec<Event>, String> {
    if from == into {
        return Err("a group cannot merge into itself".into());
    }
    let (a, b) = (s.unit(from).ok_or("no such counter")?, s.unit(into).ok_or("no such counter")?);
    if a.hex != b.hex {
        return Err(format!("{from} and {into} are not in one hex"));
    }
    if !a.kind.is_warship() || a.kind != b.kind {
        return Err(format!("only groups of one warship type merge ({from}: {}, {into}: {})", a.kind, b.kind));
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
    Ok(vec![Event::Merged { from, into }])
}

/// `colonize unit:L`: now, or at the end of the combat phase if enemies
/// are in the hex (text 4.4).
pub fn colonize(s: &State, seat: Seat, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if u.kind != Kind::ColonyShip {
        return Err(format!("only a Colony Ship colonizes; {label} is not one"));
    }
    let at = u.hex;
    let name = s.board.name(at);
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
        Some(_) => Ok(vec![Event::ColonizeQueued { unit: label, at }]),
        None if !s.enemies_at(seat, at).is_empty() => Ok(vec![Event::ColonizeQueued { unit: label, at }]),
        None => Ok(vec![Event::Colonized { unit: label, at, barren }]),
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
        _ => Err(format!("there are no Minerals or Space Wreck at {} to tow", s.board.name(u.hex))),
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
    Ok(vec![Event::Explored {
        at,
        marker,
        removed: marker.one_time(),
    }])
}

/// `upgrade unit:L` (text 9.10.4).
pub fn upgrade(s: &State, seat: Seat, label: Label) -> Result<Vec<Event>, String> {
    let u = s.unit(label).ok_or("no such counter")?;
    if !u.kind.is_warship() {
        return Err(format!("only warship groups are upgraded; {label} is a {}", u.kind.name()));
    }
    if u.upgrading {
        return Err(format!("{label} is being upgraded already"));
    }
    if u.moved > 0 {
        return Err(format!("{label} has moved this turn: upgrading takes a whole turn at the yard"));
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
        return Err(format!("upgrading {label} costs {cost} CP (hull × ships); you have {cp}"));
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
    }])
}

/// `scrap at:H what:base|yard` in the movement phase.
pub fn scrap_at(s: &State, seat: Seat, at: Hex, what: Kind) -> Result<Vec<Event>, String> {
    let has = s.colony(at).is_some_and(|c| {
        c.owner == seat
            && match what {
                Kind::Base => c.base,
                _ => c.yards > 0,
            }
    });
    if !has {
        return Err(format!("you have no {} at {}", what.name(), s.board.name(at)));
    }
    Ok(vec![Event::InstallationScrapped { at, what }])
}

/// The end of the movement phase: towing Miners at their own colonies
/// deposit what they tow (automatic, rules page *Towing*).
pub fn deposits(s: &State, seat: Seat) -> Vec<Event> {
    s.units_of(seat)
        .filter(|u| u.kind == Kind::Miner)
        .filter_map(|u| {
            let marker = u.tow?;
            s.colony(u.hex).filter(|c| c.owner == seat).map(|_| Event::Deposited {
                miner: u.label,
                at: u.hex,
                marker,
            })
        })
        .collect()
}
