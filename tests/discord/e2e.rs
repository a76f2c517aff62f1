//! The real `orrery` binary (`orrery bot`) against a fake Discord on
//! 127.0.0.1: REST and gateway, checked against Discord's OpenAPI spec
//! (see `tests/support/`). Whole Hyperspace games are played through slash
//! commands, autocomplete, buttons and menus only.

use crate::support::{FaultKind, FaultTarget, Harness, Message, Origin, Place, Table};
use orrery::engine::{CommandLine, GameId, Outcome};
use orrery::service::Target;
use orrery::store::GameStatus;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const DRAIN: Duration = Duration::from_secs(60);

/// Options that keep games short: six rounds at most (the policy ends them
/// sooner, by conquest).
fn short_game() -> Option<Value> {
    Some(json!({"rounds": 6}))
}

/// The lines of a rules page's section that are not table rows.
fn page_lines_of(page: &str, section: &str) -> Vec<String> {
    let start = page.find(&format!("## {section}\n")).expect("the section");
    let rest = &page[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |e| e + 4);
    rest[..end]
        .lines()
        .filter(|l| !l.starts_with('|'))
        .map(str::to_string)
        .collect()
}

fn attachment_png(m: &Message) -> &[u8] {
    assert_eq!(m.attachments.len(), 1, "expected one attachment: {}", m.content);
    assert_eq!(m.attachments[0].filename, "board.png");
    &m.attachments[0].data
}

/// Public posts in a channel (not ephemeral, not deleted), oldest first.
fn public_posts(h: &Harness, channel: u64) -> Vec<Message> {
    h.fake.read(|w| {
        w.messages_in(channel)
            .into_iter()
            .filter(|m| !m.ephemeral())
            .cloned()
            .collect()
    })
}

