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
//!
//! # A full disk
//!
//! A write the disk has no room for fails with [`StoreError::Full`], and
//! nothing of it is written. SQLite may roll such a transaction back by
//! itself, after which the connection's own `ROLLBACK` fails and sqlx
//! would go on thinking it is in a transaction (every later `BEGIN` on it
//! refused): a connection whose transaction could not be closed is
//! discarded when it comes back to the pool, never reused, so the store
//! writes again by itself once the disk has room. The store logs one error
//! when writes start failing for want of room and one line when they
//! succeed again, and counts both for operators ([`Store::health`]).
//!
//! # A database that cannot be reached
//!
//! On PostgreSQL a call waits at most [`ACQUIRE_TIMEOUT`] for a
//! connection (sqlx's default is 30 s, and Discord gives an interaction
//! 3 s): while the server is down or unreachable, calls fail quickly with
//! [`StoreError::Unavailable`], nothing written, and succeed again by
//! themselves once it is back. The store logs one error when calls start
//! failing so and one line when they succeed again, and counts them for
//! operators ([`Store::health`]).
//!
//! # One process per SQLite file
//!
//! SQLite serves one process: [`Store::connect`] takes an exclusive lock
//! on `<file>.lock` (released when the process ends, however it ends) and
//! refuses a file another process holds, before it migrates anything.
//! Several processes share a PostgreSQL database instead.

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
pub use types::{
    bot_number, bot_user, is_bot_user, Backend, BotLevel, DeadlineRow, DeadlineSet, GameRow, GameStatus, NewGame,
    OutboxRow, PrivateTo, SeatRow,
};

use anyhow::{bail, Context};
use sqlx::any::AnyPoolOptions;
use sqlx::migrate::Migrator;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Database, Executor, Row, Transaction, TransactionManager};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

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

/// While writes keep failing for want of room (or the database cannot be
/// reached), the error is logged again at most this often.
const FULL_LOG_EVERY: Duration = Duration::from_secs(600);

/// How long a PostgreSQL call waits for a connection before it fails
/// with [`StoreError::Unavailable`]: short enough that a player hears
/// "storage unavailable" within Discord's 3 s interaction window.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);

/// The persistence layer. Cheap to clone: clones share one connection pool.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// What operators watch ([`Store::health`]), shared with the pool's
    /// release hook.
    health: Arc<Health>,
    /// A SQLite file: this process's lock on it ([`lock_sqlite_file`]).
    _lock: Option<Arc<FileLock>>,
    /// SQLite: the process's turn to write ([`Store::write_turn`]).
    writer: Option<Arc<tokio::sync::Mutex<()>>>,
    /// A SQLite file's checkpoint task, stopped when the last clone of
    /// the store is dropped (or the pool closed).
    _checkpoints: Option<Arc<StopOnDrop>>,
}

/// Cancels its token when dropped.
#[derive(Debug)]
struct StopOnDrop(tokio_util::sync::CancellationToken);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The store's health, for operators: whether it can write, and what went
/// wrong since the process started ([`Store::health`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageHealth {
    /// False from a write refused for want of room ([`StoreError::Full`])
    /// until a write succeeds again.
    pub writable: bool,
    /// Writes refused for want of room.
    pub full_errors: u64,
    /// Connections discarded because their transaction could not be
    /// closed (the database had rolled it back by itself).
    pub discarded_connections: u64,
    /// False from a call that could not reach the database
    /// ([`StoreError::Unavailable`]) until one succeeds again.
    pub reachable: bool,
    /// Calls that failed because the database could not be reached.
    pub unavailable_errors: u64,
}

#[derive(Debug, Default)]
struct Health {
    full: AtomicBool,
    full_errors: AtomicU64,
    discarded: AtomicU64,
    /// When the full disk was last logged, while it still is.
    logged: Mutex<Option<Instant>>,
    unreachable: AtomicBool,
    unavailable_errors: AtomicU64,
    /// When the unreachable database was last logged, while it still is.
    logged_unreachable: Mutex<Option<Instant>>,
}

