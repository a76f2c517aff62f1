//! The game's options (rules page, *Options*) and the setting-up of a
//! game: the map with its markers dealt face down, the starting forces,
//! the first player drawn, round 1 begun.

use super::basics::{Kind, Label, Levels};
use super::events::{push, Event};
use super::map::{deal_with, Area, Board};
use super::state::battle::Standing;
use super::state::{draw_label, new_unit, Colony, Empire, Options, Spot, State, Unit, ROUNDS_DEFAULT};
use orrery_engine::{options_of, GameConfig, GameRng, OptionValues, Seat, SetupError, SetupOption};

pub const ROUNDS_RANGE: std::ops::RangeInclusive<u32> = 3..=40;

/// How many Doomsday Machines a game with `doomsday: true` has, unless
/// `machines` says (text 17.1: "three ... players need to agree on the
/// number").
pub const MACHINES: std::ops::RangeInclusive<u32> = 1..=3;

/// The options of `/game new` (rules page, *Options*): the round limit,
/// standing orders on fire at will, the rules (only `basic` is built), the
/// optional rules built, and the keys of the rest, reserved.
pub const OPTIONS: [SetupOption; 17] = [
    SetupOption {
        key: "rounds",
        description: "Round limit: the game ends after this round's Economic Phase and is scored",
        values: OptionValues::Whole {
            min: *ROUNDS_RANGE.start(),
            max: *ROUNDS_RANGE.end(),
            default: ROUNDS_DEFAULT,
        },
    },
    SetupOption {
        key: "auto_combat",
        description: "true to start every player's standing orders on fire at will",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "rules",
        description: "basic, or advanced: every advanced rule (10-14) on",
        values: OptionValues::Words {
            words: &["basic", "advanced"],
            default: "basic",
        },
    },
    SetupOption {
        key: "pipelines",
        description: "true: Merchant Ship Pipelines, +1 hex along a chain and +1 CP a connected colony (rule 10)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "carriers",
        description: "true: Carriers and Fighter Squadrons, Fighter technology (rule 11.1-11.2)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "point_defense",
        description: "true: Point Defense technology, Scouts firing at Fighters as class A (rule 11.3)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "raiders",
        description: "true: Raiders, unseen by enemies while cloaked, and Scanners on Destroyers (rule 12)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "mines",
        description: "true: Mines, detonating on entering ships, and Minesweepers (rule 13)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "aliens",
        description: "true: aliens on deep-space Barren Planets fight every ship that enters (rule 14)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "instant_upgrade",
        description: "true: every ship gets each new technology level at once (optional rule 15.1)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "slingshot",
        description: "true: ships may sling shot round a revealed Black Hole, +1 hex at +2 risk (optional rule 15.2)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "warp_points",
        description: "true: six Warp Points in deep space; a found pair joins two hexes (optional rule 16)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "doomsday",
        description: "true: Doomsday Machines in deep space, moving and destroying planets (optional rule 17)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "machines",
        description: "How many Doomsday Machines (with doomsday, and in solitaire): 1 to 3",
        values: OptionValues::Whole {
            min: *MACHINES.start(),
            max: *MACHINES.end(),
            default: *MACHINES.end(),
        },
    },
    SetupOption {
        key: "teams",
        description: "true: 4 players, 2 against 2 (seats 1 and 3 against 2 and 4), sharing victory",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "research_gearing",
        description: "true: at most 10 CP more on research than the phase before (optional rule 18)",
        values: OptionValues::Flag { default: false },
    },
    SetupOption {
        key: "unpredictable_research",
        description: "true: research in 5 CP grants, a die each, towards the next level (optional rule 19)",
        values: OptionValues::Flag { default: false },
    },
];

