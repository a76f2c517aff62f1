//! The cards (`docs/rules/solar.md`: *Your turn*, *Cards*, *The deck*,
//! *Your own cards*, *Missed deadlines*, *Order reference*): the order
//! `play card:NAME [options]` for every deck card and own card, Double
//! Time's extra actions and `end`, Espionage's `take card:NAME`, and the
//! hand limit's `discard cards:LIST`.
//!
//! [`crate::solar::orders`] owns the [`Action`] type and [`super`] hands
//! the card orders to this part:
//!
//! - **When a card may be played** ([`check_play`]): only on one's own turn
//!   of Phase 3 and never past the round limit. An *Action* card is the
//!   turn's action (or a Double Time's extra action); a *Free Action* may be
//!   played before the action or while owing a claim's `pay`; a *claim
//!   Benefit* only while owing `pay`; a *Move* or *Buy Benefit* only before
//!   an action (it waits in the turn state for the next Move or Buy). No
//!   card is played while an Espionage pick is owed. A card's conditions
//!   are checked when it is played.
//! - **Double Time**: the turn holder owes one more action per Double
//!   Time played, after any action that did not fail a claim or take the
//!   last Pass cube; the extra action may not be `pass`, and `end` skips it
//!   (the deadline default). See [`super::turn`]'s `action_done`.
//! - **Espionage**: playing it reveals the rival's hand and the spy owes
//!   `take card:NAME` (decision kind `take`; default: the lowest card code).
//! - **The hand limit**: whenever a seat holds more than 9 cards (after a
//!   pass draw, a Draw Two Cards tile, Intelligence Report, Espionage or
//!   Mercury's steal), it owes `discard cards:LIST` of exactly the excess
//!   (decision kind `discard`; default: the most recently gained cards,
//!   the last one first). A discard owed blocks every other decision until
//!   it is made, so it happens "at once" as far as any player can act. In
//!   Phase 4 the crisis run has already gone on to its next decision when
//!   the steal's discard is asked; nothing in the run depends on hands.

use super::turn::action_done;
use super::{draw, reject, Out};
use crate::solar::basics::board::{Phase, Piece, Planet, UnitKind, HOME};
use crate::solar::basics::cards::{CardId, CardKind, Timing};
use crate::solar::basics::tiles::{TileId, TileKind};
use crate::solar::events::{ActionKind, Event, MoneyReason};
use crate::solar::orders::cards::PlayOrder;
use crate::solar::orders::Action;
use crate::solar::state::{Die, State, UnitCounts};
use orrery_engine::{Pending, Rejection, Seat};

// ---------------------------------------------------------------------------
// The hand limit

/// The first seat (in seat order) holding more than 9 cards: it owes a
/// `discard` before anything else happens.
pub fn discard_owed(state: &State) -> Option<Seat> {
    if state.is_over() {
        return None;
    }
    state.seat_ids().find(|&s| state.over_hand_limit(s) > 0)
}

/// The `discard` decision, if one is owed.
pub fn discard_pending(state: &State) -> Option<Pending> {
    let seat = discard_owed(state)?;
    let n = state.over_hand_limit(seat);
    Some(Pending {
        seat,
        kind: "discard".into(),
        prompt: format!(
            "You hold {} cards, above the hand limit of 9: discard {n} card(s).",
            state.hand_size(seat)
        ),
        secret: false,
        submitted: false,
        sheet: false,
        undisclosed: false,
    })
}

/// The deadline default: "the most recently gained cards, the last one
/// first" (the hand is kept in gain order).
pub fn default_discard(state: &State, seat: Seat) -> Vec<CardId> {
    let n = state.over_hand_limit(seat) as usize;
    state
        .seat(seat)
        .map(|s| s.hand.iter().rev().take(n).copied().collect())
        .unwrap_or_default()
}

