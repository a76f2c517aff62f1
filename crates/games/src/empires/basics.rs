//! The charts of Space Empires 4X as data, and the small types every layer
//! shares: unit types and their strengths, the Research Chart, the
//! movement chart, ship-yard capacity, colony steps, System markers, the
//! Space Wreck table, counter labels and directions.
//!
//! Every value is the one `docs/rules/empires.md` gives (its *Pieces and
//! charts*), with the page's source marks repeated here: **text** (the
//! rules text), **brief** (published chart data several sources agree
//! on), **ours** (our choice, with its reason on the page).

use orrery_engine::{Hex, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Firing class: A fires first, E last (text 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Class {
    A,
    B,
    C,
    D,
    E,
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self {
            Class::A => 'A',
            Class::B => 'B',
            Class::C => 'C',
            Class::D => 'D',
            Class::E => 'E',
        };
        write!(f, "{c}")
    }
}

/// Every kind of unit a player can own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    Scout,
    Destroyer,
    Cruiser,
    Battlecruiser,
    Battleship,
    Dreadnaught,
    Base,
    ShipYard,
    ColonyShip,
    Miner,
    Decoy,
    /// A Merchant Ship Pipeline (advanced rule 10).
    Pipeline,
    /// A Mines counter: `ships` mines (advanced rule 13.1).
    Mines,
    /// A Minesweeper group (advanced rule 13.2).
    Sweeper,
    /// A Carrier group (advanced rule 11.1): carries 3 Fighter Squadrons a
    /// ship.
    Carrier,
    /// A counter of Fighter Squadrons (advanced rule 11.2): `ships`
    /// squadrons, each a combat-capable ship of hull 1.
    Fighters,
    /// A Raider group (advanced rule 12.1): cloaked against a player
    /// whose Scanners at its hex are below its Cloaking level.
    Raider,
    /// A Doomsday Machine (optional rule 17): no player's, never bought
    /// (not in [`Kind::ALL`]); its chart line is the text's (17.2).
    Doomsday,
}

/// A unit type's line of the ship chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chart {
    /// Order code (`sc`) and the counter's abbreviation (`SC`).
    pub code: &'static str,
    pub name: &'static str,
    /// CP per unit (a decoy: per ship it shows).
    pub cost: u32,
    /// `None`: no combat capability (Colony Ships, Miners, Decoys).
    pub class: Option<Class>,
    pub attack: u32,
    pub defense: u32,
    /// Hits that destroy one; also the most Attack and Defense technology it
    /// uses and its maintenance (0 for the exempt units).
    pub hull: u32,
    /// The Ship Size level needed to buy it.
    pub size: u32,
    /// Hull points of ship-yard capacity one costs; `None`: not built by
    /// yards (Bases and Ship Yards are built by colonies, decoys anywhere).
    pub yard: Option<u32>,
    pub maintenance: u32,
}

impl Kind {
    /// The six warship types, in class order.
    pub const WARSHIPS: [Kind; 6] = [
        Kind::Scout,
        Kind::Destroyer,
        Kind::Cruiser,
        Kind::Battlecruiser,
        Kind::Battleship,
        Kind::Dreadnaught,
    ];

    /// Every kind, in chart order.
    pub const ALL: [Kind; 17] = [
        Kind::Scout,
        Kind::Destroyer,
        Kind::Cruiser,
        Kind::Battlecruiser,
        Kind::Battleship,
        Kind::Dreadnaught,
        Kind::Base,
        Kind::ShipYard,
        Kind::ColonyShip,
        Kind::Miner,
        Kind::Decoy,
        Kind::Pipeline,
        Kind::Mines,
        Kind::Sweeper,
        Kind::Carrier,
        Kind::Fighters,
        Kind::Raider,
    ];

