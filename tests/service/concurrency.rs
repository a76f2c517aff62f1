//! 100 concurrent submitters through the service (issue #13 §4), on a
//! SQLite file and, when `TEST_POSTGRES_URL` is set, on a PostgreSQL
//! database of its own:
//! - on one game, 100 tasks give the order that answers one decision at
//!   the same moment: exactly one is accepted per decision, the others
//!   are told the game moved on (or that it is busy), and the log and the
//!   outbox hold what one sequential submission would have written, once;
//! - the same with the 100 tasks spread over the seats of a sequential
//!   decision (each turn holder's `end` accepted once, in turn);
//! - on 100 games at once, one submitter each: all accepted.

use orrery::engine::{CommandLine, GameId, Seat, UserId};
use orrery::games::{AnyEvent, AnyState, GameKind};
use orrery::service::{Actor, ManualClock, Place, Service, ServiceError};
use orrery::store::Store;
use std::sync::Arc;
use tokio::sync::Barrier;

use crate::common::{db_url, order, sent, started, state, T0};
use crate::pgdb::PgDatabase;

const SUBMITTERS: usize = 100;
const SEED: u64 = 7;
const NAMES: [&str; 4] = ["alice", "bob", "carol", "dave"];

fn player(channel: u64, seat: usize) -> Actor {
    Actor {
        user: UserId(seat as u64 + 1),
        name: NAMES[seat].into(),
        place: Place::Channel {
            channel,
            guild: Some(9),
        },
    }
}

async fn service_on(url: &str) -> Arc<Service> {
    let store = Store::connect(url).await.expect("store");
    Arc::new(Service::new(store, Arc::new(ManualClock::new(T0))))
}

/// The order that answers `seat`'s turn: `end`.
fn end_of_turn(state: &AnyState, seat: Seat) -> CommandLine {
    state
        .legal_commands(seat)
        .into_iter()
        .find(|c| c.name == "end")
        .unwrap_or_else(|| panic!("{seat} cannot end its turn: {:?}", state.pending()))
}

/// The seat whose turn it is (the one pending seat).
fn turn_holder(state: &AnyState) -> Seat {
    let pending = state.pending();
    assert_eq!(pending.len(), 1, "a sequential decision: {pending:?}");
    pending[0].seat
}

fn events_of(log: &[(i64, AnyEvent)]) -> Vec<AnyEvent> {
    log.iter().map(|(_, e)| e.clone()).collect()
}

/// A refusal a racing submitter may get: the game moved on (nothing is
/// asked of them now) or is busy. Anything else (an internal error such
/// as "database is locked") fails the test.
fn expected_refusal(e: &ServiceError) -> bool {
    match e {
        ServiceError::User(text) => text.to_plain().contains("Nothing is asked of you right now"),
        ServiceError::Busy(_) => true,
        ServiceError::StorageFull
        | ServiceError::StorageUnavailable
        | ServiceError::Damaged { .. }
        | ServiceError::Internal(_) => false,
    }
}

/// The outbox of a game after `orders` given one by one on a fresh game:
/// what the race must have written, no more, no less.
async fn sequential_outbox(url: &str, players: usize, channel: u64, orders: usize) -> Vec<serde_json::Value> {
    let svc = service_on(url).await;
    let game = started(&svc, channel, GameKind::Hyperspace, SEED, &NAMES[..players]).await;
    sent(&svc).await;
    for _ in 0..orders {
        let s = state(&svc, game).await;
        let seat = turn_holder(&s);
        svc.handle(&player(channel, seat.index()), order(game, &end_of_turn(&s, seat)))
            .await
            .expect("a sequential order");
    }
    let out = payloads(&svc).await;
    svc.store().close().await;
    out
}

async fn payloads(svc: &Service) -> Vec<serde_json::Value> {
    svc.store()
        .undelivered(100_000)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.payload)
        .collect()
}

/// 100 tasks, released together, each giving `end` as the seat `seat_of(i)`.
async fn race(
    svc: &Arc<Service>,
    channel: u64,
    game: GameId,
    line: &CommandLine,
    seat_of: impl Fn(usize) -> usize,
) -> Vec<(usize, Result<(), ServiceError>)> {
    let barrier = Arc::new(Barrier::new(SUBMITTERS));
    let mut tasks = Vec::new();
    for i in 0..SUBMITTERS {
        let (svc, barrier, line) = (svc.clone(), barrier.clone(), line.clone());
        let seat = seat_of(i);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let r = svc.handle(&player(channel, seat), order(game, &line)).await;
            (seat, r.map(|_| ()))
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.expect("a submitter panicked"));
    }
    out
}

/// One game, one seat: 100 identical orders for one decision at once.
async fn one_decision_one_seat(url: &str, baseline_url: &str) {
    const CHANNEL: u64 = 700;
    let svc = service_on(url).await;
    let game = started(&svc, CHANNEL, GameKind::Hyperspace, SEED, &NAMES[..2]).await;
    sent(&svc).await;
    let before = state(&svc, game).await;
    let log_before = svc.store().events(game).await.unwrap();
    let seat = turn_holder(&before);
    let line = end_of_turn(&before, seat);

    let results = race(&svc, CHANNEL, game, &line, |_| seat.index()).await;
    let accepted = results.iter().filter(|(_, r)| r.is_ok()).count();
    assert_eq!(accepted, 1, "exactly one `end` is accepted for one turn");
    for (_, r) in &results {
        if let Err(e) = r {
            assert!(expected_refusal(e), "a racing submitter was told: {e}");
        }
    }

    // The log: what was there, then the events of one `end`, once.
    let mut expected = events_of(&log_before);
    expected.extend(before.decide(seat, &line).unwrap());
    let log = svc.store().events(game).await.unwrap();
    assert_eq!(events_of(&log), expected, "the log holds the accepted order once");
    assert_eq!(
        log.last().unwrap().0,
        expected.len() as i64,
        "sequence numbers without gaps"
    );
    // The outbox: one set of messages, as one sequential order writes.
    assert_eq!(
        payloads(&svc).await,
        sequential_outbox(baseline_url, 2, CHANNEL, 1).await,
        "the outbox holds one set of messages"
    );
    svc.store().close().await;
}

