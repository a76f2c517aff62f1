//! Computer players through the fake Discord (issue 31), played by the
//! unchanged `orrery bot`: the host seats them in the lobby with `/host
//! bot` and with the lobby's "Add a computer player" button; a player's
//! seat is handed to one mid-game (`/host bot seat:`) and back to a person
//! (`/host replace`), who then plays; a solo game (one person, computer
//! players) runs, across a restart of the bot. Their orders are narrated
//! in the channel under their names. In a game of order sheets (Spectrum
//! War) a computer player's whole sheet goes in as one change, and the
//! channel is edited once for it. And in every game nothing the bot
//! sent Discord names a computer player's id: never a DM channel opened
//! for one, a message sent to one, a mention or a ping.

use crate::support::{policy, Harness, Id, Message, Place, Table, User};
use orrery::engine::{GameId, Seat};
use orrery::games::GameKind;
use orrery::service::Target;
use orrery::store::{is_bot_user, GameStatus};
use serde_json::json;
use std::time::Duration;

/// How long a computer player may take to answer (its budget, with room).
const BOT_WAIT: Duration = Duration::from_secs(40);

/// Open a lobby of `kind` in `channel` hosted by `host`; its lobby post.
async fn lobby(h: &Harness, channel: Id, host: &User, kind: GameKind, seed: u64) -> (GameId, Message) {
    let post = h
        .fake
        .run(
            host,
            Place::Channel(channel),
            "game new",
            &[("game", json!(kind.key())), ("seed", json!(seed))],
        )
        .await;
    assert!(post.content.contains("is open"), "{}", post.content);
    let game = h.store().await.games_in_channel(channel).await.unwrap()[0].id;
    (game, post)
}

/// `/host bot` (with its options) as `user`: the answer.
async fn host_bot(h: &Harness, channel: Id, user: &User, options: &[(&str, serde_json::Value)]) -> Message {
    h.fake.run(user, Place::Channel(channel), "host bot", options).await
}

/// The computer players' ids at the table now.
async fn bot_ids(h: &Harness, game: GameId) -> Vec<u64> {
    let seats = h.store().await.seats(game).await.unwrap();
    seats.iter().filter(|s| s.bot.is_some()).map(|s| s.user.0).collect()
}

/// Nothing the bot ever asked of Discord names one of `bots`: no DM
/// channel opened for one, no message to one, no mention, no ping, no
/// thread member. And nothing in the outbox is for one.
async fn assert_bots_untouched(h: &Harness, bots: &[u64]) {
    assert!(!bots.is_empty());
    let requests = h.fake.read(|w| {
        w.log
            .iter()
            .map(|l| {
                let body = l.body.json().map(|v| v.to_string()).unwrap_or_default();
                format!("{} {} {body}", l.method, l.path)
            })
            .collect::<Vec<_>>()
    });
    assert!(!requests.is_empty());
    for r in &requests {
        for b in bots {
            assert!(
                !r.contains(&b.to_string()),
                "the bot named a computer player to Discord: {r}"
            );
        }
    }
    for (_, m, _) in h.outbox().await {
        if let Target::Dm(u) = m.target {
            assert!(!is_bot_user(u), "a private message to a computer player: {:?}", m.text);
        }
        assert!(m.pings.iter().all(|u| !is_bot_user(*u)), "a ping of a computer player");
    }
}

/// The channel's lines narrating something `name` did: they begin with
/// its name ("🤖 Bot-1 moved 3 from Altair to Spica.").
fn narrated(h: &Harness, channel: Id, name: &str) -> Vec<String> {
    let start = format!("{name} ");
    h.posts(channel)
        .iter()
        .flat_map(|m| m.content.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| l.starts_with(&start))
        .collect()
}

