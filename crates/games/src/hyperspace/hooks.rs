//! What tests and tools need of Hyperspace beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::orders::{parse, unparse, Action};
use super::state::State;
use super::Hyperspace;
use orrery_engine::{CommandLine, GameRng, Ruleset, Seat, Viewer};
use serde_json::Value;

/// Hyperspace hides nothing but secret picks not yet revealed (the
/// property tests check those on their own): nothing to scramble.
pub fn scramble(_state: &State, _keep: &[Seat], _private_only: bool, _rng: &mut GameRng) -> Option<State> {
    None
}

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

/// The whole-game tests' player: short, aggressive games, from the legal
/// orders and the public view only. Depart with the biggest fleet once a
/// turn, land warp tokens on enemy ships (or enemy home stars, or anywhere
/// rather than lose them), then end the turn; in battles, the strongest
/// card, the heaviest losses, never retreat.
pub fn test_order(state: &State, seat: Seat, legal: &[Action]) -> Option<Action> {
    let lines: Vec<CommandLine> = legal.iter().map(unparse).collect();
    let kind = Hyperspace::pending(state)
        .into_iter()
        .find(|p| p.seat == seat && !p.submitted)?
        .kind;
    let line = match kind.as_str() {
        "turn" => turn_order(state, seat, &lines),
        "combat-card" => strongest_card(&lines)?,
        "losses" => lines
            .iter()
            .filter(|c| c.name == "losses")
            .max_by_key(|c| num(c, "n"))?
            .clone(),
        "retreat" => lines
            .iter()
            .find(|c| c.name == "retreat" && num(c, "ships") == 0)?
            .clone(),
        _ => lines.first()?.clone(),
    };
    Some(parse(&line).expect("the test player's order is one of the legal ones"))
}

/// The strongest card among legal `card` orders.
fn strongest_card(legal: &[CommandLine]) -> Option<CommandLine> {
    legal
        .iter()
        .filter(|c| c.name == "card")
        .max_by_key(|c| card_rank(c.get("name").unwrap_or("")))
        .cloned()
}

fn card_rank(name: &str) -> usize {
    CARDS
        .iter()
        .position(|c| c.eq_ignore_ascii_case(name))
        .map_or(0, |i| i + 1)
}

fn num(c: &CommandLine, key: &str) -> u64 {
    c.get(key).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn turn_order(state: &State, seat: Seat, legal: &[CommandLine]) -> CommandLine {
    let view = serde_json::to_value(Hyperspace::view(state, Viewer::Public)).expect("views serialize");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_rank_from_the_spy_up() {
        assert!(card_rank("Admiral") > card_rank("spy"));
        assert_eq!(card_rank("nonsense"), 0);
        let legal = [
            CommandLine::new("card").arg("name", "Ensign"),
            CommandLine::new("card").arg("name", "Captain"),
        ];
        assert_eq!(strongest_card(&legal).unwrap().get("name"), Some("Captain"));
    }
}
