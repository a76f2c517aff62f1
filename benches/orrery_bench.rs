//! `cargo bench`: medians over many runs of
//! - drawing a Hyperspace board (scene → pixels) and encoding it as PNG;
//! - accepting one order through the service and committing it to SQLite
//!   (decide + events + state + outbox in one transaction).
//!
//! Set ORRERY_BENCH_RUNS to change the number of samples.

use orrery::engine::{CommandLine, GameConfig, GameRng, UserId, Viewer};
use orrery::games::GameKind;
use orrery::service::{Actor, ManualClock, Place, Request, Service};
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

    // A mid-game position: random legal play for a while.
    let kind = GameKind::Hyperspace;
    let config = GameConfig::new(4, 1);
    let mut state = kind.fold(&kind.setup(&config).unwrap()).unwrap();
    let mut rng = GameRng::seeded(1);
    for _ in 0..300 {
        if state.outcome().is_some() {
            break;
        }
        let p = state.pending().into_iter().find(|p| !p.submitted).unwrap();
        let line = rng.pick(&state.legal_commands(p.seat)).unwrap().clone();
        for e in state.decide(p.seat, &line).unwrap() {
            state.apply(&e).unwrap();
        }
    }
    let names: Vec<String> = ["alice", "bob", "carol", "dave"]
        .iter()
        .map(|s| s.to_string())
        .collect();

    let (mut draw, mut encode, mut scene_t) = (vec![], vec![], vec![]);
    let mut size = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let scene = state.scene(Viewer::Public, &names);
        scene_t.push(t.elapsed());
        let t = Instant::now();
        let pixmap = orrery_render::render_rgba(&scene).unwrap();
        draw.push(t.elapsed());
        let t = Instant::now();
        let png = orrery_render::encode_png(&pixmap).unwrap();
        encode.push(t.elapsed());
        size = png.len();
    }
    let (d1, d2, d3) = quartiles(draw.clone());
    let (e1, e2, e3) = quartiles(encode.clone());
    println!("board scene build   median {:>7.2} ms", ms(median(scene_t)));
    println!(
        "board draw          median {:>7.2} ms  (IQR {:.2}–{:.2}) over {runs} runs",
        ms(d2),
        ms(d1),
        ms(d3)
    );
    println!(
        "board PNG encode    median {:>7.2} ms  (IQR {:.2}–{:.2}), {} KiB",
        ms(e2),
        ms(e1),
        ms(e3),
        size / 1024
    );

    // Order accept + commit on SQLite (a file, WAL), through the service.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let path = std::env::temp_dir().join(format!("orrery-bench-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let store = Store::connect(&format!("sqlite://{}", path.display())).await.unwrap();
        let svc = Service::new(store, Arc::new(ManualClock::new(0)));
        let channel = Place::Channel {
            channel: 1,
            guild: None,
        };
        let actor = |u: u64| Actor {
            user: UserId(u),
            name: format!("p{u}"),
            place: channel,
        };
        let mut samples = Vec::new();
        let mut game_no = 0;
        while samples.len() < runs.max(3) * 5 {
            game_no += 1;
            let ch = Place::Channel {
                channel: 1000 + game_no,
                guild: None,
            };
            let a = |u: u64| Actor {
                user: UserId(u),
                name: format!("p{u}"),
                place: ch,
            };
            svc.handle(
                &a(1),
                Request::New {
                    kind,
                    seed: Some(game_no),
                    options: None,
                },
            )
            .await
            .unwrap();
            for u in 2..=4 {
                svc.handle(&a(u), Request::Join { game: None }).await.unwrap();
            }
            svc.handle(&a(1), Request::Start { game: None }).await.unwrap();
            let id = svc.store().games_in_channel(1000 + game_no).await.unwrap()[0].id;
            let mut rng = GameRng::seeded(game_no);
            for _ in 0..200 {
                let row = svc.store().game(id).await.unwrap().unwrap();
                let Some(st) = row.state else { break };
                if st.outcome().is_some() {
                    break;
                }
                let p = st.pending().into_iter().find(|p| !p.submitted).unwrap();
                let line: CommandLine = rng.pick(&st.legal_commands(p.seat)).unwrap().clone();
                let user = p.seat.0 as u64 + 1;
                let who = Actor {
                    place: ch,
                    ..actor(user)
                };
                let t = Instant::now();
                svc.handle(
                    &who,
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