/// `text` with game `id`'s number replaced by `#N` (to compare two games).
fn without_game_id(text: &str, id: GameId) -> String {
    let needle = format!("#{}", id.0);
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(&needle) {
        let after = &rest[i + needle.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&needle);
        } else {
            out.push_str("#N");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// 1. A whole three-player game, only through Discord interactions.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_is_played_through_discord() {
    let started = Instant::now();
    let h = Harness::start().await;
    let chan = h.fake.add_channel("hyperspace");
    let alice = h.fake.add_user("alice");
    let bob = h.fake.add_user("bob");
    let carol = h.fake.add_user("carol");
    let here = Place::Channel(chan);

    // The rules, without a game.
    let rules = h
        .fake
        .run(&alice, here, "game rules", &[("system", json!("hyperspace"))])
        .await;
    assert!(
        rules.ephemeral() && rules.content.contains("Orders"),
        "{}",
        rules.content
    );
    assert!(
        rules.content.contains("Sections") && rules.content.contains("- Combat"),
        "the introduction lists the sections: {}",
        rules.content
    );
    // A section arrives whole, tables as lines, in messages of at most
    // 2000 characters split at line breaks (never cut).
    for section in ["The board", "Combat"] {
        let page = orrery::games::GameKind::Hyperspace.rules_page();
        let whole = orrery::service::rules_section(page, section).unwrap().to_plain();
        let last_line = whole
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && l.trim() != "---")
            .unwrap()
            .to_string();
        let i = h
            .fake
            .command(
                &alice,
                here,
                "game rules",
                &[("system", json!("hyperspace")), ("section", json!(section))],
            )
            .await;
        h.fake.answer(i).await;
        let parts: Vec<Message> = h
            .fake
            .wait_for("every part of the rules section", Duration::from_secs(20), |w| {
                let parts: Vec<Message> = w
                    .messages
                    .iter()
                    .filter(|m| {
                        !m.deleted
                            && matches!(m.origin, Origin::Reply { interaction } | Origin::Followup { interaction } if interaction == i)
                    })
                    .cloned()
                    .collect();
                parts
                    .iter()
                    .any(|m| m.content.lines().any(|l| l.replace("**", "") == last_line))
                    .then_some(parts)
            })
            .await;
        assert!(parts.iter().all(|m| m.ephemeral() && m.content.chars().count() <= 2000));
        let shown: Vec<String> = parts
            .iter()
            .flat_map(|m| m.content.lines().map(|l| l.replace("**", "")))
            .collect();
        assert!(
            shown.iter().all(|l| !l.starts_with('|')),
            "no pipe table rows: {shown:?}"
        );
        for line in page_lines_of(page, section) {
            assert!(
                shown.iter().any(|l| *l == line.replace("**", "")),
                "{section}: {line:?} is missing"
            );
        }
    }

    // The lobby: bob finds the game by autocomplete; carol joins while the
    // database is slow, so the bot defers and then fills its placeholder.
    // The host types the game's options with suggestions: its keys with
    // their defaults, then the values of the one typed.
    let keys = h
        .fake
        .autocomplete(
            &alice,
            here,
            "game new",
            &[("game", json!("hyperspace"))],
            ("options", ""),
        )
        .await;
    assert!(keys.iter().any(|c| c["value"] == "rounds:25"), "{keys:?}");
    let rounds = short_game().unwrap()["rounds"].clone();
    let values = h
        .fake
        .autocomplete(
            &alice,
            here,
            "game new",
            &[("game", json!("hyperspace"))],
            ("options", &format!("rounds:{rounds}")),
        )
        .await;
    assert_eq!(values[0]["value"], format!("rounds:{rounds}"), "{values:?}");
    let opened = h
        .fake
        .run(
            &alice,
            here,
            "game new",
            &[("game", json!("hyperspace")), ("options", values[0]["value"].clone())],
        )
        .await;
    assert!(
        !opened.ephemeral() && opened.content.contains("is open"),
        "{}",
        opened.content
    );
    let choices = h.fake.autocomplete(&bob, here, "game join", &[], ("game", "")).await;
    assert_eq!(choices.len(), 1, "{choices:?}");
    assert!(
        choices[0]["name"].as_str().unwrap().contains("Hyperspace (lobby)"),
        "{choices:?}"
    );
    let game = GameId(choices[0]["value"].as_i64().expect("a game number"));
    let joined = h.fake.run(&bob, here, "game join", &[("game", json!(game.0))]).await;
    assert!(
        !joined.ephemeral() && joined.content.contains("bob joined"),
        "{}",
        joined.content
    );
    let slow = h.hold_write_lock(Duration::from_millis(2500)).await;
    let i = h.fake.command(&carol, here, "game join", &[]).await;
    let joined = h.fake.answer(i).await;
    slow.await.unwrap();
    assert!(
        !joined.ephemeral() && joined.content.contains("carol joined"),
        "{}",
        joined.content
    );
    let deferred = h.fake.read(|w| w.interaction(i).and_then(|x| x.callback));
    assert_eq!(deferred, Some(5), "a slow request is deferred");
    assert_eq!(
        joined.origin,
        Origin::Reply { interaction: i },
        "the deferred placeholder is filled, not left behind"
    );
    assert_eq!(h.fake.answers(i).len(), 1);
    let started_reply = h.fake.run(&alice, here, "game start", &[]).await;
    assert!(
        started_reply.ephemeral() && started_reply.content.contains("started"),
        "{}",
        started_reply.content
    );
    let t = Table {
        game,
        channel: chan,
        seats: vec![alice.clone(), bob.clone(), carol.clone()],
    };

    // Autocomplete offers alice's legal orders, consistent with what is filled.
    let from = h
        .fake
        .autocomplete(&alice, here, "hyperspace depart", &[], ("from", ""))
        .await;
    assert!(from.iter().any(|c| c["value"] == "Regulus"), "{from:?}");
    let ships = h
        .fake
        .autocomplete(
            &alice,
            here,
            "hyperspace depart",
            &[("from", json!("Regulus"))],
            ("ships", "1"),
        )
        .await;
    assert!(
        ships.iter().any(|c| c["value"] == 15) && ships.iter().all(|c| c["value"].is_i64()),
        "{ships:?}"
    );
    let status = h.fake.run(&bob, here, "game status", &[]).await;
    assert!(
        status.ephemeral() && status.content.contains("alice"),
        "{}",
        status.content
    );

    // Play to the first battle; look at the board in public and in private.
    h.play(&t, 100, |s| s.pending().iter().any(|p| p.kind == "combat-card"))
        .await;
    // A player asking in the channel sees their own board, privately; one
    // who does not play there, the public board, for all to see.
    let own = h.fake.run(&carol, here, "game board", &[]).await;
    assert!(
        own.ephemeral() && own.content.contains("your own board"),
        "{}",
        own.content
    );
    crate::support::assert_png(attachment_png(&own), "carol's own board");
    let onlooker = h.fake.add_user("onlooker");
    let board = h.fake.run(&onlooker, here, "game board", &[]).await;
    assert!(!board.ephemeral());
    crate::support::assert_png(attachment_png(&board), "the public board");
    let state = h.state(game).await;
    let fighters: Vec<usize> = state.pending().iter().map(|p| p.seat.index()).collect();
    assert_eq!(fighters.len(), 2);
    let first = t.seats[fighters[0]].clone();
    let second = t.seats[fighters[1]].clone();
    let mine = h
        .fake
        .run(&first, Place::Dm, "game board", &[("game", json!(game.0))])
        .await;
    // In DMs the private board is kept (was: ephemeral; the service now
    // answers a seated player's board in DMs as a normal message).
    assert!(!mine.ephemeral(), "a private board in DMs is kept");
    assert_eq!(
        mine.channel_id,
        h.fake.dm_channel(first.id),
        "a private view is only for its owner"
    );
    crate::support::assert_png(attachment_png(&mine), "a private board");
    let cards = h
        .fake
        .autocomplete(
            &first,
            Place::Dm,
            "hyperspace card",
            &[("game", json!(game.0))],
            ("name", ""),
        )
        .await;
    assert_eq!(cards.len(), 7, "the whole hand is offered: {cards:?}");

    // The first card by the DM prompt's button, the second from a menu.
    // A pick from a prompt gets no answer of its own (the delivery edits
    // the prompt with the outcome; the bot does not edit it from the
    // interaction, which would race the delivery).
    // The prompt's board button shows the player their own board.
    let card_prompt = h.card_prompt(&t, &first).await;
    let board_id = format!("b:{}", game.0);
    assert!(
        card_prompt.custom_ids().contains(&board_id),
        "{:?}",
        card_prompt.custom_ids()
    );
    let i = h.fake.press(&first, card_prompt.id, &board_id).await;
    let mine = h.fake.answer(i).await;
    assert_eq!(mine.channel_id, card_prompt.channel_id, "the board comes in the DM");
    crate::support::assert_png(attachment_png(&mine), "the board from the prompt's button");
    let (prompt, ack) = h
        .pick_card(&t, &first, &CommandLine::new("card").arg("name", "Admiral"))
        .await;
    assert!(
        ack.is_none(),
        "a pick from the prompt is answered by the prompt: {ack:?}"
    );
    h.wait_outbox_drained(DRAIN).await;
    assert!(
        dm_says(&h, &first, game, "You picked the Admiral"),
        "the picker's prompt says what was picked"
    );
    let token = h
        .fake
        .read(|w| {
            w.interactions
                .iter()
                .rev()
                .find(|i| i.message == Some(prompt.id))
                .map(|i| i.token.clone())
        })
        .expect("the pick's interaction");
    h.fake.read(|w| {
        assert!(
            !w.log.iter().any(|l| l.method == "PATCH" && l.path.contains(&token)),
            "the bot edited the prompt from the interaction"
        )
    });
    let _ = h.card_prompt(&t, &second).await; // it arrives; the menu below is used instead
    let dm = h.fake.dm_channel(second.id);

    // A control that asks first: the question comes privately with
    // "Yes — …" and "Cancel"; cancelling only closes the question.
    let ask_id = format!("c:{}:card name:Captain", game.0);
    let ask = h.fake.seed_bot_message(
        dm,
        "Pick your combat card:",
        vec![json!({"type": 1, "components": [{"type": 2, "style": 1, "label": "Captain", "custom_id": ask_id}]})],
    );
    let before = h.snapshot(game).await;
    let i = h.fake.press(&second, ask, &ask_id).await;
    let question = h.fake.answer(i).await;
    let yes_id = format!("o:{}:card name:Captain", game.0);
    let cancel_id = format!("n:{}", game.0);
    assert!(question.ephemeral(), "{}", question.content);
    assert_eq!(question.plain_ids(), vec![yes_id.clone(), cancel_id.clone()]);
    let yes = crate::support::fake_discord::all_components(&question.components)
        .into_iter()
        .find(|c| {
            c["custom_id"]
                .as_str()
                .is_some_and(|id| crate::support::fake_discord::unpositioned(id) == yes_id)
        })
        .cloned()
        .unwrap();
    assert!(yes["label"].as_str().unwrap().starts_with("Yes — "), "{yes}");
    assert_eq!(yes["style"], 4, "a red button: {yes}");
    h.fake.press(&second, question.id, &cancel_id).await;
    h.fake
        .wait_for("the question cancelled", Duration::from_secs(20), |w| {
            w.message(question.id)
                .filter(|m| m.content == "Cancelled" && m.components.is_empty())
                .map(|_| ())
        })
        .await;
    assert_eq!(h.snapshot(game).await, before, "cancelling gave no order");

    // A group picked in a group picker: that group's menu, privately.
    let picker_id = format!("g:{}", game.0);
    let picker = h.fake.seed_bot_message(
        dm,
        "What will you do?",
        vec![json!({"type": 1, "components": [{"type": 3, "custom_id": picker_id, "options": [{"label": "Combat card", "value": "Combat card"}]}]})],
    );
    let i = h.fake.select(&second, picker, &picker_id, &["Combat card"]).await;
    let group = h.fake.answer(i).await;
    assert!(group.ephemeral(), "{}", group.content);
    let offered: Vec<String> = group
        .plain_ids()
        .into_iter()
        .filter_map(|c| c.strip_prefix(&format!("s:{}=", game.0)).map(str::to_string))
        .collect();
    assert!(
        offered.contains(&"card name:Captain".to_string()) && offered.iter().all(|v| v.starts_with("card name:")),
        "{offered:?}"
    );
    assert_eq!(h.snapshot(game).await, before, "showing a group gave no order");
    let menu_id = format!("s:{}", game.0);
    let options: Vec<Value> = policy_cards()
        .iter()
        .map(|c| json!({"label": c, "value": format!("card name:{c}")}))
        .collect();
    let menu = h.fake.seed_bot_message(
        dm,
        "Pick your combat card:",
        vec![json!({"type": 1, "components": [{"type": 3, "custom_id": menu_id, "options": options}]})],
    );
    let before = h.row(game).await.seq;
    let i = h.fake.select(&second, menu, &menu_id, &["card name:Captain"]).await;
    let ack = h
        .outcome_of_press(game, i, before)
        .await
        .unwrap_or_else(|refused| panic!("the menu pick was refused: {}", refused.content));
    assert!(ack.is_none(), "{ack:?}");
    h.wait_outbox_drained(DRAIN).await;

    // Then to the end.
    let orders = h.play(&t, 200, |_| false).await;
    h.wait_outbox_drained(DRAIN).await;
    let row = h.row(game).await;
    assert_eq!(row.status, GameStatus::Finished);
    let Some(Outcome::Winner { seat, .. }) = row.state.as_ref().unwrap().outcome() else {
        panic!(
            "the game should have one winner: {:?}",
            row.state.as_ref().unwrap().outcome()
        )
    };
    let winner = &t.seats[seat.index()].name;
    let posts = public_posts(&h, chan);
    let announced: Vec<&Message> = posts.iter().filter(|m| m.content.contains("🏆 Game over")).collect();
    assert_eq!(announced.len(), 1, "the winner is announced once");
    assert!(
        announced[0].content.contains(&format!("**{winner}** wins")),
        "{}",
        announced[0].content
    );
    assert_eq!(announced[0].origin, Origin::Post);

    // A board after every phase, each a valid PNG, and everything sent once.
    let delivered = h.assert_outbox_delivered_once().await;
    let boards: Vec<&Message> = delivered
        .iter()
        .filter(|(_, o, _)| o.board.is_some() && matches!(o.target, Target::Channel(_)))
        .map(|(_, _, m)| m)
        .collect();
    for b in &boards {
        crate::support::assert_png(attachment_png(b), &format!("the board posted with `{}`", b.content));
    }
    let phases = row.state.as_ref().unwrap().phase().number as usize;
    // One per phase, except that the order ending the game also ends a
    // turn: that new turn and the end are told by one post, the final board.
    assert!(
        boards.len() + 1 >= phases,
        "{} boards for {phases} phases",
        boards.len()
    );
    assert!(boards.last().unwrap().content.contains("Game over"), "the final board");
    let history = h.fake.run(&bob, here, "game history", &[("phase", json!(1))]).await;
    crate::support::assert_png(attachment_png(&history), "a history board");
    assert_eq!(h.fake.read(|w| w.gateway.identifies), 1);
    h.assert_no_pings();
    h.fake.assert_clean();
    eprintln!(
        "whole game: {orders} orders, {} boards, {:?}",
        boards.len(),
        started.elapsed()
    );
}

