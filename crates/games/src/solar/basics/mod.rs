//! The fixed data of Solar Crisis, read off `docs/rules/solar.md` and
//! pinned to it by the tests: no rules, no state.
//!
//! - [`board`]: players, periods and phases; the planets, their VP, tiles
//!   per period, crises and the alien path; units and pieces; the page's
//!   other numbers.
//! - [`tiles`]: the 55 bag tiles and the 3 Alien tiles, and what a claimed
//!   tile gives.
//! - [`cards`]: the 40-card deck and the 4 own cards.

pub mod board;
pub mod cards;
pub mod tiles;
