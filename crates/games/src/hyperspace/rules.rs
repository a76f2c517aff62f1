//! Who owes what, legality, and the automatic flow of the game.
//!
//! `decide` works on a scratch copy of the state: every event it emits is
//! applied at once with [`super::events::apply`], so the automatic follow-up
//! (battles, end of turn, next turn, production, token moves) is computed
//! from exactly the state the log will fold to.

use super::basics::cards;
use super::basics::{Card, Sector, Star, LAST_SQUARE, TOKENS};
use super::events::{emit, Event};
use super::orders::{unparse, Action};
use super::state::{BattleStep, Stage, State, Token};
use orrery_engine::{Outcome, Pending, Rejection, Seat};

/// Why an order is not legal now (converted to a [`Rejection`]).
#[derive(Debug, thiserror::Error)]
pub enum Illegal {
    #[error("nothing is asked of you right now")]
    NotPending(Seat),
    #[error("you owe a {owed} decision now, not that")]
    WrongDecision { seat: Seat, owed: &'static str },
    #[error("departures are over for this turn: a fleet has already arrived (departures come before arrivals)")]
    DeparturesOver,
    #[error("a fleet needs at least 1 ship")]
    NoShips,
    #[error("you have {} at {star}, not {asked}", crate::shared::menu::counted(*.have, "ship", "ships"))]
    NotEnoughShips { star: String, have: u32, asked: u32 },
    #[error("{}", no_free_token(*lost))]
    NoFreeToken { lost: u8 },
    #[error("{to} is not in {sector}, the sector of {from}: a journey to another sector departs without `to:` and arrives later")]
    NotSameSector { from: String, to: String, sector: String },
    #[error("a fleet cannot journey from {0} to itself")]
    SameStar(String),
    #[error("warp tokens are numbered 1 to 5")]
    NoSuchToken,
    #[error("warp token {0} is not on the hyperspace track")]
    TokenNotFlying(u8),
    #[error(
        "warp token {token} is on square {square}, but {star} is {count} sector(s) from its departure sector {from}"
    )]
    WrongCount {
        token: u8,
        square: u8,
        star: String,
        count: u8,
        from: String,
    },
    #[error("you do not hold the {0} card")]
    CardNotInHand(Card),
    #[error("losses must be from 0 to {0}, the ships of the losing fleet")]
    LossesOutOfRange(u32),
    #[error("you can retreat 0 to {0} of your ships")]
    RetreatOutOfRange(u32),
}

/// "all 5 warp tokens are in use this turn", counting tokens lost in space.
fn no_free_token(lost: u8) -> String {
    let tokens = TOKENS;
    match lost {
        0 => format!("all {tokens} warp tokens are in use this turn"),
        n if n >= tokens => format!("you have no warp tokens left: all {tokens} were lost in space"),
        n => format!(
            "all {} of your warp tokens are in use this turn ({n} lost in space)",
            tokens - n
        ),
    }
}

fn reject(illegal: Illegal, legal: Vec<Action>) -> Rejection {
    Rejection::illegal(
        illegal.to_string(),
        legal.iter().map(|a| unparse(a).to_string()).collect(),
    )
}

/// The first turn begun, after the table is set up ([`super::setup::setup`]).
pub fn first_turn(s: &mut State, ev: &mut Vec<Event>) {
    begin_turn(s, ev, Seat(0), 1);
    advance(s, ev);
}

