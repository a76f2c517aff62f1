use super::*;
use orrery_engine::{CommandLine, GameConfig, GameRng};

use crate::solar::basics::board::UnitKind;
use crate::solar::basics::tiles::TileRef;
use crate::solar::events::apply;
use crate::solar::orders::{parse, unparse};
use crate::solar::rules::{decide, default_action, legal_actions, pending};
use crate::solar::setup::open_period;
use crate::solar::state::TensionTarget;
use crate::solar::tests::kit::{board_with, give, line, play, rolled, start, tile};
use crate::solar::{events, setup, state};
use std::collections::BTreeMap;

fn play_text(s: &State, seat: u8, text: &str) -> State {
    play(s, Seat(seat), text)
}

fn refuse(s: &State, seat: u8, text: &str) -> String {
    match decide(s, Seat(seat), &line(text)) {
        Err(Rejection::Illegal { reason, .. }) => reason,
        other => panic!("{text}: expected Illegal, got {other:?}"),
    }
}

/// A 2-player game in Phase 3, seat 1's turn and First Player, no tiles on
/// the board but `tiles`, and both hands emptied.
fn scenario(tiles: &[(Planet, u8)]) -> State {
    let mut s = start(2, 7);
    board_with(&mut s, tiles);
    for seat in [Seat(0), Seat(1)] {
        let hand = s.seat(seat).map(|x| x.hand.clone()).unwrap_or_default();
        apply(&mut s, &Event::CardsDiscarded { seat, cards: hand });
    }
    apply(&mut s, &Event::TurnBegan { seat: Seat(0) });
    apply(&mut s, &Event::FirstPlayerMarkerTaken { seat: Seat(0) });
    s
}

