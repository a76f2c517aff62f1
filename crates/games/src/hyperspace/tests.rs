//! Unit tests for Hyperspace.

use super::basics::cards::resolve;
use super::basics::{home_stars, Card, Sector, Star, WinReason, LAST_SQUARE};
use super::events::Event;
use super::orders::Action;
use super::rules;
use super::state::{BattleStep, Stage, State, Token};
use super::Hyperspace;
use orrery_engine::{CommandLine, GameConfig, GameRng, Outcome, Rejection, Ruleset, Seat, Viewer};

fn config(players: u8) -> GameConfig {
    GameConfig::new(players, 1)
}

fn new_game(players: u8) -> State {
    let events = Hyperspace::setup(&config(players)).expect("setup");
    Hyperspace::fold(&events)
}

fn star(name: &str) -> Star {
    Star::by_name(name).expect("star")
}

/// Parse and decide `text` for `seat` (1-based), apply the events.
fn play(state: &mut State, seat: u8, text: &str) -> Result<Vec<Event>, String> {
    let line = CommandLine::parse(text).map_err(|e| e.to_string())?;
    let action = Hyperspace::parse(&line).map_err(|e| e.to_string())?;
    let events = Hyperspace::decide(state, Seat(seat - 1), &action).map_err(|e| e.to_string())?;
    for e in &events {
        Hyperspace::apply(state, e);
    }
    Ok(events)
}

fn ok(state: &mut State, seat: u8, text: &str) -> Vec<Event> {
    match play(state, seat, text) {
        Ok(ev) => ev,
        Err(e) => panic!("`{text}` by seat {seat} failed: {e}"),
    }
}

fn given(state: &mut State, event: Event) {
    Hyperspace::apply(state, &event);
}

fn place(state: &mut State, seat: u8, name: &str, ships: u32) {
    given(
        state,
        Event::ShipsPlaced {
            seat: Seat(seat - 1),
            star: star(name),
            ships,
        },
    );
}

fn clear(state: &mut State, seat: u8, name: &str) {
    let s = star(name);
    if let Some(v) = state.ships.get_mut(&s) {
        v[(seat - 1) as usize] = 0;
    }
}

fn kinds(state: &State) -> Vec<(u8, String)> {
    Hyperspace::pending(state)
        .into_iter()
        .map(|p| (p.seat.0 + 1, p.kind))
        .collect()
}

// ---------------------------------------------------------------- board

/// Enumerate every path allowed by the counting rule (adjacent steps, no
/// diagonals, at most one horizontal and one vertical turn, no
/// backtracking) and check that every one has length = Manhattan distance.
#[test]
fn counting_rule_equals_manhattan_distance() {
    type Dir = (i8, i8, i8);
    const DIRS: [Dir; 6] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)];
    fn coords(s: Sector) -> (i8, i8, i8) {
        (s.col() as i8, s.row() as i8, s.layer() as i8)
    }
    fn walk(
        at: (i8, i8, i8),
        goal: (i8, i8, i8),
        last: Option<Dir>,
        (h_turns, v_turns): (u8, u8),
        used: &mut Vec<Dir>,
        len: u8,
        out: &mut Vec<u8>,
    ) {
        if at == goal {
            out.push(len);
            // A path may not continue through its destination: the count
            // stops at (and includes) it.
            return;
        }
        for d in DIRS {
            // No backtracking: never move against an earlier move on the same axis.
            if used
                .iter()
                .any(|u| (u.0 != 0 && u.0 == -d.0) || (u.1 != 0 && u.1 == -d.1) || (u.2 != 0 && u.2 == -d.2))
            {
                continue;
            }
            let (mut h, mut v) = (h_turns, v_turns);
            if let Some(l) = last {
                if l != d {
                    if l.2 != 0 || d.2 != 0 {
                        v += 1;
                    } else {
                        h += 1;
                    }
                }
            }
            if h > 1 || v > 1 {
                continue;
            }
            let next = (at.0 + d.0, at.1 + d.1, at.2 + d.2);
            if !(0..4).contains(&next.0) || !(0..3).contains(&next.1) || !(0..2).contains(&next.2) {
                continue;
            }
            used.push(d);
            walk(next, goal, Some(d), (h, v), used, len + 1, out);
            used.pop();
        }
    }
    for a in Sector::all() {
        for b in Sector::all() {
            let mut lengths = Vec::new();
            walk(coords(a), coords(b), None, (0, 0), &mut Vec::new(), 0, &mut lengths);
            assert!(!lengths.is_empty(), "no legal path from {a} to {b}");
            assert!(
                lengths.iter().all(|l| *l == a.distance(b)),
                "{a}->{b}: {lengths:?} vs {}",
                a.distance(b)
            );
            assert!(a.distance(b) <= LAST_SQUARE);
        }
    }
    let s = |t: &str| Sector::parse(t).unwrap();
    assert_eq!(s("A-yellow").distance(s("A-red")), 1);
    assert_eq!(s("A-yellow").distance(s("L-red")), 6);
    assert_eq!(s("F-yellow").distance(s("C-red")), 3);
}

#[test]
fn board_names_are_unique_and_round_trip() {
    let mut names: Vec<String> = Star::all().map(|s| s.name().to_ascii_lowercase()).collect();
    assert_eq!(names.len(), 48);
    assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_alphabetic())));
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 48);
    for s in Star::all() {
        assert_eq!(Star::by_name(&s.name().to_uppercase()), Some(s));
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Star>(&json).unwrap(), s);
    }
    for sec in Sector::all() {
        assert_eq!(Sector::parse(&sec.name()), Some(sec));
        assert_eq!(sec.stars()[0].sector(), sec);
    }
    assert_eq!(star("Algol").sector().name(), "A-yellow");
    assert_eq!(star("Pavo").sector().name(), "J-red");
    assert_eq!(star("Regulus").sector().name(), "C-yellow");
    assert_eq!(star("Antares").sector().name(), "L-red");
    assert_eq!(star("Mira").sector().name(), "D-red");
}

/// Resources reachable from each home star within 1, 2 and 3 sectors (home
/// stars in play excluded), counted separately for + and O.
fn access(players: u8) -> Vec<[[u32; 2]; 4]> {
    let homes = home_stars(players);
    homes
        .iter()
        .map(|h| {
            let mut out = [[0u32; 2]; 4];
            for (d, slot) in out.iter_mut().enumerate() {
                for s in Star::all() {
                    if !homes.contains(&s) && h.sector().distance(s.sector()) as usize <= d {
                        slot[0] += s.resources().plus as u32;
                        slot[1] += s.resources().pop as u32;
                    }
                }
            }
            out
        })
        .collect()
}

/// Fairness: for every player count, within 0 (the home sector), 1, 2 and 3
/// sectors, every home star reaches the same number of + and of O, give
/// or take 1 (the stated tolerance).
#[test]
fn home_stars_have_fair_access_to_resources() {
    for players in 2..=4 {
        let a = access(players);
        eprintln!("{players} players: {a:?}");
        for d in 0..4 {
            for k in 0..2 {
                let vals: Vec<u32> = a.iter().map(|x| x[d][k]).collect();
                let spread = vals.iter().max().unwrap() - vals.iter().min().unwrap();
                assert!(
                    spread <= 1,
                    "{players} players, within {d}, {}: {vals:?}",
                    ["+", "O"][k]
                );
            }
            // Complete pairs reachable, too.
            let pairs: Vec<u32> = a.iter().map(|x| x[d][0].min(x[d][1])).collect();
            assert!(
                pairs.iter().max().unwrap() - pairs.iter().min().unwrap() <= 1,
                "{players}p pairs within {d}: {pairs:?}"
            );
        }
    }
    // Every home-capable star is a complete pair on its own.
    for name in ["Algol", "Pavo", "Regulus", "Antares", "Mira"] {
        let r = star(name).resources();
        assert_eq!((r.plus, r.pop), (1, 1), "{name}");
    }
    let plus: u32 = Star::all().map(|s| s.resources().plus as u32).sum();
    let pop: u32 = Star::all().map(|s| s.resources().pop as u32).sum();
    assert_eq!(plus, pop, "as many + as O on the board");
}

