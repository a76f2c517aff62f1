//! Persistence: game rows, seats, the event log, the outbox, deadlines and
//! live messages, in SQLite or PostgreSQL.
//!
//! One code path serves both databases: the store talks to an
//! [`sqlx::AnyPool`] and writes SQL both dialects accept (`$1` placeholders,
//! `RETURNING`, `ON CONFLICT … DO UPDATE`, partial indexes). The dialect
//! differences live in the schema, `migrations/sqlite/` and
//! `migrations/postgres/`, which are embedded in the binary and run by
//! [`Store::connect`].
//!
//! # The event log and the optimistic lock
//!
//! A game's state is the fold of its events. The `games` row caches the
//! fold (`state`) and the sequence number of the last event (`seq`).
//! [`Store::commit`], the one write path of a game in play, writes new
//! events, the new state, seat and draft changes, the deadline and the
//! outgoing messages they cause in one transaction, and only if `seq` is
//! still what the caller read; otherwise it fails with
//! [`StoreError::Conflict`] and nothing is written. The `(game_id, seq)` primary key of `events` backs
//! this up: two writers can never both store event *n*.
//!
//! # Game ids
//!
//! Game ids (and outbox ids) are allocated by the database itself, an
//! `AUTOINCREMENT` rowid on SQLite and an identity sequence on PostgreSQL,
//! read back with `INSERT … RETURNING id`. Neither can hand the same id to
//! two concurrent inserts, neither reuses ids, and no retry loop is needed.
//! (PostgreSQL may leave a gap when an insert rolls back; ids are only
//! names.)
//!
//! # Transactions on SQLite
//!
//! Write transactions on SQLite start with `BEGIN IMMEDIATE`, taking the
//! write lock up front, so they wait instead of failing when another
//! connection commits between their first read and first write. A
//! process's own writers first queue for their turn (`Store::write_turn`,
//! in order); only writers of other processes meet SQLite's busy timeout. On PostgreSQL every write transaction touches the game row first
//! (`UPDATE games … WHERE id = $1`), which row-locks the game and so
//! serializes writers per game.

pub mod codec;
mod commit;
mod deadlines;
mod drafts;
mod error;
mod games;
mod live;
mod log;
mod outbox;
mod seats;
mod snapshots;
mod types;
mod watchers;

pub use commit::{Commit, DeadlineChange, DraftsChange, SeatChange};
pub use drafts::DraftRow;
pub use error::{StoreError, StoreResult};
pub use live::LiveRow;
pub use log::LogEntry;
pub use outbox::Claims;
pub use types::{Backend, DeadlineRow, DeadlineSet, GameRow, GameStatus, NewGame, OutboxRow, PrivateTo, SeatRow};

use anyhow::{bail, Context};
use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::{Any, AnyConnection, AnyPool, Executor, Row, Transaction};
use std::time::Duration;

/// The database [`Store::connect`] uses when none is configured.
pub const DEFAULT_URL: &str = "sqlite://orrery.db";

/// How long a SQLite connection waits for another's write lock.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// How often a SQLite file store copies its write-ahead log into the
/// database file (a passive checkpoint, which waits for no reader or
/// writer), in a task of its own. Left to SQLite, the commit that fills
/// the log past 1,000 pages does it, and every such commit took several
/// milliseconds longer: most of an order's p99 latency.
pub const SQLITE_CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// Past this many pages of write-ahead log a committing connection still
/// checkpoints itself (SQLite's automatic checkpoint): only when the
/// background checkpoints fall far behind (80 MB at 4 KiB pages).
const SQLITE_AUTOCHECKPOINT_PAGES: u32 = 20_000;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/postgres");

/// The persistence layer. Cheap to clone: clones share one connection pool.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// SQLite: the process's turn to write ([`Store::write_turn`]).
    writer: Option<std::sync::Arc<tokio::sync::Mutex<()>>>,
    /// A SQLite file's checkpoint task, stopped when the last clone of
    /// the store is dropped (or the pool closed).
    _checkpoints: Option<std::sync::Arc<StopOnDrop>>,
}

