//! Live messages through the service's delivery: a slot's message posted,
//! then edited in place as each [`Op`] says, with a transport that
//! records every post and edit and what each message looks like now.

use orrery::engine::{CommandLine, GameId, Seat, UserId, Viewer};
use orrery::games::GameKind;
use orrery::service::{
    BoardRef, Choice, Delivery, Op, OutMessage, Posted, Request, Service, Slot, Target, Text, Transport,
};
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;

const CHANNEL: u64 = 700;

/// One thing the transport was asked to do.
#[derive(Clone, Debug)]
enum Call {
    Send {
        id: i64,
        at: Posted,
        msg: OutMessage,
    },
    Edit {
        id: i64,
        at: Posted,
        msg: OutMessage,
        png: bool,
    },
}

/// Records posts and edits, and keeps what each message shows now.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<Call>>,
    shown: Mutex<BTreeMap<u64, OutMessage>>,
    next: AtomicU64,
    /// The next this many edits fail (a passing failure).
    failing_edits: AtomicU32,
    /// Messages deleted by someone: edits of them are undeliverable.
    gone: Mutex<HashSet<u64>>,
    /// Act like a transport that cannot say where it posted.
    no_location: AtomicBool,
    /// The next edit stalls: it says so on the first, waits for the
    /// second, then lands (as a request held up in the network would).
    stall: Mutex<Option<(Arc<Notify>, Arc<Notify>)>>,
}

impl Transport for Recorder {
    async fn send(&self, id: i64, msg: &OutMessage, _png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        let message = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let channel = match msg.target {
            Target::Channel(c) => c,
            Target::Dm(u) => 10_000 + u.0,
        };
        let at = Posted { channel, message };
        self.shown.lock().unwrap().insert(message, msg.clone());
        self.calls.lock().unwrap().push(Call::Send {
            id,
            at,
            msg: msg.clone(),
        });
        if self.no_location.load(Ordering::SeqCst) {
            return Ok(Delivery::Sent(None));
        }
        Ok(Delivery::Sent(Some(at)))
    }

    async fn edit(&self, id: i64, at: &Posted, msg: &OutMessage, png: Option<&[u8]>) -> anyhow::Result<Delivery> {
        if self
            .failing_edits
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
        {
            anyhow::bail!("503 Service Unavailable");
        }
        let stall = self.stall.lock().unwrap().take();
        if let Some((reached, release)) = stall {
            reached.notify_one();
            release.notified().await;
        }
        if self.gone.lock().unwrap().contains(&at.message) {
            return Ok(Delivery::Undeliverable("Unknown Message".into()));
        }
        let mut shown = self.shown.lock().unwrap();
        assert!(
            shown.contains_key(&at.message),
            "edit of a message never posted: {at:?}"
        );
        shown.insert(at.message, msg.clone());
        self.calls.lock().unwrap().push(Call::Edit {
            id,
            at: *at,
            msg: msg.clone(),
            png: png.is_some(),
        });
        Ok(Delivery::Sent(Some(*at)))
    }
}

