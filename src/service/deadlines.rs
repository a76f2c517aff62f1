//! Async play across days: per-game host settings, phase deadlines,
//! reminders, the scheduler's `tick`, and the host tools (pause, resume,
//! extend, force-resolve, settings).
//!
//! Deadlines live in the `deadlines` table, one row per game, set in the
//! same transaction as the events that begin a phase. [`Service::tick`]
//! resolves due rows: each is claimed inside a transaction
//! ([`Store::claim_deadline`]: `FOR UPDATE SKIP LOCKED` on PostgreSQL,
//! `BEGIN IMMEDIATE` on SQLite), re-checked against the game's phase and
//! sequence number, and resolved through the same `decide` path as a
//! player's order. Defaults are applied only when the deadline passes (or
//! the host forces it), never earlier, whatever secret picks are pending.

use super::{compose, to_payloads, user_err, Actor, GameId, OutMessage, Reply, Service, ServiceError, Target};
use crate::engine::{CommandLine, Seat};
use crate::store::{DeadlineAfter, DeadlineSet, GameRow, GameStatus, SeatRow, StoreError};
use serde::{Deserialize, Serialize};

pub const HOUR_MS: i64 = 3_600_000;
const MINUTE_MS: i64 = 60_000;
/// Shortest and longest phase deadline a host may choose.
const MIN_DEADLINE_MS: i64 = 5 * MINUTE_MS;
const MAX_DEADLINE_MS: i64 = 8 * 7 * 24 * HOUR_MS;

/// What happens when a phase's deadline passes with seats still owing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Missed {
    /// Submit each owing seat's ruleset default.
    #[default]
    Default,
    /// Announce it and wait for the host (`/game force` or `/game extend`).
    Wait,
}

impl Missed {
    pub fn as_str(self) -> &'static str {
        match self {
            Missed::Default => "default",
            Missed::Wait => "wait",
        }
    }
    pub fn from_key(s: &str) -> Option<Missed> {
        match s.trim().to_ascii_lowercase().as_str() {
            "default" => Some(Missed::Default),
            "wait" => Some(Missed::Wait),
            _ => None,
        }
    }
}

/// A game's host settings, stored as JSON in `games.settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Length of each phase's deadline.
    pub deadline_ms: i64,
    /// Resolve as soon as every owing seat has submitted (the rulesets do
    /// this today; kept for display and for a later "ready" flag).
    pub auto_resolve: bool,
    /// Reminder points, as time before the deadline.
    pub reminders_ms: Vec<i64>,
    pub on_missed: Missed,
    /// The deadline clock is stopped.
    pub paused: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            deadline_ms: 48 * HOUR_MS,
            auto_resolve: true,
            reminders_ms: vec![24 * HOUR_MS, 2 * HOUR_MS],
            on_missed: Missed::Default,
            paused: false,
        }
    }
}

/// A host's change to the settings; `None` leaves a setting as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsChange {
    pub deadline_ms: Option<i64>,
    pub reminders_ms: Option<Vec<i64>>,
    pub on_missed: Option<Missed>,
}

impl SettingsChange {
    pub fn is_empty(&self) -> bool {
        self.deadline_ms.is_none() && self.reminders_ms.is_none() && self.on_missed.is_none()
    }
}

/// What one [`Service::tick`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// Phases whose deadline was resolved (defaults applied, or the host
    /// told to decide).
    pub resolved: usize,
    /// Reminder DMs queued.
    pub reminders: usize,
}

/// Parse a duration such as `48h`, `30m`, `2d`, `1w`, `1d12h` into
/// milliseconds.
pub fn parse_duration(text: &str) -> Result<i64, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("`{text}` is not a duration; write it like `30m`, `12h`, `2d` or `1w`.");
    if t.is_empty() {
        return Err(bad());
    }
    let mut total: i64 = 0;
    let mut num = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            num.push(c);
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        let unit = match c {
            'm' => MINUTE_MS,
            'h' => HOUR_MS,
            'd' => 24 * HOUR_MS,
            'w' => 7 * 24 * HOUR_MS,
            _ => return Err(bad()),
        };
        let n: i64 = num.parse().map_err(|_| bad())?;
        num.clear();
        total = total
            .checked_add(n.checked_mul(unit).ok_or_else(bad)?)
            .ok_or_else(bad)?;
    }
    if !num.is_empty() {
        return Err(bad());
    }
    Ok(total)
}

