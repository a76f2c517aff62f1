//! The tiles: the 55 square tiles of the bag (#1 to #55: type, defence,
//! skull mark), the 3 round Alien tiles, and what a claimed tile gives.
//!
//! Read off `docs/rules/solar.md` (*Tiles and the bag*, *The aliens*); the
//! tests pin the table to the page's text.

use super::board::{Piece, Planet};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// "The bag holds **55 square tiles**."
pub const BAG_SIZE: usize = 55;

/// "**Windfall** — take **£3**".
pub const WINDFALL_MONEY: u32 = 3;

/// "**Draw Two Cards** — draw **2 cards**".
pub const DRAW_TWO_CARDS: u32 = 2;

/// "**Big Game** — keep the tile: **1 VP** at the end."
pub const BIG_GAME_VP: u32 = 1;

/// "**Crisis** — keep the tile: **1 VP** at the end".
pub const CRISIS_VP: u32 = 1;

/// "**Alien** — keep the tile: **2 VP** at the end."
pub const ALIEN_VP: u32 = 2;

/// "The 3 round **Alien tiles** ... have **defence 7**".
pub const ALIEN_DEFENCE: u32 = 7;

/// The type of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TileKind {
    Mine,
    Factory,
    Windfall,
    DrawTwoCards,
    BigGame,
    Crisis,
    Tension,
    /// The round Alien tiles, never in the bag.
    Alien,
}

impl TileKind {
    /// The types of the bag's tiles, in the page's order (and number order).
    pub const IN_BAG: [TileKind; 7] = [
        TileKind::Mine,
        TileKind::Factory,
        TileKind::Windfall,
        TileKind::DrawTwoCards,
        TileKind::BigGame,
        TileKind::Crisis,
        TileKind::Tension,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TileKind::Mine => "Mine",
            TileKind::Factory => "Factory",
            TileKind::Windfall => "Windfall",
            TileKind::DrawTwoCards => "Draw Two Cards",
            TileKind::BigGame => "Big Game",
            TileKind::Crisis => "Crisis",
            TileKind::Tension => "Tension",
            TileKind::Alien => "Alien",
        }
    }

    /// What claiming a tile of this type gives ("What a claimed tile
    /// gives"). A claimed Crisis tile leaves its planet, so "the planet's
    /// crisis level drops by 1" (the level counts the Crisis tiles there);
    /// a claimed Alien tile also makes its planet **cleared**.
    pub fn gain(self) -> Gain {
        match self {
            TileKind::Mine => Gain::Piece(Piece::Mine),
            TileKind::Factory => Gain::Piece(Piece::Factory),
            TileKind::Windfall => Gain::Money(WINDFALL_MONEY),
            TileKind::DrawTwoCards => Gain::Cards(DRAW_TWO_CARDS),
            TileKind::BigGame => Gain::Trophy { vp: BIG_GAME_VP },
            TileKind::Crisis => Gain::Trophy { vp: CRISIS_VP },
            TileKind::Tension => Gain::TakeOver,
            TileKind::Alien => Gain::Trophy { vp: ALIEN_VP },
        }
    }
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a claimed tile gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Gain {
    /// "put your mine / factory on the planet; the tile is discarded."
    Piece(Piece),
    /// "take £N; the tile is discarded."
    Money(u32),
    /// "draw N cards; the tile is discarded."
    Cards(u32),
    /// "keep the tile: N VP at the end."
    Trophy { vp: u32 },
    /// "take over a rival's mine or factory on that planet"; on success the
    /// Tension tile is discarded.
    TakeOver,
}

impl Gain {
    /// Whether the claimant keeps the tile (for VP); otherwise it is
    /// discarded ("Discarded tiles leave the game").
    pub fn keeps_tile(self) -> bool {
        matches!(self, Gain::Trophy { .. })
    }

    /// VP the kept tile scores at the end.
    pub fn vp(self) -> u32 {
        match self {
            Gain::Trophy { vp } => vp,
            _ => 0,
        }
    }
}

/// A tile's defence value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Defence {
    /// A printed value; "0 means **undefended**".
    Printed(u32),
    /// Tension tiles: "No printed defence: the defence of a Tension claim
    /// is the defender's units" (infantry 1, spaceship 1, tank 2).
    DefenderUnits,
}