impl Recorder {
    fn take(&self) -> Vec<Call> {
        std::mem::take(&mut *self.calls.lock().unwrap())
    }
    fn now(&self, message: u64) -> OutMessage {
        self.shown.lock().unwrap()[&message].clone()
    }
    /// Stall the next edit: notified when it is reached, it lands when
    /// released.
    fn stall_next_edit(&self) -> (Arc<Notify>, Arc<Notify>) {
        let (reached, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
        *self.stall.lock().unwrap() = Some((reached.clone(), release.clone()));
        (reached, release)
    }
}

/// A service with one game (a lobby: enough for slots to belong to).
async fn with_game(tag: &str) -> (Service, GameId) {
    let (svc, _) = crate::common::service(&format!("live-{tag}")).await;
    crate::common::ok(
        &svc,
        &crate::common::at(CHANNEL, 1, "alice"),
        Request::New {
            kind: GameKind::Hyperspace,
            seed: Some(1),
            options: None,
            private: None,
        },
    )
    .await;
    let game = svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id;
    // The lobby's own posts are not what these tests are about.
    svc.deliver(&Recorder::default()).await.unwrap();
    (svc, game)
}

/// bob and carol join alice's game in the channel, and alice starts it.
async fn join_and_start(svc: &Service) {
    for (user, name) in [(2, "bob"), (3, "carol")] {
        crate::common::ok(
            svc,
            &crate::common::at(CHANNEL, user, name),
            Request::Join { game: None },
        )
        .await;
    }
    crate::common::ok(
        svc,
        &crate::common::at(CHANNEL, 1, "alice"),
        Request::Start { game: None },
    )
    .await;
}

/// The seat's player (alice, bob or carol) gives `line` in the channel.
async fn order_as(svc: &Service, seat: Seat, line: CommandLine) {
    let name = ["alice", "bob", "carol"][seat.index()];
    let actor = crate::common::at(CHANNEL, u64::from(seat.0) + 1, name);
    crate::common::ok(
        svc,
        &actor,
        Request::Order {
            game: None,
            kind: None,
            line,
        },
    )
    .await;
}

async fn queue(svc: &Service, game: GameId, msgs: &[OutMessage]) -> Vec<i64> {
    let payloads: Vec<serde_json::Value> = msgs.iter().map(|m| serde_json::to_value(m).unwrap()).collect();
    svc.store().enqueue(Some(game), &payloads, svc.now_ms()).await.unwrap()
}

fn choice(game: GameId, line: &str) -> Choice {
    Choice::order(game, CommandLine::parse(line).unwrap(), line)
}

fn prompt(game: GameId, seat: u8, user: u64, text: &str, choices: &[&str]) -> OutMessage {
    let mut m = OutMessage::to_dm(UserId(user), text).in_slot(Slot::Prompt { game, seat: Seat(seat) }, Op::Post);
    m.choices = choices.iter().map(|c| choice(game, c)).collect();
    m
}

fn phase(game: GameId, text: &str, op: Op) -> OutMessage {
    OutMessage::to_channel(CHANNEL, text).in_slot(Slot::Phase { game }, op)
}

fn with_footer(mut m: OutMessage, footer: &str) -> OutMessage {
    m.footer = Some(Text::plain(footer));
    m
}

fn labels(m: &OutMessage) -> Vec<&str> {
    m.choices.iter().map(|c| c.label.as_str()).collect()
}

fn full(m: &OutMessage) -> String {
    m.full_text().to_plain()
}

fn sent(call: &Call) -> (i64, Posted, &OutMessage) {
    match call {
        Call::Send { id, at, msg } => (*id, *at, msg),
        other => panic!("expected a post, got {other:?}"),
    }
}

fn edited(call: &Call) -> (i64, Posted, &OutMessage, bool) {
    match call {
        Call::Edit { id, at, msg, png } => (*id, *at, msg, *png),
        other => panic!("expected an edit, got {other:?}"),
    }
}

async fn live_at(svc: &Service, slot: Slot) -> Option<(u64, OutMessage)> {
    svc.store()
        .live_message(slot.game(), &slot.key())
        .await
        .unwrap()
        .map(|r| (r.message_id, serde_json::from_value(r.payload).unwrap()))
}

#[tokio::test]
async fn a_new_prompt_takes_the_controls_from_the_old_one() {
    let (svc, game) = with_game("post").await;
    let t = Recorder::default();
    let slot = Slot::Prompt { game, seat: Seat(0) };
    let mut first = prompt(game, 0, 1, "Your move, alice", &["end", "depart from:Algol ships:1"]);
    first.pings = vec![UserId(1)];
    queue(&svc, game, &[first.clone()]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    let calls = t.take();
    assert_eq!(calls.len(), 1);
    let (_, at1, posted) = sent(&calls[0]);
    assert_eq!(posted, &first, "posted as queued, pings and all");
    assert_eq!(live_at(&svc, slot).await.map(|(m, _)| m), Some(at1.message));

    // The decision changes: a new prompt is posted, the old one loses its
    // buttons and keeps its words (no note: a silent close).
    let second = prompt(game, 0, 1, "Your move again, alice", &["end"]);
    let ids = queue(&svc, game, std::slice::from_ref(&second)).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    let calls = t.take();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let (id, at, old, png) = edited(&calls[0]);
    assert_eq!((id, at, png), (ids[0], at1, false));
    assert_eq!(full(old), "Your move, alice");
    assert!(old.choices.is_empty(), "the old prompt keeps no controls");
    assert_eq!(old.op, Op::Close);
    let (_, at2, new) = sent(&calls[1]);
    assert_ne!(at2, at1);
    assert_eq!(labels(new), ["end"]);
    assert!(t.now(at1.message).choices.is_empty());
    assert_eq!(labels(&t.now(at2.message)), ["end"]);
    assert_eq!(live_at(&svc, slot).await.map(|(m, _)| m), Some(at2.message));

    // Another seat's prompt is another slot: nothing of seat 0's changes.
    queue(&svc, game, &[prompt(game, 1, 2, "Your move, bob", &["end"])]).await;
    svc.deliver(&t).await.unwrap();
    let calls = t.take();
    assert_eq!(calls.len(), 1);
    sent(&calls[0]);
    assert_eq!(labels(&t.now(at2.message)), ["end"]);
    assert_eq!(svc.store().live_messages(game).await.unwrap().len(), 2);
}

#[tokio::test]
async fn an_update_edits_the_prompt_in_place_and_keeps_its_board() {
    let (svc, game) = with_game("update").await;
    let t = Recorder::default();
    let slot = Slot::Prompt { game, seat: Seat(0) };
    let board = BoardRef {
        game,
        viewer: Viewer::Seat(Seat(0)),
        seq: 0,
    };
    let mut first = with_footer(
        prompt(game, 0, 1, "Pick a card", &["play card:1", "play card:2"]),
        "Due soon",
    );
    first.board = Some(board.clone());
    queue(&svc, game, &[first]).await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);

    // The seat picked card 2: the same prompt now shows the pick.
    let mut update = prompt(game, 0, 1, "Pick a card (you picked 2)", &["play card:1"]);
    update.op = Op::Update;
    update.pings = vec![UserId(1)];
    let ids = queue(&svc, game, &[update]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    let calls = t.take();
    assert_eq!(calls.len(), 1, "edited, not posted: {calls:#?}");
    let (id, edit_at, now, png) = edited(&calls[0]);
    assert_eq!((id, edit_at), (ids[0], at));
    assert_eq!(
        full(now),
        "Pick a card (you picked 2)",
        "text replaced, footer too (none given)"
    );
    assert_eq!(labels(now), ["play card:1"], "choices replaced");
    assert_eq!(now.board, Some(board), "the board is kept");
    assert!(!png, "and not drawn again: the attachment stays");
    assert!(now.pings.is_empty(), "an edit alerts nobody");
    let (message, stored) = live_at(&svc, slot).await.unwrap();
    assert_eq!((message, &stored), (at.message, now), "the store has what is shown");

    // An update of a seat without a live prompt posts one.
    let mut fresh = prompt(game, 2, 3, "Your move, carol", &["end"]);
    fresh.op = Op::Update;
    queue(&svc, game, &[fresh.clone()]).await;
    svc.deliver(&t).await.unwrap();
    let calls = t.take();
    let (_, at3, posted) = sent(&calls[0]);
    assert_eq!(posted, &fresh);
    let carol = Slot::Prompt { game, seat: Seat(2) };
    assert_eq!(live_at(&svc, carol).await.map(|(m, _)| m), Some(at3.message));
}

#[tokio::test]
async fn appends_grow_the_phase_post_and_replace_its_footer() {
    let (svc, game) = with_game("append").await;
    let t = Recorder::default();
    let slot = Slot::Phase { game };
    let mut post = with_footer(phase(game, "Turn 1", Op::Post), "Waiting on alice");
    post.choices = vec![Choice::act(game, orrery::service::Act::Board, "My board")];
    queue(&svc, game, &[post]).await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);

    let ids = queue(
        &svc,
        game,
        &[
            with_footer(phase(game, "alice departs Algol", Op::Append), "Waiting on bob"),
            phase(game, "bob arrives", Op::Append),
        ],
    )
    .await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 2);
    let calls = t.take();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let (id, a, first, _) = edited(&calls[0]);
    assert_eq!((id, a), (ids[0], at));
    assert_eq!(full(first), "Turn 1\nalice departs Algol\nWaiting on bob");
    let (_, _, second, _) = edited(&calls[1]);
    assert_eq!(
        full(second),
        "Turn 1\nalice departs Algol\nbob arrives\nWaiting on bob",
        "no footer given: the footer stays"
    );
    assert_eq!(labels(second), ["My board"], "an append keeps the controls");
    assert_eq!(second.text.to_plain(), "Turn 1\nalice departs Algol\nbob arrives");
    assert_eq!(live_at(&svc, slot).await.unwrap().1, t.now(at.message));

