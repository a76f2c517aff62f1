//! The platform's own log entries, and folding a log that contains them.
//!
//! A game's log holds its ruleset's events and, rarely, platform events
//! that no ruleset knows about. Today there is one: [`PlatformEvent::RolledBack`],
//! which the host's undo and roll-back write. Nothing is ever deleted from
//! a log: a roll-back is a new entry saying "from here on, the game is as
//! it was after entry `to_seq`". Folding such a log needs the sequence
//! numbers, so it goes through [`Replay`] rather than [`AnyState::apply`].
//!
//! The restored state is the earlier state exactly, random generator
//! included: replaying an undone battle rolls the same dice.

use super::{AnyEvent, AnyState, GameKind};
use orrery_engine::Seat;
use serde::{Deserialize, Serialize};

/// Why the host rolled a game back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "why")]
pub enum Rewind {
    /// Undo the last action (one player's order, one deadline's defaults).
    Undo,
    /// Back to the start of phase `phase`.
    Phase { phase: u32 },
    /// A player took back their own last order (it revealed nothing and
    /// drew nothing random).
    TakeBack { seat: Seat },
}

/// A log entry written by the platform rather than a ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum PlatformEvent {
    /// From here on the game is as it was right after log entry `to_seq`
    /// (entries after it no longer count; they stay in the log).
    RolledBack {
        to_seq: i64,
        why: Rewind,
        /// How many counting entries were set aside.
        undone: u32,
    },
}

impl PlatformEvent {
    /// The entry in a sentence. Public: it says what the host did, never
    /// what was in the entries set aside.
    pub fn narrate(&self, names: &[String]) -> String {
        match self {
            PlatformEvent::RolledBack {
                why: Rewind::TakeBack { seat },
                ..
            } => format!(
                "↩ {} took back their last order.",
                names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
            ),
            PlatformEvent::RolledBack {
                why: Rewind::Undo,
                undone,
                ..
            } => format!("↩ The host undid the last action ({undone} log entries set aside)."),
            PlatformEvent::RolledBack {
                why: Rewind::Phase { phase },
                undone,
                ..
            } => format!(
                "⏪ The host rolled the game back to the start of phase {phase} ({undone} log entries set aside)."
            ),
        }
    }
}

/// A log that does not fold: entry `entry` (which decoded) cannot be
/// applied to the state before it: an event of another game, or one the
/// ruleset's `apply` cannot take (it panicked: a log damaged in a way
/// that still decodes). The game cannot be loaded from that entry on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("entry {entry} does not apply: {why}")]
pub struct FoldError {
    /// The log entry.
    pub entry: i64,
    /// What went wrong.
    pub why: String,
}

/// Apply entry `seq` to `state`, a panic of the ruleset's `apply` caught
/// and told as a [`FoldError`] (the state is then not to be used).
fn apply_entry(state: &mut AnyState, seq: i64, event: &AnyEvent) -> Result<(), FoldError> {
    let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| state.apply(event)));
    match applied {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(FoldError {
            entry: seq,
            why: e.to_string(),
        }),
        Err(panic) => Err(FoldError {
            entry: seq,
            why: format!(
                "the rules cannot apply it ({})",
                panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panicked".into())
            ),
        }),
    }
}

/// Folds a log in order, platform entries included.
#[derive(Clone, Debug)]
pub struct Replay {
    kind: GameKind,
    /// Where the fold started: the empty state before entry 1, or a
    /// snapshot (the state right after entry `seq`; see [`Replay::fold_from`]).
    base: Option<(i64, AnyState)>,
    /// The entries that count now, after the base, with their sequence
    /// numbers, in order.
    counting: Vec<(i64, AnyEvent)>,
    state: AnyState,
}

impl Replay {
    pub fn new(kind: GameKind) -> Self {
        Replay {
            kind,
            base: None,
            counting: Vec::new(),
            state: kind.empty(),
        }
    }

