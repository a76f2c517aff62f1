//! A player's own view across games and their own preferences: `/mygames`
//! (every open game they play in, what it waits on, the deadline) and
//! `/game reminders` (their own reminder points, or muted).

use super::change::{Changed, Load};
use super::roster::Roster;
use super::scheduling::Reminded;
use super::settings::{check_points, format_duration, points_text};
use super::{compose, user_err, Actor, GameId, Reply, Service, ServiceError, Settings, Text};
use orrery_store::{Commit, DeadlineChange, GameStatus, SeatChange};

/// One game of `/mygames`, before sorting.
struct Entry {
    /// The game waits on the asker.
    on_me: bool,
    /// When the deadline falls (`None`: paused, none, or a lobby).
    due: Option<i64>,
    id: GameId,
    text: Text,
}

impl Service {
    /// `/mygames`: every open game the actor plays in (not seats they were
    /// removed from), games waiting on them first, then by deadline.
    pub(super) async fn my_games(&self, actor: &Actor) -> Result<Reply, ServiceError> {
        let mut entries = Vec::new();
        for row in self.store.games_of_user(actor.user).await? {
            if !row.status.is_open() {
                continue;
            }
            let seats = self.store.seats(row.id).await?;
            let Some(me) = seats.iter().find(|s| s.played_by(actor.user)) else {
                continue;
            };
            let names = seats.names();
            let mut text = Text::new()
                .strong(row.kind.name())
                .then(format!(" game {} in ", row.id))
                .channel(row.channel_id)
                .then(format!(" · you play as {}", me.name));
            if me.disorder {
                text.push_str(" (in civil disorder: your decisions are made by default)");
            }
            let (mut on_me, mut due) = (false, None);
            if let Some(entry) = row.damaged {
                text.push_str(&format!(" · {}\n", crate::damaged_text(row.id, entry)));
                entries.push(Entry {
                    on_me,
                    due,
                    id: row.id,
                    text,
                });
                continue;
            }
            match (&row.status, &row.state) {
                (GameStatus::Active, Some(state)) => {
                    text.push_str(&format!(
                        " · Phase {} · {}\n",
                        state.phase().number,
                        state.phase().title(&names)
                    ));
                    let pending = state.pending();
                    match pending.iter().find(|p| p.seat == me.seat && !p.submitted) {
                        Some(p) => {
                            on_me = true;
                            text.append(
                                Text::plain("  ▶ ")
                                    .strong("Waiting on you")
                                    .then(format!(": {}", p.prompt)),
                            );
                            let drafts = self.store.drafts(row.id).await?;
                            if let Some(d) = drafts.iter().find(|d| d.seat == me.seat && d.seq == row.seq) {
                                text.push_str(&format!(
                                    " (your draft: `{}`, {})",
                                    d.line,
                                    if d.ready {
                                        "marked ready"
                                    } else {
                                        "not ready: `/sheet ready`"
                                    }
                                ));
                            }
                            text.push('\n');
                        }
                        None => text.push_str(&format!(
                            "  Waiting on: {}\n",
                            compose::waiting_line(state.kind(), &pending, &names)
                        )),
                    }
                    match self.store.deadline(row.id).await? {
                        Some(d) => match d.paused_remaining {
                            Some(left) => text.push_str(&format!(
                                "  Deadline: paused, {} left when resumed",
                                format_duration(left)
                            )),
                            None => {
                                due = Some(d.due_at);
                                text.append(Text::plain("  Deadline: ").time(d.due_at));
                            }
                        },
                        None => text.push_str("  Deadline: none (waiting for the host)"),
                    }
                }
                _ => {
                    let start = if row.host == actor.user {
                        "start it with `/game start` when everyone is in"
                    } else {
                        "waiting for the host to start it"
                    };
                    text.push_str(&format!(" · lobby, {} seated: {start}", seats.len()));
                }
            }
            entries.push(Entry {
                on_me,
                due,
                id: row.id,
                text,
            });
        }
        if entries.is_empty() {
            return Ok(Reply::private(
                "You are not playing in any open game. Open one with `/game new`, or join one in its channel with `/game join`.",
            ));
        }
        entries.sort_by_key(|e| (!e.on_me, e.due.is_none(), e.due, e.id));
        let waiting = entries.iter().filter(|e| e.on_me).count();
        let text = Text::new()
            .strong("Your games")
            .then(format!(" ({} open, {waiting} waiting on you)\n", entries.len()))
            .and(Text::join(entries.into_iter().map(|e| e.text), "\n"));
        Ok(Reply::private(text))
    }

    /// `/game reminders`: a seated player shows, mutes, unmutes (back to
    /// the game's points) or sets their own reminder points. Points that
    /// have already passed for the running deadline are skipped for it.
    pub(super) async fn reminders(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        mute: Option<bool>,
        points: Option<Vec<i64>>,
    ) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(actor.user)) else {
            return user_err(format!(
                "You are not playing in game {}; reminders are for its players.",
                row.id
            ));
        };
        if !row.status.is_open() {
            return user_err(format!("Game {} is over.", row.id));
        }
        let settings = Settings::of(&row);
        let describe = |own: &Option<Vec<i64>>| match own {
            None => format!(
                "the game's: {} before the deadline",
                points_text(&settings.reminders_ms)
            ),
            Some(p) if p.is_empty() => "muted".to_string(),
            Some(p) => format!("your own: {} before the deadline", points_text(p)),
        };
        let new: Option<Vec<i64>> = match (mute, points) {
            (None, None) => {
                return Ok(Reply::private(format!(
                    "Your reminders in game {}: {}. Change them with `mute` or `points` (e.g. `12h,1h`).",
                    row.id,
                    describe(&me.reminders)
                )))
            }
            (Some(true), Some(_)) => {
                return user_err("Either mute your reminders or set your own points, not both.");
            }
            (Some(true), None) => Some(vec![]),
            (Some(false), None) => None,
            (_, Some(p)) => Some(check_points(p)?),
        };
        // Points already behind us for the running deadline are not sent
        // late: mark them sent for this seat, in the same commit (only if
        // the deadline is still the one read; if the scheduler got there
        // first, read it again).
        let mut tries = 0;
        loop {
            let written = self
                .change(Load::Game(row.id), async |held| {
                    let now = self.now_ms();
                    let mut commit = Commit::any_seq(row.id, now).with_seat(SeatChange {
                        reminders: Some(new.clone()),
                        ..SeatChange::new(me.seat)
                    });
                    commit.status = held.row.status;
                    if let Some(d) = &held.row.deadline {
                        let mut sent = Reminded::parse(&d.reminded);
                        let points = new.as_deref().unwrap_or(settings.reminders_ms.as_slice());
                        // Time left: on the clock, or kept while the game is paused.
                        let left = d.paused_remaining.unwrap_or(d.due_at - now);
                        for &r in points.iter().filter(|&&r| r >= left) {
                            sent.mark(me.seat, r);
                        }
                        let marked = sent.to_value();
                        if marked != d.reminded {
                            commit = commit
                                .if_deadline(Some(d.clone()))
                                .with_deadline(DeadlineChange::Reminded(marked));
                        }
                    }
                    Ok(Changed::commit(commit, vec![], ()))
                })
                .await;
            match written {
                Ok(()) => break,
                Err(ServiceError::Busy(_)) if tries < 3 => tries += 1,
                Err(e) => return Err(e),
            }
        }
        Ok(Reply::private(format!(
            "Game {}: your reminders are now {}.",
            row.id,
            describe(&new)
        )))
    }
}
