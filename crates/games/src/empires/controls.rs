//! How legal orders are offered as buttons and menus: moves grouped by
//! counter (one menu each), a counter's other orders together, shots by
//! firing group, sheet lines by matter (bid, research, purchases per hex),
//! and the orders that end something (`end`, the sheet's ready) asked
//! about while other orders are open.

use super::basics::ships_word;
use super::orders::{Action, ScrapWhat, Written};
use super::state::{Phase, State};
use super::view::{line_text, name};
use crate::shared::menu::sheet_control;
use orrery_engine::{Control, ControlStyle, Seat, SheetEdit, SheetVerb};

fn control(label: String, group: impl Into<String>, style: ControlStyle, confirm: Option<String>) -> Control {
    let label = if label.chars().count() > 80 {
        label.chars().take(79).collect::<String>() + "…"
    } else {
        label
    };
    Control {
        label,
        group: group.into(),
        style,
        confirm,
    }
}

/// One of `seat`'s own counters as its player reads it, with what it is
/// ("Scout B36", "Destroyer group B2"); anyone else's, or one not found, by
/// its label alone (what an enemy counter is may be hidden).
fn unit_words(state: &State, seat: Seat, unit: &str) -> String {
    match super::basics::Label::parse(unit, seat).and_then(|l| state.unit(l)) {
        Some(u) if u.label.owner == seat => format!("{} {unit}", u.kind.name()),
        _ => unit.to_string(),
    }
}

/// A battle target as players read it: a Doomsday Machine (`dm1`) or an
/// alien ship (`alien2`) by name, a counter by its label.
fn target_words(at: &str) -> String {
    if let Some(n) = at.strip_prefix("dm") {
        format!("Doomsday Machine {n}")
    } else if let Some(n) = at.strip_prefix("alien") {
        format!("alien ship {n}")
    } else {
        at.to_string()
    }
}

