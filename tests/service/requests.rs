//! The service, driven the way a transport drives it: actors and requests
//! in, replies and outbox messages out. SQLite in a temporary file.

use orrery::engine::{CommandLine, GameId, UserId, Viewer};
use orrery::games::GameKind;
use orrery::service::{Actor, Delivery, OutMessage, Posted, Request, Service, Target, Transport};
use orrery::store::GameStatus;
use std::sync::{Arc, Mutex};

use crate::common::{in_dm, ok, refused};

const CHANNEL: u64 = 500;

async fn service(tag: &str) -> Service {
    crate::common::service(&format!("svc-{tag}")).await.0
}

fn at_table(user: u64, name: &str) -> Actor {
    crate::common::at(CHANNEL, user, name)
}

/// Collects deliveries: each post, and each edit as the message it now is.
#[derive(Default)]
struct Sink(Mutex<Vec<(OutMessage, Option<Vec<u8>>)>>);

impl Transport for Sink {
    async fn send(&self, id: i64, message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        self.0.lock().unwrap().push((message.clone(), png.map(|p| p.to_vec())));
        Ok(Delivery::Sent(Some(Posted {
            channel: 1,
            message: id as u64,
        })))
    }

    async fn edit(&self, _id: i64, at: &Posted, message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        self.0.lock().unwrap().push((message.clone(), png.map(|p| p.to_vec())));
        Ok(Delivery::Sent(Some(*at)))
    }
}

