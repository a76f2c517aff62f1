//! The computer player (issue 31): one player for every game, built only on
//! the [`Ruleset`] contract, with no game-specific code but the optional
//! [`Ruleset::evaluate`] hint.
//!
//! Flat Monte Carlo over determinizations: it draws [`Effort::samples`]
//! worlds, states in which what the seat cannot know is drawn anew
//! ([`Ruleset::scramble`] keeping the seat), each with dice of its own;
//! then for each legal order of its seat (at most [`Effort::candidates`]
//! of them, drawn at random when there are more) it plays a short game
//! out in every world: the order given first, then every seat playing
//! random legal orders for at most [`Effort::depth`] decisions. Every
//! candidate meets the same worlds and the same dice, so the comparison
//! between two orders is not swamped by the luck of the draw. The random
//! orders are uniform, but on order sheets: there no line is taken back
//! and a sheet is marked ready one time in four, so that sampled games
//! reach the sheets' resolution (uniform play on a sheet writes and erases
//! lines for ever). A game that ends scores 1 for a win (1/n of a shared
//! one) and 0 for a loss; one that has not ended scores the ruleset's hint
//! for the seat. The seat's default (end the turn, pass) is always among
//! the candidates, and in sampled games the seat's own further decisions
//! of the phase are its default, so each order is judged as its last of
//! the phase. The order with the best mean is chosen (ties: drawn at
//! random; on a sheet, the first listed). Flat rather than a tree: the
//! games' decisions are many and small (a sheet is built line by line),
//! so a tree over them would be shallow for the same time, and flat
//! sampling is simple to keep fair: each sample sees only a world drawn
//! from the seat's knowledge.
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
/// `None` when it has no legal order: the best of [`appraise`]'s. Ties
/// are drawn at random (on an order sheet: the first listed), so that
/// where the samples cannot tell orders apart (a move whose effect lies
/// beyond the playouts' depth, ending the turn) the player neither always
/// stops nor always goes on.
pub fn choose<R: Ruleset>(state: &R::State, seat: Seat, effort: Effort, rng: &mut GameRng) -> Option<R::Action> {
    let weighed = appraise::<R>(state, seat, effort, rng);
    let best = weighed.iter().map(|(_, v)| *v).fold(f64::NEG_INFINITY, f64::max);
    let mut tied: Vec<R::Action> = weighed
        .into_iter()
        .filter(|(_, v)| *v == best)
        .map(|(a, _)| a)
        .collect();
    if tied.len() > 1 && !on_sheet::<R>(state, seat) {
        let i = rng.below(tied.len() as u32) as usize;
        return Some(tied.swap_remove(i));
    }
    tied.into_iter().next()
}