/// Every distinct `discard` of exactly the excess. **Bound:** the distinct
/// multisets of that size, at most [`MAX_DISCARDS`], the deadline default
/// always among them. (A hand is at most 11 cards with an excess of at most
/// 2 in practice: at most 55 answers.)
pub fn discard_actions(state: &State, seat: Seat) -> Vec<Action> {
    let n = state.over_hand_limit(seat) as usize;
    let hand: Vec<CardId> = state.seat(seat).map(|s| s.hand.clone()).unwrap_or_default();
    let mut out: Vec<Vec<CardId>> = vec![default_discard(state, seat)];
    if n > 0 {
        let mut idx: Vec<usize> = (0..n).collect();
        loop {
            let mut pick: Vec<CardId> = idx.iter().filter_map(|&i| hand.get(i).copied()).collect();
            pick.sort();
            if !out.iter().any(|o| {
                let mut o = o.clone();
                o.sort();
                o == pick
            }) {
                out.push(pick);
            }
            if out.len() >= MAX_DISCARDS {
                break;
            }
            // Next combination of n indices out of hand.len().
            let mut i = n;
            let mut advanced = false;
            while i > 0 {
                i -= 1;
                let top = hand.len() - n + i;
                if idx.get(i).is_some_and(|&v| v < top) {
                    if let Some(v) = idx.get_mut(i) {
                        *v += 1;
                    }
                    for j in i + 1..n {
                        let prev = idx.get(j - 1).copied().unwrap_or(0);
                        if let Some(v) = idx.get_mut(j) {
                            *v = prev + 1;
                        }
                    }
                    advanced = true;
                    break;
                }
            }
            if !advanced {
                break;
            }
        }
    }
    out.into_iter().map(Action::Discard).collect()
}

/// The most `discard` answers [`discard_actions`] lists.
pub const MAX_DISCARDS: usize = 120;

/// Checks a `discard`: exactly the excess, all in the hand.
fn check_discard(state: &State, seat: Seat, cards: &[CardId]) -> Result<(), String> {
    let n = state.over_hand_limit(seat) as usize;
    if cards.len() != n {
        return Err(format!(
            "you hold {} cards: discard exactly {n} to get down to 9, not {}",
            state.hand_size(seat),
            cards.len()
        ));
    }
    let mut hand: Vec<CardId> = state.seat(seat).map(|s| s.hand.clone()).unwrap_or_default();
    for c in cards {
        match hand.iter().position(|h| h == c) {
            Some(i) => {
                hand.remove(i);
            }
            None => {
                return Err(format!(
                    "you do not hold {} {c} to discard",
                    if cards.iter().filter(|x| *x == c).count() > 1 {
                        "that many"
                    } else {
                        "a"
                    }
                ))
            }
        }
    }
    Ok(())
}

/// `discard cards:LIST` by the seat over the hand limit.
pub fn decide_discard(state: &State, seat: Seat, cards: &[CardId]) -> Result<Vec<Event>, Rejection> {
    check_discard(state, seat, cards).map_err(|r| reject(r, &discard_actions(state, seat)))?;
    Ok(vec![Event::CardsDiscarded {
        seat,
        cards: cards.to_vec(),
    }])
}

// ---------------------------------------------------------------------------
// Espionage

/// The rival whose hand `seat` has seen and owes a `take` from.
pub fn take_owed(state: &State) -> Option<(Seat, Seat)> {
    let t = state.turn.as_ref()?;
    t.espionage.map(|target| (t.seat, target))
}

/// The deadline default: "the rival's card with the lowest card code".
pub fn default_take(state: &State, target: Seat) -> Option<CardId> {
    state.seat(target).and_then(|s| s.hand.iter().min().copied())
}

/// Every `take`: each distinct card in the rival's hand.
pub fn take_actions(state: &State, target: Seat) -> Vec<Action> {
    let mut cards: Vec<CardId> = state.seat(target).map(|s| s.hand.clone()).unwrap_or_default();
    cards.sort();
    cards.dedup();
    cards.into_iter().map(Action::Take).collect()
}

/// `take card:NAME`: the card moves to the spy's hand, and the action is
/// done.
pub(super) fn take(out: &mut Out, seat: Seat, target: Seat, card: CardId) -> Result<(), Rejection> {
    if !out.s.seat(target).is_some_and(|s| s.hand.contains(&card)) {
        return Err(reject(
            format!("{target} holds no {card}: take a card from their hand"),
            &take_actions(&out.s, target),
        ));
    }
    out.emit(Event::CardTaken {
        seat,
        from: target,
        card,
    });
    action_done(out, seat, true);
    Ok(())
}

// ---------------------------------------------------------------------------
// Playing a card

/// What the seat owes in its turn, as far as cards care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Its action (the first or a Double Time's).
    Action,
    /// A claim's `pay` or `giveup`.
    Pay,
}

