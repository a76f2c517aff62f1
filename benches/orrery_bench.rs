//! `cargo bench`: medians over many runs of
//! - each game system's largest board (4 players, the biggest PNG among
//!   positions of a random game): scene, drawing and PNG encoding, and size;
//! - the cost of a board at delivery (`Service::render`: the state at the
//!   board's position from the database, then scene, drawing and encoding):
//!   the same board in a 100-entry game and in the same game played on to
//!   10,000 entries, the long game's latest board, and replaying the long
//!   game's whole log from the database;
//! - accepting one order through the service and committing it to SQLite
//!   (decide + events + state + outbox in one transaction).
//!
//! Set ORRERY_BENCH_RUNS to change the number of samples.

use orrery::engine::{CommandLine, GameConfig, GameId, GameRng, UserId, Viewer};
use orrery::games::{AnyState, GameKind, Replay};
use orrery::service::{Actor, BoardRef, ManualClock, Place, Request, Service};
use orrery::store::Store;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn quartiles(mut xs: Vec<Duration>) -> (Duration, Duration, Duration) {
    xs.sort();
    (xs[xs.len() / 4], xs[xs.len() / 2], xs[xs.len() * 3 / 4])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs with no
    // arguments — keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let runs: usize = std::env::var("ORRERY_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 3 } else { 60 });

    boards(runs);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(board_cost_by_game_length(quick, runs));
    let kind = GameKind::Hyperspace;

    // Order accept + commit on SQLite (a file, WAL), through the service.
    rt.block_on(async {
        let path = std::env::temp_dir().join(format!("orrery-bench-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let store = Store::connect(&format!("sqlite://{}", path.display())).await.unwrap();
        let svc = Service::new(store, Arc::new(ManualClock::new(0)));
        let mut samples = Vec::new();
        let mut game_no = 0;
        while samples.len() < runs.max(3) * 5 {
            game_no += 1;
            let channel = 1000 + game_no;
            let id = open_game(&svc, channel, kind, game_no, None, 4).await;
            let mut rng = GameRng::seeded(game_no);
            for _ in 0..200 {
                let row = svc.store().game(id).await.unwrap().unwrap();
                let Some(st) = row.state else { break };
                if st.outcome().is_some() {
                    break;
                }
                let p = st.pending().into_iter().find(|p| !p.submitted).unwrap();
                let line: CommandLine = rng.pick(&st.legal_commands(p.seat)).unwrap().clone();
                let t = Instant::now();
                svc.handle(
                    &player(channel, p.seat.0 as u64 + 1),
                    Request::Order {
                        game: Some(id),
                        kind: None,
                        line,
                    },
                )
                .await
                .unwrap();
                samples.push(t.elapsed());
            }
        }
        let n = samples.len();
        let (q1, q2, q3) = quartiles(samples);
        println!(
            "order accept+commit median {:>7.2} ms  (IQR {:.2}–{:.2}) over {n} orders, SQLite WAL file",
            ms(q2),
            ms(q1),
            ms(q3)
        );
        let _ = std::fs::remove_file(&path);
    });
}

/// Player `user` (`p{user}`) in `channel`.
fn player(channel: u64, user: u64) -> Actor {
    Actor {
        user: UserId(user),
        name: format!("p{user}"),
        place: Place::Channel { channel, guild: None },
    }
}

/// Open a game of `kind` in `channel` through the service (players 1 to
/// `players` seated, 1 hosting) and start it; its id.
async fn open_game(
    svc: &Service,
    channel: u64,
    kind: GameKind,
    seed: u64,
    options: Option<serde_json::Value>,
    players: u64,
) -> GameId {
    let new = Request::New {
        kind,
        seed: Some(seed),
        options,
        private: None,
    };
    svc.handle(&player(channel, 1), new).await.unwrap();
    for u in 2..=players {
        svc.handle(&player(channel, u), Request::Join { game: None })
            .await
            .unwrap();
    }
    svc.handle(&player(channel, 1), Request::Start { game: None })
        .await
        .unwrap();
    svc.store().games_in_channel(channel).await.unwrap()[0].id
}

/// Positions of a random 4-player game of `kind`: one every `every` orders
/// until it ends (at most `max` orders).
fn positions(kind: GameKind, every: usize, max: usize) -> Vec<AnyState> {
    let config = GameConfig::new(4, 1);
    let mut state = kind.fold(&kind.setup(&config).unwrap()).unwrap();
    let mut rng = GameRng::seeded(1);
    let mut out = vec![state.clone()];
    for i in 1..=max {
        if state.outcome().is_some() {
            break;
        }
        let p = state.pending().into_iter().find(|p| !p.submitted).unwrap();
        let line = rng.pick(&state.legal_commands(p.seat)).unwrap().clone();
        for e in state.decide(p.seat, &line).unwrap() {
            state.apply(&e).unwrap();
        }
        if i % every == 0 {
            out.push(state.clone());
        }
    }
    out.push(state);
    out
}

/// Each system's largest public board: scene + draw + encode, medians.
fn boards(runs: usize) {
    let names: Vec<String> = ["alice", "bob", "carol", "dave"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    println!("boards: the largest public board of a random 4-player game, 1600x1200");
    for &kind in GameKind::ALL {
        let states = positions(kind, 40, 4000);
        let largest = states
            .iter()
            .max_by_key(|s| {
                orrery_render::render_png(&s.scene(Viewer::Public, &names))
                    .unwrap()
                    .len()
            })
            .unwrap();
        let (mut scene_t, mut draw, mut encode, mut total) = (vec![], vec![], vec![], vec![]);
        let mut size = 0;
        for _ in 0..runs {
            let t0 = Instant::now();
            let scene = largest.scene(Viewer::Public, &names);
            let t1 = Instant::now();
            let pixmap = orrery_render::render_rgba(&scene).unwrap();
            let t2 = Instant::now();
            let png = orrery_render::encode_png(&pixmap).unwrap();
            let t3 = Instant::now();
            scene_t.push(t1 - t0);
            draw.push(t2 - t1);
            encode.push(t3 - t2);
            total.push(t3 - t0);
            size = png.len();
        }
        let (q1, q2, q3) = quartiles(total);
        println!(
            "  {:<16} {:>4} KiB  scene+draw+encode median {:>6.2} ms (IQR {:.2}-{:.2}; scene {:.2}, draw {:.2}, encode {:.2}) over {runs} runs",
            kind.name(),
            size / 1024,
            ms(q2),
            ms(q1),
            ms(q3),
            ms(median(scene_t)),
            ms(median(draw)),
            ms(median(encode)),
        );
    }
}

/// Play a `players`-player Spectrum War with random set-up and orders
/// from `seed`, through the service (random legal orders), in `channel`,
/// until its log holds at least `entries` entries or it ends. Returns its
/// id. The same seed gives the same game: a longer one goes on from where
/// a shorter one stopped.
async fn long_game(svc: &Service, channel: u64, seed: u64, players: u64, rounds: u64, entries: i64) -> GameId {
    let options = serde_json::json!({ "rounds": rounds });
    let id = open_game(svc, channel, GameKind::Spectrum, seed, Some(options), players).await;
    let mut rng = GameRng::seeded(seed);
    loop {
        let row = svc.store().game(id).await.unwrap().unwrap();
        let st = row.state.unwrap();
        if st.outcome().is_some() || row.seq >= entries {
            return id;
        }
        let p = st.pending().into_iter().find(|p| !p.submitted).unwrap();
        let line: CommandLine = rng.pick(&st.legal_commands(p.seat)).unwrap().clone();
        svc.handle(
            &player(channel, p.seat.0 as u64 + 1),
            Request::Order {
                game: Some(id),
                kind: None,
                line,
            },
        )
        .await
        .unwrap();
    }
}

/// Medians of `Service::render` of the board at `at` of `game` for the
/// public and for seat 0, and of the state part alone.
async fn board_medians(svc: &Service, game: GameId, at: i64, runs: usize) -> [Duration; 3] {
    let mut out = [Duration::ZERO; 3];
    for (i, viewer) in [Viewer::Public, Viewer::Seat(orrery::engine::Seat(0))]
        .into_iter()
        .enumerate()
    {
        let mut samples = Vec::new();
        for _ in 0..runs.max(3) {
            let t = Instant::now();
            let png = svc.render(&BoardRef { game, viewer, seq: at }).await.unwrap();
            samples.push(t.elapsed());
            assert!(png.len() > 1000);
        }
        out[i] = median(samples);
    }
    let mut states = Vec::new();
    for _ in 0..runs.max(3) {
        let t = Instant::now();
        let state = svc.store().state_at(game, GameKind::Spectrum, at).await.unwrap();
        states.push(t.elapsed());
        assert!(state.phase().number > 0);
    }
    out[2] = median(states);
    out
}

fn change(short: Duration, long: Duration) -> String {
    format!("{:+.0}%", (long.as_secs_f64() / short.as_secs_f64() - 1.0) * 100.0)
}

/// A board at delivery in a short game and in the same game played on
/// much longer, and replaying the long game's whole log from the database.
async fn board_cost_by_game_length(quick: bool, runs: usize) {
    let path = std::env::temp_dir().join(format!("orrery-bench-len-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let store = Store::connect(&format!("sqlite://{}", path.display())).await.unwrap();
    let svc = Service::new(store, Arc::new(ManualClock::new(0)));
    let long_entries = if quick { 1_500 } else { 10_000 };
    let t = Instant::now();
    let short = long_game(&svc, 1, 5, 4, 60, 100).await;
    let long = long_game(&svc, 2, 5, 4, 60, long_entries).await;
    let short_seq = svc.store().game(short).await.unwrap().unwrap().seq;
    let long_seq = svc.store().game(long).await.unwrap().unwrap().seq;
    // A board the short game posted before its last: at a snapshot, with
    // the game moved on since (its cached state is of no use). The long
    // game passed through the same position.
    let snaps = svc.store().snapshots(short).await.unwrap();
    let at = snaps[snaps.len().saturating_sub(2)].0;
    let same = |s: orrery::games::AnyState| serde_json::to_value(s).unwrap();
    assert_eq!(
        same(svc.store().state_at(short, GameKind::Spectrum, at).await.unwrap()),
        same(svc.store().state_at(long, GameKind::Spectrum, at).await.unwrap()),
        "the long game is the short one played on"
    );
    println!(
        "board at delivery (Spectrum War, 4 players, SQLite; games played in {:.1} s): the board at entry {at} of a game of {short_seq} entries, and of the same game played on to {long_seq} entries",
        t.elapsed().as_secs_f64()
    );
    let [sp, ss, sst] = board_medians(&svc, short, at, runs).await;
    let [lp, ls, lst] = board_medians(&svc, long, at, runs).await;
    println!(
        "  public board  {:>6.2} ms vs {:>6.2} ms ({}); a player's board {:>6.2} vs {:>6.2} ms ({}); of which the state {:.2} vs {:.2} ms",
        ms(sp),
        ms(lp),
        change(sp, lp),
        ms(ss),
        ms(ls),
        change(ss, ls),
        ms(sst),
        ms(lst)
    );
    let snaps = svc.store().snapshots(long).await.unwrap();
    let last = snaps[snaps.len().saturating_sub(2)].0;
    let [p, s, st] = board_medians(&svc, long, last, runs).await;
    println!(
        "  the long game's latest board (entry {last}, more on it to draw): public {:.2} ms, a player's {:.2} ms, of which the state {:.2} ms",
        ms(p),
        ms(s),
        ms(st)
    );
    let mut read = Vec::new();
    let mut fold = Vec::new();
    let mut n = 0;
    for _ in 0..runs.max(3) {
        let t0 = Instant::now();
        let log = svc.store().events(long).await.unwrap();
        let t1 = Instant::now();
        let state = Replay::of(GameKind::Spectrum, &log).unwrap().into_state();
        let t2 = Instant::now();
        n = log.len();
        assert!(state.phase().number > 0);
        read.push(t1 - t0);
        fold.push(t2 - t1);
    }
    let (r, f) = (median(read), median(fold));
    println!(
        "  replaying the long game's whole log ({n} entries) from the database: median {:.2} ms (read and decode {:.2}, fold {:.2})",
        ms(r + f),
        ms(r),
        ms(f)
    );
    svc.store().close().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