/// `90m` → "1h 30m", for messages.
pub fn format_duration(ms: i64) -> String {
    let mins = ms.max(0) / MINUTE_MS;
    let (d, h, m) = (mins / (24 * 60), (mins / 60) % 24, mins % 60);
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(format!("{d}d"));
    }
    if h > 0 {
        parts.push(format!("{h}h"));
    }
    if m > 0 || parts.is_empty() {
        parts.push(format!("{m}m"));
    }
    parts.join(" ")
}

/// A moment as Discord timestamps: relative and full, each in the reader's
/// own time zone.
pub fn discord_time(ms: i64) -> String {
    let s = ms.div_euclid(1000);
    format!("<t:{s}:R> (<t:{s}:f>)")
}

impl Service {
    /// A game's settings (defaults for anything unset or unreadable).
    pub async fn settings(&self, game: GameId) -> Result<Settings, ServiceError> {
        let v = self.store.game_settings(game).await?;
        Ok(serde_json::from_value(v).unwrap_or_default())
    }

    /// The deadline a phase beginning now gets.
    pub(super) fn deadline_for(&self, settings: &Settings, phase: u32) -> DeadlineSet {
        let now = self.now_ms();
        DeadlineSet {
            phase: i64::from(phase),
            due_at: now + settings.deadline_ms,
            paused_remaining: settings.paused.then_some(settings.deadline_ms),
        }
    }

