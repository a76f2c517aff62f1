//! Who owes what, the legal orders, and `decide`: each order checked and
//! turned into events, then the game carried on by itself ([`advance`])
//! up to the next decision a person owes: battles answered by standing
//! orders, colony fire, colonizations, exploration, the end of a player
//! turn, of a turn, the Economic Phase's carrying out, the end of the game.
//!
//! Its parts: [`combat`] (the combat phase's orders, battles begun and
//! answered, retreats, colony fire), [`economy`] (the Economic Phase: the
//! sheet's arithmetic and rules, its lines resolved, its carrying out) and
//! [`movement`] (the movement phase's orders, Lost in Space, exploration).
//! What they share (names resolved, the die, whose side is whose, the
//! flow between phases) is here.

use self::combat::{combat_options, combat_order, combat_prompt, combat_step, standing, turn_order_in_combat};
use self::economy::{carry_out_economy, sheet_edit, sheet_options, Forecast};
use self::movement::{movement_options, movement_order, shift, shift_target};
use super::basics::{Dir, Label, Marker};
use super::events::{apply, push, Event};
use super::map::Board;
use super::orders::Action;
use super::setup::rotation;
use super::state::battle::{RevealedRule, Side};
use super::state::{draw_label, Phase, State};
use orrery_engine::{GameConfig, GameRng, Hex, Outcome, Pending, Rejection, Seat, SetupError};

pub mod combat;
pub mod doomsday;
pub mod economy;
pub mod mines;
pub mod movement;

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

// ---------------------------------------------------------------- names and dice

/// The d10 (1-10) of the game's dice.
pub fn d10(rng: &mut GameRng) -> u32 {
    rng.below(10) + 1
}

/// One of `seat`'s counters, by label (`A17`, or `17`).
pub fn own_unit(s: &State, seat: Seat, text: &str) -> Result<Label, String> {
    let label = Label::parse(text, seat).ok_or_else(|| format!("`{text}` is not a counter's label (such as A17)"))?;
    match s.unit(label) {
        Some(u) if u.owner() == seat => Ok(label),
        Some(_) => Err(format!("{label} is not yours")),
        None => {
            let mut mine: Vec<String> = s.units_of(seat).map(|u| u.label.to_string()).collect();
            mine.sort();
            Err(format!("you have no counter {label}; yours are {}", mine.join(", ")))
        }
    }
}

/// A hex of the map, by name.
pub fn hex(s: &State, text: &str) -> Result<Hex, String> {
    s.board
        .parse(text)
        .ok_or_else(|| format!("`{text}` is not a hex of this map (hexes are named like A4)"))
}

// ---------------------------------------------------------------- who owes what

/// The seat a `combat` decision is owed by now, if any.
pub fn combat_seat(s: &State) -> Option<Seat> {
    if !matches!(s.phase, Phase::Combat | Phase::Doomsday { .. }) {
        return None;
    }
    let attacker = s.active_seat()?;
    match &s.battle {
        // Nobody owes a Doomsday Machine's shots, nor those of aliens
        // without a player to choose for them (`combat::automatic_ask`).
        Some(b) => b
            .ask()
            .filter(|a| !combat::automatic_ask(s, b, a))
            .map(|a| side_seat(s, a.side())),
        None => (s.phase == Phase::Combat).then_some(attacker),
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
            undisclosed: false,
        }]
    };
    match s.phase {
        Phase::Setup | Phase::Over => Vec::new(),
        Phase::Movement => s.active_seat().map_or_else(Vec::new, |seat| one(seat, "move")),
        Phase::Combat | Phase::Doomsday { .. } => combat_seat(s).map_or_else(Vec::new, |seat| one(seat, "combat")),
        Phase::Lost { shifter, .. } => one(shifter, "lost"),
        Phase::Mines { owner, .. } => one(owner, "mines"),
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
                undisclosed: false,
            })
            .collect(),
    }
}

/// The seats the game waits on.
fn waiting(s: &State) -> Vec<Seat> {
    pending(s)
        .into_iter()
        .filter(|p| !p.submitted)
        .map(|p| p.seat)
        .collect()
}

