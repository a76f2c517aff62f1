//! Async play across days, through the service: deadlines, the scheduler's
//! `tick`, reminders and the host tools. Time is a `ManualClock`; SQLite in
//! a temporary file, plus PostgreSQL (two schedulers on one database) when
//! `TEST_POSTGRES_URL` is set.

use orrery::engine::{GameId, UserId};
use orrery::games::GameKind;
use orrery::service::{
    Actor, ManualClock, Missed, OutMessage, Place, Reply, Request, Service, ServiceError, SettingsChange, Target,
    HOUR_MS,
};
use orrery::store::Store;
use std::sync::Arc;

const CHANNEL: u64 = 600;
const T0: i64 = 1_700_000_000_000;

fn db_url(tag: &str) -> String {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let path = std::env::temp_dir().join(format!("orrery-async-{tag}-{}-{n}.db", std::process::id()));
    format!("sqlite://{}", path.display())
}

async fn service_on(url: &str, clock: Arc<ManualClock>) -> Service {
    let store = Store::connect(url).await.expect("store");
    Service::new(store, clock)
}

fn at(channel: u64, user: u64, name: &str) -> Actor {
    Actor {
        user: UserId(user),
        name: name.into(),
        place: Place::Channel {
            channel,
            guild: Some(9),
        },
    }
}

fn alice() -> Actor {
    at(CHANNEL, 1, "alice")
}
fn bob() -> Actor {
    at(CHANNEL, 2, "bob")
}

/// Everything queued since the last call (boards not rendered: quicker).
async fn sent(svc: &Service) -> Vec<OutMessage> {
    let mut out = Vec::new();
    for row in svc.store().undelivered(10_000).await.unwrap() {
        out.push(serde_json::from_value(row.payload.clone()).unwrap());
        svc.store().mark_delivered(row.id, 0).await.unwrap();
    }
    out
}

async fn ok(svc: &Service, actor: &Actor, req: Request) -> Reply {
    svc.handle(actor, req.clone())
        .await
        .unwrap_or_else(|e| panic!("{req:?} by {}: {e}", actor.name))
}

async fn refused(svc: &Service, actor: &Actor, req: Request) -> String {
    match svc.handle(actor, req.clone()).await {
        Err(ServiceError::User(msg)) => msg,
        other => panic!("{req:?} by {} should be refused, got {other:?}", actor.name),
    }
}

/// A started 2-player Hyperspace game in `channel`.
async fn started_in(svc: &Service, channel: u64) -> GameId {
    ok(
        svc,
        &at(channel, 1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(7),
            options: None,
        },
    )
    .await;
    ok(svc, &at(channel, 2, "bob"), Request::Join { game: None }).await;
    ok(svc, &at(channel, 1, "alice"), Request::Start { game: None }).await;
    svc.store().games_in_channel(channel).await.unwrap()[0].id
}

async fn phase(svc: &Service, game: GameId) -> u32 {
    svc.store()
        .game(game)
        .await
        .unwrap()
        .unwrap()
        .state
        .unwrap()
        .phase()
        .number
}

async fn seq(svc: &Service, game: GameId) -> i64 {
    svc.store().game(game).await.unwrap().unwrap().seq
}

