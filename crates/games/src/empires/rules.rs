//! Who owes what, the legal orders, and `decide`: each order checked and
//! turned into events, then the game carried on by itself ([`advance`])
//! up to the next decision a person owes: battles answered by standing
//! orders, colony fire, colonizations, exploration, the end of a player
//! turn, of a turn, the Economic Phase's carrying out, the end of the game.

use super::basics::{Dir, Kind, Label, Marker, Tech, CARRY_OVER_CAP};
use super::combat::{
    self, choose_screen, colony_fire_to_hit, colony_volley, Action as BattleAction, Ask, Battle, Fighter, Side,
    Target, Terrain,
};
use super::economy::{self, Forecast};
use super::events::{apply, push, Doom, Event, Ledger};
use super::map::Board;
use super::movement::{self, d10, hex, own_unit};
use super::orders::{Action, ScrapWhat, StandingEdit, Written};
use super::setup::rotation;
use super::state::{draw_label, new_unit, Colony, Line, Phase, State, Unit};
use orrery_engine::{
    GameConfig, GameRng, Hex, Outcome, Pending, Rejection, Seat, SetupError, SheetEdit, SheetEvent,
};

// ---------------------------------------------------------------- set-up

/// The set-up ([`super::setup::setup`]) and round 1 up to the first
/// player's movement.
pub fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
    let (mut s, mut out) = super::setup::setup(config)?;
    let first = s.order[0];
    let e = movement_began(&s, first);
    push(&mut s, &mut out, e);
    Ok(out)
}

// ---------------------------------------------------------------- who owes what

/// The seat a `combat` decision is owed by now, if any.
pub fn combat_seat(s: &State) -> Option<Seat> {
    if s.phase != Phase::Combat {
        return None;
    }
    let attacker = s.active_seat()?;
    match &s.battle {
        Some(b) => b.ask().map(|a| side_seat(s, a.side())),
        None => Some(attacker),
    }
}

fn side_seat(s: &State, side: Side) -> Seat {
    match side {
        Side::Attacker => s.active_seat().unwrap_or(Seat(0)),
        Side::Defender => s.defender.unwrap_or(Seat(0)),
    }
}

fn seat_side(s: &State, seat: Seat) -> Side {
    if Some(seat) == s.active_seat() {
        Side::Attacker
    } else {
        Side::Defender
    }
}

/// Which seat owes which decision (empty once the game is over).
pub fn pending(s: &State) -> Vec<Pending> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    let one = |seat: Seat, kind: &str| {
        vec![Pending {
            seat,
            kind: kind.to_string(),
            prompt: prompt(s, seat),
            secret: false,
            submitted: false,
            sheet: false,
        }]
    };
    match s.phase {
        Phase::Setup | Phase::Over => Vec::new(),
        Phase::Movement => s.active_seat().map_or_else(Vec::new, |seat| one(seat, "move")),
        Phase::Combat => combat_seat(s).map_or_else(Vec::new, |seat| one(seat, "combat")),
        Phase::Lost { shifter, .. } => one(shifter, "lost"),
        Phase::First { chooser } => one(chooser, "first"),
        Phase::Economic => s
            .sheet
            .ready()
            .into_iter()
            .map(|(seat, ready)| Pending {
                seat,
                kind: "economic".into(),
                prompt: prompt(s, seat),
                secret: true,
                submitted: ready,
                sheet: true,
            })
            .collect(),
    }
}

/// The seats the game waits on.
fn waiting(s: &State) -> Vec<Seat> {
    pending(s).into_iter().filter(|p| !p.submitted).map(|p| p.seat).collect()
}

/// Where the game is, for errors: "bob's movement (round 3, turn 2)".
pub fn phase_words(s: &State) -> String {
    match &s.phase {
        Phase::Setup => "set-up".into(),
        Phase::Movement => format!("the active player's movement (round {}, turn {})", s.round, s.turn),
        Phase::Combat => format!("the active player's combat (round {}, turn {})", s.round, s.turn),
        Phase::Lost { .. } => "Lost in Space: a stack waits to be shifted".into(),
        Phase::Economic => format!("the Economic Phase of round {}", s.round),
        Phase::First { .. } => "the choice of the next round's first player".into(),
        Phase::Over => "the end of the game".into(),
    }
}

/// What `seat` is asked now, in words (no names: the service adds them).
pub fn prompt(s: &State, seat: Seat) -> String {
    match &s.phase {
        Phase::Movement => {
            let mine: Vec<String> = s
                .units_of(seat)
                .filter(|u| super::movement::movable(s, u).is_ok())
                .map(|u| format!("{} at {} ({} left)", u.label, s.board.name(u.hex), super::movement::left(s, u)))
                .collect();
            format!(
                "Turn {}: move your counters (`move`), then `end`. Able to move: {}.",
                s.turn,
                if mine.is_empty() { "none".into() } else { mine.join(", ") }
            )
        }
        Phase::Combat => combat_prompt(s),
        Phase::Lost { hex, .. } => format!(
            "A stack is Lost in Space at {}: shift it one hex (`shift dir:n|ne|se|s|sw|nw`).",
            s.board.name(*hex)
        ),
        Phase::Economic => {
            let f = Forecast::of(s, seat);
            let lines = s.sheet.lines_of(seat).unwrap_or(&[]);
            let totals = economy::check(s, seat, lines).unwrap_or_default();
            format!(
                "Economic Phase: income {} (colonies) + {} (minerals) − maintenance {} → {} CP to spend \
                 ({} carried over). This sheet spends {}; at most {} carry over. Write `bid`, `research`, \
                 `buy` lines, then `/sheet ready`.",
                f.colony_income,
                f.mineral_income,
                f.maintenance,
                totals.available,
                f.carried,
                totals.spent,
                super::basics::CARRY_OVER_CAP
            )
        }
        Phase::First { .. } => "You won the bid: choose who plays first next round (`first player:NAME`).".into(),
        Phase::Setup | Phase::Over => String::new(),
    }
}

fn combat_prompt(s: &State) -> String {
    match &s.battle {
        Some(b) => {
            let mut t = format!("Battle at {}, firing round {}. ", s.board.name(b.hex()), b.round().max(1));
            match b.ask() {
                Some(super::combat::Ask::Screen { max_ships, .. }) => t.push_str(&format!(
                    "You may screen up to {max_ships} ship(s) (`screen`), then `done`, or fire at once."
                )),
                Some(super::combat::Ask::Fire { side, .. }) => {
                    let run: Vec<String> = b
                        .run(side)
                        .into_iter()
                        .map(|i| {
                            let f = b.fighter(i);
                            let shots: Vec<String> = b
                                .targets(i)
                                .into_iter()
                                .map(|t| format!("{} {}", b.fighter(t).id, b.to_hit(i, t)))
                                .collect();
                            format!("{} ×{} (to-hit: {})", f.id, b.fireable(i), shots.join(", "))
                        })
                        .collect();
                    t.push_str(&format!("Your turn to fire: {}. `fire`, `retreat`, or `auto`.", run.join("; ")));
                }
                None => {}
            }
            t
        }
        None => match s.fighting {
            Some(at) => format!(
                "The enemy colony at {} may be fired on: `fire unit:LABEL at:colony` or `hold unit:LABEL` (or `auto`).",
                s.board.name(at)
            ),
            None => {
                format!(
                    "Choose your next battle: {} (`battle at:HEX`, or `auto`).",
                    hex_list(&s.board, &s.combat_due)
                )
            }
        },
    }
}

