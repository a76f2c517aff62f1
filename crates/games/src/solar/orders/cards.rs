//! The card orders (`docs/rules/solar.md`, *Cards*, *Order reference*):
//! `play card:NAME [options]` for every deck card and own card, Double
//! Time's `end`, Espionage's `take card:NAME` and the hand limit's
//! `discard cards:LIST`, typed and as text.

use super::planet_word;
use crate::solar::basics::board::{Piece, Planet};
use crate::solar::basics::cards::CardId;
use crate::solar::basics::tiles::{TileId, TileRef};
use orrery_engine::{CommandLine, CommandSpec, ParamKind, ParamSpec, ParseError, Seat};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// Orders

/// `play card:NAME [options]`: a card and the options its effect takes.
/// Each card takes exactly the options the page gives it (checked by
/// [`parse_play`]); the others are `None`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayOrder {
    pub card: CardId,
    /// Recalibrate: `die:1|2|3`.
    pub die: Option<u8>,
    /// Crisis Team, Agitators, Emergency Powers: `tile:TILE` (a Crisis tile).
    pub tile: Option<TileId>,
    /// Agitators: `to:PLANET`.
    pub to: Option<Planet>,
    /// Garrison, Survey, Saboteurs: `at:PLANET`.
    pub at: Option<Planet>,
    /// Saboteurs, Espionage: `player:N` (a seat number, from 1).
    pub player: Option<Seat>,
    /// Saboteurs: `piece:mine|factory`.
    pub piece: Option<Piece>,
}

impl PlayOrder {
    /// A card with no options.
    pub fn of(card: CardId) -> PlayOrder {
        PlayOrder {
            card,
            die: None,
            tile: None,
            to: None,
            at: None,
            player: None,
            piece: None,
        }
    }
}

pub const USAGE_PLAY: &str =
    "play card:NAME [die:1|2|3] [tile:TILE] [to:PLANET] [at:PLANET] [player:N] [piece:mine|factory]";
pub const USAGE_END: &str = "end";
pub const USAGE_TAKE: &str = "take card:NAME";
pub const USAGE_DISCARD: &str = "discard cards:LIST (e.g. cards:mercenaries,trade-deal)";

/// The options each card's `play` takes, as on the page.
fn options_of(card: CardId) -> &'static [&'static str] {
    match card {
        CardId::Recalibrate => &["die"],
        CardId::Garrison | CardId::Survey => &["at"],
        CardId::CrisisTeam | CardId::EmergencyPowers => &["tile"],
        CardId::Agitators => &["tile", "to"],
        CardId::Saboteurs => &["player", "piece", "at"],
        CardId::Espionage => &["player"],
        _ => &[],
    }
}

fn perr(message: impl Into<String>, usage: &str) -> ParseError {
    ParseError {
        message: message.into(),
        usage: usage.to_string(),
    }
}

/// The word orders use for a card: `orbital-bombardment`.
pub fn card_word(card: CardId) -> String {
    card.name().to_ascii_lowercase().replace(' ', "-")
}

/// A card by name (capitals, spaces, hyphens ignored) or code (`7`, `O2`).
fn card_arg(raw: &str, usage: &str) -> Result<CardId, ParseError> {
    CardId::by_name(raw).or_else(|| CardId::by_code(raw)).ok_or_else(|| {
        perr(
            format!("unknown card `{raw}` (name it, e.g. card:trade-deal, or by code)"),
            usage,
        )
    })
}

fn seat_arg(raw: &str, usage: &str) -> Result<Seat, ParseError> {
    let n: u8 = raw.trim().parse().map_err(|_| {
        perr(
            format!("`player:{raw}` is not a seat number: name the player by seat, e.g. player:2"),
            usage,
        )
    })?;
    n.checked_sub(1)
        .map(Seat)
        .ok_or_else(|| perr("seats are numbered from 1", usage))
}

fn no_repeats(line: &CommandLine, usage: &str) -> Result<(), ParseError> {
    for (i, (k, _)) in line.args.iter().enumerate() {
        if line.args.iter().skip(i + 1).any(|(other, _)| other == k) {
            return Err(perr(format!("`{}` takes the option `{k}` only once", line.name), usage));
        }
    }
    Ok(())
}

