//! Seats changing hands in play: the host replaces, kicks or puts a seat
//! in civil disorder; automatic seats play their defaults.
//!
//! Civil disorder: a seat in disorder (or vacant after a kick) has its
//! decisions made by the ruleset's defaults as soon as it owes them, in the
//! same commit as the action that made it owe them. When every seat is
//! automatic nothing is played on its own: the deadline's defaults (or the
//! host) move the game on, one phase at a time.

use super::advance::Advance;
use super::change::{Changed, Load, Lobby, Moved, Then};
use super::roster::Roster;
use super::settings::Settings;
use super::{compose, user_err, Actor, OutMessage, Reply, Service, ServiceError, Text};
use orrery_engine::{CommandLine, GameId, Seat, UserId, Viewer};
use orrery_games::AnyState;
use orrery_store::{Commit, DeadlineChange, GameRow, GameStatus, SeatChange, SeatRow};

/// At most this many default decisions are played for automatic seats in
/// one go (a safety net; a phase needs far fewer).
pub(super) const AUTOPLAY_LIMIT: usize = 1000;

/// An order the platform played for a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Played {
    pub seat: Seat,
    pub line: CommandLine,
    /// The choice was hidden.
    pub secret: bool,
    /// Who owed it is hidden too: the channel never names the seat.
    pub undisclosed: bool,
    /// `Some(why)`: the seat's only order, played for whoever holds it
    /// ([`orrery_games::AnyState::forced_command`]); `None`: an automatic
    /// seat's default.
    pub forced: Option<String>,
}

/// Play what seats owe without choosing, until none does, adding the events
/// to `adv`: the defaults of automatic seats (civil disorder, vacant), and
/// any seat's forced order (the only one it has, which reveals nothing).
/// Returns what was played for whom. Nothing is played when no seat is
/// played by a person.
///
/// `drafting` (the game's auto-resolve is off): an automatic seat's secret
/// choice waits while a player still owes theirs in the same step (they
/// are drafting: submitting now would resolve the step under them); it is
/// played once every player is in (their drafts submitted), or at the
/// deadline.
pub(super) fn autoplay(adv: &mut Advance, seats: &[SeatRow], drafting: bool) -> Vec<Played> {
    let mut played = Vec::new();
    // Nobody plays here: not even the defaults run by themselves (computer
    // players are no one either: a table of them alone waits for the
    // deadlines or the host).
    if !seats.iter().any(SeatRow::person) {
        return played;
    }
    let automatic = |seat: Seat| seats.iter().any(|s| s.seat == seat && s.automatic());
    for _ in 0..AUTOPLAY_LIMIT {
        if adv.state.outcome().is_some() {
            break;
        }
        let pending = adv.state.pending();
        let players_drafting = drafting && pending.iter().any(|q| q.secret && !q.submitted && !automatic(q.seat));
        let next = pending.into_iter().filter(|p| !p.submitted).find_map(|p| {
            if let Some((line, why)) = adv.state.forced_command(p.seat) {
                return Some((p, line, Some(why)));
            }
            if automatic(p.seat) && !(p.secret && players_drafting) {
                return adv.state.default_command(p.seat).map(|line| (p, line, None));
            }
            None
        });
        let Some((p, line, forced)) = next else { break };
        match adv.play(p.seat, &line) {
            Ok(()) => played.push(Played {
                seat: p.seat,
                line,
                secret: p.secret,
                undisclosed: p.undisclosed,
                forced,
            }),
            Err(e) => {
                tracing::warn!(seat = %p.seat, "an order played for the seat was refused: {e}");
                break;
            }
        }
    }
    played
}

/// "bob's seat", or "bob's seat (vacant)" after a kick: the seat a host
/// hands to someone else, as the channel is told.
pub(super) fn seat_was(old: &SeatRow) -> String {
    if old.vacant {
        format!("{}'s seat (vacant)", old.name)
    } else {
        format!("{}'s seat", old.name)
    }
}