    // Appending to a game with no phase post posts one.
    let (svc2, game2) = with_game("append-none").await;
    let lone = with_footer(phase(game2, "carol ends", Op::Append), "Waiting on dave");
    queue(&svc2, game2, std::slice::from_ref(&lone)).await;
    svc2.deliver(&t).await.unwrap();
    let calls = t.take();
    let (_, at2, posted) = sent(&calls[0]);
    assert_eq!(posted, &lone);
    assert_eq!(
        live_at(&svc2, Slot::Phase { game: game2 }).await.map(|(m, _)| m),
        Some(at2.message)
    );
}

#[tokio::test]
async fn a_close_adds_its_note_removes_the_controls_and_frees_the_slot() {
    let (svc, game) = with_game("close").await;
    let t = Recorder::default();
    let slot = Slot::Prompt { game, seat: Seat(0) };
    let mut board_prompt = with_footer(prompt(game, 0, 1, "Your move", &["end"]), "Due in 2 days");
    board_prompt.board = Some(BoardRef {
        game,
        viewer: Viewer::Public,
        seq: 0,
    });
    queue(&svc, game, &[board_prompt]).await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);

    let mut close = prompt(game, 0, 1, "✓ You ended your turn.", &[]);
    close.op = Op::Close;
    let ids = queue(&svc, game, &[close]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    let calls = t.take();
    assert_eq!(calls.len(), 1);
    let (id, a, now, png) = edited(&calls[0]);
    assert_eq!((id, a, png), (ids[0], at, false));
    assert_eq!(
        full(now),
        "Your move\n✓ You ended your turn.",
        "the awaited-by footer is over"
    );
    assert!(now.choices.is_empty());
    assert!(now.board.is_some(), "the board stays");
    assert_eq!(live_at(&svc, slot).await, None, "the slot is free");

    // Closing again finds nothing to close: delivered, nothing sent.
    let mut again = prompt(game, 0, 1, "never shown", &[]);
    again.op = Op::Close;
    queue(&svc, game, &[again]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    assert!(t.take().is_empty());
    assert!(svc.store().undelivered(10).await.unwrap().is_empty());
    // The next update posts a new prompt.
    let mut update = prompt(game, 0, 1, "Your next move", &["end"]);
    update.op = Op::Update;
    queue(&svc, game, &[update]).await;
    svc.deliver(&t).await.unwrap();
    let calls = t.take();
    let (_, at2, _) = sent(&calls[0]);
    assert_ne!(at2, at);
    assert_eq!(full(&t.now(at.message)), "Your move\n✓ You ended your turn.");
}

#[tokio::test]
async fn a_failed_edit_is_retried_once_and_holds_back_its_target() {
    let (svc, game) = with_game("retry").await;
    let t = Recorder::default();
    queue(&svc, game, &[phase(game, "Turn 1", Op::Post)]).await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);

    t.failing_edits.store(1, Ordering::SeqCst);
    let ids = queue(
        &svc,
        game,
        &[
            phase(game, "alice departs", Op::Append),
            OutMessage::to_channel(CHANNEL, "a plain notice after it"),
            OutMessage::to_dm(UserId(9), "elsewhere"),
        ],
    )
    .await;
    // Only the DM (another target) goes; the notice waits behind the edit.
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    let calls = t.take();
    assert_eq!(calls.len(), 1, "{calls:#?}");
    assert_eq!(sent(&calls[0]).2.target, Target::Dm(UserId(9)));
    let pending: Vec<i64> = svc
        .store()
        .undelivered(10)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(pending, ids[..2]);
    assert_eq!(full(&t.now(at.message)), "Turn 1");

    assert_eq!(svc.deliver(&t).await.unwrap(), 2);
    let calls = t.take();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    edited(&calls[0]);
    assert_eq!(sent(&calls[1]).2.text.to_plain(), "a plain notice after it");
    assert_eq!(full(&t.now(at.message)), "Turn 1\nalice departs", "appended once");
    assert_eq!(svc.deliver(&t).await.unwrap(), 0);
}

