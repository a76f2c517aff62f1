//! The small types every layer of Spectrum War shares: the colours and
//! their wheel, a space in the three-dimensional map, and a ship's name.

pub mod ships;

use orrery_engine::Hex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A planet's or a player's colour: six on the wheel, and gray off it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Orange,
    Yellow,
    Green,
    Blue,
    Violet,
    Gray,
}

impl Colour {
    /// The wheel, in order: each colour's neighbours are the ones beside it.
    pub const WHEEL: [Colour; 6] = [
        Colour::Red,
        Colour::Orange,
        Colour::Yellow,
        Colour::Green,
        Colour::Blue,
        Colour::Violet,
    ];

    /// Position on the wheel (red 0 … violet 5); gray has none.
    pub fn wheel_index(self) -> Option<usize> {
        Colour::WHEEL.iter().position(|c| *c == self)
    }

    /// The colour `steps` places clockwise (red → orange) round the wheel.
    /// Gray stays gray.
    pub fn turned(self, steps: i32) -> Colour {
        match self.wheel_index() {
            Some(i) => Colour::WHEEL[(i as i32 + steps).rem_euclid(6) as usize],
            None => Colour::Gray,
        }
    }

    /// Steps between two wheel colours the short way round (0 to 3);
    /// `None` if either is gray.
    pub fn steps(self, other: Colour) -> Option<u32> {
        let (a, b) = (self.wheel_index()? as i32, other.wheel_index()? as i32);
        let d = (a - b).rem_euclid(6);
        Some(d.min(6 - d) as u32)
    }

    /// Points a planet of colour `self` pays an owner of colour `owner`:
    /// own 5, neighbours 4, gray 3, semi-opposite 2, opposite 1.
    pub fn income_for(self, owner: Colour) -> u32 {
        match self.steps(owner) {
            Some(0) => 5,
            Some(1) => 4,
            Some(2) => 2,
            Some(_) => 1,
            None => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Orange => "orange",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Blue => "blue",
            Colour::Violet => "violet",
            Colour::Gray => "gray",
        }
    }

    /// The letter a player's ships are named with (`R14`).
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Orange => 'O',
            Colour::Yellow => 'Y',
            Colour::Green => 'G',
            Colour::Blue => 'B',
            Colour::Violet => 'V',
            Colour::Gray => 'X',
        }
    }

    /// A colour by name, any case (`grey` too).
    pub fn parse(text: &str) -> Option<Colour> {
        let t = text.trim().to_ascii_lowercase();
        if t == "grey" {
            return Some(Colour::Gray);
        }
        Colour::WHEEL
            .iter()
            .copied()
            .chain([Colour::Gray])
            .find(|c| c.name() == t)
    }

    /// The colours seats take, in seat order, for a number of players: as
    /// far apart as the count allows (the rules page's table).
    pub fn of_seats(players: u8) -> Vec<Colour> {
        let idx: &[usize] = match players {
            2 => &[0, 3],
            3 => &[0, 2, 4],
            4 => &[0, 1, 3, 4],
            5 => &[0, 1, 2, 3, 4],
            _ => &[0, 1, 2, 3, 4, 5],
        };
        idx.iter().map(|i| Colour::WHEEL[*i]).collect()
    }

    /// The colours of `players` seats when some picked theirs ("select
    /// color"): a seat that picked keeps its colour; the others, in seat
    /// order, take the first colour of [`Colour::of_seats`] nobody has,
    /// else the first free one round the wheel.
    pub fn assign(players: u8, picks: &[Option<Colour>]) -> Vec<Colour> {
        let picked = |seat: usize| picks.get(seat).copied().flatten();
        let mut taken: Vec<Colour> = (0..players as usize).filter_map(picked).collect();
        let mut free = Colour::of_seats(players).into_iter().chain(Colour::WHEEL);
        (0..players as usize)
            .map(|seat| {
                picked(seat).unwrap_or_else(|| {
                    let c = free.find(|c| !taken.contains(c)).unwrap_or(Colour::Gray);
                    taken.push(c);
                    c
                })
            })
            .collect()
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One space of the map: a column of the hex disc and a level (1 low, 2
/// middle, 3 high).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Space {
    pub col: Hex,
    pub level: u8,
}

impl Space {
    pub const fn new(col: Hex, level: u8) -> Self {
        Space { col, level }
    }

    /// The fewest steps between two spaces: a step changes the column by
    /// one hex and the level by at most one, so this is the larger of the
    /// hex distance and the level difference.
    pub fn distance(self, other: Space) -> u32 {
        let flat = self.col.distance(other.col) as u32;
        let up = (self.level as i32 - other.level as i32).unsigned_abs();
        flat.max(up)
    }
}

/// A ship's name: its owner's colour letter and a number from 1 to 99
/// (`R14`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ShipId {
    pub colour: Colour,
    pub number: u8,
}

