//! A whole war of Spectrum War played by the real `orrery` binary against
//! the fake Discord (see `tests/support/`), as people play it: order-sheet
//! lines typed by DM (`/spectrum build …`, `/spectrum move …`), lines
//! removed with `/sheet remove`, sheets marked ready with the prompt's
//! button or `/sheet ready`; the channel learns only who is ready and what
//! happened to planets; each player gets their own board by DM every
//! section; one result post at the end. Three players whose ships seek
//! each other's planets, so that fights happen: `fire` lines are typed,
//! and each fight is told only to the players whose ships were there.

use crate::support::{Harness, Place};
use orrery::engine::{CommandLine, GameRng, Seat};
use orrery::games::spectrum::events::Event as SpectrumEvent;
use orrery::games::{AnyEvent, AnyState, GameKind};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Duration;

const DRAIN: Duration = Duration::from_secs(60);
const SEED: u64 = 15;

/// Any legal edit, but the sheet's verbs less often than lines, and
/// "ready" a third of the time it is offered, so sheets end; a `fire` line
/// whenever one is legal (and not ready), and often the move that brings a
/// ship nearest another player's planet, so that fleets meet.
fn choose(state: &AnyState, seat: Seat, rng: &mut GameRng) -> CommandLine {
    let legal = state.legal_commands(seat);
    let ready = legal.iter().find(|l| l.name == "ready").cloned();
    let lines: Vec<CommandLine> = legal
        .iter()
        .filter(|l| !["ready", "unready", "clear", "remove"].contains(&l.name.as_str()))
        .cloned()
        .collect();
    let removes: Vec<CommandLine> = legal.iter().filter(|l| l.name == "remove").cloned().collect();
    let fires: Vec<CommandLine> = lines.iter().filter(|l| l.name == "fire").cloned().collect();
    match (rng.below(6), ready) {
        (0 | 1, Some(r)) => r,
        (2, _) if !removes.is_empty() => rng.pick(&removes).cloned().expect("a remove"),
        _ if !fires.is_empty() => rng.pick(&fires).cloned().expect("a fire"),
        (3 | 4, _) if seek(state, seat, &lines).is_some() => seek(state, seat, &lines).expect("a move"),
        _ if !lines.is_empty() => rng.pick(&lines).cloned().expect("a line"),
        _ => rng.pick(&legal).cloned().expect("a legal edit"),
    }
}

