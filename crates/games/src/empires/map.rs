//! The map of Space Empires 4X: the three boards, hex names, and the
//! System marker mixes dealt onto them.
//!
//! Everything here is the rules page's *The map* and *System markers: the
//! mixes* (`docs/rules/empires.md`):
//!
//! - **Boards** ([`Board`]): one fixed map per player count (2, 3 or 4).
//!   Every seat has a **home block** of 26 hexes (its homeworld and 25
//!   System markers) at the map's edge; the other hexes are **deep
//!   space**. Each map is carried onto itself by a symmetry of the hex
//!   grid (half turn, third turn, two mirrors) that carries seat 1's block
//!   and homeworld to every other seat's, so every seat has the same
//!   geometry (the tests check it, with the page's table of distances).
//! - **Hex names** ([`Board::name`], [`Board::parse`]): a column letter
//!   (`A` the map's leftmost column) and a row number, `A4`. The hexes are
//!   flat-topped: `q` is the column and `y = r − s` the height in half hexes.
//! - **Markers** ([`home_mix`], [`deep_mix`], [`deal`]): every seat's 25
//!   home markers and the deep-space markers, shuffled by the game's
//!   [`GameRng`] onto their hexes.
//!
//! Distances are [`Hex::distance`]. From every homeworld a shortest path to
//! any hex stays on the board (a test checks it), so the page's distances
//! are also the steps a ship takes.
//!
//! Pure: all randomness comes from the [`GameRng`] passed in.

use super::basics::{Dir, Marker};
use orrery_engine::{GameRng, Hex, Seat};
use serde::{Deserialize, Serialize};

/// Which part of the map a hex is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Area {
    /// A seat's home system (its homeworld included).
    Home(Seat),
    /// Deep space, between the home systems.
    Deep,
}

/// Hexes in a home block: the homeworld and 25 System markers.
pub const HOME_HEXES: usize = 26;

/// The board of one player count: its hexes, each hex's [`Area`] and each
/// seat's homeworld.
///
/// Stored in game states as its player count alone (`{"players":3}`): the
/// rest follows from the rules page, and is rebuilt when read back, so a
/// stored board is always one of the three maps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct Board {
    players: u8,
    /// Every hex with its area, in hex-name order (which is [`Hex`]'s own
    /// order, `q` then `r`: see [`Board::name_key`]).
    cells: Vec<(Hex, Area)>,
    /// Seat by seat.
    homeworlds: Vec<Hex>,
    /// The leftmost column's `q` (column `A`).
    q_min: i32,
    /// The smallest `y = r − s` on the map (the top of row 1).
    y_min: i32,
}

/// A board's stored form.
#[derive(Serialize, Deserialize)]
struct Stored {
    players: u8,
}

impl From<Board> for Stored {
    fn from(board: Board) -> Stored {
        Stored { players: board.players }
    }
}

impl TryFrom<Stored> for Board {
    type Error = String;

    fn try_from(stored: Stored) -> Result<Board, String> {
        Board::new(stored.players).ok_or_else(|| format!("no map for {} players (2 to 4)", stored.players))
    }
}

/// A hex's height below the centre line in half hexes: `y = r − s`.
fn height(h: Hex) -> i32 {
    h.r - h.s()
}

/// Whether `h` is on the map for `players`, as the page defines it.
fn on_map(players: u8, h: Hex) -> bool {
    match players {
        // 13 columns × 7 rows.
        2 => h.q.abs() <= 6 && height(h).abs() <= 6,
        // The disc of radius 5 and the three home blocks.
        3 => h.length() <= 5 || (0..3).any(|seat| in_block(3, seat, h)),
        // 11 columns × 15/16 rows.
        4 => h.q.abs() <= 5 && height(h).abs() <= 15,
        _ => false,
    }
}

/// Whether `h` is in the home block of seat `seat` (from 0) on the map for
/// `players`, as the page's tables define it. Each seat's condition stands
/// alone, so the tests can check that no two blocks overlap.
fn in_block(players: u8, seat: u8, h: Hex) -> bool {
    let (q, r, s, y) = (h.q, h.r, h.s(), height(h));
    let block = |edge: i32, across: i32| (-7..=-4).contains(&edge) && across.abs() <= 6;
    match (players, seat) {
        // The four columns at each side.
        (2, 0) => on_map(2, h) && q <= -3,
        (2, 1) => on_map(2, h) && q >= 3,
        // Seat 1's block turned by a third of a turn, and by two.
        (3, 0) => block(q, r - s),
        (3, 1) => block(r, s - q),
        (3, 2) => block(s, q - r),
        // The four corners, clockwise from the upper left; deep space is
        // the cross between them.
        (4, 0) => on_map(4, h) && q <= -2 && y <= -3,
        (4, 1) => on_map(4, h) && q >= 2 && y <= -3,
        (4, 2) => on_map(4, h) && q >= 2 && y >= 3,
        (4, 3) => on_map(4, h) && q <= -2 && y >= 3,
        _ => false,
    }
}

