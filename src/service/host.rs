//! Host tools over seats and the log, and the read-only views anyone has:
//! replace, kick and civil disorder; undo and roll back (new log entries,
//! nothing deleted); spectators; the current phase's log.
//!
//! Civil disorder: a seat in disorder (or vacant after a kick) has its
//! decisions made by the ruleset's defaults as soon as it owes them, in the
//! same append as the action that made it owe them. When every seat is
//! automatic nothing is played on its own: the deadline's defaults (or the
//! host) move the game on, one phase at a time.

use super::advance::Advance;
use super::{
    compose, user_err, Actor, GameId, OutMessage, Place, Reply, Service, ServiceError, Settings, Target, Text,
};
use crate::engine::{CommandLine, Seat, UserId, Viewer};
use crate::games::{AnyEvent, AnyState, PlatformEvent, Replay, Rewind};
use crate::store::{Commit, DeadlineChange, GameRow, GameStatus, LogEntry, SeatChange, SeatRow};

/// At most this many default decisions are played for automatic seats in
/// one go (a safety net; a phase needs far fewer).
const AUTOPLAY_LIMIT: usize = 1000;

/// Play the defaults of automatic seats (civil disorder, vacant) that owe
/// a decision, until none does, adding their events to `adv`. Returns what
/// was played for whom (`secret`: the choice was hidden). Nothing is
/// played when no seat is played by a person.
///
/// `drafting` (the game's auto-resolve is off): an automatic seat's secret
/// choice waits while a player still owes theirs in the same step (they
/// are drafting: submitting now would resolve the step under them); it is
/// played once every player is in (their drafts submitted), or at the
/// deadline.
pub(super) fn autoplay(adv: &mut Advance, seats: &[SeatRow], drafting: bool) -> Vec<(Seat, CommandLine, bool)> {
    let mut played = Vec::new();
    if seats.iter().all(SeatRow::automatic) {
        return played;
    }
    let automatic = |seat: Seat| seats.iter().any(|s| s.seat == seat && s.automatic());
    for _ in 0..AUTOPLAY_LIMIT {
        if adv.state.outcome().is_some() {
            break;
        }
        let pending = adv.state.pending();
        let players_drafting = drafting && pending.iter().any(|q| q.secret && !q.submitted && !automatic(q.seat));
        let next = pending
            .into_iter()
            .filter(|p| !p.submitted && automatic(p.seat) && !(p.secret && players_drafting))
            .find_map(|p| adv.state.default_command(p.seat).map(|c| (p, c)));
        let Some((p, cmd)) = next else { break };
        match adv.play(p.seat, &cmd) {
            Ok(()) => played.push((p.seat, cmd, p.secret)),
            Err(e) => {
                tracing::warn!(seat = %p.seat, "civil-disorder default refused: {e}");
                break;
            }
        }
    }
    played
}

/// One public line about what was played for automatic seats.
pub(super) fn autoplay_line(played: &[(Seat, CommandLine, bool)], seats: &[SeatRow]) -> Option<String> {
    if played.is_empty() {
        return None;
    }
    let parts: Vec<String> = played
        .iter()
        .map(|(seat, cmd, secret)| {
            let name = seats
                .iter()
                .find(|s| s.seat == *seat)
                .map_or_else(|| seat.to_string(), |s| s.name.clone());
            if *secret {
                format!("{name}: a secret choice")
            } else {
                format!("{name}: `{cmd}`")
            }
        })
        .collect();
    Some(format!("🤖 Civil disorder, defaults played — {}.", parts.join("; ")))
}

