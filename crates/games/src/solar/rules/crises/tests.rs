use super::*;
use orrery_engine::{CommandLine, GameConfig, GameRng};

use crate::solar::events::apply;
use crate::solar::orders::{parse, unparse};
use crate::solar::rules;
use crate::solar::tests::kit::{line, play, start_with, tile};
use crate::solar::{events, setup};

fn config(players: u8, seed: u64, auto_losses: bool) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.options = serde_json::json!({ "auto_losses": auto_losses });
    c
}

/// A game in Phase 4 with no tiles on the board, seat 1 First Player.
fn crisis_game(players: u8, auto_losses: bool) -> State {
    let mut s = start_with(&config(players, 7, auto_losses));
    for p in Planet::ALL {
        let on = s.tiles_at(p);
        if !on.is_empty() {
            apply(&mut s, &Event::TilesDiscarded { planet: p, tiles: on });
        }
    }
    apply(&mut s, &Event::FirstPlayerMarkerTaken { seat: Seat(0) });
    apply(&mut s, &Event::PhaseBegan { phase: Phase::Crises });
    s
}

fn place(s: &mut State, planet: Planet, n: u8) {
    apply(
        s,
        &Event::TilesDrawn {
            planet,
            tiles: vec![tile(n)],
        },
    );
}

fn units(s: &mut State, seat: u8, planet: Planet, u: UnitCounts) {
    apply(
        s,
        &Event::UnitsPlaced {
            seat: Seat(seat),
            planet,
            units: u,
        },
    );
}

fn piece(s: &mut State, seat: u8, planet: Planet, piece: Piece) {
    apply(
        s,
        &Event::PieceGained {
            seat: Seat(seat),
            planet,
            piece,
        },
    );
}

/// Empties a seat's Earth (units and its factory).
fn clear_earth(s: &mut State, seat: u8) {
    let h = s.holdings(Seat(seat), HOME);
    apply(
        s,
        &Event::UnitsLost {
            seat: Seat(seat),
            planet: HOME,
            ready: h.orbit,
            spent: h.surface,
        },
    );
    for _ in 0..h.factories {
        apply(
            s,
            &Event::PieceLost {
                seat: Seat(seat),
                planet: HOME,
                piece: Piece::Factory,
            },
        );
    }
}

fn set_money(s: &mut State, seat: u8, amount: u32) {
    let have = s.money(Seat(seat));
    apply(
        s,
        &Event::MoneyPaid {
            seat: Seat(seat),
            amount: have,
            reason: MoneyReason::Pirates,
        },
    );
    apply(
        s,
        &Event::MoneyGained {
            seat: Seat(seat),
            amount,
            reason: MoneyReason::Windfall,
        },
    );
}

/// Sets one planet's level (the others 0) and runs Phase 4 from Mercury.
fn resolve_at(s: &State, planet: Planet, level: u32) -> (State, Vec<Event>) {
    let mut s = s.clone();
    let levels = Planet::ALL
        .iter()
        .map(|&p| (p, if p == planet { level } else { 0 }))
        .collect();
    apply(&mut s, &Event::CrisisLevelsSet { levels });
    let events = resolve(&s);
    for e in &events {
        apply(&mut s, e);
    }
    (s, events)
}

fn kinds(s: &State) -> Vec<(Seat, String)> {
    rules::pending(s).into_iter().map(|p| (p.seat, p.kind)).collect()
}

fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

// ---------------------------------------------------------------------------
// Text

#[test]
fn crisis_orders_round_trip_through_text() {
    for text in [
        "power",
        "power steal:2",
        "power steal:2 kill:3/tank/mars wreck:2/mine/kuiper",
        "lose units:infantry,ship",
        "lose pieces:factory@titan,mine@kuiper",
        "lose units:infantry pieces:mine@venus",
    ] {
        let a = line(text);
        assert_eq!(unparse(&a).to_string(), text);
    }
    assert_eq!(
        line("lose pieces:mine"),
        Action::Lose(LoseOrder {
            units: vec![],
            pieces: vec![PieceAt {
                piece: Piece::Mine,
                planet: None
            }]
        })
    );
    for bad in [
        "power kill:2/tank",
        "power steal:0",
        "lose units:robot",
        "lose pieces:mine@pluto",
        "power x:1",
    ] {
        assert!(parse(&CommandLine::parse(bad).expect("shape")).is_err(), "{bad}");
    }
}

