//! Transport-neutral text. The service says what it means (plain words,
//! emphasis, an order literal, a person, a channel, a moment) and each
//! transport renders it its own way: Discord with its markup and
//! timestamps, the terminal with names and readable dates. Nothing here
//! knows any transport's syntax or length limits.

use orrery_engine::UserId;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// One run of text with one meaning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Span {
    /// Words as they are (may contain line breaks).
    Plain(String),
    /// Emphasised words (a game's name, who won, a warning).
    Strong(String),
    /// A command or order literal, typed as shown (`/sheet ready`, `end`).
    Code(String),
    /// A person.
    User(UserId),
    /// A person named in a game, by their name there; a transport that
    /// can mention people mentions them (whether that alerts them is the
    /// message's `pings`).
    Mention { user: UserId, name: String },
    /// A channel (a game's table), by id.
    Channel(u64),
    /// A moment, in Unix milliseconds; shown both relative to now and as
    /// an absolute date and time.
    Time(i64),
}

/// A message's text: a sequence of spans.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Text {
    spans: Vec<Span>,
}

impl Text {
    pub fn new() -> Self {
        Text::default()
    }

    /// Plain words.
    pub fn plain(s: impl Into<String>) -> Self {
        Text::new().then(s)
    }

    /// The spans, in order.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    pub fn is_empty(&self) -> bool {
        self.spans.iter().all(|s| matches!(s, Span::Plain(p) if p.is_empty()))
    }

    /// Append a span, merging adjacent plain runs.
    pub fn push_span(&mut self, span: Span) {
        match (self.spans.last_mut(), span) {
            (_, Span::Plain(p)) if p.is_empty() => {}
            (Some(Span::Plain(last)), Span::Plain(p)) => last.push_str(&p),
            (_, span) => self.spans.push(span),
        }
    }

    /// Append plain words.
    pub fn push_str(&mut self, s: &str) {
        self.push_span(Span::Plain(s.to_string()));
    }

    /// Append one plain character.
    pub fn push(&mut self, c: char) {
        self.push_span(Span::Plain(c.to_string()));
    }

    /// Append another text.
    pub fn append(&mut self, other: impl Into<Text>) {
        for span in other.into().spans {
            self.push_span(span);
        }
    }

    /// Builder: plain words.
    pub fn then(mut self, s: impl Into<String>) -> Self {
        self.push_span(Span::Plain(s.into()));
        self
    }

    /// Builder: emphasised words.
    pub fn strong(mut self, s: impl Into<String>) -> Self {
        self.push_span(Span::Strong(s.into()));
        self
    }

    /// Builder: a command or order literal.
    pub fn code(mut self, s: impl Into<String>) -> Self {
        self.push_span(Span::Code(s.into()));
        self
    }

    /// Builder: a person.
    pub fn user(mut self, u: UserId) -> Self {
        self.push_span(Span::User(u));
        self
    }

    /// Builder: a person by name, mentioned where the transport can.
    pub fn mention(mut self, user: UserId, name: impl Into<String>) -> Self {
        self.push_span(Span::Mention {
            user,
            name: name.into(),
        });
        self
    }

    /// Builder: a channel.
    pub fn channel(mut self, c: u64) -> Self {
        self.push_span(Span::Channel(c));
        self
    }

    /// Builder: a moment (Unix milliseconds).
    pub fn time(mut self, ms: i64) -> Self {
        self.push_span(Span::Time(ms));
        self
    }

    /// Builder: another text.
    pub fn and(mut self, other: impl Into<Text>) -> Self {
        self.append(other);
        self
    }

    /// The same text with each span passed through `f`.
    pub(crate) fn map_spans(self, f: impl Fn(Span) -> Span) -> Text {
        let mut out = Text::new();
        for span in self.spans {
            out.push_span(f(span));
        }
        out
    }

    /// Texts joined by a plain separator.
    pub fn join(parts: impl IntoIterator<Item = Text>, sep: &str) -> Text {
        let mut out = Text::new();
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.append(p);
        }
        out
    }

    /// Render with one function per span (a transport's renderer).
    pub fn render(&self, mut span: impl FnMut(&Span, &mut String)) -> String {
        let mut out = String::new();
        for s in &self.spans {
            span(s, &mut out);
        }
        out
    }

    /// A plain rendering for logs and tests: emphasis dropped, literals in
    /// backticks, people and channels by id, moments as UTC dates.
    pub fn to_plain(&self) -> String {
        self.render(|s, out| match s {
            Span::Plain(p) | Span::Strong(p) => out.push_str(p),
            Span::Code(c) => {
                out.push('`');
                out.push_str(c);
                out.push('`');
            }
            Span::User(u) => out.push_str(&format!("@{u}")),
            Span::Mention { name, .. } => {
                out.push('@');
                out.push_str(name);
            }
            Span::Channel(c) => out.push_str(&format!("#{c}")),
            Span::Time(ms) => out.push_str(&utc_date_time(*ms, None)),
        })
    }

    /// Whether the plain rendering contains `pattern`.
    pub fn contains(&self, pattern: &str) -> bool {
        self.to_plain().contains(pattern)
    }

    /// Whether the plain rendering starts with `pattern`.
    pub fn starts_with(&self, pattern: &str) -> bool {
        self.to_plain().starts_with(pattern)
    }

    /// The moments mentioned, in order.
    pub fn times(&self) -> Vec<i64> {
        self.spans
            .iter()
            .filter_map(|s| match s {
                Span::Time(ms) => Some(*ms),
                _ => None,
            })
            .collect()
    }

    /// The people mentioned by [`Span::Mention`], in order.
    pub fn mentions(&self) -> Vec<UserId> {
        self.spans
            .iter()
            .filter_map(|s| match s {
                Span::Mention { user, .. } => Some(*user),
                _ => None,
            })
            .collect()
    }

    /// The channels mentioned, in order.
    pub fn channels(&self) -> Vec<u64> {
        self.spans
            .iter()
            .filter_map(|s| match s {
                Span::Channel(c) => Some(*c),
                _ => None,
            })
            .collect()
    }

    /// Keep at most `max` lines, saying how many were left out. A bound on
    /// how much the service lists, counted in lines (no transport's
    /// character limit).
    pub fn first_lines(self, max: usize) -> Text {
        let mut out = Text::new();
        let mut lines = 0;
        let mut spans = self.spans.into_iter();
        let mut rest = String::new();
        for span in spans.by_ref() {
            match span {
                Span::Plain(p) => {
                    let mut parts = p.split_inclusive('\n');
                    for part in parts.by_ref() {
                        if part.ends_with('\n') {
                            lines += 1;
                            if lines == max {
                                out.push_str(part.trim_end_matches('\n'));
                                rest = parts.collect();
                                break;
                            }
                        }
                        out.push_str(part);
                    }
                    if lines == max {
                        break;
                    }
                }
                span => out.push_span(span),
            }
        }
        let mut remaining = Text::plain(rest);
        for span in spans {
            remaining.push_span(span);
        }
        let more = remaining.to_plain().lines().count();
        if more > 0 {
            out.push_str(&format!("\n… ({more} more lines)"));
        }
        out
    }
}

