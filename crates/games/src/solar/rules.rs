//! The orders of the Player Actions phase (Phase 3) without cards: `move`
//! (with or without a claim), `claim`, `pay`, `giveup`, `buy` and `pass`
//! (`docs/rules/solar.md`: *Your turn*, *Moving*, *Claiming a tile*,
//! *Combat points and casualties*, *Tension tiles*, *Buying units*,
//! *Passing and the First Player*, *Order reference*).
//!
//! [`decide`] works on a scratch copy of the state: every event it emits
//! is applied at once with [`super::state::apply`], so the automatic
//! follow-up (casualties, the end of the turn, the next round and its alien
//! advance, the next turn) is computed from exactly the state the log will
//! fold to. Randomness (claim dice, a reshuffled deck) comes only from the
//! state's generator, and the events carry it as it was after the draw.
//!
//! **The end of the phase.** When the last Pass cube is taken, the taker
//! takes the First Player marker and the phase ends: [`decide`] emits
//! [`Event::FirstPlayerMarkerTaken`] and `PhaseBegan { phase: Crises }`,
//! then runs on into Phase 4 with [`super::crises`], up to its first
//! decision, the next period or the end of the game. In Phase 4,
//! [`pending`], [`legal_actions`], [`decide`] and [`default_action`] hand
//! over to [`super::crises`].
//!
//! **Cards** are the fifth layer, [`super::play`]: `play`, `end`, `take`
//! and `discard` are [`Action`]s of this module, handed over to it. A
//! `discard` owed (a hand above 9) comes before every other decision, in
//! Phase 3 and Phase 4 alike. After each action, `action_done` either
//! ends the turn or, with a Double Time played, leaves the turn holder an
//! extra action.

use super::board::{Phase, Piece, Planet, UnitKind, ALIEN_PATH, HOME, PASS_DRAW};
use super::cards::CardId;
use super::crises::{self, LoseOrder, PowerOrder};
use super::play::{self, Moment, PlayOrder};
use super::state::{apply, roll_dice, ActionKind, Event, MoneyReason, State, TensionTarget, UnitCounts};
use super::tiles::{Defence, Gain, TileKind, TileRef};
use orrery_engine::{CommandLine, CommandSpec, Outcome, ParamKind, ParamSpec, ParseError, Pending, Rejection, Seat};
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

/// Text to typed action (shape only; legality is [`decide`]'s).
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
        "play" => Ok(Action::Play(play::parse_play(line)?)),
        "end" => {
            play::parse_end(line)?;
            Ok(Action::End)
        }
        "take" => Ok(Action::Take(play::parse_take(line)?)),
        "discard" => Ok(Action::Discard(play::parse_discard(line)?)),
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
        Action::Play(order) => play::unparse_play(order),
        Action::End => CommandLine::new("end"),
        Action::Take(card) => play::unparse_take(*card),
        Action::Discard(cards) => play::unparse_discard(cards),
    }
}

/// The order commands (Phase 3's, then Phase 4's), for registration and help.
pub fn commands() -> Vec<CommandSpec> {
    let mut specs = turn_commands();
    specs.extend(play::commands());
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

// ---------------------------------------------------------------------------
// Who owes what

/// The decision a seat owes in Phase 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owed {
    /// Its turn: one action.
    Turn,
    /// A rolled claim's `pay` or `giveup`.
    Pay,
    /// Espionage's `take` from this rival's hand.
    Take(Seat),
}

impl Owed {
    fn kind(self) -> &'static str {
        match self {
            Owed::Turn => "turn",
            Owed::Pay => "pay",
            Owed::Take(_) => "take",
        }
    }
}

fn owed(state: &State) -> Option<(Seat, Owed)> {
    if state.is_over() || state.phase != Some(Phase::PlayerActions) {
        return None;
    }
    let turn = state.turn.as_ref()?;
    if let Some(target) = turn.espionage {
        return Some((turn.seat, Owed::Take(target)));
    }
    match &turn.claim {
        Some(c) if c.dice.is_some() => Some((turn.seat, Owed::Pay)),
        Some(_) => None,
        None => Some((turn.seat, Owed::Turn)),
    }
}