fn policy_cards() -> Vec<&'static str> {
    orrery::games::hyperspace::hooks::CARDS.to_vec()
}

/// 2. Secret picks go only to their owners; nothing public shows them
/// before the reveal. Two games in lockstep differ only in one secret pick:
/// everything public must be identical until the reveal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secret_picks_stay_secret_until_the_reveal() {
    let h = Harness::start().await;
    let (chan_a, chan_b) = (h.fake.add_channel("table-a"), h.fake.add_channel("table-b"));
    let players = vec![
        h.fake.add_user("alice"),
        h.fake.add_user("bob"),
        h.fake.add_user("carol"),
    ];
    let a = h.open_game(chan_a, &players, short_game()).await;
    let b = h.open_game(chan_b, &players, short_game()).await;
    let at_cards = |s: &orrery::games::AnyState| s.pending().iter().any(|p| p.kind == "combat-card");
    h.play(&a, 100, at_cards).await;
    h.play(&b, 100, at_cards).await;

    let state = h.state(a.game).await;
    let owing: Vec<usize> = state.pending().iter().map(|p| p.seat.index()).collect();
    assert_eq!(owing.len(), 2);
    let (picker, other) = (&players[owing[0]], &players[owing[1]]);
    let bystander = players.iter().find(|p| p.id != picker.id && p.id != other.id).unwrap();

    // Each combatant's prompt reaches only their own DMs.
    for t in [&a, &b] {
        for (i, p) in players.iter().enumerate() {
            if owing.contains(&i) {
                let prompt = h.card_prompt(t, p).await;
                assert_eq!(prompt.channel_id, h.fake.read(|w| w.dm_channel_of(p.id)).unwrap());
            }
        }
    }

    // The same seat picks differently in the two games.
    let (_, ack_a) = h
        .pick_card(&a, picker, &CommandLine::new("card").arg("name", "Admiral"))
        .await;
    let (_, ack_b) = h
        .pick_card(&b, picker, &CommandLine::new("card").arg("name", "Spy"))
        .await;
    assert!(ack_a.is_none() && ack_b.is_none(), "{ack_a:?} {ack_b:?}");
    h.wait_outbox_drained(DRAIN).await;
    assert!(dm_says(&h, picker, a.game, "You picked the Admiral"));
    assert!(dm_says(&h, picker, b.game, "You picked the Spy"));
    assert!(!dm_says(&h, picker, a.game, "You picked the Spy"));

    // Public posts and boards are the same in both games.
    let posts_a = public_posts(&h, chan_a);
    let posts_b = public_posts(&h, chan_b);
    assert_eq!(posts_a.len(), posts_b.len());
    assert!(posts_a.iter().any(|m| m.content.contains("has picked a combat card")));
    for (pa, pb) in posts_a.iter().zip(&posts_b) {
        // The two games' deadlines may differ by the moments between their
        // starts: timestamps are left out of the comparison.
        assert_eq!(
            without_times(&without_game_id(&pa.content, a.game)),
            without_times(&without_game_id(&pb.content, b.game))
        );
        let (fa, fb): (Vec<&[u8]>, Vec<&[u8]>) = (
            pa.attachments.iter().map(|x| &x.data[..]).collect(),
            pb.attachments.iter().map(|x| &x.data[..]).collect(),
        );
        assert!(fa == fb, "attachments of `{}` differ between the games", pa.content);
        assert!(
            !pa.content.contains("Admiral") && !pb.content.contains("Spy"),
            "a pick is public: {}",
            pa.content
        );
    }
    let board_a = h.fake.run(bystander, Place::Channel(chan_a), "game board", &[]).await;
    let board_b = h.fake.run(bystander, Place::Channel(chan_b), "game board", &[]).await;
    assert!(
        attachment_png(&board_a) == attachment_png(&board_b),
        "the public board shows the secret pick"
    );
    // The picker's own view does show it.
    let own_a = h
        .fake
        .run(picker, Place::Dm, "game board", &[("game", json!(a.game.0))])
        .await;
    let own_b = h
        .fake
        .run(picker, Place::Dm, "game board", &[("game", json!(b.game.0))])
        .await;
    // Kept in DMs (was: ephemeral; the service now answers a seated
    // player's board in DMs as a normal message), and only there.
    let picker_dm = h.fake.dm_channel(picker.id);
    assert!(own_a.channel_id == picker_dm && own_b.channel_id == picker_dm);
    assert!(
        attachment_png(&own_a) != attachment_png(&own_b),
        "the picker's private board shows their pick"
    );

    // Private things went to their owner's DMs only.
    let picker_dm = h.fake.read(|w| w.dm_channel_of(picker.id)).unwrap();
    h.fake.read(|w| {
        for m in w.messages.iter().filter(|m| !m.deleted) {
            let dm_of = match w.channels[&m.channel_id].kind {
                crate::support::fake_discord::ChannelKind::Dm(u) => Some(u),
                _ => None,
            };
            if m.content.contains("You picked") {
                assert_eq!(
                    m.channel_id, picker_dm,
                    "a pick was told outside the picker's DMs: {}",
                    m.content
                );
            }
            if m.custom_ids().iter().any(|c| c.contains(":card name:")) {
                let owner = dm_of.unwrap_or_else(|| panic!("a card prompt outside DMs: {}", m.content));
                assert!(owner == picker.id || owner == other.id, "a card prompt for a bystander");
            }
            if dm_of.is_none() && m.ephemeral() {
                assert!(!m.content.contains("You picked"), "{}", m.content);
            }
        }
    });

    // The reveal: now the games differ, in words and on the board.
    let (_, ack) = h
        .pick_card(&a, other, &CommandLine::new("card").arg("name", "Admiral"))
        .await;
    assert!(ack.is_none(), "{ack:?}");
    // In the other game, through a control that asks first: "Yes" gives
    // the order, and the private question then says what was sent.
    let ask_id = format!("c:{}:card name:Admiral", b.game.0);
    let ask = h.fake.seed_bot_message(
        h.fake.dm_channel(other.id),
        "Pick your combat card:",
        vec![json!({"type": 1, "components": [{"type": 2, "style": 1, "label": "Admiral", "custom_id": ask_id}]})],
    );
    let i = h.fake.press(other, ask, &ask_id).await;
    let question = h.fake.answer(i).await;
    let before = h.row(b.game).await.seq;
    let yes = h
        .fake
        .press(
            other,
            question.id,
            &question.control(&format!("o:{}:card name:Admiral", b.game.0)).unwrap(),
        )
        .await;
    let ack = h
        .outcome_of_press(b.game, yes, before)
        .await
        .unwrap_or_else(|refused| panic!("Yes was refused: {}", refused.content));
    assert!(ack.is_none(), "{ack:?}");
    let closed = h
        .fake
        .wait_for("the question closed", Duration::from_secs(20), |w| {
            w.message(question.id).filter(|m| m.components.is_empty()).cloned()
        })
        .await;
    assert!(closed.content.starts_with("✅ Sent: "), "{}", closed.content);
    h.wait_outbox_drained(DRAIN).await;
    let reveal = |chan| {
        public_posts(&h, chan)
            .into_iter()
            .find(|m| m.content.contains("Cards revealed"))
            .expect("a reveal post")
            .content
    };
    let picker_name = &picker.name;
    assert!(
        reveal(chan_a).contains(&format!("{picker_name} played the Admiral")),
        "{}",
        reveal(chan_a)
    );
    assert!(
        reveal(chan_b).contains(&format!("{picker_name} played the Spy")),
        "{}",
        reveal(chan_b)
    );
    let board_a = h.fake.run(bystander, Place::Channel(chan_a), "game board", &[]).await;
    let board_b = h.fake.run(bystander, Place::Channel(chan_b), "game board", &[]).await;
    assert!(
        attachment_png(&board_a) != attachment_png(&board_b),
        "after the reveal the boards show the cards"
    );
    h.assert_outbox_delivered_once().await;
    h.fake.assert_clean();
}