impl Defence {
    /// A printed 0: claimed with one unit, no dice. (A Tension claim is
    /// always rolled, even against a defence of 0.)
    pub fn is_undefended(self) -> bool {
        self == Defence::Printed(0)
    }

    /// The printed value, if any.
    pub fn printed(self) -> Option<u32> {
        match self {
            Defence::Printed(v) => Some(v),
            Defence::DefenderUnits => None,
        }
    }
}

/// The number of a bag tile, 1 to 55 ("only a name for orders:
/// `tile:12`"). Serialized as the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct TileId(u8);

/// A tile number outside 1 to 55.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no tile #{0} (tiles are #1 to #55)")]
pub struct BadTileId(pub u8);

impl TileId {
    /// `None` outside 1 to 55.
    pub fn new(number: u8) -> Option<TileId> {
        (1..=BAG_SIZE as u8).contains(&number).then_some(TileId(number))
    }

    /// Every tile number, 1 to 55.
    pub fn all() -> impl Iterator<Item = TileId> {
        (1..=BAG_SIZE as u8).map(TileId)
    }

    /// 1 to 55.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The tile's row of [`BAG`].
    pub fn tile(self) -> Tile {
        BAG[usize::from(self.0 - 1)]
    }

    pub fn kind(self) -> TileKind {
        self.tile().kind
    }

    pub fn defence(self) -> Defence {
        self.tile().defence
    }

    pub fn skull_marked(self) -> bool {
        self.tile().skull
    }
}

impl TryFrom<u8> for TileId {
    type Error = BadTileId;
    fn try_from(number: u8) -> Result<TileId, BadTileId> {
        TileId::new(number).ok_or(BadTileId(number))
    }
}

impl From<TileId> for u8 {
    fn from(id: TileId) -> u8 {
        id.0
    }
}

/// "#12".
impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One square tile of the bag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tile {
    pub id: TileId,
    pub kind: TileKind,
    pub defence: Defence,
    /// Skull-marked Crisis tiles take the crisis dice's skulls.
    pub skull: bool,
}

/// The bag's tile `number` (1 to 55), as the page lists them.
const fn bag_tile(number: u8) -> Tile {
    use Defence::{DefenderUnits, Printed};
    use TileKind::*;
    let (kind, defence) = match number {
        // "Mine (12): #1–#4 defence 0 · #5–#8 defence 1 · #9–#11 defence 2 · #12 defence 3."
        1..=4 => (Mine, Printed(0)),
        5..=8 => (Mine, Printed(1)),
        9..=11 => (Mine, Printed(2)),
        12 => (Mine, Printed(3)),
        // "Factory (10): #13–#16 defence 0 · #17–#19 defence 1 · #20–#22 defence 2."
        13..=16 => (Factory, Printed(0)),
        17..=19 => (Factory, Printed(1)),
        20..=22 => (Factory, Printed(2)),
        // "Windfall (6): #23–#26 defence 0 · #27–#28 defence 1."
        23..=26 => (Windfall, Printed(0)),
        27..=28 => (Windfall, Printed(1)),
        // "Draw Two Cards (5): #29–#31 defence 0 · #32–#33 defence 1."
        29..=31 => (DrawTwoCards, Printed(0)),
        32..=33 => (DrawTwoCards, Printed(1)),
        // "Big Game (6): #34–#39, undefended." The text lists Big Game
        // among the "Undefended tiles (no defense value)".
        34..=39 => (BigGame, Printed(0)),
        // "Crisis (10): #40–#49, undefended." So does it Crisis.
        40..=49 => (Crisis, Printed(0)),
        // "Tension (6): #50–#55. No printed defence".
        _ => (Tension, DefenderUnits),
    };
    Tile {
        id: TileId(number),
        kind,
        defence,
        // "Skull-marked: #40, #41, #44, #45, #48, #49 (six tiles)."
        skull: matches!(number, 40 | 41 | 44 | 45 | 48 | 49),
    }
}