/// The plain rendering ([`Text::to_plain`]), for logs and tests.
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_plain())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::plain(s)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::plain(s)
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Self {
        Text::plain(s.as_str())
    }
}

impl From<Span> for Text {
    fn from(s: Span) -> Self {
        let mut t = Text::new();
        t.push_span(s);
        t
    }
}

impl<'de> Deserialize<'de> for Text {
    /// Spans, or a plain string: outbox rows written before text had
    /// spans stored it as a string (with any markup in it), and rows
    /// survive an upgrade.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Plain(String),
            Spans(Vec<Span>),
        }
        Ok(match Stored::deserialize(d)? {
            Stored::Plain(s) => Text::plain(s),
            Stored::Spans(spans) => {
                let mut t = Text::new();
                for s in spans {
                    t.push_span(s);
                }
                t
            }
        })
    }
}

const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The proleptic Gregorian date of a day counted from 1970-01-01:
/// (year, month 1-12, day 1-31). (H. Hinnant's `civil_from_days`.)
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A moment as a UTC date and time: "Wed 25 Nov 18:00 UTC". The year is
/// added unless it is the year of `now_ms` (always added without `now`).
pub fn utc_date_time(ms: i64, now_ms: Option<i64>) -> String {
    const DAY: i64 = 86_400_000;
    let days = ms.div_euclid(DAY);
    let minute = ms.rem_euclid(DAY) / 60_000;
    let (y, m, d) = civil_from_days(days);
    let weekday = WEEKDAYS[(days + 4).rem_euclid(7) as usize];
    let month = MONTHS[m as usize - 1];
    let same_year = now_ms.is_some_and(|n| civil_from_days(n.div_euclid(DAY)).0 == y);
    let year = if same_year { String::new() } else { format!(" {y}") };
    format!("{weekday} {d} {month}{year} {:02}:{:02} UTC", minute / 60, minute % 60)
}