/// The area of `h` on the map for `players`, or `None` off the map.
fn area_of(players: u8, h: Hex) -> Option<Area> {
    if !on_map(players, h) {
        return None;
    }
    let home = (0..players).find(|&seat| in_block(players, seat, h));
    Some(home.map_or(Area::Deep, |seat| Area::Home(Seat(seat))))
}

/// The homeworlds, seat by seat (the page's tables).
fn homeworlds(players: u8) -> &'static [Hex] {
    const TWO: [Hex; 2] = [Hex::new(-6, 3), Hex::new(6, -3)];
    const THREE: [Hex; 3] = [Hex::new(-6, 3), Hex::new(3, -6), Hex::new(3, 3)];
    const FOUR: [Hex; 4] = [Hex::new(-5, -2), Hex::new(5, -7), Hex::new(5, 2), Hex::new(-5, 7)];
    match players {
        2 => &TWO,
        3 => &THREE,
        4 => &FOUR,
        _ => &[],
    }
}

/// Every map lies within this many steps of the centre (the 4-player
/// map's corners are 10 away).
const REACH: i32 = 12;

impl Board {
    /// The names of `hexes` as a list: "K4, L5 and M6".
    pub fn list(&self, hexes: &[Hex]) -> String {
        crate::shared::menu::and_list(&hexes.iter().map(|h| self.name(*h)).collect::<Vec<_>>())
    }
}

impl Board {
    /// The map for `players` (2 to 4), or `None` for any other count.
    pub fn new(players: u8) -> Option<Board> {
        if !(2..=4).contains(&players) {
            return None;
        }
        // `Hex::spiral` lists hexes by q, then r: hex-name order already.
        let cells: Vec<(Hex, Area)> = Hex::spiral(REACH)
            .into_iter()
            .filter_map(|h| area_of(players, h).map(|a| (h, a)))
            .collect();
        let q_min = cells.iter().map(|(h, _)| h.q).min()?;
        let y_min = cells.iter().map(|&(h, _)| height(h)).min()?;
        Some(Board {
            players,
            cells,
            homeworlds: homeworlds(players).to_vec(),
            q_min,
            y_min,
        })
    }

    /// How many players this map is for.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Whether `hex` is on the map.
    pub fn contains(&self, hex: Hex) -> bool {
        self.area(hex).is_some()
    }

    /// The area `hex` is in, or `None` off the map.
    pub fn area(&self, hex: Hex) -> Option<Area> {
        self.cells
            .binary_search_by_key(&hex, |&(h, _)| h)
            .ok()
            .map(|i| self.cells[i].1)
    }

    /// A seat's homeworld hex.
    ///
    /// # Panics
    ///
    /// If `seat` is not one of this map's seats: callers hold seats of the
    /// game.
    pub fn homeworld(&self, seat: Seat) -> Hex {
        match self.homeworlds.get(seat.index()) {
            Some(&h) => h,
            None => panic!("homeworld: no seat {seat} on the {}-player map", self.players),
        }
    }

    /// Every hex of the map, in hex-name order (column letter, then row
    /// number: `A1`, `A2`, …, `B1`, …).
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.cells.iter().map(|&(h, _)| h)
    }

    /// The hexes of one area, in hex-name order (a home's includes its
    /// homeworld).
    pub fn hexes_in(&self, area: Area) -> impl Iterator<Item = Hex> + '_ {
        self.cells.iter().filter(move |&&(_, a)| a == area).map(|&(h, _)| h)
    }

    /// The neighbours of `hex` on the map, in [`Dir::ALL`] order (`n`,
    /// `ne`, `se`, `s`, `sw`, `nw`).
    pub fn neighbours(&self, hex: Hex) -> Vec<Hex> {
        Dir::ALL
            .into_iter()
            .map(|d| hex.add(d.step()))
            .filter(|&h| self.contains(h))
            .collect()
    }

    /// A key that sorts hexes in hex-name order on every map: the column
    /// `q`, then the height `y = r − s` (column letters and row numbers grow
    /// with them). It orders hexes as [`Hex`]'s own `Ord` does, `y` growing
    /// with `r` in a column.
    pub fn name_key(hex: Hex) -> (i32, i32) {
        (hex.q, height(hex))
    }

    /// `hex`'s name as something to display: written out only when it is
    /// (an error message), not when a check passes.
    pub fn named(&self, hex: Hex) -> HexName<'_> {
        HexName(self, hex)
    }

    /// The hex's name, `A4`. A hex off the map (never one a game holds) is
    /// written as its coordinates, `(9, -2)`, so a bug shows.
    pub fn name(&self, hex: Hex) -> String {
        if !self.contains(hex) {
            return format!("({}, {})", hex.q, hex.r);
        }
        // On the map, the column index is below 26 and the row positive.
        let column = (b'A' + (hex.q - self.q_min) as u8) as char;
        let row = (height(hex) - self.y_min).div_euclid(2) + 1;
        format!("{column}{row}")
    }

    /// The hex a name stands for (`A4`, `a4`, ` K13 `), or `None` if no hex
    /// of this map has that name.
    pub fn parse(&self, text: &str) -> Option<Hex> {
        let t = text.trim();
        let mut chars = t.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let digits = chars.as_str();
        if !letter.is_ascii_uppercase() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: i32 = digits.parse().ok().filter(|row| (1..=99).contains(row))?;
        let q = self.q_min + i32::from(letter as u8 - b'A');
        // Row n holds heights y_min + 2(n − 1) and the one below it; the
        // column's hexes have the parity of q.
        let top = self.y_min + 2 * (row - 1);
        let y = if (top - q).rem_euclid(2) == 0 { top } else { top + 1 };
        let hex = Hex::new(q, (y - q) / 2);
        self.contains(hex).then_some(hex)
    }
}

