//! How legal orders are offered to a person ([`Ruleset::control`]), and
//! which actions a player may take back ([`Ruleset::takes_back`]).
//!
//! Labels name planets, tiles, units and cards in words ("Move Earth →
//! Mars · 2 ships, 3 infantry"); groups keep one kind of decision together
//! ("Move from Earth", "Claim", "Play a card"), and a group larger
//! than one menu is cut in runs ([`chunk`]).
//!
//! [`Ruleset::control`]: orrery_engine::Ruleset::control
//! [`Ruleset::takes_back`]: orrery_engine::Ruleset::takes_back

use super::basics::board::UnitKind;
use super::basics::cards::CardId;
use super::basics::tiles::TileRef;
use super::events::Event;
use super::orders::cards::PlayOrder;
use super::orders::crises::{LoseOrder, PowerOrder};
use super::orders::{Action, ClaimOrder, Purchase};
use super::rules::legal_actions;
use super::state::State;
use crate::shared::menu::{and_list, chunk, GROUP_MOST};
use orrery_engine::{Control, ControlStyle, Seat};

/// The most characters of a player's name a label shows (a label has 80).
const NAME_IN_LABEL: usize = 16;

/// A seat's display name, cut to fit a label ("seat 2" when the list
/// lacks it).
fn who(names: &[String], seat: Seat) -> String {
    let name = names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string());
    if name.chars().count() <= NAME_IN_LABEL {
        name
    } else {
        let mut cut: String = name.chars().take(NAME_IN_LABEL - 1).collect();
        cut.push('…');
        cut
    }
}

fn control_of(label: String, group: &str, style: ControlStyle) -> Control {
    Control {
        label,
        group: group.to_string(),
        style,
        confirm: None,
    }
}

/// "#12 Mine", "Alien tile A1".
fn tile_words(tile: TileRef) -> String {
    match tile {
        TileRef::Bag(id) => format!("{id} {}", id.kind()),
        TileRef::Alien(a) => format!("Alien tile {a}"),
    }
}

/// " · alice's mine", " · with a tank", "".
fn claim_options(order: &ClaimOrder, names: &[String]) -> String {
    let mut out = String::new();
    if let Some(unit) = order.unit {
        out.push_str(&format!(" · with a {unit}"));
    }
    if let Some(t) = order.target {
        out.push_str(&format!(" · {}'s {}", who(names, t.seat), t.piece));
    }
    out
}

/// "2 ships", "2 ships + 3 inf + 1 tank".
fn carried(ships: u32, infantry: u32, tanks: u32) -> String {
    let mut out = if ships == 1 {
        "1 ship".to_string()
    } else {
        format!("{ships} ships")
    };
    if infantry > 0 {
        out.push_str(&format!(" + {infantry} inf"));
    }
    match tanks {
        0 => {}
        1 => out.push_str(" + 1 tank"),
        n => out.push_str(&format!(" + {n} tanks")),
    }
    out
}

/// "infantry, tank at Mars" for `buy units:infantry,tank@mars`.
fn purchases(units: &[Purchase]) -> String {
    let words: Vec<String> = units
        .iter()
        .map(|p| {
            if p.planet == super::basics::board::HOME {
                p.kind.to_string()
            } else {
                format!("{} at {}", p.kind, p.planet)
            }
        })
        .collect();
    and_list(&words)
}

fn unit_list(units: &[UnitKind]) -> String {
    let words: Vec<String> = units.iter().map(|u| u.to_string()).collect();
    and_list(&words)
}

fn card_list(cards: &[CardId]) -> String {
    let words: Vec<String> = cards.iter().map(|c| c.name().to_string()).collect();
    and_list(&words)
}

