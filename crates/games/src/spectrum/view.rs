//! What one viewer may see, each event in words as that viewer may learn
//! it, and where the war is.
//!
//! Public: the map, planets' colours and owners, incomes, alliances,
//! factions, runs at 25+, who is ready (but for combat sheets: who owes
//! one tells who fights, so each seat sees only its own). A seat also sees its points,
//! sheet, alliance settings, declaration, jump chart, its own ships (dark
//! ones too) and the non-dark ships its sensors reach. Nobody sees the jump
//! table, others' points, sheets or settings, dark ships of others, or
//! ships out of sensor range.

use super::basics::ships::{RoundResult, Ship, Unit};
use super::basics::{Colour, ShipId, Space};
use super::events::Event;
pub use super::state::{sees, sensed};
use super::state::{Faction, Order, Section, State};
use crate::shared::menu::and_list;
use orrery_engine::{Outcome, PhaseInfo, Seat, Viewer};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanetView {
    pub name: String,
    pub space: Space,
    pub colour: Colour,
    pub owner: Option<Seat>,
}

/// A player as everyone sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub colour: Colour,
    pub planets: usize,
    pub income: u32,
    /// Turn-beginnings in a row at 25+.
    pub run: u32,
    /// Owes a sheet now, and whether it is ready.
    pub sheet: Option<bool>,
    pub out: bool,
    /// Left the war by resigning (also `out`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

/// What only the viewing seat knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Own {
    pub seat: Seat,
    pub points: u32,
    /// The running section's sheet.
    pub sheet: Vec<Order>,
    /// Yes/no to each seat (own entry false).
    pub settings: Vec<bool>,
    pub declared: Option<Faction>,
    pub chart: Vec<(Space, Space)>,
    /// The spaces the seat's sensors reach.
    pub sensed: Vec<Space>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub viewer: Viewer,
    pub players: Vec<PlayerView>,
    pub planets: Vec<PlanetView>,
    pub turn: u32,
    pub turn_limit: u32,
    pub section: Section,
    pub alliances: Vec<(Seat, Seat)>,
    pub factions: Vec<Faction>,
    /// Ships the viewer sees: its own (dark ones too) and others' its
    /// sensors reach. None in the public view.
    pub ships: Vec<Ship>,
    pub own: Option<Own>,
    pub outcome: Option<Outcome>,
}

/// Whether `after` shows its viewer anything `before` did not, beyond
/// where the game is: the turn and section, and the sheets (who owes one,
/// who is ready, the viewer's own lines), which every section begins anew.
pub fn news(before: &View, after: &View) -> bool {
    let mut was = before.clone();
    was.turn = after.turn;
    was.section = after.section;
    for (w, a) in was.players.iter_mut().zip(&after.players) {
        w.sheet = a.sheet;
    }
    if let (Some(w), Some(a)) = (&mut was.own, &after.own) {
        w.sheet.clone_from(&a.sheet);
    }
    was != *after
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let mut ready = state.sheet.ready();
    // Who owes a combat sheet tells who fights: each seat sees only its own.
    if matches!(state.section, Section::Combat { .. }) {
        ready.retain(|(s, _)| viewer.seat() == Some(*s));
    }
    let players = state
        .seats()
        .map(|s| PlayerView {
            colour: state.colour(s),
            planets: state.planets_of(s),
            income: state.income(s),
            run: state.runs[s.index()],
            sheet: ready.iter().find(|(x, _)| *x == s).map(|(_, r)| *r),
            out: state.out[s.index()],
            resigned: state.has_resigned(s),
        })
        .collect();
    let planets = state
        .planets
        .iter()
        .zip(&state.map.planets)
        .map(|(now, p)| PlanetView {
            name: p.name.clone(),
            space: p.space,
            colour: now.colour,
            owner: now.owner,
        })
        .collect();
    let (ships, own) = match viewer {
        Viewer::Seat(seat) if seat.index() < state.players as usize => {
            let sensed = sensed(state, seat);
            let ships = state.ships.iter().filter(|x| sees(seat, x, &sensed)).cloned().collect();
            let own = Own {
                seat,
                points: state.points[seat.index()],
                sheet: state.sheet.lines_of(seat).unwrap_or(&[]).to_vec(),
                settings: state.settings[seat.index()].clone(),
                declared: state
                    .declared
                    .iter()
                    .find(|d| d.members.first() == Some(&seat))
                    .cloned(),
                chart: state.charts[seat.index()].clone(),
                sensed,
            };
            (ships, Some(own))
        }
        _ => (Vec::new(), None),
    };
    View {
        viewer,
        players,
        planets,
        turn: state.turn,
        turn_limit: state.turn_limit,
        section: state.section,
        alliances: state.alliances.clone(),
        factions: state.factions.clone(),
        ships,
        own,
        outcome: state.outcome.clone(),
    }
}