// ---------------------------------------------------------------------------
// Dice

#[test]
fn the_page_dice_placement_example() {
    // "Crisis tiles #41 (skull) on Venus, #44 (skull) on Mars, #42 on Mars.
    // The roll is skull, skull, skull: #41 and #44 get one die each, then
    // #41 a second. Venus is at level 3, Mars at level 3."
    let mut s = crisis_game(2, false);
    place(&mut s, Planet::Venus, 41);
    place(&mut s, Planet::Mars, 44);
    place(&mut s, Planet::Mars, 42);
    let tiles = place_skulls(&s, 3);
    assert_eq!(tiles, vec![tile(41), tile(44), tile(41)]);
    apply(&mut s, &Event::CrisisDicePlaced { tiles });
    assert_eq!(s.crisis_level(Planet::Venus), 3);
    assert_eq!(s.crisis_level(Planet::Mars), 3);
    // No skull-marked tile: the kept dice are not used.
    let mut t = crisis_game(2, false);
    place(&mut t, Planet::Mars, 42);
    assert!(place_skulls(&t, 2).is_empty());
}

#[test]
fn phase_four_rolls_sets_every_level_and_runs_on_to_the_next_period() {
    let mut s = crisis_game(2, false);
    place(&mut s, Planet::Ganymede, 44);
    let events = resolve(&s);
    let Some(Event::CrisisRolled { dice, .. }) = events.first() else {
        panic!("the roll comes first: {events:?}");
    };
    let placed = skulls(dice) > 0;
    assert_eq!(has(&events, |e| matches!(e, Event::CrisisDicePlaced { .. })), placed);
    assert!(has(
        &events,
        |e| matches!(e, Event::CrisisLevelsSet { levels } if levels.len() == 8)
    ));
    assert!(has(&events, |e| *e
        == Event::CrisisResolving {
            planet: Planet::Ganymede,
            level: 1 + skulls(dice)
        }));
    for e in &events {
        apply(&mut s, e);
    }
    // Income (a factory each: £2), reset, period 2 opened.
    assert_eq!(s.period, 2);
    assert_eq!(s.phase, Some(Phase::PlayerActions));
    assert!(s.crisis_dice.is_empty() && s.crisis_levels.is_empty());
    assert_eq!(s.money(Seat(0)), 12 + 2);
    assert_eq!(kinds(&s), vec![(Seat(0), "turn".to_string())]);
}

// ---------------------------------------------------------------------------
// Mercury

fn mercury_game() -> State {
    let mut s = crisis_game(3, false);
    piece(&mut s, 0, Planet::Mercury, Piece::Mine);
    units(&mut s, 1, Planet::Mars, UnitCounts::new(2, 0, 1));
    piece(&mut s, 2, Planet::Titan, Piece::Mine);
    s
}

#[test]
fn mercury_level_one_offers_power_a_to_the_income_leader() {
    let (s, _) = resolve_at(&mercury_game(), Planet::Mercury, 1);
    assert_eq!(kinds(&s), vec![(Seat(0), "power".to_string())]);
    assert_eq!(default_action(&s, Seat(0)), Some(Action::Power(PowerOrder::default())));
    let legal = rules::legal_actions(&s, Seat(0));
    assert!(legal.contains(&line("power")) && legal.contains(&line("power steal:2")));
    assert!(!legal.iter().any(|a| matches!(a, Action::Power(o) if o.kill.is_some())));
    assert!(matches!(
        rules::decide(&s, Seat(0), &line("power kill:2/tank/mars")),
        Err(Rejection::Illegal { .. })
    ));
    assert!(matches!(
        rules::decide(&s, Seat(1), &line("power")),
        Err(Rejection::NotYourDecision { .. })
    ));
    let hands = (s.hand_size(Seat(0)), s.hand_size(Seat(1)));
    let after = play(&s, Seat(0), "power steal:2");
    assert_eq!(
        (after.hand_size(Seat(0)), after.hand_size(Seat(1))),
        (hands.0 + 1, hands.1 - 1)
    );
    // £1 paid, then income (£3 mine + £2 factory).
    assert_eq!(after.money(Seat(0)), 12 - 1 + 5);
    assert_eq!(after.period, 2);
}

