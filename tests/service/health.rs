//! The health line (issue #29 §6): games active, the outbox backlog and
//! its oldest message's age, failed sends, the store's health, counted
//! right on a small fixture.

use orrery::games::GameKind;
use orrery::service::{Delivery, OutMessage, Posted, Request};

use crate::common::{at, next_order, ok, order, sent, started, state};

/// Every send fails (a passing failure: the row stays queued).
struct Down;

impl orrery::service::Transport for Down {
    async fn send(&self, _: i64, _: &OutMessage, _: Option<&[u8]>) -> anyhow::Result<Delivery> {
        anyhow::bail!("Discord is down")
    }

    async fn edit(&self, _: i64, _: &Posted, _: &OutMessage, _: Option<&[u8]>) -> anyhow::Result<Delivery> {
        anyhow::bail!("Discord is down")
    }
}

#[tokio::test]
async fn the_health_line_counts_games_backlog_and_failed_sends() {
    let (svc, clock) = crate::common::service("health").await;
    let names = ["alice", "bob"];
    let game = started(&svc, 930, GameKind::Hyperspace, 1, &names).await;
    started(&svc, 931, GameKind::Starlanes, 2, &names).await;
    // A lobby is not a game in play.
    ok(
        &svc,
        &at(932, 1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(3),
            options: None,
            private: None,
        },
    )
    .await;
    sent(&svc).await;

    let h = svc.health().await.unwrap();
    assert_eq!(
        (
            h.games_active,
            h.outbox_undelivered,
            h.oldest_undelivered_ms,
            h.failed_sends
        ),
        (2, 0, None, 0)
    );
    assert!(h.storage.writable && h.storage.full_errors == 0, "{h:?}");

    // An order queues messages; 90 s later they still wait.
    let s = state(&svc, game).await;
    let (seat, line) = next_order(&s, |_| 0).expect("the game goes on");
    ok(
        &svc,
        &at(930, seat.index() as u64 + 1, names[seat.index()]),
        order(game, &line),
    )
    .await;
    clock.advance_ms(90_000);
    let queued = svc.store().undelivered(1000).await.unwrap().len() as i64;
    assert!(queued > 0);
    let h = svc.health().await.unwrap();
    assert_eq!(
        (h.outbox_undelivered, h.oldest_undelivered_ms, h.failed_sends),
        (queued, Some(90_000), 0)
    );

    // Discord down: every send tried fails and is counted; nothing is lost.
    svc.deliver(&Down).await.unwrap();
    let tried = svc
        .store()
        .undelivered(1000)
        .await
        .unwrap()
        .iter()
        .filter(|r| r.attempts > 0)
        .count() as u64;
    assert!(tried > 0);
    let h = svc.health().await.unwrap();
    assert_eq!((h.outbox_undelivered, h.failed_sends), (queued, tried));
    let line = h.to_string();
    assert!(
        line.starts_with(&format!(
            "games active 2, outbox {queued} undelivered (oldest 90 s), failed sends {tried}, storage writable"
        )),
        "{line}"
    );
}
