//! The transport-agnostic service: an actor and a request in, a reply out,
//! and channel posts / DMs queued in the outbox in the same transaction as
//! the events they announce. Discord, the terminal playtest and the tests
//! all drive this same code.

// The one path every change takes, and the values it is built from.
mod advance;
mod bots;
mod change;
mod commit;
mod compose;
mod message;
mod text;
// Requests, by concern.
mod drafts;
pub mod grammar;
mod health;
mod host_clock;
mod lobby;
mod naming;
mod orders;
mod players;
mod private;
mod reading;
mod resign;
mod rewind;
mod roster;
mod rules_page;
mod scheduling;
mod seats;
mod settings;
mod sheets;
mod spectators;
// Running it.
mod clock;
mod delivery;
pub mod runtime;
pub mod slash;
mod transport;

pub use clock::{Clock, FileClock, ManualClock, SystemClock};
pub use compose::bare_label;
pub use health::Health;
pub use lobby::ADD_BOT;
pub use message::{Act, BoardRef, Choice, Op, OutMessage, Reply, Slot, Target};
pub use naming::{find_seat, name_list, phase_choices, seat_choices, section_choices, SeatRef};
pub use orders::{complete_from, players_as_seats, STALE_PROMPT, UNDONE_PROMPT};
pub use orrery_store::{is_bot_user, BotLevel};
pub use reading::compose_outcome;
pub use resign::RESIGN_YES;
pub use rules_page::{rules_intro, rules_section, rules_sections, section_names};
pub use scheduling::TickReport;
pub use settings::{
    format_duration, parse_duration, parse_kind_deadlines, parse_private, parse_time_of_day, Missed, Settings,
    SettingsChange, TimeOfDay, ALL_KINDS, HOUR_MS,
};
pub use text::{readable_time, relative_time, utc_date_time, Span, Text};
pub use transport::{Delivery, Opened, Posted, ThreadPlace, Transport};

use orrery_engine::{CommandLine, GameId, SheetVerb, UserId};
use orrery_games::{AnyState, GameKind};
use orrery_store::{GameRow, GameStatus, SeatRow, Store, StoreError};
use spectators::{in_the_game, not_in_the_game};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Who is asking, and where they spoke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    pub user: UserId,
    /// Display name, used for seats.
    pub name: String,
    pub place: Place,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A guild (or group) channel.
    Channel { channel: u64, guild: Option<u64> },
    /// A direct message with the bot.
    Dm,
}