    /// The ship chart (brief, except where marked on the rules page: Ship
    /// Yard C 3-0 ours; Miner capacity 1 ours; decoys 1 CP per ship shown,
    /// text 8.3.3 and ours).
    pub const fn chart(self) -> Chart {
        // One chart line's columns, in the table's order.
        #[allow(clippy::too_many_arguments)]
        const fn c(
            code: &'static str,
            name: &'static str,
            cost: u32,
            class: Option<Class>,
            attack: u32,
            defense: u32,
            hull: u32,
            size: u32,
            yard: Option<u32>,
            maintenance: u32,
        ) -> Chart {
            Chart {
                code,
                name,
                cost,
                class,
                attack,
                defense,
                hull,
                size,
                yard,
                maintenance,
            }
        }
        use Class::*;
        match self {
            Kind::Scout => c("SC", "Scout", 6, Some(E), 3, 0, 1, 1, Some(1), 1),
            Kind::Destroyer => c("DD", "Destroyer", 9, Some(D), 4, 0, 1, 2, Some(1), 1),
            Kind::Cruiser => c("CA", "Cruiser", 12, Some(C), 4, 1, 2, 3, Some(2), 2),
            Kind::Battlecruiser => c("BC", "Battlecruiser", 15, Some(B), 5, 1, 2, 4, Some(2), 2),
            Kind::Battleship => c("BB", "Battleship", 20, Some(A), 5, 2, 3, 5, Some(3), 3),
            Kind::Dreadnaught => c("DN", "Dreadnaught", 24, Some(A), 6, 3, 3, 6, Some(3), 3),
            Kind::Base => c("Base", "Base", 12, Some(A), 7, 2, 3, 2, None, 0),
            Kind::ShipYard => c("SY", "Ship Yard", 6, Some(C), 3, 0, 1, 1, None, 0),
            Kind::ColonyShip => c("CO", "Colony Ship", 8, None, 0, 0, 0, 1, Some(1), 0),
            Kind::Miner => c("MI", "Miner", 5, None, 0, 0, 0, 1, Some(1), 0),
            Kind::Decoy => c("DC", "Decoy", 1, None, 0, 0, 0, 1, None, 0),
            Kind::Pipeline => c("MS", "MS Pipeline", 3, None, 0, 0, 0, 1, Some(1), 0),
            Kind::Mines => c("MN", "Mines", 5, None, 0, 0, 0, 1, Some(1), 0),
            Kind::Sweeper => c("SW", "Minesweeper", 6, Some(E), 1, 0, 1, 1, Some(1), 1),
            Kind::Carrier => c("CV", "Carrier", 12, Some(E), 3, 0, 1, 1, Some(1), 1),
            // At Fighters 1; see `fighter_attack` and `fighter_defense`.
            Kind::Fighters => c("F", "Fighters", 5, Some(B), 5, 0, 1, 1, Some(1), 1),
            // Class D uncloaked; A while cloaked (`Battle::class`, 12.1.4).
            Kind::Raider => c("R", "Raider", 12, Some(D), 4, 0, 2, 1, Some(2), 2),
            // Text 17.2: class C, Attack Strength 9, Defense Strength 2,
            // Hull Size 3 (two attacks a round: `Fighter::shots`).
            Kind::Doomsday => c("DM", "Doomsday Machine", 0, Some(C), 9, 2, 3, 0, None, 0),
        }
    }

