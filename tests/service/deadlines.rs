//! Async play across days, through the service: deadlines, the scheduler's
//! `tick`, reminders and the host tools. Time is a `ManualClock`; SQLite in
//! a temporary file, plus PostgreSQL (two schedulers on one database) when
//! `TEST_POSTGRES_URL` is set.

use orrery::engine::{GameId, UserId};
use orrery::games::GameKind;
use orrery::service::{
    Actor, ManualClock, Missed, OutMessage, Place, Request, Service, SettingsChange, Target, HOUR_MS,
};
use orrery::store::Store;
use std::sync::Arc;

use crate::common::{at, db_url, discord, ok, refused, sent, T0};
use crate::pgdb::PgDatabase;

const CHANNEL: u64 = 600;

async fn service_on(url: &str, clock: Arc<ManualClock>) -> Service {
    let store = Store::connect(url).await.expect("store");
    Service::new(store, clock)
}

fn alice() -> Actor {
    at(CHANNEL, 1, "alice")
}
fn bob() -> Actor {
    at(CHANNEL, 2, "bob")
}

/// A 2-player Hyperspace lobby in `channel` hosted by alice, bob seated.
async fn lobby_in(svc: &Service, channel: u64) {
    ok(
        svc,
        &at(channel, 1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(7),
            options: None,
            private: None,
        },
    )
    .await;
    ok(svc, &at(channel, 2, "bob"), Request::Join { game: None }).await;
}

