//! The transport-agnostic service: an actor and a request in, a reply out,
//! and channel posts / DMs queued in the outbox in the same transaction as
//! the events they announce. Discord, the terminal playtest and the tests
//! all drive this same code.

mod advance;
mod clock;
mod commit;
mod compose;
mod deadlines;
mod drafts;
pub mod grammar;
mod host;
mod message;
mod players;
mod text;

pub use clock::{Clock, FileClock, ManualClock, SystemClock};
pub use deadlines::{
    format_duration, parse_duration, parse_kind_deadlines, parse_time_of_day, Missed, Settings, SettingsChange,
    TickReport, TimeOfDay, ALL_KINDS, HOUR_MS,
};
pub use message::{BoardRef, Choice, OutMessage, Reply, Target};
pub use text::{readable_time, relative_time, utc_date_time, Span, Text};

use crate::engine::{CommandLine, GameConfig, GameId, Seat, UserId, Viewer};
use crate::games::{describe_waiting, ActionError, AnyState, GameKind};
use crate::store::{Commit, DeadlineChange, GameRow, GameStatus, NewGame, SeatRow, Store, StoreError};
use advance::Advance;
use anyhow::Context as _;
use std::collections::HashMap;
use std::future::Future;
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
    },
    Join {
        game: Option<GameId>,
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
    Rules {
        kind: Option<GameKind>,
        game: Option<GameId>,
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
        seat: Seat,
        user: UserId,
        name: String,
    },
    /// Host: remove the player of `seat` (in play the seat stays, vacant
    /// and in civil disorder, until replaced).
    Kick {
        game: Option<GameId>,
        seat: Seat,
    },
    /// Host: civil disorder on or off for `seat` (defaults every phase).
    Disorder {
        game: Option<GameId>,
        seat: Seat,
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
    /// Mark the asker's draft final (auto-resolve off).
    Ready {
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
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        ServiceError::Internal(e.into())
    }
}

fn user_err<T>(msg: impl Into<Text>) -> Result<T, ServiceError> {
    Err(ServiceError::User(msg.into()))
}

/// What became of one outbox message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    Sent,
    /// The destination will never accept it (a user with DMs closed, a
    /// deleted channel). Recorded and taken off the queue, so it cannot hold
    /// back later messages.
    Undeliverable(String),
}

/// Sends outbox messages somewhere. `id` is the outbox row id: stable
/// across retries, so transports can use it as an idempotency key (Discord:
/// the message nonce). An `Err` is a passing failure: the message stays
/// queued and is retried.
pub trait Transport: Sync {
    fn send(
        &self,
        id: i64,
        message: &OutMessage,
        png: Option<&[u8]>,
    ) -> impl Future<Output = anyhow::Result<Delivery>> + Send;
}

/// How long a second action on the same game waits before it is told the
/// game is busy.
const LOCK_WAIT: Duration = Duration::from_secs(10);

pub struct Service {
    store: Store,
    clock: Arc<dyn Clock>,
    locks: Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<()>>>>,
}

