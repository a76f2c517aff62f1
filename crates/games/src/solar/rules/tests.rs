use super::*;
use crate::solar::basics::board::{Piece, Planet, UnitKind};
use crate::solar::basics::tiles::AlienTile;
use crate::solar::basics::tiles::TileRef;
use crate::solar::events::MoneyReason;
use crate::solar::orders::{commands, unparse};
use crate::solar::orders::{parse, Purchase};
use crate::solar::state::TensionTarget;
use crate::solar::tests::kit::{board_with, give, line, play, rolled, start, tile};
use orrery_engine::{CommandLine, GameRng, Outcome};

fn refuse(s: &State, seat: Seat, text: &str) -> (String, Vec<String>) {
    match decide(s, seat, &line(text)) {
        Err(Rejection::Illegal { reason, legal }) => (reason, legal),
        other => panic!("{text}: expected Illegal, got {other:?}"),
    }
}

/// A 2-player game in Phase 3, seat 1's turn, no tiles on the board, and
/// `tiles` placed on planets.
fn scenario(tiles: &[(Planet, u8)]) -> State {
    let mut s = start(2, 7);
    board_with(&mut s, tiles);
    apply(&mut s, &Event::TurnBegan { seat: Seat(0) });
    apply(&mut s, &Event::FirstPlayerMarkerTaken { seat: Seat(0) });
    s
}

// ---------------------------------------------------------------------------
// Text

#[test]
fn orders_round_trip_through_text() {
    for text in [
        "move from:earth to:mars ships:1 infantry:3 claim:17",
        "move from:earth to:kuiper ships:2",
        "move from:earth to:mars ships:1 claim:52 player:2 piece:mine",
        "move from:earth to:moon ships:1 tanks:1",
        "claim tile:12",
        "claim tile:3 unit:ship",
        "claim tile:A1",
        "claim tile:50 player:3 piece:factory",
        "pay infantry:2 ships:1 tanks:1 lose:infantry,ship",
        "pay tanks:2",
        "giveup",
        "giveup lose:tank",
        "buy units:infantry,infantry",
        "buy units:tank@mars,ship",
        "pass",
    ] {
        let action = line(text);
        let back = unparse(&action);
        assert_eq!(back.to_string(), text, "canonical text");
        assert_eq!(parse(&back).expect("round trip"), action);
    }
    // Capitals, long names and defaults are read; the text is canonical.
    assert_eq!(
        unparse(&line("Move From:Kuiper-Belt To:TITAN ships:1 infantry:0")).to_string(),
        "move from:kuiper to:titan ships:1"
    );
    assert_eq!(
        line("buy units:ship@earth,spaceship@Titan"),
        Action::Buy {
            units: vec![
                Purchase {
                    kind: UnitKind::Spaceship,
                    planet: Planet::Earth
                },
                Purchase {
                    kind: UnitKind::Spaceship,
                    planet: Planet::Titan
                },
            ]
        }
    );
    // player: is a seat number shown from 1.
    let Action::Claim(c) = line("claim tile:50 player:2 piece:mine") else {
        panic!("claim")
    };
    assert_eq!(c.target.map(|t| t.seat), Some(Seat(1)));
}

#[test]
fn parse_errors_explain_themselves() {
    let err = |text: &str| {
        parse(&CommandLine::parse(text).expect("shape"))
            .expect_err(text)
            .to_string()
    };
    assert!(err("move from:pluto to:mars ships:1").contains("unknown planet `pluto`"));
    assert!(err("move from:earth ships:1").contains("needs the option `to`"));
    assert!(err("move from:earth to:mars ships:one").contains("not a whole number"));
    assert!(err("move from:earth to:mars ships:1 unit:tank").contains("add `claim:TILE`"));
    assert!(err("move from:earth to:mars ships:1 claim:3 claim:4").contains("only once"));
    assert!(err("claim tile:99").contains("unknown tile `99`"));
    assert!(err("claim tile:50 player:2").contains("both `player:` and `piece:`"));
    assert!(err("claim tile:50 player:alice piece:mine").contains("seat number"));
    assert!(err("claim tile:50 player:0 piece:mine").contains("numbered from 1"));
    assert!(err("claim tile:50 player:2 piece:castle").contains("unknown piece"));
    assert!(err("claim tile:3 unit:horse").contains("unknown unit `horse`"));
    assert!(err("pay infantry:2 lose:infantry,,ship").contains("empty entry"));
    assert!(err("buy units:").contains("at least one unit"));
    assert!(err("buy units:tank@pluto").contains("unknown planet"));
    assert!(err("pass now:yes").contains("does not take an option `now`"));
    let e = err("attack x:1");
    assert!(
        e.contains("unknown command `attack`") && e.contains("move | claim"),
        "{e}"
    );
}