/// A started 2-player Hyperspace game in `channel`.
async fn started_in(svc: &Service, channel: u64) -> GameId {
    lobby_in(svc, channel).await;
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
    let shown = discord(&r.text);
    assert!(shown.contains(&format!("<t:{unix}:R>")), "{shown}");
    assert!(shown.contains(&format!("<t:{unix}:f>")), "{shown}");
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
            kind: None,
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
    assert!(discord(&msgs[0].text).contains("<t:"), "{}", msgs[0].text);
    // The last reminder also nudges the late player once in the channel,
    // alerting only them.
    let nudges: Vec<_> = msgs.iter().filter(|m| matches!(m.target, Target::Channel(_))).collect();
    assert_eq!(nudges.len(), 1, "{msgs:#?}");
    assert_eq!(nudges[0].pings, vec![UserId(1)]);
    assert!(discord(&nudges[0].text).contains("<@1>"), "{}", nudges[0].text);
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
    lobby_in(&svc, CHANNEL).await;
    ok(
        &svc,
        &alice(),
        Request::Settings {
            game: None,
            change: SettingsChange {
                deadline_ms: Some(orrery::service::parse_duration("12h").unwrap()),
                reminders_ms: Some(vec![HOUR_MS]),
                ..Default::default()
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
    let Some(db) = PgDatabase::create("async_two", "the PostgreSQL service test").await else {
        return;
    };
    let clock = Arc::new(ManualClock::new(T0));
    let a = service_on(&db.url, clock.clone()).await;
    let b = service_on(&db.url, clock.clone()).await;
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
    db.drop().await;
}

/// Per-player reminders and drafts on PostgreSQL (the same flows as on
/// SQLite above, each on a fresh database).
#[tokio::test]
async fn own_reminders_and_drafts_on_postgres() {
    let Some(db) = PgDatabase::create("async_rem", "the PostgreSQL service test").await else {
        return;
    };
    players_set_their_own_reminders_and_muted_players_get_none_on(&db.url).await;
    db.drop().await;
    let Some(db) = PgDatabase::create("async_drafts", "the PostgreSQL service test").await else {
        return;
    };
    drafts_are_revised_marked_ready_and_submitted_together_on(&db.url).await;
    db.drop().await;
    let Some(db) = PgDatabase::create("async_ddl", "the PostgreSQL service test").await else {
        return;
    };
    the_deadline_submits_drafts_and_defaults_the_rest_on(&db.url).await;
    db.drop().await;
    let Some(db) = PgDatabase::create("async_stale", "the PostgreSQL service test").await else {
        return;
    };
    drafts_of_an_older_position_are_discarded_and_the_player_told_on(&db.url).await;
    db.drop().await;
}

// ---- issue 4, second part: /mygames, per-player reminders, per-decision
// deadlines and a fixed time of day, drafts with "ready" flags ----------

fn in_dm(user: u64, name: &str) -> Actor {
    Actor {
        user: UserId(user),
        name: name.into(),
        place: Place::Dm,
    }
}

fn name_of(user: u64) -> &'static str {
    match user {
        1 => "alice",
        2 => "bob",
        _ => "someone",
    }
}

fn channel_texts(msgs: &[OutMessage]) -> Vec<String> {
    msgs.iter()
        .filter(|m| matches!(m.target, Target::Channel(_)))
        .map(|m| m.text.to_plain())
        .collect()
}

fn dms_to(msgs: &[OutMessage], user: u64) -> Vec<String> {
    msgs.iter()
        .filter(|m| m.target == Target::Dm(UserId(user)))
        .map(|m| m.text.to_plain())
        .collect()
}

async fn state_of(svc: &Service, game: GameId) -> orrery::games::AnyState {
    svc.store().game(game).await.unwrap().unwrap().state.unwrap()
}

async fn set(svc: &Service, actor: &Actor, change: SettingsChange) {
    ok(svc, actor, Request::Settings { game: None, change }).await;
}

/// Play random legal non-secret orders (through the service, each by its
/// seat's player in the channel) until both seats owe a secret combat card.
async fn to_battle(svc: &Service, game: GameId) {
    let mut rng = orrery::engine::GameRng::seeded(11);
    for _ in 0..3000 {
        let state = state_of(svc, game).await;
        assert!(state.outcome().is_none(), "the game ended before any battle");
        let pending = state.pending();
        if pending.iter().any(|p| p.kind == "combat-card") {
            assert!(pending.iter().all(|p| p.secret && !p.submitted), "{pending:?}");
            assert_eq!(pending.len(), 2);
            return;
        }
        let p = pending.iter().find(|p| !p.submitted).expect("someone owes");
        // Mostly move, so fleets meet; `end` when nothing else is left.
        let legal = state.legal_commands(p.seat);
        let moves: Vec<_> = legal.iter().filter(|c| c.name != "end").cloned().collect();
        let line = if !moves.is_empty() && rng.below(4) != 0 {
            rng.pick(&moves).unwrap().clone()
        } else {
            rng.pick(&legal).unwrap().clone()
        };
        let user = u64::from(p.seat.0) + 1;
        ok(
            svc,
            &at(CHANNEL, user, name_of(user)),
            Request::Order {
                game: None,
                kind: None,
                line,
            },
        )
        .await;
    }
    panic!("no battle after 3000 orders");
}

/// The legal combat cards of `user`'s seat, as orders.
async fn cards_of(svc: &Service, game: GameId, user: u64) -> Vec<orrery::engine::CommandLine> {
    let state = state_of(svc, game).await;
    let cards = state.legal_commands(orrery::engine::Seat((user - 1) as u8));
    assert!(!cards.is_empty());
    cards
}

fn order_req(line: &orrery::engine::CommandLine) -> Request {
    Request::Order {
        game: None,
        kind: None,
        line: line.clone(),
    }
}

#[tokio::test]
async fn mygames_lists_open_games_with_what_they_wait_on_and_the_deadline() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("mygames"), clock.clone()).await;
    // Game 1: alice hosts, her turn.
    let g1 = started_in(&svc, CHANNEL).await;
    // Game 2: bob hosts, his turn; alice plays seat 2.
    ok(
        &svc,
        &at(601, 2, "bob"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(7),
            options: None,
            private: None,
        },
    )
    .await;
    ok(&svc, &at(601, 1, "alice"), Request::Join { game: None }).await;
    ok(&svc, &at(601, 2, "bob"), Request::Start { game: None }).await;
    let g2 = svc.store().games_in_channel(601).await.unwrap()[0].id;
    // Game 3: a lobby alice joined. Game 4: a lobby that was closed.
    ok(
        &svc,
        &at(602, 3, "carol"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: None,
            options: None,
            private: None,
        },
    )
    .await;
    ok(&svc, &at(602, 1, "alice"), Request::Join { game: None }).await;
    let g3 = svc.store().games_in_channel(602).await.unwrap()[0].id;
    ok(
        &svc,
        &at(603, 3, "carol"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: None,
            options: None,
            private: None,
        },
    )
    .await;
    ok(&svc, &at(603, 1, "alice"), Request::Join { game: None }).await;
    ok(&svc, &at(603, 3, "carol"), Request::Leave { game: None }).await;
    let g4 = svc.store().games_in_channel(603).await.unwrap()[0].id;
    clock.set_ms(T0 + HOUR_MS);
    sent(&svc).await;

    // In DMs, where no game is implied.
    let r = ok(&svc, &in_dm(1, "alice"), Request::MyGames).await;
    assert!(r.ephemeral);
    let text = &discord(&r.text);
    assert!(text.contains("3 open, 1 waiting on you"), "{text}");
    let pos = |id: GameId| {
        text.find(&format!("game {id} in"))
            .unwrap_or_else(|| panic!("{id}: {text}"))
    };
    assert!(
        pos(g1) < pos(g2) && pos(g2) < pos(g3),
        "waiting on me first, then by deadline: {text}"
    );
    assert!(
        !text.contains(&format!("game {g4} in")),
        "closed games are not listed: {text}"
    );
    let prompt = state_of(&svc, g1).await.pending()[0].prompt.clone();
    let g1_text = &text[pos(g1)..pos(g2)];
    assert!(
        g1_text.contains("Waiting on you") && g1_text.contains(&prompt),
        "{g1_text}"
    );
    assert!(g1_text.contains(&format!("<#{CHANNEL}>")), "{g1_text}");
    let due = (T0 + 48 * HOUR_MS) / 1000;
    assert!(g1_text.contains(&format!("<t:{due}:R> (<t:{due}:f>)")), "{g1_text}");
    let g2_text = &text[pos(g2)..pos(g3)];
    assert!(
        g2_text.contains("Waiting on: bob (turn)") && !g2_text.contains("Waiting on you"),
        "{g2_text}"
    );
    assert!(text[pos(g3)..].contains("lobby, 2 seated"), "{text}");

    // Bob's list: game 2 waits on him.
    let r = ok(&svc, &bob(), Request::MyGames).await;
    assert!(r.text.contains("2 open, 1 waiting on you"), "{}", r.text);

    // Paused: the time left instead of a moment.
    ok(&svc, &alice(), Request::Pause { game: None }).await;
    let r = ok(&svc, &in_dm(1, "alice"), Request::MyGames).await;
    assert!(r.text.contains("paused, 1d 23h left"), "{}", r.text);

    // A seat the player was removed from (vacant) is not theirs any more.
    sqlx::query("UPDATE seats SET vacant = 1 WHERE game_id = $1 AND user_id = 1")
        .bind(g2.0)
        .execute(svc.store().pool())
        .await
        .unwrap();
    let r = ok(&svc, &in_dm(1, "alice"), Request::MyGames).await;
    assert!(!r.text.contains(&format!("game {g2} in")), "{}", r.text);
    assert!(r.text.contains("2 open"), "{}", r.text);

    let r = ok(&svc, &in_dm(50, "zed"), Request::MyGames).await;
    assert!(r.text.contains("not playing in any open game"), "{}", r.text);
    assert!(sent(&svc).await.iter().all(|m| !m.text.contains("Your games")));
}

