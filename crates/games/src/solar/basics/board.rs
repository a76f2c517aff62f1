//! The solar system of Solar Crisis and the game's fixed numbers.
//!
//! - [`PlayerCount`]: 2 to 5 players, and what depends on it (Pass cubes,
//!   places scored).
//! - [`Planet`]: the eight planets in planet order, the map (adjacency,
//!   [`Planet::distance`]), each planet's VP per place, tiles per period
//!   and crisis, and the [`ALIEN_PATH`].
//! - [`UnitKind`] and [`Piece`]: military units (CP, price, counters) and
//!   mines and factories (counters, income).
//! - [`Phase`]: the six phases of a period.
//! - The page's other numbers as named constants (set-up, cards, moving,
//!   buying, dice, crises).
//!
//! Everything here is read off `docs/rules/solar.md` (quoted in the doc
//! comments); the tests pin it to the page's text.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A name reduced for lookups: ASCII letters and digits only, lowercase.
/// "Kuiper Belt", "kuiper-belt" and "KUIPER_BELT" all become `kuiperbelt`.
pub(crate) fn name_key(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

// ---------------------------------------------------------------------------
// Players and periods

/// The number of players of a game: "2 to 5 players".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct PlayerCount(u8);

/// A player count outside 2 to 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Solar Crisis is for 2 to 5 players, not {0}")]
pub struct BadPlayerCount(pub u8);

impl PlayerCount {
    /// The fewest players.
    pub const MIN: u8 = 2;
    /// The most players.
    pub const MAX: u8 = 5;

    /// `None` outside 2 to 5.
    pub fn new(players: u8) -> Option<PlayerCount> {
        (Self::MIN..=Self::MAX)
            .contains(&players)
            .then_some(PlayerCount(players))
    }

    /// Every player count, 2 to 5.
    pub fn all() -> impl Iterator<Item = PlayerCount> {
        (Self::MIN..=Self::MAX).map(PlayerCount)
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// "There are **players + 2** cubes each period: 4 with 2 players, 7
    /// with 5."
    pub fn pass_cubes(self) -> u32 {
        u32::from(self.0) + PASS_CUBES_OVER_PLAYERS
    }

    /// Tiles drawn per period over all planets: "10 (2 players), 12 (3), 14
    /// (4), 16 (5)".
    pub fn tiles_per_period(self) -> u32 {
        Planet::ALL.iter().map(|p| p.tiles_per_period(self)).sum()
    }
}

impl TryFrom<u8> for PlayerCount {
    type Error = BadPlayerCount;
    fn try_from(players: u8) -> Result<PlayerCount, BadPlayerCount> {
        PlayerCount::new(players).ok_or(BadPlayerCount(players))
    }
}

impl From<PlayerCount> for u8 {
    fn from(players: PlayerCount) -> u8 {
        players.0
    }
}

impl fmt::Display for PlayerCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// "The game lasts **3 periods**."
pub const PERIODS: u32 = 3;

/// "put **number of players + 2** cubes on the Pass card": the cubes over
/// the number of players (see [`PlayerCount::pass_cubes`]).
pub const PASS_CUBES_OVER_PLAYERS: u32 = 2;

/// The default of the option `round_limit`: "From round 11 of a Player
/// Actions phase (option `round_limit`, default 10), the only order a
/// player may give on their turn is `pass`".
pub const DEFAULT_ROUND_LIMIT: u32 = 10;

/// One of the six phases of a period ("Each period has **6 phases**").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Phase {
    /// "Place Pass cubes — put number of players + 2 cubes on the Pass card".
    PlacePassCubes,
    /// "Tiles — first discard every Crisis tile on Ganymede; then draw tiles".
    Tiles,
    /// "Player actions — turns, one action each".
    PlayerActions,
    /// "Crises — roll for and resolve the crisis of every planet".
    Crises,
    /// "Income — every player takes £3 per mine and £2 per factory".
    Income,
    /// "Reset — every unit on a surface goes back into orbit of its planet".
    Reset,
}

impl Phase {
    /// The phases in order.
    pub const ALL: [Phase; 6] = [
        Phase::PlacePassCubes,
        Phase::Tiles,
        Phase::PlayerActions,
        Phase::Crises,
        Phase::Income,
        Phase::Reset,
    ];

    /// 1 to 6.
    pub fn number(self) -> u32 {
        self as u32 + 1
    }

    pub fn name(self) -> &'static str {
        match self {
            Phase::PlacePassCubes => "Place Pass cubes",
            Phase::Tiles => "Tiles",
            Phase::PlayerActions => "Player actions",
            Phase::Crises => "Crises",
            Phase::Income => "Income",
            Phase::Reset => "Reset",
        }
    }

    /// The phase after this one in the same period; `None` after Reset.
    pub fn next(self) -> Option<Phase> {
        Phase::ALL.get(self as usize + 1).copied()
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------
// The planets

/// A planet. The variants are in **planet order** ("used for tile draws
/// and crises"), which is also their `Ord`. Serialized as its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Planet {
    Mercury,
    Venus,
    Earth,
    Moon,
    Mars,
    Ganymede,
    Titan,
    KuiperBelt,
}

/// The most places a planet shows VP for (1st / 2nd / 3rd).
pub const MAX_PLACES: usize = 3;

/// What a planet shows: name, VP for 1st / 2nd / 3rd place, tiles per
/// period for 2 / 3 / 4 / 5 players, crisis, and whether a level-4 crisis
/// flips it.
struct PlanetData {
    name: &'static str,
    vp: &'static [u32],
    tiles: [u32; 4],
    crisis: &'static str,
    flips: bool,
}

/// Indexed by `Planet as usize`.
const PLANETS: [PlanetData; 8] = [
    PlanetData {
        name: "Mercury",
        vp: &[4, 2],
        tiles: [1, 1, 1, 2],
        crisis: "Bazagthoth the Blinded",
        flips: false,
    },
    PlanetData {
        name: "Venus",
        vp: &[5, 3, 1],
        tiles: [1, 1, 2, 2],
        crisis: "Venusian Uprising",
        flips: true,
    },
    PlanetData {
        name: "Earth",
        vp: &[7, 4, 2],
        tiles: [2, 3, 3, 4],
        crisis: "Robot Rebellion",
        flips: false,
    },
    PlanetData {
        name: "Moon",
        vp: &[3, 1],
        tiles: [1, 1, 1, 1],
        crisis: "Attack of the Moon Men",
        flips: true,
    },
    PlanetData {
        name: "Mars",
        vp: &[6, 3, 1],
        tiles: [1, 2, 2, 2],
        crisis: "Martian Invasion",
        flips: true,
    },
    PlanetData {
        name: "Ganymede",
        vp: &[3, 1],
        tiles: [1, 1, 1, 1],
        crisis: "Nothing Happens",
        flips: false,
    },
    PlanetData {
        name: "Titan",
        vp: &[4, 2, 1],
        tiles: [1, 1, 2, 2],
        crisis: "Space Pirates!",
        flips: false,
    },
    PlanetData {
        name: "Kuiper Belt",
        vp: &[5, 2],
        tiles: [2, 2, 2, 2],
        crisis: "Alien Invasion",
        flips: false,
    },
];

/// The adjacent pairs, as the page lists them: "Mercury–Venus,
/// Venus–Earth, Earth–Moon, Earth–Mars, Mars–Ganymede, Ganymede–Titan,
/// Titan–Kuiper Belt. Nothing else. The Moon is adjacent to Earth only."
pub const ADJACENT: [(Planet, Planet); 7] = [
    (Planet::Mercury, Planet::Venus),
    (Planet::Venus, Planet::Earth),
    (Planet::Earth, Planet::Moon),
    (Planet::Earth, Planet::Mars),
    (Planet::Mars, Planet::Ganymede),
    (Planet::Ganymede, Planet::Titan),
    (Planet::Titan, Planet::KuiperBelt),
];

/// "**The alien path**: Kuiper Belt → Titan → Ganymede → Mars → **Moon** →
/// Earth. (The aliens land on the Moon before Earth; players move by the
/// planet map, aliens by this path.)"
pub const ALIEN_PATH: [Planet; 6] = [
    Planet::KuiperBelt,
    Planet::Titan,
    Planet::Ganymede,
    Planet::Mars,
    Planet::Moon,
    Planet::Earth,
];

impl Planet {
    /// Every planet, in planet order.
    pub const ALL: [Planet; 8] = [
        Planet::Mercury,
        Planet::Venus,
        Planet::Earth,
        Planet::Moon,
        Planet::Mars,
        Planet::Ganymede,
        Planet::Titan,
        Planet::KuiperBelt,
    ];

    /// 0 (Mercury) to 7 (Kuiper Belt), in planet order.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Option<Planet> {
        Planet::ALL.get(i).copied()
    }

    fn data(self) -> &'static PlanetData {
        &PLANETS[self.index()]
    }

    /// "Mercury", ..., "Kuiper Belt".
    pub fn name(self) -> &'static str {
        self.data().name
    }

    /// Case-insensitive lookup: "names are typed without caring about
    /// capitals (`kuiper` = `Kuiper Belt`)". Spaces, hyphens and
    /// underscores are ignored (`kuiper-belt`, `KuiperBelt`), and `kuiper`
    /// is the Kuiper Belt's short form.
    pub fn by_name(text: &str) -> Option<Planet> {
        let key = name_key(text);
        if key == "kuiper" {
            return Some(Planet::KuiperBelt);
        }
        Planet::ALL.into_iter().find(|p| name_key(p.name()) == key)
    }

    /// VP for 1st, 2nd (and 3rd) place, as the planet shows them.
    pub fn vp(self) -> &'static [u32] {
        self.data().vp
    }

    /// VP for `place` (1 = 1st): `None` for a place the planet does not
    /// show. Every place it shows scores, at every player count ("Each
    /// planet awards VPs for 1st, 2nd, and sometimes 3rd place as shown in
    /// hexagons").
    pub fn place_vp(self, place: usize) -> Option<u32> {
        place.checked_sub(1).and_then(|i| self.vp().get(i).copied())
    }

    /// Tiles drawn for this planet in Phase 2 ("its **tiles per period**
    /// for 2 / 3 / 4 / 5 players").
    pub fn tiles_per_period(self, players: PlayerCount) -> u32 {
        let column = usize::from(players.get() - PlayerCount::MIN);
        self.data().tiles[column]
    }

    /// The name of the planet's crisis ("Robot Rebellion").
    pub fn crisis_name(self) -> &'static str {
        self.data().crisis
    }

    /// Whether a level-4+ crisis flips the planet: "A **flipped** planet
    /// (Venus, Moon or Mars after a level-4 crisis) stays flipped for the
    /// rest of the game".
    pub fn can_flip(self) -> bool {
        self.data().flips
    }

    /// The planets 1 step away.
    pub fn neighbours(self) -> impl Iterator<Item = Planet> {
        ADJACENT.into_iter().filter_map(move |(a, b)| {
            if a == self {
                Some(b)
            } else if b == self {
                Some(a)
            } else {
                None
            }
        })
    }

    pub fn is_adjacent(self, other: Planet) -> bool {
        ADJACENT.contains(&(self, other)) || ADJACENT.contains(&(other, self))
    }

    /// Where the planet sits: its place on the line Mercury – Kuiper Belt,
    /// and how far it hangs off the line (the Moon, under Earth).
    fn position(self) -> (u32, u32) {
        match self {
            Planet::Mercury => (0, 0),
            Planet::Venus => (1, 0),
            Planet::Earth => (2, 0),
            Planet::Moon => (2, 1),
            Planet::Mars => (3, 0),
            Planet::Ganymede => (4, 0),
            Planet::Titan => (5, 0),
            Planet::KuiperBelt => (6, 0),
        }
    }

    /// "**Distance** = the fewest steps between two planets" over
    /// [`ADJACENT`]. The map is a line with the Moon hanging off Earth, so
    /// it is the distance along the line plus a step on and off the Moon.
    pub fn distance(self, other: Planet) -> u32 {
        if self == other {
            return 0;
        }
        let (a, a_off) = self.position();
        let (b, b_off) = other.position();
        a.abs_diff(b) + a_off + b_off
    }

    /// The next planet on the [`ALIEN_PATH`] (towards Earth); `None` for
    /// Earth and for planets off the path (Mercury, Venus).
    pub fn alien_next(self) -> Option<Planet> {
        let i = ALIEN_PATH.iter().position(|&p| p == self)?;
        ALIEN_PATH.get(i + 1).copied()
    }
}

