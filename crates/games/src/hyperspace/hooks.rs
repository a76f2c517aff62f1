//! What tests and tools need of Hyperspace beyond its rules: the
//! hidden-state scrambler ([`scramble`]) and the whole-game tests' player
//! ([`test_order`]).

use super::basics::Card;
use super::orders::{parse, unparse, Action};
use super::state::{Battle, BattleStep, State};
use super::Hyperspace;
use orrery_engine::{CommandLine, GameRng, Ruleset, Seat, Simultaneous, Viewer};
use serde_json::Value;

/// Hyperspace has no dice and no deck: all it hides is a battle's secret
/// card picks until both are in (hands are public). The picks of seats
/// not in `keep` are drawn anew, each uniformly from its player's hand in
/// card order, so that the result depends on `rng` and on what the kept
/// seats know, never on the pick itself (the computer player's fairness
/// rests on it: `orrery_engine::bot`). With nothing hidden the state comes
/// back as it is. A pick is revealed in play, so with `private_only`
/// nothing changes: `None`.
pub fn scramble(state: &State, keep: &[Seat], private_only: bool, rng: &mut GameRng) -> Option<State> {
    if private_only {
        return None;
    }
    let mut s = state.clone();
    let hands: Vec<Vec<Card>> = s
        .seats
        .iter()
        .map(|m| {
            let mut h = m.hand.clone();
            h.sort();
            h.dedup();
            h
        })
        .collect();
    if let Some(Battle {
        step: BattleStep::Cards { picks },
        ..
    }) = s.battle_mut()
    {
        let mut drawn = Simultaneous::new(picks.owed().to_vec());
        for &seat in picks.owed() {
            let Some(&pick) = picks.pick_of(seat) else {
                continue;
            };
            let hand = &hands[seat.index()];
            let card = if keep.contains(&seat) || hand.is_empty() {
                pick
            } else {
                hand[rng.below(hand.len() as u32) as usize]
            };
            drawn.submit(seat, card);
        }
        *picks = drawn;
    }
    Some(s)
}

/// The computer player's hint (`Ruleset::evaluate`), from the public
/// board alone (rules page, *Winning the game*): half the seat's share of
/// the round-limit scores, half its share of the ships (what wins battles
/// and breaks score ties), each player still in counted one more; a seat
/// that holds its own home star and has ships at a rival's captured one
/// (a conquest at its next turn) at least 0.9; one whose home star is
/// captured, half as much.
pub fn evaluate(st: &State, seat: Seat) -> f64 {
    let Some(me) = st.seat(seat) else { return 0.0 };
    if me.eliminated {
        return 0.0;
    }
    let alive: Vec<Seat> = st.seat_ids().filter(|s| !st.seats[s.index()].eliminated).collect();
    let share = |f: &dyn Fn(Seat) -> u32| {
        let all: u32 = alive.iter().map(|s| f(*s) + 1).sum();
        f64::from(f(seat) + 1) / f64::from(all.max(1))
    };
    let value = 0.5 * share(&|s| st.score(s)) + 0.5 * share(&|s| st.total_ships(s));
    let conquest = me.captured_by.is_none()
        && st.seat_ids().any(|r| {
            r != seat && st.seats[r.index()].captured_by.is_some() && st.ships_at(st.seats[r.index()].home, seat) > 0
        });
    if conquest {
        value.max(0.9)
    } else if me.captured_by.is_some() {
        value / 2.0
    } else {
        value
    }
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
    fn the_hint_follows_score_and_ships() {
        let events = Hyperspace::setup(&orrery_engine::GameConfig::new(2, 1)).expect("set-up");
        let mut s = Hyperspace::fold(&events);
        // Alike at the start: even.
        assert!((evaluate(&s, Seat(0)) - 0.5).abs() < 1e-9);
        let home = s.seats[0].home;
        // Seat 1 loses ships: seat 2 leads.
        s.remove_ships(home, Seat(0), 10);
        assert!(evaluate(&s, Seat(1)) > 0.5 && evaluate(&s, Seat(0)) < 0.5);
        // Seat 2 captures seat 1's home star: a conquest at its next turn.
        s.remove_ships(home, Seat(0), 5);
        s.add_ships(home, Seat(1), 3);
        s.seats[0].captured_by = Some(Seat(1));
        assert!(evaluate(&s, Seat(1)) >= 0.9);
        assert!(evaluate(&s, Seat(0)) < 0.1);
        let sum = evaluate(&s, Seat(0)) + evaluate(&s, Seat(1));
        assert!(sum <= 1.0 + 1e-9, "{sum}");
    }

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
