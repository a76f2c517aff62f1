//! The orders of Solar Crisis as typed [`Action`]s and as text
//! (`docs/rules/solar.md`, *Order reference*): [`parse`], [`unparse`] and
//! the command specs ([`commands`]). Legality is the rules' job
//! ([`super::rules`]).
//!
//! - this file: [`Action`] and the orders of the Player Actions phase
//!   without cards (`move`, `claim`, `pay`, `giveup`, `buy`, `pass`);
//! - [`crises`]: the crisis phase's `lose` and `power`;
//! - [`cards`]: `play card:NAME [options]`, `end`, `take` and `discard`.

pub mod cards;
pub mod crises;

use self::cards::PlayOrder;
use self::crises::{LoseOrder, PowerOrder};
use super::basics::board::{Piece, Planet, UnitKind, HOME};
use super::basics::cards::CardId;
use super::basics::tiles::TileRef;
use super::state::{TensionTarget, UnitCounts};
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError, Seat};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// Actions

/// The tile a `claim` (or a `move`'s `claim:`) names, with its options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimOrder {
    /// `tile:12`, `tile:A1` (`claim:12` on a move).
    pub tile: TileRef,
    /// `unit:infantry|ship|tank`: which unit goes to the surface for an
    /// undefended tile; `None` for the page's default (an infantry, else a
    /// tank, else a spaceship).
    pub unit: Option<UnitKind>,
    /// `player:N piece:mine|factory`: a Tension claim's target. The player
    /// is a **seat number as shown (from 1)**, as the engine sees players;
    /// resolving a player's name to a seat is the service's job.
    pub target: Option<TensionTarget>,
}

impl ClaimOrder {
    /// A claim of `tile` with no options.
    pub fn of(tile: TileRef) -> ClaimOrder {
        ClaimOrder {
            tile,
            unit: None,
            target: None,
        }
    }
}

/// One unit of a `buy`: its type and where it is placed (`tank@mars`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Purchase {
    pub kind: UnitKind,
    /// Earth when the order names no planet.
    pub planet: Planet,
}

/// A typed order of the Player Actions phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// `move from:P to:P ships:N [infantry:N] [tanks:N] [claim:T [unit:TYPE] [player:N piece:KIND]]`
    Move {
        from: Planet,
        to: Planet,
        ships: u32,
        infantry: u32,
        /// Only with a card that lets tanks move (none in this layer).
        tanks: u32,
        claim: Option<ClaimOrder>,
    },
    /// `claim tile:T [unit:TYPE] [player:N piece:KIND]`
    Claim(ClaimOrder),
    /// `pay [infantry:N] [ships:N] [tanks:N] [lose:LIST]`
    Pay { units: UnitCounts, lose: Vec<UnitKind> },
    /// `giveup [lose:LIST]`
    GiveUp { lose: Vec<UnitKind> },
    /// `buy units:LIST`, e.g. `units:tank@mars,ship`.
    Buy { units: Vec<Purchase> },
    /// `pass`
    Pass,
    /// `lose [units:LIST] [pieces:LIST]`: crisis losses (Phase 4).
    Lose(LoseOrder),
    /// `power [steal:N] [kill:N/TYPE/PLANET] [wreck:N/PIECE/PLANET]`:
    /// Mercury's powers (Phase 4).
    Power(PowerOrder),
    /// `play card:NAME [options]`: a card from the hand.
    Play(PlayOrder),
    /// `end`: skip a Double Time's extra action.
    End,
    /// `take card:NAME`: Espionage's pick.
    Take(CardId),
    /// `discard cards:LIST`: down to the hand limit of 9.
    Discard(Vec<CardId>),
}

pub const USAGE_MOVE: &str =
    "move from:PLANET to:PLANET ships:N [infantry:N] [tanks:N] [claim:TILE [unit:TYPE] [player:N piece:mine|factory]]";
pub const USAGE_CLAIM: &str = "claim tile:TILE [unit:infantry|ship|tank] [player:N piece:mine|factory]";
pub const USAGE_PAY: &str = "pay [infantry:N] [ships:N] [tanks:N] [lose:LIST]";
pub const USAGE_GIVEUP: &str = "giveup [lose:LIST]";
pub const USAGE_BUY: &str = "buy units:LIST (e.g. units:infantry,tank@mars)";
pub const USAGE_PASS: &str = "pass";
const COMMANDS: &str = "move | claim | pay | giveup | buy | pass | play | end | take | discard | power | lose";

