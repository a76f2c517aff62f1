//! Playing as people do on Discord, with the real `orrery` binary against
//! the fake Discord (see `tests/support/`):
//!
//! - a whole Hyperspace game given with buttons and menus only, no typed
//!   order; each post that begins a phase pings exactly the players the
//!   game waits on, every prompt says by when and in which channel; the
//!   message volume is measured;
//! - a Starlanes move taken back with the prompt's button, and a take-back
//!   refused once dice were rolled.

use crate::support::{Harness, Id, Message, Place, Table, User, Via};
use orrery::engine::{CommandLine, GameId, GameRng, Outcome};
use orrery::games::{AnyEvent, AnyState, GameKind};
use orrery::store::GameStatus;
use serde_json::json;
use std::collections::{BTreeSet, HashSet};
use std::time::Duration;

const DRAIN: Duration = Duration::from_secs(60);

/// Every DM posted since the last look is a prompt that says by when
/// (a Discord timestamp) and in which channel, with controls. Returns how
/// many there were.
fn check_prompts(h: &Harness, t: &Table, seen: &mut HashSet<Id>) -> usize {
    let mut n = 0;
    for u in &t.seats {
        let Some(dm) = h.fake.read(|w| w.dm_channel_of(u.id)) else {
            continue;
        };
        for m in h.new_posts(dm, seen) {
            if !m.has_controls() {
                // The bot's board sent to a player who asked for it.
                assert!(!m.attachments.is_empty(), "a DM with no controls: {}", m.content);
                continue;
            }
            assert!(m.content.contains("<t:"), "a prompt with no deadline: {}", m.content);
            assert!(
                m.content.contains(&format!("<#{}>", t.channel)),
                "a prompt with no link to the game's channel: {}",
                m.content
            );
            n += 1;
        }
    }
    n
}

