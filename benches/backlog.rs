//! `cargo bench --bench backlog`: memory while delivering a backlog of long
//! games (issue 29, point 6).
//!
//! `ORRERY_BACKLOG_GAMES` (default 50) 4-player (`ORRERY_BACKLOG_PLAYERS`) Hyperspace games are
//! created through the service on a temporary SQLite file and played to
//! `ORRERY_BACKLOG_ORDERS` (default 60) random legal orders each (fewer
//! when a game ends first), one game after the other, nothing delivered.
//! Then ONE delivery pass sends the whole backlog (the lobby posts, the
//! prompts, every board) to a transport that drops what it gets after the
//! service has drawn every board (PNG) it would attach.
//!
//! Printed: messages and boards delivered, messages per second, and the
//! process's resident memory (RSS) before and after the pass and its peak
//! during the pass (`VmHWM`, reset when the pass starts where the kernel
//! allows it), with the RSS every `ORRERY_BACKLOG_EVERY` (default 1000)
//! messages. `cargo test --benches` (no `--bench`) runs a small version.
//!
//! `ORRERY_BACKLOG_FAILING=K` first runs K delivery passes through a
//! transport that fails every send and edit (after the service drew its
//! board), as the bot retrying while Discord is down would, and prints the
//! RSS and peak after them; then the pass that delivers everything.

#[path = "../tests/pgdb/mod.rs"]
mod pgdb;
mod support;

use orrery::engine::{CommandLine, GameId, GameRng, Seat, UserId};
use orrery::games::GameKind;
use orrery::service::{Actor, ManualClock, Place, Request, Service};
use orrery::store::Store;
use std::time::Instant;
use support::{env_or, rss_mib, Sink};

/// Reset the peak (`VmHWM`) to the current RSS; whether the kernel let us.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

fn actor(channel: u64, user: u64) -> Actor {
    Actor {
        user: UserId(user),
        name: format!("u{user}"),
        place: Place::Channel {
            channel,
            guild: Some(1),
        },
    }
}