#[test]
fn mercury_level_two_and_three_add_kill_and_wreck() {
    let (s, _) = resolve_at(&mercury_game(), Planet::Mercury, 2);
    assert!(matches!(
        rules::decide(&s, Seat(0), &line("power wreck:3/mine/titan")),
        Err(Rejection::Illegal { .. })
    ));
    let after = play(&s, Seat(0), "power kill:2/tank/mars");
    assert_eq!(after.units_at(Seat(1), Planet::Mars), UnitCounts::new(2, 0, 0));
    let (s, _) = resolve_at(&mercury_game(), Planet::Mercury, 3);
    let after = play(&s, Seat(0), "power steal:3 kill:2/infantry/mars wreck:3/mine/titan");
    assert_eq!(after.holdings(Seat(2), Planet::Titan).mines, 0);
    assert_eq!(after.units_at(Seat(1), Planet::Mars), UnitCounts::new(1, 0, 1));
    assert_eq!(after.money(Seat(0)), 12 - 5 + 5);
    // Powers hit other players only; the money must be there.
    assert!(rules::decide(&s, Seat(0), &line("power kill:1/infantry/earth")).is_err());
    let mut poor = s.clone();
    set_money(&mut poor, 0, 3);
    assert!(rules::decide(&poor, Seat(0), &line("power kill:2/tank/mars wreck:3/mine/titan")).is_err());
    assert!(rules::decide(&poor, Seat(0), &line("power wreck:3/mine/titan")).is_ok());
}

#[test]
fn mercury_ties_and_empty_mercury_give_no_powers() {
    let mut s = mercury_game();
    piece(&mut s, 1, Planet::Mercury, Piece::Mine);
    let (after, events) = resolve_at(&s, Planet::Mercury, 3);
    assert!(!has(&events, |e| matches!(e, Event::MercuryPowersOffered { .. })));
    assert_eq!(after.period, 2);
    let (after, events) = resolve_at(&crisis_game(2, false), Planet::Mercury, 3);
    assert!(!has(&events, |e| matches!(e, Event::MercuryPowersOffered { .. })));
    assert_eq!(after.period, 2);
}

// ---------------------------------------------------------------------------
// Venus

#[test]
fn venus_level_two_takes_two_units_or_pieces_each() {
    let mut s = crisis_game(2, false);
    units(&mut s, 0, Planet::Venus, UnitCounts::new(3, 1, 0));
    units(&mut s, 1, Planet::Venus, UnitCounts::new(1, 0, 0));
    piece(&mut s, 1, Planet::Venus, Piece::Mine);
    let (after, _) = resolve_at(&s, Planet::Venus, 1);
    assert_eq!(after.period, 2, "level 1: nothing");
    let (s2, _) = resolve_at(&s, Planet::Venus, 2);
    // Seat 2's loss has one answer (its infantry and its mine): taken at once.
    assert_eq!(s2.units_at(Seat(1), Planet::Venus), UnitCounts::NONE);
    assert_eq!(s2.holdings(Seat(1), Planet::Venus).mines, 0);
    assert_eq!(kinds(&s2), vec![(Seat(0), "lose".to_string())]);
    assert_eq!(default_action(&s2, Seat(0)), Some(line("lose units:infantry,infantry")));
    let legal = rules::legal_actions(&s2, Seat(0));
    assert_eq!(
        legal,
        vec![line("lose units:infantry,infantry"), line("lose units:infantry,ship")]
    );
    assert!(rules::decide(&s2, Seat(0), &line("lose units:ship,ship")).is_err());
    assert!(rules::decide(&s2, Seat(0), &line("lose units:infantry")).is_err());
    let after = play(&s2, Seat(0), "lose units:ship,infantry");
    assert_eq!(after.period, 2);
    assert_eq!(after.units_at(Seat(0), Planet::Venus), UnitCounts::new(2, 0, 0));
}

#[test]
fn venus_level_four_wipes_and_flips() {
    let mut s = crisis_game(2, false);
    units(&mut s, 0, Planet::Venus, UnitCounts::new(3, 1, 0));
    piece(&mut s, 1, Planet::Venus, Piece::Mine);
    place(&mut s, Planet::Venus, 40);
    let (after, events) = resolve_at(&s, Planet::Venus, 4);
    assert!(has(&events, |e| *e == Event::PlanetFlipped { planet: Planet::Venus }));
    assert!(after.is_flipped(Planet::Venus));
    assert!(after.holdings(Seat(0), Planet::Venus).is_empty());
    assert!(after.holdings(Seat(1), Planet::Venus).is_empty());
    assert!(after.tiles_at(Planet::Venus).is_empty());
}