#[tokio::test]
async fn start_sets_a_deadline_and_a_missed_one_applies_defaults() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("missed"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let p0 = phase(&svc, game).await;
    let d = svc.store().deadline(game).await.unwrap().expect("deadline at start");
    assert_eq!((d.phase, d.due_at), (i64::from(p0), T0 + 48 * HOUR_MS));
    sent(&svc).await;

    clock.set_ms(T0 + 48 * HOUR_MS - 1);
    assert_eq!(svc.tick().await.unwrap().resolved, 0, "not a millisecond early");
    assert_eq!(phase(&svc, game).await, p0);

    clock.set_ms(T0 + 48 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    assert_eq!(phase(&svc, game).await, p0 + 1, "alice's turn ended by default");
    let msgs = sent(&svc).await;
    assert!(
        msgs.iter()
            .any(|m| m.target == Target::Channel(CHANNEL) && m.text.contains("alice defaulted to `end`")),
        "{msgs:#?}"
    );
    let d = svc
        .store()
        .deadline(game)
        .await
        .unwrap()
        .expect("next phase's deadline");
    assert_eq!((d.phase, d.due_at), (i64::from(p0 + 1), T0 + 96 * HOUR_MS));
    assert_eq!(svc.tick().await.unwrap().resolved, 0, "resolved once");
    assert_eq!(phase(&svc, game).await, p0 + 1);

    // Status shows the deadline as Discord timestamps.
    let r = ok(&svc, &alice(), Request::Status { game: None }).await;
    let unix = (T0 + 96 * HOUR_MS) / 1000;
    assert!(r.text.contains(&format!("<t:{unix}:R>")), "{}", r.text);
    assert!(r.text.contains(&format!("<t:{unix}:f>")), "{}", r.text);
}

#[tokio::test]
async fn a_played_turn_starts_the_next_phase_deadline() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("played"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let p0 = phase(&svc, game).await;
    clock.set_ms(T0 + HOUR_MS);
    ok(
        &svc,
        &alice(),
        Request::Order {
            game: None,
            line: orrery::engine::CommandLine::parse("end").unwrap(),
        },
    )
    .await;
    assert_eq!(phase(&svc, game).await, p0 + 1);
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!((d.phase, d.due_at), (i64::from(p0 + 1), T0 + 49 * HOUR_MS));
}

#[tokio::test]
async fn reminders_are_sent_once_at_each_point() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("remind"), clock.clone()).await;
    started_in(&svc, CHANNEL).await;
    sent(&svc).await;
    let reminders = |msgs: &[OutMessage]| {
        msgs.iter()
            .filter(|m| m.text.starts_with("Reminder"))
            .map(|m| m.target.clone())
            .collect::<Vec<_>>()
    };

    clock.set_ms(T0 + 24 * HOUR_MS - 1);
    assert_eq!(svc.tick().await.unwrap().reminders, 0);
    clock.set_ms(T0 + 24 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1);
    assert_eq!(reminders(&sent(&svc).await), vec![Target::Dm(UserId(1))]);
    clock.set_ms(T0 + 30 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 0, "24h reminder once");

    clock.set_ms(T0 + 46 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1);
    let msgs = sent(&svc).await;
    assert_eq!(reminders(&msgs), vec![Target::Dm(UserId(1))]);
    assert!(msgs[0].text.contains("<t:"), "{}", msgs[0].text);
    clock.set_ms(T0 + 47 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 0, "2h reminder once");
    assert!(reminders(&sent(&svc).await).is_empty());
}

