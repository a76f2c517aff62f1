//! How legal orders are offered to a person ([`Ruleset::control`]), which
//! actions a player may take back ([`Ruleset::takes_back`]), and the
//! autocomplete of a move from several planets.
//!
//! [`Ruleset::control`]: orrery_engine::Ruleset::control
//! [`Ruleset::takes_back`]: orrery_engine::Ruleset::takes_back

use super::basics::{Kind, Tech};
use super::events::Event;
use super::orders::{parse_sources, Action, Sources, MOVE_USAGE};
use super::rules::{adjacent_sources, buy_options, decide, legal_actions, name};
use super::state::State;
use crate::shared::menu::{and_list, chunk, count, GROUP_MOST};
use orrery_engine::{Control, ControlStyle, Seat};

fn forces(n: u32) -> String {
    count(n, "force", "forces")
}

fn plain(label: String, group: String) -> Control {
    Control {
        label,
        group,
        style: ControlStyle::Main,
        confirm: None,
    }
}

/// The label, group and style of a legal order of `seat`.
pub fn control(st: &State, seat: Seat, action: &Action) -> Control {
    match action {
        Action::Move { to, from } => move_control(st, seat, Mover::Move, to, from),
        Action::Produce { at } => {
            let label = format!("Produce at {at}{}", yield_text(st, at));
            plain(label, produce_group(st, seat, Some(at)))
        }
        Action::Refresh => plain("Refresh planets and techs".into(), produce_group(st, seat, None)),
        Action::Use {
            tech,
            to: Some(to),
            from,
            ..
        } if matches!(tech, Tech::Jumpgates | Tech::Logistics) => {
            let mover = if *tech == Tech::Jumpgates {
                Mover::Jumpgates
            } else {
                Mover::Logistics
            };
            move_control(st, seat, mover, to, from)
        }
        Action::Use { tech, at, also, .. } => {
            let at = at.as_deref().unwrap_or("");
            let label = match tech {
                Tech::Foundries => format!("Foundries: produce at {at} and {}", also.as_deref().unwrap_or("")),
                Tech::Overclock => format!("Overclock: produce at {at}{}", yield_text(st, at)),
                Tech::Levy => format!(
                    "Levy: +1 force on each of your {}",
                    count(held(st, seat).len() as u32, "planet", "planets")
                ),
                Tech::Grants => "Grants: gain 2 science".into(),
                Tech::Labs => "Labs: gain 1 science".into(),
                Tech::Refit => format!("Refit: ready {at} again"),
                Tech::Conscripts => format!("Conscripts: +1 force at {at}"),
                other => format!("Use {}", other.name()),
            };
            plain(label, tech_group(st, seat, action, *tech))
        }
        Action::Buy { tech } => {
            let cost = buy_options(st, seat)
                .into_iter()
                .find(|(t, _, _)| t == tech)
                .map_or(0, |(_, c, _)| c);
            plain(format!("Buy {} ({cost} science)", tech.name()), "Buy a tech".into())
        }
        Action::End => end_control(st, seat),
    }
}

fn held(st: &State, seat: Seat) -> Vec<usize> {
    (0..st.forces.len()).filter(|&p| st.holder(p) == Some(seat)).collect()
}

/// " (+2 forces, +1 science)".
fn yield_text(st: &State, planet: &str) -> String {
    let Some(p) = st.map.index(planet) else {
        return String::new();
    };
    let pl = &st.map.planets[p];
    if pl.science > 0 {
        format!(" (+{}, +{} science)", forces(pl.production), pl.science)
    } else {
        format!(" (+{})", forces(pl.production))
    }
}

/// Production and refreshing: one group, split into menus if needed.
fn produce_group(st: &State, seat: Seat, at: Option<&str>) -> String {
    let ready: Vec<usize> = held(st, seat).into_iter().filter(|&p| !st.exhausted[p]).collect();
    let pos = match at {
        Some(at) => st
            .map
            .index(at)
            .and_then(|p| ready.iter().position(|&q| q == p))
            .unwrap_or(0),
        None => ready.len(),
    };
    chunk("Produce or refresh", pos, ready.len() + 1, 1, "")
}

/// The techs other than the moving ones: one group "Techs" while they fit
/// one menu, else one per tech.
fn tech_group(st: &State, seat: Seat, action: &Action, tech: Tech) -> String {
    let uses: Vec<Action> = legal_actions(st, seat)
        .into_iter()
        .filter(|a| matches!(a, Action::Use { tech: t, .. } if !matches!(t, Tech::Jumpgates | Tech::Logistics)))
        .collect();
    if uses.len() <= GROUP_MOST {
        return "Techs".into();
    }
    let of_tech: Vec<&Action> = uses
        .iter()
        .filter(|a| matches!(a, Action::Use { tech: t, .. } if *t == tech))
        .collect();
    let pos = of_tech.iter().position(|a| *a == action).unwrap_or(0);
    chunk(tech.name(), pos, of_tech.len(), 1, "")
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mover {
    Move,
    Jumpgates,
    Logistics,
}

impl Mover {
    fn verb(self) -> &'static str {
        match self {
            Mover::Move => "Move",
            Mover::Jumpgates => "Jumpgates:",
            Mover::Logistics => "Logistics:",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Mover::Move => "Move",
            Mover::Jumpgates => "Jumpgates",
            Mover::Logistics => "Logistics",
        }
    }
}