/// Each of `actions` (the seat's legal orders, in the ruleset's order) as
/// a control.
pub fn controls(state: &State, seat: Seat, actions: &[Action], names: &[String]) -> Vec<Control> {
    let main_open = |a: &Action| {
        actions.iter().any(|x| {
            x != a
                && !matches!(
                    x,
                    Action::End
                        | Action::Auto
                        | Action::Sheet(
                            SheetEdit::Ready | SheetEdit::Unready | SheetEdit::Clear | SheetEdit::Remove(_)
                        )
                )
        })
    };
    let movable = actions.iter().filter(|a| matches!(a, Action::Move { .. })).count();
    let lines = state.sheet.lines_of(seat).unwrap_or(&[]);
    let main = ControlStyle::Main;
    let own_one = |u: &String| unit_words(state, seat, u);
    let own = |us: &[String]| us.iter().map(own_one).collect::<Vec<_>>().join(", ");
    actions
        .iter()
        .map(|a| match a {
            Action::Move { units, path, .. } => control(
                format!("{} → {}", own(units), path.join(", ")),
                format!("Move {}", units.join(", ")),
                main,
                None,
            ),
            Action::Split { unit, ships } => control(
                format!("Split {} off {}", ships_word(*ships), own_one(unit)),
                format!("Counter {unit}"),
                main,
                None,
            ),
            Action::Merge { unit, into } => control(
                format!("Merge {} into {}", own_one(unit), own_one(into)),
                format!("Counter {unit}"),
                main,
                None,
            ),
            Action::Colonize { unit } => control(
                format!("Colonize with {}", own_one(unit)),
                format!("Counter {unit}"),
                main,
                None,
            ),
            Action::Tow { unit } => control(
                format!("Tow with {}", own_one(unit)),
                format!("Counter {unit}"),
                main,
                None,
            ),
            Action::Deposit { unit } => control(
                format!("Deposit the tow of {}", own_one(unit)),
                format!("Counter {unit}"),
                main,
                None,
            ),
            Action::Upgrade { unit } => control(
                format!("Upgrade {}", own_one(unit)),
                format!("Counter {unit}"),
                main,
                None,
            ),
            Action::Peek { unit, at } => control(format!("{unit} peeks at {at}"), "Peek", main, None),
            Action::Reveal { at } => control(format!("Reveal the marker of {at}"), "Peek", main, None),
            Action::Scrap { what, .. } => {
                let label = match what {
                    ScrapWhat::Unit(u) => format!("Scrap {u}"),
                    ScrapWhat::At { at, what } => format!("Scrap the {} at {at}", what.name()),
                };
                control(label, "Scrap", ControlStyle::Minor, None)
            }
            Action::End => control(
                "End movement".into(),
                "Turn",
                ControlStyle::End,
                main_open(a).then(|| {
                    format!(
                        "End your movement with {movable} move{} still open? Your combat follows.",
                        if movable == 1 { "" } else { "s" }
                    )
                }),
            ),
            // In movement: cloaked Raiders ordered to attack (12.1.2).
            Action::Battle { at } if state.phase == Phase::Movement => {
                control(format!("Raiders attack at {at}"), "Battle", main, None)
            }
            Action::Battle { at } => control(format!("Fight at {at}"), "Battle", main, None),
            Action::Screen { unit, ships, damaged } => control(
                match (ships, damaged) {
                    (Some(1), true) => format!("Screen the damaged ship of {unit}"),
                    (Some(n), true) => format!("Screen {} of {unit}, the damaged one too", ships_word(*n)),
                    (Some(n), false) => format!("Screen {} of {unit}", ships_word(*n)),
                    (None, _) => format!("Screen {unit}"),
                },
                "Screen",
                main,
                None,
            ),
            Action::Done => control("Done screening".into(), "Screen", ControlStyle::Minor, None),
            Action::Fire { unit, at, ships } => control(
                match ships {
                    Some(n) => format!(
                        "{} of {unit} {} at {}",
                        ships_word(*n),
                        if *n == 1 { "fires" } else { "fire" },
                        target_words(at)
                    ),
                    None => format!("{unit} fires at {}", target_words(at)),
                },
                format!("Fire {unit}"),
                main,
                None,
            ),
            Action::Retreat { unit, to, ships } => control(
                match ships {
                    Some(n) => format!(
                        "{} of {unit} {} to {to}",
                        ships_word(*n),
                        if *n == 1 { "retreats" } else { "retreat" }
                    ),
                    None => format!("{unit} retreats to {to}"),
                },
                format!("Retreat {unit}"),
                main,
                None,
            ),
            Action::Hold { unit } => control(format!("{unit} holds its fire"), "Hold", ControlStyle::Minor, None),
            Action::Auto => control("Auto: my standing orders".into(), "Combat", ControlStyle::Minor, None),
            Action::Shift { dir } => control(
                match dir {
                    Some(d) => format!("Shift the stack {}", d.key()),
                    None => "Shift it at random".into(),
                },
                "Shift",
                main,
                None,
            ),
            Action::Detonate { at } => control(
                {
                    let kind = super::basics::Label::parse(at, seat)
                        .and_then(|l| state.unit(l))
                        .map_or(String::new(), |u| format!(" ({})", u.kind.name()));
                    format!("A mine destroys a ship of {at}{kind}")
                },
                "Mines",
                main,
                None,
            ),
            Action::First { player } => control(
                format!("{} plays first", name(names, *player)),
                "First player",
                main,
                None,
            ),
            Action::Sheet(edit @ (SheetEdit::Add(written) | SheetEdit::Replace(_, written))) => {
                let line = match edit {
                    SheetEdit::Replace(n, _) => Some(*n),
                    _ => None,
                };
                let (label, group) = match written {
                    Written::Bid { cp } => (format!("Bid {cp} CP"), "Bid".to_string()),
                    Written::Research { tech, grants: None } => {
                        let next = state.empire(seat).levels.get(*tech) + 1;
                        (
                            format!("Research {} {next} ({} CP)", tech.name(), tech.cost(next).unwrap_or(0)),
                            "Research".to_string(),
                        )
                    }
                    Written::Research { tech, grants: Some(n) } => {
                        let e = state.empire(seat);
                        let next = e.levels.get(*tech) + 1;
                        (
                            format!(
                                "{n} grant{} to {} {next} ({} CP; {} of {} rolled)",
                                if *n == 1 { "" } else { "s" },
                                tech.name(),
                                n * super::rules::economy::GRANT_CP,
                                e.progress_of(*tech),
                                tech.cost(next).unwrap_or(0)
                            ),
                            "Research".to_string(),
                        )
                    }
                    Written::Buy { kind, at, ships, .. } => {
                        let n = ships.unwrap_or(1);
                        (
                            format!("Buy {n} {} at {at} ({} CP)", kind.name(), kind.chart().cost * n),
                            format!("Buy at {at}"),
                        )
                    }
                    Written::Scrap(ScrapWhat::Unit(u)) => (format!("Scrap {u}"), "Scrap".to_string()),
                    Written::Scrap(ScrapWhat::At { at, what }) => {
                        (format!("Scrap the {} at {at}", what.name()), "Scrap".to_string())
                    }
                };
                let label = match line {
                    Some(n) => format!("Line {n}: {label}"),
                    None => label,
                };
                control(label, group, main, None)
            }
            Action::Sheet(SheetEdit::Remove(n)) => {
                let text = lines
                    .get(n - 1)
                    .map_or_else(String::new, |l| line_text(&state.board, l));
                control(
                    format!("✖ Line {n}: {text}"),
                    "Remove a line",
                    ControlStyle::Minor,
                    None,
                )
            }
            Action::Sheet(SheetEdit::Clear) => sheet_control(SheetVerb::Clear, "economic", lines.len(), false),
            Action::Sheet(SheetEdit::Ready) => sheet_control(SheetVerb::Ready, "economic", lines.len(), main_open(a)),
            Action::Sheet(SheetEdit::Unready) => sheet_control(SheetVerb::Unready, "economic", lines.len(), false),
            Action::Standing(_) => control("Set standing orders".into(), "Standing", ControlStyle::Minor, None),
        })
        .collect()
}