#[test]
fn commands_cover_every_order() {
    let names: Vec<&str> = commands().iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        ["move", "claim", "pay", "giveup", "buy", "pass", "play", "end", "take", "discard", "power", "lose"]
    );
}

// ---------------------------------------------------------------------------
// Turns and pending

#[test]
fn the_turn_holder_owes_the_turn_and_others_are_told_to_wait() {
    let s = start(3, 1);
    let first = s.turn_seat().expect("turn");
    let p = pending(&s);
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].seat, p[0].kind.as_str()), (first, "turn"));
    let other = s.next_seat(first);
    assert!(legal_actions(&s, other).is_empty());
    assert_eq!(
        decide(&s, other, &Action::Pass),
        Err(Rejection::NotYourDecision {
            seat: other,
            waiting: vec![first]
        })
    );
    let (reason, legal) = refuse(&s, first, "giveup");
    assert!(reason.contains("take one action"), "{reason}");
    assert!(legal.contains(&"pass".to_string()));
}

#[test]
fn pass_takes_a_cube_draws_a_card_and_the_turn_moves_on() {
    let s = start(2, 3);
    let first = s.turn_seat().expect("turn");
    let hand = s.hand_size(first);
    let after = play(&s, first, "pass");
    assert_eq!(after.cubes_left(), s.cubes_left() - 1);
    assert_eq!(after.hand_size(first), hand + 1);
    assert_eq!(after.turn_seat(), Some(after.next_seat(first)));
    assert_eq!(after.round, 1);
    // Back to the First Player: round 2.
    let again = play(&after, after.next_seat(first), "pass");
    assert_eq!((again.round, again.turn_seat()), (2, Some(first)));
}

#[test]
fn the_last_cube_takes_the_marker_and_ends_the_phase() {
    let mut s = start(2, 3);
    let first = s.turn_seat().expect("turn");
    let mut taker = first;
    let mut last = Vec::new();
    while s.period == 1 && s.phase == Some(Phase::PlayerActions) {
        taker = s.turn_seat().expect("turn");
        last = decide(&s, taker, &Action::Pass).expect("pass");
        for e in &last {
            apply(&mut s, e);
        }
    }
    assert_eq!(taker, s.next_seat(first), "4 cubes: the second player takes the last");
    assert_eq!(s.first_player, Some(taker));
    // The phase ends at once: the marker, then Phase 4 (which the crisis
    // layer runs on from).
    let end = last
        .iter()
        .position(|e| *e == Event::FirstPlayerMarkerTaken { seat: taker })
        .expect("marker taken");
    assert_eq!(last.get(end + 1), Some(&Event::PhaseBegan { phase: Phase::Crises }));
    assert!(!last[..end].iter().any(|e| matches!(e, Event::TurnBegan { .. })));
}

#[test]
fn past_the_round_limit_only_pass_is_allowed() {
    let mut s = start(2, 5);
    apply(&mut s, &Event::RoundBegan { round: 11 });
    let seat = s.turn_seat().expect("turn");
    assert!(s.passing_only());
    assert_eq!(legal_actions(&s, seat), vec![Action::Pass]);
    let (reason, legal) = refuse(&s, seat, "buy units:infantry");
    assert!(reason.contains("round limit"), "{reason}");
    assert_eq!(legal, vec!["pass".to_string()]);
    assert!(pending(&s)[0].prompt.contains("only order"));
    play(&s, seat, "pass");
}

// ---------------------------------------------------------------------------
// Moving

#[test]
fn moves_go_one_or_two_planets_with_ready_units() {
    let s = scenario(&[]);
    let after = play(&s, Seat(0), "move from:earth to:ganymede ships:2 infantry:4");
    assert_eq!(after.ready_units(Seat(0), Planet::Ganymede), UnitCounts::new(4, 2, 0));
    assert!(after.ready_units(Seat(0), Planet::Earth).is_empty());
    assert_eq!(after.turn_seat(), Some(Seat(1)));

    let (reason, legal) = refuse(&s, Seat(0), "move from:earth to:titan ships:1");
    assert!(reason.contains("Titan is 3 planets from Earth"), "{reason}");
    assert!(
        legal.contains(&"move from:earth to:ganymede ships:1".to_string()),
        "{legal:?}"
    );
    let (reason, legal) = refuse(&s, Seat(0), "move from:earth to:mars ships:3");
    assert!(reason.contains("only ready units"), "{reason}");
    assert!(!legal.is_empty());
    let (reason, _) = refuse(&s, Seat(0), "move from:earth to:mars ships:0 infantry:2");
    assert!(reason.contains("at least one spaceship"), "{reason}");
    let (reason, _) = refuse(&s, Seat(0), "move from:mars to:earth ships:1");
    assert!(reason.contains("only ready units"), "{reason}");
    let (reason, _) = refuse(&s, Seat(0), "move from:earth to:earth ships:1");
    assert!(reason.contains("already at Earth"), "{reason}");
    let mut t = s.clone();
    give(&mut t, 0, Planet::Earth, UnitCounts::new(0, 0, 1));
    let (reason, legal) = refuse(&t, Seat(0), "move from:earth to:mars ships:1 tanks:1");
    assert!(reason.contains("tanks never move"), "{reason}");
    assert!(!legal.is_empty());
}