/// Where the game is, for errors: "bob's movement (round 3, turn 2)".
pub fn phase_words(s: &State) -> String {
    match &s.phase {
        Phase::Setup => "set-up".into(),
        Phase::Movement => format!("the active player's movement (round {}, turn {})", s.round, s.turn),
        Phase::Combat => format!("the active player's combat (round {}, turn {})", s.round, s.turn),
        Phase::Lost { .. } => "Lost in Space: a stack waits to be shifted".into(),
        Phase::Mines { .. } => "a minefield: its owner chooses what the mines destroy".into(),
        Phase::Economic => format!("the Economic Phase of round {}", s.round),
        Phase::First { .. } => "the choice of the next round's first player".into(),
        Phase::Doomsday { number, .. } => format!(
            "Doomsday Machine {number}'s attack (round {}, turn {})",
            s.round, s.turn
        ),
        Phase::Over => "the end of the game".into(),
    }
}

/// What `seat` is asked now, in words (no names: the service adds them).
pub fn prompt(s: &State, seat: Seat) -> String {
    match &s.phase {
        Phase::Movement => {
            let mine: Vec<String> = s
                .units_of(seat)
                .filter(|u| self::movement::movable(s, u).is_ok())
                .map(|u| {
                    if u.kind.carried() {
                        // Squadrons go as far as the Carriers that take them.
                        format!("{} at {} (with a Carrier)", u.label, s.board.name(u.hex))
                    } else {
                        format!(
                            "{} at {} ({} left)",
                            u.label,
                            s.board.name(u.hex),
                            self::movement::left(s, u)
                        )
                    }
                })
                .collect();
            format!(
                "Turn {}: move your counters, then end your movement. Able to move: {}.",
                s.turn,
                if mine.is_empty() {
                    "none".into()
                } else {
                    mine.join(", ")
                }
            )
        }
        Phase::Combat | Phase::Doomsday { .. } => combat_prompt(s),
        Phase::Lost { hex, .. } => format!(
            "A stack is Lost in Space at {}: choose the hex it shifts to.",
            s.board.name(*hex)
        ),
        Phase::Mines { hex, owner } => {
            let mines = mines::mines_left(s, *owner, *hex);
            let ships: Vec<String> = mines::targets(s, *hex)
                .iter()
                .map(|u| format!("{} ({} × {})", u.label, u.kind.name(), u.ships))
                .collect();
            format!(
                "Enemy ships entered your minefield at {}: {} must detonate, each destroying one ship you \
                 choose (text 13.1.4). Ships there: {}.",
                s.board.name(*hex),
                crate::shared::menu::counted(mines, "mine", "mines"),
                ships.join(", ")
            )
        }
        Phase::Economic => {
            let f = Forecast::of(s, seat);
            let lines = s.sheet.lines_of(seat).unwrap_or(&[]);
            let totals = economy::check(s, seat, lines).unwrap_or_default();
            let mut limits = String::new();
            if let Some(cap) = economy::grants_cap(s, seat) {
                limits.push_str(&format!(
                    " Research is bought in grants of {} CP, a die each (at most {cap} grants this phase).",
                    economy::GRANT_CP
                ));
            }
            if let Some(cap) = economy::research_cap(s, seat) {
                limits.push_str(&format!(" Research may cost at most {cap} CP this phase."));
            }
            let trade = if f.trade_income > 0 {
                format!(" + {} (pipelines)", f.trade_income)
            } else {
                String::new()
            };
            format!(
                "Economic Phase: income {} (colonies) + {} (minerals){trade} − maintenance {} → {} CP to spend \
                 ({} carried over). This sheet spends {}; at most {} carry over.{limits} Write your bid, \
                 research and purchases, then mark the sheet ready.",
                f.colony_income,
                f.mineral_income,
                f.maintenance,
                totals.available,
                f.carried,
                totals.spent,
                super::basics::CARRY_OVER_CAP
            )
        }
        Phase::First { .. } => "You won the bid: choose who plays first next round.".into(),
        Phase::Setup | Phase::Over => String::new(),
    }
}

// ---------------------------------------------------------------- legal orders