impl Sink {
    fn take(&self) -> Vec<(OutMessage, Option<Vec<u8>>)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

fn order(text: &str) -> Request {
    Request::Order {
        game: None,
        kind: None,
        line: CommandLine::parse(text).unwrap(),
    }
}

/// A started 3-player Hyperspace game; returns its id.
async fn started(svc: &Service) -> GameId {
    ok(
        svc,
        &at_table(1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(5),
            options: None,
            private: None,
        },
    )
    .await;
    ok(svc, &at_table(2, "bob"), Request::Join { game: None }).await;
    ok(svc, &at_table(3, "carol"), Request::Join { game: None }).await;
    ok(svc, &at_table(1, "alice"), Request::Start { game: None }).await;
    svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id
}

#[tokio::test]
async fn lobby_flow_and_start_posts_board_and_prompts() {
    let svc = service("lobby").await;
    let sink = Sink::default();
    let r = ok(
        &svc,
        &at_table(1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(1),
            options: None,
            private: None,
        },
    )
    .await;
    assert!(r.text.contains("is open"), "{}", r.text);
    let msg = refused(&svc, &at_table(1, "alice"), Request::Join { game: None }).await;
    assert!(msg.contains("already seated"), "{msg}");
    let msg = refused(&svc, &at_table(1, "alice"), Request::Start { game: None }).await;
    assert!(msg.contains("needs 2 to 4 players"), "{msg}");
    ok(&svc, &at_table(2, "bob"), Request::Join { game: None }).await;
    let msg = refused(&svc, &at_table(2, "bob"), Request::Start { game: None }).await;
    assert!(msg.contains("Only the host"), "{msg}");
    let msg = refused(
        &svc,
        &at_table(1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: None,
            options: None,
            private: None,
        },
    )
    .await;
    assert!(msg.contains("already has game"), "{msg}");
    ok(&svc, &at_table(1, "alice"), Request::Start { game: None }).await;

    svc.deliver(&sink).await.unwrap();
    let sent = sink.take();
    let boards: Vec<_> = sent.iter().filter(|(m, _)| m.board.is_some()).collect();
    assert_eq!(boards.len(), 1, "one board at the start: {sent:#?}");
    assert_eq!(boards[0].0.target, Target::Channel(CHANNEL));
    assert_eq!(boards[0].0.board.as_ref().unwrap().viewer, Viewer::Public);
    let png = boards[0].1.as_ref().expect("png bytes");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The seat to move got a private prompt.
    assert!(
        sent.iter().any(|(m, _)| m.target == Target::Dm(UserId(1))),
        "no DM prompt: {sent:#?}"
    );
    // Delivered messages are not delivered again.
    assert_eq!(svc.deliver(&sink).await.unwrap(), 0);
    let msg = refused(&svc, &at_table(3, "carol"), Request::Join { game: None }).await;
    assert!(msg.contains("already started"), "{msg}");
}

#[tokio::test]
async fn refused_orders_change_nothing_and_explain() {
    let svc = service("refuse").await;
    let id = started(&svc).await;
    let before = svc.store().game(id).await.unwrap().unwrap();
    let events_before = svc.store().events(id).await.unwrap();

    // Not a player.
    let m = refused(&svc, &at_table(77, "mallory"), order("end")).await;
    assert!(m.contains("not playing"), "{m}");
    // Out of turn (seat 2 while seat 1 moves).
    let m = refused(&svc, &at_table(2, "bob"), order("end")).await;
    assert!(m.contains("waiting on"), "{m}");
    // Can't parse.
    // Refusals of typed orders are words: no command syntax, and what
    // the player could do instead as their controls read.
    let words = |m: &str| {
        assert!(!m.contains('`') && !m.contains("Usage") && !m.contains(":lots"), "{m}");
        assert!(m.contains("\nYou could: "), "{m}");
    };
    let m = refused(&svc, &at_table(1, "alice"), order("warp-to-the-moon")).await;
    assert!(m.contains("couldn't read"), "{m}");
    words(&m);
    // A malformed value.
    let m = refused(&svc, &at_table(1, "alice"), order("depart from:Regulus ships:lots")).await;
    assert!(m.contains("not a whole number"), "{m}");
    assert!(m.contains("“ships: lots”"), "{m}");
    words(&m);
    // Someone else's game from a DM.
    let m = refused(
        &svc,
        &in_dm(77, "mallory"),
        Request::Order {
            game: Some(id),
            kind: None,
            line: CommandLine::new("end"),
        },
    )
    .await;
    assert!(m.contains("not playing in game"), "{m}");

    let after = svc.store().game(id).await.unwrap().unwrap();
    assert_eq!(after.seq, before.seq);
    assert_eq!(after.state, before.state);
    assert_eq!(svc.store().events(id).await.unwrap(), events_before);
}

#[tokio::test]
async fn dm_orders_resolve_the_only_game_and_public_posts_come_from_public_view() {
    let svc = service("dm").await;
    let sink = Sink::default();
    let id = started(&svc).await;
    svc.deliver(&sink).await.unwrap();
    sink.take();
    let row = svc.store().game(id).await.unwrap().unwrap();
    let state = row.state.unwrap();
    let p = state.pending()[0].clone();
    let user = svc.store().seats(id).await.unwrap()[p.seat.index()].user;
    let legal = state.legal_commands(p.seat);
    let first = legal[0].clone();
    // Given in a DM without naming the game: the only game is used.
    ok(
        &svc,
        &in_dm(user.0, "someone"),
        Request::Order {
            game: None,
            kind: None,
            line: first,
        },
    )
    .await;
    let after = svc.store().game(id).await.unwrap().unwrap();
    assert!(after.seq > row.seq, "the DM order was not recorded");
    svc.deliver(&sink).await.unwrap();
    for (m, _) in sink.take() {
        if let Some(b) = &m.board {
            if let Target::Channel(_) = m.target {
                assert_eq!(b.viewer, Viewer::Public, "channel boards must be public");
            }
        }
    }
}

#[tokio::test]
async fn concurrent_orders_on_one_game_are_serialized() {
    let svc = Arc::new(service("concurrent").await);
    let id = started(&svc).await;
    let row = svc.store().game(id).await.unwrap().unwrap();
    let state = row.state.unwrap();
    let seat = state.pending()[0].seat;
    let user = svc.store().seats(id).await.unwrap()[seat.index()].user;
    // Two copies of the same order at once: exactly the events of a
    // sequential run, no lost update, no duplicate sequence numbers.
    let line = state
        .legal_commands(seat)
        .into_iter()
        .find(|c| c.name != "end")
        .expect("a non-end order");
    let send = || {
        let svc = svc.clone();
        let line = line.clone();
        tokio::spawn(async move {
            let order = Request::Order {
                game: None,
                kind: None,
                line,
            };
            svc.handle(&at_table(user.0, "x"), order).await
        })
    };
    let (a, b) = (send(), send());
    let (ra, rb) = (a.await.unwrap(), b.await.unwrap());
    let accepted = [ra.is_ok(), rb.is_ok()].iter().filter(|x| **x).count();
    assert!(accepted >= 1, "{ra:?} {rb:?}");
    let events = svc.store().events(id).await.unwrap();
    for (i, (seq, _)) in events.iter().enumerate() {
        assert_eq!(*seq, i as i64 + 1, "gap or duplicate in the log");
    }
    let stored = svc.store().game(id).await.unwrap().unwrap();
    let folded = GameKind::Hyperspace.fold(events.iter().map(|(_, e)| e)).unwrap();
    assert_eq!(Some(folded), stored.state, "stored state is the fold of the log");
    assert_eq!(stored.seq, events.len() as i64);
}

#[tokio::test]
async fn whole_game_through_the_service_ends_with_winner_announced() {
    let svc = service("whole").await;
    let sink = Sink::default();
    let id = started(&svc).await;
    let mut rng = orrery::engine::GameRng::seeded(3);
    let seats = svc.store().seats(id).await.unwrap();
    for _ in 0..20_000 {
        let row = svc.store().game(id).await.unwrap().unwrap();
        if row.status == GameStatus::Finished {
            break;
        }
        let state = row.state.unwrap();
        let p = state
            .pending()
            .into_iter()
            .find(|p| !p.submitted)
            .expect("someone owes");
        let line = rng.pick(&state.legal_commands(p.seat)).unwrap().clone();
        let who = &seats[p.seat.index()];
        let actor = if p.secret {
            in_dm(who.user.0, &who.name)
        } else {
            at_table(who.user.0, &who.name)
        };
        ok(
            &svc,
            &actor,
            Request::Order {
                game: None,
                kind: None,
                line,
            },
        )
        .await;
    }
    let row = svc.store().game(id).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    svc.deliver(&sink).await.unwrap();
    let sent = sink.take();
    let last_channel = sent
        .iter()
        .rev()
        .find(|(m, _)| matches!(m.target, Target::Channel(_)))
        .unwrap();
    assert!(last_channel.0.text.contains("Game over"), "{}", last_channel.0.text);
    let refused_msg = refused(&svc, &at_table(1, "alice"), order("end")).await;
    assert!(refused_msg.contains("is over"), "{refused_msg}");
}

/// Opens a thread per player (ids 900 + user) and records every message.
#[derive(Default)]
struct ThreadSink {
    opened: Mutex<Vec<orrery::service::ThreadPlace>>,
    sent: Mutex<Vec<OutMessage>>,
}

impl Transport for ThreadSink {
    async fn send(&self, id: i64, message: &OutMessage, _png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        self.sent.lock().unwrap().push(message.clone());
        let channel = match message.target {
            Target::Channel(c) => c,
            Target::Dm(u) => u.0,
        };
        Ok(Delivery::Sent(Some(Posted {
            channel,
            message: id as u64,
        })))
    }