#[tokio::test]
async fn players_set_their_own_reminders_and_muted_players_get_none() {
    players_set_their_own_reminders_and_muted_players_get_none_on(&db_url("own-reminders")).await;
}

async fn players_set_their_own_reminders_and_muted_players_get_none_on(url: &str) {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(url, clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    to_battle(&svc, game).await; // both seats owe a combat card
    let due = svc.store().deadline(game).await.unwrap().unwrap().due_at;
    assert_eq!(due, T0 + 48 * HOUR_MS);
    let seats_before = svc.store().seats(game).await.unwrap();

    // Refusals explain and change nothing.
    let msg = refused(
        &svc,
        &bob(),
        Request::Reminders {
            game: None,
            mute: Some(true),
            points: Some(vec![HOUR_MS]),
        },
    )
    .await;
    assert!(msg.contains("not both"), "{msg}");
    let msg = refused(
        &svc,
        &bob(),
        Request::Reminders {
            game: None,
            mute: None,
            points: Some(vec![0]),
        },
    )
    .await;
    assert!(msg.contains("positive"), "{msg}");
    let msg = refused(
        &svc,
        &at(CHANNEL, 99, "eve"),
        Request::Reminders {
            game: None,
            mute: Some(true),
            points: None,
        },
    )
    .await;
    assert!(msg.contains("not playing"), "{msg}");
    assert_eq!(svc.store().seats(game).await.unwrap(), seats_before);

    let r = ok(
        &svc,
        &bob(),
        Request::Reminders {
            game: None,
            mute: Some(true),
            points: None,
        },
    )
    .await;
    assert!(r.text.contains("muted"), "{}", r.text);
    ok(
        &svc,
        &in_dm(1, "alice"),
        Request::Reminders {
            game: None,
            mute: None,
            points: Some(vec![10 * HOUR_MS]),
        },
    )
    .await;
    let seats = svc.store().seats(game).await.unwrap();
    assert_eq!(seats[0].reminders, Some(vec![10 * HOUR_MS]));
    assert_eq!(seats[1].reminders, Some(vec![]));
    let r = ok(
        &svc,
        &bob(),
        Request::Reminders {
            game: None,
            mute: None,
            points: None,
        },
    )
    .await;
    assert!(r.text.contains("muted"), "{}", r.text);
    sent(&svc).await;

    let reminders = |msgs: Vec<OutMessage>| {
        msgs.into_iter()
            .filter(|m| m.text.starts_with("Reminder"))
            .map(|m| m.target)
            .collect::<Vec<_>>()
    };
    // The game's 24h point: alice has her own points, bob is muted.
    clock.set_ms(due - 24 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 0);
    clock.set_ms(due - 10 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1);
    assert_eq!(reminders(sent(&svc).await), vec![Target::Dm(UserId(1))]);
    assert_eq!(svc.tick().await.unwrap().reminders, 0, "once per point");

    // A changed point fires once, at its time; a point already sent does
    // not fire again.
    ok(
        &svc,
        &alice(),
        Request::Reminders {
            game: None,
            mute: None,
            points: Some(vec![10 * HOUR_MS, 5 * HOUR_MS]),
        },
    )
    .await;
    clock.set_ms(due - 5 * HOUR_MS - 1);
    assert_eq!(svc.tick().await.unwrap().reminders, 0);
    clock.set_ms(due - 5 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1);
    assert_eq!(reminders(sent(&svc).await), vec![Target::Dm(UserId(1))]);
    assert_eq!(svc.tick().await.unwrap().reminders, 0);

    // Bob goes back to the game's points: the 24h point already passed is
    // skipped, the 2h point reaches him (and only him).
    ok(
        &svc,
        &bob(),
        Request::Reminders {
            game: None,
            mute: Some(false),
            points: None,
        },
    )
    .await;
    assert_eq!(svc.store().seats(game).await.unwrap()[1].reminders, None);
    assert_eq!(
        svc.tick().await.unwrap().reminders,
        0,
        "a passed point is not sent late"
    );
    clock.set_ms(due - 2 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1);
    assert_eq!(reminders(sent(&svc).await), vec![Target::Dm(UserId(2))]);
    clock.set_ms(due - HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 0);
}

#[tokio::test]
async fn old_reminded_arrays_still_count() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("legacy-reminded"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let p0 = phase(&svc, game).await;
    // Written by the first version: the 24h point was sent to everyone.
    assert!(svc
        .store()
        .set_reminded(game, i64::from(p0), &serde_json::json!([24 * HOUR_MS]))
        .await
        .unwrap());
    sent(&svc).await;
    clock.set_ms(T0 + 30 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 0, "the old array is read");
    clock.set_ms(T0 + 46 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1);
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(
        d.reminded,
        serde_json::json!([24 * HOUR_MS, [0, 2 * HOUR_MS], [1, 2 * HOUR_MS]])
    );
    // An extension re-arms both kinds of entries.
    ok(
        &svc,
        &alice(),
        Request::Extend {
            game: None,
            by_ms: 30 * HOUR_MS,
        },
    )
    .await;
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(d.reminded, serde_json::json!([]));
}

#[tokio::test]
async fn per_decision_deadlines_restart_the_clock_at_each_step() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("per-kind"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let before = svc.settings(game).await.unwrap();
    for (text, want) in [
        ("warp=2h", "its decisions are: turn, combat-card, losses, retreat"),
        ("combat-card=1m", "between 5m and"),
    ] {
        let msg = refused(
            &svc,
            &alice(),
            Request::Settings {
                game: None,
                change: SettingsChange {
                    deadline_by_kind: orrery::service::parse_kind_deadlines(text).unwrap(),
                    ..Default::default()
                },
            },
        )
        .await;
        assert!(msg.contains(want), "{text}: {msg}");
    }
    assert_eq!(svc.settings(game).await.unwrap(), before, "refusals change nothing");
    assert!(orrery::service::parse_kind_deadlines("combat-card").is_err());
    assert!(orrery::service::parse_kind_deadlines("combat-card=soon").is_err());

    set(
        &svc,
        &alice(),
        SettingsChange {
            deadline_by_kind: orrery::service::parse_kind_deadlines("combat-card=2h, retreat=30m").unwrap(),
            ..Default::default()
        },
    )
    .await;
    let r = ok(&svc, &bob(), Request::Status { game: None }).await;
    assert!(
        r.text.contains("deadline 2d per phase (combat-card 2h, retreat 30m)"),
        "{}",
        r.text
    );

    clock.set_ms(T0 + HOUR_MS);
    to_battle(&svc, game).await;
    let p = phase(&svc, game).await;
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(
        (d.phase, d.due_at),
        (i64::from(p), T0 + 3 * HOUR_MS),
        "the combat-card step has its own 2h"
    );
    clock.set_ms(T0 + 3 * HOUR_MS - 1);
    assert_eq!(svc.tick().await.unwrap().resolved, 0);
    clock.set_ms(T0 + 3 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    // Both cards were defaulted; the resolution stops at the next step,
    // which gets its own deadline (losses: the default length).
    let state = state_of(&svc, game).await;
    let kinds: Vec<String> = state.pending().into_iter().map(|p| p.kind).collect();
    assert_eq!(kinds, vec!["losses".to_string()]);
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(d.due_at, T0 + 3 * HOUR_MS + 48 * HOUR_MS);

    // Removing every per-kind length goes back to one deadline per phase.
    set(
        &svc,
        &alice(),
        SettingsChange {
            deadline_by_kind: orrery::service::parse_kind_deadlines("default").unwrap(),
            ..Default::default()
        },
    )
    .await;
    assert!(svc.settings(game).await.unwrap().deadline_by_kind.is_empty());
}

#[tokio::test]
async fn a_fixed_time_of_day_moves_deadlines_later() {
    use orrery::service::{parse_time_of_day, TimeOfDay};
    const DAY: i64 = 24 * HOUR_MS;
    // T0 is 22:13:20 UTC.
    let midnight = T0.div_euclid(DAY) * DAY;
    assert_eq!(T0 - midnight, 22 * HOUR_MS + 13 * 60_000 + 20_000);
    let six_pm = parse_time_of_day("18:00").unwrap().unwrap();
    assert_eq!(six_pm.next_at_or_after(T0), midnight + DAY + 18 * HOUR_MS);
    assert_eq!(
        six_pm.next_at_or_after(midnight + 18 * HOUR_MS),
        midnight + 18 * HOUR_MS
    );
    let plus2 = TimeOfDay::parse("18:00+02:00").unwrap();
    assert_eq!(plus2.next_at_or_after(midnight), midnight + 16 * HOUR_MS);
    let minus5 = TimeOfDay::parse("07:30-05:00").unwrap();
    assert_eq!(minus5.next_at_or_after(midnight), midnight + 12 * HOUR_MS + 30 * 60_000);
    assert_eq!(plus2.to_string(), "18:00+02:00");
    assert_eq!(six_pm.to_string(), "18:00 UTC");
    assert_eq!(parse_time_of_day("off").unwrap(), None);
    for bad in ["25:00", "18", "18:7", "6pm", "18:00+15:00", ""] {
        let e = parse_time_of_day(bad).unwrap_err();
        assert!(e.contains("HH:MM"), "{bad}: {e}");
    }

    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("time-of-day"), clock.clone()).await;
    lobby_in(&svc, CHANNEL).await;
    set(
        &svc,
        &alice(),
        SettingsChange {
            deadline_ms: Some(12 * HOUR_MS),
            time_of_day: Some(Some(plus2)),
            ..Default::default()
        },
    )
    .await;
    ok(&svc, &alice(), Request::Start { game: None }).await;
    let game = svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id;
    // now + 12h = 10:13 UTC the next day; moved later to 16:00 UTC.
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(d.due_at, midnight + DAY + 16 * HOUR_MS);
    let r = ok(&svc, &bob(), Request::Status { game: None }).await;
    assert!(r.text.contains("deadlines at 18:00+02:00"), "{}", r.text);

    // Never earlier than now + length: at 05:00 UTC, +12h is 17:00 UTC,
    // past today's 16:00, so the deadline is tomorrow's.
    clock.set_ms(midnight + DAY + 5 * HOUR_MS);
    ok(
        &svc,
        &alice(),
        Request::Order {
            game: None,
            kind: None,
            line: orrery::engine::CommandLine::parse("end").unwrap(),
        },
    )
    .await;
    let d = svc.store().deadline(game).await.unwrap().unwrap();
    assert_eq!(d.due_at, midnight + 2 * DAY + 16 * HOUR_MS);
}

/// A game in a battle with auto-resolve off; returns it with the outbox
/// drained.
async fn drafting_game(svc: &Service) -> GameId {
    let game = started_in(svc, CHANNEL).await;
    set(
        svc,
        &alice(),
        SettingsChange {
            auto_resolve: Some(false),
            ..Default::default()
        },
    )
    .await;
    // Non-secret decisions are unaffected: the turn order goes straight in.
    let s0 = seq(svc, game).await;
    to_battle(svc, game).await;
    assert!(seq(svc, game).await > s0);
    sent(svc).await;
    game
}

#[tokio::test]
async fn drafts_are_revised_marked_ready_and_submitted_together() {
    drafts_are_revised_marked_ready_and_submitted_together_on(&db_url("drafts")).await;
}

async fn drafts_are_revised_marked_ready_and_submitted_together_on(url: &str) {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(url, clock.clone()).await;
    let game = drafting_game(&svc).await;
    let s0 = seq(&svc, game).await;
    let a_cards = cards_of(&svc, game, 1).await;
    let b_cards = cards_of(&svc, game, 2).await;

    // Nothing to mark ready yet.
    let msg = refused(&svc, &bob(), Request::Ready { game: None }).await;
    assert!(msg.contains("no draft"), "{msg}");

    let r = ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    assert!(r.ephemeral && r.text.contains("Draft saved"), "{}", r.text);
    assert_eq!(seq(&svc, game).await, s0, "a draft is not in the log");
    assert!(state_of(&svc, game).await.pending().iter().all(|p| !p.submitted));
    let msgs = sent(&svc).await;
    assert_eq!(
        channel_texts(&msgs),
        vec![format!("alice has a draft for game {game} (not ready).")]
    );

    // Revise: no new post while not ready; an illegal card is refused and
    // the draft stays.
    let last = a_cards.last().unwrap();
    ok(&svc, &in_dm(1, "alice"), order_req(last)).await;
    let bad = orrery::engine::CommandLine::parse("card name:Nonsense").unwrap();
    refused(&svc, &in_dm(1, "alice"), order_req(&bad)).await;
    let drafts = svc.store().drafts(game).await.unwrap();
    assert_eq!(drafts.len(), 1);
    assert_eq!((drafts[0].line.clone(), drafts[0].ready), (last.to_string(), false));
    assert!(sent(&svc).await.is_empty());

    let r = ok(&svc, &in_dm(1, "alice"), Request::Ready { game: None }).await;
    assert!(r.text.contains("final"), "{}", r.text);
    let msg = refused(&svc, &in_dm(1, "alice"), Request::Ready { game: None }).await;
    assert!(msg.contains("already marked ready"), "{msg}");
    assert_eq!(
        channel_texts(&sent(&svc).await),
        vec![format!("alice is ready in game {game}.")]
    );
    assert_eq!(seq(&svc, game).await, s0);

    // Bob's errors never mention alice's draft.
    let msg = refused(&svc, &bob(), Request::Ready { game: None }).await;
    assert!(!msg.contains("alice") && !msg.contains(&last.to_string()), "{msg}");
    let r = ok(&svc, &bob(), Request::Status { game: None }).await;
    assert!(r.text.contains("Drafts: alice (ready)"), "{}", r.text);
    assert!(!r.text.contains(&last.to_string()), "{}", r.text);

    ok(&svc, &in_dm(2, "bob"), order_req(&b_cards[0])).await;
    // A pending ready draft never triggers an early default.
    let due = svc.store().deadline(game).await.unwrap().unwrap().due_at;
    clock.set_ms(due - 1);
    let report = svc.tick().await.unwrap();
    assert_eq!(report.resolved, 0);
    assert_eq!(seq(&svc, game).await, s0);
    // Reminders: none for alice (ready); bob's says his draft is not final.
    assert_eq!(report.reminders, 1);
    let msgs = sent(&svc).await;
    assert!(dms_to(&msgs, 1).is_empty(), "{msgs:#?}");
    let to_bob = dms_to(&msgs, 2);
    assert!(to_bob.len() == 1 && to_bob[0].contains("not final"), "{to_bob:?}");

    ok(&svc, &bob(), Request::Ready { game: None }).await;
    assert!(seq(&svc, game).await > s0, "everyone ready: submitted");
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let state = state_of(&svc, game).await;
    assert!(
        state.pending().iter().all(|p| p.kind != "combat-card"),
        "the battle went on"
    );
    let msgs = sent(&svc).await;
    let posts = channel_texts(&msgs).join("\n");
    assert!(posts.contains("Everyone is ready"), "{posts}");
    let alice_card = last.get("name").unwrap();
    assert!(
        posts.contains(&format!("alice played the {alice_card} (")),
        "the revised card: {posts}"
    );
}

#[tokio::test]
async fn the_deadline_submits_drafts_and_defaults_the_rest() {
    the_deadline_submits_drafts_and_defaults_the_rest_on(&db_url("draft-deadline")).await;
}

async fn the_deadline_submits_drafts_and_defaults_the_rest_on(url: &str) {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(url, clock.clone()).await;
    let game = drafting_game(&svc).await;
    let a_cards = cards_of(&svc, game, 1).await;
    let pick = a_cards.last().unwrap().clone();
    ok(&svc, &in_dm(1, "alice"), order_req(&pick)).await; // not marked ready
    sent(&svc).await;
    let due = svc.store().deadline(game).await.unwrap().unwrap().due_at;
    clock.set_ms(due);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let msgs = sent(&svc).await;
    let posts = channel_texts(&msgs).join("\n");
    assert!(posts.contains("alice's draft was submitted"), "{posts}");
    assert!(posts.contains("bob's secret choice was made by default"), "{posts}");
    assert!(
        posts.contains(&format!("alice played the {} (", pick.get("name").unwrap())),
        "{posts}"
    );
    assert!(
        !posts.contains(&pick.to_string()),
        "the draft's text is never posted: {posts}"
    );
}

#[tokio::test]
async fn channel_output_does_not_depend_on_draft_contents() {
    let mut outputs = Vec::new();
    for variant in 0..2 {
        let clock = Arc::new(ManualClock::new(T0));
        let svc = service_on(&db_url(&format!("draft-secret-{variant}")), clock.clone()).await;
        let game = drafting_game(&svc).await;
        let cards = cards_of(&svc, game, 1).await;
        assert!(cards.len() >= 2);
        let (first, second) = if variant == 0 {
            (&cards[0], &cards[1])
        } else {
            (&cards[1], &cards[0])
        };
        let mut channel = Vec::new();
        let mut replies_to_bob = Vec::new();
        ok(&svc, &at(CHANNEL, 1, "alice"), order_req(first)).await;
        ok(&svc, &at(CHANNEL, 1, "alice"), order_req(second)).await;
        ok(&svc, &alice(), Request::Ready { game: None }).await;
        for req in [Request::Ready { game: None }, Request::Status { game: None }] {
            replies_to_bob.push(match svc.handle(&bob(), req).await {
                Ok(r) => r.text.to_plain(),
                Err(e) => e.to_string(),
            });
        }
        replies_to_bob.push(ok(&svc, &in_dm(2, "bob"), Request::MyGames).await.text.to_plain());
        let msgs = sent(&svc).await;
        channel.extend(channel_texts(&msgs));
        assert!(dms_to(&msgs, 2).is_empty(), "bob learns nothing by DM");
        outputs.push((channel, replies_to_bob));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0].0.len(), 2, "{:?}", outputs[0].0);
}

