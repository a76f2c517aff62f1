//! The rules of Solar Crisis (`docs/rules/solar.md`): who owes what
//! ([`pending`]), the legal orders ([`legal_actions`]), the deadline
//! defaults ([`default_action`]) and [`decide`], which plays on by itself
//! up to the next decision. Its parts, each using only those before it:
//!
//! - [`crises`]: Phase 4 (the crisis dice, every planet's crisis,
//!   Mercury's powers, losses, the invasion), Phase 5 (income), Phase 6,
//!   the next period, the scoring and the outcome;
//! - [`turn`]: the Player Actions phase without cards (`move`, `claim`,
//!   `pay`, `giveup`, `buy`, `pass`), the end of a turn, the next round and
//!   its alien advance; the last Pass cube hands over to [`crises`];
//! - [`cards`]: `play` for every card, Double Time's `end`, Espionage's
//!   `take` and the hand limit's `discard`.
//!
//! This file holds what they share (`Out`, `reject`, `draw`) and hands
//! each decision to its part. [`decide`] works on a scratch copy of the
//! state: every event it emits is applied at once with
//! [`super::events::apply`], so the automatic follow-up (casualties, the
//! end of the turn, the next round and its alien advance, the next turn)
//! is computed from exactly the state the log will fold to. Randomness
//! (claim dice, a reshuffled deck) comes only from the state's generator,
//! and the events carry it as it was after the draw.
//!
//! **The end of the phase.** When the last Pass cube is taken, the taker
//! takes the First Player marker and the phase ends: [`decide`] emits
//! [`Event::FirstPlayerMarkerTaken`] and `PhaseBegan { phase: Crises }`,
//! then runs on into Phase 4 with [`crises`], up to its first decision,
//! the next period or the end of the game. In Phase 4, [`pending`],
//! [`legal_actions`], [`decide`] and [`default_action`] hand over to
//! [`crises`].
//!
//! **Cards**: a `discard` owed (a hand above 9) comes before every other
//! decision, in Phase 3 and Phase 4 alike. After each action, the turn's
//! `action_done` either ends the turn or, with a Double Time played,
//! leaves the turn holder an extra action.

pub mod cards;
pub mod crises;
pub mod turn;

use self::cards::Moment;
use self::turn::{
    action_done, buy, buy_actions, claim_actions, do_claim, do_move, end_turn, fail_claim, move_actions, pass,
    pass_actions, pay, pay_actions, tile_planet,
};
use super::basics::board::{Phase, HOME};
use super::basics::cards::CardId;
use super::events::{apply, ActionKind, Event};
use super::orders::{unparse, Action};
use super::state::{State, UnitCounts};
use orrery_engine::{Outcome, Pending, Rejection, Seat};

// ---------------------------------------------------------------------------
// Who owes what

/// The decision a seat owes in Phase 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owed {
    /// Its turn: one action.
    Turn,
    /// A rolled claim's `pay` or `giveup`.
    Pay,
    /// Espionage's `take` from this rival's hand.
    Take(Seat),
}

impl Owed {
    fn kind(self) -> &'static str {
        match self {
            Owed::Turn => "turn",
            Owed::Pay => "pay",
            Owed::Take(_) => "take",
        }
    }
}

fn owed(state: &State) -> Option<(Seat, Owed)> {
    if state.is_over() || state.phase != Some(Phase::PlayerActions) {
        return None;
    }
    let turn = state.turn.as_ref()?;
    if let Some(target) = turn.espionage {
        return Some((turn.seat, Owed::Take(target)));
    }
    match &turn.claim {
        Some(c) if c.dice.is_some() => Some((turn.seat, Owed::Pay)),
        Some(_) => None,
        None => Some((turn.seat, Owed::Turn)),
    }
}

