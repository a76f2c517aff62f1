//! What one viewer may see of a game of Solar Crisis, its events in words,
//! and where the game is (`docs/rules/solar.md`, *Hidden information*).
//!
//! Everything that leaves the engine is built here, for one [`Viewer`]:
//!
//! - **Public** (every viewer): the board (face-up tiles with their defence
//!   and skull mark, crisis dice and levels, flipped and cleared planets,
//!   Alien tiles), every colour's units, pieces, money, kept tiles, Pass
//!   cubes and **hand size**, the First Player, period, phase, round and
//!   turn, the discard pile, what is left in the bag (as a sorted set and a
//!   count per type: every drawn tile was seen), the deck's size, the claim
//!   in progress with its dice, crisis losses owed, the outcome and VP.
//! - **A seat's own**: its hand, in order; and, while that seat's Espionage
//!   is being resolved, the target's hand (sorted, so the order it was
//!   gained in stays hidden).
//! - **Nobody's**: the order of the bag and of the deck, the cards in the
//!   deck, the generator and the seed (which would give both orders away).
//!
//! [`narrate`] tells each event as the viewer may learn it: a card drawn,
//! dealt, taken or stolen is named to the players involved only; shuffles
//! say nothing about the order; nothing prints the generator.

use super::basics::board::{Phase, Piece, Planet, UnitKind};
use super::basics::cards::CardId;
use super::basics::tiles::{AlienTile, Defence, TileId, TileKind, TileRef};
use super::events::{Event, MoneyReason};
use super::rules;
use super::rules::crises;
use super::state::{
    dice_total, Claim, Dice, Holdings, LossDemand, LossKind, MercuryOffer, Options, State, TensionTarget, UnitCounts,
};
use crate::shared::menu::and_list;
use orrery_engine::{Outcome, PhaseInfo, Seat, Viewer};
use serde::Serialize;
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// The view

/// A face-up bag tile on the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TileView {
    /// The tile's number (`tile:12`).
    pub id: TileId,
    pub kind: TileKind,
    pub defence: Defence,
    /// Skull-marked Crisis tiles take the crisis dice's skulls.
    pub skull: bool,
    /// Crisis dice on the tile (Phase 4).
    pub crisis_dice: u32,
}

impl TileView {
    fn of(state: &State, id: TileId) -> TileView {
        TileView {
            id,
            kind: id.kind(),
            defence: id.defence(),
            skull: id.skull_marked(),
            crisis_dice: state.crisis_dice.get(&id).copied().unwrap_or(0),
        }
    }
}

/// One planet as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlanetView {
    pub planet: Planet,
    /// Face-up bag tiles, by number.
    pub tiles: Vec<TileView>,
    /// The crisis level as the board stands (Crisis tiles + dice on them).
    pub crisis_level: u32,
    /// Flipped by a level-4+ crisis, for the rest of the game.
    pub flipped: bool,
    /// An alien was destroyed here.
    pub cleared: bool,
    /// The Alien tile here, if any.
    pub alien: Option<AlienTile>,
}

/// One colour as shown. Only the hand's size is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    /// Money (public).
    pub money: u32,
    /// Cards in hand (public).
    pub hand_size: u32,
    /// The hand itself, oldest gain first: only in the seat's own view.
    pub hand: Option<Vec<CardId>>,
    /// Units, mines and factories per planet (planets with nothing left out).
    pub planets: BTreeMap<Planet, Holdings>,
    /// Units on the board per type.
    pub units: UnitCounts,
    /// Kept Big Game, Crisis and Alien tiles.
    pub kept: Vec<TileRef>,
    /// Pass cubes taken this period.
    pub cubes_taken: u32,
    /// The income Phase 5 would pay now.
    pub income: u32,
    /// VP as the board stands now (the final VP once the game is scored).
    pub vp: u32,
    /// Left the game by resigning.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

/// What is left in the bag: its contents, never its order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BagView {
    /// Tiles left.
    pub count: u32,
    /// The tiles left, by number (every drawn tile was seen face up).
    pub tiles: Vec<TileId>,
    /// Tiles left per type, in the page's order (types with none left out).
    pub by_kind: Vec<(TileKind, u32)>,
}

