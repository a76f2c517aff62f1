//! Space Empires 4X, the basic game: 2 to 4 players, a hex map of face-down
//! System markers, face-down counters, three turns of movement, combat and
//! exploration per player, then a simultaneous secret Economic Phase.
//!
//! The rules a player reads, and the specification, are in
//! `docs/rules/empires.md`. **Not registered yet** (issue #14): the layers
//! below are being built bottom up, and the ruleset joins the registry in
//! `src/games/mod.rs` once a whole game can be played.
//!
//! The layers, bottom up:
//!
//! - [`basics`]: the charts as data (units, research, movement, yard
//!   capacity, colony steps, markers, the wreck table), labels, directions.
//! - [`map`]: the three boards, hex names (`A4`), the marker mixes and the deal.
//! - [`combat`]: one battle at one hex as a pure state machine (dice passed
//!   in), the standing orders that answer it, and colony fire.

pub mod basics;
pub mod combat;
pub mod map;