#[test]
fn move_and_claim_only_after_a_one_planet_move() {
    let s = scenario(&[(Planet::Mars, 2), (Planet::Ganymede, 3)]);
    let after = play(&s, Seat(0), "move from:earth to:mars ships:1 infantry:3 claim:2");
    assert_eq!(after.holdings(Seat(0), Planet::Mars).mines, 1);
    assert_eq!(after.spent_units(Seat(0), Planet::Mars), UnitCounts::new(1, 0, 0));
    assert_eq!(after.turn_seat(), Some(Seat(1)));

    let (reason, legal) = refuse(&s, Seat(0), "move from:earth to:ganymede ships:1 claim:3");
    assert!(reason.contains("full movement"), "{reason}");
    assert!(legal.iter().all(|l| l.contains("claim:")), "{legal:?}");
    let (reason, legal) = refuse(&s, Seat(0), "move from:earth to:mars ships:1 claim:3");
    assert!(reason.contains("#3 is on Ganymede, not Mars"), "{reason}");
    assert!(
        legal.contains(&"move from:earth to:mars ships:1 claim:2".to_string()),
        "{legal:?}"
    );
}

// ---------------------------------------------------------------------------
// Claiming

#[test]
fn an_undefended_claim_spends_one_unit_and_gains_at_once() {
    // #23 Windfall, #29 Draw Two Cards, #13 Factory on Earth.
    let s = scenario(&[(Planet::Earth, 23), (Planet::Earth, 29), (Planet::Earth, 13)]);
    let money = s.money(Seat(0));
    let after = play(&s, Seat(0), "claim tile:23");
    assert_eq!(after.money(Seat(0)), money + 3);
    assert_eq!(after.spent_units(Seat(0), Planet::Earth), UnitCounts::new(1, 0, 0));
    assert!(after.claim().is_none());
    assert_eq!(after.turn_seat(), Some(Seat(1)));

    let hand = s.hand_size(Seat(0));
    let after = play(&s, Seat(0), "claim tile:29 unit:ship");
    assert_eq!(after.hand_size(Seat(0)), hand + 2);
    assert_eq!(after.spent_units(Seat(0), Planet::Earth), UnitCounts::new(0, 1, 0));

    let after = play(&s, Seat(0), "claim tile:13");
    assert_eq!(after.holdings(Seat(0), Planet::Earth).factories, 2);
    assert!(after.tiles_at(Planet::Earth).iter().all(|&t| t != tile(13)));

    let (reason, legal) = refuse(&s, Seat(0), "claim tile:23 unit:tank");
    assert!(reason.contains("no ready tank at Earth"), "{reason}");
    assert!(legal.contains(&"claim tile:23".to_string()), "{legal:?}");
}

#[test]
fn claim_prerequisites_are_checked() {
    let mut s = scenario(&[(Planet::Mars, 1), (Planet::Earth, 13), (Planet::Venus, 5)]);
    // No unit at Mars.
    let (reason, legal) = refuse(&s, Seat(0), "claim tile:1");
    assert!(reason.contains("no ready unit in orbit of Mars"), "{reason}");
    assert!(legal.contains(&"claim tile:13".to_string()), "{legal:?}");
    // A tile not on the board.
    let (reason, _) = refuse(&s, Seat(0), "claim tile:40");
    assert!(reason.contains("not on the board"), "{reason}");
    // No factory counter left in the supply.
    for _ in 0..7 {
        apply(
            &mut s,
            &Event::PieceGained {
                seat: Seat(0),
                planet: Planet::Mercury,
                piece: Piece::Factory,
            },
        );
    }
    let (reason, _) = refuse(&s, Seat(0), "claim tile:13");
    assert!(reason.contains("needs a factory in your supply"), "{reason}");
    // A flipped planet.
    give(&mut s, 0, Planet::Venus, UnitCounts::new(1, 0, 0));
    apply(&mut s, &Event::PlanetFlipped { planet: Planet::Venus });
    let (reason, _) = refuse(&s, Seat(0), "claim tile:5");
    assert!(reason.contains("flipped"), "{reason}");
    // `unit:` is for undefended tiles only.
    let mut t = scenario(&[(Planet::Earth, 5)]);
    let (reason, _) = refuse(&t, Seat(0), "claim tile:5 unit:ship");
    assert!(reason.contains("undefended"), "{reason}");
    apply(
        &mut t,
        &Event::ActionTaken {
            seat: Seat(0),
            action: ActionKind::Claim,
        },
    );
}