fn cards(s: &mut State, seat: u8, cards: &[CardId]) {
    apply(
        s,
        &Event::CardsDrawn {
            seat: Seat(seat),
            cards: cards.to_vec(),
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

fn hand(s: &State, seat: u8) -> Vec<CardId> {
    s.seat(Seat(seat)).map(|x| x.hand.clone()).unwrap_or_default()
}

/// A claim of Mine #10 (defence 2) at Mars rolled 4, skull, 2 (cost 6),
/// seat 1 with 2 infantry, 1 tank and 1 spaceship there and `held` in hand.
fn mars_claim(held: &[CardId]) -> State {
    let mut s = scenario(&[(Planet::Mars, 10)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(2, 1, 1));
    cards(&mut s, 0, held);
    rolled(s, Planet::Mars, TileRef::Bag(tile(10)), None, 2, [4, 0, 2])
}

// ---------------------------------------------------------------------------
// Text

#[test]
fn card_orders_round_trip_through_text() {
    for text in [
        "play card:mercenaries",
        "play card:recalibrate die:2",
        "play card:garrison at:mars",
        "play card:crisis-team tile:41",
        "play card:agitators tile:41 to:moon",
        "play card:survey at:titan",
        "play card:saboteurs player:2 piece:mine at:mars",
        "play card:espionage player:3",
        "play card:emergency-powers tile:44",
        "play card:reserve-funds",
        "end",
        "take card:elite-troops",
        "discard cards:mercenaries,trade-deal",
    ] {
        let a = line(text);
        assert_eq!(unparse(&a).to_string(), text);
    }
    // Names and codes, any spelling.
    assert_eq!(line("play card:\"Orbital Bombardment\""), line("play card:2"));
    assert_eq!(line("take card:O2"), line("take card:elitetroops"));
}

#[test]
fn card_parse_errors_explain_themselves() {
    for (text, needle) in [
        ("play", "card"),
        ("play card:nope", "unknown card"),
        ("play card:recalibrate", "`die`"),
        ("play card:recalibrate die:4", "die 1, 2 or 3"),
        ("play card:mercenaries at:mars", "does not take"),
        ("play card:crisis-team tile:A1", "Alien"),
        ("discard cards:", "at least one"),
        ("end now:1", "does not take"),
    ] {
        let err = parse(&CommandLine::parse(text).expect("shape")).expect_err(text);
        assert!(err.message.contains(needle), "{text}: {}", err.message);
    }
}

// ---------------------------------------------------------------------------
// Claim Benefits

#[test]
fn the_page_example_mercenaries_tank_and_infantry_pay_six() {
    let s = mars_claim(&[CardId::Mercenaries]);
    assert_eq!(s.claim().map(|c| c.cost()), Some(6));
    // Without the card, 1 tank and 2 infantry (4 CP) do not pay 6.
    assert!(refuse(&s, 0, "pay tanks:1 infantry:2").contains("costs 6"));
    let s = play_text(&s, 0, "play card:mercenaries");
    assert!(hand(&s, 0).is_empty());
    assert_eq!(s.discard.last(), Some(&CardId::Mercenaries));
    let s = play_text(&s, 0, "pay tanks:1 infantry:2");
    assert_eq!(s.holdings(Seat(0), Planet::Mars).mines, 1);
}

#[test]
fn claim_benefits_only_while_owing_pay() {
    let mut s = scenario(&[(Planet::Mars, 10)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(2, 1, 0));
    cards(
        &mut s,
        0,
        &[
            CardId::Mercenaries,
            CardId::OrbitalBombardment,
            CardId::Recalibrate,
            CardId::FieldMedics,
            CardId::PerfectPlan,
            CardId::EliteTroops,
        ],
    );
    for text in [
        "play card:mercenaries",
        "play card:orbital-bombardment",
        "play card:recalibrate die:1",
        "play card:field-medics",
        "play card:perfect-plan",
        "play card:elite-troops",
    ] {
        assert!(refuse(&s, 0, text).contains("claim Benefit"), "{text}");
    }
}

#[test]
fn orbital_bombardment_needs_a_spaceship_there() {
    let s = mars_claim(&[CardId::OrbitalBombardment]);
    let s2 = play_text(&s, 0, "play card:orbital-bombardment");
    assert_eq!(s2.claim().map(|c| c.card_cp()), Some(3));
    let mut s = scenario(&[(Planet::Mars, 10)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(2, 0, 1));
    cards(&mut s, 0, &[CardId::OrbitalBombardment]);
    let s = rolled(s, Planet::Mars, TileRef::Bag(tile(10)), None, 2, [4, 0, 2]);
    assert!(refuse(&s, 0, "play card:orbital-bombardment").contains("spaceship"));
}

#[test]
fn recalibrate_rerolls_one_die_and_the_cost_follows() {
    let s = mars_claim(&[CardId::Recalibrate, CardId::Recalibrate]);
    let before = s.claim().and_then(|c| c.dice).expect("dice");
    let s = play_text(&s, 0, "play card:recalibrate die:2");
    let after = s.claim().and_then(|c| c.dice).expect("dice");
    assert_eq!(before[0], after[0]);
    assert_eq!(before[2], after[2]);
    let c = s.claim().expect("claim");
    assert_eq!(c.cost(), state::dice_spread(&after) + 2);
    // Illegal outside a claim.
    let mut t = scenario(&[]);
    cards(&mut t, 0, &[CardId::Recalibrate]);
    assert!(refuse(&t, 0, "play card:recalibrate die:2").contains("claim Benefit"));
}

#[test]
fn field_medics_and_elite_troops_cancel_casualties() {
    // skull, skull, 3 against Mine #10: 2 casualties.
    let mut s = scenario(&[(Planet::Mars, 10)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(5, 1, 0));
    cards(&mut s, 0, &[CardId::FieldMedics, CardId::EliteTroops]);
    let s = rolled(s, Planet::Mars, TileRef::Bag(tile(10)), None, 2, [0, 0, 3]);
    let s = play_text(&s, 0, "play card:field-medics");
    assert_eq!(s.claim().map(|c| c.casualties()), Some(0));
    let s = play_text(&s, 0, "play card:elite-troops");
    assert_eq!(s.claim().map(|c| c.card_cp()), Some(3));
    // Cost 3 + 2 = 5; 3 CP from Elite Troops, 2 infantry pay the rest.
    let s = play_text(&s, 0, "pay infantry:2");
    assert_eq!(s.units_at(Seat(0), Planet::Mars).total(), 6);
}

#[test]
fn infiltrators_halve_a_tension_defence_once() {
    let mut s = scenario(&[(Planet::Mars, 50)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(3, 1, 0));
    give(&mut s, 1, Planet::Mars, UnitCounts::new(5, 0, 0));
    piece(&mut s, 1, Planet::Mars, Piece::Mine);
    cards(&mut s, 0, &[CardId::Infiltrators, CardId::Infiltrators]);
    let target = Some(state::TensionTarget {
        seat: Seat(1),
        piece: Piece::Mine,
    });
    let s = rolled(s, Planet::Mars, TileRef::Bag(tile(50)), target, 5, [3, 3, 3]);
    let s = play_text(&s, 0, "play card:infiltrators");
    assert_eq!(s.claim().map(|c| c.cost()), Some(2));
    assert!(refuse(&s, 0, "play card:infiltrators").contains("at most one"));
    let s = mars_claim(&[CardId::Infiltrators]);
    assert!(refuse(&s, 0, "play card:infiltrators").contains("Tension"));
}

#[test]
fn perfect_plan_drops_the_dice_from_the_cost() {
    let s = mars_claim(&[CardId::PerfectPlan]);
    let s = play_text(&s, 0, "play card:perfect-plan");
    assert_eq!(s.claim().map(|c| c.cost()), Some(2));
    assert_eq!(s.claim().map(|c| c.casualties()), Some(1));
    let mut t = scenario(&[]);
    cards(&mut t, 0, &[CardId::PerfectPlan]);
    assert!(refuse(&t, 0, "play card:perfect-plan").contains("claim Benefit"));
}

#[test]
fn trophy_hunters_only_for_alien_or_tension() {
    let mut s = scenario(&[(Planet::Mars, 50)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(2, 1, 0));
    piece(&mut s, 1, Planet::Mars, Piece::Mine);
    cards(&mut s, 0, &[CardId::TrophyHunters]);
    let target = TensionTarget {
        seat: Seat(1),
        piece: Piece::Mine,
    };
    let s = rolled(s, Planet::Mars, TileRef::Bag(tile(50)), Some(target), 2, [4, 0, 2]);
    let s = play_text(&s, 0, "play card:trophy-hunters");
    assert_eq!(s.claim().map(|c| c.card_cp()), Some(4));
    let s = mars_claim(&[CardId::TrophyHunters]);
    assert!(refuse(&s, 0, "play card:trophy-hunters").contains("Alien or Tension"));
}

// ---------------------------------------------------------------------------
// Move and Buy Benefits

#[test]
fn afterburners_and_rapid_deployment_reach_three_planets() {
    let mut s = scenario(&[(Planet::Ganymede, 1)]);
    give(&mut s, 0, Planet::Earth, UnitCounts::new(0, 0, 1));
    cards(&mut s, 0, &[CardId::Afterburners, CardId::RapidDeployment]);
    assert!(refuse(&s, 0, "move from:earth to:titan ships:1").contains("moves 1 to 2"));
    let a = play_text(&s, 0, "play card:afterburners");
    let a = play_text(&a, 0, "move from:earth to:titan ships:1");
    assert_eq!(a.ready_units(Seat(0), Planet::Titan).spaceship, 1);
    // Rapid Deployment: range 3 and tanks, and a 2-planet move may claim.
    let r = play_text(&s, 0, "play card:rapid-deployment");
    let r = play_text(&r, 0, "move from:earth to:ganymede ships:1 tanks:1 claim:1");
    assert_eq!(r.holdings(Seat(0), Planet::Ganymede).mines, 1);
    assert_eq!(r.units_at(Seat(0), Planet::Ganymede).tank, 1);
    // Illegal during a claim's pay.
    let p = mars_claim(&[CardId::Afterburners]);
    assert!(refuse(&p, 0, "play card:afterburners").contains("before your action"));
}

#[test]
fn heavy_lift_lets_tanks_move() {
    let mut s = scenario(&[]);
    give(&mut s, 0, Planet::Earth, UnitCounts::new(0, 0, 2));
    cards(&mut s, 0, &[CardId::HeavyLift]);
    assert!(refuse(&s, 0, "move from:earth to:mars ships:1 tanks:2").contains("tanks never move"));
    let s = play_text(&s, 0, "play card:heavy-lift");
    let s = play_text(&s, 0, "move from:earth to:mars ships:1 tanks:2");
    assert_eq!(s.ready_units(Seat(0), Planet::Mars).tank, 2);
    let p = mars_claim(&[CardId::HeavyLift]);
    assert!(refuse(&p, 0, "play card:heavy-lift").contains("before your action"));
}

#[test]
fn war_bonds_buy_three_units_a_pound_cheaper() {
    let s = scenario(&[]);
    let mut s = s;
    cards(&mut s, 0, &[CardId::WarBonds]);
    assert!(refuse(&s, 0, "buy units:infantry,infantry,infantry").contains("1 to 2"));
    let money = s.money(Seat(0));
    let s = play_text(&s, 0, "play card:war-bonds");
    let s = play_text(&s, 0, "buy units:infantry,tank,ship");
    assert_eq!(s.money(Seat(0)), money - (1 + 2 + 3));
    let p = mars_claim(&[CardId::WarBonds]);
    assert!(refuse(&p, 0, "play card:war-bonds").contains("before your action"));
}

// ---------------------------------------------------------------------------
// Free Actions

#[test]
fn money_cards_pay_and_may_be_played_while_owing_pay() {
    let s = mars_claim(&[CardId::TradeDeal, CardId::ReserveFunds, CardId::TaxCollection]);
    let money = s.money(Seat(0));
    let s = play_text(&s, 0, "play card:trade-deal");
    let s = play_text(&s, 0, "play card:reserve-funds");
    assert_eq!(s.money(Seat(0)), money + 7);
    // Still owing pay.
    assert_eq!(pending(&s).first().map(|p| p.kind.as_str()), Some("pay"));
    assert!(refuse(&s, 0, "play card:trade-deal").contains("do not hold"));
    let mut t = scenario(&[]);
    piece(&mut t, 0, Planet::Mars, Piece::Mine);
    piece(&mut t, 0, Planet::Venus, Piece::Factory);
    piece(&mut t, 0, Planet::Venus, Piece::Mine);
    cards(&mut t, 0, &[CardId::TaxCollection]);
    let m = t.money(Seat(0));
    let t = play_text(&t, 0, "play card:tax-collection");
    // Mars, Venus, and Earth (the factory of set-up).
    assert_eq!(t.money(Seat(0)), m + 3);
    // Free Actions do not use the action: still seat 1's turn.
    assert_eq!(t.turn_seat(), Some(Seat(0)));
}

#[test]
fn intelligence_report_draws_two_and_the_hand_limit_asks_for_a_discard() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::IntelligenceReport]);
    let s2 = play_text(&s, 0, "play card:intelligence-report");
    assert_eq!(s2.hand_size(Seat(0)), 2);
    // At 9 cards it takes the hand to 10.
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::IntelligenceReport]);
    cards(&mut s, 0, &[CardId::Mercenaries; 8]);
    let s = play_text(&s, 0, "play card:intelligence-report");
    assert_eq!(s.hand_size(Seat(0)), 10);
    let p = pending(&s);
    assert_eq!(p.len(), 1);
    assert_eq!(p.first().map(|p| p.kind.as_str()), Some("discard"));
    assert!(refuse(&s, 0, "pass").contains("discard"));
    assert!(refuse(&s, 0, "discard cards:mercenaries,mercenaries").contains("exactly 1"));
    // The default: the most recently gained card.
    let last = hand(&s, 0).last().copied().expect("a card");
    assert_eq!(default_action(&s, Seat(0)), Some(Action::Discard(vec![last])));
    let s = play_text(&s, 0, "discard cards:mercenaries");
    assert_eq!(s.hand_size(Seat(0)), 9);
    assert_eq!(pending(&s).first().map(|p| p.kind.as_str()), Some("turn"));
}

#[test]
fn the_discard_default_takes_the_last_gained_first() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::Mercenaries; 9]);
    cards(&mut s, 0, &[CardId::Survey, CardId::Overtime]);
    assert_eq!(
        default_action(&s, Seat(0)),
        Some(Action::Discard(vec![CardId::Overtime, CardId::Survey]))
    );
    let legal = legal_actions(&s, Seat(0));
    assert!(legal.len() <= MAX_DISCARDS);
    for a in &legal {
        assert!(decide(&s, Seat(0), a).is_ok(), "{a:?}");
    }
    // Seat 2 waits.
    assert!(matches!(
        decide(&s, Seat(1), &Action::Pass),
        Err(Rejection::NotYourDecision { .. })
    ));
}

#[test]
fn requisition_places_infantry_from_the_supply() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::Requisition]);
    let before = s.ready_units(Seat(0), HOME).infantry;
    let s2 = play_text(&s, 0, "play card:requisition");
    assert_eq!(s2.ready_units(Seat(0), HOME).infantry, before + 2);
    let left = s.units_in_supply(Seat(0), UnitKind::Infantry);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(left, 0, 0));
    assert!(refuse(&s, 0, "play card:requisition").contains("none left"));
}