/// Who owes what.
pub fn pending(state: &State) -> Vec<Pending> {
    if state.outcome.is_some() {
        return Vec::new();
    }
    match &state.stage {
        Stage::Moving { departures_open } => vec![Pending {
            seat: state.active,
            kind: "turn".into(),
            prompt: if *departures_open {
                "Your turn: depart fleets, arrive warp tokens, then end your turn to fight any battles.".into()
            } else {
                "Your turn: arrive more warp tokens, or end your turn to fight any battles.".into()
            },
            secret: false,
            submitted: false,
            sheet: false,
            undisclosed: false,
        }],
        Stage::Battle(b) => match &b.step {
            BattleStep::Cards { picks } => picks
                .submitted()
                .into_iter()
                .map(|(seat, submitted)| Pending {
                    seat,
                    kind: "combat-card".into(),
                    prompt: format!("Battle at {}: pick a combat card in secret.", b.star.label()),
                    secret: true,
                    submitted,
                    sheet: false,
                    undisclosed: false,
                })
                .collect(),
            BattleStep::Losses { victor, loser } => vec![Pending {
                seat: *victor,
                kind: "losses".into(),
                prompt: format!(
                    "You won the combat at {}: choose losses from 0 to {}: the loser loses that many ships, you lose one fewer (none at 0).",
                    b.star.label(),
                    state.ships_at(b.star, *loser)
                ),
                secret: false,
                submitted: false,
                sheet: false,
                undisclosed: false,
            }],
            BattleStep::Retreat { seat, .. } => vec![Pending {
                seat: *seat,
                kind: "retreat".into(),
                prompt: format!(
                    "Retreat from {}? Choose how many ships retreat (0 to {}; 0 stays).",
                    b.star.label(),
                    state.ships_at(b.star, *seat)
                ),
                secret: false,
                submitted: false,
                sheet: false,
                undisclosed: false,
            }],
            BattleStep::Resolved => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn pending_kind(state: &State, seat: Seat) -> Option<&'static str> {
    if state.outcome.is_some() {
        return None;
    }
    match &state.stage {
        Stage::Moving { .. } if seat == state.active => Some("turn"),
        Stage::Battle(b) => match &b.step {
            BattleStep::Cards { picks } if picks.owes(seat) => Some("combat-card"),
            BattleStep::Losses { victor, .. } if *victor == seat => Some("losses"),
            BattleStep::Retreat { seat: s, .. } if *s == seat => Some("retreat"),
            _ => None,
        },
        _ => None,
    }
}

fn departure_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    if state.seat(seat).and_then(|s| s.free_token()).is_none() {
        return out;
    }
    for star in Star::all() {
        let n = state.ships_at(star, seat);
        for ships in 1..=n {
            out.push(Action::Depart {
                from: star,
                ships,
                to: None,
            });
            out.push(Action::Depart {
                from: star,
                ships,
                to: Some(star.sibling()),
            });
        }
    }
    out
}

pub fn arrival_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let Some(me) = state.seat(seat) else { return out };
    for (i, t) in me.tokens.iter().enumerate() {
        if let Token::Flight { square, from, .. } = t {
            if *square == 0 {
                continue;
            }
            for star in Star::all() {
                if from.distance(star.sector()) == *square {
                    out.push(Action::Arrive {
                        token: i as u8 + 1,
                        at: star,
                    });
                }
            }
        }
    }
    out
}

fn card_actions(state: &State, seat: Seat) -> Vec<Action> {
    let mut hand = state.seat(seat).map(|s| s.hand.clone()).unwrap_or_default();
    hand.sort();
    hand.dedup();
    hand.into_iter().map(|card| Action::Card { card }).collect()
}

/// Every legal action for `seat` now.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    match (pending_kind(state, seat), &state.stage) {
        (Some("turn"), Stage::Moving { departures_open }) => {
            let mut out = if *departures_open {
                departure_actions(state, seat)
            } else {
                Vec::new()
            };
            out.extend(arrival_actions(state, seat));
            out.push(Action::End);
            out
        }
        (Some("combat-card"), _) => card_actions(state, seat),
        (Some("losses"), Stage::Battle(b)) => {
            if let BattleStep::Losses { loser, .. } = b.step {
                (0..=state.ships_at(b.star, loser))
                    .map(|n| Action::Losses { n })
                    .collect()
            } else {
                Vec::new()
            }
        }
        (Some("retreat"), Stage::Battle(b)) => (0..=state.ships_at(b.star, seat))
            .map(|ships| Action::Retreat { ships })
            .collect(),
        _ => Vec::new(),
    }
}

/// The legal departures summarised: one per star (with all its ships), and
/// same-sector journeys.
fn departure_hints(state: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    for star in Star::all() {
        let n = state.ships_at(star, seat);
        if n > 0 {
            out.push(Action::Depart {
                from: star,
                ships: n,
                to: None,
            });
        }
    }
    for star in Star::all() {
        let n = state.ships_at(star, seat);
        if n > 0 {
            out.push(Action::Depart {
                from: star,
                ships: n,
                to: Some(star.sibling()),
            });
        }
    }
    out
}