// ---------------------------------------------------------------------------
// Parsing

fn perr(message: impl Into<String>, usage: &str) -> ParseError {
    ParseError {
        message: message.into(),
        usage: usage.to_string(),
    }
}

/// The word orders use for a planet: `earth`, `kuiper`.
pub fn planet_word(planet: Planet) -> String {
    match planet {
        Planet::KuiperBelt => "kuiper".to_string(),
        p => p.name().to_ascii_lowercase(),
    }
}

fn planet_arg(raw: &str, usage: &str) -> Result<Planet, ParseError> {
    Planet::by_name(raw).ok_or_else(|| {
        perr(
            format!(
                "unknown planet `{raw}` (the planets are mercury, venus, earth, moon, mars, ganymede, titan, kuiper)"
            ),
            usage,
        )
    })
}

fn unit_word(raw: &str, usage: &str) -> Result<UnitKind, ParseError> {
    UnitKind::by_name(raw).ok_or_else(|| {
        perr(
            format!("unknown unit `{raw}` (the units are infantry, ship, tank)"),
            usage,
        )
    })
}

/// Every option at most once.
fn no_repeats(line: &CommandLine, usage: &str) -> Result<(), ParseError> {
    for (i, (k, _)) in line.args.iter().enumerate() {
        if line.args.iter().skip(i + 1).any(|(other, _)| other == k) {
            return Err(perr(format!("`{}` takes the option `{k}` only once", line.name), usage));
        }
    }
    Ok(())
}

/// An optional whole number, 0 when absent.
fn count(line: &CommandLine, key: &str, usage: &str) -> Result<u32, ParseError> {
    match line.get(key) {
        Some(_) => line.number(key, usage),
        None => Ok(0),
    }
}

/// `lose:infantry,ship`.
fn lose_list(line: &CommandLine, usage: &str) -> Result<Vec<UnitKind>, ParseError> {
    let Some(raw) = line.get("lose") else {
        return Ok(Vec::new());
    };
    raw.split(',')
        .map(|w| {
            let w = w.trim();
            if w.is_empty() {
                Err(perr(
                    format!("`lose:{raw}` has an empty entry: list units such as lose:infantry,ship"),
                    usage,
                ))
            } else {
                unit_word(w, usage)
            }
        })
        .collect()
}

/// The claim's `unit:`, `player:` and `piece:` options, with `tile` given.
fn claim_options(line: &CommandLine, tile_key: &str, usage: &str) -> Result<ClaimOrder, ParseError> {
    let raw = line.required(tile_key, usage)?;
    let tile = TileRef::parse(raw)
        .ok_or_else(|| perr(format!("unknown tile `{raw}` (tiles are 1 to 55, or A1 to A3)"), usage))?;
    let unit = line.get("unit").map(|u| unit_word(u, usage)).transpose()?;
    let target = match (line.get("player"), line.get("piece")) {
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            return Err(perr("a Tension claim names both `player:` and `piece:`", usage));
        }
        (Some(p), Some(k)) => {
            let n: u8 = p.trim().parse().map_err(|_| {
                perr(
                    format!("`player:{p}` is not a seat number: name the player by seat, e.g. player:2"),
                    usage,
                )
            })?;
            let seat = n
                .checked_sub(1)
                .map(Seat)
                .ok_or_else(|| perr("seats are numbered from 1", usage))?;
            let piece = Piece::by_name(k)
                .ok_or_else(|| perr(format!("unknown piece `{k}` (the pieces are mine, factory)"), usage))?;
            Some(TensionTarget { seat, piece })
        }
    };
    Ok(ClaimOrder { tile, unit, target })
}

/// `infantry`, `tank@mars`.
fn purchase(raw: &str, usage: &str) -> Result<Purchase, ParseError> {
    let raw = raw.trim();
    let (kind, planet) = match raw.split_once('@') {
        Some((k, p)) => (unit_word(k.trim(), usage)?, planet_arg(p.trim(), usage)?),
        None => (unit_word(raw, usage)?, HOME),
    };
    Ok(Purchase { kind, planet })
}