    pub fn code(self) -> &'static str {
        self.chart().code
    }

    pub fn name(self) -> &'static str {
        self.chart().name
    }

    /// Has an attack strength: fights, blockades, stops enemies, escorts.
    pub fn armed(self) -> bool {
        self.chart().class.is_some()
    }

    /// A ship that moves and may group (warships, Minesweepers, Carriers
    /// and Fighter Squadrons too).
    pub fn is_warship(self) -> bool {
        Kind::WARSHIPS.contains(&self) || matches!(self, Kind::Sweeper | Kind::Carrier | Kind::Fighters | Kind::Raider)
    }

    /// Attack and Defense Strength of a ship of this type built with
    /// `fighters`, its Fighter Technology level: a Fighter Squadron's grow
    /// with it (text 11.2.6; F1 B5-0, F2 B6-0, F3 B7-1, rules page); every
    /// other type's are its chart's.
    pub fn strength(self, fighters: u32) -> (u32, u32) {
        let chart = self.chart();
        if self == Kind::Fighters {
            let level = fighters.max(1);
            (chart.attack + level - 1, u32::from(level >= 3))
        } else {
            (chart.attack, chart.defense)
        }
    }

    /// Moves only when carried (Fighter Squadrons, text 11.2.2).
    pub fn carried(self) -> bool {
        self == Kind::Fighters
    }

    /// The option key of the advanced rule that brings this type into the
    /// game (`None`: the basic game's).
    pub fn advanced(self) -> Option<&'static str> {
        match self {
            Kind::Pipeline => Some("pipelines"),
            Kind::Mines | Kind::Sweeper => Some("mines"),
            Kind::Carrier | Kind::Fighters => Some("carriers"),
            Kind::Raider => Some("raiders"),
            _ => None,
        }
    }

    /// The technology level needed to buy it besides Ship Size (text
    /// 11.0, 12.1.1, 13.1.1, 13.2).
    pub fn needs(self) -> Option<(Tech, u32)> {
        match self {
            Kind::Mines => Some((Tech::Mines, 1)),
            Kind::Sweeper => Some((Tech::Sweep, 1)),
            Kind::Carrier | Kind::Fighters => Some((Tech::Fighters, 1)),
            Kind::Raider => Some((Tech::Cloak, 1)),
            _ => None,
        }
    }

    /// A counter of several ships (a numeral marker under it): warship
    /// groups, and Mines (13.1.1: "operates like any other group").
    pub fn grouped(self) -> bool {
        self.is_warship() || self == Kind::Mines
    }

    /// Never moves (Bases and Ship Yards).
    pub fn fixed(self) -> bool {
        matches!(self, Kind::Base | Kind::ShipYard)
    }

    /// Never face down: Colony Ships, Miners and MS Pipelines (ours: the
    /// text hides only groups, decoys and mines).
    pub fn always_face_up(self) -> bool {
        matches!(self, Kind::ColonyShip | Kind::Miner | Kind::Pipeline)
    }

    /// Always 1 hex a turn whatever the Move level (text 4.1, 10.1.1).
    pub fn slow(self) -> bool {
        matches!(self, Kind::ColonyShip | Kind::Miner | Kind::Pipeline | Kind::Mines)
    }

    /// The type an order names: `sc dd ca bc bb dn colony miner decoy base
    /// yard` (the chart's codes also read).
    pub fn parse(text: &str) -> Option<Kind> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "sc" | "scout" => Kind::Scout,
            "dd" | "destroyer" => Kind::Destroyer,
            "ca" | "cruiser" => Kind::Cruiser,
            "bc" | "battlecruiser" => Kind::Battlecruiser,
            "bb" | "battleship" => Kind::Battleship,
            "dn" | "dreadnaught" | "dreadnought" => Kind::Dreadnaught,
            "base" => Kind::Base,
            "yard" | "sy" | "shipyard" => Kind::ShipYard,
            "colony" | "co" | "colonyship" => Kind::ColonyShip,
            "miner" | "mi" => Kind::Miner,
            "decoy" | "dc" => Kind::Decoy,
            "pipeline" | "ms" | "merchant" => Kind::Pipeline,
            "mines" | "mine" | "mn" => Kind::Mines,
            "sweeper" | "sw" | "minesweeper" => Kind::Sweeper,
            "carrier" | "cv" => Kind::Carrier,
            "fighters" | "fighter" | "f" | "squadron" => Kind::Fighters,
            "raider" | "raiders" | "r" => Kind::Raider,
            _ => return None,
        })
    }

    /// The word orders use for it (`Kind::parse` reads it back).
    pub fn order_word(self) -> &'static str {
        match self {
            Kind::Scout => "sc",
            Kind::Destroyer => "dd",
            Kind::Cruiser => "ca",
            Kind::Battlecruiser => "bc",
            Kind::Battleship => "bb",
            Kind::Dreadnaught => "dn",
            Kind::Base => "base",
            Kind::ShipYard => "yard",
            Kind::ColonyShip => "colony",
            Kind::Miner => "miner",
            Kind::Decoy => "decoy",
            Kind::Pipeline => "pipeline",
            Kind::Mines => "mines",
            Kind::Sweeper => "sweeper",
            Kind::Carrier => "carrier",
            Kind::Fighters => "fighters",
            Kind::Raider => "raider",
            // Never written in an order (no player owns or buys one):
            // `parse` does not read it.
            Kind::Doomsday => "doomsday",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Counters of each warship type, and decoy counters, a player has (ours).
pub const COUNTERS_PER_TYPE: usize = 6;
/// Ships in one group at most (ours: the numeral markers go to 6).
pub const GROUP_MAX: u32 = 6;
/// CP carried over from one Economic Phase to the next at most (text 7.5.1).
pub const CARRY_OVER_CAP: u32 = 30;

/// A technology category of the Research Chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Tech {
    Size,
    Attack,
    Defense,
    Tactics,
    Move,
    Yard,
    Terraform,
    Explore,
    /// Mine Technology (advanced rule 13.1).
    Mines,
    /// Minesweeper Technology (advanced rule 13.2).
    Sweep,
    /// Fighter Technology (advanced rule 11.0).
    Fighters,
    /// Point Defense Technology (advanced rule 11.3).
    PointDefense,
    /// Cloaking Technology (advanced rule 12.1).
    Cloak,
    /// Scanner Technology (advanced rule 12.2).
    Scan,
}

