//! A full disk during play (issue #29 §1): players are told the game's
//! storage is full (not a generic error), and play and delivery go on by
//! themselves once the disk has room, without a restart.
//!
//! The disk is filled with `PRAGMA max_page_count` on every pooled
//! connection (SQLite then answers "database or disk is full", and rolls
//! the transaction back itself when the failing statement has no
//! statement journal, as a failing write to a full disk does).

use orrery::games::GameKind;
use orrery::service::{Service, ServiceError};

use crate::common::{at, max_pages, next_order, order, page_count, started, state, Accepts};

const CHANNEL: u64 = 800;
const NAMES: [&str; 3] = ["alice", "bob", "carol"];

/// What a player is told while the database cannot be written.
const STORAGE_FULL: &str = "The game's storage is full right now, so nothing was changed. Please try again later.";

/// The next order of the game, given by the seat that owes it.
async fn play_one(svc: &Service, game: orrery::engine::GameId) -> Result<(), ServiceError> {
    let s = state(svc, game).await;
    let (seat, line) = next_order(&s, |_| 0).expect("the game goes on");
    let who = at(CHANNEL, seat.index() as u64 + 1, NAMES[seat.index()]);
    svc.handle(&who, order(game, &line)).await.map(|_| ())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_are_told_the_storage_is_full_and_play_resumes_when_it_has_room() {
    let (svc, _clock) = crate::common::service("storage-full").await;
    let store = svc.store().clone();
    let pool = store.pool().options().get_max_connections() as usize;
    let game = started(&svc, CHANNEL, GameKind::Hyperspace, 3, &NAMES).await;
    svc.deliver(&Accepts).await.unwrap();

    // The disk nearly full: each order on a database allowed 0 to 3 more
    // pages, so that the disk fills at every point of a write in turn.
    let mut refused = Vec::new();
    for room in 0..48 {
        max_pages(&store, page_count(&store).await + room % 4).await;
        if let Err(e) = play_one(&svc, game).await {
            refused.push(e);
        }
    }
    assert!(refused.len() >= pool, "orders fail on a full disk: {}", refused.len());
    for e in &refused {
        assert!(matches!(e, ServiceError::StorageFull), "{e:?}");
        assert_eq!(e.to_string(), STORAGE_FULL);
    }

    // Room again, without a restart: every order is accepted, enough of
    // them to use every pooled connection twice, and delivered.
    max_pages(&store, 1 << 30).await;
    for i in 0..2 * pool {
        play_one(&svc, game)
            .await
            .unwrap_or_else(|e| panic!("order {i} after the disk has room again: {e}"));
    }
    let delivered = svc
        .deliver(&Accepts)
        .await
        .expect("delivery after the disk has room again");
    assert!(delivered > 0);
    assert!(store.undelivered(10).await.unwrap().is_empty());
    store.close().await;
}