    /// Lines for `/game status`: the deadline and the settings.
    pub(super) async fn status_lines(&self, row: &GameRow) -> Result<String, ServiceError> {
        let settings = self.settings(row.id).await?;
        let mut text = String::new();
        if row.status == GameStatus::Active {
            match self.store.deadline(row.id).await? {
                Some(d) => match d.paused_remaining {
                    Some(left) => text.push_str(&format!(
                        "Deadline: **paused** with {} left (the host resumes with `/game resume`).\n",
                        format_duration(left)
                    )),
                    None => text.push_str(&format!("Deadline: {}\n", discord_time(d.due_at))),
                },
                None => text.push_str("Deadline: none (waiting for the host).\n"),
            }
        }
        text.push_str(&format!(
            "Settings: deadline {} per phase · reminders {} before · missed deadline: {} · auto-resolve {}{}",
            format_duration(settings.deadline_ms),
            if settings.reminders_ms.is_empty() {
                "off".to_string()
            } else {
                settings
                    .reminders_ms
                    .iter()
                    .map(|&r| format_duration(r))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            settings.on_missed.as_str(),
            if settings.auto_resolve { "on" } else { "off" },
            if settings.paused { " · **paused**" } else { "" },
        ));
        Ok(text)
    }

    /// Resolve due deadlines and send due reminders. Called by the bot's
    /// scheduler every few seconds and once at start (overdue phases
    /// resolve at once), and by tests after moving a [`super::ManualClock`].
    /// Safe to run from several processes on one PostgreSQL database.
    pub async fn tick(&self) -> Result<TickReport, ServiceError> {
        let now = self.now_ms();
        let mut report = TickReport::default();
        for d in self.store.due_deadlines(now).await? {
            match self.resolve_phase(d.game_id, false).await {
                Ok(Some(_)) => report.resolved += 1,
                Ok(None) => {}
                Err(e) => tracing::warn!(game = %d.game_id, "deadline not resolved: {e}"),
            }
        }
        for d in self.store.all_deadlines().await? {
            if d.due_at <= now {
                continue;
            }
            match self.remind(d.game_id, now).await {
                Ok(n) => report.reminders += n,
                Err(e) => tracing::warn!(game = %d.game_id, "reminders not sent: {e}"),
            }
        }
        Ok(report)
    }

    /// Send the reminders of a game's running deadline whose points have
    /// passed and that were not sent yet. Returns how many DMs were queued.
    async fn remind(&self, game: GameId, now: i64) -> Result<usize, ServiceError> {
        let Some(d) = self.store.deadline(game).await? else {
            return Ok(0);
        };
        if d.paused_remaining.is_some() || d.due_at <= now {
            return Ok(0);
        }
        let settings = self.settings(game).await?;
        let sent: Vec<i64> = serde_json::from_value(d.reminded.clone()).unwrap_or_default();
        let crossed: Vec<i64> = settings
            .reminders_ms
            .iter()
            .copied()
            .filter(|&r| r > 0 && d.due_at - r <= now && !sent.contains(&r))
            .collect();
        if crossed.is_empty() {
            return Ok(0);
        }
        let row = self.reload(game).await?;
        let Some(state) = &row.state else { return Ok(0) };
        if i64::from(state.phase().number) != d.phase {
            return Ok(0);
        }
        let seats = self.store.seats(game).await?;
        let label = state.phase().label;
        let mut out = Vec::new();
        for p in state.pending().iter().filter(|p| !p.submitted) {
            // Automatic seats (civil disorder, vacant) get no reminders.
            let Some(s) = seats.iter().find(|s| s.seat == p.seat && !s.automatic()) else {
                continue;
            };
            out.push(OutMessage {
                target: Target::Dm(s.user),
                text: format!(
                    "Reminder: **{}** game {} ({label}) is waiting on you: {}. Deadline {}.",
                    row.kind.name(),
                    row.id,
                    p.prompt,
                    discord_time(d.due_at)
                ),
                board: None,
                choices: vec![],
            });
        }
        let mut new = sent;
        new.extend(crossed);
        new.sort_unstable();
        let old = d.reminded.clone();
        let new = serde_json::to_value(&new).map_err(anyhow::Error::from)?;
        let payloads = to_payloads(&out)?;
        if self
            .store
            .send_reminders(game, d.phase, &old, &new, &payloads, now)
            .await?
        {
            Ok(out.len())
        } else {
            Ok(0)
        }
    }

    /// Resolve a game's current phase: its deadline passed (`force` false:
    /// only if the claimed deadline is due, running and of the current
    /// phase) or the host forces it. Returns the announcement, or `None` if
    /// there was nothing to do (not due, extended, paused, resolved by
    /// another scheduler, or the game moved on meanwhile).
    pub(super) async fn resolve_phase(&self, game: GameId, force: bool) -> Result<Option<String>, ServiceError> {
        let _guard = self.lock(game).await?;
        let row = self.reload(game).await?;
        if row.status != GameStatus::Active {
            return Ok(None);
        }
        let Some(state) = row.state.clone() else {
            return Ok(None);
        };
        let seats = self.store.seats(game).await?;
        let settings = self.settings(game).await?;
        let now = self.now_ms();
        let Some(claim) = self.store.claim_deadline(game, now, force).await? else {
            return Ok(None);
        };
        if claim.seq != row.seq {
            // Someone appended between our read and the claim: next tick.
            return Ok(None);
        }
        let phase = state.phase().number;
        let names = Self::names(&seats);
        let channel = Target::Channel(row.channel_id);
        if !force && claim.deadline.as_ref().is_some_and(|d| d.phase != i64::from(phase)) {
            // A stale row (the phase moved on without a new deadline): give
            // the current phase its full time instead of cutting it short.
            let d = self.deadline_for(&settings, phase);
            claim
                .commit(&self.store, &[], &state, false, &[], now, DeadlineAfter::Set(d))
                .await
                .map_err(store_busy(game))?;
            return Ok(None);
        }
        let label = state.phase().label;
        if !force && settings.on_missed == Missed::Wait {
            let text = format!(
                "⏰ The deadline of game {} ({label}) has passed. Still waiting on: {}. The host decides: `/game force` applies the defaults, `/game extend` gives more time.",
                row.id,
                compose::waiting_line(&state.pending(), &names)
            );
            let payloads = to_payloads(&[OutMessage {
                target: channel,
                text: text.clone(),
                board: None,
                choices: vec![],
            }])?;
            claim
                .commit(&self.store, &[], &state, false, &payloads, now, DeadlineAfter::Clear)
                .await
                .map_err(store_busy(game))?;
            return Ok(Some(text));
        }

        // Apply each owing seat's default, until the phase is over or no
        // owing seat has a default.
        let mut cur = state.clone();
        let mut events = Vec::new();
        let mut applied: Vec<(Seat, CommandLine, bool)> = Vec::new();
        'outer: for _ in 0..64 {
            if cur.outcome().is_some() || cur.phase().number != phase {
                break;
            }
            let owing: Vec<_> = cur.pending().into_iter().filter(|p| !p.submitted).collect();
            let mut progressed = false;
            for p in owing {
                if !cur.pending().iter().any(|q| q.seat == p.seat && !q.submitted) {
                    continue;
                }
                let Some(cmd) = cur.default_command(p.seat) else {
                    continue;
                };
                match cur.decide(p.seat, &cmd) {
                    Ok(evs) => {
                        for e in &evs {
                            cur.apply(e).map_err(anyhow::Error::from)?;
                        }
                        events.extend(evs);
                        applied.push((p.seat, cmd, p.secret));
                        progressed = true;
                    }
                    Err(e) => tracing::warn!(game = %game, seat = %p.seat, "default order refused: {e}"),
                }
                if cur.outcome().is_some() || cur.phase().number != phase {
                    break 'outer;
                }
            }
            if !progressed {
                break;
            }
        }
        // Seats in civil disorder play what they owe in the next phase.
        let (_, auto_events, auto_played) = super::host::autoplay(&cur, &seats);
        events.extend(auto_events);
        let (after, mut outbox) = compose::after_action(&row, &seats, &state, &events, row.seq, false);
        let finished = after.outcome().is_some();
        let why = if force {
            "The host forced the phase to resolve"
        } else {
            "⏰ Deadline passed"
        };
        let mut text = format!("{why} in game {} ({label}).", row.id);
        if applied.is_empty() {
            text.push_str(" Nobody owed an order that has a default.");
        }
        for (seat, cmd, secret) in &applied {
            let name = seat_name(&seats, *seat);
            if *secret {
                text.push_str(&format!(" {name}'s secret choice was made by default."));
            } else {
                text.push_str(&format!(" {name} defaulted to `{cmd}`."));
            }
        }
        if let Some(line) = super::host::autoplay_line(&auto_played, &seats) {
            text.push(' ');
            text.push_str(&line);
        }
        let deadline = if !finished && after.phase().number != phase {
            DeadlineAfter::Set(self.deadline_for(&settings, after.phase().number))
        } else {
            if !finished {
                text.push_str(&format!(
                    " Still waiting on: {}; the host decides.",
                    compose::waiting_line(&after.pending(), &names)
                ));
            }
            DeadlineAfter::Clear
        };
        let mut head = vec![OutMessage {
            target: channel,
            text: text.clone(),
            board: None,
            choices: vec![],
        }];
        for (seat, cmd, secret) in &applied {
            if let (true, Some(s)) = (*secret, seats.iter().find(|s| s.seat == *seat)) {
                head.push(OutMessage {
                    target: Target::Dm(s.user),
                    text: format!(
                        "Game {}: the deadline passed, so your default was submitted: `{cmd}`.",
                        row.id
                    ),
                    board: None,
                    choices: vec![],
                });
            }
        }
        head.append(&mut outbox);
        let payloads = self.payloads(game, &head).await?;
        claim
            .commit(&self.store, &events, &after, finished, &payloads, now, deadline)
            .await
            .map_err(store_busy(game))?;
        Ok(Some(text))
    }

