use super::*;
use crate::solar::basics::board::UnitKind;
use crate::solar::state::LossKind;
use crate::solar::tests::kit::{base, seat_mut, set_up};

fn tile(n: u8) -> TileId {
    TileId::new(n).expect("tile")
}

fn die(v: u8) -> Die {
    Die::new(v).expect("die")
}

fn rng_after(n: u32) -> Box<GameRng> {
    let mut r = GameRng::seeded(99);
    for _ in 0..n {
        r.below(6);
    }
    Box::new(r)
}

/// `base` after `event`, and what the test expects it to be.
fn check(base: &State, event: Event, expect: impl FnOnce(&mut State)) {
    let mut got = base.clone();
    apply(&mut got, &event);
    let mut want = base.clone();
    expect(&mut want);
    assert_eq!(got, want, "after {event:?}");
}

// ---------------------------------------------------------------------------
// Apply, variant by variant

#[test]
fn apply_game_set_up_resets_everything() {
    let mut s = base();
    apply(
        &mut s,
        &Event::GameSetUp {
            players: PlayerCount::new(2).unwrap(),
            seed: 4,
            options: Options::default(),
        },
    );
    assert_eq!(s.players, 2);
    assert_eq!(s.seats.len(), 2);
    assert_eq!(s.seats[0].hand, OWN_CARDS.to_vec());
    assert_eq!(s.bag, TileId::all().collect::<Vec<_>>());
    assert_eq!(s.deck, cards::deck());
    assert_eq!(*s.rng, GameRng::seeded(4));
    assert_eq!(s.period, 0);
}

#[test]
fn apply_shuffles_deals_and_the_marker() {
    let b = base();
    let order = vec![CardId::Mercenaries, CardId::Survey];
    check(
        &b,
        Event::DeckShuffled {
            order: order.clone(),
            rng: rng_after(3),
        },
        |s| {
            s.deck = order.clone();
            s.rng = rng_after(3);
        },
    );
    let bag = vec![tile(5), tile(3)];
    check(
        &b,
        Event::BagShuffled {
            order: bag.clone(),
            rng: rng_after(2),
        },
        |s| {
            s.bag = bag.clone();
            s.rng = rng_after(2);
        },
    );
    let top = b.deck[..2].to_vec();
    for event in [
        Event::CardsDealt {
            seat: Seat(1),
            cards: top.clone(),
        },
        Event::CardsDrawn {
            seat: Seat(1),
            cards: top.clone(),
        },
    ] {
        check(&b, event, |s| {
            s.deck.drain(..2);
            seat_mut(s, 1).hand.extend_from_slice(&top);
        });
    }
    check(
        &b,
        Event::FirstPlayerRolled {
            rolls: vec![SeatRoll {
                seat: Seat(0),
                dice: [die(1), die(2), die(3)],
            }],
            rng: rng_after(5),
        },
        |s| s.rng = rng_after(5),
    );
    check(&b, Event::FirstPlayerMarkerTaken { seat: Seat(2) }, |s| {
        s.first_player = Some(Seat(2))
    });
}

#[test]
fn apply_periods_phases_rounds_and_turns() {
    let b = base();
    assert!(b.turn.is_some());
    check(&b, Event::PeriodBegan { period: 2 }, |s| {
        s.period = 2;
        s.phase = None;
        s.round = 0;
        s.turn = None;
    });
    check(&b, Event::PhaseBegan { phase: Phase::Crises }, |s| {
        s.phase = Some(Phase::Crises);
        s.turn = None;
        s.boundaries += 1;
    });
    check(&b, Event::RoundBegan { round: 4 }, |s| {
        s.round = 4;
        s.boundaries += 1;
    });
    // Round 1 begins with its phase: no boundary of its own.
    check(&b, Event::RoundBegan { round: 1 }, |s| s.round = 1);
    check(&b, Event::TurnBegan { seat: Seat(1) }, |s| {
        s.turn = Some(TurnState::new(Seat(1)))
    });
    check(&b, Event::PeriodEnded { period: 1 }, |s| {
        s.phase = None;
        s.turn = None;
    });
    let outcome = Outcome::AllLose {
        reason: "the robots of Earth rebelled".into(),
    };
    check(
        &b,
        Event::GameEnded {
            outcome: outcome.clone(),
            vp: vec![],
        },
        |s| {
            s.outcome = Some(outcome.clone());
            s.turn = None;
            s.boundaries += 1;
        },
    );
    let mut after = b.clone();
    apply(
        &mut after,
        &Event::GameEnded {
            outcome: outcome.clone(),
            vp: vec![],
        },
    );
    assert!(after.is_over());
}