const fn build_bag() -> [Tile; BAG_SIZE] {
    let mut bag = [bag_tile(1); BAG_SIZE];
    let mut i = 0;
    while i < BAG_SIZE {
        bag[i] = bag_tile(i as u8 + 1);
        i += 1;
    }
    bag
}

/// The 55 tiles of the bag, #1 to #55 (index = number − 1).
pub const BAG: [Tile; BAG_SIZE] = build_bag();

/// A round Alien tile: "The 3 round **Alien tiles** (`A1`, `A2`, `A3`) are
/// not in the bag".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AlienTile {
    A1,
    A2,
    A3,
}

impl AlienTile {
    pub const ALL: [AlienTile; 3] = [AlienTile::A1, AlienTile::A2, AlienTile::A3];

    /// "A1", "A2", "A3".
    pub fn name(self) -> &'static str {
        match self {
            AlienTile::A1 => "A1",
            AlienTile::A2 => "A2",
            AlienTile::A3 => "A3",
        }
    }

    /// Case-insensitive (`a1`).
    pub fn by_name(text: &str) -> Option<AlienTile> {
        let text = text.trim();
        AlienTile::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(text))
    }

    /// Where the invasion places it: "place Alien tile **A1 on the Kuiper
    /// Belt, A2 on Titan, A3 on Ganymede**".
    pub fn invades(self) -> Planet {
        match self {
            AlienTile::A1 => Planet::KuiperBelt,
            AlienTile::A2 => Planet::Titan,
            AlienTile::A3 => Planet::Ganymede,
        }
    }
}

impl fmt::Display for AlienTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Any tile an order can name: a bag tile by number (`tile:12`) or an
/// Alien tile (`tile:A1`). Serialized as that name ("12", "A1").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileRef {
    Bag(TileId),
    Alien(AlienTile),
}

impl TileRef {
    /// `12`, `#12`, `A1`, `a1`.
    pub fn parse(text: &str) -> Option<TileRef> {
        let text = text.trim();
        if let Some(alien) = AlienTile::by_name(text) {
            return Some(TileRef::Alien(alien));
        }
        let digits = text.strip_prefix('#').unwrap_or(text);
        digits.parse::<u8>().ok().and_then(TileId::new).map(TileRef::Bag)
    }

    /// The name orders use: "12", "A1".
    pub fn key(self) -> String {
        match self {
            TileRef::Bag(id) => id.number().to_string(),
            TileRef::Alien(alien) => alien.name().to_string(),
        }
    }

    pub fn kind(self) -> TileKind {
        match self {
            TileRef::Bag(id) => id.kind(),
            TileRef::Alien(_) => TileKind::Alien,
        }
    }

    pub fn defence(self) -> Defence {
        match self {
            TileRef::Bag(id) => id.defence(),
            TileRef::Alien(_) => Defence::Printed(ALIEN_DEFENCE),
        }
    }

    /// Only bag Crisis tiles carry a skull mark.
    pub fn skull_marked(self) -> bool {
        match self {
            TileRef::Bag(id) => id.skull_marked(),
            TileRef::Alien(_) => false,
        }
    }
}

/// "#12", "A1".
impl fmt::Display for TileRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TileRef::Bag(id) => id.fmt(f),
            TileRef::Alien(alien) => alien.fmt(f),
        }
    }
}

impl Serialize for TileRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.key())
    }
}

impl<'de> Deserialize<'de> for TileRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TileRef, D::Error> {
        let text = String::deserialize(d)?;
        TileRef::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown tile `{text}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solar::page;

    /// The page's line for a bag tile type, built from the table: "Mine
    /// (12): #1–#4 defence 0 · ... · #12 defence 3." Runs of consecutive
    /// numbers with one defence are written `#a–#b defence d`.
    fn page_line(kind: TileKind) -> String {
        let tiles: Vec<Tile> = BAG.iter().copied().filter(|t| t.kind == kind).collect();
        let mut runs: Vec<(u8, u8, Defence)> = Vec::new();
        for t in &tiles {
            match runs.last_mut() {
                Some((_, last, d)) if *d == t.defence && *last + 1 == t.id.number() => *last = t.id.number(),
                _ => runs.push((t.id.number(), t.id.number(), t.defence)),
            }
        }
        let runs: Vec<String> = runs
            .into_iter()
            .map(|(a, b, d)| {
                let numbers = if a == b {
                    format!("#{a}")
                } else {
                    format!("#{a}–#{b}")
                };
                match d {
                    Defence::Printed(v) => format!("{numbers} defence {v}"),
                    Defence::DefenderUnits => numbers,
                }
            })
            .collect();
        format!("{} ({}): {}.", kind.name(), tiles.len(), runs.join(" · "))
    }