impl Health {
    /// Count a write's outcome: log the first refusal for want of room
    /// (and again every [`FULL_LOG_EVERY`] while they go on), and the
    /// first success after them.
    fn record<T>(&self, backend: Backend, result: &StoreResult<T>) {
        if !matches!(result, Err(StoreError::Unavailable(_))) && self.unreachable.swap(false, Ordering::Relaxed) {
            let mut logged = self.logged_unreachable.lock().unwrap_or_else(|e| e.into_inner());
            if logged.take().is_some() {
                tracing::info!(%backend, "the database can be reached again");
            }
        }
        match result {
            Ok(_) => {
                if self.full.swap(false, Ordering::Relaxed) {
                    let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
                    if logged.take().is_some() {
                        tracing::info!(%backend, "the database has room again: writes succeed");
                    }
                }
            }
            Err(StoreError::Full(e)) => {
                let n = failing(&self.full, &self.full_errors, &self.logged);
                if let Some(n) = n {
                    tracing::error!(
                        %backend,
                        refused = n,
                        "the database is full ({e}): nothing can be written until its disk has room; \
                         players are told the game's storage is full, and writes succeed again by themselves"
                    );
                }
            }
            Err(StoreError::Unavailable(e)) => {
                let n = failing(&self.unreachable, &self.unavailable_errors, &self.logged_unreachable);
                if let Some(n) = n {
                    tracing::error!(
                        %backend,
                        failed = n,
                        "the database cannot be reached ({e}): players are told the storage is unavailable, \
                         delivery keeps retrying, and calls succeed again by themselves once it is back"
                    );
                }
            }
            Err(_) => {}
        }
    }
}

/// One more failure of a kind: raise its `flag`, count it, and say
/// whether to log it (the first, then at most every [`FULL_LOG_EVERY`]):
/// `Some(count)` then.
fn failing(flag: &AtomicBool, count: &AtomicU64, logged: &Mutex<Option<Instant>>) -> Option<u64> {
    flag.store(true, Ordering::Relaxed);
    let n = count.fetch_add(1, Ordering::Relaxed) + 1;
    let mut logged = logged.lock().unwrap_or_else(|e| e.into_inner());
    if logged.is_none_or(|at| at.elapsed() >= FULL_LOG_EVERY) {
        *logged = Some(Instant::now());
        Some(n)
    } else {
        None
    }
}

/// The pool's release hook: a connection still inside a transaction once
/// its transaction was dropped (the database rolled it back by itself, so
/// sqlx's own `ROLLBACK` failed and sqlx still counts one open) would
/// refuse every later `BEGIN`: it is discarded. The one connection of an
/// in-memory database is the database: it is put back in step instead (a
/// `BEGIN` for sqlx's pending `ROLLBACK` to end).
async fn release(conn: &mut AnyConnection, health: &Health, memory: bool) -> Result<bool, sqlx::Error> {
    type Manager = <Any as Database>::TransactionManager;
    // Runs the `ROLLBACK` a dropped transaction left queued.
    conn.ping().await?;
    if Manager::get_transaction_depth(conn) == 0 {
        return Ok(true);
    }
    if memory {
        let _ = conn.execute("BEGIN").await;
        let _ = Manager::rollback(conn).await;
        if Manager::get_transaction_depth(conn) == 0 {
            return Ok(true);
        }
    }
    health.discarded.fetch_add(1, Ordering::Relaxed);
    if health.full.load(Ordering::Relaxed) {
        // A full disk, logged once already.
        tracing::debug!("discarding a database connection whose transaction could not be closed");
    } else {
        tracing::warn!("discarding a database connection whose transaction could not be closed");
    }
    Ok(false)
}

/// This process's exclusive lock on a SQLite file (on `<file>.lock`),
/// held while any store of the process has the file open.
#[derive(Debug)]
struct FileLock {
    _file: std::fs::File,
    /// The lock file's path, parent directory canonicalized.
    path: PathBuf,
}

/// The SQLite files this process holds, so that its own second store of a
/// file shares the lock instead of meeting it.
static LOCKS: Mutex<Vec<Weak<FileLock>>> = Mutex::new(Vec::new());