/// Who owes what: a seat above the hand limit its `discard` (`discard`,
/// before anything else, in Phase 3 and 4); else the turn holder's action
/// (`turn`, also a Double Time's extra action), the claimant's `pay` or
/// `giveup` after a claim roll (`pay`), or the spy's `take` (`take`).
pub fn pending(state: &State) -> Vec<Pending> {
    if let Some(p) = cards::discard_pending(state) {
        return vec![p];
    }
    if state.phase == Some(Phase::Crises) {
        return crises::pending(state);
    }
    let Some((seat, owes)) = owed(state) else {
        return Vec::new();
    };
    let prompt = match owes {
        Owed::Turn if state.passing_only() => {
            format!("Round {}: past the round limit, `pass` is the only order.", state.round)
        }
        Owed::Turn if extra_action(state) => {
            "Double Time: one more action — `move`, `claim`, `buy` or an Action card — or `end`.".to_string()
        }
        Owed::Turn => "Your turn: one action — `move`, `claim`, `buy`, an Action card or `pass`.".to_string(),
        // The board shows whose hand it is, by name; prompts hold no names.
        Owed::Take(_) => "Espionage: `take` one card from the hand you are looking at.".to_string(),
        Owed::Pay => match state.claim() {
            Some(c) => format!(
                "Your claim of {} at {} costs {} CP: `pay` with ready units there, or `giveup`.",
                c.tile,
                c.planet,
                c.cost().saturating_sub(c.card_cp())
            ),
            None => "Pay for your claim, or give it up.".to_string(),
        },
    };
    // A prompt is its seat's own: it shows the hand the seat plays from.
    let hand = state.seat(seat).map(|s| s.hand.as_slice()).unwrap_or_default();
    let prompt = if hand.is_empty() {
        format!("{prompt}\nYour hand: no cards.")
    } else {
        let names: Vec<&str> = hand.iter().map(|c| c.name()).collect();
        format!("{prompt}\nYour hand ({}): {}.", hand.len(), names.join(", "))
    };
    vec![Pending {
        seat,
        kind: owes.kind().into(),
        prompt,
        secret: false,
        submitted: false,
        sheet: false,
        undisclosed: false,
    }]
}

/// Every legal action of `seat` now, deterministic and bounded. A seat
/// above the hand limit: its `discard`s (see [`cards::discard_actions`]),
/// before anything else. On a turn: the moves (see `move_actions` for the
/// bound on moves that claim), the claims, the buys, the card plays (see
/// [`cards::play_actions`] for the bound), and `pass` — or `end` instead of
/// `pass` for a Double Time's extra action (only `pass` past the round
/// limit). After a claim roll: the minimal `pay`s (see `pay_actions`),
/// `giveup`, and the claim Benefits and Free Actions in hand. After
/// Espionage: a `take` of each distinct card in the rival's hand.
/// `lose:` choices are not listed: the loss order applies; [`decide`]
/// accepts any valid `lose:`.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if let Some(s) = cards::discard_owed(state) {
        return if s == seat {
            cards::discard_actions(state, seat)
        } else {
            Vec::new()
        };
    }
    if state.phase == Some(Phase::Crises) {
        return crises::legal_actions(state, seat);
    }
    match owed(state) {
        Some((s, Owed::Turn)) if s == seat => {
            if state.passing_only() {
                return pass_actions(state);
            }
            let mut out = move_actions(state, seat);
            out.extend(claim_actions(state, seat));
            out.extend(buy_actions(state, seat));
            out.extend(cards::play_actions(state, seat, Moment::Action));
            if extra_action(state) {
                out.push(Action::End);
            } else {
                out.extend(pass_actions(state));
            }
            out
        }
        Some((s, Owed::Pay)) if s == seat => {
            let mut out = pay_actions(state, seat);
            out.push(Action::GiveUp { lose: Vec::new() });
            out.extend(cards::play_actions(state, seat, Moment::Pay));
            out
        }
        Some((s, Owed::Take(target))) if s == seat => cards::take_actions(state, target),
        _ => Vec::new(),
    }
}

/// Whether the turn holder owes a Double Time's extra action (an action
/// was taken this turn and the turn goes on).
fn extra_action(state: &State) -> bool {
    state.turn.as_ref().is_some_and(|t| t.actions_taken >= 1)
}

// ---------------------------------------------------------------------------
// Deciding

/// The deadline default (*Missed deadlines*): `pass` on a turn (`end` for
/// a Double Time's extra action), `giveup` after a claim roll (casualties
/// by the loss order), the lowest card code for Espionage's `take`, the
/// most recently gained cards for a `discard`; in Phase 4 `power`
/// alone (no power used) and the loss order. `None` when `seat` owes nothing.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    if state.is_over() {
        return None;
    }
    if let Some(s) = cards::discard_owed(state) {
        return (s == seat).then(|| Action::Discard(cards::default_discard(state, seat)));
    }
    if state.phase == Some(Phase::Crises) {
        return crises::default_action(state, seat);
    }
    match owed(state) {
        Some((s, Owed::Turn)) if s == seat && extra_action(state) => Some(Action::End),
        Some((s, Owed::Turn)) if s == seat => Some(Action::Pass),
        Some((s, Owed::Pay)) if s == seat => Some(Action::GiveUp { lose: Vec::new() }),
        Some((s, Owed::Take(target))) if s == seat => cards::default_take(state, target).map(Action::Take),
        _ => None,
    }
}

