//! The one write path of a game in play: [`Store::commit`].
//!
//! Every change to a started game (an order, a deadline resolution, drafts
//! going in, a host tool, a seat change, an undo or roll-back, a reminder
//! being sent) is described by one [`Commit`] value and written by one
//! transaction: the precondition is checked (status, last sequence number,
//! and, where the change depends on it, the deadline row as it was read),
//! then events, state, seats, drafts, settings, deadline and outbox rows are
//! written together, or nothing is.

use super::codec::to_json;
use super::error::{is_unique_violation, StoreError, StoreResult};
use super::games::lock_game;
use super::outbox::NewOutboxRow;
use super::types::{deadline_from_row, id_from_db, id_to_db, seat_from_db};
use super::{codec, Backend, BotLevel, DeadlineRow, DeadlineSet, DraftRow, GameStatus, PrivateTo, Store, WriteTx};
use orrery_engine::{GameConfig, GameId, Seat, UserId};
use orrery_games::{AnyEvent, AnyState};
use sqlx::Row;

/// A change to one seat of a game in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    pub seat: Seat,
    /// A new player takes the seat (it stops being vacant; their reminder
    /// settings start fresh). The old name is kept for boards of the past.
    pub player: Option<(UserId, String)>,
    pub disorder: Option<bool>,
    pub vacant: Option<bool>,
    /// The player's own reminder points: `Some(None)` follows the game's
    /// settings again, `Some(Some(vec![]))` mutes.
    pub reminders: Option<Option<Vec<i64>>>,
    /// Discord refuses the player's DMs since then (unix ms), or `Some(None)`:
    /// they accept DMs again.
    pub dms_refused: Option<Option<i64>>,
    /// Where the seat's private messages go, chosen for it (`Some(None)`:
    /// the game's setting again).
    pub private_to: Option<Option<PrivateTo>>,
    /// A computer player plays the seat at this level (`Some(Some(level))`)
    /// or a person does (`Some(None)`). `None`: as it was, except that a
    /// new `player` is a person unless this says otherwise.
    pub bot: Option<Option<BotLevel>>,
}

impl SeatChange {
    /// A change that changes nothing yet.
    pub fn new(seat: Seat) -> Self {
        SeatChange {
            seat,
            player: None,
            disorder: None,
            vacant: None,
            reminders: None,
            dms_refused: None,
            private_to: None,
            bot: None,
        }
    }
}

/// What a commit does to the game's deadline.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum DeadlineChange {
    /// Leave it as it is.
    #[default]
    Keep,
    /// A new phase (or step) began: its deadline, with no reminder sent.
    Set(DeadlineSet),
    /// The same deadline moved or paused (host tools): new times, and the
    /// reminders counted as sent.
    Update(DeadlineSet, serde_json::Value),
    /// Only the record of reminders sent changes.
    Reminded(serde_json::Value),
    /// Nothing to wait for automatically any more.
    Clear,
}

/// What a commit does to the game's drafts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum DraftsChange {
    #[default]
    Keep,
    /// Save (or replace) one seat's draft, checked against the log position
    /// the commit expects.
    Save { seat: Seat, line: String, ready: bool },
    /// Delete these drafts, each only if it is still the one drafted against
    /// its `seq`; if none is, nothing at all is written
    /// ([`StoreError::Moved`]).
    Discard(Vec<DraftRow>),
    /// Delete every draft of the game (they were submitted, or are stale).
    ClearAll,
}