    // ---- host tools ------------------------------------------------------

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

    pub(super) fn active(row: &GameRow) -> Result<(), ServiceError> {
        match row.status {
            GameStatus::Active => Ok(()),
            GameStatus::Lobby => user_err(format!("Game {} hasn't started yet.", row.id)),
            _ => user_err(format!("Game {} is over.", row.id)),
        }
    }

    fn notice(row: &GameRow, text: String) -> Result<Vec<serde_json::Value>, ServiceError> {
        to_payloads(&[OutMessage {
            target: Target::Channel(row.channel_id),
            text,
            board: None,
            choices: vec![],
        }])
    }

    pub(super) async fn change_settings(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        change: SettingsChange,
    ) -> Result<Reply, ServiceError> {
        if change.is_empty() {
            let row = self.resolve(actor, game).await?;
            let text = self.status_lines(&row).await?;
            return Ok(Reply::private(format!("Game {}\n{text}", row.id)));
        }
        let row = self.hosted(actor, game, "change its settings").await?;
        if !row.status.is_open() {
            return user_err(format!("Game {} is over.", row.id));
        }
        let _guard = self.lock(row.id).await?;
        let mut s = self.settings(row.id).await?;
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
        if let Some(mut r) = change.reminders_ms {
            if r.iter().any(|&x| x <= 0) {
                return user_err("Reminder points must be positive durations before the deadline.");
            }
            r.sort_unstable_by(|a, b| b.cmp(a));
            r.dedup();
            s.reminders_ms = r;
        }
        if let Some(m) = change.on_missed {
            s.on_missed = m;
        }
        let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
        let now = self.now_ms();
        let payloads = Self::notice(&row, format!("The host changed the settings of game {}.", row.id))?;
        self.store.host_update(row.id, &v, None, &payloads, now).await?;
        let lines = self.status_lines(&row).await?;
        Ok(Reply::private(format!(
            "Settings of game {} changed (a new deadline length applies from the next phase).\n{lines}",
            row.id
        )))
    }

