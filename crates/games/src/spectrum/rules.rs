//! Who owes what, the legal lines, and `decide`: sheet edits, and when the
//! last sheet of a section is ready, the section carried out (see [`turn`])
//! up to the next sheet. Its parts: [`turn`] and [`combat`].
//!
//! Text → [`Written`] (names as typed; only shape errors) → [`Order`]
//! (resolved against the state: the ship, the planet) → checked against
//! the seat's sheet. "Can't read" and "not legal here" stay different
//! errors.

pub mod combat;
pub mod turn;

use super::basics::ShipId;
use super::events::{self, Event};
use super::orders::{unparse, written, written_line, Action, Written};
use super::state::{Order, Section, State};
use orrery_engine::{Pending, Rejection, Seat, SheetEvent};

// ---------------------------------------------------------------- who owes

/// Every seat owing a sheet, with its prompt.
pub fn pending(state: &State) -> Vec<Pending> {
    if state.outcome.is_some() {
        return Vec::new();
    }
    state
        .sheet
        .ready()
        .into_iter()
        .map(|(seat, ready)| Pending {
            seat,
            kind: state.section.kind().to_string(),
            prompt: prompt(state, seat),
            secret: true,
            submitted: ready,
            sheet: true,
            // Who fights is secret: so is who owes a combat sheet.
            undisclosed: matches!(state.section, Section::Combat { .. }),
        })
        .collect()
}

/// What the seat is asked: the section, and what it has to work with.
fn prompt(state: &State, seat: Seat) -> String {
    let lines = state.sheet.lines_of(seat).unwrap_or(&[]);
    let head = match state.section {
        Section::Economic => {
            let cost = turn::sheet_cost(state, seat, lines);
            format!(
                "Your economic sheet: scrap, repair, hide and build. You have {} points; this sheet costs {cost} (maintenance included).",
                state.points[seat.index()]
            )
        }
        Section::Movement => {
            let movable = state.ships_of(seat).filter(|s| state.can_move(s)).count();
            format!("Your movement sheet: a move for each ship you send ({movable} of your ships can move). Ships without a move stay where they are.")
        }
        Section::Combat { round } => {
            let fighting = turn::in_a_fight(state, seat);
            format!(
                "Your combat sheet for round {round}: {}",
                if fighting {
                    "choose your ships' targets. Shots you do not aim are fired by the standing rule. Only the players in a fight are asked, and nobody is told who they are."
                } else {
                    // Games begun before 2026-11-28 asked everyone.
                    "none of your ships is in a fight. Mark the sheet ready."
                }
            )
        }
        Section::EcoPolitical => {
            "Your ecopolitical sheet: terraforming choices, alliance settings (ally or not with each player), faction declarations."
                .to_string()
        }
    };
    head
}

// ---------------------------------------------------------------- legality

/// Resolve a written line against the state for `seat`.
pub fn resolve(state: &State, seat: Seat, w: &Written) -> Result<Order, String> {
    let own = state.colour(seat);
    let ship = |name: &str| -> Result<ShipId, String> {
        let id = ShipId::parse(name, own)
            .ok_or_else(|| format!("`{name}` is not a ship's name (like R14, or 14 for your own)"))?;
        if state.ship(id).is_none() {
            return Err(format!("there is no ship {id} you know of"));
        }
        Ok(id)
    };
    let own_ship = |name: &str| -> Result<ShipId, String> {
        let id = ship(name)?;
        if id.colour != own {
            let yours: Vec<String> = state.ships_of(seat).map(|s| s.id.to_string()).collect();
            return Err(format!(
                "{id} is not your ship; yours are {}",
                if yours.is_empty() {
                    "none".to_string()
                } else {
                    yours.join(", ")
                }
            ));
        }
        Ok(id)
    };
    let planet = |name: &str| -> Result<usize, String> {
        state
            .map
            .find_planet(name)
            .ok_or_else(|| format!("there is no planet called {name}"))
    };
    Ok(match w {
        Written::Scrap { ship } => Order::Scrap { ship: own_ship(ship)? },
        Written::Repair { ship, points } => Order::Repair {
            ship: own_ship(ship)?,
            points: *points,
        },
        Written::Hide { ship } => Order::Hide { ship: own_ship(ship)? },
        Written::Build { class, at } => {
            let at = planet(at)?;
            Order::Build {
                class: *class,
                at,
                name: state.map.planets[at].name.clone(),
            }
        }
        Written::Move { ship, path } => Order::Move {
            ship: own_ship(ship)?,
            path: path.clone(),
        },
        Written::Fire { ship, target, shots } => {
            let target =
                ShipId::parse(target, own).ok_or_else(|| format!("`{target}` is not a ship's name (like B7)"))?;
            Order::Fire {
                ship: own_ship(ship)?,
                target,
                shots: *shots,
            }
        }
        Written::Terraform { planet: p, colour } => {
            let p = planet(p)?;
            Order::Terraform {
                planet: p,
                name: state.map.planets[p].name.clone(),
                colour: *colour,
            }
        }
        Written::Ally { player, yes } => Order::Ally {
            player: *player,
            yes: *yes,
        },
        Written::Faction { with, empire } => Order::Faction {
            with: with.clone(),
            empire: *empire,
        },
    })
}