// ---------------------------------------------------------------- set-up

#[test]
fn setup_places_fifteen_ships_at_each_home() {
    for (players, homes) in [
        (2, vec!["Algol", "Antares"]),
        (3, vec!["Regulus", "Antares", "Mira"]),
        (4, vec!["Algol", "Pavo", "Regulus", "Antares"]),
    ] {
        let s = new_game(players);
        assert_eq!(s.seats.len(), players as usize);
        for (i, h) in homes.iter().enumerate() {
            assert_eq!(s.seats[i].home, star(h));
            assert_eq!(s.ships_at(star(h), Seat(i as u8)), 15);
            assert_eq!(s.total_ships(Seat(i as u8)), 15);
            assert_eq!(s.seats[i].hand.len(), 7);
        }
        assert_eq!(kinds(&s), vec![(1, "turn".to_string())]);
        assert_eq!(s.round, 1);
    }
}

#[test]
fn options_are_checked() {
    let mut c = config(2);
    c.options = serde_json::json!({"rounds": 10});
    let s = Hyperspace::fold(&Hyperspace::setup(&c).unwrap());
    assert_eq!(s.options.rounds, 10);
    c.options = serde_json::json!({"roundz": 10});
    assert!(Hyperspace::setup(&c).unwrap_err().0.contains("roundz"));
    c.options = serde_json::json!({"rounds": 0});
    assert!(Hyperspace::setup(&c).is_err());
    c.options = serde_json::Value::Null;
    assert_eq!(Hyperspace::fold(&Hyperspace::setup(&c).unwrap()).options.rounds, 25);
    assert!(Hyperspace::setup(&config(5)).is_err());
}

// ---------------------------------------------------------------- movement

#[test]
fn departure_puts_a_token_on_the_entry_square_and_it_advances_each_own_turn() {
    let mut s = new_game(2);
    let ev = ok(&mut s, 1, "depart from:Algol ships:5");
    assert!(matches!(ev[0], Event::FleetDeparted { token: 1, ships: 5, .. }));
    assert_eq!(s.ships_at(star("Algol"), Seat(0)), 10);
    assert_eq!(
        s.seats[0].tokens[0],
        Token::Flight {
            square: 0,
            ships: 5,
            from: Sector::parse("A-yellow").unwrap()
        }
    );
    ok(&mut s, 1, "end");
    // Seat 2's turn does not move seat 1's tokens.
    assert!(matches!(s.seats[0].tokens[0], Token::Flight { square: 0, .. }));
    let ev = ok(&mut s, 2, "end");
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::WarpTokensAdvanced { seat: Seat(0), .. })));
    assert!(matches!(s.seats[0].tokens[0], Token::Flight { square: 1, .. }));
}

#[test]
fn token_moved_past_the_last_square_is_lost_with_its_ships() {
    let mut s = new_game(2);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(1),
            token: 2,
            square: LAST_SQUARE,
            ships: 4,
            from: Sector::parse("B-red").unwrap(),
        },
    );
    assert_eq!(s.total_ships(Seat(1)), 19);
    let ev = ok(&mut s, 1, "end");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::WarpTokenLost {
                seat: Seat(1),
                token: 2,
                ships: 4,
                ..
            }
        )),
        "{ev:?}"
    );
    // Destroyed: the token never returns to its owner's supply.
    assert_eq!(s.seats[1].tokens[1], Token::Lost);
    assert_eq!(s.seats[1].lost_tokens(), 1);
    assert_eq!(s.total_ships(Seat(1)), 15);
    // At square 6 it could still have arrived; now it is gone.
    let mut s2 = new_game(2);
    given(
        &mut s2,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 1,
            square: LAST_SQUARE - 1,
            ships: 4,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    ok(&mut s2, 1, "end");
    let ev = ok(&mut s2, 2, "end");
    assert!(!ev.iter().any(|e| matches!(e, Event::WarpTokenLost { .. })));
    assert!(Hyperspace::legal_actions(&s2, Seat(0)).contains(&Action::Arrive {
        token: 1,
        at: star("Antares")
    }));
    ok(&mut s2, 1, "end");
    let ev = ok(&mut s2, 2, "end");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::WarpTokenLost {
            seat: Seat(0),
            token: 1,
            ships: 4,
            ..
        }
    )));
    // 15 at home, +1 produced in round 2, the 4 on the token gone.
    assert_eq!(s2.total_ships(Seat(0)), 16);
}

#[test]
fn arrival_needs_the_exact_count() {
    let mut s = new_game(2);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 1,
            square: 2,
            ships: 3,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    // B-yellow is 1 away: wrong.
    let e = play(&mut s, 1, "arrive token:1 at:Vega").unwrap_err();
    assert!(e.contains("is on square 2"), "{e}");
    assert!(e.contains("arrive token:1 at:"), "lists legal arrivals: {e}");
    // C-yellow (2 across), F-yellow (1 across, 1 down), B-red (1 across, 1 down a layer)...
    for target in ["Regulus", "Betelgeuse", "Saiph", "Achernar"] {
        let mut t = s.clone();
        ok(&mut t, 1, &format!("arrive token:1 at:{target}"));
        assert_eq!(t.ships_at(star(target), Seat(0)), 3);
        assert_eq!(t.seats[0].tokens[0], Token::Ready);
    }
    assert!(play(&mut s, 1, "arrive token:2 at:Regulus")
        .unwrap_err()
        .contains("not on the hyperspace track"));
    assert!(play(&mut s, 1, "arrive token:9 at:Regulus")
        .unwrap_err()
        .contains("numbered 1 to 5"));
}

#[test]
fn departures_come_before_arrivals() {
    let mut s = new_game(2);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 5,
            square: 1,
            ships: 3,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    ok(&mut s, 1, "depart from:Algol ships:2");
    ok(&mut s, 1, "arrive token:5 at:Vega");
    let e = play(&mut s, 1, "depart from:Algol ships:1").unwrap_err();
    assert!(e.contains("departures are over"), "{e}");
    assert!(!Hyperspace::legal_actions(&s, Seat(0))
        .iter()
        .any(|a| matches!(a, Action::Depart { .. })));
}

#[test]
fn same_sector_journey_is_immediate_and_uses_a_token_for_the_turn() {
    let mut s = new_game(2);
    let ev = ok(&mut s, 1, "depart from:Algol ships:4 to:Sirius");
    assert!(matches!(ev[0], Event::FleetJumped { token: 1, ships: 4, .. }));
    assert_eq!(s.ships_at(star("Sirius"), Seat(0)), 4);
    assert_eq!(s.seats[0].tokens[0], Token::Spent);
    let e = play(&mut s, 1, "depart from:Algol ships:1 to:Vega").unwrap_err();
    assert!(e.contains("not in A-yellow"), "{e}");
    for _ in 0..4 {
        ok(&mut s, 1, "depart from:Algol ships:1 to:Sirius");
    }
    let e = play(&mut s, 1, "depart from:Algol ships:1").unwrap_err();
    assert!(e.contains("warp tokens are in use"), "{e}");
    ok(&mut s, 1, "end");
    assert!(s.seats[0].tokens.iter().all(|t| *t == Token::Ready));
}

#[test]
fn departing_checks_ships() {
    let mut s = new_game(2);
    let e = play(&mut s, 1, "depart from:Antares ships:1").unwrap_err();
    assert!(e.contains("you have 0 ships at Antares"), "{e}");
    assert!(e.contains("depart from:Algol ships:15"), "{e}");
    assert!(play(&mut s, 1, "depart from:Algol ships:16").is_err());
    assert!(play(&mut s, 1, "depart from:Algol ships:0").is_err());
    assert!(play(&mut s, 1, "depart from:Nowhere ships:1")
        .unwrap_err()
        .contains("unknown star"));
    let e = play(&mut s, 2, "end").unwrap_err();
    assert!(e.contains("nothing is asked of seat 2"), "{e}");
}

// ---------------------------------------------------------------- production