impl fmt::Display for ShipId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.number)
    }
}

impl ShipId {
    /// `R14`, `r14`, or `14` meaning one of `own`'s ships.
    pub fn parse(text: &str, own: Colour) -> Option<ShipId> {
        let t = text.trim();
        let (colour, digits) = match t.chars().next()? {
            c if c.is_ascii_digit() => (own, t),
            c => {
                let colour = Colour::WHEEL
                    .iter()
                    .copied()
                    .find(|w| w.letter() == c.to_ascii_uppercase())?;
                (colour, &t[c.len_utf8()..])
            }
        };
        let number: u8 = digits.parse().ok()?;
        (1..=99).contains(&number).then_some(ShipId { colour, number })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn income_follows_the_wheel() {
        // The rules page's table, from red's point of view.
        let red = Colour::Red;
        let paid: Vec<u32> = Colour::WHEEL.iter().map(|c| c.income_for(red)).collect();
        assert_eq!(paid, vec![5, 4, 2, 1, 2, 4]);
        assert_eq!(Colour::Gray.income_for(red), 3);
        assert_eq!(Colour::Green.income_for(Colour::Blue), 4);
        assert_eq!(Colour::Violet.turned(1), Colour::Red);
        assert_eq!(Colour::Red.turned(-1), Colour::Violet);
    }

    #[test]
    fn seats_take_colours_far_apart() {
        assert_eq!(Colour::of_seats(2), vec![Colour::Red, Colour::Green]);
        assert_eq!(Colour::of_seats(3), vec![Colour::Red, Colour::Yellow, Colour::Blue]);
        assert_eq!(Colour::of_seats(6).len(), 6);
        // Picks are kept; the others take today's assignment where free.
        assert_eq!(Colour::assign(3, &[]), Colour::of_seats(3));
        assert_eq!(
            Colour::assign(3, &[None, Some(Colour::Red), None]),
            vec![Colour::Yellow, Colour::Red, Colour::Blue]
        );
        assert_eq!(
            Colour::assign(2, &[Some(Colour::Green), Some(Colour::Orange)]),
            vec![Colour::Green, Colour::Orange]
        );
        assert_eq!(
            Colour::assign(6, &[None, None, None, None, None, Some(Colour::Red)]),
            vec![
                Colour::Orange,
                Colour::Yellow,
                Colour::Green,
                Colour::Blue,
                Colour::Violet,
                Colour::Red
            ]
        );
    }

    #[test]
    fn ship_names_read_back() {
        let id = ShipId {
            colour: Colour::Blue,
            number: 7,
        };
        assert_eq!(id.to_string(), "B7");
        assert_eq!(ShipId::parse("b7", Colour::Red), Some(id));
        assert_eq!(ShipId::parse("7", Colour::Blue), Some(id));
        assert_eq!(ShipId::parse("B0", Colour::Red), None);
        assert_eq!(ShipId::parse("Q7", Colour::Red), None);
    }

    #[test]
    fn distance_counts_steps_in_three_dimensions() {
        let a = Space::new(Hex::new(0, 0), 1);
        assert_eq!(a.distance(Space::new(Hex::new(2, -1), 1)), 2);
        assert_eq!(a.distance(Space::new(Hex::new(1, 0), 3)), 2);
        assert_eq!(a.distance(Space::new(Hex::new(0, 0), 3)), 2);
        assert_eq!(a.distance(a), 0);
    }
}