/// Whether `order` may stand on `seat`'s sheet beside `others` (the sheet's
/// other lines).
pub fn check_line(state: &State, seat: Seat, order: &Order, others: &[Order]) -> Result<(), String> {
    let kind = state.section.kind();
    if order.section_kind() != kind {
        return Err(format!(
            "`{}` belongs on the {} sheet; this is the {} section",
            written_line(&written(state, order)).name,
            order.section_kind(),
            state.section.name()
        ));
    }
    turn::check_line(state, seat, order, others)
}

fn refuse(reason: impl Into<String>, state: &State, seat: Seat) -> Rejection {
    let legal: Vec<String> = legal_actions(state, seat)
        .iter()
        .filter(|a| matches!(a, Action::Add(_)))
        .map(|a| unparse(a).to_string())
        .collect();
    Rejection::illegal(reason, legal)
}

/// Validate a sheet edit and turn it into events (the engine's sheet
/// protocol, each line resolved and checked against the state and the
/// rest of the sheet); the last ready sheet of a section carries the
/// section out, up to the next sheet.
pub fn decide(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if state.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    // Who owes a combat sheet is secret: a seat that owes none is not told
    // who does.
    if matches!(state.section, Section::Combat { .. }) && !state.sheet.owes(seat) {
        return Err(Rejection::illegal(
            "none of your ships can fire in a fight this round, so there is no combat sheet for you to write",
            vec![],
        ));
    }
    let edit = state.sheet.decide(
        seat,
        action,
        |w| resolve(state, seat, w).map_err(|r| refuse(r, state, seat)),
        |all, at| {
            let mut others = all.to_vec();
            let order = others.remove(at);
            check_line(state, seat, &order, &others).map_err(|r| refuse(r, state, seat))
        },
    )?;
    let ready = matches!(edit, SheetEvent::MarkedReady { .. });
    let mut events = vec![Event::Sheet(edit)];
    if ready {
        let mut next = state.clone();
        events::apply(&mut next, &events[0]);
        if next.sheet.all_ready() {
            events.extend(turn::carry_out(&next));
        }
    }
    Ok(events)
}

/// Every legal edit for `seat`: the sheet's own verbs, then the lines it
/// may add (single-segment moves only; longer paths are typed, and offered
/// by autocomplete).
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if state.outcome.is_some() || !state.sheet.owes(seat) {
        return Vec::new();
    }
    let lines = state.sheet.lines_of(seat).unwrap_or(&[]);
    let mut out = Vec::new();
    for order in turn::candidate_lines(state, seat) {
        if check_line(state, seat, &order, lines).is_ok() {
            out.push(Action::Add(written(state, &order)));
        }
    }
    out.extend(state.sheet.verbs(seat));
    out
}

/// A seat that misses the deadline: its sheet counts as it stands.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    state.sheet.default_edit(seat)
}