/// The move line that brings a ship nearest a planet of another player.
fn seek(state: &AnyState, seat: Seat, lines: &[CommandLine]) -> Option<CommandLine> {
    use orrery::games::spectrum::orders::{parse, Action, Written};
    use orrery::games::spectrum::rules::resolve;
    use orrery::games::spectrum::state::Order;
    let AnyState::Spectrum(s) = state else { return None };
    let targets: Vec<_> = s
        .planets
        .iter()
        .enumerate()
        .filter(|(_, p)| p.owner.is_some_and(|o| o != seat))
        .map(|(i, _)| s.map.planets[i].space)
        .collect();
    let mut best: Option<(i32, CommandLine)> = None;
    for l in lines.iter().filter(|l| l.name == "move") {
        let Ok(Action::Add(w @ Written::Move { .. })) = parse(l) else {
            continue;
        };
        let Ok(Order::Move { ship, path }) = resolve(s, seat, &w) else {
            continue;
        };
        let Some(x) = s.ship(ship) else { continue };
        let Ok(ends) = s.map.trace(x.at, &path) else { continue };
        let end = ends.last().copied().unwrap_or(x.at);
        let d = targets
            .iter()
            .map(|t| t.col.distance(end.col) * 2 + i32::from(t.level.abs_diff(end.level)))
            .min()
            .unwrap_or(i32::MAX);
        if best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, l.clone()));
        }
    }
    best.map(|(_, l)| l)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_spectrum_war_by_dm_sheets() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("spectrum");
    let players: Vec<_> = ["alice", "bob", "carol"].iter().map(|n| h.fake.add_user(n)).collect();
    let t = h
        .open_game_of(
            GameKind::Spectrum,
            chan,
            &players,
            Some(SEED),
            Some(json!({"rounds": 5})),
        )
        .await;
    h.wait_outbox_drained(DRAIN).await;

    // The first prompt: the economic sheet, empty, in each player's DMs,
    // with the game's board of their own.
    for user in &t.seats {
        let prompt = h.newest_prompt(user, t.game).expect("an economic prompt");
        assert!(prompt.content.contains("Your sheet is empty"), "{}", prompt.content);
        assert_eq!(prompt.attachments.len(), 1, "the private board rides on the prompt");
        crate::support::assert_png(&prompt.attachments[0].data, "a private board");
    }

    let mut rng = GameRng::seeded(SEED);
    let mut via: BTreeMap<String, usize> = BTreeMap::new();
    let mut orders = 0;
    let mut pings = crate::support::first_hour::PingWatch::default();
    while let Some((state, p)) = h.owed(&t).await {
        pings.check(&h, &t, &state);
        let line = choose(&state, p.seat, &mut rng);
        let user = &t.seats[p.seat.index()];
        match line.name.as_str() {
            "ready" if orders % 2 == 0 => {
                let ans = h
                    .fake
                    .run(user, Place::Dm, "sheet ready", &[("game", json!(t.game.0))])
                    .await;
                assert!(ans.content.contains("Sent: "), "{}", ans.content);
                *via.entry("ready typed".into()).or_default() += 1;
            }
            "ready" => {
                h.give_as(&t, &state, p.seat, &line).await;
                *via.entry("ready by button".into()).or_default() += 1;
            }
            "remove" => {
                let n: i64 = line.get("line").expect("a line").parse().expect("a number");
                let ans = h
                    .fake
                    .run(
                        user,
                        Place::Dm,
                        "sheet remove",
                        &[("line", json!(n)), ("game", json!(t.game.0))],
                    )
                    .await;
                assert!(ans.content.contains("Sent: "), "{}", ans.content);
                *via.entry("remove typed".into()).or_default() += 1;
            }
            verb @ ("clear" | "unready") => {
                let ans = h
                    .fake
                    .run(user, Place::Dm, &format!("sheet {verb}"), &[("game", json!(t.game.0))])
                    .await;
                assert!(ans.content.contains("Sent: "), "{}", ans.content);
                *via.entry(format!("{verb} typed")).or_default() += 1;
            }
            _ => {
                // Typed by DM, as a player writes a sheet.
                let ans = h.order(&t, user, Place::Dm, &line).await;
                assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
                *via.entry(format!("{} typed", line.name)).or_default() += 1;
            }
        }
        orders += 1;
        h.wait_outbox_drained(DRAIN).await;
        assert!(orders < 2000, "the war does not end");
    }

    let outcome = h.finished(&t).await;
    let by = |k: &str| via.get(k).copied().unwrap_or(0);
    assert!(by("build typed") > 0 && by("move typed") > 0, "{via:?}");
    assert!(by("ready typed") > 0 && by("ready by button") > 0, "{via:?}");
    assert!(by("fire typed") > 0, "no fire line was written: {via:?}");

    // Every fight is told to the players whose ships were in it, by DM,
    // and to nobody else; it stays in their DMs (a prompt edited as its
    // sheet is written keeps what it told above it).
    let events: Vec<AnyEvent> = h.events(t.game).await.into_iter().map(|(_, e)| e).collect();
    let fights: Vec<Vec<Seat>> = events
        .iter()
        .filter_map(|e| match e {
            AnyEvent::Spectrum(SpectrumEvent::ShotsFired { seats, .. }) => Some(seats.clone()),
            _ => None,
        })
        .collect();
    assert!(!fights.is_empty(), "no fight happened");
    let told: Vec<usize> = h.fake.read(|w| {
        t.seats
            .iter()
            .map(|u| {
                w.dm_channel_of(u.id)
                    .map(|c| {
                        w.messages_in(c)
                            .iter()
                            .filter(|m| !m.ephemeral())
                            .map(|m| m.content.matches("Combat: ").count())
                            .sum()
                    })
                    .unwrap_or(0)
            })
            .collect()
    });
    let present: Vec<usize> = (0..t.seats.len())
        .map(|i| fights.iter().filter(|f| f.contains(&Seat(i as u8))).count())
        .collect();
    assert_eq!(
        told, present,
        "fights told by DM per player vs fights each was in ({fights:?})"
    );
    assert!(
        present.iter().any(|n| *n < fights.len()),
        "every player was in every fight: {fights:?}"
    );

    // The end: one result post, the last one.
    let posts = h.posts(chan);
    crate::support::result_post(&t, &posts, &outcome);

    // What everyone in the channel reads: no sheet line, no ship, no points.
    let everything = h.public_text(chan);
    for secret in [
        "Combat:",
        "shots",
        "fighter",
        "scout",
        "cruiser",
        "Line added",
        "points",
        "repair",
        "moved",
        "charted",
    ] {
        assert!(!everything.contains(secret), "the channel reads `{secret}`");
    }
    let ship_name = regex_free_ship_name(&everything);
    assert!(ship_name.is_none(), "the channel names a ship: {ship_name:?}");
    // Every player had private boards by DM, when what they knew changed.
    let boards_per_player = h.private_boards(&t);
    let public_boards = crate::support::assert_private_boards(&boards_per_player, &posts, 0);
    h.assert_outbox_delivered_once().await;
    pings.check(&h, &t, &h.state(t.game).await);
    let first_hour = crate::support::first_hour::first_hour(&h, &t, &players, orders, pings.pings);
    eprintln!(
        "spectrum seed {SEED} (3 players, 5 turns) through Discord: {outcome:?}; {orders} orders {via:?}; \
         {} fights, each player in {present:?}; {public_boards} public boards, private {boards_per_player:?}; \
         {first_hour:?}",
        fights.len()
    );
}

/// A ship's name (`R14`, `G7`) in `text`, if any: a wheel letter followed
/// by one or two digits, standing alone.
fn regex_free_ship_name(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for i in 0..chars.len() {
        if !"ROYGBV".contains(chars[i]) || (i > 0 && chars[i - 1].is_alphanumeric()) {
            continue;
        }
        let digits: String = chars[i + 1..].iter().take_while(|c| c.is_ascii_digit()).collect();
        let after = chars.get(i + 1 + digits.len());
        if (1..=2).contains(&digits.len()) && after.is_none_or(|c| !c.is_alphanumeric()) {
            return Some(format!("{}{digits}", chars[i]));
        }
    }
    None
}