#[tokio::test]
async fn pause_stops_the_clock_and_resume_restarts_it() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("pause"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let p0 = phase(&svc, game).await;
    clock.set_ms(T0 + 10 * HOUR_MS);
    ok(&svc, &alice(), Request::Pause { game: None }).await;
    let msg = refused(&svc, &alice(), Request::Pause { game: None }).await;
    assert!(msg.contains("already paused"), "{msg}");

    clock.set_ms(T0 + 500 * HOUR_MS);
    let report = svc.tick().await.unwrap();
    assert_eq!((report.resolved, report.reminders), (0, 0), "paused: nothing fires");
    assert_eq!(phase(&svc, game).await, p0);
    let r = ok(&svc, &bob(), Request::Status { game: None }).await;
    assert!(r.text.contains("paused"), "{}", r.text);

    ok(&svc, &alice(), Request::Resume { game: None }).await;
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(d.due_at, T0 + 538 * HOUR_MS, "38 hours were left");
    clock.set_ms(T0 + 538 * HOUR_MS - 1);
    assert_eq!(svc.tick().await.unwrap().resolved, 0);
    clock.set_ms(T0 + 538 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    assert_eq!(phase(&svc, game).await, p0 + 1);
}

#[tokio::test]
async fn an_extension_never_fires_early() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("extend"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let p0 = phase(&svc, game).await;
    clock.set_ms(T0 + 47 * HOUR_MS);
    ok(
        &svc,
        &alice(),
        Request::Extend {
            game: None,
            by_ms: 10 * HOUR_MS,
        },
    )
    .await;
    for t in [48, 50, 57] {
        clock.set_ms(T0 + t * HOUR_MS);
        assert_eq!(svc.tick().await.unwrap().resolved, 0, "fired early at +{t}h");
    }
    clock.set_ms(T0 + 58 * HOUR_MS - 1);
    assert_eq!(svc.tick().await.unwrap().resolved, 0);
    assert_eq!(phase(&svc, game).await, p0);
    clock.set_ms(T0 + 58 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    assert_eq!(phase(&svc, game).await, p0 + 1);
}

#[tokio::test]
async fn restart_with_an_overdue_deadline_resolves_at_once() {
    let url = db_url("restart");
    let clock = Arc::new(ManualClock::new(T0));
    let game = {
        let svc = service_on(&url, clock.clone()).await;
        let game = started_in(&svc, CHANNEL).await;
        svc.store().close().await;
        game
    };
    // The bot was down for four days.
    clock.set_ms(T0 + 96 * HOUR_MS);
    let svc = service_on(&url, clock.clone()).await;
    let p0 = phase(&svc, game).await;
    assert_eq!(svc.tick().await.unwrap().resolved, 1, "the first tick resolves it");
    assert_eq!(phase(&svc, game).await, p0 + 1);
    // The new phase has a full deadline from now, not from the old one.
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(d.due_at, T0 + 144 * HOUR_MS);
}

#[tokio::test]
async fn wait_policy_asks_the_host_and_force_resolves() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("wait"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let p0 = phase(&svc, game).await;
    ok(
        &svc,
        &alice(),
        Request::Settings {
            game: None,
            change: SettingsChange {
                on_missed: Some(Missed::Wait),
                ..Default::default()
            },
        },
    )
    .await;
    sent(&svc).await;
    clock.set_ms(T0 + 49 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    assert_eq!(phase(&svc, game).await, p0, "nothing defaulted");
    let msgs = sent(&svc).await;
    assert!(msgs.iter().any(|m| m.text.contains("The host decides")), "{msgs:#?}");
    assert!(svc.store().deadline(game).await.unwrap().is_none());
    assert_eq!(svc.tick().await.unwrap().resolved, 0, "announced once");

    ok(&svc, &alice(), Request::Force { game: None }).await;
    assert_eq!(phase(&svc, game).await, p0 + 1);
    assert!(svc.store().deadline(game).await.unwrap().is_some());
}

#[tokio::test]
async fn settings_change_the_next_deadline() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("settings"), clock.clone()).await;
    ok(
        &svc,
        &alice(),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(7),
            options: None,
        },
    )
    .await;
    ok(&svc, &bob(), Request::Join { game: None }).await;
    ok(
        &svc,
        &alice(),
        Request::Settings {
            game: None,
            change: SettingsChange {
                deadline_ms: Some(orrery::service::parse_duration("12h").unwrap()),
                reminders_ms: Some(vec![HOUR_MS]),
                on_missed: None,
            },
        },
    )
    .await;
    let msg = refused(
        &svc,
        &alice(),
        Request::Settings {
            game: None,
            change: SettingsChange {
                deadline_ms: Some(1000),
                ..Default::default()
            },
        },
    )
    .await;
    assert!(msg.contains("between"), "{msg}");
    ok(&svc, &alice(), Request::Start { game: None }).await;
    let game = svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id;
    assert_eq!(
        svc.store().deadline(game).await.unwrap().unwrap().due_at,
        T0 + 12 * HOUR_MS
    );
    let r = ok(&svc, &bob(), Request::Status { game: None }).await;
    assert!(r.text.contains("deadline 12h per phase"), "{}", r.text);
    assert!(r.text.contains("reminders 1h before"), "{}", r.text);
}

