//! A turn: each section's lines checked as they are written
//! ([`check_line`]), each section carried out when its sheets are revealed
//! ([`carry_out`]), the beginning of a turn (runs, factions, victory,
//! income) and the end of the war.

use super::combat;
use crate::spectrum::basics::ships::{Class, Ship};
use crate::spectrum::basics::{Colour, ShipId, Space};
use crate::spectrum::events::{self, Dropped, Event};
use crate::spectrum::map::{all_vectors, Path, Segment};
use crate::spectrum::state::{Faction, Order, Section, State};
use crate::spectrum::state::{EMPIRE_CORE, TO_WIN, WIN_RUN};
use orrery_engine::{Outcome, Seat};

// ---------------------------------------------------------------- helpers

/// Apply `new` to `s` and keep them in `out`.
fn push(s: &mut State, out: &mut Vec<Event>, new: impl IntoIterator<Item = Event>) {
    for e in new {
        events::apply(s, &e);
        out.push(e);
    }
}

fn alive(s: &State) -> Vec<Seat> {
    s.seats().filter(|x| !s.out[x.index()]).collect()
}

/// What the economic lines of a sheet cost: maintenance of the ships not
/// scrapped, repairs, builds.
pub fn sheet_cost(s: &State, seat: Seat, lines: &[Order]) -> u32 {
    let scrapped: Vec<ShipId> = lines
        .iter()
        .filter_map(|o| match o {
            Order::Scrap { ship } => Some(*ship),
            _ => None,
        })
        .collect();
    let upkeep = s.ships_of(seat).filter(|x| !scrapped.contains(&x.id)).count() as u32;
    let rest: u32 = lines
        .iter()
        .map(|o| match o {
            Order::Repair { ship, points } => s.ship(*ship).map_or(0, |x| points.unwrap_or(u32::MAX).min(x.damage())),
            Order::Build { class, .. } => class.cost(),
            _ => 0,
        })
        .sum();
    upkeep + rest
}

/// The line of `others` (from 1) that already orders `ship` in a way
/// `same` recognises.
fn line_of(others: &[Order], same: impl Fn(&Order) -> bool) -> Option<usize> {
    others.iter().position(same).map(|i| i + 1)
}

/// The seats a faction needs, by the number of players.
fn faction_sizes(players: u8) -> &'static [usize] {
    match players {
        4 | 5 => &[2],
        6 => &[2, 3],
        _ => &[],
    }
}

