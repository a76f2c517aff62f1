//! The computer player (issue 31): one player for every game, built only on
//! the [`Ruleset`] contract, with no game-specific code but the optional
//! [`Ruleset::evaluate`] hint.
//!
//! Flat Monte Carlo over determinizations: for each legal order of its
//! seat (at most [`Effort::candidates`] of them, drawn at random when there
//! are more), it plays [`Effort::samples`] short games out, each from a
//! state in which what the seat cannot know is drawn anew
//! ([`Ruleset::scramble`] keeping the seat), the order given first, then
//! every seat playing uniformly random legal orders for at most
//! [`Effort::depth`] decisions. A game that ends scores 1 for a win (1/n of
//! a shared one) and 0 for a loss; one that has not ended scores the
//! ruleset's hint for the seat. The order with the best mean is chosen
//! (ties: the first listed). Flat rather than a tree: the games' decisions
//! are many and small (a sheet is built line by line), so a tree over them
//! would be shallow for the same time, and flat sampling is simple to keep
//! fair: each sample sees only a world drawn from the seat's knowledge.
//!
//! Everything random comes from the `rng` passed in (the player's own
//! generator): a scramble reseeds the game's generator in each sampled
//! world, so future dice are not known. Fairness rests on every game's
//! scramble being canonical (the world depends on `rng` and on what the
//! seat knows, never on the hidden values): the property `bots` checks it
//! for every game. A scramble that returns `None` (nothing hidden to
//! change) leaves the state as it is.

use crate::{GameRng, Outcome, Ruleset, Seat, SheetVerb};

/// Lines a computer player writes on an order sheet at most before it
/// marks the sheet ready.
pub const SHEET_LINES: usize = 12;

/// How much a computer player thinks per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effort {
    /// Sampled worlds (each with one playout) per candidate order.
    pub samples: u32,
    /// Decisions played out after the candidate order, at most.
    pub depth: u32,
    /// Candidate orders looked at, at most.
    pub candidates: usize,
}

impl Effort {
    pub const EASY: Effort = Effort {
        samples: 2,
        depth: 20,
        candidates: 6,
    };
    pub const NORMAL: Effort = Effort {
        samples: 6,
        depth: 40,
        candidates: 12,
    };
    pub const HARD: Effort = Effort {
        samples: 16,
        depth: 80,
        candidates: 24,
    };

    /// `easy`, `normal` or `hard`.
    pub fn named(word: &str) -> Option<Effort> {
        match word {
            "easy" => Some(Effort::EASY),
            "normal" => Some(Effort::NORMAL),
            "hard" => Some(Effort::HARD),
            _ => None,
        }
    }
}

/// The order the computer player gives for `seat`, which owes a decision;
/// `None` when it has no legal order: the best of [`appraise`]'s (ties:
/// the first listed).
pub fn choose<R: Ruleset>(state: &R::State, seat: Seat, effort: Effort, rng: &mut GameRng) -> Option<R::Action> {
    let mut best: Option<(f64, R::Action)> = None;
    for (action, value) in appraise::<R>(state, seat, effort, rng) {
        if best.as_ref().is_none_or(|(b, _)| value > *b) {
            best = Some((value, action));
        }
    }
    best.map(|(_, a)| a)
}

/// The orders the computer player weighs for `seat` and the mean result
/// of each one's sampled games, in the legal orders' order (one order with
/// no weighing when it has no choice). What the no-cheating property
/// compares across states that differ only in what the seat cannot know.
pub fn appraise<R: Ruleset>(state: &R::State, seat: Seat, effort: Effort, rng: &mut GameRng) -> Vec<(R::Action, f64)> {
    let mut legal = R::legal_actions(state, seat);
    // On an order sheet it only writes, and marks the sheet ready after
    // [`SHEET_LINES`] lines: taking lines back could go round for ever.
    let sheet = R::pending(state)
        .iter()
        .any(|p| p.seat == seat && p.sheet && !p.submitted);
    if sheet {
        let undo: Vec<R::Action> = [SheetVerb::Unready, SheetVerb::Clear]
            .into_iter()
            .chain((1..=4 * SHEET_LINES).map(SheetVerb::Remove))
            .filter_map(R::sheet_verb)
            .collect();
        legal.retain(|a| !undo.contains(a));
        let names = vec![String::new(); 8];
        let written = R::sheet_lines(state, seat, &names).map_or(0, |l| l.len());
        if let Some(ready) = R::sheet_verb(SheetVerb::Ready).filter(|r| written >= SHEET_LINES && legal.contains(r)) {
            return vec![(ready, 1.0)];
        }
    }
    if legal.len() <= 1 {
        return legal.into_iter().map(|a| (a, 1.0)).collect();
    }
    let mut candidates: Vec<usize> = (0..legal.len()).collect();
    if candidates.len() > effort.candidates.max(1) {
        rng.shuffle(&mut candidates);
        candidates.truncate(effort.candidates.max(1));
        candidates.sort_unstable();
    }
    candidates
        .into_iter()
        .map(|i| {
            let mut total = 0.0;
            for _ in 0..effort.samples.max(1) {
                let world = R::scramble(state, &[seat], false, rng).unwrap_or_else(|| state.clone());
                total += playout::<R>(world, seat, &legal[i], effort.depth, rng);
            }
            (legal[i].clone(), total / f64::from(effort.samples.max(1)))
        })
        .collect()
}

/// One sampled game: `first` given by `seat` in `world`, then uniformly
/// random legal orders by whoever owes one, for at most `depth` decisions;
/// the result for `seat` ([`value`]).
fn playout<R: Ruleset>(mut world: R::State, seat: Seat, first: &R::Action, depth: u32, rng: &mut GameRng) -> f64 {
    // Legal in the seat's own position, an order may be refused in a world
    // where what it could not see differs: such a world counts as a loss.
    let Ok(events) = R::decide(&world, seat, first) else {
        return 0.0;
    };
    for e in &events {
        R::apply(&mut world, e);
    }
    for _ in 0..depth {
        if R::outcome(&world).is_some() {
            break;
        }
        let pending = R::pending(&world);
        let Some(p) = pending.iter().find(|p| !p.submitted) else {
            break;
        };
        let legal = R::legal_actions(&world, p.seat);
        let Some(action) = rng.pick(&legal) else {
            break;
        };
        match R::decide(&world, p.seat, action) {
            Ok(events) => {
                for e in &events {
                    R::apply(&mut world, e);
                }
            }
            Err(_) => break,
        }
    }
    value::<R>(&world, seat)
}

/// What a position is worth to `seat`, from 0 to 1: its share of the
/// victory once the game is over, the ruleset's hint before.
pub fn value<R: Ruleset>(state: &R::State, seat: Seat) -> f64 {
    match R::outcome(state) {
        Some(Outcome::Winner { seat: w, .. }) => f64::from(u8::from(w == seat)),
        Some(Outcome::Shared { seats, .. }) if seats.contains(&seat) => 1.0 / seats.len() as f64,
        Some(_) => 0.0,
        None => R::evaluate(state, seat).clamp(0.0, 1.0),
    }
}
