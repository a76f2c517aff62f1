//! Combat at one space, and planet ownership.
//!
//! Everything here looks at the ships of **one** space (the caller passes
//! them) and at who is allied with whom (`allied(a, b)`, a closure over the
//! game's public alliances). A seat's **enemies** are every seat but itself
//! and its allies.
//!
//! - [`in_combat`]: is there a combat here?
//! - [`targets_of`], [`check_fire`]: the legal `fire` lines, in the order of
//!   the standing rule.
//! - [`with_standing_rule`]: a round's complete allocation of shots from
//!   the sheets as they stand.
//! - [`hit_chance`], [`resolve_round`], [`apply_hits`]: one round, rolled
//!   from the game's [`GameRng`] and replayed onto the ships.
//! - [`strengths`], [`new_owner`]: who holds a planet after combat.
//!
//! Read off `docs/rules/spectrum.md` (*C · Combat*, *Planet ownership*).

use crate::shared::menu::counted;
use crate::spectrum::basics::ships::{apply_hits, Hit, RoundResult, Ship, Shot, Unit};
use crate::spectrum::basics::ShipId;
use orrery_engine::{GameRng, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Is `other` an enemy of `seat`: neither `seat` itself nor its ally?
pub fn is_enemy(seat: Seat, other: Seat, allied: &dyn Fn(Seat, Seat) -> bool) -> bool {
    seat != other && !allied(seat, other)
}

fn find<'a>(ships: &'a [Ship], id: &ShipId) -> Option<&'a Ship> {
    ships.iter().find(|s| s.id == *id)
}

/// `R14, G2` for messages.
fn list(ids: &[ShipId]) -> String {
    ids.iter().map(ShipId::to_string).collect::<Vec<_>>().join(", ")
}

/// The ships `firer` may fire at: non-dark ships of its owner's enemies, in
/// the standing rule's order (most weapons first, then the most remaining
/// units, then [`ShipId`] order). Empty if `firer` is not here or is dark.
pub fn targets_of(ships: &[Ship], firer: &ShipId, allied: &dyn Fn(Seat, Seat) -> bool) -> Vec<ShipId> {
    let Some(firer) = find(ships, firer).filter(|s| !s.dark) else {
        return Vec::new();
    };
    let mut targets: Vec<&Ship> = ships
        .iter()
        .filter(|s| !s.dark && is_enemy(firer.owner, s.owner, allied))
        .collect();
    targets.sort_by(|a, b| {
        b.units
            .weapons
            .cmp(&a.units.weapons)
            .then(b.units.total().cmp(&a.units.total()))
            .then(a.id.cmp(&b.id))
    });
    targets.into_iter().map(|s| s.id).collect()
}

/// The ships able to fire this round, in the order given: non-dark, with
/// shots, and with at least one target.
pub fn firers(ships: &[Ship], allied: &dyn Fn(Seat, Seat) -> bool) -> Vec<ShipId> {
    ships
        .iter()
        .filter(|s| s.shots() > 0 && !targets_of(ships, &s.id, allied).is_empty())
        .map(|s| s.id)
        .collect()
}

/// Is there a combat at this space? Non-dark ships of at least two seats
/// that are not allies, and at least one ship able to fire on one of them.
/// (The second condition implies the first: a ship with a target is one of
/// two non-allied seats.)
pub fn in_combat(ships: &[Ship], allied: &dyn Fn(Seat, Seat) -> bool) -> bool {
    !firers(ships, allied).is_empty()
}

/// One line of a combat sheet: `fire ship:N at:SHIP shots:K`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fire {
    pub ship: ShipId,
    pub target: ShipId,
    pub shots: u8,
}