#[test]
fn garrison_places_a_tank_at_earth_or_a_piece() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::Garrison]);
    assert!(refuse(&s, 0, "play card:garrison at:mars").contains("Earth or where"));
    piece(&mut s, 0, Planet::Mars, Piece::Factory);
    let s = play_text(&s, 0, "play card:garrison at:mars");
    assert_eq!(s.ready_units(Seat(0), Planet::Mars).tank, 1);
}

#[test]
fn overtime_returns_a_cube_taken_this_period() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::Overtime]);
    assert!(refuse(&s, 0, "play card:overtime").contains("no Pass cube"));
    apply(&mut s, &Event::Passed { seat: Seat(1) });
    let cubes = s.cubes_left();
    let s = play_text(&s, 0, "play card:overtime");
    assert_eq!(s.cubes_left(), cubes + 1);
}

#[test]
fn double_time_gives_an_extra_action_and_end_skips_it() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::DoubleTime, CardId::DoubleTime]);
    let s = play_text(&s, 0, "play card:double-time");
    let s = play_text(&s, 0, "buy units:infantry");
    assert_eq!(s.turn_seat(), Some(Seat(0)));
    assert_eq!(pending(&s).first().map(|p| p.kind.as_str()), Some("turn"));
    // The extra action may not be pass; the default is `end`.
    assert!(refuse(&s, 0, "pass").contains("may not be `pass`"));
    assert_eq!(default_action(&s, Seat(0)), Some(Action::End));
    assert!(legal_actions(&s, Seat(0)).contains(&Action::End));
    assert!(!legal_actions(&s, Seat(0)).contains(&Action::Pass));
    let s2 = play_text(&s, 0, "buy units:infantry");
    assert_eq!(s2.turn_seat(), Some(Seat(1)));
    let s3 = play_text(&s, 0, "end");
    assert_eq!(s3.turn_seat(), Some(Seat(1)));
    // `end` is refused when no extra action is owed.
    let t = scenario(&[]);
    assert!(refuse(&t, 0, "end").contains("only skips"));
    // Two Double Times give two extra actions.
    let mut u = scenario(&[]);
    cards(&mut u, 0, &[CardId::DoubleTime, CardId::DoubleTime]);
    let u = play_text(&u, 0, "play card:double-time");
    let u = play_text(&u, 0, "play card:double-time");
    let u = play_text(&u, 0, "buy units:infantry");
    let u = play_text(&u, 0, "buy units:infantry");
    assert_eq!(u.turn_seat(), Some(Seat(0)));
    let u = play_text(&u, 0, "buy units:infantry");
    assert_eq!(u.turn_seat(), Some(Seat(1)));
}

