//! The past-tense events and how an event changes the state.
//!
//! The state is purely the fold of the events: [`apply`] is infallible and
//! deterministic, and tolerates odd events (scenario `given:` lines are not
//! validated) without panicking.

use super::basics::{Card, Sector, Star, WinReason, STAR_COUNT};
use super::state::{Battle, BattleStep, CombatReport, Options, SeatState, Stage, State, Token};
use orrery_engine::{Outcome, Seat, Simultaneous};
use serde::{Deserialize, Serialize};

/// Past-tense facts. Seats are 0-based in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A game for `players` was set up with these home stars (seat order).
    GameSetUp {
        players: u8,
        options: Options,
        homes: Vec<Star>,
    },
    /// Ships were placed at a star (set-up; scenarios use it to build positions).
    ShipsPlaced {
        seat: Seat,
        star: Star,
        ships: u32,
    },
    /// Ships were taken off a star (scenarios use it to build positions).
    ShipsRemoved {
        seat: Seat,
        star: Star,
        ships: u32,
    },
    /// A warp token was put on the track (scenarios). `token` is 1-based.
    TokenPlaced {
        seat: Seat,
        token: u8,
        square: u8,
        ships: u32,
        from: Sector,
    },
    /// A hand and played pile were arranged (scenarios).
    HandArranged {
        seat: Seat,
        hand: Vec<Card>,
        played: Vec<Card>,
    },
    /// The next turn began (`turn` counts every turn of the game).
    TurnBegan {
        seat: Seat,
        round: u32,
        turn: u32,
        production: bool,
    },
    ShipsProduced {
        seat: Seat,
        star: Star,
        ships: u32,
    },
    /// The active player's tokens on the track moved one square forward.
    WarpTokensAdvanced {
        seat: Seat,
        tokens: Vec<u8>,
    },
    /// A token moved past the last square: it and its ships are lost.
    WarpTokenLost {
        seat: Seat,
        token: u8,
        ships: u32,
        from: Sector,
    },
    /// Ships left a star on a warp token (placed on the entry square).
    FleetDeparted {
        seat: Seat,
        token: u8,
        from: Star,
        ships: u32,
        sector: Sector,
    },
    /// A same-sector journey: immediate, but the token is used this turn.
    FleetJumped {
        seat: Seat,
        token: u8,
        from: Star,
        to: Star,
        ships: u32,
    },
    FleetArrived {
        seat: Seat,
        token: u8,
        star: Star,
        ships: u32,
        square: u8,
    },
    MovementEnded {
        seat: Seat,
    },
    BattleBegan {
        star: Star,
        attacker: Seat,
        defender: Seat,
        attacker_ships: u32,
        defender_ships: u32,
    },
    /// Fight again: both sides still have ships at the star.
    CombatRenewed {
        star: Star,
        combat: u32,
        attacker_ships: u32,
        defender_ships: u32,
    },
    /// A secret pick. Logged, but only narrated to its seat.
    CombatCardPicked {
        seat: Seat,
        card: Card,
    },
    CombatCardsRevealed {
        star: Star,
        attacker: Seat,
        attacker_card: Card,
        attacker_total: u32,
        defender: Seat,
        defender_card: Card,
        defender_total: u32,
    },
    /// After playing the last card, the earlier played cards return.
    HandRecycled {
        seat: Seat,
        cards: Vec<Card>,
    },
    CombatWon {
        star: Star,
        victor: Seat,
        loser: Seat,
        reason: WinReason,
    },
    LossesTaken {
        star: Star,
        victor: Seat,
        loser: Seat,
        chosen: u32,
        loser_lost: u32,
        victor_lost: u32,
    },
    FleetRetreated {
        seat: Seat,
        star: Star,
        ships: u32,
        token: u8,
        sector: Sector,
    },
    RetreatDeclined {
        seat: Seat,
        star: Star,
    },
    BattleEnded {
        star: Star,
        holder: Option<Seat>,
    },
    HomeStarCaptured {
        owner: Seat,
        star: Star,
        by: Seat,
    },
    HomeStarRecovered {
        owner: Seat,
        star: Star,
    },
    PlayerEliminated {
        seat: Seat,
    },
    /// The player resigned (or the host resigned them): out of the game as
    /// if eliminated; their `ships` (on stars and warp tokens) are removed,
    /// and their `home` star is an ordinary star from now on. What follows
    /// (a battle they were in ending, their turn passing, the game's end)
    /// is in the events after it.
    Resigned {
        seat: Seat,
        ships: u32,
        home: Star,
    },
    TurnEnded {
        seat: Seat,
    },
    GameEnded {
        outcome: Outcome,
        scores: Vec<u32>,
    },
}

