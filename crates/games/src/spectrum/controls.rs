//! How sheet edits are offered as buttons and menus: lines to add grouped
//! by the ship, planet or matter they concern (each group one menu), the
//! sheet's own verbs (remove a line, clear, ready, un-ready) beside them.

pub mod complete;

use super::orders::{unparse, Action};
use super::rules::resolve;
use super::state::{Order, State};
use super::view::order_text;
use crate::shared::menu::{sheet_control, GROUP_MOST};
use orrery_engine::{Control, ControlStyle, Seat, SheetVerb};

fn control(label: String, group: String, style: ControlStyle, confirm: Option<String>) -> Control {
    Control {
        label,
        group,
        style,
        confirm,
    }
}

/// The group a line to add belongs to.
fn group_of(order: &Order) -> String {
    match order {
        Order::Build { name, .. } => format!("Build at {name}"),
        Order::Scrap { ship } | Order::Repair { ship, .. } | Order::Hide { ship } => format!("Ship {ship}"),
        Order::Move { ship, .. } => format!("Move {ship}"),
        Order::Fire { ship, .. } => format!("Fire {ship}"),
        Order::Terraform { name, .. } => format!("Terraform {name}"),
        Order::Ally { .. } => "Alliances".to_string(),
        Order::Faction { .. } => "Factions".to_string(),
    }
}

/// A ship as a player reads it: its class and name ("Jumper R4").
fn ship_words(state: &State, ship: super::basics::ShipId) -> String {
    match state.ship(ship) {
        Some(x) => format!("{} {ship}", x.class),
        None => ship.to_string(),
    }
}

/// A line to add, in words for its menu.
fn label_of(state: &State, order: &Order, names: &[String]) -> String {
    match order {
        Order::Move { ship, path } if path.0.is_empty() => format!("{}: under way, but stay", ship_words(state, *ship)),
        Order::Move { ship, path } => format!("{}: {}", ship_words(state, *ship), path.words()),
        Order::Repair { ship, .. } => format!("Repair {ship} (all its damage)"),
        other => {
            let mut t = order_text(other, names);
            if let Some(first) = t.get(..1) {
                t = first.to_uppercase() + &t[1..];
            }
            t
        }
    }
}

/// Each of `actions` (the seat's legal edits, in the ruleset's order) as
/// a control.
pub fn controls(state: &State, seat: Seat, actions: &[Action], names: &[String]) -> Vec<Control> {
    let lines = state.sheet.lines_of(seat).unwrap_or(&[]);
    let main_open = actions.iter().any(|a| matches!(a, Action::Add(_)));
    let section = state.section.name();
    // Groups longer than a menu are cut into runs.
    let mut sizes: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::new();
    for a in actions {
        let c = match a {
            Action::Add(w) => match resolve(state, seat, w) {
                Ok(order) => {
                    let group = group_of(&order);
                    let n = match sizes.iter_mut().find(|(g, _)| *g == group) {
                        Some(e) => {
                            e.1 += 1;
                            e.1
                        }
                        None => {
                            sizes.push((group.clone(), 1));
                            1
                        }
                    };
                    let run = (n - 1) / GROUP_MOST;
                    let group = if run == 0 {
                        group
                    } else {
                        format!("{group} ({})", run + 1)
                    };
                    control(label_of(state, &order, names), group, ControlStyle::Main, None)
                }
                Err(_) => control(unparse(a).to_string(), "Lines".into(), ControlStyle::Main, None),
            },
            Action::Replace(n, _) => control(format!("Replace line {n}"), "Lines".into(), ControlStyle::Main, None),
            Action::Remove(n) => {
                let text = lines.get(n - 1).map_or_else(String::new, |o| order_text(o, names));
                let mut label = format!("✖ Line {n}: {text}");
                if label.chars().count() > 80 {
                    label = label.chars().take(79).collect::<String>() + "…";
                }
                let run = (n - 1) / GROUP_MOST;
                let group = if run == 0 {
                    "Remove a line".to_string()
                } else {
                    format!("Remove a line ({})", run + 1)
                };
                control(label, group, ControlStyle::Minor, None)
            }
            Action::Clear => sheet_control(SheetVerb::Clear, &section, lines.len(), false),
            Action::Ready => sheet_control(SheetVerb::Ready, &section, lines.len(), main_open),
            Action::Unready => sheet_control(SheetVerb::Unready, &section, lines.len(), false),
        };
        out.push(c);
    }
    out
}