#[test]
fn a_failed_claim_loses_the_extra_action_but_a_pass_keeps_it() {
    let mut s = scenario(&[(Planet::Mars, 10)]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(2, 1, 1));
    cards(&mut s, 0, &[CardId::DoubleTime, CardId::Mercenaries]);
    let s = rolled(s, Planet::Mars, TileRef::Bag(tile(10)), None, 2, [4, 3, 2]);
    // Double Time while owing pay (a Free Action), then give up.
    let s = play_text(&s, 0, "play card:double-time");
    let f = play_text(&s, 0, "giveup");
    assert_eq!(f.turn_seat(), Some(Seat(1)));
    let ok = play_text(&s, 0, "pay tanks:1 infantry:2");
    assert_eq!(ok.turn_seat(), Some(Seat(0)));
    // A pass that leaves cubes keeps the extra action.
    let mut p = scenario(&[]);
    cards(&mut p, 0, &[CardId::DoubleTime]);
    let p = play_text(&p, 0, "play card:double-time");
    let p = play_text(&p, 0, "pass");
    assert_eq!(p.turn_seat(), Some(Seat(0)));
}

// ---------------------------------------------------------------------------
// Actions

#[test]
fn crisis_team_and_emergency_powers_discard_a_crisis_tile() {
    let mut s = scenario(&[(Planet::Mars, 41), (Planet::Venus, 44), (Planet::Venus, 10)]);
    cards(&mut s, 0, &[CardId::CrisisTeam, CardId::EmergencyPowers]);
    assert!(refuse(&s, 0, "play card:crisis-team tile:41").contains("needs one of your units"));
    assert!(refuse(&s, 0, "play card:emergency-powers tile:10").contains("not a Crisis tile"));
    let e = play_text(&s, 0, "play card:emergency-powers tile:44");
    assert!(e.crisis_tiles_at(Planet::Venus).is_empty());
    assert_eq!(e.turn_seat(), Some(Seat(1)));
    give(&mut s, 0, Planet::Mars, UnitCounts::new(1, 0, 0));
    let c = play_text(&s, 0, "play card:crisis-team tile:41");
    assert!(c.crisis_tiles_at(Planet::Mars).is_empty());
    assert!(c.discarded_tiles.contains(&tile(41)));
    // Action cards are not played while owing pay.
    let p = mars_claim(&[CardId::EmergencyPowers]);
    assert!(refuse(&p, 0, "play card:emergency-powers tile:10").contains("Action card"));
}

