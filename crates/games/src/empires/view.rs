//! What one viewer may see (rules page, *What each player knows*), each
//! event in words as that viewer may learn it, prompts, and where the game
//! is.
//!
//! Public: the map, marker backs, revealed markers, colonies with their
//! yards and bases (not those built face down since combat last occurred
//! there, text 7.6.2), every counter's label and hex and whether it is face
//! up, what face-up counters hold, Colony Ships and Miners (always face
//! up) and what they tow, battles, the player order, who is ready, bids
//! once revealed. A seat also sees what is under its own counters, its CP,
//! levels, sheet, standing orders, peeks and wreck rolls. Nobody sees
//! face-down markers or the RNG. At the end everything is shown.

use super::basics::ships_word;
use super::basics::{Kind, Label, Levels, Marker, Tech, Worth, COUNTERS_PER_TYPE};
use super::events::{Doom, Event, Ledger};
use super::map::Board;
use super::rules::economy::{self, Forecast};
use super::state::battle::{Battle, Standing};
use super::state::{Colony, Line, Machine, Phase, State, Unit};
use crate::shared::menu::and_list;
use orrery_engine::{Hex, Outcome, PhaseInfo, Seat, Viewer};
use serde::Serialize;

/// A hex's System marker as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpotView {
    pub hex: Hex,
    /// Whose home system's back it shows; `None`: deep space.
    pub home: Option<Seat>,
    /// The front, once turned face up.
    pub marker: Option<Marker>,
    /// The front the viewer looked at (a peek), while it is face down.
    pub peeked: Option<Marker>,
    /// The alien ships on it (advanced rule 14): each one's type, `None`
    /// while they are face down.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliens: Vec<Option<Kind>>,
}

/// A counter as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterView {
    pub label: Label,
    pub hex: Hex,
    pub face_up: bool,
    /// What it is, when the viewer may know: its owner, or face up.
    pub kind: Option<Kind>,
    pub ships: Option<u32>,
    pub levels: Option<Levels>,
    pub tow: Option<Marker>,
    /// Hexes moved this turn (movement is public).
    pub moved: u32,
    /// The Move level others have seen it use.
    pub move_shown: Option<u32>,
    /// Being upgraded (its owner only).
    pub upgrading: bool,
}

/// A player as everybody sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub homeworld: Option<u32>,
    pub colonies: usize,
    pub colony_cp: u32,
    pub counters: usize,
    /// The highest levels shown so far on the map (face-up groups, Move
    /// levels seen), per category: attack, defense, tactics, move.
    pub shown: [u32; 4],
    pub last_bid: Option<u32>,
    /// Owes an economic sheet: whether it is ready.
    pub ready: Option<bool>,
    /// Resigned: out of the game. (Left out when false, so views recorded
    /// before resigning existed still match.)
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

/// What only the viewing seat knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Own {
    pub seat: Seat,
    pub cp: u32,
    pub levels: Levels,
    pub standing: Standing,
    pub colony_income: u32,
    pub mineral_income: u32,
    /// Colonies joined to the homeworld by MS Pipelines (rule 10.1.2);
    /// left out at 0, so a game without pipelines shows what it did.
    #[serde(skip_serializing_if = "is_zero")]
    pub trade_income: u32,
    pub maintenance: u32,
    /// Its economic sheet while it owes one, and what it spends.
    pub sheet: Vec<Line>,
    pub spent: u32,
    pub available: u32,
    pub wrecks: Vec<(u32, Tech)>,
    /// Yard hexes and the hull points they build this phase.
    pub yards: Vec<(Hex, u32)>,
    /// Free counters per warship type and decoys.
    pub free: Vec<(Kind, usize)>,
    /// Research gearing: the most CP research may cost this phase (text 18).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub research_cap: Option<u32>,
    /// Unpredictable research: the most grants this phase (text 19.3) …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grants_cap: Option<u32>,
    /// … and the dice rolled so far towards each category's next level.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub progress: Vec<(Tech, u32)>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub viewer: Viewer,
    pub board: Board,
    pub round: u32,
    pub rounds: u32,
    pub turn: u8,
    pub phase: String,
    pub economic: bool,
    pub order: Vec<Seat>,
    pub active: Option<Seat>,
    pub players: Vec<PlayerView>,
    pub spots: Vec<SpotView>,
    pub colonies: Vec<Colony>,
    pub counters: Vec<CounterView>,
    pub battle: Option<Battle>,
    /// The Doomsday Machines on the map (optional rule 17; public).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<Machine>,
    /// How many Doomsday Machines the game has (0: none), and how many are
    /// destroyed.
    #[serde(skip_serializing_if = "is_zero")]
    pub machines_in_game: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub machines_destroyed: u32,
    pub own: Option<Own>,
    pub outcome: Option<Outcome>,
    /// Every score, once the game is over.
    pub scores: Vec<(Seat, u32)>,
}