fn hex_list(b: &Board, hs: &[Hex]) -> String {
    crate::shared::menu::and_list(&hs.iter().map(|h| b.name(*h)).collect::<Vec<_>>())
}

// ---------------------------------------------------------------- legal orders

/// Every legal order of `seat` now, in a stable order (random play and
/// buttons are built from it). Scrapping is legal in the movement phase
/// and on the sheet but not listed: nobody wants a button for it (typed,
/// it autocompletes: [`complete_scrap`]).
pub fn legal_actions(s: &State, seat: Seat) -> Vec<Action> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    match s.phase {
        Phase::Movement if s.active_seat() == Some(seat) => movement_options(s, seat),
        Phase::Combat if combat_seat(s) == Some(seat) => combat_options(s, seat),
        Phase::Lost { shifter, hex } if shifter == seat => Dir::ALL
            .into_iter()
            .filter(|d| shift_target(s, hex, *d).is_ok())
            .map(|d| Action::Shift { dir: Some(d) })
            .collect(),
        Phase::First { chooser } if chooser == seat => {
            s.seats().map(|player| Action::First { player }).collect()
        }
        Phase::Economic if s.sheet.owes(seat) => sheet_options(s, seat),
        _ => Vec::new(),
    }
}

/// Autocomplete for `scrap unit:`, which the legal orders leave out (see
/// [`legal_actions`]): the seat's counters whose label starts with
/// `partial` and that `decide` would let it scrap now, with the other
/// options as `filled`. Nothing for other commands and options.
pub fn complete_scrap(
    s: &State,
    seat: Seat,
    command: &str,
    option: &str,
    filled: &[(String, String)],
    partial: &str,
) -> Vec<String> {
    if command != "scrap" || option != "unit" || s.outcome.is_some() {
        return Vec::new();
    }
    let typed = partial.trim().to_ascii_lowercase();
    let mut out = Vec::new();
    for u in s.units_of(seat) {
        let text = label_text(u.label);
        if !text.to_ascii_lowercase().starts_with(&typed) {
            continue;
        }
        let mut line = orrery_engine::CommandLine::new("scrap");
        line.args = filled.iter().filter(|(k, _)| k != "unit").cloned().collect();
        let line = line.arg("unit", &text);
        let accepted = super::orders::parse(&line).is_ok_and(|action| decide(s, seat, &action).is_ok());
        if accepted {
            out.push(text);
        }
    }
    out
}

fn label_text(l: Label) -> String {
    l.to_string()
}

fn movement_options(s: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    let mine: Vec<&Unit> = s.units_of(seat).collect();
    for u in &mine {
        if movement::movable(s, u).is_ok() {
            for to in s.board.neighbours(u.hex) {
                if movement::move_units(s, seat, &[u.label], &[to]).is_ok() {
                    out.push(Action::Move {
                        units: vec![label_text(u.label)],
                        path: vec![s.board.name(to)],
                    });
                }
            }
        }
    }
    for u in &mine {
        let unit = label_text(u.label);
        if u.ships > 1 && movement::split(s, seat, u.label, 1).is_ok() {
            out.push(Action::Split {
                unit: unit.clone(),
                ships: 1,
            });
        }
        for v in &mine {
            if v.label > u.label && movement::merge(s, u.label, v.label).is_ok() {
                out.push(Action::Merge {
                    unit: unit.clone(),
                    into: label_text(v.label),
                });
            }
        }
        if movement::colonize(s, seat, u.label).is_ok() {
            out.push(Action::Colonize { unit: unit.clone() });
        }
        if movement::tow(s, u.label).is_ok() {
            out.push(Action::Tow { unit: unit.clone() });
        }
        for to in s.board.neighbours(u.hex) {
            if movement::peek(s, seat, u.label, to).is_ok() {
                out.push(Action::Peek {
                    unit: unit.clone(),
                    at: s.board.name(to),
                });
            }
        }
        if movement::upgrade(s, seat, u.label).is_ok() {
            out.push(Action::Upgrade { unit: unit.clone() });
        }
    }
    for at in &s.empire(seat).peeked_now {
        if movement::reveal(s, seat, *at).is_ok() {
            out.push(Action::Reveal { at: s.board.name(*at) });
        }
    }
    out.push(Action::End);
    out
}

fn combat_options(s: &State, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    match &s.battle {
        Some(b) => match b.ask() {
            Some(Ask::Screen { max_ships, .. }) => {
                let noted: u32 = s.screening.iter().map(|(_, n)| n).sum();
                if noted < max_ships {
                    for f in b.fighters().iter().filter(|f| f.side == seat_side(s, seat)) {
                        if let Target::Group(l) = f.id {
                            let already = s.screening.iter().any(|(t, _)| *t == f.id);
                            if f.ships > 0 && !already && f.ships <= max_ships - noted {
                                out.push(Action::Screen {
                                    unit: label_text(l),
                                    ships: None,
                                });
                            }
                        }
                    }
                }
                out.push(Action::Done);
            }
            Some(Ask::Fire { side, .. }) => {
                for i in b.run(side) {
                    let f = b.fighter(i);
                    let unit = f.id.to_string();
                    if b.fireable(i) > 0 {
                        for t in b.targets(i) {
                            out.push(Action::Fire {
                                unit: unit.clone(),
                                at: b.fighter(t).id.to_string(),
                                ships: None,
                            });
                        }
                    }
                    if b.may_retreat(i) {
                        for to in retreat_hexes(s, seat, b.hex()) {
                            out.push(Action::Retreat {
                                unit: unit.clone(),
                                to: s.board.name(to),
                                ships: None,
                            });
                        }
                    }
                    if b.fireable(i) == 0 {
                        out.push(Action::Hold { unit });
                    }
                }
            }
            None => {}
        },
        None => match s.fighting {
            Some(at) => {
                for u in colony_shooters(s, at) {
                    out.push(Action::Fire {
                        unit: label_text(u),
                        at: "colony".into(),
                        ships: None,
                    });
                    out.push(Action::Hold { unit: label_text(u) });
                }
            }
            None => {
                for at in &s.combat_due {
                    out.push(Action::Battle { at: s.board.name(*at) });
                }
            }
        },
    }
    out.push(Action::Auto);
    out
}

