//! How the test players choose their orders: short, aggressive games.
//!
//! Built only from the seat's legal orders and what the seat can see, so it
//! works for whatever position the game reaches.
//!
//! Hyperspace: depart with the biggest fleet once a turn, land warp tokens
//! on enemy ships (or enemy home stars, or anywhere rather than lose them),
//! then end the turn. In battles: the strongest card, the heaviest losses,
//! never retreat.
//!
//! Starlanes (no hidden information but the deck order): look one order
//! ahead. Every legal order is tried on a copy of the state through the
//! ruleset's own `decide` and `apply`; the one that most improves the
//! seat's position (see [`starlanes_worth`], which reads only what every
//! player sees, never the deck) is given, and the turn ends when no order
//! improves it.

use orrery::engine::{CommandLine, Seat, Viewer};
use orrery::games::{AnyState, GameKind};
use serde_json::Value;

/// The card names from weakest to strongest.
pub const CARDS: [&str; 7] = [
    "Spy",
    "Ensign",
    "Lieutenant",
    "Tactician",
    "Captain",
    "Commodore",
    "Admiral",
];

/// The kind of decision `seat` owes now, if any ("turn", "combat-card", ...).
pub fn owed(state: &AnyState, seat: Seat) -> Option<String> {
    state
        .pending()
        .into_iter()
        .find(|p| p.seat == seat && !p.submitted)
        .map(|p| p.kind)
}

/// The order `seat` gives now, if it owes one.
pub fn choose(state: &AnyState, seat: Seat) -> Option<CommandLine> {
    let legal = state.legal_commands(seat);
    if legal.is_empty() {
        return None;
    }
    let kind = owed(state, seat)?;
    if state.kind() == GameKind::Starlanes {
        return Some(starlanes_order(state, seat, &legal));
    }
    match kind.as_str() {
        "turn" => Some(turn_order(state, seat, &legal)),
        "combat-card" => strongest_card(&legal),
        "losses" => legal
            .iter()
            .filter(|c| c.name == "losses")
            .max_by_key(|c| num(c, "n"))
            .cloned(),
        "retreat" => legal
            .iter()
            .find(|c| c.name == "retreat" && num(c, "ships") == 0)
            .cloned(),
        _ => legal.first().cloned(),
    }
}

/// The strongest card among legal `card` orders.
pub fn strongest_card(legal: &[CommandLine]) -> Option<CommandLine> {
    legal
        .iter()
        .filter(|c| c.name == "card")
        .max_by_key(|c| card_rank(c.get("name").unwrap_or("")))
        .cloned()
}

pub fn card_rank(name: &str) -> usize {
    CARDS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(name))
        .map_or(0, |i| i + 1)
}

fn num(c: &CommandLine, key: &str) -> u64 {
    c.get(key).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn turn_order(state: &AnyState, seat: Seat, legal: &[CommandLine]) -> CommandLine {
    let view = state.view_json(Viewer::Public);
    let me = seat.index();
    let stars: Vec<&Value> = view["stars"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    let star = |name: &str| {
        stars
            .iter()
            .find(|s| s["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
    };
    let ships_of = |s: &Value, seat: usize| s["ships"][seat].as_u64().unwrap_or(0);
    let enemy_ships = |s: &Value| {
        s["ships"].as_array().map_or(0, |a| {
            a.iter()
                .enumerate()
                .filter(|(i, _)| *i != me)
                .map(|(_, n)| n.as_u64().unwrap_or(0))
                .sum::<u64>()
        })
    };
    let tokens = &view["seats"][me]["tokens"];
    let square_of = |token: u64| {
        tokens
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["token"].as_u64() == Some(token)))
            .and_then(|t| t["square"].as_u64())
    };
    let departed_this_turn = tokens.as_array().is_some_and(|ts| {
        ts.iter()
            .any(|t| t["state"] == "flight" && t["square"].as_u64() == Some(0))
    });

    // 1. Depart once a turn, with the biggest fleet, before any arrival.
    if !departed_this_turn {
        if let Some(d) = legal
            .iter()
            .filter(|c| c.name == "depart" && c.get("to").is_none())
            .filter(|c| star(c.get("from").unwrap_or("")).is_some_and(|s| ships_of(s, me) == num(c, "ships")))
            .max_by_key(|c| num(c, "ships"))
        {
            return d.clone();
        }
    }
    // 2. Land on enemies, then on enemy home stars, then anywhere rather than
    //    lose the token.
    let score = |c: &CommandLine| -> u64 {
        let Some(s) = star(c.get("at").unwrap_or("")) else {
            return 0;
        };
        let enemy_home = s["home_of"].as_u64().is_some_and(|h| h as usize != me);
        if enemy_ships(s) > 0 {
            30 + u64::from(enemy_home)
        } else if enemy_home {
            20
        } else if square_of(num(c, "token")) == view["last_square"].as_u64() {
            10
        } else {
            0
        }
    };
    if let Some(a) = legal
        .iter()
        .filter(|c| c.name == "arrive")
        .filter(|c| score(c) > 0)
        .max_by_key(|c| score(c))
    {
        return a.clone();
    }
    CommandLine::new("end")
}

/// Starlanes: the legal order that most improves `seat`'s worth, or `end`.
/// Ties go to the first in the legal list, so play is deterministic.
fn starlanes_order(state: &AnyState, seat: Seat, legal: &[CommandLine]) -> CommandLine {
    let now = starlanes_worth(state, seat);
    let mut best: Option<(i64, &CommandLine)> = None;
    for c in legal.iter().filter(|c| c.name != "end") {
        let events = state
            .decide(seat, c)
            .unwrap_or_else(|e| panic!("the legal order `{c}` was refused: {e}"));
        let mut next = state.clone();
        for e in &events {
            next.apply(e).expect("a Starlanes event applies to a Starlanes state");
        }
        let w = starlanes_worth(&next, seat);
        if w > now && best.is_none_or(|(b, _)| w > b) {
            best = Some((w, c));
        }
    }
    best.map_or_else(|| CommandLine::new("end"), |(_, c)| c.clone())
}

/// How good a Starlanes position is for `seat`: victory points above all,
/// then a lead in stars (what scores), planets (science symbols count as
/// planets too), forces (own up, enemy down), production ready to use,
/// science, techs, ready techs.
pub fn starlanes_worth(state: &AnyState, seat: Seat) -> i64 {
    let AnyState::Starlanes(st) = state else {
        panic!("not a Starlanes state")
    };
    let me = seat.index();
    let stars = st.stars();
    let rival = stars
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != me)
        .map(|(_, s)| *s)
        .max()
        .unwrap_or(0);
    let lead = i64::from(stars[me]) - i64::from(rival);
    let (mut planets, mut forces, mut enemy, mut ready) = (0i64, 0i64, 0i64, 0i64);
    for (p, f) in st.forces.iter().enumerate() {
        match f {
            Some((s, n)) if *s == seat => {
                planets += 1 + i64::from(st.map.planets[p].science);
                forces += i64::from(*n);
                if !st.exhausted[p] {
                    ready += i64::from(st.map.planets[p].production);
                }
            }
            Some((_, n)) => enemy += i64::from(*n),
            None => {}
        }
    }
    let ps = &st.seats[me];
    let techs = ps.techs.len() as i64;
    let ready_techs = techs - ps.exhausted_techs.len() as i64;
    1000 * i64::from(ps.vp) + 50 * lead + 10 * planets + 3 * forces - 3 * enemy
        + 2 * ready
        + 20 * i64::from(ps.science)
        + 70 * techs
        + ready_techs
}
