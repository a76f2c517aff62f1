//! The one change pipeline. Every request that changes a game goes through
//! [`Service::change`]: take the game's lock, load the game once, let the
//! request decide ([`Changed`]: what to write and what to answer), compose
//! the announcement of a game that moved, commit, and run the follow-up
//! the change calls for under the same lock. Request handlers decide; they
//! never lock, reload or commit themselves.

use super::advance::Advance;
use super::compose::{self, Cause};
use super::{OutMessage, Service, ServiceError, Text};
use orrery_engine::GameId;
use orrery_engine::UserId;
use orrery_store::{Commit, DeadlineChange, GameRow, GameStatus, SeatRow, StoreError};

/// Where a change starts from.
pub(super) enum Load {
    /// Read the game under its lock.
    Game(GameId),
    /// [`Load::Game`], refused unless the game is in play.
    InPlay(GameId),
    /// The game and its roster as read before the lock, when this
    /// process's change count was `since`: read again under the lock only
    /// if this process changed the game meanwhile (a change by another
    /// process is caught by the commit's check of the log position).
    Read(Box<Read>),
}

/// A game read before its lock ([`Load::Read`]).
pub(super) struct Read {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub watchers: Vec<UserId>,
    pub since: u64,
}

/// The game as a change sees it, under its lock.
pub(super) struct Held {
    pub row: GameRow,
    /// Its seats and spectators, when they were read with it.
    pub roster: Option<(Vec<SeatRow>, Vec<UserId>)>,
}

/// What a request decided: what to write, what to answer, and what
/// follows under the same lock.
#[must_use]
pub(super) struct Changed<T> {
    write: Write,
    reply: T,
    /// The answer when the write lost a race (the log, the deadline or the
    /// drafts moved meanwhile: another scheduler got there first). `None`:
    /// the asker is told the game is busy and may try again.
    if_lost: Option<T>,
    then: Then,
}

enum Write {
    Nothing,
    /// A change built whole by the request (the clock, settings, seats,
    /// drafts), with the messages announcing it.
    Commit(Box<Commit>, Vec<OutMessage>),
    /// The game moved: the pipeline composes the announcement.
    Moved(Box<Moved>),
    /// A lobby's seats or its closing (no log yet).
    Lobby(Lobby),
}

/// A game that moved: decided events in an [`Advance`], and what the
/// announcement of them is composed from.
pub(super) struct Moved {
    pub adv: Advance,
    pub seats: Vec<SeatRow>,
    pub cause: Cause,
    /// Public lines beyond the events' narration ([`compose::Ctx::notes`]).
    pub notes: Vec<Text>,
    pub deadline: DeadlineChange,
    /// Messages before the announcement (a default's DM, refused drafts, a
    /// removed player's notice).
    pub head: Vec<OutMessage>,
    /// The commit the events go into, with its conditions and other
    /// changes (a seat, the drafts). `None`: the game's log as read.
    pub base: Option<Commit>,
}

impl Moved {
    pub fn new(adv: Advance, seats: Vec<SeatRow>, cause: Cause, deadline: DeadlineChange) -> Self {
        Moved {
            adv,
            seats,
            cause,
            notes: Vec::new(),
            deadline,
            head: Vec::new(),
            base: None,
        }
    }

    pub fn notes(mut self, notes: Vec<Text>) -> Self {
        self.notes = notes;
        self
    }

    pub fn head(mut self, head: Vec<OutMessage>) -> Self {
        self.head = head;
        self
    }

    pub fn base(mut self, base: Commit) -> Self {
        self.base = Some(base);
        self
    }
}

/// A lobby change.
pub(super) enum Lobby {
    /// Seat a player, with what they picked for their seat, if anything.
    Seat {
        user: UserId,
        name: String,
        pick: Option<String>,
    },
    /// A seated player picks anew.
    Pick {
        user: UserId,
        pick: String,
    },
    /// Seat a computer player ([`orrery_store::bot_user`]'s id).
    Bot {
        user: UserId,
        name: String,
        level: orrery_store::BotLevel,
    },
    Unseat(UserId),
    Close,
}

/// What follows a written change under the same lock.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Then {
    Done,
    /// A seat became automatic: if every seat owing the secret decision is
    /// now ready or automatic, the drafts go in.
    SubmitReadyDrafts,
    /// Auto-resolve is on again: the drafts go in now, ready or not.
    FlushDrafts,
}

impl<T> Changed<T> {
    /// Nothing to write: the request only answers.
    pub fn nothing(reply: T) -> Self {
        Self::of(Write::Nothing, reply)
    }

    pub fn commit(commit: Commit, out: Vec<OutMessage>, reply: T) -> Self {
        Self::of(Write::Commit(Box::new(commit), out), reply)
    }

    pub fn moved(moved: Moved, reply: T) -> Self {
        Self::of(Write::Moved(Box::new(moved)), reply)
    }

    pub fn lobby(change: Lobby, reply: T) -> Self {
        Self::of(Write::Lobby(change), reply)
    }

    fn of(write: Write, reply: T) -> Self {
        Changed {
            write,
            reply,
            if_lost: None,
            then: Then::Done,
        }
    }

    /// Answer `reply` instead if the write loses a race.
    pub fn if_lost(mut self, reply: T) -> Self {
        self.if_lost = Some(reply);
        self
    }

    pub fn then(mut self, then: Then) -> Self {
        self.then = then;
        self
    }
}

