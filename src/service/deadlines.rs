//! Async play across days: per-game host settings, phase deadlines,
//! reminders, the scheduler's `tick`, and the host tools (pause, resume,
//! extend, force-resolve, settings).
//!
//! Deadlines live in the `deadlines` table, one row per game, set in the
//! same transaction as the events that begin a phase. [`Service::tick`]
//! resolves due rows through the same `decide` path as a player's order,
//! and commits only if the game's log and the deadline row are still the
//! ones it read (so of two schedulers, one resolves). Defaults are applied only when the deadline passes (or
//! the host forces it), never earlier, whatever secret picks are pending.

use super::advance::Advance;
use super::{compose, user_err, Actor, GameId, OutMessage, Reply, Service, ServiceError, Target, Text};
use crate::engine::{CommandLine, Seat};
use crate::games::AnyState;
use crate::store::{Commit, DeadlineChange, DeadlineSet, DraftsChange, GameRow, GameStatus, SeatRow, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const HOUR_MS: i64 = 3_600_000;
const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// Shortest and longest phase deadline a host may choose.
const MIN_DEADLINE_MS: i64 = 5 * MINUTE_MS;
pub(super) const MAX_DEADLINE_MS: i64 = 8 * 7 * 24 * HOUR_MS;
/// At most this many reminder points (a game's, or a player's own).
const MAX_REMINDER_POINTS: usize = 5;

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

/// A fixed time of day deadlines fall at: `minute` after midnight at UTC
/// offset `offset_minutes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeOfDay {
    /// 0..1440.
    pub minute: i64,
    /// -14:00..=+14:00, in minutes.
    pub offset_minutes: i64,
}

impl TimeOfDay {
    /// `18:00` (UTC), `18:00Z`, `18:00 UTC`, `18:00+02:00`, `07:30-05:00`.
    pub fn parse(text: &str) -> Result<TimeOfDay, String> {
        let bad = || {
            format!(
                "`{text}` is not a time of day. Write it as HH:MM in UTC, optionally with an offset: `18:00`, `18:00+02:00`, `07:30-05:00` (or `off`)."
            )
        };
        let t = text.trim();
        let t = t
            .strip_suffix("UTC")
            .or_else(|| t.strip_suffix("utc"))
            .or_else(|| t.strip_suffix('Z'))
            .or_else(|| t.strip_suffix('z'))
            .unwrap_or(t)
            .trim_end();
        let (clock, offset) = match t.find(['+', '-']) {
            Some(i) => (&t[..i], Some(&t[i..])),
            None => (t, None),
        };
        let hm = |s: &str, max_h: i64| -> Option<i64> {
            let (h, m) = s.trim().split_once(':')?;
            if h.is_empty() || h.len() > 2 || m.len() != 2 {
                return None;
            }
            let h: i64 = h.parse().ok()?;
            let m: i64 = m.parse().ok()?;
            ((0..=max_h).contains(&h) && (0..60).contains(&m)).then_some(h * 60 + m)
        };
        let minute = hm(clock, 23).ok_or_else(bad)?;
        let offset_minutes = match offset {
            None => 0,
            Some(o) => {
                let sign = if o.starts_with('-') { -1 } else { 1 };
                let v = hm(&o[1..], 14).ok_or_else(bad)?;
                if v > 14 * 60 {
                    return Err(bad());
                }
                sign * v
            }
        };
        Ok(TimeOfDay { minute, offset_minutes })
    }

    /// The first moment at or after `t` (unix ms) that is this time of day.
    pub fn next_at_or_after(self, t: i64) -> i64 {
        let off = self.offset_minutes * MINUTE_MS;
        let local = t + off;
        let mut at = local.div_euclid(DAY_MS) * DAY_MS + self.minute * MINUTE_MS;
        if at < local {
            at += DAY_MS;
        }
        at - off
    }
}

