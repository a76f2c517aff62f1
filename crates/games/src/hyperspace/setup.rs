//! The options and the set-up: the table before the first turn.

use super::basics::{home_stars, STARTING_SHIPS};
use super::events::{emit, Event};
use super::state::{Options, State};
use orrery_engine::{options_of, GameConfig, OptionValues, Seat, SetupError, SetupOption};

/// The options of `/game new`.
pub const OPTIONS: [SetupOption; 1] = [SetupOption {
    key: "rounds",
    description: "Round limit: the game ends after this many rounds at the latest",
    values: OptionValues::Whole {
        min: 1,
        max: 200,
        default: 25,
    },
}];

/// The set-up events before the first turn (the first turn is begun by
/// [`super::rules::first_turn`]), and the state they fold to.
pub fn setup(config: &GameConfig) -> Result<(State, Vec<Event>), SetupError> {
    if !(2..=4).contains(&config.players) {
        return Err(SetupError(format!(
            "Hyperspace is for 2 to 4 players, not {}",
            config.players
        )));
    }
    let read = options_of::<super::Hyperspace>(config)?;
    let options = Options {
        rounds: read.whole("rounds"),
    };
    let homes = home_stars(config.players);
    let mut s = State::empty();
    let mut ev = Vec::new();
    emit(
        &mut s,
        &mut ev,
        Event::GameSetUp {
            players: config.players,
            options,
            homes: homes.clone(),
        },
    );
    for (i, home) in homes.iter().enumerate() {
        emit(
            &mut s,
            &mut ev,
            Event::ShipsPlaced {
                seat: Seat(i as u8),
                star: *home,
                ships: STARTING_SHIPS,
            },
        );
    }
    Ok((s, ev))
}
