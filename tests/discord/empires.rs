//! A whole 2-player game of Space Empires 4X played by the real `orrery`
//! binary against the fake Discord (see `tests/support/`), as people play
//! it: movement and combat orders typed in the channel (`/empires move …`,
//! `/empires-combat fire …`), economic sheets written by DM
//! (`/empires-economy buy …`)
//! and marked ready with `/sheet ready` or the prompt's button. alice puts
//! her standing orders on fire at will by DM, so her side of every battle
//! is decided by them; bob fights his by hand. Scouts of both sides seek
//! the other's homeworld, so that they meet. Each player gets their own
//! board by DM; the result is posted once; the channel never reads a
//! sheet, a CP figure or a standing order.

use crate::support::{Harness, Place};
use orrery::engine::{CommandLine, GameRng, Seat};
use orrery::games::empires::Event as EmpiresEvent;
use orrery::games::{AnyEvent, AnyState, GameKind};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Duration;

const DRAIN: Duration = Duration::from_secs(60);
const SEED: u64 = 3;
/// The advanced game's seed: one in which every rule asked for is reached.
const ADVANCED_SEED: u64 = 5;

/// The move of an armed counter that brings it nearest the other player's
/// homeworld, if one brings it nearer than it is.
fn seek(state: &AnyState, seat: Seat, legal: &[CommandLine]) -> Option<CommandLine> {
    use orrery::games::empires::basics::Label;
    let AnyState::Empires(s) = state else { return None };
    let target = s.board.homeworld(Seat(1 - seat.0));
    let mut best: Option<(i32, CommandLine)> = None;
    for l in legal.iter().filter(|l| l.name == "move") {
        let (Some(unit), Some(path)) = (l.get("unit"), l.get("path")) else {
            continue;
        };
        let Some(u) = Label::parse(unit, seat).and_then(|l| s.unit(l)) else {
            continue;
        };
        let Some(to) = s.board.parse(path) else { continue };
        if !u.kind.is_warship() {
            continue;
        }
        let gain = u.hex.distance(target) - to.distance(target);
        if gain > 0 && best.as_ref().is_none_or(|(d, _)| to.distance(target) < *d) {
            best = Some((to.distance(target), l.clone()));
        }
    }
    best.map(|(_, l)| l)
}

/// What a player does now: seek with warships, else end the movement;
/// in combat fire at the first target offered; on the sheet buy Scouts at
/// home (at most two lines), then ready.
fn choose(state: &AnyState, seat: Seat, kind: &str, rng: &mut GameRng) -> CommandLine {
    let legal = state.legal_commands(seat);
    let named = |n: &str| legal.iter().find(|l| l.name == n).cloned();
    match kind {
        "move" => match seek(state, seat, &legal) {
            Some(m) if rng.below(8) != 0 => m,
            _ => named("end").expect("end is always legal in a movement"),
        },
        "combat" => named("fire")
            .or_else(|| named("battle"))
            .or_else(|| named("done"))
            .or_else(|| named("hold"))
            .unwrap_or_else(|| legal[0].clone()),
        "economic" => {
            let AnyState::Empires(s) = state else { unreachable!() };
            let lines = s.sheet.lines_of(seat).map_or(0, <[_]>::len);
            let home = s.board.name(s.board.homeworld(seat));
            let scout = legal
                .iter()
                .find(|l| l.name == "buy" && l.get("type") == Some("sc") && l.get("at") == Some(home.as_str()))
                .cloned();
            match scout {
                Some(b) if lines < 2 => b,
                _ => named("ready").unwrap_or_else(|| legal[0].clone()),
            }
        }
        _ => legal[0].clone(),
    }
}