impl std::fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}:{:02}", self.minute / 60, self.minute % 60)?;
        if self.offset_minutes == 0 {
            return f.write_str(" UTC");
        }
        let sign = if self.offset_minutes < 0 { '-' } else { '+' };
        let o = self.offset_minutes.abs();
        write!(f, "{sign}{:02}:{:02}", o / 60, o % 60)
    }
}

/// A game's host settings, stored as JSON in `games.settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Length of each phase's deadline.
    pub deadline_ms: i64,
    /// Deadline lengths per kind of decision (`Pending::kind`, e.g.
    /// `combat-card`), overriding `deadline_ms`. While any is set, every
    /// change of step (the kinds of decision the game waits on) starts a
    /// new deadline, not only a new phase.
    pub deadline_by_kind: BTreeMap<String, i64>,
    /// Deadlines are moved later to the next such time of day.
    pub time_of_day: Option<TimeOfDay>,
    /// Resolve a secret simultaneous decision as soon as every owing seat
    /// has submitted. Off: submissions are drafts until every owing seat
    /// marks theirs ready (`/game ready`) or the deadline passes.
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
            deadline_by_kind: BTreeMap::new(),
            time_of_day: None,
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
    /// Per-kind deadline lengths to set (`Some`) or remove (`None`); the
    /// kind [`ALL_KINDS`] with `None` removes them all.
    pub deadline_by_kind: Vec<(String, Option<i64>)>,
    /// `Some(None)` removes the fixed time of day.
    pub time_of_day: Option<Option<TimeOfDay>>,
    pub auto_resolve: Option<bool>,
}

/// In [`SettingsChange::deadline_by_kind`]: every kind.
pub const ALL_KINDS: &str = "*";

impl SettingsChange {
    pub fn is_empty(&self) -> bool {
        self.deadline_ms.is_none()
            && self.reminders_ms.is_none()
            && self.on_missed.is_none()
            && self.deadline_by_kind.is_empty()
            && self.time_of_day.is_none()
            && self.auto_resolve.is_none()
    }
}

/// Parse per-kind deadline lengths: `combat-card=2h, losses=12h`;
/// `kind=default` removes one, `default` alone removes them all.
pub fn parse_kind_deadlines(text: &str) -> Result<Vec<(String, Option<i64>)>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("default") || t.eq_ignore_ascii_case("off") {
        return Ok(vec![(ALL_KINDS.to_string(), None)]);
    }
    let mut out = Vec::new();
    for part in t.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((kind, len)) = part.split_once(['=', ':']) else {
            return Err(format!(
                "`{part}` is not `kind=duration`; write e.g. `combat-card=2h, losses=12h` (`kind=default` removes one, `default` all)."
            ));
        };
        let kind = kind.trim().to_ascii_lowercase();
        let len = len.trim();
        let len = if len.eq_ignore_ascii_case("default") {
            None
        } else {
            Some(parse_duration(len)?)
        };
        out.push((kind, len));
    }
    if out.is_empty() {
        return Err("Give per-decision deadlines as e.g. `combat-card=2h, losses=12h`.".into());
    }
    Ok(out)
}

/// Parse a fixed time of day, or `off`.
pub fn parse_time_of_day(text: &str) -> Result<Option<TimeOfDay>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("off") || t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    TimeOfDay::parse(t).map(Some)
}

/// Check and normalize reminder points (longest first, no duplicates):
/// each a positive duration of at most the longest deadline, at most
/// [`MAX_REMINDER_POINTS`] of them.
pub(super) fn check_points(mut r: Vec<i64>) -> Result<Vec<i64>, ServiceError> {
    if r.iter().any(|&x| x <= 0 || x > MAX_DEADLINE_MS) {
        return user_err(format!(
            "Reminder points must be positive durations before the deadline, at most {} (e.g. `24h,2h`).",
            format_duration(MAX_DEADLINE_MS)
        ));
    }
    r.sort_unstable_by(|a, b| b.cmp(a));
    r.dedup();
    if r.len() > MAX_REMINDER_POINTS {
        return user_err(format!("At most {MAX_REMINDER_POINTS} reminder points, please."));
    }
    Ok(r)
}