#[tokio::test]
async fn a_live_message_deleted_by_someone_is_posted_anew() {
    let (svc, game) = with_game("gone").await;
    let t = Recorder::default();
    let slot = Slot::Phase { game };
    queue(
        &svc,
        game,
        &[with_footer(phase(game, "Turn 1", Op::Post), "Waiting on alice")],
    )
    .await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);
    t.gone.lock().unwrap().insert(at.message);

    queue(&svc, game, &[phase(game, "alice ends", Op::Append)]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    let calls = t.take();
    assert_eq!(calls.len(), 1, "{calls:#?}");
    let (_, at2, posted) = sent(&calls[0]);
    assert_eq!(
        full(posted),
        "Turn 1\nalice ends\nWaiting on alice",
        "the whole post, continued"
    );
    assert_eq!(live_at(&svc, slot).await.map(|(m, _)| m), Some(at2.message));

    // A close of a deleted message is recorded as undeliverable and frees
    // the slot.
    t.gone.lock().unwrap().insert(at2.message);
    let close = phase(game, "Turn over", Op::Close);
    let ids = queue(&svc, game, &[close]).await;
    svc.deliver(&t).await.unwrap();
    assert!(t.take().is_empty());
    assert_eq!(live_at(&svc, slot).await, None);
    let row: (Option<String>,) = {
        use sqlx::Row;
        let r = sqlx::query("SELECT last_error FROM outbox WHERE id = $1")
            .bind(ids[0])
            .fetch_one(svc.store().pool())
            .await
            .unwrap();
        (r.get(0),)
    };
    assert!(row.0.unwrap().contains("undeliverable"));
}