/// A 2-player game (alice, bob) opened in a new channel `name` with
/// `options`; alice puts her standing orders on fire at will, privately by
/// DM.
async fn open_with_alice_at_will(
    h: &Harness,
    name: &str,
    seed: u64,
    options: serde_json::Value,
) -> (
    crate::support::fake_discord::Id,
    Vec<crate::support::fake_discord::User>,
    crate::support::Table,
) {
    let chan = h.fake.add_channel(name);
    let players: Vec<_> = ["alice", "bob"].iter().map(|n| h.fake.add_user(n)).collect();
    let t = h
        .open_game_of(GameKind::Empires, chan, &players, Some(seed), Some(options))
        .await;
    h.wait_outbox_drained(DRAIN).await;
    let standing = CommandLine::parse("standing auto:on target:big").unwrap();
    let ans = h.order(&t, &players[0], Place::Dm, &standing).await;
    assert!(ans.content.contains("Sent: "), "{}", ans.content);
    h.wait_outbox_drained(DRAIN).await;
    (chan, players, t)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_space_empires_game_through_discord() {
    let h = Harness::start().await;
    let (chan, players, t) = open_with_alice_at_will(&h, "empires", SEED, json!({"rounds": 5})).await;

    let mut rng = GameRng::seeded(SEED);
    let mut via: BTreeMap<String, usize> = BTreeMap::new();
    let mut orders = 0;
    let mut pings = crate::support::first_hour::PingWatch::default();
    while let Some((state, p)) = h.owed(&t).await {
        pings.check(&h, &t, &state);
        let line = choose(&state, p.seat, &p.kind, &mut rng);
        let user = &t.seats[p.seat.index()];
        let who = &user.name;
        if line.name == "ready" {
            if orders % 2 == 0 {
                let ans = h
                    .fake
                    .run(user, Place::Dm, "sheet ready", &[("game", json!(t.game.0))])
                    .await;
                assert!(ans.content.contains("Sent: "), "{}", ans.content);
                *via.entry("ready typed".into()).or_default() += 1;
            } else {
                h.give_as(&t, &state, p.seat, &line).await;
                *via.entry("ready by button".into()).or_default() += 1;
            }
        } else if p.sheet {
            let ans = h.order(&t, user, Place::Dm, &line).await;
            assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
            *via.entry(format!("{} by DM", line.name)).or_default() += 1;
        } else {
            let ans = h.order(&t, user, Place::Channel(chan), &line).await;
            assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
            *via.entry(format!("{who} {} in the channel", line.name)).or_default() += 1;
        }
        orders += 1;
        h.wait_outbox_drained(DRAIN).await;
        assert!(orders < 3000, "the game does not end");
    }

    let outcome = h.finished(&t).await;
    let by = |k: &str| via.get(k).copied().unwrap_or(0);
    assert!(
        by("alice move in the channel") > 0 && by("bob move in the channel") > 0,
        "{via:?}"
    );
    assert!(by("buy by DM") > 0, "{via:?}");
    assert!(by("ready typed") > 0 && by("ready by button") > 0, "{via:?}");

    // Battles: bob fought his side by hand; alice's standing orders fought
    // hers (she never gave a combat order).
    let events: Vec<AnyEvent> = h.events(t.game).await.into_iter().map(|(_, e)| e).collect();
    let battles = events
        .iter()
        .filter(|e| matches!(e, AnyEvent::Empires(EmpiresEvent::BattleBegan { .. })))
        .count();
    let volleys = events
        .iter()
        .filter(|e| matches!(e, AnyEvent::Empires(EmpiresEvent::Fought { .. })))
        .count();
    assert!(battles > 0, "no battle: {via:?}");
    assert!(by("bob fire in the channel") > 0, "bob fired by hand: {via:?}");
    assert!(
        volleys > by("bob fire in the channel"),
        "alice's side fired by standing orders"
    );
    for order in ["fire", "screen", "retreat", "battle", "hold", "auto"] {
        assert_eq!(by(&format!("alice {order} in the channel")), 0, "{via:?}");
    }

    // The end: one result post, the last one.
    let posts = h.posts(chan);
    crate::support::result_post(&t, &posts, &outcome);

    // What everyone in the channel reads: no sheet, no CP, no standing order.
    let everything = h.public_text(chan);
    for secret in [
        "Line added",
        "Your sheet",
        "carried over",
        "Standing orders",
        "fire at will",
        "Buy 1",
        "research",
        "looked at",
    ] {
        assert!(!everything.contains(secret), "the channel reads `{secret}`");
    }
    // Each player had their own board by DM at the phase boundaries.
    let boards_per_player = h.private_boards(&t);
    let public_boards = crate::support::assert_private_boards(&boards_per_player, &posts, 10);
    h.assert_outbox_delivered_once().await;
    pings.check(&h, &t, &h.state(t.game).await);
    let first_hour = crate::support::first_hour::first_hour(&h, &t, &players, orders, pings.pings);
    eprintln!(
        "empires seed {SEED} (2 players, 5 rounds) through Discord: {outcome:?}; {orders} orders {via:?}; \
         {battles} battles, {volleys} volleys; {public_boards} public boards, private {boards_per_player:?}; \
         {first_hour:?}"
    );
}

/// The advanced-rules player's sheet: Mine Technology first, then Fighter
/// technology, then Mines, squadrons and a Carrier at home, and once a
/// Carrier is out Cloaking and a Raider (at most four lines), then ready.
fn advanced_sheet(s: &orrery::games::empires::State, seat: Seat, legal: &[CommandLine]) -> Option<CommandLine> {
    let lines = s.sheet.lines_of(seat).map_or(0, <[_]>::len);
    if lines >= 4 {
        return None;
    }
    let home = s.board.name(s.board.homeworld(seat));
    let levels = s.empire(seat).levels;
    let research = |tech: &str| {
        legal
            .iter()
            .find(|l| l.name == "research" && l.get("tech") == Some(tech))
            .cloned()
    };
    let buy = |kind: &str| {
        legal
            .iter()
            .find(|l| l.name == "buy" && l.get("type") == Some(kind) && l.get("at") == Some(home.as_str()))
            .cloned()
    };
    if levels.mines == 0 {
        return research("mines");
    }
    if levels.fighters == 0 {
        return research("fighters").or_else(|| buy("mines"));
    }
    // Once a Carrier is out: Cloaking, then one Raider.
    use orrery::games::empires::{state::Line, Kind};
    let raider_line = s
        .sheet
        .lines_of(seat)
        .unwrap_or(&[])
        .iter()
        .any(|l| matches!(l, Line::Buy { kind: Kind::Raider, .. }));
    if s.units_of(seat).any(|u| u.kind == Kind::Carrier) {
        if levels.cloak == 0 {
            // Saved for until it is affordable.
            return research("cloaking");
        } else if !raider_line && !s.units_of(seat).any(|u| u.kind == Kind::Raider) {
            if let Some(l) = buy("raider") {
                return Some(l);
            }
        }
    }
    // Squadrons for every Carrier first (3 a Carrier), then a Carrier.
    let count = |kind: orrery::games::empires::Kind| {
        s.units_of(seat)
            .filter(|u| u.kind == kind)
            .map(|u| u.ships)
            .sum::<u32>()
    };
    let (carriers, squadrons) = (
        count(orrery::games::empires::Kind::Carrier),
        count(orrery::games::empires::Kind::Fighters),
    );
    if squadrons < 3 * carriers {
        buy("fighters").or_else(|| buy("mines"))
    } else {
        buy("carrier").or_else(|| buy("mines"))
    }
}

/// A Carrier's move that takes squadrons along, toward the other
/// homeworld when one does.
fn launch(state: &AnyState, seat: Seat, legal: &[CommandLine]) -> Option<CommandLine> {
    let AnyState::Empires(s) = state else { return None };
    let target = s.board.homeworld(Seat(1 - seat.0));
    legal
        .iter()
        .filter(|l| l.name == "move" && l.get("unit").is_some_and(|u| u.contains(',')))
        .filter_map(|l| Some((s.board.parse(l.get("path")?)?.distance(target), l)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, l)| l.clone())
}

/// A Raider's move toward the nearest enemy counter, when one brings it
/// nearer (unseen, it passes whatever is on the way; the test driver reads
/// the whole state to find them).
fn raid(state: &AnyState, seat: Seat, legal: &[CommandLine]) -> Option<CommandLine> {
    use orrery::games::empires::Kind;
    let AnyState::Empires(s) = state else { return None };
    let enemies: Vec<_> = s.units.iter().filter(|u| u.owner() != seat).map(|u| u.hex).collect();
    nearer(s, seat, legal, &enemies, |u| u.kind == Kind::Raider)
}

/// The move of one of `seat`'s counters (those `mover` allows) that brings
/// it nearest one of `targets`, if any brings it nearer.
fn nearer(
    s: &orrery::games::empires::State,
    seat: Seat,
    legal: &[CommandLine],
    targets: &[orrery::engine::Hex],
    mover: impl Fn(&orrery::games::empires::state::Unit) -> bool,
) -> Option<CommandLine> {
    use orrery::games::empires::basics::Label;
    let near = |h: orrery::engine::Hex| targets.iter().map(|e| e.distance(h)).min().unwrap_or(i32::MAX);
    legal
        .iter()
        .filter(|l| l.name == "move")
        .filter_map(|l| {
            let u = Label::parse(l.get("unit")?, seat).and_then(|u| s.unit(u))?;
            let to = s.board.parse(l.get("path")?)?;
            (mover(u) && near(to) < near(u.hex)).then(|| (near(to), l))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, l)| l.clone())
}

/// alice's scouting until the first deep-space Barren Planet is found: the
/// move of an armed counter that brings it nearer the nearest unexplored
/// one (the test driver reads the whole state to find them: it plays to
/// reach the aliens, not to win).
fn toward_aliens(state: &AnyState, seat: Seat, legal: &[CommandLine]) -> Option<CommandLine> {
    use orrery::games::empires::basics::Marker;
    let AnyState::Empires(s) = state else { return None };
    // Once aliens have been met, back to the usual seeking.
    if s.spots
        .iter()
        .any(|p| p.face_up && p.home.is_none() && p.marker == Marker::Barren)
    {
        return None;
    }
    let barren: Vec<_> = s
        .spots
        .iter()
        .filter(|p| !p.face_up && p.home.is_none() && p.marker == Marker::Barren)
        .map(|p| p.hex)
        .collect();
    nearer(s, seat, legal, &barren, |u| u.armed())
}

/// The legal orders but moves into a hex where aliens are or may be found
/// (a face-down deep-space Barren Planet; the test driver reads the state):
/// seekers go round them, to reach the other homeworld and its mines.
fn around_aliens(s: &orrery::games::empires::State, legal: &[CommandLine]) -> Vec<CommandLine> {
    legal
        .iter()
        .filter(|l| {
            l.name != "move"
                || l.get("path").and_then(|p| s.board.parse(p)).is_none_or(|h| {
                    let barren = s.spot(h).is_some_and(|p| {
                        !p.face_up && p.home.is_none() && p.marker == orrery::games::empires::basics::Marker::Barren
                    });
                    s.aliens_at(h).is_empty() && !barren
                })
        })
        .cloned()
        .collect()
}

/// Space Empires with advanced rules through Discord (issue 30): both
/// players research Mine Technology and Fighters and buy Mines, a Carrier
/// and Fighter Squadrons at home; warships stay home until round 3, then
/// seek the other homeworld, where the Mines wait. Carriers take their
/// squadrons along (`/empires move unit:A20,A21 …`); a minefield
/// detonates (alice's by her standing orders, bob's by his `detonate`
/// orders when he has a choice); alice's scouts go for deep-space Barren
/// Planets, and in her battles against their aliens bob, the player to her
/// left, fires for them by hand. Each buys a Raider after Cloaking; it
/// seeks the other homeworld with the rest, unseen, and once there alone
/// with the enemy its owner orders it to attack (`/empires battle at:…` in
/// movement, the "Raiders attack" button).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_advanced_space_empires_game_through_discord() {
    let h = Harness::start().await;
    let options = json!({"rounds": 12, "rules": "advanced"});
    let seed = ADVANCED_SEED;
    let (chan, _players, t) = open_with_alice_at_will(&h, "empires-advanced", seed, options).await;

    let mut rng = GameRng::seeded(seed);
    let mut via: BTreeMap<String, usize> = BTreeMap::new();
    let mut orders = 0;
    while let Some((state, p)) = h.owed(&t).await {
        let AnyState::Empires(s) = &state else { unreachable!() };
        let legal = state.legal_commands(p.seat);
        let named = |n: &str| legal.iter().find(|l| l.name == n).cloned();
        let line = match p.kind.as_str() {
            "economic" => advanced_sheet(s, p.seat, &legal).or_else(|| named("ready")),
            "move" => named("battle")
                .or_else(|| raid(&state, p.seat, &legal))
                .or_else(|| launch(&state, p.seat, &legal))
                .or_else(|| {
                    (p.seat == Seat(0))
                        .then(|| toward_aliens(&state, p.seat, &legal))
                        .flatten()
                })
                .or_else(|| {
                    (s.round >= 3)
                        .then(|| seek(&state, p.seat, &around_aliens(s, &legal)))
                        .flatten()
                })
                .filter(|_| rng.below(8) != 0)
                .or_else(|| named("end")),
            "mines" => named("detonate"),
            _ => None,
        }
        .unwrap_or_else(|| choose(&state, p.seat, &p.kind, &mut rng));
        let user = &t.seats[p.seat.index()];
        if line.name == "ready" {
            h.give_as(&t, &state, p.seat, &line).await;
        } else {
            let place = if p.sheet { Place::Dm } else { Place::Channel(chan) };
            let ans = h.order(&t, user, place, &line).await;
            assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
        }
        let what = if line.name == "move" && line.get("unit").is_some_and(|u| u.contains(',')) {
            "move together".to_string()
        } else if line.name == "fire" && line.get("unit").is_some_and(|u| u.starts_with("alien")) {
            "fire for the aliens".to_string()
        } else if line.name == "battle" && p.kind == "move" {
            "order unseen Raiders to attack".to_string()
        } else {
            line.name.clone()
        };
        *via.entry(format!("{} {what}", user.name)).or_default() += 1;
        orders += 1;
        h.wait_outbox_drained(DRAIN).await;
        assert!(orders < 4000, "the game does not end");
    }
    let outcome = h.finished(&t).await;

    let events: Vec<AnyEvent> = h.events(t.game).await.into_iter().map(|(_, e)| e).collect();
    let count = |f: &dyn Fn(&EmpiresEvent) -> bool| count_of(&events, f);
    let detonated = count(&|e| matches!(e, EmpiresEvent::MineDetonated { .. }));
    let ambushes = count(&|e| matches!(e, EmpiresEvent::AmbushOrdered { .. }));
    // Battles begun with a cloaked Raider in them (class A, +1 in the first
    // firing round).
    let cloaked = count(
        &|e| matches!(e, EmpiresEvent::BattleBegan { battle, .. } if battle.fighters().iter().any(|f| f.cloaked)),
    );
    let bought = |kind: &str| {
        events
            .iter()
            .filter(|e| matches!(e, AnyEvent::Empires(EmpiresEvent::EconomyCarriedOut { .. })))
            .map(|e| {
                serde_json::to_string(e)
                    .unwrap()
                    .matches(&format!("\"kind\":\"{kind}\""))
                    .count()
            })
            .sum::<usize>()
    };
    let launched = via
        .iter()
        .filter(|(k, _)| k.ends_with("move together"))
        .map(|(_, n)| n)
        .sum::<usize>();
    eprintln!(
        "empires advanced seed {seed} through Discord: {outcome:?}; {orders} orders {via:?}; \
         Mines counters bought {}, Carriers {}, squadron counters {}, moves carrying squadrons {launched}, \
         mines detonated {detonated}, Raiders {}, attacks ordered unseen {ambushes}, battles with a cloaked \
         Raider {cloaked}",
        bought("Mines"),
        bought("Carrier"),
        bought("Fighters"),
        bought("Raider"),
    );
    assert!(
        bought("Mines") > 0 && bought("Carrier") > 0 && bought("Fighters") > 0,
        "{via:?}"
    );
    assert!(launched > 0, "no Carrier took squadrons along: {via:?}");
    assert!(detonated > 0, "no minefield detonated: {via:?}");
    assert!(bought("Raider") > 0, "no Raider bought: {via:?}");
    assert!(ambushes > 0, "no unseen Raider was ordered to attack: {via:?}");
    assert!(cloaked > 0, "no battle with a cloaked Raider: {via:?}");
    // bob chose the aliens' targets in alice's battles, by the prompt.
    assert!(via.get("bob fire for the aliens").is_some_and(|n| *n > 0), "{via:?}");
    let posts = h.posts(chan);
    crate::support::result_post(&t, &posts, &outcome);
    let everything = h.public_text(chan);
    for secret in [
        "Line added",
        "Your sheet",
        "carried over",
        "research",
        "will attack in your combat phase",
    ] {
        assert!(!everything.contains(secret), "the channel reads `{secret}`");
    }
    h.assert_outbox_delivered_once().await;
}

