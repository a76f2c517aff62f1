//! Orders: a sheet line as written ([`Written`]), the [`Action`] (a sheet
//! edit), their text (parse, unparse) and the command specs.

use super::basics::ships::Class;
use super::basics::Colour;
use super::map::Path;
use super::state::{Order, State};
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError, Seat, SheetEdit, Usages};
use serde::{Deserialize, Serialize};

/// A sheet line as written: ships and planets by name, not yet looked up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Written {
    Scrap {
        ship: String,
    },
    Repair {
        ship: String,
        points: Option<u32>,
    },
    Hide {
        ship: String,
    },
    Build {
        class: Class,
        at: String,
    },
    Move {
        ship: String,
        path: Path,
    },
    Fire {
        ship: String,
        target: String,
        shots: Option<u8>,
    },
    Terraform {
        planet: String,
        colour: Colour,
    },
    Ally {
        player: Seat,
        yes: bool,
    },
    Faction {
        with: Vec<Seat>,
        empire: bool,
    },
}

/// What a player does: an edit of their sheet (the engine's one sheet
/// protocol), its lines as written.
pub type Action = SheetEdit<Written>;

// ---------------------------------------------------------------- text

const USAGE: Usages = Usages(&[
    ("scrap", "scrap ship:SHIP"),
    ("repair", "repair ship:SHIP [points:N]"),
    ("hide", "hide ship:SHIP"),
    ("build", "build class:CLASS at:PLANET"),
    ("move", "move ship:SHIP path:\"slip ne+ 2, e, jump\""),
    ("fire", "fire ship:SHIP at:SHIP [shots:N]"),
    ("terraform", "terraform planet:PLANET colour:COLOUR"),
    ("ally", "ally player:NAME"),
    ("unally", "unally player:NAME"),
    ("faction", "faction with:NAME [and:NAME]"),
    ("empire", "empire with:NAME and:NAME"),
    ("ready", "ready"),
    ("unready", "unready"),
    ("clear", "clear"),
    ("remove", "remove line:N"),
]);

fn usage(name: &str) -> String {
    USAGE.of(name)
}

fn bad(line: &CommandLine, message: impl Into<String>) -> ParseError {
    USAGE.error(line, message)
}

/// A player option: the seat number from 1 the service writes for a name.
fn player(line: &CommandLine, key: &str) -> Result<Seat, ParseError> {
    let raw = line.required(key, &usage(&line.name))?;
    match raw.trim().parse::<u8>() {
        Ok(n) if n >= 1 => Ok(Seat(n - 1)),
        _ => Err(bad(line, format!("`{key}:{raw}` is not a player"))),
    }
}

fn text(line: &CommandLine, key: &str) -> Result<String, ParseError> {
    USAGE.text(line, key)
}

