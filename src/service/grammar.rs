//! The grammar of `/game …` and `/mygames`, for every transport.
//!
//! One table ([`GAME_SUBCOMMANDS`], [`MYGAMES`]) says which subcommands
//! exist and which options each takes (name, meaning, required or not,
//! description); one parser ([`parse_game`]) turns a subcommand and its
//! typed option values into a [`Request`]. Discord registers its `/game`
//! command from the table and feeds an interaction's options to the
//! parser; the terminal reads `/game settings deadline:24h` into the same
//! option values ([`read_text`]) and calls the same parser. Neither
//! transport knows what an option means.
//!
//! Two kinds of error, both for the asker: a value a transport could not
//! type (`phase:x`, from the terminal), and a value or a combination the
//! parser refuses (`seat:0`, an unknown option, a missing one); each says
//! what was wrong and what would be legal. Whether a value fits the game
//! (a phase it reached, a seat it has) is the service's to check.

use super::{parse_duration, parse_kind_deadlines, parse_time_of_day, Missed, Request, ServiceError, SettingsChange};
use crate::engine::{GameId, Seat, UserId};
use crate::games::GameKind;
use crate::store::GameRow;

/// The name of the command the subcommands of [`GAME_SUBCOMMANDS`] belong to.
pub const GAME: &str = "game";
/// What `/game` is for.
pub const GAME_DESCRIPTION: &str = "Host, join and look at games.";

/// The largest whole number a transport may carry exactly (Discord sends
/// integers through a JSON double): 2^53 - 1.
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

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
    /// A seat number as players see it: 1 is the first seat.
    Seat,
    /// A phase number (0 is the set-up). Whether the game reached it is
    /// for the service to say, with the game's range.
    Phase,
    /// A random seed.
    Seed,
    /// Game options as a JSON object.
    Json,
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
    /// `true` or `false`.
    Flag,
    /// A person.
    Player,
}

/// Where an option's suggestions come from, for transports that offer them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complete {
    /// The games the asker may name (their own in DMs, the channel's in a channel).
    Game,
}

impl OptionKind {
    pub fn wire(self) -> Wire {
        match self {
            OptionKind::Game | OptionKind::Seat | OptionKind::Phase | OptionKind::Seed => Wire::Integer,
            OptionKind::Flag => Wire::Boolean,
            OptionKind::Player => Wire::User,
            OptionKind::System
            | OptionKind::Json
            | OptionKind::Duration
            | OptionKind::Points
            | OptionKind::KindDeadlines
            | OptionKind::TimeOfDay
            | OptionKind::Missed => Wire::Text,
        }
    }

    /// The fixed words the option is one of (empty: any value of its wire type).
    pub fn choices(self) -> Vec<&'static str> {
        match self {
            OptionKind::System => GameKind::ALL.iter().map(|k| k.key()).collect(),
            OptionKind::Missed => [Missed::Default, Missed::Wait].iter().map(|m| m.as_str()).collect(),
            _ => vec![],
        }
    }

    /// The whole numbers the option accepts (integer options only).
    pub fn bounds(self) -> Option<(i64, i64)> {
        match self {
            OptionKind::Game => Some((-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)),
            OptionKind::Seat => Some((1, i64::from(u8::MAX))),
            OptionKind::Phase | OptionKind::Seed => Some((0, MAX_SAFE_INTEGER)),
            _ => None,
        }
    }

    pub fn autocomplete(self) -> Option<Complete> {
        match self {
            OptionKind::Game => Some(Complete::Game),
            _ => None,
        }
    }

    /// How to write a value, for messages: `by:12h`.
    fn example(self, name: &str) -> String {
        match self {
            OptionKind::Game => format!("`{name}:3`"),
            OptionKind::System | OptionKind::Missed => {
                let words: Vec<String> = self.choices().iter().map(|c| format!("`{name}:{c}`")).collect();
                words.join(" or ")
            }
            OptionKind::Seat => format!("`{name}:1` (1 = the first seat)"),
            OptionKind::Phase => format!("`{name}:2`"),
            OptionKind::Seed => format!("`{name}:42`"),
            OptionKind::Json => format!("`{name}:{{\"rounds\":15}}`"),
            OptionKind::Duration => format!("`{name}:12h`"),
            OptionKind::Points => format!("`{name}:24h,2h` or `{name}:off`"),
            OptionKind::KindDeadlines => format!("`{name}:combat-card=2h,losses=12h`"),
            OptionKind::TimeOfDay => format!("`{name}:18:00` or `{name}:18:00+02:00`"),
            OptionKind::Flag => format!("`{name}:true` or `{name}:false`"),
            OptionKind::Player => format!("`{name}:@name`"),
        }
    }

    /// Why a whole number (`shown` as it was written) is refused.
    fn out_of_range(self, name: &str, shown: &str) -> String {
        match self {
            OptionKind::Seat => format!(
                "`{name}:{shown}` is not a seat number: seats are numbered from 1 (the first seat) up, as /game status lists them."
            ),
            OptionKind::Phase => format!(
                "`{name}:{shown}` is out of range: phases go from 0 (the set-up) to the game's current phase (see /game status)."
            ),
            OptionKind::Game => format!("`{name}:{shown}` is not a game number; /mygames lists yours."),
            _ => {
                let (lo, hi) = self.bounds().unwrap_or((i64::MIN, i64::MAX));
                format!("`{name}:{shown}` is out of range: it is a whole number from {lo} to {hi}.")
            }
        }
    }
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
/// its options in the order transports show them (required ones first),
/// and how its checked values become a request.
#[derive(Clone, Copy)]
pub struct Subcommand {
    pub name: &'static str,
    pub description: &'static str,
    pub options: &'static [OptionSpec],
    build: fn(&Args<'_>) -> Result<Request, String>,
}

impl std::fmt::Debug for Subcommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subcommand")
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