#[test]
fn agitators_move_a_crisis_tile_next_door() {
    let mut s = scenario(&[(Planet::Mars, 41)]);
    cards(&mut s, 0, &[CardId::Agitators]);
    assert!(refuse(&s, 0, "play card:agitators tile:41 to:moon").contains("not next to"));
    let s = play_text(&s, 0, "play card:agitators tile:41 to:ganymede");
    assert_eq!(s.crisis_tiles_at(Planet::Ganymede), vec![tile(41)]);
}

#[test]
fn survey_draws_a_tile_where_you_have_a_ready_unit() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::Survey]);
    assert!(refuse(&s, 0, "play card:survey at:titan").contains("ready unit"));
    let next = s.bag.first().copied().expect("a tile");
    let s = play_text(&s, 0, "play card:survey at:earth");
    assert_eq!(s.tiles_at(HOME), vec![next]);
}

#[test]
fn saboteurs_pay_three_and_destroy_a_rivals_piece() {
    let mut s = scenario(&[]);
    give(&mut s, 0, Planet::Mars, UnitCounts::new(0, 1, 0));
    piece(&mut s, 1, Planet::Mars, Piece::Mine);
    cards(&mut s, 0, &[CardId::Saboteurs]);
    let money = s.money(Seat(0));
    let t = play_text(&s, 0, "play card:saboteurs player:2 piece:mine at:mars");
    assert_eq!(t.money(Seat(0)), money - 3);
    assert_eq!(t.holdings(Seat(1), Planet::Mars).mines, 0);
    assert!(refuse(&s, 0, "play card:saboteurs player:2 piece:factory at:mars").contains("no factory"));
    apply(
        &mut s,
        &Event::MoneyPaid {
            seat: Seat(0),
            amount: money,
            reason: MoneyReason::Purchase,
        },
    );
    assert!(refuse(&s, 0, "play card:saboteurs player:2 piece:mine at:mars").contains("£3"));
}

