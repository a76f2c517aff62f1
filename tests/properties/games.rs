//! Property tests over every game system, driven only through the generic
//! engine interface (`AnyState`), so each new game is covered by adding it
//! to `GameKind::ALL`.
//!
//! - random legal play always ends, without panics, within a bound;
//! - folding the log reproduces the state exactly (and through JSON);
//! - a seat's hidden choice changes nothing any other viewer can see:
//!   their view, their narration of the events, and the rendered board.

use orrery::engine::{CommandLine, GameConfig, GameRng, Pending, Seat, SheetVerb, Viewer};
use orrery::games::{AnyEvent, AnyState, GameKind};
use proptest::prelude::*;

/// Upper bound on decisions in one game; random play must end before it.
const MAX_DECISIONS: usize = 20_000;

struct Played {
    events: Vec<AnyEvent>,
    state: AnyState,
    decisions: usize,
}

/// Play a whole game choosing uniformly among legal orders. `visit` sees
/// every state where a decision is made, and may stop the game early by
/// returning false.
fn play(kind: GameKind, players: u8, seed: u64, visit: impl FnMut(&AnyState) -> bool) -> Played {
    play_resigning(kind, players, seed, visit, |_, _| None)
}

/// [`play`], where before each decision `resign` may name a seat that
/// resigns there (`AnyState::resign`, as `/game resign` does) instead.
fn play_resigning(
    kind: GameKind,
    players: u8,
    seed: u64,
    visit: impl FnMut(&AnyState) -> bool,
    resign: impl FnMut(&AnyState, usize) -> Option<Seat>,
) -> Played {
    play_config(kind, &GameConfig::new(players, seed), visit, resign)
}

/// [`play_resigning`] of a game set up with `config` (its options).
fn play_config(
    kind: GameKind,
    config: &GameConfig,
    visit: impl FnMut(&AnyState) -> bool,
    resign: impl FnMut(&AnyState, usize) -> Option<Seat>,
) -> Played {
    play_biased(kind, config, visit, resign, |_, _, _, _| None)
}

/// A test policy for Space Empires games with Mines: three times in four a
/// seat may move a counter one hex nearer another player's Mines, it does
/// (uniform play seldom walks into a minefield; this one does, so the
/// properties see mines detonate). It reads the whole state: it is a test
/// policy, not a player.
fn toward_mines(state: &AnyState, seat: Seat, legal: &[CommandLine], rng: &mut GameRng) -> Option<CommandLine> {
    use orrery::games::empires::{basics::Label, Kind};
    let AnyState::Empires(s) = state else { return None };
    let mines: Vec<_> = s
        .units
        .iter()
        .filter(|u| u.kind == Kind::Mines && u.owner() != seat)
        .map(|u| u.hex)
        .collect();
    if mines.is_empty() || rng.below(4) == 0 {
        return None;
    }
    let near = |h: orrery::engine::Hex| mines.iter().map(|m| m.distance(h)).min().unwrap_or(i32::MAX);
    legal
        .iter()
        .filter(|l| l.name == "move")
        .filter_map(|l| {
            let from = Label::parse(l.get("unit")?.split(',').next()?, seat)
                .and_then(|u| s.unit(u))?
                .hex;
            let to = s.board.parse(l.get("path")?)?;
            (near(to) < near(from)).then(|| (near(to), l))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, l)| l.clone())
}

/// A test policy for Space Empires games with Raiders: a seat whose cloaked
/// Raiders may attack orders them to, half the time, and three times in
/// four moves a Raider one hex nearer another player's counters (uniform
/// play seldom brings a Raider to an enemy and never attacks unseen). It
/// reads the whole state: it is a test policy, not a player.
fn toward_enemies_with_raiders(
    state: &AnyState,
    seat: Seat,
    legal: &[CommandLine],
    rng: &mut GameRng,
) -> Option<CommandLine> {
    use orrery::games::empires::{basics::Label, state::Phase, Kind};
    let AnyState::Empires(s) = state else { return None };
    if s.phase != Phase::Movement || rng.below(4) == 0 {
        return None;
    }
    if let Some(ambush) = legal.iter().find(|l| l.name == "battle") {
        if rng.below(2) == 0 {
            return Some(ambush.clone());
        }
    }
    let enemies: Vec<_> = s.units.iter().filter(|u| u.owner() != seat).map(|u| u.hex).collect();
    let near = |h: orrery::engine::Hex| enemies.iter().map(|m| m.distance(h)).min().unwrap_or(i32::MAX);
    legal
        .iter()
        .filter(|l| l.name == "move")
        .filter_map(|l| {
            let units = l.get("unit")?;
            let first = Label::parse(units.split(',').next()?, seat).and_then(|u| s.unit(u))?;
            if first.kind != Kind::Raider {
                return None;
            }
            let to = s.board.parse(l.get("path")?.split(',').next_back()?)?;
            (near(to) < near(first.hex)).then(|| (near(to), l))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, l)| l.clone())
}

