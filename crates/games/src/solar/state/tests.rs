use super::*;
use crate::solar::events::{apply, Event};
use crate::solar::tests::kit::{base, die, seat_mut};

// ---------------------------------------------------------------------------
// Queries

#[test]
fn queries() {
    let mut s = base();
    for (seat, planet, piece) in [
        (0, Planet::Mars, Piece::Mine),
        (0, Planet::Mars, Piece::Factory),
        (1, Planet::Mars, Piece::Mine),
        (1, Planet::Mars, Piece::Factory),
        (2, Planet::Mars, Piece::Factory),
    ] {
        apply(
            &mut s,
            &Event::PieceGained {
                seat: Seat(seat),
                planet,
                piece,
            },
        );
    }
    assert_eq!(s.income_on(Seat(0), Planet::Mars), 5);
    assert_eq!(s.income(Seat(0)), 7);
    assert_eq!(s.income_leaders(Planet::Mars), [Seat(0), Seat(1)]);
    assert_eq!(s.income_leaders(Planet::Earth), Seat::all(3).collect::<Vec<_>>());
    assert!(s.income_leaders(Planet::Titan).is_empty(), "more than £0");
    assert_eq!(s.planets_with_pieces(Seat(0)), [Planet::Earth, Planet::Mars]);
    assert_eq!(s.pieces_on_board(Seat(0)), 3);
    assert_eq!(s.pieces_in_supply(Seat(0), Piece::Factory), 6);
    assert_eq!(s.hand_size(Seat(9)), 0, "unknown seats have nothing");
    assert_eq!(s.money(Seat(9)), 0);
    assert_eq!(s.over_hand_limit(Seat(0)), 0);
    seat_mut(&mut s, 0).hand.extend([CardId::Survey; 5]);
    assert_eq!(s.over_hand_limit(Seat(0)), 2);
    s.first_player = Some(Seat(1));
    assert_eq!(s.turn_order(), [Seat(1), Seat(2), Seat(0)]);
    assert_eq!(s.next_seat(Seat(2)), Seat(0));
    assert!(!s.passing_only());
    s.round = 11;
    assert!(s.passing_only(), "from round 11");
    s.options.round_limit = 12;
    assert!(!s.passing_only());
    let t = s.tiles_at(Planet::Earth)[0];
    assert_eq!(s.tile_planet(t), Some(Planet::Earth));
    assert_eq!(
        UnitCounts::new(2, 1, 1).cp(),
        5,
        "the page's Tension example: 2 infantry + 1 tank = 4, +1 ship"
    );
    assert_eq!(UnitCounts::new(2, 0, 1).cp(), 4);
    assert_eq!(UnitCounts::new(3, 1, 2).to_string(), "3 infantry, 1 spaceship, 2 tanks");
    assert_eq!(UnitCounts::NONE.to_string(), "no units");
}

#[test]
fn dice() {
    // "Dice 4, skull, 2 → highest 4, lowest 0 → 4."
    let d = [die(4), die(0), die(2)];
    assert_eq!(dice_spread(&d), 4);
    assert_eq!(skulls(&d), 1);
    assert_eq!(dice_total(&d), 6);
    // "Dice 3, 3, 3 → 0".
    assert_eq!(dice_spread(&[die(3); 3]), 0);
    // "Dice skull, 4, skull: 2 casualties".
    assert_eq!(skulls(&[die(0), die(4), die(0)]), 2);
    assert_eq!(Die::new(6), None);
    assert_eq!(Die::SKULL.to_string(), "skull");
    assert_eq!(die(5).to_string(), "5");
    assert_eq!(serde_json::to_string(&d).unwrap(), "[4,0,2]");
    assert!(serde_json::from_str::<Die>("6").is_err());
    let mut rng = GameRng::seeded(1);
    let mut seen = [0u32; 6];
    for _ in 0..600 {
        let d = Die::roll(&mut rng);
        seen[d.value() as usize] += 1;
    }
    assert!(seen.iter().all(|&n| n > 50), "every face comes up: {seen:?}");
}