/// Check one `fire` line of `seat`'s sheet as it is written, against the
/// ships here and the seat's other lines (`already`). The error says what
/// would be legal.
pub fn check_fire(
    ships: &[Ship],
    seat: Seat,
    fire: &Fire,
    already: &[Fire],
    allied: &dyn Fn(Seat, Seat) -> bool,
) -> Result<(), String> {
    let id = fire.ship;
    let Some(ship) = find(ships, &id) else {
        return Err(format!("{id} is not in this combat"));
    };
    if ship.owner != seat {
        return Err(format!("{id} is not your ship"));
    }
    if ship.dark {
        return Err(format!("{id} is dark and cannot fire"));
    }
    let shots = ship.shots();
    if shots == 0 {
        return Err(format!("{id} has no weapons and cannot fire"));
    }
    let targets = targets_of(ships, &id, allied);
    if targets.is_empty() {
        return Err(format!("{id} has nothing to fire at here"));
    }
    if !targets.contains(&fire.target) {
        return Err(format!(
            "{} is not a target of {id} here: targets are {}",
            fire.target,
            list(&targets)
        ));
    }
    if fire.shots == 0 {
        return Err(format!("fire at least 1 shot ({id} has {shots})"));
    }
    let used: u32 = already.iter().filter(|f| f.ship == id).map(|f| f.shots as u32).sum();
    if used + fire.shots as u32 > shots as u32 {
        let left = (shots as u32).saturating_sub(used);
        return Err(if used == 0 {
            format!("{id} has {}", counted(shots, "shot", "shots"))
        } else if left == 0 {
            format!(
                "{id} has {} and your other lines already fire {used}",
                counted(shots, "shot", "shots")
            )
        } else {
            format!(
                "{id} has {} and your other lines already fire {used}: at most {left} more",
                counted(shots, "shot", "shots")
            )
        });
    }
    Ok(())
}

/// A round's complete allocation of shots, from every seat's `fire` lines
/// as they stand.
///
/// Lines no longer legal are dropped (the ship is gone, dark or without
/// shots; the target is gone, dark or no longer an enemy), and each ship's
/// lines are cut down to its shots, in the order given. Then every shot not
/// on a line is fired by the standing rule: one at a time over
/// [`targets_of`] in order, round and round.
///
/// The result is grouped by ship, in the order of `ships`: each firing
/// ship's kept lines, then its standing-rule lines (one per target).
pub fn with_standing_rule(ships: &[Ship], fires: &[Fire], allied: &dyn Fn(Seat, Seat) -> bool) -> Vec<Fire> {
    let mut out = Vec::new();
    for id in firers(ships, allied) {
        let shots = find(ships, &id).map_or(0, Ship::shots);
        let targets = targets_of(ships, &id, allied);
        // The ship's own lines that still stand, capped at its shots.
        let mut left = shots;
        for fire in fires.iter().filter(|f| f.ship == id && targets.contains(&f.target)) {
            let take = fire.shots.min(left);
            if take > 0 {
                out.push(Fire {
                    shots: take,
                    ..fire.clone()
                });
                left -= take;
            }
        }
        // The rest, round and round over the targets.
        let mut per_target = vec![0u8; targets.len()];
        for k in 0..left as usize {
            per_target[k % targets.len()] += 1;
        }
        for (target, n) in targets.iter().zip(per_target) {
            if n > 0 {
                out.push(Fire {
                    ship: id,
                    target: *target,
                    shots: n,
                });
            }
        }
    }
    out
}

/// The chance that a shot from `firer` at `target` hits, as
/// `(TE, AE + TE)`: TE is the weapons of all non-dark ships here whose
/// owners are the target's owner's enemies, AE those of the firer's owner's
/// enemies. `(0, 0)` if either ship is not here.
pub fn hit_chance(ships: &[Ship], firer: &ShipId, target: &ShipId, allied: &dyn Fn(Seat, Seat) -> bool) -> (u32, u32) {
    let (Some(a), Some(t)) = (find(ships, firer), find(ships, target)) else {
        return (0, 0);
    };
    // `weapons()` is 0 for dark ships, so they count for nobody.
    let weapons_of_enemies_of = |seat: Seat| -> u32 {
        ships
            .iter()
            .filter(|s| is_enemy(seat, s.owner, allied))
            .map(Ship::weapons)
            .sum()
    };
    let te = weapons_of_enemies_of(t.owner);
    let ae = weapons_of_enemies_of(a.owner);
    (te, ae + te)
}