/// Lock the SQLite file `db` for this process, or refuse it with a clear
/// message if another process holds it. (Without the lock, processes
/// started together on a new file raced to migrate it, and SQLite serves
/// one process anyway.)
fn lock_sqlite_file(db: &Path) -> anyhow::Result<Arc<FileLock>> {
    let name = db
        .file_name()
        .with_context(|| format!("no file name in the database path {}", db.display()))?;
    let dir = match db.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot find the directory of {}", db.display()))?;
    let mut lock_name = name.to_os_string();
    lock_name.push(".lock");
    let path = dir.join(lock_name);
    let mut locks = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
    locks.retain(|l| l.strong_count() > 0);
    if let Some(held) = locks.iter().filter_map(Weak::upgrade).find(|l| l.path == path) {
        return Ok(held);
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    if !try_lock(&file).with_context(|| format!("cannot lock {}", path.display()))? {
        let holder = std::fs::read_to_string(&path).unwrap_or_default();
        let holder = match holder.trim() {
            "" => String::new(),
            pid => format!(" (process {pid})"),
        };
        bail!(
            "another Orrery process is using {}; SQLite is one process only (use PostgreSQL for several). \
             Its lock is {}{holder}.",
            db.display(),
            path.display()
        );
    }
    // Who holds it, for the message above (best effort).
    {
        use std::io::Write;
        let _ = file.set_len(0).and_then(|()| write!(file, "{}", std::process::id()));
    }
    let lock = Arc::new(FileLock { _file: file, path });
    locks.push(Arc::downgrade(&lock));
    Ok(lock)
}

/// Take an exclusive lock on `file` without waiting: false if another
/// open file holds it. (`flock`: released when the file is closed or the
/// process ends, however it ends. `File::try_lock` is younger than this
/// crate's minimum Rust.)
#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    use rustix::fs::{flock, FlockOperation};
    match flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(e) if e == rustix::io::Errno::WOULDBLOCK => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Elsewhere the file is not locked: one process per SQLite file is the
/// operator's to keep.
#[cfg(not(unix))]
fn try_lock(_file: &std::fs::File) -> std::io::Result<bool> {
    Ok(true)
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
    ///
    /// A SQLite file is this process's alone while the store (any clone)
    /// lives: a file another process holds is refused, with a message
    /// saying so (see the crate's documentation).
    pub async fn connect(url: &str) -> anyhow::Result<Store> {
        Store::open(url, true).await
    }

    /// [`Store::connect`] without taking a SQLite file's lock, and not
    /// refused by it: for tools and tests that read a database beside the
    /// process that holds it (`orrery replay`, a test watching its bot).
    /// The process holding the lock is the one that writes; on a new file
    /// start that process first (this one runs the migrations too).
    pub async fn connect_beside(url: &str) -> anyhow::Result<Store> {
        Store::open(url, false).await
    }

    async fn open(url: &str, exclusive: bool) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let Some(backend) = Backend::from_url(url) else {
            bail!("unsupported database URL `{url}`: expected sqlite:… or postgres://…");
        };
        let health = Arc::new(Health::default());
        let mut lock = None;
        let (url, pool) = match backend {
            Backend::Sqlite => {
                let url = sqlite_url(url);
                let memory = sqlite_is_memory(&url);
                let pool = if memory {
                    // Every connection to `:memory:` is its own database: keep
                    // exactly one, forever.
                    AnyPoolOptions::new()
                        .max_connections(1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None)
                } else {
                    create_parent_dir(&url)?;
                    if exclusive {
                        lock = Some(lock_sqlite_file(Path::new(sqlite_path(&url)))?);
                    }
                    AnyPoolOptions::new().max_connections(4)
                };
                let health = health.clone();
                let pool = pool
                    .after_connect(|conn, _| Box::pin(sqlite_session(conn)))
                    .after_release(move |conn, _| {
                        let health = health.clone();
                        Box::pin(async move { release(conn, &health, memory).await })
                    });
                (url, pool)
            }
            Backend::Postgres => {
                let health = health.clone();
                let pool = AnyPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .after_release(move |conn, _| {
                        let health = health.clone();
                        Box::pin(async move { release(conn, &health, false).await })
                    });
                (url.to_string(), pool)
            }
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
            health,
            _lock: lock,
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

    /// Whether the store can write, and what went wrong since the process
    /// started: for operators (a health check, a periodic log line).
    pub fn health(&self) -> StorageHealth {
        StorageHealth {
            writable: !self.health.full.load(Ordering::Relaxed),
            full_errors: self.health.full_errors.load(Ordering::Relaxed),
            discarded_connections: self.health.discarded.load(Ordering::Relaxed),
            reachable: !self.health.unreachable.load(Ordering::Relaxed),
            unavailable_errors: self.health.unavailable_errors.load(Ordering::Relaxed),
        }
    }

    /// Count a call's outcome in [`Store::health`] (and log a full disk or
    /// an unreachable database). Every write method passes its result
    /// through here, and so do the health reads.
    async fn seen<T>(&self, write: impl std::future::Future<Output = StoreResult<T>>) -> StoreResult<T> {
        let result = write.await;
        self.health.record(self.backend, &result);
        result
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
    fn full_disks_are_told_apart() {
        assert!(error::is_storage_full(&sqlx::Error::Io(std::io::Error::from(
            std::io::ErrorKind::StorageFull
        ))));
        assert!(!error::is_storage_full(&sqlx::Error::RowNotFound));
        let full: StoreError = sqlx::Error::Io(std::io::ErrorKind::StorageFull.into()).into();
        assert!(full.is_full());
        let other: StoreError = sqlx::Error::RowNotFound.into();
        assert!(matches!(other, StoreError::Db(_)));
    }

    #[test]
    fn unreachable_databases_are_told_apart() {
        let timed_out: StoreError = sqlx::Error::PoolTimedOut.into();
        assert!(timed_out.is_unavailable());
        let refused: StoreError = sqlx::Error::Io(std::io::ErrorKind::ConnectionRefused.into()).into();
        assert!(refused.is_unavailable());
        // A full disk is full, not unreachable.
        let full: StoreError = sqlx::Error::Io(std::io::ErrorKind::StorageFull.into()).into();
        assert!(full.is_full() && !full.is_unavailable());
        let other: StoreError = sqlx::Error::RowNotFound.into();
        assert!(!other.is_unavailable());
    }

    #[test]
    fn health_follows_unreachable_calls() {
        let health = Health::default();
        let down = || -> StoreResult<()> { Err(StoreError::Unavailable(sqlx::Error::PoolTimedOut)) };
        health.record(Backend::Postgres, &down());
        health.record(Backend::Postgres, &down());
        assert!(health.unreachable.load(Ordering::Relaxed));
        assert_eq!(health.unavailable_errors.load(Ordering::Relaxed), 2);
        assert!(health.logged_unreachable.lock().unwrap().is_some());
        // Any answer from the database, even a refusal, means it is back.
        health.record::<()>(Backend::Postgres, &Err(StoreError::NotFound("x".into())));
        assert!(!health.unreachable.load(Ordering::Relaxed));
        assert!(health.logged_unreachable.lock().unwrap().is_none());
        assert_eq!(health.unavailable_errors.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn health_follows_the_writes() {
        let health = Health::default();
        let full = || -> StoreResult<()> {
            Err(StoreError::Full(sqlx::Error::Io(
                std::io::ErrorKind::StorageFull.into(),
            )))
        };
        health.record(Backend::Sqlite, &full());
        health.record(Backend::Sqlite, &full());
        assert!(health.full.load(Ordering::Relaxed));
        assert_eq!(health.full_errors.load(Ordering::Relaxed), 2);
        // Logged once, not per write.
        assert!(health.logged.lock().unwrap().is_some());
        // Another failure does not make the disk less full.
        health.record::<()>(Backend::Sqlite, &Err(StoreError::NotFound("x".into())));
        assert!(health.full.load(Ordering::Relaxed));
        health.record(Backend::Sqlite, &Ok(()));
        assert!(!health.full.load(Ordering::Relaxed));
        assert!(health.logged.lock().unwrap().is_none());
        assert_eq!(health.full_errors.load(Ordering::Relaxed), 2);
    }

    #[cfg(unix)]
    #[test]
    fn one_lock_per_file_in_a_process() {
        let dir = std::env::temp_dir().join(format!("orrery-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("g.db");
        let first = lock_sqlite_file(&db).unwrap();
        // This process again, by another spelling of the path: the same lock.
        let again = lock_sqlite_file(&dir.join(".").join("g.db")).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        // Another open file of the lock (as another process has) is refused.
        let other = std::fs::File::open(&first.path).unwrap();
        assert!(!try_lock(&other).unwrap());
        drop((first, again));
        assert!(try_lock(&other).unwrap(), "released with the last store");
        drop(other);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(redact("postgres://u:secret@h:5432/db"), "postgres://u:***@h:5432/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite://orrery.db"), "sqlite://orrery.db");
    }
}