/// [`play_config`] with `bias`, a test policy that may choose instead of
/// uniform random play.
fn play_biased(
    kind: GameKind,
    config: &GameConfig,
    mut visit: impl FnMut(&AnyState) -> bool,
    mut resign: impl FnMut(&AnyState, usize) -> Option<Seat>,
    mut bias: impl FnMut(&AnyState, Seat, &[CommandLine], &mut GameRng) -> Option<CommandLine>,
) -> Played {
    let seed = config.seed;
    let mut events = kind.setup(config).expect("set-up");
    let mut state = kind.fold(&events).expect("fold");
    let mut rng = GameRng::seeded(seed.wrapping_mul(31).wrapping_add(7));
    let mut decisions = 0;
    while state.outcome().is_none() {
        assert!(
            decisions < MAX_DECISIONS,
            "{kind} seed {seed}: no end after {MAX_DECISIONS} decisions"
        );
        if !visit(&state) {
            break;
        }
        if let Some(seat) = resign(&state, decisions) {
            let new = state
                .resign(seat)
                .unwrap_or_else(|e| panic!("{kind} seed {seed}: {seat} could not resign: {e}"));
            for e in &new {
                state.apply(e).expect("apply");
            }
            events.extend(new);
            continue;
        }
        let pending = state.pending();
        let owing: Vec<_> = pending.iter().filter(|p| !p.submitted).collect();
        assert!(
            !owing.is_empty(),
            "{kind} seed {seed}: not over, but nobody owes a decision: {pending:?}"
        );
        let p = owing[rng.below(owing.len() as u32) as usize];
        let legal = state.legal_commands(p.seat);
        assert!(
            !legal.is_empty(),
            "{kind} seed {seed}: {} owes {} but has no legal order",
            p.seat,
            p.kind
        );
        // An order sheet is marked ready a quarter of the time it may be,
        // so that sheets end; otherwise any legal edit, uniformly.
        let choice = match kind.sheet_command(SheetVerb::Ready) {
            Some(ready) if p.sheet && legal.contains(&ready) && rng.below(4) == 0 => ready,
            _ => match bias(&state, p.seat, &legal, &mut rng) {
                Some(line) => line,
                None => rng.pick(&legal).expect("non-empty").clone(),
            },
        };
        let new = state
            .decide(p.seat, &choice)
            .unwrap_or_else(|e| panic!("{kind} seed {seed}: legal order `{choice}` refused: {e}"));
        for e in &new {
            state.apply(e).expect("apply");
        }
        events.extend(new);
        decisions += 1;
    }
    Played {
        events,
        state,
        decisions,
    }
}

