//! Fixture logs: whole games (one of every system, an undo and a roll-back
//! in each) stored exactly as the store keeps them, which
//! every release must replay to the same state and the same public boards.
//! Games run for days: a new release must read yesterday's logs.
//!
//! Layout, one directory per game under `tests/fixtures/`:
//! - `log.jsonl`: line 1 is the game (kind, config with the seed, seat
//!   names, status, last sequence number); then one line per `events` row,
//!   verbatim: `seq`, `batch`, encoding `version`, and the stored JSON text.
//! - `final_state.json`: the state the game ended in (as the service held
//!   it when recording).
//! - `boards.jsonl`: at every phase boundary (the end of an action after
//!   which the phase number differs, and the last action) the public view,
//!   a digest of the public board's `Scene` and digests of every seat's own
//!   view.
//!
//! **The logs are never edited, and never re-recorded because the shape of
//! an event changed: write an upcaster (`crates/store/src/codec.rs`).** That is the
//! point of this test. Re-record only when a deliberate *rules* change makes
//! the recorded games play differently (the orders of the log are no longer
//! what the rules would produce), with the one command
//!
//! ```text
//! ORRERY_RECORD=hyperspace cargo test --test store -- --ignored record_fixtures
//! ```
//!
//! (without `ORRERY_RECORD`, only plans that have no fixture yet are recorded)
//!
//! and review the diff. A deliberate change of what the boards show (a
//! view's wording, a scene's drawing) re-draws only `boards.jsonl` from
//! the logs as they are, with
//!
//! ```text
//! ORRERY_REBOARD=hyperspace,solar cargo test --test store fixtures
//! ```
//!
//! The recorder plays each game through the service by
//! seeded random legal play (`orrery play --auto`'s choice), the host
//! undoing one action and rolling back one phase on the way.

use crate::common::{at, ok, service, T0};
use orrery::engine::{GameConfig, GameId, GameRng, Seat, UserId, Viewer};
use orrery::games::{AnyEvent, AnyState, GameKind, PlatformEvent, Replay, Rewind};
use orrery::service::{Request, Service};
use orrery::store::codec::{EVENT_VERSION, FIRST_VERSION};
use orrery::store::{GameStatus, NewGame, Store};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row as _;
use std::path::PathBuf;

/// The recorded games.
const PLANS: &[Plan] = &[
    Plan {
        name: "hyperspace",
        kind: GameKind::Hyperspace,
        seats: &["alice", "bob"],
        seed: 3,
        undo_at: 9,
        rollback_at: 30,
        options: None,
    },
    Plan {
        name: "starlanes",
        kind: GameKind::Starlanes,
        seats: &["alice", "bob"],
        seed: 5,
        undo_at: 5,
        rollback_at: 15,
        options: None,
    },
    Plan {
        name: "solar",
        kind: GameKind::Solar,
        seats: &["alice", "bob"],
        seed: 7,
        undo_at: 6,
        rollback_at: 40,
        options: Some(r#"{"round_limit": 4}"#),
    },
    Plan {
        name: "spectrum",
        kind: GameKind::Spectrum,
        seats: &["alice", "bob"],
        seed: 11,
        undo_at: 7,
        rollback_at: 60,
        options: Some(r#"{"rounds": 5}"#),
    },
    Plan {
        name: "empires",
        kind: GameKind::Empires,
        seats: &["alice", "bob"],
        seed: 13,
        undo_at: 8,
        rollback_at: 80,
        options: Some(r#"{"rounds": 3}"#),
    },
];

/// Every game's plan: its own in [`PLANS`], else a short default one.
fn plans() -> Vec<Plan> {
    GameKind::ALL
        .iter()
        .map(|&kind| {
            PLANS.iter().find(|p| p.kind == kind).cloned().unwrap_or(Plan {
                name: kind.key(),
                kind,
                seats: &["alice", "bob"],
                seed: 1,
                // Early, so that even a short game gets both.
                undo_at: 2,
                rollback_at: 5,
                options: None,
            })
        })
        .collect()
}

/// How a fixture game is played: seeded random legal orders; before order
/// number `undo_at` the host undoes the last action, before order number
/// `rollback_at` they roll back to the start of the previous phase.
#[derive(Clone)]
struct Plan {
    name: &'static str,
    kind: GameKind,
    seats: &'static [&'static str],
    seed: u64,
    undo_at: usize,
    rollback_at: usize,
    /// `/game new`'s ruleset options, as JSON (short games: few rounds).
    options: Option<&'static str>,
}

/// Line 1 of `log.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Header {
    kind: GameKind,
    config: GameConfig,
    seats: Vec<String>,
    status: GameStatus,
    seq: i64,
}

/// One `events` row, verbatim.
#[derive(Debug, Serialize, Deserialize)]
struct EventRow {
    seq: i64,
    batch: Option<i64>,
    version: i64,
    event: String,
}

/// One line of `boards.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Board {
    seq: i64,
    phase: u32,
    view: Value,
    scene: String,
    /// Digests of each seat's own view, in seat order (fixtures recorded
    /// before seats' views were kept have none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seats: Vec<String>,
}