/// Validate and turn into events, with the automatic follow-up.
pub fn decide(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if state.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    let Some(kind) = pending_kind(state, seat) else {
        let waiting = crate::waiting_seats(&pending(state));
        return Err(Rejection::NotYourDecision { seat, waiting });
    };
    let wrong = || reject(Illegal::WrongDecision { seat, owed: kind }, legal_actions(state, seat));
    let mut s = state.clone();
    let mut ev = Vec::new();
    match (kind, action) {
        ("turn", Action::Depart { from, ships, to }) => depart(&mut s, &mut ev, seat, *from, *ships, *to)?,
        ("turn", Action::Arrive { token, at }) => arrive(&mut s, &mut ev, seat, *token, *at)?,
        ("turn", Action::End) => emit(&mut s, &mut ev, Event::MovementEnded { seat }),
        ("combat-card", Action::Card { card }) => pick_card(&mut s, &mut ev, seat, *card)?,
        ("losses", Action::Losses { n }) => take_losses(&mut s, &mut ev, *n)?,
        ("retreat", Action::Retreat { ships }) => retreat(&mut s, &mut ev, seat, *ships)?,
        _ => return Err(wrong()),
    }
    advance(&mut s, &mut ev);
    Ok(ev)
}

fn depart(
    s: &mut State,
    ev: &mut Vec<Event>,
    seat: Seat,
    from: Star,
    ships: u32,
    to: Option<Star>,
) -> Result<(), Rejection> {
    let departures_open = matches!(s.stage, Stage::Moving { departures_open: true });
    if !departures_open {
        return Err(reject(Illegal::DeparturesOver, legal_actions(s, seat)));
    }
    let Some(token) = s.seat(seat).and_then(|m| m.free_token()) else {
        let lost = s.seat(seat).map_or(0, |m| m.lost_tokens());
        return Err(reject(Illegal::NoFreeToken { lost }, legal_actions(s, seat)));
    };
    let token = token as u8 + 1;
    if ships == 0 {
        return Err(reject(Illegal::NoShips, departure_hints(s, seat)));
    }
    let have = s.ships_at(from, seat);
    if have < ships {
        return Err(reject(
            Illegal::NotEnoughShips {
                star: from.label(),
                have,
                asked: ships,
            },
            departure_hints(s, seat),
        ));
    }
    match to {
        None => emit(
            s,
            ev,
            Event::FleetDeparted {
                seat,
                token,
                from,
                ships,
                sector: from.sector(),
            },
        ),
        Some(to) if to == from => {
            return Err(reject(
                Illegal::SameStar(from.label()),
                vec![Action::Depart {
                    from,
                    ships,
                    to: Some(from.sibling()),
                }],
            ))
        }
        Some(to) if to.sector() != from.sector() => {
            return Err(reject(
                Illegal::NotSameSector {
                    from: from.name().into(),
                    to: to.label(),
                    sector: from.sector().name(),
                },
                vec![
                    Action::Depart {
                        from,
                        ships,
                        to: Some(from.sibling()),
                    },
                    Action::Depart { from, ships, to: None },
                ],
            ))
        }
        Some(to) => emit(
            s,
            ev,
            Event::FleetJumped {
                seat,
                token,
                from,
                to,
                ships,
            },
        ),
    }
    Ok(())
}

fn arrive(s: &mut State, ev: &mut Vec<Event>, seat: Seat, token: u8, at: Star) -> Result<(), Rejection> {
    let arrivals = arrival_actions(s, seat);
    let Some(t) = (token as usize)
        .checked_sub(1)
        .and_then(|i| s.seat(seat).and_then(|m| m.tokens.get(i)))
    else {
        return Err(reject(Illegal::NoSuchToken, arrivals));
    };
    let Token::Flight { square, ships, from } = t.clone() else {
        return Err(reject(Illegal::TokenNotFlying(token), arrivals));
    };
    let count = from.distance(at.sector());
    if square == 0 || count != square {
        let for_token: Vec<Action> = arrivals
            .iter()
            .filter(|a| matches!(a, Action::Arrive { token: k, .. } if *k == token))
            .cloned()
            .collect();
        return Err(reject(
            Illegal::WrongCount {
                token,
                square,
                star: at.label(),
                count,
                from: from.name(),
            },
            if for_token.is_empty() { arrivals } else { for_token },
        ));
    }
    emit(
        s,
        ev,
        Event::FleetArrived {
            seat,
            token,
            star: at,
            ships,
            square,
        },
    );
    Ok(())
}