impl Service {
    pub fn new(store: Store, clock: Arc<dyn Clock>) -> Self {
        Service {
            store,
            clock,
            locks: Mutex::new(HashMap::new()),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Handle one request. On error nothing was changed.
    pub async fn handle(&self, actor: &Actor, request: Request) -> Result<Reply, ServiceError> {
        match request {
            Request::New { kind, seed, options } => self.new_game(actor, kind, seed, options).await,
            Request::Join { game } => self.join(actor, game).await,
            Request::Leave { game } => self.leave(actor, game).await,
            Request::Start { game } => self.start(actor, game).await,
            Request::Status { game } => self.status(actor, game).await,
            Request::Board { game } => self.board(actor, game).await,
            Request::Rules { kind, game } => self.rules(actor, kind, game).await,
            Request::History { game, phase } => self.history(actor, game, phase).await,
            Request::Order { game, kind, line } => self.order(actor, game, kind, line).await,
            Request::Settings { game, change } => self.change_settings(actor, game, change).await,
            Request::Pause { game } => self.pause(actor, game).await,
            Request::Resume { game } => self.resume(actor, game).await,
            Request::Extend { game, by_ms } => self.extend(actor, game, by_ms).await,
            Request::Force { game } => self.force(actor, game).await,
            Request::Replace { game, seat, user, name } => self.replace(actor, game, seat, user, name).await,
            Request::Kick { game, seat } => self.kick(actor, game, seat).await,
            Request::Disorder { game, seat, on } => self.disorder(actor, game, seat, on).await,
            Request::Undo { game } => self.rewind(actor, game, crate::games::Rewind::Undo).await,
            Request::Rollback { game, phase } => {
                // A phase past u32 was never reached: the rewind answers with the game's range.
                let phase = u32::try_from(phase).unwrap_or(u32::MAX);
                self.rewind(actor, game, crate::games::Rewind::Phase { phase }).await
            }
            Request::Watch { game } => self.watch(actor, game).await,
            Request::Unwatch { game } => self.unwatch(actor, game).await,
            Request::Log { game } => self.phase_log(actor, game).await,
            Request::MyGames => self.my_games(actor).await,
            Request::Reminders { game, mute, points } => self.reminders(actor, game, mute, points).await,
            Request::Ready { game } => self.ready(actor, game).await,
        }
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

    // ---- finding the game a request is about -------------------------

    /// The game a request refers to: the one named, or the only one that
    /// fits where the actor spoke.
    async fn resolve(&self, actor: &Actor, game: Option<GameId>) -> Result<GameRow, ServiceError> {
        if let Some(id) = game {
            let Some(row) = self.store.game(id).await? else {
                return user_err(format!("There is no game {id}."));
            };
            if let Place::Channel { channel, .. } = actor.place {
                if row.channel_id != channel {
                    return user_err(
                        Text::plain(format!("Game {id} is played in "))
                            .channel(row.channel_id)
                            .then(", not in this channel."),
                    );
                }
            }
            if !self.may_read_in_dm(actor, &row).await? {
                return user_err(format!(
                    "You are not playing in game {id}, nor watching it. In DMs you can only use your own games; see /mygames."
                ));
            }
            return Ok(row);
        }
        let candidates: Vec<GameRow> = match actor.place {
            Place::Channel { channel, .. } => self.store.games_in_channel(channel).await?,
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
            [one] => Ok((*one).clone()),
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

    fn names(seats: &[SeatRow]) -> Vec<String> {
        seats.iter().map(|s| s.name.clone()).collect()
    }

    // ---- lobby --------------------------------------------------------

    async fn new_game(
        &self,
        actor: &Actor,
        kind: GameKind,
        seed: Option<u64>,
        options: Option<serde_json::Value>,
    ) -> Result<Reply, ServiceError> {
        let Place::Channel { channel, guild } = actor.place else {
            return user_err("Games live in a channel: run `/game new` in the channel where you want to play.");
        };
        let existing = self.store.games_in_channel(channel).await?;
        if let Some(g) = existing
            .iter()
            .find(|g| matches!(g.status, GameStatus::Lobby | GameStatus::Active))
        {
            return user_err(format!(
                "This channel already has game {} ({}, {}). One game per channel: finish it or use another channel.",
                g.id,
                g.kind.name(),
                g.status.as_str()
            ));
        }
        let seed = seed.unwrap_or_else(|| random_seed(self.now_ms()));
        let mut config = GameConfig::new(0, seed);
        if let Some(options) = options {
            config.options = options;
        }
        // Check the options now, so a typo is caught before anyone joins.
        let probe = GameConfig {
            players: *kind.player_counts().start(),
            ..config.clone()
        };
        kind.setup(&probe)
            .map_err(|e| ServiceError::User(format!("Those options don't work: {e}").into()))?;
        let now = self.now_ms();
        let id = self
            .store
            .create_game(NewGame {
                kind,
                channel_id: channel,
                guild_id: guild,
                host: actor.user,
                config,
                now_ms: now,
            })
            .await?;
        self.store.add_seat(id, actor.user, &actor.name).await?;
        let counts = kind.player_counts();
        Ok(Reply::public(Text::new().strong(kind.name()).then(format!(
            " game {id} is open. {} is hosting and has taken seat 1.\nJoin with `/game join`; the host starts with `/game start` ({} to {} players).",
            actor.name,
            counts.start(),
            counts.end()
        ))))
    }

    async fn join(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        if row.status != GameStatus::Lobby {
            return user_err(format!(
                "Game {} has already {}; you can't join now.",
                row.id,
                started_word(row.status)
            ));
        }
        let seats = self.store.seats(row.id).await?;
        if seats.iter().any(|s| s.user == actor.user) {
            return user_err(format!("You are already seated in game {}.", row.id));
        }
        let max = *row.kind.player_counts().end() as usize;
        if seats.len() >= max {
            return user_err(format!("Game {} is full ({max} players).", row.id));
        }
        let seat = self.store.add_seat(row.id, actor.user, &actor.name).await?;
        Ok(Reply::public(format!(
            "{} joined game {} in {} ({} seated).",
            actor.name,
            row.id,
            seat,
            seats.len() + 1
        )))
    }

    async fn leave(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let seats = self.store.seats(row.id).await?;
        if !seats.iter().any(|s| s.user == actor.user) {
            return user_err(format!("You are not seated in game {}.", row.id));
        }
        if row.status != GameStatus::Lobby {
            return user_err(format!(
                "Game {} has already {}; seats can't be left once play begins. Ask the host to replace you.",
                row.id,
                started_word(row.status)
            ));
        }
        let now = self.now_ms();
        if row.host == actor.user {
            self.store.set_status(row.id, GameStatus::Abandoned, now).await?;
            return Ok(Reply::public(format!(
                "{} (the host) left, so game {} was closed.",
                actor.name, row.id
            )));
        }
        self.store.remove_seat(row.id, actor.user).await?;
        Ok(Reply::public(format!("{} left game {}.", actor.name, row.id)))
    }

    async fn start(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        if row.host != actor.user {
            return user_err(format!("Only the host of game {} can start it.", row.id));
        }
        if row.status != GameStatus::Lobby {
            return user_err(format!("Game {} has already {}.", row.id, started_word(row.status)));
        }
        let seats = self.store.seats(row.id).await?;
        let counts = row.kind.player_counts();
        let n = seats.len() as u8;
        if !counts.contains(&n) {
            return user_err(format!(
                "{} needs {} to {} players; {} seated. Others can join with `/game join`.",
                row.kind.name(),
                counts.start(),
                counts.end(),
                n
            ));
        }
        let config = GameConfig {
            players: n,
            ..row.config.clone()
        };
        let events = row
            .kind
            .setup(&config)
            .map_err(|e| ServiceError::User(format!("Set-up failed: {e}").into()))?;
        let names = Self::names(&seats);
        let mut adv = Advance::new(&row.kind.empty(), 0);
        adv.push(events);
        let mut outbox = compose::after_action(&row, &seats, &adv, true);
        let intro = Text::new().strong(row.kind.name()).then(format!(
            " game {} has begun with {}.",
            row.id,
            names
                .iter()
                .enumerate()
                .map(|(i, n)| format!("{n} ({})", Seat(i as u8)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        outbox.insert(
            0,
            OutMessage {
                target: Target::Channel(row.channel_id),
                text: intro,
                board: None,
                choices: vec![],
                game_over: false,
            },
        );
        let settings = Settings::of(&row);
        let deadline = match adv.state.outcome() {
            None => DeadlineChange::Set(self.deadline_for(&settings, &adv.state)),
            Some(_) => DeadlineChange::Keep,
        };
        let commit = Commit::start(row.id, config, adv.events, adv.state, self.now_ms()).with_deadline(deadline);
        self.commit(commit, &outbox).await?;
        Ok(Reply::private(format!("Game {} started.", row.id)))
    }

    async fn reload(&self, id: GameId) -> Result<GameRow, ServiceError> {
        self.store
            .game(id)
            .await?
            .ok_or_else(|| ServiceError::User(format!("There is no game {id}.").into()))
    }

    // ---- looking -------------------------------------------------------

    async fn status(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let mut text =
            Text::new()
                .strong(row.kind.name())
                .then(format!(" game {} · {}\n", row.id, row.status.as_str()));
        for s in &seats {
            let host = if s.user == row.host && !s.vacant { " (host)" } else { "" };
            let auto = if s.vacant {
                " — vacant, civil disorder"
            } else if s.disorder {
                " — civil disorder"
            } else {
                ""
            };
            text.push_str(&format!("- {}: {}{host}{auto}\n", s.seat, s.name));
        }
        if let Some(state) = &row.state {
            text.push_str(&format!("{}\n", state.phase().label));
            match state.outcome() {
                Some(o) => text.append(compose::outcome_line(&o, &Self::names(&seats))),
                None => {
                    let pending = state.pending();
                    text.push_str(&format!(
                        "Waiting on: {}",
                        compose::waiting_line(&pending, &Self::names(&seats))
                    ));
                }
            }
        }
        if row.status.is_open() {
            text.push('\n');
            text.append(self.status_lines(&row).await?);
        }
        Ok(Reply::private(text))
    }

    async fn board(&self, actor: &Actor, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(state) = &row.state else {
            return user_err(format!("Game {} hasn't started yet, so there is no board.", row.id));
        };
        let viewer = self.viewer_for(actor, &row).await?;
        let ephemeral = viewer != Viewer::Public;
        Ok(Reply {
            text: format!("{} · game {} · {}", row.kind.name(), row.id, state.phase().label).into(),
            ephemeral,
            board: Some(BoardRef {
                game: row.id,
                viewer,
                seq: row.seq,
            }),
            choices: vec![],
        })
    }

    /// A seated player asking in DMs sees their own view; everyone else,
    /// and every channel, the public one.
    async fn viewer_for(&self, actor: &Actor, row: &GameRow) -> Result<Viewer, ServiceError> {
        if actor.place != Place::Dm {
            return Ok(Viewer::Public);
        }
        let seats = self.store.seats(row.id).await?;
        Ok(seats
            .iter()
            .find(|s| s.played_by(actor.user))
            .map(|s| Viewer::Seat(s.seat))
            .unwrap_or(Viewer::Public))
    }

    async fn rules(&self, actor: &Actor, kind: Option<GameKind>, game: Option<GameId>) -> Result<Reply, ServiceError> {
        let kind = match kind {
            Some(k) => k,
            None => self.resolve(actor, game).await?.kind,
        };
        let mut text = Text::plain(rules_summary(kind))
            .then("\n\n")
            .strong("Orders")
            .then("\n");
        for c in kind.commands() {
            let params: Vec<String> = c
                .params
                .iter()
                .map(|p| {
                    if p.required {
                        format!("{}:…", p.name)
                    } else {
                        format!("[{}:…]", p.name)
                    }
                })
                .collect();
            text.append(
                Text::new()
                    .code(format!("/{} {} {}", kind.key(), c.name, params.join(" ")))
                    .then(format!(" — {}\n", c.description)),
            );
        }
        Ok(Reply::private(text))
    }

    async fn history(&self, actor: &Actor, game: Option<GameId>, phase: Option<u64>) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let Some(state) = &row.state else {
            return user_err(format!("Game {} hasn't started yet.", row.id));
        };
        let current = state.phase().number;
        let Some(phase) = phase.map_or(Some(current), |p| u32::try_from(p).ok().filter(|&p| p <= current)) else {
            return user_err(format!(
                "Game {} is in phase {current}; pick a phase from 0 to {current}.",
                row.id
            ));
        };
        // The game as played: entries set aside by a roll-back don't count.
        let log = self.store.log(row.id).await?;
        let replay = host::replay_log(&row, &log)?;
        let mut s = row.kind.empty();
        let mut at = None;
        let mut label = String::new();
        for (seq, e) in replay.counting() {
            s.apply(e).map_err(anyhow::Error::from)?;
            if s.phase().number >= phase && at.is_none() {
                at = Some(*seq);
                label = s.phase().label;
            }
        }
        let seq = at.unwrap_or(row.seq);
        let viewer = self.viewer_for(actor, &row).await?;
        let mut reply = Reply {
            text: format!("Game {} after phase {phase} · {label}", row.id).into(),
            ephemeral: viewer != Viewer::Public,
            board: Some(BoardRef {
                game: row.id,
                viewer: Viewer::Public,
                seq,
            }),
            choices: vec![],
        };
        if viewer != Viewer::Public {
            // In DMs the player gets their own view of that moment.
            reply.board = Some(BoardRef {
                game: row.id,
                viewer,
                seq,
            });
        }
        Ok(reply)
    }

    // ---- playing -------------------------------------------------------

    async fn order(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        kind: Option<GameKind>,
        line: CommandLine,
    ) -> Result<Reply, ServiceError> {
        let row = self.resolve(actor, game).await?;
        grammar::check_order_kind(&row, kind, actor.place == Place::Dm)?;
        let seats = self.store.seats(row.id).await?;
        let Some(seat) = seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat) else {
            return user_err(format!(
                "You are not playing in game {}; only its players can give orders.",
                row.id
            ));
        };
        let _guard = self.lock(row.id).await?;
        let row = self.reload(row.id).await?;
        let state = match (&row.status, &row.state) {
            (GameStatus::Lobby, _) => {
                return user_err(format!(
                    "Game {} hasn't started yet; the host starts it with `/game start`.",
                    row.id
                ))
            }
            (GameStatus::Finished, _) => return user_err(format!("Game {} is over.", row.id)),
            (GameStatus::Abandoned, _) => return user_err(format!("Game {} was closed.", row.id)),
            (_, None) => return Err(anyhow::anyhow!("active game {} has no state", row.id).into()),
            (_, Some(s)) => s.clone(),
        };
        // Auto-resolve off: a secret choice is kept as a draft.
        let settings = Settings::of(&row);
        if let Some(reply) = self.draft_if_held(&row, &seats, &state, &settings, seat, &line).await? {
            return Ok(reply);
        }
        let events = match state.decide(seat, &line) {
            Ok(events) => events,
            Err(e) => return Err(ServiceError::User(explain(&e, &state, seat).into())),
        };
        let mut adv = Advance::new(&state, row.seq);
        adv.push(events.clone());
        // Seats in civil disorder play what they now owe, in the same commit.
        let played = host::autoplay(&mut adv, &seats, !settings.auto_resolve);
        let mut outbox = compose::after_action(&row, &seats, &adv, false);
        if let Some(line) = host::autoplay_line(&played, &seats) {
            outbox.insert(
                0,
                OutMessage {
                    target: Target::Channel(row.channel_id),
                    text: line.into(),
                    board: None,
                    choices: vec![],
                    game_over: false,
                },
            );
        }
        // A new phase (or step) begins: its deadline, in the same transaction.
        let deadline = self.next_deadline(&settings, &adv.before, &adv.state);
        let commit = Commit::new(row.id, row.seq, self.now_ms())
            .with_events(adv.events, adv.state)
            .with_deadline(deadline.map_or(DeadlineChange::Keep, DeadlineChange::Set));
        self.commit(commit, &outbox).await?;
        let names = Self::names(&seats);
        let mut text = format!("Accepted: `{line}`");
        // Only what the channel post does not already say: the actor's secrets.
        let own: Vec<String> = events
            .iter()
            .filter_map(|e| {
                let mine = e.narrate(Viewer::Seat(seat), &names)?;
                (e.narrate(Viewer::Public, &names).as_deref() != Some(mine.as_str())).then_some(mine)
            })
            .collect();
        if !own.is_empty() {
            text.push('\n');
            text.push_str(&own.join("\n"));
        }
        // The acknowledgement is private: secret picks must stay so, and
        // public orders are announced by the channel post.
        Ok(Reply::private(text))
    }

    // ---- helpers for transports -------------------------------------------

    /// The games a user is in, for `game` autocompletion and `/mygames`.
    pub async fn games_of(&self, user: UserId) -> Result<Vec<(GameRow, Seat)>, ServiceError> {
        let mut out = Vec::new();
        for g in self.store.games_of_user(user).await? {
            let seats = self.store.seats(g.id).await?;
            if let Some(s) = seats.iter().find(|s| s.played_by(user)) {
                out.push((g.clone(), s.seat));
            }
        }
        Ok(out)
    }

    /// Values for one option of an order, built from the legal orders of
    /// the actor's seat, consistent with the options already filled in.
    pub async fn complete(
        &self,
        actor: &Actor,
        game: Option<GameId>,
        command: &str,
        option: &str,
        filled: &[(String, String)],
        partial: &str,
    ) -> Result<Vec<String>, ServiceError> {
        let row = self.resolve(actor, game).await?;
        let seats = self.store.seats(row.id).await?;
        let (Some(state), Some(seat)) = (
            &row.state,
            seats.iter().find(|s| s.played_by(actor.user)).map(|s| s.seat),
        ) else {
            return Ok(vec![]);
        };
        let mut values = complete_from(&state.legal_commands(seat), command, option, filled, partial);
        for v in state.complete_more(seat, command, option, filled, partial) {
            if !values.contains(&v) {
                values.push(v);
            }
        }
        Ok(values)
    }

    /// Render a board reference to PNG bytes, from the log.
    pub async fn render(&self, board: &BoardRef) -> anyhow::Result<Vec<u8>> {
        let row = self
            .store
            .game(board.game)
            .await?
            .with_context(|| format!("no game {}", board.game))?;
        // The players as they were at that point (a seat given to a new
        // player later still shows the old name on older boards).
        let names = self.store.names_at(board.game, board.seq).await?;
        let events = self.store.events_upto(board.game, board.seq).await?;
        let state = crate::games::Replay::of(row.kind, &events)?.into_state();
        let scene = state.scene(board.viewer, &names);
        Ok(orrery_render::render_png(&scene)?)
    }

    /// Deliver queued messages through `transport`, oldest first, until the
    /// queue is empty. Returns how many were sent. Messages to one target
    /// keep their order: after a passing failure, later messages to that
    /// target wait for the next call, while other targets go on. Not meant
    /// to be called concurrently (run one delivery task).
    pub async fn deliver<T: Transport>(&self, transport: &T) -> anyhow::Result<usize> {
        let mut sent = 0;
        let mut blocked: Vec<Target> = Vec::new();
        let mut after_id = 0;
        loop {
            let batch = self.store.undelivered_after(after_id, 100).await?;
            if batch.is_empty() {
                return Ok(sent);
            }
            for row in batch {
                after_id = after_id.max(row.id);
                let now = self.now_ms();
                let msg: OutMessage = match serde_json::from_value(row.payload.clone()) {
                    Ok(m) => m,
                    Err(e) => {
                        self.store
                            .mark_failed(row.id, &format!("unreadable payload: {e}"), now)
                            .await?;
                        self.store.mark_delivered(row.id, now).await?;
                        continue;
                    }
                };
                if blocked.contains(&msg.target) {
                    continue;
                }
                // A board that cannot be drawn must not hold the message back.
                let png = match &msg.board {
                    Some(b) => match self.render(b).await {
                        Ok(png) => Some(png),
                        Err(e) => {
                            tracing::error!(outbox = row.id, "board could not be rendered: {e:#}");
                            None
                        }
                    },
                    None => None,
                };
                match transport.send(row.id, &msg, png.as_deref()).await {
                    Ok(Delivery::Sent) => {
                        self.store.mark_delivered(row.id, self.now_ms()).await?;
                        sent += 1;
                    }
                    Ok(Delivery::Undeliverable(why)) => {
                        self.store
                            .mark_failed(row.id, &format!("undeliverable: {why}"), now)
                            .await?;
                        self.store.mark_delivered(row.id, self.now_ms()).await?;
                    }
                    Err(e) => {
                        self.store.mark_failed(row.id, &format!("{e:#}"), now).await?;
                        blocked.push(msg.target.clone());
                    }
                }
            }
        }
    }
}

/// Option values for `command`'s `option` among `legal`, consistent with
/// the options already `filled`, starting with `partial` (any case).
pub fn complete_from(
    legal: &[CommandLine],
    command: &str,
    option: &str,
    filled: &[(String, String)],
    partial: &str,
) -> Vec<String> {
    let partial = partial.to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for c in legal.iter().filter(|c| c.name == command) {
        let consistent = filled
            .iter()
            .filter(|(k, v)| k != option && !v.is_empty())
            .all(|(k, v)| c.get(k).is_none_or(|cv| cv.eq_ignore_ascii_case(v)));
        if !consistent {
            continue;
        }
        if let Some(v) = c.get(option) {
            if v.to_lowercase().starts_with(&partial) && !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

fn explain(e: &ActionError, state: &AnyState, seat: Seat) -> String {
    match e {
        ActionError::Parse(_) => {
            let mut s = e.to_string();
            let legal = state.legal_commands(seat);
            if !legal.is_empty() {
                let names: Vec<&str> = {
                    let mut v: Vec<&str> = legal.iter().map(|c| c.name.as_str()).collect();
                    v.dedup();
                    v
                };
                s.push_str(&format!("\nOrders you can give now: {}.", names.join(", ")));
            }
            s
        }
        ActionError::Rejected(crate::engine::Rejection::NotYourDecision { .. }) => {
            format!("{e}\nWaiting on: {}", describe_waiting(&state.pending()))
        }
        ActionError::Rejected(_) => e.to_string(),
    }
}

fn started_word(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Lobby => "not started",
        GameStatus::Active => "started",
        GameStatus::Finished => "finished",
        GameStatus::Abandoned => "been closed",
    }
}

/// A fresh seed for a new game: the process's random hasher keys (drawn
/// once per process by the standard library) over the clock's time. The
/// engine never draws OS randomness; the platform picks the seed once and
/// stores it in the game's config.
fn random_seed(now_ms: i64) -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(now_ms)
}

/// The opening section of the game's rules page.
pub fn rules_summary(kind: GameKind) -> String {
    opening(kind.rules_page(), RULES_LINES)
}

/// `/game rules` shows at most this many lines of the rules page.
const RULES_LINES: usize = 20;

/// The opening of a page: at most `max` lines, cut at the last paragraph
/// break within them, saying how many lines were left out.
fn opening(page: &str, max: usize) -> String {
    let lines: Vec<&str> = page.lines().collect();
    if lines.len() <= max {
        return page.trim_end().to_string();
    }
    let cut = (1..=max).rev().find(|&i| lines[i].trim().is_empty()).unwrap_or(max);
    format!(
        "{}\n… ({} more lines)",
        lines[..cut].join("\n").trim_end(),
        lines.len() - cut
    )
}

/// The result line of a finished game ("Game over: alice wins — …").
pub fn compose_outcome(state: &AnyState, names: &[String]) -> Text {
    match state.outcome() {
        Some(o) => compose::outcome_line(&o, names),
        None => Text::plain("the game is not over"),
    }
}