#[test]
fn apply_pass_cubes() {
    let b = base();
    check(&b, Event::Passed { seat: Seat(1) }, |s| {
        s.pass_cubes -= 1;
        seat_mut(s, 1).cubes_taken = 1;
    });
    let mut taken = b.clone();
    apply(&mut taken, &Event::Passed { seat: Seat(1) });
    assert_eq!(taken.cubes_taken(), 1);
    check(
        &taken,
        Event::PassCubeReturned {
            seat: Seat(0),
            from: Seat(1),
        },
        |s| {
            s.pass_cubes += 1;
            seat_mut(s, 1).cubes_taken = 0;
        },
    );
    check(&taken, Event::PassCubesPlaced { cubes: 5 }, |s| {
        s.pass_cubes = 5;
        seat_mut(s, 1).cubes_taken = 0;
    });
}

#[test]
fn apply_tiles() {
    let b = base();
    let mercury = b.tiles_at(Planet::Mercury);
    let t = mercury[0];
    check(
        &b,
        Event::TilesDiscarded {
            planet: Planet::Mercury,
            tiles: vec![t],
        },
        |s| {
            s.planets.get_mut(&Planet::Mercury).unwrap().tiles.retain(|x| *x != t);
            s.discarded_tiles.push(t);
        },
    );
    let next = b.bag[0];
    check(
        &b,
        Event::TilesDrawn {
            planet: Planet::Moon,
            tiles: vec![next],
        },
        |s| {
            s.bag.remove(0);
            let tiles = &mut s.planets.get_mut(&Planet::Moon).unwrap().tiles;
            tiles.push(next);
            tiles.sort();
        },
    );
    check(
        &b,
        Event::TileMoved {
            tile: t,
            from: Planet::Mercury,
            to: Planet::Venus,
        },
        |s| {
            s.planets.get_mut(&Planet::Mercury).unwrap().tiles.retain(|x| *x != t);
            let tiles = &mut s.planets.get_mut(&Planet::Venus).unwrap().tiles;
            tiles.push(t);
            tiles.sort();
        },
    );
}

#[test]
fn apply_tile_claims_keep_or_discard() {
    let mut b = base();
    for (n, planet) in [(34, Planet::Mars), (44, Planet::Mars), (1, Planet::Mars)] {
        take_first(&mut b.bag, &tile(n));
        for p in b.planets.values_mut() {
            p.tiles.retain(|x| *x != tile(n));
        }
        b.add_tile(planet, tile(n));
    }
    // Big Game and Crisis tiles are kept.
    for n in [34, 44] {
        check(
            &b,
            Event::TileClaimed {
                seat: Seat(0),
                planet: Planet::Mars,
                tile: tile(n),
            },
            |s| {
                s.planets
                    .get_mut(&Planet::Mars)
                    .unwrap()
                    .tiles
                    .retain(|x| *x != tile(n));
                seat_mut(s, 0).kept.push(TileRef::Bag(tile(n)));
            },
        );
    }
    // A Mine tile is discarded (the mine is its own event).
    check(
        &b,
        Event::TileClaimed {
            seat: Seat(0),
            planet: Planet::Mars,
            tile: tile(1),
        },
        |s| {
            s.planets
                .get_mut(&Planet::Mars)
                .unwrap()
                .tiles
                .retain(|x| *x != tile(1));
            s.discarded_tiles.push(tile(1));
        },
    );
    let mut kept = b.clone();
    apply(
        &mut kept,
        &Event::TileClaimed {
            seat: Seat(0),
            planet: Planet::Mars,
            tile: tile(44),
        },
    );
    assert_eq!(kept.seats[0].tile_vp(), 1);
}

#[test]
fn apply_money() {
    let b = base();
    check(
        &b,
        Event::MoneyGained {
            seat: Seat(2),
            amount: 3,
            reason: MoneyReason::Windfall,
        },
        |s| seat_mut(s, 2).money = 15,
    );
    check(
        &b,
        Event::MoneyPaid {
            seat: Seat(2),
            amount: 5,
            reason: MoneyReason::Purchase,
        },
        |s| seat_mut(s, 2).money = 7,
    );
    check(
        &b,
        Event::MoneyPaid {
            seat: Seat(2),
            amount: 50,
            reason: MoneyReason::Pirates,
        },
        |s| seat_mut(s, 2).money = 0,
    );
    check(
        &b,
        Event::IncomePaid {
            seat: Seat(0),
            amount: 2,
        },
        |s| seat_mut(s, 0).money = 14,
    );
}

