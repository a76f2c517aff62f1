//! PostgreSQL out of reach (issue #29 §6): a request fails within
//! Discord's 3 s interaction window with "storage unavailable", changes
//! nothing, the health says so, and everything works again by itself once
//! the database is back. The database is cut off by a TCP proxy of the
//! test's own between the service and the server.

use orrery::games::GameKind;
use orrery::service::{Delivery, OutMessage, Posted, ServiceError, Transport, STORAGE_UNAVAILABLE};
use orrery::store::Store;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

use crate::common::{at, next_order, ok, order, seq, started, state, T0};
use crate::pgdb::PgDatabase;

/// A TCP proxy to `upstream`. While cut, it drops the connections it
/// carries and holds new ones open without answering (a server that does
/// not respond, as a stalled network or a dead host behaves).
struct Proxy {
    port: u16,
    cut: Arc<AtomicBool>,
    /// Cancelled on every cut: ends the connections being carried.
    drop_all: Arc<std::sync::Mutex<CancellationToken>>,
}

impl Proxy {
    async fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let drop_all = Arc::new(std::sync::Mutex::new(CancellationToken::new()));
        let (c, d) = (cut.clone(), drop_all.clone());
        tokio::spawn(async move {
            let mut held = Vec::new();
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    return;
                };
                if c.load(Ordering::SeqCst) {
                    held.push(client);
                    continue;
                }
                held.clear();
                let token = d.lock().unwrap().clone();
                let upstream = upstream.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = token.cancelled() => {}
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                    }
                });
            }
        });
        Proxy { port, cut, drop_all }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        let mut token = self.drop_all.lock().unwrap();
        token.cancel();
        *token = CancellationToken::new();
    }

    fn mend(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// Every send succeeds.
struct Up;

impl Transport for Up {
    async fn send(&self, _: i64, _: &OutMessage, _: Option<&[u8]>) -> anyhow::Result<Delivery> {
        Ok(Delivery::Sent(Some(Posted { channel: 1, message: 1 })))
    }

    async fn edit(&self, _: i64, posted: &Posted, _: &OutMessage, _: Option<&[u8]>) -> anyhow::Result<Delivery> {
        Ok(Delivery::Sent(Some(*posted)))
    }
}

#[tokio::test]
async fn an_unreachable_database_is_told_quickly_and_recovers_by_itself() {
    let Some(db) = PgDatabase::create("unreachable", "the PostgreSQL outage test").await else {
        return;
    };
    let (host_port, through) = {
        let rest = db.url.split_once('@').map_or(db.url.as_str(), |(_, r)| r);
        let host_port = rest.split('/').next().unwrap().to_string();
        (host_port, db.url.clone())
    };
    let proxy = Proxy::start(host_port.clone()).await;
    let url = through.replacen(&host_port, &format!("127.0.0.1:{}", proxy.port), 1);
    let store = Store::connect(&url).await.expect("store through the proxy");
    let clock = Arc::new(orrery::service::ManualClock::new(T0));
    let svc = orrery::service::Service::new(store, clock);
    let names = ["alice", "bob"];
    let game = started(&svc, 940, GameKind::Hyperspace, 1, &names).await;
    svc.deliver(&Up).await.unwrap();
    let s = state(&svc, game).await;
    let (seat, line) = next_order(&s, |_| 0).expect("the game goes on");
    let player = at(940, seat.index() as u64 + 1, names[seat.index()]);
    let before = seq(&svc, game).await;
    assert!(svc.store().health().reachable);

    proxy.cut();
    let asked = Instant::now();
    let err = svc.handle(&player, order(game, &line)).await.unwrap_err();
    let took = asked.elapsed();
    assert!(matches!(err, ServiceError::StorageUnavailable), "{err:?}");
    assert_eq!(err.to_string(), STORAGE_UNAVAILABLE);
    assert!(
        took < Duration::from_millis(2900),
        "the refusal took {took:?}: past Discord's 3 s window"
    );
    // Delivery fails the same way, quickly, and the runtime retries it.
    let err = svc.deliver(&Up).await.unwrap_err();
    assert!(orrery::service::storage_unavailable_in(&err), "{err:#}");
    let health = svc.store().health();
    assert!(!health.reachable && health.unavailable_errors >= 2, "{health:?}");
    assert!(svc.health().await.is_err(), "the health reads cannot reach it either");

    // Back: the same order is taken, no restart.
    proxy.mend();
    ok(&svc, &player, order(game, &line)).await;
    assert!(seq(&svc, game).await > before);
    assert!(svc.deliver(&Up).await.unwrap() > 0, "the queued messages go out");
    let health = svc.health().await.unwrap();
    assert!(health.storage.reachable, "{health:?}");
    assert!(health.to_string().contains("storage writable"), "{health}");
    svc.store().close().await;
    db.drop().await;
}

/// The runtime's delivery loop keeps trying while the database is down and
/// delivers what waits once it is back.
#[tokio::test]
async fn delivery_resumes_after_an_outage() {
    let Some(db) = PgDatabase::create("unreachable_loop", "the PostgreSQL outage test").await else {
        return;
    };
    let rest = db.url.split_once('@').map_or(db.url.as_str(), |(_, r)| r);
    let host_port = rest.split('/').next().unwrap().to_string();
    let proxy = Proxy::start(host_port.clone()).await;
    let url = db.url.replacen(&host_port, &format!("127.0.0.1:{}", proxy.port), 1);
    let store = Store::connect(&url).await.expect("store through the proxy");
    let clock = Arc::new(orrery::service::ManualClock::new(T0));
    let svc = Arc::new(orrery::service::Service::new(store, clock));
    started(&svc, 941, GameKind::Starlanes, 2, &["alice", "bob"]).await;
    let waiting = svc.store().outbox_backlog().await.unwrap().0;
    assert!(waiting > 0);

    proxy.cut();
    let stop = CancellationToken::new();
    let poke = Arc::new(tokio::sync::Notify::new());
    let task = tokio::spawn(orrery::service::runtime::delivery_loop(
        svc.clone(),
        Up,
        poke.clone(),
        stop.clone(),
    ));
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(!svc.store().health().reachable);
    proxy.mend();
    // Within a retry interval (5 s) and a pass, the backlog is gone.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = svc.store().outbox_backlog().await.unwrap().0;
        if left == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{left} messages still wait after the outage");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop.cancel();
    task.await.unwrap();
    svc.store().close().await;
    db.drop().await;
}
