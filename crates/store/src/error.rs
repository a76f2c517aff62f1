//! The store's typed errors.

use super::GameStatus;
use orrery_engine::{GameId, Seat, UserId};

/// What can go wrong in a store call, typed so callers can react: reload
/// and retry on [`StoreError::Conflict`], tell the user on
/// [`StoreError::AlreadySeated`], and so on.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Optimistic-lock failure: someone else appended to the game's log
    /// first. `expected` is the sequence number the caller based its events
    /// on, `actual` the game's last sequence number now. Reload and retry.
    #[error("the game moved on while this was decided (expected event {expected}, the log is at {actual})")]
    Conflict {
        /// The `expected_seq` the caller passed.
        expected: i64,
        /// The last sequence number in the store.
        actual: i64,
    },
    /// The game (or the seat, or the outbox row…) does not exist. The
    /// string says what was looked for.
    #[error("{0} not found")]
    NotFound(String),
    /// The user already sits at this game.
    #[error("user {user} is already seated in game {game} ({seat})")]
    AlreadySeated {
        /// The game.
        game: GameId,
        /// The user.
        user: UserId,
        /// Where they sit.
        seat: Seat,
    },
    /// The operation is not allowed in the game's current status (seating
    /// outside the lobby, starting a started game, appending to a finished
    /// one).
    #[error("game {game} is {actual}, not {expected}")]
    WrongStatus {
        /// The game.
        game: GameId,
        /// The status the operation needs.
        expected: GameStatus,
        /// The status the game has.
        actual: GameStatus,
    },
    /// A compare-and-set precondition of a [`super::Commit`] failed: the
    /// deadline (or the drafts) it was decided on changed meanwhile. Nothing
    /// was written; the change is no longer due.
    #[error("{0}")]
    Moved(String),
    /// The database has no room to write: its disk is full (SQLite's
    /// `SQLITE_FULL`, PostgreSQL's `disk_full`, or `ENOSPC`). Nothing was
    /// written; the same write succeeds once the disk has room again, with
    /// no restart.
    #[error("the database is full: {0}")]
    Full(sqlx::Error),
    /// A delivery pass's claim on outbox row `id` is no longer held:
    /// another pass took the row over (this one's lease ran out, it was
    /// taken for dead), and may have delivered it and the ones after it.
    /// Nothing was written; whatever this pass sent for the row is
    /// superseded.
    #[error("outbox message {id} is no longer claimed by this delivery pass")]
    Superseded {
        /// The outbox row.
        id: i64,
    },
    /// The database cannot be reached: no connection came within the
    /// pool's acquire timeout ([`crate::ACQUIRE_TIMEOUT`] on PostgreSQL),
    /// the connection broke, or the server is shutting down or starting.
    /// Nothing was written; the same call succeeds once the database is
    /// back, with no restart.
    #[error("the database cannot be reached: {0}")]
    Unavailable(sqlx::Error),
    /// The database failed.
    #[error("database error: {0}")]
    Db(sqlx::Error),
    /// A game's log is damaged: its entry `entry` (and so every entry
    /// after it) does not decode. That game cannot be loaded until the
    /// host has it repaired; no other game is concerned.
    #[error("the log of game {game} is damaged from entry {entry}: {why}")]
    Damaged {
        /// The game.
        game: GameId,
        /// The first entry that does not decode.
        entry: i64,
        /// What is wrong with it.
        why: String,
    },
    /// Stored data that does not parse (JSON, an unknown game kind or
    /// status, an out-of-range seat), or a value that would not serialize.
    #[error("corrupt data in the store: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Is this an optimistic-lock conflict (worth a reload and retry)?
    pub fn is_conflict(&self) -> bool {
        matches!(self, StoreError::Conflict { .. })
    }

    /// The game and first damaged entry, if this is [`StoreError::Damaged`].
    pub fn damaged(&self) -> Option<(GameId, i64)> {
        match self {
            StoreError::Damaged { game, entry, .. } => Some((*game, *entry)),
            _ => None,
        }
    }

    /// Did the database refuse the write for want of room?
    pub fn is_full(&self) -> bool {
        matches!(self, StoreError::Full(_))
    }

    /// Was a delivery pass's claim taken over ([`StoreError::Superseded`])?
    pub fn is_superseded(&self) -> bool {
        matches!(self, StoreError::Superseded { .. })
    }

    /// Could the database not be reached?
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }
}

/// A database error is [`StoreError::Full`] when the disk is full,
/// [`StoreError::Unavailable`] when the database cannot be reached, and
/// [`StoreError::Db`] otherwise.
impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if is_storage_full(&e) {
            StoreError::Full(e)
        } else if is_unreachable(&e) {
            StoreError::Unavailable(e)
        } else {
            StoreError::Db(e)
        }
    }
}

/// Did the call fail because the database cannot be reached: no
/// connection in time, a broken connection (an I/O or TLS error that is
/// not a full disk), or PostgreSQL's connection exceptions (SQLSTATE class
/// `08`) and its `admin_shutdown`, `crash_shutdown` and
/// `cannot_connect_now` (`57P01`-`57P03`)?
pub(crate) fn is_unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut | sqlx::Error::Tls(_) => true,
        sqlx::Error::Io(io) => io.kind() != std::io::ErrorKind::StorageFull,
        sqlx::Error::Database(d) if d.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_none() => d
            .code()
            .is_some_and(|c| c.starts_with("08") || matches!(c.as_ref(), "57P01" | "57P02" | "57P03")),
        _ => false,
    }
}

/// SQLite's primary result code for "database or disk is full".
const SQLITE_FULL: i32 = 13;
/// PostgreSQL's SQLSTATE `disk_full`.
const POSTGRES_DISK_FULL: &str = "53100";

/// Did the write fail for want of room on the disk?
pub(crate) fn is_storage_full(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            let code = d.code();
            if d.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                // The extended result code; its low byte is the primary one.
                code.and_then(|c| c.parse::<i32>().ok())
                    .is_some_and(|c| c & 0xff == SQLITE_FULL)
            } else {
                code.as_deref() == Some(POSTGRES_DISK_FULL)
            }
        }
        sqlx::Error::Io(io) => io.kind() == std::io::ErrorKind::StorageFull,
        _ => false,
    }
}

/// Shorthand for results of store calls.
pub type StoreResult<T> = Result<T, StoreError>;

/// Did the statement fail on a UNIQUE or PRIMARY KEY constraint? Works for
/// both backends: the Any driver passes the driver's own error through.
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
