//! The store, tested once over a `Store` and run on both backends:
//!
//! - SQLite, always, in a fresh temporary file per test;
//! - PostgreSQL when `TEST_POSTGRES_URL` is set (e.g.
//!   `postgres://postgres@127.0.0.1:5432/test`): each test creates a fresh
//!   database `orrery_test_<unique>` through that URL, runs against it, and
//!   drops it. Without the variable the PostgreSQL tests say so and pass.

use orrery::engine::GameRng;
use orrery::engine::{GameConfig, GameId, Seat, UserId};
use orrery::games::{AnyEvent, AnyState, GameKind};
use orrery::store::{
    bot_user, Backend, BotLevel, Claims, Commit, DeadlineChange, DeadlineSet, GameStatus, LiveRow, NewGame, PrivateTo,
    SeatChange, SeatRow, Store, StoreError,
};
use serde_json::json;
use sqlx::{Executor, Row};
use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::pgdb::PgDatabase;

// --- harness -----------------------------------------------------------------

/// A store on a fresh database, and the URL that reaches that database.
#[derive(Clone)]
struct Db {
    store: Store,
    url: String,
}

fn unique(tag: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{tag}_{}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000_000,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Run `scenario`, then clean up with `cleanup` even if it panicked.
async fn guarded<F, Fut>(db: Db, scenario: F, cleanup: impl Future<Output = ()>)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let store = db.store.clone();
    let outcome = tokio::spawn(scenario(db)).await;
    store.close().await;
    cleanup.await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

async fn on_sqlite<F, Fut>(scenario: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let path = std::env::temp_dir().join(format!("{}.db", unique("orrery-store")));
    let url = format!("sqlite://{}", path.display());
    let store = Store::connect(&url).await.expect("connect to SQLite");
    assert_eq!(store.backend(), Backend::Sqlite);
    let cleanup = async move {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    };
    guarded(Db { store, url }, scenario, cleanup).await;
}

async fn on_postgres<F, Fut>(scenario: F)
where
    F: FnOnce(Db) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(db) = PgDatabase::create("store", "the PostgreSQL store tests").await else {
        return;
    };
    let url = db.url.clone();
    let store = Store::connect(&url).await.expect("connect to the test database");
    assert_eq!(store.backend(), Backend::Postgres);
    guarded(Db { store, url }, scenario, db.drop()).await;
}

/// Each scenario becomes `sqlite::<name>` and `postgres::<name>`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                super::on_sqlite(super::$name).await;
            })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                super::on_postgres(super::$name).await;
            })*
        }
    };
}

on_both_backends!(
    migrations_are_idempotent,
    lobby_seats_and_renumbering,
    lobby_rules,
    start_and_append_in_sequence,
    conflicting_appends,
    concurrent_appends_one_wins,
    append_is_all_or_nothing,
    outbox_delivery,
    deadlines_fall_due,
    concurrent_creates_get_distinct_ids,
    corrupt_rows_are_reported,
    seat_changes_watchers_and_batches,
    live_messages_per_game_and_slot,
    snapshots_shortcut_the_fold,
    seat_threads_and_private_places,
    outbox_claims_take_the_head_of_each_lane,
    the_only_process_takes_over_a_dead_ones_claims,
    leases_run_on_the_databases_clock,
    concurrent_claimers_share_the_outbox,
    computer_players_sit_leave_and_hand_seats_back,
);

// --- game values -------------------------------------------------------------

const NOW: i64 = 1_700_000_000_000;
/// A snowflake above i64::MAX, to check the BIGINT bit cast both ways.
const BIG_CHANNEL: u64 = u64::MAX - 41;

/// The set-up events of a `players`-player Hyperspace game and the state
/// they fold to: real values, which the store treats as opaque.
fn sample(players: u8) -> (Vec<AnyEvent>, AnyState) {
    let kind = GameKind::Hyperspace;
    let events = kind.setup(&GameConfig::new(players, 7)).expect("set-up");
    let state = kind.fold(&events).expect("fold");
    (events, state)
}

/// `n` events (the set-up events of a `players` game, repeated).
fn events(players: u8, n: usize) -> Vec<AnyEvent> {
    sample(players).0.into_iter().cycle().take(n).collect()
}

fn new_game(channel_id: u64, host: u64, players: u8) -> NewGame {
    NewGame {
        kind: GameKind::Hyperspace,
        channel_id,
        guild_id: Some(u64::MAX - 7),
        host: UserId(host),
        config: GameConfig::new(players, 99),
        settings: serde_json::json!({}),
        now_ms: NOW,
    }
}

/// A started 2-player game: its id, and its last sequence number.
async fn started_game(store: &Store, channel: u64) -> (GameId, i64) {
    let id = store.create_game(new_game(channel, 1, 2)).await.unwrap();
    store.add_seat(id, UserId(1), "Ada").await.unwrap();
    store.add_seat(id, UserId(2), "Bo").await.unwrap();
    let (events, state) = sample(2);
    let config = GameConfig::new(2, 99);
    start_game(
        store,
        id,
        &config,
        &events,
        &state,
        &[json!({"post": "started"})],
        NOW + 1,
    )
    .await
    .unwrap();
    (id, events.len() as i64)
}

/// Start a lobby through the one commit path.
// Mirrors the positional store calls these tests were written against.
#[allow(clippy::too_many_arguments)]
async fn start_game(
    store: &Store,
    id: GameId,
    config: &GameConfig,
    events: &[AnyEvent],
    state: &AnyState,
    outbox: &[serde_json::Value],
    now: i64,
) -> Result<i64, StoreError> {
    let c = Commit::start(id, config.clone(), events.to_vec(), state.clone(), now).with_outbox(outbox.to_vec());
    store.commit(c).await
}

/// Append events (with the state after them) through the one commit path.
// Mirrors the positional store calls these tests were written against.
#[allow(clippy::too_many_arguments)]
async fn append(
    store: &Store,
    id: GameId,
    seq: i64,
    events: &[AnyEvent],
    state: &AnyState,
    finished: bool,
    outbox: &[serde_json::Value],
    now: i64,
) -> Result<i64, StoreError> {
    assert_eq!(
        finished,
        state.outcome().is_some(),
        "whether the game is over is read from its state"
    );
    let c = Commit::new(id, seq, now)
        .with_events(events.to_vec(), state.clone())
        .with_outbox(outbox.to_vec());
    store.commit(c).await
}

/// A seat change with events, through the one commit path.
// Mirrors the positional store calls these tests were written against.
#[allow(clippy::too_many_arguments)]
async fn change_seat(
    store: &Store,
    id: GameId,
    seq: i64,
    change: &SeatChange,
    events: &[AnyEvent],
    state: &AnyState,
    finished: bool,
    outbox: &[serde_json::Value],
    now: i64,
    deadline: Option<DeadlineSet>,
) -> Result<i64, StoreError> {
    assert_eq!(
        finished,
        state.outcome().is_some(),
        "whether the game is over is read from its state"
    );
    let deadline = deadline.map_or(DeadlineChange::Keep, DeadlineChange::Set);
    let c = Commit::new(id, seq, now)
        .with_deadline(deadline)
        .with_seat(change.clone())
        .with_events(events.to_vec(), state.clone())
        .with_outbox(outbox.to_vec());
    store.commit(c).await
}

/// The state of a finished 2-player Hyperspace game (random legal play).
fn finished_state() -> AnyState {
    let kind = GameKind::Hyperspace;
    let mut state = kind.fold(&kind.setup(&GameConfig::new(2, 3)).unwrap()).unwrap();
    let mut rng = GameRng::seeded(11);
    for _ in 0..20_000 {
        if state.outcome().is_some() {
            return state;
        }
        let p = state
            .pending()
            .into_iter()
            .find(|p| !p.submitted)
            .expect("someone owes");
        let legal = state.legal_commands(p.seat);
        let line = rng.pick(&legal).expect("a legal order").clone();
        for e in state.decide(p.seat, &line).expect("legal") {
            state.apply(&e).unwrap();
        }
    }
    panic!("no end in 20000 decisions");
}

async fn count(store: &Store, sql: &str, game: GameId) -> i64 {
    sqlx::query(sql)
        .bind(game.0)
        .fetch_one(store.pool())
        .await
        .unwrap()
        .try_get(0)
        .unwrap()
}

async fn outbox_of(store: &Store, game: GameId) -> Vec<serde_json::Value> {
    store
        .undelivered(1000)
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.game_id == Some(game))
        .map(|r| r.payload)
        .collect()
}

fn users(seats: &[SeatRow]) -> Vec<(u8, u64, &str)> {
    seats.iter().map(|s| (s.seat.0, s.user.0, s.name.as_str())).collect()
}

// --- scenarios ---------------------------------------------------------------