struct Fixture {
    header: Header,
    rows: Vec<EventRow>,
    final_state: Value,
    boards: Vec<Board>,
}

fn dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn read_fixture(name: &str) -> Fixture {
    let dir = dir(name);
    let read = |file: &str| {
        std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{}/{file}: {e}", dir.display()))
    };
    let log = read("log.jsonl");
    let mut lines = log.lines();
    let header: Header = serde_json::from_str(lines.next().expect("a header line")).expect("header");
    let rows = lines
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{name} log line {l}: {e}")))
        .collect();
    let final_state = serde_json::from_str(&read("final_state.json")).expect("final_state.json");
    let boards = read("boards.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("boards.jsonl line"))
        .collect();
    Fixture {
        header,
        rows,
        final_state,
        boards,
    }
}

// --- the check ---------------------------------------------------------------

/// A digest of a scene that does not depend on the machine: the scene's
/// JSON with every fractional number rounded to 1/100 pixel (so a last-bit
/// difference in a platform's trigonometry does not count), hashed with
/// 64-bit FNV-1a. PNG bytes are not compared: glyph rasterisation may
/// differ across CPUs.
fn scene_digest(state: &AnyState, names: &[String]) -> String {
    digest(&serde_json::to_value(state.scene(Viewer::Public, names)).expect("scenes serialize"))
}

/// The digest of a JSON value, as [`scene_digest`] takes it.
fn digest(value: &Value) -> String {
    fn canon(v: &Value, out: &mut String) {
        match v {
            Value::Number(n) if n.is_f64() => {
                let x = (n.as_f64().unwrap() * 100.0).round() / 100.0;
                let x = if x == 0.0 { 0.0 } else { x };
                out.push_str(&format!("{x:.2}"));
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    canon(item, out);
                }
                out.push(']');
            }
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push(':');
                    canon(&map[k], out);
                }
                out.push('}');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    canon(value, &mut text);
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("fnv1a64:{hash:016x}")
}

/// Phase boundaries, observed at the end of every action (a log batch).
#[derive(Default)]
struct Boundaries {
    boards: Vec<Board>,
    phase: Option<u32>,
}

impl Boundaries {
    /// The game is at `state` after the action ending with entry `seq`;
    /// `last`: no action follows.
    fn observe(&mut self, seq: i64, state: &AnyState, names: &[String], last: bool) {
        let phase = state.phase().number;
        if self.phase != Some(phase) || last {
            self.boards.push(Board {
                seq,
                phase,
                view: state.view_json(Viewer::Public),
                scene: scene_digest(state, names),
                seats: (0..names.len())
                    .map(|i| digest(&state.view_json(Viewer::Seat(Seat(i as u8)))))
                    .collect(),
            });
            self.phase = Some(phase);
        }
    }
}

/// Where two JSON values first differ, as a path.
fn first_difference(path: String, a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(format!("{path}.{k}"), p, q) {
                            return Some(d);
                        }
                    }
                    _ => return Some(format!("{path}.{k}: present on one side only")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(format!("{path}[{i}]"), p, q)),
        _ if a == b => None,
        _ => Some(format!("{path}: replayed {a}, recorded {b}")),
    }
}

