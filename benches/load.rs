//! `cargo bench --bench load`: the service under many active games.
//!
//! For each database (a SQLite file; PostgreSQL when `TEST_POSTGRES_URL` is
//! set: a fresh database of its own, dropped after) and each level of
//! `ORRERY_LOAD_GAMES` (default `1000,10000`), the database is brought up
//! to that many active 4-player games **of every game system** (created
//! through the service: `/game new`, three joins, `/game start`), and then:
//! - order accept + commit: `ORRERY_LOAD_ORDERS` (default 2000) random
//!   legal orders per system, each to a random active game of that system,
//!   one at a time: p50, p99, max and orders per second (one submitter);
//! - orders per second with 8 submitters at once (each on its own games);
//! - outbox delivery per second with boards: the messages those orders
//!   queued, delivered through a transport that drops them after the
//!   service has drawn every board (PNG) it would attach; at most
//!   `ORRERY_LOAD_DELIVER_SECS` (default 20) seconds per level;
//! - the process's resident memory (RSS) and its peak.
//!
//! The messages queued while the games are created (lobby posts, the
//! first boards) are marked delivered without sending: setting up, not
//! measured. `cargo test --benches` (no `--bench`) runs a small version.

#[path = "../tests/pgdb/mod.rs"]
mod pgdb;
mod support;

use orrery::engine::{CommandLine, GameId, GameRng, Seat, UserId};
use orrery::games::GameKind;
use orrery::service::{Actor, ManualClock, Place, Request, Service};
use orrery::store::Store;
use pgdb::PgDatabase;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::{env_or, rss_mib, Sink};
use tokio_util::sync::CancellationToken;

const PLAYERS: u64 = 4;
const SUBMITTERS: usize = 8;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The `q`-quantile (0..=1) of sorted samples.
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// One active game: its id, channel and first user id (seat s is user
/// `first_user + s`).
#[derive(Clone, Copy)]
struct Game {
    id: GameId,
    channel: u64,
    first_user: u64,
}

impl Game {
    fn actor(&self, seat: u64) -> Actor {
        Actor {
            user: UserId(self.first_user + seat),
            name: format!("u{}", self.first_user + seat),
            place: Place::Channel {
                channel: self.channel,
                guild: Some(1),
            },
        }
    }
}

/// Create the game numbered `n` (unique in this run) through the service.
async fn create(svc: &Service, kind: GameKind, n: u64) -> Game {
    let channel = 1_000_000 + n;
    let mut game = Game {
        id: GameId(0),
        channel,
        first_user: 10 + n * PLAYERS,
    };
    let new = Request::New {
        kind,
        seed: Some(n),
        options: None,
        private: None,
    };
    svc.handle(&game.actor(0), new).await.expect("new game");
    for s in 1..PLAYERS {
        svc.handle(&game.actor(s), Request::Join { game: None })
            .await
            .expect("join");
    }
    svc.handle(&game.actor(0), Request::Start { game: None })
        .await
        .expect("start");
    game.id = svc.store().games_in_channel(channel).await.unwrap()[0].id;
    game
}

/// A random legal order in `game`: the seat that gives it and the line;
/// `None` when the game is over.
async fn some_order(svc: &Service, game: &Game, rng: &mut GameRng) -> Option<(u64, CommandLine)> {
    let row = svc.store().game(game.id).await.unwrap()?;
    let state = row.state?;
    if state.outcome().is_some() {
        return None;
    }
    let waiting: Vec<Seat> = state
        .pending()
        .into_iter()
        .filter(|p| !p.submitted)
        .map(|p| p.seat)
        .collect();
    let seat = *rng.pick(&waiting)?;
    let line = rng.pick(&state.legal_commands(seat))?.clone();
    Some((seat.0 as u64, line))
}

/// Give one random legal order to a random game of `games`; the time the
/// service took to accept and commit it (not counting picking it), or
/// `None` when the game picked is over (it is then dropped from `games`).
async fn one_order(svc: &Service, games: &mut Vec<Game>, rng: &mut GameRng) -> Option<Duration> {
    let i = rng.below(games.len() as u32) as usize;
    let game = games[i];
    let Some((seat, line)) = some_order(svc, &game, rng).await else {
        games.swap_remove(i);
        return None;
    };
    let request = Request::Order {
        game: Some(game.id),
        kind: None,
        line,
    };
    let t = Instant::now();
    let reply = svc.handle(&game.actor(seat), request).await;
    let took = t.elapsed();
    if let Err(e) = reply {
        panic!("a legal order was refused in game {}: {e:?}", game.id.0);
    }
    Some(took)
}

async fn mark_all_delivered(svc: &Service) {
    sqlx::query("UPDATE outbox SET delivered_at = 0 WHERE delivered_at IS NULL")
        .execute(svc.store().pool())
        .await
        .unwrap();
}

struct Level<'a> {
    svc: &'a Arc<Service>,
    games: &'a mut Vec<Vec<Game>>,
    created: &'a mut u64,
}