/// The public lines about what was played for seats: civil disorder's
/// defaults in one line, each reason for forced orders in one.
pub(super) fn autoplay_line(played: &[Played], seats: &[SeatRow]) -> Option<String> {
    let mut lines = Vec::new();
    let defaults: Vec<String> = played
        .iter()
        .filter(|p| p.forced.is_none() && !p.undisclosed)
        .map(|p| {
            if p.secret {
                format!("{}: a secret choice", seats.name(p.seat))
            } else {
                format!("{}: `{}`", seats.name(p.seat), p.line)
            }
        })
        .collect();
    if !defaults.is_empty() {
        lines.push(format!("🤖 Civil disorder, defaults played — {}.", defaults.join("; ")));
    }
    let mut reasons: Vec<(&str, Vec<Seat>)> = Vec::new();
    for p in played.iter().filter(|p| !p.undisclosed) {
        let Some(why) = p.forced.as_deref() else { continue };
        match reasons.iter_mut().find(|(w, _)| *w == why) {
            Some((_, who)) if !who.contains(&p.seat) => who.push(p.seat),
            Some(_) => {}
            None => reasons.push((why, vec![p.seat])),
        }
    }
    for (why, who) in reasons {
        let mut why = why.to_string();
        if let Some(first) = why.get(..1) {
            why.replace_range(..1, &first.to_uppercase());
        }
        lines.push(format!("⏩ {why}: played for {}.", seats.name_list(&who)));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

impl Service {
    /// A change whose own events (a seat's order, a resignation) are in
    /// `adv`, moved on in the same commit: what automatic seats then owe
    /// played (said in a line after `notes`), and the deadline of a phase
    /// (or step) that begins.
    pub(super) fn moved_with_autoplay(
        &self,
        row: &GameRow,
        seats: Vec<SeatRow>,
        mut adv: Advance,
        cause: compose::Cause,
        mut notes: Vec<Text>,
    ) -> Moved {
        let settings = Settings::of(row);
        let played = autoplay(&mut adv, &seats, !settings.auto_resolve);
        notes.extend(autoplay_line(&played, &seats).map(Text::from));
        let deadline = self
            .next_deadline(&settings, &adv.before, &adv.state)
            .map_or(DeadlineChange::Keep, DeadlineChange::Set);
        Moved::new(adv, seats, cause, deadline).notes(notes)
    }

    /// The seat a host tool names, checked to exist.
    pub(super) fn seat_row<'a>(row: &GameRow, seats: &'a [SeatRow], seat: Seat) -> Result<&'a SeatRow, ServiceError> {
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
        let row = self.hosted_in_play(actor, game, "replace a player").await?;
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let old = Self::seat_row(row, &seats, seat)?.clone();
            if let Some(other) = seats.iter().find(|s| s.user == user && s.seat != seat) {
                return user_err(format!(
                    "{name} already has {} in game {}; a player can't hold two seats.",
                    other.seat, row.id
                ));
            }
            if old.played_by(user) {
                return user_err(format!("{name} already plays {seat} in game {}.", row.id));
            }
            let state = self.state_of(row)?;
            let mut new_seats = seats.clone();
            if let Some(s) = new_seats.iter_mut().find(|s| s.seat == seat) {
                s.user = user;
                s.name = name.clone();
                s.vacant = false;
                s.disorder = false;
                s.reminders = None;
                s.bot = None;
            }
            let was = seat_was(&old);
            let mut out = vec![OutMessage::to_channel(
                row.channel_id,
                format!("🔁 The host gave {was} in game {} to {name}.", row.id),
            )];
            // A computer player handing its seat back is told nothing.
            if !old.vacant && !old.is_bot() {
                out.push(OutMessage::to_dm(
                    old.user,
                    format!("The host gave your seat in game {} to {name}.", row.id),
                ));
            }
            // The new player's private view of the game as it stands, and what
            // they owe now.
            out.push(OutMessage {
                board: Some(super::BoardRef {
                    game: row.id,
                    viewer: Viewer::Seat(seat),
                    seq: row.seq,
                }),
                ..OutMessage::to_dm(
                    user,
                    Text::plain(format!("You now play {}'s seat in ", old.name))
                        .strong(row.kind.name())
                        .then(format!(" game {} (", row.id))
                        .channel(row.channel_id)
                        .then(format!(
                            "). This is your view of the board · Phase {} · {}",
                            state.phase().number,
                            state.phase().title(&new_seats.names())
                        )),
                )
            });
            let new_row = new_seats.iter().find(|s| s.seat == seat).expect("seat exists");
            let due = self.due_of(row).await?;
            for p in state.pending().iter().filter(|p| p.seat == seat && !p.submitted) {
                out.push(compose::prompt(row, &state, p, new_row, &new_seats, due));
            }
            let change = SeatChange {
                player: Some((user, name.clone())),
                disorder: Some(false),
                vacant: Some(false),
                bot: Some(None),
                ..SeatChange::new(seat)
            };
            let reply = Reply::private(format!("{name} now plays {seat} in game {}.", row.id));
            Ok(Changed::commit(
                Commit::new(row.id, row.seq, self.now_ms()).with_seat(change),
                out,
                reply,
            ))
        })
        .await
    }

    /// Host: remove a player. In the lobby the seat goes; in play it stays,
    /// vacant and in civil disorder, until the host replaces the player.
    pub(super) async fn kick(&self, actor: &Actor, game: Option<GameId>, seat: Seat) -> Result<Reply, ServiceError> {
        let row = self.hosted(actor, game, "kick a player").await?;
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let target = Self::seat_row(row, &seats, seat)?.clone();
            if target.user == row.host && !target.vacant {
                return user_err("The host can't kick themselves; to end the game for everyone, ask the players.");
            }
            match row.status {
                GameStatus::Lobby => {
                    let reply = Reply::public(format!("The host removed {} from game {}.", target.name, row.id));
                    return Ok(Changed::lobby(Lobby::Unseat(target.user), reply));
                }
                GameStatus::Active => {}
                _ => return user_err(format!("Game {} is over.", row.id)),
            }
            if target.vacant {
                return user_err(format!("{seat} of game {} is already vacant.", row.id));
            }
            let state = self.state_of(row)?;
            let mut new_seats = seats.clone();
            if let Some(s) = new_seats.iter_mut().find(|s| s.seat == seat) {
                s.vacant = true;
                s.disorder = true;
                s.bot = None;
            }
            let notes = vec![format!(
                "🚪 The host removed {} from game {}: {seat} is vacant and in civil disorder (defaults every phase) until the host replaces the player with `/host replace`.",
                target.name, row.id
            )];
            let extra = vec![OutMessage::to_dm(
                target.user,
                format!("The host removed you from game {}.", row.id),
            )];
            let change = SeatChange {
                vacant: Some(true),
                disorder: Some(true),
                bot: target.bot.is_some().then_some(None),
                ..SeatChange::new(seat)
            };
            Ok(self.automatic_played(row, &state, new_seats, change, notes, extra))
        })
        .await
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
        let row = self.hosted_in_play(actor, game, "set civil disorder").await?;
        self.change(Load::InPlay(row.id), async |held| {
            let row = &held.row;
            let seats = self.store.seats(row.id).await?;
            let target = Self::seat_row(row, &seats, seat)?.clone();
            if target.is_bot() {
                return user_err(format!(
                    "{} plays {seat} of game {}: a computer player is not put in civil disorder. Give the seat to a person with `/host replace seat:… player:@…`, or remove it with `/host kick`.",
                    target.name, row.id
                ));
            }
            if target.vacant && !on {
                return user_err(format!(
                    "{seat} of game {} has no player; give it one with `/host replace` instead.",
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
            let state = self.state_of(row)?;
            let mut new_seats = seats.clone();
            if let Some(s) = new_seats.iter_mut().find(|s| s.seat == seat) {
                s.disorder = on;
            }
            let notes = vec![if on {
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
            Ok(self.automatic_played(row, &state, new_seats, change, notes, vec![]))
        })
        .await
    }

    /// A seat change, with what automatic seats owe now played, the notes
    /// (answered to the host too) and the usual announcements; the drafts
    /// go in after it if the seat was the last one they waited for.
    pub(super) fn automatic_played(
        &self,
        row: &GameRow,
        state: &AnyState,
        seats: Vec<SeatRow>,
        change: SeatChange,
        mut notes: Vec<String>,
        extra: Vec<OutMessage>,
    ) -> Changed<Reply> {
        let settings = Settings::of(row);
        let drafting = !settings.auto_resolve;
        let mut adv = Advance::new(state, row.seq);
        let played = autoplay(&mut adv, &seats, drafting);
        if let Some(line) = autoplay_line(&played, &seats) {
            notes.push(line);
        }
        let deadline = self
            .next_deadline(&settings, &adv.before, &adv.state)
            .map_or(DeadlineChange::Keep, DeadlineChange::Set);
        let reply = Reply::private(notes.join("\n"));
        let moved = Moved::new(adv, seats, compose::Cause::Host("changed a seat".into()), deadline)
            .notes(notes.iter().map(|n| Text::from(n.as_str())).collect())
            .head(extra)
            .base(Commit::new(row.id, row.seq, self.now_ms()).with_seat(change));
        // The seat that just became automatic may have been the last one
        // the drafts were waiting for.
        let then = if drafting { Then::SubmitReadyDrafts } else { Then::Done };
        Changed::moved(moved, reply).then(then)
    }
}
