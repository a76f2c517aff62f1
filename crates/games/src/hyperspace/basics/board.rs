//! The board: 24 sectors (4 columns x 3 rows x 2 layers), two stars in each,
//! and the sector count used by the hyperspace track.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Columns of sectors (A B C D in the top row).
pub const COLS: u8 = 4;
/// Rows of sectors.
pub const ROWS: u8 = 3;
/// Layers: yellow (upper) and red (lower).
pub const LAYERS: u8 = 2;
/// All sectors.
pub const SECTOR_COUNT: u8 = COLS * ROWS * LAYERS;
/// All stars (two per sector).
pub const STAR_COUNT: u8 = SECTOR_COUNT * 2;
/// The last square of the hyperspace track; a token moved past it is lost.
pub const LAST_SQUARE: u8 = 6;

/// A sector: `layer * 12 + row * 4 + col`. Shown as `A-yellow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sector(u8);

impl Sector {
    pub fn new(col: u8, row: u8, layer: u8) -> Sector {
        Sector(layer * COLS * ROWS + row * COLS + col)
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_index(i: usize) -> Option<Sector> {
        (i < SECTOR_COUNT as usize).then_some(Sector(i as u8))
    }
    pub fn all() -> impl Iterator<Item = Sector> {
        (0..SECTOR_COUNT).map(Sector)
    }
    pub fn col(self) -> u8 {
        self.0 % COLS
    }
    pub fn row(self) -> u8 {
        (self.0 / COLS) % ROWS
    }
    /// 0 = yellow (upper), 1 = red (lower).
    pub fn layer(self) -> u8 {
        self.0 / (COLS * ROWS)
    }
    pub fn letter(self) -> char {
        (b'A' + self.row() * COLS + self.col()) as char
    }
    pub fn layer_name(self) -> &'static str {
        if self.layer() == 0 {
            "yellow"
        } else {
            "red"
        }
    }
    pub fn name(self) -> String {
        format!("{}-{}", self.letter(), self.layer_name())
    }
    /// `A-yellow`, `a-red`, `Ared`, `A yellow` (case-insensitive).
    pub fn parse(text: &str) -> Option<Sector> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let n = letter as u8 - b'a';
        if n >= COLS * ROWS {
            return None;
        }
        let rest: String = chars.filter(|c| !matches!(c, '-' | ' ' | '_')).collect();
        let layer = match rest.as_str() {
            "yellow" | "y" => 0,
            "red" | "r" => 1,
            _ => return None,
        };
        Some(Sector::new(n % COLS, n / COLS, layer))
    }
    /// The two stars of this sector.
    pub fn stars(self) -> [Star; 2] {
        [Star(self.0 * 2), Star(self.0 * 2 + 1)]
    }
    /// The hyperspace count from this sector to `other`: adjacent steps, no
    /// diagonals, at most one horizontal and one vertical turn, no
    /// backtracking. That is exactly the Manhattan distance (see the tests).
    pub fn distance(self, other: Sector) -> u8 {
        self.col().abs_diff(other.col()) + self.row().abs_diff(other.row()) + self.layer().abs_diff(other.layer())
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for Sector {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Sector {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sector, D::Error> {
        let text = String::deserialize(d)?;
        Sector::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown sector `{text}`")))
    }
}

/// Resources of a star: `+` raw materials, `O` population.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Resources {
    pub plus: u8,
    pub pop: u8,
}

/// Name, raw materials, population; index = sector * 2 + k.
const STARS: [(&str, u8, u8); STAR_COUNT as usize] = [
    // yellow layer
    ("Algol", 1, 1), // A-yellow (home)
    ("Sirius", 0, 0),
    ("Vega", 1, 0), // B-yellow
    ("Rigel", 0, 0),
    ("Regulus", 1, 1), // C-yellow (home)
    ("Deneb", 0, 0),
    ("Altair", 1, 1), // D-yellow
    ("Capella", 0, 1),
    ("Arcturus", 0, 0), // E-yellow
    ("Procyon", 1, 0),
    ("Betelgeuse", 0, 0), // F-yellow
    ("Aldebaran", 0, 0),
    ("Spica", 0, 0), // G-yellow
    ("Pollux", 1, 0),
    ("Castor", 0, 1), // H-yellow
    ("Fomalhaut", 1, 0),
    ("Achernar", 0, 1), // I-yellow
    ("Canopus", 1, 1),
    ("Hadar", 0, 0), // J-yellow
    ("Acrux", 0, 0),
    ("Mimosa", 0, 0), // K-yellow
    ("Shaula", 0, 0),
    ("Bellatrix", 0, 1), // L-yellow
    ("Elnath", 0, 0),
    // red layer
    ("Alnilam", 1, 1), // A-red
    ("Mintaka", 0, 1),
    ("Saiph", 0, 0), // B-red
    ("Polaris", 0, 1),
    ("Mizar", 0, 0), // C-red
    ("Dubhe", 0, 0),
    ("Mira", 1, 1), // D-red (home with 3 players)
    ("Merak", 1, 1),
    ("Alioth", 0, 0), // E-red
    ("Alkaid", 1, 1),
    ("Thuban", 0, 0), // F-red
    ("Kochab", 1, 0),
    ("Menkar", 0, 0), // G-red
    ("Mirfak", 0, 0),
    ("Hamal", 0, 0), // H-red
    ("Diphda", 1, 0),
    ("Nunki", 1, 0), // I-red
    ("Alphard", 1, 1),
    ("Pavo", 1, 1), // J-red (home)
    ("Alphecca", 0, 1),
    ("Denebola", 0, 1), // K-red
    ("Markab", 0, 0),
    ("Antares", 1, 1), // L-red (home)
    ("Scheat", 1, 0),
];

/// A star. Serialized as its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Star(u8);

impl Star {
    pub fn all() -> impl Iterator<Item = Star> {
        (0..STAR_COUNT).map(Star)
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn from_index(i: usize) -> Option<Star> {
        (i < STAR_COUNT as usize).then_some(Star(i as u8))
    }
    pub fn name(self) -> &'static str {
        STARS[self.index()].0
    }
    pub fn sector(self) -> Sector {
        Sector(self.0 / 2)
    }
    pub fn resources(self) -> Resources {
        let (_, plus, pop) = STARS[self.index()];
        Resources { plus, pop }
    }
    /// The other star of the same sector.
    pub fn sibling(self) -> Star {
        Star(self.0 ^ 1)
    }
    /// Case-insensitive lookup by name.
    pub fn by_name(name: &str) -> Option<Star> {
        let name = name.trim();
        Star::all().find(|s| s.name().eq_ignore_ascii_case(name))
    }
    /// "Algol (A-yellow)".
    pub fn label(self) -> String {
        format!("{} ({})", self.name(), self.sector())
    }
    /// "+O", "+", "O" or "".
    pub fn symbols(self) -> String {
        let r = self.resources();
        format!("{}{}", "+".repeat(r.plus as usize), "O".repeat(r.pop as usize))
    }
}

impl fmt::Display for Star {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Star {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Star {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Star, D::Error> {
        let text = String::deserialize(d)?;
        Star::by_name(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown star `{text}`")))
    }
}

/// The home stars in use for a player count, in seat order.
pub fn home_stars(players: u8) -> Vec<Star> {
    let names: &[&str] = match players {
        2 => &["Algol", "Antares"],
        3 => &["Regulus", "Antares", "Mira"],
        _ => &["Algol", "Pavo", "Regulus", "Antares"],
    };
    names.iter().filter_map(|n| Star::by_name(n)).collect()
}