/// Everything a person can ask of Orrery.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Open a lobby in this channel; the host takes the first seat.
    New {
        kind: GameKind,
        seed: Option<u64>,
        options: Option<serde_json::Value>,
        /// Where private messages go (`None`: by DM, the default); the
        /// host can change it in the lobby with `/host settings private:`.
        private: Option<orrery_store::PrivateTo>,
    },
    Join {
        game: Option<GameId>,
    },
    /// Pick `value` for the asker's seat in a lobby (Spectrum War's
    /// colour), taking a seat first if they have none.
    Pick {
        game: Option<GameId>,
        value: String,
    },
    Leave {
        game: Option<GameId>,
    },
    Start {
        game: Option<GameId>,
    },
    Status {
        game: Option<GameId>,
    },
    Board {
        game: Option<GameId>,
    },
    /// A player whose DMs were refused opened them: private messages go
    /// by DM again.
    Dms {
        game: Option<GameId>,
    },
    /// Where a seat's private messages go: DMs or a private thread in the
    /// game's channel. `seat: None`: the asker's own; else the host's
    /// choice for a seat.
    Private {
        game: Option<GameId>,
        seat: Option<SeatRef>,
        to: orrery_store::PrivateTo,
    },
    /// A game's rules: the introduction and the list of sections, or
    /// one `section` (a heading of its rules page) whole.
    Rules {
        kind: Option<GameKind>,
        game: Option<GameId>,
        section: Option<String>,
    },
    /// The board after phase `phase` (default: the current board). Any
    /// number: the service answers one the game never reached with its range.
    History {
        game: Option<GameId>,
        phase: Option<u64>,
    },
    /// A game order, such as `depart from:Algol ships:5`; `kind` is the
    /// game system whose command gave it (`/starlanes …`), if any.
    Order {
        game: Option<GameId>,
        kind: Option<GameKind>,
        line: CommandLine,
    },
    /// An order given with a control (a button or a menu of a prompt),
    /// made for the game's `position` (its phase number, from
    /// [`Choice::position`]). Pressed in another phase it is refused, with
    /// the asker's current prompt; `None` (a control made before controls
    /// carried their position) is taken as a typed order is.
    Press {
        game: GameId,
        line: CommandLine,
        position: Option<u32>,
    },
    /// Show the settings (empty change, anyone) or change them (host).
    Settings {
        game: Option<GameId>,
        change: SettingsChange,
    },
    /// Host: stop the deadline clock.
    Pause {
        game: Option<GameId>,
    },
    /// Host: restart the deadline clock with the time that was left.
    Resume {
        game: Option<GameId>,
    },
    /// Host: push the current deadline back by `by_ms`.
    Extend {
        game: Option<GameId>,
        by_ms: i64,
    },
    /// Host: resolve the current phase now, applying defaults.
    Force {
        game: Option<GameId>,
    },
    /// Host: a new player takes `seat` (and gets its private view by DM).
    Replace {
        game: Option<GameId>,
        seat: SeatRef,
        user: UserId,
        name: String,
    },
    /// Host: seat a computer player in the lobby, at `level`.
    AddBot {
        game: Option<GameId>,
        level: orrery_store::BotLevel,
    },
    /// Host: a computer player at `level` takes `seat` in play (or the
    /// seat's computer player plays at `level` from now on).
    ReplaceBot {
        game: Option<GameId>,
        seat: SeatRef,
        level: orrery_store::BotLevel,
    },
    /// Host: remove the player of `seat` (in play the seat stays, vacant
    /// and in civil disorder, until replaced).
    Kick {
        game: Option<GameId>,
        seat: SeatRef,
    },
    /// Resign from a game in play: the asker's own seat (`seat: None`;
    /// only asked about unless `confirmed`), or, for the host, `seat`.
    Resign {
        game: Option<GameId>,
        seat: Option<SeatRef>,
        confirmed: bool,
    },
    /// Host: civil disorder on or off for `seat` (defaults every phase).
    Disorder {
        game: Option<GameId>,
        seat: SeatRef,
        on: bool,
    },
    /// Host: undo the last action (a new log entry; nothing is deleted).
    Undo {
        game: Option<GameId>,
    },
    /// Host: roll back to the start of phase `phase` (any number, as for `History`).
    Rollback {
        game: Option<GameId>,
        phase: u64,
    },
    /// Follow a game's public boards by DM.
    Watch {
        game: Option<GameId>,
    },
    Unwatch {
        game: Option<GameId>,
    },
    /// The public log of the current phase.
    Log {
        game: Option<GameId>,
    },
    /// Every open game the asker plays in: phase, what it waits on (and
    /// whether on them), the deadline.
    MyGames,
    /// A seated player's own reminders: no options shows them; `mute`
    /// true mutes, false goes back to the game's points; `points` sets
    /// their own (ms before the deadline).
    Reminders {
        game: Option<GameId>,
        mute: Option<bool>,
        points: Option<Vec<i64>>,
    },
    /// Mark the asker's order sheet ready, or their draft final
    /// (auto-resolve off).
    Ready {
        game: Option<GameId>,
    },
    /// Another edit of the asker's order sheet: un-ready, clear, remove a
    /// line.
    Sheet {
        game: Option<GameId>,
        verb: SheetVerb,
    },
    /// A player takes back their own last order, in their own turn, when
    /// it revealed nothing and drew nothing random.
    TakeBack {
        game: Option<GameId>,
    },
    /// The asker's pending prompt again, with its controls (privately).
    Prompt {
        game: Option<GameId>,
    },
}