/// Create game number `n` and play it to `orders` random legal orders (or
/// its end); the orders given.
async fn play(svc: &Service, n: u64, orders: usize, players: u64) -> usize {
    let channel = 1_000_000 + n;
    let first_user = 10 + n * players;
    let new = Request::New {
        kind: GameKind::Hyperspace,
        seed: Some(n),
        options: None,
        private: None,
    };
    svc.handle(&actor(channel, first_user), new).await.expect("new game");
    for s in 1..players {
        svc.handle(&actor(channel, first_user + s), Request::Join { game: None })
            .await
            .expect("join");
    }
    svc.handle(&actor(channel, first_user), Request::Start { game: None })
        .await
        .expect("start");
    let id: GameId = svc.store().games_in_channel(channel).await.unwrap()[0].id;
    let mut rng = GameRng::seeded(n);
    for given in 0..orders {
        let row = svc.store().game(id).await.unwrap().unwrap();
        let state = row.state.expect("a started game");
        if state.outcome().is_some() {
            return given;
        }
        let waiting: Vec<Seat> = state
            .pending()
            .into_iter()
            .filter(|p| !p.submitted)
            .map(|p| p.seat)
            .collect();
        let seat = *rng.pick(&waiting).expect("someone to play");
        let line: CommandLine = rng.pick(&state.legal_commands(seat)).expect("a legal order").clone();
        let request = Request::Order {
            game: Some(id),
            kind: None,
            line,
        };
        if let Err(e) = svc.handle(&actor(channel, first_user + seat.0 as u64), request).await {
            panic!("a legal order was refused in game {}: {e:?}", id.0);
        }
    }
    orders
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not:
    // then a small run.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games: u64 = env_or("ORRERY_BACKLOG_GAMES", if quick { 3 } else { 50 });
    let orders: usize = env_or("ORRERY_BACKLOG_ORDERS", if quick { 10 } else { 60 });
    let every: u64 = env_or("ORRERY_BACKLOG_EVERY", if quick { 0 } else { 1000 });
    let players: u64 = env_or("ORRERY_BACKLOG_PLAYERS", 4);
    println!("backlog: {games} {players}-player Hyperspace games, {orders} orders each, then one delivery pass");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let path = std::env::temp_dir().join(format!("orrery-backlog-{}.db", std::process::id()));
        // ORRERY_BACKLOG_DB=postgres: a fresh database beside TEST_POSTGRES_URL's.
        let pg = match std::env::var("ORRERY_BACKLOG_DB").as_deref() {
            Ok("postgres") => Some(
                pgdb::PgDatabase::create("backlog", "the PostgreSQL backlog")
                    .await
                    .expect("TEST_POSTGRES_URL"),
            ),
            _ => None,
        };
        let url = match &pg {
            Some(db) => db.url.clone(),
            None => format!("sqlite://{}", path.display()),
        };
        println!("  on {}", if pg.is_some() { "PostgreSQL" } else { "SQLite (a file, WAL)" });
        let store = Store::connect(&url).await.expect("connect");
        let svc = Service::new(store, std::sync::Arc::new(ManualClock::new(1_700_000_000_000)));
        let (rss0, _) = rss_mib();
        let t = Instant::now();
        let mut given = 0;
        for n in 0..games {
            given += play(&svc, n, orders, players).await;
        }
        let (queued,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
            .fetch_one(svc.store().pool())
            .await
            .unwrap();
        let (rss1, peak1) = rss_mib();
        println!(
            "  played {given} orders in {:.1} s; {queued} messages queued; RSS {rss0:.0} MiB at the start, {rss1:.0} MiB after playing (peak {peak1:.0} MiB)",
            t.elapsed().as_secs_f64()
        );

        let failing: u64 = env_or("ORRERY_BACKLOG_FAILING", 0);
        if failing > 0 {
            let reset = reset_peak();
            let down = Down::default();
            let t = Instant::now();
            // Rows that need no call to Discord (nothing left to show) are
            // done even while every call fails.
            let mut quiet = 0;
            for _ in 0..failing {
                quiet += svc.deliver(&down).await.expect("a failing pass");
            }
            let (rss, peak) = rss_mib();
            println!(
                "  {failing} failing passes: {quiet} rows done without a call, {} sends tried ({} boards drawn) in {:.1} s; RSS {rss:.0} MiB, peak {peak:.0} MiB{}",
                down.tried.load(std::sync::atomic::Ordering::Relaxed),
                down.boards.load(std::sync::atomic::Ordering::Relaxed),
                t.elapsed().as_secs_f64(),
                if reset { " (during them)" } else { " (whole run)" }
            );
        }

        let reset = reset_peak();
        let (before, _) = rss_mib();
        let sink = Sink::new(std::env::var("ORRERY_BACKLOG_UNPLACED").is_err(), every);
        let t = Instant::now();
        let sent = svc.deliver(&sink).await.expect("delivery");
        let wall = t.elapsed();
        let (after, peak) = rss_mib();
        let (messages, boards) = (sink.messages.into_inner(), sink.boards.into_inner());
        println!(
            "  one delivery pass: {sent} rows, {messages} messages ({boards} boards) in {:.1} s, {:.1} messages/s",
            wall.as_secs_f64(),
            messages as f64 / wall.as_secs_f64()
        );
        println!(
            "  RSS before the pass {before:.0} MiB, after {after:.0} MiB, peak {peak:.0} MiB{}",
            if reset { " (during the pass)" } else { " (whole run: VmHWM not reset)" }
        );
        let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
            .fetch_one(svc.store().pool())
            .await
            .unwrap();
        assert_eq!(left, 0, "the pass left messages undelivered");
        assert!(messages > 0 && boards > 0, "nothing was delivered");
        svc.store().close().await;
        if let Some(db) = pg {
            db.drop().await;
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    });
}

/// A transport that fails every send and edit (Discord down), counting them.
#[derive(Default)]
struct Down {
    tried: std::sync::atomic::AtomicU64,
    boards: std::sync::atomic::AtomicU64,
}

impl Down {
    fn fail(&self, png: Option<&[u8]>) -> anyhow::Result<orrery::service::Delivery> {
        use std::sync::atomic::Ordering::Relaxed;
        self.tried.fetch_add(1, Relaxed);
        if png.is_some() {
            self.boards.fetch_add(1, Relaxed);
        }
        anyhow::bail!("503 Service Unavailable")
    }
}

impl orrery::service::Transport for Down {
    async fn send(
        &self,
        _: i64,
        _: &orrery::service::OutMessage,
        png: Option<&[u8]>,
    ) -> anyhow::Result<orrery::service::Delivery> {
        self.fail(png)
    }

    async fn edit(
        &self,
        _: i64,
        _: &orrery::service::Posted,
        _: &orrery::service::OutMessage,
        png: Option<&[u8]>,
    ) -> anyhow::Result<orrery::service::Delivery> {
        self.fail(png)
    }
}