/// Text to typed action (shape only; legality is [`super::rules::decide`]'s).
pub fn parse(line: &CommandLine) -> Result<Action, ParseError> {
    match line.name.as_str() {
        "move" => {
            line.only(
                &[
                    "from", "to", "ships", "infantry", "tanks", "claim", "unit", "player", "piece",
                ],
                USAGE_MOVE,
            )?;
            no_repeats(line, USAGE_MOVE)?;
            let from = planet_arg(line.required("from", USAGE_MOVE)?, USAGE_MOVE)?;
            let to = planet_arg(line.required("to", USAGE_MOVE)?, USAGE_MOVE)?;
            let ships = line.number("ships", USAGE_MOVE)?;
            let infantry = count(line, "infantry", USAGE_MOVE)?;
            let tanks = count(line, "tanks", USAGE_MOVE)?;
            let claim = if line.get("claim").is_some() {
                Some(claim_options(line, "claim", USAGE_MOVE)?)
            } else if ["unit", "player", "piece"].iter().any(|k| line.get(k).is_some()) {
                return Err(perr(
                    "`unit:`, `player:` and `piece:` belong to a claim: add `claim:TILE`",
                    USAGE_MOVE,
                ));
            } else {
                None
            };
            Ok(Action::Move {
                from,
                to,
                ships,
                infantry,
                tanks,
                claim,
            })
        }
        "claim" => {
            line.only(&["tile", "unit", "player", "piece"], USAGE_CLAIM)?;
            no_repeats(line, USAGE_CLAIM)?;
            Ok(Action::Claim(claim_options(line, "tile", USAGE_CLAIM)?))
        }
        "pay" => {
            line.only(&["infantry", "ships", "tanks", "lose"], USAGE_PAY)?;
            no_repeats(line, USAGE_PAY)?;
            let units = UnitCounts::new(
                count(line, "infantry", USAGE_PAY)?,
                count(line, "ships", USAGE_PAY)?,
                count(line, "tanks", USAGE_PAY)?,
            );
            Ok(Action::Pay {
                units,
                lose: lose_list(line, USAGE_PAY)?,
            })
        }
        "giveup" => {
            line.only(&["lose"], USAGE_GIVEUP)?;
            no_repeats(line, USAGE_GIVEUP)?;
            Ok(Action::GiveUp {
                lose: lose_list(line, USAGE_GIVEUP)?,
            })
        }
        "buy" => {
            line.only(&["units"], USAGE_BUY)?;
            no_repeats(line, USAGE_BUY)?;
            let raw = line.required("units", USAGE_BUY)?;
            if raw.trim().is_empty() {
                return Err(perr("`units:` lists at least one unit", USAGE_BUY));
            }
            let units = raw
                .split(',')
                .map(|item| purchase(item, USAGE_BUY))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Action::Buy { units })
        }
        "pass" => {
            line.only(&[], USAGE_PASS)?;
            Ok(Action::Pass)
        }
        "play" => Ok(Action::Play(cards::parse_play(line)?)),
        "end" => {
            cards::parse_end(line)?;
            Ok(Action::End)
        }
        "take" => Ok(Action::Take(cards::parse_take(line)?)),
        "discard" => Ok(Action::Discard(cards::parse_discard(line)?)),
        "lose" => Ok(Action::Lose(crises::parse_lose(line)?)),
        "power" => Ok(Action::Power(crises::parse_power(line)?)),
        other => Err(perr(format!("unknown command `{other}`"), COMMANDS)),
    }
}

fn claim_args(mut line: CommandLine, claim: &ClaimOrder) -> CommandLine {
    if let Some(unit) = claim.unit {
        line = line.arg("unit", unit.order_word());
    }
    if let Some(t) = claim.target {
        line = line.arg("player", t.seat.index() + 1).arg("piece", t.piece.name());
    }
    line
}

fn lose_arg(line: CommandLine, lose: &[UnitKind]) -> CommandLine {
    if lose.is_empty() {
        line
    } else {
        let words: Vec<&str> = lose.iter().map(|k| k.order_word()).collect();
        line.arg("lose", words.join(","))
    }
}

