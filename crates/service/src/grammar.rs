//! The grammar of `/game …`, `/sheet …`, `/host …` and `/mygames`, for
//! every transport.
//!
//! One table ([`SUBCOMMANDS`], [`MYGAMES`]) says which subcommands exist,
//! under which top-level command ([`Top`]: `/game` for players, `/sheet`
//! for a player's order sheet, `/host` for the host's tools), and which
//! options each takes (name, meaning,
//! required or not, description); one parser ([`parse_command`]) turns a
//! subcommand and its typed option values into a [`Request`]. Discord
//! registers its commands from the table and feeds an interaction's
//! options to the parser; the terminal reads `/host settings deadline:24h`
//! into the same option values ([`read_text`]) and calls the same parser.
//! Neither transport knows what an option means.
//!
//! Two kinds of error, both for the asker: a value a transport could not
//! type (`phase:x`, from the terminal), and a value or a combination the
//! parser refuses (`seat:0`, an unknown option, a missing one); each says
//! what was wrong and what would be legal. Whether a value fits the game
//! (a phase it reached, a seat it has) is the service's to check.

use super::{
    parse_duration, parse_kind_deadlines, parse_private, parse_time_of_day, Missed, Request, SeatRef, ServiceError,
    SettingsChange,
};
use orrery_engine::{GameId, Seat, SheetVerb, UserId};
use orrery_games::GameKind;
use orrery_store::{BotLevel, GameRow};

mod options;
pub use options::{game_option_suggestions, read_game_options};

/// A top-level command the subcommands of [`SUBCOMMANDS`] belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Top {
    /// `/game …`: what players do (and the lobby, which the host opens and starts).
    Game,
    /// `/sheet …`: a player's order sheet (or draft): show, ready, un-ready, clear, remove a line.
    Sheet,
    /// `/host …`: the host's tools for a game in play.
    Host,
}

impl Top {
    pub const ALL: [Top; 3] = [Top::Game, Top::Sheet, Top::Host];

    pub fn name(self) -> &'static str {
        match self {
            Top::Game => GAME,
            Top::Sheet => SHEET,
            Top::Host => HOST,
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Top::Game => GAME_DESCRIPTION,
            Top::Sheet => SHEET_DESCRIPTION,
            Top::Host => HOST_DESCRIPTION,
        }
    }

    pub fn from_name(name: &str) -> Option<Top> {
        Top::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The name of the players' command.
pub const GAME: &str = "game";
/// What `/game` is for.
pub const GAME_DESCRIPTION: &str = "Open, join, play and look at games.";
/// The name of the order sheet's command.
pub const SHEET: &str = "sheet";
/// What `/sheet` is for.
pub const SHEET_DESCRIPTION: &str = "Your order sheet: show it, mark it ready or not, clear it, remove a line.";
/// The name of the host's command.
pub const HOST: &str = "host";
/// What `/host` is for.
pub const HOST_DESCRIPTION: &str = "Host tools: settings, the clock, seats, undo and roll-back.";

/// How a value travels: the option types a transport knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    Text,
    Integer,
    Boolean,
    User,
}

/// What an option means. It fixes the option's [`Wire`] type, its fixed
/// choices, its bounds, its autocomplete and how the parser reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A game number; autocompletes from the games the asker may name.
    Game,
    /// A game system: one of the [`GameKind`] keys (a fixed choice).
    System,
    /// A seat: its number as players see it (1 is the first seat), a
    /// player's name, or the player (a mention); autocompletes with the
    /// players' names.
    Seat,
    /// A phase number (0 is the set-up). Whether the game reached it is
    /// for the service to say, with the game's range. Autocompletes with
    /// the phases the game reached and their labels.
    Phase,
    /// A random seed: for tests and the terminal only ([`OptionKind::dev_only`]).
    Seed,
    /// The chosen game's set-up options, as text: `rounds:12 map:random`
    /// (each game declares its own: `orrery_engine::Ruleset::OPTIONS`);
    /// autocompletes from the declarations.
    GameOptions,
    /// A section (`##` heading) of a rules page; autocompletes with them.
    Section,
    /// A length of time: `30m`, `12h`, `2d`, `1w`.
    Duration,
    /// Reminder points before a deadline: `24h,2h`, or `off`.
    Points,
    /// Deadline lengths per decision: `combat-card=2h,losses=12h`.
    KindDeadlines,
    /// A time of day deadlines fall at: `18:00`, `18:00+02:00`, or `off`.
    TimeOfDay,
    /// What a missed deadline does: `default` or `wait` (a fixed choice).
    Missed,
    /// Where private messages go: `dms` or `thread` (a fixed choice).
    Private,
    /// `true` or `false`.
    Flag,
    /// A person.
    Player,
    /// A line of the asker's order sheet, numbered from 1.
    Line,
    /// What a player picks for their seat on joining, in a game that asks
    /// (Spectrum War's colour); autocompletes with the values still free.
    Pick,
    /// A computer player's difficulty: `easy`, `normal` or `hard` (a fixed
    /// choice).
    Level,
}

/// Where an option's suggestions come from, for transports that offer them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complete {
    /// The games the asker may name (their own in DMs, the channel's in a channel).
    Game,
    /// The seats of the game, by player name ([`crate::Service::seat_suggestions`]).
    Seat,
    /// The phases the game reached, newest first ([`crate::Service::phase_suggestions`]).
    Phase,
    /// The sections of the rules page ([`crate::rules_sections`]).
    Section,
    /// The chosen game's set-up options ([`game_option_suggestions`]).
    GameOptions,
    /// The seat picks still free in the lobby ([`crate::Service::pick_suggestions`]).
    Pick,
}

/// One option of a subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: OptionKind,
    pub required: bool,
}

/// One subcommand (or a command without subcommands, like `/mygames`):
/// the command it belongs to, its options in the order transports show
/// them (required ones first), and how its checked values become a request.
#[derive(Clone, Copy)]
pub struct Subcommand {
    /// `None`: a command of its own (`/mygames`).
    pub top: Option<Top>,
    pub name: &'static str,
    pub description: &'static str,
    pub options: &'static [OptionSpec],
    build: fn(&Args<'_>) -> Result<Request, String>,
}

impl std::fmt::Debug for Subcommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subcommand")
            .field("top", &self.top)
            .field("name", &self.name)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Subcommand {
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }

    /// Parse this subcommand's option values into a request.
    pub fn parse(&self, given: &[(String, OptionValue)]) -> Result<Request, String> {
        let args = Args::check(self, given)?;
        (self.build)(&args)
    }