#[test]
fn a_defended_claim_rolls_and_owes_pay() {
    let s = scenario(&[(Planet::Earth, 9)]);
    let after = play(&s, Seat(0), "claim tile:9");
    let claim = after.claim().expect("claim");
    assert!(claim.dice.is_some());
    assert_eq!(claim.defence, 2);
    assert_ne!(after.rng, s.rng, "the roll drew from the generator");
    let p = pending(&after);
    assert_eq!((p[0].seat, p[0].kind.as_str()), (Seat(0), "pay"));
    assert!(legal_actions(&after, Seat(0)).contains(&Action::GiveUp { lose: vec![] }));
    let (reason, legal) = refuse(&after, Seat(0), "pass");
    assert!(reason.contains("`pay` or `giveup`"), "{reason}");
    assert!(legal.contains(&"giveup".to_string()));
    // Replay: the same state and action give the same events.
    assert_eq!(
        decide(&s, Seat(0), &line("claim tile:9")),
        decide(&s, Seat(0), &line("claim tile:9"))
    );
}

#[test]
fn the_page_cost_example_is_paid_through_decide() {
    // "dice 4, skull, 2 → highest 4, lowest 0 → 4. Against a Mine of
    // defence 2 the cost is 6 CP."
    let mut s = scenario(&[(Planet::Earth, 9)]);
    give(&mut s, 0, Planet::Earth, UnitCounts::new(0, 0, 1));
    let s = rolled(s, Planet::Earth, TileRef::Bag(tile(9)), None, 2, [4, 0, 2]);
    assert!(pending(&s)[0].prompt.contains("costs 6 CP"));
    let (reason, legal) = refuse(&s, Seat(0), "pay infantry:4 ships:1");
    assert!(reason.contains("costs 6 CP") && reason.contains("pay 5"), "{reason}");
    assert!(legal.contains(&"pay infantry:4 tanks:1".to_string()), "{legal:?}");
    let (reason, _) = refuse(&s, Seat(0), "pay infantry:5 ships:1");
    assert!(reason.contains("only ready units pay"), "{reason}");
    let (reason, _) = refuse(&s, Seat(0), "pay");
    assert!(reason.contains("at least one unit"), "{reason}");
    // 1 tank and 4 infantry: 2 + 4 = 6, paid. One skull: one casualty,
    // an infantry (the loss order), spent before ready.
    let after = play(&s, Seat(0), "pay infantry:4 tanks:1");
    assert_eq!(after.holdings(Seat(0), Planet::Earth).mines, 1);
    assert_eq!(after.spent_units(Seat(0), Planet::Earth), UnitCounts::new(3, 0, 1));
    assert_eq!(after.ready_units(Seat(0), Planet::Earth), UnitCounts::new(0, 2, 0));
    assert!(after.claim().is_none());
    assert_eq!(after.turn_seat(), Some(Seat(1)));
    // Paying more than the cost is allowed; `lose:` chooses the casualty.
    let after = play(&s, Seat(0), "pay infantry:4 ships:2 tanks:1 lose:ship");
    assert_eq!(after.units_at(Seat(0), Planet::Earth), UnitCounts::new(4, 1, 1));
    // Dice 3, 3, 3: the cost is the defence alone.
    let t = rolled(
        scenario(&[(Planet::Earth, 9)]),
        Planet::Earth,
        TileRef::Bag(tile(9)),
        None,
        2,
        [3, 3, 3],
    );
    let after = play(&t, Seat(0), "pay infantry:2");
    assert_eq!(
        after.units_at(Seat(0), Planet::Earth),
        UnitCounts::new(4, 2, 0),
        "no skull, no casualty"
    );
}

