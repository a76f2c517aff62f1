//! Orders: `Action`, its text (parse, unparse) and the command specs.

use super::basics::Tech;
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError};
use serde::{Deserialize, Serialize};

/// Sources of a move: planet and how many forces (None: all of them).
pub type Sources = Vec<(String, Option<u32>)>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    Move {
        to: String,
        from: Sources,
    },
    Produce {
        at: String,
    },
    Refresh,
    Use {
        tech: Tech,
        at: Option<String>,
        also: Option<String>,
        to: Option<String>,
        from: Sources,
    },
    Buy {
        tech: Tech,
    },
    End,
}

// ---- text ----------------------------------------------------------------

pub(super) const MOVE_USAGE: &str = "move to:PLANET from:PLANET[=N][,PLANET[=N]...]";
const USE_USAGE: &str = "use tech:NAME [at:PLANET] [also:PLANET] [to:PLANET] [from:PLANET[=N],...]";

pub(super) fn parse_sources(raw: &str, usage: &str) -> Result<Sources, ParseError> {
    let mut out = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match part.split_once('=') {
            Some((name, n)) => {
                let n = n.trim().parse::<u32>().map_err(|_| ParseError {
                    message: format!("`{part}`: the number after `=` is not a whole number"),
                    usage: usage.into(),
                })?;
                out.push((name.trim().to_string(), Some(n)));
            }
            None => out.push((part.to_string(), None)),
        }
    }
    if out.is_empty() {
        return Err(ParseError {
            message: "`from` names no planet".into(),
            usage: usage.into(),
        });
    }
    Ok(out)
}

fn sources_text(from: &Sources) -> String {
    from.iter()
        .map(|(p, n)| match n {
            Some(n) => format!("{p}={n}"),
            None => p.clone(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn tech_arg(line: &CommandLine, usage: &str) -> Result<Tech, ParseError> {
    let raw = line.required("tech", usage)?;
    Tech::from_name(raw).ok_or_else(|| ParseError {
        message: format!(
            "unknown tech `{raw}` (techs: {})",
            Tech::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
        ),
        usage: usage.into(),
    })
}

pub fn parse(line: &CommandLine) -> Result<Action, ParseError> {
    match line.name.as_str() {
        "move" => {
            line.only(&["to", "from"], MOVE_USAGE)?;
            Ok(Action::Move {
                to: line.required("to", MOVE_USAGE)?.to_string(),
                from: parse_sources(line.required("from", MOVE_USAGE)?, MOVE_USAGE)?,
            })
        }
        "produce" => {
            line.only(&["at"], "produce at:PLANET")?;
            Ok(Action::Produce {
                at: line.required("at", "produce at:PLANET")?.to_string(),
            })
        }
        "refresh" => {
            line.only(&[], "refresh")?;
            Ok(Action::Refresh)
        }
        "use" => {
            line.only(&["tech", "at", "also", "to", "from"], USE_USAGE)?;
            Ok(Action::Use {
                tech: tech_arg(line, USE_USAGE)?,
                at: line.get("at").map(str::to_string),
                also: line.get("also").map(str::to_string),
                to: line.get("to").map(str::to_string),
                from: match line.get("from") {
                    Some(raw) => parse_sources(raw, USE_USAGE)?,
                    None => vec![],
                },
            })
        }
        "buy" => {
            line.only(&["tech"], "buy tech:NAME")?;
            Ok(Action::Buy {
                tech: tech_arg(line, "buy tech:NAME")?,
            })
        }
        "end" => {
            line.only(&[], "end")?;
            Ok(Action::End)
        }
        other => Err(ParseError {
            message: format!("unknown order `{other}`"),
            usage: "move, produce, refresh, use, buy or end".into(),
        }),
    }
}

pub fn unparse(a: &Action) -> CommandLine {
    match a {
        Action::Move { to, from } => CommandLine::new("move").arg("to", to).arg("from", sources_text(from)),
        Action::Produce { at } => CommandLine::new("produce").arg("at", at),
        Action::Refresh => CommandLine::new("refresh"),
        Action::Use {
            tech,
            at,
            also,
            to,
            from,
        } => {
            let mut c = CommandLine::new("use").arg("tech", tech.name());
            if let Some(x) = at {
                c = c.arg("at", x);
            }
            if let Some(x) = also {
                c = c.arg("also", x);
            }
            if let Some(x) = to {
                c = c.arg("to", x);
            }
            if !from.is_empty() {
                c = c.arg("from", sources_text(from));
            }
            c
        }
        Action::Buy { tech } => CommandLine::new("buy").arg("tech", tech.name()),
        Action::End => CommandLine::new("end"),
    }
}

/// The slash commands and their options.
pub fn commands() -> Vec<CommandSpec> {
    let p = |name, description, required| ParamSpec {
        name,
        description,
        kind: ParamKind::Text,
        required,
    };
    let from = "Planet(s) the forces come from: Vega, or Vega=2,Mira=1 (no number: all)";
    vec![
        CommandSpec {
            name: "move",
            description: "Action: move forces from adjacent planets to a planet (combat if enemy-held)",
            params: vec![p("to", "Destination planet", true), p("from", from, true)],
        },
        CommandSpec {
            name: "produce",
            description: "Action: add forces (and science) at a non-exhausted planet you hold",
            params: vec![p("at", "Planet where you have forces", true)],
        },
        CommandSpec {
            name: "refresh",
            description: "Action: remove exhausted markers from your planets and techs",
            params: vec![],
        },
        CommandSpec {
            name: "use",
            description: "Use a tech (an Action or a Free Action, as its text says)",
            params: vec![
                p("tech", "Tech name", true),
                p("at", "Planet the tech acts on", false),
                p("also", "Second planet (Foundries)", false),
                p("to", "Destination (Jumpgates, Logistics)", false),
                p("from", from, false),
            ],
        },
        CommandSpec {
            name: "buy",
            description: "Buy a tech (only right after producing science)",
            params: vec![p("tech", "A universal tech (2) or a market tech (3/2/1)", true)],
        },
        CommandSpec {
            name: "end",
            description: "End your turn (scoring if you hold the scoring token)",
            params: vec![],
        },
    ]
}