pub fn phase(state: &State) -> PhaseInfo {
    PhaseInfo {
        number: state.boundaries,
        label: format!("Turn {} · {}", state.turn, state.section.name()),
        turn: None,
    }
}

fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

/// An order in words, for its seat.
pub fn order_text(order: &Order, names: &[String]) -> String {
    match order {
        Order::Scrap { ship } => format!("scrap {ship}"),
        Order::Repair { ship, points: None } => format!("repair {ship}"),
        Order::Repair { ship, points: Some(p) } => format!("repair {ship} ({p} points at most)"),
        Order::Hide { ship } => format!("hide {ship}"),
        Order::Build { class, name, .. } => format!("build a {} at {name} ({} points)", class.name(), class.cost()),
        Order::Move { ship, path } => format!("move {ship}: {path}"),
        Order::Fire {
            ship,
            target,
            shots: None,
        } => format!("{ship} fires all its shots at {target}"),
        Order::Fire {
            ship,
            target,
            shots: Some(n),
        } => format!("{ship} fires {n} at {target}"),
        Order::Terraform { name, colour, .. } => format!("terraform {name} to {colour}"),
        Order::Ally { player, yes: true } => format!("ally with {}", name(names, *player)),
        Order::Ally { player, yes: false } => format!("no alliance with {}", name(names, *player)),
        Order::Faction { with, empire } => {
            let v: Vec<String> = with.iter().map(|s| name(names, *s)).collect();
            format!(
                "declare {} with {}",
                if *empire { "an empire" } else { "a faction" },
                and_list(&v)
            )
        }
    }
}

/// The seat's sheet, one numbered line each, in words.
pub fn sheet_lines(state: &State, seat: Seat, names: &[String]) -> Vec<String> {
    state
        .sheet
        .lines_of(seat)
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(i, o)| format!("{}. {}", i + 1, order_text(o, names)))
        .collect()
}

fn is(viewer: Viewer, seat: Seat) -> bool {
    viewer == Viewer::Seat(seat)
}

fn ship_list(ids: &[ShipId]) -> String {
    let v: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
    and_list(&v)
}

/// A round of combat in words, for the seats with ships in the fight
/// (every ship that fires or is fired at is one they see: both are
/// non-dark and at their space): who fired how many shots at whom and how
/// many hit, what each ship hit lost, and what was destroyed or went dark.
pub(crate) fn combat_report(result: &RoundResult) -> String {
    // Shots grouped by firer and target, in the order first fired.
    let mut pairs: Vec<(ShipId, ShipId, usize, usize)> = Vec::new();
    for shot in &result.shots {
        match pairs.iter_mut().find(|p| p.0 == shot.ship && p.1 == shot.target) {
            Some(p) => {
                p.2 += 1;
                p.3 += usize::from(shot.hit);
            }
            None => pairs.push((shot.ship, shot.target, 1, usize::from(shot.hit))),
        }
    }
    let fired: Vec<String> = pairs
        .iter()
        .map(|(ship, target, n, hits)| {
            let outcome = match hits {
                0 => "all missed".to_string(),
                h if h == n && *n > 1 => "all hit".to_string(),
                1 => "1 hit".to_string(),
                h => format!("{h} hits"),
            };
            format!(
                "{ship} fired {n} shot{} at {target} ({outcome})",
                if *n == 1 { "" } else { "s" }
            )
        })
        .collect();
    let mut t = if fired.is_empty() {
        "Combat: no ship could fire.".to_string()
    } else {
        format!("Combat: {}.", fired.join("; "))
    };
    // Units lost, per ship hit, in the order hit.
    let mut lost: Vec<(ShipId, Vec<(Unit, usize)>)> = Vec::new();
    for hit in &result.hits {
        let i = match lost.iter().position(|(s, _)| *s == hit.ship) {
            Some(i) => i,
            None => {
                lost.push((hit.ship, Vec::new()));
                lost.len() - 1
            }
        };
        let units = &mut lost[i].1;
        match units.iter_mut().find(|(u, _)| *u == hit.unit) {
            Some(u) => u.1 += 1,
            None => units.push((hit.unit, 1)),
        }
    }
    for (ship, units) in &lost {
        let v: Vec<String> = units
            .iter()
            .map(|(u, n)| {
                if *n == 1 {
                    u.name().to_string()
                } else {
                    format!("{n} {}", u.name())
                }
            })
            .collect();
        t.push_str(&format!(" {ship} lost {}.", and_list(&v)));
    }
    if !result.destroyed.is_empty() {
        t.push_str(&format!(" Destroyed: {}.", ship_list(&result.destroyed)));
    }
    if !result.darkened.is_empty() {
        t.push_str(&format!(" Gone dark: {}.", ship_list(&result.darkened)));
    }
    t
}