fn sheet_options(s: &State, seat: Seat) -> Vec<Action> {
    let lines: Vec<Line> = s.sheet.lines_of(seat).unwrap_or(&[]).to_vec();
    let fits = |line: Line| {
        let mut all = lines.clone();
        all.push(line);
        economy::check(s, seat, &all).is_ok()
    };
    let mut out = Vec::new();
    let add = |written: Written| Action::Sheet(SheetEdit::Add(written));
    if !lines.iter().any(|l| matches!(l, Line::Bid { .. })) && fits(Line::Bid { cp: 1 }) {
        out.push(add(Written::Bid { cp: 1 }));
    }
    for tech in Tech::ALL {
        if fits(Line::Research { tech }) {
            out.push(add(Written::Research { tech }));
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

/// Hexes a ship of `seat` may retreat to from a battle at `from` (text
/// 5.9.2), best first: adjacent, explored, no enemy unit or colony, not a
/// Super Nova, no farther from `seat`'s nearest colony (other than one in
/// the battle hex) than `from`; nearest to that colony first, then in
/// direction order.
pub fn retreat_hexes(s: &State, seat: Seat, from: Hex) -> Vec<Hex> {
    let colonies: Vec<Hex> = s.colony_hexes(seat).into_iter().filter(|h| *h != from).collect();
    let dist = |h: Hex| colonies.iter().map(|c| c.distance(h)).min();
    let limit = dist(from);
    let mut out: Vec<(Option<i32>, usize, Hex)> = Dir::ALL
        .into_iter()
        .enumerate()
        .map(|(i, d)| (i, from.add(d.step())))
        .filter(|(_, h)| {
            s.board.contains(*h)
                && !s.unexplored(*h)
                && s.terrain(*h) != Some(Marker::SuperNova)
                && s.enemies_at(seat, *h).is_empty()
                && s.units_at(*h).all(|u| u.owner() == seat)
                && s.colony(*h).is_none_or(|c| c.owner == seat)
                && match (dist(*h), limit) {
                    (Some(d), Some(l)) => d <= l,
                    _ => true,
                }
        })
        .map(|(i, h)| (dist(h), i, h))
        .collect();
    out.sort();
    out.into_iter().map(|(_, _, h)| h).collect()
}

/// The attacker's armed groups at `at` that may still fire at the enemy
/// colony there this combat phase.
fn colony_shooters(s: &State, at: Hex) -> Vec<Label> {
    let Some(attacker) = s.active_seat() else { return Vec::new() };
    s.units_at(at)
        .filter(|u| u.owner() == attacker && u.armed() && !s.colony_fired.contains(&u.label))
        .map(|u| u.label)
        .collect()
}

/// What the seat does at a missed deadline.
pub fn default_action(s: &State, seat: Seat) -> Option<Action> {
    if s.outcome.is_some() {
        return None;
    }
    match s.phase {
        Phase::Movement if s.active_seat() == Some(seat) => Some(Action::End),
        Phase::Combat if combat_seat(s) == Some(seat) => Some(Action::Auto),
        Phase::Lost { shifter, .. } if shifter == seat => Some(Action::Shift { dir: None }),
        Phase::First { chooser } if chooser == seat => Some(Action::First { player: seat }),
        Phase::Economic => s.sheet.default_edit(seat).map(Action::Sheet),
        _ => None,
    }
}

// ---------------------------------------------------------------- decide

fn illegal(s: &State, seat: Seat, reason: impl Into<String>) -> Rejection {
    let legal = legal_actions(s, seat)
        .iter()
        .map(|a| super::orders::unparse(a).to_string())
        .collect();
    Rejection::illegal(reason, legal)
}

fn not_yours(s: &State, seat: Seat) -> Rejection {
    Rejection::NotYourDecision {
        seat,
        waiting: waiting(s),
    }
}

/// When an order may be given: the one place orders are sorted by phase.
#[derive(Clone, Copy, PartialEq, Eq)]
enum When {
    Movement,
    Combat,
    Sheet,
    /// `scrap` of a unit, without a sheet line: in movement or on the sheet.
    MovementOrSheet,
    Lost,
    First,
    AnyTime,
}

impl When {
    fn of(action: &Action) -> When {
        match action {
            Action::Move { .. }
            | Action::Split { .. }
            | Action::Merge { .. }
            | Action::Colonize { .. }
            | Action::Tow { .. }
            | Action::Peek { .. }
            | Action::Reveal { .. }
            | Action::Upgrade { .. }
            | Action::End => When::Movement,
            Action::Scrap { line: None, .. } => When::MovementOrSheet,
            Action::Battle { .. }
            | Action::Screen { .. }
            | Action::Done
            | Action::Fire { .. }
            | Action::Retreat { .. }
            | Action::Hold { .. }
            | Action::Auto => When::Combat,
            Action::Shift { .. } => When::Lost,
            Action::Sheet(_) | Action::Scrap { line: Some(_), .. } => When::Sheet,
            Action::First { .. } => When::First,
            Action::Standing(_) => When::AnyTime,
        }
    }

    fn in_movement(self) -> bool {
        matches!(self, When::Movement | When::MovementOrSheet)
    }

    fn on_sheet(self) -> bool {
        matches!(self, When::Sheet | When::MovementOrSheet)
    }

    /// What the order is, in words, for "not now" answers.
    fn words(self) -> &'static str {
        match self {
            When::Movement => "a movement order",
            When::MovementOrSheet => "a movement order or a line of the economic sheet",
            When::Combat => "a combat order",
            When::Lost => "the Lost in Space order",
            When::Sheet => "a line of the economic sheet",
            When::First => "the bid winner's order",
            When::AnyTime => "standing orders",
        }
    }
}

/// Validate an order and turn it into events, then carry the game on up
/// to the next decision someone owes.
pub fn decide(s: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if s.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    if seat.index() >= s.players as usize {
        return Err(not_yours(s, seat));
    }
    let mine = |r: Result<Vec<Event>, String>| r.map_err(|why| illegal(s, seat, why));
    let when = When::of(action);
    let events = match (&s.phase, action) {
        (_, Action::Standing(edit)) => vec![standing(s, seat, edit)],
        (Phase::Movement, _) if when.in_movement() => {
            if s.active_seat() != Some(seat) {
                return Err(not_yours(s, seat));
            }
            mine(movement_order(s, seat, action))?
        }
        (Phase::Combat, _) if when == When::Combat => {
            if combat_seat(s) != Some(seat) {
                return Err(not_yours(s, seat));
            }
            mine(combat_order(s, seat, action))?
        }
        (Phase::Lost { shifter, hex }, Action::Shift { dir }) => {
            if *shifter != seat {
                return Err(not_yours(s, seat));
            }
            mine(shift(s, *hex, *dir))?
        }
        (Phase::First { chooser }, Action::First { player }) => {
            if *chooser != seat {
                return Err(not_yours(s, seat));
            }
            if player.index() >= s.players as usize {
                return Err(illegal(s, seat, format!("there is no player {}", player.0 + 1)));
            }
            next_round(s, *player)
        }
        (Phase::Economic, _) if when.on_sheet() => vec![Event::Sheet(sheet_edit(s, seat, action)?)],
        _ => {
            if !pending(s).iter().any(|p| p.seat == seat) {
                return Err(not_yours(s, seat));
            }
            return Err(illegal(
                s,
                seat,
                format!(
                    "`{}` is {}; now the game is in {}",
                    super::orders::unparse(action).name,
                    when.words(),
                    phase_words(s)
                ),
            ));
        }
    };
    let mut scratch = s.clone();
    for e in &events {
        apply(&mut scratch, e);
    }
    let mut out = events;
    advance(&mut scratch, &mut out);
    Ok(out)
}

fn standing(s: &State, seat: Seat, edit: &StandingEdit) -> Event {
    let mut st = s.empire(seat).standing;
    if let Some(a) = edit.auto {
        st.auto = a;
    }
    if let Some(t) = edit.target {
        st.target = t;
    }
    if let Some(r) = edit.retreat {
        st.retreat = r;
    }
    if let Some(x) = edit.screen {
        st.screen = x;
    }
    if let Some(c) = edit.colonies {
        st.colonies = c;
    }
    Event::StandingSet { seat, standing: st }
}

fn movement_order(s: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, String> {
    let unit = |t: &str| own_unit(s, seat, t);
    match action {
        Action::Move { units, path } => {
            let units: Vec<Label> = units.iter().map(|u| unit(u)).collect::<Result<_, _>>()?;
            let path: Vec<Hex> = path.iter().map(|h| hex(s, h)).collect::<Result<_, _>>()?;
            movement::move_units(s, seat, &units, &path)
        }
        Action::Split { unit: u, ships } => movement::split(s, seat, unit(u)?, *ships),
        Action::Merge { unit: u, into } => {
            let into = unit(into)?;
            movement::merge(s, unit(u)?, into)
        }
        Action::Colonize { unit: u } => movement::colonize(s, seat, unit(u)?),
        Action::Tow { unit: u } => movement::tow(s, unit(u)?),
        Action::Peek { unit: u, at } => movement::peek(s, seat, unit(u)?, hex(s, at)?),
        Action::Reveal { at } => movement::reveal(s, seat, hex(s, at)?),
        Action::Upgrade { unit: u } => movement::upgrade(s, seat, unit(u)?),
        Action::Scrap {
            what: ScrapWhat::Unit(u),
            ..
        } => movement::scrap_unit(s, unit(u)?),
        Action::Scrap {
            what: ScrapWhat::At { at, what },
            ..
        } => movement::scrap_at(s, seat, hex(s, at)?, *what),
        Action::End => {
            let mut out = movement::deposits(s, seat);
            out.push(Event::MovementEnded { seat });
            out.push(Event::CombatBegan {
                seat,
                hexes: combat_hexes(s, seat),
            });
            Ok(out)
        }
        _ => Err("not a movement order".into()),
    }
}

/// Hexes where `seat`'s combat phase has battles (its units with another
/// player's units or armed installations) or colony fire (its armed ships
/// with an enemy colony), in hex-name order.
pub fn combat_hexes(s: &State, seat: Seat) -> Vec<Hex> {
    let mut out: Vec<Hex> = s
        .units_of(seat)
        .map(|u| u.hex)
        .filter(|h| {
            !s.enemies_at(seat, *h).is_empty()
                || (s.colony(*h).is_some_and(|c| c.owner != seat) && s.units_at(*h).any(|u| u.owner() == seat && u.armed()))
        })
        .collect();
    out.sort_by_key(|h| Board::name_key(*h));
    out.dedup();
    out
}

fn combat_order(s: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, String> {
    if let Action::Auto = action {
        return Ok(auto_until_another(s, seat));
    }
    match &s.battle {
        Some(b) => battle_order(s, seat, b, action),
        None => match s.fighting {
            Some(at) => colony_order(s, seat, at, action),
            None => match action {
                Action::Battle { at } => {
                    let h = hex(s, at)?;
                    if !s.combat_due.contains(&h) {
                        let due: Vec<String> = s.combat_due.iter().map(|h| s.board.name(*h)).collect();
                        return Err(format!("no battle is due at {at}; due: {}", due.join(", ")));
                    }
                    Ok(start_at(s, h))
                }
                _ => Err("first choose where to fight next: `battle at:HEX`".into()),
            },
        },
    }
}

/// A fighter of `seat`'s side named by an order.
fn own_fighter(s: &State, seat: Seat, b: &Battle, text: &str) -> Result<usize, String> {
    let side = seat_side(s, seat);
    let t = Target::parse(text, seat).ok_or_else(|| format!("`{text}` is not a counter, `base` or `yard`"))?;
    b.find(side, &t)
        .filter(|i| b.fighter(*i).ships > 0)
        .ok_or_else(|| format!("{t} is not one of your units in this battle"))
}

fn battle_order(s: &State, seat: Seat, b: &Battle, action: &Action) -> Result<Vec<Event>, String> {
    let side = seat_side(s, seat);
    let ask = b.ask().ok_or("the battle is over")?;
    let mut out = Vec::new();
    let mut scratch = s.clone();
    // A side that fires first while it may screen has screened what it noted.
    if let (Ask::Screen { .. }, Action::Fire { .. } | Action::Retreat { .. } | Action::Done) = (ask, action) {
        let e = fought(s, BattleAction::Screen(s.screening.clone()), Vec::new(), s.rng.clone());
        push(&mut scratch, &mut out, e);
        if let Action::Done = action {
            return Ok(out);
        }
    }
    let b = scratch.battle.clone().ok_or("the battle is over")?;
    match action {
        Action::Screen { unit, ships } => {
            let Ask::Screen { max_ships, .. } = ask else {
                return Err("screening is chosen at the start of a firing round, by the larger side".into());
            };
            let i = own_fighter(s, seat, &b, unit)?;
            let f = b.fighter(i);
            if !f.kind.is_warship() {
                return Err("only ships are screened, not Bases or Ship Yards".into());
            }
            if s.screening.iter().any(|(t, _)| *t == f.id) {
                return Err(format!("{} is noted for screening already", f.id));
            }
            let n = ships.unwrap_or(f.ships);
            if n > f.ships {
                return Err(format!("{} has {} ship(s)", f.id, f.ships));
            }
            let noted: u32 = s.screening.iter().map(|(_, n)| n).sum();
            if noted + n > max_ships {
                return Err(format!(
                    "you may screen {max_ships} ship(s) this round (the difference in combat-capable units); {noted} noted"
                ));
            }
            out.push(Event::ScreenNoted { target: f.id, ships: n });
            Ok(out)
        }
        Action::Fire { unit, at, ships } => {
            let i = own_fighter(s, seat, &b, unit)?;
            if !b.run(side).contains(&i) {
                return Err(format!("it is not {}'s place in the firing order", b.fighter(i).id));
            }
            let enemy = side_seat(s, side.other());
            let t = Target::parse(at, enemy).ok_or_else(|| format!("`{at}` is not an enemy counter, `base` or `yard`"))?;
            let ti = b
                .find(side.other(), &t)
                .filter(|ti| b.targets(i).contains(ti))
                .ok_or_else(|| {
                    let legal: Vec<String> = b.targets(i).iter().map(|t| b.fighter(*t).id.to_string()).collect();
                    format!("{at} is not an enemy {} may fire at; it may fire at {}", b.fighter(i).id, legal.join(", "))
                })?;
            let can = b.fireable(i);
            let n = ships.unwrap_or(can);
            if n == 0 || n > can {
                return Err(format!("{} has {can} ship(s) that may fire now", b.fighter(i).id));
            }
            out.push(volley(&scratch, &b, i, b.fighter(ti).id, n));
            Ok(out)
        }
        Action::Retreat { unit, to, ships } => {
            let i = own_fighter(s, seat, &b, unit)?;
            if !b.may_retreat(i) {
                return Err(format!(
                    "{} may not retreat now: from firing round 2, at its place in the order, warship groups only",
                    b.fighter(i).id
                ));
            }
            let h = hex(s, to)?;
            let legal = retreat_hexes(s, seat, b.hex());
            if !legal.contains(&h) {
                let names: Vec<String> = legal.iter().map(|h| s.board.name(*h)).collect();
                return Err(if names.is_empty() {
                    "there is no hex to retreat to: adjacent, explored, without enemies, no farther from your colonies"
                        .into()
                } else {
                    format!("{to} is not a retreat hex; legal: {}", names.join(", "))
                });
            }
            let f = b.fighter(i);
            let n = ships.unwrap_or(f.ships - f.fired);
            if n == 0 || n > f.ships - f.fired {
                return Err(format!("{} has {} ship(s) that may retreat", f.id, f.ships - f.fired));
            }
            out.extend(retreat(&scratch, &b, i, n, h));
            Ok(out)
        }
        Action::Hold { unit } => {
            let i = own_fighter(s, seat, &b, unit)?;
            if b.fireable(i) > 0 {
                return Err(format!("{} may fire: give it a target (or `auto`)", b.fighter(i).id));
            }
            out.push(fought(s, BattleAction::Hold { fighter: i }, Vec::new(), s.rng.clone()));
            Ok(out)
        }
        Action::Done => Err("there is no screening to finish now".into()),
        Action::Battle { .. } => Err("finish this battle first".into()),
        _ => Err("not a battle order".into()),
    }
}

/// `ships` ships of fighter `i` fire at `target`, one die each, until it
/// is destroyed.
fn volley(s: &State, b: &Battle, i: usize, target: Target, ships: u32) -> Event {
    let mut rng = (*s.rng).clone();
    let mut probe = b.clone();
    let side = b.fighter(i).side.other();
    let mut dice = Vec::new();
    for _ in 0..ships {
        let alive = probe.find(side, &target).is_some_and(|t| probe.fighter(t).unscreened() > 0);
        if !alive || probe.fireable(i) == 0 {
            break;
        }
        let d = d10(&mut rng);
        if probe.fire(i, target, 1, &[d]).is_err() {
            break;
        }
        dice.push(d);
    }
    let action = BattleAction::Fire {
        fighter: i,
        target,
        ships: dice.len() as u32,
    };
    fought(s, action, dice, Box::new(rng))
}

/// `ships` ships of fighter `i` retreat to `to`; ships retreating into a
/// Black Hole roll as they enter it (text 5.9.2, 6.3).
fn retreat(s: &State, b: &Battle, i: usize, ships: u32, to: Hex) -> Vec<Event> {
    let f = b.fighter(i);
    let mut rng = (*s.rng).clone();
    let new = match f.id {
        Target::Group(l) if ships < f.ships => Some(s.fresh_label(l.owner, &mut rng)),
        _ => None,
    };
    let said = match new {
        Some(n) => format!("{ships} ship(s) of {} retreat to {} as {n}.", f.id, s.board.name(to)),
        None => format!("{} retreats to {}.", f.id, s.board.name(to)),
    };
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(
        &mut scratch,
        &mut out,
        Event::Retreated {
            fighter: i,
            ships,
            to,
            new,
            said,
            rng: Box::new(rng.clone()),
        },
    );
    let moved = match f.id {
        Target::Group(l) => new.or(Some(l)),
        _ => None,
    };
    if let (Some(label), Some(Marker::BlackHole)) = (moved, s.terrain(to)) {
        out.push(movement::black_hole(&scratch, &[label], to, &mut rng));
    }
    out
}

fn colony_order(s: &State, seat: Seat, at: Hex, action: &Action) -> Result<Vec<Event>, String> {
    let shooters = colony_shooters(s, at);
    let pick = |unit: &str| -> Result<Label, String> {
        let l = own_unit(s, seat, unit)?;
        if !shooters.contains(&l) {
            let names: Vec<String> = shooters.iter().map(|l| l.to_string()).collect();
            return Err(format!("{l} may not fire at this colony now; may: {}", names.join(", ")));
        }
        Ok(l)
    };
    match action {
        Action::Fire { unit, at: t, ships } => {
            if !t.eq_ignore_ascii_case("colony") {
                return Err(format!("no enemy units are left here: fire `at:colony` (not {t})"));
            }
            if ships.is_some() {
                return Err("every ship of the group fires once at a colony: leave out `ships`".into());
            }
            Ok(colony_fire(s, pick(unit)?, at))
        }
        Action::Hold { unit } => Ok(vec![Event::ColonyHeld { at, unit: pick(unit)? }]),
        _ => Err("at a colony: `fire unit:LABEL at:colony`, `hold unit:LABEL` or `auto`".into()),
    }
}

/// A group fires at the enemy colony of `at`, one die per ship (text 5.10).
fn colony_fire(s: &State, unit: Label, at: Hex) -> Vec<Event> {
    let (Some(u), Some(c)) = (s.unit(unit), s.colony(at)) else {
        return Vec::new();
    };
    let chart = u.kind.chart();
    let to_hit = colony_fire_to_hit(chart.attack, u.levels.attack, chart.hull);
    let mut rng = (*s.rng).clone();
    let shots: Vec<(i32, u32)> = (0..u.ships).map(|_| (to_hit, d10(&mut rng))).collect();
    let volley = colony_volley(c.worth, &shots);
    let home = c.is_home();
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let fired = Event::ColonyFired {
        at,
        unit,
        dice: volley.shots.iter().map(|(d, _)| *d).collect(),
        worth: volley.after,
        rng: Box::new(rng),
    };
    push(&mut scratch, &mut out, fired);
    if volley.after.is_none() {
        if home {
            // Victory (Scenario Book): with two players the opponent's
            // homeworld, with more the first homeworld destroyed.
            let scores = scratch.seats().map(|seat| (seat, scratch.score(seat))).collect();
            out.push(Event::GameEnded {
                outcome: Outcome::Winner {
                    seat: unit.owner,
                    reason: format!("destroyed the homeworld at {}", s.board.name(at)),
                },
                scores,
            });
        } else {
            out.push(Event::ColonyFireEnded { at });
        }
    }
    out
}

/// The battle, or colony fire, at `h` begins.
fn start_at(s: &State, h: Hex) -> Vec<Event> {
    let Some(attacker) = s.active_seat() else { return Vec::new() };
    let Some(defender) = s.enemies_at(attacker, h).first().copied() else {
        return vec![Event::ColonyFireBegan { at: h }];
    };
    let decoys: Vec<Label> = s.units_at(h).filter(|u| u.kind == Kind::Decoy).map(|u| u.label).collect();
    let terrain = match s.terrain(h) {
        Some(Marker::Nebula) => Terrain::Nebula,
        Some(Marker::Asteroids) => Terrain::Asteroids,
        _ => Terrain::Open,
    };
    let mut fighters = Vec::new();
    let mut unarmed: [Vec<Label>; 2] = [Vec::new(), Vec::new()];
    for (side, seat) in [(Side::Attacker, attacker), (Side::Defender, defender)] {
        for u in s.units_at(h).filter(|u| u.owner() == seat && u.kind != Kind::Decoy) {
            if u.armed() {
                fighters.push(Fighter::new(
                    side,
                    Target::Group(u.label),
                    u.kind,
                    u.ships,
                    u.levels.attack,
                    u.levels.defense,
                    u.levels.tactics,
                ));
            } else {
                unarmed[side.index()].push(u.label);
            }
        }
        if let Some(c) = s.colony(h).filter(|c| c.owner == seat) {
            let l = s.empire(seat).levels;
            if c.base {
                fighters.push(Fighter::new(side, Target::Base, Kind::Base, 1, l.attack, l.defense, l.tactics));
            }
            if c.yards > 0 {
                fighters.push(Fighter::new(
                    side,
                    Target::Yards,
                    Kind::ShipYard,
                    c.yards,
                    l.attack,
                    l.defense,
                    l.tactics,
                ));
            }
        }
    }
    match Battle::new(h, terrain, fighters, unarmed) {
        Ok(battle) => vec![Event::BattleBegan {
            at: h,
            defender,
            decoys,
            battle: Box::new(battle),
        }],
        // Units the state holds always make a battle; if not, the hex is
        // passed over rather than the game stopped.
        Err(_) => vec![Event::ColonyFireEnded { at: h }],
    }
}

/// The answer of `seat`'s standing orders to what the combat waits on now.
fn standing_step(s: &State) -> Vec<Event> {
    let Some(seat) = combat_seat(s) else { return Vec::new() };
    let st = s.empire(seat).standing;
    match &s.battle {
        Some(b) => {
            let Some(ask) = b.ask() else { return Vec::new() };
            match ask {
                Ask::Screen { side, .. } => vec![fought(
                    s,
                    BattleAction::Screen(choose_screen(b, side, st.screen)),
                    Vec::new(),
                    s.rng.clone(),
                )],
                Ask::Fire { .. } => {
                    let hexes = retreat_hexes(s, seat, b.hex());
                    match st.answer(b, &ask, !hexes.is_empty()) {
                        BattleAction::Retreat { fighter, ships } => retreat(s, b, fighter, ships, hexes[0]),
                        BattleAction::Fire { fighter, target, ships } => vec![volley(s, b, fighter, target, ships)],
                        other => vec![fought(s, other, Vec::new(), s.rng.clone())],
                    }
                }
            }
        }
        None => match s.fighting {
            Some(at) => match colony_shooters(s, at).first() {
                Some(&u) if st.colonies == combat::ColonyRule::Fire => colony_fire(s, u, at),
                Some(&u) => vec![Event::ColonyHeld { at, unit: u }],
                None => vec![Event::ColonyFireEnded { at }],
            },
            None => s.combat_due.first().map_or_else(Vec::new, |h| start_at(s, *h)),
        },
    }
}

/// `auto`: `seat`'s standing orders answer until the combat waits on
/// someone else, or on a decision of another kind.
fn auto_until_another(s: &State, seat: Seat) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let mut guard = 0;
    while combat_seat(&scratch) == Some(seat) && scratch.outcome.is_none() && guard < 10_000 {
        guard += 1;
        let step = standing_step(&scratch);
        if step.is_empty() {
            break;
        }
        for e in step {
            push(&mut scratch, &mut out, e);
        }
        if let Some(b) = &scratch.battle {
            if b.ask().is_none() {
                let e = battle_ended(&scratch, b);
                push(&mut scratch, &mut out, e);
            }
        }
    }
    out
}

fn battle_ended(s: &State, b: &Battle) -> Event {
    let outcome = b.outcome().cloned();
    let winner = outcome
        .as_ref()
        .and_then(|o| o.winner)
        .map_or_else(|| s.active_seat().unwrap_or(Seat(0)), |side| side_seat(s, side));
    Event::BattleEnded {
        at: b.hex(),
        winner,
        lost: outcome.map(|o| o.destroyed).unwrap_or_default(),
    }
}

// ---------------------------------------------------------------- the flow

/// Carry the game on by itself until someone owes a decision a person
/// makes (or the game is over).
pub fn advance(s: &mut State, out: &mut Vec<Event>) {
    for _ in 0..100_000 {
        if s.outcome.is_some() {
            return;
        }
        let step: Vec<Event> = match s.phase {
            Phase::Combat => combat_step(s),
            Phase::Economic if s.sheet.all_ready() => carry_out_economy(s),
            _ => Vec::new(),
        };
        if step.is_empty() {
            return;
        }
        for e in step {
            push(s, out, e);
        }
    }
}

/// One automatic step of the active player's combat phase, or nothing when
/// a person owes the next decision.
fn combat_step(s: &State) -> Vec<Event> {
    if let Some(b) = &s.battle {
        return match b.ask() {
            None => vec![battle_ended(s, b)],
            Some(ask) => {
                let seat = side_seat(s, ask.side());
                if s.empire(seat).standing.auto {
                    standing_step(s)
                } else {
                    Vec::new()
                }
            }
        };
    }
    let Some(attacker) = s.active_seat() else { return Vec::new() };
    let auto = s.empire(attacker).standing.auto;
    if let Some(at) = s.fighting {
        let enemy_colony = s.colony(at).is_some_and(|c| c.owner != attacker);
        if !enemy_colony || colony_shooters(s, at).is_empty() {
            return vec![Event::ColonyFireEnded { at }];
        }
        return if auto { standing_step(s) } else { Vec::new() };
    }
    if let Some(&first) = s.combat_due.first() {
        return if s.combat_due.len() == 1 || auto {
            start_at(s, first)
        } else {
            Vec::new()
        };
    }
    if let Some(&(unit, at)) = s.queued.first() {
        let free = s.enemies_at(attacker, at).is_empty() && s.colony(at).is_none() && s.unit(unit).is_some_and(|u| u.hex == at);
        return vec![if free {
            Event::Colonized {
                unit,
                at,
                barren: s.terrain(at) == Some(Marker::Barren),
            }
        } else {
            Event::ColonizeDropped { unit, at }
        }];
    }
    if let Some(h) = next_exploration(s, attacker) {
        return explore(s, attacker, h);
    }
    end_player_turn(s, attacker)
}

/// The next hex (in hex-name order) with a face-down marker and a unit of
/// `seat` that explores (not a decoy).
fn next_exploration(s: &State, seat: Seat) -> Option<Hex> {
    s.units_of(seat)
        .filter(|u| u.kind != Kind::Decoy && s.unexplored(u.hex))
        .map(|u| u.hex)
        .min_by_key(|h| Board::name_key(*h))
}

/// A marker turned face up, and its effect (text 6.0–6.9).
fn explore(s: &State, seat: Seat, h: Hex) -> Vec<Event> {
    let Some(spot) = s.spot(h) else { return Vec::new() };
    let marker = spot.marker;
    let mut out = vec![Event::Explored {
        at: h,
        marker,
        removed: marker.one_time(),
    }];
    let here: Vec<Label> = s.units_at(h).map(|u| u.label).collect();
    match marker {
        Marker::BlackHole => {
            let mut rng = (*s.rng).clone();
            let mine: Vec<Label> = s.units_at(h).filter(|u| u.owner() == seat).map(|u| u.label).collect();
            out.push(movement::black_hole(s, &mine, h, &mut rng));
        }
        Marker::SuperNova => {
            let moves = s
                .units_at(h)
                .map(|u| {
                    let back = u.came_from.filter(|c| *c != h).unwrap_or_else(|| {
                        s.board
                            .neighbours(h)
                            .into_iter()
                            .find(|n| s.terrain(*n) != Some(Marker::SuperNova))
                            .unwrap_or(h)
                    });
                    (u.label, back)
                })
                .collect();
            out.push(Event::SentBack { moves });
        }
        Marker::Danger => out.push(Event::Destroyed {
            at: h,
            kinds: here.iter().filter_map(|l| s.unit(*l)).map(|u| u.kind).collect(),
            units: here,
            why: Doom::Danger,
        }),
        Marker::LostInSpace => {
            let shifter = Seat((seat.0 + s.players - 1) % s.players);
            out.push(Event::LostOwed { shifter, at: h });
        }
        _ => {}
    }
    out
}

/// Where Lost in Space would shift the stack at `at` in direction `dir`.
fn shift_target(s: &State, at: Hex, dir: Dir) -> Result<Hex, String> {
    let to = at.add(dir.step());
    if !s.board.contains(to) {
        return Err(format!("{} would leave the map", dir.key()));
    }
    if s.terrain(to) == Some(Marker::SuperNova) {
        return Err(format!("{} is a Super Nova", s.board.name(to)));
    }
    Ok(to)
}

/// `shift dir:…` (`None`: a direction drawn at random, the deadline's).
fn shift(s: &State, at: Hex, dir: Option<Dir>) -> Result<Vec<Event>, String> {
    let mut rng = (*s.rng).clone();
    let dir = match dir {
        Some(d) => d,
        None => {
            let legal: Vec<Dir> = Dir::ALL.into_iter().filter(|d| shift_target(s, at, *d).is_ok()).collect();
            *rng.pick(&legal).ok_or("no direction is open")?
        }
    };
    let to = shift_target(s, at, dir).map_err(|why| {
        let legal: Vec<&str> = Dir::ALL
            .into_iter()
            .filter(|d| shift_target(s, at, *d).is_ok())
            .map(Dir::key)
            .collect();
        format!("{why}; the stack may go {}", legal.join(", "))
    })?;
    let Some(seat) = s.active_seat() else { return Err("no stack is lost".into()) };
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(
        &mut scratch,
        &mut out,
        Event::Shifted {
            at,
            dir,
            to,
            rng: Box::new(rng.clone()),
        },
    );
    if s.terrain(to) == Some(Marker::BlackHole) {
        let mine: Vec<Label> = scratch.units_at(to).filter(|u| u.owner() == seat).map(|u| u.label).collect();
        let e = movement::black_hole(&scratch, &mine, to, &mut rng);
        push(&mut scratch, &mut out, e);
    }
    if !scratch.enemies_at(seat, to).is_empty() {
        push(&mut scratch, &mut out, Event::CombatBegan { seat, hexes: vec![to] });
    }
    Ok(out)
}

/// The end of the active player's turn: the next player's movement, or the
/// end of the turn (upgrades), then the next turn or the Economic Phase.
fn end_player_turn(s: &State, seat: Seat) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(&mut scratch, &mut out, Event::PlayerTurnEnded { seat });
    if scratch.active + 1 < scratch.order.len() {
        let next = scratch.order[scratch.active + 1];
        let e = movement_began(&scratch, next);
        push(&mut scratch, &mut out, e);
        return out;
    }
    // The end of the turn: upgrades take effect (text 9.10.4).
    let (mut done, mut lost) = (Vec::new(), Vec::new());
    for u in scratch.units.iter().filter(|u| u.upgrading) {
        let at_yard = scratch.colony(u.hex).is_some_and(|c| c.owner == u.owner() && c.yards > 0);
        if at_yard && u.moved == 0 {
            let mut levels = scratch.empire(u.owner()).levels;
            if u.kind != Kind::Cruiser {
                levels.explore = u.levels.explore;
            }
            levels.terraform = u.levels.terraform;
            done.push((u.label, levels));
        } else {
            lost.push(u.label);
        }
    }
    if !done.is_empty() || !lost.is_empty() {
        push(&mut scratch, &mut out, Event::UpgradesEnded { done, lost });
    }
    if scratch.turn < 3 {
        let turn = scratch.turn + 1;
        push(&mut scratch, &mut out, Event::TurnBegan { turn });
        let first = scratch.order[0];
        let e = movement_began(&scratch, first);
        push(&mut scratch, &mut out, e);
    } else {
        let e = economic_began(&scratch);
        push(&mut scratch, &mut out, e);
    }
    out
}

/// A player's movement phase begins: revealed groups at their colonies hide
/// and the face-down counters in those hexes draw new labels.
fn movement_began(s: &State, seat: Seat) -> Event {
    let colonies = s.colony_hexes(seat);
    let hidden: Vec<Label> = s
        .units_of(seat)
        .filter(|u| u.face_up && !u.kind.slow() && colonies.contains(&u.hex))
        .map(|u| u.label)
        .collect();
    let mut rng = (*s.rng).clone();
    let mut hexes: Vec<Hex> = hidden.iter().filter_map(|l| s.unit(*l)).map(|u| u.hex).collect();
    hexes.sort_by_key(|h| Board::name_key(*h));
    hexes.dedup();
    let mut relabelled = Vec::new();
    for h in hexes {
        let mut stack: Vec<Label> = s
            .units_at(h)
            .filter(|u| u.owner() == seat && !u.kind.slow())
            .map(|u| u.label)
            .collect();
        stack.sort();
        // New numbers for the whole stack, drawn from those free once the
        // stack's own are given up.
        let mut taken: Vec<Label> = s
            .units_of(seat)
            .filter(|u| !stack.contains(&u.label))
            .map(|u| u.label)
            .collect();
        for old in stack {
            let new = draw_label(seat, &taken, &mut rng);
            taken.push(new);
            relabelled.push((old, new));
        }
    }
    Event::MovementBegan {
        seat,
        hidden,
        relabelled,
        rng: Box::new(rng),
    }
}

/// The Economic Phase begins: Space Wrecks deposited at colonies not
/// blockaded are rolled on the table (rules page, *Economic Phase*).
fn economic_began(s: &State) -> Event {
    let mut rng = (*s.rng).clone();
    let mut wrecks = Vec::new();
    for c in &s.colonies {
        if s.blockaded(c) {
            continue;
        }
        for m in &c.deposits {
            if *m == Marker::SpaceWreck {
                let die = d10(&mut rng);
                wrecks.push((c.owner, c.hex, die, super::basics::wreck_tech(die)));
            }
        }
    }
    Event::EconomicBegan {
        round: s.round,
        wrecks,
        rng: Box::new(rng),
    }
}

/// An edit of the economic sheet (the engine's sheet protocol): a `scrap`
/// with or without `line:` is a line too; every line is resolved against
/// the state and the whole sheet checked as it would be.
fn sheet_edit(s: &State, seat: Seat, action: &Action) -> Result<SheetEvent<Line>, Rejection> {
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
        |all, _| economy::check(s, seat, all).map(|_| ()).map_err(|why| illegal(s, seat, why)),
    )
}

/// A sheet line as written → resolved against the state.
fn resolve_line(s: &State, seat: Seat, w: &Written) -> Result<Line, String> {
    Ok(match w {
        Written::Bid { cp } => Line::Bid { cp: *cp },
        Written::Research { tech } => Line::Research { tech: *tech },
        Written::Buy { kind, at, ships, into } => {
            let at = hex(s, at)?;
            let into = match into {
                Some(t) => Some(own_unit(s, seat, t)?),
                None => None,
            };
            if into.is_some() && !kind.is_warship() {
                return Err("`into:` adds warships to a group".into());
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
fn carry_out_economy(s: &State) -> Vec<Event> {
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
            if economy::check(s, seat, &with).is_ok() {
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
        maintenance: f.maintenance,
        bid: 0,
        spent: 0,
        carried: 0,
        lost: 0,
        levels,
        wrecks: Vec::new(),
        scrapped: Vec::new(),
        scrapped_at: Vec::new(),
        bought: Vec::new(),
        added: Vec::new(),
        built: Vec::new(),
    };
    let mut saved = 0;
    for line in lines {
        match line {
            Line::Scrap { unit } => {
                saved += s.unit(*unit).map_or(0, Unit::maintenance);
                l.scrapped.push(*unit);
            }
            Line::ScrapAt { at, what } => l.scrapped_at.push((*at, *what)),
            Line::Research { tech } => {
                l.spent += economy::cost(line, &before);
                levels.set(*tech, before.get(*tech) + 1);
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
        let Line::Buy { kind, at, ships, into } = line else { continue };
        l.spent += kind.chart().cost * ships;
        match kind {
            Kind::Base | Kind::ShipYard => l.built.push((*at, *kind)),
            Kind::ColonyShip | Kind::Miner => {
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

/// The round limit: the highest score wins (ties: colony income, then CP).
fn game_over_on_score(s: &State) -> Event {
    let scores: Vec<(Seat, u32)> = s.seats().map(|seat| (seat, s.score(seat))).collect();
    let key = |seat: Seat| {
        let income: u32 = s.colonies_of(seat).map(|c| c.worth.cp()).sum();
        (s.score(seat), income, s.empire(seat).cp)
    };
    let best = s.seats().map(key).max().unwrap_or_default();
    let winners: Vec<Seat> = s.seats().filter(|x| key(*x) == best).collect();
    let reason = format!("the highest score after round {}", s.round);
    let outcome = match winners.as_slice() {
        [one] => Outcome::Winner { seat: *one, reason },
        _ => Outcome::Shared { seats: winners, reason },
    };
    Event::GameEnded { outcome, scores }
}

/// The bid's winner chose the first player: the next round begins.
fn next_round(s: &State, first: Seat) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let order = rotation(s.players, first);
    push(
        &mut scratch,
        &mut out,
        Event::RoundBegan {
            round: s.round + 1,
            order,
        },
    );
    push(&mut scratch, &mut out, Event::TurnBegan { turn: 1 });
    let e = movement_began(&scratch, first);
    push(&mut scratch, &mut out, e);
    out
}

/// A battle answer as an event, with its public account (`said`): what was
/// screened, each die against its to-hit, ships lost, a new firing round.
fn fought(s: &State, action: BattleAction, dice: Vec<u32>, rng: Box<GameRng>) -> Event {
    let said = match &s.battle {
        Some(b) => describe(b, &action, &dice),
        None => String::new(),
    };
    Event::Fought {
        action,
        dice,
        said,
        rng,
    }
}

fn describe(b: &Battle, action: &BattleAction, dice: &[u32]) -> String {
    let mut probe = b.clone();
    let round = probe.round();
    let done = probe.act(action, dice);
    let mut out = match (action, done) {
        (BattleAction::Screen(list), _) if list.is_empty() => String::new(),
        (BattleAction::Screen(list), _) => {
            let items: Vec<String> = list.iter().map(|(t, n)| format!("{t} ({n} ship(s))")).collect();
            format!("Screened this firing round: {}.", items.join(", "))
        }
        (BattleAction::Fire { fighter, target, .. }, Ok(combat::Done::Shots(shots))) => {
            let rolls: Vec<String> = shots
                .iter()
                .map(|x| format!("{} {}", x.die, if x.hit { "hit" } else { "miss" }))
                .collect();
            let to_hit = shots.first().map_or(0, |x| x.to_hit);
            let lost = shots.iter().filter(|x| x.destroyed).count();
            let mut t = format!(
                "{} fires at {target} (to-hit {to_hit}): {}.",
                b.fighter(*fighter).id,
                rolls.join(", ")
            );
            if lost > 0 {
                t.push_str(&format!(" {target} loses {lost} ship(s)."));
            }
            t
        }
        (BattleAction::Hold { fighter }, _) => format!("{} holds its fire.", b.fighter(*fighter).id),
        _ => String::new(),
    };
    if probe.round() > round && !probe.is_over() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("Firing round {}.", probe.round()));
        if let Some(side) = probe.bonus() {
            out.push_str(&format!(" The {side} has the fleet-size bonus."));
        }
    }
    out
}