impl fmt::Display for Planet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Planet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Planet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Planet, D::Error> {
        let text = String::deserialize(d)?;
        Planet::by_name(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown planet `{text}`")))
    }
}

// ---------------------------------------------------------------------------
// Units and pieces

/// A military unit. "Units in orbit are ready; units on the surface are
/// spent."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    Infantry,
    Spaceship,
    Tank,
}

impl UnitKind {
    pub const ALL: [UnitKind; 3] = [UnitKind::Infantry, UnitKind::Spaceship, UnitKind::Tank];

    /// "The **loss order**, used whenever no choice is given: units:
    /// **infantry, then tanks, then spaceships** (spent before ready)". The
    /// unit that goes to the surface for an undefended claim is chosen the
    /// same way: "an infantry goes, else a tank, else a spaceship".
    pub const LOSS_ORDER: [UnitKind; 3] = [UnitKind::Infantry, UnitKind::Tank, UnitKind::Spaceship];

    /// "infantry", "spaceship", "tank".
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Spaceship => "spaceship",
            UnitKind::Tank => "tank",
        }
    }

    /// The word orders use: `unit:infantry|ship|tank`.
    pub fn order_word(self) -> &'static str {
        match self {
            UnitKind::Infantry => "infantry",
            UnitKind::Spaceship => "ship",
            UnitKind::Tank => "tank",
        }
    }

    /// Case-insensitive: `infantry`, `ship`, `spaceship`, `tank`, and their
    /// plurals (`ships`, `tanks`).
    pub fn by_name(text: &str) -> Option<UnitKind> {
        match name_key(text).as_str() {
            "infantry" => Some(UnitKind::Infantry),
            "ship" | "ships" | "spaceship" | "spaceships" => Some(UnitKind::Spaceship),
            "tank" | "tanks" => Some(UnitKind::Tank),
            _ => None,
        }
    }

    /// Combat points when paying or defending: "**infantry 1 CP, spaceship
    /// 1 CP, tank 2 CP**".
    pub fn cp(self) -> u32 {
        match self {
            UnitKind::Infantry | UnitKind::Spaceship => 1,
            UnitKind::Tank => 2,
        }
    }

    /// Price in £: "**Infantry £2**", "**Tank £3**, **spaceship £4**".
    pub fn price(self) -> u32 {
        match self {
            UnitKind::Infantry => 2,
            UnitKind::Spaceship => 4,
            UnitKind::Tank => 3,
        }
    }

    /// Counters per colour: "**9 infantry**, **7 spaceships**, **5 tanks**".
    pub fn limit(self) -> u32 {
        match self {
            UnitKind::Infantry => 9,
            UnitKind::Spaceship => 7,
            UnitKind::Tank => 5,
        }
    }

    /// Whether a bought unit may be placed at a planet where you have a
    /// factory: infantry goes "in **Earth orbit only**"; tanks and
    /// spaceships "in orbit of **Earth**, or of any planet where you have
    /// **at least one factory**".
    pub fn placed_at_factories(self) -> bool {
        !matches!(self, UnitKind::Infantry)
    }

    /// Whether the unit moves without a card: "**Tanks never move**, unless
    /// a card says so (Heavy Lift, Rapid Deployment)". Infantry moves only
    /// carried by a spaceship.
    pub fn moves_without_card(self) -> bool {
        !matches!(self, UnitKind::Tank)
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on a planet's surface: a mine or a factory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    Mine,
    Factory,
}

