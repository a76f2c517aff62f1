//! Undo and roll back: a new log entry ([`PlatformEvent::RolledBack`]);
//! nothing is deleted, and the restored position is the earlier one
//! exactly (the same board, the same dice to come).

use super::advance::Advance;
use super::change::{Changed, Load, Moved};
use super::roster::Roster;
use super::seats::{autoplay, autoplay_line};
use super::settings::Settings;
use super::{compose, user_err, Actor, Reply, Service, ServiceError, Text};
use orrery_engine::{GameId, Viewer};
use orrery_games::{AnyEvent, PlatformEvent, Replay, Rewind};
use orrery_store::{DeadlineChange, GameRow, LogEntry};

/// Fold a game's log, platform entries included.
pub(super) fn replay_log(row: &GameRow, log: &[LogEntry]) -> Result<Replay, ServiceError> {
    let mut r = Replay::new(row.kind);
    for e in log {
        // An entry that decodes but does not apply: the log is damaged
        // from it, and the asker is told so.
        r.push(e.seq, &e.event).map_err(|e| ServiceError::Damaged {
            game: row.id,
            entry: e.entry,
        })?;
    }
    Ok(r)
}

/// The sequence number right after which phase `phase` began, in the
/// counting entries (`None`: the game never reached it).
pub(super) fn phase_start(
    row: &GameRow,
    counting: &[(i64, AnyEvent)],
    phase: u32,
) -> Result<Option<i64>, ServiceError> {
    let mut s = row.kind.empty();
    for (seq, e) in counting {
        s.apply(e).map_err(anyhow::Error::from)?;
        if s.phase().number == phase {
            return Ok(Some(*seq));
        }
        if s.phase().number > phase {
            return Ok(None);
        }
    }
    Ok(None)
}

/// The end of the action that wrote entry `seq`: the position at rest
/// after it (a roll-back never stops half-way through an action).
pub(super) fn rest_point(log: &[LogEntry], counting: &[(i64, AnyEvent)], seq: i64) -> i64 {
    let batch_of = |s: i64| log.iter().find(|e| e.seq == s).and_then(|e| e.batch);
    let Some(batch) = batch_of(seq) else { return seq };
    counting
        .iter()
        .map(|(s, _)| *s)
        .filter(|&s| s >= seq && batch_of(s) == Some(batch))
        .max()
        .unwrap_or(seq)
}

impl Service {
    /// The game's log and its replay, as a roll-back reads them.
    async fn replayed(&self, row: &GameRow) -> Result<(Vec<LogEntry>, Replay), ServiceError> {
        let log = self.store.log(row.id).await?;
        let replay = replay_log(row, &log)?;
        Ok((log, replay))
    }

    /// Host: undo the last action, or roll back to the start of a phase.
    /// Writes one new log entry; nothing is deleted. The restored position
    /// is the earlier one exactly (the same board, the same dice to come),
    /// and the phase gets a fresh deadline.
    pub(super) async fn rewind(&self, actor: &Actor, game: Option<GameId>, why: Rewind) -> Result<Reply, ServiceError> {
        let what = match why {
            Rewind::Undo => "undo",
            Rewind::Phase { .. } => "roll the game back",
            Rewind::TakeBack { .. } => return user_err("A take-back is a player's own (`/game takeback`)."),
        };
        let row = self.hosted_in_play(actor, game, what).await?;
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let (log, replay) = self.replayed(row).await?;
            let counting = replay.counting();
            let target = match &why {
                Rewind::Undo => {
                    let Some((last, _)) = counting.last() else {
                        return user_err(format!("Game {} has nothing to undo.", row.id));
                    };
                    let Some(batch) = log.iter().find(|e| e.seq == *last).and_then(|e| e.batch) else {
                        return user_err(format!(
                            "Game {}'s last action was logged before undo was possible; roll back to a phase instead.",
                            row.id
                        ));
                    };
                    if batch == 0 {
                        return user_err(format!("Game {} is at its set-up; there is nothing to undo.", row.id));
                    }
                    batch
                }
                Rewind::TakeBack { .. } => unreachable!("refused above"),
                Rewind::Phase { phase } => {
                    let current = replay.state().phase().number;
                    match phase_start(row, counting, *phase)? {
                        Some(seq) => rest_point(&log, counting, seq),
                        None => {
                            return user_err(format!(
                                "Game {} is in phase {current}; roll back to a phase from 1 to {current}.",
                                row.id
                            ))
                        }
                    }
                }
            };
            let undone: Vec<&(i64, AnyEvent)> = counting.iter().filter(|(s, _)| *s > target).collect();
            if undone.is_empty() {
                return user_err(format!(
                    "Game {} is already at the start of that phase; nothing would change.",
                    row.id
                ));
            }
            let entry = AnyEvent::Platform(PlatformEvent::RolledBack {
                to_seq: target,
                why: why.clone(),
                undone: undone.len() as u32,
            });
            let seats = self.store.seats(row.id).await?;
            let names = seats.names();
            let undone_text: Vec<String> = undone
                .iter()
                .filter_map(|(_, e)| e.narrate(Viewer::Public, &names))
                .collect();
            let mut rolled = replay.clone();
            rolled.push(row.seq + 1, &entry).map_err(anyhow::Error::from)?;
            let restored = rolled.into_state();
            let settings = Settings::of(row);
            let mut adv = Advance::new(replay.state(), row.seq);
            adv.push_rewind(entry, restored);
            // The restored position gets a fresh post with its board.
            if adv.boundaries.is_empty() {
                adv.boundary();
            }
            // Seats in civil disorder play what they owe in the restored position.
            let played = autoplay(&mut adv, &seats, !settings.auto_resolve);
            // The new post says what happened too (the old one ends with it).
            let mut notes = vec![Text::from(
                adv.events[0].narrate(Viewer::Public, &names).unwrap_or_default(),
            )];
            if !undone_text.is_empty() {
                notes.push(Text::plain(format!("Set aside:\n{}", undone_text.join("\n"))));
            }
            notes.extend(autoplay_line(&played, &seats).map(Text::from));
            let finished = adv.state.outcome().is_some();
            let deadline = match finished {
                false => DeadlineChange::Set(self.deadline_for(&settings, &adv.state)),
                true => DeadlineChange::Keep,
            };
            let what = match why {
                Rewind::Undo => "undid the last action",
                _ => "rolled the game back",
            };
            let label = adv.state.phase().title(&names);
            let reply = Reply::private(format!(
                "Game {} is back at {label} ({} log entries set aside; the log keeps them).",
                row.id,
                undone.len()
            ));
            let moved = Moved::new(adv, seats, compose::Cause::Host(what.into()), deadline).notes(notes);
            Ok(Changed::moved(moved, reply))
        })
        .await
    }
}