    async fn edit(&self, _id: i64, at: &Posted, message: &OutMessage, _png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        self.sent.lock().unwrap().push(message.clone());
        Ok(Delivery::Sent(Some(*at)))
    }

    async fn open_thread(&self, place: &orrery::service::ThreadPlace) -> anyhow::Result<orrery::service::Opened> {
        self.opened.lock().unwrap().push(place.clone());
        Ok(orrery::service::Opened::Thread(900 + place.member.0))
    }
}

#[tokio::test]
async fn a_game_opened_with_private_threads_sends_no_dms() {
    let svc = service("new-private").await;
    let r = ok(
        &svc,
        &at_table(1, "alice"),
        Request::New {
            kind: GameKind::Spectrum,
            seed: Some(2),
            options: None,
            private: Some(orrery::store::PrivateTo::Thread),
        },
    )
    .await;
    assert!(r.text.contains("private thread per player"), "{}", r.text);
    let game = svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id;
    let settings = ok(
        &svc,
        &at_table(2, "bob"),
        Request::Settings {
            game: None,
            change: Default::default(),
        },
    )
    .await;
    assert!(
        settings.text.contains("in a private thread per player"),
        "{}",
        settings.text
    );
    ok(&svc, &at_table(2, "bob"), Request::Join { game: None }).await;
    ok(&svc, &at_table(1, "alice"), Request::Start { game: None }).await;
    let sink = ThreadSink::default();
    svc.deliver(&sink).await.unwrap();
    let opened = sink.opened.lock().unwrap().clone();
    let mut members: Vec<u64> = opened.iter().map(|p| p.member.0).collect();
    members.sort();
    assert_eq!(members, [1, 2], "one thread per player: {opened:?}");
    assert!(opened.iter().all(|p| p.channel == CHANNEL));
    let sent = sink.sent.lock().unwrap().clone();
    assert!(
        sent.iter().all(|m| !matches!(m.target, Target::Dm(_))),
        "no DMs: {sent:?}"
    );
    for thread in [901, 902] {
        assert!(
            sent.iter().any(|m| m.target == Target::Channel(thread)),
            "private messages in thread {thread}"
        );
    }
    assert_eq!(
        svc.store().game(game).await.unwrap().unwrap().status,
        GameStatus::Active
    );
}

/// Answers nothing to the first `hangs` sends (as a request lost on the
/// way), then delivers like [`Sink`].
struct Hangs {
    hangs: Mutex<usize>,
    sink: Sink,
}

impl Transport for Hangs {
    async fn send(&self, id: i64, message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        let hang = {
            let mut left = self.hangs.lock().unwrap();
            let hang = *left > 0;
            *left = left.saturating_sub(1);
            hang
        };
        if hang {
            std::future::pending::<()>().await;
        }
        self.sink.send(id, message, png).await
    }

