//! The end of a period and of the game (`docs/rules/solar.md`: *Crises*,
//! *Crisis effects*, *The aliens*, *Losses: who chooses*, *Income and
//! reset*, *Scoring and winning*, *Everyone loses*, *Missed deadlines*).
//!
//! Phase 4 starts when the last Pass cube is taken: [`super::decide`]
//! hands over to [`run`], which rolls the crisis dice, places the skulls,
//! sets the levels and resolves every planet Mercury → Kuiper Belt. A
//! planet whose crisis needs a choice stops the run:
//!
//! - `power` (decision kind `power`): the Mercury leader's powers, one
//!   order `power [steal:N] [kill:N/TYPE/PLANET] [wreck:N/PIECE/PLANET]`
//!   (players by seat number, from 1); `power` alone uses none (the
//!   deadline default).
//! - `lose` (decision kind `lose`): crisis losses, `lose [units:LIST]
//!   [pieces:LIST]`, asked of every affected seat at once; the deadline
//!   default is the loss order. A loss with one possible answer, and every
//!   loss under the `auto_losses` option, is taken at once.
//!
//! When the last choice of a planet is made, [`decide`] resumes the run:
//! the remaining planets, the dice back, Phase 5 (income), Phase 6 (units
//! back to orbit), then the next period ([`crate::solar::setup::open_period`]) or,
//! after period 3, the scoring and [`Event::GameEnded`]. Everyone loses at
//! once when Earth's crisis reaches level 4 (and, in Phase 3, when an Alien
//! tile reaches Earth: see [`super::turn`]).
//!
//! **Cards.** Mercury's power A takes a random card from a rival's hand
//! (no card is played). What this layer leaves to the card layer: a hand
//! above the limit of 9 after a steal is not asked to discard here.

use super::{reject, Out};
use crate::solar::basics::board::{
    Phase, Piece, Planet, UnitKind, ALIEN_INVASION_LEVEL, FLIP_LEVEL, HOME, MERCURY_KILL_COST, MERCURY_STEAL_COST,
    MERCURY_WRECK_COST, PERIODS, PIRATE_FEE, PIRATE_LOSS_ORDER, ROBOT_REBELLION_LEVEL, VENUS_UNITS_LOST,
};
use crate::solar::basics::tiles::{AlienTile, TileId};
use crate::solar::events::{Event, MoneyReason};
use crate::solar::orders::crises::{KillOrder, LoseOrder, PieceAt, PowerOrder, WreckOrder};
use crate::solar::orders::Action;
use crate::solar::setup::open_period;
use crate::solar::state::{dice_total, roll_dice, skulls, LossDemand, LossKind, State, UnitCounts};
use orrery_engine::{Outcome, Pending, Rejection, Seat};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------
// Who owes what

fn in_crises(state: &State) -> bool {
    !state.is_over() && state.phase == Some(Phase::Crises)
}

fn demand_text(d: &LossDemand) -> String {
    let at: Vec<&str> = d.planets.iter().map(|p| p.name()).collect();
    match d.kind {
        LossKind::UnitsThenPieces => format!(
            "lose {} at {} (military units first, pieces only when no unit is left there): choose what you lose",
            d.count,
            at.join(", ")
        ),
        LossKind::Pieces => format!(
            "lose {} mine(s) or factory(ies) on {}: choose which",
            d.count,
            at.join(", ")
        ),
    }
}