/// Roll one round at this space from a complete allocation (see
/// [`with_standing_rule`]).
///
/// Every shot is rolled first, with the hit chance of the ships as they
/// were at the start of the round (a hit iff `rng.below(AE + TE) < TE`).
/// Then the hits are applied in shot order: an armour unit while the
/// target has one, else a random remaining unit (every unit instance
/// equally likely, the system included); a hit on a ship with nothing left
/// is lost. Lines naming a ship that is not here, or that cannot fire at
/// its target, are ignored.
///
/// Pure: `ships` is not changed; replay the result with [`apply_hits`].
pub fn resolve_round(
    ships: &[Ship],
    fires: &[Fire],
    allied: &dyn Fn(Seat, Seat) -> bool,
    rng: &mut GameRng,
) -> RoundResult {
    let mut result = RoundResult::default();

    // 1. Roll every shot against the ships as they are now.
    for fire in fires {
        if !targets_of(ships, &fire.ship, allied).contains(&fire.target) {
            continue;
        }
        let (te, total) = hit_chance(ships, &fire.ship, &fire.target, allied);
        for _ in 0..fire.shots {
            let hit = total > 0 && rng.below(total) < te;
            result.shots.push(Shot {
                ship: fire.ship,
                target: fire.target,
                hit,
            });
        }
    }

    // 2. Apply the hits together, to copies of the ships.
    let mut after: Vec<Ship> = ships.to_vec();
    for shot in result.shots.iter().filter(|s| s.hit) {
        let Some(target) = after.iter_mut().find(|s| s.id == shot.target) else {
            continue;
        };
        let Some(unit) = pick_unit_lost(target, rng) else {
            continue;
        };
        let hit = Hit { ship: target.id, unit };
        apply_hits(target, std::slice::from_ref(&hit));
        result.hits.push(hit);
    }

    // 3. Destroyed and darkened, among the ships hit this round.
    for ship in after.iter().filter(|s| result.hits.iter().any(|h| h.ship == s.id)) {
        if ship.destroyed() {
            result.destroyed.push(ship.id);
        } else if ship.units.system == 0 {
            result.darkened.push(ship.id);
        }
    }
    result
}

/// The unit a hit on `ship` removes: armour while there is any, else a
/// uniformly random unit instance (counted out in [`Unit::ALL`] order);
/// `None` if the ship has no units left.
fn pick_unit_lost(ship: &Ship, rng: &mut GameRng) -> Option<Unit> {
    if ship.units.armour > 0 {
        return Some(Unit::Armour);
    }
    let total = ship.units.total();
    if total == 0 {
        return None;
    }
    let mut index = rng.below(total);
    for unit in Unit::ALL {
        let n = ship.units.get(unit) as u32;
        if index < n {
            return Some(unit);
        }
        index -= n;
    }
    unreachable!("index below the total picks a unit")
}

/// Each seat's strength at a space: the total weapons of its non-dark
/// ships there, in seat order. Seats with only dark ships are left out.
pub fn strengths(ships: &[Ship]) -> Vec<(Seat, u32)> {
    let mut by_seat: BTreeMap<Seat, u32> = BTreeMap::new();
    for ship in ships.iter().filter(|s| !s.dark) {
        *by_seat.entry(ship.owner).or_default() += ship.weapons();
    }
    by_seat.into_iter().collect()
}