/// Every legal order of `seat` now, in a stable order (random play and
/// buttons are built from it). Scrapping is legal in the player's own turn
/// and on the sheet but not listed: nobody wants a button for it (typed,
/// it autocompletes: [`complete_scrap`]).
pub fn legal_actions(s: &State, seat: Seat) -> Vec<Action> {
    if s.outcome.is_some() {
        return Vec::new();
    }
    match s.phase {
        Phase::Movement if s.active_seat() == Some(seat) => movement_options(s, seat),
        Phase::Combat | Phase::Doomsday { .. } if combat_seat(s) == Some(seat) => combat_options(s, seat),
        Phase::Lost { shifter, hex } if shifter == seat => Dir::ALL
            .into_iter()
            .filter(|d| shift_target(s, hex, *d).is_ok())
            .map(|d| Action::Shift { dir: Some(d) })
            .collect(),
        Phase::First { chooser } if chooser == seat => s.playing().map(|player| Action::First { player }).collect(),
        Phase::Mines { owner, hex } if owner == seat => mines::targets(s, hex)
            .into_iter()
            .map(|u| Action::Detonate {
                at: label_text(u.label),
            })
            .collect(),
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

pub(super) fn label_text(l: Label) -> String {
    l.to_string()
}

/// What the seat does at a missed deadline.
pub fn default_action(s: &State, seat: Seat) -> Option<Action> {
    if s.outcome.is_some() {
        return None;
    }
    match s.phase {
        Phase::Movement if s.active_seat() == Some(seat) => Some(Action::End),
        Phase::Combat | Phase::Doomsday { .. } if combat_seat(s) == Some(seat) => Some(Action::Auto),
        Phase::Lost { shifter, .. } if shifter == seat => Some(Action::Shift { dir: None }),
        Phase::Mines { owner, hex } if owner == seat => mines::default_target(s, hex).map(|u| Action::Detonate {
            at: label_text(u.label),
        }),
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
    /// At any time in the player's own turn: their movement, or their
    /// combat when the game waits on them (`tow`, `deposit`: text 6.7.2).
    Turn,
    Combat,
    Sheet,
    /// `scrap` of a unit, without a sheet line: at any time in the
    /// player's own turn (movement, or their combat when the game waits on
    /// them), or on the sheet (text 7.3.2).
    TurnOrSheet,
    Lost,
    Mines,
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
            | Action::Peek { .. }
            | Action::Reveal { .. }
            | Action::Upgrade { .. }
            | Action::End => When::Movement,
            Action::Tow { .. } | Action::Deposit { .. } => When::Turn,
            Action::Scrap { line: None, .. } => When::TurnOrSheet,
            Action::Battle { .. }
            | Action::Screen { .. }
            | Action::Done
            | Action::Fire { .. }
            | Action::Retreat { .. }
            | Action::Hold { .. }
            | Action::Auto => When::Combat,
            Action::Shift { .. } => When::Lost,
            Action::Detonate { .. } => When::Mines,
            Action::Sheet(_) | Action::Scrap { line: Some(_), .. } => When::Sheet,
            Action::First { .. } => When::First,
            Action::Standing(_) => When::AnyTime,
        }
    }

    fn in_movement(self) -> bool {
        matches!(self, When::Movement | When::Turn | When::TurnOrSheet)
    }

    /// Also given in the player's own combat phase (their turn goes on).
    fn in_own_combat(self) -> bool {
        matches!(self, When::Turn | When::TurnOrSheet)
    }

    fn on_sheet(self) -> bool {
        matches!(self, When::Sheet | When::TurnOrSheet)
    }

    /// What the order is, in words, for "not now" answers.
    fn words(self) -> &'static str {
        match self {
            When::Movement => "a movement order",
            When::Turn => "an order of your own turn (movement or combat)",
            When::TurnOrSheet => "an order of your own turn (movement or combat) or a line of the economic sheet",
            When::Combat => "a combat order",
            When::Lost => "the Lost in Space order",
            When::Mines => "the order of a minefield's owner",
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
        // In movement, `battle at:` orders cloaked Raiders to attack.
        (Phase::Movement, Action::Battle { at }) if s.active_seat() == Some(seat) => {
            mine(hex(s, at).and_then(|h| movement::ambush(s, seat, h)))?
        }
        (Phase::Movement, _) if when.in_movement() => {
            if s.active_seat() != Some(seat) {
                return Err(not_yours(s, seat));
            }
            mine(movement_order(s, seat, action))?
        }
        (Phase::Combat, _) if when.in_own_combat() => {
            if combat_seat(s) != Some(seat) {
                return Err(not_yours(s, seat));
            }
            if s.active_seat() != Some(seat) {
                return Err(illegal(
                    s,
                    seat,
                    format!(
                        "`{}` is given in your own turn; this combat is the attacker's",
                        super::orders::unparse(action).name
                    ),
                ));
            }
            mine(turn_order_in_combat(s, seat, action))?
        }
        (Phase::Combat | Phase::Doomsday { .. }, _) if when == When::Combat => {
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
        (Phase::Mines { owner, hex }, Action::Detonate { at }) => {
            if *owner != seat {
                return Err(not_yours(s, seat));
            }
            let target = Label::parse(at, s.active_seat().unwrap_or(seat))
                .and_then(|l| mines::targets(s, *hex).into_iter().find(|u| u.label == l))
                .ok_or_else(|| {
                    illegal(
                        s,
                        seat,
                        format!(
                            "{at} is not one of the enemy counters in your minefield at {}",
                            s.board.name(*hex)
                        ),
                    )
                })?;
            mines::detonate(s, seat, *hex, target).into_iter().collect()
        }
        (Phase::First { chooser }, Action::First { player }) => {
            if *chooser != seat {
                return Err(not_yours(s, seat));
            }
            if player.index() >= s.players as usize {
                return Err(illegal(s, seat, format!("there is no player {}", player.0 + 1)));
            }
            if s.empire(*player).resigned {
                return Err(illegal(
                    s,
                    seat,
                    "that player resigned: choose a player still in the game",
                ));
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

/// Hexes where `seat`'s combat phase has battles (its units with another
/// player's units or armed installations) or colony fire (its armed ships
/// with an enemy colony), in hex-name order. Where its only units are
/// cloaked Raiders, only if it ordered them to attack (advanced rule
/// 12.1.2: they "may occupy a hex and not trigger combat").
pub fn combat_hexes(s: &State, seat: Seat) -> Vec<Hex> {
    let mut out: Vec<Hex> = s
        .units_of(seat)
        .map(|u| u.hex)
        .filter(|h| {
            !s.enemies_at(seat, *h).is_empty()
                || !s.aliens_at(*h).is_empty()
                || s.machine_at(*h).is_some()
                || (s.colony(*h).is_some_and(|c| !s.allied(c.owner, seat))
                    && s.units_at(*h).any(|u| u.owner() == seat && u.armed()))
        })
        .filter(|h| s.ambush.contains(h) || !lurking(s, seat, *h))
        .collect();
    out.sort_by_key(|h| Board::name_key(*h));
    out.dedup();
    out
}

/// Whether `seat`'s units at `h` are all Raiders cloaked against every
/// other player there (advanced rule 12.1): they fight only if ordered to.
pub fn lurking(s: &State, seat: Seat, h: Hex) -> bool {
    let mine: Vec<Label> = s.units_at(h).filter(|u| u.owner() == seat).map(|u| u.label).collect();
    movement::unseen(s, seat, &mine, h)
}

// ---------------------------------------------------------------- the flow

/// Carry the game on by itself until someone owes a decision a person
/// makes (or the game is over).
pub fn advance(s: &mut State, out: &mut Vec<Event>) {
    for _ in 0..100_000 {
        if s.outcome.is_some() {
            return;
        }
        if let Some(e) = doomsday::solitaire_over(s) {
            push(s, out, e);
            return;
        }
        let step: Vec<Event> = match s.phase {
            Phase::Combat => combat_step(s),
            Phase::Mines { owner, hex } => mines_step(s, owner, hex),
            Phase::Doomsday { number, .. } => doomsday::step(s, number),
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

/// A minefield carried on: a mine that detonates with no choice left to its
/// owner (or by its standing orders), or, once the mines are done, the
/// battle at the hex.
fn mines_step(s: &State, owner: Seat, hex: Hex) -> Vec<Event> {
    if mines::done(s, owner, hex) {
        let mut scratch = s.clone();
        let mut out = Vec::new();
        push(&mut scratch, &mut out, Event::MinefieldCleared { at: hex });
        out.extend(self::combat::start_at(&scratch, hex));
        return out;
    }
    mines::automatic(s, owner, hex, s.empire(owner).standing.auto)
        .into_iter()
        .collect()
}

/// The end of the active player's turn: the next player's movement, or the
/// end of the turn (upgrades), then the next turn or the Economic Phase.
fn end_player_turn(s: &State, seat: Seat) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    push(&mut scratch, &mut out, Event::PlayerTurnEnded { seat });
    let next = scratch.active + 1;
    next_player(&mut scratch, &mut out, next);
    out
}

/// After a player's turn: the movement of the player at `next` in the
/// order, or, past the last, the end of the turn (upgrades), then the next
/// turn or the Economic Phase.
fn next_player(scratch: &mut State, out: &mut Vec<Event>, next: usize) {
    if let Some(&seat) = scratch.order.get(next) {
        let e = movement_began(scratch, seat);
        push(scratch, out, e);
        return;
    }
    // After every player has moved, the Doomsday Machines move and attack
    // (optional rule 17.3).
    if let Some(e) = doomsday::first_move(scratch) {
        push(scratch, out, e);
        return;
    }
    end_turn(scratch, out);
}

/// The end of a turn: upgrades take effect (text 9.10.4), then the next
/// turn or the Economic Phase.
fn end_turn(scratch: &mut State, out: &mut Vec<Event>) {
    let (mut done, mut lost) = (Vec::new(), Vec::new());
    for u in scratch.units.iter().filter(|u| u.upgrading) {
        let at_yard = scratch
            .colony(u.hex)
            .is_some_and(|c| c.owner == u.owner() && c.yards > 0);
        if at_yard && u.moved == 0 {
            done.push((u.label, u.upgraded(scratch.empire(u.owner()).levels)));
        } else {
            lost.push(u.label);
        }
    }
    if !done.is_empty() || !lost.is_empty() {
        push(scratch, out, Event::UpgradesEnded { done, lost });
    }
    if scratch.turn < 3 {
        let turn = scratch.turn + 1;
        push(scratch, out, Event::TurnBegan { turn });
        let first = scratch.order[0];
        let e = movement_began(scratch, first);
        push(scratch, out, e);
    } else {
        let e = economic_began(scratch);
        push(scratch, out, e);
    }
}

/// `seat` resigns (rules page, *Resigning*): its empire leaves the game.
/// In its own turn the turn passes on; a battle it defends ends, the
/// attacker holding the hex; the game ends at once when one player is
/// left.
pub fn resign(s: &State, seat: Seat) -> Result<Vec<Event>, Rejection> {
    if s.outcome.is_some() {
        return Err(Rejection::GameOver);
    }
    if seat.index() >= s.players as usize || s.phase == Phase::Setup {
        return Err(Rejection::illegal("that seat is not playing in this game", Vec::new()));
    }
    if s.empire(seat).resigned {
        return Err(Rejection::illegal("that player has already resigned", Vec::new()));
    }
    let mut scratch = s.clone();
    let mut out = Vec::new();
    // Its own turn (not a Doomsday Machine's attack on its ships, after the
    // players' turns).
    let active = s.active_seat() == Some(seat) && !matches!(s.phase, Phase::Doomsday { .. });
    if active {
        push(&mut scratch, &mut out, Event::PlayerTurnEnded { seat });
    }
    let defended = s.battle.as_ref().filter(|_| s.defender == Some(seat)).map(|b| b.hex());
    push(&mut scratch, &mut out, Event::Resigned { seat });
    if let Some(at) = defended {
        let winner = scratch.active_seat().unwrap_or(seat);
        push(
            &mut scratch,
            &mut out,
            Event::BattleEnded {
                at,
                winner,
                lost: Vec::new(),
                aliens: false,
                machine: None,
            },
        );
    }
    let left: Vec<Seat> = scratch.playing().collect();
    if left.is_empty() {
        // Solitaire: the one player gave up.
        let scores = scratch.seats().map(|x| (x, scratch.score(x))).collect();
        push(
            &mut scratch,
            &mut out,
            Event::GameEnded {
                outcome: Outcome::AllLose {
                    reason: "the player resigned".into(),
                },
                scores,
            },
        );
        return Ok(out);
    }
    if scratch.options.teams && left.len() > 1 && left.iter().all(|x| scratch.allied(*x, left[0])) {
        let scores = scratch.seats().map(|x| (x, scratch.score(x))).collect();
        push(
            &mut scratch,
            &mut out,
            Event::GameEnded {
                outcome: Outcome::Shared {
                    seats: left,
                    reason: "the other team resigned".into(),
                },
                scores,
            },
        );
        return Ok(out);
    }
    if let [last] = left[..] {
        let scores = scratch.seats().map(|x| (x, scratch.score(x))).collect();
        push(
            &mut scratch,
            &mut out,
            Event::GameEnded {
                outcome: Outcome::Winner {
                    seat: last,
                    reason: "the other players resigned".into(),
                },
                scores,
            },
        );
        return Ok(out);
    }
    if active {
        let next = scratch.active;
        next_player(&mut scratch, &mut out, next);
    }
    advance(&mut scratch, &mut out);
    Ok(out)
}

/// A player's movement phase begins: revealed groups at their colonies hide
/// (unless the player's standing orders keep them revealed: text 5.11 says
/// they "may be flipped") and the face-down counters in those hexes draw
/// new labels.
fn movement_began(s: &State, seat: Seat) -> Event {
    let colonies = s.colony_hexes(seat);
    let hide = s.empire(seat).standing.revealed == RevealedRule::Hide;
    let hidden: Vec<Label> = s
        .units_of(seat)
        .filter(|u| hide && u.face_up && !u.kind.always_face_up() && colonies.contains(&u.hex))
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
            .filter(|u| u.owner() == seat && !u.kind.always_face_up())
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

/// The round limit: the highest score wins (ties: colony income, then CP);
/// in team play the team with the higher combined score, income and CP of
/// its players still in the game.
fn game_over_on_score(s: &State) -> Event {
    let scores: Vec<(Seat, u32)> = s.seats().map(|seat| (seat, s.score(seat))).collect();
    if s.solitaire() {
        return doomsday::solitaire_lost(s, format!("round {} ended with Doomsday Machines left", s.round));
    }
    // A side's score, colony income and CP: its players' still in the game
    // (a side is one player, or a team).
    let key = |seat: Seat| {
        s.side_of(seat)
            .into_iter()
            .filter(|x| !s.empire(*x).resigned)
            .map(|x| {
                let income: u32 = s.colonies_of(x).map(|c| c.worth.cp()).sum();
                (s.score(x), income, s.empire(x).cp)
            })
            .fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    };
    // A player who resigned cannot win.
    let best = s.playing().map(key).max().unwrap_or_default();
    let winners: Vec<Seat> = s.playing().filter(|x| key(*x) == best).collect();
    let what = if s.options.teams { "team score" } else { "score" };
    let reason = format!("the highest {what} after round {}", s.round);
    let outcome = match winners.as_slice() {
        [one] if !s.options.teams => Outcome::Winner { seat: *one, reason },
        _ => Outcome::Shared { seats: winners, reason },
    };
    Event::GameEnded { outcome, scores }
}

/// The bid's winner chose the first player: the next round begins.
fn next_round(s: &State, first: Seat) -> Vec<Event> {
    let mut scratch = s.clone();
    let mut out = Vec::new();
    let order: Vec<Seat> = rotation(s.players, first)
        .into_iter()
        .filter(|x| !s.empire(*x).resigned)
        .collect();
    push(
        &mut scratch,
        &mut out,
        Event::RoundBegan {
            round: s.round + 1,
            order,
        },
    );
    push(&mut scratch, &mut out, Event::TurnBegan { turn: 1 });
    // Solitaire: a Doomsday Machine may arrive (rules page, *Solitaire*).
    if let Some(e) = doomsday::arrival(&scratch) {
        push(&mut scratch, &mut out, e);
    }
    let e = movement_began(&scratch, first);
    push(&mut scratch, &mut out, e);
    out
}