/// The turn in progress (Phase 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnView {
    pub seat: Seat,
    /// Actions taken this turn.
    pub actions_taken: u32,
    /// Actions this turn allows (1, plus one per Double Time).
    pub actions_allowed: u32,
    /// Cards played this turn, in order (played cards are public).
    pub played: Vec<CardId>,
    /// Move Benefits waiting for the next Move.
    pub move_benefits: Vec<CardId>,
    /// Buy Benefits waiting for the next Buy.
    pub buy_benefits: Vec<CardId>,
    /// The rolled claim in progress (its dice are public).
    pub claim: Option<ClaimView>,
    /// Espionage: the rival whose hand the player is looking at.
    pub espionage: Option<Seat>,
}

/// A rolled claim in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClaimView {
    pub seat: Seat,
    pub planet: Planet,
    pub tile: TileRef,
    /// A Tension claim's target.
    pub target: Option<TensionTarget>,
    /// The defence as declared.
    pub defence: u32,
    /// The defence that counts (Infiltrators halve it).
    pub effective_defence: u32,
    /// The dice, once rolled.
    pub dice: Option<Dice>,
    /// Claim Benefits played for it.
    pub cards: Vec<CardId>,
    /// The cost in CP, less what the cards add.
    pub cost: u32,
    /// Casualties the dice will cost.
    pub casualties: u32,
}

impl ClaimView {
    fn of(claim: &Claim) -> ClaimView {
        ClaimView {
            seat: claim.seat,
            planet: claim.planet,
            tile: claim.tile,
            target: claim.target,
            defence: claim.defence,
            effective_defence: claim.effective_defence(),
            dice: claim.dice,
            cards: claim.cards.clone(),
            cost: claim.cost().saturating_sub(claim.card_cp()),
            casualties: claim.casualties(),
        }
    }
}

/// A decision owed. The prompt is the owing seat's only (prompts may one
/// day quote a hand); what is owed is public through `kind` and the
/// state's public fields (losses, Mercury's offer, the claim).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingView {
    pub seat: Seat,
    /// "turn", "pay", "power", "lose"...
    pub kind: String,
    /// What the seat is asked: in the seat's own view only.
    pub prompt: Option<String>,
}

/// Espionage, as the spy sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EspionageView {
    /// Whose hand it is.
    pub target: Seat,
    /// The target's hand, sorted (the order it was gained in stays hidden).
    pub hand: Vec<CardId>,
}

/// Everything `viewer` may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub viewer: Viewer,
    pub players: u8,
    pub options: Options,
    /// 0 during set-up, then 1 to 3.
    pub period: u32,
    pub phase: Option<Phase>,
    /// The round of the Player Actions phase (0 before its first turn).
    pub round: u32,
    pub first_player: Option<Seat>,
    pub turn: Option<TurnView>,
    /// Every planet, in planet order.
    pub planets: Vec<PlanetView>,
    pub seats: Vec<SeatView>,
    pub bag: BagView,
    /// Cards in the deck (never which, nor their order).
    pub deck_size: u32,
    /// The discard pile, face up, oldest first.
    pub discard: Vec<CardId>,
    /// Bag tiles that left the game, in the order they left.
    pub discarded_tiles: Vec<TileId>,
    /// The invasion has happened.
    pub invaded: bool,
    /// Pass cubes left on the Pass card.
    pub pass_cubes: u32,
    /// The crisis levels set in Phase 4.
    pub crisis_levels: BTreeMap<Planet, u32>,
    /// The planet whose crisis is being resolved.
    pub crisis: Option<Planet>,
    /// Mercury's powers, offered and not yet used or declined.
    pub mercury: Option<MercuryOffer>,
    /// Crisis losses still to be chosen.
    pub losses: Vec<LossDemand>,
    /// Who owes what now.
    pub pending: Vec<PendingView>,
    /// The viewer's Espionage look at a rival's hand, while it lasts.
    pub espionage: Option<EspionageView>,
    pub outcome: Option<Outcome>,
    /// Final VP per seat once scored (empty before, and when everyone lost).
    pub final_vp: Vec<u32>,
}