/// Text → action. Only shape errors: names are looked up by `decide`.
pub fn parse(line: &CommandLine) -> Result<Action, ParseError> {
    let u = usage(&line.name);
    let with_line = |allowed: &[&str]| -> Result<(), ParseError> {
        let mut all = allowed.to_vec();
        all.push("line");
        line.only(&all, &u)
    };
    if let Some(verb) = SheetEdit::parse_verb(line, &u) {
        return verb;
    }
    let written =
        match line.name.as_str() {
            "scrap" | "hide" => {
                with_line(&["ship"])?;
                let ship = text(line, "ship")?;
                if line.name == "scrap" {
                    Written::Scrap { ship }
                } else {
                    Written::Hide { ship }
                }
            }
            "repair" => {
                with_line(&["ship", "points"])?;
                let points = match line.get("points") {
                    Some(_) => Some(line.number("points", &u)?),
                    None => None,
                };
                Written::Repair {
                    ship: text(line, "ship")?,
                    points,
                }
            }
            "build" => {
                with_line(&["class", "at"])?;
                let raw = text(line, "class")?;
                let class = Class::parse(&raw).ok_or_else(|| {
                    let all: Vec<&str> = Class::ALL.iter().map(|c| c.name()).collect();
                    bad(
                        line,
                        format!("`class:{raw}` is not a class of ship: {}", all.join(", ")),
                    )
                })?;
                Written::Build {
                    class,
                    at: text(line, "at")?,
                }
            }
            "move" => {
                with_line(&["ship", "path"])?;
                let raw = text(line, "path")?;
                let path: Path = raw.parse().map_err(|e: String| bad(line, e))?;
                Written::Move {
                    ship: text(line, "ship")?,
                    path,
                }
            }
            "fire" => {
                with_line(&["ship", "at", "shots"])?;
                let shots =
                    match line.get("shots") {
                        Some(_) => {
                            let n = line.number("shots", &u)?;
                            Some(u8::try_from(n).ok().filter(|n| *n >= 1).ok_or_else(|| {
                                bad(line, format!("`shots:{n}` is not a number of shots (1 or more)"))
                            })?)
                        }
                        None => None,
                    };
                Written::Fire {
                    ship: text(line, "ship")?,
                    target: text(line, "at")?,
                    shots,
                }
            }
            "terraform" => {
                with_line(&["planet", "colour"])?;
                let raw = text(line, "colour")?;
                let colour = Colour::parse(&raw).ok_or_else(|| {
                    bad(
                        line,
                        format!("`colour:{raw}` is not a colour: red, orange, yellow, green, blue, violet or gray"),
                    )
                })?;
                Written::Terraform {
                    planet: text(line, "planet")?,
                    colour,
                }
            }
            "ally" | "unally" => {
                with_line(&["player"])?;
                Written::Ally {
                    player: player(line, "player")?,
                    yes: line.name == "ally",
                }
            }
            "faction" | "empire" => {
                with_line(&["with", "and"])?;
                let mut with = vec![player(line, "with")?];
                if line.get("and").is_some() {
                    with.push(player(line, "and")?);
                }
                let empire = line.name == "empire";
                if empire && with.len() != 2 {
                    return Err(bad(line, "an empire is you and two allies: give `with:` and `and:`"));
                }
                Written::Faction { with, empire }
            }
            other => {
                let names = USAGE.names();
                return Err(ParseError {
                    message: format!(
                        "there is no order `{other}` in Spectrum War; the orders are {}",
                        names.join(", ")
                    ),
                    usage: "see /game rules system:spectrum section:\"Order sheets\"".into(),
                });
            }
        };
    SheetEdit::write(written, line, &u)
}

pub(super) fn written_line(w: &Written) -> CommandLine {
    match w {
        Written::Scrap { ship } => CommandLine::new("scrap").arg("ship", ship),
        Written::Hide { ship } => CommandLine::new("hide").arg("ship", ship),
        Written::Repair { ship, points } => {
            let c = CommandLine::new("repair").arg("ship", ship);
            match points {
                Some(p) => c.arg("points", p),
                None => c,
            }
        }
        Written::Build { class, at } => CommandLine::new("build").arg("class", class.name()).arg("at", at),
        Written::Move { ship, path } => CommandLine::new("move").arg("ship", ship).arg("path", path),
        Written::Fire { ship, target, shots } => {
            let c = CommandLine::new("fire").arg("ship", ship).arg("at", target);
            match shots {
                Some(n) => c.arg("shots", n),
                None => c,
            }
        }
        Written::Terraform { planet, colour } => CommandLine::new("terraform")
            .arg("planet", planet)
            .arg("colour", colour.name()),
        Written::Ally { player, yes } => {
            CommandLine::new(if *yes { "ally" } else { "unally" }).arg("player", player.index() + 1)
        }
        Written::Faction { with, empire } => {
            let mut c = CommandLine::new(if *empire { "empire" } else { "faction" });
            for (i, s) in with.iter().enumerate() {
                c = c.arg(if i == 0 { "with" } else { "and" }, s.index() + 1);
            }
            c
        }
    }
}

/// Action → its canonical text.
pub fn unparse(action: &Action) -> CommandLine {
    action.unparse(written_line)
}