impl Tech {
    pub const ALL: [Tech; 14] = [
        Tech::Size,
        Tech::Attack,
        Tech::Defense,
        Tech::Tactics,
        Tech::Move,
        Tech::Yard,
        Tech::Terraform,
        Tech::Explore,
        Tech::Mines,
        Tech::Sweep,
        Tech::Fighters,
        Tech::PointDefense,
        Tech::Cloak,
        Tech::Scan,
    ];

    /// The option key of the advanced rule that brings this category into
    /// the game (`None`: the basic game's).
    pub fn advanced(self) -> Option<&'static str> {
        match self {
            Tech::Mines | Tech::Sweep => Some("mines"),
            Tech::Fighters => Some("carriers"),
            Tech::PointDefense => Some("point_defense"),
            Tech::Cloak | Tech::Scan => Some("raiders"),
            _ => None,
        }
    }

    /// The order key (`research tech:size`).
    pub fn key(self) -> &'static str {
        match self {
            Tech::Size => "size",
            Tech::Attack => "attack",
            Tech::Defense => "defense",
            Tech::Tactics => "tactics",
            Tech::Move => "move",
            Tech::Yard => "yard",
            Tech::Terraform => "terraform",
            Tech::Explore => "explore",
            Tech::Mines => "mines",
            Tech::Sweep => "sweep",
            Tech::Fighters => "fighters",
            Tech::PointDefense => "pd",
            Tech::Cloak => "cloaking",
            Tech::Scan => "scanners",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tech::Size => "Ship Size",
            Tech::Attack => "Attack",
            Tech::Defense => "Defense",
            Tech::Tactics => "Tactics",
            Tech::Move => "Move",
            Tech::Yard => "Ship Yard",
            Tech::Terraform => "Terraforming",
            Tech::Explore => "Exploration",
            Tech::Mines => "Mines",
            Tech::Sweep => "Mine Sweeping",
            Tech::Fighters => "Fighters",
            Tech::PointDefense => "Point Defense",
            Tech::Cloak => "Cloaking",
            Tech::Scan => "Scanners",
        }
    }

    pub fn parse(text: &str) -> Option<Tech> {
        let t = text.trim().to_ascii_lowercase();
        Tech::ALL.into_iter().find(|k| {
            k.key() == t || k.name().to_ascii_lowercase() == t || k.name().to_ascii_lowercase().replace(' ', "_") == t
        })
    }

    /// The level every player starts with (brief).
    pub fn start(self) -> u32 {
        match self {
            Tech::Size | Tech::Move | Tech::Yard => 1,
            _ => 0,
        }
    }

    /// The highest level (brief).
    pub fn top(self) -> u32 {
        match self {
            Tech::Size => 6,
            Tech::Attack | Tech::Defense | Tech::Tactics | Tech::Fighters | Tech::PointDefense => 3,
            Tech::Move => 7,
            Tech::Yard => 3,
            Tech::Terraform | Tech::Explore | Tech::Mines => 1,
            Tech::Sweep | Tech::Cloak | Tech::Scan => 2,
        }
    }

    /// The CP cost of reaching `level` (brief; text 19.2 confirms Attack 1
    /// = 20). `None` for a level outside `start + 1 ..= max`.
    pub fn cost(self, level: u32) -> Option<u32> {
        if level <= self.start() || level > self.top() {
            return None;
        }
        let costs: &[u32] = match self {
            // Indexed from the first level above the start.
            Tech::Size => &[10, 15, 20, 20, 20],
            Tech::Attack | Tech::Defense => &[20, 30, 25],
            Tech::Tactics => &[15, 15, 15],
            Tech::Move => &[20, 25, 25, 25, 20, 20],
            Tech::Yard => &[20, 25],
            Tech::Terraform => &[20],
            Tech::Explore => &[15],
            Tech::Mines => &[30],
            Tech::Sweep => &[10, 15],
            Tech::Fighters => &[25, 25, 25],
            Tech::PointDefense => &[20, 20, 20],
            Tech::Cloak => &[30, 30],
            Tech::Scan => &[20, 20],
        };
        costs.get((level - self.start() - 1) as usize).copied()
    }

    /// The chart cost of every level from the start up to `level` (for the
    /// score).
    pub fn cost_to(self, level: u32) -> u32 {
        (self.start() + 1..=level.min(self.top()))
            .filter_map(|l| self.cost(l))
            .sum()
    }
}

