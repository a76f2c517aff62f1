//! The deadline scheduler: when a phase's deadline falls, [`Service::tick`]
//! (reminders before it, resolution when it passes) and `resolve_phase`,
//! which submits drafts and defaults through the same `decide` path as a
//! player's order. A resolution commits only if the game's log and the
//! deadline row are still the ones it read, so of two schedulers one
//! resolves. Defaults are applied only when the deadline passes (or the
//! host forces it), never earlier, whatever secret picks are pending.

use super::advance::Advance;
use super::change::{Changed, Load, Moved};
use super::roster::Roster;
use super::settings::{Missed, Settings};
use super::{compose, OutMessage, Service, ServiceError, Text};
use orrery_engine::{CommandLine, GameId, Seat};
use orrery_games::AnyState;
use orrery_store::{Commit, DeadlineChange, DeadlineSet, DraftsChange, GameStatus, SeatRow, StoreError};

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
pub(super) fn length_for(settings: &Settings, kinds: &[String]) -> i64 {
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

/// What one [`Service::tick`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// Phases whose deadline was resolved (defaults applied, or the host
    /// told to decide).
    pub resolved: usize,
    /// Reminder DMs queued.
    pub reminders: usize,
}

impl Service {
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
    pub(super) async fn remind(&self, game: GameId, now: i64) -> Result<usize, ServiceError> {
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
        let names: Vec<String> = seats.iter().map(|s| s.name.clone()).collect();
        let label = format!("phase {} · {}", state.phase().number, state.phase().title(&names));
        let pending = state.pending();
        let mut out = Vec::new();
        // The players reaching their last reminder also get one nudge in
        // the game's channel.
        let mut late: Vec<&SeatRow> = Vec::new();
        for (s, points) in crossed {
            let all = s.reminders.as_deref().unwrap_or(settings.reminders_ms.as_slice());
            let last = all.iter().copied().filter(|&r| r > 0).min();
            let reaches_last = last.is_some_and(|l| points.contains(&l));
            for r in points {
                sent.mark(s.seat, r);
            }
            let Some(p) = pending.iter().find(|p| p.seat == s.seat && !p.submitted) else {
                continue;
            };
            let draft = drafts.iter().find(|x| x.seat == s.seat && x.seq == row.seq);
            if s.unattended() || draft.is_some_and(|x| x.ready) {
                continue;
            }
            let note = if draft.is_some() {
                " Your draft is saved but not final: `/sheet ready` marks it ready."
            } else {
                ""
            };
            // The channel's nudge names the player: never for a decision
            // whose owers are secret (the private reminder alone tells them).
            if reaches_last && !p.undisclosed {
                late.push(s);
            }
            out.push(OutMessage::to_dm(
                s.user,
                Text::plain("Reminder: ")
                    .strong(row.kind.name())
                    .then(format!(" game {} (", row.id))
                    .channel(row.channel_id)
                    .then(format!(
                        ", {label}) is waiting on you: {}. Due ",
                        p.prompt.trim_end().trim_end_matches('.')
                    ))
                    .time(d.due_at)
                    .then(format!(".{note}")),
            ));
        }
        let dms = out.len();
        if !late.is_empty() {
            let mut text = Text::plain("⏳ ");
            for (i, s) in late.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.append(Text::new().mention(s.user, s.name.clone()));
            }
            text.push_str(&format!(": game {} ({label}) is still waiting on you, due ", row.id));
            text.append(Text::new().time(d.due_at));
            text.push('.');
            let mut nudge = OutMessage::to_channel(row.channel_id, text);
            nudge.pings = late.iter().map(|s| s.user).collect();
            out.push(nudge);
        }
        // Only if the deadline is still the one read: of two schedulers, one
        // sends.
        let commit = Commit::any_seq(game, now)
            .if_deadline(Some(d.clone()))
            .with_deadline(DeadlineChange::Reminded(sent.to_value()));
        match self.try_commit(commit, &out).await {
            Ok(_) => Ok(dms),
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
        self.change(Load::Game(game), async |held| {
            let row = &held.row;
            if row.status != GameStatus::Active {
                return Ok(Changed::nothing(None));
            }
            let Some(state) = row.state.clone() else {
                return Ok(Changed::nothing(None));
            };
            let seats = self.store.seats(game).await?;
            let settings = Settings::of(row);
            let now = self.now_ms();
            let deadline = self.store.deadline(game).await?;
            if !force
                && !deadline
                    .as_ref()
                    .is_some_and(|d| d.due_at <= now && d.paused_remaining.is_none())
            {
                // Not due (extended, paused, or already resolved).
                return Ok(Changed::nothing(None));
            }
            // Whatever is written commits only if the log and the deadline are
            // still what was read here: of two schedulers, one resolves.
            let base = Commit::new(game, row.seq, now).if_deadline(deadline.clone());
            let phase = state.phase().number;
            let names = seats.names();
            if !force && deadline.as_ref().is_some_and(|d| d.phase != i64::from(phase)) {
                // A stale row (the phase moved on without a new deadline): give
                // the current phase its full time instead of cutting it short.
                let d = self.deadline_for(&settings, &state);
                return Ok(Changed::commit(base.with_deadline(DeadlineChange::Set(d)), vec![], None).if_lost(None));
            }
            let label = format!("phase {phase} · {}", state.phase().title(&names));
            if !force && settings.on_missed == Missed::Wait {
                let (waiting, pings) = compose::waiting_footer(row.kind, &state.pending(), &seats, compose::Due::Open);
                let text = Text::plain(format!("⏰ The deadline of game {} ({label}) has passed. ", row.id))
                    .and(waiting)
                    .then(". The host decides: ")
                    .code("/host force")
                    .then(" applies the defaults, ")
                    .code("/host extend")
                    .then(" gives more time.");
                let mut notice = OutMessage::to_channel(row.channel_id, text.clone());
                notice.pings = pings;
                let text = text.to_plain();
                return Ok(
                    Changed::commit(base.with_deadline(DeadlineChange::Clear), vec![notice], Some(text)).if_lost(None),
                );
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
            let (drafted, mut refused) = self.decide_drafts(row, &seats, &mut adv).await?;
            let mut applied: Vec<(Seat, CommandLine, bool)> = Vec::new();
            // Seats whose order sheet counted as it stood.
            let mut sheets: Vec<Seat> = Vec::new();
            // Whether sheets of seats that may not be named (who owes them
            // is secret) counted as they stood.
            let mut unnamed_sheets = false;
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
                            if p.sheet {
                                if p.undisclosed {
                                    unnamed_sheets = true;
                                } else {
                                    sheets.push(p.seat);
                                }
                                progressed = true;
                                if moved_on(&adv.state) {
                                    break 'outer;
                                }
                                continue;
                            }
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
            let auto_played = super::seats::autoplay(&mut adv, &seats, !settings.auto_resolve);
            let finished = adv.state.outcome().is_some();
            let why = if force {
                "The host forced the phase to resolve"
            } else {
                "⏰ Deadline passed"
            };
            let mut text = format!("{why} ({label}).");
            for seat in &drafted {
                text.push_str(&format!(" {}'s draft was submitted.", seats.name(*seat)));
            }
            if !sheets.is_empty() {
                text.push_str(&format!(
                    " The sheets of {} counted as they stood.",
                    seats.name_list(&sheets)
                ));
            }
            if unnamed_sheets {
                text.push_str(" The sheets not marked ready counted as they stood.");
            }
            if applied.is_empty() && drafted.is_empty() && sheets.is_empty() && !unnamed_sheets {
                text.push_str(" Nobody owed an order that has a default.");
            }
            for (seat, cmd, secret) in &applied {
                let name = seats.name(*seat);
                if *secret {
                    text.push_str(&format!(" {name}'s secret choice was made by default."));
                } else {
                    text.push_str(&format!(" {name} defaulted to `{cmd}`."));
                }
            }
            if let Some(line) = super::seats::autoplay_line(&auto_played, &seats) {
                text.push(' ');
                text.push_str(&line);
            }
            let next = if let Some(d) = self.next_deadline(&settings, &adv.before, &adv.state) {
                DeadlineChange::Set(d)
            } else {
                if !finished {
                    text.push_str(&format!(
                        " Still waiting on: {}; the host decides.",
                        compose::waiting_line(adv.state.kind(), &adv.state.pending(), &names)
                    ));
                }
                DeadlineChange::Clear
            };
            let mut head = Vec::new();
            for (seat, cmd, secret) in &applied {
                if let (true, Some(s)) = (*secret, seats.iter().find(|s| s.seat == *seat)) {
                    head.push(OutMessage::to_dm(
                        s.user,
                        format!(
                            "Game {}: the deadline passed, so your default was submitted: `{cmd}`.",
                            row.id
                        ),
                    ));
                }
            }
            head.append(&mut refused);
            // The log moves: drafts were submitted with these events (or are
            // stale), so none outlives the resolution.
            let drafts = if adv.events.is_empty() {
                DraftsChange::Keep
            } else {
                DraftsChange::ClearAll
            };
            let notes = vec![Text::from(text.as_str())];
            let moved = Moved::new(adv, seats, compose::Cause::Deadline, next)
                .notes(notes)
                .head(head)
                .base(base.with_drafts(drafts));
            Ok(Changed::moved(moved, Some(text)).if_lost(None))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{check_points, parse_kind_deadlines, ALL_KINDS, HOUR_MS, MAX_DEADLINE_MS};

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
        // A part with no decision named (found by the fuzzer).
        let e = parse_kind_deadlines("combat-card=2h,=2h").unwrap_err();
        assert!(e.contains("`=2h` names no decision"), "{e}");
        // Settings written before these fields existed still read.
        let old: Settings = serde_json::from_value(serde_json::json!({"deadline_ms": 1000, "paused": true})).unwrap();
        assert!(old.deadline_by_kind.is_empty() && old.time_of_day.is_none() && old.auto_resolve);
    }
}