/// Minerals of several values, `count` of each, in value order.
fn minerals(values: &[(u32, usize)]) -> impl Iterator<Item = Marker> + '_ {
    values
        .iter()
        .flat_map(|&(value, count)| std::iter::repeat_n(Marker::Minerals(value), count))
}

/// `count` of each marker, in the list's order.
fn markers(counts: &[(Marker, usize)]) -> impl Iterator<Item = Marker> + '_ {
    counts
        .iter()
        .flat_map(|&(marker, count)| std::iter::repeat_n(marker, count))
}

/// One seat's 25 home-system markers, in a fixed order (ours, after two
/// unofficial sources that agree): 8 Planets, 1 Barren Planet, 1 Black
/// Hole, 2 Nebulae, 2 Asteroids and 11 Minerals (5 ×5, 10 ×4, 15 ×2).
pub fn home_mix() -> Vec<Marker> {
    markers(&[
        (Marker::Planet, 8),
        (Marker::Barren, 1),
        (Marker::BlackHole, 1),
        (Marker::Nebula, 2),
        (Marker::Asteroids, 2),
    ])
    .chain(minerals(&[(5, 5), (10, 4), (15, 2)]))
    .collect()
}

/// The deep-space markers for `players` (ours: 33, 52 or 67, one per deep
/// hex), in a fixed order; empty for any other count (there is no such
/// map).
pub fn deep_mix(players: u8) -> Vec<Marker> {
    deep_mix_with(players, false)
}

/// The deep mix, with the six Warp Points of optional rule 16 when `warp`
/// (rules page, *Optional rules*): three numbered 1, three numbered 2, in
/// place of one Planet, one Barren Planet, one 10-CP Minerals, one Space
/// Wreck, one Nebula and one Asteroids, so that every deep hex still gets
/// one marker.
pub fn deep_mix_with(players: u8, warp: bool) -> Vec<Marker> {
    let mut mix = basic_deep_mix(players);
    if warp && !mix.is_empty() {
        let out = [
            Marker::Planet,
            Marker::Barren,
            Marker::Minerals(10),
            Marker::SpaceWreck,
            Marker::Nebula,
            Marker::Asteroids,
        ];
        for (i, m) in out.into_iter().enumerate() {
            if let Some(at) = mix.iter().position(|x| *x == m) {
                mix[at] = Marker::WarpPoint(1 + (i % 2) as u8);
            }
        }
    }
    mix
}

/// `mix` with Doomsday Machines 1 to `machines` (at most 3, text 17.1) in
/// place of one Danger!, one Lost in Space and one Super Nova, in that
/// order (rules page: a machine is a hazard, so the map's worth is the
/// same with or without them).
pub fn with_machines(mut mix: Vec<Marker>, machines: u32) -> Vec<Marker> {
    let out = [Marker::Danger, Marker::LostInSpace, Marker::SuperNova];
    for (i, m) in out.into_iter().enumerate().take(machines as usize) {
        if let Some(at) = mix.iter().position(|x| *x == m) {
            mix[at] = Marker::Doomsday(i as u8 + 1);
        }
    }
    mix
}

fn basic_deep_mix(players: u8) -> Vec<Marker> {
    // Planets, Barren Planets, Minerals (10, 15, 20), then Space Wrecks,
    // Nebulae, Asteroids, and the hazards: Black Holes, Super Novas,
    // Danger! and Lost in Space.
    let (planets, barren, [m10, m15, m20], wrecks, nebulae, asteroids, hazards) = match players {
        2 => (7, 4, [3, 2, 1], 2, 3, 3, 2),
        3 => (11, 6, [4, 4, 2], 3, 5, 5, 3),
        4 => (14, 8, [5, 5, 3], 4, 6, 6, 4),
        _ => return Vec::new(),
    };
    markers(&[(Marker::Planet, planets), (Marker::Barren, barren)])
        .chain(minerals(&[(10, m10), (15, m15), (20, m20)]))
        .chain(markers(&[
            (Marker::SpaceWreck, wrecks),
            (Marker::Nebula, nebulae),
            (Marker::Asteroids, asteroids),
            (Marker::BlackHole, hazards),
            (Marker::SuperNova, hazards),
            (Marker::Danger, hazards),
            (Marker::LostInSpace, hazards),
        ]))
        .collect()
}