/// Cancels its token when dropped.
#[derive(Debug)]
struct StopOnDrop(tokio_util::sync::CancellationToken);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Checkpoint the SQLite database of `pool` every
/// [`SQLITE_CHECKPOINT_EVERY`] until the returned guard is dropped or the
/// pool closed.
fn spawn_checkpoints(pool: AnyPool) -> std::sync::Arc<StopOnDrop> {
    let stop = tokio_util::sync::CancellationToken::new();
    let guard = std::sync::Arc::new(StopOnDrop(stop.clone()));
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.cancelled() => return,
                _ = tokio::time::sleep(SQLITE_CHECKPOINT_EVERY) => {}
            }
            if pool.is_closed() {
                return;
            }
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&pool).await {
                if pool.is_closed() {
                    return;
                }
                tracing::warn!("SQLite checkpoint failed (SQLite checkpoints on commit instead): {e}");
            }
        }
    });
    guard
}

impl Store {
    /// Connect to `url` and bring its schema up to date.
    ///
    /// Accepted URLs: `sqlite://orrery.db` (relative to the working
    /// directory), `sqlite:///abs/path.db`, `sqlite::memory:` (a private
    /// in-memory database, for tests), `postgres://…` / `postgresql://…`.
    ///
    /// SQLite files (and missing parent directories) are created unless the
    /// URL gives a `mode=`; every SQLite connection runs in WAL journal mode
    /// with foreign keys on and a [`SQLITE_BUSY_TIMEOUT`]. An in-memory
    /// database lives in the pool's single connection, which is never
    /// closed while the pool lives.
    pub async fn connect(url: &str) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let Some(backend) = Backend::from_url(url) else {
            bail!("unsupported database URL `{url}`: expected sqlite:… or postgres://…");
        };
        let (url, pool) = match backend {
            Backend::Sqlite => {
                let url = sqlite_url(url);
                let pool = if sqlite_is_memory(&url) {
                    // Every connection to `:memory:` is its own database: keep
                    // exactly one, forever.
                    AnyPoolOptions::new()
                        .max_connections(1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None)
                } else {
                    create_parent_dir(&url)?;
                    AnyPoolOptions::new().max_connections(4)
                };
                (url, pool.after_connect(|conn, _| Box::pin(sqlite_session(conn))))
            }
            Backend::Postgres => (url.to_string(), AnyPoolOptions::new().max_connections(8)),
        };
        let pool = pool
            .connect(&url)
            .await
            .with_context(|| format!("cannot open the {backend} database at {}", redact(&url)))?;
        let checkpoints =
            (backend == Backend::Sqlite && !sqlite_is_memory(&url)).then(|| spawn_checkpoints(pool.clone()));
        let store = Store {
            pool,
            backend,
            writer: (backend == Backend::Sqlite).then(|| std::sync::Arc::new(tokio::sync::Mutex::new(()))),
            _checkpoints: checkpoints,
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Run the embedded migrations of this backend that have not run yet.
    /// Idempotent; [`Store::connect`] already calls it.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let migrator = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator
            .run(&self.pool)
            .await
            .with_context(|| format!("cannot migrate the {} database", self.backend))
    }

    /// Which database this store talks to.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The underlying pool, for diagnostics and tests. Prefer the typed
    /// methods: raw SQL must work on both backends.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Close every connection (waits for checked-out ones to come back).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Begin a write transaction (`BEGIN IMMEDIATE` on SQLite, after
    /// waiting for this process's turn to write).
    async fn begin_write(&self) -> Result<WriteTx, sqlx::Error> {
        let turn = self.write_turn().await;
        let tx = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok(WriteTx { tx, _turn: turn })
    }

    /// On SQLite, this process's turn to write, held until dropped: its
    /// writers queue here in order instead of in SQLite's busy handler,
    /// whose sleeps (1, 2, 5, … 100 ms) made a busy moment's commits wait
    /// far longer than the writes ahead of them took. (Other processes on
    /// the same file still meet the busy timeout.) `None` on PostgreSQL.
    async fn write_turn(&self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        match &self.writer {
            Some(writer) => Some(std::sync::Arc::clone(writer).lock_owned().await),
            None => None,
        }
    }
}

/// A write transaction; on SQLite it holds the process's turn to write
/// ([`Store::write_turn`]) until it ends. Derefs to its connection.
pub(crate) struct WriteTx {
    tx: Transaction<'static, Any>,
    _turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl WriteTx {
    pub(crate) async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }

    pub(crate) async fn rollback(self) -> Result<(), sqlx::Error> {
        self.tx.rollback().await
    }
}

impl std::ops::Deref for WriteTx {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        &self.tx
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.tx
    }
}

/// Per-connection SQLite settings. `journal_mode = WAL` is persistent in the
/// file, but setting it on every connection also covers a database created
/// by someone else; it is a no-op once the file is in WAL mode. Commits
/// leave checkpoints to the store's task ([`SQLITE_CHECKPOINT_EVERY`]).
async fn sqlite_session(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    conn.execute(format!("PRAGMA busy_timeout = {}", SQLITE_BUSY_TIMEOUT.as_millis()).as_str())
        .await?;
    conn.execute("PRAGMA foreign_keys = ON").await?;
    conn.execute(format!("PRAGMA wal_autocheckpoint = {SQLITE_AUTOCHECKPOINT_PAGES}").as_str())
        .await?;
    let mode: String = sqlx::query("PRAGMA journal_mode = WAL")
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    if !mode.eq_ignore_ascii_case("wal") && !mode.eq_ignore_ascii_case("memory") {
        tracing::warn!(journal_mode = %mode, "SQLite refused WAL journal mode");
    }
    Ok(())
}

/// Add `mode=rwc` (create the file if missing) to a SQLite URL that does
/// not choose a mode and is not in-memory.
fn sqlite_url(url: &str) -> String {
    if sqlite_is_memory(url) || query_of(url).split('&').any(|kv| kv.starts_with("mode=")) {
        return url.to_string();
    }
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}mode=rwc")
}

fn sqlite_is_memory(url: &str) -> bool {
    sqlite_path(url) == ":memory:" || query_of(url).split('&').any(|kv| kv == "mode=memory")
}

fn query_of(url: &str) -> &str {
    url.split_once('?').map_or("", |(_, q)| q)
}

/// The file part of a SQLite URL, the way sqlx reads it.
fn sqlite_path(url: &str) -> &str {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    rest.split_once('?').map_or(rest, |(path, _)| path)
}

fn create_parent_dir(url: &str) -> anyhow::Result<()> {
    let path = std::path::Path::new(sqlite_path(url));
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {} for the database", dir.display())),
        _ => Ok(()),
    }
}

/// The URL without its password, for error messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let userinfo = &url[s + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_get_create_mode() {
        assert_eq!(sqlite_url("sqlite://orrery.db"), "sqlite://orrery.db?mode=rwc");
        assert_eq!(sqlite_url("sqlite:///tmp/g.db"), "sqlite:///tmp/g.db?mode=rwc");
        assert_eq!(
            sqlite_url("sqlite:///tmp/g.db?cache=private"),
            "sqlite:///tmp/g.db?cache=private&mode=rwc"
        );
        assert_eq!(sqlite_url("sqlite:///tmp/g.db?mode=ro"), "sqlite:///tmp/g.db?mode=ro");
        assert_eq!(sqlite_url("sqlite::memory:"), "sqlite::memory:");
        assert_eq!(sqlite_url("sqlite://?mode=memory"), "sqlite://?mode=memory");
        assert!(sqlite_is_memory("sqlite::memory:"));
        assert!(sqlite_is_memory("sqlite://:memory:"));
        assert!(!sqlite_is_memory("sqlite://orrery.db"));
        assert_eq!(sqlite_path("sqlite:///tmp/g.db?mode=rwc"), "/tmp/g.db");
        assert_eq!(sqlite_path("sqlite://data/orrery.db"), "data/orrery.db");
    }

    #[test]
    fn backends_by_scheme() {
        assert_eq!(Backend::from_url("sqlite://x.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::from_url("sqlite::memory:"), Some(Backend::Sqlite));
        assert_eq!(Backend::from_url("postgres://u@h/db"), Some(Backend::Postgres));
        assert_eq!(Backend::from_url("postgresql://u@h/db"), Some(Backend::Postgres));
        assert_eq!(Backend::from_url("mysql://u@h/db"), None);
        assert_eq!(Backend::from_url("orrery.db"), None);
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(redact("postgres://u:secret@h:5432/db"), "postgres://u:***@h:5432/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite://orrery.db"), "sqlite://orrery.db");
    }
}