#[test]
fn auto_losses_takes_crisis_losses_by_the_loss_order() {
    let mut s = crisis_game(2, true);
    units(&mut s, 0, Planet::Venus, UnitCounts::new(1, 1, 1));
    let (after, events) = resolve_at(&s, Planet::Venus, 3);
    assert!(!has(&events, |e| matches!(e, Event::LossesDemanded { .. })));
    assert_eq!(after.units_at(Seat(0), Planet::Venus), UnitCounts::new(0, 1, 0));
    assert_eq!(after.period, 2);
}

// ---------------------------------------------------------------------------
// Earth

#[test]
fn earth_levels_two_and_three_hit_the_income_leaders() {
    let mut s = crisis_game(2, false);
    piece(&mut s, 0, HOME, Piece::Mine);
    let (after, _) = resolve_at(&s, HOME, 1);
    assert_eq!(after.period, 2);
    let (s2, _) = resolve_at(&s, HOME, 2);
    assert_eq!(kinds(&s2), vec![(Seat(0), "lose".to_string())]);
    assert_eq!(default_action(&s2, Seat(0)), Some(line("lose pieces:factory@earth")));
    let after = play(&s2, Seat(0), "lose pieces:mine");
    assert_eq!(after.holdings(Seat(0), HOME).mines, 0);
    assert_eq!(after.holdings(Seat(1), HOME).factories, 1, "not the leader");
    // Level 3, a tie: every tied player loses 2 (one factory each: at once).
    let (after, _) = resolve_at(&crisis_game(3, false), HOME, 3);
    for seat in after.seat_ids() {
        assert_eq!(after.holdings(seat, HOME).factories, 0);
    }
    assert_eq!(after.period, 2);
}

#[test]
fn robot_rebellion_at_level_four_makes_everyone_lose() {
    let (after, events) = resolve_at(&crisis_game(3, false), HOME, 4);
    let Some(Outcome::AllLose { reason }) = outcome(&after) else {
        panic!("everyone loses: {:?}", after.outcome);
    };
    assert!(reason.contains("Robot Rebellion"), "{reason}");
    assert!(matches!(events.last(), Some(Event::GameEnded { vp, .. }) if vp.is_empty()));
    assert!(rules::pending(&after).is_empty());
    assert_eq!(rules::decide(&after, Seat(0), &line("power")), Err(Rejection::GameOver));
}

#[test]
fn aliens_reaching_earth_make_everyone_lose() {
    let mut s = start_with(&config(2, 3, false));
    apply(
        &mut s,
        &Event::AlienPlaced {
            alien: AlienTile::A3,
            planet: Planet::Moon,
        },
    );
    let first = s.turn_seat().expect("turn");
    let s = play(&s, first, "buy units:infantry");
    let s = play(&s, s.next_seat(first), "buy units:infantry");
    let Some(Outcome::AllLose { reason }) = outcome(&s) else {
        panic!("everyone loses: {:?}", s.outcome);
    };
    assert!(reason.contains("reached Earth"), "{reason}");
}

#[test]
fn the_page_damage_to_earth_example() {
    // "damage 8 (3, 5, skull). A (First Player) has 2 units and 1 factory
    // at Earth, B has 5 units and 1 factory, C has only 1 factory. Hits go
    // A, B, C, A, B, A, B, B: A loses 2 units and the factory, B 4 units, C
    // its factory."
    let mut s = crisis_game(3, false);
    clear_earth(&mut s, 0);
    clear_earth(&mut s, 1);
    clear_earth(&mut s, 2);
    units(&mut s, 0, HOME, UnitCounts::new(2, 0, 0));
    piece(&mut s, 0, HOME, Piece::Factory);
    units(&mut s, 1, HOME, UnitCounts::new(3, 2, 0));
    piece(&mut s, 1, HOME, Piece::Factory);
    piece(&mut s, 2, HOME, Piece::Factory);
    let hits = damage_hits(&s, 8);
    assert_eq!(hits, BTreeMap::from([(Seat(0), 3), (Seat(1), 4), (Seat(2), 1)]));
    let demand = |seat: u8, count| LossDemand {
        seat: Seat(seat),
        count,
        kind: LossKind::UnitsThenPieces,
        planets: vec![HOME],
    };
    assert_eq!(
        default_lose(&s, &demand(0, 3)),
        LoseOrder {
            units: vec![UnitKind::Infantry, UnitKind::Infantry],
            pieces: vec![PieceAt {
                piece: Piece::Factory,
                planet: Some(HOME)
            }],
        }
    );
    assert_eq!(loss_sizes(&s, &demand(1, 4)), (4, 0));
    assert_eq!(loss_sizes(&s, &demand(2, 1)), (0, 1));
    // Everything gets hit, then the damage stops when Earth is empty.
    let total: u32 = damage_hits(&s, 15).values().sum();
    assert_eq!(total, 3 + 6 + 1);
    // Player order starts from the First Player.
    apply(&mut s, &Event::FirstPlayerMarkerTaken { seat: Seat(2) });
    assert_eq!(damage_hits(&s, 2), BTreeMap::from([(Seat(0), 1), (Seat(2), 1)]));
}