/// Sets up the System markers (text 2.1, placed randomly): each seat's
/// [`home_mix`] shuffled onto its home hexes but the homeworld, then the
/// [`deep_mix`] shuffled onto the deep hexes. One marker per hex; the
/// homeworlds get none.
///
/// Draws, in this order: seat 1's shuffle, seat 2's, …, then deep space's;
/// each shuffled mix is laid on its hexes in hex-name order. The result is
/// in hex-name order, so the same seed always deals the same map.
pub fn deal(board: &Board, rng: &mut GameRng) -> Vec<(Hex, Marker)> {
    deal_with(board, rng, false, 0)
}

/// [`deal`], with the Warp Points of optional rule 16 in the deep mix when
/// `warp`, and `machines` Doomsday Machines (optional rule 17, 0 to 3) in
/// place of hazards ([`with_machines`]).
pub fn deal_with(board: &Board, rng: &mut GameRng, warp: bool, machines: u32) -> Vec<(Hex, Marker)> {
    let mut dealt = Vec::with_capacity(board.cells.len());
    let mut lay = |hexes: Vec<Hex>, mut mix: Vec<Marker>| {
        debug_assert_eq!(hexes.len(), mix.len(), "one marker per hex");
        rng.shuffle(&mut mix);
        dealt.extend(hexes.into_iter().zip(mix));
    };
    for seat in Seat::all(board.players as usize) {
        let home = board.homeworld(seat);
        let hexes = board.hexes_in(Area::Home(seat)).filter(|&h| h != home).collect();
        lay(hexes, home_mix());
    }
    lay(
        board.hexes_in(Area::Deep).collect(),
        with_machines(deep_mix_with(board.players, warp), machines),
    );
    dealt.sort_by_key(|&(h, _)| h);
    dealt
}

/// A hex's name ([`Board::name`]), written out when displayed.
pub struct HexName<'a>(&'a Board, Hex);