    #[test]
    fn every_bag_type_is_as_the_page_lists_it() {
        let text = page();
        for kind in TileKind::IN_BAG {
            let line = page_line(kind);
            assert!(text.contains(&line), "not on the page: {line}");
        }
        assert_eq!(
            page_line(TileKind::Mine),
            "Mine (12): #1–#4 defence 0 · #5–#8 defence 1 · #9–#11 defence 2 · #12 defence 3."
        );
        assert_eq!(page_line(TileKind::Tension), "Tension (6): #50–#55.");
    }

    #[test]
    fn counts_per_type_and_total() {
        let count = |kind| BAG.iter().filter(|t| t.kind == kind).count();
        let counts: Vec<usize> = TileKind::IN_BAG.into_iter().map(count).collect();
        assert_eq!(counts, [12, 10, 6, 5, 6, 10, 6]);
        assert_eq!(counts.iter().sum::<usize>(), BAG_SIZE);
        assert_eq!(count(TileKind::Alien), 0, "Alien tiles are not in the bag");
        assert_eq!(BAG.len(), 55);
        assert!(page().contains(&format!("The bag holds {BAG_SIZE} square tiles.")));
        assert!(page().contains(&format!("All {BAG_SIZE} square tiles go into the bag.")));
    }

    #[test]
    fn numbers_run_from_1_to_55_in_the_pages_order() {
        for (i, t) in BAG.iter().enumerate() {
            assert_eq!(usize::from(t.id.number()), i + 1);
            assert_eq!(t.id.tile(), *t);
        }
        let ids: Vec<TileId> = TileId::all().collect();
        assert_eq!(ids.len(), BAG_SIZE);
        assert_eq!(TileId::new(0), None);
        assert_eq!(TileId::new(56), None);
        // Types come in blocks, in the page's order.
        let mut kinds: Vec<TileKind> = BAG.iter().map(|t| t.kind).collect();
        kinds.dedup();
        assert_eq!(kinds, TileKind::IN_BAG);
    }

    #[test]
    fn defences() {
        let defence = |n| TileId::new(n).map(TileId::defence);
        assert_eq!(defence(1), Some(Defence::Printed(0)));
        assert_eq!(defence(12), Some(Defence::Printed(3)));
        assert_eq!(defence(22), Some(Defence::Printed(2)));
        assert_eq!(defence(34), Some(Defence::Printed(0)));
        assert_eq!(defence(49), Some(Defence::Printed(0)));
        assert_eq!(defence(50), Some(Defence::DefenderUnits));
        let undefended: Vec<u8> = BAG
            .iter()
            .filter(|t| t.defence.is_undefended())
            .map(|t| t.id.number())
            .collect();
        let expected: Vec<u8> = (1..=4)
            .chain(13..=16)
            .chain(23..=26)
            .chain(29..=31)
            .chain(34..=49)
            .collect();
        assert_eq!(undefended, expected);
        for t in &BAG {
            assert_eq!(t.defence.printed().is_none(), t.kind == TileKind::Tension, "{}", t.id);
            assert!(t.defence.printed().unwrap_or(0) <= 3);
        }
    }

    #[test]
    fn the_skull_marked_crisis_tiles() {
        let skulls: Vec<u8> = BAG.iter().filter(|t| t.skull).map(|t| t.id.number()).collect();
        assert_eq!(skulls, [40, 41, 44, 45, 48, 49]);
        assert!(BAG.iter().filter(|t| t.skull).all(|t| t.kind == TileKind::Crisis));
        let list: Vec<String> = skulls.iter().map(|n| format!("#{n}")).collect();
        let line = format!("Skull-marked: {} (six tiles).", list.join(", "));
        assert!(page().contains(&line), "not on the page: {line}");
    }