#[test]
fn apply_units() {
    let b = base();
    let earth = |s: &mut State, seat: u8| *seat_mut(s, seat).planets.get_mut(&Planet::Earth).unwrap();
    check(
        &b,
        Event::UnitsPlaced {
            seat: Seat(0),
            planet: Planet::Mars,
            units: UnitCounts::of(UnitKind::Tank, 1),
        },
        |s| {
            seat_mut(s, 0).planets.insert(
                Planet::Mars,
                Holdings {
                    orbit: UnitCounts::new(0, 0, 1),
                    ..Holdings::default()
                },
            );
        },
    );
    check(
        &b,
        Event::UnitsMoved {
            seat: Seat(1),
            from: Planet::Earth,
            to: Planet::Mars,
            units: UnitCounts::new(3, 1, 0),
        },
        |s| {
            let mut h = earth(s, 1);
            h.orbit = UnitCounts::new(1, 1, 0);
            seat_mut(s, 1).planets.insert(Planet::Earth, h);
            seat_mut(s, 1).planets.insert(
                Planet::Mars,
                Holdings {
                    orbit: UnitCounts::new(3, 1, 0),
                    ..Holdings::default()
                },
            );
        },
    );
    check(
        &b,
        Event::UnitsSpent {
            seat: Seat(1),
            planet: Planet::Earth,
            units: UnitCounts::new(2, 0, 0),
        },
        |s| {
            let mut h = earth(s, 1);
            h.orbit = UnitCounts::new(2, 2, 0);
            h.surface = UnitCounts::new(2, 0, 0);
            seat_mut(s, 1).planets.insert(Planet::Earth, h);
        },
    );
    let mut spent = b.clone();
    apply(
        &mut spent,
        &Event::UnitsSpent {
            seat: Seat(1),
            planet: Planet::Earth,
            units: UnitCounts::new(2, 0, 0),
        },
    );
    check(
        &spent,
        Event::UnitsLost {
            seat: Seat(1),
            planet: Planet::Earth,
            ready: UnitCounts::new(0, 1, 0),
            spent: UnitCounts::new(1, 0, 0),
        },
        |s| {
            let mut h = earth(s, 1);
            h.orbit = UnitCounts::new(2, 1, 0);
            h.surface = UnitCounts::new(1, 0, 0);
            seat_mut(s, 1).planets.insert(Planet::Earth, h);
        },
    );
    check(&spent, Event::UnitsReturnedToOrbit, |s| {
        let mut h = earth(s, 1);
        h.orbit = UnitCounts::new(4, 2, 0);
        h.surface = UnitCounts::NONE;
        seat_mut(s, 1).planets.insert(Planet::Earth, h);
    });
    // Losing everything at a planet leaves nothing behind.
    let mut s = b.clone();
    apply(
        &mut s,
        &Event::UnitsLost {
            seat: Seat(0),
            planet: Planet::Earth,
            ready: UnitCounts::new(9, 9, 9),
            spent: UnitCounts::NONE,
        },
    );
    apply(
        &mut s,
        &Event::PieceLost {
            seat: Seat(0),
            planet: Planet::Earth,
            piece: Piece::Factory,
        },
    );
    assert!(s.seats[0].planets.is_empty());
}

#[test]
fn apply_moves_no_more_than_is_there() {
    let b = base();
    let mut s = b.clone();
    apply(
        &mut s,
        &Event::UnitsMoved {
            seat: Seat(0),
            from: Planet::Earth,
            to: Planet::Venus,
            units: UnitCounts::new(10, 1, 3),
        },
    );
    assert_eq!(s.ready_units(Seat(0), Planet::Venus), UnitCounts::new(4, 1, 0));
    assert_eq!(s.ready_units(Seat(0), Planet::Earth), UnitCounts::new(0, 1, 0));
    let total = |s: &State| UnitKind::ALL.map(|k| s.seats[0].units_on_board(k));
    assert_eq!(total(&s), total(&b), "no unit made or lost");
}

#[test]
fn apply_pieces() {
    let b = base();
    check(
        &b,
        Event::PieceGained {
            seat: Seat(2),
            planet: Planet::Titan,
            piece: Piece::Mine,
        },
        |s| {
            seat_mut(s, 2).planets.insert(
                Planet::Titan,
                Holdings {
                    mines: 1,
                    ..Holdings::default()
                },
            );
        },
    );
    check(
        &b,
        Event::PieceLost {
            seat: Seat(2),
            planet: Planet::Earth,
            piece: Piece::Factory,
        },
        |s| {
            seat_mut(s, 2).planets.get_mut(&Planet::Earth).unwrap().factories = 0;
        },
    );
}

