//! Async play through the fake Discord: the unchanged `orrery bot` with
//! its clock read from a file the test moves (`ORRERY_CLOCK_FILE`), so
//! deadlines and reminders pass without waiting. Host tools refuse others
//! ephemerally and change nothing; reminders come once per point; pause
//! stops the clock; extension; a missed deadline applies defaults; undo
//! and history reproduce earlier boards exactly; a replacement gets the
//! seat's private view; spectators get public boards; an overdue deadline
//! resolves right after a restart.

use crate::support::{Harness, Message, Place, User};
use orrery::engine::{GameId, Seat, Viewer};
use orrery::service::{BoardRef, Service, SystemClock};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const H: i64 = 3_600_000;
const WAIT: Duration = Duration::from_secs(30);

fn png(m: &Message) -> Vec<u8> {
    assert_eq!(m.attachments.len(), 1, "one attachment: {}", m.content);
    m.attachments[0].data.clone()
}

/// Messages in `user`'s DMs whose text contains `needle`.
fn dms_with(h: &Harness, user: &User, needle: &str) -> Vec<Message> {
    h.fake.read(|w| {
        w.dm_channel_of(user.id)
            .map(|dm| {
                w.messages_in(dm)
                    .into_iter()
                    .filter(|m| m.content.contains(needle))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Wait for a public post in `channel` containing `needle`, newer than
/// `after` posts.
async fn post_with(h: &Harness, channel: u64, needle: &str, after: usize) -> Message {
    let needle = needle.to_string();
    h.fake
        .wait_for(&format!("a post saying `{needle}`"), WAIT, |w| {
            w.messages_in(channel)
                .into_iter()
                .filter(|m| !m.ephemeral())
                .skip(after)
                .find(|m| m.content.contains(&needle))
                .cloned()
        })
        .await
}

fn post_count(h: &Harness, channel: u64) -> usize {
    h.fake
        .read(|w| w.messages_in(channel).into_iter().filter(|m| !m.ephemeral()).count())
}

async fn render(h: &Harness, game: GameId, viewer: Viewer, seq: i64) -> Vec<u8> {
    let svc = Service::new(h.store().await.clone(), Arc::new(SystemClock));
    svc.render(&BoardRef { game, viewer, seq }).await.expect("render")
}

async fn due_at(h: &Harness, game: GameId) -> i64 {
    h.store()
        .await
        .deadline(game)
        .await
        .unwrap()
        .expect("a running deadline")
        .due_at
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_tools_and_deadlines_through_discord() {
    let mut h = Harness::start().await;
    let t0: i64 = 1_900_000_000_000;
    h.set_clock(t0);
    let chan = h.fake.add_channel("async");
    let here = Place::Channel(chan);
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let carol = h.fake.add_user("carol");
    let dave = h.fake.add_user("dave");
    let mut t = h.open_game(chan, &[alice.clone(), bob.clone()], None).await;
    let game = t.game;
    h.wait_outbox_drained(WAIT).await;
    assert_eq!(
        due_at(&h, game).await,
        t0 + 48 * H,
        "the first phase has the default 48 h"
    );

    // Every host tool, asked by a player who is not the host: an ephemeral
    // refusal, and nothing changes.
    let settings_before = h.store().await.game_settings(game).await.unwrap();
    let snap = h.snapshot(game).await;
    let attempts: Vec<(&str, Vec<(&str, Value)>)> = vec![
        ("host pause", vec![]),
        ("host resume", vec![]),
        ("host extend", vec![("by", json!("12h"))]),
        ("host force", vec![]),
        ("host settings", vec![("deadline", json!("24h"))]),
        ("host undo", vec![]),
        ("host rollback", vec![("phase", json!(1))]),
        (
            "host replace",
            vec![("seat", json!("1")), ("player", json!(carol.id.to_string()))],
        ),
        ("host kick", vec![("seat", json!("1"))]),
        ("host disorder", vec![("seat", json!("alice")), ("on", json!(true))]),
    ];
    for (path, opts) in &attempts {
        let ans = h.fake.run(&bob, here, path, opts).await;
        assert!(
            ans.ephemeral() && ans.content.contains("Only the host"),
            "/{path}: {}",
            ans.content
        );
    }
    h.wait_outbox_drained(WAIT).await;
    assert_eq!(h.snapshot(game).await, snap, "refusals change nothing");
    assert_eq!(h.store().await.game_settings(game).await.unwrap(), settings_before);
    assert_eq!(due_at(&h, game).await, t0 + 48 * H);

    // Reminders: once at 24 h before the deadline, once at 2 h before, only
    // to the seat that owes a decision.
    let owing = h.state(game).await.pending()[0].seat;
    let (owes, idle) = if owing == Seat(0) {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    h.set_clock(t0 + 24 * H);
    h.fake
        .wait_for("the 24 h reminder", WAIT, |w| {
            let dm = w.dm_channel_of(owes.id)?;
            w.messages_in(dm)
                .iter()
                .any(|m| m.content.contains("Reminder"))
                .then_some(())
        })
        .await;
    tokio::time::sleep(Duration::from_millis(1200)).await; // several more ticks
    assert_eq!(dms_with(&h, owes, "Reminder").len(), 1, "once per point");
    h.set_clock(t0 + 46 * H);
    h.fake
        .wait_for("the 2 h reminder", WAIT, |w| {
            let dm = w.dm_channel_of(owes.id)?;
            (w.messages_in(dm)
                .iter()
                .filter(|m| m.content.contains("Reminder"))
                .count()
                == 2)
                .then_some(())
        })
        .await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(dms_with(&h, owes, "Reminder").len(), 2);
    assert!(
        dms_with(&h, idle, "Reminder").is_empty(),
        "nothing for a seat that owes nothing"
    );

    // /mygames in DMs: what waits on you, and the deadline as timestamps.
    let mine = h.fake.run(owes, Place::Dm, "mygames", &[]).await;
    assert!(mine.ephemeral(), "{}", mine.content);
    assert!(
        mine.content.contains("Waiting on you") && mine.content.contains(&format!("<t:{}:R>", (t0 + 48 * H) / 1000)),
        "{}",
        mine.content
    );
    // /game status in the channel: the deadline as Discord timestamps, in
    // each reader's own time zone (the service sends a time, Discord's
    // renderer writes the markup).
    let status = h.fake.run(idle, here, "game status", &[]).await;
    let unix = (t0 + 48 * H) / 1000;
    assert!(
        status.content.contains(&format!("<t:{unix}:R> (<t:{unix}:f>)")),
        "{}",
        status.content
    );
    // A player mutes their own reminders.
    let ans = h.fake.run(idle, here, "game reminders", &[("mute", json!(true))]).await;
    assert!(ans.ephemeral() && ans.content.contains("muted"), "{}", ans.content);
    let idle_seat = if owing == Seat(0) { 1 } else { 0 };
    assert_eq!(
        h.store().await.seats(game).await.unwrap()[idle_seat].reminders,
        Some(vec![])
    );

    // Pause: the clock stops with 2 h left, even 100 h later.
    let seq0 = h.row(game).await.seq;
    let ans = h.fake.run(&alice, here, "host pause", &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("2h left"), "{}", ans.content);
    post_with(&h, chan, "paused game", 0).await;
    h.set_clock(t0 + 100 * H);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(h.row(game).await.seq, seq0, "nothing resolves while paused");
    let ans = h.fake.run(&alice, here, "host resume", &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("resumed"), "{}", ans.content);
    assert_eq!(due_at(&h, game).await, t0 + 102 * H, "the 2 h that were left");

    // Extend by 12 h.
    let ans = h.fake.run(&alice, here, "host extend", &[("by", json!("12h"))]).await;
    assert!(ans.ephemeral() && ans.content.contains("extended"), "{}", ans.content);
    assert_eq!(due_at(&h, game).await, t0 + 114 * H);
    h.set_clock(t0 + 114 * H - 1000);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(h.row(game).await.seq, seq0, "an extended deadline never fires early");

    // The deadline passes: the owing seat's default is played.
    let before = post_count(&h, chan);
    h.set_clock(t0 + 114 * H);
    let post = post_with(&h, chan, "Deadline passed", before).await;
    assert!(post.content.contains("defaulted to"), "{}", post.content);
    assert!(h.row(game).await.seq > seq0);
    h.wait_outbox_drained(WAIT).await;
    let now = t0 + 114 * H;

    // Undo: a player's order, then the host's undo; the board posted with
    // the undo is exactly the board from before the order.
    let s_before = h.row(game).await.seq;
    let board_before = render(&h, game, Viewer::Public, s_before).await;
    h.step(&t, None).await.expect("an order");
    assert!(h.row(game).await.seq > s_before);
    let before = post_count(&h, chan);
    let ans = h.fake.run(&alice, here, "host undo", &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("set aside"), "{}", ans.content);
    post_with(&h, chan, "undid the last action", before).await;
    let board_post = h
        .fake
        .wait_for("the board after the undo", WAIT, |w| {
            w.messages_in(chan)
                .into_iter()
                .filter(|m| !m.ephemeral())
                .skip(before)
                .find(|m| !m.attachments.is_empty())
                .cloned()
        })
        .await;
    assert_eq!(
        png(&board_post),
        board_before,
        "undo reproduces the earlier board exactly"
    );
    assert_eq!(
        h.store().await.events(game).await.unwrap().len() as i64,
        h.row(game).await.seq,
        "the log keeps everything"
    );
    assert_eq!(due_at(&h, game).await, now + 48 * H, "a fresh deadline after the undo");

    // History: the board after phase 1, as the channel saw it then.
    let hist = h.fake.run(&carol, here, "game history", &[("phase", json!(1))]).await;
    assert!(!hist.ephemeral(), "{}", hist.content);
    let first_board = h.fake.read(|w| {
        w.messages_in(chan)
            .into_iter()
            .find(|m| !m.ephemeral() && !m.attachments.is_empty())
            .cloned()
            .expect("the opening board")
    });
    assert_eq!(
        png(&hist),
        png(&first_board),
        "history rebuilds the opening board exactly"
    );

    // The phase log, in sentences.
    let log = h.fake.run(&carol, here, "game log", &[]).await;
    assert!(log.ephemeral() && log.content.contains("log of"), "{}", log.content);
    assert!(log.content.contains("undid"), "{}", log.content);

    // A spectator, then a replacement who gets the seat's private view.
    let ans = h.fake.run(&dave, here, "game watch", &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("watching"), "{}", ans.content);
    let seq_now = h.row(game).await.seq;
    let ans = h
        .fake
        .run(
            &alice,
            here,
            "host replace",
            &[("seat", json!("bob")), ("player", json!(carol.id.to_string()))],
        )
        .await;
    assert!(
        ans.ephemeral() && ans.content.contains("carol now plays"),
        "{}",
        ans.content
    );
    let view = h
        .fake
        .wait_for("carol's private view", WAIT, |w| {
            let dm = w.dm_channel_of(carol.id)?;
            w.messages_in(dm)
                .into_iter()
                .find(|m| m.content.contains("You now play") && !m.attachments.is_empty())
                .cloned()
        })
        .await;
    assert_eq!(
        png(&view),
        render(&h, game, Viewer::Seat(Seat(1)), seq_now).await,
        "the seat's private view"
    );
    assert!(!dms_with(&h, &bob, "gave your seat").is_empty());
    t.seats[1] = carol.clone();
    let mine = h
        .fake
        .run(&carol, Place::Dm, "game board", &[("game", json!(game.0))])
        .await;
    // In DMs the private board is a kept message, not an ephemeral one.
    assert!(!mine.ephemeral());
    assert_eq!(png(&mine), render(&h, game, Viewer::Seat(Seat(1)), seq_now).await);
    let theirs = h
        .fake
        .run(&bob, Place::Dm, "game board", &[("game", json!(game.0))])
        .await;
    assert!(
        theirs.ephemeral() && theirs.content.contains("not playing"),
        "{}",
        theirs.content
    );

    // Play on until the next phase: the spectator gets the public board.
    let phase = h.state(game).await.phase().number;
    h.play(&t, 40, |s| s.phase().number > phase).await;
    h.wait_outbox_drained(WAIT).await;
    let watched = dms_with(&h, &dave, "👁");
    assert!(!watched.is_empty(), "the spectator got the board");
    for m in &watched {
        assert!(m.components.is_empty());
        assert!(m.attachments.len() <= 1);
    }
    // Each board the spectator got is the channel's public board, byte for byte.
    let boards: Vec<&Message> = watched.iter().filter(|m| !m.attachments.is_empty()).collect();
    assert!(!boards.is_empty(), "with a board");
    for m in boards {
        // The channel's post has grown since (the phase's narration is
        // added to it, with a footer): it begins with the copy's text.
        let text = m.content.trim_start_matches("👁 ").to_string();
        let public = h.fake.read(|w| {
            w.messages_in(chan)
                .into_iter()
                .find(|p| !p.ephemeral() && p.content.starts_with(&text) && !p.attachments.is_empty())
                .cloned()
        });
        let public = public.unwrap_or_else(|| panic!("no channel post `{text}`"));
        assert_eq!(png(m), png(&public), "the spectator sees only the public board");
    }

    // Restart with an overdue deadline: it resolves at once.
    let due = due_at(&h, game).await;
    let seq1 = h.row(game).await.seq;
    h.kill_bot();
    h.set_clock(due + 5 * H);
    let before = post_count(&h, chan);
    h.restart_bot().await;
    post_with(&h, chan, "Deadline passed", before).await;
    assert!(h.row(game).await.seq > seq1);
    h.wait_outbox_drained(WAIT).await;
    h.assert_outbox_delivered_once().await;
}

/// Two bot processes share one PostgreSQL database (and one Discord): both
/// run their schedulers every 200 ms. When the deadlines of three games
/// pass at once, each phase is resolved exactly once and every message is
/// posted once. Skipped without `TEST_POSTGRES_URL`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_on_one_postgres_database_resolve_each_phase_once() {
    let Some(db) = crate::support::PgDatabase::create("e2e", "the two-bot PostgreSQL test").await else {
        return;
    };
    let url = db.url.clone();

    {
        let mut h = Harness::start_on(Some(url.clone())).await;
        let t0: i64 = 1_900_000_000_000;
        h.set_clock(t0);
        let mut tables = Vec::new();
        for i in 0..3 {
            let chan = h.fake.add_channel(&format!("pg-{i}"));
            let a = h.fake.add_user(&format!("a{i}"));
            let b = h.fake.add_user(&format!("b{i}"));
            tables.push(h.open_game(chan, &[a, b], None).await);
        }
        h.wait_outbox_drained(WAIT).await;
        h.start_another_bot().await;
        let before: Vec<i64> = {
            let mut v = Vec::new();
            for t in &tables {
                v.push(h.row(t.game).await.seq);
            }
            v
        };

        h.set_clock(t0 + 48 * H);
        for (t, seq) in tables.iter().zip(&before) {
            let store = h.store().await.clone();
            let game = t.game;
            let seq = *seq;
            let deadline = tokio::time::Instant::now() + WAIT;
            while store.game(game).await.unwrap().unwrap().seq == seq {
                assert!(tokio::time::Instant::now() < deadline, "game {game} was not resolved");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        // Both schedulers tick several more times.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        h.wait_outbox_drained(WAIT).await;
        for t in &tables {
            let posts = h.fake.read(|w| {
                w.messages_in(t.channel)
                    .into_iter()
                    .filter(|m| !m.ephemeral() && m.content.contains("Deadline passed"))
                    .count()
            });
            assert_eq!(posts, 1, "game {} resolved once", t.game);
            let d = h
                .store()
                .await
                .deadline(t.game)
                .await
                .unwrap()
                .expect("the next phase's deadline");
            assert_eq!(d.due_at, t0 + 96 * H, "the next phase got one full deadline");
        }
        h.assert_outbox_delivered_once().await;
    }
    db.drop().await;
}

/// The lobby post's buttons: Join seats the presser, Leave unseats them,
/// Start is the host's alone and starts the game. The first ping then
/// says where the prompt is and carries "Show my prompt", which answers
/// its presser privately with their prompt and its controls.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_and_the_pings_have_working_buttons() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("buttons");
    let here = Place::Channel(chan);
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let carol = h.fake.add_user("carol");
    let lobby = h
        .fake
        .run(&alice, here, "game new", &[("game", json!("starlanes"))])
        .await;
    assert!(lobby.content.contains("Press Join"), "{}", lobby.content);
    let ids = lobby.custom_ids();
    assert_eq!(ids.len(), 4, "Join, Leave, Start and Add a computer player: {ids:?}");
    let (join, leave, start) = (ids[0].clone(), ids[1].clone(), ids[2].clone());
    let game = h.store().await.games_in_channel(chan).await.unwrap()[0].id;

    let ans = h.fake.answer(h.fake.press(&bob, lobby.id, &join).await).await;
    assert!(
        !ans.ephemeral() && ans.content.contains("bob joined"),
        "{}",
        ans.content
    );
    let ans = h.fake.answer(h.fake.press(&carol, lobby.id, &join).await).await;
    assert!(ans.content.contains("carol joined"), "{}", ans.content);
    assert_eq!(h.store().await.seats(game).await.unwrap().len(), 3);
    let ans = h.fake.answer(h.fake.press(&carol, lobby.id, &leave).await).await;
    assert!(ans.content.contains("carol left"), "{}", ans.content);
    assert_eq!(h.store().await.seats(game).await.unwrap().len(), 2);
    // Start is the host's: bob is refused privately, and nothing changes.
    let ans = h.fake.answer(h.fake.press(&bob, lobby.id, &start).await).await;
    assert!(
        ans.ephemeral() && ans.content.contains("Only the host"),
        "{}",
        ans.content
    );
    assert_eq!(h.row(game).await.status, orrery::store::GameStatus::Lobby);
    let ans = h.fake.answer(h.fake.press(&alice, lobby.id, &start).await).await;
    assert!(ans.content.contains("started"), "{}", ans.content);
    h.wait_outbox_drained(WAIT).await;
    assert_eq!(h.row(game).await.status, orrery::store::GameStatus::Active);

    // The first phase post pings who it waits on, with a control that
    // shows them their prompt.
    let ping = post_with(&h, chan, "Waiting on", 0).await;
    let show = ping.custom_ids();
    assert_eq!(show.len(), 1, "{show:?}");
    let owner = if ping.content.contains(&format!("<@{}>", alice.id)) {
        &alice
    } else {
        &bob
    };
    let answers = {
        let i = h.fake.press(owner, ping.id, &show[0]).await;
        h.fake.answer(i).await;
        h.fake
            .wait_for("the prompt shown", WAIT, |w| {
                let all: Vec<Message> = w
                    .messages
                    .iter()
                    .filter(
                        |m| matches!(m.origin, crate::support::Origin::Followup { interaction } if interaction == i),
                    )
                    .cloned()
                    .collect();
                all.iter().any(|m| !m.custom_ids().is_empty()).then_some(all)
            })
            .await
    };
    assert!(answers.iter().all(Message::ephemeral), "shown to its presser alone");
    assert!(
        answers.iter().any(|m| m.custom_ids().len() > 1),
        "the prompt comes with its controls: {:?}",
        answers.iter().map(|m| m.content.clone()).collect::<Vec<_>>()
    );
    h.fake.assert_clean();
}