impl fmt::Display for Tech {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player's technology levels (or a group's, as it was built).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Levels {
    pub size: u32,
    pub attack: u32,
    pub defense: u32,
    pub tactics: u32,
    #[serde(rename = "move")]
    pub moves: u32,
    pub yard: u32,
    pub terraform: u32,
    pub explore: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mines: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sweep: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fighters: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pd: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cloak: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scan: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for Levels {
    /// The starting levels.
    fn default() -> Self {
        Levels {
            size: Tech::Size.start(),
            attack: Tech::Attack.start(),
            defense: Tech::Defense.start(),
            tactics: Tech::Tactics.start(),
            moves: Tech::Move.start(),
            yard: Tech::Yard.start(),
            terraform: Tech::Terraform.start(),
            explore: Tech::Explore.start(),
            mines: Tech::Mines.start(),
            sweep: Tech::Sweep.start(),
            fighters: Tech::Fighters.start(),
            pd: Tech::PointDefense.start(),
            cloak: Tech::Cloak.start(),
            scan: Tech::Scan.start(),
        }
    }
}

impl Levels {
    pub fn get(&self, tech: Tech) -> u32 {
        match tech {
            Tech::Size => self.size,
            Tech::Attack => self.attack,
            Tech::Defense => self.defense,
            Tech::Tactics => self.tactics,
            Tech::Move => self.moves,
            Tech::Yard => self.yard,
            Tech::Terraform => self.terraform,
            Tech::Explore => self.explore,
            Tech::Mines => self.mines,
            Tech::Sweep => self.sweep,
            Tech::Fighters => self.fighters,
            Tech::PointDefense => self.pd,
            Tech::Cloak => self.cloak,
            Tech::Scan => self.scan,
        }
    }

    pub fn set(&mut self, tech: Tech, level: u32) {
        let slot = match tech {
            Tech::Size => &mut self.size,
            Tech::Attack => &mut self.attack,
            Tech::Defense => &mut self.defense,
            Tech::Tactics => &mut self.tactics,
            Tech::Move => &mut self.moves,
            Tech::Yard => &mut self.yard,
            Tech::Terraform => &mut self.terraform,
            Tech::Explore => &mut self.explore,
            Tech::Mines => &mut self.mines,
            Tech::Sweep => &mut self.sweep,
            Tech::Fighters => &mut self.fighters,
            Tech::PointDefense => &mut self.pd,
            Tech::Cloak => &mut self.cloak,
            Tech::Scan => &mut self.scan,
        };
        *slot = level.min(tech.top());
    }

    /// The chart cost of every level above the start (for the score).
    pub fn value(&self) -> u32 {
        Tech::ALL.into_iter().map(|t| t.cost_to(self.get(t))).sum()
    }
}

/// Which turn of a round (1, 2, 3).
pub type TurnNo = u8;

/// Hexes a unit of Move level `level` may move in turn `turn` (text 4.1;
/// the chart). Levels outside 1..=7 are clamped.
pub fn moves(level: u32, turn: TurnNo) -> u32 {
    const CHART: [[u32; 3]; 7] = [
        [1, 1, 1],
        [1, 1, 2],
        [1, 2, 2],
        [2, 2, 2],
        [2, 2, 3],
        [2, 3, 3],
        [3, 3, 3],
    ];
    let row = level.clamp(1, 7) as usize - 1;
    let col = (turn.clamp(1, 3) - 1) as usize;
    CHART[row][col]
}

/// Hull points `yards` Ship Yards in one hex build per Economic Phase at
/// Ship Yard level `level` (text 7.6.1, 9.6): 1, 1.5 or 2 per yard, rounded
/// down for the hex as a whole.
pub fn yard_capacity(yards: u32, level: u32) -> u32 {
    // In half points: 2, 3, 4 per yard.
    let half = match level.clamp(1, 3) {
        1 => 2,
        2 => 3,
        _ => 4,
    };
    yards * half / 2
}

/// A colony's worth, in CP a phase (text 7.1, 7.7, 5.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Worth {
    /// Placed this round: pays nothing, becomes 1 at the next growth.
    New,
    Colony(u32),
    /// The homeworld: 20, 15, 10 or 5.
    Home(u32),
}