/// Who owns a planet after combat, from its owner now and each seat's
/// strength at its space (see [`strengths`]):
///
/// - only a strength above 0 can take a planet;
/// - unowned: the strongest seat takes it; nobody on a tie;
/// - owned: unchanged if the owner or an ally of the owner is strongest or
///   tied for strongest; otherwise the strongest enemy of the owner takes
///   it, or it becomes unowned if two or more enemies tie for strongest.
pub fn new_owner(
    current: Option<Seat>,
    strengths: &[(Seat, u32)],
    allied: &dyn Fn(Seat, Seat) -> bool,
) -> Option<Seat> {
    // Sum per seat (a seat listed twice counts once), keeping those above 0.
    let mut by_seat: BTreeMap<Seat, u32> = BTreeMap::new();
    for (seat, s) in strengths {
        *by_seat.entry(*seat).or_default() += s;
    }
    let Some(best) = by_seat.values().copied().max().filter(|b| *b > 0) else {
        // Nobody can take it: it stays as it is.
        return current;
    };
    let strongest: Vec<Seat> = by_seat
        .iter()
        .filter(|(_, s)| **s == best)
        .map(|(seat, _)| *seat)
        .collect();
    match current {
        None => match strongest.as_slice() {
            [one] => Some(*one),
            _ => None,
        },
        Some(owner) => {
            if strongest.iter().any(|s| !is_enemy(owner, *s, allied)) {
                return Some(owner);
            }
            // Every strongest seat is an enemy of the owner.
            match strongest.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spectrum::basics::ships::Class;
    use crate::spectrum::basics::{Colour, Space};
    use orrery_engine::Hex;

    const RED: Seat = Seat(0);
    const GREEN: Seat = Seat(1);
    const BLUE: Seat = Seat(2);

    fn here() -> Space {
        Space::new(Hex::new(1, -1), 2)
    }

    fn colour(seat: Seat) -> Colour {
        [Colour::Red, Colour::Green, Colour::Blue, Colour::Yellow][seat.index()]
    }

    fn id(seat: Seat, number: u8) -> ShipId {
        ShipId {
            colour: colour(seat),
            number,
        }
    }

    fn ship(seat: Seat, number: u8, class: Class) -> Ship {
        Ship::new(id(seat, number), seat, class, here())
    }

    fn nobody(_: Seat, _: Seat) -> bool {
        false
    }

    /// Red and blue are allies; green is alone.
    fn red_blue(a: Seat, b: Seat) -> bool {
        matches!((a, b), (RED, BLUE) | (BLUE, RED))
    }

    #[test]
    fn combat_needs_two_enemies_and_a_gun() {
        let mut ships = vec![ship(RED, 1, Class::Fighter), ship(RED, 2, Class::Cruiser)];
        assert!(!in_combat(&ships, &nobody));
        ships.push(ship(BLUE, 3, Class::Fighter));
        assert!(in_combat(&ships, &nobody));
        // Allies do not fight.
        assert!(!in_combat(&ships, &red_blue));
        // Unarmed ships alone make no combat.
        let scouts = vec![ship(RED, 1, Class::Scout), ship(GREEN, 2, Class::Terraformer)];
        assert!(!in_combat(&scouts, &nobody));
        // One armed side is enough.
        let mut one_side = scouts.clone();
        one_side.push(ship(GREEN, 3, Class::Fighter));
        assert!(in_combat(&one_side, &nobody));
        // Dark ships are out of it.
        one_side[0].dark = true;
        assert!(!in_combat(&one_side, &nobody));
    }

    #[test]
    fn targets_follow_the_standing_order() {
        let mut damaged = ship(GREEN, 5, Class::Cruiser);
        damaged.units.armour = 0;
        let mut dark = ship(GREEN, 6, Class::Basestar);
        dark.dark = true;
        let ships = vec![
            ship(RED, 14, Class::Cruiser),
            ship(GREEN, 9, Class::Fighter),
            ship(GREEN, 2, Class::Fighter),
            damaged,
            ship(GREEN, 7, Class::Cruiser),
            dark,
            ship(BLUE, 1, Class::Basestar),
            ship(RED, 3, Class::Frigate),
        ];
        // Red is allied with blue: green's cruisers (full one first), then
        // the fighters by name.
        let order = targets_of(&ships, &id(RED, 14), &red_blue);
        assert_eq!(order, vec![id(GREEN, 7), id(GREEN, 5), id(GREEN, 2), id(GREEN, 9)]);
        // Without alliances the basestar comes first.
        assert_eq!(targets_of(&ships, &id(RED, 14), &nobody)[0], id(BLUE, 1));
        // Green's targets: red and blue, never its own.
        let green = targets_of(&ships, &id(GREEN, 9), &red_blue);
        assert_eq!(green, vec![id(BLUE, 1), id(RED, 14), id(RED, 3)]);
    }

    #[test]
    fn fire_lines_are_checked_as_written() {
        let ships = vec![
            ship(RED, 14, Class::Cruiser),
            ship(RED, 3, Class::Frigate),
            ship(GREEN, 2, Class::Fighter),
            ship(GREEN, 9, Class::Fighter),
            ship(BLUE, 7, Class::Fighter),
        ];
        let fire = |ship, target, shots| Fire { ship, target, shots };
        let r14 = id(RED, 14);
        assert_eq!(
            check_fire(&ships, RED, &fire(r14, id(GREEN, 2), 3), &[], &red_blue),
            Ok(())
        );
        assert_eq!(
            check_fire(&ships, RED, &fire(r14, id(BLUE, 7), 1), &[], &red_blue),
            Err("B7 is not a target of R14 here: targets are G2, G9".into())
        );
        assert_eq!(
            check_fire(&ships, RED, &fire(r14, id(GREEN, 2), 4), &[], &red_blue),
            Err("R14 has 3 shots".into())
        );
        let lines = [
            fire(r14, id(GREEN, 2), 2),
            fire(r14, id(GREEN, 9), 1),
            fire(id(RED, 3), id(GREEN, 9), 1),
        ];
        assert_eq!(
            check_fire(&ships, RED, &fire(r14, id(GREEN, 9), 1), &lines, &red_blue),
            Err("R14 has 3 shots and your other lines already fire 3".into())
        );
        assert_eq!(
            check_fire(&ships, RED, &fire(r14, id(GREEN, 9), 2), &lines[..1], &red_blue),
            Err("R14 has 3 shots and your other lines already fire 2: at most 1 more".into())
        );
        assert_eq!(
            check_fire(&ships, RED, &fire(r14, id(GREEN, 9), 1), &lines[..1], &red_blue),
            Ok(())
        );
        assert_eq!(
            check_fire(&ships, GREEN, &fire(r14, id(GREEN, 9), 1), &[], &red_blue),
            Err("R14 is not your ship".into())
        );
        assert_eq!(
            check_fire(&ships, RED, &fire(id(RED, 99), id(GREEN, 9), 1), &[], &red_blue),
            Err("R99 is not in this combat".into())
        );
        assert!(check_fire(&ships, RED, &fire(r14, id(GREEN, 9), 0), &[], &red_blue).is_err());
        let mut dark = ships.clone();
        dark[0].dark = true;
        assert_eq!(
            check_fire(&dark, RED, &fire(r14, id(GREEN, 9), 1), &[], &red_blue),
            Err("R14 is dark and cannot fire".into())
        );
    }

    #[test]
    fn standing_rule_fires_what_is_not_written() {
        let ships = vec![
            ship(RED, 14, Class::Cruiser),
            ship(GREEN, 2, Class::Fighter),
            ship(GREEN, 7, Class::Frigate),
        ];
        // Empty sheets: 3 shots over 2 targets → 2 on the stronger (the
        // frigate has more units), 1 on the other; each fighter-class ship
        // fires its one shot at the cruiser.
        let all = with_standing_rule(&ships, &[], &nobody);
        assert_eq!(
            all,
            vec![
                Fire {
                    ship: id(RED, 14),
                    target: id(GREEN, 7),
                    shots: 2
                },
                Fire {
                    ship: id(RED, 14),
                    target: id(GREEN, 2),
                    shots: 1
                },
                Fire {
                    ship: id(GREEN, 2),
                    target: id(RED, 14),
                    shots: 1
                },
                Fire {
                    ship: id(GREEN, 7),
                    target: id(RED, 14),
                    shots: 1
                },
            ]
        );

        // A written line is kept (capped at the ship's shots); the rest
        // follows the rule. Lines at ships no longer here are dropped.
        let lines = [
            Fire {
                ship: id(RED, 14),
                target: id(GREEN, 2),
                shots: 1,
            },
            Fire {
                ship: id(RED, 14),
                target: id(GREEN, 99),
                shots: 1,
            },
            Fire {
                ship: id(GREEN, 2),
                target: id(RED, 14),
                shots: 5,
            },
        ];
        let all = with_standing_rule(&ships, &lines, &nobody);
        assert_eq!(
            all,
            vec![
                Fire {
                    ship: id(RED, 14),
                    target: id(GREEN, 2),
                    shots: 1
                },
                Fire {
                    ship: id(RED, 14),
                    target: id(GREEN, 7),
                    shots: 1
                },
                Fire {
                    ship: id(RED, 14),
                    target: id(GREEN, 2),
                    shots: 1
                },
                Fire {
                    ship: id(GREEN, 2),
                    target: id(RED, 14),
                    shots: 1
                },
                Fire {
                    ship: id(GREEN, 7),
                    target: id(RED, 14),
                    shots: 1
                },
            ]
        );
        for ship in &ships {
            let fired: u8 = all.iter().filter(|f| f.ship == ship.id).map(|f| f.shots).sum();
            assert_eq!(fired, ship.shots());
        }
    }

    #[test]
    fn hit_chance_is_te_over_ae_plus_te() {
        // Red: two cruisers (weapons 6); green: a cruiser and a fighter
        // (weapons 4); a dark basestar of green's counts for nobody.
        let mut dark = ship(GREEN, 8, Class::Basestar);
        dark.dark = true;
        let ships = vec![
            ship(RED, 1, Class::Cruiser),
            ship(RED, 2, Class::Cruiser),
            ship(GREEN, 3, Class::Cruiser),
            ship(GREEN, 4, Class::Fighter),
            dark,
        ];
        assert_eq!(hit_chance(&ships, &id(RED, 1), &id(GREEN, 4), &nobody), (6, 10));
        assert_eq!(hit_chance(&ships, &id(GREEN, 4), &id(RED, 2), &nobody), (4, 10));

        // Three seats: red and blue allied against green.
        let ships = vec![
            ship(RED, 1, Class::Cruiser),
            ship(BLUE, 2, Class::Fighter),
            ship(GREEN, 3, Class::Basestar),
        ];
        // Red at green: TE = red + blue = 4, AE = green = 5.
        assert_eq!(hit_chance(&ships, &id(RED, 1), &id(GREEN, 3), &red_blue), (4, 9));
        // Green at blue: TE = green = 5, AE = red + blue = 4.
        assert_eq!(hit_chance(&ships, &id(GREEN, 3), &id(BLUE, 2), &red_blue), (5, 9));
        // Nobody allied, red at green: TE = red + blue, AE = green + blue.
        assert_eq!(hit_chance(&ships, &id(RED, 1), &id(GREEN, 3), &nobody), (4, 10));
    }

    /// Roll rounds with seeds until `wanted` holds of the result.
    fn some_round(
        ships: &[Ship],
        allied: &dyn Fn(Seat, Seat) -> bool,
        wanted: impl Fn(&RoundResult) -> bool,
    ) -> RoundResult {
        let fires = with_standing_rule(ships, &[], allied);
        (0..1000)
            .map(|seed| resolve_round(ships, &fires, allied, &mut GameRng::seeded(seed)))
            .find(|r| wanted(r))
            .expect("some seed gives it")
    }

    #[test]
    fn armour_absorbs_hits_first() {
        let ships = vec![ship(RED, 1, Class::Basestar), ship(GREEN, 2, Class::Cruiser)];
        let r = some_round(&ships, &nobody, |r| {
            r.hits.iter().filter(|h| h.ship == id(GREEN, 2)).count() >= 3
        });
        let on_cruiser: Vec<Unit> = r
            .hits
            .iter()
            .filter(|h| h.ship == id(GREEN, 2))
            .map(|h| h.unit)
            .collect();
        assert_eq!(&on_cruiser[..2], &[Unit::Armour, Unit::Armour]);
        assert_ne!(on_cruiser[2], Unit::Armour);
        // Every hit is one unit lost.
        assert_eq!(r.hits.len(), r.shots.iter().filter(|s| s.hit).count());
    }

    #[test]
    fn a_system_hit_darkens() {
        // A scout has no armour and 5 units; a basestar fires 2 of its 5
        // shots at it (3 at the armed fighter).
        let ships = vec![
            ship(RED, 1, Class::Basestar),
            ship(GREEN, 2, Class::Scout),
            ship(GREEN, 3, Class::Fighter),
        ];
        let r = some_round(&ships, &nobody, |r| {
            r.hits.iter().any(|h| h.ship == id(GREEN, 2) && h.unit == Unit::System)
        });
        let mut after = ships.clone();
        for s in &mut after {
            apply_hits(s, &r.hits);
        }
        let scout = &after[1];
        assert_eq!(scout.units.system, 0);
        if scout.destroyed() {
            assert!(r.destroyed.contains(&scout.id));
        } else {
            assert!(r.darkened.contains(&scout.id));
            assert!(scout.dark);
        }
    }

    #[test]
    fn no_weapons_and_no_drive_destroys() {
        // A fighter with only weapons 1 and drive 1 left, under a
        // basestar's 5 shots: sometimes both go.
        let mut fighter = ship(GREEN, 2, Class::Fighter);
        fighter.units.armour = 0;
        let ships = vec![ship(RED, 1, Class::Basestar), fighter];
        let r = some_round(&ships, &nobody, |r| !r.destroyed.is_empty());
        assert_eq!(r.destroyed, vec![id(GREEN, 2)]);
        assert!(r.darkened.is_empty());
        let mut after = ships[1].clone();
        apply_hits(&mut after, &r.hits);
        assert_eq!((after.units.weapons, after.units.drive), (0, 0));
        assert!(after.destroyed());
        // Hits on a ship with nothing left are lost.
        assert!(r.hits.iter().filter(|h| h.ship == id(GREEN, 2)).count() <= 3);
    }

    #[test]
    fn a_seeded_round_is_deterministic_and_replays() {
        let mut ships = vec![
            ship(RED, 1, Class::Basestar),
            ship(RED, 2, Class::Cruiser),
            ship(GREEN, 3, Class::Cruiser),
            ship(GREEN, 4, Class::Frigate),
            ship(BLUE, 5, Class::Jumper),
            ship(BLUE, 6, Class::Fighter),
        ];
        let fires = with_standing_rule(&ships, &[], &red_blue);
        let a = resolve_round(&ships, &fires, &red_blue, &mut GameRng::seeded(42));
        let b = resolve_round(&ships, &fires, &red_blue, &mut GameRng::seeded(42));
        assert_eq!(a, b);
        let fired: u32 = fires.iter().map(|f| f.shots as u32).sum();
        assert_eq!(a.shots.len() as u32, fired);

        // Several rounds, replayed onto the ships: the status of every ship
        // matches what each result says.
        for seed in 0..20 {
            let fires = with_standing_rule(&ships, &[], &red_blue);
            if fires.is_empty() {
                break;
            }
            let was_dark: Vec<bool> = ships.iter().map(|s| s.dark).collect();
            let r = resolve_round(&ships, &fires, &red_blue, &mut GameRng::seeded(seed));
            for (s, dark_before) in ships.iter_mut().zip(was_dark) {
                apply_hits(s, &r.hits);
                assert_eq!(s.destroyed(), r.destroyed.contains(&s.id), "{s}");
                if !dark_before && !s.destroyed() {
                    assert_eq!(s.dark, r.darkened.contains(&s.id), "{s}");
                }
            }
            ships.retain(|s| !s.destroyed());
        }
    }

    #[test]
    fn strengths_count_non_dark_weapons() {
        let mut dark = ship(GREEN, 3, Class::Basestar);
        dark.dark = true;
        let ships = vec![
            ship(RED, 1, Class::Cruiser),
            ship(RED, 2, Class::Fighter),
            dark,
            ship(BLUE, 4, Class::Scout),
        ];
        // Green's only ship is dark: green is not there at all; blue is,
        // with strength 0.
        assert_eq!(strengths(&ships), vec![(RED, 4), (BLUE, 0)]);
    }

    #[test]
    fn ownership_follows_the_rules_page() {
        let yellow = Seat(3);
        // Unowned: the strongest takes it, nobody on a tie.
        assert_eq!(new_owner(None, &[(RED, 3), (GREEN, 1)], &nobody), Some(RED));
        assert_eq!(new_owner(None, &[(RED, 3), (GREEN, 3)], &nobody), None);
        // Strength 0 takes nothing.
        assert_eq!(new_owner(None, &[(RED, 0)], &nobody), None);
        assert_eq!(new_owner(None, &[], &nobody), None);
        assert_eq!(new_owner(Some(GREEN), &[(RED, 0)], &nobody), Some(GREEN));
        // Owned, nobody there: unchanged.
        assert_eq!(new_owner(Some(GREEN), &[], &nobody), Some(GREEN));
        // Owner strongest or tied for strongest: unchanged.
        assert_eq!(new_owner(Some(GREEN), &[(GREEN, 3), (RED, 3)], &nobody), Some(GREEN));
        assert_eq!(new_owner(Some(GREEN), &[(GREEN, 4), (RED, 3)], &nobody), Some(GREEN));
        // An ally of the owner strongest: unchanged (the ally does not take it).
        assert_eq!(new_owner(Some(RED), &[(BLUE, 5), (GREEN, 3)], &red_blue), Some(RED));
        assert_eq!(new_owner(Some(RED), &[(BLUE, 3), (GREEN, 3)], &red_blue), Some(RED));
        // The owner is weaker: the strongest enemy takes it.
        assert_eq!(new_owner(Some(GREEN), &[(GREEN, 2), (RED, 3)], &nobody), Some(RED));
        assert_eq!(new_owner(Some(GREEN), &[(RED, 3)], &red_blue), Some(RED));
        // Two enemies tie for strongest: unowned.
        assert_eq!(
            new_owner(Some(GREEN), &[(GREEN, 1), (RED, 3), (yellow, 3)], &nobody),
            None
        );
        // Allied enemies of the owner tied for strongest are still two.
        assert_eq!(new_owner(Some(GREEN), &[(RED, 3), (BLUE, 3)], &red_blue), None);
    }

    #[test]
    fn dark_ships_and_unarmed_ships_do_not_take_planets() {
        let mut dark = ship(RED, 1, Class::Basestar);
        dark.dark = true;
        let ships = vec![dark, ship(GREEN, 2, Class::Scout)];
        assert_eq!(new_owner(None, &strengths(&ships), &nobody), None);
        assert_eq!(new_owner(Some(BLUE), &strengths(&ships), &nobody), Some(BLUE));
        let ships = vec![ship(RED, 1, Class::Fighter), ship(GREEN, 2, Class::Scout)];
        assert_eq!(new_owner(Some(GREEN), &strengths(&ships), &nobody), Some(RED));
    }

    #[test]
    fn results_serialize() {
        let ships = vec![ship(RED, 1, Class::Cruiser), ship(GREEN, 2, Class::Frigate)];
        let fires = with_standing_rule(&ships, &[], &nobody);
        let r = resolve_round(&ships, &fires, &nobody, &mut GameRng::seeded(7));
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<RoundResult>(&json).unwrap(), r);
    }
}
