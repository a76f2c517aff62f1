//! What one viewer may see, and events in words.

use super::basics::{Card, Sector, Star, WinReason, LAST_SQUARE};
use super::events::Event;
use super::rules::pending;
use super::state::{BattleStep, CombatReport, Stage, State, Token};
use orrery_engine::{Outcome, Pending, Seat, Viewer};
use serde::Serialize;

/// A star as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StarView {
    pub name: String,
    pub sector: Sector,
    /// Raw materials (+).
    pub plus: u8,
    /// Population (O).
    pub pop: u8,
    /// The seat whose home star this is, in this game.
    pub home_of: Option<Seat>,
    /// Ships per seat.
    pub ships: Vec<u32>,
}

/// A warp token as shown (1-based number).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TokenView {
    pub token: u8,
    /// "ready", "spent", "flight" or "lost".
    pub state: &'static str,
    pub square: Option<u8>,
    pub ships: u32,
    pub from: Option<Sector>,
}

/// One player as shown. Hands are public; the picked card stays in the hand
/// until the reveal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    pub home: Star,
    pub home_captured_by: Option<Seat>,
    pub hand: Vec<Card>,
    pub played: Vec<Card>,
    pub tokens: Vec<TokenView>,
    pub ships_on_stars: u32,
    pub ships_in_flight: u32,
    pub stars_held: u32,
    /// Ships the next production would yield ((+, O) pairs possessed).
    pub pairs: u32,
    pub score: u32,
    pub eliminated: bool,
    /// The player resigned (they are out, and `eliminated` too). Left out
    /// when false, so views recorded before resigning existed still match.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

/// Who has picked a card (never what).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PickStatus {
    pub seat: Seat,
    pub picked: bool,
}

/// The battle in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BattleView {
    pub star: Star,
    pub sector: Sector,
    pub attacker: Seat,
    pub defender: Seat,
    pub combat: u32,
    pub attacker_ships: u32,
    pub defender_ships: u32,
    /// "cards", "losses", "retreat" or "resolved".
    pub step: &'static str,
    pub picked: Vec<PickStatus>,
    /// The viewer's own pick, if the viewer is in the battle and has picked.
    pub my_pick: Option<Card>,
    pub victor: Option<Seat>,
    pub loser: Option<Seat>,
    /// Who must decide now (losses / retreat).
    pub deciding: Option<Seat>,
}

/// Everything `viewer` may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub viewer: Viewer,
    pub players: u8,
    pub round: u32,
    pub rounds: u32,
    pub turn: u32,
    pub active: Seat,
    pub production_round: bool,
    /// "not-started", "moving", "battle", "resolving", "over".
    pub stage: &'static str,
    pub departures_open: bool,
    pub last_square: u8,
    pub stars: Vec<StarView>,
    pub seats: Vec<SeatView>,
    pub battle: Option<BattleView>,
    pub last_combat: Option<CombatReport>,
    pub pending: Vec<Pending>,
    pub outcome: Option<Outcome>,
    pub final_scores: Option<Vec<u32>>,
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let n = state.seats.len();
    let stars = Star::all()
        .map(|star| StarView {
            name: star.name().to_string(),
            sector: star.sector(),
            plus: star.resources().plus,
            pop: star.resources().pop,
            home_of: state.home_owner(star),
            ships: (0..n).map(|i| state.ships_at(star, Seat(i as u8))).collect(),
        })
        .collect();
    let seats = state
        .seat_ids()
        .map(|seat| {
            let m = &state.seats[seat.index()];
            SeatView {
                seat,
                home: m.home,
                home_captured_by: m.captured_by,
                hand: m.hand.clone(),
                played: m.played.clone(),
                tokens: m
                    .tokens
                    .iter()
                    .enumerate()
                    .map(|(i, t)| match t {
                        Token::Ready | Token::Spent | Token::Lost => TokenView {
                            token: i as u8 + 1,
                            state: match t {
                                Token::Ready => "ready",
                                Token::Spent => "spent",
                                _ => "lost",
                            },
                            square: None,
                            ships: 0,
                            from: None,
                        },
                        Token::Flight { square, ships, from } => TokenView {
                            token: i as u8 + 1,
                            state: "flight",
                            square: Some(*square),
                            ships: *ships,
                            from: Some(*from),
                        },
                    })
                    .collect(),
                ships_on_stars: state.ships_on_board(seat),
                ships_in_flight: m.ships_in_flight(),
                stars_held: Star::all().filter(|s| state.possesses(seat, *s)).count() as u32,
                pairs: if m.captured_by.is_none() { state.pairs(seat) } else { 0 },
                score: state.score(seat),
                eliminated: m.eliminated,
                resigned: m.resigned,
            }
        })
        .collect();
    let battle = state.battle().map(|b| {
        let (step, picked, my_pick, victor, loser, deciding) = match &b.step {
            BattleStep::Cards { picks } => (
                "cards",
                picks
                    .submitted()
                    .into_iter()
                    .map(|(seat, picked)| PickStatus { seat, picked })
                    .collect(),
                viewer.seat().and_then(|me| picks.pick_of(me).copied()),
                None,
                None,
                None,
            ),
            BattleStep::Losses { victor, loser } => {
                ("losses", Vec::new(), None, Some(*victor), Some(*loser), Some(*victor))
            }
            BattleStep::Retreat { seat, victor, loser } => {
                ("retreat", Vec::new(), None, Some(*victor), Some(*loser), Some(*seat))
            }
            BattleStep::Resolved => ("resolved", Vec::new(), None, None, None, None),
        };
        BattleView {
            star: b.star,
            sector: b.star.sector(),
            attacker: b.attacker,
            defender: b.defender,
            combat: b.combat,
            attacker_ships: state.ships_at(b.star, b.attacker),
            defender_ships: state.ships_at(b.star, b.defender),
            step,
            picked,
            my_pick,
            victor,
            loser,
            deciding,
        }
    });
    View {
        viewer,
        players: state.players,
        round: state.round,
        rounds: state.options.rounds,
        turn: state.turn,
        active: state.active,
        production_round: state.round % 2 == 0,
        stage: match &state.stage {
            Stage::NotStarted => "not-started",
            Stage::Moving { .. } => "moving",
            Stage::Battle(_) => "battle",
            Stage::Resolving | Stage::TurnOver => "resolving",
            Stage::Over => "over",
        },
        departures_open: matches!(state.stage, Stage::Moving { departures_open: true }),
        last_square: LAST_SQUARE,
        stars,
        seats,
        battle,
        last_combat: state.last_combat.clone(),
        pending: pending(state),
        outcome: state.outcome.clone(),
        final_scores: state.final_scores.clone(),
    }
}