#[test]
fn apply_cards_played_discarded_and_taken() {
    let mut b = base();
    let seat = b.turn_seat().expect("a turn");
    let i = seat.0;
    // The turn holder holds the own cards and two Mercenaries (to tell
    // copies apart), and no Trade Deal.
    let mut hand = OWN_CARDS.to_vec();
    hand.extend([CardId::Mercenaries, CardId::Survey, CardId::Mercenaries]);
    seat_mut(&mut b, i).hand = hand;
    // A card not held leaves no hand and reaches no pile.
    check(
        &b,
        Event::CardPlayed {
            seat,
            card: CardId::TradeDeal,
        },
        |s| {
            s.turn.as_mut().unwrap().played.push(CardId::TradeDeal);
        },
    );
    check(
        &b,
        Event::CardPlayed {
            seat,
            card: CardId::ReserveFunds,
        },
        |s| {
            let hand = &mut seat_mut(s, i).hand;
            hand.retain(|c| *c != CardId::ReserveFunds);
            s.turn.as_mut().unwrap().played.push(CardId::ReserveFunds);
            // An own card leaves the game: not on the discard pile.
        },
    );
    check(
        &b,
        Event::CardPlayed {
            seat,
            card: CardId::Mercenaries,
        },
        |s| {
            let hand = &mut seat_mut(s, i).hand;
            let last = hand.iter().rposition(|c| *c == CardId::Mercenaries).unwrap();
            hand.remove(last);
            s.discard.push(CardId::Mercenaries);
            s.turn.as_mut().unwrap().played.push(CardId::Mercenaries);
        },
    );
    check(
        &b,
        Event::CardPlayed {
            seat,
            card: CardId::RapidDeployment,
        },
        |s| {
            seat_mut(s, i).hand.retain(|c| *c != CardId::RapidDeployment);
            let t = s.turn.as_mut().unwrap();
            t.played.push(CardId::RapidDeployment);
            t.move_benefits.push(CardId::RapidDeployment);
        },
    );
    check(
        &b,
        Event::CardsDiscarded {
            seat,
            cards: vec![CardId::Mercenaries, CardId::EliteTroops],
        },
        |s| {
            let hand = &mut seat_mut(s, i).hand;
            let last = hand.iter().rposition(|c| *c == CardId::Mercenaries).unwrap();
            hand.remove(last);
            hand.retain(|c| *c != CardId::EliteTroops);
            s.discard.push(CardId::Mercenaries);
        },
    );
    let other = b.next_seat(seat);
    let j = other.0;
    check(&b, Event::HandRevealed { seat, target: other }, |s| {
        s.turn.as_mut().unwrap().espionage = Some(other);
    });
    let mut spying = b.clone();
    apply(&mut spying, &Event::HandRevealed { seat, target: other });
    check(
        &spying,
        Event::CardTaken {
            seat,
            from: other,
            card: CardId::EmergencyPowers,
        },
        |s| {
            seat_mut(s, j).hand.retain(|c| *c != CardId::EmergencyPowers);
            seat_mut(s, i).hand.push(CardId::EmergencyPowers);
            s.turn.as_mut().unwrap().espionage = None;
        },
    );
    check(
        &b,
        Event::CardStolen {
            seat: other,
            from: seat,
            card: CardId::ReserveFunds,
            rng: rng_after(1),
        },
        |s| {
            seat_mut(s, i).hand.retain(|c| *c != CardId::ReserveFunds);
            seat_mut(s, j).hand.push(CardId::ReserveFunds);
            s.rng = rng_after(1);
        },
    );
    // A card nobody holds moves nowhere.
    let mut s = b.clone();
    apply(
        &mut s,
        &Event::CardStolen {
            seat: other,
            from: seat,
            card: CardId::Espionage,
            rng: rng_after(1),
        },
    );
    assert_eq!(s.seats, b.seats);
}

#[test]
fn apply_deck_reshuffled_from_the_discard_pile() {
    let mut b = base();
    b.discard = vec![CardId::Survey, CardId::Agitators, CardId::Survey];
    let order = vec![CardId::Survey, CardId::Survey, CardId::Agitators];
    check(
        &b,
        Event::DeckReshuffled {
            order: order.clone(),
            rng: rng_after(4),
        },
        |s| {
            s.discard.clear();
            s.deck.extend_from_slice(&order);
            s.rng = rng_after(4);
        },
    );
}

#[test]
fn apply_actions_use_up_benefits() {
    let mut b = base();
    let seat = b.turn_seat().unwrap();
    for card in [
        CardId::Afterburners,
        CardId::HeavyLift,
        CardId::WarBonds,
        CardId::DoubleTime,
    ] {
        seat_mut(&mut b, seat.0).hand.push(card);
        apply(&mut b, &Event::CardPlayed { seat, card });
    }
    let t = b.turn.clone().unwrap();
    assert_eq!(t.move_range(), 3);
    assert!(t.move_takes_tanks());
    assert_eq!(t.buy_limit(), 3);
    assert_eq!(t.buy_discount(), 1);
    assert_eq!(t.actions_allowed(), 2);
    check(
        &b,
        Event::ActionTaken {
            seat,
            action: ActionKind::Move,
        },
        |s| {
            let t = s.turn.as_mut().unwrap();
            t.actions_taken = 1;
            t.move_benefits.clear();
        },
    );
    check(
        &b,
        Event::ActionTaken {
            seat,
            action: ActionKind::Buy,
        },
        |s| {
            let t = s.turn.as_mut().unwrap();
            t.actions_taken = 1;
            t.buy_benefits.clear();
        },
    );
    check(
        &b,
        Event::ActionTaken {
            seat,
            action: ActionKind::Pass,
        },
        |s| s.turn.as_mut().unwrap().actions_taken = 1,
    );
    let plain = TurnState::new(seat);
    assert_eq!(
        (plain.move_range(), plain.buy_limit(), plain.actions_allowed()),
        (2, 2, 1)
    );
    assert!(!plain.move_takes_tanks());
}

