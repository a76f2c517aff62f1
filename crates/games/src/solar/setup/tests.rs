use super::*;
use crate::solar::basics::board::{UnitKind, HAND_AT_SETUP};
use crate::solar::basics::cards::DECK_SIZE;
use crate::solar::basics::cards::OWN_CARDS;
use crate::solar::basics::tiles::AlienTile;
use crate::solar::basics::tiles::BAG_SIZE;
use crate::solar::events::{apply, fold, Event, SeatRoll};
use crate::solar::state::{Holdings, SeatState};
use crate::solar::tests::kit::{config, set_up, tile};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// Set-up

#[test]
fn set_up_matches_the_page_for_every_player_count() {
    for n in 2..=5u8 {
        let (_, s) = set_up(n, 7);
        assert_eq!(s.players, n);
        assert_eq!(s.seats.len(), usize::from(n));
        assert_eq!(s.period, 0);
        assert_eq!(s.phase, None);
        assert_eq!(s.options, Options::default());
        for seat in s.seat_ids() {
            let me = s.seat(seat).expect("seat");
            assert_eq!(me.money, 12, "£12");
            assert_eq!(s.ready_units(seat, Planet::Earth), UnitCounts::new(4, 2, 0));
            assert_eq!(s.spent_units(seat, Planet::Earth), UnitCounts::NONE);
            assert_eq!(s.holdings(seat, Planet::Earth).factories, 1);
            assert_eq!(s.holdings(seat, Planet::Earth).mines, 0);
            assert_eq!(me.planets.len(), 1, "nothing anywhere else");
            assert_eq!(s.hand_size(seat), HAND_AT_SETUP);
            assert_eq!(me.hand[..4], OWN_CARDS, "own cards first: gained first");
            assert!(me.hand[4..].iter().all(|c| !c.is_own()));
            assert_eq!(me.own_cards_held(), OWN_CARDS.to_vec());
            assert!(me.kept.is_empty());
            assert_eq!(s.income(seat), 2);
            assert_eq!(s.units_in_supply(seat, UnitKind::Infantry), 5);
            assert_eq!(s.units_in_supply(seat, UnitKind::Spaceship), 5);
            assert_eq!(s.units_in_supply(seat, UnitKind::Tank), 5);
            assert_eq!(s.pieces_in_supply(seat, Piece::Factory), 7);
            assert_eq!(s.pieces_in_supply(seat, Piece::Mine), 12);
        }
        // The bag: all 55, in some order.
        assert_eq!(s.bag.len(), BAG_SIZE);
        let mut sorted = s.bag.clone();
        sorted.sort();
        assert_eq!(sorted, TileId::all().collect::<Vec<_>>());
        assert_ne!(s.bag, sorted, "shuffled");
        // The deck: 40 less 2 per player; with the hands, the whole deck.
        assert_eq!(s.deck.len() as u32, DECK_SIZE - 2 * u32::from(n));
        let mut all: Vec<CardId> = s.deck.clone();
        for me in &s.seats {
            all.extend(me.hand.iter().filter(|c| !c.is_own()));
        }
        all.sort();
        assert_eq!(all, cards::deck());
        assert!(s.discard.is_empty());
        assert!(s.discarded_tiles.is_empty());
        assert!(s.first_player.is_some());
        assert_eq!(s.pass_cubes, 0, "placed in Phase 1");
        assert!(s
            .planets
            .values()
            .all(|p| p.tiles.is_empty() && !p.flipped && !p.cleared));
        assert!(s.aliens.is_empty() && !s.invaded);
        assert!(s.outcome.is_none() && s.turn.is_none());
    }
}

#[test]
fn the_generator_is_carried_in_the_state() {
    let (events, s) = set_up(4, 11);
    let last_rng = events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::FirstPlayerRolled { rng, .. } => Some(rng.clone()),
            _ => None,
        })
        .expect("a roll");
    assert_eq!(s.rng, last_rng);
    assert_ne!(*s.rng, GameRng::seeded(11), "the stream moved on");
    assert_eq!(s.seed, 11);
}

