//! A whole game of Solar Crisis played by the real `orrery` binary against
//! the fake Discord (see `tests/support/`), as people play it: turn orders
//! typed in the game's channel (`/solar move`, `/solar claim` naming a
//! rival by name, ...), cards played and crisis choices made with the
//! buttons and menus of the bot's DM prompts, the hand shown in DMs only,
//! and one result post at the end.

use crate::support::{Harness, Place, Via};
use orrery::engine::{CommandLine, GameConfig, GameRng, Outcome, Seat};
use orrery::games::solar::basics::cards::CardId;
use orrery::games::{AnyEvent, AnyState, GameKind};
use serde_json::json;
use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

const DRAIN: Duration = Duration::from_secs(60);
/// The game's seed, and the one of the random orders. With 3 players and a
/// round limit of 4 the game has every kind of decision: turn orders,
/// claims with dice, cards played, crisis losses chosen by DM (few seeds
/// have crisis losses: random players seldom leave units where a crisis
/// strikes). The pure test below pins it.
/// Seed 95's random game asks 69 decisions (the passes past the round
/// limit are played for the players), among them Espionage's `take`,
/// crisis losses and 28 cards played. (Seed 7 had them before Big Game
/// and Crisis tiles became undefended, on 2026-11-28: cleared crises are
/// cheap now, so crisis choices are rarer.)
const SEED: u64 = 95;

/// Orders of the player's turn: typed in the channel. The rest (cards,
/// Espionage's pick, discards, crisis losses, Mercury's powers) by DM.
const TYPED: &[&str] = &["move", "claim", "buy", "pass", "pay", "giveup", "end"];

/// Any legal order, but a card now and then when one can be played.
fn choose(state: &AnyState, seat: Seat, rng: &mut GameRng) -> CommandLine {
    let legal = state.legal_commands(seat);
    let plays: Vec<CommandLine> = legal.iter().filter(|l| l.name == "play").cloned().collect();
    match rng.below(3) {
        0 if !plays.is_empty() => rng.pick(&plays).cloned(),
        _ => rng.pick(&legal).cloned(),
    }
    .expect("a legal order")
}

/// The orders of the seeded game, without Discord: how many of each kind.
fn orders_of(seed: u64) -> BTreeMap<String, usize> {
    let mut config = GameConfig::new(3, seed);
    config.options = json!({"round_limit": 4});
    let events = GameKind::Solar.setup(&config).expect("set-up");
    let mut state = GameKind::Solar.fold(&events).expect("fold");
    let mut rng = GameRng::seeded(seed);
    let mut kinds = BTreeMap::new();
    while state.outcome().is_none() {
        let p = state
            .pending()
            .into_iter()
            .find(|p| !p.submitted)
            .expect("someone owes");
        // An order the seat has no choice about is played for it, as the
        // bot does: nobody is asked, so the players' random draws skip it.
        let line = match state.forced_command(p.seat) {
            Some((line, _)) => line,
            None => {
                let line = choose(&state, p.seat, &mut rng);
                *kinds.entry(line.name.clone()).or_default() += 1;
                line
            }
        };
        for e in state.decide(p.seat, &line).expect("legal") {
            state.apply(&e).expect("applies");
        }
    }
    kinds
}