    fn path(&self) -> String {
        if self.name == MYGAMES.name {
            format!("/{}", self.name)
        } else {
            format!("/{GAME} {}", self.name)
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

/// A subcommand whose only option is `game`.
const fn game_only(
    name: &'static str,
    description: &'static str,
    build: fn(&Args<'_>) -> Result<Request, String>,
) -> Subcommand {
    Subcommand {
        name,
        description,
        options: &[GAME_OPTION],
        build,
    }
}

/// `/game …`, in the order Discord lists them.
pub const GAME_SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
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
                name: "seed",
                description: "Random seed, to replay a set-up exactly",
                kind: OptionKind::Seed,
                required: false,
            },
            OptionSpec {
                name: "options",
                description: "Game options as JSON, e.g. {\"rounds\":15}",
                kind: OptionKind::Json,
                required: false,
            },
        ],
        build: |a| {
            Ok(Request::New {
                kind: required(a.system("game"), "game")?,
                seed: a.integer("seed").map(|n| n as u64),
                options: a.json("options")?,
            })
        },
    },
    game_only("join", "Take a seat in the game waiting in this channel.", |a| {
        Ok(Request::Join { game: a.game() })
    }),
    game_only(
        "leave",
        "Give up your seat before the game starts (the host leaving closes it).",
        |a| Ok(Request::Leave { game: a.game() }),
    ),
    game_only("start", "Start the game you host, with the players seated now.", |a| {
        Ok(Request::Start { game: a.game() })
    }),
    game_only("status", "Players, phase, and whom the game is waiting on.", |a| {
        Ok(Request::Status { game: a.game() })
    }),
    game_only(
        "board",
        "The current board (in DMs: your own view, with your secrets).",
        |a| Ok(Request::Board { game: a.game() }),
    ),
    Subcommand {
        name: "rules",
        description: "The rules summary and the orders of a game.",
        options: &[
            GAME_OPTION,
            OptionSpec {
                name: "system",
                description: "A game system, to read its rules without a game",
                kind: OptionKind::System,
                required: false,
            },
        ],
        build: |a| {
            Ok(Request::Rules {
                kind: a.system("system"),
                game: a.game(),
            })
        },
    },
    Subcommand {
        name: "history",
        description: "The board as it was after an earlier phase.",
        options: &[
            GAME_OPTION,
            OptionSpec {
                name: "phase",
                description: "Phase number (default: the current one)",
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
    Subcommand {
        name: "settings",
        description: "Show the game's deadline settings, or (host) change them.",
        options: &[
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
                description: "Off: secret choices are drafts until everyone is /game ready",
                kind: OptionKind::Flag,
                required: false,
            },
        ],
        build: |a| {
            Ok(Request::Settings {
                game: a.game(),
                change: SettingsChange {
                    deadline_ms: a.duration("deadline")?,
                    reminders_ms: a.points("reminders")?,
                    on_missed: a.text("missed").and_then(Missed::from_key),
                    deadline_by_kind: a
                        .text("decision_deadlines")
                        .map(parse_kind_deadlines)
                        .transpose()?
                        .unwrap_or_default(),
                    time_of_day: a.text("time_of_day").map(parse_time_of_day).transpose()?,
                    auto_resolve: a.flag("auto_resolve"),
                },
            })
        },
    },
    game_only("pause", "Host: stop the deadline clock.", |a| {
        Ok(Request::Pause { game: a.game() })
    }),
    game_only(
        "resume",
        "Host: restart the deadline clock with the time that was left.",
        |a| Ok(Request::Resume { game: a.game() }),
    ),
    Subcommand {
        name: "extend",
        description: "Host: give the current phase more time.",
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
        "force",
        "Host: resolve the current phase now, applying defaults for missing orders.",
        |a| Ok(Request::Force { game: a.game() }),
    ),
    Subcommand {
        name: "replace",
        description: "Host: give a seat to another player (they get its private view by DM).",
        options: &[
            seat_option("Seat number (1 = first seat), as /game status lists them"),
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
        name: "kick",
        description: "Host: remove a player; in play their seat stays, in civil disorder, until replaced.",
        options: &[seat_option("Seat number (1 = first seat)"), GAME_OPTION],
        build: |a| {
            Ok(Request::Kick {
                game: a.game(),
                seat: a.seat()?,
            })
        },
    },
    Subcommand {
        name: "disorder",
        description: "Host: civil disorder for a seat (its defaults are played every phase), on or off.",
        options: &[
            seat_option("Seat number (1 = first seat)"),
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
    game_only(
        "undo",
        "Host: undo the last action (announced; the log keeps it).",
        |a| Ok(Request::Undo { game: a.game() }),
    ),
    Subcommand {
        name: "rollback",
        description: "Host: roll the game back to the start of a phase (announced; the log keeps everything).",
        options: &[
            OptionSpec {
                name: "phase",
                description: "Phase number to go back to the start of",
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
    game_only(
        "watch",
        "Follow a game: its public board after every phase, by DM.",
        |a| Ok(Request::Watch { game: a.game() }),
    ),
    game_only("unwatch", "Stop following a game.", |a| {
        Ok(Request::Unwatch { game: a.game() })
    }),
    game_only(
        "log",
        "What has happened in the current phase, in sentences (public).",
        |a| Ok(Request::Log { game: a.game() }),
    ),
    Subcommand {
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
        "ready",
        "Mark your draft final (when the host turned auto-resolve off).",
        |a| Ok(Request::Ready { game: a.game() }),
    ),
];

/// `/mygames`: a command of its own, without options.
pub const MYGAMES: Subcommand = Subcommand {
    name: "mygames",
    description: "Your open games: what each waits on (and whether on you), and the deadline.",
    options: &[],
    build: |_| Ok(Request::MyGames),
};

/// The `/game` subcommand called `name`.
pub fn game_subcommand(name: &str) -> Option<&'static Subcommand> {
    GAME_SUBCOMMANDS.iter().find(|s| s.name == name)
}

/// Parse `/game <sub>` with these option values.
pub fn parse_game(sub: &str, given: &[(String, OptionValue)]) -> Result<Request, String> {
    let Some(cmd) = game_subcommand(sub) else {
        let names: Vec<&str> = GAME_SUBCOMMANDS.iter().map(|s| s.name).collect();
        return Err(format!("There is no `/{GAME} {sub}`; try {}.", names.join(", ")));
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
                return Err(format!("`{}` has no option `{name}`. {}", cmd.path(), cmd.usage()));
            };
            if values.iter().any(|(s, _)| s.name == spec.name) {
                return Err(format!("`{name}` is given twice; give it once."));
            }
            let kind = spec.kind;
            if value.wire() != kind.wire() {
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

    /// The `seat` option, 1-based as players count, as a [`Seat`].
    fn seat(&self) -> Result<Seat, String> {
        let n = required(self.integer("seat"), "seat")?;
        // Within 1..=255 by its bounds.
        Ok(Seat((n - 1) as u8))
    }

    fn duration(&self, name: &str) -> Result<Option<i64>, String> {
        self.text(name).map(parse_duration).transpose()
    }

    fn points(&self, name: &str) -> Result<Option<Vec<i64>>, String> {
        self.text(name).map(parse_points).transpose()
    }

    fn json(&self, name: &str) -> Result<Option<serde_json::Value>, String> {
        self.text(name)
            .map(|t| serde_json::from_str(t).map_err(|e| format!("`{name}` is not valid JSON: {e}")))
            .transpose()
    }
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
    use crate::engine::GameConfig;
    use crate::store::GameStatus;

    fn text(pairs: &[(&str, &str)]) -> Vec<(String, OptionValue)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OptionValue::Text(v.to_string())))
            .collect()
    }

    fn int(name: &str, n: i64) -> (String, OptionValue) {
        (name.to_string(), OptionValue::Integer(n))
    }

    #[test]
    fn the_table_is_well_formed() {
        let mut names: Vec<&str> = GAME_SUBCOMMANDS.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), GAME_SUBCOMMANDS.len(), "subcommand names are unique");
        for sub in GAME_SUBCOMMANDS.iter().chain([&MYGAMES]) {
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
                assert!(
                    (1..=100).contains(&o.description.chars().count()),
                    "{} {}",
                    sub.name,
                    o.name
                );
                assert_eq!(
                    o.kind.bounds().is_some(),
                    o.kind.wire() == Wire::Integer,
                    "{:?}",
                    o.kind
                );
            }
            assert!((1..=100).contains(&sub.description.chars().count()), "{}", sub.name);
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
                options: None
            }
        );
        assert_eq!(
            parse_game("rules", &text(&[("system", "starlanes")])).unwrap(),
            Request::Rules {
                kind: Some(GameKind::Starlanes),
                game: None
            }
        );
        assert_eq!(
            parse_game(
                "replace",
                &[
                    int("seat", 2),
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
                seat: Seat(1),
                user: UserId(7),
                name: "dave".into()
            }
        );
        match parse_game(
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
        assert_eq!(parse_game("ready", &[]).unwrap(), Request::Ready { game: None });
        assert_eq!(MYGAMES.parse(&[]).unwrap(), Request::MyGames);
    }

    #[test]
    fn refusals_say_what_was_wrong_and_what_is_legal() {
        let e = parse_game("join", &text(&[("colour", "red")])).unwrap_err();
        assert!(e.contains("has no option `colour`") && e.contains("`game`"), "{e}");
        let e = MYGAMES.parse(&text(&[("game", "3")])).unwrap_err();
        assert!(e.contains("/mygames") && e.contains("takes no options"), "{e}");
        let e = parse_game("teleport", &[]).unwrap_err();
        assert!(e.contains("/game teleport") && e.contains("join"), "{e}");
        let e = parse_game("extend", &[]).unwrap_err();
        assert!(e.contains("needs `by:`") && e.contains("by:12h"), "{e}");
        let e = parse_game("rollback", &[]).unwrap_err();
        assert!(e.contains("needs `phase:`"), "{e}");
        let e = parse_game("new", &text(&[("game", "chess")])).unwrap_err();
        assert!(
            e.contains("`game:chess` is not one of") && e.contains("hyperspace"),
            "{e}"
        );
        let e = parse_game("new", &text(&[("game", "hyperspace"), ("options", "{")])).unwrap_err();
        assert!(e.contains("not valid JSON"), "{e}");
        let e = parse_game("kick", &[int("seat", 0)]).unwrap_err();
        assert!(e.contains("not a seat number") && e.contains("from 1"), "{e}");
        let e = parse_game("kick", &[int("seat", 300)]).unwrap_err();
        assert!(e.contains("not a seat number"), "{e}");
        let e = parse_game("history", &[int("phase", -1)]).unwrap_err();
        assert!(e.contains("out of range") && e.contains("from 0"), "{e}");
        let e = parse_game(
            "new",
            &[("game".into(), OptionValue::Text("hyperspace".into())), int("seed", -5)],
        )
        .unwrap_err();
        assert!(
            e.contains("out of range") && e.contains("from 0 to 9007199254740991"),
            "{e}"
        );
        let e = parse_game("join", &[int("game", 1), int("game", 2)]).unwrap_err();
        assert!(e.contains("twice"), "{e}");
        let e = parse_game("kick", &text(&[("seat", "2")])).unwrap_err();
        assert!(
            e.contains("seat:1"),
            "a value of the wrong type shows how to write it: {e}"
        );
        let e = parse_game("extend", &text(&[("by", "soon")])).unwrap_err();
        assert!(e.contains("not a duration"), "{e}");
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
            parse_game("rollback", &[int("phase", 99_999_999_999)]).unwrap(),
            Request::Rollback {
                game: None,
                phase: 99_999_999_999
            }
        );
    }

    #[test]
    fn text_is_typed_by_the_table() {
        let user = |name: &str| UserId(name.len() as u64);
        let replace = game_subcommand("replace").unwrap();
        let args = vec![
            ("seat".to_string(), "2".to_string()),
            ("player".to_string(), "@dave".to_string()),
            ("game".to_string(), "#3".to_string()),
        ];
        assert_eq!(
            read_text(replace, &args, &user).unwrap(),
            vec![
                int("seat", 2),
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
        let history = game_subcommand("history").unwrap();
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
        let reminders = game_subcommand("reminders").unwrap();
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
}
