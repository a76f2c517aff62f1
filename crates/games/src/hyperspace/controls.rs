//! How legal orders are offered to a person ([`Ruleset::control`]), and
//! which actions a player may take back ([`Ruleset::takes_back`]).
//!
//! [`Ruleset::control`]: orrery_engine::Ruleset::control
//! [`Ruleset::takes_back`]: orrery_engine::Ruleset::takes_back

use super::basics::{Card, Star};
use super::events::Event;
use super::orders::Action;
use super::rules::arrival_actions;
use super::state::{BattleStep, Stage, State, Token};
use crate::shared::menu::{and_list, chunk, count, pack, GROUP_MOST};
use orrery_engine::{Control, ControlStyle, Seat};

fn ships(n: u32) -> String {
    count(n, "ship", "ships")
}

fn control_of(label: String, group: String, style: ControlStyle) -> Control {
    Control {
        label,
        group,
        style,
        confirm: None,
    }
}

/// The label, group and style of a legal order of `seat`.
pub fn control(state: &State, seat: Seat, action: &Action) -> Control {
    use ControlStyle::{Main, Minor};
    match action {
        Action::Depart { from, ships: n, to } => {
            let label = match to {
                None => format!("Depart {} · {}", from.name(), ships(*n)),
                Some(to) => format!("Jump {} to {} · {}", from.name(), to.name(), ships(*n)),
            };
            control_of(label, departure_group(state, seat, *from, *n, to.is_some()), Main)
        }
        Action::Arrive { token, at } => {
            let carried = match token_of(state, seat, *token) {
                Some(Token::Flight { ships: n, .. }) => *n,
                _ => 0,
            };
            let label = format!("Arrive at {} · token {token} ({})", at.name(), ships(carried));
            let all = arrival_actions(state, seat);
            let of_token = |k: u8| -> Vec<&Action> {
                all.iter()
                    .filter(|a| matches!(a, Action::Arrive { token, .. } if *token == k))
                    .collect()
            };
            let mut tokens: Vec<(u8, usize)> = Vec::new();
            for a in &all {
                if let Action::Arrive { token: k, .. } = a {
                    if !tokens.iter().any(|(t, _)| t == k) {
                        tokens.push((*k, of_token(*k).len()));
                    }
                }
            }
            // Tokens with few destinations share a menu ("Arrive · tokens 1
            // and 3"); a token with too many has its own, in runs.
            let shared = pack(&tokens, TOKENS_PER_MENU).into_iter().find(|m| m.contains(token));
            let group = match shared {
                _ if all.len() <= GROUP_MOST => "Arrive".to_string(),
                Some(menu) if menu.len() > 1 => {
                    let names: Vec<String> = menu.iter().map(u8::to_string).collect();
                    format!("Arrive · tokens {}", and_list(&names))
                }
                _ => {
                    let mine = of_token(*token);
                    let pos = mine.iter().position(|a| *a == action).unwrap_or(0);
                    chunk(
                        &format!("Arrive · token {token} ({})", ships(carried)),
                        pos,
                        mine.len(),
                        1,
                        "",
                    )
                }
            };
            control_of(label, group, Main)
        }
        Action::End => end_control(state, seat),
        Action::Card { card } => control_of(card_label(*card), "Combat card".into(), Main),
        Action::Losses { n } => {
            let (mine, theirs) = match state.battle() {
                Some(b) => match b.step {
                    BattleStep::Losses { victor, loser } => {
                        (state.ships_at(b.star, victor), state.ships_at(b.star, loser))
                    }
                    _ => (0, 0),
                },
                None => (0, 0),
            };
            let (label, style) = if *n == 0 {
                ("No losses: spare them".to_string(), Minor)
            } else {
                let you = n.saturating_sub(1).min(mine);
                let you = if you == 0 {
                    "you lose none".to_string()
                } else {
                    format!("you lose {you}")
                };
                (format!("They lose {}, {you}", ships(*n)), Main)
            };
            let group = chunk("Losses", *n as usize, theirs as usize + 1, 0, "");
            control_of(label, group, style)
        }
        Action::Retreat { ships: n } => {
            let have = state.battle().map_or(0, |b| state.ships_at(b.star, seat));
            let (label, style) = match *n {
                0 => ("Stand firm".to_string(), Minor),
                k if k == have => (format!("Retreat all {}", ships(k)), Main),
                k => (format!("Retreat {}", ships(k)), Main),
            };
            control_of(label, chunk("Retreat", *n as usize, have as usize + 1, 0, ""), style)
        }
    }
}

fn token_of(state: &State, seat: Seat, token: u8) -> Option<&Token> {
    let i = (token as usize).checked_sub(1)?;
    state.seat(seat)?.tokens.get(i)
}

/// "Admiral (6)", "Tactician (3) · wins ties".
fn card_label(card: Card) -> String {
    match card {
        Card::Spy => format!("{} · 7 against the Admiral", card.label()),
        Card::Tactician => format!("{} · wins ties", card.label()),
        _ => card.label(),
    }
}