/// A request that was not carried out. `User` errors explain themselves
/// and are shown only to the asker; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{}", .0.to_plain())]
    User(Text),
    #[error("Game {0} is busy with another action. Please try again in a moment.")]
    Busy(GameId),
    /// The database has no room to write ([`StoreError::Full`]): nothing
    /// changed, and the same request succeeds once it has room, with no
    /// restart. The store logs it (once) for the operator.
    #[error("{STORAGE_FULL}")]
    StorageFull,
    /// The database cannot be reached ([`StoreError::Unavailable`]):
    /// nothing changed, and the same request succeeds once it is back.
    /// The store logs it (once) for the operator.
    #[error("{STORAGE_UNAVAILABLE}")]
    StorageUnavailable,
    /// The game's log is damaged from `entry` ([`StoreError::Damaged`]):
    /// the game cannot be loaded; no other game is concerned. The asker
    /// is told so as a refusal ([`ServiceError::User`], by
    /// [`Service::handle`]).
    #[error("{}", damaged_text(*.game, *.entry))]
    Damaged { game: GameId, entry: i64 },
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

/// What the asker is told while the database has no room to write.
pub const STORAGE_FULL: &str = "The game's storage is full right now, so nothing was changed. Please try again later.";

/// What the asker is told while the database cannot be reached.
pub const STORAGE_UNAVAILABLE: &str =
    "The game's storage is unavailable right now, so nothing was changed. Please try again shortly.";

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Full(_) => ServiceError::StorageFull,
            StoreError::Unavailable(_) => ServiceError::StorageUnavailable,
            StoreError::Damaged { game, entry, .. } => ServiceError::Damaged { game, entry },
            e => ServiceError::Internal(e.into()),
        }
    }
}

/// What the asker is told about a game whose log is damaged from `entry`
/// ([`StoreError::Damaged`]): a refusal naming the game and the entry.
pub fn damaged(game: GameId, entry: i64) -> ServiceError {
    ServiceError::User(damaged_text(game, entry).into())
}

/// The words for a game whose log is damaged from `entry`.
pub fn damaged_text(game: GameId, entry: i64) -> String {
    format!("Game {game}'s log is damaged from entry {entry}; ask the host.")
}

/// The first [`StoreError::Damaged`] (or [`ServiceError::Damaged`]) in
/// the chain of `e`, if any.
fn damaged_in(e: &anyhow::Error) -> Option<(GameId, i64)> {
    e.chain().find_map(|c| {
        c.downcast_ref::<StoreError>()
            .and_then(StoreError::damaged)
            .or(match c.downcast_ref::<ServiceError>() {
                Some(ServiceError::Damaged { game, entry }) => Some((*game, *entry)),
                _ => None,
            })
    })
}

impl ServiceError {
    /// Did the request fail because the database has no room to write?
    /// (Also when the store's error reached here inside an `anyhow` error.)
    pub fn is_storage_full(&self) -> bool {
        match self {
            ServiceError::StorageFull => true,
            ServiceError::Internal(e) => storage_full_in(e),
            _ => false,
        }
    }

    /// Did the request fail because the database cannot be reached?
    /// (Also when the store's error reached here inside an `anyhow` error.)
    pub fn is_storage_unavailable(&self) -> bool {
        match self {
            ServiceError::StorageUnavailable => true,
            ServiceError::Internal(e) => storage_unavailable_in(e),
            _ => false,
        }
    }
}

/// Is a [`StoreError::Unavailable`] (or a
/// [`ServiceError::StorageUnavailable`]) anywhere in the chain of `e`?
pub fn storage_unavailable_in(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<StoreError>().is_some_and(StoreError::is_unavailable)
            || matches!(c.downcast_ref::<ServiceError>(), Some(ServiceError::StorageUnavailable))
    })
}

/// Is a [`StoreError::Full`] (or a [`ServiceError::StorageFull`]) anywhere
/// in the chain of `e`?
pub fn storage_full_in(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<StoreError>().is_some_and(StoreError::is_full)
            || matches!(c.downcast_ref::<ServiceError>(), Some(ServiceError::StorageFull))
    })
}

fn user_err<T>(msg: impl Into<Text>) -> Result<T, ServiceError> {
    Err(ServiceError::User(msg.into()))
}

/// How long a second action on the same game waits before it is told the
/// game is busy.
const LOCK_WAIT: Duration = Duration::from_secs(10);

pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    locks: Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<()>>>>,
    /// This process's changes to games, counted ([`Service::touched`]),
    /// and the count at each game's last change: a game read before count
    /// `n` is still as read, as far as this process knows, if it has not
    /// changed since ([`Service::changed_since`]).
    changes: std::sync::atomic::AtomicU64,
    stamps: Mutex<HashMap<GameId, u64>>,
    /// This service's name in outbox claims (process id and a random
    /// part), unique among the processes sharing the database.
    worker: String,
    /// Delivery passes started, to name each pass's claims.
    passes: std::sync::atomic::AtomicU64,
    /// How long a send may go unanswered ([`delivery::SEND_TIMEOUT`]).
    send_timeout: std::time::Duration,
    /// This is the only process delivering from the database: outbox
    /// claims of any other process are a dead one's ([`Service::sole_process`]).
    sole: bool,
    /// Sends that failed since the process started ([`Service::health`]).
    failed_sends: std::sync::atomic::AtomicU64,
    /// Computer players' work: poked by every commit, so the bot loop
    /// looks for decisions they owe ([`runtime::bot_loop`]).
    bots: bots::Bots,
}

impl Service {
    pub fn new(store: Store, clock: Arc<dyn Clock>) -> Self {
        use std::hash::BuildHasher;
        let random = std::collections::hash_map::RandomState::new().hash_one(std::process::id());
        Service {
            store,
            clock,
            locks: Mutex::new(HashMap::new()),
            changes: std::sync::atomic::AtomicU64::new(0),
            stamps: Mutex::new(HashMap::new()),
            worker: format!("{}-{:08x}", std::process::id(), random as u32),
            passes: std::sync::atomic::AtomicU64::new(0),
            send_timeout: delivery::SEND_TIMEOUT,
            sole: false,
            failed_sends: std::sync::atomic::AtomicU64::new(0),
            bots: bots::Bots::default(),
        }
    }

    /// The same service, as the only process delivering from its database
    /// (no shards configured): a delivery pass then takes over rows that
    /// any other process claimed, whatever their leases say, since such a
    /// process is taken for a dead one (its writes are fenced should it
    /// wake after all).
    pub fn sole_process(mut self) -> Self {
        self.sole = true;
        self
    }