fn pick_card(s: &mut State, ev: &mut Vec<Event>, seat: Seat, card: Card) -> Result<(), Rejection> {
    if !s.seat(seat).is_some_and(|m| m.hand.contains(&card)) {
        return Err(reject(Illegal::CardNotInHand(card), card_actions(s, seat)));
    }
    emit(s, ev, Event::CombatCardPicked { seat, card });
    let Some(b) = s.battle().cloned() else { return Ok(()) };
    let BattleStep::Cards { picks } = &b.step else {
        return Ok(());
    };
    let (Some(ac), Some(dc)) = (picks.pick_of(b.attacker).copied(), picks.pick_of(b.defender).copied()) else {
        return Ok(());
    };
    if !picks.all_in() {
        return Ok(());
    }
    let a_ships = s.ships_at(b.star, b.attacker);
    let d_ships = s.ships_at(b.star, b.defender);
    let result = cards::resolve(a_ships, ac, d_ships, dc);
    emit(
        s,
        ev,
        Event::CombatCardsRevealed {
            star: b.star,
            attacker: b.attacker,
            attacker_card: ac,
            attacker_total: result.attacker_total,
            defender: b.defender,
            defender_card: dc,
            defender_total: result.defender_total,
        },
    );
    for p in [b.attacker, b.defender] {
        if let Some(m) = s.seat(p) {
            if m.hand.is_empty() {
                let cards = cards::redraw(&m.played);
                emit(s, ev, Event::HandRecycled { seat: p, cards });
            }
        }
    }
    let (victor, loser) = if result.attacker_wins {
        (b.attacker, b.defender)
    } else {
        (b.defender, b.attacker)
    };
    emit(
        s,
        ev,
        Event::CombatWon {
            star: b.star,
            victor,
            loser,
            reason: result.reason,
        },
    );
    Ok(())
}

fn losses_event(s: &State, n: u32) -> Option<Event> {
    let b = s.battle()?;
    let BattleStep::Losses { victor, loser } = b.step else {
        return None;
    };
    let victor_lost = n.saturating_sub(1).min(s.ships_at(b.star, victor));
    Some(Event::LossesTaken {
        star: b.star,
        victor,
        loser,
        chosen: n,
        loser_lost: n,
        victor_lost,
    })
}

fn take_losses(s: &mut State, ev: &mut Vec<Event>, n: u32) -> Result<(), Rejection> {
    let Some(b) = s.battle() else { return Ok(()) };
    let BattleStep::Losses { victor, loser } = b.step else {
        return Ok(());
    };
    let max = s.ships_at(b.star, loser);
    if n > max {
        return Err(reject(Illegal::LossesOutOfRange(max), legal_actions(s, victor)));
    }
    if let Some(e) = losses_event(s, n) {
        emit(s, ev, e);
    }
    Ok(())
}

fn retreat(s: &mut State, ev: &mut Vec<Event>, seat: Seat, ships: u32) -> Result<(), Rejection> {
    let Some(b) = s.battle() else { return Ok(()) };
    let star = b.star;
    let have = s.ships_at(star, seat);
    if ships > have {
        return Err(reject(Illegal::RetreatOutOfRange(have), legal_actions(s, seat)));
    }
    if ships == 0 {
        emit(s, ev, Event::RetreatDeclined { seat, star });
        return Ok(());
    }
    let Some(token) = s.seat(seat).and_then(|m| m.free_token()) else {
        // Unreachable: a retreat is only offered with a free token.
        emit(s, ev, Event::RetreatDeclined { seat, star });
        return Ok(());
    };
    emit(
        s,
        ev,
        Event::FleetRetreated {
            seat,
            star,
            ships,
            token: token as u8 + 1,
            sector: star.sector(),
        },
    );
    Ok(())
}

/// The next battle of the active player's battle step: the first star (in
/// board order) where the active player and an enemy both have ships; the
/// defender is the first such enemy clockwise from the active player.
pub fn next_battle(s: &State) -> Option<(Star, Seat)> {
    let me = s.active;
    let n = s.seats.len();
    for star in Star::all() {
        if s.ships_at(star, me) == 0 {
            continue;
        }
        for k in 1..n {
            let other = Seat(((me.index() + k) % n) as u8);
            if s.ships_at(star, other) > 0 {
                return Some((star, other));
            }
        }
    }
    None
}