// ---------------------------------------------------------------------------
// Moon, Mars, Ganymede

#[test]
fn moon_level_four_flips_it_and_damages_earth() {
    let mut s = crisis_game(2, true);
    units(&mut s, 0, Planet::Moon, UnitCounts::new(2, 0, 0));
    let (after, _) = resolve_at(&s, Planet::Moon, 3);
    assert!(!after.is_flipped(Planet::Moon));
    let (after, events) = resolve_at(&s, Planet::Moon, 4);
    assert!(after.is_flipped(Planet::Moon));
    assert!(after.holdings(Seat(0), Planet::Moon).is_empty());
    let damage = events
        .iter()
        .find_map(|e| match e {
            Event::DamageRolled { damage, dice, .. } => {
                assert_eq!(*damage, dice_total(dice));
                Some(*damage)
            }
            _ => None,
        })
        .expect("damage rolled");
    let lost: u32 = events
        .iter()
        .map(|e| match e {
            Event::UnitsLost {
                planet: HOME,
                ready,
                spent,
                ..
            } => ready.total() + spent.total(),
            Event::PieceLost { planet: HOME, .. } => 1,
            _ => 0,
        })
        .sum();
    assert_eq!(lost, damage.min(2 * (6 + 1)));
}

#[test]
fn mars_levels() {
    let mut s = crisis_game(2, false);
    piece(&mut s, 0, Planet::Mars, Piece::Mine);
    piece(&mut s, 0, Planet::Mars, Piece::Factory);
    piece(&mut s, 1, Planet::Mars, Piece::Mine);
    let (after, _) = resolve_at(&s, Planet::Mars, 1);
    assert_eq!(after.period, 2);
    let (s2, _) = resolve_at(&s, Planet::Mars, 2);
    assert_eq!(kinds(&s2), vec![(Seat(0), "lose".to_string())]);
    let after = play(&s2, Seat(0), "lose pieces:mine@mars");
    assert_eq!(after.holdings(Seat(0), Planet::Mars).mines, 0);
    assert_eq!(after.holdings(Seat(1), Planet::Mars).mines, 1);
    let mut s4 = s.clone();
    s4.options.auto_losses = true;
    let (after, events) = resolve_at(&s4, Planet::Mars, 5);
    assert!(after.is_flipped(Planet::Mars));
    assert!(has(&events, |e| matches!(
        e,
        Event::DamageRolled {
            planet: Planet::Mars,
            ..
        }
    )));
}

#[test]
fn ganymede_never_does_anything() {
    let mut s = crisis_game(2, false);
    units(&mut s, 0, Planet::Ganymede, UnitCounts::new(2, 0, 0));
    piece(&mut s, 0, Planet::Ganymede, Piece::Mine);
    let (after, events) = resolve_at(&s, Planet::Ganymede, 6);
    let resolving = events
        .iter()
        .position(|e| matches!(e, Event::CrisisResolving { .. }))
        .expect("resolving");
    assert_eq!(events.get(resolving + 1), Some(&Event::CrisisDiceReturned));
    assert_eq!(
        after.holdings(Seat(0), Planet::Ganymede),
        s.holdings(Seat(0), Planet::Ganymede)
    );
}

// ---------------------------------------------------------------------------
// Titan, Kuiper Belt