/// Typed action to its canonical text.
pub fn unparse(action: &Action) -> CommandLine {
    match action {
        Action::Move {
            from,
            to,
            ships,
            infantry,
            tanks,
            claim,
        } => {
            let mut line = CommandLine::new("move")
                .arg("from", planet_word(*from))
                .arg("to", planet_word(*to))
                .arg("ships", ships);
            if *infantry > 0 {
                line = line.arg("infantry", infantry);
            }
            if *tanks > 0 {
                line = line.arg("tanks", tanks);
            }
            match claim {
                Some(c) => claim_args(line.arg("claim", c.tile.key()), c),
                None => line,
            }
        }
        Action::Claim(c) => claim_args(CommandLine::new("claim").arg("tile", c.tile.key()), c),
        Action::Pay { units, lose } => {
            let mut line = CommandLine::new("pay");
            for (key, kind) in [
                ("infantry", UnitKind::Infantry),
                ("ships", UnitKind::Spaceship),
                ("tanks", UnitKind::Tank),
            ] {
                if units.get(kind) > 0 {
                    line = line.arg(key, units.get(kind));
                }
            }
            lose_arg(line, lose)
        }
        Action::GiveUp { lose } => lose_arg(CommandLine::new("giveup"), lose),
        Action::Buy { units } => {
            let items: Vec<String> = units
                .iter()
                .map(|p| {
                    if p.planet == HOME {
                        p.kind.order_word().to_string()
                    } else {
                        format!("{}@{}", p.kind.order_word(), planet_word(p.planet))
                    }
                })
                .collect();
            CommandLine::new("buy").arg("units", items.join(","))
        }
        Action::Pass => CommandLine::new("pass"),
        Action::Lose(order) => crises::unparse_lose(order),
        Action::Power(order) => crises::unparse_power(order),
        Action::Play(order) => cards::unparse_play(order),
        Action::End => CommandLine::new("end"),
        Action::Take(card) => cards::unparse_take(*card),
        Action::Discard(cards) => cards::unparse_discard(cards),
    }
}

/// The order commands (Phase 3's, then Phase 4's), for registration and help.
pub fn commands() -> Vec<CommandSpec> {
    let mut specs = turn_commands();
    specs.extend(cards::commands());
    specs.extend(crises::commands());
    specs
}

fn turn_commands() -> Vec<CommandSpec> {
    let p = ParamSpec::new;
    let claim_params = || {
        vec![
            p(
                "unit",
                "Undefended tile: the unit that goes (infantry, ship, tank)",
                ParamKind::Text,
                false,
            ),
            p(
                "player",
                "Tension tile: the rival whose piece you claim",
                ParamKind::Player,
                false,
            ),
            p(
                "piece",
                "Tension tile: the rival's mine or factory",
                ParamKind::Text,
                false,
            ),
        ]
    };
    let lose = || p("lose", "Casualties by type, e.g. infantry,ship", ParamKind::Text, false);
    let mut move_params = vec![
        p("from", "Planet the group leaves", ParamKind::Text, true),
        p("to", "Planet 1 or 2 away", ParamKind::Text, true),
        p("ships", "Ready spaceships (at least 1)", ParamKind::Number, true),
        p("infantry", "Ready infantry carried", ParamKind::Number, false),
        p(
            "tanks",
            "Ready tanks (only with a card that moves them)",
            ParamKind::Number,
            false,
        ),
        p(
            "claim",
            "After a 1-planet move: a tile to claim at the destination",
            ParamKind::Text,
            false,
        ),
    ];
    move_params.extend(claim_params());
    let mut claim = vec![p("tile", "The tile's number, or A1 to A3", ParamKind::Text, true)];
    claim.extend(claim_params());
    vec![
        CommandSpec {
            name: "move",
            description: "Move a group of ready ships and infantry 1 or 2 planets, and maybe claim a tile",
            params: move_params,
        },
        CommandSpec {
            name: "claim",
            description: "Claim a tile where you have a ready unit",
            params: claim,
        },
        CommandSpec {
            name: "pay",
            description: "Pay a claim's cost with ready units (infantry 1, ship 1, tank 2 CP)",
            params: vec![
                p("infantry", "Infantry to the surface", ParamKind::Number, false),
                p("ships", "Spaceships to the surface", ParamKind::Number, false),
                p("tanks", "Tanks to the surface", ParamKind::Number, false),
                lose(),
            ],
        },
        CommandSpec {
            name: "giveup",
            description: "Give up the claim: it fails and your turn ends",
            params: vec![lose()],
        },
        CommandSpec {
            name: "buy",
            description: "Buy 1 or 2 units: infantry £2 (Earth), tank £3, ship £4 (Earth or a factory planet)",
            params: vec![p("units", "e.g. infantry,tank@mars", ParamKind::Text, true)],
        },
        CommandSpec {
            name: "pass",
            description: "Take a Pass cube and draw a card",
            params: vec![],
        },
    ]
}