    /// The same service, giving up on a send unanswered after `timeout`
    /// (tests use a short one).
    pub fn with_send_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.send_timeout = timeout;
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Handle one request. On error nothing was changed.
    pub async fn handle(&self, actor: &Actor, request: Request) -> Result<Reply, ServiceError> {
        let result = match request {
            Request::New {
                kind,
                seed,
                options,
                private,
            } => self.new_game(actor, kind, seed, options, private).await,
            Request::Join { game } => self.join(actor, game).await,
            Request::Pick { game, value } => self.pick(actor, game, value).await,
            Request::Leave { game } => self.leave(actor, game).await,
            Request::Start { game } => self.start(actor, game).await,
            Request::Status { game } => self.status(actor, game).await,
            Request::Board { game } => self.board(actor, game).await,
            Request::Dms { game } => self.dms_open(actor, game).await,
            Request::Private { game, seat: None, to } => self.move_private(actor, game, None, to).await,
            Request::Private {
                game,
                seat: Some(seat),
                to,
            } => {
                let seat = self.seat_named(actor, game, &seat).await?;
                self.move_private(actor, game, Some(seat), to).await
            }
            Request::Rules { kind, game, section } => self.rules(actor, kind, game, section).await,
            Request::History { game, phase } => self.history(actor, game, phase).await,
            Request::Order { game, kind, line } => self.order(actor, game, kind, line, None).await,
            Request::Press { game, line, position } => self.order(actor, Some(game), None, line, position).await,
            Request::Settings { game, change } => self.change_settings(actor, game, change).await,
            Request::Pause { game } => self.pause(actor, game).await,
            Request::Resume { game } => self.resume(actor, game).await,
            Request::Extend { game, by_ms } => self.extend(actor, game, by_ms).await,
            Request::Force { game } => self.force(actor, game).await,
            Request::Replace { game, seat, user, name } => {
                let seat = self.seat_named(actor, game, &seat).await?;
                self.replace(actor, game, seat, user, name).await
            }
            Request::AddBot { game, level } => self.add_bot(actor, game, level).await,
            Request::ReplaceBot { game, seat, level } => {
                let seat = self.seat_named(actor, game, &seat).await?;
                self.replace_with_bot(actor, game, seat, level).await
            }
            Request::Kick { game, seat } => {
                let seat = self.seat_named(actor, game, &seat).await?;
                self.kick(actor, game, seat).await
            }
            Request::Resign { game, seat, confirmed } => {
                let seat = match seat {
                    Some(seat) => Some(self.seat_named(actor, game, &seat).await?),
                    None => None,
                };
                self.resign(actor, game, seat, confirmed).await
            }
            Request::Disorder { game, seat, on } => {
                let seat = self.seat_named(actor, game, &seat).await?;
                self.disorder(actor, game, seat, on).await
            }
            Request::Undo { game } => self.rewind(actor, game, orrery_games::Rewind::Undo).await,
            Request::Rollback { game, phase } => {
                // A phase past u32 was never reached: the rewind answers with the game's range.
                let phase = u32::try_from(phase).unwrap_or(u32::MAX);
                self.rewind(actor, game, orrery_games::Rewind::Phase { phase }).await
            }
            Request::Watch { game } => self.watch(actor, game).await,
            Request::Unwatch { game } => self.unwatch(actor, game).await,
            Request::Log { game } => self.phase_log(actor, game).await,
            Request::MyGames => self.my_games(actor).await,
            Request::Reminders { game, mute, points } => self.reminders(actor, game, mute, points).await,
            Request::Ready { game } => self.ready(actor, game).await,
            Request::Sheet { game, verb } => self.sheet_edit(actor, game, verb).await,
            Request::TakeBack { game } => self.take_back(actor, game).await,
            Request::Prompt { game } => self.my_prompt(actor, game).await,
        };
        // However the store's error travelled, the asker hears that the
        // storage is full, or cannot be reached.
        result.map_err(|e| {
            if e.is_storage_full() {
                ServiceError::StorageFull
            } else if e.is_storage_unavailable() {
                ServiceError::StorageUnavailable
            } else if let Some((game, entry)) = match &e {
                // A damaged log however the store's error travelled: the
                // asker is told which game, and from which entry.
                ServiceError::Damaged { game, entry } => Some((*game, *entry)),
                ServiceError::Internal(e) => damaged_in(e),
                _ => None,
            } {
                damaged(game, entry)
            } else {
                e
            }
        })
    }

