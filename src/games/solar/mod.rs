//! Solar Crisis: 2 to 5 players run Earth-based empires along a line of
//! planets from Mercury to the Kuiper Belt over three periods. They fly
//! troops out, claim tiles (mines, factories, money, cards, trophies) with
//! dice and combat points, fight over rivals' mines, and keep every
//! planet's crisis under control; the most victory points wins, unless the
//! robots of Earth rebel or the aliens reach Earth, and everyone loses.
//!
//! The rules a player reads, and the specification, are in
//! `docs/rules/solar.md`.
//!
//! **The engine is being built in layers and is not registered as a game
//! yet** (it is not in `games!`). The first layer is the game's static
//! data, pinned to the rules page by the tests:
//!
//! - [`board`]: players, periods and phases; the planets (map, distance,
//!   VP, tiles per period, crises, the alien path); units and pieces; the
//!   page's other numbers.
//! - [`tiles`]: the 55 bag tiles, the 3 Alien tiles, what a claimed tile
//!   gives.
//! - [`cards`]: the 40-card deck and the 4 own cards.
//!
//! The second layer is the game's state and its events:
//!
//! - [`state`]: the [`state::State`] (options, generator, period, phase,
//!   round and turn; each colour's money, hand, units, pieces, kept tiles
//!   and Pass cubes; the board, bag, deck, discard pile, aliens and crisis
//!   dice), the past-tense [`state::Event`]s, the total [`state::apply`],
//!   [`state::setup`] (the page's *Set-up*) and [`state::open_period`]
//!   (Phases 1 and 2).
//!
//! The third layer is the orders of the Player Actions phase, without
//! cards:
//!
//! - [`rules`]: the typed [`rules::Action`]s `move` (and move-and-claim),
//!   `claim`, `pay`, `giveup`, `buy` and `pass`, their text form
//!   ([`rules::parse`], [`rules::unparse`], [`rules::commands`]), who owes
//!   what ([`rules::pending`]), [`rules::legal_actions`] and
//!   [`rules::decide`], which plays a turn through to the next turn (or
//!   the end of the phase at the last Pass cube).
//!
//! The fourth layer is the end of a period and of the game, without cards:
//!
//! - [`crises`]: Phase 4 (the crisis dice, every planet's crisis, Mercury's
//!   powers, crisis losses with their `power` and `lose` orders, the
//!   invasion), Phase 5 (income), Phase 6 (reset), the next period, the
//!   scoring and the outcome (a winner, a shared win, or everyone losing).
//!   [`rules::decide`] runs on into it at the last Pass cube.
//!
//! The fifth layer is the cards:
//!
//! - [`play`]: `play card:NAME [options]` for every deck card and own card,
//!   Double Time's extra actions and `end`, Espionage's `take`, and the
//!   hand limit's `discard`.
//!
//! The views layer is what leaves the engine:
//!
//! - [`view`]: what one viewer may see ([`view::view`]: the public board
//!   and counts, a seat's own hand), each event in words as that viewer may
//!   learn it ([`view::narrate`]), and where the game is ([`view::phase`]).

pub mod board;
pub mod cards;
pub mod crises;
pub mod play;
pub mod rules;
pub mod state;
#[cfg(test)]
mod testkit;
pub mod tiles;
pub mod view;

/// The rules page as plain text for the tests: Markdown emphasis (`*`)
/// and code marks (`` ` ``) dropped, every run of white space (line breaks
/// and indents too) one space. A wrapped sentence reads as one line.
#[cfg(test)]
pub(crate) fn page() -> String {
    const PAGE: &str = include_str!("../../../docs/rules/solar.md");
    PAGE.replace(['*', '`'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
