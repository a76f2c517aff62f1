//! Setting a game of Solar Crisis up (`docs/rules/solar.md`, *Set-up*
//! and *Options*): the options of `/game new`, [`setup`] (the events of
//! the page's *Set-up*) and [`open_period`] (the events of Phases 1 and 2
//! that open each period).

use super::basics::board::{
    Phase, Piece, Planet, PlayerCount, CARDS_DEALT, DEFAULT_ROUND_LIMIT, HOME, PERIODS, START_FACTORIES,
    START_INFANTRY, START_MONEY, START_SPACESHIPS,
};
use super::basics::cards::{self, CardId};
use super::basics::tiles::TileId;
use super::events::{Event, MoneyReason, SeatRoll};
use super::state::{dice_total, roll_dice, Options, State, UnitCounts};
use orrery_engine::{options_of, GameConfig, GameRng, OptionValues, Seat, SetupError, SetupOption};

// ---------------------------------------------------------------------------
// Options

/// The lowest `round_limit`.
pub const MIN_ROUND_LIMIT: u32 = 4;
/// The highest `round_limit`.
pub const MAX_ROUND_LIMIT: u32 = 30;

/// The options of `/game new`, as the page's *Options* section lists them.
pub const OPTIONS: [SetupOption; 2] = [
    SetupOption {
        key: "round_limit",
        description: "Rounds of actions per period, then only passing",
        values: OptionValues::Whole {
            min: MIN_ROUND_LIMIT,
            max: MAX_ROUND_LIMIT,
            default: DEFAULT_ROUND_LIMIT,
        },
    },
    SetupOption {
        key: "auto_losses",
        description: "true to let the bot choose every crisis loss",
        values: OptionValues::Flag { default: false },
    },
];

// ---------------------------------------------------------------------------
// Set-up and the opening of a period

/// Rolls for the First Player marker until one is highest: "every player
/// rolls 3 dice; the highest total (skull = 0) takes the First Player
/// marker. Tied highest players roll again, among themselves only".
/// A tie is re-rolled at most this many times; should it still stand (it
/// never does in practice), the first of the tied seats in seat order takes
/// the marker, so set-up always ends.
const MAX_FIRST_PLAYER_ROLLS: usize = 1000;

fn roll_for_first_player(rng: &mut GameRng, seats: Vec<Seat>, events: &mut Vec<Event>) -> Seat {
    let mut contenders = seats;
    for _ in 0..MAX_FIRST_PLAYER_ROLLS {
        let rolls: Vec<SeatRoll> = contenders
            .iter()
            .map(|&seat| SeatRoll {
                seat,
                dice: roll_dice(rng),
            })
            .collect();
        events.push(Event::FirstPlayerRolled {
            rolls: rolls.clone(),
            rng: Box::new(rng.clone()),
        });
        let best = rolls.iter().map(|r| dice_total(&r.dice)).max().unwrap_or(0);
        contenders = rolls
            .iter()
            .filter(|r| dice_total(&r.dice) == best)
            .map(|r| r.seat)
            .collect();
        if contenders.len() <= 1 {
            break;
        }
    }
    contenders.first().copied().unwrap_or(Seat(0))
}

/// The events of the page's *Set-up*: colours and own cards; 4 infantry and
/// 2 spaceships in Earth orbit, 1 factory on Earth and £12 each; the 40
/// deck cards shuffled and 2 dealt to each player; the 55 tiles in the bag
/// in random order; the First Player marker rolled for. Every random draw
/// comes from the generator seeded with `config.seed`.
pub fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
    let players = PlayerCount::new(config.players).ok_or_else(|| {
        SetupError(format!(
            "Solar Crisis is for {} to {} players, not {}",
            PlayerCount::MIN,
            PlayerCount::MAX,
            config.players
        ))
    })?;
    let read = options_of::<super::Solar>(config)?;
    let options = Options {
        round_limit: read.whole("round_limit"),
        auto_losses: read.flag("auto_losses"),
    };
    let mut rng = GameRng::seeded(config.seed);
    let seats: Vec<Seat> = Seat::all(usize::from(players.get())).collect();
    let mut events = vec![Event::GameSetUp {
        players,
        seed: config.seed,
        options,
    }];
    // 2. Units, factory and money.
    for &seat in &seats {
        events.push(Event::UnitsPlaced {
            seat,
            planet: HOME,
            units: UnitCounts::new(START_INFANTRY, START_SPACESHIPS, 0),
        });
        for _ in 0..START_FACTORIES {
            events.push(Event::PieceGained {
                seat,
                planet: HOME,
                piece: Piece::Factory,
            });
        }
        events.push(Event::MoneyGained {
            seat,
            amount: START_MONEY,
            reason: MoneyReason::SetUp,
        });
    }
    // 3. The deck, shuffled; 2 cards each.
    let mut deck = cards::deck();
    rng.shuffle(&mut deck);
    events.push(Event::DeckShuffled {
        order: deck.clone(),
        rng: Box::new(rng.clone()),
    });
    let mut next = deck.into_iter();
    for &seat in &seats {
        let cards: Vec<CardId> = next.by_ref().take(CARDS_DEALT as usize).collect();
        events.push(Event::CardsDealt { seat, cards });
    }
    // 4. The bag.
    let mut bag: Vec<TileId> = TileId::all().collect();
    rng.shuffle(&mut bag);
    events.push(Event::BagShuffled {
        order: bag,
        rng: Box::new(rng.clone()),
    });
    // 6. The First Player.
    let first = roll_for_first_player(&mut rng, seats, &mut events);
    events.push(Event::FirstPlayerMarkerTaken { seat: first });
    Ok(events)
}

/// The events that open the next period, up to its first turn: Phase 1
/// (the Pass cubes), Phase 2 (Ganymede's Crisis tiles discarded, then tiles
/// drawn for each planet in planet order, skipping flipped planets and
/// planets with an Alien tile, until the bag runs out) and the start of
/// Phase 3 (round 1, the First Player's turn). No randomness: the bag is
/// in draw order. Nothing after period 3, or once the game is over.
pub fn open_period(state: &State) -> Vec<Event> {
    let Some(players) = state.player_count() else {
        return Vec::new();
    };
    let period = state.period + 1;
    if period > PERIODS || state.is_over() {
        return Vec::new();
    }
    let mut events = vec![
        Event::PeriodBegan { period },
        Event::PhaseBegan {
            phase: Phase::PlacePassCubes,
        },
        Event::PassCubesPlaced {
            cubes: players.pass_cubes(),
        },
        Event::PhaseBegan { phase: Phase::Tiles },
    ];
    let ganymede = state.crisis_tiles_at(Planet::Ganymede);
    if !ganymede.is_empty() {
        events.push(Event::TilesDiscarded {
            planet: Planet::Ganymede,
            tiles: ganymede,
        });
    }
    let mut bag = state.bag.iter().copied();
    for planet in Planet::ALL {
        if !state.takes_tiles(planet) {
            continue;
        }
        let tiles: Vec<TileId> = bag.by_ref().take(planet.tiles_per_period(players) as usize).collect();
        if !tiles.is_empty() {
            events.push(Event::TilesDrawn { planet, tiles });
        }
    }
    events.push(Event::PhaseBegan {
        phase: Phase::PlayerActions,
    });
    events.push(Event::RoundBegan { round: 1 });
    if let Some(&first) = state.turn_order().first() {
        events.push(Event::TurnBegan { seat: first });
    }
    events
}

#[cfg(test)]
mod tests;