/// The set-up: the map with its markers dealt face down, the starting
/// forces (rules page, *Starting forces*), the first player drawn, and
/// round 1 and its turn 1 begun (the first player's movement is the
/// rules' to begin): the state so far and its events.
pub fn setup(config: &GameConfig) -> Result<(State, Vec<Event>), SetupError> {
    let read = options_of::<super::Empires>(config)?;
    // `rules: advanced` turns on every advanced rule (10-14).
    let advanced = read.word("rules") == "advanced";
    let rule = |key: &str| advanced || read.flag(key);
    let options = Options {
        rounds: read.whole("rounds"),
        auto_combat: read.flag("auto_combat"),
        instant_upgrade: read.flag("instant_upgrade"),
        research_gearing: read.flag("research_gearing"),
        slingshot: read.flag("slingshot"),
        unpredictable_research: read.flag("unpredictable_research"),
        pipelines: rule("pipelines"),
        warp_points: read.flag("warp_points"),
        mines: rule("mines"),
        carriers: rule("carriers"),
        point_defense: rule("point_defense"),
        // Solitaire is played against the aliens too (rules page).
        aliens: rule("aliens") || config.players == 1,
        raiders: rule("raiders"),
        teams: read.flag("teams"),
        // Solitaire is played against the machines (rules page).
        doomsday: if read.flag("doomsday") || config.players == 1 {
            read.whole("machines")
        } else {
            0
        },
    };
    if options.teams && config.players != 4 {
        return Err(SetupError(format!(
            "`teams: true` is for 4 players, 2 against 2; this game has {}",
            config.players
        )));
    }
    // Solitaire is played on the 2-player map: the other home system is
    // white-backed no-man's-land, its homeworld hex the machines' gate.
    let board = Board::new(config.players.max(2))
        .filter(|_| config.players >= 1)
        .ok_or_else(|| {
            SetupError(format!(
                "Space Empires 4X is for 1 to 4 players, not {}",
                config.players
            ))
        })?;
    let mut rng = GameRng::seeded(config.seed);
    let in_mix = if config.players == 1 { 0 } else { options.doomsday };
    let mut spots: Vec<Spot> = deal_with(&board, &mut rng, options.warp_points, in_mix)
        .into_iter()
        .map(|(hex, marker)| Spot {
            hex,
            marker,
            face_up: false,
            home: match board.area(hex) {
                Some(Area::Home(seat)) if seat.0 < config.players => Some(seat),
                _ => None,
            },
            aliens: Vec::new(),
            aliens_hidden: false,
        })
        .collect();
    spots.sort_by_key(|p| Board::name_key(p.hex));
    let seats: Vec<Seat> = (0..config.players).map(Seat).collect();
    let mut colonies = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut empires = Vec::new();
    for &seat in &seats {
        let home = board.homeworld(seat);
        colonies.push(Colony {
            hex: home,
            owner: seat,
            worth: State::HOMEWORLD,
            barren: false,
            yards: 4,
            new_yards: 0,
            base: false,
            deposits: Vec::new(),
            hidden_yards: 0,
            hidden_base: false,
        });
        for kind in [
            Kind::Scout,
            Kind::Scout,
            Kind::Scout,
            Kind::ColonyShip,
            Kind::ColonyShip,
            Kind::ColonyShip,
            Kind::Miner,
        ] {
            let taken: Vec<Label> = units.iter().map(|u| u.label).collect();
            let label = draw_label(seat, &taken, &mut rng);
            units.push(new_unit(label, kind, 1, Levels::default(), home));
        }
        empires.push(Empire {
            cp: 0,
            levels: Levels::default(),
            standing: Standing {
                auto: options.auto_combat,
                ..Standing::default()
            },
            last_bid: None,
            wrecks: Vec::new(),
            peeked: Vec::new(),
            peeked_now: Vec::new(),
            resigned: false,
            research_last: 0,
            grants_last: 0,
            progress: Vec::new(),
        });
    }
    colonies.sort_by_key(|c| Board::name_key(c.hex));
    let first = rng.below(u32::from(config.players)) as u8;
    let order = rotation(config.players, Seat(first));
    let mut s = State::empty();
    let mut out = Vec::new();
    push(
        &mut s,
        &mut out,
        Event::SetUp {
            players: config.players,
            options,
            board: Box::new(board),
            spots,
            colonies,
            units,
            empires,
            order: order.clone(),
            rng: Box::new(rng),
        },
    );
    push(&mut s, &mut out, Event::RoundBegan { round: 1, order });
    push(&mut s, &mut out, Event::TurnBegan { turn: 1 });
    Ok((s, out))
}

/// The seats clockwise from `first`.
pub fn rotation(players: u8, first: Seat) -> Vec<Seat> {
    (0..players).map(|i| Seat((first.0 + i) % players)).collect()
}
