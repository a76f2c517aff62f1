//! A damaged log (issue #29 §6): one game whose log (and cached state) no
//! longer decodes is refused with a clear word, and affects no other game,
//! nor the player's other games, nor `/mygames`.

use orrery::games::GameKind;
use orrery::service::Request;

use crate::common::{at, in_dm, next_order, ok, order, refused, started, state};

const NAMES: [&str; 2] = ["alice", "bob"];

#[tokio::test]
async fn a_damaged_log_is_refused_clearly_and_touches_no_other_game() {
    let (svc, _clock) = crate::common::service("damaged").await;
    let store = svc.store().clone();
    let bad = started(&svc, 910, GameKind::Hyperspace, 3, &NAMES).await;
    let good = started(&svc, 911, GameKind::Hyperspace, 4, &NAMES).await;
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
    sqlx::query("UPDATE events SET event = 'garbage' WHERE game_id = $1 AND seq = $2")
        .bind(bad.0)
        .bind(entry)
        .execute(store.pool())
        .await
        .unwrap();
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
}