/// Load a fixture's rows into a fresh SQLite store as the store keeps
/// them: the game row (its cached state left empty, so the store must fold
/// the log), its seats, and every `events` row verbatim.
async fn load(store: &Store, fx: &Fixture) -> GameId {
    let h = &fx.header;
    let id = store
        .create_game(NewGame {
            kind: h.kind,
            channel_id: 1,
            guild_id: None,
            host: UserId(1),
            config: h.config.clone(),
            settings: serde_json::json!({}),
            now_ms: T0,
        })
        .await
        .unwrap();
    for (i, name) in h.seats.iter().enumerate() {
        store.add_seat(id, UserId(i as u64 + 1), name).await.unwrap();
    }
    for r in &fx.rows {
        sqlx::query(
            "INSERT INTO events (game_id, seq, event, created_at, batch, version) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id.0)
        .bind(r.seq)
        .bind(&r.event)
        .bind(T0)
        .bind(r.batch)
        .bind(r.version)
        .execute(store.pool())
        .await
        .unwrap();
    }
    sqlx::query("UPDATE games SET status = $2, seq = $3, state = NULL WHERE id = $1")
        .bind(id.0)
        .bind(h.status.as_str())
        .bind(h.seq)
        .execute(store.pool())
        .await
        .unwrap();
    id
}

/// Replay a fixture through the store's read path and `Replay`, and check
/// it against its recorded results. Returns the store and game, loaded.
async fn check(name: &str) -> (Store, GameId, Fixture) {
    let mut fx = read_fixture(name);
    let h = fx.header.clone();
    let h = &h;
    for r in &fx.rows {
        assert!(
            (FIRST_VERSION..=EVENT_VERSION).contains(&r.version),
            "{name}: row {} has encoding version {}, this release reads {FIRST_VERSION} to {EVENT_VERSION}",
            r.seq,
            r.version
        );
    }
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let id = load(&store, &fx).await;

    // Every row decodes (upcast if old) through the store.
    let log = store.log(id).await.unwrap();
    assert_eq!(log.len(), fx.rows.len());
    assert_eq!(
        log.last().map(|e| e.seq),
        Some(h.seq),
        "{name}: the header's seq is the last row's"
    );
    let rewinds = |pick: fn(&Rewind) -> bool| {
        log.iter()
            .filter(|e| matches!(&e.event, AnyEvent::Platform(PlatformEvent::RolledBack { why, .. }) if pick(why)))
            .count()
    };
    assert!(rewinds(|w| *w == Rewind::Undo) >= 1, "{name}: the log holds an undo");
    assert!(
        rewinds(|w| matches!(w, Rewind::Phase { .. })) >= 1,
        "{name}: the log holds a roll-back to a phase"
    );

    // Fold it, looking at the public board at every phase boundary.
    let mut replay = Replay::new(h.kind);
    let mut seen = Boundaries::default();
    for (i, e) in log.iter().enumerate() {
        replay
            .push(e.seq, &e.event)
            .unwrap_or_else(|err| panic!("{name}: entry {}: {err}", e.seq));
        let last = i + 1 == log.len();
        if last || log[i + 1].batch != e.batch {
            seen.observe(e.seq, replay.state(), &h.seats, last);
        }
    }
    let state = replay.state();
    // A deliberate change of what players see (a view's words, a board's
    // drawing) rewrites the boards from the replay, never the log.
    if std::env::var("ORRERY_REBOARD").is_ok_and(|n| n.split(',').any(|n| n.trim() == name)) {
        let boards: String = seen
            .boards
            .iter()
            .map(|b| serde_json::to_string(b).unwrap() + "\n")
            .collect();
        std::fs::write(dir(name).join("boards.jsonl"), boards).unwrap();
        println!("re-drew the boards of {name}");
        fx.boards.clone_from(&seen.boards);
    }
    let replayed = serde_json::to_value(state).unwrap();
    if let Some(d) = first_difference("state".into(), &replayed, &fx.final_state) {
        panic!("{name}: the replayed final state differs from final_state.json at {d}");
    }
    assert_eq!(state.outcome().is_some(), h.status == GameStatus::Finished);
    assert!(state.outcome().is_some(), "{name}: a fixture is a whole game");

    let seqs = |b: &[Board]| b.iter().map(|b| (b.seq, b.phase)).collect::<Vec<_>>();
    assert_eq!(
        seqs(&seen.boards),
        seqs(&fx.boards),
        "{name}: the phase boundaries (seq, phase) differ from boards.jsonl"
    );
    for (got, want) in seen.boards.iter().zip(&fx.boards) {
        if let Some(d) = first_difference("view".into(), &got.view, &want.view) {
            panic!(
                "{name}: the public view after entry {} (phase {}) differs at {d}",
                got.seq, got.phase
            );
        }
        assert_eq!(
            got.scene, want.scene,
            "{name}: the public board's scene after entry {} (phase {}) changed",
            got.seq, got.phase
        );
        if !want.seats.is_empty() {
            assert_eq!(
                got.seats, want.seats,
                "{name}: a seat's own view after entry {} (phase {}) changed",
                got.seq, got.phase
            );
        }
    }

    // The game row, whose cached state was empty, loads refolded.
    let row = store.game(id).await.unwrap().unwrap();
    assert_eq!(
        row.state.as_ref(),
        Some(state),
        "{name}: the store refolds a missing cache"
    );
    assert_eq!(row.status, h.status);
    (store, id, fx)
}

/// Every game of the registry has a fixture log (a game added without one
/// fails here, saying how to record it), and each replays through the
/// store to its recorded states, views and boards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_games_fixture_replays_to_its_recorded_state_and_boards() {
    let mut replays = tokio::task::JoinSet::new();
    for kind in GameKind::ALL {
        let name = kind.key();
        assert!(
            dir(name).join("log.jsonl").exists(),
            "{} has no fixture log in {}: record one (with its plan in PLANS, or the default plan) by \
             ORRERY_RECORD={name} cargo test --test store -- --ignored record_fixtures, and commit it",
            kind.name(),
            dir(name).display()
        );
        replays.spawn(async move { check(name).await });
    }
    while let Some(done) = replays.join_next().await {
        done.expect("a fixture replays");
    }
}

