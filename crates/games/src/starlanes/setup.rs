//! The game's options and the events that set a game up.

use super::basics::{Tech, START_FORCES};
use super::events::Event;
use super::map::Map;
use super::state::Options;
use orrery_engine::{options_of, GameConfig, GameRng, OptionValues, Seat, SetupError, SetupOption};

/// The options of `/game new`.
pub const OPTIONS: [SetupOption; 2] = [
    SetupOption {
        key: "rounds",
        description: "Round limit: the game ends after this many rounds if nobody has 6 VP",
        values: OptionValues::Whole {
            min: 1,
            max: 500,
            default: 40,
        },
    },
    SetupOption {
        key: "map",
        description: "The fixed map of the rules, or a random one",
        values: OptionValues::Words {
            words: &["fixed", "random"],
            default: "fixed",
        },
    },
];

pub fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
    let read = options_of::<super::Starlanes>(config)?;
    let options = Options {
        map: read.word("map").to_string(),
        rounds: read.whole("rounds"),
    };
    let mut rng = GameRng::seeded(config.seed);
    let map = if options.map == "random" {
        Map::random(config.players, &mut rng)
    } else {
        Map::fixed(config.players)
    };
    let mut deck = Tech::ALL.to_vec();
    rng.shuffle(&mut deck);
    let universal: Vec<Tech> = deck.drain(..3).collect();
    let market = [Some(deck.remove(0)), Some(deck.remove(0)), None];
    let homes: Vec<String> = Seat::all(config.players as usize)
        .map(|s| map.planets[map.home_of(s)].name.clone())
        .collect();
    let mut events = vec![Event::GameStarted {
        players: config.players,
        options,
        map: Box::new(map),
        universal,
        market,
        deck,
        rng: Box::new(rng),
    }];
    for (i, home) in homes.into_iter().enumerate() {
        events.push(Event::ForcesSet {
            planet: home,
            seat: Some(Seat(i as u8)),
            forces: START_FORCES,
        });
    }
    events.push(Event::TurnBegan {
        seat: Seat(0),
        round: 1,
    });
    Ok(events)
}
