//! A player whose DMs are closed, through the fake Discord (see
//! `tests/support/`): Discord refuses the bot's DMs to bob with its real
//! error (403, code 50007). The channel is told once, mentioning him and
//! nothing secret; what was meant for his DMs is kept, not retried; he
//! plays from the channel with `/game board` (his own board, his sheet and
//! his prompt's buttons, seen only by him); when he opens his DMs and runs
//! `/game dms`, his prompt comes by DM again.

use crate::support::{Message, Origin, Place};
use orrery::engine::Seat;
use orrery::games::{AnyState, GameKind};
use orrery::service::Target;
use serde_json::json;
use std::time::Duration;

const DRAIN: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_closed_dms_plays_from_the_channel() {
    let h = crate::support::Harness::start().await;
    let chan = h.fake.add_channel("spectrum");
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    h.fake.set_dms_closed(&bob, true);
    let t = h
        .open_game_of(
            GameKind::Spectrum,
            chan,
            &[alice.clone(), bob.clone()],
            Some(1),
            Some(json!({"rounds": 5})),
        )
        .await;
    h.wait_outbox_drained(DRAIN).await;

    let notices = |h: &crate::support::Harness| -> Vec<Message> {
        h.fake.read(|w| {
            w.messages_in(chan)
                .into_iter()
                .filter(|m| m.origin == Origin::Post && m.content.contains("📪"))
                .cloned()
                .collect()
        })
    };
    let bob_dms = |h: &crate::support::Harness| -> usize {
        h.fake.read(|w| {
            w.dm_channel_of(bob.id)
                .map(|c| w.messages_in(c).iter().filter(|m| m.origin == Origin::Post).count())
                .unwrap_or(0)
        })
    };

    // One notice, mentioning and pinging bob only, saying how to fix it.
    let n = notices(&h);
    assert_eq!(n.len(), 1, "one notice: {n:?}");
    let notice = &n[0];
    assert!(notice.content.contains(&format!("<@{}>", bob.id)), "{}", notice.content);
    assert_eq!(notice.pinged, vec![bob.id], "the notice pings bob alone");
    assert!(
        notice.content.contains("/game board") && notice.content.contains("/game dms"),
        "{}",
        notice.content
    );
    for secret in ["sheet is", "points", "build", "Algol", "Mizar"] {
        assert!(!notice.content.contains(secret), "the notice reads `{secret}`");
    }
    assert_eq!(bob_dms(&h), 0, "Discord refused every DM to bob");
    // Alice's DMs work as ever.
    assert!(h.newest_prompt(&alice, t.game).is_some(), "alice has her prompt");
    // Every outbox row is settled: nothing for bob is retried forever.
    let outbox = h.outbox().await;
    assert!(outbox.iter().all(|(_, _, delivered)| *delivered));
    let kept = outbox
        .iter()
        .filter(|(_, m, _)| m.target == Target::Dm(orrery::engine::UserId(bob.id)))
        .count();
    assert!(kept >= 1, "bob's prompt was kept");

    // Bob reads his own board, sheet and prompt in the channel, privately,
    // and marks his sheet ready with the button there.
    let mine = h.fake.run(&bob, Place::Channel(chan), "game board", &[]).await;
    assert!(mine.ephemeral(), "only bob sees his board");
    assert_eq!(mine.attachments.len(), 1, "his own board");
    crate::support::assert_png(&mine.attachments[0].data, "bob's private board");
    assert!(mine.content.contains("Your sheet is empty"), "{}", mine.content);
    let ask = format!("c:{}:ready", t.game.0);
    assert!(mine.plain_ids().contains(&ask), "{:?}", mine.custom_ids());
    let asked = h.fake.press(&bob, mine.id, &mine.control(&ask).unwrap()).await;
    let question = h.fake.answer(asked).await;
    let ready = format!("o:{}:ready", t.game.0);
    assert!(
        question.ephemeral() && question.plain_ids().contains(&ready),
        "{}",
        question.content
    );
    let seq = h.row(t.game).await.seq;
    let pressed = h
        .fake
        .press(&bob, question.id, &question.control(&ready).unwrap())
        .await;
    let taken = h.outcome_of_press(t.game, pressed, seq).await;
    assert!(taken.is_ok(), "bob's ready was refused: {taken:?}");
    h.wait_outbox_drained(DRAIN).await;
    let AnyState::Spectrum(s) = h.state(t.game).await else {
        unreachable!()
    };
    assert!(s.sheet.is_ready(Seat(1)), "bob's button worked");
    // Alice ends the section from her DMs: a new section, a new prompt for
    // bob kept, no second notice.
    let line = h
        .state(t.game)
        .await
        .legal_commands(Seat(0))
        .into_iter()
        .find(|c| c.name == "ready")
        .unwrap();
    let state = h.state(t.game).await;
    h.give_as(&t, &state, Seat(0), &line).await;
    h.wait_outbox_drained(DRAIN).await;
    assert_eq!(notices(&h).len(), 1, "the channel is told once");
    assert_eq!(bob_dms(&h), 0);

    // Another player asking in the channel sees the public board.
    let carol = h.fake.add_user("carol");
    let public = h.fake.run(&carol, Place::Channel(chan), "game board", &[]).await;
    assert!(!public.content.contains("your own board"), "{}", public.content);

    // Bob opens his DMs and says so: his prompt comes by DM, with his board.
    h.fake.set_dms_closed(&bob, false);
    let ans = h.fake.run(&bob, Place::Channel(chan), "game dms", &[]).await;
    assert!(ans.ephemeral() && ans.content.contains("DM you"), "{}", ans.content);
    h.wait_outbox_drained(DRAIN).await;
    let prompt = h.newest_prompt(&bob, t.game).expect("bob's prompt by DM");
    assert!(prompt.content.contains("sheet"), "{}", prompt.content);
    assert_eq!(prompt.attachments.len(), 1, "with his own board");
    // Asked again, there is nothing to do.
    let again = h.fake.run(&bob, Place::Channel(chan), "game dms", &[]).await;
    assert!(again.content.contains("work"), "{}", again.content);
    h.fake.assert_clean();
}
