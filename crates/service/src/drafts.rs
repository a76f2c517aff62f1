//! Draft orders and "ready" flags, for games whose host turned
//! auto-resolve off (`/host settings auto_resolve:false`).
//!
//! With auto-resolve off, a seat's submission for a *secret simultaneous*
//! decision ([`orrery_engine::Pending::secret`], e.g. Hyperspace's
//! `combat-card`) is checked by the normal `decide` path against the
//! current state but kept as a **draft** in the `drafts` table instead of
//! being appended to the log. Submitting again replaces the draft (and
//! clears its ready flag); `/sheet ready` marks it final. When every seat
//! owing the decision has a ready draft, all drafts go through `decide` in
//! one append. When the deadline passes (or the host forces), the existing
//! drafts, ready or not, are submitted first and defaults are applied only
//! for seats without one. Non-secret decisions are never drafted. Turning
//! auto-resolve back on submits the saved drafts at once.
//!
//! Drafts are private: the channel learns only "X has a draft (not ready)"
//! and "X is ready"; replies and errors speak only of the asker's own
//! draft. A draft is tied to the log position it was checked against: if
//! the log moves without it (an undo or roll-back, a seat change that plays an automatic seat), it is discarded
//! and its player told by DM to submit again.

use super::advance::Advance;
use super::change::{Changed, Load, Moved};
use super::roster::Roster;
use super::{compose, user_err, Actor, OutMessage, Reply, Service, ServiceError, Settings, Text};
use orrery_engine::{CommandLine, GameId, Seat};
use orrery_games::AnyState;
use orrery_store::{Commit, DeadlineChange, DraftRow, DraftsChange, GameRow, GameStatus, SeatRow, StoreError};

fn channel_post(row: &GameRow, text: String) -> OutMessage {
    OutMessage::to_channel(row.channel_id, text)
}

fn dm(seats: &[SeatRow], seat: Seat, text: String) -> Option<OutMessage> {
    let s = seats.iter().find(|s| s.seat == seat && !s.vacant)?;
    Some(OutMessage::to_dm(s.user, text))
}

/// Whether every seat owing the secret decision is ready: it has a ready
/// draft at log position `seq`, or it is `also` (about to be marked
/// ready), or it is automatic (seats in civil disorder are always ready:
/// their defaults are played as soon as the players' drafts are in).
/// `false` when nobody owes a secret decision.
fn all_ready(state: &AnyState, seats: &[SeatRow], drafts: &[DraftRow], seq: i64, also: Option<Seat>) -> bool {
    let owing: Vec<Seat> = state
        .pending()
        .into_iter()
        .filter(|p| p.secret && !p.sheet && !p.submitted)
        .map(|p| p.seat)
        .collect();
    let automatic = |s: &Seat| seats.iter().any(|r| r.seat == *s && r.automatic());
    !owing.is_empty()
        && owing
            .iter()
            .all(|s| Some(*s) == also || automatic(s) || drafts.iter().any(|d| d.seat == *s && d.seq == seq && d.ready))
}

impl Service {
    /// The order path's hook: if the game's auto-resolve is off and `seat`
    /// owes a secret decision, check `line` as an order would be and keep
    /// it as the seat's draft. `None`: not a draft, submit it normally.
    /// Decided under the game lock, with `row` freshly loaded.
    pub(super) async fn draft_if_held(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
        state: &AnyState,
        settings: &super::Settings,
        seat: Seat,
        line: &CommandLine,
    ) -> Result<Option<Changed<Reply>>, ServiceError> {
        // Order sheets hold their own lines and ready marks in the game's
        // log: they are never drafted.
        if !state.pending().iter().any(|p| p.seat == seat && p.secret && !p.sheet) {
            return Ok(None);
        }
        if settings.auto_resolve {
            return Ok(None);
        }
        if let Err(e) = state.decide(seat, line) {
            return Err(ServiceError::User(
                super::orders::explain(&e, state, seat, &seats.names()).into(),
            ));
        }
        let drafts = self.store.drafts(row.id).await?;
        let old = drafts.iter().find(|d| d.seat == seat && d.seq == row.seq);
        let name = seats.name(seat);
        let mut out = Vec::new();
        if old.is_none_or(|d| d.ready) {
            out.push(channel_post(
                row,
                format!("{name} has a draft for game {} (not ready).", row.id),
            ));
        }
        let save = DraftsChange::Save {
            seat,
            line: line.to_string(),
            ready: false,
        };
        let reply = Reply::private(format!(
            "Draft saved for game {}: `{line}` (not final). Mark it final with `/sheet ready`; submitting again replaces it. If the deadline passes first, this draft is submitted as it is.",
            row.id
        ));
        Ok(Some(Changed::commit(
            Commit::new(row.id, row.seq, self.now_ms()).with_drafts(save),
            out,
            reply,
        )))
    }