    fn usage(&self) -> String {
        if self.options.is_empty() {
            return format!("`{}` takes no options.", self.path());
        }
        let names: Vec<String> = self
            .options
            .iter()
            .map(|o| {
                if o.required {
                    format!("`{}` (required)", o.name)
                } else {
                    format!("`{}`", o.name)
                }
            })
            .collect();
        format!("Its options: {}.", names.join(", "))
    }

    /// `/host kick`, `/mygames`.
    pub fn path(&self) -> String {
        match self.top {
            Some(top) => format!("/{} {}", top.name(), self.name),
            None => format!("/{}", self.name),
        }
    }
}

/// A value as a transport delivers it, typed by the option's [`Wire`].
/// A fixed choice arrives as the chosen word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Text(String),
    Integer(i64),
    Boolean(bool),
    User { id: UserId, name: String },
}

impl OptionValue {
    fn wire(&self) -> Wire {
        match self {
            OptionValue::Text(_) => Wire::Text,
            OptionValue::Integer(_) => Wire::Integer,
            OptionValue::Boolean(_) => Wire::Boolean,
            OptionValue::User { .. } => Wire::User,
        }
    }

    fn shown(&self) -> String {
        match self {
            OptionValue::Text(t) => t.clone(),
            OptionValue::Integer(n) => n.to_string(),
            OptionValue::Boolean(b) => b.to_string(),
            OptionValue::User { name, .. } => format!("@{name}"),
        }
    }
}

const GAME_OPTION: OptionSpec = OptionSpec {
    name: "game",
    description: "Game number (only needed when there are several)",
    kind: OptionKind::Game,
    required: false,
};

const fn seat_option(description: &'static str) -> OptionSpec {
    OptionSpec {
        name: "seat",
        description,
        kind: OptionKind::Seat,
        required: true,
    }
}

/// The `seat` option where it may be left out.
const fn seat_option_optional(description: &'static str) -> OptionSpec {
    OptionSpec {
        name: "seat",
        description,
        kind: OptionKind::Seat,
        required: false,
    }
}