async fn migrations_are_idempotent(db: Db) {
    let applied = "SELECT COUNT(*) FROM _sqlx_migrations WHERE success = $1";
    let before: i64 = sqlx::query(applied)
        .bind(true)
        .fetch_one(db.store.pool())
        .await
        .unwrap()
        .get(0);
    assert!(before >= 1, "connect ran the migrations");
    // Again, explicitly, and through a second connect to the same database.
    db.store.migrate().await.expect("second run");
    let again = Store::connect(&db.url).await.expect("reconnect");
    again.migrate().await.expect("third run");
    let after: i64 = sqlx::query(applied)
        .bind(true)
        .fetch_one(db.store.pool())
        .await
        .unwrap()
        .get(0);
    assert_eq!(before, after);
    // Both stores see one database.
    let id = again.create_game(new_game(5, 1, 2)).await.unwrap();
    assert_eq!(db.store.game(id).await.unwrap().unwrap().id, id);
    again.close().await;
}

async fn lobby_seats_and_renumbering(db: Db) {
    let store = &db.store;
    let id = store.create_game(new_game(BIG_CHANNEL, 10, 4)).await.unwrap();
    let other = store.create_game(new_game(BIG_CHANNEL, 99, 3)).await.unwrap();
    assert_ne!(id, other);

    let row = store.game(id).await.unwrap().expect("created");
    assert_eq!(row.id, id);
    assert_eq!(row.kind, GameKind::Hyperspace);
    assert_eq!(row.channel_id, BIG_CHANNEL);
    assert_eq!(row.guild_id, Some(u64::MAX - 7));
    assert_eq!(row.host, UserId(10));
    assert_eq!(row.status, GameStatus::Lobby);
    assert_eq!(row.config, GameConfig::new(4, 99));
    assert_eq!(row.state, None);
    assert_eq!(row.seq, 0);
    assert_eq!((row.created_at, row.updated_at), (NOW, NOW));
    assert_eq!(store.game(GameId(id.0 + 1000)).await.unwrap(), None);

    // Seats fill 0, 1, 2, 3.
    for (user, name) in [(10, "Ada"), (u64::MAX, "Bo"), (30, "Cy"), (40, "Di")] {
        store.add_seat(id, UserId(user), name).await.unwrap();
    }
    match store.add_seat(id, UserId(30), "Cy again").await {
        Err(StoreError::AlreadySeated { seat, user, game }) => {
            assert_eq!((seat, user, game), (Seat(2), UserId(30), id))
        }
        other => panic!("expected AlreadySeated, got {other:?}"),
    }
    assert_eq!(
        users(&store.seats(id).await.unwrap()),
        [(0, 10, "Ada"), (1, u64::MAX, "Bo"), (2, 30, "Cy"), (3, 40, "Di")]
    );

    // Leaving renumbers the seats after, keeping 0..n-1.
    assert_eq!(store.remove_seat(id, UserId(u64::MAX)).await.unwrap(), Seat(1));
    assert_eq!(
        users(&store.seats(id).await.unwrap()),
        [(0, 10, "Ada"), (1, 30, "Cy"), (2, 40, "Di")]
    );
    assert_eq!(store.remove_seat(id, UserId(10)).await.unwrap(), Seat(0));
    assert_eq!(users(&store.seats(id).await.unwrap()), [(0, 30, "Cy"), (1, 40, "Di")]);
    assert_eq!(store.remove_seat(id, UserId(40)).await.unwrap(), Seat(1));
    assert!(matches!(
        store.remove_seat(id, UserId(40)).await,
        Err(StoreError::NotFound(_))
    ));
    assert_eq!(store.add_seat(id, UserId(50), "Ed").await.unwrap(), Seat(1));
    assert_eq!(users(&store.seats(id).await.unwrap()), [(0, 30, "Cy"), (1, 50, "Ed")]);

    // Picks: one seat each; a taken pick is refused and seats nobody.
    store.set_pick(id, UserId(30), "red").await.unwrap();
    assert!(matches!(
        store.set_pick(id, UserId(50), "red").await,
        Err(StoreError::Moved(_))
    ));
    assert!(matches!(
        store.add_seat_picking(id, UserId(60), "Flo", Some("red")).await,
        Err(StoreError::Moved(_))
    ));
    assert_eq!(store.seats(id).await.unwrap().len(), 2, "Flo was not seated");
    assert_eq!(
        store
            .add_seat_picking(id, UserId(60), "Flo", Some("blue"))
            .await
            .unwrap(),
        Seat(2)
    );
    store.set_pick(id, UserId(30), "green").await.unwrap();
    let picks: Vec<Option<String>> = store.seats(id).await.unwrap().into_iter().map(|s| s.pick).collect();
    assert_eq!(picks, [Some("green".into()), None, Some("blue".into())]);
    store.remove_seat(id, UserId(60)).await.unwrap();
    assert!(store.seats(other).await.unwrap().is_empty());

    // Lookups by channel and by seated user.
    store.add_seat(other, UserId(30), "Cy").await.unwrap();
    let in_channel: Vec<GameId> = store
        .games_in_channel(BIG_CHANNEL)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(in_channel, [id, other]);
    assert!(store.games_in_channel(1).await.unwrap().is_empty());
    let of = |u| async move {
        store
            .games_of_user(UserId(u))
            .await
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(of(30).await, [id, other], "seated in both");
    assert!(of(10).await.is_empty(), "hosts it, no longer seated");
    assert!(of(99).await.is_empty(), "hosts it, never seated");
    assert_eq!(of(50).await, [id]);
    assert!(of(12345).await.is_empty());
    assert_eq!(
        store
            .all_games()
            .await
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>(),
        [id, other]
    );

    store.set_status(other, GameStatus::Abandoned, NOW + 5).await.unwrap();
    let row = store.game(other).await.unwrap().unwrap();
    assert_eq!((row.status, row.updated_at), (GameStatus::Abandoned, NOW + 5));
    assert!(matches!(
        store.set_status(GameId(other.0 + 1000), GameStatus::Active, NOW).await,
        Err(StoreError::NotFound(_))
    ));
}

async fn lobby_rules(db: Db) {
    let store = &db.store;
    let missing = GameId(424242);
    assert!(matches!(
        store.add_seat(missing, UserId(1), "x").await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.remove_seat(missing, UserId(1)).await,
        Err(StoreError::NotFound(_))
    ));

    let (id, _) = started_game(store, 7).await;
    match store.add_seat(id, UserId(3), "Late").await {
        Err(StoreError::WrongStatus {
            expected: GameStatus::Lobby,
            actual: GameStatus::Active,
            ..
        }) => {}
        other => panic!("expected WrongStatus, got {other:?}"),
    }
    assert!(matches!(
        store.remove_seat(id, UserId(1)).await,
        Err(StoreError::WrongStatus { .. })
    ));
    assert_eq!(store.seats(id).await.unwrap().len(), 2);
    // A second start fails and changes nothing.
    let before = store.game(id).await.unwrap().unwrap();
    let (events, state) = sample(2);
    let second = start_game(
        store,
        id,
        &GameConfig::new(2, 1),
        &events,
        &state,
        &[json!("again")],
        NOW + 9,
    )
    .await;
    assert!(matches!(second, Err(StoreError::WrongStatus { .. })), "{second:?}");
    assert_eq!(store.game(id).await.unwrap().unwrap(), before);
    assert_eq!(outbox_of(store, id).await, [json!({"post": "started"})]);
}

async fn start_and_append_in_sequence(db: Db) {
    let store = &db.store;
    let id = store.create_game(new_game(8, 1, 4)).await.unwrap();
    store.add_seat(id, UserId(1), "Ada").await.unwrap();
    store.add_seat(id, UserId(2), "Bo").await.unwrap();
    let (setup, state) = sample(2);
    let n = setup.len() as i64;
    // The lobby asked for 4; the game starts with the 2 who came.
    let config = GameConfig::new(2, 99);
    start_game(
        store,
        id,
        &config,
        &setup,
        &state,
        &[json!({"m": 1}), json!({"m": 2})],
        NOW + 1,
    )
    .await
    .unwrap();

    let row = store.game(id).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.config, config);
    assert_eq!(row.seq, n);
    assert_eq!(row.state.as_ref(), Some(&state));
    assert_eq!(row.updated_at, NOW + 1);
    let logged = store.events(id).await.unwrap();
    assert_eq!(logged, (1..=n).zip(setup.iter().cloned()).collect::<Vec<_>>());
    assert_eq!(outbox_of(store, id).await, [json!({"m": 1}), json!({"m": 2})]);

    // Append twice more, in sequence.
    let (more, after) = sample(3);
    let seq1 = append(store, id, n, &more, &after, false, &[json!({"m": 3})], NOW + 2)
        .await
        .unwrap();
    assert_eq!(seq1, n + more.len() as i64);
    let extra = events(4, 3);
    let seq2 = append(store, id, seq1, &extra, &state, false, &[], NOW + 3)
        .await
        .unwrap();
    assert_eq!(seq2, seq1 + 3);
    let row = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (row.seq, row.status, row.updated_at),
        (seq2, GameStatus::Active, NOW + 3)
    );
    assert_eq!(row.state.as_ref(), Some(&state));

    let all: Vec<AnyEvent> = setup.iter().chain(&more).chain(&extra).cloned().collect();
    let logged = store.events(id).await.unwrap();
    assert_eq!(
        logged.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        (1..=seq2).collect::<Vec<_>>()
    );
    assert_eq!(logged.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>(), all);
    let upto = store.events_upto(id, seq1).await.unwrap();
    assert_eq!(upto, logged[..seq1 as usize]);
    assert!(store.events_upto(id, 0).await.unwrap().is_empty());
    assert_eq!(
        outbox_of(store, id).await,
        [json!({"m": 1}), json!({"m": 2}), json!({"m": 3})]
    );

    // Finishing closes the game and its deadline; nothing appends after.
    store.set_deadline(id, 3, NOW + 100).await.unwrap();
    let last = events(2, 1);
    let over = finished_state();
    let seq3 = append(store, id, seq2, &last, &over, true, &[json!("over")], NOW + 4)
        .await
        .unwrap();
    let row = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        (row.seq, row.status, row.state.as_ref()),
        (seq3, GameStatus::Finished, Some(&over))
    );
    assert_eq!(store.deadline(id).await.unwrap(), None);
    let late = append(store, id, seq3, &last, &after, false, &[json!("late")], NOW + 5).await;
    assert!(
        matches!(
            late,
            Err(StoreError::WrongStatus {
                expected: GameStatus::Active,
                actual: GameStatus::Finished,
                ..
            })
        ),
        "{late:?}"
    );
    assert_eq!(store.events(id).await.unwrap().len() as i64, seq3);

    // Appending to a lobby or a missing game.
    let lobby = store.create_game(new_game(8, 1, 2)).await.unwrap();
    assert!(matches!(
        append(store, lobby, 0, &last, &after, false, &[], NOW).await,
        Err(StoreError::WrongStatus { .. })
    ));
    assert!(matches!(
        append(store, GameId(lobby.0 + 1000), 0, &last, &after, false, &[], NOW).await,
        Err(StoreError::NotFound(_))
    ));
}