/// Whether `after` shows its viewer anything `before` did not, beyond
/// where the game is: the round, turn and section, whose move it is, the
/// player order, and the movement counted in a turn (which every new turn
/// clears). Nothing is news to a player who resigned: their empire is out
/// of the game, and its board is the public one.
pub fn news(before: &View, after: &View) -> bool {
    let me = after.viewer.seat().and_then(|m| after.players.get(m.index()));
    if me.is_some_and(|p| p.resigned) {
        return false;
    }
    let mut was = before.clone();
    was.round = after.round;
    was.turn = after.turn;
    was.phase.clone_from(&after.phase);
    was.economic = after.economic;
    was.order.clone_from(&after.order);
    was.active = after.active;
    for c in &mut was.counters {
        if let Some(now) = after.counters.iter().find(|a| a.label == c.label) {
            c.moved = now.moved;
            c.move_shown = now.move_shown;
        }
    }
    was != *after
}

pub fn view(s: &State, viewer: Viewer) -> View {
    let over = s.outcome.is_some();
    // A player who resigned sees what everybody sees.
    let me = viewer
        .seat()
        .filter(|m| s.empires.get(m.index()).is_some_and(|e| !e.resigned));
    // Teammates see each other's counters (rules page, *Teams*).
    let sees = |owner: Seat| over || me == Some(owner);
    let sees_counter = |owner: Seat| over || me.is_some_and(|m| s.allied(m, owner));
    let spots = s
        .spots
        .iter()
        .map(|p| SpotView {
            hex: p.hex,
            home: p.home,
            marker: (p.face_up || over).then_some(p.marker),
            peeked: me
                .filter(|m| !p.face_up && s.empire(*m).peeked.contains(&p.hex))
                .map(|_| p.marker),
            aliens: p
                .aliens
                .iter()
                .map(|k| (!p.aliens_hidden || over).then_some(*k))
                .collect(),
        })
        .collect();
    // Raiders cloaked against the viewer are not on its board (advanced
    // rule 12.1).
    let unseen = |u: &Unit| !sees_counter(u.owner()) && s.hidden_from(u, me);
    let counters = s
        .units
        .iter()
        .filter(|u| !unseen(u))
        .map(|u| {
            let known = sees_counter(u.owner()) || u.face_up;
            CounterView {
                label: u.label,
                hex: u.hex,
                face_up: u.face_up,
                kind: known.then_some(u.kind),
                ships: known.then_some(u.ships),
                levels: known.then_some(u.levels),
                tow: u.tow,
                moved: u.moved,
                move_shown: u.move_shown,
                upgrading: sees(u.owner()) && u.upgrading,
            }
        })
        .collect();
    let players = s
        .seats()
        .map(|seat| {
            let mut shown = [0; 4];
            for u in s.units_of(seat) {
                if u.face_up && u.kind.is_warship() {
                    shown[0] = shown[0].max(u.levels.attack);
                    shown[1] = shown[1].max(u.levels.defense);
                    shown[2] = shown[2].max(u.levels.tactics);
                    shown[3] = shown[3].max(u.levels.moves);
                }
                if let Some(m) = u.move_shown {
                    shown[3] = shown[3].max(m);
                }
            }
            PlayerView {
                seat,
                homeworld: s.colonies_of(seat).find(|c| c.is_home()).map(|c| c.worth.cp()),
                colonies: s.colonies_of(seat).filter(|c| !c.is_home()).count(),
                colony_cp: s.colonies_of(seat).map(|c| c.worth.cp()).sum(),
                counters: s.units_of(seat).filter(|u| !unseen(u)).count(),
                shown,
                last_bid: s.empire(seat).last_bid,
                ready: (s.phase == Phase::Economic && s.sheet.owes(seat)).then(|| s.sheet.is_ready(seat)),
                resigned: s.empire(seat).resigned,
            }
        })
        .collect();
    let own = me.filter(|m| m.index() < s.empires.len()).map(|seat| own(s, seat));
    View {
        viewer,
        board: s.board.clone(),
        round: s.round,
        rounds: s.options.rounds,
        turn: s.turn,
        phase: phase(s).label,
        economic: matches!(s.phase, Phase::Economic | Phase::First { .. }),
        order: s.order.clone(),
        active: s.active_seat(),
        players,
        spots,
        colonies: s
            .colonies
            .iter()
            .map(|c| if sees(c.owner) { c.clone() } else { c.as_seen() })
            .collect(),
        counters,
        battle: s.battle.as_deref().cloned(),
        machines: s.machines.clone(),
        machines_in_game: s.options.doomsday,
        machines_destroyed: s.machines_destroyed,
        own,
        outcome: s.outcome.clone(),
        scores: if over {
            s.seats().map(|seat| (seat, s.score(seat))).collect()
        } else {
            Vec::new()
        },
    }
}