/// A subcommand whose only option is `game`.
const fn game_only(
    top: Top,
    name: &'static str,
    description: &'static str,
    build: fn(&Args<'_>) -> Result<Request, String>,
) -> Subcommand {
    Subcommand {
        top: Some(top),
        name,
        description,
        options: &[GAME_OPTION],
        build,
    }
}

/// The deadline settings a host may change (`/host settings`).
const SETTINGS_OPTIONS: &[OptionSpec] = &[
    GAME_OPTION,
    OptionSpec {
        name: "deadline",
        description: "Deadline per phase, e.g. 48h, 30m, 2d, 1w",
        kind: OptionKind::Duration,
        required: false,
    },
    OptionSpec {
        name: "reminders",
        description: "Reminders before the deadline, e.g. 24h,2h (or off)",
        kind: OptionKind::Points,
        required: false,
    },
    OptionSpec {
        name: "missed",
        description: "On a missed deadline: apply defaults, or wait for the host",
        kind: OptionKind::Missed,
        required: false,
    },
    OptionSpec {
        name: "decision_deadlines",
        description: "Deadline per decision, e.g. combat-card=2h,losses=12h (kind=default removes)",
        kind: OptionKind::KindDeadlines,
        required: false,
    },
    OptionSpec {
        name: "time_of_day",
        description: "Deadlines fall at this time of day: 18:00 (UTC), 18:00+02:00, or off",
        kind: OptionKind::TimeOfDay,
        required: false,
    },
    OptionSpec {
        name: "auto_resolve",
        description: "Off: secret choices are drafts until everyone is /sheet ready",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "private",
        description: "Private messages by DM, or in a private thread per player in this channel",
        kind: OptionKind::Private,
        required: false,
    },
];

/// The `in` option of `/game private` and `/host private`.
const PRIVATE_IN: OptionSpec = OptionSpec {
    name: "in",
    description: "dms: direct messages; thread: a private thread in the game's channel",
    kind: OptionKind::Private,
    required: true,
};

/// Every subcommand of `/game` and `/host`, each command's in the order
/// Discord lists them.
pub const SUBCOMMANDS: &[Subcommand] = &[
    // ---- /game: the lobby ----
    Subcommand {
        top: Some(Top::Game),
        name: "new",
        description: "Open a new game in this channel; you host it and take the first seat.",
        options: &[
            OptionSpec {
                name: "game",
                description: "Which game to play",
                kind: OptionKind::System,
                required: true,
            },
            OptionSpec {
                name: "options",
                description: "The game's options, like rounds:12 (suggested as you type; see /game rules)",
                kind: OptionKind::GameOptions,
                required: false,
            },
            OptionSpec {
                name: "private",
                description: "Private messages by DM (default), or in a private thread per player in this channel",
                kind: OptionKind::Private,
                required: false,
            },
            OptionSpec {
                name: "seed",
                description: "Testing only: random seed, to replay a set-up exactly",
                kind: OptionKind::Seed,
                required: false,
            },
        ],
        build: |a| {
            let kind = required(a.system("game"), "game")?;
            Ok(Request::New {
                kind,
                seed: a.integer("seed").map(|n| n as u64),
                options: a
                    .text("options")
                    .map(|t| read_game_options(kind, t))
                    .transpose()?
                    .flatten(),
                private: a.text("private").map(parse_private).transpose()?,
            })
        },
    },
    Subcommand {
        top: Some(Top::Game),
        name: "join",
        description: "Take a seat in the game waiting in this channel.",
        options: &[
            OptionSpec {
                name: "colour",
                description: "Spectrum War: your colour (the free ones are suggested); seated already, you change it",
                kind: OptionKind::Pick,
                required: false,
            },
            GAME_OPTION,
        ],
        build: |a| {
            Ok(match a.text("colour") {
                Some(value) => Request::Pick {
                    game: a.game(),
                    value: value.to_string(),
                },
                None => Request::Join { game: a.game() },
            })
        },
    },
    game_only(
        Top::Game,
        "leave",
        "Give up your seat before the game starts (the host leaving closes it).",
        |a| Ok(Request::Leave { game: a.game() }),
    ),
    game_only(
        Top::Game,
        "start",
        "Host: start the game, with the players seated now.",
        |a| Ok(Request::Start { game: a.game() }),
    ),
    // ---- /game: play ----
    game_only(
        Top::Game,
        "status",
        "Players, phase, and whom the game is waiting on.",
        |a| Ok(Request::Status { game: a.game() }),
    ),
    game_only(
        Top::Game,
        "board",
        "The current board; a player's own board, sheet or hand, and prompt, seen only by them.",
        |a| Ok(Request::Board { game: a.game() }),
    ),
    game_only(
        Top::Game,
        "prompt",
        "Show my pending decision again, with its buttons.",
        |a| Ok(Request::Prompt { game: a.game() }),
    ),
    game_only(
        Top::Game,
        "dms",
        "I opened my DMs: send my prompts and private messages by DM again.",
        |a| Ok(Request::Dms { game: a.game() }),
    ),
    Subcommand {
        top: Some(Top::Game),
        name: "private",
        description: "Where my prompts and private messages go: my DMs, or a private thread in the channel.",
        options: &[PRIVATE_IN, GAME_OPTION],
        build: |a| {
            Ok(Request::Private {
                game: a.game(),
                seat: None,
                to: parse_private(required(a.text("in"), "in")?)?,
            })
        },
    },
    Subcommand {
        top: Some(Top::Game),
        name: "resign",
        description: "Resign from a game in play (you are asked first); the game goes on without you.",
        options: &[
            OptionSpec {
                name: "confirm",
                description: "true: resign at once, without being asked",
                kind: OptionKind::Flag,
                required: false,
            },
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Resign {
                game: a.game(),
                seat: None,
                confirmed: a.flag("confirm").unwrap_or(false),
            })
        },
    },
    game_only(
        Top::Game,
        "takeback",
        "Take back your own last order, in your turn, if it revealed and drew nothing.",
        |a| Ok(Request::TakeBack { game: a.game() }),
    ),
    // ---- /sheet: order sheets ----
    game_only(
        Top::Sheet,
        "show",
        "Show your order sheet (or pending decision), with its buttons.",
        |a| Ok(Request::Prompt { game: a.game() }),
    ),
    game_only(
        Top::Sheet,
        "ready",
        "Mark your order sheet ready, or your draft final (when the host turned auto-resolve off).",
        |a| Ok(Request::Ready { game: a.game() }),
    ),
    game_only(
        Top::Sheet,
        "unready",
        "Take back your sheet's ready mark while others are still writing.",
        |a| {
            Ok(Request::Sheet {
                game: a.game(),
                verb: SheetVerb::Unready,
            })
        },
    ),
    game_only(Top::Sheet, "clear", "Remove every line of your order sheet.", |a| {
        Ok(Request::Sheet {
            game: a.game(),
            verb: SheetVerb::Clear,
        })
    }),
    Subcommand {
        top: Some(Top::Sheet),
        name: "remove",
        description: "Remove one line of your order sheet.",
        options: &[
            OptionSpec {
                name: "line",
                description: "The line's number, as your sheet shows it",
                kind: OptionKind::Line,
                required: true,
            },
            GAME_OPTION,
        ],
        build: |a| {
            let line = a.integer("line").ok_or("give the line to remove: `line:2`")?;
            Ok(Request::Sheet {
                game: a.game(),
                verb: SheetVerb::Remove(line as usize),
            })
        },
    },
    Subcommand {
        top: Some(Top::Game),
        name: "rules",
        description: "A game's rules, by section, and its orders.",
        options: &[
            GAME_OPTION,
            OptionSpec {
                name: "system",
                description: "A game system, to read its rules without a game",
                kind: OptionKind::System,
                required: false,
            },
            OptionSpec {
                name: "section",
                description: "A section of the rules (default: the introduction and the list of sections)",
                kind: OptionKind::Section,
                required: false,
            },
        ],
        build: |a| {
            Ok(Request::Rules {
                kind: a.system("system"),
                game: a.game(),
                section: a
                    .text("section")
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty()),
            })
        },
    },
    Subcommand {
        top: Some(Top::Game),
        name: "history",
        description: "The board as it was after an earlier phase.",
        options: &[
            GAME_OPTION,
            OptionSpec {
                name: "phase",
                description: "Phase (default: the current one)",
                kind: OptionKind::Phase,
                required: false,
            },
        ],
        build: |a| {
            Ok(Request::History {
                game: a.game(),
                phase: a.integer("phase").map(|n| n as u64),
            })
        },
    },
    game_only(
        Top::Game,
        "log",
        "What has happened in the current phase, in sentences (public).",
        |a| Ok(Request::Log { game: a.game() }),
    ),
    game_only(
        Top::Game,
        "settings",
        "The game's deadline settings (the host changes them with /host settings).",
        |a| {
            Ok(Request::Settings {
                game: a.game(),
                change: SettingsChange::default(),
            })
        },
    ),
    Subcommand {
        top: Some(Top::Game),
        name: "reminders",
        description: "Your own reminders for a game: show them, mute them, or set your own points.",
        options: &[
            GAME_OPTION,
            OptionSpec {
                name: "mute",
                description: "True: no reminders for you; false: back to the game's points",
                kind: OptionKind::Flag,
                required: false,
            },
            OptionSpec {
                name: "points",
                description: "Your own points before the deadline, e.g. 12h,1h",
                kind: OptionKind::Points,
                required: false,
            },
        ],
        build: |a| {
            Ok(Request::Reminders {
                game: a.game(),
                mute: a.flag("mute"),
                points: a.points("points")?,
            })
        },
    },
    game_only(
        Top::Game,
        "watch",
        "Follow a game: its public board after every phase, by DM.",
        |a| Ok(Request::Watch { game: a.game() }),
    ),
    game_only(Top::Game, "unwatch", "Stop following a game.", |a| {
        Ok(Request::Unwatch { game: a.game() })
    }),
    // ---- /host ----
    Subcommand {
        top: Some(Top::Host),
        name: "settings",
        description: "Show the game's deadline settings, or change them.",
        options: SETTINGS_OPTIONS,
        build: |a| {
            Ok(Request::Settings {
                game: a.game(),
                change: SettingsChange {
                    deadline_ms: a.duration("deadline")?,
                    reminders_ms: a.points("reminders")?,
                    on_missed: a.text("missed").and_then(Missed::from_key),
                    deadline_by_kind: a.read("decision_deadlines", parse_kind_deadlines)?.unwrap_or_default(),
                    time_of_day: a.read("time_of_day", parse_time_of_day)?,
                    auto_resolve: a.flag("auto_resolve"),
                    private: a.text("private").map(parse_private).transpose()?,
                },
            })
        },
    },
    game_only(Top::Host, "pause", "Stop the deadline clock.", |a| {
        Ok(Request::Pause { game: a.game() })
    }),
    game_only(
        Top::Host,
        "resume",
        "Restart the deadline clock with the time that was left.",
        |a| Ok(Request::Resume { game: a.game() }),
    ),
    Subcommand {
        top: Some(Top::Host),
        name: "extend",
        description: "Give the current phase more time.",
        options: &[
            OptionSpec {
                name: "by",
                description: "How much longer, e.g. 12h, 1d",
                kind: OptionKind::Duration,
                required: true,
            },
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Extend {
                game: a.game(),
                by_ms: required(a.duration("by")?, "by")?,
            })
        },
    },
    game_only(
        Top::Host,
        "force",
        "Resolve the current phase now, applying defaults for missing orders.",
        |a| Ok(Request::Force { game: a.game() }),
    ),
    Subcommand {
        top: Some(Top::Host),
        name: "bot",
        description: "Seat a computer player in the lobby; in play, hand a seat to one (seat:).",
        options: &[
            OptionSpec {
                name: "level",
                description: "How hard it plays: easy, normal (the default) or hard",
                kind: OptionKind::Level,
                required: false,
            },
            seat_option_optional("In play: the seat it takes, by its player's name or its number"),
            GAME_OPTION,
        ],
        build: |a| {
            let game = a.game();
            let level = a.text("level").and_then(BotLevel::from_key).unwrap_or_default();
            Ok(match a.get("seat") {
                None => Request::AddBot { game, level },
                Some(_) => Request::ReplaceBot {
                    game,
                    seat: a.seat()?,
                    level,
                },
            })
        },
    },
    Subcommand {
        top: Some(Top::Host),
        name: "replace",
        description: "Give a seat to another player (they get its private view by DM).",
        options: &[
            seat_option("The seat: its player's name (or a mention), or its number"),
            OptionSpec {
                name: "player",
                description: "The new player",
                kind: OptionKind::Player,
                required: true,
            },
            GAME_OPTION,
        ],
        build: |a| {
            let (user, name) = required(a.user("player"), "player")?;
            Ok(Request::Replace {
                game: a.game(),
                seat: a.seat()?,
                user,
                name,
            })
        },
    },
    Subcommand {
        top: Some(Top::Host),
        name: "kick",
        description: "Remove a player; in play their seat stays, in civil disorder, until replaced.",
        options: &[
            seat_option("The player: their name (or a mention), or their seat number"),
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Kick {
                game: a.game(),
                seat: a.seat()?,
            })
        },
    },
    Subcommand {
        top: Some(Top::Host),
        name: "resign",
        description: "Resign a player: the game goes on without them (`/host undo` takes it back).",
        options: &[
            seat_option("The player: their name (or a mention), or their seat number"),
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Resign {
                game: a.game(),
                seat: Some(a.seat()?),
                confirmed: true,
            })
        },
    },
    Subcommand {
        top: Some(Top::Host),
        name: "disorder",
        description: "Civil disorder for a seat (its defaults are played every phase), on or off.",
        options: &[
            seat_option("The seat: its player's name (or a mention), or its number"),
            OptionSpec {
                name: "on",
                description: "On (defaults every phase) or off (the player plays again)",
                kind: OptionKind::Flag,
                required: true,
            },
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Disorder {
                game: a.game(),
                seat: a.seat()?,
                on: required(a.flag("on"), "on")?,
            })
        },
    },
    Subcommand {
        top: Some(Top::Host),
        name: "private",
        description: "Where a player's private messages go: DMs, or a private thread (for closed DMs).",
        options: &[
            seat_option("The player: their name (or a mention), or their seat number"),
            PRIVATE_IN,
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Private {
                game: a.game(),
                seat: Some(a.seat()?),
                to: parse_private(required(a.text("in"), "in")?)?,
            })
        },
    },
    game_only(
        Top::Host,
        "undo",
        "Undo the last action (announced; the log keeps it).",
        |a| Ok(Request::Undo { game: a.game() }),
    ),
    Subcommand {
        top: Some(Top::Host),
        name: "rollback",
        description: "Roll the game back to the start of a phase (announced; the log keeps everything).",
        options: &[
            OptionSpec {
                name: "phase",
                description: "The phase to go back to the start of",
                kind: OptionKind::Phase,
                required: true,
            },
            GAME_OPTION,
        ],
        build: |a| {
            Ok(Request::Rollback {
                game: a.game(),
                phase: required(a.integer("phase"), "phase")? as u64,
            })
        },
    },
];