    /// How many changes this process has made so far: taken before a read
    /// of a game, for [`Service::changed_since`].
    fn changes(&self) -> u64 {
        self.changes.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// This process changed `game` (a commit, or a lobby or spectator
    /// write). Called under the game's lock, before it is released.
    fn touched(&self, game: GameId) {
        let n = self.changes.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        self.stamps.lock().expect("stamp map poisoned").insert(game, n);
    }

    /// Whether this process changed `game` after its change count was
    /// `since`: then a row read before is read again under the lock (a
    /// change by another process is caught by the commit's own check of
    /// the log position and status).
    fn changed_since(&self, game: GameId, since: u64) -> bool {
        self.stamps
            .lock()
            .expect("stamp map poisoned")
            .get(&game)
            .is_some_and(|&n| n > since)
    }

    /// Serialize writers per game within this process. The store's
    /// optimistic lock catches writers in other processes.
    async fn lock(&self, game: GameId) -> Result<tokio::sync::OwnedMutexGuard<()>, ServiceError> {
        let m = {
            let mut locks = self.locks.lock().expect("lock map poisoned");
            locks.entry(game).or_default().clone()
        };
        tokio::time::timeout(LOCK_WAIT, m.lock_owned())
            .await
            .map_err(|_| ServiceError::Busy(game))
    }

    /// The game a request refers to: the one named, or the only one that
    /// fits where the actor spoke.
    async fn resolve(&self, actor: &Actor, game: Option<GameId>) -> Result<GameRow, ServiceError> {
        if let Some(id) = game {
            let Some(row) = self.store.game(id).await? else {
                return user_err(format!("There is no game {id}."));
            };
            if let Place::Channel { channel, .. } = actor.place {
                if row.channel_id != channel && self.thread_of(actor, channel).await? != Some(row.id) {
                    return user_err(
                        Text::plain(format!("Game {id} is played in "))
                            .channel(row.channel_id)
                            .then(", not in this channel."),
                    );
                }
            }
            if !self.may_read_in_dm(actor, &row).await? {
                return Err(not_in_the_game(id));
            }
            return Ok(row);
        }
        let candidates: Vec<GameRow> = match actor.place {
            Place::Channel { channel, .. } => {
                let mut here = self.store.games_in_channel(channel).await?;
                if here.is_empty() {
                    if let Some(game) = self.thread_of(actor, channel).await? {
                        here.extend(self.store.game(game).await?);
                    }
                }
                here
            }
            Place::Dm => {
                let mut mine = self.store.games_of_user(actor.user).await?;
                for g in self.store.watched_by(actor.user).await? {
                    if !mine.iter().any(|m| m.id == g.id) {
                        mine.push(g);
                    }
                }
                mine
            }
        };
        let live: Vec<&GameRow> = candidates
            .iter()
            .filter(|g| matches!(g.status, GameStatus::Lobby | GameStatus::Active))
            .collect();
        match live.as_slice() {
            [one] => match one.damaged {
                Some(entry) => Err(ServiceError::Damaged { game: one.id, entry }),
                None => Ok((*one).clone()),
            },
            [] => {
                // Fall back to the most recent finished game, for status/board.
                if let Some(last) = candidates.iter().max_by_key(|g| g.id) {
                    return Ok(last.clone());
                }
                match actor.place {
                    Place::Channel { .. } => user_err("There is no game in this channel. Start one with `/game new`."),
                    Place::Dm => user_err("You are not in any game. Join one in its channel with `/game join`."),
                }
            }
            many => user_err(format!(
                "There are several games here ({}); say which with the `game` option.",
                many.iter()
                    .map(|g| format!("{} {}", g.id, g.kind.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// [`Service::resolve`], with the game's seats and spectators
    /// ([`Store::roster`]), for a request that changes the game: a game
    /// named in DMs is read with one statement and its roster with another
    /// (which also says whether the asker may use it there).
    async fn resolve_with_roster(
        &self,
        actor: &Actor,
        game: Option<GameId>,
    ) -> Result<(GameRow, Vec<SeatRow>, Vec<UserId>), ServiceError> {
        if let (Some(id), Place::Dm) = (game, &actor.place) {
            let Some(row) = self.store.game(id).await? else {
                return user_err(format!("There is no game {id}."));
            };
            let (seats, watchers) = self.store.roster(id).await?;
            if !in_the_game(actor.user, &seats, &watchers) {
                return Err(not_in_the_game(id));
            }
            return Ok((row, seats, watchers));
        }
        let row = self.resolve(actor, game).await?;
        let (seats, watchers) = self.store.roster(row.id).await?;
        Ok((row, seats, watchers))
    }

    /// The game whose seat's private thread `channel` is, if it is one.
    /// Only that seat's player may act there (others who can see the
    /// thread, such as moderators, are refused).
    async fn thread_of(&self, actor: &Actor, channel: u64) -> Result<Option<GameId>, ServiceError> {
        let Some((game, seat)) = self.store.thread_seat(channel).await? else {
            return Ok(None);
        };
        let seats = self.store.seats(game).await?;
        match seats.iter().find(|s| s.seat == seat) {
            Some(s) if s.played_by(actor.user) => Ok(Some(game)),
            Some(s) => user_err(format!(
                "This is {}'s private thread for game {game}: only they can act here.",
                s.name
            )),
            None => Ok(None),
        }
    }

    /// An active game's state, or an internal error.
    pub(crate) fn state_of(&self, row: &GameRow) -> Result<AnyState, ServiceError> {
        row.state
            .clone()
            .ok_or_else(|| anyhow::anyhow!("active game {} has no state", row.id).into())
    }

    async fn reload(&self, id: GameId) -> Result<GameRow, ServiceError> {
        self.store
            .game(id)
            .await?
            .ok_or_else(|| ServiceError::User(format!("There is no game {id}.").into()))
    }
}