#[test]
fn giving_up_fails_ends_the_turn_and_still_counts_skulls() {
    // "Dice skull, 4, skull: 2 casualties, even if you gave up."
    let s = rolled(
        scenario(&[(Planet::Earth, 9)]),
        Planet::Earth,
        TileRef::Bag(tile(9)),
        None,
        2,
        [0, 4, 0],
    );
    let after = play(&s, Seat(0), "giveup");
    assert_eq!(after.units_at(Seat(0), Planet::Earth), UnitCounts::new(2, 2, 0));
    assert_eq!(after.tiles_at(Planet::Earth), vec![tile(9)], "the tile stays");
    assert!(after.claim().is_none());
    assert_eq!(after.turn_seat(), Some(Seat(1)));
    let after = play(&s, Seat(0), "giveup lose:ship,infantry");
    assert_eq!(after.units_at(Seat(0), Planet::Earth), UnitCounts::new(3, 1, 0));
    let (reason, legal) = refuse(&s, Seat(0), "giveup lose:ship");
    assert!(reason.contains("`lose:` names 2, not 1"), "{reason}");
    assert!(legal.contains(&"giveup".to_string()));
    let (reason, _) = refuse(&s, Seat(0), "giveup lose:tank,ship");
    assert!(reason.contains("no more tank"), "{reason}");
    // Fewer units than casualties: all are lost.
    let mut few = scenario(&[(Planet::Mars, 9)]);
    give(&mut few, 0, Planet::Mars, UnitCounts::new(1, 0, 0));
    let few = rolled(few, Planet::Mars, TileRef::Bag(tile(9)), None, 2, [0, 0, 0]);
    let after = play(&few, Seat(0), "giveup");
    assert!(after.units_at(Seat(0), Planet::Mars).is_empty());
}