async fn conflicting_appends(db: Db) {
    let store = &db.store;
    let (id, seq) = started_game(store, 9).await;
    let (first_events, first_state) = sample(3);
    let (second_events, second_state) = sample(4);
    assert_ne!(first_events, second_events);
    assert_ne!(first_state, second_state);

    // Both decided against `seq`; the first to write wins.
    let won = append(
        store,
        id,
        seq,
        &first_events,
        &first_state,
        false,
        &[json!("first")],
        NOW + 2,
    )
    .await
    .unwrap();
    let after_first = store.game(id).await.unwrap().unwrap();
    let lost = append(
        store,
        id,
        seq,
        &second_events,
        &second_state,
        false,
        &[json!("second")],
        NOW + 3,
    )
    .await;
    match lost {
        Err(StoreError::Conflict { expected, actual }) => {
            assert_eq!((expected, actual), (seq, won))
        }
        other => panic!("expected Conflict, got {other:?}"),
    }
    assert!(matches!(
        append(store, id, seq, &second_events, &second_state, false, &[], NOW).await,
        Err(ref e) if e.is_conflict()
    ));
    // Ahead of the log is a conflict too.
    assert!(matches!(
        append(store, id, won + 5, &second_events, &second_state, false, &[], NOW).await,
        Err(StoreError::Conflict { expected, actual }) if expected == won + 5 && actual == won
    ));

    // State, status, seq and times are the first writer's; so are the
    // events and the queued messages.
    assert_eq!(store.game(id).await.unwrap().unwrap(), after_first);
    assert_eq!(after_first.state.as_ref(), Some(&first_state));
    let logged: Vec<AnyEvent> = store
        .events(id)
        .await
        .unwrap()
        .into_iter()
        .skip(seq as usize)
        .map(|(_, e)| e)
        .collect();
    assert_eq!(logged, first_events);
    assert_eq!(outbox_of(store, id).await, [json!({"post": "started"}), json!("first")]);
}

async fn concurrent_appends_one_wins(db: Db) {
    let store = &db.store;
    let (id, seq) = started_game(store, 10).await;
    for round in 0..5 {
        let current = store.game(id).await.unwrap().unwrap().seq;
        let (a_events, a_state) = sample(3);
        let (b_events, b_state) = sample(4);
        let (sa, sb) = (store.clone(), store.clone());
        let a = tokio::spawn(async move {
            append(
                &sa,
                id,
                current,
                &a_events,
                &a_state,
                false,
                &[json!(["a", round])],
                NOW,
            )
            .await
        });
        let b = tokio::spawn(async move {
            append(
                &sb,
                id,
                current,
                &b_events,
                &b_state,
                false,
                &[json!(["b", round])],
                NOW,
            )
            .await
        });
        let (a, b) = (a.await.unwrap(), b.await.unwrap());
        let winner = match (&a, &b) {
            (Ok(_), Err(StoreError::Conflict { .. })) => "a",
            (Err(StoreError::Conflict { .. }), Ok(_)) => "b",
            other => panic!("round {round}: expected exactly one winner, got {other:?}"),
        };
        let outbox = outbox_of(store, id).await;
        assert_eq!(outbox.last(), Some(&json!([winner, round])));
        assert_eq!(outbox.len(), round + 2);
    }
    let row = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        count(store, "SELECT COUNT(*) FROM events WHERE game_id = $1", id).await,
        row.seq
    );
    assert!(row.seq > seq);
}

async fn append_is_all_or_nothing(db: Db) {
    let store = &db.store;
    let (id, seq) = started_game(store, 11).await;
    let before = store.game(id).await.unwrap().unwrap();
    // A stray event at seq + 2 (a torn history, or a writer that bypassed
    // the lock): an append of three events writes seq + 1, then fails on
    // seq + 2 after the game row was locked. Nothing of it may remain.
    let stray = serde_json::to_string(&events(2, 1)[0]).unwrap();
    sqlx::query("INSERT INTO events (game_id, seq, event, created_at) VALUES ($1, $2, $3, $4)")
        .bind(id.0)
        .bind(seq + 2)
        .bind(stray)
        .bind(NOW)
        .execute(store.pool())
        .await
        .unwrap();
    let (_, state) = sample(3);
    let failed = append(
        store,
        id,
        seq,
        &events(3, 3),
        &state,
        false,
        &[json!("lost 1"), json!("lost 2")],
        NOW + 5,
    )
    .await;
    match failed {
        Err(StoreError::Conflict { expected, actual }) => {
            assert_eq!((expected, actual), (seq, seq + 2))
        }
        other => panic!("expected Conflict, got {other:?}"),
    }
    assert_eq!(store.game(id).await.unwrap().unwrap(), before, "game row untouched");
    let seqs: Vec<i64> = store.events(id).await.unwrap().into_iter().map(|(s, _)| s).collect();
    let mut expected: Vec<i64> = (1..=seq).collect();
    expected.push(seq + 2);
    assert_eq!(seqs, expected, "event {} was rolled back", seq + 1);
    assert_eq!(
        outbox_of(store, id).await,
        [json!({"post": "started"})],
        "no outbox rows"
    );

    // Start is atomic the same way: a lobby whose log already holds event 1.
    let lobby = store.create_game(new_game(11, 1, 2)).await.unwrap();
    let lobby_before = store.game(lobby).await.unwrap().unwrap();
    sqlx::query("INSERT INTO events (game_id, seq, event, created_at) VALUES ($1, 1, $2, $3)")
        .bind(lobby.0)
        .bind(serde_json::to_string(&events(2, 1)[0]).unwrap())
        .bind(NOW)
        .execute(store.pool())
        .await
        .unwrap();
    let started = start_game(
        store,
        lobby,
        &GameConfig::new(2, 5),
        &events(2, 2),
        &state,
        &[json!("go")],
        NOW,
    )
    .await;
    assert!(
        matches!(started, Err(StoreError::Conflict { expected: 0, actual: 1 })),
        "{started:?}"
    );
    assert_eq!(store.game(lobby).await.unwrap().unwrap(), lobby_before);
    assert!(outbox_of(store, lobby).await.is_empty());
}

