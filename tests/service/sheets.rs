//! Order sheets through the service (Spectrum War's sections): lines added,
//! replaced and removed by DM, the sheet shown in the seat's prompt, ready
//! and un-ready, the channel learning only who is ready, a restart keeping
//! every line, the deadline counting sheets as they stand, and auto-resolve
//! off leaving sheets alone. SQLite in a temporary file, manual clock.

use orrery::engine::{CommandLine, GameId, SheetVerb};
use orrery::games::{AnyState, GameKind};
use orrery::service::{Actor, ManualClock, OutMessage, Request, Service, SettingsChange, Target, HOUR_MS};
use orrery::store::Store;
use std::sync::Arc;

use crate::common::{at, db_url, in_dm, ok, refused, sent, seq, state, T0};

const CHANNEL: u64 = 700;

async fn service_on(url: &str, clock: Arc<ManualClock>) -> Service {
    let store = Store::connect(url).await.expect("store");
    Service::new(store, clock)
}

fn alice() -> Actor {
    in_dm(1, "alice")
}
fn bob() -> Actor {
    in_dm(2, "bob")
}

fn line(text: &str) -> CommandLine {
    CommandLine::parse(text).expect("a command line")
}

fn spectrum(game: GameId, text: &str) -> Request {
    Request::Order {
        game: Some(game),
        kind: Some(GameKind::Spectrum),
        line: line(text),
    }
}

fn sheet(game: GameId, verb: SheetVerb) -> Request {
    Request::Sheet { game: Some(game), verb }
}

async fn new_war(svc: &Service) -> GameId {
    crate::common::started(svc, CHANNEL, GameKind::Spectrum, 1, &["alice", "bob"]).await
}

/// Seat `i`'s home planet's name, and its sheet as the state holds it.
async fn home(svc: &Service, game: GameId, i: usize) -> String {
    match state(svc, game).await {
        AnyState::Spectrum(s) => s.map.planets[s.map.homes[i]].name.clone(),
        _ => unreachable!(),
    }
}

async fn lines_of(svc: &Service, game: GameId, i: u8) -> Vec<String> {
    match state(svc, game).await {
        AnyState::Spectrum(s) => orrery::games::spectrum::view::sheet_lines(
            &s,
            orrery::engine::Seat(i),
            &["alice".to_string(), "bob".to_string()],
        ),
        _ => unreachable!(),
    }
}

fn channel_texts(out: &[OutMessage]) -> Vec<String> {
    out.iter()
        .filter(|m| m.target == Target::Channel(CHANNEL))
        .map(|m| m.full_text().to_plain())
        .collect()
}

fn dm_texts(out: &[OutMessage], user: u64) -> Vec<String> {
    out.iter()
        .filter(|m| m.target == Target::Dm(orrery::engine::UserId(user)))
        .map(|m| m.full_text().to_plain())
        .collect()
}