    pub(super) async fn pause(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "pause it").await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let mut s = self.settings(row.id).await?;
        if s.paused {
            return user_err(format!("Game {} is already paused.", row.id));
        }
        s.paused = true;
        let now = self.now_ms();
        let d = self.store.deadline(row.id).await?;
        let left = d.as_ref().map(|d| (d.due_at - now).max(0));
        let update = d.as_ref().map(|d| {
            (
                DeadlineSet {
                    phase: d.phase,
                    due_at: d.due_at,
                    paused_remaining: Some((d.due_at - now).max(0)),
                },
                &d.reminded,
            )
        });
        let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
        let text = format!("⏸ The host paused game {}: the deadline clock is stopped.", row.id);
        let payloads = Self::notice(&row, text)?;
        if !self.store.host_update(row.id, &v, update, &payloads, now).await? {
            return Err(ServiceError::Busy(row.id));
        }
        Ok(Reply::private(match left {
            Some(ms) => format!("Game {} paused with {} left.", row.id, format_duration(ms)),
            None => format!("Game {} paused.", row.id),
        }))
    }

    pub(super) async fn resume(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "resume it").await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let mut s = self.settings(row.id).await?;
        if !s.paused {
            return user_err(format!("Game {} is not paused.", row.id));
        }
        s.paused = false;
        let now = self.now_ms();
        let d = self.store.deadline(row.id).await?;
        let update = d.as_ref().map(|d| {
            let due_at = d.paused_remaining.map_or(d.due_at, |left| now + left);
            (
                DeadlineSet {
                    phase: d.phase,
                    due_at,
                    paused_remaining: None,
                },
                &d.reminded,
            )
        });
        let due = update.as_ref().map(|(d, _)| d.due_at);
        let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
        let text = match due {
            Some(due) => format!("▶ The host resumed game {}. Deadline {}.", row.id, discord_time(due)),
            None => format!("▶ The host resumed game {}.", row.id),
        };
        let payloads = Self::notice(&row, text.clone())?;
        if !self.store.host_update(row.id, &v, update, &payloads, now).await? {
            return Err(ServiceError::Busy(row.id));
        }
        Ok(Reply::private(text))
    }

    pub(super) async fn extend(&self, actor: &Actor, game: Option<GameId>, by_ms: i64) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "extend its deadline").await?;
        Self::active(&row)?;
        if by_ms <= 0 || by_ms > MAX_DEADLINE_MS {
            return user_err(format!(
                "Extend by a positive duration of at most {}.",
                format_duration(MAX_DEADLINE_MS)
            ));
        }
        let _guard = self.lock(row.id).await?;
        let s = self.settings(row.id).await?;
        let now = self.now_ms();
        let state = row
            .state
            .as_ref()
            .ok_or_else(|| anyhow::anyhow!("active game without state"))?;
        let phase = i64::from(state.phase().number);
        let (set, reminded) = match self.store.deadline(row.id).await? {
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
                let sent: Vec<i64> = serde_json::from_value(d.reminded.clone()).unwrap_or_default();
                let kept: Vec<i64> = sent.into_iter().filter(|&r| set.due_at - r <= now).collect();
                (set, serde_json::to_value(kept).map_err(anyhow::Error::from)?)
            }
            None => {
                // No running deadline (the host was waiting): start one.
                let set = DeadlineSet {
                    phase,
                    due_at: now + by_ms,
                    paused_remaining: s.paused.then_some(by_ms),
                };
                let text = format!(
                    "The host set a new deadline for game {}: {}.",
                    row.id,
                    discord_time(set.due_at)
                );
                let payloads = Self::notice(&row, text.clone())?;
                // Set through the claim path: one transaction with the notice.
                let claim = self
                    .store
                    .claim_deadline(row.id, now, true)
                    .await?
                    .ok_or(ServiceError::Busy(row.id))?;
                if claim.seq != row.seq {
                    return Err(ServiceError::Busy(row.id));
                }
                claim
                    .commit(&self.store, &[], state, false, &payloads, now, DeadlineAfter::Set(set))
                    .await
                    .map_err(store_busy(row.id))?;
                return Ok(Reply::private(text));
            }
        };
        let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
        let text = if set.paused_remaining.is_some() {
            format!(
                "The host extended the deadline of game {} by {} (paused, {} left).",
                row.id,
                format_duration(by_ms),
                format_duration(set.paused_remaining.unwrap_or(0))
            )
        } else {
            format!(
                "The host extended the deadline of game {} by {}: now {}.",
                row.id,
                format_duration(by_ms),
                discord_time(set.due_at)
            )
        };
        let payloads = Self::notice(&row, text.clone())?;
        if !self
            .store
            .host_update(row.id, &v, Some((set, &reminded)), &payloads, now)
            .await?
        {
            return Err(ServiceError::Busy(row.id));
        }
        Ok(Reply::private(text))
    }

    pub(super) async fn force(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "force the phase to resolve").await?;
        Self::active(&row)?;
        match self.resolve_phase(row.id, true).await? {
            Some(text) => Ok(Reply::private(text)),
            None => Err(ServiceError::Busy(row.id)),
        }
    }
}