#[test]
fn titan_pirates_collect_and_take_unpaid_pieces() {
    let mut s = crisis_game(2, false);
    piece(&mut s, 0, Planet::Titan, Piece::Mine);
    piece(&mut s, 0, Planet::Titan, Piece::Mine);
    piece(&mut s, 0, Planet::KuiperBelt, Piece::Mine);
    piece(&mut s, 1, Planet::Ganymede, Piece::Factory);
    set_money(&mut s, 0, 1);
    // Level 2: Titan only; £1 paid, one mine lost (one answer: at once).
    let (after, events) = resolve_at(&s, Planet::Titan, 2);
    assert!(has(&events, |e| *e
        == Event::MoneyPaid {
            seat: Seat(0),
            amount: 1,
            reason: MoneyReason::Pirates
        }));
    assert_eq!(after.holdings(Seat(0), Planet::Titan).mines, 1);
    assert_eq!(after.holdings(Seat(0), Planet::KuiperBelt).mines, 1);
    assert_eq!(after.period, 2);
    // Level 3+: Titan, Ganymede and the Kuiper Belt; £1 for 3 pieces.
    let (s3, _) = resolve_at(&s, Planet::Titan, 3);
    assert_eq!(s3.money(Seat(1)), 12 - 1);
    assert_eq!(kinds(&s3), vec![(Seat(0), "lose".to_string())]);
    assert_eq!(
        default_action(&s3, Seat(0)),
        Some(line("lose pieces:mine@kuiper,mine@titan")),
        "Kuiper Belt first, then Titan"
    );
    let after = play(&s3, Seat(0), "lose pieces:mine@titan,mine@titan");
    assert_eq!(after.holdings(Seat(0), Planet::KuiperBelt).mines, 1);
    assert_eq!(after.holdings(Seat(0), Planet::Titan).mines, 0);
}

#[test]
fn kuiper_level_three_invades_once() {
    let mut s = crisis_game(2, false);
    units(&mut s, 0, Planet::Titan, UnitCounts::new(2, 1, 0));
    piece(&mut s, 1, Planet::Ganymede, Piece::Mine);
    let (after, _) = resolve_at(&s, Planet::KuiperBelt, 2);
    assert!(after.aliens.is_empty());
    let (after, _) = resolve_at(&s, Planet::KuiperBelt, 3);
    assert_eq!(after.aliens.get(&AlienTile::A1), Some(&Planet::KuiperBelt));
    assert_eq!(after.aliens.get(&AlienTile::A2), Some(&Planet::Titan));
    assert_eq!(after.aliens.get(&AlienTile::A3), Some(&Planet::Ganymede));
    assert!(after.holdings(Seat(0), Planet::Titan).is_empty());
    assert!(after.holdings(Seat(1), Planet::Ganymede).is_empty());
    // Period 2: no tiles on invaded planets.
    assert!(after.tiles_at(Planet::Titan).is_empty());
    // Once per game.
    let mut again = after.clone();
    apply(&mut again, &Event::PhaseBegan { phase: Phase::Crises });
    apply(
        &mut again,
        &Event::AlienDestroyed {
            seat: Seat(0),
            alien: AlienTile::A1,
            planet: Planet::KuiperBelt,
        },
    );
    let (later, events) = resolve_at(&again, Planet::KuiperBelt, 4);
    assert!(!has(&events, |e| matches!(e, Event::AlienPlaced { .. })));
    assert!(!later.aliens.contains_key(&AlienTile::A1));
}

// ---------------------------------------------------------------------------
// Scoring

#[test]
fn the_page_mars_scoring_example_and_ties() {
    // "Mars (6 / 3 / 1), 4 players: incomes A 5, B 5, C 2, D 0 → A and B
    // score 6, C 3, D nothing."
    let mut s = crisis_game(4, false);
    for seat in [0, 1] {
        piece(&mut s, seat, Planet::Mars, Piece::Mine);
        piece(&mut s, seat, Planet::Mars, Piece::Factory);
    }
    piece(&mut s, 2, Planet::Mars, Piece::Factory);
    assert_eq!(planet_vp(&s, Planet::Mars), vec![6, 6, 3, 0]);
    // Every place the planet shows scores, with 3 players and with 2.
    let mut t = crisis_game(3, false);
    piece(&mut t, 0, Planet::Venus, Piece::Mine);
    piece(&mut t, 1, Planet::Venus, Piece::Factory);
    assert_eq!(planet_vp(&t, Planet::Venus), vec![5, 3, 0]);
    piece(&mut t, 2, Planet::Venus, Piece::Factory);
    assert_eq!(planet_vp(&t, Planet::Venus), vec![5, 3, 3]);
    piece(&mut t, 1, Planet::Venus, Piece::Factory);
    assert_eq!(planet_vp(&t, Planet::Venus), vec![3, 5, 1]);
    let mut u = crisis_game(2, false);
    piece(&mut u, 0, Planet::Titan, Piece::Mine);
    piece(&mut u, 1, Planet::Titan, Piece::Factory);
    assert_eq!(planet_vp(&u, Planet::Titan), vec![4, 2]);
    // Earth: everyone starts tied 1st.
    assert_eq!(planet_vp(&u, HOME), vec![7, 7]);
}