#[tokio::test]
async fn a_prompt_that_changed_hands_is_retired_where_it_is() {
    let (svc, game) = with_game("hands").await;
    let t = Recorder::default();
    queue(&svc, game, &[prompt(game, 1, 2, "Your move, bob", &["end"])]).await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);
    // Seat 1 is now dave's: the update cannot be an edit of bob's DM.
    let mut update = prompt(game, 1, 4, "Your move, dave", &["end"]);
    update.op = Op::Update;
    queue(&svc, game, &[update]).await;
    svc.deliver(&t).await.unwrap();
    let calls = t.take();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let (_, a, old, _) = edited(&calls[0]);
    assert_eq!(a, at);
    assert!(old.choices.is_empty() && full(old) == "Your move, bob");
    let (_, at2, new) = sent(&calls[1]);
    assert_eq!(new.target, Target::Dm(UserId(4)));
    let slot = Slot::Prompt { game, seat: Seat(1) };
    assert_eq!(live_at(&svc, slot).await.map(|(m, _)| m), Some(at2.message));
}

#[tokio::test]
async fn without_a_slot_or_a_location_messages_are_posted_as_before() {
    let (svc, game) = with_game("plain").await;
    let t = Recorder::default();
    // No slot: an Update means nothing, it is a post.
    let mut loose = OutMessage::to_channel(CHANNEL, "Lobby news");
    loose.op = Op::Update;
    queue(&svc, game, &[loose.clone(), loose.clone()]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 2);
    let calls = t.take();
    assert_eq!(calls.len(), 2);
    calls.iter().for_each(|c| assert_eq!(sent(c).2, &loose));
    assert!(svc.store().live_messages(game).await.unwrap().is_empty());

    // A transport that cannot say where it posted: nothing to edit later.
    t.no_location.store(true, Ordering::SeqCst);
    queue(
        &svc,
        game,
        &[phase(game, "Turn 1", Op::Post), phase(game, "alice ends", Op::Append)],
    )
    .await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 2);
    let calls = t.take();
    assert_eq!(calls.len(), 2);
    assert_eq!(full(sent(&calls[1]).2), "alice ends");
    assert!(svc.store().live_messages(game).await.unwrap().is_empty());
}