/// Past the round limit a turn can only pass (docs/rules/solar.md, "Round
/// limit", a designer's choice): the platform passes for the player
/// instead of asking. Public: the round and the limit are on the board.
pub fn forced(state: &State, seat: Seat) -> Option<(Action, String)> {
    if state.is_over() || !state.passing_only() || cards::discard_owed(state).is_some() {
        return None;
    }
    match owed(state) {
        Some((s, Owed::Turn)) if s == seat => {
            let legal = legal_actions(state, seat);
            let [only] = legal.as_slice() else { return None };
            Some((
                only.clone(),
                format!(
                    "round {} is past the round limit ({}), so passing is the only order",
                    state.round, state.options.round_limit
                ),
            ))
        }
        _ => None,
    }
}

pub(super) fn reject(reason: impl Into<String>, legal: &[Action]) -> Rejection {
    Rejection::illegal(reason, legal.iter().map(|a| unparse(a).to_string()).collect())
}

/// The scratch state and the events emitted so far.
pub(super) struct Out {
    pub(super) s: State,
    pub(super) ev: Vec<Event>,
}

impl Out {
    /// A scratch copy of `state`, no events yet.
    pub(super) fn new(state: &State) -> Out {
        Out {
            s: state.clone(),
            ev: Vec::new(),
        }
    }

    /// Applies `event` to the scratch state and records it.
    pub(super) fn emit(&mut self, event: Event) {
        apply(&mut self.s, &event);
        self.ev.push(event);
    }
}

/// Validate an action and turn it into events, with the automatic
/// follow-up up to the next decision (or the end of the phase).
pub fn decide(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if state.is_over() {
        return Err(Rejection::GameOver);
    }
    if let Some(s) = cards::discard_owed(state) {
        if s != seat {
            let waiting = crate::waiting_seats(&pending(state));
            return Err(Rejection::NotYourDecision { seat, waiting });
        }
        return match action {
            Action::Discard(cards) => cards::decide_discard(state, seat, cards),
            _ => Err(reject(
                format!(
                    "you hold {} cards, above the hand limit of 9: `discard` first",
                    state.hand_size(seat)
                ),
                &cards::discard_actions(state, seat),
            )),
        };
    }
    if state.phase == Some(Phase::Crises) {
        return crises::decide(state, seat, action);
    }
    let owes = match owed(state) {
        Some((s, owes)) if s == seat => owes,
        _ => {
            let waiting = crate::waiting_seats(&pending(state));
            return Err(Rejection::NotYourDecision { seat, waiting });
        }
    };
    let mut out = Out {
        s: state.clone(),
        ev: Vec::new(),
    };
    match (owes, action) {
        (Owed::Turn, Action::Pass) if extra_action(state) => {
            return Err(reject(
                "a Double Time's extra action may not be `pass`: take another action, or `end` to skip it",
                &legal_actions(state, seat),
            ))
        }
        (Owed::Turn, Action::Pass) => pass(&mut out, seat)?,
        (Owed::Turn, Action::End) if extra_action(state) => end_turn(&mut out, seat),
        (Owed::Turn, Action::End) => {
            return Err(reject(
                "`end` only skips a Double Time's extra action: take your action",
                &legal_actions(state, seat),
            ))
        }
        (Owed::Turn, Action::Play(order)) => cards::play(&mut out, seat, Moment::Action, order)?,
        (Owed::Pay, Action::Play(order)) => cards::play(&mut out, seat, Moment::Pay, order)?,
        (Owed::Take(target), Action::Take(card)) => cards::take(&mut out, seat, target, *card)?,
        (Owed::Take(target), _) => {
            return Err(reject(
                format!("Espionage: you owe `take card:NAME` from {target}'s hand"),
                &legal_actions(state, seat),
            ))
        }
        (Owed::Turn, Action::Move { .. } | Action::Claim(_) | Action::Buy { .. }) if state.passing_only() => {
            return Err(reject(
                format!(
                    "round {} is past the round limit ({}): `pass` is the only order now",
                    state.round, state.options.round_limit
                ),
                &legal_actions(state, seat),
            ))
        }
        (
            Owed::Turn,
            Action::Move {
                from,
                to,
                ships,
                infantry,
                tanks,
                claim,
            },
        ) => do_move(&mut out, seat, *from, *to, UnitCounts::new(*infantry, *ships, *tanks), claim.as_ref())?,
        (Owed::Turn, Action::Claim(order)) => {
            out.emit(Event::ActionTaken {
                seat,
                action: ActionKind::Claim,
            });
            let Some(planet) = tile_planet(state, order.tile) else {
                return Err(reject(format!("tile {} is not on the board", order.tile), &claim_actions(state, seat)));
            };
            do_claim(&mut out, seat, planet, order, &|| claim_actions(state, seat))?;
        }
        (Owed::Turn, Action::Buy { units }) => buy(&mut out, seat, units)?,
        (Owed::Pay, Action::Pay { units, lose }) => pay(&mut out, seat, *units, lose)?,
        (Owed::Pay, Action::GiveUp { lose }) => {
            let claim_planet = state.claim().map_or(HOME, |c| c.planet);
            fail_claim(&mut out, seat, claim_planet, lose)?;
        }
        (Owed::Turn, _) => {
            return Err(reject(
                "it is your turn: take one action (`move`, `claim`, `buy`, `play` an Action card, or `pass`); `pay` and `giveup` answer a claim roll",
                &legal_actions(state, seat),
            ))
        }
        (Owed::Pay, _) => {
            return Err(reject(
                "your claim was rolled: you owe `pay` or `giveup` now",
                &legal_actions(state, seat),
            ))
        }
    }
    Ok(out.ev)
}