#[test]
fn apply_a_rolled_claim() {
    let b = base();
    let seat = b.turn_seat().unwrap();
    let target = TensionTarget {
        seat: b.next_seat(seat),
        piece: Piece::Factory,
    };
    let declared = Event::ClaimDeclared {
        seat,
        planet: Planet::Earth,
        tile: TileRef::Bag(tile(50)),
        target: Some(target),
        defence: 6,
    };
    let claim = Claim {
        seat,
        planet: Planet::Earth,
        tile: TileRef::Bag(tile(50)),
        target: Some(target),
        defence: 6,
        dice: None,
        cards: Vec::new(),
    };
    check(&b, declared.clone(), |s| {
        s.turn.as_mut().unwrap().claim = Some(claim.clone())
    });
    let mut s = b.clone();
    apply(&mut s, &declared);
    let dice = [die(4), die(0), die(2)];
    check(
        &s,
        Event::ClaimRolled {
            seat,
            dice,
            rng: rng_after(3),
        },
        |s| {
            s.turn.as_mut().unwrap().claim.as_mut().unwrap().dice = Some(dice);
            s.rng = rng_after(3);
        },
    );
    apply(
        &mut s,
        &Event::ClaimRolled {
            seat,
            dice,
            rng: rng_after(3),
        },
    );
    let c = s.claim().unwrap();
    assert_eq!((c.cost(), c.casualties(), c.card_cp()), (4 + 6, 1, 0));
    check(
        &s,
        Event::DieRerolled {
            seat,
            die: 2,
            value: die(5),
            rng: rng_after(4),
        },
        |s| {
            s.turn.as_mut().unwrap().claim.as_mut().unwrap().dice = Some([die(4), die(5), die(2)]);
            s.rng = rng_after(4);
        },
    );
    // Claim Benefits join the claim.
    for card in [CardId::Infiltrators, CardId::EliteTroops, CardId::Mercenaries] {
        let i = seat.0;
        seat_mut(&mut s, i).hand.push(card);
        apply(&mut s, &Event::CardPlayed { seat, card });
    }
    let c = s.claim().unwrap();
    assert_eq!(c.effective_defence(), 3);
    assert_eq!(c.cost(), 4 + 3);
    assert_eq!(c.card_cp(), 3 + 2);
    assert_eq!(c.casualties(), 0, "Elite Troops cancels the skull");
    check(&s, Event::ClaimEnded { seat, succeeded: false }, |s| {
        s.turn.as_mut().unwrap().claim = None
    });
    // A die number out of range changes nothing but the generator.
    check(
        &s,
        Event::DieRerolled {
            seat,
            die: 4,
            value: die(5),
            rng: rng_after(4),
        },
        |s| s.rng = rng_after(4),
    );
}

#[test]
fn perfect_plan_drops_the_dice_from_the_cost() {
    let claim = Claim {
        seat: Seat(0),
        planet: Planet::Mars,
        tile: TileRef::Bag(tile(12)),
        target: None,
        defence: 3,
        dice: Some([die(5), die(0), die(0)]),
        cards: vec![CardId::PerfectPlan, CardId::FieldMedics],
    };
    assert_eq!(claim.cost(), 3);
    assert_eq!(claim.casualties(), 0);
    let claim = Claim { cards: vec![], ..claim };
    assert_eq!(claim.cost(), 8);
    assert_eq!(claim.casualties(), 2);
}