/// One game, four seats of a sequential decision: 100 tasks, 25 per seat,
/// each giving `end`. Every turn is answered once, by its holder, in turn.
async fn one_decision_many_seats(url: &str, baseline_url: &str) {
    const CHANNEL: u64 = 701;
    let svc = service_on(url).await;
    let game = started(&svc, CHANNEL, GameKind::Hyperspace, SEED, &NAMES).await;
    sent(&svc).await;
    let before = state(&svc, game).await;
    let log_before = svc.store().events(game).await.unwrap();
    let line = end_of_turn(&before, turn_holder(&before));

    let results = race(&svc, CHANNEL, game, &line, |i| i % NAMES.len()).await;
    let mut accepted: Vec<usize> = results
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(seat, _)| *seat)
        .collect();
    assert!(!accepted.is_empty(), "the turn holder's `end` is accepted");
    for (seat, r) in &results {
        if let Err(e) = r {
            assert!(expected_refusal(e), "seat {seat} was told: {e}");
        }
    }

    // Replay the turns one by one: the holders are the seats accepted, and
    // the log is exactly their `end`s, in turn.
    let mut s = before.clone();
    let mut expected = events_of(&log_before);
    let mut holders = Vec::new();
    for _ in 0..accepted.len() {
        let seat = turn_holder(&s);
        holders.push(seat.index());
        let events = s.decide(seat, &end_of_turn(&s, seat)).unwrap();
        for e in &events {
            s.apply(e).unwrap();
        }
        expected.extend(events);
    }
    accepted.sort_unstable();
    holders.sort_unstable();
    assert_eq!(accepted, holders, "each accepted `end` was its holder's turn");
    let log = svc.store().events(game).await.unwrap();
    assert_eq!(events_of(&log), expected, "every accepted order in the log once");
    assert_eq!(
        state(&svc, game).await,
        s,
        "the stored state is the fold of the accepted orders"
    );
    assert_eq!(
        payloads(&svc).await,
        sequential_outbox(baseline_url, NAMES.len(), CHANNEL, holders.len()).await,
        "the outbox holds one set of messages per accepted order"
    );
    svc.store().close().await;
}

/// 100 games, one submitter each, all at once: every order accepted.
async fn hundred_games(url: &str, baseline_url: &str) {
    const FIRST: u64 = 2000;
    let svc = service_on(url).await;
    let mut games = Vec::new();
    for i in 0..SUBMITTERS as u64 {
        games.push(started(&svc, FIRST + i, GameKind::Hyperspace, SEED, &NAMES[..2]).await);
    }
    sent(&svc).await;
    let mut befores = Vec::new();
    for &g in &games {
        befores.push((state(&svc, g).await, svc.store().events(g).await.unwrap()));
    }
    let barrier = Arc::new(Barrier::new(SUBMITTERS));
    let mut tasks = Vec::new();
    for (i, &game) in games.iter().enumerate() {
        let (svc, barrier) = (svc.clone(), barrier.clone());
        let s = &befores[i].0;
        let seat = turn_holder(s);
        let line = end_of_turn(s, seat);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            svc.handle(&player(FIRST + i as u64, seat.index()), order(game, &line))
                .await
        }));
    }
    for (i, t) in tasks.into_iter().enumerate() {
        let r = t.await.expect("a submitter panicked");
        assert!(r.is_ok(), "game {}: {:?}", games[i], r.err().map(|e| e.to_string()));
    }
    let one_game = sequential_outbox(baseline_url, 2, FIRST, 1).await.len();
    let outbox = svc.store().undelivered(100_000).await.unwrap();
    for (i, &g) in games.iter().enumerate() {
        let (s, log_before) = &befores[i];
        let seat = turn_holder(s);
        let mut expected = events_of(log_before);
        expected.extend(s.decide(seat, &end_of_turn(s, seat)).unwrap());
        assert_eq!(
            events_of(&svc.store().events(g).await.unwrap()),
            expected,
            "game {g}: its order in the log once"
        );
        let rows = outbox.iter().filter(|r| r.game_id == Some(g)).count();
        assert_eq!(rows, one_game, "game {g}: one set of messages");
    }
    svc.store().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hundred_submitters_on_one_decision_sqlite() {
    one_decision_one_seat(&db_url("race-one"), &db_url("race-one-base")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hundred_submitters_over_the_seats_of_a_turn_sqlite() {
    one_decision_many_seats(&db_url("race-seats"), &db_url("race-seats-base")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hundred_games_at_once_sqlite() {
    hundred_games(&db_url("race-games"), &db_url("race-games-base")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hundred_submitters_on_postgres() {
    let mut dbs = Vec::new();
    for tag in ["one", "oneb", "seats", "seatsb", "games", "gamesb"] {
        let Some(db) = PgDatabase::create(&format!("race_{tag}"), "the PostgreSQL race tests").await else {
            return;
        };
        dbs.push(db);
    }
    one_decision_one_seat(&dbs[0].url, &dbs[1].url).await;
    one_decision_many_seats(&dbs[2].url, &dbs[3].url).await;
    hundred_games(&dbs[4].url, &dbs[5].url).await;
    for db in dbs {
        db.drop().await;
    }
}