/// 3. Bad input gets a private explanation and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_explained_privately_and_changes_nothing() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("hyperspace");
    let other_chan = h.fake.add_channel("elsewhere");
    let players = vec![
        h.fake.add_user("alice"),
        h.fake.add_user("bob"),
        h.fake.add_user("carol"),
    ];
    let dave = h.fake.add_user("dave");
    let (alice, bob) = (&players[0], &players[1]);
    let t = h.open_game(chan, &players, short_game()).await;
    let g = json!(t.game.0);
    let here = Place::Channel(chan);
    h.wait_outbox_drained(DRAIN).await;

    /// Run a command; it must be refused privately, saying `expect`.
    async fn refused(
        h: &Harness,
        user: &crate::support::User,
        place: Place,
        path: &str,
        opts: &[(&str, Value)],
        expect: &str,
    ) {
        let before = h.snapshot(GameId(1)).await;
        let ans = h.fake.run(user, place, path, opts).await;
        assert!(
            ans.ephemeral(),
            "/{path} by {} was answered publicly: {}",
            user.name,
            ans.content
        );
        assert!(ans.flags & 64 != 0);
        assert!(
            ans.content.contains(expect),
            "/{path} by {}: expected `{expect}` in: {}",
            user.name,
            ans.content
        );
        assert_eq!(
            h.snapshot(GameId(1)).await,
            before,
            "/{path} by {} changed the game",
            user.name
        );
    }
    assert_eq!(t.game, GameId(1));
    let posts_before = public_posts(&h, chan).len();

    // Not a player; not your turn; not the host; too late.
    refused(&h, &dave, here, "hyperspace end", &[], "not playing in game").await;
    refused(&h, bob, here, "hyperspace end", &[], "waiting on alice").await;
    refused(&h, &dave, here, "game start", &[], "Only the host").await;
    refused(&h, &dave, here, "game join", &[], "already started").await;
    refused(
        &h,
        alice,
        here,
        "game new",
        &[("game", json!("hyperspace"))],
        "already has game",
    )
    .await;
    // Illegal orders and malformed values.
    refused(
        &h,
        alice,
        here,
        "hyperspace depart",
        &[("from", json!("Antares")), ("ships", json!(3))],
        "ships at Antares",
    )
    .await;
    refused(
        &h,
        alice,
        here,
        "hyperspace depart",
        &[("from", json!("Regulus")), ("ships", json!(99))],
        "not 99",
    )
    .await;
    refused(
        &h,
        alice,
        here,
        "hyperspace arrive",
        &[("token", json!(3)), ("at", json!("Mira"))],
        "not on the hyperspace track",
    )
    .await;
    refused(
        &h,
        alice,
        here,
        "hyperspace depart",
        &[("from", json!("Nowhere")), ("ships", json!(2))],
        "unknown star",
    )
    .await;
    refused(
        &h,
        alice,
        here,
        "hyperspace card",
        &[("name", json!("Joker"))],
        "unknown card",
    )
    .await;
    refused(&h, alice, here, "hyperspace losses", &[("n", json!(3))], "turn").await;
    refused(&h, alice, here, "hyperspace end", &[("game", json!(999))], "no game").await;
    // Another channel, and DMs naming someone else's game.
    refused(
        &h,
        alice,
        Place::Channel(other_chan),
        "hyperspace end",
        &[("game", g.clone())],
        "is played in",
    )
    .await;
    refused(
        &h,
        &dave,
        Place::Dm,
        "game board",
        &[("game", g.clone())],
        "You are not playing in game",
    )
    .await;
    refused(
        &h,
        &dave,
        Place::Dm,
        "hyperspace end",
        &[("game", g.clone())],
        "not playing in game",
    )
    .await;
    refused(
        &h,
        &dave,
        Place::Dm,
        "game status",
        &[("game", g.clone())],
        "You are not playing in game",
    )
    .await;
    refused(
        &h,
        &dave,
        Place::Dm,
        "game new",
        &[("game", json!("hyperspace"))],
        "Games live in a channel",
    )
    .await;
    // Bad game options open nothing: a value or an option the chosen game
    // does not take is refused by name.
    let elsewhere = Place::Channel(other_chan);
    for (opts, expect) in [
        (
            vec![("game", json!("hyperspace")), ("options", json!("map:random"))],
            "`map:` is an option of Starlanes, not of Hyperspace",
        ),
        (
            vec![("game", json!("hyperspace")), ("options", json!("rounds:300"))],
            "out of range for Hyperspace: from 1 to 200",
        ),
    ] {
        refused(&h, &dave, elsewhere, "game new", &opts, expect).await;
    }
    assert!(
        h.store().await.games_in_channel(other_chan).await.unwrap().is_empty(),
        "a bad /game new opened a game"
    );

    // In a battle: losses and retreats out of range, then a stale button.
    h.play(&t, 100, |s| s.pending().iter().any(|p| p.kind == "losses"))
        .await;
    let state = h.state(t.game).await;
    let victor = &t.seats[state.pending()[0].seat.index()];
    // Legal: losses n:0 to n:(the loser's ships).
    let loser_ships: u32 = state.legal_commands(state.pending()[0].seat).len() as u32 - 1;
    refused(
        &h,
        victor,
        here,
        "hyperspace losses",
        &[("n", json!(loser_ships + 1))],
        "losses must be from 0 to",
    )
    .await;
    refused(&h, victor, here, "hyperspace retreat", &[("ships", json!(1))], "losses").await;
    h.wait_outbox_drained(DRAIN).await;
    let dm = h.fake.read(|w| w.dm_channel_of(victor.id)).unwrap();
    let prompt = h.fake.read(|w| {
        w.messages_in(dm)
            .into_iter()
            .rev()
            .find(|m| m.custom_ids().iter().any(|c| c.contains(":losses n:")))
            .cloned()
    });
    let prompt = prompt.expect("a losses prompt with buttons");
    h.step(&t, None).await.expect("the losses order");
    let before = h.snapshot(t.game).await;
    let stale = prompt
        .custom_ids()
        .into_iter()
        .find(|c| c.contains(":losses n:1"))
        .unwrap();
    // The victor's client still shows the prompt as it was.
    let i = h.fake.press_as_seen(victor, &prompt, &stale).await;
    let ans = h.fake.answer(i).await;
    assert!(
        ans.ephemeral() && !ans.content.contains("Accepted"),
        "a stale button: {}",
        ans.content
    );
    assert_eq!(h.snapshot(t.game).await, before, "a stale button changed the game");
    // The typed order answered the prompt: it lost its controls (so in
    // Discord this button was no longer there to press) and says so.
    h.wait_outbox_drained(DRAIN).await;
    let prompt_after = h.fake.read(|w| w.message(prompt.id).cloned().unwrap());
    assert!(!prompt.components.is_empty());
    assert!(
        prompt_after.components.is_empty(),
        "a prompt answered by a typed order keeps its controls: {}\n{:#?}",
        prompt_after.content,
        h.fake.read(|w| w
            .messages_in(dm)
            .iter()
            .map(|m| (
                m.id,
                m.content.chars().take(80).collect::<String>(),
                m.components.len(),
                m.edits
            ))
            .collect::<Vec<_>>())
    );
    assert!(prompt_after.content.contains("You chose"), "{}", prompt_after.content);
    if let Some(retreat) = h.next_order(&t).await.filter(|(_, kind, _)| kind == "retreat") {
        let who = &t.seats[retreat.0.index()];
        refused(
            &h,
            who,
            here,
            "hyperspace retreat",
            &[("ships", json!(999))],
            "you can retreat 0 to",
        )
        .await;
    }

    // Controls that cannot act answer privately and never ping (issue 29,
    // point 5): one that is not the bot's any more, and a player's button
    // pressed by someone who does not play the game.
    let button =
        |id: &str| vec![json!({"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": id}]})];
    let gone = h
        .fake
        .seed_bot_message(h.fake.dm_channel(dave.id), "An old prompt", button("zz:old"));
    let i = h.fake.press(&dave, gone, "zz:old").await;
    let ans = h.fake.answer(i).await;
    assert!(
        ans.ephemeral() && ans.content.contains("not one of mine"),
        "{}",
        ans.content
    );
    let foreign = format!("o:{}:end", t.game.0);
    let theirs = h
        .fake
        .seed_bot_message(h.fake.dm_channel(dave.id), "Your turn", button(&foreign));
    let before = h.row(t.game).await.seq;
    let i = h.fake.press(&dave, theirs, &foreign).await;
    let refusal = h
        .outcome_of_press(t.game, i, before)
        .await
        .expect_err("dave does not play this game");
    assert!(refusal.ephemeral(), "{}", refusal.content);
    h.assert_no_pings();

    // Only good orders were announced; nothing refused was.
    h.wait_outbox_drained(DRAIN).await;
    h.assert_outbox_delivered_once().await;
    assert!(public_posts(&h, chan).len() > posts_before);
    h.fake.read(|w| {
        for m in w.messages.iter().filter(|m| !m.ephemeral()) {
            assert!(
                !m.content.contains("Joker") && !m.content.contains("Nowhere"),
                "a refusal was posted: {}",
                m.content
            );
        }
    });
    h.fake.assert_clean();
}