/// Where forces at `s` may go with this kind of move.
fn destinations(st: &State, seat: Seat, mover: Mover, s: usize) -> Vec<usize> {
    match mover {
        Mover::Move => st.map.neighbors(s),
        Mover::Logistics => st
            .map
            .neighbors(s)
            .into_iter()
            .filter(|&t| st.holder(t) == Some(seat))
            .collect(),
        Mover::Jumpgates => {
            let d = st.map.distances(s);
            (0..st.forces.len())
                .filter(|&t| t != s && d[t].is_some_and(|d| d <= 2))
                .collect()
        }
    }
}

/// Destinations with two or more adjacent planets of `seat` (the moves of
/// all forces from all of them).
fn combined_targets(st: &State, seat: Seat) -> Vec<usize> {
    (0..st.forces.len())
        .filter(|&t| {
            st.map
                .neighbors(t)
                .into_iter()
                .filter(|&p| st.forces_of(p, seat) > 0)
                .count()
                >= 2
        })
        .collect()
}

/// " (attack 2)" when `to` is held by someone else.
fn attack_text(st: &State, seat: Seat, to: usize) -> String {
    match st.forces[to] {
        Some((holder, n)) if holder != seat => format!(" (attack {n})"),
        _ => String::new(),
    }
}

/// A move of one kind: "Move 3 from Algol to Vega (attack 2)". Grouped as
/// one menu when all such moves fit, else per source planet ("Move from
/// Algol"), and a source with too many for one menu per destination or per
/// count, whichever makes fewer menus.
fn move_control(st: &State, seat: Seat, mover: Mover, to: &str, from: &Sources) -> Control {
    let Some(t) = st.map.index(to) else {
        return plain(format!("{} to {to}", mover.name()), mover.name().into());
    };
    let attack = attack_text(st, seat, t);
    let sources: Vec<usize> = held(st, seat);
    let per_source: Vec<(usize, Vec<usize>, u32)> = sources
        .iter()
        .map(|&s| (s, destinations(st, seat, mover, s), st.forces_of(s, seat)))
        .collect();
    let single: usize = per_source.iter().map(|(_, d, f)| d.len() * *f as usize).sum();
    // The combined moves count only while the single ones fit one menu, or
    // to place a combined move.
    let combined = if mover == Mover::Move && (single <= GROUP_MOST || from.len() != 1) {
        combined_targets(st, seat)
    } else {
        Vec::new()
    };
    let all_in_one = single + combined.len() <= GROUP_MOST;
    match from.as_slice() {
        [(name, Some(k))] => {
            let label = format!("{} {k} from {name} to {to}{attack}", mover.verb());
            let group = if all_in_one {
                mover.name().to_string()
            } else {
                let s = st.map.index(name);
                let (dests, f) = per_source
                    .iter()
                    .find(|(p, _, _)| Some(*p) == s)
                    .map_or((Vec::new(), 0), |(_, d, f)| (d.clone(), *f));
                let base = format!("{} from {name}", mover.name());
                if dests.len() * f as usize <= GROUP_MOST {
                    base
                } else if dests.len() <= f as usize {
                    chunk(
                        &format!("{base} to {to}"),
                        k.saturating_sub(1) as usize,
                        f as usize,
                        1,
                        "",
                    )
                } else {
                    let pos = dests.iter().position(|&d| d == t).unwrap_or(0);
                    chunk(&format!("{} {k} from {name}", mover.name()), pos, dests.len(), 1, "")
                }
            };
            plain(label, group)
        }
        _ => {
            let parts: Vec<(String, u32)> = from
                .iter()
                .map(|(p, n)| {
                    let have = st.map.index(p).map_or(0, |q| st.forces_of(q, seat));
                    (p.clone(), n.unwrap_or(have))
                })
                .collect();
            let sum: u32 = parts.iter().map(|(_, n)| n).sum();
            let listed: Vec<String> = parts.iter().map(|(p, n)| format!("{p} ({n})")).collect();
            let mut label = format!("{} all from {} to {to}{attack}", mover.verb(), and_list(&listed));
            if label.chars().count() > 80 {
                label = format!(
                    "{} all {sum} from {} planets to {to}{attack}",
                    mover.verb(),
                    parts.len()
                );
            }
            let group = if all_in_one {
                mover.name().to_string()
            } else {
                let pos = combined.iter().position(|&c| c == t).unwrap_or(0);
                chunk("Move from several planets", pos, combined.len(), 1, "")
            };
            plain(label, group)
        }
    }
}