impl std::fmt::Display for HexName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.name(self.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet, VecDeque};

    fn board(players: u8) -> Board {
        Board::new(players).expect("a map for 2 to 4 players")
    }

    fn seats(b: &Board) -> impl Iterator<Item = Seat> {
        Seat::all(b.players() as usize)
    }

    /// Symmetry `k` of the map for `players`: it carries seat 1 to seat
    /// `k + 1` (the page's *The three maps*).
    fn symmetry(players: u8, k: usize, h: Hex) -> Hex {
        let (q, r, s) = (h.q, h.r, h.s());
        match (players, k) {
            (_, 0) => h,
            // The half turn.
            (2, 1) => Hex::new(-q, -r),
            // A third of a turn (q, r, s) -> (s, q, r), and two.
            (3, 1) => Hex::new(s, q),
            (3, 2) => Hex::new(r, s),
            // The left-right mirror, the half turn, the top-bottom mirror.
            (4, 1) => Hex::new(-q, q + r),
            (4, 2) => Hex::new(-q, -r),
            (4, 3) => Hex::new(q, -q - r),
            _ => unreachable!("no symmetry {k} for {players} players"),
        }
    }

    /// Steps on the board from `from` to every hex it reaches.
    fn steps_from(b: &Board, from: Hex) -> BTreeMap<Hex, i32> {
        let mut steps = BTreeMap::from([(from, 0)]);
        let mut queue = VecDeque::from([from]);
        while let Some(h) = queue.pop_front() {
            let next = steps[&h] + 1;
            for n in b.neighbours(h) {
                if let std::collections::btree_map::Entry::Vacant(e) = steps.entry(n) {
                    e.insert(next);
                    queue.push_back(n);
                }
            }
        }
        steps
    }

    #[test]
    fn maps_exist_for_two_to_four_players() {
        for players in [0, 1, 5, 6, u8::MAX] {
            assert_eq!(Board::new(players), None);
        }
        let sizes: Vec<usize> = (2..=4).map(|p| board(p).hexes().count()).collect();
        assert_eq!(sizes, vec![85, 130, 171]);
        for players in 2..=4 {
            let b = board(players);
            assert_eq!(b.players(), players);
            assert!(b.contains(Hex::new(0, 0)));
            assert_eq!(b.area(Hex::new(0, 0)), Some(Area::Deep));
            assert_eq!(b.area(Hex::new(40, 0)), None);
        }
        // 2 players: 13 columns × 7 rows; 4 players: 11 columns × 15/16 rows.
        let width = |b: &Board| b.hexes().map(|h| h.q).collect::<BTreeSet<_>>().len();
        assert_eq!([width(&board(2)), width(&board(3)), width(&board(4))], [13, 14, 11]);
    }

    /// Every home block has 26 hexes with its homeworld in it; deep space
    /// has 33, 52 and 67; the page's conditions for the blocks never
    /// overlap (each seat's stands alone), anywhere near the map.
    #[test]
    fn blocks_have_26_hexes_and_do_not_overlap() {
        for (players, deep) in [(2, 33), (3, 52), (4, 67)] {
            let b = board(players);
            for seat in seats(&b) {
                assert_eq!(
                    b.hexes_in(Area::Home(seat)).count(),
                    HOME_HEXES,
                    "{players} players, {seat}"
                );
                assert_eq!(b.area(b.homeworld(seat)), Some(Area::Home(seat)));
            }
            assert_eq!(b.hexes_in(Area::Deep).count(), deep);
            for h in Hex::spiral(REACH + 3) {
                let owners = (0..players).filter(|&s| in_block(players, s, h)).count();
                assert!(owners <= 1, "{players} players: {h:?} is in {owners} blocks");
                if owners == 1 {
                    assert!(b.contains(h));
                }
            }
            // Nothing lies outside the reach the board is built from.
            assert!(Hex::spiral(REACH + 3)
                .into_iter()
                .filter(|h| h.length() > REACH)
                .all(|h| !on_map(players, h)));
        }
    }

    /// The page's symmetry carries the board to itself, and seat 1's block
    /// and homeworld to every other seat's.
    #[test]
    fn symmetries_carry_seat_1_to_every_seat() {
        for players in 2..=4 {
            let b = board(players);
            let all: BTreeSet<Hex> = b.hexes().collect();
            let block: BTreeSet<Hex> = b.hexes_in(Area::Home(Seat(0))).collect();
            for seat in seats(&b) {
                let k = seat.index();
                let image: BTreeSet<Hex> = all.iter().map(|&h| symmetry(players, k, h)).collect();
                assert_eq!(image, all, "{players} players, symmetry {k}");
                let image: BTreeSet<Hex> = block.iter().map(|&h| symmetry(players, k, h)).collect();
                assert_eq!(
                    image,
                    b.hexes_in(Area::Home(seat)).collect(),
                    "{players} players, {seat}"
                );
                assert_eq!(symmetry(players, k, b.homeworld(Seat(0))), b.homeworld(seat));
                // Deep space goes to deep space.
                assert!(b
                    .hexes_in(Area::Deep)
                    .all(|h| b.area(symmetry(players, k, h)) == Some(Area::Deep)));
            }
        }
    }

    #[test]
    fn the_board_is_connected() {
        for players in 2..=4 {
            let b = board(players);
            let reached = steps_from(&b, b.homeworld(Seat(0)));
            assert_eq!(reached.len(), b.hexes().count(), "{players} players");
        }
    }

    /// From every homeworld a shortest path to any hex stays on the board,
    /// so the distances of the fairness table are steps a ship can take.
    /// (Not every pair of hexes: on the 3-player map the outer corners of
    /// two neighbouring blocks, 12 pairs, are one step farther apart on the
    /// board than by `Hex::distance`, as the straight way runs off the map.)
    #[test]
    fn paths_from_homeworlds_stay_on_the_board() {
        for players in 2..=4 {
            let b = board(players);
            for seat in seats(&b) {
                let home = b.homeworld(seat);
                for (h, steps) in steps_from(&b, home) {
                    assert_eq!(steps, home.distance(h), "{players} players, {seat}, {}", b.name(h));
                }
            }
            let longer: usize = b
                .hexes()
                .map(|a| {
                    steps_from(&b, a)
                        .into_iter()
                        .filter(|&(h, steps)| a < h && steps > a.distance(h))
                        .count()
                })
                .sum();
            assert_eq!(longer, if players == 3 { 12 } else { 0 }, "{players} players");
        }
    }

    #[test]
    fn neighbours_are_adjacent_hexes_on_the_board() {
        for players in 2..=4 {
            let b = board(players);
            for h in b.hexes() {
                let n = b.neighbours(h);
                assert!(n.iter().all(|&m| b.contains(m) && m.distance(h) == 1));
                let on = h.neighbors().into_iter().filter(|&m| b.contains(m)).count();
                assert_eq!(n.len(), on);
            }
        }
        // The 2-player homeworld A4 is on the left edge: n, ne, se, s only.
        // Column B's hexes sit half a row lower than A's, so B3 and B4
        // touch A4.
        let b = board(2);
        let names: Vec<String> = b.neighbours(Hex::new(-6, 3)).into_iter().map(|h| b.name(h)).collect();
        assert_eq!(names, ["A3", "B3", "B4", "A5"]);
    }

    #[test]
    fn homeworlds_have_the_pages_names() {
        let names = |players: u8| -> Vec<String> {
            let b = board(players);
            seats(&b).map(|s| b.name(b.homeworld(s))).collect()
        };
        assert_eq!(names(2), ["A4", "M4"]);
        assert_eq!(names(3), ["B7", "K3", "K12"]);
        assert_eq!(names(4), ["A4", "K4", "K13", "A13"]);
        let coords = |players: u8| -> Vec<(i32, i32)> {
            let b = board(players);
            seats(&b).map(|s| b.homeworld(s)).map(|h| (h.q, h.r)).collect()
        };
        assert_eq!(coords(2), [(-6, 3), (6, -3)]);
        assert_eq!(coords(3), [(-6, 3), (3, -6), (3, 3)]);
        assert_eq!(coords(4), [(-5, -2), (5, -7), (5, 2), (-5, 7)]);
        assert_eq!(board(2).name(Hex::new(0, 0)), "G4");
    }

    /// Every hex has one name and every name one hex: names are distinct,
    /// read back (any case, trimmed), and every letter-and-number that
    /// reads is a hex's name.
    #[test]
    fn names_are_a_bijection() {
        for players in 2..=4 {
            let b = board(players);
            let names: Vec<String> = b.hexes().map(|h| b.name(h)).collect();
            assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), names.len());
            for h in b.hexes() {
                let name = b.name(h);
                assert_eq!(b.parse(&name), Some(h));
                assert_eq!(b.parse(&format!("  {}\t", name.to_lowercase())), Some(h));
            }
            let mut read = 0;
            for letter in 'A'..='Z' {
                for row in 0..=40 {
                    let text = format!("{letter}{row}");
                    if let Some(h) = b.parse(&text) {
                        assert_eq!(b.name(h), text);
                        read += 1;
                    }
                }
            }
            assert_eq!(read, names.len());
        }
        let b = board(2);
        // Not a name, off the map (2 players: 13 columns, 7 rows in A and 6 in
        // B), or not digits after the letter.
        let bad = "|A|4|A0|A8|B7|N1|A-1|A+1|A 4|AA4|4A|Ä4|A99999999999";
        for bad in bad.split('|') {
            assert_eq!(b.parse(bad), None, "{bad:?}");
        }
        assert_eq!(b.name(Hex::new(9, -2)), "(9, -2)");
    }

    /// `hexes` lists the map column by column, each column top to bottom,
    /// and `name_key` sorts by column letter, then row number.
    #[test]
    fn hexes_are_in_hex_name_order() {
        for players in 2..=4 {
            let b = board(players);
            let hexes: Vec<Hex> = b.hexes().collect();
            let by_name = |h: &Hex| {
                let name = b.name(*h);
                (name[..1].to_string(), name[1..].parse::<u32>().unwrap())
            };
            let mut sorted = hexes.clone();
            sorted.sort_by_key(by_name);
            assert_eq!(hexes, sorted);
            let mut reversed: Vec<Hex> = hexes.iter().rev().copied().collect();
            reversed.sort_by_key(|&h| Board::name_key(h));
            assert_eq!(hexes, reversed);
        }
        let b = board(4);
        let first: Vec<String> = b.hexes().take(17).map(|h| b.name(h)).collect();
        assert_eq!(first[0], "A1");
        assert_eq!(first[15], "A16");
        assert_eq!(first[16], "B1");
    }

    /// How many of `hexes` lie at each distance from `from`, from `start`
    /// to the farthest (none may be nearer than `start`).
    fn by_distance(from: Hex, hexes: impl Iterator<Item = Hex>, start: i32) -> Vec<usize> {
        let distances: Vec<i32> = hexes.map(|h| from.distance(h)).collect();
        assert!(distances.iter().all(|&d| d >= start), "a hex nearer than {start}");
        let far = distances.iter().copied().max().unwrap_or(start);
        (start..=far)
            .map(|d| distances.iter().filter(|&&x| x == d).count())
            .collect()
    }

    /// One seat's view of the map: the columns of the page's fairness table
    /// (lists over rivals sorted).
    #[derive(Debug, PartialEq)]
    struct Geometry {
        rival_homeworlds: Vec<i32>,
        /// Own home hexes at distance 1, 2, 3, …
        own: Vec<usize>,
        nearest_deep: i32,
        /// Deep hexes at distance 3, 4, 5, …
        deep: Vec<usize>,
        nearest_rival_home: Vec<i32>,
        /// The distance between the nearest hexes of this block and each
        /// rival's.
        gaps: Vec<i32>,
    }

    fn geometry(b: &Board, seat: Seat) -> Geometry {
        let home = b.homeworld(seat);
        let rivals: Vec<Seat> = seats(b).filter(|&s| s != seat).collect();
        let block = |s: Seat| b.hexes_in(Area::Home(s));
        let sorted = |mut v: Vec<i32>| {
            v.sort();
            v
        };
        Geometry {
            rival_homeworlds: sorted(rivals.iter().map(|&s| home.distance(b.homeworld(s))).collect()),
            own: by_distance(home, block(seat).filter(|&h| h != home), 1),
            nearest_deep: b.hexes_in(Area::Deep).map(|h| home.distance(h)).min().unwrap(),
            deep: by_distance(home, b.hexes_in(Area::Deep), 3),
            nearest_rival_home: sorted(
                rivals
                    .iter()
                    .map(|&s| block(s).map(|h| home.distance(h)).min().unwrap())
                    .collect(),
            ),
            gaps: sorted(
                rivals
                    .iter()
                    .map(|&s| {
                        block(seat)
                            .flat_map(|a| block(s).map(move |c| a.distance(c)))
                            .min()
                            .unwrap()
                    })
                    .collect(),
            ),
        }
    }

    /// The page's fairness table: every seat sees the same geometry, and it
    /// is the table's.
    #[test]
    fn every_seat_has_the_pages_geometry() {
        let table = [
            Geometry {
                rival_homeworlds: vec![12],
                own: vec![4, 7, 10, 4],
                nearest_deep: 4,
                deep: vec![0, 5, 8, 7, 6, 7],
                nearest_rival_home: vec![9],
                gaps: vec![6],
            },
            Geometry {
                rival_homeworlds: vec![9, 9],
                own: vec![6, 9, 8, 2],
                nearest_deep: 3,
                deep: vec![4, 7, 10, 11, 6, 5, 4, 3, 2],
                nearest_rival_home: vec![7, 7],
                gaps: vec![3, 3],
            },
            Geometry {
                rival_homeworlds: vec![9, 10, 14],
                own: vec![4, 7, 10, 4],
                nearest_deep: 4,
                deep: vec![0, 7, 12, 12, 5, 5, 7, 6, 3, 3, 3, 3, 1],
                nearest_rival_home: vec![6, 7, 10],
                gaps: vec![3, 4, 6],
            },
        ];
        for (players, expected) in (2..=4).zip(table) {
            let b = board(players);
            for seat in seats(&b) {
                assert_eq!(geometry(&b, seat), expected, "{players} players, {seat}");
            }
            assert_eq!(expected.own.iter().sum::<usize>(), HOME_HEXES - 1);
            assert_eq!(expected.deep.iter().sum::<usize>(), b.hexes_in(Area::Deep).count());
        }
        // 4 players: 9 to the seat above or below, 10 across, 14 diagonally.
        let b = board(4);
        let from_1: Vec<i32> = (1..4)
            .map(|s| b.homeworld(Seat(0)).distance(b.homeworld(Seat(s))))
            .collect();
        assert_eq!(from_1, [10, 14, 9]);
    }

    /// The map drawn as on the page: one text line per half row, a hex's
    /// seat number, `H` for a homeworld, `.` for deep space.
    fn picture(b: &Board) -> String {
        let columns = b.hexes().map(|h| h.q).collect::<BTreeSet<_>>();
        let (q_min, q_max) = (*columns.first().unwrap(), *columns.last().unwrap());
        let heights: Vec<i32> = b.hexes().map(height).collect();
        let (y_min, y_max) = (*heights.iter().min().unwrap(), *heights.iter().max().unwrap());
        let letters: Vec<String> = (q_min..=q_max)
            .map(|q| b.name(b.hexes().find(|h| h.q == q).unwrap())[..1].to_string())
            .collect();
        let mut lines = vec![format!("    {}", letters.join("  "))];
        for y in y_min..=y_max {
            let mut line = vec![' '; 4 + 3 * letters.len()];
            for h in b.hexes().filter(|&h| height(h) == y) {
                line[4 + 3 * (h.q - q_min) as usize] = match b.area(h) {
                    Some(Area::Home(s)) if b.homeworld(s) == h => 'H',
                    Some(Area::Home(s)) => char::from(b'1' + s.0),
                    _ => '.',
                };
            }
            lines.push(line.into_iter().collect::<String>().trim_end().to_string());
        }
        lines.join("\n")
    }

    /// The rules page draws the three maps: the drawings are these boards.
    #[test]
    fn the_pages_pictures_are_these_maps() {
        const PAGE: &str = include_str!("../../../../docs/rules/empires.md");
        let pictures: Vec<String> = PAGE
            .split("```")
            .skip(1)
            .step_by(2)
            .map(|block| block.trim_start_matches('\n').trim_end().to_string())
            .filter(|block| block.starts_with("    A  B  C"))
            .map(|block| block.lines().map(str::trim_end).collect::<Vec<_>>().join("\n"))
            .collect();
        assert_eq!(pictures.len(), 3);
        for (players, page) in (2..=4).zip(&pictures) {
            assert_eq!(&picture(&board(players)), page, "{players} players");
        }
    }

    #[test]
    fn boards_are_stored_as_their_player_count() {
        for players in 2..=4 {
            let b = board(players);
            let json = serde_json::to_string(&b).unwrap();
            assert_eq!(json, format!(r#"{{"players":{players}}}"#));
            assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), b);
        }
        let e = serde_json::from_str::<Board>(r#"{"players":5}"#).unwrap_err();
        assert!(e.to_string().contains("no map for 5 players"), "{e}");
    }

    /// Counts of each marker in a mix.
    fn tally(mix: impl IntoIterator<Item = Marker>) -> BTreeMap<Marker, usize> {
        let mut t = BTreeMap::new();
        for m in mix {
            *t.entry(m).or_insert(0) += 1;
        }
        t
    }

    #[test]
    fn mixes_are_the_pages() {
        use Marker::*;
        assert_eq!(home_mix().len(), 25);
        assert_eq!(
            tally(home_mix()),
            BTreeMap::from([
                (Planet, 8),
                (Barren, 1),
                (BlackHole, 1),
                (Nebula, 2),
                (Asteroids, 2),
                (Minerals(5), 5),
                (Minerals(10), 4),
                (Minerals(15), 2),
            ])
        );
        // Columns of the page's deep table: 2, 3 and 4 players.
        let rows: [(Marker, [usize; 3]); 12] = [
            (Planet, [7, 11, 14]),
            (Barren, [4, 6, 8]),
            (Minerals(10), [3, 4, 5]),
            (Minerals(15), [2, 4, 5]),
            (Minerals(20), [1, 2, 3]),
            (SpaceWreck, [2, 3, 4]),
            (Nebula, [3, 5, 6]),
            (Asteroids, [3, 5, 6]),
            (BlackHole, [2, 3, 4]),
            (SuperNova, [2, 3, 4]),
            (Danger, [2, 3, 4]),
            (LostInSpace, [2, 3, 4]),
        ];
        for (i, players) in (2..=4).enumerate() {
            let expected: BTreeMap<Marker, usize> = rows.iter().map(|&(m, n)| (m, n[i])).collect();
            assert_eq!(tally(deep_mix(players)), expected, "{players} players");
            assert_eq!(deep_mix(players).len(), board(players).hexes_in(Area::Deep).count());
        }
        assert_eq!(deep_mix(1), []);
        assert_eq!(deep_mix(5), []);
    }

    /// With optional rule 16 the deep mix holds the six Warp Points (three
    /// of each number) in place of one Planet, Barren Planet, 10-CP
    /// Minerals, Space Wreck, Nebula and Asteroids (the page's *Optional
    /// rules*); the hazards are untouched and every deep hex still gets one
    /// marker. A deal without the option is the basic game's, draw for draw.
    #[test]
    fn warp_points_replace_six_deep_markers() {
        use Marker::*;
        for players in 2..=4 {
            let basic = tally(deep_mix(players));
            let warp = tally(deep_mix_with(players, true));
            assert_eq!(warp.get(&WarpPoint(1)), Some(&3));
            assert_eq!(warp.get(&WarpPoint(2)), Some(&3));
            for m in [Planet, Barren, Minerals(10), SpaceWreck, Nebula, Asteroids] {
                assert_eq!(warp[&m] + 1, basic[&m], "{players} players: {m:?}");
            }
            for m in [Minerals(15), Minerals(20), BlackHole, SuperNova, Danger, LostInSpace] {
                assert_eq!(warp[&m], basic[&m], "{players} players: {m:?}");
            }
            assert_eq!(deep_mix_with(players, true).len(), deep_mix(players).len());
            let b = board(players);
            assert_eq!(
                deal_with(&b, &mut GameRng::seeded(3), false, 0),
                deal(&b, &mut GameRng::seeded(3))
            );
        }
    }

    /// Every seat's home hexes but the homeworld hold exactly the home mix,
    /// deep space exactly the deep mix, one marker per hex.
    #[test]
    fn deal_places_exactly_the_mixes() {
        for seed in 0..20 {
            for players in 2..=4 {
                let b = board(players);
                let dealt = deal(&b, &mut GameRng::seeded(seed));
                let hexes: Vec<Hex> = dealt.iter().map(|&(h, _)| h).collect();
                let homeworlds: Vec<Hex> = seats(&b).map(|s| b.homeworld(s)).collect();
                let expected: Vec<Hex> = b.hexes().filter(|h| !homeworlds.contains(h)).collect();
                assert_eq!(
                    hexes, expected,
                    "one marker per hex but the homeworlds, in hex-name order"
                );
                let in_area = |area: Area| -> Vec<Marker> {
                    dealt
                        .iter()
                        .filter(|&&(h, _)| b.area(h) == Some(area))
                        .map(|&(_, m)| m)
                        .collect()
                };
                for seat in seats(&b) {
                    assert_eq!(tally(in_area(Area::Home(seat))), tally(home_mix()), "{seat}");
                }
                assert_eq!(tally(in_area(Area::Deep)), tally(deep_mix(players)));
            }
        }
    }

    #[test]
    fn deal_is_deterministic_per_seed() {
        let b = board(3);
        let deals: Vec<Vec<(Hex, Marker)>> = (0..10).map(|seed| deal(&b, &mut GameRng::seeded(seed))).collect();
        for (seed, d) in deals.iter().enumerate() {
            assert_eq!(*d, deal(&b, &mut GameRng::seeded(seed as u64)));
            for other in &deals[seed + 1..] {
                assert_ne!(d, other);
            }
        }
        // The draws continue the game's stream: dealing twice from one
        // generator deals two different maps.
        let mut rng = GameRng::seeded(1);
        assert_ne!(deal(&b, &mut rng), deal(&b, &mut rng));
    }

    /// Stored games replay their set-up: if the deal's order of draws or of
    /// hexes changes, old games would deal another map. This test must
    /// then fail.
    #[test]
    fn deal_is_pinned() {
        let b = board(2);
        let dealt = deal(&b, &mut GameRng::seeded(1));
        let first: Vec<String> = dealt
            .iter()
            .take(6)
            .map(|&(h, m)| format!("{} {}", b.name(h), m.name()))
            .collect();
        assert_eq!(first, PINNED);
        let last = dealt.last().map(|&(h, m)| format!("{} {}", b.name(h), m.name()));
        assert_eq!(last.as_deref(), Some(PINNED_LAST));
    }

    const PINNED: [&str; 6] = [
        "A1 Minerals (10)",
        "A2 Minerals (5)",
        "A3 Planet",
        "A5 Nebula",
        "A6 Barren Planet",
        "A7 Minerals (5)",
    ];
    const PINNED_LAST: &str = "M7 Minerals (10)";
}