/// `/mygames`: a command of its own, without options.
pub const MYGAMES: Subcommand = Subcommand {
    top: None,
    name: "mygames",
    description: "Your open games: what each waits on (and whether on you), and the deadline.",
    options: &[],
    build: |_| Ok(Request::MyGames),
};

/// The subcommands of `top`, in the order Discord lists them.
pub fn subcommands(top: Top) -> impl Iterator<Item = &'static Subcommand> {
    SUBCOMMANDS.iter().filter(move |s| s.top == Some(top))
}

/// The subcommand `name` of `top`.
pub fn subcommand(top: Top, name: &str) -> Option<&'static Subcommand> {
    subcommands(top).find(|s| s.name == name)
}

/// Parse `/<top> <sub>` with these option values. A subcommand asked of
/// the other command says where it is (`/game pause` → `/host pause`).
pub fn parse_command(top: Top, sub: &str, given: &[(String, OptionValue)]) -> Result<Request, String> {
    let Some(cmd) = subcommand(top, sub) else {
        if let Some(elsewhere) = SUBCOMMANDS.iter().find(|s| s.name == sub && s.top != Some(top)) {
            return Err(format!(
                "There is no `/{} {sub}`; it is `{}`.",
                top.name(),
                elsewhere.path()
            ));
        }
        let names: Vec<&str> = subcommands(top).map(|s| s.name).collect();
        return Err(format!(
            "There is no `/{} {sub}`; try {}.",
            top.name(),
            names.join(", ")
        ));
    };
    cmd.parse(given)
}

/// The options of a command as the terminal writes them (`key:value`),
/// typed for [`Subcommand::parse`]. `user` finds the person a `player:@dave`
/// names. Options the command does not know pass as text, for the parser
/// to refuse with the list of those it knows.
pub fn read_text(
    cmd: &Subcommand,
    args: &[(String, String)],
    user: &dyn Fn(&str) -> UserId,
) -> Result<Vec<(String, OptionValue)>, String> {
    args.iter()
        .map(|(name, text)| {
            let value = match cmd.option(name) {
                None => OptionValue::Text(text.clone()),
                Some(spec) => read_value(spec, text, user)?,
            };
            Ok((name.clone(), value))
        })
        .collect()
}

