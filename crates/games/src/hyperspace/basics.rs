//! Fixed data of the rules page: the board ([`board`]: sectors, stars,
//! resources, the sector count), the combat cards ([`cards`]: the seven
//! cards and how a combat is decided) and the numbers of the set-up.

pub mod board;
pub mod cards;

pub use board::{home_stars, Resources, Sector, Star, COLS, LAST_SQUARE, LAYERS, ROWS, SECTOR_COUNT, STAR_COUNT};
pub use cards::{Card, CombatResult, WinReason};

/// Warp tokens per player.
pub const TOKENS: u8 = 5;
/// Ships each player starts with at their home star.
pub const STARTING_SHIPS: u32 = 15;