#[tokio::test]
async fn lines_are_written_shown_readied_and_kept_across_a_restart() {
    let url = db_url("sheets");
    let clock = Arc::new(ManualClock::new(T0));
    let (game, vega) = {
        let svc = service_on(&url, clock.clone()).await;
        let game = new_war(&svc).await;
        sent(&svc).await;
        let vega = home(&svc, game, 0).await;
        // Three lines, each checked as written; nothing reaches the channel.
        ok(
            &svc,
            &alice(),
            spectrum(game, &format!("build class:fighter at:{vega}")),
        )
        .await;
        ok(&svc, &alice(), spectrum(game, &format!("build class:scout at:{vega}"))).await;
        let out = sent(&svc).await;
        assert!(channel_texts(&out).is_empty(), "{:?}", channel_texts(&out));
        // The prompt, edited in place, shows the sheet.
        let prompt = dm_texts(&out, 1).join("\n");
        assert!(prompt.contains("Your sheet (2):"), "{prompt}");
        assert!(prompt.contains("2. build a scout at"), "{prompt}");
        // A line over budget is refused, explains itself, and changes nothing.
        let before = seq(&svc, game).await;
        let why = refused(
            &svc,
            &alice(),
            spectrum(game, &format!("build class:cruiser at:{vega}")),
        )
        .await;
        assert!(
            why.contains("would cost 19 points") && why.contains("you have 10"),
            "{why}"
        );
        assert_eq!(seq(&svc, game).await, before);
        // Not a planet of hers: a different, specific error.
        let theirs = home(&svc, game, 1).await;
        let why = refused(
            &svc,
            &alice(),
            spectrum(game, &format!("build class:fighter at:{theirs}")),
        )
        .await;
        assert!(why.contains(&format!("you do not own {theirs}")), "{why}");
        // Can't read it at all: a parse error, not a rule.
        let why = refused(&svc, &alice(), spectrum(game, "build class:dreadnought at:Vega")).await;
        assert!(why.contains("not a class of ship"), "{why}");
        // Replace line 2 and remove line 1.
        ok(
            &svc,
            &alice(),
            spectrum(game, &format!("build class:terraformer at:{vega} line:2")),
        )
        .await;
        ok(&svc, &alice(), sheet(game, SheetVerb::Remove(1))).await;
        assert_eq!(
            lines_of(&svc, game, 0).await,
            vec![format!("1. build a terraformer at {vega} (4 points)")]
        );
        let why = refused(&svc, &alice(), sheet(game, SheetVerb::Remove(5))).await;
        assert!(why.contains("no line 5") && why.contains("it has 1"), "{why}");
        // Ready: the channel learns that, and only that.
        sent(&svc).await;
        ok(&svc, &alice(), Request::Ready { game: Some(game) }).await;
        let out = sent(&svc).await;
        let channel = channel_texts(&out).join("\n");
        assert!(
            !channel.contains("terraformer") && !channel.contains(&vega),
            "{channel}"
        );
        assert!(
            channel.contains("bob"),
            "the footer names whom the game waits on: {channel}"
        );
        assert!(!channel.contains("🔔"), "readiness pings nobody: {channel}");
        let why = refused(&svc, &alice(), Request::Ready { game: Some(game) }).await;
        assert!(why.contains("already ready"), "{why}");
        // Un-ready, and ready again; an edit also takes readiness back.
        ok(&svc, &alice(), sheet(game, SheetVerb::Unready)).await;
        let out = sent(&svc).await;
        assert!(
            !channel_texts(&out).join("\n").contains("🔔"),
            "un-readying one's own sheet pings nobody"
        );
        let why = refused(&svc, &alice(), sheet(game, SheetVerb::Unready)).await;
        assert!(why.contains("not marked ready"), "{why}");
        ok(&svc, &alice(), Request::Ready { game: Some(game) }).await;
        svc.store().close().await;
        (game, vega)
    };
    // The bot restarts: every line and the ready mark are still there.
    let svc = service_on(&url, clock.clone()).await;
    assert_eq!(
        lines_of(&svc, game, 0).await,
        vec![format!("1. build a terraformer at {vega} (4 points)")]
    );
    let AnyState::Spectrum(s) = state(&svc, game).await else {
        unreachable!()
    };
    assert!(s.sheet.is_ready(orrery::engine::Seat(0)));
    // Bob's empty sheet, ready: the section is carried out.
    ok(&svc, &bob(), Request::Ready { game: Some(game) }).await;
    let AnyState::Spectrum(s) = state(&svc, game).await else {
        unreachable!()
    };
    assert_eq!(s.ships.len(), 1, "alice's terraformer was built");
    assert_eq!(s.points[0], 6, "10 points less the terraformer's 4");
    assert_eq!(s.section.kind(), "movement");
    // Clear: nothing to clear on an empty sheet.
    let why = refused(&svc, &alice(), sheet(game, SheetVerb::Clear)).await;
    assert!(why.contains("already empty"), "{why}");
    // Bob has no ship, but owes a movement sheet too (who has ships is
    // secret): an empty sheet he can only mark ready.
    let why = refused(&svc, &bob(), sheet(game, SheetVerb::Clear)).await;
    assert!(why.contains("already empty"), "{why}");
    let AnyState::Spectrum(s) = state(&svc, game).await else {
        unreachable!()
    };
    assert!(s.sheet.owes(orrery::engine::Seat(1)) && !s.sheet.is_ready(orrery::engine::Seat(1)));
}