/// "Play Recalibrate · die 2", "Play Saboteurs · alice's mine at Titan".
fn play_label(order: &PlayOrder, names: &[String]) -> String {
    let mut label = format!("Play {}", order.card.name());
    let mut parts = Vec::new();
    if let Some(die) = order.die {
        parts.push(format!("die {die}"));
    }
    if let Some(tile) = order.tile {
        parts.push(tile_words(TileRef::Bag(tile)));
    }
    match (order.player, order.piece, order.at) {
        (Some(p), Some(piece), Some(at)) => parts.push(format!("{}'s {piece} at {at}", who(names, p))),
        (Some(p), _, _) => parts.push(format!("on {}", who(names, p))),
        (None, _, Some(at)) => parts.push(format!("at {at}")),
        _ => {}
    }
    if let Some(to) = order.to {
        parts.push(format!("to {to}"));
    }
    if !parts.is_empty() {
        label.push_str(" · ");
        label.push_str(&parts.join(", "));
    }
    label
}

/// "Steal a card from alice and destroy bob's tank at Mars".
fn power_label(order: &PowerOrder, names: &[String]) -> String {
    if order.is_none() {
        return "Use no power".to_string();
    }
    let mut parts = Vec::new();
    if let Some(s) = order.steal {
        parts.push(format!("steal a card from {}", who(names, s)));
    }
    if let Some(k) = order.kill {
        parts.push(format!("destroy {}'s {} at {}", who(names, k.seat), k.unit, k.planet));
    }
    if let Some(w) = order.wreck {
        parts.push(format!("wreck {}'s {} at {}", who(names, w.seat), w.piece, w.planet));
    }
    let text = and_list(&parts);
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

fn lose_label(order: &LoseOrder) -> String {
    let mut parts = Vec::new();
    if !order.units.is_empty() {
        parts.push(unit_list(&order.units));
    }
    for p in &order.pieces {
        parts.push(match p.planet {
            Some(at) => format!("{} at {at}", p.piece),
            None => p.piece.to_string(),
        });
    }
    if parts.is_empty() {
        "Lose nothing".to_string()
    } else {
        format!("Lose {}", and_list(&parts))
    }
}

/// The label, group and style of a legal order of `seat` (see
/// [`controls`]).
pub fn control(state: &State, seat: Seat, action: &Action, names: &[String]) -> Control {
    let all = legal_actions(state, seat);
    match all.iter().position(|a| a == action) {
        Some(i) => controls(state, seat, &all, names).swap_remove(i),
        None => offered(state, action, names),
    }
}

/// How each of `actions` (the legal orders of `seat`, in order) is
/// offered. A group of more orders than one menu holds is cut by meaning:
/// moves, by the planet they leave ("Move from Earth"), then by ships
/// carried ("· 2 ships"); purchases by how many units ("Buy · 2 units");
/// discards by their first card; then, if still too long, in runs.
pub fn controls(state: &State, _seat: Seat, actions: &[Action], names: &[String]) -> Vec<Control> {
    let mut out: Vec<Control> = actions.iter().map(|a| offered(state, a, names)).collect();
    // Positions of the orders of each group, in order.
    let mut members: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, c) in out.iter().enumerate() {
        match members.iter_mut().find(|(g, _)| *g == c.group) {
            Some((_, v)) => v.push(i),
            None => members.push((c.group.clone(), vec![i])),
        }
    }
    for (group, idx) in members.into_iter().filter(|(_, idx)| idx.len() > GROUP_MOST) {
        // Too many for one menu: cut by what the orders mean (ships
        // carried, units bought, the first card discarded), then in runs.
        let mut parts: Vec<(u32, String)> = idx.iter().map(|&i| meaning(&actions[i])).collect();
        parts.sort();
        parts.dedup();
        for (key, words) in parts {
            let same: Vec<usize> = idx.iter().copied().filter(|&i| meaning(&actions[i]).0 == key).collect();
            let base = if words.is_empty() {
                group.clone()
            } else {
                format!("{group} · {words}")
            };
            for (pos, &i) in same.iter().enumerate() {
                out[i].group = chunk(&base, pos, same.len(), 1, "");
            }
        }
    }
    out
}

/// What part of a long group an order belongs to, as a key to sort by and
/// its words: moves by ships carried, purchases by how many units,
/// discards by their first card; other orders are one part.
fn meaning(action: &Action) -> (u32, String) {
    match action {
        Action::Move { ships, .. } => (*ships, carried(*ships, 0, 0)),
        Action::Buy { units } => {
            let n = units.len() as u32;
            (n, if n == 1 { "1 unit".into() } else { format!("{n} units") })
        }
        Action::Discard(cards) => match cards.first() {
            Some(c) => (*c as u32, format!("{} first", c.name())),
            None => (0, String::new()),
        },
        _ => (0, String::new()),
    }
}