/// Everything one change to a game writes. Build with [`Commit::new`] or
/// [`Commit::start`] and the `with_*` methods; write with
/// [`Store::commit`].
#[derive(Clone, Debug, PartialEq)]
pub struct Commit {
    pub game: GameId,
    /// The status the game must have (active; the lobby for a start).
    pub status: GameStatus,
    /// The game's last sequence number when the change was decided (the
    /// optimistic lock); `None`: any (a change that does not depend on the
    /// log, such as a settings change).
    pub expected_seq: Option<i64>,
    /// The deadline row as the change read it, which must be unchanged (a
    /// compare-and-set); `None`: not checked.
    pub expected_deadline: Option<Option<DeadlineRow>>,
    /// A lobby starting: the final config.
    pub start: Option<GameConfig>,
    /// New log entries, stored as `expected_seq + 1 ..`.
    pub events: Vec<AnyEvent>,
    /// The state after `events` (`None`: unchanged, and `events` is empty).
    /// Whether the game is finished is read from it.
    pub state: Option<AnyState>,
    pub seats: Vec<SeatChange>,
    pub drafts: DraftsChange,
    pub deadline: DeadlineChange,
    /// The game's new host settings.
    pub settings: Option<serde_json::Value>,
    /// Outgoing messages, as the service serialized them.
    pub outbox: Vec<serde_json::Value>,
    /// States to keep as snapshots, each right after the log entry it is
    /// keyed on (one of this commit's `events`): where its boards are drawn.
    pub snapshots: Vec<(i64, AnyState)>,
    pub now_ms: i64,
}

impl Commit {
    /// A change to active game `game`, decided at log position `seq`.
    pub fn new(game: GameId, seq: i64, now_ms: i64) -> Self {
        Commit {
            game,
            status: GameStatus::Active,
            expected_seq: Some(seq),
            expected_deadline: None,
            start: None,
            events: Vec::new(),
            state: None,
            seats: Vec::new(),
            drafts: DraftsChange::Keep,
            deadline: DeadlineChange::Keep,
            settings: None,
            outbox: Vec::new(),
            snapshots: Vec::new(),
            now_ms,
        }
    }

    /// A change to active game `game` that does not depend on its log.
    pub fn any_seq(game: GameId, now_ms: i64) -> Self {
        Commit {
            expected_seq: None,
            ..Commit::new(game, 0, now_ms)
        }
    }

    /// Starting lobby `game` with `config`: its set-up events and state.
    pub fn start(game: GameId, config: GameConfig, events: Vec<AnyEvent>, state: AnyState, now_ms: i64) -> Self {
        Commit::starting(game, config, now_ms).with_events(events, state)
    }

    /// Starting lobby `game` with `config`, its set-up events to be added
    /// ([`Commit::with_events`]).
    pub fn starting(game: GameId, config: GameConfig, now_ms: i64) -> Self {
        Commit {
            status: GameStatus::Lobby,
            start: Some(config),
            ..Commit::new(game, 0, now_ms)
        }
    }

    pub fn with_events(mut self, events: Vec<AnyEvent>, state: AnyState) -> Self {
        self.events = events;
        self.state = Some(state);
        self
    }

    pub fn with_seat(mut self, change: SeatChange) -> Self {
        self.seats.push(change);
        self
    }

    pub fn with_drafts(mut self, drafts: DraftsChange) -> Self {
        self.drafts = drafts;
        self
    }

    pub fn with_deadline(mut self, deadline: DeadlineChange) -> Self {
        self.deadline = deadline;
        self
    }

    /// Only if the deadline row is still `read` (`None`: there was none).
    pub fn if_deadline(mut self, read: Option<DeadlineRow>) -> Self {
        self.expected_deadline = Some(read);
        self
    }

    pub fn with_settings(mut self, settings: serde_json::Value) -> Self {
        self.settings = Some(settings);
        self
    }

    /// Keep these states as snapshots (see [`Commit::snapshots`]).
    pub fn with_snapshots(mut self, snapshots: Vec<(i64, AnyState)>) -> Self {
        self.snapshots = snapshots;
        self
    }

    pub fn with_outbox(mut self, outbox: Vec<serde_json::Value>) -> Self {
        self.outbox = outbox;
        self
    }

    /// Whether the game is over after this change.
    pub fn finishes(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.outcome().is_some())
    }
}