#[test]
fn the_first_player_is_the_highest_roll_after_rerolls_among_the_tied() {
    let mut rerolls = 0;
    for seed in 0..200 {
        let (events, s) = set_up(5, seed);
        let rounds: Vec<&Vec<SeatRoll>> = events
            .iter()
            .filter_map(|e| match e {
                Event::FirstPlayerRolled { rolls, .. } => Some(rolls),
                _ => None,
            })
            .collect();
        assert_eq!(
            rounds[0].iter().map(|r| r.seat).collect::<Vec<_>>(),
            Seat::all(5).collect::<Vec<_>>(),
            "everyone rolls first"
        );
        for pair in rounds.windows(2) {
            let best = pair[0].iter().map(|r| dice_total(&r.dice)).max().unwrap();
            let tied: Vec<Seat> = pair[0]
                .iter()
                .filter(|r| dice_total(&r.dice) == best)
                .map(|r| r.seat)
                .collect();
            assert!(tied.len() > 1);
            assert_eq!(pair[1].iter().map(|r| r.seat).collect::<Vec<_>>(), tied);
            rerolls += 1;
        }
        let last = rounds.last().unwrap();
        let best = last.iter().map(|r| dice_total(&r.dice)).max().unwrap();
        let winners: Vec<Seat> = last
            .iter()
            .filter(|r| dice_total(&r.dice) == best)
            .map(|r| r.seat)
            .collect();
        assert_eq!(winners.len(), 1);
        assert_eq!(s.first_player, Some(winners[0]));
        assert_eq!(events.last(), Some(&Event::FirstPlayerMarkerTaken { seat: winners[0] }));
    }
    assert!(rerolls > 0, "some seed ties");
}

#[test]
fn same_seed_same_game_and_seeds_differ() {
    for n in 2..=5 {
        let (e1, s1) = set_up(n, 42);
        let (e2, s2) = set_up(n, 42);
        assert_eq!(e1, e2);
        assert_eq!(s1, s2);
    }
    let games: Vec<State> = (0..20).map(|seed| set_up(4, seed).1).collect();
    let firsts: std::collections::BTreeSet<Option<Seat>> = games.iter().map(|s| s.first_player).collect();
    assert!(firsts.len() > 1, "different first players");
    let hands: std::collections::BTreeSet<Vec<CardId>> = games.iter().map(|s| s.seats[0].hand.clone()).collect();
    assert!(hands.len() > 1, "different deals");
    let bags: std::collections::BTreeSet<Vec<TileId>> = games.iter().map(|s| s.bag.clone()).collect();
    assert_eq!(bags.len(), 20, "different bags");
}

#[test]
fn player_counts_outside_2_to_5_are_refused() {
    for n in [0, 1, 6, 7] {
        let err = setup(&config(n, 1)).expect_err("refused");
        assert!(err.0.contains("2 to 5 players"), "{err}");
        assert!(err.0.contains(&n.to_string()), "{err}");
    }
}

#[test]
fn options_are_read_and_checked() {
    let with = |v: serde_json::Value| {
        let mut c = config(3, 1);
        c.options = v;
        setup(&c)
    };
    let s = fold(&with(serde_json::json!({"round_limit": 12, "auto_losses": true})).expect("ok"));
    assert_eq!(
        s.options,
        Options {
            round_limit: 12,
            auto_losses: true
        }
    );
    assert_eq!(
        fold(&with(serde_json::json!(null)).expect("ok")).options,
        Options::default()
    );
    assert_eq!(
        fold(&with(serde_json::json!({})).expect("ok")).options,
        Options::default()
    );
    assert_eq!(Options::default().round_limit, 10);
    assert!(!Options::default().auto_losses);
    for (bad, says) in [
        (
            serde_json::json!({"rounds": 5}),
            "unknown option `rounds` of Solar Crisis",
        ),
        (serde_json::json!({"round_limit": 3}), "from 4 to 30"),
        (serde_json::json!({"round_limit": 31}), "from 4 to 30"),
        (serde_json::json!({"round_limit": "ten"}), "from 4 to 30"),
        (serde_json::json!({"auto_losses": 1}), "true or false"),
        (serde_json::json!([1]), "must be an object"),
    ] {
        let err = with(bad.clone()).expect_err("refused");
        assert!(err.0.contains(says), "{bad}: {err}");
    }
    assert!(with(serde_json::json!({"round_limit": 4})).is_ok());
    assert!(with(serde_json::json!({"round_limit": 30})).is_ok());
}