/// The event as `viewer` may learn of it.
pub fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    match event {
        Event::WarBegan {
            players,
            turn_limit,
            colours,
            ..
        } => {
            let colours = colours.clone().unwrap_or_else(|| Colour::of_seats(*players));
            let who: Vec<String> = colours
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{} {}", name(names, Seat(i as u8)), c.name()))
                .collect();
            Some(format!(
                "The war begins: {players} players ({}), {turn_limit} turns at most.",
                who.join(", ")
            ))
        }
        Event::Sheet(e) => e.narrate(viewer, |order| order_text(order, names)),
        Event::LineDropped(d) if is(viewer, d.seat) => Some(format!(
            "Line {} ({}) was dropped: {}.",
            d.line,
            order_text(&d.order, names),
            d.why
        )),
        Event::TurnBegan { turn } => Some(format!("Turn {turn} begins.")),
        Event::RunsCounted { runs } => {
            let at: Vec<String> = runs
                .iter()
                .enumerate()
                .filter(|(_, r)| **r > 0)
                .map(|(i, r)| format!("{} ({r})", name(names, Seat(i as u8))))
                .collect();
            (!at.is_empty()).then(|| format!("Holding 25+ planets, turns in a row: {}.", and_list(&at)))
        }
        Event::FactionFormed { faction } => Some(format!(
            "A {} forms: {}.",
            if faction.empire { "empire" } else { "faction" },
            members(&faction.members, names)
        )),
        Event::FactionHeld { members: m } => Some(format!("The faction of {} holds.", members(m, names))),
        Event::FactionDissolved { members: m, why } => {
            Some(format!("The faction of {} dissolves: {why}.", members(m, names)))
        }
        Event::DeclarationFailed { by, why } if is(viewer, *by) => Some(format!("Your declaration failed: {why}.")),
        Event::IncomeCollected { seat, points } if is(viewer, *seat) => Some(format!("You collect {points} points.")),
        Event::SectionOpened { .. } => None,
        Event::ShipScrapped { owner, ship, unpaid } if is(viewer, *owner) => Some(if *unpaid {
            format!("{ship} was scrapped: its maintenance could not be paid.")
        } else {
            format!("{ship} scrapped.")
        }),
        Event::MaintenancePaid { seat, points } if is(viewer, *seat) => {
            Some(format!("You pay {points} points of maintenance."))
        }
        Event::ShipRepaired { owner, ship, units } if is(viewer, *owner) => {
            let v: Vec<&str> = units.iter().map(|u| u.name()).collect();
            Some(format!("{ship} repaired: {} ({} points).", v.join(", "), units.len()))
        }
        Event::ShipHidden { owner, ship } if is(viewer, *owner) => Some(format!("{ship} goes dark.")),
        Event::ShipBuilt { owner, ship, class, .. } if is(viewer, *owner) => {
            Some(format!("{ship} {} built.", class.name()))
        }
        Event::ShipMoved {
            owner,
            ship,
            stopped,
            jumps,
            ..
        } if is(viewer, *owner) => {
            let mut t = format!("{ship} moved");
            if !jumps.is_empty() {
                t.push_str(&format!(
                    " (charted {} jump{})",
                    jumps.len(),
                    if jumps.len() == 1 { "" } else { "s" }
                ));
            }
            if *stopped {
                t.push_str(", stopped short by a stationary ship");
            }
            t.push('.');
            Some(t)
        }
        Event::ShipStayed { owner, ship } if is(viewer, *owner) => Some(format!("{ship} is under way but stays.")),
        Event::ShotsFired { seats, result, .. } if matches!(viewer, Viewer::Seat(s) if seats.contains(&s)) => {
            Some(combat_report(result))
        }
        Event::PlanetTaken {
            name: planet, owner, ..
        } => Some(match owner {
            Some(o) => format!("{planet} is taken by {}.", name(names, *o)),
            None => format!("{planet} is unowned now."),
        }),
        Event::Terraformed { name, colour, .. } => Some(format!("{name} is terraformed to {colour}.")),
        Event::AllianceSet { seat, player, yes } if is(viewer, *seat) => Some(format!(
            "Your alliance setting for {}: {}.",
            name(names, *player),
            if *yes { "yes" } else { "no" }
        )),
        Event::AlliancesFormed { alliances } => Some(if alliances.is_empty() {
            "No alliances next turn.".into()
        } else {
            let v: Vec<String> = alliances
                .iter()
                .map(|(a, b)| format!("{}–{}", name(names, *a), name(names, *b)))
                .collect();
            format!("Allies next turn: {}.", and_list(&v))
        }),
        Event::FactionDeclared { faction } if is(viewer, faction.members[0]) => Some(format!(
            "You declare a {} with {}; it is checked at the beginning of next turn.",
            if faction.empire { "empire" } else { "faction" },
            members(&faction.members[1..], names)
        )),
        Event::SeatOut { seat } => Some(format!("{} is out of the war.", name(names, *seat))),
        Event::Resigned { seat } => Some(format!(
            "🏳️ {} resigned and leaves the war: their planets are unowned now, their ships are gone, and their alliances end.",
            name(names, *seat)
        )),
        Event::WarEnded { outcome } => Some(format!("The war is over: {}.", outcome.reason())),
        _ => None,
    }
}