fn seat_name(seats: &[SeatRow], seat: Seat) -> String {
    seats
        .iter()
        .find(|s| s.seat == seat)
        .map_or_else(|| seat.to_string(), |s| s.name.clone())
}

fn store_busy(game: GameId) -> impl Fn(StoreError) -> ServiceError {
    move |e| match e {
        StoreError::Conflict { .. } => ServiceError::Busy(game),
        e => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_and_format() {
        assert_eq!(parse_duration("48h"), Ok(48 * HOUR_MS));
        assert_eq!(parse_duration("30m"), Ok(30 * MINUTE_MS));
        assert_eq!(parse_duration("1d12h"), Ok(36 * HOUR_MS));
        assert_eq!(parse_duration(" 2W "), Ok(14 * 24 * HOUR_MS));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("12").is_err());
        assert!(parse_duration("h").is_err());
        assert!(parse_duration("3x").is_err());
        assert!(parse_duration("99999999999999999w").is_err());
        assert_eq!(format_duration(90 * MINUTE_MS), "1h 30m");
        assert_eq!(format_duration(48 * HOUR_MS), "2d");
        assert_eq!(format_duration(0), "0m");
        assert_eq!(discord_time(1_700_000_000_999), "<t:1700000000:R> (<t:1700000000:f>)");
    }

    #[test]
    fn settings_default_from_empty_json() {
        let s: Settings = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(s, Settings::default());
        assert_eq!(s.deadline_ms, 48 * HOUR_MS);
        assert_eq!(s.reminders_ms, vec![24 * HOUR_MS, 2 * HOUR_MS]);
        assert_eq!(s.on_missed, Missed::Default);
        assert_eq!(Missed::from_key("WAIT"), Some(Missed::Wait));
    }
}