#[tokio::test]
async fn drafts_of_an_older_position_are_discarded_and_the_player_told() {
    drafts_of_an_older_position_are_discarded_and_the_player_told_on(&db_url("draft-stale")).await;
}

async fn drafts_of_an_older_position_are_discarded_and_the_player_told_on(url: &str) {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(url, clock.clone()).await;
    let game = drafting_game(&svc).await;
    let a_cards = cards_of(&svc, game, 1).await;
    ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    ok(&svc, &in_dm(1, "alice"), Request::Ready { game: None }).await;
    sent(&svc).await;
    // The log moved under the draft (as an undo does).
    sqlx::query("UPDATE drafts SET seq = seq - 1 WHERE game_id = $1")
        .bind(game.0)
        .execute(svc.store().pool())
        .await
        .unwrap();
    let msg = refused(&svc, &in_dm(1, "alice"), Request::Ready { game: None }).await;
    assert!(msg.contains("Submit your order again"), "{msg}");
    clock.advance_ms(60_000);
    svc.tick().await.unwrap();
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let msgs = sent(&svc).await;
    let to_alice = dms_to(&msgs, 1);
    assert_eq!(to_alice.len(), 1, "{msgs:#?}");
    assert!(to_alice[0].contains("submit your order again"), "{}", to_alice[0]);
    assert!(channel_texts(&msgs).is_empty());
    svc.tick().await.unwrap();
    assert!(sent(&svc).await.is_empty(), "told once");
    // A new draft is kept.
    ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    assert_eq!(svc.store().drafts(game).await.unwrap().len(), 1);
}