fn own(s: &State, seat: Seat) -> Own {
    let e = s.empire(seat);
    let f = Forecast::of(s, seat);
    let sheet: Vec<Line> = s.sheet.lines_of(seat).unwrap_or(&[]).to_vec();
    let totals = economy::check(s, seat, &sheet).unwrap_or_default();
    Own {
        seat,
        cp: e.cp,
        levels: e.levels,
        standing: e.standing,
        colony_income: f.colony_income,
        mineral_income: f.mineral_income,
        trade_income: f.trade_income,
        maintenance: f.maintenance,
        available: if s.phase == Phase::Economic {
            totals.available
        } else {
            f.available(0)
        },
        spent: totals.spent,
        sheet,
        wrecks: e.wrecks.clone(),
        yards: s
            .colonies_of(seat)
            .filter(|c| c.yards > 0)
            .map(|c| (c.hex, economy::capacity_at(s, seat, c.hex, e.levels.yard)))
            .collect(),
        free: Kind::WARSHIPS
            .into_iter()
            .chain([Kind::Decoy])
            .chain(s.options.raiders.then_some(Kind::Raider))
            .map(|k| (k, COUNTERS_PER_TYPE.saturating_sub(s.counters_of(seat, k))))
            .collect(),
        research_cap: economy::research_cap(s, seat),
        grants_cap: economy::grants_cap(s, seat),
        progress: e.progress.clone(),
    }
}

// ---------------------------------------------------------------- words

/// Whether an event kept from `hidden_from` (the seats cloaked Raiders
/// were unseen by) is kept from `viewer`: from those seats, and from the
/// public when kept from anyone.
fn viewer_kept(viewer: Viewer, hidden_from: &[Seat]) -> bool {
    match viewer.seat() {
        Some(seat) => hidden_from.contains(&seat),
        None => !hidden_from.is_empty(),
    }
}

/// A seat's name (its number when `names` lacks it).
pub(super) fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

fn labels(ls: &[Label]) -> String {
    and_list(&ls.iter().map(Label::to_string).collect::<Vec<_>>())
}

