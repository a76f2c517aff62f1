//! The host's clock and settings tools: pause, resume, extend and force a
//! game's deadline; change its settings.

use super::change::{Changed, Load, Then};
use super::scheduling::Reminded;
use super::settings::{
    check_points, format_duration, settings_line, Settings, SettingsChange, ALL_KINDS, MAX_DEADLINE_MS, MIN_DEADLINE_MS,
};
use super::{user_err, Actor, OutMessage, Reply, Service, ServiceError, Text};
use orrery_engine::GameId;
use orrery_store::{Commit, DeadlineChange, DeadlineSet, GameRow, GameStatus};

impl Service {
    /// The game, checked to be the actor's to run.
    pub(super) async fn hosted(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        what: &str,
    ) -> Result<GameRow, ServiceError> {
        let row = self.resolve(actor, game).await?;
        if row.host != actor.user {
            return user_err(format!("Only the host of game {} can {what}.", row.id));
        }
        Ok(row)
    }

    /// The game, checked to be the actor's to run and in play (checked
    /// again under the lock by the change).
    pub(super) async fn hosted_in_play(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        what: &str,
    ) -> Result<GameRow, ServiceError> {
        let row = self.hosted(actor, game, what).await?;
        Self::active(&row)?;
        Ok(row)
    }

    pub(super) fn active(row: &GameRow) -> Result<(), ServiceError> {
        match row.status {
            GameStatus::Active => Ok(()),
            GameStatus::Lobby => user_err(format!("Game {} hasn't started yet.", row.id)),
            _ => user_err(format!("Game {} is over.", row.id)),
        }
    }

    pub(super) fn notice(row: &GameRow, text: impl Into<Text>) -> [OutMessage; 1] {
        [OutMessage::to_channel(row.channel_id, text)]
    }

    /// A host's notice about the clock, and the edits that keep the phase
    /// post and the prompts saying the right time.
    async fn clock_notice(
        &self,
        row: &GameRow,
        text: Text,
        due: super::compose::Due,
    ) -> Result<Vec<OutMessage>, ServiceError> {
        let mut out = vec![OutMessage::to_channel(row.channel_id, text)];
        if let Some(state) = &row.state {
            let seats = self.store.seats(row.id).await?;
            out.extend(super::compose::deadline_moved(row, &seats, state, due));
        }
        Ok(out)
    }