/// Run the automatic steps until a decision is owed or the game is over.
pub fn advance(s: &mut State, ev: &mut Vec<Event>) {
    // Each pass either returns or emits at least one event; the loop is
    // bounded by the game's own termination (and a hard cap, for safety).
    for _ in 0..10_000 {
        if s.outcome.is_some() {
            return;
        }
        match s.stage.clone() {
            Stage::NotStarted | Stage::Over | Stage::Moving { .. } => return,
            Stage::Battle(b) => match b.step {
                BattleStep::Cards { .. } | BattleStep::Retreat { .. } => return,
                BattleStep::Losses { loser, .. } => {
                    // No ship left to lose: the only choice is 0. Take it at
                    // once. (Against a lone ship the victor still chooses:
                    // 0 spares it, 1 destroys it.)
                    if s.ships_at(b.star, loser) == 0 {
                        match losses_event(s, 0) {
                            Some(e) => emit(s, ev, e),
                            None => return,
                        }
                    } else {
                        return;
                    }
                }
                BattleStep::Resolved => {
                    let a = s.ships_at(b.star, b.attacker);
                    let d = s.ships_at(b.star, b.defender);
                    if a > 0 && d > 0 {
                        emit(
                            s,
                            ev,
                            Event::CombatRenewed {
                                star: b.star,
                                combat: b.combat + 1,
                                attacker_ships: a,
                                defender_ships: d,
                            },
                        );
                    } else {
                        let holder = if a > 0 {
                            Some(b.attacker)
                        } else if d > 0 {
                            Some(b.defender)
                        } else {
                            None
                        };
                        emit(s, ev, Event::BattleEnded { star: b.star, holder });
                    }
                }
            },
            Stage::Resolving => match next_battle(s) {
                Some((star, defender)) => {
                    let attacker = s.active;
                    emit(
                        s,
                        ev,
                        Event::BattleBegan {
                            star,
                            attacker,
                            defender,
                            attacker_ships: s.ships_at(star, attacker),
                            defender_ships: s.ships_at(star, defender),
                        },
                    );
                }
                None => end_turn(s, ev),
            },
            Stage::TurnOver => next_turn(s, ev),
        }
    }
}

/// Home-star captures and recoveries, eliminations, then `TurnEnded`.
fn end_turn(s: &mut State, ev: &mut Vec<Event>) {
    check_homes(s, ev);
    check_eliminations(s, ev);
    let seat = s.active;
    emit(s, ev, Event::TurnEnded { seat });
}

/// A home star is captured when an enemy has ships there and its owner
/// none; it is recovered when its owner is the only one with ships there.
pub fn check_homes(s: &mut State, ev: &mut Vec<Event>) {
    for owner in s.seat_ids().collect::<Vec<_>>() {
        let (home, captured_by, eliminated) = {
            let m = &s.seats[owner.index()];
            (m.home, m.captured_by, m.eliminated)
        };
        if eliminated {
            continue;
        }
        let mine = s.ships_at(home, owner);
        let enemies: Vec<Seat> = s.occupants(home).into_iter().filter(|o| *o != owner).collect();
        match captured_by {
            None => {
                if mine == 0 {
                    if let Some(by) = enemies.first() {
                        emit(
                            s,
                            ev,
                            Event::HomeStarCaptured {
                                owner,
                                star: home,
                                by: *by,
                            },
                        );
                    }
                }
            }
            Some(holder) => {
                if mine > 0 && enemies.is_empty() {
                    emit(s, ev, Event::HomeStarRecovered { owner, star: home });
                } else if mine == 0 && enemies.len() == 1 && enemies[0] != holder {
                    emit(
                        s,
                        ev,
                        Event::HomeStarCaptured {
                            owner,
                            star: home,
                            by: enemies[0],
                        },
                    );
                }
            }
        }
    }
}

/// A player with no ships anywhere (stars or warp tokens) and a captured
/// home star is out.
pub fn check_eliminations(s: &mut State, ev: &mut Vec<Event>) {
    for seat in s.seat_ids().collect::<Vec<_>>() {
        let m = &s.seats[seat.index()];
        if !m.eliminated && m.captured_by.is_some() && s.total_ships(seat) == 0 {
            emit(s, ev, Event::PlayerEliminated { seat });
        }
    }
}