/// The order as its canonical written line (for the sheet, legal lists).
pub fn written(state: &State, order: &Order) -> Written {
    let planet = |i: usize| state.map.planets[i].name.clone();
    match order {
        Order::Scrap { ship } => Written::Scrap { ship: ship.to_string() },
        Order::Repair { ship, points } => Written::Repair {
            ship: ship.to_string(),
            points: *points,
        },
        Order::Hide { ship } => Written::Hide { ship: ship.to_string() },
        Order::Build { class, at, .. } => Written::Build {
            class: *class,
            at: planet(*at),
        },
        Order::Move { ship, path } => Written::Move {
            ship: ship.to_string(),
            path: path.clone(),
        },
        Order::Fire { ship, target, shots } => Written::Fire {
            ship: ship.to_string(),
            target: target.to_string(),
            shots: *shots,
        },
        Order::Terraform { planet: p, colour, .. } => Written::Terraform {
            planet: planet(*p),
            colour: *colour,
        },
        Order::Ally { player, yes } => Written::Ally {
            player: *player,
            yes: *yes,
        },
        Order::Faction { with, empire } => Written::Faction {
            with: with.clone(),
            empire: *empire,
        },
    }
}

pub fn commands() -> Vec<CommandSpec> {
    use ParamKind::{Number, Player, Text};
    let line = ParamSpec::new("line", "Replace this line of your sheet (from 1)", Number, false);
    let ship = ParamSpec::new("ship", "Your ship, e.g. R14 (or just 14)", Text, true);
    vec![
        CommandSpec {
            name: "build",
            description: "Economic: build a ship at a planet you own",
            params: vec![
                ParamSpec::new(
                    "class",
                    "scout, fighter, frigate, cruiser, basestar, jumper, terraformer",
                    Text,
                    true,
                ),
                ParamSpec::new("at", "A planet you own", Text, true),
                line.clone(),
            ],
        },
        CommandSpec {
            name: "repair",
            description: "Economic: put damaged units back, 1 point each",
            params: vec![
                ship.clone(),
                ParamSpec::new(
                    "points",
                    "At most this many points (default: all the damage)",
                    Number,
                    false,
                ),
                line.clone(),
            ],
        },
        CommandSpec {
            name: "scrap",
            description: "Economic: remove your ship (no refund, no more maintenance)",
            params: vec![ship.clone(), line.clone()],
        },
        CommandSpec {
            name: "hide",
            description: "Economic: switch the ship's system off: it goes dark",
            params: vec![ship.clone(), line.clone()],
        },
        CommandSpec {
            name: "move",
            description: "Movement: fly a ship along a path of segments",
            params: vec![
                ship.clone(),
                ParamSpec::new("path", "Segments: slip ne+ 2, e, jump, up (or stay)", Text, true),
                line.clone(),
            ],
        },
        CommandSpec {
            name: "fire",
            description: "Combat: aim a ship's shots this round",
            params: vec![
                ship.clone(),
                ParamSpec::new("at", "An enemy ship in the same space, e.g. B7", Text, true),
                ParamSpec::new("shots", "How many of its shots (default: all)", Number, false),
                line.clone(),
            ],
        },
        CommandSpec {
            name: "terraform",
            description: "EcoPolitical: choose the colour a planet turns to",
            params: vec![
                ParamSpec::new("planet", "A planet your terraformer works on", Text, true),
                ParamSpec::new("colour", "One of the two colours offered", Text, true),
                line.clone(),
            ],
        },
        CommandSpec {
            name: "ally",
            description: "EcoPolitical: set yes to an alliance with a player",
            params: vec![ParamSpec::new("player", "A player", Player, true), line.clone()],
        },
        CommandSpec {
            name: "unally",
            description: "EcoPolitical: set no to an alliance with a player",
            params: vec![ParamSpec::new("player", "A player", Player, true), line.clone()],
        },
        CommandSpec {
            name: "faction",
            description: "EcoPolitical: declare a faction with your allies",
            params: vec![
                ParamSpec::new("with", "An ally", Player, true),
                ParamSpec::new("and", "A second ally (6 players)", Player, false),
                line.clone(),
            ],
        },
        CommandSpec {
            name: "empire",
            description: "EcoPolitical: declare an empire: you and two allies (6 players)",
            params: vec![
                ParamSpec::new("with", "An ally", Player, true),
                ParamSpec::new("and", "Another ally", Player, true),
                line,
            ],
        },
    ]
}