/// Who owes what in Phase 4: the Mercury leader's `power`, or every seat
/// owing crisis losses (`lose`, all at once).
pub fn pending(state: &State) -> Vec<Pending> {
    if !in_crises(state) {
        return Vec::new();
    }
    if let Some(offer) = state.mercury {
        return vec![Pending {
            seat: offer.seat,
            kind: "power".into(),
            prompt: format!(
                "Bazagthoth the Blinded (Mercury level {}): choose which of your powers to use, or use none.",
                offer.level
            ),
            secret: false,
            submitted: false,
            sheet: false,
            undisclosed: false,
        }];
    }
    let planet = state.crisis.map_or("A", Planet::name);
    state
        .losses
        .iter()
        .map(|d| Pending {
            seat: d.seat,
            kind: "lose".into(),
            prompt: format!("{planet}'s crisis: {}.", demand_text(d)),
            secret: false,
            submitted: false,
            sheet: false,
            undisclosed: false,
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Losses

/// What a seat actually loses: units at one planet (spent before ready
/// within a type) and pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Loss {
    units: UnitCounts,
    pieces: Vec<(Planet, Piece)>,
}

/// How many units and pieces the demand takes, given what the seat has.
fn loss_sizes(state: &State, d: &LossDemand) -> (u32, u32) {
    match d.kind {
        LossKind::UnitsThenPieces => {
            let planet = d.planets.first().copied().unwrap_or(HOME);
            let h = state.holdings(d.seat, planet);
            let units = d.count.min(h.units().total());
            let pieces = (d.count - units).min(h.mines.saturating_add(h.factories));
            (units, pieces)
        }
        LossKind::Pieces => {
            let have = d
                .planets
                .iter()
                .map(|&p| {
                    let h = state.holdings(d.seat, p);
                    h.mines.saturating_add(h.factories)
                })
                .fold(0, u32::saturating_add);
            (0, d.count.min(have))
        }
    }
}

/// The planets a demand's pieces come from.
fn piece_planets(d: &LossDemand) -> Vec<Planet> {
    match d.kind {
        LossKind::UnitsThenPieces => d.planets.first().copied().into_iter().collect(),
        LossKind::Pieces => d.planets.clone(),
    }
}

/// Checks a `lose` order against the demand; the loss it means.
fn check_lose(state: &State, d: &LossDemand, order: &LoseOrder) -> Result<Loss, String> {
    let (n_units, n_pieces) = loss_sizes(state, d);
    let planets = piece_planets(d);
    if order.units.len() as u32 != n_units {
        return Err(if n_units == 0 {
            "you lose no units here: leave out `units:`".to_string()
        } else {
            format!(
                "you lose {n_units} unit(s), so `units:` names {n_units}, not {}",
                order.units.len()
            )
        });
    }
    if order.pieces.len() as u32 != n_pieces {
        return Err(if n_pieces == 0 {
            "you lose no pieces here: leave out `pieces:`".to_string()
        } else {
            format!(
                "you lose {n_pieces} piece(s), so `pieces:` names {n_pieces}, not {}",
                order.pieces.len()
            )
        });
    }
    let mut loss = Loss::default();
    if let Some(&planet) = d.planets.first() {
        let have = state.units_at(d.seat, planet);
        for &kind in &order.units {
            *loss.units.get_mut(kind) += 1;
            if loss.units.get(kind) > have.get(kind) {
                return Err(format!(
                    "you have {} {kind} at {planet} to lose, not more",
                    have.get(kind)
                ));
            }
        }
    }
    let mut taken: BTreeMap<(Planet, Piece), u32> = BTreeMap::new();
    let left = |taken: &BTreeMap<(Planet, Piece), u32>, p: Planet, k: Piece| {
        state
            .holdings(d.seat, p)
            .pieces(k)
            .saturating_sub(taken.get(&(p, k)).copied().unwrap_or(0))
    };
    for at in &order.pieces {
        let planet = match at.planet {
            Some(p) if planets.contains(&p) => p,
            Some(p) => {
                let names: Vec<&str> = planets.iter().map(|p| p.name()).collect();
                return Err(format!("these losses are on {}, not {p}", names.join(", ")));
            }
            None => planets
                .iter()
                .copied()
                .find(|&p| left(&taken, p, at.piece) > 0)
                .ok_or_else(|| format!("you have no {} left to lose there", at.piece))?,
        };
        if left(&taken, planet, at.piece) == 0 {
            return Err(format!("you have no {} left on {planet} to lose", at.piece));
        }
        *taken.entry((planet, at.piece)).or_insert(0) += 1;
        loss.pieces.push((planet, at.piece));
    }
    Ok(loss)
}

/// The loss order: units infantry, tanks, spaceships; pieces on the
/// demand's planets in order, factories before mines.
fn default_lose(state: &State, d: &LossDemand) -> LoseOrder {
    let (n_units, n_pieces) = loss_sizes(state, d);
    let mut units = Vec::new();
    if let Some(&planet) = d.planets.first() {
        let have = state.units_at(d.seat, planet);
        let mut left = n_units;
        for kind in UnitKind::LOSS_ORDER {
            let take = left.min(have.get(kind));
            units.extend(std::iter::repeat_n(kind, take as usize));
            left -= take;
        }
    }
    let mut pieces = Vec::new();
    let mut left = n_pieces;
    for planet in piece_planets(d) {
        let h = state.holdings(d.seat, planet);
        for piece in Piece::LOSS_ORDER {
            let take = left.min(h.pieces(piece));
            pieces.extend(std::iter::repeat_n(
                PieceAt {
                    piece,
                    planet: Some(planet),
                },
                take as usize,
            ));
            left -= take;
        }
    }
    LoseOrder { units, pieces }
}

/// Every way of putting `n` things into bins of the given capacities.
fn spreads(caps: &[u32], n: u32) -> Vec<Vec<u32>> {
    match caps.split_first() {
        None => {
            if n == 0 {
                vec![Vec::new()]
            } else {
                Vec::new()
            }
        }
        Some((&cap, rest)) => {
            let mut out = Vec::new();
            for take in (0..=cap.min(n)).rev() {
                for mut tail in spreads(rest, n - take) {
                    tail.insert(0, take);
                    out.push(tail);
                }
            }
            out
        }
    }
}

/// Every answer to a demand, canonical (units in the loss order, pieces
/// with their planet), the loss order's own answer first.
fn lose_answers(state: &State, d: &LossDemand) -> Vec<LoseOrder> {
    let (n_units, n_pieces) = loss_sizes(state, d);
    let have = d
        .planets
        .first()
        .map_or(UnitCounts::NONE, |&p| state.units_at(d.seat, p));
    let caps: Vec<u32> = UnitKind::LOSS_ORDER.iter().map(|&k| have.get(k)).collect();
    let bins: Vec<(Planet, Piece)> = piece_planets(d)
        .into_iter()
        .flat_map(|p| Piece::LOSS_ORDER.into_iter().map(move |k| (p, k)))
        .collect();
    let piece_caps: Vec<u32> = bins.iter().map(|&(p, k)| state.holdings(d.seat, p).pieces(k)).collect();
    let piece_lists: Vec<Vec<PieceAt>> = spreads(&piece_caps, n_pieces)
        .into_iter()
        .map(|spread| {
            bins.iter()
                .zip(spread)
                .flat_map(|(&(planet, piece), n)| {
                    std::iter::repeat_n(
                        PieceAt {
                            piece,
                            planet: Some(planet),
                        },
                        n as usize,
                    )
                })
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    for spread in spreads(&caps, n_units) {
        let units: Vec<UnitKind> = UnitKind::LOSS_ORDER
            .iter()
            .zip(spread)
            .flat_map(|(&k, n)| std::iter::repeat_n(k, n as usize))
            .collect();
        for pieces in &piece_lists {
            out.push(LoseOrder {
                units: units.clone(),
                pieces: pieces.clone(),
            });
        }
    }
    out
}

/// The events of a loss: the units (spent before ready within a type) and
/// the pieces.
fn emit_loss(out: &mut Out, seat: Seat, unit_planet: Option<Planet>, loss: &Loss) {
    if let Some(planet) = unit_planet.filter(|_| !loss.units.is_empty()) {
        let h = out.s.holdings(seat, planet);
        let mut spent = UnitCounts::NONE;
        let mut ready = UnitCounts::NONE;
        for kind in UnitKind::ALL {
            let n = loss.units.get(kind);
            let s = n.min(h.surface.get(kind));
            *spent.get_mut(kind) = s;
            *ready.get_mut(kind) = (n - s).min(h.orbit.get(kind));
        }
        out.emit(Event::UnitsLost {
            seat,
            planet,
            ready,
            spent,
        });
    }
    for &(planet, piece) in &loss.pieces {
        out.emit(Event::PieceLost { seat, planet, piece });
    }
}

/// Asks for the demands that need a choice; takes the others at once
/// (nothing to lose, one possible answer, or the `auto_losses` option).
fn demand_losses(out: &mut Out, demands: Vec<LossDemand>) {
    let mut asked = Vec::new();
    for d in demands {
        let (u, p) = loss_sizes(&out.s, &d);
        if u + p == 0 {
            continue;
        }
        let answers = lose_answers(&out.s, &d);
        if out.s.options.auto_losses || answers.len() <= 1 {
            let order = default_lose(&out.s, &d);
            if let Ok(loss) = check_lose(&out.s, &d, &order) {
                emit_loss(out, d.seat, d.planets.first().copied(), &loss);
            }
        } else {
            asked.push(d);
        }
    }
    if !asked.is_empty() {
        out.emit(Event::LossesDemanded { demands: asked });
    }
}

// ---------------------------------------------------------------------------
// Mercury's powers

fn powers(level: u32) -> (bool, bool, bool) {
    (level >= 1, level >= 2, level >= 3)
}

/// Checks a `power` order; the money it costs.
fn check_power(state: &State, seat: Seat, level: u32, order: &PowerOrder) -> Result<u32, String> {
    let (a, b, c) = powers(level);
    let mut cost = 0;
    let rival = |target: Seat| -> Result<(), String> {
        if target == seat {
            Err("the powers hit other players only".into())
        } else if state.seat(target).is_none() {
            Err(format!("there is no {target}"))
        } else {
            Ok(())
        }
    };
    if let Some(target) = order.steal {
        if !a {
            return Err("power A needs Mercury at level 1 or more".into());
        }
        rival(target)?;
        if state.hand_size(target) == 0 {
            return Err(format!("{target} holds no card to steal"));
        }
        cost += MERCURY_STEAL_COST;
    }
    if let Some(k) = order.kill {
        if !b {
            return Err(format!(
                "power B (kill) needs Mercury at level 2 or more; it is at {level}"
            ));
        }
        rival(k.seat)?;
        if state.units_at(k.seat, k.planet).get(k.unit) == 0 {
            return Err(format!("{} has no {} at {}", k.seat, k.unit, k.planet));
        }
        cost += MERCURY_KILL_COST;
    }
    if let Some(w) = order.wreck {
        if !c {
            return Err(format!(
                "power C (wreck) needs Mercury at level 3 or more; it is at {level}"
            ));
        }
        rival(w.seat)?;
        if state.holdings(w.seat, w.planet).pieces(w.piece) == 0 {
            return Err(format!("{} has no {} on {}", w.seat, w.piece, w.planet));
        }
        cost += MERCURY_WRECK_COST;
    }
    let money = state.money(seat);
    if cost > money {
        return Err(format!("those powers cost £{cost} and you have £{money}"));
    }
    Ok(cost)
}

/// The `power` orders listed: none; each single power on each target; and
/// every usable power at once on its first target. **Bound:** other
/// combinations are not listed; [`decide`] accepts any valid one.
fn power_answers(state: &State, seat: Seat, level: u32) -> Vec<PowerOrder> {
    let rivals: Vec<Seat> = state.seat_ids().filter(|&r| r != seat).collect();
    let steals: Vec<PowerOrder> = rivals
        .iter()
        .map(|&r| PowerOrder {
            steal: Some(r),
            ..PowerOrder::default()
        })
        .collect();
    let mut kills = Vec::new();
    let mut wrecks = Vec::new();
    for &r in &rivals {
        for planet in Planet::ALL {
            for unit in UnitKind::ALL {
                kills.push(PowerOrder {
                    kill: Some(KillOrder { seat: r, unit, planet }),
                    ..PowerOrder::default()
                });
            }
            for piece in Piece::ALL {
                wrecks.push(PowerOrder {
                    wreck: Some(WreckOrder { seat: r, piece, planet }),
                    ..PowerOrder::default()
                });
            }
        }
    }
    let ok = |o: &PowerOrder| check_power(state, seat, level, o).is_ok();
    let steals: Vec<PowerOrder> = steals.into_iter().filter(ok).collect();
    let kills: Vec<PowerOrder> = kills.into_iter().filter(ok).collect();
    let wrecks: Vec<PowerOrder> = wrecks.into_iter().filter(ok).collect();
    let all = PowerOrder {
        steal: steals.first().and_then(|o| o.steal),
        kill: kills.first().and_then(|o| o.kill),
        wreck: wrecks.first().and_then(|o| o.wreck),
    };
    let mut out = vec![PowerOrder::default()];
    out.extend(steals);
    out.extend(kills);
    out.extend(wrecks);
    if !out.contains(&all) && ok(&all) {
        out.push(all);
    }
    out
}

fn use_powers(out: &mut Out, seat: Seat, order: &PowerOrder) {
    if let Some(target) = order.steal {
        let hand = out.s.seat(target).map(|s| s.hand.clone()).unwrap_or_default();
        let mut rng = (*out.s.rng).clone();
        if let Some(&card) = rng.pick(&hand) {
            out.emit(Event::MoneyPaid {
                seat,
                amount: MERCURY_STEAL_COST,
                reason: MoneyReason::MercuryPower,
            });
            out.emit(Event::CardStolen {
                seat,
                from: target,
                card,
                rng: Box::new(rng),
            });
        }
    }
    if let Some(k) = order.kill {
        out.emit(Event::MoneyPaid {
            seat,
            amount: MERCURY_KILL_COST,
            reason: MoneyReason::MercuryPower,
        });
        let loss = Loss {
            units: UnitCounts::of(k.unit, 1),
            pieces: Vec::new(),
        };
        emit_loss(out, k.seat, Some(k.planet), &loss);
    }
    if let Some(w) = order.wreck {
        out.emit(Event::MoneyPaid {
            seat,
            amount: MERCURY_WRECK_COST,
            reason: MoneyReason::MercuryPower,
        });
        out.emit(Event::PieceLost {
            seat: w.seat,
            planet: w.planet,
            piece: w.piece,
        });
    }
    out.emit(Event::MercuryPowersEnded { seat });
}

// ---------------------------------------------------------------------------
// Legal actions, defaults, decide

/// Every legal order of `seat` in Phase 4: the `power` orders (see
/// `power_answers` for the bound) or every `lose` answer.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !in_crises(state) {
        return Vec::new();
    }
    if let Some(offer) = state.mercury {
        if offer.seat == seat {
            return power_answers(state, seat, offer.level)
                .into_iter()
                .map(Action::Power)
                .collect();
        }
        return Vec::new();
    }
    match state.owes_losses(seat) {
        Some(d) => lose_answers(state, d).into_iter().map(Action::Lose).collect(),
        None => Vec::new(),
    }
}

/// The deadline default in Phase 4: "Mercury powers: none used"; "Losses:
/// the loss order".
pub fn default_action(state: &State, seat: Seat) -> Option<Action> {
    if !in_crises(state) {
        return None;
    }
    if let Some(offer) = state.mercury {
        return (offer.seat == seat).then(|| Action::Power(PowerOrder::default()));
    }
    state.owes_losses(seat).map(|d| Action::Lose(default_lose(state, d)))
}

/// A `power` or `lose` order in Phase 4, and the run that follows once the
/// planet's last choice is in.
pub fn decide(state: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    let waiting = || Rejection::NotYourDecision {
        seat,
        waiting: crate::waiting_seats(&pending(state)),
    };
    let mut out = Out::new(state);
    if let Some(offer) = state.mercury {
        if offer.seat != seat {
            return Err(waiting());
        }
        let Action::Power(order) = action else {
            return Err(reject(
                "Bazagthoth's powers are offered to you: choose which to use, or use none",
                &legal_actions(state, seat),
            ));
        };
        check_power(state, seat, offer.level, order).map_err(|r| reject(r, &legal_actions(state, seat)))?;
        use_powers(&mut out, seat, order);
    } else if let Some(d) = state.owes_losses(seat) {
        let Action::Lose(order) = action else {
            return Err(reject(
                "you owe crisis losses: answer with `lose`",
                &legal_actions(state, seat),
            ));
        };
        let loss = check_lose(state, d, order).map_err(|r| reject(r, &legal_actions(state, seat)))?;
        emit_loss(&mut out, seat, d.planets.first().copied(), &loss);
        out.emit(Event::LossesTaken { seat });
    } else {
        return Err(waiting());
    }
    run(&mut out);
    Ok(out.ev)
}

// ---------------------------------------------------------------------------
// The run: Phase 4 to the next decision, the next period or the end

/// "Place the kept dice on skull-marked Crisis tiles: one die per tile,
/// taking the tiles in planet order ...; if dice remain ..., start again
/// from Mercury. With no skull-marked tile on the board the kept dice are
/// not used." The tiles that get a die, one entry per die.
pub fn place_skulls(state: &State, kept: u32) -> Vec<TileId> {
    let marked = state.skull_marked_tiles();
    if marked.is_empty() {
        return Vec::new();
    }
    marked.iter().copied().cycle().take(kept as usize).collect()
}

/// Who takes the damage to Earth, and how much: "Going round in player
/// order, each player who still has anything at Earth ... takes 1 hit;
/// players with nothing left are skipped; stop when the hits equal the
/// damage or Earth is empty."
pub fn damage_hits(state: &State, damage: u32) -> BTreeMap<Seat, u32> {
    let order = state.turn_order();
    let mut left: BTreeMap<Seat, u32> = order
        .iter()
        .map(|&s| {
            let h = state.holdings(s, HOME);
            (s, h.units().total().saturating_add(h.mines).saturating_add(h.factories))
        })
        .collect();
    let mut hits: BTreeMap<Seat, u32> = BTreeMap::new();
    let mut dealt = 0;
    while dealt < damage && left.values().any(|&n| n > 0) {
        for &s in &order {
            if dealt >= damage {
                break;
            }
            if let Some(n) = left.get_mut(&s).filter(|n| **n > 0) {
                *n -= 1;
                *hits.entry(s).or_insert(0) += 1;
                dealt += 1;
            }
        }
    }
    hits
}

/// Resolves Phase 4 from where it stands to the next decision (or the end
/// of the game), then Phases 5 and 6 and the next period or the scoring.
/// For a state in [`Phase::Crises`]; does nothing otherwise.
pub fn resolve(state: &State) -> Vec<Event> {
    let mut out = Out::new(state);
    run(&mut out);
    out.ev
}

/// See [`resolve`].
pub(super) fn run(out: &mut Out) {
    if out.s.is_over() || out.s.phase != Some(Phase::Crises) {
        return;
    }
    if out.s.crisis_levels.is_empty() {
        roll_crisis(out);
    }
    loop {
        if out.s.is_over() {
            return;
        }
        if out.s.mercury.is_some() || !out.s.losses.is_empty() {
            return;
        }
        let from = out.s.crisis.map_or(0, |p| p.index() + 1);
        let next = Planet::ALL
            .into_iter()
            .skip(from)
            .find(|p| out.s.crisis_levels.get(p).copied().unwrap_or(0) > 0);
        match next {
            Some(planet) => {
                let level = out.s.crisis_levels.get(&planet).copied().unwrap_or(0);
                out.emit(Event::CrisisResolving { planet, level });
                resolve_planet(out, planet, level);
            }
            None => break,
        }
    }
    out.emit(Event::CrisisDiceReturned);
    end_period(out);
}

/// Steps 1 to 3: roll, place the skulls, set the levels (every planet).
fn roll_crisis(out: &mut Out) {
    let mut rng = (*out.s.rng).clone();
    let dice = roll_dice(&mut rng);
    out.emit(Event::CrisisRolled {
        dice,
        rng: Box::new(rng),
    });
    let tiles = place_skulls(&out.s, skulls(&dice));
    if !tiles.is_empty() {
        out.emit(Event::CrisisDicePlaced { tiles });
    }
    let levels: BTreeMap<Planet, u32> = Planet::ALL.iter().map(|&p| (p, out.s.crisis_level(p))).collect();
    out.emit(Event::CrisisLevelsSet { levels });
}

fn wipe_and_flip(out: &mut Out, planet: Planet) {
    out.emit(Event::PlanetWiped { planet });
    if planet.can_flip() {
        out.emit(Event::PlanetFlipped { planet });
    }
}

/// The seats with the highest income on `planet` each lose `n` pieces there.
fn leaders_lose(out: &mut Out, planet: Planet, n: u32) {
    let demands = out
        .s
        .income_leaders(planet)
        .into_iter()
        .map(|seat| LossDemand {
            seat,
            count: n,
            kind: LossKind::Pieces,
            planets: vec![planet],
        })
        .collect();
    demand_losses(out, demands);
}

/// The damage to Earth after the Moon or Mars flipped.
fn damage_earth(out: &mut Out, planet: Planet) {
    let mut rng = (*out.s.rng).clone();
    let dice = roll_dice(&mut rng);
    let damage = dice_total(&dice);
    out.emit(Event::DamageRolled {
        planet,
        dice,
        damage,
        rng: Box::new(rng),
    });
    let hits = damage_hits(&out.s, damage);
    let demands = out
        .s
        .turn_order()
        .into_iter()
        .filter_map(|seat| {
            hits.get(&seat).map(|&count| LossDemand {
                seat,
                count,
                kind: LossKind::UnitsThenPieces,
                planets: vec![HOME],
            })
        })
        .collect();
    demand_losses(out, demands);
}

fn resolve_planet(out: &mut Out, planet: Planet, level: u32) {
    match planet {
        Planet::Mercury => {
            if let [leader] = out.s.income_leaders(planet)[..] {
                if power_answers(&out.s, leader, level).len() > 1 {
                    out.emit(Event::MercuryPowersOffered { seat: leader, level });
                }
            }
        }
        Planet::Venus => {
            if level >= FLIP_LEVEL {
                wipe_and_flip(out, planet);
            } else if level >= 2 {
                let demands = out
                    .s
                    .turn_order()
                    .into_iter()
                    .map(|seat| LossDemand {
                        seat,
                        count: VENUS_UNITS_LOST,
                        kind: LossKind::UnitsThenPieces,
                        planets: vec![planet],
                    })
                    .collect();
                demand_losses(out, demands);
            }
        }
        Planet::Earth => {
            if level >= ROBOT_REBELLION_LEVEL {
                out.emit(Event::GameEnded {
                    outcome: Outcome::AllLose {
                        reason: format!("Robot Rebellion: Earth's crisis reached level {level}, and everyone loses"),
                    },
                    vp: Vec::new(),
                });
            } else if level >= 2 {
                leaders_lose(out, planet, level - 1);
            }
        }
        Planet::Moon => {
            if level >= FLIP_LEVEL {
                wipe_and_flip(out, planet);
                damage_earth(out, planet);
            }
        }
        Planet::Mars => {
            if level >= FLIP_LEVEL {
                wipe_and_flip(out, planet);
                damage_earth(out, planet);
            } else if level >= 2 {
                leaders_lose(out, planet, 1);
            }
        }
        Planet::Ganymede => {}
        Planet::Titan => {
            if level >= 2 {
                let planets: Vec<Planet> = if level >= 3 {
                    PIRATE_LOSS_ORDER.to_vec()
                } else {
                    vec![Planet::Titan]
                };
                let mut demands = Vec::new();
                for seat in out.s.turn_order() {
                    let pieces = planets
                        .iter()
                        .map(|&p| {
                            let h = out.s.holdings(seat, p);
                            h.mines.saturating_add(h.factories)
                        })
                        .fold(0, u32::saturating_add);
                    let fee = pieces.saturating_mul(PIRATE_FEE);
                    let paid = fee.min(out.s.money(seat));
                    if paid > 0 {
                        out.emit(Event::MoneyPaid {
                            seat,
                            amount: paid,
                            reason: MoneyReason::Pirates,
                        });
                    }
                    let unpaid = (fee - paid) / PIRATE_FEE.max(1);
                    if unpaid > 0 {
                        demands.push(LossDemand {
                            seat,
                            count: unpaid,
                            kind: LossKind::Pieces,
                            planets: planets.clone(),
                        });
                    }
                }
                demand_losses(out, demands);
            }
        }
        Planet::KuiperBelt => {
            if level >= ALIEN_INVASION_LEVEL && !out.s.invaded {
                for alien in AlienTile::ALL {
                    let at = alien.invades();
                    out.emit(Event::AlienPlaced { alien, planet: at });
                    out.emit(Event::PlanetOverrun { planet: at });
                }
            }
        }
    }
}

/// Phases 5 and 6, then the next period or the scoring.
fn end_period(out: &mut Out) {
    out.emit(Event::PhaseBegan { phase: Phase::Income });
    for seat in out.s.seat_ids().collect::<Vec<_>>() {
        let amount = out.s.income(seat);
        if amount > 0 {
            out.emit(Event::IncomePaid { seat, amount });
        }
    }
    out.emit(Event::PhaseBegan { phase: Phase::Reset });
    out.emit(Event::UnitsReturnedToOrbit);
    let period = out.s.period;
    out.emit(Event::PeriodEnded { period });
    if period >= PERIODS {
        let vp = score(&out.s);
        let outcome = winner(&out.s, &vp);
        out.emit(Event::GameEnded { outcome, vp });
    } else {
        for e in open_period(&out.s) {
            out.emit(e);
        }
    }
}

// ---------------------------------------------------------------------------
// Scoring

/// VP per seat from one planet: places by income there (dense ranking,
/// ties score the higher value, income 0 scores nothing), every place the
/// planet shows.
pub fn planet_vp(state: &State, planet: Planet) -> Vec<u32> {
    let incomes: Vec<u32> = state.seat_ids().map(|s| state.income_on(s, planet)).collect();
    let mut values: Vec<u32> = incomes.iter().copied().filter(|&v| v > 0).collect();
    values.sort_unstable_by(|a, b| b.cmp(a));
    values.dedup();
    incomes
        .iter()
        .map(|&v| {
            values
                .iter()
                .position(|&x| x == v && v > 0)
                .and_then(|i| planet.place_vp(i + 1))
                .unwrap_or(0)
        })
        .collect()
}

/// Every seat's VP: planets, then Big Game, Crisis and Alien tiles.
pub fn score(state: &State) -> Vec<u32> {
    let mut vp: Vec<u32> = state.seats.iter().map(|s| s.tile_vp()).collect();
    for planet in Planet::ALL {
        for (total, v) in vp.iter_mut().zip(planet_vp(state, planet)) {
            *total = total.saturating_add(v);
        }
    }
    vp
}

/// The winner by VP and the page's tie-breaks: the First Player marker,
/// then most mines + factories, then most tile VP; still tied, shared.
/// Seats that resigned cannot win.
pub fn winner(state: &State, vp: &[u32]) -> Outcome {
    let in_play = state.in_play();
    let best = in_play
        .iter()
        .filter_map(|s| vp.get(s.index()))
        .copied()
        .max()
        .unwrap_or(0);
    let mut tied: Vec<Seat> = in_play
        .into_iter()
        .filter(|s| vp.get(s.index()) == Some(&best))
        .collect();
    if let [seat] = tied[..] {
        return Outcome::Winner {
            seat,
            reason: format!("the most victory points ({best})"),
        };
    }
    if let Some(first) = state.first_player.filter(|f| tied.contains(f)) {
        return Outcome::Winner {
            seat: first,
            reason: format!("tied on {best} VP, won by the holder of the First Player marker"),
        };
    }
    let breaks: [(&str, &dyn Fn(Seat) -> u32); 2] = [
        ("the most mines and factories", &|s| state.pieces_on_board(s)),
        ("the most VP from Big Game, Crisis and Alien tiles", &|s| {
            state.seat(s).map_or(0, |x| x.tile_vp())
        }),
    ];
    for (why, key) in breaks {
        let top = tied.iter().map(|&s| key(s)).max().unwrap_or(0);
        tied.retain(|&s| key(s) == top);
        if let [seat] = tied[..] {
            return Outcome::Winner {
                seat,
                reason: format!("tied on {best} VP, won by {why}"),
            };
        }
    }
    Outcome::Shared {
        seats: tied,
        reason: format!("tied on {best} VP and on every tie-break"),
    }
}

/// Is the game over, and how?
pub fn outcome(state: &State) -> Option<Outcome> {
    state.outcome.clone()
}

#[cfg(test)]
mod tests;