/// How many of a game's `events` are Space Empires events that `f` picks.
fn count_of(events: &[AnyEvent], f: &dyn Fn(&EmpiresEvent) -> bool) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, AnyEvent::Empires(x) if f(x)))
        .count()
}

/// The seed of the solitaire game through Discord.
const SOLO_SEED: u64 = 2;

/// A solitaire game through Discord (issue 30): alice alone against a
/// Doomsday Machine (`machines: 1`) and the aliens, opened and started by
/// her alone. Her warships go to meet the machine; the battles against it
/// (in her combat phase, and when it moves onto her ships) are answered by
/// the prompt in the channel; the game ends won or lost, and the result
/// post says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solitaire_space_empires_game_through_discord() {
    let h = Harness::start().await;
    let chan = h.fake.add_channel("empires-solitaire");
    let alice = h.fake.add_user("alice");
    let options = json!({"rounds": 8, "machines": 1});
    let t = h
        .open_game_of(
            GameKind::Empires,
            chan,
            std::slice::from_ref(&alice),
            Some(SOLO_SEED),
            Some(options),
        )
        .await;
    h.wait_outbox_drained(DRAIN).await;
    let mut rng = GameRng::seeded(SOLO_SEED);
    let mut via: BTreeMap<String, usize> = BTreeMap::new();
    let mut orders = 0;
    while let Some((state, p)) = h.owed(&t).await {
        assert_eq!(p.seat, Seat(0), "a solitaire game owes only its player");
        let AnyState::Empires(s) = &state else { unreachable!() };
        let legal = state.legal_commands(p.seat);
        let machines: Vec<orrery::engine::Hex> = s.machines.iter().map(|m| m.hex).collect();
        let line = match p.kind.as_str() {
            "move" => nearer(s, p.seat, &legal, &machines, |u| u.kind.is_warship())
                .filter(|_| rng.below(8) != 0)
                .unwrap_or_else(|| choose(&state, p.seat, &p.kind, &mut rng)),
            _ => choose(&state, p.seat, &p.kind, &mut rng),
        };
        let what = if line.name == "fire" && line.get("at").is_some_and(|a| a.starts_with("dm")) {
            "fire at the machine".to_string()
        } else {
            line.name.clone()
        };
        if line.name == "ready" {
            h.give_as(&t, &state, p.seat, &line).await;
        } else {
            let place = if p.sheet { Place::Dm } else { Place::Channel(chan) };
            let ans = h.order(&t, &alice, place, &line).await;
            assert!(ans.content.contains("Sent: "), "{line}: {}", ans.content);
        }
        *via.entry(what).or_default() += 1;
        orders += 1;
        h.wait_outbox_drained(DRAIN).await;
        assert!(orders < 3000, "the game does not end");
    }
    let outcome = h.finished(&t).await;
    let events: Vec<AnyEvent> = h.events(t.game).await.into_iter().map(|(_, e)| e).collect();
    let count = |f: &dyn Fn(&EmpiresEvent) -> bool| count_of(&events, f);
    let arrived = count(&|e| matches!(e, EmpiresEvent::MachineFound { arrived: true, .. }));
    let battles = count(&|e| matches!(e, EmpiresEvent::BattleBegan { battle, .. } if battle.machine()));
    let bids = count(&|e| matches!(e, EmpiresEvent::BidsRevealed { .. }));
    eprintln!(
        "empires solitaire seed {SOLO_SEED} through Discord: {outcome:?}; {orders} orders {via:?}; \
         machines arrived {arrived}, battles against them {battles}"
    );
    assert_eq!(arrived, 1, "the one machine arrives in round 3");
    assert!(battles > 0, "alice never fought the machine");
    assert!(via.get("fire at the machine").is_some_and(|n| *n > 0), "{via:?}");
    assert_eq!(bids, 0, "a solitaire game has no bid");
    match &outcome {
        orrery::engine::Outcome::Winner { seat, .. } => assert_eq!(*seat, Seat(0)),
        orrery::engine::Outcome::AllLose { .. } => {}
        other => panic!("a solitaire game ended {other:?}"),
    }
    let posts = h.posts(chan);
    crate::support::result_post(&t, &posts, &outcome);
    let everything = h.public_text(chan);
    assert!(
        everything.contains("Doomsday Machine 1 arrives"),
        "the channel never read the arrival"
    );
    h.assert_outbox_delivered_once().await;
}