#[tokio::test]
async fn an_append_with_a_newer_board_replaces_the_phase_posts_picture() {
    let (svc, game) = with_game("redraw").await;
    join_and_start(&svc).await;
    let t = Recorder::default();
    svc.deliver(&t).await.unwrap();
    t.take();
    let slot = Slot::Phase { game };
    let (_, shown) = live_at(&svc, slot).await.expect("the start posts the phase post");
    let first = shown.board.clone().expect("with its board");

    // A board of a later position that draws the same picture (nothing
    // public changed): the text is edited, the picture stays.
    let same_picture = BoardRef {
        seq: first.seq + 1,
        ..first.clone()
    };
    let mut m = phase(game, "alice thinks", Op::Append);
    m.board = Some(same_picture);
    queue(&svc, game, &[m]).await;
    svc.deliver(&t).await.unwrap();
    let calls = t.take();
    assert_eq!(calls.len(), 1, "{calls:#?}");
    let (_, _, now, png) = edited(&calls[0]);
    assert!(!png, "the same picture is not sent again");
    assert_eq!(now.board, Some(first.clone()));

    // alice's order changes the public board: a board of the position
    // after it replaces the picture.
    let state = svc.store().game(game).await.unwrap().unwrap().state.unwrap();
    let seat = state.pending()[0].seat;
    let line = state
        .legal_commands(seat)
        .into_iter()
        .find(|l| {
            let mut after = state.clone();
            let events = after.decide(seat, l).unwrap();
            for e in &events {
                after.apply(e).unwrap();
            }
            after.news_since(&state, Viewer::Public)
        })
        .expect("an order that changes the public board");
    order_as(&svc, seat, line).await;
    svc.deliver(&t).await.unwrap();
    let order_calls = t.take();
    let newer = BoardRef {
        seq: svc.store().game(game).await.unwrap().unwrap().seq,
        ..first.clone()
    };
    if live_at(&svc, slot).await.unwrap().1.board == Some(newer.clone()) {
        // The order turned the game to someone new: the service redrew
        // the post itself.
        let redrawn = order_calls
            .iter()
            .filter_map(|c| match c {
                Call::Edit { msg, png, .. } if msg.slot == Some(slot) => Some(*png),
                _ => None,
            })
            .any(|png| png);
        assert!(redrawn, "the picture is replaced: {order_calls:#?}");
    } else {
        let mut m = phase(game, "alice departs Algol", Op::Append);
        m.board = Some(newer.clone());
        queue(&svc, game, &[m]).await;
        svc.deliver(&t).await.unwrap();
        let calls = t.take();
        assert_eq!(calls.len(), 1, "{calls:#?}");
        let (_, _, now, png) = edited(&calls[0]);
        assert!(png, "the picture is replaced");
        assert_eq!(now.board, Some(newer.clone()));
    }
    assert_eq!(live_at(&svc, slot).await.unwrap().1.board, Some(newer.clone()));

    // A line without a board keeps the picture: a text-only edit.
    queue(&svc, game, &[phase(game, "bob arrives", Op::Append)]).await;
    svc.deliver(&t).await.unwrap();
    let calls = t.take();
    let (_, _, now, png) = edited(&calls[0]);
    assert!(!png, "the attachment stays");
    assert_eq!(now.board, Some(newer.clone()));

    // The same board again with nothing new to read: no edit at all.
    let mut same = phase(game, "", Op::Append);
    same.board = Some(newer);
    queue(&svc, game, &[same]).await;
    svc.deliver(&t).await.unwrap();
    assert!(t.take().is_empty(), "nothing would change: nothing sent");
}

/// Whenever the game turns to someone new within a phase, the phase
/// post's picture shows the public board as it stands (the order that
/// turned it may have changed nothing on the board, and the ones before
/// it did).
#[tokio::test]
async fn the_phase_posts_picture_is_current_whenever_the_game_turns() {
    let mut turns = 0;
    for kind in GameKind::ALL.iter().copied() {
        turns += picture_is_current_in(kind).await;
    }
    assert!(turns >= 20, "too few turns within a phase to tell: {turns}");
}