#[test]
fn espionage_sees_a_hand_and_takes_a_card() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::Espionage]);
    assert!(refuse(&s, 0, "play card:espionage player:2").contains("holds no card"));
    cards(&mut s, 1, &[CardId::WarBonds, CardId::EliteTroops, CardId::Mercenaries]);
    let s = play_text(&s, 0, "play card:espionage player:2");
    assert_eq!(pending(&s).first().map(|p| p.kind.as_str()), Some("take"));
    assert_eq!(default_action(&s, Seat(0)), Some(Action::Take(CardId::Mercenaries)));
    assert!(refuse(&s, 0, "take card:trade-deal").contains("holds no"));
    assert!(refuse(&s, 0, "pass").contains("take"));
    let s = play_text(&s, 0, "take card:elite-troops");
    assert_eq!(hand(&s, 0), vec![CardId::EliteTroops]);
    assert_eq!(hand(&s, 1), vec![CardId::WarBonds, CardId::Mercenaries]);
    assert_eq!(s.turn_seat(), Some(Seat(1)));
}

#[test]
fn no_cards_past_the_round_limit() {
    let mut s = scenario(&[]);
    cards(&mut s, 0, &[CardId::TradeDeal]);
    apply(&mut s, &Event::RoundBegan { round: 11 });
    assert!(refuse(&s, 0, "play card:trade-deal").contains("round limit"));
    assert_eq!(legal_actions(&s, Seat(0)), vec![Action::Pass]);
}

