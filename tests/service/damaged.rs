//! A damaged log (issue #29 §6): one game whose log (and cached state) no
//! longer decodes is refused with a clear word, and affects no other game,
//! nor the player's other games, nor `/mygames`.

use orrery::games::GameKind;
use orrery::service::{OutMessage, Request, Target};

use crate::common::{at, in_dm, next_order, ok, order, refused, started, state, Accepts};

const NAMES: [&str; 2] = ["alice", "bob"];

/// How the test damages entry 2 of a game's log.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// Text that does not decode.
    Garbage,
    /// An entry of another game's log: it decodes, but does not apply.
    OtherGames,
}

#[tokio::test]
async fn a_damaged_log_is_refused_clearly_and_touches_no_other_game() {
    let (svc, _clock) = crate::common::service("damaged").await;
    damaged_log(svc, Damage::Garbage).await;
}

/// A log entry that decodes but cannot be applied (it was failing before:
/// the fold's error named no entry and every read of the game failed with
/// a generic error).
#[tokio::test]
async fn a_log_that_decodes_but_does_not_fold_is_damaged_too() {
    let (svc, _clock) = crate::common::service("damaged-fold").await;
    damaged_log(svc, Damage::OtherGames).await;
}

/// Both damages on PostgreSQL.
#[tokio::test]
async fn a_damaged_log_on_postgres() {
    for damage in [Damage::Garbage, Damage::OtherGames] {
        let Some(db) = crate::pgdb::PgDatabase::create("damaged", "the PostgreSQL damaged-log test").await else {
            return;
        };
        let store = orrery::store::Store::connect(&db.url).await.expect("store");
        let clock = std::sync::Arc::new(orrery::service::ManualClock::new(crate::common::T0));
        damaged_log(orrery::service::Service::new(store.clone(), clock), damage).await;
        store.close().await;
        db.drop().await;
    }
}

async fn damaged_log(svc: orrery::service::Service, damage: Damage) {
    let store = svc.store().clone();
    let bad = started(&svc, 910, GameKind::Hyperspace, 3, &NAMES).await;
    let good = started(&svc, 911, GameKind::Hyperspace, 4, &NAMES).await;
    let other = started(&svc, 912, GameKind::Starlanes, 5, &NAMES).await;
    for _ in 0..3 {
        let s = state(&svc, bad).await;
        let (seat, line) = next_order(&s, |_| 0).expect("the game goes on");
        ok(
            &svc,
            &at(910, seat.index() as u64 + 1, NAMES[seat.index()]),
            order(bad, &line),
        )
        .await;
    }
    let entry: i64 = 2;
    let sql = match damage {
        Damage::Garbage => "UPDATE events SET event = 'garbage' WHERE game_id = $1 AND seq = $2 AND $3 > 0",
        Damage::OtherGames => {
            "UPDATE events SET event = (SELECT o.event FROM events o WHERE o.game_id = $3 AND o.seq = $2),
             version = (SELECT o.version FROM events o WHERE o.game_id = $3 AND o.seq = $2)
             WHERE game_id = $1 AND seq = $2"
        }
    };
    let changed = sqlx::query(sql)
        .bind(bad.0)
        .bind(entry)
        .bind(other.0)
        .execute(store.pool())
        .await
        .unwrap()
        .rows_affected();
    assert_eq!(changed, 1);
    let damaged = format!("Game {bad}'s log is damaged from entry {entry}; ask the host.");
    let alice = at(910, 1, "alice");

    // The cached state still reads: reading the log is refused clearly.
    let why = refused(&svc, &alice, Request::Log { game: None }).await;
    assert!(why.contains(&damaged), "{why}");
    let why = refused(
        &svc,
        &alice,
        Request::History {
            game: None,
            phase: None,
        },
    )
    .await;
    assert!(why.contains(&damaged), "{why}");

    // The cached state broken too: every command in its channel is refused
    // clearly…
    sqlx::query("UPDATE games SET state = 'garbage' WHERE id = $1")
        .bind(bad.0)
        .execute(store.pool())
        .await
        .unwrap();
    let why = refused(&svc, &alice, Request::Status { game: None }).await;
    assert!(why.contains(&damaged), "{why}");
    let why = refused(&svc, &in_dm(1, "alice"), Request::Status { game: Some(bad) }).await;
    assert!(why.contains(&damaged), "{why}");

    // …while the other game, in its channel and from DMs, goes on…
    ok(&svc, &at(911, 1, "alice"), Request::Status { game: None }).await;
    let s = state(&svc, good).await;
    let (seat, line) = next_order(&s, |_| 0).expect("the game goes on");
    ok(
        &svc,
        &at(911, seat.index() as u64 + 1, NAMES[seat.index()]),
        order(good, &line),
    )
    .await;

    // …and `/mygames` lists both, the damaged one marked.
    let mine = ok(&svc, &in_dm(1, "alice"), Request::MyGames).await.text.to_plain();
    assert!(mine.contains(&format!("game {good} ")), "{mine}");
    assert!(mine.contains(&format!("game {bad} ")), "{mine}");
    assert!(mine.contains(&format!("log is damaged from entry {entry}")), "{mine}");

    // Delivery goes on for every other game, and for the player's other
    // games' DMs; the damaged game's private messages (their route needs
    // the game) are given up as undeliverable, counted as failed sends.
    let dms_of_bad = |rows: &[orrery::store::OutboxRow]| {
        rows.iter()
            .filter(|r| r.game_id == Some(bad))
            .filter(|r| {
                let m: OutMessage = serde_json::from_value(r.payload.clone()).unwrap();
                matches!(m.target, Target::Dm(_))
            })
            .count()
    };
    let queued = store.undelivered(10_000).await.unwrap();
    assert!(dms_of_bad(&queued) > 0, "the damaged game has private messages queued");
    assert!(queued.iter().any(|r| r.game_id == Some(good)));
    svc.deliver(&Accepts).await.unwrap();
    let left = store.undelivered(10_000).await.unwrap();
    assert!(
        left.iter().all(|r| r.game_id == Some(bad)),
        "{:?}",
        left.iter().map(|r| r.id).collect::<Vec<_>>()
    );
    assert_eq!(dms_of_bad(&left), 0);
    let given_up: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM outbox WHERE game_id = $1 AND last_error LIKE '%is damaged from entry 2%'",
    )
    .bind(bad.0)
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert_eq!(given_up, dms_of_bad(&queued) as i64);
    assert_eq!(svc.health().await.unwrap().failed_sends, given_up as u64);
}
