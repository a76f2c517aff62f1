//! What the games share: drawing helpers and the players' colours for
//! board scenes ([`draw`]), and helpers for offering legal orders as
//! controls ([`menu`]), and the final standings' order ([`standings`]). A
//! game uses these, never another game's modules.

pub mod draw;
pub mod menu;
#[cfg(test)]
pub mod testing;

use orrery_engine::Seat;

/// Final standings from every seat's count, given in seat order: best
/// first (ties in seat order), each said by `unit` ("16 VP").
pub fn standings(counts: impl IntoIterator<Item = u32>, unit: impl Fn(u32) -> String) -> Vec<(Seat, String)> {
    let mut v: Vec<(Seat, u32)> = counts
        .into_iter()
        .enumerate()
        .map(|(i, n)| (Seat(u8::try_from(i).unwrap_or(u8::MAX)), n))
        .collect();
    v.sort_by_key(|(s, n)| (std::cmp::Reverse(*n), *s));
    v.into_iter().map(|(s, n)| (s, unit(n))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standings_put_the_best_first_and_keep_ties_in_seat_order() {
        let s = standings([3, 9, 3, 1], |n| format!("{n} VP"));
        assert_eq!(
            s,
            vec![
                (Seat(1), "9 VP".to_string()),
                (Seat(0), "3 VP".to_string()),
                (Seat(2), "3 VP".to_string()),
                (Seat(3), "1 VP".to_string()),
            ]
        );
    }
}