#[test]
fn apply_crisis_events() {
    let mut b = base();
    // Crisis tiles #41 (skull) on Venus, #44 (skull) and #42 on Mars: the page's example.
    for (n, planet) in [(41, Planet::Venus), (44, Planet::Mars), (42, Planet::Mars)] {
        take_first(&mut b.bag, &tile(n));
        for p in b.planets.values_mut() {
            p.tiles.retain(|x| *x != tile(n));
        }
        b.add_tile(planet, tile(n));
    }
    for p in Planet::ALL {
        let crisis: Vec<TileId> = b.crisis_tiles_at(p);
        for t in crisis.into_iter().filter(|t| ![41, 42, 44].contains(&t.number())) {
            b.remove_tile(p, t);
        }
    }
    assert_eq!(b.skull_marked_tiles(), [tile(41), tile(44)]);
    let dice = [die(0), die(0), die(0)];
    check(
        &b,
        Event::CrisisRolled {
            dice,
            rng: rng_after(6),
        },
        |s| s.rng = rng_after(6),
    );
    let placed = Event::CrisisDicePlaced {
        tiles: vec![tile(41), tile(44), tile(41)],
    };
    check(&b, placed.clone(), |s| {
        s.crisis_dice = BTreeMap::from([(tile(41), 2), (tile(44), 1)]);
    });
    let mut s = b.clone();
    apply(&mut s, &placed);
    assert_eq!(s.crisis_level(Planet::Venus), 3);
    assert_eq!(s.crisis_level(Planet::Mars), 3);
    assert_eq!(s.crisis_level(Planet::Earth), 0);
    let levels: BTreeMap<Planet, u32> = Planet::ALL.iter().map(|&p| (p, s.crisis_level(p))).collect();
    check(&s, Event::CrisisLevelsSet { levels: levels.clone() }, |s| {
        s.crisis_levels = levels.clone()
    });
    check(
        &s,
        Event::CrisisResolving {
            planet: Planet::Venus,
            level: 3,
        },
        |s| s.crisis = Some(Planet::Venus),
    );
    check(
        &s,
        Event::MercuryPowersOffered {
            seat: Seat(1),
            level: 2,
        },
        |s| {
            s.mercury = Some(MercuryOffer {
                seat: Seat(1),
                level: 2,
            })
        },
    );
    let demand = LossDemand {
        seat: Seat(2),
        count: 2,
        kind: LossKind::UnitsThenPieces,
        planets: vec![Planet::Venus],
    };
    check(
        &s,
        Event::LossesDemanded {
            demands: vec![demand.clone()],
        },
        |s| s.losses = vec![demand.clone()],
    );
    let mut owing = s.clone();
    apply(
        &mut owing,
        &Event::LossesDemanded {
            demands: vec![demand.clone()],
        },
    );
    assert_eq!(owing.owes_losses(Seat(2)), Some(&demand));
    check(&owing, Event::LossesTaken { seat: Seat(2) }, |s| s.losses.clear());
    let mut offered = s.clone();
    apply(
        &mut offered,
        &Event::MercuryPowersOffered {
            seat: Seat(1),
            level: 2,
        },
    );
    check(&offered, Event::MercuryPowersEnded { seat: Seat(1) }, |s| {
        s.mercury = None
    });
    check(
        &s,
        Event::DamageRolled {
            planet: Planet::Mars,
            dice: [die(3), die(5), die(0)],
            damage: 8,
            rng: rng_after(7),
        },
        |s| s.rng = rng_after(7),
    );
    let mut resolving = s.clone();
    apply(
        &mut resolving,
        &Event::CrisisResolving {
            planet: Planet::Mars,
            level: 3,
        },
    );
    apply(&mut resolving, &Event::CrisisLevelsSet { levels });
    check(&resolving, Event::CrisisDiceReturned, |s| {
        s.crisis_dice.clear();
        s.crisis_levels.clear();
        s.crisis = None;
    });
}

#[test]
fn apply_flips_wipes_and_aliens() {
    let mut b = base();
    apply(
        &mut b,
        &Event::UnitsMoved {
            seat: Seat(0),
            from: Planet::Earth,
            to: Planet::Mars,
            units: UnitCounts::new(1, 1, 0),
        },
    );
    apply(
        &mut b,
        &Event::PieceGained {
            seat: Seat(1),
            planet: Planet::Mars,
            piece: Piece::Mine,
        },
    );
    let mars_tiles = b.tiles_at(Planet::Mars);
    assert!(!mars_tiles.is_empty());
    check(&b, Event::PlanetWiped { planet: Planet::Mars }, |s| {
        seat_mut(s, 0).planets.remove(&Planet::Mars);
        seat_mut(s, 1).planets.remove(&Planet::Mars);
        s.planets.get_mut(&Planet::Mars).unwrap().tiles.clear();
        s.discarded_tiles.extend(mars_tiles.iter().copied());
    });
    check(&b, Event::PlanetFlipped { planet: Planet::Mars }, |s| {
        s.planets.get_mut(&Planet::Mars).unwrap().flipped = true
    });
    let placed = Event::AlienPlaced {
        alien: AlienTile::A3,
        planet: Planet::Ganymede,
    };
    check(&b, placed.clone(), |s| {
        s.aliens.insert(AlienTile::A3, Planet::Ganymede);
        s.invaded = true;
    });
    let mut s = b.clone();
    apply(&mut s, &placed);
    assert_eq!(s.alien_at(Planet::Ganymede), Some(AlienTile::A3));
    assert!(!s.takes_tiles(Planet::Ganymede));
    check(
        &s,
        Event::AlienMoved {
            alien: AlienTile::A3,
            from: Planet::Ganymede,
            to: Planet::Mars,
        },
        |s| {
            s.aliens.insert(AlienTile::A3, Planet::Mars);
        },
    );
    check(
        &s,
        Event::AlienDestroyed {
            seat: Seat(2),
            alien: AlienTile::A3,
            planet: Planet::Ganymede,
        },
        |s| {
            s.aliens.clear();
            s.planets.get_mut(&Planet::Ganymede).unwrap().cleared = true;
            seat_mut(s, 2).kept.push(TileRef::Alien(AlienTile::A3));
        },
    );
    // An alien that is not on the board does not move.
    check(
        &s,
        Event::AlienMoved {
            alien: AlienTile::A1,
            from: Planet::Titan,
            to: Planet::Ganymede,
        },
        |_| {},
    );
}

