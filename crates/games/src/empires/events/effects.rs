//! The larger parts of [`apply`](super::apply): what an event does to
//! counters, battles, colonies and empires beyond its own fields.

use super::*;

/// New labels for counters (old, new).
pub(super) fn relabel(s: &mut State, pairs: &[(Label, Label)]) {
    // Two passes, so a label may be reused within one shuffle.
    let mut moved: Vec<(usize, Label)> = Vec::new();
    for (old, new) in pairs {
        if let Some(i) = s.units.iter().position(|u| u.label == *old) {
            moved.push((i, *new));
        }
    }
    for (i, new) in moved {
        s.units[i].label = new;
    }
}

/// The side `seat` fights on in the active player's combat.
pub(super) fn side_of(s: &State, seat: Seat) -> Side {
    if s.active_seat() == Some(seat) {
        Side::Attacker
    } else {
        Side::Defender
    }
}

/// Units gone from the map while a battle is fought (scuttled by the
/// active player in their combat, text 7.3.2) leave it: a group as if
/// destroyed, a Colony Ship or Miner from its side's unarmed. Screening
/// noted and not yet committed is dropped (it is asked again).
pub(super) fn leave_battle(s: &mut State, units: &[Label]) {
    let mut touched = false;
    for label in units {
        let Some(u) = s.unit(*label) else { continue };
        let (hex, ships, side) = (u.hex, u.ships, side_of(s, u.owner()));
        let Some(b) = s.battle.as_mut().filter(|b| b.hex() == hex) else {
            continue;
        };
        touched = true;
        if b.scuttle(side, &Target::Group(*label), ships).is_err() {
            b.forget_unarmed(*label);
        }
    }
    if touched {
        s.screening.clear();
    }
}

/// A Base or Ship Yard scuttled in the hex of the battle being fought
/// leaves it (see [`leave_battle`]).
pub(super) fn scuttle_installation(s: &mut State, at: Hex, what: Kind) {
    let Some(owner) = s.colony(at).map(|c| c.owner) else {
        return;
    };
    let side = side_of(s, owner);
    let id = if what == Kind::Base {
        Target::Base
    } else {
        Target::Yards
    };
    if let Some(b) = s.battle.as_mut().filter(|b| b.hex() == at) {
        let _ = b.scuttle(side, &id, 1);
        s.screening.clear();
    }
}

/// Write a battle's ship counts back onto the units and colonies in its
/// hex (groups reduced to 0 ships are gone; a colony's Base and Ship Yards
/// follow their fighters).
/// Ships of `label` that left a battle for `to`: the whole counter, or
/// `ships` of it as the new counter `new`.
pub(super) fn move_off(s: &mut State, label: Label, whole: bool, ships: u32, new: Option<Label>, to: Hex) {
    if let Some(u) = s.unit_mut(label) {
        if whole {
            u.came_from = Some(u.hex);
            u.hex = to;
        } else if let Some(new) = new {
            let mut part = u.clone();
            u.ships -= ships;
            part.label = new;
            part.ships = ships;
            part.came_from = Some(part.hex);
            part.hex = to;
            s.units.push(part);
        }
    }
}

pub(super) fn sync_battle(s: &mut State) {
    let Some(b) = s.battle.clone() else { return };
    let hex = b.hex();
    for f in b.fighters() {
        match f.id {
            Target::Group(label) => {
                if let Some(u) = s.units.iter_mut().find(|u| u.label == label && u.hex == hex) {
                    u.ships = f.ships;
                }
            }
            Target::Base => {
                if let Some(c) = s.colony_mut(hex) {
                    c.base = f.ships > 0;
                }
            }
            Target::Yards => {
                if let Some(c) = s.colony_mut(hex) {
                    c.yards = f.ships;
                    c.new_yards = c.new_yards.min(c.yards);
                    c.hidden_yards = c.hidden_yards.min(c.yards);
                }
            }
            Target::Alien(_) => {}
            // Destroyed, it leaves the map; its damage is repaired after the
            // combat, but kept in solitaire (17.2).
            Target::Machine(n) => {
                let keep = s.solitaire();
                if f.ships == 0 {
                    if let Some(i) = s.machines.iter().position(|m| m.number == n) {
                        s.machines.remove(i);
                        s.machines_destroyed += 1;
                    }
                } else if let Some(m) = s.machines.iter_mut().find(|m| m.number == n) {
                    m.damage = if keep { f.damage } else { 0 };
                }
            }
        }
    }
    // The aliens left: subdued once the last is gone (14.3).
    if b.aliens() {
        if let Some(p) = s.spot_mut(hex) {
            p.aliens = b
                .fighters()
                .iter()
                .filter(|f| f.is_alien() && f.ships > 0)
                .map(|f| f.kind)
                .collect();
        }
    }
    s.units.retain(|u| u.ships > 0);
}