    pub(super) async fn pause(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted_in_play(actor, game, "pause it").await?;
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let mut s = Settings::of(row);
            if s.paused {
                return user_err(format!("Game {} is already paused.", row.id));
            }
            s.paused = true;
            let now = self.now_ms();
            let d = self.store.deadline(row.id).await?;
            let left = d.as_ref().map(|d| (d.due_at - now).max(0));
            let update = d.as_ref().map_or(DeadlineChange::Keep, |d| {
                DeadlineChange::Update(
                    DeadlineSet {
                        phase: d.phase,
                        due_at: d.due_at,
                        paused_remaining: Some((d.due_at - now).max(0)),
                    },
                    d.reminded.clone(),
                )
            });
            let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
            let text = format!("⏸ The host paused game {}: the deadline clock is stopped.", row.id);
            let due = match left {
                Some(ms) => super::compose::Due::Paused(ms),
                None => super::compose::Due::Open,
            };
            let out = self.clock_notice(row, text.into(), due).await?;
            let commit = Commit::any_seq(row.id, now)
                .with_settings(v)
                .if_deadline(d)
                .with_deadline(update);
            let reply = Reply::private(match left {
                Some(ms) => format!("Game {} paused with {} left.", row.id, format_duration(ms)),
                None => format!("Game {} paused.", row.id),
            });
            Ok(Changed::commit(commit, out, reply))
        })
        .await
    }

    pub(super) async fn resume(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted_in_play(actor, game, "resume it").await?;
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let mut s = Settings::of(row);
            if !s.paused {
                return user_err(format!("Game {} is not paused.", row.id));
            }
            s.paused = false;
            let now = self.now_ms();
            let d = self.store.deadline(row.id).await?;
            let update = d.as_ref().map(|d| {
                let due_at = d.paused_remaining.map_or(d.due_at, |left| now + left);
                DeadlineSet {
                    phase: d.phase,
                    due_at,
                    paused_remaining: None,
                }
            });
            let due = update.as_ref().map(|d| d.due_at);
            let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
            let text = match due {
                Some(due) => Text::plain(format!("▶ The host resumed game {}. Deadline ", row.id))
                    .time(due)
                    .then("."),
                None => Text::plain(format!("▶ The host resumed game {}.", row.id)),
            };
            let change = match (&update, &d) {
                (Some(set), Some(d)) => DeadlineChange::Update(*set, d.reminded.clone()),
                _ => DeadlineChange::Keep,
            };
            let out = self
                .clock_notice(
                    row,
                    text,
                    due.map_or(super::compose::Due::Open, super::compose::Due::At),
                )
                .await?;
            let commit = Commit::any_seq(row.id, now)
                .with_settings(v)
                .if_deadline(d)
                .with_deadline(change);
            let reply = Reply::private(format!("Game {} resumed; the channel was told.", row.id));
            Ok(Changed::commit(commit, out, reply))
        })
        .await
    }

    pub(super) async fn extend(&self, actor: &Actor, game: Option<GameId>, by_ms: i64) -> Result<Reply, ServiceError> {
        let row = self.hosted_in_play(actor, game, "extend its deadline").await?;
        if by_ms <= 0 || by_ms > MAX_DEADLINE_MS {
            return user_err(format!(
                "Extend by a positive duration of at most {}.",
                format_duration(MAX_DEADLINE_MS)
            ));
        }
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let s = Settings::of(row);
            let now = self.now_ms();
            let state = row
                .state
                .as_ref()
                .ok_or_else(|| anyhow::anyhow!("active game without state"))?;
            let phase = i64::from(state.phase().number);
            let read = self.store.deadline(row.id).await?;
            let (set, reminded) = match &read {
                Some(d) => {
                    let set = match d.paused_remaining {
                        Some(left) => DeadlineSet {
                            phase: d.phase,
                            due_at: d.due_at + by_ms,
                            paused_remaining: Some(left + by_ms),
                        },
                        None => DeadlineSet {
                            phase: d.phase,
                            due_at: d.due_at.max(now) + by_ms,
                            paused_remaining: None,
                        },
                    };
                    // Reminders whose points lie in the future again re-arm.
                    let mut sent = Reminded::parse(&d.reminded);
                    sent.retain(|r| set.due_at - r <= now);
                    (set, sent.to_value())
                }
                None => {
                    // No running deadline (the host was waiting): start one.
                    let set = DeadlineSet {
                        phase,
                        due_at: now + by_ms,
                        paused_remaining: s.paused.then_some(by_ms),
                    };
                    let text = Text::plain(format!("The host set a new deadline for game {}: ", row.id))
                        .time(set.due_at)
                        .then(".");
                    let due = match set.paused_remaining {
                        Some(left) => super::compose::Due::Paused(left),
                        None => super::compose::Due::At(set.due_at),
                    };
                    let out = self.clock_notice(row, text, due).await?;
                    let commit = Commit::new(row.id, row.seq, now)
                        .if_deadline(None)
                        .with_deadline(DeadlineChange::Set(set));
                    let reply = Reply::private(format!("Game {} has a new deadline; the channel was told.", row.id));
                    return Ok(Changed::commit(commit, out, reply));
                }
            };
            let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
            let text = if set.paused_remaining.is_some() {
                Text::plain(format!(
                    "The host extended the deadline of game {} by {} (paused, {} left).",
                    row.id,
                    format_duration(by_ms),
                    format_duration(set.paused_remaining.unwrap_or(0))
                ))
            } else {
                Text::plain(format!(
                    "The host extended the deadline of game {} by {}: now ",
                    row.id,
                    format_duration(by_ms),
                ))
                .time(set.due_at)
                .then(".")
            };
            let due = match set.paused_remaining {
                Some(left) => super::compose::Due::Paused(left),
                None => super::compose::Due::At(set.due_at),
            };
            let out = self.clock_notice(row, text, due).await?;
            let commit = Commit::any_seq(row.id, now)
                .with_settings(v)
                .if_deadline(read)
                .with_deadline(DeadlineChange::Update(set, reminded));
            let reply = Reply::private(format!("Game {}'s deadline is extended; the channel was told.", row.id));
            Ok(Changed::commit(commit, out, reply))
        })
        .await
    }

    pub(super) async fn force(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted_in_play(actor, game, "force the phase to resolve").await?;
        match self.resolve_phase(row.id, true).await? {
            Some(text) => Ok(Reply::private(text)),
            None => Err(ServiceError::Busy(row.id)),
        }
    }

    /// `/host settings`: change the game's settings (none given: show them).
    pub(super) async fn change_settings(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        change: SettingsChange,
    ) -> Result<Reply, ServiceError> {
        if change.is_empty() {
            let row = self.resolve(actor, game).await?;
            let text = self.status_lines(&row).await?;
            return Ok(Reply::private(Text::plain(format!("Game {}\n", row.id)).and(text)));
        }
        let row = self.hosted(actor, game, "change its settings").await?;
        if !row.status.is_open() {
            return user_err(format!("Game {} is over.", row.id));
        }
        let id = row.id;
        self.change(Load::Game(id), async |held| {
            let row = &held.row;
            let mut s = Settings::of(row);
            let was_drafting = !s.auto_resolve;
            if let Some(ms) = change.deadline_ms {
                if !(MIN_DEADLINE_MS..=MAX_DEADLINE_MS).contains(&ms) {
                    return user_err(format!(
                        "A phase deadline must be between {} and {}.",
                        format_duration(MIN_DEADLINE_MS),
                        format_duration(MAX_DEADLINE_MS)
                    ));
                }
                s.deadline_ms = ms;
            }
            if let Some(r) = change.reminders_ms {
                s.reminders_ms = check_points(r)?;
            }
            if let Some(m) = change.on_missed {
                s.on_missed = m;
            }
            let kinds = row.kind.decision_kinds();
            for (kind, len) in change.deadline_by_kind {
                if kind == ALL_KINDS && len.is_none() {
                    s.deadline_by_kind.clear();
                    continue;
                }
                if !kinds.contains(&kind.as_str()) {
                    return user_err(format!(
                        "`{kind}` is not a decision of {}; its decisions are: {}.",
                        row.kind.name(),
                        kinds.join(", ")
                    ));
                }
                match len {
                    Some(ms) if !(MIN_DEADLINE_MS..=MAX_DEADLINE_MS).contains(&ms) => {
                        return user_err(format!(
                            "A `{kind}` deadline must be between {} and {}.",
                            format_duration(MIN_DEADLINE_MS),
                            format_duration(MAX_DEADLINE_MS)
                        ));
                    }
                    Some(ms) => {
                        s.deadline_by_kind.insert(kind, ms);
                    }
                    None => {
                        s.deadline_by_kind.remove(&kind);
                    }
                }
            }
            if let Some(t) = change.time_of_day {
                s.time_of_day = t;
            }
            if let Some(a) = change.auto_resolve {
                s.auto_resolve = a;
            }
            if let Some(p) = change.private {
                // From the next private message on (a seat's live prompt moves
                // with its next change); seats moved on their own stay.
                s.private = p;
            }
            let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
            let now = self.now_ms();
            let notice = Self::notice(
                row,
                Text::plain(format!("The host changed the settings of game {}.\n", row.id)).and(settings_line(&s)),
            );
            let mut commit = Commit::any_seq(row.id, now).with_settings(v);
            commit.status = row.status;
            // Auto-resolve is back on: the drafts count as submitted now.
            let then = if was_drafting && s.auto_resolve {
                Then::FlushDrafts
            } else {
                Then::Done
            };
            Ok(Changed::commit(commit, notice.into(), ()).then(then))
        })
        .await?;
        let lines = self.status_lines(&self.reload(id).await?).await?;
        Ok(Reply::private(
            Text::plain(format!(
                "Settings of game {id} changed (new deadline lengths and the time of day apply from the next phase or step).\n",
            ))
            .and(lines),
        ))
    }
}