    #[test]
    fn what_a_claimed_tile_gives() {
        let text = page();
        for kind in [TileKind::Windfall, TileKind::DrawTwoCards] {
            let gives = match kind.gain() {
                Gain::Money(n) => format!("take £{n}"),
                Gain::Cards(n) => format!("draw {n} cards"),
                other => panic!("{kind}: {other:?}"),
            };
            let line = format!("{} — {gives}; the tile is discarded.", kind.name());
            assert!(text.contains(&line), "not on the page: {line}");
            assert!(!kind.gain().keeps_tile());
        }
        for kind in [TileKind::BigGame, TileKind::Crisis, TileKind::Alien] {
            let line = format!("{} — keep the tile: {} VP at the end", kind.name(), kind.gain().vp());
            assert!(text.contains(&line), "not on the page: {line}");
            assert!(kind.gain().keeps_tile());
        }
        assert!(text.contains("Mine / Factory — put your mine / factory on the planet; the tile is discarded."));
        assert_eq!(TileKind::Mine.gain(), Gain::Piece(Piece::Mine));
        assert_eq!(TileKind::Factory.gain(), Gain::Piece(Piece::Factory));
        assert!(text.contains("Tension — take over a rival's mine or factory on that planet."));
        assert_eq!(TileKind::Tension.gain(), Gain::TakeOver);
        assert!(!Gain::TakeOver.keeps_tile());
        assert_eq!(Gain::TakeOver.vp(), 0);
    }

    #[test]
    fn the_alien_tiles() {
        let text = page();
        let names: Vec<&str> = AlienTile::ALL.iter().map(|a| a.name()).collect();
        let line = format!(
            "The {} round Alien tiles ({}) are not in the bag; they have defence {ALIEN_DEFENCE}",
            AlienTile::ALL.len(),
            names.join(", ")
        );
        assert!(text.contains(&line), "not on the page: {line}");
        let places: Vec<String> = AlienTile::ALL
            .iter()
            .map(|a| match a.invades() {
                Planet::KuiperBelt => format!("{a} on the Kuiper Belt"),
                p => format!("{a} on {p}"),
            })
            .collect();
        let line = format!("place Alien tile {}.", places.join(", "));
        assert!(text.contains(&line), "not on the page: {line}");
        for a in AlienTile::ALL {
            let tile = TileRef::Alien(a);
            assert_eq!(tile.kind(), TileKind::Alien);
            assert_eq!(tile.defence(), Defence::Printed(ALIEN_DEFENCE));
            assert!(!tile.skull_marked());
            assert_eq!(tile.kind().gain().vp(), ALIEN_VP);
        }
    }

    #[test]
    fn tile_names_in_orders() {
        let t12 = TileRef::Bag(TileId::new(12).expect("#12"));
        assert_eq!(TileRef::parse("12"), Some(t12));
        assert_eq!(TileRef::parse("#12"), Some(t12));
        assert_eq!(TileRef::parse(" 12 "), Some(t12));
        assert_eq!(TileRef::parse("a2"), Some(TileRef::Alien(AlienTile::A2)));
        assert_eq!(TileRef::parse("A3"), Some(TileRef::Alien(AlienTile::A3)));
        for bad in ["0", "56", "A4", "", "#", "mine", "-1"] {
            assert_eq!(TileRef::parse(bad), None, "{bad}");
        }
        assert_eq!(t12.to_string(), "#12");
        assert_eq!(t12.key(), "12");
        for tile in TileId::all()
            .map(TileRef::Bag)
            .chain(AlienTile::ALL.map(TileRef::Alien))
        {
            assert_eq!(TileRef::parse(&tile.key()), Some(tile));
            let json = serde_json::to_string(&tile).unwrap();
            assert_eq!(serde_json::from_str::<TileRef>(&json).unwrap(), tile);
        }
        assert_eq!(serde_json::to_string(&t12).unwrap(), "\"12\"");
        assert_eq!(serde_json::to_string(&TileId::new(7)).unwrap(), "7");
        assert!(serde_json::from_str::<TileId>("56").is_err());
    }
}