async fn picture_is_current_in(kind: GameKind) -> usize {
    let (svc, _) = crate::common::service(&format!("live-current-{kind}")).await;
    let names: Vec<String> = ["alice", "bob", "carol"].iter().map(|s| s.to_string()).collect();
    crate::common::ok(
        &svc,
        &crate::common::at(CHANNEL, 1, "alice"),
        Request::New {
            kind,
            seed: Some(3),
            options: None,
            private: None,
        },
    )
    .await;
    let game = svc.store().games_in_channel(CHANNEL).await.unwrap()[0].id;
    join_and_start(&svc).await;
    let t = Recorder::default();
    let slot = Slot::Phase { game };
    let mut rng = orrery::engine::GameRng::seeded(7);
    let mut turns = 0;
    for _ in 0..80 {
        svc.deliver(&t).await.unwrap();
        t.take();
        let row = svc.store().game(game).await.unwrap().unwrap();
        let state = row.state.clone().unwrap();
        if state.outcome().is_some() {
            break;
        }
        let p = state
            .pending()
            .into_iter()
            .find(|p| !p.submitted)
            .expect("someone owes");
        let line = rng.pick(&state.legal_commands(p.seat)).unwrap().clone();
        let shown = live_at(&svc, slot).await.unwrap().1.board.unwrap();
        let drawn = svc.store().state_at(game, row.kind, shown.seq).await.unwrap();
        let behind = drawn.scene(Viewer::Public, &names) != state.scene(Viewer::Public, &names);
        order_as(&svc, p.seat, line).await;
        svc.deliver(&t).await.unwrap();
        let after = svc.store().game(game).await.unwrap().unwrap().state.unwrap();
        let owing = |s: &orrery::games::AnyState| -> Vec<Seat> {
            s.pending()
                .into_iter()
                .filter(|p| !p.submitted && !p.undisclosed)
                .map(|p| p.seat)
                .collect()
        };
        let turned = owing(&after).iter().any(|s| !owing(&state).contains(s));
        if turned && after.phase() == state.phase() && after.outcome().is_none() {
            turns += 1;
            if behind {
                eprintln!("{kind}: a turn began with the picture behind the board");
            }
            let shown = live_at(&svc, slot).await.unwrap().1.board.unwrap();
            let drawn = svc.store().state_at(game, row.kind, shown.seq).await.unwrap();
            assert!(
                drawn.scene(Viewer::Public, &names) == after.scene(Viewer::Public, &names),
                "{kind}: the game turned to someone new and the phase post shows an older board"
            );
        }
    }
    eprintln!("{kind}: {turns} turns within a phase checked");
    turns
}

/// Fencing (issue #29 §3): a delivery pass stalls in the middle of editing
/// the phase post, past its claim's lease; another pass takes the row over
/// and applies it and the next one. When the stalled edit lands late, the
/// stalled pass's writes are refused (the stored live message stays the
/// newest) and its edit is undone, so the post never goes back to an
/// older version and the next append builds on the newest.
#[tokio::test]
async fn a_stalled_pass_never_turns_a_live_message_back() {
    let (svc, game) = with_game("fence").await;
    let svc = svc.with_send_timeout(std::time::Duration::from_secs(600));
    let t = Recorder::default();
    queue(&svc, game, &[phase(game, "v0", Op::Post)]).await;
    svc.deliver(&t).await.unwrap();
    let (_, at, _) = sent(&t.take()[0]);
    let ids = queue(
        &svc,
        game,
        &[phase(game, "one", Op::Append), phase(game, "two", Op::Append)],
    )
    .await;

    let (reached, release) = t.stall_next_edit();
    let (stalled, other) = tokio::join!(svc.deliver(&t), async {
        reached.notified().await;
        // The stalled pass's lease runs out (as if 60 s went by).
        sqlx::query("UPDATE outbox SET claimed_until = 0 WHERE delivered_at IS NULL")
            .execute(svc.store().pool())
            .await
            .unwrap();
        let other = svc.deliver(&t).await.unwrap();
        assert_eq!(full(&t.now(at.message)), "v0\none\ntwo");
        release.notify_one();
        other
    });
    assert_eq!(other, 2, "the second pass applies both rows");
    assert_eq!(stalled.unwrap(), 0, "the stalled pass's send is superseded");
    assert_eq!(full(&t.now(at.message)), "v0\none\ntwo", "the message never stays back");
    let live = live_at(&svc, Slot::Phase { game }).await.unwrap();
    assert_eq!((live.0, full(&live.1)), (at.message, "v0\none\ntwo".to_string()));
    let calls = t.take();
    // The late edit landed (it was in flight) and was undone at once.
    let late = calls
        .iter()
        .rposition(|c| matches!(c, Call::Edit { id, msg, .. } if *id == ids[0] && full(msg) == "v0\none"))
        .expect("the stalled edit landed");
    assert!(
        matches!(&calls[late + 1..], [Call::Edit { msg, .. }] if full(msg) == "v0\none\ntwo"),
        "{calls:#?}"
    );

    // The next append builds on the newest version, in the same message.
    queue(&svc, game, &[phase(game, "three", Op::Append)]).await;
    assert_eq!(svc.deliver(&t).await.unwrap(), 1);
    assert_eq!(full(&t.now(at.message)), "v0\none\ntwo\nthree");
    assert!(
        t.take().iter().all(|c| matches!(c, Call::Edit { .. })),
        "nothing was posted anew"
    );
    assert_eq!(t.shown.lock().unwrap().len(), 1);
}