/// "End turn" ("End turn and score" with the scoring token), asking first
/// while the Action, a purchase or a Free Action is still open.
fn end_control(st: &State, seat: Seat) -> Control {
    let scoring = st.token == seat;
    let label = if scoring { "End turn and score" } else { "End turn" };
    let mut can = Vec::new();
    if !st.action_taken {
        can.push("take your Action".to_string());
    }
    if st.may_buy && !buy_options(st, seat).is_empty() {
        can.push("buy a tech".to_string());
    }
    let legal = legal_actions(st, seat);
    let free: Vec<String> = [Tech::Logistics, Tech::Labs, Tech::Refit, Tech::Conscripts]
        .into_iter()
        .filter(|t| t.kind() == Kind::Free)
        .filter(|t| legal.iter().any(|a| matches!(a, Action::Use { tech, .. } if tech == t)))
        .map(|t| t.name().to_string())
        .collect();
    if !free.is_empty() {
        can.push(format!("use {}", and_list(&free)));
    }
    let confirm = (!can.is_empty()).then(|| format!("End your turn? You can still {}.", and_list(&can)));
    Control {
        label: label.into(),
        group: "Turn".into(),
        style: ControlStyle::End,
        confirm,
    }
}

/// May an action with this event be taken back? Only what its player chose
/// with everything in view and nothing new coming out: moves without a
/// fight, production, refreshing, techs used, science and forces gained,
/// a purchase (but not the market refilling from the hidden deck), and the
/// set-up helpers that place things. Not a combat, the end of a turn (with
/// its scoring and the next player's turn), nor anything that reveals the
/// deck.
pub fn takes_back(event: &Event) -> bool {
    match event {
        Event::ForcesSet { .. }
        | Event::Moved { .. }
        | Event::Produced { .. }
        | Event::PlanetExhausted { .. }
        | Event::PlanetReadied { .. }
        | Event::Refreshed { .. }
        | Event::TechUsed { .. }
        | Event::ForcesAdded { .. }
        | Event::ScienceGained { .. }
        | Event::TechBought { .. }
        | Event::TechGranted { .. }
        | Event::ScienceSet { .. }
        | Event::VpSet { .. }
        | Event::TokenSet { .. } => true,
        // Refilling from an empty deck reveals nothing.
        Event::MarketCycled { drawn, .. } => drawn.is_none(),
        Event::GameStarted { .. }
        | Event::TurnBegan { .. }
        | Event::CombatResolved { .. }
        | Event::TurnEnded { .. }
        | Event::Scored { .. }
        | Event::TokenPassed { .. }
        | Event::GameOver { .. }
        | Event::MarketSet { .. }
        | Event::Resigned { .. } => false,
    }
}

/// Autocomplete for a move from several planets with counts of one's own
/// choosing (`from:Vega=2,Mira=1`), which the legal list leaves out (it has
/// each planet alone with every count, and all the forces of every
/// adjacent planet): once `to` is given and the sources typed so far end in
/// a comma, offer each further adjacent source, with all its forces or with
/// each count, keeping only orders `decide` accepts.
pub fn complete_sources(
    st: &State,
    seat: Seat,
    command: &str,
    option: &str,
    filled: &[(String, String)],
    partial: &str,
) -> Vec<String> {
    if command != "move" || option != "from" || st.active != seat || st.action_taken {
        return vec![];
    }
    let Some(to) = filled
        .iter()
        .find(|(k, _)| k == "to")
        .and_then(|(_, v)| st.map.index(v))
    else {
        return vec![];
    };
    let Some((head, tail)) = partial.rsplit_once(',') else {
        return vec![];
    };
    let Ok(listed) = parse_sources(head, MOVE_USAGE) else {
        return vec![];
    };
    let tail = tail.trim().to_lowercase();
    let mut out = Vec::new();
    for s in adjacent_sources(st, seat, to) {
        if listed.iter().any(|(p, _)| st.map.index(p) == Some(s)) {
            continue;
        }
        let nm = name(st, s);
        let counts = (1..=st.forces_of(s, seat)).map(|k| format!("{nm}={k}"));
        for seg in std::iter::once(nm.clone()).chain(counts) {
            if !seg.to_lowercase().starts_with(&tail) {
                continue;
            }
            let text = format!("{},{seg}", head.trim());
            let Ok(from) = parse_sources(&text, MOVE_USAGE) else {
                continue;
            };
            let action = Action::Move { to: name(st, to), from };
            if decide(st, seat, &action).is_ok() {
                out.push(text);
            }
        }
    }
    out
}