/// How many random games a test plays: `ORRERY_PROP_GAMES`, or `default`.
fn games_or(default: u64) -> u64 {
    std::env::var("ORRERY_PROP_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn player_counts(kind: GameKind) -> Vec<u8> {
    kind.player_counts().collect()
}

/// The fold of a played game's log is its state, and so is the fold of
/// the log read back from the database's JSON form.
fn assert_replays(kind: GameKind, seed: u64, played: &Played) {
    let replayed = kind.fold(&played.events).expect("fold");
    assert_eq!(replayed, played.state, "{kind} seed {seed}: replay differs");
    let json = serde_json::to_string(&played.events).expect("serialize");
    let back: Vec<AnyEvent> = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(
        kind.fold(&back).expect("fold"),
        played.state,
        "{kind} seed {seed}: JSON replay differs"
    );
}

#[test]
fn random_games_end_and_replay_exactly() {
    let games = games_or(200);
    for &kind in GameKind::ALL {
        let counts = player_counts(kind);
        let mut total = 0;
        let started = std::time::Instant::now();
        for seed in 0..games {
            let players = counts[(seed as usize) % counts.len()];
            let played = play(kind, players, seed, |_| true);
            total += played.decisions;
            assert_replays(kind, seed, &played);
            assert!(
                played.state.pending().is_empty(),
                "{kind} seed {seed}: game over but decisions pending"
            );
        }
        eprintln!(
            "{kind}: {games} random games ended, {total} decisions in all ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

/// Moves of a Space Empires log, read in one replay: those between hexes
/// that are not next to each other on the map (through a pair of Warp
/// Points, optional rule 16), and those that took Fighter Squadrons along
/// (advanced rule 11.2.2).
fn special_moves(events: &[AnyEvent]) -> (usize, usize) {
    use orrery::games::empires::{Event, Kind};
    let mut state = GameKind::Empires.empty();
    let (mut jumps, mut carried) = (0, 0);
    for e in events {
        if let (AnyState::Empires(st), AnyEvent::Empires(Event::Moved { units, path, .. })) = (&state, e) {
            let mut at = units.first().and_then(|l| st.unit(*l)).map(|u| u.hex);
            for h in path {
                jumps += usize::from(at.is_some_and(|a| a.distance(*h) != 1));
                at = Some(*h);
            }
            carried += usize::from(
                units
                    .iter()
                    .any(|l| st.unit(*l).is_some_and(|u| u.kind == Kind::Fighters)),
            );
        }
        state.apply(e).expect("an Empires event");
    }
    (jumps, carried)
}

/// Planets where aliens were found and none are left at the end: subdued
/// (14.3).
fn subdued_planets(played: &Played) -> usize {
    use orrery::games::empires::Event;
    let AnyState::Empires(s) = &played.state else { return 0 };
    played
        .events
        .iter()
        .filter_map(|e| match e {
            AnyEvent::Empires(Event::AliensFound { at, .. }) => Some(*at),
            _ => None,
        })
        .filter(|at| s.aliens_at(*at).is_empty())
        .count()
}

/// Space Empires with each optional rule built, alone and all together:
/// random games end and replay exactly (the options are in the set-up
/// event, so the replay plays by the same rules).
#[test]
fn random_empires_games_with_optional_rules_end_and_replay() {
    let games = games_or(200) / 10;
    let sets = [
        serde_json::json!({"instant_upgrade": true}),
        serde_json::json!({"research_gearing": true}),
        serde_json::json!({"unpredictable_research": true}),
        serde_json::json!({"slingshot": true}),
        serde_json::json!({"pipelines": true}),
        serde_json::json!({"warp_points": true}),
        serde_json::json!({"mines": true}),
        serde_json::json!({"carriers": true, "point_defense": true}),
        serde_json::json!({"aliens": true}),
        serde_json::json!({"raiders": true}),
        serde_json::json!({"teams": true}),
        serde_json::json!({"doomsday": true}),
        // `machines` alone: solitaire games (one player against them).
        serde_json::json!({"machines": 3}),
        serde_json::json!({"rules": "advanced", "instant_upgrade": true, "research_gearing": true, "unpredictable_research": true, "slingshot": true, "warp_points": true}),
    ];
    for options in sets {
        let (mut total, mut rolled, mut slung) = (0, 0, 0);
        let (mut pipelines, mut traded, mut held, mut warps) = (0, 0, 0, 0);
        let (mut laid, mut detonated, mut chosen, mut swept) = (0, 0, 0, 0);
        let (mut squadrons, mut carried, mut with_squadrons) = (0, 0, 0);
        let (mut found, mut alien_battles, mut subdued) = (0, 0, 0);
        let (mut raiders, mut unseen, mut ambushes, mut cloaked) = (0, 0, 0, 0);
        let (mut team_battles, mut shared) = (0, 0);
        let (mut machines, mut machine_battles, mut worlds, mut machines_destroyed, mut solo_won) = (0, 0, 0, 0, 0);
        let solitaire = options.get("machines").is_some() && options.get("doomsday").is_none();
        let advanced = options.get("rules").is_some();
        // Solitaire is played against the aliens too.
        let has = |key: &str| advanced || options.get(key).is_some() || (solitaire && key == "aliens");
        for seed in 0..games {
            let teams = options.get("teams").is_some();
            let players = match (teams, solitaire) {
                (true, _) => 4,
                (_, true) => 1,
                _ => 2 + (seed % 3) as u8,
            };
            let mut config = GameConfig::new(players, seed);
            config.options = options.clone();
            let played = play_biased(
                GameKind::Empires,
                &config,
                |_| true,
                |_, _| None,
                |state, seat, legal, rng| {
                    toward_enemies_with_raiders(state, seat, legal, rng)
                        .or_else(|| toward_mines(state, seat, legal, rng))
                },
            );
            total += played.decisions;
            assert_replays(GameKind::Empires, seed, &played);
            let log = serde_json::to_string(&played.events).expect("serialize");
            rolled += log.matches("\"rolls\":[{").count();
            slung += log.matches("\"slingshot\":true").count();
            pipelines += log.matches("\"kind\":\"Pipeline\"").count();
            traded += log.matches("\"trade_income\":").count();
            held += log.matches("\"PipelinesHeld\"").count();
            let (jumps, carrying) = special_moves(&played.events);
            warps += jumps;
            laid += log.matches("\"kind\":\"Mines\"").count();
            detonated += log.matches("\"MineDetonated\"").count();
            chosen += log.matches("\"MinefieldEntered\"").count();
            swept += log.matches("\"MinesSwept\"").count();
            squadrons += log.matches("\"kind\":\"Fighters\"").count();
            carried += carrying;
            with_squadrons += usize::from(log.contains("\"kind\":\"Fighters\""));
            found += log.matches("\"AliensFound\"").count();
            alien_battles += played
                .events
                .iter()
                .filter(|e| {
                    matches!(e, AnyEvent::Empires(orrery::games::empires::Event::BattleBegan { battle, .. }) if battle.aliens())
                })
                .count();
            subdued += subdued_planets(&played);
            machines += log.matches("\"MachineFound\"").count();
            worlds += log.matches("\"WorldDestroyed\"").count();
            machine_battles += played
                .events
                .iter()
                .filter(|e| {
                    matches!(e, AnyEvent::Empires(orrery::games::empires::Event::BattleBegan { battle, .. }) if battle.machine())
                })
                .count();
            if let AnyState::Empires(state) = &played.state {
                machines_destroyed += state.machines_destroyed;
                if solitaire {
                    // Solitaire ends won by the player or lost by all.
                    match state.outcome.as_ref().expect("the game ended") {
                        orrery::engine::Outcome::Winner { seat, .. } => {
                            assert_eq!(seat.0, 0, "{options} seed {seed}");
                            assert_eq!(
                                state.machines_destroyed, 3,
                                "{options} seed {seed}: won with machines left"
                            );
                            solo_won += 1;
                        }
                        orrery::engine::Outcome::AllLose { .. } => {}
                        other => panic!("{options} seed {seed}: solitaire ended {other:?}"),
                    }
                }
            }
            if teams {
                // Teammates never fight each other, and share the victory.
                let state = match &played.state {
                    AnyState::Empires(s) => s,
                    _ => unreachable!(),
                };
                let mut replay = orrery::games::empires::State::empty();
                for e in &played.events {
                    let AnyEvent::Empires(e) = e else { continue };
                    if let orrery::games::empires::Event::BattleBegan { defender, .. } = e {
                        let attacker = replay.active_seat().expect("a battle in a player's turn");
                        assert!(
                            !replay.allied(attacker, *defender),
                            "{options} seed {seed}: teammates {attacker} and {defender} fought"
                        );
                        team_battles += 1;
                    }
                    orrery::games::empires::events::apply(&mut replay, e);
                }
                let winners = state.outcome.as_ref().map(|o| o.winners()).unwrap_or_default();
                assert!(
                    winners.iter().all(|w| winners.iter().all(|x| state.allied(*w, *x))),
                    "{options} seed {seed}: winners of both teams: {winners:?}"
                );
                shared += usize::from(winners.len() == 2);
            }
            raiders += log.matches("\"kind\":\"Raider\"").count();
            unseen += log.matches("\"hidden_from\":[").count();
            ambushes += log.matches("\"AmbushOrdered\"").count();
            cloaked += log.matches("\"cloaked\":true").count();
        }
        eprintln!(
            "empires {options}: {games} random games ended, {total} decisions in all; \
             {rolled} sheets with research dice, {slung} sling shots, {pipelines} pipelines bought, \
             {traded} ledgers with trade, {held} chains used for the extra hex, {warps} moves through Warp Points, \
             {laid} Mines counters in the log, {detonated} mines detonated, {chosen} minefields asking \
             their owner, {swept} sweeps, {squadrons} Fighter Squadron counters in the log, {carried} moves \
             carrying squadrons, {with_squadrons} games with squadrons, {found} alien planets found, \
             {alien_battles} battles against aliens, {subdued} alien planets subdued, {raiders} Raider \
             counters in the log, {unseen} events kept from someone, {ambushes} attacks ordered by unseen \
             Raiders, {cloaked} cloaked Raiders in battle states, {team_battles} battles in team games, \
             {shared} team victories, {machines} Doomsday Machines found or arrived, {machine_battles} \
             battles against them, {machines_destroyed} destroyed, {worlds} worlds they destroyed, \
             {solo_won} solitaire games won"
        );
        if options.get("doomsday").is_some() || solitaire {
            assert!(machines > 0, "{options}: no Doomsday Machine ever came");
            assert!(machine_battles > 0, "{options}: nobody ever fought a Doomsday Machine");
            assert!(worlds > 0, "{options}: no Doomsday Machine ever destroyed a world");
        } else {
            assert_eq!(
                machines + machine_battles + worlds,
                0,
                "{options}: Doomsday Machines in a game without them"
            );
        }
        if options.get("teams").is_some() {
            assert!(shared > 0, "{options}: no team ever won together");
        }
        if has("raiders") {
            if options.get("research_gearing").is_none() {
                assert!(raiders > 0, "{options}: random play never bought Raiders");
                assert!(unseen > 0, "{options}: no Raider ever moved unseen");
                assert!(ambushes > 0, "{options}: no unseen Raider ever attacked");
                assert!(cloaked > 0, "{options}: no Raider ever fought cloaked");
            }
        } else {
            assert_eq!(
                raiders + unseen + ambushes,
                0,
                "{options}: Raiders in a game without them"
            );
        }
        if has("aliens") {
            assert!(found > 0, "{options}: random play never found aliens");
            assert!(alien_battles > 0, "{options}: random play never fought aliens");
        } else {
            assert_eq!(found + alien_battles, 0, "{options}: aliens in a game without them");
        }
        if has("carriers") {
            if options.get("research_gearing").is_none() {
                assert!(squadrons > 0, "{options}: random play never bought Fighter Squadrons");
                assert!(carried > 0, "{options}: random play never carried squadrons");
            }
        } else {
            assert_eq!(squadrons + carried, 0, "{options}: squadrons in a game without them");
        }
        if has("mines") {
            // Random play buys mines (not under research gearing, which
            // holds Mine Technology's 30 CP back); the test policy walks
            // into them.
            if options.get("research_gearing").is_none() {
                assert!(laid > 0, "{options}: random play never bought mines");
                assert!(detonated > 0, "{options}: no mine detonated");
            }
        } else {
            assert_eq!(laid + detonated, 0, "{options}: mines in a game without them");
        }
        if options.get("warp_points").is_some() {
            assert!(warps > 0, "{options}: random play never moved through a Warp Point");
        } else {
            assert_eq!(warps, 0, "{options}: a move between hexes that are not adjacent");
        }
        if has("pipelines") {
            assert!(pipelines > 0, "{options}: random play never bought a pipeline");
            assert!(traded > 0, "{options}: random play never earned trade income");
            assert!(
                held > 0,
                "{options}: random play never moved a unit along a chain's extra hex"
            );
        } else {
            assert_eq!(
                pipelines + traded + held,
                0,
                "{options}: pipelines in a game without them"
            );
        }
        if options.get("unpredictable_research").is_some() {
            assert!(rolled > 0, "{options}: random play never rolled research grants");
        }
        if options.get("slingshot").is_some() {
            assert!(slung > 0, "{options}: random play never made a sling shot");
        }
    }
}

/// Whole random games, at the largest player count, in which one seat
/// (every third game all but one) resigns at random points: every game
/// ends, a resigned seat is never waited on again and never wins, the last
/// player left wins, and the log replays to the state (through JSON too).
#[test]
fn random_games_with_resignations_end_and_replay() {
    let games = games_or(40);
    for &kind in GameKind::ALL {
        let players = *kind.player_counts().end();
        let started = std::time::Instant::now();
        let (mut resigned, mut ended_by_resigning) = (0, 0);
        for seed in 0..games {
            let mut rng = GameRng::seeded(seed ^ 0x4e5);
            // When seats resign: one; or, every third game, all but one.
            let count = if seed % 3 == 0 { players as usize - 1 } else { 1 };
            // Within the length of the same game played without them.
            let length = play(kind, players, 1000 + seed, |_| true).decisions as u32;
            let span = (length / (count as u32 + 1)).max(1);
            let mut at = vec![rng.below(span) as usize];
            while at.len() < count {
                at.push(at[at.len() - 1] + 1 + rng.below(span) as usize);
            }
            let mut out: Vec<Seat> = Vec::new();
            let played = play_resigning(
                kind,
                players,
                1000 + seed,
                |_| true,
                |state, decisions| {
                    for p in state.pending() {
                        assert!(
                            !out.contains(&p.seat),
                            "{kind} seed {seed}: resigned {} is waited on: {p:?}",
                            p.seat
                        );
                    }
                    if at.get(out.len()) != Some(&decisions) {
                        return None;
                    }
                    let stay: Vec<Seat> = Seat::all(players as usize).filter(|s| !out.contains(s)).collect();
                    let seat = stay[rng.below(stay.len() as u32) as usize];
                    out.push(seat);
                    Some(seat)
                },
            );
            let outcome = played.state.outcome().expect("ended");
            assert!(
                outcome.winners().iter().all(|w| !out.contains(w)),
                "{kind} seed {seed}: a resigned seat wins: {outcome:?} ({out:?})"
            );
            resigned += usize::from(!out.is_empty());
            if out.len() + 1 == players as usize {
                ended_by_resigning += 1;
                assert_eq!(
                    outcome.winners(),
                    Seat::all(players as usize)
                        .filter(|s| !out.contains(s))
                        .collect::<Vec<_>>(),
                    "{kind} seed {seed}: the last player left wins"
                );
            }
            assert_replays(kind, seed, &played);
            for seat in &out {
                assert!(
                    played.state.resign(*seat).is_err(),
                    "{kind} seed {seed}: resigned twice"
                );
            }
        }
        eprintln!(
            "{kind}: {games} games ended, {resigned} with resignations, {ended_by_resigning} by all others resigning ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
        assert!(
            resigned * 4 >= games as usize * 3 && ended_by_resigning * 5 >= games as usize,
            "{kind}: too few games reached their resignations"
        );
    }
}

#[test]
fn same_seed_same_game() {
    for &kind in GameKind::ALL {
        let players = *kind.player_counts().end();
        let a = play(kind, players, 99, |_| true);
        let b = play(kind, players, 99, |_| true);
        assert_eq!(a.events, b.events);
    }
}

/// Each other viewer's view, and each other viewer's narration of the events.
type WhatOthersSee = (Vec<serde_json::Value>, Vec<Vec<Option<String>>>);

/// At `state`, where `seat` owes a secret decision, try every legal pick
/// and check no other viewer can tell them apart.
fn check_secret_pick_invisible(kind: GameKind, state: &AnyState, seat: Seat, players: u8) {
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    // On an order sheet every edit of its lines must look alike to others;
    // marking it ready (or not) is the one thing the channel learns.
    let readiness: Vec<_> = [SheetVerb::Ready, SheetVerb::Unready]
        .into_iter()
        .filter_map(|v| kind.sheet_command(v))
        .collect();
    let legal: Vec<_> = state
        .legal_commands(seat)
        .into_iter()
        .filter(|c| !readiness.contains(c))
        .collect();
    let mut seen: Option<WhatOthersSee> = None;
    let mut seen_png: Option<Vec<u8>> = None;
    let others: Vec<Viewer> = std::iter::once(Viewer::Public)
        .chain(Seat::all(players as usize).filter(|s| *s != seat).map(Viewer::Seat))
        .collect();
    for (i, pick) in legal.iter().enumerate() {
        let events = state
            .decide(seat, pick)
            .unwrap_or_else(|e| panic!("legal secret pick `{pick}` refused: {e}"));
        let mut after = state.clone();
        for e in &events {
            after.apply(e).expect("apply");
        }
        // If the pick completed the set and was revealed, other seats may
        // rightly learn it: only compare picks that stay hidden.
        if after.pending().iter().all(|p| !(p.seat == seat && p.secret)) {
            continue;
        }
        let mut views: Vec<serde_json::Value> = others.iter().map(|v| after.view_json(*v)).collect();
        // What leaves the engine beside views and narration is public too:
        // the phase label, who owes which kind of decision (the channel's
        // "Waiting on"), and non-secret defaults (announced when played).
        let waiting: Vec<(Seat, String, bool)> = after
            .pending()
            .iter()
            .map(|p| (p.seat, p.kind.to_string(), p.submitted))
            .collect();
        let defaults: Vec<Option<String>> = after
            .pending()
            .iter()
            .filter(|p| !p.secret)
            .map(|p| after.default_command(p.seat).map(|c| c.to_string()))
            .collect();
        views.push(serde_json::json!({
            "label": after.phase().label,
            "number": after.phase().number,
            "waiting": format!("{waiting:?}"),
            "public defaults": defaults,
        }));
        let narration: Vec<Vec<Option<String>>> = others
            .iter()
            .map(|v| events.iter().map(|e| e.narrate(*v, &names)).collect())
            .collect();
        match &seen {
            None => seen = Some((views, narration)),
            Some((v0, n0)) => {
                assert_eq!(
                    &views, v0,
                    "{kind}: another viewer's view depends on {seat}'s hidden pick `{pick}`"
                );
                assert_eq!(
                    &narration, n0,
                    "{kind}: narration to others depends on {seat}'s hidden pick `{pick}`"
                );
            }
        }
        // The public board's pixels (the PNG is a function of them), for
        // the first few picks (rendering is slower).
        if i < 3 {
            let png = orrery_render::render_rgba(&after.scene(Viewer::Public, &names))
                .expect("render")
                .data()
                .to_vec();
            match &seen_png {
                None => seen_png = Some(png),
                Some(p0) => assert!(
                    p0 == &png,
                    "{kind}: public board depends on {seat}'s hidden pick `{pick}`"
                ),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// For random states reached by random play: wherever a seat owes a
    /// hidden decision, its choice is invisible to every other viewer.
    #[test]
    fn hidden_choices_do_not_leak(seed in 0u64..1_000_000, kind_ix in 0usize..GameKind::ALL.len()) {
        let kind = GameKind::ALL[kind_ix];
        let counts = player_counts(kind);
        let players = counts[(seed as usize) % counts.len()];
        let mut checked = 0;
        play(kind, players, seed, |state| {
            for p in state.pending() {
                if p.secret && !p.submitted {
                    check_secret_pick_invisible(kind, state, p.seat, players);
                    checked += 1;
                }
            }
            checked < 6
        });
    }
}

/// The largest menus of one game system, over every state random play
/// reached: orders of one seat, orders of one group, groups of one seat.
#[derive(Debug, Default)]
struct MenuSizes {
    states: usize,
    orders: usize,
    group: usize,
    groups: usize,
    /// States whose orders need more than one menu of 25.
    over_one_menu: usize,
    /// The biggest group seen: its name and size.
    biggest: (String, usize),
    /// The groups of the state with the most groups.
    most_groups: Vec<(String, usize)>,
    /// States over 25 orders whose main orders need more than four menus
    /// (one row left for the other buttons): Discord shows a group picker
    /// first there, one more step for the player.
    picker: usize,
}

/// "seat 1", "Seat 2": a seat number shown to a person.
fn names_a_seat(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices("seat").any(|(i, _)| {
        let rest = lower[i + 4..].trim_start();
        rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Every legal order of every owing seat, as offered to a person: labels
/// unique among the seat's orders, at most 80 characters, naming no seat;
/// groups of at most 25; a question only on an order that ends the turn,
/// and always on one while other main orders are open. Records the sizes.
fn check_controls(kind: GameKind, state: &AnyState, sizes: &mut MenuSizes) {
    use orrery::engine::ControlStyle;
    use std::collections::{BTreeMap, BTreeSet};
    let names: Vec<String> = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for p in state.pending() {
        let controls = state.legal_controls(p.seat, &names);
        assert_eq!(controls.len(), state.legal_commands(p.seat).len());
        let mut labels = BTreeSet::new();
        let mut groups: BTreeMap<String, usize> = BTreeMap::new();
        let main_open = controls.iter().any(|(_, c)| c.style == ControlStyle::Main);
        for (line, c) in &controls {
            let label = &c.label;
            assert!(
                !label.trim().is_empty() && !c.group.trim().is_empty(),
                "{kind}: `{line}`: {c:?}"
            );
            assert!(label.chars().count() <= 80, "{kind}: `{line}`: label over 80: {label}");
            assert!(!names_a_seat(label), "{kind}: `{line}`: label names a seat: {label}");
            assert!(
                !names_a_seat(&c.group),
                "{kind}: `{line}`: group names a seat: {}",
                c.group
            );
            if let Some(q) = &c.confirm {
                assert!(!names_a_seat(q), "{kind}: `{line}`: question names a seat: {q}");
                assert!(
                    matches!(c.style, ControlStyle::End | ControlStyle::Done),
                    "{kind}: `{line}`: a question on an order that neither ends the turn nor completes the decision"
                );
            }
            if matches!(c.style, ControlStyle::End | ControlStyle::Done) && main_open {
                assert!(
                    c.confirm.is_some(),
                    "{kind}: `{line}` ends the turn with main orders open, unasked"
                );
            }
            assert!(labels.insert(label.clone()), "{kind}: label `{label}` twice (`{line}`)");
            *groups.entry(c.group.clone()).or_default() += 1;
        }
        sizes.states += 1;
        sizes.orders = sizes.orders.max(controls.len());
        if controls.len() > 25 {
            sizes.over_one_menu += 1;
        }
        for (g, n) in &groups {
            assert!(*n <= 25, "{kind}: group `{g}` holds {n} orders (more than one menu)");
            if *n > sizes.biggest.1 {
                sizes.biggest = (g.clone(), *n);
            }
        }
        sizes.group = sizes.group.max(groups.values().copied().max().unwrap_or(0));
        let mut main: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, c) in controls.iter().filter(|(_, c)| c.style == ControlStyle::Main) {
            *main.entry(c.group.as_str()).or_default() += 1;
        }
        let menus: usize = main.values().map(|n| n.div_ceil(25)).sum();
        if controls.len() > 25 && menus > 4 {
            sizes.picker += 1;
        }
        if groups.len() > sizes.groups {
            sizes.groups = groups.len();
            sizes.most_groups = groups.into_iter().collect();
        }
    }
}

#[test]
fn legal_orders_are_offered_readably_in_menus() {
    let games = games_or(60);
    assert!(names_a_seat("Turn of seat 1") && names_a_seat("Seat 2") && !names_a_seat("Seats"));
    for &kind in GameKind::ALL {
        let counts = player_counts(kind);
        let mut sizes = MenuSizes::default();
        for seed in 0..games {
            let players = counts[(seed as usize) % counts.len()];
            play(kind, players, 1000 + seed, |state| {
                check_controls(kind, state, &mut sizes);
                true
            });
        }
        assert!(sizes.states > 0);
        eprintln!(
            "{kind}: {} decision states of {games} games: at most {} orders for one seat, \
             {} in one group (`{}`), {} groups; {} states over 25 orders, {} of them needing a group picker; \
             most groups: {:?}",
            sizes.states,
            sizes.orders,
            sizes.group,
            sizes.biggest.0,
            sizes.groups,
            sizes.over_one_menu,
            sizes.picker,
            sizes.most_groups
        );
    }
}

/// Changing what a viewer cannot know (each game's `Ruleset::scramble`,
/// in its folder's `hooks`: other hands, the deck, the bag's order, the
/// generator, face-down counters, unseen ships) changes neither that viewer's view nor the
/// public board PNG; and the same order then reads the same in the
/// channel, however the hidden draws fell (a card drawn, stolen or taken
/// is named only to those involved).
#[test]
fn hidden_state_does_not_leak() {
    let games = games_or(200);
    // One thread per game: the games are independent, and the slowest
    // sets the test's time.
    std::thread::scope(|scope| {
        for &kind in GameKind::ALL {
            scope.spawn(move || hidden_state_does_not_leak_in(kind, games));
        }
    });
}

fn hidden_state_does_not_leak_in(kind: GameKind, games: u64) {
    {
        let counts = player_counts(kind);
        let mut checked = (0usize, 0usize, 0usize, 0usize, 0usize);
        let started = std::time::Instant::now();
        for seed in 0..games {
            let players = counts[(seed as usize) % counts.len()];
            let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
            let mut rng = GameRng::seeded(seed ^ 0x5ec2e7);
            let mut step = 0u32;
            let mut sampled = 0u32;
            // Every other Space Empires game with every advanced and
            // optional rule built so far: what they add is covered too.
            let mut config = GameConfig::new(players, 5000 + seed);
            // 4-player games of them in teams: a teammate's counters are
            // known, nothing else of the teammate's.
            if kind == GameKind::Empires && seed % 2 == 1 {
                config.options = serde_json::json!({
                    "rules": "advanced", "warp_points": true, "slingshot": true, "instant_upgrade": true,
                    "research_gearing": true, "unpredictable_research": true, "teams": players == 4,
                    "doomsday": true
                });
            }
            play_config(
                kind,
                &config,
                |state| {
                    step += 1;
                    // Order sheets take many small edits per decision: look at
                    // fewer of their states.
                    let stride = if state.pending().iter().any(|p| p.sheet) { 31 } else { 7 };
                    if step % stride != 0 {
                        return true;
                    }
                    sampled += 1;
                    // Views: the public one, and each seat's.
                    let viewers = std::iter::once(Viewer::Public).chain(Seat::all(players as usize).map(Viewer::Seat));
                    for viewer in viewers {
                        let keep: Vec<Seat> = viewer.seat().into_iter().collect();
                        let Some(other) = state.scramble(&keep, false, &mut rng) else {
                            return false;
                        };
                        assert_eq!(
                            state.view_json(viewer),
                            other.view_json(viewer),
                            "{kind} seed {seed}: {viewer:?}'s view depends on hidden state"
                        );
                        // Whom the game is shown waiting on (footers, pings,
                        // deadline posts) is public: the same in both worlds
                        // (who owes a combat sheet, say, is not).
                        let shown = |s: &AnyState| -> Vec<(Seat, String, bool)> {
                            Pending::disclosed(&s.pending())
                                .into_iter()
                                .map(|p| (p.seat, p.kind, p.submitted))
                                .collect()
                        };
                        assert_eq!(
                            shown(state),
                            shown(&other),
                            "{kind} seed {seed}: whom the game is shown waiting on depends on hidden state"
                        );
                        let unnamed = |s: &AnyState| -> Vec<String> {
                            let mut k: Vec<String> = s
                                .pending()
                                .into_iter()
                                .filter(|p| p.undisclosed)
                                .map(|p| p.kind)
                                .collect();
                            k.dedup();
                            k
                        };
                        assert_eq!(
                            unnamed(state),
                            unnamed(&other),
                            "{kind} seed {seed}: unnamed decisions differ"
                        );
                        // A seat's prompt lists its legal orders: they are its
                        // DMs too.
                        if let Some(seat) = viewer.seat() {
                            assert_eq!(
                                state.legal_commands(seat),
                                other.legal_commands(seat),
                                "{kind} seed {seed}: {seat}'s legal orders depend on hidden state"
                            );
                            checked.4 += provoked_texts_agree(kind, seed, state, &other, seat, &names, &mut rng);
                        }
                        checked.0 += 1;
                        if viewer == Viewer::Public && sampled % 10 == 0 {
                            // Its pixels: the PNG is a function of them.
                            let png = |s: &AnyState| {
                                orrery_render::render_rgba(&s.scene(Viewer::Public, &names))
                                    .expect("render")
                                    .data()
                                    .to_vec()
                            };
                            assert!(
                                png(state) == png(&other),
                                "{kind} seed {seed}: public board depends on hidden state"
                            );
                            checked.1 += 1;
                        }
                    }
                    // A seat writing an order sheet: each edit that does not
                    // complete the section reads the same to that seat (its
                    // DMs) and in the channel, whatever else is hidden.
                    if let Some(p) = state.pending().into_iter().find(|p| p.sheet && !p.submitted) {
                        let Some(line) = rng.pick(&state.legal_commands(p.seat)).cloned() else {
                            return true;
                        };
                        let Some(other) = state.scramble(&[p.seat], false, &mut rng) else {
                            return true;
                        };
                        let a = state.decide(p.seat, &line).expect("a legal sheet edit");
                        let b = other.decide(p.seat, &line).unwrap_or_else(|e| {
                            panic!("{kind} seed {seed}: `{line}` is refused with other hidden state: {e}")
                        });
                        let mut after = state.clone();
                        for e in &a {
                            after.apply(e).expect("apply");
                        }
                        let mut after_b = other.clone();
                        for e in &b {
                            after_b.apply(e).expect("apply");
                        }
                        // An edit that completed the section (the last ready)
                        // carries it out, rightly told from the hidden state: a
                        // new phase, or the war's end. (Who else owes a sheet may
                        // be hidden too, so the other world may complete it.)
                        let open = |s: &AnyState| s.phase() == state.phase() && s.outcome().is_none();
                        if open(&after) && open(&after_b) {
                            for viewer in [Viewer::Public, Viewer::Seat(p.seat)] {
                                let tell = |events: &[AnyEvent]| -> Vec<Option<String>> {
                                    events.iter().map(|e| e.narrate(viewer, &names)).collect()
                                };
                                assert_eq!(
                                tell(&a),
                                tell(&b),
                                "{kind} seed {seed}: `{line}` reads differently to {viewer:?} with other hidden state"
                            );
                            }
                            checked.3 += 1;
                        }
                        return true;
                    }
                    // Narration: the owing seat's order, in both worlds, where
                    // only what is drawn into a hand differs (a tile or a die
                    // drawn from the changed bag or generator is public).
                    let Some(p) = state.pending().into_iter().find(|p| !p.secret && !p.submitted) else {
                        return true;
                    };
                    let Some(line) = rng.pick(&state.legal_commands(p.seat)).cloned() else {
                        return true;
                    };
                    let Some(other) = state.scramble(&[p.seat], true, &mut rng) else {
                        return true;
                    };
                    let (Ok(a), Ok(b)) = (state.decide(p.seat, &line), other.decide(p.seat, &line)) else {
                        // An order on a hand that changed (Espionage's pick).
                        return true;
                    };
                    let tell = |events: &[AnyEvent]| -> Vec<Option<String>> {
                        events.iter().map(|e| e.narrate(Viewer::Public, &names)).collect()
                    };
                    assert_eq!(
                        tell(&a),
                        tell(&b),
                        "{kind} seed {seed}: `{line}` reads differently in the channel with other hidden state"
                    );
                    checked.2 += 1;
                    true
                },
                |_, _| None,
            );
        }
        eprintln!(
            "{kind}: {} views and legal orders, {} public boards, {} orders' and {} sheet edits' narration, {} refusals, autocompletes and controls compared under changed hidden state ({:.1} s)",
            checked.0,
            checked.1,
            checked.2,
            checked.3,
            checked.4,
            started.elapsed().as_secs_f64()
        );
        // (A game whose scramble returns `None` has nothing compared.)
        assert!(
            checked.0 == 0 || checked.4 > 1000,
            "{kind}: only {} provoked texts compared",
            checked.4
        );
        if kind == GameKind::Solar && games >= 100 {
            assert!(checked.0 > 1000 && checked.1 > 10 && checked.2 > 100, "{checked:?}");
        }
        if kind == GameKind::Empires && games >= 200 {
            assert!(
                checked.0 > 60_000 && checked.1 > 1000 && checked.2 > 10_000 && checked.3 > 400,
                "{checked:?}"
            );
        }
        if kind == GameKind::Spectrum && games >= 100 {
            assert!(checked.0 > 5000 && checked.1 > 50 && checked.3 > 500, "{checked:?}");
        }
    }
}

/// Everything `seat` can provoke reads the same in `state` and in `other`
/// (the same position with what `seat` cannot know scrambled): its
/// controls (labels, groups, questions), every autocomplete answer beyond
/// the legal orders, and the answer to orders it might type, legal or not,
/// including those naming others' hidden units, cards and tiles (every
/// seat's legal orders now, tried as `seat`). Returns the texts compared.
fn provoked_texts_agree(
    kind: GameKind,
    seed: u64,
    state: &AnyState,
    other: &AnyState,
    seat: Seat,
    names: &[String],
    rng: &mut GameRng,
) -> usize {
    let players = names.len();
    let mut compared = 0;
    assert_eq!(
        state.legal_controls(seat, names),
        other.legal_controls(seat, names),
        "{kind} seed {seed}: {seat}'s controls depend on hidden state"
    );
    compared += 1;
    for spec in kind.commands() {
        for p in &spec.params {
            assert_eq!(
                state.complete_more(seat, spec.name, p.name, &[], ""),
                other.complete_more(seat, spec.name, p.name, &[], ""),
                "{kind} seed {seed}: autocomplete of `{} {}:` for {seat} depends on hidden state",
                spec.name,
                p.name
            );
            compared += 1;
        }
    }
    let mut lines: Vec<orrery::engine::CommandLine> = Vec::new();
    for q in Seat::all(players) {
        lines.extend(state.legal_commands(q));
    }
    lines.sort_by_key(|l| l.to_string());
    lines.dedup();
    // At most 24 of them, at random.
    while lines.len() > 24 {
        let i = rng.below(lines.len() as u32) as usize;
        lines.swap_remove(i);
    }
    for line in &lines {
        let answer = |s: &AnyState| s.decide(seat, line).map(|_| ()).map_err(|e| e.to_string());
        assert_eq!(
            answer(state),
            answer(other),
            "{kind} seed {seed}: `{line}` by {seat} is answered differently with other hidden state"
        );
        compared += 1;
    }
    compared
}

/// Spectrum War asks a combat sheet only of players with a shot to aim
/// (never a blank sheet to mark ready), and who they are is never shown:
/// every combat pending is `undisclosed`.
#[test]
fn spectrum_asks_combat_sheets_only_of_players_in_a_fight() {
    let games = games_or(60);
    let counts = player_counts(GameKind::Spectrum);
    let (mut rounds, mut asked, mut in_war) = (0usize, 0usize, 0usize);
    for seed in 0..games {
        let players = counts[(seed as usize) % counts.len()];
        let mut last = None;
        play(GameKind::Spectrum, players, 9000 + seed, |state| {
            let pending = state.pending();
            if !pending.iter().any(|p| p.kind == "combat") {
                return true;
            }
            if last != Some(state.phase()) {
                last = Some(state.phase());
                rounds += 1;
                let view = state.view_json(Viewer::Public);
                let players = view["players"].as_array().expect("players");
                in_war += players.iter().filter(|x| x["out"] == false).count();
                for p in &pending {
                    assert!(p.undisclosed, "seed {seed}: a combat sheet names its owner");
                    let fire = state
                        .legal_commands(p.seat)
                        .iter()
                        .any(|c| c.to_string().starts_with("fire "));
                    assert!(
                        fire,
                        "seed {seed}: {} is asked a combat sheet with no shot to aim",
                        p.seat
                    );
                    asked += 1;
                }
            }
            true
        });
    }
    eprintln!(
        "Spectrum: {rounds} combat rounds, {asked} combat sheets asked, each of a player in a fight ({in_war} players were in the war then, all asked before)"
    );
    if games >= 60 {
        assert!(rounds > 20, "too few combat rounds to tell: {rounds}");
    }
}