/// Per-decision lengths are keyed on `GameKind::decision_kinds`: the kinds
/// a ruleset asks for in random play are exactly its list (random games
/// are played until every listed kind was asked, at most 40; a rare kind,
/// such as Solar Crisis' Espionage pick, may take a few).
#[test]
fn decision_kinds_cover_every_pending_kind() {
    for &kind in GameKind::ALL {
        let listed: std::collections::BTreeSet<String> = kind.decision_kinds().iter().map(|k| k.to_string()).collect();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40u64 {
            if seen == listed {
                break;
            }
            // Two players at least: Space Empires' solitaire has no bid,
            // so no `first`.
            let players = (*kind.player_counts().start()).max(2);
            let events = kind.setup(&orrery::engine::GameConfig::new(players, seed)).unwrap();
            let mut state = kind.fold(&events).unwrap();
            let mut rng = orrery::engine::GameRng::seeded(seed + 100);
            for _ in 0..3000 {
                if state.outcome().is_some() {
                    break;
                }
                let pending = state.pending();
                seen.extend(pending.iter().map(|p| p.kind.clone()));
                let p = pending.iter().find(|p| !p.submitted).expect("someone owes");
                let line = rng.pick(&state.legal_commands(p.seat)).unwrap().clone();
                for e in state.decide(p.seat, &line).unwrap() {
                    state.apply(&e).unwrap();
                }
            }
        }
        // Kinds asked only under a set-up option random play does not
        // reach: Space Empires' minefields (`mines`, advanced rule 13;
        // scenario empires/165 shows the decision asked).
        let option_only: std::collections::BTreeSet<String> = match kind {
            GameKind::Empires => ["mines".to_string()].into(),
            _ => Default::default(),
        };
        assert!(
            seen.is_subset(&listed),
            "{kind}: kinds asked in play but not listed: {seen:?} vs {listed:?}"
        );
        let unseen: std::collections::BTreeSet<String> = listed.difference(&seen).cloned().collect();
        assert!(
            unseen.is_subset(&option_only),
            "{kind}: kinds listed but never asked in play: {unseen:?}"
        );
    }
}