#[tokio::test]
async fn a_cached_state_that_does_not_decode_is_refolded_from_the_log() {
    let (store, id, fx) = check("hyperspace").await;
    let expected: AnyState = serde_json::from_value(fx.final_state.clone()).unwrap();
    let set_cache = |text: String| {
        let store = store.clone();
        async move {
            sqlx::query("UPDATE games SET state = $2 WHERE id = $1")
                .bind(id.0)
                .bind(text)
                .execute(store.pool())
                .await
                .unwrap();
        }
    };
    // A good cache is read as it is: a (deliberately wrong but decodable)
    // cached state shows that the store does not refold every time.
    let earlier = GameKind::Hyperspace
        .fold(store.events_upto(id, 3).await.unwrap().iter().map(|(_, e)| e))
        .unwrap();
    set_cache(serde_json::to_string(&earlier).unwrap()).await;
    assert_eq!(store.game(id).await.unwrap().unwrap().state, Some(earlier));

    // A cache of another shape (a renamed field), or not JSON at all, is
    // refolded, on every path that reads game rows.
    let mut reshaped = fx.final_state.clone();
    let inner = reshaped["state"].as_object_mut().unwrap();
    let (k, v) = inner.iter().next().map(|(k, v)| (k.clone(), v.clone())).unwrap();
    inner.remove(&k);
    inner.insert(format!("{k}_renamed"), v);
    for bad in [serde_json::to_string(&reshaped).unwrap(), "{not json".to_string()] {
        set_cache(bad).await;
        assert_eq!(store.game(id).await.unwrap().unwrap().state.as_ref(), Some(&expected));
        let all = store.all_games().await.unwrap();
        assert_eq!(all[0].state.as_ref(), Some(&expected));
        let in_channel = store.games_in_channel(1).await.unwrap();
        assert_eq!(in_channel[0].state.as_ref(), Some(&expected));
        let of_user = store.games_of_user(UserId(2)).await.unwrap();
        assert_eq!(of_user[0].state.as_ref(), Some(&expected));
    }
}

#[tokio::test]
async fn rows_are_decoded_by_their_recorded_version() {
    // The store reads each row's version: a row claiming a version from a
    // newer release is refused, not misread.
    let mut fx = read_fixture("starlanes");
    fx.rows[3].version = EVENT_VERSION + 1;
    let store = Store::connect("sqlite::memory:").await.unwrap();
    let id = load(&store, &fx).await;
    let err = store.log(id).await.unwrap_err().to_string();
    assert!(err.contains("from entry 4:") && err.contains("newer release"), "{err}");
}

// --- the recorder ------------------------------------------------------------

/// Re-record every fixture. Read the header of this file first: never
/// because the shape of an event changed.
#[tokio::test]
#[ignore = "records tests/fixtures; run deliberately: ORRERY_RECORD=name cargo test --test store -- --ignored record_fixtures"]
async fn record_fixtures() {
    let named = std::env::var("ORRERY_RECORD").unwrap_or_default();
    let named: Vec<&str> = named.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    for plan in plans() {
        if !named.contains(&plan.name) && dir(plan.name).join("log.jsonl").exists() {
            continue;
        }
        record(&plan).await;
        check(plan.name).await;
        println!("recorded {}", dir(plan.name).display());
    }
}