async fn outbox_delivery(db: Db) {
    let store = &db.store;
    let id = store.create_game(new_game(12, 1, 2)).await.unwrap();
    let payloads = [
        json!({"target": {"channel": u64::MAX}, "text": "Lobby open — join with /join ✨"}),
        json!({"nested": [1, 2.5, null, true, {"k": "v"}]}),
        json!("plain"),
    ];
    let ids = store.enqueue(Some(id), &payloads, NOW).await.unwrap();
    let loose = store.enqueue(None, &[json!("no game")], NOW + 1).await.unwrap();
    assert_eq!(ids.len(), 3);
    assert!(ids.windows(2).all(|w| w[0] < w[1]) && ids[2] < loose[0]);

    let pending = store.undelivered(10).await.unwrap();
    assert_eq!(
        pending.iter().map(|r| r.id).collect::<Vec<_>>(),
        [ids[0], ids[1], ids[2], loose[0]]
    );
    assert_eq!(
        pending.iter().map(|r| r.payload.clone()).collect::<Vec<_>>()[..3],
        payloads
    );
    assert_eq!(pending[3].game_id, None);
    assert!(pending.iter().all(|r| r.attempts == 0 && r.last_error.is_none()));
    assert_eq!(pending[0].game_id, Some(id));
    assert_eq!(pending[3].created_at, NOW + 1);
    assert_eq!(store.undelivered(2).await.unwrap().len(), 2, "limit");
    let after: Vec<i64> = store
        .undelivered_after(ids[0], 2)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(after, [ids[1], ids[2]], "paging past a row");

    store.mark_failed(ids[0], "HTTP 503", NOW + 2).await.unwrap();
    store.mark_failed(ids[0], "HTTP 502", NOW + 3).await.unwrap();
    store.mark_delivered(ids[1], NOW + 4).await.unwrap();
    let pending = store.undelivered(10).await.unwrap();
    assert_eq!(
        pending.iter().map(|r| r.id).collect::<Vec<_>>(),
        [ids[0], ids[2], loose[0]]
    );
    assert_eq!(
        (pending[0].attempts, pending[0].last_error.as_deref()),
        (2, Some("HTTP 502"))
    );
    store.mark_delivered(ids[0], NOW + 5).await.unwrap();
    store.mark_delivered(ids[2], NOW + 5).await.unwrap();
    store.mark_delivered(loose[0], NOW + 5).await.unwrap();
    assert!(store.undelivered(10).await.unwrap().is_empty());
    let delivered_at: Option<i64> = sqlx::query("SELECT delivered_at FROM outbox WHERE id = $1")
        .bind(ids[0])
        .fetch_one(store.pool())
        .await
        .unwrap()
        .get(0);
    assert_eq!(delivered_at, Some(NOW + 5));

    assert!(matches!(
        store.mark_delivered(loose[0] + 100, NOW).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.mark_failed(loose[0] + 100, "x", NOW).await,
        Err(StoreError::NotFound(_))
    ));
    assert!(store.enqueue(Some(id), &[], NOW).await.unwrap().is_empty());
}

/// Claims (issue 13 §2): a row is claimed by one delivery pass at a time,
/// only while no older undelivered row shares its target or its slot; a
/// lease that ran out can be claimed again; a failure keeps the claim.
async fn outbox_claims_take_the_head_of_each_lane(db: Db) {
    let store = &db.store;
    let game = store.create_game(new_game(14, 1, 2)).await.unwrap();
    let slot = json!({"Prompt": {"game": game.0, "seat": 0}});
    let payloads = [
        json!({"target": {"Channel": 1}, "slot": null, "text": "a"}),
        json!({"target": {"Channel": 1}, "text": "b"}),
        json!({"target": {"Dm": 7}, "slot": slot, "text": "c"}),
        // The seat changed hands: another target, the same slot.
        json!({"target": {"Dm": 8}, "slot": slot, "text": "d"}),
        json!({"target": {"Channel": 2}, "text": "e"}),
        json!("no lanes"),
    ];
    let ids = store.enqueue(Some(game), &payloads, NOW).await.unwrap();
    let [a, b, c, d, e, f] = ids[..] else { panic!("{ids:?}") };
    let claimed = |rows: Vec<orrery::store::OutboxRow>| rows.iter().map(|r| r.id).collect::<Vec<_>>();
    let lease = NOW + 60_000;

    // The lanes are the payload's fields as compact JSON, the same text the
    // migration computes in SQL for rows queued before it.
    let backfill = match store.backend() {
        Backend::Sqlite => {
            "SELECT CASE WHEN NULLIF(payload -> '$.target', 'null') = target_lane THEN 1 ELSE 0 END, target_lane,
                    CASE WHEN NULLIF(payload -> '$.slot', 'null') IS slot_lane THEN 1 ELSE 0 END
             FROM outbox WHERE id = $1"
        }
        Backend::Postgres => {
            "SELECT CASE WHEN (payload::json ->> 'target') = target_lane THEN 1 ELSE 0 END, target_lane,
                    CASE WHEN (payload::json ->> 'slot') IS NOT DISTINCT FROM slot_lane THEN 1 ELSE 0 END
             FROM outbox WHERE id = $1"
        }
    };
    for id in [a, c, d] {
        let row = sqlx::query(backfill).bind(id).fetch_one(store.pool()).await.unwrap();
        let target: Option<String> = row.get(1);
        assert_eq!(
            (row.get::<i32, _>(0), row.get::<i32, _>(2)),
            (1, 1),
            "row {id}: {target:?}"
        );
    }

    assert_eq!(
        claimed(store.claim_outbox("p1", NOW, lease, 2, Claims::Honoured).await.unwrap()),
        [a, c],
        "limit"
    );
    assert_eq!(
        claimed(
            store
                .claim_outbox("p1", NOW, lease, 10, Claims::Honoured)
                .await
                .unwrap()
        ),
        [e, f],
        "b waits behind a (target), d behind c (slot)"
    );
    assert!(
        store
            .claim_outbox("p2", NOW, lease, 10, Claims::Honoured)
            .await
            .unwrap()
            .is_empty(),
        "all heads held"
    );
    let rows = store.undelivered(10).await.unwrap();
    assert_eq!(rows.iter().find(|r| r.id == a).unwrap().claimed_until, Some(lease));
    assert_eq!(rows.iter().find(|r| r.id == b).unwrap().claimed_until, None);

    store.mark_delivered(a, NOW + 1).await.unwrap();
    assert_eq!(
        claimed(
            store
                .claim_outbox("p2", NOW + 1, lease + 30_000, 10, Claims::Honoured)
                .await
                .unwrap()
        ),
        [b]
    );
    // A passing failure keeps the claim: nobody retries it behind p2's back.
    store.mark_failed(b, "HTTP 503", NOW + 2).await.unwrap();
    assert!(store
        .claim_outbox("p1", NOW + 2, lease, 10, Claims::Honoured)
        .await
        .unwrap()
        .is_empty());
    store.mark_delivered(c, NOW + 2).await.unwrap();
    assert_eq!(
        claimed(
            store
                .claim_outbox("p2", NOW + 2, lease + 30_000, 10, Claims::Honoured)
                .await
                .unwrap()
        ),
        [d],
        "the slot's next message, to its new target"
    );

    // p1 died holding e and f: once its lease runs out they are p3's.
    assert!(store
        .claim_outbox("p3", lease, lease + 60_000, 10, Claims::Honoured)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        claimed(
            store
                .claim_outbox("p3", lease + 1, lease + 60_000, 10, Claims::Honoured)
                .await
                .unwrap()
        ),
        [e, f]
    );
    // Releasing gives back what p2 holds (b, d), and only that.
    assert_eq!(store.release_outbox("p2").await.unwrap(), 2);
    assert_eq!(store.release_outbox("p2").await.unwrap(), 0);
    assert_eq!(
        claimed(
            store
                .claim_outbox("p1", NOW + 3, lease, 10, Claims::Honoured)
                .await
                .unwrap()
        ),
        [b, d]
    );
    for id in [b, d, e, f] {
        store.mark_delivered(id, NOW + 4).await.unwrap();
    }
    assert!(store
        .claim_outbox("p1", lease * 2, lease * 3, 10, Claims::Honoured)
        .await
        .unwrap()
        .is_empty());
    let by: Option<String> = sqlx::query("SELECT claimed_by FROM outbox WHERE id = $1")
        .bind(f)
        .fetch_one(store.pool())
        .await
        .unwrap()
        .get(0);
    assert_eq!(by.as_deref(), Some("p3"), "a delivered row says who sent it");
    assert_eq!(
        store.release_outbox("p1").await.unwrap(),
        0,
        "delivered rows are not released"
    );
}

