//! The Economic Phase's arithmetic (text 7.0–7.7, 8.1–8.3, 9.1–9.6): what a
//! player's sheet starts from ([`Forecast`]), and whether a sheet as a whole
//! keeps the rules ([`check`]). A line is refused as it is written when the
//! sheet with it would break a rule, so a sheet that reaches the carrying
//! out is always legal as a whole.
//!
//! Then the sheet as orders: the legal lines offered, an edit resolved
//! against the state ([`sheet_edit`]), and the sheets carried out together
//! ([`carry_out_economy`]).
//!
//! Pure functions of the state: the carrying out (events) is the turn
//! module's.

use super::super::basics::{
    yard_capacity, Kind, Label, Levels, Marker, Tech, CARRY_OVER_CAP, COUNTERS_PER_TYPE, GROUP_MAX,
};
use super::super::events::{push, Event, Ledger, Rolled};
use super::super::orders::{Action, ScrapWhat, Written};
use super::super::state::{draw_label, new_unit, Colony, Line, State, Unit};
use super::{d10, game_over_on_score, hex, illegal, own_unit};
use orrery_engine::{GameRng, Hex, Rejection, Seat, SheetEdit, SheetEvent};
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
    /// Colonies joined to the homeworld by MS Pipelines (advanced rule
    /// 10.1.2).
    pub trade_income: u32,
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
            trade_income: state.trade_income(seat),
            maintenance: state.maintenance(seat),
        }
    }

    /// Net income with `saved` maintenance less (scrapped units): never
    /// below 0, and CP carried over are never reduced (text 7.3.1).
    pub fn net(&self, saved: u32) -> u32 {
        (self.colony_income + self.mineral_income + self.trade_income)
            .saturating_sub(self.maintenance.saturating_sub(saved))
    }

    /// CP to spend this phase.
    pub fn available(&self, saved: u32) -> u32 {
        self.carried + self.net(saved)
    }
}

/// The CP of one research grant (text 19.1).
pub const GRANT_CP: u32 = 5;

/// Research gearing: CP on research beyond the last Economic Phase's
/// (text 18).
pub const GEARING_STEP: u32 = 10;

/// Unpredictable research: grants beyond the last Economic Phase's (text
/// 19.3).
pub const GRANTS_STEP: u32 = 2;

/// The most CP `seat` may spend on research this Economic Phase under
/// research gearing (text 18); `None` when the option is off.
pub fn research_cap(state: &State, seat: Seat) -> Option<u32> {
    state
        .options
        .research_gearing
        .then(|| state.empire(seat).research_last + GEARING_STEP)
}