impl Piece {
    pub const ALL: [Piece; 2] = [Piece::Mine, Piece::Factory];

    /// "pieces: **factories before mines**".
    pub const LOSS_ORDER: [Piece; 2] = [Piece::Factory, Piece::Mine];

    /// "mine", "factory" (as in `piece:mine|factory`).
    pub fn name(self) -> &'static str {
        match self {
            Piece::Mine => "mine",
            Piece::Factory => "factory",
        }
    }

    /// Case-insensitive, plurals too (`mines`, `factories`).
    pub fn by_name(text: &str) -> Option<Piece> {
        match name_key(text).as_str() {
            "mine" | "mines" => Some(Piece::Mine),
            "factory" | "factories" => Some(Piece::Factory),
            _ => None,
        }
    }

    /// Counters per colour: "**12 mines**, **8 factories**".
    pub fn limit(self) -> u32 {
        match self {
            Piece::Mine => 12,
            Piece::Factory => 8,
        }
    }

    /// Income in £ per period, also "income on a planet" for crises and
    /// scoring: "**£3 per mine** and **£2 per factory**".
    pub fn income(self) -> u32 {
        match self {
            Piece::Mine => 3,
            Piece::Factory => 2,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------
// Set-up, cards, money

/// The planet everyone starts at, and where infantry is bought.
pub const HOME: Planet = Planet::Earth;

/// "Each player puts **4 infantry** and 2 spaceships in Earth orbit".
pub const START_INFANTRY: u32 = 4;

/// "Each player puts 4 infantry and **2 spaceships** in Earth orbit".
pub const START_SPACESHIPS: u32 = 2;

/// "and **1 factory on Earth**".
pub const START_FACTORIES: u32 = 1;

/// "and takes **£12**".
pub const START_MONEY: u32 = 12;

/// "The 40 deck cards are shuffled; each player is dealt **2**".
pub const CARDS_DEALT: u32 = 2;

/// "so every hand starts with **6 cards** (4 own + 2 drawn)".
pub const HAND_AT_SETUP: u32 = 6;

/// "**Hand limit 9.** Whenever you hold more than 9 cards, you discard down
/// to 9 at once".
pub const HAND_LIMIT: u32 = 9;

/// "`pass` — take **one Pass cube** from the Pass card and **draw 1
/// card**": the cards drawn.
pub const PASS_DRAW: u32 = 1;

/// "The destination must be at **distance 1 or 2**".
pub const MOVE_RANGE: u32 = 2;

/// "(3 with Afterburners or Rapid Deployment)".
pub const BOOSTED_MOVE_RANGE: u32 = 3;

/// "`buy units:LIST` — buy **1 or 2 units** (3 with War Bonds)".
pub const BUY_LIMIT: u32 = 2;

// ---------------------------------------------------------------------------
// Dice

/// "**The dice.** Three six-sided dice": every roll (claims, crises, the
/// damage to Earth, the first player) is of this many dice.
pub const DICE: usize = 3;

/// The value of the skull face: "A skull counts as **0**".
pub const SKULL: u32 = 0;

/// The faces, as values: "faces **skull, 1, 2, 3, 4, 5**".
pub const DIE_FACES: [u32; 6] = [SKULL, 1, 2, 3, 4, 5];

// ---------------------------------------------------------------------------
// Crises

/// "A **flipped** planet (Venus, Moon or Mars after a level-4 crisis)":
/// the level from which those planets flip ("**Level 4+**").
pub const FLIP_LEVEL: u32 = 4;

/// Robot Rebellion: "**Level 4+**: the game **ends at once: everyone
/// loses**".
pub const ROBOT_REBELLION_LEVEL: u32 = 4;

/// Alien Invasion: "**Level 3+**: the **invasion** ... It happens **once
/// per game**".
pub const ALIEN_INVASION_LEVEL: u32 = 3;

/// Venusian Uprising, level 2–3: "every player **loses 2 military units at
/// Venus**".
pub const VENUS_UNITS_LOST: u32 = 2;

/// Bazagthoth the Blinded, power A: "pay **£1**: take **1 random card**
/// from another player's hand" (from level 1).
pub const MERCURY_STEAL_COST: u32 = 1;

/// Power B: "pay **£1**: destroy **1 military unit** of another player on
/// any planet" (from level 2).
pub const MERCURY_KILL_COST: u32 = 1;

/// Power C: "pay **£3**: destroy **1 mine or factory** of another player
/// on any planet" (from level 3).
pub const MERCURY_WRECK_COST: u32 = 3;

/// Space Pirates!: "pays **£1 per such piece** to the bank".
pub const PIRATE_FEE: u32 = 1;

/// Space Pirates! at level 3+ hits "pieces on **Titan, Ganymede and the
/// Kuiper Belt**", lost "on the **Kuiper Belt first, then Titan, then
/// Ganymede**" when no choice is given. (At level 2, Titan only.)
pub const PIRATE_LOSS_ORDER: [Planet; 3] = [Planet::KuiperBelt, Planet::Titan, Planet::Ganymede];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solar::page;
    use std::collections::{BTreeSet, VecDeque};

    fn players(n: u8) -> PlayerCount {
        PlayerCount::new(n).expect("2 to 5 players")
    }

    /// The fewest steps over [`ADJACENT`], by breadth-first search.
    fn steps(from: Planet, to: Planet) -> Option<u32> {
        let mut seen = BTreeSet::from([from]);
        let mut queue = VecDeque::from([(from, 0)]);
        while let Some((p, d)) = queue.pop_front() {
            if p == to {
                return Some(d);
            }
            for n in p.neighbours() {
                if seen.insert(n) {
                    queue.push_back((n, d + 1));
                }
            }
        }
        None
    }

    #[test]
    fn planets_are_in_planet_order_with_the_pages_names() {
        let order: Vec<&str> = Planet::ALL.iter().map(|p| p.name()).collect();
        let line = format!("Planet order (used for tile draws and crises): {}.", order.join(", "));
        assert!(page().contains(&line), "not on the page: {line}");
        for (i, p) in Planet::ALL.into_iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(Planet::from_index(i), Some(p));
        }
        assert_eq!(Planet::from_index(8), None);
        assert!(Planet::ALL.windows(2).all(|w| w[0] < w[1]), "Ord is planet order");
    }

    #[test]
    fn names_are_typed_without_caring_about_capitals() {
        for p in Planet::ALL {
            assert_eq!(Planet::by_name(p.name()), Some(p));
            assert_eq!(Planet::by_name(&p.name().to_uppercase()), Some(p));
            assert_eq!(Planet::by_name(&p.name().to_lowercase()), Some(p));
        }
        for text in [
            "kuiper",
            "Kuiper",
            "kuiper belt",
            "kuiper-belt",
            "KuiperBelt",
            " Kuiper Belt ",
        ] {
            assert_eq!(Planet::by_name(text), Some(Planet::KuiperBelt), "{text}");
        }
        for text in ["", "pluto", "belt", "earthmoon"] {
            assert_eq!(Planet::by_name(text), None, "{text}");
        }
    }

    #[test]
    fn each_planet_shows_the_pages_vp_tiles_and_crisis() {
        let text = page();
        for p in Planet::ALL {
            let join = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(" / ");
            let tiles: Vec<u32> = PlayerCount::all().map(|n| p.tiles_per_period(n)).collect();
            let line = format!(
                "{} — VP {} · tiles {} · {}",
                p.name(),
                join(p.vp()),
                join(&tiles),
                p.crisis_name()
            );
            assert!(text.contains(&line), "not on the page: {line}");
            // The crisis effects have a section per planet too.
            let heading = format!("### {} — {}", p.name(), p.crisis_name());
            assert!(text.contains(&heading), "not on the page: {heading}");
            assert!((2..=MAX_PLACES).contains(&p.vp().len()));
            assert!(p.vp().windows(2).all(|w| w[0] > w[1]), "{p}: VP fall by place");
        }
    }

    #[test]
    fn tiles_per_period_add_up_to_the_pages_totals() {
        let totals: Vec<u32> = PlayerCount::all().map(PlayerCount::tiles_per_period).collect();
        assert_eq!(totals, [10, 12, 14, 16]);
        let line = format!(
            "Tiles per period in all: {} (2 players), {} (3), {} (4), {} (5).",
            totals[0], totals[1], totals[2], totals[3]
        );
        assert!(page().contains(&line), "not on the page: {line}");
    }

    #[test]
    fn every_place_a_planet_shows_scores() {
        let mars = Planet::Mars;
        assert_eq!(mars.place_vp(1), Some(6));
        assert_eq!(mars.place_vp(2), Some(3));
        assert_eq!(mars.place_vp(3), Some(1));
        assert_eq!(mars.place_vp(0), None);
        assert_eq!(mars.place_vp(4), None);
        // Mercury shows two places only.
        assert_eq!(Planet::Mercury.place_vp(2), Some(2));
        assert_eq!(Planet::Mercury.place_vp(3), None);
        assert!(page().contains("Every place a planet shows scores, at every player count"));
    }

    #[test]
    fn only_venus_the_moon_and_mars_flip() {
        let flipping: Vec<Planet> = Planet::ALL.into_iter().filter(|p| p.can_flip()).collect();
        assert_eq!(flipping, [Planet::Venus, Planet::Moon, Planet::Mars]);
        assert!(page().contains("A flipped planet (Venus, Moon or Mars after a crisis of level 4 or more)"));
    }

    #[test]
    fn adjacency_is_the_pages_list_and_nothing_else() {
        let pairs: Vec<String> = ADJACENT
            .iter()
            .map(|(a, b)| format!("{}–{}", a.name(), b.name()))
            .collect();
        let line = format!("Adjacent planets (1 step apart): {}. Nothing else.", pairs.join(", "));
        assert!(page().contains(&line), "not on the page: {line}");
        let moon: Vec<Planet> = Planet::Moon.neighbours().collect();
        assert_eq!(moon, [Planet::Earth], "the Moon is adjacent to Earth only");
        for a in Planet::ALL {
            assert!(!a.is_adjacent(a));
            for b in Planet::ALL {
                assert_eq!(a.is_adjacent(b), b.is_adjacent(a));
                assert_eq!(a.is_adjacent(b), a.distance(b) == 1, "{a}–{b}");
            }
        }
    }

    #[test]
    fn distance_is_the_fewest_steps() {
        for a in Planet::ALL {
            for b in Planet::ALL {
                assert_eq!(Some(a.distance(b)), steps(a, b), "{a}–{b}");
                assert_eq!(a.distance(b), b.distance(a));
            }
        }
        assert_eq!(Planet::Earth.distance(Planet::KuiperBelt), 4);
        assert_eq!(Planet::Moon.distance(Planet::KuiperBelt), 5);
        assert_eq!(Planet::Mercury.distance(Planet::KuiperBelt), 6);
    }

    /// The page's distance examples, read off the page.
    #[test]
    fn the_pages_distance_examples() {
        let text = page();
        let start = text.find("Examples: ").expect("the distance examples") + "Examples: ".len();
        let end = start + text[start..].find('.').expect("a full stop");
        let mut checked = 0;
        for example in text[start..end].split(", ") {
            let (pair, n) = example.rsplit_once(' ').expect("`A–B n`");
            let (a, b) = pair.split_once('–').expect("`A–B`");
            let n: u32 = n.parse().expect("a number");
            let (a, b) = (Planet::by_name(a).expect("planet"), Planet::by_name(b).expect("planet"));
            assert_eq!(a.distance(b), n, "{pair}");
            checked += 1;
        }
        assert_eq!(checked, 5);
    }

    #[test]
    fn the_alien_path() {
        let names: Vec<&str> = ALIEN_PATH.iter().map(|p| p.name()).collect();
        let line = format!("The alien path: {}.", names.join(" → "));
        assert!(page().contains(&line), "not on the page: {line}");
        assert_eq!(Planet::KuiperBelt.alien_next(), Some(Planet::Titan));
        assert_eq!(Planet::Mars.alien_next(), Some(Planet::Moon));
        assert_eq!(Planet::Moon.alien_next(), Some(Planet::Earth));
        assert_eq!(Planet::Earth.alien_next(), None);
        assert_eq!(Planet::Venus.alien_next(), None);
    }

    #[test]
    fn planets_serialize_as_names() {
        let json = serde_json::to_string(&Planet::KuiperBelt).unwrap();
        assert_eq!(json, "\"Kuiper Belt\"");
        for p in Planet::ALL {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Planet>(&json).unwrap(), p);
        }
        assert_eq!(
            serde_json::from_str::<Planet>("\"kuiper\"").unwrap(),
            Planet::KuiperBelt
        );
        assert!(serde_json::from_str::<Planet>("\"Pluto\"").is_err());
    }

    #[test]
    fn player_counts_and_pass_cubes() {
        assert_eq!(PlayerCount::new(1), None);
        assert_eq!(PlayerCount::new(6), None);
        let all: Vec<u8> = PlayerCount::all().map(PlayerCount::get).collect();
        assert_eq!(all, [2, 3, 4, 5]);
        assert_eq!(players(2).pass_cubes(), 4);
        assert_eq!(players(5).pass_cubes(), 7);
        let line = format!(
            "There are players + {PASS_CUBES_OVER_PLAYERS} cubes each period: {} with 2 players, {} with 5.",
            players(2).pass_cubes(),
            players(5).pass_cubes()
        );
        assert!(page().contains(&line), "not on the page: {line}");
        let line = format!(
            "{} to {} players · {PERIODS} periods · play-by-post",
            PlayerCount::MIN,
            PlayerCount::MAX
        );
        assert!(page().contains(&line), "not on the page: {line}");
        assert_eq!(serde_json::to_string(&players(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<PlayerCount>("4").unwrap(), players(4));
        assert!(serde_json::from_str::<PlayerCount>("6").is_err());
    }

    #[test]
    fn phases_of_a_period() {
        let text = page();
        assert!(text.contains(&format!(
            "The game lasts {PERIODS} periods. Each period has {} phases:",
            Phase::ALL.len()
        )));
        for p in Phase::ALL {
            let line = format!("{}. {} — ", p.number(), p.name());
            assert!(text.contains(&line), "not on the page: {line}");
        }
        assert_eq!(Phase::Tiles.next(), Some(Phase::PlayerActions));
        assert_eq!(Phase::Reset.next(), None);
        assert!(text.contains(&format!("(option round_limit, default {DEFAULT_ROUND_LIMIT})")));
    }

    #[test]
    fn units_and_pieces() {
        let text = page();
        let [inf, ship, tank] = UnitKind::ALL;
        let line = format!(
            "{} infantry, {} spaceships, {} tanks (military units),",
            inf.limit(),
            ship.limit(),
            tank.limit()
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!(
            "{} mines, {} factories (pieces),",
            Piece::Mine.limit(),
            Piece::Factory.limit()
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!(
            "infantry {} CP, spaceship {} CP, tank {} CP",
            inf.cp(),
            ship.cp(),
            tank.cp()
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!("Infantry £{} — placed in Earth orbit only.", inf.price());
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!(
            "Tank £{}, spaceship £{} — placed in orbit of Earth, or of any planet where you have at least one factory.",
            tank.price(),
            ship.price()
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!(
            "every player takes £{} per mine and £{} per factory",
            Piece::Mine.income(),
            Piece::Factory.income()
        );
        assert!(text.contains(&line), "not on the page: {line}");
        assert!(text.contains("units: infantry, then tanks, then spaceships (spent before ready)"));
        assert!(text.contains("pieces: factories before mines"));
        assert!(text.contains("on the Kuiper Belt first, then Titan, then Ganymede."));
        assert!(!inf.placed_at_factories() && ship.placed_at_factories() && tank.placed_at_factories());
        assert!(!tank.moves_without_card());
        for u in UnitKind::ALL {
            assert_eq!(UnitKind::by_name(u.name()), Some(u));
            assert_eq!(UnitKind::by_name(u.order_word()), Some(u));
            assert_eq!(serde_json::to_value(u).unwrap(), serde_json::json!(u.name()));
        }
        assert_eq!(UnitKind::by_name("Ships"), Some(UnitKind::Spaceship));
        assert_eq!(UnitKind::by_name("mine"), None);
        for p in Piece::ALL {
            assert_eq!(Piece::by_name(p.name()), Some(p));
            assert_eq!(serde_json::to_value(p).unwrap(), serde_json::json!(p.name()));
        }
        assert_eq!(Piece::by_name("Factories"), Some(Piece::Factory));
    }

    #[test]
    fn set_up_and_other_numbers() {
        let text = page();
        let line = format!(
            "Each player puts {START_INFANTRY} infantry and {START_SPACESHIPS} spaceships in {HOME} orbit and \
             {START_FACTORIES} factory on {HOME}, and takes £{START_MONEY}."
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!("each player is dealt {CARDS_DEALT}, so every hand starts with {HAND_AT_SETUP} cards");
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!("Hand limit {HAND_LIMIT}. Whenever you hold more than {HAND_LIMIT} cards");
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!("pass — take one Pass cube from the Pass card and draw {PASS_DRAW} card.");
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!(
            "The destination must be at distance 1 or {MOVE_RANGE} ({BOOSTED_MOVE_RANGE} with Afterburners or \
             Rapid Deployment)."
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let line = format!("buy 1 or {BUY_LIMIT} units (3 with War Bonds)");
        assert!(text.contains(&line), "not on the page: {line}");
        assert!(text.contains("Three six-sided dice with faces skull, 1, 2, 3, 4, 5. A skull counts as 0."));
        assert_eq!(DIE_FACES.len(), 6);
        for u in UnitKind::ALL {
            let at_start = match u {
                UnitKind::Infantry => START_INFANTRY,
                UnitKind::Spaceship => START_SPACESHIPS,
                UnitKind::Tank => 0,
            };
            assert!(at_start <= u.limit());
        }
        assert!(START_FACTORIES <= Piece::Factory.limit());
        const { assert!(HAND_AT_SETUP <= HAND_LIMIT) };
    }

    #[test]
    fn crisis_numbers() {
        let text = page();
        assert!(text.contains(&format!(
            "Level 2–3: every player loses {VENUS_UNITS_LOST} military units at Venus."
        )));
        assert!(text.contains(&format!("A — pay £{MERCURY_STEAL_COST}: take 1 random card")));
        assert!(text.contains(&format!("B — pay £{MERCURY_KILL_COST}: destroy 1 military unit")));
        assert!(text.contains(&format!("C — pay £{MERCURY_WRECK_COST}: destroy 1 mine or factory")));
        assert!(text.contains(&format!("pays £{PIRATE_FEE} per such piece to the bank.")));
        assert!(text.contains(&format!(
            "Level {ROBOT_REBELLION_LEVEL}+: the game ends at once: everyone loses."
        )));
        assert!(text.contains(&format!(
            "Level {ALIEN_INVASION_LEVEL}+: the invasion (see The aliens). It happens once per game"
        )));
        let flips = format!("Level {FLIP_LEVEL}+: remove");
        assert_eq!(text.matches(&flips).count(), 3, "Venus, Moon and Mars: {flips}");
    }
}