/// A process killed while its claim was on its way may have that claim
/// land after its successor started. The successor, the only process,
/// treats any claim not its own as a dead process's and takes such rows at
/// once, lease or no lease; processes sharing the database wait the lease
/// out. Should the holder be alive after all (stalled past its lease),
/// every write of its delivery is fenced: refused as superseded.
async fn the_only_process_takes_over_a_dead_ones_claims(db: Db) {
    let store = &db.store;
    let game = store.create_game(new_game(16, 1, 2)).await.unwrap();
    let payloads = [
        json!({"target": {"Channel": 1}, "text": "a"}),
        json!({"target": {"Channel": 2}, "text": "b"}),
    ];
    let ids = store.enqueue(Some(game), &payloads, NOW).await.unwrap();
    let claimed = |rows: Vec<orrery::store::OutboxRow>| rows.iter().map(|r| r.id).collect::<Vec<_>>();
    let lease = NOW + 60_000;
    assert_eq!(
        claimed(
            store
                .claim_outbox("dead/7", NOW, lease, 10, Claims::Honoured)
                .await
                .unwrap()
        ),
        ids
    );
    assert!(
        store
            .claim_outbox("shard/1", NOW + 1, lease, 10, Claims::Honoured)
            .await
            .unwrap()
            .is_empty(),
        "a claim is honoured while its lease runs"
    );
    assert_eq!(
        claimed(
            store
                .claim_outbox("me/1", NOW + 1, lease, 10, Claims::OnlyOwn("me/"))
                .await
                .unwrap()
        ),
        ids,
        "the only process takes them at once"
    );
    assert!(
        store
            .claim_outbox("me/2", NOW + 2, lease, 10, Claims::OnlyOwn("me/"))
            .await
            .unwrap()
            .is_empty(),
        "its own claims it honours"
    );

    // The old holder wakes: none of its writes lands.
    let superseded = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Superseded { .. }));
    assert!(superseded(store.mark_delivered_by(ids[0], "dead/7", NOW + 3).await));
    assert!(superseded(
        store.mark_failed_by(ids[0], "dead/7", "late", NOW + 3).await
    ));
    let live = LiveRow {
        game_id: game,
        slot: "phase".into(),
        channel_id: 1,
        message_id: 50,
        payload: json!({"v": "old"}),
        outbox_id: Some(ids[0]),
        updated_at: NOW,
    };
    assert!(superseded(store.put_live_message_by(&live, "dead/7").await));
    assert_eq!(store.live_message(game, "phase").await.unwrap(), None);
    // The new holder's do.
    let newer = LiveRow {
        payload: json!({"v": "new"}),
        ..live.clone()
    };
    store.put_live_message_by(&newer, "me/1").await.unwrap();
    assert!(matches!(
        store.remove_live_message_by(game, "phase", ids[0], "dead/7").await,
        Err(StoreError::Superseded { .. })
    ));
    store.mark_delivered_by(ids[0], "me/1", NOW + 3).await.unwrap();
    assert_eq!(
        store.live_message(game, "phase").await.unwrap().map(|r| r.payload),
        Some(json!({"v": "new"}))
    );
    // Delivered, the row is nobody's to mark again.
    assert!(superseded(store.mark_delivered_by(ids[0], "me/1", NOW + 4).await));
    let row = store.undelivered(10).await.unwrap();
    assert_eq!(claimed(row), vec![ids[1]]);
}

/// Leases on the database's clock ([`Store::claim_outbox_for`]): a claim
/// runs from the database's now, which is this machine's clock here, and
/// is honoured by other claimers until it runs out.
async fn leases_run_on_the_databases_clock(db: Db) {
    let store = &db.store;
    let game = store.create_game(new_game(17, 1, 2)).await.unwrap();
    let ids = store
        .enqueue(Some(game), &[json!({"target": {"Channel": 1}, "text": "a"})], NOW)
        .await
        .unwrap();
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let rows = store
        .claim_outbox_for("p/1", 60_000, 10, Claims::Honoured)
        .await
        .unwrap();
    assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), ids);
    let until = rows[0].claimed_until.expect("claimed");
    assert!(
        (until - (before + 60_000)).abs() < 5_000,
        "the lease ends {} ms from where this machine's clock says",
        until - (before + 60_000)
    );
    assert!(store
        .claim_outbox_for("p/2", 60_000, 10, Claims::Honoured)
        .await
        .unwrap()
        .is_empty());
    // Ran out (as if 60 s passed): another claimer takes it.
    sqlx::query("UPDATE outbox SET claimed_until = 0")
        .execute(store.pool())
        .await
        .unwrap();
    assert_eq!(
        store
            .claim_outbox_for("p/2", 60_000, 10, Claims::Honoured)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(matches!(
        store.mark_delivered_by(ids[0], "p/1", NOW).await,
        Err(StoreError::Superseded { .. })
    ));
    store.mark_delivered_by(ids[0], "p/2", NOW).await.unwrap();
}