#[tokio::test]
async fn host_tools_are_host_only_and_refusals_change_nothing() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("hostonly"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    sent(&svc).await;
    let before = (
        seq(&svc, game).await,
        svc.store().deadline(game).await.unwrap(),
        svc.settings(game).await.unwrap(),
    );
    let requests = [
        Request::Pause { game: None },
        Request::Resume { game: None },
        Request::Extend {
            game: None,
            by_ms: HOUR_MS,
        },
        Request::Force { game: None },
        Request::Settings {
            game: None,
            change: SettingsChange {
                deadline_ms: Some(HOUR_MS),
                ..Default::default()
            },
        },
    ];
    for req in requests {
        let msg = refused(&svc, &bob(), req.clone()).await;
        assert!(msg.contains("Only the host"), "{req:?}: {msg}");
        // A spectator (not seated) is refused too.
        let msg = refused(&svc, &at(CHANNEL, 99, "eve"), req.clone()).await;
        assert!(msg.contains("Only the host"), "{req:?}: {msg}");
    }
    let after = (
        seq(&svc, game).await,
        svc.store().deadline(game).await.unwrap(),
        svc.settings(game).await.unwrap(),
    );
    assert_eq!(before, after);
    assert!(sent(&svc).await.is_empty(), "refusals queue nothing");
    // Anyone may look at the settings.
    let r = ok(
        &svc,
        &bob(),
        Request::Settings {
            game: None,
            change: SettingsChange::default(),
        },
    )
    .await;
    assert!(r.text.contains("missed deadline: default"), "{}", r.text);
}

/// Two services (two connection pools, as two bot processes) tick the same
/// PostgreSQL database concurrently: every due phase is resolved once.
#[tokio::test]
async fn two_schedulers_on_postgres_resolve_each_phase_once() {
    use sqlx::{AnyConnection, Connection, Executor};
    let Ok(admin_url) = std::env::var("TEST_POSTGRES_URL") else {
        println!("TEST_POSTGRES_URL is not set: two-schedulers PostgreSQL test skipped");
        return;
    };
    sqlx::any::install_default_drivers();
    let name = format!(
        "orrery_async_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_micros()
    );
    let mut admin = AnyConnection::connect(&admin_url).await.expect("connect");
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await.unwrap();
    let url = {
        let (base, query) = admin_url
            .split_once('?')
            .map_or((admin_url.as_str(), None), |(b, q)| (b, Some(q)));
        let after = base.find("://").map_or(0, |i| i + 3);
        let end = base[after..].find('/').map_or(base.len(), |i| after + i);
        let mut u = format!("{}/{name}", &base[..end]);
        if let Some(q) = query {
            u.push('?');
            u.push_str(q);
        }
        u
    };
    let clock = Arc::new(ManualClock::new(T0));
    let a = service_on(&url, clock.clone()).await;
    let b = service_on(&url, clock.clone()).await;
    const GAMES: u64 = 6;
    let mut games = Vec::new();
    for i in 0..GAMES {
        games.push(started_in(&a, 7000 + i).await);
    }
    let mut phases = Vec::new();
    for &g in &games {
        phases.push(phase(&a, g).await);
    }
    let seqs_before: Vec<i64> = futures_util::future::join_all(games.iter().map(|&g| seq(&a, g))).await;
    clock.set_ms(T0 + 48 * HOUR_MS);
    let mut resolved = 0;
    for _ in 0..3 {
        let (ra, rb) = tokio::join!(a.tick(), b.tick());
        resolved += ra.unwrap().resolved + rb.unwrap().resolved;
    }
    assert_eq!(resolved, GAMES as usize, "each due phase resolved exactly once");
    for (i, &g) in games.iter().enumerate() {
        assert_eq!(phase(&a, g).await, phases[i] + 1, "game {g} advanced one phase");
        let log = a.store().events(g).await.unwrap();
        assert!(log.len() as i64 > seqs_before[i]);
        let d = a.store().deadline(g).await.unwrap().unwrap();
        assert_eq!(d.due_at, T0 + 96 * HOUR_MS);
    }
    a.store().close().await;
    b.store().close().await;
    let _ = admin
        .execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
        .await;
}