/// `24h, 2h`, or `off` for none.
pub(super) fn points_text(points: &[i64]) -> String {
    if points.is_empty() {
        return "off".into();
    }
    points
        .iter()
        .map(|&r| format_duration(r))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kinds of decision a state waits on, sorted: its *step*.
pub(super) fn step_kinds(state: &AnyState) -> Vec<String> {
    let mut kinds: Vec<String> = state.pending().into_iter().map(|p| p.kind).collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// The deadline length of a step: the per-kind length of its kind (the
/// longest, if it mixes kinds; a kind without its own length counts as the
/// game's default), else the default.
fn length_for(settings: &Settings, kinds: &[String]) -> i64 {
    kinds
        .iter()
        .map(|k| {
            settings
                .deadline_by_kind
                .get(k)
                .copied()
                .unwrap_or(settings.deadline_ms)
        })
        .max()
        .unwrap_or(settings.deadline_ms)
}

/// Which reminders were sent for a deadline (`deadlines.reminded`): a JSON
/// array whose items are either a point (ms; the old format: sent to every
/// seat) or `[seat, point]` (sent to that seat). Unknown items are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Reminded {
    all: Vec<i64>,
    seats: Vec<(u8, i64)>,
}

impl Reminded {
    pub(super) fn parse(v: &serde_json::Value) -> Reminded {
        let mut r = Reminded::default();
        for item in v.as_array().map(Vec::as_slice).unwrap_or_default() {
            if let Some(p) = item.as_i64() {
                r.all.push(p);
            } else if let Some([s, p]) = item.as_array().map(Vec::as_slice) {
                if let (Some(s), Some(p)) = (s.as_u64().and_then(|s| u8::try_from(s).ok()), p.as_i64()) {
                    r.seats.push((s, p));
                }
            }
        }
        r
    }

    pub(super) fn has(&self, seat: Seat, point: i64) -> bool {
        self.all.contains(&point) || self.seats.contains(&(seat.0, point))
    }

    pub(super) fn mark(&mut self, seat: Seat, point: i64) {
        if !self.has(seat, point) {
            self.seats.push((seat.0, point));
        }
    }

    /// Keep only the points `keep` accepts (re-arming the others).
    pub(super) fn retain(&mut self, keep: impl Fn(i64) -> bool) {
        self.all.retain(|&p| keep(p));
        self.seats.retain(|&(_, p)| keep(p));
    }

    pub(super) fn to_value(&self) -> serde_json::Value {
        let mut all = self.all.clone();
        all.sort_unstable();
        all.dedup();
        let mut seats = self.seats.clone();
        seats.sort_unstable();
        seats.dedup();
        let mut items: Vec<serde_json::Value> = all.into_iter().map(serde_json::Value::from).collect();
        items.extend(seats.into_iter().map(|(s, p)| serde_json::json!([s, p])));
        serde_json::Value::Array(items)
    }
}

/// The settings line of `/game status` and of the host's changes.
fn settings_line(settings: &Settings) -> Text {
    let by_kind = if settings.deadline_by_kind.is_empty() {
        String::new()
    } else {
        format!(
            " ({})",
            settings
                .deadline_by_kind
                .iter()
                .map(|(k, &ms)| format!("{k} {}", format_duration(ms)))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let at = settings
        .time_of_day
        .map(|t| format!(" · deadlines at {t}"))
        .unwrap_or_default();
    let line = Text::plain(format!(
        "Settings: deadline {} per phase{by_kind}{at} · reminders {} before · missed deadline: {} · auto-resolve {}",
        format_duration(settings.deadline_ms),
        if settings.reminders_ms.is_empty() {
            "off".to_string()
        } else {
            points_text(&settings.reminders_ms)
        },
        settings.on_missed.as_str(),
        if settings.auto_resolve {
            "on"
        } else {
            "off (secret choices are drafts until `/game ready`)"
        },
    ));
    if settings.paused {
        line.then(" · ").strong("paused")
    } else {
        line
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

impl Settings {
    /// A game's settings (defaults for anything unset or unreadable).
    pub fn of(row: &GameRow) -> Settings {
        serde_json::from_value(row.settings.clone()).unwrap_or_default()
    }
}

impl Service {
    /// A game's settings (defaults for anything unset or unreadable).
    pub async fn settings(&self, game: GameId) -> Result<Settings, ServiceError> {
        Ok(Settings::of(&self.reload(game).await?))
    }

    /// The deadline a phase (or step) beginning now, at `state`, gets: now
    /// plus the length for the kinds of decision `state` waits on, moved
    /// later to the next fixed time of day if one is set.
    pub(super) fn deadline_for(&self, settings: &Settings, state: &AnyState) -> DeadlineSet {
        let now = self.now_ms();
        let mut due_at = now + length_for(settings, &step_kinds(state));
        if let Some(t) = settings.time_of_day {
            due_at = t.next_at_or_after(due_at);
        }
        DeadlineSet {
            phase: i64::from(state.phase().number),
            due_at,
            paused_remaining: settings.paused.then_some(due_at - now),
        }
    }

    /// The new deadline after an action took the game from `before` to
    /// `after`, if one begins: when a new phase begins, or, while per-kind
    /// lengths are set, when the step (the kinds of decision waited on)
    /// changes. `None` when the game is over or the running deadline goes on.
    pub(super) fn next_deadline(
        &self,
        settings: &Settings,
        before: &AnyState,
        after: &AnyState,
    ) -> Option<DeadlineSet> {
        if after.outcome().is_some() {
            return None;
        }
        let new_phase = after.phase().number != before.phase().number;
        let new_step = !settings.deadline_by_kind.is_empty() && step_kinds(after) != step_kinds(before);
        (new_phase || new_step).then(|| self.deadline_for(settings, after))
    }

    /// Lines for `/game status`: the deadline and the settings.
    pub(super) async fn status_lines(&self, row: &GameRow) -> Result<Text, ServiceError> {
        let settings = Settings::of(row);
        let mut text = Text::new();
        if row.status == GameStatus::Active {
            match self.store.deadline(row.id).await? {
                Some(d) => match d.paused_remaining {
                    Some(left) => text.append(Text::plain("Deadline: ").strong("paused").then(format!(
                        " with {} left (the host resumes with `/game resume`).\n",
                        format_duration(left)
                    ))),
                    None => text.append(Text::plain("Deadline: ").time(d.due_at).then("\n")),
                },
                None => text.push_str("Deadline: none (waiting for the host).\n"),
            }
            // Who has a draft and who is ready: public (announced in the
            // channel as it happens); never what the drafts say.
            let drafts: Vec<_> = self
                .store
                .drafts(row.id)
                .await?
                .into_iter()
                .filter(|d| d.seq == row.seq)
                .collect();
            if !drafts.is_empty() {
                let seats = self.store.seats(row.id).await?;
                text.push_str(&format!(
                    "Drafts: {}\n",
                    drafts
                        .iter()
                        .map(|d| format!(
                            "{} ({})",
                            seat_name(&seats, d.seat),
                            if d.ready { "ready" } else { "not ready" }
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        text.append(settings_line(&settings));
        Ok(text)
    }

    /// Resolve due deadlines and send due reminders. Called by the bot's
    /// scheduler every few seconds and once at start (overdue phases
    /// resolve at once), and by tests after moving a [`super::ManualClock`].
    /// Safe to run from several processes on one PostgreSQL database.
    pub async fn tick(&self) -> Result<TickReport, ServiceError> {
        let now = self.now_ms();
        let mut report = TickReport::default();
        if let Err(e) = self.discard_stale_drafts(None).await {
            tracing::warn!("stale drafts not discarded: {e}");
        }
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
    /// passed and that were not sent yet. Each seat has its own points (its
    /// `seats.reminders`, else the game's); a point is marked sent per seat
    /// when it passes, and a DM goes to the seat if it still owes a
    /// decision then (and has no draft marked ready). Returns how many DMs
    /// were queued.
    async fn remind(&self, game: GameId, now: i64) -> Result<usize, ServiceError> {
        let Some(d) = self.store.deadline(game).await? else {
            return Ok(0);
        };
        if d.paused_remaining.is_some() || d.due_at <= now {
            return Ok(0);
        }
        let row = self.reload(game).await?;
        let settings = Settings::of(&row);
        let seats = self.store.seats(game).await?;
        let mut sent = Reminded::parse(&d.reminded);
        let mut crossed: Vec<(&SeatRow, Vec<i64>)> = Vec::new();
        for s in &seats {
            let points = s.reminders.as_deref().unwrap_or(settings.reminders_ms.as_slice());
            let due: Vec<i64> = points
                .iter()
                .copied()
                .filter(|&r| r > 0 && d.due_at - r <= now && !sent.has(s.seat, r))
                .collect();
            if !due.is_empty() {
                crossed.push((s, due));
            }
        }
        if crossed.is_empty() {
            return Ok(0);
        }
        let Some(state) = &row.state else { return Ok(0) };
        if i64::from(state.phase().number) != d.phase {
            return Ok(0);
        }
        let drafts = self.store.drafts(game).await?;
        let label = state.phase().label;
        let pending = state.pending();
        let mut out = Vec::new();
        for (s, points) in crossed {
            for r in points {
                sent.mark(s.seat, r);
            }
            let Some(p) = pending.iter().find(|p| p.seat == s.seat && !p.submitted) else {
                continue;
            };
            let draft = drafts.iter().find(|x| x.seat == s.seat && x.seq == row.seq);
            if s.automatic() || draft.is_some_and(|x| x.ready) {
                continue;
            }
            let note = if draft.is_some() {
                " Your draft is saved but not final: `/game ready` marks it ready."
            } else {
                ""
            };
            out.push(OutMessage {
                target: Target::Dm(s.user),
                text: Text::plain("Reminder: ")
                    .strong(row.kind.name())
                    .then(format!(
                        " game {} ({label}) is waiting on you: {}. Deadline ",
                        row.id, p.prompt
                    ))
                    .time(d.due_at)
                    .then(format!(".{note}")),
                board: None,
                choices: vec![],
                game_over: false,
            });
        }
        // Only if the deadline is still the one read: of two schedulers, one
        // sends.
        let commit = Commit::any_seq(game, now)
            .if_deadline(Some(d.clone()))
            .with_deadline(DeadlineChange::Reminded(sent.to_value()));
        match self.try_commit(commit, &out).await {
            Ok(_) => Ok(out.len()),
            Err(StoreError::Moved(_) | StoreError::WrongStatus { .. }) => Ok(0),
            Err(e) => Err(e.into()),
        }
    }

    /// Resolve a game's current phase: its deadline passed (`force` false:
    /// only if the claimed deadline is due, running and of the current
    /// phase) or the host forces it. Returns the announcement, or `None` if
    /// there was nothing to do (not due, extended, paused, resolved by
    /// another scheduler, or the game moved on meanwhile).
    pub(super) async fn resolve_phase(&self, game: GameId, force: bool) -> Result<Option<String>, ServiceError> {
        // Drafts of an older position are never submitted: discard them
        // (their players are told) before the current ones go in.
        self.discard_stale_drafts(Some(game)).await?;
        let _guard = self.lock(game).await?;
        let row = self.reload(game).await?;
        if row.status != GameStatus::Active {
            return Ok(None);
        }
        let Some(state) = row.state.clone() else {
            return Ok(None);
        };
        let seats = self.store.seats(game).await?;
        let settings = Settings::of(&row);
        let now = self.now_ms();
        let deadline = self.store.deadline(game).await?;
        if !force
            && !deadline
                .as_ref()
                .is_some_and(|d| d.due_at <= now && d.paused_remaining.is_none())
        {
            // Not due (extended, paused, or already resolved).
            return Ok(None);
        }
        // Whatever is written commits only if the log and the deadline are
        // still what was read here: of two schedulers, one resolves.
        let base = Commit::new(game, row.seq, now).if_deadline(deadline.clone());
        let phase = state.phase().number;
        let names = Self::names(&seats);
        let channel = Target::Channel(row.channel_id);
        if !force && deadline.as_ref().is_some_and(|d| d.phase != i64::from(phase)) {
            // A stale row (the phase moved on without a new deadline): give
            // the current phase its full time instead of cutting it short.
            let d = self.deadline_for(&settings, &state);
            self.settle(base.with_deadline(DeadlineChange::Set(d)), &[]).await?;
            return Ok(None);
        }
        let label = state.phase().label;
        if !force && settings.on_missed == Missed::Wait {
            let text = format!(
                "⏰ The deadline of game {} ({label}) has passed. Still waiting on: {}. The host decides: `/game force` applies the defaults, `/game extend` gives more time.",
                row.id,
                compose::waiting_line(&state.pending(), &names)
            );
            let out = [OutMessage {
                target: channel,
                text: text.clone().into(),
                board: None,
                choices: vec![],
                game_over: false,
            }];
            let done = self.settle(base.with_deadline(DeadlineChange::Clear), &out).await?;
            return Ok(done.then_some(text));
        }

        // Submit the drafts first (validated against this very position),
        // then apply each owing seat's default, until the phase (or, with
        // per-kind lengths, the step) is over or no owing seat has a default.
        let step = step_kinds(&state);
        let moved_on = |cur: &AnyState| {
            cur.outcome().is_some()
                || cur.phase().number != phase
                || (!settings.deadline_by_kind.is_empty() && step_kinds(cur) != step)
        };
        let mut adv = Advance::new(&state, row.seq);
        let (drafted, mut refused) = self.decide_drafts(&row, &seats, &mut adv).await?;
        let mut applied: Vec<(Seat, CommandLine, bool)> = Vec::new();
        'outer: for _ in 0..64 {
            if moved_on(&adv.state) {
                break;
            }
            let owing: Vec<_> = adv.state.pending().into_iter().filter(|p| !p.submitted).collect();
            let mut progressed = false;
            for p in owing {
                if !adv.state.pending().iter().any(|q| q.seat == p.seat && !q.submitted) {
                    continue;
                }
                let Some(cmd) = adv.state.default_command(p.seat) else {
                    continue;
                };
                match adv.play(p.seat, &cmd) {
                    Ok(()) => {
                        applied.push((p.seat, cmd, p.secret));
                        progressed = true;
                    }
                    Err(e) => tracing::warn!(game = %game, seat = %p.seat, "default order refused: {e}"),
                }
                if moved_on(&adv.state) {
                    break 'outer;
                }
            }
            if !progressed {
                break;
            }
        }
        // Seats in civil disorder play what they owe in the next phase.
        let auto_played = super::host::autoplay(&mut adv, &seats, !settings.auto_resolve);
        let mut outbox = compose::after_action(&row, &seats, &adv, false);
        let finished = adv.state.outcome().is_some();
        let why = if force {
            "The host forced the phase to resolve"
        } else {
            "⏰ Deadline passed"
        };
        let mut text = format!("{why} in game {} ({label}).", row.id);
        for seat in &drafted {
            text.push_str(&format!(" {}'s draft was submitted.", seat_name(&seats, *seat)));
        }
        if applied.is_empty() && drafted.is_empty() {
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
        let next = if let Some(d) = self.next_deadline(&settings, &adv.before, &adv.state) {
            DeadlineChange::Set(d)
        } else {
            if !finished {
                text.push_str(&format!(
                    " Still waiting on: {}; the host decides.",
                    compose::waiting_line(&adv.state.pending(), &names)
                ));
            }
            DeadlineChange::Clear
        };
        let mut head = vec![OutMessage {
            target: channel,
            text: text.clone().into(),
            board: None,
            choices: vec![],
            game_over: false,
        }];
        for (seat, cmd, secret) in &applied {
            if let (true, Some(s)) = (*secret, seats.iter().find(|s| s.seat == *seat)) {
                head.push(OutMessage {
                    target: Target::Dm(s.user),
                    text: format!(
                        "Game {}: the deadline passed, so your default was submitted: `{cmd}`.",
                        row.id
                    )
                    .into(),
                    board: None,
                    choices: vec![],
                    game_over: false,
                });
            }
        }
        head.append(&mut refused);
        head.append(&mut outbox);
        // The log moves: drafts were submitted with these events (or are
        // stale), so none outlives the resolution.
        let drafts = if adv.events.is_empty() {
            DraftsChange::Keep
        } else {
            DraftsChange::ClearAll
        };
        let commit = base
            .with_events(adv.events, adv.state)
            .with_drafts(drafts)
            .with_deadline(next);
        let done = self.settle(commit, &head).await?;
        Ok(done.then_some(text))
    }

    /// Commit a resolution; `false` if the game or its deadline moved on
    /// meanwhile (another scheduler, an order, the host): then nothing was
    /// written and there is nothing left to do.
    async fn settle(&self, commit: Commit, out: &[OutMessage]) -> Result<bool, ServiceError> {
        match self.try_commit(commit, out).await {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict { .. } | StoreError::Moved(_) | StoreError::WrongStatus { .. }) => Ok(false),
            Err(e) => Err(e.into()),
        }
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

    fn notice(row: &GameRow, text: impl Into<Text>) -> [OutMessage; 1] {
        [OutMessage {
            target: Target::Channel(row.channel_id),
            text: text.into(),
            board: None,
            choices: vec![],
            game_over: false,
        }]
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
            return Ok(Reply::private(Text::plain(format!("Game {}\n", row.id)).and(text)));
        }
        let row = self.hosted(actor, game, "change its settings").await?;
        if !row.status.is_open() {
            return user_err(format!("Game {} is over.", row.id));
        }
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let mut s = Settings::of(&row);
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
        let v = serde_json::to_value(&s).map_err(anyhow::Error::from)?;
        let now = self.now_ms();
        let notice = Self::notice(
            &row,
            Text::plain(format!("The host changed the settings of game {}.\n", row.id)).and(settings_line(&s)),
        );
        let mut commit = Commit::any_seq(row.id, now).with_settings(v);
        commit.status = row.status;
        self.commit(commit, &notice).await?;
        if was_drafting && s.auto_resolve {
            // Auto-resolve is back on: the drafts count as submitted now. The
            // settings are saved either way; drafts that could not go in now
            // stay drafts (submitted by `/game ready` or at the deadline).
            if let Err(e) = self.flush_drafts(row.id).await {
                tracing::warn!(game = %row.id, "drafts not submitted when auto-resolve was turned on: {e}");
            }
        }
        let lines = self.status_lines(&self.reload(row.id).await?).await?;
        Ok(Reply::private(
            Text::plain(format!(
                "Settings of game {} changed (new deadline lengths and the time of day apply from the next phase or step).\n",
                row.id
            ))
            .and(lines),
        ))
    }

    pub(super) async fn pause(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "pause it").await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let mut s = Settings::of(&row);
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
        let commit = Commit::any_seq(row.id, now)
            .with_settings(v)
            .if_deadline(d)
            .with_deadline(update);
        self.commit(commit, &Self::notice(&row, text)).await?;
        Ok(Reply::private(match left {
            Some(ms) => format!("Game {} paused with {} left.", row.id, format_duration(ms)),
            None => format!("Game {} paused.", row.id),
        }))
    }

    pub(super) async fn resume(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "resume it").await?;
        Self::active(&row)?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let mut s = Settings::of(&row);
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
        let commit = Commit::any_seq(row.id, now)
            .with_settings(v)
            .if_deadline(d)
            .with_deadline(change);
        self.commit(commit, &Self::notice(&row, text.clone())).await?;
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
        let row = self.reload(row.id).await?;
        let s = Settings::of(&row);
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
                let commit = Commit::new(row.id, row.seq, now)
                    .if_deadline(None)
                    .with_deadline(DeadlineChange::Set(set));
                self.commit(commit, &Self::notice(&row, text.clone())).await?;
                return Ok(Reply::private(text));
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
        let commit = Commit::any_seq(row.id, now)
            .with_settings(v)
            .if_deadline(read)
            .with_deadline(DeadlineChange::Update(set, reminded));
        self.commit(commit, &Self::notice(&row, text.clone())).await?;
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

    #[test]
    fn reminded_reads_old_arrays_and_per_seat_pairs() {
        let r = Reminded::parse(&serde_json::json!([5, [1, 7], "junk", [300, 1], {"x": 1}]));
        assert!(
            r.has(Seat(0), 5) && r.has(Seat(3), 5),
            "an old point counts for every seat"
        );
        assert!(r.has(Seat(1), 7) && !r.has(Seat(0), 7));
        assert_eq!(r.to_value(), serde_json::json!([5, [1, 7]]));
        let mut r = Reminded::parse(&serde_json::json!([]));
        r.mark(Seat(2), 9);
        r.mark(Seat(2), 9);
        r.mark(Seat(0), 9);
        assert_eq!(r.to_value(), serde_json::json!([[0, 9], [2, 9]]));
        r.retain(|p| p != 9);
        assert_eq!(r.to_value(), serde_json::json!([]));
        assert_eq!(
            Reminded::parse(&serde_json::json!({"not": "an array"})),
            Reminded::default()
        );
    }

    #[test]
    fn step_lengths_and_point_checks() {
        let mut s = Settings::default();
        assert_eq!(length_for(&s, &["turn".into()]), 48 * HOUR_MS);
        s.deadline_by_kind.insert("combat-card".into(), 2 * HOUR_MS);
        s.deadline_by_kind.insert("losses".into(), 90 * HOUR_MS);
        assert_eq!(length_for(&s, &["combat-card".into()]), 2 * HOUR_MS);
        assert_eq!(
            length_for(&s, &["combat-card".into(), "turn".into()]),
            48 * HOUR_MS,
            "the longest"
        );
        assert_eq!(length_for(&s, &["losses".into()]), 90 * HOUR_MS);
        assert_eq!(length_for(&s, &[]), 48 * HOUR_MS);
        assert_eq!(
            check_points(vec![HOUR_MS, 3 * HOUR_MS, HOUR_MS]).unwrap(),
            vec![3 * HOUR_MS, HOUR_MS]
        );
        assert!(check_points(vec![-1]).is_err());
        assert!(check_points(vec![MAX_DEADLINE_MS + 1]).is_err());
        assert!(check_points((1..=6).map(|h| h * HOUR_MS).collect()).is_err());
        assert_eq!(check_points(vec![]).unwrap(), Vec::<i64>::new());
        assert_eq!(
            parse_kind_deadlines("combat-card=2h, Losses=default").unwrap(),
            vec![("combat-card".into(), Some(2 * HOUR_MS)), ("losses".into(), None)]
        );
        assert_eq!(
            parse_kind_deadlines("default").unwrap(),
            vec![(ALL_KINDS.to_string(), None)]
        );
        // Settings written before these fields existed still read.
        let old: Settings = serde_json::from_value(serde_json::json!({"deadline_ms": 1000, "paused": true})).unwrap();
        assert!(old.deadline_by_kind.is_empty() && old.time_of_day.is_none() && old.auto_resolve);
    }
}