/// The label, group and style of an order, before long groups are cut.
fn offered(state: &State, action: &Action, names: &[String]) -> Control {
    use ControlStyle::{End, Main, Minor};
    match action {
        Action::Move {
            from,
            to,
            ships,
            infantry,
            tanks,
            claim,
        } => {
            let mut label = format!("{from} → {to}: {}", carried(*ships, *infantry, *tanks));
            if let Some(c) = claim {
                label.push_str(&format!(" · claim {}{}", tile_words(c.tile), claim_options(c, names)));
            }
            control_of(label, &format!("Move from {from}"), Main)
        }
        Action::Claim(order) => {
            let at = match order.tile {
                TileRef::Bag(id) => state.tile_planet(id),
                TileRef::Alien(a) => state.aliens.get(&a).copied(),
            };
            let at = at.map(|p| format!(" at {p}")).unwrap_or_default();
            let label = format!("Claim {}{at}{}", tile_words(order.tile), claim_options(order, names));
            control_of(label, "Claim", Main)
        }
        Action::Pay { units, lose } => {
            let mut label = format!("Pay with {units}");
            if !lose.is_empty() {
                label.push_str(&format!(" · lose {}", unit_list(lose)));
            }
            control_of(label, "Pay", Main)
        }
        Action::GiveUp { .. } => {
            let mut c = control_of("Give up the claim".to_string(), "Pay", End);
            c.confirm = Some("Give up this claim? Your turn ends.".to_string());
            c
        }
        Action::Buy { units } => control_of(format!("Buy {}", purchases(units)), "Buy", Main),
        // Every action ends the turn: passing is one of them, on the side.
        Action::Pass => control_of("Pass · take a cube and draw".to_string(), "Pass", Minor),
        Action::End => {
            let mut c = control_of("End turn".to_string(), "End", End);
            c.confirm = Some("End your turn without your extra action?".to_string());
            c
        }
        Action::Play(order) => control_of(play_label(order, names), "Play a card", Main),
        Action::Take(card) => control_of(format!("Take {}", card.name()), "Take a card", Main),
        Action::Discard(cards) => control_of(format!("Discard {}", card_list(cards)), "Discard", Main),
        Action::Power(order) => {
            let style = if order.is_none() { Minor } else { Main };
            control_of(power_label(order, names), "Mercury's powers", style)
        }
        Action::Lose(order) => control_of(lose_label(order), "Losses", Main),
    }
}

/// Whether an action with this event may be taken back: moving and buying
/// (money paid for units, units placed, a move) reveal nothing and roll
/// nothing. Not a claim (dice), a pass (a card drawn), a card played
/// (revealed), nor anything of Phase 4.
pub fn takes_back(event: &Event) -> bool {
    match event {
        Event::ActionTaken { .. } | Event::UnitsMoved { .. } | Event::UnitsPlaced { .. } => true,
        Event::MoneyPaid { reason, .. } => matches!(reason, super::events::MoneyReason::Purchase),
        _ => false,
    }
}

#[cfg(test)]
mod meaning_tests {
    use super::*;
    use crate::solar::basics::board::Planet;

    /// Long groups are cut by what their orders mean, in words.
    #[test]
    fn long_groups_are_cut_by_meaning() {
        let buy = |n: usize| Action::Buy {
            units: vec![
                Purchase {
                    kind: UnitKind::Infantry,
                    planet: Planet::Earth,
                };
                n
            ],
        };
        assert_eq!(meaning(&buy(1)), (1, "1 unit".to_string()));
        assert_eq!(meaning(&buy(3)), (3, "3 units".to_string()));
        let discard = Action::Discard(vec![CardId::Recalibrate, CardId::Mercenaries]);
        assert_eq!(meaning(&discard).1, format!("{} first", CardId::Recalibrate.name()));
        assert_eq!(meaning(&Action::Pass), (0, String::new()));
    }
}