// ---------------------------------------------------------------------------
// Totality and serde

fn every_event() -> Vec<Event> {
    let s = Seat(1);
    vec![
        Event::GameSetUp {
            players: PlayerCount::new(3).unwrap(),
            seed: 9,
            options: Options::default(),
        },
        Event::DeckShuffled {
            order: cards::deck(),
            rng: rng_after(1),
        },
        Event::BagShuffled {
            order: TileId::all().collect(),
            rng: rng_after(1),
        },
        Event::CardsDealt {
            seat: s,
            cards: vec![CardId::Mercenaries, CardId::Survey],
        },
        Event::FirstPlayerRolled {
            rolls: vec![SeatRoll {
                seat: s,
                dice: [die(0), die(5), die(3)],
            }],
            rng: rng_after(3),
        },
        Event::FirstPlayerMarkerTaken { seat: s },
        Event::PeriodBegan { period: 1 },
        Event::PhaseBegan { phase: Phase::Tiles },
        Event::PassCubesPlaced { cubes: 5 },
        Event::TilesDiscarded {
            planet: Planet::Ganymede,
            tiles: vec![tile(40)],
        },
        Event::TilesDrawn {
            planet: Planet::Earth,
            tiles: vec![tile(1), tile(50)],
        },
        Event::RoundBegan { round: 2 },
        Event::TurnBegan { seat: s },
        Event::ActionTaken {
            seat: s,
            action: ActionKind::Claim,
        },
        Event::Passed { seat: s },
        Event::PassCubeReturned { seat: s, from: s },
        Event::CardsDrawn {
            seat: s,
            cards: vec![CardId::Overtime],
        },
        Event::DeckReshuffled {
            order: vec![CardId::Survey],
            rng: rng_after(2),
        },
        Event::CardPlayed {
            seat: s,
            card: CardId::DoubleTime,
        },
        Event::CardsDiscarded {
            seat: s,
            cards: vec![CardId::Survey],
        },
        Event::HandRevealed {
            seat: s,
            target: Seat(0),
        },
        Event::CardTaken {
            seat: s,
            from: Seat(0),
            card: CardId::EliteTroops,
        },
        Event::CardStolen {
            seat: Seat(0),
            from: s,
            card: CardId::EliteTroops,
            rng: rng_after(1),
        },
        Event::MoneyGained {
            seat: s,
            amount: 4,
            reason: MoneyReason::Card(CardId::ReserveFunds),
        },
        Event::MoneyPaid {
            seat: s,
            amount: 3,
            reason: MoneyReason::MercuryPower,
        },
        Event::UnitsPlaced {
            seat: s,
            planet: Planet::Mars,
            units: UnitCounts::new(1, 1, 1),
        },
        Event::UnitsMoved {
            seat: s,
            from: Planet::Earth,
            to: Planet::Moon,
            units: UnitCounts::new(1, 1, 0),
        },
        Event::UnitsSpent {
            seat: s,
            planet: Planet::Moon,
            units: UnitCounts::new(1, 0, 0),
        },
        Event::UnitsLost {
            seat: s,
            planet: Planet::Moon,
            ready: UnitCounts::new(0, 1, 0),
            spent: UnitCounts::new(1, 0, 0),
        },
        Event::UnitsReturnedToOrbit,
        Event::PieceGained {
            seat: s,
            planet: Planet::Titan,
            piece: Piece::Mine,
        },
        Event::PieceLost {
            seat: s,
            planet: Planet::Titan,
            piece: Piece::Mine,
        },
        Event::ClaimDeclared {
            seat: s,
            planet: Planet::Earth,
            tile: TileRef::Alien(AlienTile::A2),
            target: None,
            defence: 7,
        },
        Event::ClaimRolled {
            seat: s,
            dice: [die(1), die(2), die(3)],
            rng: rng_after(3),
        },
        Event::DieRerolled {
            seat: s,
            die: 1,
            value: die(0),
            rng: rng_after(4),
        },
        Event::TileClaimed {
            seat: s,
            planet: Planet::Earth,
            tile: tile(1),
        },
        Event::AlienDestroyed {
            seat: s,
            alien: AlienTile::A2,
            planet: Planet::Titan,
        },
        Event::ClaimEnded {
            seat: s,
            succeeded: true,
        },
        Event::TileMoved {
            tile: tile(50),
            from: Planet::Earth,
            to: Planet::Moon,
        },
        Event::CrisisRolled {
            dice: [die(0), die(0), die(1)],
            rng: rng_after(3),
        },
        Event::CrisisDicePlaced {
            tiles: vec![tile(40), tile(40)],
        },
        Event::CrisisLevelsSet {
            levels: BTreeMap::from([(Planet::Venus, 2), (Planet::KuiperBelt, 3)]),
        },
        Event::CrisisResolving {
            planet: Planet::Venus,
            level: 2,
        },
        Event::MercuryPowersOffered { seat: s, level: 3 },
        Event::MercuryPowersEnded { seat: s },
        Event::LossesDemanded {
            demands: vec![LossDemand {
                seat: s,
                count: 1,
                kind: LossKind::Pieces,
                planets: vec![Planet::KuiperBelt, Planet::Titan, Planet::Ganymede],
            }],
        },
        Event::LossesTaken { seat: s },
        Event::DamageRolled {
            planet: Planet::Moon,
            dice: [die(3), die(5), die(0)],
            damage: 8,
            rng: rng_after(3),
        },
        Event::PlanetWiped { planet: Planet::Moon },
        Event::PlanetFlipped { planet: Planet::Moon },
        Event::AlienPlaced {
            alien: AlienTile::A1,
            planet: Planet::KuiperBelt,
        },
        Event::AlienMoved {
            alien: AlienTile::A1,
            from: Planet::KuiperBelt,
            to: Planet::Titan,
        },
        Event::CrisisDiceReturned,
        Event::IncomePaid { seat: s, amount: 7 },
        Event::PeriodEnded { period: 1 },
        Event::GameEnded {
            outcome: Outcome::Winner {
                seat: s,
                reason: "most VP".into(),
            },
            vp: vec![3, 20, 5],
        },
    ]
}