#[test]
fn score_adds_planets_and_kept_tiles() {
    let mut s = crisis_game(2, false);
    piece(&mut s, 0, Planet::Mars, Piece::Mine);
    apply(
        &mut s,
        &Event::TilesDrawn {
            planet: Planet::Mars,
            tiles: vec![tile(34), tile(40)],
        },
    );
    for t in [34, 40] {
        apply(
            &mut s,
            &Event::TileClaimed {
                seat: Seat(1),
                planet: Planet::Mars,
                tile: tile(t),
            },
        );
    }
    apply(
        &mut s,
        &Event::AlienDestroyed {
            seat: Seat(1),
            alien: AlienTile::A2,
            planet: Planet::Titan,
        },
    );
    // Earth 7 each; Mars 6 for seat 1; seat 2: 1 + 1 + 2.
    assert_eq!(score(&s), vec![13, 11]);
}

#[test]
fn tie_breaks() {
    let mut s = crisis_game(3, false);
    apply(&mut s, &Event::FirstPlayerMarkerTaken { seat: Seat(2) });
    assert!(matches!(winner(&s, &[9, 8, 1]), Outcome::Winner { seat: Seat(0), .. }));
    // 1. the First Player marker.
    assert!(matches!(winner(&s, &[9, 1, 9]), Outcome::Winner { seat: Seat(2), .. }));
    // 2. mines + factories on the board.
    piece(&mut s, 1, Planet::Mars, Piece::Mine);
    let Outcome::Winner { seat, reason } = winner(&s, &[9, 9, 1]) else {
        panic!("a winner");
    };
    assert_eq!(seat, Seat(1));
    assert!(reason.contains("mines and factories"), "{reason}");
    // 3. VP from kept tiles.
    piece(&mut s, 0, Planet::Mars, Piece::Mine);
    apply(
        &mut s,
        &Event::AlienDestroyed {
            seat: Seat(0),
            alien: AlienTile::A1,
            planet: Planet::Titan,
        },
    );
    assert!(matches!(winner(&s, &[9, 9, 1]), Outcome::Winner { seat: Seat(0), .. }));
    // 4. still tied: shared.
    apply(
        &mut s,
        &Event::AlienDestroyed {
            seat: Seat(1),
            alien: AlienTile::A2,
            planet: Planet::Titan,
        },
    );
    assert_eq!(winner(&s, &[9, 9, 1]).winners(), vec![Seat(0), Seat(1)]);
    assert!(matches!(winner(&s, &[9, 9, 1]), Outcome::Shared { .. }));
}

#[test]
fn period_three_ends_with_the_scores() {
    let mut s = crisis_game(2, false);
    apply(&mut s, &Event::PeriodBegan { period: 3 });
    apply(&mut s, &Event::PhaseBegan { phase: Phase::Crises });
    piece(&mut s, 1, HOME, Piece::Mine);
    let (after, events) = resolve_at(&s, Planet::Ganymede, 1);
    assert!(has(&events, |e| *e == Event::PeriodEnded { period: 3 }));
    // Earth: seat 2 1st (mine and factory), seat 1 2nd (factory).
    assert_eq!(after.final_vp, vec![4, 7]);
    assert!(matches!(outcome(&after), Some(Outcome::Winner { seat: Seat(1), .. })));
    assert!(rules::pending(&after).is_empty());
}

// ---------------------------------------------------------------------------
// Deadlines