// ---------------------------------------------------------------------------
// Random play with cards

fn playout(players: u8, seed: u64, check_all: bool, seen: &mut BTreeMap<String, u32>) -> (State, Vec<Event>) {
    let mut log = setup::setup(&GameConfig::new(players, seed)).expect("set-up");
    let mut s = events::fold(&log);
    let open = open_period(&s);
    for e in &open {
        apply(&mut s, e);
    }
    log.extend(open);
    let mut rng = GameRng::seeded(seed ^ 0xCA4D);
    let mut steps = 0u32;
    while !s.is_over() {
        let p = pending(&s)
            .first()
            .cloned()
            .unwrap_or_else(|| panic!("{players}p seed {seed}: nothing pending in {:?}", s.phase));
        *seen.entry(p.kind.clone()).or_insert(0) += 1;
        let legal = legal_actions(&s, p.seat);
        if check_all {
            for a in &legal {
                let text = unparse(a);
                assert_eq!(parse(&text).as_ref(), Ok(a), "{text}");
                assert!(decide(&s, p.seat, a).is_ok(), "{text}: {:?}", decide(&s, p.seat, a));
            }
            if let Some(d) = default_action(&s, p.seat) {
                assert!(decide(&s, p.seat, &d).is_ok(), "default {d:?}");
            }
        }
        // Prefer card plays half the time, so they are well exercised; but
        // one game in five hoards its cards (plays none), so hands reach
        // the limit and discards are exercised too.
        let plays: Vec<Action> = legal.iter().filter(|a| matches!(a, Action::Play(_))).cloned().collect();
        let others: Vec<Action> = legal
            .iter()
            .filter(|a| !matches!(a, Action::Play(_)))
            .cloned()
            .collect();
        let a = if seed % 5 == 4 && !others.is_empty() {
            rng.pick(&others).cloned()
        } else if !plays.is_empty() && rng.below(2) == 0 {
            rng.pick(&plays).cloned()
        } else {
            rng.pick(&legal).cloned()
        };
        let a = a
            .or_else(|| default_action(&s, p.seat))
            .expect("an action or a default");
        if let Action::Play(o) = &a {
            *seen.entry(format!("card {}", o.card)).or_insert(0) += 1;
        }
        let events = decide(&s, p.seat, &a).unwrap_or_else(|e| panic!("{players}p seed {seed}: {a:?}: {e}"));
        for e in &events {
            apply(&mut s, e);
        }
        log.extend(events);
        steps += 1;
        assert!(steps < 20_000, "{players}p seed {seed}: no end");
    }
    (s, log)
}

#[test]
fn random_games_with_cards_end_and_replay() {
    let mut seen = BTreeMap::new();
    for players in 2..=5u8 {
        for seed in 0..50u64 {
            let (s, log) = playout(players, seed, seed % 10 == 0, &mut seen);
            assert!(s.outcome.is_some(), "{players}p seed {seed}");
            assert_eq!(
                events::fold(&log),
                s,
                "{players}p seed {seed}: the log folds to the state"
            );
        }
    }
    for kind in ["turn", "pay", "take", "discard"] {
        assert!(seen.get(kind).copied().unwrap_or(0) > 0, "no `{kind}` seen: {seen:?}");
    }
    for card in CardId::ALL {
        assert!(
            seen.get(&format!("card {card}")).copied().unwrap_or(0) > 0,
            "{card} never played: {seen:?}"
        );
    }
}