pub const HOMEWORLD_CP: u32 = 20;

impl Worth {
    /// Income a phase (when not blockaded).
    pub fn cp(self) -> u32 {
        match self {
            Worth::New => 0,
            Worth::Colony(v) | Worth::Home(v) => v,
        }
    }

    /// After one hit (text 5.10.2): `None` when the colony is destroyed.
    pub fn hit(self) -> Option<Worth> {
        match self {
            Worth::New | Worth::Colony(1) => None,
            Worth::Colony(3) => Some(Worth::Colony(1)),
            Worth::Colony(_) => Some(Worth::Colony(3)),
            Worth::Home(v) if v > 5 => Some(Worth::Home(v - 5)),
            Worth::Home(_) => None,
        }
    }

    /// After the Economic Phase's growth (text 7.7, 7.7.1).
    pub fn grown(self) -> Worth {
        match self {
            Worth::New => Worth::Colony(1),
            Worth::Colony(1) => Worth::Colony(3),
            Worth::Colony(_) => Worth::Colony(5),
            Worth::Home(v) => Worth::Home((v + 5).min(HOMEWORLD_CP)),
        }
    }

    pub fn is_home(self) -> bool {
        matches!(self, Worth::Home(_))
    }
}

/// A System marker's front (text 6.0–6.9; mixes on the rules page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Marker {
    Planet,
    Barren,
    Nebula,
    Asteroids,
    BlackHole,
    SuperNova,
    Danger,
    LostInSpace,
    /// Worth this many CP once, collected at a colony.
    Minerals(u32),
    SpaceWreck,
    /// A Warp Point, numbered 1 or 2 (optional rule 16).
    WarpPoint(u8),
    /// A Doomsday Machine, numbered 1 to 3 (optional rule 17): turned face
    /// up, the marker leaves the map and the machine stays on it.
    Doomsday(u8),
}

impl Marker {
    pub fn name(self) -> String {
        match self {
            Marker::Planet => "Planet".into(),
            Marker::Barren => "Barren Planet".into(),
            Marker::Nebula => "Nebula".into(),
            Marker::Asteroids => "Asteroids".into(),
            Marker::BlackHole => "Black Hole".into(),
            Marker::SuperNova => "Super Nova".into(),
            Marker::Danger => "Danger!".into(),
            Marker::LostInSpace => "Lost in Space".into(),
            Marker::Minerals(v) => format!("Minerals ({v})"),
            Marker::SpaceWreck => "Space Wreck".into(),
            Marker::WarpPoint(n) => format!("Warp Point {n}"),
            Marker::Doomsday(n) => format!("Doomsday Machine {n}"),
        }
    }

    /// Removed once revealed, leaving empty space (Danger!, Lost in Space).
    pub fn one_time(self) -> bool {
        matches!(self, Marker::Danger | Marker::LostInSpace | Marker::Doomsday(_))
    }

    /// A Miner may tow it.
    pub fn towable(self) -> bool {
        matches!(self, Marker::Minerals(_) | Marker::SpaceWreck)
    }

    /// Entering needs an adjacent start and ends the move (text 4.2).
    pub fn slows(self) -> bool {
        matches!(self, Marker::Nebula | Marker::Asteroids)
    }
}

/// Black Hole (text 6.3): a d10 of 1–6 survives.
pub fn black_hole_survives(d10: u32, slingshot: bool) -> bool {
    // The sling shot modifies the roll by +2 (text 15.2).
    d10 + if slingshot { 2 } else { 0 } <= 6
}

/// The Space Wreck table (text, back page): the free level of a d10.
pub fn wreck_tech(d10: u32) -> Tech {
    match d10 {
        1 | 2 => Tech::Size,
        3 | 4 => Tech::Attack,
        5 | 6 => Tech::Defense,
        7 => Tech::Tactics,
        8 | 9 => Tech::Move,
        _ => Tech::Yard,
    }
}