#[test]
fn production_on_every_second_turn_counts_complete_pairs() {
    let mut s = new_game(2);
    let ev = ok(&mut s, 1, "end");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::ShipsProduced { .. })),
        "round 1: no production"
    );
    // Seat 1 holds extra stars before round 2: Sirius (O), Capella (+), Vega (nothing).
    place(&mut s, 1, "Sirius", 1);
    place(&mut s, 1, "Capella", 1);
    place(&mut s, 1, "Vega", 1);
    let pairs = s.pairs(Seat(0));
    let r = |n: &str| star(n).resources();
    let plus = 1 + (r("Sirius").plus + r("Capella").plus + r("Vega").plus) as u32;
    let pop = 1 + (r("Sirius").pop + r("Capella").pop + r("Vega").pop) as u32;
    assert_eq!(pairs, plus.min(pop));
    let ev = ok(&mut s, 2, "end");
    assert!(ev.iter().any(|e| *e
        == Event::ShipsProduced {
            seat: Seat(0),
            star: star("Algol"),
            ships: pairs
        }));
    assert_eq!(s.ships_at(star("Algol"), Seat(0)), 15 + pairs);
    // Round 3: none.
    let ev = ok(&mut s, 1, "end");
    let ev2 = ok(&mut s, 2, "end");
    assert!(!ev
        .iter()
        .chain(&ev2)
        .any(|e| matches!(e, Event::ShipsProduced { seat: Seat(0), .. })));
}

#[test]
fn home_star_counts_for_production_even_when_empty() {
    let mut s = new_game(2);
    clear(&mut s, 1, "Algol");
    place(&mut s, 1, "Vega", 3);
    assert!(s.possesses(Seat(0), star("Algol")));
    assert_eq!(s.pairs(Seat(0)), 1);
    ok(&mut s, 1, "end");
    ok(&mut s, 2, "end");
    assert_eq!(s.ships_at(star("Algol"), Seat(0)), 1);
}

// ---------------------------------------------------------------- cards

#[test]
fn combat_math() {
    let r = resolve(5, Card::Captain, 7, Card::Ensign);
    assert_eq!((r.attacker_total, r.defender_total, r.attacker_wins), (9, 8, true));
    // A tie: the defender holds.
    let r = resolve(5, Card::Lieutenant, 6, Card::Ensign);
    assert_eq!((r.attacker_wins, r.reason), (false, WinReason::DefenderHolds));
    // ...unless the attacker played the Tactician.
    let r = resolve(4, Card::Tactician, 6, Card::Ensign);
    assert_eq!((r.attacker_wins, r.reason), (true, WinReason::Tactician));
    let r = resolve(4, Card::Tactician, 4, Card::Tactician);
    assert_eq!((r.attacker_wins, r.reason), (false, WinReason::DefenderHolds));
    // The Spy ambushes the Admiral: strength 7.
    let r = resolve(5, Card::Spy, 5, Card::Admiral);
    assert_eq!((r.attacker_total, r.defender_total, r.attacker_wins), (12, 11, true));
    let r = resolve(5, Card::Spy, 5, Card::Commodore);
    assert_eq!((r.attacker_total, r.attacker_wins), (5, false));
}

#[test]
fn recycling_after_the_last_card() {
    assert_eq!(
        super::basics::cards::redraw(&[Card::Spy, Card::Admiral, Card::Ensign]),
        vec![Card::Spy, Card::Admiral]
    );
    assert!(super::basics::cards::redraw(&[]).is_empty());
    // In play: a one-card hand with six played.
    let mut s = battle_at_vega();
    let played = vec![
        Card::Admiral,
        Card::Ensign,
        Card::Lieutenant,
        Card::Tactician,
        Card::Captain,
        Card::Commodore,
    ];
    given(
        &mut s,
        Event::HandArranged {
            seat: Seat(0),
            hand: vec![Card::Spy],
            played,
        },
    );
    ok(&mut s, 1, "card name:Spy");
    let ev = ok(&mut s, 2, "card name:Ensign");
    let recycled = ev.iter().find_map(|e| match e {
        Event::HandRecycled { seat: Seat(0), cards } => Some(cards.clone()),
        _ => None,
    });
    assert_eq!(
        recycled,
        Some(vec![
            Card::Admiral,
            Card::Ensign,
            Card::Lieutenant,
            Card::Tactician,
            Card::Captain,
            Card::Commodore
        ])
    );
    assert_eq!(s.seats[0].hand.len(), 6);
    assert!(!s.seats[0].hand.contains(&Card::Spy));
    assert_eq!(s.seats[0].played, vec![Card::Spy]);
    // Seat 2 kept six cards, played one.
    assert_eq!(s.seats[1].hand.len(), 6);
    assert_eq!(s.seats[1].played, vec![Card::Ensign]);
}

// ---------------------------------------------------------------- battles

/// Seat 1 (8 ships) arrives at Vega where seat 2 has 6; battle begins.
fn battle_at_vega() -> State {
    let mut s = new_game(2);
    place(&mut s, 2, "Vega", 6);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 1,
            square: 1,
            ships: 8,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    ok(&mut s, 1, "arrive token:1 at:Vega");
    let ev = ok(&mut s, 1, "end");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::BattleBegan {
            attacker: Seat(0),
            defender: Seat(1),
            attacker_ships: 8,
            defender_ships: 6,
            ..
        }
    )));
    s
}

#[test]
fn battle_flow_cards_losses_retreats() {
    let mut s = battle_at_vega();
    assert_eq!(kinds(&s), vec![(1, "combat-card".into()), (2, "combat-card".into())]);
    let p = Hyperspace::pending(&s);
    assert!(p.iter().all(|p| p.secret && !p.submitted));
    ok(&mut s, 1, "card name:Ensign");
    // Change of mind is allowed until both are in.
    ok(&mut s, 1, "card name:Lieutenant");
    assert!(Hyperspace::pending(&s).iter().any(|p| p.seat == Seat(0) && p.submitted));
    let ev = ok(&mut s, 2, "card name:Captain");
    // 8 + 2 = 10 vs 6 + 4 = 10: tie, defender holds.
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CombatWon {
            victor: Seat(1),
            reason: WinReason::DefenderHolds,
            ..
        }
    )));
    assert_eq!(kinds(&s), vec![(2, "losses".into())]);
    assert!(play(&mut s, 2, "losses n:9").unwrap_err().contains("from 0 to 8"));
    let ev = ok(&mut s, 2, "losses n:4");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LossesTaken {
            loser_lost: 4,
            victor_lost: 3,
            ..
        }
    )));
    assert_eq!(s.ships_at(star("Vega"), Seat(0)), 4);
    assert_eq!(s.ships_at(star("Vega"), Seat(1)), 3);
    // The loser retreats first, then the victor.
    assert_eq!(kinds(&s), vec![(1, "retreat".into())]);
    ok(&mut s, 1, "retreat ships:1");
    assert!(matches!(
        s.seats[0].tokens[0],
        Token::Flight {
            square: 0,
            ships: 1,
            ..
        }
    ));
    assert_eq!(kinds(&s), vec![(2, "retreat".into())]);
    let ev = ok(&mut s, 2, "retreat ships:0");
    // Both still there: fight again.
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CombatRenewed {
            combat: 2,
            attacker_ships: 3,
            defender_ships: 3,
            ..
        }
    )));
    assert_eq!(kinds(&s), vec![(1, "combat-card".into()), (2, "combat-card".into())]);
    ok(&mut s, 1, "card name:Admiral");
    ok(&mut s, 2, "card name:Ensign");
    // 3+6 vs 3+1: seat 1 wins, must choose 1..=3.
    let ev = ok(&mut s, 1, "losses n:3");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LossesTaken {
            loser_lost: 3,
            victor_lost: 2,
            ..
        }
    )));
    // Loser has nothing left; victor may retreat.
    assert_eq!(kinds(&s), vec![(1, "retreat".into())]);
    let ev = ok(&mut s, 1, "retreat ships:0");
    assert!(ev.iter().any(|e| *e
        == Event::BattleEnded {
            star: star("Vega"),
            holder: Some(Seat(0))
        }));
    assert!(ev.iter().any(|e| matches!(e, Event::TurnEnded { seat: Seat(0) })));
    assert_eq!(kinds(&s), vec![(2, "turn".into())]);
}

