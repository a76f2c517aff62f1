//! Mines and Minesweepers (advanced rule 13): what happens before a battle
//! in a hex where the active player's ships meet another player's Mines.
//!
//! The active player's Minesweepers remove what they can (13.2); each mine
//! left must detonate (13.1.5) and destroys one ship, of any type, chosen by
//! the mines' owner (13.1.4). The owner is asked (the `mines` decision, one
//! mine at a time) only when there is a choice: when fewer mines are left
//! than ships, among two or more counters. Otherwise, and at the deadline
//! or under standing orders on fire at will, the biggest ship goes first
//! ([`default_target`]). Then the battle, if any is left, is fought as
//! usual.

use super::super::basics::Kind;
use super::super::events::Event;
use super::super::state::{State, Unit};
use orrery_engine::{Hex, Seat};

/// The owner of the Mines at `at` that the active player's ships are in,
/// if any.
pub fn mine_owner(s: &State, at: Hex) -> Option<Seat> {
    let attacker = s.active_seat()?;
    s.units_at(at)
        .find(|u| u.kind == Kind::Mines && !s.allied(u.owner(), attacker))
        .map(Unit::owner)
}

/// The active player's counters at `at` a mine may destroy a ship of: every
/// counter but decoys (not ships), Mines, and Raiders cloaked against the
/// mines' owner (13.1.6: mines work on Raiders only where the owner has a
/// Destroyer with Scanners enough).
pub fn targets(s: &State, at: Hex) -> Vec<&Unit> {
    let Some(attacker) = s.active_seat() else {
        return Vec::new();
    };
    let owner = mine_owner(s, at);
    s.units_at(at)
        .filter(|u| {
            u.owner() == attacker
                && !matches!(u.kind, Kind::Decoy | Kind::Mines)
                && !owner.is_some_and(|o| s.cloaked(u, o))
        })
        .collect()
}

fn mines_of(s: &State, owner: Seat, at: Hex) -> Vec<&Unit> {
    s.units_at(at)
        .filter(|u| u.owner() == owner && u.kind == Kind::Mines)
        .collect()
}

/// The mines `owner` has left at `at`.
pub fn mines_left(s: &State, owner: Seat, at: Hex) -> u32 {
    mines_of(s, owner, at).iter().map(|u| u.ships).sum()
}

/// Whether the owner has a choice now: mines left, fewer than the ships,
/// and the ships in two or more counters.
pub fn choice(s: &State, owner: Seat, at: Hex) -> bool {
    let mines = mines_left(s, owner, at);
    let targets = targets(s, at);
    let ships: u32 = targets.iter().map(|u| u.ships).sum();
    mines > 0 && mines < ships && targets.len() > 1
}

/// The ship a mine destroys when its owner does not choose: the biggest
/// (hull, then cost), then the counter first in label order.
pub fn default_target(s: &State, at: Hex) -> Option<&Unit> {
    targets(s, at).into_iter().min_by_key(|u| {
        let c = u.kind.chart();
        (std::cmp::Reverse((c.hull, c.cost)), u.label)
    })
}

/// One mine of `owner` at `at` detonates against `target`.
pub fn detonate(s: &State, owner: Seat, at: Hex, target: &Unit) -> Option<Event> {
    let mine = mines_of(s, owner, at).first()?.label;
    // A Carrier lost: the squadrons the other Carriers cannot hold are lost
    // too, unless a colony of theirs is there (text 13.1.4, 11.1.2).
    let mut lost = Vec::new();
    if target.kind == Kind::Carrier && s.colony(at).is_none_or(|c| c.owner != target.owner()) {
        let mine_of = |kind: Kind| -> Vec<&Unit> {
            s.units_at(at)
                .filter(|u| u.owner() == target.owner() && u.kind == kind)
                .collect()
        };
        let room = 3 * (mine_of(Kind::Carrier).iter().map(|u| u.ships).sum::<u32>() - 1);
        let squadrons = mine_of(Kind::Fighters);
        let mut excess = squadrons.iter().map(|u| u.ships).sum::<u32>().saturating_sub(room);
        for f in squadrons.iter().rev() {
            if excess == 0 {
                break;
            }
            let n = excess.min(f.ships);
            lost.push((f.label, n));
            excess -= n;
        }
    }
    Some(Event::MineDetonated {
        at,
        mine,
        target: target.label,
        kind: target.kind,
        lost,
    })
}

/// The next automatic event of a minefield at `at`, or `None` when the
/// owner must choose or the mines are done: one mine on the default target
/// when there is no choice (or `auto`, the owner's standing orders).
pub fn automatic(s: &State, owner: Seat, at: Hex, auto: bool) -> Option<Event> {
    let mines = mines_left(s, owner, at);
    if mines == 0 || (choice(s, owner, at) && !auto) {
        return None;
    }
    detonate(s, owner, at, default_target(s, at)?)
}

/// Whether the mines at `at` are done: none left, or no ship left.
pub fn done(s: &State, owner: Seat, at: Hex) -> bool {
    mines_of(s, owner, at).is_empty() || targets(s, at).is_empty()
}

/// The Minesweepers' sweep at `at` before detonation (13.2): each sweeper
/// removes as many mines as its Minesweeper Technology level (the level it
/// was built or upgraded with). `None` when nothing is swept.
pub fn sweep(s: &State, owner: Seat, at: Hex) -> Option<Event> {
    let attacker = s.active_seat()?;
    let mut capacity: u32 = s
        .units_at(at)
        .filter(|u| u.owner() == attacker && u.kind == Kind::Sweeper)
        .map(|u| u.ships * u.levels.sweep)
        .sum();
    let mut swept = Vec::new();
    for m in mines_of(s, owner, at) {
        if capacity == 0 {
            break;
        }
        let n = m.ships.min(capacity);
        capacity -= n;
        swept.push((m.label, n));
    }
    (!swept.is_empty()).then_some(Event::MinesSwept { at, swept })
}