/// The most research grants `seat` may buy this Economic Phase (text
/// 19.3); `None` without unpredictable research.
pub fn grants_cap(state: &State, seat: Seat) -> Option<u32> {
    state
        .options
        .unpredictable_research
        .then(|| state.empire(seat).grants_last + GRANTS_STEP)
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
        Line::Grants { grants, .. } => GRANT_CP * grants,
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
    let mut research = 0;
    let mut grants = 0;
    let mut bid = None;
    for line in lines {
        match line {
            Line::Grants { tech, grants: n } => {
                if researched.contains(tech) {
                    return Err(format!(
                        "one line of grants for {} per sheet: replace that line instead (text 9.1)",
                        tech.name()
                    ));
                }
                if tech.cost(before.get(*tech) + 1).is_none() {
                    return Err(format!("{} is at its highest level, {}", tech.name(), tech.top()));
                }
                researched.push(*tech);
                grants += n;
                research += GRANT_CP * n;
                spent += GRANT_CP * n;
            }
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
                research += c;
            }
            Line::Bid { .. } if state.solitaire() => {
                return Err("there is no bid in solitaire: you move first every round".into());
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

    if let Some(cap) = grants_cap(state, seat).filter(|cap| grants > *cap) {
        return Err(format!(
            "at most {cap} research grants this phase: two more than the {} of your last Economic Phase \
             (text 19.3); this sheet buys {grants}",
            state.empire(seat).grants_last
        ));
    }
    if let Some(cap) = research_cap(state, seat).filter(|cap| research > *cap) {
        return Err(format!(
            "at most {cap} CP on research this phase: 10 more than the {} of your last Economic Phase \
             (research gearing, text 18); this sheet's research costs {research}",
            state.empire(seat).research_last
        ));
    }

    // Purchases, with the levels after research (text 9.4, 9.10.5).
    let mut hull_at: BTreeMap<Hex, u32> = BTreeMap::new();
    let mut new_counters: BTreeMap<Kind, usize> = BTreeMap::new();
    let mut yards_bought: Vec<Hex> = Vec::new();
    let mut bases_bought: Vec<Hex> = Vec::new();
    for line in lines {
        let Line::Buy { kind, at, ships, into } = line else {
            continue;
        };
        let (kind, at, ships) = (*kind, *at, *ships);
        if ships == 0 {
            return Err("buy at least one".into());
        }
        if let Some(key) = kind.advanced().filter(|key| !state.options.allows(key)) {
            return Err(format!(
                "this game is played without {} (the advanced rule of option `{key}`)",
                kind.name()
            ));
        }
        if let Some((tech, level)) = kind.needs().filter(|(tech, level)| after.get(*tech) < *level) {
            return Err(format!(
                "{} need {} {level}; you have {} (research `{}` on this sheet to buy them now)",
                kind.name(),
                tech.name(),
                after.get(tech),
                tech.key()
            ));
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
                let bought = if kind == Kind::Base {
                    &mut bases_bought
                } else {
                    &mut yards_bought
                };
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
                    return Err(
                        "ships are bought at a hex with your Ship Yards that built nothing new this phase".into(),
                    );
                }
                if hull_at[&at] > capacity {
                    return Err(format!(
                        "the yards there build {capacity} hull points this phase (Ship Yard level {}); this sheet asks {}",
                        after.yard, hull_at[&at]
                    ));
                }
                if kind.grouped() {
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
        && (kind != Kind::Fighters || levels.fighters == now.fighters)
        && (kind != Kind::Scout || levels.pd == now.pd)
        && (kind != Kind::Raider || levels.cloak == now.cloak)
        && (kind != Kind::Destroyer || levels.scan == now.scan)
}

pub(super) fn sheet_options(s: &State, seat: Seat) -> Vec<Action> {
    let lines: Vec<Line> = s.sheet.lines_of(seat).unwrap_or(&[]).to_vec();
    let fits = |line: Line| {
        let mut all = lines.clone();
        all.push(line);
        check(s, seat, &all).is_ok()
    };
    let mut out = Vec::new();
    let add = |written: Written| Action::Sheet(SheetEdit::Add(written));
    if !s.solitaire() && !lines.iter().any(|l| matches!(l, Line::Bid { .. })) && fits(Line::Bid { cp: 1 }) {
        out.push(add(Written::Bid { cp: 1 }));
    }
    for tech in Tech::ALL
        .into_iter()
        .filter(|t| t.advanced().is_none_or(|k| s.options.allows(k)))
    {
        if s.options.unpredictable_research {
            if fits(Line::Grants { tech, grants: 1 }) {
                out.push(add(Written::Research { tech, grants: Some(1) }));
            }
        } else if fits(Line::Research { tech }) {
            out.push(add(Written::Research { tech, grants: None }));
        }
    }
    let colonies: Vec<&Colony> = s.colonies_of(seat).collect();
    for c in &colonies {
        let at = s.board.name(c.hex);
        for kind in Kind::ALL {
            let line = Line::Buy {
                kind,
                at: c.hex,
                ships: 1,
                into: None,
            };
            if fits(line) {
                out.push(add(Written::Buy {
                    kind,
                    at: at.clone(),
                    ships: None,
                    into: None,
                }));
            }
        }
    }
    out.extend(s.sheet.verbs(seat).into_iter().map(Action::Sheet));
    out
}

/// An edit of the economic sheet (the engine's sheet protocol): a `scrap`
/// with or without `line:` is a line too; every line is resolved against
/// the state and the whole sheet checked as it would be.
pub(super) fn sheet_edit(s: &State, seat: Seat, action: &Action) -> Result<SheetEvent<Line>, Rejection> {
    let edit = match action {
        Action::Sheet(edit) => edit.clone(),
        Action::Scrap { what, line: Some(n) } => SheetEdit::Replace(*n, Written::Scrap(what.clone())),
        Action::Scrap { what, line: None } => SheetEdit::Add(Written::Scrap(what.clone())),
        _ => return Err(illegal(s, seat, "not a line of the economic sheet")),
    };
    s.sheet.decide(
        seat,
        &edit,
        |w| resolve_line(s, seat, w).map_err(|why| illegal(s, seat, why)),
        |all, _| check(s, seat, all).map(|_| ()).map_err(|why| illegal(s, seat, why)),
    )
}

/// A sheet line as written → resolved against the state.
fn resolve_line(s: &State, seat: Seat, w: &Written) -> Result<Line, String> {
    Ok(match w {
        Written::Bid { cp } => Line::Bid { cp: *cp },
        Written::Research { tech, .. } if tech.advanced().is_some_and(|k| !s.options.allows(k)) => {
            return Err(format!(
                "this game is played without {} technology (the advanced rule of option `{}`)",
                tech.name(),
                tech.advanced().unwrap_or_default()
            ))
        }
        Written::Research { tech, grants } => match (grants, s.options.unpredictable_research) {
            (None, false) => Line::Research { tech: *tech },
            (Some(n), true) => Line::Grants {
                tech: *tech,
                grants: *n,
            },
            (None, true) => {
                return Err(format!(
                    "this game uses unpredictable research (text 19): research is bought in grants of \
                     {GRANT_CP} CP, a die each: `research tech:{} grants:N`",
                    tech.key()
                ))
            }
            (Some(_), false) => {
                return Err(format!(
                    "grants are for unpredictable research, which this game does not use: a level is bought \
                     whole with `research tech:{}`",
                    tech.key()
                ))
            }
        },
        Written::Buy { kind, at, ships, into } => {
            let at = hex(s, at)?;
            let into = match into {
                Some(t) => Some(own_unit(s, seat, t)?),
                None => None,
            };
            if into.is_some() && !kind.grouped() {
                return Err("`into:` adds ships (or mines) to a group".into());
            }
            Line::Buy {
                kind: *kind,
                at,
                ships: ships.unwrap_or(1),
                into,
            }
        }
        Written::Scrap(ScrapWhat::Unit(u)) => Line::Scrap {
            unit: own_unit(s, seat, u)?,
        },
        Written::Scrap(ScrapWhat::At { at, what }) => Line::ScrapAt {
            at: hex(s, at)?,
            what: *what,
        },
    })
}

/// Every sheet carried out at once (rules page, *Carried out*), then growth,
/// then the bids, or the end of the game after the last round.
pub(super) fn carry_out_economy(s: &State) -> Vec<Event> {
    let mut rng = (*s.rng).clone();
    let mut ledgers = Vec::new();
    let mut taken: Vec<Label> = s.units.iter().map(|u| u.label).collect();
    for (seat, lines) in s.sheet.as_they_stand() {
        // Lines were checked as a whole when written; keep the longest
        // prefix-wise legal set all the same, so nothing can break here.
        let mut kept: Vec<Line> = Vec::new();
        for l in lines {
            let mut with = kept.clone();
            with.push(l.clone());
            if check(s, seat, &with).is_ok() {
                kept = with;
            }
        }
        ledgers.push(ledger(s, seat, &kept, &mut rng, &mut taken));
    }
    let bids: Vec<(Seat, u32)> = ledgers.iter().map(|l| (l.seat, l.bid)).collect();
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(
        &mut scratch,
        &mut out,
        Event::EconomyCarriedOut {
            ledgers,
            rng: Box::new(rng),
        },
    );
    push(&mut scratch, &mut out, Event::ColoniesGrew);
    if scratch.round >= scratch.options.rounds {
        let e = game_over_on_score(&scratch);
        push(&mut scratch, &mut out, e);
        return out;
    }
    // Solitaire: no bid, the one player moves first (rules page).
    if scratch.solitaire() {
        out.extend(super::next_round(&scratch, Seat(0)));
        return out;
    }
    // The highest bid; a tie goes to the earliest in this round's order.
    let winner = scratch
        .order
        .iter()
        .copied()
        .max_by_key(|seat| {
            let bid = bids.iter().find(|(s, _)| s == seat).map_or(0, |(_, b)| *b);
            let place = scratch.order.iter().position(|x| x == seat).unwrap_or(0);
            (bid, std::cmp::Reverse(place))
        })
        .unwrap_or(Seat(0));
    push(&mut scratch, &mut out, Event::BidsRevealed { bids, winner });
    out
}

/// One player's sheet as carried out.
fn ledger(s: &State, seat: Seat, lines: &[Line], rng: &mut GameRng, taken: &mut Vec<Label>) -> Ledger {
    let f = Forecast::of(s, seat);
    let before = s.empire(seat).levels;
    let mut levels = before;
    let mut l = Ledger {
        seat,
        colony_income: f.colony_income,
        mineral_income: f.mineral_income,
        trade_income: f.trade_income,
        maintenance: f.maintenance,
        bid: 0,
        spent: 0,
        carried: 0,
        lost: 0,
        levels,
        wrecks: Vec::new(),
        scrapped: Vec::new(),
        unseen: Vec::new(),
        scrapped_at: Vec::new(),
        bought: Vec::new(),
        added: Vec::new(),
        built: Vec::new(),
        research: 0,
        grants: 0,
        rolls: Vec::new(),
    };
    let mut saved = 0;
    for line in lines {
        match line {
            Line::Scrap { unit } => {
                saved += s.unit(*unit).map_or(0, Unit::maintenance);
                l.scrapped.push(*unit);
                if s.unit(*unit).is_some_and(|u| u.kind == Kind::Raider) {
                    l.unseen.push(*unit);
                }
            }
            Line::ScrapAt { at, what } => l.scrapped_at.push((*at, *what)),
            Line::Research { tech } => {
                l.spent += cost(line, &before);
                l.research += cost(line, &before);
                levels.set(*tech, before.get(*tech) + 1);
            }
            Line::Grants { tech, grants } => {
                l.spent += GRANT_CP * grants;
                l.research += GRANT_CP * grants;
                l.grants += grants;
                let dice: Vec<u32> = (0..*grants).map(|_| d10(rng)).collect();
                let total = s.empire(seat).progress_of(*tech) + dice.iter().sum::<u32>();
                let needed = tech.cost(before.get(*tech) + 1).unwrap_or(u32::MAX);
                let reached = total >= needed;
                if reached {
                    levels.set(*tech, before.get(*tech) + 1);
                }
                l.rolls.push(Rolled {
                    tech: *tech,
                    dice,
                    total,
                    needed,
                    reached,
                });
            }
            Line::Bid { cp } => {
                l.bid = *cp;
                l.spent += cp;
            }
            Line::Buy { .. } => {}
        }
    }
    l.maintenance = f.maintenance.saturating_sub(saved);
    for line in lines {
        let Line::Buy { kind, at, ships, into } = line else {
            continue;
        };
        l.spent += kind.chart().cost * ships;
        match kind {
            Kind::Base | Kind::ShipYard => l.built.push((*at, *kind)),
            Kind::ColonyShip | Kind::Miner | Kind::Pipeline => {
                for _ in 0..*ships {
                    let label = draw_label(seat, taken, rng);
                    taken.push(label);
                    l.bought.push(new_unit(label, *kind, 1, levels, *at));
                }
            }
            _ => match into {
                Some(g) => l.added.push((*g, *ships)),
                None => {
                    let label = draw_label(seat, taken, rng);
                    taken.push(label);
                    l.bought.push(new_unit(label, *kind, *ships, levels, *at));
                }
            },
        }
    }
    let available = f.available(saved);
    let left = available.saturating_sub(l.spent);
    l.carried = left.min(CARRY_OVER_CAP);
    l.lost = left - l.carried;
    l.levels = levels;
    l
}