/// Four claimers drain one outbox at once: every row is taken exactly once,
/// and each target's rows are taken in order, each only after the one
/// before it was delivered.
async fn concurrent_claimers_share_the_outbox(db: Db) {
    use std::sync::{Arc, Mutex};
    let store = db.store.clone();
    let game = store.create_game(new_game(15, 1, 2)).await.unwrap();
    let payloads: Vec<serde_json::Value> = (0..120)
        .map(|i| json!({"target": {"Channel": i % 12}, "text": i.to_string()}))
        .collect();
    let ids = store.enqueue(Some(game), &payloads, NOW).await.unwrap();
    // (target, id) in the order rows were taken.
    let taken: Arc<Mutex<Vec<(i64, i64)>>> = Arc::default();
    let mut tasks = Vec::new();
    for w in 0..4 {
        let store = store.clone();
        let taken = taken.clone();
        tasks.push(tokio::spawn(async move {
            let by = format!("worker-{w}");
            loop {
                let rows = store
                    .claim_outbox(&by, NOW, NOW + 60_000, 3, Claims::Honoured)
                    .await
                    .unwrap();
                if rows.is_empty() {
                    if store.undelivered(1).await.unwrap().is_empty() {
                        return;
                    }
                    tokio::task::yield_now().await;
                    continue;
                }
                for r in rows {
                    let target = r.payload["target"]["Channel"].as_i64().unwrap();
                    taken.lock().unwrap().push((target, r.id));
                    tokio::task::yield_now().await;
                    store.mark_delivered(r.id, NOW).await.unwrap();
                }
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let taken = taken.lock().unwrap().clone();
    let mut all: Vec<i64> = taken.iter().map(|(_, id)| *id).collect();
    all.sort();
    assert_eq!(all, ids, "every row taken exactly once");
    for target in 0..12 {
        let order: Vec<i64> = taken.iter().filter(|(t, _)| *t == target).map(|(_, id)| *id).collect();
        assert!(
            order.windows(2).all(|w| w[0] < w[1]),
            "target {target} in order: {order:?}"
        );
    }
}

async fn deadlines_fall_due(db: Db) {
    let store = &db.store;
    let a = store.create_game(new_game(13, 1, 2)).await.unwrap();
    let b = store.create_game(new_game(13, 1, 2)).await.unwrap();
    let c = store.create_game(new_game(13, 1, 2)).await.unwrap();
    store.set_deadline(a, 1, NOW + 300).await.unwrap();
    store.set_deadline(b, 4, NOW + 100).await.unwrap();
    store.set_deadline(c, 2, NOW + 200).await.unwrap();
    assert!(store.due_deadlines(NOW).await.unwrap().is_empty());
    let due = |now| async move {
        store
            .due_deadlines(now)
            .await
            .unwrap()
            .iter()
            .map(|d| d.game_id)
            .collect::<Vec<_>>()
    };
    assert_eq!(due(NOW + 100).await, [b], "due exactly at due_at");
    assert_eq!(due(NOW + 250).await, [b, c]);
    assert_eq!(due(i64::MAX).await, [b, c, a]);
    let row = store.deadline(b).await.unwrap().unwrap();
    assert_eq!(
        (row.game_id, row.phase, row.due_at, row.reminded.clone()),
        (b, 4, NOW + 100, json!([]))
    );
    // A game is read with its deadline, in one statement.
    assert_eq!(store.game(b).await.unwrap().unwrap().deadline, Some(row.clone()));
    assert_eq!(store.games_in_channel(13).await.unwrap().len(), 3);

    // Reminders are recorded for the current phase only.
    assert!(store.set_reminded(b, 4, &json!([0, 1])).await.unwrap());
    assert!(!store.set_reminded(b, 3, &json!([9])).await.unwrap(), "stale phase");
    assert_eq!(store.deadline(b).await.unwrap().unwrap().reminded, json!([0, 1]));
    assert!(matches!(
        store.set_reminded(b, 4, &json!({"no": 1})).await,
        Err(StoreError::Corrupt(_))
    ));

    // Setting again replaces (one deadline per game) and resets reminders.
    store.set_deadline(b, 5, NOW + 400).await.unwrap();
    let row = store.deadline(b).await.unwrap().unwrap();
    assert_eq!((row.phase, row.due_at, row.reminded), (5, NOW + 400, json!([])));
    assert_eq!(due(NOW + 250).await, [c]);
    assert_eq!(store.all_deadlines().await.unwrap().len(), 3);

    store.clear_deadline(c).await.unwrap();
    store.clear_deadline(c).await.unwrap();
    assert_eq!(store.game(c).await.unwrap().unwrap().deadline, None);
    assert_eq!(due(NOW + 1000).await, [a, b]);
    store.set_status(a, GameStatus::Abandoned, NOW).await.unwrap();
    assert_eq!(due(NOW + 1000).await, [b], "leaving play clears the deadline");
    assert!(matches!(
        store.set_deadline(GameId(c.0 + 1000), 1, NOW).await,
        Err(StoreError::NotFound(_))
    ));
}

/// Where a seat's private messages go (commit path) and its private
/// thread (delivery bookkeeping, guarded by the player).
async fn seat_threads_and_private_places(db: Db) {
    let store = &db.store;
    let (id, seq) = started_game(store, 23).await;
    let (_, state) = sample(2);
    let seats = store.seats(id).await.unwrap();
    assert!(seats.iter().all(|s| s.private_to.is_none() && s.thread_id.is_none()));

    // The player chooses a thread: written by a commit.
    let to_thread = SeatChange {
        private_to: Some(Some(PrivateTo::Thread)),
        ..SeatChange::new(Seat(1))
    };
    let seq = change_seat(store, id, seq, &to_thread, &[], &state, false, &[], NOW + 2, None)
        .await
        .unwrap();
    assert_eq!(store.seats(id).await.unwrap()[1].private_to, Some(PrivateTo::Thread));

    // The delivery opens it: remembered for the seat's player only, and
    // the first thread remembered wins.
    let thread = u64::MAX - 7;
    assert_eq!(
        store.set_seat_thread(id, Seat(1), UserId(1), thread).await.unwrap(),
        None,
        "not Ada's seat"
    );
    assert_eq!(
        store.set_seat_thread(id, Seat(1), UserId(2), thread).await.unwrap(),
        Some(thread)
    );
    assert_eq!(
        store.set_seat_thread(id, Seat(1), UserId(2), 99).await.unwrap(),
        Some(thread),
        "one thread per seat"
    );
    assert_eq!(store.thread_seat(thread).await.unwrap(), Some((id, Seat(1))));
    assert_eq!(store.thread_seat(99).await.unwrap(), None);
    assert_eq!(store.seats(id).await.unwrap()[1].thread_id, Some(thread));

    // Forgotten only if it is still that thread.
    store.forget_seat_thread(id, Seat(1), 99).await.unwrap();
    assert_eq!(store.seats(id).await.unwrap()[1].thread_id, Some(thread));
    store.forget_seat_thread(id, Seat(1), thread).await.unwrap();
    assert_eq!(store.seats(id).await.unwrap()[1].thread_id, None);
    store.set_seat_thread(id, Seat(1), UserId(2), thread).await.unwrap();

    // A new player: the game's setting again, and not the old thread.
    let replace = SeatChange {
        player: Some((UserId(3), "Cy".into())),
        ..SeatChange::new(Seat(1))
    };
    change_seat(store, id, seq, &replace, &[], &state, false, &[], NOW + 3, None)
        .await
        .unwrap();
    let s = &store.seats(id).await.unwrap()[1];
    assert_eq!((s.private_to, s.thread_id), (None, None));
    assert_eq!(store.thread_seat(thread).await.unwrap(), None);
    assert_eq!(PrivateTo::from_key("Threads"), Some(PrivateTo::Thread));
    assert_eq!(PrivateTo::from_key("post"), None);
}

async fn seat_changes_watchers_and_batches(db: Db) {
    let store = &db.store;
    let (id, seq) = started_game(store, 21).await;
    let (_, state) = sample(2);
    // Every set-up event belongs to batch 0; an append's events share the
    // sequence number before it.
    let more = events(2, 3);
    let seq2 = append(store, id, seq, &more, &state, false, &[], NOW + 2)
        .await
        .unwrap();
    let log = store.log(id).await.unwrap();
    assert_eq!(log.len() as i64, seq2);
    assert!(log[..seq as usize].iter().all(|e| e.batch == Some(0)));
    assert!(log[seq as usize..].iter().all(|e| e.batch == Some(seq)));
    assert_eq!(log.last().unwrap().event, more[2]);

    // Replace seat 2 with a snowflake above i64::MAX, with an event and a
    // message in the same transaction.
    let big = UserId(u64::MAX - 3);
    let change = SeatChange {
        player: Some((big, "Cy".into())),
        disorder: Some(false),
        vacant: Some(false),
        ..SeatChange::new(Seat(1))
    };
    let one = events(2, 1);
    let seq3 = change_seat(
        store,
        id,
        seq2,
        &change,
        &one,
        &state,
        false,
        &[json!({"post": "replaced"})],
        NOW + 3,
        None,
    )
    .await
    .unwrap();
    assert_eq!(seq3, seq2 + 1);
    let seats = store.seats(id).await.unwrap();
    assert_eq!(users(&seats), [(0, 1, "Ada"), (1, big.0, "Cy")]);
    assert!(outbox_of(store, id).await.contains(&json!({"post": "replaced"})));
    assert_eq!(store.games_of_user(big).await.unwrap().len(), 1);
    assert!(store.games_of_user(UserId(2)).await.unwrap().is_empty());

    // A stale sequence number changes nothing, the seat included.
    let kick = SeatChange {
        vacant: Some(true),
        disorder: Some(true),
        ..SeatChange::new(Seat(1))
    };
    assert!(matches!(
        change_seat(store, id, seq2, &kick, &[], &state, false, &[], NOW + 4, None).await,
        Err(StoreError::Conflict { .. })
    ));
    assert!(!store.seats(id).await.unwrap()[1].vacant);
    // Kicked: vacant and in disorder; no longer the user's game.
    change_seat(store, id, seq3, &kick, &[], &state, false, &[], NOW + 4, None)
        .await
        .unwrap();
    let s = &store.seats(id).await.unwrap()[1];
    assert!(s.vacant && s.disorder && s.automatic() && !s.played_by(big));
    assert!(store.games_of_user(big).await.unwrap().is_empty());
    // Someone seated elsewhere in the game can't take a second seat.
    let dup = SeatChange {
        player: Some((UserId(1), "Ada".into())),
        ..SeatChange::new(Seat(1))
    };
    assert!(matches!(
        change_seat(store, id, seq3, &dup, &[], &state, false, &[], NOW + 5, None).await,
        Err(StoreError::AlreadySeated { .. })
    ));
    assert!(matches!(
        change_seat(
            store,
            id,
            seq3,
            &SeatChange::new(Seat(5)),
            &[],
            &state,
            false,
            &[],
            NOW + 5,
            None
        )
        .await,
        Err(StoreError::NotFound(_))
    ));

    // Spectators.
    assert!(store.watch(id, UserId(9), NOW).await.unwrap());
    assert!(!store.watch(id, UserId(9), NOW + 1).await.unwrap(), "already watching");
    assert!(store.watch(id, big, NOW + 2).await.unwrap());
    assert_eq!(store.watchers(id).await.unwrap(), [UserId(9), big]);
    // The roster: seats and spectators in one statement, as apart.
    let (seats, watchers) = store.roster(id).await.unwrap();
    assert_eq!(seats, store.seats(id).await.unwrap());
    assert!(!seats.is_empty());
    assert_eq!(watchers, [UserId(9), big]);
    assert_eq!(store.watched_by(big).await.unwrap()[0].id, id);
    assert!(store.unwatch(id, UserId(9)).await.unwrap());
    assert!(!store.unwatch(id, UserId(9)).await.unwrap());
    assert_eq!(store.watchers(id).await.unwrap(), [big]);
    assert!(matches!(
        store.watch(GameId(id.0 + 1000), big, NOW).await,
        Err(StoreError::NotFound(_))
    ));
}

async fn concurrent_creates_get_distinct_ids(db: Db) {
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let store = db.store.clone();
            tokio::spawn(async move { store.create_game(new_game(14, i, 2)).await.unwrap() })
        })
        .collect();
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.unwrap());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 12);
    assert_eq!(db.store.games_in_channel(14).await.unwrap().len(), 12);

    // Concurrent joins of one lobby get distinct, contiguous seats.
    let id = ids[0];
    let joins: Vec<_> = (0..6)
        .map(|u| {
            let store = db.store.clone();
            tokio::spawn(async move { store.add_seat(id, UserId(100 + u), &format!("p{u}")).await.unwrap() })
        })
        .collect();
    let mut seats = Vec::new();
    for j in joins {
        seats.push(j.await.unwrap().0);
    }
    seats.sort();
    assert_eq!(seats, [0, 1, 2, 3, 4, 5]);
}

async fn corrupt_rows_are_reported(db: Db) {
    let store = &db.store;
    let (id, _) = started_game(store, 15).await;
    sqlx::query("UPDATE games SET state = $2 WHERE id = $1")
        .bind(id.0)
        .bind("{not json")
        .execute(store.pool())
        .await
        .unwrap();
    // The cached state is a cache: one that does not decode is refolded
    // from the log (see the unreadable log below).
    assert_eq!(store.game(id).await.unwrap().unwrap().state, Some(sample(2).1));
    let other = store.create_game(new_game(16, 1, 2)).await.unwrap();
    sqlx::query("UPDATE games SET kind = 'chess' WHERE id = $1")
        .bind(other.0)
        .execute(store.pool())
        .await
        .unwrap();
    assert!(matches!(store.game(other).await, Err(StoreError::Corrupt(m)) if m.contains("chess")));
    assert!(matches!(store.all_games().await, Err(StoreError::Corrupt(_))));
    sqlx::query("UPDATE events SET event = '[]' WHERE game_id = $1")
        .bind(id.0)
        .execute(store.pool())
        .await
        .unwrap();
    // A log entry that does not decode is the game's damage, typed: which
    // game, from which entry.
    assert!(matches!(store.events(id).await, Err(StoreError::Damaged { game, entry: 1, .. }) if game == id));
    // With the log unreadable too, the stale cache cannot be refolded: the
    // game is refused as damaged, and lists of games carry it marked.
    assert!(matches!(store.game(id).await, Err(StoreError::Damaged { game, entry: 1, .. }) if game == id));
    let listed = store.games_in_channel(15).await.unwrap();
    assert_eq!(
        (listed[0].id, listed[0].state.as_ref(), listed[0].damaged),
        (id, None, Some(1))
    );
}

/// Snapshots written with commits give the same state at every position as
/// the fold of the whole log, roll-backs included; one that names no entry
/// of its commit is refused with the commit; one that does not decode is
/// passed over.
async fn snapshots_shortcut_the_fold(db: Db) {
    use orrery::games::{PlatformEvent, Replay, Rewind};
    let store = &db.store;
    let (id, mut seq) = started_game(store, 17).await;
    let mut state = sample(2).1;
    // Real play: each owing seat's first legal order, a snapshot every
    // third commit; one commit rolls back four entries.
    for i in 0..24 {
        let p = state.pending().into_iter().find(|p| !p.submitted).expect("a decision");
        let line = state.legal_commands(p.seat).into_iter().next().expect("a legal order");
        let mut events = state.decide(p.seat, &line).expect("legal");
        for e in &events {
            state.apply(e).unwrap();
        }
        if i == 15 {
            let to_seq = seq - 4;
            let log = store.events_upto(id, to_seq).await.unwrap();
            state = Replay::of(GameKind::Hyperspace, &log).unwrap().into_state();
            events = vec![AnyEvent::Platform(PlatformEvent::RolledBack {
                to_seq,
                why: Rewind::Undo,
                undone: 4,
            })];
        }
        let last = seq + events.len() as i64;
        let mut c = Commit::new(id, seq, NOW + 10 + i).with_events(events, state.clone());
        if i % 3 == 0 {
            c = c.with_snapshots(vec![(last, state.clone())]);
        }
        seq = store.commit(c).await.unwrap();
        assert_eq!(seq, last);
    }
    assert_eq!(store.snapshots(id).await.unwrap().len(), 8);
    let log = store.events(id).await.unwrap();
    for k in 1..=seq {
        let folded = Replay::of(GameKind::Hyperspace, log.iter().filter(|(s, _)| *s <= k))
            .unwrap()
            .into_state();
        assert_eq!(
            store.state_at(id, GameKind::Hyperspace, k).await.unwrap(),
            folded,
            "the state after entry {k}"
        );
    }
    // A snapshot outside the commit's entries: nothing is written.
    let p = state.pending().into_iter().find(|p| !p.submitted).unwrap();
    let line = state.legal_commands(p.seat).into_iter().next().unwrap();
    let events = state.decide(p.seat, &line).unwrap();
    let mut after = state.clone();
    for e in &events {
        after.apply(e).unwrap();
    }
    let c = Commit::new(id, seq, NOW + 100)
        .with_events(events, after.clone())
        .with_snapshots(vec![(seq, state.clone())]);
    assert!(matches!(store.commit(c).await, Err(StoreError::Corrupt(m)) if m.contains("snapshot")));
    assert_eq!(store.events(id).await.unwrap().len() as i64, seq);
    assert_eq!(store.snapshots(id).await.unwrap().len(), 8);
    // A snapshot that does not decode is a cache miss, not an error.
    sqlx::query("UPDATE snapshots SET state = '{not json' WHERE game_id = $1")
        .bind(id.0)
        .execute(store.pool())
        .await
        .unwrap();
    let folded = Replay::of(GameKind::Hyperspace, &log).unwrap().into_state();
    assert_eq!(store.state_at(id, GameKind::Hyperspace, seq).await.unwrap(), folded);
    assert!(store.snapshots(id).await.unwrap().iter().all(|(_, s)| s.is_none()));
}

async fn live_messages_per_game_and_slot(db: Db) {
    let store = &db.store;
    let game = store.create_game(new_game(21, 1, 2)).await.unwrap();
    let other = store.create_game(new_game(22, 1, 2)).await.unwrap();
    assert_eq!(store.live_message(game, "prompt:0").await.unwrap(), None);
    assert!(store.live_messages(game).await.unwrap().is_empty());

    let prompt = LiveRow {
        game_id: game,
        slot: "prompt:0".into(),
        // Snowflakes above i64::MAX survive the BIGINT bit cast.
        channel_id: BIG_CHANNEL,
        message_id: u64::MAX - 7,
        payload: json!({"target": {"Dm": 5}, "text": [{"plain": "Your move ✨"}], "choices": []}),
        outbox_id: Some(3),
        updated_at: NOW,
    };
    store.put_live_message(&prompt).await.unwrap();
    let phase = LiveRow {
        slot: "phase".into(),
        channel_id: 21,
        message_id: 900,
        payload: json!({"text": "Phase 1"}),
        outbox_id: None,
        ..prompt.clone()
    };
    store.put_live_message(&phase).await.unwrap();
    // The same slot key in another game is another row.
    let elsewhere = LiveRow {
        game_id: other,
        message_id: 1,
        ..prompt.clone()
    };
    store.put_live_message(&elsewhere).await.unwrap();

    assert_eq!(
        store.live_message(game, "prompt:0").await.unwrap(),
        Some(prompt.clone())
    );
    assert_eq!(store.live_message(game, "phase").await.unwrap(), Some(phase.clone()));
    assert_eq!(store.live_message(game, "prompt:1").await.unwrap(), None);
    assert_eq!(
        store.live_messages(game).await.unwrap(),
        vec![phase.clone(), prompt.clone()],
        "by slot key"
    );

    // A put on a taken slot replaces the row (one live message per slot).
    let edited = LiveRow {
        message_id: 42,
        channel_id: 43,
        payload: json!({"text": "Your move (updated)"}),
        outbox_id: Some(9),
        updated_at: NOW + 5,
        ..prompt.clone()
    };
    store.put_live_message(&edited).await.unwrap();
    assert_eq!(store.live_message(game, "prompt:0").await.unwrap(), Some(edited));
    assert_eq!(
        count(store, "SELECT COUNT(*) FROM live_messages WHERE game_id = $1", game).await,
        2
    );

    assert!(store.remove_live_message(game, "prompt:0").await.unwrap());
    assert!(
        !store.remove_live_message(game, "prompt:0").await.unwrap(),
        "already gone"
    );
    assert_eq!(store.live_message(game, "prompt:0").await.unwrap(), None);
    assert_eq!(store.live_message(other, "prompt:0").await.unwrap(), Some(elsewhere));
    assert_eq!(store.live_messages(game).await.unwrap(), vec![phase]);

    // A game that does not exist has no slots to fill.
    let missing = LiveRow {
        game_id: GameId(other.0 + 1000),
        ..prompt
    };
    assert!(matches!(
        store.put_live_message(&missing).await,
        Err(StoreError::NotFound(_))
    ));
    // Unreadable payloads are reported, not guessed at.
    sqlx::query("UPDATE live_messages SET payload = '{oops' WHERE game_id = $1")
        .bind(game.0)
        .execute(store.pool())
        .await
        .unwrap();
    assert!(matches!(
        store.live_message(game, "phase").await,
        Err(StoreError::Corrupt(_))
    ));
}

// --- SQLite specifics ----------------------------------------------------------

async fn pragma(store: &Store, name: &str) -> String {
    let row = sqlx::query(&format!("PRAGMA {name}"))
        .fetch_one(store.pool())
        .await
        .unwrap();
    row.try_get::<String, _>(0)
        .or_else(|_| row.try_get::<i64, _>(0).map(|n| n.to_string()))
        .unwrap()
}

#[tokio::test]
async fn sqlite_file_is_created_in_wal_mode() {
    let dir = std::env::temp_dir().join(unique("orrery-store-dir"));
    let path = dir.join("nested").join("g.db");
    assert!(!path.exists());
    let url = format!("sqlite://{}", path.display());
    assert!(url.starts_with("sqlite:///"), "absolute form: {url}");
    let store = Store::connect(&url)
        .await
        .expect("connect creates the file and its directory");
    assert!(path.exists());
    assert_eq!(pragma(&store, "journal_mode").await, "wal");
    assert_eq!(pragma(&store, "foreign_keys").await, "1");
    assert_eq!(pragma(&store, "busy_timeout").await, "5000");
    // Every pooled connection, not just the first.
    let mut conns = Vec::new();
    for _ in 0..3 {
        let mut c = store.pool().acquire().await.unwrap();
        let mode: String = sqlx::query("PRAGMA journal_mode")
            .fetch_one(&mut *c)
            .await
            .unwrap()
            .get(0);
        assert_eq!(mode, "wal");
        conns.push(c);
    }
    drop(conns);
    store.close().await;
    // Still WAL when reopened, and the data is there.
    let store = Store::connect(&url).await.unwrap();
    let id = store.create_game(new_game(1, 1, 2)).await.unwrap();
    store.close().await;
    let store = Store::connect(&url).await.unwrap();
    assert!(store.game(id).await.unwrap().is_some());
    assert_eq!(pragma(&store, "journal_mode").await, "wal");
    store.close().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn sqlite_relative_url() {
    // Relative to the working directory (the package root under cargo test).
    let name = format!("target/{}.db", unique("orrery-store-rel"));
    let store = Store::connect(&format!("sqlite://{name}")).await.unwrap();
    assert!(std::path::Path::new(&name).exists());
    store.close().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{name}{suffix}"));
    }
}

#[tokio::test]
async fn sqlite_in_memory() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let id = store.create_game(new_game(1, 1, 2)).await.unwrap();
    // Many calls, one database (the pool keeps a single connection).
    let tasks: Vec<_> = (0..4)
        .map(|u| {
            let s = store.clone();
            tokio::spawn(async move { s.add_seat(id, UserId(u), "p").await.unwrap() })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(store.seats(id).await.unwrap().len(), 4);
    let (events, state) = sample(2);
    start_game(&store, id, &GameConfig::new(4, 1), &events, &state, &[], NOW)
        .await
        .unwrap();
    assert_eq!(store.events(id).await.unwrap().len(), events.len());
    // A second in-memory store is a different database.
    let other = Store::connect("sqlite::memory:").await.unwrap();
    assert_eq!(other.game(id).await.unwrap(), None);
}

#[tokio::test]
async fn unsupported_urls_are_refused() {
    let err = Store::connect("mysql://u@h/db").await.unwrap_err();
    assert!(err.to_string().contains("unsupported"), "{err}");
}

#[test]
fn database_name_replacement() {
    assert_eq!(
        crate::pgdb::with_database("postgres://postgres@127.0.0.1:5432/test", "x"),
        "postgres://postgres@127.0.0.1:5432/x"
    );
    assert_eq!(
        crate::pgdb::with_database("postgres://u:p@h/test?sslmode=disable", "x"),
        "postgres://u:p@h/x?sslmode=disable"
    );
    assert_eq!(
        crate::pgdb::with_database("postgres://h:5432", "x"),
        "postgres://h:5432/x"
    );
}

/// Commits do not checkpoint the write-ahead log (SQLite would, in the
/// commit that fills it past 1,000 pages, making that commit several
/// milliseconds slower); the store's own task copies it into the database
/// file in the background.
#[tokio::test]
async fn sqlite_checkpoints_in_the_background_not_in_commits() {
    let path = std::env::temp_dir().join(format!("{}.db", unique("orrery-ckpt")));
    let store = Store::connect(&format!("sqlite://{}", path.display())).await.unwrap();
    let pages: i64 = sqlx::query("PRAGMA wal_autocheckpoint")
        .fetch_one(store.pool())
        .await
        .unwrap()
        .try_get(0)
        .unwrap();
    assert!(pages >= 10_000, "commits leave checkpoints to the store: {pages}");
    let before = std::fs::metadata(&path).unwrap().len();
    // About 2,500 pages of log, in 50 commits.
    store.pool().execute("CREATE TABLE filler (x TEXT)").await.unwrap();
    let row = "x".repeat(200_000);
    for _ in 0..50 {
        sqlx::query("INSERT INTO filler (x) VALUES ($1)")
            .bind(&row)
            .execute(store.pool())
            .await
            .unwrap();
    }
    let mut grown = before;
    for _ in 0..40 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        grown = std::fs::metadata(&path).unwrap().len();
        if grown >= before + 9_000_000 {
            break;
        }
    }
    assert!(
        grown >= before + 9_000_000,
        "the log was copied into the database file: {before} -> {grown} bytes"
    );
    store.close().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// Computer players' seats (issue 31, migration 0012): seated in the lobby
/// with their level, removed as anyone is, found among the games in play,
/// and given a seat or handing it back through the one commit.
async fn computer_players_sit_leave_and_hand_seats_back(db: Db) {
    let store = &db.store;
    let id = store.create_game(new_game(41, 1, 2)).await.unwrap();
    store.add_seat(id, UserId(1), "Ada").await.unwrap();
    let bot = bot_user(1);
    assert_eq!(
        store.add_bot(id, bot, "🤖 Bot-1", BotLevel::Easy).await.unwrap(),
        Seat(1)
    );
    assert!(matches!(
        store.add_bot(id, bot, "🤖 Bot-1", BotLevel::Easy).await,
        Err(StoreError::AlreadySeated { .. })
    ));
    let levels = |seats: &[SeatRow]| seats.iter().map(|s| s.bot).collect::<Vec<_>>();
    assert_eq!(levels(&store.seats(id).await.unwrap()), [None, Some(BotLevel::Easy)]);
    assert_eq!(levels(&store.roster(id).await.unwrap().0), [None, Some(BotLevel::Easy)]);
    let s = &store.seats(id).await.unwrap()[1];
    assert!(s.is_bot() && !s.person() && !s.automatic() && s.unattended());
    store.remove_seat(id, bot).await.unwrap();
    assert_eq!(store.seats(id).await.unwrap().len(), 1);
    store.add_bot(id, bot, "🤖 Bot-1", BotLevel::Hard).await.unwrap();
    assert!(
        store.games_with_bots().await.unwrap().is_empty(),
        "a lobby is not in play"
    );

    let (events, state) = sample(2);
    start_game(store, id, &GameConfig::new(2, 99), &events, &state, &[], NOW + 1)
        .await
        .unwrap();
    let seq = events.len() as i64;
    assert_eq!(store.games_with_bots().await.unwrap(), [id]);

    // Back to a person: a new player is a person unless the change says so.
    let person = SeatChange {
        player: Some((UserId(5), "Cy".into())),
        ..SeatChange::new(Seat(1))
    };
    let seq = change_seat(store, id, seq, &person, &events[..1], &state, false, &[], NOW + 2, None)
        .await
        .unwrap();
    let s = &store.seats(id).await.unwrap()[1];
    assert_eq!((s.user, s.name.as_str(), s.bot), (UserId(5), "Cy", None));
    assert!(s.person());
    assert!(store.games_with_bots().await.unwrap().is_empty());
    assert_eq!(store.names_at(id, 1).await.unwrap(), ["Ada", "🤖 Bot-1"]);

    // And to a computer player again, at a level.
    let to_bot = SeatChange {
        player: Some((bot_user(2), "🤖 Bot-2".into())),
        bot: Some(Some(BotLevel::Normal)),
        ..SeatChange::new(Seat(1))
    };
    change_seat(store, id, seq, &to_bot, &events[..1], &state, false, &[], NOW + 3, None)
        .await
        .unwrap();
    let s = &store.seats(id).await.unwrap()[1];
    assert_eq!((s.user, s.bot), (bot_user(2), Some(BotLevel::Normal)));
    assert_eq!(store.games_with_bots().await.unwrap(), [id]);
}