#[tokio::test]
async fn turning_auto_resolve_back_on_submits_the_drafts() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("draft-flush"), clock.clone()).await;
    let game = drafting_game(&svc).await;
    let s0 = seq(&svc, game).await;
    let a_cards = cards_of(&svc, game, 1).await;
    ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    sent(&svc).await;
    let msg = refused(&svc, &bob(), Request::Ready { game: None }).await;
    assert!(msg.contains("no draft"), "{msg}");
    set(
        &svc,
        &alice(),
        SettingsChange {
            auto_resolve: Some(true),
            ..Default::default()
        },
    )
    .await;
    assert!(seq(&svc, game).await > s0, "alice's draft is in the log now");
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let pending = state_of(&svc, game).await.pending();
    let mine = pending.iter().find(|p| p.seat.0 == 0).unwrap();
    let bobs = pending.iter().find(|p| p.seat.0 == 1).unwrap();
    assert!(mine.submitted && !bobs.submitted, "{pending:?}");
    let posts = channel_texts(&sent(&svc).await).join("\n");
    assert!(posts.contains("auto-resolve on"), "{posts}");
    assert!(posts.contains("the drafts of alice were submitted"), "{posts}");
    assert!(!posts.contains(&a_cards[0].to_string()), "{posts}");
    let msg = refused(&svc, &bob(), Request::Ready { game: None }).await;
    assert!(msg.contains("auto-resolve on"), "{msg}");
    // Bob's card now goes straight in and the battle resolves.
    let b_cards = cards_of(&svc, game, 2).await;
    ok(&svc, &in_dm(2, "bob"), order_req(&b_cards[0])).await;
    assert!(state_of(&svc, game)
        .await
        .pending()
        .iter()
        .all(|p| p.kind != "combat-card"));
}