fn members(m: &[Seat], names: &[String]) -> String {
    let v: Vec<String> = m.iter().map(|s| name(names, *s)).collect();
    and_list(&v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::basics::ships::{Hit, Shot};

    fn id(colour: Colour, number: u8) -> ShipId {
        ShipId { colour, number }
    }

    #[test]
    fn a_combat_round_says_who_fired_at_whom_and_what_was_lost() {
        let (r14, b2, b3) = (id(Colour::Red, 14), id(Colour::Blue, 2), id(Colour::Blue, 3));
        let shot = |ship, target, hit| Shot { ship, target, hit };
        let result = RoundResult {
            shots: vec![
                shot(r14, b2, true),
                shot(r14, b2, false),
                shot(r14, b2, true),
                shot(b2, r14, false),
                shot(b3, r14, true),
            ],
            hits: vec![
                Hit {
                    ship: b2,
                    unit: Unit::Armour,
                },
                Hit {
                    ship: b2,
                    unit: Unit::Weapons,
                },
                Hit {
                    ship: r14,
                    unit: Unit::Armour,
                },
            ],
            destroyed: vec![],
            darkened: vec![b2],
        };
        assert_eq!(
            combat_report(&result),
            "Combat: R14 fired 3 shots at B2 (2 hits); B2 fired 1 shot at R14 (all missed); \
             B3 fired 1 shot at R14 (1 hit). B2 lost armour and weapons. R14 lost armour. Gone dark: B2."
        );
        let all = RoundResult {
            shots: vec![shot(b3, r14, true), shot(b3, r14, true)],
            hits: vec![
                Hit {
                    ship: r14,
                    unit: Unit::Armour,
                },
                Hit {
                    ship: r14,
                    unit: Unit::Armour,
                },
            ],
            destroyed: vec![r14],
            darkened: vec![],
        };
        assert_eq!(
            combat_report(&all),
            "Combat: B3 fired 2 shots at R14 (all hit). R14 lost 2 armour. Destroyed: R14."
        );
    }
}