fn read_value(spec: &OptionSpec, text: &str, user: &dyn Fn(&str) -> UserId) -> Result<OptionValue, String> {
    let name = spec.name;
    let t = text.trim();
    Ok(match spec.kind.wire() {
        Wire::Text => OptionValue::Text(text.to_string()),
        Wire::Integer => {
            let digits = if spec.kind == OptionKind::Game {
                t.trim_start_matches('#')
            } else {
                t
            };
            match digits.parse::<i64>() {
                Ok(n) => OptionValue::Integer(n),
                // Digits, but more than any transport carries.
                Err(_) if digits.parse::<i128>().is_ok() => return Err(spec.kind.out_of_range(name, t)),
                Err(_) if spec.kind == OptionKind::Game => {
                    return Err(format!("`{name}:{t}` is not a game number (like `{name}:3`)."))
                }
                Err(_) => return Err(format!("`{name}:{t}` is not a whole number.")),
            }
        }
        Wire::Boolean => match t.to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" => OptionValue::Boolean(true),
            "false" | "off" | "no" => OptionValue::Boolean(false),
            _ => return Err(format!("`{name}:` is `true` or `false`, not `{t}`.")),
        },
        Wire::User => {
            let who = t.trim_start_matches('@');
            if who.is_empty() {
                return Err(format!("`{name}:` needs a name, like `{name}:@dave`."));
            }
            OptionValue::User {
                id: user(who),
                name: who.to_string(),
            }
        }
    })
}

/// A subcommand's option values, checked against its options: each known,
/// given once, of its wire type, one of its choices, within its bounds,
/// and the required ones present. The getters read them by name.
pub struct Args<'a> {
    values: Vec<(&'static OptionSpec, &'a OptionValue)>,
}

impl<'a> Args<'a> {
    fn check(cmd: &Subcommand, given: &'a [(String, OptionValue)]) -> Result<Args<'a>, String> {
        let mut values: Vec<(&'static OptionSpec, &'a OptionValue)> = Vec::new();
        for (name, value) in given {
            let Some(spec) = cmd.option(name) else {
                let game_option = cmd.options.iter().any(|o| o.kind == OptionKind::GameOptions)
                    && GameKind::ALL.iter().any(|k| k.options().iter().any(|o| o.key == name));
                if game_option {
                    return Err(format!(
                        "`{name}` is a game option: give it in `options:`, like `options:\"{name}:{}\"`.",
                        value.shown()
                    ));
                }
                return Err(format!("`{}` has no option `{name}`. {}", cmd.path(), cmd.usage()));
            };
            if values.iter().any(|(s, _)| s.name == spec.name) {
                return Err(format!("`{name}` is given twice; give it once."));
            }
            let kind = spec.kind;
            if !kind.accepts(value.wire()) {
                return Err(format!(
                    "`{name}:{}` is not the right kind of value; write it like {}.",
                    value.shown(),
                    kind.example(name)
                ));
            }
            let choices = kind.choices();
            if let OptionValue::Text(t) = value {
                if !choices.is_empty() && !choices.iter().any(|c| c.eq_ignore_ascii_case(t.trim())) {
                    return Err(format!("`{name}:{t}` is not one of {}.", choices.join(", ")));
                }
            }
            if let (OptionValue::Integer(n), Some((lo, hi))) = (value, kind.bounds()) {
                if !(lo..=hi).contains(n) {
                    return Err(kind.out_of_range(name, &n.to_string()));
                }
            }
            values.push((spec, value));
        }
        for spec in cmd.options.iter().filter(|o| o.required) {
            if !values.iter().any(|(s, _)| s.name == spec.name) {
                return Err(format!(
                    "`{}` needs `{}:`, e.g. {}. {}",
                    cmd.path(),
                    spec.name,
                    spec.kind.example(spec.name),
                    cmd.usage()
                ));
            }
        }
        Ok(Args { values })
    }

    fn get(&self, name: &str) -> Option<&'a OptionValue> {
        self.values.iter().find(|(s, _)| s.name == name).map(|(_, v)| *v)
    }

    fn text(&self, name: &str) -> Option<&'a str> {
        match self.get(name) {
            Some(OptionValue::Text(t)) => Some(t.as_str()),
            _ => None,
        }
    }

    /// A checked integer (within its option's bounds).
    fn integer(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(OptionValue::Integer(n)) => Some(*n),
            _ => None,
        }
    }

    fn flag(&self, name: &str) -> Option<bool> {
        match self.get(name) {
            Some(OptionValue::Boolean(b)) => Some(*b),
            _ => None,
        }
    }

    fn user(&self, name: &str) -> Option<(UserId, String)> {
        match self.get(name) {
            Some(OptionValue::User { id, name }) => Some((*id, name.clone())),
            _ => None,
        }
    }

    /// The `game` option: a game number.
    fn game(&self) -> Option<GameId> {
        self.integer(GAME_OPTION.name).map(GameId)
    }

    /// A game system named by its key (checked to be one).
    fn system(&self, name: &str) -> Option<GameKind> {
        self.text(name)
            .and_then(|k| GameKind::from_key(&k.trim().to_ascii_lowercase()))
    }

    /// The `seat` option: a number (1-based, as players count), a name, or a person.
    fn seat(&self) -> Result<SeatRef, String> {
        match self.get("seat") {
            Some(OptionValue::User { id, .. }) => Ok(SeatRef::User(*id)),
            Some(OptionValue::Text(t)) => parse_seat(t),
            _ => Err("`seat` is missing.".into()),
        }
    }

    /// A text option read by `parse`; its error says which option it is
    /// about (a list such as `24h,2h` is refused for one of its parts,
    /// which may be empty).
    fn read<T>(&self, name: &str, parse: impl Fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
        self.text(name)
            .map(|t| parse(t).map_err(|e| format!("`{name}:{}`: {e}", t.trim())))
            .transpose()
    }

    fn duration(&self, name: &str) -> Result<Option<i64>, String> {
        self.read(name, parse_duration)
    }

    fn points(&self, name: &str) -> Result<Option<Vec<i64>>, String> {
        self.read(name, parse_points)
    }
}

/// A seat as written: its number (1 is the first seat), or a player's
/// name (a leading `@` is dropped).
pub fn parse_seat(text: &str) -> Result<SeatRef, String> {
    let t = text.trim();
    let who = t.trim_start_matches('@').trim();
    if who.is_empty() {
        return Err("`seat:` needs a player's name or a seat number, like `seat:alice` or `seat:2`.".into());
    }
    if who.chars().all(|c| c.is_ascii_digit() || c == '-') && who.chars().any(|c| c.is_ascii_digit()) {
        return match who.parse::<u64>() {
            Ok(n) if (1..=256).contains(&n) => {
                Ok(SeatRef::Number(Seat((n - 1) as u8)))
            }
            _ => Err(format!(
                "`seat:{who}` is not a seat number: seats are numbered from 1 (the first seat) up, as /game status lists them."
            )),
        };
    }
    Ok(SeatRef::Name(who.to_string()))
}

/// A required option the check let through (so always present).
fn required<T>(value: Option<T>, name: &str) -> Result<T, String> {
    value.ok_or_else(|| format!("`{name}` is missing."))
}

/// Reminder points: `24h,2h`, or `off` / `none` for none.
pub fn parse_points(text: &str) -> Result<Vec<i64>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("off") || t.eq_ignore_ascii_case("none") {
        return Ok(vec![]);
    }
    t.split(',').map(parse_duration).collect()
}