fn players(h: &Harness) -> Vec<User> {
    ["alice", "bob", "carol"].iter().map(|n| h.fake.add_user(n)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_hyperspace_game_is_played_with_buttons_and_menus_only() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("hyperspace");
    let players = players(&h);
    let t = h
        .open_game_of(
            GameKind::Hyperspace,
            chan,
            &players,
            Some(2),
            Some(json!({"rounds": 4})),
        )
        .await;
    // Any legal order, at random: the whole range of controls is used.
    let mut rng = GameRng::seeded(2);
    h.wait_outbox_drained(DRAIN).await;

    let (mut seen_posts, mut seen_dms) = (HashSet::new(), HashSet::new());
    // The lobby's posts (and the first phase's, which pings the first player).
    let mut state = h.state(t.game).await;
    let mut pings = crate::support::check_pings(&h, &t, &BTreeSet::new(), &state, &mut seen_posts);
    let mut prompts = check_prompts(&h, &t, &mut seen_dms);
    let (mut orders, mut picks) = (0, 0);
    let mut via: std::collections::BTreeMap<Via, usize> = Default::default();
    loop {
        let before = crate::support::owing(&t, &state);
        if h.row(t.game).await.status != GameStatus::Active {
            break;
        }
        let p = state
            .pending()
            .into_iter()
            .find(|p| !p.submitted)
            .expect("someone owes");
        let line = rng.pick(&state.legal_commands(p.seat)).expect("a legal order").clone();
        let how = h.give_as(&t, &state, p.seat, &line).await;
        orders += 1;
        *via.entry(how).or_default() += 1;
        picks += usize::from(line.name == "card");
        h.wait_outbox_drained(DRAIN).await;
        let row = h.row(t.game).await;
        state = row.state.expect("a game keeps its state");
        pings += crate::support::check_pings(&h, &t, &before, &state, &mut seen_posts);
        prompts += check_prompts(&h, &t, &mut seen_dms);
        assert!(orders < 2000, "the game does not end");
    }
    let outcome = h.finished(&t).await;
    let winners: Vec<String> = match &outcome {
        Outcome::Winner { seat, .. } => vec![format!("**{}** wins", t.seats[seat.index()].name)],
        Outcome::Shared { seats, .. } => seats
            .iter()
            .map(|s| format!("**{}**", t.seats[s.index()].name))
            .collect(),
        other => panic!("a winner or a shared win: {other:?}"),
    };

    // The end: one result post, the last one, with the final board.
    let posts = h.posts(chan);
    let result = crate::support::result_post(&t, &posts, &outcome);
    for w in &winners {
        assert!(result.content.contains(w), "{w}: {}", result.content);
    }
    assert_eq!(result.attachments.len(), 1, "the result carries the final board");
    crate::support::assert_png(&result.attachments[0].data, "the final board");
    h.assert_outbox_delivered_once().await;
    let first_hour = crate::support::first_hour::first_hour(&h, &t, &players, orders, pings);

    assert!(picks > 0, "no combat card was picked");
    // Buttons, menus and a question first were all used (the group picker
    // is used in the Starlanes game of `discord_starlanes`).
    for how in [Via::Button, Via::Menu] {
        assert!(via.contains_key(&how), "no order given by {how:?}: {via:?}");
    }
    assert!(
        via.contains_key(&Via::AskedButton) || via.contains_key(&Via::AskedMenu),
        "no order asked first: {via:?}"
    );
    assert!(pings > 0 && prompts > 0);
    eprintln!(
        "hyperspace seed 2 (4 rounds) through Discord, by controls only: {winners:?}; {orders} orders ({picks} card picks); \
         {pings} posts pinged, {prompts} prompts; controls used {via:?}; {first_hour:?}"
    );
}

/// The prompt of `user` in `game`, once it has a take-back button (or
/// not).
async fn prompt_with_take_back(h: &Harness, user: &User, game: GameId, offered: bool) -> Message {
    let id = format!("t:{}", game.0);
    h.fake
        .wait_for(
            &format!("{}'s prompt with take-back {offered}", user.name),
            Duration::from_secs(30),
            |w| {
                let dm = w.dm_channel_of(user.id)?;
                let m = w
                    .messages_in(dm)
                    .into_iter()
                    .rev()
                    .find(|m| m.origin == crate::support::Origin::Post && m.has_controls())?;
                (m.custom_ids().contains(&id) == offered).then(|| m.clone())
            },
        )
        .await
}

/// The game now, who owes, the policy's order, the events it will make,
/// and whether the same player still owes after it.
async fn next(h: &Harness, t: &Table) -> (AnyState, User, CommandLine, Vec<AnyEvent>, bool) {
    let state = h.state(t.game).await;
    let p = state
        .pending()
        .into_iter()
        .find(|p| !p.submitted)
        .expect("someone owes");
    let line = crate::support::policy::choose(&state, p.seat).expect("the policy has an order");
    let events = state.decide(p.seat, &line).expect("the policy's order is legal");
    let mut after = state.clone();
    for e in &events {
        after.apply(e).expect("the event applies");
    }
    let goes_on = after.pending().iter().any(|q| q.seat == p.seat && !q.submitted);
    (state, t.seats[p.seat.index()].clone(), line, events, goes_on)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_taken_back_with_its_button_but_not_once_dice_are_rolled() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("starlanes");
    let players = players(&h);
    let t = h.open_game_of(GameKind::Starlanes, chan, &players, Some(6), None).await;
    h.wait_outbox_drained(DRAIN).await;

    // The policy's first orders, given with the prompt's controls, until
    // one can be taken back (a move, a purchase) and the turn goes on.
    let (user, state_before, line) = loop {
        let (state, user, line, events, goes_on) = next(&h, &t).await;
        h.step_by_controls(&t).await.expect("the game is on");
        h.wait_outbox_drained(DRAIN).await;
        if goes_on && events.iter().all(|e| e.takes_back()) {
            break (user, state, line);
        }
    };
    let prompt = prompt_with_take_back(&h, &user, t.game, true).await;
    let seq = h.row(t.game).await.seq;
    let i = h.fake.press(&user, prompt.id, &format!("t:{}", t.game.0)).await;
    h.outcome_of_press(t.game, i, seq)
        .await
        .unwrap_or_else(|refused| panic!("the take-back was refused: {}", refused.content));
    h.wait_outbox_drained(DRAIN).await;
    let restored = h.state(t.game).await;
    assert_eq!(
        serde_json::to_value(&restored).unwrap(),
        serde_json::to_value(&state_before).unwrap(),
        "`{line}` was taken back"
    );
    // Everyone reads it in the phase's post.
    let told = h.fake.read(|w| {
        w.messages_in(chan)
            .into_iter()
            .any(|m| m.content.contains(&format!("{} took back", user.name)))
    });
    assert!(told, "the channel was not told of the take-back\n{}", h.fake.dump(10));

    // Play on until the one who owes attacks (dice are rolled and the turn
    // goes on): then nothing can be taken back.
    let mut n = 0;
    let attacker = loop {
        n += 1;
        assert!(n < 500, "nobody ever attacked");
        let (_, user, _, events, goes_on) = next(&h, &t).await;
        h.step_by_controls(&t).await.expect("the game is on");
        h.wait_outbox_drained(DRAIN).await;
        if goes_on && events.iter().any(|e| !e.takes_back()) {
            break user;
        }
    };
    prompt_with_take_back(&h, &attacker, t.game, false).await;
    let before = h.snapshot(t.game).await;
    let refused = h
        .fake
        .run(
            &attacker,
            Place::Channel(chan),
            "game takeback",
            &[("game", json!(t.game.0))],
        )
        .await;
    assert!(refused.ephemeral(), "{}", refused.content);
    assert!(
        refused.content.contains("can't be taken back") && refused.content.contains("dice"),
        "{}",
        refused.content
    );
    assert_eq!(h.snapshot(t.game).await, before, "a refused take-back changes nothing");
    h.fake.assert_clean();
}

/// A prompt's order button pressed phases later (its client still showing
/// it) gives nothing, even when its order is legal again: the bot says the
/// prompt is from an earlier phase and shows the current one (issue 29,
/// point 4; on the old bot a Starlanes phase-1 prompt was taken in phase 4).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_order_button_of_an_earlier_phase_gives_nothing() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("starlanes");
    let players = players(&h);
    let t = h.open_game_of(GameKind::Starlanes, chan, &players, Some(6), None).await;
    h.wait_outbox_drained(DRAIN).await;
    let order = format!("o:{}:", t.game.0);
    // Every prompt seen, as its player's client shows it, with its phase.
    let mut seen: Vec<(Id, u32, Message)> = Vec::new();
    for _ in 0..150 {
        let state = h.state(t.game).await;
        let now = state.phase().number;
        for p in state.pending() {
            let user = &t.seats[p.seat.index()];
            let legal = state.legal_commands(p.seat);
            let old = seen
                .iter()
                .filter(|(u, made, _)| *u == user.id && made + 2 <= now)
                .find_map(|(_, made, m)| {
                    m.custom_ids().into_iter().find_map(|id| {
                        let plain = crate::support::fake_discord::unpositioned(&id);
                        let line = CommandLine::parse(plain.strip_prefix(&order)?).ok()?;
                        legal.contains(&line).then(|| (*made, m.clone(), id, line))
                    })
                });
            let Some((made, prompt, id, line)) = old else { continue };
            let before = h.snapshot(t.game).await;
            let i = h.fake.press_as_seen(user, &prompt, &id).await;
            let refusal = h
                .outcome_of_press(t.game, i, before.1)
                .await
                .err()
                .unwrap_or_else(|| panic!("`{line}` from phase {made}'s prompt was taken in phase {now}"));
            assert!(
                refusal.ephemeral()
                    && refusal
                        .content
                        .contains("This prompt is from an earlier phase; nothing was sent.")
                    && refusal.content.contains("Your current prompt:"),
                "{}",
                refusal.content
            );
            assert_eq!(h.snapshot(t.game).await, before, "an old button changed the game");
            return;
        }
        for u in &t.seats {
            if let Some(m) = h.newest_prompt(u, t.game) {
                seen.push((u.id, now, m));
            }
        }
        h.step_by_controls(&t).await.expect("the game is on");
        h.wait_outbox_drained(DRAIN).await;
    }
    panic!("no old button became legal again");
}