async fn record(plan: &Plan) {
    const CH: u64 = 900;
    const MAX_ORDERS: usize = 5_000;
    let (svc, _clock) = service(&format!("fixture-{}", plan.name)).await;
    let names: Vec<String> = plan.seats.iter().map(|s| s.to_string()).collect();
    let actor = |seat: usize| at(CH, seat as u64 + 1, plan.seats[seat]);
    ok(
        &svc,
        &actor(0),
        Request::New {
            kind: plan.kind,
            seed: Some(plan.seed),
            options: plan
                .options
                .map(|o| serde_json::from_str(o).expect("a plan's options are JSON")),
            private: None,
        },
    )
    .await;
    for seat in 1..plan.seats.len() {
        ok(&svc, &actor(seat), Request::Join { game: None }).await;
    }
    ok(&svc, &actor(0), Request::Start { game: None }).await;
    let game = svc.store().games_in_channel(CH).await.unwrap()[0].id;

    let mut seen = Boundaries::default();
    let mut orders = 0;
    loop {
        let row = svc.store().game(game).await.unwrap().unwrap();
        let state = row.state.clone().expect("a started game has a state");
        let over = state.outcome().is_some();
        seen.observe(row.seq, &state, &names, over);
        if over {
            break;
        }
        assert!(orders < MAX_ORDERS, "{}: no end after {MAX_ORDERS} orders", plan.name);
        if orders == plan.undo_at {
            ok(&svc, &actor(0), Request::Undo { game: None }).await;
        } else if orders == plan.rollback_at {
            let phase = state.phase().number.saturating_sub(1).max(1);
            ok(
                &svc,
                &actor(0),
                Request::Rollback {
                    game: None,
                    phase: phase.into(),
                },
            )
            .await;
        } else {
            play_one(&svc, game, &state, row.seq, plan, &actor).await;
        }
        orders += 1;
    }
    assert!(
        orders > plan.rollback_at,
        "{}: the game ended after {orders} orders, before the roll-back: lower `rollback_at`",
        plan.name
    );
    write_fixture(&svc, game, plan, seen.boards).await;
}

/// The owing seat's order, drawn like `orrery play --auto` draws it.
async fn play_one(
    svc: &Service,
    game: GameId,
    state: &AnyState,
    seq: i64,
    plan: &Plan,
    actor: &dyn Fn(usize) -> orrery::service::Actor,
) {
    let p = state
        .pending()
        .into_iter()
        .find(|p| !p.submitted)
        .expect("someone owes a decision");
    let legal = state.legal_commands(p.seat);
    let mut rng = GameRng::seeded(plan.seed ^ (seq as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(p.seat.0));
    let line = rng.pick(&legal).expect("a legal order").clone();
    ok(
        svc,
        &actor(p.seat.index()),
        Request::Order {
            game: Some(game),
            kind: None,
            line,
        },
    )
    .await;
}

async fn write_fixture(svc: &Service, game: GameId, plan: &Plan, boards: Vec<Board>) {
    let store = svc.store();
    let row = store.game(game).await.unwrap().unwrap();
    let header = Header {
        kind: row.kind,
        config: row.config.clone(),
        seats: store.seats(game).await.unwrap().into_iter().map(|s| s.name).collect(),
        status: row.status,
        seq: row.seq,
    };
    let mut log = serde_json::to_string(&header).unwrap() + "\n";
    let rows = sqlx::query("SELECT seq, batch, version, event FROM events WHERE game_id = $1 ORDER BY seq")
        .bind(game.0)
        .fetch_all(store.pool())
        .await
        .unwrap();
    for r in rows {
        let row = EventRow {
            seq: r.try_get("seq").unwrap(),
            batch: r.try_get("batch").unwrap(),
            version: r.try_get("version").unwrap(),
            event: r.try_get("event").unwrap(),
        };
        log += &(serde_json::to_string(&row).unwrap() + "\n");
    }
    // The state as the service holds it (the cache it wrote), not a fold.
    let state: String = sqlx::query("SELECT state FROM games WHERE id = $1")
        .bind(game.0)
        .fetch_one(store.pool())
        .await
        .unwrap()
        .try_get(0)
        .unwrap();
    let state: Value = serde_json::from_str(&state).unwrap();
    let boards: String = boards
        .iter()
        .map(|b| serde_json::to_string(b).unwrap() + "\n")
        .collect();
    let dir = dir(plan.name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("log.jsonl"), log).unwrap();
    std::fs::write(
        dir.join("final_state.json"),
        serde_json::to_string_pretty(&state).unwrap() + "\n",
    )
    .unwrap();
    std::fs::write(dir.join("boards.jsonl"), boards).unwrap();
}