fn alive(s: &State) -> Vec<Seat> {
    s.seat_ids().filter(|x| !s.seats[x.index()].eliminated).collect()
}

/// Does `seat` meet the conquest condition: its own home star held, and a
/// rival's captured home star where it has ships?
pub fn conquers(s: &State, seat: Seat) -> Option<Star> {
    let me = s.seat(seat)?;
    if me.eliminated || me.captured_by.is_some() {
        return None;
    }
    s.seat_ids()
        .filter(|o| *o != seat)
        .map(|o| &s.seats[o.index()])
        .find(|o| !o.resigned && o.captured_by.is_some() && s.ships_at(o.home, seat) > 0)
        .map(|o| o.home)
}

/// Final scores and the outcome by score (tie-break: total ships; then a
/// shared win).
pub fn outcome_by_score(s: &State, reason: &str) -> (Outcome, Vec<u32>) {
    let scores: Vec<u32> = s.seat_ids().map(|x| s.score(x)).collect();
    let contenders = alive(s);
    let pool = if contenders.is_empty() {
        s.seat_ids().collect()
    } else {
        contenders
    };
    let key = |x: &Seat| (scores[x.index()], s.total_ships(*x));
    let best = pool.iter().map(key).max().unwrap_or((0, 0));
    let winners: Vec<Seat> = pool.iter().copied().filter(|x| key(x) == best).collect();
    let outcome = if winners.len() == 1 {
        Outcome::Winner {
            seat: winners[0],
            reason: reason.to_string(),
        }
    } else {
        Outcome::Shared {
            seats: winners,
            reason: reason.to_string(),
        }
    };
    (outcome, scores)
}

fn end_game(s: &mut State, ev: &mut Vec<Event>, outcome: Outcome) {
    let scores = s.seat_ids().map(|x| s.score(x)).collect();
    emit(s, ev, Event::GameEnded { outcome, scores });
}

/// After `TurnEnded`: check for a winner, then begin the next player's turn.
fn next_turn(s: &mut State, ev: &mut Vec<Event>) {
    let living = alive(s);
    if living.len() == 1 {
        let seat = living[0];
        end_game(
            s,
            ev,
            Outcome::Winner {
                seat,
                reason: "last player standing".into(),
            },
        );
        return;
    }
    if living.is_empty() {
        let (outcome, scores) = outcome_by_score(s, "every fleet was destroyed; highest score");
        emit(s, ev, Event::GameEnded { outcome, scores });
        return;
    }
    let n = s.seats.len();
    let cur = s.active.index();
    let Some(next) = (1..=n).map(|k| (cur + k) % n).find(|i| !s.seats[*i].eliminated) else {
        return;
    };
    let round = if next <= cur { s.round + 1 } else { s.round };
    if round > s.options.rounds {
        let (outcome, scores) = outcome_by_score(
            s,
            &format!("round limit ({} rounds) reached; highest score", s.options.rounds),
        );
        emit(s, ev, Event::GameEnded { outcome, scores });
        return;
    }
    begin_turn(s, ev, Seat(next as u8), round);
}

/// `TurnBegan`, the conquest check, production, and token movement.
fn begin_turn(s: &mut State, ev: &mut Vec<Event>, seat: Seat, round: u32) {
    let production = round % 2 == 0;
    let turn = s.turn + 1;
    emit(
        s,
        ev,
        Event::TurnBegan {
            seat,
            round,
            turn,
            production,
        },
    );
    if let Some(star) = conquers(s, seat) {
        let reason = format!("conquest: held their own home star and {}", star.name());
        end_game(s, ev, Outcome::Winner { seat, reason });
        return;
    }
    let Some(me) = s.seat(seat) else { return };
    let home = me.home;
    if production && me.captured_by.is_none() {
        let ships = s.pairs(seat);
        if ships > 0 {
            emit(
                s,
                ev,
                Event::ShipsProduced {
                    seat,
                    star: home,
                    ships,
                },
            );
        }
    }
    let flying: Vec<u8> = s.seats[seat.index()]
        .tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, Token::Flight { .. }))
        .map(|(i, _)| i as u8 + 1)
        .collect();
    if !flying.is_empty() {
        emit(s, ev, Event::WarpTokensAdvanced { seat, tokens: flying });
        let lost: Vec<(u8, u32, Sector)> = s.seats[seat.index()]
            .tokens
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t {
                Token::Flight { square, ships, from } if *square > LAST_SQUARE => Some((i as u8 + 1, *ships, *from)),
                _ => None,
            })
            .collect();
        for (token, ships, from) in lost {
            emit(
                s,
                ev,
                Event::WarpTokenLost {
                    seat,
                    token,
                    ships,
                    from,
                },
            );
        }
    }
    // Nothing left to command: out of the game at once.
    let m = &s.seats[seat.index()];
    if m.captured_by.is_some() && s.total_ships(seat) == 0 {
        emit(s, ev, Event::PlayerEliminated { seat });
        emit(s, ev, Event::TurnEnded { seat });
    }
}