    /// `/sheet ready`: mark the actor's draft final; when every seat owing
    /// the decision is ready, submit all the drafts in one append.
    pub(super) async fn ready(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        if self.owes_sheet(actor, game).await? {
            return self.sheet_edit(actor, game, orrery_engine::SheetVerb::Ready).await;
        }
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let Some(me) = seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat) else {
            return user_err(format!(
                "You are not playing in game {}; only its players have drafts.",
                row.id
            ));
        };
        self.change(Load::Game(row.id), async |held| {
            let row = &held.row;
            match row.status {
                GameStatus::Active => {}
                GameStatus::Lobby => return user_err(format!("Game {} hasn't started yet.", row.id)),
                _ => return user_err(format!("Game {} is over.", row.id)),
            }
            let state = self.state_of(row)?;
            let drafts = self.store.drafts(row.id).await?;
            let Some(mine) = drafts.iter().find(|d| d.seat == me) else {
                if Settings::of(row).auto_resolve {
                    return user_err(format!(
                        "Game {} has auto-resolve on: secret choices count as soon as they are submitted, so there is nothing to mark ready.",
                        row.id
                    ));
                }
                return user_err(format!(
                    "You have no draft in game {} to mark ready. Submit your order first: while auto-resolve is off, secret choices are kept as drafts.",
                    row.id
                ));
            };
            if mine.seq != row.seq {
                return user_err(format!(
                    "Your draft in game {} was made before the game moved on, so it no longer counts. Submit your order again.",
                    row.id
                ));
            }
            if mine.ready {
                return user_err(format!(
                    "Your draft for game {} is already marked ready. Submitting a new order replaces it.",
                    row.id
                ));
            }
            let name = seats.name(me);
            if !all_ready(&state, &seats, &drafts, row.seq, Some(me)) {
                let out = vec![channel_post(row, format!("{name} is ready in game {}.", row.id))];
                let save = DraftsChange::Save {
                    seat: me,
                    line: mine.line.clone(),
                    ready: true,
                };
                let reply = Reply::private(format!(
                    "Your draft for game {} is final: `{}`. It is submitted when everyone is ready, or at the deadline.",
                    row.id, mine.line
                ));
                return Ok(Changed::commit(
                    Commit::new(row.id, row.seq, self.now_ms()).with_drafts(save),
                    out,
                    reply,
                ));
            }
            // Everyone is ready: submit every draft, in one append.
            let head = format!(
                "{name} is ready in game {}. Everyone is ready: the drafts are submitted.",
                row.id
            );
            let moved = self.all_drafts_in(row, &seats, &state, head).await?;
            Ok(Changed::moved(
                moved,
                Reply::private(format!(
                    "Your draft for game {} is final, and everyone is ready: the drafts were submitted.",
                    row.id
                )),
            ))
        })
        .await
    }

    /// Every current draft submitted, then what automatic seats owe, in one
    /// append, announced by `head`. The caller has checked that every seat
    /// owing the secret decision is ready (or automatic).
    async fn all_drafts_in(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
        state: &AnyState,
        head: String,
    ) -> Result<Moved, ServiceError> {
        let mut adv = Advance::new(state, row.seq);
        let (_, refused) = self.decide_drafts(row, seats, &mut adv).await?;
        let auto_played = super::seats::autoplay(&mut adv, seats, true);
        let deadline = self.next_deadline(&Settings::of(row), &adv.before, &adv.state);
        let mut notes = vec![Text::from(head)];
        notes.extend(super::seats::autoplay_line(&auto_played, seats).map(Text::from));
        Ok(self.drafts_in(row, seats, adv, deadline).notes(notes).head(refused))
    }

    /// Drafts going in: their events (and what followed), the game's
    /// drafts deleted, the next deadline if one begins.
    fn drafts_in(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
        adv: Advance,
        deadline: Option<orrery_store::DeadlineSet>,
    ) -> Moved {
        let deadline = deadline.map_or(DeadlineChange::Keep, DeadlineChange::Set);
        Moved::new(adv, seats.to_vec(), compose::Cause::Drafts, deadline)
            .base(Commit::new(row.id, row.seq, self.now_ms()).with_drafts(DraftsChange::ClearAll))
    }

    /// After a seat change (civil disorder, kick): if every seat owing the
    /// secret decision is now ready or automatic, and players have drafts,
    /// the drafts go in now instead of waiting for the deadline. `None`:
    /// not yet.
    pub(super) async fn drafts_if_all_ready(&self, row: &GameRow) -> Result<Option<Moved>, ServiceError> {
        let (GameStatus::Active, Some(state)) = (row.status, row.state.clone()) else {
            return Ok(None);
        };
        let seats = self.store.seats(row.id).await?;
        let drafts: Vec<DraftRow> = self
            .store
            .drafts(row.id)
            .await?
            .into_iter()
            .filter(|d| d.seq == row.seq)
            .collect();
        let all_ready = !drafts.is_empty() && all_ready(&state, &seats, &drafts, row.seq, None);
        if !all_ready {
            return Ok(None);
        }
        let head = format!("Everyone is ready in game {}: the drafts are submitted.", row.id);
        Ok(Some(self.all_drafts_in(row, &seats, &state, head).await?))
    }

    /// The host turned auto-resolve back on: the current drafts go in now,
    /// ready or not, as if each had just been submitted (a simultaneous
    /// decision then resolves once every seat is in, as usual). `None`:
    /// nothing to submit.
    pub(super) async fn drafts_flushed(&self, row: &GameRow) -> Result<Option<Moved>, ServiceError> {
        let (GameStatus::Active, Some(state)) = (row.status, row.state.clone()) else {
            return Ok(None);
        };
        let seats = self.store.seats(row.id).await?;
        let mut adv = Advance::new(&state, row.seq);
        let (done, refused) = self.decide_drafts(row, &seats, &mut adv).await?;
        // Auto-resolve is on now: automatic seats play what they held back.
        let auto_played = super::seats::autoplay(&mut adv, &seats, false);
        if adv.events.is_empty() && refused.is_empty() {
            return Ok(None);
        }
        let deadline = self.next_deadline(&Settings::of(row), &adv.before, &adv.state);
        let who: Vec<String> = done.iter().map(|s| seats.name(*s)).collect();
        let mut notes = Vec::new();
        if !who.is_empty() {
            notes.push(Text::from(format!(
                "Auto-resolve is on again: the drafts of {} were submitted.",
                who.join(", ")
            )));
        }
        notes.extend(super::seats::autoplay_line(&auto_played, &seats).map(Text::from));
        Ok(Some(
            self.drafts_in(row, &seats, adv, deadline).notes(notes).head(refused),
        ))
    }

    /// Submit the game's drafts of the current log position through
    /// `decide`, seat by seat, adding their events to `adv`. Returns the seats whose drafts went in,
    /// and DMs for drafts that were refused (they are deleted with the
    /// append, so their players are told to submit again). Stale drafts are
    /// left to [`Service::discard_stale_drafts`].
    pub(super) async fn decide_drafts(
        &self,
        row: &GameRow,
        seats: &[SeatRow],
        adv: &mut Advance,
    ) -> Result<(Vec<Seat>, Vec<OutMessage>), ServiceError> {
        let mut done = Vec::new();
        let mut refused = Vec::new();
        for d in self.store.drafts(row.id).await? {
            if d.seq != row.seq {
                continue;
            }
            let decided = CommandLine::parse(&d.line)
                .map_err(|e| e.to_string())
                .and_then(|line| adv.play(d.seat, &line).map_err(|e| e.to_string()));
            match decided {
                Ok(()) => done.push(d.seat),
                Err(why) => {
                    tracing::warn!(game = %row.id, seat = %d.seat, "draft refused at submission: {why}");
                    refused.extend(dm(
                        seats,
                        d.seat,
                        format!(
                            "Game {}: your draft `{}` could not be submitted ({why}). Please submit your order again.",
                            row.id, d.line
                        ),
                    ));
                }
            }
        }
        Ok((done, refused))
    }

    /// Discard drafts made against a log position the game has moved past
    /// (an undo or roll-back, a seat change that plays an automatic seat) and tell each player by DM to submit
    /// again; only the game `only`, if given. Returns how many were
    /// discarded.
    pub(super) async fn discard_stale_drafts(&self, only: Option<GameId>) -> Result<usize, ServiceError> {
        let stale: Vec<DraftRow> = self
            .store
            .stale_drafts()
            .await?
            .into_iter()
            .filter(|d| only.is_none_or(|g| g == d.game_id))
            .collect();
        let mut n = 0;
        for d in stale {
            let seats = self.store.seats(d.game_id).await?;
            let out: Vec<OutMessage> = dm(
                &seats,
                d.seat,
                format!(
                    "Game {}: the game moved on since you drafted `{}` (an undo, a roll-back or a seat change), so that draft was discarded. Please submit your order again.",
                    d.game_id, d.line
                ),
            )
            .into_iter()
            .collect();
            // Only if that draft is still there: of two schedulers, one tells.
            let discard = DraftsChange::Discard(vec![d.clone()]);
            match self
                .try_commit(Commit::any_seq(d.game_id, self.now_ms()).with_drafts(discard), &out)
                .await
            {
                Ok(_) => n += 1,
                Err(StoreError::Moved(_) | StoreError::WrongStatus { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(n)
    }
}