fn remove_card(cards: &mut Vec<Card>, card: Card) {
    if let Some(i) = cards.iter().position(|c| *c == card) {
        cards.remove(i);
    }
}

/// Apply one event.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::GameSetUp {
            players,
            options,
            homes,
        } => {
            *state = State::empty();
            state.players = *players;
            state.options = options.clone();
            state.seats = homes.iter().map(|h| SeatState::new(*h)).collect();
            let n = state.seats.len();
            state.ships = (0..STAR_COUNT as usize)
                .filter_map(Star::from_index)
                .map(|s| (s, vec![0; n]))
                .collect();
        }
        Event::ShipsPlaced { seat, star, ships } | Event::ShipsProduced { seat, star, ships } => {
            state.add_ships(*star, *seat, *ships);
        }
        Event::ShipsRemoved { seat, star, ships } => {
            state.remove_ships(*star, *seat, *ships);
        }
        Event::TokenPlaced {
            seat,
            token,
            square,
            ships,
            from,
        } => {
            state.set_token(
                *seat,
                *token,
                Token::Flight {
                    square: *square,
                    ships: *ships,
                    from: *from,
                },
            );
        }
        Event::HandArranged { seat, hand, played } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.hand = hand.clone();
                s.played = played.clone();
            }
        }
        Event::TurnBegan { seat, round, turn, .. } => {
            state.active = *seat;
            state.round = *round;
            state.turn = *turn;
            state.stage = Stage::Moving { departures_open: true };
        }
        Event::WarpTokensAdvanced { seat, tokens } => {
            if let Some(s) = state.seat_mut(*seat) {
                for k in tokens {
                    if let Some(Token::Flight { square, .. }) =
                        (*k as usize).checked_sub(1).and_then(|i| s.tokens.get_mut(i))
                    {
                        *square = square.saturating_add(1);
                    }
                }
            }
        }
        Event::WarpTokenLost { seat, token, .. } => {
            state.set_token(*seat, *token, Token::Lost);
        }
        Event::FleetDeparted {
            seat,
            token,
            from,
            ships,
            sector,
        } => {
            state.remove_ships(*from, *seat, *ships);
            state.set_token(
                *seat,
                *token,
                Token::Flight {
                    square: 0,
                    ships: *ships,
                    from: *sector,
                },
            );
        }
        Event::FleetJumped {
            seat,
            token,
            from,
            to,
            ships,
        } => {
            state.remove_ships(*from, *seat, *ships);
            state.add_ships(*to, *seat, *ships);
            state.set_token(*seat, *token, Token::Spent);
        }
        Event::FleetArrived {
            seat,
            token,
            star,
            ships,
            ..
        } => {
            state.add_ships(*star, *seat, *ships);
            state.set_token(*seat, *token, Token::Ready);
            if let Stage::Moving { departures_open } = &mut state.stage {
                *departures_open = false;
            }
        }
        Event::MovementEnded { .. } | Event::BattleEnded { .. } => {
            state.stage = Stage::Resolving;
        }
        Event::BattleBegan {
            star,
            attacker,
            defender,
            ..
        } => {
            state.stage = Stage::Battle(Battle {
                star: *star,
                attacker: *attacker,
                defender: *defender,
                combat: 1,
                step: BattleStep::Cards {
                    picks: Simultaneous::new([*attacker, *defender]),
                },
            });
        }
        Event::CombatRenewed { combat, .. } => {
            if let Some(b) = state.battle_mut() {
                b.combat = *combat;
                b.step = BattleStep::Cards {
                    picks: Simultaneous::new([b.attacker, b.defender]),
                };
            }
        }
        Event::CombatCardPicked { seat, card } => {
            if let Some(Battle {
                step: BattleStep::Cards { picks },
                ..
            }) = state.battle_mut()
            {
                if picks.owes(*seat) {
                    picks.submit(*seat, *card);
                }
            }
        }
        Event::CombatCardsRevealed {
            star,
            attacker,
            attacker_card,
            attacker_total,
            defender,
            defender_card,
            defender_total,
        } => {
            for (seat, card) in [(*attacker, *attacker_card), (*defender, *defender_card)] {
                if let Some(s) = state.seat_mut(seat) {
                    remove_card(&mut s.hand, card);
                    s.played.push(card);
                }
            }
            state.last_combat = Some(CombatReport {
                round: state.round,
                star: *star,
                attacker: *attacker,
                attacker_card: *attacker_card,
                attacker_total: *attacker_total,
                defender: *defender,
                defender_card: *defender_card,
                defender_total: *defender_total,
            });
        }
        Event::HandRecycled { seat, cards } => {
            if let Some(s) = state.seat_mut(*seat) {
                for c in cards {
                    remove_card(&mut s.played, *c);
                    s.hand.push(*c);
                }
                s.hand.sort();
            }
        }
        Event::CombatWon { victor, loser, .. } => {
            if let Some(b) = state.battle_mut() {
                b.step = BattleStep::Losses {
                    victor: *victor,
                    loser: *loser,
                };
            }
        }
        Event::LossesTaken {
            star,
            victor,
            loser,
            loser_lost,
            victor_lost,
            ..
        } => {
            state.remove_ships(*star, *loser, *loser_lost);
            state.remove_ships(*star, *victor, *victor_lost);
            let next = state.next_retreat_step(*victor, *loser, *star, None);
            if let Some(b) = state.battle_mut() {
                b.step = next;
            }
        }
        Event::FleetRetreated {
            seat,
            star,
            ships,
            token,
            sector,
        } => {
            state.remove_ships(*star, *seat, *ships);
            state.set_token(
                *seat,
                *token,
                Token::Flight {
                    square: 0,
                    ships: *ships,
                    from: *sector,
                },
            );
            state.after_retreat(*seat);
        }
        Event::RetreatDeclined { seat, .. } => {
            state.after_retreat(*seat);
        }
        Event::HomeStarCaptured { owner, by, .. } => {
            if let Some(s) = state.seat_mut(*owner) {
                s.captured_by = Some(*by);
            }
        }
        Event::HomeStarRecovered { owner, .. } => {
            if let Some(s) = state.seat_mut(*owner) {
                s.captured_by = None;
            }
        }
        Event::PlayerEliminated { seat } => {
            if let Some(s) = state.seat_mut(*seat) {
                s.eliminated = true;
            }
        }
        Event::Resigned { seat, .. } => {
            for v in state.ships.values_mut() {
                if let Some(n) = v.get_mut(seat.index()) {
                    *n = 0;
                }
            }
            if let Some(s) = state.seat_mut(*seat) {
                s.resigned = true;
                s.eliminated = true;
                for t in &mut s.tokens {
                    if matches!(t, Token::Flight { .. } | Token::Spent) {
                        *t = Token::Ready;
                    }
                }
            }
        }
        Event::TurnEnded { seat } => {
            if let Some(s) = state.seat_mut(*seat) {
                for t in &mut s.tokens {
                    if *t == Token::Spent {
                        *t = Token::Ready;
                    }
                }
            }
            state.stage = Stage::TurnOver;
        }
        Event::GameEnded { outcome, scores } => {
            state.outcome = Some(outcome.clone());
            state.final_scores = Some(scores.clone());
            state.stage = Stage::Over;
        }
    }
}

/// Apply an event to a scratch state at once and keep it, so what follows is
/// computed from exactly the state the log will fold to.
pub(super) fn emit(state: &mut State, events: &mut Vec<Event>, event: Event) {
    apply(state, &event);
    events.push(event);
}
