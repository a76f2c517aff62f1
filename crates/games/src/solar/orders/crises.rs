//! The orders of the crisis phase (`docs/rules/solar.md`, *Crises*,
//! *Losses: who chooses*, *Order reference*): `lose [units:LIST]
//! [pieces:LIST]` and Mercury's `power [steal:N] [kill:N/TYPE/PLANET]
//! [wreck:N/PIECE/PLANET]`, typed and as text.

use super::planet_word;
use crate::solar::basics::board::{Piece, Planet, UnitKind};
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError, Seat};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// Orders

/// One piece named in a `lose` order: `factory@titan`, or `mine` (the first
/// planet of the demand, in the loss order's preference, where you have one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PieceAt {
    pub piece: Piece,
    pub planet: Option<Planet>,
}

/// `lose [units:LIST] [pieces:LIST]`: which units (by type) and which pieces
/// a seat loses in a crisis.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoseOrder {
    /// Units by type, one entry per unit (`units:infantry,tank`).
    pub units: Vec<UnitKind>,
    /// Pieces, one entry per piece (`pieces:factory@titan,mine@kuiper`).
    pub pieces: Vec<PieceAt>,
}

/// Power B's target: `kill:PLAYER/TYPE/PLANET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillOrder {
    pub seat: Seat,
    pub unit: UnitKind,
    pub planet: Planet,
}

/// Power C's target: `wreck:PLAYER/PIECE/PLANET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WreckOrder {
    pub seat: Seat,
    pub piece: Piece,
    pub planet: Planet,
}

/// `power [steal:PLAYER] [kill:PLAYER/TYPE/PLANET] [wreck:PLAYER/PIECE/PLANET]`:
/// Bazagthoth's powers, used in that order; all `None` uses none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerOrder {
    /// Power A (£1): a random card from this rival's hand.
    pub steal: Option<Seat>,
    /// Power B (£1): destroy one military unit.
    pub kill: Option<KillOrder>,
    /// Power C (£3): destroy one mine or factory.
    pub wreck: Option<WreckOrder>,
}

impl PowerOrder {
    /// Whether the order uses no power.
    pub fn is_none(&self) -> bool {
        self.steal.is_none() && self.kill.is_none() && self.wreck.is_none()
    }
}

pub const USAGE_LOSE: &str = "lose [units:LIST] [pieces:LIST] (e.g. units:infantry,tank pieces:factory@titan)";
pub const USAGE_POWER: &str = "power [steal:N] [kill:N/TYPE/PLANET] [wreck:N/PIECE/PLANET]";

fn perr(message: impl Into<String>, usage: &str) -> ParseError {
    ParseError {
        message: message.into(),
        usage: usage.to_string(),
    }
}

fn no_repeats(line: &CommandLine, usage: &str) -> Result<(), ParseError> {
    for (i, (k, _)) in line.args.iter().enumerate() {
        if line.args.iter().skip(i + 1).any(|(other, _)| other == k) {
            return Err(perr(format!("`{}` takes the option `{k}` only once", line.name), usage));
        }
    }
    Ok(())
}

fn planet_arg(raw: &str, usage: &str) -> Result<Planet, ParseError> {
    Planet::by_name(raw.trim()).ok_or_else(|| {
        perr(
            format!(
                "unknown planet `{raw}` (the planets are mercury, venus, earth, moon, mars, ganymede, titan, kuiper)"
            ),
            usage,
        )
    })
}

fn unit_arg(raw: &str, usage: &str) -> Result<UnitKind, ParseError> {
    UnitKind::by_name(raw.trim()).ok_or_else(|| {
        perr(
            format!("unknown unit `{raw}` (the units are infantry, ship, tank)"),
            usage,
        )
    })
}

fn piece_arg(raw: &str, usage: &str) -> Result<Piece, ParseError> {
    Piece::by_name(raw.trim())
        .ok_or_else(|| perr(format!("unknown piece `{raw}` (the pieces are mine, factory)"), usage))
}

fn seat_arg(raw: &str, usage: &str) -> Result<Seat, ParseError> {
    let n: u8 = raw.trim().parse().map_err(|_| {
        perr(
            format!("`{raw}` is not a seat number: name the player by seat, e.g. 2"),
            usage,
        )
    })?;
    n.checked_sub(1)
        .map(Seat)
        .ok_or_else(|| perr("seats are numbered from 1", usage))
}

fn list<'a>(raw: &'a str, key: &str, usage: &str) -> Result<Vec<&'a str>, ParseError> {
    raw.split(',')
        .map(|w| {
            let w = w.trim();
            if w.is_empty() {
                Err(perr(format!("`{key}:{raw}` has an empty entry"), usage))
            } else {
                Ok(w)
            }
        })
        .collect()
}

