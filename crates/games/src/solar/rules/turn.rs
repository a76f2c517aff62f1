//! The orders of the Player Actions phase (Phase 3) without cards: `move`
//! (with or without a claim), `claim`, `pay`, `giveup`, `buy` and `pass`,
//! their legal forms, and the turn's flow (`docs/rules/solar.md`: *Your
//! turn*, *Moving*, *Claiming a tile*, *Combat points and casualties*,
//! *Tension tiles*, *Buying units*, *Passing and the First Player*): the
//! end of a turn, the next round and its alien advance, and the last Pass
//! cube handing over to the crisis phase (`crises::run`).

use super::crises;
use super::{draw, legal_actions, reject, Out};
use crate::solar::basics::board::{Phase, Piece, Planet, UnitKind, ALIEN_PATH, HOME, PASS_DRAW};
use crate::solar::basics::tiles::{Defence, Gain, TileKind, TileRef};
use crate::solar::events::{ActionKind, Event, MoneyReason};
use crate::solar::orders::{Action, ClaimOrder, Purchase};
use crate::solar::state::{roll_dice, State, TensionTarget, UnitCounts};
use orrery_engine::{Outcome, Rejection, Seat};

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
    if matches!(tile, TileRef::Bag(_)) && state.alien_at(planet).is_some() {
        return Err(format!(
            "{planet} is held by an Alien tile: its tiles cannot be claimed while the aliens are there (claim the Alien tile first)"
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
                "a Tension claim names its target: say which rival's mine or factory on {planet} you claim (the player and the piece)"
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
/// only; [`super::decide`] accepts a claim with any group.
pub(super) fn move_actions(state: &State, seat: Seat) -> Vec<Action> {
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
pub(super) fn buy_actions(state: &State, seat: Seat) -> Vec<Action> {
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
pub(super) fn pay_actions(state: &State, seat: Seat) -> Vec<Action> {
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

pub(super) fn pass_actions(state: &State) -> Vec<Action> {
    if state.cubes_left() > 0 {
        vec![Action::Pass]
    } else {
        Vec::new()
    }
}

pub(super) fn claim_actions(state: &State, seat: Seat) -> Vec<Action> {
    Planet::ALL
        .into_iter()
        .filter(|&p| !state.ready_units(seat, p).is_empty())
        .flat_map(|p| claim_orders(state, seat, p, true))
        .map(Action::Claim)
        .collect()
}

/// Where a tile lies on the board.
pub(super) fn tile_planet(state: &State, tile: TileRef) -> Option<Planet> {
    match tile {
        TileRef::Bag(id) => state.tile_planet(id),
        TileRef::Alien(a) => state.aliens.get(&a).copied(),
    }
}

pub(super) fn do_move(
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
pub(super) fn do_claim(
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
pub(super) fn fail_claim(out: &mut Out, seat: Seat, planet: Planet, lose: &[UnitKind]) -> Result<(), Rejection> {
    let before = out.s.clone();
    finish_claim(out, seat, planet, lose, false, &|| legal_actions(&before, seat))
}

pub(super) fn pay(out: &mut Out, seat: Seat, units: UnitCounts, lose: &[UnitKind]) -> Result<(), Rejection> {
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

pub(super) fn buy(out: &mut Out, seat: Seat, units: &[Purchase]) -> Result<(), Rejection> {
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
pub(super) fn pass(out: &mut Out, seat: Seat) -> Result<(), Rejection> {
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
pub(super) fn end_turn(out: &mut Out, seat: Seat) {
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
        out.emit(Event::PlanetOverrun { planet: next });
    }
    false
}