#[test]
fn victor_losses_are_capped_at_its_fleet() {
    let mut s = new_game(2);
    place(&mut s, 2, "Vega", 9);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 1,
            square: 1,
            ships: 5,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    ok(&mut s, 1, "arrive token:1 at:Vega");
    ok(&mut s, 1, "end");
    ok(&mut s, 1, "card name:Admiral");
    ok(&mut s, 2, "card name:Ensign");
    // 5+6=11 > 9+1=10.
    let ev = ok(&mut s, 1, "losses n:9");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LossesTaken {
            chosen: 9,
            loser_lost: 9,
            victor_lost: 5,
            ..
        }
    )));
    assert!(ev.iter().any(|e| *e
        == Event::BattleEnded {
            star: star("Vega"),
            holder: None
        }));
}

#[test]
fn single_ship_losses_are_chosen_and_retreat_needs_a_token() {
    let mut s = new_game(2);
    place(&mut s, 2, "Vega", 1);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 1,
            square: 1,
            ships: 5,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    ok(&mut s, 1, "arrive token:1 at:Vega");
    ok(&mut s, 1, "end");
    ok(&mut s, 1, "card name:Ensign");
    ok(&mut s, 2, "card name:Ensign");
    // Against a lone ship the victor still chooses: 0 spares it, 1 destroys it.
    assert_eq!(kinds(&s), vec![(1, "losses".into())]);
    let legal: Vec<Action> = Hyperspace::legal_actions(&s, Seat(0));
    assert_eq!(legal, vec![Action::Losses { n: 0 }, Action::Losses { n: 1 }]);
    let ev = ok(&mut s, 1, "losses n:1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LossesTaken {
            chosen: 1,
            victor_lost: 0,
            ..
        }
    )));
    assert_eq!(kinds(&s), vec![(1, "retreat".into())]);
    // Without free tokens, no retreat is offered.
    let mut t = battle_at_vega();
    for k in 2..=5 {
        given(
            &mut t,
            Event::TokenPlaced {
                seat: Seat(1),
                token: k,
                square: 1,
                ships: 1,
                from: Sector::parse("L-red").unwrap(),
            },
        );
    }
    given(
        &mut t,
        Event::TokenPlaced {
            seat: Seat(1),
            token: 1,
            square: 1,
            ships: 1,
            from: Sector::parse("L-red").unwrap(),
        },
    );
    ok(&mut t, 1, "card name:Admiral");
    ok(&mut t, 2, "card name:Ensign");
    ok(&mut t, 1, "losses n:2");
    // Loser (seat 2) has no token: straight to the victor's retreat.
    assert_eq!(kinds(&t), vec![(1, "retreat".into())]);
}

#[test]
fn battles_in_order_and_against_each_enemy_in_turn() {
    let mut s = new_game(3);
    // Seat 1 arrives at a star held by seats 2 and 3 (constructed position).
    place(&mut s, 2, "Vega", 1);
    place(&mut s, 3, "Vega", 1);
    place(&mut s, 1, "Vega", 6);
    place(&mut s, 3, "Sirius", 2);
    place(&mut s, 1, "Sirius", 2);
    let ev = ok(&mut s, 1, "end");
    // Sirius (A-yellow) comes before Vega (B-yellow).
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::BattleBegan { defender: Seat(2), .. })));
    assert_eq!(s.battle().unwrap().star, star("Sirius"));
    ok(&mut s, 1, "card name:Admiral");
    ok(&mut s, 3, "card name:Ensign");
    ok(&mut s, 1, "losses n:2");
    ok(&mut s, 1, "retreat ships:0");
    let b = s.battle().unwrap();
    assert_eq!((b.star, b.defender), (star("Vega"), Seat(1)));
    ok(&mut s, 1, "card name:Captain");
    ok(&mut s, 2, "card name:Spy");
    ok(&mut s, 1, "losses n:1");
    ok(&mut s, 1, "retreat ships:0");
    let b = s.battle().unwrap();
    assert_eq!((b.star, b.defender), (star("Vega"), Seat(2)));
}

// ---------------------------------------------------------------- home stars & winning

#[test]
fn home_star_capture_and_recovery() {
    let mut s = new_game(2);
    clear(&mut s, 2, "Antares");
    place(&mut s, 2, "Scheat", 15);
    place(&mut s, 1, "Antares", 2);
    // End of seat 1's turn: Antares captured.
    let ev = ok(&mut s, 1, "end");
    assert!(ev.iter().any(|e| *e
        == Event::HomeStarCaptured {
            owner: Seat(1),
            star: star("Antares"),
            by: Seat(0)
        }));
    assert_eq!(s.seats[1].captured_by, Some(Seat(0)));
    assert!(!s.possesses(Seat(1), star("Antares")));
    // Seat 2 recovers by jumping in and winning.
    ok(&mut s, 2, "depart from:Scheat ships:10 to:Antares");
    ok(&mut s, 2, "end");
    ok(&mut s, 2, "card name:Ensign");
    ok(&mut s, 1, "card name:Ensign");
    let ev = ok(&mut s, 2, "losses n:2");
    let ev2 = ok(&mut s, 2, "retreat ships:0");
    assert!(ev.iter().chain(&ev2).any(|e| *e
        == Event::HomeStarRecovered {
            owner: Seat(1),
            star: star("Antares")
        }));
    assert_eq!(s.seats[1].captured_by, None);
}

#[test]
fn no_production_while_the_home_star_is_lost() {
    let mut s = new_game(2);
    clear(&mut s, 2, "Antares");
    place(&mut s, 2, "Scheat", 5);
    place(&mut s, 1, "Antares", 2);
    ok(&mut s, 1, "end");
    assert!(s.seats[1].captured_by.is_some());
    // The captor moves on (so conquest does not end the game); Antares stays lost.
    clear(&mut s, 1, "Antares");
    ok(&mut s, 2, "end");
    // Round 2: seat 1 produces, seat 2 does not.
    let ev = ok(&mut s, 1, "end");
    assert!(!ev
        .iter()
        .any(|e| matches!(e, Event::ShipsProduced { seat: Seat(1), .. })));
}

#[test]
fn conquest_wins_at_the_start_of_your_turn() {
    let mut s = new_game(2);
    clear(&mut s, 2, "Antares");
    place(&mut s, 2, "Scheat", 5);
    place(&mut s, 1, "Antares", 2);
    ok(&mut s, 1, "end");
    assert!(s.outcome.is_none());
    let ev = ok(&mut s, 2, "end");
    assert!(matches!(
        Hyperspace::outcome(&s),
        Some(Outcome::Winner { seat: Seat(0), .. })
    ));
    assert!(ev.iter().any(|e| matches!(e, Event::GameEnded { .. })));
    assert!(Hyperspace::pending(&s).is_empty());
    let e = Hyperspace::decide(&s, Seat(0), &Action::End).unwrap_err();
    assert_eq!(e, Rejection::GameOver);
}

#[test]
fn elimination_leaves_the_last_player_standing() {
    let mut s = new_game(3);
    // Seat 3 (Mira) has nothing left and its home is taken by seat 1.
    clear(&mut s, 3, "Mira");
    place(&mut s, 1, "Mira", 1);
    let ev = ok(&mut s, 1, "end");
    assert!(ev.contains(&Event::PlayerEliminated { seat: Seat(2) }));
    // (Seat 1 leaves Mira again, so that conquest does not end the game first.)
    clear(&mut s, 1, "Mira");
    assert!(s.outcome.is_none());
    // Turns skip seat 3.
    ok(&mut s, 2, "end");
    assert_eq!(s.active, Seat(0));
    assert_eq!(s.round, 2);
    // Seat 2 loses everything too.
    clear(&mut s, 2, "Antares");
    place(&mut s, 1, "Antares", 1);
    // Conquest would also apply at seat 1's next turn, but elimination is
    // checked at the end of this turn first.
    let ev = ok(&mut s, 1, "end");
    assert!(ev.contains(&Event::PlayerEliminated { seat: Seat(1) }));
    assert!(matches!(
        Hyperspace::outcome(&s),
        Some(Outcome::Winner { seat: Seat(0), ref reason }) if reason.contains("last player")
    ));
}