/// The action for a missed deadline.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    match pending_kind(state, seat)? {
        "turn" => Some(Action::End),
        "combat-card" => {
            let b = state.battle()?;
            if let BattleStep::Cards { picks } = &b.step {
                if picks.has_submitted(seat) {
                    return None;
                }
            }
            let hand = &state.seat(seat)?.hand;
            hand.iter()
                .min_by_key(|c| (c.strength(), **c))
                .map(|card| Action::Card { card: *card })
        }
        "losses" => {
            let b = state.battle()?;
            let BattleStep::Losses { victor, loser } = b.step else {
                return None;
            };
            let n = state.ships_at(b.star, loser).min(state.ships_at(b.star, victor)).max(1);
            Some(Action::Losses { n })
        }
        "retreat" => Some(Action::Retreat { ships: 0 }),
        _ => None,
    }
}

/// `seat` resigns: it is out of the game as if eliminated (its turns are
/// skipped, it cannot win), its ships on stars and on warp tokens are
/// removed, and its home star is an ordinary star from then on. A battle it
/// was in ends (the other side holds the star if it has ships there); if it
/// was its turn, the turn ends (home stars are checked as at any turn's end)
/// and the next player's begins; when one player is left, they win at once.
pub fn resign(state: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
    if state.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    let Some(me) = state.seat(seat).filter(|_| state.stage != Stage::NotStarted) else {
        return Err(Rejection::illegal("that seat is not playing in this game", vec![]));
    };
    if me.resigned {
        return Err(Rejection::illegal("that player has already resigned", vec![]));
    }
    if me.eliminated {
        return Err(Rejection::illegal(
            "that player is already out of the game: they were eliminated",
            vec![],
        ));
    }
    let mut s = state.clone();
    let mut ev = Vec::new();
    let battle = s.battle().cloned();
    emit(
        &mut s,
        &mut ev,
        Event::Resigned {
            seat,
            ships: state.total_ships(seat),
            home: me.home,
        },
    );
    if let Some(b) = battle.filter(|b| b.attacker == seat || b.defender == seat) {
        let other = if b.attacker == seat { b.defender } else { b.attacker };
        let holder = (s.ships_at(b.star, other) > 0).then_some(other);
        emit(&mut s, &mut ev, Event::BattleEnded { star: b.star, holder });
    }
    if let [last] = alive(&s)[..] {
        let all_resigned = s.seat_ids().all(|x| x == last || s.seats[x.index()].resigned);
        let reason = if all_resigned {
            "the others resigned"
        } else {
            "last player standing: the others resigned or were eliminated"
        };
        end_game(
            &mut s,
            &mut ev,
            Outcome::Winner {
                seat: last,
                reason: reason.into(),
            },
        );
        return Ok(ev);
    }
    if s.active == seat && matches!(s.stage, Stage::Moving { .. }) {
        end_turn(&mut s, &mut ev);
    }
    advance(&mut s, &mut ev);
    Ok(ev)
}

/// Once the game is over: the final scores, best first, then the resigned
/// players.
pub fn standings(state: &State) -> Vec<(Seat, String)> {
    let resigned = |s: Seat| state.seat(s).is_some_and(|m| m.resigned);
    let mut out = crate::shared::standings(state.final_scores.iter().flatten().copied(), |n| format!("{n} points"));
    out.sort_by_key(|(s, _)| resigned(*s));
    for (s, text) in &mut out {
        if resigned(*s) {
            *text = "resigned".into();
        }
    }
    out
}
