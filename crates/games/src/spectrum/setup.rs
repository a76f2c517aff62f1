//! The options and the set-up: the map and the seats (turn 1 is begun by
//! [`super::rules::turn::begin_turn`]).

use super::events::{self, Event};
use super::map;
use super::state::{self, State};
use orrery_engine::{options_of, GameConfig, GameRng, OptionValues, SetupError, SetupOption};

/// The options of `/game new`.
pub const OPTIONS: [SetupOption; 1] = [SetupOption {
    key: "rounds",
    description: "Turn limit: the war ends after this many turns at the latest",
    values: OptionValues::Whole {
        min: *state::TURN_LIMIT_RANGE.start(),
        max: *state::TURN_LIMIT_RANGE.end(),
        default: state::TURN_LIMIT_DEFAULT,
    },
}];

/// The set-up: the map and the seats, and the state they fold to (turn 1
/// up to its economic sheets follows from that state).
pub fn setup(config: &GameConfig) -> Result<(State, Vec<Event>), SetupError> {
    let turn_limit = options_of::<super::Spectrum>(config)?.whole("rounds");
    let mut rng = GameRng::seeded(config.seed);
    let map = map::generate(config.players, &mut rng);
    let events = vec![Event::WarBegan {
        players: config.players,
        turn_limit,
        map: Box::new(map),
        rng: Box::new(rng),
    }];
    let mut s = State::empty();
    events::apply(&mut s, &events[0]);
    Ok((s, events))
}