/// Whether `seat` may play `order` now, at `moment` of its turn; the reason
/// if not.
pub fn check_play(state: &State, seat: Seat, moment: Moment, order: &PlayOrder) -> Result<(), String> {
    let card = order.card;
    if state.phase != Some(Phase::PlayerActions) || state.turn_seat() != Some(seat) {
        return Err("no card can be played outside your own turn".into());
    }
    if state.passing_only() {
        return Err(format!(
            "round {} is past the round limit: no cards, you can only pass",
            state.round
        ));
    }
    if !state.seat(seat).is_some_and(|s| s.hand.contains(&card)) {
        return Err(format!("you do not hold {card}"));
    }
    let kind = card.kind();
    match (kind, moment) {
        (CardKind::Action, Moment::Pay) => {
            return Err(format!(
                "{card} is an Action card: play it as your action, not while you owe `pay`"
            ))
        }
        (CardKind::Benefit(Timing::Claim), Moment::Action) => {
            return Err(format!(
                "{card} is a claim Benefit: play it after a claim roll, while you owe `pay`"
            ))
        }
        (CardKind::Benefit(Timing::Move | Timing::Buy), Moment::Pay) => {
            return Err(format!(
                "{card} is a {kind}: play it before your action, not during a claim"
            ))
        }
        _ => {}
    }
    let claim = state.claim();
    let ready = |p: Planet| state.ready_units(seat, p);
    match card {
        CardId::OrbitalBombardment => {
            let c = claim.ok_or("there is no claim")?;
            if state.units_at(seat, c.planet).spaceship == 0 {
                return Err(format!(
                    "Orbital Bombardment needs one of your spaceships (ready or spent) at {}",
                    c.planet
                ));
            }
        }
        CardId::Infiltrators => {
            let c = claim.ok_or("there is no claim")?;
            if c.tile.kind() != TileKind::Tension {
                return Err("Infiltrators is for Tension claims only".into());
            }
            if c.cards.contains(&CardId::Infiltrators) {
                return Err("at most one Infiltrators per claim".into());
            }
        }
        CardId::TrophyHunters => {
            let c = claim.ok_or("there is no claim")?;
            if !matches!(c.tile.kind(), TileKind::Tension | TileKind::Alien) {
                return Err("Trophy Hunters is for claims of an Alien or Tension tile only".into());
            }
        }
        CardId::Recalibrate if !order.die.is_some_and(|d| (1..=3).contains(&d)) => {
            return Err("Recalibrate names die 1, 2 or 3".into());
        }
        CardId::Requisition if state.units_in_supply(seat, UnitKind::Infantry) == 0 => {
            return Err("Requisition places infantry from your supply, and you have none left".into());
        }
        CardId::Garrison => {
            let at = order.at.ok_or("Garrison names a planet: at:PLANET")?;
            if state.units_in_supply(seat, UnitKind::Tank) == 0 {
                return Err("Garrison places a tank from your supply, and you have none left".into());
            }
            let h = state.holdings(seat, at);
            if at != HOME && h.mines + h.factories == 0 {
                return Err(format!(
                    "Garrison places the tank at Earth or where you have a mine or factory, not {at}"
                ));
            }
        }
        CardId::Overtime if state.cubes_taken() == 0 => {
            return Err("no Pass cube has been taken this period".into());
        }
        CardId::CrisisTeam | CardId::EmergencyPowers => {
            let tile = order.tile.ok_or("name the Crisis tile: tile:TILE")?;
            let planet = crisis_tile_planet(state, tile)?;
            if card == CardId::CrisisTeam && state.units_at(seat, planet).is_empty() {
                return Err(format!(
                    "Crisis Team needs one of your units (ready or spent) at {planet}, where tile {} is",
                    tile.number()
                ));
            }
        }
        CardId::Agitators => {
            let tile = order.tile.ok_or("name the Crisis tile: tile:TILE")?;
            let to = order.to.ok_or("name the adjacent planet: to:PLANET")?;
            let from = crisis_tile_planet(state, tile)?;
            if from.distance(to) != 1 {
                return Err(format!("{to} is not next to {from}"));
            }
            if !state.takes_tiles(to) {
                return Err(format!("{to} has flipped or holds an Alien tile"));
            }
        }
        CardId::Survey => {
            let at = order.at.ok_or("name the planet: at:PLANET")?;
            if ready(at).is_empty() {
                return Err(format!("Survey needs a ready unit of yours at {at}"));
            }
            if !state.takes_tiles(at) {
                return Err(format!("{at} has flipped or holds an Alien tile"));
            }
            if state.bag.is_empty() {
                return Err("the bag is empty".into());
            }
        }
        CardId::Saboteurs => {
            let (Some(target), Some(piece), Some(at)) = (order.player, order.piece, order.at) else {
                return Err("Saboteurs names player:N piece:mine|factory at:PLANET".into());
            };
            if target == seat || state.seat(target).is_none() {
                return Err("Saboteurs destroys a rival's piece".into());
            }
            if state.holdings(target, at).pieces(piece) == 0 {
                return Err(format!("{target} has no {piece} at {at}"));
            }
            if ready(at).spaceship == 0 {
                return Err(format!("Saboteurs needs a ready spaceship of yours at {at}"));
            }
            let price = card.params().price;
            if state.money(seat) < price {
                return Err(format!("Saboteurs costs £{price} and you have £{}", state.money(seat)));
            }
        }
        CardId::Espionage => {
            let target = order.player.ok_or("name the rival: player:N")?;
            if target == seat || state.seat(target).is_none() {
                return Err("Espionage spies on a rival".into());
            }
            if state.hand_size(target) == 0 {
                return Err(format!("{target} holds no card"));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Where a Crisis tile lies, or why it cannot be named.
fn crisis_tile_planet(state: &State, tile: TileId) -> Result<Planet, String> {
    if tile.kind() != TileKind::Crisis {
        return Err(format!("tile {} is not a Crisis tile", tile.number()));
    }
    state
        .tile_planet(tile)
        .ok_or_else(|| format!("tile {} is not on the board", tile.number()))
}

/// Every card play of `seat` now. **Bound:** one entry per distinct card in
/// hand and per choice of its options: Recalibrate's 3 dice; Garrison's
/// and Survey's planets (at most 8); Crisis Team's, Emergency Powers' and
/// Agitators' Crisis tiles on the board (times 2 neighbours); Saboteurs'
/// rivals × pieces × planets (at most 4 × 2 × 8); Espionage's rivals.
pub fn play_actions(state: &State, seat: Seat, moment: Moment) -> Vec<Action> {
    let mut cards: Vec<CardId> = state.seat(seat).map(|s| s.hand.clone()).unwrap_or_default();
    cards.sort();
    cards.dedup();
    let crisis_tiles: Vec<TileId> = Planet::ALL.into_iter().flat_map(|p| state.crisis_tiles_at(p)).collect();
    let rivals: Vec<Seat> = state.seat_ids().filter(|&s| s != seat).collect();
    let mut out = Vec::new();
    for card in cards {
        let base = PlayOrder::of(card);
        let candidates: Vec<PlayOrder> = match card {
            CardId::Recalibrate => (1..=3)
                .map(|d| PlayOrder {
                    die: Some(d),
                    ..base.clone()
                })
                .collect(),
            CardId::Garrison | CardId::Survey => Planet::ALL
                .into_iter()
                .map(|p| PlayOrder {
                    at: Some(p),
                    ..base.clone()
                })
                .collect(),
            CardId::CrisisTeam | CardId::EmergencyPowers => crisis_tiles
                .iter()
                .map(|&t| PlayOrder {
                    tile: Some(t),
                    ..base.clone()
                })
                .collect(),
            CardId::Agitators => crisis_tiles
                .iter()
                .flat_map(|&t| {
                    let base = base.clone();
                    Planet::ALL.into_iter().map(move |p| PlayOrder {
                        tile: Some(t),
                        to: Some(p),
                        ..base.clone()
                    })
                })
                .collect(),
            CardId::Saboteurs => {
                let mut v = Vec::new();
                for &r in &rivals {
                    for piece in Piece::ALL {
                        for at in Planet::ALL {
                            v.push(PlayOrder {
                                player: Some(r),
                                piece: Some(piece),
                                at: Some(at),
                                ..base.clone()
                            });
                        }
                    }
                }
                v
            }
            CardId::Espionage => rivals
                .iter()
                .map(|&r| PlayOrder {
                    player: Some(r),
                    ..base.clone()
                })
                .collect(),
            _ => vec![base],
        };
        out.extend(
            candidates
                .into_iter()
                .filter(|o| check_play(state, seat, moment, o).is_ok())
                .map(Action::Play),
        );
    }
    out
}

/// Plays a checked card: the card, then its effect; an Action card is the
/// turn's action (and the turn goes on with [`action_done`], except
/// Espionage, which waits for `take`).
pub(super) fn play(out: &mut Out, seat: Seat, moment: Moment, order: &PlayOrder) -> Result<(), Rejection> {
    check_play(&out.s, seat, moment, order).map_err(|r| reject(r, &play_actions(&out.s, seat, moment)))?;
    let card = order.card;
    let is_action = card.kind().is_action();
    if is_action {
        out.emit(Event::ActionTaken {
            seat,
            action: ActionKind::Card,
        });
    }
    out.emit(Event::CardPlayed { seat, card });
    let params = card.params();
    let gain = |out: &mut Out, amount: u32| {
        if amount > 0 {
            out.emit(Event::MoneyGained {
                seat,
                amount,
                reason: MoneyReason::Card(card),
            });
        }
    };
    match card {
        CardId::Recalibrate => {
            let die = order.die.unwrap_or(1);
            let mut rng = (*out.s.rng).clone();
            let value = Die::roll(&mut rng);
            out.emit(Event::DieRerolled {
                seat,
                die,
                value,
                rng: Box::new(rng),
            });
        }
        CardId::TradeDeal | CardId::ReserveFunds => gain(out, params.money),
        CardId::TaxCollection => {
            let planets = out.s.planets_with_pieces(seat).len() as u32;
            gain(out, params.money_per_planet.saturating_mul(planets));
        }
        CardId::IntelligenceReport => draw(out, seat, params.draw),
        CardId::Requisition => {
            let n = params.infantry.min(out.s.units_in_supply(seat, UnitKind::Infantry));
            out.emit(Event::UnitsPlaced {
                seat,
                planet: HOME,
                units: UnitCounts::new(n, 0, 0),
            });
        }
        CardId::Garrison => {
            let planet = order.at.unwrap_or(HOME);
            out.emit(Event::UnitsPlaced {
                seat,
                planet,
                units: UnitCounts::new(0, 0, params.tanks),
            });
        }
        CardId::Overtime => {
            let own = out.s.seat(seat).is_some_and(|s| s.cubes_taken > 0);
            let from = if own {
                Some(seat)
            } else {
                out.s
                    .turn_order()
                    .into_iter()
                    .find(|&s| out.s.seat(s).is_some_and(|x| x.cubes_taken > 0))
            };
            if let Some(from) = from {
                out.emit(Event::PassCubeReturned { seat, from });
            }
        }
        CardId::CrisisTeam | CardId::EmergencyPowers => {
            if let Some(tile) = order.tile {
                if let Some(planet) = out.s.tile_planet(tile) {
                    out.emit(Event::TilesDiscarded {
                        planet,
                        tiles: vec![tile],
                    });
                }
            }
        }
        CardId::Agitators => {
            if let (Some(tile), Some(to)) = (order.tile, order.to) {
                if let Some(from) = out.s.tile_planet(tile) {
                    out.emit(Event::TileMoved { tile, from, to });
                }
            }
        }
        CardId::Survey => {
            if let (Some(planet), Some(&tile)) = (order.at, out.s.bag.first()) {
                out.emit(Event::TilesDrawn {
                    planet,
                    tiles: vec![tile],
                });
            }
        }
        CardId::Saboteurs => {
            if let (Some(target), Some(piece), Some(planet)) = (order.player, order.piece, order.at) {
                out.emit(Event::MoneyPaid {
                    seat,
                    amount: params.price,
                    reason: MoneyReason::Card(card),
                });
                out.emit(Event::PieceLost {
                    seat: target,
                    planet,
                    piece,
                });
            }
        }
        CardId::Espionage => {
            if let Some(target) = order.player {
                out.emit(Event::HandRevealed { seat, target });
            }
            // The action is done once the card is taken.
            return Ok(());
        }
        // Claim Benefits, Move and Buy Benefits and Double Time work
        // through the turn state (`CardPlayed`).
        _ => {}
    }
    if is_action {
        action_done(out, seat, true);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