/// `seat` leaves the game (docs/rules/solar.md, *Resigning*): its pieces
/// and hand go ([`Event::Resigned`]); with one player left, that player
/// wins at once. Otherwise the game goes on from where it stands: on the
/// seat's own turn the turn passes clockwise (a claim in progress or an
/// extra action lapses); a spy looking at its hand has had its action; in
/// Phase 4 a Mercury offer or losses it owed lapse, and when nobody else
/// is awaited the crises resume.
pub fn resign(state: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
    if state.is_over() {
        return Err(Rejection::GameOver);
    }
    let Some(s) = state.seat(seat) else {
        return Err(Rejection::illegal(
            format!("there is no {seat} in this game"),
            Vec::new(),
        ));
    };
    if state.has_resigned(seat) {
        return Err(Rejection::illegal(format!("{seat} has already resigned"), Vec::new()));
    }
    let mut out = Out::new(state);
    out.emit(Event::Resigned {
        seat,
        hand: s.hand.clone(),
    });
    if let [winner] = out.s.in_play()[..] {
        out.emit(Event::GameEnded {
            outcome: Outcome::Winner {
                seat: winner,
                reason: "the others resigned".into(),
            },
            vp: Vec::new(),
        });
        return Ok(out.ev);
    }
    match state.phase {
        Some(Phase::PlayerActions) => match state.turn.as_ref() {
            Some(t) if t.seat == seat => end_turn(&mut out, seat),
            Some(t) if t.espionage == Some(seat) => action_done(&mut out, t.seat, true),
            _ => {}
        },
        Some(Phase::Crises) => crises::run(&mut out),
        _ => {}
    }
    Ok(out.ev)
}

/// Draws `n` cards; "When a card must be drawn and the deck is empty, the
/// discard pile is shuffled into a new deck. If both are empty, the draw is
/// lost."
pub(super) fn draw(out: &mut Out, seat: Seat, n: u32) {
    let mut left = n as usize;
    while left > 0 {
        if out.s.deck.is_empty() {
            if out.s.discard.is_empty() {
                return;
            }
            let mut rng = (*out.s.rng).clone();
            let mut order = out.s.discard.clone();
            rng.shuffle(&mut order);
            out.emit(Event::DeckReshuffled {
                order,
                rng: Box::new(rng),
            });
        }
        let cards: Vec<CardId> = out.s.deck.iter().take(left).copied().collect();
        if cards.is_empty() {
            return;
        }
        left -= cards.len();
        out.emit(Event::CardsDrawn { seat, cards });
    }
}

#[cfg(test)]
mod tests;