impl Service {
    /// A player takes back their own last order, in their own turn, when
    /// it revealed nothing hidden and drew nothing random (every event of
    /// it [`AnyEvent::takes_back`]). Like the host's undo it is one new
    /// log entry; the deadline stays as it was.
    pub(super) async fn take_back(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let Some(seat) = seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat) else {
            return user_err(format!(
                "You are not playing in game {}; only its players can take back their orders.",
                row.id
            ));
        };
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let (log, replay) = self.replayed(row).await?;
            let counting = replay.counting();
            let nothing = || {
                user_err(format!(
                    "You have no order to take back in game {}: only your own last order, while it is still your turn.",
                    row.id
                ))
            };
            let Some((last, _)) = counting.last() else {
                return nothing();
            };
            let Some(batch) = log.iter().find(|e| e.seq == *last).and_then(|e| e.batch) else {
                return nothing();
            };
            if batch == 0 {
                return nothing();
            }
            let undone: Vec<&(i64, AnyEvent)> = counting.iter().filter(|(s, _)| *s > batch).collect();
            let entry = AnyEvent::Platform(PlatformEvent::RolledBack {
                to_seq: batch,
                why: Rewind::TakeBack { seat },
                undone: undone.len() as u32,
        });
        let mut rolled = replay.clone();
        rolled.push(row.seq + 1, &entry).map_err(anyhow::Error::from)?;
        let restored = rolled.into_state();
        // The last action was this seat's own order: before it, the game
        // waited on this seat alone, openly; and it still does now.
        let own_turn = |pending: &[orrery_engine::Pending]| {
            pending.iter().any(|p| p.seat == seat && !p.secret) && pending.iter().all(|p| p.seat == seat || p.submitted)
        };
        let before = restored.pending();
        if !own_turn(&before) || !own_turn(&replay.state().pending()) {
            return nothing();
        }
        if undone.iter().any(|(_, e)| !e.takes_back()) {
            return user_err(format!(
                "Your last order in game {} can't be taken back: it revealed something hidden or drew something random (dice, cards). Ask the host if it was a slip.",
                row.id
            ));
        }
        let names = seats.names();
        let undone_text: Vec<String> = undone
            .iter()
            .filter_map(|(_, e)| e.narrate(Viewer::Public, &names))
            .collect();
        let mut adv = Advance::new(replay.state(), row.seq);
        adv.push_rewind(entry, restored);
        let notes = if undone_text.is_empty() {
            vec![]
        } else {
            vec![Text::plain(format!("Taken back: {}", undone_text.join(" ")))]
        };
        let reply = Reply::private(format!(
            "Taken back: game {} is as it was before your last order.",
            row.id
        ));
        let moved = Moved::new(adv, seats.clone(), compose::Cause::TakeBack { seat }, DeadlineChange::Keep).notes(notes);
        Ok(Changed::moved(moved, reply))
        })
        .await
    }
}
