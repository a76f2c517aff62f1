//! The soak run: simulated players give orders to the real `orrery` binary
//! (through the fake Discord) while it is killed with SIGKILL at random
//! moments and started again on the same database. Afterwards every order
//! the bot acknowledged is in the log exactly once, at the position it was
//! given at; `orrery replay` finds every game consistent; every outbox
//! message was delivered exactly once (Discord's nonce deduplicates a post
//! sent again after a kill between sending and marking it delivered).
//!
//! On SQLite always, and on PostgreSQL when `TEST_POSTGRES_URL` is set (in
//! a database of its own). The tests run a short soak; the long one is
//!
//! ```sh
//! ORRERY_SOAK_KILLS=25 ORRERY_SOAK_GAMES=4 TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test \
//!     cargo test --test soak -- --nocapture
//! ```
//!
//! which prints its figures (see the README).

use crate::support::{Harness, Place, Table};
use orrery::engine::{CommandLine, GameId, GameRng, Seat};
use orrery::games::{AnyEvent, GameKind};
use serde_json::json;
use std::time::{Duration, Instant};

/// An order the bot said it took: the log position it was given at.
#[derive(Debug)]
struct Acked {
    game: GameId,
    before: i64,
    seat: Seat,
    line: CommandLine,
}

#[derive(Debug, Default)]
struct Figures {
    kills: u32,
    sent: u32,
    acked: u32,
    refused: u32,
    unanswered: u32,
    /// Unanswered orders that were in the log all the same (killed between
    /// the commit and the answer).
    taken_unanswered: u32,
    entries: usize,
}

