//! Private threads, through the fake Discord (see `tests/support/`): a game
//! whose private messages go to a private thread per player in the game's
//! channel (`/host settings private:thread`), and players whose DMs are
//! closed moved to a thread by the host (`/host private`) or by themselves
//! (`/game private in:thread`). The bot opens each thread (type 12, not
//! invitable) and adds only its player; prompts, private boards and their
//! buttons land there, pinging the player alone; nothing private reaches
//! the game's channel; someone else who can see a thread (a moderator)
//! cannot use its buttons. Every request is checked against Discord's
//! OpenAPI spec by the fake.

use crate::support::fake_discord::Thread;
use crate::support::{Harness, Id, Message, Origin, Place, User};
use orrery::engine::{GameId, Seat};
use orrery::games::AnyState;
use serde_json::json;
use std::collections::BTreeSet;
use std::time::Duration;

const DRAIN: Duration = Duration::from_secs(60);

/// Open a Spectrum War game in `channel` (seed 1, 5 rounds) hosted by
/// `players[0]`; `before_start` runs in the lobby, before the others join.
async fn open_spectrum(
    h: &Harness,
    channel: Id,
    players: &[User],
    before_start: &[(&str, &[(&str, serde_json::Value)])],
) -> GameId {
    let host = &players[0];
    let opts = [
        ("game", json!("spectrum")),
        ("seed", json!(1)),
        ("options", json!("rounds:5")),
    ];
    let ans = h.fake.run(host, Place::Channel(channel), "game new", &opts).await;
    assert!(ans.content.contains("is open"), "game new: {}", ans.content);
    for (path, options) in before_start {
        let ans = h.fake.run(host, Place::Channel(channel), path, options).await;
        assert!(ans.ephemeral(), "{path}: {}", ans.content);
    }
    for p in &players[1..] {
        let ans = h.fake.run(p, Place::Channel(channel), "game join", &[]).await;
        assert!(ans.content.contains("joined"), "game join: {}", ans.content);
    }
    let ans = h.fake.run(host, Place::Channel(channel), "game start", &[]).await;
    assert!(ans.content.contains("started"), "game start: {}", ans.content);
    h.store()
        .await
        .games_in_channel(channel)
        .await
        .unwrap()
        .into_iter()
        .next()
        .expect("the game")
        .id
}

/// The private thread of `user` in `channel`: exactly one, holding only
/// them and the bot, private and not invitable.
fn thread_of(h: &Harness, channel: Id, user: &User) -> (Id, Thread) {
    let bot = h.fake.read(|w| w.bot.id);
    let theirs: Vec<(Id, Thread)> = h.fake.read(|w| {
        w.threads_in(channel)
            .into_iter()
            .filter(|(_, t)| t.members.contains(&user.id))
            .map(|(id, t)| (id, t.clone()))
            .collect()
    });
    assert_eq!(theirs.len(), 1, "{} is in one thread: {theirs:?}", user.name);
    let (id, t) = theirs.into_iter().next().unwrap();
    assert!(
        t.private && !t.invitable,
        "a private thread nobody else can be invited to: {t:?}"
    );
    assert_eq!(
        t.members,
        BTreeSet::from([bot, user.id]),
        "only {} and the bot",
        user.name
    );
    let name = h.fake.read(|w| w.channels[&id].name.clone());
    assert!(
        name.contains("Spectrum War") && name.contains(&user.name),
        "thread name: {name}"
    );
    (id, t)
}

/// The newest post in `thread` with controls of `game`.
fn prompt_in(h: &Harness, thread: Id, game: GameId) -> Option<Message> {
    h.fake.read(|w| {
        w.messages_in(thread)
            .into_iter()
            .rev()
            .find(|m| {
                m.origin == Origin::Post
                    && m.custom_ids()
                        .iter()
                        .any(|c| crate::support::game_of_id(c) == Some(game))
            })
            .cloned()
    })
}

/// Posts the bot made by DM to `user`.
fn dm_posts(h: &Harness, user: &User) -> usize {
    h.fake.read(|w| {
        w.dm_channel_of(user.id)
            .map(|c| w.messages_in(c).iter().filter(|m| m.origin == Origin::Post).count())
            .unwrap_or(0)
    })
}

/// Nothing private in the game's channel: no sheet, no prompt controls,
/// nobody's private board.
fn assert_channel_public(h: &Harness, channel: Id) {
    for m in h.fake.messages_in(channel) {
        if m.origin != Origin::Post {
            continue;
        }
        for private in ["Your sheet", "your own board", "sheet is empty"] {
            assert!(
                !m.content.contains(private),
                "the channel reads `{private}`: {}",
                m.content
            );
        }
        assert!(
            !m.custom_ids()
                .iter()
                .any(|c| c.starts_with("c:") || c.starts_with("o:")),
            "order controls in the channel: {:?}",
            m.custom_ids()
        );
    }
}