/// A player leaves the game (rules page, *Resigning*).
pub(super) fn resign(s: &mut State, seat: Seat) {
    s.empires[seat.index()].resigned = true;
    s.units.retain(|u| u.owner() != seat);
    s.queued.retain(|(l, _)| l.owner != seat);
    let hexes: Vec<Hex> = s.colonies_of(seat).map(|c| c.hex).collect();
    for h in hexes {
        destroy_colony(s, h);
    }
    if let Some(p) = s.order.iter().position(|x| *x == seat) {
        s.order.remove(p);
        // `active` keeps pointing at the player whose turn it is, or, when
        // that was the resigned seat, at the next one.
        if p < s.active {
            s.active -= 1;
        }
    }
    s.sheet.release(seat);
    match s.phase {
        // The bid's winner left: the best bid still in the game chooses
        // (ties: the earliest in this round's order).
        Phase::First { chooser } if chooser == seat => {
            let bid = |x: Seat| s.empire(x).last_bid.unwrap_or(0);
            let order = &s.order;
            if let Some(next) = order
                .iter()
                .copied()
                .enumerate()
                .max_by_key(|(place, x)| (bid(*x), std::cmp::Reverse(*place)))
                .map(|(_, x)| x)
            {
                s.phase = Phase::First { chooser: next };
            }
        }
        // The player to the right shifts a Lost stack: the next one still
        // in the game.
        Phase::Lost { shifter, hex } if shifter == seat => {
            if let Some(active) = s.active_seat() {
                s.phase = Phase::Lost {
                    shifter: s.right_of(active),
                    hex,
                };
            }
        }
        _ => {}
    }
}

/// A colony destroyed: its planet is free again (a Barren Planet if it
/// was founded on one), its deposits lost (text 4.4.2, 6.7.3).
pub(super) fn destroy_colony(s: &mut State, at: Hex) {
    if let Some(i) = s.colonies.iter().position(|c| c.hex == at) {
        let c = s.colonies.remove(i);
        let marker = if c.barren { Marker::Barren } else { Marker::Planet };
        match s.spot_mut(at) {
            Some(p) => {
                p.marker = marker;
                p.face_up = true;
            }
            None => {
                s.spots.push(Spot {
                    hex: at,
                    marker,
                    face_up: true,
                    home: None,
                    aliens: Vec::new(),
                    aliens_hidden: false,
                });
                s.spots.sort_by_key(|p| Board::name_key(p.hex));
            }
        }
    }
}

/// One player's Economic Phase, as carried out.
/// Instant technology upgrade (text 15.1): every ship of `seat` gets its
/// current levels, as an upgrade at a yard would give them
/// ([`Unit::upgraded`]).
pub(super) fn upgrade_all(s: &mut State, seat: Seat) {
    let now = s.empire(seat).levels;
    for u in s.units.iter_mut().filter(|u| u.owner() == seat) {
        u.levels = u.upgraded(now);
    }
}

pub(super) fn carry_out_ledger(s: &mut State, l: &Ledger) {
    let seat = l.seat;
    s.units.retain(|u| !l.scrapped.contains(&u.label));
    for (hex, what) in &l.scrapped_at {
        if let Some(c) = s.colony_mut(*hex) {
            c.remove(*what);
        }
    }
    let blockaded: Vec<Hex> = s
        .colonies
        .iter()
        .filter(|c| c.owner == seat && s.blockaded(c))
        .map(|c| c.hex)
        .collect();
    for c in s
        .colonies
        .iter_mut()
        .filter(|c| c.owner == seat && !blockaded.contains(&c.hex))
    {
        c.deposits.clear();
    }
    let e = &mut s.empires[seat.index()];
    e.cp = l.carried;
    e.levels = l.levels;
    e.wrecks.extend(l.wrecks.iter().copied());
    e.research_last = l.research;
    e.grants_last = l.grants;
    for r in &l.rolls {
        e.progress.retain(|(t, _)| *t != r.tech);
        if !r.reached {
            e.progress.push((r.tech, r.total));
        }
    }
    e.progress.sort();
    if s.options.instant_upgrade {
        upgrade_all(s, seat);
    }
    for (label, n) in &l.added {
        if let Some(u) = s.units.iter_mut().find(|u| u.label == *label) {
            u.ships += n;
        }
    }
    s.units.extend(l.bought.iter().cloned());
    for (hex, what) in &l.built {
        if let Some(c) = s.colony_mut(*hex) {
            c.build(*what);
        }
    }
}