    /// The state after folding `tail` (the entries after `seq`, in order)
    /// onto `state`, the state right after entry `seq` (a snapshot). `None`
    /// when the tail rolls the game back to before `seq`: the entries that
    /// then count again are not in the tail, and the caller folds the whole
    /// log instead.
    pub fn fold_from<'a>(
        kind: GameKind,
        seq: i64,
        state: AnyState,
        tail: impl IntoIterator<Item = &'a (i64, AnyEvent)> + Clone,
    ) -> Result<Option<AnyState>, FoldError> {
        let reaches_back = tail
            .clone()
            .into_iter()
            .any(|(_, e)| matches!(e, AnyEvent::Platform(PlatformEvent::RolledBack { to_seq, .. }) if *to_seq < seq));
        if reaches_back {
            return Ok(None);
        }
        let mut r = Replay {
            kind,
            base: Some((seq, state.clone())),
            counting: Vec::new(),
            state,
        };
        for (s, e) in tail {
            r.push(*s, e)?;
        }
        Ok(Some(r.state))
    }

    /// Fold a whole log of `(seq, entry)`.
    pub fn of<'a>(kind: GameKind, log: impl IntoIterator<Item = &'a (i64, AnyEvent)>) -> Result<Self, FoldError> {
        let mut r = Replay::new(kind);
        for (seq, e) in log {
            r.push(*seq, e)?;
        }
        Ok(r)
    }

    /// Apply the log entry numbered `seq` (entries come in increasing order).
    /// An entry that does not apply is a [`FoldError`] naming it; the
    /// replay is not to be used after one.
    pub fn push(&mut self, seq: i64, event: &AnyEvent) -> Result<(), FoldError> {
        match event {
            AnyEvent::Platform(PlatformEvent::RolledBack { to_seq, .. }) => {
                let keep = self.counting.partition_point(|(s, _)| s <= to_seq);
                if keep < self.counting.len() {
                    self.counting.truncate(keep);
                    let mut state = match &self.base {
                        // `fold_from` never lets a roll-back reach before its base.
                        Some((_, base)) => base.clone(),
                        None => self.kind.empty(),
                    };
                    for (s, e) in &self.counting {
                        apply_entry(&mut state, *s, e)?;
                    }
                    self.state = state;
                }
            }
            _ => {
                apply_entry(&mut self.state, seq, event)?;
                self.counting.push((seq, event.clone()));
            }
        }
        Ok(())
    }

    pub fn state(&self) -> &AnyState {
        &self.state
    }

    pub fn into_state(self) -> AnyState {
        self.state
    }

    /// The ruleset entries that count now, in order: the game as played,
    /// without anything rolled back (after the snapshot, for a fold that
    /// began at one).
    pub fn counting(&self) -> &[(i64, AnyEvent)] {
        &self.counting
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_engine::GameConfig;

    /// Play `n` orders of a seeded Hyperspace game by always taking each
    /// owing seat's first legal order.
    fn played(n: usize) -> Vec<(i64, AnyEvent)> {
        let kind = GameKind::Hyperspace;
        let events = kind.setup(&GameConfig::new(3, 7)).unwrap();
        let mut state = kind.fold(&events).unwrap();
        let mut log: Vec<(i64, AnyEvent)> = events.into_iter().zip(1..).map(|(e, s)| (s, e)).collect();
        for _ in 0..n {
            let p = state.pending().into_iter().find(|p| !p.submitted).unwrap();
            let cmd = state.legal_commands(p.seat).into_iter().next().unwrap();
            for e in state.decide(p.seat, &cmd).unwrap() {
                state.apply(&e).unwrap();
                log.push((log.len() as i64 + 1, e));
            }
        }
        log
    }

    /// Log entry `seq`: the host's undo back to entry `to_seq`.
    fn undo_to(to_seq: i64, seq: i64) -> (i64, AnyEvent) {
        (
            seq,
            AnyEvent::Platform(PlatformEvent::RolledBack {
                to_seq,
                why: Rewind::Undo,
                undone: 1,
            }),
        )
    }

    #[test]
    fn a_roll_back_restores_the_earlier_state_exactly_and_keeps_the_log() {
        let log = played(12);
        let cut = log.len() as i64 - 5;
        let before = Replay::of(GameKind::Hyperspace, log.iter().filter(|(s, _)| *s <= cut)).unwrap();
        let mut with_rollback = log.clone();
        with_rollback.push((
            log.len() as i64 + 1,
            AnyEvent::Platform(PlatformEvent::RolledBack {
                to_seq: cut,
                why: Rewind::Undo,
                undone: 5,
            }),
        ));
        let after = Replay::of(GameKind::Hyperspace, &with_rollback).unwrap();
        assert_eq!(after.state(), before.state());
        assert_eq!(after.counting().len(), cut as usize);
        // Playing on after the roll-back: same orders give the same events
        // (the random generator was restored too).
        let seat = after.state().pending()[0].seat;
        let cmd = after.state().legal_commands(seat)[0].clone();
        assert_eq!(
            after.state().decide(seat, &cmd).unwrap(),
            before.state().decide(seat, &cmd).unwrap()
        );
    }

    #[test]
    fn nested_roll_backs_count_only_what_survives() {
        let log = played(10);
        let n = log.len() as i64;
        // Roll back to n-2, then (a no-op) to n-1, which was already set aside.
        let mut l = log.clone();
        l.push(undo_to(n - 2, n + 1));
        l.push(undo_to(n - 1, n + 2));
        let r = Replay::of(GameKind::Hyperspace, &l).unwrap();
        let direct = GameKind::Hyperspace
            .fold(log.iter().filter(|(s, _)| *s <= n - 2).map(|(_, e)| e))
            .unwrap();
        assert_eq!(r.state(), &direct);
        assert_eq!(r.counting().last().unwrap().0, n - 2);
    }

    #[test]
    fn folding_from_a_snapshot_equals_folding_the_whole_log() {
        let log = played(14);
        let n = log.len() as i64;
        let mut l = log.clone();
        l.push(undo_to(n - 3, n + 1));
        let whole = Replay::of(GameKind::Hyperspace, &l).unwrap().into_state();
        // Snapshots before the roll-back's target: the tail refolds from them.
        for snap in [1, n / 2, n - 3] {
            let at = Replay::of(GameKind::Hyperspace, l.iter().filter(|(s, _)| *s <= snap))
                .unwrap()
                .into_state();
            let tail: Vec<_> = l.iter().filter(|(s, _)| *s > snap).cloned().collect();
            let folded = Replay::fold_from(GameKind::Hyperspace, snap, at, &tail).unwrap();
            assert_eq!(folded.as_ref(), Some(&whole), "from a snapshot at {snap}");
        }
        // A snapshot past the roll-back's target cannot be resumed from.
        let snap = n - 1;
        let at = Replay::of(GameKind::Hyperspace, l.iter().filter(|(s, _)| *s <= snap))
            .unwrap()
            .into_state();
        let tail: Vec<_> = l.iter().filter(|(s, _)| *s > snap).cloned().collect();
        assert_eq!(Replay::fold_from(GameKind::Hyperspace, snap, at, &tail).unwrap(), None);
    }

    #[test]
    fn plain_apply_refuses_a_roll_back() {
        let mut s = GameKind::Hyperspace.empty();
        let e = AnyEvent::Platform(PlatformEvent::RolledBack {
            to_seq: 0,
            why: Rewind::Undo,
            undone: 0,
        });
        assert!(s.apply(&e).is_err());
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["game"], "platform");
        assert_eq!(serde_json::from_value::<AnyEvent>(json).unwrap(), e);
    }
}