#[test]
fn every_event_round_trips_through_serde() {
    for e in every_event() {
        let json = serde_json::to_string(&e).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(back, e, "{json}");
    }
}

#[test]
fn the_state_round_trips_through_serde() {
    let mut s = base();
    for e in every_event().into_iter().skip(1) {
        apply(&mut s, &e);
    }
    for state in [State::empty(), base(), s] {
        let json = serde_json::to_string(&state).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        assert_eq!(back, state);
    }
}

/// Every event applies to every kind of state without panicking: the
/// empty state, one set up, and one with no seats known to the events.
#[test]
fn apply_is_total() {
    let (_, two) = set_up(2, 1);
    for start in [State::empty(), base(), two] {
        let mut s = start.clone();
        for e in every_event().into_iter().skip(1) {
            apply(&mut s, &e);
        }
        for e in every_event().into_iter().skip(1) {
            let mut t = start.clone();
            apply(&mut t, &e);
        }
    }
    // Seats no game has.
    let mut s = base();
    for e in [
        Event::Passed { seat: Seat(200) },
        Event::MoneyGained {
            seat: Seat(200),
            amount: u32::MAX,
            reason: MoneyReason::Windfall,
        },
        Event::UnitsPlaced {
            seat: Seat(200),
            planet: Planet::Earth,
            units: UnitCounts::new(u32::MAX, u32::MAX, u32::MAX),
        },
        Event::CardTaken {
            seat: Seat(200),
            from: Seat(201),
            card: CardId::Survey,
        },
    ] {
        let before = s.clone();
        apply(&mut s, &e);
        assert_eq!(s.seats, before.seats);
    }
    // Saturating counts.
    apply(
        &mut s,
        &Event::UnitsPlaced {
            seat: Seat(0),
            planet: Planet::Earth,
            units: UnitCounts::new(u32::MAX, 0, 0),
        },
    );
    apply(
        &mut s,
        &Event::UnitsPlaced {
            seat: Seat(0),
            planet: Planet::Earth,
            units: UnitCounts::new(u32::MAX, 0, 0),
        },
    );
    assert_eq!(s.ready_units(Seat(0), Planet::Earth).infantry, u32::MAX);
    assert_eq!(s.units_in_supply(Seat(0), UnitKind::Infantry), 0);
    assert_eq!(s.units_at(Seat(0), Planet::Earth).cp(), u32::MAX);
}