/// What `viewer` may see of `state`.
pub fn view(state: &State, viewer: Viewer) -> View {
    let live_vp = crises::score(state);
    let planets = Planet::ALL
        .into_iter()
        .map(|planet| {
            let p = state.planet(planet);
            PlanetView {
                planet,
                tiles: p.tiles.iter().map(|&t| TileView::of(state, t)).collect(),
                crisis_level: state.crisis_level(planet),
                flipped: p.flipped,
                cleared: p.cleared,
                alien: state.alien_at(planet),
            }
        })
        .collect();
    let seats = state
        .seat_ids()
        .zip(&state.seats)
        .map(|(seat, s)| SeatView {
            seat,
            money: s.money,
            hand_size: state.hand_size(seat),
            hand: viewer.sees_secrets_of(seat).then(|| s.hand.clone()),
            planets: s.planets.clone(),
            units: UnitCounts::new(
                s.units_on_board(UnitKind::Infantry),
                s.units_on_board(UnitKind::Spaceship),
                s.units_on_board(UnitKind::Tank),
            ),
            kept: s.kept.clone(),
            cubes_taken: s.cubes_taken,
            income: state.income(seat),
            vp: state
                .final_vp
                .get(seat.index())
                .or_else(|| live_vp.get(seat.index()))
                .copied()
                .unwrap_or(0),
            resigned: state.has_resigned(seat),
        })
        .collect();
    let turn = state.turn.as_ref().map(|t| TurnView {
        seat: t.seat,
        actions_taken: t.actions_taken,
        actions_allowed: t.actions_allowed(),
        played: t.played.clone(),
        move_benefits: t.move_benefits.clone(),
        buy_benefits: t.buy_benefits.clone(),
        claim: t.claim.as_ref().map(ClaimView::of),
        espionage: t.espionage,
    });
    let espionage = state
        .turn
        .as_ref()
        .filter(|t| viewer.sees_secrets_of(t.seat))
        .and_then(|t| t.espionage)
        .map(|target| {
            let mut hand = state.seat(target).map(|s| s.hand.clone()).unwrap_or_default();
            hand.sort();
            EspionageView { target, hand }
        });
    let pending = rules::pending(state)
        .into_iter()
        .map(|p| PendingView {
            seat: p.seat,
            prompt: viewer.sees_secrets_of(p.seat).then_some(p.prompt),
            kind: p.kind,
        })
        .collect();
    View {
        viewer,
        players: state.players,
        options: state.options.clone(),
        period: state.period,
        phase: state.phase,
        round: state.round,
        first_player: state.first_player,
        turn,
        planets,
        seats,
        bag: bag_view(&state.bag),
        deck_size: count(state.deck.len()),
        discard: state.discard.clone(),
        discarded_tiles: state.discarded_tiles.clone(),
        invaded: state.invaded,
        pass_cubes: state.pass_cubes,
        crisis_levels: state.crisis_levels.clone(),
        crisis: state.crisis,
        mercury: state.mercury,
        losses: state.losses.clone(),
        pending,
        espionage,
        outcome: state.outcome.clone(),
        final_vp: state.final_vp.clone(),
    }
}

/// The bag's contents, sorted: nothing of its order.
fn bag_view(bag: &[TileId]) -> BagView {
    let mut tiles = bag.to_vec();
    tiles.sort();
    let by_kind = TileKind::IN_BAG
        .into_iter()
        .map(|k| (k, count(tiles.iter().filter(|t| t.kind() == k).count())))
        .filter(|&(_, n)| n > 0)
        .collect();
    BagView {
        count: count(tiles.len()),
        tiles,
        by_kind,
    }
}

/// A length as a count (saturating; a game never comes near).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------------------
// Where the game is

/// Where the game is: "Setting up", "Period 2 · Player actions · Round 3",
/// "Period 1 · Crises · Mars", "Game over". No names, and no turn holder. `number` counts the boundaries passed
/// (every phase and every round of player actions begun, and the end of
/// the game), so a board is posted at each.
pub fn phase(state: &State) -> PhaseInfo {
    let number = state.boundaries;
    if state.is_over() {
        let label = if state.period == 0 {
            "Game over".to_string()
        } else {
            format!("Period {} · Game over", state.period)
        };
        return PhaseInfo {
            number,
            label,
            turn: None,
        };
    }
    let label = match (state.period, state.phase) {
        (0, _) => "Setting up".to_string(),
        (period, None) => format!("Period {period}"),
        (period, Some(Phase::PlayerActions)) if state.round > 0 => {
            format!("Period {period} · {} · Round {}", Phase::PlayerActions, state.round)
        }
        (period, Some(Phase::Crises)) => match state.crisis {
            Some(planet) => format!("Period {period} · {} · {planet}", Phase::Crises),
            None => format!("Period {period} · {}", Phase::Crises),
        },
        (period, Some(p)) => format!("Period {period} · {p}"),
    };
    // No turn holder: turns pass within a round without a new phase, so a
    // phase post's header would soon name the wrong player (its footer
    // names whom the game waits on).
    PhaseInfo {
        number,
        label,
        turn: None,
    }
}

// ---------------------------------------------------------------------------
// Narration

/// The seat's name, or "seat N" when the slice lacks it.
fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