/// To-hit number (text 5.5): a roll of 1 to it hits; a 1 always hits (see
/// [`hits`]). `attack_tech` and `defense_tech` are capped by each ship's
/// hull here.
pub fn to_hit(
    attack: u32,
    attack_tech: u32,
    attacker_hull: u32,
    bonus: bool,
    defense: u32,
    defense_tech: u32,
    target_hull: u32,
) -> i32 {
    let a = attack + attack_tech.min(attacker_hull) + u32::from(bonus);
    let d = defense + defense_tech.min(target_hull);
    a as i32 - d as i32
}

/// Whether a d10 roll hits at `to_hit`: a roll at or under it, and always
/// a 1 (text 5.5).
pub fn hits(d10: u32, to_hit: i32) -> bool {
    d10 == 1 || d10 as i32 <= to_hit
}

/// A counter's public name: its owner's letter and a random number from 1
/// to 99 (`B17`). It tells nothing about what the counter holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Label {
    pub owner: Seat,
    pub number: u8,
}

impl Label {
    /// The owner's letter: seat 1 `A`, seat 2 `B`, …
    pub fn letter(seat: Seat) -> char {
        (b'A' + seat.0) as char
    }

    /// Read `B17`, or `17` for one of `own`'s counters.
    pub fn parse(text: &str, own: Seat) -> Option<Label> {
        let t = text.trim();
        let (owner, digits) = match t.chars().next()? {
            c if c.is_ascii_alphabetic() => {
                let c = c.to_ascii_uppercase();
                (Seat(c as u8 - b'A'), &t[1..])
            }
            _ => (own, t),
        };
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number: u8 = digits.parse().ok()?;
        (1..=99).contains(&number).then_some(Label { owner, number })
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Label::letter(self.owner), self.number)
    }
}

/// The six directions, flat-topped: `n ne se s sw nw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    N,
    Ne,
    Se,
    S,
    Sw,
    Nw,
}

impl Dir {
    pub const ALL: [Dir; 6] = [Dir::N, Dir::Ne, Dir::Se, Dir::S, Dir::Sw, Dir::Nw];

    /// The axial step (rules page, *Hexes and their names*).
    pub fn step(self) -> Hex {
        match self {
            Dir::N => Hex::new(0, -1),
            Dir::Ne => Hex::new(1, -1),
            Dir::Se => Hex::new(1, 0),
            Dir::S => Hex::new(0, 1),
            Dir::Sw => Hex::new(-1, 1),
            Dir::Nw => Hex::new(-1, 0),
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Dir::N => "n",
            Dir::Ne => "ne",
            Dir::Se => "se",
            Dir::S => "s",
            Dir::Sw => "sw",
            Dir::Nw => "nw",
        }
    }

    pub fn parse(text: &str) -> Option<Dir> {
        let t = text.trim().to_ascii_lowercase();
        Dir::ALL.into_iter().find(|d| d.key() == t)
    }
}

