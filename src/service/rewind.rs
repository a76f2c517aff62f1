//! Undo and roll back: a new log entry ([`PlatformEvent::RolledBack`]);
//! nothing is deleted, and the restored position is the earlier one
//! exactly (the same board, the same dice to come).

use super::advance::Advance;
use super::seats::{autoplay, autoplay_line};
use super::settings::Settings;
use super::{compose, user_err, Actor, OutMessage, Reply, Service, ServiceError, Target, Text};
use crate::engine::{GameId, Viewer};
use crate::games::{AnyEvent, PlatformEvent, Replay, Rewind};
use crate::store::{Commit, DeadlineChange, GameRow, LogEntry};

/// Fold a game's log, platform entries included.
pub(super) fn replay_log(row: &GameRow, log: &[LogEntry]) -> Result<Replay, ServiceError> {
    let mut r = Replay::new(row.kind);
    for e in log {
        r.push(e.seq, &e.event).map_err(anyhow::Error::from)?;
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
    /// Host: undo the last action, or roll back to the start of a phase.
    /// Writes one new log entry; nothing is deleted. The restored position
    /// is the earlier one exactly (the same board, the same dice to come),
    /// and the phase gets a fresh deadline.
    pub(super) async fn rewind(&self, actor: &Actor, game: Option<GameId>, why: Rewind) -> Result<Reply, ServiceError> {
        let what = match why {
            Rewind::Undo => "undo",
            Rewind::Phase { .. } => "roll the game back",
        };
        let (_guard, row) = self.hosted_in_play(actor, game, what).await?;
        let log = self.store.log(row.id).await?;
        let replay = replay_log(&row, &log)?;
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
            Rewind::Phase { phase } => {
                let current = replay.state().phase().number;
                match phase_start(&row, counting, *phase)? {
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
        let names = Self::names(&seats);
        let undone_text: Vec<String> = undone
            .iter()
            .filter_map(|(_, e)| e.narrate(Viewer::Public, &names))
            .collect();
        let mut rolled = replay.clone();
        rolled.push(row.seq + 1, &entry).map_err(anyhow::Error::from)?;
        let restored = rolled.into_state();
        // Seats in civil disorder play what they owe in the restored position.
        let settings = Settings::of(&row);
        let mut adv = Advance::new(&restored, row.seq + 1);
        let played = autoplay(&mut adv, &seats, !settings.auto_resolve);
        let mut text = entry.narrate(Viewer::Public, &names).unwrap_or_default();
        if !undone_text.is_empty() {
            text.push_str("\nSet aside:\n");
            text.push_str(&undone_text.join("\n"));
        }
        if let Some(line) = autoplay_line(&played, &seats) {
            text.push('\n');
            text.push_str(&line);
        }
        let new_seq = adv.seq();
        let after = &adv.state;
        let finished = after.outcome().is_some();
        let mut out = vec![
            OutMessage::to_channel(row.channel_id, text),
            OutMessage {
                target: Target::Channel(row.channel_id),
                text: Text::new().strong(row.kind.name()).then(format!(
                    " game {} · {}\nWaiting on: {}",
                    row.id,
                    after.phase().label,
                    compose::waiting_line(&after.pending(), &names)
                )),
                board: Some(super::BoardRef {
                    game: row.id,
                    viewer: Viewer::Public,
                    seq: new_seq,
                }),
                choices: vec![],
                game_over: false,
                footer: None,
                slot: None,
                op: Default::default(),
                pings: Vec::new(),
            },
        ];
        for p in after.pending().iter().filter(|p| !p.submitted) {
            if let Some(s) = seats.iter().find(|s| s.seat == p.seat && !s.automatic()) {
                out.push(compose::prompt(&row, after, p, s));
            }
        }
        let deadline = match finished {
            false => DeadlineChange::Set(self.deadline_for(&settings, after)),
            true => DeadlineChange::Keep,
        };
        let label = after.phase().label;
        let mut events = vec![entry];
        events.extend(adv.events);
        let commit = Commit::new(row.id, row.seq, self.now_ms())
            .with_events(events, adv.state)
            .with_deadline(deadline);
        self.commit(commit, &out).await?;
        Ok(Reply::private(format!(
            "Game {} is back at {label} ({} log entries set aside; the log keeps them).",
            row.id,
            undone.len()
        )))
    }
}