impl Service {
    /// Change a game: lock it, load it, `decide`, write what was decided
    /// (composing the announcement of a game that moved), and run the
    /// follow-up, all under the lock. On an error nothing was written.
    pub(super) async fn change<T>(
        &self,
        load: Load,
        decide: impl AsyncFnOnce(&Held) -> Result<Changed<T>, ServiceError>,
    ) -> Result<T, ServiceError> {
        let (_guard, held) = match load {
            Load::Game(id) | Load::InPlay(id) => {
                let guard = self.lock(id).await?;
                let row = self.reload(id).await?;
                if matches!(load, Load::InPlay(_)) {
                    Self::active(&row)?;
                }
                (guard, Held { row, roster: None })
            }
            Load::Read(read) => {
                let Read {
                    row,
                    seats,
                    watchers,
                    since,
                } = *read;
                let guard = self.lock(row.id).await?;
                let (row, seats, watchers) = if self.changed_since(row.id, since) {
                    let (seats, watchers) = self.store.roster(row.id).await?;
                    (self.reload(row.id).await?, seats, watchers)
                } else {
                    (row, seats, watchers)
                };
                (
                    guard,
                    Held {
                        row,
                        roster: Some((seats, watchers)),
                    },
                )
            }
        };
        let changed = decide(&held).await?;
        let watchers = held.roster.as_ref().map(|(_, w)| w.as_slice());
        let then = changed.then;
        let quiet = changed.if_lost.is_some();
        let reply = match self.write_change(&held.row, changed.write, watchers, quiet).await {
            Ok(()) => changed.reply,
            Err(ServiceError::Busy(_)) if changed.if_lost.is_some() => {
                return Ok(changed.if_lost.expect("checked"));
            }
            Err(e) => return Err(e),
        };
        match then {
            Then::Done => {}
            Then::SubmitReadyDrafts => {
                self.follow_up(held.row.id, Then::SubmitReadyDrafts).await?;
            }
            Then::FlushDrafts => {
                // The change is saved either way; drafts that could not go
                // in now stay drafts (submitted by `/sheet ready` or at
                // the deadline).
                if let Err(e) = self.follow_up(held.row.id, Then::FlushDrafts).await {
                    tracing::warn!(game = %held.row.id, "drafts not submitted when auto-resolve was turned on: {e}");
                }
            }
        }
        Ok(reply)
    }

    /// A follow-up under the lock already held: the game read again, the
    /// drafts' change decided and written. Returns whether it wrote.
    async fn follow_up(&self, game: GameId, then: Then) -> Result<bool, ServiceError> {
        let row = self.reload(game).await?;
        let moved = match then {
            Then::Done => None,
            Then::SubmitReadyDrafts => self.drafts_if_all_ready(&row).await?,
            Then::FlushDrafts => self.drafts_flushed(&row).await?,
        };
        let Some(moved) = moved else { return Ok(false) };
        self.write_change(&row, Write::Moved(Box::new(moved)), None, false)
            .await?;
        Ok(true)
    }

    /// The one place a decided change is written. A lost race is
    /// [`ServiceError::Busy`]; `quiet`: so is a game no longer in the
    /// status read (the scheduler's changes, for which that means there is
    /// nothing left to do).
    async fn write_change(
        &self,
        row: &GameRow,
        write: Write,
        watchers: Option<&[UserId]>,
        quiet: bool,
    ) -> Result<(), ServiceError> {
        let lost = |e: StoreError| match e {
            StoreError::Conflict { .. } | StoreError::Moved(_) | StoreError::WrongStatus { .. } => {
                ServiceError::Busy(row.id)
            }
            e => e.into(),
        };
        let commit = async |commit: Commit, out: Vec<OutMessage>| match quiet {
            true => self.write(commit, &out, watchers).await.map(drop).map_err(lost),
            false => self.commit_seen(commit, &out, watchers).await.map(drop),
        };
        match write {
            Write::Nothing => Ok(()),
            Write::Commit(c, out) => commit(*c, out).await,
            Write::Moved(m) => {
                let Moved {
                    adv,
                    seats,
                    cause,
                    notes,
                    deadline,
                    head,
                    base,
                } = *m;
                let due = self.due_after(row, &deadline).await?;
                let mut out = head;
                out.extend(compose::after_action(&compose::Ctx {
                    row,
                    seats: &seats,
                    adv: &adv,
                    due,
                    cause,
                    notes,
                }));
                let base = base.unwrap_or_else(|| Commit::new(row.id, row.seq, self.now_ms()));
                let c = base
                    .with_snapshots(adv.snapshots())
                    .with_events(adv.events, adv.state)
                    .with_deadline(deadline);
                commit(c, out).await
            }
            Write::Lobby(change) => {
                let written = match change {
                    Lobby::Seat { user, name, pick } => self
                        .store
                        .add_seat_picking(row.id, user, &name, pick.as_deref())
                        .await
                        .map(drop),
                    Lobby::Pick { user, pick } => self.store.set_pick(row.id, user, &pick).await,
                    Lobby::Bot { user, name, level } => self.store.add_bot(row.id, user, &name, level).await.map(drop),
                    Lobby::Unseat(user) => self.store.remove_seat(row.id, user).await.map(drop),
                    Lobby::Close => {
                        self.store
                            .set_status(row.id, GameStatus::Abandoned, self.now_ms())
                            .await
                    }
                };
                self.touched(row.id);
                written.map_err(lost)
            }
        }
    }
}