/// How far a moment is from now, in words: "in 2 days", "3 hours ago",
/// "in a few seconds". Rounded to the nearest whole unit.
pub fn relative_time(ms: i64, now_ms: i64) -> String {
    let delta = ms - now_ms;
    let secs = (delta.abs() as f64) / 1000.0;
    let unit = |n: f64, one: &str| {
        let n = n.round() as i64;
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    let amount = if secs < 45.0 {
        "a few seconds".to_string()
    } else if secs < 45.0 * 60.0 {
        unit((secs / 60.0).max(1.0), "minute")
    } else if secs < 22.0 * 3600.0 {
        unit(secs / 3600.0, "hour")
    } else if secs < 26.0 * 86_400.0 {
        unit(secs / 86_400.0, "day")
    } else if secs < 320.0 * 86_400.0 {
        unit(secs / (30.44 * 86_400.0), "month")
    } else {
        unit(secs / (365.25 * 86_400.0), "year")
    };
    if delta >= 0 {
        format!("in {amount}")
    } else {
        format!("{amount} ago")
    }
}

/// A moment in words for a reader whose clock says `now_ms`:
/// "in 2 days, Wed 25 Nov 18:00 UTC".
pub fn readable_time(ms: i64, now_ms: i64) -> String {
    format!("{}, {}", relative_time(ms, now_ms), utc_date_time(ms, Some(now_ms)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mon 23 Nov 2026 18:00 UTC.
    const NOW: i64 = 1_795_456_800_000;
    const H: i64 = 3_600_000;

    #[test]
    fn builders_merge_plain_runs_and_keep_meaning() {
        let mut t = Text::plain("Game 3 ").strong("Hyperspace").then(" in ").channel(7);
        t.push_str(": due ");
        t.append(Text::new().time(5_000));
        t.push('.');
        assert_eq!(
            t.spans(),
            &[
                Span::Plain("Game 3 ".into()),
                Span::Strong("Hyperspace".into()),
                Span::Plain(" in ".into()),
                Span::Channel(7),
                Span::Plain(": due ".into()),
                Span::Time(5_000),
                Span::Plain(".".into()),
            ]
        );
        assert_eq!(t.times(), vec![5_000]);
        assert_eq!(t.channels(), vec![7]);
        assert_eq!(t.to_plain(), "Game 3 Hyperspace in #7: due Thu 1 Jan 1970 00:00 UTC.");
        assert!(t.contains("Hyperspace in #7") && t.starts_with("Game 3"));
        assert_eq!(Text::from("a").and("b").spans(), &[Span::Plain("ab".into())]);
        assert!(Text::new().is_empty() && Text::plain("").is_empty());
        let joined = Text::join([Text::plain("a"), Text::new().code("end")], ", ");
        assert_eq!(joined.to_plain(), "a, `end`");
    }

    #[test]
    fn serializes_as_spans_and_reads_old_plain_strings() {
        let t = Text::plain("Deadline ")
            .time(1_000)
            .then(" for ")
            .user(UserId(4))
            .code("end");
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(
            json,
            serde_json::json!([{"plain": "Deadline "}, {"time": 1000}, {"plain": " for "}, {"user": 4}, {"code": "end"}])
        );
        assert_eq!(serde_json::from_value::<Text>(json).unwrap(), t);
        // An outbox row from before spans: text was a string.
        let old: Text = serde_json::from_str("\"**Hyperspace** game 1 · turn 3\"").unwrap();
        assert_eq!(old, Text::plain("**Hyperspace** game 1 · turn 3"));
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_date_time(0, None), "Thu 1 Jan 1970 00:00 UTC");
        assert_eq!(utc_date_time(NOW, None), "Mon 23 Nov 2026 18:00 UTC");
        assert_eq!(utc_date_time(NOW + 48 * H, Some(NOW)), "Wed 25 Nov 18:00 UTC");
        assert_eq!(utc_date_time(NOW + 40 * 24 * H, Some(NOW)), "Sat 2 Jan 2027 18:00 UTC");
        // 29 Feb 2024, 07:05, and a moment before the epoch.
        assert_eq!(utc_date_time(1_709_190_300_000, None), "Thu 29 Feb 2024 07:05 UTC");
        assert_eq!(utc_date_time(-60_000, None), "Wed 31 Dec 1969 23:59 UTC");
    }

    #[test]
    fn readable_times_relative_and_absolute() {
        assert_eq!(readable_time(NOW + 48 * H, NOW), "in 2 days, Wed 25 Nov 18:00 UTC");
        assert_eq!(readable_time(NOW - 3 * H, NOW), "3 hours ago, Mon 23 Nov 15:00 UTC");
        assert_eq!(relative_time(NOW + 47 * H, NOW), "in 2 days");
        assert_eq!(relative_time(NOW + H, NOW), "in 1 hour");
        assert_eq!(relative_time(NOW + 30 * 60_000, NOW), "in 30 minutes");
        assert_eq!(relative_time(NOW + 10_000, NOW), "in a few seconds");
        assert_eq!(relative_time(NOW - 90 * 24 * H, NOW), "3 months ago");
        assert_eq!(relative_time(NOW + 800 * 24 * H, NOW), "in 2 years");
    }

    #[test]
    fn first_lines_bounds_by_count() {
        let t = Text::plain("a\nb\n").strong("c").then("\nd\ne");
        assert_eq!(t.clone().first_lines(10), t);
        let cut = t.clone().first_lines(3);
        assert_eq!(cut.to_plain(), "a\nb\nc\n… (2 more lines)");
        assert_eq!(cut.spans()[1], Span::Strong("c".into()));
        assert_eq!(t.first_lines(1).to_plain(), "a\n… (4 more lines)");
    }
}