/// `play card:NAME [options]` to a [`PlayOrder`]: the card's own options
/// are required, any other option is refused.
pub fn parse_play(line: &CommandLine) -> Result<PlayOrder, ParseError> {
    line.only(&["card", "die", "tile", "to", "at", "player", "piece"], USAGE_PLAY)?;
    no_repeats(line, USAGE_PLAY)?;
    let card = card_arg(line.required("card", USAGE_PLAY)?, USAGE_PLAY)?;
    let takes = options_of(card);
    for (k, _) in &line.args {
        if k != "card" && !takes.contains(&k.as_str()) {
            return Err(perr(format!("{card} does not take an option `{k}`"), USAGE_PLAY));
        }
    }
    for k in takes {
        if line.get(k).is_none() {
            let usage = play_usage(card);
            return Err(perr(format!("{card} needs the option `{k}`: {usage}"), &usage));
        }
    }
    let mut order = PlayOrder::of(card);
    if let Some(raw) = line.get("die") {
        order.die = Some(
            raw.trim()
                .parse::<u8>()
                .ok()
                .filter(|d| (1..=3).contains(d))
                .ok_or_else(|| perr(format!("`die:{raw}` is not die 1, 2 or 3"), USAGE_PLAY))?,
        );
    }
    if let Some(raw) = line.get("tile") {
        order.tile = match TileRef::parse(raw) {
            Some(TileRef::Bag(id)) => Some(id),
            Some(TileRef::Alien(_)) => {
                return Err(perr(
                    format!("{card} names a Crisis tile, not an Alien tile"),
                    USAGE_PLAY,
                ))
            }
            None => return Err(perr(format!("unknown tile `{raw}` (tiles are 1 to 55)"), USAGE_PLAY)),
        };
    }
    for (key, slot) in [("to", &mut order.to), ("at", &mut order.at)] {
        if let Some(raw) = line.get(key) {
            *slot = Some(Planet::by_name(raw).ok_or_else(|| {
                perr(
                    format!(
                        "unknown planet `{raw}` (the planets are mercury, venus, earth, moon, mars, ganymede, titan, kuiper)"
                    ),
                    USAGE_PLAY,
                )
            })?);
        }
    }
    if let Some(raw) = line.get("player") {
        order.player = Some(seat_arg(raw, USAGE_PLAY)?);
    }
    if let Some(raw) = line.get("piece") {
        order.piece = Some(
            Piece::by_name(raw).ok_or_else(|| perr(format!("unknown piece `{raw}` (mine, factory)"), USAGE_PLAY))?,
        );
    }
    Ok(order)
}

/// The usage line of one card's `play`.
fn play_usage(card: CardId) -> String {
    let mut s = format!("play card:{}", card_word(card));
    for k in options_of(card) {
        s.push_str(match *k {
            "die" => " die:1|2|3",
            "tile" => " tile:TILE",
            "to" => " to:PLANET",
            "at" => " at:PLANET",
            "player" => " player:N",
            _ => " piece:mine|factory",
        });
    }
    s
}

/// `take card:NAME`.
pub fn parse_take(line: &CommandLine) -> Result<CardId, ParseError> {
    line.only(&["card"], USAGE_TAKE)?;
    no_repeats(line, USAGE_TAKE)?;
    card_arg(line.required("card", USAGE_TAKE)?, USAGE_TAKE)
}

/// `discard cards:LIST`.
pub fn parse_discard(line: &CommandLine) -> Result<Vec<CardId>, ParseError> {
    line.only(&["cards"], USAGE_DISCARD)?;
    no_repeats(line, USAGE_DISCARD)?;
    let raw = line.required("cards", USAGE_DISCARD)?;
    if raw.trim().is_empty() {
        return Err(perr("`cards:` lists at least one card", USAGE_DISCARD));
    }
    raw.split(',').map(|w| card_arg(w.trim(), USAGE_DISCARD)).collect()
}

/// `end`.
pub fn parse_end(line: &CommandLine) -> Result<(), ParseError> {
    line.only(&[], USAGE_END)
}

/// A [`PlayOrder`] to its canonical text.
pub fn unparse_play(order: &PlayOrder) -> CommandLine {
    let mut line = CommandLine::new("play").arg("card", card_word(order.card));
    if let Some(d) = order.die {
        line = line.arg("die", d);
    }
    if let Some(t) = order.tile {
        line = line.arg("tile", t.number());
    }
    if let Some(p) = order.to {
        line = line.arg("to", planet_word(p));
    }
    if let Some(s) = order.player {
        line = line.arg("player", s.index() + 1);
    }
    if let Some(p) = order.piece {
        line = line.arg("piece", p.name());
    }
    if let Some(p) = order.at {
        line = line.arg("at", planet_word(p));
    }
    line
}

/// `take card:NAME` as text.
pub fn unparse_take(card: CardId) -> CommandLine {
    CommandLine::new("take").arg("card", card_word(card))
}

/// `discard cards:LIST` as text.
pub fn unparse_discard(cards: &[CardId]) -> CommandLine {
    let words: Vec<String> = cards.iter().map(|&c| card_word(c)).collect();
    CommandLine::new("discard").arg("cards", words.join(","))
}

/// The card orders, for registration and help.
pub fn commands() -> Vec<CommandSpec> {
    let p = ParamSpec::new;
    vec![
        CommandSpec {
            name: "play",
            description: "Play a card from your hand (Action, Free Action or Benefit)",
            params: vec![
                p("card", "The card's name or code", ParamKind::Text, true),
                p("die", "Recalibrate: die 1, 2 or 3", ParamKind::Number, false),
                p(
                    "tile",
                    "Crisis Team, Agitators, Emergency Powers: a Crisis tile",
                    ParamKind::Text,
                    false,
                ),
                p("to", "Agitators: the adjacent planet", ParamKind::Text, false),
                p("at", "Garrison, Survey, Saboteurs: the planet", ParamKind::Text, false),
                p("player", "Saboteurs, Espionage: the rival", ParamKind::Player, false),
                p("piece", "Saboteurs: mine or factory", ParamKind::Text, false),
            ],
        },
        CommandSpec {
            name: "end",
            description: "Skip an extra action (Double Time)",
            params: vec![],
        },
        CommandSpec {
            name: "take",
            description: "Espionage: the card you take from the rival's hand",
            params: vec![p("card", "The card's name or code", ParamKind::Text, true)],
        },
        CommandSpec {
            name: "discard",
            description: "Above 9 cards: the cards you discard down to 9",
            params: vec![p("cards", "e.g. mercenaries,trade-deal", ParamKind::Text, true)],
        },
    ]
}