/// Who owes what: a seat above the hand limit its `discard` (`discard`,
/// before anything else, in Phase 3 and 4); else the turn holder's action
/// (`turn`, also a Double Time's extra action), the claimant's `pay` or
/// `giveup` after a claim roll (`pay`), or the spy's `take` (`take`).
pub fn pending(state: &State) -> Vec<Pending> {
    if let Some(p) = play::discard_pending(state) {
        return vec![p];
    }
    if state.phase == Some(Phase::Crises) {
        return crises::pending(state);
    }
    let Some((seat, owes)) = owed(state) else {
        return Vec::new();
    };
    let prompt = match owes {
        Owed::Turn if state.passing_only() => {
            format!("Round {}: past the round limit, `pass` is the only order.", state.round)
        }
        Owed::Turn if extra_action(state) => {
            "Double Time: one more action — `move`, `claim`, `buy` or an Action card — or `end`.".to_string()
        }
        Owed::Turn => "Your turn: one action — `move`, `claim`, `buy`, an Action card or `pass`.".to_string(),
        // The board shows whose hand it is, by name; prompts hold no names.
        Owed::Take(_) => "Espionage: `take` one card from the hand you are looking at.".to_string(),
        Owed::Pay => match state.claim() {
            Some(c) => format!(
                "Your claim of {} at {} costs {} CP: `pay` with ready units there, or `giveup`.",
                c.tile,
                c.planet,
                c.cost().saturating_sub(c.card_cp())
            ),
            None => "Pay for your claim, or give it up.".to_string(),
        },
    };
    // A prompt is its seat's own: it shows the hand the seat plays from.
    let hand = state.seat(seat).map(|s| s.hand.as_slice()).unwrap_or_default();
    let prompt = if hand.is_empty() {
        format!("{prompt}\nYour hand: no cards.")
    } else {
        let names: Vec<&str> = hand.iter().map(|c| c.name()).collect();
        format!("{prompt}\nYour hand ({}): {}.", hand.len(), names.join(", "))
    };
    vec![Pending {
        seat,
        kind: owes.kind().into(),
        prompt,
        secret: false,
        submitted: false,
        sheet: false,
    }]
}

// ---------------------------------------------------------------------------
// Legal actions

/// Whether `seat` could claim `tile` on `planet` now, ignoring its units
/// there (a move's claim counts the units that arrive).
fn claimable(state: &State, seat: Seat, planet: Planet, order: &ClaimOrder) -> Result<(), String> {
    let tile = order.tile;
    match tile {
        TileRef::Bag(id) if state.tile_planet(id) != Some(planet) => {
            return Err(match state.tile_planet(id) {
                Some(at) => format!("tile {tile} is on {at}, not {planet}"),
                None => format!("tile {tile} is not on the board"),
            });
        }
        TileRef::Alien(a) if state.aliens.get(&a) != Some(&planet) => {
            return Err(match state.aliens.get(&a) {
                Some(at) => format!("Alien tile {tile} is on {at}, not {planet}"),
                None => format!("Alien tile {tile} is not on the board"),
            });
        }
        _ => {}
    }
    if state.is_flipped(planet) && !matches!(tile, TileRef::Alien(_)) {
        return Err(format!(
            "{planet} has flipped: no tile there can be claimed except an Alien tile"
        ));
    }
    let kind = tile.kind();
    match kind.gain() {
        Gain::Piece(piece) if state.pieces_in_supply(seat, piece) == 0 => {
            return Err(format!(
                "a {kind} tile needs a {piece} in your supply, and all yours are on the board"
            ));
        }
        _ => {}
    }
    match (kind, order.target) {
        (TileKind::Tension, None) => {
            return Err(format!(
                "a Tension claim names its target: add `player:N piece:mine|factory` for a rival's piece on {planet}"
            ))
        }
        (TileKind::Tension, Some(t)) => {
            if t.seat == seat {
                return Err("a Tension claim takes a rival's piece, not your own".into());
            }
            if state.seat(t.seat).is_none() {
                return Err(format!("there is no {}", t.seat));
            }
            if state.holdings(t.seat, planet).pieces(t.piece) == 0 {
                return Err(format!("{} has no {} on {planet}", t.seat, t.piece));
            }
            if state.pieces_in_supply(seat, t.piece) == 0 {
                return Err(format!(
                    "taking a {} needs one in your supply, and all yours are on the board",
                    t.piece
                ));
            }
        }
        (_, Some(_)) => return Err("only a Tension claim takes `player:` and `piece:`".into()),
        (_, None) => {}
    }
    if let Some(unit) = order.unit {
        if !tile.defence().is_undefended() {
            return Err(format!(
                "`unit:` only chooses the unit of an undefended claim; {tile} is rolled for and paid with `pay`"
            ));
        }
        if state.ready_units(seat, planet).get(unit) == 0 {
            return Err(format!("you have no ready {unit} at {planet}"));
        }
    }
    Ok(())
}

/// The claims `seat` could make on `planet` (units there not checked):
/// every tile with its Tension targets; for an undefended tile the default
/// unit, and with `units` also each other ready type.
fn claim_orders(state: &State, seat: Seat, planet: Planet, units: bool) -> Vec<ClaimOrder> {
    let mut tiles: Vec<TileRef> = state.tiles_at(planet).into_iter().map(TileRef::Bag).collect();
    if let Some(alien) = state.alien_at(planet) {
        tiles.push(TileRef::Alien(alien));
    }
    let ready = state.ready_units(seat, planet);
    let mut out = Vec::new();
    for tile in tiles {
        let mut orders = vec![];
        if tile.kind() == TileKind::Tension {
            for rival in state.seat_ids().filter(|&r| r != seat) {
                for piece in Piece::ALL {
                    orders.push(ClaimOrder {
                        tile,
                        unit: None,
                        target: Some(TensionTarget { seat: rival, piece }),
                    });
                }
            }
        } else {
            orders.push(ClaimOrder::of(tile));
            if units && tile.defence().is_undefended() {
                let default = default_unit(ready);
                for kind in UnitKind::LOSS_ORDER {
                    if Some(kind) != default && ready.get(kind) > 0 {
                        orders.push(ClaimOrder {
                            tile,
                            unit: Some(kind),
                            target: None,
                        });
                    }
                }
            }
        }
        out.extend(orders.into_iter().filter(|o| claimable(state, seat, planet, o).is_ok()));
    }
    out
}