#[test]
fn round_limit_scores_and_ties_share() {
    let mut c = config(2);
    c.options = serde_json::json!({"rounds": 1});
    let mut s = Hyperspace::fold(&Hyperspace::setup(&c).unwrap());
    ok(&mut s, 1, "end");
    let ev = ok(&mut s, 2, "end");
    // Equal scores (3 each) and equal ships: shared.
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::GameEnded { scores, .. } if *scores == vec![3, 3])));
    assert!(matches!(Hyperspace::outcome(&s), Some(Outcome::Shared { ref seats, .. }) if seats.len() == 2));
    // One more star wins.
    let mut s = Hyperspace::fold(&Hyperspace::setup(&c).unwrap());
    ok(&mut s, 1, "depart from:Algol ships:1 to:Sirius");
    ok(&mut s, 1, "end");
    ok(&mut s, 2, "end");
    assert!(matches!(
        Hyperspace::outcome(&s),
        Some(Outcome::Winner { seat: Seat(0), .. })
    ));
    assert_eq!(s.final_scores, Some(vec![4, 3]));
}

// ---------------------------------------------------------------- views and text

#[test]
fn view_hides_the_pick_until_reveal() {
    let mut s = battle_at_vega();
    ok(&mut s, 1, "card name:Admiral");
    let public = serde_json::to_value(Hyperspace::view(&s, Viewer::Public)).unwrap();
    let other = serde_json::to_value(Hyperspace::view(&s, Viewer::Seat(Seat(1)))).unwrap();
    let mine = serde_json::to_value(Hyperspace::view(&s, Viewer::Seat(Seat(0)))).unwrap();
    assert_eq!(public["battle"]["my_pick"], serde_json::Value::Null);
    assert_eq!(other["battle"]["my_pick"], serde_json::Value::Null);
    assert_eq!(mine["battle"]["my_pick"], "Admiral");
    assert_eq!(public["battle"]["picked"][0]["picked"], true);
    assert_eq!(public["battle"]["picked"][1]["picked"], false);
    // The picked card stays in the public hand.
    assert_eq!(public["seats"][0]["hand"].as_array().unwrap().len(), 7);
    let mut other_as_public = other.clone();
    other_as_public["viewer"] = public["viewer"].clone();
    assert_eq!(public, other_as_public);
    // Narration.
    let names = vec!["Alice".to_string(), "Bob".to_string()];
    let e = Event::CombatCardPicked {
        seat: Seat(0),
        card: Card::Admiral,
    };
    let told_public = Hyperspace::narrate(&e, Viewer::Public, &names).unwrap();
    let told_bob = Hyperspace::narrate(&e, Viewer::Seat(Seat(1)), &names).unwrap();
    let told_alice = Hyperspace::narrate(&e, Viewer::Seat(Seat(0)), &names).unwrap();
    assert!(!told_public.contains("Admiral") && !told_bob.contains("Admiral"));
    assert!(told_alice.contains("Admiral"));
}

#[test]
fn narration_is_readable() {
    let names = vec!["Alice".to_string(), "Bob".to_string()];
    let e = Event::FleetDeparted {
        seat: Seat(0),
        token: 2,
        from: star("Algol"),
        ships: 5,
        sector: star("Algol").sector(),
    };
    assert_eq!(
        Hyperspace::narrate(&e, Viewer::Public, &names).unwrap(),
        "Alice's fleet of 5 ships departed Algol (A-yellow) on warp token 2."
    );
}

#[test]
fn phase_counts_turns() {
    let mut s = new_game(2);
    let p1 = Hyperspace::phase(&s);
    let names = ["alice".to_string(), "bob".to_string()];
    assert_eq!((p1.label.as_str(), p1.turn), ("Round 1", Some(Seat(0))));
    assert_eq!(p1.title(&names), "Round 1 · alice's turn");
    ok(&mut s, 1, "depart from:Algol ships:1");
    assert_eq!(Hyperspace::phase(&s).number, p1.number);
    ok(&mut s, 1, "end");
    let p2 = Hyperspace::phase(&s);
    assert_eq!(p2.number, p1.number + 1);
    assert_eq!((p2.label.as_str(), p2.turn), ("Round 1", Some(Seat(1))));
    assert_eq!(p2.title(&names), "Round 1 · bob's turn");
}

#[test]
fn defaults_for_missed_deadlines() {
    let mut s = battle_at_vega();
    assert_eq!(
        Hyperspace::default_action(&s, Seat(0)),
        Some(Action::Card { card: Card::Spy })
    );
    ok(&mut s, 1, "card name:Admiral");
    assert_eq!(Hyperspace::default_action(&s, Seat(0)), None);
    ok(&mut s, 2, "card name:Ensign");
    assert_eq!(Hyperspace::default_action(&s, Seat(0)), Some(Action::Losses { n: 6 }));
    ok(&mut s, 1, "losses n:6");
    assert_eq!(
        Hyperspace::default_action(&s, Seat(0)),
        Some(Action::Retreat { ships: 0 })
    );
    let s = new_game(2);
    assert_eq!(Hyperspace::default_action(&s, Seat(0)), Some(Action::End));
    assert_eq!(Hyperspace::default_action(&s, Seat(1)), None);
}

#[test]
fn parse_errors_are_shape_only() {
    let p = |t: &str| Hyperspace::parse(&CommandLine::parse(t).unwrap());
    assert!(p("fly from:Algol").unwrap_err().message.contains("unknown command"));
    assert!(p("depart ships:3").unwrap_err().message.contains("from"));
    assert!(p("depart from:Algol ships:x")
        .unwrap_err()
        .message
        .contains("not a whole number"));
    assert!(p("card name:Joker").unwrap_err().message.contains("unknown card"));
    assert!(p("end now:yes").is_err());
    assert_eq!(
        p("DEPART from:algol ships:3").unwrap(),
        Action::Depart {
            from: star("Algol"),
            ships: 3,
            to: None
        }
    );
    assert_eq!(p("card name:admiral").unwrap(), Action::Card { card: Card::Admiral });
}

// ---------------------------------------------------------------- random play

/// Pick a pending seat and one of its legal actions uniformly.
fn random_step(state: &State, rng: &mut GameRng) -> Option<(Seat, Action)> {
    let pending = Hyperspace::pending(state);
    let seat = rng.pick(&pending)?.seat;
    let legal = Hyperspace::legal_actions(state, seat);
    let action = rng.pick(&legal)?.clone();
    Some((seat, action))
}

/// Any action at all, legal or not.
fn random_candidate(rng: &mut GameRng) -> Action {
    let star = |rng: &mut GameRng| Star::from_index(rng.below(48) as usize).expect("star");
    match rng.below(6) {
        0 => Action::End,
        1 => {
            let from = star(rng);
            let to = match rng.below(3) {
                0 => None,
                1 => Some(from.sibling()),
                _ => Some(star(rng)),
            };
            Action::Depart {
                from,
                ships: rng.below(20),
                to,
            }
        }
        2 => Action::Arrive {
            token: 1 + rng.below(5) as u8,
            at: star(rng),
        },
        3 => Action::Card {
            card: Card::ALL[rng.below(7) as usize],
        },
        4 => Action::Losses { n: rng.below(12) },
        _ => Action::Retreat { ships: rng.below(12) },
    }
}

fn check_invariants(s: &State) {
    // Only the active player's moves bring rivals together, and its battle
    // step separates them again: two other players never share a star.
    for star in Star::all() {
        let others: Vec<Seat> = s.occupants(star).into_iter().filter(|x| *x != s.active).collect();
        assert!(others.len() <= 1 || s.outcome.is_some(), "{others:?} share {star}");
    }
    for m in &s.seats {
        assert!(!m.hand.is_empty(), "a hand is never empty");
        assert_eq!(m.hand.len() + m.played.len(), 7);
        assert_eq!(m.tokens.len(), 5);
    }
    if let Some(b) = s.battle() {
        if let BattleStep::Cards { .. } = b.step {
            assert!(s.ships_at(b.star, b.attacker) > 0 && s.ships_at(b.star, b.defender) > 0);
        }
    }
}