/// "Mercenaries and Trade Deal".
fn card_list(cards: &[CardId]) -> String {
    let names: Vec<String> = cards.iter().map(|c| c.name().to_string()).collect();
    and_list(&names)
}

/// "1 card", "2 cards".
fn cards(n: usize) -> String {
    if n == 1 {
        "1 card".into()
    } else {
        format!("{n} cards")
    }
}

/// "#12 (Mine)".
fn tile_text(tile: TileRef) -> String {
    match tile {
        TileRef::Bag(id) => format!("{id} ({})", id.kind()),
        TileRef::Alien(alien) => format!("Alien tile {alien}"),
    }
}

/// "#12 (Mine, defence 3)", "#50 (Tension)", "#40 (Crisis, defence 1, skull)".
fn placed_tile_text(id: TileId) -> String {
    let mut text = format!("{id} ({}", id.kind());
    if let Defence::Printed(d) = id.defence() {
        text.push_str(&format!(", defence {d}"));
    }
    if id.skull_marked() {
        text.push_str(", skull");
    }
    text.push(')');
    text
}

/// "3, 5, skull".
fn dice_text(dice: &Dice) -> String {
    dice.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

/// "a mine", "a factory".
fn a_piece(piece: Piece) -> String {
    format!("a {piece}")
}

/// Why money moved, as a parenthesis: " (Windfall)", "".
fn money_reason(reason: MoneyReason) -> String {
    match reason {
        MoneyReason::SetUp => String::new(),
        MoneyReason::Windfall => " (Windfall)".into(),
        MoneyReason::Card(card) => format!(" ({card})"),
        MoneyReason::Purchase => " (units bought)".into(),
        MoneyReason::MercuryPower => " (Mercury's power)".into(),
        MoneyReason::Pirates => " (Space Pirates!)".into(),
    }
}

/// How a seat learns of a card moving between two hands: named to the two
/// players involved, "a card" to everyone else.
fn card_moved(viewer: Viewer, names: &[String], seat: Seat, from: Seat, card: CardId, how: &str) -> String {
    let nm = |s: Seat| name(names, s);
    if viewer.sees_secrets_of(seat) {
        format!("You {how} {card} from {}.", nm(from))
    } else if viewer.sees_secrets_of(from) {
        format!("{} {how} {card} from you.", nm(seat))
    } else {
        format!("{} {how} a card from {}.", nm(seat), nm(from))
    }
}

/// One sentence per event, as `viewer` may learn of it; `None` for
/// internal events the viewer learns nothing from. Hands are named only to
/// their owners (and a taken card to the two players involved); shuffles
/// say nothing of the order; nothing prints the generator or the seed.
pub fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let nm = |s: Seat| name(names, s);
    Some(match event {
        Event::GameSetUp { players, options, .. } => format!(
            "A game of Solar Crisis for {players} players began (round limit {}{}).",
            options.round_limit,
            if options.auto_losses {
                ", crisis losses by the loss order"
            } else {
                ""
            }
        ),
        Event::DeckShuffled { order, .. } => format!("The deck of {} was shuffled.", cards(order.len())),
        Event::BagShuffled { order, .. } => format!("The {} tiles went into the bag.", order.len()),
        Event::CardsDealt { seat, cards: dealt } => {
            if viewer.sees_secrets_of(*seat) {
                format!("You were dealt {}.", card_list(dealt))
            } else {
                format!("{} was dealt {}.", nm(*seat), cards(dealt.len()))
            }
        }
        Event::FirstPlayerRolled { rolls, .. } => {
            let rolls: Vec<String> = rolls
                .iter()
                .map(|r| format!("{} {} ({})", nm(r.seat), dice_text(&r.dice), dice_total(&r.dice)))
                .collect();
            format!("Rolls for the First Player marker: {}.", rolls.join("; "))
        }
        Event::FirstPlayerMarkerTaken { seat } => format!("{} took the First Player marker.", nm(*seat)),
        Event::PeriodBegan { period } => format!("Period {period} began."),
        Event::PhaseBegan { phase } => format!("Phase {}: {phase}.", phase.number()),
        Event::PassCubesPlaced { cubes } => format!("{cubes} Pass cubes were put on the Pass card."),
        Event::TilesDiscarded { planet, tiles } => {
            let tiles: Vec<String> = tiles.iter().map(|&t| tile_text(TileRef::Bag(t))).collect();
            format!("Discarded from {planet}: {}.", and_list(&tiles))
        }
        Event::TilesDrawn { planet, tiles } => {
            let tiles: Vec<String> = tiles.iter().map(|&t| placed_tile_text(t)).collect();
            format!("Tiles placed on {planet}: {}.", and_list(&tiles))
        }
        Event::RoundBegan { round } => format!("Round {round} began."),
        Event::TurnBegan { seat } => format!("{}'s turn.", nm(*seat)),
        Event::ActionTaken { .. } => return None,
        Event::Passed { seat } => format!("{} passed and took a Pass cube.", nm(*seat)),
        Event::PassCubeReturned { seat, from } => {
            if seat == from {
                format!("{} put one of their Pass cubes back on the Pass card.", nm(*seat))
            } else {
                format!(
                    "{} put one of {}'s Pass cubes back on the Pass card.",
                    nm(*seat),
                    nm(*from)
                )
            }
        }
        Event::CardsDrawn { seat, cards: drawn } => {
            if viewer.sees_secrets_of(*seat) {
                format!("You drew {}.", card_list(drawn))
            } else {
                format!("{} drew {}.", nm(*seat), cards(drawn.len()))
            }
        }
        Event::DeckReshuffled { order, .. } => {
            format!(
                "The discard pile ({}) was shuffled into a new deck.",
                cards(order.len())
            )
        }
        Event::CardPlayed { seat, card } => format!("{} played {card}.", nm(*seat)),
        Event::CardsDiscarded { seat, cards: gone } => {
            format!("{} discarded {}.", nm(*seat), card_list(gone))
        }
        Event::HandRevealed { seat, target } => {
            if viewer.sees_secrets_of(*seat) {
                format!("You look at {}'s hand.", nm(*target))
            } else if viewer.sees_secrets_of(*target) {
                format!("{} looks at your hand.", nm(*seat))
            } else {
                format!("{} looks at {}'s hand.", nm(*seat), nm(*target))
            }
        }
        Event::CardTaken { seat, from, card } => card_moved(viewer, names, *seat, *from, *card, "took"),
        Event::CardStolen { seat, from, card, .. } => card_moved(viewer, names, *seat, *from, *card, "stole at random"),
        Event::MoneyGained { seat, amount, reason } => {
            format!("{} took £{amount}{}.", nm(*seat), money_reason(*reason))
        }
        Event::MoneyPaid { seat, amount, reason } => match reason {
            MoneyReason::Pirates => format!("{} lost £{amount} to Space Pirates!", nm(*seat)),
            _ => format!("{} paid £{amount}{}.", nm(*seat), money_reason(*reason)),
        },
        Event::UnitsPlaced { seat, planet, units } => format!("{} placed {units} at {planet}.", nm(*seat)),
        Event::UnitsMoved { seat, from, to, units } => {
            format!("{} moved {units} from {from} to {to}.", nm(*seat))
        }
        Event::UnitsSpent { seat, planet, units } => {
            format!("{} sent {units} to the surface of {planet}.", nm(*seat))
        }
        Event::UnitsLost {
            seat,
            planet,
            ready,
            spent,
        } => format!("{} lost {} at {planet}.", nm(*seat), ready.plus(*spent)),
        Event::UnitsReturnedToOrbit => "Every unit on a surface went back into orbit.".to_string(),
        Event::PieceGained { seat, planet, piece } => {
            format!("{} put {} on {planet}.", nm(*seat), a_piece(*piece))
        }
        Event::PieceLost { seat, planet, piece } => format!("{} lost {} on {planet}.", nm(*seat), a_piece(*piece)),
        Event::ClaimDeclared {
            seat,
            planet,
            tile,
            target,
            defence,
        } => match target {
            Some(t) => format!(
                "{} claims {} at {planet} against {}'s {} (defence {defence}).",
                nm(*seat),
                tile_text(*tile),
                nm(t.seat),
                t.piece
            ),
            None => format!(
                "{} claims {} at {planet} (defence {defence}).",
                nm(*seat),
                tile_text(*tile)
            ),
        },
        Event::ClaimRolled { seat, dice, .. } => format!("{} rolled {}.", nm(*seat), dice_text(dice)),
        Event::DieRerolled { seat, die, value, .. } => format!("{} rerolled die {die}: {value}.", nm(*seat)),
        Event::TileClaimed { seat, planet, tile } => {
            format!("{} claimed {} at {planet}.", nm(*seat), tile_text(TileRef::Bag(*tile)))
        }
        Event::AlienDestroyed { seat, alien, planet } => {
            format!("{} destroyed Alien tile {alien} at {planet}!", nm(*seat))
        }
        Event::ClaimEnded { seat, succeeded } => {
            if *succeeded {
                return None;
            }
            format!("{} gave up the claim.", nm(*seat))
        }
        Event::TileMoved { tile, from, to } => {
            format!("{} moved from {from} to {to}.", tile_text(TileRef::Bag(*tile)))
        }
        Event::CrisisRolled { dice, .. } => format!("The crisis dice: {}.", dice_text(dice)),
        Event::CrisisDicePlaced { tiles } => {
            if tiles.is_empty() {
                return None;
            }
            let tiles: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
            format!("Crisis dice went on {}.", and_list(&tiles))
        }
        Event::CrisisLevelsSet { levels } => {
            let levels: Vec<String> = levels
                .iter()
                .filter(|(_, &l)| l > 0)
                .map(|(p, l)| format!("{p} {l}"))
                .collect();
            if levels.is_empty() {
                "No planet is in crisis.".to_string()
            } else {
                format!("Crisis levels: {}.", levels.join(", "))
            }
        }
        Event::CrisisResolving { planet, level } => format!("{planet}'s crisis, level {level}."),
        Event::MercuryPowersOffered { seat, level } => {
            format!("{} leads Mercury and may use its powers (level {level}).", nm(*seat))
        }
        Event::MercuryPowersEnded { seat } => format!("{} is done with Mercury's powers.", nm(*seat)),
        Event::LossesDemanded { demands } => {
            let owed: Vec<String> = demands
                .iter()
                .map(|d| {
                    let what = match d.kind {
                        LossKind::UnitsThenPieces => "units (or pieces)",
                        LossKind::Pieces => "mines or factories",
                    };
                    format!("{} {} {what}", nm(d.seat), d.count)
                })
                .collect();
            format!("Losses owed: {}.", and_list(&owed))
        }
        Event::LossesTaken { .. } => return None,
        Event::DamageRolled {
            planet, dice, damage, ..
        } => format!(
            "{planet}'s fall damages Earth: rolled {}, {damage} damage.",
            dice_text(dice)
        ),
        Event::PlanetWiped { planet } => format!("Everything on {planet} was removed."),
        Event::PlanetOverrun { planet } => {
            format!("The aliens overran {planet}: every unit, mine and factory there was removed; its tiles stay.")
        }
        Event::PlanetFlipped { planet } => format!("{planet} flipped for the rest of the game."),
        Event::AlienPlaced { alien, planet } => format!("The aliens invade: Alien tile {alien} landed on {planet}."),
        Event::AlienMoved { alien, from, to } => format!("Alien tile {alien} advanced from {from} to {to}."),
        Event::CrisisDiceReturned => return None,
        Event::IncomePaid { seat, amount } => format!("{} earned £{amount} income.", nm(*seat)),
        Event::PeriodEnded { period } => format!("Period {period} ended."),
        Event::Resigned { seat, hand } => {
            let (own, deck): (Vec<CardId>, Vec<CardId>) = hand.iter().partition(|c| c.is_own());
            let mut parts = Vec::new();
            if !deck.is_empty() {
                parts.push(format!("{} to the discard pile", card_list(&deck)));
            }
            if !own.is_empty() {
                parts.push(format!("{} out of the game", card_list(&own)));
            }
            let hand = if parts.is_empty() {
                String::new()
            } else {
                format!("; their hand goes face up: {}", parts.join(", "))
            };
            format!(
                "🏳️ {} resigned and leaves the game: their units, mines and factories are removed from the board{hand}. They take no more turns and cannot win.",
                nm(*seat)
            )
        }
        Event::GameEnded { outcome, vp } => {
            let vp_text = if vp.is_empty() {
                String::new()
            } else {
                let scores: Vec<String> = vp
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("{} {v}", nm(Seat(u8::try_from(i).unwrap_or(u8::MAX)))))
                    .collect();
                format!(" VP: {}.", scores.join(", "))
            };
            match outcome {
                Outcome::Winner { seat, reason } => format!("Game over: {} wins ({reason}).{vp_text}", nm(*seat)),
                Outcome::Shared { seats, reason } => {
                    let winners: Vec<String> = seats.iter().map(|&s| nm(s)).collect();
                    format!(
                        "Game over: {} share the victory ({reason}).{vp_text}",
                        and_list(&winners)
                    )
                }
                Outcome::AllLose { reason } => format!("Game over: everyone loses ({reason}).{vp_text}"),
            }
        }
    })
}

#[cfg(test)]
mod tests;