    async fn edit(&self, id: i64, at: &Posted, message: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        self.sink.edit(id, at, message, png).await
    }
}

#[tokio::test]
async fn a_send_without_an_answer_is_given_up_and_sent_again() {
    let svc = service("hang")
        .await
        .with_send_timeout(std::time::Duration::from_millis(300));
    started(&svc).await;
    let queued = svc.store().undelivered(100).await.unwrap();
    assert!(queued.len() > 1, "{} messages queued", queued.len());
    let transport = Hangs {
        hangs: Mutex::new(1),
        sink: Sink::default(),
    };
    // The first send never answers: the pass gives it up and goes on with
    // the other targets; the row is left, unclaimed, with its error.
    let first = svc.deliver(&transport).await.unwrap();
    assert!(first > 0 && first < queued.len(), "{first} of {} sent", queued.len());
    let left = svc.store().undelivered(100).await.unwrap();
    assert_eq!(left[0].id, queued[0].id, "the unanswered message is still due");
    assert!(
        left[0]
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("no answer within")),
        "{:?}",
        left[0].last_error
    );
    assert!(left.iter().all(|r| r.claimed_until.is_none()), "claims given back");
    // The next pass sends it and everything held behind it.
    let second = svc.deliver(&transport).await.unwrap();
    assert_eq!(first + second, queued.len());
    assert!(svc.store().undelivered(100).await.unwrap().is_empty());
    assert_eq!(transport.sink.take().len(), queued.len());
}