#[test]
fn random_games_end_and_round_trip() {
    let mut total_actions = 0usize;
    let mut max_actions = 0usize;
    for game in 0..200u64 {
        let players = 2 + (game % 3) as u8;
        let mut c = GameConfig::new(players, game);
        c.options = serde_json::json!({"rounds": 25});
        let events = Hyperspace::setup(&c).unwrap();
        let mut log = events.clone();
        let mut s = Hyperspace::fold(&events);
        let mut rng = GameRng::seeded(game);
        let mut actions = 0;
        while Hyperspace::outcome(&s).is_none() {
            let (seat, action) = random_step(&s, &mut rng).expect("someone can act");
            // decide accepts exactly the legal actions (random candidates).
            if actions % 4 == 0 {
                for _ in 0..6 {
                    let who = Seat(rng.below(players as u32) as u8);
                    let candidate = random_candidate(&mut rng);
                    let legal = Hyperspace::legal_actions(&s, who).contains(&candidate);
                    let accepted = Hyperspace::decide(&s, who, &candidate).is_ok();
                    assert_eq!(
                        legal, accepted,
                        "game {game}: {candidate:?} by {who}: legal {legal}, accepted {accepted}"
                    );
                }
            }
            // parse(unparse(a)) == a
            let line = Hyperspace::unparse(&action);
            let reparsed = CommandLine::parse(&line.to_string()).unwrap();
            assert_eq!(Hyperspace::parse(&reparsed).unwrap(), action, "{line}");
            let ev = Hyperspace::decide(&s, seat, &action).unwrap_or_else(|e| panic!("legal {line} rejected: {e}"));
            for e in &ev {
                Hyperspace::apply(&mut s, e);
            }
            if ev.iter().any(|e| matches!(e, Event::TurnBegan { .. })) && matches!(s.stage, Stage::Moving { .. }) {
                for star in Star::all() {
                    assert!(
                        s.occupants(star).len() <= 1,
                        "game {game}: rivals share {star} at the start of a turn"
                    );
                }
            }
            log.extend(ev);
            if std::panic::catch_unwind(|| check_invariants(&s)).is_err() {
                let tail: Vec<String> = log.iter().rev().take(40).rev().map(|e| format!("{e:?}")).collect();
                panic!("invariant broken in game {game}:\n{}", tail.join("\n"));
            }
            // Views never fail; public views never hold a pick.
            if actions % 16 == 0 {
                let v = Hyperspace::view(&s, Viewer::Public);
                assert!(v.battle.as_ref().is_none_or(|b| b.my_pick.is_none()));
            }
            actions += 1;
            assert!(actions < 20_000, "game {game} does not end");
        }
        // State is the fold of the log, and the log survives JSON.
        let json = serde_json::to_string(&log).unwrap();
        let back: Vec<Event> = serde_json::from_str(&json).unwrap();
        assert_eq!(Hyperspace::fold(&back), s);
        total_actions += actions;
        max_actions = max_actions.max(actions);
    }
    eprintln!(
        "random games: {} actions on average, {max_actions} at most",
        total_actions / 200
    );
    assert!(max_actions < 5_000, "longest random game took {max_actions} actions");
    assert!(total_actions > 0);
}

#[test]
fn illegal_actions_never_panic() {
    let mut rng = GameRng::seeded(99);
    let mut s = new_game(4);
    let junk = [
        "depart from:Pavo ships:99",
        "depart from:Algol ships:3 to:Algol",
        "arrive token:1 at:Algol",
        "card name:Spy",
        "losses n:3",
        "retreat ships:2",
        "end",
    ];
    for _ in 0..400 {
        for seat in 0..4u8 {
            for j in junk {
                let line = CommandLine::parse(j).unwrap();
                let action = Hyperspace::parse(&line).unwrap();
                let _ = Hyperspace::decide(&s, Seat(seat), &action);
            }
            let _ = Hyperspace::default_action(&s, Seat(seat));
        }
        let Some((seat, action)) = random_step(&s, &mut rng) else {
            break;
        };
        for e in Hyperspace::decide(&s, seat, &action).unwrap() {
            Hyperspace::apply(&mut s, &e);
        }
    }
}

#[test]
fn setup_is_pure_fold() {
    let a = Hyperspace::setup(&config(4)).unwrap();
    let b = Hyperspace::setup(&config(4)).unwrap();
    assert_eq!(a, b);
    assert!(matches!(a[0], Event::GameSetUp { players: 4, .. }));
    // Legal lists are complete for depart counts.
    let s = Hyperspace::fold(&a);
    let legal = rules::legal_actions(&s, Seat(0));
    assert_eq!(legal.len(), 15 * 2 + 1);
}

// ---------------------------------------------------------------- picture

