//! Orders: `Action`, its text (parse, unparse) and the command specs.

use super::basics::{Card, Star, TOKENS};
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError};
use serde::{Deserialize, Serialize};

/// A typed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// `depart from:STAR ships:N [to:STAR]`
    Depart { from: Star, ships: u32, to: Option<Star> },
    /// `arrive token:K at:STAR` (K is 1-based)
    Arrive { token: u8, at: Star },
    /// `end`
    End,
    /// `card name:CARD`
    Card { card: Card },
    /// `losses n:X`
    Losses { n: u32 },
    /// `retreat ships:N`
    Retreat { ships: u32 },
}

pub const USAGE_DEPART: &str = "depart from:STAR ships:N [to:STAR in the same sector]";
pub const USAGE_ARRIVE: &str = "arrive token:K at:STAR";
pub const USAGE_END: &str = "end";
pub const USAGE_CARD: &str = "card name:CARD";
pub const USAGE_LOSSES: &str = "losses n:X";
pub const USAGE_RETREAT: &str = "retreat ships:N";

fn perr(message: impl Into<String>, usage: &str) -> ParseError {
    ParseError {
        message: message.into(),
        usage: usage.to_string(),
    }
}

fn star_arg(line: &CommandLine, key: &str, usage: &str) -> Result<Star, ParseError> {
    let raw = line.required(key, usage)?;
    Star::by_name(raw).ok_or_else(|| perr(format!("unknown star `{raw}`"), usage))
}

/// Text to typed action (shape only).
pub fn parse(line: &CommandLine) -> Result<Action, ParseError> {
    match line.name.as_str() {
        "depart" => {
            line.only(&["from", "ships", "to"], USAGE_DEPART)?;
            let from = star_arg(line, "from", USAGE_DEPART)?;
            let ships = line.number("ships", USAGE_DEPART)?;
            let to = match line.get("to") {
                Some(_) => Some(star_arg(line, "to", USAGE_DEPART)?),
                None => None,
            };
            Ok(Action::Depart { from, ships, to })
        }
        "arrive" => {
            line.only(&["token", "at"], USAGE_ARRIVE)?;
            let token = line.number("token", USAGE_ARRIVE)?;
            let at = star_arg(line, "at", USAGE_ARRIVE)?;
            let token = u8::try_from(token)
                .ok()
                .filter(|t| (1..=TOKENS).contains(t))
                .ok_or_else(|| perr("warp tokens are numbered 1 to 5", USAGE_ARRIVE))?;
            Ok(Action::Arrive { token, at })
        }
        "end" => {
            line.only(&[], USAGE_END)?;
            Ok(Action::End)
        }
        "card" => {
            line.only(&["name"], USAGE_CARD)?;
            let raw = line.required("name", USAGE_CARD)?;
            let card = Card::by_name(raw).ok_or_else(|| {
                let names: Vec<&str> = Card::ALL.iter().map(|c| c.name()).collect();
                perr(
                    format!("unknown card `{raw}` (the cards are {})", names.join(", ")),
                    USAGE_CARD,
                )
            })?;
            Ok(Action::Card { card })
        }
        "losses" => {
            line.only(&["n"], USAGE_LOSSES)?;
            Ok(Action::Losses {
                n: line.number("n", USAGE_LOSSES)?,
            })
        }
        "retreat" => {
            line.only(&["ships"], USAGE_RETREAT)?;
            Ok(Action::Retreat {
                ships: line.number("ships", USAGE_RETREAT)?,
            })
        }
        other => Err(perr(
            format!("unknown command `{other}`"),
            "depart | arrive | end | card | losses | retreat",
        )),
    }
}

/// Typed action to canonical text.
pub fn unparse(action: &Action) -> CommandLine {
    match action {
        Action::Depart { from, ships, to } => {
            let line = CommandLine::new("depart").arg("from", from.name()).arg("ships", ships);
            match to {
                Some(t) => line.arg("to", t.name()),
                None => line,
            }
        }
        Action::Arrive { token, at } => CommandLine::new("arrive").arg("token", token).arg("at", at.name()),
        Action::End => CommandLine::new("end"),
        Action::Card { card } => CommandLine::new("card").arg("name", card.name()),
        Action::Losses { n } => CommandLine::new("losses").arg("n", n),
        Action::Retreat { ships } => CommandLine::new("retreat").arg("ships", ships),
    }
}

/// The slash commands and their options.
pub fn commands() -> Vec<CommandSpec> {
    let p = ParamSpec::new;
    vec![
        CommandSpec {
            name: "depart",
            description: "Put ships from a star on a free warp token (or jump within the sector with to:)",
            params: vec![
                p("from", "Star the ships leave", ParamKind::Text, true),
                p("ships", "How many ships", ParamKind::Number, true),
                p(
                    "to",
                    "The other star of the same sector (an immediate journey)",
                    ParamKind::Text,
                    false,
                ),
            ],
        },
        CommandSpec {
            name: "arrive",
            description: "Land a warp token's fleet at a star whose sector count equals the token's square",
            params: vec![
                p("token", "Warp token number (1-5)", ParamKind::Number, true),
                p("at", "Destination star", ParamKind::Text, true),
            ],
        },
        CommandSpec {
            name: "end",
            description: "End movement; battles follow",
            params: vec![],
        },
        CommandSpec {
            name: "card",
            description: "Pick your combat card in secret",
            params: vec![p(
                "name",
                "Spy, Ensign, Lieutenant, Tactician, Captain, Commodore or Admiral",
                ParamKind::Text,
                true,
            )],
        },
        CommandSpec {
            name: "losses",
            description: "As victor: the loser loses n ships, you lose n-1",
            params: vec![p("n", "From 1 to the losing fleet's ships", ParamKind::Number, true)],
        },
        CommandSpec {
            name: "retreat",
            description: "Retreat ships from the battle onto a free warp token (0 stays)",
            params: vec![p("ships", "How many ships retreat", ParamKind::Number, true)],
        },
    ]
}
