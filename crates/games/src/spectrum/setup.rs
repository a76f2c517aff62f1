//! The options and the set-up: the map and the seats (turn 1 is begun by
//! [`super::rules::turn::begin_turn`]).

use super::basics::Colour;
use super::events::{self, Event};
use super::map;
use super::state::{self, State};
use orrery_engine::{options_of, GameConfig, GameRng, OptionValues, Seat, SeatPick, SetupError, SetupOption};

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

/// What players choose on joining: "Players join the war (select war,
/// select color, …)".
pub const SEAT_PICK: SeatPick = SeatPick {
    name: "colour",
    values: &["red", "orange", "yellow", "green", "blue", "violet"],
};

/// The seats' colours: each picked one kept, the others assigned
/// ([`Colour::assign`]); two seats picking one colour is refused.
fn colours(config: &GameConfig) -> Result<Vec<Colour>, SetupError> {
    let mut picks = Vec::new();
    for seat in 0..config.players {
        let pick = match config.pick(Seat(seat)) {
            None => None,
            Some(p) => {
                let c = SEAT_PICK.read(p).map_err(SetupError)?;
                Some(Colour::parse(c).ok_or_else(|| SetupError(format!("no colour {c}")))?)
            }
        };
        if pick.is_some() && picks.contains(&pick) {
            return Err(SetupError(format!(
                "two players picked {}; each colour is one player's",
                pick.map_or("", |c: Colour| c.name())
            )));
        }
        picks.push(pick);
    }
    Ok(Colour::assign(config.players, &picks))
}

/// The set-up: the map and the seats, and the state they fold to (turn 1
/// up to its economic sheets follows from that state).
pub fn setup(config: &GameConfig) -> Result<(State, Vec<Event>), SetupError> {
    let turn_limit = options_of::<super::Spectrum>(config)?.whole("rounds");
    let colours = colours(config)?;
    let mut rng = GameRng::seeded(config.seed);
    let map = map::generate(&colours, &mut rng);
    let events = vec![Event::WarBegan {
        players: config.players,
        turn_limit,
        map: Box::new(map),
        rng: Box::new(rng),
        colours: (colours != Colour::of_seats(config.players)).then_some(colours),
    }];
    let mut s = State::empty();
    events::apply(&mut s, &events[0]);
    Ok((s, events))
}