/// "1 ship", "3 ships".
pub fn ships_word(n: impl Into<u64>) -> String {
    crate::shared::menu::counted(n, "ship", "ships")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movement_chart_as_in_the_text() {
        let rows: Vec<[u32; 3]> = (1..=7).map(|l| [moves(l, 1), moves(l, 2), moves(l, 3)]).collect();
        assert_eq!(
            rows,
            vec![
                [1, 1, 1],
                [1, 1, 2],
                [1, 2, 2],
                [2, 2, 2],
                [2, 2, 3],
                [2, 3, 3],
                [3, 3, 3]
            ]
        );
    }

    #[test]
    fn yard_capacity_rounds_down_per_hex() {
        // The rules page's table: 1-4 yards at levels 1, 2, 3.
        let table: Vec<[u32; 3]> = (1..=4)
            .map(|y| [yard_capacity(y, 1), yard_capacity(y, 2), yard_capacity(y, 3)])
            .collect();
        assert_eq!(table, vec![[1, 1, 2], [2, 3, 4], [3, 4, 6], [4, 6, 8]]);
    }

    #[test]
    fn the_to_hit_examples_of_the_text() {
        let bc = Kind::Battlecruiser.chart();
        let ca = Kind::Cruiser.chart();
        // 5.5: BC with Attack 1 against a CA with Defense 1: 4; with the bonus 5.
        assert_eq!(to_hit(bc.attack, 1, bc.hull, false, ca.defense, 1, ca.hull), 4);
        assert_eq!(to_hit(bc.attack, 1, bc.hull, true, ca.defense, 1, ca.hull), 5);
        // 9.2: hull caps technology: Scout and Ship Yard at Attack 3 fire at 4, a BB at 8.
        let sc = Kind::Scout.chart();
        let sy = Kind::ShipYard.chart();
        let bb = Kind::Battleship.chart();
        assert_eq!(to_hit(sc.attack, 3, sc.hull, false, 0, 0, 1), 4);
        assert_eq!(to_hit(sy.attack, 3, sy.hull, false, 0, 0, 1), 4);
        assert_eq!(to_hit(bb.attack, 3, bb.hull, false, 0, 0, 1), 8);
        // A Scout at a Dreadnaught with Defense 3: -3, yet a 1 hits.
        let dn = Kind::Dreadnaught.chart();
        let t = to_hit(sc.attack, 0, sc.hull, false, dn.defense, 3, dn.hull);
        assert_eq!(t, -3);
        assert!(hits(1, t));
        assert!(!hits(2, t));
        // 6 DD against Scouts with the bonus: 5.
        let dd = Kind::Destroyer.chart();
        assert_eq!(to_hit(dd.attack, 0, dd.hull, true, sc.defense, 0, sc.hull), 5);
    }

    #[test]
    fn colony_steps() {
        let mut w = Worth::Colony(5);
        let mut steps = vec![];
        while let Some(n) = w.hit() {
            steps.push(n.cp());
            w = n;
        }
        assert_eq!(steps, vec![3, 1]);
        let mut h = Worth::Home(20);
        let mut steps = vec![];
        while let Some(n) = h.hit() {
            steps.push(n.cp());
            h = n;
        }
        assert_eq!(steps, vec![15, 10, 5]);
        assert_eq!(Worth::New.hit(), None);
        assert_eq!(Worth::New.grown().grown().grown(), Worth::Colony(5));
        assert_eq!(Worth::Home(10).grown(), Worth::Home(15));
        assert_eq!(Worth::Home(20).grown(), Worth::Home(20));
    }

    #[test]
    fn research_costs_and_values() {
        assert_eq!(Tech::Attack.cost(1), Some(20));
        assert_eq!(Tech::Attack.cost(4), None);
        assert_eq!(Tech::Size.cost(1), None);
        assert_eq!(Tech::Size.cost(2), Some(10));
        assert_eq!(Tech::Move.cost(7), Some(20));
        assert_eq!(Levels::default().value(), 0);
        let mut l = Levels::default();
        l.set(Tech::Size, 3);
        l.set(Tech::Attack, 9);
        assert_eq!(l.attack, 3);
        assert_eq!(l.value(), 10 + 15 + 20 + 30 + 25);
    }

    #[test]
    fn wreck_table_and_black_hole() {
        let t: Vec<Tech> = (1..=10).map(wreck_tech).collect();
        use Tech::*;
        assert_eq!(
            t,
            vec![Size, Size, Attack, Attack, Defense, Defense, Tactics, Move, Move, Yard]
        );
        assert!((1..=6).all(|d| black_hole_survives(d, false)));
        assert!(!(7..=10).any(|d| black_hole_survives(d, false)));
        // A sling shot: +2 to the roll, "20% more likely to be destroyed".
        assert!((1..=4).all(|d| black_hole_survives(d, true)));
        assert!(!(5..=10).any(|d| black_hole_survives(d, true)));
    }

    #[test]
    fn labels_read_back() {
        let l = Label {
            owner: Seat(1),
            number: 17,
        };
        assert_eq!(l.to_string(), "B17");
        assert_eq!(Label::parse("b17", Seat(0)), Some(l));
        assert_eq!(Label::parse("17", Seat(1)), Some(l));
        assert_eq!(Label::parse("B0", Seat(0)), None);
        assert_eq!(Label::parse("B100", Seat(0)), None);
        assert_eq!(Label::parse("", Seat(0)), None);
    }

    #[test]
    fn kinds_read_back_and_unlock_by_size() {
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.order_word()), Some(k));
        }
        let size1: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| k.chart().size <= 1 && k.advanced().is_none())
            .collect();
        // Text 7.5.2: at the start only Scouts, Colony Ships, Miners, Decoys and Ship Yards.
        assert_eq!(
            size1,
            vec![Kind::Scout, Kind::ShipYard, Kind::ColonyShip, Kind::Miner, Kind::Decoy]
        );
    }
}
