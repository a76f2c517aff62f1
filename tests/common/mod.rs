//! Helpers shared by the service-level integration tests: a service on a
//! temporary SQLite file with a manual clock, actors, and the outbox.
#![allow(dead_code)]

use orrery::engine::{CommandLine, GameId, Seat, UserId};
use orrery::games::{AnyState, GameKind};
use orrery::service::{Actor, ManualClock, OutMessage, Place, Reply, Request, Service, ServiceError, Text};
use orrery::store::Store;
use std::sync::Arc;

pub const T0: i64 = 1_700_000_000_000;

pub fn db_url(tag: &str) -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let path = std::env::temp_dir().join(format!("orrery-{tag}-{}-{n}.db", std::process::id()));
    format!("sqlite://{}", path.display())
}

/// A service on a fresh SQLite file, with its clock.
pub async fn service(tag: &str) -> (Service, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(T0));
    let store = Store::connect(&db_url(tag)).await.expect("store");
    (Service::new(store, clock.clone()), clock)
}

pub fn at(channel: u64, user: u64, name: &str) -> Actor {
    Actor {
        user: UserId(user),
        name: name.into(),
        place: Place::Channel {
            channel,
            guild: Some(9),
        },
    }
}

pub fn in_dm(user: u64, name: &str) -> Actor {
    Actor {
        user: UserId(user),
        name: name.into(),
        place: Place::Dm,
    }
}

pub async fn ok(svc: &Service, actor: &Actor, req: Request) -> Reply {
    svc.handle(actor, req.clone())
        .await
        .unwrap_or_else(|e| panic!("{req:?} by {}: {e}", actor.name))
}

pub async fn refused(svc: &Service, actor: &Actor, req: Request) -> String {
    match svc.handle(actor, req.clone()).await {
        Err(ServiceError::User(msg)) => msg.to_plain(),
        other => panic!("{req:?} by {} should be refused, got {other:?}", actor.name),
    }
}

/// Service text as Discord shows it (timestamps, channel mentions, bold).
pub fn discord(text: &Text) -> String {
    orrery::discord::text::markup(text)
}

/// Everything queued since the last call (boards not rendered).
pub async fn sent(svc: &Service) -> Vec<OutMessage> {
    let mut out = Vec::new();
    for row in svc.store().undelivered(10_000).await.unwrap() {
        out.push(serde_json::from_value(row.payload.clone()).unwrap());
        svc.store().mark_delivered(row.id, 0).await.unwrap();
    }
    out
}

/// A started game of `kind` in `channel` with players named `names`
/// (user ids 1, 2, ...; the first hosts).
pub async fn started(svc: &Service, channel: u64, kind: GameKind, seed: u64, names: &[&str]) -> GameId {
    ok(
        svc,
        &at(channel, 1, names[0]),
        Request::New {
            kind,
            seed: Some(seed),
            options: None,
            private: None,
        },
    )
    .await;
    for (i, n) in names.iter().enumerate().skip(1) {
        ok(svc, &at(channel, i as u64 + 1, n), Request::Join { game: None }).await;
    }
    ok(svc, &at(channel, 1, names[0]), Request::Start { game: None }).await;
    svc.store().games_in_channel(channel).await.unwrap()[0].id
}

pub async fn state(svc: &Service, game: GameId) -> AnyState {
    svc.store().game(game).await.unwrap().unwrap().state.unwrap()
}

pub async fn seq(svc: &Service, game: GameId) -> i64 {
    svc.store().game(game).await.unwrap().unwrap().seq
}

pub fn order(game: GameId, line: &CommandLine) -> Request {
    Request::Order {
        game: Some(game),
        kind: None,
        line: line.clone(),
    }
}

/// The first seat that owes an unsubmitted decision, and a legal order for
/// it chosen by `pick` among its legal orders.
pub fn next_order(state: &AnyState, pick: impl Fn(&[CommandLine]) -> usize) -> Option<(Seat, CommandLine)> {
    let p = state.pending().into_iter().find(|p| !p.submitted)?;
    let legal = state.legal_commands(p.seat);
    if legal.is_empty() {
        return None;
    }
    let i = pick(&legal).min(legal.len() - 1);
    Some((p.seat, legal[i].clone()))
}

/// A SQLite database's size now, in pages.
pub async fn page_count(store: &Store) -> i64 {
    sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(store.pool())
        .await
        .unwrap()
}

/// Limit a SQLite database to `pages` pages (a full disk, when that is
/// about its size now) on every connection of the pool: all of them held
/// at once, so each gets it.
pub async fn max_pages(store: &Store, pages: i64) {
    let mut held = Vec::new();
    for _ in 0..store.pool().options().get_max_connections() {
        let mut conn = store.pool().acquire().await.unwrap();
        sqlx::query(&format!("PRAGMA max_page_count = {pages}"))
            .fetch_all(&mut *conn)
            .await
            .unwrap();
        held.push(conn);
    }
}

/// A transport that takes every message (boards are not drawn).
pub struct Accepts;

impl orrery::service::Transport for Accepts {
    async fn send(&self, id: i64, _: &OutMessage, _: Option<&[u8]>) -> anyhow::Result<orrery::service::Delivery> {
        Ok(orrery::service::Delivery::Sent(Some(orrery::service::Posted {
            channel: 1,
            message: id as u64,
        })))
    }

    async fn edit(
        &self,
        _: i64,
        at: &orrery::service::Posted,
        _: &OutMessage,
        _: Option<&[u8]>,
    ) -> anyhow::Result<orrery::service::Delivery> {
        Ok(orrery::service::Delivery::Sent(Some(*at)))
    }
}