/// The orders the computer player weighs for `seat` and the mean result
/// of each one's sampled games, in the legal orders' order (one order with
/// no weighing when it has no choice). What the no-cheating property
/// compares across states that differ only in what the seat cannot know.
///
/// The worlds are drawn first, [`Effort::samples`] of them, each with a
/// playout generator of its own, and every candidate is played out in
/// every one: the candidates are compared on the same draws of what the
/// seat cannot see and of the dice, so a difference between two means is
/// more the orders' than the luck's, and the scrambles are paid once.
pub fn appraise<R: Ruleset>(state: &R::State, seat: Seat, effort: Effort, rng: &mut GameRng) -> Vec<(R::Action, f64)> {
    let mut legal = R::legal_actions(state, seat);
    let undo = undo_verbs::<R>();
    // On an order sheet it only writes, and marks the sheet ready after
    // [`SHEET_LINES`] lines: taking lines back could go round for ever.
    let sheet = on_sheet::<R>(state, seat);
    if sheet {
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
    // The seat's default (what its deadline would play: end the turn,
    // pass, mark the sheet ready) is always weighed, so the player can
    // always stop.
    // (On a sheet, its own rule stands: ready after SHEET_LINES lines.)
    let default = R::default_action(state, seat)
        .filter(|_| !sheet)
        .and_then(|d| legal.iter().position(|a| *a == d));
    let mut candidates: Vec<usize> = (0..legal.len()).filter(|i| Some(*i) != default).collect();
    let room = effort.candidates.max(1) - usize::from(default.is_some());
    if candidates.len() > room {
        rng.shuffle(&mut candidates);
        candidates.truncate(room);
    }
    candidates.extend(default);
    candidates.sort_unstable();
    let policy = Playout::<R> {
        undo,
        ready: R::sheet_verb(SheetVerb::Ready),
        depth: effort.depth,
        phase: R::phase(state).number,
    };
    let worlds: Vec<(R::State, GameRng)> = (0..effort.samples.max(1))
        .map(|_| {
            let world = R::scramble(state, &[seat], false, rng).unwrap_or_else(|| state.clone());
            (world, rng.fork())
        })
        .collect();
    candidates
        .into_iter()
        .map(|i| {
            let total: f64 = worlds
                .iter()
                .map(|(world, dice)| policy.play(world.clone(), seat, &legal[i], &mut dice.clone()))
                .sum();
            (legal[i].clone(), total / worlds.len() as f64)
        })
        .collect()
}

/// Whether `seat` owes an order sheet it has not marked ready.
fn on_sheet<R: Ruleset>(state: &R::State, seat: Seat) -> bool {
    R::pending(state)
        .iter()
        .any(|p| p.seat == seat && p.sheet && !p.submitted)
}

/// The orders that take sheet lines back (un-ready, clear, remove a line).
fn undo_verbs<R: Ruleset>() -> Vec<R::Action> {
    [SheetVerb::Unready, SheetVerb::Clear]
        .into_iter()
        .chain((1..=4 * SHEET_LINES).map(SheetVerb::Remove))
        .filter_map(R::sheet_verb)
        .collect()
}

/// How sampled games are played out.
struct Playout<R: Ruleset> {
    /// Orders that take sheet lines back: never played out.
    undo: Vec<R::Action>,
    /// The order marking a sheet ready, in games with sheets.
    ready: Option<R::Action>,
    /// Decisions played out after the candidate order, at most.
    depth: u32,
    /// The phase the decision is taken in ([`crate::PhaseInfo::number`]).
    phase: u32,
}

impl<R: Ruleset> Playout<R> {
    /// One sampled game: `first` given by `seat` in `world`, then random
    /// legal orders by whoever owes one, for at most `depth` decisions;
    /// the result for `seat` ([`value`]). The orders are uniformly random
    /// but on order sheets, where lines are never taken back and the sheet
    /// is marked ready one time in [`READY_ONE_IN`] (or when no line is
    /// left to write), so that sampled games reach the sheets' resolution
    /// instead of writing and erasing lines for ever.
    fn play(&self, mut world: R::State, seat: Seat, first: &R::Action, rng: &mut GameRng) -> f64 {
        // Legal in the seat's own position, an order may be refused in a
        // world where what it could not see differs: such a world counts
        // as a loss.
        let Ok(events) = R::decide(&world, seat, first) else {
            return 0.0;
        };
        for e in &events {
            R::apply(&mut world, e);
        }
        for _ in 0..self.depth {
            if R::outcome(&world).is_some() {
                break;
            }
            let pending = R::pending(&world);
            let Some(p) = pending.iter().find(|p| !p.submitted) else {
                break;
            };
            // The seat's own further decisions of this phase (more moves
            // in its turn): its default, so that each candidate is judged
            // as the seat's last order of the phase. Without it an order
            // that only puts the end of the turn off (split a stack, merge
            // it back) would look better than ending it whenever what
            // follows the turn is bad news within the playout's depth.
            let own = p.seat == seat && !p.sheet && R::phase(&world).number == self.phase;
            let Some(action) = own
                .then(|| R::default_action(&world, seat))
                .flatten()
                .or_else(|| self.random_order(&world, p, rng))
            else {
                break;
            };
            let Ok(events) = R::decide(&world, p.seat, &action) else {
                break;
            };
            for e in &events {
                R::apply(&mut world, e);
            }
        }
        value::<R>(&world, seat)
    }

    /// A random legal order for `p`'s seat: uniform, but on an order
    /// sheet, where no line is taken back and the sheet is marked ready
    /// one time in [`READY_ONE_IN`] (or when no line is left to write).
    fn random_order(&self, world: &R::State, p: &crate::Pending, rng: &mut GameRng) -> Option<R::Action> {
        let mut legal = R::legal_actions(world, p.seat);
        if p.sheet {
            legal.retain(|a| !self.undo.contains(a));
            if let Some(ready) = self.ready.as_ref().filter(|r| legal.contains(r)) {
                if legal.len() == 1 || rng.below(READY_ONE_IN) == 0 {
                    legal = vec![ready.clone()];
                } else {
                    legal.retain(|a| a != ready);
                }
            }
        }
        rng.pick(&legal).cloned()
    }
}

/// In sampled games, a seat writing an order sheet marks it ready one time
/// in this many (a sheet of three lines, on average).
const READY_ONE_IN: u32 = 4;

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