impl Store {
    /// Write `c` in one transaction, or nothing. Returns the game's last
    /// sequence number after it.
    ///
    /// Fails, writing nothing, with [`StoreError::WrongStatus`] if the game
    /// is not in `c.status`, [`StoreError::Conflict`] if its log moved past
    /// `c.expected_seq`, [`StoreError::Moved`] if its deadline is no longer
    /// `c.expected_deadline` or none of the drafts to discard is left,
    /// [`StoreError::AlreadySeated`] if a new player already plays another
    /// seat, [`StoreError::NotFound`] for an unknown game or seat.
    pub async fn commit(&self, c: Commit) -> StoreResult<i64> {
        self.seen(async {
            // Serialize everything before writing anything.
            let state = c.state.as_ref().map(codec::encode_state).transpose()?;
            let events = c.events.iter().map(codec::encode).collect::<StoreResult<Vec<_>>>()?;
            let outbox = c.outbox.iter().map(NewOutboxRow::of).collect::<StoreResult<Vec<_>>>()?;
            let snapshots = c
                .snapshots
                .iter()
                .map(|(seq, s)| Ok((*seq, codec::encode_state(s)?)))
                .collect::<StoreResult<Vec<_>>>()?;
            let settings = c.settings.as_ref().map(|s| to_json("settings", s)).transpose()?;
            let config = c.start.as_ref().map(|s| to_json("game config", s)).transpose()?;
            if state.is_none() && !events.is_empty() {
                return Err(StoreError::Corrupt(
                    "events committed without the state after them".into(),
                ));
            }
            let game = c.game;

            let mut tx = self.begin_write().await?;
            lock_game(&mut tx, game, c.status, c.expected_seq).await?;
            if let Some(expected) = &c.expected_deadline {
                let lock = match self.backend {
                    Backend::Postgres => " FOR UPDATE",
                    Backend::Sqlite => "",
                };
                let now = sqlx::query(&format!(
                    "SELECT game_id, phase, due_at, reminded, paused_remaining FROM deadlines WHERE game_id = $1{lock}"
                ))
                .bind(game.0)
                .fetch_optional(&mut *tx)
                .await?
                .map(|r| deadline_from_row(&r))
                .transpose()?;
                if now != *expected {
                    tx.rollback().await?;
                    return Err(StoreError::Moved(format!("the deadline of game {game} changed")));
                }
            }
            let base = match c.expected_seq {
                Some(s) => s,
                None => sqlx::query("SELECT seq FROM games WHERE id = $1")
                    .bind(game.0)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get(0)?,
            };
            if let Some(config) = config {
                sqlx::query("UPDATE games SET config = $2 WHERE id = $1")
                    .bind(game.0)
                    .bind(config)
                    .execute(&mut *tx)
                    .await?;
            }
            for change in &c.seats {
                change_seat(&mut tx, game, base, change).await?;
            }
            match &c.drafts {
                DraftsChange::Keep => {}
                DraftsChange::Save { seat, line, ready } => {
                    sqlx::query(
                    "INSERT INTO drafts (game_id, seat, seq, line, ready, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (game_id, seat) DO UPDATE SET seq = excluded.seq, line = excluded.line,
                     ready = excluded.ready, updated_at = excluded.updated_at",
                )
                .bind(game.0)
                .bind(i64::from(seat.0))
                .bind(base)
                .bind(line.as_str())
                .bind(i64::from(*ready))
                .bind(c.now_ms)
                .execute(&mut *tx)
                .await?;
                }
                DraftsChange::Discard(drafts) => {
                    let mut n = 0;
                    for d in drafts {
                        n += sqlx::query(
                            "DELETE FROM drafts WHERE game_id = $1 AND seat = $2 AND seq = $3 AND line = $4",
                        )
                        .bind(game.0)
                        .bind(i64::from(d.seat.0))
                        .bind(d.seq)
                        .bind(&d.line)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                    }
                    if n == 0 {
                        tx.rollback().await?;
                        return Err(StoreError::Moved(format!("the drafts of game {game} changed")));
                    }
                }
                DraftsChange::ClearAll => {
                    sqlx::query("DELETE FROM drafts WHERE game_id = $1")
                        .bind(game.0)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            for (seq, event) in (base + 1..).zip(&events) {
                let inserted = sqlx::query(
                "INSERT INTO events (game_id, seq, event, created_at, batch, version) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(game.0)
            .bind(seq)
            .bind(&event.json)
            .bind(c.now_ms)
            .bind(base)
            .bind(event.version)
            .execute(&mut *tx)
            .await;
                match inserted {
                    Ok(_) => {}
                    Err(e) if is_unique_violation(&e) => {
                        // The log holds events past the row's `seq`: another
                        // writer (or a torn history) got there first.
                        tx.rollback().await?;
                        return Err(self.conflict_from_log(game, base).await);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            let new_seq = base + events.len() as i64;
            for (seq, state) in snapshots {
                if seq <= base || seq > new_seq {
                    tx.rollback().await?;
                    return Err(StoreError::Corrupt(format!(
                        "a snapshot at entry {seq} of game {game}, outside this commit's entries {}..={new_seq}",
                        base + 1
                    )));
                }
                sqlx::query("INSERT INTO snapshots (game_id, seq, state, created_at) VALUES ($1, $2, $3, $4)")
                    .bind(game.0)
                    .bind(seq)
                    .bind(state)
                    .bind(c.now_ms)
                    .execute(&mut *tx)
                    .await?;
            }
            let finished = c.finishes();
            if let Some(state) = state {
                let status = if finished {
                    GameStatus::Finished
                } else {
                    GameStatus::Active
                };
                sqlx::query("UPDATE games SET state = $2, seq = $3, status = $4, updated_at = $5 WHERE id = $1")
                    .bind(game.0)
                    .bind(state)
                    .bind(new_seq)
                    .bind(status.as_str())
                    .bind(c.now_ms)
                    .execute(&mut *tx)
                    .await?;
            }
            if let Some(settings) = settings {
                sqlx::query("UPDATE games SET settings = $2, updated_at = $3 WHERE id = $1")
                    .bind(game.0)
                    .bind(settings)
                    .bind(c.now_ms)
                    .execute(&mut *tx)
                    .await?;
            }
            let deadline = if finished { &DeadlineChange::Clear } else { &c.deadline };
            write_deadline(&mut tx, game, deadline).await?;
            for row in outbox {
                row.insert(&mut tx, Some(game), c.now_ms).await?;
            }
            tx.commit().await?;
            Ok(new_seq)
        })
        .await
    }

    /// The conflict to report when inserting an event hit an existing one.
    async fn conflict_from_log(&self, game: GameId, expected: i64) -> StoreError {
        let actual = sqlx::query("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1")
            .bind(game.0)
            .fetch_one(&self.pool)
            .await
            .and_then(|row| row.try_get::<i64, _>(0));
        match actual {
            Ok(actual) => StoreError::Conflict { expected, actual },
            Err(e) => e.into(),
        }
    }
}

async fn write_deadline(tx: &mut WriteTx, game: GameId, change: &DeadlineChange) -> StoreResult<()> {
    match change {
        DeadlineChange::Keep => {}
        DeadlineChange::Set(d) => {
            sqlx::query(
                "INSERT INTO deadlines (game_id, phase, due_at, reminded, paused_remaining) VALUES ($1, $2, $3, '[]', $4)
                 ON CONFLICT (game_id) DO UPDATE SET phase = excluded.phase, due_at = excluded.due_at,
                 reminded = '[]', paused_remaining = excluded.paused_remaining",
            )
            .bind(game.0)
            .bind(d.phase)
            .bind(d.due_at)
            .bind(d.paused_remaining)
            .execute(&mut **tx)
            .await?;
        }
        DeadlineChange::Update(d, reminded) => {
            sqlx::query(
                "INSERT INTO deadlines (game_id, phase, due_at, reminded, paused_remaining) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (game_id) DO UPDATE SET phase = excluded.phase, due_at = excluded.due_at,
                 reminded = excluded.reminded, paused_remaining = excluded.paused_remaining",
            )
            .bind(game.0)
            .bind(d.phase)
            .bind(d.due_at)
            .bind(to_json("reminders", reminded)?)
            .bind(d.paused_remaining)
            .execute(&mut **tx)
            .await?;
        }
        DeadlineChange::Reminded(reminded) => {
            if !reminded.is_array() {
                return Err(StoreError::Corrupt(format!(
                    "reminders must be a JSON array, not {reminded}"
                )));
            }
            sqlx::query("UPDATE deadlines SET reminded = $2 WHERE game_id = $1")
                .bind(game.0)
                .bind(to_json("reminders", reminded)?)
                .execute(&mut **tx)
                .await?;
        }
        DeadlineChange::Clear => {
            sqlx::query("DELETE FROM deadlines WHERE game_id = $1")
                .bind(game.0)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

/// One seat change, inside the commit's transaction; `seq` is the log
/// position it happens at (a new player's name counts for boards from
/// there on; the old one is kept for the boards before).
async fn change_seat(tx: &mut WriteTx, game: GameId, seq: i64, change: &SeatChange) -> StoreResult<()> {
    let seat = i64::from(change.seat.0);
    let exists = sqlx::query("SELECT user_id, name FROM seats WHERE game_id = $1 AND seat = $2")
        .bind(game.0)
        .bind(seat)
        .fetch_optional(&mut **tx)
        .await?;
    let Some(current) = exists else {
        return Err(StoreError::NotFound(format!("{} of game {game}", change.seat)));
    };
    let current_user = UserId(id_from_db(current.try_get(0)?));
    let current_name: String = current.try_get(1)?;
    if let Some((user, name)) = &change.player {
        if *user != current_user {
            let other = sqlx::query("SELECT seat FROM seats WHERE game_id = $1 AND user_id = $2")
                .bind(game.0)
                .bind(id_to_db(user.0))
                .fetch_optional(&mut **tx)
                .await?;
            if let Some(other) = other {
                let other: i64 = other.try_get(0)?;
                return Err(StoreError::AlreadySeated {
                    game,
                    user: *user,
                    seat: seat_from_db(other)?,
                });
            }
        }
        if *name != current_name {
            sqlx::query(
                "INSERT INTO seat_names (game_id, seat, until_seq, name) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, seat, until_seq) DO NOTHING",
            )
            .bind(game.0)
            .bind(seat)
            .bind(seq)
            .bind(current_name.as_str())
            .execute(&mut **tx)
            .await?;
        }
        sqlx::query(
            "UPDATE seats SET user_id = $3, name = $4, vacant = 0, reminders = NULL, dms_refused_at = NULL WHERE game_id = $1 AND seat = $2",
        )
        .bind(game.0)
        .bind(seat)
        .bind(id_to_db(user.0))
        .bind(name.as_str())
        .execute(&mut **tx)
        .await?;
        if *user != current_user {
            // A new player: their private messages follow the game's
            // setting, and never go to the last player's thread.
            sqlx::query("UPDATE seats SET private_to = NULL, thread_id = NULL WHERE game_id = $1 AND seat = $2")
                .bind(game.0)
                .bind(seat)
                .execute(&mut **tx)
                .await?;
        }
    }
    let bot = match (&change.bot, &change.player) {
        (Some(level), _) => Some(*level),
        (None, Some(_)) => Some(None),
        (None, None) => None,
    };
    if let Some(level) = bot {
        sqlx::query("UPDATE seats SET bot = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .bind(level.map(BotLevel::as_str))
            .execute(&mut **tx)
            .await?;
    }
    if let Some(to) = change.private_to {
        sqlx::query("UPDATE seats SET private_to = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .bind(to.map(|t| t.as_str()))
            .execute(&mut **tx)
            .await?;
    }
    if let Some(on) = change.disorder {
        sqlx::query("UPDATE seats SET disorder = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .bind(i64::from(on))
            .execute(&mut **tx)
            .await?;
    }
    if let Some(on) = change.vacant {
        sqlx::query("UPDATE seats SET vacant = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .bind(i64::from(on))
            .execute(&mut **tx)
            .await?;
    }
    if let Some(at) = change.dms_refused {
        sqlx::query("UPDATE seats SET dms_refused_at = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .bind(at)
            .execute(&mut **tx)
            .await?;
    }
    if let Some(points) = &change.reminders {
        let text = points.as_ref().map(|p| to_json("reminder points", p)).transpose()?;
        sqlx::query("UPDATE seats SET reminders = $3 WHERE game_id = $1 AND seat = $2")
            .bind(game.0)
            .bind(seat)
            .bind(text)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