/// The colours a terraformer at planet `p` may turn it to, with the one
/// taken without a choice first. Empty: nothing to terraform there.
pub fn terraform_options(s: &State, p: usize) -> Vec<Colour> {
    let Some(owner) = s.planets[p].owner else {
        return Vec::new();
    };
    let own = s.colour(owner);
    let now = s.planets[p].colour;
    let works = s.ships.iter().any(|x| {
        x.owner == owner
            && !x.dark
            && x.units.terraforming > 0
            && x.at == s.map.planets[p].space
            && !s.moved.contains(&x.id)
    });
    if !works {
        return Vec::new();
    }
    match now.steps(own) {
        None => vec![own.turned(1), own.turned(-1)],
        Some(3) => vec![own.turned(2), own.turned(-2)],
        Some(2) => vec![Colour::Gray],
        Some(1) => vec![own],
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------- lines

/// Whether `order` may stand on `seat`'s sheet beside `others`, in the
/// section it belongs to. The message says what would be legal.
pub fn check_line(s: &State, seat: Seat, order: &Order, others: &[Order]) -> Result<(), String> {
    let own_ship = |id: ShipId| s.ship(id).filter(|x| x.owner == seat);
    match order {
        Order::Scrap { ship } => {
            own_ship(*ship).ok_or_else(|| format!("you have no ship {ship}"))?;
            if let Some(n) = line_of(others, |o| matches!(o, Order::Scrap { ship: x } if x == ship)) {
                return Err(format!("line {n} already scraps {ship}"));
            }
            if let Some(n) = line_of(
                others,
                |o| matches!(o, Order::Repair { ship: x, .. } | Order::Hide { ship: x } if x == ship),
            ) {
                return Err(format!("line {n} already repairs or hides {ship}; remove it first"));
            }
        }
        Order::Repair { ship, points } => {
            let x = own_ship(*ship).ok_or_else(|| format!("you have no ship {ship}"))?;
            if x.damage() == 0 {
                return Err(format!("{ship} has no damage to repair"));
            }
            if *points == Some(0) {
                return Err("`points:0` repairs nothing".into());
            }
            if let Some(n) = line_of(
                others,
                |o| matches!(o, Order::Repair { ship: x, .. } | Order::Scrap { ship: x } | Order::Hide { ship: x } if x == ship),
            ) {
                return Err(format!(
                    "line {n} already orders {ship} (scrap, repair or hide: one of them)"
                ));
            }
        }
        Order::Hide { ship } => {
            let x = own_ship(*ship).ok_or_else(|| format!("you have no ship {ship}"))?;
            if x.dark {
                return Err(format!("{ship} is dark already"));
            }
            if let Some(n) = line_of(
                others,
                |o| matches!(o, Order::Repair { ship: x, .. } | Order::Scrap { ship: x } | Order::Hide { ship: x } if x == ship),
            ) {
                return Err(format!(
                    "line {n} already orders {ship}; a ship being repaired cannot hide"
                ));
            }
        }
        Order::Build { at, .. } => {
            if s.planets[*at].owner != Some(seat) {
                let yours: Vec<&str> = s
                    .planets
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.owner == Some(seat))
                    .map(|(i, _)| s.map.planets[i].name.as_str())
                    .collect();
                return Err(format!(
                    "you do not own {}; you can build at {}",
                    s.map.planets[*at].name,
                    if yours.is_empty() {
                        "no planet".to_string()
                    } else {
                        yours.join(", ")
                    }
                ));
            }
        }
        Order::Move { ship, path } => {
            let x = own_ship(*ship).ok_or_else(|| format!("you have no ship {ship}"))?;
            if x.dark {
                return Err(format!("{ship} is dark: it cannot move until its system is repaired"));
            }
            if x.units.drive == 0 {
                return Err(format!("{ship} has no drive left: it cannot move"));
            }
            if s.in_encounter(x) {
                return Err(format!(
                    "{ship} is in an encounter at {}: it cannot move",
                    s.map.space_name(x.at)
                ));
            }
            if let Some(n) = line_of(others, |o| matches!(o, Order::Move { ship: x, .. } if x == ship)) {
                return Err(format!("line {n} already moves {ship}; give `line:{n}` to replace it"));
            }
            if let Some((_, d)) = path.slip() {
                if x.units.slip == 0 {
                    return Err(format!("{ship} has no slip unit: it cannot slipstream"));
                }
                if u32::from(d) > u32::from(x.units.drive) {
                    return Err(format!(
                        "{ship} can slipstream at most {} spaces (one per drive unit)",
                        x.units.drive
                    ));
                }
            }
            if path.uses_jump() && x.units.jump == 0 {
                return Err(format!("{ship} has no jump unit: it cannot jump"));
            }
            if path.drive_used() > x.units.drive {
                return Err(format!(
                    "that path uses {} drive units (one per warp or jump); {ship} has {}",
                    path.drive_used(),
                    x.units.drive
                ));
            }
            s.map.trace(x.at, path)?;
        }
        Order::Fire { ship, target, shots } => {
            let x = own_ship(*ship).ok_or_else(|| format!("you have no ship {ship}"))?;
            let here = s.ships_at(x.at);
            let allied = |a: Seat, b: Seat| s.allied(a, b);
            let fire = combat::Fire {
                ship: *ship,
                target: *target,
                shots: shots.unwrap_or(x.shots()),
            };
            let already: Vec<combat::Fire> = others
                .iter()
                .filter_map(|o| match o {
                    Order::Fire {
                        ship: f,
                        target: t,
                        shots: n,
                    } if f == ship => Some(combat::Fire {
                        ship: *f,
                        target: *t,
                        shots: n.unwrap_or(x.shots()),
                    }),
                    _ => None,
                })
                .collect();
            if !combat::in_combat(&here, &allied) {
                return Err(format!("{ship} is in no combat"));
            }
            combat::check_fire(&here, seat, &fire, &already, &allied)?;
        }
        Order::Terraform { planet, colour, .. } => {
            let options = terraform_options(s, *planet);
            let name = &s.map.planets[*planet].name;
            if s.planets[*planet].owner != Some(seat) || options.is_empty() {
                return Err(format!(
                    "no terraformer of yours works on {name} this turn (it must be yours, stationary, with its terraforming unit, at your planet)"
                ));
            }
            if options.len() < 2 {
                return Err(format!("{name} turns {} without a choice", options[0]));
            }
            if !options.contains(colour) {
                return Err(format!("{name} can turn {} or {}", options[0], options[1]));
            }
            if let Some(n) = line_of(
                others,
                |o| matches!(o, Order::Terraform { planet: p, .. } if p == planet),
            ) {
                return Err(format!("line {n} already chooses for {name}"));
            }
        }
        Order::Ally { player, yes } => {
            if *player == seat || player.index() >= s.players as usize {
                return Err("name another player of this war".into());
            }
            if *yes && s.out[player.index()] {
                return Err("that player is out of the war: name one still in it".into());
            }
            if let Some(n) = line_of(others, |o| matches!(o, Order::Ally { player: p, .. } if p == player)) {
                return Err(format!("line {n} already sets your alliance with that player"));
            }
        }
        Order::Faction { with, empire } => {
            let sizes = faction_sizes(s.players);
            if sizes.is_empty() {
                return Err("factions need 4 or more players".into());
            }
            let size = with.len() + 1;
            if !sizes.contains(&size) {
                return Err(format!(
                    "with {} players a faction has {} members",
                    s.players,
                    if sizes.len() == 1 {
                        "2".to_string()
                    } else {
                        "2 or 3".to_string()
                    }
                ));
            }
            if *empire && size != 3 {
                return Err("an empire is a dominant player and two allies".into());
            }
            let mut all = with.clone();
            all.push(seat);
            all.sort();
            all.dedup();
            if all.len() != size || with.iter().any(|p| p.index() >= s.players as usize) {
                return Err("name other players of this war, each once".into());
            }
            if with.iter().any(|p| s.out[p.index()]) {
                return Err("a faction's members must all be still in the war".into());
            }
            if let Some(n) = line_of(others, |o| matches!(o, Order::Faction { .. })) {
                return Err(format!("line {n} already declares a faction"));
            }
        }
    }
    if matches!(order, Order::Build { .. } | Order::Repair { .. }) {
        let mut all = others.to_vec();
        all.push(order.clone());
        let cost = sheet_cost(s, seat, &all);
        let have = s.points[seat.index()];
        if cost > have {
            return Err(format!(
                "this sheet would cost {cost} points (maintenance included) and you have {have}"
            ));
        }
    }
    Ok(())
}

/// Lines worth offering `seat` now (each still checked by `check_line`):
/// one of each kind per ship, planet and player; moves of one warp.
pub fn candidate_lines(s: &State, seat: Seat) -> Vec<Order> {
    let mut out = Vec::new();
    let mine: Vec<&Ship> = s.ships_of(seat).collect();
    match s.section {
        Section::Economic => {
            for (i, p) in s.planets.iter().enumerate() {
                if p.owner == Some(seat) {
                    for class in Class::ALL {
                        out.push(Order::Build {
                            class,
                            at: i,
                            name: s.map.planets[i].name.clone(),
                        });
                    }
                }
            }
            for x in &mine {
                out.push(Order::Repair {
                    ship: x.id,
                    points: None,
                });
                out.push(Order::Hide { ship: x.id });
                out.push(Order::Scrap { ship: x.id });
            }
        }
        Section::Movement => {
            for x in &mine {
                out.push(Order::Move {
                    ship: x.id,
                    path: Path(Vec::new()),
                });
                for v in all_vectors() {
                    out.push(Order::Move {
                        ship: x.id,
                        path: Path(vec![Segment::Warp(v)]),
                    });
                }
                out.push(Order::Move {
                    ship: x.id,
                    path: Path(vec![Segment::Jump]),
                });
            }
        }
        Section::Combat { .. } => {
            let allied = |a: Seat, b: Seat| s.allied(a, b);
            for x in &mine {
                let here = s.ships_at(x.at);
                for t in combat::targets_of(&here, &x.id, &allied) {
                    out.push(Order::Fire {
                        ship: x.id,
                        target: t,
                        shots: None,
                    });
                }
            }
        }
        Section::EcoPolitical => {
            for p in 0..s.planets.len() {
                for colour in terraform_options(s, p) {
                    out.push(Order::Terraform {
                        planet: p,
                        name: s.map.planets[p].name.clone(),
                        colour,
                    });
                }
            }
            for other in s.seats().filter(|o| *o != seat && !s.out[o.index()]) {
                let yes = !s.settings[seat.index()][other.index()];
                out.push(Order::Ally { player: other, yes });
            }
            let allies: Vec<Seat> = s.seats().filter(|o| s.allied(seat, *o)).collect();
            for a in &allies {
                out.push(Order::Faction {
                    with: vec![*a],
                    empire: false,
                });
            }
            if s.players == 6 {
                for (i, a) in allies.iter().enumerate() {
                    for b in &allies[i + 1..] {
                        out.push(Order::Faction {
                            with: vec![*a, *b],
                            empire: true,
                        });
                        if s.allied(*a, *b) {
                            out.push(Order::Faction {
                                with: vec![*a, *b],
                                empire: false,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------- carrying out

/// The sheets of the running section are in (all ready, or the deadline
/// took them as they stand): carry the section out, then open the next
/// section someone owes a sheet in, beginning new turns as needed.
pub fn carry_out(state: &State) -> Vec<Event> {
    let mut s = state.clone();
    let mut out = Vec::new();
    let sheets = s.sheet.as_they_stand();
    let next = match s.section {
        Section::Economic => {
            economic(&mut s, &mut out, &sheets);
            Some(Section::Movement)
        }
        Section::Movement => {
            movement(&mut s, &mut out, &sheets);
            None
        }
        Section::Combat { round } => {
            combat_round(&mut s, &mut out, &sheets);
            next_round(&s, round)
        }
        Section::EcoPolitical => {
            ecopolitical(&mut s, &mut out, &sheets);
            if s.outcome.is_some() {
                return out;
            }
            let next = begin_turn(&s);
            push(&mut s, &mut out, next);
            return out;
        }
    };
    open_from(&mut s, &mut out, next);
    out
}

/// Open `next` (or, with `None`, what follows movement and combat:
/// ownership, then the ecopolitical sheets), skipping sections nobody owes.
fn open_from(s: &mut State, out: &mut Vec<Event>, mut next: Option<Section>) {
    loop {
        match next {
            Some(Section::Movement) => {
                // Everyone in the war owes a movement sheet while any ship
                // can move: who has ships is secret, so who owes may not
                // tell it.
                let owing = alive(s);
                if s.ships.iter().any(|x| s.can_move(x)) {
                    push(
                        s,
                        out,
                        [Event::SectionOpened {
                            section: Section::Movement,
                            owing,
                        }],
                    );
                    return;
                }
                next = None;
            }
            Some(Section::Combat { round }) => {
                if combat_spaces(s).is_empty() {
                    next = None;
                    continue;
                }
                // Only the players with a ship able to fire in a fight owe
                // the round's combat sheet. Who they are is secret: the
                // platform names nobody for it (`Pending::undisclosed`).
                let owing: Vec<Seat> = alive(s).into_iter().filter(|x| in_a_fight(s, *x)).collect();
                let nobody = owing.is_empty();
                push(
                    s,
                    out,
                    [Event::SectionOpened {
                        section: Section::Combat { round },
                        owing,
                    }],
                );
                if !nobody {
                    return;
                }
                // Nobody has a shot to aim: the round is fought at once.
                combat_round(s, out, &[]);
                next = next_round(s, round);
            }
            Some(other) => {
                // Economic and EcoPolitical are owed by everyone in the war.
                push(
                    s,
                    out,
                    [Event::SectionOpened {
                        section: other,
                        owing: alive(s),
                    }],
                );
                return;
            }
            None => {
                if !matches!(s.section, Section::Combat { .. }) && !combat_spaces(s).is_empty() {
                    next = Some(Section::Combat { round: 1 });
                    continue;
                }
                ownership(s, out);
                next = Some(Section::EcoPolitical);
            }
        }
    }
}

/// The combat round after `round`, while a combat is possible: "a new
/// combat round with new odds etc. will begin as long as any possible
/// combats remain". A combat is possible where a ship can fire on an enemy
/// ([`combat::in_combat`]); every such shot hits with a chance above 0 and
/// every hit takes a unit out, so fights end.
fn next_round(s: &State, round: u8) -> Option<Section> {
    (!combat_spaces(s).is_empty()).then_some(Section::Combat {
        round: round.saturating_add(1),
    })
}

/// Whether `seat` has a ship able to fire in a combat.
pub fn in_a_fight(s: &State, seat: Seat) -> bool {
    let allied = |a: Seat, b: Seat| s.allied(a, b);
    combat_spaces(s).into_iter().any(|sp| {
        let here = s.ships_at(sp);
        here.iter().any(|x| {
            x.owner == seat && !x.dark && x.shots() > 0 && !combat::targets_of(&here, &x.id, &allied).is_empty()
        })
    })
}

/// Spaces where a combat is on, in order.
fn combat_spaces(s: &State) -> Vec<Space> {
    let allied = |a: Seat, b: Seat| s.allied(a, b);
    let mut spaces: Vec<_> = s.ships.iter().map(|x| x.at).collect();
    spaces.sort();
    spaces.dedup();
    spaces.retain(|sp| combat::in_combat(&s.ships_at(*sp), &allied));
    spaces
}

fn drop_line(out_s: &mut State, out: &mut Vec<Event>, seat: Seat, line: usize, order: &Order, why: String) {
    push(
        out_s,
        out,
        [Event::LineDropped(Dropped {
            seat,
            line,
            order: order.clone(),
            why,
        })],
    );
}

fn economic(s: &mut State, out: &mut Vec<Event>, sheets: &[(Seat, Vec<Order>)]) {
    for (seat, lines) in sheets {
        let seat = *seat;
        let numbered: Vec<(usize, &Order)> = lines.iter().enumerate().map(|(i, o)| (i + 1, o)).collect();
        // Scrap.
        for (n, o) in &numbered {
            if let Order::Scrap { ship } = o {
                if s.ship(*ship).is_some_and(|x| x.owner == seat) {
                    push(
                        s,
                        out,
                        [Event::ShipScrapped {
                            owner: seat,
                            ship: *ship,
                            unpaid: false,
                        }],
                    );
                } else {
                    drop_line(s, out, seat, *n, o, format!("{ship} is gone"));
                }
            }
        }
        // Maintenance; what cannot be paid is scrapped, most damaged first.
        let mut keep: Vec<(u32, u32, ShipId)> = s.ships_of(seat).map(|x| (x.damage(), x.class.cost(), x.id)).collect();
        keep.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let have = s.points[seat.index()];
        let mut n_ships = keep.len() as u32;
        for (_, _, id) in &keep {
            if n_ships <= have {
                break;
            }
            push(
                s,
                out,
                [Event::ShipScrapped {
                    owner: seat,
                    ship: *id,
                    unpaid: true,
                }],
            );
            n_ships -= 1;
        }
        if n_ships > 0 {
            push(s, out, [Event::MaintenancePaid { seat, points: n_ships }]);
        }
        // Repair.
        let mut repaired = Vec::new();
        for (n, o) in &numbered {
            if let Order::Repair { ship, points } = o {
                let Some(x) = s.ship(*ship).filter(|x| x.owner == seat).cloned() else {
                    drop_line(s, out, seat, *n, o, format!("{ship} is gone"));
                    continue;
                };
                let want = points.unwrap_or(u32::MAX).min(x.damage());
                let can = want.min(s.points[seat.index()]);
                if can == 0 {
                    drop_line(s, out, seat, *n, o, "no points were left to pay for it".into());
                    continue;
                }
                let units = x.repair_plan(can);
                repaired.push(*ship);
                push(
                    s,
                    out,
                    [Event::ShipRepaired {
                        owner: seat,
                        ship: *ship,
                        units,
                    }],
                );
            }
        }
        // Hide.
        for (n, o) in &numbered {
            if let Order::Hide { ship } = o {
                match s.ship(*ship).filter(|x| x.owner == seat) {
                    Some(x) if !x.dark && !repaired.contains(ship) => {
                        push(
                            s,
                            out,
                            [Event::ShipHidden {
                                owner: seat,
                                ship: *ship,
                            }],
                        );
                    }
                    Some(_) => drop_line(s, out, seat, *n, o, format!("{ship} is dark or being repaired")),
                    None => drop_line(s, out, seat, *n, o, format!("{ship} is gone")),
                }
            }
        }
        // Build.
        for (n, o) in &numbered {
            if let Order::Build { class, at, .. } = o {
                if s.planets[*at].owner != Some(seat) {
                    let why = format!("you no longer own {}", s.map.planets[*at].name);
                    drop_line(s, out, seat, *n, o, why);
                    continue;
                }
                if s.points[seat.index()] < class.cost() {
                    drop_line(
                        s,
                        out,
                        seat,
                        *n,
                        o,
                        format!("a {} costs {}", class.name(), class.cost()),
                    );
                    continue;
                }
                let colour = s.colour(seat);
                let free = s.free_numbers(colour);
                if free.is_empty() {
                    drop_line(s, out, seat, *n, o, "you have 99 ships".into());
                    continue;
                }
                let mut rng = (*s.rng).clone();
                let number = free[rng.below(free.len() as u32) as usize];
                push(
                    s,
                    out,
                    [Event::ShipBuilt {
                        ship: ShipId { colour, number },
                        owner: seat,
                        class: *class,
                        at: s.map.planets[*at].space,
                        rng: Box::new(rng),
                    }],
                );
            }
        }
    }
    seats_out(s, out);
}

fn movement(s: &mut State, out: &mut Vec<Event>, sheets: &[(Seat, Vec<Order>)]) {
    let start = s.clone();
    // Every move line is checked again against the state as movement
    // begins; a dropped line leaves its ship stationary.
    let mut kept: Vec<(Seat, &Order)> = Vec::new();
    for (seat, lines) in sheets {
        for (i, o) in lines.iter().enumerate() {
            if !matches!(o, Order::Move { .. }) {
                continue;
            }
            match check_line(&start, *seat, o, &[]) {
                Ok(()) => kept.push((*seat, o)),
                Err(why) => drop_line(s, out, *seat, i + 1, o, why),
            }
        }
    }
    // Stationary: every non-dark ship without a kept move line.
    let moving: Vec<ShipId> = kept
        .iter()
        .filter_map(|(_, o)| match o {
            Order::Move { ship, .. } => Some(*ship),
            _ => None,
        })
        .collect();
    let stationary: Vec<Ship> = s
        .ships
        .iter()
        .filter(|x| !x.dark && !moving.contains(&x.id))
        .cloned()
        .collect();
    for (seat, o) in kept {
        let Order::Move { ship, path } = o else { continue };
        let Some(x) = start.ship(*ship) else { continue };
        let Ok(ends) = start.map.trace(x.at, path) else {
            continue;
        };
        let mut route = Vec::new();
        let mut jumps = Vec::new();
        let mut stopped = false;
        let mut here = x.at;
        for (seg, end) in path.0.iter().zip(ends) {
            if matches!(seg, Segment::Jump) {
                jumps.push((here, end));
            }
            here = end;
            route.push(end);
            let blocked = stationary
                .iter()
                .any(|o| o.at == end && o.owner != seat && !start.allied(o.owner, seat));
            if blocked {
                stopped = route.len() < path.0.len();
                break;
            }
        }
        if route.is_empty() {
            push(
                s,
                out,
                [Event::ShipStayed {
                    owner: seat,
                    ship: *ship,
                }],
            );
        } else {
            push(
                s,
                out,
                [Event::ShipMoved {
                    owner: seat,
                    ship: *ship,
                    route,
                    stopped,
                    jumps,
                }],
            );
        }
    }
}

fn combat_round(s: &mut State, out: &mut Vec<Event>, sheets: &[(Seat, Vec<Order>)]) {
    let fires: Vec<combat::Fire> = sheets
        .iter()
        .flat_map(|(_, lines)| lines.iter())
        .filter_map(|o| match o {
            Order::Fire { ship, target, shots } => Some(combat::Fire {
                ship: *ship,
                target: *target,
                shots: shots.unwrap_or(u8::MAX),
            }),
            _ => None,
        })
        .collect();
    for space in combat_spaces(s) {
        let here = s.ships_at(space);
        let allied = |a: Seat, b: Seat| s.allied(a, b);
        let mine: Vec<combat::Fire> = fires
            .iter()
            .filter(|f| here.iter().any(|x| x.id == f.ship))
            .cloned()
            .collect();
        let all = combat::with_standing_rule(&here, &mine, &allied);
        let mut rng = (*s.rng).clone();
        let result = combat::resolve_round(&here, &all, &allied, &mut rng);
        let mut seats: Vec<Seat> = here.iter().filter(|x| !x.dark).map(|x| x.owner).collect();
        seats.sort();
        seats.dedup();
        push(
            s,
            out,
            [Event::ShotsFired {
                space,
                seats,
                result,
                rng: Box::new(rng),
            }],
        );
    }
}

/// Planet ownership after movement and combat.
fn ownership(s: &mut State, out: &mut Vec<Event>) {
    for p in 0..s.planets.len() {
        let here = s.ships_at(s.map.planets[p].space);
        if here.is_empty() {
            continue;
        }
        let strengths = combat::strengths(&here);
        let allied = |a: Seat, b: Seat| s.allied(a, b);
        let now = s.planets[p].owner;
        let new = combat::new_owner(now, &strengths, &allied);
        if new != now {
            let name = s.map.planets[p].name.clone();
            push(
                s,
                out,
                [Event::PlanetTaken {
                    planet: p,
                    name,
                    owner: new,
                }],
            );
        }
    }
    seats_out(s, out);
}

/// Seats with no planet and no ship leave the war.
fn seats_out(s: &mut State, out: &mut Vec<Event>) {
    for seat in alive(s) {
        if s.planets_of(seat) == 0 && s.ships_of(seat).next().is_none() {
            push(s, out, [Event::SeatOut { seat }]);
        }
    }
    let left = alive(s);
    if left.len() == 1 && s.outcome.is_none() {
        push(
            s,
            out,
            [Event::WarEnded {
                outcome: Outcome::Winner {
                    seat: left[0],
                    reason: "every other player is out of the war".into(),
                },
            }],
        );
    }
}

fn ecopolitical(s: &mut State, out: &mut Vec<Event>, sheets: &[(Seat, Vec<Order>)]) {
    // Terraforming, with the owners' choices.
    for p in 0..s.planets.len() {
        let options = terraform_options(s, p);
        let Some(first) = options.first().copied() else {
            continue;
        };
        let owner = s.planets[p].owner;
        let chosen = sheets
            .iter()
            .filter(|(seat, _)| Some(*seat) == owner)
            .flat_map(|(_, lines)| lines.iter())
            .find_map(|o| match o {
                Order::Terraform { planet, colour, .. } if *planet == p && options.contains(colour) => Some(*colour),
                _ => None,
            })
            .unwrap_or(first);
        let name = s.map.planets[p].name.clone();
        push(
            s,
            out,
            [Event::Terraformed {
                planet: p,
                name,
                colour: chosen,
            }],
        );
    }
    // Alliance settings and declarations.
    for (seat, lines) in sheets {
        for o in lines {
            match o {
                Order::Ally { player, yes } if s.settings[seat.index()][player.index()] != *yes => {
                    push(
                        s,
                        out,
                        [Event::AllianceSet {
                            seat: *seat,
                            player: *player,
                            yes: *yes,
                        }],
                    );
                }
                Order::Faction { with, empire } => {
                    let mut members = vec![*seat];
                    members.extend(with.iter().copied());
                    push(
                        s,
                        out,
                        [Event::FactionDeclared {
                            faction: Faction {
                                members,
                                empire: *empire,
                                run: 0,
                            },
                        }],
                    );
                }
                _ => {}
            }
        }
    }
    let mut alliances = Vec::new();
    for a in s.seats() {
        for b in s.seats().filter(|b| *b > a) {
            if s.settings[a.index()][b.index()]
                && s.settings[b.index()][a.index()]
                && !s.out[a.index()]
                && !s.out[b.index()]
            {
                alliances.push((a, b));
            }
        }
    }
    if alliances != s.alliances {
        push(s, out, [Event::AlliancesFormed { alliances }]);
    }
    if s.turn >= s.turn_limit {
        let outcome = score(s);
        push(s, out, [Event::WarEnded { outcome }]);
    }
}

/// The turn limit's result: most planets, then income, then points.
fn score(s: &State) -> Outcome {
    let key = |seat: Seat| (s.planets_of(seat), s.income(seat), s.points[seat.index()]);
    let best = alive(s).into_iter().map(key).max().unwrap_or((0, 0, 0));
    let top: Vec<Seat> = alive(s).into_iter().filter(|x| key(*x) == best).collect();
    let reason = format!("the turn limit: most planets ({})", best.0);
    match top.as_slice() {
        [one] => Outcome::Winner { seat: *one, reason },
        _ => Outcome::Shared { seats: top, reason },
    }
}

/// Whether a faction meets its alliance requirements now.
fn alliances_hold(s: &State, f: &Faction) -> bool {
    let m = &f.members;
    if f.empire {
        s.allied(m[0], m[1]) && s.allied(m[0], m[2])
    } else {
        m.iter()
            .enumerate()
            .all(|(i, a)| m[i + 1..].iter().all(|b| s.allied(*a, *b)))
    }
}

fn held_by(s: &State, members: &[Seat]) -> usize {
    members.iter().map(|m| s.planets_of(*m)).sum()
}

/// The beginning of a turn: runs at 25+, factions, victory, income, and
/// the economic sheets.
pub fn begin_turn(state: &State) -> Vec<Event> {
    let mut s = state.clone();
    let mut out = Vec::new();
    let turn = s.turn + 1;
    push(&mut s, &mut out, [Event::TurnBegan { turn }]);
    if s.turn > 1 {
        let runs: Vec<u32> = s
            .seats()
            .map(|x| {
                if s.planets_of(x) >= TO_WIN {
                    s.runs[x.index()] + 1
                } else {
                    0
                }
            })
            .collect();
        if runs != s.runs {
            push(&mut s, &mut out, [Event::RunsCounted { runs: runs.clone() }]);
        }
        if let Some(i) = runs.iter().position(|r| *r >= WIN_RUN) {
            push(
                &mut s,
                &mut out,
                [Event::WarEnded {
                    outcome: Outcome::Winner {
                        seat: Seat(i as u8),
                        reason: format!("{TO_WIN} or more planets at the beginning of {WIN_RUN} successive turns"),
                    },
                }],
            );
            return out;
        }
        // Standing factions hold, dissolve, or win.
        for f in s.factions.clone() {
            let held = held_by(&s, &f.members);
            let core_short = f.empire && s.planets_of(f.members[0]) < EMPIRE_CORE;
            let allies_split = f.empire && !s.allied(f.members[1], f.members[2]);
            let why = if !alliances_hold(&s, &f) {
                Some("a required alliance is missing".to_string())
            } else if held < TO_WIN {
                Some(format!("it holds {held} planets"))
            } else if allies_split && core_short {
                Some("two members are not allied and the dominant player holds fewer than 13".to_string())
            } else {
                None
            };
            match why {
                Some(why) => push(
                    &mut s,
                    &mut out,
                    [Event::FactionDissolved {
                        members: f.members.clone(),
                        why,
                    }],
                ),
                None => {
                    push(
                        &mut s,
                        &mut out,
                        [Event::FactionHeld {
                            members: f.members.clone(),
                        }],
                    );
                    if f.run + 1 >= WIN_RUN {
                        let mut seats = f.members.clone();
                        seats.sort();
                        push(&mut s, &mut out, [Event::WarEnded {
                            outcome: Outcome::Shared {
                                seats,
                                reason: format!(
                                    "a faction held {TO_WIN} or more planets at the beginning of {WIN_RUN} successive turns"
                                ),
                            },
                        }]);
                        return out;
                    }
                }
            }
        }
        // Declarations take effect, or fail.
        for d in s.declared.clone() {
            let by = d.members[0];
            let taken = d
                .members
                .iter()
                .any(|m| s.factions.iter().any(|f| f.members.contains(m)));
            let held = held_by(&s, &d.members);
            let why = if taken {
                Some("a member already belongs to a faction".to_string())
            } else if !alliances_hold(&s, &d) {
                Some("the members are not allied as a faction needs".to_string())
            } else if held < TO_WIN {
                Some(format!("the faction holds {held} planets, not {TO_WIN}"))
            } else if d.empire && s.planets_of(by) < EMPIRE_CORE {
                Some(format!("the dominant player holds fewer than {EMPIRE_CORE} planets"))
            } else {
                None
            };
            match why {
                Some(why) => push(&mut s, &mut out, [Event::DeclarationFailed { by, why }]),
                None => push(
                    &mut s,
                    &mut out,
                    [Event::FactionFormed {
                        faction: Faction { run: 1, ..d },
                    }],
                ),
            }
        }
    }
    for seat in alive(&s) {
        let points = s.income(seat);
        if points > 0 {
            push(&mut s, &mut out, [Event::IncomeCollected { seat, points }]);
        }
    }
    let owing = alive(&s);
    push(
        &mut s,
        &mut out,
        [Event::SectionOpened {
            section: Section::Economic,
            owing,
        }],
    );
    out
}