/// "without it, an infantry goes, else a tank, else a spaceship".
fn default_unit(ready: UnitCounts) -> Option<UnitKind> {
    UnitKind::LOSS_ORDER.into_iter().find(|&k| ready.get(k) > 0)
}

/// The moves of `seat`: from every planet with ready spaceships to every
/// planet in range, every group of 1..=ships spaceships and 0..=infantry
/// ready infantry there (and 0..=tanks ready tanks when a card lets tanks
/// move). **Bound:** a move that claims is listed for the groups (1 ship),
/// (1 ship + all infantry), (all ships) and (all ships + all infantry)
/// only; [`decide`] accepts a claim with any group.
fn move_actions(state: &State, seat: Seat) -> Vec<Action> {
    let Some(turn) = state.turn.as_ref() else {
        return Vec::new();
    };
    let range = turn.move_range();
    let takes_tanks = turn.move_takes_tanks();
    let mut out = Vec::new();
    for from in Planet::ALL {
        let ready = state.ready_units(seat, from);
        if ready.spaceship == 0 {
            continue;
        }
        let max_tanks = if takes_tanks { ready.tank } else { 0 };
        for to in Planet::ALL {
            let d = from.distance(to);
            if d == 0 || d > range {
                continue;
            }
            for ships in 1..=ready.spaceship {
                for infantry in 0..=ready.infantry {
                    for tanks in 0..=max_tanks {
                        out.push(Action::Move {
                            from,
                            to,
                            ships,
                            infantry,
                            tanks,
                            claim: None,
                        });
                    }
                }
            }
            if d < range {
                let claims = claim_orders(state, seat, to, false);
                if claims.is_empty() {
                    continue;
                }
                let mut groups = vec![
                    (1, 0),
                    (1, ready.infantry),
                    (ready.spaceship, 0),
                    (ready.spaceship, ready.infantry),
                ];
                groups.dedup();
                groups.sort();
                groups.dedup();
                for (ships, infantry) in groups {
                    for c in &claims {
                        out.push(Action::Move {
                            from,
                            to,
                            ships,
                            infantry,
                            tanks: 0,
                            claim: Some(c.clone()),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Where a unit of `kind` may be bought for `seat`: infantry at Earth
/// only; tanks and spaceships at Earth or a planet with a factory of theirs.
fn buy_planets(state: &State, seat: Seat, kind: UnitKind) -> Vec<Planet> {
    let mut out = vec![HOME];
    if kind.placed_at_factories() {
        out.extend(
            Planet::ALL
                .into_iter()
                .filter(|&p| p != HOME && state.holdings(seat, p).factories > 0),
        );
    }
    out
}

/// Every buy of 1 up to the buy limit units `seat` can afford, as sorted
/// lists (each multiset once).
fn buy_actions(state: &State, seat: Seat) -> Vec<Action> {
    let Some(turn) = state.turn.as_ref() else {
        return Vec::new();
    };
    let options: Vec<Purchase> = UnitKind::ALL
        .into_iter()
        .flat_map(|kind| {
            buy_planets(state, seat, kind)
                .into_iter()
                .map(move |planet| Purchase { kind, planet })
        })
        .collect();
    let limit = turn.buy_limit() as usize;
    let mut out = Vec::new();
    let mut stack: Vec<Vec<usize>> = (0..options.len()).map(|i| vec![i]).collect();
    while let Some(picks) = stack.pop() {
        let units: Vec<Purchase> = picks.iter().filter_map(|&i| options.get(i).copied()).collect();
        if check_buy(state, seat, &units).is_err() {
            continue;
        }
        if picks.len() < limit {
            let last = picks.last().copied().unwrap_or(0);
            for next in last..options.len() {
                let mut more = picks.clone();
                more.push(next);
                stack.push(more);
            }
        }
        out.push(Action::Buy { units });
    }
    out.sort_by_key(|a| match a {
        Action::Buy { units } => (units.len(), units.clone()),
        _ => (0, Vec::new()),
    });
    out
}

/// The pays that cover the claim with no unit to spare (removing any one
/// unit would no longer pay): the smallest payments of each mix of types.
fn pay_actions(state: &State, seat: Seat) -> Vec<Action> {
    let Some(claim) = state.claim() else {
        return Vec::new();
    };
    let need = claim.cost().saturating_sub(claim.card_cp());
    let ready = state.ready_units(seat, claim.planet);
    let pays = |u: UnitCounts| u.total() >= 1 && u.cp() >= need;
    let mut out = Vec::new();
    for infantry in 0..=ready.infantry {
        for ships in 0..=ready.spaceship {
            for tanks in 0..=ready.tank {
                let units = UnitCounts::new(infantry, ships, tanks);
                let minimal = UnitKind::ALL
                    .iter()
                    .filter(|&&k| units.get(k) > 0)
                    .all(|&k| !pays(units.minus(UnitCounts::of(k, 1))));
                if pays(units) && minimal {
                    out.push(Action::Pay {
                        units,
                        lose: Vec::new(),
                    });
                }
            }
        }
    }
    out
}

/// Every legal action of `seat` now, deterministic and bounded. A seat
/// above the hand limit: its `discard`s (see [`play::discard_actions`]),
/// before anything else. On a turn: the moves (see `move_actions` for the
/// bound on moves that claim), the claims, the buys, the card plays (see
/// [`play::play_actions`] for the bound), and `pass` — or `end` instead of
/// `pass` for a Double Time's extra action (only `pass` past the round
/// limit). After a claim roll: the minimal `pay`s (see `pay_actions`),
/// `giveup`, and the claim Benefits and Free Actions in hand. After
/// Espionage: a `take` of each distinct card in the rival's hand.
/// `lose:` choices are not listed: the loss order applies; [`decide`]
/// accepts any valid `lose:`.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if let Some(s) = play::discard_owed(state) {
        return if s == seat {
            play::discard_actions(state, seat)
        } else {
            Vec::new()
        };
    }
    if state.phase == Some(Phase::Crises) {
        return crises::legal_actions(state, seat);
    }
    match owed(state) {
        Some((s, Owed::Turn)) if s == seat => {
            if state.passing_only() {
                return pass_actions(state);
            }
            let mut out = move_actions(state, seat);
            out.extend(claim_actions(state, seat));
            out.extend(buy_actions(state, seat));
            out.extend(play::play_actions(state, seat, Moment::Action));
            if extra_action(state) {
                out.push(Action::End);
            } else {
                out.extend(pass_actions(state));
            }
            out
        }
        Some((s, Owed::Pay)) if s == seat => {
            let mut out = pay_actions(state, seat);
            out.push(Action::GiveUp { lose: Vec::new() });
            out.extend(play::play_actions(state, seat, Moment::Pay));
            out
        }
        Some((s, Owed::Take(target))) if s == seat => play::take_actions(state, target),
        _ => Vec::new(),
    }
}

/// Whether the turn holder owes a Double Time's extra action (an action
/// was taken this turn and the turn goes on).
fn extra_action(state: &State) -> bool {
    state.turn.as_ref().is_some_and(|t| t.actions_taken >= 1)
}

fn pass_actions(state: &State) -> Vec<Action> {
    if state.cubes_left() > 0 {
        vec![Action::Pass]
    } else {
        Vec::new()
    }
}

fn claim_actions(state: &State, seat: Seat) -> Vec<Action> {
    Planet::ALL
        .into_iter()
        .filter(|&p| !state.ready_units(seat, p).is_empty())
        .flat_map(|p| claim_orders(state, seat, p, true))
        .map(Action::Claim)
        .collect()
}

// ---------------------------------------------------------------------------
// Deciding

/// The deadline default (*Missed deadlines*): `pass` on a turn (`end` for
/// a Double Time's extra action), `giveup` after a claim roll (casualties
/// by the loss order), the lowest card code for Espionage's `take`, the
/// most recently gained cards for a `discard`; in Phase 4 `power`
/// alone (no power used) and the loss order. `None` when `seat` owes nothing.
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    if state.is_over() {
        return None;
    }
    if let Some(s) = play::discard_owed(state) {
        return (s == seat).then(|| Action::Discard(play::default_discard(state, seat)));
    }
    if state.phase == Some(Phase::Crises) {
        return crises::default_action(state, seat);
    }
    match owed(state) {
        Some((s, Owed::Turn)) if s == seat && extra_action(state) => Some(Action::End),
        Some((s, Owed::Turn)) if s == seat => Some(Action::Pass),
        Some((s, Owed::Pay)) if s == seat => Some(Action::GiveUp { lose: Vec::new() }),
        Some((s, Owed::Take(target))) if s == seat => play::default_take(state, target).map(Action::Take),
        _ => None,
    }
}

pub(super) fn reject(reason: impl Into<String>, legal: &[Action]) -> Rejection {
    Rejection::illegal(reason, legal.iter().map(|a| unparse(a).to_string()).collect())
}

/// The scratch state and the events emitted so far.
pub(super) struct Out {
    pub(super) s: State,
    pub(super) ev: Vec<Event>,
}

impl Out {
    /// A scratch copy of `state`, no events yet.
    pub(super) fn new(state: &State) -> Out {
        Out {
            s: state.clone(),
            ev: Vec::new(),
        }
    }

    /// Applies `event` to the scratch state and records it.
    pub(super) fn emit(&mut self, event: Event) {
        apply(&mut self.s, &event);
        self.ev.push(event);
    }
}

/// Validate an action and turn it into events, with the automatic
/// follow-up up to the next decision (or the end of the phase).
pub fn decide(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if state.is_over() {
        return Err(Rejection::GameOver);
    }
    if let Some(s) = play::discard_owed(state) {
        if s != seat {
            let waiting = crate::waiting_seats(&pending(state));
            return Err(Rejection::NotYourDecision { seat, waiting });
        }
        return match action {
            Action::Discard(cards) => play::decide_discard(state, seat, cards),
            _ => Err(reject(
                format!(
                    "you hold {} cards, above the hand limit of 9: `discard` first",
                    state.hand_size(seat)
                ),
                &play::discard_actions(state, seat),
            )),
        };
    }
    if state.phase == Some(Phase::Crises) {
        return crises::decide(state, seat, action);
    }
    let owes = match owed(state) {
        Some((s, owes)) if s == seat => owes,
        _ => {
            let waiting = crate::waiting_seats(&pending(state));
            return Err(Rejection::NotYourDecision { seat, waiting });
        }
    };
    let mut out = Out {
        s: state.clone(),
        ev: Vec::new(),
    };
    match (owes, action) {
        (Owed::Turn, Action::Pass) if extra_action(state) => {
            return Err(reject(
                "a Double Time's extra action may not be `pass`: take another action, or `end` to skip it",
                &legal_actions(state, seat),
            ))
        }
        (Owed::Turn, Action::Pass) => pass(&mut out, seat)?,
        (Owed::Turn, Action::End) if extra_action(state) => end_turn(&mut out, seat),
        (Owed::Turn, Action::End) => {
            return Err(reject(
                "`end` only skips a Double Time's extra action: take your action",
                &legal_actions(state, seat),
            ))
        }
        (Owed::Turn, Action::Play(order)) => play::play(&mut out, seat, Moment::Action, order)?,
        (Owed::Pay, Action::Play(order)) => play::play(&mut out, seat, Moment::Pay, order)?,
        (Owed::Take(target), Action::Take(card)) => play::take(&mut out, seat, target, *card)?,
        (Owed::Take(target), _) => {
            return Err(reject(
                format!("Espionage: you owe `take card:NAME` from {target}'s hand"),
                &legal_actions(state, seat),
            ))
        }
        (Owed::Turn, Action::Move { .. } | Action::Claim(_) | Action::Buy { .. }) if state.passing_only() => {
            return Err(reject(
                format!(
                    "round {} is past the round limit ({}): `pass` is the only order now",
                    state.round, state.options.round_limit
                ),
                &legal_actions(state, seat),
            ))
        }
        (
            Owed::Turn,
            Action::Move {
                from,
                to,
                ships,
                infantry,
                tanks,
                claim,
            },
        ) => do_move(&mut out, seat, *from, *to, UnitCounts::new(*infantry, *ships, *tanks), claim.as_ref())?,
        (Owed::Turn, Action::Claim(order)) => {
            out.emit(Event::ActionTaken {
                seat,
                action: ActionKind::Claim,
            });
            let Some(planet) = tile_planet(state, order.tile) else {
                return Err(reject(format!("tile {} is not on the board", order.tile), &claim_actions(state, seat)));
            };
            do_claim(&mut out, seat, planet, order, &|| claim_actions(state, seat))?;
        }
        (Owed::Turn, Action::Buy { units }) => buy(&mut out, seat, units)?,
        (Owed::Pay, Action::Pay { units, lose }) => pay(&mut out, seat, *units, lose)?,
        (Owed::Pay, Action::GiveUp { lose }) => {
            let claim_planet = state.claim().map_or(HOME, |c| c.planet);
            fail_claim(&mut out, seat, claim_planet, lose)?;
        }
        (Owed::Turn, _) => {
            return Err(reject(
                "it is your turn: take one action (`move`, `claim`, `buy`, `play` an Action card, or `pass`); `pay` and `giveup` answer a claim roll",
                &legal_actions(state, seat),
            ))
        }
        (Owed::Pay, _) => {
            return Err(reject(
                "your claim was rolled: you owe `pay` or `giveup` now",
                &legal_actions(state, seat),
            ))
        }
    }
    Ok(out.ev)
}

/// Where a tile lies on the board.
fn tile_planet(state: &State, tile: TileRef) -> Option<Planet> {
    match tile {
        TileRef::Bag(id) => state.tile_planet(id),
        TileRef::Alien(a) => state.aliens.get(&a).copied(),
    }
}

fn do_move(
    out: &mut Out,
    seat: Seat,
    from: Planet,
    to: Planet,
    group: UnitCounts,
    claim: Option<&ClaimOrder>,
) -> Result<(), Rejection> {
    let state = out.s.clone();
    let from_here = |pred: &dyn Fn(&Action) -> bool| -> Vec<Action> {
        move_actions(&state, seat).into_iter().filter(|a| pred(a)).collect()
    };
    let moves = || move_actions(&state, seat);
    let (range, takes_tanks) = state
        .turn
        .as_ref()
        .map_or((0, false), |t| (t.move_range(), t.move_takes_tanks()));
    if group.spaceship == 0 {
        return Err(reject("a group is at least one spaceship: add `ships:N`", &moves()));
    }
    let ready = state.ready_units(seat, from);
    if group.tank > 0 && !takes_tanks {
        return Err(reject(
            "tanks never move unless a card says so (Heavy Lift, Rapid Deployment)",
            &from_here(&|a| matches!(a, Action::Move { from: f, claim: None, .. } if *f == from)),
        ));
    }
    if !ready.covers(group) {
        return Err(reject(
            format!("you have {ready} ready at {from}, not {group}: only ready units (in orbit) move"),
            &from_here(&|a| matches!(a, Action::Move { from: f, to: t, claim: None, .. } if *f == from && *t == to)),
        ));
    }
    let d = from.distance(to);
    if d == 0 {
        return Err(reject(format!("the group is already at {from}"), &moves()));
    }
    if d > range {
        return Err(reject(
            format!("{to} is {d} planets from {from}; a group moves 1 to {range}"),
            &from_here(
                &|a| matches!(a, Action::Move { from: f, claim: None, ships, infantry, .. } if *f == from && *ships == group.spaceship && *infantry == group.infantry),
            ),
        ));
    }
    if claim.is_some() && d >= range {
        return Err(reject(
            format!("the group used its full movement ({d} planets): only a move of less than {range} may claim"),
            &from_here(&|a| matches!(a, Action::Move { from: f, claim: Some(_), .. } if *f == from)),
        ));
    }
    out.emit(Event::ActionTaken {
        seat,
        action: ActionKind::Move,
    });
    out.emit(Event::UnitsMoved {
        seat,
        from,
        to,
        units: group,
    });
    match claim {
        Some(order) => {
            let legal = || {
                from_here(
                    &|a| matches!(a, Action::Move { from: f, to: t, claim: Some(_), .. } if *f == from && *t == to),
                )
            };
            do_claim(out, seat, to, order, &legal)
        }
        None => {
            action_done(out, seat, true);
            Ok(())
        }
    }
}

/// A claim of `order.tile` on `planet`, checked against the scratch state
/// (after a move's units arrived): undefended tiles are gained at once;
/// the others are declared and rolled, then the claimant owes `pay` (or
/// the claim fails at once when nothing could pay it).
fn do_claim(
    out: &mut Out,
    seat: Seat,
    planet: Planet,
    order: &ClaimOrder,
    legal: &dyn Fn() -> Vec<Action>,
) -> Result<(), Rejection> {
    claimable(&out.s, seat, planet, order).map_err(|reason| reject(reason, &legal()))?;
    let ready = out.s.ready_units(seat, planet);
    if ready.is_empty() {
        return Err(reject(
            format!("you have no ready unit in orbit of {planet}: a claim needs one"),
            &legal(),
        ));
    }
    let tile = order.tile;
    let defence = match (tile.defence(), order.target) {
        (Defence::Printed(v), _) => v,
        (Defence::DefenderUnits, Some(t)) => out.s.units_at(t.seat, planet).cp(),
        (Defence::DefenderUnits, None) => 0,
    };
    if tile.defence().is_undefended() {
        let Some(unit) = order.unit.or_else(|| default_unit(ready)) else {
            return Err(reject(format!("you have no ready unit at {planet}"), &legal()));
        };
        out.emit(Event::UnitsSpent {
            seat,
            planet,
            units: UnitCounts::of(unit, 1),
        });
        gain(out, seat, planet, tile, order.target);
        action_done(out, seat, true);
        return Ok(());
    }
    out.emit(Event::ClaimDeclared {
        seat,
        planet,
        tile,
        target: order.target,
        defence,
    });
    let mut rng = (*out.s.rng).clone();
    let dice = roll_dice(&mut rng);
    out.emit(Event::ClaimRolled {
        seat,
        dice,
        rng: Box::new(rng),
    });
    let cost = out.s.claim().map_or(0, |c| c.cost());
    // "If you hold no cards at all and your ready units there cannot reach
    // the cost, the claim fails at once without a prompt".
    if out.s.hand_size(seat) == 0 && ready.cp() < cost {
        fail_claim(out, seat, planet, &[])?;
    }
    Ok(())
}

/// What the claimed tile gives.
fn gain(out: &mut Out, seat: Seat, planet: Planet, tile: TileRef, target: Option<TensionTarget>) {
    match tile {
        TileRef::Alien(alien) => out.emit(Event::AlienDestroyed { seat, alien, planet }),
        TileRef::Bag(id) => {
            out.emit(Event::TileClaimed { seat, planet, tile: id });
            match id.kind().gain() {
                Gain::Piece(piece) => out.emit(Event::PieceGained { seat, planet, piece }),
                Gain::Money(amount) => out.emit(Event::MoneyGained {
                    seat,
                    amount,
                    reason: MoneyReason::Windfall,
                }),
                Gain::Cards(n) => draw(out, seat, n),
                Gain::Trophy { .. } => {}
                Gain::TakeOver => {
                    if let Some(t) = target {
                        out.emit(Event::PieceLost {
                            seat: t.seat,
                            planet,
                            piece: t.piece,
                        });
                        out.emit(Event::PieceGained {
                            seat,
                            planet,
                            piece: t.piece,
                        });
                    }
                }
            }
        }
    }
}

/// Draws `n` cards; "When a card must be drawn and the deck is empty, the
/// discard pile is shuffled into a new deck. If both are empty, the draw is
/// lost."
pub(super) fn draw(out: &mut Out, seat: Seat, n: u32) {
    let mut left = n as usize;
    while left > 0 {
        if out.s.deck.is_empty() {
            if out.s.discard.is_empty() {
                return;
            }
            let mut rng = (*out.s.rng).clone();
            let mut order = out.s.discard.clone();
            rng.shuffle(&mut order);
            out.emit(Event::DeckReshuffled {
                order,
                rng: Box::new(rng),
            });
        }
        let cards: Vec<CardId> = out.s.deck.iter().take(left).copied().collect();
        if cards.is_empty() {
            return;
        }
        left -= cards.len();
        out.emit(Event::CardsDrawn { seat, cards });
    }
}

/// The claim's casualties: one per skull (less what cards cancel), from
/// the claimant's units at the planet, by `lose` or by the loss order;
/// spent before ready within a type. `None` when nothing is lost.
fn casualties(state: &State, seat: Seat, planet: Planet, lose: &[UnitKind]) -> Result<Option<Event>, String> {
    let owed = state.claim().map_or(0, |c| c.casualties());
    let h = state.holdings(seat, planet);
    let n = owed.min(h.units().total());
    let order: Vec<UnitKind> = if lose.is_empty() {
        let mut left = n;
        let mut order = Vec::new();
        for kind in UnitKind::LOSS_ORDER {
            let take = left.min(h.units().get(kind));
            order.extend(std::iter::repeat_n(kind, take as usize));
            left -= take;
        }
        order
    } else if lose.len() as u32 != n {
        return Err(if n == 0 {
            "there are no casualties to choose: leave out `lose:`".to_string()
        } else {
            format!(
                "you lose {n} unit(s) at {planet}, so `lose:` names {n}, not {}",
                lose.len()
            )
        });
    } else {
        lose.to_vec()
    };
    let (mut ready, mut spent) = (UnitCounts::NONE, UnitCounts::NONE);
    for kind in order {
        if spent.get(kind) < h.surface.get(kind) {
            *spent.get_mut(kind) += 1;
        } else if ready.get(kind) < h.orbit.get(kind) {
            *ready.get_mut(kind) += 1;
        } else {
            return Err(format!("you have no more {kind} at {planet} to lose"));
        }
    }
    Ok((!ready.is_empty() || !spent.is_empty()).then_some(Event::UnitsLost {
        seat,
        planet,
        ready,
        spent,
    }))
}

/// Casualties, the claim's end and the turn's end.
fn finish_claim(
    out: &mut Out,
    seat: Seat,
    planet: Planet,
    lose: &[UnitKind],
    succeeded: bool,
    legal: &dyn Fn() -> Vec<Action>,
) -> Result<(), Rejection> {
    match casualties(&out.s, seat, planet, lose) {
        Ok(Some(lost)) => out.emit(lost),
        Ok(None) => {}
        Err(reason) => return Err(reject(reason, &legal())),
    }
    out.emit(Event::ClaimEnded { seat, succeeded });
    action_done(out, seat, succeeded);
    Ok(())
}

/// `giveup` (or a claim nothing could pay): no unit moves, the tile stays.
fn fail_claim(out: &mut Out, seat: Seat, planet: Planet, lose: &[UnitKind]) -> Result<(), Rejection> {
    let before = out.s.clone();
    finish_claim(out, seat, planet, lose, false, &|| legal_actions(&before, seat))
}

fn pay(out: &mut Out, seat: Seat, units: UnitCounts, lose: &[UnitKind]) -> Result<(), Rejection> {
    let state = out.s.clone();
    let Some(claim) = state.claim() else {
        return Err(reject("there is no claim to pay for", &[]));
    };
    let legal = || legal_actions(&state, seat);
    let planet = claim.planet;
    let ready = state.ready_units(seat, planet);
    if !ready.covers(units) {
        return Err(reject(
            format!("you have {ready} ready at {planet}, not {units}: only ready units pay"),
            &legal(),
        ));
    }
    if units.is_empty() {
        return Err(reject("at least one unit must move to the surface to pay", &legal()));
    }
    let need = claim.cost();
    let paid = units.cp().saturating_add(claim.card_cp());
    if paid < need {
        return Err(reject(
            format!("the claim costs {need} CP and {units} pay {paid} (infantry 1, ship 1, tank 2)"),
            &legal(),
        ));
    }
    out.emit(Event::UnitsSpent { seat, planet, units });
    gain(out, seat, planet, claim.tile, claim.target);
    finish_claim(out, seat, planet, lose, true, &legal)
}

/// Checks a buy: 1 to the limit units, allowed planets, counters in
/// supply, money. Returns the price.
fn check_buy(state: &State, seat: Seat, units: &[Purchase]) -> Result<u32, String> {
    let (limit, discount) = state
        .turn
        .as_ref()
        .map_or((0, 0), |t| (t.buy_limit(), t.buy_discount()));
    if units.is_empty() || units.len() as u32 > limit {
        return Err(format!("a buy is of 1 to {limit} units, not {}", units.len()));
    }
    for p in units {
        if !buy_planets(state, seat, p.kind).contains(&p.planet) {
            return Err(if p.kind.placed_at_factories() {
                format!(
                    "a {} is placed at Earth or where you have a factory, not {}",
                    p.kind, p.planet
                )
            } else {
                format!("infantry is placed in Earth orbit only, not at {}", p.planet)
            });
        }
    }
    for kind in UnitKind::ALL {
        let want = units.iter().filter(|p| p.kind == kind).count() as u32;
        let have = state.units_in_supply(seat, kind);
        if want > have {
            return Err(format!("you have {have} {kind} counter(s) in your supply, not {want}"));
        }
    }
    let price = units
        .iter()
        .map(|p| p.kind.price().saturating_sub(discount))
        .fold(0, u32::saturating_add);
    let money = state.money(seat);
    if price > money {
        return Err(format!("the units cost £{price} and you have £{money}"));
    }
    Ok(price)
}

fn buy(out: &mut Out, seat: Seat, units: &[Purchase]) -> Result<(), Rejection> {
    let price = check_buy(&out.s, seat, units).map_err(|reason| reject(reason, &buy_actions(&out.s, seat)))?;
    out.emit(Event::ActionTaken {
        seat,
        action: ActionKind::Buy,
    });
    if price > 0 {
        out.emit(Event::MoneyPaid {
            seat,
            amount: price,
            reason: MoneyReason::Purchase,
        });
    }
    let mut planets: Vec<Planet> = Vec::new();
    for p in units {
        if !planets.contains(&p.planet) {
            planets.push(p.planet);
        }
    }
    for planet in planets {
        let mut placed = UnitCounts::NONE;
        for p in units.iter().filter(|p| p.planet == planet) {
            *placed.get_mut(p.kind) += 1;
        }
        out.emit(Event::UnitsPlaced {
            seat,
            planet,
            units: placed,
        });
    }
    action_done(out, seat, true);
    Ok(())
}

/// `pass`: a cube and a card; the last cube takes the First Player marker
/// and ends the phase.
fn pass(out: &mut Out, seat: Seat) -> Result<(), Rejection> {
    if out.s.cubes_left() == 0 {
        return Err(reject("no Pass cube is left", &[]));
    }
    out.emit(Event::ActionTaken {
        seat,
        action: ActionKind::Pass,
    });
    out.emit(Event::Passed { seat });
    draw(out, seat, PASS_DRAW);
    if out.s.cubes_left() == 0 {
        out.emit(Event::FirstPlayerMarkerTaken { seat });
        out.emit(Event::PhaseBegan { phase: Phase::Crises });
        crises::run(out);
    } else {
        action_done(out, seat, true);
    }
    Ok(())
}

/// An action is finished: the turn goes on when a Double Time's extra
/// action is owed ("If your action was a failed claim, or took the last
/// Pass cube, the extra action is lost"), else it ends.
pub(super) fn action_done(out: &mut Out, seat: Seat, succeeded: bool) {
    let more = succeeded
        && out
            .s
            .turn
            .as_ref()
            .is_some_and(|t| t.seat == seat && t.actions_taken < t.actions_allowed());
    if !more {
        end_turn(out, seat);
    }
}

/// The turn ends: the next seat clockwise begins its turn; when that is
/// the First Player, a round begins first (and from round 2 on, the
/// aliens advance, which may end the game).
fn end_turn(out: &mut Out, seat: Seat) {
    let next = out.s.next_seat(seat);
    if Some(next) == out.s.first_player {
        let round = out.s.round.saturating_add(1);
        out.emit(Event::RoundBegan { round });
        if round >= 2 && advance_aliens(out) {
            return;
        }
    }
    out.emit(Event::TurnBegan { seat: next });
}

/// "each Alien tile on the board moves one planet along the path, the one
/// nearest Earth first", not into a cleared planet or one with another
/// Alien tile; entering a planet wipes it; reaching Earth ends the game
/// with everyone losing (returns `true`).
fn advance_aliens(out: &mut Out) -> bool {
    let mut aliens: Vec<_> = out.s.aliens.iter().map(|(&a, &p)| (a, p)).collect();
    let step = |p: Planet| ALIEN_PATH.iter().position(|&q| q == p).unwrap_or(0);
    aliens.sort_by_key(|&(a, p)| (std::cmp::Reverse(step(p)), a));
    for (alien, _) in aliens {
        let Some(&at) = out.s.aliens.get(&alien) else {
            continue;
        };
        let Some(next) = at.alien_next() else {
            continue;
        };
        if next == HOME {
            out.emit(Event::GameEnded {
                outcome: Outcome::AllLose {
                    reason: format!("Alien tile {alien} reached Earth"),
                },
                vp: Vec::new(),
            });
            return true;
        }
        if out.s.is_cleared(next) || out.s.alien_at(next).is_some() {
            continue;
        }
        out.emit(Event::AlienMoved {
            alien,
            from: at,
            to: next,
        });
        out.emit(Event::PlanetWiped { planet: next });
    }
    false
}

#[cfg(test)]
mod tests;