/// 4. Failed posts, rate limits, a dropped gateway and a killed bot: every
/// announcement is still delivered exactly once, and play goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_lose_nothing_and_double_nothing() {
    let mut h = Harness::start().await;
    let chan = h.fake.add_channel("hyperspace");
    let players = vec![
        h.fake.add_user("alice"),
        h.fake.add_user("bob"),
        h.fake.add_user("carol"),
    ];
    let t = h.open_game(chan, &players, short_game()).await;

    // Discord fails: two posts refused with 500, one posted but answered
    // 500 (the bot cannot know it got through), one DM rate limited.
    h.fake
        .inject(FaultTarget::ChannelPost(Some(chan)), FaultKind::ServerError, 2);
    for _ in 0..3 {
        h.step(&t, None).await.expect("an order");
    }
    h.fake
        .inject(FaultTarget::ChannelPost(Some(chan)), FaultKind::ServerErrorAfterWork, 1);
    h.fake
        .inject(FaultTarget::DmPost, FaultKind::RateLimited { retry_after: 1.5 }, 1);
    for _ in 0..3 {
        h.step(&t, None).await.expect("an order");
    }
    h.wait_outbox_drained(DRAIN).await;
    assert_eq!(h.fake.pending_faults(), 0, "every fault fired");

    // The gateway connection drops: the bot resumes and keeps answering.
    h.fake.drop_gateway();
    for _ in 0..3 {
        h.step(&t, None).await.expect("an order");
    }
    let (_, identifies, resumes, _) = h.fake.gateway_counts();
    assert_eq!((identifies, resumes), (1, 1), "the bot resumed its session");

    // A post gets through but its answer never comes; the bot is killed
    // (SIGKILL) while waiting, and started again on the same database.
    h.fake
        .inject(FaultTarget::ChannelPost(Some(chan)), FaultKind::HangAfterWork, 1);
    h.step(&t, None).await.expect("an order");
    let hung = h
        .fake
        .wait_for_request("a post to hang", Duration::from_secs(20), |l| {
            l.note.as_deref().is_some_and(|n| n.contains("hang"))
        })
        .await;
    h.restart_bot().await;
    assert_eq!(h.fake.gateway_counts().1, 2, "the new process identified");

    // Play on to the end.
    let orders = h.play(&t, 200, |_| false).await;
    assert!(orders > 0);
    h.wait_outbox_drained(DRAIN).await;
    h.assert_outbox_delivered_once().await;
    let posts = public_posts(&h, chan);
    assert_eq!(posts.iter().filter(|m| m.content.contains("🏆 Game over")).count(), 1);

    // The faults really happened, and the nonces caught both resends.
    let notes: Vec<String> = h.fake.read(|w| w.log.iter().filter_map(|l| l.note.clone()).collect());
    let count = |s: &str| notes.iter().filter(|n| n.contains(s)).count();
    assert!(count("fault: 500") >= 3, "{notes:?}");
    assert_eq!(count("fault: 429"), 1, "{notes:?}");
    assert_eq!(
        count("seen before"),
        2,
        "both lost answers were resent and deduplicated: {notes:?}"
    );
    let hung_nonce = hung
        .body
        .json()
        .and_then(|b| b["nonce"].as_str())
        .map(str::to_string)
        .expect("the hung post's nonce");
    let copies = h.fake.read(|w| {
        w.messages
            .iter()
            .filter(|m| m.nonce.as_deref() == Some(&hung_nonce))
            .count()
    });
    assert_eq!(copies, 1, "the post in flight at the kill is there once");
    h.fake.assert_clean();
    eprintln!("faults: {notes:?}");
}