/// Scenes of random mid-game positions: every text fits on the canvas and
/// is at least `scene::MIN_TEXT` px (9 px at Discord's 550 px preview);
/// every star's name is on the board; PNGs render. Set HYPERSPACE_PNG_DIR to keep them.
#[test]
fn scenes_render_and_fit() {
    use orrery_render::{render_png, text_box, Item};
    let names: Vec<String> = ["Alice", "Bob the Bold", "Carmen Sandiego-Longname", "Dmitri"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (game, players, steps) in [(1u64, 2u8, 40usize), (2, 3, 120), (3, 4, 200), (4, 4, 600)] {
        let mut s = Hyperspace::fold(&Hyperspace::setup(&GameConfig::new(players, game)).unwrap());
        let mut rng = GameRng::seeded(game);
        for _ in 0..steps {
            let Some((seat, action)) = random_step(&s, &mut rng) else {
                break;
            };
            for e in Hyperspace::decide(&s, seat, &action).unwrap() {
                Hyperspace::apply(&mut s, &e);
            }
        }
        for viewer in [Viewer::Public, Viewer::Seat(Seat(0))] {
            let scene = Hyperspace::scene(&Hyperspace::view(&s, viewer), &names[..players as usize]);
            assert_eq!((scene.width, scene.height), (1600, 1200));
            for item in &scene.items {
                if let Item::Text(t) = item {
                    assert!(t.size >= super::scene::MIN_TEXT, "tiny text {t:?}");
                    let (x, y, w, h) = text_box(t);
                    assert!(
                        x >= 0.0 && y >= 0.0 && x + w <= 1600.5 && y + h <= 1200.5,
                        "text off canvas: {t:?}"
                    );
                }
            }
            for star in super::basics::Star::all() {
                assert!(
                    scene
                        .items
                        .iter()
                        .any(|i| matches!(i, Item::Text(t) if t.text == star.name())),
                    "{} is not on the board",
                    star.name()
                );
            }
            let png = render_png(&scene).unwrap();
            let v = if viewer == Viewer::Public { "public" } else { "seat1" };
            crate::shared::testing::write_debug_png(
                "HYPERSPACE_PNG_DIR",
                &format!("hyperspace_{players}p_{steps}_{v}"),
                &png,
            );
        }
    }
}

// ---------------------------------------------------------------- controls and take-backs

fn control(state: &State, seat: u8, text: &str) -> orrery_engine::Control {
    let action = Hyperspace::parse(&CommandLine::parse(text).unwrap()).unwrap();
    assert!(
        Hyperspace::legal_actions(state, Seat(seat - 1)).contains(&action),
        "`{text}` is not legal for seat {seat}"
    );
    Hyperspace::control(state, Seat(seat - 1), &action, &[])
}

fn all_take_back(events: &[Event]) -> bool {
    events.iter().all(Hyperspace::takes_back)
}

#[test]
fn orders_are_offered_in_words() {
    use orrery_engine::ControlStyle;
    let mut s = new_game(2);
    let c = control(&s, 1, "depart from:Algol ships:5");
    assert_eq!(c.label, "Depart Algol · 5 ships");
    assert_eq!(c.style, ControlStyle::Main);
    // 15 ships: 30 departures, more than one menu: departures and jumps apart.
    assert_eq!(c.group, "Depart Algol");
    let c = control(&s, 1, "depart from:Algol ships:1 to:Sirius");
    assert_eq!(c.label, "Jump Algol to Sirius · 1 ship");
    assert_eq!(c.group, "Jump Algol to Sirius");
    let end = control(&s, 1, "end");
    assert_eq!((end.label.as_str(), end.style), ("End turn", ControlStyle::End));
    assert_eq!(end.confirm.as_deref(), Some("End your turn? Fleets can still depart."));

    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 1,
            square: 1,
            ships: 8,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    place(&mut s, 2, "Vega", 6);
    let c = control(&s, 1, "arrive token:1 at:Vega");
    assert_eq!(c.label, "Arrive at Vega · token 1 (8 ships)");
    assert_eq!(c.group, "Arrive");
    let end = control(&s, 1, "end");
    assert!(
        end.confirm
            .as_deref()
            .is_some_and(|q| q.contains("warp token 1 can still arrive")),
        "{end:?}"
    );
    ok(&mut s, 1, "arrive token:1 at:Vega");
    let end = control(&s, 1, "end");
    assert_eq!(end.label, "End movement · battle at Vega");
    // Departures are over and no token can arrive: nothing else to do.
    assert_eq!(end.confirm, None);
    ok(&mut s, 1, "end");

    assert_eq!(control(&s, 1, "card name:Admiral").label, "Admiral (6)");
    assert_eq!(control(&s, 2, "card name:Spy").label, "Spy (0) · 7 against the Admiral");
    assert_eq!(control(&s, 2, "card name:Tactician").label, "Tactician (3) · wins ties");
    assert_eq!(control(&s, 2, "card name:Spy").group, "Combat card");
    ok(&mut s, 1, "card name:Admiral");
    ok(&mut s, 2, "card name:Spy");
    // 8 + 6 against 6 + 7: the attacker (seat 1) won.
    assert_eq!(kinds(&s), vec![(1, "losses".to_string())]);
    let c = control(&s, 1, "losses n:3");
    assert_eq!(
        (c.label.as_str(), c.style),
        ("They lose 3 ships, you lose 2", ControlStyle::Main)
    );
    assert_eq!(control(&s, 1, "losses n:1").label, "They lose 1 ship, you lose none");
    let c = control(&s, 1, "losses n:0");
    assert_eq!(
        (c.label.as_str(), c.style),
        ("No losses: spare them", ControlStyle::Minor)
    );
    ok(&mut s, 1, "losses n:2");
    assert_eq!(kinds(&s), vec![(2, "retreat".to_string())]);
    assert_eq!(control(&s, 2, "retreat ships:4").label, "Retreat all 4 ships");
    assert_eq!(control(&s, 2, "retreat ships:1").label, "Retreat 1 ship");
    let c = control(&s, 2, "retreat ships:0");
    assert_eq!(
        (c.label.as_str(), c.style, c.group.as_str()),
        ("Stand firm", ControlStyle::Minor, "Retreat")
    );
}

#[test]
fn only_plain_moves_and_hidden_picks_take_back() {
    let mut s = new_game(2);
    // A departure and a jump: moves with nothing hidden or drawn.
    assert!(all_take_back(&ok(&mut s, 1, "depart from:Algol ships:3")));
    assert!(all_take_back(&ok(&mut s, 1, "depart from:Algol ships:1 to:Sirius")));
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(0),
            token: 3,
            square: 1,
            ships: 8,
            from: Sector::parse("A-yellow").unwrap(),
        },
    );
    place(&mut s, 2, "Vega", 6);
    // An arrival: a move.
    assert!(all_take_back(&ok(&mut s, 1, "arrive token:3 at:Vega")));
    // Ending movement starts a battle: no take-back.
    let ev = ok(&mut s, 1, "end");
    assert!(ev.iter().any(|e| matches!(e, Event::BattleBegan { .. })));
    assert!(!all_take_back(&ev));
    // The first secret pick stays secret: it may be taken back.
    assert!(all_take_back(&ok(&mut s, 1, "card name:Admiral")));
    // The second reveals both cards and resolves the combat.
    let ev = ok(&mut s, 2, "card name:Spy");
    assert!(ev.iter().any(|e| matches!(e, Event::CombatCardsRevealed { .. })));
    assert!(!all_take_back(&ev));
    // Losses are the battle's result.
    assert!(!all_take_back(&ok(&mut s, 1, "losses n:2")));
    // The loser stands firm and the victor may still retreat: nothing follows yet.
    assert!(all_take_back(&ok(&mut s, 2, "retreat ships:0")));
    // The victor's choice renews the combat (or ends the battle).
    assert!(!all_take_back(&ok(&mut s, 1, "retreat ships:0")));
    // A turn's end and the next turn's start never.
    for e in [
        Event::TurnEnded { seat: Seat(0) },
        Event::TurnBegan {
            seat: Seat(1),
            round: 1,
            turn: 2,
            production: false,
        },
        Event::MovementEnded { seat: Seat(0) },
    ] {
        assert!(!Hyperspace::takes_back(&e), "{e:?}");
    }
}

#[test]
fn rejections_and_prompts_name_no_seat() {
    let mut s = new_game(2);
    place(&mut s, 2, "Algol", 2);
    ok(&mut s, 1, "end");
    let err = play(&mut s, 1, "depart from:Algol ships:1").unwrap_err();
    assert!(err.contains("you owe a combat-card decision"), "{err}");
    assert!(!err.contains("seat"), "{err}");
    for p in Hyperspace::pending(&s) {
        assert!(!p.prompt.contains("seat"), "{}", p.prompt);
    }
}

// ---------------------------------------------------------------- resigning

fn resign(state: &mut State, seat: u8) -> Vec<Event> {
    let ev = Hyperspace::resign(state, Seat(seat - 1)).unwrap_or_else(|e| panic!("seat {seat} resigns: {e}"));
    for e in &ev {
        Hyperspace::apply(state, e);
    }
    ev
}

#[test]
fn a_resigned_player_is_out_with_its_ships_removed_and_its_home_ordinary() {
    let mut s = new_game(3);
    // Seat 3 (home Mira) has a fleet in flight and ships at Vega.
    place(&mut s, 3, "Vega", 2);
    given(
        &mut s,
        Event::TokenPlaced {
            seat: Seat(2),
            token: 2,
            square: 3,
            ships: 4,
            from: Sector::parse("D-red").unwrap(),
        },
    );
    let ev = resign(&mut s, 3);
    assert_eq!(
        ev,
        vec![Event::Resigned {
            seat: Seat(2),
            ships: 21,
            home: star("Mira")
        }]
    );
    let m = &s.seats[2];
    assert!(m.resigned && m.eliminated);
    assert_eq!(s.total_ships(Seat(2)), 0);
    assert!(m.tokens.iter().all(|t| *t == Token::Ready));
    assert_eq!(kinds(&s), vec![(1, "turn".into())], "seat 1's turn goes on");
    assert!(Hyperspace::legal_actions(&s, Seat(2)).is_empty());
    let err = Hyperspace::resign(&s, Seat(2)).unwrap_err();
    assert!(err.to_string().contains("already resigned"), "{err}");
    let names: Vec<String> = vec!["Ada".into(), "Bo".into(), "Cy".into()];
    assert_eq!(
        Hyperspace::narrate(&ev[0], Viewer::Public, &names).unwrap(),
        "🏳️ Cy resigned and is out of the game: their 21 ships (on stars and in flight) are removed, and their home star Mira is an ordinary star from now on."
    );
    // Mira is an ordinary star now: 1 point to whoever holds it, no
    // conquest, no home ring.
    assert_eq!(s.home_owner(star("Mira")), None);
    let before = s.score(Seat(0));
    place(&mut s, 1, "Mira", 1);
    assert_eq!(s.score(Seat(0)), before + 1);
    assert_eq!(rules::conquers(&s, Seat(0)), None);
    // Turns skip seat 3.
    ok(&mut s, 1, "end");
    ok(&mut s, 2, "end");
    assert_eq!((s.active, s.round), (Seat(0), 2));
    assert!(s.outcome.is_none());
    // The view and the board say so.
    let view = Hyperspace::view(&s, Viewer::Public);
    assert!(view.seats[2].resigned && !view.seats[0].resigned);
    let sc = Hyperspace::scene(&view, &names);
    assert!(sc
        .items
        .iter()
        .any(|i| matches!(i, orrery_render::Item::Text(t) if t.text.contains("resigned"))));
}