#[test]
fn a_claim_nobody_can_pay_fails_at_once_without_cards() {
    let mut s = scenario(&[(Planet::Mars, 12)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(1, 0, 0));
    let hand = s.seat(Seat(0)).expect("seat").hand.clone();
    apply(
        &mut s,
        &Event::CardsDiscarded {
            seat: Seat(0),
            cards: hand,
        },
    );
    // Defence 3 against 1 CP: the claim fails at once.
    let after = play(&s, Seat(0), "claim tile:12");
    assert!(after.claim().is_none());
    assert_eq!(after.turn_seat(), Some(Seat(1)));
    assert_eq!(after.tiles_at(Planet::Mars), vec![tile(12)]);
}

#[test]
fn tension_claims_take_a_rivals_piece() {
    let mut s = scenario(&[(Planet::Earth, 50), (Planet::Mars, 51)]);
    // Defender: 2 infantry in orbit + 1 tank on the surface = 4.
    give(&mut s, 1, Planet::Earth, UnitCounts::new(0, 0, 1));
    apply(
        &mut s,
        &Event::UnitsSpent {
            seat: Seat(1),
            planet: Planet::Earth,
            units: UnitCounts::new(0, 0, 1),
        },
    );
    apply(
        &mut s,
        &Event::UnitsLost {
            seat: Seat(1),
            planet: Planet::Earth,
            ready: UnitCounts::new(2, 2, 0),
            spent: UnitCounts::NONE,
        },
    );
    let (reason, legal) = refuse(&s, Seat(0), "claim tile:50");
    assert!(reason.contains("names its target"), "{reason}");
    assert_eq!(legal, vec!["claim tile:50 player:2 piece:factory".to_string()]);
    let (reason, _) = refuse(&s, Seat(0), "claim tile:50 player:2 piece:mine");
    assert!(reason.contains("seat 2 has no mine on Earth"), "{reason}");
    let (reason, _) = refuse(&s, Seat(0), "claim tile:50 player:1 piece:factory");
    assert!(reason.contains("rival"), "{reason}");
    let (reason, _) = refuse(&s, Seat(0), "claim tile:23 player:2 piece:factory");
    assert!(
        reason.contains("not on the board") || reason.contains("only a Tension"),
        "{reason}"
    );
    let after = play(&s, Seat(0), "claim tile:50 player:2 piece:factory");
    assert_eq!(after.claim().map(|c| c.defence), Some(4));
    // Paid: the factory changes hands; the defender loses no units.
    let s = rolled(
        s,
        Planet::Earth,
        TileRef::Bag(tile(50)),
        Some(TensionTarget {
            seat: Seat(1),
            piece: Piece::Factory,
        }),
        4,
        [1, 1, 1],
    );
    let after = play(&s, Seat(0), "pay infantry:4");
    assert_eq!(after.holdings(Seat(0), Planet::Earth).factories, 2);
    assert_eq!(after.holdings(Seat(1), Planet::Earth).factories, 0);
    assert_eq!(after.units_at(Seat(1), Planet::Earth), UnitCounts::new(2, 0, 1));
    assert!(after.discarded_tiles.contains(&tile(50)));
}

#[test]
fn an_alien_tile_is_claimed_anywhere_at_defence_seven() {
    let mut s = scenario(&[]);
    apply(
        &mut s,
        &Event::AlienPlaced {
            alien: AlienTile::A3,
            planet: Planet::Mars,
        },
    );
    apply(&mut s, &Event::PlanetFlipped { planet: Planet::Mars });
    give(&mut s, 0, Planet::Mars, UnitCounts::new(5, 2, 1));
    let after = play(&s, Seat(0), "claim tile:A3");
    assert_eq!(after.claim().map(|c| c.defence), Some(7));
    let s = rolled(s, Planet::Mars, TileRef::Alien(AlienTile::A3), None, 7, [2, 2, 2]);
    let after = play(&s, Seat(0), "pay infantry:5 tanks:1");
    assert!(after.is_cleared(Planet::Mars));
    assert!(after.aliens.is_empty());
    assert_eq!(after.seat(Seat(0)).expect("seat").tile_vp(), 2);
}

#[test]
fn aliens_advance_from_round_two_and_reaching_earth_ends_the_game() {
    let mut s = start(2, 3);
    apply(
        &mut s,
        &Event::AlienPlaced {
            alien: AlienTile::A3,
            planet: Planet::Mars,
        },
    );
    let first = s.turn_seat().expect("turn");
    let s = play(&s, first, "pass");
    let s2 = play(&s, s.next_seat(first), "pass");
    assert_eq!(s2.round, 2);
    assert_eq!(s2.aliens.get(&AlienTile::A3), Some(&Planet::Moon));
    let mut s3 = s2.clone();
    apply(
        &mut s3,
        &Event::PassCubeReturned {
            seat: first,
            from: first,
        },
    );
    apply(
        &mut s3,
        &Event::PassCubeReturned {
            seat: first,
            from: first,
        },
    );
    let s3 = play(&s3, first, "pass");
    let s4 = play(&s3, s3.next_seat(first), "pass");
    assert!(matches!(s4.outcome, Some(Outcome::AllLose { .. })), "{:?}", s4.outcome);
    assert!(pending(&s4).is_empty());
    assert_eq!(decide(&s4, first, &Action::Pass), Err(Rejection::GameOver));
}

// ---------------------------------------------------------------------------
// Buying

#[test]
fn buying_pays_the_price_and_places_the_units() {
    let mut s = scenario(&[]);
    apply(
        &mut s,
        &Event::PieceGained {
            seat: Seat(0),
            planet: Planet::Mars,
            piece: Piece::Factory,
        },
    );
    let after = play(&s, Seat(0), "buy units:tank@mars,ship");
    assert_eq!(after.money(Seat(0)), 12 - 3 - 4);
    assert_eq!(after.ready_units(Seat(0), Planet::Mars), UnitCounts::new(0, 0, 1));
    assert_eq!(after.ready_units(Seat(0), Planet::Earth), UnitCounts::new(4, 3, 0));
    assert_eq!(after.turn_seat(), Some(Seat(1)));

    let (reason, legal) = refuse(&s, Seat(0), "buy units:infantry@mars");
    assert!(reason.contains("Earth orbit only"), "{reason}");
    assert!(legal.contains(&"buy units:infantry".to_string()), "{legal:?}");
    assert!(legal.contains(&"buy units:tank@mars".to_string()), "{legal:?}");
    let (reason, _) = refuse(&s, Seat(0), "buy units:tank@venus");
    assert!(reason.contains("where you have a factory"), "{reason}");
    let (reason, _) = refuse(&s, Seat(0), "buy units:infantry,infantry,infantry");
    assert!(reason.contains("1 to 2 units"), "{reason}");
    let mut poor = s.clone();
    apply(
        &mut poor,
        &Event::MoneyPaid {
            seat: Seat(0),
            amount: 9,
            reason: MoneyReason::Purchase,
        },
    );
    let (reason, legal) = refuse(&poor, Seat(0), "buy units:ship");
    assert!(reason.contains("cost £4 and you have £3"), "{reason}");
    assert!(
        legal.contains(&"buy units:tank".to_string()) && legal.len() < 5,
        "{legal:?}"
    );
    let mut full = s.clone();
    give(&mut full, 0, Planet::Mercury, UnitCounts::new(5, 0, 0));
    let (reason, _) = refuse(&full, Seat(0), "buy units:infantry");
    assert!(reason.contains("0 infantry counter(s)"), "{reason}");
}

// ---------------------------------------------------------------------------
// Legal actions and random play

/// Every legal action is accepted, on each state of some playouts.
#[test]
fn every_legal_action_is_accepted() {
    for players in 2..=5u8 {
        let mut s = start(players, u64::from(players) * 11);
        let mut rng = GameRng::seeded(u64::from(players));
        let mut steps = 0;
        while s.period == 1 && s.phase == Some(Phase::PlayerActions) {
            let p = pending(&s).first().cloned().expect("a turn");
            let legal = legal_actions(&s, p.seat);
            assert!(!legal.is_empty());
            if steps % 3 == 0 {
                for a in &legal {
                    let text = unparse(a);
                    assert_eq!(parse(&text).as_ref(), Ok(a), "{text}");
                    assert!(decide(&s, p.seat, a).is_ok(), "{text}: {:?}", decide(&s, p.seat, a));
                }
            }
            let a = rng.pick(&legal).cloned().expect("an action");
            for e in decide(&s, p.seat, &a).expect("legal") {
                apply(&mut s, &e);
            }
            steps += 1;
        }
        assert!(s.period > 1 || s.phase == Some(Phase::Crises) || s.is_over());
    }
}

/// Random play (seeded, among the legal actions) always ends the phase.
#[test]
fn random_playouts_end_the_player_actions_phase() {
    for players in 2..=5u8 {
        for seed in 0..100u64 {
            let mut s = start(players, seed);
            let mut rng = GameRng::seeded(seed ^ 0x5eed);
            let mut steps = 0;
            let mut round = 0;
            while s.period == 1 && s.phase == Some(Phase::PlayerActions) {
                round = s.round;
                let p = pending(&s).first().cloned().expect("a turn");
                let legal = legal_actions(&s, p.seat);
                let a = rng.pick(&legal).cloned().expect("an action");
                let events = decide(&s, p.seat, &a).unwrap_or_else(|e| panic!("{players}p seed {seed}: {e}"));
                for e in &events {
                    apply(&mut s, e);
                }
                steps += 1;
                assert!(steps < 2000, "{players}p seed {seed}: no end");
            }
            // The phase ended (the crisis layer ran on from it), or the
            // aliens reached Earth.
            assert!(
                s.period > 1 || s.phase == Some(Phase::Crises) || s.is_over(),
                "{players}p seed {seed}"
            );
            assert!(round <= s.options.round_limit + 2);
        }
    }
}

// ---------------------------------------------------------------------------
// Resigning

/// Applies `events` to the state and the log.
fn take_all(log: &mut Vec<Event>, s: &mut State, events: Vec<Event>) {
    for e in &events {
        apply(s, e);
    }
    log.extend(events);
}

/// One uniformly random legal order of a seat that owes a decision.
fn random_step(log: &mut Vec<Event>, s: &mut State, rng: &mut GameRng) {
    let owing: Vec<Seat> = pending(s).iter().map(|p| p.seat).collect();
    let seat = *rng.pick(&owing).expect("a game in play waits on someone");
    let legal = legal_actions(s, seat);
    let action = rng
        .pick(&legal)
        .expect("a seat owing a decision has a legal order")
        .clone();
    let events = decide(s, seat, &action).unwrap_or_else(|e| panic!("legal `{}` refused: {e}", unparse(&action)));
    take_all(log, s, events);
}

/// Random games in which a random seat resigns at a random point (on its
/// turn, in a claim, in the crises or anywhere else): it owes nothing
/// after, has no piece and no card, is skipped by the turns, cannot win,
/// and the game ends (at once with two players) and folds from its log.
#[test]
fn random_games_with_a_resignation_end_and_replay() {
    let mut resigned = 0;
    let mut after = 0;
    for seed in 0..40u64 {
        let players = 2 + (seed % 4) as u8;
        let config = crate::solar::tests::kit::config(players, seed);
        let mut log = <crate::solar::Solar as orrery_engine::Ruleset>::setup(&config).expect("set-up");
        let mut s = crate::solar::events::fold(&log);
        let mut rng = GameRng::seeded(seed ^ 0x50_1A);
        for _ in 0..rng.below(150) {
            if s.is_over() {
                break;
            }
            random_step(&mut log, &mut s, &mut rng);
        }
        if s.is_over() {
            continue;
        }
        let left = s.in_play();
        let seat = left[rng.below(left.len() as u32) as usize];
        let events = resign(&s, seat).expect("a seat in play may resign");
        assert!(matches!(events[0], Event::Resigned { seat: x, .. } if x == seat));
        take_all(&mut log, &mut s, events);
        resigned += 1;
        assert!(s.has_resigned(seat));
        let gone = s.seat(seat).expect("seat");
        assert!(gone.planets.is_empty() && gone.hand.is_empty(), "seed {seed}");
        assert_ne!(s.first_player, Some(seat), "seed {seed}");
        if left.len() == 2 {
            assert_eq!(s.outcome.as_ref().map(|o| o.reason()), Some("the others resigned"));
        }
        let mut n = 0;
        while !s.is_over() {
            assert!(pending(&s).iter().all(|p| p.seat != seat), "seed {seed}: {seat} owes");
            assert!(legal_actions(&s, seat).is_empty(), "seed {seed}");
            assert!(s.turn_seat() != Some(seat), "seed {seed}");
            random_step(&mut log, &mut s, &mut rng);
            n += 1;
            assert!(n < 20_000, "seed {seed}: no end");
        }
        after += n;
        let outcome = s.outcome.clone().expect("over");
        assert!(!outcome.winners().contains(&seat), "seed {seed}: {outcome:?}");
        assert_eq!(
            crate::solar::events::fold(&log),
            s,
            "seed {seed}: the log folds to another state"
        );
    }
    assert!(resigned >= 30, "only {resigned} games saw a resignation");
    assert!(after >= 300, "the games hardly went on after it ({after} decisions)");
}

#[test]
fn resigning_on_your_turn_passes_the_turn_and_the_first_player_marker() {
    let mut s = start(3, 5);
    apply(&mut s, &Event::FirstPlayerMarkerTaken { seat: Seat(1) });
    apply(&mut s, &Event::TurnBegan { seat: Seat(1) });
    give(&mut s, 1, Planet::Mars, UnitCounts::new(2, 1, 0));
    let hand = s.seat(Seat(1)).expect("seat").hand.clone();
    let round = s.round;
    let events = resign(&s, Seat(1)).expect("resign");
    assert_eq!(events[0], Event::Resigned { seat: Seat(1), hand });
    // The marker passed clockwise to seat 3, whose turn begins a round.
    assert!(events.contains(&Event::RoundBegan { round: round + 1 }), "{events:?}");
    assert_eq!(events.last(), Some(&Event::TurnBegan { seat: Seat(2) }));
    for e in &events {
        apply(&mut s, e);
    }
    assert_eq!(s.first_player, Some(Seat(2)));
    assert_eq!(s.turn_order(), vec![Seat(2), Seat(0)]);
    assert_eq!(s.next_seat(Seat(0)), Seat(2));
    assert!(s.seat(Seat(1)).expect("seat").planets.is_empty());
    assert!(s.outcome.is_none());
    let twice = resign(&s, Seat(1)).expect_err("twice").to_string();
    assert!(twice.contains("already resigned"), "{twice}");
    for e in resign(&s, Seat(0)).expect("resign") {
        apply(&mut s, &e);
    }
    assert_eq!(
        s.outcome,
        Some(Outcome::Winner {
            seat: Seat(2),
            reason: "the others resigned".into()
        })
    );
    assert_eq!(resign(&s, Seat(2)), Err(Rejection::GameOver));
    assert_eq!(
        <crate::solar::Solar as orrery_engine::Ruleset>::standings(&s),
        vec![
            (Seat(2), "still in the game".to_string()),
            (Seat(0), "resigned".to_string()),
            (Seat(1), "resigned".to_string()),
        ]
    );
}

/// Crisis losses owed by a seat that resigns lapse; when it was the last
/// one awaited, the crises go on.
#[test]
fn losses_owed_by_a_resigning_seat_lapse_and_the_crises_go_on() {
    let mut s = start(3, 5);
    apply(&mut s, &Event::PhaseBegan { phase: Phase::Crises });
    let levels = [(Planet::Venus, 2)].into_iter().collect();
    apply(&mut s, &Event::CrisisLevelsSet { levels });
    apply(
        &mut s,
        &Event::CrisisResolving {
            planet: Planet::Venus,
            level: 2,
        },
    );
    give(&mut s, 2, Planet::Venus, UnitCounts::new(2, 1, 1));
    apply(
        &mut s,
        &Event::LossesDemanded {
            demands: vec![crate::solar::state::LossDemand {
                seat: Seat(2),
                count: 2,
                kind: crate::solar::state::LossKind::UnitsThenPieces,
                planets: vec![Planet::Venus],
            }],
        },
    );
    assert_eq!(pending(&s)[0].seat, Seat(2));
    let events = resign(&s, Seat(2)).expect("resign");
    assert!(
        events.contains(&Event::CrisisDiceReturned),
        "the crises went on: {events:?}"
    );
    for e in &events {
        apply(&mut s, e);
    }
    assert!(s.losses.is_empty());
    assert!(pending(&s).iter().all(|p| p.seat != Seat(2)));
}