/// The set-up events fold into exactly the state built by hand.
#[test]
fn set_up_fold_equals_the_state_built_step_by_step() {
    let (events, folded) = set_up(3, 5);
    // Applying one at a time is the fold.
    let mut stepped = State::empty();
    for e in &events {
        apply(&mut stepped, e);
    }
    assert_eq!(stepped, folded);
    // And the fold is the page's set-up, built by hand.
    let deck_order = events
        .iter()
        .find_map(|e| match e {
            Event::DeckShuffled { order, .. } => Some(order.clone()),
            _ => None,
        })
        .expect("deck");
    let bag_order = events
        .iter()
        .find_map(|e| match e {
            Event::BagShuffled { order, .. } => Some(order.clone()),
            _ => None,
        })
        .expect("bag");
    let mut rng = GameRng::seeded(5);
    let mut deck = cards::deck();
    rng.shuffle(&mut deck);
    assert_eq!(deck, deck_order);
    let mut bag: Vec<TileId> = TileId::all().collect();
    rng.shuffle(&mut bag);
    assert_eq!(bag, bag_order);
    let mut want = State::empty();
    want.players = 3;
    want.seed = 5;
    want.bag = bag;
    for i in 0..3 {
        let mut hand = OWN_CARDS.to_vec();
        hand.extend_from_slice(&deck[2 * i..2 * i + 2]);
        want.seats.push(SeatState {
            money: 12,
            hand,
            planets: BTreeMap::from([(
                Planet::Earth,
                Holdings {
                    orbit: UnitCounts::new(4, 2, 0),
                    surface: UnitCounts::NONE,
                    mines: 0,
                    factories: 1,
                },
            )]),
            kept: Vec::new(),
            cubes_taken: 0,
        });
    }
    want.deck = deck[6..].to_vec();
    want.first_player = folded.first_player;
    want.rng = folded.rng.clone();
    assert_eq!(folded, want);
}

#[test]
fn the_first_period_opens_with_cubes_and_tiles() {
    for n in 2..=5u8 {
        let (mut events, s) = set_up(n, 3);
        let opening = open_period(&s);
        events.extend(opening.iter().cloned());
        let s2 = fold(&events);
        let players = PlayerCount::new(n).unwrap();
        assert_eq!(s2.period, 1);
        assert_eq!(s2.phase, Some(Phase::PlayerActions));
        assert_eq!(s2.round, 1);
        assert_eq!(s2.pass_cubes, u32::from(n) + 2, "players + 2");
        assert_eq!(s2.cubes_left(), u32::from(n) + 2);
        assert_eq!(s2.turn_seat(), s.first_player);
        let drawn = players.tiles_per_period() as usize;
        assert_eq!(s2.bag.len(), BAG_SIZE - drawn);
        assert_eq!(s2.bag[..], s.bag[drawn..], "drawn from the front");
        for p in Planet::ALL {
            assert_eq!(s2.tiles_at(p).len() as u32, p.tiles_per_period(players), "{p}");
        }
        // Tiles go to planets in planet order, in the bag's order.
        let placed: Vec<TileId> = opening
            .iter()
            .filter_map(|e| match e {
                Event::TilesDrawn { tiles, .. } => Some(tiles.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(placed[..], s.bag[..drawn]);
        assert!(open_period(&s2).first() == Some(&Event::PeriodBegan { period: 2 }));
    }
}

#[test]
fn opening_discards_ganymede_crisis_tiles_and_skips_flipped_and_invaded_planets() {
    let (_, mut s) = set_up(2, 3);
    apply(
        &mut s,
        &Event::TilesDrawn {
            planet: Planet::Ganymede,
            tiles: vec![tile(40), tile(1)],
        },
    );
    apply(&mut s, &Event::PlanetFlipped { planet: Planet::Venus });
    apply(
        &mut s,
        &Event::AlienPlaced {
            alien: AlienTile::A1,
            planet: Planet::KuiperBelt,
        },
    );
    s.period = 1;
    let opening = open_period(&s);
    assert!(opening.contains(&Event::TilesDiscarded {
        planet: Planet::Ganymede,
        tiles: vec![tile(40)],
    }));
    let drawn_for = |p: Planet| {
        opening
            .iter()
            .any(|e| matches!(e, Event::TilesDrawn { planet, .. } if *planet == p))
    };
    assert!(!drawn_for(Planet::Venus));
    assert!(!drawn_for(Planet::KuiperBelt));
    assert!(drawn_for(Planet::Mercury) && drawn_for(Planet::Ganymede));
    let s2 = {
        let mut s2 = s.clone();
        for e in &opening {
            apply(&mut s2, e);
        }
        s2
    };
    assert_eq!(s2.period, 2);
    assert!(!s2.tiles_at(Planet::Ganymede).contains(&tile(40)));
    assert!(s2.tiles_at(Planet::Ganymede).contains(&tile(1)), "other tiles stay");
    assert!(s2.discarded_tiles.contains(&tile(40)));
    // After period 3, nothing opens.
    s.period = 3;
    assert!(open_period(&s).is_empty());
    assert!(open_period(&State::empty()).is_empty());
}

#[test]
fn a_bag_running_out_leaves_later_planets_without_tiles() {
    let (_, mut s) = set_up(5, 3);
    s.bag.truncate(3);
    let opening = open_period(&s);
    let drawn: Vec<(Planet, usize)> = opening
        .iter()
        .filter_map(|e| match e {
            Event::TilesDrawn { planet, tiles } => Some((*planet, tiles.len())),
            _ => None,
        })
        .collect();
    assert_eq!(drawn, [(Planet::Mercury, 2), (Planet::Venus, 1)]);
}