fn env_or(name: &str, default: u32) -> u32 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Give orders to `games` Hyperspace games round-robin, killing the bot
/// after a random 0-40 ms following about one order in four, until it has
/// been killed `kills` times; then check everything.
async fn soak(backend: &'static str, db_url: Option<String>, kills: u32, games: u32, seed: u64) -> Figures {
    let started = Instant::now();
    let mut h = Harness::start_on(db_url).await;
    let mut tables: Vec<Table> = Vec::new();
    for g in 0..games {
        let chan = h.fake.add_channel(&format!("soak-{g}"));
        let players: Vec<_> = (0..3).map(|p| h.fake.add_user(&format!("p{g}x{p}"))).collect();
        tables.push(h.open_game(chan, &players, Some(json!({ "rounds": 50 }))).await);
    }
    let mut rng = GameRng::seeded(seed);
    let mut acked: Vec<Acked> = Vec::new();
    let mut unanswered: Vec<(usize, Acked)> = Vec::new();
    // The log position of every order sent, in order.
    let mut sent_at: Vec<(GameId, i64)> = Vec::new();
    let mut f = Figures::default();
    let mut turn = 0usize;
    // Games that ended during the soak (a new game took each one's place).
    let mut finished: Vec<Table> = Vec::new();
    while f.kills < kills {
        let slot = turn % tables.len();
        turn += 1;
        let t = &tables[slot];
        let row = h.row(t.game).await;
        let Some((seat, kind, line)) = h.next_order(t).await else {
            // Over: a new game takes its place, so that the soak goes on
            // until the bot has been killed `kills` times however soon its
            // games end.
            let n = games as usize + finished.len();
            let chan = h.fake.add_channel(&format!("soak-{n}"));
            let players: Vec<_> = (0..3).map(|p| h.fake.add_user(&format!("p{n}x{p}"))).collect();
            let new = h.open_game(chan, &players, Some(json!({ "rounds": 50 }))).await;
            finished.push(std::mem::replace(&mut tables[slot], new));
            continue;
        };
        let user = &t.seats[seat.index()];
        // Secret picks go by DM, everything else in the game's channel.
        let place = if kind == "combat-card" {
            Place::Dm
        } else {
            Place::Channel(t.channel)
        };
        let mut opts: Vec<(&str, serde_json::Value)> = line.args.iter().map(|(k, v)| (k.as_str(), json!(v))).collect();
        if place == Place::Dm {
            opts.push(("game", json!(t.game.0)));
        }
        let id = h
            .fake
            .command(user, place, &format!("hyperspace {}", line.name), &opts)
            .await;
        f.sent += 1;
        sent_at.push((t.game, row.seq));
        let kill_now = rng.below(4) == 0;
        if kill_now {
            tokio::time::sleep(Duration::from_millis(rng.below(41) as u64)).await;
            h.kill_bot();
            f.kills += 1;
        } else {
            // The answer, if the bot gives one in time.
            let deadline = Instant::now() + crate::support::interactions::ANSWER_TIMEOUT;
            while h.fake.answers(id).iter().all(|m| m.loading()) && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        match h.fake.answers(id).iter().find(|m| !m.loading()) {
            Some(m) if m.content.contains("Sent: ") => {
                f.acked += 1;
                acked.push(Acked {
                    game: t.game,
                    before: row.seq,
                    seat,
                    line: line.clone(),
                });
            }
            Some(m) => {
                f.refused += 1;
                // Only a lost race may refuse a legal order.
                assert!(
                    m.content.contains("moved on") || m.content.contains("busy") || m.content.contains("again"),
                    "{line} refused: {}",
                    m.content
                );
            }
            None => {
                f.unanswered += 1;
                unanswered.push((
                    sent_at.len() - 1,
                    Acked {
                        game: t.game,
                        before: row.seq,
                        seat,
                        line: line.clone(),
                    },
                ));
            }
        }
        if kill_now {
            h.restart_bot().await;
        }
    }
    h.wait_outbox_drained(Duration::from_secs(60)).await;

    // Every acknowledged order, exactly where it was given: the entries
    // after its position are what deciding it there gives.
    let store = h.store().await.clone();
    let in_log = |a: &Acked| {
        let store = store.clone();
        let (game, before, seat, line) = (a.game, a.before, a.seat, a.line.clone());
        async move {
            let state = store.state_at(game, GameKind::Hyperspace, before).await.unwrap();
            let expected: Vec<AnyEvent> = state
                .decide(seat, &line)
                .unwrap_or_else(|e| panic!("{line} for {seat} is not legal at entry {before}: {e}"));
            let log = store.events(game).await.unwrap();
            let at: Vec<AnyEvent> = log
                .into_iter()
                .filter(|(s, _)| *s > before)
                .take(expected.len())
                .map(|(_, e)| e)
                .collect();
            at == expected
        }
    };
    for a in &acked {
        assert!(
            in_log(a).await,
            "acknowledged order {a:?} is not in the log at entry {}",
            a.before + 1
        );
    }
    let mut taken: Vec<&Acked> = acked.iter().collect();
    for (i, u) in &unanswered {
        // Taken if it is in the log and no later order was given at the
        // same position (which would be the same order sent again).
        let sent_again = sent_at[i + 1..].contains(&(u.game, u.before));
        if !sent_again && in_log(u).await {
            f.taken_unanswered += 1;
            taken.push(u);
        }
    }
    // Exactly once: acknowledged orders are at distinct positions.
    let mut positions: Vec<(GameId, i64)> = acked.iter().map(|a| (a.game, a.before)).collect();
    positions.sort();
    positions.dedup();
    assert_eq!(positions.len(), acked.len(), "two acknowledgements at one position");
    tables.extend(finished);
    for t in &tables {
        f.entries += h.events(t.game).await.len();
    }
    // One commit per order taken: from its first order on, each game's log
    // is exactly the events of the orders taken (acknowledged, or taken
    // before a kill cut the answer), one after another, each once. An order
    // applied twice would leave entries no order accounts for.
    for t in &tables {
        let mut mine: Vec<&&Acked> = taken.iter().filter(|a| a.game == t.game).collect();
        mine.sort_by_key(|a| a.before);
        let Some(first) = mine.first() else { continue };
        let mut pos = first.before;
        for a in &mine {
            assert_eq!(
                a.before,
                pos,
                "game {}: log entries {}..={} are no order's (an order applied twice?)",
                t.game,
                pos + 1,
                a.before
            );
            let state = store.state_at(a.game, GameKind::Hyperspace, a.before).await.unwrap();
            pos += state.decide(a.seat, &a.line).expect("checked above").len() as i64;
        }
        let last = h.events(t.game).await.last().map_or(0, |(seq, _)| *seq);
        assert_eq!(
            pos, last,
            "game {}: log entries after {pos} are no order's (an order applied twice?)",
            t.game
        );
    }

    // `orrery replay` on the bot's database: every game consistent.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_orrery"))
        .args(["replay", "--db", &h.db_url])
        .output()
        .expect("run orrery replay");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "orrery replay failed:\n{text}");
    assert!(
        text.contains(&format!(
            "{n} games checked, {n} consistent, 0 inconsistent",
            n = tables.len()
        )),
        "{text}"
    );
    h.assert_outbox_delivered_once().await;
    println!(
        "soak on {backend}: {} kills, {} orders sent, {} acknowledged, {} refused (lost races), {} unanswered (killed; {} of them taken before the kill), {} log entries in {} games, {:.1} s",
        f.kills,
        f.sent,
        f.acked,
        f.refused,
        f.unanswered,
        f.taken_unanswered,
        f.entries,
        tables.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(f.acked > 0, "no order was acknowledged: {f:?}");
    f
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_sqlite() {
    soak(
        "SQLite",
        None,
        env_or("ORRERY_SOAK_KILLS", 3),
        env_or("ORRERY_SOAK_GAMES", 2),
        env_or("ORRERY_SOAK_SEED", 1) as u64,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_postgres() {
    let Some(db) = crate::support::PgDatabase::create("soak", "the PostgreSQL soak").await else {
        return;
    };
    let url = db.url.clone();
    let run = tokio::spawn(soak(
        "PostgreSQL",
        Some(url),
        env_or("ORRERY_SOAK_KILLS", 3),
        env_or("ORRERY_SOAK_GAMES", 2),
        env_or("ORRERY_SOAK_SEED", 2) as u64,
    ))
    .await;
    db.drop().await;
    if let Err(e) = run {
        std::panic::resume_unwind(e.into_panic());
    }
}