#[tokio::test]
async fn the_deadline_counts_each_sheet_as_it_stands() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("sheets-deadline"), clock.clone()).await;
    let game = new_war(&svc).await;
    let vega = home(&svc, game, 0).await;
    ok(
        &svc,
        &alice(),
        spectrum(game, &format!("build class:fighter at:{vega}")),
    )
    .await;
    ok(&svc, &bob(), Request::Ready { game: Some(game) }).await;
    sent(&svc).await;
    clock.set_ms(T0 + 30 * 24 * HOUR_MS);
    assert_eq!(svc.tick().await.unwrap().resolved, 1);
    let AnyState::Spectrum(s) = state(&svc, game).await else {
        unreachable!()
    };
    assert_eq!(s.ships.len(), 1, "alice's unready line counted");
    let out = sent(&svc).await;
    let channel = channel_texts(&out).join("\n");
    assert!(
        channel.contains("The sheets of alice counted as they stood"),
        "{channel}"
    );
    assert!(!channel.contains("fighter"), "{channel}");
    // As the new section begins, alice (whose sheet built a fighter) gets
    // her own board by DM; bob, who learnt nothing new, gets his prompt
    // without one.
    let boarded = |user: u64| {
        out.iter().any(|m| {
            m.target == Target::Dm(orrery::engine::UserId(user))
                && m.board
                    .as_ref()
                    .is_some_and(|b| b.viewer == orrery::engine::Viewer::Seat(orrery::engine::Seat(user as u8 - 1)))
        })
    };
    assert!(boarded(1), "alice got no private board");
    assert!(!boarded(2), "bob got a board that shows him nothing new");
    assert!(
        out.iter().any(|m| m.target == Target::Dm(orrery::engine::UserId(2))),
        "bob's prompt"
    );
    assert!(
        out.iter().filter(|m| m.target == Target::Channel(CHANNEL)).all(|m| m
            .board
            .as_ref()
            .is_none_or(|b| b.viewer == orrery::engine::Viewer::Public)),
        "the channel gets the public board only"
    );
}

#[tokio::test]
async fn auto_resolve_off_leaves_sheets_to_their_ready_marks() {
    let clock = Arc::new(ManualClock::new(T0));
    let svc = service_on(&db_url("sheets-off"), clock.clone()).await;
    let game = new_war(&svc).await;
    ok(
        &svc,
        &at(CHANNEL, 1, "alice"),
        Request::Settings {
            game: None,
            change: SettingsChange {
                auto_resolve: Some(false),
                ..Default::default()
            },
        },
    )
    .await;
    let vega = home(&svc, game, 0).await;
    // A line is written to the log at once: sheets are never drafts.
    let before = seq(&svc, game).await;
    ok(
        &svc,
        &alice(),
        spectrum(game, &format!("build class:fighter at:{vega}")),
    )
    .await;
    assert_eq!(seq(&svc, game).await, before + 1);
    assert!(svc.store().drafts(game).await.unwrap().is_empty());
    ok(&svc, &alice(), Request::Ready { game: Some(game) }).await;
    ok(&svc, &bob(), Request::Ready { game: Some(game) }).await;
    let AnyState::Spectrum(s) = state(&svc, game).await else {
        unreachable!()
    };
    assert_eq!(s.ships.len(), 1);
    assert_eq!(s.section.kind(), "movement");
}

/// Two wars from the same seed where alice writes different sheets (then
/// both ready, as bob does): until the sheets are carried out, the channel
/// and bob read exactly the same messages.
#[tokio::test]
async fn two_wars_differing_in_one_sheet_read_the_same_to_others() {
    let mut seen: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for lines in [
        vec!["build class:fighter"],
        vec!["build class:scout", "build class:terraformer"],
    ] {
        let clock = Arc::new(ManualClock::new(T0));
        let svc = service_on(&db_url("sheets-twin"), clock.clone()).await;
        let game = new_war(&svc).await;
        let vega = home(&svc, game, 0).await;
        sent(&svc).await;
        ok(&svc, &bob(), Request::Ready { game: Some(game) }).await;
        for l in &lines {
            ok(&svc, &alice(), spectrum(game, &format!("{l} at:{vega}"))).await;
        }
        ok(&svc, &alice(), sheet(game, SheetVerb::Remove(1))).await;
        ok(&svc, &alice(), spectrum(game, &format!("{} at:{vega}", lines[0]))).await;
        let out = sent(&svc).await;
        seen.push((channel_texts(&out), dm_texts(&out, 2)));
    }
    assert_eq!(seen[0], seen[1], "others read alice's sheet");
    assert!(
        !seen[0].0.is_empty() || !seen[0].1.is_empty(),
        "something was said at all"
    );
}