/// Spectrum War's "select color": a joining player picks a free colour
/// (a lobby button or `/game join colour:`), a taken or unknown one is
/// refused with the free ones, autocomplete offers only the free ones, a
/// seat that picks nothing gets today's assignment among those left, and
/// the war begins with the seats' colours and homes as picked.
#[tokio::test]
async fn spectrum_players_pick_their_colours_in_the_lobby() {
    use orrery::service::Act;
    let svc = service("colours").await;
    let pick = |value: &str| Request::Pick {
        game: None,
        value: value.into(),
    };
    let reply = ok(
        &svc,
        &at_table(1, "alice"),
        Request::New {
            kind: GameKind::Spectrum,
            seed: Some(3),
            options: None,
            private: None,
        },
    )
    .await;
    let picks: Vec<&str> = reply
        .choices
        .iter()
        .filter(|c| c.act == Act::Pick)
        .map(|c| c.command.name.as_str())
        .collect();
    assert_eq!(picks, ["red", "orange", "yellow", "green", "blue", "violet"]);
    assert!(
        reply.text.to_plain().contains("Pick your colour"),
        "{}",
        reply.text.to_plain()
    );

    // bob joins as red (alice's colour by default); carol can't have it.
    let reply = ok(&svc, &at_table(2, "bob"), pick("Red")).await;
    assert!(reply.text.to_plain().contains("bob joined game") && reply.text.to_plain().contains("as red"));
    let msg = refused(&svc, &at_table(3, "carol"), pick("red")).await;
    assert!(
        msg.contains("bob has red already") && msg.contains("orange, yellow, green, blue, violet"),
        "{msg}"
    );
    let msg = refused(&svc, &at_table(3, "carol"), pick("purple")).await;
    assert!(
        msg.contains("“purple” is not a colour") && msg.contains("red, orange"),
        "{msg}"
    );
    let free = svc.pick_suggestions(&at_table(3, "carol"), None, "").await.unwrap();
    assert_eq!(free, ["orange", "yellow", "green", "blue", "violet"]);
    let free = svc.pick_suggestions(&at_table(3, "carol"), None, "b").await.unwrap();
    assert_eq!(free, ["blue"]);
    // carol joins without a pick; alice (seated) changes hers to blue.
    ok(&svc, &at_table(3, "carol"), Request::Join { game: None }).await;
    let reply = ok(&svc, &at_table(1, "alice"), pick("blue")).await;
    assert!(reply.text.to_plain().contains("alice picked blue"));
    let msg = refused(&svc, &at_table(1, "alice"), pick("blue")).await;
    assert!(msg.contains("is blue already"), "{msg}");
    let game = svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id;
    let seats = svc.store().seats(game).await.unwrap();
    assert_eq!(
        seats.iter().map(|s| s.pick.as_deref()).collect::<Vec<_>>(),
        [Some("blue"), Some("red"), None]
    );

    let status = ok(&svc, &at_table(3, "carol"), Request::Status { game: None }).await;
    let status = status.text.to_plain();
    assert!(
        status.contains("- alice (host) — colour blue\n") && status.contains("- bob — colour red\n"),
        "{status}"
    );
    assert!(status.contains("- carol\n"), "{status}");
    ok(&svc, &at_table(1, "alice"), Request::Start { game: None }).await;
    let state = crate::common::state(&svc, game).await;
    // carol had no pick: the first of today's 3-player colours (red,
    // yellow, blue) left is yellow. Each seat's home is its colour's.
    let view = state.view_json(Viewer::Public);
    let colours: Vec<&str> = view["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["colour"].as_str().unwrap())
        .collect();
    assert_eq!(colours, ["Blue", "Red", "Yellow"]);
    for (seat, colour) in colours.iter().enumerate() {
        let homes: Vec<&serde_json::Value> = view["planets"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["owner"] == seat)
            .collect();
        assert_eq!(homes.len(), 1);
        assert_eq!(homes[0]["colour"], *colour, "seat {seat}'s home");
    }
    let msg = refused(&svc, &at_table(3, "carol"), pick("green")).await;
    assert!(
        msg.contains("already started") && msg.contains("colours are picked in the lobby"),
        "{msg}"
    );
    // Games without a pick say so.
    let other = 501;
    ok(
        &svc,
        &crate::common::at(other, 1, "alice"),
        Request::New {
            kind: GameKind::Starlanes,
            seed: Some(1),
            options: None,
            private: None,
        },
    )
    .await;
    let msg = refused(&svc, &crate::common::at(other, 2, "bob"), pick("red")).await;
    assert!(msg.contains("Starlanes has nothing to pick"), "{msg}");
}