/// Play `t`: the people's decisions (seat, user) as the test policy
/// chooses them, typed in the channel; the computer players' are waited
/// for (they may well be made before the test looks: what they did is
/// read from the channel). Stops when the game is over or the people gave
/// `max` orders; returns the people's orders.
async fn play(h: &Harness, t: &Table, people: &[(Seat, &User)], max: usize) -> usize {
    let mut mine = 0;
    loop {
        let row = h.row(t.game).await;
        if row.status != GameStatus::Active || mine >= max {
            return mine;
        }
        let state = row.state.expect("a state");
        let p = state
            .pending()
            .into_iter()
            .find(|p| !p.submitted)
            .expect("someone owes");
        if let Some((_, user)) = people.iter().find(|(s, _)| *s == p.seat) {
            let line = policy::choose(&state, p.seat).expect("an order");
            let ans = h.order(t, user, Place::Channel(t.channel), &line).await;
            assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
            mine += 1;
        } else {
            let seq = row.seq;
            let until = tokio::time::Instant::now() + BOT_WAIT;
            while h.row(t.game).await.seq == seq {
                assert!(
                    tokio::time::Instant::now() < until,
                    "{} owes a decision and played none in {BOT_WAIT:?}",
                    p.seat
                );
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_seats_computer_players_by_command_and_button_and_they_play() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("bots-lobby");
    let here = Place::Channel(chan);
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let (game, post) = lobby(&h, chan, &alice, GameKind::Starlanes, 6).await;
    let ans = h.fake.run(&bob, here, "game join", &[]).await;
    assert!(ans.content.contains("bob joined"), "{}", ans.content);

    // The lobby's button: the host's alone.
    let add = format!("m:{}", game.0);
    assert!(post.custom_ids().contains(&add), "{:?}", post.custom_ids());
    let ans = h.fake.answer(h.fake.press(&bob, post.id, &add).await).await;
    assert!(
        ans.ephemeral() && ans.content.contains("Only the host"),
        "{}",
        ans.content
    );
    let ans = h.fake.answer(h.fake.press(&alice, post.id, &add).await).await;
    assert!(
        !ans.ephemeral() && ans.content.contains("🤖 Bot-1 (normal)"),
        "{}",
        ans.content
    );
    // And the command, with a level.
    let ans = host_bot(&h, chan, &alice, &[("level", json!("easy"))]).await;
    assert!(ans.content.contains("🤖 Bot-2 (easy)"), "{}", ans.content);
    // The lobby is full now (4 players).
    let ans = host_bot(&h, chan, &alice, &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("is full"), "{}", ans.content);
    let ans = h.fake.run(&alice, here, "game start", &[]).await;
    assert!(ans.content.contains("started"), "{}", ans.content);
    let ans = host_bot(&h, chan, &alice, &[]).await;
    assert!(
        ans.ephemeral() && ans.content.contains("has already started"),
        "{}",
        ans.content
    );

    let t = Table {
        game,
        channel: chan,
        seats: vec![alice.clone(), bob.clone()],
    };
    let mine = play(&h, &t, &[(Seat(0), &alice), (Seat(1), &bob)], 40).await;
    assert!(mine > 0);
    h.wait_outbox_drained(BOT_WAIT).await;
    for name in ["🤖 Bot-1", "🤖 Bot-2"] {
        let lines = narrated(&h, chan, name);
        assert!(
            lines.len() >= 2,
            "{name}'s orders are narrated in the channel: {lines:?}"
        );
    }
    // "Waiting on" names them, never with a mention (the footer is edited
    // away as they answer: read what was sent).
    let footers = h.fake.read(|w| {
        w.log
            .iter()
            .filter_map(|l| l.body.json())
            .filter(|b| b.to_string().contains("Waiting on: 🤖 Bot-"))
            .count()
    });
    assert!(footers > 0, "no post waited on a computer player by name");
    assert_bots_untouched(&h, &bot_ids(&h, game).await).await;
    h.fake.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_goes_to_a_computer_player_mid_game_and_back_to_a_person() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("bots-replace");
    let here = Place::Channel(chan);
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let carol = h.fake.add_user("carol");
    let t = h
        .open_game_of(GameKind::Starlanes, chan, &[alice.clone(), bob.clone()], Some(6), None)
        .await;
    play(&h, &t, &[(Seat(0), &alice), (Seat(1), &bob)], 6).await;

    // bob leaves: the host hands his seat to a computer player.
    let ans = h.fake.run(&bob, here, "host bot", &[("seat", json!("alice"))]).await;
    assert!(
        ans.ephemeral() && ans.content.contains("Only the host"),
        "{}",
        ans.content
    );
    let ans = h
        .fake
        .run(
            &alice,
            here,
            "host bot",
            &[("seat", json!("bob")), ("level", json!("easy"))],
        )
        .await;
    assert!(
        ans.content.contains("🤖 Bot-1 (easy) now plays bob's seat"),
        "{}",
        ans.content
    );
    let bots = bot_ids(&h, t.game).await;
    assert_eq!(bots.len(), 1);
    // A turn or two of alice's (the computer player plays well: longer,
    // and it may win before carol sits down).
    play(&h, &t, &[(Seat(0), &alice)], 3).await;
    h.wait_outbox_drained(BOT_WAIT).await;
    let lines = narrated(&h, chan, "🤖 Bot-1");
    assert!(lines.len() >= 2, "its orders are narrated: {lines:?}");
    assert_eq!(h.row(t.game).await.status, GameStatus::Active);

    // And back to a person, who plays.
    let ans = h
        .fake
        .run(
            &alice,
            here,
            "host replace",
            &[("seat", json!("Bot-1")), ("player", json!(carol.id.to_string()))],
        )
        .await;
    assert!(ans.content.contains("carol now plays"), "{}", ans.content);
    let seats = h.store().await.seats(t.game).await.unwrap();
    assert_eq!((seats[1].name.as_str(), seats[1].bot), ("carol", None));
    // `play` would wait for a computer player owing anything: none does.
    let mine = play(&h, &t, &[(Seat(0), &alice), (Seat(1), &carol)], 8).await;
    assert!(mine > 0);
    h.wait_outbox_drained(BOT_WAIT).await;
    assert_eq!(
        narrated(&h, chan, "🤖 Bot-1"),
        lines,
        "nothing more from the computer player"
    );
    let carols: Vec<String> = narrated(&h, chan, "carol");
    assert!(!carols.is_empty(), "carol plays the seat:\n{}", h.public_text(chan));
    assert_bots_untouched(&h, &bots).await;
    h.fake.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solo_game_runs_and_survives_a_restart() {
    let mut h = Harness::start().await;
    let chan = h.fake.add_channel("bots-solo");
    let here = Place::Channel(chan);
    let alice = h.fake.add_user("alice");
    let (game, _) = lobby(&h, chan, &alice, GameKind::Starlanes, 9).await;
    let ans = host_bot(&h, chan, &alice, &[("level", json!("easy"))]).await;
    assert!(ans.content.contains("🤖 Bot-1 (easy)"), "{}", ans.content);
    let ans = h.fake.run(&alice, here, "game start", &[]).await;
    assert!(ans.content.contains("started"), "{}", ans.content);
    let t = Table {
        game,
        channel: chan,
        seats: vec![alice.clone()],
    };
    play(&h, &t, &[(Seat(0), &alice)], 5).await;
    h.wait_outbox_drained(BOT_WAIT).await;
    let before = narrated(&h, chan, "🤖 Bot-1").len();
    assert!(before >= 1, "the computer player played");

    // The bot restarts while the computer player owes a decision: it is
    // played after the restart, once.
    h.kill_bot();
    let mut owed = false;
    for _ in 0..10 {
        let row = h.row(game).await;
        let state = row.state.clone().unwrap();
        let p = state.pending().into_iter().find(|p| !p.submitted);
        match p {
            Some(p) if p.seat == Seat(0) && row.status == GameStatus::Active => {
                // alice's order, given through a service of the test's own
                // (the bot is down), until the computer player owes one.
                let line = policy::choose(&state, Seat(0)).unwrap();
                let svc = orrery::service::Service::new(
                    h.store().await.clone(),
                    std::sync::Arc::new(orrery::service::SystemClock),
                );
                let actor = orrery::service::Actor {
                    user: orrery::engine::UserId(alice.id),
                    name: alice.name.clone(),
                    place: orrery::service::Place::Channel {
                        channel: chan,
                        guild: None,
                    },
                };
                svc.handle(
                    &actor,
                    orrery::service::Request::Order {
                        game: Some(game),
                        kind: None,
                        line,
                    },
                )
                .await
                .expect("the order is taken");
            }
            Some(_) => {
                owed = true;
                break;
            }
            None => break,
        }
    }
    assert!(owed, "the computer player owes a decision while the bot is down");
    let seq = h.row(game).await.seq;
    h.restart_bot().await;
    let until = tokio::time::Instant::now() + BOT_WAIT;
    while h.row(game).await.seq == seq {
        assert!(tokio::time::Instant::now() < until, "nothing played after the restart");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    play(&h, &t, &[(Seat(0), &alice)], 10).await;
    h.wait_outbox_drained(BOT_WAIT).await;
    let after = narrated(&h, chan, "🤖 Bot-1").len();
    assert!(
        after > before,
        "the computer player played after the restart ({before}, then {after} lines)"
    );
    // The log is one game, folded exactly: no order played twice.
    let events = h.events(game).await;
    assert_eq!(events.len() as i64, h.row(game).await.seq, "one entry per position");
    assert_bots_untouched(&h, &bot_ids(&h, game).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_player_s_order_sheet_goes_in_as_one_change() {
    use orrery::engine::SheetEvent;
    use orrery::games::spectrum::events::Event;
    use orrery::games::AnyEvent;
    let h = Harness::start().await;
    let chan = h.fake.add_channel("bots-sheets");
    let alice = h.fake.add_user("alice");
    let (game, _) = lobby(&h, chan, &alice, GameKind::Spectrum, 4).await;
    let ans = host_bot(&h, chan, &alice, &[("level", json!("easy"))]).await;
    assert!(ans.content.contains("🤖 Bot-1 (easy)"), "{}", ans.content);
    let ans = h.fake.run(&alice, Place::Channel(chan), "game start", &[]).await;
    assert!(ans.content.contains("started"), "{}", ans.content);
    let t = Table {
        game,
        channel: chan,
        seats: vec![alice.clone()],
    };
    let sheet = |verb: &str| format!("sheet {verb}");
    // Section after section: the computer player's sheet first (alice
    // waits for it, so that none of her orders makes it think again),
    // then alice's: a line, if she has one to write, and ready.
    let mut volumes = Vec::new();
    for _ in 0..4 {
        let until = tokio::time::Instant::now() + BOT_WAIT;
        let state = loop {
            let state = h.state(game).await;
            if !state.pending().iter().any(|p| p.seat == Seat(1) && !p.submitted) {
                break state;
            }
            assert!(tokio::time::Instant::now() < until, "no sheet in {BOT_WAIT:?}");
            tokio::time::sleep(Duration::from_millis(25)).await;
        };
        h.wait_outbox_drained(BOT_WAIT).await;
        volumes.push(h.volume(chan, std::slice::from_ref(&alice)));
        if state.outcome().is_some() {
            break;
        }
        let line = policy::choose(&state, Seat(0)).expect("alice owes a sheet");
        if !["ready", "unready", "clear", "remove"].contains(&line.name.as_str()) {
            let ans = h.order(&t, &alice, Place::Dm, &line).await;
            assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
        }
        let ans = h
            .fake
            .run(&alice, Place::Dm, &sheet("ready"), &[("game", json!(game.0))])
            .await;
        assert!(ans.content.contains("Sent: "), "{}", ans.content);
    }
    assert!(volumes.len() >= 3, "{volumes:?}");

    // Every sheet of the computer player is one append of the log: its
    // edits, the last marking it ready, all in one batch.
    let log = h.store().await.log(game).await.unwrap();
    let mut batches: std::collections::BTreeMap<Option<i64>, Vec<&SheetEvent<_>>> = Default::default();
    for e in &log {
        if let AnyEvent::Spectrum(Event::Sheet(s)) = &e.event {
            if s.seat() == Seat(1) {
                batches.entry(e.batch).or_default().push(s);
            }
        }
    }
    assert!(batches.len() >= 3, "{batches:?}");
    for (batch, edits) in &batches {
        let ready = edits
            .iter()
            .filter(|s| matches!(s, SheetEvent::MarkedReady { .. }))
            .count();
        assert_eq!(ready, 1, "batch {batch:?}: {edits:?}");
        assert!(
            matches!(edits.last(), Some(SheetEvent::MarkedReady { .. })),
            "{edits:?}"
        );
    }
    assert!(batches.values().any(|e| e.len() > 2), "a sheet of lines: {batches:?}");

    // What the channel got each section: the next section's post, and
    // edits of the one before it (its lines when it was carried out, then
    // its controls taken away) and of the new one (its footer: the
    // computer player is ready); not an edit a line of its sheet.
    for w in volumes.windows(2) {
        let (posts, edits) = (
            w[1].channel_posts - w[0].channel_posts,
            w[1].channel_edits - w[0].channel_edits,
        );
        assert!(posts <= 2 && edits <= 4, "{posts} posts and {edits} edits in a section");
    }
    assert_bots_untouched(&h, &bot_ids(&h, game).await).await;
    h.fake.assert_clean();
}