/// Seat 1 attacks seat 2 at Vega in a 3-player game: the battle begins.
fn battle_of_three() -> State {
    let mut s = new_game(3);
    place(&mut s, 1, "Vega", 5);
    place(&mut s, 2, "Vega", 3);
    ok(&mut s, 1, "end");
    assert_eq!(kinds(&s), vec![(1, "combat-card".into()), (2, "combat-card".into())]);
    s
}

#[test]
fn a_defender_who_resigns_ends_the_battle_and_the_turn_goes_on() {
    let mut s = battle_of_three();
    ok(&mut s, 1, "card name:Admiral");
    let ev = resign(&mut s, 2);
    assert_eq!(
        ev[1],
        Event::BattleEnded {
            star: star("Vega"),
            holder: Some(Seat(0))
        }
    );
    // Seat 1's turn ends; seat 2 is skipped.
    assert!(ev.contains(&Event::TurnEnded { seat: Seat(0) }), "{ev:?}");
    assert_eq!(kinds(&s), vec![(3, "turn".into())]);
    assert_eq!(s.ships_at(star("Vega"), Seat(0)), 5);
    // The unrevealed pick stays unplayed.
    assert!(s.seats[0].hand.contains(&Card::Admiral));
}

#[test]
fn an_attacker_who_resigns_mid_battle_ends_its_turn() {
    let mut s = battle_of_three();
    let ev = resign(&mut s, 1);
    assert_eq!(
        ev[1..3],
        [
            Event::BattleEnded {
                star: star("Vega"),
                holder: Some(Seat(1))
            },
            Event::TurnEnded { seat: Seat(0) }
        ]
    );
    assert_eq!(kinds(&s), vec![(2, "turn".into())]);
    // Regulus, seat 1's home, is ordinary now: nobody is captured.
    assert!(s.seats.iter().all(|m| m.captured_by.is_none()));
}

#[test]
fn a_player_resigning_on_their_turn_passes_it_on() {
    let mut s = new_game(3);
    ok(&mut s, 1, "depart from:Regulus ships:3");
    let ev = resign(&mut s, 1);
    assert!(matches!(ev[0], Event::Resigned { ships: 15, .. }), "{ev:?}");
    assert!(ev.contains(&Event::TurnEnded { seat: Seat(0) }));
    assert!(
        matches!(
            ev.last(),
            Some(Event::TurnBegan {
                seat: Seat(1),
                round: 1,
                ..
            })
        ),
        "{ev:?}"
    );
    assert_eq!(kinds(&s), vec![(2, "turn".into())]);
}

#[test]
fn the_last_player_left_wins_at_once() {
    let mut s = battle_at_vega();
    let ev = resign(&mut s, 2);
    assert!(matches!(
        ev.last(),
        Some(Event::GameEnded { outcome: Outcome::Winner { seat: Seat(0), reason }, .. }) if reason == "the others resigned"
    ));
    assert!(Hyperspace::pending(&s).is_empty());
    assert_eq!(Hyperspace::resign(&s, Seat(0)), Err(Rejection::GameOver));
    let standings = Hyperspace::standings(&s);
    assert_eq!(standings[1], (Seat(1), "resigned".to_string()));
    assert_eq!(standings[0].0, Seat(0));
}

#[test]
fn an_eliminated_player_cannot_resign() {
    let mut s = new_game(3);
    clear(&mut s, 3, "Mira");
    place(&mut s, 1, "Mira", 1);
    ok(&mut s, 1, "end");
    let err = Hyperspace::resign(&s, Seat(2)).unwrap_err();
    assert!(err.to_string().contains("eliminated"), "{err}");
    // Seat 2 resigns: seat 1 is the last player, by the others' resigning
    // or elimination.
    let ev = resign(&mut s, 2);
    assert!(matches!(
        ev.last(),
        Some(Event::GameEnded { outcome: Outcome::Winner { seat: Seat(0), reason }, .. })
            if reason.contains("resigned or were eliminated")
    ));
}

/// Whole games by the test player, one or two seats resigning at random
/// points: each ends, a resigned seat is never asked anything, nobody
/// resigned wins, and the log folds to the state.
#[test]
fn games_with_a_resignation_end_and_replay() {
    let mut rng = GameRng::seeded(28);
    let mut resigned_games = 0;
    for seed in 0..24u64 {
        let players = 2 + (seed % 3) as u8;
        let mut events = Hyperspace::setup(&GameConfig::new(players, seed)).unwrap();
        let mut s = Hyperspace::fold(&events);
        let resign_at = rng.below(150);
        let mut out: Vec<Seat> = Vec::new();
        let mut step = 0u32;
        while s.outcome.is_none() {
            step += 1;
            assert!(step < 20_000, "seed {seed}: no end");
            let second = step > resign_at && step % 61 == 0 && out.len() + 2 < players as usize;
            let ev = if step == resign_at || second {
                let seat = Seat(rng.below(u32::from(players)) as u8);
                match Hyperspace::resign(&s, seat) {
                    Ok(ev) => {
                        out.push(seat);
                        ev
                    }
                    Err(e) => {
                        assert!(s.seats[seat.index()].eliminated, "seed {seed}: {e}");
                        continue;
                    }
                }
            } else {
                let p = Hyperspace::pending(&s);
                let p = p.iter().find(|p| !p.submitted).expect("someone owes a decision");
                assert!(!out.contains(&p.seat), "seed {seed}: a resigned seat is asked");
                let legal = Hyperspace::legal_actions(&s, p.seat);
                let a = super::hooks::test_order(&s, p.seat, &legal).unwrap();
                Hyperspace::decide(&s, p.seat, &a).unwrap()
            };
            for e in &ev {
                Hyperspace::apply(&mut s, e);
            }
            events.extend(ev);
        }
        let outcome = s.outcome.clone().unwrap();
        assert!(
            outcome.winners().iter().all(|w| !out.contains(w)),
            "seed {seed}: {outcome:?}"
        );
        resigned_games += usize::from(!out.is_empty());
        assert_eq!(Hyperspace::fold(&events), s, "seed {seed}: replay differs");
    }
    assert!(resigned_games >= 12, "only {resigned_games} games saw a resignation");
}

#[test]
fn scramble_redraws_only_the_picks_the_kept_seat_cannot_know() {
    // Seat 2 has picked, seat 1 not yet: seat 2's pick is hidden from it.
    let mut a = battle_at_vega();
    ok(&mut a, 2, "card name:Lieutenant");
    let mut b = battle_at_vega();
    ok(&mut b, 2, "card name:Admiral");
    let pick = |s: &State, seat: u8| match &s.battle().expect("a battle").step {
        BattleStep::Cards { picks } => picks.pick_of(Seat(seat - 1)).copied(),
        _ => None,
    };
    let mut drawn = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let x = Hyperspace::scramble(&a, &[Seat(0)], false, &mut GameRng::seeded(seed)).expect("a world");
        let y = Hyperspace::scramble(&b, &[Seat(0)], false, &mut GameRng::seeded(seed)).expect("a world");
        assert_eq!(x, y, "seed {seed}: the world depends on the hidden pick");
        assert_eq!(pick(&x, 1), None);
        drawn.insert(pick(&x, 2).expect("still picked"));
    }
    assert!(drawn.len() > 3, "seat 2's pick is drawn from its hand: {drawn:?}");
    // Its own pick a seat keeps; what comes out in play is kept with
    // `private_only`.
    let kept = Hyperspace::scramble(&a, &[Seat(1)], false, &mut GameRng::seeded(1)).expect("a world");
    assert_eq!(kept, a);
    assert!(Hyperspace::scramble(&a, &[Seat(0)], true, &mut GameRng::seeded(1)).is_none());
}
