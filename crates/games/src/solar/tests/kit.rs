//! Helpers the Solar Crisis tests share: a game started and its first
//! period opened, orders from text, a board cleared to chosen tiles.

use crate::solar::basics::board::Planet;
use crate::solar::basics::tiles::{TileId, TileRef};
use crate::solar::events::{apply, fold, ActionKind, Event};
use crate::solar::orders::{parse, Action};
use crate::solar::rules::decide;
use crate::solar::setup::{open_period, setup};
use crate::solar::state::{Die, SeatState, State, TensionTarget, UnitCounts};
use crate::solar::Solar;
use orrery_engine::{CommandLine, GameConfig, GameRng, Ruleset, Seat};

/// A game set up by `config`, its first period opened (Phases 1-2), as
/// the ruleset's set-up leaves it.
pub fn start_with(config: &GameConfig) -> State {
    Solar::fold(&Solar::setup(config).expect("set-up"))
}

/// [`start_with`] the default options.
pub fn start(players: u8, seed: u64) -> State {
    start_with(&GameConfig::new(players, seed))
}

/// An order from its text; panics if it does not parse.
pub fn line(text: &str) -> Action {
    parse(&CommandLine::parse(text).expect("shape")).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The state after `seat` gives `text`; panics if it is refused.
pub fn play(s: &State, seat: Seat, text: &str) -> State {
    let events = decide(s, seat, &line(text)).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut s = s.clone();
    for e in &events {
        apply(&mut s, e);
    }
    s
}

pub fn tile(n: u8) -> TileId {
    TileId::new(n).expect("tile")
}

pub fn die(v: u8) -> Die {
    Die::new(v).expect("die")
}

/// Every tile on the board discarded, then `tiles` placed.
pub fn board_with(s: &mut State, tiles: &[(Planet, u8)]) {
    for p in Planet::ALL {
        let on = s.tiles_at(p);
        if !on.is_empty() {
            apply(s, &Event::TilesDiscarded { planet: p, tiles: on });
        }
    }
    for &(planet, n) in tiles {
        apply(
            s,
            &Event::TilesDrawn {
                planet,
                tiles: vec![tile(n)],
            },
        );
    }
}

/// Ready units for `seat` at `planet`.
pub fn give(s: &mut State, seat: u8, planet: Planet, units: UnitCounts) {
    apply(
        s,
        &Event::UnitsPlaced {
            seat: Seat(seat),
            planet,
            units,
        },
    );
}

/// Seat 1 declared a claim of `t` at `planet` and rolled `dice`.
pub fn rolled(
    mut s: State,
    planet: Planet,
    t: TileRef,
    target: Option<TensionTarget>,
    defence: u32,
    dice: [u8; 3],
) -> State {
    apply(
        &mut s,
        &Event::ActionTaken {
            seat: Seat(0),
            action: ActionKind::Claim,
        },
    );
    apply(
        &mut s,
        &Event::ClaimDeclared {
            seat: Seat(0),
            planet,
            tile: t,
            target,
            defence,
        },
    );
    apply(
        &mut s,
        &Event::ClaimRolled {
            seat: Seat(0),
            dice: [die(dice[0]), die(dice[1]), die(dice[2])],
            rng: Box::new(GameRng::seeded(99)),
        },
    );
    s
}

/// The ruleset's config for `players` and `seed`.
pub fn config(players: u8, seed: u64) -> GameConfig {
    GameConfig::new(players, seed)
}

/// The events of the page's *Set-up* and the state they fold to.
pub fn set_up(players: u8, seed: u64) -> (Vec<Event>, State) {
    let events = setup(&config(players, seed)).expect("set-up");
    let state = fold(&events);
    (events, state)
}

/// A 3-player game set up (seed 9), its first period opened.
pub fn base() -> State {
    let (events, mut s) = set_up(3, 9);
    let _ = events;
    for e in open_period(&s) {
        apply(&mut s, &e);
    }
    s
}

/// One seat's state, to change by hand.
pub fn seat_mut(s: &mut State, seat: u8) -> &mut SeatState {
    s.seats.get_mut(usize::from(seat)).expect("seat")
}