/// `lose [units:LIST] [pieces:LIST]` (shape only).
pub fn parse_lose(line: &CommandLine) -> Result<LoseOrder, ParseError> {
    line.only(&["units", "pieces"], USAGE_LOSE)?;
    no_repeats(line, USAGE_LOSE)?;
    let units = match line.get("units") {
        Some(raw) => list(raw, "units", USAGE_LOSE)?
            .into_iter()
            .map(|w| unit_arg(w, USAGE_LOSE))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let pieces = match line.get("pieces") {
        Some(raw) => list(raw, "pieces", USAGE_LOSE)?
            .into_iter()
            .map(|w| match w.split_once('@') {
                Some((k, p)) => Ok(PieceAt {
                    piece: piece_arg(k, USAGE_LOSE)?,
                    planet: Some(planet_arg(p, USAGE_LOSE)?),
                }),
                None => Ok(PieceAt {
                    piece: piece_arg(w, USAGE_LOSE)?,
                    planet: None,
                }),
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    Ok(LoseOrder { units, pieces })
}

fn triple<'a>(raw: &'a str, key: &str, usage: &str) -> Result<(&'a str, &'a str, &'a str), ParseError> {
    let mut parts = raw.split('/');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(a), Some(b), Some(c), None) => Ok((a, b, c)),
        _ => Err(perr(
            format!(
                "`{key}:{raw}` names a player, a type and a planet, e.g. {key}:2/{}/mars",
                if key == "kill" { "tank" } else { "mine" }
            ),
            usage,
        )),
    }
}

/// `power [steal:N] [kill:N/TYPE/PLANET] [wreck:N/PIECE/PLANET]` (shape only).
pub fn parse_power(line: &CommandLine) -> Result<PowerOrder, ParseError> {
    line.only(&["steal", "kill", "wreck"], USAGE_POWER)?;
    no_repeats(line, USAGE_POWER)?;
    let steal = line.get("steal").map(|s| seat_arg(s, USAGE_POWER)).transpose()?;
    let kill = match line.get("kill") {
        Some(raw) => {
            let (p, t, at) = triple(raw, "kill", USAGE_POWER)?;
            Some(KillOrder {
                seat: seat_arg(p, USAGE_POWER)?,
                unit: unit_arg(t, USAGE_POWER)?,
                planet: planet_arg(at, USAGE_POWER)?,
            })
        }
        None => None,
    };
    let wreck = match line.get("wreck") {
        Some(raw) => {
            let (p, k, at) = triple(raw, "wreck", USAGE_POWER)?;
            Some(WreckOrder {
                seat: seat_arg(p, USAGE_POWER)?,
                piece: piece_arg(k, USAGE_POWER)?,
                planet: planet_arg(at, USAGE_POWER)?,
            })
        }
        None => None,
    };
    Ok(PowerOrder { steal, kill, wreck })
}

/// The canonical text of a `lose` order.
pub fn unparse_lose(order: &LoseOrder) -> CommandLine {
    let mut line = CommandLine::new("lose");
    if !order.units.is_empty() {
        let words: Vec<&str> = order.units.iter().map(|k| k.order_word()).collect();
        line = line.arg("units", words.join(","));
    }
    if !order.pieces.is_empty() {
        let words: Vec<String> = order
            .pieces
            .iter()
            .map(|p| match p.planet {
                Some(at) => format!("{}@{}", p.piece.name(), planet_word(at)),
                None => p.piece.name().to_string(),
            })
            .collect();
        line = line.arg("pieces", words.join(","));
    }
    line
}

/// The canonical text of a `power` order.
pub fn unparse_power(order: &PowerOrder) -> CommandLine {
    let mut line = CommandLine::new("power");
    if let Some(s) = order.steal {
        line = line.arg("steal", s.index() + 1);
    }
    if let Some(k) = order.kill {
        line = line.arg(
            "kill",
            format!(
                "{}/{}/{}",
                k.seat.index() + 1,
                k.unit.order_word(),
                planet_word(k.planet)
            ),
        );
    }
    if let Some(w) = order.wreck {
        line = line.arg(
            "wreck",
            format!("{}/{}/{}", w.seat.index() + 1, w.piece.name(), planet_word(w.planet)),
        );
    }
    line
}

/// The order commands of the crisis phase.
pub fn commands() -> Vec<CommandSpec> {
    let p = ParamSpec::new;
    vec![
        CommandSpec {
            name: "power",
            description: "Mercury's powers: steal a card, kill a unit, wreck a piece (or none)",
            params: vec![
                p(
                    "steal",
                    "Power A (£1): the rival to steal a card from",
                    ParamKind::Player,
                    false,
                ),
                p(
                    "kill",
                    "Power B (£1): PLAYER/TYPE/PLANET, e.g. bob/tank/mars",
                    ParamKind::Player,
                    false,
                ),
                p(
                    "wreck",
                    "Power C (£3): PLAYER/PIECE/PLANET, e.g. bob/mine/titan",
                    ParamKind::Player,
                    false,
                ),
            ],
        },
        CommandSpec {
            name: "lose",
            description: "Choose your crisis losses",
            params: vec![
                p("units", "Units by type, e.g. infantry,tank", ParamKind::Text, false),
                p(
                    "pieces",
                    "Pieces, e.g. factory@titan,mine@kuiper",
                    ParamKind::Text,
                    false,
                ),
            ],
        },
    ]
}
