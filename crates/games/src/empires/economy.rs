//! The Economic Phase's arithmetic (text 7.0–7.7, 8.1–8.3, 9.1–9.6): what a
//! player's sheet starts from ([`Forecast`]), and whether a sheet as a whole
//! keeps the rules ([`check`]). A line is refused as it is written when the
//! sheet with it would break a rule, so a sheet that reaches the carrying
//! out is always legal as a whole.
//!
//! Pure functions of the state: the carrying out (events) is the turn
//! module's.

use super::basics::{yard_capacity, Kind, Label, Levels, Marker, Tech, COUNTERS_PER_TYPE, GROUP_MAX};
use super::state::{Line, State};
use orrery_engine::{Hex, Seat};
use std::collections::BTreeMap;

/// What a player's Economic Phase starts from, worked out before anyone
/// writes (private to that player).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forecast {
    /// CP carried over from the last phase.
    pub carried: u32,
    /// Colonies not blockaded (text 7.1).
    pub colony_income: u32,
    /// Minerals deposited at colonies not blockaded (text 7.2).
    pub mineral_income: u32,
    /// Hull sizes of every ship (text 7.3.1), before any scrap line.
    pub maintenance: u32,
}

impl Forecast {
    pub fn of(state: &State, seat: Seat) -> Forecast {
        let mineral_income = state
            .colonies_of(seat)
            .filter(|c| !state.blockaded(c))
            .flat_map(|c| c.deposits.iter())
            .map(|m| match m {
                Marker::Minerals(v) => *v,
                _ => 0,
            })
            .sum();
        Forecast {
            carried: state.empire(seat).cp,
            colony_income: state.colony_income(seat),
            mineral_income,
            maintenance: state.maintenance(seat),
        }
    }

    /// Net income with `saved` maintenance less (scrapped units): never
    /// below 0, and CP carried over are never reduced (text 7.3.1).
    pub fn net(&self, saved: u32) -> u32 {
        (self.colony_income + self.mineral_income).saturating_sub(self.maintenance.saturating_sub(saved))
    }

    /// CP to spend this phase.
    pub fn available(&self, saved: u32) -> u32 {
        self.carried + self.net(saved)
    }
}

/// A sheet's totals, once it keeps every rule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub available: u32,
    pub spent: u32,
    pub bid: u32,
    /// The levels after this sheet's research.
    pub levels: Option<Levels>,
}

impl Totals {
    pub fn left(&self) -> u32 {
        self.available.saturating_sub(self.spent)
    }
}

/// The CP a line costs, at the player's levels after the sheet's research.
pub fn cost(line: &Line, levels_before: &Levels) -> u32 {
    match line {
        Line::Bid { cp } => *cp,
        Line::Research { tech } => tech.cost(levels_before.get(*tech) + 1).unwrap_or(0),
        Line::Buy { kind, ships, .. } => kind.chart().cost * ships,
        Line::Scrap { .. } | Line::ScrapAt { .. } => 0,
    }
}

/// Hull points `seat`'s Ship Yards at `hex` build this phase at Ship Yard
/// level `level` (yards bought this phase do not build, text 8.2.2).
pub fn capacity_at(state: &State, seat: Seat, hex: Hex, level: u32) -> u32 {
    state
        .colony(hex)
        .filter(|c| c.owner == seat)
        .map_or(0, |c| yard_capacity(c.yards.saturating_sub(c.new_yards), level))
}

