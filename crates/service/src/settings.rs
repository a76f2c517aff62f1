//! A game's host settings (deadline lengths, reminders, the missed-deadline
//! policy, time of day, auto-resolve): their values, how they are written
//! in commands, and `/game settings`.

use super::{user_err, Service, ServiceError, Text};
use orrery_engine::GameId;
use orrery_store::{GameRow, PrivateTo};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const HOUR_MS: i64 = 3_600_000;

pub(super) const MINUTE_MS: i64 = 60_000;

pub(super) const DAY_MS: i64 = 24 * HOUR_MS;

/// Shortest and longest phase deadline a host may choose.
pub(super) const MIN_DEADLINE_MS: i64 = 5 * MINUTE_MS;

pub(super) const MAX_DEADLINE_MS: i64 = 8 * 7 * 24 * HOUR_MS;

/// At most this many reminder points (a game's, or a player's own).
pub(super) const MAX_REMINDER_POINTS: usize = 5;

/// What happens when a phase's deadline passes with seats still owing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Missed {
    /// Submit each owing seat's ruleset default.
    #[default]
    Default,
    /// Announce it and wait for the host (`/host force` or `/host extend`).
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
    /// marks theirs ready (`/sheet ready`) or the deadline passes.
    pub auto_resolve: bool,
    /// Reminder points, as time before the deadline.
    pub reminders_ms: Vec<i64>,
    pub on_missed: Missed,
    /// The deadline clock is stopped.
    pub paused: bool,
    /// Where private messages go: DMs, or a private thread per seat in the
    /// game's channel (a seat may be moved either way on its own).
    pub private: PrivateTo,
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
            private: PrivateTo::Dms,
        }
    }
}

impl Settings {
    /// A game's settings (defaults for anything unset or unreadable).
    pub fn of(row: &GameRow) -> Settings {
        serde_json::from_value(row.settings.clone()).unwrap_or_default()
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
    pub private: Option<PrivateTo>,
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
            && self.private.is_none()
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
        if kind.is_empty() {
            return Err(format!(
                "`{part}` names no decision; write `kind=duration`, e.g. `combat-card=2h, losses=12h`."
            ));
        }
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

/// The settings line of `/game status` and of the host's changes.
pub(super) fn settings_line(settings: &Settings) -> Text {
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
        "Settings: deadline {} per phase{by_kind}{at} · reminders {} before · missed deadline: {} · auto-resolve {} · private messages {}",
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
            "off (secret choices are drafts until `/sheet ready`)"
        },
        private_text(settings.private),
    ));
    if settings.paused {
        line.then(" · ").strong("paused")
    } else {
        line
    }
}

/// Where private messages go, for messages.
pub(super) fn private_text(to: PrivateTo) -> &'static str {
    match to {
        PrivateTo::Dms => "by DM",
        PrivateTo::Thread => "in a private thread per player",
    }
}

/// Parse where private messages go: `dms` or `thread` (`threads`).
pub fn parse_private(text: &str) -> Result<PrivateTo, String> {
    PrivateTo::from_key(text).ok_or_else(|| {
        format!("`{text}` is not a place for private messages; write `dms` or `thread` (a private thread in the game's channel).")
    })
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

impl Service {
    /// A game's settings (defaults for anything unset or unreadable).
    pub async fn settings(&self, game: GameId) -> Result<Settings, ServiceError> {
        Ok(Settings::of(&self.reload(game).await?))
    }
}

/// Where `seat`'s private messages go now.
pub(super) fn private_place(row: &GameRow, seat: &orrery_store::SeatRow) -> PrivateTo {
    seat.private_to.unwrap_or(Settings::of(row).private)
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
        assert_eq!(s.private, PrivateTo::Dms);
    }

    #[test]
    fn private_places_parse() {
        assert_eq!(parse_private("threads"), Ok(PrivateTo::Thread));
        assert_eq!(parse_private(" Thread "), Ok(PrivateTo::Thread));
        assert_eq!(parse_private("DMs"), Ok(PrivateTo::Dms));
        let e = parse_private("email").unwrap_err();
        assert!(e.contains("`dms` or `thread`"), "{e}");
        let s: Settings = serde_json::from_value(serde_json::json!({"private": "thread"})).unwrap();
        assert_eq!(s.private, PrivateTo::Thread);
        assert!(settings_line(&s).to_string().contains("private thread per player"));
    }
}