fn name(names: &[String], seat: Seat) -> String {
    names.get(seat.index()).cloned().unwrap_or_else(|| seat.to_string())
}

fn ships(n: u32) -> String {
    if n == 1 {
        "1 ship".into()
    } else {
        format!("{n} ships")
    }
}

/// One sentence per event, as `viewer` may learn of it.
pub fn narrate(event: &Event, viewer: Viewer, names: &[String]) -> Option<String> {
    let nm = |s: Seat| name(names, s);
    Some(match event {
        Event::GameSetUp {
            players,
            homes,
            options,
        } => format!(
            "A game of Hyperspace for {players} players began ({} rounds at most). Home stars: {}.",
            options.rounds,
            homes
                .iter()
                .enumerate()
                .map(|(i, h)| format!("{} at {}", nm(Seat(i as u8)), h.label()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::ShipsPlaced { seat, star, ships: n } => {
            format!("{} placed {} at {}.", nm(*seat), ships(*n), star.label())
        }
        Event::ShipsRemoved { seat, star, ships: n } => {
            format!("{} removed {} from {}.", nm(*seat), ships(*n), star.label())
        }
        Event::TokenPlaced {
            seat,
            token,
            square,
            ships: n,
            from,
        } => {
            format!(
                "{}'s warp token {token} was put on square {square} carrying {} from {from}.",
                nm(*seat),
                ships(*n)
            )
        }
        Event::HandArranged { seat, hand, .. } => format!(
            "{}'s hand is now {}.",
            nm(*seat),
            hand.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        ),
        Event::TurnBegan {
            seat,
            round,
            production,
            ..
        } => format!(
            "Round {round}: {}'s turn{}.",
            nm(*seat),
            if *production { " (a production turn)" } else { "" }
        ),
        Event::ShipsProduced { seat, star, ships: n } => {
            format!("{} produced {} at {}.", nm(*seat), ships(*n), star.label())
        }
        Event::WarpTokensAdvanced { seat, tokens } => format!(
            "{}'s warp token{} {} moved one square forward.",
            nm(*seat),
            if tokens.len() == 1 { "" } else { "s" },
            tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
        ),
        Event::WarpTokenLost {
            seat,
            token,
            ships: n,
            from,
        } => format!(
            "{}'s warp token {token} moved past square {LAST_SQUARE} and was lost in space with {} (from {from}).",
            nm(*seat),
            ships(*n)
        ),
        Event::FleetDeparted {
            seat,
            token,
            from,
            ships: n,
            ..
        } => format!(
            "{}'s fleet of {} departed {} on warp token {token}.",
            nm(*seat),
            ships(*n),
            from.label()
        ),
        Event::FleetJumped {
            seat,
            token,
            from,
            to,
            ships: n,
        } => format!(
            "{}'s fleet of {} jumped from {} to {} within the sector (warp token {token} is used this turn).",
            nm(*seat),
            ships(*n),
            from.name(),
            to.label()
        ),
        Event::FleetArrived {
            seat,
            token,
            star,
            ships: n,
            square,
        } => format!(
            "{}'s warp token {token} arrived from square {square}: {} at {}.",
            nm(*seat),
            ships(*n),
            star.label()
        ),
        Event::MovementEnded { seat } => format!("{} ended movement.", nm(*seat)),
        Event::BattleBegan {
            star,
            attacker,
            defender,
            attacker_ships,
            defender_ships,
        } => format!(
            "Battle at {}: {} ({}) attacks {} ({}).",
            star.label(),
            nm(*attacker),
            ships(*attacker_ships),
            nm(*defender),
            ships(*defender_ships)
        ),
        Event::CombatRenewed {
            star,
            combat,
            attacker_ships,
            defender_ships,
        } => format!(
            "The fight at {} goes on (combat {combat}): {} against {}.",
            star.name(),
            ships(*attacker_ships),
            ships(*defender_ships)
        ),
        Event::CombatCardPicked { seat, card } => {
            if viewer.sees_secrets_of(*seat) {
                format!("You picked the {} in secret.", card.label())
            } else {
                format!("{} has picked a combat card.", nm(*seat))
            }
        }
        Event::CombatCardsRevealed {
            attacker,
            attacker_card,
            attacker_total,
            defender,
            defender_card,
            defender_total,
            ..
        } => format!(
            "Cards revealed: {} played the {} (total {attacker_total}), {} played the {} (total {defender_total}).",
            nm(*attacker),
            attacker_card.label(),
            nm(*defender),
            defender_card.label()
        ),
        Event::HandRecycled { seat, cards } => format!(
            "{} played their last card and took back {}.",
            nm(*seat),
            cards.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        ),
        Event::CombatWon {
            star,
            victor,
            loser,
            reason,
        } => format!(
            "{} won the combat at {} against {}{}.",
            nm(*victor),
            star.name(),
            nm(*loser),
            match reason {
                WinReason::Total => "",
                WinReason::Tactician => " (the Tactician wins ties)",
                WinReason::DefenderHolds => " (a tie: the defender holds)",
            }
        ),
        Event::LossesTaken {
            victor,
            loser,
            loser_lost,
            victor_lost,
            ..
        } => format!(
            "{} lost {}; {} lost {}.",
            nm(*loser),
            ships(*loser_lost),
            nm(*victor),
            ships(*victor_lost)
        ),
        Event::FleetRetreated {
            seat,
            star,
            ships: n,
            token,
            ..
        } => format!(
            "{} retreated {} from {} on warp token {token}.",
            nm(*seat),
            ships(*n),
            star.name()
        ),
        Event::RetreatDeclined { seat, star } => format!("{} stood firm at {}.", nm(*seat), star.name()),
        Event::BattleEnded { star, holder } => match holder {
            Some(h) => format!("The battle at {} is over: {} holds it.", star.name(), nm(*h)),
            None => format!("The battle at {} is over: no ships remain.", star.name()),
        },
        Event::HomeStarCaptured { owner, star, by } => {
            format!(
                "{} captured {}, the home star of {}!",
                nm(*by),
                star.label(),
                nm(*owner)
            )
        }
        Event::HomeStarRecovered { owner, star } => {
            format!("{} recovered their home star {}.", nm(*owner), star.name())
        }
        Event::PlayerEliminated { seat } => format!("{} has been eliminated.", nm(*seat)),
        Event::Resigned { seat, ships: n, home } => format!(
            "🏳️ {} resigned and is out of the game: their {} (on stars and in flight) are removed, and their home star {} is an ordinary star from now on.",
            nm(*seat),
            ships(*n),
            home.name()
        ),
        Event::TurnEnded { seat } => format!("{}'s turn ended.", nm(*seat)),
        Event::GameEnded { outcome, scores } => {
            let score_text = scores
                .iter()
                .enumerate()
                .map(|(i, sc)| format!("{} {sc}", nm(Seat(i as u8))))
                .collect::<Vec<_>>()
                .join(", ");
            match outcome {
                Outcome::Winner { seat, reason } => {
                    format!("Game over: {} wins ({reason}). Scores: {score_text}.", nm(*seat))
                }
                Outcome::Shared { seats, reason } => format!(
                    "Game over: {} share the victory ({reason}). Scores: {score_text}.",
                    seats.iter().map(|s| nm(*s)).collect::<Vec<_>>().join(" and ")
                ),
                Outcome::AllLose { reason } => {
                    format!("Game over: everyone loses ({reason}). Scores: {score_text}.")
                }
            }
        }
    })
}