#[tokio::test]
async fn an_undo_discards_drafts_and_tells_their_players() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("draft-undo"), clock.clone()).await;
    let game = drafting_game(&svc).await;
    let a_cards = cards_of(&svc, game, 1).await;
    ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    ok(&svc, &in_dm(2, "bob"), order_req(&cards_of(&svc, game, 2).await[0])).await;
    ok(&svc, &in_dm(2, "bob"), Request::Ready { game: None }).await;
    let s0 = seq(&svc, game).await;
    sent(&svc).await;
    // The host undoes the order that started the battle.
    ok(&svc, &alice(), Request::Undo { game: None }).await;
    assert!(seq(&svc, game).await > s0, "an undo is a new log entry");
    assert!(state_of(&svc, game)
        .await
        .pending()
        .iter()
        .all(|p| p.kind != "combat-card"));
    sent(&svc).await;
    svc.tick().await.unwrap();
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let msgs = sent(&svc).await;
    for user in [1, 2] {
        let dms = dms_to(&msgs, user);
        assert!(
            dms.len() == 1 && dms[0].contains("submit your order again"),
            "{user}: {dms:?}"
        );
    }
    assert!(
        channel_texts(&msgs)
            .iter()
            .all(|t| !t.contains(&a_cards[0].to_string())),
        "{msgs:#?}"
    );
}

