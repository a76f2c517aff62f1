//! The store when the disk fills (issue #29 §1), and SQLite's one-process
//! rule (§6).
//!
//! A full disk is injected with `PRAGMA max_page_count`, set on every
//! pooled connection: SQLite then answers "database or disk is full" as
//! it does on a full filesystem, and rolls the transaction back itself.
//! Raising it again is the disk getting room, without a restart.

use orrery::engine::{GameConfig, GameId, UserId};
use orrery::games::{AnyEvent, AnyState, GameKind};
use orrery::store::{Commit, NewGame, Store, StoreError};
use std::path::PathBuf;

use crate::common::{max_pages, page_count};

const NOW: i64 = 1_700_000_000_000;

fn temp_db(tag: &str) -> (PathBuf, String) {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let path = std::env::temp_dir().join(format!("orrery-{tag}-{}-{n}.db", std::process::id()));
    let url = format!("sqlite://{}", path.display());
    (path, url)
}

fn remove_db(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

fn sample() -> (Vec<AnyEvent>, AnyState) {
    let kind = GameKind::Hyperspace;
    let events = kind.setup(&GameConfig::new(2, 7)).expect("set-up");
    let state = kind.fold(&events).expect("fold");
    (events, state)
}

/// A started 2-player game: its id and its last sequence number.
async fn started_game(store: &Store) -> (GameId, i64) {
    let id = store
        .create_game(NewGame {
            kind: GameKind::Hyperspace,
            channel_id: 1,
            guild_id: Some(9),
            host: UserId(1),
            config: GameConfig::new(2, 99),
            settings: serde_json::json!({}),
            now_ms: NOW,
        })
        .await
        .unwrap();
    store.add_seat(id, UserId(1), "Ada").await.unwrap();
    store.add_seat(id, UserId(2), "Bo").await.unwrap();
    let (events, state) = sample();
    let c = Commit::start(id, GameConfig::new(2, 99), events.clone(), state, NOW);
    store.commit(c).await.unwrap();
    (id, events.len() as i64)
}

/// One write of a game in play: a few events, the state, a message.
async fn append(store: &Store, id: GameId, seq: i64) -> Result<i64, StoreError> {
    let (events, state) = sample();
    let c = Commit::new(id, seq, NOW)
        .with_events(events, state)
        .with_outbox(vec![serde_json::json!({ "post": "x".repeat(2_000) })]);
    store.commit(c).await
}

const ROOM: i64 = 1 << 30;

/// The disk fills during play and then has room again, without a restart:
/// while full every write fails as "full" (never as a broken connection),
/// and afterwards every write succeeds, on every pooled connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_recovers_without_a_restart() {
    let (path, url) = temp_db("full");
    let store = Store::connect(&url).await.unwrap();
    let pool = store.pool().options().get_max_connections() as usize;
    let (id, mut seq) = started_game(&store).await;

    // The disk fills at every point of a write in turn: each attempt on a
    // database allowed `room` more pages, 0, 1, 2, … (connections the
    // store replaced come up limited too, as on a full disk).
    let mut failures = Vec::new();
    for room in 0..48 {
        let pages = page_count(&store).await;
        max_pages(&store, pages + room % 4).await;
        match append(&store, id, seq).await {
            Ok(s) => seq = s,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.len() >= pool,
        "the writes fail on a full disk: {}",
        failures.len()
    );
    for e in &failures {
        assert!(
            matches!(e, StoreError::Full(_)),
            "every failure while full is the full disk: {e}"
        );
    }
    let health = store.health();
    assert_eq!(health.full_errors, failures.len() as u64, "{health:?}");
    assert!(
        health.discarded_connections > 0,
        "SQLite rolled some of the writes back itself: {health:?}"
    );
    // Full for good: the store says it cannot write.
    for _ in 0..8 {
        max_pages(&store, page_count(&store).await).await;
        match append(&store, id, seq).await {
            Ok(s) => seq = s,
            Err(e) => {
                assert!(e.is_full(), "{e}");
                break;
            }
        }
    }
    assert!(!store.health().writable, "{:?}", store.health());

    // Room again, without a restart: every write succeeds, enough of them
    // to use every pooled connection twice.
    max_pages(&store, ROOM).await;
    for i in 0..2 * pool {
        seq = append(&store, id, seq)
            .await
            .unwrap_or_else(|e| panic!("write {i} after the disk has room again: {e}"));
    }
    // Delivery's writes too.
    let claimed = store
        .claim_outbox("test", NOW, NOW + 60_000, 100, orrery::store::Claims::Honoured)
        .await
        .expect("claim after the disk has room again");
    assert!(!claimed.is_empty());
    for row in claimed {
        store.mark_delivered(row.id, NOW).await.unwrap();
    }
    assert_eq!(store.game(id).await.unwrap().unwrap().seq, seq);
    assert!(store.health().writable, "{:?}", store.health());
    store.close().await;
    remove_db(&path);
}

/// Set in the child process of [`sqlite_is_one_process`]: the URL it opens.
const CHILD_URL: &str = "ORRERY_TEST_LOCK_CHILD_URL";

/// Open `url` in another process (this test binary again, running only
/// [`sqlite_is_one_process`] as the child) and return what it printed.
fn open_in_another_process(url: &str) -> String {
    let test = format!(
        "{}::sqlite_is_one_process",
        module_path!().split_once("::").map_or("", |(_, m)| m)
    );
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([test.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_URL, url)
        .output()
        .expect("run the test binary again");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        stdout.contains("CHILD:"),
        "the child ran: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// SQLite is one process only (issue #29 §6): a second process opening
/// the same file is refused with a clear message, before any migration
/// (on a new file they raced to create the tables); it may open it once
/// the first has let go. The same process may open it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_is_one_process() {
    if let Ok(url) = std::env::var(CHILD_URL) {
        match Store::connect(&url).await {
            Ok(store) => {
                println!("CHILD: opened");
                store.close().await;
            }
            Err(e) => println!("CHILD: refused: {e:#}"),
        }
        return;
    }
    let (path, url) = temp_db("lock");
    let store = Store::connect(&url).await.unwrap();
    let out = open_in_another_process(&url);
    assert!(
        out.contains(&format!(
            "another Orrery process is using {}; SQLite is one process only",
            path.display()
        )),
        "{out}"
    );
    // This process again: its own clones and reconnects share the lock.
    let again = Store::connect(&url).await.expect("the same process opens it again");
    again.close().await;
    drop(again);
    store.close().await;
    drop(store);
    let out = open_in_another_process(&url);
    assert!(out.contains("CHILD: opened"), "{out}");
    remove_db(&path);
}