/// An order given with `kind`'s command (`/starlanes …`) must be for a
/// game of that kind; else say which game `row` is and what its orders are.
pub(super) fn check_order_kind(row: &GameRow, kind: Option<GameKind>, in_dm: bool) -> Result<(), ServiceError> {
    match kind {
        Some(kind) if kind != row.kind => {
            let game = row.kind;
            let here = if in_dm {
                format!("Game {} is a game of {}", row.id, game.name())
            } else {
                format!("This channel plays {} (game {})", game.name(), row.id)
            };
            Err(ServiceError::User(
                format!(
                    "{here}; its orders are `/{} …`, not `/{} …` (see /game rules).",
                    game.key(),
                    kind.key()
                )
                .into(),
            ))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_engine::GameConfig;
    use orrery_store::GameStatus;

    fn text(pairs: &[(&str, &str)]) -> Vec<(String, OptionValue)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OptionValue::Text(v.to_string())))
            .collect()
    }

    fn int(name: &str, n: i64) -> (String, OptionValue) {
        (name.to_string(), OptionValue::Integer(n))
    }

    fn parse_game(sub: &str, given: &[(String, OptionValue)]) -> Result<Request, String> {
        parse_command(Top::Game, sub, given)
    }

    fn parse_host(sub: &str, given: &[(String, OptionValue)]) -> Result<Request, String> {
        parse_command(Top::Host, sub, given)
    }

    #[test]
    fn the_table_is_well_formed() {
        for top in Top::ALL {
            let mut names: Vec<&str> = subcommands(top).map(|s| s.name).collect();
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "subcommand names of /{} are unique", top.name());
            assert!(count >= 1, "/{} has subcommands", top.name());
        }
        assert!(SUBCOMMANDS.iter().all(|s| s.top.is_some()));
        for sub in SUBCOMMANDS.iter().chain([&MYGAMES]) {
            let required: Vec<bool> = sub.options.iter().map(|o| o.required).collect();
            assert!(
                required.windows(2).all(|w| w[0] || !w[1]),
                "{}: required options first",
                sub.name
            );
            for o in sub.options {
                assert_eq!(
                    sub.options.iter().filter(|p| p.name == o.name).count(),
                    1,
                    "{}",
                    sub.name
                );
                assert!(!o.description.is_empty(), "{} {}", sub.name, o.name);
                assert_eq!(
                    o.kind.bounds().is_some(),
                    o.kind.wire() == Wire::Integer,
                    "{:?}",
                    o.kind
                );
            }
            assert!(!sub.description.is_empty(), "{}", sub.name);
            // Every subcommand parses with just its required options.
            let minimal: Vec<(String, OptionValue)> = sub
                .options
                .iter()
                .filter(|o| o.required)
                .map(|o| (o.name.to_string(), sample(o.kind)))
                .collect();
            sub.parse(&minimal).unwrap_or_else(|e| panic!("{}: {e}", sub.name));
        }
    }

    fn sample(kind: OptionKind) -> OptionValue {
        match kind.wire() {
            Wire::Integer => OptionValue::Integer(kind.bounds().unwrap().0.max(1)),
            Wire::Text if kind == OptionKind::Seat => OptionValue::Text("2".into()),
            Wire::Boolean => OptionValue::Boolean(true),
            Wire::User => OptionValue::User {
                id: UserId(9),
                name: "dave".into(),
            },
            Wire::Text => OptionValue::Text(match kind {
                OptionKind::Duration => "12h".into(),
                other => other.choices().first().map_or("x".into(), |c| c.to_string()),
            }),
        }
    }

    #[test]
    fn parses_typed_options() {
        assert_eq!(
            parse_game("join", &[int("game", 4)]).unwrap(),
            Request::Join { game: Some(GameId(4)) }
        );
        assert_eq!(
            parse_game("new", &text(&[("game", "hyperspace")])).unwrap(),
            Request::New {
                kind: GameKind::Hyperspace,
                seed: None,
                options: None,
                private: None
            }
        );
        assert_eq!(
            parse_game("new", &text(&[("game", "spectrum"), ("private", "thread")])).unwrap(),
            Request::New {
                kind: GameKind::Spectrum,
                seed: None,
                options: None,
                private: Some(orrery_store::PrivateTo::Thread)
            }
        );
        let e = parse_game("new", &text(&[("game", "spectrum"), ("private", "email")])).unwrap_err();
        assert!(e.contains("`private:email` is not one of dms, thread"), "{e}");
        assert_eq!(
            parse_game("rules", &text(&[("system", "starlanes")])).unwrap(),
            Request::Rules {
                kind: Some(GameKind::Starlanes),
                game: None,
                section: None
            }
        );
        assert_eq!(
            parse_game("rules", &text(&[("system", "starlanes"), ("section", " Combat ")])).unwrap(),
            Request::Rules {
                kind: Some(GameKind::Starlanes),
                game: None,
                section: Some("Combat".into())
            }
        );
        assert_eq!(parse_game("takeback", &[]).unwrap(), Request::TakeBack { game: None });
        assert_eq!(
            parse_game("prompt", &[int("game", 2)]).unwrap(),
            Request::Prompt { game: Some(GameId(2)) }
        );
        assert_eq!(
            parse_host(
                "replace",
                &[
                    ("seat".into(), OptionValue::Text("2".into())),
                    (
                        "player".into(),
                        OptionValue::User {
                            id: UserId(7),
                            name: "dave".into()
                        }
                    )
                ]
            )
            .unwrap(),
            Request::Replace {
                game: None,
                seat: SeatRef::Number(Seat(1)),
                user: UserId(7),
                name: "dave".into()
            }
        );
        // A seat by name, by `@name`, or by the person (a transport's mention).
        for (value, want) in [
            (OptionValue::Text("alice".into()), SeatRef::Name("alice".into())),
            (OptionValue::Text(" @Bob ".into()), SeatRef::Name("Bob".into())),
            (
                OptionValue::User {
                    id: UserId(42),
                    name: "42".into(),
                },
                SeatRef::User(UserId(42)),
            ),
        ] {
            assert_eq!(
                parse_host("kick", &[("seat".into(), value)]).unwrap(),
                Request::Kick { game: None, seat: want }
            );
        }
        // Anyone may read the settings under /game; changing them is /host's.
        assert_eq!(
            parse_game("settings", &[]).unwrap(),
            Request::Settings {
                game: None,
                change: SettingsChange::default()
            }
        );
        assert!(parse_game("settings", &text(&[("deadline", "2d")]))
            .unwrap_err()
            .contains("has no option `deadline`"));
        match parse_host(
            "settings",
            &text(&[("deadline", "2d"), ("missed", "wait"), ("reminders", "off")]),
        )
        .unwrap()
        {
            Request::Settings { game: None, change } => {
                assert_eq!(change.deadline_ms, Some(2 * 24 * 3_600_000));
                assert_eq!(change.on_missed, Some(Missed::Wait));
                assert_eq!(change.reminders_ms, Some(vec![]));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse_command(Top::Sheet, "ready", &[]).unwrap(),
            Request::Ready { game: None }
        );
        assert_eq!(MYGAMES.parse(&[]).unwrap(), Request::MyGames);
    }

    #[test]
    fn refusals_say_what_was_wrong_and_what_is_legal() {
        let e = parse_game("join", &text(&[("flavour", "red")])).unwrap_err();
        assert!(e.contains("has no option `flavour`") && e.contains("`game`"), "{e}");
        assert_eq!(
            parse_game("join", &text(&[("colour", "red")])).unwrap(),
            Request::Pick {
                game: None,
                value: "red".into()
            }
        );
        let e = MYGAMES.parse(&text(&[("game", "3")])).unwrap_err();
        assert!(e.contains("/mygames") && e.contains("takes no options"), "{e}");
        let e = parse_game("teleport", &[]).unwrap_err();
        assert!(e.contains("/game teleport") && e.contains("join"), "{e}");
        let e = parse_host("extend", &[]).unwrap_err();
        assert!(e.contains("needs `by:`") && e.contains("by:12h"), "{e}");
        // A host tool asked of /game says where it moved.
        let e = parse_game("pause", &[]).unwrap_err();
        assert!(
            e.contains("There is no `/game pause`") && e.contains("`/host pause`"),
            "{e}"
        );
        let e = parse_host("join", &[]).unwrap_err();
        assert!(e.contains("`/game join`"), "{e}");
        let e = parse_host("rollback", &[]).unwrap_err();
        assert!(e.contains("needs `phase:`"), "{e}");
        let e = parse_game("new", &text(&[("game", "chess")])).unwrap_err();
        assert!(
            e.contains("`game:chess` is not one of") && e.contains("hyperspace"),
            "{e}"
        );
        // Game options are read for the chosen game; one it does not read is refused, naming its options.
        let e = parse_game("new", &text(&[("game", "hyperspace"), ("options", "map:random")])).unwrap_err();
        assert!(
            e.contains("`map:` is an option of Starlanes, not of Hyperspace") && e.contains("`rounds` (1 to 200"),
            "{e}"
        );
        let e = parse_game("new", &text(&[("game", "hyperspace"), ("options", "rounds:300")])).unwrap_err();
        assert!(e.contains("out of range for Hyperspace: from 1 to 200"), "{e}");
        // A game option given as an option of its own says where it goes.
        let e = parse_game(
            "new",
            &[
                ("game".into(), OptionValue::Text("hyperspace".into())),
                int("rounds", 30),
            ],
        )
        .unwrap_err();
        assert!(
            e.contains("give it in `options:`") && e.contains("options:\"rounds:30\""),
            "{e}"
        );
        let e = parse_game("new", &text(&[("game", "starlanes"), ("options", "map:spiral")])).unwrap_err();
        assert!(e.contains("`map:spiral` is not one of fixed, random"), "{e}");
        let e = parse_host("kick", &text(&[("seat", "0")])).unwrap_err();
        assert!(e.contains("not a seat number") && e.contains("from 1"), "{e}");
        let e = parse_host("kick", &text(&[("seat", "300")])).unwrap_err();
        assert!(e.contains("not a seat number"), "{e}");
        let e = parse_game("history", &[int("phase", -1)]).unwrap_err();
        assert!(e.contains("out of range") && e.contains("from 0"), "{e}");
        let e = parse_game(
            "new",
            &[("game".into(), OptionValue::Text("hyperspace".into())), int("seed", -5)],
        )
        .unwrap_err();
        assert!(e.contains("out of range") && e.contains("from 0 up"), "{e}");
        let e = parse_game("join", &[int("game", 1), int("game", 2)]).unwrap_err();
        assert!(e.contains("twice"), "{e}");
        let e = parse_host("kick", &[int("seat", 2)]).unwrap_err();
        assert!(
            e.contains("seat:2") && e.contains("seat:alice"),
            "a value of the wrong type shows how to write it: {e}"
        );
        let e = parse_host("extend", &text(&[("by", "soon")])).unwrap_err();
        assert!(e.contains("not a duration"), "{e}");
        // A list refused for one part (maybe an empty one) names its option
        // (found by fuzzing: "`` is not a duration").
        let e = parse_game("reminders", &text(&[("points", "")])).unwrap_err();
        assert!(e.starts_with("`points:`: ") && e.contains("not a duration"), "{e}");
        let e = parse_host("settings", &text(&[("reminders", "24hx,2h")])).unwrap_err();
        assert!(
            e.contains("`reminders:24hx,2h`") && e.contains("`24hx` is not a duration"),
            "{e}"
        );
        let e = parse_host("settings", &text(&[("decision_deadlines", "turn=b")])).unwrap_err();
        assert!(e.contains("`decision_deadlines:turn=b`"), "{e}");
    }

    /// `/game new … options:` reads each game's declared options (every
    /// value a game accepts is read, the values just outside are refused
    /// with its range), and offers them as the host types.
    #[test]
    fn game_options_are_read_from_each_games_declarations() {
        use orrery_engine::OptionValues;
        for &kind in GameKind::ALL {
            for o in kind.options().iter().filter(|o| o.offered()) {
                let read = |v: &str| read_game_options(kind, &format!("{}:{v}", o.key));
                let setup = |options: serde_json::Value| {
                    let mut c = GameConfig::new(*kind.player_counts().start(), 1);
                    c.options = options;
                    kind.setup(&c).is_ok()
                };
                match o.values {
                    OptionValues::Whole { min, max, default } => {
                        for n in [min, max, default] {
                            let options = read(&n.to_string()).unwrap().unwrap();
                            assert!(setup(options), "{kind:?} {}:{n}", o.key);
                        }
                        let e = read(&(max + 1).to_string()).unwrap_err();
                        assert!(e.contains(&format!("from {min} to {max}")), "{e}");
                        assert!(read(&(min - 1).to_string()).is_err());
                    }
                    OptionValues::Words { words, .. } => {
                        for w in words {
                            assert!(read(&w.to_uppercase()).is_ok(), "{kind:?} {}:{w}", o.key);
                        }
                        assert!(read("nonsense").unwrap_err().contains(words[0]));
                    }
                    OptionValues::Flag { .. } => {
                        assert!(read("true").is_ok() && read("off").is_ok() && read("maybe").is_err());
                    }
                    OptionValues::Reserved => {}
                }
                // Offered as the host types: the key with its default, then its values.
                let keys = game_option_suggestions(kind, "");
                assert!(
                    keys.iter().any(|(_, v)| v.starts_with(&format!("{}:", o.key))),
                    "{keys:?}"
                );
                let values = game_option_suggestions(kind, &format!("{}:", o.key));
                assert!(!values.is_empty(), "{kind:?} {}", o.key);
                for (_, v) in values {
                    assert!(
                        read_game_options(kind, &v).is_ok(),
                        "{kind:?}: `{v}` is offered but refused"
                    );
                }
            }
        }
        assert_eq!(
            parse_game(
                "new",
                &text(&[("game", "starlanes"), ("options", "rounds:12 map:Random")])
                    .into_iter()
                    .chain([int("seed", 7)])
                    .collect::<Vec<_>>()
            )
            .unwrap(),
            Request::New {
                kind: GameKind::Starlanes,
                seed: Some(7),
                options: Some(serde_json::json!({"rounds": 12, "map": "random"})),
                private: None
            }
        );
        let e = read_game_options(GameKind::Hyperspace, "map:random").unwrap_err();
        assert!(e.contains("`map:` is an option of Starlanes, not of Hyperspace"), "{e}");
        assert!(
            e.contains("Hyperspace's options are `rounds` (1 to 200, default 25)"),
            "{e}"
        );
        let e = read_game_options(GameKind::Empires, "machines:7").unwrap_err();
        assert!(e.contains("machines") && e.contains("1 to 3"), "{e}");
        assert!(read_game_options(GameKind::Starlanes, "rounds:3 rounds:4")
            .unwrap_err()
            .contains("twice"));
        assert_eq!(read_game_options(GameKind::Starlanes, "  ").unwrap(), None);
        // Options already given are not offered again; the text so far is kept.
        let next = game_option_suggestions(GameKind::Starlanes, "rounds:12 ");
        assert!(next.iter().all(|(_, v)| v.starts_with("rounds:12 map:")), "{next:?}");
        assert!(OptionKind::Seed.dev_only() && !OptionKind::GameOptions.dev_only());
    }

    /// Phases past what a transport's 32-bit field held reach the service,
    /// which answers with the game's own range.
    #[test]
    fn large_phases_are_carried_for_the_service_to_range() {
        assert_eq!(
            parse_game("history", &[int("phase", 99_999_999_999)]).unwrap(),
            Request::History {
                game: None,
                phase: Some(99_999_999_999)
            }
        );
        assert_eq!(
            parse_host("rollback", &[int("phase", 99_999_999_999)]).unwrap(),
            Request::Rollback {
                game: None,
                phase: 99_999_999_999
            }
        );
    }

    #[test]
    fn text_is_typed_by_the_table() {
        let user = |name: &str| UserId(name.len() as u64);
        let replace = subcommand(Top::Host, "replace").unwrap();
        let args = vec![
            ("seat".to_string(), "2".to_string()),
            ("player".to_string(), "@dave".to_string()),
            ("game".to_string(), "#3".to_string()),
        ];
        assert_eq!(
            read_text(replace, &args, &user).unwrap(),
            vec![
                ("seat".into(), OptionValue::Text("2".into())),
                (
                    "player".into(),
                    OptionValue::User {
                        id: UserId(4),
                        name: "dave".into()
                    }
                ),
                int("game", 3)
            ]
        );
        let history = subcommand(Top::Game, "history").unwrap();
        let read = |k: &str, v: &str| read_text(history, &[(k.to_string(), v.to_string())], &user);
        assert!(read("phase", "x").unwrap_err().contains("not a whole number"));
        let e = read("phase", "99999999999999999999999").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        assert!(read("game", "hyperspace").unwrap_err().contains("not a game number"));
        // Unknown options pass through for the parser to refuse.
        assert_eq!(
            read("colour", "red").unwrap(),
            vec![("colour".to_string(), OptionValue::Text("red".into()))]
        );
        let reminders = subcommand(Top::Game, "reminders").unwrap();
        let e = read_text(reminders, &[("mute".into(), "maybe".into())], &user).unwrap_err();
        assert!(e.contains("`true` or `false`"), "{e}");
        let e = read_text(replace, &[("player".into(), "@".into())], &user).unwrap_err();
        assert!(e.contains("player:@dave"), "{e}");
    }

    fn row(kind: GameKind) -> GameRow {
        GameRow {
            id: GameId(3),
            kind,
            channel_id: 10,
            guild_id: Some(1),
            host: UserId(1),
            status: GameStatus::Active,
            config: GameConfig::new(2, 1),
            state: None,
            seq: 0,
            created_at: 0,
            updated_at: 0,
            settings: serde_json::json!({}),
            deadline: None,
            damaged: None,
        }
    }

    #[test]
    fn an_order_for_another_game_names_this_game_and_its_command() {
        let hyperspace = row(GameKind::Hyperspace);
        assert!(check_order_kind(&hyperspace, None, false).is_ok());
        assert!(check_order_kind(&hyperspace, Some(GameKind::Hyperspace), false).is_ok());
        let e = check_order_kind(&hyperspace, Some(GameKind::Starlanes), false)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("This channel plays Hyperspace (game #3); its orders are `/hyperspace …`"),
            "{e}"
        );
        let e = check_order_kind(&hyperspace, Some(GameKind::Starlanes), true)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("Game #3 is a game of Hyperspace"), "{e}");
    }

    #[test]
    fn host_bot_seats_one_in_the_lobby_or_takes_a_seat_in_play() {
        assert_eq!(
            parse_host("bot", &[]).unwrap(),
            Request::AddBot {
                game: None,
                level: BotLevel::Normal
            }
        );
        assert_eq!(
            parse_host("bot", &text(&[("level", "Hard")])).unwrap(),
            Request::AddBot {
                game: None,
                level: BotLevel::Hard
            }
        );
        assert_eq!(
            parse_host(
                "bot",
                &[("seat".into(), OptionValue::Text("alice".into())), int("game", 4)]
            )
            .unwrap(),
            Request::ReplaceBot {
                game: Some(GameId(4)),
                seat: SeatRef::Name("alice".into()),
                level: BotLevel::Normal
            }
        );
        assert_eq!(
            parse_host("bot", &text(&[("seat", "2"), ("level", "easy")])).unwrap(),
            Request::ReplaceBot {
                game: None,
                seat: SeatRef::Number(Seat(1)),
                level: BotLevel::Easy
            }
        );
        let e = parse_host("bot", &text(&[("level", "medium")])).unwrap_err();
        assert!(e.contains("`level:medium` is not one of easy, normal, hard"), "{e}");
    }
}