/// Check a whole sheet of `seat`: every rule a line can break (rules page,
/// *Economic Phase*). `Err` says which rule, and what would be legal.
pub fn check(state: &State, seat: Seat, lines: &[Line]) -> Result<Totals, String> {
    let forecast = Forecast::of(state, seat);
    let before = state.empire(seat).levels;
    let mut after = before;

    // Scrapping first: it frees maintenance and counters.
    let mut saved = 0;
    let mut scrapped: Vec<Label> = Vec::new();
    for line in lines {
        match line {
            Line::Scrap { unit } => {
                let Some(u) = state.unit(*unit).filter(|u| u.owner() == seat) else {
                    return Err(format!("{unit} is not one of your counters"));
                };
                if scrapped.contains(unit) {
                    return Err(format!("{unit} is already scrapped on this sheet"));
                }
                scrapped.push(*unit);
                saved += u.maintenance();
            }
            Line::ScrapAt { at, what } => {
                let Some(c) = state.colony(*at).filter(|c| c.owner == seat) else {
                    return Err("you have no colony there".into());
                };
                let has = match what {
                    Kind::Base => c.base,
                    Kind::ShipYard => c.yards > 0,
                    _ => false,
                };
                if !has {
                    return Err(format!("your colony there has no {}", what.name()));
                }
            }
            _ => {}
        }
    }

    // Research: one level per category, in order (text 9.1).
    let mut researched: Vec<Tech> = Vec::new();
    let mut spent = 0;
    let mut bid = None;
    for line in lines {
        match line {
            Line::Research { tech } => {
                if researched.contains(tech) {
                    return Err(format!(
                        "one level of {} per Economic Phase: this sheet already researches it (text 9.1)",
                        tech.name()
                    ));
                }
                let next = before.get(*tech) + 1;
                let Some(c) = tech.cost(next) else {
                    return Err(format!("{} is at its highest level, {}", tech.name(), tech.top()));
                };
                researched.push(*tech);
                after.set(*tech, next);
                spent += c;
            }
            Line::Bid { cp } => {
                if bid.is_some() {
                    return Err("one bid per sheet: replace the bid line instead".into());
                }
                bid = Some(*cp);
                spent += cp;
            }
            _ => {}
        }
    }

    // Purchases, with the levels after research (text 9.4, 9.10.5).
    let mut hull_at: BTreeMap<Hex, u32> = BTreeMap::new();
    let mut new_counters: BTreeMap<Kind, usize> = BTreeMap::new();
    let mut yards_bought: Vec<Hex> = Vec::new();
    let mut bases_bought: Vec<Hex> = Vec::new();
    for line in lines {
        let Line::Buy { kind, at, ships, into } = line else { continue };
        let (kind, at, ships) = (*kind, *at, *ships);
        if ships == 0 {
            return Err("buy at least one".into());
        }
        let chart = kind.chart();
        if chart.size > after.size {
            return Err(format!(
                "a {} needs Ship Size {}; you have {} (research `size` on this sheet to buy it now)",
                kind.name(),
                chart.size,
                after.size
            ));
        }
        spent += chart.cost * ships;
        let colony = state.colony(at).filter(|c| c.owner == seat);
        match kind {
            Kind::Decoy => {
                if colony.is_none() {
                    return Err("decoys are placed at one of your colonies".into());
                }
                if ships > GROUP_MAX {
                    return Err(format!("a decoy shows at most {GROUP_MAX} ships"));
                }
                *new_counters.entry(kind).or_default() += 1;
            }
            Kind::Base | Kind::ShipYard => {
                let Some(c) = colony else {
                    return Err(format!("a {} is built at one of your colonies", kind.name()));
                };
                if c.worth.cp() == 0 || state.blockaded(c) {
                    return Err(format!(
                        "a {} needs a colony that produced income this phase (not new, not blockaded)",
                        kind.name()
                    ));
                }
                if ships != 1 {
                    return Err(format!("one {} per line", kind.name()));
                }
                let bought = if kind == Kind::Base { &mut bases_bought } else { &mut yards_bought };
                if bought.contains(&at) || (kind == Kind::Base && c.base) {
                    return Err(if kind == Kind::Base {
                        "one Base per hex (text 8.1)".to_string()
                    } else {
                        "one Ship Yard per planet per Economic Phase (text 8.2.2)".to_string()
                    });
                }
                bought.push(at);
            }
            _ => {
                let yard = chart.yard.unwrap_or(0);
                *hull_at.entry(at).or_default() += yard * ships;
                let capacity = capacity_at(state, seat, at, after.yard);
                if capacity == 0 {
                    return Err("ships are bought at a hex with your Ship Yards that built nothing new this phase".into());
                }
                if hull_at[&at] > capacity {
                    return Err(format!(
                        "the yards there build {capacity} hull points this phase (Ship Yard level {}); this sheet asks {}",
                        after.yard, hull_at[&at]
                    ));
                }
                if kind.is_warship() {
                    if ships > GROUP_MAX {
                        return Err(format!("a group holds at most {GROUP_MAX} ships"));
                    }
                    match into {
                        Some(label) => {
                            let Some(g) = state.unit(*label).filter(|g| g.owner() == seat) else {
                                return Err(format!("{label} is not one of your counters"));
                            };
                            if g.hex != at || g.kind != kind || !same_tech(&g.levels, &after, kind) {
                                return Err(format!(
                                    "{label} must be a {} group at that hex with your technology after this sheet",
                                    kind.name()
                                ));
                            }
                            if g.ships + ships > GROUP_MAX {
                                return Err(format!("{label} would hold more than {GROUP_MAX} ships"));
                            }
                        }
                        None => *new_counters.entry(kind).or_default() += 1,
                    }
                }
            }
        }
    }
    for (kind, n) in new_counters {
        let on_map = state
            .units_of(seat)
            .filter(|u| u.kind == kind && !scrapped.contains(&u.label))
            .count();
        if on_map + n > COUNTERS_PER_TYPE {
            return Err(format!(
                "you have {on_map} {} counters; {COUNTERS_PER_TYPE} is the most",
                kind.name()
            ));
        }
    }
    let available = forecast.available(saved);
    if spent > available {
        return Err(format!("this sheet spends {spent} CP; you have {available}"));
    }
    Ok(Totals {
        available,
        spent,
        bid: bid.unwrap_or(0),
        levels: Some(after),
    })
}

/// Whether a group built with `levels` has the technology a ship bought at
/// `now` would get (text 2.3.1: a group is of identical technology).
pub fn same_tech(levels: &Levels, now: &Levels, kind: Kind) -> bool {
    levels.attack == now.attack
        && levels.defense == now.defense
        && levels.tactics == now.tactics
        && levels.moves == now.moves
        && (kind != Kind::Cruiser || levels.explore == now.explore)
}