#[test]
fn defaults_at_deadlines() {
    let s = start_with(&config(2, 1, false));
    let first = s.turn_seat().expect("turn");
    assert_eq!(rules::default_action(&s, first), Some(Action::Pass));
    assert_eq!(rules::default_action(&s, s.next_seat(first)), None);
    // Every default is accepted by decide, in every decision of a playout.
    let (s, _) = resolve_at(&mercury_game(), Planet::Mercury, 3);
    let a = rules::default_action(&s, Seat(0)).expect("power");
    let after = play(&s, Seat(0), &unparse(&a).to_string());
    assert_eq!(after.money(Seat(0)), 12 + 5, "no power used");
    let mut v = crisis_game(3, false);
    for seat in 0..3 {
        units(&mut v, seat, Planet::Venus, UnitCounts::new(1, 1, 1));
    }
    let (v2, _) = resolve_at(&v, Planet::Venus, 2);
    assert_eq!(rules::pending(&v2).len(), 3, "all at the same time");
    let mut w = v2.clone();
    for seat in w.seat_ids().collect::<Vec<_>>() {
        let a = rules::default_action(&w, seat).expect("lose");
        assert_eq!(a, line("lose units:infantry,tank"));
        for e in rules::decide(&w, seat, &a).expect("default") {
            apply(&mut w, &e);
        }
    }
    assert_eq!(w.period, 2);
    for seat in w.seat_ids() {
        assert_eq!(w.units_at(seat, Planet::Venus), UnitCounts::new(0, 1, 0));
    }
}

// ---------------------------------------------------------------------------
// Whole games

/// One seeded random game from set-up to its end: every decision answered
/// by a random legal action (the deadline default where none is listed).
fn playout(players: u8, seed: u64, check_all: bool, seen: &mut BTreeMap<String, u32>) -> (State, Vec<Event>) {
    let c = config(players, seed, seed % 5 == 0);
    let mut log = setup::setup(&c).expect("set-up");
    let mut s = events::fold(&log);
    let open = open_period(&s);
    for e in &open {
        apply(&mut s, e);
    }
    log.extend(open);
    let mut rng = GameRng::seeded(seed ^ 0xC1515);
    let mut steps = 0u32;
    while !s.is_over() {
        let pending = rules::pending(&s);
        let Some(p) = pending.first() else {
            panic!(
                "{players}p seed {seed}: nothing pending and no outcome in {:?}",
                s.phase
            );
        };
        *seen.entry(p.kind.clone()).or_insert(0) += 1;
        let legal = rules::legal_actions(&s, p.seat);
        if check_all && s.phase == Some(Phase::Crises) {
            for a in &legal {
                let text = unparse(a);
                assert_eq!(parse(&text).as_ref(), Ok(a), "{text}");
                assert!(rules::decide(&s, p.seat, a).is_ok(), "{text}");
            }
        }
        let a = match rng.pick(&legal) {
            Some(a) => a.clone(),
            None => rules::default_action(&s, p.seat).expect("a default"),
        };
        let events = rules::decide(&s, p.seat, &a).unwrap_or_else(|e| panic!("{players}p seed {seed}: {a:?}: {e}"));
        for e in &events {
            apply(&mut s, e);
        }
        log.extend(events);
        steps += 1;
        assert!(steps < 10_000, "{players}p seed {seed}: no end");
    }
    (s, log)
}

#[test]
fn random_games_always_end_with_an_outcome_and_replay() {
    let mut ends = BTreeMap::new();
    let mut seen = BTreeMap::new();
    for players in 2..=5u8 {
        for seed in 0..100u64 {
            let (s, log) = playout(players, seed, seed % 10 == 0, &mut seen);
            let o = outcome(&s).expect("an outcome");
            *ends
                .entry(match o {
                    Outcome::Winner { .. } => "winner",
                    Outcome::Shared { .. } => "shared",
                    Outcome::AllLose { .. } => "all lose",
                })
                .or_insert(0) += 1;
            if !matches!(o, Outcome::AllLose { .. }) {
                assert_eq!(s.period, PERIODS);
                assert_eq!(s.final_vp.len(), usize::from(players));
            }
            assert_eq!(
                events::fold(&log),
                s,
                "{players}p seed {seed}: the fold replays the game"
            );
            assert!(rules::pending(&s).is_empty());
        }
    }
    assert!(ends.get("winner").copied().unwrap_or(0) > 0, "{ends:?}");
    // The games reach every kind of decision.
    for kind in ["turn", "pay", "power", "lose"] {
        assert!(seen.get(kind).copied().unwrap_or(0) > 0, "{kind}: {seen:?}");
    }
}