/// The seeded game has cards played and crisis choices to make by DM.
#[test]
fn the_seeded_game_has_every_kind_of_decision() {
    let kinds = orders_of(SEED);
    for k in ["play", "pass", "move", "claim"] {
        assert!(kinds.contains_key(k), "{k}: {kinds:?}");
    }
    assert!(kinds.contains_key("lose") || kinds.contains_key("power"), "{kinds:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_solar_crisis_game_in_the_channel_and_by_dm() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("solar");
    let players: Vec<_> = ["alice", "bob", "carol"].iter().map(|n| h.fake.add_user(n)).collect();
    let t = h
        .open_game_of(
            GameKind::Solar,
            chan,
            &players,
            Some(SEED),
            Some(json!({"round_limit": 4})),
        )
        .await;
    h.wait_outbox_drained(DRAIN).await;

    // Each hand is shown to its holder, in DMs: the first prompt lists it,
    // and `/game board` in DMs is the player's own board.
    let state = h.state(t.game).await;
    let first = state.pending()[0].seat;
    let first_user = &t.seats[first.index()];
    let prompt = h.newest_prompt(first_user, t.game).expect("the first player's prompt");
    assert!(prompt.content.contains("Your hand (6):"), "{}", prompt.content);
    let board = h.fake.run(first_user, Place::Dm, "game board", &[]).await;
    assert_eq!(board.attachments.len(), 1, "the private board: {}", board.content);
    crate::support::assert_png(&board.attachments[0].data, "a private board");

    let mut rng = GameRng::seeded(SEED);
    let mut via: BTreeMap<String, usize> = BTreeMap::new();
    let mut named_rival = false;
    let mut orders = 0;
    let mut pings = crate::support::first_hour::PingWatch::default();
    while let Some((state, p)) = h.owed(&t).await {
        pings.check(&h, &t, &state);
        let line = choose(&state, p.seat, &mut rng);
        let user = &t.seats[p.seat.index()];
        if TYPED.contains(&line.name.as_str()) {
            // Typed as a player does: a rival by name, not by seat number.
            let mut typed = line.clone();
            for (k, v) in typed.args.iter_mut() {
                if k == "player" {
                    let seat: usize = v.parse().expect("a seat number");
                    *v = t.seats[seat - 1].name.clone();
                    named_rival = true;
                }
            }
            let ans = h.order(&t, user, Place::Channel(chan), &typed).await;
            assert!(
                ans.ephemeral() && ans.content.contains("Sent: "),
                "{typed}: {}",
                ans.content
            );
            *via.entry(format!("{} typed", line.name)).or_default() += 1;
        } else {
            // Buttons, menus or the group picker of the DM prompt only.
            let _how: Via = h.give_as(&t, &state, p.seat, &line).await;
            *via.entry(format!("{} by DM", line.name)).or_default() += 1;
        }
        orders += 1;
        h.wait_outbox_drained(DRAIN).await;
        assert!(orders < 1500, "the game does not end");
    }

    let outcome = h.finished(&t).await;
    let headline = match &outcome {
        Outcome::Winner { seat, .. } => format!("**{}** wins", t.seats[seat.index()].name),
        Outcome::Shared { .. } => "share".to_string(),
        Outcome::AllLose { .. } => "everyone loses".to_string(),
    };

    // Cards were played and crisis choices made by DM, turns typed.
    let by = |name: &str, how: &str| via.get(&format!("{name} {how}")).copied().unwrap_or(0);
    assert!(by("play", "by DM") > 0, "no card played: {via:?}");
    assert!(
        by("lose", "by DM") + by("power", "by DM") > 0,
        "no crisis choice by DM: {via:?}"
    );
    assert!(by("pass", "typed") > 0 && by("move", "typed") > 0, "{via:?}");

    // The end: one result post, the last one, with the final board.
    let posts = h.posts(chan);
    let result = crate::support::result_post(&t, &posts, &outcome);
    assert!(result.content.contains(&headline), "{headline}: {}", result.content);
    assert_eq!(result.attachments.len(), 1, "the result carries the final board");

    // Hands never reach the channel: no post names a card drawn or dealt
    // (cards are named in the channel only once played or discarded).
    let events = h.events(t.game).await;
    let mut hidden: HashSet<CardId> = HashSet::new();
    let mut shown: HashSet<CardId> = HashSet::new();
    for (_, e) in &events {
        if let AnyEvent::Solar(e) = e {
            use orrery::games::solar::Event as E;
            match e {
                E::CardsDealt { cards, .. } | E::CardsDrawn { cards, .. } => hidden.extend(cards.iter().copied()),
                E::CardTaken { card, .. } | E::CardStolen { card, .. } => {
                    hidden.insert(*card);
                }
                E::CardPlayed { card, .. } => {
                    shown.insert(*card);
                }
                E::CardsDiscarded { cards, .. } => shown.extend(cards.iter().copied()),
                _ => {}
            }
        }
    }
    let never_public: Vec<CardId> = hidden.difference(&shown).copied().collect();
    assert!(!never_public.is_empty());
    // What everyone in the channel reads (a reply only its asker sees, such
    // as "Sent: pass · You drew …", is private).
    let everything = h.public_text(chan);
    for card in &never_public {
        assert!(
            !everything.contains(card.name()),
            "the channel names {card}, which was only ever in a hand: {}",
            everything
                .lines()
                .filter(|l| l.contains(card.name()))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert!(!everything.contains("Your hand") && !everything.contains("You drew"));
    // Each draw is told to the drawer, in DMs.
    let dms = h.fake.read(|w| {
        t.seats
            .iter()
            .filter_map(|u| w.dm_channel_of(u.id))
            .flat_map(|c| w.messages_in(c).into_iter().map(|m| m.content.clone()))
            .collect::<Vec<_>>()
            .join("\n")
    });
    assert!(dms.contains("You drew"), "no draw told in DMs");
    h.assert_outbox_delivered_once().await;
    pings.check(&h, &t, &h.state(t.game).await);
    let first_hour = crate::support::first_hour::first_hour(&h, &t, &players, orders, pings.pings);
    eprintln!(
        "solar seed {SEED} (3 players, round limit 4) through Discord: {outcome:?}; {orders} orders {via:?}; \
         a rival named by name: {named_rival}; {first_hour:?}"
    );
}