/// The most stars one menu of departures names (its name stays short).
const FLEETS_PER_MENU: usize = 4;
/// The most warp tokens one menu of arrivals takes.
const TOKENS_PER_MENU: usize = 3;

/// One group for all departures when they fit one menu. Else the stars'
/// fleets share menus: stars in board order, each menu taking the next
/// stars while their orders fit ("Fleets at Algol, Vega and Rigel"); a star
/// with too many ships for one menu has its own, split into departures and
/// jumps and into runs of ship counts.
fn departure_group(state: &State, seat: Seat, from: Star, n: u32, jump: bool) -> String {
    let orders_at = |s: Star| 2 * state.ships_at(s, seat) as usize;
    let total: usize = Star::all().map(orders_at).sum();
    if total <= GROUP_MOST {
        return "Depart".into();
    }
    let have = state.ships_at(from, seat);
    if orders_at(from) <= GROUP_MOST {
        let stars: Vec<(Star, usize)> = Star::all().map(|s| (s, orders_at(s))).collect();
        let names: Vec<String> = pack(&stars, FLEETS_PER_MENU)
            .into_iter()
            .find(|menu| menu.contains(&from))
            .unwrap_or_else(|| vec![from])
            .iter()
            .map(|s| s.name().to_string())
            .collect();
        return format!("Fleets at {}", and_list(&names));
    }
    let base = if jump {
        format!("Jump {} to {}", from.name(), from.sibling().name())
    } else {
        format!("Depart {}", from.name())
    };
    chunk(&base, n.saturating_sub(1) as usize, have as usize, 1, " ships")
}

/// "End turn" or "End movement and fight", with a question while fleets can
/// still depart or tokens arrive.
fn end_control(state: &State, seat: Seat) -> Control {
    let battles: Vec<Star> = Star::all()
        .filter(|s| state.ships_at(*s, seat) > 0 && state.occupants(*s).iter().any(|o| *o != seat))
        .collect();
    let (label, question) = match battles.as_slice() {
        [] => ("End turn".to_string(), "End your turn?".to_string()),
        [star] => (
            format!("End movement · battle at {}", star.name()),
            format!("End movement and fight at {}?", star.name()),
        ),
        many => (
            format!("End movement · {} battles", many.len()),
            format!("End movement and fight {} battles?", many.len()),
        ),
    };
    let mut can = Vec::new();
    let departures_open = matches!(state.stage, Stage::Moving { departures_open: true });
    let free_token = state.seat(seat).and_then(|m| m.free_token()).is_some();
    if departures_open && free_token && state.ships_on_board(seat) > 0 {
        can.push("fleets can still depart".to_string());
    }
    let mut arriving: Vec<u8> = arrival_actions(state, seat)
        .iter()
        .filter_map(|a| match a {
            Action::Arrive { token, .. } => Some(*token),
            _ => None,
        })
        .collect();
    arriving.dedup();
    match arriving.len() {
        0 => {}
        1 => can.push(format!("warp token {} can still arrive", arriving[0])),
        k => can.push(format!("{k} warp tokens can still arrive")),
    }
    let confirm = (!can.is_empty()).then(|| {
        let mut why = and_list(&can);
        if let Some(first) = why.get(..1) {
            why = first.to_uppercase() + &why[1..];
        }
        format!("{question} {why}.")
    });
    Control {
        label,
        group: "Turn".into(),
        style: ControlStyle::End,
        confirm,
    }
}

/// May an action with this event be taken back? Only what its player chose
/// with everything in view and nothing new coming out: fleets departing,
/// jumping, arriving or retreating, a retreat declined, a combat card
/// picked but not yet revealed (the pick is still secret), and the set-up
/// helpers that place things. Not the end of movement (battles or the next
/// turn follow), nor anything of a battle's resolution (reveals, results,
/// losses) or of a turn's start.
pub fn takes_back(event: &Event) -> bool {
    match event {
        Event::ShipsPlaced { .. }
        | Event::ShipsRemoved { .. }
        | Event::TokenPlaced { .. }
        | Event::HandArranged { .. }
        | Event::FleetDeparted { .. }
        | Event::FleetJumped { .. }
        | Event::FleetArrived { .. }
        | Event::CombatCardPicked { .. }
        | Event::FleetRetreated { .. }
        | Event::RetreatDeclined { .. } => true,
        Event::GameSetUp { .. }
        | Event::TurnBegan { .. }
        | Event::ShipsProduced { .. }
        | Event::WarpTokensAdvanced { .. }
        | Event::WarpTokenLost { .. }
        | Event::MovementEnded { .. }
        | Event::BattleBegan { .. }
        | Event::CombatRenewed { .. }
        | Event::CombatCardsRevealed { .. }
        | Event::HandRecycled { .. }
        | Event::CombatWon { .. }
        | Event::LossesTaken { .. }
        | Event::BattleEnded { .. }
        | Event::HomeStarCaptured { .. }
        | Event::HomeStarRecovered { .. }
        | Event::PlayerEliminated { .. }
        | Event::Resigned { .. }
        | Event::TurnEnded { .. }
        | Event::GameEnded { .. } => false,
    }
}