impl Service {
    /// The seat a host tool names, checked to exist.
    fn seat_row<'a>(row: &GameRow, seats: &'a [SeatRow], seat: Seat) -> Result<&'a SeatRow, ServiceError> {
        seats.iter().find(|s| s.seat == seat).ok_or_else(|| {
            ServiceError::User(format!("Game {} has no {seat}; its seats are 1 to {}.", row.id, seats.len()).into())
        })
    }

    /// Host: a new player takes a seat and gets its private view by DM.
    pub(super) async fn replace(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        seat: Seat,
        user: UserId,
        name: String,
    ) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "replace a player").await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        Self::active(&row)?;
        let seats = self.store.seats(row.id).await?;
        let old = Self::seat_row(&row, &seats, seat)?.clone();
        if let Some(other) = seats.iter().find(|s| s.user == user && s.seat != seat) {
            return user_err(format!(
                "{name} already has {} in game {}; a player can't hold two seats.",
                other.seat, row.id
            ));
        }
        if old.played_by(user) {
            return user_err(format!("{name} already plays {seat} in game {}.", row.id));
        }
        let state = self.state_of(&row)?;
        let mut new_seats = seats.clone();
        if let Some(s) = new_seats.iter_mut().find(|s| s.seat == seat) {
            s.user = user;
            s.name = name.clone();
            s.vacant = false;
            s.disorder = false;
            s.reminders = None;
        }
        let was = if old.vacant {
            format!("{seat} (vacant, was {})", old.name)
        } else {
            format!("{seat} ({})", old.name)
        };
        let mut out = vec![OutMessage {
            target: Target::Channel(row.channel_id),
            text: format!("🔁 The host gave {was} in game {} to {name}.", row.id).into(),
            board: None,
            choices: vec![],
            game_over: false,
        }];
        if !old.vacant {
            out.push(OutMessage {
                target: Target::Dm(old.user),
                text: format!("The host gave your seat in game {} to {name}.", row.id).into(),
                board: None,
                choices: vec![],
                game_over: false,
            });
        }
        // The new player's private view of the game as it stands, and what
        // they owe now.
        out.push(OutMessage {
            target: Target::Dm(user),
            text: Text::plain(format!("You now play {seat} in "))
                .strong(row.kind.name())
                .then(format!(" game {} (", row.id))
                .channel(row.channel_id)
                .then(format!("). This is your view of the board · {}", state.phase().label)),
            board: Some(super::BoardRef {
                game: row.id,
                viewer: Viewer::Seat(seat),
                seq: row.seq,
            }),
            choices: vec![],
            game_over: false,
        });
        let new_row = new_seats.iter().find(|s| s.seat == seat).expect("seat exists");
        for p in state.pending().iter().filter(|p| p.seat == seat && !p.submitted) {
            out.push(compose::prompt(&row, &state, p, new_row));
        }
        let change = SeatChange {
            player: Some((user, name.clone())),
            disorder: Some(false),
            vacant: Some(false),
            ..SeatChange::new(seat)
        };
        self.commit(Commit::new(row.id, row.seq, self.now_ms()).with_seat(change), &out)
            .await?;
        Ok(Reply::private(format!("{name} now plays {seat} in game {}.", row.id)))
    }

    /// Host: remove a player. In the lobby the seat goes; in play it stays,
    /// vacant and in civil disorder, until the host replaces the player.
    pub(super) async fn kick(&self, actor: &Actor, game: Option<GameId>, seat: Seat) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "kick a player").await?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let seats = self.store.seats(row.id).await?;
        let target = Self::seat_row(&row, &seats, seat)?.clone();
        if target.user == row.host && !target.vacant {
            return user_err("The host can't kick themselves; to end the game for everyone, ask the players.");
        }
        match row.status {
            GameStatus::Lobby => {
                self.store.remove_seat(row.id, target.user).await?;
                return Ok(Reply::public(format!(
                    "The host removed {} from game {}.",
                    target.name, row.id
                )));
            }
            GameStatus::Active => {}
            _ => return user_err(format!("Game {} is over.", row.id)),
        }
        if target.vacant {
            return user_err(format!("{seat} of game {} is already vacant.", row.id));
        }
        let state = self.state_of(&row)?;
        let mut new_seats = seats.clone();
        if let Some(s) = new_seats.iter_mut().find(|s| s.seat == seat) {
            s.vacant = true;
            s.disorder = true;
        }
        let mut notes = vec![format!(
            "🚪 The host removed {} from game {}: {seat} is vacant and in civil disorder (defaults every phase) until the host replaces the player with `/game replace`.",
            target.name, row.id
        )];
        let extra = vec![OutMessage {
            target: Target::Dm(target.user),
            text: format!("The host removed you from game {}.", row.id).into(),
            board: None,
            choices: vec![],
            game_over: false,
        }];
        let change = SeatChange {
            vacant: Some(true),
            disorder: Some(true),
            ..SeatChange::new(seat)
        };
        self.play_automatic(&row, &state, &new_seats, change, &mut notes, extra)
            .await?;
        Ok(Reply::private(notes.join("\n")))
    }

    /// Host: put a seat in civil disorder (its defaults are played at once,
    /// every phase) or take it out.
    pub(super) async fn disorder(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        seat: Seat,
        on: bool,
    ) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "set civil disorder").await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        Self::active(&row)?;
        let seats = self.store.seats(row.id).await?;
        let target = Self::seat_row(&row, &seats, seat)?.clone();
        if target.vacant && !on {
            return user_err(format!(
                "{seat} of game {} has no player; give it one with `/game replace` instead.",
                row.id
            ));
        }
        if target.disorder == on {
            return user_err(format!(
                "{seat} ({}) of game {} is {} in civil disorder.",
                target.name,
                row.id,
                if on { "already" } else { "not" }
            ));
        }
        let state = self.state_of(&row)?;
        let mut new_seats = seats.clone();
        if let Some(s) = new_seats.iter_mut().find(|s| s.seat == seat) {
            s.disorder = on;
        }
        let mut notes = vec![if on {
            format!(
                "🤖 The host put {seat} ({}) of game {} in civil disorder: its defaults are played every phase.",
                target.name, row.id
            )
        } else {
            format!(
                "The host took {seat} ({}) of game {} out of civil disorder: {} plays again.",
                target.name, row.id, target.name
            )
        }];
        let change = SeatChange {
            disorder: Some(on),
            ..SeatChange::new(seat)
        };
        self.play_automatic(&row, &state, &new_seats, change, &mut notes, vec![])
            .await?;
        Ok(Reply::private(notes.join("\n")))
    }

    /// Write a seat change, playing what automatic seats owe now, with the
    /// notes and the usual announcements.
    async fn play_automatic(
        &self,
        row: &GameRow,
        state: &AnyState,
        seats: &[SeatRow],
        change: SeatChange,
        notes: &mut Vec<String>,
        extra: Vec<OutMessage>,
    ) -> Result<(), ServiceError> {
        let settings = Settings::of(row);
        let drafting = !settings.auto_resolve;
        let mut adv = Advance::new(state, row.seq);
        let played = autoplay(&mut adv, seats, drafting);
        let composed = compose::after_action(row, seats, &adv, false);
        if let Some(line) = autoplay_line(&played, seats) {
            notes.push(line);
        }
        let mut out = vec![OutMessage {
            target: Target::Channel(row.channel_id),
            text: notes.join("\n").into(),
            board: None,
            choices: vec![],
            game_over: false,
        }];
        out.extend(extra);
        out.extend(composed);
        let deadline = self.next_deadline(&settings, &adv.before, &adv.state);
        let commit = Commit::new(row.id, row.seq, self.now_ms())
            .with_seat(change)
            .with_events(adv.events, adv.state)
            .with_deadline(deadline.map_or(DeadlineChange::Keep, DeadlineChange::Set));
        self.commit(commit, &out).await?;
        if drafting {
            // The seat that just became automatic may have been the last
            // one the drafts were waiting for.
            self.submit_drafts_if_all_ready(row.id).await?;
        }
        Ok(())
    }

    /// Host: undo the last action, or roll back to the start of a phase.
    /// Writes one new log entry; nothing is deleted. The restored position
    /// is the earlier one exactly (the same board, the same dice to come),
    /// and the phase gets a fresh deadline.
    pub(super) async fn rewind(&self, actor: &Actor, game: Option<GameId>, why: Rewind) -> Result<Reply, ServiceError> {
        let what = match why {
            Rewind::Undo => "undo",
            Rewind::Phase { .. } => "roll the game back",
        };
        let row = self.hosted(actor, game, what).await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        Self::active(&row)?;
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
            OutMessage {
                target: Target::Channel(row.channel_id),
                text: text.into(),
                board: None,
                choices: vec![],
                game_over: false,
            },
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

    /// Follow a game as a spectator: its public board after every phase,
    /// by DM. Never a private view.
    pub(super) async fn watch(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        if seats.iter().any(|s| s.played_by(actor.user)) {
            return user_err(format!("You play in game {}; players already get every board.", row.id));
        }
        if !row.status.is_open() {
            return user_err(format!(
                "Game {} is over; `/game history` shows any of its boards.",
                row.id
            ));
        }
        if !self.store.watch(row.id, actor.user, self.now_ms()).await? {
            return user_err(format!("You are already watching game {}.", row.id));
        }
        Ok(Reply::private(
            Text::plain("You are watching ").strong(row.kind.name()).then(format!(
                " game {}: I'll DM you the public board after every phase. `/game unwatch` stops it.",
                row.id
            )),
        ))
    }

    pub(super) async fn unwatch(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        if !self.store.unwatch(row.id, actor.user).await? {
            return user_err(format!("You are not watching game {}.", row.id));
        }
        Ok(Reply::private(format!("You stopped watching game {}.", row.id)))
    }

    /// The public log of the current phase, in sentences.
    pub(super) async fn phase_log(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        if row.state.is_none() {
            return user_err(format!("Game {} hasn't started yet, so it has no log.", row.id));
        }
        let seats = self.store.seats(row.id).await?;
        let names = Self::names(&seats);
        let log = self.store.log(row.id).await?;
        let replay = replay_log(&row, &log)?;
        let state = replay.state();
        let phase = state.phase().number;
        let start = phase_start(&row, replay.counting(), phase)?.unwrap_or(0);
        // The entry that began the phase, everything after it that counts,
        // and any roll-back since (in log order).
        let counting: std::collections::HashSet<i64> = replay.counting().iter().map(|(s, _)| *s).collect();
        let lines: Vec<String> = log
            .iter()
            .filter(|e| e.seq >= start && (counting.contains(&e.seq) || matches!(e.event, AnyEvent::Platform(_))))
            .filter_map(|e| e.event.narrate(Viewer::Public, &names))
            .map(|l| format!("• {l}"))
            .collect();
        let head =
            Text::new()
                .strong(row.kind.name())
                .then(format!(" game {} · log of {}", row.id, state.phase().label));
        let body = if lines.is_empty() {
            "Nothing has happened in this phase yet.".to_string()
        } else {
            tail(&lines, LOG_LINES)
        };
        Ok(Reply::private(head.then(format!("\n{body}"))))
    }

    /// An active game's state, or an internal error.
    pub(super) fn state_of(&self, row: &GameRow) -> Result<AnyState, ServiceError> {
        row.state
            .clone()
            .ok_or_else(|| anyhow::anyhow!("active game {} has no state", row.id).into())
    }

    /// Whether a DM request may read a game: its players and spectators.
    pub(super) async fn may_read_in_dm(&self, actor: &Actor, row: &GameRow) -> Result<bool, ServiceError> {
        if actor.place != Place::Dm {
            return Ok(true);
        }
        let seats = self.store.seats(row.id).await?;
        if seats.iter().any(|s| s.played_by(actor.user)) {
            return Ok(true);
        }
        Ok(self.store.watchers(row.id).await?.contains(&actor.user))
    }
}

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
fn rest_point(log: &[LogEntry], counting: &[(i64, AnyEvent)], seq: i64) -> i64 {
    let batch_of = |s: i64| log.iter().find(|e| e.seq == s).and_then(|e| e.batch);
    let Some(batch) = batch_of(seq) else { return seq };
    counting
        .iter()
        .map(|(s, _)| *s)
        .filter(|&s| s >= seq && batch_of(s) == Some(batch))
        .max()
        .unwrap_or(seq)
}

/// The last lines that fit in `max` characters, with a note of how many
/// earlier ones were left out.
/// The phase log shows at most this many entries (the latest).
const LOG_LINES: usize = 20;

/// The last `max` lines, saying how many earlier ones were left out.
fn tail(lines: &[String], max: usize) -> String {
    let kept = &lines[lines.len().saturating_sub(max)..];
    let skipped = lines.len() - kept.len();
    let mut text = String::new();
    if skipped > 0 {
        text.push_str(&format!("… ({skipped} earlier entries)\n"));
    }
    text.push_str(&kept.join("\n"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_lines() {
        let lines: Vec<String> = (0..100).map(|i| format!("line {i}")).collect();
        let t = tail(&lines, 20);
        assert!(t.ends_with("line 99"));
        assert!(t.starts_with("… (80 earlier entries)\nline 80\n"), "{t}");
        assert_eq!(t.lines().count(), 21);
        assert_eq!(tail(&lines[..2], 20), "line 0\nline 1");
    }
}