async fn run_level(level: usize, orders: usize, deliver_secs: u64, at: Level<'_>) {
    let Level { svc, games, created } = at;
    let t = Instant::now();
    for (k, &kind) in GameKind::ALL.iter().enumerate() {
        // Created by SUBMITTERS tasks at once (SQLite serialises their
        // writes; PostgreSQL overlaps them).
        let missing = level.saturating_sub(games[k].len()) as u64;
        let first = *created;
        *created += missing;
        let mut tasks = Vec::new();
        for w in 0..SUBMITTERS as u64 {
            let svc = Arc::clone(svc);
            tasks.push(tokio::spawn(async move {
                let mut made = Vec::new();
                let mut n = first + w;
                while n < first + missing {
                    made.push(create(&svc, kind, n).await);
                    n += SUBMITTERS as u64;
                }
                made
            }));
        }
        for task in tasks {
            games[k].extend(task.await.unwrap());
        }
    }
    mark_all_delivered(svc).await;
    let (rss, _) = rss_mib();
    println!(
        "  {level} active games of each system ({} in all; set up in {:.0} s), RSS {rss:.0} MiB",
        games.iter().map(Vec::len).sum::<usize>(),
        t.elapsed().as_secs_f64()
    );

    // One submitter: latency per system.
    let mut rng = GameRng::seeded(level as u64);
    for (k, &kind) in GameKind::ALL.iter().enumerate() {
        let mut samples = Vec::with_capacity(orders);
        while samples.len() < orders && !games[k].is_empty() {
            if let Some(d) = one_order(svc, &mut games[k], &mut rng).await {
                samples.push(d);
            }
        }
        samples.sort();
        let total: Duration = samples.iter().sum();
        println!(
            "    {:<12} order accept+commit p50 {:>5.2} ms  p99 {:>5.2} ms  max {:>6.2} ms  {:>5.0} orders/s (one submitter, {} orders)",
            kind.name(),
            ms(quantile(&samples, 0.5)),
            ms(quantile(&samples, 0.99)),
            ms(*samples.last().unwrap()),
            samples.len() as f64 / total.as_secs_f64(),
            samples.len()
        );
    }

    // SUBMITTERS at once, each on its own share of every system's games.
    let t = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..SUBMITTERS {
        let svc = Arc::clone(svc);
        let mut mine: Vec<Vec<Game>> = games
            .iter()
            .map(|g| g.iter().skip(w).step_by(SUBMITTERS).copied().collect())
            .collect();
        tasks.push(tokio::spawn(async move {
            let mut rng = GameRng::seeded(1000 + w as u64);
            let mut done = 0;
            let mut took = Vec::new();
            while done < orders / SUBMITTERS && mine.iter().any(|g| !g.is_empty()) {
                let k = rng.below(mine.len() as u32) as usize;
                if mine[k].is_empty() {
                    continue;
                }
                if let Some(d) = one_order(&svc, &mut mine[k], &mut rng).await {
                    took.push(d);
                    done += 1;
                }
            }
            took
        }));
    }
    let mut samples = Vec::new();
    for task in tasks {
        samples.extend(task.await.unwrap());
    }
    let wall = t.elapsed();
    samples.sort();
    println!(
        "    {SUBMITTERS} submitters at once, every system: {:>5.0} orders/s; p50 {:.2} ms  p99 {:.2} ms ({} orders)",
        samples.len() as f64 / wall.as_secs_f64(),
        ms(quantile(&samples, 0.5)),
        ms(quantile(&samples, 0.99)),
        samples.len()
    );

    // Deliver what those orders queued.
    let sink = Sink::new(true, 0);
    let stop = CancellationToken::new();
    let timer = {
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(deliver_secs)).await;
            stop.cancel();
        })
    };
    let t = Instant::now();
    svc.deliver_until(&sink, &stop).await.unwrap();
    let wall = t.elapsed();
    timer.abort();
    let (messages, boards) = (sink.messages.into_inner(), sink.boards.into_inner());
    println!(
        "    outbox delivery: {:>5.1} messages/s, {:.1} boards/s ({messages} messages, {boards} with a board averaging {:.0} KiB, in {:.1} s)",
        messages as f64 / wall.as_secs_f64(),
        boards as f64 / wall.as_secs_f64(),
        sink.board_bytes.into_inner() as f64 / boards.max(1) as f64 / 1024.0,
        wall.as_secs_f64()
    );
    mark_all_delivered(svc).await;
    let (rss, peak) = rss_mib();
    println!("    RSS {rss:.0} MiB, peak {peak:.0} MiB");
}

async fn run(label: &str, url: &str, levels: &[usize], orders: usize, deliver_secs: u64) {
    println!("{label}:");
    let store = Store::connect(url).await.expect("connect");
    let svc = Arc::new(Service::new(store, Arc::new(ManualClock::new(1_700_000_000_000))));
    let mut games = vec![Vec::new(); GameKind::ALL.len()];
    let mut created = 0;
    for &level in levels {
        let at = Level {
            svc: &svc,
            games: &mut games,
            created: &mut created,
        };
        run_level(level, orders, deliver_secs, at).await;
    }
    svc.store().close().await;
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not:
    // then a small run.
    let quick = !std::env::args().any(|a| a == "--bench");
    let levels: Vec<usize> = std::env::var("ORRERY_LOAD_GAMES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or(if quick { vec![5, 10] } else { vec![1000, 10_000] });
    let orders = env_or("ORRERY_LOAD_ORDERS", if quick { 40 } else { 2000 });
    let deliver_secs = env_or("ORRERY_LOAD_DELIVER_SECS", if quick { 2 } else { 20 });
    println!(
        "load: {PLAYERS}-player games of every system ({}), levels {levels:?}, {orders} orders per system",
        GameKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let path = std::env::temp_dir().join(format!("orrery-load-{}.db", std::process::id()));
        run(
            "SQLite (a file, WAL)",
            &format!("sqlite://{}", path.display()),
            &levels,
            orders,
            deliver_secs,
        )
        .await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        if let Some(db) = PgDatabase::create("load", "PostgreSQL").await {
            run("PostgreSQL", &db.url, &levels, orders, deliver_secs).await;
            db.drop().await;
        }
    });
}