/// Colony worth in words, for prompts and narration.
pub fn worth_words(w: Worth) -> String {
    match w {
        Worth::New => "a new colony".into(),
        Worth::Colony(v) => format!("a colony of {v}"),
        Worth::Home(v) => format!("a homeworld of {v}"),
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

pub fn phase(s: &State) -> PhaseInfo {
    let head = format!("Round {} · Turn {}", s.round, s.turn);
    let (label, turn) = match &s.phase {
        Phase::Setup => ("Set-up".to_string(), None),
        Phase::Movement => (format!("{head} · movement"), s.active_seat()),
        Phase::Combat => {
            let at = match (&s.battle, s.fighting) {
                (Some(b), _) => format!(" at {}, firing round {}", s.board.name(b.hex()), b.round().max(1)),
                (None, Some(h)) => format!(" at {} (colony fire)", s.board.name(h)),
                _ => String::new(),
            };
            (format!("{head} · combat{at}"), s.active_seat())
        }
        Phase::Lost { hex, .. } => (
            format!("{head} · Lost in Space at {}", s.board.name(*hex)),
            s.active_seat(),
        ),
        Phase::Mines { hex, .. } => (format!("{head} · minefield at {}", s.board.name(*hex)), s.active_seat()),
        Phase::Doomsday { number, .. } => {
            let at = s
                .machine(*number)
                .map(|m| format!(" at {}", s.board.name(m.hex)))
                .unwrap_or_default();
            (format!("{head} · Doomsday Machine {number}{at}"), s.active_seat())
        }
        Phase::Economic => (format!("Round {} · Economic Phase", s.round), None),
        Phase::First { chooser } => (format!("Round {} · player order", s.round), Some(*chooser)),
        Phase::Over => ("Game over".into(), None),
    };
    PhaseInfo {
        number: s.boundaries,
        label,
        turn,
    }
}

/// The seat's economic sheet, one line each in words.
pub fn sheet_lines(s: &State, seat: Seat) -> Vec<String> {
    s.sheet
        .lines_of(seat)
        .unwrap_or(&[])
        .iter()
        .map(|l| line_text(&s.board, l))
        .collect()
}

pub fn line_text(b: &Board, l: &Line) -> String {
    match l {
        Line::Bid { cp } => format!("bid {cp} CP"),
        Line::Research { tech } => format!("research {}", tech.name()),
        Line::Grants { tech, grants } => format!(
            "{grants} research grant{} towards {}",
            if *grants == 1 { "" } else { "s" },
            tech.name()
        ),
        Line::Buy {
            kind,
            at,
            ships,
            into: None,
        } => format!("buy {ships} × {} at {}", kind.name(), b.name(*at)),
        Line::Buy {
            kind,
            at,
            ships,
            into: Some(g),
        } => format!("buy {ships} × {} at {} into {g}", kind.name(), b.name(*at)),
        Line::Scrap { unit } => format!("scrap {unit}"),
        Line::ScrapAt { at, what } => format!("scrap the {} at {}", what.name(), b.name(*at)),
    }
}

/// The event as `viewer` may learn of it. Hexes are named on the map of
/// the game's player count, which is the number of `names` (the platform
/// passes every seat's name).
pub fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let board = Board::new(names.len().clamp(2, 4) as u8)?;
    let b = &board;
    let me = |seat: Seat| viewer.seat() == Some(seat);
    let n = |seat: Seat| name(names, seat);
    Some(match event {
        Event::SetUp { players: 1, options, .. } => format!(
            "Space Empires 4X begins: solitaire against {} Doomsday Machines, at most {} rounds. \
             Destroy them all before the round limit; lose your homeworld and you lose (rules page, Solitaire).",
            options.doomsday, options.rounds
        ),
        Event::SetUp {
            players,
            options,
            order,
            ..
        } => format!(
            "Space Empires 4X begins: {players} players, at most {} rounds. Player order: {}.",
            options.rounds,
            and_list(&order.iter().map(|s| n(*s)).collect::<Vec<_>>())
        ),
        Event::RoundBegan { round, order } => format!(
            "Round {round}. Player order: {}.",
            and_list(&order.iter().map(|s| n(*s)).collect::<Vec<_>>())
        ),
        Event::TurnBegan { turn } => format!("Turn {turn}."),
        Event::MovementBegan {
            seat,
            hidden,
            relabelled,
            ..
        } => {
            let mut t = format!("{}'s movement.", n(*seat));
            if !hidden.is_empty() {
                t.push_str(&format!(" {} turned face down again at their colonies", labels(hidden)));
                if me(*seat) {
                    let pairs: Vec<String> = relabelled.iter().map(|(a, b)| format!("{a} → {b}")).collect();
                    t.push_str(&format!(" (new labels: {})", pairs.join(", ")));
                } else {
                    t.push_str(" and the counters there drew new labels");
                }
                t.push('.');
            }
            t
        }
        Event::MinesSwept { at, swept } => format!(
            "Minesweepers at {} removed {}.",
            b.name(*at),
            crate::shared::menu::counted(swept.iter().map(|(_, n)| *n).sum::<u32>(), "mine", "mines")
        ),
        Event::MinefieldEntered { at, owner } => format!(
            "{} is a minefield of {}'s: the mines detonate, and {} chooses the ship each destroys.",
            b.name(*at),
            n(*owner),
            n(*owner)
        ),
        Event::MineDetonated {
            at,
            mine,
            target,
            kind,
            lost,
        } => {
            let mut t = format!(
                "A mine of {mine} detonated at {}, destroying a {} of {target}.",
                b.name(*at),
                kind.name()
            );
            if !lost.is_empty() {
                let parts: Vec<String> = lost.iter().map(|(l, n)| format!("{} of {l}", ships_word(*n))).collect();
                t.push_str(&format!(
                    " Fighter Squadrons with no Carrier left to hold them are lost: {}.",
                    parts.join(", ")
                ));
            }
            t
        }
        Event::PipelinesHeld { pipelines } => format!(
            "A unit took the extra hex of a chain of MS Pipelines: {} may not move this turn.",
            labels(pipelines)
        ),
        Event::Moved { hidden_from, .. } if viewer_kept(viewer, hidden_from) => return None,
        Event::AmbushOrdered { seat, at } => {
            if !me(*seat) {
                return None;
            }
            format!("Your cloaked Raiders at {} will attack in your combat phase.", b.name(*at))
        }
        Event::Moved {
            units,
            path,
            stopped,
            shown,
            ..
        } => {
            let mut t = format!("{} moved to {}", labels(units), b.list(path));
            if *stopped {
                t.push_str(" and stopped");
            }
            t.push('.');
            for (l, level) in shown {
                t.push_str(&format!(" {l} moves at Move {level}."));
            }
            t
        }
        Event::Destroyed { hidden_from, .. } if viewer_kept(viewer, hidden_from) => return None,
        Event::Destroyed {
            at, units, kinds, why, ..
        } => {
            let owner = units.first().map(|l| l.owner);
            // An overrun shows what was destroyed (text 4.3, 8.3.2); what
            // Danger! or a scrap took is told to its owner only.
            let told = match why {
                Doom::Overrun | Doom::BattleLost => true,
                Doom::Danger | Doom::Scrapped => owner.is_some_and(me),
            };
            let what: Vec<String> = units
                .iter()
                .zip(kinds)
                .map(|(l, k)| {
                    if told {
                        format!("{l} ({})", k.name())
                    } else {
                        l.to_string()
                    }
                })
                .collect();
            let why = match why {
                Doom::Overrun => "overrun",
                Doom::Danger => "Danger!",
                Doom::Scrapped => "scrapped",
                Doom::BattleLost => "lost with the battle",
            };
            format!("At {}: {} destroyed ({why}).", b.name(*at), and_list(&what))
        }
        Event::BlackHoleRolled {
            at, rolls, slingshot, ..
        } => {
            let parts: Vec<String> = rolls
                .iter()
                .map(|(l, d)| {
                    let lost = super::rules::movement::black_hole_losses(d, *slingshot);
                    format!(
                        "{l} rolls {} ({} lost)",
                        d.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
                        lost
                    )
                })
                .collect();
            if *slingshot {
                format!(
                    "Sling shot round the Black Hole at {} (5-10 destroys a ship; survivors may move one hex more): {}.",
                    b.name(*at),
                    parts.join("; ")
                )
            } else {
                format!(
                    "The Black Hole at {} (7-10 destroys a ship): {}.",
                    b.name(*at),
                    parts.join("; ")
                )
            }
        }
        Event::Split { hidden_from, .. } | Event::Merged { hidden_from, .. } if viewer_kept(viewer, hidden_from) => {
            return None
        }
        Event::Split { from, new, ships, .. } => {
            if me(from.owner) {
                format!("{} of {from} split off as {new}.", ships_word(*ships))
            } else {
                format!("{from} split: a new counter {new}.")
            }
        }
        Event::Merged { from, into, .. } => format!("{from} merged into {into}."),
        Event::Colonized { unit, at, .. } => format!("{} colonized {} ({unit}).", n(unit.owner), b.name(*at)),
        Event::ColonizeQueued { unit, at } => {
            format!(
                "{unit} will colonize {} at the end of combat if the hex is won.",
                b.name(*at)
            )
        }
        Event::ColonizeDropped { unit, at } => format!("{unit} could not colonize {}.", b.name(*at)),
        Event::Towed { miner, at, marker } => format!("{miner} took the {} of {} in tow.", marker.name(), b.name(*at)),
        Event::Deposited { miner, at, marker } => {
            format!("{miner} left its {} at the colony of {}.", marker.name(), b.name(*at))
        }
        Event::Peeked { seat, unit, at, marker } => {
            if me(*seat) {
                format!("{unit} looked at {}: {}.", b.name(*at), marker.name())
            } else {
                format!("{} looked at the marker of {}.", n(*seat), b.name(*at))
            }
        }
        Event::UpgradeOrdered { unit, cost } if me(unit.owner) => {
            format!("{unit} is being upgraded ({cost} CP); it may not move this turn.")
        }
        Event::UpgradesEnded { done, lost } => {
            let mine_done: Vec<Label> = done.iter().map(|(l, _)| *l).filter(|l| me(l.owner)).collect();
            let mine_lost: Vec<Label> = lost.iter().copied().filter(|l| me(l.owner)).collect();
            if mine_done.is_empty() && mine_lost.is_empty() {
                return None;
            }
            let mut t = String::new();
            if !mine_done.is_empty() {
                t.push_str(&format!("Upgraded: {}.", labels(&mine_done)));
            }
            if !mine_lost.is_empty() {
                t.push_str(&format!(" Upgrades lost (moved or no yard): {}.", labels(&mine_lost)));
            }
            t.trim().to_string()
        }
        Event::InstallationScrapped { at, what, secret_of } => match secret_of {
            Some(owner) if !me(*owner) => return None,
            Some(_) => format!(
                "The {} at {} was scrapped (it was still face down; nobody else learns of it).",
                what.name(),
                b.name(*at)
            ),
            None => format!("The {} at {} was scrapped.", what.name(), b.name(*at)),
        },
        Event::MovementEnded { seat } => format!("{} ends their movement.", n(*seat)),
        Event::CombatBegan { seat, hexes } => {
            if hexes.is_empty() {
                return None;
            }
            format!("{}'s combat: {}.", n(*seat), b.list(hexes))
        }
        Event::BattleBegan {
            at,
            defender,
            decoys,
            battle,
        } => {
            let machine = battle.fighters().iter().find_map(|f| match f.id {
                super::state::battle::Target::Machine(n) => Some(n),
                _ => None,
            });
            let mut t = if let (Some(m), true) = (machine, battle.aliens()) {
                format!("Doomsday Machine {m} attacks the aliens at {} (rule 17.3).", b.name(*at))
            } else if let Some(m) = machine {
                format!(
                    "Battle at {} against Doomsday Machine {m}: {}'s units fight it (no screening, no fleet-size \
                     bonus; its two attacks a round pick their targets at random; rule 17.2).",
                    b.name(*at),
                    n(*defender)
                )
            } else if battle.aliens() {
                format!(
                    "Battle at {} against the aliens; {} chooses their targets (rule 14.2).",
                    b.name(*at),
                    n(*defender)
                )
            } else {
                format!("Battle at {} against {}.", b.name(*at), n(*defender))
            };
            if !decoys.is_empty() {
                t.push_str(&format!(" Decoys removed: {}.", labels(decoys)));
            }
            let lines: Vec<String> = battle
                .fighters()
                .iter()
                .map(|f| {
                    if f.is_machine() {
                        return format!(
                            "Doomsday Machine {} (class C, attack 9, defence 2, hull 3, two attacks a round{})",
                            machine.unwrap_or(0),
                            if f.damage > 0 {
                                format!(", {} hit{} taken", f.damage, if f.damage == 1 { "" } else { "s" })
                            } else {
                                String::new()
                            }
                        );
                    }
                    format!(
                        "{} {} ({} ship{}; attack +{}, defence +{}, tactics {})",
                        f.kind.name(),
                        f.id,
                        f.ships,
                        if f.ships == 1 { "" } else { "s" },
                        f.attack_tech,
                        f.defense_tech,
                        f.tactics
                    )
                })
                .collect();
            t.push_str(&format!(" Revealed: {}.", lines.join("; ")));
            t
        }
        Event::ScreenNoted { target, ships } if me(self_owner(target)) => {
            format!("Noted: screen {} of {target}.", ships_word(*ships))
        }
        Event::Fought { said, .. } | Event::Retreated { said, .. } | Event::DamagedSplit { said, .. } => {
            if said.is_empty() {
                return None;
            }
            said.clone()
        }
        Event::AliensFound { at, aliens, hidden, .. } => {
            let what = if *hidden {
                format!("{} alien ships, face down", aliens.len())
            } else {
                let kinds: Vec<&str> = aliens.iter().map(|k| k.name()).collect();
                format!("{} alien ships ({})", aliens.len(), kinds.join(", "))
            };
            format!(
                "Aliens on the Barren Planet at {}: {what}. They fight every ship that enters (rule 14).",
                b.name(*at)
            )
        }
        Event::BattleEnded {
            at,
            machine: Some(m),
            lost,
            ..
        } => {
            let mut t = format!("The battle at {} is over: Doomsday Machine {m} holds the hex.", b.name(*at));
            if !lost.is_empty() {
                t.push_str(&format!(" Destroyed with their side: {}.", labels(lost)));
            }
            t
        }
        Event::MachineFound { number, at, arrived } => {
            if *arrived {
                format!(
                    "Doomsday Machine {number} arrives at {}. It moves after every turn, attacks every ship it \
                     meets and destroys planets (rules page, Solitaire).",
                    b.name(*at)
                )
            } else {
                format!(
                    "A Doomsday Machine ({number}) is found at {}! It attacks any ship there, moves after every \
                     turn and destroys planets and asteroids (rule 17).",
                    b.name(*at)
                )
            }
        }
        Event::MachineMoved {
            number,
            from,
            path,
            mines,
            ..
        } => {
            // A machine with nowhere to go: nothing happened.
            let to = path.last()?;
            let mut t = format!("Doomsday Machine {number} moves from {} to {}", b.name(*from), b.name(*to));
            if path.len() > 1 {
                t.push_str(&format!(" through {}", b.list(&path[..path.len() - 1])));
            }
            t.push('.');
            if !mines.is_empty() {
                t.push_str(&format!(
                    " Mines detonate in its path without harming it: {} (rule 17.2).",
                    labels(mines)
                ));
            }
            t
        }
        Event::WorldDestroyed {
            number,
            at,
            marker,
            colony,
        } => {
            let what = marker.map_or_else(|| "planet".to_string(), |m| m.name());
            let mut t = format!("Doomsday Machine {number} destroys the {what} at {}", b.name(*at));
            if let Some(owner) = colony {
                t.push_str(&format!(", with {}'s colony", n(*owner)));
            }
            t.push_str(" (rule 17.4).");
            t
        }
        Event::BattleEnded { at, aliens: true, .. } => {
            format!("The battle at {} is over: the aliens hold the hex.", b.name(*at))
        }
        Event::BattleEnded { at, winner, lost, .. } => {
            let mut t = format!("The battle at {} is over: {} holds the hex.", b.name(*at), n(*winner));
            if !lost.is_empty() {
                t.push_str(&format!(" Destroyed with their side: {}.", labels(lost)));
            }
            t
        }
        Event::ColonyFired {
            at, unit, dice, worth, ..
        } => format!(
            "{unit} fires at the colony of {}: {} → {}.",
            b.name(*at),
            dice.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
            worth.map_or("destroyed".to_string(), worth_words)
        ),
        Event::Explored {
            at,
            marker: marker @ Marker::WarpPoint(_),
            removed: true,
        } => format!(
            "{} explored: a {}, discarded: that number's pair is found already (text 16.2).",
            b.name(*at),
            marker.name()
        ),
        Event::Explored { at, marker, .. } => format!("{} explored: {}.", b.name(*at), marker.name()),
        Event::SentBack { moves } => {
            let parts: Vec<String> = moves.iter().map(|(l, h)| format!("{l} to {}", b.name(*h))).collect();
            format!("The Super Nova sends them back: {}.", parts.join(", "))
        }
        Event::LostOwed { shifter, at } => format!(
            "Lost in Space at {}: {} shifts the stack one hex.",
            b.name(*at),
            n(*shifter)
        ),
        Event::Shifted { at, dir, to, .. } => {
            format!("The stack at {} drifts {} to {}.", b.name(*at), dir.key(), b.name(*to))
        }
        Event::EconomicBegan { round, wrecks, .. } => {
            let mut t = format!("Round {round}: the Economic Phase. Everyone writes a sheet.");
            for (_, hex, die, tech) in wrecks.iter().filter(|w| me(w.0)) {
                t.push_str(&format!(
                    " Space Wreck at {}: d10 {die}, a free level of {}.",
                    b.name(*hex),
                    tech.name()
                ));
            }
            t
        }
        Event::Sheet(e) => return e.narrate(viewer, |l| line_text(b, l)),
        Event::EconomyCarriedOut { ledgers, .. } => {
            let mut parts = vec!["The sheets are carried out.".to_string()];
            for l in ledgers {
                parts.push(ledger_words(b, l, me(l.seat), &n(l.seat)));
            }
            parts.retain(|p| !p.is_empty());
            parts.join(" ")
        }
        Event::ColoniesGrew => "Colonies grow.".into(),
        Event::BidsRevealed { bids, winner } => {
            let parts: Vec<String> = bids.iter().map(|(s, b)| format!("{} {b}", n(*s))).collect();
            format!("Bids: {}. {} chooses the first player.", parts.join(", "), n(*winner))
        }
        Event::StandingSet { seat, standing } if me(*seat) => format!(
            "Standing orders: auto {}, target {}, retreat {}, screen {}, colonies {}.",
            if standing.auto { "on" } else { "off" },
            standing.target.key(),
            standing.retreat.key(),
            standing.screen.key(),
            standing.colonies.key()
        ),
        Event::Resigned { seat } => format!(
            "🏳️ {} resigned: their empire leaves the game, its units and colonies removed (a colony's planet is free to settle).",
            n(*seat)
        ),
        Event::GameEnded { outcome, scores } => {
            let who = match outcome {
                Outcome::Winner { seat, reason } => format!("{} wins: {reason}.", n(*seat)),
                Outcome::Shared { seats, reason } => format!(
                    "{} share the win: {reason}.",
                    and_list(&seats.iter().map(|s| n(*s)).collect::<Vec<_>>())
                ),
                Outcome::AllLose { reason } => format!("Everyone loses: {reason}."),
            };
            let sc: Vec<String> = scores.iter().map(|(s, p)| format!("{} {p}", n(*s))).collect();
            if sc.is_empty() {
                who
            } else {
                format!("{who} Scores: {}.", sc.join(", "))
            }
        }
        _ => return None,
    })
}

fn self_owner(t: &super::state::battle::Target) -> Seat {
    match t {
        super::state::battle::Target::Group(l) => l.owner,
        _ => Seat(u8::MAX),
    }
}

/// A ledger in words: everything for its owner; for others what the map
/// shows (new counters and scrapped counters; not the Bases and Ship Yards,
/// placed face down).
fn ledger_words(b: &Board, l: &Ledger, mine: bool, who: &str) -> String {
    let mut parts = Vec::new();
    if mine {
        parts.push(format!(
            "You: income {} + minerals {}{} − maintenance {}, bid {}, spent {} in all; {} CP carried over{}.",
            l.colony_income,
            l.mineral_income,
            if l.trade_income > 0 {
                format!(" + pipelines {}", l.trade_income)
            } else {
                String::new()
            },
            l.maintenance,
            l.bid,
            l.spent,
            l.carried,
            if l.lost > 0 {
                format!(" ({} lost to the cap)", l.lost)
            } else {
                String::new()
            }
        ));
    }
    // Raiders are bought and scrapped unseen by others (advanced rule 12.1).
    let mut new_at: Vec<(Hex, usize)> = Vec::new();
    for u in l.bought.iter().filter(|u| mine || u.kind != Kind::Raider) {
        match new_at.iter_mut().find(|(h, _)| *h == u.hex) {
            Some(slot) => slot.1 += 1,
            None => new_at.push((u.hex, 1)),
        }
    }
    if !new_at.is_empty() {
        let items: Vec<String> = new_at.iter().map(|(h, k)| format!("{k} at {}", b.name(*h))).collect();
        parts.push(format!("{who}: new counters {}.", items.join(", ")));
    }
    // Unpredictable research's dice (text 19.2): the owner's alone.
    if mine {
        for r in &l.rolls {
            let dice: Vec<String> = r.dice.iter().map(u32::to_string).collect();
            let next = l.levels.get(r.tech) + u32::from(!r.reached);
            let level = format!("{} {next}", r.tech.name());
            let result = if r.reached {
                format!("{level} reached")
            } else {
                format!("short of {level}, carried to the next phase")
            };
            parts.push(format!(
                "You: research {} rolled {}: {} of {} needed, {result}.",
                r.tech.name(),
                dice.join(", "),
                r.total,
                r.needed
            ));
        }
    }
    // Bases and Ship Yards are placed face down (text 7.6.2): only their
    // owner reads of them until combat occurs in their hex.
    if mine {
        for (h, k) in &l.built {
            parts.push(format!(
                "You: a {} at {} (face down until combat there).",
                k.name(),
                b.name(*h)
            ));
        }
    }
    let scrapped: Vec<Label> = l
        .scrapped
        .iter()
        .copied()
        .filter(|u| mine || !l.unseen.contains(u))
        .collect();
    if !scrapped.is_empty() {
        parts.push(format!("{who} scrapped {}.", labels(&scrapped)));
    }
    parts.join(" ")
}
