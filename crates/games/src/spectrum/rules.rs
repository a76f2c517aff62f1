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
use orrery_engine::{Outcome, Pending, Rejection, Seat, SheetEvent};

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
    // Only the ships the seat sees (its view): a ship it cannot see is
    // refused as one that does not exist, so no refusal tells them apart.
    let sensed = super::state::sensed(state, seat);
    let ship = |name: &str| -> Result<ShipId, String> {
        let id = ShipId::parse(name, own)
            .ok_or_else(|| format!("`{name}` is not a ship's name (like R14, or 14 for your own)"))?;
        if !state.ship(id).is_some_and(|x| super::state::sees(seat, x, &sensed)) {
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

/// `seat` leaves the war ("Mod can also resign a player from a war"; "A
/// player can resign themselves from a war"): the factions it belongs to
/// dissolve, then [`Event::Resigned`] (its planets unowned, its ships
/// gone, its sheet withdrawn). With one player left, that player wins at
/// once; otherwise, when every sheet still owed is ready (or none is),
/// the section is carried out now.
pub fn resign(state: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
    if state.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    if seat.index() >= state.out.len() {
        return Err(Rejection::illegal(format!("there is no {seat} in this war"), vec![]));
    }
    if state.has_resigned(seat) {
        return Err(Rejection::illegal(
            format!("{seat} has already resigned from this war"),
            vec![],
        ));
    }
    if state.out[seat.index()] {
        return Err(Rejection::illegal(
            format!("{seat} is already out of the war (no planets, no ships)"),
            vec![],
        ));
    }
    let mut next = state.clone();
    let mut out = Vec::new();
    let mut push = |next: &mut State, e: Event| {
        events::apply(next, &e);
        out.push(e);
    };
    for f in state.factions.iter().filter(|f| f.members.contains(&seat)) {
        push(
            &mut next,
            Event::FactionDissolved {
                members: f.members.clone(),
                why: "a member resigned".into(),
            },
        );
    }
    push(&mut next, Event::Resigned { seat });
    let left = next.in_the_war();
    if let [winner] = left[..] {
        let all_resigned = next.seats().filter(|x| *x != winner).all(|x| next.has_resigned(x));
        let reason = if all_resigned {
            "the others resigned"
        } else {
            "every other player resigned or is out of the war"
        };
        push(
            &mut next,
            Event::WarEnded {
                outcome: Outcome::Winner {
                    seat: winner,
                    reason: reason.into(),
                },
            },
        );
    } else if next.sheet.all_ready() {
        // The sheets still owed were all in (or the seat's was the only
        // one, as in a combat round only it had to write): no one is
        // waited on, so the section goes on now.
        out.extend(turn::carry_out(&next));
    }
    Ok(out)
}

/// A seat that misses the deadline: its sheet counts as it stands.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    state.sheet.default_edit(seat)
}

#[cfg(test)]
mod tests {
    use super::super::Spectrum;
    use super::*;
    use orrery_engine::{GameConfig, GameRng, Ruleset, SheetEdit};

    /// A war of at most 6 turns set up: its log and its state.
    fn start(players: u8, seed: u64) -> (Vec<Event>, State) {
        let mut config = GameConfig::new(players, seed);
        config.options = serde_json::json!({"rounds": 6});
        let log = Spectrum::setup(&config).expect("set-up");
        let s = Spectrum::fold(&log);
        (log, s)
    }

    fn take(log: &mut Vec<Event>, s: &mut State, events: Vec<Event>) {
        for e in &events {
            events::apply(s, e);
        }
        log.extend(events);
    }

    /// One random legal edit by a seat that owes a sheet (marked ready a
    /// quarter of the time); false when nobody owes one.
    fn step(log: &mut Vec<Event>, s: &mut State, rng: &mut GameRng) -> bool {
        let owing: Vec<Seat> = pending(s).iter().filter(|p| !p.submitted).map(|p| p.seat).collect();
        let Some(&seat) = rng.pick(&owing) else {
            return false;
        };
        let legal = legal_actions(s, seat);
        let action = if legal.contains(&SheetEdit::Ready) && rng.below(4) == 0 {
            SheetEdit::Ready
        } else {
            rng.pick(&legal).expect("a seat owing a sheet may edit it").clone()
        };
        let events = decide(s, seat, &action).expect("a legal edit");
        take(log, s, events);
        true
    }

    /// Random wars in which a random seat resigns at a random point: the
    /// seat owes nothing after, has no planet and no ship, the war goes on
    /// and ends (at once with two players), and the log folds to the state.
    #[test]
    fn random_wars_with_a_resignation_end_and_replay() {
        let mut resigned = 0;
        let mut turns_after = 0;
        for seed in 0..24u64 {
            let players = 2 + (seed % 5) as u8;
            let (mut log, mut s) = start(players, seed);
            let mut rng = GameRng::seeded(seed ^ 0x2E51);
            let at = rng.below(120);
            for _ in 0..at {
                if s.outcome.is_some() || !step(&mut log, &mut s, &mut rng) {
                    break;
                }
            }
            if s.outcome.is_some() {
                continue;
            }
            let left = s.in_the_war();
            let seat = left[rng.below(left.len() as u32) as usize];
            let events = resign(&s, seat).expect("a seat in the war may resign");
            assert!(events.contains(&Event::Resigned { seat }), "seed {seed}");
            take(&mut log, &mut s, events);
            resigned += 1;
            let turn = s.turn;
            assert!(s.out[seat.index()] && s.has_resigned(seat));
            assert_eq!(s.planets_of(seat), 0, "seed {seed}");
            assert_eq!(s.ships_of(seat).count(), 0, "seed {seed}");
            if left.len() == 2 {
                let other = left.iter().copied().find(|x| *x != seat).expect("two");
                assert_eq!(
                    s.outcome.as_ref().map(|o| o.winners()),
                    Some(vec![other]),
                    "seed {seed}"
                );
                assert!(s.outcome.as_ref().is_some_and(|o| o.reason().contains("resigned")));
            }
            let mut n = 0;
            while s.outcome.is_none() {
                assert!(pending(&s).iter().all(|p| p.seat != seat), "seed {seed}: {seat} owes");
                assert!(legal_actions(&s, seat).is_empty(), "seed {seed}");
                assert!(!pending(&s).is_empty(), "seed {seed}: nobody owes a sheet");
                assert!(step(&mut log, &mut s, &mut rng), "seed {seed}");
                n += 1;
                assert!(n < 40_000, "seed {seed}: no end");
            }
            turns_after += s.turn - turn;
            assert!(!s.outcome.as_ref().expect("over").winners().contains(&seat));
            assert_eq!(Spectrum::fold(&log), s, "seed {seed}: the log folds to another state");
        }
        assert!(resigned >= 20, "only {resigned} wars saw a resignation");
        assert!(
            turns_after >= 20,
            "the wars hardly went on after it ({turns_after} turns)"
        );
    }

    #[test]
    fn resigning_twice_or_after_the_war_is_refused() {
        let (_, mut s) = start(3, 1);
        let events = resign(&s, Seat(2)).expect("resign");
        events.iter().for_each(|e| events::apply(&mut s, e));
        assert!(s.outcome.is_none());
        let again = resign(&s, Seat(2)).expect_err("twice").to_string();
        assert!(again.contains("already resigned"), "{again}");
        let events = resign(&s, Seat(1)).expect("resign");
        events.iter().for_each(|e| events::apply(&mut s, e));
        assert_eq!(s.outcome.as_ref().map(|o| o.winners()), Some(vec![Seat(0)]));
        assert_eq!(s.outcome.as_ref().map(|o| o.reason()), Some("the others resigned"));
        assert_eq!(resign(&s, Seat(0)), Err(Rejection::GameOver));
        let standings = Spectrum::standings(&s);
        assert_eq!(standings[0], (Seat(0), "1 planet".to_string()));
        assert_eq!(
            &standings[1..],
            &[(Seat(1), "resigned".into()), (Seat(2), "resigned".into())]
        );
    }

    /// A seat whose sheet was the last not ready: its leaving carries the
    /// section out.
    #[test]
    fn the_last_sheet_awaited_leaving_carries_the_section_out() {
        let (_, mut s) = start(3, 4);
        for seat in [Seat(0), Seat(1)] {
            let events = decide(&s, seat, &SheetEdit::Ready).expect("ready");
            events.iter().for_each(|e| events::apply(&mut s, e));
        }
        assert_eq!(s.section, Section::Economic);
        let boundaries = s.boundaries;
        let events = resign(&s, Seat(2)).expect("resign");
        events.iter().for_each(|e| events::apply(&mut s, e));
        assert!(s.boundaries > boundaries, "the section was carried out");
        assert!(!s.sheet.owes(Seat(2)));
        assert!(pending(&s).iter().all(|p| p.seat != Seat(2)));
    }
}