#[test]
fn the_fake_checks_requests_against_the_spec_or_says_it_skipped() {
    let Some(spec) = crate::support::openapi::spec() else {
        eprintln!("(skipped: no OpenAPI spec)");
        return;
    };
    use crate::support::openapi::SpecBody;
    let ok = json!({"content": "hi", "nonce": "orrery-1", "enforce_nonce": true, "allowed_mentions": {"parse": []}});
    assert!(spec
        .check_request("POST", "/channels/123/messages", &[], SpecBody::Json(&ok))
        .is_ok());
    let too_long = json!({"content": "x".repeat(4001)});
    assert!(spec
        .check_request("POST", "/channels/123/messages", &[], SpecBody::Json(&too_long))
        .is_err());
    let bad_nonce = json!({"content": "hi", "nonce": "n".repeat(26)});
    assert!(spec
        .check_request("POST", "/channels/123/messages", &[], SpecBody::Json(&bad_nonce))
        .is_err());
    assert!(
        spec.check_request("POST", "/channels/abc/messages", &[], SpecBody::Json(&ok))
            .is_err(),
        "ids are snowflakes"
    );
    assert!(spec.check_request("POST", "/nowhere", &[], SpecBody::None).is_err());
    let callback = json!({"type": 4, "data": {"content": "x", "flags": 64}});
    assert!(spec
        .check_request("POST", "/interactions/1/tok/callback", &[], SpecBody::Json(&callback))
        .is_ok());
    assert!(spec
        .check_request(
            "POST",
            "/interactions/1/tok/callback",
            &[],
            SpecBody::Json(&json!({"type": "x"}))
        )
        .is_err());
    let q = [("wait".to_string(), "true".to_string())];
    assert!(spec
        .check_request("POST", "/webhooks/1/tok", &q, SpecBody::Json(&json!({"content": "x"})))
        .is_ok());
    let unknown = [("bogus".to_string(), "1".to_string())];
    assert!(spec
        .check_request(
            "POST",
            "/webhooks/1/tok",
            &unknown,
            SpecBody::Json(&json!({"content": "x"}))
        )
        .is_err());
}

/// Whether some message in `user`'s DMs about `game` (as it reads now,
/// edits included) contains `needle`.
fn dm_says(h: &Harness, user: &crate::support::User, game: orrery::engine::GameId, needle: &str) -> bool {
    let head = format!("game {game} ");
    let found = h.fake.read(|w| {
        let Some(dm) = w.dm_channel_of(user.id) else {
            return false;
        };
        w.messages_in(dm)
            .into_iter()
            .any(|m| !m.deleted && m.content.contains(&head) && m.content.contains(needle))
    });
    if !found {
        eprintln!(
            "no DM to {} about game {game} says `{needle}`:\n{}",
            user.name,
            h.fake.dump(20)
        );
    }
    found
}

/// `text` with the digits of every Discord timestamp (`<t:123:R>`) removed.
fn without_times(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("<t:") {
        out.push_str(&rest[..i + 3]);
        rest = rest[i + 3..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}