/// `user` marks their sheet ready with the buttons of `prompt` (asked
/// first, then "Yes"); returns once the game took it.
async fn ready_by_buttons(h: &Harness, user: &User, game: GameId, prompt: &Message) {
    let ask = format!("c:{}:ready", game.0);
    assert!(prompt.plain_ids().contains(&ask), "{:?}", prompt.custom_ids());
    let asked = h.fake.press(user, prompt.id, &prompt.control(&ask).unwrap()).await;
    let question = h.fake.answer(asked).await;
    let ready = format!("o:{}:ready", game.0);
    assert!(
        question.ephemeral() && question.plain_ids().contains(&ready),
        "{}",
        question.content
    );
    let seq = h.row(game).await.seq;
    let pressed = h
        .fake
        .press(user, question.id, &question.control(&ready).unwrap())
        .await;
    let taken = h.outcome_of_press(game, pressed, seq).await;
    assert!(taken.is_ok(), "{}'s ready was refused: {taken:?}", user.name);
}

async fn is_ready(h: &Harness, game: GameId, seat: Seat) -> bool {
    let AnyState::Spectrum(s) = h.state(game).await else {
        unreachable!()
    };
    s.sheet.is_ready(seat)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_thread_mode_keeps_each_players_messages_in_their_own_private_thread() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("spectrum");
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let carol = h.fake.add_user("carol");
    h.fake.make_moderator(&carol);
    let players = [alice.clone(), bob.clone()];
    let game = open_spectrum(
        &h,
        chan,
        &players,
        &[("host settings", &[("private", json!("thread"))])],
    )
    .await;
    h.wait_outbox_drained(DRAIN).await;

    let settings = h.fake.run(&carol, Place::Channel(chan), "game settings", &[]).await;
    assert!(
        settings.content.contains("private thread per player"),
        "{}",
        settings.content
    );
    assert_eq!(h.fake.read(|w| w.threads_in(chan).len()), 2, "one thread per player");
    let mut threads = Vec::new();
    for p in &players {
        let (thread, _) = thread_of(&h, chan, p);
        let prompt = prompt_in(&h, thread, game).unwrap_or_else(|| panic!("{}'s prompt in their thread", p.name));
        assert!(prompt.content.contains("sheet"), "{}", prompt.content);
        assert!(
            prompt.content.contains(&format!("<@{}>", p.id)),
            "the prompt mentions its player: {}",
            prompt.content
        );
        assert_eq!(prompt.pinged, vec![p.id], "the prompt pings {} alone", p.name);
        assert_eq!(prompt.attachments.len(), 1, "with {}'s own board", p.name);
        crate::support::assert_png(&prompt.attachments[0].data, "a private board in a thread");
        assert_eq!(dm_posts(&h, p), 0, "nothing by DM to {}", p.name);
        threads.push(thread);
    }
    assert_channel_public(&h, chan);

    // Bob's buttons work in his thread.
    let prompt = prompt_in(&h, threads[1], game).unwrap();
    ready_by_buttons(&h, &bob, game, &prompt).await;
    assert!(is_ready(&h, game, Seat(1)).await, "bob's button worked");
    h.wait_outbox_drained(DRAIN).await;

    // A moderator sees alice's thread but cannot use her buttons.
    let prompt = prompt_in(&h, threads[0], game).unwrap();
    let pressed = h
        .fake
        .press(
            &carol,
            prompt.id,
            &prompt.control(&format!("c:{}:ready", game.0)).unwrap(),
        )
        .await;
    let refused = h.fake.answer(pressed).await;
    assert!(
        refused.ephemeral() && refused.content.contains("alice's private thread"),
        "{}",
        refused.content
    );
    assert!(!is_ready(&h, game, Seat(0)).await);
    // Nor anyone's commands: alice's thread is hers.
    let theirs = h.fake.run(&carol, Place::Channel(threads[0]), "game board", &[]).await;
    assert!(theirs.content.contains("alice's private thread"), "{}", theirs.content);

    // Alice asks for her board in her thread: hers, privately.
    let mine = h.fake.run(&alice, Place::Channel(threads[0]), "game board", &[]).await;
    assert!(
        mine.ephemeral() && mine.content.contains("your own board"),
        "{}",
        mine.content
    );
    assert_eq!(mine.attachments.len(), 1);

    // She ends the section: the next prompts come to the same threads.
    let before: Vec<Id> = threads.iter().map(|t| prompt_in(&h, *t, game).unwrap().id).collect();
    let prompt = prompt_in(&h, threads[0], game).unwrap();
    ready_by_buttons(&h, &alice, game, &prompt).await;
    h.wait_outbox_drained(DRAIN).await;
    assert_eq!(h.fake.read(|w| w.threads_in(chan).len()), 2, "no new threads");
    for (p, (t, old)) in players.iter().zip(threads.iter().zip(&before)) {
        let now = prompt_in(&h, *t, game).unwrap();
        assert_ne!(now.id, *old, "{} has a new prompt in their thread", p.name);
        let old = h.fake.message(*old).unwrap();
        assert!(!old.has_controls(), "the old prompt lost its controls");
        assert_eq!(dm_posts(&h, p), 0);
    }
    assert_channel_public(&h, chan);
    h.fake.assert_clean();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_with_closed_dms_move_to_threads_by_the_host_or_themselves() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("spectrum");
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let carol = h.fake.add_user("carol");
    // Bob's DMs are closed (sending is refused); Discord will not even
    // open a DM channel with carol.
    h.fake.set_dms_closed(&bob, true);
    h.fake.set_dm_open_refused(&carol, true);
    let players = [alice.clone(), bob.clone(), carol.clone()];
    let game = open_spectrum(&h, chan, &players, &[]).await;
    h.wait_outbox_drained(DRAIN).await;

    // Both refusals are noticed: one notice each, saying how to fix it.
    let notices: Vec<Message> = h
        .fake
        .messages_in(chan)
        .into_iter()
        .filter(|m| m.origin == Origin::Post && m.content.contains("📪"))
        .collect();
    assert_eq!(notices.len(), 2, "{notices:?}");
    for (n, p) in notices.iter().zip([&bob, &carol]) {
        assert_eq!(n.pinged, vec![p.id], "{}", n.content);
        assert!(n.content.contains("/game private in:thread"), "{}", n.content);
    }
    assert!(
        h.fake
            .read(|w| w.log.iter().any(|l| l.path == "/users/@me/channels" && l.status == 403)),
        "carol's DM channel was refused"
    );
    assert_eq!(h.fake.read(|w| w.threads_in(chan).len()), 0, "no threads yet");

    // Only the host moves someone else.
    let not_host = h
        .fake
        .run(
            &carol,
            Place::Channel(chan),
            "host private",
            &[("seat", json!("bob")), ("in", json!("thread"))],
        )
        .await;
    assert!(not_host.content.contains("host"), "{}", not_host.content);
    assert_eq!(h.fake.read(|w| w.threads_in(chan).len()), 0);

    // The host moves bob: his pending prompt comes to his new thread.
    let moved = h
        .fake
        .run(
            &alice,
            Place::Channel(chan),
            "host private",
            &[("seat", json!("bob")), ("in", json!("thread"))],
        )
        .await;
    assert!(
        moved.ephemeral() && moved.content.contains("bob's private messages"),
        "{}",
        moved.content
    );
    h.wait_outbox_drained(DRAIN).await;
    let (bob_thread, _) = thread_of(&h, chan, &bob);
    let prompt = prompt_in(&h, bob_thread, game).expect("bob's prompt in his thread");
    assert!(prompt.content.contains("Your sheet is empty"), "{}", prompt.content);
    assert_eq!(prompt.attachments.len(), 1, "with his own board");

    // Carol moves herself.
    let moved = h
        .fake
        .run(&carol, Place::Channel(chan), "game private", &[("in", json!("thread"))])
        .await;
    assert!(
        moved.ephemeral() && moved.content.contains("your private messages"),
        "{}",
        moved.content
    );
    let again = h
        .fake
        .run(&carol, Place::Channel(chan), "game private", &[("in", json!("thread"))])
        .await;
    assert!(again.content.contains("already"), "{}", again.content);
    h.wait_outbox_drained(DRAIN).await;
    let (carol_thread, _) = thread_of(&h, chan, &carol);
    assert!(
        prompt_in(&h, carol_thread, game).is_some(),
        "carol's prompt in her thread"
    );
    assert_eq!(h.fake.read(|w| w.threads_in(chan).len()), 2);

    // Bob plays from his thread.
    ready_by_buttons(&h, &bob, game, &prompt).await;
    assert!(is_ready(&h, game, Seat(1)).await);
    h.wait_outbox_drained(DRAIN).await;
    assert_eq!(dm_posts(&h, &bob), 0);
    assert_channel_public(&h, chan);

    // Bob opens his DMs and says so, from his thread: his prompt comes by
    // DM and the one in his thread loses its controls.
    h.fake.set_dms_closed(&bob, false);
    let ans = h.fake.run(&bob, Place::Channel(bob_thread), "game dms", &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("DM you"), "{}", ans.content);
    h.wait_outbox_drained(DRAIN).await;
    let by_dm = h.newest_prompt(&bob, game).expect("bob's prompt by DM");
    assert!(by_dm.has_controls());
    assert!(
        prompt_in(&h, bob_thread, game).is_none(),
        "the thread's prompt is closed"
    );
    h.fake.assert_clean();
}