/// Civil disorder while players draft: the automatic seat's secret choice
/// waits (the drafts stay), counts as ready, and is played together with
/// the drafts once the players are ready.
#[tokio::test]
async fn a_seat_in_civil_disorder_waits_for_the_drafts_and_counts_as_ready() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("disorder-drafts"), clock).await;
    let game = drafting_game(&svc).await;
    let s0 = seq(&svc, game).await;
    let a_cards = cards_of(&svc, game, 1).await;
    ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    // bob goes into civil disorder in the middle of the battle.
    ok(
        &svc,
        &alice(),
        Request::Disorder {
            game: None,
            seat: orrery::engine::Seat(1).into(),
            on: true,
        },
    )
    .await;
    assert_eq!(seq(&svc, game).await, s0, "bob's secret choice waits for alice's draft");
    assert_eq!(svc.store().drafts(game).await.unwrap().len(), 1, "alice's draft stays");
    let msgs = sent(&svc).await;
    assert!(dms_to(&msgs, 1).iter().all(|t| !t.contains("again")), "{msgs:#?}");

    // alice is ready, and bob counts as ready: both choices go in at once.
    ok(&svc, &in_dm(1, "alice"), Request::Ready { game: None }).await;
    assert!(seq(&svc, game).await > s0);
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let state = state_of(&svc, game).await;
    assert!(
        state.pending().iter().all(|p| p.kind != "combat-card"),
        "the battle went on"
    );
    let posts = channel_texts(&sent(&svc).await).join("\n");
    assert!(posts.contains("Everyone is ready"), "{posts}");
    assert!(
        posts.contains("Civil disorder") && posts.contains("bob: a secret choice"),
        "{posts}"
    );
}

/// A player's own points changed while the game is paused: points already
/// behind the time left are not sent late after the resume.
#[tokio::test]
async fn own_points_set_while_paused_are_not_sent_late() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("paused-points"), clock.clone()).await;
    let game = started_in(&svc, CHANNEL).await;
    let owing = state_of(&svc, game).await.pending()[0].seat;
    let user = u64::from(owing.0) + 1;
    clock.set_ms(T0 + 38 * HOUR_MS);
    ok(&svc, &alice(), Request::Pause { game: None }).await;
    ok(
        &svc,
        &at(CHANNEL, user, name_of(user)),
        Request::Reminders {
            game: None,
            mute: None,
            points: Some(vec![12 * HOUR_MS, HOUR_MS]),
        },
    )
    .await;
    clock.set_ms(T0 + 138 * HOUR_MS);
    ok(&svc, &alice(), Request::Resume { game: None }).await;
    sent(&svc).await;
    let due = svc.store().deadline(game).await.unwrap().unwrap().due_at;
    assert_eq!(due, T0 + 148 * HOUR_MS, "the 10 h that were left");
    assert_eq!(
        svc.tick().await.unwrap().reminders,
        0,
        "12 h before had passed: not sent late"
    );
    assert!(dms_to(&sent(&svc).await, user).is_empty());
    clock.set_ms(due - HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().reminders, 1, "1 h before: sent");
    assert_eq!(dms_to(&sent(&svc).await, user).len(), 1);
}

/// The drafts waited only on a player who then goes into civil disorder:
/// they go in at once, with the new automatic seat's default.
#[tokio::test]
async fn civil_disorder_for_the_last_unready_player_submits_the_drafts() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("disorder-last"), clock).await;
    let game = drafting_game(&svc).await;
    let s0 = seq(&svc, game).await;
    let a_cards = cards_of(&svc, game, 1).await;
    ok(&svc, &in_dm(1, "alice"), order_req(&a_cards[0])).await;
    ok(&svc, &in_dm(1, "alice"), Request::Ready { game: None }).await;
    assert_eq!(seq(&svc, game).await, s0, "waiting on bob");
    sent(&svc).await;
    ok(
        &svc,
        &alice(),
        Request::Disorder {
            game: None,
            seat: orrery::engine::Seat(1).into(),
            on: true,
        },
    )
    .await;
    assert!(seq(&svc, game).await > s0, "submitted at once");
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    let state = state_of(&svc, game).await;
    assert!(
        state.pending().iter().all(|p| p.kind != "combat-card"),
        "the battle went on"
    );
    let posts = channel_texts(&sent(&svc).await).join("\n");
    assert!(posts.contains("Everyone is ready"), "{posts}");
    assert!(posts.contains("bob: a secret choice"), "{posts}");
}
